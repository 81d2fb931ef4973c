"""R7 Time and reception order: zero-sum timers over one turn, compiled.

Until the first order of a turn arrives every clock is frozen. While ``k`` of the ``m`` living
players have submitted (``0 < k < m``), each of the ``k`` gains ``m − k`` per second and each of
the others loses ``k`` per second, so the total is constant. A timer that reaches 0 eliminates its
player at that instant (:func:`antipolix.turn.run_clock`).

The clocks live in the game's arrays: ``timers`` (seconds left per player), ``arrived`` (who has
submitted this turn) and ``clock[0]`` (seconds since the turn began).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from antipolix.jit import kernel
from antipolix.state import Arrays
from antipolix.world import IntArray


@kernel
def _run(a: Arrays, dt: float) -> None:
    """Run the clocks ``dt`` seconds: while ``k`` of the ``m`` living players have submitted,
    each of them gains ``m − k`` per second and each of the others loses ``k``."""
    m, k = 0, 0
    for p in range(len(a.living)):
        if a.living[p]:
            m += 1
            if a.arrived[p]:
                k += 1
    for p in range(len(a.living)):
        if a.living[p]:
            if a.arrived[p]:
                a.timers[p] += (m - k) * dt
            else:
                a.timers[p] -= k * dt


@kernel
def advance(a: Arrays, until: float, expired: IntArray) -> tuple[int, float]:
    """Run the clocks to instant ``until``, stopping at the first timer to reach 0 (R7).

    Until the first order of a turn arrives, and once every order has, the clocks are frozen.
    Returns ``(count, instant)``: the players whose timers ran out at ``instant`` (their timers
    read exactly 0) are ``expired[:count]``, in seat order; ``count`` is 0 when ``until`` was
    reached first. An expiry at exactly ``until`` comes before an order arriving then."""
    now = a.clock[0]
    m, k = 0, 0
    lowest = np.inf
    for p in range(len(a.living)):
        if a.living[p]:
            m += 1
            if a.arrived[p]:
                k += 1
            elif a.timers[p] < lowest:
                lowest = a.timers[p]
    if k == 0 or k == m or until <= now:
        a.clock[0] = max(now, until)
        return 0, until
    expiry = now + lowest / k
    if expiry > until:
        _run(a, until - now)
        a.clock[0] = until
        return 0, until
    count = 0
    for p in range(len(a.living)):
        if a.living[p] and not a.arrived[p] and a.timers[p] == lowest:
            expired[count] = p
            count += 1
    _run(a, expiry - now)
    for i in range(count):
        a.timers[expired[i]] = 0.0
    a.clock[0] = expiry
    return count, expiry


@kernel
def reception(a: Arrays, times: npt.NDArray[np.float64], rng: np.random.Generator) -> IntArray:
    """R7: the living players by ascending think time, ties broken by a permutation drawn from
    the game's generator (drawn every turn, tie or not, so the stream never depends on ties)."""
    players = np.flatnonzero(a.living)
    k = len(players)
    tiebreak = rng.permutation(k)
    order = np.arange(k)
    for i in range(1, k):  # insertion sort on (time, tiebreak): k <= 10
        j = i
        while j > 0:
            x, y = order[j - 1], order[j]
            tx, ty = times[players[x]], times[players[y]]
            if tx > ty or (tx == ty and tiebreak[x] > tiebreak[y]):
                order[j - 1], order[j] = y, x
                j -= 1
            else:
                break
    return players[order]
