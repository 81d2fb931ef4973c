"""Agents (R3, R5–R7, R12): army policies, agent objects, RandomAgent, GreedyAgent.

Boards are drawn one layer at a time, rows ``y`` top to bottom, columns ``x`` left to right.
Capital letters are chiefs; the digit after a name is the owner (``a0`` is player 0's piece).
Hand-made positions use zones off, an ample budget and timers off (``tests.positions``).
"""

from __future__ import annotations

import math
import pickle
from collections import Counter

import numpy as np
import pytest

from antipolix import Attack, Game, Move, Pass, PieceType, Rules, Trait, play
from antipolix.agents import (
    AGENTS,
    Agent,
    Decision,
    FixedArmy,
    GivenArmy,
    GreedyAgent,
    PlannerAgent,
    RandomAgent,
    RandomArmy,
    Sight,
    agent_from_spec,
    agent_named,
)
from antipolix.agents import army as army_module
from antipolix.agents.army import MAX_FREE_PIECES, checked_army, policy_from_spec
from antipolix.agents.tuned import doctrine_army
from antipolix.codec import item_name, parse_item
from antipolix.errors import AgentError, ArmyError, ChiefError, OverBudgetError
from antipolix.pieces import TraitCosts, TypeSpec, TypeTable
from antipolix.play import play_game
from tests.positions import make_game

ARMY, HOVER, FORT = PieceType.ARMY, PieceType.HOVERCRAFT, PieceType.FORTRESS
NONE, INVIS, TELE, CHIEF = Trait.NONE, Trait.INVISIBLE, Trait.TELEPORTER, Trait.CHIEF

SMALL = Rules(shape=(4, 8, 8), players=2, max_turns=60)


def cheb(a, b) -> int:
    """R1: Chebyshev distance."""
    return max(abs(int(u) - int(v)) for u, v in zip(a, b, strict=True))


def cost_of(rules: Rules, army) -> int:
    return sum(rules.piece_cost(k, t) for k, t in army)


def ready(agent: Agent, game: Game, seat: int, seed: int = 0) -> Agent:
    agent.setup(game.rules, seat, np.random.default_rng(seed))
    return agent


# -- army policies (R2, R3) ------------------------------------------------------------------------

VARIANTS = {
    "2p_small": SMALL,
    "4p_default": Rules(),
    "10p_default_board": Rules(players=10),
    "cheap": Rules(
        shape=(4, 8, 8),
        players=2,
        piece_types=TypeTable(
            army=TypeSpec(1, 2, 1), hovercraft=TypeSpec(1, 1, 2), fortress=TypeSpec(2, 5, 0)
        ),
        trait_costs=TraitCosts(invisible=1, teleporter=1),
    ),
    "free_hovercraft": Rules(
        shape=(4, 8, 8), players=2, piece_types=TypeTable(hovercraft=TypeSpec(0, 1, 2))
    ),
    "expensive": Rules(
        players=3,
        budget=60,
        piece_types=TypeTable(
            army=TypeSpec(20, 2, 1), hovercraft=TypeSpec(15, 1, 2), fortress=TypeSpec(40, 5, 0)
        ),
        trait_costs=TraitCosts(invisible=25, teleporter=30, chief=5),
    ),
    "budget_is_an_army_chief": Rules(shape=(4, 8, 8), players=2, budget=3),
}

MIXES = [
    {"army": 3, "hovercraft": 2, "army+invisible": 1},
    {"hovercraft": 1, "fortress": 1},
    {"army": 1, "army+teleporter": 2, "hovercraft+invisible": 1},
]


def assert_valid_army(rules: Rules, army) -> None:
    """R2, R3: exactly one chief, total cost within the budget (the engine's own check too)."""
    assert sum(1 for _, t in army if t is CHIEF) == 1
    assert cost_of(rules, army) <= rules.army_budget
    rules.check_army(0, army)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_r3_random_army_within_budget_one_chief_and_spends_what_it_can(name: str) -> None:
    rules = VARIANTS[name]
    menu_costs = [rules.piece_cost(k, t) for k, t in RandomArmy().menu]
    for seed in range(25):
        army = RandomArmy().choose(rules, np.random.default_rng(seed))
        assert_valid_army(rules, army)
        # documented: it keeps buying while any menu item is affordable (free ones up to a cap)
        # and another piece could be placed (its zone's cells)
        left = rules.army_budget - cost_of(rules, army)
        assert left < min(menu_costs) or len(army) in (MAX_FREE_PIECES + 1, rules.room)
        varied = RandomArmy(spend=(0.2, 0.9)).choose(rules, np.random.default_rng(seed))
        assert_valid_army(rules, varied)


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("mix", MIXES, ids=["3:2:1", "hover:fort", "tele"])
def test_r3_fixed_army_within_budget_one_chief(name: str, mix: dict) -> None:
    rules = VARIANTS[name]
    army = FixedArmy(mix).choose(rules, np.random.default_rng(0))
    assert_valid_army(rules, army)
    assert army[0] == (ARMY, CHIEF)
    left = rules.army_budget - cost_of(rules, army)
    costs = [rules.piece_cost(*parse_item(i)) for i in mix]
    assert left < min(costs) or len(army) in (MAX_FREE_PIECES + 1, rules.room)


BIG = {  # budgets that buy more pieces than a home zone holds (R3: an army may cost less)
    "zones": Rules(shape=(2, 6, 6), players=2, budget=10_000),
    "no zones": Rules(shape=(2, 4, 4), players=3, budget=10_000, zones=False),
    "a hundred million": Rules(shape=(2, 6, 6), players=2, budget=100_000_000),
}


@pytest.mark.parametrize("name", sorted(BIG))
def test_r3_a_budget_beyond_the_zone_buys_as_many_pieces_as_can_be_placed(name: str) -> None:
    """A built-in army stops where another piece could not be placed: its zone's cells (zones
    are disjoint and of equal volume), or without zones the board less a cell for each other
    chief. Before, it bought on (a hundred million points: millions of purchases, minutes)
    and the engine refused the army at placement."""
    rules = BIG[name]
    zones = rules.home_zones
    p, n, m = rules.shape
    most = zones[0].volume if zones else p * n * m - (rules.players - 1)
    assert rules.room == most
    policies = [RandomArmy(), RandomArmy(spend=(0.5, 1.0)), FixedArmy(MIXES[0]),
                GreedyAgent().default_army(), doctrine_army()]  # fmt: skip
    for policy in policies:
        army = policy.choose(rules, np.random.default_rng(1))
        assert len(army) == most, policy
        assert_valid_army(rules, army)
    if zones:  # and the game plays: every seat's army fits its zone
        short = Rules(shape=rules.shape, players=2, budget=rules.army_budget, max_turns=3)
        result = play_game(short, [GreedyAgent(), RandomAgent()], seed=2).result
        assert result.turns >= 1


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_r3_armies_that_fit_are_bought_as_without_the_room_limit(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit changes only armies the engine would refuse: an army that fits is the one a
    policy with no limit buys (the same draws from the generator), and one that would not is
    that army's first pieces, as many as fit."""
    rules = VARIANTS[name]
    most = rules.room
    policies = [RandomArmy(), RandomArmy(spend=(0.2, 0.9)), GreedyAgent().default_army()]
    limited = [[p.choose(rules, np.random.default_rng(s)) for s in range(10)] for p in policies]
    monkeypatch.setitem(vars(rules), "room", 1 << 40)  # (the cached property's value, for now)
    army_module._fixed_army.cache_clear()
    for policy, armies in zip(policies, limited, strict=True):
        for seed, army in enumerate(armies):
            unlimited = policy.choose(rules, np.random.default_rng(seed))
            assert army == unlimited[:most]
            assert len(army) == min(len(unlimited), most)
    army_module._fixed_army.cache_clear()


def test_r3_random_army_when_the_budget_is_exactly_the_cheapest_chief() -> None:
    rules = Rules(shape=(4, 8, 8), players=2, budget=2)  # valid: a hovercraft chief costs 2
    for seed in range(20):
        assert_valid_army(rules, RandomArmy().choose(rules, np.random.default_rng(seed)))


def test_r3_fixed_army_with_a_hovercraft_chief_fits_a_budget_of_one_chief() -> None:
    rules = Rules(shape=(4, 8, 8), players=2, budget=2)
    army = FixedArmy({"army": 1}, chief=HOVER).choose(rules, np.random.default_rng(0))
    assert army == [(HOVER, CHIEF)]


def test_r3_a_fixed_army_whose_chief_does_not_fit_buys_the_cheapest_chief() -> None:
    """Budget 2 (valid: a hovercraft chief costs 2): greedy's army chief (3) would not fit, so
    the cheapest chief that does is bought; a game of greedy agents on a small board failed
    at placement. A chief that fits is kept."""
    rules = Rules(shape=(4, 8, 8), players=2, budget=2)
    army = FixedArmy({"army": 1}).choose(rules, np.random.default_rng(0))
    assert army == [(HOVER, CHIEF)]
    assert_valid_army(rules, GreedyAgent().default_army().choose(rules, np.random.default_rng(0)))
    three = Rules(shape=(4, 8, 8), players=2, budget=3)
    assert FixedArmy({"army": 1}).choose(three, np.random.default_rng(0)) == [(ARMY, CHIEF)]


def test_fixed_army_hand_traced_composition() -> None:
    # Rules(): budget 61. Chief army (3) leaves 58. Shares army 2 : hovercraft 1; the item
    # furthest below its share is bought next, ties in mix order: a, a, h, a, a, h, ... each
    # cycle of (a, a, h) costs 3 + 3 + 2 = 8; 7 cycles cost 56 and leave 2, which buys one more
    # hovercraft. 1 chief + 14 armies + 8 hovercraft = 23 pieces costing 3 + 42 + 16 = 61.
    army = FixedArmy({"army": 2, "hovercraft": 1}).choose(Rules(), np.random.default_rng(0))
    assert army[0] == (ARMY, CHIEF)
    assert army[1:4] == [(ARMY, NONE), (ARMY, NONE), (HOVER, NONE)]
    assert Counter(army[1:]) == {(ARMY, NONE): 14, (HOVER, NONE): 8}
    assert cost_of(Rules(), army) == 61


@pytest.mark.parametrize("budget", [20, 61, 200, 997])
@pytest.mark.parametrize(
    "mix",
    [{"army": 3, "hovercraft": 2, "army+invisible": 1}, {"army": 1, "hovercraft": 5}],
    ids=["3:2:1", "1:5"],
)
def test_fixed_army_follows_its_proportions(budget: int, mix: dict) -> None:
    # With every item of the mix at the same price (hovercraft cost 3, invisible free), all of
    # them stop being affordable together, so each count is within 1 of share × total.
    rules = Rules(
        players=2,
        budget=budget,
        piece_types=TypeTable(hovercraft=TypeSpec(3, 1, 2)),
        trait_costs=TraitCosts(invisible=0),
    )
    army = FixedArmy(mix).choose(rules, None)
    bought = Counter(item_name(i) for i in army[1:])
    total, shares = len(army) - 1, sum(mix.values())
    assert total == (budget - 3) // 3
    for item, share in mix.items():
        assert abs(bought[item] - share / shares * total) <= 1, (item, bought, total)


def test_fixed_army_keeps_proportions_while_every_item_is_affordable() -> None:
    # With unequal prices the cheap items fill the end of the budget (documented: "until none is
    # affordable"); before the first item becomes unaffordable the proportions hold within 1.
    rules = Rules(players=2, budget=200)
    mix = {"army": 1, "army+teleporter": 1, "hovercraft": 2}
    army = FixedArmy(mix).choose(rules, None)
    costs = {parse_item(i): rules.piece_cost(*parse_item(i)) for i in mix}
    spent, counts = rules.piece_cost(ARMY, CHIEF), Counter()
    for n, item in enumerate(army[1:], start=1):
        if rules.army_budget - spent < max(costs.values()):
            break  # from here on some item of the mix is not affordable
        spent += costs[item]
        counts[item] += 1
        for other, share in mix.items():
            assert abs(counts[parse_item(other)] - share / 4 * n) <= 1
    assert sum(counts.values()) >= 10  # the check above covered a real stretch


def test_fixed_army_draws_nothing_from_the_generator() -> None:
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    army = FixedArmy({"army": 3, "hovercraft": 2}).choose(Rules(), rng)
    assert rng.bit_generator.state == before
    assert FixedArmy({"army": 3, "hovercraft": 2}).choose(Rules(), None) == army


def test_random_army_is_deterministic_per_seed_and_varies_across_seeds() -> None:
    rules = Rules()
    for seed in range(5):
        first = RandomArmy().choose(rules, np.random.default_rng(seed))
        assert RandomArmy().choose(rules, np.random.default_rng(seed)) == first
    armies = {tuple(RandomArmy().choose(rules, np.random.default_rng(s))) for s in range(10)}
    assert len(armies) >= 5


def test_random_army_respects_its_menu_weights_and_chief_types() -> None:
    policy = RandomArmy(menu=("army", "hovercraft+invisible"), weights=(1, 0), chief=(HOVER,))
    army = policy.choose(Rules(), np.random.default_rng(0))
    assert army[0] == (HOVER, CHIEF)
    assert set(army[1:]) == {(ARMY, NONE)}  # weight 0: never bought


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"menu": ()}, "non-empty menu"),
        ({"menu": ("army+chief",)}, "must not hold a chief"),
        ({"weights": (1.0,)}, "one weight >= 0 per menu item"),
        ({"chief": ()}, "at least one chief type"),
    ],
)
def test_random_army_refuses_bad_settings(kwargs: dict, message: str) -> None:
    with pytest.raises(ArmyError, match=message):
        RandomArmy(**kwargs)


@pytest.mark.parametrize(
    ("mix", "message"),
    [({}, "non-empty mapping"), ({"army+chief": 1}, "must not hold a chief"), ({"army": 0}, "> 0")],
)
def test_fixed_army_refuses_bad_settings(mix: dict, message: str) -> None:
    with pytest.raises(ArmyError, match=message):
        FixedArmy(mix)


@pytest.mark.parametrize(
    ("items", "error", "what"),
    [
        (["army+chief", "fortress", "fortress"], OverBudgetError, "over the budget"),
        (["army", "hovercraft"], ChiefError, "no chief"),
        (["army+chief", "hovercraft+chief"], ChiefError, "2 chiefs"),
    ],
)
def test_r3_given_army_is_checked_and_the_error_names_the_seat(items, error, what) -> None:
    # SMALL has a budget of 15: two fortresses (24) are too much.
    with pytest.raises(error, match=f"player 1's army .*{what}"):
        checked_army(SMALL, 1, items)
    with pytest.raises(AgentError, match=r"agent 'random' \(seat 1\) when choosing its army") as e:
        play(SMALL, [RandomAgent(), RandomAgent(army=GivenArmy(items))], seed=0)
    assert what in str(e.value)
    with pytest.raises(AgentError, match=r"\(seat 0\) when choosing its army"):
        play(SMALL, [GreedyAgent(), RandomAgent()], seed=0, armies=[items, None])


def test_given_army_accepts_names_pairs_and_a_comma_separated_string() -> None:
    want = ((ARMY, CHIEF), (HOVER, INVIS), (FORT, TELE))
    assert GivenArmy(["army+chief", (HOVER, INVIS), (2, 2)]).items == want
    assert GivenArmy("army+chief, hovercraft+invisible,fortress+teleporter").items == want
    assert GivenArmy(want).choose(Rules(), np.random.default_rng(0)) == list(want)


@pytest.mark.parametrize(
    ("item", "want"),
    [
        ("hovercraft+invisible", (HOVER, INVIS)),
        ("army", (ARMY, NONE)),
        (" Army+CHIEF ", (ARMY, CHIEF)),
        ("fortress+teleporter", (FORT, TELE)),
        ((PieceType.HOVERCRAFT, Trait.INVISIBLE), (HOVER, INVIS)),
        ((0, 3), (ARMY, CHIEF)),
    ],
)
def test_parse_item_accepts_names_and_pairs(item, want) -> None:
    got = parse_item(item)
    assert got == want
    assert isinstance(got[0], PieceType) and isinstance(got[1], Trait)
    assert parse_item(item_name(got)) == got


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("tank", "unknown army item 'tank'"),
        ("army+flying", "unknown army item 'army\\+flying'"),
        ("", "unknown army item ''"),
        (42, "an army item is a \\(PieceType, Trait\\) pair"),
        ((7, 0), "got \\(7, 0\\)"),
        (("army", "chief", "x"), "an army item is"),
        (None, "got None"),
    ],
)
def test_parse_item_refuses_junk_with_a_message(item, message: str) -> None:
    with pytest.raises(ArmyError, match=message):
        parse_item(item)


@pytest.mark.parametrize(
    "policy",
    [
        RandomArmy(),
        RandomArmy(menu=("army", "hovercraft+invisible"), weights=(2, 1), chief=(HOVER,)),
        RandomArmy(spend=(0.25, 0.75)),
        FixedArmy({"army": 3, "hovercraft": 2, "army+invisible": 1}),
        FixedArmy({"fortress+teleporter": 1, "hovercraft": 4}, chief=HOVER),
        GivenArmy(["army+chief", "hovercraft", "fortress+invisible"]),
    ],
    ids=repr,
)
def test_army_policy_spec_round_trips(policy) -> None:
    import json

    spec = json.loads(json.dumps(policy.spec()))  # plain data
    again = policy_from_spec(spec)
    assert again == policy
    assert again.spec() == policy.spec()
    rules = Rules()
    assert again.choose(rules, np.random.default_rng(4)) == policy.choose(
        rules, np.random.default_rng(4)
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"policy": "lottery"}, "unknown army policy 'lottery'"),
        ({"policy": "fixed"}, "malformed army policy"),
        ({"policy": "random", "menu": ["tank"], "chief": ["army"]}, "unknown army item"),
    ],
)
def test_policy_from_spec_refuses_bad_data(spec: dict, message: str) -> None:
    with pytest.raises(ArmyError, match=message):
        policy_from_spec(spec)


# -- agent objects ---------------------------------------------------------------------------------


def test_builtins_are_importable_and_named() -> None:
    assert AGENTS["random"] is RandomAgent and AGENTS["greedy"] is GreedyAgent
    assert isinstance(agent_named("random"), RandomAgent)
    assert isinstance(agent_named(" Greedy "), GreedyAgent)


def test_agent_named_unknown_lists_the_builtins() -> None:
    with pytest.raises(AgentError, match=r"unknown agent 'nobody' \(built-in agents: ") as e:
        agent_named("nobody")
    listed = str(e.value).split("built-in agents: ")[1].rstrip(")").split(", ")
    assert listed == sorted(AGENTS) and {"greedy", "random"} <= set(listed)


@pytest.mark.parametrize(
    "agent",
    [
        RandomAgent(),
        RandomAgent(army=FixedArmy({"hovercraft": 1}), mean_think=2.5),
        GreedyAgent(),
        GreedyAgent(army=RandomArmy(menu=("army", "hovercraft"))),
    ],
    ids=repr,
)
def test_agent_spec_round_trips_to_the_same_player(agent: Agent) -> None:
    again = agent_from_spec(agent.spec())
    assert type(again) is type(agent)
    assert again.spec() == agent.spec()
    a = play_game(SMALL, [agent, RandomAgent()], seed=5, keep_reports=True)
    b = play_game(SMALL, [again, RandomAgent()], seed=5, keep_reports=True)
    assert a.reports == b.reports


@pytest.mark.parametrize(
    "spec",
    [
        {"name": "nobody"},
        "random",
        {"name": "random"},  # no army policy
        {"name": "random", "params": {"speed": 1}, "army": RandomArmy().spec()},
    ],
)
def test_agent_from_spec_refuses_what_it_cannot_rebuild(spec) -> None:
    with pytest.raises(AgentError):
        agent_from_spec(spec)


def test_agents_are_picklable_and_a_pickled_agent_plays_the_same_game(tmp_path) -> None:
    agents = [GreedyAgent(army=FixedArmy({"army": 1, "hovercraft+invisible": 1})), RandomAgent()]
    copies = [pickle.loads(pickle.dumps(a)) for a in agents]
    play(SMALL, agents, seed=11, replay=tmp_path / "a.apx.json.gz")
    play(SMALL, copies, seed=11, replay=tmp_path / "b.apx.json.gz")
    assert (tmp_path / "a.apx.json.gz").read_bytes() == (tmp_path / "b.apx.json.gz").read_bytes()
    assert len(pickle.dumps(agents)) < 2000  # small: parameters and a policy, no game state


@pytest.mark.parametrize("make", [RandomAgent, GreedyAgent, PlannerAgent])
def test_a_set_up_agent_pickled_mid_game_decides_as_the_original(make) -> None:
    # a set-up agent shipped to a worker (Ray) has its kernels' generator held anew from its
    # own generator's copy (antipolix.jit.held): from one observation, the same decision, and
    # both generators go on alike (R12)
    game = play_game(SMALL, [GreedyAgent(), RandomAgent()], seed=7).game
    agent = make()
    agent.setup(SMALL, 0, np.random.default_rng(5))
    agent.act(game.observe(0))
    again = pickle.loads(pickle.dumps(agent))
    assert again.act(game.observe(0)) == agent.act(game.observe(0))
    assert again.rng.random() == agent.rng.random()


def test_one_agent_object_in_several_seats() -> None:
    # play copies the agent for each seat: the object is not set up or changed by the game
    agent = RandomAgent()
    before = pickle.dumps(agent)
    shared = play_game(SMALL, [agent, agent], seed=4, keep_reports=True)
    assert pickle.dumps(agent) == before
    assert not hasattr(agent, "seat")
    separate = play_game(SMALL, [RandomAgent(), RandomAgent()], seed=4, keep_reports=True)
    assert shared.reports == separate.reports
    assert shared.armies == separate.armies


def test_r12_each_seat_gets_its_own_spawned_generator() -> None:
    # the army each seat placed is its policy applied to the generator of game.agent_seed(seat)
    played = play_game(SMALL, [RandomAgent(), RandomAgent()], seed=9)
    game = Game(SMALL, seed=9)
    for seat in range(2):
        rng = np.random.Generator(np.random.PCG64(game.agent_seed(seat)))
        want = RandomArmy().choose(SMALL, rng)
        assert [(p.type, p.trait) for p in played.armies[seat]] == want
    assert [(p.type, p.trait) for p in played.armies[0]] != [
        (p.type, p.trait) for p in played.armies[1]
    ]


# -- RandomAgent -----------------------------------------------------------------------------------

TELEPORT_ARMIES = [
    ["army+chief", "army+teleporter", "hovercraft+teleporter", "hovercraft", "army"],
    ["hovercraft+chief", "fortress+teleporter", "army+teleporter", "army+invisible", "army"],
]


def drive(rules: Rules, agents: list[Agent], seed: int, armies):
    """Play a game like ``play_game``, yielding ``(game, seat, decision)`` before each turn."""
    game = Game(rules, seed)
    for seat, agent in enumerate(agents):
        agent.setup(rules, seat, np.random.Generator(np.random.PCG64(game.agent_seed(seat))))
        game.place_army(seat, checked_army(rules, seat, armies[seat]))
    game.start()
    while game.result is None:
        decisions = {seat: agents[seat].act(game.observe(seat)) for seat in game.living}
        for seat, decision in decisions.items():
            yield game, seat, decision
        game.play_turn(
            {s: d.order for s, d in decisions.items()},
            think_times={s: d.think_time for s, d in decisions.items()},
        )


def test_r4_r5_random_agent_orders_are_legal_when_decided_with_teleporters() -> None:
    rules = Rules(shape=(4, 8, 8), players=2, max_turns=60, budget=50)
    kinds: Counter = Counter()
    teleports = 0
    for seed in range(4):
        for game, seat, decision in drive(
            rules, [RandomAgent(), RandomAgent()], seed, TELEPORT_ARMIES
        ):
            order = decision.order
            assert game.is_legal(seat, order), (seed, game.turn, seat, order)
            assert decision.think_time >= 0
            kinds[type(order).__name__] += 1
            if isinstance(order, Move):
                piece = game.piece(order.piece)
                teleports += cheb(piece.cell, order.cell) > rules.piece_types[piece.type].move
    assert kinds["Move"] and kinds["Attack"] and kinds["Pass"], kinds
    assert teleports > 0  # the teleporter networks were used (R5)


def key(order):
    if isinstance(order, Attack):
        return ("Attack", tuple(sorted(order.pieces)), tuple(order.cell))
    if isinstance(order, Move):
        return ("Move", order.piece, tuple(order.cell))
    return ("Pass",)


def legal_orders(game: Game, player: int) -> set:
    """Every order RandomAgent may draw (R4): Pass, each legal move of each own piece, and one
    attack per visible enemy piece by every own piece that reaches it."""
    shape = game.rules.shape
    cells = [(z, y, x) for z in range(shape[0]) for y in range(shape[1]) for x in range(shape[2])]
    out = {key(Pass())}
    own = game.pieces(player)
    for piece in own:
        out |= {key(Move(piece.id, c)) for c in cells if game.is_legal(player, Move(piece.id, c))}
    for enemy in game.pieces():
        if enemy.owner == player or enemy.trait is INVIS:
            continue
        attackers = [p.id for p in own if p.type is not FORT and game.reaches(p.id, enemy.cell)]
        if attackers:
            attack = Attack(attackers, enemy.cell)
            assert game.is_legal(player, attack)
            out.add(key(attack))
    return out


def uniform_check(game: Game, player: int, n_legal: int, samples: int) -> Counter:
    legal = legal_orders(game, player)
    assert len(legal) == n_legal  # the hand count in the drawing agrees with the engine
    agent = RandomAgent()
    obs = game.observe(player)
    seen: Counter = Counter()
    for i in range(samples):
        agent.setup(game.rules, player, np.random.default_rng(i))
        seen[key(agent.act(obs).order)] += 1
    assert set(seen) <= legal, set(seen) - legal
    p = 1 / n_legal
    tolerance = 5 * math.sqrt(p * (1 - p) / samples)  # 5 standard errors of a frequency
    for order in legal:
        assert abs(seen[order] / samples - p) < tolerance, (order, seen[order], samples)
    return seen


def test_r4_random_agent_is_uniform_over_legal_orders() -> None:
    #   x: 0   1   2
    #   A0  .   i1      y=0    i1: player 1's invisible army (looks free to player 0, R6)
    #   .   a0  .       y=1
    #   .   .   B1      y=2
    # Player 0: A0 (army, field 1) moves to (0,0,1) or (0,1,0): 2 moves ((0,1,1) is a0's).
    # a0 (army) moves to its 8 neighbours but A0's cell and B1's (a visible enemy): 6 moves,
    # (0,0,2) included (crushes i1). One attack: a0 on B1 (A0 is 2 away). Plus Pass: 10 orders.
    game, (chief, a0, _, big) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (1, ARMY, INVIS, (0, 0, 2)),
            (1, ARMY, CHIEF, (0, 2, 2)),
        ],
        shape=(1, 3, 3),
    )
    seen = uniform_check(game, 0, n_legal=10, samples=6000)
    assert key(Move(a0, (0, 0, 2))) in seen
    assert key(Attack([a0], (0, 2, 2))) in seen
    assert key(Move(chief, (0, 0, 1))) in seen


def test_r4_r5_random_agent_is_uniform_with_teleporters() -> None:
    #   x: 0   1   2   3   4
    #   A0  T0  .   .   .      y=0   T0: player 0's hovercraft+teleporter
    #   .   .   .   .   .      y=1
    #   .   .   .   .   .      y=2
    #   .   .   .   .   .      y=3
    #   .   .   .   U0  B1     y=4   U0: player 0's fortress+teleporter, 4 from T0: connected
    # A0 stands next to T0, so it also reaches the cells around U0 (R5): (0,1,0), (0,1,1) by
    # walking, (0,3,2), (0,3,3), (0,3,4), (0,4,2) by teleport: 6 moves; and it attacks B1.
    # T0 (field 2) reaches y 0..2, x 0..3 (11 cells) except A0's: 10 moves; it is next to no
    # other teleporter. U0 never moves. 6 + 10 + 1 attack + Pass = 18 orders.
    game, (chief, t0, _, _) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, HOVER, TELE, (0, 0, 1)),
            (0, FORT, TELE, (0, 4, 3)),
            (1, ARMY, CHIEF, (0, 4, 4)),
        ]
    )
    seen = uniform_check(game, 0, n_legal=18, samples=6000)
    assert key(Attack([chief], (0, 4, 4))) in seen
    assert key(Move(chief, (0, 3, 2))) in seen


def test_r7_random_agent_think_time_is_exponential_with_its_mean() -> None:
    game, _ = make_game([(0, ARMY, CHIEF, (0, 0, 0)), (1, ARMY, CHIEF, (0, 4, 4))])
    agent = ready(RandomAgent(mean_think=2.5), game, 0, seed=1)
    times = np.array([agent.act(game.observe(0)).think_time for _ in range(4000)])
    assert (times >= 0).all()
    # exponential: standard deviation = mean, so the sample mean has standard error mean/√n
    assert abs(times.mean() - 2.5) < 5 * 2.5 / math.sqrt(len(times))


# -- GreedyAgent -----------------------------------------------------------------------------------


def greedy_decides(game: Game, seat: int = 0) -> Decision:
    decision = ready(GreedyAgent(), game, seat).act(game.observe(seat))
    assert isinstance(decision, Decision)
    assert 0.2 <= decision.think_time < 1.5  # documented think time (R7)
    assert game.is_legal(seat, decision.order)
    return decision


# shape (1, 7, 7), shared by the attack tests:
#   x: 0   1   2   3   4   5   6
#   .   .   .   .   .   .   B1     y=0
#   .   .   .   .   .   .   .      y=1
#   .   .   a0  t1  .   .   .      y=2    t1: the target, 1 right of a0
#   .   .   .   .   .   .   .      y=3
#   ... A0 at (0,6,0), 4 or more from t1: never threatened here


def attack_position(target: PieceType, extra=()):
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 6, 0)),
            (0, ARMY, NONE, (0, 2, 2)),
            (1, ARMY, CHIEF, (0, 0, 6)),
            (1, target, NONE, (0, 2, 3)),
            *extra,
        ],
        shape=(1, 7, 7),
    )


def test_r8_greedy_attacks_when_power_beats_visible_defence() -> None:
    # a0 (army, strength 2) against t1 (hovercraft, strength 1, no neighbour): 2 > 1.
    game, (_, a0, *_) = attack_position(HOVER)
    assert greedy_decides(game).order == Attack([a0], (0, 2, 3))


def test_r8_greedy_does_not_attack_an_equal_defence() -> None:
    # t1 is an army: 2 against 2 is no win (R8, strict); nothing else is in reach.
    game, _ = attack_position(ARMY)
    assert not isinstance(greedy_decides(game).order, Attack)


def test_r8_greedy_counts_the_visible_neighbours_in_the_defence() -> None:
    # t1 (hovercraft, 1) with h1 (hovercraft, 1) at (0,1,3) beside it: defence 2 = power 2.
    game, _ = attack_position(HOVER, extra=[(1, HOVER, NONE, (0, 1, 3))])
    assert not isinstance(greedy_decides(game).order, Attack)


def test_r6_greedy_cannot_count_an_invisible_defender() -> None:
    # i1 (invisible army, 2) beside t1: the true defence is 3, the visible one 1 (R6); the
    # greedy agent attacks, and loses.
    game, (_, a0, *_) = attack_position(HOVER, extra=[(1, ARMY, INVIS, (0, 1, 3))])
    order = greedy_decides(game).order
    assert order == Attack([a0], (0, 2, 3))
    assert game.defence_power((0, 2, 3)) == 3


def value_position():
    #   x: 0   1   2   3   4   5   6
    #   .   .   .   .   .   .   B1     y=0
    #   .   .   .   .   .   .   .      y=1
    #   .   h1  a0  .   .   .   .      y=2    h1: hovercraft, defence 1 (worth 2)
    #   .   .   c0  r1  .   .   .      y=3    r1: army, defence 2 (worth 3); h1, r1 2 apart
    #   ...
    #   A0  .   .   .   .   .   .      y=6
    # a0 and c0 (armies) both reach h1 and r1: power 4 beats both; h1 has the larger margin.
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 6, 0)),
            (0, ARMY, NONE, (0, 2, 2)),
            (0, ARMY, NONE, (0, 3, 2)),
            (1, ARMY, CHIEF, (0, 0, 6)),
            (1, HOVER, NONE, (0, 2, 1)),
            (1, ARMY, NONE, (0, 3, 3)),
        ],
        shape=(1, 7, 7),
    )


def test_greedy_prefers_the_higher_value_target() -> None:
    game, (_, a0, c0, _, _, _) = value_position()
    order = greedy_decides(game).order
    assert isinstance(order, Attack)
    assert order.cell == (0, 3, 3)  # the army (cost 3), not the hovercraft (cost 2)
    assert sorted(order.pieces) == [a0, c0]


def test_greedy_prefers_a_suspected_chief_to_a_piece_seen_moving() -> None:
    # As in value_position, but r1 starts at (0,4,3) and moves to (0,3,3) in turn 1: the agent
    # that saw it move no longer suspects it of being the chief and goes for h1 instead.
    game, (_, a0, c0, _, h1, r1) = make_game(
        [
            (0, ARMY, CHIEF, (0, 6, 0)),
            (0, ARMY, NONE, (0, 2, 2)),
            (0, ARMY, NONE, (0, 3, 2)),
            (1, ARMY, CHIEF, (0, 0, 6)),
            (1, HOVER, NONE, (0, 2, 1)),
            (1, ARMY, NONE, (0, 4, 3)),
        ],
        shape=(1, 7, 7),
    )
    watcher = ready(GreedyAgent(), game, 0)
    watcher.act(game.observe(0))  # sees r1 on (0,4,3)
    game.play_turn({0: Pass(), 1: Move(r1, (0, 3, 3))})
    order = watcher.act(game.observe(0)).order
    assert key(order) == key(Attack([a0, c0], (0, 2, 1)))
    newcomer = ready(GreedyAgent(), game, 0)  # never saw r1 move: value decides
    assert newcomer.act(game.observe(0)).order.cell == (0, 3, 3)


def test_greedy_moves_its_threatened_chief_away() -> None:
    #   x: 0   1   2   3   4   5   6
    #   ...                            y=0..2 empty
    #   .   .   .   A0  .   e1  .      y=3    e1: enemy army 2 from A0: reaches A0's
    #   ...                                   neighbourhood next turn; 2 >= A0's defence 2
    #   .   .   .   .   .   .   B1     y=6
    # A0 cannot beat e1 (out of reach): it moves to a free neighbour farthest from the
    # enemies: x = 2, distance 3 from e1 (and 3 or 4 from B1).
    game, (chief, e1, _) = make_game(
        [(0, ARMY, CHIEF, (0, 3, 3)), (1, ARMY, NONE, (0, 3, 5)), (1, ARMY, CHIEF, (0, 6, 6))],
        shape=(1, 7, 7),
    )
    order = greedy_decides(game).order
    assert isinstance(order, Move) and order.piece == chief
    assert order.cell in {(0, 2, 2), (0, 3, 2), (0, 4, 2)}
    enemies = [(0, 3, 5), (0, 6, 6)]
    assert min(cheb(order.cell, e) for e in enemies) > min(cheb((0, 3, 3), e) for e in enemies)


def test_greedy_attacks_the_threat_to_its_chief_first() -> None:
    #   x: 0   1   2   3   4   5   6
    #   .   .   .   .   .   .   B1     y=0
    #   .   .   .   .   .   .   .      y=1
    #   .   .   .   h1  .   .   .      y=2   h1: hovercraft 3 from A0 (a threat)
    #   A0  .   a0  .   .   .   .      y=3
    #   .   .   c0  r1  .   .   .      y=4   r1: army 3 from A0 (not a threat: field 1)
    #   .   .   .   .   .   .   .      y=5
    #   h2  .   .   .   .   .   .      y=6   h2: hovercraft 3 from A0 (a threat)
    # h1 + h2 = 2 >= A0's defence 2: A0 is threatened. a0 beats h1 (2 > 1); a0 + c0 would beat
    # the more valuable r1 (4 > 2), which is what the agent picks when h2 is absent.
    pieces = [
        (0, ARMY, CHIEF, (0, 3, 0)),
        (0, ARMY, NONE, (0, 3, 2)),
        (0, ARMY, NONE, (0, 4, 2)),
        (1, ARMY, CHIEF, (0, 0, 6)),
        (1, HOVER, NONE, (0, 2, 3)),
        (1, ARMY, NONE, (0, 4, 3)),
    ]
    game, (_, a0, c0, *_) = make_game([*pieces, (1, HOVER, NONE, (0, 6, 0))], shape=(1, 7, 7))
    assert greedy_decides(game).order == Attack([a0], (0, 2, 3))
    calm, (_, a0, c0, *_) = make_game(pieces, shape=(1, 7, 7))
    attack = greedy_decides(calm).order
    assert isinstance(attack, Attack) and attack.cell == (0, 4, 3)
    assert sorted(attack.pieces) == sorted([a0, c0])


@pytest.mark.parametrize(("kind", "step"), [(ARMY, 1), (HOVER, 2)])
def test_greedy_advances_toward_the_nearest_enemy(kind: PieceType, step: int) -> None:
    #   x: 0   1   2   3   4   5   6
    #   m0  .   .   .   .   .   B1     y=0    m0: the mover, 6 from B1
    #   ...
    #   A0  .   .   .   .   .   .      y=6    the chief stays back
    # Nothing to attack, no threat: m0 moves its full field toward B1 (distance 6 - step).
    game, (chief, m0, _) = make_game(
        [(0, ARMY, CHIEF, (0, 6, 0)), (0, kind, NONE, (0, 0, 0)), (1, ARMY, CHIEF, (0, 0, 6))],
        shape=(1, 7, 7),
    )
    order = greedy_decides(game).order
    assert isinstance(order, Move) and order.piece == m0
    assert cheb(order.cell, (0, 0, 6)) == 6 - step


def test_r5_greedy_advances_through_a_teleporter_when_that_is_nearer() -> None:
    #   x: 0   1   2   3   4   5   6   7   8
    #   a0  F0  .   .   .   G0  .   .   B1     y=4 (other rows empty; A0 at (0,8,0))
    # F0, G0: player 0's fortress teleporters, 4 apart (connected, R5). a0 stands next to F0,
    # so it reaches the cells around G0: x = 6 is 2 from B1, against 7 by walking.
    game, (chief, a0, _, _, _) = make_game(
        [
            (0, ARMY, CHIEF, (0, 8, 0)),
            (0, ARMY, NONE, (0, 4, 0)),
            (0, FORT, TELE, (0, 4, 1)),
            (0, FORT, TELE, (0, 4, 5)),
            (1, ARMY, CHIEF, (0, 4, 8)),
        ],
        shape=(1, 9, 9),
    )
    order = greedy_decides(game).order
    assert isinstance(order, Move) and order.piece == a0
    assert order.cell[2] == 6 and cheb(order.cell, (0, 4, 8)) == 2
    assert order.cell in game.reach(a0)


# -- R6, R12: decisions from the observation only --------------------------------------------------


def twin_games():
    """Two games that differ only by where player 1's invisible army stands, far from player 0.

    x: 0   1   2   3   4   5   6
    A0  a0  .   .   .   .   .      y=0
    .   h0  .   .   .   .   .      y=1
    .   .   .   .   .   .   .      y=2
    .   .   .   .   b1  .   .      y=3
    .   .   .   .   .   .   .      y=4
    .   .   .   .   .   .   i1'    y=5   i1': the invisible army in the second game
    .   .   .   .   i1  .   B1     y=6   i1: the invisible army in the first game
    """
    games = []
    for hidden in [(0, 6, 4), (0, 5, 6)]:
        game, _ = make_game(
            [
                (0, ARMY, CHIEF, (0, 0, 0)),
                (0, ARMY, NONE, (0, 0, 1)),
                (0, HOVER, NONE, (0, 1, 1)),
                (1, ARMY, CHIEF, (0, 6, 6)),
                (1, ARMY, NONE, (0, 3, 4)),
                (1, ARMY, INVIS, hidden),
            ],
            shape=(1, 7, 7),
        )
        games.append(game)
    return games


def test_r6_r12_an_agent_decides_from_its_observation_only() -> None:
    one, two = twin_games()
    assert one.pieces() != two.pieces()  # the truth differs
    a, b = one.observe(0), two.observe(0)
    for name in ("ids", "owners", "types", "traits", "cells"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert (a.turn, a.timer, a.living, a.nul, a.messages, a.events) == (
        b.turn,
        b.timer,
        b.living,
        b.nul,
        b.messages,
        b.events,
    )
    assert 5 not in a.ids.tolist()  # the invisible army is not in player 0's observation
    for cls in (RandomAgent, GreedyAgent):
        for seed in range(20):
            da = ready(cls(), one, 0, seed).act(a)
            db = ready(cls(), two, 0, seed).act(b)
            assert da == db, (cls.name, seed)


# -- no rule written into an agent: strengths, costs and fields come from the rules ----------


REBALANCED = Rules(
    shape=(1, 7, 7),
    players=2,
    zones=False,
    budget=1000,
    piece_types=TypeTable(
        army=TypeSpec(cost=3, strength=5, move=1),
        hovercraft=TypeSpec(cost=9, strength=4, move=2),
        fortress=TypeSpec(cost=12, strength=5, move=0),
    ),
)


def _rebalanced(rules: Rules, pieces):
    game = Game(rules, seed=0)
    ids = [game.place(p, kind, trait, cell) for p, kind, trait, cell in pieces]
    game.start()
    return game, ids


def test_re_balanced_strengths_change_what_the_planner_believes() -> None:
    # the planner measures margins in the strongest mobile type's strength (R2), and an enemy
    # attacker it no longer sees by the strength of its type as last seen: never a 1995 number
    default = Rules(shape=(1, 7, 7), players=2, zones=False, budget=1000)
    pieces = [
        (0, ARMY, CHIEF, (0, 0, 0)),
        (1, ARMY, CHIEF, (0, 6, 6)),
        (1, HOVER, NONE, (0, 3, 3)),
    ]
    beliefs = {}
    for rules in (default, REBALANCED):
        game, (_, _, h1) = _rebalanced(rules, pieces)
        planner = ready(PlannerAgent(), game, 0)
        planner.act(game.observe(0))  # it sees the hovercraft
        beliefs[rules is default] = (planner.unit, planner.attacker_strength(h1))
        assert planner.attacker_strength(10**6) == planner.unit  # never seen: one unit
    assert beliefs[True] == (2, 1)  # RULES.md R2: army 2, hovercraft 1
    assert beliefs[False] == (5, 4)


def test_re_balanced_costs_and_strengths_change_what_greedy_attacks() -> None:
    #   x: 0   1   2   3   4   5   6
    #   A0  .   .   .   .   .   .      y=0
    #   .   .   .   .   .   .   .      y=1
    #   .   .   a0  r1  .   .   .      y=2    r1: an army, h1: a hovercraft, both in reach of
    #   .   .   b0  h1  .   .   .      y=3    a0 and b0, both beaten by them
    #   .   .   .   .   .   .   B1     y=6
    # Greedy takes the costlier target (R2 costs): the army at the 1995 costs (3 > 2), the
    # hovercraft when it costs 9; and it counts defence with the rules' strengths (R8)
    pieces = [
        (0, ARMY, CHIEF, (0, 0, 0)),
        (0, ARMY, NONE, (0, 2, 2)),
        (0, ARMY, NONE, (0, 3, 2)),
        (1, ARMY, CHIEF, (0, 6, 6)),
        (1, ARMY, NONE, (0, 2, 3)),
        (1, HOVER, NONE, (0, 3, 3)),
    ]
    default = Rules(shape=(1, 7, 7), players=2, zones=False, budget=1000)
    game, ids = _rebalanced(default, pieces)
    order = greedy_decides(game).order
    assert isinstance(order, Attack) and order.cell == (0, 2, 3)
    view = Sight(default, game.observe(0))
    row = int(np.flatnonzero(game.observe(0).ids == ids[4])[0])
    assert view.visible_defence(row) == 2 + 1  # the army and the hovercraft beside it
    game, ids = _rebalanced(REBALANCED, pieces)
    order = greedy_decides(game).order
    assert isinstance(order, Attack) and order.cell == (0, 3, 3)
    view = Sight(REBALANCED, game.observe(0))
    row = int(np.flatnonzero(game.observe(0).ids == ids[4])[0])
    assert view.visible_defence(row) == 5 + 4
