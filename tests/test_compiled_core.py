"""The compiled core against the oracle (the pure-Python engine and agents it replaced, kept in
``tests/oracle``): the same games, event for event and row for row (R1–R12).

Each game is played three ways from the same seed: by the oracle; through :class:`Game` (the
compiled turn and agents, events decoded as objects); and whole in compiled code
(:mod:`antipolix.autoplay`, the mass-simulation path), which gives no events but a digest of
them that must equal the :class:`Game`'s. Six rule sets, random and greedy seats mixed, a
planner in one game of four; over a hundred games in the default run, over a thousand with the
slow suite.
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import pytest

from antipolix import Game, Pass, PieceType, Rules, Trait
from antipolix.agents import GreedyAgent, PlannerAgent, RandomAgent
from antipolix.agents.army import FixedArmy, RandomArmy
from antipolix.agents.base import Agent, Decision
from antipolix.autoplay import Played, play_games
from antipolix.events import Eliminated
from antipolix.jit import PCG64_WORDS, Held, held, keep_pcg64, restore_pcg64, seed_pcg64
from antipolix.messages import Command, Message
from antipolix.play import play_game
from antipolix.runner.rows import GameRow
from antipolix.runner.variants import Variant
from antipolix.usage import USAGE
from tests.oracle.agents import planner as oracle_planner
from tests.oracle.agents import scripted as oracle_agents
from tests.oracle.game import Game as OracleGame
from tests.oracle.play import play_game as oracle_play

TELEPORTERS = {"army+teleporter": 2, "hovercraft+teleporter": 2, "army": 1}
RULE_SETS = {
    "default": Rules(),
    "defence_all": Rules(defence_counts="all"),
    "teleport_all": Rules(teleport_network="all"),
    "timers_off": Rules(timers=False),
    "ten_players": Rules(shape=(4, 12, 12), players=10, budget=24),
    "teleporters": Rules(players=2),
}
DEFAULT_GAMES = 20  # per rule set, in the default run ...
LONG_GAMES = {"defence_all": 6}  # ... but fewer where the oracle's games last long
SLOW_GAMES = 190  # more per rule set, with the slow suite ...
SLOW_BLOCKS = 5  # ... in blocks, tests of their own, so that parallel test processes share them
PLANNER_EVERY = 4  # one game in four has a planner at seat 0


@dataclass
class Seat:
    """One seat's agent as the package has it and as the oracle has it."""

    ours: Agent
    oracle: Any


def seats(name: str, players: int, seed: int) -> list[Seat]:
    """Random and greedy seats, mixed by the seed, and a planner in one game of PLANNER_EVERY;
    teleporter-heavy armies for ``teleporters``."""
    out = []
    for s in range(players):
        kind = "planner" if s == 0 and seed % PLANNER_EVERY == 1 else "random"
        if kind != "planner" and (seed + s) % 3 != 0:
            kind = "greedy"
        policy: Any = None
        if name == "teleporters":
            policy = (
                FixedArmy(TELEPORTERS) if kind != "random" else RandomArmy(menu=(*TELEPORTERS,))
            )
        ours = {"random": RandomAgent, "greedy": GreedyAgent, "planner": PlannerAgent}[kind]
        oracle = {
            "random": oracle_agents.RandomAgent,
            "greedy": oracle_agents.GreedyAgent,
            "planner": oracle_planner.PlannerAgent,
        }[kind]
        out.append(Seat(ours(policy), oracle(policy)))
    return out


def _row(rules: Rules, result: Any, armies: Any, left: Any, cost: Any, out: Any) -> dict[str, Any]:
    variant = Variant("base", rules, "")
    seats = list(range(rules.players))
    labels = [f"seat {s}" for s in seats]
    usage = {name: [0] * len(seats) for name in USAGE}
    row = GameRow.of_numbers(
        result, armies, left, cost, variant, 0, 0, seats, labels, 0.0, usage, out
    )
    return {k: v for k, v in row.values().items() if k != "seconds"}


def check_game(name: str, seed: int) -> None:
    rules = RULE_SETS[name]
    table = seats(name, rules.players, seed)
    oracle = oracle_play(rules, [s.oracle for s in table], seed)
    ours = play_game(rules, [s.ours for s in table], seed, keep_reports=True)
    assert len(ours.reports) == len(oracle.reports), (name, seed)
    for a, b in zip(ours.reports, oracle.reports, strict=True):
        assert a.reception == b.reception, (name, seed, a.turn)
        assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events], (
            name,
            seed,
            a.turn,
        )
    assert ours.result == oracle.game.result
    (whole,) = play_games(rules, [([s.ours for s in table], np.random.SeedSequence(seed))])
    assert isinstance(whole, Played)
    assert whole.digest == ours.game.digest, (name, seed)
    game = oracle.game
    armies = oracle.armies
    left = [game.pieces(seat) for seat in range(rules.players)]
    out: list[Any] = [None] * rules.players  # why each seat left, from the oracle's events
    for report in oracle.reports:
        for event in report.events:
            if isinstance(event, Eliminated):
                out[event.player] = event.reason
    expected = _row(
        rules,
        game.result,
        armies,
        [len(pieces) for pieces in left],
        [sum(rules.piece_cost(p.type, p.trait) for p in pieces) for pieces in left],
        out,
    )
    got = _row(
        rules, whole.result, whole.armies, whole.pieces_left, whole.cost_left, whole.eliminations
    )
    assert got == expected, (name, seed)


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_compiled_core_plays_the_oracles_games(name: str) -> None:
    for seed in range(LONG_GAMES.get(name, DEFAULT_GAMES)):
        check_game(name, seed)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(SLOW_BLOCKS))
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_compiled_core_plays_the_oracles_games_many(name: str, block: int) -> None:
    first = LONG_GAMES.get(name, DEFAULT_GAMES)
    seeds = range(first, first + SLOW_GAMES)
    for seed in seeds[block::SLOW_BLOCKS]:
        check_game(name, seed)


class Chatty(Agent):
    """A random player that also talks: texts to everyone or to one player, and NUL, WAR and
    (rarely) QUIT commands (R9), all drawn from its generator."""

    name = "chatty"

    def __init__(self, inner: Any) -> None:
        super().__init__(inner.army_policy)
        self.inner = inner

    def setup(self, rules: Rules, seat: int, rng: np.random.Generator) -> None:
        super().setup(rules, seat, rng)
        self.inner.setup(rules, seat, rng)

    def act(self, obs: Any) -> Decision:
        decision = self.inner.act(obs)
        messages: list[Message | Command] = []
        for _ in range(int(self.rng.integers(3))):
            k = int(self.rng.integers(10))
            if k < 4:
                messages.append(Message(f"hello {obs.turn}", None))
            elif k < 8:
                to = int(self.rng.integers(self.rules.players))
                if to != self.seat:
                    messages.append(Message("psst", to))
            elif k == 8:
                messages.append(Command.NUL if self.rng.random() < 0.5 else Command.WAR)
            elif self.rng.random() < 0.05:
                messages.append(Command.QUIT)
        return Decision(decision.order, decision.think_time, tuple(messages))


@pytest.mark.parametrize("seed", range(8))
def test_messages_and_commands_resolve_as_the_oracles(seed: int) -> None:
    # R9 through the compiled turn: texts (contact checked, R6), NUL, WAR, QUIT
    rules = Rules(shape=(4, 8, 8), players=4, max_turns=60)
    ours = [Chatty(RandomAgent()) for _ in range(4)]
    theirs = [Chatty(oracle_agents.RandomAgent()) for _ in range(4)]
    a = play_game(rules, ours, seed, keep_reports=True)
    b = oracle_play(rules, theirs, seed)
    kinds = set()
    for x, y in zip(a.reports, b.reports, strict=True):
        assert [e.to_dict() for e in x.events] == [e.to_dict() for e in y.events], (seed, x.turn)
        kinds |= {type(e).__name__ for e in x.events}
    assert a.result == b.game.result
    assert {"Sent", "Commanded"} <= kinds  # the messages were exercised


def test_a_turn_with_more_messages_than_earlier_turns_and_a_copied_game() -> None:
    # Game reuses its turn buffers while they have room: a turn with more messages (R9) than
    # any before makes them anew, and a copy of a game mid-way plays on alike
    rules = Rules(shape=(4, 8, 8), players=2, max_turns=50)
    army = [(PieceType.ARMY, Trait.CHIEF), (PieceType.ARMY, Trait.NONE)]
    ours, theirs = Game(rules, 3), OracleGame(rules, 3)
    for game in (ours, theirs):
        for p in range(2):
            game.place_army(p, army)
        game.start()
    talk = {0: [Message(f"hello {i}", None) for i in range(20)], 1: [Command.NUL, Message("x", 0)]}
    passes = {0: Pass(), 1: Pass()}
    for messages in ({}, talk, {}, {0: talk[0] * 2}):
        a = ours.play_turn(passes, {0: 1.0, 1: 2.0}, messages)
        b = theirs.play_turn(passes, {0: 1.0, 1: 2.0}, messages)
        assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    again = copy.deepcopy(ours)
    a = ours.play_turn(passes, {0: 1.0, 1: 2.0}, talk)
    b = again.play_turn(passes, {0: 1.0, 1: 2.0}, talk)
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]
    assert ours.digest == again.digest


@numba.njit(cache=False)  # type: ignore[untyped-decorator]
def _draws(holder: Held, n: int) -> np.ndarray:
    out = np.empty(n)
    for i in range(n):
        out[i] = holder.rng.random()
    return out


def test_a_held_generator_draws_from_the_generators_own_state() -> None:
    # Game.play_turn passes its generator held (antipolix.jit.held): a kernel draws through
    # the holder what it would draw from the generator itself, and the generator goes on from
    # there (R12: the same game whichever way the turn kernel is called); a pickled game plays
    # on alike (its holder made again)
    rng, twin = np.random.default_rng(7), np.random.default_rng(7)
    assert _draws(held(rng), 5).tolist() == twin.random(5).tolist()
    assert rng.random() == twin.random()
    game = Game(Rules(shape=(4, 8, 8), players=3, max_turns=40), 5)
    for p in range(3):
        game.place_army(p, [(PieceType.ARMY, Trait.CHIEF), (PieceType.ARMY, Trait.NONE)])
    game.start()
    game.play_turn({p: Pass() for p in range(3)}, {p: 1.0 for p in range(3)})
    again = pickle.loads(pickle.dumps(game))
    orders = [game.play_turn({p: Pass() for p in range(3)}, {p: 1.0 for p in range(3)})]
    orders += [again.play_turn({p: Pass() for p in range(3)}, {p: 1.0 for p in range(3)})]
    assert orders[0].reception == orders[1].reception  # (equal times: the order is drawn, R7)
    assert game.digest == again.digest


@numba.njit
def _kept_and_restored(g: Any, room: Any) -> tuple[Any, Any]:
    keep_pcg64(g, room)
    first = np.empty(6)
    for i in range(5):
        first[i] = g.random()
    first[5] = g.integers(0, 1 << 40)
    restore_pcg64(g, room)
    again = np.empty(6)
    for i in range(5):
        again[i] = g.random()
    again[5] = g.integers(0, 1 << 40)
    return first, again


def test_a_pcg64_state_kept_in_a_kernel_draws_the_same_numbers_again() -> None:
    # the search agent's rollouts put their generators back this way (R12): the kernel's copy
    # of numpy's C state holds the words bit_generator.state gives in Python, and a generator
    # put back draws what it drew after it was kept, its buffered half-word (has_uint32) too
    g = np.random.Generator(np.random.PCG64([12345, 1]))
    g.random()
    g.bit_generator.random_raw()
    g.integers(0, 10, dtype=np.int32)  # (leaves half a 64-bit draw buffered)
    before = g.bit_generator.state
    assert before["has_uint32"] == 1
    compiled, plain = np.zeros(PCG64_WORDS, np.uint64), np.zeros(PCG64_WORDS, np.uint64)
    keep_pcg64(g, plain)  # (the plain function: the path without the compiler)
    first, again = _kept_and_restored(g, compiled)
    assert compiled.tolist() == plain.tolist()
    assert first.tolist() == again.tolist()
    g.random(3)
    restore_pcg64(g, plain)
    assert g.bit_generator.state == before
    assert g.random(5).tolist() == first[:5].tolist()


@numba.njit
def _seeded_draws(g: Any, seeds: Any, ks: Any) -> Any:
    out = np.empty((len(seeds), 3))
    for i in range(len(seeds)):
        g.random()  # (what the generator drew before must not matter)
        seed_pcg64(g, seeds[i], ks[i])
        for j in range(3):
            out[i, j] = g.random()
    return out


def test_a_generator_seeded_in_a_kernel_draws_what_a_new_pcg64_of_that_seed_draws() -> None:
    # the search agent's rollouts seed their two generators this way (np.random.PCG64 of
    # [seed, 0] and [seed, 1]): SeedSequence's hashing and PCG64's seeding in compiled code,
    # checked against numpy on the seeds the rollouts draw (below 2**62), one- and two-word
    # seeds and their edges, and other stream numbers
    rng = np.random.default_rng(7)
    edges = [0, 1, (1 << 32) - 1, 1 << 32, (1 << 62) - 1, (1 << 63) - 1]
    seeds = np.array(
        [*edges, *rng.integers(0, 1 << 62, 400), *rng.integers(0, 1 << 32, 100)], dtype=np.int64
    )
    ks = np.array([0, 1, 2, 1 << 33][: len(seeds)] * (len(seeds) // 4 + 1), dtype=np.int64)
    ks = ks[: len(seeds)]
    g = np.random.Generator(np.random.PCG64(99))
    drawn = _seeded_draws(g, seeds, ks)
    for i in range(len(seeds)):
        fresh = np.random.Generator(np.random.PCG64(np.array([seeds[i], ks[i]])))
        assert drawn[i].tolist() == fresh.random(3).tolist(), (int(seeds[i]), int(ks[i]))
    plain = np.random.Generator(np.random.PCG64(5))
    seed_pcg64(plain, int(seeds[7]), 1)  # (the plain function: the path without the compiler)
    fresh = np.random.Generator(np.random.PCG64(np.array([seeds[7], 1])))
    assert plain.bit_generator.state == fresh.bit_generator.state


NO_JIT_SCRIPT = """
import json, sys
import numpy as np
from antipolix import Rules
from antipolix.agents import GreedyAgent, RandomAgent
from antipolix.autoplay import play_games
from antipolix.play import play_game
from tests.test_compiled_core import small_games
out = []
for rules, agents, seed in small_games():
    game = play_game(rules, agents, seed).game
    (whole,) = play_games(rules, [(agents, np.random.SeedSequence(seed))])
    out.append([game.digest, whole.digest, game.turn])
print(json.dumps(out))
"""


def small_games() -> list[tuple[Rules, list[Agent], int]]:
    """A few short games over the rule options the core branches on (R5, R7, R8), the three
    built-in agents playing."""
    out: list[tuple[Rules, list[Agent], int]] = []
    options: list[dict[str, Any]] = [
        {},
        {"defence_counts": "all"},
        {"teleport_network": "all"},
        {"timers": False},
        {"think_times": "drawn", "time_credit": 8.0},
        {"players": 3},
    ]
    for seed, extra in enumerate(options):
        rules = Rules(**{"shape": (2, 8, 8), "players": 2, "max_turns": 80, **extra})
        agents: list[Agent] = [
            GreedyAgent() if (seed + s) % 2 else RandomAgent() for s in range(rules.players)
        ]
        if seed % 2:  # and a planner (its floating-point sums, compiled or not)
            agents[0] = PlannerAgent()
        out.append((rules, agents, seed))
    return out


def test_the_same_games_without_the_compiler() -> None:
    # R12: compiled or not (NUMBA_DISABLE_JIT=1 runs the kernels as plain Python), the same
    # games: the same digests of every event, through Game and whole
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", NO_JIT_SCRIPT],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    plain = json.loads(done.stdout.strip().splitlines()[-1])
    for (rules, agents, seed), (game_digest, whole_digest, turns) in zip(
        small_games(), plain, strict=True
    ):
        played = play_game(rules, agents, seed).game
        (whole,) = play_games(rules, [(agents, np.random.SeedSequence(seed))])
        assert turns == played.turn and turns > 1, (rules, seed)
        assert game_digest == whole_digest == played.digest == whole.digest, (rules, seed)
