"""R5 Reach and teleportation.

A piece with move field ``r`` reaches every cell within radius ``r`` of itself. Teleporters form a
graph (an edge between two at distance ``<= teleport_field``); a non-fortress piece standing within
radius 1 of a teleporter ``S`` also reaches every cell within radius ``r`` of each teleporter ``D``
connected to ``S``, ``D != S``. Connection is found once per network by breadth-first search over
connected components, never by enumerating chains.

These functions are pure (arrays in, arrays out) so that agents can run them on their own
observation (own teleporters only) and the engine on the full truth.

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

from antipolix.world import IntArray, Shape, chebyshev, indices, offsets

_EMPTY3 = np.zeros((0, 3), dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Network:
    """A set of teleporters with their connected components (``labels``: one per teleporter)."""

    ids: IntArray
    positions: IntArray  # (T, 3)
    labels: IntArray  # (T,), component index per teleporter

    def __len__(self) -> int:
        return len(self.ids)


def components(positions: IntArray, field: int) -> IntArray:
    """Connected components of the teleporter graph (edge iff Chebyshev distance <= ``field``).

    Breadth-first search over the adjacency matrix; returns one label per teleporter, labels
    numbered in order of first appearance.
    """
    count = len(positions)
    labels = np.full(count, -1, dtype=np.int64)
    if count == 0:
        return labels
    dist = np.abs(positions[:, None, :] - positions[None, :, :]).max(axis=2)
    adjacent = dist <= field
    label = 0
    for start in range(count):
        if labels[start] >= 0:
            continue
        labels[start] = label
        frontier = [start]
        while frontier:
            node = frontier.pop()
            for nxt in indices(adjacent[node] & (labels < 0)):
                labels[nxt] = label
                frontier.append(int(nxt))
        label += 1
    return labels


def network(
    ids: Sequence[int] | IntArray, positions: Sequence[Sequence[int]] | IntArray, field: int
) -> Network:
    """Build a :class:`Network` from teleporter ids and cells."""
    pos = np.asarray(positions, dtype=np.int64).reshape(-1, 3)
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
    """Cells of every teleporter ``D`` a piece at ``pos`` may teleport next to (R5).

    For each component: if the piece stands within radius 1 of two or more of its teleporters,
    every teleporter of the component is a destination (each is ``!= S`` for some ``S``);
    if of exactly one ``S``, every other teleporter of the component.
    """
    if len(net) == 0:
        return _EMPTY3
    near = np.abs(net.positions - np.asarray(pos, dtype=np.int64)).max(axis=1) == 1
    if not near.any():
        return _EMPTY3
    sources = np.bincount(net.labels[near], minlength=len(net))[net.labels]  # per teleporter
    chosen = (sources >= 2) | ((sources == 1) & ~near)
    out: IntArray = net.positions[chosen]
    return out


def reach_cells(shape: Shape, pos: Sequence[int], move: int, net: Network) -> IntArray:
    """R5: every cell a piece at ``pos`` with move field ``move`` reaches, as sorted flat indices.

    Occupancy is ignored. The piece's own cell is never included (a move to where one stands
    is no displacement), nor a teleporter ``D`` it lands beside, unless another of the centres
    (its own cell, the other ``D``) reaches that cell. The cubes of radius ``move`` around the
    centres are marked on a boolean board, which gives the cells sorted and once each.
    """
    if move <= 0:
        return np.zeros(0, dtype=np.int64)
    centres = [tuple(int(c) for c in pos), *map(tuple, destinations(pos, net).tolist())]
    marked = np.zeros(shape, dtype=bool)
    for z, y, x in centres:
        marked[
            max(z - move, 0) : z + move + 1,
            max(y - move, 0) : y + move + 1,
            max(x - move, 0) : x + move + 1,
        ] = True
    for i, centre in enumerate(centres):
        if i == 0 or not any(1 <= chebyshev(centre, c) <= move for c in centres):
            marked[centre] = False
    out: IntArray = indices(marked)
    return out


def reaches(
    shape: Shape, pos: Sequence[int], move: int, net: Network, target: Sequence[int]
) -> bool:
    """R5: does a piece at ``pos`` with move field ``move`` reach ``target``? O(teleporters)."""
    if move <= 0:
        return False
    gap = int(chebyshev(target, pos))
    if gap == 0:
        return False
    if gap <= move:
        return True
    t = np.asarray(target, dtype=np.int64)
    dests = destinations(pos, net)
    if len(dests) == 0:
        return False
    d = np.abs(dests - t).max(axis=1)
    return bool(np.any((d >= 1) & (d <= move)))


def reach_many(
    shape: Shape, positions: IntArray, moves: IntArray, net: Network
) -> tuple[IntArray, IntArray]:
    """R5 for many pieces at once: ``(who, flat)``, every (piece index, reached flat cell) pair.

    The same cells as :func:`reach_cells` for each piece (``who`` indexes ``positions``), in no
    particular order. Pieces next to no teleporter, the common case, are done in one array
    operation per move field; the others one by one.
    """
    positions = np.asarray(positions, dtype=np.int64).reshape(-1, 3)
    moves = np.asarray(moves, dtype=np.int64)
    dims = np.asarray(shape, dtype=np.int64)
    near = np.zeros(len(positions), dtype=bool)
    if len(net):
        gap = np.abs(positions[:, None, :] - net.positions[None, :, :]).max(axis=2)
        near = (gap == 1).any(axis=1)
    whos: list[IntArray] = []
    flats: list[IntArray] = []
    for move in np.unique(moves[(moves > 0) & ~near]).tolist():
        rows = indices((moves == move) & ~near)
        cells = positions[rows][:, None, :] + offsets(move)[None, :, :]
        inside = np.all((cells >= 0) & (cells < dims), axis=2)
        who = np.broadcast_to(rows[:, None], inside.shape)[inside]
        whos.append(who)
        flats.append(np.ravel_multi_index(cells[inside].T, shape))
    for row in indices(near & (moves > 0)).tolist():
        flat = reach_cells(shape, positions[row], int(moves[row]), net)
        whos.append(np.full(len(flat), row, dtype=np.int64))
        flats.append(flat)
    if not whos:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    return np.concatenate(whos).astype(np.int64), np.concatenate(flats).astype(np.int64)
