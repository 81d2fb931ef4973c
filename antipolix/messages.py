"""R9 Messages and the QUIT / NUL / WAR commands.

A player sends texts and commands with its turn (``play_turn(..., messages={player: [...]})``);
they are handled at the player's reception instant, just before its order. A text goes to everyone
(``to=None``) or to one player, which needs contact: a piece of the sender within radius 1 of a
piece of the recipient, checked against the state at the start of the turn. Delivered texts appear
in the recipient's next observation.

Contact (:func:`antipolix.turn.contacts`) counts visible pieces only: a delivery (or its
refusal) would otherwise tell the sender that an invisible piece of the recipient stands next to
its pieces, or tell the recipient that an invisible piece of the sender does, which R6 forbids
(nothing in an observation lets a player infer the presence or cell of an invisible piece).
"""

from __future__ import annotations

import enum
import operator
from dataclasses import dataclass

from antipolix.errors import MessageError


@dataclass(frozen=True, slots=True)
class Message:
    """A text to everyone (``to=None``) or to one player."""

    text: str
    to: int | None = None


class Command(enum.Enum):
    """Commands to the server (R9)."""

    QUIT = "QUIT"  # the sender is eliminated, its pieces are removed
    NUL = "NUL"  # the sender proposes a draw
    WAR = "WAR"  # the sender withdraws its proposal


@dataclass(frozen=True, slots=True)
class Delivered:
    """A message as its recipient receives it."""

    turn: int
    sender: int
    text: str
    to: int | None  # None: it was sent to everyone


def normalise(sender: int, item: object, players: int) -> Message | Command:
    """Check a message or command as given; raise :class:`MessageError` if malformed."""
    if isinstance(item, Command):
        return item
    if not isinstance(item, Message):
        raise MessageError(
            f"player {sender}: a message must be a Message or a Command, got {type(item).__name__}"
        )
    if not isinstance(item.text, str):
        raise MessageError(f"player {sender}: message text must be a str, got {item.text!r}")
    if item.to is None:
        return item
    try:
        to = operator.index(item.to)
    except TypeError:
        raise MessageError(f"player {sender}: recipient {item.to!r} is not a player") from None
    if not 0 <= to < players:
        raise MessageError(
            f"player {sender}: there is no player {to} (players are 0..{players - 1})"
        )
    if to == sender:
        raise MessageError(f"player {sender}: cannot send a message to oneself")
    return Message(item.text, to)
