"""Games between armies: one agent in every seat, each seat's army fixed, played whole in
compiled code in chunks (a Ray task per chunk) through the tuning studies' pool
(:class:`antipolix.tuning.evaluate.Pool`).

A game is a :class:`Table`: the army of each seat (an index into the batch's armies) and the
key of its seed, ``SeedSequence(seed, spawn_key=key)`` (R12: the same table is the same game
whatever the chunking or the workers). Its :class:`Finish` is every seat's finishing place (R10,
R11: the winner first, then the players still in the game, tied, then the eliminated, the last
out first), from which :func:`meetings` counts how often the seats of one army finished ahead
of, level with and behind those of another: at a table of four, a seat meets the three others.

Two seatings are used:

- :func:`against_field`: an *entry* army in one seat, an opponent army in every other seat,
  the entry's seat rotated (the army search's fitness, :mod:`antipolix.meta.search`);
- :func:`pair_tables`: two armies with half the seats each (one more for the first at an odd
  table, and then the reverse), in every arrangement of the seats in turn (at four players
  the six ways to choose two seats of the ring, R3: each army beside and across from the other
  as often), each seed played in every arrangement: the empirical game's games.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from antipolix.agents.army import ArmyPolicy
from antipolix.agents.base import Agent
from antipolix.autoplay import play_games
from antipolix.ladder.ratings import finishing_places
from antipolix.meta.armies import MetaError
from antipolix.rules import Rules

Record = tuple[int, int, int]  # meetings finished ahead, level, behind


@dataclass(frozen=True)
class Armies:
    """What every task of a batch needs, shipped once: the rules, the root seed, the agent that
    plays every seat and the armies (army policies: a :class:`~antipolix.agents.GivenArmy`
    for an army the search found, the agent's own policy for its own armies)."""

    rules: Rules
    seed: int
    agent: Agent
    armies: tuple[ArmyPolicy, ...]


class Table(NamedTuple):
    """One game: the army of each seat (an index into :attr:`Armies.armies`) and its seed's
    key."""

    seats: tuple[int, ...]
    key: tuple[int, ...]


class Finish(NamedTuple):
    """How one game ended: each seat's finishing place (0 first, tied seats share the mean),
    the reason (R10) and the turns played."""

    places: tuple[float, ...]
    reason: str
    turns: int


def play_tables(batch: Armies, tables: Sequence[Table]) -> list[Finish]:
    """Play ``tables`` in one compiled call (a Ray task)."""
    players = batch.rules.players
    seated: list[Agent] = []
    for policy in batch.armies:
        bot = copy.copy(batch.agent)
        bot.army_policy = policy
        seated.append(bot)
    games = [
        ([seated[a] for a in t.seats], np.random.SeedSequence(batch.seed, spawn_key=t.key))
        for t in tables
    ]
    out = []
    for t, played in zip(tables, play_games(batch.rules, games), strict=True):
        if played is None:
            raise MetaError(
                f"game {t.key} cannot be played: the engine refuses an army under these rules "
                "(antipolix.play.play_game with the same agents and seed says why)"
            )
        r = played.result
        reason = r.reason.name.lower()
        places = finishing_places(r.winner, r.elimination_order, reason, players)
        out.append(Finish(tuple(places), reason, int(r.turns)))
    return out


def meetings(finish: Finish, seats: Sequence[int], army: int, other: int) -> Record:
    """How often the seats of ``army`` finished ahead of, level with and behind those of
    ``other`` in one game (``seats``: the army of each seat); each pair of seats is a
    meeting."""
    mine = [finish.places[s] for s, a in enumerate(seats) if a == army]
    theirs = [finish.places[s] for s, a in enumerate(seats) if a == other]
    ahead = sum(m < t for m in mine for t in theirs)
    level = sum(m == t for m in mine for t in theirs)
    return ahead, level, len(mine) * len(theirs) - ahead - level


def add(a: Record, b: Record) -> Record:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def score(record: Sequence[int], draw: float = 0.5) -> float:
    """``(ahead + draw · level) / meetings`` (NaN without a meeting)."""
    ahead, level, behind = (int(v) for v in record)
    n = ahead + level + behind
    return (ahead + draw * level) / n if n else float("nan")


def field_members(weights: Sequence[float], groups: int) -> list[int]:
    """Which member of a mixture each of ``groups`` groups of games plays (systematic
    sampling: group ``q`` takes the member whose share of the cumulative weight holds
    ``(q + 1/2) / groups``), so that the games follow the mixture without drawing anything.

    >>> field_members([0.5, 0.25, 0.25], 4)
    [0, 0, 1, 2]
    """
    w = np.asarray(weights, dtype=np.float64)
    edges = np.cumsum(w / w.sum())
    last = len(w) - 1
    return [min(int(np.searchsorted(edges, (q + 0.5) / groups)), last) for q in range(groups)]


def against_field(
    entry: int, field: Sequence[int], games: int, players: int, branch: tuple[int, ...]
) -> list[Table]:
    """``games`` games of army ``entry`` in one seat against ``field[q]`` in every other seat:
    game ``j`` is group ``q = j // players`` (its seed ``branch + (q,)``), the entry in seat
    ``j % players``."""
    out = []
    for j in range(games):
        q, seat = divmod(j, players)
        seats = [field[q % len(field)]] * players
        seats[seat] = entry
        out.append(Table(tuple(seats), (*branch, q)))
    return out


def arrangements(players: int) -> list[tuple[bool, ...]]:
    """The seatings of a pair game: which seats the first army holds. Half the seats each (at
    an odd table the first army holds one more, then one fewer), every choice of seats in
    turn.

    >>> len(arrangements(4)), arrangements(2)
    (6, [(True, False), (False, True)])
    """
    half = players // 2
    sizes = [half] if players % 2 == 0 else [half + 1, half]
    out = []
    for size in sizes:
        for chosen in itertools.combinations(range(players), size):
            out.append(tuple(s in chosen for s in range(players)))
    return out


def pair_tables(
    first: int, second: int, games: int, players: int, branch: tuple[int, ...]
) -> list[Table]:
    """``games`` games of army ``first`` against army ``second``, half the seats each, every
    :func:`arrangements` in turn; the games of one seed (``branch + (q,)``) are its
    arrangements, so both armies play every seed from every seating."""
    seatings = arrangements(players)
    out = []
    for j in range(games):
        q, a = divmod(j, len(seatings))
        seats = tuple(first if mine else second for mine in seatings[a])
        out.append(Table(seats, (*branch, q)))
    return out


def play_pair(
    batch: Armies,
    first: int,
    second: int,
    games: int,
    branch: tuple[int, ...],
    pool: Any,
    tick: Callable[[int], None] | None = None,
) -> tuple[Record, list[Record]]:
    """Army ``first``'s record against army ``second`` in ``games`` pair games
    (:func:`pair_tables` on ``branch``) played on ``pool``
    (:class:`~antipolix.tuning.evaluate.Pool`), and per seed, in order (a seed's games are its
    seatings)."""
    tables = pair_tables(first, second, games, batch.rules.players, branch)
    total: Record = (0, 0, 0)
    by_seed: dict[tuple[int, ...], Record] = {}
    for t, f in zip(tables, pool.play(batch, tables, tick, play_tables), strict=True):
        met = meetings(f, t.seats, first, second)
        total = add(total, met)
        by_seed[t.key] = add(by_seed.get(t.key, (0, 0, 0)), met)
    return total, list(by_seed.values())


__all__ = [
    "Armies",
    "Finish",
    "Record",
    "Table",
    "add",
    "against_field",
    "arrangements",
    "field_members",
    "meetings",
    "pair_tables",
    "play_pair",
    "play_tables",
    "score",
]
