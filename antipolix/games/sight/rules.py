"""S4–S8: the turn, compiled: the legal actions in S11's order, applying one, the end.

- :func:`legal_k`: Swap when offered (S4), then the placements (S5: no own stack) or the moves
  of the candidate stacks (S6), each only if the hand holds every piece it uses (S2);
- :func:`apply_k`: one legal action: the piece arrives, then every own group in its sight
  (the origin of a move apart) receives one addition (S7);
- :func:`start_turn_k`: the legal actions at the start of a turn, and the end when there are
  none (S8: the player to move loses, by ``board_full`` or ``blocked``).

Kernels trust their inputs: :class:`~antipolix.games.sight.game.SightState` checks an action
against the legal list before it applies it.
"""

from __future__ import annotations

from antipolix.games.sight.board import ADJ, NDIR, IntArray
from antipolix.games.sight.lines import own_seen_k
from antipolix.games.sight.position import (
    ACTIONS,
    ADDS,
    BLOCKED,
    BOARD_FULL,
    HAND,
    LAST,
    LIMITED,
    META,
    MOVER,
    OVER,
    PIE,
    REASON,
    SIZE,
    STACKS,
    STRICT,
    SWAPPED,
    TURN,
    WINNER,
)
from antipolix.jit import kernel

SWAP = 0  # as antipolix.games.sight.actions
PLACE0 = 1


@kernel
def has_empty_neighbour_k(pos: IntArray, p: int) -> bool:
    """Does ``p`` have an adjacent empty point (S1, S6)?"""
    n = pos[SIZE]
    h = META + n * n
    for d in range(NDIR):
        q = ADJ[n, p, d]
        if q >= 0 and pos[h + q] == 0:
            return True
    return False


@kernel
def top_height_k(pos: IntArray, colour: int) -> int:
    """The height of ``colour``'s candidate stacks (S6), 0 when it has none; -1 when it has no
    stack at all (S4: it must place). ``movable``: the highest stacks among those with an
    adjacent empty point; ``strict``: the highest stacks (maybe hemmed in)."""
    n = pos[SIZE]
    n2 = n * n
    h = META + n2
    if pos[STACKS + colour] == 0:
        return -1
    strict = pos[STRICT] != 0
    any_stack = False
    best = 0
    for p in range(n2):
        height = pos[h + p]
        if height >= 2 and pos[META + p] == colour:
            any_stack = True
            if height > best and (strict or has_empty_neighbour_k(pos, p)):
                best = height
    return best if any_stack else -1


@kernel
def actions_of_k(pos: IntArray, colour: int, out: IntArray, k: int) -> int:
    """The placements (S5) or moves (S6) ``colour`` could make now, each only if its hand
    holds every piece it uses (S2), written to ``out[k:]`` in S11's order; returns the new
    ``k``. (Swap aside: :func:`legal_k` puts it first.)"""
    n = pos[SIZE]
    n2 = n * n
    h = META + n2
    hand = pos[HAND + colour]
    limited = pos[LIMITED] != 0
    top = top_height_k(pos, colour)
    if top < 0:  # S5: no own stack, place
        if hand < 1:
            return k
        for p in range(n2):
            if pos[h + p] == 0 and (not limited or 1 + own_seen_k(pos, p, colour, -1) <= hand):
                out[k] = PLACE0 + p
                k += 1
        return k
    if top == 0:  # S6: no candidate (movable: every stack hemmed in)
        return k
    first = 1 + n2
    for p in range(n2):
        if pos[h + p] == top and pos[META + p] == colour:
            for d in range(NDIR):
                q = ADJ[n, p, d]
                if (
                    q >= 0
                    and pos[h + q] == 0
                    and (not limited or own_seen_k(pos, q, colour, p) <= hand)
                ):
                    out[k] = first + NDIR * p + d
                    k += 1
    return k


@kernel
def count_actions_k(pos: IntArray, colour: int) -> int:
    """How many placements or moves ``colour`` could make now: :func:`actions_of_k`'s count
    without the list (with unlimited hands, in placement mode, the empty points)."""
    n = pos[SIZE]
    n2 = n * n
    h = META + n2
    hand = pos[HAND + colour]
    limited = pos[LIMITED] != 0
    top = top_height_k(pos, colour)
    if top < 0:
        if hand < 1:
            return 0
        if not limited:
            return int(n2 - pos[TURN])  # every turn filled one point (S7)
        k = 0
        for p in range(n2):
            if pos[h + p] == 0 and 1 + own_seen_k(pos, p, colour, -1) <= hand:
                k += 1
        return k
    if top == 0:
        return 0
    k = 0
    for p in range(n2):
        if pos[h + p] == top and pos[META + p] == colour:
            for d in range(NDIR):
                q = ADJ[n, p, d]
                if (
                    q >= 0
                    and pos[h + q] == 0
                    and (not limited or own_seen_k(pos, q, colour, p) <= hand)
                ):
                    k += 1
    return k


@kernel
def legal_k(pos: IntArray, out: IntArray) -> int:
    """The mover's legal actions (S4–S6, S2) written to ``out[:k]`` in S11's order; returns
    ``k``. ``out`` holds at least ``1 + 8·N²`` entries."""
    if pos[OVER] != 0:
        return 0
    k = 0
    if swap_offered_k(pos):
        out[0] = SWAP
        k = 1
    return actions_of_k(pos, pos[MOVER], out, k)


@kernel
def swap_offered_k(pos: IntArray) -> bool:
    """S4: with the pie option, Black may take Swap in turn 2 (once)."""
    return bool(pos[PIE] != 0 and pos[TURN] == 1 and pos[SWAPPED] == 0)


@kernel
def count_legal_k(pos: IntArray) -> int:
    """How many legal actions the mover has (:func:`legal_k`'s count, without the list)."""
    if pos[OVER] != 0:
        return 0
    return int(swap_offered_k(pos)) + count_actions_k(pos, pos[MOVER])


@kernel
def apply_k(pos: IntArray, action: int, added: IntArray) -> int:
    """Apply a legal ``action`` (S4–S7); the points that received an addition are written to
    ``added[:k]`` (at most 8); returns ``k``."""
    n = pos[SIZE]
    n2 = n * n
    h = META + n2
    me = pos[MOVER]
    pos[ACTIONS] += 1
    pos[LAST] = action
    if action == SWAP:  # S4: the agents exchange colours; the board and the mover stay
        pos[SWAPPED] = 1
        pos[ADDS] = 0
        return 0
    if action < 1 + n2:  # S5
        target = action - PLACE0
        origin = -1
        pos[HAND + me] -= 1
    else:  # S6: the top piece of the origin goes to the target
        origin = (action - 1 - n2) // NDIR
        target = ADJ[n, origin, (action - 1 - n2) % NDIR]
        pos[h + origin] -= 1
        if pos[h + origin] == 1:  # the stack became a singleton
            pos[STACKS + me] -= 1
    pos[META + target] = me
    pos[h + target] = 1
    # S7: the groups seen from the arrival, chosen once on the board after it; never chained
    k = 0
    for d in range(NDIR):
        q = ADJ[n, target, d]
        while q >= 0 and pos[h + q] == 0:
            q = ADJ[n, q, d]
        if q >= 0 and q != origin and pos[META + q] == me:
            added[k] = q
            k += 1
    for i in range(k):
        pos[h + added[i]] += 1
        if pos[h + added[i]] == 2:  # a singleton became a stack
            pos[STACKS + me] += 1
    pos[HAND + me] -= k
    pos[ADDS] = k
    pos[TURN] += 1
    pos[MOVER] = 1 - me
    return k


@kernel
def start_turn_k(pos: IntArray, out: IntArray) -> int:
    """:func:`legal_k`; when there is none the game ends (S8): the mover loses, by
    ``board_full`` when no point is empty, else ``blocked``."""
    k = legal_k(pos, out)
    if k == 0 and pos[OVER] == 0:
        n = pos[SIZE]
        pos[OVER] = 1
        pos[WINNER] = 1 - pos[MOVER]
        pos[REASON] = BOARD_FULL if pos[TURN] == n * n else BLOCKED
    return k
