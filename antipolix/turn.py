"""One turn of play, compiled: orders in reception order (R4, R7), moves and attacks (R5, R6,
R8), messages and commands (R9), timers (R7), elimination and the end (R8, R10).

:func:`play_turn_k` is the only implementation of a turn: :class:`antipolix.Game` calls it after
checking the orders in Python, and the compiled games of :mod:`antipolix.autoplay` call it with
the orders of compiled agents. It reads the game's :class:`~antipolix.state.Arrays`, the rules'
:class:`~antipolix.rules.Tables`, the game's generator and one :class:`Submissions`, changes the
arrays and writes the turn's events into a :class:`~antipolix.journal.Journal`.

Every random draw comes from the game's generator, in this order (R12): the think times when
the rules draw them (R7), the permutation that breaks ties of reception (R7), and while the
orders resolve, a permutation for timers that run out at the same instant (R7) and the outcome
of each successful attack and the cell of a teleport (R8).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from antipolix import journal as jr
from antipolix.combat import attack_power_k, defence_at, draw_outcome_k
from antipolix.jit import Held, both, kernel, record
from antipolix.journal import Journal, emit, push
from antipolix.pieces import CHIEF, FORTRESS, INVISIBLE, NO_TRAIT
from antipolix.reach import reach_cells_k, reaches_k
from antipolix.rules import Tables
from antipolix.state import (
    COUNT,
    N_ELIM,
    PHASE,
    REASON,
    TURN,
    WINNER,
    Arrays,
    flat_of,
    move_piece,
    network,
    remove_piece,
    set_owner,
    set_trait,
    unflat,
    visible,
)
from antipolix.timers import advance, reception
from antipolix.world import IntArray

PASS, MOVE, ATTACK = 0, 1, 2  # kinds of order
PLAYING, OVER = 1, 2  # the phases of play (0 is placement)
# the end's reasons, as indices of antipolix.end.REASONS
LAST_PLAYER, NUL_AGREED, ALL_ELIMINATED, TURN_LIMIT = range(4)
# why a player goes out, as indices of antipolix.journal.ELIMINATIONS
BY_CHIEF, BY_TIMER, BY_QUIT = range(3)
DESTROY, TELEPORT, CONVERT = range(3)  # antipolix.combat.Outcome
DRAWN_THINK_MEAN = 1.0  # R7, think_times="drawn": seconds, the mean of the exponential draw


class Submissions(NamedTuple):
    """Every living player's submission for one turn, as numbers (players not living: ignored).

    ``orders[p]`` is ``(kind, piece, cell, start, stop)``: a :data:`MOVE` moves identifier
    ``piece`` to flat ``cell``; an :data:`ATTACK` on flat ``cell`` lists the identifiers
    ``listed[start:stop]``. ``times[p]`` is the think time (R7). ``mail[mail_start[p]:
    mail_start[p + 1]]`` are the player's messages and commands in order, each ``(what, to)``
    (:data:`~antipolix.journal.QUIT`, ``NUL``, ``WAR`` or ``TEXT``; ``to`` is -1 for everyone).
    """

    orders: IntArray  # (players, 5)
    listed: IntArray
    times: npt.NDArray[np.float64]  # (players,)
    mail: IntArray  # (messages, 2)
    mail_start: IntArray  # (players + 1,)


make_submissions = record(Submissions)


@both
def submissions(players: int, listed: int, mail: int) -> Submissions:
    """Empty submissions (every order a pass, no message) with room for ``listed``
    attackers and ``mail`` messages."""
    return make_submissions(
        np.zeros((players, 5), dtype=np.int64),
        np.zeros(max(listed, 1), dtype=np.int64),
        np.zeros(players, dtype=np.float64),
        np.zeros((max(mail, 1), 2), dtype=np.int64),
        np.zeros(players + 1, dtype=np.int64),
    )


# -- the end (R8, R10) -----------------------------------------------------------------------


@kernel
def over(a: Arrays) -> bool:
    return bool(a.meta[PHASE] == OVER)


@kernel
def finish(a: Arrays, winner: int, reason: int) -> None:
    """End the game now (R10); the turn's remaining orders are discarded."""
    a.meta[WINNER] = winner
    a.meta[REASON] = reason
    a.meta[PHASE] = OVER


@kernel
def check_end(a: Arrays) -> None:
    """R10: one player left wins; none left, or a NUL from every living player, is a draw."""
    if over(a):
        return
    count, last, agreed = 0, -1, True
    for p in range(len(a.living)):
        if a.living[p]:
            count += 1
            last = p
            agreed = agreed and a.nul[p]
    if count == 1:
        finish(a, last, LAST_PLAYER)
    elif count == 0:
        finish(a, -1, ALL_ELIMINATED)
    elif agreed:
        finish(a, -1, NUL_AGREED)


@kernel
def eliminate(a: Arrays, j: Journal, players: IntArray, reason: int, at: float, by: int) -> None:
    """Eliminate ``players`` in the same instant, in the order given, then check the end. A
    chief taken (``by`` >= 0) gives the remaining pieces to ``by`` (R8); a timer (R7) or a
    QUIT (R9) removes them."""
    for p in players:
        a.living[p] = False
        a.nul[p] = False
        a.arrived[p] = False
        rows = pieces_of(a, p)
        for row in rows:
            if by >= 0:
                set_owner(a, row, by)
            else:
                remove_piece(a, row)
        a.elim[a.meta[N_ELIM]] = p
        a.meta[N_ELIM] += 1
        emit(j, jr.ELIMINATED, p, reason, by, 0, 0, 0, 0, at, 0.0)
        for pid in np.sort(a.ids[rows]):  # in an order that says nothing (R6)
            push(j, pid)
    check_end(a)


@kernel
def pieces_of(a: Arrays, player: int) -> IntArray:
    """Rows of ``player``'s living pieces, in row order."""
    count = a.meta[COUNT]
    n = 0
    for row in range(count):
        if a.alive[row] and a.owner[row] == player:
            n += 1
    rows = np.empty(n, dtype=np.int64)
    n = 0
    for row in range(count):
        if a.alive[row] and a.owner[row] == player:
            rows[n] = row
            n += 1
    return rows


# -- timers (R7) ---------------------------------------------------------------------------------


@kernel
def run_clock(a: Arrays, j: Journal, rng: np.random.Generator, until: float) -> None:
    """Run the clocks to ``until``, eliminating the players whose timers run out on the way;
    players out at the same instant go in an order drawn from the game's generator (R7)."""
    expired = np.empty(len(a.living), dtype=np.int64)
    while not over(a):
        count, instant = advance(a, until, expired)
        if count == 0:
            return
        out = expired[:count].copy()
        if count > 1:
            out = out[rng.permutation(count)]
        eliminate(a, j, out, BY_TIMER, instant, -1)


# -- orders (R4, R5, R6, R8) --------------------------------------------------------------------


@kernel
def reaches(a: Arrays, t: Tables, row: int, to: int) -> bool:
    """R5: does the piece of ``row`` reach flat cell ``to`` (occupancy ignored)? A fortress
    reaches nothing. Teleporters: its owner's network, or everyone's."""
    kind = a.kind[row]
    if kind == FORTRESS:
        return False
    key = len(a.living) if t.teleport_all else a.owner[row]
    n = network(a, key, t.teleport_field)
    tz, ty, tx = unflat(a, to)
    return reaches_k(
        a.pos[row, 0],
        a.pos[row, 1],
        a.pos[row, 2],
        t.move[kind],
        a.net_cells[key, :n],
        a.net_labels[key, :n],
        tz,
        ty,
        tx,
    )


@kernel
def reach_of(a: Arrays, t: Tables, row: int) -> IntArray:
    """R5: the flat cells the piece of ``row`` reaches, sorted (occupancy ignored)."""
    kind = a.kind[row]
    if kind == FORTRESS:
        return np.empty(0, dtype=np.int64)
    key = len(a.living) if t.teleport_all else a.owner[row]
    n = network(a, key, t.teleport_field)
    move = t.move[kind]
    side = 2 * move + 1
    out = np.empty(side**3 * (1 + n), dtype=np.int64)
    marked = np.zeros(len(a.grid), dtype=np.bool_)
    found = reach_cells_k(
        a.dims[0],
        a.dims[1],
        a.dims[2],
        a.pos[row, 0],
        a.pos[row, 1],
        a.pos[row, 2],
        move,
        a.net_cells[key, :n],
        a.net_labels[key, :n],
        marked,
        out,
    )
    return out[:found]


@kernel
def move_problem(a: Arrays, t: Tables, player: int, pid: int, to: int) -> tuple[int, int]:
    """R4: why moving piece ``pid`` to flat cell ``to`` cannot be carried out now, as
    ``(reason, argument)`` (:mod:`antipolix.journal`'s codes), or ``(-1, 0)``."""
    row = a.rows[pid]
    if not a.alive[row]:
        return jr.DESTROYED, 0
    if a.owner[row] != player:
        return jr.OWNED, a.owner[row]
    if a.kind[row] == FORTRESS:
        return jr.IMMOBILE, 0
    if not reaches(a, t, row, to):
        return jr.OUT_OF_REACH, 0
    occupant = a.grid[to]
    if occupant >= 0:
        if a.owner[occupant] == player:
            return jr.HOLDS_YOURS, a.ids[occupant]
        if a.trait[occupant] != INVISIBLE:
            return jr.HOLDS_ENEMY, 0
    return -1, 0


@kernel
def attack_problem(a: Arrays, player: int, at: int) -> int:
    """R4: why an attack of ``player`` on flat cell ``at`` cannot be made, or -1. An invisible
    target reads as an empty cell, so that the reason leaks nothing (R6)."""
    target = a.grid[at]
    if target < 0 or not visible(a, target, player):
        return jr.NO_TARGET
    if a.owner[target] == player:
        return jr.OWN_TARGET
    return -1


@kernel
def dropped(a: Arrays, t: Tables, player: int, pid: int, at: int) -> tuple[int, int]:
    """Why the listed piece ``pid`` cannot take part in an attack on flat cell ``at``, as
    ``(reason, argument)``, or ``(-1, 0)`` if it can (R4, R5)."""
    row = a.rows[pid]
    if not a.alive[row]:
        return jr.DROP_DESTROYED, 0
    if a.owner[row] != player:
        return jr.DROP_OWNED, a.owner[row]
    if a.kind[row] == FORTRESS:
        return jr.DROP_FORTRESS, 0
    if not reaches(a, t, row, at):
        return jr.DROP_REACH, 0
    return -1, 0


@kernel
def resolve_move(a: Arrays, t: Tables, j: Journal, player: int, pid: int, to: int) -> None:
    why, arg = move_problem(a, t, player, pid, to)
    if why >= 0:
        emit(j, jr.REJECTED, player, why, arg, 0, 0, 0, 0, 0.0, 0.0)
        return
    row = a.rows[pid]
    src = flat_of(a, row)
    victim = a.grid[to]
    if victim >= 0:  # an enemy invisible piece (never a chief, R2): crushed (R6)
        remove_piece(a, victim)
        emit(j, jr.CRUSHED, player, pid, a.ids[victim], a.owner[victim], to, 0, 0, 0.0, 0.0)
    move_piece(a, row, to)
    emit(j, jr.MOVED, player, pid, src, to, 0, 0, 0, 0.0, 0.0)


@kernel
def resolve_attack(
    a: Arrays,
    t: Tables,
    j: Journal,
    rng: np.random.Generator,
    player: int,
    listed: IntArray,
    at: int,
    instant: float,
) -> None:
    why = attack_problem(a, player, at)
    valid = np.empty(len(listed), dtype=np.int64)
    drops = np.empty((len(listed), 3), dtype=np.int64)
    n_valid, n_drop = 0, 0
    for pid in listed:
        code, arg = dropped(a, t, player, pid, at)
        if code < 0:
            valid[n_valid] = a.rows[pid]
            n_valid += 1
        else:
            drops[n_drop, 0], drops[n_drop, 1], drops[n_drop, 2] = pid, code, arg
            n_drop += 1
    if why < 0 and n_valid == 0:
        why = jr.NO_ATTACKER
    if why >= 0:
        emit(j, jr.REJECTED, player, why, 0, 0, 0, 0, 0, 0.0, 0.0)
        if why == jr.NO_ATTACKER:
            for i in range(n_drop):
                push(j, drops[i, 0])
                push(j, drops[i, 1])
                push(j, drops[i, 2])
        return
    target = a.grid[at]
    target_id, owner = a.ids[target], a.owner[target]
    rows = valid[:n_valid]
    attack = attack_power_k(a, t, rows)
    defence = defence_at(a, t, target)
    emit(j, jr.COMBAT, player, target_id, owner, at, attack, defence, n_valid, 0.0, 0.0)
    for pid in np.sort(a.ids[rows]):  # sorted: the listed order says nothing (R6)
        push(j, pid)
    order = np.argsort(drops[:n_drop, 0])
    for i in order:
        push(j, drops[i, 0])
        push(j, drops[i, 1])
        push(j, drops[i, 2])
    if attack <= defence:  # R8: strictly more is needed; a failed attack changes nothing
        return
    outcome, u = draw_outcome_k(t.outcomes, rng)
    was_chief = a.trait[target] == CHIEF
    landing, landed_on = -1, -1
    destroyed = outcome == DESTROY
    if outcome == TELEPORT:
        landing = int(rng.integers(0, len(a.grid)))
        occupant = a.grid[landing]
        destroyed = occupant >= 0  # occupied (the target's own cell included)
        if destroyed:
            landed_on = a.ids[occupant]
    if destroyed:
        remove_piece(a, target)
    elif outcome == TELEPORT:
        move_piece(a, target, landing)
    else:  # CONVERT: type and trait kept, but a converted chief loses the chief trait
        if was_chief:
            set_trait(a, target, NO_TRAIT)
        set_owner(a, target, player)
    emit(j, jr.FATE, player, target_id, owner, outcome, landing, destroyed, landed_on, u, 0.0)
    if was_chief and (destroyed or outcome == CONVERT):
        eliminate(a, j, np.array([owner], dtype=np.int64), BY_CHIEF, instant, player)


# -- messages and commands (R9) ------------------------------------------------------------------


@kernel
def contacts(a: Arrays) -> npt.NDArray[np.bool_]:
    """``[p, q]``: a visible piece of ``p`` stands within radius 1 of a visible piece of ``q``
    (R9; with R6, invisible pieces make no contact). Symmetric."""
    players = len(a.living)
    out = np.zeros((players, players), dtype=np.bool_)
    p, n, m = a.dims[0], a.dims[1], a.dims[2]
    for row in range(a.meta[COUNT]):
        if not a.alive[row] or a.trait[row] == INVISIBLE:
            continue
        owner = a.owner[row]
        z, y, x = a.pos[row, 0], a.pos[row, 1], a.pos[row, 2]
        for cz in range(max(z - 1, 0), min(z + 2, p)):
            for cy in range(max(y - 1, 0), min(y + 2, n)):
                for cx in range(max(x - 1, 0), min(x + 2, m)):
                    other = a.grid[(cz * n + cy) * m + cx]
                    if other >= 0 and a.trait[other] != INVISIBLE and a.owner[other] != owner:
                        out[owner, a.owner[other]] = True
    return out


@kernel
def handle_message(
    a: Arrays,
    j: Journal,
    player: int,
    what: int,
    to: int,
    index: int,
    touching: npt.NDArray[np.bool_],
    instant: float,
) -> None:
    """One message or command of ``player`` (its ``index``-th this turn), at its reception."""
    if what == jr.QUIT:
        eliminate(a, j, np.array([player], dtype=np.int64), BY_QUIT, instant, -1)
        return
    if what == jr.NUL or what == jr.WAR:
        a.nul[player] = what == jr.NUL
        emit(j, jr.COMMANDED, player, what, 0, 0, 0, 0, 0, 0.0, 0.0)
        check_end(a)
        return
    if to < 0:
        emit(j, jr.SENT, player, -1, index, 0, 0, 0, 0, 0.0, 0.0)
        for p in range(len(a.living)):
            if a.living[p] and p != player:
                push(j, p)
    elif not a.living[to]:
        emit(j, jr.UNDELIVERED, player, to, jr.RECIPIENT_GONE, 0, 0, 0, 0, 0.0, 0.0)
    elif not touching[player, to]:
        emit(j, jr.UNDELIVERED, player, to, jr.NO_CONTACT, 0, 0, 0, 0, 0.0, 0.0)
    else:
        emit(j, jr.SENT, player, to, index, 0, 0, 0, 0, 0.0, 0.0)
        push(j, to)


# -- the turn ----------------------------------------------------------------------------------


@kernel
def play_turn_held(
    a: Arrays, t: Tables, holder: Held, s: Submissions, j: Journal, h: np.uint64
) -> tuple[IntArray, np.uint64]:
    """:func:`play_turn_k` called from Python with the game's generator held
    (:func:`antipolix.jit.held`: a pointer to pass, where the generator is read anew at every
    call), and the game's digest ``h`` carried over the turn's events
    (:func:`antipolix.journal.digest`)."""
    schedule = play_turn_k(a, t, holder.rng, s, j)
    return schedule, jr.digest(j, h)


@kernel
def play_turn_k(
    a: Arrays, t: Tables, rng: np.random.Generator, s: Submissions, j: Journal
) -> IntArray:
    """Resolve one turn (R4, R7): every living player's submission in reception order.
    Returns the players in reception order; the events are in ``j``."""
    a.meta[TURN] += 1
    players = len(a.living)
    touching = np.zeros((players, players), dtype=np.bool_)
    for i in range(s.mail_start[players]):
        if s.mail[i, 0] == jr.TEXT and s.mail[i, 1] >= 0:
            touching = contacts(a)
            break
    before = a.timers.copy()
    a.clock[0] = 0.0
    a.arrived[:] = False
    times = s.times
    if t.think_drawn:  # R7: no agent gains by claiming to think fast
        times = np.zeros(players)
        for p in range(players):
            if a.living[p]:
                times[p] = rng.exponential(DRAWN_THINK_MEAN)
    schedule = reception(a, times, rng)
    for player in schedule:
        at = times[player]
        if not over(a) and t.timers:
            run_clock(a, j, rng, at)
        if over(a):
            emit(j, jr.DISCARDED, player, jr.GAME_IS_OVER, 0, 0, 0, 0, 0, 0.0, 0.0)
            continue
        if not a.living[player]:
            emit(j, jr.DISCARDED, player, jr.GONE_BEFORE, 0, 0, 0, 0, 0, 0.0, 0.0)
            continue
        emit(j, jr.RECEIVED, player, 0, 0, 0, 0, 0, 0, at, 0.0)
        if t.timers:
            a.arrived[player] = True
        first = s.mail_start[player]
        for i in range(first, s.mail_start[player + 1]):
            handle_message(a, j, player, s.mail[i, 0], s.mail[i, 1], i - first, touching, at)
            if not a.living[player] or over(a):
                break
        if not a.living[player]:
            emit(j, jr.DISCARDED, player, jr.QUIT_FIRST, 0, 0, 0, 0, 0, 0.0, 0.0)
        elif over(a):
            emit(j, jr.DISCARDED, player, jr.GAME_IS_OVER, 0, 0, 0, 0, 0, 0.0, 0.0)
        else:
            kind, piece, cell = s.orders[player, 0], s.orders[player, 1], s.orders[player, 2]
            if kind == MOVE:
                resolve_move(a, t, j, player, piece, cell)
            elif kind == ATTACK:
                listed = s.listed[s.orders[player, 3] : s.orders[player, 4]]
                resolve_attack(a, t, j, rng, player, listed, cell, at)
    if t.timers:
        for p in range(players):
            if a.living[p]:
                emit(j, jr.TIMER_CHANGED, p, 0, 0, 0, 0, 0, 0, before[p], a.timers[p])
    if not over(a) and a.meta[TURN] >= t.max_turns:
        finish(a, -1, TURN_LIMIT)
    if over(a):  # the game ended this turn: GameOver closes the report
        emit(j, jr.GAME_OVER, -1, 0, 0, 0, 0, 0, 0, 0.0, 0.0)
    return schedule
