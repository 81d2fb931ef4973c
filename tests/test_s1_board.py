"""S1: Sight's board: points, drawn segments, adjacency and symmetries."""

from __future__ import annotations

import pytest

from antipolix.games.sight.board import ADJ, DIRECTIONS, NSYM, SYM, index, point, segments


def _segment_set(n: int) -> set[frozenset[int]]:
    ortho, diag = segments(n)
    return {frozenset((index(n, *a), index(n, *b))) for a, b in (*ortho, *diag)}


def test_s1_points_are_indexed_row_by_row() -> None:
    assert index(5, 3, 2) == 13
    assert point(5, 13) == (3, 2)
    assert [point(3, i) for i in range(3)] == [(0, 0), (1, 0), (2, 0)]


def test_s1_the_alquerque_board_has_40_orthogonal_and_16_diagonal_segments() -> None:
    ortho, diag = segments(5)
    assert len(ortho) == 40
    assert len(diag) == 16
    # the diagonals are the two long diagonals and the diamond (2,0)-(4,2)-(2,4)-(0,2)
    ends = {frozenset(s) for s in diag}
    long1 = {frozenset({(i, i), (i + 1, i + 1)}) for i in range(4)}
    long2 = {frozenset({(4 - i, i), (3 - i, i + 1)}) for i in range(4)}
    diamond = {
        frozenset({(2, 0), (3, 1)}),
        frozenset({(3, 1), (4, 2)}),
        frozenset({(4, 2), (3, 3)}),
        frozenset({(3, 3), (2, 4)}),
        frozenset({(2, 4), (1, 3)}),
        frozenset({(1, 3), (0, 2)}),
        frozenset({(0, 2), (1, 1)}),
        frozenset({(1, 1), (2, 0)}),
    }
    assert ends == long1 | long2 | diamond


def test_s1_diagonals_are_drawn_only_at_even_points() -> None:
    # . . . . .
    # . . o . .     (2,1): x + y odd, row and column only
    # . . * . .     (2,2): x + y even, all 8 directions
    n = 5
    around_22 = {point(n, int(q)) for q in ADJ[n, index(n, 2, 2)] if q >= 0}
    assert around_22 == {(1, 1), (2, 1), (3, 1), (1, 2), (3, 2), (1, 3), (2, 3), (3, 3)}
    around_21 = {point(n, int(q)) for q in ADJ[n, index(n, 2, 1)] if q >= 0}
    assert around_21 == {(2, 0), (1, 1), (3, 1), (2, 2)}
    # (2,1) and (1,0) are diagonal neighbours but no segment joins them
    assert index(n, 1, 0) not in ADJ[n, index(n, 2, 1)].tolist()
    # a corner: (0,0) even, 3 neighbours; (1,0) odd, 3 neighbours
    assert sorted(int(q) for q in ADJ[n, 0] if q >= 0) == [1, 5, 6]
    assert sorted(int(q) for q in ADJ[n, 1] if q >= 0) == [0, 2, 6]


@pytest.mark.parametrize("n", range(3, 10))
def test_s1_adjacency_is_symmetric_and_off_board_is_minus_one(n: int) -> None:
    for p in range(n * n):
        for d, (dx, dy) in enumerate(DIRECTIONS):
            q = int(ADJ[n, p, d])
            x, y = point(n, p)
            if not (0 <= x + dx < n and 0 <= y + dy < n):
                assert q == -1
            if q >= 0:
                back = DIRECTIONS.index((-dx, -dy))
                assert ADJ[n, q, back] == p
    assert (ADJ[n, n * n :] == -1).all()  # padding


def test_s1_directions_ascend_as_points() -> None:
    # S11 orders Move(p, q) by the index of q: p + d must ascend with d
    n = 5
    p = index(n, 2, 2)
    targets = [int(ADJ[n, p, d]) for d in range(8)]
    assert targets == sorted(targets)


@pytest.mark.parametrize("n", range(3, 10))
def test_s1_symmetries_map_drawn_segments_to_drawn_segments(n: int) -> None:
    drawn = _segment_set(n)
    keep = []
    for s in range(8):
        image = {frozenset(int(SYM[n, s, p]) for p in seg) for seg in drawn}
        keep.append(image == drawn)
        assert sorted(SYM[n, s, : n * n].tolist()) == list(range(n * n))  # a permutation
    if n % 2:
        assert keep == [True] * 8
        assert NSYM[n] == 8
    else:  # only the identity, the 180° rotation and the two diagonal reflections
        assert keep == [True] * 4 + [False] * 4
        assert NSYM[n] == 4
