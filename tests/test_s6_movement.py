"""S6: movement: a player with a stack moves the top piece of a candidate stack to an adjacent
empty point; own groups in sight of the arrival, the origin apart, receive one addition."""

from __future__ import annotations

from antipolix.games.sight import SightConfig, SightState
from antipolix.games.sight.actions import from_text, move, text
from antipolix.games.sight.board import index


def _play(state: SightState, words: str) -> None:
    seat = state.to_act()[0]
    state.apply({seat: from_text(state.config, words)})


def _words(state: SightState) -> list[str]:
    seat = state.to_act()[0]
    return [text(state.config, a) for a in state.legal_actions(seat)]


BOARD_D = "W2 . . . W / . . . . . / W . . . . / . . . . . / . . . . B"


def test_s6_a_player_with_a_stack_must_move_it() -> None:
    # W2 . . . W
    # .  . . . .     White (to move) has a stack at (0,0): only its moves are legal, to the
    # W  . . . .     three adjacent empty points (a corner is even: the diagonal is drawn)
    # .  . . . .
    # .  . . . B
    state = SightState.from_drawing(SightConfig(), BOARD_D)
    assert state.mode == "move"
    assert _words(state) == [
        "Move (0, 0) → (1, 0)",
        "Move (0, 0) → (0, 1)",
        "Move (0, 0) → (1, 1)",
    ]


def test_s6_arrival_adds_to_own_groups_in_sight_but_not_to_itself_or_the_origin() -> None:
    # Move (0,0) → (1,1): (0,0) drops to 1; from (1,1) the diagonal down-left meets W (0,2):
    # +1; the origin (0,0) is seen but skipped; (4,4) is Black
    state = SightState.from_drawing(SightConfig(), BOARD_D)
    _play(state, "move 0 0 1 1")
    assert (
        state.drawing()
        == SightState.from_drawing(
            SightConfig(), "W . . . W / . W . . . / W2 . . . . / . . . . . / . . . . B"
        ).drawing()
    )
    assert state.added == (index(5, 0, 2),)
    # Move (0,0) → (1,0) instead: along the row it meets W (4,0)
    state = SightState.from_drawing(SightConfig(), BOARD_D)
    _play(state, "move 0 0 1 0")
    assert state.added == (index(5, 4, 0),)
    assert state.observe(0)["board"][0] == [1, 1, 0, 0, 2]


def test_s6_the_origin_still_blocks_sight() -> None:
    # W W2 * . .    Move (1,0) → (2,0): looking left from (2,0) the origin (1,0), now a
    # . .  . . .    singleton, is met first: W (0,0) is not seen and gets nothing
    state = SightState.from_drawing(
        SightConfig(), "W W2 . . . / . . . . . / . . . . . / . . . . . / . . . . ."
    )
    _play(state, "move 1 0 2 0")
    assert state.added == ()
    assert state.observe(0)["board"][0] == [1, 1, 1, 0, 0]
    # White has no stack left: it places again (S4)
    _play(state, "place 4 4")
    assert state.mode == "place"


def test_s6_the_highest_stack_has_priority() -> None:
    # W3 . . . .
    # .  . . . .
    # .  . W2 . .   only W3 at (0,0) may move
    state = SightState.from_drawing(
        SightConfig(),
        "W3 . . . . / . . . . . / . . W2 . . / . . . . . / . . . . B",
        to_move="white",
    )
    assert {w.split("→")[0].strip() for w in _words(state)} == {"Move (0, 0)"}


BOARD_F = "W3 B . . . / B B . . . / . . W2 . . / . . . . . / . . . . ."


def test_s6_movable_reading_takes_the_highest_stack_that_can_move() -> None:
    # W3 B . . .
    # B  B . . .     W3 is hemmed in: under 'movable' (default) W2 at (2,2) moves, to any
    # .  . W2 . .    of its 8 neighbours (an even point)
    state = SightState.from_drawing(SightConfig(), BOARD_F, to_move="white")
    n = 5
    p = index(n, 2, 2)
    targets = [(2, 1), (3, 1), (1, 2), (3, 2), (1, 3), (2, 3), (3, 3)]  # (1,1) holds B
    assert state.legal_actions(0) == [move(n, p, index(n, x, y)) for x, y in targets]


def test_s6_strict_reading_blocks_when_the_highest_stack_is_hemmed_in() -> None:
    config = SightConfig(stack_priority="strict")
    state = SightState.from_drawing(config, BOARD_F, to_move="white")
    assert state.over
    result = state.result()
    assert result is not None
    assert (result.winner, result.reason) == (1, "blocked")


def test_s6_equal_highest_stacks_are_all_candidates() -> None:
    state = SightState.from_drawing(SightConfig(size=3), "W2 . . / . . . / . . W2", to_move="white")
    starts = {w.split("→")[0].strip() for w in _words(state)}
    assert starts == {"Move (0, 0)", "Move (2, 2)"}
