"""The envelope of every replay file, whatever the game: JSON lines, data only, read as a stream.

A replay (format ``antipolix-replay``) is UTF-8 JSON, one object per line, gzip-compressed when
the file name ends in ``.gz``. The first line is a ``header`` record, the last an ``end``
record ``{"type": "end", "lines": n, "sha256": hex}`` holding the SHA-256 of the bytes of
lines 1 to n; what lies between (placement, turns, the result) is each game's business
(:mod:`antipolix.replay` for AntipoliX, :mod:`antipolix.games.replays` for the other games).

:func:`read_records` reads a file with bounded memory: each line is parsed and handed to the
game's check as it arrives, so the first bad record stops the reading; the decompressed size is
capped (:data:`MAX_REPLAY_BYTES`, lines of :data:`MAX_LINE_BYTES`, the header
:data:`MAX_HEADER_BYTES`); the checksum is taken on the way. :func:`write_records` writes the
same envelope: the same records give the same bytes.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from antipolix.errors import ReplayError
from antipolix.files import parse_json, write_atomically

FORMAT = "antipolix-replay"
MAX_REPLAY_BYTES = 64 * 2**20  # a replay may hold (decompressed) at most this much ...
MAX_LINE_BYTES = 16 * 2**20  # ... in lines of at most this much ...
MAX_HEADER_BYTES = 4 * 2**20  # ... the first (the header, given armies included) this much

Record = dict[str, Any]
# check(number, record, previous): refuse a record that cannot stand at line ``number`` (1 is
# the header) after ``previous`` (None for the header), with a ReplayError
Check = Callable[[int, Record, Record | None], None]


def line(obj: Mapping[str, Any]) -> bytes:
    """One record as the line a replay holds (compact JSON, no NaN)."""
    return (json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n").encode()


def size_text(n: int) -> str:
    return f"{n // 2**20} MB" if n >= 2**20 else f"{n // 2**10} KB"


def envelope_bytes(lines: Sequence[bytes], path: Path, level: int = 9) -> bytes:
    """The file's bytes: the lines, the end record with their checksum, gzip-compressed at
    ``level`` (with no time stamp: the same game, the same bytes) when ``path`` ends in
    ``.gz``."""
    digest = hashlib.sha256(b"".join(lines)).hexdigest()
    data = b"".join([*lines, line({"type": "end", "lines": len(lines), "sha256": digest})])
    return gzip.compress(data, level, mtime=0) if path.name.endswith(".gz") else data


def write_records(path: Path, lines: Sequence[bytes], level: int = 9) -> None:
    """Write a replay's lines and its end record to ``path`` whole or not at all (gzip
    ``level`` 9, the smallest, unless told: the match server writes at 1, the fastest)."""
    write_atomically(path, envelope_bytes(lines, path, level))


def read_records(path: Path, check: Check, most: int = MAX_REPLAY_BYTES) -> list[Record]:
    """The records of a replay file, read as a stream with bounded memory (at most ``most``
    bytes once decompressed), each handed to ``check`` as it arrives, the checksum checked
    against the end record; a :class:`ReplayError` says what is wrong (missing, not a replay,
    corrupt, truncated, edited)."""
    with _opened(path) as (stream, compressed):
        try:
            return _records(path, stream, check, most)
        except EOFError:
            raise ReplayError(
                f"replay {path} is truncated (the compressed data ends early)"
            ) from None
        except IsADirectoryError:
            raise ReplayError(f"replay {path} is a folder, not a file") from None
        except (OSError, zlib.error) as exc:
            if not compressed:
                raise ReplayError(f"replay {path} cannot be read: {exc}") from None
            raise ReplayError(f"replay {path} is corrupt (bad compressed data: {exc})") from None


def read_header(path: Path) -> Record:
    """The first record of a replay file (read alone, bounded), checked to be a replay header:
    what :mod:`antipolix.games.replays` reads to know the game before reading the rest."""
    with _opened(path) as (stream, compressed):
        try:
            first = stream.readline(MAX_HEADER_BYTES + 1)
        except EOFError:
            raise ReplayError(
                f"replay {path} is truncated (the compressed data ends early)"
            ) from None
        except (OSError, zlib.error) as exc:
            what = "is corrupt (bad compressed data" if compressed else "cannot be read ("
            raise ReplayError(f"replay {path} {what}: {exc})") from None
    if not first:
        raise ReplayError(f"replay {path} is empty")
    if len(first) > MAX_HEADER_BYTES:
        raise ReplayError(
            f"{path} is not an antipolix replay (its first line is longer than "
            f"{size_text(MAX_HEADER_BYTES)})"
        )
    record = _parse(path, 1, first)
    if record.get("type") != "header" or record.get("format") != FORMAT:
        raise ReplayError(f"{path} is not an antipolix replay (no replay header)")
    return record


class _opened:
    """The file as a stream of decompressed bytes (gzip when it starts with gzip's magic)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.raw: IO[bytes] | None = None
        self.stream: Any = None

    def __enter__(self) -> tuple[Any, bool]:
        path = self.path
        try:
            self.raw = open(path, "rb")
        except FileNotFoundError:
            raise ReplayError(f"replay {path} does not exist") from None
        except IsADirectoryError:
            raise ReplayError(f"replay {path} is a folder, not a file") from None
        except OSError as exc:
            raise ReplayError(f"replay {path} cannot be read: {exc.strerror}") from None
        try:
            compressed = self.raw.read(2) == b"\x1f\x8b"
            self.raw.seek(0)
        except OSError as exc:
            self.raw.close()
            raise ReplayError(f"replay {path} cannot be read: {exc.strerror}") from None
        self.stream = gzip.GzipFile(fileobj=self.raw, mode="rb") if compressed else self.raw
        return self.stream, compressed

    def __exit__(self, *exc: object) -> None:
        if self.stream is not None and self.stream is not self.raw:
            self.stream.close()
        if self.raw is not None:
            self.raw.close()


def _records(path: Path, stream: Any, check: Check, most: int) -> list[Record]:
    records: list[Record] = []
    digest = hashlib.sha256()
    total = 0
    previous = b""
    while True:
        cap = MAX_HEADER_BYTES if not records else MAX_LINE_BYTES
        text = stream.readline(cap + 1)
        if not text:
            break
        number = len(records) + 1
        total += len(text)
        if len(text) > cap:
            if number == 1:
                raise ReplayError(
                    f"{path} is not an antipolix replay (its first line is longer than "
                    f"{size_text(cap)})"
                )
            raise ReplayError(
                f"replay {path} is corrupt: line {number} is longer than {size_text(cap)}"
            )
        if total > most:
            raise ReplayError(
                f"replay {path} holds more than {size_text(most)} of data (once "
                "decompressed); no game this antipolix writes is that large"
            )
        digest.update(previous)
        previous = text
        record = _parse(path, number, text)
        if records and records[-1].get("type") == "end":
            raise ReplayError(f"replay {path} was edited or damaged: line {number} follows its end")
        check(number, record, records[-1] if records else None)
        records.append(record)
    if not records:
        raise ReplayError(f"replay {path} is empty")
    end = records[-1]
    if end.get("type") != "end":
        raise ReplayError(
            f"replay {path} is truncated: it stops after {len(records)} lines with no "
            "end record (the game was not written to its end)"
        )
    if end.get("lines") != len(records) - 1 or end.get("sha256") != digest.hexdigest():
        raise ReplayError(
            f"replay {path} was edited or damaged: its checksum does not match its content"
        )
    return records


def _parse(path: Path, number: int, text: bytes) -> Record:
    try:
        obj = parse_json(text)
    except ValueError:  # (not JSON, not UTF-8, nested too deep, an integer too long)
        if number == 1:
            raise ReplayError(f"{path} is not an antipolix replay (line 1 is not JSON)") from None
        raise ReplayError(f"replay {path} is corrupt: line {number} is not JSON") from None
    if not isinstance(obj, dict) or "type" not in obj:
        if number == 1:
            raise ReplayError(f"{path} is not an antipolix replay (no replay header)")
        raise ReplayError(f"replay {path} is corrupt: line {number} is not a replay record")
    return obj
