"""Playing one chunk of games (in the driver, or in a Ray worker): one row per game.

When every agent of the study is a built-in one and no replays are asked for, the games run
whole in compiled code (:mod:`antipolix.autoplay`), a batch of games per call; otherwise each
game goes through :func:`antipolix.play.play_game`. The rows are the same either way (R12).
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from antipolix.autoplay import compiled, play_games
from antipolix.errors import AntipolixError, SimulationError
from antipolix.play import play_game
from antipolix.replay import ReplayWriter
from antipolix.runner.rows import COLUMNS, GameRow
from antipolix.runner.seeds import game_seed, seat_order
from antipolix.runner.store import Chunk
from antipolix.runner.study import Payload
from antipolix.usage import USAGE, UsageCounter
from antipolix.watch import Watcher


@dataclass
class ChunkOutput:
    chunk: Chunk
    columns: dict[str, list[Any]]
    replays: list[bytes] | None = None

    @property
    def seconds(self) -> float:
        return float(sum(self.columns["seconds"]))


BATCH = 16  # games per compiled call when a progress bar follows the games one by one


def play_chunk(
    payload: Payload, chunk: Chunk, on_game: Callable[[], None] | None = None
) -> ChunkOutput:
    """Play games ``chunk.start`` … ``chunk.stop − 1`` of one variant; one row per game.
    ``on_game`` is called after each game (the in-process progress bar)."""
    columns: dict[str, list[Any]] = {name: [] for name, _ in COLUMNS}
    if not payload.replays and compiled(payload.agents):
        step = chunk.games if on_game is None else BATCH
        for start in range(chunk.start, chunk.stop, step):
            for row in _play_compiled(
                payload, chunk.variant, range(start, min(start + step, chunk.stop))
            ):
                for name, value in row.values().items():
                    columns[name].append(value)
                if on_game is not None:
                    on_game()
        return ChunkOutput(chunk, columns)
    replays: list[bytes] | None = [] if payload.replays else None
    with contextlib.ExitStack() as stack:
        folder = None
        if replays is not None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="apx-")))
        for game in range(chunk.start, chunk.stop):
            row, replay = _play(payload, chunk.variant, game, folder)
            for name, value in row.values().items():
                columns[name].append(value)
            if replays is not None and replay is not None:
                replays.append(replay)
            if on_game is not None:
                on_game()
    return ChunkOutput(chunk, columns, replays)


def _play_compiled(payload: Payload, variant: int, games: range) -> list[GameRow]:
    """Games ``games`` of one variant in one compiled call; their rows, in order."""
    v = payload.variants[variant]
    players = v.rules.players
    seats = [seat_order(payload.seed, g, players, payload.shuffle_seats) for g in games]
    played = play_games(
        v.rules,
        [
            ([payload.agents[j] for j in s], game_seed(payload.seed, g))
            for g, s in zip(games, seats, strict=True)
        ],
    )
    rows = []
    for g, s, p in zip(games, seats, played, strict=True):
        if p is None:  # an army the engine refuses: the Python path names the problem
            rows.append(_play(payload, variant, g, None)[0])
            continue
        rows.append(
            GameRow.of_numbers(
                p.result,
                p.armies,
                p.pieces_left,
                p.cost_left,
                v,
                g,
                payload.seed,
                s,
                payload.labels,
                p.seconds,
                dict(zip(USAGE, p.usage, strict=True)),
            )
        )
    return rows


def _play(
    payload: Payload, variant: int, game: int, folder: Path | None
) -> tuple[GameRow, bytes | None]:
    """One game: its row, and its replay's bytes when ``folder`` (a scratch folder) is given."""
    v = payload.variants[variant]
    seats = seat_order(payload.seed, game, v.rules.players, payload.shuffle_seats)
    file = None if folder is None else folder / "game.apx.json.gz"
    counter = UsageCounter()
    watchers: list[Watcher] = [counter] if file is None else [counter, ReplayWriter(file)]
    began = time.perf_counter()
    try:
        played = play_game(
            v.rules,
            [payload.agents[j] for j in seats],
            game_seed(payload.seed, game),
            watchers=watchers,
        )
    except AntipolixError as exc:
        raise SimulationError(f"variant {v.name!r}, game {game}: {exc}") from exc
    seconds = time.perf_counter() - began
    row = GameRow.of(played, v, game, payload.seed, seats, payload.labels, seconds, counter.counts)
    return row, None if file is None else file.read_bytes()
