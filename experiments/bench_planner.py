"""Planner speed: its decisions per second on the default rules (8×16×16, 4 planners).

    .venv/bin/python experiments/bench_planner.py [--games 5] [--warmup 1]

Plays ``--warmup`` untimed games first (the first call of a compiled kernel compiles it, or
loads it from numba's disk cache), then ``--games`` seeded games of four planners, and times
the planner's ``act`` alone (the engine's share of a turn is left out). Runs on older versions
of the package too (``PYTHONPATH=/path/to/old/checkout``), so that the two can be compared.
Prints figures; asserts nothing (a benchmark, not a test).
"""

from __future__ import annotations

import platform
import time
from typing import Any

from antipolix import Rules
from antipolix.agents import PlannerAgent
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, seed_arg
from antipolix.play import play_game

_timing = {"calls": 0, "seconds": 0.0}


def _timed_act(act: Any) -> Any:
    def wrapper(self: PlannerAgent, obs: Any) -> Any:
        start = time.perf_counter()
        out = act(self, obs)
        _timing["seconds"] += time.perf_counter() - start
        _timing["calls"] += 1
        return out

    return wrapper


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int_at_least(1), default=5, help="timed games")
    parser.add_argument("--warmup", type=int_at_least(0), default=1, help="untimed games first")
    parser.add_argument("--first-seed", type=seed_arg, default=0)
    args = parser.parse_args()
    rules = Rules()
    PlannerAgent.act = _timed_act(PlannerAgent.act)  # type: ignore[method-assign]
    start = time.perf_counter()
    for seed in range(args.warmup):
        play_game(rules, [PlannerAgent() for _ in range(rules.players)], 1000 + seed)
    print(f"warm-up: {args.warmup} game(s) in {time.perf_counter() - start:.1f} s")
    _timing.update(calls=0, seconds=0.0)
    turns = 0
    start = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.games):
        played = play_game(rules, [PlannerAgent() for _ in range(rules.players)], seed)
        turns += played.result.turns
    wall = time.perf_counter() - start
    calls, seconds = _timing["calls"], _timing["seconds"]
    print(
        f"planner {rules.shape} {rules.players}p, {platform.python_implementation()} "
        f"{platform.python_version()}: {args.games} games, {turns} turns, {calls} decisions; "
        f"{seconds:.2f} s in act of {wall:.2f} s"
    )
    print(
        f"{calls / seconds:,.0f} decisions/s, {1e3 * seconds / calls:.3f} ms per decision "
        f"(time inside act)"
    )


if __name__ == "__main__":
    run_script(main)
