"""``antipolix tune``: tune the planner's weights by CMA-ES and self-play, in a resumable folder.

antipolix tune --out runs/tune --generations 40 --games 48 --seed 1
antipolix tune --out runs/tune-small --weights win,press,advance --workers 1
antipolix tune --out runs/tune --address auto            # on a Ray cluster
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from antipolix.agents.planner import WEIGHT_NAMES
from antipolix.cli.common import (
    add_ray_options,
    add_rules_options,
    add_seed_option,
    int_at_least,
    rules_from_args,
)
from antipolix.codec import apply_overrides, load_rules_table, parse_override
from antipolix.errors import AntipolixError
from antipolix.rules import Rules


def refuses(game: Any) -> str | None:
    """Why ``tune`` makes no sense for ``game``: it tunes AntipoliX's planner."""
    if game.info.name != "antipolix":
        return f"tune tunes the weights of antipolix's planner, and {game.info.name} has no planner"
    return None


def weight_names(text: str) -> list[str]:
    """An argparse type: comma-separated planner weight names, checked at once."""
    from antipolix.tuning import Space

    names = [n.strip() for n in text.split(",") if n.strip()]
    try:
        return list(Space.of(names).names)
    except AntipolixError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def sigma_arg(text: str) -> float:
    """An argparse type: CMA-ES's initial step size
    (:func:`~antipolix.tuning.study.check_sigma0`)."""
    from antipolix.tuning.study import check_sigma0

    return _checked_number(text, check_sigma0)


def draw_arg(text: str) -> float:
    """An argparse type: what a draw scores (:func:`~antipolix.tuning.evaluate.check_draw`)."""
    from antipolix.tuning.evaluate import check_draw

    return _checked_number(text, check_draw)


def _checked_number(text: str, check: Callable[[float], float]) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    try:
        return check(value)
    except AntipolixError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


DEFAULT_GAMES = 48  # games per candidate and generation: a multiple of 2, 3, 4, 6 and 8 players


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tune",
        help="tune the planner's weights by CMA-ES and self-play",
        description="Search the planner's position-value weights (each scaled to [0, 1] by its "
        "range) with CMA-ES, starting at the committed tuned weights. Each generation, every "
        "candidate and the generation's mean play GAMES games (two players unless --rule "
        "players=P says otherwise; think times drawn by the engine) against the hand-set "
        "planner and the last generations' means, which take every other seat, on the same "
        "seeds and seats; the score is (wins + draws × --draw) / games, and at more than two "
        "players each other seat counts as a meeting, won when finished ahead. The study folder "
        "(--out) gets _tuning.json, a log of every generation (generations.jsonl), "
        "weights.json (CMA-ES's final mean), progress.csv, progress.png and report.md. Running "
        "the same command again resumes it; with more --generations it goes on.",
    )
    p.add_argument("--out", type=Path, required=True, metavar="DIR", help="study folder")
    p.add_argument(
        "--generations",
        type=int_at_least(1, "generations "),
        default=40,
        metavar="G",
        help="CMA-ES generations (default 40)",
    )
    p.add_argument(
        "--population",
        type=int_at_least(2, "population "),
        metavar="N",
        help="candidates per generation (default: CMA-ES's, 4 + 3 ln(weights): 12 for all 19)",
    )
    p.add_argument(
        "--games",
        type=int_at_least(2, "games "),
        default=None,
        metavar="N",
        help="games per candidate and generation, a multiple of the players: each seed is "
        f"played from every seat (default {DEFAULT_GAMES}, or the next multiple of the players "
        "above it)",
    )
    add_seed_option(p, 0, "study seed")
    p.add_argument(
        "--weights",
        type=weight_names,
        metavar="A,B,...",
        help=f"the weights to tune (default: all): {', '.join(WEIGHT_NAMES)}",
    )
    p.add_argument(
        "--sigma0",
        type=sigma_arg,
        default=0.2,
        help="initial step size, in units of each weight's range (default 0.2)",
    )
    p.add_argument(
        "--hall-of-fame",
        type=int_at_least(0, "hall of fame "),
        default=3,
        metavar="K",
        help="opponents besides the planner: the means of the last K generations (default 3)",
    )
    p.add_argument(
        "--draw",
        type=draw_arg,
        default=0.5,
        metavar="VALUE",
        help="what a draw (a level meeting) scores, from 0 to 0.5; a win scores 1 (default "
        "0.5). Below 0.5 a game without a winner costs the entry",
    )
    p.add_argument(
        "--mirror",
        action="store_true",
        help="every third group of games a table of the entry alone (its copies in every "
        "seat): with --draw below 0.5, weights whose own tables end in draws score less",
    )
    p.add_argument(
        "--check",
        type=int_at_least(0, "check games "),
        default=0,
        metavar="GAMES",
        help="then play GAMES games of the result against the hand-set planner on fresh seeds "
        "and report the win rate (default 0: no check)",
    )
    add_ray_options(p, in_process="0 or 1", chunks=False)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_rules_options(p)
    p.set_defaults(func=run_tune)


def tuning_rules(args: argparse.Namespace) -> Rules:
    """Two players unless the rules given set another number; think times drawn by the engine
    unless the rules given set them (R7)."""
    rules = rules_from_args(args) if _given(args, "players") else rules_from_args(args, players=2)
    return rules if _given(args, "think_times") else apply_overrides(rules, ["think_times=drawn"])


def _given(args: argparse.Namespace, option: str) -> bool:
    """Does ``--rule`` or the ``--rules`` file set ``option``?"""
    return any(parse_override(r)[0] == option for r in args.rule) or (
        args.rules is not None and option in load_rules_table(args.rules)
    )


def run_tune(args: argparse.Namespace) -> int:
    from antipolix.meta.report import counted
    from antipolix.tuning import check_weights, tune, write_outputs

    rules = tuning_rules(args)
    games = args.games
    if games is None:  # (--rule players=5: 50 games, each seed from every seat)
        games = -(-DEFAULT_GAMES // rules.players) * rules.players
    result = tune(
        args.out,
        generations=args.generations,
        population=args.population,
        games=games,
        seed=args.seed,
        weights=args.weights,
        sigma0=args.sigma0,
        hall_of_fame=args.hall_of_fame,
        draw=args.draw,
        mirror=args.mirror,
        rules=rules,
        workers=args.workers,
        address=args.address,
        progress=not args.no_progress,
    )
    before = len(result.log) - result.played
    print(
        f"{counted(len(result.log), 'generation')} ({result.played} played now, {before} read "
        f"from the log) in {result.seconds:.1f} s; σ = {result.sigma:.3g}"
    )
    print(result.table().drop(columns=list(result.space.names)).tail(5).to_string(index=False))
    print("weights (CMA-ES's final mean):")
    for name, value in result.tuned.items():
        print(f"  {name} = {value:.6g}")
    if args.check:
        check = check_weights(
            result.weights,
            args.check,
            args.seed,
            rules=rules,
            workers=args.workers,
            address=args.address,
            progress=not args.no_progress,
        )
        write_outputs(result, check)
        print(check.line())
    print(f"report: {args.out / 'report.md'}")
    return 0
