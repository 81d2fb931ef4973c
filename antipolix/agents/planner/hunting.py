"""The hunt term of a move's score (R8): how well own pieces cover the cells the likeliest
chief suspects may flee to (a lone chief is caught by covering its escapes, not by chasing
it).

Per move, the change in how well own pieces cover the cells the likeliest chief suspects may
stand on next turn (R8 needs power > defence): their cells and every free cell they reach (R5
without teleporters), their *refuges*. A piece that reaches none of them before its move only
adds its power where it lands: the change is a cube sum (R1) of per-cell gains, looked up at
the destination (:func:`_far_moves`). The pieces that already reach some are counted exactly,
cell by cell (:func:`_near_moves`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from antipolix.agents.planner.board import cube_sums_at, zero_box
from antipolix.agents.planner.reading import Turn
from antipolix.agents.planner.sums import ONE, pairwise, trailing_zeros
from antipolix.agents.planner.values import cover
from antipolix.agents.planner.weights import HUNT_K, I_HUNT, I_HUNT_MIN, I_WIN, FloatArray
from antipolix.agents.sight import Sight
from antipolix.jit import inlined, kernel, record
from antipolix.reach import cheb
from antipolix.world import IntArray


class Kinds(NamedTuple):
    """The kinds of own movers, (strength, move field) pairs (R2), and each own piece's kind
    (-1: it does not move)."""

    strength: IntArray
    field: IntArray
    of: IntArray


class Refuges(NamedTuple):
    """The hunted suspects' refuges: per suspect (``u``) its index among visible enemies, its
    refuges' cells (``cells[u, :size[u]]``: its own first, then the free cells it reaches in
    order) and their box (lo z, y, x, hi z, y, x), the hunt's weight of one refuge, and per
    refuge and kind of mover the change of cover it makes by coming within reach (``up``) or
    leaving (``down``); per kind, ``gains``: the weighted ``up`` on each cell (zero around the
    refuges, read there only); per own piece, ``near``: it may reach some refuge now."""

    suspects: IntArray
    cells: IntArray
    size: IntArray
    box: IntArray
    weight: FloatArray
    up: FloatArray
    down: FloatArray
    gains: FloatArray
    near: npt.NDArray[np.bool_]


# compiled records in kernels (passed by one pointer: a call does not count references to
# each of their arrays)
make_kinds = record(Kinds)
make_refuges = record(Refuges)


@kernel
def hunt(
    tn: Turn, s: Sight, mover: IntArray, dest: IntArray, end: IntArray, offence: FloatArray
) -> None:
    """Hunt, added to ``offence`` (see the module docstring)."""
    suspects = hunted(tn)
    if not len(suspects):
        return
    kinds = mover_kinds(tn)
    rf = refuges(tn, s, suspects, kinds)
    out = np.zeros(len(dest))
    _far_moves(tn, mover, end, rf, kinds, out)
    _near_moves(tn, mover, end, rf, kinds, out)
    for k in range(len(dest)):
        offence[k] += out[k]


@kernel
def hunted(tn: Turn) -> IntArray:
    """The likeliest chief suspects (at most :data:`HUNT_K`, the first of equals first, each
    at least ``hunt_min`` as likely as a sure chief) that can move (R2)."""
    k_en = len(tn.e_s)
    cg = tn.chief_gain
    suspects = np.empty(HUNT_K, dtype=np.int64)
    taken = np.zeros(k_en, dtype=np.bool_)
    n_sus = 0
    least = tn.w[I_HUNT_MIN] * tn.w[I_WIN] * tn.take_chief
    for _ in range(min(HUNT_K, k_en)):
        j = -1
        for x in range(k_en):
            if not taken[x] and (j < 0 or cg[x] > cg[j]):
                j = x
        taken[j] = True
        if cg[j] < least:
            break
        if tn.e_f[j] > 0:
            suspects[n_sus] = j
            n_sus += 1
    return suspects[:n_sus]


@kernel
def mover_kinds(tn: Turn) -> Kinds:
    """The kinds of own movers, in order of first appearance (see :class:`Kinds`)."""
    k_own = len(tn.o_s)
    kind_s = np.empty(k_own, dtype=np.int64)
    kind_f = np.empty(k_own, dtype=np.int64)
    kind_of = np.full(k_own, -1, dtype=np.int64)
    n_kinds = 0
    for i in range(k_own):
        if tn.o_f[i] <= 0:
            continue
        for u in range(n_kinds):
            if kind_s[u] == tn.o_s[i] and kind_f[u] == tn.o_f[i]:
                kind_of[i] = u
                break
        if kind_of[i] < 0:
            kind_s[n_kinds], kind_f[n_kinds] = tn.o_s[i], tn.o_f[i]
            kind_of[i] = n_kinds
            n_kinds += 1
    return make_kinds(kind_s[:n_kinds], kind_f[:n_kinds], kind_of)


@kernel
def refuges(tn: Turn, s: Sight, suspects: IntArray, kinds: Kinds) -> Refuges:
    """The hunted suspects' refuges and the change of cover each kind of mover makes there
    (see :class:`Refuges`)."""
    n_sus, n_kinds, dims = len(suspects), len(kinds.field), tn.dims
    cap = 0
    for u in range(n_sus):
        cap = max(cap, (2 * tn.e_f[suspects[u]] + 1) ** 3)
    cells = np.empty((n_sus, cap, 3), dtype=np.int64)
    size = np.zeros(n_sus, dtype=np.int64)
    box = np.empty((n_sus, 6), dtype=np.int64)
    weight = np.empty(n_sus)
    up = np.empty((n_sus, cap, n_kinds))
    down = np.empty((n_sus, cap, n_kinds))
    gains = np.empty((n_kinds, len(tn.defence)))
    glo = np.empty(3, dtype=np.int64)
    ghi = np.empty(3, dtype=np.int64)
    for a in range(3):
        glo[a], ghi[a] = dims[a] - 1, 0
        for u in range(n_sus):
            e, f = tn.e_pos[suspects[u]], tn.e_f[suspects[u]]
            glo[a] = min(glo[a], max(e[a] - f, 0))
            ghi[a] = max(ghi[a], min(e[a] + f, dims[a] - 1))
    for kk in range(n_kinds):
        zero_box(gains[kk], dims, glo, ghi)
    near = np.zeros(len(tn.o_s), dtype=np.bool_)
    rf = make_refuges(suspects, cells, size, box, weight, up, down, gains, near)
    flats = np.empty(cap, dtype=np.int64)
    for u in range(n_sus):
        j = suspects[u]
        e, f = tn.e_pos[j], tn.e_f[j]
        c = _refuge_cells(tn, s, j, cells[u], flats)
        size[u] = c
        weight[u] = tn.w[I_HUNT] * tn.chief_gain[j] / c
        for a in range(3):
            box[u, a], box[u, 3 + a] = e[a], e[a]
        for v in range(c):
            for a in range(3):
                box[u, a] = min(box[u, a], cells[u, v, a])
                box[u, 3 + a] = max(box[u, 3 + a], cells[u, v, a])
        _refuge_cover(tn, rf, kinds, u, flats)
        for q in range(len(tn.o_s)):
            d = cheb(tn.o_pos[q, 0], tn.o_pos[q, 1], tn.o_pos[q, 2], e[0], e[1], e[2])
            if d <= tn.o_f[q] + f:
                near[q] = True
    return rf


@kernel
def _refuge_cells(tn: Turn, s: Sight, j: int, cells: IntArray, flats: IntArray) -> int:
    """Into ``cells`` and ``flats``: the cells enemy ``j`` may stand on next turn, its own
    first, then the free cells it reaches in order (R5 without teleporters); returns how
    many."""
    dims = tn.dims
    p, n, m = dims[0], dims[1], dims[2]
    e, f = tn.e_pos[j], tn.e_f[j]
    cells[0, 0], cells[0, 1], cells[0, 2] = e[0], e[1], e[2]
    flats[0] = tn.e_flat[j]
    c = 1
    for z in range(max(e[0] - f, 0), min(e[0] + f + 1, p)):
        for y in range(max(e[1] - f, 0), min(e[1] + f + 1, n)):
            for x in range(max(e[2] - f, 0), min(e[2] + f + 1, m)):
                if z == e[0] and y == e[1] and x == e[2]:
                    continue
                flat = (z * n + y) * m + x
                if s.occupied[flat]:
                    continue
                cells[c, 0], cells[c, 1], cells[c, 2] = z, y, x
                flats[c] = flat
                c += 1
    return c


@kernel
def _refuge_cover(tn: Turn, rf: Refuges, kinds: Kinds, u: int, flats: IntArray) -> None:
    """Suspect ``u``'s defence on each refuge (R8: its owner's pieces next to it as seen, or
    every piece's with ``defence_counts`` all; itself unless it stays next to where it stands;
    the hidden defenders its failed attacks showed) against the own power there: the change
    of cover per kind of mover, into ``rf.up``, ``rf.down`` and ``rf.gains``."""
    j = rf.suspects[u]
    e, f, s_e = tn.e_pos[j], tn.e_f[j], tn.e_s[j]
    k_en = len(tn.e_s)
    mates = np.empty(k_en, dtype=np.int64)
    n_mates = 0  # its owner's pieces next to some of its refuges (R8: they defend there)
    for q in range(k_en):
        d = cheb(tn.e_pos[q, 0], tn.e_pos[q, 1], tn.e_pos[q, 2], e[0], e[1], e[2])
        if tn.e_owner[q] == tn.e_owner[j] and d <= f + 1:
            mates[n_mates] = q
            n_mates += 1
    for v in range(rf.size[u]):
        z, y, x = rf.cells[u, v, 0], rf.cells[u, v, 1], rf.cells[u, v, 2]
        if tn.defence_all:
            defence = tn.defence[flats[v]]
        else:  # its owner's defence there (R8, as seen)
            defence = 0
            for w in range(n_mates):
                q = mates[w]
                if cheb(tn.e_pos[q, 0], tn.e_pos[q, 1], tn.e_pos[q, 2], z, y, x) <= 1:
                    defence += tn.e_s[q]
        step = cheb(z, y, x, e[0], e[1], e[2]) <= 1  # next to where it stands now
        need = defence + s_e - s_e * (1 if step else 0) + tn.e_hidden[j]
        now = tn.power[flats[v]]
        base = cover(now, need)
        for kk in range(len(kinds.field)):
            rf.up[u, v, kk] = cover(now + kinds.strength[kk], need) - base
            rf.down[u, v, kk] = cover(now - kinds.strength[kk], need) - base
            rf.gains[kk, flats[v]] += rf.weight[u] * rf.up[u, v, kk]


@kernel
def _parts(tn: Turn, rf: Refuges, kinds: Kinds) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Per kind of mover (field r), the suspects whose refuges' boxes come within 2r of each
    other, in parts that share their cube sums: each part's box (``lo``, ``hi``, by part
    number; ``hi`` -1: no such part) and, per kind, the box every part reaches within r
    (``reach_lo``, ``reach_hi``): a move's window meets the refuges of one part at most."""
    n_sus, n_kinds, dims, box = len(rf.suspects), len(kinds.field), tn.dims, rf.box
    lo = np.empty((n_kinds, n_sus, 3), dtype=np.int64)
    hi = np.empty((n_kinds, n_sus, 3), dtype=np.int64)
    part = np.empty(n_sus, dtype=np.int64)
    reach_lo = np.empty((n_kinds, 3), dtype=np.int64)
    reach_hi = np.empty((n_kinds, 3), dtype=np.int64)
    for kk in range(n_kinds):
        r = kinds.field[kk]
        for u in range(n_sus):
            part[u] = u
        merged = True
        while merged:
            merged = False
            for u in range(n_sus):
                for w in range(u):
                    if part[u] != part[w]:
                        gap = 0
                        for a in range(3):
                            gap = max(gap, box[u, a] - box[w, 3 + a], box[w, a] - box[u, 3 + a])
                        if gap <= 2 * r:
                            old = part[u]
                            for x in range(n_sus):
                                if part[x] == old:
                                    part[x] = part[w]
                            merged = True
        for a in range(3):
            reach_lo[kk, a], reach_hi[kk, a] = dims[a], -1
        for g in range(n_sus):
            lo[kk, g] = dims
            hi[kk, g] = -1
            for u in range(n_sus):
                if part[u] == g:
                    for a in range(3):
                        lo[kk, g, a] = min(lo[kk, g, a], box[u, a])
                        hi[kk, g, a] = max(hi[kk, g, a], box[u, 3 + a])
            for a in range(3):
                reach_lo[kk, a] = min(reach_lo[kk, a], lo[kk, g, a] - r)
                reach_hi[kk, a] = max(reach_hi[kk, a], hi[kk, g, a] + r)
    return lo, hi, reach_lo, reach_hi


@kernel
def _far_moves(
    tn: Turn, mover: IntArray, end: IntArray, rf: Refuges, kinds: Kinds, out: FloatArray
) -> None:
    """Into ``out``: the hunt of the moves of pieces that reach no refuge now, the cube sums
    of their kind's gains at their destinations (those within reach of a part)."""
    count, n_sus, n_kinds = len(mover), len(rf.suspects), len(kinds.field)
    lo, hi, reach_lo, reach_hi = _parts(tn, rf, kinds)
    which = np.empty((n_kinds, n_sus, count), dtype=np.int64)
    members = np.zeros((n_kinds, n_sus), dtype=np.int64)
    for k in range(count):
        i = mover[k]
        kk = kinds.of[i]
        inside = not rf.near[i]
        for a in range(3):
            inside = inside and reach_lo[kk, a] <= end[k, a] <= reach_hi[kk, a]
        if not inside:
            continue
        r = kinds.field[kk]
        for g in range(n_sus):
            inside = hi[kk, g, 0] >= 0
            for a in range(3):
                inside = inside and lo[kk, g, a] - r <= end[k, a] <= hi[kk, g, a] + r
            if inside:
                which[kk, g, members[kk, g]] = k
                members[kk, g] += 1
                break
    for kk in range(n_kinds):
        for g in range(n_sus):
            if members[kk, g]:
                chosen = which[kk, g, : members[kk, g]]
                r = kinds.field[kk]
                cube_sums_at(rf.gains[kk], tn.dims, lo[kk, g], hi[kk, g], r, end, chosen, out)


@kernel
def _near_moves(
    tn: Turn, mover: IntArray, end: IntArray, rf: Refuges, kinds: Kinds, out: FloatArray
) -> None:
    """Into ``out``: the hunt of the moves of pieces that may reach some refuge now, exactly:
    per suspect, the changes of cover of the refuges the mover leaves or comes within reach
    of, in order (masks of the refuges each cell reaches say which), summed as numpy sums
    them (pairwise if a single move is counted so); then weighted, suspect by suspect."""
    count, n_sus = len(mover), len(rf.suspects)
    sel = np.empty(count, dtype=np.int64)  # those moves, in order
    n_sel = 0
    for k in range(count):
        if rf.near[mover[k]]:
            sel[n_sel] = k
            n_sel += 1
    if not n_sel:
        return
    sel = sel[:n_sel]
    sums = np.zeros((n_sel, n_sus))
    for u in range(n_sus):
        for kk in range(len(kinds.field)):
            _near_sums(tn, mover, end, rf, kinds, u, kk, sel, sums)
    for v in range(n_sel):
        total = 0.0
        for u in range(n_sus):
            total += rf.weight[u] * sums[v, u]
        out[sel[v]] = total


@kernel
def _near_sums(
    tn: Turn,
    mover: IntArray,
    end: IntArray,
    rf: Refuges,
    kinds: Kinds,
    u: int,
    kk: int,
    sel: IntArray,
    sums: FloatArray,
) -> None:
    """Into ``sums[v, u]``: suspect ``u``'s change of cover by move ``sel[v]`` if its mover is
    of kind ``kk`` (``sel``: the moves of pieces that may reach some refuge now; a single one
    is summed pairwise)."""
    r, size, single = kinds.field[kk], rf.size[u], len(sel) == 1
    box = rf.box
    b0, b1, b2 = box[u, 0] - r, box[u, 1] - r, box[u, 2] - r
    s0, s1, s2 = box[u, 3] + r - b0 + 1, box[u, 4] + r - b1 + 1, box[u, 5] + r - b2 + 1
    up, down, kind_of, o_pos = rf.up[u, :, kk], rf.down[u, :, kk], kinds.of, tn.o_pos
    # per such move of this kind: the mask rows of its start and end cells (-1: outside the box)
    rows = np.full((len(sel), 2), -1, dtype=np.int64)
    touched = False  # does a move start or end within the box (else its sum stays 0)?
    for v in range(len(sel)):
        k = sel[v]
        i = mover[k]
        if kind_of[i] != kk:
            continue
        rows[v, 0] = _mask_row(o_pos[i, 0] - b0, o_pos[i, 1] - b1, o_pos[i, 2] - b2, s0, s1, s2)
        rows[v, 1] = _mask_row(end[k, 0] - b0, end[k, 1] - b1, end[k, 2] - b2, s0, s1, s2)
        touched = touched or rows[v, 0] >= 0 or rows[v, 1] >= 0
    if not touched:
        return
    masks = refuge_masks(rf, u, r, b0, b1, b2, s1, s2, s0 * s1 * s2)
    words = masks.shape[1]
    column = np.zeros(size)
    for v in range(len(sel)):
        if kind_of[mover[sel[v]]] != kk:
            continue
        at_a, at_b = rows[v, 0], rows[v, 1]
        if single:
            column[:] = 0.0
        acc = 0.0
        for w in range(words):
            from_a = masks[at_a, w] if at_a >= 0 else np.uint64(0)
            to_b = masks[at_b, w] if at_b >= 0 else np.uint64(0)
            changed = from_a ^ to_b
            while changed:  # the cells whose cover changes, in order
                b = trailing_zeros(changed)
                changed &= changed - ONE
                c = 64 * w + np.int64(b)
                change = up[c] if (to_b >> b) & ONE else down[c]
                if single:
                    column[c] = change
                else:
                    acc += change
        if single:
            acc = pairwise(column, 0, size)
        sums[v, u] = acc


@inlined
def _mask_row(z: int, y: int, x: int, s0: int, s1: int, s2: int) -> int:
    """The row of cell ``(z, y, x)`` (from the box's corner) among the box's ``s0`` by ``s1``
    by ``s2`` cells, or -1 outside it."""
    if 0 <= z < s0 and 0 <= y < s1 and 0 <= x < s2:
        return (z * s1 + y) * s2 + x
    return -1


@kernel
def refuge_masks(
    rf: Refuges, u: int, r: int, b0: int, b1: int, b2: int, s1: int, s2: int, cells: int
) -> npt.NDArray[np.uint64]:
    """Per cell of the box from ``(b0, b1, b2)`` (``cells`` cells, rows of ``s1`` by ``s2``):
    bit masks of suspect ``u``'s refuges within ``r`` of it."""
    one = np.uint64(1)
    size = rf.size[u]
    masks = np.zeros((cells, (size + 63) // 64), dtype=np.uint64)
    for v in range(size):
        bit = one << np.uint64(v % 64)
        z, y, x = rf.cells[u, v, 0] - b0, rf.cells[u, v, 1] - b1, rf.cells[u, v, 2] - b2
        for cz in range(z - r, z + r + 1):
            for cy in range(y - r, y + r + 1):
                row = (cz * s1 + cy) * s2
                for cx in range(x - r, x + r + 1):
                    masks[row + cx, v // 64] |= bit
    return masks
