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

import numpy as np
import numpy.typing as npt

from antipolix.events import Event
from antipolix.jit import kernel
from antipolix.messages import Delivered
from antipolix.pieces import PieceType, Trait
from antipolix.state import COUNT, Arrays, visible
from antipolix.world import Cell, IntArray

UNKNOWN_TRAIT = -1  # in ``Observation.traits``: another player's piece


@dataclass(frozen=True, slots=True)
class PieceView:
    id: int
    owner: int
    type: PieceType
    cell: Cell
    trait: Trait | None  # None for other players' pieces (R6)


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
    for row in range(count):
        if a.alive[row] and visible(a, row, player):
            rows[n] = row
            n += 1
    rows = rows[:n]
    rows = rows[np.argsort(a.ids[rows])]  # identifiers are unique
    traits = np.empty(n, dtype=np.int8)
    for i in range(n):
        r = rows[i]
        traits[i] = a.trait[r] if a.owner[r] == player else UNKNOWN_TRAIT
    return a.ids[rows], a.owner[rows], a.kind[rows], traits, a.pos[rows]
