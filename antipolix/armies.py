"""R3 Setup: armies, budgets and home zones.

Home zones are disjoint boxes of equal volume, each spanning every layer ``z`` and a square
``s × s`` footprint, spread along the border of the ``N × N`` plane like seats around a table
(2 players: opposite corners; 4: the four corners). No seat is favoured: every seat's nearest
enemy zone is exactly as far as every other seat's. They are computed with integer arithmetic
from ``(P, N, n)`` alone, so every machine gets the same zones. ``s`` is the largest side such
that the zones together cover at most half of the plane and every two zones are at least two
cells apart (no piece starts adjacent to an enemy).

>>> [z.lo for z in home_zones((8, 16, 16), 4)]
[(0, 0, 0), (0, 0, 11), (0, 11, 11), (0, 11, 0)]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import floor

import numpy as np

from antipolix.world import Cell, IntArray, Shape, pairwise_distances


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
    """Each seat's distance to its nearest other seat, for one layout ``(players,)`` or many
    ``(layouts, players)`` of ring positions."""
    d = gaps[seats[..., :, None], seats[..., None, :]].astype(np.int64)
    d[..., np.arange(seats.shape[-1]), np.arange(seats.shape[-1])] = np.iinfo(np.int64).max
    out: IntArray = d.min(axis=-1)
    return out


def _seats_on_ring(a: int, side: int, players: int) -> tuple[IntArray, int] | None:
    """Positions on the border of the ``[0, a]²`` square for ``players`` boxes of ``side``, every
    seat's nearest enemy box at the same distance ``g``, as large as it can be; or None when no
    ``g >= 2`` fits.

    For a candidate ``g`` (from the largest the perimeter allows, downwards), seats are packed
    greedily from every start: each next seat at the first ring position ``g`` away from the one
    before. A start whose last seat ends up at least ``g`` from the first gives a layout where
    every seat's nearest enemy is exactly ``g`` away (spread 0). Among those: the most even (the
    gap that closes the ring nearest ``g``), then the first start. Integer arithmetic only, so
    every machine gets the same zones.
    """
    ring = _ring(a)
    size = len(ring)
    if players > size:
        return None
    delta = pairwise_distances(ring, ring)
    gaps = np.maximum(delta - side + 1, 0)  # Chebyshev gap between the boxes
    starts = np.arange(size)
    ahead = gaps[starts[:, None], (starts[:, None] + np.arange(1, size)[None, :]) % size]
    # the arc between two seats is at least their gap plus side - 1 (Chebyshev <= arc length)
    for g in range(size // players - side + 1, 1, -1):
        hit = ahead >= g
        step = np.where(hit.any(axis=1), hit.argmax(axis=1) + 1, size)  # arc to the next seat
        seats = [starts]
        for _ in range(players - 1):
            seats.append(seats[-1] + step[seats[-1] % size])
        layouts = np.stack(seats, axis=1)  # (start, seat), unwrapped
        last = layouts[:, -1]
        ok = last - starts < size
        closing = np.where(ok, gaps[last % size, starts], 0)
        ok &= closing >= g
        if not ok.any():
            continue
        layouts = layouts[ok] % size
        near = _nearest(gaps, layouts)
        fair = (near.max(axis=1) - near.min(axis=1) <= 1) & (near.min(axis=1) >= 2)
        if not fair.any():
            continue
        spread = near.max(axis=1) - near.min(axis=1)
        key = spread * (size + 1) + (closing[ok] - g)  # fairest, then most even, then first
        key = np.where(fair, key, np.iinfo(np.int64).max)
        best = _even_out(gaps, np.sort(layouts[int(np.argmin(key))]))
        return ring[best], g
    return None


def _evenness(layouts: IntArray, size: int) -> IntArray:
    """Lower is more even: minus the shortest arc between ring neighbours, then the longest
    (one integer per layout of sorted ring positions, ``(layouts, players)``)."""
    arcs = np.diff(layouts, axis=1, append=layouts[:, :1] + size)
    out: IntArray = -arcs.min(axis=1) * (size + 1) + arcs.max(axis=1)
    return out


def _even_out(gaps: IntArray, seats: IntArray) -> IntArray:
    """Move one seat at a time along the ring while every seat's nearest enemy stays exactly as
    far as now and the seats get more evenly spaced (the greedy packing leaves all the slack in
    one arc: two players then sit at adjacent corners, as near as at opposite ones)."""
    size, players = len(gaps), len(seats)
    near = _nearest(gaps, seats)
    g = int(near.min())
    best = _evenness(seats[None, :], size)[0]
    for _ in range(4 * players):
        improved = False
        for k in range(players):
            others = np.delete(seats, k)
            layouts = np.sort(
                np.concatenate([np.tile(others, (size, 1)), np.arange(size)[:, None]], axis=1),
                axis=1,
            )
            near = _nearest(gaps, layouts)
            key = _evenness(layouts, size)
            valid = (near.min(axis=1) == g) & (near.max(axis=1) == g)
            valid &= np.all(np.diff(layouts, axis=1) > 0, axis=1)  # a seat per position
            key = np.where(valid, key, np.iinfo(np.int64).max)
            c = int(np.argmin(key))
            if key[c] < best:
                seats, best, improved = layouts[c], int(key[c]), True
        if not improved:
            break
    # the same layout turned along the ring, where that keeps it fair and as even: the one
    # nearest the corner (0, 0), so that seat 0 sits in that corner when it can
    turned = np.sort((seats[None, :] + np.arange(size)[:, None]) % size, axis=1)
    near = _nearest(gaps, turned)
    valid = (near.min(axis=1) == g) & (near.max(axis=1) == g)
    valid &= _evenness(turned, size) <= best
    first = np.where(valid, turned[:, 0], size)
    out: IntArray = turned[int(np.argmin(first))]
    return out


def _largest_side(n: int, players: int) -> int:
    """The largest zone side ``s`` whose zones together cover at most half of the plane."""
    side = 1
    while 2 * players * (side + 1) ** 2 <= n * n:
        side += 1
    return side


@cache
def _home_zones(shape: Shape, players: int) -> tuple[Zone, ...] | None:
    depth, n, _ = shape
    for s in range(_largest_side(n, players), 0, -1):
        if n - s <= 0:
            continue
        found = _seats_on_ring(n - s, s, players)
        if found is not None:
            corners, _ = found
            return tuple(
                Zone((0, int(y), int(x)), (depth, int(y) + s, int(x) + s)) for y, x in corners
            )
    return None


@cache
def smallest_board_with_zones(players: int) -> int:
    """The smallest ``N`` whose ``P × N × N`` boards have room for ``players`` home zones (R3)."""
    n = 2
    while _home_zones((1, n, n), players) is None:
        n += 1
    return n


def home_zones(shape: Shape, players: int) -> list[Zone] | None:
    """The R3 home zones of ``players`` seats on a ``P × N × N`` board, or None if none fit.

    Zones are boxes over every layer with a square ``s × s`` footprint touching the border of the
    plane, at least two cells apart. Among the sides that cover at most half of the plane, the
    largest that fits is chosen, with every seat's nearest enemy zone at the same distance (R3:
    no seat favoured), as far as it can be. Seats go clockwise from the corner (0, 0).
    """
    zones = _home_zones((int(shape[0]), int(shape[1]), int(shape[2])), int(players))
    return None if zones is None else list(zones)


def budget_from_credits(shape: Shape, players: int, credits_per_100: float) -> int:
    """R3 default budget: ``floor(credits_per_100 × P·N·N / 100 / n)``, computed exactly."""
    cells = shape[0] * shape[1] * shape[2]
    return floor(Fraction(str(credits_per_100)) * cells / 100 / players)
