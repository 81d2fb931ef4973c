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

    def __call__(self, flat: int) -> int:
        """The identifier of the piece placed on flat cell ``flat``."""
        mask = (1 << self.half) - 1
        x = flat
        while True:  # cycle-walking: a permutation of [0, 4^half) restricted to [0, cells)
            left, right = x >> self.half, x & mask
            for key in self.keys:
                left, right = right, left ^ (_mix(right ^ key) & mask)
            x = (left << self.half) | right
            if x < self.cells:
                return x
