"""The threats term of a move's score (R8): the winning attacks open next turn (forks count)
and, late in a game, pressure: own power on the enemy pieces near the front short of beating
them.

Per move, the wins and the pressure on the enemy pieces near the front are summed over them in
numpy's order: pairwise if a single move changes any, else row by row. A move changes only the
terms of the pieces its mover reaches before or after it: bit masks (of the pieces each own
piece reaches, and of those within each move field of each cell where moves end) say which;
the sums start from the position's own running sums before the first one it changes and add
only the terms that change or are not zero (the pressure's only when it counts). The moves of
one piece that reach the same pieces score the same: each case is summed once (the moves of a
piece are listed together, :func:`~antipolix.agents.planner.decision.candidates`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from antipolix.agents.planner.board import zero_box
from antipolix.agents.planner.reading import Turn
from antipolix.agents.planner.sums import (
    ONE,
    ZERO,
    case_of,
    case_table,
    column_spread_total,
    column_sum,
    lowest_bit,
    pairwise,
    spread_total,
    trailing_zeros,
)
from antipolix.agents.planner.weights import (
    FRONT,
    I_PRESS,
    I_PRESS_FROM,
    I_SPREAD,
    I_THREAT,
    BoolArray,
    FloatArray,
    MaskArray,
)
from antipolix.jit import kernel, record
from antipolix.reach import cheb
from antipolix.world import IntArray


class Front(NamedTuple):
    """The visible enemy pieces near the front (within :data:`FRONT` of an own piece) and the
    own pieces' power on each now (R5 by move fields, R8)."""

    close: IntArray  # their indices among the visible enemy pieces, in order
    reach: BoolArray  # (n_close, k_own): does own piece q reach it
    reaching: BoolArray  # per own piece: does it reach any
    power: IntArray  # own power on each
    need: IntArray  # its defence (R8, hidden defenders shown included)
    gain: FloatArray  # what taking it gains


# a compiled record in kernels (passed by one pointer: a call does not count references to
# each of its arrays)
make_front = record(Front)


@kernel
def front(tn: Turn) -> Front:
    """The enemy pieces near the front and the own power on each (see :class:`Front`)."""
    k_own, k_en = len(tn.o_s), len(tn.e_s)
    o_pos, o_s, o_f, e_pos = tn.o_pos, tn.o_s, tn.o_f, tn.e_pos
    close = np.empty(k_en, dtype=np.int64)
    n_close = 0
    for j in range(k_en):
        e0, e1, e2 = e_pos[j, 0], e_pos[j, 1], e_pos[j, 2]
        for q in range(k_own):
            if cheb(e0, e1, e2, o_pos[q, 0], o_pos[q, 1], o_pos[q, 2]) <= FRONT:
                close[n_close] = j
                n_close += 1
                break
    close = close[:n_close]
    reach = np.zeros((n_close, k_own), dtype=np.bool_)
    reaching = np.zeros(k_own, dtype=np.bool_)
    power = np.zeros(n_close, dtype=np.int64)
    need = np.empty(n_close, dtype=np.int64)
    gain = np.empty(n_close)
    for c in range(n_close):
        j = close[c]
        e0, e1, e2 = e_pos[j, 0], e_pos[j, 1], e_pos[j, 2]
        for q in range(k_own):
            if cheb(e0, e1, e2, o_pos[q, 0], o_pos[q, 1], o_pos[q, 2]) <= o_f[q]:
                reach[c, q] = True
                reaching[q] = True
                power[c] += o_s[q]
        need[c] = tn.e_def[j]
        gain[c] = tn.gain[j]
    return make_front(close, reach, reaching, power, need, gain)


@kernel
def threats(tn: Turn, mover: IntArray, dest: IntArray, end: IntArray) -> FloatArray:
    """The winning attacks open next turn and the pressure, per move (see the module
    docstring): only moves that start or end within reach of an enemy near the front change
    them."""
    count = len(dest)
    offence = np.zeros(count)
    fr = front(tn)
    n_close = len(fr.close)
    if not n_close:
        return offence
    power, need, gain = fr.power, fr.need, fr.gain
    wins = np.empty(n_close)
    pressed = np.empty(n_close)
    for c in range(n_close):
        wins[c] = gain[c] * (1.0 if power[c] > need[c] else 0.0)
        pressed[c] = gain[c] * min(power[c], need[c] + 1) / (need[c] + 1)
    wins0 = spread_total(wins, n_close, tn.w[I_SPREAD])
    press0 = pairwise(pressed, 0, n_close)
    press = tn.w[I_PRESS] * min(max(tn.turn / tn.w[I_PRESS_FROM] - 1, 0.0), 1.0)
    if n_close > 64:  # (more than a mask holds)
        _threats_plain(tn, mover, end, fr, wins0, press0, press, offence)
        return offence
    k_own = len(tn.o_s)
    reached = np.zeros(k_own, dtype=np.uint64)  # per own piece: those it reaches now
    for c in range(n_close):
        for q in range(k_own):
            if fr.reach[c, q]:
                reached[q] |= ONE << np.uint64(c)
    within = _within(tn, mover, dest, fr)  # per move
    n_sel = 0
    for k in range(count):
        if reached[mover[k]] != 0 or within[k] != 0:
            n_sel += 1
    if n_sel == 1:  # one column: numpy sums it pairwise
        _threats_plain(tn, mover, end, fr, wins0, press0, press, offence)
        return offence
    values = np.empty(3 * count)  # per distinct case: wins, pressure, largest win
    case = _threat_cases(tn, mover, fr, reached, within, press, values)
    w_threat, spread = tn.w[I_THREAT], tn.w[I_SPREAD]
    for k in range(count):
        c = case[k]
        if c < 0:
            continue
        acc_w, acc_p, top = values[3 * c], values[3 * c + 1], values[3 * c + 2]
        out = w_threat * (top + spread * (acc_w - top) - wins0)
        if press != 0.0:
            out += press * (acc_p - press0)
        offence[k] = out
    return offence


@kernel
def _within(tn: Turn, mover: IntArray, dest: IntArray, fr: Front) -> MaskArray:
    """Per move, the bit mask of the enemy pieces near the front within its mover's field of
    its end (R1, R5): stamped into a board of masks per move field in the box where moves
    end, read at each move's end."""
    o_f, e_pos, close = tn.o_f, tn.e_pos, fr.close
    field = 0
    for k in range(len(mover)):
        field = max(field, o_f[mover[k]])
    fields = np.zeros(field + 1, dtype=np.int64)  # move field → its row of masks
    n_fields = 0
    for k in range(len(mover)):
        f = o_f[mover[k]]
        if fields[f] == 0:
            n_fields += 1
            fields[f] = n_fields
    dims, lo, hi = tn.dims, tn.lo, tn.hi
    n, m = dims[1], dims[2]
    grid = np.empty((n_fields + 1, len(tn.defence)), dtype=np.uint64)  # (in lo..hi)
    for f in range(len(fields)):
        if fields[f] == 0:
            continue
        row = grid[fields[f]]
        zero_box(row, dims, lo, hi)
        for c in range(len(close)):
            e0, e1, e2 = e_pos[close[c], 0], e_pos[close[c], 1], e_pos[close[c], 2]
            bit = ONE << np.uint64(c)
            for z in range(max(e0 - f, lo[0]), min(e0 + f, hi[0]) + 1):
                for y in range(max(e1 - f, lo[1]), min(e1 + f, hi[1]) + 1):
                    base = (z * n + y) * m
                    for x in range(max(e2 - f, lo[2]), min(e2 + f, hi[2]) + 1):
                        row[base + x] |= bit
    out = np.empty(len(mover), dtype=np.uint64)
    for k in range(len(mover)):
        out[k] = grid[fields[o_f[mover[k]]], dest[k]]
    return out


@kernel
def _threat_cases(
    tn: Turn,
    mover: IntArray,
    fr: Front,
    reached: MaskArray,
    within: MaskArray,
    press: float,
    values: FloatArray,
) -> IntArray:
    """Per move, its case (-1: it changes no term): moves of pieces of one strength that reach
    the same enemy pieces before and after share one; into ``values``, per case, the sums of
    the wins and of the pressure and the largest win, row by row from the position's running
    sums."""
    n_close, count = len(fr.close), len(mover)
    power, need, gain, o_s = fr.power, fr.need, fr.gain, tn.o_s
    # the terms as a move that changes nothing computes them, and their running sums
    kept_wins = np.empty(n_close)
    kept_press = np.empty(n_close)
    sums = np.empty((n_close, 3))  # wins, pressure, largest win
    live = np.uint64(0)  # the terms that are not zero (the pressure's only if it counts)
    acc_w, acc_p, top = 0.0, 0.0, 0.0
    for c in range(n_close):
        kept_wins[c] = gain[c] * (1.0 if power[c] > need[c] else 0.0)
        kept_press[c] = gain[c] * (min(power[c], need[c] + 1) / (need[c] + 1))
        acc_w += kept_wins[c]
        acc_p += kept_press[c]
        top = max(top, kept_wins[c])
        sums[c, 0], sums[c, 1], sums[c, 2] = acc_w, acc_p, top
        if kept_wins[c] != 0.0 or (press != 0.0 and kept_press[c] != 0.0):
            live |= ONE << np.uint64(c)
    case = np.full(count, -1, dtype=np.int64)
    keys, slots = case_table(count)
    n_cases, last, last_b, last_case = 0, -1, ZERO, -1
    for k in range(count):
        i = mover[k]
        to_b = within[k]
        if reached[i] == 0 and to_b == 0:
            continue
        if i == last and to_b == last_b:
            case[k] = last_case  # (the same as this piece's move before)
            continue
        s_i = o_s[i]
        v = case_of(keys, slots, to_b, reached[i], ZERO, np.uint64(s_i), n_cases)
        case[k], last, last_b, last_case = v, i, to_b, v
        if v < n_cases:
            continue
        n_cases += 1
        changed = to_b ^ reached[i]
        first = lowest_bit(changed, n_close)
        acc_w, acc_p, top = 0.0, 0.0, 0.0
        if first > 0:
            acc_w, acc_p, top = sums[first - 1, 0], sums[first - 1, 1], sums[first - 1, 2]
        todo = (live | changed) >> np.uint64(first) << np.uint64(first) if first < n_close else ZERO
        while todo:  # the terms that change or are not zero, in order
            c = int(np.int64(trailing_zeros(todo)))
            todo &= todo - ONE
            w, pr = kept_wins[c], kept_press[c]
            if (changed >> np.uint64(c)) & ONE:
                after = power[c] + (s_i if (to_b >> np.uint64(c)) & ONE else -s_i)
                w = gain[c] * (1.0 if after > need[c] else 0.0)
                pr = gain[c] * (min(after, need[c] + 1) / (need[c] + 1))
            if w != 0.0:  # (adding zero changes no sum)
                acc_w += w
                top = max(top, w)
            if pr != 0.0:
                acc_p += pr
        values[3 * v], values[3 * v + 1], values[3 * v + 2] = acc_w, acc_p, top
    return case


@kernel
def _threats_plain(
    tn: Turn,
    mover: IntArray,
    end: IntArray,
    fr: Front,
    wins0: float,
    press0: float,
    press: float,
    offence: FloatArray,
) -> None:
    """:func:`threats` the plain way (for more enemy pieces near the front than a mask holds,
    or a single move that changes any): every term of every move that changes some."""
    close, reach, reaching, power, need, gain = (
        fr.close,
        fr.reach,
        fr.reaching,
        fr.power,
        fr.need,
        fr.gain,
    )
    n_close, count = len(close), len(mover)
    e_pos, o_s, o_f = tn.e_pos, tn.o_s, tn.o_f
    w_threat, spread = tn.w[I_THREAT], tn.w[I_SPREAD]
    sel = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        i = mover[k]
        sel[k] = reaching[i]
        b0, b1, b2 = end[k, 0], end[k, 1], end[k, 2]
        for c in range(n_close):
            if sel[k]:
                break
            j = close[c]
            sel[k] = cheb(e_pos[j, 0], e_pos[j, 1], e_pos[j, 2], b0, b1, b2) <= o_f[i]
    single = sel.sum() == 1
    wins = np.empty(n_close)
    pressed = np.empty(n_close)
    for k in range(count):
        if not sel[k]:
            continue
        i = mover[k]
        s_i, f_i = o_s[i], o_f[i]
        b0, b1, b2 = end[k, 0], end[k, 1], end[k, 2]
        for c in range(n_close):
            j = close[c]
            to_b = cheb(e_pos[j, 0], e_pos[j, 1], e_pos[j, 2], b0, b1, b2) <= f_i
            after = power[c] + s_i * ((1 if to_b else 0) - (1 if reach[c, i] else 0))
            wins[c] = gain[c] * (1.0 if after > need[c] else 0.0)
            pressed[c] = gain[c] * (min(after, need[c] + 1) / (need[c] + 1))
        offence[k] += w_threat * (column_spread_total(wins, n_close, single, spread) - wins0)
        offence[k] += press * (column_sum(pressed, n_close, single) - press0)
