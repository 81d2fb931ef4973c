"""S8: at the start of a turn the player to move with no legal action loses: board_full or
blocked; no draws, no turn limit."""

from __future__ import annotations

from antipolix.games.protocol import play_one
from antipolix.games.sight import GAME, SightConfig, SightState


def test_s8_a_full_board_loses_for_the_player_to_move() -> None:
    # W B W
    # B W B     9 turns played: Black to move in turn 10, no empty point: Black loses
    # W B W
    state = SightState.from_drawing(SightConfig(size=3), "W B W / B W B / W B W")
    assert state.over and state.to_act() == ()
    result = state.result()
    assert result is not None
    assert (result.winner, result.reason, result.turns) == (0, "board_full", 9)
    assert result.places == (0.0, 1.0) and result.elimination_order == (1,)
    assert state.legal_actions(0) == state.legal_actions(1) == []


def test_s8_hemmed_in_stacks_block_their_player() -> None:
    # B2 W .
    # W  W .     Black must move (it has a stack), the stack has no empty neighbour
    # .  . .
    state = SightState.from_drawing(SightConfig(size=3), "B2 W . / W W . / . . .", to_move="black")
    result = state.result()
    assert result is not None
    assert (result.winner, result.reason) == (0, "blocked")


def test_s8_on_5x5_a_full_board_is_a_white_win_and_there_are_no_draws() -> None:
    agents = [GAME.agents["random"](), GAME.agents["random"]()]
    reasons = set()
    for seed in range(60):
        state, outcome = play_one(GAME, GAME.config(), agents, seed=seed)
        assert outcome.winner in (0, 1)
        reasons.add(outcome.reason)
        if outcome.reason == "board_full":
            assert outcome.turns == 25 and outcome.winner == 0
        else:
            assert outcome.reason == "blocked"
            # the loser was to move: White plays odd turns, so Black lost after an odd count
            assert outcome.winner == (0 if outcome.turns % 2 else 1)
    assert reasons == {"board_full", "blocked"}


def test_s8_on_even_boards_a_full_board_is_a_black_win() -> None:
    state = SightState.from_drawing(SightConfig(size=4), "W B W B / B W B W / W B W B / B W B W")
    result = state.result()
    assert result is not None and (result.winner, result.reason) == (1, "board_full")
