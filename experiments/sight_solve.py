"""Sight: exact values with the solver, and how far it gets on 5×5 (RULES-sight.md S10).

    .venv/bin/python experiments/sight_solve.py [--out experiments/results/sight]
    .venv/bin/python experiments/sight_solve.py --opening-budget 300000000

Writes ``solve.md`` and ``solve.csv`` under ``--out``:

- **small boards**: the value of the opening for White on 3×3 and 4×4, each reading of S6 and
  with the pie, and the nodes the solver needed;
- **growth on 5×5**: the nodes needed to solve positions with E empty points (E = 12 … 22),
  taken from games of search against search (at 300 nodes a decision, seeded), so that the
  cost of the opening (25 empty points) can be estimated from the trend;
- **the opening**: one attempt within ``--opening-budget`` nodes (the answer, or that the budget
  ran out).

Times are CPU seconds of this process (``time.process_time``); on a shared machine they are
still slowed by the jobs that share the caches. The solver's node counts do not depend on the
machine.
"""

from __future__ import annotations

import csv
import math
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, make_folder, seed_arg
from antipolix.games.protocol import GameError, play_one
from antipolix.games.sight import GAME, SightState
from antipolix.games.sight.solve import NODES_MAX, Solution, solve

SMALL = [
    ("3×3", {"size": 3}),
    ("3×3 strict", {"size": 3, "stack_priority": "strict"}),
    ("3×3 pie", {"size": 3, "pie": True}),
    ("4×4", {"size": 4}),
    ("4×4 strict", {"size": 4, "stack_priority": "strict"}),
    ("4×4 pie", {"size": 4, "pie": True}),
]
GROWTH = {12: 4, 14: 4, 16: 4, 18: 4, 20: 4, 22: 2}  # empty points: positions


def positions(empties: int, count: int, seed: int) -> list[SightState]:
    """The first positions with ``empties`` empty points of seeded search-vs-search games."""
    agents = [GAME.agents["search"](nodes=300), GAME.agents["search"](nodes=300)]
    out: list[SightState] = []
    game = 0
    while len(out) < count:
        found: list[SightState] = []

        def keep(state: Any, actions: Any, found: list[SightState] = found) -> None:
            if 25 - state.turns == empties and not found:
                found.append(state.clone())

        play_one(GAME, GAME.config(), agents, np.random.SeedSequence(seed, spawn_key=(game,)), keep)
        out.extend(found)
        game += 1
    return out


def _timed(fn: Any) -> tuple[Solution, float]:
    began = time.process_time()
    solution = fn()
    return solution, time.process_time() - began


def _row(part: str, rules: str, empties: int, sol: Solution, cpu: float) -> dict[str, Any]:
    return {"part": part, "rules": rules, "empties": empties, "value": sol.value,
            "nodes": sol.nodes, "cpu_s": round(cpu, 2)}  # fmt: skip


def _value(solution: Solution) -> str:
    return {1: "wins", -1: "loses", 0: "unknown (budget spent)"}[solution.value]


def growth_text(medians: dict[int, float]) -> str:
    """How the median cost grows with the empty points, carried on to the opening's 25: from
    the fit through every size, and from the last step alone (a range, not a bound)."""
    keys = sorted(medians)
    fit = math.exp(np.polyfit(keys, [math.log(medians[k]) for k in keys], 1)[0] * 2)
    last = medians[keys[-1]] / medians[keys[-2]]
    step = (keys[-1] - keys[-2]) / 2
    last = last ** (1 / step)  # per two empty points
    ahead = (25 - keys[-1]) / 2
    low, high = sorted((medians[keys[-1]] * fit**ahead, medians[keys[-1]] * last**ahead))
    return (
        f"The median cost grows about {fit:.0f}-fold every two empty points over all these "
        f"positions, {last:.0f}-fold over the last two; carried on to the 25 empty points of "
        f"the opening that is {low:.0e} to {high:.0e} nodes (a trend through a few positions, "
        "not a bound)."
    )


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("experiments/results/sight"))
    parser.add_argument("--seed", type=seed_arg, default=36)
    parser.add_argument(
        "--budget",
        type=int_at_least(1, maximum=NODES_MAX),
        default=100_000_000,
        help="nodes a position",
    )
    parser.add_argument(
        "--opening-budget",
        type=int_at_least(0, maximum=NODES_MAX),
        default=0,
        help="0: no attempt",
    )
    parser.add_argument(
        "--table-bits",
        type=int_at_least(10, maximum=32),
        default=23,
        help="2**bits entries, 24 B each (at most 32: 96 GiB)",
    )
    args = parser.parse_args()
    if not 10 <= args.table_bits <= 28:
        raise GameError(f"--table-bits must be from 10 to 28, got {args.table_bits}")
    make_folder(args.out)
    rows: list[dict[str, Any]] = []
    lines = [
        "# Sight: exact values (RULES-sight.md S10)",
        "",
        f"Made by `experiments/sight_solve.py --seed {args.seed} --budget {args.budget} "
        f"--opening-budget {args.opening_budget} --table-bits {args.table_bits}`. The solver "
        "(`antipolix.games.sight.solve`): an AND/OR search, a table of proofs keyed up to the "
        "board's symmetries, the mover's actions tried by fewest replies first. CPU seconds of "
        f"one process, under load (load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} CPUs at the start).",
        "",
        "## Small boards: the opening, White to move",
        "",
        "| rules | White | nodes | CPU s |",
        "|---|---|---|---|",
    ]
    for name, options in SMALL:
        config = GAME.config(**options)
        sol, cpu = _timed(lambda c=config: solve(c, args.budget, args.table_bits))
        rows.append(_row("small", name, config.points, sol, cpu))
        lines.append(f"| {name} | {_value(sol)} | {sol.nodes:,} | {cpu:.1f} |")
        print(f"{name}: White {_value(sol)}, {sol.nodes:,} nodes, {cpu:.1f} s", flush=True)
    lines += [
        "",
        "## 5×5: nodes to solve positions from search-vs-search games",
        "",
        "| empty points | positions | values (mover) | nodes each | median | CPU s |",
        "|---|---|---|---|---|---|",
    ]
    medians = {}
    for empties, count in GROWTH.items():
        nodes, values, cpu_total = [], [], 0.0
        for state in positions(empties, count, args.seed):
            sol, cpu = _timed(
                lambda s=state: solve(GAME.config(), args.budget, args.table_bits, pos=s.pos)
            )
            cpu_total += cpu
            nodes.append(sol.nodes)
            values.append({1: "W", -1: "L", 0: "?"}[sol.value])
            rows.append(_row("growth", "5×5", empties, sol, cpu))
        medians[empties] = float(np.median(nodes))
        lines.append(
            f"| {empties} | {count} | {' '.join(values)} | {', '.join(f'{n:,}' for n in nodes)} "
            f"| {medians[empties]:,.0f} | {cpu_total:.1f} |"
        )
        print(f"{empties} empty: {values} {nodes} ({cpu_total:.1f} s)", flush=True)
    lines += ["", growth_text(medians)]
    if args.opening_budget > 0:
        sol, cpu = _timed(lambda: solve(GAME.config(), args.opening_budget, args.table_bits))
        rows.append(_row("opening", "5×5", 25, sol, cpu))
        lines += [
            "",
            "## 5×5: the opening",
            "",
            f"White {_value(sol)} after {sol.nodes:,} nodes ({cpu:.0f} CPU s, a table of "
            f"{2**args.table_bits:,} entries, {sol.table_entries:,} filled, "
            f"{sol.table_hits:,} hits).",
        ]
        print(f"opening: White {_value(sol)}, {sol.nodes:,} nodes, {cpu:.0f} s", flush=True)
    with (args.out / "solve.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (args.out / "solve.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out / 'solve.md'} and {args.out / 'solve.csv'}")


if __name__ == "__main__":
    run_script(main)
