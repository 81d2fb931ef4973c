"""Invariants over many random seeded games, and determinism (R1, R4, R7, R8, R10, R12)."""

from __future__ import annotations

import dataclasses

import pytest

from antipolix import Game, Rules
from antipolix.agents import GreedyAgent, RandomAgent
from antipolix.events import Eliminated
from antipolix.play import play_game
from antipolix.watch import Hooks
from tests.invariants import check_state, destroyed_in

RULE_SETS = {
    "tiny-2p": Rules(shape=(3, 6, 6), players=2, max_turns=150),
    "small-3p": Rules(shape=(4, 8, 8), players=3, max_turns=150),
    "teleport-all": Rules(
        shape=(4, 8, 8), players=2, max_turns=150, teleport_network="all", credits_per_100=40
    ),
    "defence-all": Rules(shape=(4, 8, 8), players=4, max_turns=150, defence_counts="all"),
    "no-zones-short-timers": Rules(
        shape=(3, 8, 8), players=3, zones=False, time_credit=3.0, max_turns=150
    ),
    "convert-only": Rules(
        shape=(4, 8, 8), players=2, p_destroy=0.0, p_teleport=0.0, p_convert=1.0, max_turns=150
    ),
}


def checked_game(rules: Rules, seed: int, agents: list) -> tuple[Game, list]:
    """Play one game, checking every invariant after placement and after every turn."""
    reports = []
    state = {"pieces": 0, "timer_sum": 0.0}

    def on_start(played) -> None:
        check_state(played.game)
        state["pieces"] = len(played.game.pieces())
        state["timer_sum"] = sum(played.game.timers.values())

    def on_turn(game: Game, report, decisions) -> None:
        check_state(game)
        pieces = len(game.pieces())
        # pieces are conserved except by destruction (conversion only changes owners)
        assert pieces == state["pieces"] - destroyed_in(report), f"turn {report.turn}"
        state["pieces"] = pieces
        timer_sum = sum(game.timers.values())
        if not any(isinstance(e, Eliminated) for e in report.events):
            # R7: zero-sum timers while nobody leaves
            assert timer_sum == pytest.approx(state["timer_sum"], abs=1e-6), f"turn {report.turn}"
        state["timer_sum"] = timer_sum
        reports.append(report)

    played = play_game(rules, agents, seed, watchers=[Hooks(on_start=on_start, on_turn=on_turn)])
    assert played.game.result is not None
    return played.game, reports


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_invariants_hold_in_random_games(name: str) -> None:
    rules = RULE_SETS[name]
    ends = set()
    for seed in range(6):
        agents = [RandomAgent() if (seed + p) % 2 else GreedyAgent() for p in range(rules.players)]
        game, reports = checked_game(rules, seed, agents)
        ends.add(game.result.reason)
        assert game.result.turns == len(reports)
    assert ends, "no game ended"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_invariants_hold_in_many_random_games(name: str) -> None:
    rules = dataclasses.replace(RULE_SETS[name], max_turns=400)
    for seed in range(100, 160):
        agents = [RandomAgent() if (seed + p) % 3 else GreedyAgent() for p in range(rules.players)]
        checked_game(rules, seed, agents)


def test_r12_same_seed_same_game_event_for_event() -> None:
    rules = Rules(shape=(4, 8, 8), players=3, max_turns=200)
    agents = [GreedyAgent(), RandomAgent(), RandomAgent()]
    first = play_game(rules, agents, seed=11, keep_reports=True)
    second = play_game(rules, agents, seed=11, keep_reports=True)
    assert [r.events for r in first.reports] == [r.events for r in second.reports]
    assert first.result == second.result
    other = play_game(rules, agents, seed=12, keep_reports=True)
    assert [r.events for r in other.reports] != [r.events for r in first.reports]


def test_r12_seed_sequence_is_not_consumed_by_a_game() -> None:
    """Passing the same SeedSequence twice gives the same game (children are re-derived)."""
    import numpy as np

    seq = np.random.SeedSequence(2024)
    rules = Rules(shape=(4, 8, 8), players=2, max_turns=100)
    a = play_game(rules, [RandomAgent(), RandomAgent()], seed=seq, keep_reports=True)
    b = play_game(rules, [RandomAgent(), RandomAgent()], seed=seq, keep_reports=True)
    assert [r.events for r in a.reports] == [r.events for r in b.reports]


def test_invariant_checker_catches_a_broken_state() -> None:
    """The checker itself can fail: two chiefs, a stale grid cell, a dead player's piece."""
    from antipolix import PieceType, Trait
    from antipolix.state import N_ELIM

    def fresh() -> Game:
        game = Game(Rules(shape=(2, 6, 6), players=2, zones=False, budget=40), seed=1)
        game.place(0, PieceType.ARMY, Trait.CHIEF, (0, 0, 0))
        game.place(0, PieceType.ARMY, Trait.NONE, (0, 0, 1))
        game.place(1, PieceType.ARMY, Trait.CHIEF, (1, 5, 5))
        game.start()
        check_state(game)
        return game

    game = fresh()
    game.board.trait[1] = Trait.CHIEF
    with pytest.raises(AssertionError, match="chiefs"):
        check_state(game)
    game = fresh()
    game.board.grid[0, 0, 1] = -1
    with pytest.raises(AssertionError, match="occupied"):
        check_state(game)
    game = fresh()
    game.arrays.living[1] = False  # out, but its pieces and chief left on the board
    game.arrays.elim[0] = 1
    game.arrays.meta[N_ELIM] = 1
    with pytest.raises(AssertionError, match="eliminated"):
        check_state(game)
