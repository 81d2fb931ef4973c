"""Could the planner skip terms for moves that cannot win, and keep its decisions? The most an
exact bound could save, measured.

    .venv/bin/python experiments/planner_bounds.py [--games 3] [--players 4] [--agent tuned]
        [--reps 20] [--out experiments/results/planner_bounds.md]

A planner decision scores every candidate move (about 440 a position in 4-player tuned games)
with every term of its position value and plays the best (R4, R5, R8). Exposure, advance and
cohesion are cheap per move; the chief's guard, the threats, the hunt and the tactics are where
a decision's scoring spends most of its time. If a move's cheap part plus an upper bound on the
other terms cannot reach the best move's score, those terms need not be computed for it, and
the decision stays the same bit for bit (branch and bound). This script asks how much that
could save at best, with the tightest bound a position allows: each term's largest value over
the position's moves, known only once every move is scored (an oracle: a bound that can be
computed beforehand is looser, so it saves less). It records the positions the agent decides
on (as ``bench_weights.py`` does) and reports:

- the mean size of each term per move (in R2 cost points);
- the share of moves whose cheap part plus the oracle bound stays below the best score (moves
  whose costly terms an exact bound could skip);
- the time of the threats, hunt and tactics terms on every move, and on the moves the oracle
  bound leaves, per decision (the terms alone, repeated ``--reps`` times on each position;
  their per-turn set-up included each time): what skipping could save at most;
- the whole decision for scale (``bench_weights.py``'s timing, the memory's copy off).

Deterministic positions (seeded games). Asserts nothing: a study, not a test; time it with
nothing else running. Writes the figures as Markdown to ``--out``.
"""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np
from bench_weights import cost, fresh_copy
from profile_planner import record

from antipolix.agents import PlannerAgent, agent_named
from antipolix.agents.planner.decision import candidates, terms_computed
from antipolix.agents.planner.exposure import exposure
from antipolix.agents.planner.guard import chief_guard
from antipolix.agents.planner.hunting import hunt
from antipolix.agents.planner.reading import opening, read_turn
from antipolix.agents.planner.tactics import tactics
from antipolix.agents.planner.threats import threats
from antipolix.agents.planner.weights import FRONT, I_ADVANCE, I_COHESION
from antipolix.cli import Parser, run_script
from antipolix.cli.common import file_to_write, int_at_least
from antipolix.errors import AntipolixError
from antipolix.jit import packed

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "experiments" / "results" / "planner_bounds.md"
TERMS = ("exposure, advance, cohesion (cheap)", "chief's guard", "threats", "hunt", "tactics")


# not cached on disk: numba would not see a change to the planner's kernels it calls
@numba.njit(cache=False)  # type: ignore[untyped-decorator]
def _parts(t: Any, seen: Any, m: Any, w: Any, rng: Any) -> Any:
    """Per candidate move, its score's parts (columns: :data:`TERMS`), as ``move_scores``
    computes them (without the ties' draws)."""
    memory = fresh_copy(m)
    _, s, unit = opening(t, seen, memory, 0.2, 1.5, rng)
    if not (len(s.enemy) and len(s.mobile)):
        return np.zeros((0, 5))
    tn = read_turn(t, s, memory, unit, w)
    who, dest, end, gap = candidates(tn, s)
    out = np.zeros((len(dest), 5))
    if not len(dest):
        return out
    mover = s.mobile_own[who]
    score, adj_ab, d_mover = exposure(tn, mover, dest, end)
    out[:, 0] = score
    guards, threatens, hunts, tactical = terms_computed(w)  # (the terms it skips, skipped)
    if tn.ci >= 0 and guards:
        chief_guard(tn, mover, dest, end, gap, d_mover, score)
    out[:, 1] = score - out[:, 0]
    offence = threats(tn, mover, dest, end) if threatens else np.zeros(len(dest))
    out[:, 2] = offence
    if hunts:
        hunt(tn, s, mover, dest, end, offence)
    for k in range(len(dest)):
        i = mover[k]
        if i == tn.ci:  # (the chief's moves: no offence, advance or cohesion)
            out[k, 2] = 0.0
            continue
        out[k, 3] = offence[k] - out[k, 2]
        out[k, 0] += w[I_ADVANCE] * (tn.o_dist[i] - gap[k])
        if gap[k] <= FRONT:
            s_i = tn.o_s[i]
            support = (tn.defence[dest[k]] - s_i * adj_ab[k]) - (tn.d_own[i] - s_i)
            out[k, 0] += w[I_COHESION] * support
    before = score.copy()
    if tactical:
        tactics(t, tn, s, mover, dest, end, gap, score)
    out[:, 4] = score - before
    return out


@numba.njit(cache=False)  # type: ignore[untyped-decorator]
def _terms(t: Any, seen: Any, m: Any, w: Any, rng: Any, keep: Any, reps: int) -> float:
    """The threats, hunt and tactics terms on the moves ``keep`` selects, ``reps`` times."""
    memory = fresh_copy(m)
    _, s, unit = opening(t, seen, memory, 0.2, 1.5, rng)
    tn = read_turn(t, s, memory, unit, w)
    who, dest, end, gap = candidates(tn, s)
    rows = np.flatnonzero(keep)
    mover, dest, end, gap = s.mobile_own[who][rows], dest[rows], end[rows].copy(), gap[rows]
    _, threatens, hunts, tactical = terms_computed(w)
    total = 0.0
    for _ in range(reps):
        offence = threats(tn, mover, dest, end) if threatens else np.zeros(len(rows))
        if hunts:
            hunt(tn, s, mover, dest, end, offence)
        score = np.zeros(len(rows))
        if tactical:
            tactics(t, tn, s, mover, dest, end, gap, score)
        total += offence.sum() + score.sum()
    return total


def planner(name: str) -> PlannerAgent:
    agent = agent_named(name)
    if not isinstance(agent, PlannerAgent):
        raise AntipolixError(f"planner_bounds: {name!r} is not a planner with weights")
    return agent


def measure(name: str, w: Any, games: int, players: int, reps: int) -> dict[str, Any]:
    """Record agent ``name``'s positions (weights ``w``) and measure them (module doc)."""
    rules, recorded = record([name], games, players)
    t, rng = rules.tables, np.random.default_rng(0)
    kept: list[tuple[Any, Any, np.ndarray, np.ndarray]] = []
    sizes, skipped, moves = np.zeros(5), 0, 0
    for seen, remembered in recorded:
        memory = packed(remembered)
        parts = _parts(t, seen, memory, w, rng)
        if len(parts) < 2:
            continue
        best = parts.sum(axis=1).max()
        needed = parts[:, 0] + parts[:, 1:].max(axis=0).sum() >= best - 1e-9
        sizes += np.abs(parts).mean(axis=0)
        skipped += int((~needed).sum())
        moves += len(parts)
        kept.append((seen, memory, np.ones(len(parts), dtype=np.bool_), needed))
    if not kept:
        raise AntipolixError("planner_bounds: no position with moves to score")

    def timing(which: int, positions: list[Any], n: int) -> float:
        began = time.perf_counter()
        for seen, memory, every, needed in positions:
            _terms(t, seen, memory, w, rng, (every, needed)[which], n)
        return (time.perf_counter() - began) / (len(positions) * n) * 1e6

    timing(0, kept[:1], 1)  # (warm-up: compiles)
    times = [(timing(0, kept, reps), timing(1, kept, reps)) for _ in range(2)]
    cost(rules, recorded[:1], w, 1), cost(rules, recorded[:1], w, 1, act=False)  # (compiles)
    whole = cost(rules, recorded, w, reps) - cost(rules, recorded, w, reps, act=False)
    return {
        "positions": len(kept), "moves": moves, "sizes": sizes / len(kept),
        "skippable": skipped / moves, "times": times, "whole": whole,
    }  # fmt: skip


def report(name: str, games: int, players: int, found: dict[str, Any]) -> str:
    load = os.getloadavg()[0]
    lines = [
        f"{found['positions']:,} positions with moves from {games} default {players}-player "
        f"games of `{name}` ({found['moves'] / found['positions']:.0f} moves a position); "
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"numba {numba.__version__}, load average {load:.2f} at the end",
        "",
        "| term | mean size a move (points) |",
        "|---|---:|",
        *(f"| {term} | {size:.4f} |" for term, size in zip(TERMS, found["sizes"], strict=True)),
        "",
        f"Moves an exact bound could skip, with the oracle bound (each costly term's largest "
        f"value in the position): **{found['skippable']:.1%}**.",
        "",
        "| run | threats, hunt, tactics on every move | on the moves the oracle leaves | saved |",
        "|---|---:|---:|---:|",
    ]
    for r, (every, left) in enumerate(found["times"], start=1):
        lines.append(f"| {r} | {every:.2f} µs | {left:.2f} µs | {every - left:.2f} µs |")
    lines += ["", f"The whole decision: {found['whole']:.1f} µs (the memory's copy off)."]
    return "\n".join(lines)


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int_at_least(1), default=3, help="games (default 3)")
    parser.add_argument("--players", type=int_at_least(2), default=4, help="players (default 4)")
    parser.add_argument("--agent", default="tuned", help="a planner by name (default tuned)")
    parser.add_argument("--reps", type=int_at_least(1), default=20, help="timing repetitions")
    parser.add_argument("--out", type=Path, default=OUT, help="the Markdown written")
    args = parser.parse_args()
    if args.players > 10:
        raise AntipolixError("planner_bounds: --players 2 to 10")
    w = planner(args.agent).weights_for(args.players)
    file_to_write(args.out)
    found = measure(args.agent, w, args.games, args.players, args.reps)
    text = report(args.agent, args.games, args.players, found)
    print(text)
    args.out.write_text(
        "# Could the planner skip terms for moves that cannot win?\n\n"
        "`experiments/planner_bounds.py` (see its docstring): the most an exact bound on the "
        "costly terms could save, measured with the tightest bound a position allows.\n\n"
        + text + "\n"
    )  # fmt: skip
    print(f"written: {args.out}")


if __name__ == "__main__":
    run_script(main)
