"""The threats term of a move's score (R8): the winning attacks open next turn (forks count)
and, late in a game, pressure: own power on the enemy pieces near the front short of beating
them.

Per move, the wins and the pressure on the enemy pieces near the front are summed over them in
numpy's order: pairwise if a single move changes any, else row by row. A move changes only the
terms of the pieces its mover reaches before or after it: bit masks (of the pieces each own
piece reaches, and of those within each move field of each cell) say which; the sums start from
the position's own running sums before the first one it changes and add only the terms that are
not zero. The moves of one piece that reach the same pieces score the same: each is summed once
(the moves of a piece are listed together, :func:`~antipolix.agents.planner.decision.candidates`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from antipolix.agents.planner.board import zero_box
from antipolix.agents.planner.reading import Turn
from antipolix.agents.planner.sums import (
    BYTE,
    EIGHT,
    ONE,
    column_spread_total,
    column_sum,
    lowest_bit,
    pairwise,
    spread_total,
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
from antipolix.jit import kernel
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


@kernel
def front(tn: Turn) -> Front:
    """The enemy pieces near the front and the own power on each (see :class:`Front`)."""
    k_own, k_en = len(tn.o_s), len(tn.e_s)
    close = np.empty(k_en, dtype=np.int64)
    n_close = 0
    for j in range(k_en):
        e0, e1, e2 = tn.e_pos[j, 0], tn.e_pos[j, 1], tn.e_pos[j, 2]
        for q in range(k_own):
            if cheb(e0, e1, e2, tn.o_pos[q, 0], tn.o_pos[q, 1], tn.o_pos[q, 2]) <= FRONT:
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
        e0, e1, e2 = tn.e_pos[j, 0], tn.e_pos[j, 1], tn.e_pos[j, 2]
        for q in range(k_own):
            if cheb(e0, e1, e2, tn.o_pos[q, 0], tn.o_pos[q, 1], tn.o_pos[q, 2]) <= tn.o_f[q]:
                reach[c, q] = True
                reaching[q] = True
                power[c] += tn.o_s[q]
        need[c] = tn.e_def[j]
        gain[c] = tn.gain[j]
    return Front(close, reach, reaching, power, need, gain)


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
    fields, within, reached = _front_masks(tn, mover, fr)
    n_sel = 0
    for k in range(count):
        i = mover[k]
        if reached[i] != 0 or within[fields[tn.o_f[i]], dest[k]] != 0:
            n_sel += 1
    if n_sel == 1:  # one column: numpy sums it pairwise
        _threats_plain(tn, mover, end, fr, wins0, press0, press, offence)
    else:
        _threats_masked(tn, mover, dest, fr, fields, within, reached, wins0, press0, press, offence)
    return offence


@kernel
def _front_masks(tn: Turn, mover: IntArray, fr: Front) -> tuple[IntArray, MaskArray, MaskArray]:
    """Bit masks of the enemy pieces near the front: per move field of the movers, its row of
    ``within`` (``fields``); per cell of the box where moves end, those within that field
    (``within``, a row per field); per own piece, those it reaches (``reached``)."""
    k_own, n_close = len(tn.o_s), len(fr.close)
    reached = np.zeros(k_own, dtype=np.uint64)
    for c in range(n_close):
        for q in range(k_own):
            if fr.reach[c, q]:
                reached[q] |= ONE << np.uint64(c)
    field = 0
    for k in range(len(mover)):
        field = max(field, tn.o_f[mover[k]])
    fields = np.zeros(field + 1, dtype=np.int64)  # move field → its row of masks
    n_fields = 0
    for k in range(len(mover)):
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
            e = tn.e_pos[fr.close[c]]
            bit = ONE << np.uint64(c)
            for z in range(max(e[0] - f, lo[0]), min(e[0] + f, hi[0]) + 1):
                for y in range(max(e[1] - f, lo[1]), min(e[1] + f, hi[1]) + 1):
                    base = (z * n + y) * m
                    for x in range(max(e[2] - f, lo[2]), min(e[2] + f, hi[2]) + 1):
                        row[base + x] |= bit
    return fields, within, reached


@kernel
def _threats_masked(
    tn: Turn,
    mover: IntArray,
    dest: IntArray,
    fr: Front,
    fields: IntArray,
    within: MaskArray,
    reached: MaskArray,
    wins0: float,
    press0: float,
    press: float,
    offence: FloatArray,
) -> None:
    """:func:`threats` of the moves that change some term, by masks, row by row: each move's
    sums from the running sums before the first term it changes, then the terms that are not
    zero in order; a move whose piece and mask were seen just before takes their value."""
    n_close, count = len(fr.close), len(mover)
    power, need, gain = fr.power, fr.need, fr.gain
    # the terms as a move that changes nothing computes them, and their running sums
    kept_wins = np.empty(n_close)
    kept_press = np.empty(n_close)
    sum_wins = np.empty(n_close)
    sum_press = np.empty(n_close)
    top_wins = np.empty(n_close)
    live = np.uint64(0)  # the terms that are not zero (the pressure's only if it counts)
    acc_w, acc_p, top = 0.0, 0.0, 0.0
    for c in range(n_close):
        kept_wins[c] = gain[c] * (1.0 if power[c] > need[c] else 0.0)
        kept_press[c] = gain[c] * (min(power[c], need[c] + 1) / (need[c] + 1))
        acc_w += kept_wins[c]
        acc_p += kept_press[c]
        top = max(top, kept_wins[c])
        sum_wins[c], sum_press[c], top_wins[c] = acc_w, acc_p, top
        if kept_wins[c] != 0.0 or (press != 0.0 and kept_press[c] != 0.0):
            live |= ONE << np.uint64(c)
    w_threat, spread = tn.w[I_THREAT], tn.w[I_SPREAD]
    seen = np.empty(count, dtype=np.uint64)  # the masks of the current piece's moves so far
    value = np.empty(count)
    last, n_seen = -1, 0
    for k in range(count):
        i = mover[k]
        to_b = within[fields[tn.o_f[i]], dest[k]]
        if reached[i] == 0 and to_b == 0:
            continue
        if i != last:
            last, n_seen = i, 0
        u = 0
        while u < n_seen and seen[u] != to_b:
            u += 1
        if u < n_seen:
            offence[k] = value[u]
            continue
        changed = to_b ^ reached[i]
        first = lowest_bit(changed, n_close)
        acc_w, acc_p, top = 0.0, 0.0, 0.0
        if first > 0:
            acc_w, acc_p, top = sum_wins[first - 1], sum_press[first - 1], top_wins[first - 1]
        s_i = tn.o_s[i]
        c = first
        todo = (live | changed) >> np.uint64(first) if first < n_close else np.uint64(0)
        while todo:
            if (todo & BYTE) == 0:
                todo >>= EIGHT
                c += 8
                continue
            if todo & ONE:
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
            todo >>= ONE
            c += 1
        out = w_threat * (top + spread * (acc_w - top) - wins0)
        if press != 0.0:
            out += press * (acc_p - press0)
        offence[k] = out
        seen[n_seen], value[n_seen] = to_b, out
        n_seen += 1


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
    close, reach, reaching, power, need, gain = fr
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
