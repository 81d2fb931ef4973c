"""R5 Reach and teleportation.

A piece with move field ``r`` reaches every cell within radius ``r`` of itself. Teleporters form a
graph (an edge between two at distance ``<= teleport_field``); a non-fortress piece standing within
radius 1 of a teleporter ``S`` also reaches every cell within radius ``r`` of each teleporter ``D``
connected to ``S``, ``D != S``. Connection is found once per network by breadth-first search over
connected components, never by enumerating chains.

The rules are compiled kernels over arrays (a network is its teleporters' cells and their
component labels), the same for the engine, on the full truth (:mod:`antipolix.turn`), and for
agents, on their own observation (own teleporters only, :mod:`antipolix.agents.sight`).

>>> tcells = np.array([(0, 0, 0), (0, 0, 4)])
>>> labels = components(tcells, field=4)
>>> labels.tolist()
[0, 0]
>>> reaches_k(0, 1, 1, 1, tcells, labels, 0, 1, 5)  # next to the first, lands beside the second
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from antipolix.jit import kernel
from antipolix.world import IntArray

# -- kernels ----------------------------------------------------------------------------------


@kernel
def cheb(az: int, ay: int, ax: int, bz: int, by: int, bx: int) -> int:
    """R1 distance between two cells given by their coordinates."""
    return max(abs(az - bz), abs(ay - by), abs(ax - bx))


@kernel
def components_k(tcells: IntArray, field: int, labels: IntArray) -> int:
    """Label the connected components of the teleporter graph (edge iff distance <=
    ``field``) by breadth-first search, in order of first appearance; returns their number."""
    count = len(tcells)
    labels[:count] = -1
    stack = np.empty(count, dtype=np.int64)
    label = 0
    for start in range(count):
        if labels[start] >= 0:
            continue
        labels[start] = label
        top = 0
        stack[top] = start
        top += 1
        while top > 0:
            top -= 1
            node = stack[top]
            for nxt in range(count):
                if labels[nxt] < 0:
                    a, b = tcells[node], tcells[nxt]
                    if cheb(a[0], a[1], a[2], b[0], b[1], b[2]) <= field:
                        labels[nxt] = label
                        stack[top] = nxt
                        top += 1
        label += 1
    return label


@kernel
def destinations_k(
    z: int, y: int, x: int, tcells: IntArray, labels: IntArray, out: npt.NDArray[np.bool_]
) -> int:
    """Mark in ``out`` the teleporters ``D`` a piece at ``(z, y, x)`` may teleport next to (R5);
    returns how many. Per component: if the piece stands within radius 1 of two or more of its
    teleporters every one is a destination (each is ``!= S`` for some ``S``); of exactly one
    ``S``, every other one."""
    count = len(tcells)
    sources = np.zeros(count, dtype=np.int64)  # per label
    near = np.zeros(count, dtype=np.bool_)
    for t in range(count):
        c = tcells[t]
        if cheb(z, y, x, c[0], c[1], c[2]) == 1:
            near[t] = True
            sources[labels[t]] += 1
    found = 0
    for t in range(count):
        s = sources[labels[t]]
        out[t] = s >= 2 or (s == 1 and not near[t])
        if out[t]:
            found += 1
    return found


@kernel
def reaches_k(
    z: int, y: int, x: int, move: int, tcells: IntArray, labels: IntArray, tz: int, ty: int, tx: int
) -> bool:
    """R5: does a piece at ``(z, y, x)`` with move field ``move`` reach ``(tz, ty, tx)``?"""
    if move <= 0:
        return False
    gap = cheb(z, y, x, tz, ty, tx)
    if gap == 0:
        return False
    if gap <= move:
        return True
    if len(tcells) == 0:
        return False
    chosen = np.empty(len(tcells), dtype=np.bool_)
    if destinations_k(z, y, x, tcells, labels, chosen) == 0:
        return False
    for t in range(len(tcells)):
        if chosen[t]:
            c = tcells[t]
            d = cheb(c[0], c[1], c[2], tz, ty, tx)
            if 1 <= d <= move:
                return True
    return False


@kernel
def reach_cells_k(
    p: int,
    n: int,
    m: int,
    z: int,
    y: int,
    x: int,
    move: int,
    tcells: IntArray,
    labels: IntArray,
    marked: npt.NDArray[np.bool_],
    out: IntArray,
) -> int:
    """R5: write into ``out`` every flat cell a piece at ``(z, y, x)`` with move field ``move``
    reaches, sorted, once each (occupancy ignored); returns how many. ``marked`` is a scratch
    board of ``p * n * m`` False values, left False. The piece's own cell is never included,
    nor a teleporter ``D`` it lands beside unless another centre (its own cell, another ``D``)
    reaches that cell."""
    if move <= 0:
        return 0
    count = len(tcells)
    chosen = np.zeros(count, dtype=np.bool_)
    if count:
        destinations_k(z, y, x, tcells, labels, chosen)
    k = _mark_box(p, n, m, z, y, x, move, marked, out, 0)
    for t in range(count):
        if chosen[t]:
            c = tcells[t]
            k = _mark_box(p, n, m, c[0], c[1], c[2], move, marked, out, k)
    marked[(z * n + y) * m + x] = False  # never one's own cell
    for t in range(count):
        if not chosen[t]:
            continue
        c = tcells[t]
        if not _reached_by_another(z, y, x, move, tcells, chosen, t):
            marked[(c[0] * n + c[1]) * m + c[2]] = False
    out[:k].sort()
    found = 0
    for i in range(k):
        flat = out[i]
        if marked[flat]:
            out[found] = flat
            found += 1
            marked[flat] = False
    return found


@kernel
def _mark_box(
    p: int,
    n: int,
    m: int,
    z: int,
    y: int,
    x: int,
    r: int,
    marked: npt.NDArray[np.bool_],
    out: IntArray,
    k: int,
) -> int:
    """Mark the cells within radius ``r`` of ``(z, y, x)`` (its own included), appending the
    ones newly marked to ``out`` from ``k``; returns the new length."""
    for cz in range(max(z - r, 0), min(z + r + 1, p)):
        for cy in range(max(y - r, 0), min(y + r + 1, n)):
            for cx in range(max(x - r, 0), min(x + r + 1, m)):
                flat = (cz * n + cy) * m + cx
                if not marked[flat]:
                    marked[flat] = True
                    out[k] = flat
                    k += 1
    return k


@kernel
def _reached_by_another(
    z: int,
    y: int,
    x: int,
    move: int,
    tcells: IntArray,
    chosen: npt.NDArray[np.bool_],
    t: int,
) -> bool:
    """Does a centre other than teleporter ``t`` (the piece's cell, another destination) reach
    teleporter ``t``'s cell?"""
    c = tcells[t]
    d = cheb(z, y, x, c[0], c[1], c[2])
    if 1 <= d <= move:
        return True
    for u in range(len(tcells)):
        if u != t and chosen[u]:
            e = tcells[u]
            d = cheb(e[0], e[1], e[2], c[0], c[1], c[2])
            if 1 <= d <= move:
                return True
    return False


# -- the Python face ------------------------------------------------------------------------------


def components(positions: npt.ArrayLike, field: int) -> IntArray:
    """Connected components of the teleporter graph (edge iff Chebyshev distance <= ``field``);
    one label per teleporter, numbered in order of first appearance."""
    pos = np.ascontiguousarray(positions, dtype=np.int64).reshape(-1, 3)
    labels = np.empty(len(pos), dtype=np.int64)
    components_k(pos, field, labels)
    return labels
