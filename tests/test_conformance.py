"""The conformance suite: every registered game (and the test-only tic-tac-toe) through the
same checks, so that a new game passes them or is not registered (registering a game in
``antipolix.games.REGISTRY`` adds it to every test here; CI runs them):

- it declares itself consistently (name, players, options, configuration round trip, agents,
  the columns of its results table);
- determinism by seed (R12): the same seed and actions give the same game, digest for digest;
- the mask against apply: every masked action applies, no other does (and a refused one
  changes nothing);
- a replay round trip: the game written, read back, re-played and its agents verified;
- the batch path against one game at a time;
- PettingZoo's own API and seed tests on its environment (AEC or Parallel);
- for a game of hidden information, what a seat observes depends only on what it may know;
- the runner's rows hold the game's own figures (nothing it reports is dropped);
- the seam: a game's package imports no platform layer above it, and the platform imports a
  game only through the registry.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from antipolix import games, simulate
from antipolix.errors import AntipolixError
from antipolix.games import host, replays
from antipolix.games.protocol import COMMON_COLUMNS, GameError, State
from antipolix.runner import Results
from tests.test_layout import import_graph

TEST_GAMES = {"tictactoe": "tests.games.tictactoe"}
NAMES = [*games.names(), *TEST_GAMES]
# small configurations, so that every check plays whole games in a moment
SMALL: dict[str, dict[str, Any]] = {
    "antipolix": {"shape": (4, 8, 8), "players": 2, "max_turns": 60},
}


@pytest.fixture(autouse=True)
def _test_games(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, module in TEST_GAMES.items():
        monkeypatch.setitem(games.REGISTRY, name, module)


def _game(name: str) -> Any:
    return games.game(name)


def _config(name: str) -> Any:
    return _game(name).config(**SMALL.get(name, {}))


def _random_game(name: str, seed: int, moves: int = 10_000) -> Iterator[State]:
    """A game played by uniformly random legal actions (a generator seeded by ``seed``),
    yielding each position before its actions."""
    game, rng = _game(name), np.random.default_rng(seed)
    state = game.new(_config(name), seed)
    for _ in range(moves):
        if state.over:
            return
        yield state
        state.apply({s: int(rng.choice(state.legal_actions(s))) for s in state.to_act()})
    yield state


def _trace(name: str, seed: int) -> list[int]:
    trace = []
    for state in _random_game(name, seed):
        trace.append(state.digest())
    return trace


# -- what a game declares ------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_game_declares_itself_consistently(name: str) -> None:
    game = _game(name)
    info = game.info
    assert info.name == name
    assert 1 <= info.min_players <= info.max_players
    assert info.board in ("2d", "3d") and info.version >= 1
    config = game.config()
    assert info.min_players <= config.players <= info.max_players
    data = game.config_to_dict(config)
    assert game.config_from_dict(data) == config
    options = [o.name for o in game.options]
    assert len(options) == len(set(options))
    assert set(options) == set(host.flat(data)), "one Option per rule option"
    for option in game.options:
        assert host.flat(data)[option.name] == option.default, option.name
    assert game.agents, "at least one built-in agent"
    for agent in host.default_agents(game):
        host.make_agent(game, agent)
    names = [c.name for c in host.columns(game)]
    assert names[: len(COMMON_COLUMNS) - 1] == [c.name for c in COMMON_COLUMNS[:-1]] or (
        set(names) >= {c.name for c in COMMON_COLUMNS}
    )
    if info.board == "2d":
        assert getattr(game, "scene", None) is not None, "a 2D game gives its scene"
        state = game.new(config, 0)
        scene = game.scene(state)
        assert len(host.board_text(game, state).splitlines()) >= scene.height  # demo's board
        # the sides' own colours, if the game names them: one "#rrggbb" a seat (Scene2D)
        for position in (state, *_random_game(name, 1, moves=6)):
            colours = game.scene(position).colours
            assert len(colours) in (0, int(config.players)), colours
            assert all(re.fullmatch(r"#[0-9A-Fa-f]{6}", c) for c in colours), colours


@pytest.mark.parametrize("name", NAMES)
def test_bad_rule_options_and_agents_are_refused_in_words(name: str) -> None:
    game = _game(name)
    with pytest.raises(AntipolixError, match="nonsense"):
        game.config_from_text({"nonsense": "1"})
    with pytest.raises(AntipolixError, match="nobody"):
        host.make_agent(game, "nobody")


# -- determinism, masks, replays, batches --------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_r12_the_same_seed_and_actions_give_the_same_game(name: str) -> None:
    for seed in (1, 2):
        first, again = _trace(name, seed), _trace(name, seed)
        assert first == again and len(first) > 1
    if _game(name).info.chance:  # the engine's draws follow the seed
        assert len({tuple(_trace(name, seed)) for seed in (1, 2, 3)}) > 1


@pytest.mark.parametrize("name", NAMES)
def test_every_masked_action_applies_and_no_other_does(name: str) -> None:
    """At positions along random games: the mask is the legal actions; each of them (at most
    25 a seat, drawn) applies on a copy, with the other seats' first legal actions; actions
    outside the mask, out of range or for a seat that does not act are refused and change
    nothing."""
    game, rng = _game(name), np.random.default_rng(5)
    size = game.num_actions(_config(name))
    checked = 0
    for k, state in enumerate(_random_game(name, 4)):
        if k % (8 if game.info.simultaneous else 1) or state.over:  # AntipoliX: long games
            continue
        acting = state.to_act()
        assert acting and list(acting) == sorted(acting)
        if not game.info.simultaneous:
            assert len(acting) == 1
        for seat in acting:
            legal = state.legal_actions(seat)
            mask = state.action_mask(seat)
            assert mask.shape == (size,) and mask.dtype == np.bool_
            assert np.flatnonzero(mask).tolist() == legal == sorted(legal)
            others = {s: state.legal_actions(s)[0] for s in acting if s != seat}
            for action in rng.permutation(legal)[:25]:
                child = state.clone()
                child.apply({**others, seat: int(action)})
                assert child.turn == state.turn + 1
            before = (state.digest(), state.turn)
            illegal = np.flatnonzero(~mask)
            for action in [*rng.permutation(illegal)[:20].tolist(), -1, size]:
                with pytest.raises(GameError):
                    state.apply({**others, seat: int(action)})
                assert (state.digest(), state.turn) == before
            checked += 1
        idle = [s for s in range(state.config.players) if s not in acting]
        for seat in idle:
            assert state.legal_actions(seat) == [] and not state.action_mask(seat).any()
            with pytest.raises(GameError):
                state.apply({seat: 0})
    assert checked >= 3


@pytest.mark.parametrize("name", NAMES)
def test_a_replay_round_trips_and_verifies(name: str, tmp_path: Path) -> None:
    game, config = _game(name), _config(name)
    agents = [host.make_agent(game, a) for a in host.default_agents(game)][: config.players]
    agents += agents[:1] * (config.players - len(agents))
    path = tmp_path / "game.apx.json.gz"
    outcome = replays.play(game, config, agents, 11, replay=path)
    assert path.read_bytes() == _replayed_bytes(game, config, agents, tmp_path)  # same bytes
    assert replays.game_of(path)[0] == name
    loaded = replays.load(path)
    report = replays.verify(loaded)
    assert report.complete, str(report)
    assert loaded.last_turn == outcome.turns or name == "antipolix"  # AntipoliX: turns of R10
    again = host.play(game, config, agents, 11)
    assert (again.winner, again.reason) == (outcome.winner, outcome.reason)
    assert again.turns == outcome.turns


def _replayed_bytes(game: Any, config: Any, agents: list[Any], tmp_path: Path) -> bytes:
    again = tmp_path / "again.apx.json.gz"
    replays.play(game, config, agents, 11, replay=again)
    return again.read_bytes()


@pytest.mark.parametrize("name", NAMES)
def test_the_batch_path_plays_the_games_one_at_a_time_gives(name: str) -> None:
    game, config = _game(name), _config(name)
    agents = [host.make_agent(game, a) for a in host.default_agents(game)]
    agents = (agents * config.players)[: config.players]
    seeds = [np.random.SeedSequence(3, spawn_key=(g, 0)) for g in range(6)]
    batch = host.play_batch(game, config, agents, seeds)
    if batch is None:
        pytest.skip(f"{name} has no batch path for {host.default_agents(game)}")
    one = [host.play(game, config, agents, s) for s in seeds]

    def key(o: Any) -> tuple[Any, ...]:
        return (o.winner, o.reason, o.turns, o.places, o.elimination_order, dict(o.extras))

    assert [key(o) for o in batch] == [key(o) for o in one]


# -- PettingZoo ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

    from antipolix.games.env import env

    def make() -> Any:
        return env(name, _config(name))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checkers' advice on Dict spaces
        if _game(name).info.simultaneous:
            parallel_api_test(make(), num_cycles=30)
            # the seed test samples actions without the mask: a forbidden one passes
            parallel_seed_test(lambda: env(name, _config(name), illegal_action="pass"), 30)
        else:
            checked = make()
            api_test(checked, num_cycles=30)
            assert checked.state.turn > 0, "the API checker played no turn of the game"
            seed_test(make, num_cycles=30)
            _illegal_actions_as_antipolix_refuses_them(name, make)


@pytest.mark.parametrize("name", NAMES)
def test_an_env_takes_its_rules_as_a_dict_and_refuses_what_is_no_rules(name: str) -> None:
    """``env(name, {"size": 7})``: rule options as a dict, as a rules file holds them (Sight's
    env took the dict as its configuration and failed on it with an AttributeError)."""
    from antipolix.games.env import env

    game = _game(name)

    def config_of(made: Any) -> dict[str, Any]:
        return dict(game.config_to_dict(made.rules if game.info.simultaneous else made.config))

    as_dict = game.config_to_dict(_config(name))
    assert config_of(env(name, as_dict)) == config_of(env(name, _config(name)))
    with pytest.raises(ValueError, match="got int"):
        env(name, 5)


def _illegal_actions_as_antipolix_refuses_them(name: str, make: Callable[[], Any]) -> None:
    from antipolix.games.env import IllegalActionError, InvalidActionError, env

    e = make()
    e.reset(seed=1)
    while (e.observe(e.agent_selection)["action_mask"] == 1).all():  # a position with one
        e.step(0)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = e.state.digest()
    with pytest.raises(IllegalActionError):
        e.step(bad)
    with pytest.raises(InvalidActionError):
        e.step("a")
    assert e.state.digest() == before and e.agent_selection == agent
    lose = env(name, _config(name), illegal_action="lose")
    lose.reset(seed=1)
    while (lose.observe(lose.agent_selection)["action_mask"] == 1).all():
        lose.step(0)
    first = lose.agent_selection
    lose.step(bad)
    assert all(lose.terminations.values())
    assert lose.rewards[first] == -1.0 and lose.infos[first]["illegal_action"] == bad


# -- hidden information --------------------------------------------------------------------------


def _antipolix_twins() -> list[tuple[State, State, int]]:
    """Pairs of AntipoliX positions that differ only in which of seat 1's pieces is its chief
    (R6: seat 0 sees enemy pieces, never their traits), along a few turns where seat 0 moves
    (never attacks) and seat 1 passes."""
    from antipolix.games.antipolix.state import AntipolixState
    from antipolix.pieces import PieceType, Trait
    from antipolix.rules import Rules

    army, hover = PieceType.ARMY, PieceType.HOVERCRAFT
    none, chief = Trait.NONE, Trait.CHIEF
    seat0 = [(army, chief, (0, 1, 1)), (army, none, (0, 1, 2)), (hover, none, (1, 2, 2))]

    def placement(seat1: list[Any]) -> Callable[[Any], None]:
        def place(game: Any) -> None:
            for seat, pieces in enumerate((seat0, seat1)):
                for kind, trait, cell in pieces:
                    game.place(seat, kind, trait, cell)

        return place

    one = [(army, chief, (0, 5, 5)), (army, none, (0, 3, 3)), (hover, none, (1, 3, 3))]
    other = [(army, none, (0, 5, 5)), (army, chief, (0, 3, 3)), (hover, none, (1, 3, 3))]
    rules = Rules(players=2, shape=(2, 12, 12), zones=False, budget=40)
    seed = np.random.SeedSequence(4)
    a = AntipolixState(rules, seed, placement(one))
    b = AntipolixState(rules, seed, placement(other))
    pairs = []
    for _ in range(5):
        chiefs = [{p.cell for p in s.env.game.pieces(1) if p.trait is chief} for s in (a, b)]
        assert chiefs[0] != chiefs[1]  # the truths differ
        pairs.append((a.clone(), b.clone(), 0))
        moves = [x for x in a.legal_actions(0) if 0 < x < a.env.attack_base]
        acts = {0: moves[0], 1: 0}
        a.apply(acts)
        b.apply(acts)
    return pairs


TWINS: dict[str, Callable[[], list[tuple[State, State, int]]]] = {
    "antipolix": _antipolix_twins,
}


@pytest.mark.parametrize("name", NAMES)
def test_r6_an_observation_depends_only_on_what_the_seat_may_know(name: str) -> None:
    game = _game(name)
    if game.info.perfect_information:
        state = next(iter(_random_game(name, 1)))
        seats = range(state.config.players)
        assert all(state.observe(s)["board"] == state.observe(0)["board"] for s in seats)
        return
    assert name in TWINS, f"{name} hides information: give this suite pairs of positions (TWINS)"
    pairs = TWINS[name]()
    assert pairs
    for a, b, seat in pairs:  # (each builder checks that the truths differ)
        assert a.observe(seat) == b.observe(seat)
        assert np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
        assert a.legal_actions(seat) == b.legal_actions(seat)


# -- the runner, and the seam ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_runner_keeps_every_figure_the_game_reports(name: str, tmp_path: Path) -> None:
    game, config = _game(name), _config(name)
    agents = (list(host.default_agents(game)) * config.players)[: config.players]
    results = simulate(config, agents, 4, 1, game=name, workers=0, out=tmp_path / "s")
    assert isinstance(results, Results) and results.game == name and results.complete
    frame = results.to_pandas()
    assert list(frame.columns) == [c.name for c in host.columns(game)]
    own = {c.name for c in host.columns(game)} - {c.name for c in COMMON_COLUMNS}
    outcome = host.play(game, config, [host.make_agent(game, a) for a in agents], 5)
    assert set(outcome.extras) == own, "every figure of an outcome is a declared column"


def test_a_game_imports_no_platform_layer_and_the_platform_no_game() -> None:
    graph = import_graph()
    platform = ("antipolix.runner", "antipolix.ladder", "antipolix.balance", "antipolix.tuning")
    platform += ("antipolix.cli", "viz")
    for name in games.names():
        package = f"antipolix.games.{name}"
        inside = {m for m in graph if m == package or m.startswith(package + ".")}
        leaks = {m: sorted(t for t in graph[m] if t.startswith(platform)) for m in inside}
        assert {m: t for m, t in leaks.items() if t} == {}, f"{name} imports the platform"
        outside = {m for m in graph if m not in inside and not m.startswith("antipolix.games.")}
        users = sorted(m for m in outside if graph[m] & inside)
        assert users == [], f"{users} import {package}: go through antipolix.games.game()"


def test_importing_antipolix_loads_no_game_but_antipolix_when_asked() -> None:
    """The registry is lazy: ``import antipolix`` (and the command's parsers) import no game's
    package; a game is imported when first named."""
    import json
    import subprocess
    import sys

    code = (
        "import json, sys, antipolix, antipolix.cli as c; c.parser(); "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('antipolix.games.'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(out.stdout)
    assert not any(m.startswith("antipolix.games.sight") for m in loaded), loaded
