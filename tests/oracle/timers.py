"""R7 Time and reception order: zero-sum timers over one turn.

Until the first order of a turn arrives every clock is frozen. While ``k`` of the ``m`` living
players have submitted (``0 < k < m``), each of the ``k`` gains ``m − k`` per second and each of
the others loses ``k`` per second, so the total is constant. A timer that reaches 0 eliminates its
player at that instant.

>>> clock = Clock({0: 60.0, 1: 60.0, 2: 60.0})
>>> for player, t in [(0, 1.0), (1, 2.0), (2, 3.0)]:
...     assert clock.advance(t) is None
...     clock.arrive(player)
>>> clock.timers
{0: 63.0, 1: 60.0, 2: 57.0}
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np


def reception_order(
    think_times: Mapping[int, float], rng: np.random.Generator
) -> list[tuple[int, float]]:
    """R7: players sorted by ascending think time; ties broken by the seeded generator.

    One permutation is drawn every turn, tie or not, so the generator's stream does not depend on
    whether think times happened to tie.
    """
    players = sorted(think_times)
    tiebreak = rng.permutation(len(players))
    ranked = sorted(zip(players, tiebreak, strict=True), key=lambda pt: (think_times[pt[0]], pt[1]))
    return [(p, float(think_times[p])) for p, _ in ranked]


class Clock:
    """The living players' timers during a turn. ``now`` is seconds since the turn began."""

    def __init__(self, timers: Mapping[int, float]) -> None:
        self.timers: dict[int, float] = {p: float(t) for p, t in sorted(timers.items())}
        self.now = 0.0
        self.arrived: set[int] = set()

    def begin_turn(self) -> None:
        self.now = 0.0
        self.arrived = set()

    def _run(self, dt: float) -> None:
        m, k = len(self.timers), len(self.arrived)
        for p in self.timers:
            if p in self.arrived:
                self.timers[p] += (m - k) * dt
            else:
                self.timers[p] -= k * dt

    def advance(self, t: float) -> tuple[float, list[int]] | None:
        """Run the clocks to instant ``t``, stopping early at the first timer to reach 0.

        Returns ``(instant, players)`` of that expiry (their timers read exactly 0; the caller
        eliminates them and calls :meth:`remove`), or None when ``t`` was reached first. An expiry
        at exactly ``t`` happens before an order arriving at ``t``.
        """
        k = len(self.arrived)
        if k == 0 or k == len(self.timers) or t <= self.now:
            self.now = max(self.now, t)  # frozen: nobody has submitted, or everybody has
            return None
        losers = [p for p in self.timers if p not in self.arrived]
        lowest = min(self.timers[p] for p in losers)
        expiry = self.now + lowest / k
        if expiry > t:
            self._run(t - self.now)
            self.now = t
            return None
        expired = [p for p in losers if self.timers[p] == lowest]
        self._run(expiry - self.now)
        for p in expired:
            self.timers[p] = 0.0
        self.now = expiry
        return expiry, expired

    def arrive(self, player: int) -> None:
        self.arrived.add(player)

    def remove(self, player: int) -> None:
        """A player left the game (any reason): the rates change from now on."""
        self.timers.pop(player, None)
        self.arrived.discard(player)
