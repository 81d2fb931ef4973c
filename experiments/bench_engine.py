"""Engine speed: whole games per second, and reach / defence look-ups per second.

    .venv/bin/python experiments/bench_engine.py [--games 20]

Prints figures; asserts nothing (a benchmark, not a test).
"""

from __future__ import annotations

import platform
import time

import numpy as np

from antipolix import Rules
from antipolix.agents import GreedyAgent, RandomAgent
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least
from antipolix.game import Game
from antipolix.play import play_game


def bench_games(rules: Rules, games: int) -> None:
    turns = 0
    start = time.perf_counter()
    for seed in range(games):
        agents = [GreedyAgent() if p % 2 == 0 else RandomAgent() for p in range(rules.players)]
        played = play_game(rules, agents, seed, keep_reports=False)
        turns += played.result.turns
    elapsed = time.perf_counter() - start
    print(
        f"games {rules.shape} {rules.players}p: {games} games, {turns} turns in {elapsed:.2f} s "
        f"= {games / elapsed:.1f} games/s, {turns / elapsed:.0f} turns/s (agents included)"
    )


def bench_engine_only(rules: Rules, games: int) -> None:
    """Replay the orders of played games into fresh games, timing ``play_turn`` alone."""
    recorded = []
    for seed in range(games):
        agents = [GreedyAgent() if p % 2 == 0 else RandomAgent() for p in range(rules.players)]
        turns: list[tuple[dict, dict, dict]] = []
        original = Game.play_turn

        def spy(self, orders, think_times=None, messages=None, _turns=turns, _orig=original):
            _turns.append((dict(orders), dict(think_times or {}), dict(messages or {})))
            return _orig(self, orders, think_times, messages)

        Game.play_turn = spy  # type: ignore[method-assign]
        try:
            played = play_game(rules, agents, seed, keep_reports=False)
        finally:
            Game.play_turn = original  # type: ignore[method-assign]
        recorded.append((seed, [list(a) for a in played.armies], turns))
    elapsed, count = 0.0, 0
    for seed, armies, turns in recorded:
        game = Game(rules, seed)
        for p, army in enumerate(armies):
            game.place_army(p, [(x.type, x.trait) for x in army], [x.cell for x in army])
        game.start()
        start = time.perf_counter()
        for orders, think, mail in turns:
            game.play_turn(orders, think, mail)
        elapsed += time.perf_counter() - start
        count += len(turns)
    print(
        f"engine only {rules.shape} {rules.players}p: {count} turns in {elapsed:.3f} s "
        f"= {count / elapsed:,.0f} turns/s ({1e6 * elapsed / count:.0f} µs per turn)"
    )


def bench_lookups(rules: Rules, calls: int) -> None:
    game = Game(rules, seed=1)
    for p in range(rules.players):
        agent = RandomAgent()
        agent.setup(rules, p, np.random.default_rng(p))
        game.place_army(p, agent.army())
    game.start()
    pieces = game.pieces()
    ids = [p.id for p in pieces]
    cells = [p.cell for p in pieces]
    start = time.perf_counter()
    for k in range(calls):
        game.reach(ids[k % len(ids)])
    reach_rate = calls / (time.perf_counter() - start)
    start = time.perf_counter()
    for k in range(calls):
        game.defence_power(cells[k % len(cells)])
    defence_rate = calls / (time.perf_counter() - start)
    print(
        f"lookups {rules.shape} {len(ids)} pieces: reach {reach_rate:,.0f}/s, "
        f"defence {defence_rate:,.0f}/s"
    )


def main() -> None:
    ap = Parser(description=__doc__)
    ap.add_argument("--games", type=int_at_least(1), default=20)
    args = ap.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    bench_games(Rules(shape=(4, 8, 8), players=2, max_turns=1000), args.games)
    bench_games(Rules(players=4, max_turns=1000), max(2, args.games // 5))
    bench_engine_only(Rules(players=4, max_turns=1000), max(2, args.games // 5))
    bench_lookups(Rules(), 20_000)


if __name__ == "__main__":
    run_script(main)
