"""Replay files of every game: one envelope (:mod:`antipolix.envelope`), one loader.

AntipoliX writes and reads its replays as it always has (:mod:`antipolix.replay`, format
version 2, unchanged). Every other game writes **format version 3**, which names the game and
the version of its rules; its lines, in order:

1. ``{"type": "header", "format": "antipolix-replay", "version": 3, "game": "sight",
   "game_version": 1, "engine": "0.2.0", "config": {...}, "agents": [{"game", "agent",
   "name", "params"}, ...], "seed": {"entropy": int, "spawn_key": [int, ...]}}``;
2. one line per turn, ``{"type": "turn", "turn": t, "actions": {seat: action}}``: the actions
   applied together (one seat's in a sequential game), in the game's own notation
   (``GAME.action_to_json``);
3. ``{"type": "result", "winner", "reason", "turns", "places", "elimination_order", "extras",
   "digest"}``;
4. the envelope's end record with the SHA-256 of the lines before it.

:func:`load` reads any replay: the header first, to know the game (absent: AntipoliX); a file
of a game or a game version this antipolix does not have is refused in one line. Loading a
version 3 replay plays every recorded action again (each must be legal where it was played)
and checks the result and the digest of the game; :func:`verify` also plays the agents again
from the seed when they are built-in, and compares every action.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from antipolix import games
from antipolix.checks import is_int, is_plain_int
from antipolix.envelope import FORMAT, Record, line, read_header, read_records, write_records
from antipolix.errors import AntipolixError, ReplayError
from antipolix.games import host
from antipolix.games.protocol import GameDef, Outcome, SeedLike, State, play_one, seed_sequence
from antipolix.version import __version__

VERSION = 3  # 3: a replay of another game than AntipoliX (AntipoliX's own format is 2)
CHECKPOINT_EVERY = 32  # turns between kept states, so state_at never re-plays more than this


def game_of(path: str | Path) -> tuple[str, GameDef]:
    """The game a replay file holds (its header's ``game``; absent: AntipoliX), read from the
    header alone; a game or a game version this antipolix does not have is refused."""
    path = Path(path)
    header = read_header(path)
    name = header.get("game", games.DEFAULT)
    if not isinstance(name, str):
        raise ReplayError(f"replay {path} is malformed: its game is {name!r}")
    try:
        game = games.game(name)
    except AntipolixError:
        raise ReplayError(
            f"replay {path} is a replay of the game {name!r}, which this antipolix "
            f"({__version__}) does not have (games: {', '.join(games.names())})"
        ) from None
    if name != games.DEFAULT:
        version = header.get("game_version")
        if version != game.info.version:
            raise ReplayError(
                f"replay {path} records {name} version {version!r}; this antipolix "
                f"({__version__}) plays {name} version {game.info.version}, whose games "
                "differ: play the game again to record it"
            )
    return str(game.info.name), game


def load(path: str | Path) -> Any:
    """Load and check a replay of any game: AntipoliX's :class:`~antipolix.replay.Replay`, or
    a :class:`GameReplay`; a :class:`ReplayError` says why a file is refused."""
    path = Path(path)
    _, game = game_of(path)
    hook = getattr(game, "load_replay", None)
    if hook is not None:
        return hook(path)
    return GameReplay(game, path)


# -- writing ------------------------------------------------------------------------------------


class Recorder:
    """Writes one game's replay as it is played (format 3); the file appears, atomically, when
    :meth:`finish` is called. The folder is checked at once, so a bad path fails before the
    game is played."""

    def __init__(
        self,
        game: GameDef,
        config: Any,
        agents: Sequence[Any],
        seed: np.random.SeedSequence,
        path: str | Path,
    ) -> None:
        self.game, self.path = game, Path(path)
        folder = self.path.parent
        if self.path.is_dir():
            raise ReplayError(f"replay path {self.path} is a folder, not a file")
        if not folder.is_dir():
            raise ReplayError(f"cannot write replay {self.path}: folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise ReplayError(f"cannot write replay {self.path}: folder {folder} is not writable")
        header = {
            "type": "header",
            "format": FORMAT,
            "version": VERSION,
            "game": game.info.name,
            "game_version": game.info.version,
            "engine": __version__,
            "config": game.config_to_dict(config),
            "agents": [host.agent_record(game, a) for a in agents],
            "seed": {
                "entropy": int(seed.entropy),  # type: ignore[arg-type]
                "spawn_key": [int(k) for k in seed.spawn_key],
            },
        }
        self._lines = [line(header)]

    def action(self, state: State, actions: Mapping[int, int]) -> None:
        """Record the actions about to be applied to ``state`` (``play_one``'s ``on_action``)."""
        codec = self.game.action_to_json
        config = state.config
        self._lines.append(
            line(
                {
                    "type": "turn",
                    "turn": len(self._lines),
                    "actions": {str(s): codec(config, a) for s, a in sorted(actions.items())},
                }
            )
        )

    def finish(self, state: State, outcome: Outcome) -> None:
        self._lines.append(line({"type": "result", **_outcome_record(outcome, state.digest())}))
        try:
            write_records(self.path, self._lines)
        except OSError as exc:
            raise ReplayError(f"cannot write replay {self.path}: {exc.strerror or exc}") from None
        self._lines = []


def _outcome_record(outcome: Outcome, digest: int) -> dict[str, Any]:
    return {
        "winner": outcome.winner,
        "reason": outcome.reason,
        "turns": outcome.turns,
        "places": [float(p) for p in outcome.places],
        "elimination_order": [int(s) for s in outcome.elimination_order],
        "extras": dict(outcome.extras),
        "digest": f"{digest:016x}",
    }


def play(
    game: GameDef,
    config: Any,
    agents: Sequence[Any],
    seed: SeedLike,
    replay: str | Path | None = None,
) -> Outcome:
    """One whole game (:func:`antipolix.games.host.play`), its replay written to ``replay``
    when given (AntipoliX's in its own format 2, another game's in format 3)."""
    if replay is None:
        return host.play(game, config, agents, seed)
    ss = seed_sequence(seed)
    hook = getattr(game, "play", None)
    if hook is not None:
        outcome: Outcome = hook(config, agents, ss, replay=Path(replay))
        return outcome
    recorder = Recorder(game, config, agents, ss, replay)
    state, outcome = play_one(game, config, agents, ss, on_action=recorder.action)
    recorder.finish(state, outcome)
    return outcome


# -- reading ------------------------------------------------------------------------------------


def _check(path: Path, game: GameDef) -> Any:
    """The record check of a format 3 replay of ``game`` (:func:`antipolix.envelope.read_records`):
    header, consecutive turns, the result, the end."""

    def check(number: int, record: Record, before: Record | None) -> None:
        kind = record.get("type")
        if number == 1:
            if kind != "header" or record.get("format") != FORMAT:
                raise ReplayError(f"{path} is not an antipolix replay (no replay header)")
            version = record.get("version")
            if not is_plain_int(version) or version != VERSION:
                raise ReplayError(
                    f"replay {path} has format version {version!r}; this antipolix "
                    f"({__version__}) reads {game.info.name} replays of version {VERSION}"
                )
            return
        assert before is not None
        previous = before.get("type")
        expected = ("turn", "result") if previous in ("header", "turn") else ("end",)
        if kind not in expected:
            raise ReplayError(
                f"replay {path} is malformed: records out of order (line {number} is a "
                f"{kind!r} record after a {previous!r} record)"
            )
        if kind == "turn" and record.get("turn") != number - 1:
            raise ReplayError(
                f"replay {path} was edited or damaged: line {number} holds turn "
                f"{record.get('turn')!r} where turn {number - 1} belongs"
            )

    return check


class GameReplay:
    """A format 3 replay, every action played again and checked: the header, the actions of
    every turn, the recorded result, and the true state at any turn (0: the start)."""

    def __init__(self, game: GameDef, path: str | Path) -> None:
        self.game = game
        self.path = Path(path)
        records = read_records(self.path, _check(self.path, game))
        if len(records) < 3:  # header, result, end (read in order)
            raise ReplayError(f"replay {self.path} is malformed: records out of order")
        try:
            self._read(records)
        except ReplayError:
            raise
        except Exception as exc:  # any shape of malformed data: a message, not a traceback
            what = f"unknown or missing name {exc}" if isinstance(exc, KeyError) else str(exc)
            raise ReplayError(f"replay {self.path} is malformed: {what}") from None
        self._simulate()

    def _read(self, records: list[Record]) -> None:
        header = records[0]
        self.header = header
        self.engine_version = str(header["engine"])
        try:
            self.config = self.game.config_from_dict(header["config"])
        except AntipolixError as exc:
            raise ReplayError(f"replay {self.path} holds an invalid configuration: {exc}") from None
        players = int(self.config.players)
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
        seed = header["seed"]
        self.seed = np.random.SeedSequence(
            int(seed["entropy"]), spawn_key=tuple(int(k) for k in seed["spawn_key"])
        )
        codec = self.game.action_from_json
        self.actions: list[dict[int, int]] = []
        for record in records[1:-2]:
            acts = record["actions"]
            if not isinstance(acts, dict):
                raise ReplayError(f"replay {self.path} is malformed: turn {record['turn']}")
            self.actions.append({int(s): codec(self.config, a) for s, a in acts.items()})
        res = records[-2]
        self.result = Outcome(
            winner=None if res["winner"] is None else int(res["winner"]),
            reason=str(res["reason"]),
            turns=int(res["turns"]),
            places=tuple(float(p) for p in res["places"]),
            elimination_order=tuple(int(s) for s in res["elimination_order"]),
            extras=dict(res["extras"]),
        )
        self.digest = str(res["digest"])

    @property
    def agents(self) -> tuple[str, ...]:
        return tuple(str(a["name"]) for a in self.agent_specs)

    @property
    def last_turn(self) -> int:
        return len(self.actions)

    @property
    def records(self) -> list[dict[int, int]]:
        """Each turn's actions, by seat."""
        return self.actions

    def _simulate(self) -> None:
        """Play every recorded action again; check each is legal, then the result and digest."""
        state = self.game.new(self.config, self.seed)
        self._checkpoints: dict[int, State] = {0: state.clone()}
        for turn, actions in enumerate(self.actions, start=1):
            try:
                if state.over:
                    raise ReplayError("the game was over")
                state.apply(actions)
            except AntipolixError as exc:
                raise ReplayError(
                    f"replay {self.path}: turn {turn} cannot be played again: {exc}; the file "
                    f"was written by antipolix {self.engine_version} and this is {__version__}"
                ) from None
            if turn % CHECKPOINT_EVERY == 0:
                self._checkpoints[turn] = state.clone()
        got = state.result()
        if got is None:
            raise ReplayError(
                f"replay {self.path} is truncated: the game is not over after its "
                f"{self.last_turn} turns"
            )
        recorded = _outcome_record(self.result, 0) | {"digest": self.digest}
        replayed = _outcome_record(got, state.digest())
        if recorded != replayed:
            differ = [k for k in replayed if recorded.get(k) != replayed[k]]
            raise ReplayError(
                f"replay {self.path}: the recorded result differs from the re-played one "
                f"({', '.join(differ)}); the file was written by antipolix "
                f"{self.engine_version} and this is {__version__}"
            )

    def _turn(self, turn: object) -> int:
        if not is_int(turn):
            raise ReplayError(f"a turn is an integer, got {turn!r}")
        if not 0 <= turn <= self.last_turn:
            raise ReplayError(
                f"turn {turn} is outside this replay (turns 0 to {self.last_turn}; 0 is the start)"
            )
        return int(turn)

    def state_at(self, turn: int) -> State:
        """The true state after ``turn`` turns (a fresh state the caller may use)."""
        turn = self._turn(turn)
        start = max(t for t in self._checkpoints if t <= turn)
        state = self._checkpoints[start].clone()
        for actions in self.actions[start:turn]:
            state.apply(actions)
        return state

    def texts(self, turn: int) -> list[tuple[int, str]]:
        """Turn ``turn``'s actions (1 to ``last_turn``) in words, by seat."""
        turn = self._turn(turn)
        if turn == 0:
            raise ReplayError("turn 0 is the start; it has no actions (turns start at 1)")
        before = self.state_at(turn - 1)
        return [(s, self.game.action_to_text(before, a)) for s, a in self.actions[turn - 1].items()]

    def __repr__(self) -> str:
        return (
            f"GameReplay({str(self.path)!r}, game={self.game.info.name!r}, "
            f"agents={list(self.agents)}, turns={self.last_turn})"
        )


# -- verifying ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameVerifyReport:
    """What :func:`verify` checked of a format 3 replay: every action (when it was loaded),
    and with ``agents_rerun`` every agent's decision; ``unchecked`` says per seat why not."""

    turns: int
    agents_rerun: bool
    unchecked: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return self.agents_rerun

    def __str__(self) -> str:
        actions = f"{self.turns} turns replay action by action to the recorded result"
        if self.agents_rerun:
            return f"OK: {actions}; the agents were played again and made the same decisions"
        why = "; ".join(self.unchecked) or "the agents cannot be rebuilt"
        return (
            f"PARTLY VERIFIED: {actions}, but the agents' decisions were NOT checked: {why}, "
            "so the recorded actions cannot be told from ones that agent would not have chosen"
        )


def verify(replay: Any) -> Any:
    """Check a replay as far as it can be (its actions or events were checked when it was
    loaded); play its agents again from the seed when they are built-in and compare every
    decision. The report (``complete``, and its text) says plainly what was not checked."""
    if not isinstance(replay, GameReplay):  # AntipoliX's own (antipolix.play.verify)
        return games.game(games.DEFAULT).verify_replay(replay)
    game = replay.game
    agents, why = [], []
    for seat, spec in enumerate(replay.agent_specs):
        try:
            agents.append(host.agent_from_record(game, spec))
        except AntipolixError:
            why.append(
                f"seat {seat}'s agent {spec.get('name')!r} is not a built-in agent of "
                f"{game.info.name} (built-in: {', '.join(sorted(game.agents))})"
            )
    if why:
        return GameVerifyReport(replay.last_turn, agents_rerun=False, unchecked=tuple(why))
    seen: list[dict[int, int]] = []
    try:
        play_one(game, replay.config, agents, replay.seed, on_action=lambda s, a: seen.append(a))
    except AntipolixError as exc:
        raise ReplayError(
            f"replay {replay.path}: the agents cannot be played again: {exc}"
        ) from None
    for turn, (recorded, again) in enumerate(zip(replay.actions, seen, strict=False), start=1):
        if recorded != again:
            raise ReplayError(
                f"replay {replay.path}: at turn {turn} the agents played again choose {again}, "
                f"the file records {recorded}"
            )
    if len(seen) != len(replay.actions):
        raise ReplayError(
            f"replay {replay.path}: the agents played again give a game of {len(seen)} turns, "
            f"the file has {len(replay.actions)}"
        )
    return GameVerifyReport(replay.last_turn, agents_rerun=True)


def summary_lines(replay: GameReplay, log: bool = False) -> list[str]:
    """A format 3 replay in words: what was played, with ``log`` every turn's actions, and the
    result."""
    game, config = replay.game, replay.config
    options = host.overrides(game, config)
    lines = [
        f"{replay.path}: {game.info.title} replay written by antipolix {replay.engine_version}; "
        f"{config.players} players ({', '.join(replay.agents)}), "
        f"rules {' '.join(options) or 'the defaults'}, seed {replay.seed.entropy}"
    ]
    if log:
        for turn in range(1, replay.last_turn + 1):
            for seat, text in replay.texts(turn):
                lines.append(f"turn {turn:4d}: seat {seat} ({replay.agents[seat]}): {text}")
    return lines + result_lines(replay.result, replay.agents)


def result_lines(outcome: Outcome, agents: Sequence[str]) -> list[str]:
    """An outcome in words: who won and why, after how many turns, and every seat's place."""
    if outcome.winner is None:
        head = f"result: a draw ({outcome.reason}) after {outcome.turns} turns"
    else:
        head = (
            f"result: seat {outcome.winner} ({agents[outcome.winner]}) wins "
            f"({outcome.reason}) after {outcome.turns} turns"
        )
    places = ", ".join(f"seat {s} ({agents[s]}) {p + 1:g}" for s, p in enumerate(outcome.places))
    return [head, f"places: {places}"]
