"""R7 Time and reception order: hand-traced timer scenarios on small boards.

Every expected timer below is computed by hand from RULES.md R7: clocks are frozen until the
first order of a turn arrives; while k of the m living players have submitted (0 < k < m), each
of the k gains m − k per second and each of the others loses k per second.
"""

import numpy as np
import pytest

from antipolix import Game, Move, Pass, PieceType, Rules, Trait
from antipolix.events import Discarded, Eliminated, Moved, Received, Rejected, TimerChanged
from tests.positions import of_kind as of_type
from tests.positions import passes


def chiefs_game(players, seed=0, **options):
    """One chief army per player on a 1×10×10 board: no two pieces touch.

          x: 0 1 2 3 4 5
    y=0      0 . . . . 5
    y=2      1 . . . . 6
    ...      (player p at (0, 2·(p mod 5), 5·(p div 5)))
    y=8      4 . . . . 9
    """
    rules = Rules(shape=(1, 10, 10), players=players, zones=False, budget=100, **options)
    game = Game(rules, seed=seed)
    ids = [
        game.place(p, PieceType.ARMY, Trait.CHIEF, (0, 2 * (p % 5), 5 * (p // 5)))
        for p in range(players)
    ]
    game.start()
    return game, ids


# -- the worked examples -------------------------------------------------------------------------


def test_r7_three_player_example():
    # R7: 3 players, think times 1, 2, 3 s, each starting with min(60, 250/3) = 60 s.
    # [0, 1]: frozen.  [1, 2]: k=1, m=3: P0 +2/s, P1 and P2 −1/s  -> 62, 59, 59
    # [2, 3]: k=2: P0, P1 +1/s, P2 −2/s                             -> 63, 60, 57
    # at 3 everybody has submitted: frozen again. Changes +3, 0, −3; the sum stays 180.
    game, _ = chiefs_game(3)
    assert game.timers == {0: 60.0, 1: 60.0, 2: 60.0}
    report = game.play_turn(passes(game), think_times={0: 1.0, 1: 2.0, 2: 3.0})
    assert report.reception == (0, 1, 2)
    assert game.timers == pytest.approx({0: 63.0, 1: 60.0, 2: 57.0})
    assert sum(game.timers.values()) == pytest.approx(180.0)
    changes = {e.player: e.after - e.before for e in of_type(report, TimerChanged)}
    assert changes == pytest.approx({0: 3.0, 1: 0.0, 2: -3.0})
    assert all(e.before == 60.0 for e in of_type(report, TimerChanged))
    assert [game.observe(p).timer for p in range(3)] == pytest.approx([63.0, 60.0, 57.0])


def test_r7_reception_order_is_ascending_think_time():
    # R7: P1 thinks 1 s, P2 2 s, P0 3 s -> reception order 1, 2, 0.
    # [1, 2]: P1 +2, P0 and P2 −1 -> P0 59, P1 62, P2 59
    # [2, 3]: P1, P2 +1, P0 −2    -> P0 57, P1 63, P2 60
    game, _ = chiefs_game(3)
    report = game.play_turn(passes(game), think_times={0: 3.0, 1: 1.0, 2: 2.0})
    assert report.reception == (1, 2, 0)
    received = [(e.player, e.at) for e in of_type(report, Received)]
    assert received == [(1, 1.0), (2, 2.0), (0, 3.0)]
    assert game.timers == pytest.approx({0: 57.0, 1: 63.0, 2: 60.0})


def test_r7_five_player_example_of_the_original_text():
    # R7 / original text §5: 5 players, credit min(60, 250/5) = 50 s, think times 1..5 s.
    # [1,2] k=1: +4 / −1   [2,3] k=2: +3 / −2   [3,4] k=3: +2 / −3   [4,5] k=4: +1 / −4
    # P0: +4+3+2+1 = +10   P1: −1+3+2+1 = +5   P2: −1−2+2+1 = 0
    # P3: −1−2−3+1 = −5    P4: −1−2−3−4 = −10  (sum 250 kept)
    game, _ = chiefs_game(5)
    assert game.timers == {p: 50.0 for p in range(5)}
    game.play_turn(passes(game), think_times={p: float(p + 1) for p in range(5)})
    assert game.timers == pytest.approx({0: 60.0, 1: 55.0, 2: 50.0, 3: 45.0, 4: 40.0})
    assert sum(game.timers.values()) == pytest.approx(250.0)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_r7_five_player_rates(k):
    # R7: with 5 players, k submit at 0 s and the rest at 1 s. During [0, 1] each of the k gains
    # 5 − k per second and each of the others loses k per second (4/1, 3/2, 2/3, 1/4).
    game, _ = chiefs_game(5)
    times = {p: (0.0 if p < k else 1.0) for p in range(5)}
    game.play_turn(passes(game), think_times=times)
    expected = {p: (50.0 + (5 - k) if p < k else 50.0 - k) for p in range(5)}
    assert game.timers == pytest.approx(expected)


# -- frozen clocks and the initial credit --------------------------------------------------------


@pytest.mark.parametrize("t", [0.0, 2.5, 40.0])
def test_r7_clocks_frozen_until_first_order_all_equal(t):
    # R7: all think times equal -> the first order arrives at t, and at that same instant every
    # order has arrived: no clock ever runs, nobody's timer changes.
    game, _ = chiefs_game(3)
    game.play_turn(passes(game), think_times={0: t, 1: t, 2: t})
    assert game.timers == {0: 60.0, 1: 60.0, 2: 60.0}


def test_r7_clocks_frozen_until_first_order_shift():
    # R7: think times 10 and 11 s change the timers exactly as 0 and 1 s would: the first 10 s,
    # before any order arrives, are frozen. [10, 11]: P0 +1/s, P1 −1/s -> 61, 59.
    late, _ = chiefs_game(2)
    late.play_turn(passes(late), think_times={0: 10.0, 1: 11.0})
    assert late.timers == pytest.approx({0: 61.0, 1: 59.0})
    early, _ = chiefs_game(2)
    early.play_turn(passes(early), think_times={0: 0.0, 1: 1.0})
    assert early.timers == pytest.approx(late.timers)


@pytest.mark.parametrize(
    ("players", "options", "credit"),
    [
        (2, {}, 60.0),  # min(60, 250/2 = 125)
        (5, {}, 50.0),  # min(60, 250/5 = 50)
        (10, {}, 25.0),  # min(60, 250/10 = 25)
        (2, {"time_credit": 30.0, "time_total": 100.0}, 30.0),  # min(30, 50)
        (4, {"time_credit": 30.0, "time_total": 100.0}, 25.0),  # min(30, 25)
    ],
)
def test_r7_initial_credit(players, options, credit):
    # R7: every player starts with min(time_credit, time_total / n) seconds.
    game, _ = chiefs_game(players, **options)
    assert game.timers == {p: credit for p in range(players)}
    assert all(game.observe(p).timer == credit for p in range(players))


# -- elimination when a timer reaches 0 ----------------------------------------------------------


def test_r7_timer_elimination_mid_turn():
    # R7: time_credit = 5 -> each of 3 players starts with min(5, 250/3) = 5 s.
    #
    #   1×10×10 board:  P0 chief (0,0,0)   P1 chief (0,0,4)
    #                   P2 chief (0,9,9)   P2 army  (0,9,5)
    #
    # Turn 1, think times 0, 0, 1: [0, 1] k=2: P0, P1 +1, P2 −2      -> 6, 6, 3
    # Turn 2, think times P0 1, P1 6, P2 10 (P2 orders a move of its army):
    #   [0, 1] frozen.  [1, 4] k=1, m=3: P0 +2, P1 −1, P2 −1          -> 12, 3, 0 at t = 4
    #   P2 is eliminated at 4.0: pieces removed, its pending move discarded.
    #   [4, 6] k=1, m=2: P0 +1, P1 −1                                 -> 14, 1
    #   (had the rates not changed, P0 would get +2/s and end at 16)
    #   at 6 P1 submits: every living player has submitted, frozen.
    rules = Rules(shape=(1, 10, 10), players=3, zones=False, budget=100, time_credit=5.0)
    game = Game(rules, seed=1)
    game.place(0, PieceType.ARMY, Trait.CHIEF, (0, 0, 0))
    game.place(1, PieceType.ARMY, Trait.CHIEF, (0, 0, 4))
    c2 = game.place(2, PieceType.ARMY, Trait.CHIEF, (0, 9, 9))
    a2 = game.place(2, PieceType.ARMY, Trait.NONE, (0, 9, 5))
    game.start()
    assert game.timers == {0: 5.0, 1: 5.0, 2: 5.0}

    game.play_turn(passes(game), think_times={0: 0.0, 1: 0.0, 2: 1.0})
    assert game.timers == pytest.approx({0: 6.0, 1: 6.0, 2: 3.0})

    move = Move(a2, (0, 8, 5))
    report = game.play_turn({0: Pass(), 1: Pass(), 2: move}, think_times={0: 1.0, 1: 6.0, 2: 10.0})
    eliminated = of_type(report, Eliminated)
    assert len(eliminated) == 1
    out = eliminated[0]
    assert (out.player, out.reason, out.by, out.taken) == (2, "timer", None, ())
    assert out.at == pytest.approx(4.0)
    assert sorted(out.removed) == sorted([c2, a2])
    # the eliminated player's order is discarded, never received nor carried out
    discarded = of_type(report, Discarded)
    assert [(e.player, e.order) for e in discarded] == [(2, move)]
    assert 2 not in [e.player for e in of_type(report, Received)]
    assert of_type(report, Moved) == []
    # it happened at 4 s: before P1's order arrived at 6 s
    p1_received = next(i for i, e in enumerate(report.events) if e == Received(1, 6.0))
    assert report.events.index(out) < p1_received
    # its pieces are off the board
    assert game.pieces(2) == []
    assert not game.piece(c2).alive and not game.piece(a2).alive
    for cell in [(0, 9, 9), (0, 9, 5), (0, 8, 5)]:
        assert game.board.at(cell) == -1
    assert game.living == (0, 1)
    assert game.elimination_order == (2,)
    assert game.result is None
    # the rates changed at 4 s for the remaining players
    assert game.timers == pytest.approx({0: 14.0, 1: 1.0})
    assert sum(game.timers.values()) == pytest.approx(15.0)


def test_r7_timer_elimination_can_end_the_game():
    # R7, R10: 2 players with 2 s each. P0 submits at 0, P1 would at 5.
    # [0, 2] k=1, m=2: P0 +1, P1 −1 -> P1 reaches 0 at 2 s and is eliminated; P0 wins.
    game, ids = chiefs_game(2, time_credit=2.0)
    report = game.play_turn(passes(game), think_times={0: 0.0, 1: 5.0})
    (out,) = of_type(report, Eliminated)
    assert (out.player, out.reason) == (1, "timer")
    assert out.at == pytest.approx(2.0)
    assert game.result is not None and game.result.winner == 0
    assert not game.piece(ids[1]).alive


def test_r7_sum_of_living_timers_constant():
    # R7: the total is constant over turns without elimination (4 × 1000 s).
    game, _ = chiefs_game(4, time_credit=1000.0, time_total=4000.0)
    rng = np.random.default_rng(123)
    moved = False
    for _ in range(25):
        times = {p: float(t) for p, t in zip(range(4), rng.uniform(0, 5, 4), strict=True)}
        report = game.play_turn(passes(game), think_times=times)
        assert game.living == (0, 1, 2, 3)
        assert sum(game.timers.values()) == pytest.approx(4000.0)
        deltas = [e.after - e.before for e in of_type(report, TimerChanged)]
        assert sum(deltas) == pytest.approx(0.0, abs=1e-9)
        moved = moved or any(abs(d) > 0.1 for d in deltas)
    assert moved  # the timers did change: the sum is not trivially constant


# -- reception order ties -------------------------------------------------------------------------


def contested(seed):
    """Both chiefs move to (0,0,1) with equal think times: the tie decides who gets the cell.

    x:  0 1 2
        A . B      A = P0's chief, B = P1's chief; both order Move(-, (0,0,1))
    """
    rules = Rules(shape=(1, 4, 4), players=2, zones=False, budget=100)
    game = Game(rules, seed=seed)
    a = game.place(0, PieceType.ARMY, Trait.CHIEF, (0, 0, 0))
    b = game.place(1, PieceType.ARMY, Trait.CHIEF, (0, 0, 2))
    game.start()
    report = game.play_turn(
        {0: Move(a, (0, 0, 1)), 1: Move(b, (0, 0, 1))}, think_times={0: 1.0, 1: 1.0}
    )
    return game, report


def test_r7_reception_ties_broken_by_seeded_generator():
    # R7: equal think times tie; the seeded generator breaks the tie, and the first received
    # order takes the contested cell (R4: the second finds it occupied and is rejected).
    orders = set()
    for seed in range(40):
        game, report = contested(seed)
        _, again = contested(seed)
        assert again.reception == report.reception  # same seed, same order
        assert sorted(report.reception) == [0, 1]
        first, second = report.reception
        (moved,) = of_type(report, Moved)
        (rejected,) = of_type(report, Rejected)
        assert moved.player == first and rejected.player == second
        assert game.board.owner[game.board.at((0, 0, 1))] == first
        orders.add(report.reception)
    # P(one order in all 40 seeds) = 2 × 2^-40: both orders occur
    assert orders == {(0, 1), (1, 0)}


# -- who may gain on the clock (think_times) ---------------------------------------------------


def _passers(reported, seed=0, **options):
    """Two chiefs passing every turn, reporting these think times, until the game ends (or 300
    turns); the game and its reports."""
    game, _ = chiefs_game(2, seed=seed, max_turns=300, **options)
    reports = []
    while game.result is None:
        reports.append(game.play_turn(passes(game), think_times=reported))
    return game, reports


def test_r7_agent_think_times_let_a_zero_claim_drain_the_other_clock():
    # R7 think_times="agent" (the default): the player who claims 0 s always submits first and
    # gains 0.5 s a turn from the one that takes 0.5 s: 60 s are gone after 120 turns
    game, reports = _passers({0: 0.0, 1: 0.5})
    assert game.result is not None and game.result.winner == 0
    assert game.result.turns == 120
    (out,) = of_type(reports[-1], Eliminated)
    assert (out.player, out.reason) == (1, "timer")


def test_r7_drawn_think_times_ignore_what_is_reported():
    # R7 think_times="drawn": the engine draws every think time (exponential, mean 1 s) from
    # the game's generator; what the players report changes nothing, and nobody gains for sure
    game_a, reports_a = _passers({0: 0.0, 1: 0.5}, think_times="drawn")
    game_b, reports_b = _passers({0: 7.0, 1: 0.0}, think_times="drawn")
    assert [[e.to_dict() for e in r.events] for r in reports_a] == [
        [e.to_dict() for e in r.events] for r in reports_b
    ]
    assert game_a.result == game_b.result
    firsts = [r.reception[0] for r in reports_a]
    assert 0.3 < firsts.count(0) / len(firsts) < 0.7  # each player is first about half the time
    _, again = _passers({0: 0.0, 1: 0.5}, think_times="drawn", seed=1)
    assert [e.to_dict() for e in again[0].events] != [e.to_dict() for e in reports_a[0].events]


def test_r7_drawn_think_times_are_exponential_with_mean_one_second():
    game, _ = chiefs_game(4, timers=False, think_times="drawn", max_turns=2000)
    times = []
    for _ in range(500):
        report = game.play_turn(passes(game))
        times += [e.at for e in of_type(report, Received)]
    times = np.array(times)
    assert (times > 0).all()
    # mean 1, sd 1: the mean of 2000 draws is within 5 standard errors (5 / sqrt(2000))
    assert abs(times.mean() - 1.0) < 5 / np.sqrt(len(times))
    assert abs(np.median(times) - np.log(2)) < 0.08  # exponential, not uniform


def test_r7_players_out_of_time_at_the_same_instant_go_in_an_order_drawn_by_the_generator():
    # R7: P1 and P2 both reach 0 at 2 s (P0 submits at once, gaining 2/s; each of them loses
    # 1/s). They are eliminated at the same instant, in an order the game's generator draws,
    # never by seat: across seeds both orders happen, and one seed always gives the same one.
    orders = set()
    for seed in range(30):
        game, _ = chiefs_game(3, seed=seed, time_credit=2.0)
        report = game.play_turn(passes(game), think_times={0: 0.0, 1: 9.0, 2: 9.0})
        out = of_type(report, Eliminated)
        assert [e.player for e in out] == list(game.elimination_order)
        assert sorted(game.elimination_order) == [1, 2]
        assert all(e.at == pytest.approx(2.0) and e.reason == "timer" for e in out)
        again, _ = chiefs_game(3, seed=seed, time_credit=2.0)
        again.play_turn(passes(again), think_times={0: 0.0, 1: 9.0, 2: 9.0})
        assert again.elimination_order == game.elimination_order
        orders.add(game.elimination_order)
    assert orders == {(1, 2), (2, 1)}  # P(one order in 30 seeds) = 2 × 2^-30


# -- timers off -----------------------------------------------------------------------------------


def test_r7_timers_off():
    # R7 option timers=False: no timer, no change, no elimination by time, however long a
    # player thinks.
    game, _ = chiefs_game(2, timers=False, time_credit=1.0)
    assert game.timers == {}
    for _ in range(3):
        report = game.play_turn(passes(game), think_times={0: 0.0, 1: 10_000.0})
        assert game.timers == {}
        assert of_type(report, TimerChanged) == []
        assert of_type(report, Eliminated) == []
        assert game.living == (0, 1)
        assert game.observe(0).timer is None and game.observe(1).timer is None
    assert game.result is None
