"""The game state as arrays, and the few compiled operations that change the board.

One game's state is one :class:`Arrays` (a named tuple of numpy arrays, so that compiled kernels
take it whole): a piece table (a struct of arrays, one row per piece in placement order), the
occupancy grid (flat, holding rows), each player's chief, the teleporter networks (R5, kept per
owner and rebuilt only when a teleporter changes), the players (living, NUL proposals,
elimination order), the clocks (R7) and a few counters in ``meta``.

Pieces are *rows* of the table inside the engine; the world outside (orders, events,
observations, replays) names a piece by its *identifier* (:mod:`antipolix.ids`, R6): ``ids[row]``
and ``rows[id]`` convert. Rows and identifiers are never reused.

:class:`Board` is the Python view of the board part (``board.at(cell)``, ``board.owner[row]``,
``board.grid[z, y, x]``...), for the Python API and tests.
"""

from __future__ import annotations

from typing import NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from antipolix.jit import both, kernel, record
from antipolix.pieces import CHIEF, INVISIBLE, TELEPORTER, Piece, PieceType, Trait
from antipolix.reach import components_k
from antipolix.world import Cell, IntArray, Shape

# meta counters
COUNT = 0  # rows used
TURN = 1  # turns played
N_ELIM = 2  # players eliminated so far
WINNER = 3  # the winner, -1 (none yet, or a draw)
REASON = 4  # -1 while the game runs, else the EndReason code (antipolix.end.REASONS)
HALF = 5  # bits per half of the identifiers' Feistel block (antipolix.ids)
SEAT = 6  # the last seat that placed (R3: placement goes in seat order)
PHASE = 7  # 0 placement, 1 play, 2 over
META = 8

BoolArray = npt.NDArray[np.bool_]
A = TypeVar("A", bound=npt.NDArray[np.generic])
FloatArray = npt.NDArray[np.float64]


class Arrays(NamedTuple):
    """One game's state (see the module docstring); every array is owned by the game."""

    dims: IntArray  # (3,) the board's shape (P, N, N)
    grid: npt.NDArray[np.int32]  # (cells,) row on each cell, or -1
    owner: npt.NDArray[np.int8]  # (cap,)
    kind: npt.NDArray[np.int8]
    trait: npt.NDArray[np.int8]
    pos: IntArray  # (cap, 3)
    alive: BoolArray
    ids: IntArray  # row → identifier
    rows: IntArray  # (cells,) identifier → row, or -1
    chief: IntArray  # (players,) the row of each player's chief, or -1
    spent: IntArray  # (players,) budget points placed (R3)
    net_ok: BoolArray  # (players + 1,) is this owner's network (the last: everyone's) current?
    net_n: IntArray  # (players + 1,) teleporters in it
    net_cells: IntArray  # (players + 1, tcap, 3)
    net_labels: IntArray  # (players + 1, tcap) component of each
    living: BoolArray  # (players,)
    nul: BoolArray  # (players,) standing NUL proposals (R9)
    elim: IntArray  # (players,) elimination order, N_ELIM long
    timers: FloatArray  # (players,) seconds left (R7)
    arrived: BoolArray  # (players,) submitted this turn (R7)
    clock: FloatArray  # (1,) seconds since the turn began
    keys: npt.NDArray[np.uint64]  # the identifiers' round keys
    meta: IntArray  # (META,)


make_arrays = record(Arrays)


@both
def new_arrays(
    dims: IntArray, players: int, capacity: int, teleporters: int, keys: npt.NDArray[np.uint64]
) -> Arrays:
    """Empty state for a board of shape ``dims`` ``(P, N, N)``: room for ``capacity`` pieces of
    which at most ``teleporters`` teleporters (see :func:`grown` for more); every player
    living."""
    cells = dims[0] * dims[1] * dims[2]
    cap, tcap = max(capacity, 1), max(teleporters, 1)
    meta = np.zeros(META, dtype=np.int64)
    meta[WINNER] = meta[REASON] = -1
    bits = 1
    while (1 << bits) < cells:  # bits to number the cells (at least 1)
        bits += 1
    meta[HALF] = (bits + 1) // 2
    return make_arrays(
        dims.copy(),
        np.full(cells, -1, dtype=np.int32),
        np.zeros(cap, dtype=np.int8),
        np.zeros(cap, dtype=np.int8),
        np.zeros(cap, dtype=np.int8),
        np.zeros((cap, 3), dtype=np.int64),
        np.zeros(cap, dtype=np.bool_),
        np.zeros(cap, dtype=np.int64),
        np.full(cells, -1, dtype=np.int64),
        np.full(players, -1, dtype=np.int64),
        np.zeros(players, dtype=np.int64),
        np.zeros(players + 1, dtype=np.bool_),
        np.zeros(players + 1, dtype=np.int64),
        np.zeros((players + 1, tcap, 3), dtype=np.int64),
        np.zeros((players + 1, tcap), dtype=np.int64),
        np.ones(players, dtype=np.bool_),
        np.zeros(players, dtype=np.bool_),
        np.zeros(players, dtype=np.int64),
        np.zeros(players, dtype=np.float64),
        np.zeros(players, dtype=np.bool_),
        np.zeros(1, dtype=np.float64),
        keys.copy(),
        meta,
    )


def grown(a: Arrays, capacity: int, teleporters: int) -> Arrays:
    """``a`` with room for at least ``capacity`` pieces and ``teleporters`` teleporters."""
    cap, tcap = len(a.alive), a.net_labels.shape[1]
    if capacity <= cap and teleporters <= tcap:
        return a
    cap2, tcap2 = max(capacity, 2 * cap), max(teleporters, 2 * tcap)

    def more(arr: A, n: int) -> A:
        out = np.zeros((n, *arr.shape[1:]), dtype=arr.dtype)
        out[: len(arr)] = arr
        return cast(A, out)

    players = len(a.living)
    return a._replace(
        owner=more(a.owner, cap2),
        kind=more(a.kind, cap2),
        trait=more(a.trait, cap2),
        pos=more(a.pos, cap2),
        alive=more(a.alive, cap2),
        ids=more(a.ids, cap2),
        net_ok=np.zeros(players + 1, dtype=np.bool_),
        net_cells=np.zeros((players + 1, tcap2, 3), dtype=np.int64),
        net_labels=np.zeros((players + 1, tcap2), dtype=np.int64),
    )


# -- compiled operations on the board ---------------------------------------------------------


@kernel
def touch(a: Arrays, row: int) -> None:
    """A piece changed: if it is a teleporter, every network must be rebuilt (R5)."""
    if a.trait[row] == TELEPORTER:
        a.net_ok[:] = False


@kernel
def flat(a: Arrays, z: int, y: int, x: int) -> int:
    """The flat index of cell ``(z, y, x)``."""
    return int((z * a.dims[1] + y) * a.dims[2] + x)


@kernel
def flat_of(a: Arrays, row: int) -> int:
    """The flat index of the cell of the piece of ``row``."""
    return flat(a, a.pos[row, 0], a.pos[row, 1], a.pos[row, 2])


@kernel
def unflat(a: Arrays, flat_cell: int) -> tuple[int, int, int]:
    """The cell ``(z, y, x)`` of a flat index."""
    zy, x = divmod(flat_cell, a.dims[2])
    z, y = divmod(zy, a.dims[1])
    return z, y, x


@kernel
def add_piece(a: Arrays, owner: int, kind: int, trait: int, at: int, pid: int) -> int:
    """Place a new piece with identifier ``pid`` on flat cell ``at``; returns its row."""
    row = a.meta[COUNT]
    a.meta[COUNT] = row + 1
    a.owner[row], a.kind[row], a.trait[row] = owner, kind, trait
    a.pos[row, 0], a.pos[row, 1], a.pos[row, 2] = unflat(a, at)
    a.alive[row] = True
    a.ids[row] = pid
    a.rows[pid] = row
    a.grid[at] = row
    if trait == CHIEF:
        a.chief[owner] = row
    touch(a, row)
    return int(row)


@kernel
def move_piece(a: Arrays, row: int, to: int) -> None:
    """Move a piece to flat cell ``to`` (free, or its own)."""
    a.grid[flat_of(a, row)] = -1
    a.grid[to] = row
    a.pos[row, 0], a.pos[row, 1], a.pos[row, 2] = unflat(a, to)
    touch(a, row)


@kernel
def remove_piece(a: Arrays, row: int) -> None:
    """Take a piece off the board (destroyed or removed); it keeps its last cell and owner."""
    a.grid[flat_of(a, row)] = -1
    a.alive[row] = False
    owner = a.owner[row]
    if a.chief[owner] == row:
        a.chief[owner] = -1
    touch(a, row)


@kernel
def set_owner(a: Arrays, row: int, owner: int) -> None:
    old = a.owner[row]
    if a.chief[old] == row:
        a.chief[old] = -1
    a.owner[row] = owner
    touch(a, row)


@kernel
def set_trait(a: Arrays, row: int, trait: int) -> None:
    touch(a, row)
    owner = a.owner[row]
    if a.chief[owner] == row:
        a.chief[owner] = -1
    a.trait[row] = trait
    if trait == CHIEF:
        a.chief[owner] = row
    touch(a, row)


@kernel
def network(a: Arrays, key: int, field: int) -> int:
    """The teleporter network of owner ``key`` (``players``: everyone's), rebuilt if stale;
    returns its size (its cells and labels are ``a.net_cells[key]``, ``a.net_labels[key]``)."""
    if a.net_ok[key]:
        return int(a.net_n[key])
    players = len(a.living)
    n = 0
    for row in range(a.meta[COUNT]):
        if a.alive[row] and a.trait[row] == TELEPORTER and (key == players or a.owner[row] == key):
            a.net_cells[key, n, 0] = a.pos[row, 0]
            a.net_cells[key, n, 1] = a.pos[row, 1]
            a.net_cells[key, n, 2] = a.pos[row, 2]
            n += 1
    components_k(a.net_cells[key, :n], field, a.net_labels[key, :n])
    a.net_n[key] = n
    a.net_ok[key] = True
    return n


@kernel
def visible(a: Arrays, row: int, player: int) -> bool:
    """R6: may ``player`` see the piece of ``row``? (its own, or another's visible piece)"""
    return bool(a.owner[row] == player or a.trait[row] != INVISIBLE)


# -- the Python view ------------------------------------------------------------------------------


class Board:
    """The board part of a game's :class:`Arrays`, for the Python API and tests: the piece
    table's columns (``owner``, ``kind``, ``trait``, ``pos``, ``alive``, ``ids``, up to
    ``count`` rows), the grid as ``(P, N, N)``, and a few look-ups."""

    def __init__(self, shape: Shape, arrays: Arrays) -> None:
        self.shape = shape
        self.arrays = arrays

    @property
    def grid(self) -> npt.NDArray[np.int32]:
        return self.arrays.grid.reshape(self.shape)

    @property
    def owner(self) -> npt.NDArray[np.int8]:
        return self.arrays.owner

    @property
    def kind(self) -> npt.NDArray[np.int8]:
        return self.arrays.kind

    @property
    def trait(self) -> npt.NDArray[np.int8]:
        return self.arrays.trait

    @property
    def pos(self) -> IntArray:
        return self.arrays.pos

    @property
    def alive(self) -> BoolArray:
        return self.arrays.alive

    @property
    def ids(self) -> IntArray:
        return self.arrays.ids

    @property
    def count(self) -> int:
        return int(self.arrays.meta[COUNT])

    @property
    def chief(self) -> IntArray:
        return self.arrays.chief

    def at(self, cell: Cell) -> int:
        """Row of the piece on ``cell``, or -1."""
        return int(self.grid[cell])

    def row(self, pid: int) -> int:
        """Row of the piece with identifier ``pid``, or -1 if no piece ever had it."""
        rows = self.arrays.rows
        return int(rows[pid]) if 0 <= pid < len(rows) else -1

    def cell(self, row: int) -> Cell:
        z, y, x = self.pos[row]
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

    def living_rows(self) -> IntArray:
        """Rows of the living pieces."""
        return np.flatnonzero(self.alive[: self.count])

    def pieces_of(self, player: int) -> IntArray:
        """Rows of ``player``'s living pieces."""
        n = self.count
        return np.flatnonzero(self.alive[:n] & (self.owner[:n] == player))

    def by_id(self, rows: IntArray) -> IntArray:
        """``rows`` reordered by identifier: the order the world outside sees (R6)."""
        out: IntArray = rows[np.argsort(self.ids[rows], kind="stable")]
        return out
