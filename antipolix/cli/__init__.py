"""The ``antipolix`` command: one subcommand per module of this package.

    antipolix demo                      # the README's main job
    antipolix play --agents greedy,random,greedy,greedy --seed 3 --replay game.apx.json.gz
    antipolix replay verify game.apx.json.gz
    antipolix serve --seats human,greedy --rule shape=4,8,8

Each module defines ``register(subparsers)``, which adds its parser with ``func`` set to the
function that runs it. Commands from other packages (``antipolix view``, from ``viz``) register
the same function under the ``antipolix.commands`` entry-point group of ``pyproject.toml``.
Bad input ends with ``antipolix: error: ...`` on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from importlib.metadata import entry_points
from typing import NoReturn

from antipolix.cli import balance, perft, play, replay, rules, serve, simulate, tournament, tune
from antipolix.cli.common import GAME, current_game, game_in
from antipolix.errors import AntipolixError, shown
from antipolix.games import DEFAULT
from antipolix.version import __version__

MODULES = [play, replay, simulate, balance, tournament, tune, rules, perft, serve]


class Parser(argparse.ArgumentParser):
    """argparse, with bad arguments refused in one line (``antipolix: error: ...``, exit code
    2) that names the command's help instead of printing the usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"antipolix: error: {message} (see: {self.prog} --help)\n")

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """As argparse parses, but arguments no command takes are refused by the command that
        was given (``see: antipolix balance compare --help``), not by the top parser."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            words = list(sys.argv[1:] if args is None else args)
            self._named(words).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def _named(self, words: Sequence[str]) -> argparse.ArgumentParser:
        """The (sub)command's parser that ``words`` name, command after subcommand."""
        chosen: argparse.ArgumentParser = self
        for word in words:
            subs = [a for a in chosen._actions if isinstance(a, argparse._SubParsersAction)]
            if subs and word in subs[0].choices:
                chosen = subs[0].choices[word]
        return chosen


def parser() -> argparse.ArgumentParser:
    top = Parser(
        prog="antipolix",
        description="Simulate, rate and balance games of sight and hidden information: AntipoliX "
        "(1995, the default) and Sight (--game sight); play AntipoliX live with antipolix serve.",
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


class Terminated(KeyboardInterrupt):
    """The process was asked to stop (SIGTERM: ``kill``, a job scheduler's time limit, a
    container stopping). A ``KeyboardInterrupt``, so that everything that keeps its work on
    Ctrl-C (a study's games played, a simulation's rows) keeps it here too; the command says
    which it was. (Here and not in :mod:`antipolix.errors`: every kernel's cache stamp reads
    that module, :func:`antipolix.jit.source_stamp`.)"""

    def __str__(self) -> str:
        return "terminated (SIGTERM)"


@contextlib.contextmanager
def terminating() -> Iterator[None]:
    """While this runs, SIGTERM raises :class:`Terminated` in the main thread (Python's default
    would end the process on the spot, nothing kept and Ray's processes left to find out): a
    command then stops as on Ctrl-C, keeping what it has, and says so in one line. The handler
    before is put back after (the commands also run inside tests)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise Terminated()

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _stopped(exc: KeyboardInterrupt) -> int:
    """Say that a command was stopped, in one line, and return its exit code: 143 for SIGTERM
    (:class:`Terminated`), 130 for Ctrl-C."""
    if isinstance(exc, Terminated):
        print(f"antipolix: {exc}", file=sys.stderr)
        return 128 + signal.SIGTERM
    print("antipolix: interrupted", file=sys.stderr)
    return 130


def run_script(script: Callable[[], object]) -> NoReturn:
    """Run a study script's ``main`` (``experiments/``) as the command runs: bad input, which the
    library refuses with an :class:`~antipolix.errors.AntipolixError`, ends in one line
    (``antipolix: error: ...``, exit code 2) instead of a traceback; Ctrl-C and SIGTERM end in
    one line too."""
    try:
        with terminating():
            script()
    except AntipolixError as exc:
        print(f"antipolix: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt as exc:  # (Ctrl-C, or SIGTERM: Terminated)
        sys.exit(_stopped(exc))
    sys.exit(0)


def _refusal(argv: Sequence[str]) -> str | None:
    """Why the command ``argv`` names makes no sense for the game it names (a command module's
    ``refuses(game)``), before its arguments are read: ``balance --game sight``."""
    words = [t for t in argv if not t.startswith("-")]
    for module in MODULES:
        refuses = getattr(module, "refuses", None)
        if refuses is None:
            continue
        names = getattr(module, "COMMANDS", (module.__name__.rpartition(".")[2],))
        if words and words[0] in names:
            why: str | None = refuses(current_game())
            return why
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    named = game_in(argv)
    token = GAME.set(named or DEFAULT)
    try:
        why = None if named is None else _refusal(argv)
        if why is not None:
            print(f"antipolix: error: {why}", file=sys.stderr)
            return 2
        return _run(argv)
    finally:
        GAME.reset(token)


def _run(argv: Sequence[str]) -> int:
    args = parser().parse_args(argv)
    try:
        with terminating():
            code: int = args.func(args)
    except AntipolixError as exc:
        print(f"antipolix: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # (Ctrl-C, or SIGTERM: Terminated)
        return _stopped(exc)
    except BrokenPipeError:  # e.g. ``antipolix play --log | head``: the reader has gone
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout
        return 141
    except OSError as exc:  # a file or folder a command was given or writes to: a name too
        # long, no permission, a full disk, a cluster that does not answer...
        print(f"antipolix: error: {_os_error(exc)}", file=sys.stderr)
        return 2
    return code


def _os_error(exc: OSError) -> str:
    """What the system refused, in one line, naming the file (its first 60 characters)."""
    why = exc.strerror or str(exc) or type(exc).__name__
    names = [n for n in (exc.filename, exc.filename2) if n is not None]
    if not names:
        return why
    return f"{why}: " + " → ".join(shown(os.fsdecode(n)) for n in names)
