"""The study folder: what was simulated, and one Parquet file per finished chunk of games.

A study folder holds ``_study.json`` (the study: rules variants, agents, seed, number of games)
and one Parquet file per finished chunk, named for its variant and its range of game indices
(``v0000-0000000000-0000000020.parquet``); replays, when asked for, under ``_replays``. Names
starting with ``_`` or ``.`` are skipped by Parquet readers, so the folder opens as it is::

    pandas.read_parquet("runs/x")
    polars.read_parquet("runs/x/*.parquet")
    duckdb.sql("select winner_agent, count(*) from 'runs/x/*.parquet' group by all")

Each file is written whole or not at all (:func:`antipolix.files.write_atomically`), so a file
present is a chunk complete: running the same study again plays only the games no file holds yet
(resume after a crash or Ctrl-C), asking for more games of the same study adds them, and a folder
holding another study is refused.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from antipolix import games
from antipolix.errors import AntipolixError, SimulationError
from antipolix.files import (
    Writer,
    check_creatable,
    compare_studies,
    json_file,
    locked_folder,
    write_atomically,
)
from antipolix.games import host
from antipolix.runner.rows import schema

STUDY_FILE = "_study.json"
STUDY_FORMAT = "antipolix-study"
STUDY_VERSION = 2  # 2: army counts per item (n_ITEM columns) in place of army texts
STUDY_VERSION_GAMES = 3  # a study of another game than AntipoliX (it names it: ``game``)
REPLAYS = "_replays"

_CHUNK_RE = re.compile(r"^v(\d+)-(\d+)-(\d+)\.parquet$")


@dataclass(frozen=True, order=True)
class Chunk:
    """Games ``start`` … ``stop − 1`` of variant number ``variant``: one task, one file."""

    variant: int
    start: int
    stop: int

    @property
    def games(self) -> int:
        return self.stop - self.start

    @property
    def filename(self) -> str:
        return f"v{self.variant:04d}-{self.start:010d}-{self.stop:010d}.parquet"

    @classmethod
    def from_filename(cls, name: str) -> Chunk | None:
        m = _CHUNK_RE.match(name)
        return None if m is None else cls(int(m[1]), int(m[2]), int(m[3]))


def chunk_files(path: Path) -> list[tuple[Chunk, Path]]:
    """The finished chunks in a study folder, in (variant, first game) order."""
    found = []
    for entry in path.iterdir():
        chunk = Chunk.from_filename(entry.name)
        if chunk is not None:
            found.append((chunk, entry))
    return sorted(found)


def read_study(path: Path) -> dict[str, Any]:
    """The study description stored in a study folder; errors say what is wrong."""
    file = path / STUDY_FILE
    try:
        data = json_file(file)
    except FileNotFoundError:
        raise SimulationError(f"{path} holds no study ({STUDY_FILE} is missing)") from None
    except (OSError, ValueError) as exc:
        raise SimulationError(f"{file} cannot be read: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != STUDY_FORMAT:
        raise SimulationError(f"{file} is not an antipolix study description")
    version = data.get("version")
    if version not in (STUDY_VERSION, STUDY_VERSION_GAMES):
        raise SimulationError(
            f"{file} has study format version {version!r}; this antipolix reads "
            f"versions {STUDY_VERSION} and {STUDY_VERSION_GAMES}"
        )
    game = data.get("game", games.DEFAULT)
    try:
        played = games.game(game)
    except AntipolixError:
        raise SimulationError(
            f"{file} is a study of the game {game!r}, which this antipolix does not have "
            f"(games: {', '.join(games.names())})"
        ) from None
    had = data.get("game_version", played.info.version)
    if had != played.info.version:
        raise SimulationError(
            f"{file} is a study of {game} version {had!r}; this antipolix plays {game} "
            f"version {played.info.version}, whose games differ: use a new folder"
        )
    wrong = _shape_problem(data)
    if wrong is not None:
        raise SimulationError(f"{file} was edited or damaged: {wrong}")
    return data


def _shape_problem(data: Mapping[str, Any]) -> str | None:
    """What is not as :func:`~antipolix.runner.study.make_study` writes a study description
    (the fields every reader relies on, by type), or None."""
    whole = type(data.get("seed")) is int and type(data.get("games")) is int
    if not whole or data["seed"] < 0 or data["games"] < 1:
        return "its seed and games are not integers (games >= 1)"
    labels, variants = data.get("labels"), data.get("variants")
    if not isinstance(labels, list) or not all(isinstance(a, str) for a in labels):
        return "its labels are not a list of agent names"
    if not isinstance(data.get("agents"), list) or len(data["agents"]) != len(labels):
        return "its agents are not a list of one record per label"
    if not isinstance(variants, list) or not variants:
        return "its variants are not a list of rules variants"
    for v in variants:
        if not isinstance(v, dict) or not isinstance(v.get("name"), str):
            return "a variant is not a table with a name"
        if not isinstance(v.get("rules"), dict):
            return f"variant {v['name']!r} has no rules table"
    return None


def normal_study(study: Mapping[str, Any]) -> dict[str, Any]:
    """A stored study description as :func:`~antipolix.runner.study.make_study` writes one
    today: a folder written before studies named their game holds AntipoliX's (``game``
    added), and agents recorded by their module path read as today's records
    (:func:`antipolix.games.host.normal_record`)."""
    out = dict(study)
    name = out.setdefault("game", games.DEFAULT)
    try:
        played = games.game(name)
    except AntipolixError:
        return out  # an unknown game: read_study refuses it
    agents = out.get("agents")
    if isinstance(agents, list) and all(isinstance(a, Mapping) for a in agents):
        out["agents"] = [host.normal_record(played, a) for a in agents]
    return out


def study_game(study: dict[str, Any]) -> str:
    """The registry name of a study's game (a study written before games had names:
    AntipoliX)."""
    return str(study.get("game", games.DEFAULT))


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
        if not path.exists():
            check_creatable(path, SimulationError)
            return
        if not path.is_dir():
            raise SimulationError(f"cannot use {path} for results: it is not a folder")
        if (path / STUDY_FILE).exists():
            self._grown = self._compare(read_study(path))
        elif any(path.iterdir()):
            raise SimulationError(
                f"{path} is not empty and holds no study ({STUDY_FILE}); use a new folder"
            )
        if not os.access(path, os.W_OK | os.X_OK):
            raise SimulationError(f"cannot write results to {path}: permission denied")

    def _compare(self, old: dict[str, Any]) -> bool:
        """True if the folder holds this study with fewer games (it grows); refuse otherwise
        unless it holds this very study (as an earlier version wrote it, agents by their
        module path: :func:`~antipolix.runner.study.normal_study`)."""
        change = compare_studies(normal_study(old), normal_study(self.study), grows="games")
        if change == "shrinks":
            had = old["games"]
            raise SimulationError(
                f"{self.path} holds this study with {had} games; ask for {had} or more (a "
                "study grows, it never shrinks), or use another folder"
            )
        if isinstance(change, tuple):
            raise SimulationError(
                f"{self.path} holds a different study ({'; '.join(change)}); use another "
                "folder, or delete it to start again"
            )
        return change == "grows"

    def open(self) -> None:
        """Create the folder and its study description; lock it against a second run."""
        self.check()
        self._lock = locked_folder(self.path, SimulationError, "results")
        if not (self.path / STUDY_FILE).exists() or self._grown:
            text = json.dumps(self.study, indent=1) + "\n"
            self._write(self.path / STUDY_FILE, text.encode())

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

    def write(
        self, chunk: Chunk, columns: dict[str, list[Any]], replays: list[bytes] | None
    ) -> None:
        """Replays first, then the chunk's rows: the Parquet file marks the chunk as done."""
        if replays is not None:
            folder = self.path / REPLAYS / f"v{chunk.variant:04d}"
            folder.mkdir(parents=True, exist_ok=True)
            for game, data in zip(range(chunk.start, chunk.stop), replays, strict=True):
                self._write(folder / f"game-{game:010d}.apx.json.gz", data)
        import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]

        table = pa.Table.from_pydict(columns, schema=schema(study_game(self.study)))
        self._write(self.path / chunk.filename, lambda f: pq.write_table(table, f))

    @staticmethod
    def _write(target: Path, data: bytes | Writer) -> None:
        try:
            write_atomically(target, data)
        except OSError as exc:
            raise SimulationError(f"cannot write {target}: {exc}") from None
