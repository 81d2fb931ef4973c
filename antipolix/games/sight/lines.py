"""S3: line of sight, compiled.

From a point ``p``, for each direction drawn at ``p``, walk ``p+d, p+2d, …`` while on the board:
the first occupied point met is seen. Sight runs along straight drawn lines only (the walk
follows :data:`~antipolix.games.sight.board.ADJ`, which has no undrawn step), every group
blocks whatever its colour or height, and sight is symmetric.
"""

from __future__ import annotations

from antipolix.games.sight.board import ADJ, NDIR, IntArray
from antipolix.games.sight.position import META, SIZE
from antipolix.jit import kernel


@kernel
def seen_k(pos: IntArray, p: int, out: IntArray) -> int:
    """The points seen from ``p`` (S3) written to ``out[:k]`` by direction; returns ``k``."""
    n = pos[SIZE]
    h = META + n * n
    k = 0
    for d in range(NDIR):
        q = ADJ[n, p, d]
        while q >= 0 and pos[h + q] == 0:
            q = ADJ[n, q, d]
        if q >= 0:
            out[k] = q
            k += 1
    return k


@kernel
def own_seen_k(pos: IntArray, p: int, colour: int, skip: int) -> int:
    """How many groups of ``colour`` are seen from ``p``, ``skip`` apart (S5, S6: the groups
    an arrival on ``p`` adds to, so the pieces it takes from the hand, S7)."""
    n = pos[SIZE]
    h = META + n * n
    k = 0
    for d in range(NDIR):
        q = ADJ[n, p, d]
        while q >= 0 and pos[h + q] == 0:
            q = ADJ[n, q, d]
        if q >= 0 and q != skip and pos[META + q] == colour:
            k += 1
    return k
