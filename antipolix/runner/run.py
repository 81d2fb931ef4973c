"""The runner: :func:`simulate` plays a study's missing games, in this process or on Ray, and
writes each finished chunk to the study folder."""

from __future__ import annotations

import contextlib
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from antipolix import games as registry
from antipolix.agents.base import Agent
from antipolix.autoplay import compiled
from antipolix.checks import is_int
from antipolix.compiling import compile_notice
from antipolix.errors import AntipolixError, SimulationError
from antipolix.games import host
from antipolix.runner.games import ChunkOutput, play_chunk
from antipolix.runner.on_ray import capacity as on_ray_capacity
from antipolix.runner.on_ray import connect, host_port, run_on_ray
from antipolix.runner.progress import Bar, TimeLeft
from antipolix.runner.results import Results, RunInfo
from antipolix.runner.sizing import ChunkSizer
from antipolix.runner.store import Chunk, Store
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
    game: str = registry.DEFAULT,
) -> None:
    """Refuse, before any work, what :func:`simulate` would refuse for this study and ``out``
    (bad arguments, a folder that is not writable or holds another study); write nothing."""
    study, _ = make_study(rules, agents, games, seed, shuffle_seats, replays, game)
    Store(Path(out), study).check()


def simulate(
    rules: RulesLike,
    agents: Sequence[Agent | str],
    games: int,
    seed: int,
    *,
    game: str = registry.DEFAULT,
    workers: int | None = None,
    address: str | None = None,
    out: str | Path | None = None,
    chunk_size: int | None = None,
    replays: bool = False,
    shuffle_seats: bool = False,
    progress: bool | Progress = False,
) -> Results:
    """Play ``games`` seeded games per rules variant and return their :class:`Results`.

    - ``game``: the game played (a registry name, :mod:`antipolix.games`; AntipoliX by
      default); the study folder records it.
    - ``rules``: one :class:`~antipolix.Rules` (or the game's configuration), or a grid of
      variants: a list of them (named by the options that differ) or a dict name → Rules (see
      :func:`rules_grid`). Every variant plays the same game seeds.
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
    study, payload = make_study(rules, agents, games, seed, shuffle_seats, bool(replays), game)
    _check_options(workers, address, chunk_size, replays, out)
    keep = tempfile.TemporaryDirectory(prefix="antipolix-simulate-") if out is None else None
    store = Store(Path(keep.name) if keep is not None else Path(out or "."), study)
    store.check()
    job = _Study(store, payload, int(games) * len(payload.variants))
    capacity = _play_studies([job], workers, address, chunk_size, progress)
    info = RunInfo(
        mode="serial" if workers == 0 else "ray",
        workers=capacity,
        workers_asked=workers,
        games_played=job.played,
        games_before=job.before,
        seconds=time.perf_counter() - began,
        chunk_sizes=tuple(job.sizer.sizes) if job.sizer is not None else (),
    )
    return Results(store.path, run=info, keep=keep)


@dataclass(frozen=True)
class StudyJob:
    """One study of :func:`simulate_studies`: what :func:`simulate` takes for it."""

    rules: RulesLike
    agents: Sequence[Agent | str]
    games: int
    seed: int
    out: Path
    game: str = registry.DEFAULT


def simulate_studies(
    jobs: Sequence[StudyJob],
    *,
    workers: int | None = None,
    address: str | None = None,
    chunk_size: int | None = None,
    progress: bool | Progress = False,
) -> list[int]:
    """Play the missing games of several studies, each written to its own folder as
    :func:`simulate` with ``out=job.out`` would (the same rows), in one pool: Ray is started (or
    joined) once, and its workers take the next study's games while a study's last ones finish,
    so many small studies (a tournament's seat orders) keep every worker busy. ``progress``
    counts the games of all the studies. Returns the games played, per study.

    Every study is checked (arguments, folders) before any game is played."""
    _check_options(workers, address, chunk_size, False, None)
    studies = []
    for job in jobs:
        study, payload = make_study(
            job.rules, job.agents, job.games, job.seed, False, False, job.game
        )
        store = Store(Path(job.out), study)
        store.check()
        studies.append(_Study(store, payload, int(job.games) * len(payload.variants)))
    _play_studies(studies, workers, address, chunk_size, progress)
    return [s.played for s in studies]


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


class _Study:
    """One study of a run: its folder, its payload and the chunks it still has to play. The
    folder is locked from the first chunk handed out (the chunks still missing are read again
    then) to the last one written, or to the end of the run."""

    def __init__(self, store: Store, payload: Payload, total: int) -> None:
        self.store, self.payload, self.total = store, payload, total
        self.chunk_size: int | None = None
        self.capacity = 1
        self.before = self.played = 0
        self.sizer: ChunkSizer | None = None
        self._out = 0  # chunks handed out, not written yet
        self._done = False  # no chunk left to hand out

    def next(self) -> Chunk | None:
        if self._done:
            return None
        if self.sizer is None:
            self.store.open()
            todo = self.store.missing()  # again, now that the folder is locked
            self.before = self.total - sum(c.games for c in todo)
            self.sizer = ChunkSizer(todo, self.chunk_size, self.capacity, self.total)
        chunk = self.sizer.next()
        if chunk is None:
            self._done = True
            self._close_if_written()
        else:
            self._out += 1
        return chunk

    def record(self, games: int, seconds: float) -> None:
        if self.sizer is not None:
            self.sizer.record(games, seconds)

    def write(self, output: ChunkOutput) -> None:
        self.store.write(output.chunk, output.columns, output.replays)
        self.played += output.chunk.games
        self._out -= 1
        self._close_if_written()

    def _close_if_written(self) -> None:
        if self._done and self._out == 0:
            self.store.close()


def _outputs(
    studies: Sequence[_Study], serial: bool, capacity: int, on_game: Callable[[], None] | None
) -> Generator[tuple[int, ChunkOutput]]:
    """Every chunk of the studies as it finishes, with its study's index: in this process one
    after the other, or on Ray, ``capacity`` at a time across the studies."""
    if not serial:
        yield from run_on_ray(studies, capacity)
        return
    for i, study in enumerate(studies):
        while (chunk := study.next()) is not None:
            output = play_chunk(study.payload, chunk, on_game)
            study.record(output.chunk.games, output.seconds)
            yield i, output


def _play_studies(
    studies: Sequence[_Study],
    workers: int | None,
    address: str | None,
    chunk_size: int | None,
    progress: bool | Progress,
) -> int:
    """Play the studies' missing games, writing each chunk as it finishes, with a progress bar
    (``progress=True``) or calls of ``progress(done, total)``; Ray, when used, is started (or
    joined) once, after the compiled core is ready in this process (warmed once for each study
    that brings agents not warmed yet), and shut down if started here. Returns the capacity
    (games at a time)."""
    total = sum(s.total for s in studies)
    todo = [s.store.missing() for s in studies]
    missing = [sum(c.games for c in chunks) for chunks in todo]
    left = TimeLeft(missing)
    bar = Bar(left=left) if progress is True else None
    tell = bar if bar is not None else progress if callable(progress) else None
    done = total - sum(missing)
    if tell is not None:
        tell(done, total)
    started = False
    capacity = 1
    try:
        first = [(s, chunks[0].variant) for s, chunks in zip(studies, todo, strict=True) if chunks]
        if done < total and tell is not None:
            _compile_notice(first, bar)
        if done < total and workers != 0:
            _warm(first, bar)
            if bar is not None:
                bar.describe("starting Ray" if address is None else f"joining Ray at {address}")
            started = connect(address, workers)
            capacity = on_ray_capacity(workers)
            if bar is not None:
                bar.describe("games")
                if capacity < (workers or 0):
                    bar.note(
                        f"antipolix: {workers} workers asked, but Ray has {capacity} CPUs: "
                        f"playing {capacity} games at a time"
                    )
        for s in studies:
            s.chunk_size, s.capacity = chunk_size, capacity
        live = done
        left.start()
        if bar is not None:
            bar.begin()  # the rate counts the games' time, not the set-up's

        def tick() -> None:  # in-process: the bar moves with every game, not every chunk
            nonlocal live
            live += 1
            if bar is not None and bar.label != "games":  # compiled in the first game(s)
                bar.describe("games")
                bar.begin()
            if tell is not None:
                tell(live, total)

        outputs = _outputs(studies, workers == 0, capacity, tick if tell is not None else None)
        with contextlib.closing(outputs):
            for i, output in outputs:
                studies[i].write(output)
                left.played(i, output.chunk.games, output.seconds)
                done += output.chunk.games
                live = done
                if tell is not None:
                    tell(done, total)
    finally:
        for s in studies:
            s.store.close()
        if bar is not None:
            bar.close()
        if started:
            import ray

            ray.shutdown()
    return capacity


def _compile_notice(first: Sequence[tuple[_Study, int]], bar: Bar | None) -> None:
    """Say, above the progress, when the studies' first games will compile the core (once per
    install, :mod:`antipolix.compiling`), so that a bar at 0 % for a minute does not look
    hung; nothing when the disk cache holds it."""
    notes = []
    for study, _ in first:
        if study.payload.game != registry.DEFAULT:  # the notice knows AntipoliX's kernels
            continue
        agents = study.payload.agents
        note = compile_notice(agents, whole=compiled(agents) and not study.payload.replays)
        if note is not None and note not in notes:
            notes.append(note)
    if notes and bar is not None:
        for note in notes:
            bar.note(f"antipolix: {note}")
        bar.describe("compiling the core")
    elif notes:
        for note in notes:
            print(f"antipolix: {note}", file=sys.stderr, flush=True)


def _warm(first: Sequence[tuple[_Study, int]], bar: Bar | None) -> None:
    """The compiled core, ready in this process (compiled on the first run after an install,
    else loaded from the disk cache) before Ray's workers need it: one game for each study
    (with the rules variant of its first missing chunk) that brings agents or rules not warmed
    yet."""
    seen: set[str] = set()
    for study, variant in first:
        payload = study.payload
        game = registry.game(payload.game)
        rules = payload.variants[variant].rules
        keys = {f"{payload.game}|{host.agent_label(game, a)}|{rules!r}" for a in payload.agents}
        if keys <= seen:
            continue
        seen |= keys
        if bar is not None and bar.label != "compiling the core":
            bar.describe("loading the compiled core")
        # a game that cannot be played: the tasks will say which, and why
        with contextlib.suppress(AntipolixError):
            host.warm(game, rules, list(payload.agents))
