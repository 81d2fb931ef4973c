"""The exposure term of a move's score (R8): for every own attackable piece, the expected loss
where the visible enemy power reaching it outpowers its defence, for sure or after one more
enemy move (R4); the largest in full, the others at ``spread``. A move changes the defence
around its start and end cells only."""

from __future__ import annotations

import numpy as np

from antipolix.agents.planner.board import zero_box
from antipolix.agents.planner.reading import Turn
from antipolix.agents.planner.sums import (
    BYTE,
    EIGHT,
    ONE,
    column_spread_total,
    lowest_bit,
    pairwise,
)
from antipolix.agents.planner.values import piece_risk
from antipolix.agents.planner.weights import (
    CHIEF_UNSEEN,
    I_P_NEAR,
    I_SPREAD,
    BoolArray,
    FloatArray,
    MaskArray,
)
from antipolix.jit import kernel
from antipolix.reach import cheb
from antipolix.world import IntArray


@kernel
def exposure(
    tn: Turn, mover: IntArray, dest: IntArray, end: IntArray
) -> tuple[FloatArray, BoolArray, IntArray]:
    """The score each move starts from: the risk it removes (R8), the mover on its new cell
    and the pieces at risk around both cells (their defence changes). Also returns, per move,
    whether it ends next to its start and the mover's defence there."""
    count = len(dest)
    k_own = len(tn.o_s)
    p_near, spread = tn.w[I_P_NEAR], tn.w[I_SPREAD]
    adj_ab = np.empty(count, dtype=np.bool_)
    d_mover = np.empty(count, dtype=np.int64)
    r_mover = np.empty(count)
    for k in range(count):
        i = mover[k]
        a0, a1, a2 = tn.o_pos[i, 0], tn.o_pos[i, 1], tn.o_pos[i, 2]
        adj_ab[k] = cheb(a0, a1, a2, end[k, 0], end[k, 1], end[k, 2]) <= 1
        s_i = tn.o_s[i]
        d_mover[k] = tn.defence[dest[k]] + s_i - s_i * adj_ab[k]
        unseen = CHIEF_UNSEEN * tn.unit if i == tn.ci else 0  # invisible attackers
        r_mover[k] = piece_risk(
            tn.threat[dest[k]], tn.extra[dest[k]] + unseen, d_mover[k], tn.loss[i], p_near
        )
    rel = np.empty(k_own, dtype=np.int64)  # the pieces at risk at all
    n_rel = 0
    for q in range(k_own):
        if tn.t_own[q] > 0 and tn.loss[q] > 0:
            rel[n_rel] = q
            n_rel += 1
    rel = rel[:n_rel]
    r0 = np.empty(n_rel)
    for u in range(n_rel):
        q = rel[u]
        r0[u] = piece_risk(tn.t_own[q], tn.x_own[q], tn.d_own[q], tn.loss[q], p_near)
    r0_top = 0.0
    for u in range(n_rel):
        r0_top = max(r0_top, r0[u])
    r0_sum = pairwise(r0, 0, n_rel)
    risk = np.empty(count)
    for k in range(count):  # moves that touch no piece at risk
        top = max(r0_top, r_mover[k])
        risk[k] = top + spread * (r0_sum + r_mover[k] - top)
    near_rel = np.zeros((n_rel, k_own), dtype=np.bool_)  # a piece is near itself
    for u in range(n_rel):
        a0, a1, a2 = tn.o_pos[rel[u], 0], tn.o_pos[rel[u], 1], tn.o_pos[rel[u], 2]
        for q in range(k_own):
            near_rel[u, q] = cheb(a0, a1, a2, tn.o_pos[q, 0], tn.o_pos[q, 1], tn.o_pos[q, 2]) <= 1
    if n_rel <= 64:
        _exposure_masked(tn, mover, dest, end, rel, near_rel, r0, r_mover, risk)
    else:  # (more than a mask holds)
        _exposure_plain(tn, mover, end, rel, near_rel, r_mover, risk)
    score = np.empty(count)
    for k in range(count):
        score[k] = tn.base_risk - risk[k]
    return score, adj_ab, d_mover


@kernel
def _exposure_masks(tn: Turn, rel: IntArray, near_rel: BoolArray) -> tuple[MaskArray, ...]:
    """Bit masks of the pieces at risk: per own piece, those next to it (``beside``) and
    itself if it is one (``itself``); per cell of the box where moves end, those next to it
    (``around``)."""
    n_rel, k_own = len(rel), len(tn.o_s)
    beside = np.zeros(k_own, dtype=np.uint64)
    itself = np.zeros(k_own, dtype=np.uint64)
    dims, lo, hi = tn.dims, tn.lo, tn.hi
    around = np.empty(len(tn.defence), dtype=np.uint64)  # (in lo..hi)
    zero_box(around, dims, lo, hi)
    n, m = dims[1], dims[2]
    for u in range(n_rel):
        bit = ONE << np.uint64(u)
        itself[rel[u]] = bit
        for q in range(k_own):
            if near_rel[u, q]:
                beside[q] |= bit
        a = tn.o_pos[rel[u]]
        for z in range(max(a[0] - 1, lo[0]), min(a[0] + 1, hi[0]) + 1):
            for y in range(max(a[1] - 1, lo[1]), min(a[1] + 1, hi[1]) + 1):
                base = (z * n + y) * m
                for x in range(max(a[2] - 1, lo[2]), min(a[2] + 1, hi[2]) + 1):
                    around[base + x] |= bit
    return beside, itself, around


@kernel
def _exposure_masked(
    tn: Turn,
    mover: IntArray,
    dest: IntArray,
    end: IntArray,
    rel: IntArray,
    near_rel: BoolArray,
    r0: FloatArray,
    r_mover: FloatArray,
    risk: FloatArray,
) -> None:
    """:func:`exposure` of the moves that touch a piece at risk, summed as numpy sums them:
    pairwise if there is a single one, else row by row from the position's own running sums
    before the first piece the move changes (masks of the pieces at risk next to each own
    piece and each cell find it), adding only the terms that are not zero. The moves of one
    piece next to the same pieces at risk share these sums (the mover's own risk comes last)."""
    n_rel, count = len(rel), len(dest)
    beside, itself, around = _exposure_masks(tn, rel, near_rel)
    n_sel = 0
    for k in range(count):
        if beside[mover[k]] != 0 or around[dest[k]] != 0:
            n_sel += 1
    if n_sel == 1:  # one column: numpy sums it pairwise
        _exposure_plain(tn, mover, end, rel, near_rel, r_mover, risk)
        return
    running = np.empty(n_rel)  # the sums and largest values of the risks as they stand
    highest = np.empty(n_rel)
    live = np.uint64(0)  # the risks that are not zero
    acc, top = 0.0, 0.0
    for u in range(n_rel):
        acc += r0[u]
        top = max(top, r0[u])
        running[u], highest[u] = acc, top
        if r0[u] != 0.0:
            live |= ONE << np.uint64(u)
    p_near, spread = tn.w[I_P_NEAR], tn.w[I_SPREAD]
    seen = np.empty(count, dtype=np.uint64)  # the masks of the current piece's moves so far
    sums = np.empty((count, 2))  # ... and their sums and largest risks, the mover's left out
    last, n_seen = -1, 0
    for k in range(count):
        i = mover[k]
        to_b = around[dest[k]]
        if beside[i] == 0 and to_b == 0:
            continue
        if i != last:
            last, n_seen = i, 0
        v = 0
        while v < n_seen and seen[v] != to_b:
            v += 1
        if v == n_seen:
            changed = (to_b ^ beside[i]) | itself[i]
            first = lowest_bit(changed, n_rel)
            acc, top = 0.0, 0.0
            if first > 0:
                acc, top = running[first - 1], highest[first - 1]
            s_i = tn.o_s[i]
            u = first
            todo = (live | changed) >> np.uint64(first) if first < n_rel else np.uint64(0)
            while todo:
                if (todo & BYTE) == 0:
                    todo >>= EIGHT
                    u += 8
                    continue
                if todo & ONE:
                    r = r0[u]
                    if (changed >> np.uint64(u)) & ONE:
                        q = rel[u]
                        if q == i:
                            r = 0.0
                        else:
                            now = 1 if (to_b >> np.uint64(u)) & ONE else 0
                            d_rel = tn.d_own[q] + s_i * (now - (1 if near_rel[u, i] else 0))
                            r = piece_risk(tn.t_own[q], tn.x_own[q], d_rel, tn.loss[q], p_near)
                    if r != 0.0:  # (adding zero changes no sum)
                        acc += r
                        top = max(top, r)
                todo >>= ONE
                u += 1
            seen[v], sums[v, 0], sums[v, 1] = to_b, acc, top
            n_seen += 1
        acc = sums[v, 0] + r_mover[k]
        top = max(sums[v, 1], r_mover[k])
        risk[k] = top + spread * (acc - top)


@kernel
def _exposure_plain(
    tn: Turn,
    mover: IntArray,
    end: IntArray,
    rel: IntArray,
    near_rel: BoolArray,
    r_mover: FloatArray,
    risk: FloatArray,
) -> None:
    """:func:`exposure` of the moves that touch a piece at risk, every term of every one (for
    more pieces at risk than a mask holds, or a single such move)."""
    n_rel, count = len(rel), len(mover)
    touch = np.zeros(len(tn.o_s), dtype=np.bool_)
    for u in range(n_rel):
        for q in range(len(tn.o_s)):
            touch[q] = touch[q] or near_rel[u, q]
    sel = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        sel[k] = touch[mover[k]]
        b0, b1, b2 = end[k, 0], end[k, 1], end[k, 2]
        for u in range(n_rel):
            if sel[k]:
                break
            q = rel[u]
            sel[k] = cheb(tn.o_pos[q, 0], tn.o_pos[q, 1], tn.o_pos[q, 2], b0, b1, b2) <= 1
    single = sel.sum() == 1
    column = np.empty(n_rel + 1)
    for k in range(count):
        if not sel[k]:
            continue
        i = mover[k]
        s_i = tn.o_s[i]
        b0, b1, b2 = end[k, 0], end[k, 1], end[k, 2]
        for u in range(n_rel):
            q = rel[u]
            adj_b = cheb(tn.o_pos[q, 0], tn.o_pos[q, 1], tn.o_pos[q, 2], b0, b1, b2) <= 1
            d_rel = tn.d_own[q] + s_i * ((1 if adj_b else 0) - (1 if near_rel[u, i] else 0))
            risk_q = piece_risk(tn.t_own[q], tn.x_own[q], d_rel, tn.loss[q], tn.w[I_P_NEAR])
            column[u] = 0.0 if q == i else risk_q
        column[n_rel] = r_mover[k]
        risk[k] = column_spread_total(column, n_rel + 1, single, tn.w[I_SPREAD])
