"""R4 Orders: one per living player per turn, resolved one at a time in reception order.

Each order is checked twice. When given (:func:`normalise`), a malformed order, a piece that is not
one of the player's living pieces, or a cell off the board raises an :class:`OrderError` before
anything changes (naming a piece the player cannot know gets the same answer as naming none,
R6). When its turn comes, the game checks it against the state left by the orders resolved
before it; an order no longer valid is a rejected event with its reason, not an error.

A cell is the tuple ``(z, y, x)`` (R1: board, row, column), written ``z2 y5 x4`` wherever a
person reads it (logs, reasons, errors; :func:`antipolix.world.cell_text`).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass

from antipolix.errors import NotYourPieceError, OrderError, UnknownPieceError
from antipolix.pieces import INVISIBLE
from antipolix.state import Board
from antipolix.world import Cell, as_cell


@dataclass(frozen=True, slots=True)
class Move:
    """Displace one own piece to a reachable free cell ``(z, y, x)`` (R1, R4, R5)."""

    piece: int
    cell: Cell


@dataclass(frozen=True, slots=True)
class Attack:
    """One or more own pieces attack the enemy piece on ``cell``, ``(z, y, x)`` (R1, R4,
    R8)."""

    pieces: tuple[int, ...]
    cell: Cell

    def __init__(self, pieces: Iterable[int] | int, cell: Cell) -> None:
        ids = (pieces,) if isinstance(pieces, int) else tuple(pieces)
        object.__setattr__(self, "pieces", ids)
        object.__setattr__(self, "cell", cell)


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing this turn (R4)."""


Order = Move | Attack | Pass


def _piece_id(value: object, player: int, board: Board) -> int:
    """The identifier of one of ``player``'s living pieces, or an :class:`OrderError`.

    An identifier the player cannot know (an enemy's invisible piece, a piece that no longer
    exists, one that never did) gets the same answer, so that the refusal leaks nothing (R6).
    """
    try:
        pid = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise OrderError(f"player {player}: piece id {value!r} is not an integer") from None
    row = board.row(pid)
    owner = int(board.owner[row]) if row >= 0 else -1
    if row < 0 or not board.alive[row] or (owner != player and board.trait[row] == INVISIBLE):
        raise UnknownPieceError(f"player {player} has no piece {pid}")
    if owner != player:
        raise NotYourPieceError(f"player {player}: piece {pid} is player {owner}'s, not yours")
    return pid


def normalise(player: int, order: object, board: Board) -> Order:
    """Check an order as given at the start of the turn; return it with plain-int fields."""
    if isinstance(order, Pass):
        return order
    if isinstance(order, Move):
        pid = _piece_id(order.piece, player, board)
        cell = as_cell(board.shape, order.cell, f"player {player}: move target")
        if type(order.piece) is int and cell is order.cell:  # plain already
            return order
        return Move(pid, cell)
    if isinstance(order, Attack):
        if not order.pieces:
            raise OrderError(f"player {player}: an attack needs at least one piece")
        ids = tuple(_piece_id(p, player, board) for p in order.pieces)
        if len(set(ids)) != len(ids):
            raise OrderError(f"player {player}: an attack lists a piece twice: {list(ids)}")
        return Attack(ids, as_cell(board.shape, order.cell, f"player {player}: attack target"))
    raise OrderError(
        f"player {player}: an order must be Move, Attack or Pass, got {type(order).__name__}"
    )
