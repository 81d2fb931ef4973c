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
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from antipolix.agents.base import Agent, Decision
from antipolix.checks import is_int, is_plain_int
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
from antipolix.envelope import FORMAT, MAX_REPLAY_BYTES, Record, read_records, write_records
from antipolix.envelope import line as _line
from antipolix.errors import AntipolixError, ReplayError
from antipolix.events import Event
from antipolix.game import Game, TurnReport
from antipolix.messages import Command, Message
from antipolix.observation import Observation
from antipolix.orders import Order
from antipolix.pieces import PieceType, Trait
from antipolix.rules import Rules
from antipolix.version import __version__
from antipolix.watch import PlayedGame

VERSION = 2  # 2: piece identifiers say nothing of placement order (R6)
CHECKPOINT_EVERY = 32  # turns between saved states, so state_at never re-plays more than this


def _events(report: TurnReport) -> list[dict[str, Any]]:
    return [e.to_dict() for e in report.events]


# -- writing ------------------------------------------------------------------------------------


def decisions_record(decisions: Mapping[int, Decision]) -> dict[str, Any]:
    """A turn's decisions as a replay's turn line holds them: each seat's order (R4), think
    time (R7) and, for the seats that sent any, messages (R9), keyed by the seat in text (the
    match server's journal holds them the same way)."""
    return {
        "orders": {str(s): order_to_dict(d.order) for s, d in decisions.items()},
        "think": {str(s): float(d.think_time) for s, d in decisions.items()},
        "messages": {
            str(s): [message_to_dict(m) for m in d.messages]
            for s, d in decisions.items()
            if d.messages
        },
    }


class ReplayWriter:
    """Writes one game's replay as it is played (a :class:`~antipolix.watch.Watcher`); the file
    appears (atomically) when it ends.

    Used by :func:`antipolix.play` (``replay=path``). The target folder is checked at once, so a
    bad path fails before the game is played.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        encode: Callable[[Mapping[str, Any]], bytes] = _line,
        level: int = 9,
    ) -> None:
        """``encode`` makes a record's line (compact JSON; the standard library's by default),
        ``level`` is the gzip level (9, the smallest file; the match server takes 1, the
        fastest, and orjson's lines: a served game's turns are its hot loop)."""
        self.path = Path(path)
        self._encode, self._level = encode, level
        folder = self.path.parent
        if self.path.is_dir():
            raise ReplayError(f"replay path {self.path} is a folder, not a file")
        if not folder.is_dir():
            raise ReplayError(f"cannot write replay {self.path}: folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise ReplayError(f"cannot write replay {self.path}: folder {folder} is not writable")
        self._lines: list[bytes] = []

    def start(self, played: PlayedGame, agents: Sequence[Agent], armies: Any) -> None:
        game = played.game
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
        self._lines = [self._encode(header), self._encode({"type": "placement", "pieces": pieces})]

    def turn(
        self,
        played: PlayedGame,
        report: TurnReport,
        decisions: Mapping[int, Decision],
        events: Sequence[dict[str, Any]] | None = None,
        decided: Mapping[str, Any] | None = None,
    ) -> None:
        """Record a turn. A caller that has made them already gives its events' plain forms
        (``events``, :meth:`~antipolix.events.Event.to_dict` in order) and ``decided``, the
        :func:`decisions_record` of ``decisions``."""
        self._lines.append(
            self._encode(
                {
                    "type": "turn",
                    "turn": report.turn,
                    **(decisions_record(decisions) if decided is None else decided),
                    "reception": list(report.reception),
                    "events": _events(report) if events is None else list(events),
                }
            )
        )

    def finish(self, played: PlayedGame) -> None:
        self._lines.append(self._encode({"type": "result", **_result_to_dict(played.result)}))
        # the end record, gzip: the same game, the same bytes
        write_records(self.path, self._lines, self._level)
        self._lines = []

    def abort(self) -> None:
        self._lines = []


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


def _read_records(path: Path) -> list[dict[str, Any]]:
    """The records of a replay file, read as a stream with bounded memory
    (:func:`antipolix.envelope.read_records`): each line is parsed and checked as it arrives
    (header first, placement, consecutive turns no more than the turn limit, result, end), the
    first bad one stops the reading, and the checksum is checked against the end record."""
    limit: list[int | None] = [None]  # the header's turn limit (R10): no file holds more turns

    def check(number: int, record: Record, before: Record | None) -> None:
        found = _check_order(path, number, record, before, limit[0])
        if number == 1:
            limit[0] = found

    return read_records(path, check, MAX_REPLAY_BYTES)


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
        game = record.get("game", "antipolix")
        if game != "antipolix":
            raise ReplayError(
                f"replay {path} is a replay of the game {game!r}, not of AntipoliX (open it with "
                "antipolix.games.replays.load, or antipolix replay)"
            )
        version = record.get("version")
        if not is_plain_int(version) or version < 1:
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


@dataclass(frozen=True)
class ReplayFile:
    """What a replay file holds, read and checked (the records in order, the checksum, the
    header's rules complete, one agent per seat), not yet re-simulated."""

    path: Path
    header: dict[str, Any]
    engine_version: str
    rules: Rules
    agent_specs: list[dict[str, Any]]
    armies: list[list[str] | None] | None
    seed: np.random.SeedSequence
    placement: list[dict[str, Any]]
    records: list[TurnRecord]
    result: GameResult

    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(str(a["name"]) for a in self.agent_specs)


def read_replay_file(path: str | Path) -> ReplayFile:
    """Read and check a replay file (as a stream with bounded memory); raises
    :class:`ReplayError` with the reason if it is missing, not a replay, corrupt, truncated,
    edited, of another format version, or malformed."""
    path = Path(path)
    records = _read_records(path)
    try:
        return _replay_file(path, records)
    except ReplayError:
        raise
    except Exception as exc:  # any shape of malformed data: a message, not a traceback
        raise ReplayError(f"replay {path} is malformed: {_what(exc)}") from None


def _replay_file(path: Path, records: list[dict[str, Any]]) -> ReplayFile:
    header = records[0]
    rules = _header_rules(path, header)
    specs, armies = _header_seats(path, header, rules.players)
    seed = header["seed"]
    if len(records) < 4:  # header, placement, result, end (read in order)
        raise ReplayError(f"replay {path} is malformed: records out of order")
    res = records[-2]
    return ReplayFile(
        path=path,
        header=header,
        engine_version=str(header["engine"]),
        rules=rules,
        agent_specs=specs,
        armies=armies,
        seed=np.random.SeedSequence(
            int(seed["entropy"]), spawn_key=tuple(int(k) for k in seed["spawn_key"])
        ),
        placement=list(records[1]["pieces"]),
        records=[_turn_record(r) for r in records[2:-2]],
        result=GameResult(
            winner=None if res["winner"] is None else int(res["winner"]),
            reason=EndReason[res["reason"]],
            turns=int(res["turns"]),
            elimination_order=tuple(int(p) for p in res["elimination_order"]),
        ),
    )


def _header_rules(path: Path, header: dict[str, Any]) -> Rules:
    """The header's rules: valid, and complete (a replay records every rule option)."""
    try:
        rules = rules_from_dict(header["rules"])
    except AntipolixError as exc:
        raise ReplayError(f"replay {path} holds invalid rules: {exc}") from None
    missing = _missing_options(header["rules"], rules_to_dict(rules))
    if missing:
        raise ReplayError(
            f"replay {path} is malformed: its rules lack {', '.join(missing)} (a "
            "replay records every rule option; defaults are never assumed)"
        )
    return rules


def _header_seats(
    path: Path, header: dict[str, Any], players: int
) -> tuple[list[dict[str, Any]], list[list[str] | None] | None]:
    """The header's agents (one named agent per seat) and given armies (None, or one per seat)."""
    specs = header["agents"]
    if not isinstance(specs, list) or len(specs) != players:
        count = len(specs) if isinstance(specs, list) else 0
        raise ReplayError(
            f"replay {path} is malformed: its header names {count} agents for {players} players"
        )
    for seat, spec in enumerate(specs):
        name = spec.get("name") if isinstance(spec, dict) else None
        if not isinstance(name, str) or not name.strip():
            raise ReplayError(f"replay {path} is malformed: seat {seat}'s agent has no name")
    armies = header.get("armies")
    if armies is not None and (not isinstance(armies, list) or len(armies) != players):
        raise ReplayError(f"replay {path} is malformed: its armies are not one per seat")
    return list(specs), armies


def _turn_record(r: dict[str, Any]) -> TurnRecord:
    return TurnRecord(
        turn=int(r["turn"]),
        orders={int(s): order_from_dict(o) for s, o in r["orders"].items()},
        think={int(s): float(t) for s, t in r["think"].items()},
        messages={
            int(s): [message_from_dict(m) for m in ms] for s, ms in r.get("messages", {}).items()
        },
        reception=tuple(int(s) for s in r["reception"]),
        events=list(r["events"]),
    )


class Replay:
    """A replay re-simulated with the engine, every event checked: the header, the placement,
    every turn, the result, and the true state at any turn.

    Turns are numbered as in the game: turn 0 is the position after placement, turn ``t`` the
    position after ``t`` turns were played; ``last_turn`` is the final one. Made by
    :func:`load_replay` (or from a :class:`ReplayFile`).
    """

    def __init__(self, file: ReplayFile) -> None:
        self.file = file
        self.path = file.path
        self.header = file.header
        self.engine_version = file.engine_version
        self.rules = file.rules
        self.agent_specs = file.agent_specs
        self.agents = file.agents
        self.armies = file.armies
        self.seed = file.seed
        self.placement = file.placement
        self.records = file.records
        self.result = file.result
        self._simulate()

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
            got, want = _events(report), _reasons_read_now(rec.events)
            if report.turn != rec.turn or report.reception != rec.reception or got != want:
                raise ReplayError(
                    f"replay {self.path}: turn {rec.turn} does not replay as recorded "
                    f"({_first_difference(want, got)}); the file was written by antipolix "
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
        if not is_int(turn):
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


_TUPLE_CELL = re.compile(r"\((\d+), (\d+), (\d+)\)")


def _reasons_read_now(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recorded events with the cells of their reasons written as today's engine writes them:
    a rejection's reason named a cell as the tuple ``(2, 5, 4)`` until the engine wrote every
    cell as people read it, ``z2 y5 x4`` (the same order, R1), and replays written before
    must still replay as recorded."""
    out = []
    for event in events:
        reason = event.get("reason") if isinstance(event, dict) else None
        if isinstance(reason, str) and event.get("kind") in ("Rejected", "Discarded"):
            event = {**event, "reason": _TUPLE_CELL.sub(r"z\1 y\2 x\3", reason)}
        out.append(event)
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
    return Replay(read_replay_file(path))
