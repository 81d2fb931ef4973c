"""Sight behind the game protocol: what it declares, its configuration from options, text and
JSON, the codec of its actions, states (mask, apply, observe, clone, digest), the 2D scene."""

from __future__ import annotations

import json

import numpy as np
import pytest

from antipolix.games import game
from antipolix.games.protocol import (
    GameError,
    IllegalActionError,
    Outcome,
    Scene2D,
    agent_rngs,
    play_one,
)
from antipolix.games.sight import GAME, SightConfig, SightState
from antipolix.games.sight import actions as act
from antipolix.games.sight.board import segments
from antipolix.games.sight.position import ADDS
from antipolix.games.sight.scene import SIDE_COLOURS
from antipolix.games.sight.state import position_of


def _random_pair() -> list:
    return [GAME.agents["random"](), GAME.agents["random"]()]


def test_sight_is_registered_and_declares_itself() -> None:
    assert game("sight") is GAME
    info = GAME.info
    assert (info.name, info.min_players, info.max_players) == ("sight", 2, 2)
    assert not info.simultaneous and not info.chance and info.perfect_information
    assert (info.rules_doc, info.sections, info.board) == ("docs/rules/sight.md", "S1–S11", "2d")
    assert [o.name for o in GAME.options] == ["size", "hand", "pie", "stack_priority", "players"]
    assert {"random"} <= set(GAME.agents)


def test_sight_config_from_options_text_and_json() -> None:
    config = GAME.config(size=7, hand=20, pie=True, stack_priority="strict")
    assert GAME.config_from_dict(json.loads(json.dumps(GAME.config_to_dict(config)))) == config
    text = {"size": "7", "hand": "20", "pie": "on", "stack_priority": "strict"}
    assert GAME.config_from_text(text) == config
    assert GAME.config_from_text({"hand": "unlimited"}, base=config).hand == "unlimited"
    assert GAME.config() == SightConfig()
    assert config.players == 2


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"size": 2}, "size must be an integer from 3 to 9"),
        ({"size": 10}, "size must be an integer from 3 to 9"),
        ({"size": 5.0}, "size must be an integer"),
        ({"hand": 0}, "hand must be 'unlimited' or an integer >= 1"),
        ({"hand": "lots"}, "hand must be 'unlimited'"),
        # (10**20 overflowed the compiled position's integers: a traceback)
        ({"hand": 10**20}, "hand must be 'unlimited' or at most 1,000,000 \\(S2\\), got 100,000"),
        ({"pie": "maybe"}, "pie must be true or false"),
        ({"stack_priority": "tallest"}, "stack_priority must be 'movable' or 'strict'"),
        ({"players": 3}, "players must be 2"),
        ({"komi": 1}, "unknown option 'komi'"),
    ],
)
def test_sight_bad_options_name_the_option_and_what_is_allowed(options: dict, words: str) -> None:
    with pytest.raises(GameError, match=words):
        GAME.config(**options)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ({"size": "big"}, "size must be an integer"),
        ({"pie": "perhaps"}, "pie must be on or off"),
        ({"hand": "-3"}, "hand must be 'unlimited' or an integer >= 1"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_sight_bad_option_text_is_refused_in_one_line(text: dict, words: str) -> None:
    with pytest.raises(GameError, match=words) as info:
        GAME.config_from_text(text)
    assert "\n" not in str(info.value)


def test_sight_config_from_dict_refuses_what_is_not_an_object() -> None:
    with pytest.raises(GameError, match="JSON object"):
        GAME.config_from_dict([5])  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [3, 5, 8])
def test_sight_every_action_integer_round_trips_through_json_and_text(size: int) -> None:
    config = GAME.config(size=size)
    n = config.size
    assert GAME.num_actions(config) == 1 + 9 * n * n
    named = 0
    for a in range(GAME.num_actions(config)):
        try:
            data = GAME.action_to_json(config, a)
        except GameError:
            continue  # an undrawn direction or off the board: no action
        named += 1
        assert GAME.action_from_json(config, json.loads(json.dumps(data))) == a
        assert act.from_text(config, act.text(config, a)) == a
    ortho, diag = (len(s) for s in segments(n))
    assert named == 1 + n * n + 2 * (ortho + diag)  # Swap, places, both ways of each segment


@pytest.mark.parametrize(
    "data",
    [
        "pass",
        {"place": [5, 0]},
        {"place": [1]},
        {"move": [[0, 0], [2, 2]]},
        {"move": [[2, 1], [3, 2]]},
        {"place": [1, 1], "move": 3},
        7,
        None,
    ],
)
def test_sight_bad_action_json_is_refused(data: object) -> None:
    with pytest.raises(GameError):
        GAME.action_from_json(GAME.config(), data)


def test_sight_action_numbers_follow_s11_order() -> None:
    config = GAME.config()
    assert act.SWAP == 0
    assert GAME.action_to_json(config, 1) == {"place": [0, 0]}
    assert GAME.action_to_json(config, 25) == {"place": [4, 4]}
    assert GAME.action_to_json(config, 26 + 4) == {"move": [[0, 0], [1, 0]]}
    assert GAME.action_to_json(config, 26 + 8 * 12 + 0) == {"move": [[2, 2], [1, 1]]}
    with pytest.raises(GameError, match="not an action"):
        GAME.action_to_json(config, 226)


def test_sight_state_mask_matches_legal_and_apply_refuses_the_rest() -> None:
    state = GAME.new(GAME.config())
    state.apply({0: act.place(5, 12)})
    mask = state.action_mask(1)
    assert mask.dtype == np.bool_ and mask.shape == (226,)
    assert np.flatnonzero(mask).tolist() == state.legal_actions(1)
    assert not state.action_mask(0).any() and state.legal_actions(0) == []
    before = (state.pos.copy(), state.digest(), state.legal_actions(1))
    for bad in ({1: 13}, {0: 1}, {1: 999}, {0: 1, 1: 1}, {1: "place"}, {}, {1: act.SWAP}):
        with pytest.raises(IllegalActionError):
            state.apply(bad)  # type: ignore[arg-type]
    assert (state.pos == before[0]).all() and state.digest() == before[1]
    assert state.legal_actions(1) == before[2]


def test_sight_illegal_action_errors_say_what_and_when() -> None:
    state = GAME.new(GAME.config())
    state.apply({0: act.place(5, 12)})
    with pytest.raises(IllegalActionError, match=r"Place \(2, 2\) is not legal at turn 2"):
        state.apply({1: act.place(5, 12)})
    with pytest.raises(IllegalActionError, match="seat 1 acts now"):
        state.apply({0: 1})


def test_sight_a_finished_game_refuses_actions() -> None:
    state, outcome = play_one(GAME, GAME.config(size=3), _random_pair(), seed=1)
    assert state.over and state.to_act() == ()
    with pytest.raises(IllegalActionError, match="over"):
        state.apply({0: 1})
    assert state.result() == outcome


def test_sight_observation_is_json_ready_and_the_same_for_both_seats_but_their_own() -> None:
    state = GAME.new(GAME.config(hand=9))
    for a in (act.place(5, 0), act.place(5, 24), act.place(5, 4)):
        state.apply({state.to_act()[0]: a})
    o0, o1 = state.observe(0), state.observe(1)
    assert json.loads(json.dumps(o0)) == o0
    assert {k: v for k, v in o0.items() if k not in ("seat", "colour")} == {
        k: v for k, v in o1.items() if k not in ("seat", "colour")
    }
    assert o0["board"][0] == [2, 0, 0, 0, 1] and o0["board"][4][4] == -1
    assert o0["last"] == {"place": [4, 0]} and o0["added"] == [[0, 0]]
    assert o0["hands"] == {"white": 6, "black": 8}
    tensor = state.observation_tensor(1)
    assert tensor.shape == GAME.observation_shape(state.config) == (8, 5, 5)
    assert tensor.dtype == np.float32
    assert tensor[1, 0, 0] == 1 and tensor[0, 4, 4] == 1  # seat 1 (Black) sees its own first
    assert tensor[4].all()  # Black to move


def test_sight_clone_is_independent() -> None:
    state = GAME.new(GAME.config())
    state.apply({0: 13})
    other = state.clone()
    other.apply({1: 1})
    assert state.turn == 1 and other.turn == 2
    assert state.legal_actions(1) != other.legal_actions(0)
    assert state.digest() != other.digest()


def test_sight_same_seed_same_game_and_digests_tell_games_apart() -> None:
    config = GAME.config()
    digests = []
    for seed in (5, 5, 6):
        state, outcome = play_one(GAME, config, _random_pair(), seed=seed)
        digests.append((state.digest(), outcome))
    assert digests[0] == digests[1]
    assert digests[0][0] != digests[2][0]


def test_sight_random_agent_is_uniform_from_its_own_generator() -> None:
    seed = np.random.SeedSequence(11)
    bot = GAME.agents["random"]().seated(GAME.config(), 0, agent_rngs(seed, 2)[0])
    again = agent_rngs(seed, 2)[0]
    legal = list(range(1, 26))
    picks = [bot.act({}, legal) for _ in range(2000)]
    assert picks[:50] == [legal[int(again.random() * 25)] for _ in range(50)]
    counts = np.bincount(picks, minlength=26)[1:]
    # each of 25 actions: expected 80 of 2000; 5 standard deviations is about ±44
    assert counts.min() > 80 - 44 and counts.max() < 80 + 44


def test_sight_outcome_has_places_and_extras() -> None:
    _, outcome = play_one(GAME, GAME.config(pie=True), _random_pair(), seed=2)
    assert isinstance(outcome, Outcome)
    assert sorted(outcome.places) == [0.0, 1.0]
    assert outcome.places[outcome.winner] == 0.0  # type: ignore[index]
    assert set(outcome.extras) == {"swapped"}
    assert json.dumps(outcome.extras)


def test_sight_scene_draws_segments_points_pieces_and_the_last_action() -> None:
    state = SightState.from_drawing(
        SightConfig(), "W2 . . . W / . . . . . / W . . . . / . . . . . / . . . . B"
    )
    state.apply({0: act.from_text(state.config, "move 0 0 1 1")})
    scene = GAME.scene(state)
    assert isinstance(scene, Scene2D) and (scene.width, scene.height) == (5, 5)
    kinds = [m.kind for m in scene.marks]
    assert kinds.count("segment") == 56 and kinds.count("point") == 25
    pieces = [m for m in scene.marks if m.kind == "piece"]
    assert len(pieces) == 5
    assert {m.seat for m in pieces} == {0, 1}
    assert [m.label for m in pieces if m.at == (0.0, 2.0)] == ["2"]
    arrows = [m for m in scene.marks if m.kind == "arrow"]
    # the last action in the board's ink (seat None): a ring of White's would not show
    assert [(a.at, a.to, a.seat) for a in arrows] == [((0.0, 0.0), (1.0, 1.0), None)]
    rings = [m for m in scene.marks if m.kind == "ring"]
    assert [(r.at, r.seat) for r in rings] == [((0.0, 2.0), None)]  # the addition
    assert scene.colours == SIDE_COLOURS  # seat 0 plays White, seat 1 Black (S2)
    assert "Black (seat 1) to place" in scene.caption
    assert "Move (0, 0) → (1, 1)" in scene.caption


def test_sight_scene_draws_each_seat_in_the_colour_it_plays_after_a_swap_too() -> None:
    """White's stones are drawn light and Black's dark (S2), whichever seat plays them: after
    a Swap (S4) seat 0 plays Black, and its colour in the scene is Black's."""
    white, black = SIDE_COLOURS
    assert _luminance(white) > 200 > 60 > _luminance(black)
    state = SightState(SightConfig(pie=True))
    state.apply({0: act.from_text(state.config, "place 2 2")})
    assert GAME.scene(state).colours == (white, black)
    (piece,) = [m for m in GAME.scene(state).marks if m.kind == "piece"]
    assert piece.seat == 0
    state.apply({1: act.SWAP})
    scene = GAME.scene(state)
    assert scene.colours == (black, white)
    (piece,) = [m for m in scene.marks if m.kind == "piece"]
    assert piece.seat == 1 and scene.colours[piece.seat] == white  # White's stone, seat 1's now
    assert "Black (seat 0) to place" in scene.caption  # (turn 2 again, S4)


def test_sight_board_in_text_names_the_sides_as_the_rules_do() -> None:
    """``play``, ``replay show`` and ``demo`` print the board with White's groups as ``W`` and
    Black's as ``B`` (S2; they printed the platform's seat letters, X and O, under a caption
    naming White and Black), whichever seat plays them after a Swap (S4)."""
    drawing = "W2 . B / . . . / . . W"
    state = SightState.from_drawing(SightConfig(size=3), drawing)
    rows = GAME.board_text(state).splitlines()
    assert [row.split() for row in rows[:3]] == [r.split() for r in drawing.split("/")]
    assert rows[3] == GAME.scene(state).caption
    state = SightState(SightConfig(pie=True))
    state.apply({0: act.from_text(state.config, "place 0 0")})
    state.apply({1: act.SWAP})
    text = GAME.board_text(state)
    assert text.splitlines()[0].split() == ["W", ".", ".", ".", "."]  # seat 1's White stone now
    assert "Black (seat 0) to place" in text  # (turn 2 again, S4)


def _luminance(colour: str) -> float:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_sight_scene_of_a_finished_game_names_the_winner() -> None:
    state = SightState.from_drawing(SightConfig(size=3), "W B W / B W B / W B W")
    assert GAME.scene(state).caption.startswith(
        "Over after 9 turns: White (seat 0) wins, board full"
    )


def test_sight_from_drawing_refuses_bad_drawings() -> None:
    with pytest.raises(GameError, match="3 rows of 3"):
        SightState.from_drawing(SightConfig(size=3), "W . / . .")
    with pytest.raises(GameError, match="a point is"):
        SightState.from_drawing(SightConfig(size=3), "X . . / . . . / . . .")


def test_sight_agents_rebuild_the_position_from_an_observation() -> None:
    config = GAME.config(pie=True, hand=30)
    positions = []
    play_one(
        GAME, config, _random_pair(), seed=4, on_action=lambda s, a: positions.append(s.clone())
    )
    for state in positions:
        seat = state.to_act()[0]
        rebuilt = position_of(config, state.observe(seat))
        same = np.ones(len(state.pos), dtype=bool)
        same[ADDS] = False  # the additions of the last action are in "added", not counted
        assert (rebuilt[same] == state.pos[same]).all()
