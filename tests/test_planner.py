"""The planner agent: legal, deterministic, picklable, blind to what it cannot see (R4, R6, R12),
and stronger than Greedy."""

from __future__ import annotations

import inspect
import pickle
from typing import ClassVar

import numpy as np
import pytest

from antipolix import Attack, Move, Pass, PieceType, Rules, Trait, load_replay, play
from antipolix.agents import (
    AGENTS,
    Agent,
    Decision,
    GreedyAgent,
    PlannerAgent,
    agent_from_spec,
    agent_named,
)
from antipolix.agents.planner import cube_sums_at, distances
from antipolix.events import Rejected
from antipolix.game import Game
from antipolix.messages import Command
from antipolix.observation import Observation
from antipolix.play import play_game, verify
from antipolix.watch import Hooks
from antipolix.world import chebyshev
from tests.positions import make_game

ARMY, HOVER = PieceType.ARMY, PieceType.HOVERCRAFT
NONE, INVIS, CHIEF = Trait.NONE, Trait.INVISIBLE, Trait.CHIEF
SMALL = Rules(shape=(4, 8, 8), players=2)


class Checked(PlannerAgent):
    """A planner that checks each of its orders against the game at decision time (R4)."""

    game: ClassVar[list[Game]] = []
    orders: ClassVar[list[tuple[int, object]]] = []

    def act(self, obs: Observation) -> Decision:
        decision = super().act(obs)
        assert self.game[-1].is_legal(self.seat, decision.order), (obs.turn, decision.order)
        self.orders.append((obs.turn, decision.order))
        return decision


def _events(played):
    return [e for r in played.reports for e in r.events]


def test_registered_and_rebuilt_from_spec():
    assert AGENTS["planner"] is PlannerAgent
    agent = agent_named("planner")
    assert isinstance(agent, PlannerAgent)
    again = agent_from_spec(agent.spec())
    assert isinstance(again, PlannerAgent) and again.spec() == agent.spec()


@pytest.mark.parametrize(
    ("rules", "seed"),
    [(SMALL, 1), (SMALL, 2), (Rules(shape=(4, 8, 8), players=3), 3), (Rules(players=2), 4)],
)
def test_r4_orders_are_legal_when_decided(rules, seed):
    Checked.game.clear()
    Checked.orders.clear()
    agents: list[Agent] = [GreedyAgent() for _ in range(rules.players)]
    agents[seed % rules.players] = Checked()
    played = play_game(
        rules,
        agents,
        seed,
        keep_reports=True,
        watchers=[Hooks(on_start=lambda p: Checked.game.append(p.game))],
    )
    kinds = {type(o) for _, o in Checked.orders}
    assert Move in kinds and Attack in kinds  # it both moves and fights
    # rejected only when an order received earlier in the same turn changed the board (R4):
    # the target moved or fell, or the cell was taken
    seat = seed % rules.players
    rejected = [e for e in _events(played) if isinstance(e, Rejected) and e.player == seat]
    assert len(rejected) <= len(Checked.orders) // 4


def test_r12_same_seed_same_game():
    def run():
        return play_game(SMALL, [PlannerAgent(), GreedyAgent()], 11, keep_reports=True)

    first, second = run(), run()
    assert first.result == second.result
    assert _events(first) == _events(second)


def test_picklable_small_and_plays_the_same_game_after_a_round_trip():
    agent = PlannerAgent()
    data = pickle.dumps(agent)
    assert len(data) < 2000  # parameters and army policy only: per-game state is made in setup
    copy = pickle.loads(data)
    assert copy.spec() == agent.spec()
    a = play_game(SMALL, [agent, GreedyAgent()], 5, keep_reports=True)
    b = play_game(SMALL, [copy, GreedyAgent()], 5, keep_reports=True)
    assert a.result == b.result and _events(a) == _events(b)
    setup = PlannerAgent()  # a per-game copy, set up, also pickles (Ray workers)
    setup.setup(SMALL, 0, np.random.default_rng(0))
    assert isinstance(pickle.loads(pickle.dumps(setup)), PlannerAgent)


def test_r12_replay_of_a_planner_game_verifies(tmp_path):
    path = tmp_path / "planner.apx.json.gz"
    result = play(SMALL, [PlannerAgent(), GreedyAgent()], 5, replay=path)
    report = verify(load_replay(path))  # plays the planner again, decision by decision
    assert report.agents_rerun and report.turns_checked == result.turns


def test_r6_act_takes_an_observation_only():
    params = list(inspect.signature(PlannerAgent.act).parameters)
    assert params == ["self", "obs"]


def _hidden_position(invisible_cell):
    #   one layer, 6×6; [i1] is player 1's invisible army, somewhere far from player 0
    #   x: 0    1    2    3    4    5
    #   A0   a0   .    .    .    .      y=0
    #   a0   .    .    .    .    .      y=1
    #   .    .    .    b1   .    .      y=2
    #   .    .    .    .    .    .      y=3
    #   .    .    .    .    B1   .      y=4
    #   .    .    .    .    .    .      y=5
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 0, 1)),
            (0, ARMY, NONE, (0, 1, 0)),
            (1, ARMY, CHIEF, (0, 4, 4)),
            (1, ARMY, NONE, (0, 2, 3)),
            (1, ARMY, INVIS, invisible_cell),
        ],
        shape=(1, 6, 6),
    )


def test_r6_decision_ignores_invisible_enemy_pieces():
    decisions, observations = [], []
    for cell in [(0, 5, 5), (0, 5, 0), (0, 3, 5)]:
        game, ids = _hidden_position(cell)
        obs = game.observe(0)
        assert ids[5] not in obs.ids.tolist()  # R6: absent from the observation
        observations.append(obs)
        agent = PlannerAgent()
        agent.setup(game.rules, 0, np.random.default_rng(7))
        decisions.append(agent.act(obs))
    for obs in observations[1:]:
        for name in ("ids", "owners", "types", "traits", "cells"):
            assert np.array_equal(getattr(obs, name), getattr(observations[0], name))
    assert decisions[0] == decisions[1] == decisions[2]


def test_r8_attacks_a_piece_it_outpowers():
    #   x: 0    1    2    3
    #   A0   .    .    .      y=0
    #   .    .    .    .      y=1
    #   a0   b1   a0   .      y=2      b1 alone: defence 2 < attack 4
    #   .    .    .    B1     y=3
    game, ids = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 2, 0)),
            (0, ARMY, NONE, (0, 2, 2)),
            (1, ARMY, NONE, (0, 2, 1)),
            (1, ARMY, CHIEF, (0, 3, 3)),
        ],
        shape=(1, 4, 4),
    )
    agent = PlannerAgent()
    agent.setup(game.rules, 0, np.random.default_rng(0))
    order = agent.act(game.observe(0)).order
    assert isinstance(order, Attack)
    assert order.cell in {(0, 2, 1), (0, 3, 3)} and set(order.pieces) <= {ids[1], ids[2]}


def test_r8_saves_its_exposed_chief():
    #   x: 0    1    2    3    4
    #   .    b1   b1   .    .      y=0      b1 b1: power 4 on A0, whose defence is 2
    #   .    .    A0   .    .      y=1
    #   .    .    .    .    .      y=2
    #   .    .    .    a0   .      y=3
    #   .    .    .    .    B1     y=4
    game, ids = make_game(
        [
            (0, ARMY, CHIEF, (0, 1, 2)),
            (0, ARMY, NONE, (0, 3, 3)),
            (1, ARMY, NONE, (0, 0, 1)),
            (1, ARMY, NONE, (0, 0, 2)),
            (1, ARMY, CHIEF, (0, 4, 4)),
        ],
        shape=(1, 5, 5),
    )
    agent = PlannerAgent()
    agent.setup(game.rules, 0, np.random.default_rng(0))
    order = agent.act(game.observe(0)).order
    game.play_turn({0: order, 1: Pass()})
    chief = game.piece(ids[0]).cell
    threat = sum(2 for p in game.pieces(1) if chebyshev(p.cell, chief) <= 1)
    assert threat <= game.defence_power(chief)  # R8: an attack now would fail


def test_r9_offers_a_draw_when_it_cannot_win_a_fight_and_withdraws_it():
    #   x: 0    1    2    3
    #   A0   .    .    .      y=0      A0 alone: power 2; B1 and b1 defend each other (4)
    #   .    .    .    .      y=1
    #   .    .    B1   b1     y=2
    #   .    .    .    .      y=3
    game, ids = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (1, ARMY, CHIEF, (0, 2, 2)),
            (1, ARMY, NONE, (0, 2, 3)),
        ],
        shape=(1, 4, 4),
    )
    agent = PlannerAgent()
    agent.setup(game.rules, 0, np.random.default_rng(0))
    assert agent.act(game.observe(0)).messages == (Command.NUL,)
    assert agent.act(game.observe(0)).messages == ()  # the offer stands (R9)
    # with two more armies, 6 > 4: a fight can be won again
    other, _ = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 0, 1)),
            (0, ARMY, NONE, (0, 1, 0)),
            (1, ARMY, CHIEF, (0, 2, 2)),
            (1, ARMY, NONE, (0, 2, 3)),
        ],
        shape=(1, 4, 4),
    )
    assert agent.act(other.observe(0)).messages == (Command.WAR,)


def test_cube_sums_and_distances_match_brute_force():
    # R1: the planner's grids (cube sums of radius r, distance to the nearest of some cells),
    # computed in compiled code over a box of the board, against brute force
    rng = np.random.default_rng(1)
    shape = (3, 5, 6)
    dims = np.array(shape, dtype=np.int64)
    size = int(np.prod(shape))
    cells = np.stack(np.unravel_index(np.arange(size), shape), axis=1).astype(np.int64)
    for trial in range(40):
        chosen = rng.choice(size, size=int(rng.integers(1, 8)), replace=False)
        at = cells[chosen]
        lo, hi = at.min(axis=0), at.max(axis=0)
        values = np.zeros(size)
        values[chosen] = rng.random(len(chosen))
        r = trial % 3 + 1
        got = np.zeros(size)
        cube_sums_at(values, dims, lo, hi, r, cells, np.arange(size), got)
        gaps = np.abs(cells[:, None, :] - cells[None, :, :]).max(axis=2)
        assert np.allclose(got, (gaps <= r) @ values), trial
        inside = np.all((cells >= lo) & (cells <= hi), axis=1)
        found = distances(dims, at, lo, hi)
        assert np.array_equal(found[inside], gaps[inside][:, chosen].min(axis=1)), trial


@pytest.mark.parametrize("shape", [(1, 2, 2), (4, 7, 9), (2, 3, 64), (2, 2, 66)])
def test_distances_match_brute_force_in_any_box(shape):
    # R1: the distance to the nearest of some cells, grown as bit masks a row a word (boards
    # up to 64 wide) or by lines (wider), over boxes that need not hold the cells
    from antipolix.agents.planner.board import distances_by_lines

    rng = np.random.default_rng(sum(shape))
    dims = np.array(shape, dtype=np.int64)
    size = int(np.prod(shape))
    cells = np.stack(np.unravel_index(np.arange(size), shape), axis=1).astype(np.int64)
    for trial in range(25):
        chosen = rng.choice(size, size=int(rng.integers(1, min(size, 12) + 1)), replace=False)
        corners = rng.integers(0, dims, size=(2, 3))
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        inside = np.all((cells >= lo) & (cells <= hi), axis=1)
        gaps = np.abs(cells[inside][:, None, :] - cells[chosen][None, :, :]).max(axis=2)
        expected = gaps.min(axis=1)
        assert np.array_equal(distances(dims, cells[chosen], lo, hi)[inside], expected), trial
        by_lines = distances_by_lines(dims, cells[chosen], lo, hi)
        assert np.array_equal(by_lines[inside], expected), trial
    nowhere = distances(dims, np.empty((0, 3), dtype=np.int64), np.zeros(3, np.int64), dims - 1)
    assert (nowhere == max(shape)).all()  # no cells: farther than any distance on the board


def test_beats_greedy_on_a_small_board():
    # 20 games, seats alternating; measured 40 of 40 wins on seeds 0-39 (mean 29 turns)
    wins = 0
    for seed in range(20):
        seat = seed % 2
        agents: list[Agent] = [GreedyAgent(), GreedyAgent()]
        agents[seat] = PlannerAgent()
        result = play_game(SMALL, agents, 100 + seed).result
        wins += result.winner == seat
    assert wins >= 14
