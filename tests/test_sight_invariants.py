"""Invariants of Sight checked after every action of many seeded games (pgx's api_test in
spirit): one colour a point, heights >= 0, the turn counts the occupied points (S7), the stack
counters match the board, the counting kernels match the lists, the symmetric key matches on
symmetric images (S1)."""

from __future__ import annotations

import numpy as np
import pytest

from antipolix.games.protocol import play_one
from antipolix.games.sight import GAME, SightState
from antipolix.games.sight.board import NSYM, SYM
from antipolix.games.sight.position import META, STACKS, TURN, colours, heights
from antipolix.games.sight.rules import actions_of_k, count_actions_k, count_legal_k, legal_k
from antipolix.games.sight.search import key_k

OPTIONS = [
    {},
    {"size": 3},
    {"size": 4, "stack_priority": "strict"},
    {"size": 7, "pie": True},
    {"hand": 6},
    {"size": 6, "hand": 15, "pie": True},
]


def _image(state: SightState, s: int) -> np.ndarray:
    """The position under symmetry ``s`` of the board (S1)."""
    n = state.config.size
    n2 = n * n
    pos = state.pos.copy()
    perm = SYM[n, s, :n2]
    for base in (META, META + n2):
        pos[base + perm] = state.pos[base : base + n2]
    return pos


@pytest.mark.parametrize("options", OPTIONS)
def test_sight_invariants_hold_after_every_action(options: dict) -> None:
    config = GAME.config(**options)
    n = config.size
    buffer = np.zeros(GAME.num_actions(config), dtype=np.int64)
    agents = [GAME.agents["random"](), GAME.agents["greedy"]()]

    def check(state, actions):  # type: ignore[no-untyped-def]
        pos = state.pos
        col, hgt = colours(pos), heights(pos)
        assert (hgt >= 0).all() and ((col == 0) | (col == 1)).all()
        assert int(pos[TURN]) == int(np.count_nonzero(hgt))
        for c in (0, 1):
            assert pos[STACKS + c] == np.count_nonzero((hgt >= 2) & (col == c))
            assert count_actions_k(pos, c) == actions_of_k(pos, c, buffer, 0)
        assert (
            count_legal_k(pos)
            == legal_k(pos, buffer)
            == len(state.legal_actions(state.to_act()[0]))
        )
        key = key_k(pos)
        for s in range(int(NSYM[n])):
            assert key_k(_image(state, s)) == key

    for seed in range(10):
        play_one(GAME, config, agents, seed=seed, on_action=check)
