"""Whole games of Sight per second, in one process (one core).

    .venv/bin/python experiments/bench_sight.py [--games 200000] [--repeat 3]
    .venv/bin/python experiments/bench_sight.py --agents random,greedy --rule size=7

Plays seeded games (the seeds ``SeedSequence(seed).spawn(games)``, as a study's) with two
agents of one kind, three ways:

- **batch**: :meth:`GAME.play_batch <antipolix.games.sight.game.SightGame.play_batch>`, the
  protocol's compiled path: one call, its outcomes as :class:`~antipolix.games.protocol.Outcome`;
- **kernel**: the same call without turning rows into outcomes
  (:func:`antipolix.games.sight.batch.play_games`): the compiled games alone (seeding each
  seat's generator included);
- **one by one**: :func:`antipolix.games.protocol.play_one` through
  :class:`~antipolix.games.sight.state.SightState`, the Python loop (replays, the CLI, agents
  written in Python), on a hundredth of the games.

Each way runs ``--repeat`` times after a warm-up (the kernels load from the disk cache, or
compile on the first run); every run is printed, then the best. Prints games/s and actions/s
by the wall clock and by the process's CPU time (``time.process_time``: on a shared machine
the wall clock counts the time other jobs held the core; CPU time does not, though caches shared
with them still slow it), and the load average: above one per CPU the figures are under load.
Asserts nothing: a benchmark, not a test.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable

import numpy as np

from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, seed_arg
from antipolix.games.protocol import GameError, play_one
from antipolix.games.sight import GAME, SightConfig
from antipolix.games.sight.batch import play_games

DEFAULT_GAMES = {"random": 200_000, "greedy": 20_000, "search": 40}


def _batch(config: SightConfig, name: str, seeds: list[np.random.SeedSequence]) -> int:
    """(turns, not actions: Swap is not in an outcome)"""
    outcomes = GAME.play_batch(config, [GAME.agents[name](), GAME.agents[name]()], seeds)
    assert outcomes is not None
    return sum(o.turns for o in outcomes)


def _kernel(config: SightConfig, name: str, seeds: list[np.random.SeedSequence]) -> int:
    played = play_games(config, [GAME.agents[name](), GAME.agents[name]()], seeds)
    return int(played.rows[:, 4].sum())


def _one_by_one(config: SightConfig, name: str, seeds: list[np.random.SeedSequence]) -> int:
    actions = 0
    for seed in seeds:
        state, _ = play_one(GAME, config, [GAME.agents[name](), GAME.agents[name]()], seed)
        actions += state.turn
    return actions


WAYS: dict[str, tuple[Callable[[SightConfig, str, list[np.random.SeedSequence]], int], int]] = {
    "batch": (_batch, 1),
    "kernel": (_kernel, 1),
    "one by one": (_one_by_one, 100),
}


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int_at_least(1), default=None, help="games a run (by agent)"
    )
    parser.add_argument("--repeat", type=int_at_least(1), default=3)
    parser.add_argument("--agents", default="random,greedy,search")
    parser.add_argument("--seed", type=seed_arg, default=0)
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    overrides = dict(text.partition("=")[::2] for text in args.rule)
    config = GAME.config_from_text(overrides)
    names = args.agents.split(",")
    for name in names:
        if name not in GAME.agents:
            raise GameError(f"unknown sight agent {name!r} (agents: {', '.join(GAME.agents)})")
    load, cpus = os.getloadavg()[0], os.cpu_count() or 1
    print(
        f"machine: {platform.processor() or platform.machine()}, {cpus} CPUs, Python "
        f"{platform.python_version()}, numpy {np.__version__}; one process (one core); "
        f"load average {load:.2f}"
        + (" (above 1 per CPU: the figures are under load)" if load > cpus else "")
    )
    print(f"rules: {GAME.config_to_dict(config)}")
    for name in names:
        games = args.games or DEFAULT_GAMES[name]
        seeds = np.random.SeedSequence(args.seed).spawn(games)
        for way, (run, share) in WAYS.items():
            if way != "batch" and name == "search":
                continue  # decisions cost the same either way
            chosen = seeds[: max(1, games // share)]
            run(config, name, chosen[:2])  # warm-up: load (or compile) the kernels
            best = best_cpu = 0.0
            for _ in range(args.repeat):
                began, began_cpu = time.perf_counter(), time.process_time()
                actions = run(config, name, chosen)
                seconds = time.perf_counter() - began
                cpu = time.process_time() - began_cpu
                rate, cpu_rate = len(chosen) / seconds, len(chosen) / cpu
                best, best_cpu = max(best, rate), max(best_cpu, cpu_rate)
                print(
                    f"2× {name:<6} {way:<10}: {len(chosen):,} games, {actions:,} actions in "
                    f"{seconds:.3f} s ({cpu:.3f} s CPU) = {rate:,.0f} games/s "
                    f"({cpu_rate:,.0f} a CPU second), {actions / seconds:,.0f} actions/s",
                    flush=True,
                )
            print(
                f"2× {name:<6} {way:<10}: best {best:,.0f} games/s, {best_cpu:,.0f} games a CPU "
                f"second (load average {os.getloadavg()[0]:.2f})"
            )


if __name__ == "__main__":
    run_script(main)
