"""A search agent: determinized rollouts over a portfolio of playing styles (R4, R6, R8).

:class:`SearchAgent` plays the tuned planner's position value under ``width`` styles
(:data:`SCRIPTS`: the tuned weights themselves, then an attacking, a guarding and a hunting
variation of them). Each style proposes its order for this turn; when they disagree, each style
is played out ``rollouts`` times, ``depth`` turns deep, and the agent plays the first order of
the style whose rollouts end best (a portfolio search over scripts, as in RTS game AI: the
style is kept through the rollout, so that a plan is judged by where it leads, not by its
first step alone):

- **determinized** (R6): the rollout board holds the pieces the agent sees, nothing else. It
  never reads the true state: its own pieces as they are; each enemy's chief drawn among that
  enemy's visible pieces with the planner's suspicion weights (a piece seen to move is rarely
  the chief, R8); other enemy traits are unknown and played as none; enemy invisible pieces,
  unseen, are not placed;
- **played** by the engine itself (:func:`~antipolix.turn.play_turn_k`, R4, R7, R8): the
  agent's seat plays the style's order first, then the style from its own view of the rollout
  board, starting from the agent's memory; every other seat plays the tuned planner from its
  own view;
- **valued** by material (R2 costs of the living pieces: the agent's own less the mean of its
  enemies') and by eliminations (the ``win`` weight per enemy eliminated, twice that for the
  agent's own).

Every style meets the same determinizations and the same random numbers (common random
numbers: rollout ``r`` of every style draws from generators seeded alike), so that the
comparison measures the styles, not the dice. The best mean wins; ties keep the earlier style
(the tuned weights first). All randomness comes from the agent's generator (R12).

Budget: ``width`` styles × ``rollouts`` × ``depth`` turns, each turn one planner decision per
living seat (``experiments/bench_games.py --agents search`` measures it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from antipolix.agents.army import ArmyPolicy
from antipolix.agents.base import Decision, decision_of
from antipolix.agents.memory import (
    COUNTERS,
    HIDDEN_TURNS,
    NEVER,
    Choice,
    Memory,
    make_memory,
)
from antipolix.agents.planner import (
    I_ADVANCE,
    I_CRUSH,
    I_GUARD,
    I_HUNT,
    I_HUNT_MIN,
    I_MOVED_SUSPECT,
    I_P_NEAR,
    I_THREAT,
    I_WIN,
    WEIGHTS,
    FloatArray,
    chosen,
    draw_offer,
    hopeless,
    opening,
    planner_act,
    read_turn,
    reweighed,
)
from antipolix.agents.sight import Sight, nearest
from antipolix.agents.tuned import TunedAgent
from antipolix.jit import (
    PCG64_WORDS,
    Held,
    inlined,
    keep_pcg64,
    kernel,
    packed,
    record,
    restore_pcg64,
    seed_pcg64,
)
from antipolix.journal import Journal, clear, journal_for
from antipolix.observation import Observation, Seen, seen_k, seen_of
from antipolix.pieces import CHIEF, FORTRESS, NO_TRAIT, TELEPORTER
from antipolix.rules import Rules, Tables
from antipolix.state import COUNT, PHASE, TURN, Arrays, add_piece, make_arrays, new_arrays
from antipolix.turn import (
    ATTACK,
    PASS,
    PLAYING,
    Submissions,
    over,
    play_turn_k,
    submissions,
)
from antipolix.world import IntArray

ROLLOUT_THINK = (0.2, 1.5)  # think times (R7) in rollouts: the planner's
ENDLESS = 1e12  # rollout timers (R7): the rollouts are too short for a clock to matter
# the most rollouts and turns of depth an agent is given: a million rollouts make a decision of
# about an hour at depth 8 on one core (a decision of 16 takes about 1/18 s); the turns of
# depth, more than any game lasts (R10's turn limits)
MAX_ROLLOUTS = 1_000_000
MAX_DEPTH = 100_000


# The styles (rows): factors on the tuned weights (columns, WEIGHTS order).
SCRIPTS = np.ones((4, len(WEIGHTS)))
SCRIPT_NAMES = ("tuned", "attack", "guard", "hunt")
SCRIPTS[1, I_THREAT], SCRIPTS[1, I_ADVANCE], SCRIPTS[1, I_P_NEAR] = 2.0, 2.0, 0.5
SCRIPTS[2, I_GUARD], SCRIPTS[2, I_ADVANCE], SCRIPTS[2, I_P_NEAR] = 2.0, 0.5, 1.25
SCRIPTS[3, I_HUNT], SCRIPTS[3, I_HUNT_MIN], SCRIPTS[3, I_CRUSH] = 3.0, 0.0, 1.5
SCRIPTS.setflags(write=False)


@kernel
def _styles(w: FloatArray, width: int) -> FloatArray:
    """The first ``width`` styles' weights (:data:`SCRIPTS` times ``w``)."""
    n = min(width, len(SCRIPTS))
    out = np.empty((n, len(w)))
    for c in range(n):
        out[c] = w * SCRIPTS[c]
    return out


@inlined
def search_act(
    t: Tables,
    seen: Seen,
    memory: Memory,
    params: FloatArray,
    w: FloatArray,
    rng: np.random.Generator,
    scratch_engine: np.random.Generator,
    scratch_agents: np.random.Generator,
) -> Choice:
    """:class:`SearchAgent`'s decision: ``params`` are min and max think time, rollouts, depth
    and width; ``w`` the planner's weights. The rollouts seed ``scratch_engine`` and
    ``scratch_agents`` afresh (:class:`Scratch`)."""
    think, s, unit = opening(t, seen, memory, params[0], params[1], rng)
    rollouts, depth, width = int(params[2]), int(params[3]), int(params[4])
    none = np.empty(0, dtype=np.int64)
    kind, piece, cell, pieces = PASS, 0, 0, none
    dead = False
    if len(s.enemy) and len(s.mobile):
        ws = _styles(w, max(width, 1))
        n = len(ws)
        orders = np.zeros((n, 3), dtype=np.int64)  # kind, piece, flat cell
        lists = np.zeros((n, len(seen.ids)), dtype=np.int64)  # attackers
        listed = np.zeros(n, dtype=np.int64)
        differ = False
        tn = read_turn(t, s, memory, unit, w)
        for c in range(n):
            tc = tn if c == 0 else reweighed(t, s, memory, tn, ws[c])
            orders[c, 0], orders[c, 1], orders[c, 2], ids = chosen(t, tc, s, rng)
            listed[c] = len(ids)
            lists[c, : len(ids)] = ids
            for a in range(3):
                differ = differ or orders[c, a] != orders[0, a]
        pick = 0
        if differ and rollouts > 0 and depth > 0 and _contact(t, s, depth):
            pick = _search(
                t, s, memory, w, ws, orders, lists, listed, rollouts, depth, rng,
                scratch_engine, scratch_agents,
            )  # fmt: skip
        kind, piece, cell = orders[pick, 0], orders[pick, 1], orders[pick, 2]
        pieces = lists[pick, : listed[pick]].copy()
        dead = hopeless(tn, s)
    elif len(s.enemy):
        dead = True  # nothing left that can attack (fortresses only, R2)
    command = draw_offer(memory, seen.turn, dead)
    return kind, piece, cell, pieces, think, command


@kernel
def search_act_held(
    t: Tables,
    seen: Seen,
    memory: Memory,
    params: FloatArray,
    w: FloatArray,
    holder: Held,
    scratch: Scratch,
) -> Choice:
    """:func:`search_act` called from Python, its generator held (:func:`antipolix.jit.held`)."""
    return search_act(t, seen, memory, params, w, holder.rng, scratch.engine, scratch.agents)


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


@inlined
def _search(
    t: Tables,
    s: Sight,
    memory: Memory,
    w: FloatArray,
    ws: FloatArray,
    orders: IntArray,
    lists: IntArray,
    listed: IntArray,
    rollouts: int,
    depth: int,
    rng: np.random.Generator,
    engine: np.random.Generator,
    agents: np.random.Generator,
) -> int:
    """The style with the best mean rollout value (the first of equals). The other seats'
    first orders in a rollout are the same whatever the style (the same board, memories and
    numbers): they are decided once a rollout (:func:`_first_orders`), and every style's
    rollout goes on from copies of what they left (memories and the agents' generator).
    Styles with the same first order play their rollouts together for as long as the agent's
    decisions under them agree (:func:`_rollout`). A rollout's engine and agents draw from
    ``engine`` and ``agents`` seeded for it (:class:`Scratch`)."""
    n = len(ws)
    total = np.zeros(n)
    me = s.seen.player
    leader = _same_first(orders, lists, listed)
    engine_at, agents_at = _state_room(), _state_room()
    for _ in range(rollouts):
        base = _determinized(t, s, _chiefs(t, s, memory, w, rng))
        seed = rng.integers(0, 1 << 62)  # the same numbers for every style
        seed_pcg64(agents, seed, 1)  # (as np.random.PCG64(np.array([seed, 1])) starts)
        seed_pcg64(engine, seed, 0)
        minds = _minds(t.players, len(base.grid), memory, me)
        first = _first_orders(t, base, me, w, minds, agents)
        keep_pcg64(engine, engine_at)
        keep_pcg64(agents, agents_at)  # (as the first orders left it)
        for c in range(n):
            if leader[c] != c:
                continue  # (played with the first style of its first order)
            restore_pcg64(engine, engine_at)
            restore_pcg64(agents, agents_at)
            order = (orders[c, 0], orders[c, 1], orders[c, 2])
            attackers = lists[c, : listed[c]].copy()
            members = np.flatnonzero(leader == c)
            values = _rollout(
                t, base, me, order, attackers, depth, ws[members], w, first, _copy_minds(minds),
                engine, agents,
            )  # fmt: skip
            for u in range(len(members)):
                total[members[u]] += values[u]
    best = 0
    for c in range(1, n):
        if total[c] > total[best]:
            best = c
    return best


@kernel
def _same_first(orders: IntArray, lists: IntArray, listed: IntArray) -> IntArray:
    """Per style, the first style with the same first order (kind, piece, cell, attackers)."""
    n = len(orders)
    leader = np.arange(n)
    for c in range(n):
        for b in range(c):
            if leader[b] == b and _same_order(orders, lists, listed, b, c):
                leader[c] = b
                break
    return leader


@kernel
def _same_order(orders: IntArray, lists: IntArray, listed: IntArray, b: int, c: int) -> bool:
    """Are orders ``b`` and ``c`` (rows of ``orders``; attackers ``lists[b, :listed[b]]``)
    the same?"""
    if listed[b] != listed[c]:
        return False
    for a in range(3):
        if orders[b, a] != orders[c, a]:
            return False
    same = True
    for x in range(listed[c]):
        same = same and lists[b, x] == lists[c, x]
    return same


# A generator's state kept aside (:func:`~antipolix.jit.keep_pcg64`) and put back
# (:func:`~antipolix.jit.restore_pcg64`) draws the same numbers again: a rollout's styles, and the
# agent's decision under each style, draw from one generator put back each time (a new generator
# costs ten times more).


class Scratch(NamedTuple):
    """Two generators for a search's rollouts, held for kernels (:func:`~antipolix.jit.packed`
    from :func:`scratch_generators`, kept alive as long as the holder): each rollout seeds
    them afresh (:func:`~antipolix.jit.seed_pcg64`, the states
    ``np.random.PCG64(np.array([seed, 0]))`` and ``[seed, 1]`` start in), so what they drew
    before changes nothing, and one pair can serve every decision and game of a process.
    Compiled code cannot make a generator; making the two in object mode cost about 57 µs a
    rollout."""

    engine: np.random.Generator
    agents: np.random.Generator


record(Scratch)


def scratch_generators() -> tuple[np.random.Generator, np.random.Generator]:
    """Two generators for :class:`Scratch` (their first states do not matter)."""
    return np.random.default_rng(0), np.random.default_rng(1)


@kernel
def _state_room() -> np.ndarray:
    """Room for a generator's state (:func:`~antipolix.jit.keep_pcg64`)."""
    return np.zeros(PCG64_WORDS, dtype=np.uint64)


class Minds(NamedTuple):
    """Every seat's planner memory in a rollout (:class:`~antipolix.agents.memory.Memory`'s
    arrays, a row a seat): the agent's own as it stands, the others' from nothing (R6)."""

    first: IntArray
    moved: np.ndarray
    kinds: IntArray
    mark_turn: IntArray
    mark_value: IntArray
    hidden: IntArray
    counters: IntArray


make_minds = record(Minds)


class FirstOrders(NamedTuple):
    """The seats' orders of a rollout's first turn, but the agent's own (its style's): per
    seat kind, piece and flat cell (``orders``), its attackers (``pieces[starts[p]:starts[p +
    1]]``) and think time (all Pass if the board was over)."""

    orders: IntArray  # (players, 3)
    pieces: IntArray
    starts: IntArray  # (players + 1,)
    times: FloatArray


make_first_orders = record(FirstOrders)


@kernel
def _minds(players: int, cells: int, memory: Memory, me: int) -> Minds:
    """The seats' memories as a rollout begins (see :class:`Minds`)."""
    first = np.full((players, cells), -1, dtype=np.int64)
    moved = np.zeros((players, cells), dtype=np.bool_)
    kinds = np.full((players, cells), -1, dtype=np.int64)
    mark_turn = np.full((players, cells), NEVER, dtype=np.int64)
    mark_value = np.zeros((players, cells), dtype=np.int64)
    hidden = np.zeros((players, HIDDEN_TURNS * players + players, 3), dtype=np.int64)
    counters = np.zeros((players, COUNTERS), dtype=np.int64)
    first[me], moved[me], kinds[me] = memory.first_cell, memory.moved, memory.seen_type
    mark_turn[me], mark_value[me] = memory.mark_turn, memory.mark_value
    hidden[me], counters[me] = memory.hidden, memory.counters
    return make_minds(first, moved, kinds, mark_turn, mark_value, hidden, counters)


@kernel
def _copy_minds(m: Minds) -> Minds:
    return make_minds(
        m.first.copy(), m.moved.copy(), m.kinds.copy(), m.mark_turn.copy(),
        m.mark_value.copy(), m.hidden.copy(), m.counters.copy(),
    )  # fmt: skip


@inlined
def _decide(
    t: Tables,
    a: Arrays,
    j: Journal,
    p: int,
    minds: Minds,
    w: FloatArray,
    agents: np.random.Generator,
) -> tuple[int, int, int, IntArray, float]:
    """Seat ``p``'s planner decision with weights ``w`` on the rollout board, from its own
    view (R6) and its memory in ``minds``."""
    kind, piece, cell, ids, think, _ = planner_act(
        t, seen_k(a, j, p), _mind(minds, p), ROLLOUT_THINK[0], ROLLOUT_THINK[1], w, agents
    )
    return kind, piece, cell, ids, think


@kernel
def _mind(minds: Minds, p: int) -> Memory:
    """Seat ``p``'s memory in ``minds`` (its rows, not a copy)."""
    return make_memory(
        minds.first[p], minds.moved[p], minds.kinds[p], minds.mark_turn[p],
        minds.mark_value[p], minds.hidden[p], minds.counters[p],
    )  # fmt: skip


@kernel
def _first_orders(
    t: Tables, base: Arrays, me: int, w: FloatArray, minds: Minds, agents: np.random.Generator
) -> FirstOrders:
    """The first turn's orders of every seat but the agent's, each the planner with weights
    ``w`` from its own view of ``base``; the agent's think time drawn in its place (seat
    order), as :func:`_rollout` draws them."""
    players = t.players
    orders = np.zeros((players, 3), dtype=np.int64)
    orders[:, 0] = PASS
    starts = np.zeros(players + 1, dtype=np.int64)
    times = np.zeros(players)
    pieces = np.empty(base.meta[COUNT], dtype=np.int64)
    if over(base):
        return make_first_orders(orders, pieces[:0], starts, times)
    j = journal_for(players, base.meta[COUNT], base.meta[COUNT], players)
    for p in range(players):
        starts[p + 1] = starts[p]
        if not base.living[p]:
            continue
        if p == me:
            times[p] = agents.uniform(ROLLOUT_THINK[0], ROLLOUT_THINK[1])
            continue
        kind, piece, cell, ids, think = _decide(t, base, j, p, minds, w, agents)
        orders[p, 0], orders[p, 1], orders[p, 2], times[p] = kind, piece, cell, think
        pieces[starts[p] : starts[p] + len(ids)] = ids
        starts[p + 1] += len(ids)
    return make_first_orders(orders, pieces[: starts[players]], starts, times)


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


class Orders(NamedTuple):
    """The orders of one turn of a rollout, a row per seat (``kind``: ``PASS`` for a seat not
    living): kind, piece, flat cell, think time and attackers (``ids[row, :n[row]]``); and the
    agent's order under each style of a shared rollout, a row per style: ``mine`` (kind,
    piece, flat cell) and its attackers (``mine_ids[row, :mine_n[row]]``)."""

    kind: IntArray
    piece: IntArray
    cell: IntArray
    think: FloatArray
    ids: IntArray
    n: IntArray
    mine: IntArray  # (styles, 3)
    mine_ids: IntArray
    mine_n: IntArray


make_orders = record(Orders)


@kernel
def _rollout(
    t: Tables,
    base: Arrays,
    me: int,
    order: tuple[int, int, int],
    attackers: IntArray,
    depth: int,
    styles: FloatArray,
    w: FloatArray,
    first: FirstOrders,
    minds: Minds,
    engine: np.random.Generator,
    agents: np.random.Generator,
) -> FloatArray:
    """Play ``depth`` turns from ``base`` for each style of ``styles`` (rows of weights) whose
    first order is ``order`` (kind, piece, flat cell; an attack by ``attackers``): after it,
    the agent plays the planner with its style's weights from its memory, every other seat
    the planner with weights ``w`` from an empty memory, its first order ``first``'s
    (``minds`` and ``agents`` as those left them). The value of each end (:func:`_value`), a
    style a row.

    While the agent's orders agree under every style, so do the boards and every other seat's
    orders: they are decided and played once. (A planner decision's draws from the agents'
    generator and its changes to the memory do not depend on its weights: only the order
    chosen does.) From the first turn where they differ, each style plays on alone, from
    copies of the board, the memories and the generators."""
    n = len(styles)
    a = _copy(base)
    players = t.players
    pieces = a.meta[COUNT]
    j = journal_for(players, pieces, pieces, players)
    sub = submissions(players, pieces, players)
    living = a.living.copy()
    turn = _new_orders(players, pieces, n)
    for d in range(depth):
        if over(a):
            break
        if d == 0:
            _first_turn(a, me, order, attackers, first, turn)
        else:
            _decide_turn(t, a, j, me, styles, w, minds, agents, turn)
        if n > 1 and _split(turn):  # each style on alone from this turn
            out = np.empty(n)
            engine_at, agents_at = _state_room(), _state_room()
            keep_pcg64(engine, engine_at)
            keep_pcg64(agents, agents_at)
            for u in range(n - 1, -1, -1):  # (the first style last, on the originals)
                restore_pcg64(engine, engine_at)
                restore_pcg64(agents, agents_at)
                a_u = a if u == 0 else _copy(a)
                minds_u = minds if u == 0 else _copy_minds(minds)
                _fill(sub, a_u, me, turn, u)
                clear(j)
                play_turn_k(a_u, t, engine, sub, j)
                out[u] = _play_on(
                    t, a_u, j, sub, me, d + 1, depth, styles[u : u + 1], w, minds_u, engine,
                    agents, living, _new_orders(players, pieces, 1),
                )  # fmt: skip
            return out
        _fill(sub, a, me, turn, 0)
        clear(j)
        play_turn_k(a, t, engine, sub, j)
    return np.full(n, _value(a, t, me, living, w))


@kernel
def _new_orders(players: int, pieces: int, n: int) -> Orders:
    """Room for one turn's orders (see :class:`Orders`), ``n`` styles."""
    return make_orders(
        np.zeros(players, dtype=np.int64), np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.int64), np.zeros(players),
        np.zeros((players, pieces), dtype=np.int64), np.zeros(players, dtype=np.int64),
        np.zeros((n, 3), dtype=np.int64), np.zeros((n, pieces), dtype=np.int64),
        np.zeros(n, dtype=np.int64),
    )  # fmt: skip


@inlined
def _play_on(
    t: Tables,
    a: Arrays,
    j: Journal,
    sub: Submissions,
    me: int,
    start: int,
    depth: int,
    mine: FloatArray,
    w: FloatArray,
    minds: Minds,
    engine: np.random.Generator,
    agents: np.random.Generator,
    living: np.ndarray,
    turn: Orders,
) -> float:
    """One style's rollout (``mine``: its weights, one row) from turn ``start`` on: every
    seat decides, the engine plays; the value of the end."""
    for _ in range(start, depth):
        if over(a):
            break
        _decide_turn(t, a, j, me, mine, w, minds, agents, turn)
        _fill(sub, a, me, turn, 0)
        clear(j)
        play_turn_k(a, t, engine, sub, j)
    return _value(a, t, me, living, w)


@kernel
def _first_turn(
    a: Arrays,
    me: int,
    order: tuple[int, int, int],
    attackers: IntArray,
    first: FirstOrders,
    turn: Orders,
) -> None:
    """A rollout's first turn's orders into ``turn``: the agent's ``order`` (the same under
    every style), the others' from ``first``."""
    for p in range(len(turn.kind)):
        if not a.living[p]:
            continue
        if p == me:
            kind, piece, cell = order
            n_ids = len(attackers) if kind == ATTACK else 0
            for u in range(len(turn.mine)):
                turn.mine[u, 0], turn.mine[u, 1], turn.mine[u, 2] = kind, piece, cell
                turn.mine_n[u] = n_ids
                turn.mine_ids[u, :n_ids] = attackers[:n_ids]
        else:
            kind, piece, cell = first.orders[p, 0], first.orders[p, 1], first.orders[p, 2]
            ids = first.pieces[first.starts[p] : first.starts[p + 1]]
            n_ids = len(ids)
            turn.ids[p, :n_ids] = ids
        turn.kind[p], turn.piece[p], turn.cell[p], turn.n[p] = kind, piece, cell, n_ids
        turn.think[p] = first.times[p]


@inlined
def _decide_turn(
    t: Tables,
    a: Arrays,
    j: Journal,
    me: int,
    styles: FloatArray,
    w: FloatArray,
    minds: Minds,
    agents: np.random.Generator,
    turn: Orders,
) -> None:
    """Every living seat's decision on the rollout board, in seat order, into ``turn``: the
    agent's under each style of ``styles``, each from the same memory and numbers
    (:func:`_decide_styles`), the others' with ``w``."""
    for p in range(len(turn.kind)):
        if not a.living[p]:
            continue
        if p == me:
            think = _decide_styles(t, a, j, p, _mind(minds, p), styles, agents, turn)
        else:
            k, pc, c, ids, think = _decide(t, a, j, p, minds, w, agents)
            turn.ids[p, : len(ids)] = ids
            turn.kind[p], turn.piece[p], turn.cell[p], turn.n[p] = k, pc, c, len(ids)
        turn.think[p] = think


@inlined
def _decide_styles(
    t: Tables,
    a: Arrays,
    j: Journal,
    p: int,
    memory: Memory,
    styles: FloatArray,
    agents: np.random.Generator,
    turn: Orders,
) -> float:
    """Seat ``p``'s planner decision under each style of ``styles`` into ``turn``'s rows of
    the agent (``mine``), from ``memory``: the decisions a planner with each style's weights
    makes from a copy of the memory and the same numbers. They differ in the weights only, so
    the turn is opened and read once (:func:`~antipolix.agents.planner.reweighed` for each
    style after the first), each style's order drawn from the numbers the opening left
    (``agents`` put back before each, the first style's last). Returns the think time."""
    seen = seen_k(a, j, p)
    think, s, unit = opening(t, seen, memory, ROLLOUT_THINK[0], ROLLOUT_THINK[1], agents)
    n = len(styles)
    turn.mine[:n, 0], turn.mine[:n, 1], turn.mine[:n, 2], turn.mine_n[:n] = PASS, 0, 0, 0
    dead = False
    if len(s.enemy) and len(s.mobile):
        first = read_turn(t, s, memory, unit, styles[0])
        at = _state_room()
        keep_pcg64(agents, at)
        for u in range(n - 1, -1, -1):
            restore_pcg64(agents, at)
            tn = first if u == 0 else reweighed(t, s, memory, first, styles[u])
            k, pc, c, ids = chosen(t, tn, s, agents)
            turn.mine[u, 0], turn.mine[u, 1], turn.mine[u, 2] = k, pc, c
            turn.mine_n[u] = len(ids)
            turn.mine_ids[u, : len(ids)] = ids
        dead = hopeless(first, s)
    elif len(s.enemy):
        dead = True  # (as the planner: fortresses only, R2)
    draw_offer(memory, seen.turn, dead)  # (its draw offer: the memory's, R9)
    return think


@kernel
def _split(turn: Orders) -> bool:
    """Does the agent's order this turn differ from one style to another?"""
    for u in range(1, len(turn.mine)):
        if not _same_order(turn.mine, turn.mine_ids, turn.mine_n, 0, u):
            return True
    return False


@kernel
def _fill(sub: Submissions, a: Arrays, me: int, turn: Orders, u: int) -> None:
    """The turn's submissions from ``turn``, the agent's order under style ``u`` (seat order;
    no messages)."""
    listed = 0
    for p in range(len(turn.kind)):
        sub.mail_start[p] = 0
        sub.orders[p, 0] = PASS
        if not a.living[p]:
            continue
        if p == me:
            kind, piece, cell = turn.mine[u, 0], turn.mine[u, 1], turn.mine[u, 2]
            n_ids = turn.mine_n[u]
            sub.listed[listed : listed + n_ids] = turn.mine_ids[u, :n_ids]
        else:
            kind, piece, cell, n_ids = turn.kind[p], turn.piece[p], turn.cell[p], turn.n[p]
            sub.listed[listed : listed + n_ids] = turn.ids[p, :n_ids]
        sub.orders[p, 0], sub.orders[p, 1], sub.orders[p, 2] = kind, piece, cell
        sub.orders[p, 3], sub.orders[p, 4] = listed, listed + n_ids
        listed += n_ids
        sub.times[p] = turn.think[p]
    sub.mail_start[len(turn.kind)] = 0


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
    """Determinized rollouts over a portfolio of playing styles (see the module docstring).

    ``width`` styles (1 to 4, the first ``width`` of :data:`SCRIPT_NAMES`), ``rollouts`` per
    style, ``depth`` turns each: the budget. Its army is the tuned agent's (one of four
    doctrines per game), its weights the tuned ones (``weights`` override them, as for
    :class:`~antipolix.agents.TunedAgent`; the styles scale them).

    The default budget, 16 rollouts, is the one measured to beat ``tuned`` in at least 65 %
    of decided 2-player games (110 of 162, 68 %, in 200 games on seeds 10000 + i); at 8 the
    pooled share was 64.9 % (159 of 245), at twice the speed.
    """

    name = "search"

    def __init__(
        self,
        army: ArmyPolicy | None = None,
        min_think: float = 0.2,
        max_think: float = 1.5,
        weights: Mapping[str, float] | None = None,
        rollouts: int = 16,
        depth: int = 8,
        width: int = 4,
    ) -> None:
        super().__init__(army, min_think, max_think, weights)
        styles = f" (the styles: {', '.join(SCRIPT_NAMES)})"
        for name, value, low, high, why in (  # (the kernel reads them as float64 numbers)
            ("rollouts", rollouts, 0, MAX_ROLLOUTS, ""),
            ("depth", depth, 0, MAX_DEPTH, ""),
            ("width", width, 1, len(SCRIPTS), styles),
        ):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
            if value > high:
                raise ValueError(f"{name} must be at most {high:,}{why}, got {value:,}")
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

    def setup(self, rules: Rules, seat: int, rng: np.random.Generator) -> None:
        super().setup(rules, seat, rng)
        self._scratch_rngs = scratch_generators()  # (alive as long as their holder)
        self._scratch = packed(Scratch(*self._scratch_rngs))

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("_scratch", None)  # (a record: made again, as the memory's)
        state.pop("_scratch_rngs", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        if "rng" in state:
            self._scratch_rngs = scratch_generators()
            self._scratch = packed(Scratch(*self._scratch_rngs))

    def act(self, obs: Observation) -> Decision:
        seen = packed(seen_of(obs, self.rules.shape))
        params = np.array(self.scalars(), dtype=np.float64)
        choice = search_act_held(
            self.rules.tables, seen, self._memory, params, self.playing, self._held, self._scratch
        )
        return decision_of(choice, self.rules.shape)
