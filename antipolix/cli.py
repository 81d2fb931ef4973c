"""Command line: ``antipolix demo`` plays a seeded game between built-in players and logs it."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from antipolix import __version__
from antipolix.agents import AGENTS
from antipolix.errors import AntipolixError
from antipolix.events import Combat, Eliminated, Event, Fate, GameOver, Received, TimerChanged
from antipolix.game import Game, TurnReport
from antipolix.log import describe, result_text
from antipolix.pieces import Piece
from antipolix.play import PlayedGame, play_game
from antipolix.rules import Rules


def _int_at_least(minimum: int, what: str = "") -> Callable[[str], int]:
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


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="antipolix", description="AntipoliX (1995) rules engine and simulator."
    )
    top.add_argument("--version", action="version", version=f"antipolix {__version__}")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser(
        "demo",
        help="play one seeded game between built-in players and print its turn log",
        description="Play one seeded game between built-in scripted players; print a short "
        "turn log (every turn up to --full-turns, then only turns with combat or eliminations) "
        "and the result.",
    )
    demo.add_argument(
        "--seed", type=_int_at_least(0, "seed "), default=7, help="game seed (default 7)"
    )
    demo.add_argument(
        "--agents",
        nargs="+",
        choices=sorted(AGENTS),
        default=["greedy", "random"],
        help="one built-in agent per seat (default: greedy random)",
    )
    demo.add_argument(
        "--shape",
        type=_int_at_least(1),
        nargs=2,
        metavar=("P", "N"),
        default=(4, 8),
        help="board of P layers of N×N cells (default 4 8)",
    )
    demo.add_argument(
        "--max-turns", type=_int_at_least(1), default=500, help="turn limit (default 500)"
    )
    demo.add_argument(
        "--full-turns",
        type=_int_at_least(0),
        default=8,
        metavar="K",
        help="log the first K turns in full (default 8)",
    )
    return top


def _army_text(pieces: Sequence[Piece]) -> str:
    counts: dict[str, int] = {}
    for p in pieces:
        trait = "" if p.trait.name == "NONE" else f" {p.trait.name.lower()}"
        name = f"{p.type.name.lower()}{trait}"
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n}× {k}" for k, n in sorted(counts.items()))


def _turn_lines(report: TurnReport) -> list[str]:
    shown: list[Event] = [e for e in report.events if not isinstance(e, Received | TimerChanged)]
    return [describe(e) for e in shown]


def demo(args: argparse.Namespace) -> int:
    rules = Rules(
        shape=(args.shape[0], args.shape[1], args.shape[1]),
        players=len(args.agents),
        max_turns=args.max_turns,
    )
    print(
        f"AntipoliX demo: {rules.players} players ({' vs '.join(args.agents)}) on a "
        f"{rules.shape[0]}×{rules.shape[1]}×{rules.shape[2]} board, seed {args.seed}, "
        f"budget {rules.army_budget}, timers {rules.initial_timer:g} s, "
        f"turn limit {rules.max_turns}"
    )
    quiet = 0

    def on_turn(game: Game, report: TurnReport) -> None:
        nonlocal quiet
        notable = any(isinstance(e, Combat | Fate | Eliminated | GameOver) for e in report.events)
        if report.turn > args.full_turns and not notable:
            quiet += 1
            return
        if quiet:
            print(f"      ({quiet} quiet turns of moves)")
            quiet = 0
        lines = _turn_lines(report)
        print(f"turn {report.turn:4d}: " + (lines[0] if lines else "all pass"))
        for line in lines[1:]:
            print(" " * 12 + line)

    def on_start(played: PlayedGame) -> None:
        for seat, army in enumerate(played.armies):
            print(f"army of P{seat} ({played.agents[seat]}): {_army_text(army)}")

    played = play_game(
        rules,
        [AGENTS[name] for name in args.agents],
        args.seed,
        on_turn=on_turn,
        on_start=on_start,
    )
    result = played.result
    print("result:", result_text(result))
    survivors = played.game.pieces()
    print(
        f"pieces left: {len(survivors)}; timers: "
        + ", ".join(f"P{p} {t:.1f}s" for p, t in played.game.timers.items())
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        if args.command == "demo":
            return demo(args)
    except AntipolixError as exc:
        print(f"antipolix: error: {exc}", file=sys.stderr)
        return 2
    return 2


if __name__ == "__main__":
    sys.exit(main())
