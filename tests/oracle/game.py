"""The game: placement (R3), then turns (R4, R7) until the end (R10).

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from antipolix.armies import Zone
from antipolix.end import EndReason, GameResult
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
from antipolix.events import (
    Combat,
    Commanded,
    Crushed,
    Discarded,
    Eliminated,
    Event,
    Fate,
    GameOver,
    Moved,
    Received,
    Rejected,
    Sent,
    TimerChanged,
    Undelivered,
)
from antipolix.ids import PieceNames
from antipolix.messages import Command, Delivered, Message
from antipolix.observation import Observation
from antipolix.orders import Attack, Move, Order
from antipolix.pieces import CHIEF as _CHIEF
from antipolix.pieces import FORTRESS as _FORTRESS
from antipolix.pieces import INVISIBLE as _INVISIBLE
from antipolix.pieces import ArmyItem, Piece, PieceType, Trait
from antipolix.rules import Rules
from antipolix.world import Cell, as_cell, cell_text, indices
from tests.oracle.combat import (
    Outcome,
    attack_power,
    defence_power,
    draw_outcome,
    outcome_distribution,
)
from tests.oracle.messages import contacts
from tests.oracle.messages import normalise as normalise_message
from tests.oracle.observation import observe_pieces
from tests.oracle.orders import normalise as normalise_order
from tests.oracle.reach import Network, reach_cells, reaches
from tests.oracle.state import ALL_OWNERS, Board
from tests.oracle.timers import Clock, reception_order

SeedLike = int | np.random.SeedSequence | None
DRAWN_THINK_MEAN = 1.0  # R7, think_times="drawn": seconds, the mean of the exponential draw


class Phase(enum.Enum):
    PLACEMENT = "placement"
    PLAY = "play"
    OVER = "over"


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
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise SeedError(f"seed must be None, an integer >= 0 or a SeedSequence, got {seed!r}")
    return np.random.SeedSequence(int(seed))


def _think_time(player: int, t: object) -> float:
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or t < 0:
        raise TurnError(f"player {player}: think time must be a finite number >= 0, got {t!r}")
    return float(t)


class Game:
    """One game of AntipoliX under ``rules``; every random choice comes from ``seed`` (R12).

    The seed's SeedSequence spawns, in this order, the engine's generator, the placement's
    generator, one seed per seat for agents (:meth:`agent_seed`), and the key of the piece
    identifiers (R6, :mod:`antipolix.ids`).

    Pieces are named by identifiers that carry no information (R6): :meth:`place` returns them,
    orders and events use them, observations list pieces in identifier order.
    """

    def __init__(self, rules: Rules, seed: SeedLike = None) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(f"rules must be a Rules, got {type(rules).__name__}")
        self.rules = rules
        self.seed = _seed_sequence(seed)
        engine, placement, *agents = self.seed.spawn(2 + rules.players)
        (names,) = self.seed.spawn(1)
        self._rng = np.random.Generator(np.random.PCG64(engine))
        self._placement_rng = np.random.Generator(np.random.PCG64(placement))
        self._agent_seeds = agents
        p, n, m = rules.shape
        self.board = Board(
            rules.shape, rules.players, rules.teleport_field, PieceNames.from_seed(names, p * n * m)
        )
        self._strength = rules.strength_table
        self._move_field = rules.move_table
        self._outcomes = outcome_distribution(rules)
        self.phase = Phase.PLACEMENT
        self._spent = [0] * rules.players
        self._seat = 0
        self.turn = 0
        self._living: list[int] = list(range(rules.players))
        self._clock: Clock | None = None
        self._nul: set[int] = set()
        self._inbox: dict[int, list[Delivered]] = {p: [] for p in range(rules.players)}
        # the last turn's events with their audiences (None: everyone), worked out once a turn
        self._last_events: tuple[tuple[frozenset[int] | None, Event], ...] = ()
        self._eliminated: list[int] = []
        self.result: GameResult | None = None

    def __repr__(self) -> str:
        return (
            f"Game(shape={self.rules.shape}, players={self.rules.players}, "
            f"phase={self.phase.value}, turn={self.turn}, living={self.living})"
        )

    # -- queries ---------------------------------------------------------------------------------

    @property
    def living(self) -> tuple[int, ...]:
        return tuple(self._living)

    @property
    def timers(self) -> dict[int, float]:
        """R7: seconds left per living player ({} with timers off)."""
        return dict(self._clock.timers) if self._clock is not None else {}

    @property
    def elimination_order(self) -> tuple[int, ...]:
        return tuple(self._eliminated)

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
        flat = reach_cells(self.rules.shape, self.board.cell(row), self._field(row), self._net(row))
        z, y, x = np.unravel_index(flat, self.rules.shape)
        return set(zip(z.tolist(), y.tolist(), x.tolist(), strict=True))

    def reaches(self, pid: int, cell: Cell) -> bool:
        """R5: does piece ``pid`` reach ``cell`` now (occupancy ignored)?"""
        row = self._living_row(pid)
        target = as_cell(self.rules.shape, cell)
        return self._reaches(row, target)

    def attack_power(self, pieces: Sequence[int]) -> int:
        """R8: summed strength of the listed pieces that can attack (living, not fortresses)."""
        rows = [self._row(p) for p in pieces]
        return attack_power(self.board, self._strength, rows)

    def defence_power(self, cell: Cell) -> int:
        """R8: defence of the piece on ``cell`` (its strength and its neighbours')."""
        target = as_cell(self.rules.shape, cell)
        if self.board.at(target) < 0:
            raise EmptyCellError(f"no piece on {cell_text(target)}: nothing to defend")
        return defence_power(self.board, self._strength, target, self.rules.defence_counts)

    def is_legal(self, player: int, order: Order) -> bool:
        """Would ``order`` by ``player`` be accepted if it were resolved now (R4)?"""
        if self.phase is not Phase.PLAY or player not in self._living:
            return False
        try:
            order = normalise_order(player, order, self.board)
        except AntipolixError:
            return False
        if isinstance(order, Move):
            return self._move_problem(player, order) is None
        if isinstance(order, Attack):
            return self._attack_problem(player, order) is None and bool(
                self._split_attackers(player, order)[0]
            )
        return True

    def observe(self, player: int) -> Observation:
        """R6, R12: what ``player`` may know now."""
        player = self._player(player)
        ids, owners, types, traits, cells = observe_pieces(self.board, player)
        board = self.board

        def hidden(pid: int) -> bool:  # another player's invisible piece (R6)
            row = board.row(pid)
            return bool(board.trait[row] == _INVISIBLE and board.owner[row] != player)

        return Observation(
            player=player,
            turn=self.turn,
            timer=self._clock.timers.get(player, 0.0) if self._clock is not None else None,
            living=self.living,
            nul=tuple(sorted(self._nul)),
            messages=tuple(self._inbox[player]),
            events=tuple(
                e.redacted(hidden) for who, e in self._last_events if who is None or player in who
            ),
            ids=ids,
            owners=owners,
            types=types,
            traits=traits,
            cells=cells,
        )

    # -- placement (R3) ----------------------------------------------------------------------------

    def place(
        self, player: int, kind: PieceType, trait: Trait = Trait.NONE, cell: Cell | None = None
    ) -> int:
        """R3: place one piece for ``player`` on ``cell`` (a random free cell of its zone if None).

        Returns the new piece's identifier (R6: it depends only on the game's seed and the cell).
        Players place in seat order: once a later seat has placed, an earlier one may not place
        again.
        """
        player, kind, trait = self._check_placement(player, kind, trait, 1 if cell is None else 0)
        cost = self.rules.piece_cost(kind, trait)
        if self._spent[player] + cost > self.rules.army_budget:
            raise OverBudgetError(
                f"player {player}: a {kind.name.lower()} ({trait.name.lower()}) costs {cost}; "
                f"{self._spent[player]} of the budget of {self.rules.army_budget} is spent (R3)"
            )
        if trait is Trait.CHIEF and self.board.chief[player] >= 0:
            raise ChiefError(f"player {player} already has a chief (R2: exactly one)")
        target = self._free_cell(player) if cell is None else self._check_cell(player, cell)
        return self._put(player, kind, trait, target, cost)

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
        if self._spent[player]:
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
                self._put(player, k, t, c, self.rules.piece_cost(k, t))
                for (k, t), c in zip(items, targets, strict=True)
            ]
        return [
            self._put(player, k, t, self._free_cell(player), self.rules.piece_cost(k, t))
            for k, t in items
        ]

    def start(self) -> None:
        """Check every army (one chief, within budget, R3) and begin play."""
        if self.phase is not Phase.PLACEMENT:
            raise PhaseError("the game has already started")
        for player in range(self.rules.players):
            army = [
                (PieceType(int(self.board.kind[p])), Trait(int(self.board.trait[p])))
                for p in self.board.pieces_of(player)
            ]
            self.rules.check_army(player, army)
        if self.rules.timers:
            self._clock = Clock({p: self.rules.initial_timer for p in self._living})
        self.phase = Phase.PLAY

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
        given = self._check_turn(orders, think_times, messages)
        normal, times, mail = given
        self.turn += 1
        events: list[Event] = []
        for box in self._inbox.values():
            box.clear()
        touching = (
            contacts(self.board)
            if any(isinstance(m, Message) and m.to is not None for ms in mail.values() for m in ms)
            else set()
        )
        before = dict(self._clock.timers) if self._clock is not None else {}
        if self._clock is not None:
            self._clock.begin_turn()
        if self.rules.think_times == "drawn":  # R7: no agent gains by claiming to think fast
            times = {p: float(self._rng.exponential(DRAWN_THINK_MEAN)) for p in sorted(times)}
        schedule = reception_order(times, self._rng)
        for player, at in schedule:
            order = normal[player]
            if self.result is None and self._clock is not None:
                self._run_clock(at, events)
            if self.result is not None:
                events.append(Discarded(player, order, "the game is over"))
                continue
            if player not in self._living:
                events.append(Discarded(player, order, "eliminated before the order arrived"))
                continue
            events.append(Received(player, at))
            if self._clock is not None:
                self._clock.arrive(player)
            for item in mail.get(player, ()):
                self._handle_message(player, item, touching, events, at)
                if player not in self._living or self.result is not None:
                    break
            if player not in self._living:
                events.append(Discarded(player, order, "the player quit"))
            elif self.result is not None:
                events.append(Discarded(player, order, "the game is over"))
            else:
                self._resolve(player, order, events, at)
        if self._clock is not None:
            events.extend(
                TimerChanged(p, before[p], self._clock.timers[p]) for p in self._clock.timers
            )
        if self.result is None and self.turn >= self.rules.max_turns:
            self._finish(None, EndReason.TURN_LIMIT)
        if self.result is not None:  # the game ended this turn: GameOver closes the report
            events.append(GameOver(self.result))
        self._last_events = tuple((e.audience(), e) for e in events)
        return TurnReport(self.turn, tuple(p for p, _ in schedule), tuple(events), self.result)

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
        if p < self._seat:
            raise PlacementError(
                f"player {p} cannot place now: player {self._seat} has begun placing "
                "and placement goes in seat order (R3)"
            )
        try:
            k, t = PieceType(kind), Trait(trait)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise PlacementError(
                f"player {p}: unknown piece type or trait {kind!r}, {trait!r}"
            ) from None
        if self.rules.zones:
            zone = self.zone(p)
            assert zone is not None
            free = int(np.count_nonzero(self.board.grid[zone.slices()] < 0))
        else:
            free = int(np.count_nonzero(self.board.grid < 0))
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

    def _free_cell(self, player: int) -> Cell:
        zone = self.zone(player)
        if zone is None:
            free = indices(self.board.grid.ravel() < 0)
            flat = int(free[self._placement_rng.integers(len(free))])
            z, y, x = np.unravel_index(flat, self.rules.shape)
            return (int(z), int(y), int(x))
        sub = self.board.grid[zone.slices()]
        free = indices(sub.ravel() < 0)
        z, y, x = np.unravel_index(int(free[self._placement_rng.integers(len(free))]), sub.shape)
        return (int(z) + zone.lo[0], int(y) + zone.lo[1], int(x) + zone.lo[2])

    def _put(self, player: int, kind: PieceType, trait: Trait, cell: Cell, cost: int) -> int:
        self._seat = player
        self._spent[player] += cost
        row = self.board.add(player, kind, trait, cell)
        return int(self.board.ids[row])

    def _check_turn(
        self,
        orders: object,
        think_times: object,
        messages: object,
    ) -> tuple[dict[int, Order], dict[int, float], dict[int, list[Message | Command]]]:
        living = set(self._living)

        def seats(mapping: object, what: str) -> dict[int, object]:
            if not isinstance(mapping, Mapping):
                raise TurnError(f"{what} must be a mapping {{player: ...}}, got {mapping!r}")
            out = {}
            for key, value in mapping.items():
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
        normal = {p: normalise_order(p, o, self.board) for p, o in sorted(orders_by.items())}
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
    ) -> None:
        """Raise the error :meth:`play_turn` would raise for this one player's submission.

        Lets a caller that gathers orders from several sources (agents) name the culprit.
        """
        p = self._player(player)
        if p not in self._living:
            raise DeadPlayerError(f"player {p} is eliminated")
        normalise_order(p, order, self.board)
        _think_time(p, think_time)
        self._messages(p, messages)

    def _messages(self, player: int, items: object) -> list[Message | Command]:
        if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
            raise TurnError(f"player {player}: messages must be a list, got {items!r}")
        return [normalise_message(player, m, self.rules.players) for m in items]

    # -- internals: resolution ---------------------------------------------------------------------

    def _field(self, row: int) -> int:
        return int(self._move_field[self.board.kind[row]])

    def _net(self, row: int) -> Network:
        owner = ALL_OWNERS if self.rules.teleport_network == "all" else int(self.board.owner[row])
        return self.board.network(owner)

    def _reaches(self, row: int, target: Cell) -> bool:
        if self.board.kind[row] == _FORTRESS:
            return False
        return reaches(
            self.rules.shape, self.board.cell(row), self._field(row), self._net(row), target
        )

    def _move_problem(self, player: int, order: Move) -> str | None:
        """R4: why ``order`` cannot be carried out now, or None."""
        pid, cell, board = order.piece, order.cell, self.board
        row = board.row(pid)
        if not board.alive[row]:
            return f"piece {pid} was destroyed"
        if board.owner[row] != player:
            return f"piece {pid} now belongs to player {int(board.owner[row])}"
        if board.kind[row] == _FORTRESS:
            return f"piece {pid} is a fortress, which never moves (R2)"
        if not self._reaches(row, cell):
            return f"cell {cell_text(cell)} is out of reach of piece {pid} (R5)"
        occupant = board.at(cell)
        if occupant >= 0:
            if board.owner[occupant] == player:
                return f"cell {cell_text(cell)} holds your piece {board.ids[occupant]}"
            if board.trait[occupant] != _INVISIBLE:
                return f"cell {cell_text(cell)} holds an enemy piece (attack it instead)"
        return None

    def _attack_problem(self, player: int, order: Attack) -> str | None:
        target = self.board.at(order.cell)
        # an invisible target reads as an empty cell, so that the reason leaks nothing (R6)
        if target < 0 or (
            self.board.trait[target] == _INVISIBLE and self.board.owner[target] != player
        ):
            return f"no visible enemy piece on {cell_text(order.cell)}"
        if self.board.owner[target] == player:
            return f"the piece on {cell_text(order.cell)} is yours"
        return None

    def _split_attackers(
        self, player: int, order: Attack
    ) -> tuple[list[int], list[tuple[int, str]]]:
        """The rows of the listed pieces that can attack now, and the identifiers of the others
        with the reason each was dropped (R4)."""
        valid: list[int] = []
        dropped: list[tuple[int, str]] = []
        board = self.board
        for pid in order.pieces:
            row = board.row(pid)
            if not board.alive[row]:
                dropped.append((pid, "destroyed"))
            elif board.owner[row] != player:
                dropped.append((pid, f"now belongs to player {int(board.owner[row])}"))
            elif board.kind[row] == _FORTRESS:
                dropped.append((pid, "a fortress never attacks (R2)"))
            elif not self._reaches(row, order.cell):
                dropped.append((pid, "out of reach (R5)"))
            else:
                valid.append(row)
        return valid, dropped

    def _resolve(self, player: int, order: Order, events: list[Event], at: float) -> None:
        if isinstance(order, Move):
            self._resolve_move(player, order, events, at)
        elif isinstance(order, Attack):
            self._resolve_attack(player, order, events, at)

    def _resolve_move(self, player: int, order: Move, events: list[Event], at: float) -> None:
        problem = self._move_problem(player, order)
        if problem is not None:
            events.append(Rejected(player, order, problem))
            return
        board, pid, cell = self.board, order.piece, order.cell
        row = board.row(pid)
        src = board.cell(row)
        victim = board.at(cell)
        if victim >= 0:  # an enemy invisible piece: destroyed, the mover takes the cell (R6)
            # (never a chief: a piece has exactly one trait, R2)
            board.remove(victim)
            owner = int(board.owner[victim])
            events.append(Crushed(player, pid, int(board.ids[victim]), owner, cell))
        board.move(row, cell)
        events.append(Moved(player, pid, src, cell))

    def _resolve_attack(self, player: int, order: Attack, events: list[Event], at: float) -> None:
        problem = self._attack_problem(player, order)
        valid, dropped = self._split_attackers(player, order)
        if problem is None and not valid:
            problem = (
                "no listed piece can attack "
                + cell_text(order.cell)
                + ": "
                + "; ".join(f"{pid} {why}" for pid, why in dropped)
            )
        if problem is not None:
            events.append(Rejected(player, order, problem))
            return
        board = self.board
        target = board.at(order.cell)
        target_id = int(board.ids[target])
        owner = int(board.owner[target])
        attack = attack_power(board, self._strength, valid)
        defence = defence_power(board, self._strength, order.cell, self.rules.defence_counts)
        attackers = tuple(sorted(int(board.ids[r]) for r in valid))  # listed order says nothing
        events.append(
            Combat(
                player,
                attackers,
                tuple(sorted(dropped)),
                target_id,
                owner,
                order.cell,
                attack,
                defence,
            )
        )
        if attack <= defence:  # R8: strictly more is needed; a failed attack changes nothing
            return
        outcome, u = draw_outcome(self._outcomes, self._rng)
        was_chief = board.trait[target] == _CHIEF
        landing: Cell | None = None
        landed_on: int | None = None
        destroyed = outcome is Outcome.DESTROY
        if outcome is Outcome.TELEPORT:
            flat = int(self._rng.integers(board.grid.size))
            z, y, x = np.unravel_index(flat, self.rules.shape)
            landing = (int(z), int(y), int(x))
            occupant = board.at(landing)
            destroyed = occupant >= 0  # occupied (the target's own cell included)
            landed_on = int(board.ids[occupant]) if destroyed else None
        if destroyed:
            board.remove(target)
        elif outcome is Outcome.TELEPORT:
            assert landing is not None
            board.move(target, landing)
        else:  # CONVERT: type and trait kept, but a converted chief loses the chief trait
            if was_chief:
                board.set_trait(target, Trait.NONE)
            board.set_owner(target, player)
        events.append(Fate(player, target_id, owner, outcome, u, landing, destroyed, landed_on))
        if was_chief and (destroyed or outcome is Outcome.CONVERT):
            self._eliminate([owner], "chief", at, player, events)

    def _run_clock(self, until: float, events: list[Event]) -> None:
        assert self._clock is not None
        while self.result is None:
            expiry = self._clock.advance(until)
            if expiry is None:
                return
            instant, players = expiry
            if len(players) > 1:  # R7: same instant, an order drawn by the game's generator
                players = [players[i] for i in self._rng.permutation(len(players)).tolist()]
            self._eliminate(players, "timer", instant, None, events)

    def _handle_message(
        self,
        player: int,
        item: Message | Command,
        touching: set[tuple[int, int]],
        events: list[Event],
        at: float,
    ) -> None:
        if item is Command.QUIT:
            self._eliminate([player], "quit", at, None, events)
            return
        if isinstance(item, Command):
            if item is Command.NUL:
                self._nul.add(player)
            else:
                self._nul.discard(player)
            events.append(Commanded(player, item))
            self._check_end()
            return
        if item.to is None:
            for p in self._living:
                if p != player:
                    self._inbox[p].append(Delivered(self.turn, player, item.text, None))
            events.append(Sent(player, None, item.text))
        elif item.to not in self._living:
            events.append(Undelivered(player, item.to, f"player {item.to} is eliminated"))
        elif (player, item.to) not in touching:
            events.append(
                Undelivered(
                    player,
                    item.to,
                    f"no visible piece of yours was within one cell of a visible piece of "
                    f"player {item.to} at the start of the turn (R9, R6)",
                )
            )
        else:
            self._inbox[item.to].append(Delivered(self.turn, player, item.text, item.to))
            events.append(Sent(player, item.to, item.text))

    # -- internals: elimination and end (R8, R9, R10) ---------------------------------------------

    def _eliminate(
        self, players: list[int], reason: str, at: float, by: int | None, events: list[Event]
    ) -> None:
        """Eliminate ``players`` in the same instant, in the order given, then check the end."""
        for p in players:
            self._living.remove(p)
            self._nul.discard(p)
            if self._clock is not None:
                self._clock.remove(p)
            rows = self.board.pieces_of(p).tolist()
            if by is not None:  # R8: the remaining pieces become the chief-taker's
                for row in rows:
                    self.board.set_owner(row, by)
            else:  # R7 timer, R9 QUIT: the pieces are removed
                for row in rows:
                    self.board.remove(row)
            ids = sorted(int(i) for i in self.board.ids[rows])  # in an order that says nothing
            self._eliminated.append(p)
            events.append(
                Eliminated(
                    p,
                    reason,
                    at,
                    by,
                    tuple(ids) if by is not None else (),
                    () if by is not None else tuple(ids),
                )
            )
        self._check_end()

    def _check_end(self) -> None:
        if self.result is not None:
            return
        if len(self._living) == 1:
            self._finish(self._living[0], EndReason.LAST_PLAYER)
        elif not self._living:
            self._finish(None, EndReason.ALL_ELIMINATED)
        elif self._nul >= set(self._living):
            self._finish(None, EndReason.NUL)

    def _finish(self, winner: int | None, reason: EndReason) -> None:
        """End the game now (R10); the turn's remaining orders are discarded."""
        self.result = GameResult(winner, reason, self.turn, tuple(self._eliminated))
        self.phase = Phase.OVER
