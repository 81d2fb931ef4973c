"""R6, R12: what one player may know.

An observation lists the player's own pieces with their traits and the other players' *visible*
pieces without theirs (opponents see owner, type and cell only); enemy invisible pieces are absent.
Pieces are named by identifiers that carry no information and listed in identifier order (R6).
It also carries the messages delivered to the player last turn, the events it was told of, its own
timer, the living players and the standing NUL proposals.

Pieces come both as arrays (for fast agents) and as :class:`PieceView` records (``.pieces``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from antipolix.observation import UNKNOWN_TRAIT
from antipolix.pieces import INVISIBLE as _INVISIBLE
from antipolix.world import IntArray, indices
from tests.oracle.state import Board


def visible_mask(board: Board, player: int) -> npt.NDArray[np.bool_]:
    """R6: living pieces ``player`` may see (own pieces, and others' non-invisible pieces)."""
    n = board.count
    own = board.owner[:n] == player
    mask: npt.NDArray[np.bool_] = board.alive[:n] & (own | (board.trait[:n] != _INVISIBLE))
    return mask


def observe_pieces(
    board: Board, player: int
) -> tuple[IntArray, npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int8], IntArray]:
    """The pieces ``player`` sees, as arrays in identifier order (never placement order, R6)."""
    rows = board.by_id(indices(visible_mask(board, player)))
    owners = board.owner[rows]
    traits = np.where(owners == player, board.trait[rows], UNKNOWN_TRAIT).astype(np.int8)
    return board.ids[rows], owners, board.kind[rows], traits, board.pos[rows]
