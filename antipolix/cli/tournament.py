"""``antipolix tournament``: a rating ladder between agents (in-process or on Ray).

antipolix tournament --agents random,greedy,planner --games 100 --out runs/ladder
antipolix tournament --agents random,greedy,planner,planner:depth=2 --players 4 --out runs/l4
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from antipolix.agents import AGENTS
from antipolix.cli import games as other
from antipolix.cli.common import (
    MAX_COUNT,
    add_ray_options,
    add_rules_options,
    add_seed_option,
    agent_list,
    checked_rules,
    current_game,
    int_at_least,
)
from antipolix.codec import (
    load_rules_file,
    load_rules_table,
    parse_override,
    with_options,
)
from antipolix.errors import AntipolixError, RulesError, shown
from antipolix.ladder import BOOTSTRAP, Ladder, tournament
from antipolix.ladder.folder import MANIFEST
from antipolix.ladder.schedule import SEATINGS
from antipolix.rules import Rules


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tournament",
        help="rate agents: games between every lineup, Bradley–Terry ratings (Elo scale)",
        description="Play GAMES games for every lineup (every combination of PLAYERS distinct "
        "agents), in every seat order so that every agent sits in every seat, and beside and "
        "across from every other, equally often, think times drawn by the engine (R7), on Ray "
        "or in-process (--workers 0); fit Bradley–Terry "
        "ratings from every game's finishing order, on the Elo scale with random at 0 and 95 % "
        "bootstrap intervals (and of each gap between neighbours); print the table and write "
        "the games (Parquet, under --out/games), ratings.csv, ratings.md, ratings.png, gaps.csv, "
        "scores.csv and usage.csv to --out. Running the same command again with the same --out "
        "plays only the games still missing.",
    )
    p.add_argument(
        "--agents",
        type=agent_list,
        default=agent_list(",".join(current_game().agents)),
        metavar="A,B,...",
        help="the agents to rate, comma-separated, with parameters after colons "
        f"(search:rollouts=16); default: every built-in agent ({','.join(AGENTS)})",
    )
    p.add_argument(
        "--games",
        type=int_at_least(1, "games "),
        default=100,
        help="games per lineup (default 100), split over its seat orders: a multiple of "
        "--players seats every agent in every seat equally often; at 4 players a multiple of "
        "12 also balances who sits beside whom",
    )
    p.add_argument(
        "--lineup-games",
        type=lineup_count,
        action="append",
        default=[],
        metavar="A,B,...=N",
        help="N games for this lineup instead of --games (its agents comma-separated, in any "
        "order; repeat for others): more where the agents are fast or a gap needs them",
    )
    p.add_argument(
        "--players",
        type=int_at_least(2, "players "),
        default=None,
        help="seats at a table (default: the rules' players when --rule players=P or the rules "
        "file sets them, else 2); every combination of this many agents plays",
    )
    p.add_argument(
        "--seating",
        choices=SEATINGS,
        default="all",
        help="all (default): every seat order of a lineup, players! of them; rotation: only "
        "its --players rotations, which keep who sits beside whom fixed (the home zones lie on "
        "a ring, R3)",
    )
    add_seed_option(p, 0, "tournament seed")
    p.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="tournament folder (games, manifest, reports); without it nothing is kept",
    )
    add_ray_options(p)
    p.add_argument(
        "--bootstrap",
        type=int_at_least(0, "bootstrap ", maximum=100_000),
        default=BOOTSTRAP,
        metavar="B",
        help=f"bootstrap replicates for the intervals (default {BOOTSTRAP}; 0: none)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_rules_options(p)
    p.set_defaults(func=run_tournament)


def lineup_count(text: str) -> tuple[str, int]:
    """``A,B,...=N`` as (lineup, games); the last ``=`` splits them (agent parameters use
    ``=`` too)."""
    lineup, eq, count = text.rpartition("=")
    try:
        games = int(count)
    except ValueError:
        games = 0
    if not eq or not lineup.strip() or games < 1:
        raise argparse.ArgumentTypeError(
            f"expected a lineup and its games, A,B,...=N with N >= 1 (greedy,planner=400), "
            f"got {shown(text)}"
        )
    if games > MAX_COUNT:
        raise argparse.ArgumentTypeError(
            f"lineup {shown(lineup)}: {games:,} games, more than {MAX_COUNT:,}"
        )
    return lineup, games


def table_rules(args: argparse.Namespace) -> Rules:
    """Rules from ``--rules`` and ``--rule`` for ``--players`` seats, think times drawn (R7);
    an explicit other player count or ``think_times=agent`` is refused."""
    base = Rules() if args.rules is None else load_rules_file(args.rules)
    options = [parse_override(r) for r in args.rule]
    given = dict(options)
    if args.rules is not None:
        given = {**load_rules_table(args.rules), **given}
    if args.players is None:  # the tables' size from the rules, else two
        args.players = with_options(base, options).players if "players" in given else 2
    if "players" in given and given["players"] != args.players:
        rules = with_options(base, options)  # (the error of bad rules first)
        raise RulesError(
            f"the rules are for {rules.players} players but --players is {args.players}; "
            "--players sets the size of the tables"
        )
    if given.get("think_times", "drawn") != "drawn":
        with_options(base, options)
        raise RulesError(
            "a tournament always draws think times (R7 think_times=drawn), so that no agent "
            "gains on the clock; leave think_times out"
        )
    # the table's size with the other options, checked once at it (as play does)
    options += [("players", args.players), ("think_times", "drawn")]
    return checked_rules(with_options(base, options))


def run_tournament(args: argparse.Namespace) -> int:
    rules = table_rules(args) if args.game == "antipolix" else other.table_rules(args)
    try:
        ladder = tournament(
            args.agents,
            args.games,
            args.players,
            game=args.game,
            rules=rules,
            seed=args.seed,
            out=args.out,
            workers=args.workers,
            address=args.address,
            chunk_size=args.chunk_size,
            bootstrap=args.bootstrap,
            progress=not args.no_progress,
            seating=args.seating,
            lineup_games=dict(args.lineup_games),
        )
    except KeyboardInterrupt:
        if args.out is not None:
            _interrupted(args.out)
        raise
    print(ladder.run_line())
    print(ladder.summary())
    if args.out is not None:
        print(
            f"\nreport: {args.out / 'ratings.md'} (ratings.csv, ratings.png, gaps.csv, "
            f"scores.csv, usage.csv); games: {args.out / 'games'} (Parquet, e.g. "
            f"pandas.read_parquet({str(args.out / 'games')!r}))"
        )
    return 0


def _interrupted(out: Path) -> None:
    if not (out / MANIFEST).is_file():
        return
    try:
        saved = Ladder.open(out, bootstrap=0)
    except AntipolixError:
        return
    total = saved.total_games
    print(
        f"antipolix: {len(saved.games)} of {total} games are saved in {out}; run the same "
        "command again to play the rest",
        file=sys.stderr,
    )
