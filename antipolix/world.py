"""R1 World: the ``P × N × N`` box of cells, Chebyshev distance and neighbourhood tables.

Cells are ``(z, y, x)`` tuples: board ``z`` (``0 <= z < P``), row ``y``, column ``x``. Wherever a
person reads a cell (logs, errors, captions, pages) it is written in the same order with each
coordinate named, ``z2 y5 x5`` for ``(2, 5, 5)`` (:func:`cell_text`), so that it reads back into
the API's tuple as it stands. Neighbourhood offsets for each radius are computed once and cached;
nothing here allocates a Python object per cell of the board.

>>> cell_text((2, 5, 4))
'z2 y5 x4'

>>> chebyshev((0, 0, 0), (1, 2, 1))
2
>>> len(offsets(1)), len(offsets(2))
(26, 124)
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix.errors import OffBoardError

Cell = tuple[int, int, int]
Shape = tuple[int, int, int]
IntArray = npt.NDArray[np.int64]


def indices(mask: npt.NDArray[Any] | np.generic) -> IntArray:
    """The flat indices of the non-zero entries of ``mask``: ``np.flatnonzero``, at half its cost
    on the small arrays of a turn (hot paths call it several times per decision)."""
    out: IntArray = mask.ravel().nonzero()[0]
    return out


def chebyshev(a: Sequence[int], b: Sequence[int]) -> int:
    """R1 distance: ``max(|dz|, |dy|, |dx|)``."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def distances(a: npt.ArrayLike, b: npt.ArrayLike) -> IntArray:
    """R1 distance between cells as arrays (the last axis holds a cell's coordinates), element
    by element with broadcasting: ``distances(cells, cell)`` is each cell's distance to one.

    >>> distances([[0, 0, 0], [2, 1, 0]], [1, 1, 1]).tolist()
    [1, 1]
    """
    out: IntArray = np.abs(np.asarray(a, dtype=np.int64) - np.asarray(b, dtype=np.int64)).max(
        axis=-1
    )
    return out


def pairwise_distances(a: IntArray, b: IntArray) -> IntArray:
    """R1 distance between every row of ``a`` ``(n, 3)`` and every row of ``b`` ``(k, 3)``:
    ``(n, k)``, built axis by axis (no ``(n, k, 3)`` array)."""
    d: IntArray = np.abs(a[:, None, 0] - b[None, :, 0])
    for axis in range(1, a.shape[1]):
        np.maximum(d, np.abs(a[:, None, axis] - b[None, :, axis]), out=d)
    return d


@cache
def offsets(radius: int) -> IntArray:
    """All offsets ``o`` with ``1 <= max|o| <= radius`` as a read-only ``(k, 3)`` array.

    Ordered by z, then y, then x. Radius 0 gives an empty table (fortresses never move).
    """
    if radius <= 0:
        table = np.zeros((0, 3), dtype=np.int64)
    else:
        r = np.arange(-radius, radius + 1)
        grid = np.stack(np.meshgrid(r, r, r, indexing="ij"), axis=-1).reshape(-1, 3)
        table = grid[np.abs(grid).max(axis=1) >= 1].astype(np.int64)
    table.setflags(write=False)
    return table


def cell_of(shape: Shape, flat: int) -> Cell:
    """The ``(z, y, x)`` cell of a flat index (``np.ravel_multi_index(cell, shape)``)."""
    _, n, m = shape
    zy, x = divmod(int(flat), m)
    z, y = divmod(zy, n)
    return z, y, x


def cell_text(cell: Sequence[int] | None) -> str:
    """A cell ``(z, y, x)`` as people read it, in the tuple's order with each coordinate
    named: ``z2 y5 x4`` (``-`` for none)."""
    if cell is None:
        return "-"
    z, y, x = cell
    return f"z{int(z)} y{int(y)} x{int(x)}"


def in_bounds(shape: Shape, cell: Sequence[int]) -> bool:
    return 0 <= cell[0] < shape[0] and 0 <= cell[1] < shape[1] and 0 <= cell[2] < shape[2]


def as_cell(shape: Shape, cell: object, what: str = "cell") -> Cell:
    """Normalise ``cell`` to a ``(z, y, x)`` tuple of ints, or raise :class:`OffBoardError`."""
    if type(cell) is tuple and len(cell) == 3:  # the usual case, already plain: as it is
        z, y, x = cell
        if (
            type(z) is int
            and type(y) is int
            and type(x) is int
            and 0 <= z < shape[0]
            and 0 <= y < shape[1]
            and 0 <= x < shape[2]
        ):
            return cell
    try:
        z, y, x = (operator.index(c) for c in cell)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise OffBoardError(f"{what} {cell!r} is not a (z, y, x) triple of integers") from None
    if not in_bounds(shape, (z, y, x)):
        raise OffBoardError(
            f"{what} {cell_text((z, y, x))} is outside the {shape[0]}×{shape[1]}×{shape[2]} board "
            f"(0 <= z < {shape[0]}, 0 <= y < {shape[1]}, 0 <= x < {shape[2]})"
        )
    return (z, y, x)


def neighbours(shape: Shape, cell: Sequence[int], radius: int) -> IntArray:
    """Cells within ``radius`` of ``cell`` (R1: ``1 <= d <= radius``), clipped to the board."""
    cells = np.asarray(cell, dtype=np.int64) + offsets(radius)
    keep = np.all((cells >= 0) & (cells < np.asarray(shape)), axis=1)
    return cells[keep]


def cube(shape: Shape, cell: Sequence[int]) -> tuple[slice, slice, slice]:
    """Slices of the 3×3×3 cube centred on ``cell``, clipped at edges (for grid look-ups)."""
    z, y, x = cell
    return (
        slice(max(z - 1, 0), min(z + 2, shape[0])),
        slice(max(y - 1, 0), min(y + 2, shape[1])),
        slice(max(x - 1, 0), min(x + 2, shape[2])),
    )
