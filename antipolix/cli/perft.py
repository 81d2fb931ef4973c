"""``antipolix perft --game NAME --depth D``: the number of legal action sequences of each depth
from the start, as chess engines count them to check move generation (S11 for Sight).

antipolix perft --game sight --depth 6
antipolix perft --game sight --depth 3 --rule pie=true
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from antipolix.cli.common import add_rules_options, current_game, game_rules, int_at_least
from antipolix.games import host


def refuses(game: Any) -> str | None:
    """Why ``perft`` makes no sense for ``game``: simultaneous moves or chance."""
    try:
        host.perft(game, game.config(), 0)
    except ValueError as exc:
        return str(exc)
    return None


def register(sub: Any) -> None:
    p = sub.add_parser(
        "perft",
        help="count the legal action sequences of each depth from the start",
        description="Print perft(1) … perft(DEPTH): the number of legal action sequences of "
        "that many actions from the start of a game (a finished game counts 0 beyond), as chess "
        "engines count them to check their move generation. A game whose moves are "
        "simultaneous or drawn by chance (antipolix) has none, and says so.",
    )
    p.add_argument(
        "--depth",
        type=int_at_least(0, "depth "),
        default=4,
        metavar="D",
        help="the deepest depth counted (default 4)",
    )
    add_rules_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    game = current_game()
    config = game_rules(game, args)
    options = host.overrides(game, config)
    print(
        f"{game.info.title}: perft from the start, rules {' '.join(options) or 'the defaults'}",
        flush=True,
    )
    counts: list[int] = []
    seconds = 0.0
    for depth in range(1, args.depth + 1):
        ahead = estimate(counts, seconds)
        if ahead is not None and ahead >= SAY_AHEAD:  # (each level takes the branching longer)
            print(f"perft({depth}): counting, about {ahead:,.0f} s (Ctrl-C stops)", flush=True)
        began = time.perf_counter()
        count = host.perft(game, config, depth)
        seconds = time.perf_counter() - began
        counts.append(count)
        print(f"perft({depth}) = {count:,} ({seconds:.2f} s)", flush=True)
    return 0


SAY_AHEAD = 10.0  # seconds: a level expected to take longer is announced before it starts


def estimate(counts: list[int], seconds: float) -> float | None:
    """The next level's seconds from the last one's and the branching seen between the last
    two counts (None before two levels, or when the game ended: nothing to grow)."""
    if len(counts) < 2 or counts[-2] == 0 or counts[-1] == 0:
        return None
    return seconds * counts[-1] / counts[-2]
