"""The committed proposal: a cost table for the default rules, balanced at the tuned agent, with
game health, the meta at the 1995 costs and at the proposal, and its reproducibility.

    .venv/bin/python experiments/meta_default.py [--workers 2] [--seed 2026]
        [--out runs/meta-default] [--results experiments/results/meta_default]
    .venv/bin/python experiments/meta_default.py --plan      # games and time, nothing played
    .venv/bin/python experiments/meta_default.py --small ... # a few games of every part

Runs :func:`antipolix.meta.propose.propose` on ``Rules()`` at ``tuned`` with ``greedy`` and
``planner`` beside it (the settings below; every part resumable in ``--out``: run it again
after an interruption), then copies the report, ``proposed.toml``, the CSVs, the plots and the
metas' tables to ``--results`` and appends to ``run.txt`` there the wall time, the games and
where the time went. ``--plan`` prints how many games each part plays at most and the time it
should take, from the seconds a game of each part costs (measured here on a few games).
``--small`` shrinks every count (an end-to-end run in minutes, its results elsewhere).
"""

from __future__ import annotations

import os
import platform
import shutil
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from antipolix import Rules
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, seed_arg
from antipolix.meta.health import Bounds
from antipolix.meta.propose import ProposalSettings
from antipolix.meta.run import propose
from antipolix.meta.search import MetaSettings
from antipolix.meta.values import slug

ROOT = Path(__file__).resolve().parents[1]
SEED = 2026
SETTINGS = ProposalSettings(
    agent="tuned",
    beside=("greedy", "planner"),
    bounds=Bounds(),  # the defaults: draws 5 %, length 25 %, seats, ladder, meta 56 %
    value_games=3000,
    iterations=6,
    health_games=400,
    ladder_agents=("greedy", "planner", "tuned"),
    ladder_games=200,
    meta=MetaSettings(rounds=4, generations=8, games=24, check_games=96, pair_games=48),
    replicates=3,
    candidates=6,
)
SMALL = replace(
    SETTINGS,
    value_games=300,
    iterations=2,
    health_games=24,
    ladder_games=8,
    meta=MetaSettings(rounds=2, generations=2, population=4, games=8, check_games=8, pair_games=6),
    replicates=2,
    candidates=2,
)


def planned(s: ProposalSettings, players: int) -> dict[str, int]:
    """The games each part plays at most: the balance steps on every seed set, the values
    beside at the start and the proposal, health and the ladder at the start and at every
    candidate, the meta at the start and at the candidates that reach it (counted: two)."""
    from antipolix.meta.armies import ArmySpace

    pairs = len(s.ladder_agents or ()) * (len(s.ladder_agents or ()) - 1) // 2
    tables = 1 + s.candidates
    return {
        "balance (values at the strongest agent)": s.replicates * s.iterations * s.value_games,
        "values beside, at the start and the proposal": 2 * len(s.beside) * s.value_games,
        "health": tables * s.health_games,
        "ladder": tables * pairs * s.ladder_games,
        "meta (start and one candidate)": 2 * s.meta.games_at_most(ArmySpace()),
    }


def per_game_seconds(rules: Rules, s: ProposalSettings, games: int = 24) -> dict[str, float]:
    """Seconds of play (one core) a game of each part costs, measured on ``games`` games after
    one that loads the compiled core."""
    import numpy as np

    from antipolix.agents import Agent, GivenArmy, agent_named
    from antipolix.autoplay import play_games
    from antipolix.balance import Design
    from antipolix.meta.armies import ArmySpace
    from antipolix.meta.search import play_rules

    table = play_rules(rules)
    seeds = [np.random.SeedSequence([SEED, 99, i]) for i in range(games)]

    def timed(seats: list[list[Agent]], r: Rules) -> float:
        play_games(r, [(seats[0], seeds[0])])
        began = time.perf_counter()
        play_games(r, list(zip(seats, seeds, strict=True)))
        return (time.perf_counter() - began) / games

    out = {}
    for name in (s.agent, *s.beside):
        bot = Design().agent(name, rules)  # the values study's random armies
        out[f"values ({name})"] = timed([[bot] * rules.players] * games, rules)
    own = agent_named(s.agent)
    out["health (own armies)"] = timed([[own] * table.players] * games, table)
    space = ArmySpace()
    rng = np.random.default_rng(1)
    searched = []
    for _ in range(games):
        bot = agent_named(s.agent)
        bot.army_policy = GivenArmy(space.decode(rng.uniform(size=space.dims), table))
        searched.append([bot] * table.players)
    out["meta (searched armies)"] = timed(searched, table)
    return out


def plan(rules: Rules, s: ProposalSettings, workers: int) -> str:
    counts = planned(s, rules.players)
    seconds = per_game_seconds(rules, s)
    strongest = seconds[f"values ({s.agent})"]
    beside = [seconds[f"values ({b})"] for b in (s.agent, *s.beside)]
    cost = {
        "balance (values at the strongest agent)": strongest,
        "values beside, at the start and the proposal": sum(beside) / len(beside),
        "health": seconds["health (own armies)"],
        "ladder": seconds["health (own armies)"] / 2,  # 2 players, weaker agents: an upper end
        "meta (start and one candidate)": seconds["meta (searched armies)"],
    }
    lines = [
        "seconds of play a game (one core): "
        + ", ".join(f"{k} {v:.3f}" for k, v in seconds.items())
    ]
    total_games = 0
    total = 0.0
    for part, n in counts.items():
        t = n * cost[part] / max(1, workers)
        total_games += n
        total += t
        lines.append(f"  {part}: at most {n:,} games, about {t / 60:.0f} min on {workers} cores")
    lines.append(
        f"in all: at most {total_games:,} games, about {total / 3600:.1f} h on {workers} cores "
        "(the ladder and the meta's later rounds only once they are reached)"
    )
    return "\n".join(lines)


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int_at_least(0), default=None)
    parser.add_argument("--seed", type=seed_arg, default=SEED)
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "meta-default")
    parser.add_argument("--results", type=Path, default=None)
    parser.add_argument("--plan", action="store_true", help="print the plan, play nothing")
    parser.add_argument("--small", action="store_true", help="a few games of every part")
    args = parser.parse_args()
    settings = SMALL if args.small else SETTINGS
    rules = Rules()
    settings.checked(rules)
    if args.plan:
        print(plan(rules, settings, args.workers or os.cpu_count() or 1))
        return
    results = args.results
    if results is None:
        small = ROOT / "runs" / "meta-default-small-results"
        results = small if args.small else ROOT / "experiments" / "results" / "meta_default"
    began = datetime.now(UTC)
    start = time.perf_counter()
    p = propose(
        rules,
        settings,
        seed=args.seed,
        out=args.out,
        workers=args.workers,
        say=lambda line: print(line, flush=True),
    )
    seconds = time.perf_counter() - start
    results.mkdir(parents=True, exist_ok=True)
    for name in (
        "report.md",
        "values.csv",
        "candidates.csv",
        "health.csv",
        "stability.csv",
        "proposal.json",
        "proposed.toml",
    ):
        if (args.out / name).exists():
            shutil.copy2(args.out / name, results / name)
    shutil.copytree(args.out / "plots", results / "plots", dirs_exist_ok=True)
    metas = [("start", p.start)] + ([("proposal", p.proposal)] if p.proposal else [])
    for name, costs in metas:
        folder = args.out / "meta" / slug(costs)
        for table in ("armies.csv", "scores.csv", "rounds.csv"):
            if (folder / table).exists():
                shutil.copy2(folder / table, results / f"meta-{name}-{table}")
    kinds = ("balance", "values", "health", "ladder", "meta")
    parts = ", ".join(
        f"{k}: {p.games.get(k, 0):,} games, {p.seconds.get(k, 0.0) / 60:.1f} min" for k in kinds
    )
    rest = seconds - sum(p.seconds.get(k, 0.0) for k in kinds)
    lines = [
        f"run started {began:%Y-%m-%d %H:%M} UTC, workers {args.workers}, seed {args.seed}"
        + (" (--small)" if args.small else ""),
        f"{platform.machine()} with {os.cpu_count()} CPUs; this run took {seconds / 60:.1f} min "
        "(games already in the study folder are read, not played again)",
        f"  {parts}",
        f"  the rest (start-up, fits, reports): {rest / 60:.1f} min",
        f"games in all: {sum(p.games.values()):,}",
        f"verdict: {p.verdict()}",
        "",
    ]
    print("\n".join(lines) + f"report: {results / 'report.md'}")
    with (results / "run.txt").open("a", encoding="utf-8") as log:
        log.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    run_script(main)
