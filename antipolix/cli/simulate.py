"""``antipolix simulate``: many seeded games (in-process or on Ray), a Parquet dataset, a summary.

antipolix simulate --games 10000 --agents greedy,greedy,greedy,greedy --seed 1 --out runs/x
antipolix simulate --games 2000 --grid hovercraft.cost=1,2,3 --out runs/hover
antipolix simulate --games 100000 --address auto --out runs/big      # on a Ray cluster
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from antipolix import games
from antipolix.cli.common import (
    add_agents_option,
    add_ray_options,
    add_rules_options,
    add_seed_option,
    agents_from_names,
    checked_rules,
    current_game,
    default_agents,
    game_rules,
    int_at_least,
    rules_from_args,
    seat_agents,
)
from antipolix.codec import parse_value
from antipolix.errors import AntipolixError, SimulationError
from antipolix.runner import Results, rules_grid, simulate


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate",
        help="play many seeded games (in-process or on Ray) and summarise them",
        description="Play GAMES seeded games between built-in agents, on Ray (this machine by "
        "default, or a cluster with --address) or in-process (--workers 0); show a progress "
        "bar, write one row per game to a Parquet dataset in --out, and print win rates by "
        "agent and by seat with 95 % intervals and the distribution of game lengths. Running "
        "the same command again with the same --out plays only the games still missing.",
    )
    _study_options(p)
    _run_options(p)
    add_rules_options(p)
    p.set_defaults(func=run_simulate)


def _study_options(p: argparse.ArgumentParser) -> None:
    """What is played: games, agents, seed, seating, variants."""
    p.add_argument(
        "--games", type=int_at_least(1, "games "), default=1000, help="games (default 1000)"
    )
    add_agents_option(p, default_agents("greedy,greedy,greedy,greedy"))
    add_seed_option(p, 0, "root seed")
    p.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="KEY=V1,V2,...",
        help="one rules variant per value (repeatable: every combination), e.g. "
        "hovercraft.cost=1,2,3; separate list values with ';': shape=4,8,8;6,12,12",
    )
    p.add_argument(
        "--shuffle-seats", action="store_true", help="seat the agents in a random order per game"
    )


def _run_options(p: argparse.ArgumentParser) -> None:
    """Where and how: the study folder, Ray, chunks, replays, progress."""
    p.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="study folder (Parquet dataset); without it the results are not kept",
    )
    add_ray_options(p)
    p.add_argument(
        "--replays", action="store_true", help="also write every game's replay (needs --out)"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def parse_grid(base: Any, texts: list[str], game: str = games.DEFAULT) -> Any:
    """``["hovercraft.cost=1,2,3"]`` → one variant per value (every combination of several) of
    ``game``'s rules ``base`` (a dict name → rules; ``base`` itself without ``texts``)."""
    if not texts:
        return base
    example = "hovercraft.cost=1,2,3" if game == games.DEFAULT else "size=5,7"
    grid: dict[str, list[Any]] = {}
    for text in texts:
        key, sep, values = text.partition("=")
        key = key.strip()
        if not sep or not key or not values.strip():
            raise SimulationError(f"a grid is KEY=V1,V2,... (e.g. {example}), got {text!r}")
        if key in grid:
            raise SimulationError(f"--grid {key} is given twice")
        if key == "players":  # (the agents, one a seat, are the same in every variant)
            raise SimulationError(
                "--grid players is not a variant of one study: its agents (--agents, one a "
                "seat) are the same in every variant; run a study for each player count "
                "(--rule players=P)"
            )
        parts = [v.strip() for v in (values.split(";") if ";" in values else values.split(","))]
        if not all(parts):
            raise SimulationError(f"--grid {text!r} has an empty value")
        grid[key] = [parse_value(v) for v in parts]
    return rules_grid(base, grid, game)


def run_simulate(args: argparse.Namespace) -> int:
    agents: Sequence[Any]
    name = games.DEFAULT
    args.agents = seat_agents(args)
    if args.game == name:
        rules = rules_from_args(args, players=len(args.agents))
        variants = parse_grid(rules, args.grid)
        if isinstance(variants, dict):
            for variant in variants.values():
                checked_rules(variant)
        agents = agents_from_names(args.agents)
    else:  # another game: its configuration and agents through the game protocol
        game = current_game()
        name = game.info.name
        config = game_rules(game, args, players=len(args.agents))
        variants = parse_grid(config, args.grid, name)
        agents = args.agents
    try:
        results = simulate(
            variants,
            agents,
            args.games,
            args.seed,
            game=name,
            workers=args.workers,
            address=args.address,
            out=args.out,
            chunk_size=args.chunk_size,
            replays=args.replays,
            shuffle_seats=args.shuffle_seats,
            progress=not args.no_progress,
        )
    except KeyboardInterrupt:
        if args.out is not None:
            _interrupted(args.out)
        raise
    if results.run is not None:
        print(results.run)
    print(results.summary())
    if args.out is not None:
        print(f"\nrows: {args.out} (Parquet; e.g. pandas.read_parquet({str(args.out)!r}))")
    return 0


def _interrupted(out: Path) -> None:
    try:
        saved = Results.open(out)
    except AntipolixError:
        return
    total = saved.games * len(saved.variants)
    print(
        f"antipolix: {len(saved)} of {total} games are saved in {out}; run the same command "
        "again to play the rest",
        file=sys.stderr,
    )
