"""``antipolix play``: one game between built-in agents, with a summary, a log and a replay;
``antipolix demo``: the README's main job."""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Mapping, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from antipolix.agents import Decision
from antipolix.cli import games as other
from antipolix.cli.common import (
    add_rules_options,
    add_seed_option,
    agent_list,
    agents_from_names,
    int_at_least,
    rules_from_args,
)
from antipolix.cli.common import (
    default_agents as game_default,
)
from antipolix.codec import apply_overrides, item_name, rules_overrides
from antipolix.errors import SimulationError
from antipolix.events import Combat, Eliminated, Event, Received, TimerChanged
from antipolix.game import Game, TurnReport
from antipolix.log import describe, piece_namer, summary_lines
from antipolix.pieces import Piece
from antipolix.play import play_game
from antipolix.replay import Replay, ReplayWriter, load_replay
from antipolix.rules import Rules
from antipolix.runner import check_out, simulate
from antipolix.watch import Hooks, PlayedGame, Watcher

DEMO_AGENTS = "greedy,greedy,random,greedy"
DEMO_SEED = 7
DEMO_REPLAY = Path("out/demo.apx.json.gz")
DEMO_BATCH = 200  # games of the demo batch: 4 players on a 6×12×12 board, seats shuffled
DEMO_BATCH_RULES = ["shape=6,12,12", "max_turns=500"]
PICTURES = "antipolix.pictures"  # entry points of picture writers (viz registers ``png``)


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
        f"its summary, write its replay to {DEMO_REPLAY} and a picture of the height of the "
        "battle beside it, then play a batch of small games. Other seeds, agents or rules "
        "name their files after themselves (demo-seed3-greedy-random-random...), so no demo "
        "overwrites another.",
    )
    _game_options(demo, default_agents=DEMO_AGENTS, default_seed=DEMO_SEED)
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
        default=agent_list(game_default(default_agents)),
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


def _turn_lines(game: Game, events: Sequence[Event]) -> list[str]:
    name = piece_namer(game)
    return [describe(e, name) for e in events if not isinstance(e, Received | TimerChanged)]


def play_and_print(
    rules: Rules, names: list[str], seed: int, replay: Path | None, log: bool
) -> PlayedGame:
    watchers: list[Watcher] = [] if replay is None else [ReplayWriter(replay)]
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
            lines = _turn_lines(game, report.events) or ["all pass"]
            print(f"turn {report.turn:4d}: {lines[0]}")
            for line in lines[1:]:
                print(" " * 12 + line)

    watchers.append(Hooks(on_start=on_start, on_turn=on_turn))
    played = play_game(rules, agents_from_names(names), seed, watchers=watchers)
    for line in summary_lines(played.game, played.agents, eliminations):
        print(line)
    if replay is not None:
        print(f"replay written to {replay}")
    return played


def run_play(args: argparse.Namespace) -> int:
    if args.game != "antipolix":
        return other.run_play(args)
    rules = rules_from_args(args, players=len(args.agents))
    play_and_print(rules, args.agents, args.seed, args.replay, args.log)
    return 0


def demo_name(args: argparse.Namespace, rules: Rules) -> str:
    """The name of a demo's files: ``demo`` for the README's demo, else one naming its seed,
    agents and (when the rules differ from the defaults) a short digest of them, so a second
    demo never overwrites the first's replay, picture or batch."""

    default = Rules(players=rules.players)
    changed = rules_overrides(rules, default)
    if args.seed == DEMO_SEED and ",".join(args.agents) == DEMO_AGENTS and not changed:
        return "demo"
    name = f"demo-seed{args.seed}-{'-'.join(args.agents)}"
    if changed:
        digest = hashlib.sha256(" ".join(changed).encode()).hexdigest()[:8]
        name += f"-rules-{digest}"
    return name


def run_demo(args: argparse.Namespace) -> int:
    if args.game != "antipolix":
        return other.run_demo(args, game_default(DEMO_AGENTS))
    rules = rules_from_args(args, players=len(args.agents))
    out: Path = args.out
    if out.exists() and not out.is_dir():
        raise SimulationError(f"cannot use --out {out}: it is a file, not a folder")
    name = demo_name(args, rules)
    replay = out / f"{name}.apx.json.gz"
    picture = out / f"{name}.png"
    batch = out / f"{name}-batch-{args.batch}"
    small = apply_overrides(rules, DEMO_BATCH_RULES)
    if args.batch:  # refuse a batch folder simulate would refuse before anything is written
        check_out(small, args.agents, args.batch, args.seed, batch, shuffle_seats=True)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimulationError(f"cannot create --out {out}: {exc.strerror}") from None
    play_and_print(rules, args.agents, args.seed, replay, args.log)
    code = render_battle_turn(replay, picture)
    if code or not args.batch:
        return code

    board = "×".join(str(d) for d in small.shape)
    print(
        f"\nbatch: {args.batch} games of {', '.join(args.agents)} on a {board} board (turn "
        f"limit {small.max_turns}), seats shuffled per game, seed {args.seed}, in {batch}"
    )
    results = simulate(
        small,
        args.agents,
        args.batch,
        args.seed,
        workers=args.workers,
        out=batch,
        shuffle_seats=True,
        progress=True,
    )
    print(results.summary())
    return 0


def battle_turn(replay: Replay) -> tuple[int, int, int]:
    """The turn a picture of the game should show: the one with the most attacks times the
    players still in play (a turn where the battle is on, not the last turn, where only the
    winner is left); ties go to the earlier turn. Returns (turn, attacks, players in play)."""
    alive = replay.rules.players
    best = (0, 0, alive)
    score = -1
    for report in replay:
        attacks = sum(isinstance(e, Combat) for e in report.events)
        if attacks * alive > score:
            best, score = (report.turn, attacks, alive), attacks * alive
        alive -= sum(isinstance(e, Eliminated) for e in report.events)
    return best


def render_battle_turn(replay: Path, png: Path) -> int:
    """Draw the game's busiest turn (:func:`battle_turn`) into ``png`` with the picture writer
    another package registers (``png`` in the :data:`PICTURES` entry-point group: ``viz``'s,
    called as ``save(replay, turn, path)`` and returning the path written), so antipolix never
    imports the viewer by name."""
    entry = next((e for e in entry_points(group=PICTURES) if e.name == "png"), None)
    if entry is None:
        print("antipolix: error: the view command is not installed (package viz)", file=sys.stderr)
        return 2
    try:
        save = entry.load()
    except ImportError as exc:  # a broken plug-in: one line, as for its commands
        print(f"antipolix: error: the picture writer is unavailable: {exc}", file=sys.stderr)
        return 2
    recorded = load_replay(replay)
    turn, attacks, alive = battle_turn(recorded)
    print(
        f"picture: turn {turn}, the height of the battle ({attacks} attack"
        f"{'s' if attacks != 1 else ''}, {alive} players in play)"
    )
    path = save(recorded, turn, png)
    print(f"wrote {path} (turn {turn} of {recorded.last_turn})")
    return 0
