"""``antipolix replay verify FILE`` and ``antipolix replay show FILE``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from antipolix.cli import games as other
from antipolix.cli.common import add_game_option
from antipolix.codec import rules_overrides
from antipolix.errors import ReplayError
from antipolix.events import Eliminated
from antipolix.games import replays
from antipolix.log import describe, piece_namer, summary_lines
from antipolix.play import verify


def register(sub: Any) -> None:
    replay = sub.add_parser(
        "replay",
        help="check or show a replay file",
        description="Work with replay files (antipolix-replay format, see antipolix.replay).",
    )
    verbs = replay.add_subparsers(dest="verb", required=True, metavar="VERB")
    verify = verbs.add_parser(
        "verify",
        help="re-simulate a replay from its header and check every event",
        description="Load FILE (checksum, format version), re-simulate every turn with the "
        "engine and compare every event; when the agents are built-in, play them again from "
        "the seed and compare every decision. Exit code 0 if all of it checks; 1 if only the "
        "events could be checked (an agent that is not built-in: the report says which); 2 "
        "if the file is refused.",
    )
    verify.add_argument("file", type=Path, metavar="FILE")
    add_game_option(verify, None)
    verify.set_defaults(func=run_verify)
    show = verbs.add_parser("show", help="print a replay's header and summary (and its log)")
    show.add_argument("file", type=Path, metavar="FILE")
    show.add_argument("--log", action="store_true", help="print every turn's events")
    add_game_option(show, None)
    show.set_defaults(func=run_show)


def _load(args: argparse.Namespace) -> Any:
    """The replay of any game (:func:`antipolix.games.replays.load`); with ``--game`` given,
    a file of another game is refused."""
    name, _ = replays.game_of(args.file)
    if args.game is not None and name != args.game:
        raise ReplayError(f"{args.file} is a replay of {name}, not of {args.game}")
    return replays.load(args.file)


def run_verify(args: argparse.Namespace) -> int:
    replay = _load(args)
    if isinstance(replay, replays.GameReplay):
        return other.run_verify(args, replay)
    report = verify(replay)
    print(f"{args.file}: {report}")
    return 0 if report.complete else 1


def run_show(args: argparse.Namespace) -> int:
    replay = _load(args)
    if isinstance(replay, replays.GameReplay):
        return other.run_show(args, replay)
    rules = replay.rules
    other_rules = [o for o in rules_overrides(rules) if not o.startswith(("players=", "shape="))]
    print(
        f"{args.file}: AntipoliX replay written by antipolix {replay.engine_version}; "
        f"{rules.players} players ({', '.join(replay.agents)}) on a "
        f"{'×'.join(str(d) for d in rules.shape)} board, other rules "
        f"{' '.join(other_rules) or 'the defaults'}, seed {replay.seed.entropy}"
    )
    eliminations = []
    for report in replay:
        eliminations += [(report.turn, e) for e in report.events if isinstance(e, Eliminated)]
        if args.log:
            name = piece_namer(replay.state_at(report.turn - 1))
            for e in report.events:
                print(f"turn {report.turn:4d}: {describe(e, name)}")
    placed = {p.id: p.owner for p in replay.state_at(0).placement()}
    end = replay.state_at(replay.last_turn)
    for line in summary_lines(end, replay.agents, eliminations, placed):
        print(line)
    return 0
