"""R5 Reach and teleportation, through the public API ``Game.reach`` and ``Game.reaches``.

R5 by hand: a piece with move field ``r`` (army 1, hovercraft 2, fortress 0) reaches every cell
``c`` with ``1 <= d(piece, c) <= r``. A non-fortress piece ``X`` within radius 1 of one of its
owner's teleporters ``S`` (``S != X``) also reaches every cell within radius ``r`` of every
teleporter ``D != S`` connected to ``S`` (a path of teleporters, each step at distance ``<= 4``).
Its own cell is never reached (a move there is no displacement). Occupancy is ignored.

Most teleport scenarios live on one row of a 3×16×16 board: layer z = 1, row y = 1, with the
teleporters 4 cells apart so that each step of a chain is exactly the teleport field::

    x:  0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15
        X  S  .  .  .  T  .  .  .  T  .  .  .  T  .  .

The other player's chief waits in the far corner (0, 15, 15), out of everything's way.

``ball(c, r)`` below is the literal R1 definition (cells at distance 1..r, clipped to the board);
each scenario also states a count worked out by hand.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from antipolix import Game, Move, Pass, PieceType, Rules, Trait
from antipolix.world import chebyshev

A, H, F = PieceType.ARMY, PieceType.HOVERCRAFT, PieceType.FORTRESS
NONE, INV, TEL, CHIEF = Trait.NONE, Trait.INVISIBLE, Trait.TELEPORTER, Trait.CHIEF
MOVE = {A: 1, H: 2, F: 0}
ROW = (3, 16, 16)
FAR = (0, 15, 15)


def ball(shape, centre, r):
    """R1: the cells at Chebyshev distance 1..r of ``centre`` that exist on ``shape``."""
    return {
        c for c in itertools.product(*(range(n) for n in shape)) if 1 <= chebyshev(c, centre) <= r
    }


def setup(shape, pieces, **options):
    """A started game with ``pieces`` = [(player, type, trait, cell)] placed in seat order.

    Returns the game and the ids in the order of ``pieces``.
    """
    rules = Rules(shape=shape, players=2, zones=False, budget=1000, **options)
    game = Game(rules, seed=0)
    order = sorted(range(len(pieces)), key=lambda i: pieces[i][0])
    ids = [0] * len(pieces)
    for i in order:
        ids[i] = game.place(*pieces[i])
    game.start()
    return game, ids


def row(x):
    """A cell of the drawn row: layer 1, row 1, column x."""
    return (1, 1, x)


# == reach in the open, and clipped at the border ==================================================


@pytest.mark.parametrize(
    ("kind", "cell", "expected"),
    [
        # 5×9×9 board: (2, 4, 4) is at least 2 cells from every face
        (A, (2, 4, 4), 26),  # 3³ − 1
        (H, (2, 4, 4), 124),  # 5³ − 1
        (A, (0, 4, 4), 17),  # face z = 0: 2·3·3 − 1
        (H, (0, 4, 4), 74),  # face z = 0: 3·5·5 − 1
        (H, (1, 4, 4), 99),  # one cell from the face: z in 0..3, 4·5·5 − 1
        (A, (2, 0, 4), 17),  # face y = 0
        (A, (0, 0, 4), 11),  # edge z = 0, y = 0: 2·2·3 − 1
        (H, (0, 0, 4), 44),  # edge: 3·3·5 − 1
        (A, (0, 0, 0), 7),  # corner: 2·2·2 − 1
        (A, (4, 8, 8), 7),  # the opposite corner
        (H, (0, 0, 0), 26),  # corner: 3·3·3 − 1
        (H, (4, 8, 0), 26),  # another corner
    ],
)
def test_r5_reach_counts_in_the_open_and_clipped(kind, cell, expected):
    shape = (5, 9, 9)
    other = (4, 8, 8) if cell != (4, 8, 8) else (0, 0, 0)
    game, (x, _) = setup(shape, [(0, kind, CHIEF, cell), (1, A, CHIEF, other)])
    reach = game.reach(x)
    assert len(reach) == expected
    assert reach == ball(shape, cell, MOVE[kind])


def test_r5_army_in_corner_of_default_board_reaches_seven():
    # 8×16×16: the army on (7, 15, 0) reaches z 6..7, y 14..15, x 0..1, minus itself
    shape = (8, 16, 16)
    game, (x, _) = setup(shape, [(0, A, CHIEF, (7, 15, 0)), (1, A, CHIEF, (0, 0, 15))])
    assert game.reach(x) == {
        (z, y, xx) for z in (6, 7) for y in (14, 15) for xx in (0, 1) if (z, y, xx) != (7, 15, 0)
    }
    assert len(game.reach(x)) == 7
    assert game.reaches(x, (6, 14, 1))
    assert not game.reaches(x, (5, 15, 0))  # dz = 2 > 1


def test_r5_hovercraft_reaches_over_occupied_cells():
    # R1: no line of sight. Layer z = 1, row y = 1:  H a b   (a, b own pieces)
    # the hovercraft reaches x = 2 although x = 1 is occupied; reach ignores occupancy entirely
    game, (h, *_rest) = setup(
        ROW,
        [(0, H, CHIEF, row(0)), (0, A, NONE, row(1)), (0, A, NONE, row(2)), (1, A, CHIEF, FAR)],
    )
    assert game.reaches(h, row(2))
    assert game.reaches(h, row(1))
    assert game.reach(h) == ball(ROW, row(0), 2)


def test_r5_fortress_reaches_nothing():
    game, (f, _) = setup((5, 9, 9), [(0, F, CHIEF, (2, 4, 4)), (1, A, CHIEF, (0, 0, 0))])
    assert game.reach(f) == set()
    assert not any(game.reaches(f, c) for c in ball((5, 9, 9), (2, 4, 4), 2))


# == teleport chains ===============================================================================


@pytest.mark.parametrize("kind", [A, H])
@pytest.mark.parametrize("hops", [1, 2, 3])
def test_r5_teleport_chain(hops, kind):
    # X on x=0 next to S on x=1; teleporters every 4 cells: S=1, then 5, 9, 13 (hops of them)
    #   hops 1:  X S . . . D
    #   hops 2:  X S . . . T . . . D
    #   hops 3:  X S . . . T . . . T . . . D
    # each step is at distance 4 = the teleport field: all connected; every D != S serves
    tele = [row(1 + 4 * i) for i in range(hops + 1)]
    pieces = [(0, kind, CHIEF, row(0))] + [(0, A, TEL, c) for c in tele] + [(1, A, CHIEF, FAR)]
    game, ids = setup(ROW, pieces)
    x = ids[0]
    r = MOVE[kind]
    expected = ball(ROW, row(0), r).union(*(ball(ROW, d, r) for d in tele[1:])) - {row(0)}
    assert game.reach(x) == expected
    assert all(game.reaches(x, c) for c in expected)
    if kind is A:
        # by hand: X on the face x = 0 reaches 3·3·2 − 1 = 17; each D adds its own 26
        # (the D balls span x = 4..6, 8..10, 12..14 and never overlap)
        assert len(expected) == 17 + 26 * hops
        # an army never lands on a D itself: D is at distance 4 from every other centre
        assert not any(game.reaches(x, d) for d in tele[1:])
    # the far end of the chain is reached, and nothing beyond
    z, y, last = tele[-1]
    assert game.reaches(x, (z, y, last + r))
    if last + r + 1 < ROW[2]:
        assert not game.reaches(x, (z, y, last + r + 1))


def test_r5_chain_of_three_last_hop_matters():
    # the same row with the last teleporter one cell further (x = 14, distance 5 from x = 9):
    #   X S . . . T . . . T . . . . D
    # D is no longer connected: the army reaches around 5 and 9, but not around 14
    tele = [row(1), row(5), row(9), row(14)]
    pieces = [(0, A, CHIEF, row(0))] + [(0, A, TEL, c) for c in tele] + [(1, A, CHIEF, FAR)]
    game, ids = setup(ROW, pieces)
    x = ids[0]
    assert game.reaches(x, row(10))  # next to 9
    assert not game.reaches(x, row(13))  # next to 14 only
    assert not game.reaches(x, row(15))
    assert len(game.reach(x)) == 17 + 26 + 26


def test_r5_teleporter_beyond_field_is_not_connected():
    #   X S . . . . D        S = 1, D = 6: distance 5 = field + 1
    pieces = [(0, A, CHIEF, row(0)), (0, A, TEL, row(1)), (0, A, TEL, row(6)), (1, A, CHIEF, FAR)]
    game, (x, *_rest) = setup(ROW, pieces)
    assert game.reach(x) == ball(ROW, row(0), 1)
    assert len(game.reach(x)) == 17
    assert not game.reaches(x, row(5))
    assert not game.reaches(x, row(7))


def test_r5_teleport_field_is_a_rule_option():
    # the same position with teleport_field = 5: now S and D are connected
    pieces = [(0, A, CHIEF, row(0)), (0, A, TEL, row(1)), (0, A, TEL, row(6)), (1, A, CHIEF, FAR)]
    game, (x, *_rest) = setup(ROW, pieces, teleport_field=5)
    assert game.reach(x) == (ball(ROW, row(0), 1) | ball(ROW, row(6), 1)) - {row(0)}
    assert len(game.reach(x)) == 17 + 26


def test_r5_teleporter_in_another_layer_and_diagonal():
    # S right above X (dz = 1), D at (4, 5, 5): distance from S (1, 1, 1) is max(3, 4, 4) = 4
    shape = (6, 8, 8)
    pieces = [
        (0, A, CHIEF, (0, 1, 1)),
        (0, A, TEL, (1, 1, 1)),
        (0, A, TEL, (4, 5, 5)),
        (1, A, CHIEF, (0, 7, 0)),
    ]
    game, (x, *_rest) = setup(shape, pieces)
    assert game.reach(x) == (ball(shape, (0, 1, 1), 1) | ball(shape, (4, 5, 5), 1)) - {(0, 1, 1)}
    assert len(game.reach(x)) == 17 + 26  # X on the face z = 0; D in the open


def test_r5_piece_not_next_to_any_teleporter_does_not_teleport():
    #   X . S . . . D        X is at distance 2 from S: not within radius 1
    pieces = [(0, A, CHIEF, row(0)), (0, A, TEL, row(2)), (0, A, TEL, row(6)), (1, A, CHIEF, FAR)]
    game, (x, *_rest) = setup(ROW, pieces)
    assert game.reach(x) == ball(ROW, row(0), 1)


def test_r5_hovercraft_two_cells_from_teleporter_does_not_teleport():
    # the move field does not widen the "within radius 1 of S" condition
    #   H . S . . . D
    pieces = [(0, H, CHIEF, row(0)), (0, A, TEL, row(2)), (0, A, TEL, row(6)), (1, A, CHIEF, FAR)]
    game, (x, *_rest) = setup(ROW, pieces)
    assert game.reach(x) == ball(ROW, row(0), 2)


def test_r5_reach_follows_a_moving_teleporter():
    # turn 0:  X S . . . D        D on 5, 4 from S: connected
    # turn 1:  X S . . . . D      D moved to 6, 5 from S: not connected any more
    # turn 2:  X S . . . D        D back on 5: connected again
    pieces = [(0, A, CHIEF, row(0)), (0, A, TEL, row(1)), (0, A, TEL, row(5)), (1, A, CHIEF, FAR)]
    game, (x, _s, d, _c) = setup(ROW, pieces)
    assert game.reaches(x, row(4))
    game.play_turn({0: Move(d, row(6)), 1: Pass()})
    assert game.piece(d).cell == row(6)
    assert game.reach(x) == ball(ROW, row(0), 1)
    assert not game.reaches(x, row(4)) and not game.reaches(x, row(7))
    game.play_turn({0: Move(d, row(5)), 1: Pass()})
    assert game.reach(x) == (ball(ROW, row(0), 1) | ball(ROW, row(5), 1)) - {row(0)}


def test_r5_reach_follows_the_mover():
    # turn 0:  . X . S . . . D    X on 1 is 2 from S on 3, not next to it: no teleport
    # turn 1:  . . X S . . . D    X moved to 2, next to S: teleports beside D on 7
    pieces = [(0, A, CHIEF, row(1)), (0, A, TEL, row(3)), (0, A, TEL, row(7)), (1, A, CHIEF, FAR)]
    game, (x, *_rest) = setup(ROW, pieces)
    assert game.reach(x) == ball(ROW, row(1), 1)
    game.play_turn({0: Move(x, row(2)), 1: Pass()})
    assert game.reach(x) == (ball(ROW, row(2), 1) | ball(ROW, row(7), 1)) - {row(2)}


# == whose teleporters =============================================================================


def _enemy_network_position():
    # player 0: X on 0;  player 1: teleporters on 1 and 5, and its own army Y on 6
    #   X s . . . d Y        (s, d: player 1's)
    return [
        (0, A, CHIEF, row(0)),
        (1, A, TEL, row(1)),
        (1, A, TEL, row(5)),
        (1, A, NONE, row(6)),
        (1, A, CHIEF, FAR),
    ]


def test_r5_enemy_teleporter_never_used_with_own_network():
    game, (x, _s, _d, y, _c) = setup(ROW, _enemy_network_position())
    assert game.rules.teleport_network == "own"
    assert game.reach(x) == ball(ROW, row(0), 1)
    assert not game.reaches(x, row(4))
    # player 1's own army next to d does use its own network: it reaches around s
    assert game.reach(y) == (ball(ROW, row(6), 1) | ball(ROW, row(1), 1)) - {row(6)}
    assert game.reaches(y, row(2))


def test_r5_enemy_teleporter_used_with_all_network():
    game, (x, _s, _d, y, _c) = setup(ROW, _enemy_network_position(), teleport_network="all")
    assert game.reach(x) == (ball(ROW, row(0), 1) | ball(ROW, row(5), 1)) - {row(0)}
    assert game.reaches(x, row(4))
    assert game.reach(y) == (ball(ROW, row(6), 1) | ball(ROW, row(1), 1)) - {row(6)}


@pytest.mark.parametrize(("network", "connected"), [("own", False), ("all", True)])
def test_r5_enemy_teleporter_as_link_of_a_chain(network, connected):
    # own S on 1, enemy t on 5, own D on 9: S–D is 8 > 4, only t links them
    #   X S . . . t . . . D
    pieces = [
        (0, A, CHIEF, row(0)),
        (0, A, TEL, row(1)),
        (0, A, TEL, row(9)),
        (1, A, TEL, row(5)),
        (1, A, CHIEF, FAR),
    ]
    game, (x, *_rest) = setup(ROW, pieces, teleport_network=network)
    assert game.reaches(x, row(10)) is connected  # next to D
    assert game.reaches(x, row(4)) is connected  # next to t (used as D with "all")
    expected = ball(ROW, row(0), 1)
    if connected:
        expected = (expected | ball(ROW, row(5), 1) | ball(ROW, row(9), 1)) - {row(0)}
    assert game.reach(x) == expected


# == fortresses and teleporters ====================================================================


def test_r5_fortress_teleporter_serves_as_source():
    #   X S . . . D          S: fortress teleporter, D: army teleporter
    pieces = [(0, A, CHIEF, row(0)), (0, F, TEL, row(1)), (0, A, TEL, row(5)), (1, A, CHIEF, FAR)]
    game, (x, s, _d, _c) = setup(ROW, pieces)
    assert game.reach(x) == (ball(ROW, row(0), 1) | ball(ROW, row(5), 1)) - {row(0)}
    assert game.reach(s) == set()  # the fortress itself reaches nothing


def test_r5_fortress_teleporter_serves_as_destination_but_never_moves():
    #   X S . . . D E        S: army teleporter, D: fortress teleporter, E: army teleporter
    # the fortress D stands within radius 1 of E (a teleporter of its component) yet reaches
    # nothing; X reaches around D and around E
    pieces = [
        (0, A, CHIEF, row(0)),
        (0, A, TEL, row(1)),
        (0, F, TEL, row(5)),
        (0, A, TEL, row(6)),
        (1, A, CHIEF, FAR),
    ]
    game, (x, _s, d, _e, _c) = setup(ROW, pieces)
    assert game.reach(x) == (ball(ROW, row(0), 1) | ball(ROW, row(5), 1) | ball(ROW, row(6), 1)) - {
        row(0)
    }
    assert game.reaches(x, row(4))  # beside the fortress D
    assert game.reaches(x, row(7))  # beside E
    assert game.reach(d) == set()
    assert not any(game.reaches(d, c) for c in ball(ROW, row(5), 2) | ball(ROW, row(1), 1))


# == the own cell, and two sources =================================================================


def test_r5_own_cell_never_in_reach_in_the_open():
    game, (x, _) = setup((3, 3, 3), [(0, A, CHIEF, (1, 1, 1)), (1, A, CHIEF, (0, 0, 0))])
    assert (1, 1, 1) not in game.reach(x)
    assert not game.reaches(x, (1, 1, 1))
    assert len(game.reach(x)) == 26  # every other cell of the 3×3×3 board


def test_r5_own_cell_never_in_reach_when_a_destination_ball_covers_it():
    #   . S H . D            H (hovercraft) on 2 next to S on 1; D on 4 (S–D 3, connected)
    # D's radius-2 ball covers x = 2..6, H's own cell included: still not reached
    pieces = [(0, H, CHIEF, row(2)), (0, A, TEL, row(1)), (0, A, TEL, row(4)), (1, A, CHIEF, FAR)]
    game, (h, *_rest) = setup(ROW, pieces)
    assert row(2) in ball(ROW, row(4), 2)  # the premise: D's ball covers H
    assert row(2) not in game.reach(h)
    assert not game.reaches(h, row(2))
    assert game.reach(h) == (ball(ROW, row(2), 2) | ball(ROW, row(4), 2)) - {row(2)}
    assert game.reaches(h, row(6))  # D + 2, four cells from H


def test_r5_teleporter_piece_own_cell_never_in_reach():
    # X is itself a teleporter, next to S; both in one component with D
    #   S X . . D
    pieces = [(0, A, TEL, row(1)), (0, A, TEL, row(2)), (0, A, TEL, row(5)), (0, A, CHIEF, FAR)]
    pieces.append((1, A, CHIEF, (2, 15, 0)))
    game, (_s, x, _d, _c, _e) = setup(ROW, pieces)
    assert row(2) not in game.reach(x)
    assert not game.reaches(x, row(2))
    assert game.reaches(x, row(6))  # beside D


def test_r5_two_sources_of_one_component_both_serve_as_destination():
    #   S1 X S2              X on 2 between S1 on 1 and S2 on 3; S1–S2 = 2 <= 4: one component
    # from S1, S2 is a destination; from S2, S1 is. So X reaches around both:
    # x = 0..4, y = 0..2, z = 0..2 is 3·3·5 = 45 cells, minus X's own: 44
    pieces = [(0, A, CHIEF, row(2)), (0, A, TEL, row(1)), (0, A, TEL, row(3)), (1, A, CHIEF, FAR)]
    game, (x, *_rest) = setup(ROW, pieces)
    assert game.reaches(x, row(0))  # beside S1, distance 2 from X
    assert game.reaches(x, row(4))  # beside S2, distance 2 from X
    assert game.reaches(x, (0, 0, 0)) and game.reaches(x, (2, 2, 4))
    assert game.reach(x) == {
        (z, y, xx) for z in range(3) for y in range(3) for xx in range(5) if (z, y, xx) != row(2)
    }
    assert len(game.reach(x)) == 44


def test_r5_two_sources_of_different_components_do_not_link():
    # the same position with teleport_field = 1: S1 and S2 (distance 2) are not connected,
    # and neither has another teleporter to send X to
    pieces = [(0, A, CHIEF, row(2)), (0, A, TEL, row(1)), (0, A, TEL, row(3)), (1, A, CHIEF, FAR)]
    game, (x, *_rest) = setup(ROW, pieces, teleport_field=1)
    assert game.reach(x) == ball(ROW, row(2), 1)
    assert len(game.reach(x)) == 26
    assert not game.reaches(x, row(0))


def test_r5_two_sources_plus_a_far_destination():
    #   S1 X S2 . . . D      D on 7 is 4 from S2 (and 6 from S1): one component
    pieces = [
        (0, A, CHIEF, row(2)),
        (0, A, TEL, row(1)),
        (0, A, TEL, row(3)),
        (0, A, TEL, row(7)),
        (1, A, CHIEF, FAR),
    ]
    game, (x, *_rest) = setup(ROW, pieces)
    expected = (
        ball(ROW, row(2), 1) | ball(ROW, row(1), 1) | ball(ROW, row(3), 1) | ball(ROW, row(7), 1)
    ) - {row(2)}
    assert game.reach(x) == expected
    assert len(expected) == 44 + 26  # D's ball (x = 6..8) does not meet x = 0..4


# == differential: reach against reaches, and against the plain R5 definition =====================


def _reference_reach(game: Game, pid: int) -> set:
    """R5 read literally: graph of the mover's teleporters, components by flood fill."""
    me = game.piece(pid)
    r = MOVE[me.type]
    if r == 0:
        return set()
    shape = game.rules.shape
    field = game.rules.teleport_field
    tele = [
        p
        for p in game.pieces()
        if p.trait is TEL and (game.rules.teleport_network == "all" or p.owner == me.owner)
    ]
    centres = {me.cell}
    for s in tele:
        if s.id == me.id or chebyshev(s.cell, me.cell) != 1:
            continue
        seen, todo = {s.id}, [s]
        while todo:
            t = todo.pop()
            for u in tele:
                if u.id not in seen and chebyshev(t.cell, u.cell) <= field:
                    seen.add(u.id)
                    todo.append(u)
        centres |= {u.cell for u in tele if u.id in seen and u.id != s.id}
    out = set()
    for c in centres:
        out |= ball(shape, c, r)
    return out - {me.cell}


def _random_game(seed: int, network: str) -> Game:
    shape = (3, 7, 7)
    rng = np.random.default_rng(seed)
    rules = Rules(
        shape=shape, players=2, zones=False, budget=1000, teleport_field=3, teleport_network=network
    )
    game = Game(rules, seed=seed)
    flat = rng.choice(3 * 7 * 7, size=20, replace=False)
    cells = [tuple(int(v) for v in np.unravel_index(f, shape)) for f in flat]
    for i, cell in enumerate(cells):
        player = 0 if i < 10 else 1
        if i in (0, 10):
            kind, trait = A, CHIEF
        else:
            kind = (A, H, F)[int(rng.integers(3))]
            trait = TEL if rng.random() < 0.6 else (NONE, INV)[int(rng.integers(2))]
        game.place(player, kind, trait, cell)
    game.start()
    return game


@pytest.mark.parametrize("network", ["own", "all"])
@pytest.mark.parametrize("seed", range(4))
def test_r5_differential_reach_set_equals_reaches(seed, network):
    game = _random_game(seed, network)
    board = list(itertools.product(range(3), range(7), range(7)))
    teleported = 0
    for piece in game.pieces():
        reach = game.reach(piece.id)
        for cell in board:
            assert (cell in reach) == game.reaches(piece.id, cell), (piece, cell)
        assert reach == _reference_reach(game, piece.id), piece
        if not reach <= ball(game.rules.shape, piece.cell, MOVE[piece.type]):
            teleported += 1
    # the positions are worth testing: at least one piece reaches beyond its own field
    assert teleported > 0


@pytest.mark.parametrize("network", ["own", "all"])
@pytest.mark.parametrize("seed", range(2))
def test_r5_differential_during_play(seed, network):
    # the same three-way check after each of a few turns of random moves, so that the engine's
    # teleporter networks are rebuilt as teleporters and movers change places
    game = _random_game(seed, network)
    rng = np.random.default_rng(100 + seed)
    board = list(itertools.product(range(3), range(7), range(7)))
    moved = 0
    for _ in range(6):
        taken = {p.cell for p in game.pieces()}
        orders = {}
        for player in game.living:
            options = [
                (p.id, c) for p in game.pieces(player) for c in sorted(game.reach(p.id) - taken)
            ]
            if options:
                pid, cell = options[int(rng.integers(len(options)))]
                orders[player] = Move(pid, cell)
            else:
                orders[player] = Pass()
        report = game.play_turn(orders)
        moved += sum(type(e).__name__ == "Moved" for e in report.events)
        for piece in game.pieces():
            reach = game.reach(piece.id)
            assert reach == _reference_reach(game, piece.id), piece
            for cell in board:
                assert (cell in reach) == game.reaches(piece.id, cell), (piece, cell)
        if game.result is not None:
            break
    assert moved > 0
