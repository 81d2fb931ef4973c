"""The runner: :func:`simulate` plays a study's missing games, in this process or on Ray, and
writes each finished chunk to the study folder."""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from antipolix.agents.base import Agent
from antipolix.autoplay import warm
from antipolix.checks import is_int
from antipolix.errors import AntipolixError, SimulationError
from antipolix.runner.games import ChunkOutput, play_chunk
from antipolix.runner.on_ray import capacity, connect, host_port, run_on_ray
from antipolix.runner.progress import Bar
from antipolix.runner.results import Results, RunInfo
from antipolix.runner.sizing import ChunkSizer
from antipolix.runner.store import Store
from antipolix.runner.study import Payload, make_study
from antipolix.runner.variants import RulesLike

Progress = Callable[[int, int], None]


def check_out(
    rules: RulesLike,
    agents: Sequence[Agent | str],
    games: int,
    seed: int,
    out: str | Path,
    *,
    shuffle_seats: bool = False,
    replays: bool = False,
) -> None:
    """Refuse, before any work, what :func:`simulate` would refuse for this study and ``out``
    (bad arguments, a folder that is not writable or holds another study); write nothing."""
    study, _ = make_study(rules, agents, games, seed, shuffle_seats, replays)
    Store(Path(out), study).check()


def simulate(
    rules: RulesLike,
    agents: Sequence[Agent | str],
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    address: str | None = None,
    out: str | Path | None = None,
    chunk_size: int | None = None,
    replays: bool = False,
    shuffle_seats: bool = False,
    progress: bool | Progress = False,
) -> Results:
    """Play ``games`` seeded games per rules variant and return their :class:`Results`.

    - ``rules``: one :class:`~antipolix.Rules`, or a grid of variants: a list of Rules (named by
      the options that differ) or a dict name → Rules (see :func:`rules_grid`). Every variant
      plays the same game seeds.
    - ``agents``: one agent object (or built-in agent name) per seat, as in
      :func:`antipolix.play`; ``shuffle_seats=True`` seats them in a random order per game,
      drawn from that game's seed.
    - ``seed``: the root seed (an integer); game ``i`` plays from :func:`game_seed` (R12).
    - ``workers``: ``None`` runs on Ray with every CPU; ``k >= 1`` runs on Ray, ``k`` games at
      a time; ``0`` plays in this process without Ray (same rows).
    - ``address``: a Ray cluster to join (``"auto"``, or ``HOST:PORT``); by default Ray is
      started on this machine unless it is already running in this process.
    - ``out``: the study folder (Parquet dataset); a second call with the same ``out`` plays
      only the games still missing, and a call asking for more games of the same study adds
      them (games 0 … n − 1 are the same whatever the total). Without it, results go to a
      temporary folder that lives as long as the returned object.
    - ``chunk_size``: games per task and per file (automatic by default; rows never depend on
      it). ``replays=True`` also writes each game's replay under ``out/_replays``.
    - ``progress``: ``True`` for a progress bar, or a function called with (done, total).

    Bad arguments raise :class:`~antipolix.errors.SimulationError` (or another
    :class:`~antipolix.errors.AntipolixError`) before any game is played.
    """
    began = time.perf_counter()
    study, payload = make_study(rules, agents, games, seed, shuffle_seats, bool(replays))
    _check_options(workers, address, chunk_size, replays, out)
    keep = tempfile.TemporaryDirectory(prefix="antipolix-simulate-") if out is None else None
    store = Store(Path(keep.name) if keep is not None else Path(out or "."), study)
    store.check()
    bar = Bar() if progress is True else None
    run = _Run(store, payload, int(games) * len(payload.variants), bar)
    if callable(progress):
        run.report = progress
    run.play(workers, address, chunk_size)
    info = RunInfo(
        mode="serial" if workers == 0 else "ray",
        workers=run.capacity,
        workers_asked=workers,
        games_played=run.played,
        games_before=run.before,
        seconds=time.perf_counter() - began,
        chunk_sizes=tuple(run.sizes),
    )
    return Results(store.path, run=info, keep=keep)


def _check_options(workers: Any, address: Any, chunk_size: Any, replays: bool, out: object) -> None:
    if workers is not None and (not is_int(workers) or workers < 0):
        raise SimulationError(f"workers must be None or an integer >= 0, got {workers!r}")
    if chunk_size is not None and (not is_int(chunk_size) or chunk_size < 1):
        raise SimulationError(f"chunk_size must be None or an integer >= 1, got {chunk_size!r}")
    if address is not None:
        if not isinstance(address, str):
            raise SimulationError(f"a Ray address is 'auto' or HOST:PORT, got {address!r}")
        host_port(address)
    if address is not None and workers == 0:
        raise SimulationError("workers=0 plays in this process; an address needs Ray")
    if replays and out is None:
        raise SimulationError("replays=True needs an out folder to write them to")


@dataclass
class _Run:
    """One call of :func:`simulate` at work: plays the missing chunks, writes each as it
    finishes, reports progress, and counts what it did."""

    store: Store
    payload: Payload
    total: int
    bar: Bar | None
    report: Progress | None = None
    capacity: int = 1
    played: int = 0
    before: int = 0
    sizes: tuple[int, ...] | list[int] = ()

    def __post_init__(self) -> None:
        if self.bar is not None:
            self.report = self.bar

    def play(self, workers: int | None, address: str | None, chunk_size: int | None) -> None:
        started = False
        try:
            todo = self.store.missing()
            self._tell(self.total - sum(c.games for c in todo))
            if todo and workers != 0:
                self._warm(todo[0].variant)
                started = self._start_ray(workers, address)
            self.store.open()
            todo = self.store.missing()  # again, now that the folder is locked
            self.before = self.total - sum(c.games for c in todo)
            sizer = ChunkSizer(todo, chunk_size, self.capacity, self.total)
            self.sizes = sizer.sizes
            if self.capacity < (workers or 0) and self.bar is not None:
                self.bar.note(
                    f"antipolix: {workers} workers asked, but Ray has {self.capacity} CPUs: "
                    f"playing {self.capacity} games at a time"
                )
            self._write_all(sizer, serial=workers == 0)
        finally:
            self.store.close()
            if self.bar is not None:
                self.bar.close()
            if started:
                import ray

                ray.shutdown()

    def _warm(self, variant: int) -> None:
        """The compiled core, ready in this process (compiled on the first run after an
        install, else loaded from the disk cache) before Ray's workers need it."""
        if self.bar is not None:
            self.bar.describe("loading the compiled core")
        payload = self.payload
        # a game that cannot be played: the tasks will say which, and why
        with contextlib.suppress(AntipolixError):
            warm(payload.variants[variant].rules, payload.agents)

    def _start_ray(self, workers: int | None, address: str | None) -> bool:
        if self.bar is not None:
            self.bar.describe("starting Ray" if address is None else f"joining Ray at {address}")
        started = connect(address, workers)
        self.capacity = capacity(workers)
        if self.bar is not None:
            self.bar.describe("games")
        return started

    def _write_all(self, sizer: ChunkSizer, serial: bool) -> None:
        done = live = self.before

        def tick() -> None:  # in-process: the bar moves with every game, not every chunk
            nonlocal live
            live += 1
            self._tell(live)

        outputs = (
            _serial(self.payload, sizer, tick if self.report is not None else None)
            if serial
            else run_on_ray(self.payload, sizer, self.capacity)
        )
        with contextlib.closing(outputs):
            for output in outputs:
                self.store.write(output.chunk, output.columns, output.replays)
                done += output.chunk.games
                self.played += output.chunk.games
                live = done
                self._tell(done)

    def _tell(self, done: int) -> None:
        if self.report is not None:
            self.report(done, self.total)


def _serial(
    payload: Payload, sizer: ChunkSizer, on_game: Callable[[], None] | None = None
) -> Generator[ChunkOutput]:
    while (chunk := sizer.next()) is not None:
        output = play_chunk(payload, chunk, on_game)
        sizer.record(output.chunk.games, output.seconds)
        yield output
