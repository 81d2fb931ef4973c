"""R4 Turns and orders, R7 reception order: hand-traced scenarios on small boards.

Boards are drawn one layer at a time, rows ``y`` top to bottom, columns ``x`` left to right.
Capital letters are chiefs; the digit after a name is the owner (``a0`` is player 0's piece).
"""

from __future__ import annotations

import math

import pytest

from antipolix import Attack, Game, Move, Pass, Phase, PieceType, Rules, Trait
from antipolix.errors import (
    AntipolixError,
    DeadPlayerError,
    MissingOrderError,
    NotYourPieceError,
    OffBoardError,
    OrderError,
    PhaseError,
    TurnError,
    UnknownPieceError,
)
from antipolix.events import Combat, Eliminated, Fate, Moved, Received, Rejected
from tests.positions import make_game, of_kind

ARMY, HOVER, FORT = PieceType.ARMY, PieceType.HOVERCRAFT, PieceType.FORTRESS
NONE, INVIS, CHIEF = Trait.NONE, Trait.INVISIBLE, Trait.CHIEF


def snapshot(game, ids):
    """Everything a bad call must leave untouched (R4: checked before anything changes)."""
    return (
        game.turn,
        game.phase,
        game.living,
        game.timers,
        tuple(game.piece(i) for i in ids),
        tuple(game.observe(p).events for p in range(game.rules.players)),
    )


# -- R7: reception order decides who gets a contested cell ----------------------------------------


@pytest.mark.parametrize(
    ("times", "winner", "loser"),
    [({0: 1.0, 1: 2.0}, 0, 1), ({0: 2.0, 1: 0.5}, 1, 0)],
)
def test_r4_r7_same_free_cell_first_received_wins(times, winner, loser):
    # R4, R7: orders resolve in ascending think time; the second Move onto the same cell finds
    # it taken by the first (an enemy visible piece), so it is rejected with a reason.
    #   x: 0  1  2  3  4
    #   A0 .  .  .  B1        y=0
    #   .  a0 *  b1 .         y=1   both move to * = (0, 1, 2)
    game, (chief0, a0, chief1, b1) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, ARMY, NONE, (0, 1, 3)),
        ]
    )
    mover = {0: a0, 1: b1}
    start = {0: (0, 1, 1), 1: (0, 1, 3)}
    report = game.play_turn({0: Move(a0, (0, 1, 2)), 1: Move(b1, (0, 1, 2))}, think_times=times)

    assert report.reception == (winner, loser)
    received = [e.player for e in of_kind(report, Received)]
    assert received == [winner, loser]
    moved = of_kind(report, Moved)
    assert [(e.player, e.piece, e.dst) for e in moved] == [(winner, mover[winner], (0, 1, 2))]
    (rejected,) = of_kind(report, Rejected)
    assert rejected.player == loser
    assert rejected.order == Move(mover[loser], (0, 1, 2))
    assert isinstance(rejected.reason, str) and rejected.reason
    assert game.piece(mover[winner]).cell == (0, 1, 2)
    assert game.piece(mover[loser]).cell == start[loser]


def test_r7_tied_think_times_break_by_seed():
    # R7: ties break by the seeded generator: the same seed gives the same reception order, and
    # over many seeds both orders occur (a fixed seat order would always give (0, 1)).
    #   A0 a0 * b1 B1       both move to * = (0, 0, 2) with the same think time
    placements = [
        (0, ARMY, CHIEF, (0, 0, 0)),
        (0, ARMY, NONE, (0, 0, 1)),
        (1, ARMY, NONE, (0, 0, 3)),
        (1, ARMY, CHIEF, (0, 0, 4)),
    ]
    firsts = set()
    for seed in range(40):
        runs = []
        for _ in range(2):
            game, (_, a0, b1, _) = make_game(placements, seed=seed)
            report = game.play_turn(
                {0: Move(a0, (0, 0, 2)), 1: Move(b1, (0, 0, 2))}, think_times={0: 1.0, 1: 1.0}
            )
            runs.append(report.reception)
            (moved,) = of_kind(report, Moved)
            assert moved.player == report.reception[0]
        assert runs[0] == runs[1]
        firsts.add(runs[0][0])
    assert firsts == {0, 1}


def test_r4_move_into_cell_vacated_earlier_in_turn():
    # R4: each order is validated against the state left by the orders before it. b1 leaves
    # (0, 1, 2) first, so a0's move there (occupied at the start of the turn) succeeds.
    #   A0 .  .  .  B1
    #   .  a0 b1 .  .        b1 -> (0, 2, 3) at t=1, then a0 -> (0, 1, 2) at t=2
    game, (_, a0, _, b1) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, ARMY, NONE, (0, 1, 2)),
        ]
    )
    report = game.play_turn(
        {0: Move(a0, (0, 1, 2)), 1: Move(b1, (0, 2, 3))}, think_times={0: 2.0, 1: 1.0}
    )
    assert not of_kind(report, Rejected)
    assert game.piece(b1).cell == (0, 2, 3)
    assert game.piece(a0).cell == (0, 1, 2)


# -- R4: orders no longer valid when their turn comes ---------------------------------------------


def test_r4_attack_on_target_that_moved_away_is_rejected():
    # R4: the attack names a cell; t1 left it earlier in the turn, so the cell holds no
    # visible enemy piece and the attack is rejected (no combat, t1 unharmed).
    #   A0 .  .  .  B1
    #   .  a0 t1 .  .        t1 -> (0, 2, 2) at t=1; a0 attacks (0, 1, 2) at t=2
    #   .  .  .  .  .
    game, (_, a0, _, t1) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, HOVER, NONE, (0, 1, 2)),
        ],
        p_destroy=1,
        p_teleport=0,
        p_convert=0,
    )
    report = game.play_turn(
        {0: Attack([a0], (0, 1, 2)), 1: Move(t1, (0, 2, 2))}, think_times={0: 2.0, 1: 1.0}
    )
    (rejected,) = of_kind(report, Rejected)
    assert rejected.player == 0 and rejected.order == Attack((a0,), (0, 1, 2))
    assert rejected.reason
    assert not of_kind(report, Combat) and not of_kind(report, Fate)
    assert game.piece(t1).alive and game.piece(t1).cell == (0, 2, 2)


def test_r4_attack_on_target_destroyed_earlier_in_turn_is_rejected():
    # R4: player 1 destroys t2 first (p_destroy=1, attack 2 > defence 1); player 0's attack on
    # the now empty cell is rejected.
    #   A0 .  .  .  B1
    #   .  a0 t2 b1 .
    #   .  .  .  .  C2
    game, (_, a0, _, b1, _, t2) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, ARMY, NONE, (0, 1, 3)),
            (2, ARMY, CHIEF, (0, 2, 4)),
            (2, HOVER, NONE, (0, 1, 2)),
        ],
        players=3,
        p_destroy=1,
        p_teleport=0,
        p_convert=0,
    )
    report = game.play_turn(
        {0: Attack([a0], (0, 1, 2)), 1: Attack([b1], (0, 1, 2)), 2: Pass()},
        think_times={0: 2.0, 1: 1.0, 2: 3.0},
    )
    (combat,) = of_kind(report, Combat)
    assert combat.player == 1
    assert not game.piece(t2).alive
    (rejected,) = of_kind(report, Rejected)
    assert rejected.player == 0


def _conversion_position():
    # Player 1 converts a0 first (p_convert=1): x1 + y1 attack a0 with 4 > a0's defence 2
    # (t1 next to a0 is player 1's, so it does not count for a0). Then player 0 attacks t1.
    #   x: 0  1  2  3  4
    #   x1 y1 .  .  .        y=0
    #   .  a0 .  .  .        y=1
    #   .  .  t1 .  .        y=2
    #   .  .  .  b0 .        y=3
    #   A0 .  .  .  B1       y=4
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 4, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (0, ARMY, NONE, (0, 3, 3)),
            (1, ARMY, CHIEF, (0, 4, 4)),
            (1, HOVER, NONE, (0, 2, 2)),
            (1, ARMY, NONE, (0, 0, 0)),
            (1, ARMY, NONE, (0, 0, 1)),
        ],
        p_destroy=0,
        p_teleport=0,
        p_convert=1,
    )


def test_r4_attacker_converted_earlier_is_dropped():
    # R4: a0 now belongs to player 1, so it is dropped; b0 attacks alone. R8 at resolution:
    # attack = b0 (2); defence = t1 (1) + a0 (2, now player 1's and next to t1) = 3: fails.
    game, (_, a0, b0, _, t1, x1, y1) = _conversion_position()
    report = game.play_turn(
        {0: Attack([a0, b0], (0, 2, 2)), 1: Attack([x1, y1], (0, 1, 1))},
        think_times={0: 2.0, 1: 1.0},
    )
    first, second = of_kind(report, Combat)
    assert first.player == 1 and first.target == a0
    assert game.piece(a0).owner == 1
    assert second.player == 0
    assert second.pieces == (b0,)
    assert [pid for pid, _ in second.dropped] == [a0]
    assert second.attack == 2
    assert second.defence == 3
    assert not of_kind(report, Rejected)
    assert game.piece(t1).alive and game.piece(t1).owner == 1


def test_r4_only_attacker_converted_rejects_attack():
    # R4: the only listed attacker was converted earlier in the turn: nothing can attack, so
    # the attack is rejected (one combat only: player 1's).
    game, (_, a0, _, _, t1, x1, y1) = _conversion_position()
    report = game.play_turn(
        {0: Attack([a0], (0, 2, 2)), 1: Attack([x1, y1], (0, 1, 1))},
        think_times={0: 2.0, 1: 1.0},
    )
    (combat,) = of_kind(report, Combat)
    assert combat.player == 1
    (rejected,) = of_kind(report, Rejected)
    assert rejected.player == 0 and rejected.order == Attack((a0,), (0, 2, 2))
    assert rejected.reason
    assert game.piece(t1).alive and game.piece(t1).owner == 1


def test_r4_move_of_piece_converted_earlier_is_rejected():
    # R4: "Move is valid when the piece is still the player's": a0 was converted at t=1.
    game, (_, a0, _, _, _, x1, y1) = _conversion_position()
    report = game.play_turn(
        {0: Move(a0, (0, 1, 2)), 1: Attack([x1, y1], (0, 1, 1))},
        think_times={0: 2.0, 1: 1.0},
    )
    (rejected,) = of_kind(report, Rejected)
    assert rejected.player == 0
    assert game.piece(a0).cell == (0, 1, 1) and game.piece(a0).owner == 1


# -- R4: invalid moves are rejected events, not exceptions ----------------------------------------


def _move_position():
    #   x: 0  1  2  3  4
    #   A0 .  .  .  .        y=0
    #   .  a0 o0 e1 .        y=1   o0: player 0's hovercraft; e1: player 1's visible army
    #   .  f0 .  .  .        y=2   f0: player 0's fortress
    #   .  .  .  .  .        y=3
    #   .  .  .  .  B1       y=4
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (0, HOVER, NONE, (0, 1, 2)),
            (0, FORT, NONE, (0, 2, 1)),
            (1, ARMY, CHIEF, (0, 4, 4)),
            (1, ARMY, NONE, (0, 1, 3)),
        ],
        timers=True,
    )


@pytest.mark.parametrize(
    "case",
    ["onto own piece", "onto own fortress", "onto visible enemy", "out of reach", "fortress"],
)
def test_r4_invalid_move_is_rejected_event(case):
    # R4: an own piece or a visible enemy piece makes a cell not free; an army reaches radius 1
    # only (R2, R5); a fortress never moves (R2). Each is a Rejected event with a reason.
    game, (chief0, a0, o0, f0, _, e1) = _move_position()
    order = {
        "onto own piece": Move(a0, (0, 1, 2)),
        "onto own fortress": Move(a0, (0, 2, 1)),
        "onto visible enemy": Move(o0, (0, 1, 3)),
        "out of reach": Move(a0, (0, 3, 1)),  # distance 2 > army field 1
        "fortress": Move(f0, (0, 3, 1)),
    }[case]
    before = [game.piece(i) for i in (chief0, a0, o0, f0, e1)]
    assert game.is_legal(0, order) is False
    report = game.play_turn({0: order, 1: Pass()}, think_times={0: 1.0, 1: 2.0})
    (rejected,) = of_kind(report, Rejected)
    assert rejected.player == 0 and rejected.order == order
    assert isinstance(rejected.reason, str) and rejected.reason
    assert not of_kind(report, Moved)
    assert [game.piece(i) for i in (chief0, a0, o0, f0, e1)] == before
    assert game.turn == 1  # the turn was played all the same


def test_r4_hovercraft_reaches_radius_two_army_does_not():
    # R2, R4: the same distance-2 move is valid for the hovercraft and rejected for the army.
    #   A0 .  .  .  .
    #   .  a0 o0 e1 .
    #   .  f0 .  .  .
    #   .  *  .  *  .        a0 -> (0, 3, 1) rejected; o0 -> (0, 3, 3) accepted
    game, (_, a0, o0, _, _, _) = _move_position()
    report = game.play_turn({0: Move(o0, (0, 3, 3)), 1: Pass()})
    assert not of_kind(report, Rejected)
    assert game.piece(o0).cell == (0, 3, 3)
    game2, (_, a0, _, _, _, _) = _move_position()
    report2 = game2.play_turn({0: Move(a0, (0, 3, 1)), 1: Pass()})
    assert of_kind(report2, Rejected)


# -- R4: bad input raises before anything changes -------------------------------------------------


def _input_position(**options):
    # Timers on, so that an early change of the clocks would show.
    #   x: 0  1  2  3  4
    #   A0 .  .  .  .        y=0
    #   .  .  .  .  .        y=1
    #   .  a0 h1 h0 .        y=2
    #   .  .  .  .  .        y=3
    #   .  .  .  .  B1       y=4
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 2, 1)),
            (0, HOVER, NONE, (0, 2, 3)),
            (1, ARMY, CHIEF, (0, 4, 4)),
            (1, HOVER, NONE, (0, 2, 2)),
        ],
        timers=True,
        seed=11,
        **options,
    )


def _bad_turns(ids):
    chief0, a0, h0, chief1, h1 = ids
    good0 = Move(chief0, (0, 1, 0))  # a valid order that must not be applied
    nan, inf = math.nan, math.inf
    return {
        "unknown piece id": (UnknownPieceError, {0: good0, 1: Move(99, (0, 3, 2))}, None),
        "negative piece id": (UnknownPieceError, {0: good0, 1: Move(-1, (0, 3, 2))}, None),
        "unknown attacker id": (
            UnknownPieceError,
            {0: good0, 1: Attack([h1, 42], (0, 2, 1))},
            None,
        ),
        "move another player's piece": (
            NotYourPieceError,
            {0: good0, 1: Move(a0, (0, 3, 1))},
            None,
        ),
        "attack with another player's piece": (
            NotYourPieceError,
            {0: good0, 1: Attack([h1, h0], (0, 2, 1))},
            None,
        ),
        "move off board y": (OffBoardError, {0: good0, 1: Move(h1, (0, 5, 2))}, None),
        "move off board z": (OffBoardError, {0: good0, 1: Move(h1, (1, 2, 2))}, None),
        "move off board negative": (OffBoardError, {0: good0, 1: Move(h1, (0, -1, 2))}, None),
        "move to a non-cell": (OffBoardError, {0: good0, 1: Move(h1, (0, 2))}, None),
        "attack off board": (OffBoardError, {0: good0, 1: Attack([h1], (0, 2, 5))}, None),
        "missing living player": (MissingOrderError, {0: good0}, None),
        "missing think time": (MissingOrderError, {0: good0, 1: Pass()}, {0: 1.0}),
        "negative think time": (TurnError, {0: good0, 1: Pass()}, {0: 1.0, 1: -1.0}),
        "nan think time": (TurnError, {0: good0, 1: Pass()}, {0: 1.0, 1: nan}),
        "infinite think time": (TurnError, {0: good0, 1: Pass()}, {0: 1.0, 1: inf}),
        "string think time": (TurnError, {0: good0, 1: Pass()}, {0: 1.0, 1: "1"}),
        "bool think time": (TurnError, {0: good0, 1: Pass()}, {0: 1.0, 1: True}),
        "think times not a mapping": (TurnError, {0: good0, 1: Pass()}, [1.0, 2.0]),
        "orders not a mapping": (TurnError, [good0, Pass()], None),
        "empty attack": (OrderError, {0: good0, 1: Attack([], (0, 2, 1))}, None),
        "duplicated attacker": (OrderError, {0: good0, 1: Attack([h1, h1], (0, 2, 1))}, None),
        "string order": (OrderError, {0: good0, 1: "pass"}, None),
        "None order": (OrderError, {0: good0, 1: None}, None),
        "order class, not instance": (OrderError, {0: good0, 1: Pass}, None),
        "non-integer piece id": (OrderError, {0: good0, 1: Move("h1", (0, 3, 2))}, None),
    }


BAD_CASES = list(_bad_turns(range(5)))


@pytest.mark.parametrize("case", BAD_CASES)
def test_r4_bad_input_raises_before_any_change(case):
    # R4: bad input is an error (a ValueError subclass), raised before anything changes: the
    # board, the timers, the turn counter and the random stream are all untouched.
    game, ids = _input_position()
    twin, twin_ids = _input_position()
    assert ids == twin_ids
    error, orders, times = _bad_turns(ids)[case]
    assert issubclass(error, ValueError)
    before = snapshot(game, ids)
    with pytest.raises(error):
        game.play_turn(orders, think_times=times)
    assert snapshot(game, ids) == before
    assert game.turn == 0 and game.phase is Phase.PLAY
    # The random stream was not consumed either: the same valid turn (tied times, a
    # successful attack a0 -> h1, 2 > 1) gives the same events as on an untouched twin.
    _, a0, _, _, h1 = ids
    turn = {0: Attack([a0], (0, 2, 2)), 1: Pass()}
    expected = twin.play_turn(turn, think_times={0: 1.0, 1: 1.0})
    got = game.play_turn(turn, think_times={0: 1.0, 1: 1.0})
    assert of_kind(expected, Fate)  # the check below compares a real draw
    assert got.events == expected.events
    assert got.reception == expected.reception


def test_r4_destroyed_piece_id_raises_unknown_piece():
    # R4: after h1 is destroyed (p_destroy=1, a0 2 > h1 1), naming it is an UnknownPieceError.
    game, ids = _input_position(p_destroy=1, p_teleport=0, p_convert=0)
    chief0, a0, _, _, h1 = ids
    game.play_turn({0: Attack([a0], (0, 2, 2)), 1: Pass()}, think_times={0: 1.0, 1: 2.0})
    assert not game.piece(h1).alive
    before = snapshot(game, ids)
    with pytest.raises(UnknownPieceError):
        game.play_turn({0: Move(chief0, (0, 1, 0)), 1: Move(h1, (0, 3, 3))})
    assert snapshot(game, ids) == before


def _three_player_game_with_player_2_out():
    # Player 0 takes player 2's chief C2 (a hovercraft, defence 1) with a0 (2 > 1, destroy).
    #   A0 .  .  .  B1
    #   .  a0 C2 .  .
    game, ids = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (2, HOVER, CHIEF, (0, 1, 2)),
        ],
        players=3,
        timers=True,
        p_destroy=1,
        p_teleport=0,
        p_convert=0,
    )
    report = game.play_turn(
        {0: Attack([ids[1]], (0, 1, 2)), 1: Pass(), 2: Pass()},
        think_times={0: 1.0, 1: 2.0, 2: 3.0},
    )
    assert [e.player for e in of_kind(report, Eliminated)] == [2]
    assert game.living == (0, 1)
    return game, ids


@pytest.mark.parametrize("where", ["orders", "think_times"])
def test_r4_turn_naming_dead_player_raises(where):
    # R4: only living players submit orders; naming eliminated player 2 is a DeadPlayerError.
    game, ids = _three_player_game_with_player_2_out()
    chief0 = ids[0]
    if where == "orders":
        orders = {0: Move(chief0, (0, 1, 0)), 1: Pass(), 2: Pass()}
        times = {0: 1.0, 1: 2.0}
    else:
        orders = {0: Move(chief0, (0, 1, 0)), 1: Pass()}
        times = {0: 1.0, 1: 2.0, 2: 3.0}
    before = snapshot(game, ids)
    with pytest.raises(DeadPlayerError):
        game.play_turn(orders, think_times=times)
    assert snapshot(game, ids) == before


def test_r4_turn_naming_no_such_seat_raises_dead_player():
    # R4 and errors.DeadPlayerError ("a turn that names a player already eliminated (or no
    # player at all)"): seat 5 of a 2-player game is not a living player.
    game, ids = _input_position()
    before = snapshot(game, ids)
    with pytest.raises(AntipolixError):
        game.play_turn({0: Pass(), 1: Pass(), 5: Pass()})
    assert snapshot(game, ids) == before
    with pytest.raises(DeadPlayerError):
        game.play_turn({0: Pass(), 1: Pass(), 5: Pass()})


def test_r4_play_turn_before_start_raises_phase_error():
    # R3, R4: turns begin once placement is over.
    game = Game(Rules(shape=(1, 5, 5), players=2, zones=False, budget=1000), seed=0)
    a = game.place(0, ARMY, CHIEF, (0, 0, 0))
    game.place(1, ARMY, CHIEF, (0, 4, 4))
    with pytest.raises(PhaseError):
        game.play_turn({0: Move(a, (0, 1, 1)), 1: Pass()})
    assert game.phase is Phase.PLACEMENT and game.turn == 0
    assert game.piece(a).cell == (0, 0, 0)


def test_r4_play_turn_after_game_over_raises_phase_error():
    # R10, R4: once the last other player is out the game is over; no further turn.
    #   A0 a0 B1
    game, (chief0, a0, chief1) = make_game(
        [(0, ARMY, CHIEF, (0, 0, 0)), (0, ARMY, NONE, (0, 0, 1)), (1, HOVER, CHIEF, (0, 0, 2))],
        p_destroy=1,
        p_teleport=0,
        p_convert=0,
    )
    report = game.play_turn({0: Attack([a0], (0, 0, 2)), 1: Pass()}, think_times={0: 1, 1: 2})
    assert report.result is not None and game.phase is Phase.OVER
    before = snapshot(game, [chief0, a0, chief1])
    with pytest.raises(PhaseError):
        game.play_turn({0: Move(a0, (0, 1, 1))})
    assert snapshot(game, [chief0, a0, chief1]) == before


# -- R4: is_legal agrees with play_turn -----------------------------------------------------------


def _legality_position():
    #   x: 0  1  2  3  4
    #   A0 .  .  .  .        y=0
    #   .  a0 o0 e1 .        y=1   e1: player 1's visible army
    #   .  f0 .  i1 .        y=2   i1: player 1's invisible hovercraft
    #   .  .  .  .  .        y=3
    #   .  .  .  .  B1       y=4
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (0, HOVER, NONE, (0, 1, 2)),
            (0, FORT, NONE, (0, 2, 1)),
            (1, ARMY, CHIEF, (0, 4, 4)),
            (1, ARMY, NONE, (0, 1, 3)),
            (1, HOVER, INVIS, (0, 2, 3)),
        ],
        seed=3,
    )


def _legality_orders(ids):
    chief0, a0, o0, f0, chief1, e1, i1 = ids
    return {
        # legal
        "pass": (Pass(), True),
        "move to free cell": (Move(a0, (0, 2, 2)), True),
        "hovercraft radius 2": (Move(o0, (0, 3, 4)), True),
        "move onto enemy invisible": (Move(o0, (0, 2, 3)), True),
        "attack visible enemy": (Attack([o0], (0, 1, 3)), True),
        "attack with fortress and army": (Attack([f0, o0], (0, 1, 3)), True),
        "attack with one out of reach": (Attack([a0, o0], (0, 1, 3)), True),
        # not legal
        "move onto own": (Move(a0, (0, 1, 2)), False),
        "move onto visible enemy": (Move(o0, (0, 1, 3)), False),
        "move out of reach": (Move(a0, (0, 3, 3)), False),
        "move fortress": (Move(f0, (0, 3, 1)), False),
        "attack empty cell": (Attack([o0], (0, 3, 3)), False),
        "attack invisible": (Attack([o0], (0, 2, 3)), False),
        "attack own piece": (Attack([o0], (0, 1, 1)), False),
        "attack only out of reach": (Attack([chief0], (0, 1, 3)), False),
        "attack only fortress": (Attack([f0], (0, 1, 3)), False),
    }


@pytest.mark.parametrize("case", list(_legality_orders(range(7))))
def test_r4_is_legal_agrees_with_play_turn(case):
    # R4: is_legal answers "would this order be accepted now"; played first in the turn, a legal
    # order is carried out (no Rejected event) and an illegal one is rejected.
    game, ids = _legality_position()
    order, expected = _legality_orders(ids)[case]
    assert game.is_legal(0, order) is expected
    report = game.play_turn({0: order, 1: Pass()}, think_times={0: 1.0, 1: 2.0})
    rejected = of_kind(report, Rejected, player=0)
    assert bool(rejected) is (not expected)
    if expected and isinstance(order, Move):
        assert game.piece(order.piece).cell == order.cell
    if expected and isinstance(order, Attack):
        assert len(of_kind(report, Combat, player=0)) == 1


def test_r4_is_legal_false_for_bad_input_that_play_turn_refuses():
    # R4: an order that play_turn refuses with an error is not legal either.
    game, ids = _legality_position()
    chief0, a0, o0, f0, chief1, e1, i1 = ids
    bad = [
        (Move(99, (0, 2, 2)), UnknownPieceError),
        (Move(e1, (0, 2, 2)), NotYourPieceError),
        (Move(a0, (0, 9, 9)), OffBoardError),
        (Attack([], (0, 1, 3)), OrderError),
        (Attack([a0, a0], (0, 1, 3)), OrderError),
        ("attack", OrderError),
    ]
    for order, error in bad:
        assert game.is_legal(0, order) is False
        with pytest.raises(error):
            game.play_turn({0: order, 1: Pass()})
    assert game.turn == 0


def test_r4_is_legal_false_for_a_player_not_living():
    # R4: an eliminated player submits nothing, so nothing it could order is legal.
    game, ids = _three_player_game_with_player_2_out()
    chief0 = ids[0]
    assert game.is_legal(0, Move(chief0, (0, 1, 0))) is True
    assert game.is_legal(2, Pass()) is False


def test_r4_checked_order_is_the_one_play_turn_takes_and_checked_again_next_turn():
    # R4: check_submission returns the order as play_turn takes it (plain ints and tuples), and
    # is_legal and play_turn agree on it; once a turn is played, the same order object is
    # checked again on the new board (here its piece no longer exists: UnknownPieceError).
    game, ids = _input_position(p_destroy=1, p_teleport=0, p_convert=0)
    chief0, a0, _, _, h1 = ids
    assert game.is_legal(1, None) is False  # (nothing checked for player 1: None is no order)
    with pytest.raises(OrderError):
        game.play_turn({0: Pass(), 1: None})
    given = Attack([a0], [0, 2, 2])
    order = game.check_submission(0, given, 1.0)
    assert order == Attack((a0,), (0, 2, 2)) and type(order.pieces) is tuple
    assert game.is_legal(0, order) is True
    doomed = game.check_submission(1, Move(h1, (0, 3, 3)))
    game.play_turn({0: order, 1: Pass()}, think_times={0: 1.0, 1: 2.0})
    assert not game.piece(h1).alive
    assert game.is_legal(1, doomed) is False
    with pytest.raises(UnknownPieceError):
        game.play_turn({0: Move(chief0, (0, 1, 0)), 1: doomed})
    with pytest.raises(UnknownPieceError):
        game.check_submission(1, doomed)
