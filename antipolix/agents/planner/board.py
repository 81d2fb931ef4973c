"""Board grids for the planner: flat arrays over the board's cells (R1), and the kernels that
stamp cubes into them, zero a box of them, sum floats over cubes and measure distances.

Cells are flat indices ``(z * N + y) * N + x``. Grids that are read in a box only
(``lo <= cell <= hi``) are zeroed there only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix.agents.planner.sums import ONE, trailing_zeros
from antipolix.agents.planner.weights import FloatArray, MaskArray
from antipolix.jit import inlined, kernel
from antipolix.world import IntArray

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)  # a word's 64 cells


@inlined
def stamp(
    grid: IntArray,
    n: int,
    m: int,
    box: tuple[int, int, int, int, int, int],
    z: int,
    y: int,
    x: int,
    r: int,
    value: int,
) -> None:
    """Add ``value`` to every cell of ``grid`` (flat, rows of ``m`` cells, planes of ``n``
    rows) within radius ``r`` of ``(z, y, x)`` (R1) and within the ``box`` (lo z, y, x, hi z,
    y, x)."""
    x0, x1 = max(x - r, box[2]), min(x + r, box[5]) + 1
    for cz in range(max(z - r, box[0]), min(z + r, box[3]) + 1):
        for cy in range(max(y - r, box[1]), min(y + r, box[4]) + 1):
            base = (cz * n + cy) * m
            for cx in range(x0, x1):
                grid[base + cx] += value


@inlined
def box_of(lo: IntArray, hi: IntArray) -> tuple[int, int, int, int, int, int]:
    """The box ``lo <= cell <= hi`` as six numbers, for :func:`stamp`."""
    return lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]


@kernel
def distances(dims: IntArray, cells: IntArray, lo: IntArray, hi: IntArray) -> IntArray:
    """The R1 distance from every cell of the box ``lo <= cell <= hi`` to the nearest of
    ``cells`` (``(k, 3)``, k > 0), flat (undefined outside the box).

    The cells within distance d of some of ``cells`` are those within 1 of the cells within
    d - 1 (R1: the cube of radius d is the cube of radius 1 grown d - 1 times), so the board
    is grown one step at a time as bit masks, a row of cells (z, y) a machine word, until the
    box is covered; each cell of the box takes the step that reaches it. Boards wider than
    a word: :func:`distances_by_lines`."""
    p, n, m = dims[0], dims[1], dims[2]
    if m > 64 or not len(cells):  # (no cells: every distance is the board's longest side)
        return distances_by_lines(dims, cells, lo, hi)
    full = ALL >> np.uint64(64 - m)  # the row's cells
    width = hi[2] - lo[2] + 1
    inside = (ALL >> np.uint64(64 - width)) << np.uint64(lo[2])  # the box's cells of a row
    reached = np.zeros(p * n, dtype=np.uint64)  # per row (z, y): the cells reached so far
    for e in range(len(cells)):
        reached[cells[e, 0] * n + cells[e, 1]] |= ONE << np.uint64(cells[e, 2])
    out = np.empty(p * n * m, dtype=np.int64)  # (outside the box: never read)
    left = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * width  # cells of the box not reached
    left -= _take(out, reached, reached, inside, n, m, lo, hi, 0)
    grown_x = np.empty(p * n, dtype=np.uint64)
    grown_xy = np.empty(p * n, dtype=np.uint64)
    step = 0
    while left > 0:
        step += 1
        for r in range(p * n):
            c = reached[r]
            grown_x[r] = c | ((c << ONE) & full) | (c >> ONE)
        for z in range(p):
            for y in range(n):
                r = z * n + y
                g = grown_x[r]
                if y > 0:
                    g |= grown_x[r - 1]
                if y < n - 1:
                    g |= grown_x[r + 1]
                grown_xy[r] = g
        # (the new reach into grown_x, the rows reached before still in reached)
        for z in range(p):
            for y in range(n):
                r = z * n + y
                g = grown_xy[r]
                if z > 0:
                    g |= grown_xy[r - n]
                if z < p - 1:
                    g |= grown_xy[r + n]
                grown_x[r] = g
        left -= _take(out, grown_x, reached, inside, n, m, lo, hi, step)
        reached, grown_x = grown_x, reached
    return out


@inlined
def _take(
    out: IntArray,
    now: MaskArray,
    before: MaskArray,
    inside: np.uint64,
    n: int,
    m: int,
    lo: IntArray,
    hi: IntArray,
    step: int,
) -> int:
    """Into ``out``: ``step`` at the box's cells reached ``now`` and not ``before`` (both the
    same: every cell reached); returns how many."""
    taken = 0
    for z in range(lo[0], hi[0] + 1):
        for y in range(lo[1], hi[1] + 1):
            r = z * n + y
            fresh = now[r] & inside
            if step > 0:
                fresh &= ~before[r]
            base = r * m
            while fresh:
                x = np.int64(trailing_zeros(fresh))
                fresh &= fresh - ONE
                out[base + x] = step
                taken += 1
    return taken


@kernel
def distances_by_lines(dims: IntArray, cells: IntArray, lo: IntArray, hi: IntArray) -> IntArray:
    """:func:`distances` for boards of any width, in three one-dimensional passes: along x
    the distance to the nearest cell on the same line, then along y and z min-max transforms
    (``f'(i) = min_j max(|i - j|, f(j))``) over the lines and planes that hold some. (Flat
    arrays indexed directly: a row view per line would count references to its array each
    time.)"""
    p, n, m = dims[0], dims[1], dims[2]
    big = np.int32(max(p, n, m))
    nz, ny, nx = hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1
    line_row = np.full(p * n, -1, dtype=np.int64)  # per board line (z, y): its row, if any
    n_lines = 0
    for e in range(len(cells)):
        line = cells[e, 0] * n + cells[e, 1]
        if line_row[line] < 0:
            line_row[line] = n_lines
            n_lines += 1
    along_x = np.full(n_lines * nx, big, dtype=np.int32)
    for e in range(len(cells)):
        row, ex = line_row[cells[e, 0] * n + cells[e, 1]] * nx, cells[e, 2] - lo[2]
        for x in range(nx):
            along_x[row + x] = min(along_x[row + x], np.int32(abs(x - ex)))
    along_y = np.full(p * ny * nx, big, dtype=np.int32)
    planes = np.zeros(p, dtype=np.bool_)
    for line in range(p * n):
        if line_row[line] < 0:
            continue
        z, y = divmod(line, n)
        planes[z] = True
        source = line_row[line] * nx
        for v in range(ny):
            gap = np.int32(abs(lo[1] + v - y))
            row = (z * ny + v) * nx
            for x in range(nx):
                along_y[row + x] = min(along_y[row + x], max(gap, along_x[source + x]))
    out = np.empty(p * n * m, dtype=np.int64)  # (outside the box: never read)
    for w in range(nz):
        for v in range(ny):
            base = ((lo[0] + w) * n + lo[1] + v) * m + lo[2]
            for x in range(nx):
                out[base + x] = big
        for z in range(p):
            if not planes[z]:
                continue
            gap = np.int32(abs(lo[0] + w - z))
            for v in range(ny):
                base = ((lo[0] + w) * n + lo[1] + v) * m + lo[2]
                source = (z * ny + v) * nx
                for x in range(nx):
                    out[base + x] = min(out[base + x], max(gap, along_y[source + x]))
    return out


@kernel
def cube_sums_at(
    values: FloatArray,
    dims: IntArray,
    lo: IntArray,
    hi: IntArray,
    r: int,
    cells: IntArray,
    which: IntArray,
    out: FloatArray,
) -> None:
    """``out[k] = `` the cube sum of radius ``r`` (R1) of the float board ``values`` at cell
    ``cells[k]`` (``(k, 3)``), for every ``k`` in ``which``; ``values`` is zero outside the box
    ``lo <= cell <= hi``. Summed as the numpy planner summed (three products with band
    matrices): along x, then y, then z, each window in increasing order."""
    n, m = dims[1], dims[2]
    ax0, ax1 = max(lo[2] - r, 0), min(hi[2] + r, m - 1)
    ay0, ay1 = max(lo[1] - r, 0), min(hi[1] + r, n - 1)
    nz, ny, nx = hi[0] - lo[0] + 1, ay1 - ay0 + 1, ax1 - ax0 + 1
    g1 = np.zeros((nz, hi[1] - lo[1] + 1, nx))
    for z in range(lo[0], hi[0] + 1):
        for y in range(lo[1], hi[1] + 1):
            base = (z * n + y) * m
            for x in range(ax0, ax1 + 1):
                acc = 0.0
                for u in range(max(x - r, lo[2]), min(x + r, hi[2]) + 1):
                    acc += values[base + u]
                g1[z - lo[0], y - lo[1], x - ax0] = acc
    g2 = np.zeros((nz, ny, nx))
    for z in range(nz):
        for y in range(ay0, ay1 + 1):
            for x in range(nx):
                acc = 0.0
                for u in range(max(y - r, lo[1]), min(y + r, hi[1]) + 1):
                    acc += g1[z, u - lo[1], x]
                g2[z, y - ay0, x] = acc
    for k in which:
        z, y, x = cells[k, 0], cells[k, 1], cells[k, 2]
        acc = 0.0
        if ay0 <= y <= ay1 and ax0 <= x <= ax1:
            for u in range(max(z - r, lo[0]), min(z + r, hi[0]) + 1):
                acc += g2[u - lo[0], y - ay0, x - ax0]
        out[k] = acc


@inlined
def zero_box(grid: npt.NDArray[Any], dims: IntArray, lo: IntArray, hi: IntArray) -> None:
    """Zero the cells of ``grid`` (flat) in the box ``lo <= cell <= hi``."""
    n, m = dims[1], dims[2]
    for z in range(lo[0], hi[0] + 1):
        for y in range(lo[1], hi[1] + 1):
            base = (z * n + y) * m
            for x in range(lo[2], hi[2] + 1):  # (not a slice: a view counts references)
                grid[base + x] = 0
