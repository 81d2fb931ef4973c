"""R12: the seed of every game of a study, and who sits where.

Game ``i`` of a study plays from ``SeedSequence(seed, spawn_key=(i, 0))``, built directly from the
root seed and the game's index; when seats are shuffled, game ``i``'s seating comes from the
sibling ``SeedSequence(seed, spawn_key=(i, 1))``, a branch the game itself never uses (it spawns
its engine, placement and agent generators below ``(i, 0)``). So every row depends only on
(rules variant, agents, seed, i), never on the chunk size, the number of workers, serial or Ray,
one node or several.
"""

from __future__ import annotations

import numpy as np

GAME_BRANCH = 0  # game i plays from SeedSequence(seed, spawn_key=(i, GAME_BRANCH))
SEAT_BRANCH = 1  # ... and is seated from SeedSequence(seed, spawn_key=(i, SEAT_BRANCH))


def game_seed(seed: int, game: int) -> np.random.SeedSequence:
    """The seed of game ``game`` of a study with root ``seed`` (R12): built in O(1) from the root
    and the index, the same for any chunking, worker count or machine.

    >>> game_seed(1, 5).spawn_key
    (5, 0)
    """
    return np.random.SeedSequence(seed, spawn_key=(game, GAME_BRANCH))


def seat_order(seed: int, game: int, players: int, shuffle: bool) -> list[int]:
    """Which of the study's agents sits in each seat of game ``game``: ``order[seat]`` is an
    index into the agent list. Without ``shuffle`` agent ``k`` sits in seat ``k``; with it, a
    permutation drawn from ``SeedSequence(seed, spawn_key=(game, 1))``, a branch the game's own
    generators never use (R12).

    >>> seat_order(1, 0, 4, shuffle=False)
    [0, 1, 2, 3]
    >>> sorted(seat_order(1, 0, 4, shuffle=True))
    [0, 1, 2, 3]
    """
    if not shuffle:
        return list(range(players))
    ss = np.random.SeedSequence(seed, spawn_key=(game, SEAT_BRANCH))
    return [int(i) for i in np.random.Generator(np.random.PCG64(ss)).permutation(players)]
