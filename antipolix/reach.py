"""R5 Reach and teleportation.

A piece with move field ``r`` reaches every cell within radius ``r`` of itself. Teleporters form a
graph (an edge between two at distance ``<= teleport_field``); a non-fortress piece standing within
radius 1 of a teleporter ``S`` also reaches every cell within radius ``r`` of each teleporter ``D``
connected to ``S``, ``D != S``. Connection is found once per network by breadth-first search over
connected components, never by enumerating chains.

The rules are compiled kernels over arrays (a network is its teleporters' cells and their
component labels), the same for the engine, on the full truth, and for agents, on their own
observation (own teleporters only); the functions without the ``_k`` suffix are their Python
face.

>>> net = network([7, 8], [(0, 0, 0), (0, 0, 4)], field=4)
>>> net.labels.tolist()
[0, 0]
>>> reaches((1, 1, 10), (0, 1, 1), 1, net, (0, 1, 5))  # next to #7, lands beside #8
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from antipolix.jit import kernel
from antipolix.world import IntArray, Shape, offsets, pairwise_distances

_EMPTY3 = np.zeros((0, 3), dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Network:
    """A set of teleporters with their connected components (``labels``: one per teleporter)."""

    ids: IntArray
    positions: IntArray  # (T, 3)
    labels: IntArray  # (T,), component index per teleporter

    def __len__(self) -> int:
        return len(self.ids)


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


def reach_capacity(move: int, teleporters: int) -> int:
    """How many cells :func:`reach_cells_k` may write at most (the boxes of every centre)."""
    side = 2 * max(move, 0) + 1
    return side**3 * (1 + teleporters)


# -- the Python face ------------------------------------------------------------------------------


def components(positions: IntArray, field: int) -> IntArray:
    """Connected components of the teleporter graph (edge iff Chebyshev distance <= ``field``);
    one label per teleporter, numbered in order of first appearance."""
    pos = np.ascontiguousarray(positions, dtype=np.int64).reshape(-1, 3)
    labels = np.empty(len(pos), dtype=np.int64)
    components_k(pos, field, labels)
    return labels


def network(
    ids: Sequence[int] | IntArray, positions: Sequence[Sequence[int]] | IntArray, field: int
) -> Network:
    """Build a :class:`Network` from teleporter ids and cells."""
    pos = np.ascontiguousarray(positions, dtype=np.int64).reshape(-1, 3)
    return Network(np.asarray(ids, dtype=np.int64), pos, components(pos, field))


@lru_cache(maxsize=1024)
def _cached(ids: bytes, positions: bytes, field: int) -> Network:
    as_ints = np.frombuffer(ids, dtype=np.int64), np.frombuffer(positions, dtype=np.int64)
    return network(*as_ints, field)


def cached_network(ids: IntArray, positions: IntArray, field: int) -> Network:
    """:func:`network`, remembered for the last networks seen (agents rebuild theirs each turn,
    and teleporters rarely move); no teleporters give the shared :data:`EMPTY_NETWORK`."""
    if not len(ids):
        return EMPTY_NETWORK
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    positions = np.ascontiguousarray(positions, dtype=np.int64)
    return _cached(ids.tobytes(), positions.tobytes(), field)


EMPTY_NETWORK = Network(np.zeros(0, dtype=np.int64), _EMPTY3, np.zeros(0, dtype=np.int64))


def destinations(pos: Sequence[int], net: Network) -> IntArray:
    """Cells of every teleporter ``D`` a piece at ``pos`` may teleport next to (R5)."""
    if len(net) == 0:
        return _EMPTY3
    chosen = np.empty(len(net), dtype=np.bool_)
    destinations_k(int(pos[0]), int(pos[1]), int(pos[2]), net.positions, net.labels, chosen)
    out: IntArray = net.positions[chosen]
    return out


def reach_cells(shape: Shape, pos: Sequence[int], move: int, net: Network) -> IntArray:
    """R5: every cell a piece at ``pos`` with move field ``move`` reaches, as sorted flat indices
    (occupancy ignored; its own cell never)."""
    p, n, m = shape
    marked = np.zeros(p * n * m, dtype=np.bool_)
    out = np.empty(reach_capacity(move, len(net)), dtype=np.int64)
    z, y, x = (int(c) for c in pos)
    k = reach_cells_k(p, n, m, z, y, x, move, net.positions, net.labels, marked, out)
    return out[:k].copy()


def reaches(
    shape: Shape, pos: Sequence[int], move: int, net: Network, target: Sequence[int]
) -> bool:
    """R5: does a piece at ``pos`` with move field ``move`` reach ``target``?"""
    z, y, x = (int(c) for c in pos)
    tz, ty, tx = (int(c) for c in target)
    return bool(reaches_k(z, y, x, move, net.positions, net.labels, tz, ty, tx))


def reach_many(
    shape: Shape, positions: IntArray, moves: IntArray, net: Network
) -> tuple[IntArray, IntArray]:
    """R5 for many pieces at once: ``(who, flat)``, every (piece index, reached flat cell) pair.

    The same cells as :func:`reach_cells` for each piece (``who`` indexes ``positions``): first
    the pieces next to no teleporter, the common case, one array operation per move field, then
    the others one by one.
    """
    positions = np.asarray(positions, dtype=np.int64).reshape(-1, 3)
    moves = np.asarray(moves, dtype=np.int64)
    dims = np.asarray(shape, dtype=np.int64)
    near = np.zeros(len(positions), dtype=bool)
    if len(net):
        near = (pairwise_distances(positions, net.positions) == 1).any(axis=1)
    whos: list[IntArray] = []
    flats: list[IntArray] = []
    for move in np.unique(moves[(moves > 0) & ~near]).tolist():
        rows = np.flatnonzero((moves == move) & ~near)
        cells = positions[rows][:, None, :] + offsets(move)[None, :, :]
        inside = np.all((cells >= 0) & (cells < dims), axis=2)
        whos.append(np.broadcast_to(rows[:, None], inside.shape)[inside])
        flats.append(np.ravel_multi_index(cells[inside].T, shape))
    for row in np.flatnonzero(near & (moves > 0)).tolist():
        flat = reach_cells(shape, positions[row], int(moves[row]), net)
        whos.append(np.full(len(flat), row, dtype=np.int64))
        flats.append(flat)
    if not whos:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    return np.concatenate(whos).astype(np.int64), np.concatenate(flats).astype(np.int64)
