"""What a compiled agent remembers through one game, and what it decides each turn.

A built-in agent decides from its observation and from what it has remembered of earlier ones
(R6: nothing else). Its memory is one :class:`Memory` per seat and game, arrays indexed by piece
identifier (identifiers are below the board's cell count, R6), made by :func:`new_memory` when
the agent is set up and changed by its kernel each turn.

A kernel's decision is one :data:`Choice`: ``(kind, piece, cell, pieces, think, command)``, the
order as numbers (:mod:`antipolix.turn`: ``PASS``, ``MOVE`` of identifier ``piece`` to flat
``cell``, ``ATTACK`` on flat ``cell`` by the identifiers ``pieces``, in the agent's order), its
think time (R7) and a command (:mod:`antipolix.journal`'s ``NUL`` or ``WAR``, or -1: none, R9).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from antipolix.jit import kernel, record
from antipolix.world import IntArray

NEVER = -(1 << 40)  # the turn of a memory never made
HIDDEN_TURNS = 16  # turns of attacks by unseen pieces a memory has room for
# counters
N_HIDDEN = 0  # rows of ``hidden`` in use
LAST_FIGHT = 1  # the last turn the agent was told of a piece taken or crushed
NUL_STANDS = 2  # 1 while its draw offer stands (R9)
COUNTERS = 4

Choice = tuple[int, int, int, IntArray, float, int]


class Memory(NamedTuple):
    """One agent's memory over one game (see the module docstring). Per enemy identifier:
    ``first_cell`` (the flat cell it was first seen on, or -1), ``moved`` (seen to move since:
    not a chief, R8), ``seen_type`` (its type as last seen, or -1), and a dated value
    (``mark_turn``, ``mark_value``: the defence a failed attack on it showed, R6). ``hidden``
    lists ``(turn, flat cell, power)`` of attacks by unseen (invisible) pieces on the agent."""

    first_cell: IntArray
    moved: np.ndarray
    seen_type: IntArray
    mark_turn: IntArray
    mark_value: IntArray
    hidden: IntArray  # (rows, 3)
    counters: IntArray  # (COUNTERS,)


make_memory = record(Memory)


def new_memory(cells: int, players: int, memory_turns: int = HIDDEN_TURNS) -> Memory:
    """An empty memory for a board of ``cells`` cells and ``players`` players; ``hidden`` has
    room for ``memory_turns`` turns of attacks by every other player."""
    return Memory(
        first_cell=np.full(cells, -1, dtype=np.int64),
        moved=np.zeros(cells, dtype=np.bool_),
        seen_type=np.full(cells, -1, dtype=np.int64),
        mark_turn=np.full(cells, NEVER, dtype=np.int64),
        mark_value=np.zeros(cells, dtype=np.int64),
        hidden=np.zeros((memory_turns * players + players, 3), dtype=np.int64),
        counters=np.zeros(COUNTERS, dtype=np.int64),
    )


@kernel
def copied(m: Memory) -> Memory:
    """A copy of memory ``m`` (a decision changes the memory it is given)."""
    return make_memory(
        m.first_cell.copy(), m.moved.copy(), m.seen_type.copy(), m.mark_turn.copy(),
        m.mark_value.copy(), m.hidden.copy(), m.counters.copy(),
    )  # fmt: skip
