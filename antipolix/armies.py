"""R3 Setup: armies, budgets and home zones.

Home zones are disjoint boxes of equal volume, each spanning every layer ``z`` and a square
``s × s`` footprint, spread evenly along the border of the ``N × N`` plane like seats around a
table (2 players: opposite corners; 4: the four corners; 8: corners and edge midpoints). They are
computed with exact rational arithmetic from ``(P, N, n)`` alone, so every machine gets the same
zones. ``s`` is the largest side such that the zones together cover at most half of the plane and
every two zones are at least two cells apart (no piece starts adjacent to an enemy).

>>> [z.lo for z in home_zones((8, 16, 16), 4)]
[(0, 0, 0), (0, 0, 11), (0, 11, 11), (0, 11, 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import floor
from typing import TYPE_CHECKING

import numpy as np

from antipolix.errors import ChiefError, OverBudgetError
from antipolix.pieces import PieceType, Trait
from antipolix.world import Cell, IntArray, Shape

if TYPE_CHECKING:  # the rules module imports this one
    from antipolix.rules import Rules

ArmyItem = tuple[PieceType, Trait]


@dataclass(frozen=True, slots=True)
class Zone:
    """A box of cells ``lo <= cell < hi`` (componentwise)."""

    lo: Cell
    hi: Cell

    @property
    def volume(self) -> int:
        return (self.hi[0] - self.lo[0]) * (self.hi[1] - self.lo[1]) * (self.hi[2] - self.lo[2])

    def __contains__(self, cell: object) -> bool:
        if not isinstance(cell, tuple) or len(cell) != 3:
            return False
        return all(lo <= c < hi for lo, c, hi in zip(self.lo, cell, self.hi, strict=True))

    def slices(self) -> tuple[slice, slice, slice]:
        return tuple(slice(lo, hi) for lo, hi in zip(self.lo, self.hi, strict=True))  # type: ignore[return-value]

    def gap(self, other: Zone) -> int:
        """Chebyshev distance between the nearest cells of two disjoint boxes."""
        d = 0
        for lo_a, hi_a, lo_b, hi_b in zip(self.lo, self.hi, other.lo, other.hi, strict=True):
            if hi_a <= lo_b:
                d = max(d, lo_b - hi_a + 1)
            elif hi_b <= lo_a:
                d = max(d, lo_a - hi_b + 1)
        return d


def _ring(a: int) -> IntArray:
    """Integer points of the border of the square ``[0, a]²``, clockwise from (0, 0)."""
    t = np.arange(4 * a)
    y = np.select([t < a, t < 2 * a, t < 3 * a], [0, t - a, a], 4 * a - t)
    x = np.select([t < a, t < 2 * a, t < 3 * a], [t, a, 3 * a - t], 0)
    return np.stack([y, x], axis=1).astype(np.int64)


def _nearest(gaps: IntArray, seats: IntArray) -> IntArray:
    """Each seat's distance to its nearest other seat."""
    d = gaps[np.ix_(seats, seats)].astype(np.int64)
    np.fill_diagonal(d, np.iinfo(np.int64).max)
    out: IntArray = d.min(axis=1)
    return out


def _score(near: IntArray) -> tuple[int, int]:
    """Lower is better: spread of nearest-enemy distances, then minus the smallest."""
    return int(near.max() - near.min()), -int(near.min())


def _improve(gaps: IntArray, seats: IntArray) -> tuple[IntArray, tuple[int, int]]:
    """Move one seat at a time to the ring position that most improves the score."""
    seats = seats.copy()
    players, size = len(seats), len(gaps)
    best = _score(_nearest(gaps, seats))
    for _ in range(8 * players):
        improved = False
        for k in range(players):
            others = np.delete(seats, k)
            to_new = gaps[:, others]  # (ring, players - 1)
            near_others = np.minimum(_nearest(gaps, others)[None, :], to_new)
            near_new = to_new.min(axis=1)
            hi = np.maximum(near_others.max(axis=1), near_new)
            lo = np.minimum(near_others.min(axis=1), near_new)
            spread = hi - lo
            taken = np.isin(np.arange(size), others)
            key = np.where(taken, np.iinfo(np.int64).max // 4, spread * (size + 2) - lo)
            c = int(np.argmin(key))
            score = (int(spread[c]), -int(lo[c]))
            if score < best:
                seats[k], best, improved = c, score, True
        if not improved:
            break
    return seats, best


def _seats_on_ring(a: int, side: int, players: int) -> tuple[IntArray, tuple[int, int]]:
    """Positions on the ring for ``players`` boxes of ``side``: fair, then far apart.

    Deterministic local search (integer arithmetic only), from every rotation of positions evenly
    spaced in arc length; the best result wins.
    """
    ring = _ring(a)
    delta = np.abs(ring[:, None, :] - ring[None, :, :])
    gaps = np.maximum(delta - side + 1, 0).max(axis=2)  # Chebyshev distance between the boxes
    best_seats: IntArray | None = None
    best = (np.iinfo(np.int64).max, 0)
    for offset in range(max(1, (4 * a) // players)):
        seats = np.array([offset + (4 * a * k) // players for k in range(players)], dtype=np.int64)
        seats, score = _improve(gaps, seats % len(ring))
        if score < best:
            best_seats, best = seats, score
    assert best_seats is not None
    seats = best_seats
    return ring[np.sort(seats)], best


@cache
def _home_zones(shape: Shape, players: int) -> tuple[Zone, ...] | None:
    depth, n, _ = shape
    side = 1
    while 2 * players * (side + 1) ** 2 <= n * n:
        side += 1
    chosen: tuple[tuple[int, int], int, IntArray] | None = None
    for s in range(side, 0, -1):
        a = n - s
        if a == 0:
            continue
        corners, (spread, neg_min) = _seats_on_ring(a, s, players)
        if -neg_min < 2:
            continue  # some zones touch: not a fit at this side
        if spread <= 1:
            chosen = ((spread, neg_min), s, corners)
            break
        if chosen is None or spread < chosen[0][0]:
            chosen = ((spread, neg_min), s, corners)
    if chosen is None:
        return None
    _, s, corners = chosen
    return tuple(Zone((0, int(y), int(x)), (depth, int(y) + s, int(x) + s)) for y, x in corners)


def home_zones(shape: Shape, players: int) -> list[Zone] | None:
    """The R3 home zones of ``players`` seats on a ``P × N × N`` board, or None if none fit.

    Zones are boxes over every layer with a square ``s × s`` footprint touching the border of the
    plane, at least two cells apart. Among the sides that cover at most half of the plane, the
    largest whose seats are fair (every seat's nearest enemy zone at the same distance, give or
    take one cell) is chosen; if no side is fair, the fairest. Seats go clockwise from (0, 0).
    """
    zones = _home_zones((int(shape[0]), int(shape[1]), int(shape[2])), int(players))
    return None if zones is None else list(zones)


def budget_from_credits(shape: Shape, players: int, credits_per_100: float) -> int:
    """R3 default budget: ``floor(credits_per_100 × P·N·N / 100 / n)``, computed exactly."""
    cells = shape[0] * shape[1] * shape[2]
    return floor(Fraction(str(credits_per_100)) * cells / 100 / players)


def check_army(player: int, army: Sequence[ArmyItem], rules: Rules) -> None:
    """R3: exactly one chief and total cost <= budget, or raise an :class:`ArmyError`."""
    chiefs = sum(1 for _, trait in army if trait is Trait.CHIEF)
    if chiefs == 0:
        raise ChiefError(f"player {player}'s army has no chief (R3: exactly one chief)")
    if chiefs > 1:
        raise ChiefError(f"player {player}'s army has {chiefs} chiefs (R3: exactly one chief)")
    cost = sum(rules.piece_cost(kind, trait) for kind, trait in army)
    if cost > rules.army_budget:
        raise OverBudgetError(
            f"player {player}'s army costs {cost}, over the budget of {rules.army_budget} (R3)"
        )
