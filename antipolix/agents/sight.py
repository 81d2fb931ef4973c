"""An agent's reading of its observation, compiled: what the built-in agents share.

:func:`sight_k` turns a :class:`~antipolix.observation.Seen` (what the player may know, R6)
into a :class:`Sight`: own pieces and visible enemies (rows of the observation's arrays),
strengths and move fields (R2), flat cells and the occupied ones, the own teleporter network
(R5: an agent sees its own teleporters only), the chief, the pieces that move. The kernels
below answer the questions every agent asks of it: what a piece reaches (R5), which own pieces
reach a cell, the defence of a piece as far as the player can see (R8).

Cells are flat indices into the board, ``(z * N + y) * N + x``; rows index the observation.
:class:`antipolix.agents.Sight` is the Python face of the same reading.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from antipolix.combat import defence_k
from antipolix.jit import kernel, record
from antipolix.observation import Seen
from antipolix.pieces import CHIEF, TELEPORTER
from antipolix.reach import cheb, components_k, destinations_k, reach_cells_k, reaches_k
from antipolix.rules import Tables
from antipolix.world import IntArray

BoolArray = npt.NDArray[np.bool_]


class Sight(NamedTuple):
    """One player's reading of one observation (see the module docstring)."""

    seen: Seen
    dims: IntArray  # (3,) the board's shape
    flat: IntArray  # per row, its flat cell
    own: IntArray  # rows of own pieces
    enemy: IntArray  # rows of visible enemy pieces
    strengths: IntArray  # per row (R2)
    fields: IntArray  # per row, the move field (R2)
    occupied: BoolArray  # per flat cell: a piece the player sees stands there
    tcells: IntArray  # (T, 3) own teleporters, in row order
    tlabels: IntArray  # (T,) their components (R5)
    chief: int  # row of the own chief, or -1
    mobile: IntArray  # rows of own pieces that move (field > 0)
    mobile_own: IntArray  # per mobile piece, its index in ``own``
    near: BoolArray  # per mobile piece: within radius 1 of an own teleporter (R5)
    scratch: BoolArray  # a board of False, for reach (left False)
    enemy_cells: IntArray  # (E, 3) the cells of the visible enemy pieces, in ``enemy`` order
    enemy_axes: IntArray  # (3, E) the same, by axis (z, y, x rows: for vectorised loops)


make_sight = record(Sight)


@kernel
def sight_k(t: Tables, seen: Seen) -> Sight:
    """Read ``seen`` under the rules ``t``."""
    dims = t.shape
    n, m = dims[1], dims[2]
    k = len(seen.ids)
    flat = np.empty(k, dtype=np.int64)
    strengths = np.empty(k, dtype=np.int64)
    fields = np.empty(k, dtype=np.int64)
    occupied = np.zeros(dims[0] * n * m, dtype=np.bool_)
    cells, types = seen.cells, seen.types
    for r in range(k):  # (cells by index: a row view would count references each time)
        flat[r] = (cells[r, 0] * n + cells[r, 1]) * m + cells[r, 2]
        occupied[flat[r]] = True
        strengths[r] = t.strength[types[r]]
        fields[r] = t.move[types[r]]
    # the own, enemy, teleporter and mobile rows, in order, counted first then listed (no
    # temporary masks); other players' traits are hidden (UNKNOWN_TRAIT), so the teleporters
    # and the chief are own pieces only (R6)
    owners, traits, player = seen.owners, seen.traits, seen.player
    n_own, n_tele, n_mobile, chief = 0, 0, 0, -1
    for r in range(k):
        if owners[r] == player:
            n_own += 1
            n_mobile += fields[r] > 0
        n_tele += traits[r] == TELEPORTER
        if chief < 0 and traits[r] == CHIEF:
            chief = r
    own = np.empty(n_own, dtype=np.int64)
    enemy = np.empty(k - n_own, dtype=np.int64)
    mobile = np.empty(n_mobile, dtype=np.int64)
    mobile_own = np.empty(n_mobile, dtype=np.int64)
    tcells = np.empty((n_tele, 3), dtype=np.int64)
    enemy_cells = np.empty((k - n_own, 3), dtype=np.int64)
    enemy_axes = np.empty((3, k - n_own), dtype=np.int64)
    i_own, i_enemy, i_mobile, i_tele = 0, 0, 0, 0
    for r in range(k):
        if owners[r] == player:
            if fields[r] > 0:
                mobile[i_mobile], mobile_own[i_mobile] = r, i_own
                i_mobile += 1
            own[i_own] = r
            i_own += 1
        else:
            enemy[i_enemy] = r
            for a in range(3):
                enemy_cells[i_enemy, a] = enemy_axes[a, i_enemy] = cells[r, a]
            i_enemy += 1
        if traits[r] == TELEPORTER:
            for a in range(3):
                tcells[i_tele, a] = cells[r, a]
            i_tele += 1
    tlabels = np.empty(n_tele, dtype=np.int64)
    components_k(tcells, t.teleport_field, tlabels)
    near = np.zeros(len(mobile), dtype=np.bool_)
    for i in range(len(mobile)):
        c0, c1, c2 = cells[mobile[i], 0], cells[mobile[i], 1], cells[mobile[i], 2]
        for u in range(len(tcells)):
            if cheb(c0, c1, c2, tcells[u, 0], tcells[u, 1], tcells[u, 2]) == 1:
                near[i] = True
                break
    scratch = np.zeros(len(occupied), dtype=np.bool_)
    return make_sight(
        seen,
        dims,
        flat,
        own,
        enemy,
        strengths,
        fields,
        occupied,
        tcells,
        tlabels,
        chief,
        mobile,
        mobile_own,
        near,
        scratch,
        enemy_cells,
        enemy_axes,
    )


@kernel
def reach(s: Sight, row: int) -> IntArray:
    """R5: the flat cells the own piece of ``row`` reaches, sorted (occupancy ignored; its own
    cell never), through its own teleporters."""
    move = s.fields[row]
    if move <= 0:
        return np.empty(0, dtype=np.int64)
    side = 2 * move + 1
    out = np.empty(side**3 * (1 + len(s.tcells)), dtype=np.int64)
    c = s.seen.cells[row]
    found = reach_cells_k(
        s.dims[0],
        s.dims[1],
        s.dims[2],
        c[0],
        c[1],
        c[2],
        move,
        s.tcells,
        s.tlabels,
        s.scratch,
        out,
    )
    return out[:found]


@kernel
def free_reach(s: Sight, row: int) -> IntArray:
    """The flat cells the own piece of ``row`` may move to: reached and, as far as the player
    sees, free (an enemy invisible piece's cell looks free, and moving there is legal, R6)."""
    cells = reach(s, row)
    keep = np.empty(len(cells), dtype=np.bool_)
    for i in range(len(cells)):
        keep[i] = not s.occupied[cells[i]]
    return cells[keep]


@kernel
def reaches(s: Sight, row: int, z: int, y: int, x: int) -> bool:
    """R5: does the own piece of ``row`` reach cell ``(z, y, x)``?"""
    c = s.seen.cells[row]
    return bool(reaches_k(c[0], c[1], c[2], s.fields[row], s.tcells, s.tlabels, z, y, x))


@kernel
def reach_matrix(s: Sight, cells: IntArray) -> BoolArray:
    """``[i, j]``: does own mobile piece ``mobile[i]`` reach ``cells[j]`` (``(k, 3)``)? (R5)

    (Hot: the Sight's arrays are taken out once, not passed to a helper per pair, and cells
    are read by index, not as row views, which count references.)"""
    own_cells, fields, tcells, near = s.seen.cells, s.fields, s.tcells, s.near
    hit = np.zeros((len(s.mobile), len(cells)), dtype=np.bool_)
    chosen = np.zeros(len(tcells), dtype=np.bool_)
    for i in range(len(s.mobile)):
        row = s.mobile[i]
        c0, c1, c2 = own_cells[row, 0], own_cells[row, 1], own_cells[row, 2]
        move = fields[row]
        if near[i]:
            destinations_k(c0, c1, c2, tcells, s.tlabels, chosen)
        for j in range(len(cells)):
            e0, e1, e2 = cells[j, 0], cells[j, 1], cells[j, 2]
            d = max(abs(c0 - e0), abs(c1 - e1), abs(c2 - e2))
            if d == 0:
                continue
            if d <= move:
                hit[i, j] = True
            elif near[i]:
                for u in range(len(tcells)):
                    if chosen[u]:
                        du = max(
                            abs(tcells[u, 0] - e0),
                            abs(tcells[u, 1] - e1),
                            abs(tcells[u, 2] - e2),
                        )
                        if 1 <= du <= move:
                            hit[i, j] = True
                            break
    return hit


@kernel
def attackers_of(s: Sight, z: int, y: int, x: int) -> IntArray:
    """Rows of the own mobile pieces that reach cell ``(z, y, x)``, in row order."""
    cell = np.empty((1, 3), dtype=np.int64)
    cell[0, 0], cell[0, 1], cell[0, 2] = z, y, x
    return s.mobile[reach_matrix(s, cell)[:, 0]]


@kernel
def target_matrix(s: Sight) -> BoolArray:
    """``[i, j]``: does own mobile piece ``mobile[i]`` reach visible enemy ``enemy[j]``? (R5)"""
    return reach_matrix(s, s.enemy_cells)


@kernel
def nearest(cells: IntArray, z: int, y: int, x: int) -> int:
    """R1 distance from ``(z, y, x)`` to the nearest of ``cells`` (``(k, 3)``, k > 0)."""
    best = 1 << 40
    for i in range(len(cells)):
        d = max(abs(cells[i, 0] - z), abs(cells[i, 1] - y), abs(cells[i, 2] - x))
        best = min(best, d)
    return int(best)


@kernel
def destinations(s: Sight, row: int) -> IntArray:
    """Cells ``(k, 3)`` of the own teleporters the own piece of ``row`` may teleport next to
    (R5)."""
    chosen = np.zeros(len(s.tcells), dtype=np.bool_)
    if len(s.tcells):
        c = s.seen.cells[row]
        destinations_k(c[0], c[1], c[2], s.tcells, s.tlabels, chosen)
    return s.tcells[chosen]


@kernel
def power(s: Sight, rows: IntArray) -> int:
    """R8: the attack power of the given own rows."""
    total = 0
    for r in rows:
        total += s.strengths[r]
    return int(total)


@kernel
def visible_defence(s: Sight, t: Tables, row: int) -> int:
    """R8: the defence of the piece of ``row`` as far as the player sees (invisible defenders
    count too, so this is a lower bound for another player's piece)."""
    return defence_k(s.strengths, s.seen.owners, s.seen.cells, row, t.defence_all)


@kernel
def move_boxes(s: Sight) -> tuple[IntArray, IntArray, IntArray]:
    """``(lo, hi, size)`` per own mobile piece: the candidate cells of its moves.

    For a piece next to no teleporter, the box ``lo <= cell < hi`` around it (its reach is the
    box minus its own cell); for the others, ``size`` is the length of its reach. With
    :func:`candidate` this draws a uniform legal move by rejection, without listing every move.
    """
    k = len(s.mobile)
    lo = np.empty((k, 3), dtype=np.int64)
    hi = np.empty((k, 3), dtype=np.int64)
    size = np.empty(k, dtype=np.int64)
    for i in range(k):
        row = s.mobile[i]
        r = s.fields[row]
        for axis in range(3):
            lo[i, axis] = max(s.seen.cells[row, axis] - r, 0)
            hi[i, axis] = min(s.seen.cells[row, axis] + r + 1, s.dims[axis])
        if s.near[i]:
            size[i] = len(reach(s, row))
        else:
            size[i] = (hi[i, 0] - lo[i, 0]) * (hi[i, 1] - lo[i, 1]) * (hi[i, 2] - lo[i, 2])
    return lo, hi, size


@kernel
def candidate(s: Sight, lo: IntArray, hi: IntArray, i: int, k: int) -> int:
    """The ``k``-th candidate cell (flat) of own mobile piece ``mobile[i]``; a legal move iff
    it is free (``occupied``), the piece's own cell being occupied."""
    if s.near[i]:
        return int(reach(s, s.mobile[i])[k])
    dy, dx = hi[i, 1] - lo[i, 1], hi[i, 2] - lo[i, 2]
    z, rest = divmod(k, dy * dx)
    y, x = divmod(rest, dx)
    return int(((lo[i, 0] + z) * s.dims[1] + lo[i, 1] + y) * s.dims[2] + lo[i, 2] + x)


@kernel
def unflat(s: Sight, flat: int) -> tuple[int, int, int]:
    zy, x = divmod(flat, s.dims[2])
    z, y = divmod(zy, s.dims[1])
    return z, y, x
