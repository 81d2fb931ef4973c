"""R9 Messages and the QUIT / NUL / WAR commands.

A player sends texts and commands with its turn (``play_turn(..., messages={player: [...]})``);
they are handled at the player's reception instant, just before its order. A text goes to everyone
(``to=None``) or to one player, which needs contact: a piece of the sender within radius 1 of a
piece of the recipient, checked against the state at the start of the turn. Delivered texts appear
in the recipient's next observation.

Contact counts visible pieces only: a delivery (or its refusal) would otherwise tell the sender
that an invisible piece of the recipient stands next to its pieces, or tell the recipient that
an invisible piece of the sender does, which R6 forbids (nothing in an observation lets a player
infer the presence or cell of an invisible piece).
"""

from __future__ import annotations

import operator

from antipolix.errors import MessageError
from antipolix.messages import Command, Message
from antipolix.pieces import INVISIBLE
from tests.oracle.state import Board


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


def contacts(board: Board) -> set[tuple[int, int]]:
    """Pairs ``(a, b)`` of players where a visible piece of ``a`` is within radius 1 of a visible
    piece of ``b`` (R9, with R6: invisible pieces make no contact).

    Symmetric. Looks only at each living piece's 3×3×3 cube, never the whole board.
    """
    pairs: set[tuple[int, int]] = set()
    for row in board.living_rows().tolist():
        if board.trait[row] == INVISIBLE:
            continue
        owner = int(board.owner[row])
        around = board.around(board.cell(row))
        around = around[board.trait[around] != INVISIBLE]
        for other in set(board.owner[around].tolist()):
            if other != owner:
                pairs.add((owner, int(other)))
    return pairs
