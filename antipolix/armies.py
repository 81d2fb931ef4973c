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
from math import floor
from typing import TYPE_CHECKING

from antipolix.errors import ChiefError, OverBudgetError
from antipolix.pieces import PieceType, Trait
from antipolix.world import Cell, Shape

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


def _ring_point(t: Fraction, a: int) -> tuple[Fraction, Fraction]:
    """Point at arc length ``t`` on the border of the square ``[0, a]²``, clockwise from (0, 0)."""
    if t < a:
        return Fraction(0), t
    if t < 2 * a:
        return t - a, Fraction(a)
    if t < 3 * a:
        return Fraction(a), 3 * a - t
    return 4 * a - t, Fraction(0)


def _zones_of_side(shape: Shape, players: int, side: int) -> list[Zone]:
    depth, n, _ = shape
    a = n - side
    zones = []
    for k in range(players):
        y, x = _ring_point(Fraction(4 * a * k, players), a)
        y0, x0 = floor(y + Fraction(1, 2)), floor(x + Fraction(1, 2))
        zones.append(Zone((0, y0, x0), (depth, y0 + side, x0 + side)))
    return zones


def home_zones(shape: Shape, players: int) -> list[Zone] | None:
    """The R3 home zones of ``players`` seats on a ``P × N × N`` board, or None if none fit."""
    n = shape[1]
    side = 1
    while 2 * players * (side + 1) ** 2 <= n * n:
        side += 1
    for s in range(side, 0, -1):
        zones = _zones_of_side(shape, players, s)
        if all(zones[i].gap(zones[j]) >= 2 for i in range(players) for j in range(i)):
            return zones
    return None


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
