"""The planner family keeps its decisions: seeded games against the digests recorded before
its speed-up.

Each case plays seeded games whole in compiled code (:func:`antipolix.autoplay.play_games`, the
path of studies and ladders) with planner, tuned and search agents, on the default board and on
small ones, with the rule options their kernels read (``defence_counts``, ``teleport_network``,
think times drawn, ten players), armies of every kind of piece (R2, R5, R6) and the tactics'
weights on. Every game's digest of every event (:attr:`antipolix.Game.digest`), its turns and
its decisions must be the ones recorded in ``tests/data/planner_digests.json`` from the code
before the planner was made faster (b21d50e): the agents' decisions are the same, bit for bit
(R12). A few games go through :class:`~antipolix.Game` too (the agents' Python face).

The default run plays a few small games of each family; the slow run every case (1,043 games,
a few minutes). Recording (``python tests/test_planner_digests.py --record``) is for a new case
only: a change of an agent's decisions is a new agent, with a new name.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from antipolix import Rules
from antipolix.agents import PlannerAgent, agent_named
from antipolix.agents.army import RandomArmy
from antipolix.agents.tuned import TunedAgent
from antipolix.autoplay import play_games
from antipolix.play import play_game

DATA = Path(__file__).resolve().parent / "data" / "planner_digests.json"
TACTICS = {"network": 1.0, "fortress": 1.0, "crush": 2.0, "hunt_min": 0.0, "press_from": 20.0}


def make(name: str) -> Any:
    """An agent by name: a built-in one (with parameters), or a planner or tuned agent with
    random armies (``-ra``: teleporters and invisible pieces, R5, R6), or a planner with the
    tactics' weights on and pressure from turn 20 (``planner-tac``)."""
    if name == "planner-ra":
        return PlannerAgent(RandomArmy())
    if name == "planner-tac":
        return PlannerAgent(RandomArmy(), weights=TACTICS)
    if name == "tuned-ra":
        return TunedAgent(RandomArmy())
    return agent_named(name)


CASES: dict[str, tuple[Rules, list[str], range]] = {
    "2p default planner": (Rules(players=2), ["planner", "planner"], range(0, 100)),
    "2p default tuned-planner": (
        Rules(players=2, think_times="drawn"),
        ["tuned", "planner"],
        range(100, 200),
    ),
    "4p default tuned": (Rules(), ["tuned"] * 4, range(200, 260)),
    "4p default mix": (Rules(), ["planner", "tuned", "greedy", "planner-ra"], range(300, 360)),
    "4p drawn mix": (
        Rules(think_times="drawn"),
        ["random", "greedy", "planner", "tuned"],
        range(400, 440),
    ),
    "small 2p": (Rules(shape=(4, 8, 8), players=2), ["planner-ra", "tuned"], range(500, 700)),
    "small 3p defence_all": (
        Rules(shape=(4, 8, 8), players=3, defence_counts="all"),
        ["planner", "tuned-ra", "planner-tac"],
        range(700, 850),
    ),
    "small 2p teleport_all": (
        Rules(shape=(4, 8, 8), players=2, teleport_network="all"),
        ["tuned-ra", "planner-tac"],
        range(900, 1050),
    ),
    "10p": (
        Rules(shape=(4, 12, 12), players=10),
        ["tuned", "planner", "planner-tac", "tuned-ra", "greedy"] * 2,
        range(1100, 1120),
    ),
    "4p 10x10 tac": (
        Rules(shape=(4, 10, 10), players=4),
        ["planner-tac", "tuned-ra", "planner-tac", "tuned"],
        range(1200, 1300),
    ),
    "search small 2p": (
        Rules(shape=(4, 8, 8), players=2),
        ["search:rollouts=2:depth=3", "tuned"],
        range(1300, 1340),
    ),
    "search small 3p": (
        Rules(shape=(4, 10, 10), players=3),
        ["search:rollouts=3:depth=4", "planner", "tuned-ra"],
        range(1400, 1412),
    ),
    "search default 2p short": (
        Rules(players=2, max_turns=30),
        ["search", "tuned"],
        range(1500, 1504),
    ),
    "search default 4p short": (
        Rules(max_turns=12),
        ["search", "tuned", "search:rollouts=4:width=2", "planner"],
        range(1600, 1602),
    ),
}
QUICK = {
    "small 2p": 12,
    "small 3p defence_all": 6,
    "small 2p teleport_all": 6,
    "search small 2p": 3,
}
THROUGH_GAME = ("2p default planner", "small 2p", "search small 2p")  # first seed of each


def play_case(label: str, games: int | None = None) -> list[str]:
    """``digest:turns:decisions`` of the first ``games`` games of a case (all by default)."""
    rules, names, seeds = CASES[label]
    chosen = list(seeds)[:games]
    batch = [([make(n) for n in names], np.random.SeedSequence(s)) for s in chosen]
    return [f"{p.digest:016x}:{p.result.turns}:{p.decisions}" for p in play_games(rules, batch)]


def through_game(label: str) -> str:
    """``digest:turns`` of a case's first game through :class:`~antipolix.Game`."""
    rules, names, seeds = CASES[label]
    played = play_game(rules, [make(n) for n in names], seeds[0])
    return f"{played.game.digest:016x}:{played.result.turns}"


def recorded() -> dict[str, list[str]]:
    data: dict[str, list[str]] = json.loads(DATA.read_text("utf-8"))["games"]
    return data


@pytest.mark.parametrize("label", sorted(QUICK))
def test_planner_family_keeps_its_games(label: str) -> None:
    # R12: the same seeded games as recorded, game by game
    assert play_case(label, QUICK[label]) == recorded()[label][: QUICK[label]]


def test_planner_family_keeps_its_games_through_game() -> None:
    want = recorded()
    label = "small 2p"
    digest, turns = through_game(label).split(":")
    assert want[label][0].split(":")[:2] == [digest, turns]


@pytest.mark.slow
@pytest.mark.parametrize("label", list(CASES))
def test_planner_family_keeps_every_recorded_game(label: str) -> None:
    assert play_case(label) == recorded()[label]


@pytest.mark.slow
@pytest.mark.parametrize("label", THROUGH_GAME)
def test_planner_family_keeps_its_games_through_game_everywhere(label: str) -> None:
    digest, turns = through_game(label).split(":")
    assert recorded()[label][0].split(":")[:2] == [digest, turns]


def record() -> None:
    """Write every case's digests (for a new case: see the module docstring)."""
    games = {label: play_case(label) for label in CASES}
    DATA.write_text(json.dumps({"games": games}, indent=1) + "\n", "utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    record()
