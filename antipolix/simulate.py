"""Batched Monte Carlo: many seeded games, in-process or on Ray, streamed to a Parquet dataset.

>>> from antipolix import Rules, simulate
>>> rules = Rules(shape=(4, 8, 8), players=2, max_turns=60)
>>> results = simulate(rules, ["greedy", "random"], games=6, seed=1, workers=0)
>>> results.to_pandas()[["game", "winner", "reason", "turns"]].shape
(6, 4)

Determinism (R12): game ``i`` of a study is played from
``SeedSequence(seed, spawn_key=(i, 0))`` (:func:`game_seed`), built directly from the root seed
and the game's index; when seats are shuffled, game ``i``'s seating comes from the sibling
``SeedSequence(seed, spawn_key=(i, 1))`` (:func:`seat_order`), a branch the game itself never
uses (it spawns its engine, placement and agent generators below ``(i, 0)``). So every row
depends only on (rules variant, agents, seed, i), never on the chunk size, the number of
workers, serial or Ray, one node or several. Every variant of a grid plays the same seeds
(common random numbers), so variants are compared game by game.

A study folder (``out``) holds ``_study.json`` and one Parquet file per finished chunk of games
(see :mod:`antipolix.results`); each file is written to a temporary name and renamed, so a file
present is a file complete. Running the same study again with the same ``out`` plays only the
games no file holds yet (resume after a crash or Ctrl-C); an ``out`` holding another study is
refused.

On Ray, the rules and agents are shipped once (``ray.put``), each task plays one chunk of
consecutive games and returns its rows, at most ``workers`` tasks are in flight, and each
finished chunk is written to disk and dropped at once: the driver never holds more than the
chunks in flight, whatever the number of games. A task lost with its node is run again by Ray.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import logging
import math
import os
import socket
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from antipolix.agents.army import item_name
from antipolix.agents.base import Agent
from antipolix.config import apply_overrides, rules_to_dict
from antipolix.errors import AntipolixError, SimulationError
from antipolix.limits import check_seed, check_size
from antipolix.play import check_agents, play_game
from antipolix.results import (
    COLUMNS,
    REPLAYS,
    STUDY_FILE,
    STUDY_FORMAT,
    STUDY_VERSION,
    Chunk,
    Results,
    RunInfo,
    chunk_files,
    read_study,
    schema,
    study_diff,
)
from antipolix.rules import Rules
from antipolix.version import __version__

GAME_BRANCH = 0  # game i plays from SeedSequence(seed, spawn_key=(i, GAME_BRANCH))
SEAT_BRANCH = 1  # ... and is seated from SeedSequence(seed, spawn_key=(i, SEAT_BRANCH))
TARGET_TASK_SECONDS = 5.0  # automatic chunks: a Ray task lasts about this long
FIRST_CHUNK = 4  # automatic chunks: games per chunk before any game has been timed
MAX_CHUNKS = 5000  # automatic chunks: a study is kept under about this many files ...
MAX_TASK_SECONDS = 90.0  # ... unless that makes a task last longer than this
CONNECT_TIMEOUT = 5.0  # seconds to reach an explicit Ray address before giving up
MAX_RETRIES = 5  # times Ray re-runs a task whose worker or node died

RulesLike = Rules | Sequence[Rules] | Mapping[str, Rules]
Progress = Callable[[int, int], None]


# -- seeds (R12) -----------------------------------------------------------------------------------


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


# -- rules variants --------------------------------------------------------------------------------


def _text(value: Any) -> str:
    """A rule option's value as ``--rule`` text: ``true``, ``4,8,8``, ``0.5``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ",".join(_text(v) for v in value)
    return str(value)


_MISSING = object()


def _flat(rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in rules_to_dict(rules).items():
        if isinstance(value, dict):
            out.update({f"{key}.{k}": v for k, v in value.items()})
        else:
            out[key] = value
    return out


def rules_overrides(rules: Rules, base: Rules | None = None) -> list[str]:
    """The options of ``rules`` that differ from ``base`` (the defaults), as ``KEY=VALUE`` texts
    that :func:`antipolix.config.apply_overrides` (and ``--rule``) read back.

    >>> rules_overrides(Rules(players=2, shape=(4, 8, 8)))
    ['shape=4,8,8', 'players=2']
    """
    want, have = _flat(rules), _flat(base if base is not None else Rules())
    diff = [f"{k}={_text(v)}" for k, v in want.items() if have.get(k, _MISSING) != v]
    return diff + [f"{k}=none" for k in have if k not in want]


def rules_grid(base: Rules, grid: Mapping[str, Sequence[Any]]) -> dict[str, Rules]:
    """One rules variant per combination of the ``grid`` values, named by its overrides.

    >>> variants = rules_grid(Rules(), {"hovercraft.cost": [1, 2, 3]})
    >>> list(variants)
    ['hovercraft.cost=1', 'hovercraft.cost=2', 'hovercraft.cost=3']
    >>> variants["hovercraft.cost=1"].piece_types.hovercraft.cost
    1

    Values may be Python values or ``--rule`` texts (``"6,12,12"``); several keys give their
    Cartesian product. Each variant is validated like :class:`~antipolix.Rules` itself.
    """
    if not isinstance(grid, Mapping) or not grid:
        raise SimulationError("a grid maps at least one option to its values")
    axes = []
    for key, values in grid.items():
        if isinstance(values, str) or not isinstance(values, Sequence) or not values:
            raise SimulationError(f"grid option {key!r} needs a non-empty list of values")
        axes.append([f"{key}={_text(v)}" for v in values])
    out: dict[str, Rules] = {}
    for combo in itertools.product(*axes):
        name = " ".join(combo)
        if name in out:
            raise SimulationError(f"grid variant {name!r} appears twice")
        out[name] = apply_overrides(base, combo)
    return out


@dataclass(frozen=True)
class Variant:
    name: str
    rules: Rules
    overrides: str  # options that differ from the defaults, ``--rule`` text


def _variants(rules: RulesLike) -> tuple[Variant, ...]:
    items: list[tuple[str | None, Any]]
    if isinstance(rules, Rules):
        items = [("base", rules)]
    elif isinstance(rules, Mapping):
        items = list(rules.items())
        for name, _ in items:
            if not isinstance(name, str) or not name.strip():
                raise SimulationError(f"a variant's name must be a non-empty string: {name!r}")
    elif isinstance(rules, Sequence) and not isinstance(rules, str):
        items = [(None, r) for r in rules]
    else:
        raise SimulationError(
            f"rules must be a Rules, a list of Rules or a dict name → Rules, got {rules!r}"
        )
    if not items:
        raise SimulationError("no rules variant given")
    for name, r in items:
        if not isinstance(r, Rules):
            raise SimulationError(f"variant {name or ''!r}: expected a Rules, got {r!r}")
    flats = [_flat(r) for _, r in items]
    for i, j in itertools.combinations(range(len(items)), 2):
        if flats[i] == flats[j]:
            raise SimulationError(f"variants {i} and {j} have the same rules")
    if items[0][0] is None:  # a list: name each variant by the options that tell them apart
        keys = [k for k in flats[0] if len({_text(f.get(k)) for f in flats}) > 1]
        keys += [k for f in flats for k in f if k not in flats[0] and k not in keys]
        names = [
            " ".join(f"{k}={_text(f.get(k))}" for k in keys) if len(items) > 1 else "base"
            for f in flats
        ]
        items = list(zip(names, (r for _, r in items), strict=True))
    return tuple(Variant(str(n), r, " ".join(rules_overrides(r))) for n, r in items)


# -- the study -------------------------------------------------------------------------------------


def _agent_record(agent: Agent) -> dict[str, Any]:
    record = {"class": f"{type(agent).__module__}.{type(agent).__qualname__}", **agent.spec()}
    loaded: dict[str, Any] = json.loads(json.dumps(record, default=str))  # JSON-ready, compared
    return loaded


def _labels(records: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """Agent names, made unique (``greedy#1``, ``greedy#2``) only where different agents share a
    name; identical agents in several seats share their label."""
    kinds: dict[str, list[str]] = {}
    keys = [json.dumps(r, sort_keys=True) for r in records]
    for r, key in zip(records, keys, strict=True):
        seen = kinds.setdefault(str(r["name"]), [])
        if key not in seen:
            seen.append(key)
    out = []
    for r, key in zip(records, keys, strict=True):
        seen = kinds[str(r["name"])]
        out.append(str(r["name"]) if len(seen) == 1 else f"{r['name']}#{seen.index(key) + 1}")
    return tuple(out)


@dataclass(frozen=True)
class Payload:
    """What every task needs, shipped once to the Ray object store."""

    seed: int
    variants: tuple[Variant, ...]
    agents: tuple[Agent, ...]
    labels: tuple[str, ...]
    shuffle_seats: bool
    replays: bool


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _study(
    rules: RulesLike,
    agents: Sequence[Agent | str],
    games: int,
    seed: int,
    shuffle_seats: bool,
    replays: bool,
) -> tuple[dict[str, Any], Payload]:
    if not _is_int(games) or games < 1:
        raise SimulationError(f"games must be an integer >= 1, got {games!r}")
    try:
        seed = check_seed(seed)
    except AntipolixError as exc:
        raise SimulationError(str(exc)) from None
    variants = _variants(rules)
    for v in variants:
        try:
            check_size(v.rules)
        except AntipolixError as exc:
            where = f"variant {v.name!r}: " if len(variants) > 1 else ""
            raise SimulationError(f"{where}{exc}") from None
    checked: list[Agent] | None = None
    for v in variants:
        try:
            checked = check_agents(v.rules, agents)
        except AntipolixError as exc:
            where = f"variant {v.name!r}: " if len(variants) > 1 else ""
            raise SimulationError(f"{where}{exc}") from None
    assert checked is not None
    records = [_agent_record(a) for a in checked]
    labels = _labels(records)
    study = {
        "format": STUDY_FORMAT,
        "version": STUDY_VERSION,
        "engine": __version__,
        "seed": int(seed),
        "games": int(games),
        "shuffle_seats": bool(shuffle_seats),
        "game_seed": f"SeedSequence(seed, spawn_key=(game, {GAME_BRANCH}))",
        "seat_seed": f"SeedSequence(seed, spawn_key=(game, {SEAT_BRANCH}))",
        "agents": records,
        "labels": list(labels),
        "variants": [
            {"name": v.name, "overrides": v.overrides, "rules": rules_to_dict(v.rules)}
            for v in variants
        ],
    }
    payload = Payload(int(seed), variants, tuple(checked), labels, bool(shuffle_seats), replays)
    return json.loads(json.dumps(study)), payload


# -- one chunk of games (runs in the driver, or in a Ray worker) -----------------------------------


@dataclass
class ChunkOutput:
    chunk: Chunk
    columns: dict[str, list[Any]]
    replays: list[bytes] | None = None

    @property
    def seconds(self) -> float:
        return float(sum(self.columns["seconds"]))


def play_chunk(
    payload: Payload, chunk: Chunk, on_game: Callable[[], None] | None = None
) -> ChunkOutput:
    """Play games ``chunk.start`` … ``chunk.stop − 1`` of one variant; one row per game.
    ``on_game`` is called after each game (the in-process progress bar)."""
    variant = payload.variants[chunk.variant]
    rules = variant.rules
    columns: dict[str, list[Any]] = {name: [] for name, _ in COLUMNS}
    replays: list[bytes] | None = [] if payload.replays else None
    with contextlib.ExitStack() as stack:
        folder = None
        if replays is not None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="apx-")))
        for game in range(chunk.start, chunk.stop):
            seats = seat_order(payload.seed, game, rules.players, payload.shuffle_seats)
            writer = None
            if folder is not None:
                from antipolix.replay import ReplayWriter

                writer = ReplayWriter(folder / "game.apx.json.gz")
            began = time.perf_counter()
            try:
                played = play_game(
                    rules,
                    [payload.agents[j] for j in seats],
                    game_seed(payload.seed, game),
                    writer=writer,
                )
            except AntipolixError as exc:
                raise SimulationError(f"variant {variant.name!r}, game {game}: {exc}") from exc
            seconds = time.perf_counter() - began
            if replays is not None and folder is not None:
                replays.append((folder / "game.apx.json.gz").read_bytes())
            result = played.result
            armies = played.armies
            left = [played.game.pieces(seat) for seat in range(rules.players)]
            row = {
                "variant": variant.name,
                "overrides": variant.overrides,
                "game": game,
                "seed": payload.seed,
                "players": rules.players,
                "seats": seats,
                "agents": [payload.labels[j] for j in seats],
                "armies": [",".join(item_name((p.type, p.trait)) for p in a) for a in armies],
                "army_cost": [sum(rules.piece_cost(p.type, p.trait) for p in a) for a in armies],
                "winner": result.winner,
                "winner_agent": None
                if result.winner is None
                else payload.labels[seats[result.winner]],
                "reason": result.reason.name.lower(),
                "turns": result.turns,
                "elimination_order": list(result.elimination_order),
                "pieces_left": [len(pieces) for pieces in left],
                "cost_left": [sum(rules.piece_cost(p.type, p.trait) for p in ps) for ps in left],
                "seconds": seconds,
            }
            for name, value in row.items():
                columns[name].append(value)
            if on_game is not None:
                on_game()
    return ChunkOutput(chunk, columns, replays)


# -- chunk sizes -----------------------------------------------------------------------------------


class Planner:
    """Hands out the chunks still to play, in (variant, game) order.

    A fixed ``chunk_size`` gives chunks of that size. Otherwise the first chunks have
    ``FIRST_CHUNK`` games (so the progress moves within seconds, whatever the study's size),
    later ones as many as fit in ``TARGET_TASK_SECONDS`` at the mean game time measured so far,
    at least ``games / MAX_CHUNKS`` (a bounded number of files) but never more than fit in
    ``MAX_TASK_SECONDS`` (so a huge study still reports progress every minute or so), and at
    most a half of a worker's share of what is left (so the workers finish together). Sizes
    change only how games are grouped, never a row (R12).
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

    def record(self, output: ChunkOutput) -> None:
        self._games += output.chunk.games
        self._seconds += output.seconds

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


# -- the study folder ------------------------------------------------------------------------------


@dataclass
class Store:
    """A study folder: ``_study.json``, one Parquet file per finished chunk, replays."""

    path: Path
    study: dict[str, Any]
    _lock: IO[bytes] | None = field(default=None, repr=False)
    _grown: bool = field(default=False, repr=False)  # the folder holds fewer games of this study

    def check(self) -> None:
        """Refuse, before any work, a folder that cannot be written or holds another study."""
        path = self.path
        if path.exists():
            if not path.is_dir():
                raise SimulationError(f"cannot use {path} for results: it is not a folder")
            if (path / STUDY_FILE).exists():
                old = read_study(path)
                diff = study_diff(old, self.study)
                had, games = old.get("games"), self.study["games"]
                grows = [k for k in old if k != "games" and old[k] != self.study.get(k)] == []
                grows = grows and set(self.study) == set(old) and _is_int(had)
                if diff and grows and had < games:
                    self._grown = True  # more games of the same study: games 0 … had - 1 stay
                elif diff and grows:
                    raise SimulationError(
                        f"{path} holds this study with {had} games; ask for {had} or more (a "
                        "study grows, it never shrinks), or use another folder"
                    )
                elif diff:
                    raise SimulationError(
                        f"{path} holds a different study ({'; '.join(diff)}); use another "
                        "folder, or delete it to start again"
                    )
            elif any(path.iterdir()):
                raise SimulationError(
                    f"{path} is not empty and holds no study ({STUDY_FILE}); use a new folder"
                )
            if not os.access(path, os.W_OK | os.X_OK):
                raise SimulationError(f"cannot write results to {path}: permission denied")
            return
        parent = path.parent
        while not parent.exists():
            parent = parent.parent
        if not parent.is_dir():
            raise SimulationError(f"cannot create {path}: {parent} is not a folder")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise SimulationError(f"cannot create {path}: {parent} is not writable")

    def open(self) -> None:
        """Create the folder and its study description; lock it against a second run."""
        self.check()
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            lock = open(self.path / ".lock", "ab")  # noqa: SIM115 (held until close)
        except OSError as exc:
            raise SimulationError(f"cannot write results to {self.path}: {exc}") from None
        try:
            import fcntl

            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # pragma: no cover (not POSIX: no lock)
            pass
        except OSError:
            lock.close()
            raise SimulationError(
                f"another run is writing to {self.path}; wait for it or use another folder"
            ) from None
        self._lock = lock
        for stale in self.path.glob(".v*.tmp"):  # files of a run that was killed while writing
            stale.unlink(missing_ok=True)
        if not (self.path / STUDY_FILE).exists() or self._grown:
            text = json.dumps(self.study, indent=1) + "\n"
            self._atomic(self.path / STUDY_FILE, lambda f: f.write(text.encode()))

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def missing(self) -> list[Chunk]:
        """The ranges of games no chunk file holds yet, per variant."""
        games, variants = int(self.study["games"]), len(self.study["variants"])
        done: dict[int, list[Chunk]] = {}
        if self.path.is_dir():
            for chunk, file in chunk_files(self.path):
                if not (0 <= chunk.variant < variants and 0 <= chunk.start < chunk.stop <= games):
                    raise SimulationError(f"{file} does not belong to this study")
                done.setdefault(chunk.variant, []).append(chunk)
        todo = []
        for v in range(variants):
            at = 0
            for chunk in done.get(v, []):
                if chunk.start < at:
                    raise SimulationError(
                        f"{self.path}: chunk files overlap at {chunk.filename}; remove one"
                    )
                if chunk.start > at:
                    todo.append(Chunk(v, at, chunk.start))
                at = chunk.stop
            if at < games:
                todo.append(Chunk(v, at, games))
        return todo

    def write(self, output: ChunkOutput) -> None:
        """Replays first, then the chunk's rows: the Parquet file marks the chunk as done."""
        chunk = output.chunk
        if output.replays is not None:
            folder = self.path / REPLAYS / f"v{chunk.variant:04d}"
            folder.mkdir(parents=True, exist_ok=True)
            for game, data in zip(range(chunk.start, chunk.stop), output.replays, strict=True):
                self._atomic(
                    folder / f"game-{game:010d}.apx.json.gz", functools.partial(_put, data)
                )
        import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]

        table = pa.Table.from_pydict(output.columns, schema=schema())
        self._atomic(self.path / chunk.filename, lambda f: pq.write_table(table, f))

    @staticmethod
    def _atomic(target: Path, write: Callable[[IO[bytes]], object]) -> None:
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as f:
                write(f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise SimulationError(f"cannot write {target}: {exc}") from None
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise


def _put(data: bytes, f: IO[bytes]) -> None:
    f.write(data)


# -- running ---------------------------------------------------------------------------------------


def _serial(
    payload: Payload, planner: Planner, on_game: Callable[[], None] | None = None
) -> Generator[ChunkOutput]:
    while (chunk := planner.next()) is not None:
        output = play_chunk(payload, chunk, on_game)
        planner.record(output)
        yield output


def _host_port(address: str) -> tuple[str, int] | None:
    """``HOST:PORT`` (or ``ray://HOST:PORT``) → (host, port); None for ``auto`` and ``local``."""
    if address in ("auto", "local"):
        return None
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        raise SimulationError(f"a Ray address is 'auto' or HOST:PORT, got {address!r}")
    return host.strip("[]"), int(port)


def _connect(address: str | None, workers: int | None) -> bool:
    """Connect to Ray (start it on this machine, or join ``address``); True if we started it.

    An explicit address is tried first with a plain TCP connection, so an unreachable cluster is
    reported within seconds (``ray.init`` would wait for minutes).
    """
    import ray

    target = None if address is None else _host_port(address)
    if target is not None:
        try:
            socket.create_connection(target, timeout=CONNECT_TIMEOUT).close()
        except OSError as exc:
            raise SimulationError(f"cannot reach the Ray cluster at {address}: {exc}") from None
    if ray.is_initialized():
        current = ray.get_runtime_context().gcs_address
        if target is not None and int(current.rpartition(":")[2]) != target[1]:
            raise SimulationError(
                f"Ray is already connected to {current}, not {address}; call ray.shutdown() "
                "first or leave address out"
            )
        return False
    kwargs: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    if address in (None, "local") and workers and not os.environ.get("RAY_ADDRESS"):
        # a local Ray of our own: no idle worker processes, and no more than the CPUs here
        kwargs["num_cpus"] = min(workers, os.cpu_count() or 1)
    try:
        # Ray puts the driver's current folder first on every worker's import path: from a
        # folder holding a folder named ``antipolix`` (a clone's parent), workers would import
        # that instead of this package. Start Ray from the folder this package was imported
        # from, so workers import the same antipolix as the driver, wherever the user stands.
        with contextlib.chdir(_import_root()):
            try:
                ray.init(address=address, **kwargs)
            except ValueError:  # joined a cluster found on this machine: it has its own CPUs
                if "num_cpus" not in kwargs:
                    raise
                del kwargs["num_cpus"]
                ray.init(address=address, **kwargs)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        where = "start Ray" if address is None else f"connect to Ray at {address}"
        raise SimulationError(f"cannot {where}: {exc}") from None
    return True


def _import_root() -> Path:
    """The folder that holds the ``antipolix`` package this process imported."""
    return Path(__file__).resolve().parent.parent


def _capacity(workers: int | None) -> int:
    """Games at a time: ``workers``, but no more than the cluster's CPUs (more tasks than CPUs
    only wait in Ray's queue and hold their chunks in memory)."""
    import ray

    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call, unused-ignore]
    cpus = max(1, int(cpus))
    return cpus if workers is None else min(workers, cpus)


def _ray(payload: Payload, planner: Planner, capacity: int) -> Generator[ChunkOutput]:
    """Play chunks on Ray, at most ``capacity`` at a time; yield each as it finishes."""
    import ray
    from ray.exceptions import RayError, RayTaskError

    task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(play_chunk)
    try:
        shipped = ray.put(payload)
    except Exception as exc:
        raise SimulationError(f"cannot send the rules and agents to Ray: {exc}") from exc
    pending: dict[Any, Chunk] = {}
    try:
        while True:
            while len(pending) < capacity and (chunk := planner.next()) is not None:
                pending[task.remote(shipped, chunk)] = chunk
            if not pending:
                return
            ready, _ = ray.wait(list(pending), num_returns=1)
            outputs = []
            for ref in ready:
                chunk = pending.pop(ref)
                try:
                    outputs.append(ray.get(ref))
                except RayTaskError as exc:
                    if isinstance(exc.cause, AntipolixError):
                        raise SimulationError(str(exc.cause)) from None
                    raise
                except RayError as exc:
                    raise SimulationError(
                        f"Ray lost games {chunk.start}–{chunk.stop - 1}: {exc}; the finished "
                        "chunks are saved, run again with the same out to finish"
                    ) from exc
                planner.record(outputs[-1])
            while len(pending) < capacity and (chunk := planner.next()) is not None:
                pending[task.remote(shipped, chunk)] = chunk  # keep workers busy, then write
            yield from outputs
    finally:
        # Tasks still running are not cancelled: ray.cancel racing with a task that is just
        # finishing aborts the driver inside Ray 2.60 ("Tried to complete task that was not
        # pending", seen on Ctrl-C). Their results are dropped with their references; the
        # workers are freed when they finish, or at once when the Ray started here shuts down.
        pending.clear()
        del shipped


class _Bar:
    """The progress bar (tqdm: games done, games/s, ETA), made on the first report."""

    def __init__(self) -> None:
        self._bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            from tqdm.auto import tqdm  # type: ignore[import-untyped, unused-ignore]

            self._bar = tqdm(
                total=total, initial=done, unit="game", desc="games", smoothing=0.05, disable=None
            )
        else:
            self._bar.update(done - self._bar.n)

    def note(self, text: str) -> None:
        """A line above the bar (stderr)."""
        from tqdm.auto import tqdm

        tqdm.write(text, file=sys.stderr)

    def describe(self, text: str) -> None:
        if self._bar is not None:
            self._bar.set_description_str(text)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


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
    study, _ = _study(rules, agents, games, seed, shuffle_seats, replays)
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
    study, payload = _study(rules, agents, games, seed, shuffle_seats, bool(replays))
    if workers is not None and (not _is_int(workers) or workers < 0):
        raise SimulationError(f"workers must be None or an integer >= 0, got {workers!r}")
    if chunk_size is not None and (not _is_int(chunk_size) or chunk_size < 1):
        raise SimulationError(f"chunk_size must be None or an integer >= 1, got {chunk_size!r}")
    if address is not None:
        if not isinstance(address, str):
            raise SimulationError(f"a Ray address is 'auto' or HOST:PORT, got {address!r}")
        _host_port(address)
    if address is not None and workers == 0:
        raise SimulationError("workers=0 plays in this process; an address needs Ray")
    if replays and out is None:
        raise SimulationError("replays=True needs an out folder to write them to")
    keep = None
    if out is None:
        keep = tempfile.TemporaryDirectory(prefix="antipolix-simulate-")
        path = Path(keep.name)
    else:
        path = Path(out)
    store = Store(path, study)
    store.check()
    total = int(games) * len(payload.variants)
    serial = workers == 0
    bar = _Bar() if progress is True else None
    report: Progress | None = None
    if bar is not None:
        report = bar
    elif callable(progress):
        report = progress
    started = False
    played = before = 0
    sizes: list[int] = []
    capacity = 1
    try:
        todo = store.missing()
        if report is not None:
            report(total - sum(c.games for c in todo), total)
        if todo and not serial:
            if bar is not None:
                bar.describe("starting Ray" if address is None else f"joining Ray at {address}")
            started = _connect(address, workers)
            capacity = _capacity(workers)
            if bar is not None:
                bar.describe("games")
        store.open()
        todo = store.missing()  # again, now that the folder is locked
        before = done = total - sum(c.games for c in todo)
        planner = Planner(todo, chunk_size, capacity, total)
        sizes = planner.sizes
        if capacity < (workers or 0) and bar is not None:
            bar.note(
                f"antipolix: {workers} workers asked, but Ray has {capacity} CPUs: "
                f"playing {capacity} games at a time"
            )
        live = done

        def tick() -> None:  # in-process: the bar moves with every game, not every chunk
            nonlocal live
            live += 1
            if report is not None:
                report(live, total)

        outputs = (
            _serial(payload, planner, tick if report is not None else None)
            if serial
            else _ray(payload, planner, capacity)
        )
        with contextlib.closing(outputs):
            for output in outputs:
                store.write(output)
                done += output.chunk.games
                played += output.chunk.games
                live = done
                if report is not None:
                    report(done, total)
    finally:
        store.close()
        if bar is not None:
            bar.close()
        if started:
            import ray

            ray.shutdown()
    run = RunInfo(
        mode="serial" if serial else "ray",
        workers=capacity,
        workers_asked=workers,
        games_played=played,
        games_before=before,
        seconds=time.perf_counter() - began,
        chunk_sizes=tuple(sizes),
    )
    return Results(path, run=run, keep=keep)


__all__ = [
    "Payload",
    "Planner",
    "Results",
    "RunInfo",
    "Store",
    "Variant",
    "check_out",
    "game_seed",
    "play_chunk",
    "rules_grid",
    "rules_overrides",
    "seat_order",
    "simulate",
]
