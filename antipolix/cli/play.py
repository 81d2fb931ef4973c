"""``antipolix play``: one game between built-in agents, with a summary, a log and a replay;
``antipolix demo``: the README's main job."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from antipolix.agents import Decision
from antipolix.cli import games as other
from antipolix.cli.common import (
    add_agents_option,
    add_rules_options,
    add_seed_option,
    agents_from_names,
    demo_stem,
    int_at_least,
    rules_from_args,
    seat_agents,
)
from antipolix.cli.common import (
    default_agents as game_default,
)
from antipolix.codec import apply_overrides, item_name, rules_overrides
from antipolix.compiling import compile_notice
from antipolix.errors import SimulationError
from antipolix.events import Eliminated, Event, Received, TimerChanged
from antipolix.game import Game, TurnReport
from antipolix.log import describe, piece_namer, summary_lines
from antipolix.pieces import Piece
from antipolix.play import play_game
from antipolix.replay import ReplayWriter, load_replay
from antipolix.rules import Rules
from antipolix.runner import check_out, simulate
from antipolix.story import story
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
        help="the main job: a seeded game (summary, replay, picture of its decisive turn, "
        "replay page), then a batch of games",
        description=f"Play the seeded demo game ({DEMO_AGENTS} on the default rules), print "
        f"its summary and its story, write its replay to {DEMO_REPLAY}, a picture of its "
        "decisive turn (the winner's first chief taken) and its replay page beside it, then "
        "play a batch of small games. Other seeds, agents or rules "
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
    add_agents_option(parser, game_default(default_agents))
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
        f"seed {seed}, an army budget of {rules.army_budget} points a player (R3), "
        f"turn limit {rules.max_turns} turns"
    )
    said = ("players=", "shape=", "budget=", "credits_per_100=", "max_turns=")  # (just above)
    other = [o for o in rules_overrides(rules) if not o.startswith(said)]
    if other:  # what else differs from the 1995 rules
        print(f"other rules: {' '.join(other)}")
    eliminations: list[tuple[int, Eliminated]] = []
    placed: dict[int, int] = {}

    def on_start(played: PlayedGame) -> None:
        placed.update((p.id, p.owner) for p in played.game.placement())
        for seat, army in enumerate(played.armies):
            cost = sum(rules.piece_cost(p.type, p.trait) for p in army)
            print(
                f"army of P{seat} ({played.agents[seat]}, {len(army)} "
                f"{'piece' if len(army) == 1 else 'pieces'}, {cost} points): "
                f"{army_text(army)}"
            )

    def on_turn(game: Game, report: TurnReport, decisions: Mapping[int, Decision]) -> None:
        eliminations.extend((report.turn, e) for e in report.events if isinstance(e, Eliminated))
        if log:
            lines = _turn_lines(game, report.events) or ["all pass"]
            print(f"turn {report.turn:4d}: {lines[0]}")
            for line in lines[1:]:
                print(" " * 12 + line)

    watchers.append(Hooks(on_start=on_start, on_turn=on_turn))
    agents = agents_from_names(names)
    note = compile_notice(agents)
    if note is not None:  # on stderr: stdout stays the game's, the same on every run
        print(f"antipolix: {note}", file=sys.stderr, flush=True)
    played = play_game(rules, agents, seed, watchers=watchers)
    for line in summary_lines(played.game, played.agents, eliminations, placed):
        print(line)
    if replay is not None:
        print(f"replay written to {replay}")
    return played


def run_play(args: argparse.Namespace) -> int:
    args.agents = seat_agents(args)
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
    return demo_stem("demo", args.seed, args.agents, changed)


def run_demo(args: argparse.Namespace) -> int:
    args.agents = seat_agents(args)
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
    code = draw_story(replay, picture, out / f"{name}.html")
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


def draw_story(replay: Path, png: Path, page: Path) -> int:
    """Draw the game's decisive turn (:mod:`antipolix.story`) into ``png``, its title naming
    the winner, and write the replay page, opening at that turn with the story marked on its
    timeline, to ``page``; print what each shows and how to open the page. Both are written
    by the picture writers another package registers (``png`` and ``html`` in the
    :data:`PICTURES` entry-point group: ``viz``'s, called as ``save(replay, turn, path)``), so
    antipolix never imports the viewer by name."""
    writers = {e.name: e for e in entry_points(group=PICTURES)}
    if "png" not in writers:
        print("antipolix: error: the view command is not installed (package viz)", file=sys.stderr)
        return 2
    try:
        save_png = writers["png"].load()
        save_page = writers["html"].load() if "html" in writers else None
    except ImportError as exc:  # a broken plug-in: one line, as for its commands
        print(f"antipolix: error: the picture writer is unavailable: {exc}", file=sys.stderr)
        return 2
    recorded = load_replay(replay)
    told = story(recorded)
    turn, last = told.decisive.turn, recorded.last_turn
    title = f"AntipoliX · turn {turn} of {last}, the decisive turn · {told.result}"
    path = save_png(recorded, turn, png, title=title)
    print(f"picture: {path}, turn {turn} of {last}, {told.decisive.text}")
    if save_page is None:
        print(f"replay page: antipolix view {replay} --html {page} (viz has no page writer)")
        return 0
    written = Path(save_page(recorded, turn, page))
    print(
        f"replay page: {written} (the whole game in any browser, opening at turn {turn}, the "
        f"story marked on its timeline); open it with a double click, or {_open_hint(written)}"
    )
    return 0


def _open_hint(page: Path) -> str:
    """How to open ``page`` from this terminal: the file's address, which most terminals and
    every browser open."""
    return f"in a browser: {page.resolve().as_uri()}"
