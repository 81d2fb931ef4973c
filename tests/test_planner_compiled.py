"""The compiled planner against the numpy planner it replaces (tests/oracle): the same games.

The planner's decision is one numba kernel (``planner_act``); the numpy planner it was written
from is kept in ``tests/oracle/agents/planner.py`` and plays on the oracle engine. Both must make
the same decisions, so a seeded game played by each gives the same events turn by turn (R12).
The kernels sum floats in numpy's order (pairwise for the sum of an array), checked here too.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import pytest

from antipolix import Rules
from antipolix.agents import GreedyAgent, PlannerAgent, RandomAgent, TunedAgent
from antipolix.agents.army import RandomArmy
from antipolix.agents.memory import Memory, copied
from antipolix.agents.planner import (
    I_CHIEF_FAR,
    I_CRUSH,
    I_FORTRESS,
    I_GUARD,
    I_HUNT,
    I_NETWORK,
    I_PRESS,
    I_THREAT,
    best_attack,
    cube_sums_at,
    move_scores,
    opening,
    pairwise_sum,
    read_turn,
    reweighed,
)
from antipolix.agents.planner.decision import candidates
from antipolix.agents.planner.exposure import exposure
from antipolix.agents.planner.guard import chief_guard
from antipolix.agents.planner.hunting import hunt
from antipolix.agents.planner.threats import threats
from antipolix.agents.search import SCRIPTS
from antipolix.events import Combat
from antipolix.jit import PCG64_WORDS, keep_pcg64, packed, restore_pcg64
from antipolix.observation import seen_of
from antipolix.play import play_game
from tests.oracle.agents import planner as oracle_planner
from tests.oracle.agents import scripted as oracle_scripted
from tests.oracle.play import play_game as oracle_play_game

SMALL = {  # quick games: each rule option the planner reads, on a small board
    "small": Rules(shape=(4, 8, 8), players=2),
    "defence_all": Rules(shape=(4, 8, 8), players=3, defence_counts="all"),
    "teleport_all": Rules(shape=(4, 8, 8), players=2, teleport_network="all"),
    "no_timers": Rules(shape=(4, 10, 10), players=3, timers=False),
    "drawn": Rules(shape=(4, 8, 8), players=2, think_times="drawn", time_credit=20.0),
    "four": Rules(shape=(4, 10, 10), players=4),
}
FULL = {  # the default board and its variants
    "default": Rules(),
    "defence_all": Rules(defence_counts="all"),
    "teleport_all": Rules(teleport_network="all"),
    "no_timers": Rules(timers=False),
    "ten": Rules(shape=(4, 12, 12), players=10),
    "drawn": Rules(think_times="drawn", time_credit=3.0),
}


def _pair(name: str) -> tuple[Any, Any]:
    """The compiled agent and its oracle twin. ``random-army planner``: a planner with random
    armies (teleporters and invisible pieces of its own, R5, R6)."""
    if name == "planner":
        return PlannerAgent(), oracle_planner.PlannerAgent()
    if name == "random-army planner":
        return PlannerAgent(RandomArmy()), oracle_planner.PlannerAgent(RandomArmy())
    if name == "greedy":
        return GreedyAgent(), oracle_scripted.GreedyAgent()
    return RandomAgent(), oracle_scripted.RandomAgent()


def _same_game(rules: Rules, names: list[str], seed: int) -> int:
    """Play ``seed`` with the compiled agents and with the oracle's: the same events each turn,
    the same messages received, the same result. Returns how many attacks were made."""
    pairs = [_pair(name) for name in names]
    new = play_game(rules, [p[0] for p in pairs], seed, keep_reports=True)
    old = oracle_play_game(rules, [p[1] for p in pairs], seed)
    assert len(new.reports) == len(old.reports)
    for turn, (a, b) in enumerate(zip(new.reports, old.reports, strict=True), start=1):
        events = [e.to_dict() for e in a.events], [e.to_dict() for e in b.events]
        assert events[0] == events[1], (seed, turn)
        assert a.reception == b.reception, (seed, turn)
    assert new.result == old.game.result
    return sum(isinstance(e, Combat) for r in new.reports for e in r.events)


def _seats(players: int, seed: int, names: tuple[str, ...]) -> list[str]:
    return [names[(seed + s) % len(names)] for s in range(players)]


@pytest.mark.parametrize("case", list(SMALL))
def test_same_games_as_the_numpy_planner(case: str) -> None:
    rules = SMALL[case]
    attacks = 0
    for seed in range(2):
        attacks += _same_game(rules, _seats(rules.players, seed, ("planner", "greedy")), seed)
    seats = _seats(rules.players, 2, ("random-army planner", "random", "greedy"))
    attacks += _same_game(rules, seats, 2)
    assert attacks > 0  # the games fought


@pytest.mark.slow
@pytest.mark.parametrize("case", list(FULL))
def test_same_games_as_the_numpy_planner_on_the_default_board(case: str) -> None:
    rules = FULL[case]
    attacks = 0
    for seed in range(10):
        attacks += _same_game(rules, _seats(rules.players, seed, ("planner", "greedy")), seed)
    for seed in range(10, 13):
        seats = _seats(rules.players, seed, ("random-army planner", "random", "greedy"))
        attacks += _same_game(rules, seats, seed)
    assert attacks > 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_same_games_between_planners(seed: int) -> None:
    attacks = _same_game(Rules(players=2), ["planner", "planner"], seed)
    attacks += _same_game(Rules(shape=(4, 10, 10), players=3), ["planner"] * 3, seed)
    assert attacks > 0


def test_pairwise_sum_is_numpys_sum() -> None:
    # numpy sums a 1-D float array pairwise (blocks of 8 accumulators from 8 elements, halves
    # above 128): a different order gives a different last bit on such data
    rng = np.random.default_rng(0)
    lengths = [*range(300), 383, 384, 385, 511, 1000, 1024, 1031, 4097, 10_000]
    for n in lengths:
        a = rng.normal(size=n) * 10.0 ** rng.integers(-6, 6, n)
        assert pairwise_sum(a) == float(a.sum()), n
    a = rng.normal(size=1000) * 10.0 ** rng.integers(-6, 6, 1000)
    in_order = 0.0
    for x in a:
        in_order += x
    assert in_order != float(a.sum())  # the order shows


def test_cube_sums_of_floats_are_numpys() -> None:
    # the hunt's gains are floats summed over cubes (R1); the numpy planner did it with matrix
    # products (BLAS), the kernel with loops in the same order: bit for bit
    rng = np.random.default_rng(1)
    for trial in range(120):
        shape = [(8, 16, 16), (4, 12, 12), (4, 8, 8), (1, 7, 7)][trial % 4]
        size = int(np.prod(shape))
        centre = np.array([rng.integers(0, s) for s in shape])
        cells = centre + rng.integers(-2, 3, (int(rng.integers(1, 60)), 3))
        cells[0] = centre
        cells = cells[np.all((cells >= 0) & (cells < np.array(shape)), axis=1)]
        flat = np.unique(np.ravel_multi_index(cells.T, shape))
        values = rng.normal(size=len(flat)) * 10.0 ** rng.integers(-3, 2, len(flat))
        r = int(rng.integers(1, 5))
        expected = oracle_planner.box_sums(shape, [(flat, values, r)])[0]
        board = np.zeros(size)
        board[flat] = values
        at = np.stack(np.unravel_index(flat, shape), axis=1)
        got = np.zeros(size)
        everywhere = np.arange(size, dtype=np.int64)
        cells = np.stack(np.unravel_index(everywhere, shape), axis=1).astype(np.int64)
        dims = np.array(shape, dtype=np.int64)
        lo, hi = at.min(axis=0).astype(np.int64), at.max(axis=0).astype(np.int64)
        cube_sums_at(board, dims, lo, hi, r, cells, everywhere, got)
        assert np.array_equal(got, expected), (shape, r)


def _tuned_positions(
    rules: Rules, games: int, army: RandomArmy | None = None
) -> list[tuple[Any, Memory]]:
    """Every position tuned agents decide on in ``games`` seeded games of ``rules`` (a seat's
    view packed for kernels, and its memory as it stood), the games after the first with
    random armies (invisible pieces, whose hits hint at them, R6), or ``army``."""
    positions: list[tuple[Any, Memory]] = []

    class Recording(TunedAgent):
        def act(self, obs: Any) -> Any:
            seen = packed(seen_of(obs, self.rules.shape))
            positions.append((seen, Memory(*[np.array(a, copy=True) for a in self.remembered])))
            return super().act(obs)

    for seed in range(games):
        armies = (army or RandomArmy()) if seed else None
        play_game(rules, [Recording(armies) for _ in range(rules.players)], seed)
    return positions


@numba.njit
def _styles_read_both_ways(t: Any, seen: Any, m: Any, ws: Any, rng: Any) -> Any:
    """For each row of weights ``ws``: the move scores and the best attack from the turn
    read afresh with it (``read_turn``) and from the first row's reading reweighed
    (``reweighed``), each from the same generator state."""
    memory = copied(m)
    _, s, unit = opening(t, seen, memory, 0.2, 1.5, rng)
    out = []
    if not (len(s.enemy) and len(s.mobile)):
        return out
    first = read_turn(t, s, memory, unit, ws[0])
    at = np.zeros(PCG64_WORDS, dtype=np.uint64)
    keep_pcg64(rng, at)
    for c in range(len(ws)):
        pair = []
        for tn in (read_turn(t, s, memory, unit, ws[c]), reweighed(t, s, memory, first, ws[c])):
            restore_pcg64(rng, at)
            score, rows, dest = move_scores(t, tn, s, rng)
            attack, flat, attackers = best_attack(tn, s)
            pair.append((score, rows, dest, attack, flat, attackers, tn.base_risk, tn.loss))
        out.append(pair)
    return out


def test_a_reading_reweighed_decides_as_a_reading_with_those_weights() -> None:
    # the search agent reads the turn once and reweighs it for each of its styles: every
    # candidate's score, the best attack and the values are bit for bit those of the turn
    # read afresh with the style's weights, on every position of two 4-player tuned games
    # (R5, R6, R8), and with crushing counted or not (R6)
    rules = Rules(shape=(4, 10, 10), players=4)
    positions = _tuned_positions(rules, 2)
    w = np.asarray(TunedAgent().weights_for(4), dtype=np.float64)
    toggled = w.copy()
    toggled[I_CRUSH] = 0.0 if w[I_CRUSH] > 0 else 1.0  # (the unseen pieces' chances read anew)
    ws = np.array([w * SCRIPTS[c] for c in range(len(SCRIPTS))] + [toggled])
    rng, compared = np.random.default_rng(1), 0
    for seen, memory in positions:
        for order in (ws, ws[::-1]):  # (reweighed from a reading with crushing and without)
            for fresh, shared in _styles_read_both_ways(
                rules.tables, seen, packed(memory), np.ascontiguousarray(order), rng
            ):
                for a, b in zip(fresh, shared, strict=True):
                    assert np.array_equal(a, b)
                compared += len(fresh[0])
    assert compared > 1000  # (candidate moves scored both ways)


@numba.njit
def _terms_added(t: Any, seen: Any, m: Any, w: Any, rng: Any) -> Any:
    """What the chief guard, threats and hunt terms add to a zero score and offence on one
    position read with weights ``w`` (the largest absolute value of each; -1: no move to
    score). ``move_scores`` skips a term whose weights are all 0."""
    memory = copied(m)
    _, s, unit = opening(t, seen, memory, 0.2, 1.5, rng)
    if not (len(s.enemy) and len(s.mobile)):
        return -1.0, -1.0, -1.0
    tn = read_turn(t, s, memory, unit, w)
    who, dest, end, gap = candidates(tn, s)
    if not len(dest):
        return -1.0, -1.0, -1.0
    mover = s.mobile_own[who]
    _, _, d_mover = exposure(tn, mover, dest, end)
    guarded = np.zeros(len(dest))
    if tn.ci >= 0:
        chief_guard(tn, mover, dest, end, gap, d_mover, guarded)
    offence = threats(tn, mover, dest, end)
    hunted = np.zeros(len(dest))
    hunt(tn, s, mover, dest, end, hunted)
    return np.abs(guarded).max(), np.abs(offence).max(), np.abs(hunted).max()


def test_a_term_whose_weights_are_zero_adds_nothing_so_skipping_it_decides_the_same() -> None:
    # move_scores skips the chief guard (guard, chief_far), threats (threat, press) and hunt
    # (hunt) when their weights are 0: on every position of a 4-player tuned game, each
    # adds exactly 0 (or -0) to every score with those weights, so that skipping it changes no
    # score and no decision (R8); with the tuned weights each adds something somewhere
    rules = Rules(shape=(4, 10, 10), players=4)
    positions = _tuned_positions(rules, 1)
    w = np.asarray(TunedAgent().weights_for(4), dtype=np.float64)
    zero = w.copy()
    zero[[I_GUARD, I_CHIEF_FAR, I_THREAT, I_PRESS, I_HUNT]] = 0.0
    rng = np.random.default_rng(1)
    tuned, zeroed = np.zeros(3), np.zeros(3)
    for seen, memory in positions:
        tuned = np.maximum(tuned, _terms_added(rules.tables, seen, packed(memory), w, rng))
        zeroed = np.maximum(zeroed, _terms_added(rules.tables, seen, packed(memory), zero, rng))
    assert np.all(tuned > 0), tuned
    assert np.all(zeroed == 0), zeroed


def test_a_negative_tactics_weight_counts_as_the_opposite_of_the_positive_one() -> None:
    # the tactics' terms (network R5, fortress R8, crush R6) are each linear in its weight:
    # with the weight at -1 a move's score moves from its score at 0 by exactly the opposite
    # of what +1 moves it, on every position of two 4-player tuned games with random armies
    # (teleporters, fortresses, invisible pieces); a negative weight was once skipped as if 0
    rules = Rules(shape=(4, 10, 10), players=4, budget=60)
    kinds = ("army+teleporter", "hovercraft+teleporter", "fortress", "army+invisible", "army")
    positions = _tuned_positions(rules, 2, RandomArmy(menu=kinds))
    w = np.asarray(TunedAgent().weights_for(4), dtype=np.float64)
    w[[I_NETWORK, I_FORTRESS, I_CRUSH]] = 0.0
    rng = np.random.default_rng(1)
    for i in (I_NETWORK, I_FORTRESS, I_CRUSH):
        ws = np.array([w, w, w])
        ws[1, i], ws[2, i] = 1.0, -1.0
        moved = 0.0
        for seen, memory in positions:
            styles = _styles_read_both_ways(rules.tables, seen, packed(memory), ws, rng)
            if not styles:
                continue
            zero, plus, minus = (fresh[0] for fresh, _ in styles)
            assert np.allclose(minus - zero, zero - plus, rtol=0, atol=1e-9)
            moved = max(moved, float(np.abs(plus - zero).max(initial=0.0)))
        assert moved > 0.01, i  # (the term scores some move somewhere)
