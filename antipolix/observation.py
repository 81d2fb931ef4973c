"""R6, R12: what one player may know.

An observation lists the player's own pieces with their traits and the other players' *visible*
pieces without theirs (opponents see owner, type and cell only); enemy invisible pieces are absent.
Pieces are named by identifiers that carry no information and listed in identifier order (R6).
It also carries the messages delivered to the player last turn, the events it was told of, its own
timer, the living players and the standing NUL proposals.

Pieces come both as arrays (for fast agents) and as :class:`PieceView` records (``.pieces``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from antipolix import journal as jr
from antipolix.events import Combat, Crushed, Event
from antipolix.jit import kernel, record
from antipolix.journal import Journal
from antipolix.messages import Delivered
from antipolix.pieces import INVISIBLE, PieceType, Trait
from antipolix.state import COUNT, TURN, Arrays
from antipolix.world import Cell, IntArray, Shape

UNKNOWN_TRAIT = -1  # in ``Observation.traits``: another player's piece


@dataclass(frozen=True, slots=True)
class PieceView:
    id: int
    owner: int
    type: PieceType
    cell: Cell
    trait: Trait | None  # None for other players' pieces (R6)


class Told(NamedTuple):
    """What a player is told besides the pieces it sees: an :class:`Observation`'s first
    fields, in its order (:meth:`antipolix.game.Game.told`)."""

    player: int
    turn: int
    timer: float | None
    living: tuple[int, ...]
    nul: tuple[int, ...]
    messages: tuple[Delivered, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True, eq=False)  # holds arrays: compare fields, not observations
class Observation:
    player: int
    turn: int  # turns played so far
    timer: float | None  # own seconds left (None with timers off)
    living: tuple[int, ...]
    nul: tuple[int, ...]  # players with a standing NUL proposal (R9)
    messages: tuple[Delivered, ...]  # delivered to this player during the last turn
    events: tuple[Event, ...]  # of the last turn, those this player was told of
    ids: IntArray
    owners: npt.NDArray[np.int8]
    types: npt.NDArray[np.int8]
    traits: npt.NDArray[np.int8]  # UNKNOWN_TRAIT for other players' pieces
    cells: IntArray  # (k, 3)

    @cached_property
    def pieces(self) -> tuple[PieceView, ...]:
        return tuple(
            PieceView(
                id=int(pid),
                owner=int(owner),
                type=PieceType(int(kind)),
                cell=(int(c[0]), int(c[1]), int(c[2])),
                trait=None if trait == UNKNOWN_TRAIT else Trait(int(trait)),
            )
            for pid, owner, kind, trait, c in zip(
                self.ids, self.owners, self.types, self.traits, self.cells, strict=True
            )
        )


@kernel
def observe_k(
    a: Arrays, player: int
) -> tuple[IntArray, npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int8], IntArray]:
    """The pieces ``player`` sees (R6: its own, and others' that are not invisible), as arrays
    ``(ids, owners, types, traits, cells)`` in identifier order (never placement order); other
    players' traits read :data:`UNKNOWN_TRAIT`."""
    count = a.meta[COUNT]
    rows = np.empty(count, dtype=np.int64)
    n = 0
    alive, owner, trait = a.alive, a.owner, a.trait  # (not ``visible(a, ...)``: hot loop)
    for row in range(count):
        if alive[row] and (owner[row] == player or trait[row] != INVISIBLE):
            rows[n] = row
            n += 1
    rows = rows[:n]
    rows = rows[np.argsort(a.ids[rows])]  # identifiers are unique
    traits = np.empty(n, dtype=np.int8)
    for i in range(n):
        r = rows[i]
        traits[i] = a.trait[r] if a.owner[r] == player else UNKNOWN_TRAIT
    return a.ids[rows], a.owner[rows], a.kind[rows], traits, a.pos[rows]


# -- the compiled form, for the compiled agents ----------------------------------------------------

# columns of ``Seen.combats``
C_PLAYER, C_TARGET, C_TARGET_OWNER, C_CELL, C_ATTACK, C_DEFENCE = range(6)


class Seen(NamedTuple):
    """An observation as the compiled agents take it: the pieces the player sees (R6, in
    identifier order, as :class:`Observation`), and of the events of the last turn the ones the
    agents use, as told to the player (R6).

    ``combats[i]`` is one attack it was told of (its own, or on its pieces): attacker, target
    identifier, target owner, flat cell, attack, defence (:data:`C_PLAYER` …); the attackers
    it may name are ``combat_pieces[combat_start[i]:combat_start[i + 1]]`` (another player's
    invisible pieces left out). ``fought``: it was told of a piece taken (a successful attack)
    or crushed (R6) last turn.
    """

    player: int
    turn: int
    ids: IntArray
    owners: npt.NDArray[np.int8]
    types: npt.NDArray[np.int8]
    traits: npt.NDArray[np.int8]
    cells: IntArray
    combats: IntArray  # (c, 6)
    combat_pieces: IntArray
    combat_start: IntArray  # (c + 1,)
    fought: bool


make_seen = record(Seen)


@kernel
def hidden_from(a: Arrays, pid: int, player: int) -> bool:
    """R6: is the piece ``pid`` another player's invisible piece, to ``player``?"""
    row = a.rows[pid]
    return bool(a.trait[row] == INVISIBLE and a.owner[row] != player)


@kernel
def seen_k(a: Arrays, j: Journal, player: int) -> Seen:
    """What ``player`` sees now, with the last turn's events in ``j`` (see :class:`Seen`)."""
    ids, owners, types, traits, cells = observe_k(a, player)
    n_events = j.n[0]
    combats = np.zeros((n_events, 6), dtype=np.int64)
    pieces = np.zeros(max(j.n[1], 1), dtype=np.int64)
    start = np.zeros(n_events + 1, dtype=np.int64)
    c, k, fought = 0, 0, False
    for i in range(n_events):
        h = j.head[i]
        kind = h[jr.KIND]
        if kind == jr.CRUSHED and (h[jr.PLAYER] == player or h[jr.C] == player):
            fought = True
        if kind != jr.COMBAT or (h[jr.PLAYER] != player and h[jr.B] != player):
            continue
        combats[c] = (h[jr.PLAYER], h[jr.A], h[jr.B], h[jr.C], h[jr.D], h[jr.E])
        fought = fought or h[jr.D] > h[jr.E]
        for x in range(h[jr.START], h[jr.START] + h[jr.F]):  # the attackers (not the dropped)
            pid = j.ids[x]
            if not hidden_from(a, pid, player):
                pieces[k] = pid
                k += 1
        c += 1
        start[c] = k
    turn = a.meta[TURN]
    return make_seen(
        player,
        turn,
        ids,
        owners,
        types,
        traits,
        cells,
        combats[:c],
        pieces[:k],
        start[: c + 1],
        fought,
    )


def seen_of(obs: Observation, shape: Shape) -> Seen:
    """An :class:`Observation` as a :class:`Seen` (its events are already as told, R6)."""
    _, n, m = shape
    rows: list[tuple[int, int, int, int, int, int]] = []
    pieces: list[int] = []
    start = [0]
    fought = False
    for event in obs.events:
        if isinstance(event, Crushed) or (isinstance(event, Combat) and event.success):
            fought = True
        if isinstance(event, Combat):
            z, y, x = event.cell
            flat = (z * n + y) * m + x
            rows.append(
                (event.player, event.target, event.target_owner, flat, event.attack, event.defence)
            )
            pieces.extend(event.pieces)
            start.append(len(pieces))
    return Seen(
        obs.player,
        obs.turn,
        np.ascontiguousarray(obs.ids, dtype=np.int64),
        np.ascontiguousarray(obs.owners, dtype=np.int8),
        np.ascontiguousarray(obs.types, dtype=np.int8),
        np.ascontiguousarray(obs.traits, dtype=np.int8),
        np.ascontiguousarray(obs.cells, dtype=np.int64).reshape(-1, 3),
        np.array(rows, dtype=np.int64).reshape(-1, 6),
        np.array(pieces, dtype=np.int64),
        np.array(start, dtype=np.int64),
        fought,
    )
