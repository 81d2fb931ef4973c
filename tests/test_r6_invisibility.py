"""R6 Invisible pieces: hand-traced scenarios on small boards.

Boards are drawn one layer at a time, rows ``y`` top to bottom, columns ``x`` left to right.
Capital letters are chiefs; the digit after a name is the owner (``a0`` is player 0's piece);
a name in brackets, like ``[i1]``, is an invisible piece.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from antipolix import Attack, Move, Pass, PieceType, Trait
from antipolix.events import Combat, Crushed, Eliminated, Fate, Moved, Rejected
from tests.positions import make_game, of_kind

ARMY, HOVER, FORT = PieceType.ARMY, PieceType.HOVERCRAFT, PieceType.FORTRESS
NONE, INVIS, TELE, CHIEF = Trait.NONE, Trait.INVISIBLE, Trait.TELEPORTER, Trait.CHIEF


def seen(game, player):
    """``{piece id: PieceView}`` of what ``player`` observes."""
    return {v.id: v for v in game.observe(player).pieces}


# -- observations ---------------------------------------------------------------------------------


def _observation_position():
    #   x: 0    1    2    3    4
    #   A0   [i0]  .    .    B1      y=0
    #   h0   .     .    .    .       y=1
    #   .    .     .    [j1] .       y=2
    #   .    .     .    .    .       y=3
    #   C2   .     .    .    t2      y=4    t2: player 2's teleporter army
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, INVIS, (0, 0, 1)),
            (0, HOVER, NONE, (0, 1, 0)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, HOVER, INVIS, (0, 2, 3)),
            (2, HOVER, CHIEF, (0, 4, 0)),
            (2, ARMY, TELE, (0, 4, 4)),
        ],
        players=3,
    )


def test_r6_invisible_piece_absent_from_opponents_observations():
    # R6: an opponent's observation never contains an invisible piece.
    game, (a0, i0, h0, b1, j1, c2, t2) = _observation_position()
    assert set(seen(game, 0)) == {a0, i0, h0, b1, c2, t2}  # j1 hidden from player 0
    assert set(seen(game, 1)) == {a0, h0, b1, j1, c2, t2}  # i0 hidden from player 1
    assert set(seen(game, 2)) == {a0, h0, b1, c2, t2}  # both hidden from player 2
    for player, hidden in [(1, i0), (2, i0), (0, j1), (2, j1)]:
        obs = game.observe(player)
        assert hidden not in obs.ids.tolist()
        assert len(obs.ids) == len(obs.owners) == len(obs.types) == len(obs.traits)
        assert len(obs.cells) == len(obs.ids)


def test_r6_owner_sees_own_invisible_piece_with_its_trait():
    # R6: a player's own pieces are shown with their traits, invisible ones included.
    game, (a0, i0, h0, b1, j1, c2, t2) = _observation_position()
    own = seen(game, 0)
    assert own[i0].trait is Trait.INVISIBLE
    assert own[i0].cell == (0, 0, 1) and own[i0].type is ARMY and own[i0].owner == 0
    assert own[a0].trait is Trait.CHIEF
    assert own[h0].trait is Trait.NONE
    assert seen(game, 1)[j1].trait is Trait.INVISIBLE
    assert seen(game, 2)[t2].trait is Trait.TELEPORTER


def test_r6_other_players_traits_are_none():
    # R6: opponents see owner, type and cell of visible pieces only, never the trait (not even
    # which piece is the chief or a teleporter).
    game, (a0, i0, h0, b1, j1, c2, t2) = _observation_position()
    view = seen(game, 1)
    expected = {
        a0: (0, ARMY, (0, 0, 0)),
        h0: (0, HOVER, (0, 1, 0)),
        c2: (2, HOVER, (0, 4, 0)),
        t2: (2, ARMY, (0, 4, 4)),
    }
    for pid, (owner, kind, cell) in expected.items():
        assert (view[pid].owner, view[pid].type, view[pid].cell) == (owner, kind, cell)
        assert view[pid].trait is None
    assert view[b1].trait is Trait.CHIEF  # its own chief


def test_r6_moving_invisible_piece_stays_hidden():
    # R6: after i0 moves, opponents still see nothing of it: not the piece, not the move.
    game, (a0, i0, h0, b1, j1, c2, t2) = _observation_position()
    report = game.play_turn({0: Move(i0, (0, 1, 1)), 1: Pass(), 2: Pass()})
    assert game.piece(i0).cell == (0, 1, 1)
    assert of_kind(report.events, Moved)
    for player in (1, 2):
        obs = game.observe(player)
        assert i0 not in {v.id for v in obs.pieces}
        assert (0, 1, 1) not in {v.cell for v in obs.pieces}
        assert not of_kind(obs.events, Moved)
    assert seen(game, 0)[i0].cell == (0, 1, 1)


# -- invisible pieces cannot be attacked ----------------------------------------------------------


def _attack_invisible_game(with_target):
    # Player 0's army a0 attacks (0, 1, 2). In one game [i1] stands there; in the other it
    # stands far away at (0, 4, 2) and the cell is empty.
    #   A0  .   .    .  B1
    #   .   a0  [i1] .  .       y=1   ([i1] here only when with_target)
    #   .   .   .    .  .
    #   .   .   .    .  .
    #   .   .   (i1) .  .       y=4   (where [i1] stands otherwise)
    cell = (0, 1, 2) if with_target else (0, 4, 2)
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, HOVER, INVIS, cell),
        ],
        p_destroy=1,
        p_teleport=0,
        p_convert=0,
    )


def test_r6_invisible_piece_cannot_be_attacked():
    # R6: the attack is rejected (no combat), and the hidden piece is unharmed.
    game, (_, a0, _, i1) = _attack_invisible_game(with_target=True)
    order = Attack([a0], (0, 1, 2))
    assert game.is_legal(0, order) is False
    report = game.play_turn({0: order, 1: Pass()}, think_times={0: 1.0, 1: 2.0})
    (rejected,) = of_kind(report.events, Rejected)
    assert rejected.player == 0
    assert not of_kind(report.events, Combat) and not of_kind(report.events, Fate)
    piece = game.piece(i1)
    assert piece.alive and piece.owner == 1 and piece.cell == (0, 1, 2)


def test_r6_attack_on_invisible_reads_like_empty_cell():
    # R6: the rejection must not reveal the hidden piece: the same reason as for an empty cell,
    # and the same answer from is_legal.
    reasons = {}
    for with_target in (True, False):
        game, (_, a0, _, _) = _attack_invisible_game(with_target)
        order = Attack([a0], (0, 1, 2))
        assert game.is_legal(0, order) is False
        report = game.play_turn({0: order, 1: Pass()}, think_times={0: 1.0, 1: 2.0})
        (rejected,) = of_kind(report.events, Rejected)
        reasons[with_target] = rejected.reason
        assert of_kind(game.observe(0).events, Rejected) == [rejected]
    assert reasons[True] == reasons[False]
    assert "invisible" not in reasons[True].lower()


# -- moving onto an enemy invisible piece crushes it ----------------------------------------------


@pytest.mark.parametrize(
    ("kind", "trait", "start"),
    [(ARMY, NONE, (0, 1, 1)), (HOVER, NONE, (0, 3, 0)), (ARMY, INVIS, (0, 1, 1))],
    ids=["army", "hovercraft at distance 2", "invisible army"],
)
def test_r6_move_onto_enemy_invisible_crushes_it(kind, trait, start):
    # R6: a Move of any piece onto the cell of an enemy invisible piece destroys it and the
    # mover takes the cell. Both players are told (Crushed); player 2 is not.
    #   x: 0   1    2    3   4
    #   A0 .   .    .    B1          y=0
    #   .  m0  [i1] .    .           y=1   m0: the mover (or at (0, 3, 0) for the hovercraft)
    #   .  .   .    .    .           y=2
    #   m0 .   .    .    .           y=3
    #   .  .   .    .    C2          y=4
    game, (chief0, m0, chief1, i1, chief2) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, kind, trait, start),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, ARMY, INVIS, (0, 1, 2)),
            (2, ARMY, CHIEF, (0, 4, 4)),
        ],
        players=3,
    )
    order = Move(m0, (0, 1, 2))
    assert game.is_legal(0, order) is True
    report = game.play_turn({0: order, 1: Pass(), 2: Pass()}, think_times={0: 1, 1: 2, 2: 3})
    assert not of_kind(report.events, Rejected)
    assert not of_kind(report.events, Combat)  # a move, not an attack: no combat, no draw
    assert not game.piece(i1).alive
    assert game.piece(m0).cell == (0, 1, 2) and game.piece(m0).owner == 0
    (crushed,) = of_kind(report.events, Crushed)
    assert (crushed.player, crushed.piece, crushed.victim, crushed.victim_owner, crushed.cell) == (
        0,
        m0,
        i1,
        1,
        (0, 1, 2),
    )
    # R6: the mover is told whose piece it crushed, not that piece's identifier; the owner
    # sees the mover (visible here, or not: the parametrised invisible mover) only if visible
    told_mover = of_kind(game.observe(0).events, Crushed)
    assert told_mover == [replace(crushed, victim=None)]
    told_owner = of_kind(game.observe(1).events, Crushed)
    mover_hidden = game.piece(m0).trait is INVIS
    assert told_owner == [replace(crushed, piece=None if mover_hidden else m0)]
    assert of_kind(game.observe(2).events, Crushed) == []
    assert game.living == (0, 1, 2)  # i1 was not a chief
    assert i1 not in seen(game, 1)


def test_r6_move_onto_own_invisible_piece_is_rejected():
    # R4, R6: only an *enemy* invisible piece leaves a cell free; an own one does not.
    #   A0 a0 [i0] .  B1
    game, (_, a0, i0, _) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 0, 1)),
            (0, ARMY, INVIS, (0, 0, 2)),
            (1, ARMY, CHIEF, (0, 0, 4)),
        ]
    )
    report = game.play_turn({0: Move(a0, (0, 0, 2)), 1: Pass()})
    assert of_kind(report.events, Rejected)
    assert not of_kind(report.events, Crushed)
    assert game.piece(i0).alive and game.piece(a0).cell == (0, 0, 1)


def test_r6_move_onto_invisible_after_it_left_is_a_plain_move():
    # R4, R6: [i1] moves away first (t=1); a0's move at t=2 lands on an empty cell: no Crushed.
    #   A0 a0 [i1] .  B1         [i1] -> (0, 1, 2)
    game, (_, a0, _, i1) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 0, 1)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, ARMY, INVIS, (0, 0, 2)),
        ]
    )
    report = game.play_turn(
        {0: Move(a0, (0, 0, 2)), 1: Move(i1, (0, 1, 2))}, think_times={0: 2.0, 1: 1.0}
    )
    assert not of_kind(report.events, Crushed)
    assert game.piece(i1).alive and game.piece(i1).cell == (0, 1, 2)
    assert game.piece(a0).cell == (0, 0, 2)


# -- invisible pieces fight like any piece --------------------------------------------------------


def _defence_position():
    # Target e1 (visible army, 2) has player 1's invisible army [i1] (2) next to it: defence 4.
    #   x: 0   1   2   3    4
    #   A0 .   .   .   B1        y=0
    #   .  a0  e1  [i1] .        y=1
    #   .  h0  b0  .    .        y=2
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (0, HOVER, NONE, (0, 2, 1)),
            (0, ARMY, NONE, (0, 2, 2)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, ARMY, NONE, (0, 1, 2)),
            (1, ARMY, INVIS, (0, 1, 3)),
        ],
        p_destroy=1,
        p_teleport=0,
        p_convert=0,
    )


def test_r6_invisible_neighbour_counts_for_defence():
    # R6, R8: defence of e1 = 2 + [i1] 2 = 4; a0 + b0 attack with 4: not strictly more, fails.
    game, (_, a0, h0, b0, _, e1, i1) = _defence_position()
    assert game.defence_power((0, 1, 2)) == 4
    report = game.play_turn({0: Attack([a0, b0], (0, 1, 2)), 1: Pass()})
    (combat,) = of_kind(report.events, Combat)
    assert (combat.attack, combat.defence, combat.success) == (4, 4, False)
    assert game.piece(e1).alive and game.piece(e1).owner == 1


def test_r6_invisible_neighbour_defence_beaten_by_one_more():
    # R6, R8: adding h0 (1) makes 5 > 4: the attack succeeds (p_destroy=1: e1 destroyed).
    game, (_, a0, h0, b0, _, e1, i1) = _defence_position()
    report = game.play_turn({0: Attack([a0, b0, h0], (0, 1, 2)), 1: Pass()})
    (combat,) = of_kind(report.events, Combat)
    assert (combat.attack, combat.defence, combat.success) == (5, 4, True)
    assert not game.piece(e1).alive
    assert game.piece(i1).alive


def test_r6_invisible_piece_attacks_like_any_piece():
    # R6, R8: [i0] (army, 2) and h0 (1) attack t1 (hovercraft, 1): attack 3 > defence 1.
    #   A0  [i0] .  .  B1
    #   .   t1   .  .  .
    #   h0  .    .  .  .
    game, (_, i0, h0, _, t1) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, INVIS, (0, 0, 1)),
            (0, HOVER, NONE, (0, 2, 0)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, HOVER, NONE, (0, 1, 1)),
        ],
        p_destroy=0,
        p_teleport=0,
        p_convert=1,
    )
    report = game.play_turn({0: Attack([i0, h0], (0, 1, 1)), 1: Pass()})
    (combat,) = of_kind(report.events, Combat)
    assert combat.pieces == tuple(sorted((i0, h0)))  # sorted: the listed order says nothing
    assert (combat.attack, combat.defence) == (3, 1)
    assert game.piece(t1).owner == 0  # converted
    assert game.piece(i0).cell == (0, 0, 1)  # attackers never move (R8)


# -- a chief is never invisible -------------------------------------------------------------------


def test_r6_chief_is_visible_so_a_move_cannot_crush_it():
    # R2: every piece has exactly one trait, and "chief" is a trait, so a chief is never
    # invisible: opponents always see it (without its trait), a Move onto it is rejected like
    # any move onto a visible enemy piece (R4), and only an attack can take it (R8).
    #   A0 a0 B1 [i1] .
    game, (chief0, a0, chief1, i1) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 0, 1)),
            (1, ARMY, CHIEF, (0, 0, 2)),
            (1, ARMY, INVIS, (0, 0, 3)),
        ]
    )
    assert chief1 in seen(game, 0) and i1 not in seen(game, 0)
    assert seen(game, 0)[chief1].trait is None
    order = Move(a0, (0, 0, 2))
    assert game.is_legal(0, order) is False
    report = game.play_turn({0: order, 1: Pass()})
    assert of_kind(report.events, Rejected) and not of_kind(report.events, Crushed)
    assert game.piece(chief1).alive and game.living == (0, 1)


def test_r6_crushing_invisible_piece_next_to_chief_takes_only_that_piece():
    # R6, R8: crushing is not an attack on the chief: player 1 stays in, keeps its chief and its
    # other pieces; only the crushed invisible piece is gone.
    #   x: 0   1    2     3   4
    #   A0 a0  [v1] B1    .       y=0
    #   .  .   .    t1    .       y=1   t1: teleporter hovercraft
    game, (chief0, a0, v1, chief1, t1) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 0, 1)),
            (1, ARMY, INVIS, (0, 0, 2)),
            (1, ARMY, CHIEF, (0, 0, 3)),
            (1, HOVER, TELE, (0, 1, 3)),
        ]
    )
    report = game.play_turn({0: Move(a0, (0, 0, 2)), 1: Pass()})
    assert of_kind(report.events, Crushed)
    assert not of_kind(report.events, Eliminated)
    assert report.result is None and game.living == (0, 1)
    assert not game.piece(v1).alive
    assert [(p.id, p.owner, p.trait) for p in game.pieces(1)] == [
        (chief1, 1, CHIEF),
        (t1, 1, TELE),
    ]


# -- events told to opponents name no invisible piece ---------------------------------------------


def test_r6_defender_is_not_told_ids_of_invisible_attackers():
    # R6, R8: the invisible i0 attacks with a0; the defender learns the powers, not i0's id.
    #   x: 0    1     2    3    4
    #   A0   a0   [i0]  .    .       y=0
    #   .    .    b1    .    B1      y=1
    game, (_, a0, i0, b1, _) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 0, 1)),
            (0, ARMY, INVIS, (0, 0, 2)),
            (1, HOVER, NONE, (0, 1, 2)),
            (1, ARMY, CHIEF, (0, 1, 4)),
        ],
        p_destroy=0.0,
        p_teleport=0.0,
        p_convert=1.0,
    )
    report = game.play_turn({0: Attack([a0, i0], (0, 1, 2)), 1: Pass()})
    (truth,) = of_kind(report.events, Combat)
    assert set(truth.pieces) == {a0, i0} and truth.attack == 4
    (told_defender,) = of_kind(game.observe(1).events, Combat)
    assert told_defender.pieces == (a0,) and told_defender.attack == 4
    (told_attacker,) = of_kind(game.observe(0).events, Combat)
    assert set(told_attacker.pieces) == {a0, i0}
    assert game.piece(b1).owner == 0


def test_r6_third_player_is_not_told_ids_of_invisible_pieces_taken_with_a_chief():
    # R6, R8: player 0 takes B1; player 1's invisible j1 and visible h1 go to player 0.
    # Player 2 sees h1 change hands on the board, but is told nothing of j1.
    #   x: 0    1    2    3    4
    #   A0   a0   B1   .    .       y=0
    #   .    .    .    .    .       y=1
    #   .    .    h1   .    [j1]    y=2
    #   .    .    .    .    .       y=3
    #   C2   .    .    .    .       y=4
    game, (_, a0, b1, h1, j1, _) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 0, 1)),
            (1, HOVER, CHIEF, (0, 0, 2)),
            (1, HOVER, NONE, (0, 2, 2)),
            (1, ARMY, INVIS, (0, 2, 4)),
            (2, ARMY, CHIEF, (0, 4, 0)),
        ],
        players=3,
        p_destroy=1.0,
        p_teleport=0.0,
        p_convert=0.0,
    )
    report = game.play_turn({0: Attack([a0], (0, 0, 2)), 1: Pass(), 2: Pass()})
    (truth,) = of_kind(report.events, Eliminated)
    assert set(truth.taken) == {h1, j1}
    (told_third,) = of_kind(game.observe(2).events, Eliminated)
    assert told_third.taken == (h1,)
    (told_taker,) = of_kind(game.observe(0).events, Eliminated)
    assert set(told_taker.taken) == {h1, j1}
