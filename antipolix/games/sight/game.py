"""Sight as the platform hosts it: the :class:`~antipolix.games.protocol.GameDef` ``GAME``.

Everything the platform asks of a game, in one object: what Sight declares (two players,
sequential, no chance, perfect information, a 2D board), its options, its agents, its
configuration in and out of text and JSON, new games, the codec of its actions, the 2D scene,
perft (S11) and the compiled batch path.

>>> from antipolix.games.protocol import play_one
>>> config = GAME.config(size=4)
>>> state, outcome = play_one(GAME, config, [GAME.agents["random"]()] * 2, seed=3)
>>> outcome.reason in ("board_full", "blocked"), outcome.places in ((0.0, 1.0), (1.0, 0.0))
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from antipolix.games.protocol import (
    Column,
    GameAgent,
    GameDef,
    GameError,
    GameType,
    Outcome,
    Scene2D,
    SeedLike,
)
from antipolix.games.sight import actions as act
from antipolix.games.sight.agents import AGENTS
from antipolix.games.sight.config import (
    OPTIONS,
    SightConfig,
    config_from_dict,
    config_from_text,
    config_to_dict,
)
from antipolix.games.sight.state import PLANES, SightState

__all__ = ["GAME", "INFO", "SightConfig", "SightGame"]

INFO = GameType(
    name="sight",
    title="Sight (Kanare Kato)",
    version=1,
    min_players=2,
    max_players=2,
    simultaneous=False,
    chance=False,
    perfect_information=True,
    rules_doc="docs/rules/sight.md",
    sections="S1–S11",
    costs=False,
    board="2d",
)


def _config(config: Any) -> SightConfig:
    if not isinstance(config, SightConfig):
        raise GameError(f"expected sight rules (a SightConfig), got {type(config).__name__}")
    return config


def _state(state: Any) -> SightState:
    if not isinstance(state, SightState):
        raise GameError(f"expected a game of sight, got {type(state).__name__}")
    return state


class SightGame:
    """Sight (Kanare Kato, RULES-sight.md) behind the game protocol."""

    info = INFO
    options = OPTIONS
    agents: Mapping[str, type[GameAgent]] = AGENTS
    # the results table's own column, from Outcome.extras (S8: the result records Swap)
    columns = (Column("swapped", "bool_", "whether Black took Swap in turn 2 (S4, pie)"),)

    def config(self, **options: Any) -> SightConfig:
        return SightConfig().with_options(**options)

    def config_from_text(self, overrides: Mapping[str, str], base: Any = None) -> SightConfig:
        return config_from_text(overrides, None if base is None else _config(base))

    def config_to_dict(self, config: Any) -> dict[str, Any]:
        return config_to_dict(_config(config))

    def config_from_dict(self, data: Mapping[str, Any]) -> SightConfig:
        return config_from_dict(data)

    def num_actions(self, config: Any) -> int:
        """``1 + 9·N²``: Swap, N² placements, 8·N² moves (:mod:`~.actions`)."""
        return act.num_actions(_config(config).size)

    def observation_shape(self, config: Any) -> tuple[int, ...]:
        n = _config(config).size
        return (PLANES, n, n)

    def new(self, config: Any, seed: SeedLike = None) -> SightState:
        """A new game; the seed plays no part in the rules (S9: no chance)."""
        return SightState(_config(config))

    def action_to_text(self, state: Any, action: int) -> str:
        return act.text(_state(state).config, action)

    def action_to_json(self, config: Any, action: int) -> Any:
        """``"swap"``, ``{"place": [x, y]}`` or ``{"move": [[x, y], [x, y]]}``."""
        return act.to_json(_config(config), action)

    def action_from_json(self, config: Any, data: Any) -> int:
        return act.from_json(_config(config), data)

    def scene(self, state: Any, seat: int | None = None) -> Scene2D:
        from antipolix.games.sight.scene import scene_of

        return scene_of(_state(state), seat)

    def board_text(self, state: Any) -> str:
        """The position in text as the rules name the sides (S2): ``W`` White's groups, ``B``
        Black's, a stack's height beside its letter (``W3``), ``.`` an empty point; whichever
        seat plays them after a Swap (S4); then the caption (whose turn, or who won)."""
        from antipolix.games.sight.scene import caption_of

        state = _state(state)
        rows = [line.split() for line in state.drawing().splitlines()]
        lines = ["".join(token.rjust(3) for token in row) for row in rows]
        return "\n".join([*lines, caption_of(state)])

    def perft(self, config: Any, depth: int) -> int:
        """S11: the legal action sequences of ``depth`` actions from the start."""
        from antipolix.games.sight.perft import perft

        return perft(_config(config), depth)

    def play_batch(
        self,
        config: Any,
        agents: Sequence[GameAgent],
        seeds: Sequence[np.random.SeedSequence],
    ) -> list[Outcome] | None:
        """Whole games in compiled code, when every agent is built in (else None)."""
        from antipolix.games.sight.batch import play_batch

        return play_batch(_config(config), agents, seeds)


GAME: GameDef = SightGame()  # (mypy checks here that Sight is a GameDef, its states States)
