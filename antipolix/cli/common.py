"""What every command shares: argument types, rules options, agents, error reporting."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from antipolix.agents import Agent, agent_named
from antipolix.codec import apply_overrides, load_rules_file, load_rules_table, parse_override
from antipolix.errors import AntipolixError, RulesError
from antipolix.limits import check_seed, check_size, size_warning
from antipolix.rulebook import DOC
from antipolix.rules import Rules


def int_at_least(minimum: int, what: str = "") -> Callable[[str], int]:
    """An argparse type: an integer >= ``minimum``, refused with a message that says why."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{what}{value} must be >= {minimum}")
        return value

    return parse


def seed_arg(text: str) -> int:
    """An argparse type: a seed from 0 to 2**63 - 1, the same range for every command (R12)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    try:
        return check_seed(value)
    except AntipolixError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_seed_option(parser: argparse.ArgumentParser, default: int, what: str) -> None:
    parser.add_argument(
        "--seed",
        type=seed_arg,
        default=default,
        help=f"{what}, 0 to 2**63 - 1 (default {default})",
    )


def add_ray_options(
    parser: argparse.ArgumentParser, *, in_process: str = "0", chunks: bool = True
) -> None:
    """``--workers`` and ``--address`` (where games run: Ray, or this process for the
    ``in_process`` worker counts), and ``--chunk-size`` when ``chunks``."""
    parser.add_argument(
        "--workers",
        type=int_at_least(0, "workers "),
        metavar="K",
        help=f"games at a time on Ray (default: every CPU); {in_process} plays in this process"
        + (", no Ray" if in_process == "0" else ""),
    )
    parser.add_argument(
        "--address",
        metavar="ADDR",
        help="Ray cluster to join: auto, or HOST:PORT (default: start Ray on this machine)",
    )
    if chunks:
        parser.add_argument(
            "--chunk-size",
            type=int_at_least(1, "chunk size "),
            metavar="N",
            help="games per task and per file (default: automatic, tasks of a few seconds)",
        )


def agent_list(text: str) -> list[str]:
    """An argparse type: comma-separated built-in agent names, checked at once."""
    names = [n.strip() for n in text.split(",")]
    for name in names:
        try:
            agent_named(name)
        except AntipolixError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return names


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        f"rules (the options of {DOC}, default the 1995 rules; 'antipolix rules' prints them)"
    )
    group.add_argument(
        "--rules",
        type=Path,
        metavar="FILE",
        help="a TOML file of rule options (e.g. players = 6, [hovercraft] cost = 1)",
    )
    group.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one option, repeatable: players=6, shape=6,12,12, hovercraft.cost=1, "
        "invisible.cost=4, max_turns=500, timers=false",
    )


def checked_rules(rules: Rules) -> Rules:
    """``rules`` if a game of them fits the size limits (:mod:`antipolix.limits`); a large but
    allowed game gets one warning line on stderr with its estimated memory and time."""
    check_size(rules)
    warning = size_warning(rules)
    if warning is not None:
        print(f"antipolix: warning: {warning}", file=sys.stderr, flush=True)
    return rules


def rules_from_args(args: argparse.Namespace, players: int | None = None) -> Rules:
    """Rules from ``--rules`` and ``--rule``; ``players`` (the number of agents given) fills in
    the player count when neither sets it, and must agree with it when one does. Every command
    checks them the same way: :class:`Rules`, then the size limits (:func:`checked_rules`)."""
    return checked_rules(_rules_from_args(args, players))


def _rules_from_args(args: argparse.Namespace, players: int | None) -> Rules:
    base = Rules() if args.rules is None else load_rules_file(args.rules)
    rules = apply_overrides(base, args.rule)
    if players is None:
        return rules
    explicit = any(parse_override(r)[0] == "players" for r in args.rule) or (
        args.rules is not None and "players" in load_rules_table(args.rules)
    )
    if not explicit and rules.players != players:
        return apply_overrides(rules, [f"players={players}"])
    if rules.players != players:
        raise RulesError(
            f"the rules are for {rules.players} players but {players} agents are given"
        )
    return rules


def agents_from_names(names: list[str]) -> list[Agent]:
    return [agent_named(n) for n in names]
