"""S10: the exact value of a position: does the player to move win with perfect play?

Sight has no draws and no chance (S8, S9), so a position is won or lost for its mover: an
AND/OR search over the game tree decides it. :func:`solve` runs it compiled, with

- a transposition table of proven results keyed up to the board's symmetries
  (:func:`~antipolix.games.sight.search.key_k`: the 8 symmetries of the 5×5 board), two
  entries a bucket (one kept for the shallower position, one always replaced);
- "fewest replies first": the mover's actions are tried in order of how many actions they
  leave the other player, so a move that leaves none (a win at once) is found first and
  refutations come early;
- a budget of nodes: past it the search stops and says so (value unknown).

>>> solve(SightConfig(size=3)).value in (1, -1)
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from antipolix.games.sight.actions import num_actions
from antipolix.games.sight.board import IntArray
from antipolix.games.sight.config import SightConfig
from antipolix.games.sight.position import MOVER, new_position
from antipolix.games.sight.rules import apply_k, legal_k
from antipolix.games.sight.search import _order_k, key_k, remaining_plies_k
from antipolix.jit import kernel

UNKNOWN, LOSS, WIN_ = 0, 1, 2  # a table entry's result for the mover
NODES, BUDGET, ABORT, STORES, HITS = 0, 1, 2, 3, 4
NODES_MAX = 10**15  # the largest budget a caller may give (int64, and years of search)


@kernel
def _store_k(tt_keys: np.ndarray, tt_vals: IntArray, key: np.uint64, won: bool, ply: int) -> None:
    """Keep a proof: the bucket's first entry for the shallower (bigger) one, the second for
    the latest."""
    base = np.int64(key & np.uint64(len(tt_keys) - 2))
    slot = base if tt_keys[base] == 0 or tt_vals[base, 1] >= ply else base + 1
    tt_keys[slot] = key
    tt_vals[slot, 0] = WIN_ if won else LOSS
    tt_vals[slot, 1] = ply


@kernel
def _solve_k(
    pos: IntArray,
    ply: int,
    stack: IntArray,
    moves: IntArray,
    order: IntArray,
    progress: IntArray,
    scratch: IntArray,
    added: IntArray,
    tt_keys: np.ndarray,
    tt_vals: IntArray,
    ctx: IntArray,
) -> bool:
    """Does the mover of ``pos`` win? (``ctx[ABORT]`` set: no answer, the budget is spent.)

    An AND/OR search on explicit stacks (numba's disk cache cannot hold a kernel that calls a
    recursive one): ``stack[p]`` the position at ply ``p``, ``moves[p]`` its actions in the
    order tried, ``progress[p]`` (actions, the next one)."""
    root = ply
    stack[root, :] = pos
    p = root
    entering = True
    won = False
    while True:
        if entering:
            node = stack[p]
            row = moves[p]
            ctx[NODES] += 1
            k = legal_k(node, row)
            entering = False
            if k == 0:
                won = False  # S8
                continue
            if ctx[NODES] > ctx[BUDGET]:
                ctx[ABORT] = 1
                won = False
                continue
            key = key_k(node)
            base = np.int64(key & np.uint64(len(tt_keys) - 2))
            found = False
            for j in range(2):
                if tt_keys[base + j] == key and tt_vals[base + j, 0] != UNKNOWN:
                    ctx[HITS] += 1
                    won = tt_vals[base + j, 0] == WIN_
                    found = True
            if found:
                continue
            if _order_k(node, row, k, stack[p + 1], added, scratch, order[p]) == 0:
                won = True  # an action leaves the other player none
                continue
            progress[p, 0] = k
            progress[p, 1] = 0
            stack[p + 1, :] = node
            apply_k(stack[p + 1], row[0], added)
            p += 1
            entering = True
            continue
        # -- back from ply p: ``won`` is its mover's result
        if ctx[ABORT] != 0:
            if p == root:
                return False
            p -= 1
            continue
        if p == root:
            return won
        p -= 1
        if not won:  # the child's mover loses: this action wins
            _store_k(tt_keys, tt_vals, key_k(stack[p]), True, p)
            ctx[STORES] += 1
            won = True
            continue
        progress[p, 1] += 1
        if progress[p, 1] == progress[p, 0]:  # every action loses
            _store_k(tt_keys, tt_vals, key_k(stack[p]), False, p)
            ctx[STORES] += 1
            won = False
            continue
        stack[p + 1, :] = stack[p]
        apply_k(stack[p + 1], moves[p, progress[p, 1]], added)
        p += 1
        entering = True


@kernel
def solve_children_k(
    pos: IntArray,
    budget: int,
    tt_keys: np.ndarray,
    tt_vals: IntArray,
    ctx: IntArray,
    out: IntArray,
) -> int:
    """Solve each of the mover's actions: ``out[i]`` is 1 when action ``i`` (S11's order) wins
    for the mover, 0 when it loses, -1 when the budget ran out first; returns the count."""
    size = num_actions(pos[0])
    plies = remaining_plies_k(pos) + 2
    stack = np.empty((plies + 1, len(pos)), dtype=np.int64)
    moves = np.empty((plies + 1, size), dtype=np.int64)
    order = np.empty((plies + 1, size), dtype=np.int64)
    progress = np.zeros((plies + 1, 2), dtype=np.int64)
    scratch = np.empty(size, dtype=np.int64)
    added = np.empty(8, dtype=np.int64)
    root = np.empty(size, dtype=np.int64)
    k = legal_k(pos, root)
    ctx[BUDGET] = budget
    for i in range(k):
        child = stack[1]
        child[:] = pos
        apply_k(child, root[i], added)
        ctx[ABORT] = 0
        lost = _solve_k(
            child, 1, stack, moves, order, progress, scratch, added, tt_keys, tt_vals, ctx
        )
        out[i] = -1 if ctx[ABORT] != 0 else (0 if lost else 1)
        out[size + i] = root[i]
    return k


@kernel
def solve_k(
    pos: IntArray, budget: int, tt_keys: np.ndarray, tt_vals: IntArray, ctx: IntArray
) -> int:
    """1 when the mover of ``pos`` wins, -1 when it loses, 0 when the budget ran out."""
    size = num_actions(pos[0])
    plies = remaining_plies_k(pos) + 2
    stack = np.empty((plies + 1, len(pos)), dtype=np.int64)
    moves = np.empty((plies + 1, size), dtype=np.int64)
    order = np.empty((plies + 1, size), dtype=np.int64)
    progress = np.zeros((plies + 1, 2), dtype=np.int64)
    scratch = np.empty(size, dtype=np.int64)
    added = np.empty(8, dtype=np.int64)
    ctx[BUDGET] = budget
    ctx[ABORT] = 0
    won = _solve_k(pos, 0, stack, moves, order, progress, scratch, added, tt_keys, tt_vals, ctx)
    if ctx[ABORT] != 0:
        return 0
    return 1 if won else -1


@dataclass(frozen=True)
class Solution:
    """The value of a position for its mover: 1 won, -1 lost, 0 unknown (budget spent);
    White's value at the start is ``value`` (White moves first, S4)."""

    value: int
    mover: str
    nodes: int
    table_hits: int
    table_entries: int
    seconds: float

    @property
    def winner(self) -> str | None:
        """The colour that wins with perfect play, None if unknown."""
        if self.value == 0:
            return None
        return self.mover if self.value > 0 else ("black" if self.mover == "white" else "white")


def solve(
    config: SightConfig,
    budget: int = 2_000_000_000,
    table_bits: int = 22,
    pos: IntArray | None = None,
) -> Solution:
    """Solve the start of a game of ``config`` (or ``pos``) within ``budget`` nodes, with a
    table of ``2**table_bits`` entries (24 bytes each)."""
    start = new_position(config) if pos is None else pos.copy()
    tt_keys = np.zeros(1 << table_bits, dtype=np.uint64)
    tt_vals = np.zeros((1 << table_bits, 2), dtype=np.int64)
    ctx = np.zeros(8, dtype=np.int64)
    t0 = time.perf_counter()
    value = int(solve_k(start, budget, tt_keys, tt_vals, ctx))
    seconds = time.perf_counter() - t0
    return Solution(
        value=value,
        mover=("white", "black")[int(start[MOVER])],
        nodes=int(ctx[NODES]),
        table_hits=int(ctx[HITS]),
        table_entries=int(np.count_nonzero(tt_keys)),
        seconds=seconds,
    )
