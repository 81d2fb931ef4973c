"""Sight's compiled batch path: whole games in one call, the same games as one by one through
the protocol (outcomes and digests), whatever the batch; its generators are numpy's (S9, R12)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from antipolix.games.protocol import GameAgent, agent_rngs, play_one
from antipolix.games.sight import GAME
from antipolix.games.sight.batch import compiled, play_games
from antipolix.games.sight.draws import random_k, seed_k, seed_words

A = GAME.agents


@pytest.mark.parametrize(
    "seed",
    [
        np.random.SeedSequence(0),
        np.random.SeedSequence(7, spawn_key=(3,)),
        np.random.SeedSequence(2**100 + 5),
        np.random.SeedSequence([1, 2, 3], spawn_key=(2**40, 9)),
        np.random.SeedSequence(9, pool_size=8),
        np.random.SeedSequence(),
    ],
)
def test_s9_compiled_generators_draw_numpys_numbers(seed: np.random.SeedSequence) -> None:
    words, starts, pools = seed_words([seed])
    rngs = agent_rngs(seed, 2)
    st = np.zeros(4, dtype=np.uint64)
    for seat in range(2):
        seed_k(words, starts[0], starts[1], pools[0], seat, st)
        assert [random_k(st) for _ in range(200)] == [rngs[seat].random() for _ in range(200)]


CASES = [
    ({}, ("random", "random"), 60),
    ({"pie": True, "hand": 9}, ("greedy", "random"), 30),
    ({"size": 6, "stack_priority": "strict"}, ("random", "greedy"), 30),
    ({"size": 3}, ("greedy", "greedy"), 20),
    ({"pie": True}, ("search", "greedy"), 4),
    ({"size": 4}, ("random", "search"), 4),
]


@pytest.mark.parametrize(("options", "pair", "games"), CASES)
def test_sight_batch_plays_the_games_of_play_one(options: dict, pair: tuple, games: int) -> None:
    config = GAME.config(**options)
    agents = [A[pair[0]](), A[pair[1]]()]
    seeds = np.random.SeedSequence(2024).spawn(games)
    played = play_games(config, agents, seeds)
    outcomes = GAME.play_batch(config, agents, seeds)
    assert outcomes == played.outcomes()
    for i, seed in enumerate(seeds):
        state, outcome = play_one(GAME, config, agents, seed)
        assert outcome == outcomes[i]
        assert state.digest() == int(played.digests[i])
        assert state.turn == int(played.rows[i, 4])


def test_sight_batch_games_do_not_depend_on_the_batch() -> None:
    config = GAME.config(pie=True)
    agents = [A["greedy"](), A["random"]()]
    seeds = np.random.SeedSequence(5).spawn(40)
    whole = play_games(config, agents, seeds)
    parts = [play_games(config, agents, seeds[i : i + 7]) for i in range(0, 40, 7)]
    assert np.concatenate([p.digests for p in parts]).tolist() == whole.digests.tolist()
    one = play_games(config, agents, seeds[::-1])
    assert one.digests.tolist()[::-1] == whole.digests.tolist()


def test_sight_batch_declines_agents_it_cannot_compile() -> None:
    class Mine(GameAgent):
        name = "mine"

        def act(self, observation, legal):  # type: ignore[no-untyped-def]
            return legal[0]

    class Tweaked(A["random"]):  # type: ignore[misc, valid-type]
        def act(self, observation, legal):  # type: ignore[no-untyped-def]
            return legal[-1]

    seeds = np.random.SeedSequence(1).spawn(2)
    assert GAME.play_batch(GAME.config(), [A["random"](), Mine()], seeds) is None
    assert GAME.play_batch(GAME.config(), [Tweaked(), A["random"]()], seeds) is None
    assert compiled([A["random"](), A["search"](nodes=10)])


def test_sight_batch_outcomes_count_endings_like_the_rules() -> None:
    outcomes = GAME.play_batch(
        GAME.config(), [A["random"](), A["random"]()], np.random.SeedSequence(3).spawn(2000)
    )
    assert outcomes is not None
    for o in outcomes:
        assert o.reason in ("board_full", "blocked")
        if o.reason == "board_full":
            assert (o.turns, o.winner) == (25, 0)  # S8: a full 5×5 board is a White win
    assert json.dumps([o.extras for o in outcomes[:3]])


_NO_JIT = """
import json, numpy as np
from antipolix.games.protocol import play_one
from antipolix.games.sight import GAME
from antipolix.games.sight.batch import play_games
config = GAME.config(pie=True)
agents = [GAME.agents["greedy"](), GAME.agents["random"]()]
seeds = np.random.SeedSequence(77).spawn(3)
played = play_games(config, agents, seeds)
one = [play_one(GAME, config, agents, s)[0].digest() for s in seeds]
print(json.dumps([[int(d) for d in played.digests], one]))
"""


def test_sight_games_are_the_same_without_jit() -> None:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", _NO_JIT], capture_output=True, text=True, env=env, check=True
    )
    batch, one = json.loads(out.stdout)
    config = GAME.config(pie=True)
    agents = [A["greedy"](), A["random"]()]
    played = play_games(config, agents, np.random.SeedSequence(77).spawn(3))
    assert batch == one == [int(d) for d in played.digests]
