"""The tactics' terms of a move's score (R5, R6, R8): teleporter networks, the chief beside
own fortresses, crushing unseen enemies; all 0 with the hand-set planner's weights."""

from __future__ import annotations

import numpy as np

from antipolix.agents.planner.reading import Turn
from antipolix.agents.planner.weights import I_CRUSH, I_FORTRESS, I_NETWORK, FloatArray
from antipolix.agents.sight import Sight, nearest
from antipolix.jit import kernel
from antipolix.pieces import FORTRESS, INVISIBLE, TELEPORTER
from antipolix.reach import cheb
from antipolix.rules import Tables
from antipolix.world import IntArray


@kernel
def tactics(
    t: Tables,
    tn: Turn,
    s: Sight,
    mover: IntArray,
    dest: IntArray,
    end: IntArray,
    gap: IntArray,
    score: FloatArray,
) -> None:
    """The tactics' terms, added to ``score`` (all 0 with the hand-set planner's weights):

    - **network** (R5): a teleporter's move that links it to another own teleporter (within
      the teleport field) or keeps it linked while closing in; another piece's move next to a
      teleporter whose network reaches near the enemy (it may strike through it next turn);
    - **fortress** (R8): the chief's move beside own fortresses, whose strength counts in its
      defence;
    - **crush** (R6): a move onto a cell where an unseen enemy piece may stand (it would be
      crushed), weighted by that chance and the price of the cheapest invisible piece."""
    w_net, w_fort, w_crush = tn.w[I_NETWORK], tn.w[I_FORTRESS], tn.w[I_CRUSH]
    if w_net != 0 and len(s.tcells):
        _network(t, tn, s, mover, end, gap, score)
    if w_fort != 0 and tn.ci >= 0:
        _fortress(tn, s, mover, end, score)
    if w_crush != 0 and len(tn.suspect) > 1:  # (one cell: no chance anywhere, R6)
        gain = 1 << 30  # the price of the cheapest invisible mobile piece
        for k in range(len(t.move)):
            if t.move[k] > 0:
                gain = min(gain, t.cost[k, INVISIBLE])
        for k in range(len(dest)):
            if mover[k] != tn.ci:
                score[k] += w_crush * tn.suspect[dest[k]] * gain


@kernel
def _network(
    t: Tables,
    tn: Turn,
    s: Sight,
    mover: IntArray,
    end: IntArray,
    gap: IntArray,
    score: FloatArray,
) -> None:
    """The network term of :func:`tactics` (R5)."""
    w_net, unit, field = tn.w[I_NETWORK], tn.unit, t.teleport_field
    seen, own, tcells = s.seen, s.own, s.tcells
    n_tele = len(tcells)
    # per teleporter: its network's closest approach to a visible enemy (R1)
    front = np.full(n_tele, 1 << 30, dtype=np.int64)
    if len(s.enemy):
        for u in range(n_tele):
            d = nearest(s.enemy_cells, tcells[u, 0], tcells[u, 1], tcells[u, 2])
            for v in range(n_tele):
                if s.tlabels[v] == s.tlabels[u] and v != u:
                    front[v] = min(front[v], d)
    for k in range(len(mover)):
        i = mover[k]
        a0, a1, a2 = tn.o_pos[i, 0], tn.o_pos[i, 1], tn.o_pos[i, 2]
        b0, b1, b2 = end[k, 0], end[k, 1], end[k, 2]
        if seen.traits[own[i]] == TELEPORTER:
            before, after = 0, 0
            for u in range(n_tele):
                c0, c1, c2 = tcells[u, 0], tcells[u, 1], tcells[u, 2]
                d_a = cheb(a0, a1, a2, c0, c1, c2)
                if d_a == 0:
                    continue  # itself
                before = 1 if d_a <= field else before
                after = 1 if cheb(b0, b1, b2, c0, c1, c2) <= field else after
            score[k] += w_net * unit * (after - before)
            if after and gap[k] < tn.o_dist[i]:
                score[k] += w_net * 0.25 * unit
        else:
            strike_b, strike_a = False, False
            for u in range(n_tele):
                if front[u] <= tn.o_f[i] + 1:
                    c0, c1, c2 = tcells[u, 0], tcells[u, 1], tcells[u, 2]
                    strike_b = strike_b or cheb(b0, b1, b2, c0, c1, c2) == 1
                    strike_a = strike_a or cheb(a0, a1, a2, c0, c1, c2) == 1
            if strike_b and not strike_a:
                score[k] += w_net * 0.5 * unit


@kernel
def _fortress(tn: Turn, s: Sight, mover: IntArray, end: IntArray, score: FloatArray) -> None:
    """The fortress term of :func:`tactics` (R8): the chief's moves only."""
    w_fort, ci, own = tn.w[I_FORTRESS], tn.ci, s.own
    forts = np.empty(len(own), dtype=np.int64)
    n_forts = 0
    for q in range(len(own)):
        if s.seen.types[own[q]] == FORTRESS:
            forts[n_forts] = q
            n_forts += 1
    if not n_forts:
        return
    a0, a1, a2 = tn.o_pos[ci, 0], tn.o_pos[ci, 1], tn.o_pos[ci, 2]
    for k in range(len(mover)):
        if mover[k] != ci:
            continue
        b0, b1, b2 = end[k, 0], end[k, 1], end[k, 2]
        near_b, near_a = 0, 0
        for u in range(n_forts):
            f = forts[u]
            c0, c1, c2 = tn.o_pos[f, 0], tn.o_pos[f, 1], tn.o_pos[f, 2]
            if cheb(b0, b1, b2, c0, c1, c2) <= 1:
                near_b += tn.o_s[f]
            if cheb(a0, a1, a2, c0, c1, c2) <= 1:
                near_a += tn.o_s[f]
        score[k] += w_fort * (near_b - near_a) / tn.unit
