"""S5: placement: a player with no stack of its colour places one piece on an empty point, and
every own group in the new piece's sight receives one addition (S7)."""

from __future__ import annotations

from antipolix.games.sight import SightConfig, SightState
from antipolix.games.sight.actions import from_text
from antipolix.games.sight.board import index


def _play(state: SightState, words: str) -> None:
    seat = state.to_act()[0]
    state.apply({seat: from_text(state.config, words)})


def test_s5_placement_adds_to_every_own_group_in_sight() -> None:
    # W . . . .          W2 . . . .
    # . . . . .          .  . . . .
    # . . . . W   -->    .  . W . W2     Place (2,2): (0,0) and (4,2) are White and seen;
    # . . . . .          .  . . . .      (0,4) is seen but Black: untouched
    # B . . . .          B  . . . .
    state = SightState.from_drawing(
        SightConfig(),
        "W . . . . / . . . . . / . . . . W / . . . . . / B . . . .",
        to_move="white",
    )
    assert state.mode == "place"
    _play(state, "place 2 2")
    assert (
        state.drawing()
        == SightState.from_drawing(
            SightConfig(), "W2 . . . . / . . . . . / . . W . W2 / . . . . . / B . . . ."
        ).drawing()
    )
    assert sorted(state.added) == [index(5, 0, 0), index(5, 4, 2)]
    assert state.observe(0)["added"] == [[0, 0], [4, 2]]


def test_s5_a_group_of_the_other_colour_blocks_the_line() -> None:
    # . . . . .
    # W B . * .     Place (3,2): looking left it meets B first, so W at (0,2) is not seen
    state = SightState.from_drawing(
        SightConfig(), ". . . . . / . . . . . / W B . . . / . . . . . / . . . . ."
    )
    _play(state, "place 3 2")
    assert state.added == ()
    assert state.observe(1)["board"][2] == [1, -1, 0, 1, 0]


def test_s5_placement_is_on_any_empty_point_and_only_there() -> None:
    state = SightState.from_drawing(SightConfig(size=3), "W . B / . . . / . . .")
    # White to move (two turns played), no stack: one placement per empty point, ascending
    empty = [index(3, x, y) for y in range(3) for x in range(3) if (x, y) not in ((0, 0), (2, 0))]
    assert state.legal_actions(0) == [1 + p for p in empty]


def test_s5_in_placement_mode_every_own_group_is_a_singleton_and_becomes_height_2() -> None:
    # W . W        Place (1,1) sees (0,0), (2,0), (0,2), (2,2): all White singletons
    # . * .
    # W . W
    state = SightState.from_drawing(SightConfig(size=3), "W . W / . . . / W . W", to_move="white")
    _play(state, "place 1 1")
    assert state.drawing().split() == ["W2", ".", "W2", ".", "W", ".", "W2", ".", "W2"]
