"""The game: placement (R3), then turns (R4, R7) until the end (R10).

:class:`Game` is the Python face of the compiled core: it checks what it is given and names what
is wrong, runs the kernels (:mod:`antipolix.placement`, :mod:`antipolix.turn`) on the game's
arrays (:mod:`antipolix.state`), and returns events as objects (:mod:`antipolix.events`).

>>> from antipolix import Rules, Game, PieceType, Trait, Move, Pass
>>> game = Game(Rules(shape=(2, 6, 6), players=2, zones=False), seed=7)
>>> a = game.place(0, PieceType.ARMY, Trait.CHIEF, (0, 0, 0))
>>> b = game.place(1, PieceType.ARMY, Trait.CHIEF, (1, 5, 5))
>>> game.start()
>>> report = game.play_turn({0: Move(a, (1, 1, 1)), 1: Pass()}, think_times={0: 1.0, 1: 2.0})
>>> game.piece(a).cell, game.timers
((1, 1, 1), {0: 61.0, 1: 59.0})
"""

from __future__ import annotations

import enum
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix import journal, turn
from antipolix.armies import Zone
from antipolix.checks import is_int, is_plain_number
from antipolix.codec import pieces_json_k
from antipolix.combat import attack_power_k, defence_at
from antipolix.end import REASONS, GameResult
from antipolix.errors import (
    AntipolixError,
    ChiefError,
    DeadPlayerError,
    EmptyCellError,
    MissingOrderError,
    OccupiedCellError,
    OutsideZoneError,
    OverBudgetError,
    PhaseError,
    PlacementError,
    RulesError,
    SeedError,
    TurnError,
    UnknownPieceError,
    ZoneFullError,
)
from antipolix.events import Eliminated, Elimination, Event
from antipolix.ids import PieceNames
from antipolix.jit import held, packed
from antipolix.messages import Command, Delivered, Message
from antipolix.messages import normalise as normalise_message
from antipolix.observation import Observation, Told, observe_k
from antipolix.orders import Attack, Move, Order
from antipolix.orders import normalise as normalise_order
from antipolix.pieces import INVISIBLE as _INVISIBLE
from antipolix.pieces import ArmyItem, Piece, PieceType, Trait
from antipolix.placement import free_cell, free_cells, put
from antipolix.rules import Rules
from antipolix.state import (
    N_ELIM,
    PHASE,
    REASON,
    SEAT,
    TURN,
    WINNER,
    Arrays,
    Board,
    grown,
    new_arrays,
)
from antipolix.turn import Submissions
from antipolix.world import Cell, IntArray, as_cell, cell_text

SeedLike = int | np.random.SeedSequence | None


class Phase(enum.Enum):
    PLACEMENT = "placement"
    PLAY = "play"
    OVER = "over"


PHASES = (Phase.PLACEMENT, Phase.PLAY, Phase.OVER)  # by the core's code (antipolix.state.PHASE)


@dataclass(frozen=True, slots=True)
class TurnReport:
    """What one call of :meth:`Game.play_turn` did, in order (the full truth)."""

    turn: int
    reception: tuple[int, ...]  # players in reception order (R7)
    events: tuple[Event, ...]
    result: GameResult | None  # set when the game ended during this turn


def _seed_sequence(seed: SeedLike) -> np.random.SeedSequence:
    """A fresh SeedSequence, so that the same seed always spawns the same children (R12)."""
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key)
    if seed is None:
        return np.random.SeedSequence()
    if not is_int(seed) or seed < 0:
        raise SeedError(f"seed must be None, an integer >= 0 or a SeedSequence, got {seed!r}")
    return np.random.SeedSequence(int(seed))


def _think_time(player: int, t: object) -> float:
    if type(t) is float and 0.0 <= t < math.inf:  # (the usual case: a measured time)
        return t
    if not is_plain_number(t) or t < 0:
        raise TurnError(f"player {player}: think time must be a finite number >= 0, got {t!r}")
    return float(t)


def game_arrays(
    rules: Rules, seed: np.random.SeedSequence, pieces: int, teleporters: int
) -> Arrays:
    """The empty state of a game of ``rules`` whose identifiers are keyed by ``seed`` (R6), with
    room for ``pieces`` pieces of which ``teleporters`` teleporters."""
    p, n, m = rules.shape
    keys = PieceNames.from_seed(seed, p * n * m).key_array
    dims = np.array(rules.shape, dtype=np.int64)
    return new_arrays(dims, rules.players, pieces, teleporters, keys)


def generators(
    rules: Rules, seed: np.random.SeedSequence
) -> tuple[
    np.random.Generator, np.random.Generator, list[np.random.SeedSequence], np.random.SeedSequence
]:
    """R12: what a game's seed spawns, in this order: the engine's generator, the placement's,
    one seed per seat for agents, and the key of the piece identifiers."""
    engine, placement, *agents = seed.spawn(2 + rules.players)
    (names,) = seed.spawn(1)
    return (
        np.random.Generator(np.random.PCG64(engine)),
        np.random.Generator(np.random.PCG64(placement)),
        agents,
        names,
    )


class Game:
    """One game of AntipoliX under ``rules``; every random choice comes from ``seed`` (R12).

    The seed's SeedSequence spawns, in this order, the engine's generator, the placement's
    generator, one seed per seat for agents (:meth:`agent_seed`), and the key of the piece
    identifiers (R6, :mod:`antipolix.ids`).

    Pieces are named by identifiers that carry no information (R6): :meth:`place` returns them,
    orders and events use them, observations list pieces in identifier order. Cells are
    ``(z, y, x)`` tuples (R1: board ``z``, row ``y``, column ``x``) in arguments, pieces and
    events alike; errors and logs write them ``z2 y5 x4``, in the same order.
    """

    def __init__(self, rules: Rules, seed: SeedLike = None) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules, got {type(rules).__name__}")
        self.rules = rules
        self.seed = _seed_sequence(seed)
        self._rng, self._placement_rng, self._agent_seeds, names = generators(rules, self.seed)
        self._held_rng = held(self._rng)  # (for the turn kernel: see antipolix.jit.held)
        self._tables = rules.tables
        self.board = Board(rules.shape, game_arrays(rules, names, 16, 4))
        self._state = packed(self.board.arrays)  # the same arrays, as the kernels take them
        self._teleporters = 0
        self._inbox: dict[int, list[Delivered]] = {p: [] for p in range(rules.players)}
        # the last turn's events with their audiences (None: everyone), worked out once a turn
        self._last_events: tuple[tuple[frozenset[int] | None, Event], ...] = ()
        self._result: GameResult | None = None
        self._out: dict[int, Elimination] = {}  # why each player out of the game left it
        self._digest = np.uint64(journal.FNV_OFFSET)
        self._buffers: _TurnBuffers | None = None  # made at the first turn, then reused
        # players flagged in an array of the state (living, nul), with the flags they came from
        self._flagged: dict[str, tuple[bytes, tuple[int, ...]]] = {}
        # orders checked this turn (check_submission), by player: the same order object given
        # to is_legal or play_turn before the turn is played is not checked again (emptied
        # when a turn is played: the board changes)
        self._checked: dict[int, Order] = {}

    def __getstate__(self) -> dict[str, object]:
        """For copies and pickles: the arrays are copied, their compiled records made anew."""
        state = dict(self.__dict__)
        del state["_state"], state["_tables"], state["_held_rng"]
        state["_buffers"] = None
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self.__dict__.setdefault("_flagged", {})
        self.__dict__.setdefault("_checked", {})
        self.__dict__.setdefault("_out", {})
        self._tables = self.rules.tables
        self._state = packed(self.board.arrays)
        self._held_rng = held(self._rng)

    def __repr__(self) -> str:
        return (
            f"Game(shape={self.rules.shape}, players={self.rules.players}, "
            f"phase={self.phase.value}, turn={self.turn}, living={self.living})"
        )

    # -- queries ---------------------------------------------------------------------------------

    @property
    def arrays(self) -> Arrays:
        """The game's state as the compiled core holds it (:mod:`antipolix.state`)."""
        return self.board.arrays

    @property
    def phase(self) -> Phase:
        return PHASES[int(self.arrays.meta[PHASE])]

    @property
    def turn(self) -> int:
        """Turns played so far."""
        return int(self.arrays.meta[TURN])

    @property
    def result(self) -> GameResult | None:
        """The result once the game is over (R10), else None."""
        if self._result is None and self.phase is Phase.OVER:
            meta = self.arrays.meta
            winner = int(meta[WINNER])
            self._result = GameResult(
                None if winner < 0 else winner,
                REASONS[int(meta[REASON])],
                self.turn,
                self.elimination_order,
            )
        return self._result

    @property
    def digest(self) -> int:
        """A 64-bit digest of every event so far, as the core recorded them
        (:func:`antipolix.journal.digest`): games with equal digests played out the same, as far
        as a hash can tell (a cheap check of determinism, R12)."""
        return int(self._digest)

    @property
    def living(self) -> tuple[int, ...]:
        return self._players_flagged("living")

    def _players_flagged(self, name: str) -> tuple[int, ...]:
        """The players whose flag is set in the state's array ``name`` (``living``, ``nul``):
        read many times a turn (the match server, by every frame), made again only when the
        flags differ from the ones it was made from."""
        flags = getattr(self.board.arrays, name).tobytes()
        made = self._flagged.get(name)
        if made is None or made[0] != flags:
            made = self._flagged[name] = (flags, tuple(p for p, b in enumerate(flags) if b))
        return made[1]

    @property
    def nul(self) -> tuple[int, ...]:
        """R9: the players with a standing NUL proposal."""
        return self._players_flagged("nul")

    @property
    def timers(self) -> dict[int, float]:
        """R7: seconds left per living player ({} with timers off, or before play)."""
        if not self.rules.timers or self.phase is Phase.PLACEMENT:
            return {}
        return {p: float(self.arrays.timers[p]) for p in self.living}

    @property
    def elimination_order(self) -> tuple[int, ...]:
        a = self.arrays
        return tuple(a.elim[: a.meta[N_ELIM]].tolist())

    @property
    def eliminations(self) -> dict[int, Elimination]:
        """Why each player out of the game left it (R7 timer, R8 chief taken, R9 QUIT), in
        the order they left (:attr:`elimination_order`)."""
        return dict(self._out)

    def agent_seed(self, player: int) -> np.random.SeedSequence:
        """R12: the seed spawned for the agent in seat ``player``."""
        return self._agent_seeds[self._player(player)]

    def zone(self, player: int) -> Zone | None:
        """R3: the player's home zone (None with ``zones=False``)."""
        zones = self.rules.home_zones
        return None if zones is None else zones[self._player(player)]

    def piece(self, pid: int) -> Piece:
        """The full record of the piece with identifier ``pid``, living or not (the truth)."""
        return self.board.record(self._row(pid))

    def pieces(self, player: int | None = None) -> list[Piece]:
        """Living pieces (of one player, or all), in identifier order (the truth)."""
        rows = (
            self.board.living_rows()
            if player is None
            else self.board.pieces_of(self._player(player))
        )
        return [self.board.record(int(r)) for r in self.board.by_id(rows)]

    def placement(self) -> list[Piece]:
        """Every piece in the order it was placed (the truth, for replays), living or not."""
        return [self.board.record(row) for row in range(self.board.count)]

    def reach(self, pid: int) -> set[Cell]:
        """R5: cells piece ``pid`` reaches now, occupancy ignored (its own cell excluded)."""
        row = self._living_row(pid)
        flat = turn.reach_of(self._state, self._tables, row)
        z, y, x = np.unravel_index(flat, self.rules.shape)
        return set(zip(z.tolist(), y.tolist(), x.tolist(), strict=True))

    def reaches(self, pid: int, cell: Cell) -> bool:
        """R5: does piece ``pid`` reach ``cell`` now (occupancy ignored)?"""
        row = self._living_row(pid)
        target = as_cell(self.rules.shape, cell)
        return bool(turn.reaches(self._state, self._tables, row, self._flat(target)))

    def attack_power(self, pieces: Sequence[int]) -> int:
        """R8: summed strength of the listed pieces that can attack (living, not fortresses)."""
        rows = np.unique(np.array([self._row(p) for p in pieces], dtype=np.int64))
        return int(attack_power_k(self._state, self._tables, rows))

    def defence_power(self, cell: Cell) -> int:
        """R8: defence of the piece on ``cell`` (its strength and its neighbours')."""
        target = as_cell(self.rules.shape, cell)
        row = self.board.at(target)
        if row < 0:
            raise EmptyCellError(f"no piece on {cell_text(target)}: nothing to defend")
        return int(defence_at(self._state, self._tables, row))

    def is_legal(self, player: int, order: Order) -> bool:
        """Would ``order`` by ``player`` be accepted if it were resolved now (R4)?"""
        if self.phase is not Phase.PLAY or player not in self.living:
            return False
        try:
            order = self._normal(player, order)
        except AntipolixError:
            return False
        a, t = self._state, self._tables
        if isinstance(order, Move):
            return turn.move_problem(a, t, player, order.piece, self._flat(order.cell))[0] < 0
        if isinstance(order, Attack):
            at = self._flat(order.cell)
            return turn.attack_problem(a, player, at) < 0 and any(
                turn.dropped(a, t, player, pid, at)[0] < 0 for pid in order.pieces
            )
        return True

    def observe(self, player: int) -> Observation:
        """R6, R12: what ``player`` may know now."""
        told = self.told(player)
        return Observation(*told, *observe_k(self._state, told.player))

    def told(self, player: int) -> Told:
        """R6: what ``player`` is told now besides the pieces it sees (:meth:`observe`'s turn,
        timer, living players, NUL proposals, messages and events)."""
        player = self._player(player)
        a = self.arrays
        hidden = self.hidden_to(player)
        timer = None
        if self.rules.timers and self.phase is not Phase.PLACEMENT:
            timer = float(a.timers[player]) if a.living[player] else 0.0
        return Told(
            player,
            self.turn,
            timer,
            self.living,
            self.nul,
            tuple(self._inbox[player]),
            tuple(
                e.redacted(hidden) for who, e in self._last_events if who is None or player in who
            ),
        )

    def pieces_json(self, players: Sequence[int | None]) -> list[bytes]:
        """R6: per player (None: what every player sees, :meth:`seen_by_all`), the pieces it
        sees as JSON text, the list :func:`antipolix.codec.seen_pieces` makes of them: made by
        one compiled call (the match server's frames)."""
        rows = np.array([-1 if p is None else self._player(p) for p in players], dtype=np.int64)
        text, ends = pieces_json_k(self._state, rows)
        raw = text.tobytes()
        starts = [0, *ends[:-1].tolist()]
        return [raw[b:e] for b, e in zip(starts, ends.tolist(), strict=True)]

    def hidden_to(self, reader: int | None) -> Callable[[int], bool]:
        """R6: the test of whether ``reader`` may not know a piece, by identifier: another
        player's invisible piece (``None``: every invisible piece, what all players are shown,
        as :meth:`seen_by_all`). It reads the board as it is when asked; events name their
        pieces by identifier (:meth:`~antipolix.events.Event.redacted`)."""
        board, player = self.board, -1 if reader is None else reader

        def hidden(pid: int) -> bool:
            row = board.row(pid)
            return bool(board.trait[row] == _INVISIBLE and board.owner[row] != player)

        return hidden

    def seen_by_all(self) -> tuple[IntArray, npt.NDArray[np.int8], npt.NDArray[np.int8], IntArray]:
        """R6: the pieces every player sees, the living pieces that are not invisible, as arrays
        ``(ids, owners, types, cells)`` in identifier order (as :meth:`observe` lists them):
        what spectators and eliminated players are shown of the board."""
        ids, owners, types, _, cells = observe_k(self._state, -1)  # (no player's own pieces)
        return ids, owners, types, cells

    # -- placement (R3) ----------------------------------------------------------------------------

    def place(
        self, player: int, kind: PieceType, trait: Trait = Trait.NONE, cell: Cell | None = None
    ) -> int:
        """R3: place one piece for ``player`` on ``cell``, ``(z, y, x)`` (R1; a random free
        cell of its zone if None).

        Returns the new piece's identifier (R6: it depends only on the game's seed and the cell).
        Players place in seat order: once a later seat has placed, an earlier one may not place
        again.
        """
        player, kind, trait = self._check_placement(player, kind, trait, 1 if cell is None else 0)
        cost = self.rules.piece_cost(kind, trait)
        spent = int(self.arrays.spent[player])
        if spent + cost > self.rules.army_budget:
            raise OverBudgetError(
                f"player {player}: a {kind.name.lower()} ({trait.name.lower()}) costs {cost}; "
                f"{spent} of the budget of {self.rules.army_budget} is spent (R3)"
            )
        if trait is Trait.CHIEF and self.board.chief[player] >= 0:
            raise ChiefError(f"player {player} already has a chief (R2: exactly one)")
        target = (
            self._free_cell(player) if cell is None else self._flat(self._check_cell(player, cell))
        )
        return self._put(player, kind, trait, target)

    def place_army(
        self,
        player: int,
        army: Sequence[ArmyItem],
        cells: Sequence[Cell] | None = None,
    ) -> list[int]:
        """R3: check a whole army (one chief, within budget), then place it; returns the
        identifiers, in the army's order.

        ``cells`` gives explicit cells, one per piece; otherwise each piece goes to a random free
        cell of the player's zone. On any error nothing is placed.
        """
        try:
            items = [(PieceType(k), Trait(t)) for k, t in army]
        except (TypeError, ValueError):
            raise PlacementError(
                f"player {player}: an army is a list of (PieceType, Trait) pairs, got {army!r}"
            ) from None
        player, _, _ = self._check_placement(
            player, PieceType.ARMY, Trait.NONE, len(items) if cells is None else 0
        )
        if self.arrays.spent[player]:
            raise PlacementError(
                f"player {player} has already placed pieces; place_army places a whole army"
            )
        self.rules.check_army(player, items)
        if cells is not None:
            if len(cells) != len(items):
                raise PlacementError(f"player {player}: {len(items)} pieces but {len(cells)} cells")
            targets = [self._check_cell(player, c) for c in cells]
            if len(set(targets)) != len(targets):
                raise OccupiedCellError(f"player {player}: two pieces given the same cell")
            return [
                self._put(player, k, t, self._flat(c))
                for (k, t), c in zip(items, targets, strict=True)
            ]
        return [self._put(player, k, t, self._free_cell(player)) for k, t in items]

    def start(self) -> None:
        """Check every army (one chief, within budget, R3) and begin play."""
        if self.phase is not Phase.PLACEMENT:
            raise PhaseError("the game has already started")
        board = self.board
        for player in range(self.rules.players):
            army = [
                (PieceType(int(board.kind[p])), Trait(int(board.trait[p])))
                for p in board.pieces_of(player)
            ]
            self.rules.check_army(player, army)
        a = self.arrays
        if self.rules.timers:
            a.timers[:] = self.rules.initial_timer
        a.meta[PHASE] = turn.PLAYING

    # -- play (R4, R7) -----------------------------------------------------------------------------

    def play_turn(
        self,
        orders: Mapping[int, Order],
        think_times: Mapping[int, float] | None = None,
        messages: Mapping[int, Sequence[Message | Command]] | None = None,
    ) -> TurnReport:
        """Resolve one turn: every living player's order, in reception order (R4, R7).

        ``think_times`` (seconds, default 0 for all) set the reception order and drive the timers;
        with the rule option ``think_times="drawn"`` the engine draws them instead (R7) and the
        given ones are checked but not used. ``messages`` are each player's texts and commands
        (R9), handled at its reception instant just before its order. Everything is checked
        before anything changes.
        """
        if self.phase is Phase.PLACEMENT:
            raise PhaseError("the game has not started: call start() after placement")
        if self.phase is Phase.OVER:
            raise PhaseError(f"the game is over ({self.result})")
        normal, times, mail = self._check_turn(orders, think_times, messages)
        self._checked.clear()  # (the board changes: an order is checked again next turn)
        b = self._submissions(normal, times, mail)
        schedule, digest = turn.play_turn_held(
            self._state, self._tables, self._held_rng, b.packed_in, b.packed_log, self._digest
        )
        self._digest = np.uint64(digest)
        log = b.log
        events = journal.decode(log, self.rules.shape, normal, mail, lambda: self.result)
        for event in events:
            if type(event) is Eliminated:
                self._out[event.player] = event.reason
        for box in self._inbox.values():
            box.clear()
        for sender, index, to in journal.recipients(log):
            item = mail[sender][index]
            assert isinstance(item, Message)
            for p in to:
                self._inbox[p].append(Delivered(self.turn, sender, item.text, item.to))
        self._last_events = tuple((e.audience(), e) for e in events)
        return TurnReport(self.turn, tuple(schedule.tolist()), tuple(events), self.result)

    def _submissions(
        self,
        orders: Mapping[int, Order],
        times: Mapping[int, float],
        mail: Mapping[int, Sequence[Message | Command]],
    ) -> _TurnBuffers:
        """The turn's checked submissions as the turn kernel takes them, and an empty journal:
        buffers made once and reused while they have room (making and packing them anew cost
        a sixth of a turn)."""
        players = self.rules.players
        listed = [pid for o in orders.values() if isinstance(o, Attack) for pid in o.pieces]
        items = sum((len(m) for m in mail.values()), 0)
        b = self._buffers
        if b is None or len(listed) > len(b.into.listed) or items > len(b.into.mail):
            room = max(len(listed), self.board.count), max(items, 8)
            into = turn.submissions(players, *room)
            log = journal.journal_for(players, self.board.count, *room)
            b = self._buffers = _TurnBuffers(into, packed(into), log, packed(log))
        s, k = b.into, 0
        s.orders[:] = turn.PASS
        s.times[:] = 0.0
        b.log.n[:] = 0
        for p, order in orders.items():
            if isinstance(order, Move):
                s.orders[p] = (turn.MOVE, order.piece, self._flat(order.cell), 0, 0)
            elif isinstance(order, Attack):
                n = len(order.pieces)
                s.listed[k : k + n] = order.pieces
                s.orders[p] = (turn.ATTACK, 0, self._flat(order.cell), k, k + n)
                k += n
        for p, t in times.items():
            s.times[p] = t
        i = 0
        for p in range(players):
            s.mail_start[p] = i
            for item in mail.get(p, ()):
                if isinstance(item, Command):
                    s.mail[i] = (journal.COMMANDS[item], 0)
                else:
                    s.mail[i] = (journal.TEXT, -1 if item.to is None else item.to)
                i += 1
        s.mail_start[players] = i
        return b

    def _check_turn(
        self,
        orders: object,
        think_times: object,
        messages: object,
    ) -> tuple[dict[int, Order], dict[int, float], dict[int, list[Message | Command]]]:
        living = set(self.living)

        def seats(mapping: object, what: str) -> dict[int, object]:
            if not isinstance(mapping, Mapping):
                raise TurnError(f"{what} must be a mapping {{player: ...}}, got {mapping!r}")
            out = {}
            for key, value in mapping.items():
                if type(key) is int and key in living:  # (the usual case: a living seat)
                    out[key] = value
                    continue
                try:
                    p = self._player(key)
                except AntipolixError as exc:
                    raise DeadPlayerError(f"{what}: {exc}") from None
                if p not in living:
                    raise DeadPlayerError(f"{what} names player {p}, who is eliminated")
                out[p] = value
            return out

        orders_by = seats(orders, "orders")
        missing = sorted(living - set(orders_by))
        if missing:
            raise MissingOrderError(
                f"no order for living player(s) {missing} (give Pass() to do nothing)"
            )
        normal = {p: self._normal(p, o) for p, o in sorted(orders_by.items())}
        times: dict[int, float] = {p: 0.0 for p in living}
        if think_times is not None:
            given = seats(think_times, "think_times")
            missing = sorted(living - set(given))
            if missing:
                raise MissingOrderError(f"no think time for living player(s) {missing}")
            times.update({p: _think_time(p, t) for p, t in given.items()})
        mail: dict[int, list[Message | Command]] = {}
        if messages is not None:
            for p, items in seats(messages, "messages").items():
                mail[p] = self._messages(p, items)
        return normal, times, mail

    def check_submission(
        self,
        player: int,
        order: object,
        think_time: object = 0.0,
        messages: object = (),
    ) -> Order:
        """Raise the error :meth:`play_turn` would raise for this one player's submission;
        return its order as :meth:`play_turn` takes it (plain integers and tuples).

        Lets a caller that gathers orders from several sources (agents, the match server) name
        the culprit. The order returned, given as it is to :meth:`is_legal` or to this turn's
        :meth:`play_turn`, is not checked again (the board has not changed since).
        """
        p = self._player(player)
        if p not in self.living:
            raise DeadPlayerError(f"player {p} is eliminated")
        normal = normalise_order(p, order, self.board)
        _think_time(p, think_time)
        self._messages(p, messages)
        self._checked[p] = normal
        return normal

    def _normal(self, player: int, order: object) -> Order:
        """``order`` checked and normalised (R4), unless :meth:`check_submission` did so."""
        checked = self._checked.get(player)
        if checked is not None and checked is order:
            return checked
        return normalise_order(player, order, self.board)

    def _messages(self, player: int, items: object) -> list[Message | Command]:
        if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
            raise TurnError(f"player {player}: messages must be a list, got {items!r}")
        return [normalise_message(player, m, self.rules.players) for m in items]

    # -- internals: checks -------------------------------------------------------------------------

    def _player(self, player: object) -> int:
        try:
            p = operator.index(player)  # type: ignore[arg-type]
        except TypeError:
            raise AntipolixError(f"player {player!r} is not an integer seat") from None
        if not 0 <= p < self.rules.players:
            raise AntipolixError(
                f"there is no player {p} (players are 0..{self.rules.players - 1})"
            )
        return p

    def _row(self, pid: object) -> int:
        """The row of the piece with identifier ``pid`` (the truth API: any piece of the game)."""
        try:
            p = operator.index(pid)  # type: ignore[arg-type]
        except TypeError:
            raise UnknownPieceError(f"piece id {pid!r} is not an integer") from None
        row = self.board.row(p)
        if row < 0:
            raise UnknownPieceError(f"there is no piece {p}")
        return row

    def _living_row(self, pid: object) -> int:
        row = self._row(pid)
        if not self.board.alive[row]:
            raise UnknownPieceError(f"piece {self.board.ids[row]} no longer exists (destroyed)")
        return row

    def _check_placement(
        self, player: object, kind: object, trait: object, count: int
    ) -> tuple[int, PieceType, Trait]:
        if self.phase is not Phase.PLACEMENT:
            raise PhaseError("placement is over: the game has started")
        p = self._player(player)
        seat = int(self.arrays.meta[SEAT])
        if p < seat:
            raise PlacementError(
                f"player {p} cannot place now: player {seat} has begun placing "
                "and placement goes in seat order (R3)"
            )
        try:
            k, t = PieceType(kind), Trait(trait)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise PlacementError(
                f"player {p}: unknown piece type or trait {kind!r}, {trait!r}"
            ) from None
        free = int(free_cells(self._state, self._tables, p))
        if count > free:
            where = "its zone" if self.rules.zones else "the board"
            raise ZoneFullError(
                f"player {p}: {count} pieces to place but {free} free cells in {where}"
            )
        return p, k, t

    def _check_cell(self, player: int, cell: object) -> Cell:
        target = as_cell(self.rules.shape, cell, f"player {player}: placement cell")
        occupant = self.board.at(target)
        if occupant >= 0:
            raise OccupiedCellError(
                f"player {player}: cell {cell_text(target)} already holds piece "
                f"{self.board.ids[occupant]}"
            )
        zone = self.zone(player)
        if zone is not None and target not in zone:
            box = " ".join(
                f"{a}{lo}..{hi - 1}" for a, lo, hi in zip("zyx", zone.lo, zone.hi, strict=True)
            )
            raise OutsideZoneError(
                f"player {player}: cell {cell_text(target)} is outside its home zone {box} (R3)"
            )
        return target

    # -- internals ----------------------------------------------------------------------------

    def _flat(self, cell: Cell) -> int:
        _, n, m = self.rules.shape
        return (cell[0] * n + cell[1]) * m + cell[2]

    def _free_cell(self, player: int) -> int:
        return int(free_cell(self._state, self._tables, player, self._placement_rng))

    def _put(self, player: int, kind: PieceType, trait: Trait, at: int) -> int:
        board = self.board
        teleporters = self._teleporters + (trait is Trait.TELEPORTER)
        more = grown(board.arrays, board.count + 1, teleporters)
        if more is not board.arrays:
            board.arrays, self._state = more, packed(more)
        self._teleporters = teleporters
        return int(put(self._state, self._tables, player, int(kind), int(trait), at))


@dataclass
class _TurnBuffers:
    """A game's turn input (:class:`~antipolix.turn.Submissions`) and journal, with their
    records for the kernels (the same arrays)."""

    into: Submissions
    packed_in: Any
    log: journal.Journal
    packed_log: Any
