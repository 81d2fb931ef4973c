"""One AntipoliX game through the protocol: the PettingZoo env's game, seats and action encoding.

The protocol's actions are the env's (:mod:`antipolix.env`): ``0`` Pass, ``1 + s·C + cell``
moves the piece in the seat's slot ``s`` to ``cell``, ``1 + S·C + cell`` attacks ``cell``
with every own piece that reaches it; the mask is the env's, built from the seat's own
observation (R6). There is no second encoding: this module only holds an env and reads it.

- **Placement (R3)** happens in :meth:`AntipolixGame.new`: every seat's army comes from a
  random army policy (:class:`~antipolix.agents.RandomArmy`) drawing from the seat's own
  generator, placed on random free cells of its home zone, as the env does by default; play
  begins at once. Agents with army policies of their own play through ``GAME.play`` (the
  platform's runner, replays and tournaments), which places their armies.
- **Think times (R7)** are drawn by the engine (``think_times = drawn``), as in the env: an
  integer action carries none.
- Every living seat acts each turn (simultaneous moves, R4); :meth:`apply` takes one action
  for each.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix.env import AntipolixEnv, Placement
from antipolix.games.protocol import BoolArray, IllegalActionError, Outcome
from antipolix.rules import Rules

# the order of the observation's arrays in observe() and observation_tensor()
PARTS = ("board", "own", "enemies", "events", "players", "scalars")


class AntipolixState:
    """An AntipoliX game in progress, as :class:`~antipolix.games.protocol.State`."""

    def __init__(
        self, config: Rules, seed: np.random.SeedSequence, placement: Placement | None = None
    ) -> None:
        """A game from ``seed``; ``placement(game)``, when given, places every army itself
        (hand-made positions, as the env's option) instead of the random army policies."""
        self.env = AntipolixEnv(config, placement=placement)
        self.config = self.env.rules  # think_times = drawn (R7)
        obs, _ = self.env.reset(seed=seed)
        self._obs: dict[int, Any] = {self._seat(name): o for name, o in obs.items()}
        self._places: dict[int, float] = {}

    @staticmethod
    def _seat(name: str) -> int:
        return int(name.rpartition("_")[2])

    @property
    def turn(self) -> int:
        return int(self.env.game.turn)

    @property
    def over(self) -> bool:
        return self.env.game.result is not None

    def to_act(self) -> tuple[int, ...]:
        return () if self.over else tuple(sorted(self._seat(a) for a in self.env.agents))

    def action_mask(self, seat: int) -> BoolArray:
        if seat not in self.to_act():
            return np.zeros(self.env.actions, dtype=np.bool_)
        mask: BoolArray = self._obs[seat]["action_mask"].astype(np.bool_)
        return mask

    def legal_actions(self, seat: int) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.action_mask(seat))]

    def apply(self, actions: Mapping[int, int]) -> None:
        acting = self.to_act()
        if sorted(actions) != list(acting):
            raise IllegalActionError(
                f"antipolix turn {self.turn + 1}: actions for seats {sorted(actions)}, but the "
                f"seats to act are {list(acting)} (every living seat acts, R4)"
            )
        for seat, action in actions.items():
            mask = self._obs[seat]["action_mask"]
            if not isinstance(action, int | np.integer) or not 0 <= action < len(mask):
                raise IllegalActionError(
                    f"seat {seat}: {action!r} is not an action of antipolix (0 to {len(mask) - 1})"
                )
            if not mask[action]:
                what = self.env.describe(f"player_{seat}", int(action))
                raise IllegalActionError(
                    f"seat {seat}: action {int(action)} ({what}) is not legal now (R4, R5); "
                    "nothing was played"
                )
        obs, _, _, _, infos = self.env.step({f"player_{s}": int(a) for s, a in actions.items()})
        for name, o in obs.items():
            seat = self._seat(name)
            self._obs[seat] = o
            if "place" in infos[name]:
                self._places[seat] = float(infos[name]["place"])

    def observe(self, seat: int) -> dict[str, Any]:
        """The env's observation of ``seat`` (R6) as lists, and its action mask."""
        obs = self._obs[seat]
        out = {part: obs["observation"][part].tolist() for part in PARTS}
        out["action_mask"] = obs["action_mask"].tolist()
        return out

    def observation_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        parts = self._obs[seat]["observation"]
        return np.concatenate([np.ravel(parts[p]).astype(np.float32) for p in PARTS])

    def result(self) -> Outcome | None:
        game = self.env.game
        result = game.result
        if result is None:
            return None
        players = self.config.players
        return Outcome(
            winner=result.winner,
            reason=result.reason.name.lower(),
            turns=result.turns,
            places=tuple(self._places[s] for s in range(players)),
            elimination_order=tuple(result.elimination_order),
        )

    def digest(self) -> int:
        return int(self.env.game.digest)

    def clone(self) -> AntipolixState:
        """An independent copy. The env's per-seat reading of the observation (a compiled
        record that does not copy) is left out of the copy and read again from the seat's
        observation, as the env reads it after each turn."""
        kept = self.env._seats
        views = [k.view for k in kept]
        for k in kept:
            k.view = None
        try:
            other = copy.deepcopy(self)
        finally:
            for k, view in zip(kept, views, strict=True):
                k.view = view
        for seat, view in enumerate(views):
            if view is not None:
                other.env._observe(seat)
        return other
