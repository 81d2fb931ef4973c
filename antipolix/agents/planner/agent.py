"""The planner agent: :class:`PlannerAgent`, the Python face of :func:`planner_act`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from antipolix.agents.army import ArmyPolicy, FixedArmy
from antipolix.agents.base import Decision, decision_of, unit_strength
from antipolix.agents.planner.decision import planner_act_held
from antipolix.agents.planner.weights import (
    DEFAULT_WEIGHTS,
    WEIGHT_NAMES,
    FloatArray,
    weight_vector,
)
from antipolix.agents.scripted import Remembering
from antipolix.jit import packed
from antipolix.observation import Observation, seen_of
from antipolix.rules import Rules

TABLES = range(2, 11)  # the table sizes an agent may be set up for (R1: 2 to 10 players)


class PlannerAgent(Remembering):
    """One-ply lookahead over every winning attack and every move, in expectation over R8.

    See the module docstring for what it evaluates. Decides from its observation only (R6),
    remembering per game (state made in :meth:`setup`) which enemy pieces moved, the hidden
    defence its failed attacks revealed and where invisible enemies attacked it.

    Think time: uniform in ``[min_think, max_think)`` seconds (R7), by default ``[0.2, 1.5)``,
    the same as :class:`~antipolix.agents.GreedyAgent`, so that a win comes from play, not from
    the clock. Default army: armies and hovercraft in the ratio 4 : 1 with an army chief (R2:
    armies give the most strength per point; one hovercraft in five, field 2, attacks from two
    cells away and runs down a fleeing chief): 34 armies and 8 hovercraft in a two-player
    game, 16 and 5 in a four-player one; the first hovercraft comes after four armies, so a
    small budget buys armies only.

    ``weights``: the position value's weights (:data:`WEIGHTS`), by name; the ones not given
    keep their defaults. A tuning study (:mod:`antipolix.tuning`) searches them.
    """

    # (stored studies, tournaments and replays name it antipolix.agents.planner.PlannerAgent,
    # as before the planner became a package: the package exports it)
    __module__ = "antipolix.agents.planner"

    name = "planner"

    def __init__(
        self,
        army: ArmyPolicy | None = None,
        min_think: float = 0.2,
        max_think: float = 1.5,
        weights: Mapping[str, float] | None = None,
    ) -> None:
        super().__init__(army)
        if not 0 <= min_think <= max_think:
            raise ValueError(f"need 0 <= min_think <= max_think, got {min_think}, {max_think}")
        self.min_think = float(min_think)
        self.max_think = float(max_think)
        self.weights = weight_vector(self.base_weights(), weights)
        self.given = None if weights is None else dict(weights)  # checked by weight_vector
        self.playing = self.weights  # the weights of the game it is set up for

    def base_weights(self, players: int = 2) -> FloatArray:
        """The weights that those not given keep, at a table of ``players``."""
        return DEFAULT_WEIGHTS

    def weights_for(self, players: int) -> FloatArray:
        """The weights it plays with at a table of ``players``: the base weights for that
        many players with the ones given set (``weights`` itself when the base is the same)."""
        base = self.base_weights(players)
        return self.weights if base is self.base_weights() else weight_vector(base, self.given)

    def default_army(self) -> ArmyPolicy:
        return FixedArmy({"army": 4, "hovercraft": 1})

    def params(self) -> dict[str, Any]:
        """Its think times and the weights it plays with that differ from its base weights
        at some table (2 to 10 players): what makes the same agent again."""
        out: dict[str, Any] = {"min_think": self.min_think, "max_think": self.max_think}
        differs = np.zeros(len(WEIGHT_NAMES), dtype=np.bool_)
        for players in TABLES:
            differs |= self.weights_for(players) != self.base_weights(players)
        changed = {
            name: float(v)
            for name, v, d in zip(WEIGHT_NAMES, self.weights, differs, strict=True)
            if d
        }
        if changed:
            out["weights"] = changed
        return out

    def setup(self, rules: Rules, seat: int, rng: np.random.Generator) -> None:
        super().setup(rules, seat, rng)
        self.unit = unit_strength(rules)
        self.playing = self.weights_for(rules.players)

    def act(self, obs: Observation) -> Decision:
        seen = packed(seen_of(obs, self.rules.shape))
        choice = planner_act_held(
            self.rules.tables,
            seen,
            self._memory,
            self.min_think,
            self.max_think,
            self.playing,
            self._held,
        )
        return decision_of(choice, self.rules.shape)

    def attacker_strength(self, pid: int) -> int:
        """R2 strength of an enemy piece named in an attack on this player: its type's, as last
        seen; one unit if it was never seen (it cannot be stronger than the strongest type)."""
        types = self.remembered.seen_type
        if not 0 <= pid < len(types) or types[pid] < 0:
            return self.unit
        return int(self.rules.strength_table[types[pid]])
