"""How sure is the committed meta? Its pairs of armies played again with more games.

    .venv/bin/python experiments/meta_pairs.py [--table start] [--games 480] [--workers 2]
        [--out runs/meta-pairs] [--rule KEY=VALUE ...]

The committed proposal (``experiments/meta_default.py``) searches the armies ``tuned`` buys to
win at the 1995 costs (``--table start``) and at the proposed costs (``--table proposal``), and
reads the meta off an empirical game whose every pair of armies met in 48 games
(``pair_games``). This script runs the same army search (the same settings and seed: it plays
the committed search again, bit for bit, resumable in ``--out``), then plays every pair of its
armies again in ``--games`` fresh games each (half the seats each, every seating, the search's
rules: think times drawn by the engine, R7; ``--rule`` changes them, e.g. ``timers=false``), and
prints, per pair, the committed score and the new one with its 95 % interval over seeds, and
the maximum-entropy Nash equilibrium of both tables. Asserts nothing: a study, not a test.
"""

from __future__ import annotations

import antipolix  # noqa: F401  (first, before numpy: OpenBLAS's kernels pinned, antipolix.blas)

# isort: split

import math
import time
from pathlib import Path

import numpy as np
from meta_default import SEED, SETTINGS

from antipolix import Rules
from antipolix.agents import GivenArmy, agent_named
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least
from antipolix.codec import apply_overrides
from antipolix.meta import meta_search
from antipolix.meta.nash import maxent_nash
from antipolix.meta.play import Armies, play_pair, score
from antipolix.meta.search import Meta, play_rules
from antipolix.meta.values import with_costs
from antipolix.tuning.evaluate import Pool

ROOT = Path(__file__).resolve().parents[1]
PROPOSED = {"army": 6, "fortress": 7, "invisible": 3, "teleporter": 3}  # proposed.toml's changes
BRANCH = 92  # the seeds of the games played again: none of the search's own


def replayed(meta: Meta, rules: Rules, games: int, workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of ``meta``'s armies in ``games`` fresh games under ``rules``: the scores and
    the half-widths of their 95 % intervals over seeds (the games of one seed are its
    seatings, played together)."""
    k = len(meta.members)
    agent = agent_named(meta.agent)
    policies = tuple(
        agent.army_policy if m.army is None else GivenArmy(m.army) for m in meta.members
    )
    batch = Armies(rules, meta.seed, agent, policies)
    scores, half = np.full((k, k), 0.5), np.zeros((k, k))
    with Pool(workers) as pool:
        for i in range(k):
            for j in range(i + 1, k):
                total, by_seed = play_pair(batch, i, j, games, (BRANCH, i, j), pool)
                per_seed = np.array([score(r) for r in by_seed])
                scores[i, j], scores[j, i] = score(total), 1 - score(total)
                spread = per_seed.std(ddof=1) if len(per_seed) > 1 else math.nan
                half[i, j] = half[j, i] = 1.96 * spread / math.sqrt(len(per_seed))
    return scores, half


def mixture(meta: Meta, scores: np.ndarray) -> str:
    eq = maxent_nash(scores)
    parts = [f"{meta.members[a].label} {w:.0%}" for a, w in enumerate(eq.mixture) if w > 1e-6]
    return f"{', '.join(parts)} (effective number of armies {2**eq.entropy:.2f})"


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", choices=("start", "proposal"), default="start")
    parser.add_argument("--games", type=int_at_least(6), default=480, help="games a pair")
    parser.add_argument("--workers", type=int_at_least(0), default=2)
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "meta-pairs")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    start = Rules()
    rules = start if args.table == "start" else with_costs(start, PROPOSED)
    replay_rules = play_rules(apply_overrides(rules, args.rule))
    began = time.perf_counter()
    meta = meta_search(
        rules, SETTINGS.agent, settings=SETTINGS.meta, seed=SEED,
        out=args.out / f"meta-{args.table}", workers=args.workers, report=False,
    )  # fmt: skip
    searched = time.perf_counter() - began
    committed = meta.scores  # (each pair's score from the search's own pair games)
    again, half = replayed(meta, replay_rules, args.games, args.workers)
    print(
        f"the meta at the {args.table} costs ({meta.games:,} games of search, {searched:.0f} s); "
        f"each pair again in {args.games} games"
        + (f" with {', '.join(args.rule)}" if args.rule else "")
        + f" ({time.perf_counter() - began - searched:.0f} s, {args.workers} workers)\n"
    )
    print(f"| pair | the search's {SETTINGS.meta.pair_games} games | {args.games} games (95 %) |")
    print("|---|---:|---:|")
    k = len(meta.members)
    for i in range(k):
        for j in range(i + 1, k):
            print(
                f"| {meta.members[i].label} vs {meta.members[j].label} | {committed[i, j]:.3f} "
                f"| {again[i, j]:.3f} ± {half[i, j]:.3f} |"
            )
    print(f"\nthe search's equilibrium: {mixture(meta, committed)}")
    print(f"with the pairs played again: {mixture(meta, again)}")


if __name__ == "__main__":
    run_script(main)
