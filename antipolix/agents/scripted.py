"""Two built-in scripted players: a random one and a greedy aggressor.

Both decide from their own observation only (R6, R12) and draw every choice from their own
generator. Their decisions are compiled kernels (:func:`random_act`, :func:`greedy_act`), the
same whether a game runs through :class:`~antipolix.Game` or whole inside compiled code
(:mod:`antipolix.autoplay`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from antipolix.agents.army import ArmyPolicy, FixedArmy
from antipolix.agents.base import Agent, Decision, decision_of
from antipolix.agents.memory import Choice, Memory, new_memory
from antipolix.agents.sight import (
    Sight,
    attackers_of,
    candidate,
    free_reach,
    move_boxes,
    nearest,
    sight_k,
    target_matrix,
    visible_defence,
)
from antipolix.combat import defence_k
from antipolix.jit import Held, held, kernel, packed
from antipolix.observation import (
    C_ATTACK,
    C_DEFENCE,
    C_PLAYER,
    C_TARGET,
    Observation,
    Seen,
    seen_of,
)
from antipolix.pieces import FORTRESS
from antipolix.rules import Rules, Tables
from antipolix.turn import ATTACK, MOVE, PASS
from antipolix.world import IntArray

MEMORY = 10  # turns a greedy agent remembers the defence a failed attack revealed
NONE = -1  # no order (yet): the kind of a Choice a step of a scripted agent did not make
_NO_PIECES = np.zeros(0, dtype=np.int64)


class Remembering(Agent):
    """A built-in agent whose decisions are kernels: :meth:`setup` gives it an empty
    :class:`Memory` for the game, kept as a named tuple (``remembered``, what pickles: a set-up
    agent may be shipped to a worker) and as the record its kernels take (``_memory``, the same
    arrays)."""

    def setup(self, rules: Rules, seat: int, rng: np.random.Generator) -> None:
        super().setup(rules, seat, rng)
        self.remembered = memory_for(rules)
        self._memory = packed(self.remembered)
        self._held = held(rng)  # (its kernels take the generator held: antipolix.jit.held)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_memory", None)  # (records do not pickle: made again from what they hold)
        state.pop("_held", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if "remembered" in state:
            self._memory = packed(self.remembered)
        if "rng" in state:
            self._held = held(self.rng)


class RandomAgent(Remembering):
    """A uniformly random legal order and a random army.

    The orders it draws from, all equally likely: ``Pass``; every move of an own piece to a free
    cell it reaches (R4, R5); and one attack per visible enemy piece in reach, made by every own
    piece that reaches it. Think time: exponential with mean ``mean_think`` seconds (R7).
    """

    name = "random"

    def __init__(self, army: ArmyPolicy | None = None, mean_think: float = 1.0) -> None:
        super().__init__(army)
        if not 0 <= mean_think < float("inf"):  # (NaN fails too)
            raise ValueError(f"mean_think must be a finite number >= 0, got {mean_think!r}")
        self.mean_think = float(mean_think)

    def params(self) -> dict[str, Any]:
        return {"mean_think": self.mean_think}

    def act(self, obs: Observation) -> Decision:
        seen = packed(seen_of(obs, self.rules.shape))
        choice = random_act_held(self.rules.tables, seen, self._memory, self.mean_think, self._held)
        return decision_of(choice, self.rules.shape)


@kernel
def random_act_held(
    t: Tables, seen: Seen, memory: Memory, mean_think: float, holder: Held
) -> Choice:
    """:func:`random_act` called from Python, its generator held (:func:`antipolix.jit.held`)."""
    return random_act(t, seen, memory, mean_think, holder.rng)


def memory_for(rules: Rules) -> Memory:
    """An empty :class:`Memory` for a game of ``rules``."""
    p, n, m = rules.shape
    return new_memory(p * n * m, rules.players)


@kernel
def random_act(
    t: Tables, seen: Seen, memory: Memory, mean_think: float, rng: np.random.Generator
) -> Choice:
    """:class:`RandomAgent`'s decision: uniform by rejection over every move candidate, every
    visible enemy and Pass; drawn again on a move to an occupied cell or an enemy no own piece
    reaches."""
    s = sight_k(t, seen)
    think = rng.exponential(mean_think)
    lo, hi, size = move_boxes(s)
    ends = np.cumsum(size)
    total = ends[-1] if len(ends) else 0
    enemies = len(s.enemy)
    while True:
        k = rng.integers(0, total + enemies + 1)
        if k < total:
            i = int(np.searchsorted(ends, k, side="right"))
            flat = candidate(s, lo, hi, i, int(k - (ends[i - 1] if i else 0)))
            if not s.occupied[flat]:
                return MOVE, int(seen.ids[s.mobile[i]]), flat, _NO_PIECES, think, -1
        elif k < total + enemies:
            row = s.enemy[k - total]
            c = seen.cells[row]
            attackers = attackers_of(s, c[0], c[1], c[2])
            if len(attackers):
                return ATTACK, 0, int(s.flat[row]), seen.ids[attackers], think, -1
        else:
            return PASS, 0, 0, _NO_PIECES, think, -1


class GreedyAgent(Remembering):
    """Attacks when it can beat the defence it sees; guards its chief; otherwise advances.

    Each turn, in this order:

    1. If its chief is threatened (the visible enemy pieces that could reach it next turn are
       stronger than its defence), it attacks one of the threatening pieces if it can win, else
       moves the chief to the free cell farthest from enemies.
    2. Otherwise it makes the best winning attack (attack power > visible defence, R8), ranked by:
       suspected enemy chief (an enemy mobile piece never seen to move), target value (its
       type's cost), margin.
    3. Otherwise it advances: the non-chief piece nearest an enemy moves to the reachable free
       cell nearest an enemy (teleporters included, R5). The chief stays back unless no other
       piece can advance; then it joins in.
    4. Still nothing: a random non-chief piece drifts to a random free cell no farther from the
       enemy (stand-offs where no attack can win do not last to the turn limit).

    Think time: uniform in ``[0.2, 1.5)`` seconds (R7). Default army: a fixed mix of armies,
    hovercraft and invisible armies in the ratio 3 : 2 : 1.
    """

    name = "greedy"

    def default_army(self) -> ArmyPolicy:
        return FixedArmy({"army": 3, "hovercraft": 2, "army+invisible": 1})

    def act(self, obs: Observation) -> Decision:
        seen = packed(seen_of(obs, self.rules.shape))
        choice = greedy_act_held(self.rules.tables, seen, self._memory, self._held)
        return decision_of(choice, self.rules.shape)


@kernel
def greedy_act_held(t: Tables, seen: Seen, memory: Memory, holder: Held) -> Choice:
    """:func:`greedy_act` called from Python, its generator held (:func:`antipolix.jit.held`)."""
    return greedy_act(t, seen, memory, holder.rng)


@kernel
def greedy_act(t: Tables, seen: Seen, memory: Memory, rng: np.random.Generator) -> Choice:
    """:class:`GreedyAgent`'s decision (its steps, in order: guard, attack, advance, drift)."""
    s = sight_k(t, seen)
    think = rng.uniform(0.2, 1.5)
    _remember(s, memory)
    if not len(s.enemy):
        return PASS, 0, 0, _NO_PIECES, think, -1
    hit = target_matrix(s)
    kind, piece, cell, pieces = _guard(s, t, memory, hit, rng)
    if kind == NONE:
        kind, piece, cell, pieces = _winning(s, t, memory, hit, s.enemy)
    if kind == NONE:
        kind, piece, cell = _advance(s, _without(s.mobile, s.chief), rng)
    if kind == NONE:
        kind, piece, cell = _advance(s, s.mobile, rng)  # stuck: the chief joins in
    if kind == NONE:
        kind, piece, cell = _drift(s, rng)
    if kind == NONE:
        return PASS, 0, 0, _NO_PIECES, think, -1
    return kind, piece, cell, pieces, think, -1


@kernel
def _without(rows: IntArray, row: int) -> IntArray:
    out: IntArray = rows[rows != row]
    return out


@kernel
def note_moves(s: Sight, memory: Memory) -> None:
    """Remember the cell each visible enemy piece was first seen on, and which have moved since
    (a chief suspect is one never seen to move, R6: traits are hidden)."""
    # (fields read once: a record's field read in the loop counts a reference each time)
    ids, flats, first, moved = s.seen.ids, s.flat, memory.first_cell, memory.moved
    for row in s.enemy:
        pid, flat = ids[row], flats[row]
        if first[pid] < 0:
            first[pid] = flat
        elif first[pid] != flat:
            moved[pid] = True


@kernel
def _remember(s: Sight, memory: Memory) -> None:
    """Enemy pieces seen to move (so not chiefs), and the defence its failed attacks showed."""
    seen = s.seen
    note_moves(s, memory)
    for c in seen.combats:
        if c[C_PLAYER] == seen.player and c[C_ATTACK] <= c[C_DEFENCE]:
            memory.mark_turn[c[C_TARGET]] = seen.turn
            memory.mark_value[c[C_TARGET]] = c[C_DEFENCE]


@kernel
def _winning(
    s: Sight, t: Tables, memory: Memory, hit: np.ndarray, rows: IntArray
) -> tuple[int, int, int, IntArray]:
    """The best attack the own pieces win on one of ``rows`` (visible enemies), ranked by
    (suspected chief, target's type cost, margin, fewer attackers), the first of equals."""
    seen = s.seen
    strengths, owners, cells = s.strengths, seen.owners, seen.cells
    enemy, mobile = s.enemy, s.mobile
    defence_all = t.defence_all
    best_key = (-1, -1, -1, -1)
    best_row = -1
    best = _NO_PIECES
    for row in rows:
        j = np.searchsorted(enemy, row)
        if not hit[:, j].any():  # (checked before the attackers are gathered: most rows)
            continue
        attackers = mobile[hit[:, j]]
        defence = defence_k(strengths, owners, cells, row, defence_all)  # as far as it sees
        pid = seen.ids[row]
        if seen.turn - memory.mark_turn[pid] < MEMORY:  # hidden (invisible) defenders seen
            defence = max(defence, memory.mark_value[pid])
        margin = strengths[attackers].sum() - defence
        if margin > 0:
            kind = seen.types[row]
            suspect = 1 if kind != FORTRESS and not memory.moved[pid] else 0
            key = (suspect, int(t.type_cost[kind]), margin, -len(attackers))
            if best_row < 0 or key > best_key:
                best_key, best_row, best = key, row, attackers
    if best_row < 0:
        return NONE, 0, 0, _NO_PIECES
    return ATTACK, 0, int(s.flat[best_row]), seen.ids[best]


@kernel
def _nearest(s: Sight, flats: IntArray) -> IntArray:
    """Per flat cell, the distance to the nearest visible enemy (R1)."""
    out = np.empty(len(flats), dtype=np.int64)
    n, m = s.dims[1], s.dims[2]
    for i in range(len(flats)):
        zy, x = divmod(flats[i], m)
        z, y = divmod(zy, n)
        out[i] = nearest(s.enemy_cells, z, y, x)
    return out


@kernel
def _guard(
    s: Sight, t: Tables, memory: Memory, hit: np.ndarray, rng: np.random.Generator
) -> tuple[int, int, int, IntArray]:
    """If the chief is threatened: the best winning attack on a threat, else a move of the
    chief to the free cell farthest from the enemy (if that is farther than now)."""
    if s.chief < 0:
        return NONE, 0, 0, _NO_PIECES
    seen = s.seen
    here = seen.cells[s.chief]
    gap = np.empty(len(s.enemy), dtype=np.int64)
    for i in range(len(s.enemy)):
        c = s.enemy_cells[i]
        gap[i] = max(abs(c[0] - here[0]), abs(c[1] - here[1]), abs(c[2] - here[2]))
    threats = s.enemy[gap <= s.fields[s.enemy] + 1]
    if not len(threats):
        return NONE, 0, 0, _NO_PIECES
    defence = visible_defence(s, t, s.chief)
    by_owner = np.zeros(len(t.zones), dtype=np.int64)
    for row in threats:
        by_owner[seen.owners[row]] += s.strengths[row]
    if by_owner.max() < defence:
        return NONE, 0, 0, _NO_PIECES
    kind, piece, cell, pieces = _winning(s, t, memory, hit, threats)
    if kind != NONE:
        return kind, piece, cell, pieces
    mine = free_reach(s, s.chief)
    if not len(mine):
        return NONE, 0, 0, _NO_PIECES
    far = _nearest(s, mine)
    if far.max() <= gap.min():
        return NONE, 0, 0, _NO_PIECES
    best = np.flatnonzero(far == far.max())
    pick = mine[best[rng.integers(0, len(best))]]
    return MOVE, int(seen.ids[s.chief]), int(pick), _NO_PIECES


@kernel
def _drift(s: Sight, rng: np.random.Generator) -> tuple[int, int, int]:
    """Still stuck (no winning attack, nobody can get nearer): a random non-chief piece steps
    to a random free cell no farther from the enemy, so stand-offs do not last."""
    movers = _without(s.mobile, s.chief)
    if not len(movers):
        return NONE, 0, 0
    row = movers[rng.integers(0, len(movers))]
    mine = free_reach(s, row)
    if not len(mine):
        return NONE, 0, 0
    now = _nearest(s, s.flat[row : row + 1])[0]
    keep = mine[_nearest(s, mine) <= now]
    if not len(keep):
        return NONE, 0, 0
    return MOVE, int(s.seen.ids[row]), int(keep[rng.integers(0, len(keep))])


@kernel
def _advance(s: Sight, movers: IntArray, rng: np.random.Generator) -> tuple[int, int, int]:
    """The mover nearest an enemy that can get nearer moves to the free cell nearest one."""
    if not len(movers):
        return NONE, 0, 0
    now = _nearest(s, s.flat[movers])
    for i in np.argsort(now, kind="mergesort"):  # the piece nearest an enemy first
        mine = free_reach(s, movers[i])
        if not len(mine):
            continue
        after = _nearest(s, mine)
        if after.min() < now[i]:  # then the cell nearest an enemy
            best = np.flatnonzero(after == after.min())
            pick = mine[best[rng.integers(0, len(best))]]
            return MOVE, int(s.seen.ids[movers[i]]), int(pick)
    return NONE, 0, 0
