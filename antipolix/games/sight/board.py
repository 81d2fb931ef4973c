"""S1: the board, its drawn lines and its symmetries, as tables computed once for every size.

Points are ``(x, y)`` with ``0 <= x, y < N``, index ``i = y·N + x``. The 8 directions are listed
in :data:`DIRECTIONS` in the order that makes ``p + d`` ascend with ``d`` (S11's order of moves
from one point). Direction ``d`` is *drawn at* ``p`` when it is orthogonal, or diagonal and
``x + y`` is even.

The tables are indexed by the size first (``3 <= N <= 9``) and padded to 81 points, so that one
compiled kernel serves every size:

- :data:`ADJ` ``[N, p, d]``: the point adjacent to ``p`` in direction ``d`` (a drawn segment
  joins them), or -1. A ray of sight (S3) is walked along it: from an even point a diagonal step
  lands on an even point, so every step of a diagonal walk is drawn;
- :data:`SYM` ``[N, s, p]``: the image of ``p`` under symmetry ``s`` of the square, the first
  :data:`NSYM` ``[N]`` of them mapping drawn segments to drawn segments (8 for odd ``N``, 4 for
  even ``N``: the identity, the 180° rotation and the two diagonal reflections).

>>> segments(5)[0][0], len(segments(5)[0]), len(segments(5)[1])
(((0, 0), (1, 0)), 40, 16)
>>> int(NSYM[5]), int(NSYM[4])
(8, 4)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from antipolix.games.sight.config import MAX_SIZE, MIN_SIZE

IntArray = npt.NDArray[np.int64]

MAX_POINTS = MAX_SIZE * MAX_SIZE
# (dx, dy), ascending by the index offset dx + dy·N (N >= 3): S11's order of Move(p, q) from p
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
)
NDIR = len(DIRECTIONS)

# The 8 symmetries of the square as maps (x, y) -> (x', y') on an N×N board (m = N - 1). Those
# that keep the parity of x + y for even N come first: the identity, the 180° rotation and the
# two diagonal reflections (x + y -> (m - x) + (m - y) or y + x: parity kept as 2m is even).
_SYMMETRIES: tuple[Callable[[int, int, int], tuple[int, int]], ...] = (
    lambda x, y, m: (x, y),  # identity
    lambda x, y, m: (m - x, m - y),  # 180° rotation
    lambda x, y, m: (y, x),  # reflection in the main diagonal
    lambda x, y, m: (m - y, m - x),  # reflection in the anti-diagonal
    lambda x, y, m: (m - y, x),  # 90° rotation
    lambda x, y, m: (y, m - x),  # 270° rotation
    lambda x, y, m: (m - x, y),  # reflection left-right
    lambda x, y, m: (x, m - y),  # reflection top-bottom
)


def drawn(x: int, y: int, d: int) -> bool:
    """Is direction ``d`` drawn at ``(x, y)`` (S1)?"""
    dx, dy = DIRECTIONS[d]
    return dx == 0 or dy == 0 or (x + y) % 2 == 0


def _adjacency() -> IntArray:
    adj = np.full((MAX_SIZE + 1, MAX_POINTS, NDIR), -1, dtype=np.int64)
    for n in range(MIN_SIZE, MAX_SIZE + 1):
        for y in range(n):
            for x in range(n):
                for d, (dx, dy) in enumerate(DIRECTIONS):
                    qx, qy = x + dx, y + dy
                    if 0 <= qx < n and 0 <= qy < n and drawn(x, y, d):
                        adj[n, y * n + x, d] = qy * n + qx
    return adj


def _symmetries() -> tuple[IntArray, IntArray]:
    sym = np.zeros((MAX_SIZE + 1, len(_SYMMETRIES), MAX_POINTS), dtype=np.int64)
    nsym = np.zeros(MAX_SIZE + 1, dtype=np.int64)
    for n in range(MIN_SIZE, MAX_SIZE + 1):
        nsym[n] = 8 if n % 2 else 4
        for s, f in enumerate(_SYMMETRIES):
            for y in range(n):
                for x in range(n):
                    fx, fy = f(x, y, n - 1)
                    sym[n, s, y * n + x] = fy * n + fx
    return sym, nsym


ADJ = _adjacency()
SYM, NSYM = _symmetries()
ADJ.setflags(write=False)
SYM.setflags(write=False)
NSYM.setflags(write=False)


def point(n: int, i: int) -> tuple[int, int]:
    """The coordinates ``(x, y)`` of index ``i`` on an ``n``×``n`` board."""
    return i % n, i // n


def index(n: int, x: int, y: int) -> int:
    """The index of ``(x, y)`` on an ``n``×``n`` board (S1: ``y·N + x``)."""
    return y * n + x


def segments(n: int) -> tuple[list[tuple[tuple[int, int], tuple[int, int]]], ...]:
    """The drawn segments of an ``n``×``n`` board (S1), each once: (orthogonal, diagonal)."""
    ortho: list[tuple[tuple[int, int], tuple[int, int]]] = []
    diag: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for y in range(n):
        for x in range(n):
            for d, (dx, dy) in enumerate(DIRECTIONS):
                if (dy, dx) <= (0, 0):  # each segment once: from its lower end
                    continue
                q = ADJ[n, y * n + x, d]
                if q >= 0:
                    seg = ((x, y), point(n, int(q)))
                    (ortho if dx == 0 or dy == 0 else diag).append(seg)
    return ortho, diag
