"""One served game: its seats, its armies, its turns in real time, its journal and its replay.

A :class:`Match` drives an :class:`antipolix.Game` (the engine everything else uses) from what
its clients send, on the server's event loop:

- **Armies (R3).** Each client seat sends its army (names like ``"army+chief"``, and cells of
  its home zone or none for random cells); built-in agents choose theirs from the seat's seed.
  When every army is in, they are placed in seat order and play begins.
- **Turns (R4, R7).** Every living seat gets its observation (exactly ``Game.observe``, R6),
  and the turn's clock starts. Orders are taken in the order they arrive: a seat's think time is
  the seconds from its observation to its order, measured by the server's clock (R7
  ``think_times="agent"``), so reception order is arrival order. The zero-sum timers run from
  the first order; when a waiting player's timer may reach 0 (:mod:`antipolix.server.clock`),
  the match plays the turn so far on a copy of the game and takes the engine's word: a player
  out at that instant is told so at once, with everyone, and its order is no longer awaited.
  When every living player has answered (or is out), the engine resolves the turn.
- **Messages (R9).** Texts and QUIT / NUL / WAR travel with an order; sent on their own, they
  wait for the sender's next order, except QUIT, which is an answer by itself (the player is
  out at that instant).
- **Everything is kept.** Each step is written to the game's journal
  (:mod:`antipolix.server.journal`) as it happens, the finished game as a replay file
  (:mod:`antipolix.replay`, verifiable by ``antipolix replay verify``), and the players' scores
  into the players file when the host named one (R11).

What a client may know: a seat gets only its own observation (R6), the public clocks (every
player's timer, and who has answered) and the eliminations everyone is told of. Spectators get,
as the host chose, the *public* view (what every player sees of the board: the visible pieces,
no traits, and the events everyone is told of; what an eliminated player sees) or nothing until
the end; everyone gets the truth when the game is over.
"""

from __future__ import annotations

import asyncio
import copy
import datetime
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from antipolix.agents import Agent
from antipolix.agents.army import GivenArmy
from antipolix.agents.base import Decision
from antipolix.codec import (
    item_name,
    message_from_dict,
    message_to_dict,
    observation_to_dict,
    order_from_dict,
    order_to_dict,
    parse_item,
    rules_from_dict,
    rules_to_dict,
)
from antipolix.end import EndReason, GameResult
from antipolix.errors import AntipolixError
from antipolix.events import Eliminated, Event, Received, TimerChanged
from antipolix.game import Game, Phase, TurnReport
from antipolix.log import Namer, describe, piece_namers
from antipolix.messages import Command, Message
from antipolix.orders import Order, Pass
from antipolix.pieces import ArmyItem
from antipolix.replay import ReplayWriter, decisions_record
from antipolix.rules import Rules
from antipolix.scores import PlayersFile
from antipolix.server.agents import AgentHost
from antipolix.server.clock import Clocks
from antipolix.server.journal import SUFFIX, GameJournal, JournalError, read_journal
from antipolix.server.protocol import (
    MAX_MESSAGES,
    Frame,
    JsonText,
    ProtocolError,
    encode,
    encode_line,
    error_frame,
)
from antipolix.server.seats import SeatSpec
from antipolix.server.tokens import find
from antipolix.version import __version__
from antipolix.watch import PlayedGame
from antipolix.world import as_cell

Watch = Literal["public", "end"]
WATCH_MODES: tuple[Watch, ...] = ("public", "end")
CLOCK_DELAY = 0.05  # seconds: the clocks frame after an order waits this long for the next one
MARGIN = 1e-3  # seconds: an order arriving this close to a predicted expiry checks it first
# gzip level of the replays the server writes: 1, the fastest (9, the level of every other
# replay writer, costs about nine times the CPU for files a quarter smaller)
REPLAY_LEVEL = 1


class Peer(Protocol):
    """A client connection as a match sees it: frames go out as text, without waiting."""

    def send(self, text: str) -> None: ...

    def close(self, reason: str) -> None: ...


@dataclass(frozen=True)
class MatchSpec:
    """A served game as the host created it (what the journal's first line holds)."""

    id: str
    rules: Rules
    seats: tuple[SeatSpec, ...]
    seed: int
    watch: Watch = "public"
    agent_min_think: float = 0.0
    seat_digests: tuple[str, ...] = ()
    watch_digest: str = ""
    created: str = ""

    def header(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "engine": __version__,
            "rules": rules_to_dict(self.rules),
            "seed": self.seed,
            "seats": [s.to_dict() for s in self.seats],
            "watch": self.watch,
            "agent_min_think": self.agent_min_think,
            "tokens": {"seats": list(self.seat_digests), "watch": self.watch_digest},
            "created": self.created,
        }

    @classmethod
    def from_header(cls, header: Mapping[str, Any], source: str) -> MatchSpec:
        try:
            tokens = header["tokens"]
            return cls(
                id=str(header["id"]),
                rules=rules_from_dict(header["rules"]),
                seats=tuple(SeatSpec.from_dict(s) for s in header["seats"]),
                seed=int(header["seed"]),
                watch=header["watch"] if header["watch"] in WATCH_MODES else "public",
                agent_min_think=float(header["agent_min_think"]),
                seat_digests=tuple(str(d) for d in tokens["seats"]),
                watch_digest=str(tokens["watch"]),
                created=str(header.get("created", "")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise JournalError(
                f"journal {source}: its header is not a served game's ({exc})"
            ) from None


@dataclass
class Submission:
    """A seat's answer to a turn: its order, its think time (R7) and its messages (R9)."""

    order: Order
    at: float
    messages: tuple[Message | Command, ...] = ()


class _Seated(Agent):
    """What a replay's header records of a served seat (not a built-in agent, so that
    ``antipolix replay verify`` checks every event but says it cannot play the seat again)."""

    name = "served"

    def __init__(self, spec: dict[str, Any], army: Sequence[ArmyItem]) -> None:
        super().__init__(GivenArmy(army))
        self._spec = spec

    def spec(self) -> dict[str, Any]:
        return {**self._spec, "army": self.army_policy.spec()}


def seat_record(seat: SeatSpec, min_think: float) -> dict[str, Any]:
    """A seat's agent entry in a replay's header: ``human:ada``, ``bot:rusty``,
    ``greedy (live)``."""
    if seat.kind == "agent":
        params = {"player": seat.name, "agent": seat.agent, "think": "measured"}
        return {"name": f"{seat.agent} (live)", "params": {**params, "min_think": min_think}}
    return {
        "name": f"{seat.kind}:{seat.name}",
        "params": {"player": seat.name, "think": "measured"},
    }


def pieces_data(pieces: Sequence[Any], traits: bool) -> list[dict[str, Any]]:
    return [
        {
            "id": p.id,
            "owner": p.owner,
            "type": p.type.name.lower(),
            "trait": p.trait.name.lower() if traits else None,
            "cell": list(p.cell),
        }
        for p in pieces
    ]


def result_data(result: GameResult) -> dict[str, Any]:
    return {
        "winner": result.winner,
        "reason": result.reason.name,
        "why": result.reason.value,
        "turns": result.turns,
        "elimination_order": list(result.elimination_order),
    }


class Match:
    """One served game (see the module docstring). Made by :meth:`create` or :meth:`restore`;
    every method runs on the server's event loop."""

    def __init__(
        self,
        spec: MatchSpec,
        *,
        agents: AgentHost,
        data: Path,
        players_file: Path | None = None,
        on_end: Callable[[Match], None] | None = None,
    ) -> None:
        self.spec = spec
        self.id = spec.id
        self.rules = spec.rules
        self.agents = agents
        self.data = data
        self.players_file = players_file
        self.on_end = on_end
        self.loop = asyncio.get_running_loop()
        data.mkdir(parents=True, exist_ok=True)
        self.game = Game(spec.rules, spec.seed)
        self.players = spec.rules.players
        self.peers: list[Peer | None] = [None] * self.players
        self.watchers: set[Peer] = set()
        self.armies: dict[int, tuple[list[ArmyItem], list[tuple[int, int, int]] | None]] = {}
        self.journal: GameJournal | None = None
        self.writer = ReplayWriter(self.replay_path, encode=encode_line, level=REPLAY_LEVEL)
        self.played: PlayedGame | None = None
        self.scores: dict[str, int] | None = None
        self.paused = False
        self.closed = False
        # the turn being played
        self.turn = 0  # its number (game.turn + 1), 0 before play
        self.start = 0.0  # when its observations went out (:func:`time.monotonic`)
        self.pending: dict[int, Submission] = {}
        self.out: dict[int, float] = {}  # seats out during the turn, with the instant looked at
        self.waiting: set[int] = set()
        self.clocks = Clocks({})
        self._check: asyncio.TimerHandle | None = None
        self._clock_frame: asyncio.TimerHandle | None = None
        self.queued: dict[int, list[Message | Command]] = {s: [] for s in range(self.players)}
        self.last: dict[int, str] = {}  # the last observation of each seat out of the game
        self._view_text, self._view_turn = "", 0  # the turn's public view frame, once made
        self._plain: dict[int, tuple[Event, dict[str, Any]]] = {}  # the last turn's events' forms
        self._ending: asyncio.Future[None] | None = None  # the replay being written at the end
        self.result_frame = ""
        # what every welcome frame holds of the rules, made once (read only)
        self._rules_data = rules_to_dict(spec.rules)
        self._costs = {item_name(i): spec.rules.piece_cost(*i) for i in _ITEMS}
        # the piece namers of the game as it stands (a game and its turn: _namers)
        self._namers_made: tuple[Game, int, Callable[[int | None], Namer]] | None = None
        # the pieces each seat sees (and all see) as JSON text, with the game and turn of them
        self._pieces_made: tuple[Game, int, dict[int | None, bytes]] | None = None

    # -- paths -------------------------------------------------------------------------------

    @property
    def journal_path(self) -> Path:
        return self.data / f"{self.id}{SUFFIX}"

    @property
    def replay_path(self) -> Path:
        return self.data / f"{self.id}.apx.json.gz"

    # -- making a match ----------------------------------------------------------------------

    @classmethod
    async def create(cls, spec: MatchSpec, **kwargs: Any) -> Match:
        """A new match: its journal started, its built-in agents seated and their armies chosen."""
        match = cls(spec, **kwargs)
        match.journal = GameJournal.create(match.journal_path, spec.header())
        await match._seat_agents()
        match._maybe_start()
        return match

    async def _seat_agents(self) -> None:
        for seat, s in enumerate(self.spec.seats):
            if s.kind == "agent":
                assert s.agent is not None
                army = await self.agents.setup(
                    (self.id, seat), s.agent, self.rules, seat, self.game.agent_seed(seat)
                )
                self.armies[seat] = (army, None)

    @classmethod
    async def restore(cls, path: Path, **kwargs: Any) -> Match | None:
        """The match of the journal at ``path``, as it stood (None for a finished game): the
        armies placed, every turn played again (its reception order and the digest of its
        events checked), the built-in agents played again over their observations; the
        interrupted turn starts again when a client seat connects (its orders given before the
        restart are asked again)."""
        header, records, good = read_journal(path)
        if any(r.get("type") == "over" for r in records):
            return None
        spec = MatchSpec.from_header(header, str(path))
        match = cls(spec, data=path.parent, **kwargs)
        await match._seat_agents()
        match._maybe_start()  # (every seat a built-in agent: nothing in the journal before play)
        try:
            seen = match._replay_journal(records)
        except (KeyError, TypeError, ValueError) as exc:
            raise JournalError(f"journal {path} is malformed: {exc}") from None
        for seat, observations in seen.items():
            decisions = await match.agents.restore((match.id, seat), observations)
            match._compare_agent(seat, decisions, records)
        match.journal = GameJournal.reopen(path, good)
        if match.game.phase is Phase.PLAY:
            living = match.game.living
            match.paused = any(match.spec.seats[s].remote for s in living)
            if not match.paused:
                match._begin_turn()
        elif match.game.phase is Phase.OVER:
            match._end()
        return match

    def _replay_journal(self, records: Sequence[dict[str, Any]]) -> dict[int, list[Any]]:
        """Play the journal's armies and turns again; returns each agent seat's observations
        (the ones it decided on, in order)."""
        seen: dict[int, list[Any]] = {
            s: [] for s, x in enumerate(self.spec.seats) if x.kind == "agent"
        }
        for record in records:
            if record["type"] == "army":
                cells = record["cells"]
                self._take_army(
                    int(record["seat"]),
                    [parse_item(i) for i in record["items"]],
                    None if cells is None else [tuple(c) for c in cells],
                    write=False,
                )
            elif record["type"] == "turn":
                game = self.game
                if game.phase is not Phase.PLAY or record["turn"] != game.turn + 1:
                    raise JournalError(
                        f"journal {self.journal_path}: turn {record['turn']} out of place"
                    )
                for seat in seen:
                    if seat in game.living:
                        seen[seat].append(game.observe(seat))
                orders = {int(s): order_from_dict(o) for s, o in record["orders"].items()}
                think = {int(s): float(t) for s, t in record["think"].items()}
                messages = {
                    int(s): [message_from_dict(m) for m in ms]
                    for s, ms in record.get("messages", {}).items()
                }
                report = game.play_turn(orders, think_times=think, messages=messages)
                if (
                    report.reception != tuple(record["reception"])
                    or game.digest != record["digest"]
                ):
                    raise JournalError(
                        f"journal {self.journal_path}: turn {record['turn']} does not play again "
                        f"as recorded (this is antipolix {__version__})"
                    )
                decisions = {
                    s: Decision(orders[s], think[s], tuple(messages.get(s, ()))) for s in orders
                }
                self.writer.turn(self._played(), report, decisions)
        return seen

    def _compare_agent(
        self, seat: int, decisions: Sequence[Decision], records: Sequence[dict[str, Any]]
    ) -> None:
        """Warn if a built-in agent played again decides otherwise than the journal says."""
        turns = [r for r in records if r["type"] == "turn" and str(seat) in r["orders"]]
        for decision, record in zip(decisions, turns, strict=False):
            if seat in record.get("out", []):
                continue
            if order_to_dict(decision.order) != record["orders"][str(seat)]:
                print(
                    f"antipolix: warning: game {self.id}: the agent of seat {seat} decides "
                    f"otherwise at turn {record['turn']} than before the restart",
                    file=sys.stderr,
                )
                return

    # -- seats and spectators ----------------------------------------------------------------

    def who(self, token: str) -> int | None:
        """The seat whose token this is, -1 for the spectators' token, None for none
        (every digest compared in constant time)."""
        found = find(token, [*self.spec.seat_digests, self.spec.watch_digest])
        if found < 0:
            return None
        return -1 if found == self.players else found

    def join(self, seat: int, peer: Peer) -> dict[str, Any]:
        """``peer`` takes ``seat`` (-1: a spectator); a seat's earlier connection is closed.
        Returns the welcome frame; the state follows it (:meth:`catch_up`)."""
        if seat >= 0:
            old = self.peers[seat]
            self.peers[seat] = peer
            if old is not None and old is not peer:
                old.close("another connection took this seat (the same token)")
        else:
            self.watchers.add(peer)
        return self.welcome(seat)

    def catch_up(self, seat: int, peer: Peer) -> None:
        """Send a (re)joining client what it needs to go on: the turn's observation, its
        answer if given, the public view if it may see it, the clocks, or the result."""
        if self.paused and seat >= 0 and self.spec.seats[seat].remote:
            self.paused = False  # a restored game goes on when a client seat is back
            self._begin_turn()  # (sends every seat its observation)
            return
        if seat >= 0 and self.game.phase is Phase.PLAY and seat in self.game.living and self.turn:
            # the turn's observation: the board has not changed since the turn began
            peer.send(encode(self._observation(seat, self.turn, self._clocks())))
            if seat in self.pending:
                peer.send(encode(self._received(seat)))
        elif seat >= 0 and seat in self.last:
            peer.send(self.last[seat])
        public = self.spec.watch == "public" if seat < 0 else self._out_of_game(seat)
        if public and self.turn and self.game.phase is not Phase.PLACEMENT:
            peer.send(self._view_frame())
        watching = seat >= 0 or self.spec.watch == "public"
        if watching and self.turn and self.game.phase is Phase.PLAY and not self.paused:
            clocks = {"type": "clock", "game": self.id, "turn": self.turn, "clocks": self._clocks()}
            peer.send(encode(clocks))
        if self.result_frame:
            peer.send(self.result_frame)

    def _out_of_game(self, seat: int) -> bool:
        return self.game.phase is not Phase.PLACEMENT and seat not in self.game.living

    def leave(self, peer: Peer) -> None:
        self.watchers.discard(peer)
        for seat, p in enumerate(self.peers):
            if p is peer:
                self.peers[seat] = None

    def welcome(self, seat: int) -> dict[str, Any]:
        rules = self.rules
        zone = self.game.zone(seat) if seat >= 0 else None
        out: dict[str, Any] = {
            "type": "welcome",
            "game": self.id,
            "role": "player" if seat >= 0 else "spectator",
            "seat": seat if seat >= 0 else None,
            "players": self.players,
            "seats": [
                {"seat": i, "kind": s.kind, "name": s.name, "agent": s.agent}
                for i, s in enumerate(self.spec.seats)
            ],
            "rules": self._rules_data,
            "budget": rules.army_budget,
            "costs": self._costs,
            "zone": None if zone is None else {"lo": list(zone.lo), "hi": list(zone.hi)},
            "room": rules.room if seat >= 0 else None,
            "phase": self.phase,
            "watch": self.spec.watch,
            "turn": self.turn or None,
        }
        if seat >= 0:
            given = self.armies.get(seat)
            out["army"] = None if given is None else [item_name(i) for i in given[0]]
        return out

    @property
    def phase(self) -> str:
        if self.game.phase is Phase.PLACEMENT:
            return "armies"
        if self.game.phase is Phase.OVER:
            return "over"
        return "paused" if self.paused else "play"

    # -- what clients send ---------------------------------------------------------------------

    def handle(self, seat: int, frame: Frame) -> dict[str, Any] | None:
        """Act on a checked frame from ``seat`` (-1: a spectator); returns the direct reply, if
        any. Raises :class:`ProtocolError` (nothing changed) for what may not be done now."""
        if frame.type == "ping":
            return {"type": "pong"}
        if seat < 0:
            raise ProtocolError("spectator", "a spectator's link watches the game; it cannot play")
        if frame.type == "army":
            return self._army(seat, frame)
        if frame.type == "order":
            return self._order(seat, frame)
        if frame.type in ("message", "command"):
            return self._message(seat, frame)
        raise ProtocolError("phase", f"a {frame.type} frame comes first, once")

    def awaits(self, seat: int, frame: Frame) -> bool:
        """Is ``frame`` this seat's order for the turn being played, which it has not given yet?
        (Such an order is never dropped by the rate limit: a game of bots answering at once
        plays hundreds of turns a second.)"""
        return (
            frame.type == "order"
            and frame.turn == self.turn
            and seat in self.waiting
            and not self.paused
            and self.game.phase is Phase.PLAY
        )

    def _army(self, seat: int, frame: Frame) -> dict[str, Any]:
        if self.game.phase is not Phase.PLACEMENT:
            raise ProtocolError("phase", "the armies are placed: the game has begun")
        if seat in self.armies:
            raise ProtocolError("already", "this seat's army is given already (R3: once)")
        items = list(frame.items)
        try:
            self.rules.check_army(seat, items)
        except AntipolixError as exc:
            raise ProtocolError("army", str(exc)) from None
        cells = None if frame.cells is None else [self._army_cell(seat, c) for c in frame.cells]
        if cells is not None and len(set(cells)) != len(cells):
            raise ProtocolError(
                "army", "two pieces are given the same cell (R1: one piece per cell)"
            )
        self._take_army(seat, items, cells)
        return {
            "type": "army_ok",
            "game": self.id,
            "seat": seat,
            "items": [item_name(i) for i in items],
            "cells": None if cells is None else [list(c) for c in cells],
            "waiting_for": [s for s in range(self.players) if s not in self.armies],
        }

    def _army_cell(self, seat: int, cell: tuple[int, int, int]) -> tuple[int, int, int]:
        zone = self.game.zone(seat)
        if zone is None:
            raise ProtocolError(
                "army", "with zones off, pieces go to random free cells: give no cells (R3)"
            )
        try:
            target = as_cell(self.rules.shape, cell, "an army's cell")
        except AntipolixError as exc:
            raise ProtocolError("army", str(exc)) from None
        if target not in zone:
            raise ProtocolError(
                "army",
                f"cell {list(target)} is outside this seat's home zone {list(zone.lo)} to "
                f"{[h - 1 for h in zone.hi]} (R3)",
            )
        return target

    def _take_army(
        self,
        seat: int,
        items: list[ArmyItem],
        cells: list[tuple[int, int, int]] | None,
        write: bool = True,
    ) -> None:
        self.armies[seat] = (items, cells)
        if not write:  # (a journal played again)
            self._maybe_start()
            return
        if self.journal is not None:
            self.journal.write(
                {
                    "type": "army",
                    "seat": seat,
                    "items": [item_name(i) for i in items],
                    "cells": None if cells is None else [list(c) for c in cells],
                }
            )
        self.loop.call_soon(self._maybe_start)  # after the reply to this army

    def _maybe_start(self) -> None:
        """R3: once every army is in, place them in seat order and begin play."""
        if self.closed or len(self.armies) < self.players or self.game.phase is not Phase.PLACEMENT:
            return
        for seat in range(self.players):
            items, cells = self.armies[seat]
            self.game.place_army(seat, items, cells)
        self.game.start()
        agents = [
            _Seated(seat_record(s, self.spec.agent_min_think), self.armies[i][0])
            for i, s in enumerate(self.spec.seats)
        ]
        armies = [[item_name(i) for i in self.armies[s][0]] for s in range(self.players)]
        self.writer.start(self._played(), agents, armies)
        if self.journal is not None:  # a live game, not one played again from its journal
            self._begin_turn()

    def _played(self) -> PlayedGame:
        if self.played is None:
            names = tuple(s.name for s in self.spec.seats)
            placed = self.game.placement()
            armies = tuple(tuple(p for p in placed if p.owner == s) for s in range(self.players))
            self.played = PlayedGame(self.game, names, armies)
        self.played.game = self.game
        return self.played

    def _order(self, seat: int, frame: Frame) -> dict[str, Any] | None:
        self._playing(seat)
        assert frame.order is not None and frame.turn is not None
        if frame.turn != self.turn:
            raise ProtocolError(
                "out-of-turn",
                f"this order is for turn {frame.turn}, but turn {self.turn} is played",
            )
        if seat in self.pending:
            raise ProtocolError("already", f"this seat's order for turn {self.turn} is in already")
        messages = (*self.queued[seat], *frame.messages)
        if len(messages) > MAX_MESSAGES:
            raise ProtocolError(
                "too-many", f"at most {MAX_MESSAGES} messages go with one order (R9)"
            )
        try:  # (the order as the engine takes it: not checked again this turn)
            order = self.game.check_submission(seat, frame.order, 0.0, list(messages))
        except AntipolixError as exc:
            raise ProtocolError("order", str(exc)) from None
        self.queued[seat] = []
        self._arrive(seat, order, tuple(messages), frame.ref)
        return None  # the "received" frame went out with the order's arrival

    def _playing(self, seat: int) -> None:
        phase = self.game.phase
        if phase is Phase.PLACEMENT:
            raise ProtocolError("phase", "the game has not begun: every army must be in first (R3)")
        if phase is Phase.OVER:
            raise ProtocolError("over", "the game is over")
        if self.paused:
            raise ProtocolError("paused", "the game is starting again after a restart: wait")
        if seat not in self.waiting and seat not in self.pending:
            raise ProtocolError("out", "this seat is out of the game (R7, R8, R9)")

    def _message(self, seat: int, frame: Frame) -> dict[str, Any]:
        self._playing(seat)
        queued = self.queued[seat]
        if len(queued) + len(frame.messages) > MAX_MESSAGES:
            raise ProtocolError(
                "too-many", f"at most {MAX_MESSAGES} messages go with one order (R9)"
            )
        try:
            self.game.check_submission(seat, Pass(), 0.0, [*queued, *frame.messages])
        except AntipolixError as exc:
            raise ProtocolError("message", str(exc)) from None
        if Command.QUIT in frame.messages and seat in self.waiting:
            self.queued[seat] = []
            self._arrive(seat, Pass(), (*queued, *frame.messages))
            return {"type": "queued", "game": self.id, "turn": self.turn, "sent": True}
        queued.extend(frame.messages)
        after = self.turn + 1 if seat in self.pending else self.turn
        return {
            "type": "queued",
            "game": self.id,
            "turn": after,
            "sent": False,
            "count": len(queued),
        }

    # -- a turn in real time -----------------------------------------------------------------------

    def _now(self) -> float:
        """Seconds since the turn's observations went out. Measured with ``time.monotonic``
        (nanoseconds on Linux), not the event loop's time: uvloop's has millisecond steps,
        which would make think times equal that arrived apart (R4's reception order, R7) and
        let a timer seem to fire before its time; the loop's timers are set from it with
        ``call_later``, and what one wakes checks the clock again (it may wake up to a
        millisecond early)."""
        return time.monotonic() - self.start

    def _begin_turn(self) -> None:
        game = self.game
        self.turn = game.turn + 1
        self.pending, self.out = {}, {}
        self.waiting = set(game.living)
        self.clocks = Clocks(game.timers)
        self._cancel()
        self.start = time.monotonic()
        clocks = self._clocks()
        living = game.living
        for seat in living:  # (a seat that connects later gets it then: catch_up)
            peer = self.peers[seat]
            if peer is not None:
                peer.send(encode(self._observation(seat, self.turn, clocks)))
        self._send_view()
        for seat in living:
            if self.spec.seats[seat].kind == "agent":
                self._ask_agent(seat)

    def _observation(
        self, seat: int, turn: int | None, clocks: dict[str, Any] | None
    ) -> dict[str, Any]:
        told = self.game.told(seat)
        name = self._namers(seat)
        words = [
            describe(e, name) for e in told.events if not isinstance(e, Received | TimerChanged)
        ]
        frame: dict[str, Any] = {
            "type": "observation",
            "game": self.id,
            "seat": seat,
            "turn": turn,
            "observation": observation_to_dict(told, self._event_dict, self._pieces(seat)),
            "told": words,
        }
        if clocks is not None:
            frame["clocks"] = clocks
        return frame

    def _pieces(self, seat: int | None) -> JsonText:
        """The pieces ``seat`` sees (None: what every seat sees) as JSON text, made once a turn
        (:meth:`Game.pieces_json`; the living seats' in one call, at the first that is asked
        for), anew while the armies are placed (the board changes within turn 0)."""
        game = self.game
        made = self._pieces_made
        if made is None or made[0] is not game or made[1] != game.turn:
            readers: list[int | None] = list(game.living)
            if self._viewers():
                readers.append(None)
            made = (game, game.turn, dict(zip(readers, game.pieces_json(readers), strict=True)))
            if game.phase is not Phase.PLACEMENT:
                self._pieces_made = made
        texts = made[2]
        text = texts.get(seat)
        if text is None:
            text = texts[seat] = game.pieces_json([seat])[0]
        return JsonText(text)

    def _namers(self, seat: int) -> Namer:
        """The seat's piece namer for the game as it stands: the pieces are looked up once a
        turn for every seat (:func:`antipolix.log.piece_namers`)."""
        game = self.game
        made = self._namers_made
        if made is None or made[0] is not game or made[1] != game.turn:
            made = self._namers_made = (game, game.turn, piece_namers(game))
        return made[2](seat)

    def _clocks(self) -> dict[str, Any]:
        at = max(0.0, self._now()) if self.turn else 0.0
        timers = self.clocks.peek(at) if self.rules.timers else {}
        return {
            "at": at,
            "running": self.clocks.running(),
            "submitted": sorted(self.pending),
            "out": sorted(self.out),
            "timers": {str(p): t for p, t in sorted(timers.items())},
        }

    def _ask_agent(self, seat: int) -> None:
        turn = self.turn
        future = asyncio.ensure_future(self.agents.act((self.id, seat), self.game.observe(seat)))
        future.add_done_callback(lambda f: self._agent_decided(seat, turn, f))

    def _agent_decided(self, seat: int, turn: int, future: asyncio.Future[Decision]) -> None:
        if self.closed or turn != self.turn or seat not in self.waiting:
            if not future.cancelled():
                future.exception()  # (retrieved: nothing to report)
            return
        try:
            decision = future.result()
            order = self.game.check_submission(seat, decision.order, 0.0, list(decision.messages))
            decision = Decision(order, decision.think_time, decision.messages)
        except Exception as exc:  # a built-in agent that fails passes, and the host is told
            print(
                f"antipolix: warning: game {self.id}: seat {seat}'s agent: {exc}; it passes",
                file=sys.stderr,
            )
            decision = Decision(Pass())
        self._agent_arrives(seat, turn, decision)

    def _agent_arrives(self, seat: int, turn: int, decision: Decision) -> None:
        """The agent's decision arrives now, or once the turn is ``agent_min_think`` old (it
        waits again if the loop woke it early)."""
        if not self.closed and turn == self.turn and seat in self.waiting:
            wait = self.spec.agent_min_think - self._now()
            if wait > 0:
                self.loop.call_later(wait, self._agent_arrives, seat, turn, decision)
                return
            self._arrive(seat, decision.order, tuple(decision.messages))

    def _arrive(
        self,
        seat: int,
        order: Order,
        messages: tuple[Message | Command, ...],
        ref: str | int | None = None,
    ) -> None:
        at = self._now()
        self._settle(at)
        if seat not in self.waiting:
            peer = self.peers[seat]
            if peer is not None:
                why = "this seat is out of the game: its timer ran out, or it was eliminated"
                peer.send(encode(error_frame("out", why + " this turn", ref)))
            return
        self.waiting.discard(seat)
        self.pending[seat] = Submission(order, at, messages)
        self.clocks.arrive(seat, at, leaves=Command.QUIT in messages)
        peer = self.peers[seat]
        if peer is not None:
            received = self._received(seat)
            if ref is not None:
                received["ref"] = ref
            peer.send(encode(received))
        if not self.waiting:
            self._resolve()
        else:
            self._schedule_clock_frame()
            self._schedule_check()

    def _received(self, seat: int) -> dict[str, Any]:
        sub = self.pending[seat]
        return {
            "type": "received",
            "game": self.id,
            "turn": self.turn,
            "at": sub.at,
            "order": order_to_dict(sub.order),
            "messages": [message_to_dict(m) for m in sub.messages],
            "legal_now": self.game.is_legal(seat, sub.order),
        }

    def _schedule_clock_frame(self) -> None:
        if self._clock_frame is None:
            self._clock_frame = self.loop.call_later(CLOCK_DELAY, self._send_clocks)

    def _send_clocks(self) -> None:
        self._clock_frame = None
        if self.game.phase is not Phase.PLAY or self.paused:
            return
        text = encode(
            {"type": "clock", "game": self.id, "turn": self.turn, "clocks": self._clocks()}
        )
        self._broadcast(text)

    def _broadcast(self, text: str) -> None:
        """To every seat, and to the spectators unless they see nothing before the end."""
        for peer in self.peers:
            if peer is not None:
                peer.send(text)
        if self.spec.watch == "public" or self.game.phase is Phase.OVER:
            for peer in self.watchers:
                peer.send(text)

    def _schedule_check(self) -> None:
        if self._check is not None:
            self._check.cancel()
            self._check = None
        if not self.rules.timers:
            return
        expiry = self.clocks.next_expiry()
        if expiry is not None:
            self._check = self.loop.call_later(expiry - self._now(), self._on_check)

    def _on_check(self) -> None:
        self._check = None
        if self.closed or self.game.phase is not Phase.PLAY or not self.waiting:
            return
        expiry = self.clocks.next_expiry()
        if expiry is not None and self._now() < expiry:  # (woken early)
            self._schedule_check()
            return
        self._settle(self._now(), force=True)
        if not self.waiting:
            return
        self._schedule_check()

    def _settle(self, at: float, force: bool = False) -> None:
        """R7: if a waiting player's timer may have reached 0 by ``at``, play the turn so far on
        a copy of the game (the waiting players answering at ``at``) and take the engine's
        word: the players it eliminated are out now, and are told so."""
        if not self.rules.timers or not self.waiting:
            return
        expiry = self.clocks.next_expiry()
        if not force and (expiry is None or at < expiry - MARGIN):
            return
        trial = copy.deepcopy(self.game)
        report = trial.play_turn(*self._inputs(at))
        gone = {e.player: e for e in report.events if isinstance(e, Eliminated)}
        ended = report.result is not None and report.result.reason is not EndReason.TURN_LIMIT
        newly = sorted(p for p in self.waiting if p in gone or ended)
        for seat in newly:
            self.waiting.discard(seat)
            self.out[seat] = at
            e = gone.get(seat)
            self._broadcast(
                encode(
                    {
                        "type": "out",
                        "game": self.id,
                        "turn": self.turn,
                        "player": seat,
                        "reason": e.reason.value if e is not None else "game over",
                        "at": e.at if e is not None else at,
                    }
                )
            )
        if not self.waiting:
            self.game = trial  # the same inputs as the turn's: the trial is the turn
            self._finish_turn(report)
            return
        timers = {e.player: e.after for e in report.events if isinstance(e, TimerChanged)}
        living = set(trial.living)
        self.clocks.sync({p: t for p, t in timers.items() if p in living}, set(self.pending), at)

    def _inputs(
        self, at: float
    ) -> tuple[dict[int, Order], dict[int, float], dict[int, list[Message | Command]]]:
        """The turn's orders, think times and messages: the answers received, and Pass at
        ``at`` for every seat still waiting (and at its instant for a seat out)."""
        orders: dict[int, Order] = {s: sub.order for s, sub in self.pending.items()}
        times = {s: sub.at for s, sub in self.pending.items()}
        messages = {s: list(sub.messages) for s, sub in self.pending.items() if sub.messages}
        for seat, when in self.out.items():
            orders[seat], times[seat] = Pass(), when
        for seat in self.waiting:
            orders[seat], times[seat] = Pass(), at
        return orders, times, messages

    def _resolve(self) -> None:
        """Every living player has answered (or is out): the engine plays the turn."""
        report = self.game.play_turn(*self._inputs(self._now()))
        self._finish_turn(report)

    def _finish_turn(self, report: TurnReport) -> None:
        self._cancel()
        orders, times, messages = self._inputs(0.0)
        decisions = {s: Decision(orders[s], times[s], tuple(messages.get(s, ()))) for s in orders}
        decided = decisions_record(decisions)
        record = {
            "type": "turn",
            "turn": report.turn,
            **decided,
            "reception": list(report.reception),
            "digest": self.game.digest,  # of every event so far (the replay holds the events)
            "out": sorted(self.out),
        }
        if self.journal is not None:
            self.journal.write(record)
        plain = [e.to_dict() for e in report.events]  # made once: the replay and every frame
        self._plain = {id(e): (e, d) for e, d in zip(report.events, plain, strict=True)}
        self.writer.turn(self._played(), report, decisions, events=plain, decided=decided)
        self._last_events = report.events
        living = set(self.game.living)
        for seat in decisions:
            if seat not in living and self.spec.seats[seat].remote:  # out this turn: its last
                text = encode(self._observation(seat, None, None))  # observation (what it was told)
                self.last[seat] = text
                peer = self.peers[seat]
                if peer is not None:
                    peer.send(text)
        if self.game.result is not None:
            self._end()
        else:
            self._begin_turn()

    def _cancel(self) -> None:
        for handle in (self._check, self._clock_frame):
            if handle is not None:
                handle.cancel()
        self._check = self._clock_frame = None

    # -- what spectators see ---------------------------------------------------------------------

    _last_events: tuple[Event, ...] = ()

    def _event_dict(self, event: Event) -> dict[str, Any]:
        """An event of the last turn in its plain form: made once a turn for all who are told
        it whole (an event with something hidden from its reader is a copy, made anew)."""
        hit = self._plain.get(id(event))
        if hit is not None and hit[0] is event:
            return hit[1]
        return event.to_dict()

    def public_view(self) -> dict[str, Any]:
        """The board as every player sees it (R6): visible pieces without traits, and the last
        turn's events that everyone is told of, with the identifiers of invisible pieces left
        out. What an eliminated player and (by default) a spectator see; the pieces as JSON
        text (:meth:`_pieces`), for :func:`encode`."""
        game = self.game
        hidden = game.hidden_to(None)
        return {
            "turn": game.turn,
            "living": list(game.living),
            "nul": list(game.nul),
            "events": [
                self._event_dict(e.redacted(hidden))
                for e in self._last_events
                if e.audience() is None
            ],
            "pieces": self._pieces(None),
        }

    def _view_frame(self) -> str:
        """The turn's public view frame, made once a turn, when someone is to get it."""
        if self._view_turn != self.turn or not self._view_text:
            frame = {
                "type": "view",
                "game": self.id,
                "turn": self.turn,
                "view": self.public_view(),
                "clocks": self._clocks(),
            }
            self._view_text, self._view_turn = encode(frame), self.turn
        return self._view_text

    def _viewers(self) -> list[Peer]:
        """Who gets the public view: the spectators (in public mode) and the seats out of the
        game."""
        to = list(self.watchers) if self.spec.watch == "public" else []
        living = self.game.living
        if len(living) < self.players:
            to += [p for s, p in enumerate(self.peers) if p is not None and s not in living]
        return to

    def _send_view(self) -> None:
        """The public view to those who get it (:meth:`_viewers`)."""
        to = self._viewers()
        if to:
            text = self._view_frame()
            for peer in to:
                peer.send(text)

    # -- the end -----------------------------------------------------------------------------------

    def _end(self) -> None:
        """The game is over: its replay is written (in a thread: compressing it and syncing it
        to disk would hold up every other game), then everything else is done
        (:meth:`_over`)."""
        self._cancel()
        self._ending = asyncio.ensure_future(asyncio.to_thread(self.writer.finish, self._played()))
        self._ending.add_done_callback(self._over)

    def _over(self, written: asyncio.Future[None]) -> None:
        """After the replay is written: the scores (R11), the journal's last line, the result
        to everyone."""
        if written.cancelled():  # (the server stopped meanwhile: the journal restores the game)
            return
        if written.exception() is not None:
            print(
                f"antipolix: warning: game {self.id}: the replay was not written: "
                f"{written.exception()}",
                file=sys.stderr,
            )
        if self.closed:
            return
        result = self.game.result
        assert result is not None
        if self.players_file is not None:
            self.scores = self._score(result)
        if self.journal is not None:
            self.journal.write(
                {"type": "over", "replay": self.replay_path.name, "result": result_data(result)}
            )
            self.journal.close()
        frame = {
            "type": "result",
            "game": self.id,
            "result": result_data(result),
            "replay": self.replay_path.name,
            "scores": self.scores,
            "truth": pieces_data(self.game.pieces(), traits=True),
        }
        self.result_frame = encode(frame)
        for seat in self.game.living:  # the winner's last observation
            if self.spec.seats[seat].remote:
                text = encode(self._observation(seat, None, None))
                self.last[seat] = text
                peer = self.peers[seat]
                if peer is not None:
                    peer.send(text)
        self._broadcast(self.result_frame)
        for seat, s in enumerate(self.spec.seats):
            if s.kind == "agent":
                self.agents.drop((self.id, seat))
        if self.on_end is not None:
            self.on_end(self)

    def _score(self, result: GameResult) -> dict[str, int] | None:
        """R11: apply the result to the players file (read again now, written atomically)."""
        assert self.players_file is not None
        names = [s.name for s in self.spec.seats]
        try:
            book = PlayersFile.load(self.players_file)
            for name in names:
                book.register(name)
            applied = book.apply(result, names)
            book.save(self.players_file)
        except (AntipolixError, OSError) as exc:
            print(
                f"antipolix: warning: game {self.id}: the players file was not updated: {exc}",
                file=sys.stderr,
            )
            return None
        return applied

    def close(self) -> None:
        """Stop following the game (the server stops): timers off, the journal closed."""
        self.closed = True
        self._cancel()
        if self.journal is not None:
            self.journal.close()

    def summary(self) -> dict[str, Any]:
        """What the host's list of games shows of this one."""
        result = self.game.result
        return {
            "game": self.id,
            "phase": self.phase,
            "turn": self.game.turn,
            "seats": [s.to_dict() for s in self.spec.seats],
            "connected": [p is not None for p in self.peers],
            "living": list(self.game.living),
            "result": None if result is None else result_data(result),
            "created": self.spec.created,
        }


def now_text() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


_ITEMS: tuple[ArmyItem, ...] = tuple(
    parse_item(n)
    for n in (
        "army",
        "hovercraft",
        "fortress",
        "army+invisible",
        "hovercraft+invisible",
        "fortress+invisible",
        "army+teleporter",
        "hovercraft+teleporter",
        "fortress+teleporter",
        "army+chief",
        "hovercraft+chief",
        "fortress+chief",
    )
)
