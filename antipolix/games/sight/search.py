"""Search in Sight: alpha-beta over a transposition table keyed by the position up to the
board's symmetries (S1), compiled.

- :func:`key_k`: a 64-bit Zobrist key of a position, the least of its keys under the
  symmetries that keep the drawn lines (8 on odd boards, 4 on even ones, S1), so that
  symmetric positions share one table entry. A position's value depends only on its board,
  whose turn it is (the turn's parity, S4), Swap being offered (S4) and the hands (S2);
- :func:`mobility_k`: how many actions a colour could make now (S5, S6, S2);
- :func:`negamax_k`: alpha-beta to a depth, with wins and losses scored by distance
  (:data:`WIN` less the plies to them) and, at the horizon, the mover's actions less the
  other's: having few actions is what loses this game (S8). Values are for the agent to
  act: every action, Swap included, passes the turn to the other agent (Swap keeps the
  colour to move but exchanges the agents' colours, S4), so negamax holds throughout;
- :func:`best_actions_k`: iterative deepening under a budget of nodes; the root's actions that
  share the best value of the last depth completed.

A transposition table is two arrays made by :func:`new_table`; an entry carries the number of
the search that wrote it, so a new search ignores old entries without clearing the table.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from antipolix.games.sight.actions import num_actions
from antipolix.games.sight.board import MAX_POINTS, NSYM, SYM, IntArray
from antipolix.games.sight.position import HAND, LIMITED, META, MOVER, PIE, SIZE, SWAPPED, TURN
from antipolix.games.sight.rules import apply_k, count_actions_k, count_legal_k, legal_k
from antipolix.jit import kernel

U64Array = npt.NDArray[np.uint64]

WIN = 1_000_000  # a win now; a win d plies ahead scores WIN - d
MATE = WIN - 1000  # scores beyond ±MATE are wins and losses
INF = 2 * WIN
MAX_HEIGHT = 63  # heights above share a key (none occurs: a group grows once a turn at most)
EXACT, LOWER, UPPER = 0, 1, 2

# context counters of a search (an int64 array)
NODES, BUDGET, ABORT, GEN = 0, 1, 2, 3
CTX = 4

_KEYS = np.random.Generator(np.random.PCG64(0x5167_4B41_544F)).integers(
    0,
    np.iinfo(np.uint64).max,
    size=(MAX_POINTS, 2, MAX_HEIGHT + 1),
    dtype=np.uint64,
    endpoint=True,
)
ZOBRIST = _KEYS
ZOBRIST.setflags(write=False)
Z_SWAP = np.uint64(0x9E3779B97F4A7C15)  # Swap offered (S4)
Z_HANDS = np.uint64(0xD1B54A32D192ED03)  # times the hands (S2), when limited


def new_table(bits: int = 20) -> tuple[U64Array, IntArray]:
    """An empty transposition table of ``2**bits`` entries: keys, and (value, depth, flag and
    search number) per entry."""
    return np.zeros(1 << bits, dtype=np.uint64), np.zeros((1 << bits, 3), dtype=np.int64)


@kernel
def key_k(pos: IntArray) -> np.uint64:
    """The position's key, the same for every image of it under the board's symmetries."""
    n = pos[SIZE]
    n2 = n * n
    h = META + n2
    best = np.uint64(0xFFFFFFFFFFFFFFFF)
    for s in range(NSYM[n]):
        k = np.uint64(0)
        for p in range(n2):
            height = pos[h + p]
            if height > 0:
                k ^= ZOBRIST[SYM[n, s, p], pos[META + p], min(height, MAX_HEIGHT)]
        if k < best:
            best = k
    if pos[PIE] != 0 and pos[TURN] == 1 and pos[SWAPPED] == 0:
        best ^= Z_SWAP
    if pos[LIMITED] != 0:
        best ^= Z_HANDS * np.uint64(1 + pos[HAND] * 4096 + pos[HAND + 1])
    return best


@kernel
def mobility_k(pos: IntArray, colour: int) -> int:
    """How many placements or moves ``colour`` could make now (Swap aside)."""
    return count_actions_k(pos, colour)


@kernel
def evaluate_k(pos: IntArray, mine: int) -> int:
    """At the horizon, for the mover with ``mine`` actions: ``mine`` less the other's."""
    return mine - mobility_k(pos, 1 - pos[MOVER])


@kernel
def _order_k(
    pos: IntArray,
    moves: IntArray,
    k: int,
    child: IntArray,
    added: IntArray,
    scratch: IntArray,
    order: IntArray,
) -> int:
    """Sort ``moves[:k]`` by the replies each leaves the other player, fewest first, then by
    the actions it leaves the mover, most first (ties in S11's order); returns the least
    number of replies (0: a move that wins at once)."""
    for i in range(k):
        child[:] = pos
        apply_k(child, moves[i], added)
        replies = count_legal_k(child)
        # the mover's colour after its action: the other than the one to move (Swap too, S4)
        mine = mobility_k(child, 1 - child[MOVER]) if replies > 0 else 0
        order[i] = (replies * 1024 + 1023 - min(mine, 1023)) * 4096 + i
    order[:k].sort()
    least = order[0] // (4096 * 1024)
    tmp = scratch  # reuse: the moves in their new order
    for i in range(k):
        tmp[i] = moves[order[i] % 4096]
    moves[:k] = tmp[:k]
    return int(least)


@kernel
def _to_tt(v: int, ply: int) -> int:
    return v + ply if v > MATE else (v - ply if v < -MATE else v)


@kernel
def _from_tt(v: int, ply: int) -> int:
    return v - ply if v > MATE else (v + ply if v < -MATE else v)


@kernel
def negamax_k(
    pos: IntArray,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
    stack: IntArray,
    moves: IntArray,
    order: IntArray,
    frames: IntArray,
    scratch: IntArray,
    added: IntArray,
    tt_keys: U64Array,
    tt_vals: IntArray,
    ctx: IntArray,
) -> int:
    """The value of ``pos`` for its mover, searched ``depth`` plies (alpha-beta, fail-soft);
    0 with ``ctx[ABORT]`` set once the budget of nodes is spent.

    The recursion runs on explicit stacks (numba's disk cache cannot hold a kernel that calls
    a recursive one): ``stack[p]`` the position at ply ``p`` (``pos`` is copied to
    ``stack[ply]``), ``moves[p]`` its actions in the order tried, ``frames[p]`` its window
    and progress (see :data:`F_DEPTH` ...)."""
    root = ply
    stack[root, :] = pos
    frames[root, F_DEPTH] = depth
    frames[root, F_ALPHA] = alpha
    frames[root, F_BETA] = beta
    entering = True
    ret = 0
    p = root
    while True:
        if entering:  # -- a node's first visit: leaf, table, or its first child
            node = stack[p]
            row = moves[p]
            ctx[NODES] += 1
            k = legal_k(node, row)
            d = frames[p, F_DEPTH]
            done = True
            if k == 0:
                ret = -(WIN - p)  # S8: the mover has no legal action and loses
            elif d <= 0:
                ret = evaluate_k(node, k)
            elif ctx[NODES] > ctx[BUDGET]:
                ctx[ABORT] = 1
                ret = 0
            else:
                key = key_k(node)
                slot = np.int64(key & np.uint64(len(tt_keys) - 1))
                frames[p, F_SLOT] = slot
                hit = False
                if (
                    tt_keys[slot] == key
                    and tt_vals[slot, 2] >> 2 == ctx[GEN]
                    and tt_vals[slot, 1] >= d
                ):
                    v = _from_tt(tt_vals[slot, 0], p)
                    flag = tt_vals[slot, 2] & 3
                    a, b = frames[p, F_ALPHA], frames[p, F_BETA]
                    if flag == EXACT or (flag == LOWER and v >= b) or (flag == UPPER and v <= a):
                        ret = v
                        hit = True
                if not hit:
                    if _order_k(node, row, k, stack[p + 1], added, scratch, order[p]) == 0:
                        ret = WIN - p - 1  # an action leaves the other player none
                    else:
                        done = False
                        frames[p, F_K] = k
                        frames[p, F_I] = 0
                        frames[p, F_BEST] = -INF
                        frames[p, F_START] = frames[p, F_ALPHA]
            if done:
                entering = False
            else:  # push the first child
                _push(stack, moves, frames, p, added)
                p += 1
            continue
        # -- back from ply p with ``ret``
        if p == root or ctx[ABORT] != 0:
            if p == root:
                return ret if ctx[ABORT] == 0 else 0
            p -= 1
            ret = 0
            continue
        p -= 1
        v = -ret
        if v > frames[p, F_BEST]:
            frames[p, F_BEST] = v
        if v > frames[p, F_ALPHA]:
            frames[p, F_ALPHA] = v
        frames[p, F_I] += 1
        if frames[p, F_ALPHA] >= frames[p, F_BETA] or frames[p, F_I] == frames[p, F_K]:
            best = frames[p, F_BEST]
            if best <= frames[p, F_START]:
                flag = UPPER
            elif best >= frames[p, F_BETA]:
                flag = LOWER
            else:
                flag = EXACT
            slot = frames[p, F_SLOT]
            tt_keys[slot] = key_k(stack[p])
            tt_vals[slot, 0] = _to_tt(best, p)
            tt_vals[slot, 1] = frames[p, F_DEPTH]
            tt_vals[slot, 2] = flag | (ctx[GEN] << 2)
            ret = best
        else:
            _push(stack, moves, frames, p, added)
            p += 1
            entering = True


# a frame of negamax_k's explicit stack: depth, window, progress over the node's actions
F_DEPTH, F_ALPHA, F_BETA, F_START, F_BEST, F_K, F_I, F_SLOT = range(8)
FRAME = 8


@kernel
def _push(stack: IntArray, moves: IntArray, frames: IntArray, p: int, added: IntArray) -> None:
    """Set up ply ``p + 1`` as the child of ply ``p`` by its action number ``frames[p, F_I]``,
    with the negated window."""
    child = stack[p + 1]
    child[:] = stack[p]
    apply_k(child, moves[p, frames[p, F_I]], added)
    frames[p + 1, F_DEPTH] = frames[p, F_DEPTH] - 1
    frames[p + 1, F_ALPHA] = -frames[p, F_BETA]
    frames[p + 1, F_BETA] = -frames[p, F_ALPHA]


@kernel
def remaining_plies_k(pos: IntArray) -> int:
    """No game goes on longer: one point fills a turn (S7), plus Swap if still offered (S4)."""
    n = pos[SIZE]
    swap = 1 if pos[PIE] != 0 and pos[TURN] <= 1 and pos[SWAPPED] == 0 else 0
    return int(n * n - pos[TURN] + swap)


@kernel
def best_actions_k(
    pos: IntArray,
    budget: int,
    max_depth: int,
    out: IntArray,
    tt_keys: U64Array,
    tt_vals: IntArray,
    ctx: IntArray,
) -> int:
    """Iterative deepening from depth 1 while the budget of nodes lasts (at most ``max_depth``
    plies, or to the end of the game): the root's actions that share the best value of the
    last depth completed, written to ``out[:j]`` in S11's order; returns ``j``. ``ctx[GEN]``
    numbers this search in the table. The result depends only on the position and the
    budget: no clock."""
    n = pos[SIZE]
    size = num_actions(n)
    plies = remaining_plies_k(pos) + 2
    stack = np.empty((plies + 1, len(pos)), dtype=np.int64)
    moves = np.empty((plies + 1, size), dtype=np.int64)
    order = np.empty((plies + 1, size), dtype=np.int64)
    frames = np.zeros((plies + 1, FRAME), dtype=np.int64)
    scratch = np.empty(size, dtype=np.int64)
    added = np.empty(8, dtype=np.int64)
    values = np.empty(size, dtype=np.int64)
    root = np.empty(size, dtype=np.int64)
    k = legal_k(pos, root)
    for i in range(k):
        out[i] = root[i]
    if k <= 1:
        return k
    ctx[NODES] = 0
    ctx[BUDGET] = budget
    ctx[ABORT] = 0
    j = k  # before any depth completes: every action
    child = stack[1]
    last = min(max_depth, plies - 2)
    for depth in range(1, last + 1):
        best = -INF
        for i in range(k):
            child[:] = pos
            apply_k(child, root[i], added)
            alpha = best - 1 if best > -INF else -INF
            values[i] = -negamax_k(
                child,
                depth - 1,
                -INF,
                -alpha,
                1,
                stack,
                moves,
                order,
                frames,
                scratch,
                added,
                tt_keys,
                tt_vals,
                ctx,
            )
            if ctx[ABORT] != 0 and depth > 1:
                break
            if values[i] > best:
                best = values[i]
        if ctx[ABORT] != 0 and depth > 1:
            break
        j = 0
        for i in range(k):
            if values[i] == best:
                out[j] = root[i]
                j += 1
        if best > MATE or best < -MATE:
            break  # proven: deeper changes nothing
    return j
