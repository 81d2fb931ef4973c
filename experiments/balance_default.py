"""The committed balancing study: default rules, Greedy agents in every seat.

    .venv/bin/python experiments/balance_default.py [--games 2000] [--iterations 6] [--workers 2]

Runs ``antipolix.balance.fit_costs`` with its study folder under ``runs/balance-default``
(resumable: run it again after an interruption), then copies the small files (report, plots,
cost tables) to ``experiments/results/balance_default/`` for the repository, and prints how long
it took, where the time went and how many games it played (appended to ``run.txt`` there, one
block per run).
"""

from __future__ import annotations

import os
import platform
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path

from antipolix import Rules
from antipolix.balance import fit_costs
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, seed_arg

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "runs" / "balance-default"
KEEP = ROOT / "experiments" / "results" / "balance_default"


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int_at_least(1), default=2000, help="games per iteration")
    parser.add_argument("--iterations", type=int_at_least(1), default=6)
    parser.add_argument("--workers", type=int_at_least(0), default=None)
    parser.add_argument("--seed", type=seed_arg, default=2026)
    args = parser.parse_args()
    start = time.perf_counter()
    began = datetime.now(UTC)
    fit = fit_costs(
        Rules(),
        "greedy",
        args.games,
        args.iterations,
        args.seed,
        workers=args.workers,
        out=RUNS,
        progress=lambda line: print(line, flush=True),
    )
    seconds = time.perf_counter() - start
    KEEP.mkdir(parents=True, exist_ok=True)
    for name in ("report.md", "costs.csv", "costs.json", "study.json"):
        shutil.copy2(RUNS / name, KEEP / name)
    shutil.copytree(RUNS / "plots", KEEP / "plots", dirs_exist_ok=True)
    played = sum(len(g) for g in fit.games)
    games_s = sum(e.seconds_games for e in fit.estimates)
    fit_s = sum(e.seconds_fit for e in fit.estimates)
    lines = [
        f"{len(fit.estimates)} iterations, {played} games, {platform.machine()} with "
        f"{os.cpu_count()} CPUs; this run took {seconds / 60:.1f} min (games already in the "
        "study folder are read, not played again):",
        f"  games (simulate, or reading finished chunks): {games_s / 60:.1f} min",
        f"  value fits (statsmodels): {fit_s:.1f} s",
        f"  the rest (start-up, cost tables, plots, report): {seconds - games_s - fit_s:.1f} s",
        f"converged: {fit.converged}; proposed costs: {fit.proposed}",
    ]
    print(fit.costs_table().to_string(index=False))
    print("\n".join(lines) + f"\nreport: {KEEP / 'report.md'}")
    with (KEEP / "run.txt").open("a", encoding="utf-8") as log:  # one block per run
        log.write(f"run started {began:%Y-%m-%d %H:%M} UTC, workers {args.workers}\n")
        log.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    run_script(main)
