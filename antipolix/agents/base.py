"""What an agent is, and the helpers built-in agents share.

An agent object describes a player: its parameters and its army policy. For each game it plays,
:func:`antipolix.play` copies it, gives the copy the rules, its seat and its own generator
(spawned from the game's seed, R12), asks for an army, then each turn turns its observation (R6)
and nothing else into a :class:`Decision`.

A minimal agent:

>>> from antipolix.orders import Pass
>>> class Idle(Agent):
...     name = "idle"
...     def act(self, obs):
...         return Decision(Pass(), think_time=1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from antipolix.agents import sight
from antipolix.agents.army import ArmyPolicy, RandomArmy
from antipolix.agents.memory import Choice
from antipolix.jit import packed, unpacked
from antipolix.journal import NUL
from antipolix.messages import Command, Message
from antipolix.observation import Observation, seen_of
from antipolix.orders import Attack, Move, Order, Pass
from antipolix.pieces import ArmyItem, PieceType
from antipolix.rules import Rules
from antipolix.turn import ATTACK, MOVE
from antipolix.world import IntArray, Shape, cell_of, indices


@dataclass(frozen=True, slots=True)
class Decision:
    """One turn of one agent: its order, its (simulated) think time, its messages (R4, R7, R9)."""

    order: Order = field(default_factory=Pass)
    think_time: float = 0.0
    messages: tuple[Message | Command, ...] = ()


class Agent:
    """Base class of agents: a small, picklable description of a player.

    An agent object holds only its parameters and its army policy; :func:`antipolix.play`
    copies it for each seat of each game and calls :meth:`setup` on the copy, so one object can
    sit in several seats and several games (and be shipped to Ray workers). After ``setup`` the
    copy has ``rules``, ``seat`` and ``rng`` (its own generator spawned from the game seed, R12).

    Subclasses set ``name`` and override :meth:`act`; they may override :meth:`default_army`.
    ``act`` sees the player's observation only (R6) and returns a :class:`Decision` (or a bare
    order, read as a decision with think time 0).
    """

    name: ClassVar[str] = "agent"
    label: str | None = None  # set on a copy that must go by another name in a study or ladder

    def __init__(self, army: ArmyPolicy | None = None) -> None:
        self.army_policy: ArmyPolicy = army if army is not None else self.default_army()

    def default_army(self) -> ArmyPolicy:
        return RandomArmy()

    def setup(self, rules: Rules, seat: int, rng: np.random.Generator) -> None:
        """Called on the per-game copy before the army is chosen."""
        self.rules = rules
        self.seat = seat
        self.rng = rng

    def army(self) -> list[ArmyItem]:
        """R3: the pieces to place, from the army policy (checked by the engine)."""
        return self.army_policy.choose(self.rules, self.rng)

    def act(self, obs: Observation) -> Decision | Order:
        raise NotImplementedError(f"{type(self).__name__} must define act(observation)")

    def params(self) -> dict[str, Any]:
        """The agent's own parameters (JSON-ready), recorded in replays and result tables."""
        return {}

    def spec(self) -> dict[str, Any]:
        """Everything needed to rebuild a built-in agent: name, parameters, army policy."""
        return {"name": self.name, "params": self.params(), "army": self.army_policy.spec()}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"


def decision_of(choice: Choice, shape: Shape) -> Decision:
    """A compiled agent's :data:`~antipolix.agents.memory.Choice` as a :class:`Decision`."""
    kind, piece, flat, pieces, think, command = choice
    order: Order = Pass()
    if kind == MOVE:
        order = Move(int(piece), cell_of(shape, flat))
    elif kind == ATTACK:
        order = Attack([int(p) for p in pieces], cell_of(shape, flat))
    messages: tuple[Command, ...] = ()
    if command >= 0:
        messages = (Command.NUL if command == NUL else Command.WAR,)
    return Decision(order, float(think), messages)


def unit_strength(rules: Rules) -> int:
    """R2: the strength of the strongest piece type that can attack (a fortress never does), at
    least 1: the unit in which agents measure margins of power, so that re-balanced strengths
    re-scale them instead of meeting numbers written for the 1995 table."""
    mobile = [rules.piece_types[k].strength for k in PieceType if rules.piece_types[k].move > 0]
    return max([1, *mobile])


class Sight:
    """An agent's reading of its observation (the Python face of
    :mod:`antipolix.agents.sight`, which the built-in agents use compiled): own pieces, visible
    enemies, every (piece, cell) pair its pieces reach (R5), free cells and attackable targets
    (R4, R6).

    Reach uses what the agent can see: its own teleporters. Rows index the observation's arrays;
    cells are flat indices into the board (``np.ravel_multi_index(cell, rules.shape)``).
    """

    def __init__(self, rules: Rules, obs: Observation) -> None:
        self.rules = rules
        self.obs = obs
        self.shape = rules.shape
        self._record = sight.sight_k(rules.tables, packed(seen_of(obs, rules.shape)))
        view = unpacked(self._record)
        self.flat: IntArray = view.flat
        self.own: IntArray = view.own
        self.enemy: IntArray = view.enemy
        self.strengths: IntArray = view.strengths
        self.fields: IntArray = view.fields
        self.occupied: npt.NDArray[np.bool_] = view.occupied
        self.chief: int = int(view.chief)
        self.mobile: IntArray = view.mobile
        self.mobile_cells: IntArray = obs.cells[self.mobile]  # (k, 3)
        self.mobile_fields: IntArray = self.fields[self.mobile]

    def cell(self, flat: int) -> tuple[int, int, int]:
        """The ``(z, y, x)`` cell of a flat index."""
        return cell_of(self.shape, flat)

    def reach(self, row: int) -> IntArray:
        """Sorted flat cells the own piece in observation row ``row`` reaches (R5)."""
        out: IntArray = sight.reach(self._record, row)
        return out

    def free_reach(self, row: int) -> IntArray:
        """Flat cells the piece in ``row`` may move to: reached and (as far as it sees) free.

        An enemy invisible piece's cell looks free, and moving there is legal (it crushes, R6).
        """
        out: IntArray = sight.free_reach(self._record, row)
        return out

    def reaches_matrix(self, cells: IntArray) -> npt.NDArray[np.bool_]:
        """``[i, j]``: does own mobile piece ``mobile[i]`` reach ``cells[j]`` (``(k, 3)``)? (R5)"""
        grid = np.ascontiguousarray(cells, dtype=np.int64).reshape(-1, 3)
        out: npt.NDArray[np.bool_] = sight.reach_matrix(self._record, grid)
        return out

    @cached_property
    def target_matrix(self) -> npt.NDArray[np.bool_]:
        """``[i, j]``: does own mobile piece ``mobile[i]`` reach visible enemy ``enemy[j]``? (R5)"""
        out: npt.NDArray[np.bool_] = sight.target_matrix(self._record)
        return out

    @cached_property
    def targets(self) -> dict[int, IntArray]:
        """Each visible enemy row that own pieces reach → the rows of those pieces (sorted)."""
        hit = self.target_matrix
        return {int(self.enemy[j]): self.mobile[hit[:, j]] for j in indices(hit.any(axis=0))}

    def attackers_of(self, cell: Sequence[int]) -> list[int]:
        """Rows of own mobile pieces that reach ``cell``, in row order."""
        z, y, x = (int(c) for c in cell)
        return [int(r) for r in sight.attackers_of(self._record, z, y, x)]

    @cached_property
    def move_boxes(self) -> tuple[IntArray, IntArray, IntArray]:
        """``(lo, hi, size)`` per own mobile piece: the candidate cells of its moves.

        For a piece next to no teleporter, the box ``lo <= cell < hi`` around it (its reach is
        the box minus its own cell); for the others, ``size`` is the length of its reach.
        Together with :meth:`candidate` this lets an agent draw a uniform legal move by
        rejection, without listing every move.
        """
        lo, hi, size = sight.move_boxes(self._record)
        return lo, hi, size

    def candidate(self, i: int, k: int) -> int:
        """The ``k``-th candidate cell (flat) of own mobile piece ``mobile[i]``; it is a legal
        move iff it is free (:attr:`occupied`), the piece's own cell being occupied."""
        lo, hi, _ = self.move_boxes
        return int(sight.candidate(self._record, lo, hi, i, k))

    def power(self, rows: Sequence[int] | IntArray) -> int:
        """R8 attack power of the given own rows."""
        return int(self.strengths[np.asarray(rows, dtype=np.int64)].sum())

    def visible_defence(self, row: int) -> int:
        """R8 defence of the piece in ``row`` as far as this player can see."""
        return int(sight.visible_defence(self._record, self.rules.tables, row))
