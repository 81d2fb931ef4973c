"""The rules configuration: every rule option of RULES.md in one frozen, validated dataclass.

>>> rules = Rules(shape=(4, 8, 8), players=2)
>>> rules.army_budget, rules.initial_timer
(15, 60.0)
>>> Rules(players=11)
Traceback (most recent call last):
...
antipolix.errors.RulesError: invalid rules: players must be an integer from 2 to 10, got 11

Change options with :func:`dataclasses.replace`, which validates again.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from antipolix.armies import Zone, budget_from_credits, home_zones, smallest_board_with_zones
from antipolix.checks import is_plain_int, is_plain_number
from antipolix.errors import ChiefError, OverBudgetError, RulesError
from antipolix.jit import packed, record
from antipolix.pieces import MAX_MOVE, ArmyItem, PieceType, Trait, TraitCosts, TypeTable
from antipolix.world import Shape

# the largest budget and turn limit (R3, R10): beyond any game that can be played, and exact
# in the compiled core's integers
MAX_BUDGET = 10**9
MAX_TURNS = 10**9
# the largest board's sides (R1): a larger one is refused before its home zones are sought (R3:
# seconds at N = 2,048); the commands hold a game to 2**22 cells (antipolix.limits.MAX_CELLS),
# which no board beyond these sides has room for
MAX_SIDE = 2**11
MAX_LAYERS = 2**22
MIN_PLAYERS, MAX_PLAYERS = 2, 10  # seats at the table (R3)


class Tables(NamedTuple):
    """The rules as numbers, for the compiled core (:attr:`Rules.tables`)."""

    shape: npt.NDArray[np.int64]  # (P, N, N)
    players: int
    strength: npt.NDArray[np.int64]  # per type (R2)
    move: npt.NDArray[np.int64]  # per type (R2)
    cost: npt.NDArray[np.int64]  # [type, trait] (R2)
    type_cost: npt.NDArray[np.int64]  # per type, without its trait (R2)
    teleport_field: int  # R5
    teleport_all: bool  # R5: every player's teleporters serve
    outcomes: npt.NDArray[np.float64]  # R8: destroy, teleport, convert
    defence_all: bool  # R8: every piece within radius 1 defends
    timers: bool  # R7
    initial_timer: float  # R7
    think_drawn: bool  # R7
    max_turns: int  # R10
    zones: npt.NDArray[np.int64]  # (players, 6): lo z, y, x, hi z, y, x of each home zone (R3)
    has_zones: bool
    budget: int  # R3


record(Tables)
_TABLES: weakref.WeakKeyDictionary[Rules, Tables] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class Rules:
    """All rule options (RULES.md), with the RULES.md defaults.

    Fields by section: R1 ``shape``; R2 ``piece_types``, ``trait_costs``; R3 ``players``,
    ``budget``, ``credits_per_100``, ``zones``; R5 ``teleport_field``, ``teleport_network``;
    R7 ``timers``, ``time_credit``, ``time_total``, ``think_times``; R8 ``p_destroy``,
    ``p_teleport``, ``p_convert``, ``defence_counts``; R10 ``max_turns``.
    """

    shape: Shape = (8, 16, 16)  # R1: (P, N, N)
    players: int = 4  # R3: 2..10
    budget: int | None = None  # R3: None = derived from credits_per_100
    credits_per_100: float = 12  # R3
    piece_types: TypeTable = field(default_factory=TypeTable)  # R2
    trait_costs: TraitCosts = field(default_factory=TraitCosts)  # R2
    teleport_field: int = 4  # R5
    teleport_network: Literal["own", "all"] = "own"  # R5: whose teleporters a mover may use
    p_destroy: float = 0.4  # R8
    p_teleport: float = 0.3  # R8
    p_convert: float = 0.3  # R8
    defence_counts: Literal["owner", "all"] = "owner"  # R8
    timers: bool = True  # R7
    time_credit: float = 60.0  # R7
    time_total: float = 250.0  # R7
    think_times: Literal["agent", "drawn"] = "agent"  # R7: reported by agents, or engine-drawn
    max_turns: int = 1000  # R10
    zones: bool = True  # R3

    def __post_init__(self) -> None:
        problems = self._problems()
        if problems:
            raise RulesError("invalid rules: " + "; ".join(problems))
        object.__setattr__(self, "shape", tuple(self.shape))

    def _problems(self) -> list[str]:
        """Every problem of the options, each in one phrase naming the option."""
        shape = self.shape
        if (
            not isinstance(shape, (tuple, list))
            or len(shape) != 3
            or not all(is_plain_int(v) for v in shape)
        ):
            return [f"shape must be (P, N, N) with integer sizes, got {shape!r}"]
        out = self._option_problems()
        return out or self._setup_problems()

    def _option_problems(self) -> list[str]:
        """Each option on its own: types and ranges (R1, R2, R3, R5, R7, R8, R10)."""
        out: list[str] = []
        p, n, n2 = self.shape
        if p < 1 or n < 2 or n != n2:
            out.append(
                f"shape must be (P, N, N) with P >= 1 and N >= 2 (R1), got {tuple(self.shape)}"
            )
        elif p > MAX_LAYERS or n > MAX_SIDE:
            out.append(
                f"shape must be (P, N, N) with P at most {MAX_LAYERS:,} and N at most "
                f"{MAX_SIDE:,} (R1), got ({p:,}, {n:,}, {n:,})"
            )
        if not is_plain_int(self.players) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            out.append(
                f"players must be an integer from {MIN_PLAYERS} to {MAX_PLAYERS}, got "
                f"{self.players!r}"
            )
        if self.budget is not None and (not is_plain_int(self.budget) or self.budget < 0):
            out.append(f"budget must be None or an integer >= 0, got {self.budget!r}")
        elif self.budget is not None and self.budget > MAX_BUDGET:
            out.append(f"budget must be at most {MAX_BUDGET:,}, got {self.budget:,}")
        if not is_plain_number(self.credits_per_100) or self.credits_per_100 < 0:
            out.append(f"credits_per_100 must be a number >= 0, got {self.credits_per_100!r}")
        out += self._table_problems()
        if not is_plain_int(self.teleport_field) or self.teleport_field < 1:
            out.append(f"teleport_field must be an integer >= 1, got {self.teleport_field!r}")
        elif self.teleport_field > MAX_MOVE:
            field = self.teleport_field
            out.append(f"teleport_field must be at most {MAX_MOVE:,}, got {field:,}")
        probs = (self.p_destroy, self.p_teleport, self.p_convert)
        if not all(is_plain_number(v) and v >= 0 for v in probs):
            out.append(f"p_destroy, p_teleport, p_convert must be numbers >= 0, got {probs}")
        elif not math.isclose(sum(probs), 1.0, rel_tol=0, abs_tol=1e-9):
            out.append(f"p_destroy + p_teleport + p_convert must be 1, got {sum(probs)!r}")
        for name in ("time_credit", "time_total"):
            value = getattr(self, name)
            if not is_plain_number(value) or value <= 0:
                out.append(f"{name} must be a number > 0, got {value!r}")
        if not is_plain_int(self.max_turns) or self.max_turns < 1:
            out.append(f"max_turns must be an integer >= 1, got {self.max_turns!r}")
        elif self.max_turns > MAX_TURNS:
            out.append(f"max_turns must be at most {MAX_TURNS:,}, got {self.max_turns:,}")
        return out + self._choice_problems()

    def _table_problems(self) -> list[str]:
        """R2: the piece and trait tables."""
        out: list[str] = []
        if not isinstance(self.piece_types, TypeTable):
            out.append(f"piece_types must be a TypeTable, got {self.piece_types!r}")
        else:
            out += self.piece_types.problems()
        if not isinstance(self.trait_costs, TraitCosts):
            out.append(f"trait_costs must be a TraitCosts, got {self.trait_costs!r}")
        else:
            out += self.trait_costs.problems()
        return out

    def _choice_problems(self) -> list[str]:
        """The options that choose between readings of the rules (R3, R5, R7, R8)."""
        out: list[str] = []
        choices = {
            "teleport_network": ("own", "all"),
            "defence_counts": ("owner", "all"),
            "think_times": ("agent", "drawn"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                words = " or ".join(repr(a) for a in allowed)
                out.append(f"{name} must be {words}, got {getattr(self, name)!r}")
        for name in ("timers", "zones"):
            if not isinstance(getattr(self, name), bool):
                out.append(f"{name} must be True or False, got {getattr(self, name)!r}")
        return out

    def _setup_problems(self) -> list[str]:
        """R3: room for the home zones, and a budget that buys a chief."""
        out: list[str] = []
        p, n, _ = self.shape
        if self.zones and home_zones(self.shape, self.players) is None:
            smallest = smallest_board_with_zones(self.players)
            out.append(
                f"a {p}×{n}×{n} board has no room for the home zones of {self.players} players "
                f"(R3: disjoint boxes of equal size, at least two cells apart; the smallest board "
                f"with room has N = {smallest}); use a larger board, or set the zones option off "
                "(zones=false) to place pieces anywhere"
            )
        if self.army_budget > MAX_BUDGET:
            out.append(
                f"credits_per_100 = {self.credits_per_100:g} gives a budget of more than "
                f"{MAX_BUDGET:,} points on a {p}×{n}×{n} board with {self.players} players"
            )
            return out
        cheapest_chief = min(
            self.piece_types.cost(kind) + self.trait_costs.chief for kind in PieceType
        )
        if self.army_budget < cheapest_chief:
            words = (
                f"the budget of {self.army_budget} cannot buy a chief (the cheapest costs "
                f"{cheapest_chief}, R3)"
            )
            if self.budget is None:
                out.append(
                    f"{words}: on a {p}×{n}×{n} board with {self.players} players, "
                    f"credits_per_100 = {self.credits_per_100:g} gives "
                    f"floor({self.credits_per_100:g} × {p * n * n} / 100 / {self.players}) = "
                    f"{self.army_budget}; set the budget option (budget={cheapest_chief} or more) "
                    "or raise credits_per_100"
                )
            else:
                out.append(f"{words}; set budget={cheapest_chief} or more")
        return out

    @cached_property
    def army_budget(self) -> int:
        """R3: each player's budget (``budget`` if set, else from ``credits_per_100``)."""
        if self.budget is not None:
            return self.budget
        return budget_from_credits(self.shape, self.players, self.credits_per_100)

    @cached_property
    def home_zones(self) -> list[Zone] | None:
        """R3: each seat's home zone, or None with ``zones=False``."""
        return home_zones(self.shape, self.players) if self.zones else None

    @cached_property
    def room(self) -> int:
        """R3: the most pieces one army can place: its home zone's cells (the zones are disjoint
        and of equal volume), or without zones the board's less one cell for each other
        player's chief. An army of more is refused at placement whatever it holds."""
        if self.home_zones:
            return max(zone.volume for zone in self.home_zones)
        p, n, m = self.shape
        return p * n * m - (self.players - 1)

    @cached_property
    def strength_table(self) -> npt.NDArray[np.int64]:
        """R2 strength per piece type, indexable by a piece-type code (read-only)."""
        return self._type_table("strength")

    @cached_property
    def move_table(self) -> npt.NDArray[np.int64]:
        """R2 move field per piece type, indexable by a piece-type code (read-only)."""
        return self._type_table("move")

    def _type_table(self, attr: str) -> npt.NDArray[np.int64]:
        table = np.array([getattr(self.piece_types[k], attr) for k in PieceType], dtype=np.int64)
        table.setflags(write=False)
        return table

    @property
    def tables(self) -> Tables:
        """These rules as numbers for the compiled core: a record (:func:`antipolix.jit.record`)
        of read-only arrays, made once per rules (kept outside the object, which stays
        picklable)."""
        got = _TABLES.get(self)
        if got is None:
            got = _TABLES[self] = packed(self._tables())
        return got

    def _tables(self) -> Tables:
        zones = np.zeros((self.players, 6), dtype=np.int64)
        for p, zone in enumerate(self.home_zones or ()):
            zones[p] = (*zone.lo, *zone.hi)
        cost = np.array([[self.piece_cost(k, t) for t in Trait] for k in PieceType], dtype=np.int64)
        type_cost = np.array([self.piece_types.cost(k) for k in PieceType], dtype=np.int64)
        outcomes = np.array([self.p_destroy, self.p_teleport, self.p_convert], dtype=np.float64)
        for arr in (zones, cost, type_cost, outcomes):
            arr.setflags(write=False)
        return Tables(
            shape=np.array(self.shape, dtype=np.int64),
            players=self.players,
            strength=self.strength_table,
            move=self.move_table,
            cost=cost,
            type_cost=type_cost,
            teleport_field=self.teleport_field,
            teleport_all=self.teleport_network == "all",
            outcomes=outcomes,
            defence_all=self.defence_counts == "all",
            timers=self.timers,
            initial_timer=self.initial_timer,
            think_drawn=self.think_times == "drawn",
            max_turns=self.max_turns,
            zones=zones,
            has_zones=self.zones,
            budget=self.army_budget,
        )

    @property
    def initial_timer(self) -> float:
        """R7: each player's starting credit, ``min(time_credit, time_total / n)`` seconds."""
        return float(min(self.time_credit, self.time_total / self.players))

    def piece_cost(self, kind: PieceType, trait: Trait) -> int:
        """R2: type cost + trait cost."""
        return self._item_costs[PieceType(kind), Trait(trait)]

    def army_cost(self, army: Iterable[ArmyItem]) -> int:
        """R2, R3: what the pieces of ``army`` cost together."""
        return sum(map(self._item_costs.__getitem__, army))

    @cached_property
    def _item_costs(self) -> dict[ArmyItem, int]:
        """``(type, trait)`` → cost (R2), worked out once: costs are asked for in hot loops."""
        return {
            (k, t): self.piece_types.cost(k) + self.trait_costs.cost(t)
            for k in PieceType
            for t in Trait
        }

    def check_army(self, player: int, army: Sequence[ArmyItem]) -> None:
        """R3: exactly one chief and total cost <= budget, or raise an :class:`ArmyError`
        naming the player and the reason."""
        chiefs = sum(1 for _, trait in army if trait is Trait.CHIEF)
        if chiefs != 1:
            found = "no chief" if chiefs == 0 else f"{chiefs} chiefs"
            raise ChiefError(f"player {player}'s army has {found} (R3: exactly one chief)")
        cost = self.army_cost(army)
        if cost > self.army_budget:
            raise OverBudgetError(
                f"player {player}'s army costs {cost}, over the budget of {self.army_budget} (R3)"
            )
