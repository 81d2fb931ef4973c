"""The journal of a served game: every step written as it happens, so that a game in progress
survives a restart of the server (not to be confused with :mod:`antipolix.journal`, the
engine's events as numbers).

One file per game, ``DATA/GAME.journal``: UTF-8 JSON lines, data only, appended and flushed
line by line (a crash or a kill of the server loses nothing written; a power cut may lose the
last lines, and a torn last line is dropped when the journal is read back). The lines:

1. ``{"type": "game", "format": "antipolix-served-game", "version": 1, "id", "engine",
   "rules": {...}, "seed": int, "seats": [{"kind", "name", "agent"}, ...], "watch",
   "agent_min_think", "tokens": {"seats": [sha256, ...], "watch": sha256}, "created"}`` — the
   game as the host created it; tokens only as their SHA-256 (:mod:`antipolix.server.tokens`).
2. ``{"type": "army", "seat", "items": [...], "cells": [[z, y, x], ...] | null}`` — each army a
   client gave (R3), in the order they came; built-in agents choose theirs again from the seed.
3. ``{"type": "turn", "turn", "orders", "think", "messages", "reception", "digest", "out"}``
   — each turn played: the orders, measured think times (R7) and messages (R9) as the replay
   files record them (:mod:`antipolix.replay`), the reception order, the digest of every event
   so far (:attr:`antipolix.Game.digest`) and the seats out during the turn (their timers ran
   out, R7). The events themselves go to the replay, written at the end.
4. ``{"type": "over", "replay": file, "result": {...}}`` — the game ended; its replay is written.

A journal without its ``over`` line is a game in progress: ``antipolix serve`` restores it
(:meth:`antipolix.server.match.Match.restore`) by placing the armies and playing every turn
again with the engine, checking each turn's reception order and events (their digest), and
playing its built-in agents again over their observations so that they remember what they saw.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from antipolix.errors import AntipolixError
from antipolix.files import parse_json
from antipolix.server.protocol import encode_line

FORMAT = "antipolix-served-game"
VERSION = 1
SUFFIX = ".journal"
MAX_LINE = 16 * 2**20  # bytes of one line (a turn of a large game stays far below)
MAX_JOURNAL = 256 * 2**20  # bytes of one journal


class JournalError(AntipolixError):
    """A journal that cannot be read back as a served game (its file is named)."""


class GameJournal:
    """Appends one game's records to its file, each line flushed as it is written."""

    def __init__(self, path: Path, handle: IO[bytes]) -> None:
        self.path = path
        self._handle: IO[bytes] | None = handle

    @classmethod
    def create(cls, path: Path, header: Mapping[str, Any]) -> GameJournal:
        """A new journal holding ``header``; refuses to overwrite a journal."""
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            handle = open(path, "xb")  # noqa: SIM115 (kept open for the game, closed by close())
        except FileExistsError:
            raise JournalError(f"journal {path} exists already: a game has this id") from None
        except OSError as exc:
            raise JournalError(f"cannot write journal {path}: {exc.strerror}") from None
        journal = cls(path, handle)
        journal.write({"type": "game", "format": FORMAT, "version": VERSION, **header})
        return journal

    @classmethod
    def reopen(cls, path: Path, keep_bytes: int) -> GameJournal:
        """The journal of a restored game, cut to its first ``keep_bytes`` (a torn last line
        is dropped), to append to."""
        handle = open(path, "r+b")  # noqa: SIM115 (kept open for the game, closed by close())
        handle.truncate(keep_bytes)
        handle.seek(keep_bytes)
        return cls(path, handle)

    def write(self, record: Mapping[str, Any]) -> None:
        if self._handle is None:
            raise JournalError(f"journal {self.path} is closed")
        self._handle.write(encode_line(record))
        self._handle.flush()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def read_journal(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """The header, the other records, and the bytes that hold them whole, of a journal read as
    a stream with bounded memory. A last line without its newline (torn by a crash) is
    dropped; anything else that is not a journal line is refused with a :class:`JournalError`."""
    records: list[dict[str, Any]] = []
    good = 0
    try:
        size = os.path.getsize(path)
        if size > MAX_JOURNAL:
            raise JournalError(f"journal {path} is larger than {MAX_JOURNAL // 2**20} MB")
        with open(path, "rb") as handle:
            while True:
                line = handle.readline(MAX_LINE + 1)
                if not line:
                    break
                if not line.endswith(b"\n"):
                    if len(line) > MAX_LINE:
                        raise JournalError(f"journal {path}: line {len(records) + 1} is too long")
                    break  # torn by a crash: dropped
                try:
                    record = parse_json(line)
                except ValueError:
                    raise JournalError(
                        f"journal {path}: line {len(records) + 1} is not JSON"
                    ) from None
                if not isinstance(record, dict) or "type" not in record:
                    raise JournalError(f"journal {path}: line {len(records) + 1} is not a record")
                records.append(record)
                good += len(line)
    except OSError as exc:
        raise JournalError(f"journal {path} cannot be read: {exc.strerror}") from None
    if not records or records[0].get("type") != "game" or records[0].get("format") != FORMAT:
        raise JournalError(f"{path} is not the journal of a served game")
    if records[0].get("version") != VERSION:
        raise JournalError(
            f"journal {path} has version {records[0].get('version')!r}; this antipolix reads "
            f"version {VERSION}"
        )
    return records[0], records[1:], good
