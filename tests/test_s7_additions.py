"""S7: additions: one piece from the hand on each chosen group, chosen once on the board after
the arrival, never on an opponent's group, never chained; every turn fills one empty point."""

from __future__ import annotations

import itertools

import numpy as np

from antipolix.games.protocol import play_one
from antipolix.games.sight import GAME, SightConfig, SightState
from antipolix.games.sight.actions import from_text
from antipolix.games.sight.position import heights


def test_s7_additions_never_chain() -> None:
    # W . . . .     Place (2,2) adds to (0,0) and (4,2). (0,0) then sees W (0,3) down its
    # . . . . .     column, but pieces added trigger nothing: (0,3) stays a singleton
    # . . * . W
    # W . . . .
    # B . . . .
    state = SightState.from_drawing(
        SightConfig(), "W . . . . / . . . . . / . . . . W / W . . . . / B . . . ."
    )
    assert state.to_act() == (0,)
    state.apply({0: from_text(state.config, "place 2 2")})
    board = state.observe(0)["board"]
    assert board[0][0] == 2 and board[2][4] == 2
    assert board[3][0] == 1
    assert board[4][0] == -1  # Black's group in sight: never touched


def test_s7_each_group_gets_at_most_one_addition_per_turn() -> None:
    # a group seen twice is impossible (one line per direction), and an addition is one piece:
    # heights grow by at most one per turn, and only the mover's
    config = GAME.config(size=7)
    agents = [GAME.agents["random"](), GAME.agents["random"]()]
    for seed in range(5):
        prev: list[np.ndarray] = []

        def check(state, actions, prev=prev):  # type: ignore[no-untyped-def]
            prev.append(heights(state.pos).copy())

        state, _ = play_one(GAME, config, agents, seed=seed, on_action=check)
        boards = [*prev, heights(state.pos).copy()]
        for before, after in itertools.pairwise(boards):
            grown = after - before
            assert grown.max() <= 1
            # one point fills per turn (S7): empty → 1 exactly once
            assert int(((before == 0) & (after > 0)).sum()) == 1


def test_s7_every_turn_fills_exactly_one_point() -> None:
    config = GAME.config()
    agents = [GAME.agents["random"](), GAME.agents["random"]()]
    for seed in range(20):
        state, outcome = play_one(GAME, config, agents, seed=seed)
        assert int(np.count_nonzero(heights(state.pos))) == state.turns == outcome.turns
        assert outcome.turns <= 25
