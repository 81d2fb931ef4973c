"""The PettingZoo environment (antipolix.env): PettingZoo's own API and seed tests, then R6
(observations are a function of what the seat may know), masks (every allowed action is a legal
order, and every legal order of the action space is allowed), rewards by finishing order, seeds
(R12), forbidden and malformed actions, and the example script."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from pettingzoo.test import parallel_api_test, parallel_seed_test

from antipolix import Attack, Game, Move, PieceType, Rules, Trait
from antipolix.agents import GivenArmy, GreedyAgent, RandomAgent
from antipolix.end import EndReason, GameResult
from antipolix.env import (
    BOARD_CHANNELS,
    EVENT_COLUMNS,
    AntipolixEnv,
    EnvError,
    IllegalActionError,
    InvalidActionError,
    finishing_places,
    parallel_env,
    piece_bound,
    place_reward,
)
from antipolix.errors import PhaseError, RulesError
from antipolix.events import Fate
from antipolix.play import play_game
from tests.markdown import python_blocks

ROOT = Path(__file__).resolve().parents[1]
SMALL = {"players": 2, "shape": (4, 8, 8)}
# teleporters (R5) and invisible pieces (R6) in every army, so that masks meet both
RICH_ARMY = GivenArmy(
    ["army+chief", "hovercraft+teleporter", "hovercraft+teleporter", "army+invisible", "army"]
)
RICH = {**SMALL, "budget": 40, "armies": RICH_ARMY}


def random_actions(rng: np.random.Generator) -> Callable[[dict[str, Any]], dict[str, int]]:
    """Actions drawn uniformly among those each agent's mask allows."""

    def draw(obs: dict[str, Any]) -> dict[str, int]:
        out = {}
        for agent, o in sorted(obs.items()):
            allowed = np.flatnonzero(o["action_mask"])
            out[agent] = int(allowed[rng.integers(len(allowed))])
        return out

    return draw


def live(obs: dict[str, Any], env: AntipolixEnv) -> dict[str, Any]:
    return {a: obs[a] for a in env.agents}


def distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return max(abs(i - j) for i, j in zip(a, b, strict=True))


def target(env: AntipolixEnv, action: int) -> tuple[int, int, int]:
    """The cell an action of the move or attack segment aims at."""
    flat = (action - 1) % env.cells if action < env.attack_base else action - env.attack_base
    z, y, x = np.unravel_index(flat, env.rules.shape)
    return int(z), int(y), int(x)


# -- PettingZoo's own tests ---------------------------------------------------------------------


# with 3 s on the clocks, timers eliminate players within a few turns (R7): agents leave
SHORT_CLOCKS = {"players": 4, "shape": (4, 10, 10), "time_credit": 3.0}


@pytest.mark.parametrize("options", [SMALL, {"players": 3, "shape": (4, 8, 8)}, RICH, SHORT_CLOCKS])
def test_pettingzoo_parallel_api_test(options: dict[str, Any]) -> None:
    # PettingZoo's own checks: it raises (AssertionError and the like) on any breach of the
    # ParallelEnv API (spaces, masks, agents leaving, infos, ...)
    env = parallel_env(**options)
    step, playing = env.step, []

    def counted(actions: dict[str, int]) -> Any:
        out = step(actions)
        playing.append(len(env.agents))
        return out

    env.step = counted
    parallel_api_test(env, num_cycles=300)
    assert playing, "the checker played no turn"
    if options is SHORT_CLOCKS:
        # the checker met agents leaving a game that went on (R7 timers)
        assert any(0 < n < env.rules.players for n in playing), playing


def test_pettingzoo_parallel_seed_test() -> None:
    # PettingZoo's seed test (it raises when two environments seeded alike differ) samples
    # actions without the mask, so most are forbidden: the env is built to pass on them
    # (illegal_action="pass"); the default raises (tested below)
    parallel_seed_test(lambda: parallel_env(**SMALL, illegal_action="pass"), num_cycles=100)

    # and the check has something to compare: games differ by seed (R12), so an env that
    # drops the seed it is given fails it
    def seed_dropped() -> AntipolixEnv:
        env = parallel_env(**SMALL, illegal_action="pass")
        reset = env.reset
        env.reset = lambda seed=None, options=None: reset(seed=None, options=options)
        return env

    with pytest.raises(AssertionError, match="Incorrect observations"):
        parallel_seed_test(seed_dropped, num_cycles=100)


def test_metadata_and_spaces() -> None:
    env = parallel_env(**SMALL)
    assert env.metadata["name"] == "antipolix_v0" and env.metadata["is_parallelizable"] is True
    assert env.possible_agents == ["player_0", "player_1"]
    # 2 players on 4×8×8: budget 15, so a chief (2) and at most 6 more hovercraft (2) per seat
    assert env.slots == piece_bound(env.rules) == 14
    cells = 4 * 8 * 8
    assert env.actions == 1 + 14 * cells + cells
    assert env.action_space("player_0").n == env.actions
    space = env.observation_space("player_1")
    assert space["action_mask"].shape == (env.actions,)
    assert space["observation"]["board"].shape == (len(BOARD_CHANNELS), 4, 8, 8)
    assert space["observation"]["events"].shape == (2, len(EVENT_COLUMNS))
    assert env.observation_space("player_0") is not space  # one space object per agent


def test_r7_env_draws_think_times() -> None:
    env = parallel_env(Rules(shape=(4, 8, 8), players=2, think_times="agent"))
    assert env.rules.think_times == "drawn"
    with pytest.raises(RulesError, match="think_times must be 'drawn'"):
        parallel_env(**SMALL, think_times="agent")


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"colour": "red"}, RulesError, "unknown option"),
        ({"players": 11}, RulesError, "players must be"),
        ({"render_mode": "human"}, EnvError, "render_mode must be None"),
        ({"illegal_action": "ignore"}, EnvError, "illegal_action must be"),
        ({"armies": "army"}, EnvError, "armies must be an army policy"),
        ({"scripted": {"player_9": GreedyAgent()}}, EnvError, "no agent 'player_9'"),
        ({"scripted": {"player_0": "nobody"}}, Exception, "unknown agent 'nobody'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        parallel_env(**{**SMALL, **options})


# -- R6: observations built from what the seat may know ----------------------------------------

BOARD = {"players": 2, "shape": (2, 12, 12), "zones": False, "budget": 40}
ARMY, HOVER, FORT = PieceType.ARMY, PieceType.HOVERCRAFT, PieceType.FORTRESS
NONE, INVIS, CHIEF = Trait.NONE, Trait.INVISIBLE, Trait.CHIEF
# seat 0 in one corner, seat 1 close enough to fight
#   z=0  y\x 1 2 3 4 5        z=1: seat 0's hovercraft on (1,2,2), seat 1's on (1,3,3);
#        1   C a                    seat 1's extra invisible army in the far corner (1,11,11)
#        2   a a a                  (in the "hidden" games only)
#        3       b
#        5           C
SEAT0 = [(ARMY, CHIEF, (0, 1, 1)), (ARMY, NONE, (0, 1, 2)), (ARMY, NONE, (0, 2, 1))]
SEAT0 += [(ARMY, NONE, (0, 2, 2)), (ARMY, NONE, (0, 2, 3)), (HOVER, NONE, (1, 2, 2))]
SEAT1 = [(ARMY, CHIEF, (0, 5, 5)), (ARMY, NONE, (0, 3, 3)), (HOVER, NONE, (1, 3, 3))]
FAR = (1, 11, 11)


def position(seat1: list[tuple[PieceType, Trait, tuple[int, int, int]]]) -> Callable[[Game], None]:
    def place(game: Game) -> None:
        for seat, army in enumerate((SEAT0, seat1)):
            for kind, trait, cell in army:
                game.place(seat, kind, trait, cell)

    return place


def lockstep(
    env_a: AntipolixEnv, env_b: AntipolixEnv, seed: int, avoid: tuple[int, int, int], turns: int
) -> tuple[int, int, int]:
    """Play both envs with the same actions (player_0: random among its allowed attacks and its
    moves that stay more than three cells from ``avoid``; player_1 passes) and check that
    player_0's observations are equal array for array. Returns the steps compared and how many
    moves and attacks player_0 was told of."""
    rng = np.random.default_rng(seed)
    obs_a, _ = env_a.reset(seed=seed)
    obs_b, _ = env_b.reset(seed=seed)
    col = {name: i for i, name in enumerate(EVENT_COLUMNS)}
    steps = moved = attacks = 0
    for _ in range(turns):
        assert data_equivalence(obs_a["player_0"], obs_b["player_0"]), f"step {steps}"
        told = obs_a["player_0"]["observation"]["events"][0]
        moved += int(told[col["moved"]])
        attacks += int(told[col["success"]])
        mask = obs_a["player_0"]["action_mask"]
        # never the chief (taking it hands every enemy piece over, the hidden one included)
        chief = next(p.cell for p in env_a.game.pieces(1) if p.trait is CHIEF)
        pool = [
            a
            for a in np.flatnonzero(mask[1:]) + 1
            if env_a.describe("player_0", a) != f"attack {chief}"
            and distance(target(env_a, a), avoid) > 3
        ]
        hits = [a for a in pool if a >= env_a.attack_base]
        if hits and rng.random() < 0.5:  # attack one turn in two when it can
            pool = hits
        action = int(pool[rng.integers(len(pool))]) if pool else 0
        acts = {"player_0": action, "player_1": 0}
        obs_a, rew_a, term_a, trunc_a, _ = env_a.step(acts)
        obs_b, rew_b, term_b, trunc_b, _ = env_b.step(acts)
        steps += 1
        assert (rew_a, term_a, trunc_a) == (rew_b, term_b, trunc_b)
        if not env_a.agents:
            break
    return steps, moved, attacks


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_r6_an_enemy_invisible_piece_far_away_changes_no_observation(seed: int) -> None:
    plain = parallel_env(**BOARD, placement=position(SEAT1))
    hidden = parallel_env(**BOARD, placement=position([*SEAT1, (ARMY, INVIS, FAR)]))
    steps, moved, attacks = lockstep(plain, hidden, seed, FAR, turns=40)
    assert steps == 40 and moved > 0 and attacks > 0
    # the two games did differ all along: the truth holds one more piece
    assert len(hidden.game.pieces(1)) == len(plain.game.pieces(1)) + 1


def test_r6_which_enemy_piece_is_the_chief_changes_no_observation() -> None:
    other_chief = [(ARMY, NONE, (0, 5, 5)), (ARMY, CHIEF, (0, 3, 3)), (HOVER, NONE, (1, 3, 3))]
    a = parallel_env(**BOARD, placement=position(SEAT1))
    b = parallel_env(**BOARD, placement=position(other_chief))
    obs_a, _ = a.reset(seed=4)
    obs_b, _ = b.reset(seed=4)
    assert data_equivalence(obs_a["player_0"], obs_b["player_0"])
    for _ in range(5):  # a few moves of player_0 (no attack: the worlds would part)
        action = int(np.flatnonzero(obs_a["player_0"]["action_mask"][1 : a.attack_base])[0]) + 1
        obs_a, *_ = a.step({"player_0": action, "player_1": 0})
        obs_b, *_ = b.step({"player_0": action, "player_1": 0})
        assert data_equivalence(obs_a["player_0"], obs_b["player_0"])


def test_r6_observation_encodes_the_seat_observation_and_no_enemy_trait() -> None:
    env = parallel_env(**BOARD, placement=position([*SEAT1, (ARMY, INVIS, FAR)]))
    obs, _ = env.reset(seed=0)
    for seat, agent in enumerate(env.possible_agents):
        o = obs[agent]["observation"]
        raw = env.raw_observation(agent)
        board = o["board"].reshape(len(BOARD_CHANNELS), -1)
        ch = {name: i for i, name in enumerate(BOARD_CHANNELS)}
        flat = [np.ravel_multi_index(p.cell, env.rules.shape) for p in raw.pieces]
        for piece, f in zip(raw.pieces, flat, strict=True):
            if piece.owner == seat:
                assert board[ch[f"own_{piece.type.name.lower()}"], f] == 1
                if piece.trait is not NONE:
                    assert board[ch[f"own_{piece.trait.name.lower()}"], f] == 1
            else:
                assert board[ch[f"enemy_{piece.type.name.lower()}"], f] == 1
                assert board[ch["enemy_owner"], f] == (piece.owner - seat) % 2
        # nothing else is drawn: one type channel per visible piece, no cell twice
        assert int(board[:3].sum() + board[6:9].sum()) == len(raw.pieces)
        # own table: slot s holds the piece slot_pieces says, with its type, trait and cell
        by_id = {p.id: p for p in raw.pieces}
        for s, pid in enumerate(env.slot_pieces(agent)):
            if pid is None:
                assert not o["own"][s].any()
            else:
                p = by_id[pid]
                assert o["own"][s].tolist() == [1, p.type, p.trait, *p.cell]
        enemies = [p for p in raw.pieces if p.owner != seat]
        assert o["enemies"][:, 0].sum() == len(enemies)
        assert o["enemies"][: len(enemies), 3:].tolist() == [list(p.cell) for p in enemies]
    # player_0 sees 3 enemy pieces: the invisible one is in no array of its observation
    assert obs["player_0"]["observation"]["enemies"][:, 0].sum() == 3
    board0 = obs["player_0"]["observation"]["board"]
    assert not board0[:, FAR[0], FAR[1], FAR[2]].any()
    assert obs["player_1"]["observation"]["board"][BOARD_CHANNELS.index("own_invisible"), 1, 11, 11]


def test_r8_events_row_tells_an_attack_its_powers_and_outcome() -> None:
    env = parallel_env(**BOARD, placement=position(SEAT1))
    obs, _ = env.reset(seed=0)
    # player_0 attacks seat 1's army on (0, 3, 3) with every piece that reaches it
    action = env.action_of("player_0", Attack([0], (0, 3, 3)))
    assert env.describe("player_0", action) == "attack (0, 3, 3)"
    order = env.order_of("player_0", action)
    assert isinstance(order, Attack) and len(order.pieces) == 3
    obs, *_ = env.step({"player_0": action, "player_1": 0})
    col = {name: i for i, name in enumerate(EVENT_COLUMNS)}
    raw = [e for e in env.raw_observation("player_1").events if isinstance(e, Fate)]
    assert len(raw) == 1
    for agent, row in (("player_0", 0), ("player_1", 1)):  # the attacker's relative seat
        ev = obs[agent]["observation"]["events"][row]
        assert ev[col["told"]] == 1 and ev[[col["z"], col["y"], col["x"]]].tolist() == [0, 3, 3]
        # attackers: the armies on (0,2,2), (0,2,3) and the hovercraft on (1,2,2): 2 + 2 + 1;
        # defence: the army (2) and the hovercraft beside it on (1,3,3) (1), R8
        assert (ev[col["attack"]], ev[col["defence"]], ev[col["success"]]) == (5, 3, 1)
        assert ev[col["outcome"]] == 1 + int(raw[0].outcome)  # 1 destroy, 2 teleport, 3 convert
        assert ev[col["destroyed"]] == int(raw[0].destroyed)
        assert ev[col["victim"]] == (1 if agent == "player_0" else 0)
    assert obs["player_0"]["observation"]["events"][1, col["told"]] == 0  # player_1 passed


# -- masks: exactly the legal orders ------------------------------------------------------------


def check_mask(env: AntipolixEnv, obs: dict[str, Any]) -> int:
    """Every allowed action's order is legal (Game.is_legal) and every legal move of a slot's
    piece to a cell it reaches, and every legal attack, is allowed. Returns actions checked."""
    game = env.game
    checked = 0
    for agent in env.agents:
        seat = env.possible_agents.index(agent)
        mask = obs[agent]["action_mask"]
        assert mask[0] == 1  # Pass is always allowed to a living seat
        for action in np.flatnonzero(mask).tolist():
            order = env.order_of(agent, action)
            assert game.is_legal(seat, order), (agent, env.describe(agent, action), order)
            checked += 1
        # the other way round: legal moves of each slot's piece, legal attacks
        allowed = set(np.flatnonzero(mask).tolist())
        for slot, pid in enumerate(env.slot_pieces(agent)):
            if pid is None:
                continue
            for cell in game.reach(pid):
                action = env.move_action(slot, cell)
                assert game.is_legal(seat, Move(pid, cell)) == (action in allowed), (pid, cell)
        own = [p.id for p in game.pieces(seat)]
        for enemy in game.pieces():
            if enemy.owner == seat:
                continue
            action = env.attack_action(enemy.cell)
            assert game.is_legal(seat, Attack(own, enemy.cell)) == (action in allowed), enemy
        moves = mask[1 : env.attack_base].reshape(env.slots, -1)
        assert not moves[[p is None for p in env.slot_pieces(agent)]].any()  # free slots
    return checked


@pytest.mark.parametrize("seed", [3, 4])
def test_r4_r5_mask_allows_exactly_the_legal_orders(seed: int) -> None:
    env = parallel_env(**RICH, max_turns=40)
    draw = random_actions(np.random.default_rng(seed))
    obs, _ = env.reset(seed=seed)
    checked = 0
    teleports = 0
    while env.agents:
        checked += check_mask(env, obs)
        for agent in env.agents:  # moves beyond the move field: through teleporters (R5)
            for pid in env.slot_pieces(agent):
                if pid is not None:
                    piece = env.game.piece(pid)
                    field = env.rules.piece_types[piece.type].move
                    far = [c for c in env.game.reach(pid) if distance(c, piece.cell) > field]
                    teleports += bool(far)
        obs, *_ = env.step(draw(live(obs, env)))
    assert checked > 1000 and teleports > 0


def test_r5_mask_with_every_teleporter_network_offers_only_legal_orders() -> None:
    env = parallel_env(**RICH, teleport_network="all", max_turns=30)
    draw = random_actions(np.random.default_rng(0))
    obs, _ = env.reset(seed=5)
    while env.agents:
        for agent in env.agents:
            seat = env.possible_agents.index(agent)
            for action in np.flatnonzero(obs[agent]["action_mask"]).tolist():
                assert env.game.is_legal(seat, env.order_of(agent, action))
        obs, *_ = env.step(draw(live(obs, env)))


def test_slots_are_kept_while_a_piece_is_owned() -> None:
    env = parallel_env(**SMALL, scripted={"player_1": GreedyAgent()}, max_turns=200)
    draw = random_actions(np.random.default_rng(1))
    obs, _ = env.reset(seed=2)
    before = {a: env.slot_pieces(a) for a in env.agents}
    changes = 0
    while env.agents:
        actions = draw({"player_0": obs["player_0"]})
        actions["player_1"] = env.scripted_action("player_1")
        obs, *_ = env.step(actions)
        for agent in env.agents:
            after = env.slot_pieces(agent)
            kept = {pid: s for s, pid in enumerate(after) if pid is not None}
            for s, pid in enumerate(before[agent]):
                if pid is not None and pid in kept:
                    assert kept[pid] == s  # a piece still owned keeps its slot
            changes += before[agent] != after
            before[agent] = after
    assert changes > 0  # pieces were lost (or won) along the way


# -- rewards and the end (R10, R11) -------------------------------------------------------------


def test_r10_r11_finishing_places_and_rewards() -> None:
    decided = GameResult(2, EndReason.LAST_PLAYER, 40, (0, 3, 1))
    assert finishing_places(decided, 4) == {2: 0.0, 1: 1.0, 3: 2.0, 0: 3.0}
    limit = GameResult(None, EndReason.TURN_LIMIT, 1000, (3,))
    assert finishing_places(limit, 4) == {0: 1.0, 1: 1.0, 2: 1.0, 3: 3.0}
    everyone = GameResult(None, EndReason.ALL_ELIMINATED, 50, (2, 0, 1))
    assert finishing_places(everyone, 3, last_instant=[0, 1]) == {0: 0.5, 1: 0.5, 2: 2.0}
    assert [place_reward(p, 4) for p in (0, 1, 2, 3)] == pytest.approx([1, 1 / 3, -1 / 3, -1])
    for result, n, last in ((decided, 4, ()), (limit, 4, ()), (everyone, 3, (0, 1))):
        rewards = [place_reward(p, n) for p in finishing_places(result, n, last).values()]
        assert sum(rewards) == pytest.approx(0.0)  # zero-sum


def test_r10_r11_rewards_by_finishing_order_when_agents_are_done() -> None:
    agents = ["player_0", "player_1", "player_2"]
    env = parallel_env(players=3, shape=(4, 8, 8), scripted=dict.fromkeys(agents, GreedyAgent()))
    decided = 0
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        total = dict.fromkeys(agents, 0.0)
        done_at: dict[str, int] = {}
        while env.agents:
            obs, rewards, term, trunc, infos = env.step(
                {a: env.scripted_action(a) for a in env.agents}
            )
            for agent, r in rewards.items():
                assert agent not in done_at  # nothing after an agent is done
                total[agent] += r
                if term[agent] or trunc[agent]:
                    done_at[agent] = env.game.turn
                    assert infos[agent]["place"] is not None
                else:
                    assert r == 0.0
        result = env.game.result
        assert result is not None
        assert sum(total.values()) == pytest.approx(0.0)
        if result.winner is not None:
            decided += 1
            order = result.elimination_order
            assert total[f"player_{result.winner}"] == 1.0
            assert total[f"player_{order[0]}"] == -1.0 and total[f"player_{order[1]}"] == 0.0
            assert done_at[f"player_{order[0]}"] <= done_at[f"player_{order[1]}"]
    assert decided >= 3


def test_r7_eliminated_agents_are_terminated_with_their_place_and_leave() -> None:
    env = parallel_env(**SHORT_CLOCKS)
    draw = random_actions(np.random.default_rng(2))
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        total = 0.0
        while env.agents:
            before = list(env.agents)
            obs, rewards, term, trunc, infos = env.step(draw(live(obs, env)))
            assert set(obs) == set(rewards) == set(term) == set(before)
            playing = [] if env.game.result else [f"player_{p}" for p in env.game.living]
            assert env.agents == playing
            order = env.game.elimination_order
            for agent in before:
                seat = env.possible_agents.index(agent)
                if env.game.result is None and seat in order:  # out, the game goes on
                    assert term[agent] and not trunc[agent]
                    assert infos[agent]["place"] == 4 - (order.index(seat) + 1)
                    assert rewards[agent] == place_reward(infos[agent]["place"], 4)
                    assert not obs[agent]["action_mask"].any()
            total += sum(rewards.values())
        assert total == pytest.approx(0.0)
        assert len(env.game.elimination_order) >= 2  # agents left before the end


def test_r10_turn_limit_truncates_with_shared_places() -> None:
    env = parallel_env(**SMALL, max_turns=4)
    obs, _ = env.reset(seed=0)
    for _ in range(4):
        assert env.agents == ["player_0", "player_1"]
        obs, rewards, term, trunc, infos = env.step({a: 0 for a in env.agents})
    assert trunc == {"player_0": True, "player_1": True}
    assert term == {"player_0": False, "player_1": False}
    assert rewards == {"player_0": 0.0, "player_1": 0.0}
    assert infos["player_0"]["reason"] == "turn_limit" and infos["player_0"]["winner"] is None
    assert env.agents == [] and not obs["player_0"]["action_mask"].any()
    with pytest.raises(PhaseError, match="the game is over"):
        env.step({})


# -- seeds (R12) and built-in agents as policies ------------------------------------------------


@pytest.mark.parametrize("seed", [0, 11])
def test_r12_env_with_scripted_agents_plays_the_game_play_plays(seed: int) -> None:
    bots = [GreedyAgent(), RandomAgent()]
    env = parallel_env(**SMALL, max_turns=150, scripted={"player_0": bots[0], "player_1": bots[1]})
    env.reset(seed=seed)
    while env.agents:
        env.step({a: env.scripted_action(a) for a in env.agents})
    played = play_game(env.rules, bots, seed)
    assert env.game.result == played.result
    assert env.game.placement() == played.game.placement()
    assert env.game.pieces() == played.game.pieces()
    assert env.game.timers == played.game.timers


def test_r12_same_seed_same_game_and_reset_without_seed_continues() -> None:
    def run(env: AntipolixEnv, seed: int | None) -> list[Any]:
        draw = random_actions(np.random.default_rng(7))
        obs, infos = env.reset(seed=seed)
        trace: list[Any] = [obs, infos]
        for _ in range(30):
            if not env.agents:
                break
            trace.append(env.step(draw(live(obs, env))))
            obs = trace[-1][0]
        return trace

    a, b = parallel_env(**RICH), parallel_env(**RICH)
    assert data_equivalence(run(a, 5), run(b, 5))
    assert a.game.seed.entropy == 5 and a.game.seed.spawn_key == ()
    again_a, again_b = run(a, None), run(b, None)
    assert data_equivalence(again_a, again_b)  # the k-th reset() after reset(seed=5): the same
    assert (a.game.seed.entropy, a.game.seed.spawn_key) == (5, (1, 0))
    assert not data_equivalence(again_a, run(parallel_env(**RICH), 5))  # another game
    assert (run(a, None), a.game.seed.spawn_key)[1] == (2, 0)


def test_scripted_action_is_asked_once_per_turn() -> None:
    env = parallel_env(**SMALL, scripted={"player_1": RandomAgent()})
    env.reset(seed=1)
    first = env.scripted_action("player_1")
    assert env.scripted_action("player_1") == first
    with pytest.raises(EnvError, match="player_0 has no scripted agent"):
        env.scripted_action("player_0")


# -- forbidden and malformed actions: an error, and the game untouched --------------------------


def snapshot(env: AntipolixEnv) -> tuple[Any, ...]:
    game = env.game
    return (game.turn, game.pieces(), game.timers, game.living, env.agents)


def test_forbidden_action_raises_and_changes_nothing() -> None:
    env = parallel_env(**SMALL)
    obs, _ = env.reset(seed=3)
    forbidden = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0])
    before = snapshot(env)
    with pytest.raises(IllegalActionError, match=r"player_0: action \d+ \(move slot .*forbidden"):
        env.step({"player_0": forbidden, "player_1": 0})
    assert isinstance(IllegalActionError("x"), ValueError)
    assert snapshot(env) == before
    legal = int(np.flatnonzero(obs["player_0"]["action_mask"])[-1])
    env.step({"player_0": legal, "player_1": 0})  # the same step, retried, plays
    assert env.game.turn == 1


def test_forbidden_action_passes_with_illegal_action_pass() -> None:
    env = parallel_env(**SMALL, illegal_action="pass")
    obs, _ = env.reset(seed=3)
    forbidden = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0])
    mine = env.game.pieces(0)
    move = int(np.flatnonzero(obs["player_1"]["action_mask"])[1])
    _, _, _, _, infos = env.step({"player_0": forbidden, "player_1": move})
    assert infos["player_0"]["illegal_action"] == forbidden
    assert "illegal_action" not in infos["player_1"]
    assert env.game.pieces(0) == mine  # player_0 passed
    assert env.game.turn == 1


@pytest.mark.parametrize(
    ("actions", "match"),
    [
        ({"player_0": 1.0, "player_1": 0}, "an action is an integer"),
        ({"player_0": True, "player_1": 0}, "an action is an integer"),
        ({"player_0": "0", "player_1": 0}, "an action is an integer"),
        ({"player_0": None, "player_1": 0}, "an action is an integer"),
        ({"player_0": np.array([0, 1]), "player_1": 0}, "an action is an integer"),
        ({"player_0": -1, "player_1": 0}, "outside"),
        ({"player_0": 10**9, "player_1": 0}, "outside"),
        ({"player_0": 0}, r"no action for \['player_1'\]"),
        ({"player_0": 0, "player_1": 0, "player_7": 0}, "who are not playing"),
        ([0, 0], "actions must be a dict"),
    ],
)
def test_malformed_actions_raise_and_change_nothing(actions: Any, match: str) -> None:
    env = parallel_env(**SMALL, illegal_action="pass")
    env.reset(seed=0)
    before = snapshot(env)
    with pytest.raises(InvalidActionError, match=match):
        env.step(actions)
    assert snapshot(env) == before


def test_numpy_actions_are_accepted() -> None:
    env = parallel_env(**SMALL)
    env.reset(seed=0)
    env.step({"player_0": np.int64(0), "player_1": np.array(0)})
    assert env.game.turn == 1


def test_step_before_reset_is_refused() -> None:
    env = parallel_env(**SMALL)
    with pytest.raises(EnvError, match=r"call reset\(\) first"):
        env.step({"player_0": 0, "player_1": 0})


def test_eliminated_agent_gets_no_more_actions() -> None:
    agents = ["player_0", "player_1", "player_2"]
    env = parallel_env(players=3, shape=(4, 8, 8), scripted=dict.fromkeys(agents, GreedyAgent()))
    env.reset(seed=0)
    while len(env.agents) == 3:
        env.step({a: env.scripted_action(a) for a in env.agents})
    gone = next(a for a in agents if a not in env.agents)
    if env.agents:
        with pytest.raises(InvalidActionError, match="who are not playing"):
            env.step({**{a: 0 for a in env.agents}, gone: 0})


# -- the example --------------------------------------------------------------------------------


def test_example_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "experiments" / "env_random_play.py"), "--games", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for matchup in ("random", "random vs greedy", "greedy"):
        assert f"{matchup}:" in done.stdout
    assert done.stdout.count("games/s") == 3


def test_readme_env_example_plays_a_game() -> None:
    blocks = [b for b in python_blocks((ROOT / "README.md").read_text()) if "antipolix.env" in b]
    assert len(blocks) == 1, "the README lost its env example"
    scope: dict[str, Any] = {}
    exec(compile(blocks[0], "README.md", "exec"), scope)
    env = scope["env"]
    assert env.agents == [] and env.game.result is not None
    assert sum(scope["rewards"].values()) == pytest.approx(0.0)
