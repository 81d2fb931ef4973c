"""Reading the sight: a turn's start for the planner family (think time, the observation read,
the memory updated) and the turn's grids and values every term of the decision reads
(:class:`Turn`, :func:`read_turn`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from antipolix.agents.memory import LAST_FIGHT, N_HIDDEN, Memory
from antipolix.agents.planner.board import box_of, distances, stamp, zero_box
from antipolix.agents.planner.sums import pairwise, spread_total
from antipolix.agents.planner.values import piece_risk, unit_of
from antipolix.agents.planner.weights import (
    CHIEF_UNSEEN,
    FRONT,
    I_CRUSH,
    I_MOVED_SUSPECT,
    I_P_NEAR,
    I_SPREAD,
    I_TELEPORTED,
    I_WIN,
    MEMORY,
    BoolArray,
    FloatArray,
)
from antipolix.agents.scripted import note_moves
from antipolix.agents.sight import Sight, sight_k, visible_defence
from antipolix.jit import inlined, kernel, record
from antipolix.observation import (
    C_ATTACK,
    C_CELL,
    C_DEFENCE,
    C_PLAYER,
    C_TARGET,
    C_TARGET_OWNER,
    Seen,
)
from antipolix.pieces import CHIEF, FORTRESS, INVISIBLE
from antipolix.reach import cheb
from antipolix.rules import Tables
from antipolix.world import IntArray


class Turn(NamedTuple):
    """One turn's reading of the observation, as arrays and board grids (R5, R6, R8).

    Own pieces (``o_``) are indexed in ``Sight.own`` order, visible enemy pieces (``e_``) in
    ``Sight.enemy`` order: flat cells, cells ``(k, 3)``, strengths (R2), move fields (R2, R5).
    Grids are flat over the board: ``defence`` (R8: the strength of the pieces that count,
    within radius 1 of each cell), ``power`` (own attack power on each cell), per enemy owner
    in sight its power on each cell now and after one more move of its (``now``, ``later``,
    R4, R5, each within its row of ``boxes``: :func:`threat_at` reads from them, the
    ``strongest`` enemy piece and the invisible attackers remembered, ``hidden``, the enemy's
    threat on a cell and what one more move adds), ``dist`` (R1 distance to the nearest
    visible enemy, within ``lo..hi`` only), ``ring`` (the chief's cell and its neighbours).
    Per own piece its ``d_own``, ``t_own`` and ``x_own`` (:func:`threat_at` there),
    ``loss`` and ``o_dist`` (``dist`` there); per enemy piece its ``e_def`` (hidden defenders
    its failed attacks showed, ``e_hidden``, included), ``gain`` and ``chief_gain``.
    """

    dims: IntArray
    lo: IntArray  # (3,) the box where moves may end (threat, extra and dist hold there only)
    hi: IntArray
    o_flat: IntArray
    o_pos: IntArray
    o_s: IntArray
    o_f: IntArray
    e_flat: IntArray
    e_pos: IntArray
    e_s: IntArray
    e_f: IntArray
    e_owner: IntArray
    defence: IntArray
    power: IntArray
    now: IntArray  # (owners, cells) per enemy owner with pieces in sight, in ``boxes``
    later: IntArray
    boxes: IntArray  # (owners, 6) lo z, y, x, hi z, y, x: where ``now`` and ``later`` hold
    strongest: int
    hidden: IntArray  # (h, 4) invisible attackers remembered: z, y, x, power (R6)
    dist: IntArray
    ring: BoolArray
    d_own: IntArray
    t_own: IntArray
    x_own: IntArray
    loss: FloatArray
    o_dist: IntArray
    ci: int  # the chief's index among own pieces, or -1
    e_def: IntArray
    e_hidden: IntArray
    gain: FloatArray
    chief_gain: FloatArray
    base_risk: float
    horizon: int
    unit: int
    take_chief: float
    defence_all: bool
    turn: int
    w: FloatArray  # the weights (:data:`WEIGHTS`)
    suspect: FloatArray  # per cell, the chance an unseen enemy stands there (R6; crush not 0)


# a compiled record in kernels (passed by one pointer: a call does not count references to
# each of its arrays)
make_turn = record(Turn)


@kernel
def read_turn(t: Tables, s: Sight, memory: Memory, unit: int, w: FloatArray) -> Turn:
    """The turn's grids and values (see :class:`Turn`)."""
    seen = s.seen
    dims = t.shape
    own, enemy = s.own, s.enemy
    k_own, k_en = len(own), len(enemy)
    o_flat, o_pos, o_s, o_f = s.flat[own], seen.cells[own], s.strengths[own], s.fields[own]
    e_flat, e_pos, e_s, e_f = s.flat[enemy], seen.cells[enemy], s.strengths[enemy], s.fields[enemy]
    e_owner = seen.owners[enemy].astype(np.int64)
    first, grouped = by_owner(e_owner, t.players)
    lo, hi, reach = move_box(s, o_pos, o_f)
    defence, power = own_grids(t, s, o_pos, o_s, o_f)
    now, later, boxes, strongest = enemy_reach(t, lo, hi, e_pos, e_s, e_f, first, grouped)
    hidden = hidden_attackers(t, memory)
    e_hidden, e_def = enemy_defence(t, s, memory, defence, first, grouped)
    loss, ci, gain, chief_gain, take_chief = values(t, s, memory, w, first, grouped)
    d_own = defence[o_flat]
    t_own = np.empty(k_own, dtype=np.int64)
    x_own = np.empty(k_own, dtype=np.int64)
    for q in range(k_own):
        z, y, x = o_pos[q, 0], o_pos[q, 1], o_pos[q, 2]
        t_own[q], x_own[q] = threat_at(now, later, boxes, strongest, hidden, z, y, x, o_flat[q])
    if ci >= 0:
        x_own[ci] += CHIEF_UNSEEN * unit
    base_risk = _base_risk(t_own, x_own, d_own, loss, w)
    # geometry: distances to the enemy, how far moves matter, the chief's ring
    dist = distances(dims, e_pos, lo, hi)
    o_dist = dist[o_flat]
    e_move = 0
    for j in range(k_en):
        e_move = max(e_move, e_f[j])
    # beyond this distance from every enemy a cell is out of every enemy's reach within a move,
    # and of every own attack or hunt next turn (R5): only the advance counts there
    horizon = max(FRONT, 2 * e_move, e_move + reach)
    ring = chief_ring(dims, o_pos, ci)
    return make_turn(
        dims, lo, hi, o_flat, o_pos, o_s, o_f, e_flat, e_pos, e_s, e_f, e_owner, defence, power,
        now, later, boxes, strongest, hidden, dist, ring, d_own, t_own, x_own, loss, o_dist, ci,
        e_def, e_hidden, gain, chief_gain, base_risk, horizon, unit, take_chief, t.defence_all,
        seen.turn, w,
        unseen_odds(s, memory, e_pos, e_hidden, w[I_CRUSH] != 0),
    )  # fmt: skip


@kernel
def reweighed(t: Tables, s: Sight, memory: Memory, tn: Turn, w: FloatArray) -> Turn:
    """``tn`` (:func:`read_turn` of ``s`` and ``memory``) read with the weights ``w`` instead:
    the search agent's styles on one sight. The maps are ``tn``'s own arrays (no term of the
    decision writes to them); what the weights change (the pieces' values, the base risk, the
    chances of unseen pieces when crushing starts or stops counting) is computed as
    :func:`read_turn` computes it, so the turn is the one ``read_turn(.., w)`` would read."""
    first, grouped = by_owner(tn.e_owner, t.players)
    loss, ci, gain, chief_gain, take_chief = values(t, s, memory, w, first, grouped)
    base_risk = _base_risk(tn.t_own, tn.x_own, tn.d_own, loss, w)
    suspect = tn.suspect
    if (w[I_CRUSH] != 0) != (tn.w[I_CRUSH] != 0):
        suspect = unseen_odds(s, memory, tn.e_pos, tn.e_hidden, w[I_CRUSH] != 0)
    return make_turn(
        tn.dims, tn.lo, tn.hi, tn.o_flat, tn.o_pos, tn.o_s, tn.o_f, tn.e_flat, tn.e_pos, tn.e_s,
        tn.e_f, tn.e_owner, tn.defence, tn.power, tn.now, tn.later, tn.boxes, tn.strongest,
        tn.hidden, tn.dist, tn.ring, tn.d_own, tn.t_own, tn.x_own, loss, tn.o_dist, ci, tn.e_def,
        tn.e_hidden, gain, chief_gain, base_risk, tn.horizon, tn.unit, take_chief,
        tn.defence_all, tn.turn, w, suspect,
    )  # fmt: skip


@kernel
def _base_risk(
    t_own: IntArray, x_own: IntArray, d_own: IntArray, loss: FloatArray, w: FloatArray
) -> float:
    """The own pieces' risk where they stand (:func:`piece_risk`, spread: :func:`spread_total`)."""
    k_own = len(loss)
    risks = np.empty(k_own)
    for q in range(k_own):
        risks[q] = piece_risk(t_own[q], x_own[q], d_own[q], loss[q], w[I_P_NEAR])
    return spread_total(risks, k_own, w[I_SPREAD])


@kernel
def by_owner(e_owner: IntArray, players: int) -> tuple[IntArray, IntArray]:
    """The visible enemy pieces by owner, each group in observation order: ``grouped[first[o]:
    first[o + 1]]`` are owner ``o``'s indices."""
    k_en = len(e_owner)
    first = np.zeros(players + 1, dtype=np.int64)
    for j in range(k_en):
        first[e_owner[j] + 1] += 1
    for o in range(players):
        first[o + 1] += first[o]
    grouped = np.empty(k_en, dtype=np.int64)
    filled = first[:-1].copy()
    for j in range(k_en):
        grouped[filled[e_owner[j]]] = j
        filled[e_owner[j]] += 1
    return first, grouped


@kernel
def move_box(s: Sight, o_pos: IntArray, o_f: IntArray) -> tuple[IntArray, IntArray, int]:
    """Where moves may end: the box ``lo..hi`` around own pieces and their reach (teleporters
    included, R5), and the longest own move field. The enemy's reach (threat, extra) and its
    distance are only looked up there."""
    dims = s.dims
    lo = np.empty(3, dtype=np.int64)
    hi = np.empty(3, dtype=np.int64)
    reach = 0
    for q in range(len(o_f)):
        reach = max(reach, o_f[q])
    for a in range(3):
        lo[a], hi[a] = dims[a] - 1, 0
        for q in range(len(o_f)):
            lo[a] = min(lo[a], o_pos[q, a] - o_f[q])
            hi[a] = max(hi[a], o_pos[q, a] + o_f[q])
        for u in range(len(s.tcells)):
            lo[a] = min(lo[a], s.tcells[u, a] - reach)
            hi[a] = max(hi[a], s.tcells[u, a] + reach)
        lo[a], hi[a] = max(lo[a], 0), min(hi[a], dims[a] - 1)
    return lo, hi, reach


@kernel
def own_grids(
    t: Tables, s: Sight, o_pos: IntArray, o_s: IntArray, o_f: IntArray
) -> tuple[IntArray, IntArray]:
    """The board grids of own strength: ``defence`` (R8: the strength of the pieces that count
    within radius 1 of each cell: own pieces, or every piece seen with ``defence_counts``
    all) and ``power`` (own attack power on each cell, R5 by move fields)."""
    seen, dims = s.seen, s.dims
    size = dims[0] * dims[1] * dims[2]
    n, m = dims[1], dims[2]
    board = (0, 0, 0, dims[0] - 1, n - 1, m - 1)
    defence = np.zeros(size, dtype=np.int64)
    if t.defence_all:
        cells, strengths = seen.cells, s.strengths
        for r in range(len(seen.ids)):
            stamp(defence, n, m, board, cells[r, 0], cells[r, 1], cells[r, 2], 1, strengths[r])
    else:
        for q in range(len(o_s)):
            stamp(defence, n, m, board, o_pos[q, 0], o_pos[q, 1], o_pos[q, 2], 1, o_s[q])
    power = np.zeros(size, dtype=np.int64)
    for q in range(len(o_s)):
        if o_f[q] > 0:
            z, y, x = o_pos[q, 0], o_pos[q, 1], o_pos[q, 2]
            stamp(power, n, m, board, z, y, x, o_f[q], o_s[q])
    return defence, power


@kernel
def enemy_reach(
    t: Tables,
    lo: IntArray,
    hi: IntArray,
    e_pos: IntArray,
    e_s: IntArray,
    e_f: IntArray,
    first: IntArray,
    grouped: IntArray,
) -> tuple[IntArray, IntArray, IntArray, int]:
    """Per enemy owner in sight: its power on each cell now and after one more move of its
    (R4, R5), within its box (the cells of ``lo..hi`` that one of its pieces reaches within
    two moves; the rest of its rows is never read), and the strongest enemy piece's strength
    (see :func:`threat_at`)."""
    dims = t.shape
    n, m = dims[1], dims[2]
    n_owners = 0
    for o in range(t.players):
        n_owners += first[o + 1] > first[o]
    size = dims[0] * n * m
    now = np.empty((n_owners, size), dtype=np.int64)
    later = np.empty((n_owners, size), dtype=np.int64)
    boxes = np.empty((n_owners, 6), dtype=np.int64)
    strongest, g = 0, 0
    for o in range(t.players):
        if first[o + 1] == first[o]:
            continue
        for a in range(3):  # its box
            boxes[g, a], boxes[g, 3 + a] = hi[a], lo[a]
        for u in range(first[o], first[o + 1]):
            j = grouped[u]
            if e_f[j] > 0:
                for a in range(3):
                    boxes[g, a] = min(boxes[g, a], max(e_pos[j, a] - 2 * e_f[j], lo[a]))
                    boxes[g, 3 + a] = max(boxes[g, 3 + a], min(e_pos[j, a] + 2 * e_f[j], hi[a]))
        olo, ohi = boxes[g, :3], boxes[g, 3:]
        box = box_of(olo, ohi)
        now_o, later_o = now[g], later[g]
        zero_box(now_o, dims, olo, ohi)
        zero_box(later_o, dims, olo, ohi)
        for u in range(first[o], first[o + 1]):
            j = grouped[u]
            if e_f[j] > 0:
                z, y, x = e_pos[j, 0], e_pos[j, 1], e_pos[j, 2]
                stamp(now_o, n, m, box, z, y, x, e_f[j], e_s[j])
                stamp(later_o, n, m, box, z, y, x, 2 * e_f[j], e_s[j])
                strongest = max(strongest, e_s[j])
        g += 1
    return now, later, boxes, strongest


@kernel
def hidden_attackers(t: Tables, memory: Memory) -> IntArray:
    """The invisible attackers remembered (R6): per one, the cell it attacked (z, y, x) and
    the power it showed."""
    n, m = t.shape[1], t.shape[2]
    out = np.empty((memory.counters[N_HIDDEN], 4), dtype=np.int64)
    for h in range(len(out)):
        zy, out[h, 2] = divmod(memory.hidden[h, 1], m)
        out[h, 0], out[h, 1] = divmod(zy, n)
        out[h, 3] = memory.hidden[h, 2]
    return out


@inlined
def threat_at(
    now: IntArray,
    later: IntArray,
    boxes: IntArray,
    strongest: int,
    hidden: IntArray,
    z: int,
    y: int,
    x: int,
    flat: int,
) -> tuple[int, int]:
    """At cell ``(z, y, x)`` (``flat``, within the box where moves end): the strongest enemy
    owner's power now, with the invisible attackers remembered within two cells (R2's
    longest move field, R6), and what one more move of the owner strongest then adds (R4,
    R5), at most the strongest piece (:func:`enemy_reach`)."""
    threat, reach = 0, 0
    for g in range(len(boxes)):  # (by index: a row view would count references)
        if (
            boxes[g, 0] <= z <= boxes[g, 3]
            and boxes[g, 1] <= y <= boxes[g, 4]
            and boxes[g, 2] <= x <= boxes[g, 5]
        ):
            threat = max(threat, now[g, flat])
            reach = max(reach, later[g, flat])
    extra = min(max(reach - threat, 0), strongest)
    for h in range(len(hidden)):
        if cheb(hidden[h, 0], hidden[h, 1], hidden[h, 2], z, y, x) <= 2:
            threat += hidden[h, 3]
    return threat, extra


@kernel
def enemy_defence(
    t: Tables, s: Sight, memory: Memory, defence: IntArray, first: IntArray, grouped: IntArray
) -> tuple[IntArray, IntArray]:
    """Per visible enemy piece: the hidden defenders its failed attacks showed lately
    (``e_hidden``, R6) and its defence (``e_def``, R8: its owner's pieces within radius 1 as
    seen, or every piece's with ``defence_counts`` all, and the hidden ones)."""
    seen, enemy = s.seen, s.enemy
    k_en = len(enemy)
    e_hidden = np.zeros(k_en, dtype=np.int64)
    e_def = np.zeros(k_en, dtype=np.int64)
    for j in range(k_en):
        pid = seen.ids[enemy[j]]
        if seen.turn - memory.mark_turn[pid] < MEMORY:
            e_hidden[j] = memory.mark_value[pid]
        if t.defence_all:  # every piece counts (R8)
            e_def[j] = defence[s.flat[enemy[j]]]
    if not t.defence_all:  # its owner's pieces within radius 1 (R8)
        gz = np.empty(k_en, dtype=np.int64)  # coordinates in group order
        gy = np.empty(k_en, dtype=np.int64)
        gx = np.empty(k_en, dtype=np.int64)
        gs = np.empty(k_en, dtype=np.int64)
        cells, strengths = seen.cells, s.strengths
        for u in range(k_en):
            row = enemy[grouped[u]]
            gz[u], gy[u], gx[u], gs[u] = cells[row, 0], cells[row, 1], cells[row, 2], strengths[row]
        for o in range(t.players):
            for u in range(first[o], first[o + 1]):
                near = 0
                for v in range(first[o], first[o + 1]):
                    d = max(abs(gz[v] - gz[u]), abs(gy[v] - gy[u]), abs(gx[v] - gx[u]))
                    near += gs[v] if d <= 1 else 0
                e_def[grouped[u]] = near
    for j in range(k_en):
        e_def[j] += e_hidden[j]
    return e_hidden, e_def


@kernel
def values(
    t: Tables, s: Sight, memory: Memory, w: FloatArray, first: IntArray, grouped: IntArray
) -> tuple[FloatArray, int, FloatArray, FloatArray, float]:
    """What losing each own piece costs (``loss``; the chief's: the game), the chief's index
    among own pieces (or -1), what taking each visible enemy piece gains (``gain``), of which
    the chance it is its owner's chief times eliminating its owner (``chief_gain``: chief
    suspects are the pieces never seen to move, R8), and the share of a successful attack that
    takes a chief (R2, R8)."""
    seen, own, enemy = s.seen, s.own, s.enemy
    k_own, k_en = len(own), len(enemy)
    destroy, teleport, convert = t.outcomes[0], t.outcomes[1], t.outcomes[2]
    swing = destroy + teleport * w[I_TELEPORTED] + 2 * convert  # per point of a piece taken (R8)
    take_chief = destroy + convert  # a chief destroyed or converted eliminates (R8)
    lose_chief = w[I_WIN] * (destroy + convert) + w[I_WIN] * teleport * 0.25
    loss = np.empty(k_own)
    ci = -1
    for q in range(k_own):
        row = own[q]
        trait = seen.traits[row]
        loss[q] = float(t.cost[seen.types[row], trait]) * swing
        if trait == INVISIBLE:
            loss[q] = 0.0  # cannot be attacked (R6)
        if trait == CHIEF and ci < 0:
            ci = q
    if ci >= 0:
        loss[ci] = lose_chief
    weight = np.empty(k_en)  # chief suspects: never seen to move (R8), in group order
    for u in range(k_en):
        j = grouped[u]
        weight[u] = w[I_MOVED_SUSPECT] if memory.moved[seen.ids[enemy[j]]] else 1.0
        if seen.types[enemy[j]] == FORTRESS:
            weight[u] *= 0.3
    chief_gain = np.zeros(k_en)
    for o in range(t.players):
        total = pairwise(weight, first[o], first[o + 1] - first[o])
        for u in range(first[o], first[o + 1]):
            chief_gain[grouped[u]] = w[I_WIN] * take_chief * weight[u] / total
    gain = np.empty(k_en)
    for j in range(k_en):
        gain[j] = float(t.cost[seen.types[enemy[j]], 0]) * swing + chief_gain[j]
    return loss, ci, gain, chief_gain, take_chief


@kernel
def chief_ring(dims: IntArray, o_pos: IntArray, ci: int) -> BoolArray:
    """Per cell: the chief's cell or one of its neighbours (none without a chief)."""
    p, n, m = dims[0], dims[1], dims[2]
    ring = np.zeros(p * n * m, dtype=np.bool_)
    if ci >= 0:
        c = o_pos[ci]
        for z in range(max(c[0] - 1, 0), min(c[0] + 2, p)):
            for y in range(max(c[1] - 1, 0), min(c[1] + 2, n)):
                for x in range(max(c[2] - 1, 0), min(c[2] + 2, m)):
                    ring[(z * n + y) * m + x] = True
    return ring


@kernel
def unseen_odds(
    s: Sight, memory: Memory, e_pos: IntArray, e_hidden: IntArray, wanted: bool
) -> FloatArray:
    """Per cell, the chance that an unseen (invisible, R6) enemy piece stands there: the free
    cells around an own piece an unseen attacker hit lately (within two cells, the longest
    move field, R2) and around an enemy piece whose failed attack showed hidden defenders
    (within one cell, R8), each share of one piece. (One cell only when not ``wanted`` or
    nothing hints at an unseen piece: the chance is 0 everywhere.)"""
    marks = 0
    for j in range(len(e_hidden)):
        marks += e_hidden[j] > 0
    if not wanted or memory.counters[N_HIDDEN] + marks == 0:
        return np.zeros(1)
    dims = s.dims
    p, n, m = dims[0], dims[1], dims[2]
    out = np.zeros(p * n * m)
    hidden = memory.hidden
    turn = s.seen.turn
    for h in range(memory.counters[N_HIDDEN] + len(e_hidden)):
        if h < memory.counters[N_HIDDEN]:
            if turn - hidden[h, 0] >= MEMORY:
                continue
            zy, cx = divmod(hidden[h, 1], m)
            cz, cy = divmod(zy, n)
            r = 2
        else:
            j = h - memory.counters[N_HIDDEN]
            if e_hidden[j] <= 0:
                continue
            cz, cy, cx, r = e_pos[j, 0], e_pos[j, 1], e_pos[j, 2], 1
        free = 0
        for pass_ in range(2):
            for z in range(max(cz - r, 0), min(cz + r + 1, p)):
                for y in range(max(cy - r, 0), min(cy + r + 1, n)):
                    for x in range(max(cx - r, 0), min(cx + r + 1, m)):
                        flat = (z * n + y) * m + x
                        if s.occupied[flat]:
                            continue
                        if pass_ == 0:
                            free += 1
                        else:
                            out[flat] += 1.0 / free
            if free == 0:
                break
    return out


@kernel
def remember(s: Sight, t: Tables, memory: Memory, unit: int) -> None:
    """Memory (R6: only what the observation shows): enemy pieces seen to move (not chiefs),
    their types, the last fight, the defence its failed attacks showed, and where invisible
    pieces attacked it."""
    seen = s.seen
    note_moves(s, memory)
    ids, types, seen_type = seen.ids, seen.types, memory.seen_type
    for row in s.enemy:
        seen_type[ids[row]] = types[row]
    if seen.fought:  # a piece taken (R8) or crushed (R6)
        memory.counters[LAST_FIGHT] = seen.turn
    hidden = memory.hidden
    for c in range(len(seen.combats)):
        combat = seen.combats[c]
        if combat[C_PLAYER] == seen.player:
            target = combat[C_TARGET]
            row = np.searchsorted(seen.ids, target)
            failed = combat[C_ATTACK] <= combat[C_DEFENCE]
            if row < len(seen.ids) and seen.ids[row] == target and failed:
                # its defence counted unseen pieces
                shown = visible_defence(s, t, row)
                memory.mark_turn[target] = seen.turn
                memory.mark_value[target] = max(0, combat[C_DEFENCE] - shown)
        elif combat[C_TARGET_OWNER] == seen.player:
            # attackers left out of the event are invisible (R6): the rest of the power
            listed = 0
            for x in range(seen.combat_start[c], seen.combat_start[c + 1]):
                listed += _attacker_strength(t, memory, unit, seen.combat_pieces[x])
            n_hidden = memory.counters[N_HIDDEN]
            if combat[C_ATTACK] > listed and n_hidden < len(hidden):
                hidden[n_hidden, 0] = seen.turn
                hidden[n_hidden, 1] = combat[C_CELL]
                hidden[n_hidden, 2] = combat[C_ATTACK] - listed
                memory.counters[N_HIDDEN] = n_hidden + 1
    kept = 0
    for h in range(memory.counters[N_HIDDEN]):
        if seen.turn - hidden[h, 0] < MEMORY:
            hidden[kept] = hidden[h]
            kept += 1
    memory.counters[N_HIDDEN] = kept


@kernel
def _attacker_strength(t: Tables, memory: Memory, unit: int, pid: int) -> int:
    """R2 strength of an enemy piece named in an attack: its type's, as last seen; one unit if
    it was never seen."""
    kind = memory.seen_type[pid]
    return int(unit if kind < 0 else t.strength[kind])


@kernel
def opening(
    t: Tables,
    seen: Seen,
    memory: Memory,
    min_think: float,
    max_think: float,
    rng: np.random.Generator,
) -> tuple[float, Sight, int]:
    """A turn's start for the planner and the agents built on it: the think time (drawn
    first, R7), the reading of the observation and the unit strength, the memory updated."""
    think = rng.uniform(min_think, max_think)
    s = sight_k(t, seen)
    unit = unit_of(t)
    remember(s, t, memory, unit)
    return think, s, unit
