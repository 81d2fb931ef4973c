"""S3: line of sight: straight drawn lines only, the first group met, every group blocks."""

from __future__ import annotations

import numpy as np
import pytest

from antipolix.games.protocol import play_one
from antipolix.games.sight import GAME, SightConfig, SightState
from antipolix.games.sight.board import index, point
from antipolix.games.sight.lines import own_seen_k, seen_k
from antipolix.games.sight.position import heights


def _seen(state: SightState, x: int, y: int) -> set[tuple[int, int]]:
    n = state.config.size
    out = np.zeros(8, dtype=np.int64)
    k = seen_k(state.pos, index(n, x, y), out)
    return {point(n, int(q)) for q in out[:k]}


def test_s3_an_even_point_sees_along_eight_lines() -> None:
    state = SightState.from_drawing(
        SightConfig(),
        """
        W . W . B
        . . . . .
        B2 . . . W
        . . . . .
        W . B . W3
        """,
    )
    # the first group along each of the 8 lines from (2,2), whatever its colour or height
    assert _seen(state, 2, 2) == {(0, 0), (2, 0), (4, 0), (0, 2), (4, 2), (0, 4), (2, 4), (4, 4)}


def test_s3_an_odd_point_sees_along_its_row_and_column_only() -> None:
    # from (2,1) the diagonal neighbours (1,0), (3,0), (1,2), (3,2) are not on a drawn line
    state = SightState.from_drawing(
        SightConfig(),
        """
        . W . B .
        . . . . .
        . W . W .
        . . . . .
        . . W . .
        """,
    )
    assert _seen(state, 2, 1) == {(2, 4)}
    state = SightState.from_drawing(
        SightConfig(),
        """
        . W . B .
        W . . . B
        . W . W .
        . . . . .
        . . . . .
        """,
    )
    assert _seen(state, 2, 1) == {(0, 1), (4, 1)}


def test_s3_groups_block_sight_and_sight_never_turns() -> None:
    state = SightState.from_drawing(
        SightConfig(),
        """
        W . . . .
        . B . . .
        . . . . .
        . . . . .
        . . . . .
        """,
    )
    # (1,1) blocks (0,0) from (2,2); from (0,2) the diagonal to (1,1) is drawn (0 + 2 even),
    # and the column reaches (0,0)
    assert _seen(state, 2, 2) == {(1, 1)}
    assert _seen(state, 0, 2) == {(1, 1), (0, 0)}
    # from (1,0) (odd) nothing diagonal: (0,0) along the row, (1,1) along the column
    assert _seen(state, 1, 0) == {(0, 0), (1, 1)}
    # from (3,1) (even) the diagonal towards (2,2), (1,3), (0,4) is drawn: nothing on it; the
    # other diagonal goes (2,0) then off the board; the row meets (1,1)
    assert _seen(state, 3, 1) == {(1, 1)}


def test_s3_adjacent_groups_see_each_other() -> None:
    state = SightState.from_drawing(SightConfig(size=3), "W B . / . . . / . . .")
    assert (1, 0) in _seen(state, 0, 0)
    assert (0, 0) in _seen(state, 1, 0)


def test_s3_own_groups_seen_counts_one_colour_and_skips_one_point() -> None:
    state = SightState.from_drawing(
        SightConfig(), "W . W . B / . . . . . / W . . . . / . . . . . / . . . . ."
    )
    p = index(5, 1, 1)
    # from (1,1): W at (0,0), (2,0) and (0,2) on three diagonals, nothing else in sight
    assert own_seen_k(state.pos, p, 0, -1) == 3
    assert own_seen_k(state.pos, p, 0, index(5, 0, 0)) == 2
    assert own_seen_k(state.pos, p, 1, -1) == 0


@pytest.mark.parametrize("size", [4, 5, 7])
def test_s3_sight_is_symmetric_in_played_positions(size: int) -> None:
    config = SightConfig(size=size)
    agents = [GAME.agents["random"](), GAME.agents["random"]()]
    positions = []

    def keep(state, actions):  # type: ignore[no-untyped-def]
        positions.append(state.clone())

    for seed in range(6):
        play_one(GAME, config, agents, seed=seed, on_action=keep)
    n = size
    for state in positions:
        occupied = np.flatnonzero(heights(state.pos)).tolist()
        sight = {p: _seen(state, *point(n, p)) for p in range(n * n)}
        for p in range(n * n):
            for q in sight[p]:
                assert index(n, *q) in occupied
                if index(n, *q) != p and p in occupied:
                    assert point(n, p) in sight[index(n, *q)]
