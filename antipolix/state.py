"""The game state as arrays: a piece table (struct of arrays) and an occupancy grid.

Every change of the board goes through the few methods of :class:`Board`, which keep the grid, the
table, each player's chief and the teleporter networks (R5) consistent. Piece ids are rows of the
table and are never reused.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from antipolix.pieces import TELEPORTER as _TELEPORTER
from antipolix.pieces import Piece, PieceType, Trait
from antipolix.reach import Network, cached_network
from antipolix.world import Cell, IntArray, Shape, cube, indices

ALL_OWNERS = -1  # network key when every player's teleporters serve (teleport_network="all")


class Board:
    """Pieces and the occupancy grid of one game. No Python object per cell."""

    def __init__(self, shape: Shape, players: int, teleport_field: int) -> None:
        self.shape = shape
        self.players = players
        self.teleport_field = teleport_field
        self.grid: npt.NDArray[np.int32] = np.full(shape, -1, dtype=np.int32)
        capacity = 16
        self.owner: npt.NDArray[np.int8] = np.zeros(capacity, dtype=np.int8)
        self.kind: npt.NDArray[np.int8] = np.zeros(capacity, dtype=np.int8)
        self.trait: npt.NDArray[np.int8] = np.zeros(capacity, dtype=np.int8)
        self.pos: IntArray = np.zeros((capacity, 3), dtype=np.int64)
        self.alive: npt.NDArray[np.bool_] = np.zeros(capacity, dtype=bool)
        self.count = 0
        self.chief: list[int] = [-1] * players
        self._networks: dict[int, Network] = {}

    # -- reading ---------------------------------------------------------------------------------

    def at(self, cell: Cell) -> int:
        """Id of the piece on ``cell``, or -1."""
        return int(self.grid[cell])

    def cell(self, pid: int) -> Cell:
        z, y, x = self.pos[pid]
        return (int(z), int(y), int(x))

    def record(self, pid: int) -> Piece:
        return Piece(
            id=pid,
            owner=int(self.owner[pid]),
            type=PieceType(int(self.kind[pid])),
            trait=Trait(int(self.trait[pid])),
            cell=self.cell(pid),
            alive=bool(self.alive[pid]),
        )

    def living_ids(self) -> IntArray:
        return indices(self.alive[: self.count])

    def pieces_of(self, player: int) -> IntArray:
        n = self.count
        ids: IntArray = indices(self.alive[:n] & (self.owner[:n] == player))
        return ids

    def around(self, cell: Cell) -> IntArray:
        """Ids of the pieces within radius 1 of ``cell`` (the 3×3×3 cube, centre excluded)."""
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
        pid = self.count
        self.count += 1
        self.owner[pid], self.kind[pid], self.trait[pid] = owner, kind, trait
        self.pos[pid] = cell
        self.alive[pid] = True
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
