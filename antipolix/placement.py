"""R3 Placement, compiled: a piece onto a cell, and the random free cell of a player's zone.

The checks that name what is wrong (budget, chief, zone, occupied cell) are Python's
(:meth:`antipolix.Game.place`); these kernels only do what the checks allowed, so that a game
whose armies are already checked (:mod:`antipolix.autoplay`) is placed the same way.
"""

from __future__ import annotations

import numpy as np

from antipolix.ids import piece_id
from antipolix.jit import kernel
from antipolix.rules import Tables
from antipolix.state import HALF, SEAT, Arrays, add_piece


@kernel
def put(a: Arrays, t: Tables, player: int, kind: int, trait: int, at: int) -> int:
    """Place ``player``'s piece of ``kind`` and ``trait`` on flat cell ``at`` (checked: free,
    in the zone, affordable); returns its identifier (R6: it depends only on the game's seed
    and the cell)."""
    a.meta[SEAT] = player
    a.spent[player] += t.cost[kind, trait]
    pid = piece_id(at, len(a.grid), a.meta[HALF], a.keys)
    add_piece(a, player, kind, trait, at, pid)
    return pid


@kernel
def free_cells(a: Arrays, t: Tables, player: int) -> int:
    """How many free cells ``player`` may place on: its zone's (R3), or the board's."""
    count = 0
    if not t.has_zones:
        for flat in range(len(a.grid)):
            if a.grid[flat] < 0:
                count += 1
        return count
    z = t.zones[player]
    n, m = a.dims[1], a.dims[2]
    for cz in range(z[0], z[3]):
        for cy in range(z[1], z[4]):
            for cx in range(z[2], z[5]):
                if a.grid[(cz * n + cy) * m + cx] < 0:
                    count += 1
    return count


@kernel
def free_cell(a: Arrays, t: Tables, player: int, rng: np.random.Generator) -> int:
    """A uniformly random free cell of ``player``'s zone (of the board without zones), drawn
    from the placement generator: one draw among the free cells in ``(z, y, x)`` order; -1 if
    there is none."""
    free = free_cells(a, t, player)
    if free == 0:
        return -1
    k = rng.integers(0, free)
    if not t.has_zones:
        for flat in range(len(a.grid)):
            if a.grid[flat] < 0:
                if k == 0:
                    return flat
                k -= 1
        return -1
    z = t.zones[player]
    n, m = a.dims[1], a.dims[2]
    for cz in range(z[0], z[3]):
        for cy in range(z[1], z[4]):
            for cx in range(z[2], z[5]):
                flat = (cz * n + cy) * m + cx
                if a.grid[flat] < 0:
                    if k == 0:
                        return int(flat)
                    k -= 1
    return -1
