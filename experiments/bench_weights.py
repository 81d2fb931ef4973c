"""What a planner decision costs with each agent's weights, on the same positions.

    .venv/bin/python experiments/bench_weights.py [--games 6] [--agents planner,tuned]

A game's speed depends on its agents twice: on what one decision costs, and on the positions
their play leads to (a game with more pieces in contact costs more per decision, whoever
decides). ``bench_games.py`` measures both together. This script separates the first: it
records every position of seeded two-player games (default rules, think times drawn), half of
them between two planners and half between two tuned agents, each position as the deciding
seat saw it and with its memory (R6), then times the planner's kernel
(:func:`antipolix.agents.planner.planner_act`) on every recorded position with each agent's
weights, the same positions in the same order, each decision from a fresh copy of the memory.
It prints microseconds per decision for each weight set and for the copy alone, and the ratio
to the first. One process (one core); run it with nothing else running. Asserts nothing: a
benchmark, not a test.

``--baseline PATH``: the same, side by side, with the package of another checkout (as
``bench_games.py --baseline``): each run records and times the baseline's positions then this
checkout's (the same games, so the same positions), each in a fresh process, ``--runs`` times:

    .venv/bin/python experiments/bench_weights.py --baseline ../antipolix-old --runs 2
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np

from antipolix import Rules
from antipolix.agents import PlannerAgent, agent_named
from antipolix.agents.memory import Memory, copied
from antipolix.agents.planner import planner_act
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least
from antipolix.errors import AntipolixError
from antipolix.jit import packed
from antipolix.observation import seen_of
from antipolix.play import play_game

Position = tuple[Any, Memory]


def recorder(name: str, positions: list[Position]) -> PlannerAgent:
    """Agent ``name`` (a planner or a kind of it) that keeps every position it decides on."""
    agent = agent_named(name)
    if not isinstance(agent, PlannerAgent):
        raise AntipolixError(f"bench_weights: {name!r} is not a planner with weights")

    class Recording(type(agent)):  # type: ignore[misc]
        def act(self, obs: Any) -> Any:
            seen = packed(seen_of(obs, self.rules.shape))
            positions.append((seen, Memory(*[np.array(a, copy=True) for a in self.remembered])))
            return super().act(obs)

    out: PlannerAgent = Recording()
    out.weights = agent.weights
    return out


fresh_copy = copied  # a copy of a memory (a decision changes the memory it is given)


# not cached on disk: numba would not see a change to the planner's kernels it calls
@numba.njit(cache=False)  # type: ignore[untyped-decorator]
def _decide(t: Any, seen: Any, m: Memory, w: Any, reps: int, rng: Any, act: bool) -> int:
    """``reps`` decisions on one position, each from a fresh copy of its memory (``act``
    False: the copies alone)."""
    total = 0
    for _ in range(reps):
        memory = fresh_copy(m)
        if act:
            total += planner_act(t, seen, memory, 0.2, 1.5, w, rng)[0]
        else:
            total += memory.counters[0]
    return total


def cost(rules: Rules, positions: list[Position], w: Any, reps: int, act: bool = True) -> float:
    """Microseconds per decision with weights ``w`` over ``positions``."""
    rng = np.random.default_rng(0)
    began = time.perf_counter()
    for seen, memory in positions:
        _decide(rules.tables, seen, packed(memory), w, reps, rng, act)
    return (time.perf_counter() - began) / (len(positions) * reps) * 1e6


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Record the positions and time the decisions with the package this process imports."""
    names = args.agents.split(",")
    rules = Rules(players=2, think_times="drawn")
    positions: list[Position] = []
    for name in names:
        for seed in range(args.games):
            play_game(rules, [recorder(name, positions), recorder(name, positions)], seed)
    weights = {name: agent_named(name).weights for name in names}  # type: ignore[attr-defined]
    first = positions[:1]
    for w in weights.values():  # warm-up: load (or compile) the kernels
        cost(rules, first, w, 1)
    cost(rules, first, weights[names[0]], 1, act=False)
    copy = cost(rules, positions, weights[names[0]], args.reps, act=False)
    costs = {name: cost(rules, positions, w, args.reps) for name, w in weights.items()}
    return {"positions": len(positions), "copy": copy, "costs": costs}


def run_with(code: Path, args: argparse.Namespace) -> dict[str, Any]:
    """:func:`measure` in a fresh process that imports the package of checkout ``code``."""
    command = [sys.executable, str(Path(__file__).resolve()), "--json"]
    command += ["--games", str(args.games), "--agents", args.agents, "--reps", str(args.reps)]
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise AntipolixError(f"bench_weights: the run with {code} failed: {last}")
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int_at_least(1), default=6, help="games of each kind (default 6)"
    )
    parser.add_argument("--agents", default="planner,tuned")
    parser.add_argument("--reps", type=int_at_least(1), default=10, help="decisions per position")
    parser.add_argument("--baseline", help="another checkout to measure side by side")
    parser.add_argument(
        "--runs", type=int_at_least(1), default=2, help="runs of each with --baseline"
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = args.agents.split(",")
    if args.json:
        print(json.dumps(measure(args)))
        return
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, numba {numba.__version__}; one process (one core); "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    if args.baseline:
        baseline, here = Path(args.baseline).resolve(), Path(__file__).resolve().parent.parent
        if not (baseline / "antipolix" / "__init__.py").is_file():
            raise AntipolixError(f"--baseline {args.baseline}: no antipolix package there")
        for run in range(1, args.runs + 1):
            old, new = run_with(baseline, args), run_with(here, args)
            print(
                f"run {run}: {baseline.name} (baseline) against {here.name} (this checkout), "
                f"{old['positions']} and {new['positions']} positions"
            )
            for name in names:
                a, b = old["costs"][name] - old["copy"], new["costs"][name] - new["copy"]
                print(
                    f"  {name:<10} {a:8.1f} → {b:6.1f} µs per decision without the copy "
                    f"({a / b:.2f}×; the copy {old['copy']:.1f} and {new['copy']:.1f} µs)",
                    flush=True,
                )
        return
    found = measure(args)
    print(
        f"{found['positions']} positions from {args.games} games of two "
        f"{' and of two '.join(names)} (default board, 2 players, seeds 0-{args.games - 1})"
    )
    costs, copy = found["costs"], found["copy"]
    print(f"memory copy alone: {copy:.1f} µs per decision")
    for name, us in costs.items():
        ratio = (costs[names[0]] - copy) / (us - copy)
        print(
            f"{name:<10} {us:8.1f} µs per decision ({us - copy:.1f} without the copy), "
            f"speed {ratio:.2f}× {names[0]}'s"
        )


if __name__ == "__main__":
    run_script(main)
