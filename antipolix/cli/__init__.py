"""The ``antipolix`` command: one subcommand per module of this package.

    antipolix demo                      # the README's main job
    antipolix play --agents greedy,random,greedy,greedy --seed 3 --replay game.apx.json.gz
    antipolix replay verify game.apx.json.gz

Each module defines ``register(subparsers)``, which adds its parser with ``func`` set to the
function that runs it. Commands from other packages (``antipolix view``, from ``viz``) register
the same function under the ``antipolix.commands`` entry-point group of ``pyproject.toml``.
Bad input ends with ``antipolix: error: ...`` on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import entry_points

from antipolix import __version__
from antipolix.cli import balance, play, replay, simulate
from antipolix.errors import AntipolixError

MODULES = [play, replay, simulate, balance]


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="antipolix", description="AntipoliX (1995): rules engine, agents and simulator."
    )
    top.add_argument("--version", action="version", version=f"antipolix {__version__}")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in MODULES:
        module.register(sub)
    for entry in entry_points(group="antipolix.commands"):  # e.g. ``view``, from viz
        try:
            register = entry.load()
        except ImportError as exc:  # a broken plug-in must not take the other commands down
            print(f"antipolix: command {entry.name!r} is unavailable: {exc}", file=sys.stderr)
            continue
        register(sub)
    return top


def plugin_commands() -> set[str]:
    """Names of the commands other packages register (``antipolix.commands`` entry points)."""
    return {entry.name for entry in entry_points(group="antipolix.commands")}


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except AntipolixError as exc:
        print(f"antipolix: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("antipolix: interrupted", file=sys.stderr)
        return 130
    return code
