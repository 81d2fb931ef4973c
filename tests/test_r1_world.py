"""R1 World: Chebyshev distance, neighbourhood tables, clipping at the border, cell checking.

Every expected count below is worked out by hand from RULES.md R1: a cell ``c`` is within radius
``r`` of ``a`` when ``1 <= max(|dz|, |dy|, |dx|) <= r``, and cells outside the ``P × N × N`` box
do not exist. Near the border each axis keeps only the coordinates that lie on the board, so the
count is ``(kept z values) × (kept y values) × (kept x values) − 1`` (the centre itself).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from antipolix import Game, PieceType, Rules, Trait
from antipolix.errors import AntipolixError, OffBoardError
from antipolix.world import as_cell, chebyshev, neighbours, offsets

DEFAULT = (8, 16, 16)


def cells_of(array: np.ndarray) -> set[tuple[int, int, int]]:
    return {(int(z), int(y), int(x)) for z, y, x in array}


# -- distance --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0, 0, 0), (0, 0, 0), 0),  # same cell
        ((0, 0, 0), (0, 0, 1), 1),  # face neighbour
        ((0, 0, 0), (1, 1, 1), 1),  # corner neighbour: a diagonal step is one step
        ((0, 0, 0), (1, 2, 1), 2),  # the largest axis difference wins
        ((3, 5, 2), (1, 9, 2), 4),  # |dz| = 2, |dy| = 4, |dx| = 0
        ((7, 15, 15), (0, 0, 0), 15),  # across the default board
        ((2, 2, 2), (5, 1, 0), 3),  # |dz| = 3 beats |dy| = 1, |dx| = 2
    ],
)
def test_r1_chebyshev_distance_is_largest_axis_difference(a, b, expected):
    assert chebyshev(a, b) == expected
    assert chebyshev(b, a) == expected  # a distance is symmetric


def test_r1_chebyshev_is_not_manhattan_nor_euclidean():
    # (0,0,0) -> (3,3,3): Manhattan would say 9, Euclidean ~5.2; Chebyshev says 3
    assert chebyshev((0, 0, 0), (3, 3, 3)) == 3


# -- offset tables ---------------------------------------------------------------------------------


def test_r1_offsets_radius_1_is_the_26_neighbourhood():
    table = offsets(1)
    assert table.shape == (26, 3)  # 3³ − 1
    rows = {tuple(int(v) for v in row) for row in table}
    assert len(rows) == 26  # no duplicates
    assert (0, 0, 0) not in rows  # radius means 1 <= d
    assert rows == set(itertools.product((-1, 0, 1), repeat=3)) - {(0, 0, 0)}


def test_r1_offsets_radius_2_has_124_cells():
    table = offsets(2)
    assert table.shape == (124, 3)  # 5³ − 1
    rows = {tuple(int(v) for v in row) for row in table}
    assert len(rows) == 124
    assert all(1 <= max(abs(v) for v in row) <= 2 for row in rows)
    # radius 2 contains radius 1 and adds the 98 cells of the shell at distance exactly 2
    ring1 = {tuple(int(v) for v in row) for row in offsets(1)}
    assert ring1 <= rows
    assert sum(1 for row in rows if max(abs(v) for v in row) == 2) == 124 - 26


def test_r1_offsets_radius_0_is_empty_and_radius_3_has_342():
    # a fortress (move field 0) has no offsets; radius 3 is 7³ − 1 = 342
    assert len(offsets(0)) == 0
    assert len(offsets(3)) == 342


# -- neighbours clipped at the border --------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "radius", "expected"),
    [
        # default 8×16×16 board, radius 1
        ((4, 8, 8), 1, 26),  # open space: 3·3·3 − 1
        ((0, 8, 8), 1, 17),  # on a face (z = 0): 2·3·3 − 1
        ((7, 8, 8), 1, 17),  # the opposite face (z = P − 1)
        ((4, 0, 8), 1, 17),  # face y = 0
        ((4, 8, 15), 1, 17),  # face x = N − 1
        ((0, 0, 8), 1, 11),  # on an edge (z = 0, y = 0): 2·2·3 − 1
        ((4, 15, 0), 1, 11),  # edge y = N − 1, x = 0
        ((0, 0, 0), 1, 7),  # in a corner: 2·2·2 − 1
        ((7, 15, 15), 1, 7),  # the opposite corner
        ((7, 0, 15), 1, 7),  # another corner
        # radius 2
        ((4, 8, 8), 2, 124),  # open space: 5³ − 1
        ((0, 0, 0), 2, 26),  # corner: 3·3·3 − 1
        ((1, 1, 1), 2, 63),  # one step in from the corner: z, y, x each keep 0..3, 4³ − 1
        ((0, 8, 8), 2, 74),  # face: 3·5·5 − 1
        ((0, 0, 8), 2, 44),  # edge: 3·3·5 − 1
    ],
)
def test_r1_neighbours_counts_clipped_at_faces_edges_corners(cell, radius, expected):
    got = neighbours(DEFAULT, cell, radius)
    assert len(got) == expected
    cells = cells_of(got)
    assert len(cells) == expected  # no duplicates
    assert tuple(cell) not in cells
    for c in cells:
        assert 0 <= c[0] < 8 and 0 <= c[1] < 16 and 0 <= c[2] < 16
        assert 1 <= chebyshev(c, cell) <= radius


def test_r1_neighbours_of_corner_are_exactly_the_seven_cells():
    # layer z=0        layer z=1
    #   x 0 1            x 0 1
    # y0  C n          y0  n n
    # y1  n n          y1  n n
    expected = {
        (0, 0, 1),
        (0, 1, 0),
        (0, 1, 1),
        (1, 0, 0),
        (1, 0, 1),
        (1, 1, 0),
        (1, 1, 1),
    }
    assert cells_of(neighbours(DEFAULT, (0, 0, 0), 1)) == expected


def test_r1_neighbours_on_a_single_layer_board():
    # P = 1: no z neighbours exist, so the open-space 26 becomes 3·3 − 1 = 8, radius 2 gives 24
    shape = (1, 16, 16)
    assert len(neighbours(shape, (0, 8, 8), 1)) == 8
    assert len(neighbours(shape, (0, 8, 8), 2)) == 24
    assert len(neighbours(shape, (0, 0, 0), 1)) == 3


def test_r1_neighbours_radius_larger_than_the_board():
    # 1×2×2 board: from (0,0,0) only the three other cells exist, whatever the radius
    assert cells_of(neighbours((1, 2, 2), (0, 0, 0), 2)) == {(0, 0, 1), (0, 1, 0), (0, 1, 1)}
    assert cells_of(neighbours((1, 2, 2), (0, 0, 0), 5)) == {(0, 0, 1), (0, 1, 0), (0, 1, 1)}


@pytest.mark.parametrize("radius", [1, 2])
def test_r1_neighbours_match_the_definition_on_every_cell_of_a_small_board(radius):
    # differential check against the literal R1 definition, every cell of a 3×4×4 board
    shape = (3, 4, 4)
    board = list(itertools.product(range(3), range(4), range(4)))
    for centre in board:
        expected = {c for c in board if 1 <= chebyshev(c, centre) <= radius}
        assert cells_of(neighbours(shape, centre, radius)) == expected, centre


# -- cells: as_cell --------------------------------------------------------------------------------


def test_r1_as_cell_accepts_on_board_cells_and_normalises():
    assert as_cell(DEFAULT, (0, 0, 0)) == (0, 0, 0)
    assert as_cell(DEFAULT, (7, 15, 15)) == (7, 15, 15)  # the far corner exists
    assert as_cell(DEFAULT, [3, 4, 5]) == (3, 4, 5)
    got = as_cell(DEFAULT, np.array([1, 2, 3]))
    assert got == (1, 2, 3)
    assert all(type(v) is int for v in got)


@pytest.mark.parametrize(
    "cell",
    [
        (-1, 0, 0),
        (0, -1, 0),
        (0, 0, -1),
        (8, 0, 0),  # z = P does not exist
        (0, 16, 0),  # y = N does not exist
        (0, 0, 16),  # x = N does not exist
        (100, 100, 100),
    ],
)
def test_r1_as_cell_rejects_cells_outside_the_box(cell):
    with pytest.raises(OffBoardError, match="outside"):
        as_cell(DEFAULT, cell)


@pytest.mark.parametrize(
    "cell",
    [
        (0, 0),  # too short
        (0, 0, 0, 0),  # too long
        (0.0, 1, 2),  # not integers
        (0, "1", 2),
        "abc",
        None,
        5,
    ],
)
def test_r1_as_cell_rejects_malformed_cells(cell):
    with pytest.raises(OffBoardError):
        as_cell(DEFAULT, cell)


def test_r1_off_board_error_is_an_antipolix_value_error():
    with pytest.raises(AntipolixError):
        as_cell(DEFAULT, (8, 0, 0))
    with pytest.raises(ValueError):
        as_cell(DEFAULT, (8, 0, 0))


def test_r1_game_api_rejects_off_board_cells():
    # 2×4×4 board, no zones: z in 0..1, y and x in 0..3
    game = Game(Rules(shape=(2, 4, 4), players=2, zones=False, budget=20), seed=0)
    with pytest.raises(OffBoardError):
        game.place(0, PieceType.ARMY, Trait.CHIEF, (2, 0, 0))
    with pytest.raises(OffBoardError):
        game.place(0, PieceType.ARMY, Trait.CHIEF, (0, 4, 0))
    a = game.place(0, PieceType.ARMY, Trait.CHIEF, (0, 0, 0))
    game.place(1, PieceType.ARMY, Trait.CHIEF, (1, 3, 3))
    game.start()
    with pytest.raises(OffBoardError):
        game.reaches(a, (0, 0, -1))
    with pytest.raises(OffBoardError):
        game.reaches(a, (0, 1))
    # the corner army reaches its 7 neighbours, all on the board
    assert game.reach(a) == cells_of(neighbours((2, 4, 4), (0, 0, 0), 1))
    assert len(game.reach(a)) == 7
