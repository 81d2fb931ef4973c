"""A turn's events as the compiled core writes them, and their decoding into event objects.

The kernels of a turn (:mod:`antipolix.turn`) record each event as one row of numbers in a
:class:`Journal`: its kind, its player and up to six integer fields (``A`` … ``F``), two floats,
and a slice of a shared buffer of identifiers for the lists (attackers, dropped pieces,
eliminated players' pieces, a broadcast's recipients). :func:`decode` turns the rows into the
event objects of :mod:`antipolix.events`, with the reasons' texts; it needs the turn's orders
and messages, which the journal names by player and index.

The journal is sized before the turn from what the turn can produce at most
(:func:`journal_for`); writing past it raises instead of corrupting memory.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba.extending import overload

from antipolix.combat import Outcome
from antipolix.end import GameResult
from antipolix.events import (
    Combat,
    Commanded,
    Crushed,
    Discarded,
    Eliminated,
    Elimination,
    Event,
    Fate,
    GameOver,
    Moved,
    Received,
    Rejected,
    Sent,
    TimerChanged,
    Undelivered,
)
from antipolix.jit import JIT, both, kernel, record
from antipolix.messages import Command, Message
from antipolix.orders import Attack, Move, Order
from antipolix.world import Cell, IntArray, Shape, cell_text

# event kinds
RECEIVED, DISCARDED, REJECTED, MOVED, CRUSHED, COMBAT, FATE = range(7)
ELIMINATED, COMMANDED, SENT, UNDELIVERED, TIMER_CHANGED, GAME_OVER = range(7, 13)
# columns of ``head``
KIND, PLAYER, A, B, C, D, E, F, START, STOP = range(10)
WIDTH = 10

# Discarded: why (A)
GAME_IS_OVER, GONE_BEFORE, QUIT_FIRST = range(3)
DISCARD_REASONS = (
    "the game is over",
    "eliminated before the order arrived",
    "the player quit",
)
# Rejected: why (A), with an argument (B)
DESTROYED, OWNED, IMMOBILE, OUT_OF_REACH, HOLDS_YOURS, HOLDS_ENEMY = range(6)
NO_TARGET, OWN_TARGET, NO_ATTACKER = range(6, 9)
# an attacker dropped from an attack (R4), with an argument: (identifier, why, argument)
DROP_DESTROYED, DROP_OWNED, DROP_FORTRESS, DROP_REACH = range(4)
# Undelivered: why (B)
RECIPIENT_GONE, NO_CONTACT = range(2)
# commands and messages, as the turn kernel takes them: (player, what, recipient)
QUIT, NUL, WAR, TEXT = range(4)
COMMANDS = {Command.QUIT: QUIT, Command.NUL: NUL, Command.WAR: WAR}
ELIMINATIONS = (Elimination.CHIEF, Elimination.TIMER, Elimination.QUIT)


class Journal(NamedTuple):
    """One turn's events: ``head[i]`` and ``num[i]`` for event ``i < n[0]``; the lists they
    name are ``ids[head[i, START]:head[i, STOP]]`` (``n[1]`` of the buffer used)."""

    head: IntArray  # (events, WIDTH)
    num: npt.NDArray[np.float64]  # (events, 2)
    ids: IntArray
    n: IntArray  # (2,)


make_journal = record(Journal)


@both
def new_journal(events: int, ids: int) -> Journal:
    return make_journal(
        np.zeros((max(events, 1), WIDTH), dtype=np.int64),
        np.zeros((max(events, 1), 2), dtype=np.float64),
        np.zeros(max(ids, 1), dtype=np.int64),
        np.zeros(2, dtype=np.int64),
    )


@both
def journal_for(players: int, pieces: int, listed: int, mail: int) -> Journal:
    """A journal large enough for any turn of a game of ``players`` players and ``pieces``
    pieces placed, whose orders list ``listed`` attackers in all and whose players send
    ``mail`` messages and commands in all."""
    events = 5 * players + mail + 2
    ids = 3 * listed + pieces * players + mail * players + 8
    return new_journal(events, ids)


@kernel
def clear(j: Journal) -> None:
    j.n[0] = 0
    j.n[1] = 0


@kernel
def emit(
    j: Journal,
    kind: int,
    player: int,
    a: int,
    b: int,
    c: int,
    d: int,
    e: int,
    f: int,
    x: float,
    y: float,
) -> int:
    """Append an event (its list, if any, is the identifiers pushed since :func:`begin_list`);
    returns its index."""
    i = j.n[0]
    if i >= len(j.head):
        raise IndexError("journal full")
    h = j.head[i]
    h[KIND], h[PLAYER], h[A], h[B], h[C], h[D], h[E], h[F] = kind, player, a, b, c, d, e, f
    h[START] = h[STOP] = j.n[1]
    j.num[i, 0], j.num[i, 1] = x, y
    j.n[0] = i + 1
    return int(i)


@kernel
def push(j: Journal, value: int) -> None:
    """Append ``value`` to the list of the last event."""
    k = j.n[1]
    if k >= len(j.ids):
        raise IndexError("journal full")
    j.ids[k] = value
    j.n[1] = k + 1
    j.head[j.n[0] - 1, STOP] = k + 1


FNV_OFFSET = 0xCBF29CE484222325  # FNV-1a, 64 bits
FNV_PRIME = 0x100000001B3
_MASK = (1 << 64) - 1


def _fnv(h: Any, x: Any) -> Any:
    """One FNV-1a step over the 64 bits of ``x`` (Python integers, masked)."""
    return ((int(h) ^ (int(x) & _MASK)) * FNV_PRIME) & _MASK


if JIT:

    @overload(_fnv)
    def _fnv_typer(h, x):  # type: ignore[no-untyped-def]  # compiled: wrapping uint64 arithmetic
        def impl(h, x):  # type: ignore[no-untyped-def]
            return (np.uint64(h) ^ np.uint64(x)) * np.uint64(FNV_PRIME)

        return impl


@kernel
def digest(j: Journal, h: np.uint64) -> np.uint64:
    """``h`` carried over the turn's events as recorded (FNV-1a over every number, floats by
    their bits): equal digests from :data:`FNV_OFFSET` on mean the same events, as far as a
    64-bit hash can tell. Games compare by it without decoding their events."""
    head, ids = j.head.view(np.uint64), j.ids.view(np.uint64)
    num = j.num.view(np.uint64)
    for i in range(j.n[0]):
        for k in range(WIDTH):
            h = _fnv(h, head[i, k])
        h = _fnv(h, num[i, 0])
        h = _fnv(h, num[i, 1])
    for i in range(j.n[1]):
        h = _fnv(h, ids[i])
    return h


# -- decoding ----------------------------------------------------------------------------------


def _reject_reason(order: Order, why: int, arg: int, dropped: list[tuple[int, int, int]]) -> str:
    if isinstance(order, Move):
        pid, cell = order.piece, cell_text(order.cell)
        texts = {
            DESTROYED: f"piece {pid} was destroyed",
            OWNED: f"piece {pid} now belongs to player {arg}",
            IMMOBILE: f"piece {pid} is a fortress, which never moves (R2)",
            OUT_OF_REACH: f"cell {cell} is out of reach of piece {pid} (R5)",
            HOLDS_YOURS: f"cell {cell} holds your piece {arg}",
            HOLDS_ENEMY: f"cell {cell} holds an enemy piece (attack it instead)",
        }
        return texts[why]
    assert isinstance(order, Attack)
    if why == NO_TARGET:
        return f"no visible enemy piece on {cell_text(order.cell)}"
    if why == OWN_TARGET:
        return f"the piece on {cell_text(order.cell)} is yours"
    return (
        "no listed piece can attack "
        + cell_text(order.cell)
        + ": "
        + "; ".join(f"{pid} {_drop_reason(code, arg)}" for pid, code, arg in dropped)
    )


def _drop_reason(code: int, arg: int) -> str:
    if code == DROP_DESTROYED:
        return "destroyed"
    if code == DROP_OWNED:
        return f"now belongs to player {arg}"
    if code == DROP_FORTRESS:
        return "a fortress never attacks (R2)"
    return "out of reach (R5)"


def _triples(values: list[int]) -> list[tuple[int, int, int]]:
    return [(values[i], values[i + 1], values[i + 2]) for i in range(0, len(values), 3)]


def decode(
    j: Journal,
    shape: Shape,
    orders: Mapping[int, Order],
    mail: Mapping[int, Sequence[Message | Command]],
    result: Callable[[], GameResult | None],
) -> list[Event]:
    """The journal's events as objects. ``orders`` and ``mail`` are the turn's, by player;
    ``result`` gives the game's result (for the closing :class:`GameOver`)."""
    _, n, m = shape

    def cell(flat: int) -> Cell:
        zy, x = divmod(flat, m)
        z, y = divmod(zy, n)
        return (z, y, x)

    events: list[Event] = []
    head, num, ids = j.head[: j.n[0]].tolist(), j.num[: j.n[0]].tolist(), j.ids[: j.n[1]].tolist()
    for h, (x, y) in zip(head, num, strict=True):
        kind, player, a, b, c, d, e, f, start, stop = h
        listed = ids[start:stop]
        if kind == RECEIVED:
            events.append(Received(player, x))
        elif kind == DISCARDED:
            events.append(Discarded(player, orders[player], DISCARD_REASONS[a]))
        elif kind == REJECTED:
            why = _reject_reason(orders[player], a, b, _triples(listed))
            events.append(Rejected(player, orders[player], why))
        elif kind == MOVED:
            events.append(Moved(player, a, cell(b), cell(c)))
        elif kind == CRUSHED:
            events.append(Crushed(player, a, b, c, cell(d)))
        elif kind == COMBAT:
            dropped = sorted(
                (pid, _drop_reason(code, arg)) for pid, code, arg in _triples(listed[f:])
            )
            events.append(Combat(player, tuple(listed[:f]), tuple(dropped), a, b, cell(c), d, e))
        elif kind == FATE:
            landing = None if d < 0 else cell(d)
            landed = None if f < 0 else f
            events.append(Fate(player, a, b, Outcome(c), x, landing, bool(e), landed))
        elif kind == ELIMINATED:
            by = None if b < 0 else b
            pieces = tuple(listed)
            taken, removed = (pieces, ()) if by is not None else ((), pieces)
            events.append(Eliminated(player, ELIMINATIONS[a], x, by, taken, removed))
        elif kind == COMMANDED:
            events.append(Commanded(player, Command.NUL if a == NUL else Command.WAR))
        elif kind == SENT:
            item = mail[player][b]
            assert isinstance(item, Message)
            events.append(Sent(player, None if a < 0 else a, item.text))
        elif kind == UNDELIVERED:
            events.append(Undelivered(player, a, _undelivered(b, a)))
        elif kind == TIMER_CHANGED:
            events.append(TimerChanged(player, x, y))
        else:
            over = result()
            assert over is not None
            events.append(GameOver(over))
    return events


def _undelivered(why: int, to: int) -> str:
    if why == RECIPIENT_GONE:
        return f"player {to} is eliminated"
    return (
        f"no visible piece of yours was within one cell of a visible piece of "
        f"player {to} at the start of the turn (R9, R6)"
    )


def recipients(j: Journal) -> list[tuple[int, int, list[int]]]:
    """The texts delivered: ``(sender, message index, recipients)`` per :data:`SENT` event."""
    out: list[tuple[int, int, list[int]]] = []
    for h in j.head[: j.n[0]].tolist():  # (as a list: read element by element)
        if h[KIND] == SENT:
            out.append((h[PLAYER], h[B], j.ids[h[START] : h[STOP]].tolist()))
    return out
