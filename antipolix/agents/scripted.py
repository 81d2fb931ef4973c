"""Two built-in scripted players: a random one and a greedy aggressor.

Both decide from their own observation only (R12) and draw every choice from their own generator.
"""

from __future__ import annotations

import numpy as np

from antipolix.agents.base import Agent, Decision, View
from antipolix.armies import ArmyItem
from antipolix.observation import Observation
from antipolix.orders import Attack, Move, Pass
from antipolix.pieces import PieceType, Trait


def _buy(
    agent: Agent, chief: ArmyItem, menu: list[ArmyItem], weights: list[float]
) -> list[ArmyItem]:
    """A chief, then random purchases from ``menu`` while anything is affordable."""
    rules = agent.rules
    army = [chief]
    left = rules.army_budget - rules.piece_cost(*chief)
    p = np.asarray(weights, dtype=float)
    while True:
        affordable = np.array([rules.piece_cost(k, t) <= left for k, t in menu])
        if not affordable.any():
            return army
        w = np.where(affordable, p, 0.0)
        if w.sum() == 0:
            return army
        kind, trait = menu[int(agent.rng.choice(len(menu), p=w / w.sum()))]
        cost = rules.piece_cost(kind, trait)
        if cost == 0 and len(army) >= 64:  # free pieces: stop somewhere
            return army
        army.append((kind, trait))
        left -= cost


class RandomAgent(Agent):
    """Buys a random army; each turn attacks a random reachable enemy (half the time, when it
    can), else moves a random piece to a random free cell it reaches."""

    name = "random"

    def army(self) -> list[ArmyItem]:
        chief_type = [PieceType.ARMY, PieceType.HOVERCRAFT][int(self.rng.integers(2))]
        menu = [(k, t) for k in PieceType for t in (Trait.NONE, Trait.INVISIBLE, Trait.TELEPORTER)]
        weights = [4.0 if t is Trait.NONE else 1.0 for _, t in menu]
        return _buy(self, (chief_type, Trait.CHIEF), menu, weights)

    def act(self, obs: Observation) -> Decision:
        view = View(self.rules, obs)
        think = float(self.rng.exponential(1.0))
        if len(view.enemy) and self.rng.random() < 0.5:
            targets = [int(r) for r in view.enemy if view.attackers_of(obs.cells[r])]
            if targets:
                row = targets[int(self.rng.integers(len(targets)))]
                cell = tuple(int(c) for c in obs.cells[row])
                pieces = [int(obs.ids[r]) for r in view.attackers_of(cell)]
                return Decision(Attack(pieces, cell), think)  # type: ignore[arg-type]
        movers = [int(r) for r in view.own if obs.types[r] != PieceType.FORTRESS]
        for _ in range(4):
            if not movers:
                break
            row = movers[int(self.rng.integers(len(movers)))]
            cells = view.free_cells(row)
            if cells:
                cell = cells[int(self.rng.integers(len(cells)))]
                return Decision(Move(int(obs.ids[row]), cell), think)
        return Decision(Pass(), think)


class GreedyAgent(Agent):
    """Attacks whenever its pieces can beat the defence it sees, picking the widest margin;
    otherwise advances the non-chief piece nearest to an enemy. Its chief stays back."""

    name = "greedy"

    def army(self) -> list[ArmyItem]:
        menu = [
            (PieceType.ARMY, Trait.NONE),
            (PieceType.HOVERCRAFT, Trait.NONE),
            (PieceType.ARMY, Trait.INVISIBLE),
        ]
        return _buy(self, (PieceType.ARMY, Trait.CHIEF), menu, [3.0, 2.0, 1.0])

    def act(self, obs: Observation) -> Decision:
        view = View(self.rules, obs)
        think = float(self.rng.uniform(0.2, 1.5))
        if not len(view.enemy):
            return Decision(Pass(), think)
        best: tuple[int, int, Attack] | None = None
        for row in view.enemy:
            cell = tuple(int(c) for c in obs.cells[row])
            rows = view.attackers_of(cell)
            if not rows:
                continue
            margin = sum(view.strength(r) for r in rows) - view.visible_defence(int(row))
            if margin > 0:
                key = (margin, -len(rows))
                if best is None or key > best[:2]:
                    attack = Attack([int(obs.ids[r]) for r in rows], cell)  # type: ignore[arg-type]
                    best = (key[0], key[1], attack)
        if best is not None:
            return Decision(best[2], think)
        enemies = obs.cells[view.enemy]
        movers = [
            int(r)
            for r in view.own
            if obs.types[r] != PieceType.FORTRESS and obs.traits[r] != Trait.CHIEF
        ]
        if not movers:
            return Decision(Pass(), think)
        gaps = [int(np.abs(enemies - obs.cells[r]).max(axis=1).min()) for r in movers]
        for i in np.argsort(gaps, kind="stable"):
            mover = movers[int(i)]
            cells = view.free_cells(mover)
            if not cells:
                continue
            arr = np.asarray(cells)
            dist = np.abs(arr[:, None, :] - enemies[None, :, :]).max(axis=2).min(axis=1)
            closest = np.flatnonzero(dist == dist.min())
            pick = cells[int(closest[int(self.rng.integers(len(closest)))])]
            if dist.min() < gaps[int(i)]:
                return Decision(Move(int(obs.ids[mover]), pick), think)
        return Decision(Pass(), think)


AGENTS: dict[str, type[Agent]] = {cls.name: cls for cls in (RandomAgent, GreedyAgent)}
