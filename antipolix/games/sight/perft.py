"""S11: perft, the number of legal action sequences of a given depth from the start, compiled.

``perft(0) = 1``; ``perft(d)`` sums, over the legal actions, ``perft(d − 1)`` of the position
each leads to; a position where the game is over counts 0 for ``d >= 1``. As chess engines use
it, it checks move generation against reference counts (S11 gives them to depth 5).

>>> perft(SightConfig(), 2), perft(SightConfig(pie=True), 2)
(600, 625)
"""

from __future__ import annotations

import numpy as np

from antipolix.games.protocol import GameError
from antipolix.games.sight.actions import num_actions
from antipolix.games.sight.board import IntArray
from antipolix.games.sight.config import SightConfig
from antipolix.games.sight.position import new_position
from antipolix.games.sight.rules import apply_k, legal_k
from antipolix.jit import kernel

MAX_DEPTH = 81  # no game lasts more than N² turns (S7), Swap aside


@kernel
def perft_k(pos: IntArray, depth: int, stack: IntArray, moves: IntArray, added: IntArray) -> int:
    """perft(``depth``) from ``pos``; ``stack`` holds a row per ply for the positions,
    ``moves`` a row per ply for the legal lists."""
    if depth == 0:
        return 1
    k = legal_k(pos, moves[depth])
    if depth == 1:
        return k
    total = 0
    child = stack[depth]
    for i in range(k):
        child[:] = pos
        apply_k(child, moves[depth, i], added)
        total += perft_k(child, depth - 1, stack, moves, added)
    return total


def perft(config: SightConfig, depth: int) -> int:
    """perft(``depth``) from the start of a game of ``config`` (S11)."""
    if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= MAX_DEPTH:
        raise GameError(f"perft depth must be an integer from 0 to {MAX_DEPTH}, got {depth!r}")
    pos = new_position(config)
    stack = np.zeros((depth + 1, len(pos)), dtype=np.int64)
    moves = np.zeros((depth + 1, num_actions(config.size)), dtype=np.int64)
    added = np.zeros(8, dtype=np.int64)
    return int(perft_k(pos, depth, stack, moves, added))
