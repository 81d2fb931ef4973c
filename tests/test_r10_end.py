"""R10 End of game: the winner, the draws, the turn limit and the end of play."""

import pytest

from antipolix import (
    Attack,
    Command,
    EndReason,
    Game,
    Move,
    Pass,
    PieceType,
    Rules,
    Trait,
)
from antipolix.errors import PhaseError
from antipolix.events import Discarded, Eliminated, GameOver, Moved
from antipolix.game import Phase
from tests.positions import of_kind as of_type
from tests.positions import passes, seq

# R8 with p_destroy = 1: a successful attack always destroys its target, so every hand-traced
# capture below is certain.
SURE = {"p_destroy": 1.0, "p_teleport": 0.0, "p_convert": 0.0}


def two_chiefs(**options):
    """P0's chief a on (0,0,0), P1's chief b on (0,3,3) of a 1×6×6 board: no contact."""
    rules = Rules(shape=(1, 6, 6), players=2, zones=False, budget=100, **options)
    game = Game(rules, seed=5)
    a = game.place(0, PieceType.ARMY, Trait.CHIEF, (0, 0, 0))
    b = game.place(1, PieceType.ARMY, Trait.CHIEF, (0, 3, 3))
    game.start()
    return game, a, b


def three_way(**options):
    """A 3-player position where P0 can take both other chiefs, one per turn.

    1×8×8 board:
      y\\x 0 1 2 3 4 5 6 7
      0    c . . . . . . .     c  = P0's chief army (0,0,0)
      3    . . . h A . . .     h  = P1's chief hovercraft (0,3,3), A = P0's army (0,3,4)
      6    . . . . . B g .     g  = P2's chief hovercraft (0,6,6), B = P0's army (0,6,5)

    Attack B -> g: attack 2 (army) > defence 1 (hovercraft, no piece of P2 around): success.
    Attack A -> h: likewise 2 > 1.
    """
    rules = Rules(shape=(1, 8, 8), players=3, zones=False, budget=100, **SURE, **options)
    game = Game(rules, seed=11)
    ids = {
        "c": game.place(0, PieceType.ARMY, Trait.CHIEF, (0, 0, 0)),
        "A": game.place(0, PieceType.ARMY, Trait.NONE, (0, 3, 4)),
        "B": game.place(0, PieceType.ARMY, Trait.NONE, (0, 6, 5)),
        "h": game.place(1, PieceType.HOVERCRAFT, Trait.CHIEF, (0, 3, 3)),
        "g": game.place(2, PieceType.HOVERCRAFT, Trait.CHIEF, (0, 6, 6)),
    }
    game.start()
    return game, ids


def test_r10_last_living_player_wins():
    # R10: turn 1 P0 takes P2's chief (P2 out first), turn 2 P1's chief (P1 out second):
    # P0 is the last living player; elimination order is first-eliminated-first: (2, 1),
    # not seat order.
    game, ids = three_way()
    report = game.play_turn({0: Attack([ids["B"]], (0, 6, 6)), 1: Pass(), 2: Pass()}, seq(game))
    assert report.result is None and game.result is None
    assert game.living == (0, 1)
    assert [(e.player, e.reason) for e in of_type(report.events, Eliminated)] == [(2, "chief")]

    report = game.play_turn({0: Attack([ids["A"]], (0, 3, 3)), 1: Pass()}, seq(game))
    result = game.result
    assert result is not None and report.result == result
    assert result.winner == 0
    assert result.reason is EndReason.LAST_PLAYER
    assert not result.draw
    assert result.turns == 2
    assert result.elimination_order == (2, 1)
    assert game.living == (0,)
    assert game.phase is Phase.OVER


def test_r10_turn_limit_is_a_draw():
    # R10: Rules(max_turns=3): after the third turn the game is a draw, reason TURN_LIMIT.
    game, _, _ = two_chiefs(max_turns=3)
    for turn in (1, 2):
        report = game.play_turn(passes(game), seq(game))
        assert report.result is None and game.result is None, turn
        assert game.phase is Phase.PLAY
    report = game.play_turn(passes(game), seq(game))
    result = game.result
    assert result is not None and report.result == result
    assert result.reason is EndReason.TURN_LIMIT
    assert result.winner is None and result.draw
    assert result.turns == 3
    assert result.elimination_order == ()
    assert game.phase is Phase.OVER


def test_r10_nul_is_a_draw():
    # R10, R9: both players propose NUL in turn 1: draw "nul" after 1 turn.
    game, _, _ = two_chiefs()
    game.play_turn(passes(game), seq(game), messages={0: [Command.NUL], 1: [Command.NUL]})
    result = game.result
    assert result is not None
    assert result.reason is EndReason.NUL
    assert result.winner is None and result.draw
    assert result.turns == 1
    assert result.elimination_order == ()


def test_r10_quit_leaves_the_last_player_winner():
    # R10, R9: in a 2-player game P1 quits: P0 is the last living player.
    game, _, _ = two_chiefs()
    game.play_turn(passes(game), seq(game), messages={1: [Command.QUIT]})
    result = game.result
    assert result is not None
    assert (result.winner, result.reason, result.turns) == (0, EndReason.LAST_PLAYER, 1)
    assert result.elimination_order == (1,)


@pytest.mark.parametrize("ending", ["turn limit", "nul", "quit"])
def test_r10_play_turn_after_the_end_raises(ending):
    # R10: once the game is over, no more turns: PhaseError, and nothing changes.
    game, a, _ = two_chiefs(max_turns=1)
    messages = {
        "turn limit": {},
        "nul": {0: [Command.NUL], 1: [Command.NUL]},
        "quit": {1: [Command.QUIT]},
    }[ending]
    game.play_turn(passes(game), seq(game), messages=messages)
    assert game.phase is Phase.OVER
    result = game.result
    with pytest.raises(PhaseError):
        game.play_turn({0: Move(a, (0, 1, 1))}, {0: 0.0})
    with pytest.raises(PhaseError):
        game.play_turn(passes(game))
    assert game.turn == 1
    assert game.result == result
    assert game.piece(a).cell == (0, 0, 0)


def _end_by_turn_limit():
    game, _, _ = two_chiefs(max_turns=1)
    return game, game.play_turn(passes(game), seq(game))


def _end_by_nul_with_pending_order():
    # P1's NUL at t=0 completes the draw (P0's is standing); P0's order at t=1 is pending.
    game, a, _ = two_chiefs()
    game.play_turn(passes(game), seq(game), messages={0: [Command.NUL]})
    report = game.play_turn(
        {0: Move(a, (0, 1, 1)), 1: Pass()},
        think_times={0: 1.0, 1: 0.0},
        messages={1: [Command.NUL]},
    )
    return game, report


def _end_by_capture_last_received_no_timers():
    # P0's capture is the last order of the turn, and timers are off.
    game, ids = three_way(timers=False)
    game.play_turn({0: Attack([ids["B"]], (0, 6, 6)), 1: Pass(), 2: Pass()}, seq(game))
    report = game.play_turn(
        {0: Attack([ids["A"]], (0, 3, 3)), 1: Pass()}, think_times={0: 1.0, 1: 0.0}
    )
    return game, report


def _end_by_capture_with_timers():
    game, ids = three_way()
    game.play_turn({0: Attack([ids["B"]], (0, 6, 6)), 1: Pass(), 2: Pass()}, seq(game))
    report = game.play_turn(
        {0: Attack([ids["A"]], (0, 3, 3)), 1: Pass()}, think_times={0: 1.0, 1: 0.0}
    )
    return game, report


def _end_by_quit_with_pending_order():
    game, a, _ = two_chiefs(timers=False)
    report = game.play_turn(
        {0: Move(a, (0, 1, 1)), 1: Pass()},
        think_times={0: 1.0, 1: 0.0},
        messages={1: [Command.QUIT]},
    )
    return game, report


ENDINGS = {
    "turn limit": _end_by_turn_limit,
    "nul, pending order": _end_by_nul_with_pending_order,
    "capture, last order, timers off": _end_by_capture_last_received_no_timers,
    "capture, timers on": _end_by_capture_with_timers,
    "quit, pending order": _end_by_quit_with_pending_order,
}


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_r10_game_over_ends_the_report(ending):
    # R10: the report of the last turn carries exactly one GameOver event, with the result,
    # and it is the report's last event.
    game, report = ENDINGS[ending]()
    assert game.result is not None
    overs = of_type(report.events, GameOver)
    assert overs == [GameOver(game.result)]
    assert report.events[-1] == GameOver(game.result)


def test_r10_orders_pending_at_the_end_are_discarded_nul():
    # R10, R9: P0's NUL stands from turn 1; in turn 2 P1's NUL at t=0 ends the game.
    # P0's move, due at t=1, is discarded: its chief stays on (0,0,0). P1's own order comes
    # after its messages (R9), so it is discarded as well.
    game, report = _end_by_nul_with_pending_order()
    assert game.result is not None and game.result.reason is EndReason.NUL
    (a,) = [pc.id for pc in game.pieces(0)]
    discarded = {d.player: d.order for d in of_type(report.events, Discarded)}
    assert discarded == {0: Move(a, (0, 1, 1)), 1: Pass()}
    assert of_type(report.events, Moved) == []
    assert game.piece(a).cell == (0, 0, 0)


def test_r10_orders_pending_at_the_end_are_discarded_quit():
    # R10, R9: P1 quits at t=0 (P0 wins at that instant); P0's move due at t=1 is discarded
    # and so is P1's own order.
    game, report = _end_by_quit_with_pending_order()
    assert game.result is not None and game.result.winner == 0
    a = game.pieces(0)[0].id
    discarded = {d.player: d.order for d in of_type(report.events, Discarded)}
    assert discarded == {0: Move(a, (0, 1, 1)), 1: Pass()}
    assert of_type(report.events, Moved) == []
    assert game.piece(a).cell == (0, 0, 0)
