"""The planner's weights, the tuned and search agents, their armies and the usage counters
(R2, R3, R5, R6, R8, R12)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from antipolix import Game, Rules
from antipolix.agents import (
    AGENTS,
    Agent,
    MixedArmy,
    PlannerAgent,
    RandomArmy,
    SearchAgent,
    TunedAgent,
    agent_from_spec,
    agent_label,
    agent_named,
)
from antipolix.agents import search as search_module
from antipolix.agents import tuned as tuned_module
from antipolix.agents.army import FixedArmy, policy_from_spec
from antipolix.agents.builtin import compiled_seat
from antipolix.agents.memory import new_memory
from antipolix.agents.planner import (
    DEFAULT_WEIGHTS,
    I_ADVANCE,
    I_HUNT,
    I_HUNT_MIN,
    I_THREAT,
    WEIGHT_NAMES,
    WEIGHTS,
    weight_vector,
)
from antipolix.agents.search import SCRIPT_NAMES, SCRIPTS
from antipolix.agents.sight import sight_k
from antipolix.agents.tuned import tuned_weights, weights_fingerprint
from antipolix.autoplay import play_games
from antipolix.errors import AgentError, ArmyError
from antipolix.jit import packed
from antipolix.observation import seen_of
from antipolix.pieces import PieceType, Trait
from antipolix.play import play, play_game, verify
from antipolix.replay import load_replay
from antipolix.turn import PASS
from antipolix.usage import USAGE, UsageCounter

SMALL = Rules(shape=(3, 8, 8), players=2)


# -- weights and names ----------------------------------------------------------------------------


def test_the_hand_set_planner_keeps_its_weights_and_the_tactics_are_off() -> None:
    planner = PlannerAgent()
    assert np.array_equal(planner.weights, DEFAULT_WEIGHTS)
    assert "weights" not in planner.params()
    for name in ("network", "fortress", "crush"):
        assert planner.weights[WEIGHT_NAMES.index(name)] == 0.0
    assert all(w.low <= w.default <= w.high for w in WEIGHTS)


def test_weights_by_name_round_trip_through_the_spec() -> None:
    agent = PlannerAgent(weights={"advance": 0.2, "crush": 1.0})
    assert agent.params()["weights"] == {"advance": 0.2, "crush": 1.0}
    rebuilt = agent_from_spec(agent.spec())
    assert isinstance(rebuilt, PlannerAgent)
    assert np.array_equal(rebuilt.weights, agent.weights)


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ({"bogus": 1.0}, "no weight 'bogus'"),
        ({"win": float("nan")}, "must be finite"),
        ({"win": "high"}, "must be a number"),
    ],
)
def test_bad_weights_are_refused(weights: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        weight_vector(DEFAULT_WEIGHTS, weights)  # type: ignore[arg-type]


def test_tuned_weights_come_from_its_file_and_candidates_override_them() -> None:
    tuned = TunedAgent()
    assert np.array_equal(tuned.weights, tuned_weights())
    other = TunedAgent(weights={"advance": 0.5})
    i = WEIGHT_NAMES.index("advance")
    assert other.weights[i] == 0.5
    assert np.array_equal(np.delete(other.weights, i), np.delete(tuned_weights(), i))


@pytest.fixture
def more_players(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, float]]:
    """``tuned.json`` as if a study at a larger table had been installed (these weights)."""
    more = {"advance": 1.25, "crush": 0.5, "threat": 0.9}
    document = {**tuned_module._document(), "more_players": {"from": 3, "weights": more}}
    monkeypatch.setattr(tuned_module, "_document", lambda: document)
    tuned_module._tuned.cache_clear()
    yield more
    tuned_module._tuned.cache_clear()


def test_tuned_takes_the_larger_table_weights_from_three_players(
    more_players: dict[str, float],
) -> None:
    two, three, four = tuned_weights(2), tuned_weights(3), tuned_weights(4)
    assert np.array_equal(three, four) and not np.array_equal(two, four)
    for name, value in more_players.items():
        assert four[WEIGHT_NAMES.index(name)] == value
    hunt_min = WEIGHT_NAMES.index("hunt_min")  # hand-set: over both sets
    assert four[hunt_min] == two[hunt_min] == 0.12
    agent = TunedAgent(weights={"hunt": 0.3})  # given weights stay over either set
    assert agent.weights_for(2) is agent.weights
    mine = agent.weights_for(4)
    assert mine[WEIGHT_NAMES.index("hunt")] == 0.3
    assert np.array_equal(np.delete(mine, WEIGHT_NAMES.index("hunt")),
                          np.delete(four, WEIGHT_NAMES.index("hunt")))  # fmt: skip
    row = compiled_seat(agent, 4)
    assert row is not None and row[-len(WEIGHTS) :] == tuple(map(float, mine))
    planner = PlannerAgent()
    assert planner.weights_for(4) is planner.weights  # the hand-set planner has one set


def test_a_weight_given_at_its_two_player_value_is_recorded_when_larger_tables_differ(
    more_players: dict[str, float],
) -> None:
    """A tuned agent given ``advance`` at the 2-player value plays another weight at four
    players than ``tuned`` (its larger-table value): its parameters, label and spec say so,
    and the agent they make again plays the same weights at every table."""
    i = WEIGHT_NAMES.index("advance")
    two = float(tuned_weights(2)[i])
    assert two != more_players["advance"]
    agent = TunedAgent(weights={"advance": two})
    assert agent.weights_for(4)[i] == two != tuned_weights(4)[i]
    assert agent.params()["weights"] == {"advance": two}
    assert agent_label(agent) == f"tuned:advance={two!r}"
    for again in (agent_named(agent_label(agent)), agent_from_spec(agent.spec())):
        assert isinstance(again, TunedAgent)
        for players in (2, 4):
            assert np.array_equal(again.weights_for(players), agent.weights_for(players))
    assert "weights" not in TunedAgent(weights={"hunt_min": 0.12}).params()  # (the same at all)


def test_tuned_and_search_play_the_larger_table_weights_in_game_and_whole(
    more_players: dict[str, float],
) -> None:
    """At four players both paths play the larger-table weights, the same game (R12); the
    weights matter: without them the game differs."""
    rules = Rules(shape=(3, 8, 8), players=4, think_times="drawn")

    def agents() -> list[Agent]:
        names = ("tuned", "search:rollouts=2:depth=2", "planner", "tuned")
        return [agent_named(n) for n in names]

    seat = TunedAgent()
    seat.setup(rules, 0, np.random.default_rng(0))
    assert np.array_equal(seat.playing, tuned_weights(4))
    played = play_game(rules, agents(), 1)
    (whole,) = play_games(rules, [(agents(), np.random.SeedSequence(1))])
    assert whole is not None and whole.digest == played.game.digest
    tuned_module._tuned.cache_clear()
    digests = set()
    for document in (tuned_module._document(), {**tuned_module._document(), "more_players": {}}):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(tuned_module, "_document", lambda d=document: d)
            (again,) = play_games(rules, [(agents(), np.random.SeedSequence(1))])
            assert again is not None
            digests.add(again.digest)
    assert len(digests) == 2


def test_agents_by_name_take_parameters_and_labels_read_back() -> None:
    agent = agent_named("search:rollouts=2:depth=1")
    assert isinstance(agent, SearchAgent)
    assert (agent.rollouts, agent.depth, agent.width) == (2, 1, 4)
    assert agent_label(agent) == "search:rollouts=2:depth=1"
    assert agent_label(agent_named(agent_label(agent))) == agent_label(agent)
    assert agent_label(agent_named("planner")) == "planner"
    assert set(AGENTS) == {"random", "greedy", "planner", "tuned", "search"}


def test_the_planners_weights_go_by_name_and_their_labels_read_back_exactly() -> None:
    """``tuned:press=0`` is the tuned agent with that weight set (the Python API's
    ``TunedAgent(weights={"press": 0.0})``), its label says so, and a weight that ``:g``
    would round reads back as the same float."""
    agent = agent_named("tuned:press=0")
    assert isinstance(agent, TunedAgent)
    assert agent.params() == TunedAgent(weights={"press": 0.0}).params()
    assert agent.params()["weights"] == {"press": 0.0}
    assert agent_label(agent) == "tuned:press=0"
    fine = TunedAgent(weights={"threat": 0.12345678901234568, "advance": 0.5})
    again = agent_named(agent_label(fine))
    assert agent_label(fine) == "tuned:threat=0.12345678901234568:advance=0.5"
    assert np.array_equal(again.weights, fine.weights) and again.weights[I_THREAT] != 0.123457
    search = agent_named("search:rollouts=2:hunt=0")
    assert isinstance(search, SearchAgent) and search.rollouts == 2
    assert agent_label(search) == "search:rollouts=2:hunt=0"
    assert agent_label(agent_named("planner:crush=1.5")) == "planner:crush=1.5"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("wizard", "unknown agent 'wizard'"),
        ("greedy:press=0", "agent 'greedy' has no parameter 'press'"),
        ("tuned:pressure=1", "its weights: win, teleported,"),
        ("tuned:press=much", "press must be a number, got 'much'"),
        ("planner:hunt=nan", "hunt must be finite"),
        ("search:speed=3", "has no parameter 'speed'"),
        ("search:rollouts=two", "rollouts must be an integer"),
        ("search:rollouts", "expected name=value"),
        ("search:width=0", "width must be an integer >= 1"),
        ("search:width=5", "width must be at most 4"),
        ("planner:min_think=inf", "must be finite"),
        # (a negative mean think time was refused by the engine at the agent's first turn)
        ("random:mean_think=-1", "mean_think must be a finite number >= 0, got -1.0"),
        # (the kernel takes them as float64: 10**20 read as a negative count searched nothing)
        ("search:rollouts=" + "9" * 20, "rollouts must be at most 1,000,000, got 99,999,999"),
        ("search:depth=100001", "depth must be at most 100,000, got 100,001"),
        # a refusal quotes the first 60 characters of what it refuses, and its length
        ("x" * 10_000, r"unknown agent 'x{60}'\.\.\. \(10,000 characters\) \(built-in agents"),
        ("tuned:press=" + "9" * 400, r"got '9{60}'\.\.\. \(400 characters\)$"),
    ],
)
def test_bad_agent_names_are_refused(name: str, message: str) -> None:
    with pytest.raises(AgentError, match=message) as refused:
        agent_named(name)
    assert len(str(refused.value)) < 400


def test_a_search_of_the_most_rollouts_and_depth_it_takes_is_made() -> None:
    agent = agent_named("search:rollouts=1000000:depth=100000")
    assert isinstance(agent, SearchAgent)
    assert (agent.rollouts, agent.depth) == (1_000_000, 100_000)


# -- armies ---------------------------------------------------------------------------------------


def test_mixed_army_plays_each_doctrine_and_round_trips() -> None:
    policy = TunedAgent().army_policy
    assert isinstance(policy, MixedArmy)
    rng = np.random.default_rng(5)
    kinds = set()
    for _ in range(60):
        kinds.update(policy.choose(Rules(players=2), rng))
    for item in [
        (PieceType.FORTRESS, Trait.NONE),
        (PieceType.ARMY, Trait.TELEPORTER),
        (PieceType.ARMY, Trait.INVISIBLE),
        (PieceType.HOVERCRAFT, Trait.NONE),
    ]:
        assert item in kinds
    again = policy_from_spec(policy.spec())
    a, b = np.random.default_rng(1), np.random.default_rng(1)
    assert [again.choose(SMALL, a) for _ in range(5)] == [policy.choose(SMALL, b) for _ in range(5)]


def test_mixed_army_refuses_bad_weights() -> None:
    with pytest.raises(ArmyError, match="weights >= 0"):
        MixedArmy(((-1.0, FixedArmy({"army": 1})),))
    with pytest.raises(ArmyError, match="pairs"):
        MixedArmy((("x", FixedArmy({"army": 1})),))  # type: ignore[arg-type]


# -- the same games through Game and whole (R12) ---------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
def test_tuned_and_search_play_the_same_game_through_game_and_whole(seed: int) -> None:
    rules = Rules(shape=(3, 8, 8), players=2, think_times="drawn")
    agents = [agent_named("search:rollouts=2:depth=2:width=3"), agent_named("tuned")]
    played = play_game(rules, agents, seed)
    (whole,) = play_games(rules, [(agents, np.random.SeedSequence(seed))])
    assert whole is not None
    assert whole.digest == played.game.digest
    assert whole.result == played.result


def test_a_search_of_one_style_plays_the_tuned_agent() -> None:
    """One style (the tuned weights) never disagrees with itself: the search never rolls out
    and decides as the tuned agent does, with the same draws (R12)."""
    rules = Rules(shape=(3, 8, 8), players=2, think_times="drawn")
    games = [([agent_named(a), agent_named("planner")], np.random.SeedSequence(s))
             for s in (2, 3) for a in ("search:width=1", "tuned")]  # fmt: skip
    played = play_games(rules, games)
    assert all(p is not None for p in played)
    for search, tuned in (played[0:2], played[2:4]):
        assert search is not None and tuned is not None
        assert search.digest == tuned.digest


def test_the_first_style_is_the_tuned_weights_and_the_others_differ() -> None:
    assert SCRIPTS.shape == (len(SCRIPT_NAMES), len(WEIGHT_NAMES))
    assert np.all(SCRIPTS[0] == 1.0)
    for row in SCRIPTS[1:]:
        assert np.any(row != 1.0)


def test_a_search_game_is_the_same_every_time() -> None:
    agents = [agent_named("search:rollouts=2:depth=2"), agent_named("planner")]
    first, again = play_games(SMALL, [(agents, np.random.SeedSequence(4)) for _ in range(2)])
    assert first is not None and again is not None
    assert first.digest == again.digest


def rollouts_together_and_apart(seed: int) -> tuple[list[float], list[float]]:
    """Every style's value of one rollout (8 turns) from seat 0's view after 16 turns of two
    tuned agents (a fresh memory), its first order Pass under four styles: played together
    (:func:`antipolix.agents.search._rollout` with every style) and apart (one style a
    call), with the same generators."""
    rules = Rules(shape=(3, 8, 8), players=2, max_turns=16)
    played = play_game(rules, ["tuned", "tuned"], seed)
    agent = agent_named("tuned")
    assert isinstance(agent, TunedAgent)
    t, me, w = rules.tables, 0, agent.weights_for(rules.players)
    cells = 3 * 8 * 8
    memory = packed(new_memory(cells, rules.players))
    s = sight_k(t, packed(seen_of(played.game.observe(me), rules.shape)))
    styles = np.stack([w, w, w, w])  # the tuned weights, a passive, a rushing, a hunting style
    styles[1, [I_ADVANCE, I_THREAT, I_HUNT]] = 0.0
    styles[2, I_ADVANCE] *= 8
    styles[3, [I_HUNT, I_HUNT_MIN]] = 3 * w[I_HUNT], 0.0
    chiefs = search_module._chiefs(t, s, memory, w, np.random.default_rng(seed))
    base = search_module._determinized(t, s, chiefs)
    minds = search_module._minds(rules.players, cells, memory, me)
    agents = np.random.Generator(np.random.PCG64([seed, 1]))
    first = search_module._first_orders(t, base, me, w, minds, agents)
    none = np.empty(0, dtype=np.int64)
    out = []
    for rows in [styles, *(styles[c : c + 1] for c in range(len(styles)))]:
        engine = np.random.Generator(np.random.PCG64([seed, 0]))
        values = search_module._rollout(
            t, base, me, (PASS, 0, 0), none, 8, rows, w, first,
            search_module._copy_minds(minds), engine, copy.deepcopy(agents),
        )  # fmt: skip
        out.append([float(v) for v in values])
    return out[0], [v for (v,) in out[1:]]


def test_styles_with_one_first_order_roll_out_together_as_they_would_apart() -> None:
    """Styles whose first order is the same play each rollout once while the agent's orders
    under them agree, then apart: each style's value is the one its own rollout gives (the
    same draws, R12); in these positions the styles do come apart."""
    pairs = [rollouts_together_and_apart(seed) for seed in range(4)]
    for together, apart in pairs:
        assert together == apart
    assert any(len(set(apart)) > 1 for _, apart in pairs)


# -- R6: the search decides from its observation ---------------------------------------------------


def _position(hidden_extra: bool) -> Game:
    """Two pieces each, facing; with ``hidden_extra``, player 1 also has an invisible army in
    a far corner (R6: player 0 cannot know)."""
    game = Game(Rules(shape=(2, 8, 8), players=2, zones=False, budget=40), seed=3)
    game.place(0, PieceType.ARMY, Trait.CHIEF, (0, 1, 1))
    game.place(0, PieceType.ARMY, Trait.NONE, (0, 1, 2))
    game.place(0, PieceType.HOVERCRAFT, Trait.NONE, (0, 2, 2))
    game.place(1, PieceType.ARMY, Trait.CHIEF, (1, 4, 4))
    game.place(1, PieceType.ARMY, Trait.NONE, (1, 3, 3))
    if hidden_extra:
        game.place(1, PieceType.ARMY, Trait.INVISIBLE, (1, 7, 7))
    game.start()
    return game


def test_r6_the_search_decides_the_same_whatever_it_cannot_see() -> None:
    decisions = []
    for hidden in (False, True):
        game = _position(hidden)
        agent = SearchAgent(rollouts=3, depth=2, width=3)
        agent.setup(game.rules, 0, np.random.default_rng(11))
        obs = game.observe(0)
        decisions.append(agent.act(obs))
    assert decisions[0] == decisions[1]


# -- usage counters --------------------------------------------------------------------------------


def test_usage_counts_of_compiled_games_are_what_the_game_reports_show() -> None:
    """The compiled count (antipolix.autoplay) against the watcher that reads Game's reports
    (antipolix.usage), on games where every kind is bought and used."""
    rules = Rules(shape=(4, 10, 10), players=2, budget=80)
    every = RandomArmy(spend=(0.8, 1.0))
    totals = np.zeros((len(USAGE), 2), dtype=np.int64)
    for seed in range(6):
        agents = [TunedAgent(), agent_named("random")]
        agents[1] = type(agents[1])(army=every)
        counter = UsageCounter()
        play_game(rules, agents, seed, watchers=[counter])
        (whole,) = play_games(rules, [(agents, np.random.SeedSequence(seed))])
        assert whole is not None
        counts = np.array([counter.counts[name] for name in USAGE])
        assert np.array_equal(np.array(whole.usage), counts), seed
        totals += counts
    assert totals[0].sum() > 0 and totals[1].sum() > 0 and totals[2].sum() > 0


def test_the_spec_names_the_tuned_weights_and_other_ones_are_not_rebuilt(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A tuned or search agent recorded with another tuned.json (a study installed since) is
    not rebuilt as this one: its games would not be its games. A spec recorded before the
    fingerprint existed is read as before."""
    spec = SearchAgent(rollouts=2).spec()
    assert spec["tuned_weights"] == weights_fingerprint() == TunedAgent().spec()["tuned_weights"]
    assert agent_from_spec(spec).spec() == spec
    older = {k: v for k, v in spec.items() if k != "tuned_weights"}
    assert isinstance(agent_from_spec(older), SearchAgent)
    rules = Rules(shape=(3, 8, 8), players=2, max_turns=4)
    path = tmp_path / "g.apx.json.gz"
    play(rules, [TunedAgent(), agent_named("planner")], 3, replay=path)
    assert verify(load_replay(path)).agents_rerun
    document = {**tuned_module._document(), "more_players": {"from": 3, "weights": {"crush": 1}}}
    monkeypatch.setattr(tuned_module, "_document", lambda: document)
    tuned_module._tuned.cache_clear()
    try:
        assert weights_fingerprint() != spec["tuned_weights"]
        with pytest.raises(AgentError, match="played with other tuned weights"):
            agent_from_spec(spec)
        report = verify(load_replay(path))
        assert not report.agents_rerun
        assert "seat 0's agent 'tuned' played with other tuned weights" in str(report)
    finally:
        tuned_module._tuned.cache_clear()
