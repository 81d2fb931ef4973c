"""The committed values-by-skill study: what each piece is worth to players of every strength.

    .venv/bin/python experiments/values_by_skill.py [--games 30000] [--search-games 1000]
        [--search search:rollouts=1:depth=2] [--restricted-games 192] [--workers 2]
        [--out runs/values-by-skill] [--results experiments/results/values_by_skill]

On the default rules (4 players, the 1995 costs): greedy, planner and tuned with ``--games``
games each, search at the budget ``--search`` names with ``--search-games`` (its first games
on the same seeds as the others'), all on study seed 2026, and restricted play for tuned
(``--restricted-games`` per lineup of its tournament against its five restricted copies).
The agents are placed on the skill axis by the committed 4-player ladder; search at a budget
that ladder does not rate is rated first by a short tournament against greedy, planner and
tuned (``--rate-games`` games, every seat order), its rating carried onto the committed scale
by the offset that best matches the three others' committed ratings. Everything is resumable
in ``--out`` (run the same command again after an interruption); at the end the report,
plots and CSVs are copied to ``--results`` with ``run.txt`` (wall time, where it went, and
the time the study would take at the counts given, from the seconds per game measured).
"""

from __future__ import annotations

import antipolix  # noqa: F401  (first, before numpy: OpenBLAS's kernels pinned, antipolix.blas)

# isort: split

import os
import platform
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from antipolix import Rules
from antipolix.agents import agent_label, agent_named
from antipolix.balance import SkillAxis, skill_axis, values_by_skill
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, make_folder, rules_from_args, seed_arg
from antipolix.errors import AntipolixError

ROOT = Path(__file__).resolve().parents[1]
SEED = 2026
FAST = ("greedy", "planner", "tuned")


def shown(path: Path) -> str:
    """``path`` as a report names it: relative to the project when it is inside it (a report
    is committed, and says nothing of the machine it was made on)."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def rated_axis(
    rules: Rules, search: str, rate_games: int, seed: int, out: Path, workers: int | None
) -> tuple[SkillAxis, str]:
    """The committed ladder's ratings of greedy, planner and tuned at the rules' table size,
    and search's at its budget: the committed one when the ladder rates it, else from a
    tournament against the three (on ``rules``), shifted onto the committed scale. The axis,
    and a line for ``run.txt``."""
    players = rules.players
    committed = skill_axis([*FAST], players)
    try:
        return skill_axis([*FAST, search], players), "search rated by the committed ladder"
    except AntipolixError:
        pass
    from antipolix.ladder import tournament

    began = time.perf_counter()
    ladder = tournament(
        [*FAST, search], rate_games, players=players, rules=rules, seed=seed,
        out=out / "rating", workers=workers,
    )  # fmt: skip
    own = dict(zip(ladder.ratings["agent"], ladder.ratings["rating"], strict=True))
    low = dict(zip(ladder.ratings["agent"], ladder.ratings["low"], strict=True))
    high = dict(zip(ladder.ratings["agent"], ladder.ratings["high"], strict=True))
    offset = float(np.mean([committed.ratings[a] - own[a] for a in FAST]))
    misfit = max(abs(committed.ratings[a] - own[a] - offset) for a in FAST)
    source = (
        f"the committed ladder at {players}-player tables (experiments/results/ladder/"
        f"{players}-players), and "
        f"for {search} a {len(ladder.games)}-game tournament against greedy, planner and tuned "
        f"(every seat order; {shown(out / 'rating')}), its ratings moved by {offset:+.0f} Elo "
        f"onto the committed scale (the three others then sit within {misfit:.0f} Elo of their "
        "committed ratings)"
    )
    axis = SkillAxis(
        ratings={**committed.ratings, search: own[search] + offset},
        low={**committed.low, search: low[search] + offset},
        high={**committed.high, search: high[search] + offset},
        source=source,
        players=players,
    )
    line = (
        f"rating {search}: {len(ladder.games)} games in {time.perf_counter() - began:.0f} s "
        f"({ladder.played} played now); {search} at {own[search] + offset:.0f} Elo"
    )
    return axis, line


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int_at_least(1), default=30_000, help="games of greedy, planner, tuned"
    )
    parser.add_argument("--search-games", type=int_at_least(1), default=1000)
    parser.add_argument(
        "--search",
        default="search:rollouts=1:depth=2",
        help="the search agent and its budget (default: one rollout of two turns per style, "
        "about 2 s a four-search game on one core: 1,000 games fit in a study)",
    )
    parser.add_argument(
        "--rate-games", type=int_at_least(1), default=48, help="rating search's budget"
    )
    parser.add_argument("--restricted-games", type=int_at_least(0), default=192, help="per lineup")
    parser.add_argument("--workers", type=int_at_least(0), default=None)
    parser.add_argument("--seed", type=seed_arg, default=SEED)
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "values-by-skill")
    parser.add_argument(
        "--results", type=Path, default=ROOT / "experiments" / "results" / "values_by_skill"
    )
    parser.add_argument(
        "--rule", action="append", default=[], metavar="KEY=VALUE", help="a trial's rule option"
    )
    args = parser.parse_args()
    args.rules = None
    rules = rules_from_args(args)
    started = datetime.now(UTC)
    began = time.perf_counter()
    search = agent_label(agent_named(args.search))
    make_folder(args.out)
    make_folder(args.results, "--results")
    axis, rating_line = rated_axis(
        rules, search, args.rate_games, args.seed, args.out, args.workers
    )
    rating_s = time.perf_counter() - began
    agents = [*FAST, search]
    counts = {a: args.games for a in FAST} | {search: args.search_games}
    study = values_by_skill(
        rules,
        agents,
        counts,
        args.seed,
        ladder=axis,
        restricted_games=args.restricted_games,
        workers=args.workers,
        out=args.out / "study",
        progress=lambda line: print(line, flush=True),
    )
    seconds = time.perf_counter() - began
    for name in ("report.md", "values.csv", "skill.csv", "restricted.csv", "study.json"):
        shutil.copy2(args.out / "study" / name, args.results / name)
    shutil.copytree(args.out / "study" / "plots", args.results / "plots", dirs_exist_ok=True)
    per_game = {a: float(study.games[a]["seconds"].mean()) for a in agents}
    cores = 1 if args.workers == 0 else args.workers or os.cpu_count() or 1
    planned = {a: (30_000 if a in FAST else 1000) for a in agents}
    assert study.path is not None
    restricted_games = (
        len(study.restricted_run.ladder.games)
        if study.restricted_run is not None and study.restricted_run.ladder is not None
        else 0
    )
    restricted_play = (
        float(study.restricted_run.ladder.games["seconds"].sum())
        if restricted_games and study.restricted_run is not None
        else 0.0
    )
    full = sum(per_game[a] * planned[a] for a in agents)
    parts = ("playing", "fitting", "restricted")
    rest = seconds - rating_s - sum(study.seconds.get(k, 0.0) for k in parts)
    lines = [
        f"run started {started:%Y-%m-%d %H:%M} UTC on {platform.machine()} with "
        f"{os.cpu_count()} CPUs, workers {cores if args.workers is None else args.workers}; "
        f"wall time {seconds / 60:.1f} min "
        "(games already in the study folder are read, not played again):",
        f"  {rating_line} ({rating_s / 60:.1f} min)",
        f"  games: {', '.join(f'{a} {len(study.games[a])}' for a in agents)}; "
        f"{study.seconds.get('playing', 0.0) / 60:.1f} min wall",
        f"  value fits: {study.seconds.get('fitting', 0.0):.1f} s",
        f"  restricted play: {restricted_games} games, "
        f"{study.seconds.get('restricted', 0.0) / 60:.1f} min wall",
        f"  the rest (ratings, tables, plots, report): {rest:.1f} s",
        "  seconds of play per game (one core): "
        + ", ".join(f"{a} {per_game[a]:.3f}" for a in agents)
        + (
            f"; restricted play {restricted_play / restricted_games:.3f}"
            if restricted_games
            else ""
        ),
        f"  at these per-game costs, 30000 games of each fast agent and 1000 of {search} are "
        f"{full / 60:.0f} min of play, about {full / 60 / cores:.0f} min on {cores} "
        f"core{'s' if cores != 1 else ''}",
        f"verdict: {study.verdict}",
    ]
    print("\n".join(lines) + f"\nreport: {args.results / 'report.md'}")
    with (args.results / "run.txt").open("a", encoding="utf-8") as log:  # one block per run
        log.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    run_script(main)
