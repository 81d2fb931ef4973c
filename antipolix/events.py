"""What happens in a turn, in order: the turn report's events.

Each event says who is told of it (:meth:`Event.audience`): ``None`` means every player; otherwise
the players named. A player's observation (R6, R12) carries only the events it is told of, with
what R6 hides from that player left out (:meth:`Event.redacted`): the identifiers of other
players' invisible pieces, and the cell of a teleport landing on a piece it cannot see. The turn
report and a replay carry every event whole (the full truth). Lists of identifiers in an event
are sorted, so their order says nothing either.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from antipolix.combat import Outcome
from antipolix.end import GameResult
from antipolix.messages import Command
from antipolix.orders import Order
from antipolix.world import Cell


class Elimination(enum.StrEnum):
    """Why a player is out (R7 timer, R8 chief taken, R9 QUIT); written as its value."""

    CHIEF = "chief"
    TIMER = "timer"
    QUIT = "quit"


_SCALARS = frozenset((int, float, str, bool, type(None)))  # exact types, returned as they are
_FIELDS: dict[type, tuple[str, ...]] = {}  # field names of each dataclass met, in order


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    names = _FIELDS.get(kind)  # (events are made by the hundred a turn: fields looked up once)
    if names is None:
        if isinstance(value, enum.StrEnum):
            return value.value
        if isinstance(value, enum.Enum):
            return value.name
        if isinstance(value, (tuple, list)):
            return [_plain(v) for v in value]
        if not hasattr(value, "__dataclass_fields__"):
            return value
        names = tuple(f.name for f in fields(value))
        if not isinstance(value, type):
            _FIELDS[kind] = names
    out = {}
    for name in names:  # (most fields are numbers: taken as they are, without a call)
        field_value = getattr(value, name)
        out[name] = field_value if type(field_value) in _SCALARS else _plain(field_value)
    out["kind"] = kind.__name__
    return out


@functools.cache
def _alone(player: int) -> frozenset[int]:
    return frozenset((player,))


@dataclass(frozen=True, slots=True)
class Event:
    """Base of the events. ``TOLD`` names the fields that hold the players told of an event
    (None: everyone)."""

    TOLD: ClassVar[tuple[str, ...] | None] = None

    def audience(self) -> frozenset[int] | None:
        told = self.TOLD
        if told is None:
            return None
        if len(told) == 1:  # (most events: one player told, its set made once)
            return _alone(getattr(self, told[0]))
        return frozenset(getattr(self, name) for name in told)

    def redacted(self, hidden: Callable[[int], bool]) -> Event:
        """The event as a player is told it: what ``hidden`` (identifier → hidden from that
        player?) says it may not know left out (R6)."""
        return self

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form (enums by name, tuples as lists), with the event's ``kind``."""
        out: dict[str, Any] = _plain(self)
        return out


@dataclass(frozen=True, slots=True)
class Received(Event):
    """R7: the player's submission arrived at ``at`` seconds into the turn."""

    player: int
    at: float

    TOLD = ("player",)


@dataclass(frozen=True, slots=True)
class Rejected(Event):
    """R4: an order no longer valid when its turn came; nothing changed."""

    player: int
    order: Order
    reason: str

    TOLD = ("player",)


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """R7, R9, R10: a pending order dropped because its player left or the game ended."""

    player: int
    order: Order
    reason: str

    TOLD = ("player",)


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """R4: a piece moved (opponents see only the board, and nothing of invisible pieces)."""

    player: int
    piece: int
    src: Cell
    dst: Cell

    TOLD = ("player",)


@dataclass(frozen=True, slots=True)
class Crushed(Event):
    """R6: a move onto an enemy invisible piece destroyed it; both players are told.

    As told: the mover learns whose piece it crushed but not its identifier (``victim`` None);
    the crushed piece's owner learns the mover's identity only if it can see the mover
    (``piece`` None for an invisible mover).
    """

    player: int
    piece: int | None
    victim: int | None
    victim_owner: int
    cell: Cell

    TOLD = ("player", "victim_owner")

    def redacted(self, hidden: Callable[[int], bool]) -> Event:
        piece = None if self.piece is None or hidden(self.piece) else self.piece
        victim = None if self.victim is None or hidden(self.victim) else self.victim
        if piece == self.piece and victim == self.victim:
            return self  # (nothing hidden: the event itself, whose plain form is made once)
        return replace(self, piece=piece, victim=victim)


@dataclass(frozen=True, slots=True)
class Combat(Event):
    """R8: an attack resolved: the pieces that took part, those dropped, both powers."""

    player: int
    pieces: tuple[int, ...]
    dropped: tuple[tuple[int, str], ...]
    target: int
    target_owner: int
    cell: Cell
    attack: int
    defence: int

    @property
    def success(self) -> bool:
        return self.attack > self.defence

    def redacted(self, hidden: Callable[[int], bool]) -> Event:
        """The defender is not told the ids of invisible attackers (only the powers)."""
        pieces = tuple(p for p in self.pieces if not hidden(p))
        dropped = tuple(d for d in self.dropped if not hidden(d[0]))
        if len(pieces) == len(self.pieces) and len(dropped) == len(self.dropped):
            return self  # (nothing hidden)
        return replace(self, pieces=pieces, dropped=dropped)

    TOLD = ("player", "target_owner")


@dataclass(frozen=True, slots=True)
class Fate(Event):
    """R8: the draw after a successful attack and what it did to the target.

    ``landing`` is the drawn cell of a teleport; ``destroyed`` is true for DESTROY and for a
    teleport onto an occupied cell, whose piece is ``landed_on`` (the target itself when the draw
    is its own cell). A player who cannot see that piece is told only that the target was
    destroyed: ``landing`` and ``landed_on`` None (R6).
    """

    player: int
    target: int
    target_owner: int
    outcome: Outcome
    draw: float
    landing: Cell | None
    destroyed: bool
    landed_on: int | None = None

    TOLD = ("player", "target_owner")

    def redacted(self, hidden: Callable[[int], bool]) -> Event:
        if self.landed_on is None or not hidden(self.landed_on):
            return self
        return replace(self, landing=None, landed_on=None)


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    """R7, R8, R9: a player is out, for a ``reason`` (:class:`Elimination`).

    ``by`` is the player who took the chief (who receives ``taken``, the eliminated player's
    remaining pieces); ``removed`` are pieces taken off the board (timer, quit).
    """

    player: int
    reason: Elimination
    at: float
    by: int | None
    taken: tuple[int, ...]
    removed: tuple[int, ...]

    def redacted(self, hidden: Callable[[int], bool]) -> Event:
        """Other players are not told the ids of invisible pieces taken or removed."""
        taken = tuple(p for p in self.taken if not hidden(p))
        removed = tuple(p for p in self.removed if not hidden(p))
        if len(taken) == len(self.taken) and len(removed) == len(self.removed):
            return self  # (nothing hidden)
        return replace(self, taken=taken, removed=removed)


@dataclass(frozen=True, slots=True)
class Sent(Event):
    """R9: a text delivered (to everyone when ``to`` is None)."""

    sender: int
    to: int | None
    text: str

    def audience(self) -> frozenset[int] | None:
        return None if self.to is None else frozenset((self.sender, self.to))


@dataclass(frozen=True, slots=True)
class Undelivered(Event):
    """R9: a text that could not be delivered, with the reason."""

    sender: int
    to: int | None
    reason: str

    TOLD = ("sender",)


@dataclass(frozen=True, slots=True)
class Commanded(Event):
    """R9: a NUL or WAR command (QUIT shows as :class:`Eliminated`)."""

    player: int
    command: Command


@dataclass(frozen=True, slots=True)
class TimerChanged(Event):
    """R7: a player's timer over the turn."""

    player: int
    before: float
    after: float

    TOLD = ("player",)


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """R10: the game ended."""

    result: GameResult
