"""Two built-in scripted players: a random one and a greedy aggressor.

Both decide from their own observation only (R6, R12) and draw every choice from their own
generator.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from antipolix.agents.army import ArmyPolicy, FixedArmy
from antipolix.agents.base import Agent, Decision
from antipolix.events import Combat
from antipolix.observation import Observation
from antipolix.orders import Attack, Move, Pass
from antipolix.pieces import PieceType
from antipolix.world import IntArray, indices
from tests.oracle.agents.base import View

MEMORY = 10  # turns a greedy agent remembers the defence a failed attack revealed


class RandomAgent(Agent):
    """A uniformly random legal order and a random army.

    The orders it draws from, all equally likely: ``Pass``; every move of an own piece to a free
    cell it reaches (R4, R5); and one attack per visible enemy piece in reach, made by every own
    piece that reaches it. Think time: exponential with mean ``mean_think`` seconds (R7).
    """

    name = "random"

    def __init__(self, army: ArmyPolicy | None = None, mean_think: float = 1.0) -> None:
        super().__init__(army)
        self.mean_think = float(mean_think)

    def params(self) -> dict[str, Any]:
        return {"mean_think": self.mean_think}

    def act(self, obs: Observation) -> Decision:
        view = View(self.rules, obs)
        think = float(self.rng.exponential(self.mean_think))
        ends = np.cumsum(view.move_boxes[2])
        total = int(ends[-1]) if len(ends) else 0
        enemies = len(view.enemy)
        # uniform by rejection: draw among every move candidate, every visible enemy and Pass;
        # draw again on a move to an occupied cell or an enemy no own piece reaches
        while True:
            k = int(self.rng.integers(total + enemies + 1))
            if k < total:
                i = int(np.searchsorted(ends, k, side="right"))
                flat = view.candidate(i, k - (int(ends[i - 1]) if i else 0))
                if not view.occupied[flat]:
                    return Decision(Move(int(obs.ids[view.mobile[i]]), view.cell(flat)), think)
            elif k < total + enemies:
                row = int(view.enemy[k - total])
                attackers = view.attackers_of(obs.cells[row])
                if attackers:
                    ids = [int(obs.ids[r]) for r in attackers]
                    return Decision(Attack(ids, view.cell(view.flat[row])), think)
            else:
                return Decision(Pass(), think)


class GreedyAgent(Agent):
    """Attacks when it can beat the defence it sees; guards its chief; otherwise advances.

    Each turn, in this order:

    1. If its chief is threatened (the visible enemy pieces that could reach it next turn are
       stronger than its defence), it attacks one of the threatening pieces if it can win, else
       moves the chief to the free cell farthest from enemies.
    2. Otherwise it makes the best winning attack (attack power > visible defence, R8), ranked by:
       suspected enemy chief (an enemy mobile piece never seen to move), target value (its
       type's cost), margin.
    3. Otherwise it advances: the non-chief piece nearest an enemy moves to the reachable free
       cell nearest an enemy (teleporters included, R5). The chief stays back unless no other
       piece can advance; then it joins in.
    4. Still nothing: a random non-chief piece drifts to a random free cell no farther from the
       enemy (stand-offs where no attack can win do not last to the turn limit).

    Think time: uniform in ``[0.2, 1.5)`` seconds (R7). Default army: a fixed mix of armies,
    hovercraft and invisible armies in the ratio 3 : 2 : 1.
    """

    name = "greedy"

    def default_army(self) -> ArmyPolicy:
        return FixedArmy({"army": 3, "hovercraft": 2, "army+invisible": 1})

    def setup(self, rules: Any, seat: int, rng: np.random.Generator) -> None:
        super().setup(rules, seat, rng)
        self._first_cell: dict[int, int] = {}  # enemy piece id → the first cell it was seen on
        self._moved: set[int] = set()
        self._failed: dict[int, tuple[int, int]] = {}  # target id → (turn, defence it showed)

    def act(self, obs: Observation) -> Decision:
        view = View(self.rules, obs)
        think = float(self.rng.uniform(0.2, 1.5))
        self._remember(view)
        if not len(view.enemy):
            return Decision(Pass(), think)
        order = (
            self._guard(view)
            or self._best_attack(view)
            or self._advance(view, view.mobile[view.mobile != view.chief])
            or self._advance(view, view.mobile)  # stuck: the chief joins in
            or self._drift(view)
        )
        return Decision(order or Pass(), think)

    def _remember(self, view: View) -> None:
        for pid, flat in zip(
            view.obs.ids[view.enemy].tolist(), view.flat[view.enemy].tolist(), strict=True
        ):
            if self._first_cell.setdefault(pid, flat) != flat:
                self._moved.add(pid)
        for event in view.obs.events:
            if isinstance(event, Combat) and event.player == self.seat and not event.success:
                self._failed[event.target] = (view.obs.turn, event.defence)

    def _score(self, view: View, row: int) -> tuple[int, int]:
        """Target ranking: (suspected chief, type cost)."""
        kind = PieceType(int(view.obs.types[row]))
        suspect = kind is not PieceType.FORTRESS and int(view.obs.ids[row]) not in self._moved
        return int(suspect), self.rules.piece_types.cost(kind)

    def _winning(self, view: View, rows: IntArray | list[int]) -> list[tuple[Any, Attack]]:
        out = []
        for row in rows:
            attackers = view.targets.get(int(row))
            if attackers is None:
                continue
            defence = view.visible_defence(int(row))
            turn, shown = self._failed.get(int(view.obs.ids[row]), (-MEMORY, 0))
            if view.obs.turn - turn < MEMORY:  # hidden (invisible) defenders seen in combat
                defence = max(defence, shown)
            margin = view.power(attackers) - defence
            if margin > 0:
                key = (*self._score(view, int(row)), margin, -len(attackers))
                ids = [int(i) for i in view.obs.ids[attackers]]
                out.append((key, Attack(ids, view.cell(view.flat[row]))))
        return out

    def _best_attack(self, view: View) -> Attack | None:
        options = self._winning(view, list(view.targets))
        return max(options, key=lambda o: o[0])[1] if options else None

    def _guard(self, view: View) -> Move | Attack | None:
        if view.chief < 0:
            return None
        obs = view.obs
        here = obs.cells[view.chief]
        gap = np.abs(obs.cells[view.enemy] - here).max(axis=1)
        threats = view.enemy[gap <= view.fields[view.enemy] + 1]
        if not len(threats):
            return None
        defence = view.visible_defence(view.chief)
        strongest = max(
            int(view.strengths[threats[obs.owners[threats] == owner]].sum())
            for owner in np.unique(obs.owners[threats])
        )
        if strongest < defence:
            return None
        options = self._winning(view, threats)
        if options:
            return max(options, key=lambda o: o[0])[1]
        mine = view.free_reach(view.chief)
        if not len(mine):
            return None
        cells = np.stack(np.unravel_index(mine, view.shape), axis=1)
        far = np.abs(cells[:, None, :] - obs.cells[view.enemy][None, :, :]).max(axis=2).min(axis=1)
        if far.max() <= gap.min():
            return None
        best = indices(far == far.max())
        pick = int(mine[best[int(self.rng.integers(len(best)))]])
        return Move(int(obs.ids[view.chief]), view.cell(pick))

    def _drift(self, view: View) -> Move | None:
        """Still stuck (no winning attack, nobody can get nearer): a random non-chief piece
        steps to a random free cell no farther from the enemy, so stand-offs do not last."""
        movers = view.mobile[view.mobile != view.chief]
        if not len(movers):
            return None
        row = int(movers[int(self.rng.integers(len(movers)))])
        mine = view.free_reach(row)
        if not len(mine):
            return None
        enemies = view.obs.cells[view.enemy]
        now = int(np.abs(enemies - view.obs.cells[row]).max(axis=1).min())
        cells = np.stack(np.unravel_index(mine, view.shape), axis=1)
        after = np.abs(cells[:, None, :] - enemies[None]).max(axis=2).min(axis=1)
        keep = mine[after <= now]
        if not len(keep):
            return None
        return Move(int(view.obs.ids[row]), view.cell(int(keep[int(self.rng.integers(len(keep)))])))

    def _advance(self, view: View, movers: IntArray) -> Move | None:
        obs = view.obs
        if not len(movers):
            return None
        enemies = obs.cells[view.enemy]
        now = np.abs(obs.cells[movers][:, None, :] - enemies[None]).max(axis=2).min(axis=1)
        for i in np.argsort(now, kind="stable").tolist():  # the piece nearest an enemy first
            mine = view.free_reach(int(movers[i]))
            if not len(mine):
                continue
            cells = np.stack(np.unravel_index(mine, view.shape), axis=1)
            after = np.abs(cells[:, None, :] - enemies[None]).max(axis=2).min(axis=1)
            if after.min() < now[i]:  # then the cell nearest an enemy
                best = indices(after == after.min())
                pick = int(mine[best[int(self.rng.integers(len(best)))]])
                return Move(int(obs.ids[movers[i]]), view.cell(pick))
        return None
