"""Whole games per second with the built-in agents, in one process (one core).

    .venv/bin/python experiments/bench_games.py [--games 200] [--agents random,greedy,planner]
    .venv/bin/python experiments/bench_games.py --agents tuned,search --search-games 4

Plays seeded games on the default rules (8×16×16, 4 players), four agents of one kind, two ways:

- **compiled**: whole games in compiled code (:func:`antipolix.autoplay.play_games`, the path
  ``simulate`` and ``balance`` take), all the games in one call;
- **Game**: through :func:`antipolix.play.play_game`, the Python loop over :class:`Game` (the
  path of replays, the CLI and agents written in Python), on a tenth of the games.

It prints games/s (and games/hour) and player-turns/s (one player-turn = one living player's
decision and its resolution) for each; a search agent plays ``--search-games`` games (its
decisions are thousands of times dearer), and no Game-path run. A warm-up game first (the
compiled code loads from the disk cache, or compiles on the first run after an install). Runs
on older versions of the package too (``PYTHONPATH=/path/to/old/checkout``, which have only the
Game path), so that the two can be compared. Asserts nothing: a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from antipolix import Rules
from antipolix.agents import Agent, GreedyAgent, PlannerAgent, RandomAgent
from antipolix.cli import run_script
from antipolix.play import play_game

try:
    from antipolix.autoplay import play_games
except ImportError:  # an older version: no compiled games
    play_games = None  # type: ignore[assignment]

AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "planner": PlannerAgent,
}


def maker(name: str) -> Callable[[], Agent]:
    """The agent of ``name`` (with parameters, ``search:rollouts=2``, where the version has
    :func:`antipolix.agents.agent_named` that reads them)."""
    try:
        from antipolix.agents import (
            agent_label,  # noqa: F401  (versions that read parameters)
            agent_named,
        )
    except ImportError:
        return AGENTS[name]
    return lambda: agent_named(name)


def compiled(rules: Rules, make: Callable[[], Agent], games: int) -> tuple[float, int, int]:
    """Seconds, turns and player-turns of ``games`` whole compiled games (one call)."""
    batch = [
        ([make() for _ in range(rules.players)], np.random.SeedSequence(seed))
        for seed in range(games)
    ]
    began = time.perf_counter()
    played = play_games(rules, batch)
    seconds = time.perf_counter() - began
    done = [p for p in played if p is not None]
    return seconds, sum(p.result.turns for p in done), sum(p.decisions for p in done)


def through_game(rules: Rules, make: Callable[[], Agent], games: int) -> tuple[float, int, int]:
    """Seconds, turns and player-turns of ``games`` games through :func:`play_game`."""
    player_turns = 0
    cls = type(make())

    class Counted(cls):  # type: ignore[valid-type, misc]
        def act(self, obs: Any) -> Any:
            nonlocal player_turns
            player_turns += 1
            return super().act(obs)

    turns = 0
    began = time.perf_counter()
    for seed in range(games):
        played = play_game(rules, [Counted() for _ in range(rules.players)], seed)
        turns += played.result.turns
    return time.perf_counter() - began, turns, player_turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--agents", default="random,greedy,planner")
    parser.add_argument("--search-games", type=int, default=4)
    args = parser.parse_args()
    rules = Rules()
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, numpy {np.__version__}; one process (one core); "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(f"rules: default, {rules.shape}, {rules.players} players, turn limit {rules.max_turns}")
    for name in args.agents.split(","):
        make = maker(name)
        search = name.startswith("search")
        ways: list[tuple[str, Any, int]] = []
        if not search:
            ways.append(("Game", through_game, max(1, args.games // 10)))
        if play_games is not None:
            ways.insert(0, ("compiled", compiled, args.search_games if search else args.games))
        for _, run, _ in ways:
            run(rules, make, 1)  # warm-up: load (or compile) the kernels
        for how, run, games in ways:
            seconds, turns, player_turns = run(rules, make, games)
            print(
                f"4× {name:<7} {how:<8}: {games} games, {turns} turns, {player_turns} "
                f"player-turns in {seconds:.2f} s = {games / seconds:,.2f} games/s "
                f"({3600 * games / seconds:,.0f} games/hour), "
                f"{player_turns / seconds:,.1f} player-turns/s",
                flush=True,
            )


if __name__ == "__main__":
    run_script(main)
