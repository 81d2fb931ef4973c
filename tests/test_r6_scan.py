"""R6 over many played games: no observation of any player, at any turn, tells what R6 hides.

A thousand seeded games across six rule sets (default proportions on small boards; defence by
all; teleport networks of all; timers off with engine-drawn think times; ten players on a small
board; two players with teleporter- and invisible-heavy armies), with random, greedy and planner
agents. After every turn, every living player's observation is checked against the truth
(:func:`tests.hidden.check_observation`). Then, over all games, the statistics that gave the old
identifiers away: an enemy's chief is its lowest visible identifier no more often than chance,
and a seat's own identifiers do not grow with the seat.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from antipolix import Rules
from antipolix.agents import GreedyAgent, PlannerAgent, RandomAgent, RandomArmy
from antipolix.play import play_game
from antipolix.watch import Hooks
from tests.hidden import check_observation, rank_of_chief

HEAVY = RandomArmy(
    menu=(
        "army+teleporter",
        "hovercraft+teleporter",
        "fortress+teleporter",
        "army+invisible",
        "hovercraft+invisible",
        "army",
    ),
)
RULE_SETS = {
    "small": (Rules(shape=(4, 8, 8), players=2, max_turns=120), ["greedy", "random"]),
    "defence all": (
        Rules(shape=(3, 10, 10), players=4, defence_counts="all", max_turns=80),
        ["random", "greedy", "random", "random"],
    ),
    "teleport all": (
        Rules(shape=(4, 8, 8), players=3, teleport_network="all", max_turns=100),
        ["random", "random", "greedy"],
    ),
    "timers off, drawn": (
        Rules(shape=(4, 8, 8), players=2, timers=False, think_times="drawn", max_turns=100),
        ["random", "planner"],
    ),
    "ten players": (
        Rules(shape=(2, 12, 12), players=10, budget=12, max_turns=60),
        ["random"] * 10,
    ),
    "teleporters": (
        Rules(shape=(4, 8, 8), players=2, max_turns=100),
        [RandomAgent(army=HEAVY), GreedyAgent(army=HEAVY)],
    ),
}
GAMES = 1000


def _agents(names: list) -> list:
    made = {"random": RandomAgent, "greedy": GreedyAgent, "planner": PlannerAgent}
    return [made[a]() if isinstance(a, str) else a for a in names]


@pytest.fixture(scope="module")
def scan() -> dict[str, list]:
    """Play the games, checking every observation; gather the statistics."""
    ranks: list[tuple[int, int]] = []
    checked = [0]
    leaks: list[str] = []

    def check(game, obs, report) -> None:
        checked[0] += 1
        try:
            check_observation(game, obs, report)
        except AssertionError as exc:
            leaks.append(f"seed {game.seed.entropy}, turn {game.turn}, player {obs.player}: {exc}")

    own: dict[tuple[int, int], list[float]] = {}  # (players, seat) → own ids / cells
    per_set = math.ceil(GAMES / len(RULE_SETS))
    played = 0
    for number, (rules, names) in enumerate(RULE_SETS.values()):
        cells = math.prod(rules.shape)
        for i in range(per_set):
            seed = 100_000 * number + i

            def on_start(pg, rules=rules, cells=cells) -> None:
                game = pg.game
                for p in range(rules.players):
                    obs = game.observe(p)
                    check(game, obs, None)
                    mine = obs.ids[obs.owners == p]
                    own.setdefault((rules.players, p), []).append(float(mine.mean()) / cells)
                    for q in range(rules.players):
                        if q != p:
                            rank = rank_of_chief(obs, game, q)
                            if rank is not None and rank[1] > 1:
                                ranks.append(rank)

            def on_turn(game, report, decisions) -> None:
                for p in game.living:
                    check(game, game.observe(p), report)

            play_game(
                rules, _agents(names), seed, watchers=[Hooks(on_start=on_start, on_turn=on_turn)]
            )
            played += 1
    return {"played": [played], "checked": checked, "leaks": leaks, "ranks": ranks, "own": [own]}


def test_r6_no_observation_in_a_thousand_games_tells_what_r6_hides(scan) -> None:
    assert scan["played"][0] >= GAMES
    assert scan["checked"][0] > 50 * GAMES  # every living player, every turn
    assert scan["leaks"] == []


def test_r6_an_enemy_chief_is_its_lowest_visible_identifier_only_by_chance(scan) -> None:
    # with k visible pieces, the chief is the lowest with probability 1/k if identifiers say
    # nothing; before, it was the lowest in every game (placed first, numbered first)
    ranks = scan["ranks"]
    assert len(ranks) > 1000
    lowest = sum(1 for rank, _ in ranks if rank == 0)
    expected = sum(1 / k for _, k in ranks)
    sd = math.sqrt(sum((1 / k) * (1 - 1 / k) for _, k in ranks))
    assert abs(lowest - expected) < 5 * sd, (lowest, expected, sd)
    # and its rank is spread like a uniform one: mean rank / (k - 1) near 1/2
    spread = np.array([rank / (k - 1) for rank, k in ranks])
    assert abs(spread.mean() - 0.5) < 5 * spread.std() / math.sqrt(len(spread))


def test_r6_a_seats_own_identifiers_do_not_grow_with_the_seat(scan) -> None:
    # before, seat s's identifiers followed those of seats 0..s-1: seat 0 held the lowest
    (own,) = scan["own"]
    for (players, seat), means in own.items():
        values = np.array(means)
        sd = values.std() / math.sqrt(len(values)) + 1e-9
        assert abs(values.mean() - 0.5) < 5 * sd + 0.02, (players, seat, values.mean())
