"""A one-ply planner: every candidate order scored by its expected outcome (R4, R5, R6, R8).

:class:`PlannerAgent` looks one ply ahead. Each turn it lists its candidate orders: every attack
it can win (all own pieces that reach the target, R5), every move of every own mobile piece to a
free cell it reaches, and ``Pass``. It scores each by the change it makes to a position value,
taken in expectation over the R8 outcomes of a successful attack (destroy, teleport, convert):

- **material**: the expected swing of an attack, in piece costs (R2). A conversion counts twice
  (the enemy loses the piece and the planner gains it); a teleported piece counts as mostly lost
  to its owner. An enemy piece that may be the chief adds the value of eliminating its owner,
  weighted by the probability that it is the chief (R6 hides the trait: enemy pieces never seen
  to move are the suspects);
- **exposure**: for every own attackable piece, whether the visible enemy pieces of one owner
  that reach its cell outpower its defence (R8: its strength and its neighbours'), for sure, or
  after one more enemy move (R4) or an invisible attacker seen nearby (R6); the enemy's best
  attack counts in full, the others in part (one order a turn). Invisible own pieces cannot be
  attacked (R6) and count for defence. The chief's exposure costs the game;
- **chief guard**: enemy power that could reach the chief within a move, against the chief's
  defence, and the chief's distance from the enemy;
- **threats**: the attacks the planner could win next turn (forks count), and, late in a game,
  **pressure**: own power on enemy pieces near the front short of beating them;
- **hunt**: how well own pieces cover the cells the likeliest chief suspects may flee to (a
  lone chief is caught by covering its escapes, not by chasing it);
- **advance** and **cohesion**: distance of each piece from the nearest enemy, and the strength
  of own pieces around the moved piece (defence counts adjacent own pieces, R8).

The decision is one compiled kernel (:func:`planner_act`, numba): grids of defence, enemy
reach and own reach are built once per turn (cube sums, R1), and a move only changes the pieces
around its start and end cells. A player-turn (its decision and its resolution) takes about
50 µs on the default rules, 25 times less than the numpy planner it replaced
(``experiments/bench_games.py --agents planner``).

It decides from its own observation only (R6): enemy traits are hidden and enemy invisible
pieces are absent. It remembers, per game, which enemy pieces it has seen move (chief
suspects), the defence its failed attacks revealed (invisible defenders, R6), and the cells near
which invisible enemy pieces attacked it. It offers a draw (R9 NUL) when nothing has been taken
for a long time or it can no longer win a fight. All randomness (ties, think time) comes from
``self.rng`` (R12).

>>> from antipolix import Rules, play
>>> from antipolix.agents import GreedyAgent
>>> result = play(Rules(shape=(4, 8, 8), players=2), [PlannerAgent(), GreedyAgent()], seed=3)
>>> result.turns > 0
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from antipolix.agents.army import ArmyPolicy, FixedArmy
from antipolix.agents.base import Decision, decision_of, unit_strength
from antipolix.agents.memory import LAST_FIGHT, N_HIDDEN, NUL_STANDS, Choice, Memory
from antipolix.agents.scripted import Remembering, note_moves
from antipolix.agents.sight import Sight, nearest, power, reaches, sight_k, visible_defence
from antipolix.jit import kernel, packed
from antipolix.journal import NUL, WAR
from antipolix.observation import (
    C_ATTACK,
    C_CELL,
    C_DEFENCE,
    C_PLAYER,
    C_TARGET,
    C_TARGET_OWNER,
    Observation,
    Seen,
    seen_of,
)
from antipolix.pieces import CHIEF, FORTRESS, INVISIBLE, TELEPORTER
from antipolix.reach import cheb, reach_cells_k
from antipolix.rules import Rules, Tables
from antipolix.turn import ATTACK, MOVE, PASS
from antipolix.world import IntArray

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

# Values, in points of piece cost (R2).
WIN = 150.0  # eliminating a player (taking its chief), or losing one's own chief (R8)
TELEPORTED = 0.6  # share of a teleported piece's value its owner loses (it lands anywhere, R8)
# Exposure (R8): an own piece is lost for sure when the enemy power reaching it exceeds its
# defence, and with P_NEAR when one more enemy piece (one move, R4) or an invisible attacker
# seen nearby (R6) would tip it.
P_NEAR = 0.3
SPREAD = 0.5  # weight of every exposure or threat but the largest (one order a turn, R4)
W_THREAT = 0.35  # a winning attack available next turn, relative to making it now
# Pressure: own power on each enemy piece near the front, as a share of the power that beats
# it. Off at first (it slows the win against pieces that come to it), then growing from turn
# PRESS_FROM to W_PRESS at turn 2 * PRESS_FROM, to break stand-offs of two defensive fronts.
W_PRESS = 0.6
PRESS_FROM = 150
NUL_AFTER = 200  # turns without a piece taken after which it offers a draw (R9 NUL)
W_HUNT = 0.3  # covering the cells a suspected chief may flee to, relative to taking it
HUNT_K = 3  # chief suspects hunted at most (the likeliest)
HUNT_MIN = 0.12  # ... and only those at least this likely
# Strengths are never written here as numbers: they come from the rules (R2), in units of the
# strongest piece that can attack (its "unit"), so that re-balanced strengths re-scale them.
W_GUARD = 2.0  # per point of enemy power within two moves of the chief above its defence
GUARD_MARGIN = 1  # units of defence the chief keeps above the power that could reach it
# Defence kept around the chief even with no enemy in sight (invisible ones, R6): GUARD_SHARE
# of the own strength, at most GUARD_MIN units.
GUARD_MIN = 3
GUARD_SHARE = 0.1
CHIEF_UNSEEN = 1  # units of unseen invisible attack power the chief allows for near enemies (R6)
W_CHIEF_FAR = 0.5  # per cell of the chief's distance from the nearest enemy (up to CHIEF_FAR)
CHIEF_FAR = 6
W_ADVANCE = 0.12  # per cell a piece closes on the nearest enemy
W_COHESION = 0.03  # per point of own strength around the moved piece, near the front
FRONT = 4  # "near the front": within this distance of a visible enemy
MOVED_SUSPECT = 0.1  # chief-suspect weight of an enemy piece seen to move (1 if never seen to)
MEMORY = 12  # turns the hidden defence of a failed attack, or an invisible attacker, is kept
HIDDEN_PROBE = 0.1  # chance a narrow win (margin <= one unit) meets unseen invisible defenders


class Weight(NamedTuple):
    """One weight of the planner's position value: its default (the hand-set planner's), and
    the range a tuning study searches (:mod:`antipolix.tuning`)."""

    name: str
    default: float
    low: float
    high: float


# The weights the kernels read from a vector (``w``, in this order): the ones above, and the
# tactics' (teleporter networks R5, fortresses R8, hunting invisible pieces R6), which the
# hand-set planner leaves at 0. The integer settings (FRONT, HUNT_K, MEMORY, ...) stay fixed.
WEIGHTS: tuple[Weight, ...] = (
    Weight("win", WIN, 60.0, 400.0),
    Weight("teleported", TELEPORTED, 0.2, 1.0),
    Weight("p_near", P_NEAR, 0.0, 1.0),
    Weight("spread", SPREAD, 0.0, 1.0),
    Weight("threat", W_THREAT, 0.0, 1.0),
    Weight("press", W_PRESS, 0.0, 2.0),
    Weight("press_from", float(PRESS_FROM), 10.0, 400.0),
    Weight("hunt", W_HUNT, 0.0, 1.5),
    Weight("hunt_min", HUNT_MIN, 0.0, 0.5),
    Weight("guard", W_GUARD, 0.0, 6.0),
    Weight("guard_share", GUARD_SHARE, 0.0, 0.5),
    Weight("chief_far", W_CHIEF_FAR, 0.0, 2.0),
    Weight("advance", W_ADVANCE, 0.0, 0.6),
    Weight("cohesion", W_COHESION, 0.0, 0.3),
    Weight("moved_suspect", MOVED_SUSPECT, 0.0, 1.0),
    Weight("hidden_probe", HIDDEN_PROBE, 0.0, 0.6),
    Weight("network", 0.0, 0.0, 2.0),  # a teleporter's move that links or extends the network
    Weight("fortress", 0.0, 0.0, 2.0),  # the chief beside own fortresses (R8 defence)
    Weight("crush", 0.0, 0.0, 4.0),  # a move onto a cell where an unseen enemy showed itself
)
(
    I_WIN, I_TELEPORTED, I_P_NEAR, I_SPREAD, I_THREAT, I_PRESS, I_PRESS_FROM, I_HUNT,
    I_HUNT_MIN, I_GUARD, I_GUARD_SHARE, I_CHIEF_FAR, I_ADVANCE, I_COHESION, I_MOVED_SUSPECT,
    I_HIDDEN_PROBE, I_NETWORK, I_FORTRESS, I_CRUSH,
) = range(len(WEIGHTS))  # fmt: skip
DEFAULT_WEIGHTS = np.array([w.default for w in WEIGHTS], dtype=np.float64)
WEIGHT_NAMES = tuple(w.name for w in WEIGHTS)


# -- compiled decision ---------------------------------------------------------------------------
#
# The kernels below reproduce, operation for operation, the numpy planner they replace (kept as
# the oracle in tests/oracle/agents/planner.py): the same candidates in the same order, the same
# floating-point operations in the same order (numpy's pairwise summation for the sum of a 1-D
# array, row by row for a sum over the rows of a matrix), so that they make the same decisions.


@kernel
def _pairwise_leaf(a: FloatArray, lo: int, n: int) -> float:
    """numpy's ``pairwise_sum`` of ``a[lo:lo + n]`` for ``n <= 128``: in order below 8 elements,
    else eight accumulators."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    end = n - n % 8
    while i < end:
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return float(res)


@kernel
def _pairwise(a: FloatArray, lo: int, n: int) -> float:
    """numpy's ``pairwise_sum`` of ``a[lo:lo + n]``: above 128 elements, the sum of the two
    halves (the left one a multiple of 8 long), each summed the same way. (Without recursion,
    which numba's disk cache does not take: a stack of the halves still to sum.)"""
    if n <= 128:
        return _pairwise_leaf(a, lo, n)
    los = np.empty(64, dtype=np.int64)
    ns = np.empty(64, dtype=np.int64)
    split = np.zeros(64, dtype=np.bool_)
    sums = np.empty(64)
    los[0], ns[0] = lo, n
    top, done = 0, 0
    while top >= 0:
        if ns[top] <= 128:
            sums[done] = _pairwise_leaf(a, los[top], ns[top])
            done += 1
            top -= 1
        elif split[top]:  # both halves summed: left + right
            sums[done - 2] = sums[done - 2] + sums[done - 1]
            done -= 1
            top -= 1
        else:
            split[top] = True
            half = ns[top] // 2
            half -= half % 8
            los[top + 1], ns[top + 1], split[top + 1] = los[top] + half, ns[top] - half, False
            los[top + 2], ns[top + 2], split[top + 2] = los[top], half, False
            top += 2  # the left half on top: summed first
    return float(sums[0])


@kernel
def pairwise_sum(a: FloatArray) -> float:
    """``float(a.sum())`` of a 1-D float array, summed in numpy's order (:func:`_pairwise`).

    >>> x = np.random.default_rng(0).random(1000)
    >>> pairwise_sum(x) == float(x.sum())
    True
    """
    return float(_pairwise(a, 0, len(a)))


@kernel
def _column_sum(a: FloatArray, n: int, single: bool) -> float:
    """The sum of ``a[:n]``, one column of an ``(n, k)`` matrix summed over its rows by numpy:
    row by row, but pairwise when the matrix is a single column (``k == 1``)."""
    if single:
        return _pairwise(a, 0, n)
    res = 0.0
    for i in range(n):
        res += a[i]
    return res


@kernel
def _top(a: FloatArray, n: int) -> float:
    top = a[0]
    for i in range(1, n):
        if a[i] > top:
            top = a[i]
    return float(top)


@kernel
def _total(a: FloatArray, n: int, spread: float) -> float:
    """The largest of ``a[:n]`` in full, the others at ``spread``: one order a turn (R4)."""
    if n == 0:
        return 0.0
    top = _top(a, n)
    return top + spread * (_pairwise(a, 0, n) - top)


@kernel
def _column_total(a: FloatArray, n: int, single: bool, spread: float) -> float:
    """:func:`_total` of one column of an ``(n, k)`` matrix (``n >= 1``), as numpy sums it."""
    top = _top(a, n)
    return top + spread * (_column_sum(a, n, single) - top)


@kernel
def _risk(threat: int, extra: int, defence: int, loss: float, p_near: float) -> float:
    """Expected loss of an own piece with this enemy power reaching it, this much more power one
    enemy move away, and this defence (R8)."""
    if threat > defence:
        return loss * 1.0
    if threat > 0 and threat + extra > defence:
        return loss * p_near
    return loss * 0.0


@kernel
def _hunt_cover(power: int, defence: int) -> float:
    """How well own attack ``power`` covers a cell where a piece would have ``defence``: half
    if it beats it outright (R8), half in proportion to the power."""
    need = defence + 1
    return 0.5 * min(power, need) / need + (0.5 if power >= need else 0.0)


@kernel
def _stamp(
    grid: IntArray,
    dims: IntArray,
    lo: IntArray,
    hi: IntArray,
    z: int,
    y: int,
    x: int,
    r: int,
    value: int,
) -> None:
    """Add ``value`` to every cell of ``grid`` (flat) within radius ``r`` of ``(z, y, x)`` (R1)
    and within the box ``lo <= cell <= hi``."""
    n, m = dims[1], dims[2]
    x0, x1 = max(x - r, lo[2]), min(x + r, hi[2]) + 1
    for cz in range(max(z - r, lo[0]), min(z + r, hi[0]) + 1):
        for cy in range(max(y - r, lo[1]), min(y + r, hi[1]) + 1):
            base = (cz * n + cy) * m
            for cx in range(x0, x1):
                grid[base + cx] += value


@kernel
def _distances(dims: IntArray, cells: IntArray, lo: IntArray, hi: IntArray) -> IntArray:
    """The R1 distance from every cell of the box ``lo <= cell <= hi`` to the nearest of
    ``cells`` (``(k, 3)``, k > 0), flat (undefined outside the box). Three
    one-dimensional passes: along x the distance to the nearest cell on the same line, then
    along y and z min-max transforms (``f'(i) = min_j max(|i - j|, f(j))``) over the lines
    and planes that hold some."""
    p, n, m = dims[0], dims[1], dims[2]
    big = max(p, n, m)
    nz, ny, nx = hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1
    lines = np.empty(len(cells), dtype=np.int64)
    for e in range(len(cells)):
        lines[e] = cells[e, 0] * n + cells[e, 1]
    lines = np.unique(lines)
    along_x = np.full((len(lines), nx), big, dtype=np.int32)
    for e in range(len(cells)):
        li = np.searchsorted(lines, cells[e, 0] * n + cells[e, 1])
        for x in range(nx):
            along_x[li, x] = min(along_x[li, x], abs(lo[2] + x - cells[e, 2]))
    along_y = np.full((p, ny, nx), big, dtype=np.int32)
    planes = np.zeros(p, dtype=np.bool_)
    for li in range(len(lines)):
        z, y = divmod(lines[li], n)
        planes[z] = True
        source = along_x[li]
        for v in range(ny):
            gap = np.int32(abs(lo[1] + v - y))
            row = along_y[z, v]
            for x in range(nx):
                row[x] = min(row[x], max(gap, source[x]))
    out = np.empty(p * n * m, dtype=np.int64)  # (outside the box: never read)
    box = np.full((nz, ny * nx), big, dtype=np.int32)
    flat_y = along_y.reshape(p, ny * nx)
    for z in range(p):
        if not planes[z]:
            continue
        source = flat_y[z]
        for w in range(nz):
            gap = np.int32(abs(lo[0] + w - z))
            row = box[w]
            for c in range(ny * nx):
                row[c] = min(row[c], max(gap, source[c]))
    for w in range(nz):
        for v in range(ny):
            base = ((lo[0] + w) * n + lo[1] + v) * m + lo[2]
            for x in range(nx):
                out[base + x] = box[w, v * nx + x]
    return out


@kernel
def _box_at(
    values: FloatArray,
    dims: IntArray,
    lo: IntArray,
    hi: IntArray,
    r: int,
    cells: IntArray,
    which: IntArray,
    out: FloatArray,
) -> None:
    """``out[k] = `` the cube sum of radius ``r`` (R1) of the float board ``values`` at cell
    ``cells[k]`` (``(k, 3)``), for every ``k`` in ``which``; ``values`` is zero outside the box
    ``lo <= cell <= hi``. Summed as the numpy planner summed (three products with band
    matrices): along x, then y, then z, each window in increasing order."""
    n, m = dims[1], dims[2]
    ax0, ax1 = max(lo[2] - r, 0), min(hi[2] + r, m - 1)
    ay0, ay1 = max(lo[1] - r, 0), min(hi[1] + r, n - 1)
    nz, ny, nx = hi[0] - lo[0] + 1, ay1 - ay0 + 1, ax1 - ax0 + 1
    g1 = np.zeros((nz, hi[1] - lo[1] + 1, nx))
    for z in range(lo[0], hi[0] + 1):
        for y in range(lo[1], hi[1] + 1):
            base = (z * n + y) * m
            for x in range(ax0, ax1 + 1):
                acc = 0.0
                for u in range(max(x - r, lo[2]), min(x + r, hi[2]) + 1):
                    acc += values[base + u]
                g1[z - lo[0], y - lo[1], x - ax0] = acc
    g2 = np.zeros((nz, ny, nx))
    for z in range(nz):
        for y in range(ay0, ay1 + 1):
            for x in range(nx):
                acc = 0.0
                for u in range(max(y - r, lo[1]), min(y + r, hi[1]) + 1):
                    acc += g1[z, u - lo[1], x]
                g2[z, y - ay0, x] = acc
    for k in which:
        z, y, x = cells[k, 0], cells[k, 1], cells[k, 2]
        acc = 0.0
        if ay0 <= y <= ay1 and ax0 <= x <= ax1:
            for u in range(max(z - r, lo[0]), min(z + r, hi[0]) + 1):
                acc += g2[u - lo[0], y - ay0, x - ax0]
        out[k] = acc


class _Turn(NamedTuple):
    """One turn's reading of the observation, as arrays and board grids (R5, R6, R8).

    Own pieces (``o_``) are indexed in ``Sight.own`` order, visible enemy pieces (``e_``) in
    ``Sight.enemy`` order: flat cells, cells ``(k, 3)``, strengths (R2), move fields (R2, R5).
    Grids are flat over the board: ``defence`` (R8: the strength of the pieces that count,
    within radius 1 of each cell), ``power`` (own attack power on each cell), ``threat`` (the
    strongest enemy's power on each cell now, with the invisible attackers remembered) and
    ``extra`` (what one more enemy move adds, R4, R5), ``dist`` (R1 distance to the nearest
    visible enemy; these three within ``lo..hi`` only), ``ring`` (the chief's cell and its
    neighbours). Per own piece its ``d_own``, ``t_own``, ``x_own``, ``loss`` and ``o_dist``
    (``dist`` there); per enemy piece its ``e_def`` (hidden
    defenders its failed attacks showed, ``e_hidden``, included), ``gain`` and
    ``chief_gain``.
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
    threat: IntArray
    extra: IntArray
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
    suspect: FloatArray  # per cell, the chance an unseen enemy stands there (R6; crush > 0)


@kernel
def _unit(t: Tables) -> int:
    """:func:`~antipolix.agents.base.unit_strength`: the strongest type that can attack (R2)."""
    unit = 1
    for k in range(len(t.strength)):
        if t.move[k] > 0 and t.strength[k] > unit:
            unit = t.strength[k]
    return int(unit)


@kernel
def _zero_box(grid: npt.NDArray[Any], dims: IntArray, lo: IntArray, hi: IntArray) -> None:
    """Zero the cells of ``grid`` (flat) in the box ``lo <= cell <= hi``."""
    n, m = dims[1], dims[2]
    for z in range(lo[0], hi[0] + 1):
        for y in range(lo[1], hi[1] + 1):
            base = (z * n + y) * m
            grid[base + lo[2] : base + hi[2] + 1] = 0


@kernel
def _read(t: Tables, s: Sight, memory: Memory, unit: int, w: FloatArray) -> _Turn:
    """The turn's grids and values (see :class:`_Turn`)."""
    seen = s.seen
    dims = t.shape
    p, n, m = dims[0], dims[1], dims[2]
    size = p * n * m
    lo0 = np.zeros(3, dtype=np.int64)  # the whole board
    hi0 = dims - 1
    own, enemy = s.own, s.enemy
    k_own, k_en = len(own), len(enemy)
    o_flat, o_pos, o_s, o_f = s.flat[own], seen.cells[own], s.strengths[own], s.fields[own]
    e_flat, e_pos, e_s, e_f = s.flat[enemy], seen.cells[enemy], s.strengths[enemy], s.fields[enemy]
    e_owner = seen.owners[enemy].astype(np.int64)
    destroy, teleport, convert = t.outcomes[0], t.outcomes[1], t.outcomes[2]
    swing = destroy + teleport * w[I_TELEPORTED] + 2 * convert  # per point of a piece taken (R8)
    take_chief = destroy + convert  # a chief destroyed or converted eliminates (R8)
    lose_chief = w[I_WIN] * (destroy + convert) + w[I_WIN] * teleport * 0.25
    # the enemy pieces by owner (each group in observation order)
    first = np.zeros(t.players + 1, dtype=np.int64)
    for j in range(k_en):
        first[e_owner[j] + 1] += 1
    for o in range(t.players):
        first[o + 1] += first[o]
    grouped = np.empty(k_en, dtype=np.int64)
    filled = first[:-1].copy()
    for j in range(k_en):
        grouped[filled[e_owner[j]]] = j
        filled[e_owner[j]] += 1

    # where moves may end: the box around own pieces and their reach (teleporters included,
    # R5); the enemy's reach (threat, extra) and its distance are only looked up there
    lo = np.empty(3, dtype=np.int64)
    hi = np.empty(3, dtype=np.int64)
    reach = 0
    for q in range(k_own):
        reach = max(reach, o_f[q])
    for a in range(3):
        lo[a], hi[a] = dims[a] - 1, 0
        for q in range(k_own):
            lo[a] = min(lo[a], o_pos[q, a] - o_f[q])
            hi[a] = max(hi[a], o_pos[q, a] + o_f[q])
        for u in range(len(s.tcells)):
            lo[a] = min(lo[a], s.tcells[u, a] - reach)
            hi[a] = max(hi[a], s.tcells[u, a] + reach)
        lo[a], hi[a] = max(lo[a], 0), min(hi[a], dims[a] - 1)

    # grids: cube sums (R1) of strengths (R8 defence, R5 reach)
    defence = np.zeros(size, dtype=np.int64)
    if t.defence_all:
        for r in range(len(seen.ids)):
            c = seen.cells[r]
            _stamp(defence, dims, lo0, hi0, c[0], c[1], c[2], 1, s.strengths[r])
    else:
        for q in range(k_own):
            _stamp(defence, dims, lo0, hi0, o_pos[q, 0], o_pos[q, 1], o_pos[q, 2], 1, o_s[q])
    power = np.zeros(size, dtype=np.int64)
    for q in range(k_own):
        if o_f[q] > 0:
            z, y, x = o_pos[q, 0], o_pos[q, 1], o_pos[q, 2]
            _stamp(power, dims, lo0, hi0, z, y, x, o_f[q], o_s[q])
    # the strongest owner's reach now (threat) and after one more move (later, R4), within
    # lo..hi (the rest of these grids is never read)
    threat = np.empty(size, dtype=np.int64)
    later = np.empty(size, dtype=np.int64)
    _zero_box(threat, dims, lo, hi)
    _zero_box(later, dims, lo, hi)
    n_owners = 0
    for o in range(t.players):
        n_owners += first[o + 1] > first[o]
    single = n_owners == 1
    now_o, later_o = threat, later
    if not single:
        now_o = np.empty(size, dtype=np.int64)
        later_o = np.empty(size, dtype=np.int64)
        _zero_box(now_o, dims, lo, hi)
        _zero_box(later_o, dims, lo, hi)
    strongest = 0
    olo = np.empty(3, dtype=np.int64)  # the box an owner's stamps cover (within lo..hi)
    ohi = np.empty(3, dtype=np.int64)
    for o in range(t.players):
        olo[:] = hi
        ohi[:] = lo
        for u in range(first[o], first[o + 1]):
            j = grouped[u]
            if e_f[j] > 0:
                z, y, x = e_pos[j, 0], e_pos[j, 1], e_pos[j, 2]
                _stamp(now_o, dims, lo, hi, z, y, x, e_f[j], e_s[j])
                _stamp(later_o, dims, lo, hi, z, y, x, 2 * e_f[j], e_s[j])
                strongest = max(strongest, e_s[j])
                for a in range(3):
                    olo[a] = min(olo[a], max(e_pos[j, a] - 2 * e_f[j], lo[a]))
                    ohi[a] = max(ohi[a], min(e_pos[j, a] + 2 * e_f[j], hi[a]))
        if not single:  # the strongest owner's, cell by cell (then clean for the next)
            for z in range(olo[0], ohi[0] + 1):
                for y in range(olo[1], ohi[1] + 1):
                    base = (z * n + y) * m
                    for c in range(base + olo[2], base + ohi[2] + 1):
                        threat[c] = max(threat[c], now_o[c])
                        later[c] = max(later[c], later_o[c])
                        now_o[c] = 0
                        later_o[c] = 0
    extra = np.empty(size, dtype=np.int64)
    for z in range(lo[0], hi[0] + 1):
        for y in range(lo[1], hi[1] + 1):
            base = (z * n + y) * m
            for c in range(base + lo[2], base + hi[2] + 1):
                extra[c] = min(max(later[c] - threat[c], 0), strongest)
    hidden = memory.hidden  # invisible attackers seen near these cells (R6)
    for h in range(memory.counters[N_HIDDEN]):
        zy, x = divmod(hidden[h, 1], m)
        z, y = divmod(zy, n)
        _stamp(threat, dims, lo, hi, z, y, x, 2, hidden[h, 2])

    e_hidden = np.zeros(k_en, dtype=np.int64)
    e_def = np.zeros(k_en, dtype=np.int64)
    for j in range(k_en):
        pid = seen.ids[enemy[j]]
        if seen.turn - memory.mark_turn[pid] < MEMORY:
            e_hidden[j] = memory.mark_value[pid]
        if t.defence_all:  # every piece counts (R8)
            e_def[j] = defence[e_flat[j]]
    if not t.defence_all:  # its owner's pieces within radius 1 (R8)
        gz = np.empty(k_en, dtype=np.int64)  # coordinates in group order
        gy = np.empty(k_en, dtype=np.int64)
        gx = np.empty(k_en, dtype=np.int64)
        gs = np.empty(k_en, dtype=np.int64)
        for u in range(k_en):
            j = grouped[u]
            gz[u], gy[u], gx[u], gs[u] = e_pos[j, 0], e_pos[j, 1], e_pos[j, 2], e_s[j]
        for o in range(t.players):
            for u in range(first[o], first[o + 1]):
                near = 0
                for v in range(first[o], first[o + 1]):
                    d = max(abs(gz[v] - gz[u]), abs(gy[v] - gy[u]), abs(gx[v] - gx[u]))
                    near += gs[v] if d <= 1 else 0
                e_def[grouped[u]] = near
    for j in range(k_en):
        e_def[j] += e_hidden[j]

    # values (R2, R8): what losing each own piece costs, what taking each enemy piece gains
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
        total = _pairwise(weight, first[o], first[o + 1] - first[o])
        for u in range(first[o], first[o + 1]):
            chief_gain[grouped[u]] = w[I_WIN] * take_chief * weight[u] / total
    gain = np.empty(k_en)
    for j in range(k_en):
        gain[j] = float(t.cost[seen.types[enemy[j]], 0]) * swing + chief_gain[j]
    d_own, t_own, x_own = defence[o_flat], threat[o_flat], extra[o_flat]
    if ci >= 0:
        x_own[ci] += CHIEF_UNSEEN * unit
    risks = np.empty(k_own)
    for q in range(k_own):
        risks[q] = _risk(t_own[q], x_own[q], d_own[q], loss[q], w[I_P_NEAR])
    base_risk = _total(risks, k_own, w[I_SPREAD])

    # geometry: distances to the enemy, how far moves matter, the chief's ring
    dist = _distances(dims, e_pos, lo, hi)
    o_dist = dist[o_flat]
    e_move = 0
    for j in range(k_en):
        e_move = max(e_move, e_f[j])
    # beyond this distance from every enemy a cell is out of every enemy's reach within a move,
    # and of every own attack or hunt next turn (R5): only the advance counts there
    horizon = max(FRONT, 2 * e_move, e_move + reach)
    ring = np.zeros(size, dtype=np.bool_)
    if ci >= 0:
        c = o_pos[ci]
        for z in range(max(c[0] - 1, 0), min(c[0] + 2, p)):
            for y in range(max(c[1] - 1, 0), min(c[1] + 2, n)):
                for x in range(max(c[2] - 1, 0), min(c[2] + 2, m)):
                    ring[(z * n + y) * m + x] = True
    return _Turn(
        dims, lo, hi, o_flat, o_pos, o_s, o_f, e_flat, e_pos, e_s, e_f, e_owner, defence, power,
        threat, extra, dist, ring, d_own, t_own, x_own, loss, o_dist, ci, e_def, e_hidden, gain,
        chief_gain, base_risk, horizon, unit, take_chief, t.defence_all, seen.turn, w,
        _suspects(s, memory, e_pos, e_hidden, w[I_CRUSH] > 0),
    )  # fmt: skip


@kernel
def _suspects(
    s: Sight, memory: Memory, e_pos: IntArray, e_hidden: IntArray, wanted: bool
) -> FloatArray:
    """Per cell, the chance that an unseen (invisible, R6) enemy piece stands there: the free
    cells around an own piece an unseen attacker hit lately (within two cells, the longest
    move field, R2) and around an enemy piece whose failed attack showed hidden defenders
    (within one cell, R8), each share of one piece. (One cell only when not ``wanted``.)"""
    if not wanted:
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
def _tactics(
    t: Tables,
    tn: _Turn,
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
    if w_net > 0 and len(s.tcells):
        _network(t, tn, s, mover, end, gap, score)
    if w_fort > 0 and tn.ci >= 0:
        _fortress(tn, s, mover, end, score)
    if w_crush > 0:
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
    tn: _Turn,
    s: Sight,
    mover: IntArray,
    end: IntArray,
    gap: IntArray,
    score: FloatArray,
) -> None:
    """The network term of :func:`_tactics` (R5)."""
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
def _fortress(tn: _Turn, s: Sight, mover: IntArray, end: IntArray, score: FloatArray) -> None:
    """The fortress term of :func:`_tactics` (R8): the chief's moves only."""
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


@kernel
def _best_attack(tn: _Turn, s: Sight) -> tuple[float, int, IntArray]:
    """Every target that the own pieces reaching it outpower (R4, R8), attacked by all of them
    (attackers never move): its expected gain plus the exposure it relieves. Returns the score,
    the target's flat cell and the attackers' rows (none: no attack scores above 0)."""
    k_own = len(tn.o_s)
    relieved = np.empty(k_own)
    best, best_flat, best_rows = 0.0, 0, np.empty(0, dtype=np.int64)
    # without teleporters the pieces that reach a cell are those whose field covers it: the
    # power grid says which targets can be won at all
    teleports = False
    for q in range(len(s.mobile)):
        teleports = teleports or s.near[q]
    hit = np.zeros(len(s.mobile), dtype=np.bool_)
    for j in range(len(s.enemy)):
        if not teleports and tn.power[tn.e_flat[j]] <= tn.e_def[j]:
            continue
        c = tn.e_pos[j]
        for q in range(len(s.mobile)):
            hit[q] = reaches(s, s.mobile[q], c[0], c[1], c[2])
        attackers = s.mobile[hit]
        if not len(attackers):
            continue
        margin = power(s, attackers) - tn.e_def[j]
        if margin <= 0:
            continue
        ez, ey, ex = tn.e_pos[j, 0], tn.e_pos[j, 1], tn.e_pos[j, 2]
        for q in range(k_own):
            near = cheb(tn.o_pos[q, 0], tn.o_pos[q, 1], tn.o_pos[q, 2], ez, ey, ex) <= tn.e_f[j]
            threat = max(tn.t_own[q] - (tn.e_s[j] if near else 0), 0)
            relieved[q] = _risk(threat, tn.x_own[q], tn.d_own[q], tn.loss[q], tn.w[I_P_NEAR])
        score = tn.gain[j] + tn.base_risk - _total(relieved, k_own, tn.w[I_SPREAD])
        if margin <= tn.unit and not tn.e_hidden[j]:
            score *= 1.0 - tn.w[I_HIDDEN_PROBE]
        score += 0.02 * min(margin / tn.unit, 2.5)  # wider wins first
        if score > best:
            best, best_flat, best_rows = score, tn.e_flat[j], attackers
    return best, best_flat, best_rows


@kernel
def _candidates(tn: _Turn, s: Sight) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Every move of every own mobile piece to a free cell it reaches (R4, R5), as (index in
    ``Sight.mobile``, flat destination, its cell ``(k, 3)``, its distance to the nearest
    visible enemy, R1): first the pieces next to no teleporter, by move field and row, then
    the others, each piece's cells in increasing order. Far from every enemy, only the moves
    closing in (or guarding the chief, or fleeing an unseen attacker) are kept."""
    seen = s.seen
    dims = tn.dims
    p, n, m = dims[0], dims[1], dims[2]
    mobile = s.mobile
    cap = 0
    for q in range(len(mobile)):
        side = 2 * s.fields[mobile[q]] + 1
        cap += side**3 * (1 + (len(s.tcells) if s.near[q] else 0))
    who = np.empty(cap, dtype=np.int64)
    dest = np.empty(cap, dtype=np.int64)
    end = np.empty((cap, 3), dtype=np.int64)
    gap = np.empty(cap, dtype=np.int64)
    own_of = np.searchsorted(s.own, mobile)
    # a move is dropped when it ends far from every enemy without closing in, unless its piece
    # is threatened, or is the chief, or it starts or ends next to the chief
    occupied, dist, ring, horizon = s.occupied, tn.dist, tn.ring, tn.horizon
    may_drop = np.empty(len(mobile), dtype=np.bool_)
    for q in range(len(mobile)):
        i = own_of[q]
        may_drop[q] = tn.t_own[i] == 0 and i != tn.ci and not ring[tn.o_flat[i]]
    k = 0
    for f in np.unique(s.fields[mobile][~s.near]):
        for q in range(len(mobile)):
            if s.near[q] or s.fields[mobile[q]] != f:
                continue
            c = seen.cells[mobile[q]]
            cz, cy, cx = c[0], c[1], c[2]
            now = tn.o_dist[own_of[q]]
            drop = may_drop[q]
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
    cells = np.empty(cap, dtype=np.int64)
    for q in range(len(mobile)):
        if not s.near[q]:
            continue
        c = seen.cells[mobile[q]]
        found = reach_cells_k(
            p, n, m, c[0], c[1], c[2], s.fields[mobile[q]], s.tcells, s.tlabels, s.scratch, cells
        )
        now = tn.o_dist[own_of[q]]
        drop = may_drop[q]
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
    return who[:k], dest[:k], end[:k], gap[:k]


@kernel
def _best_move(t: Tables, tn: _Turn, s: Sight, rng: np.random.Generator) -> tuple[float, int, int]:
    """Every candidate move (:func:`_candidates`), scored all at once: a move changes the
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


@kernel
def move_scores(
    t: Tables, tn: _Turn, s: Sight, rng: np.random.Generator
) -> tuple[FloatArray, IntArray, IntArray]:
    """Every candidate move's score (ties broken by a draw from ``rng`` for each, none if
    there is no candidate), its mover's row and its destination."""
    who, dest, end, gap = _candidates(tn, s)
    count = len(dest)
    if not count:
        return np.zeros(0), dest, dest
    mover = np.searchsorted(s.own, s.mobile)[who]  # own index of each move's piece
    score, adj_ab, d_mover = _exposure(tn, mover, dest, end)
    if tn.ci >= 0:
        _chief_guard(tn, mover, dest, end, gap, d_mover, score)
    offence = _threats(tn, mover, dest, end)
    _hunt(tn, s, mover, dest, end, offence)
    ci = tn.ci
    for k in range(count):
        i = mover[k]
        if i == ci:
            continue
        score[k] += offence[k]
        d_b = gap[k]
        score[k] += tn.w[I_ADVANCE] * (tn.o_dist[i] - d_b)
        if d_b <= FRONT:  # cohesion: the own strength around the moved piece (R8)
            s_i = tn.o_s[i]
            support = (tn.defence[dest[k]] - s_i * adj_ab[k]) - (tn.d_own[i] - s_i)
            score[k] += tn.w[I_COHESION] * support
    if tn.w[I_NETWORK] > 0 or tn.w[I_FORTRESS] > 0 or tn.w[I_CRUSH] > 0:
        _tactics(t, tn, s, mover, dest, end, gap, score)
    noise = rng.random(count)  # ties, from the agent's generator (R12)
    for k in range(count):
        score[k] += noise[k] * 1e-6
    return score, s.mobile[who], dest


@kernel
def _exposure(
    tn: _Turn, mover: IntArray, dest: IntArray, end: IntArray
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
        r_mover[k] = _risk(
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
        r0[u] = _risk(tn.t_own[q], tn.x_own[q], tn.d_own[q], tn.loss[q], p_near)
    r0_top = 0.0
    for u in range(n_rel):
        r0_top = max(r0_top, r0[u])
    r0_sum = _pairwise(r0, 0, n_rel)
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
def _exposure_masked(
    tn: _Turn,
    mover: IntArray,
    dest: IntArray,
    end: IntArray,
    rel: IntArray,
    near_rel: BoolArray,
    r0: FloatArray,
    r_mover: FloatArray,
    risk: FloatArray,
) -> None:
    """:func:`_exposure` of the moves that touch a piece at risk, summed as numpy sums them:
    pairwise if there is a single one, else row by row from the position's own running sums
    before the first piece the move changes (masks of the pieces at risk next to each own
    piece and each cell find it), adding only the terms that are not zero."""
    n_rel, k_own, count = len(rel), len(tn.o_s), len(dest)
    one = np.uint64(1)
    beside = np.zeros(k_own, dtype=np.uint64)  # per own piece: the pieces at risk next to it
    itself = np.zeros(k_own, dtype=np.uint64)  # ... and itself if it is one
    dims, lo, hi = tn.dims, tn.lo, tn.hi
    around = np.empty(len(tn.defence), dtype=np.uint64)  # per cell: those next to it (in lo..hi)
    _zero_box(around, dims, lo, hi)
    n, m = dims[1], dims[2]
    for u in range(n_rel):
        bit = one << np.uint64(u)
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
    n_sel = 0
    for k in range(count):
        if beside[mover[k]] != 0 or around[dest[k]] != 0:
            n_sel += 1
    if n_sel == 1:  # one column: numpy sums it pairwise
        _exposure_plain(tn, mover, end, rel, near_rel, r_mover, risk)
        return
    running = np.empty(n_rel)  # the sums and largest values of the risks as they stand
    highest = np.empty(n_rel)
    acc, top = 0.0, 0.0
    for u in range(n_rel):
        acc += r0[u]
        top = max(top, r0[u])
        running[u], highest[u] = acc, top
    for k in range(count):
        i = mover[k]
        to_b = around[dest[k]]
        if beside[i] == 0 and to_b == 0:
            continue
        changed = (to_b ^ beside[i]) | itself[i]
        first = 0
        while first < n_rel and not (changed >> np.uint64(first)) & one:
            first += 1
        acc, top = 0.0, 0.0
        if first > 0:
            acc, top = running[first - 1], highest[first - 1]
        s_i = tn.o_s[i]
        for u in range(first, n_rel):
            r = r0[u]
            if (changed >> np.uint64(u)) & one:
                q = rel[u]
                if q == i:
                    r = 0.0
                else:
                    now = 1 if (to_b >> np.uint64(u)) & one else 0
                    d_rel = tn.d_own[q] + s_i * (now - (1 if near_rel[u, i] else 0))
                    r = _risk(tn.t_own[q], tn.x_own[q], d_rel, tn.loss[q], tn.w[I_P_NEAR])
            if r != 0.0:  # (adding zero changes no sum)
                acc += r
                top = max(top, r)
        acc += r_mover[k]
        top = max(top, r_mover[k])
        risk[k] = top + tn.w[I_SPREAD] * (acc - top)


@kernel
def _exposure_plain(
    tn: _Turn,
    mover: IntArray,
    end: IntArray,
    rel: IntArray,
    near_rel: BoolArray,
    r_mover: FloatArray,
    risk: FloatArray,
) -> None:
    """:func:`_exposure` of the moves that touch a piece at risk, every term of every one (for
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
            risk_q = _risk(tn.t_own[q], tn.x_own[q], d_rel, tn.loss[q], tn.w[I_P_NEAR])
            column[u] = 0.0 if q == i else risk_q
        column[n_rel] = r_mover[k]
        risk[k] = _column_total(column, n_rel + 1, single, tn.w[I_SPREAD])


@kernel
def _chief_guard(
    tn: _Turn,
    mover: IntArray,
    dest: IntArray,
    end: IntArray,
    gap: IntArray,
    d_mover: IntArray,
    score: FloatArray,
) -> None:
    """Chief guard, added to ``score``: enemy power within two enemy moves against the
    chief's defence, and the chief's distance from the enemy."""
    ci = tn.ci
    here = tn.o_flat[ci]
    c0, c1, c2 = tn.o_pos[ci, 0], tn.o_pos[ci, 1], tn.o_pos[ci, 2]
    strength = 0
    for q in range(len(tn.o_s)):
        strength += tn.o_s[q]
    least = float(GUARD_MIN * tn.unit)
    if tn.w[I_GUARD_SHARE] * float(strength) < least:
        least = tn.w[I_GUARD_SHARE] * float(strength)
    margin = GUARD_MARGIN * tn.unit
    need0 = float(tn.threat[here] + tn.extra[here] + margin)
    if least > need0:
        need0 = least
    guard0 = need0 - tn.d_own[ci]
    if not guard0 > 0:
        guard0 = 0.0
    far0 = min(tn.o_dist[ci], CHIEF_FAR)
    for k in range(len(dest)):
        i = mover[k]
        if i == ci:
            d_c = d_mover[k]
            t2_c = tn.threat[dest[k]] + tn.extra[dest[k]]
        else:
            to_b = cheb(end[k, 0], end[k, 1], end[k, 2], c0, c1, c2) <= 1
            to_a = cheb(tn.o_pos[i, 0], tn.o_pos[i, 1], tn.o_pos[i, 2], c0, c1, c2) <= 1
            d_c = tn.d_own[ci] + tn.o_s[i] * ((1 if to_b else 0) - (1 if to_a else 0))
            t2_c = tn.threat[here] + tn.extra[here]
        need = float(t2_c + margin)
        if least > need:
            need = least
        short = need - d_c
        if not short > 0:
            short = 0.0
        score[k] += tn.w[I_GUARD] * (guard0 - short)
        if i == ci:
            score[k] += tn.w[I_CHIEF_FAR] * (min(gap[k], CHIEF_FAR) - far0)


@kernel
def _threats(tn: _Turn, mover: IntArray, dest: IntArray, end: IntArray) -> FloatArray:
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
    wins0 = _total(wins, n_close, tn.w[I_SPREAD])
    press0 = _pairwise(pressed, 0, n_close)
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
        _zero_box(row, dims, lo, hi)
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
    tn: _Turn,
    mover: IntArray,
    end: IntArray,
    plain: tuple[IntArray, BoolArray, BoolArray, IntArray, IntArray, FloatArray],
    wins0: float,
    press0: float,
    press: float,
    offence: FloatArray,
) -> None:
    """:func:`_threats` the plain way (for more enemy pieces near the front than a mask holds,
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
        offence[k] += tn.w[I_THREAT] * (_column_total(wins, n_close, single, spread) - wins0)
        offence[k] += press * (_column_sum(pressed, n_close, single) - press0)


@kernel
def _hunt(
    tn: _Turn, s: Sight, mover: IntArray, dest: IntArray, end: IntArray, offence: FloatArray
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
        _zero_box(gains[kk], dims, glo, ghi)
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
            base = _hunt_cover(now, need)
            for kk in range(n_kinds):
                up[u, v, kk] = _hunt_cover(now + kind_s[kk], need) - base
                down[u, v, kk] = _hunt_cover(now - kind_s[kk], need) - base
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
                _box_at(gains[kk], dims, lo[kk, g], hi[kk, g], kind_f[kk], end, chosen, out)
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
                    acc = _pairwise(column, 0, size_r[u])
                sums[k, u] = acc
    for k in range(count):
        if near[mover[k]]:
            total = 0.0
            for u in range(n_sus):
                total += weight[u] * sums[k, u]
            out[k] = total
        offence[k] += out[k]


@kernel
def _remember(s: Sight, t: Tables, memory: Memory, unit: int) -> None:
    """Memory (R6: only what the observation shows): enemy pieces seen to move (not chiefs),
    their types, the last fight, the defence its failed attacks showed, and where invisible
    pieces attacked it."""
    seen = s.seen
    note_moves(s, memory)
    for row in s.enemy:
        memory.seen_type[seen.ids[row]] = seen.types[row]
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
def _draw_offer(memory: Memory, turn: int, dead: bool) -> int:
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
    none = np.empty(0, dtype=np.int64)
    kind, piece, cell, pieces = PASS, 0, 0, none
    dead = False
    if len(s.enemy) and len(s.mobile):
        tn = _read(t, s, memory, unit, w)
        score, flat, rows = _best_attack(tn, s)
        if len(rows):
            kind, cell, pieces = ATTACK, flat, seen.ids[rows]
        move_score, row, to = _best_move(t, tn, s, rng)
        if row >= 0 and move_score > score:
            kind, piece, cell, pieces = MOVE, seen.ids[row], to, none
        dead = hopeless(tn, s)
    elif len(s.enemy):
        dead = True  # nothing left that can attack (fortresses only, R2)
    command = _draw_offer(memory, seen.turn, dead)
    return kind, piece, cell, pieces, think, command


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
    unit = _unit(t)
    _remember(s, t, memory, unit)
    return think, s, unit


@kernel
def hopeless(tn: _Turn, s: Sight) -> bool:
    """Can all the own mobile pieces together not outpower the defence of any enemy piece in
    sight (R8)? Then the position is dead (a draw offer, R9)."""
    weakest = tn.e_def[0]
    for j in range(len(tn.e_def)):
        weakest = min(weakest, tn.e_def[j])
    return bool(power(s, s.mobile) <= weakest)


class PlannerAgent(Remembering):
    """One-ply lookahead over every winning attack and every move, in expectation over R8.

    See the module docstring for what it evaluates. Decides from its observation only (R6),
    remembering per game (state made in :meth:`setup`) which enemy pieces moved, the hidden
    defence its failed attacks revealed and where invisible enemies attacked it.

    Think time: uniform in ``[min_think, max_think)`` seconds (R7), by default ``[0.2, 1.5)``,
    the same as :class:`~antipolix.agents.GreedyAgent`, so that a win comes from play, not from
    the clock. Default army: armies and hovercraft in the ratio 4 : 1 with an army chief (R2:
    armies give the most strength per point; one hovercraft in five, field 2, attacks from two
    cells away and runs down a fleeing chief): 34 armies and 8 hovercraft in a two-player
    game, 16 and 5 in a four-player one; the first hovercraft comes after four armies, so a
    small budget buys armies only.

    ``weights``: the position value's weights (:data:`WEIGHTS`), by name; the ones not given
    keep their defaults. A tuning study (:mod:`antipolix.tuning`) searches them.
    """

    name = "planner"

    def __init__(
        self,
        army: ArmyPolicy | None = None,
        min_think: float = 0.2,
        max_think: float = 1.5,
        weights: Mapping[str, float] | None = None,
    ) -> None:
        super().__init__(army)
        if not 0 <= min_think <= max_think:
            raise ValueError(f"need 0 <= min_think <= max_think, got {min_think}, {max_think}")
        self.min_think = float(min_think)
        self.max_think = float(max_think)
        self.weights = weight_vector(self.base_weights(), weights)
        self.given = None if weights is None else dict(weights)  # checked by weight_vector
        self.playing = self.weights  # the weights of the game it is set up for

    def base_weights(self, players: int = 2) -> FloatArray:
        """The weights that those not given keep, at a table of ``players``."""
        return DEFAULT_WEIGHTS

    def weights_for(self, players: int) -> FloatArray:
        """The weights it plays with at a table of ``players``: the base weights for that
        many players with the ones given set (``weights`` itself when the base is the same)."""
        base = self.base_weights(players)
        return self.weights if base is self.base_weights() else weight_vector(base, self.given)

    def default_army(self) -> ArmyPolicy:
        return FixedArmy({"army": 4, "hovercraft": 1})

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {"min_think": self.min_think, "max_think": self.max_think}
        base = self.base_weights()
        changed = {
            name: float(v)
            for name, v, b in zip(WEIGHT_NAMES, self.weights, base, strict=True)
            if v != b
        }
        if changed:
            out["weights"] = changed
        return out

    def setup(self, rules: Rules, seat: int, rng: np.random.Generator) -> None:
        super().setup(rules, seat, rng)
        self.unit = unit_strength(rules)
        self.playing = self.weights_for(rules.players)

    def act(self, obs: Observation) -> Decision:
        seen = packed(seen_of(obs, self.rules.shape))
        choice = planner_act(
            self.rules.tables,
            seen,
            self._memory,
            self.min_think,
            self.max_think,
            self.playing,
            self.rng,
        )
        return decision_of(choice, self.rules.shape)

    def attacker_strength(self, pid: int) -> int:
        """R2 strength of an enemy piece named in an attack on this player: its type's, as last
        seen; one unit if it was never seen (it cannot be stronger than the strongest type)."""
        types = self.remembered.seen_type
        if not 0 <= pid < len(types) or types[pid] < 0:
            return self.unit
        return int(self.rules.strength_table[types[pid]])


def weight_vector(base: FloatArray, weights: Mapping[str, float] | None) -> FloatArray:
    """``base`` with the named ``weights`` set (a copy); unknown names and values that are not
    finite numbers are refused."""
    out = np.array(base, dtype=np.float64)
    if weights is None:
        return out
    if not isinstance(weights, Mapping):
        raise ValueError(f"weights must map weight names to numbers, got {weights!r}")
    index = {name: i for i, name in enumerate(WEIGHT_NAMES)}
    for name, value in weights.items():
        if name not in index:
            raise ValueError(
                f"the planner has no weight {name!r} (its weights: {', '.join(WEIGHT_NAMES)})"
            )
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"weight {name!r} must be a number, got {value!r}") from None
        if not np.isfinite(number):
            raise ValueError(f"weight {name!r} must be finite, got {value!r}")
        out[index[name]] = number
    return out
