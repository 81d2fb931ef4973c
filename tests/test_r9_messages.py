"""R9 Messages and the QUIT / NUL / WAR commands: hand-traced scenarios on small boards."""

import pytest

from antipolix import (
    Command,
    Delivered,
    EndReason,
    Game,
    Message,
    Move,
    Pass,
    PieceType,
    Rules,
    Trait,
)
from antipolix.errors import MessageError
from antipolix.events import Commanded, Discarded, Eliminated, Moved, Sent, Undelivered
from antipolix.game import Phase
from tests.positions import of_kind as of_type
from tests.positions import passes, seq

# The usual board, 1×8×8, three chief armies (a, b, c) far enough apart not to touch:
#
#   y\x  0 1 2 3 4 5 6 7
#   0    a . b . . . . .      a = P0's chief (0,0,0); b = P1's chief (0,0,2) by default
#   ...
#   7    . . . . . . . c      c = P2's chief (0,7,7)


def three(b_cell=(0, 0, 2), extra=None, **options):
    """Three players; ``extra`` = {player: [(type, trait, cell), ...]} placed after the chief."""
    rules = Rules(shape=(1, 8, 8), players=3, zones=False, budget=100, **options)
    game = Game(rules, seed=3)
    extra = extra or {}
    ids = {}
    for player, cell in enumerate([(0, 0, 0), b_cell, (0, 7, 7)]):
        ids[player] = [game.place(player, PieceType.ARMY, Trait.CHIEF, cell)]
        for kind, trait, at in extra.get(player, []):
            ids[player].append(game.place(player, kind, trait, at))
    game.start()
    return game, ids


# -- broadcast -----------------------------------------------------------------------------------


def test_r9_broadcast_reaches_every_other_living_player():
    # R9: a text to everyone needs no contact; it appears in every other player's next
    # observation, not in the sender's.
    game, _ = three()
    report = game.play_turn(passes(game), seq(game), messages={0: [Message("hi")]})
    assert Sent(0, None, "hi") in report.events
    for p in (1, 2):
        assert game.observe(p).messages == (Delivered(1, 0, "hi", None),)
        assert Sent(0, None, "hi") in game.observe(p).events
    assert game.observe(0).messages == ()


def test_r9_broadcast_skips_eliminated_players():
    # R9: after P2 quits, a broadcast of P0 reaches P1 only.
    game, _ = three()
    game.play_turn(passes(game), seq(game), messages={2: [Command.QUIT]})
    assert game.living == (0, 1)
    game.play_turn(passes(game), seq(game), messages={0: [Message("still here?")]})
    assert game.observe(1).messages == (Delivered(2, 0, "still here?", None),)
    assert game.observe(2).messages == ()
    assert game.observe(0).messages == ()


# -- private messages and contact ----------------------------------------------------------------


def test_r9_private_message_with_contact_delivered():
    # R9: P1's chief on (0,1,1) touches P0's chief on (0,0,0) (radius 1, diagonal).
    # A private text goes to P1 only; P2 neither gets it nor hears of it.
    game, _ = three(b_cell=(0, 1, 1))
    report = game.play_turn(passes(game), seq(game), messages={0: [Message("psst", to=1)]})
    assert Sent(0, 1, "psst") in report.events
    assert game.observe(1).messages == (Delivered(1, 0, "psst", 1),)
    assert game.observe(0).messages == ()
    assert game.observe(2).messages == ()
    assert of_type(game.observe(2).events, Sent) == []
    assert Sent(0, 1, "psst") in game.observe(0).events


def test_r9_private_contact_through_any_piece():
    # R9: contact is any piece of the sender within radius 1 of any piece of the recipient:
    # P0's hovercraft on (0,6,6) touches P2's chief on (0,7,7).
    game, _ = three(extra={0: [(PieceType.HOVERCRAFT, Trait.NONE, (0, 6, 6))]})
    game.play_turn(passes(game), seq(game), messages={0: [Message("near", to=2)]})
    assert game.observe(2).messages == (Delivered(1, 0, "near", 2),)


def test_r9_private_message_without_contact_undelivered():
    # R9: P0 (0,0,0) and P1 (0,0,2) are 2 cells apart: no contact. The message is rejected with
    # a reason, and only the sender is told.
    game, _ = three()
    report = game.play_turn(passes(game), seq(game), messages={0: [Message("psst", to=1)]})
    (undelivered,) = of_type(report.events, Undelivered)
    assert (undelivered.sender, undelivered.to) == (0, 1)
    assert undelivered.reason
    assert of_type(report.events, Sent) == []
    assert undelivered in game.observe(0).events
    assert undelivered not in game.observe(1).events
    assert undelivered not in game.observe(2).events
    assert game.observe(1).messages == ()


def test_r9_contact_made_earlier_in_the_turn_does_not_count():
    # R9: contact is checked against the state at the START of the turn.
    #   y\x 0 1 2          P1 (t=0) moves its chief b from (0,0,2) to (0,0,1), touching a;
    #   0   a . b          P0 (t=1) then sends to P1: no contact at the start -> undelivered.
    # Next turn the contact exists at the start: the same message is delivered.
    game, ids = three()
    b = ids[1][0]
    report = game.play_turn(
        {0: Pass(), 1: Move(b, (0, 0, 1)), 2: Pass()},
        think_times={0: 1.0, 1: 0.0, 2: 2.0},
        messages={0: [Message("psst", to=1)]},
    )
    assert of_type(report.events, Moved) == [Moved(1, b, (0, 0, 2), (0, 0, 1))]
    (undelivered,) = of_type(report.events, Undelivered)
    assert (undelivered.sender, undelivered.to) == (0, 1)
    assert game.observe(1).messages == ()

    game.play_turn(passes(game), seq(game), messages={0: [Message("psst", to=1)]})
    assert game.observe(1).messages == (Delivered(2, 0, "psst", 1),)


def test_r9_contact_lost_earlier_in_the_turn_still_counts():
    # R9: a b touch at the start of the turn; P1 (t=0) moves b away to (0,0,2);
    #   y\x 0 1 2
    #   0   a b .
    # P0 (t=1) then sends to P1: contact at the start of the turn -> delivered.
    game, ids = three(b_cell=(0, 0, 1))
    b = ids[1][0]
    report = game.play_turn(
        {0: Pass(), 1: Move(b, (0, 0, 2)), 2: Pass()},
        think_times={0: 1.0, 1: 0.0, 2: 2.0},
        messages={0: [Message("bye", to=1)]},
    )
    assert game.piece(b).cell == (0, 0, 2)
    assert of_type(report.events, Undelivered) == []
    assert game.observe(1).messages == (Delivered(1, 0, "bye", 1),)


def test_r9_private_message_to_eliminated_player_undelivered():
    # R9: P2 quit in turn 1; a private text to it in turn 2 is undelivered, told to the sender.
    game, _ = three()
    game.play_turn(passes(game), seq(game), messages={2: [Command.QUIT]})
    report = game.play_turn(passes(game), seq(game), messages={0: [Message("hello?", to=2)]})
    (undelivered,) = of_type(report.events, Undelivered)
    assert (undelivered.sender, undelivered.to) == (0, 2)
    assert undelivered.reason
    assert undelivered in game.observe(0).events
    assert undelivered not in game.observe(1).events


# -- malformed messages --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "item",
    [
        Message("x", to=3),  # no player 3 in a 3-player game
        Message("x", to=-1),
        Message("x", to=0),  # to oneself (the sender is P0)
        Message("x", to="1"),  # not a seat
        Message(5),  # text is not a str
        Message(b"bytes"),
        "hello",  # not a Message object
        object(),
    ],
    ids=["to-3", "to-minus-1", "to-self", "to-str", "int-text", "bytes-text", "str", "object"],
)
def test_r9_malformed_message_raises_before_any_state_change(item):
    # R9 (and R4: everything is checked before anything changes): a malformed message raises
    # MessageError; the valid move and broadcast of the same call never happen.
    game, ids = three()
    b = ids[1][0]
    cells = {pc.id: pc.cell for pc in game.pieces()}
    timers = game.timers
    with pytest.raises(MessageError):
        game.play_turn(
            {0: Pass(), 1: Move(b, (0, 1, 2)), 2: Pass()},
            think_times={0: 5.0, 1: 0.0, 2: 1.0},
            messages={2: [Message("first")], 0: [item]},
        )
    assert game.turn == 0
    assert {pc.id: pc.cell for pc in game.pieces()} == cells
    assert game.timers == timers
    assert game.observe(1).messages == ()
    assert game.observe(0).messages == ()
    # the game goes on normally
    game.play_turn(passes(game), seq(game))
    assert game.turn == 1


# -- commands ------------------------------------------------------------------------------------


def test_r9_quit_eliminates_the_sender():
    # R9: QUIT eliminates the sender: its pieces are removed (not given to anyone), its order
    # is discarded. P1 has its chief b on (0,0,2) and a hovercraft h on (0,4,4); it orders a move
    # of h and quits at t = 1.
    game, ids = three(extra={1: [(PieceType.HOVERCRAFT, Trait.NONE, (0, 4, 4))]})
    b, h = ids[1]
    move = Move(h, (0, 4, 5))
    report = game.play_turn(
        {0: Pass(), 1: move, 2: Pass()},
        think_times={0: 0.0, 1: 1.0, 2: 2.0},
        messages={1: [Command.QUIT]},
    )
    (out,) = of_type(report.events, Eliminated)
    assert (out.player, out.reason, out.by, out.taken) == (1, "quit", None, ())
    assert out.at == pytest.approx(1.0)
    assert sorted(out.removed) == sorted([b, h])
    assert [(d.player, d.order) for d in of_type(report.events, Discarded)] == [(1, move)]
    assert of_type(report.events, Moved) == []
    assert game.pieces(1) == []
    assert not game.piece(b).alive and not game.piece(h).alive
    for cell in [(0, 0, 2), (0, 4, 4), (0, 4, 5)]:
        assert game.board.at(cell) == -1
    assert [pc.owner for pc in game.pieces()] == [0, 2]
    assert game.living == (0, 2)
    assert 1 not in game.timers
    assert game.elimination_order == (1,)
    assert game.result is None  # two players are left
    assert out in game.observe(0).events and out in game.observe(2).events


def test_r9_nul_from_every_living_player_is_a_draw():
    # R9: all three send NUL in the same turn -> the game ends as a draw ("nul").
    game, _ = three()
    report = game.play_turn(passes(game), seq(game), messages={p: [Command.NUL] for p in range(3)})
    assert game.result is not None
    assert game.result.reason is EndReason.NUL
    assert game.result.winner is None and game.result.draw
    assert game.phase is Phase.OVER
    assert report.result == game.result
    assert game.living == (0, 1, 2)


def test_r9_nul_from_some_players_only_is_not_a_draw():
    # R9: two of three NULs: the game goes on; the standing proposals are visible.
    game, _ = three()
    report = game.play_turn(passes(game), seq(game), messages={0: [Command.NUL], 1: [Command.NUL]})
    assert game.result is None and report.result is None
    assert game.observe(2).nul == (0, 1)
    assert Commanded(0, Command.NUL) in game.observe(2).events


def test_r9_standing_nul_persists_across_turns():
    # R9: P0 and P1 propose NUL in turn 1, P2 in turn 2 (nobody repeats): all three stand.
    game, _ = three()
    game.play_turn(passes(game), seq(game), messages={0: [Command.NUL], 1: [Command.NUL]})
    assert game.result is None
    game.play_turn(passes(game), seq(game))  # a quiet turn: the proposals stand
    assert game.result is None and game.observe(0).nul == (0, 1)
    game.play_turn(passes(game), seq(game), messages={2: [Command.NUL]})
    assert game.result is not None and game.result.reason is EndReason.NUL
    assert game.result.turns == 3


def test_r9_war_withdraws_a_nul():
    # R9: turn 1: P0, P1 NUL. Turn 2: P0 (t=0) sends WAR, then P2 (t=2) NUL -> standing {1, 2},
    # no draw. Turn 3: P0 NUL again -> every living player stands: draw.
    game, _ = three()
    game.play_turn(passes(game), seq(game), messages={0: [Command.NUL], 1: [Command.NUL]})
    game.play_turn(passes(game), seq(game), messages={0: [Command.WAR], 2: [Command.NUL]})
    assert game.result is None
    assert game.observe(1).nul == (1, 2)
    game.play_turn(passes(game), seq(game), messages={0: [Command.NUL]})
    assert game.result is not None and game.result.reason is EndReason.NUL


def test_r9_nul_then_war_in_one_turn():
    # R9: P0 sends NUL then WAR in the same turn: its proposal is withdrawn, so the NULs of
    # P1 and P2 (received after P0's) do not make a draw.
    game, _ = three()
    game.play_turn(
        passes(game),
        seq(game),
        messages={0: [Command.NUL, Command.WAR], 1: [Command.NUL], 2: [Command.NUL]},
    )
    assert game.result is None
    assert game.observe(0).nul == (1, 2)


def test_r9_nul_counts_only_living_players():
    # R9: "every living player": after P2 quits, NULs of P0 and P1 end the game as a draw.
    game, _ = three()
    game.play_turn(passes(game), seq(game), messages={2: [Command.QUIT]})
    assert game.result is None
    game.play_turn(passes(game), seq(game), messages={0: [Command.NUL], 1: [Command.NUL]})
    assert game.result is not None
    assert game.result.reason is EndReason.NUL and game.result.winner is None


def test_r9_messages_cleared_after_the_next_turn():
    # R9: delivered messages appear in the recipient's NEXT observation only.
    game, _ = three(b_cell=(0, 1, 1))
    game.play_turn(passes(game), seq(game), messages={0: [Message("one"), Message("two", to=1)]})
    assert game.observe(1).messages == (
        Delivered(1, 0, "one", None),
        Delivered(1, 0, "two", 1),
    )
    game.play_turn(passes(game), seq(game))
    assert game.observe(1).messages == ()
    assert game.observe(2).messages == ()
    game.play_turn(passes(game), seq(game), messages={2: [Message("three")]})
    assert game.observe(1).messages == (Delivered(3, 2, "three", None),)
