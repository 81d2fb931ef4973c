"""How many games go in each chunk (one task, one file): sizes change only how games are grouped,
never a row (R12)."""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence

from antipolix.runner.store import Chunk

TARGET_TASK_SECONDS = 5.0  # automatic chunks: a Ray task lasts about this long
FIRST_CHUNK = 4  # automatic chunks: games per chunk before any game has been timed
MAX_CHUNKS = 5000  # automatic chunks: a study is kept under about this many files ...
MAX_TASK_SECONDS = 90.0  # ... unless that makes a task last longer than this


class ChunkSizer:
    """Hands out the chunks still to play, in (variant, game) order.

    A fixed ``chunk_size`` gives chunks of that size. Otherwise the first chunks have
    ``FIRST_CHUNK`` games (so the progress moves within seconds, whatever the study's size),
    later ones as many as fit in ``TARGET_TASK_SECONDS`` at the mean game time measured so far,
    at least ``games / MAX_CHUNKS`` (a bounded number of files) but never more than fit in
    ``MAX_TASK_SECONDS`` (so a huge study still reports progress every minute or so), and at
    most a half of a worker's share of what is left (so the workers finish together).
    """

    def __init__(
        self, todo: Sequence[Chunk], chunk_size: int | None, workers: int, total: int
    ) -> None:
        self._todo = deque(todo)
        self._remaining = sum(c.games for c in todo)
        self._fixed = chunk_size
        self._workers = max(1, workers)
        self._floor = max(1, math.ceil(total / MAX_CHUNKS))
        self._games = 0
        self._seconds = 0.0
        self.sizes: list[int] = []

    def record(self, games: int, seconds: float) -> None:
        """A chunk of ``games`` games took ``seconds`` of play on its worker."""
        self._games += games
        self._seconds += seconds

    def size(self) -> int:
        if self._fixed is not None:
            return self._fixed
        if self._games == 0:
            size = FIRST_CHUNK  # nothing timed yet: small, whatever the floor
        else:
            rate = self._games / max(self._seconds, 1e-9)  # games a second on one worker
            size = max(int(TARGET_TASK_SECONDS * rate), self._floor)
            size = min(size, max(1, int(MAX_TASK_SECONDS * rate)))
        size = min(size, math.ceil(self._remaining / (2 * self._workers)))
        return max(1, size)

    def next(self) -> Chunk | None:
        if not self._todo:
            return None
        head = self._todo[0]
        stop = min(head.stop, head.start + self.size())
        chunk = Chunk(head.variant, head.start, stop)
        if stop == head.stop:
            self._todo.popleft()
        else:
            self._todo[0] = Chunk(head.variant, stop, head.stop)
        self._remaining -= chunk.games
        self.sizes.append(chunk.games)
        return chunk
