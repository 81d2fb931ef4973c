"""The threats term of a move's score (R8): the winning attacks open next turn (forks count)
and, late in a game, pressure: own power on the enemy pieces near the front short of beating
them."""

from __future__ import annotations

import numpy as np

from antipolix.agents.planner.board import zero_box
from antipolix.agents.planner.reading import Turn
from antipolix.agents.planner.sums import column_spread_total, column_sum, pairwise, spread_total
from antipolix.agents.planner.weights import (
    FRONT,
    I_PRESS,
    I_PRESS_FROM,
    I_SPREAD,
    I_THREAT,
    BoolArray,
    FloatArray,
)
from antipolix.jit import kernel
from antipolix.reach import cheb
from antipolix.world import IntArray


@kernel
def threats(tn: Turn, mover: IntArray, dest: IntArray, end: IntArray) -> FloatArray:
    """The winning attacks open next turn (forks count) and, late in a game, pressure, per
    move; only moves that start or end within reach of an enemy near the front change them.

    Per move, the wins and the pressure on the enemy pieces near the front are summed over
    them in numpy's order: pairwise if a single move changes any, else row by row: from the
    position's own running sums before the first piece the move changes (bit masks of the
    pieces each own piece and each cell reach find it), adding only the terms that are not
    zero."""
    count = len(dest)
    offence = np.zeros(count)
    k_own, k_en = len(tn.o_s), len(tn.e_s)
    close = np.empty(k_en, dtype=np.int64)  # enemy pieces near the front
    n_close = 0
    for j in range(k_en):
        e0, e1, e2 = tn.e_pos[j, 0], tn.e_pos[j, 1], tn.e_pos[j, 2]
        for q in range(k_own):
            if cheb(e0, e1, e2, tn.o_pos[q, 0], tn.o_pos[q, 1], tn.o_pos[q, 2]) <= FRONT:
                close[n_close] = j
                n_close += 1
                break
    if not n_close:
        return offence
    close = close[:n_close]
    reach = np.zeros((n_close, k_own), dtype=np.bool_)
    reaching = np.zeros(k_own, dtype=np.bool_)
    power = np.zeros(n_close, dtype=np.int64)
    need = np.empty(n_close, dtype=np.int64)
    gain = np.empty(n_close)
    wins = np.empty(n_close)
    pressed = np.empty(n_close)
    for c in range(n_close):
        j = close[c]
        e0, e1, e2 = tn.e_pos[j, 0], tn.e_pos[j, 1], tn.e_pos[j, 2]
        for q in range(k_own):
            if cheb(e0, e1, e2, tn.o_pos[q, 0], tn.o_pos[q, 1], tn.o_pos[q, 2]) <= tn.o_f[q]:
                reach[c, q] = True
                reaching[q] = True
                power[c] += tn.o_s[q]
        need[c] = tn.e_def[j]
        gain[c] = tn.gain[j]
        wins[c] = gain[c] * (1.0 if power[c] > need[c] else 0.0)
        pressed[c] = gain[c] * min(power[c], need[c] + 1) / (need[c] + 1)
    wins0 = spread_total(wins, n_close, tn.w[I_SPREAD])
    press0 = pairwise(pressed, 0, n_close)
    press = tn.w[I_PRESS] * min(max(tn.turn / tn.w[I_PRESS_FROM] - 1, 0.0), 1.0)
    plain = (close, reach, reaching, power, need, gain)
    if n_close > 64:  # (more than a mask holds)
        _threats_plain(tn, mover, end, plain, wins0, press0, press, offence)
        return offence
    # the same as a move that changes nothing computes them, and their running sums
    kept_wins = wins.copy()
    kept_press = np.empty(n_close)
    sum_wins = np.empty(n_close)
    sum_press = np.empty(n_close)
    top_wins = np.empty(n_close)
    acc_w, acc_p, top = 0.0, 0.0, 0.0
    for c in range(n_close):
        kept_press[c] = gain[c] * (min(power[c], need[c] + 1) / (need[c] + 1))
        acc_w += kept_wins[c]
        acc_p += kept_press[c]
        top = max(top, kept_wins[c])
        sum_wins[c], sum_press[c], top_wins[c] = acc_w, acc_p, top
    # masks of the enemy pieces near the front: those each own piece reaches, those within
    # each move field of each cell where moves end
    one = np.uint64(1)
    reached = np.zeros(k_own, dtype=np.uint64)
    for c in range(n_close):
        for q in range(k_own):
            if reach[c, q]:
                reached[q] |= one << np.uint64(c)
    field = 0
    for k in range(count):
        field = max(field, tn.o_f[mover[k]])
    fields = np.zeros(field + 1, dtype=np.int64)  # move field → its row of masks
    n_fields = 0
    for k in range(count):
        f = tn.o_f[mover[k]]
        if fields[f] == 0:
            n_fields += 1
            fields[f] = n_fields
    dims, lo, hi = tn.dims, tn.lo, tn.hi
    n, m = dims[1], dims[2]
    within = np.empty((n_fields + 1, len(tn.defence)), dtype=np.uint64)  # (in lo..hi)
    for f in range(len(fields)):
        if fields[f] == 0:
            continue
        row = within[fields[f]]
        zero_box(row, dims, lo, hi)
        for c in range(n_close):
            e = tn.e_pos[close[c]]
            bit = one << np.uint64(c)
            for z in range(max(e[0] - f, lo[0]), min(e[0] + f, hi[0]) + 1):
                for y in range(max(e[1] - f, lo[1]), min(e[1] + f, hi[1]) + 1):
                    base = (z * n + y) * m
                    for x in range(max(e[2] - f, lo[2]), min(e[2] + f, hi[2]) + 1):
                        row[base + x] |= bit
    n_sel = 0
    for k in range(count):
        i = mover[k]
        if reached[i] != 0 or within[fields[tn.o_f[i]], dest[k]] != 0:
            n_sel += 1
    if n_sel == 1:  # one column: numpy sums it pairwise
        _threats_plain(tn, mover, end, plain, wins0, press0, press, offence)
        return offence
    for k in range(count):
        i = mover[k]
        to_b = within[fields[tn.o_f[i]], dest[k]]
        if reached[i] == 0 and to_b == 0:
            continue
        changed = to_b ^ reached[i]
        first = 0
        while first < n_close and not (changed >> np.uint64(first)) & one:
            first += 1
        acc_w, acc_p, top = 0.0, 0.0, 0.0
        if first > 0:
            acc_w, acc_p, top = sum_wins[first - 1], sum_press[first - 1], top_wins[first - 1]
        s_i = tn.o_s[i]
        for c in range(first, n_close):
            w, pr = kept_wins[c], kept_press[c]
            if (changed >> np.uint64(c)) & one:
                after = power[c] + (s_i if (to_b >> np.uint64(c)) & one else -s_i)
                w = gain[c] * (1.0 if after > need[c] else 0.0)
                pr = gain[c] * (min(after, need[c] + 1) / (need[c] + 1))
            if w != 0.0:  # (adding zero changes no sum)
                acc_w += w
                top = max(top, w)
            if pr != 0.0:
                acc_p += pr
        offence[k] = tn.w[I_THREAT] * (top + tn.w[I_SPREAD] * (acc_w - top) - wins0)
        if press != 0.0:
            offence[k] += press * (acc_p - press0)
    return offence


@kernel
def _threats_plain(
    tn: Turn,
    mover: IntArray,
    end: IntArray,
    plain: tuple[IntArray, BoolArray, BoolArray, IntArray, IntArray, FloatArray],
    wins0: float,
    press0: float,
    press: float,
    offence: FloatArray,
) -> None:
    """:func:`threats` the plain way (for more enemy pieces near the front than a mask holds,
    or a single move that changes any): every term of every move that changes some."""
    close, reach, reaching, power, need, gain = plain
    n_close, count = len(close), len(mover)
    sel = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        i = mover[k]
        sel[k] = reaching[i]
        b0, b1, b2 = end[k, 0], end[k, 1], end[k, 2]
        for c in range(n_close):
            if sel[k]:
                break
            j = close[c]
            sel[k] = cheb(tn.e_pos[j, 0], tn.e_pos[j, 1], tn.e_pos[j, 2], b0, b1, b2) <= tn.o_f[i]
    single = sel.sum() == 1
    wins = np.empty(n_close)
    pressed = np.empty(n_close)
    for k in range(count):
        if not sel[k]:
            continue
        i = mover[k]
        s_i, f_i = tn.o_s[i], tn.o_f[i]
        b0, b1, b2 = end[k, 0], end[k, 1], end[k, 2]
        for c in range(n_close):
            j = close[c]
            to_b = cheb(tn.e_pos[j, 0], tn.e_pos[j, 1], tn.e_pos[j, 2], b0, b1, b2) <= f_i
            after = power[c] + s_i * ((1 if to_b else 0) - (1 if reach[c, i] else 0))
            wins[c] = gain[c] * (1.0 if after > need[c] else 0.0)
            pressed[c] = gain[c] * (min(after, need[c] + 1) / (need[c] + 1))
        spread = tn.w[I_SPREAD]
        offence[k] += tn.w[I_THREAT] * (column_spread_total(wins, n_close, single, spread) - wins0)
        offence[k] += press * (column_sum(pressed, n_close, single) - press0)
