"""Every game of the registry as a PettingZoo environment: :func:`env`.

- A **sequential** game (one seat acts at a time: Sight) is an ``AECEnv`` built over the game
  protocol by :class:`GameAECEnv`: agents ``player_0`` … ``player_{n-1}``, one per seat;
  ``observe(agent)`` is ``{"observation": ..., "action_mask": ...}``, the seat's observation
  tensor (``State.observation_tensor``: what the seat may know, R6) and the mask of its legal
  actions (all zeros when it is not its turn); ``action_space(agent)`` is
  ``Discrete(num_actions)``.
- A **simultaneous** game (every seat acts each turn: AntipoliX) is its own ``ParallelEnv``:
  AntipoliX's is :func:`antipolix.env.parallel_env`, as it is.

Both follow AntipoliX's env in what they refuse: something that is not an action of the space
raises :class:`InvalidActionError`, an action the mask forbids raises
:class:`IllegalActionError` and changes nothing (the step can be retried). AntipoliX's
``illegal_action="pass"`` makes the seat pass; a sequential game's rules may have no pass (S4:
Sight has none), so there ``illegal_action="lose"`` is the other policy: the seat that plays
a forbidden action loses the game on the spot (last place, as PettingZoo's classic
environments end such a game), noted in its info.

Rewards are zero-sum, given once at the end, by finishing place (R10, R11's reading):
``1 - 2·place/(n-1)``, +1 first, -1 last, ties sharing. Seeds (R12): ``reset(seed=s)`` plays
``GAME.new(config, s)``; the k-th ``reset()`` without a seed after it plays
``SeedSequence(s, spawn_key=(k, 0))``. Requires the ``env`` extra.

>>> e = env("antipolix", players=2, shape=(4, 8, 8))
>>> type(e).__name__
'AntipolixEnv'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(
        "antipolix.games.env needs PettingZoo and Gymnasium: pip install 'antipolix[env]'"
    ) from exc

from antipolix import games
from antipolix.env import (  # one set of errors and rewards for every game's env
    EnvError,
    IllegalActionError,
    InvalidActionError,
    action_index,
    place_reward,
)
from antipolix.games import host
from antipolix.games.protocol import GameDef, GameError, State

ObsDict = dict[str, npt.NDArray[Any]]


def env(game: str = games.DEFAULT, config: Any = None, **options: Any) -> Any:
    """The PettingZoo environment of ``game``: an AEC env for a sequential game
    (:class:`GameAECEnv`; ``options``: rule options by name, ``illegal_action``,
    ``render_mode``), the game's own Parallel env for a simultaneous one (AntipoliX:
    :func:`antipolix.env.parallel_env`, which takes its options)."""
    played = games.game(game)
    if isinstance(config, Mapping):  # rule options by name, as a rules file holds them
        config = played.config_from_dict(config)
    if played.info.simultaneous:
        hook = getattr(played, "parallel_env", None)
        if hook is None:
            raise GameError(f"{played.info.name} has no PettingZoo environment")
        return hook(config, **options)
    own = {k: options.pop(k) for k in ("illegal_action", "render_mode") if k in options}
    if options:
        base = played.config() if config is None else config
        config = host.with_options(played, base, list(options.items()))
    return GameAECEnv(played, config, **own)


def _config_of(game: GameDef, config: Any) -> Any:
    """``config`` as the game's configuration: its defaults for None, a dict of rule options
    read as a rules file is (``{"size": 7}``), or the game's own configuration object."""
    default = game.config()
    if config is None:
        return default
    if isinstance(config, Mapping):
        return game.config_from_dict(config)
    if not isinstance(config, type(default)):
        raise EnvError(
            f"config must be a {type(default).__name__}, a dict of {game.info.name}'s rule "
            f"options or None, got {type(config).__name__}"
        )
    return config


class GameAECEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A sequential game of the registry as a PettingZoo ``AECEnv`` (see the module)."""

    def __init__(
        self,
        game: GameDef,
        config: Any = None,
        *,
        illegal_action: Literal["raise", "lose"] = "raise",
        render_mode: None = None,
    ) -> None:
        if game.info.simultaneous:
            raise EnvError(
                f"{game.info.name} is played with simultaneous moves: use its ParallelEnv"
            )
        if illegal_action not in ("raise", "lose"):
            raise EnvError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        if render_mode is not None:
            raise EnvError(
                f"render_mode must be None, got {render_mode!r}: to watch a game, write a replay "
                "and view it (antipolix view)"
            )
        self.game = game
        self.config = _config_of(game, config)
        self.illegal_action = illegal_action
        self.render_mode = None
        self.metadata = {
            "name": f"{game.info.name}_v{game.info.version}",
            "render_modes": [],
            "is_parallelizable": False,
        }
        n = int(self.config.players)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.actions = int(game.num_actions(self.config))
        shape = tuple(game.observation_shape(self.config))
        obs = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = {a: spaces.Discrete(self.actions) for a in self.possible_agents}
        self._state: State | None = None
        self._root: np.random.SeedSequence | None = None
        self._resets = 0
        self.agents: list[str] = []

    # -- PettingZoo API ----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``GAME.new(config, seed)`` (R12; see the module for resets without a
        seed). ``options`` is accepted (PettingZoo's API) and not used."""
        if seed is not None:
            self._root, self._resets = np.random.SeedSequence(seed), 0
            ss = self._root
        else:
            if self._root is None:
                self._root = np.random.SeedSequence()
            self._resets += 1
            ss = np.random.SeedSequence(
                self._root.entropy, spawn_key=(*self._root.spawn_key, self._resets, 0)
            )
        self._state = self.game.new(self.config, ss)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"turn": 0} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._selected()

    def observe(self, agent: str) -> ObsDict:
        state = self.state
        seat = self._seat(agent)
        mask = np.zeros(self.actions, dtype=np.int8)
        if agent == self.agent_selection and seat in state.to_act():
            mask[state.legal_actions(seat)] = 1
        tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        seat = self._seat(agent)
        index = action_index(agent, action, self.actions)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if index in state.legal_actions(seat):
            state.apply({seat: index})
            for a in self.agents:
                self.infos[a]["turn"] = state.turn
            if state.over:
                result = state.result()
                assert result is not None
                self._finish(result.places, result.reason, result.winner)
        elif self.illegal_action == "lose":
            n = len(self.possible_agents)
            others = [s for s in range(n) if s != seat]
            places = [0.0] * n
            for s in others:
                places[s] = (len(others) - 1) / 2
            places[seat] = float(n - 1)
            self.infos[agent]["illegal_action"] = index
            self._finish(tuple(places), "illegal_action", others[0] if n == 2 else None)
        else:
            what = self.game.action_to_text(state, index) if 0 <= index < self.actions else ""
            raise IllegalActionError(
                f"{agent}: action {index} ({what}) is forbidden by its action mask: not a legal "
                "action now; nothing was played"
            )
        self.agent_selection = self._selected()
        self._accumulate_rewards()

    def render(self) -> None:
        """Nothing to draw (``render_mode`` None): write a replay and view it instead."""
        return None

    def close(self) -> None:
        """Nothing to release."""

    # -- beyond PettingZoo -------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The game being played: the whole truth (replays, analysis), never a learner's input."""
        if self._state is None:
            raise EnvError("no game yet: call reset() first")
        return self._state

    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise EnvError(f"no agent {agent!r} (agents: {self.possible_agents})")
        return self.possible_agents.index(agent)

    def _selected(self) -> str:
        """The agent to act: the seat whose turn it is, or once the game is over the first
        agent still listed (each done agent then steps with None, PettingZoo's convention)."""
        acting = self.state.to_act()
        if acting and not any(self.terminations.values()):
            return self.possible_agents[acting[0]]
        return self.agents[0] if self.agents else self.possible_agents[0]

    def _finish(self, places: tuple[float, ...], reason: str, winner: int | None) -> None:
        n = len(self.possible_agents)
        for seat, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            self.rewards[agent] = place_reward(places[seat], n)
            self.terminations[agent] = True
            self.infos[agent].update(
                place=places[seat],
                reason=reason,
                winner=None if winner is None else self.possible_agents[winner],
            )


__all__ = [
    "EnvError",
    "GameAECEnv",
    "IllegalActionError",
    "InvalidActionError",
    "env",
    "place_reward",
]
