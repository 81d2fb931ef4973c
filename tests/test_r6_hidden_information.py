"""R6 hidden information as properties: an observation is a function of what its player may know.

Pairs of games that differ only in what R6 hides from player ``p`` are played in lockstep with the
same agents; ``p``'s observations must be equal field for field, every turn, until the rules
themselves reveal the difference to ``p`` (its move crushes the hidden piece, the piece counts in
a defence ``p`` is told of, a teleport lands on it, ...) or the worlds part (a combat between
other players goes another way). The pairs (hypothesis draws the positions):

- an extra invisible piece of an enemy, anywhere;
- another placement order of an enemy's army (all players' observations, and the whole game);
- which of an enemy's visible pieces is the chief;
- an enemy's invisible piece moving, or not.

Pieces are compared across the two games by the cell they were placed on (their identity), never
by identifier, so that a scheme of identifiers that leaks (placement order, gaps) fails here.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from antipolix import Attack, Game, Message, Move, Pass, PieceType, Rules, Trait
from antipolix.agents import Agent, Decision, GreedyAgent, RandomAgent, RandomArmy, Sight
from antipolix.codec import seen_pieces
from antipolix.errors import NotYourPieceError, UnknownPieceError
from antipolix.events import Combat, Crushed, Eliminated, Fate, Sent, Undelivered
from antipolix.game import TurnReport
from antipolix.observation import Observation
from antipolix.play import play_game
from antipolix.watch import Hooks
from tests.hidden import check_observation, observation_fields, told

ARMY, HOVER, FORT = PieceType.ARMY, PieceType.HOVERCRAFT, PieceType.FORTRESS
NONE, INVIS, TELE, CHIEF = Trait.NONE, Trait.INVISIBLE, Trait.TELEPORTER, Trait.CHIEF
Placement = tuple[int, PieceType, Trait, tuple[int, int, int]]
Cell = tuple[int, int, int]

PAIRS = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,  # the same examples on every run: a failure here is a bug, not luck
    suppress_health_check=[HealthCheck.too_slow],
)
TURNS = 30


# -- positions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A hand-made position: rules, seed, and each piece as ``(player, type, trait, cell)``."""

    rules: Rules
    seed: int
    pieces: tuple[Placement, ...]

    def game(self, order: Sequence[int] | None = None) -> Game:
        """The started game, pieces placed in ``order`` (indices into ``pieces``, seat order)."""
        game = Game(self.rules, seed=self.seed)
        for i in order if order is not None else range(len(self.pieces)):
            game.place(*self.pieces[i])
        game.start()
        return game


def random_position(layout: int, seed: int, players: int, options: dict[str, Any]) -> Position:
    """A small board, each player a chief and 2–6 pieces of every type and trait."""
    rng = np.random.default_rng(layout)
    shape = (int(rng.integers(1, 4)), int(rng.integers(5, 9)), 0)
    shape = (shape[0], shape[1], shape[1])
    cells = rng.permutation(shape[0] * shape[1] * shape[2])
    take = iter(np.unravel_index(cells, shape))
    z, y, x = next(take), next(take), next(take)
    free = iter(zip(z.tolist(), y.tolist(), x.tolist(), strict=True))
    pieces: list[Placement] = []
    for p in range(players):
        pieces.append((p, (ARMY, HOVER)[int(rng.integers(2))], CHIEF, next(free)))
        for _ in range(int(rng.integers(2, 7))):
            kind = (ARMY, HOVER, FORT)[int(rng.choice(3, p=[0.45, 0.45, 0.1]))]
            trait = (NONE, INVIS, TELE)[int(rng.choice(3, p=[0.5, 0.3, 0.2]))]
            pieces.append((p, kind, trait, next(free)))
    rules = Rules(
        shape=shape, players=players, zones=False, budget=1000, max_turns=TURNS, **options
    )
    return Position(rules, seed, tuple(pieces))


def free_cell(position: Position, rng: np.random.Generator) -> Cell:
    taken = {c for *_, c in position.pieces}
    p, n, m = position.rules.shape
    while True:
        cell = (int(rng.integers(p)), int(rng.integers(n)), int(rng.integers(m)))
        if cell not in taken:
            return cell


# -- agents -------------------------------------------------------------------------------------


class Passer(Agent):
    """Passes, thinking a fixed time."""

    name = "passer"

    def act(self, obs: Observation) -> Decision:
        return Decision(Pass(), think_time=0.5)


class Wanderer(Agent):
    """Moves one own piece (by the cell it was placed on) to a random free cell it reaches."""

    name = "wanderer"

    def __init__(self, piece: int) -> None:
        super().__init__()
        self.piece = piece

    def act(self, obs: Observation) -> Decision:
        view = Sight(self.rules, obs)
        rows = np.flatnonzero(obs.ids == self.piece)
        if not len(rows):
            return Decision(Pass(), think_time=0.5)
        free = view.free_reach(int(rows[0]))
        if not len(free):
            return Decision(Pass(), think_time=0.5)
        cell = view.cell(int(free[int(self.rng.integers(len(free)))]))
        return Decision(Move(self.piece, cell), think_time=0.5)


def seated(game: Game, agents: Sequence[Agent]) -> list[Agent]:
    """Per-game copies of the agents, set up with the seats' own generators (R12)."""
    out = []
    for seat, agent in enumerate(agents):
        bot = copy.deepcopy(agent)
        bot.setup(game.rules, seat, np.random.Generator(np.random.PCG64(game.agent_seed(seat))))
        out.append(bot)
    return out


def play_turn(game: Game, bots: Sequence[Agent]) -> TurnReport:
    decisions = {p: bots[p].act(game.observe(p)) for p in game.living}
    return game.play_turn(
        {p: d.order for p, d in decisions.items()},  # type: ignore[union-attr]
        think_times={p: d.think_time for p, d in decisions.items()},  # type: ignore[union-attr]
    )


# -- the lockstep comparison ---------------------------------------------------------------------


def names(game: Game) -> dict[int, Cell]:
    """Each piece's identity: the cell it was placed on (call it before the first turn)."""
    assert game.turn == 0
    return {p.id: p.cell for p in game.placement()}


def world(
    game: Game, name: dict[int, Cell], differ: set[Cell], mask_traits: bool
) -> tuple[Any, ...]:
    """The true state, pieces named by identity, the pieces that differ left out (or only
    their traits, with ``mask_traits``)."""
    pieces = set()
    for p in game.pieces():
        if name[p.id] in differ and not mask_traits:
            continue
        trait = None if mask_traits and name[p.id] in differ else p.trait
        pieces.add((name[p.id], p.owner, p.type, trait, p.cell))
    return frozenset(pieces), game.living, game.result, tuple(sorted(game.timers.items()))


def reveals(
    game: Game,
    before: Game,
    report: TurnReport,
    p: int,
    name: dict[int, Cell],
    differ: set[Cell],
    present: bool,
) -> bool:
    """Does the turn tell ``p`` of a piece that differs, as the rules allow (R6, R8)? A piece
    whose ``present``-ce differs also shows in the defence of a combat next to it."""
    cells = set()
    if present:
        for g in (before, game):
            for pid, cell in name.items():
                if cell in differ:
                    cells.add(g.piece(pid).cell)

    def named(pid: int | None) -> bool:
        return pid is not None and name[pid] in differ

    for e in told(report, p):
        match e:
            case Crushed(piece=piece, victim=victim):
                if named(piece) or named(victim):
                    return True
            case Combat(pieces=pieces, target=target, cell=cell):
                near = any(
                    max(abs(a - b) for a, b in zip(c, cell, strict=True)) <= 1 for c in cells
                )
                if near or named(target) or any(named(i) for i in pieces):
                    return True
            case Fate(target=target, landed_on=landed_on):
                if named(target) or named(landed_on):
                    return True
            case Eliminated(taken=taken, removed=removed):
                if any(named(i) for i in (*taken, *removed)):
                    return True
    return False


def lockstep(
    a: Game,
    b: Game,
    agents_a: Sequence[Agent],
    agents_b: Sequence[Agent],
    observers: Sequence[int],
    differ: set[Cell],
    mask_traits: bool = False,
) -> int:
    """Play ``a`` and ``b`` turn by turn; every observer's observations must be equal until the
    worlds part or the rules reveal a difference to it. Returns the turns compared."""
    bots_a, bots_b = seated(a, agents_a), seated(b, agents_b)
    name_a, name_b = names(a), names(b)
    watching = set(observers)
    reports: dict[Game, TurnReport | None] = {a: None, b: None}
    compared = 0
    while a.result is None and b.result is None and watching:
        for p in sorted(watching):
            if p not in a.living:
                watching.discard(p)
                continue
            seen_a, seen_b = a.observe(p), b.observe(p)
            check_observation(a, seen_a, reports[a])
            check_observation(b, seen_b, reports[b])
            assert observation_fields(seen_a) == observation_fields(seen_b), (
                f"player {p}'s observations differ at turn {a.turn}"
            )
        compared += 1
        before_a, before_b = copy.deepcopy(a), copy.deepcopy(b)
        reports[a], reports[b] = play_turn(a, bots_a), play_turn(b, bots_b)
        if world(a, name_a, differ, mask_traits) != world(b, name_b, differ, mask_traits):
            break  # the worlds parted (a combat between others went another way, ...)
        present = not mask_traits
        for p in list(watching):
            rep_a, rep_b = reports[a], reports[b]
            assert rep_a is not None and rep_b is not None
            if reveals(a, before_a, rep_a, p, name_a, differ, present) or reveals(
                b, before_b, rep_b, p, name_b, differ, present
            ):
                watching.discard(p)  # the rules tell p of the difference from now on
    return compared


# -- the pairs ----------------------------------------------------------------------------------

OPTIONS = st.sampled_from(
    [{}, {"defence_counts": "all"}, {"teleport_network": "all"}, {"timers": False}]
)


def _observer_and_enemy(position: Position, draw: int) -> tuple[int, int]:
    players = position.rules.players
    p = draw % players
    return p, (p + 1 + (draw // players) % (players - 1)) % players


@PAIRS
@given(
    layout=st.integers(0, 2**32),
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    who=st.integers(0, 1000),
    options=OPTIONS,
)
def test_r6_an_extra_enemy_invisible_piece_anywhere_changes_no_observation(
    layout: int, seed: int, players: int, who: int, options: dict[str, Any]
) -> None:
    position = random_position(layout, seed, players, options)
    p, q = _observer_and_enemy(position, who)
    rng = np.random.default_rng(layout + 1)
    extra = (q, (ARMY, HOVER, FORT)[int(rng.integers(3))], INVIS, free_cell(position, rng))
    pieces = list(position.pieces)
    at = max(i for i, piece in enumerate(pieces) if piece[0] == q) + 1
    with_extra = replace(position, pieces=(*pieces[:at], extra, *pieces[at:]))
    agents: list[Agent] = [RandomAgent() for _ in range(players)]
    agents[q] = Passer()  # its observation differs: it must not act on it
    turns = lockstep(with_extra.game(), position.game(), agents, agents, [p], {extra[3]})
    assert turns >= 1


@PAIRS
@given(
    layout=st.integers(0, 2**32),
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    who=st.integers(0, 1000),
    options=OPTIONS,
)
def test_r6_another_placement_order_of_an_army_changes_nothing(
    layout: int, seed: int, players: int, who: int, options: dict[str, Any]
) -> None:
    # placement order is hidden from everyone, the placer included: the whole game is the same
    position = random_position(layout, seed, players, options)
    _, q = _observer_and_enemy(position, who)
    order = list(range(len(position.pieces)))
    mine = [i for i in order if position.pieces[i][0] == q]
    shuffled = np.random.default_rng(layout).permutation(mine).tolist()
    reordered = [i for i in order if position.pieces[i][0] < q] + shuffled
    reordered += [i for i in order if position.pieces[i][0] > q]
    assert sorted(reordered) == order
    a, b = position.game(), position.game(reordered)
    agents = [RandomAgent() for _ in range(players)]
    lockstep(a, b, agents, agents, range(players), set())
    bots_a, bots_b = seated(a, agents), seated(b, agents)
    while a.result is None:  # to the end: every event the same, identifiers included
        rep_a, rep_b = play_turn(a, bots_a), play_turn(b, bots_b)
        assert [e.to_dict() for e in rep_a.events] == [e.to_dict() for e in rep_b.events]
    assert a.result == b.result


@PAIRS
@given(
    layout=st.integers(0, 2**32),
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    who=st.integers(0, 1000),
    options=OPTIONS,
)
def test_r6_which_enemy_piece_is_the_chief_changes_no_observation(
    layout: int, seed: int, players: int, who: int, options: dict[str, Any]
) -> None:
    position = random_position(layout, seed, players, options)
    p, q = _observer_and_enemy(position, who)
    pieces = list(position.pieces)
    chief = next(i for i, x in enumerate(pieces) if x[0] == q and x[2] is CHIEF)
    rng = np.random.default_rng(layout + 2)
    twin = (q, pieces[chief][1], NONE, free_cell(position, rng))  # the same type, visible
    pieces.insert(chief + 1, twin)
    a = replace(position, pieces=tuple(pieces))
    swapped = list(pieces)
    swapped[chief] = (q, pieces[chief][1], NONE, pieces[chief][3])
    swapped[chief + 1] = (q, twin[1], CHIEF, twin[3])
    b = replace(position, pieces=tuple(swapped))
    agents = [RandomAgent() for _ in range(players)]  # Random ignores traits: q acts the same
    turns = lockstep(a.game(), b.game(), agents, agents, [p], {pieces[chief][3], twin[3]}, True)
    assert turns >= 1


@PAIRS
@given(
    layout=st.integers(0, 2**32),
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    who=st.integers(0, 1000),
    options=OPTIONS,
)
def test_r6_an_enemy_invisible_piece_moving_changes_no_observation(
    layout: int, seed: int, players: int, who: int, options: dict[str, Any]
) -> None:
    position = random_position(layout, seed, players, options)
    p, q = _observer_and_enemy(position, who)
    rng = np.random.default_rng(layout + 3)
    mover = (q, (ARMY, HOVER)[int(rng.integers(2))], INVIS, free_cell(position, rng))
    pieces = list(position.pieces)
    at = max(i for i, piece in enumerate(pieces) if piece[0] == q) + 1
    position = replace(position, pieces=(*pieces[:at], mover, *pieces[at:]))
    a, b = position.game(), position.game()
    pid = next(x.id for x in a.placement() if x.cell == mover[3])
    moving: list[Agent] = [RandomAgent() for _ in range(players)]
    still = list(moving)
    moving[q], still[q] = Wanderer(pid), Passer()
    assert lockstep(a, b, moving, still, [p], {mover[3]}) >= 1


# -- identifiers ----------------------------------------------------------------------------------


def test_r6_identifiers_depend_on_the_cell_and_seed_only() -> None:
    # the same piece on the same cell has the same identifier whatever was placed before it,
    # by whom and in which order; another seed names it otherwise
    rules = Rules(shape=(2, 6, 6), players=3, zones=False, budget=100)
    few = [(0, ARMY, CHIEF, (0, 0, 0)), (1, ARMY, CHIEF, (0, 5, 5)), (2, HOVER, CHIEF, (1, 3, 3))]
    many = [few[0], (0, ARMY, INVIS, (1, 0, 1)), (0, HOVER, NONE, (1, 1, 0)), *few[1:]]
    many.insert(4, (1, FORT, INVIS, (0, 4, 4)))

    def ids(pieces: list[Placement], seed: int) -> dict[Cell, int]:
        game = Game(rules, seed=seed)
        return {cell: game.place(p, k, t, cell) for p, k, t, cell in pieces}

    a, b = ids(few, 1), ids(many, 1)
    assert {c: b[c] for c in a} == a
    other = ids(few, 2)
    assert other != a  # with 3 pieces on 72 cells, equal by chance with probability < 1e-5
    assert len(set(b.values())) == len(b)
    assert all(0 <= i < 72 for i in b.values())


def test_r6_a_players_identifiers_do_not_tell_how_many_pieces_earlier_seats_placed() -> None:
    # R6: before, player 1's ids started where player 0's ended; now its pieces keep theirs
    rules = Rules(shape=(1, 8, 8), players=2, zones=False, budget=100)
    mine = [(1, ARMY, CHIEF, (0, 7, 7)), (1, HOVER, NONE, (0, 6, 7))]
    for count in (1, 5, 9):
        game = Game(rules, seed=4)
        game.place(0, ARMY, CHIEF, (0, 0, 0))
        for k in range(count - 1):
            game.place(0, HOVER, INVIS, (0, 1, k))
        ids = [game.place(*piece) for piece in mine]
        if count == 1:
            first = ids
        assert ids == first


def test_r6_observations_list_pieces_in_identifier_order() -> None:
    position = random_position(5, 5, 3, {})
    game = position.game()
    for p in range(3):
        ids = game.observe(p).ids.tolist()
        assert ids == sorted(ids)
    assert [x.id for x in game.pieces()] == sorted(x.id for x in game.pieces())


# -- events ---------------------------------------------------------------------------------------


def _teleport_onto_hidden(seed: int) -> tuple[Game, int, int, TurnReport]:
    #   x: 0    1    2    3    4        a 1×5×5 board; player 2's invisible pieces fill every
    #   A0  a0  b1   .    .             free cell, so a teleported b1 most likely lands on one
    #   .   .   .    .    .
    #   ...                 B1 (0,4,4)
    cells = [(0, y, x) for y in range(5) for x in range(5)]
    pieces: list[Placement] = [
        (0, ARMY, CHIEF, (0, 0, 0)),
        (0, ARMY, NONE, (0, 0, 1)),
        (1, HOVER, NONE, (0, 0, 2)),
        (1, ARMY, CHIEF, (0, 4, 4)),
        (2, ARMY, CHIEF, (0, 4, 0)),
    ]
    taken = {c for *_, c in pieces}
    pieces += [(2, HOVER, INVIS, c) for c in cells if c not in taken]
    rules = Rules(
        shape=(1, 5, 5),
        players=3,
        zones=False,
        budget=1000,
        timers=False,
        p_destroy=0,
        p_teleport=1,
        p_convert=0,
    )
    game = Position(rules, seed, tuple(pieces)).game()
    a0 = next(x.id for x in game.placement() if x.cell == (0, 0, 1))
    b1 = next(x.id for x in game.placement() if x.cell == (0, 0, 2))
    report = game.play_turn({0: Attack([a0], (0, 0, 2)), 1: Pass(), 2: Pass()})
    return game, a0, b1, report


def test_r6_a_teleport_onto_a_piece_out_of_sight_tells_only_destroyed() -> None:
    # R6: the attacker (0) and the target's owner (1) cannot see player 2's invisible piece on
    # the landing cell: they learn that b1 was destroyed, not where it landed; player 2 (whose
    # piece it landed on) is not told of the attack at all
    for seed in range(50):
        game, a0, b1, report = _teleport_onto_hidden(seed)
        (fate,) = [e for e in report.events if isinstance(e, Fate)]
        if fate.landed_on is not None and fate.landed_on != b1:
            break
    else:
        pytest.fail("no seed teleported b1 onto player 2's piece")
    assert fate.destroyed and fate.landing is not None  # the truth, for replays
    assert game.piece(fate.landed_on).owner == 2
    for p in (0, 1):
        (seen,) = [e for e in game.observe(p).events if isinstance(e, Fate)]
        assert seen.landing is None and seen.landed_on is None and seen.destroyed
        check_observation(game, game.observe(p), report)
    assert not [e for e in game.observe(2).events if isinstance(e, Fate)]


def test_r6_a_teleport_onto_a_visible_piece_tells_where() -> None:
    # landing on a piece the observer can see (its own, or a visible one) is told in full
    pieces: list[Placement] = [
        (0, ARMY, CHIEF, (0, 0, 0)),
        (0, ARMY, NONE, (0, 0, 1)),
        (1, HOVER, NONE, (0, 0, 2)),
        (1, ARMY, CHIEF, (0, 2, 2)),
    ]
    rules = Rules(
        shape=(1, 3, 3),
        players=2,
        zones=False,
        budget=1000,
        timers=False,
        p_destroy=0,
        p_teleport=1,
        p_convert=0,
    )
    for seed in range(60):
        game = Position(rules, seed, tuple(pieces)).game()
        a0, b1 = (
            next(x.id for x in game.placement() if x.cell == c) for c in [(0, 0, 1), (0, 0, 2)]
        )
        report = game.play_turn({0: Attack([a0], (0, 0, 2)), 1: Pass()})
        (fate,) = [e for e in report.events if isinstance(e, Fate)]
        if fate.destroyed and fate.landed_on not in (None, b1):
            break
    else:
        pytest.fail("no seed teleported b1 onto another piece")
    for p in (0, 1):
        (seen,) = [e for e in game.observe(p).events if isinstance(e, Fate)]
        assert seen == fate


def test_r6_invisible_mover_is_not_named_to_the_owner_of_the_piece_it_crushes() -> None:
    #   A0 [m0] [i1] .  B1       m0: player 0's invisible army crushes player 1's invisible i1
    pieces: list[Placement] = [
        (0, ARMY, CHIEF, (0, 0, 0)),
        (0, ARMY, INVIS, (0, 0, 1)),
        (1, ARMY, INVIS, (0, 0, 2)),
        (1, ARMY, CHIEF, (0, 0, 4)),
    ]
    rules = Rules(shape=(1, 5, 5), players=2, zones=False, budget=1000, timers=False)
    game = Position(rules, 0, tuple(pieces)).game()
    m0, i1 = (next(x.id for x in game.placement() if x.cell == c) for c in [(0, 0, 1), (0, 0, 2)])
    report = game.play_turn({0: Move(m0, (0, 0, 2)), 1: Pass()})
    (crushed,) = [e for e in report.events if isinstance(e, Crushed)]
    assert (crushed.piece, crushed.victim) == (m0, i1)  # the truth
    (to_mover,) = [e for e in game.observe(0).events if isinstance(e, Crushed)]
    (to_owner,) = [e for e in game.observe(1).events if isinstance(e, Crushed)]
    assert (to_mover.piece, to_mover.victim, to_mover.victim_owner) == (m0, None, 1)
    assert (to_owner.player, to_owner.piece, to_owner.victim) == (0, None, i1)
    assert to_owner.cell == (0, 0, 2)


def test_r6_r9_an_invisible_piece_makes_no_contact_for_messages() -> None:
    # R9 with R6: a message to one player needs a *visible* piece of the sender next to a
    # *visible* piece of the recipient; otherwise its delivery would reveal an invisible piece

    #   A0 [i1] .  .  B1          i1: player 1's invisible army next to A0
    pieces: list[Placement] = [
        (0, ARMY, CHIEF, (0, 0, 0)),
        (1, ARMY, INVIS, (0, 0, 1)),
        (1, ARMY, CHIEF, (0, 0, 4)),
    ]
    rules = Rules(shape=(1, 5, 5), players=2, zones=False, budget=1000, timers=False)
    game = Position(rules, 0, tuple(pieces)).game()
    report = game.play_turn(
        {0: Pass(), 1: Pass()},
        messages={0: [Message("hello", to=1)], 1: [Message("boo", to=0)]},
    )
    undelivered = [e for e in report.events if isinstance(e, Undelivered)]
    assert {e.sender for e in undelivered} == {0, 1}
    assert not [e for e in report.events if isinstance(e, Sent)]
    assert all("visible piece" in e.reason for e in undelivered)
    # next to a visible piece, the same message goes through
    visible = Position(
        rules,
        0,
        ((0, ARMY, CHIEF, (0, 0, 0)), (1, ARMY, NONE, (0, 0, 1)), (1, ARMY, CHIEF, (0, 0, 4))),
    ).game()
    report = visible.play_turn({0: Pass(), 1: Pass()}, messages={0: [Message("hello", to=1)]})
    assert [e for e in report.events if isinstance(e, Sent)]


# -- bad input ------------------------------------------------------------------------------------


def test_r6_an_order_naming_a_piece_the_player_cannot_know_is_refused_like_no_piece() -> None:
    # an enemy's invisible piece, a destroyed piece and an identifier no piece has get the same
    # refusal, which names nothing; a visible enemy piece is refused as not the player's
    pieces: list[Placement] = [
        (0, ARMY, CHIEF, (0, 0, 0)),
        (0, ARMY, NONE, (0, 0, 1)),
        (1, ARMY, INVIS, (0, 0, 2)),
        (1, ARMY, CHIEF, (0, 4, 4)),
        (1, HOVER, INVIS, (0, 2, 2)),
    ]
    rules = Rules(shape=(1, 5, 5), players=2, zones=False, budget=1000, timers=False)
    game = Position(rules, 3, tuple(pieces)).game()
    ids = {x.cell: x.id for x in game.placement()}
    a0, i1, b1, j1 = ids[(0, 0, 1)], ids[(0, 0, 2)], ids[(0, 4, 4)], ids[(0, 2, 2)]
    game.play_turn({0: Move(a0, (0, 0, 2)), 1: Pass()})  # a0 crushes i1
    nobody = next(i for i in range(1000) if i not in ids.values())
    messages = {}
    for pid in (i1, j1, nobody):
        with pytest.raises(UnknownPieceError) as info:
            game.check_submission(0, Move(pid, (0, 1, 1)))
        messages[pid] = str(info.value).removesuffix(str(pid))
        assert not game.is_legal(0, Move(pid, (0, 1, 1)))
    assert len(set(messages.values())) == 1, messages
    assert "player 1" not in messages[nobody]
    with pytest.raises(NotYourPieceError, match="is player 1's, not yours"):
        game.check_submission(0, Move(b1, (0, 3, 3)))
    state = observation_fields(game.observe(0))
    with pytest.raises(UnknownPieceError):
        game.play_turn({0: Move(j1, (0, 1, 1)), 1: Pass()})
    assert observation_fields(game.observe(0)) == state  # nothing changed


def chiefs_and_a_ghost() -> tuple[Game, int, int, int]:
    """A started 2-player game of three pieces: player 0's chief army and invisible army,
    player 1's chief hovercraft (their identifiers follow the game)."""
    game = Game(Rules(shape=(2, 6, 6), players=2, zones=False, budget=20), seed=3)
    chief0 = game.place(0, PieceType.ARMY, Trait.CHIEF, (0, 0, 0))
    ghost0 = game.place(0, PieceType.ARMY, Trait.INVISIBLE, (0, 1, 1))
    chief1 = game.place(1, PieceType.HOVERCRAFT, Trait.CHIEF, (1, 5, 5))
    game.start()
    return game, chief0, ghost0, chief1


def test_piece_namers_of_one_state_name_as_each_readers_piece_namer() -> None:
    # R6: the namers the match server shares between the readers of one state name every
    # piece as each reader's own piece_namer does: the trait for its own pieces only (all of
    # them for the truth, None), an unseen piece as such, a number that is no piece plainly.
    from antipolix.log import piece_namer, piece_namers

    game, chief0, hidden, chief1 = chiefs_and_a_ghost()
    namers = piece_namers(game)
    for reader in (0, 1, None):
        for pid in (chief0, hidden, chief1, None, 10**9, chief0):  # (chief0 twice: looked up)
            assert namers(reader)(pid) == piece_namer(game, reader)(pid)
    assert namers(1)(hidden) == f"army #{hidden}"
    assert namers(0)(hidden) == f"invisible army #{hidden}"
    assert namers(0)(chief1) == f"hovercraft #{chief1}"
    assert namers(None)(chief1) == f"chief hovercraft #{chief1}"


def test_r6_hidden_to_a_reader_is_another_players_invisible_piece() -> None:
    # R6: what a player may not know is another player's invisible piece; what all players are
    # shown (reader None: spectators, eliminated players) leaves every invisible piece out.
    game, chief0, ghost0, chief1 = chiefs_and_a_ghost()
    hidden = {reader: game.hidden_to(reader) for reader in (0, 1, None)}
    assert [hidden[0](p) for p in (chief0, ghost0, chief1)] == [False, False, False]
    assert [hidden[1](p) for p in (chief0, ghost0, chief1)] == [False, True, False]
    assert [hidden[None](p) for p in (chief0, ghost0, chief1)] == [False, True, False]


def test_r6_the_pieces_json_text_is_seen_pieces_of_each_reader_over_whole_games() -> None:
    # R6: the match server writes the pieces of its frames with compiled code
    # (Game.pieces_json); each reader's text is the JSON of the list codec.seen_pieces makes of
    # its observation (its own traits, others' null) or, for all readers (None), of the pieces
    # every player sees; every turn of games of trait-heavy armies, the dead seats' too.
    heavy = RandomArmy(menu=("army+teleporter", "hovercraft+invisible", "army+invisible", "army"))
    compared = [0]

    def compare(game: Game) -> None:
        readers: list[int | None] = [*range(game.rules.players), None]
        for reader, text in zip(readers, game.pieces_json(readers), strict=True):
            if reader is None:
                ids, owners, types, cells = game.seen_by_all()
                want = seen_pieces(ids, owners, types, cells)
            else:
                obs = game.observe(reader)
                want = seen_pieces(obs.ids, obs.owners, obs.types, obs.cells, obs.traits)
            assert text == orjson.dumps(want), (game.turn, reader)
            assert game.pieces_json([reader]) == [text]  # alone as among the others
            compared[0] += 1

    for seed in range(3):
        play_game(
            Rules(shape=(3, 8, 8), players=3, max_turns=60),
            [RandomAgent(army=heavy), GreedyAgent(army=heavy), GreedyAgent()],
            seed,
            watchers=[Hooks(lambda pg: compare(pg.game), lambda game, r, d: compare(game))],
        )
    assert compared[0] > 3 * 4 * 30


def test_r6_told_is_an_observations_fields_but_the_pieces() -> None:
    # R6: Game.told (what the match server writes beside the pieces' text) is observe's first
    # fields, field for field
    game, *_ = chiefs_and_a_ghost()
    game.play_turn({0: Pass(), 1: Pass()})
    for player in (0, 1):
        obs, told = game.observe(player), game.told(player)
        assert tuple(getattr(obs, name) for name in told._fields) == tuple(told)
