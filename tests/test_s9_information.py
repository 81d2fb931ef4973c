"""S9: perfect information (an observation shows every group, both hands, the turn and the mode,
the same for both seats) and no chance (a game is a function of its actions; the seed only
seeds the agents)."""

from __future__ import annotations

import numpy as np

from antipolix.games.protocol import play_one
from antipolix.games.sight import GAME, SightState
from antipolix.games.sight.position import colours, heights


def test_s9_both_seats_observe_everything_alike() -> None:
    config = GAME.config(hand=20, pie=True)
    seen = []

    def look(state, actions):  # type: ignore[no-untyped-def]
        o0, o1 = state.observe(0), state.observe(1)
        assert {"board", "hands", "turn", "mode", "to_move", "swapped", "last"} <= set(o0)
        assert {k: v for k, v in o0.items() if k not in ("seat", "colour")} == {
            k: v for k, v in o1.items() if k not in ("seat", "colour")
        }
        assert {o0["colour"], o1["colour"]} == {"white", "black"}
        # every group: point, colour (sign) and height
        board = np.array(o0["board"])
        n = config.size
        hgt = heights(state.pos).reshape(n, n)
        col = colours(state.pos).reshape(n, n)
        assert (np.abs(board) == hgt).all()
        assert ((board > 0) == ((hgt > 0) & (col == 0))).all()
        seen.append(o0["hands"])

    play_one(GAME, config, [GAME.agents["random"](), GAME.agents["greedy"]()], 3, look)
    assert all(h["white"] is not None for h in seen)


def test_s9_a_game_is_a_function_of_its_actions_not_of_the_seed() -> None:
    config = GAME.config(pie=True)
    actions: list[int] = []
    replay = GAME.new(config, seed=1)
    other = GAME.new(config, seed=12345)
    first: SightState = GAME.new(config, seed=0)
    digests = []
    while not first.over:
        seat = first.to_act()[0]
        a = first.legal_actions(seat)[len(actions) % len(first.legal_actions(seat))]
        actions.append(a)
        for s in (first, replay, other):
            s.apply({seat: a})
        digests.append({first.digest(), replay.digest(), other.digest()})
    assert all(len(d) == 1 for d in digests)
    assert (first.pos == other.pos).all() and first.result() == other.result()
