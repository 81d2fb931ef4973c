"""R7 in real time: the zero-sum clocks of a turn as its orders arrive, to know when to look.

The engine is the one authority on time: :meth:`antipolix.Game.play_turn` runs the clocks from
the think times (seconds from the turn's observation to each order) and eliminates a player
whose timer reaches 0 at that instant. A server cannot wait for the turn's end to learn that a
player who has not answered ran out: it must tell everyone when it happens. :class:`Clocks`
follows the turn as orders arrive (each arriving player gains ``m − k`` per second, each waiting
one loses ``k``, frozen until the first order, R7) and predicts the next instant a waiting
player's timer may reach 0; the match then asks the engine itself, by playing the turn so far on
a copy of the game (:meth:`antipolix.server.match.Match`), and takes the engine's answer.

The prediction is never later than the engine's instant: the engine may know of eliminations
in the turn that the clocks do not (a chief taken by an order already received, R8), and each
can only slow the clocks of the waiting players (fewer arrived players, fewer seconds lost per
second), never speed them.

>>> c = Clocks({0: 60.0, 1: 60.0, 2: 60.0}, at=0.0)
>>> c.next_expiry() is None  # frozen until the first order arrives
True
>>> c.arrive(0, 2.0)
>>> c.next_expiry()  # two players each lose 1 s a second from 2.0 s on
62.0
>>> c.peek(5.0)
{0: 66.0, 1: 57.0, 2: 57.0}
"""

from __future__ import annotations

from collections.abc import Mapping


class Clocks:
    """The clocks of one turn (R7): timers at instant ``at`` (seconds since the turn began),
    who is living and who has submitted."""

    def __init__(self, timers: Mapping[int, float], at: float = 0.0) -> None:
        self.timers = dict(timers)
        self.living = set(timers)
        self.arrived: set[int] = set()
        self.at = at

    def _rates(self) -> tuple[int, int]:
        m = len(self.living)
        k = len(self.arrived & self.living)
        return m, k

    def _run(self, until: float) -> None:
        """Run the clocks to ``until`` (no expiry in between; a timer never goes below 0)."""
        m, k = self._rates()
        dt = until - self.at
        if dt > 0 and 0 < k < m:
            for p in self.living:
                if p in self.arrived:
                    self.timers[p] += (m - k) * dt
                else:
                    self.timers[p] = max(0.0, self.timers[p] - k * dt)
        self.at = max(self.at, until)

    def peek(self, at: float) -> dict[int, float]:
        """Every living player's timer at instant ``at`` (for the clocks shown to players)."""
        m, k = self._rates()
        dt = max(0.0, at - self.at)
        if not 0 < k < m:
            return dict(self.timers)
        return {
            p: self.timers[p] + (m - k) * dt
            if p in self.arrived
            else max(0.0, self.timers[p] - k * dt)
            for p in sorted(self.living)
        }

    def running(self) -> bool:
        m, k = self._rates()
        return 0 < k < m

    def arrive(self, player: int, at: float, leaves: bool = False) -> None:
        """``player``'s order arrived at ``at``; ``leaves``: it quits (R9 QUIT) at that instant."""
        self._run(at)
        if leaves:
            self.living.discard(player)
            self.timers.pop(player, None)
        elif player in self.living:
            self.arrived.add(player)

    def leave(self, player: int, at: float) -> None:
        """``player`` is out at ``at`` (its timer ran out, or the engine said it was eliminated)."""
        self._run(at)
        self.living.discard(player)
        self.timers.pop(player, None)

    def next_expiry(self) -> float | None:
        """The next instant a waiting player's timer may reach 0, if no order arrives first;
        None while the clocks are frozen (no order yet, or every order in)."""
        m, k = self._rates()
        if not 0 < k < m:
            return None
        lowest = min(self.timers[p] for p in self.living if p not in self.arrived)
        return self.at + lowest / k

    def sync(self, timers: Mapping[int, float], arrived: set[int], at: float) -> None:
        """Take the engine's timers at instant ``at`` (its living players are ``timers``' keys)."""
        self.timers = dict(timers)
        self.living = set(timers)
        self.arrived = arrived & self.living
        self.at = at
