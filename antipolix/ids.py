"""R6: piece identifiers that carry no information.

A piece's identifier is a keyed permutation of the flat index of the cell it was placed on: a
four-round Feistel network over the board's cells (cycle-walking keeps it inside ``[0, cells)``),
keyed by the game's seed (R12). So an identifier depends only on the game's seed and where the
piece was placed: not on placement order, not on how many pieces other players placed or hid,
not on which piece is the chief. Identifiers are unique in a game (one piece per cell at
placement, R1) and never reused; a piece keeps its identifier for life (moves, teleports,
conversions).

>>> names = PieceNames.from_seed(np.random.SeedSequence(7), cells=2048)
>>> ids = [names(flat) for flat in range(2048)]
>>> sorted(ids) == list(range(2048))  # a permutation of the cells
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba.extending import overload

from antipolix.jit import JIT, kernel

_M64 = (1 << 64) - 1
ROUNDS = 4


def _mix(x: int) -> int:
    """SplitMix64's finaliser: a 64-bit mixing function (the Feistel round function)."""
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


@dataclass(frozen=True, slots=True)
class PieceNames:
    """The keyed permutation of ``[0, cells)`` that names the pieces of one game."""

    cells: int
    half: int  # bits in each half of the Feistel block (2 * half bits cover ``cells``)
    keys: tuple[int, ...]  # one 64-bit round key per round

    @classmethod
    def from_seed(cls, seed: np.random.SeedSequence, cells: int) -> PieceNames:
        bits = max(1, (cells - 1).bit_length())
        keys = tuple(int(k) for k in seed.generate_state(ROUNDS, dtype=np.uint64))
        return cls(cells=cells, half=(bits + 1) // 2, keys=keys)

    @property
    def key_array(self) -> npt.NDArray[np.uint64]:
        """The round keys as an array, for :func:`piece_id`."""
        return np.array(self.keys, dtype=np.uint64)

    def __call__(self, flat: int) -> int:
        """The identifier of the piece placed on flat cell ``flat``."""
        return int(piece_id(flat, self.cells, self.half, self.key_array))


def _mix_u64(x: np.uint64) -> np.uint64:
    """:func:`_mix` on a uint64 (in plain Python, through Python integers)."""
    return np.uint64(_mix(int(x)))


if JIT:

    @overload(_mix_u64)
    def _mix_u64_typer(x):  # type: ignore[no-untyped-def]  # compiled: wrapping uint64 arithmetic
        def impl(x):  # type: ignore[no-untyped-def]
            x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            return x ^ (x >> np.uint64(31))

        return impl


@kernel
def piece_id(flat: int, cells: int, half: int, keys: npt.NDArray[np.uint64]) -> int:
    """The identifier of the piece placed on flat cell ``flat`` of a board of ``cells`` cells,
    under the round ``keys``: a Feistel network on ``2 * half`` bits, cycle-walked into
    ``[0, cells)`` (the same as :func:`_mix` in plain Python integers)."""
    shift = np.uint64(half)
    mask = (np.uint64(1) << shift) - np.uint64(1)
    x = np.uint64(flat)
    while True:  # cycle-walking: a permutation of [0, 4^half) restricted to [0, cells)
        left, right = x >> shift, x & mask
        for r in range(len(keys)):
            left, right = right, left ^ (_mix_u64(right ^ keys[r]) & mask)
        x = (left << shift) | right
        if x < np.uint64(cells):
            return int(x)
