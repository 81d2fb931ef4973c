"""Play the PettingZoo environment (``antipolix.env``) and print games per second. Trains nothing.

    .venv/bin/python experiments/env_random_play.py [--games 20] [--players 2] [--shape 4,8,8]

Three match-ups on the same game seeds (``seed + i``), each in one process (one core):

- ``random``: every seat draws a uniformly random action among those its action mask allows;
- ``random vs greedy``: ``player_0`` random (masked), the other seats played by the built-in
  :class:`~antipolix.agents.GreedyAgent` through the env (``scripted=``, then
  ``env.scripted_action(agent)`` turns its decision into an env action);
- ``greedy``: every seat Greedy, through the env.

For each it prints games/s, steps/s (one step: every living seat acts), how the games ended and
``player_0``'s mean reward (zero-sum rewards by finishing order, +1 first, -1 last). Asserts
nothing: an example and a benchmark, not a test.
"""

from __future__ import annotations

import platform
import time
from collections.abc import Callable

import numpy as np

from antipolix.agents import GreedyAgent
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, seed_arg
from antipolix.env import AntipolixEnv, parallel_env

Policy = Callable[[AntipolixEnv, str, dict[str, object]], int]


def random_policy(rng: np.random.Generator) -> Policy:
    """A uniformly random allowed action: what a learner's masked policy looks like."""

    def act(env: AntipolixEnv, agent: str, obs: dict[str, object]) -> int:
        allowed = np.flatnonzero(obs["action_mask"])
        return int(allowed[rng.integers(len(allowed))])

    return act


def scripted_policy(env: AntipolixEnv, agent: str, obs: dict[str, object]) -> int:
    """The seat's built-in agent decides (from its own observation, R6)."""
    return env.scripted_action(agent)


def play(
    env: AntipolixEnv, policies: dict[str, Policy], games: int, seed: int
) -> tuple[float, int, dict[str, int], list[int], float]:
    """Play ``games`` games; (seconds, steps, how they ended, turns per game, mean reward of
    player_0)."""
    steps, endings, turns, reward0 = 0, {}, [], 0.0
    start = time.perf_counter()
    for i in range(games):
        obs, _ = env.reset(seed=seed + i)
        while env.agents:
            actions = {a: policies[a](env, a, obs[a]) for a in env.agents}
            obs, rewards, _, _, _ = env.step(actions)
            reward0 += rewards.get("player_0", 0.0)
            steps += 1
        result = env.game.result
        assert result is not None
        key = "draw" if result.winner is None else f"player_{result.winner} won"
        endings[key] = endings.get(key, 0) + 1
        turns.append(result.turns)
    return time.perf_counter() - start, steps, endings, turns, reward0 / games


def main() -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int_at_least(1), default=20)
    parser.add_argument("--players", type=int_at_least(2), default=2)
    parser.add_argument("--shape", default="4,8,8", help="P,N,N (default 4,8,8)")
    parser.add_argument("--max-turns", type=int_at_least(1), default=300)
    parser.add_argument("--seed", type=seed_arg, default=1)
    args = parser.parse_args()
    shape = tuple(int(v) for v in args.shape.split(","))
    options = {"players": args.players, "shape": shape, "max_turns": args.max_turns}
    others = [f"player_{i}" for i in range(1, args.players)]
    rng = np.random.default_rng(args.seed)
    print(
        f"antipolix.env: {args.players} players, board {shape}, turn limit {args.max_turns}, "
        f"{args.games} games per match-up, seeds {args.seed}..{args.seed + args.games - 1} "
        f"(Python {platform.python_version()}, one process)"
    )
    matchups: list[tuple[str, AntipolixEnv, dict[str, Policy]]] = []
    env = parallel_env(**options)
    print(
        f"observation: board {env.observation_space('player_0')['observation']['board'].shape}, "
        f"{env.slots} piece slots; actions: {env.actions}"
    )
    matchups.append(("random", env, dict.fromkeys(env.possible_agents, random_policy(rng))))
    env = parallel_env(**options, scripted=dict.fromkeys(others, GreedyAgent()))
    policies = {"player_0": random_policy(rng), **dict.fromkeys(others, scripted_policy)}
    matchups.append(("random vs greedy", env, policies))
    env = parallel_env(**options, scripted=dict.fromkeys(env.possible_agents, GreedyAgent()))
    matchups.append(("greedy", env, dict.fromkeys(env.possible_agents, scripted_policy)))
    for name, env, policies in matchups:
        seconds, steps, endings, turns, reward0 = play(env, policies, args.games, args.seed)
        ends = ", ".join(f"{k} {v}" for k, v in sorted(endings.items()))
        print(
            f"{name:>17}: {args.games / seconds:7.2f} games/s, {steps / seconds:7.0f} steps/s; "
            f"mean {np.mean(turns):.0f} turns; {ends}; player_0 mean reward {reward0:+.2f}"
        )


if __name__ == "__main__":
    run_script(main)
