"""Sight's built-in agents (:class:`antipolix.games.protocol.GameAgent`).

- ``random``: uniform over the legal actions: ``legal[floor(u·k)]`` for one ``u =
  rng.random()`` a decision;

Every agent draws only with ``rng.random()``, a fixed number of times per decision, so that the
batch path (:mod:`antipolix.games.sight.batch`) plays the same games from the same seeds with
its compiled generators (:mod:`antipolix.games.sight.draws`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from antipolix.games.protocol import GameAgent

RANDOM = 0  # the agents' codes in the batch path


class RandomAgent(GameAgent):
    """Uniform over the legal actions, from the seat's generator (R12)."""

    name: ClassVar[str] = "random"
    code: ClassVar[int] = RANDOM

    def act(self, observation: Mapping[str, Any], legal: Sequence[int]) -> int:
        return int(legal[int(self.rng.random() * len(legal))])


AGENTS: dict[str, type[GameAgent]] = {"random": RandomAgent}
