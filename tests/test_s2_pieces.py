"""S2: the board starts empty; a point holds one group of one colour; the hand option limits
the pieces each player may use, placements and additions alike."""

from __future__ import annotations

import numpy as np
import pytest

from antipolix.games.protocol import play_one
from antipolix.games.sight import GAME, SightConfig, SightState
from antipolix.games.sight.actions import from_text
from antipolix.games.sight.position import HAND, UNLIMITED_HAND, colours, heights


def test_s2_the_board_starts_empty_with_full_hands() -> None:
    state = GAME.new(GAME.config(hand=12))
    assert not heights(state.pos).any()
    assert state.observe(0)["hands"] == {"white": 12, "black": 12}
    assert GAME.new(GAME.config()).observe(0)["hands"] == {"white": None, "black": None}


@pytest.mark.parametrize(
    "options", [{}, {"hand": 9}, {"size": 4, "stack_priority": "strict"}, {"size": 6, "pie": True}]
)
def test_s2_pieces_are_accounted_for_and_colours_never_mix(options: dict) -> None:
    config = GAME.config(**options)
    start = UNLIMITED_HAND if config.hand == "unlimited" else config.hand
    agents = [GAME.agents["random"](), GAME.agents["random"]()]

    def check(state, actions):  # type: ignore[no-untyped-def]
        col, hgt = colours(state.pos), heights(state.pos)
        assert (hgt >= 0).all()
        for c in (0, 1):
            used = start - int(state.pos[HAND + c])
            assert used >= 0
            # every piece taken from the hand is on the board, in a group of its colour
            assert int(hgt[(col == c) & (hgt > 0)].sum()) == used

    for seed in range(8):
        play_one(GAME, config, agents, seed=seed, on_action=check)


def test_s2_an_action_needs_every_piece_it_uses_from_the_hand() -> None:
    # W . . . .     White has 2 pieces left: Place (2,2) would use 3 (the piece and two
    # . . . . .     additions, to (0,0) and (4,2)): not legal; Place (1,0) uses 2: legal
    # . . . . W
    board = "W . . . . / . . . . . / . . . . W / . . . . . / B . . . ."
    state = SightState.from_drawing(
        SightConfig(hand=5), board, to_move="white", hands={"white": 2, "black": 5}
    )
    legal = state.legal_actions(0)
    assert from_text(state.config, "place 2 2") not in legal
    assert from_text(state.config, "place 1 0") in legal
    # with one piece left, only placements that see no own group are legal
    state = SightState.from_drawing(
        SightConfig(hand=5), board, to_move="white", hands={"white": 1, "black": 5}
    )
    for a in state.legal_actions(0):
        after = state.clone()
        after.apply({0: a})
        assert after.added == ()
    assert from_text(state.config, "place 1 0") not in state.legal_actions(0)


def test_s2_an_empty_hand_in_placement_mode_loses() -> None:
    state = SightState.from_drawing(
        SightConfig(size=3, hand=3),
        "W . B / . . . / . . .",
        to_move="white",
        hands={"white": 0, "black": 2},
    )
    result = state.result()
    assert result is not None and (result.winner, result.reason) == (1, "blocked")


def test_s2_a_hand_of_k_bounds_the_pieces_on_the_board() -> None:
    config = GAME.config(hand=4, size=5)
    agents = [GAME.agents["random"](), GAME.agents["random"]()]
    for seed in range(10):
        state, outcome = play_one(GAME, config, agents, seed=seed)
        hgt, col = heights(state.pos), colours(state.pos)
        for c in (0, 1):
            assert hgt[(col == c) & (hgt > 0)].sum() <= 4
        assert outcome.reason == "blocked"  # 8 pieces cannot fill 25 points
        assert np.count_nonzero(hgt) == outcome.turns
