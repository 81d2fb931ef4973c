"""The game state as arrays: a piece table (struct of arrays) and an occupancy grid.

Every change of the board goes through the few methods of :class:`Board`, which keep the grid, the
table, each player's chief and the teleporter networks (R5) consistent.

Pieces are *rows* of the table, in placement order, inside the engine; the grid holds rows. The
world outside (orders, events, observations, replays) names a piece by its *identifier*
(:mod:`antipolix.ids`, R6), which says nothing of placement order: ``ids[row]`` and
:meth:`Board.row` convert. Rows and identifiers are never reused.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from antipolix.ids import PieceNames
from antipolix.pieces import TELEPORTER as _TELEPORTER
from antipolix.pieces import Piece, PieceType, Trait
from antipolix.world import Cell, IntArray, Shape, cube, indices
from tests.oracle.reach import Network, cached_network

ALL_OWNERS = -1  # network key when every player's teleporters serve (teleport_network="all")


class Board:
    """Pieces and the occupancy grid of one game. No Python object per cell."""

    def __init__(self, shape: Shape, players: int, teleport_field: int, names: PieceNames) -> None:
        self.shape = shape
        self.names = names
        self.players = players
        self.teleport_field = teleport_field
        self.grid: npt.NDArray[np.int32] = np.full(shape, -1, dtype=np.int32)
        capacity = 16
        self.owner: npt.NDArray[np.int8] = np.zeros(capacity, dtype=np.int8)
        self.kind: npt.NDArray[np.int8] = np.zeros(capacity, dtype=np.int8)
        self.trait: npt.NDArray[np.int8] = np.zeros(capacity, dtype=np.int8)
        self.pos: IntArray = np.zeros((capacity, 3), dtype=np.int64)
        self.alive: npt.NDArray[np.bool_] = np.zeros(capacity, dtype=bool)
        self.ids: IntArray = np.zeros(capacity, dtype=np.int64)  # row → identifier (R6)
        self._rows: dict[int, int] = {}  # identifier → row
        self.count = 0
        self.chief: list[int] = [-1] * players
        self._networks: dict[int, Network] = {}

    # -- reading ---------------------------------------------------------------------------------

    def at(self, cell: Cell) -> int:
        """Row of the piece on ``cell``, or -1."""
        return int(self.grid[cell])

    def row(self, pid: int) -> int:
        """Row of the piece with identifier ``pid``, or -1 if no piece ever had it."""
        return self._rows.get(pid, -1)

    def cell(self, pid: int) -> Cell:
        z, y, x = self.pos[pid]
        return (int(z), int(y), int(x))

    def record(self, row: int) -> Piece:
        return Piece(
            id=int(self.ids[row]),
            owner=int(self.owner[row]),
            type=PieceType(int(self.kind[row])),
            trait=Trait(int(self.trait[row])),
            cell=self.cell(row),
            alive=bool(self.alive[row]),
        )

    def by_id(self, rows: IntArray) -> IntArray:
        """``rows`` reordered by identifier: the order the world outside sees (R6)."""
        out: IntArray = rows[np.argsort(self.ids[rows], kind="stable")]
        return out

    def living_rows(self) -> IntArray:
        """Rows of the living pieces."""
        return indices(self.alive[: self.count])

    def pieces_of(self, player: int) -> IntArray:
        """Rows of ``player``'s living pieces."""
        n = self.count
        rows: IntArray = indices(self.alive[:n] & (self.owner[:n] == player))
        return rows

    def around(self, cell: Cell) -> IntArray:
        """Rows of the pieces within radius 1 of ``cell`` (the 3×3×3 cube, centre excluded)."""
        ids = self.grid[cube(self.shape, cell)].ravel()
        centre = self.grid[cell]
        out: IntArray = ids[(ids >= 0) & (ids != centre)].astype(np.int64)
        return out

    def network(self, owner: int) -> Network:
        """The teleporter network of ``owner`` (or of everyone, ``ALL_OWNERS``), cached."""
        net = self._networks.get(owner)
        if net is None:
            n = self.count
            mask = self.alive[:n] & (self.trait[:n] == _TELEPORTER)
            if owner != ALL_OWNERS:
                mask &= self.owner[:n] == owner
            ids = indices(mask)
            net = cached_network(ids, self.pos[ids], self.teleport_field)
            self._networks[owner] = net
        return net

    # -- changing --------------------------------------------------------------------------------

    def _touch(self, pid: int) -> None:
        if self.trait[pid] == _TELEPORTER:
            self._networks.clear()

    def add(self, owner: int, kind: PieceType, trait: Trait, cell: Cell) -> int:
        if self.count == len(self.alive):
            grow = len(self.alive)
            self.owner = np.concatenate([self.owner, np.zeros(grow, dtype=np.int8)])
            self.kind = np.concatenate([self.kind, np.zeros(grow, dtype=np.int8)])
            self.trait = np.concatenate([self.trait, np.zeros(grow, dtype=np.int8)])
            self.pos = np.concatenate([self.pos, np.zeros((grow, 3), dtype=np.int64)])
            self.alive = np.concatenate([self.alive, np.zeros(grow, dtype=bool)])
            self.ids = np.concatenate([self.ids, np.zeros(grow, dtype=np.int64)])
        pid = self.count
        self.count += 1
        self.owner[pid], self.kind[pid], self.trait[pid] = owner, kind, trait
        self.pos[pid] = cell
        self.alive[pid] = True
        flat = (cell[0] * self.shape[1] + cell[1]) * self.shape[2] + cell[2]
        self.ids[pid] = self.names(flat)
        self._rows[int(self.ids[pid])] = pid
        self.grid[cell] = pid
        if trait is Trait.CHIEF:
            self.chief[owner] = pid
        self._touch(pid)
        return pid

    def move(self, pid: int, cell: Cell) -> None:
        self.grid[self.cell(pid)] = -1
        self.grid[cell] = pid
        self.pos[pid] = cell
        self._touch(pid)

    def remove(self, pid: int) -> None:
        """Take a piece off the board (destroyed or removed); it keeps its last cell and owner."""
        self.grid[self.cell(pid)] = -1
        self.alive[pid] = False
        owner = int(self.owner[pid])
        if self.chief[owner] == pid:
            self.chief[owner] = -1
        self._touch(pid)

    def set_owner(self, pid: int, owner: int) -> None:
        old = int(self.owner[pid])
        if self.chief[old] == pid:
            self.chief[old] = -1
        self.owner[pid] = owner
        self._touch(pid)

    def set_trait(self, pid: int, trait: Trait) -> None:
        self._touch(pid)
        owner = int(self.owner[pid])
        if self.chief[owner] == pid:
            self.chief[owner] = -1
        self.trait[pid] = trait
        if trait is Trait.CHIEF:
            self.chief[owner] = pid
        self._touch(pid)
