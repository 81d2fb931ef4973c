"""Replay files: everything a viewer or an auditor needs to see a game again (R12: the truth).

Format ``antipolix-replay`` version 2: UTF-8 JSON, one object per line, gzip-compressed when the
file name ends in ``.gz`` (``game.apx.json.gz``). Data only, never code. The lines, in order:

1. ``{"type": "header", "format": "antipolix-replay", "version": 2, "engine": "0.2.0",
   "rules": {...}, "agents": [{"name", "params", "army"}, ...], "armies": [...] | null,
   "seed": {"entropy": int, "spawn_key": [int, ...]}}`` — rules in the dict form of
   :mod:`antipolix.codec`; ``armies`` are armies given to :func:`antipolix.play`, if any.
2. ``{"type": "placement", "pieces": [{"id", "owner", "type", "trait", "cell"}, ...]}`` — every
   piece in the order it was placed (seat by seat), with its identifier (R6).
3. One line per turn: ``{"type": "turn", "turn": t, "orders": {seat: order}, "think":
   {seat: seconds}, "messages": {seat: [...]}, "reception": [seat, ...], "events": [...]}`` —
   orders as given (``{"kind": "Move", "piece", "cell"}``, ``{"kind": "Attack", "pieces",
   "cell"}``, ``{"kind": "Pass"}``), events as :meth:`antipolix.events.Event.to_dict`.
4. ``{"type": "result", "winner", "reason", "turns", "elimination_order"}``.
5. ``{"type": "end", "lines": n, "sha256": hex}`` — the SHA-256 of the bytes of lines 1 to n.

Loading re-simulates the game from the header and the recorded orders with the engine, checking
every event, so :meth:`Replay.state_at` gives the true state at any turn and an edited or
truncated file, or one the engine no longer reproduces, is refused with a :class:`ReplayError`.
:meth:`Replay.verify` also plays the built-in agents again and checks their every decision.
"""

from __future__ import annotations

import copy
import gzip
import hashlib
import json
import os
import tempfile
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from antipolix.codec import (
    cell_from_list,
    item_name,
    message_from_dict,
    message_to_dict,
    order_from_dict,
    order_to_dict,
    parse_item,
    rules_from_dict,
    rules_to_dict,
)
from antipolix.end import EndReason, GameResult
from antipolix.errors import AntipolixError, ReplayError
from antipolix.events import Event
from antipolix.game import Game, TurnReport
from antipolix.messages import Command, Message
from antipolix.observation import Observation
from antipolix.orders import Order
from antipolix.pieces import PieceType, Trait
from antipolix.rules import Rules
from antipolix.version import __version__

if TYPE_CHECKING:
    from antipolix.agents.base import Agent, Decision

FORMAT = "antipolix-replay"
VERSION = 2  # 2: piece identifiers say nothing of placement order (R6)
CHECKPOINT_EVERY = 32  # turns between saved states, so state_at never re-plays more than this


def _events(report: TurnReport) -> list[dict[str, Any]]:
    return [e.to_dict() for e in report.events]


def _line(obj: Mapping[str, Any]) -> bytes:
    return (json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n").encode()


# -- writing ------------------------------------------------------------------------------------


class ReplayWriter:
    """Writes one game's replay as it is played; the file appears (atomically) when it ends.

    Used by :func:`antipolix.play` (``replay=path``). The target folder is checked at once, so a
    bad path fails before the game is played.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        folder = self.path.parent
        if self.path.is_dir():
            raise ReplayError(f"replay path {self.path} is a folder, not a file")
        if not folder.is_dir():
            raise ReplayError(f"cannot write replay {self.path}: folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise ReplayError(f"cannot write replay {self.path}: folder {folder} is not writable")
        self._lines: list[bytes] = []

    def start(self, game: Game, agents: Sequence[Agent], armies: Any) -> None:
        seed = game.seed
        header = {
            "type": "header",
            "format": FORMAT,
            "version": VERSION,
            "engine": __version__,
            "rules": rules_to_dict(game.rules),
            "agents": [a.spec() for a in agents],
            "armies": None
            if armies is None
            else [None if a is None else [item_name(parse_item(i)) for i in a] for a in armies],
            "seed": {"entropy": int(seed.entropy), "spawn_key": [int(k) for k in seed.spawn_key]},  # type: ignore[arg-type]
        }
        pieces = [
            {
                "id": p.id,
                "owner": p.owner,
                "type": p.type.name,
                "trait": p.trait.name,
                "cell": list(p.cell),
            }
            for p in game.placement()
        ]
        self._lines = [_line(header), _line({"type": "placement", "pieces": pieces})]

    def turn(self, report: TurnReport, decisions: Mapping[int, Decision]) -> None:
        self._lines.append(
            _line(
                {
                    "type": "turn",
                    "turn": report.turn,
                    "orders": {str(s): order_to_dict(d.order) for s, d in decisions.items()},
                    "think": {str(s): float(d.think_time) for s, d in decisions.items()},
                    "messages": {
                        str(s): [message_to_dict(m) for m in d.messages]
                        for s, d in decisions.items()
                        if d.messages
                    },
                    "reception": list(report.reception),
                    "events": _events(report),
                }
            )
        )

    def finish(self, result: GameResult) -> None:
        self._lines.append(_line({"type": "result", **_result_to_dict(result)}))
        digest = hashlib.sha256(b"".join(self._lines)).hexdigest()
        self._lines.append(_line({"type": "end", "lines": len(self._lines), "sha256": digest}))
        data = b"".join(self._lines)
        if self.path.name.endswith(".gz"):
            data = gzip.compress(data, mtime=0)  # same game, same bytes
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; a replay is not
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self._lines = []

    def abort(self) -> None:
        self._lines = []


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _result_to_dict(result: GameResult) -> dict[str, Any]:
    return {
        "winner": result.winner,
        "reason": result.reason.name,
        "turns": result.turns,
        "elimination_order": list(result.elimination_order),
    }


# -- reading ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnRecord:
    """One recorded turn: what each living player submitted, and what happened."""

    turn: int
    orders: dict[int, Order]
    think: dict[int, float]
    messages: dict[int, list[Message | Command]]
    reception: tuple[int, ...]
    events: list[dict[str, Any]]


MAX_REPLAY_BYTES = 64 * 2**20  # a replay may hold (decompressed) at most this much ...
MAX_LINE_BYTES = 16 * 2**20  # ... in lines of at most this much ...
MAX_HEADER_BYTES = 4 * 2**20  # ... the first (the header, given armies included) this much
_READ = 2**16  # bytes read from the file at a time


def _size(n: int) -> str:
    return f"{n // 2**20} MB" if n >= 2**20 else f"{n // 2**10} KB"


def _read_records(path: Path) -> list[dict[str, Any]]:
    """The records of a replay file, read as a stream with bounded memory: each line is parsed
    and checked as it arrives (header first, placement, consecutive turns no more than the turn
    limit, result, end), the first bad one stops the reading, the decompressed size is capped
    (:data:`MAX_REPLAY_BYTES`, :data:`MAX_LINE_BYTES`), and the SHA-256 of the lines is taken on
    the way and checked against the end record."""
    try:
        raw = open(path, "rb")  # noqa: SIM115 (closed below, with the decompressor)
    except FileNotFoundError:
        raise ReplayError(f"replay {path} does not exist") from None
    except IsADirectoryError:
        raise ReplayError(f"replay {path} is a folder, not a file") from None
    except OSError as exc:
        raise ReplayError(f"replay {path} cannot be read: {exc.strerror}") from None
    with raw:
        try:
            compressed = raw.read(2) == b"\x1f\x8b"
            raw.seek(0)
        except OSError as exc:
            raise ReplayError(f"replay {path} cannot be read: {exc.strerror}") from None
        stream: Any = gzip.GzipFile(fileobj=raw, mode="rb") if compressed else raw
        with stream:
            try:
                return _records(path, stream)
            except EOFError:
                raise ReplayError(
                    f"replay {path} is truncated (the compressed data ends early)"
                ) from None
            except IsADirectoryError:
                raise ReplayError(f"replay {path} is a folder, not a file") from None
            except (OSError, zlib.error) as exc:
                if not compressed:
                    raise ReplayError(f"replay {path} cannot be read: {exc}") from None
                raise ReplayError(
                    f"replay {path} is corrupt (bad compressed data: {exc})"
                ) from None


def _records(path: Path, stream: Any) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    digest = hashlib.sha256()
    total = 0
    limit: int | None = None  # the header's turn limit (R10): no file holds more turns
    previous = b""
    while True:
        cap = MAX_HEADER_BYTES if not records else MAX_LINE_BYTES
        line = stream.readline(cap + 1)
        if not line:
            break
        number = len(records) + 1
        total += len(line)
        if len(line) > cap:
            if number == 1:
                raise ReplayError(
                    f"{path} is not an antipolix replay (its first line is longer than "
                    f"{_size(cap)})"
                )
            raise ReplayError(
                f"replay {path} is corrupt: line {number} is longer than {_size(cap)}"
            )
        if total > MAX_REPLAY_BYTES:
            raise ReplayError(
                f"replay {path} holds more than {_size(MAX_REPLAY_BYTES)} of data (once "
                "decompressed); no game this antipolix writes is that large"
            )
        digest.update(previous)
        previous = line
        record = _parse(path, number, line)
        limit = _check_order(path, number, record, records[-1] if records else None, limit)
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


def _parse(path: Path, number: int, line: bytes) -> dict[str, Any]:
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        if number == 1:
            raise ReplayError(f"{path} is not an antipolix replay (line 1 is not JSON)") from None
        raise ReplayError(f"replay {path} is corrupt: line {number} is not JSON") from None
    if not isinstance(obj, dict) or "type" not in obj:
        if number == 1:
            raise ReplayError(f"{path} is not an antipolix replay (no replay header)")
        raise ReplayError(f"replay {path} is corrupt: line {number} is not a replay record")
    return obj


def _check_order(
    path: Path,
    number: int,
    record: dict[str, Any],
    before: dict[str, Any] | None,
    limit: int | None,
) -> int | None:
    """Refuse a record that cannot come at line ``number`` after ``before``; returns the turn
    limit read from the header (line 1)."""
    kind = record.get("type")
    if number == 1:
        if kind != "header" or record.get("format") != FORMAT:
            raise ReplayError(f"{path} is not an antipolix replay (no replay header)")
        version = record.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise ReplayError(f"replay {path} has no valid format version ({version!r})")
        if version < VERSION:
            raise ReplayError(
                f"replay {path} has format version {version}, from an older antipolix "
                f"whose games this one ({__version__}) no longer plays the same way (piece "
                "identifiers, R6): play the game again to record it"
            )
        if version > VERSION:
            raise ReplayError(
                f"replay {path} has format version {version!r}; this antipolix "
                f"({__version__}) reads versions up to {VERSION}: upgrade antipolix to read it"
            )
        rules = record.get("rules")
        turns = rules.get("max_turns") if isinstance(rules, dict) else None
        return turns if isinstance(turns, int) and not isinstance(turns, bool) else None
    assert before is not None
    previous = before.get("type")
    if previous == "end":
        raise ReplayError(f"replay {path} was edited or damaged: line {number} follows its end")
    expected = {"header": ("placement",), "placement": ("turn", "result")}.get(
        str(previous), ("turn", "result") if previous == "turn" else ("end",)
    )
    if kind not in expected:
        raise ReplayError(
            f"replay {path} is malformed: records out of order (line {number} is a "
            f"{kind!r} record after a {previous!r} record)"
        )
    if kind == "turn":
        turn = record.get("turn")
        if turn != number - 2:
            raise ReplayError(
                f"replay {path} was edited or damaged: line {number} holds turn {turn!r} "
                f"where turn {number - 2} belongs"
            )
        if limit is not None and turn > limit:
            raise ReplayError(
                f"replay {path} is corrupt: it holds more turns than its turn limit ({limit})"
            )
    return limit


class Replay:
    """A loaded replay: the header, the placement, every turn, the result, and the true state at
    any turn (re-simulated with the engine, every event checked).

    Turns are numbered as in the game: turn 0 is the position after placement, turn ``t`` the
    position after ``t`` turns were played; ``last_turn`` is the final one.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        records = _read_records(self.path)
        try:
            self._read(records)
        except ReplayError:
            raise
        except Exception as exc:  # any shape of malformed data: a message, not a traceback
            raise ReplayError(f"replay {self.path} is malformed: {_what(exc)}") from None
        self._simulate()

    def _read(self, records: list[dict[str, Any]]) -> None:
        header = records[0]
        self.header = header
        self.engine_version: str = header["engine"]
        try:
            self.rules: Rules = rules_from_dict(header["rules"])
        except AntipolixError as exc:
            raise ReplayError(f"replay {self.path} holds invalid rules: {exc}") from None
        missing = _missing_options(header["rules"], rules_to_dict(self.rules))
        if missing:
            raise ReplayError(
                f"replay {self.path} is malformed: its rules lack {', '.join(missing)} (a "
                "replay records every rule option; defaults are never assumed)"
            )
        players = self.rules.players
        specs = header["agents"]
        if not isinstance(specs, list) or len(specs) != players:
            count = len(specs) if isinstance(specs, list) else 0
            raise ReplayError(
                f"replay {self.path} is malformed: its header names {count} agents for "
                f"{players} players"
            )
        for seat, spec in enumerate(specs):
            name = spec.get("name") if isinstance(spec, dict) else None
            if not isinstance(name, str) or not name.strip():
                raise ReplayError(
                    f"replay {self.path} is malformed: seat {seat}'s agent has no name"
                )
        self.agent_specs: list[dict[str, Any]] = list(specs)
        self.agents: tuple[str, ...] = tuple(str(a["name"]) for a in self.agent_specs)
        self.armies: list[list[str] | None] | None = header.get("armies")
        if self.armies is not None and (
            not isinstance(self.armies, list) or len(self.armies) != players
        ):
            raise ReplayError(f"replay {self.path} is malformed: its armies are not one per seat")
        seed = header["seed"]
        self.seed = np.random.SeedSequence(
            int(seed["entropy"]), spawn_key=tuple(int(k) for k in seed["spawn_key"])
        )
        if len(records) < 4:  # header, placement, result, end (read in order)
            raise ReplayError(f"replay {self.path} is malformed: records out of order")
        self.placement: list[dict[str, Any]] = list(records[1]["pieces"])
        self.records: list[TurnRecord] = [
            TurnRecord(
                turn=int(r["turn"]),
                orders={int(s): order_from_dict(o) for s, o in r["orders"].items()},
                think={int(s): float(t) for s, t in r["think"].items()},
                messages={
                    int(s): [message_from_dict(m) for m in ms]
                    for s, ms in r.get("messages", {}).items()
                },
                reception=tuple(int(s) for s in r["reception"]),
                events=list(r["events"]),
            )
            for r in records[2:-2]
        ]
        res = records[-2]
        self.result = GameResult(
            winner=None if res["winner"] is None else int(res["winner"]),
            reason=EndReason[res["reason"]],
            turns=int(res["turns"]),
            elimination_order=tuple(int(p) for p in res["elimination_order"]),
        )

    @property
    def last_turn(self) -> int:
        return len(self.records)

    def _placed(self) -> Game:
        game = Game(self.rules, self.seed)
        for piece in self.placement:
            pid = game.place(
                int(piece["owner"]),
                PieceType[piece["type"]],
                Trait[piece["trait"]],
                cell_from_list(piece["cell"]),
            )
            if pid != piece["id"]:
                raise ReplayError(
                    f"replay {self.path}: placed piece {piece['id']} gets identifier {pid} "
                    "from the seed: the placement was edited"
                )
        game.start()
        return game

    def _advance(self, game: Game) -> TurnReport:
        rec = self.records[game.turn]
        return game.play_turn(rec.orders, think_times=rec.think, messages=rec.messages)

    def _simulate(self) -> None:
        """Re-play every recorded turn with the engine and check each event (and the result)."""
        try:
            game = self._placed()
        except ReplayError:
            raise
        except Exception as exc:
            raise ReplayError(
                f"replay {self.path}: the placement is not valid: {_what(exc)}"
            ) from None
        self._checkpoints: dict[int, Game] = {0: copy.deepcopy(game)}
        self._reports: list[TurnReport] = []
        for rec in self.records:
            try:
                report = self._advance(game)
            except AntipolixError as exc:
                raise ReplayError(
                    f"replay {self.path}: turn {rec.turn} cannot be played again: {exc}"
                ) from None
            got = _events(report)
            if report.turn != rec.turn or report.reception != rec.reception or got != rec.events:
                raise ReplayError(
                    f"replay {self.path}: turn {rec.turn} does not replay as recorded "
                    f"({_first_difference(rec.events, got)}); the file was written by antipolix "
                    f"{self.engine_version} and this is {__version__}"
                )
            self._reports.append(report)
            if game.turn % CHECKPOINT_EVERY == 0:
                self._checkpoints[game.turn] = copy.deepcopy(game)
        if game.result != self.result:
            raise ReplayError(
                f"replay {self.path}: the recorded result ({self.result}) differs from the "
                f"re-played one ({game.result})"
            )

    def _turn(self, turn: object) -> int:
        if isinstance(turn, bool) or not isinstance(turn, (int, np.integer)):
            raise ReplayError(f"a turn is an integer, got {turn!r}")
        if not 0 <= turn <= self.last_turn:
            raise ReplayError(
                f"turn {turn} is outside this replay (turns 0 to {self.last_turn}; "
                "0 is the position after placement)"
            )
        return int(turn)

    def state_at(self, turn: int) -> Game:
        """The true game after ``turn`` turns (a fresh :class:`Game` the caller may use)."""
        turn = self._turn(turn)
        start = max(t for t in self._checkpoints if t <= turn)
        game = copy.deepcopy(self._checkpoints[start])
        while game.turn < turn:
            self._advance(game)
        return game

    def events(self, turn: int) -> tuple[Event, ...]:
        """The events of turn ``turn`` (1 to ``last_turn``), all of them (the truth)."""
        turn = self._turn(turn)
        if turn == 0:
            raise ReplayError("turn 0 is the placement; it has no events (turns start at 1)")
        return self._reports[turn - 1].events

    def report(self, turn: int) -> TurnReport:
        """The engine's report of turn ``turn`` (1 to ``last_turn``)."""
        self.events(turn)
        return self._reports[turn - 1]

    def observation(self, player: int, turn: int) -> Observation:
        """What ``player`` saw after ``turn`` turns (R6): its pieces, visible enemies, the events
        it was told of during turn ``turn``."""
        game = self.state_at(turn)
        if (
            isinstance(player, bool)
            or not isinstance(player, (int, np.integer))
            or not (0 <= player < self.rules.players)
        ):
            raise ReplayError(
                f"there is no player {player!r} (players are 0..{self.rules.players - 1})"
            )
        return game.observe(int(player))

    def __iter__(self) -> Iterator[TurnReport]:
        return iter(self._reports)

    def __repr__(self) -> str:
        return (
            f"Replay({str(self.path)!r}, agents={list(self.agents)}, turns={self.last_turn}, "
            f"result={self.result})"
        )

    # -- verification ---------------------------------------------------------------------------

    def rebuild_agents(self) -> list[Agent] | None:
        """The agents from the header when all are built-in (else None): for :meth:`verify`."""
        agents, _ = self._rebuild()
        return agents

    def _rebuild(self) -> tuple[list[Agent] | None, tuple[str, ...]]:
        """The agents from the header, or None and, per seat that cannot be rebuilt, why."""
        from antipolix.agents import AGENTS, agent_from_spec

        agents, why = [], []
        for seat, spec in enumerate(self.agent_specs):
            name = str(spec.get("name"))
            try:
                agents.append(agent_from_spec(spec))
            except AntipolixError:
                if name in AGENTS:
                    why.append(
                        f"seat {seat}'s agent {name!r} has parameters or an army policy this "
                        f"antipolix ({__version__}) cannot rebuild"
                    )
                else:
                    why.append(
                        f"seat {seat}'s agent {name!r} is not a built-in agent (built-in: "
                        f"{', '.join(sorted(AGENTS))})"
                    )
        return (None, tuple(why)) if why else (agents, ())

    def verify(self) -> VerifyReport:
        """Check the file as far as it can be: the events were checked when it was loaded; when
        the agents are built-in, play them again from the seed and check every decision. The
        report says plainly what could not be checked (``complete`` is False then)."""
        from antipolix.play import play_game

        agents, why = self._rebuild()
        if agents is None:
            return VerifyReport(
                self.last_turn, len(self._reports), agents_rerun=False, unchecked=why
            )
        seen: list[dict[int, tuple[Order, float]]] = []

        def on_turn(game: Game, report: TurnReport, decisions: Mapping[int, Decision]) -> None:
            seen.append({s: (d.order, d.think_time) for s, d in decisions.items()})

        try:
            play_game(self.rules, agents, self.seed, armies=self.armies, on_turn=on_turn)
        except AntipolixError as exc:
            raise ReplayError(
                f"replay {self.path}: the agents cannot be played again: {exc}"
            ) from None
        if len(seen) != len(self.records):
            raise ReplayError(
                f"replay {self.path}: the agents played again give a game of {len(seen)} turns, "
                f"the file has {len(self.records)}"
            )
        for rec, again in zip(self.records, seen, strict=True):
            recorded = {s: (rec.orders[s], rec.think[s]) for s in rec.orders}
            if recorded != again:
                raise ReplayError(
                    f"replay {self.path}: at turn {rec.turn} the agents played again decide "
                    f"{again}, the file records {recorded}"
                )
        return VerifyReport(self.last_turn, len(self._reports), agents_rerun=True)


@dataclass(frozen=True)
class VerifyReport:
    """What :meth:`Replay.verify` checked. ``complete``: the events and every decision;
    otherwise ``unchecked`` says, per seat, why its agent's decisions could not be checked."""

    turns: int
    turns_checked: int
    agents_rerun: bool
    unchecked: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return self.agents_rerun

    def __str__(self) -> str:
        events = f"{self.turns_checked} of {self.turns} turns replay event by event"
        if self.agents_rerun:
            return f"OK: {events}; the agents were played again and made the same decisions"
        why = "; ".join(self.unchecked) or "the agents cannot be rebuilt"
        return (
            f"PARTLY VERIFIED: {events} (the engine agrees with every recorded event), but the "
            f"agents' decisions were NOT checked: {why}, so the recorded orders cannot be "
            "told from ones that agent would not have given"
        )


def _missing_options(given: Mapping[str, Any], full: Mapping[str, Any]) -> list[str]:
    """Options of ``full`` (every option, as the writer records them) that ``given`` lacks:
    ``["max_turns", "hovercraft.move"]``."""
    out = []
    for key, value in full.items():
        if key not in given:
            out.append(key)
        elif isinstance(value, Mapping) and isinstance(given[key], Mapping):
            out += [f"{key}.{k}" for k in value if k not in given[key]]
    return out


def _first_difference(want: list[dict[str, Any]], got: list[dict[str, Any]]) -> str:
    for i, (a, b) in enumerate(zip(want, got, strict=False)):
        if a != b:
            return f"event {i + 1}: recorded {a}, re-played {b}"
    return f"recorded {len(want)} events, re-played {len(got)}"


def _what(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"unknown or missing name {exc}"
    return str(exc) or type(exc).__name__


def load_replay(path: str | Path) -> Replay:
    """Load and check a replay file; raises :class:`ReplayError` with the reason if it is
    missing, not a replay, corrupt, truncated, edited, of a newer format, or not reproduced."""
    return Replay(path)
