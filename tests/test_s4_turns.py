"""S4: turns alternate, White (seat 0) first; the mode is fixed at the turn's start; with the
pie option Black may answer White's first piece with Swap, which is an action but not a turn."""

from __future__ import annotations

from antipolix.games.sight import GAME, SightConfig, SightState
from antipolix.games.sight.actions import SWAP, from_text


def _play(state: SightState, words: str) -> int:
    seat = state.to_act()[0]
    state.apply({seat: from_text(state.config, words)})
    return seat


def test_s4_white_seat_0_moves_first_and_turns_alternate() -> None:
    state = GAME.new(GAME.config())
    assert state.to_act() == (0,)
    assert state.observe(0)["colour"] == "white"
    assert state.observe(0)["to_move"] == "white"
    seats = [_play(state, w) for w in ("place 0 0", "place 4 4", "place 2 0", "place 0 4")]
    assert seats == [0, 1, 0, 1]
    assert state.observe(1)["turn"] == 5


def test_s4_the_mode_is_fixed_by_the_board_no_choice() -> None:
    # White has a stack (and singletons): it must move; Black has none: it must place
    state = SightState.from_drawing(
        SightConfig(),
        "W2 . . . . / . . . . . / . . W . . / . . . . . / . . . . B",
        to_move="white",
    )
    assert state.to_act() == (0,)
    assert state.mode == "move"
    assert all(a > 25 for a in state.legal_actions(0))
    _play(state, "move 0 0 1 0")
    assert state.mode == "place"
    assert all(1 <= a <= 25 for a in state.legal_actions(1))


def test_s4_no_swap_without_the_pie_option() -> None:
    state = GAME.new(GAME.config())
    _play(state, "place 2 2")
    assert SWAP not in state.legal_actions(1)
    assert not state.observe(1)["swap_offered"]


def test_s4_pie_swap_exchanges_colours_and_is_not_a_turn() -> None:
    config = GAME.config(pie=True, hand=5)
    state = GAME.new(config)
    assert SWAP not in state.legal_actions(0)  # not at turn 1
    _play(state, "place 2 2")
    legal = state.legal_actions(1)
    assert legal[0] == SWAP  # S11: Swap first
    assert len(legal) == 1 + 24
    before = state.observe(1)["board"]
    assert _play(state, "swap") == 1
    # the board is unchanged; turn 2 is played, as Black, by seat 0 (who placed White's piece)
    after = state.observe(0)
    assert after["board"] == before
    assert after["turn"] == 2 and after["to_move"] == "black"
    assert after["colour"] == "black" and state.observe(1)["colour"] == "white"
    assert state.to_act() == (0,)
    assert SWAP not in state.legal_actions(0)  # once only
    # hands go with colours: White's hand (4 left) is now seat 1's
    assert after["hands"] == {"white": 4, "black": 5}
    assert _play(state, "place 0 0") == 0
    assert state.to_act() == (1,)
    assert state.observe(1)["to_move"] == "white"
    assert state.turns == 2 and state.turn == 3  # two turns, three actions


def test_s4_swap_declined_is_gone() -> None:
    state = GAME.new(GAME.config(pie=True))
    _play(state, "place 2 2")
    _play(state, "place 0 0")
    _play(state, "place 4 4") if state.mode == "place" else None
    assert all(SWAP not in state.legal_actions(s) for s in (0, 1))


def test_s4_after_swap_the_winner_is_the_seat_playing_the_winning_colour() -> None:
    # a full 3×3 board at turn 10: Black to move loses (S8); Swap was taken, so White is seat 1
    state = SightState.from_drawing(
        SightConfig(size=3, pie=True), "W B W / B W B / W B W", swapped=True
    )
    result = state.result()
    assert result is not None
    assert (result.winner, result.reason, result.places) == (1, "board_full", (1.0, 0.0))
    assert result.extras == {"swapped": True}
