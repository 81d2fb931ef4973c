"""The exposure term of a move's score (R8): for every own attackable piece, the expected loss
where the visible enemy power reaching it outpowers its defence, for sure or after one more
enemy move (R4); the largest in full, the others at ``spread``. A move changes the defence
around its start and end cells only: the mover's own risk where it lands, and the risk of the
pieces at risk next to either cell.

The risks are summed per move as numpy summed them in the planner this one replaced: pairwise
when a single move touches a piece at risk, else row by row. Bit masks say which pieces at risk
a move touches (those next to each own piece, and those next to each cell where moves end);
each move's sum starts from the position's running sum before
the first risk it changes and adds only the risks that change or are not zero. The moves of one
piece next to the same pieces at risk share that sum (a piece's moves are listed together).
"""

from __future__ import annotations

import numpy as np

from antipolix.agents.planner.board import zero_box
from antipolix.agents.planner.reading import Turn, threat_at
from antipolix.agents.planner.sums import (
    ONE,
    ZERO,
    case_of,
    case_table,
    column_spread_total,
    lowest_bit,
    pairwise,
    trailing_zeros,
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
    p_near, spread = tn.w[I_P_NEAR], tn.w[I_SPREAD]
    o_pos, o_s, loss, ci = tn.o_pos, tn.o_s, tn.loss, tn.ci
    defence = tn.defence
    now, later, boxes, strongest, hidden = tn.now, tn.later, tn.boxes, tn.strongest, tn.hidden
    unseen = CHIEF_UNSEEN * tn.unit  # the chief's allowance for invisible attackers
    adj_ab = np.empty(count, dtype=np.bool_)
    d_mover = np.empty(count, dtype=np.int64)
    r_mover = np.empty(count)
    for k in range(count):
        i = mover[k]
        adj_ab[k] = (
            cheb(o_pos[i, 0], o_pos[i, 1], o_pos[i, 2], end[k, 0], end[k, 1], end[k, 2]) <= 1
        )
        s_i = o_s[i]
        b = dest[k]
        d_mover[k] = defence[b] + s_i - s_i * adj_ab[k]
        allow = unseen if i == ci else 0
        threat, extra = threat_at(
            now, later, boxes, strongest, hidden, end[k, 0], end[k, 1], end[k, 2], b
        )
        r_mover[k] = piece_risk(threat, extra + allow, d_mover[k], loss[i], p_near)
    rel, r0, near_rel = _at_risk(tn)
    n_rel = len(rel)
    r0_top = 0.0
    for u in range(n_rel):
        r0_top = max(r0_top, r0[u])
    r0_sum = pairwise(r0, 0, n_rel)
    risk = np.empty(count)
    for k in range(count):  # moves that touch no piece at risk
        top = max(r0_top, r_mover[k])
        risk[k] = top + spread * (r0_sum + r_mover[k] - top)
    if n_rel <= 64:
        _exposure_masked(tn, mover, dest, end, rel, near_rel, r0, r_mover, risk)
    else:  # (more than a mask holds)
        _exposure_plain(tn, mover, end, rel, near_rel, r_mover, risk)
    score = np.empty(count)
    base_risk = tn.base_risk
    for k in range(count):
        score[k] = base_risk - risk[k]
    return score, adj_ab, d_mover


@kernel
def _at_risk(tn: Turn) -> tuple[IntArray, FloatArray, BoolArray]:
    """The own pieces at risk at all (an enemy reaches them and they can be attacked, R6), in
    order, their risks as they stand, and which own pieces stand next to each (R8: their
    strength counts in its defence; a piece is next to itself)."""
    k_own = len(tn.o_s)
    o_pos, t_own, x_own, d_own, loss = tn.o_pos, tn.t_own, tn.x_own, tn.d_own, tn.loss
    p_near = tn.w[I_P_NEAR]
    rel = np.empty(k_own, dtype=np.int64)
    n_rel = 0
    for q in range(k_own):
        if t_own[q] > 0 and loss[q] > 0:
            rel[n_rel] = q
            n_rel += 1
    rel = rel[:n_rel]
    r0 = np.empty(n_rel)
    near_rel = np.zeros((n_rel, k_own), dtype=np.bool_)
    for u in range(n_rel):
        q = rel[u]
        r0[u] = piece_risk(t_own[q], x_own[q], d_own[q], loss[q], p_near)
        a0, a1, a2 = o_pos[q, 0], o_pos[q, 1], o_pos[q, 2]
        for v in range(k_own):
            near_rel[u, v] = cheb(a0, a1, a2, o_pos[v, 0], o_pos[v, 1], o_pos[v, 2]) <= 1
    return rel, r0, near_rel


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
    """:func:`exposure` of the moves that touch a piece at risk (see the module docstring;
    at most 64 pieces at risk)."""
    n_rel, count, k_own = len(rel), len(mover), len(tn.o_s)
    beside = np.zeros(k_own, dtype=np.uint64)  # per own piece: the pieces at risk next to it
    itself = np.zeros(k_own, dtype=np.uint64)  # ... and itself if it is one
    for u in range(n_rel):
        bit = ONE << np.uint64(u)
        itself[rel[u]] = bit
        for q in range(k_own):
            if near_rel[u, q]:
                beside[q] |= bit
    around = _around(tn, rel, dest)  # per move
    n_sel = 0
    for k in range(count):
        if beside[mover[k]] != 0 or around[k] != 0:
            n_sel += 1
    if n_sel == 1:  # one column: numpy sums it pairwise
        _exposure_plain(tn, mover, end, rel, near_rel, r_mover, risk)
        return
    spread = tn.w[I_SPREAD]
    sums = np.empty(2 * count)  # per distinct case: its sum and largest risk, the mover's out
    case = _exposure_cases(tn, mover, rel, near_rel, r0, beside, itself, around, sums)
    for k in range(count):
        c = case[k]
        if c < 0:
            continue
        acc = sums[2 * c] + r_mover[k]
        top = max(sums[2 * c + 1], r_mover[k])
        risk[k] = top + spread * (acc - top)


@kernel
def _around(tn: Turn, rel: IntArray, dest: IntArray) -> MaskArray:
    """Per move, the bit mask of the pieces at risk next to its end (R1): stamped into a
    board of masks in the box where moves end, read at each move's end."""
    dims, lo, hi, o_pos = tn.dims, tn.lo, tn.hi, tn.o_pos
    n, m = dims[1], dims[2]
    grid = np.empty(len(tn.defence), dtype=np.uint64)  # (in lo..hi)
    zero_box(grid, dims, lo, hi)
    for u in range(len(rel)):
        bit = ONE << np.uint64(u)
        a0, a1, a2 = o_pos[rel[u], 0], o_pos[rel[u], 1], o_pos[rel[u], 2]
        for z in range(max(a0 - 1, lo[0]), min(a0 + 1, hi[0]) + 1):
            for y in range(max(a1 - 1, lo[1]), min(a1 + 1, hi[1]) + 1):
                base = (z * n + y) * m
                for x in range(max(a2 - 1, lo[2]), min(a2 + 1, hi[2]) + 1):
                    grid[base + x] |= bit
    out = np.empty(len(dest), dtype=np.uint64)
    for k in range(len(dest)):
        out[k] = grid[dest[k]]
    return out


@kernel
def _exposure_cases(
    tn: Turn,
    mover: IntArray,
    rel: IntArray,
    near_rel: BoolArray,
    r0: FloatArray,
    beside: MaskArray,
    itself: MaskArray,
    around: MaskArray,
    sums: FloatArray,
) -> IntArray:
    """Per move, its case (-1: it touches no piece at risk): moves of pieces of one strength
    next to the same pieces at risk before and after share one; into ``sums``, per case, the
    sum of the risks and the largest, row by row from the position's running sums (the
    mover's own risk left out)."""
    n_rel, count = len(rel), len(mover)
    o_s, d_own, t_own, x_own, loss = tn.o_s, tn.d_own, tn.t_own, tn.x_own, tn.loss
    p_near = tn.w[I_P_NEAR]
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
    case = np.full(count, -1, dtype=np.int64)
    keys, slots = case_table(count)
    n_cases, last, last_b, last_case = 0, -1, ZERO, -1
    for k in range(count):
        i = mover[k]
        to_b = around[k]
        if beside[i] == 0 and to_b == 0:
            continue
        if i == last and to_b == last_b:
            case[k] = last_case  # (the same as this piece's move before)
            continue
        s_i = o_s[i]
        c = case_of(keys, slots, to_b, beside[i], itself[i], np.uint64(s_i), n_cases)
        case[k], last, last_b, last_case = c, i, to_b, c
        if c < n_cases:
            continue
        n_cases += 1
        changed = (to_b ^ beside[i]) | itself[i]
        first = lowest_bit(changed, n_rel)
        acc, top = 0.0, 0.0
        if first > 0:
            acc, top = running[first - 1], highest[first - 1]
        todo = (live | changed) >> np.uint64(first) << np.uint64(first) if first < n_rel else ZERO
        while todo:  # the risks that change or are not zero, in order
            u = int(np.int64(trailing_zeros(todo)))
            todo &= todo - ONE
            r = r0[u]
            if (changed >> np.uint64(u)) & ONE:
                q = rel[u]
                if q == i:
                    r = 0.0
                else:
                    now = 1 if (to_b >> np.uint64(u)) & ONE else 0
                    d_rel = d_own[q] + s_i * (now - (1 if near_rel[u, i] else 0))
                    r = piece_risk(t_own[q], x_own[q], d_rel, loss[q], p_near)
            if r != 0.0:  # (adding zero changes no sum)
                acc += r
                top = max(top, r)
        sums[2 * c], sums[2 * c + 1] = acc, top
    return case


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
    n_rel, count, k_own = len(rel), len(mover), len(tn.o_s)
    o_pos, o_s, d_own, t_own, x_own, loss = tn.o_pos, tn.o_s, tn.d_own, tn.t_own, tn.x_own, tn.loss
    p_near, spread = tn.w[I_P_NEAR], tn.w[I_SPREAD]
    touch = np.zeros(k_own, dtype=np.bool_)
    for u in range(n_rel):
        for q in range(k_own):
            touch[q] = touch[q] or near_rel[u, q]
    sel = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        sel[k] = touch[mover[k]]
        b0, b1, b2 = end[k, 0], end[k, 1], end[k, 2]
        for u in range(n_rel):
            if sel[k]:
                break
            q = rel[u]
            sel[k] = cheb(o_pos[q, 0], o_pos[q, 1], o_pos[q, 2], b0, b1, b2) <= 1
    single = sel.sum() == 1
    column = np.empty(n_rel + 1)
    for k in range(count):
        if not sel[k]:
            continue
        i = mover[k]
        s_i = o_s[i]
        b0, b1, b2 = end[k, 0], end[k, 1], end[k, 2]
        for u in range(n_rel):
            q = rel[u]
            adj_b = cheb(o_pos[q, 0], o_pos[q, 1], o_pos[q, 2], b0, b1, b2) <= 1
            d_rel = d_own[q] + s_i * ((1 if adj_b else 0) - (1 if near_rel[u, i] else 0))
            risk_q = piece_risk(t_own[q], x_own[q], d_rel, loss[q], p_near)
            column[u] = 0.0 if q == i else risk_q
        column[n_rel] = r_mover[k]
        risk[k] = column_spread_total(column, n_rel + 1, single, spread)
