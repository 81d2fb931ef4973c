"""R8 Combat: powers, outcomes and the chief rules, hand-traced on small boards.

Boards are drawn one layer at a time, rows ``y`` top to bottom, columns ``x`` left to right.
Capital letters are chiefs; the digit after a name is the owner (``a0`` is player 0's piece);
a name in brackets, like ``[i1]``, is an invisible piece.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from antipolix import Attack, Game, Move, Outcome, Pass, PieceType, Rules, Trait
from antipolix.combat import draw_outcome, outcome_distribution
from antipolix.events import Combat, Eliminated, Fate, Rejected
from tests.positions import make_game, of_kind

ARMY, HOVER, FORT = PieceType.ARMY, PieceType.HOVERCRAFT, PieceType.FORTRESS
NONE, INVIS, TELE, CHIEF = Trait.NONE, Trait.INVISIBLE, Trait.TELEPORTER, Trait.CHIEF
DESTROY_ONLY = {"p_destroy": 1, "p_teleport": 0, "p_convert": 0}
TELEPORT_ONLY = {"p_destroy": 0, "p_teleport": 1, "p_convert": 0}
CONVERT_ONLY = {"p_destroy": 0, "p_teleport": 0, "p_convert": 1}


def board_state(game, ids):
    return [game.piece(i) for i in ids]


def chiefs_of(game, player):
    return [p.id for p in game.pieces(player) if p.trait is CHIEF]


# -- powers and the strict comparison -------------------------------------------------------------


def _fortress_target_position(**options):
    # Target F1, player 1's fortress: defence 5 (its own strength; its neighbours are all
    # player 0's). a0 2 + b0 2 + h0 1 = 5; with g0 (1) 6. z0 is far away (out of reach).
    #   x: 0   1   2   3   4
    #   A0 .   .   .   .         y=0
    #   .  a0  b0  h0  .         y=1
    #   .  g0  F1  .   .         y=2   F1: fortress (not a chief)
    #   .  .   .   .   .         y=3
    #   z0 .   .   .   B1        y=4
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (0, ARMY, NONE, (0, 1, 2)),
            (0, HOVER, NONE, (0, 1, 3)),
            (0, HOVER, NONE, (0, 2, 1)),
            (0, ARMY, NONE, (0, 4, 0)),
            (1, ARMY, CHIEF, (0, 4, 4)),
            (1, FORT, NONE, (0, 2, 2)),
        ],
        **options,
    )


def test_r8_attack_power_is_sum_of_strengths():
    # R8: attack power = 2 + 2 + 1 = 5; z0 cannot reach and is dropped, adding nothing.
    game, (_, a0, b0, h0, g0, z0, _, f1) = _fortress_target_position()
    assert game.attack_power([a0, b0, h0]) == 5
    report = game.play_turn({0: Attack([a0, b0, h0, z0], (0, 2, 2)), 1: Pass()})
    (combat,) = of_kind(report.events, Combat)
    assert combat.pieces == tuple(sorted((a0, b0, h0)))  # in identifier order (R6)
    assert [pid for pid, _ in combat.dropped] == [z0]
    assert combat.attack == 5
    assert combat.defence == 5  # a fortress alone defends with 5


def test_r8_equal_powers_fail_and_change_nothing():
    # R8: 5 against 5 is not strictly more: no draw, nothing changes.
    game, ids = _fortress_target_position(**DESTROY_ONLY)
    _, a0, b0, h0, _, _, _, f1 = ids
    before = board_state(game, ids)
    report = game.play_turn({0: Attack([a0, b0, h0], (0, 2, 2)), 1: Pass()})
    (combat,) = of_kind(report.events, Combat)
    assert (combat.attack, combat.defence, combat.success) == (5, 5, False)
    assert not of_kind(report.events, Fate)
    assert board_state(game, ids) == before
    assert game.living == (0, 1)


def test_r8_one_more_succeeds_and_attackers_stay():
    # R8: 6 against 5 succeeds; with p_destroy=1 F1 is destroyed. Attackers never move.
    game, ids = _fortress_target_position(**DESTROY_ONLY)
    _, a0, b0, h0, g0, _, _, f1 = ids
    cells = {pid: game.piece(pid).cell for pid in (a0, b0, h0, g0)}
    report = game.play_turn({0: Attack([a0, b0, h0, g0], (0, 2, 2)), 1: Pass()})
    (combat,) = of_kind(report.events, Combat)
    assert (combat.attack, combat.defence, combat.success) == (6, 5, True)
    (fate,) = of_kind(report.events, Fate)
    assert fate.outcome is Outcome.DESTROY and fate.destroyed and fate.target == f1
    assert not game.piece(f1).alive
    assert {pid: game.piece(pid).cell for pid in cells} == cells
    assert game.living == (0, 1)  # F1 was not the chief


def _mixed_neighbours_position(**options):
    # Target t1 (army 2). Within radius 1: n1 (player 1's hovercraft, 1), c2 (player 2's army,
    # 2) and the attackers a0, b0 (armies, 2 each). Chiefs are at distance >= 2 from t1.
    #   x: 0   1   2   3   4
    #   A0 .   .   .   .         y=0
    #   .  a0  t1  c2  .         y=1
    #   .  b0  n1  .   .         y=2
    #   .  .   .   .   .         y=3
    #   C2 .   .   .   B1        y=4
    # owner: 2 + 1 = 3;  all: 2 + 1 + 2 + 2 + 2 = 9
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (0, ARMY, NONE, (0, 2, 1)),
            (1, ARMY, CHIEF, (0, 4, 4)),
            (1, ARMY, NONE, (0, 1, 2)),
            (1, HOVER, NONE, (0, 2, 2)),
            (2, ARMY, CHIEF, (0, 4, 0)),
            (2, ARMY, NONE, (0, 1, 3)),
        ],
        players=3,
        **DESTROY_ONLY,
        **options,
    )


def test_r8_defence_counts_owner_only():
    # R8 default: only the target's owner's neighbours count (not c2, not the attackers):
    # defence 3, attack 4 > 3 succeeds.
    game, (_, a0, b0, _, t1, n1, _, c2) = _mixed_neighbours_position()
    assert game.rules.defence_counts == "owner"
    assert game.defence_power((0, 1, 2)) == 3
    report = game.play_turn({0: Attack([a0, b0], (0, 1, 2)), 1: Pass(), 2: Pass()})
    (combat,) = of_kind(report.events, Combat)
    assert (combat.attack, combat.defence, combat.success) == (4, 3, True)
    assert not game.piece(t1).alive


def test_r8_defence_counts_all_neighbours_with_option():
    # R8 defence_counts="all": every piece within radius 1, attackers included: defence 9,
    # so the same attack of 4 fails and changes nothing.
    game, ids = _mixed_neighbours_position(defence_counts="all")
    _, a0, b0, _, t1, n1, _, c2 = ids
    assert game.defence_power((0, 1, 2)) == 9
    before = board_state(game, ids)
    report = game.play_turn({0: Attack([a0, b0], (0, 1, 2)), 1: Pass(), 2: Pass()})
    (combat,) = of_kind(report.events, Combat)
    assert (combat.attack, combat.defence, combat.success) == (4, 9, False)
    assert board_state(game, ids) == before


def _fortress_defender_position():
    # Target t1 (army 2) with player 1's fortress f1 (5) next to it: defence 7.
    # Player 0 has a fortress f0 next to t1 too, and armies a0, b0, c0 (6 in all).
    #   x: 0   1   2   3   4
    #   A0 .   .   .   .         y=0
    #   .  a0  t1  f1  .         y=1
    #   .  b0  c0  f0  .         y=2
    #   .  .   .   .   .         y=3
    #   .  .   .   .   B1        y=4
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (0, ARMY, NONE, (0, 2, 1)),
            (0, ARMY, NONE, (0, 2, 2)),
            (0, FORT, NONE, (0, 2, 3)),
            (1, ARMY, CHIEF, (0, 4, 4)),
            (1, ARMY, NONE, (0, 1, 2)),
            (1, FORT, NONE, (0, 1, 3)),
        ],
        **DESTROY_ONLY,
    )


def test_r8_fortress_defends_with_strength_five():
    # R2, R8: defence of t1 = 2 + f1 5 = 7 (f0 is player 0's: not counted). 6 < 7 fails.
    game, (_, a0, b0, c0, f0, _, t1, f1) = _fortress_defender_position()
    assert game.defence_power((0, 1, 2)) == 7
    report = game.play_turn({0: Attack([a0, b0, c0], (0, 1, 2)), 1: Pass()})
    (combat,) = of_kind(report.events, Combat)
    assert (combat.attack, combat.defence, combat.success) == (6, 7, False)
    assert game.piece(t1).alive and game.piece(t1).owner == 1


def test_r8_fortress_cannot_attack():
    # R2, R4, R8: f0 next to t1 is dropped from the attack and adds nothing: 6, not 11.
    game, (_, a0, b0, c0, f0, _, t1, f1) = _fortress_defender_position()
    assert game.attack_power([a0, b0, c0, f0]) == 6
    report = game.play_turn({0: Attack([f0, a0, b0, c0], (0, 1, 2)), 1: Pass()})
    (combat,) = of_kind(report.events, Combat)
    assert combat.pieces == (a0, b0, c0)
    assert [pid for pid, _ in combat.dropped] == [f0]
    assert (combat.attack, combat.success) == (6, False)
    assert game.piece(t1).alive


def test_r8_fortress_alone_cannot_attack():
    # R4, R8: an attack by a fortress alone has no valid attacker: rejected, no combat.
    game, (_, _, _, _, f0, _, t1, _) = _fortress_defender_position()
    report = game.play_turn({0: Attack([f0], (0, 1, 2)), 1: Pass()})
    (rejected,) = of_kind(report.events, Rejected)
    assert rejected.player == 0
    assert not of_kind(report.events, Combat)


@pytest.mark.parametrize(("counts", "defence"), [("owner", 3), ("all", 7)])
def test_r8_invisible_neighbours_count_for_defence(counts, defence):
    # R6, R8: [i1] (player 1, army 2) and [j2] (player 2, army 2) are invisible neighbours of
    # t1 (hovercraft 1). owner: 1 + 2 = 3; all: 1 + 2 + 2 + a0 2 = 7.
    #   A0 .   .    .   B1
    #   .  a0  t1  [i1] .
    #   .  .  [j2]  .   .
    #   .  .   .    .   .
    #   C2 .   .    .   .
    game, (_, a0, _, t1, i1, _, j2) = make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 1, 1)),
            (1, ARMY, CHIEF, (0, 0, 4)),
            (1, HOVER, NONE, (0, 1, 2)),
            (1, ARMY, INVIS, (0, 1, 3)),
            (2, ARMY, CHIEF, (0, 4, 0)),
            (2, ARMY, INVIS, (0, 2, 2)),
        ],
        players=3,
        defence_counts=counts,
        **DESTROY_ONLY,
    )
    report = game.play_turn({0: Attack([a0], (0, 1, 2)), 1: Pass(), 2: Pass()})
    (combat,) = of_kind(report.events, Combat)
    assert (combat.attack, combat.defence, combat.success) == (2, defence, False)
    assert game.piece(t1).alive


# -- the chance outcome of a successful attack ----------------------------------------------------


def test_r8_outcome_distribution_lists_rule_probabilities():
    # R8: 40 % destroy, 30 % teleport, 30 % convert by default; the numbers are rule options.
    assert outcome_distribution(Rules()) == (
        (Outcome.DESTROY, 0.4),
        (Outcome.TELEPORT, 0.3),
        (Outcome.CONVERT, 0.3),
    )
    custom = Rules(p_destroy=0.5, p_teleport=0.2, p_convert=0.3)
    assert dict(outcome_distribution(custom)) == {
        Outcome.DESTROY: 0.5,
        Outcome.TELEPORT: 0.2,
        Outcome.CONVERT: 0.3,
    }


def within_five_se(counts, n, probs):
    """Each observed frequency within 5 standard errors sqrt(p(1-p)/n) of its probability.

    With n = 100_000 and p = 0.3 the tolerance is 5 * 0.00145 = 0.0072; with n = 2000 and
    p = 0.4 it is 5 * 0.011 = 0.055. A correct engine fails this less than once in 10^5 runs
    per frequency (normal approximation); every test here is seeded, hence reproducible.
    """
    out = {}
    for outcome, p in probs.items():
        freq = counts.get(outcome, 0) / n
        tol = 5 * math.sqrt(p * (1 - p) / n)
        out[outcome] = (freq, p, tol, abs(freq - p) <= tol if p > 0 else freq == 0)
    return out


@pytest.mark.parametrize(
    "probs",
    [(0.4, 0.3, 0.3), (0.5, 0.2, 0.3), (0.0, 0.25, 0.75)],
    ids=["default", "custom", "no-destroy"],
)
def test_r8_draw_outcome_frequencies(probs):
    # R8 (a): 100_000 draws of draw_outcome; each frequency within 5 standard errors.
    p_destroy, p_teleport, p_convert = probs
    rules = Rules(p_destroy=p_destroy, p_teleport=p_teleport, p_convert=p_convert)
    distribution = outcome_distribution(rules)
    rng = np.random.Generator(np.random.PCG64(12345))
    n = 100_000
    counts: Counter[Outcome] = Counter()
    for _ in range(n):
        outcome, _ = draw_outcome(distribution, rng)
        counts[outcome] += 1
    expected = {
        Outcome.DESTROY: p_destroy,
        Outcome.TELEPORT: p_teleport,
        Outcome.CONVERT: p_convert,
    }
    checks = within_five_se(counts, n, expected)
    assert all(ok for *_, ok in checks.values()), checks


def test_r8_draw_outcome_is_one_uniform_draw_over_cumulative_probabilities():
    # R8: "one uniform draw decides": u in [0, 1), and the outcome is the band of u in
    # [0, 0.4) destroy, [0.4, 0.7) teleport, [0.7, 1) convert (the listed order).
    distribution = outcome_distribution(Rules())
    rng = np.random.Generator(np.random.PCG64(7))
    for _ in range(2000):
        outcome, u = draw_outcome(distribution, rng)
        assert 0.0 <= u < 1.0
        band = Outcome.DESTROY if u < 0.4 else Outcome.TELEPORT if u < 0.7 else Outcome.CONVERT
        assert outcome is band


def _one_attack_game(seed, rules):
    # a0 (2) attacks t1 (hovercraft, 1) alone: always a success, so always a Fate draw.
    #   A0 .   .   .   .
    #   .  a0  t1  .   .
    #   .  .   .   .   .
    #   .  .   .   .   .
    #   .  .   .   .   B1
    game = Game(rules, seed=seed)
    game.place(0, ARMY, CHIEF, (0, 0, 0))
    a0 = game.place(0, ARMY, NONE, (0, 1, 1))
    game.place(1, ARMY, CHIEF, (0, 4, 4))
    t1 = game.place(1, HOVER, NONE, (0, 1, 2))
    game.start()
    report = game.play_turn({0: Attack([a0], (0, 1, 2)), 1: Pass()})
    return game, t1, report


def _engine_outcome_counts(n, probs):
    p_destroy, p_teleport, p_convert = probs
    rules = Rules(
        shape=(1, 5, 5),
        players=2,
        zones=False,
        budget=1000,
        timers=False,
        p_destroy=p_destroy,
        p_teleport=p_teleport,
        p_convert=p_convert,
    )
    occupied_by_others = {(0, 0, 0), (0, 1, 1), (0, 4, 4)}
    counts: Counter[Outcome] = Counter()
    for seed in range(n):
        game, t1, report = _one_attack_game(seed, rules)
        (fate,) = of_kind(report.events, Fate)
        counts[fate.outcome] += 1
        piece = game.piece(t1)
        # what the board shows must match the recorded outcome
        if fate.outcome is Outcome.DESTROY:
            assert not piece.alive and fate.destroyed and fate.landing is None
        elif fate.outcome is Outcome.CONVERT:
            assert piece.alive and piece.owner == 0 and piece.cell == (0, 1, 2)
            assert not fate.destroyed and fate.landing is None
        else:
            assert fate.landing is not None
            assert fate.destroyed is (not piece.alive)
            if fate.landing in occupied_by_others:
                assert not piece.alive
            elif fate.landing != (0, 1, 2):
                assert piece.alive and piece.cell == fate.landing and piece.owner == 1
    return counts


@pytest.mark.parametrize("probs", [(0.4, 0.3, 0.3), (0.5, 0.2, 0.3)], ids=["default", "custom"])
def test_r8_engine_outcome_frequencies(probs):
    # R8 (b): n = 2000 seeded one-attack games through the engine; each outcome frequency
    # within 5 standard errors sqrt(p(1-p)/n) (0.055 at p = 0.4, 0.045 at p = 0.2).
    n = 2000
    counts = _engine_outcome_counts(n, probs)
    expected = dict(zip((Outcome.DESTROY, Outcome.TELEPORT, Outcome.CONVERT), probs, strict=True))
    checks = within_five_se(counts, n, expected)
    assert all(ok for *_, ok in checks.values()), checks


@pytest.mark.slow
def test_r8_engine_outcome_frequencies_many_games():
    # R8 (b), slow: n = 30_000 games, tolerance 5 * sqrt(0.24 / 30_000) = 0.014 at p = 0.4.
    n = 30_000
    probs = (0.4, 0.3, 0.3)
    counts = _engine_outcome_counts(n, probs)
    expected = dict(zip((Outcome.DESTROY, Outcome.TELEPORT, Outcome.CONVERT), probs, strict=True))
    checks = within_five_se(counts, n, expected)
    assert all(ok for *_, ok in checks.values()), checks


# -- teleportation --------------------------------------------------------------------------------


def test_r8_teleport_lands_on_free_cell_or_destroys():
    # R8 (p_teleport=1): the target goes to a uniformly random cell of the universe; if that
    # cell is occupied it is destroyed instead. Board 2×3×3 (18 cells), 6 pieces:
    #   z=0: A0 a0 t1      z=1: .  .  .
    #        .  b0 .            .  .  .
    #        .  .  B1           p1 .  [q1]
    # t1 (hovercraft, 1) has no player 1 neighbour: a0 + b0 attack with 3 > 1.
    placements = [
        (0, ARMY, CHIEF, (0, 0, 0)),
        (0, ARMY, NONE, (0, 0, 1)),
        (0, HOVER, NONE, (0, 1, 1)),
        (1, ARMY, CHIEF, (0, 2, 2)),
        (1, HOVER, NONE, (0, 0, 2)),
        (1, ARMY, NONE, (1, 2, 0)),
        (1, ARMY, INVIS, (1, 2, 2)),  # an invisible piece occupies its cell too
    ]
    landings = Counter()
    survived = destroyed = 0
    for seed in range(400):
        game, ids = make_game(placements, shape=(2, 3, 3), seed=seed, **TELEPORT_ONLY)
        a0, b0, t1 = ids[1], ids[2], ids[4]
        others = {game.piece(i).cell for i in ids if i != t1}
        report = game.play_turn({0: Attack([a0, b0], (0, 0, 2)), 1: Pass()})
        (combat,) = of_kind(report.events, Combat)
        assert (combat.attack, combat.defence) == (3, 1)
        (fate,) = of_kind(report.events, Fate)
        assert fate.outcome is Outcome.TELEPORT and fate.target == t1
        landings[fate.landing] += 1
        piece = game.piece(t1)
        if fate.landing in others:
            assert fate.destroyed and not piece.alive, (seed, fate)
            destroyed += 1
        elif fate.landing != (0, 0, 2):  # its own cell: see RULES.md, not decided here
            assert not fate.destroyed and piece.alive, (seed, fate)
            assert piece.cell == fate.landing and piece.owner == 1
            survived += 1
        cells = [p.cell for p in game.pieces()]
        assert len(cells) == len(set(cells))  # one piece per cell (R1)
    assert survived > 0 and destroyed > 0
    # uniform over the whole universe: 400 draws over 18 cells hit every cell (the chance that a
    # uniform draw misses some cell is below 18 * (17/18)^400 < 1e-8)
    assert set(landings) == {(z, y, x) for z in range(2) for y in range(3) for x in range(3)}


# -- the chief rules ------------------------------------------------------------------------------


def _chief_position(seed=0, **options):
    # Player 0 attacks player 1's chief C1 (hovercraft, 1; no player 1 piece next to it) with
    # a0 (2). Player 1 also has [i1] (invisible army), t1 (teleporter hovercraft), f1
    # (fortress), n1 (army). Player 2 watches.
    #   x: 0   1   2   3    4
    #   A0 a0  C1  .    .         y=0
    #   .  .   .   .    .         y=1
    #   .  .   .   .   [i1]       y=2
    #   .  .   t1  .    f1        y=3
    #   D2 .   .   .    n1        y=4
    return make_game(
        [
            (0, ARMY, CHIEF, (0, 0, 0)),
            (0, ARMY, NONE, (0, 0, 1)),
            (1, HOVER, CHIEF, (0, 0, 2)),
            (1, ARMY, INVIS, (0, 2, 4)),
            (1, HOVER, TELE, (0, 3, 2)),
            (1, FORT, NONE, (0, 3, 4)),
            (1, ARMY, NONE, (0, 4, 4)),
            (2, ARMY, CHIEF, (0, 4, 0)),
        ],
        players=3,
        seed=seed,
        **options,
    )


def _taken_pieces_check(game, before, rest):
    for pid in rest:
        was, now = before[pid], game.piece(pid)
        assert now.alive and now.owner == 0, now
        assert (now.type, now.trait, now.cell) == (was.type, was.trait, was.cell)


def test_r8_destroyed_chief_eliminates_owner_and_gives_its_pieces():
    # R8: C1 destroyed: player 1 is out and [i1], t1, f1, n1 become player 0's, types and
    # traits kept. Player 0 keeps exactly one chief; player 2 is untouched.
    game, (chief0, a0, c1, i1, t1, f1, n1, d2) = _chief_position(**DESTROY_ONLY)
    rest = (i1, t1, f1, n1)
    before = {pid: game.piece(pid) for pid in rest}
    report = game.play_turn({0: Attack([a0], (0, 0, 2)), 1: Pass(), 2: Pass()})
    assert not game.piece(c1).alive
    assert game.living == (0, 2)
    (elim,) = of_kind(report.events, Eliminated)
    assert (elim.player, elim.reason, elim.by) == (1, "chief", 0)
    assert sorted(elim.taken) == sorted(rest)
    _taken_pieces_check(game, before, rest)
    assert game.pieces(1) == []
    assert chiefs_of(game, 0) == [chief0] and chiefs_of(game, 2) == [d2]
    own = {v.id: v for v in game.observe(0).pieces}
    assert own[i1].trait is INVIS  # now player 0's own invisible piece
    assert i1 not in {v.id for v in game.observe(2).pieces}
    assert report.result is None  # two players left


def test_r8_converted_chief_loses_trait_and_eliminates_owner():
    # R8: C1 converted: it becomes player 0's with trait NONE (type and cell kept), player 1 is
    # out and its other pieces become player 0's. Player 0 has exactly one chief: its own.
    game, (chief0, a0, c1, i1, t1, f1, n1, d2) = _chief_position(**CONVERT_ONLY)
    rest = (i1, t1, f1, n1)
    before = {pid: game.piece(pid) for pid in rest}
    report = game.play_turn({0: Attack([a0], (0, 0, 2)), 1: Pass(), 2: Pass()})
    (fate,) = of_kind(report.events, Fate)
    assert fate.outcome is Outcome.CONVERT and not fate.destroyed
    converted = game.piece(c1)
    assert converted.alive and converted.owner == 0
    assert (converted.type, converted.trait, converted.cell) == (HOVER, NONE, (0, 0, 2))
    assert game.living == (0, 2)
    (elim,) = of_kind(report.events, Eliminated)
    assert (elim.player, elim.reason, elim.by) == (1, "chief", 0)
    _taken_pieces_check(game, before, rest)
    assert chiefs_of(game, 0) == [chief0]
    assert chiefs_of(game, 2) == [d2]


def test_r8_teleported_chief_survives_or_dies_with_its_landing():
    # R8 (p_teleport=1): a teleported chief that lands on a free cell keeps its owner alive (it
    # is still player 1's chief, at the landing cell); one that lands on an occupied cell is
    # destroyed and player 1 is out, its pieces going to player 0.
    outcomes = set()
    for seed in range(120):
        game, ids = _chief_position(seed=seed, **TELEPORT_ONLY)
        chief0, a0, c1, i1, t1, f1, n1, d2 = ids
        others = {game.piece(i).cell for i in ids if i != c1}
        report = game.play_turn({0: Attack([a0], (0, 0, 2)), 1: Pass(), 2: Pass()})
        (fate,) = of_kind(report.events, Fate)
        assert fate.outcome is Outcome.TELEPORT
        if fate.landing in others:
            assert not game.piece(c1).alive
            assert game.living == (0, 2)
            assert all(game.piece(pid).owner == 0 for pid in (i1, t1, f1, n1))
            outcomes.add("destroyed")
        elif fate.landing != (0, 0, 2):
            chief = game.piece(c1)
            assert chief.alive and chief.owner == 1 and chief.trait is CHIEF
            assert chief.cell == fate.landing
            assert game.living == (0, 1, 2)
            assert not of_kind(report.events, Eliminated)
            assert chiefs_of(game, 1) == [c1]
            assert all(game.piece(pid).owner == 1 for pid in (i1, t1, f1, n1))
            outcomes.add("survived")
    assert outcomes == {"destroyed", "survived"}


# -- invariant: one chief per living player -------------------------------------------------------


def _random_orders(game, rng):
    orders, times = {}, {}
    for player in game.living:
        movers = [p for p in game.pieces(player) if p.type is not FORT]
        times[player] = float(rng.exponential(1.0))
        if not movers or rng.random() < 0.1:
            orders[player] = Pass()
            continue
        piece = movers[int(rng.integers(len(movers)))]
        cells = sorted(game.reach(piece.id))
        cell = cells[int(rng.integers(len(cells)))]
        visible = {v.cell: v for v in game.observe(player).pieces}
        occupant = visible.get(cell)
        if occupant is not None and occupant.owner != player:
            attackers = [p.id for p in movers if game.reaches(p.id, cell)]
            orders[player] = Attack(attackers, cell)
        else:
            orders[player] = Move(piece.id, cell)
    return orders, times


def test_r8_every_living_player_always_has_exactly_one_chief():
    # R2, R8 invariant, checked after every turn of seeded random games (3 players, crowded
    # 2×4×4 board, default outcome probabilities): each living player has exactly one chief,
    # every chief belongs to a living player, eliminated players own nothing, one piece per cell.
    army = [
        (ARMY, NONE),
        (ARMY, NONE),
        (HOVER, NONE),
        (ARMY, INVIS),
        (HOVER, TELE),
    ]
    chiefs_taken = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        rules = Rules(shape=(2, 4, 4), players=3, zones=False, budget=1000, timers=False)
        game = Game(rules, seed=seed)
        for player in range(3):
            game.place(player, ARMY if player != 1 else HOVER, CHIEF)
            for kind, trait in army:
                game.place(player, kind, trait)
        game.start()
        for _ in range(60):
            orders, times = _random_orders(game, rng)
            report = game.play_turn(orders, think_times=times)
            chiefs_taken += sum(e.reason == "chief" for e in of_kind(report.events, Eliminated))
            living = game.pieces()
            cells = [p.cell for p in living]
            assert len(cells) == len(set(cells))
            for player in range(3):
                mine = chiefs_of(game, player)
                if player in game.living:
                    assert len(mine) == 1, (seed, game.turn, player, mine)
                else:
                    assert game.pieces(player) == [], (seed, game.turn, player)
            assert all(p.owner in game.living for p in living if p.trait is CHIEF)
            if report.result is not None:
                break
    assert chiefs_taken > 0  # the invariant was exercised through chief captures
