"""Whole games inside compiled code: every seat a built-in agent, placement to result.

The mass-simulation path. :func:`play_games` plays a batch of games in one compiled call: it
prepares each game in Python as :func:`antipolix.play.play_game` would (the seed's generators,
R12; each seat's army from its policy, R3, checked), then one kernel places the armies and plays
every turn, each seat's decision from its own observation (R6) by its compiled agent, each turn
resolved by :func:`antipolix.turn.play_turn_k`. The games are the same, bit for bit, as through
:class:`~antipolix.Game` with the same agents.

A game whose armies the engine would refuse is not played here: :func:`play_games` reports it
(``None``), and the caller plays it through :func:`~antipolix.play.play_game`, which names the
problem.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt
from numba.typed import List

from antipolix import journal as jr
from antipolix.agents.army import checked_army
from antipolix.agents.base import Agent
from antipolix.agents.builtin import PARAMS, act_k, compiled_seat
from antipolix.agents.memory import COUNTERS, HIDDEN_TURNS, NEVER, make_memory
from antipolix.agents.scripted import RandomAgent
from antipolix.agents.search import scratch_generators
from antipolix.end import REASONS, GameResult
from antipolix.errors import AntipolixError
from antipolix.events import Elimination
from antipolix.game import generators
from antipolix.ids import PieceNames
from antipolix.jit import inlined, kernel
from antipolix.journal import ELIMINATIONS, FNV_OFFSET, Journal, clear, digest, journal_for
from antipolix.observation import seen_k
from antipolix.pieces import FORTRESS, TELEPORTER, ArmyItem
from antipolix.placement import free_cell, put
from antipolix.play import play_game
from antipolix.reach import cheb
from antipolix.rules import Rules, Tables
from antipolix.state import COUNT, N_ELIM, PHASE, REASON, TURN, WINNER, Arrays, new_arrays
from antipolix.turn import ATTACK, MOVE, PLAYING, TELEPORT, over, play_turn_k, submissions
from antipolix.usage import USAGE
from antipolix.world import IntArray

HEAD = 4  # columns of a game's summary before the per-seat ones (see play_games_k)
PER_SEAT = 4 + len(USAGE)  # per-seat columns of a game's summary
OUT = 3 + len(USAGE)  # the per-seat row of why a seat left the game (see _count)


def warm(rules: Rules, agents: Sequence[Agent]) -> None:
    """Compile, or load from the disk cache, every kernel a game of these agents (one per seat)
    runs, by playing one: in a driver before Ray starts, so that its workers load the cached
    machine code instead of each compiling it. (Other agents play through
    :class:`~antipolix.Game`, whose kernels a game of random agents compiles.)"""
    if compiled(agents):
        play_games(rules, [(agents, np.random.SeedSequence(0))])
    else:
        play_game(rules, [RandomAgent() for _ in range(rules.players)], 0)


def compiled(agents: Sequence[Agent]) -> bool:
    """Can a game with these agents (one per seat) run whole in compiled code?"""
    return all(compiled_seat(a) is not None for a in agents)


@dataclass(frozen=True)
class Played:
    """One game played by :func:`play_games`: its result, per seat the army placed (R3), and
    the living pieces and their cost at the end; ``seconds`` of wall time."""

    result: GameResult
    armies: tuple[tuple[ArmyItem, ...], ...]
    pieces_left: tuple[int, ...]
    cost_left: tuple[int, ...]
    seconds: float
    digest: int  # of every event (:func:`antipolix.journal.digest`), as Game.digest
    decisions: int  # player-turns: the agents' decisions, one per living seat and turn
    usage: tuple[tuple[int, ...], ...] = ()  # per USAGE counter, per seat (see _count)
    # per seat, why it left the game (R7, R8, R9), None for a seat still in it at the end
    eliminations: tuple[Elimination | None, ...] = ()


@dataclass
class _Batch:
    """The games of one call, as the kernel takes them (one row per game)."""

    keys: list[npt.NDArray[np.uint64]]
    items: list[list[list[tuple[int, int]]]]
    codes: list[list[tuple[float, ...]]]
    rngs: list[np.random.Generator]
    armies: list[tuple[tuple[ArmyItem, ...], ...]]


def play_games(
    rules: Rules, games: Sequence[tuple[Sequence[Agent], np.random.SeedSequence]]
) -> list[Played | None]:
    """Play each ``(agents, seed)`` game (one built-in agent per seat, :func:`compiled`) in one
    compiled call; None for a game whose armies the engine would refuse (play it through
    :func:`antipolix.play.play_game` to learn why)."""
    batch = _Batch([], [], [], [], [])
    index: list[int | None] = []
    for agents, seed in games:
        g = len(batch.keys)
        index.append(g if _prepare(rules, agents, seed, batch) else None)
    n, players = len(batch.keys), rules.players
    out = np.zeros((n, HEAD + PER_SEAT * players), dtype=np.int64)
    seconds = np.zeros(n, dtype=np.float64)
    digests = np.zeros(n, dtype=np.uint64)
    if n:
        longest = max(len(seat) for game in batch.items for seat in game)
        items = np.zeros((n, players, max(longest, 1), 2), dtype=np.int64)
        counts = np.zeros((n, players), dtype=np.int64)
        params = np.zeros((n, players, PARAMS), dtype=np.float64)
        for g in range(n):
            for seat in range(players):
                army = batch.items[g][seat]
                counts[g, seat] = len(army)
                items[g, seat, : len(army)] = army
                params[g, seat] = batch.codes[g][seat]
        play_games_k(
            rules.tables,
            np.stack(batch.keys),
            items,
            counts,
            params,
            _typed_list([*batch.rngs, *scratch_generators()]),
            out,
            seconds,
            digests,
        )
    return [
        None if g is None else _played(rules, batch, out[g], seconds[g], int(digests[g]), g)
        for g in index
    ]


def _prepare(
    rules: Rules, agents: Sequence[Agent], seed: np.random.SeedSequence, batch: _Batch
) -> bool:
    """Add one game to ``batch`` as :func:`antipolix.play.play_game` would set it up (R12: the
    seed's generators; R3: each seat's army from its policy and generator); False if the
    engine would refuse an army."""
    engine, placement, agent_seeds, names = generators(rules, seed)
    p, n, m = rules.shape
    rngs = [np.random.Generator(np.random.PCG64(s)) for s in agent_seeds]
    armies: list[tuple[ArmyItem, ...]] = []
    try:
        free = p * n * m
        for seat, agent in enumerate(agents):
            army = checked_army(rules, seat, agent.army_policy.choose(rules, rngs[seat]))
            rules.check_army(seat, army)
            room = free if rules.home_zones is None else rules.home_zones[seat].volume
            if len(army) > room:
                return False
            free -= len(army)
            armies.append(tuple(army))
    except AntipolixError:
        return False
    batch.keys.append(PieceNames.from_seed(names, p * n * m).key_array)
    batch.items.append([[(int(k), int(t)) for k, t in army] for army in armies])
    codes = [compiled_seat(a, rules.players) for a in agents]
    batch.codes.append([c for c in codes if c is not None])
    batch.rngs.extend([engine, placement, *rngs])
    batch.armies.append(tuple(armies))
    return True


def _played(
    rules: Rules, batch: _Batch, row: IntArray, seconds: float, digest: int, g: int
) -> Played:
    players = rules.players
    winner, reason, turns, decisions = (int(v) for v in row[:HEAD])
    per_seat = row[HEAD:].reshape(PER_SEAT, players).tolist()
    elim = tuple(p for p in per_seat[0] if p >= 0)
    return Played(
        GameResult(None if winner < 0 else winner, REASONS[reason], turns, elim),
        batch.armies[g],
        tuple(per_seat[1]),
        tuple(per_seat[2]),
        float(seconds),
        digest,
        decisions,
        tuple(tuple(c) for c in per_seat[3:OUT]),
        tuple(None if code == 0 else ELIMINATIONS[code - 1] for code in per_seat[OUT]),
    )


def _typed_list(rngs: list[np.random.Generator]) -> List[np.random.Generator]:
    """``rngs`` as the typed list kernels take, built by cached kernels: ``numba.typed.List``
    built from Python compiles its methods in every new process (half a second: a Ray
    worker's start)."""
    out = _new_list(rngs[0])
    for rng in rngs[1:]:
        _append(out, rng)
    return out


# -- the kernels -----------------------------------------------------------------------------------


@kernel
def play_games_k(
    t: Tables,
    keys: npt.NDArray[np.uint64],
    items: IntArray,
    counts: IntArray,
    params: npt.NDArray[np.float64],
    rngs: List[np.random.Generator],
    out: IntArray,
    seconds: npt.NDArray[np.float64],
    digests: npt.NDArray[np.uint64],
) -> None:
    """Play game ``g`` for every row: identifier keys ``keys[g]``, seat ``p``'s army
    ``items[g, p, :counts[g, p]]`` (type, trait), its agent ``params[g, p]`` (code, scalars,
    weights), generators ``rngs[g * (2 + players):]`` (engine, placement, one per seat), and
    the last two for the search agent's rollouts, which seed them afresh
    (:class:`~antipolix.agents.search.Scratch`: what they drew before changes nothing).
    Writes ``out[g]``: winner, reason, turns, decisions, then per seat the elimination order
    (-1 padded), living pieces and their cost, the :data:`USAGE` counts and why it left the
    game (:func:`_count`); ``seconds[g]``:
    the game's wall time;
    ``digests[g]``: the digest of its events (:func:`antipolix.journal.digest`)."""
    players = t.players
    scratch_engine, scratch_agents = rngs[len(rngs) - 2], rngs[len(rngs) - 1]
    for g in range(len(keys)):
        with numba.objmode(began="float64"):
            began = time.perf_counter()
        base = g * (2 + players)
        a = _placed(t, keys[g], items[g], counts[g], rngs[base + 1])
        usage = out[g, HEAD + 3 * players : HEAD + OUT * players].reshape(len(USAGE), players)
        gone = out[g, HEAD + OUT * players :]
        digests[g], decisions = _play(
            a, t, params[g], rngs, base, usage, gone, scratch_engine, scratch_agents
        )
        _summary(a, t, out[g])
        out[g, 3] = decisions
        with numba.objmode(ended="float64"):
            ended = time.perf_counter()
        seconds[g] = ended - began


@kernel
def _placed(
    t: Tables,
    keys: npt.NDArray[np.uint64],
    items: IntArray,
    counts: IntArray,
    rng: np.random.Generator,
) -> Arrays:
    """A game with every army placed in seat order, each piece on a random free cell of its
    zone (R3), and started (R7: the timers set)."""
    pieces = counts.sum()
    teleporters = 0
    for seat in range(t.players):
        for i in range(counts[seat]):
            if items[seat, i, 1] == TELEPORTER:
                teleporters += 1
    a = new_arrays(t.shape, t.players, pieces, teleporters, keys)
    for seat in range(t.players):
        for i in range(counts[seat]):
            put(a, t, seat, items[seat, i, 0], items[seat, i, 1], free_cell(a, t, seat, rng))
    if t.timers:
        a.timers[:] = t.initial_timer
    a.meta[PHASE] = PLAYING
    return a


@kernel
def _memories(t: Tables, cells: int) -> tuple[IntArray, ...]:
    """Every seat's :class:`Memory` arrays, one row per seat, each as
    :func:`~antipolix.agents.memory.new_memory` makes it."""
    players = t.players
    return (
        np.full((players, cells), -1, dtype=np.int64),
        np.zeros((players, cells), dtype=np.bool_),
        np.full((players, cells), -1, dtype=np.int64),
        np.full((players, cells), NEVER, dtype=np.int64),
        np.zeros((players, cells), dtype=np.int64),
        np.zeros((players, HIDDEN_TURNS * players + players, 3), dtype=np.int64),
        np.zeros((players, COUNTERS), dtype=np.int64),
    )


@inlined
def _play(
    a: Arrays,
    t: Tables,
    params: npt.NDArray[np.float64],
    rngs: List[np.random.Generator],
    base: int,
    usage: IntArray,
    gone: IntArray,
    scratch_engine: np.random.Generator,
    scratch_agents: np.random.Generator,
) -> tuple[np.uint64, int]:
    """Play the placed game ``a`` to its end: each turn, every living seat's decision from its
    observation and memory, then the turn (R4, R7), counted in ``usage`` and ``gone``
    (:func:`_count`).
    Returns the digest of its events and the number of decisions."""
    players = t.players
    first, moved, kinds, mark_turn, mark_value, hidden, counters = _memories(t, len(a.grid))
    pieces = a.meta[COUNT]
    j = journal_for(players, pieces, pieces, players)
    s = submissions(players, pieces, players)
    engine = rngs[base]
    h = np.uint64(FNV_OFFSET)
    decisions = 0
    while not over(a):
        listed, mail = 0, 0
        for seat in range(players):
            s.mail_start[seat] = mail
            s.orders[seat, 0] = 0
            if not a.living[seat]:
                continue
            memory = make_memory(
                first[seat],
                moved[seat],
                kinds[seat],
                mark_turn[seat],
                mark_value[seat],
                hidden[seat],
                counters[seat],
            )
            seen = seen_k(a, j, seat)
            decisions += 1
            kind, piece, cell, ids, think, command = act_k(
                int(params[seat, 0]),
                t,
                seen,
                memory,
                params[seat, 1:],
                rngs[base + 2 + seat],
                scratch_engine,
                scratch_agents,
            )
            _check(a, seat, kind, piece, cell, ids, think)
            s.orders[seat, 0], s.orders[seat, 1], s.orders[seat, 2] = kind, piece, cell
            s.orders[seat, 3], s.orders[seat, 4] = listed, listed + len(ids)
            s.listed[listed : listed + len(ids)] = ids
            listed += len(ids)
            s.times[seat] = think
            if command >= 0:
                s.mail[mail, 0], s.mail[mail, 1] = command, 0
                mail += 1
        s.mail_start[players] = mail
        clear(j)
        forts = _fortresses(a)
        play_turn_k(a, t, engine, s, j)
        _count(a, t, j, forts, usage, gone)
        h = digest(j, h)
    return h, decisions


@kernel
def _fortresses(a: Arrays) -> IntArray:
    """The fortresses on the board: identifier, owner, flat cell (rows of three)."""
    out = np.empty((a.meta[COUNT], 3), dtype=np.int64)
    k = 0
    n, m = a.dims[1], a.dims[2]
    for row in range(a.meta[COUNT]):
        if a.alive[row] and a.kind[row] == FORTRESS:
            p = a.pos[row]
            out[k, 0], out[k, 1], out[k, 2] = a.ids[row], a.owner[row], (p[0] * n + p[1]) * m + p[2]
            k += 1
    return out[:k]


@kernel
def _count(
    a: Arrays, t: Tables, j: Journal, forts: IntArray, usage: IntArray, gone: IntArray
) -> None:
    """Count the turn's events in ``usage`` (rows :data:`USAGE`, a column per seat), and
    write in ``gone`` (per seat) why a seat left the game (its reason's code in the journal
    + 1: R8 chief taken, R7 timer, R9 QUIT; 0 for a seat in the game):

    - a **teleport move** (R5): a move farther than its piece's own move field, by its mover;
    - a **fortress defence** (R8): an attack on a piece with a fortress of its owner in the
      defence (the target itself, or within radius 1), by the defender; ``forts`` (the
      fortresses as the turn began) follows the turn's events in order (taken, teleported,
      crushed, given away with an eliminated owner's pieces);
    - a **crush** (R6): a move onto an enemy invisible piece, by the mover."""
    n, m = a.dims[1], a.dims[2]
    alive = np.ones(len(forts), dtype=np.bool_)
    for i in range(j.n[0]):
        h = j.head[i]
        kind = h[jr.KIND]
        if kind == jr.MOVED:
            row = a.rows[h[jr.A]]
            src, to = h[jr.B], h[jr.C]
            sz, sy, sx = src // (n * m), (src // m) % n, src % m
            tz, ty, tx = to // (n * m), (to // m) % n, to % m
            if cheb(sz, sy, sx, tz, ty, tx) > t.move[a.kind[row]]:
                usage[0, h[jr.PLAYER]] += 1
        elif kind == jr.CRUSHED:
            usage[2, h[jr.PLAYER]] += 1
            for f in range(len(forts)):
                if forts[f, 0] == h[jr.B]:
                    alive[f] = False
        elif kind == jr.COMBAT:
            at, owner = h[jr.C], h[jr.B]
            cz, cy, cx = at // (n * m), (at // m) % n, at % m
            for f in range(len(forts)):
                c = forts[f, 2]
                near = cheb(cz, cy, cx, c // (n * m), (c // m) % n, c % m) <= 1
                if alive[f] and forts[f, 1] == owner and near:
                    usage[1, owner] += 1
                    break
        elif kind == jr.FATE:
            for f in range(len(forts)):
                if forts[f, 0] != h[jr.A]:
                    continue
                if h[jr.E]:  # destroyed
                    alive[f] = False
                elif h[jr.C] == TELEPORT:
                    forts[f, 2] = h[jr.D]
                else:
                    forts[f, 1] = h[jr.PLAYER]
        elif kind == jr.ELIMINATED:
            gone[h[jr.PLAYER]] = h[jr.A] + 1
            for f in range(len(forts)):
                if forts[f, 1] == h[jr.PLAYER]:
                    if h[jr.B] >= 0:
                        forts[f, 1] = h[jr.B]
                    else:
                        alive[f] = False


@kernel
def _check(
    a: Arrays, seat: int, kind: int, piece: int, cell: int, ids: IntArray, think: float
) -> None:
    """What :meth:`antipolix.Game.check_submission` checks, for a built-in agent's decision: own
    living pieces, each once; a cell on the board; a finite think time >= 0 (R4, R7)."""
    cells = len(a.grid)
    ok = 0 <= cell < cells and np.isfinite(think) and think >= 0
    if kind == MOVE:
        ok = ok and _own(a, seat, piece)
    elif kind == ATTACK:
        ok = ok and len(ids) > 0
        for i in range(len(ids)):
            ok = ok and _own(a, seat, ids[i])
            for k in range(i):
                ok = ok and ids[k] != ids[i]
    if not ok:
        raise ValueError("a built-in agent gave an order the engine refuses")


@kernel
def _own(a: Arrays, seat: int, pid: int) -> bool:
    if pid < 0 or pid >= len(a.rows):
        return False
    row = a.rows[pid]
    return bool(row >= 0 and a.alive[row] and a.owner[row] == seat)


@kernel
def _summary(a: Arrays, t: Tables, out: IntArray) -> None:
    """Winner, reason, turns (the decisions, ``out[3]``, are the caller's), then per seat the
    elimination order (-1 padded), living pieces and their cost."""
    players = t.players
    out[0], out[1], out[2] = a.meta[WINNER], a.meta[REASON], a.meta[TURN]
    elim = out[HEAD : HEAD + players]
    left = out[HEAD + players : HEAD + 2 * players]
    cost = out[HEAD + 2 * players : HEAD + 3 * players]
    elim[:] = -1
    elim[: a.meta[N_ELIM]] = a.elim[: a.meta[N_ELIM]]
    left[:] = 0
    cost[:] = 0
    for row in range(a.meta[COUNT]):
        if a.alive[row]:
            left[a.owner[row]] += 1
            cost[a.owner[row]] += t.cost[a.kind[row], a.trait[row]]


@kernel
def _new_list(first: np.random.Generator) -> List[np.random.Generator]:
    out = List()
    out.append(first)
    return out


@kernel
def _append(rngs: List[np.random.Generator], rng: np.random.Generator) -> None:
    rngs.append(rng)
