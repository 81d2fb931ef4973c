"""What an agent is, and the helpers built-in agents share.

An agent plays one seat of one game. It is built with the rules, its seat and its own generator
(spawned from the game's seed, R12), chooses an army, then each turn turns its observation (R6) and
nothing else into a :class:`Decision`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from antipolix.armies import ArmyItem
from antipolix.messages import Command, Message
from antipolix.observation import Observation
from antipolix.orders import Order, Pass
from antipolix.pieces import PieceType, Trait
from antipolix.reach import Network, network, reach_cells
from antipolix.rules import Rules
from antipolix.world import IntArray


@dataclass(frozen=True, slots=True)
class Decision:
    """One turn of one agent: its order, its (simulated) think time, its messages (R4, R7, R9)."""

    order: Order = field(default_factory=Pass)
    think_time: float = 0.0
    messages: tuple[Message | Command, ...] = ()


class Agent:
    """Base class of agents. Subclasses set ``name`` and override :meth:`army` and :meth:`act`."""

    name = "agent"

    def __init__(self, rules: Rules, player: int, rng: np.random.Generator) -> None:
        self.rules = rules
        self.player = player
        self.rng = rng

    def army(self) -> list[ArmyItem]:
        raise NotImplementedError

    def act(self, obs: Observation) -> Decision:
        raise NotImplementedError


class View:
    """An agent's reading of its observation: own pieces, visible enemies, reach (R5, R6).

    Reach uses only what the agent can see: its own teleporters.
    """

    def __init__(self, rules: Rules, obs: Observation) -> None:
        self.rules = rules
        self.obs = obs
        self.own = np.flatnonzero(obs.owners == obs.player)
        self.enemy = np.flatnonzero(obs.owners != obs.player)
        self.occupied = {tuple(int(v) for v in c) for c in obs.cells}
        tele = self.own[obs.traits[self.own] == Trait.TELEPORTER]
        self.net: Network = network(obs.ids[tele], obs.cells[tele], rules.teleport_field)
        self._reach: dict[int, IntArray] = {}
        self._reached_by: tuple[IntArray, IntArray] | None = None

    def move_field(self, row: int) -> int:
        return int(self.rules.move_table[self.obs.types[row]])

    def strength(self, row: int) -> int:
        return int(self.rules.strength_table[self.obs.types[row]])

    def reach(self, row: int) -> IntArray:
        """Flat cells the piece in observation row ``row`` reaches (cached)."""
        if row not in self._reach:
            self._reach[row] = reach_cells(
                self.rules.shape, self.obs.cells[row], self.move_field(row), self.net
            )
        return self._reach[row]

    def free_cells(self, row: int) -> list[tuple[int, int, int]]:
        flat = self.reach(row)
        z, y, x = np.unravel_index(flat, self.rules.shape)
        cells = zip(z.tolist(), y.tolist(), x.tolist(), strict=True)
        return [c for c in cells if c not in self.occupied]

    def attackers_of(self, cell: Sequence[int]) -> list[int]:
        """Rows of own mobile pieces that reach ``cell``, in row order."""
        if self._reached_by is None:
            rows = [int(r) for r in self.own if self.obs.types[r] != PieceType.FORTRESS]
            cells = [self.reach(r) for r in rows]
            flat = np.concatenate(cells) if cells else np.zeros(0, dtype=np.int64)
            who = np.repeat(np.asarray(rows, dtype=np.int64), [len(c) for c in cells])
            order = np.argsort(flat, kind="stable")
            self._reached_by = (flat[order], who[order])
        flat_sorted, who_sorted = self._reached_by
        key = int(np.ravel_multi_index(tuple(int(c) for c in cell), self.rules.shape))
        lo, hi = np.searchsorted(flat_sorted, [key, key + 1])
        return sorted(int(r) for r in who_sorted[lo:hi])

    def visible_defence(self, row: int) -> int:
        """The defence of an enemy piece as far as this player can see (R8, owner counting)."""
        cell = self.obs.cells[row]
        near = np.abs(self.obs.cells - cell).max(axis=1) <= 1
        if self.rules.defence_counts == "owner":
            near &= self.obs.owners == self.obs.owners[row]
        return int(sum(self.strength(int(r)) for r in np.flatnonzero(near)))
