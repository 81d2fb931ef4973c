"""``antipolix balance``: what each piece kind is worth (to players of every strength), and a
cost table fitted by mass simulation, each with a study folder and report."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from antipolix.balance import BalanceError, fit_costs
from antipolix.balance.by_skill import values_by_skill
from antipolix.balance.design import MENUS, Design
from antipolix.balance.fit import check_step
from antipolix.balance.skill_study import ValuesBySkill
from antipolix.balance.values import OUTCOMES
from antipolix.cli.common import (
    add_rules_options,
    add_seed_option,
    agent_list,
    int_at_least,
    rules_from_args,
)

GAMES = 2000  # games per agent (a values study) or per iteration (a cost fit) by default
VALUES_ONLY = ("games", "precision", "max_games", "restricted_games", "ladder", "menu", "outcome")
FIT_ONLY = ("games_per_iteration", "iterations", "step")


def refuses(game: Any) -> str | None:
    """Why ``balance`` makes no sense for ``game``: it prices piece costs (R2), and only
    AntipoliX has them."""
    if not game.info.costs or game.info.name != "antipolix":
        return (
            f"balance fits piece costs, and {game.info.name} has none to price (only "
            "antipolix does, R2)"
        )
    return None


def step_arg(text: str) -> float:
    """An argparse type: the damping exponent of a cost step, above 0 and at most 1."""
    try:
        return check_step(float(text))
    except ValueError as exc:  # float("x"), or BalanceError (a ValueError) from check_step
        message = str(exc) if isinstance(exc, BalanceError) else f"{text!r} is not a number"
        raise argparse.ArgumentTypeError(message) from None


def precision_arg(text: str) -> float:
    """An argparse type: the widest value-per-cost interval wanted, a positive number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(
            f"{text} must be a positive number (the widest value-per-cost interval wanted, "
            "e.g. 0.5)"
        )
    return value


def register(sub: Any) -> None:
    balance = sub.add_parser(
        "balance",
        help="what each piece kind is worth, by skill; or a fitted cost table",
        description="Play games of random armies (every seat the same agent) and estimate "
        "each type's and paid trait's value in budget points. With several agents, --games "
        "or --precision: a values study, each agent on the same seeds, placed on the skill "
        "axis by its ladder rating, each kind's value fitted against rating (values.csv, "
        "skill.csv, restricted.csv with --restricted-games, plots, report.md). With one "
        "agent and --games-per-iteration/--iterations: a cost fit, which moves the costs "
        "toward the values and repeats with the same seeds until every kind's value per cost "
        "point is 1 within its 95 % interval (costs.csv/costs.json, plots, report.md). The "
        "study folder (--out) keeps the games (Parquet); the same command again resumes it.",
    )
    balance.add_argument(
        "--agents",
        type=agent_list,
        default=["greedy"],
        metavar="NAMES",
        help="the agents, comma-separated, parameters after colons (search:rollouts=4); "
        "default greedy",
    )
    balance.add_argument("--out", type=Path, metavar="DIR", help="study folder (required)")
    add_seed_option(balance, 0, "study seed")
    balance.add_argument(
        "--workers",
        type=int_at_least(0),
        default=None,
        help="parallel workers (default: all cores; 0: in this process)",
    )
    values = balance.add_argument_group("a values study (several agents, or any of these)")
    values.add_argument(
        "--games",
        type=int_at_least(1),
        metavar="N",
        help=f"games per agent, the same seeds for each (default {GAMES}; with --precision, "
        "the first round's)",
    )
    values.add_argument(
        "--precision",
        type=precision_arg,
        metavar="W",
        help="play until every kind's value-per-cost interval (95 %%) is narrower than W for "
        "every agent, or --max-games",
    )
    values.add_argument(
        "--max-games",
        type=int_at_least(1),
        metavar="N",
        help="with --precision: at most N games per agent (default 50000)",
    )
    values.add_argument(
        "--ladder",
        metavar="PATH",
        help="the ratings placing each agent on the skill axis: a tournament folder or a "
        "ratings.csv (default: the committed ladder at the rules' table size, 2 or 4 players)",
    )
    values.add_argument(
        "--restricted-games",
        type=int_at_least(0),
        metavar="N",
        help="rate the strongest agent against copies of itself that may not buy each kind: "
        "N games per lineup of that tournament (a multiple of 24 at 4 players; default 0, "
        "none)",
    )
    values.add_argument(
        "--menu",
        choices=MENUS,
        help="how random armies draw items: by-cost (each weighted 1/cost; the default) or "
        "uniform (the cost fit's)",
    )
    values.add_argument(
        "--outcome",
        choices=OUTCOMES,
        help="what is fitted: order (every elimination; the default) or winner (the cost fit's)",
    )
    fit = balance.add_argument_group("a cost fit (one agent)")
    fit.add_argument(
        "--games-per-iteration",
        type=int_at_least(1),
        metavar="N",
        help=f"games played at each iteration (default {GAMES})",
    )
    fit.add_argument(
        "--iterations",
        type=int_at_least(1),
        metavar="K",
        help="at most this many iterations (default 6)",
    )
    fit.add_argument(
        "--step",
        type=step_arg,
        help="cost ← cost × (value/cost)^STEP, above 0 and at most 1 (default 0.5: damped, "
        "against oscillation; 1 jumps to the value)",
    )
    add_rules_options(balance)
    balance.set_defaults(func=run)
    # -- propose, meta, compare (antipolix.cli.meta) ----------------------------------------
    from antipolix.cli.meta import add_subcommands

    add_subcommands(balance)


def _given(args: argparse.Namespace, names: tuple[str, ...]) -> list[str]:
    return [f"--{n.replace('_', '-')}" for n in names if getattr(args, n) is not None]


def run(args: argparse.Namespace) -> int:
    if args.out is None:  # not required by argparse: the subcommands take their own --out
        raise BalanceError("the following arguments are required: --out (the study folder)")
    values, fitting = _given(args, VALUES_ONLY), _given(args, FIT_ONLY)
    if values and fitting:
        raise BalanceError(
            f"{values[0]} is an option of a values study and {fitting[0]} of a cost fit: "
            "give the options of one"
        )
    if len(args.agents) > 1 and fitting:
        raise BalanceError(
            f"a cost fit ({fitting[0]}) plays one agent; for the values of several agents, "
            "use --games or --precision"
        )
    rules = rules_from_args(args)
    if values or len(args.agents) > 1:
        return _values(args, rules)
    fit = fit_costs(
        rules,
        args.agents[0],
        args.games_per_iteration or GAMES,
        args.iterations or 6,
        args.seed,
        workers=args.workers,
        out=args.out,
        step=0.5 if args.step is None else args.step,
        progress=lambda line: print(line, flush=True),
    )
    print(fit.costs_table().to_string(index=False))
    print(f"{fit.verdict}; proposed costs: {fit.proposed}")
    print(f"report: {args.out / 'report.md'}")
    return 0


def _values(args: argparse.Namespace, rules: Any) -> int:
    design = Design(
        menu=args.menu or Design.menu,
        outcome=args.outcome or Design.outcome,
    )
    games = args.games if args.games is not None or args.precision is not None else GAMES
    study = values_by_skill(
        rules,
        args.agents,
        games,
        args.seed,
        ladder=args.ladder,
        precision=args.precision,
        max_games=args.max_games,
        restricted_games=args.restricted_games or 0,
        design=design,
        workers=args.workers,
        out=args.out,
        progress=lambda line: print(line, flush=True),
    )
    print(summary(study))
    print(f"report: {args.out / 'report.md'}")
    return 0


def summary(study: ValuesBySkill) -> str:
    """The study's outcome as plain text: value per cost point by kind and agent, flags,
    restricted play, verdict."""
    v = study.values
    cells = v.assign(
        shown=[
            "–"
            if r.verdict == "not estimated"
            else f"{r.ratio:.2f} [{r.ratio_low:.2f}, {r.ratio_high:.2f}] {r.verdict}"
            for r in v.itertuples()
        ]
    )
    table = cells.pivot(index="kind", columns="agent", values="shown")
    table = table.reindex(index=list(dict.fromkeys(v["kind"])), columns=study.agents)
    ratings = ", ".join(f"{a} {study.axis.ratings[a]:.0f}" for a in study.agents)
    lines = [
        f"value per cost point (95 %) by kind and agent; ratings: {ratings}",
        table.to_string(),
    ]
    flags = [str(f) for f in study.skill.get("flag", []) if isinstance(f, str) and f]
    lines.extend(flags)
    r = study.restricted
    for row in r.itertuples():
        if math.isfinite(row.rating_loss):
            lines.append(
                f"{row.agent} without {row.forbidden}: loses {row.rating_loss:.0f} Elo "
                f"[{row.loss_low:.0f}, {row.loss_high:.0f}]"
            )
    lines.append(study.verdict)
    return "\n".join(lines)
