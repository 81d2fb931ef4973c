"""Whole games per second with the built-in agents, in one process (one core).

    .venv/bin/python experiments/bench_games.py [--games 200] [--agents random,greedy,planner]
    .venv/bin/python experiments/bench_games.py --agents tuned,search --search-games 4

Plays seeded games on the default rules (8×16×16, 4 players), four agents of one kind, two ways:

- **compiled**: whole games in compiled code (:func:`antipolix.autoplay.play_games`, the path
  ``simulate`` and ``balance`` take), all the games in one call;
- **protocol**: the same compiled games through the game protocol
  (``antipolix.games.host.play_batch`` of AntipoliX's ``GAME``: the path ``simulate`` takes
  since games are served through it), all in one call; versions before the protocol skip it;
- **Game**: through :func:`antipolix.play.play_game`, the Python loop over :class:`Game` (the
  path of replays, the CLI and agents written in Python), on a tenth of the games.

``--checkouts OLD,NEW`` runs the script on each checkout in turn, ``--rounds`` times, and prints
their lines side by side (``experiments/side_by_side.py``): the same script times the code
before and after a change (``--ways compiled,protocol`` to time only those).

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
import sys
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


def through_protocol(rules: Rules, make: Callable[[], Agent], games: int) -> tuple[float, int, int]:
    """Seconds, turns and player-turns of ``games`` compiled games through the game protocol
    (AntipoliX's ``GAME.play_batch``, the runner's path; turns only: an outcome does not count
    decisions)."""
    from antipolix import games as registry
    from antipolix.games import host

    game = registry.game("antipolix")
    agents = [make() for _ in range(rules.players)]
    seeds = [np.random.SeedSequence(seed) for seed in range(games)]
    began = time.perf_counter()
    outcomes = host.play_batch(game, rules, agents, seeds)
    seconds = time.perf_counter() - began
    assert outcomes is not None
    return seconds, sum(o.turns for o in outcomes), 0


def has_protocol() -> bool:
    try:
        import antipolix.games.host  # noqa: F401
    except ImportError:
        return False
    return True


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
    parser.add_argument(
        "--ways", default="compiled,protocol,Game", help="which paths to time (default: all)"
    )
    parser.add_argument("--checkouts", help="run on each of these checkouts in turn: OLD,NEW")
    parser.add_argument("--rounds", type=int, default=1, help="runs per checkout (--checkouts)")
    args = parser.parse_args()
    if args.checkouts:
        from side_by_side import run_side_by_side

        run_side_by_side(__file__, args.checkouts, args.rounds, sys.argv[1:])
        return
    wanted = set(args.ways.split(","))
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
        count = args.search_games if search else args.games
        if play_games is not None:
            ways.append(("compiled", compiled, count))
            if has_protocol():
                ways.append(("protocol", through_protocol, count))
        if not search:
            ways.append(("Game", through_game, max(1, args.games // 10)))
        ways = [w for w in ways if w[0] in wanted]
        for _, run, _ in ways:
            run(rules, make, 1)  # warm-up: load (or compile) the kernels
        for how, run, games in ways:
            seconds, turns, player_turns = run(rules, make, games)
            decisions = (
                f", {player_turns / seconds:,.1f} player-turns/s" if player_turns else ""
            )
            print(
                f"4× {name:<7} {how:<8}: {games} games, {turns} turns, {player_turns or '-'} "
                f"player-turns in {seconds:.2f} s = {games / seconds:,.2f} games/s "
                f"({3600 * games / seconds:,.0f} games/hour), {turns / seconds:,.1f} turns/s"
                + decisions,
                flush=True,
            )


if __name__ == "__main__":
    run_script(main)
