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
    print(f"{game.info.title}: perft from the start, rules {' '.join(options) or 'the defaults'}")
    for depth in range(1, args.depth + 1):
        began = time.perf_counter()
        count = host.perft(game, config, depth)
        print(f"perft({depth}) = {count:,} ({time.perf_counter() - began:.2f} s)")
    return 0
