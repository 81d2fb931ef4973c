"""Playing one chunk of games (in the driver, or in a Ray worker): one row per game.

Every game is reached through the game protocol (:mod:`antipolix.games.host`). When the game
has a compiled batch path for these agents (AntipoliX's compiled core, for built-in agents)
and no replays are asked for, the games run a batch per call, grouped by seat order; otherwise
each game is played alone (:func:`antipolix.games.replays.play`, writing its replay when asked
for). The rows are the same either way (R12): the common columns from the study and the
game's outcome, the game's own columns from the outcome's figures.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from antipolix import games
from antipolix.errors import AntipolixError, SimulationError
from antipolix.games import host, replays
from antipolix.games.protocol import Outcome
from antipolix.runner.rows import table_columns
from antipolix.runner.seeds import game_seed, seat_order
from antipolix.runner.store import Chunk
from antipolix.runner.study import Payload
from antipolix.runner.variants import Variant


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
    columns: dict[str, list[Any]] = {name: [] for name, _ in table_columns(payload.game)}

    def add(row: dict[str, Any]) -> None:
        for name, values in columns.items():
            values.append(row[name])
        if on_game is not None:
            on_game()

    if not payload.replays:
        step = chunk.games if on_game is None else BATCH
        for start in range(chunk.start, chunk.stop, step):
            rows = _play_batch(payload, chunk.variant, range(start, min(start + step, chunk.stop)))
            if rows is None:
                break
            for row in rows:
                add(row)
        else:
            return ChunkOutput(chunk, columns)
    replays_: list[bytes] | None = [] if payload.replays else None
    with contextlib.ExitStack() as stack:
        folder = None
        if replays_ is not None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="apx-")))
        for game in range(chunk.start, chunk.stop):
            row, replay = _play(payload, chunk.variant, game, folder)
            add(row)
            if replays_ is not None and replay is not None:
                replays_.append(replay)
    return ChunkOutput(chunk, columns, replays_)


def _play_batch(payload: Payload, variant: int, numbers: range) -> list[dict[str, Any]] | None:
    """Games ``numbers`` of one variant through the game's batch path, one call per seat
    order; their rows, in order; None when the game has no batch path for these agents."""
    v = payload.variants[variant]
    game = games.game(payload.game)
    players = int(v.rules.players)
    seats = {g: seat_order(payload.seed, g, players, payload.shuffle_seats) for g in numbers}
    orders: dict[tuple[int, ...], list[int]] = {}
    for g in numbers:
        orders.setdefault(tuple(seats[g]), []).append(g)
    outcomes: dict[int, tuple[Outcome, float]] = {}
    for order, group in orders.items():
        began = time.perf_counter()
        try:
            played = host.play_batch(
                game,
                v.rules,
                [payload.agents[j] for j in order],
                [game_seed(payload.seed, g) for g in group],
            )
        except AntipolixError:
            for g in group:  # one by one, so that the failing game is named by its index
                _play(payload, variant, g, None)
            raise
        if played is None:
            return None
        share = (time.perf_counter() - began) / len(group)
        outcomes.update((g, (o, share)) for g, o in zip(group, played, strict=True))
    return [_row(payload, v, g, seats[g], *outcomes[g]) for g in numbers]


def _play(
    payload: Payload, variant: int, number: int, folder: Path | None
) -> tuple[dict[str, Any], bytes | None]:
    """One game: its row, and its replay's bytes when ``folder`` (a scratch folder) is given."""
    v = payload.variants[variant]
    game = games.game(payload.game)
    seats = seat_order(payload.seed, number, int(v.rules.players), payload.shuffle_seats)
    file = None if folder is None else folder / "game.apx.json.gz"
    began = time.perf_counter()
    try:
        outcome = replays.play(
            game,
            v.rules,
            [payload.agents[j] for j in seats],
            game_seed(payload.seed, number),
            replay=file,
        )
    except AntipolixError as exc:
        raise SimulationError(f"variant {v.name!r}, game {number}: {exc}") from exc
    row = _row(payload, v, number, seats, outcome, time.perf_counter() - began)
    return row, None if file is None else file.read_bytes()


def _row(
    payload: Payload, v: Variant, number: int, seats: list[int], outcome: Outcome, took: float
) -> dict[str, Any]:
    """A results row: the common columns, then the game's own from the outcome's figures."""
    labels = payload.labels
    winner = outcome.winner
    return {
        "variant": v.name,
        "overrides": v.overrides,
        "game": number,
        "seed": payload.seed,
        "players": int(v.rules.players),
        "seats": list(seats),
        "agents": [labels[j] for j in seats],
        "winner": winner,
        "winner_agent": None if winner is None else labels[seats[winner]],
        "reason": outcome.reason,
        "turns": outcome.turns,
        "elimination_order": list(outcome.elimination_order),
        "seconds": took if outcome.seconds is None else outcome.seconds,
        **outcome.extras,
    }
