"""Whole games per second with the built-in agents, and where the time goes.

    .venv/bin/python experiments/bench_games.py [--games 10] [--profile-games 3]

Plays seeded games on the default rules (8×16×16, 4 players) with four Random and with four
Greedy agents, in one process (one core), and prints games/s and player-turns/s (one
player-turn = one living player's decision and its resolution), then profiles a few games and
prints the share of time spent in the agents' ``act`` versus the engine (observations, checks,
turn resolution). Asserts nothing: a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import time
from collections.abc import Callable, Mapping

import numpy as np

from antipolix import Rules
from antipolix.agents import Agent, Decision, GreedyAgent, RandomAgent
from antipolix.game import Game, TurnReport
from antipolix.play import play_game
from antipolix.watch import Hooks

ENGINE = ("play_turn", "observe", "check_submission", "place_army", "start")


def run(rules: Rules, make: Callable[[], Agent], games: int) -> tuple[float, int, int]:
    player_turns = 0
    turns = 0

    def on_turn(game: Game, report: TurnReport, decisions: Mapping[int, Decision]) -> None:
        nonlocal player_turns
        player_turns += len(decisions)

    start = time.perf_counter()
    for seed in range(games):
        played = play_game(
            rules, [make() for _ in range(rules.players)], seed, watchers=[Hooks(on_turn=on_turn)]
        )
        turns += played.result.turns
    return time.perf_counter() - start, turns, player_turns


def shares(rules: Rules, make: Callable[[], Agent], games: int) -> tuple[float, float]:
    profile = cProfile.Profile()
    profile.enable()
    run(rules, make, games)
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in stats.values())  # (calls, primitive calls, tottime, cumtime, ..)
    agent = sum(v[3] for (file, _, name), v in stats.items() if name == "act" and "agents" in file)
    engine = sum(
        v[3] for (file, _, name), v in stats.items() if name in ENGINE and file.endswith("game.py")
    )
    return agent / total, engine / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--profile-games", type=int, default=3)
    args = parser.parse_args()
    rules = Rules()
    print(
        f"machine: {platform.processor() or platform.machine()}, Python "
        f"{platform.python_version()}, numpy {np.__version__}; one process (one core)"
    )
    print(f"rules: default, {rules.shape}, {rules.players} players, turn limit {rules.max_turns}")
    for name, make in (("random", RandomAgent), ("greedy", GreedyAgent)):
        seconds, turns, player_turns = run(rules, make, args.games)
        agent, engine = shares(rules, make, args.profile_games)
        print(
            f"4× {name:<6}: {args.games} games, {turns} turns, {player_turns} player-turns in "
            f"{seconds:.1f} s = {args.games / seconds:.2f} games/s, "
            f"{player_turns / seconds:,.0f} player-turns/s; time in agents {agent:.0%}, "
            f"in the engine {engine:.0%} (cProfile, {args.profile_games} games)"
        )


if __name__ == "__main__":
    main()
