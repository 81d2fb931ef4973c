"""The planner's decision (R4, R5, R8): its candidate orders, each scored by the change it
makes to the position value (:mod:`~antipolix.agents.planner.exposure`,
:mod:`~antipolix.agents.planner.guard`, :mod:`~antipolix.agents.planner.threats`,
:mod:`~antipolix.agents.planner.hunting`, :mod:`~antipolix.agents.planner.tactics`), the best
attack or move played; and its draw offers (R9)."""

from __future__ import annotations

import numpy as np

from antipolix.agents.memory import LAST_FIGHT, NUL_STANDS, Choice, Memory
from antipolix.agents.planner.exposure import exposure
from antipolix.agents.planner.guard import chief_guard
from antipolix.agents.planner.hunting import hunt
from antipolix.agents.planner.reading import Turn, opening, read_turn
from antipolix.agents.planner.sums import spread_total
from antipolix.agents.planner.tactics import tactics
from antipolix.agents.planner.threats import threats
from antipolix.agents.planner.values import piece_risk
from antipolix.agents.planner.weights import (
    FRONT,
    I_ADVANCE,
    I_CHIEF_FAR,
    I_COHESION,
    I_CRUSH,
    I_FORTRESS,
    I_GUARD,
    I_HIDDEN_PROBE,
    I_HUNT,
    I_NETWORK,
    I_P_NEAR,
    I_PRESS,
    I_SPREAD,
    I_THREAT,
    NUL_AFTER,
    BoolArray,
    FloatArray,
)
from antipolix.agents.sight import Sight, power, target_matrix
from antipolix.jit import Held, inlined, kernel
from antipolix.journal import NUL, WAR
from antipolix.observation import Seen
from antipolix.reach import cheb, reach_cells_k
from antipolix.rules import Tables
from antipolix.turn import ATTACK, MOVE, PASS
from antipolix.world import IntArray


@kernel
def best_attack(tn: Turn, s: Sight) -> tuple[float, int, IntArray]:
    """Every target that the own pieces reaching it outpower (R4, R8), attacked by all of them
    (attackers never move): its expected gain plus the exposure it relieves. Returns the score,
    the target's flat cell and the attackers' rows (none: no attack scores above 0)."""
    k_own, mobile = len(tn.o_s), s.mobile
    relieved = np.empty(k_own)
    best, best_flat, best_rows = 0.0, 0, np.empty(0, dtype=np.int64)
    # without teleporters the pieces that reach a cell are those whose field covers it: the
    # power grid says which targets can be won at all
    teleports = False
    for q in range(len(mobile)):
        teleports = teleports or s.near[q]
    hit = target_matrix(s) if teleports else np.empty((0, 0), dtype=np.bool_)
    rows = np.empty(len(mobile), dtype=np.int64)
    cells, fields = s.seen.cells, s.fields
    for j in range(len(s.enemy)):
        if not teleports and tn.power[tn.e_flat[j]] <= tn.e_def[j]:
            continue
        ez, ey, ex = tn.e_pos[j, 0], tn.e_pos[j, 1], tn.e_pos[j, 2]
        n_att, attack = 0, 0
        for q in range(len(mobile)):
            row = mobile[q]
            if teleports:
                reached = hit[q, j]
            else:
                d = cheb(cells[row, 0], cells[row, 1], cells[row, 2], ez, ey, ex)
                reached = 1 <= d <= fields[row]
            if reached:
                rows[n_att] = row
                n_att += 1
                attack += s.strengths[row]
        margin = attack - tn.e_def[j]
        if not n_att or margin <= 0:
            continue
        for q in range(k_own):
            near = cheb(tn.o_pos[q, 0], tn.o_pos[q, 1], tn.o_pos[q, 2], ez, ey, ex) <= tn.e_f[j]
            threat = max(tn.t_own[q] - (tn.e_s[j] if near else 0), 0)
            relieved[q] = piece_risk(threat, tn.x_own[q], tn.d_own[q], tn.loss[q], tn.w[I_P_NEAR])
        score = tn.gain[j] + tn.base_risk - spread_total(relieved, k_own, tn.w[I_SPREAD])
        if margin <= tn.unit and not tn.e_hidden[j]:
            score *= 1.0 - tn.w[I_HIDDEN_PROBE]
        score += 0.02 * min(margin / tn.unit, 2.5)  # wider wins first
        if score > best:
            best, best_flat, best_rows = score, tn.e_flat[j], rows[:n_att].copy()
    return best, best_flat, best_rows


@kernel
def candidates(tn: Turn, s: Sight) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Every move of every own mobile piece to a free cell it reaches (R4, R5), as (index in
    ``Sight.mobile``, flat destination, its cell ``(k, 3)``, its distance to the nearest
    visible enemy, R1): first the pieces next to no teleporter, by move field and row, then
    the others, each piece's cells in increasing order. Far from every enemy, only the moves
    closing in (or guarding the chief, or fleeing an unseen attacker) are kept."""
    mobile, near, fields = s.mobile, s.near, s.fields
    cap, top = 0, 0
    for q in range(len(mobile)):
        f = fields[mobile[q]]
        cap += (2 * f + 1) ** 3 * (1 + (len(s.tcells) if near[q] else 0))
        top = max(top, f)
    who = np.empty(cap, dtype=np.int64)
    dest = np.empty(cap, dtype=np.int64)
    end = np.empty((cap, 3), dtype=np.int64)
    gap = np.empty(cap, dtype=np.int64)
    own_of = s.mobile_own
    # a move is dropped when it ends far from every enemy without closing in, unless its piece
    # is threatened, or is the chief, or it starts or ends next to the chief
    ring, t_own, o_flat, ci = tn.ring, tn.t_own, tn.o_flat, tn.ci
    may_drop = np.empty(len(mobile), dtype=np.bool_)
    for q in range(len(mobile)):
        i = own_of[q]
        may_drop[q] = t_own[i] == 0 and i != ci and not ring[o_flat[i]]
    k = 0
    for f in range(1, top + 1):  # the pieces next to no teleporter, by move field
        k = _box_moves(tn, s, f, own_of, may_drop, who, dest, end, gap, k)
    cells = np.empty(cap, dtype=np.int64)
    for q in range(len(mobile)):
        if near[q]:
            k = _teleport_moves(tn, s, q, own_of[q], may_drop[q], cells, who, dest, end, gap, k)
    return who[:k], dest[:k], end[:k], gap[:k]


@kernel
def _box_moves(
    tn: Turn,
    s: Sight,
    f: int,
    own_of: IntArray,
    may_drop: BoolArray,
    who: IntArray,
    dest: IntArray,
    end: IntArray,
    gap: IntArray,
    k: int,
) -> int:
    """The moves of the mobile pieces next to no teleporter with move field ``f``, by row:
    every free cell of each one's cube, in order, written from ``k`` on; returns the next
    ``k`` (see :func:`candidates`)."""
    dims = tn.dims
    p, n, m = dims[0], dims[1], dims[2]
    occupied, dist, ring, horizon, o_dist = s.occupied, tn.dist, tn.ring, tn.horizon, tn.o_dist
    mobile, near, fields, cells = s.mobile, s.near, s.fields, s.seen.cells
    for q in range(len(mobile)):
        if near[q] or fields[mobile[q]] != f:
            continue
        cz, cy, cx = cells[mobile[q], 0], cells[mobile[q], 1], cells[mobile[q], 2]
        now, drop = o_dist[own_of[q]], may_drop[q]
        for z in range(max(cz - f, 0), min(cz + f + 1, p)):
            for y in range(max(cy - f, 0), min(cy + f + 1, n)):
                base = (z * n + y) * m
                for x in range(max(cx - f, 0), min(cx + f + 1, m)):
                    flat = base + x
                    if occupied[flat]:  # its own cell among them
                        continue
                    d = dist[flat]
                    if drop and d > horizon and d >= now and not ring[flat]:
                        continue
                    who[k], dest[k], gap[k] = q, flat, d
                    end[k, 0], end[k, 1], end[k, 2] = z, y, x
                    k += 1
    return k


@kernel
def _teleport_moves(
    tn: Turn,
    s: Sight,
    q: int,
    i: int,
    drop: bool,
    cells: IntArray,
    who: IntArray,
    dest: IntArray,
    end: IntArray,
    gap: IntArray,
    k: int,
) -> int:
    """The moves of mobile piece ``q`` (own index ``i``) next to a teleporter: every free
    cell it reaches (R5), in order, written from ``k`` on; returns the next ``k``."""
    dims = tn.dims
    p, n, m = dims[0], dims[1], dims[2]
    occupied, dist, ring, horizon = s.occupied, tn.dist, tn.ring, tn.horizon
    c = s.seen.cells[s.mobile[q]]
    found = reach_cells_k(
        p, n, m, c[0], c[1], c[2], s.fields[s.mobile[q]], s.tcells, s.tlabels, s.scratch, cells
    )
    now = tn.o_dist[i]
    for u in range(found):
        flat = cells[u]
        if occupied[flat]:
            continue
        d = dist[flat]
        if drop and d > horizon and d >= now and not ring[flat]:
            continue
        who[k], dest[k], gap[k] = q, flat, d
        zy, end[k, 2] = divmod(flat, m)
        end[k, 0], end[k, 1] = divmod(zy, n)
        k += 1
    return k


@kernel
def best_move(t: Tables, tn: Turn, s: Sight, rng: np.random.Generator) -> tuple[float, int, int]:
    """Every candidate move (:func:`candidates`), scored all at once: a move changes the
    defence around its start and end cells only (R8). Returns the best score, the mover's row
    and its destination (row -1: no candidate, and no draw from ``rng``)."""
    score, rows, dest = move_scores(t, tn, s, rng)
    if not len(dest):
        return 0.0, -1, 0
    best = 0
    for k in range(len(dest)):
        if score[k] > score[best]:
            best = k
    return score[best], rows[best], dest[best]


@inlined
def terms_computed(w: FloatArray) -> tuple[bool, bool, bool, bool]:
    """Which of the optional terms a decision with weights ``w`` computes: the chief's guard,
    the threats, the hunt, the tactics. A term whose weights are all 0 would add only zeros:
    it is skipped."""
    return (
        w[I_GUARD] != 0 or w[I_CHIEF_FAR] != 0,
        w[I_THREAT] != 0 or w[I_PRESS] != 0,
        w[I_HUNT] != 0,
        w[I_NETWORK] != 0 or w[I_FORTRESS] != 0 or w[I_CRUSH] != 0,
    )


@kernel
def move_scores(
    t: Tables, tn: Turn, s: Sight, rng: np.random.Generator
) -> tuple[FloatArray, IntArray, IntArray]:
    """Every candidate move's score (ties broken by a draw from ``rng`` for each, none if
    there is no candidate), its mover's row and its destination."""
    who, dest, end, gap = candidates(tn, s)
    count = len(dest)
    if not count:
        return np.zeros(0), dest, dest
    mover = s.mobile_own[who]  # own index of each move's piece
    score, adj_ab, d_mover = exposure(tn, mover, dest, end)
    w = tn.w
    guards, threatens, hunts, tactical = terms_computed(w)
    if tn.ci >= 0 and guards:
        chief_guard(tn, mover, dest, end, gap, d_mover, score)
    offence = threats(tn, mover, dest, end) if threatens else np.zeros(count)
    if hunts:
        hunt(tn, s, mover, dest, end, offence)
    ci, o_dist, o_s, defence, d_own = tn.ci, tn.o_dist, tn.o_s, tn.defence, tn.d_own
    w_advance, w_cohesion = w[I_ADVANCE], w[I_COHESION]
    for k in range(count):
        i = mover[k]
        if i == ci:
            continue
        score[k] += offence[k]
        d_b = gap[k]
        score[k] += w_advance * (o_dist[i] - d_b)
        if d_b <= FRONT:  # cohesion: the own strength around the moved piece (R8)
            s_i = o_s[i]
            support = (defence[dest[k]] - s_i * adj_ab[k]) - (d_own[i] - s_i)
            score[k] += w_cohesion * support
    if tactical:
        tactics(t, tn, s, mover, dest, end, gap, score)
    for k in range(count):  # ties, from the agent's generator (R12)
        score[k] += rng.random() * 1e-6
    return score, s.mobile[who], dest


@kernel
def draw_offer(memory: Memory, turn: int, dead: bool) -> int:
    """R9: offer a draw (NUL) when no piece has been taken for ``NUL_AFTER`` turns, or when the
    position is ``dead`` (all its pieces together cannot outpower the defence of any enemy
    piece it sees, R8); withdraw it (WAR) when that changes. -1: no command."""
    want = dead or turn - memory.counters[LAST_FIGHT] >= NUL_AFTER
    if want == (memory.counters[NUL_STANDS] == 1):
        return -1
    memory.counters[NUL_STANDS] = 1 if want else 0
    return NUL if want else WAR


@kernel
def planner_act(
    t: Tables,
    seen: Seen,
    memory: Memory,
    min_think: float,
    max_think: float,
    w: FloatArray,
    rng: np.random.Generator,
) -> Choice:
    """:class:`PlannerAgent`'s decision with weights ``w`` (:data:`WEIGHTS`): the best winning
    attack or the best move if it scores higher, else Pass; its think time (drawn first) and
    its draw offer (R9)."""
    think, s, unit = opening(t, seen, memory, min_think, max_think, rng)
    kind, piece, cell, pieces = PASS, 0, 0, np.empty(0, dtype=np.int64)
    dead = False
    if len(s.enemy) and len(s.mobile):
        tn = read_turn(t, s, memory, unit, w)
        kind, piece, cell, pieces = chosen(t, tn, s, rng)
        dead = hopeless(tn, s)
    elif len(s.enemy):
        dead = True  # nothing left that can attack (fortresses only, R2)
    command = draw_offer(memory, seen.turn, dead)
    return kind, piece, cell, pieces, think, command


@kernel
def chosen(
    t: Tables, tn: Turn, s: Sight, rng: np.random.Generator
) -> tuple[int, int, int, IntArray]:
    """The order read from the turn ``tn``: the best winning attack, or the best move if it
    scores higher, else Pass (kind, piece id, flat cell, the attackers' ids)."""
    none = np.empty(0, dtype=np.int64)
    kind, piece, cell, pieces = PASS, 0, 0, none
    score, flat, rows = best_attack(tn, s)
    if len(rows):
        kind, cell, pieces = ATTACK, flat, s.seen.ids[rows]
    move_score, row, to = best_move(t, tn, s, rng)
    if row >= 0 and move_score > score:
        kind, piece, cell, pieces = MOVE, s.seen.ids[row], to, none
    return kind, piece, cell, pieces


@kernel
def planner_act_held(
    t: Tables,
    seen: Seen,
    memory: Memory,
    min_think: float,
    max_think: float,
    w: FloatArray,
    holder: Held,
) -> Choice:
    """:func:`planner_act` called from Python, its generator held (:func:`antipolix.jit.held`)."""
    return planner_act(t, seen, memory, min_think, max_think, w, holder.rng)


@kernel
def hopeless(tn: Turn, s: Sight) -> bool:
    """Can all the own mobile pieces together not outpower the defence of any enemy piece in
    sight (R8)? Then the position is dead (a draw offer, R9)."""
    weakest = tn.e_def[0]
    for j in range(len(tn.e_def)):
        weakest = min(weakest, tn.e_def[j])
    return bool(power(s, s.mobile) <= weakest)
