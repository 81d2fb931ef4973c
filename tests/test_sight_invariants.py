"""Invariants of Sight checked after every action of many seeded games (pgx's api_test in
spirit): one colour a point, heights >= 0, the turn counts the occupied points (S7), the stack
counters match the board, the counting kernels match the lists, the symmetric key matches on
symmetric images (S1)."""

from __future__ import annotations

import numpy as np
import pytest

from antipolix.games.protocol import play_one
from antipolix.games.sight import GAME, SightState
from antipolix.games.sight.actions import decode, move, place
from antipolix.games.sight.board import NSYM, SYM
from antipolix.games.sight.position import META, STACKS, TURN, colours, heights
from antipolix.games.sight.rules import (
    actions_of_k,
    apply_k,
    count_actions_k,
    count_legal_k,
    legal_k,
)
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


def _action_image(n: int, s: int, action: int) -> int:
    """The action under symmetry ``s`` of the board (S1)."""
    kind, p, q = decode(n, action)
    if kind == "swap":
        return action
    if kind == "place":
        return place(n, int(SYM[n, s, p]))
    return move(n, int(SYM[n, s, p]), int(SYM[n, s, q]))


@pytest.mark.parametrize("options", [{}, {"size": 4, "pie": True}, {"size": 7, "hand": 20}])
def test_s1_the_rules_commute_with_the_symmetries(options: dict) -> None:
    # a symmetric image of a position has the symmetric images of its legal actions, and each
    # action leads to the image of the position it led to
    config = GAME.config(**options)
    n = config.size
    buffer = np.zeros(GAME.num_actions(config), dtype=np.int64)
    added = np.zeros(8, dtype=np.int64)
    agents = [GAME.agents["random"](), GAME.agents["random"]()]

    def check(state, actions):  # type: ignore[no-untyped-def]
        legal = state.legal_actions(state.to_act()[0])
        for s in range(int(NSYM[n])):
            image = _image(state, s)
            k = legal_k(image, buffer)
            assert sorted(buffer[:k].tolist()) == sorted(_action_image(n, s, a) for a in legal)
            for a in legal[:6]:
                after = state.clone()
                after.play(a)
                moved = image.copy()
                apply_k(moved, _action_image(n, s, a), added)
                expected = _image(after, s)
                assert (moved[META:] == expected[META:]).all()

    for seed in range(3):
        play_one(GAME, config, agents, seed=seed, on_action=check)
