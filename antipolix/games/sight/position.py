"""S2, S4: a position of Sight as one flat integer array, and the 64-bit digest of a game.

One ``int64`` vector holds a whole position, so that a kernel takes one array, a search copies
one row, and a batch keeps one row per game:

- ``pos[:META]``: the rules and the game's counters at the indices named below (``SIZE`` ...);
- ``pos[META : META + N²]``: the colour of each point's group (0 White, 1 Black; 0 when empty);
- ``pos[META + N² : META + 2·N²]``: each point's height (0 empty, 1 a singleton, 2+ a stack).

Colours, not seats, are on the board: seat ``s`` plays colour ``s ^ swapped`` (S4: Swap
exchanges the agents' colours, hands go with colours). The mover's colour follows the turn's
parity (White plays odd turns), Swap included, since Swap is not a turn.

>>> pos = new_position(SightConfig(size=3))
>>> int(pos[SIZE]), int(pos[TURN]), int(pos[MOVER]), len(pos) == META + 2 * 9
(3, 0, 0, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba.extending import overload

from antipolix.games.sight.config import SightConfig
from antipolix.jit import JIT

IntArray = npt.NDArray[np.int64]

# -- the counters and rules at the head of a position --------------------------------------------
SIZE = 0  # N (S1)
PIE = 1  # 1 when Swap is offered at turn 2 (S4)
STRICT = 2  # 1 for stack_priority = strict (S6)
LIMITED = 3  # 1 when hands are limited (S2)
HAND = 4  # HAND + colour: pieces left in that colour's hand (S2; UNLIMITED_HAND when unlimited)
TURN = 6  # turns played (S4): the occupied points (S7)
ACTIONS = 7  # actions applied, Swap included
MOVER = 8  # the colour to move: 0 White, 1 Black
SWAPPED = 9  # 1 once Swap was taken (S4)
OVER = 10  # 1 once the player to move had no legal action (S8)
WINNER = 11  # the winning colour, -1 while the game goes on (S8)
REASON = 12  # NONE, BOARD_FULL or BLOCKED (S8)
LAST = 13  # the last action applied, -1 before any
ADDS = 14  # additions made by the last action (S7)
STACKS = 15  # STACKS + colour: that colour's stacks on the board (S4: 0 means it places)
META = 18

WHITE, BLACK = 0, 1
COLOURS = ("white", "black")
NONE, BOARD_FULL, BLOCKED = 0, 1, 2
REASONS = ("", "board_full", "blocked")
UNLIMITED_HAND = 1 << 40  # more pieces than any game can use (S7: at most 9 per turn)


def new_position(config: SightConfig) -> IntArray:
    """The empty board at turn 1, White to move (S2, S4)."""
    n = config.size
    pos = np.zeros(META + 2 * n * n, dtype=np.int64)
    pos[SIZE] = n
    pos[PIE] = int(config.pie)
    pos[STRICT] = int(config.stack_priority == "strict")
    pos[LIMITED] = int(config.limited)
    hand = UNLIMITED_HAND if config.hand == "unlimited" else int(config.hand)
    pos[HAND + WHITE] = pos[HAND + BLACK] = hand
    pos[WINNER] = -1
    pos[LAST] = -1
    return pos


def recount(pos: IntArray) -> None:
    """Set the stack counters (``STACKS``) from the board, for a position not reached by
    playing (a drawing, an observation)."""
    col, hgt = colours(pos), heights(pos)
    for c in (WHITE, BLACK):
        pos[STACKS + c] = int(np.count_nonzero((hgt >= 2) & (col == c)))


def colours(pos: IntArray) -> IntArray:
    """The colour of each point's group (a view; meaningless where the height is 0)."""
    n2 = int(pos[SIZE]) ** 2
    return pos[META : META + n2]


def heights(pos: IntArray) -> IntArray:
    """The height of each point (a view; 0 for an empty point)."""
    n2 = int(pos[SIZE]) ** 2
    return pos[META + n2 : META + 2 * n2]


def seat_of(pos: IntArray, colour: int) -> int:
    """The seat playing ``colour`` (S4: Swap exchanges them)."""
    return colour ^ int(pos[SWAPPED])


# -- the digest of a game ------------------------------------------------------------------------
_M64 = (1 << 64) - 1
FNV_OFFSET = 0xCBF29CE484222325  # FNV-1a, 64 bits
FNV_PRIME = 0x100000001B3


def fnv_k(h: Any, x: Any) -> Any:
    """One FNV-1a step over the 64 bits of ``x``: on Python integers (masked) when called
    from Python, on ``uint64`` inside kernels (wrapping)."""
    return ((int(h) ^ (int(x) & _M64)) * FNV_PRIME) & _M64


if JIT:

    @overload(fnv_k)
    def _fnv_typer(h, x):  # type: ignore[no-untyped-def]  # compiled: wrapping uint64 arithmetic
        def impl(h, x):  # type: ignore[no-untyped-def]
            return (np.uint64(h) ^ np.uint64(x)) * np.uint64(FNV_PRIME)

        return impl


def digest_start(pos: IntArray) -> int:
    """The digest of a game before its first action: its rules (the head of its start)."""
    h = FNV_OFFSET
    for i in (SIZE, PIE, STRICT, LIMITED, HAND + WHITE, HAND + BLACK):
        h = int(fnv_k(h, int(pos[i])))
    return h


def digest_step(h: int, action: int) -> int:
    """The digest after one more action (Python integers; kernels call :func:`fnv_k`, the
    same arithmetic on ``uint64``). The outcome is a function of the actions (S9), so the
    actions are all a digest needs."""
    return int(fnv_k(h, action))
