"""``antipolix play``: one game between built-in agents, with a summary, a log and a replay;
``antipolix demo``: the README's main job."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from antipolix.agents import Decision
from antipolix.agents.army import item_name
from antipolix.cli.common import (
    add_rules_options,
    add_seed_option,
    agent_list,
    agents_from_names,
    int_at_least,
    rules_from_args,
)
from antipolix.events import Eliminated, Event, Received, TimerChanged
from antipolix.game import Game, TurnReport
from antipolix.log import describe, summary_lines
from antipolix.pieces import Piece
from antipolix.play import PlayedGame, play_game
from antipolix.replay import ReplayWriter
from antipolix.rules import Rules

DEMO_AGENTS = "greedy,greedy,random,greedy"
DEMO_REPLAY = Path("out/demo.apx.json.gz")
DEMO_BATCH = 200  # games of the demo batch: 4 players on a 6×12×12 board, seats shuffled
DEMO_BATCH_RULES = ["shape=6,12,12", "max_turns=500"]


def register(sub: Any) -> None:
    play = sub.add_parser(
        "play",
        help="play one game between built-in agents and print its summary",
        description="Play one seeded game between built-in agents; print a summary (winner, "
        "reason, turns, eliminations, pieces left), with --log every turn, and with --replay "
        "write its replay file.",
    )
    _game_options(play, default_agents="greedy,greedy,greedy,greedy", default_seed=0)
    play.add_argument("--replay", type=Path, metavar="FILE", help="write the replay to FILE")
    play.set_defaults(func=run_play)

    demo = sub.add_parser(
        "demo",
        help="the main job: a seeded game with its summary and replay",
        description=f"Play the seeded demo game ({DEMO_AGENTS} on the default rules), print "
        f"its summary and write its replay to {DEMO_REPLAY}.",
    )
    _game_options(demo, default_agents=DEMO_AGENTS, default_seed=7)
    demo.add_argument(
        "--out", type=Path, default=DEMO_REPLAY.parent, metavar="DIR", help="output folder"
    )
    demo.add_argument(
        "--batch",
        type=int_at_least(0),
        default=DEMO_BATCH,
        metavar="N",
        help=f"games in the demo batch (default {DEMO_BATCH}; 0 skips it)",
    )
    demo.add_argument(
        "--workers",
        type=int_at_least(0),
        default=None,
        help="batch workers (default: every core, on Ray; 0: in this process)",
    )
    demo.set_defaults(func=run_demo)


def _game_options(parser: argparse.ArgumentParser, default_agents: str, default_seed: int) -> None:
    parser.add_argument(
        "--agents",
        type=agent_list,
        default=agent_list(default_agents),
        metavar="A,B,...",
        help=f"one built-in agent per seat, comma-separated (default {default_agents}); "
        "the number of agents sets the number of players",
    )
    add_seed_option(parser, default_seed, "game seed")
    parser.add_argument("--log", action="store_true", help="print a turn-by-turn log")
    add_rules_options(parser)


def army_text(pieces: Sequence[Piece]) -> str:
    counts: dict[str, int] = {}
    for p in pieces:
        name = item_name((p.type, p.trait))
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n}× {k}" for k, n in sorted(counts.items()))


def _turn_lines(events: Sequence[Event]) -> list[str]:
    return [describe(e) for e in events if not isinstance(e, Received | TimerChanged)]


def play_and_print(
    rules: Rules, names: list[str], seed: int, replay: Path | None, log: bool
) -> PlayedGame:
    writer = ReplayWriter(replay) if replay is not None else None
    board = "×".join(str(d) for d in rules.shape)
    print(
        f"AntipoliX: {rules.players} players ({', '.join(names)}) on a {board} board, "
        f"seed {seed}, budget {rules.army_budget}, turn limit {rules.max_turns}"
    )
    eliminations: list[tuple[int, Eliminated]] = []

    def on_start(played: PlayedGame) -> None:
        for seat, army in enumerate(played.armies):
            print(f"army of P{seat} ({played.agents[seat]}): {army_text(army)}")

    def on_turn(game: Game, report: TurnReport, decisions: Mapping[int, Decision]) -> None:
        eliminations.extend((report.turn, e) for e in report.events if isinstance(e, Eliminated))
        if log:
            lines = _turn_lines(report.events) or ["all pass"]
            print(f"turn {report.turn:4d}: {lines[0]}")
            for line in lines[1:]:
                print(" " * 12 + line)

    played = play_game(
        rules, agents_from_names(names), seed, on_start=on_start, on_turn=on_turn, writer=writer
    )
    for line in summary_lines(played.game, played.agents, eliminations):
        print(line)
    if replay is not None:
        print(f"replay written to {replay}")
    return played


def run_play(args: argparse.Namespace) -> int:
    rules = rules_from_args(args, players=len(args.agents))
    play_and_print(rules, args.agents, args.seed, args.replay, args.log)
    return 0


def run_demo(args: argparse.Namespace) -> int:
    rules = rules_from_args(args, players=len(args.agents))
    args.out.mkdir(parents=True, exist_ok=True)
    replay = args.out / DEMO_REPLAY.name
    play_and_print(rules, args.agents, args.seed, replay, args.log)
    code = render_last_turn(replay, args.out / "demo.png")
    if code or not args.batch:
        return code
    from antipolix.config import apply_overrides
    from antipolix.simulate import simulate

    small = apply_overrides(rules, DEMO_BATCH_RULES)
    board = "×".join(str(d) for d in small.shape)
    print(
        f"\nbatch: {args.batch} games of {', '.join(args.agents)} on a {board} board (turn "
        f"limit {small.max_turns}), seats shuffled per game, seed {args.seed}"
    )
    results = simulate(
        small,
        args.agents,
        args.batch,
        args.seed,
        workers=args.workers,
        out=args.out / "demo-batch",
        shuffle_seats=True,
        progress=True,
    )
    print(results.summary())
    return 0


def render_last_turn(replay: Path, png: Path) -> int:
    """Draw the replay's last turn with the ``view`` command, which the viewer package
    registers (antipolix itself never imports it)."""
    from antipolix.cli import main, plugin_commands

    if "view" not in plugin_commands():
        print("antipolix: error: the view command is not installed (package viz)", file=sys.stderr)
        return 2
    return main(["view", str(replay), "--png", str(png)])
