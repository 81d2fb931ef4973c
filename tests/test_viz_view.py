"""The viewer's view options and interactive state (viz.view): every key, without a window."""

from __future__ import annotations

import pytest

from viz import View, ViewError, ViewerState
from viz.view import ANGLES, KEYS


def state(**kw: object) -> ViewerState:
    return ViewerState(shape=(3, 6, 6), players=3, last_turn=10, **kw)  # type: ignore[arg-type]


def test_v_cycles_universe_boards_slice() -> None:
    s = state()
    modes = []
    for _ in range(3):
        assert s.key("v")
        modes.append(s.view.mode)
    assert modes == ["boards", "slice", "universe"]


def test_u_j_move_the_three_boards_within_the_universe() -> None:
    s = state(view=View(mode="boards", axis="y", boards=(0, 1, 2)))  # 6 boards along y
    assert s.key("u") and s.view.boards == (1, 2, 3)
    for _ in range(5):
        s.key("u")
    assert s.view.boards == (3, 4, 5)  # stops at the last board
    assert not s.key("u")
    s.key("j")
    assert s.view.boards == (2, 3, 4)


def test_b_chooses_which_board_u_j_move() -> None:
    s = state(view=View(mode="boards", axis="x", boards=(0, 1, 2)))
    assert s.key("b") and s.selected == 0
    s.key("u")  # the first board moves up past the others, to the next free slice
    assert s.view.boards == (1, 2, 3) and s.selected == 2
    s.key("b")
    assert s.selected is None  # back to moving all three
    s.key("b"), s.key("b")
    assert s.selected == 1
    assert "[2]" in s.status()


def test_u_j_move_the_single_slice_in_slice_mode() -> None:
    s = state(view=View(mode="slice", axis="z"))
    s.key("u"), s.key("u"), s.key("u")
    assert s.view.slice == 2  # 3 boards along z
    s.key("j")
    assert s.view.slice == 1


def test_o_p_turn_the_axis_and_keep_the_boards_inside() -> None:
    s = state(view=View(mode="boards", axis="y", boards=(3, 4, 5)))
    assert s.key("p") and s.view.axis == "x"
    assert s.key("p") and s.view.axis == "z" and s.view.boards == (0, 1, 2)  # z has 3 boards
    assert s.key("o") and s.view.axis == "x"


def test_a_cycles_the_viewing_angle_and_l_the_layout() -> None:
    s = state()
    seen = [s.view.angle]
    for _ in ANGLES:
        s.key("a")
        seen.append(s.view.angle)
    assert seen == [*ANGLES, ANGLES[0]]
    s.key("l")
    assert s.view.layout == "stack"


def test_f_cycles_the_fog_through_every_player_and_back_to_the_truth() -> None:
    s = state()
    fogs = []
    for _ in range(4):
        s.key("f")
        fogs.append(s.view.fog)
    assert fogs == [0, 1, 2, None]


def test_turn_keys_play_pause_and_help() -> None:
    s = state()
    assert s.key("Right") and s.turn == 1
    assert s.key("End") and s.turn == 10
    assert not s.key("Right")  # already at the end
    assert s.key("Home") and s.turn == 0
    assert not s.key("Left")
    assert s.key("space") and s.playing
    for _ in range(10):
        assert s.step()
    assert not s.step() and not s.playing  # stops at the last turn
    assert not s.key("space")  # nothing to play from the end
    assert s.key("h") and not s.help
    assert s.key("e") and not s.view.events
    assert not s.key("F12")


def test_every_listed_key_does_something() -> None:
    s = state(view=View(mode="boards", axis="y", boards=(1, 2, 3)), turn=5)
    for listed, _ in KEYS:
        for key in listed.split(" / "):
            if key != "q":  # quit is the window's
                assert s.key(key), key


def test_view_validates_its_options() -> None:
    assert View(boards=(4, 1, 2)).boards == (1, 2, 4)
    assert View(boards=3).boards == (3,)  # type: ignore[arg-type]
    for bad in ({"mode": "all"}, {"axis": "t"}, {"layout": "grid"}, {"angle": "up"}):
        with pytest.raises(ViewError, match="unknown"):
            View(**bad)  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="1 to 3"):
        View(boards=(0, 1, 2, 3))
    with pytest.raises(ViewError, match="integer"):
        View(fog="one")  # type: ignore[arg-type]
    with pytest.raises(ViewError, match="slice 9"):
        View(mode="slice", slice=9).check((3, 6, 6))
    with pytest.raises(ViewError, match="turn 11"):
        state(turn=11)


def test_boards_not_given_are_the_first_three_or_as_many_as_the_universe_has() -> None:
    """A universe of one or two boards (R1 allows P = 1 and 2) is viewed in every mode: the
    boards not given are those it has (every view of such a replay was refused: "board 2 is
    outside the universe", boards the user never named)."""
    assert View().check((8, 16, 16)).boards == (0, 1, 2)
    assert View(mode="boards").check((2, 6, 6)).boards == (0, 1)
    assert View(mode="boards", axis="y").check((2, 6, 6)).boards == (0, 1, 2)
    assert View().check((1, 8, 8)).boards == (0,)
    with pytest.raises(ViewError, match="board 2 is outside the universe"):
        View(mode="boards", boards=(0, 1, 2)).check((2, 6, 6))  # named: refused
    s = ViewerState(shape=(2, 6, 6), players=2, last_turn=3)
    assert s.key("v") and s.view.mode == "boards" and s.view.boards == (0, 1)
    assert not s.key("u")  # both boards shown: nowhere to move
    assert s.key("p") and s.view.axis == "y" and s.view.boards == (0, 1, 2)
