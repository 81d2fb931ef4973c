"""The hunt term of a move's score (R8): how well own pieces cover the cells the likeliest
chief suspects may flee to (a lone chief is caught by covering its escapes, not by chasing
it)."""

from __future__ import annotations

import numpy as np

from antipolix.agents.planner.board import cube_sums_at, zero_box
from antipolix.agents.planner.reading import Turn
from antipolix.agents.planner.sums import pairwise
from antipolix.agents.planner.values import cover
from antipolix.agents.planner.weights import HUNT_K, I_HUNT, I_HUNT_MIN, I_WIN, FloatArray
from antipolix.agents.sight import Sight
from antipolix.jit import kernel
from antipolix.reach import cheb
from antipolix.world import IntArray


@kernel
def hunt(
    tn: Turn, s: Sight, mover: IntArray, dest: IntArray, end: IntArray, offence: FloatArray
) -> None:
    """Hunt, added to ``offence``: the change, per move, in how well own pieces cover the cells
    the likeliest chief suspects may stand on next turn (R8 needs power > defence): their
    cells and every free cell they reach (R5 without teleporters).

    A piece that reaches none of those cells before its move only adds its power where it
    lands: the change is a cube sum (R1) of per-cell gains, looked up at the destination. The
    pieces that already reach some are counted exactly, cell by cell."""
    k_en, k_own = len(tn.e_s), len(tn.o_s)
    cg = tn.chief_gain
    suspects = np.empty(HUNT_K, dtype=np.int64)
    taken = np.zeros(k_en, dtype=np.bool_)
    n_sus = 0
    least = tn.w[I_HUNT_MIN] * tn.w[I_WIN] * tn.take_chief
    for _ in range(min(HUNT_K, k_en)):  # the likeliest first (the first of equals)
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
    if not n_sus:
        return
    count = len(dest)
    dims = tn.dims
    p, n, m = dims[0], dims[1], dims[2]
    # kinds of mover: (strength, field), per own piece that moves
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
    # the refuges of each suspect: cells, the defence to beat, the change of cover a mover of
    # each kind makes by coming within reach (up) or leaving (down)
    cap = 0
    for u in range(n_sus):
        side = 2 * tn.e_f[suspects[u]] + 1
        cap = max(cap, side**3)
    cells = np.empty((n_sus, cap, 3), dtype=np.int64)
    size_r = np.zeros(n_sus, dtype=np.int64)
    up = np.empty((n_sus, cap, n_kinds))
    down = np.empty((n_sus, cap, n_kinds))
    weight = np.empty(n_sus)
    box = np.empty((n_sus, 6), dtype=np.int64)  # the refuges' box: lo z, y, x, hi z, y, x
    gains = np.empty((n_kinds, len(tn.defence)))  # (zero around the refuges, read there only)
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
    near = np.zeros(k_own, dtype=np.bool_)
    mates = np.empty(k_en, dtype=np.int64)
    flats = np.empty(cap, dtype=np.int64)
    for u in range(n_sus):
        j = suspects[u]
        e = tn.e_pos[j]
        f = tn.e_f[j]
        s_e = tn.e_s[j]
        n_mates = 0  # its owner's pieces next to some of its refuges (R8: they defend there)
        for q in range(k_en):
            d = cheb(tn.e_pos[q, 0], tn.e_pos[q, 1], tn.e_pos[q, 2], e[0], e[1], e[2])
            if tn.e_owner[q] == tn.e_owner[j] and d <= f + 1:
                mates[n_mates] = q
                n_mates += 1
        cells[u, 0, 0], cells[u, 0, 1], cells[u, 0, 2] = e[0], e[1], e[2]
        flats[0] = tn.e_flat[j]
        c = 1  # its own cell first, then the free cells it reaches, in order
        for z in range(max(e[0] - f, 0), min(e[0] + f + 1, p)):
            for y in range(max(e[1] - f, 0), min(e[1] + f + 1, n)):
                for x in range(max(e[2] - f, 0), min(e[2] + f + 1, m)):
                    if z == e[0] and y == e[1] and x == e[2]:
                        continue
                    flat = (z * n + y) * m + x
                    if s.occupied[flat]:
                        continue
                    cells[u, c, 0], cells[u, c, 1], cells[u, c, 2] = z, y, x
                    flats[c] = flat
                    c += 1
        size_r[u] = c
        weight[u] = tn.w[I_HUNT] * tn.chief_gain[j] / c
        for a in range(3):
            box[u, a], box[u, 3 + a] = e[a], e[a]
        for v in range(c):
            z, y, x = cells[u, v, 0], cells[u, v, 1], cells[u, v, 2]
            for a in range(3):
                box[u, a] = min(box[u, a], cells[u, v, a])
                box[u, 3 + a] = max(box[u, 3 + a], cells[u, v, a])
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
            for kk in range(n_kinds):
                up[u, v, kk] = cover(now + kind_s[kk], need) - base
                down[u, v, kk] = cover(now - kind_s[kk], need) - base
                gains[kk, flats[v]] += weight[u] * up[u, v, kk]
        for q in range(k_own):
            d = cheb(tn.o_pos[q, 0], tn.o_pos[q, 1], tn.o_pos[q, 2], e[0], e[1], e[2])
            if d <= tn.o_f[q] + f:
                near[q] = True
    out = np.zeros(count)
    # per kind, suspects whose boxes come within 2r of each other share their sums: one part
    # each (its box: lo..hi; a move's window meets the refuges of one part at most)
    lo = np.empty((n_kinds, n_sus, 3), dtype=np.int64)
    hi = np.empty((n_kinds, n_sus, 3), dtype=np.int64)
    part = np.empty(n_sus, dtype=np.int64)
    reach_lo = np.empty((n_kinds, 3), dtype=np.int64)  # every part's box, within r
    reach_hi = np.empty((n_kinds, 3), dtype=np.int64)
    for kk in range(n_kinds):
        r = kind_f[kk]
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
    # movers that reach none of the cells: the cube sums, for the moves ending within reach
    which = np.empty((n_kinds, n_sus, count), dtype=np.int64)
    members = np.zeros((n_kinds, n_sus), dtype=np.int64)
    for k in range(count):
        i = mover[k]
        kk = kind_of[i]
        inside = not near[i]
        for a in range(3):
            inside = inside and reach_lo[kk, a] <= end[k, a] <= reach_hi[kk, a]
        if not inside:
            continue
        r = kind_f[kk]
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
                cube_sums_at(gains[kk], dims, lo[kk, g], hi[kk, g], kind_f[kk], end, chosen, out)
    # the movers that reach some: exactly, by masks of the refuges each cell reaches
    n_sel = 0
    for k in range(count):
        n_sel += near[mover[k]]
    if not n_sel:
        for k in range(count):
            offence[k] += out[k]
        return
    single = n_sel == 1
    column = np.zeros(cap)
    sums = np.zeros((count, n_sus))
    one = np.uint64(1)
    for u in range(n_sus):
        words = (size_r[u] + 63) // 64
        for kk in range(n_kinds):
            r = kind_f[kk]
            b0, b1, b2 = box[u, 0] - r, box[u, 1] - r, box[u, 2] - r
            s0, s1, s2 = box[u, 3] + r - b0 + 1, box[u, 4] + r - b1 + 1, box[u, 5] + r - b2 + 1
            masks = np.zeros((s0 * s1 * s2, words), dtype=np.uint64)
            for v in range(size_r[u]):
                bit = one << np.uint64(v % 64)
                z, y, x = cells[u, v, 0] - b0, cells[u, v, 1] - b1, cells[u, v, 2] - b2
                for cz in range(z - r, z + r + 1):
                    for cy in range(y - r, y + r + 1):
                        row = (cz * s1 + cy) * s2
                        for cx in range(x - r, x + r + 1):
                            masks[row + cx, v // 64] |= bit
            for k in range(count):
                i = mover[k]
                if kind_of[i] != kk or not near[i]:
                    continue
                a0, a1, a2 = tn.o_pos[i, 0] - b0, tn.o_pos[i, 1] - b1, tn.o_pos[i, 2] - b2
                at_a = -1  # the mask rows of its start and end cells, if within the box
                if 0 <= a0 < s0 and 0 <= a1 < s1 and 0 <= a2 < s2:
                    at_a = (a0 * s1 + a1) * s2 + a2
                e0, e1, e2 = end[k, 0] - b0, end[k, 1] - b1, end[k, 2] - b2
                at_b = -1
                if 0 <= e0 < s0 and 0 <= e1 < s1 and 0 <= e2 < s2:
                    at_b = (e0 * s1 + e1) * s2 + e2
                if single:
                    column[: size_r[u]] = 0.0
                acc = 0.0
                for w in range(words):
                    from_a = masks[at_a, w] if at_a >= 0 else np.uint64(0)
                    to_b = masks[at_b, w] if at_b >= 0 else np.uint64(0)
                    changed = from_a ^ to_b
                    v = 64 * w
                    while changed:  # the cells whose cover changes, in order
                        if changed & one:
                            change = up[u, v, kk] if to_b & one else down[u, v, kk]
                            if single:
                                column[v] = change
                            else:
                                acc += change
                        changed >>= one
                        to_b >>= one
                        v += 1
                if single:
                    acc = pairwise(column, 0, size_r[u])
                sums[k, u] = acc
    for k in range(count):
        if near[mover[k]]:
            total = 0.0
            for u in range(n_sus):
                total += weight[u] * sums[k, u]
            out[k] = total
        offence[k] += out[k]
