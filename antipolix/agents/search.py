"""A search agent: determinized rollouts over a portfolio of the planner's orders (R4, R6, R8).

:class:`SearchAgent` asks the planner (with the ``tuned`` weights) for its scored orders and
keeps a portfolio of ``width`` of them: the planner's own choice, its best winning attack,
its best moves, and Pass. It then plays each one out ``rollouts`` times, ``depth`` turns deep:

- **determinized** (R6): the rollout board holds the pieces the agent sees, nothing else. It
  never reads the true state: its own pieces as they are; each enemy's chief drawn among that
  enemy's visible pieces with the planner's suspicion weights (a piece seen to move is rarely
  the chief, R8); other enemy traits are unknown and played as none; enemy invisible pieces,
  unseen, are not placed;
- **played** by the engine itself (:func:`~antipolix.turn.play_turn_k`, R4, R7, R8): on the
  first turn the agent's seat plays the candidate and every other seat the planner's choice
  from its own view of the rollout board; then every seat plays the planner's choice;
- **valued** by material (R2 costs of the living pieces: the agent's own less the mean of its
  enemies') and by eliminations (the ``win`` weight per enemy eliminated, twice that for the
  agent's own).

Every candidate meets the same determinizations and the same random numbers (common random
numbers: rollout ``r`` of every candidate draws from generators seeded alike), so that the
comparison measures the candidates, not the dice. The best mean wins; ties keep the earlier
candidate (the planner's choice first). All randomness comes from the agent's generator (R12).

Budget: ``width`` candidates × ``rollouts`` × ``depth`` turns; the decision takes about that
many planner decisions per seat (``experiments/bench_games.py --agents search``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numba
import numpy as np

from antipolix.agents.army import ArmyPolicy
from antipolix.agents.base import Decision, decision_of
from antipolix.agents.memory import COUNTERS, HIDDEN_TURNS, NEVER, Choice, Memory, make_memory
from antipolix.agents.planner import (
    I_MOVED_SUSPECT,
    I_WIN,
    FloatArray,
    _best_attack,
    _draw_offer,
    _read,
    hopeless,
    move_scores,
    opening,
    planner_act,
)
from antipolix.agents.sight import Sight, nearest
from antipolix.agents.tuned import TunedAgent
from antipolix.jit import kernel, packed
from antipolix.journal import clear, journal_for
from antipolix.observation import Observation, Seen, seen_k, seen_of
from antipolix.pieces import CHIEF, FORTRESS, NO_TRAIT, TELEPORTER
from antipolix.rules import Tables
from antipolix.state import COUNT, PHASE, TURN, Arrays, add_piece, make_arrays, new_arrays
from antipolix.turn import ATTACK, MOVE, PASS, PLAYING, over, play_turn_k, submissions
from antipolix.world import IntArray

GENERATOR = numba.typeof(np.random.default_rng(0))
ROLLOUT_THINK = (0.2, 1.5)  # think times (R7) in rollouts: the planner's
ENDLESS = 1e12  # rollout timers (R7): the rollouts are too short for a clock to matter


@kernel
def search_act(
    t: Tables,
    seen: Seen,
    memory: Memory,
    params: FloatArray,
    w: FloatArray,
    rng: np.random.Generator,
) -> Choice:
    """:class:`SearchAgent`'s decision: ``params`` are min and max think time, rollouts, depth
    and width; ``w`` the planner's weights."""
    think, s, unit = opening(t, seen, memory, params[0], params[1], rng)
    rollouts, depth, width = int(params[2]), int(params[3]), int(params[4])
    none = np.empty(0, dtype=np.int64)
    kind, piece, cell, pieces = PASS, 0, 0, none
    dead = False
    if len(s.enemy) and len(s.mobile):
        tn = _read(t, s, memory, unit, w)
        a_score, a_flat, a_rows = _best_attack(tn, s)
        scores, rows, dests = move_scores(t, tn, s, rng)
        kinds, movers, cells = _portfolio(a_score, a_flat, len(a_rows), scores, rows, dests, width)
        attackers = seen.ids[a_rows]
        pick = 0
        if len(kinds) > 1 and rollouts > 0 and depth > 0 and _contact(t, s, depth):
            pick = _search(t, s, memory, w, kinds, movers, cells, attackers, rollouts, depth, rng)
        kind, piece, cell = kinds[pick], movers[pick], cells[pick]
        if kind == MOVE:
            piece = seen.ids[piece]
        pieces = attackers if kind == ATTACK else none
        dead = hopeless(tn, s)
    elif len(s.enemy):
        dead = True  # nothing left that can attack (fortresses only, R2)
    command = _draw_offer(memory, seen.turn, dead)
    return kind, piece, cell, pieces, think, command


@kernel
def _contact(t: Tables, s: Sight, depth: int) -> bool:
    """May a piece be taken within ``depth`` turns of a rollout? Not when every own piece is
    farther from every visible enemy piece than ``depth`` moves of each side could close and
    one more could strike (R5: one order a turn, R4), and the agent has no teleporters: then
    every candidate's rollouts end in the same material, and the planner's choice stands."""
    if len(s.tcells):
        return True
    f_own, f_enemy = 0, 0
    for r in s.mobile:
        f_own = max(f_own, s.fields[r])
    for r in s.enemy:
        f_enemy = max(f_enemy, s.fields[r])
    span = depth * (f_own + f_enemy) + max(f_own, f_enemy)
    for r in s.own:
        c = s.seen.cells[r]
        if nearest(s.enemy_cells, c[0], c[1], c[2]) <= span:
            return True
    return False


@kernel
def _portfolio(
    a_score: float,
    a_flat: int,
    n_attackers: int,
    scores: FloatArray,
    rows: IntArray,
    dests: IntArray,
    width: int,
) -> tuple[IntArray, IntArray, IntArray]:
    """Up to ``width`` candidate orders (kind, mover's row, flat cell): the planner's choice
    (its best winning attack, or its best move if that scores higher, else Pass), then its
    best attack if not chosen, its best moves by score, and Pass."""
    width = max(width, 1)
    kinds = np.empty(width, dtype=np.int64)
    movers = np.zeros(width, dtype=np.int64)
    cells = np.zeros(width, dtype=np.int64)
    order = np.argsort(-scores, kind="mergesort")  # best first, ties in candidate order
    n = 0
    best_move = order[0] if len(order) else -1
    attack_first = n_attackers > 0 and not (best_move >= 0 and scores[best_move] > a_score)
    if attack_first:
        kinds[0], cells[0] = ATTACK, a_flat
        n = 1
    elif best_move >= 0:
        kinds[0], movers[0], cells[0] = MOVE, rows[best_move], dests[best_move]
        n = 1
    else:
        kinds[0] = PASS
        return kinds[:1], movers[:1], cells[:1]
    if n < width and n_attackers > 0 and not attack_first:
        kinds[n], cells[n] = ATTACK, a_flat
        n += 1
    for u in range(len(order)):
        if n >= width - 1:
            break
        k = order[u]
        if k == best_move and not attack_first:
            continue
        kinds[n], movers[n], cells[n] = MOVE, rows[k], dests[k]
        n += 1
    if n < width:
        kinds[n] = PASS
        n += 1
    return kinds[:n], movers[:n], cells[:n]


@kernel
def _search(
    t: Tables,
    s: Sight,
    memory: Memory,
    w: FloatArray,
    kinds: IntArray,
    movers: IntArray,
    cells: IntArray,
    attackers: IntArray,
    rollouts: int,
    depth: int,
    rng: np.random.Generator,
) -> int:
    """The candidate with the best mean rollout value (the first of equals)."""
    n = len(kinds)
    total = np.zeros(n)
    me = s.seen.player
    for _ in range(rollouts):
        base = _determinized(t, s, _chiefs(t, s, memory, w, rng))
        seed = rng.integers(0, 1 << 62)  # the same numbers for every candidate
        for c in range(n):
            with numba.objmode(engine=GENERATOR, agents=GENERATOR):
                engine = np.random.Generator(np.random.PCG64(np.array([seed, 0])))
                agents = np.random.Generator(np.random.PCG64(np.array([seed, 1])))
            piece = s.seen.ids[movers[c]] if kinds[c] == MOVE else 0
            order = (kinds[c], piece, cells[c])
            total[c] += _rollout(t, base, me, order, attackers, depth, w, engine, agents)
    best = 0
    for c in range(1, n):
        if total[c] > total[best]:
            best = c
    return best


@kernel
def _chiefs(
    t: Tables, s: Sight, memory: Memory, w: FloatArray, rng: np.random.Generator
) -> IntArray:
    """Per player, the row (in the observation) of its chief in this determinization: the
    agent's own as it knows it; each enemy's drawn among its visible pieces, a piece never
    seen to move weighing 1, one seen to move ``moved_suspect``, a fortress 0.3 times that
    (as the planner suspects them, R8). -1: no visible piece."""
    seen = s.seen
    out = np.full(t.players, -1, dtype=np.int64)
    out[seen.player] = s.chief
    weight = np.zeros(len(seen.ids))
    total = np.zeros(t.players)
    for r in s.enemy:
        weight[r] = w[I_MOVED_SUSPECT] if memory.moved[seen.ids[r]] else 1.0
        if seen.types[r] == FORTRESS:
            weight[r] *= 0.3
        total[seen.owners[r]] += weight[r]
    for o in range(t.players):
        if o == seen.player or total[o] <= 0:
            continue
        u = rng.random() * total[o]
        for r in s.enemy:
            if seen.owners[r] != o:
                continue
            out[o] = r
            u -= weight[r]
            if u < 0:
                break
    return out


@kernel
def _determinized(t: Tables, s: Sight, chiefs: IntArray) -> Arrays:
    """A board of the pieces the agent sees (R6), with these chiefs, ready to play."""
    seen = s.seen
    k = len(seen.ids)
    teleporters = 0
    for r in range(k):
        teleporters += 1 if seen.traits[r] == TELEPORTER else 0
    a = new_arrays(t.shape, t.players, k, teleporters, np.zeros(2, dtype=np.uint64))
    a.living[:] = False
    for r in range(k):
        owner = seen.owners[r]
        trait = seen.traits[r]
        if owner != seen.player:
            trait = CHIEF if chiefs[owner] == r else NO_TRAIT
        add_piece(a, owner, seen.types[r], trait, s.flat[r], seen.ids[r])
        a.living[owner] = True
    a.timers[:] = ENDLESS
    a.meta[TURN] = seen.turn
    a.meta[PHASE] = PLAYING
    return a


@kernel
def _copy(a: Arrays) -> Arrays:
    return make_arrays(
        a.dims.copy(), a.grid.copy(), a.owner.copy(), a.kind.copy(), a.trait.copy(),
        a.pos.copy(), a.alive.copy(), a.ids.copy(), a.rows.copy(), a.chief.copy(),
        a.spent.copy(), a.net_ok.copy(), a.net_n.copy(), a.net_cells.copy(),
        a.net_labels.copy(), a.living.copy(), a.nul.copy(), a.elim.copy(), a.timers.copy(),
        a.arrived.copy(), a.clock.copy(), a.keys.copy(), a.meta.copy(),
    )  # fmt: skip


@kernel
def _rollout(
    t: Tables,
    base: Arrays,
    me: int,
    order: tuple[int, int, int],
    attackers: IntArray,
    depth: int,
    w: FloatArray,
    engine: np.random.Generator,
    agents: np.random.Generator,
) -> float:
    """Play ``depth`` turns from ``base``, the agent's first order ``order`` (kind, piece,
    flat cell; an attack by ``attackers``), every other order the planner's; the value of the
    end (:func:`_value`)."""
    a = _copy(base)
    players = t.players
    cells = len(a.grid)
    pieces = a.meta[COUNT]
    j = journal_for(players, pieces, pieces, players)
    sub = submissions(players, pieces, players)
    first = np.full((players, cells), -1, dtype=np.int64)
    moved = np.zeros((players, cells), dtype=np.bool_)
    kinds = np.full((players, cells), -1, dtype=np.int64)
    mark_turn = np.full((players, cells), NEVER, dtype=np.int64)
    mark_value = np.zeros((players, cells), dtype=np.int64)
    hidden = np.zeros((players, HIDDEN_TURNS * players + players, 3), dtype=np.int64)
    counters = np.zeros((players, COUNTERS), dtype=np.int64)
    living = a.living.copy()
    none = np.empty(0, dtype=np.int64)
    for d in range(depth):
        if over(a):
            break
        listed = 0
        for p in range(players):
            sub.mail_start[p] = 0
            sub.orders[p, 0] = PASS
            if not a.living[p]:
                continue
            if d == 0 and p == me:
                kind, piece, cell = order
                ids = attackers if kind == ATTACK else none
                think = agents.uniform(ROLLOUT_THINK[0], ROLLOUT_THINK[1])
            else:
                mem = make_memory(
                    first[p], moved[p], kinds[p], mark_turn[p], mark_value[p], hidden[p],
                    counters[p],
                )  # fmt: skip
                kind, piece, cell, ids, think, _ = planner_act(
                    t, seen_k(a, j, p), mem, ROLLOUT_THINK[0], ROLLOUT_THINK[1], w, agents
                )
            sub.orders[p, 0], sub.orders[p, 1], sub.orders[p, 2] = kind, piece, cell
            sub.orders[p, 3], sub.orders[p, 4] = listed, listed + len(ids)
            sub.listed[listed : listed + len(ids)] = ids
            listed += len(ids)
            sub.times[p] = think
        sub.mail_start[players] = 0
        clear(j)
        play_turn_k(a, t, engine, sub, j)
    return _value(a, t, me, living, w)


@kernel
def _value(a: Arrays, t: Tables, me: int, living: np.ndarray, w: FloatArray) -> float:
    """The agent's material (R2 costs of its living pieces) less the mean of its enemies'
    (those living when the rollout began), ``win`` per enemy eliminated since, and twice
    ``win`` less if the agent itself was."""
    material = np.zeros(t.players)
    for row in range(a.meta[COUNT]):
        if a.alive[row]:
            material[a.owner[row]] += t.cost[a.kind[row], a.trait[row]]
    value = material[me]
    enemies, held = 0, 0.0
    for o in range(t.players):
        if o == me or not living[o]:
            continue
        if a.living[o]:
            enemies += 1
            held += material[o]
        else:
            value += w[I_WIN]
    if enemies:
        value -= held / enemies
    if not a.living[me]:
        value -= 2 * w[I_WIN]
    return float(value)


class SearchAgent(TunedAgent):
    """Determinized rollouts over the tuned planner's best orders (see the module docstring).

    ``rollouts`` per candidate, ``depth`` turns each, ``width`` candidates: the budget. Its
    army is the tuned agent's (one of four doctrines per game), its weights the tuned ones
    (``weights`` override them, as for :class:`~antipolix.agents.TunedAgent`).
    """

    name = "search"

    def __init__(
        self,
        army: ArmyPolicy | None = None,
        min_think: float = 0.2,
        max_think: float = 1.5,
        weights: Mapping[str, float] | None = None,
        rollouts: int = 4,
        depth: int = 2,
        width: int = 4,
    ) -> None:
        super().__init__(army, min_think, max_think, weights)
        for name, value, low in (
            ("rollouts", rollouts, 0),
            ("depth", depth, 0),
            ("width", width, 1),
        ):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
        self.rollouts, self.depth, self.width = int(rollouts), int(depth), int(width)

    def params(self) -> dict[str, Any]:
        return {
            **super().params(),
            "rollouts": self.rollouts,
            "depth": self.depth,
            "width": self.width,
        }

    def scalars(self) -> tuple[float, ...]:
        """The numbers :func:`search_act` takes (``params``)."""
        return (self.min_think, self.max_think, self.rollouts, self.depth, self.width)

    def act(self, obs: Observation) -> Decision:
        seen = packed(seen_of(obs, self.rules.shape))
        params = np.array(self.scalars(), dtype=np.float64)
        choice = search_act(self.rules.tables, seen, self._memory, params, self.weights, self.rng)
        return decision_of(choice, self.rules.shape)
