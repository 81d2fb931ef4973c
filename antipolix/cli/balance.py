"""``antipolix balance``: fit a cost table by mass simulation, with a study folder and report."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from antipolix.balance import BalanceError, fit_costs
from antipolix.balance.fit import check_step
from antipolix.cli.common import add_rules_options, add_seed_option, int_at_least, rules_from_args


def step_arg(text: str) -> float:
    """An argparse type: the damping exponent of a cost step, above 0 and at most 1."""
    try:
        return check_step(float(text))
    except ValueError as exc:  # float("x"), or BalanceError (a ValueError) from check_step
        message = str(exc) if isinstance(exc, BalanceError) else f"{text!r} is not a number"
        raise argparse.ArgumentTypeError(message) from None


def register(sub: Any) -> None:
    balance = sub.add_parser(
        "balance",
        help="estimate what each piece kind is worth and fit a fair cost table",
        description="Play games of random armies (every seat the same agent, seats shuffled), "
        "estimate each type's and paid trait's value in budget points, move the costs toward "
        "the values and repeat with the same seeds, until every kind's value per cost point "
        "is 1 within its 95 % interval or --iterations is reached. The study folder (--out) "
        "gets the games (Parquet), costs.csv/costs.json, plots and report.md; running the same "
        "command again resumes it.",
    )
    balance.add_argument(
        "--games-per-iteration",
        type=int_at_least(1),
        default=2000,
        metavar="N",
        help="games played at each iteration (default 2000)",
    )
    balance.add_argument(
        "--iterations",
        type=int_at_least(1),
        default=6,
        metavar="K",
        help="at most this many iterations (default 6)",
    )
    balance.add_argument(
        "--agents",
        default="greedy",
        metavar="NAME",
        help="the agent in every seat (default greedy)",
    )
    add_seed_option(balance, 0, "study seed")
    balance.add_argument("--out", type=Path, metavar="DIR", help="study folder (required)")
    balance.add_argument(
        "--workers",
        type=int_at_least(0),
        default=None,
        help="parallel workers (default: all cores; 0: in this process)",
    )
    balance.add_argument(
        "--step",
        type=step_arg,
        default=0.5,
        help="cost ← cost × (value/cost)^STEP, above 0 and at most 1 (default 0.5: damped, "
        "against oscillation; 1 jumps to the value)",
    )
    add_rules_options(balance)
    balance.set_defaults(func=run)
    # -- propose, meta, compare (antipolix.cli.meta) ----------------------------------------
    from antipolix.cli.meta import add_subcommands

    add_subcommands(balance)


def run(args: argparse.Namespace) -> int:
    if args.out is None:  # not required by argparse: the subcommands take their own --out
        raise BalanceError("the following arguments are required: --out (the study folder)")
    rules = rules_from_args(args)
    fit = fit_costs(
        rules,
        args.agents,
        args.games_per_iteration,
        args.iterations,
        args.seed,
        workers=args.workers,
        out=args.out,
        step=args.step,
        progress=lambda line: print(line, flush=True),
    )
    print(fit.costs_table().to_string(index=False))
    print(f"{fit.verdict}; proposed costs: {fit.proposed}")
    print(f"report: {args.out / 'report.md'}")
    return 0
