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
from functools import cache, cached_property
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from antipolix.agents.army import ArmyPolicy, RandomArmy
from antipolix.agents.memory import Choice
from antipolix.combat import defence_of
from antipolix.journal import NUL
from antipolix.messages import Command, Message
from antipolix.observation import Observation
from antipolix.orders import Attack, Move, Order, Pass
from antipolix.pieces import CHIEF as _CHIEF
from antipolix.pieces import TELEPORTER as _TELEPORTER
from antipolix.pieces import ArmyItem, PieceType
from antipolix.reach import Network, cached_network, destinations, reach_cells
from antipolix.rules import Rules
from antipolix.turn import ATTACK, MOVE
from antipolix.world import IntArray, Shape, indices, pairwise_distances


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
    _, n, m = shape
    zy, x = divmod(int(flat), m)
    z, y = divmod(zy, n)
    order: Order = Pass()
    if kind == MOVE:
        order = Move(int(piece), (z, y, x))
    elif kind == ATTACK:
        order = Attack([int(p) for p in pieces], (z, y, x))
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


@cache
def _strides(n: int, m: int) -> IntArray:
    """Multiply a cell ``(z, y, x)`` by this to get its flat index on a ``P × n × m`` board."""
    out = np.array([n * m, m, 1], dtype=np.int64)
    out.setflags(write=False)
    return out


class Sight:
    """An agent's reading of its observation, as arrays: own pieces, visible enemies, every
    (piece, cell) pair its pieces reach (R5), free cells and attackable targets (R4, R6).

    Reach uses what the agent can see: its own teleporters. Rows index the observation's arrays;
    cells are flat indices into the board (``np.ravel_multi_index(cell, rules.shape)``).
    """

    def __init__(self, rules: Rules, obs: Observation) -> None:
        self.rules = rules
        self.obs = obs
        self.shape = rules.shape
        p, n, m = self.shape
        self.flat: IntArray = obs.cells @ _strides(n, m)
        mine = obs.owners == obs.player
        self.own: IntArray = indices(mine)
        self.enemy: IntArray = indices(~mine)
        self.strengths: IntArray = rules.strength_table[obs.types]
        self.fields: IntArray = rules.move_table[obs.types]
        self.occupied = np.zeros(p * n * m, dtype=bool)
        self.occupied[self.flat] = True
        # other players' traits are hidden (UNKNOWN_TRAIT), so these are own pieces only (R6)
        tele = indices(obs.traits == _TELEPORTER)
        self.net: Network = cached_network(obs.ids[tele], obs.cells[tele], rules.teleport_field)
        chiefs = indices(obs.traits == _CHIEF)
        self.chief: int = int(chiefs[0]) if len(chiefs) else -1
        self.mobile: IntArray = self.own[self.fields[self.own] > 0]
        self.mobile_cells: IntArray = obs.cells[self.mobile]  # (k, 3)
        self.mobile_fields: IntArray = self.fields[self.mobile]
        self._reach: dict[int, IntArray] = {}

    def cell(self, flat: int) -> tuple[int, int, int]:
        """The ``(z, y, x)`` cell of a flat index."""
        _, n, m = self.shape
        zy, x = divmod(int(flat), m)
        z, y = divmod(zy, n)
        return z, y, x

    @cached_property
    def _near(self) -> npt.NDArray[np.bool_]:
        """Which own mobile pieces stand within radius 1 of an own teleporter (R5)."""
        if not len(self.net):
            return np.zeros(len(self.mobile), dtype=bool)
        cells = self.mobile_cells
        gap = pairwise_distances(cells, self.net.positions)
        near: npt.NDArray[np.bool_] = (gap == 1).any(axis=1)
        return near

    def reach(self, row: int) -> IntArray:
        """Sorted flat cells the own piece in observation row ``row`` reaches (R5, cached)."""
        if row not in self._reach:
            self._reach[row] = reach_cells(
                self.shape, self.obs.cells[row], int(self.fields[row]), self.net
            )
        return self._reach[row]

    def free_reach(self, row: int) -> IntArray:
        """Flat cells the piece in ``row`` may move to: reached and (as far as it sees) free.

        An enemy invisible piece's cell looks free, and moving there is legal (it crushes, R6).
        """
        flat = self.reach(row)
        out: IntArray = flat[~self.occupied[flat]]
        return out

    def reaches_matrix(self, cells: IntArray) -> npt.NDArray[np.bool_]:
        """``[i, j]``: does own mobile piece ``mobile[i]`` reach ``cells[j]`` (``(k, 3)``)? (R5)"""
        pos = self.mobile_cells
        fields = self.mobile_fields[:, None]
        d = pairwise_distances(pos, cells)
        hit: npt.NDArray[np.bool_] = (d >= 1) & (d <= fields)
        for i in indices(self._near).tolist():
            dests = destinations(pos[i], self.net)
            dd = pairwise_distances(dests, cells)
            hit[i] |= ((dd >= 1) & (dd <= fields[i])).any(axis=0)
        return hit

    @cached_property
    def target_matrix(self) -> npt.NDArray[np.bool_]:
        """``[i, j]``: does own mobile piece ``mobile[i]`` reach visible enemy ``enemy[j]``? (R5)"""
        if not len(self.enemy) or not len(self.mobile):
            return np.zeros((len(self.mobile), len(self.enemy)), dtype=bool)
        return self.reaches_matrix(self.obs.cells[self.enemy])

    @cached_property
    def targets(self) -> dict[int, IntArray]:
        """Each visible enemy row that own pieces reach → the rows of those pieces (sorted)."""
        hit = self.target_matrix
        return {int(self.enemy[j]): self.mobile[hit[:, j]] for j in indices(hit.any(axis=0))}

    def attackers_of(self, cell: Sequence[int]) -> list[int]:
        """Rows of own mobile pieces that reach ``cell``, in row order."""
        hit = self.reaches_matrix(np.asarray(cell, dtype=np.int64).reshape(1, 3))[:, 0]
        return [int(r) for r in self.mobile[hit]]

    @cached_property
    def move_boxes(self) -> tuple[IntArray, IntArray, IntArray]:
        """``(lo, hi, size)`` per own mobile piece: the candidate cells of its moves.

        For a piece next to no teleporter, the box ``lo <= cell < hi`` around it (its reach is
        the box minus its own cell); for the others, ``size`` is the length of its reach.
        Together with :meth:`candidate` this lets an agent draw a uniform legal move by
        rejection, without listing every move.
        """
        pos = self.mobile_cells
        r = self.mobile_fields[:, None]
        lo = np.maximum(pos - r, 0)
        hi = np.minimum(pos + r + 1, np.asarray(self.shape))
        side = hi - lo
        size = side[:, 0] * side[:, 1] * side[:, 2]
        for i in indices(self._near).tolist():
            size[i] = len(self.reach(int(self.mobile[i])))
        return lo, hi, size

    def candidate(self, i: int, k: int) -> int:
        """The ``k``-th candidate cell (flat) of own mobile piece ``mobile[i]``; it is a legal
        move iff it is free (:attr:`occupied`), the piece's own cell being occupied."""
        if self._near[i]:
            return int(self.reach(int(self.mobile[i]))[k])
        lo, hi, _ = self.move_boxes
        _, dy, dx = hi[i] - lo[i]
        z, rest = divmod(k, int(dy * dx))
        y, x = divmod(rest, int(dx))
        return int(((lo[i, 0] + z) * self.shape[1] + lo[i, 1] + y) * self.shape[2] + lo[i, 2] + x)

    def power(self, rows: Sequence[int] | IntArray) -> int:
        """R8 attack power of the given own rows."""
        return int(self.strengths[np.asarray(rows, dtype=np.int64)].sum())

    def visible_defence(self, row: int) -> int:
        """R8 defence of the piece in ``row`` as far as this player can see."""
        obs = self.obs
        return defence_of(self.strengths, obs.owners, obs.cells, row, self.rules.defence_counts)
