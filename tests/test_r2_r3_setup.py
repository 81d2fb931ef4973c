"""R2 Pieces and R3 Setup: rule defaults, rules validation, home zones, placement and its errors.

Expectations are derived from RULES.md by hand:

* R2 tables: army 3/2/1, hovercraft 2/1/2, fortress 12/5/0; traits 0/5/10/0; teleport field 4.
* R3 budget: ``floor(credits_per_100 × P·N·N / 100 / n)`` with ``credits_per_100 = 12``; on the
  default 8×16×16 board P·N·N = 2048, so 12 × 2048 / 100 = 245.76 points are shared by n players.
* R7 initial timer: ``min(60, 250 / n)``.
* R8 probabilities 0.4 / 0.3 / 0.3.

Most placement tests use one small board with zones on (2×8×8, two players, budget 20). Both
layers look the same; R3 puts the two home zones in opposite corners of the 8×8 plane::

       x 0 1 2 3 4 5 6 7
    y0   0 0 0 . . . . .        0 = home zone of player 0
    y1   0 0 0 . . . . .        1 = home zone of player 1
    y2   0 0 0 . . . . .        . = in no zone, e.g. the centre (z, 4, 4)
    y3   . . . . . . . .
    y4   . . . . . . . .
    y5   . . . . . 1 1 1
    y6   . . . . . 1 1 1
    y7   . . . . . 1 1 1

(The side 3 is the engine's choice; the tests only rely on the corners, on the centre being in
no zone, and read each zone through ``game.zone(player)``.)
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest

from antipolix import Game, PieceType, Rules, Trait, TraitCosts, TypeSpec, TypeTable, home_zones
from antipolix.errors import (
    ChiefError,
    OccupiedCellError,
    OffBoardError,
    OutsideZoneError,
    OverBudgetError,
    PlacementError,
    RulesError,
)

A, H, F = PieceType.ARMY, PieceType.HOVERCRAFT, PieceType.FORTRESS
NONE, INV, TEL, CHIEF = Trait.NONE, Trait.INVISIBLE, Trait.TELEPORTER, Trait.CHIEF
DEFAULT_SHAPE = (8, 16, 16)


def small_rules(**kw) -> Rules:
    """The 2×8×8 two-player board of the module docstring, zones on, budget 20."""
    return Rules(**{"shape": (2, 8, 8), "players": 2, "budget": 20, **kw})


def snapshot(game: Game) -> list[tuple]:
    """Everything placement can change, piece by piece (id, owner, type, trait, cell)."""
    return [(p.id, p.owner, p.type, p.trait, p.cell) for p in game.pieces()]


def in_box(zone, cell) -> bool:
    """Membership by hand from the zone's bounds, lo <= cell < hi on every axis."""
    return all(lo <= c < hi for lo, c, hi in zip(zone.lo, cell, zone.hi, strict=True))


def box_gap(a, b) -> int:
    """Chebyshev distance between the nearest cells of two boxes [lo, hi) (0 if they overlap)."""
    gap = 0
    for lo_a, hi_a, lo_b, hi_b in zip(a.lo, a.hi, b.lo, b.hi, strict=True):
        gap = max(gap, lo_b - (hi_a - 1), lo_a - (hi_b - 1))
    return max(gap, 0)


def footprint_corners(zone, n: int) -> set[tuple[int, int]]:
    """Which corners (y, x) of the N×N plane the zone's footprint contains."""
    return {
        (y, x)
        for y, x in itertools.product((0, n - 1), repeat=2)
        if zone.lo[1] <= y < zone.hi[1] and zone.lo[2] <= x < zone.hi[2]
    }


# == R2 / R3 defaults ==============================================================================


def test_r2_piece_table_defaults():
    rules = Rules()
    assert rules.piece_types.army == TypeSpec(cost=3, strength=2, move=1)
    assert rules.piece_types.hovercraft == TypeSpec(cost=2, strength=1, move=2)
    assert rules.piece_types.fortress == TypeSpec(cost=12, strength=5, move=0)
    assert rules.piece_types[A].move == 1
    assert rules.piece_types[H].move == 2
    assert rules.piece_types[F].move == 0


def test_r2_trait_costs_and_piece_cost_is_type_plus_trait():
    rules = Rules()
    assert rules.trait_costs == TraitCosts(none=0, invisible=5, teleporter=10, chief=0)
    assert [rules.trait_costs.cost(t) for t in (NONE, INV, TEL, CHIEF)] == [0, 5, 10, 0]
    # R2: a piece's cost is type cost + trait cost
    assert rules.piece_cost(A, NONE) == 3
    assert rules.piece_cost(A, TEL) == 3 + 10
    assert rules.piece_cost(H, INV) == 2 + 5
    assert rules.piece_cost(H, CHIEF) == 2
    assert rules.piece_cost(F, TEL) == 12 + 10
    assert rules.piece_cost(F, INV) == 12 + 5


def test_r2_r5_r8_other_defaults():
    rules = Rules()
    assert rules.teleport_field == 4  # R2 / R5
    assert rules.teleport_network == "own"  # R5
    assert (rules.p_destroy, rules.p_teleport, rules.p_convert) == (0.4, 0.3, 0.3)  # R8
    assert rules.defence_counts == "owner"  # R8


def test_r3_default_board_players_and_zones():
    rules = Rules()
    assert rules.shape == (8, 16, 16)  # R1: P = 8, N = 16
    assert rules.players == 4  # R3
    assert rules.zones is True  # R3
    assert rules.credits_per_100 == 12


def test_r3_default_budget_is_61_for_four_players():
    # floor(12 × 8·16·16 / 100 / 4) = floor(24576 / 400) = floor(61.44) = 61
    assert Rules().army_budget == 61


@pytest.mark.parametrize(
    ("players", "budget"),
    [
        (2, 122),  # 245.76 / 2 = 122.88
        (3, 81),  # 81.92
        (4, 61),  # 61.44
        (5, 49),  # 49.152
        (6, 40),  # 40.96
        (7, 35),  # 35.108...
        (8, 30),  # 30.72
        (9, 27),  # 27.306...
        (10, 24),  # 24.576
    ],
)
def test_r3_budget_formula_for_every_player_count(players, budget):
    assert Rules(players=players).army_budget == budget


def test_r3_budget_formula_other_board_and_credits_and_override():
    # 4×8×8 = 256 cells, 2 players: floor(12 × 256 / 100 / 2) = floor(15.36) = 15
    assert Rules(shape=(4, 8, 8), players=2).army_budget == 15
    # credits 20 on the default board, 4 players: floor(20 × 2048 / 400) = floor(102.4) = 102
    assert Rules(credits_per_100=20).army_budget == 102
    # an explicit budget wins over the formula
    assert Rules(budget=100).army_budget == 100


@pytest.mark.parametrize(
    ("players", "timer"),
    [
        (2, 60.0),  # min(60, 125)
        (3, 60.0),  # min(60, 83.3)
        (4, 60.0),  # min(60, 62.5)
        (5, 50.0),  # min(60, 50)
        (8, 31.25),  # 250 / 8
        (10, 25.0),  # 250 / 10
    ],
)
def test_r7_initial_timer_is_min_credit_and_total_share(players, timer):
    rules = Rules(players=players)
    assert (rules.time_credit, rules.time_total) == (60.0, 250.0)
    assert rules.initial_timer == pytest.approx(timer)


# == R1–R12 option validation ======================================================================


@pytest.mark.parametrize(
    ("options", "named"),
    [
        # R1 sizes
        ({"shape": (0, 16, 16)}, "shape"),  # P >= 1
        ({"shape": (8, 1, 1)}, "shape"),  # N >= 2
        ({"shape": (8, 16, 15)}, "shape"),  # P × N × N: the plane is square
        ({"shape": (8, 16)}, "shape"),
        ({"shape": (8.0, 16, 16)}, "shape"),
        ({"shape": "big"}, "shape"),
        # R3 players 2..10
        ({"players": 1}, "players"),
        ({"players": 0}, "players"),
        ({"players": 11}, "players"),
        ({"players": -2}, "players"),
        ({"players": 2.5}, "players"),
        # R8 probabilities: numbers >= 0 summing to 1
        ({"p_teleport": 0.2}, "p_teleport"),  # sums to 0.9
        ({"p_destroy": 0.5}, "p_destroy"),  # sums to 1.1
        ({"p_convert": 0.4}, "p_convert"),  # sums to 1.1
        ({"p_destroy": -0.1, "p_teleport": 0.8}, "p_destroy"),  # sums to 1, one negative
        ({"p_convert": float("nan")}, "p_convert"),
        # R2 costs (and the other numbers of the tables) must be >= 0
        ({"piece_types": TypeTable(army=TypeSpec(-1, 2, 1))}, r"army\.cost"),
        ({"piece_types": TypeTable(hovercraft=TypeSpec(-2, 1, 2))}, r"hovercraft\.cost"),
        ({"piece_types": TypeTable(fortress=TypeSpec(-12, 5, 0))}, r"fortress\.cost"),
        ({"piece_types": TypeTable(army=TypeSpec(3, -2, 1))}, r"army\.strength"),
        ({"piece_types": TypeTable(army=TypeSpec(3, 2, -1))}, r"army\.move"),
        ({"piece_types": TypeTable(fortress=TypeSpec(12, 5, 1))}, r"fortress\.move"),  # R2
        ({"trait_costs": TraitCosts(invisible=-5)}, "invisible"),
        ({"trait_costs": TraitCosts(teleporter=-10)}, "teleporter"),
        ({"trait_costs": TraitCosts(chief=-1)}, "chief"),
        # R3 budget
        ({"budget": -1}, "budget"),
        ({"budget": 1}, "budget"),  # cannot buy even the cheapest chief (hovercraft, 2)
        ({"credits_per_100": -12}, "credits_per_100"),
        # R5
        ({"teleport_field": 0}, "teleport_field"),
        # bad literals
        ({"teleport_network": "mine"}, "teleport_network"),
        ({"defence_counts": "everyone"}, "defence_counts"),
        ({"timers": "yes"}, "timers"),
        ({"zones": "no"}, "zones"),
        # R7, R10
        ({"time_credit": 0}, "time_credit"),
        ({"time_total": -250}, "time_total"),
        ({"max_turns": 0}, "max_turns"),
        # R3 zones that do not fit (1×2×2: two zones cannot be two cells apart)
        ({"shape": (1, 2, 2), "players": 2, "budget": 10}, "zones"),
        ({"shape": (8, 4, 4), "players": 10, "budget": 10}, "zones"),
    ],
)
def test_r1_to_r10_invalid_option_raises_rules_error_naming_it(options, named):
    with pytest.raises(RulesError, match=named):
        Rules(**options)


def test_r3_zones_off_allows_boards_too_small_for_zones():
    # the 1×2×2 board refused with zones is fine without them (R3: zones is a rule option)
    rules = Rules(shape=(1, 2, 2), players=2, budget=10, zones=False)
    assert rules.home_zones is None


def test_r1_smallest_legal_board_is_accepted():
    # R1: any P >= 1, N >= 2 is legal
    assert Rules(shape=(1, 2, 2), players=2, budget=10, zones=False).shape == (1, 2, 2)


def test_r3_rules_validated_again_on_replace():
    rules = Rules()
    with pytest.raises(RulesError, match="players"):
        dataclasses.replace(rules, players=11)
    assert dataclasses.replace(rules, players=2).army_budget == 122


def test_r3_rules_error_is_a_value_error():
    with pytest.raises(ValueError):
        Rules(players=1)


def test_r3_all_problems_are_named_at_once():
    with pytest.raises(RulesError) as info:
        Rules(players=11, teleport_field=0)
    assert "players" in str(info.value)
    assert "teleport_field" in str(info.value)


# == R3 home zones =================================================================================


@pytest.mark.parametrize("players", range(2, 11))
def test_r3_home_zones_on_default_board(players):
    zones = home_zones(DEFAULT_SHAPE, players)
    assert zones is not None
    assert len(zones) == players
    # inside the board, non-empty boxes
    for zone in zones:
        for lo, hi, size in zip(zone.lo, zone.hi, DEFAULT_SHAPE, strict=True):
            assert 0 <= lo < hi <= size
    # equal volume
    volumes = {math.prod(h - lo for lo, h in zip(z.lo, z.hi, strict=True)) for z in zones}
    assert len(volumes) == 1
    # disjoint: marking each zone on a grid never marks a cell twice
    marks = np.zeros(DEFAULT_SHAPE, dtype=int)
    for zone in zones:
        marks[tuple(slice(lo, hi) for lo, hi in zip(zone.lo, zone.hi, strict=True))] += 1
    assert marks.max() == 1
    assert marks.sum() == players * volumes.pop()
    # at least two cells apart: no cell of one zone is within radius 1 of a cell of another
    for a, b in itertools.combinations(zones, 2):
        assert box_gap(a, b) >= 2, (a, b)
    # deterministic: same (P, N, n) gives the same zones, through every door
    assert home_zones(DEFAULT_SHAPE, players) == zones
    assert Rules(players=players).home_zones == zones
    game_a = Game(Rules(players=players), seed=1)
    game_b = Game(Rules(players=players), seed=2)
    assert [game_a.zone(p) for p in range(players)] == zones
    assert [game_b.zone(p) for p in range(players)] == zones


@pytest.mark.parametrize("players", range(2, 11))
def test_r3_home_zones_no_seat_favoured_nearest_enemy_distance(players):
    """R3: the zones are "spread so that no seat is favoured".

    Measured here by how far each seat's nearest enemy zone is (Chebyshev distance between the
    nearest cells, the number of moves before first contact). Allowing one cell for rounding,
    every seat must have the same. A seat whose nearest enemy is 5 cells away while another's
    is 2 away has more time to build up before first contact.
    """
    zones = home_zones(DEFAULT_SHAPE, players)
    nearest = [
        min(box_gap(zones[i], zones[j]) for j in range(players) if j != i) for i in range(players)
    ]
    assert max(nearest) - min(nearest) <= 1, nearest


def _check_zones(shape, players, zones) -> list[int]:
    """Zones inside the board, equal, disjoint and two cells apart; each seat's nearest gap."""
    assert len(zones) == players
    volumes = {z.volume for z in zones}
    assert len(volumes) == 1
    for zone in zones:
        assert all(0 <= lo < hi <= n for lo, hi, n in zip(zone.lo, zone.hi, shape, strict=True))
    for a, b in itertools.combinations(zones, 2):
        assert box_gap(a, b) >= 2, (a, b)
    return [min(box_gap(z, o) for o in zones if o is not z) for z in zones]


GRID_P = (1, 2, 4, 8, 16)
GRID_N = range(4, 49)


@pytest.mark.parametrize("depth", GRID_P)
def test_r3_no_seat_favoured_on_every_board_of_the_grid(depth):
    # R3: for every number of players 2–10 and every board the rules accept, each seat's
    # nearest enemy zone is equally far. (The rule allows one cell where the board makes
    # equality impossible; the zones computed here are exactly equal on every board of the
    # grid, and this asserts it.) A board without room is refused, naming the zones option.
    refused = 0
    for n, players in itertools.product(GRID_N, range(2, 11)):
        shape = (depth, n, n)
        zones = home_zones(shape, players)
        if zones is None:
            refused += 1
            with pytest.raises(RulesError, match=r"no room for the home zones .*zones=false"):
                Rules(shape=shape, players=players, budget=100)
            continue
        nearest = _check_zones(shape, players, zones)
        assert min(nearest) == max(nearest), (shape, players, nearest)
        assert Rules(shape=shape, players=players, budget=100).home_zones == zones
    assert refused < 20  # only the smallest boards for many players


@pytest.mark.parametrize("players", range(2, 11))
def test_r3_boards_below_the_smallest_with_room_are_refused_with_a_message(players):
    # R1, R3: with zones on, a board without room for the home zones is refused with a message
    # that says so, names the smallest N with room and the zones option; with zones off, every
    # P >= 1, N >= 2 board is legal
    from antipolix.armies import smallest_board_with_zones

    smallest = smallest_board_with_zones(players)
    assert home_zones((1, smallest, smallest), players) is not None
    for n in range(2, smallest):
        assert home_zones((1, n, n), players) is None
        with pytest.raises(RulesError) as info:
            Rules(shape=(1, n, n), players=players, budget=100)
        text = str(info.value)
        assert f"a 1×{n}×{n} board has no room for the home zones of {players} players" in text
        assert f"the smallest board with room has N = {smallest}" in text
        assert "zones=false" in text
        for depth in (1, 2, 5):
            assert Rules(shape=(depth, n, n), players=players, budget=100, zones=False)


def test_r3_a_budget_too_small_for_a_chief_names_the_budget_option():
    # R3: the derived budget of a tiny board cannot buy a chief: the message shows the formula
    # and names the option that fixes it
    with pytest.raises(RulesError) as info:
        Rules(shape=(1, 3, 3), players=2, zones=False)
    text = str(info.value)
    assert "the budget of 0 cannot buy a chief (the cheapest costs 2, R3)" in text
    assert "floor(12 × 9 / 100 / 2) = 0" in text and "budget=2 or more" in text
    assert Rules(shape=(1, 3, 3), players=2, zones=False, budget=2).army_budget == 2


def test_r3_home_zones_two_players_opposite_corners():
    zones = home_zones(DEFAULT_SHAPE, 2)
    corners = [footprint_corners(z, 16) for z in zones]
    assert all(len(c) == 1 for c in corners)
    (y0, x0), (y1, x1) = corners[0].pop(), corners[1].pop()
    assert (y1, x1) == (15 - y0, 15 - x0)  # diagonally opposite corners of the plane


def test_r3_home_zones_four_players_four_corners():
    zones = home_zones(DEFAULT_SHAPE, 4)
    corners = [footprint_corners(z, 16) for z in zones]
    assert all(len(c) == 1 for c in corners)
    assert set().union(*corners) == {(0, 0), (0, 15), (15, 0), (15, 15)}


def test_r3_home_zones_small_board_layout_of_the_docstring():
    game = Game(small_rules(), seed=0)
    z0, z1 = game.zone(0), game.zone(1)
    assert footprint_corners(z0, 8) == {(0, 0)}
    assert footprint_corners(z1, 8) == {(7, 7)}
    for z in range(2):
        assert in_box(z0, (z, 0, 0)) and in_box(z1, (z, 7, 7))
        assert not in_box(z0, (z, 4, 4)) and not in_box(z1, (z, 4, 4))
        # Zone.__contains__ agrees with the bounds
        assert (z, 0, 0) in z0 and (z, 4, 4) not in z0 and (z, 7, 7) not in z0


def test_r3_no_zones_without_zones_option():
    game = Game(small_rules(zones=False), seed=0)
    assert game.zone(0) is None and game.zone(1) is None


# == R3 placement: accepted calls ==================================================================


def test_r3_explicit_placement_in_zone_and_any_free_cell_without_zones():
    game = Game(small_rules(), seed=0)
    a = game.place(0, A, CHIEF, (1, 2, 2))  # the corner of zone 0 nearest the centre
    assert game.piece(a).cell == (1, 2, 2)
    assert (game.piece(a).owner, game.piece(a).type, game.piece(a).trait) == (0, A, CHIEF)
    # zones off: player 0 may use the centre and player 1's corner
    free = Game(small_rules(zones=False), seed=0)
    free.place(0, A, CHIEF, (0, 4, 4))
    free.place(0, H, NONE, (0, 7, 7))
    free.place(1, A, CHIEF, (1, 0, 0))
    free.start()
    assert {p.cell for p in free.pieces()} == {(0, 4, 4), (0, 7, 7), (1, 0, 0)}


def test_r3_army_costing_exactly_the_budget_is_accepted():
    # budget 20 = fortress chief 12 + army invisible 3 + 5
    game = Game(small_rules(), seed=0)
    ids = game.place_army(0, [(F, CHIEF), (A, INV)])
    assert len(ids) == 2
    with pytest.raises(OverBudgetError):  # 20 spent: even the cheapest piece (2) is too much
        game.place(0, H, NONE)


@pytest.mark.parametrize("seed", range(5))
def test_r3_random_placement_lands_in_the_zone_on_distinct_cells(seed):
    game = Game(small_rules(), seed=seed)
    army = [(A, CHIEF), (H, NONE), (H, NONE), (H, INV)]  # 3 + 2 + 2 + 7 = 14
    ids0 = game.place_army(0, army)
    ids1 = [game.place(1, A, CHIEF), game.place(1, H, NONE), game.place(1, A, NONE)]
    game.start()
    cells0 = [game.piece(i).cell for i in ids0]
    cells1 = [game.piece(i).cell for i in ids1]
    assert all(in_box(game.zone(0), c) for c in cells0)
    assert all(in_box(game.zone(1), c) for c in cells1)
    assert len(set(cells0 + cells1)) == 7


def test_r3_random_placement_fills_a_zone_using_only_free_cells():
    # zone 0 has 2·3·3 = 18 cells: 18 random placements must cover it exactly
    game = Game(small_rules(budget=100), seed=4)
    zone = game.zone(0)
    game.place(0, A, CHIEF, (0, 1, 1))  # one explicit cell first, in the middle of the zone
    for _ in range(17):
        game.place(0, H, NONE)  # 3 + 17·2 = 37 <= 100
    cells = {p.cell for p in game.pieces(0)}
    assert len(cells) == 18
    assert cells == {
        (z, y, x)
        for z, y, x in itertools.product(range(2), range(8), range(8))
        if in_box(zone, (z, y, x))
    }
    with pytest.raises(PlacementError):  # the zone is full
        game.place(0, H, NONE)


def test_r3_random_placement_without_zones_uses_free_board_cells():
    # 1×2×2 board: four cells, four random placements must use each once
    game = Game(Rules(shape=(1, 2, 2), players=2, budget=10, zones=False), seed=9)
    game.place(0, A, CHIEF)
    game.place(0, H, NONE)
    game.place(1, A, CHIEF)
    game.place(1, H, NONE)
    game.start()
    assert {p.cell for p in game.pieces()} == {(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)}


def _random_layout(seed: int) -> list[tuple]:
    game = Game(small_rules(), seed=seed)
    game.place_army(0, [(A, CHIEF), (H, NONE), (H, NONE), (A, NONE)])
    game.place(1, H, CHIEF)
    game.place(1, A, NONE)
    game.place(1, A, NONE)
    return snapshot(game)


def test_r3_r12_random_placement_is_deterministic_per_seed():
    assert _random_layout(11) == _random_layout(11)
    assert _random_layout(0) == _random_layout(0)
    # and the seed matters: 7 pieces on 18-cell zones, six seeds all alike would be no randomness
    layouts = {tuple(_random_layout(s)) for s in range(6)}
    assert len(layouts) > 1


# == R3 placement: refused calls, and nothing changed ==============================================

# Preamble, common to the refused-call tests: player 0 has a chief on (0,0,0) (cost 3) and a
# random army (cost 3), so 6 of its 20 points are spent. Player 1 has placed nothing.


def _preamble(game: Game) -> None:
    game.place(0, A, CHIEF, (0, 0, 0))
    game.place(0, A, NONE)


def _continuation(game: Game) -> list[tuple]:
    """Valid placements after the preamble; the budget arithmetic checks the spent points."""
    game.place(0, H, NONE)  # random, 6 + 2 = 8
    game.place(0, F, NONE)  # random, 8 + 12 = 20: fits only if exactly 8 were spent
    with pytest.raises(OverBudgetError):  # and 20 were spent now
        game.place(0, H, NONE)
    game.place(1, A, INV, (1, 7, 7))  # explicit, 8
    game.place(1, A, CHIEF)  # random, 8 + 3 = 11
    game.place(1, H, NONE)  # random, 13
    game.place(1, H, INV)  # random, 13 + 7 = 20 exactly
    with pytest.raises(OverBudgetError):
        game.place(1, H, NONE)
    game.start()
    return snapshot(game)


REFUSED_AFTER_PREAMBLE = [
    # R3 budget: 6 + fortress invisible 17 = 23 > 20
    ("over_budget", lambda g: g.place(0, F, INV, (1, 1, 1)), OverBudgetError),
    ("over_budget_random", lambda g: g.place(0, F, INV), OverBudgetError),
    # R2/R3: a second chief
    ("second_chief", lambda g: g.place(0, H, CHIEF, (1, 1, 1)), ChiefError),
    ("second_chief_random", lambda g: g.place(0, H, CHIEF), ChiefError),
    # R1/R3: one piece per cell
    ("occupied", lambda g: g.place(0, H, NONE, (0, 0, 0)), OccupiedCellError),
    # R3 zones: the centre, and the other player's corner
    ("outside_zone_centre", lambda g: g.place(0, H, NONE, (0, 4, 4)), OutsideZoneError),
    ("outside_zone_enemy", lambda g: g.place(0, H, NONE, (0, 7, 7)), OutsideZoneError),
    ("outside_zone_p1", lambda g: g.place(1, H, CHIEF, (1, 4, 4)), OutsideZoneError),
    # R1: off the board / not a cell
    ("off_board", lambda g: g.place(0, H, NONE, (2, 0, 0)), OffBoardError),
    ("off_board_negative", lambda g: g.place(0, H, NONE, (0, -1, 0)), OffBoardError),
    ("malformed_cell", lambda g: g.place(0, H, NONE, (0, 0)), OffBoardError),
    ("unknown_type", lambda g: g.place(0, 9, NONE, (1, 1, 1)), PlacementError),
    # place_army for player 1: invalid armies, nothing placed
    ("army_two_chiefs", lambda g: g.place_army(1, [(A, CHIEF), (H, CHIEF)]), ChiefError),
    ("army_no_chief", lambda g: g.place_army(1, [(A, NONE), (H, NONE)]), ChiefError),
    ("army_over_budget", lambda g: g.place_army(1, [(F, CHIEF), (F, NONE)]), OverBudgetError),
    (
        "army_second_cell_outside_zone",
        lambda g: g.place_army(1, [(A, CHIEF), (A, NONE)], cells=[(0, 5, 5), (0, 4, 4)]),
        OutsideZoneError,
    ),
    (
        "army_second_cell_off_board",
        lambda g: g.place_army(1, [(A, CHIEF), (A, NONE)], cells=[(0, 5, 5), (2, 5, 5)]),
        OffBoardError,
    ),
    (
        "army_same_cell_twice",
        lambda g: g.place_army(1, [(A, CHIEF), (A, NONE)], cells=[(0, 5, 5), (0, 5, 5)]),
        OccupiedCellError,
    ),
    (
        "army_cells_count_mismatch",
        lambda g: g.place_army(1, [(A, CHIEF), (A, NONE)], cells=[(0, 5, 5)]),
        PlacementError,
    ),
]


@pytest.mark.parametrize(
    ("bad_call", "error"),
    [pytest.param(call, err, id=name) for name, call, err in REFUSED_AFTER_PREAMBLE],
)
@pytest.mark.parametrize("seed", [3, 8])
def test_r3_refused_placement_changes_nothing(bad_call, error, seed):
    refused = Game(small_rules(), seed=seed)
    clean = Game(small_rules(), seed=seed)
    _preamble(refused)
    _preamble(clean)
    with pytest.raises(error):
        bad_call(refused)
    # same pieces right after the refusal
    assert snapshot(refused) == snapshot(clean)
    assert refused.pieces(1) == []
    # the same later placements give the same result: same spent budget (the exact-fit
    # placements in _continuation), same seat order, same random placement stream
    assert _continuation(refused) == _continuation(clean)


def test_r3_invalid_army_error_names_the_player():
    game = Game(small_rules(), seed=0)
    _preamble(game)
    with pytest.raises(ChiefError, match="player 1"):
        game.place_army(1, [(A, NONE)])
    with pytest.raises(ChiefError, match="player 1"):
        game.place_army(1, [(A, CHIEF), (A, CHIEF)])
    with pytest.raises(OverBudgetError, match="player 1"):
        game.place_army(1, [(F, CHIEF), (F, NONE)])
    with pytest.raises(OverBudgetError, match="player 0"):
        game.place(0, F, INV)
    assert game.pieces(1) == []


def test_r3_second_chief_refused_after_place_army():
    game = Game(small_rules(), seed=0)
    game.place_army(0, [(A, CHIEF)])
    with pytest.raises(ChiefError):
        game.place(0, H, CHIEF)
    assert [p.trait for p in game.pieces(0)] == [CHIEF]


# Seat order: once player 1 has placed, player 0 may not place again.


def _seat_preamble(game: Game) -> None:
    _preamble(game)
    game.place(1, A, CHIEF, (0, 7, 7))


def _seat_continuation(game: Game) -> list[tuple]:
    game.place(1, H, NONE)  # random
    game.place(1, H, INV)  # random, 3 + 2 + 7 = 12
    game.place(1, A, INV)  # random, 12 + 8 = 20 exactly
    game.start()
    return snapshot(game)


SEAT_ORDER_REFUSALS = [
    ("explicit", lambda g: g.place(0, H, NONE, (1, 1, 1))),
    ("random", lambda g: g.place(0, H, NONE)),
    ("army", lambda g: g.place_army(0, [(H, NONE)])),
]


@pytest.mark.parametrize(
    "bad_call", [pytest.param(call, id=name) for name, call in SEAT_ORDER_REFUSALS]
)
def test_r3_placement_in_seat_order(bad_call):
    refused = Game(small_rules(), seed=5)
    clean = Game(small_rules(), seed=5)
    _seat_preamble(refused)
    _seat_preamble(clean)
    with pytest.raises(PlacementError):
        bad_call(refused)
    assert snapshot(refused) == snapshot(clean)
    assert _seat_continuation(refused) == _seat_continuation(clean)


# start() checks every army (R3): exactly one chief each.


def test_r3_start_refuses_a_player_without_chief_then_works_once_fixed():
    def setup(game: Game) -> None:
        game.place(0, A, CHIEF, (0, 0, 0))
        game.place(1, A, NONE, (0, 7, 7))

    refused = Game(small_rules(), seed=2)
    clean = Game(small_rules(), seed=2)
    setup(refused)
    setup(clean)
    with pytest.raises(ChiefError, match="player 1"):
        refused.start()
    assert snapshot(refused) == snapshot(clean)
    # still in placement: player 1 adds its chief, and both games go on alike
    for game in (refused, clean):
        game.place(1, H, CHIEF)  # random
        game.start()
    assert snapshot(refused) == snapshot(clean)
    assert refused.phase.value == "play"


def test_r3_start_refuses_first_seat_without_chief():
    game = Game(small_rules(), seed=0)
    game.place(0, A, NONE, (0, 0, 0))
    game.place(1, A, CHIEF, (0, 7, 7))
    with pytest.raises(ChiefError, match="player 0"):
        game.start()
    assert game.phase.value == "placement"


def test_r3_start_refuses_a_player_with_no_pieces():
    game = Game(small_rules(), seed=0)
    game.place(0, A, CHIEF, (0, 0, 0))
    with pytest.raises(ChiefError, match="player 1"):
        game.start()
