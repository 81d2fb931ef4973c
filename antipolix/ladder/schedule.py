"""What a tournament plays: every lineup of ``players`` distinct agents, in every seat order
(or every rotation), each seat order one runner study (a *sitting*) with its own seed and folder.

A lineup is a combination of ``players`` distinct agents (in the order the agents were given):
``n`` agents give C(n, players) lineups. ``games`` is the number of games *per lineup* (chosen
lineups may play another number: :func:`check_lineup_games`), split over its seat orders
(:func:`seat_orders`): order ``j`` of ``m`` plays ``games // m`` games, one more when
``j < games % m`` (:func:`split_games`).

Seat orders matter beyond the seat itself. The home zones (R3) lie on a ring, so at four players
each seat has two zones beside it and one across the board: an agent always seated beside the
strongest one is put out first more often than one seated across from it, whatever it plays.
With ``seating="all"`` (the default) a lineup plays every seat order, ``players!`` of them,
grouped ring by ring: each cyclic arrangement of the lineup, then its rotations. So a number of
games that is a multiple of ``players`` seats every agent in every seat equally often, and at
four players a multiple of 12 seats every two agents beside and across from each other in
proportion (a multiple of 24: every order equally often); from five players on, only a multiple
of ``players!`` does so (with fewer games the first agents of a lineup sit beside each other more
often). ``seating="rotation"`` plays only the ``players`` rotations ``lineup[r:] + lineup[:r]``,
which keeps who sits beside whom fixed; at two players the two seatings are the same games.

Each sitting is a study of :func:`antipolix.simulate` (seats as given, no shuffle) in
``games/<NN>-<lineup>/order-<j>`` (``rotation-<r>`` with ``seating="rotation"``) under the
tournament folder, so the runner resumes it and grows it on its own. Its root seed is derived
from the tournament seed and its seat order (SHA-256 of both), so a sitting's games do not depend
on which other agents are in the ladder, nor on the seating.

>>> [s.seats for s in schedule(["random", "greedy", "planner"], 2, 3, seed=0)][:3]
[('random', 'greedy'), ('greedy', 'random'), ('random', 'planner')]
>>> [s.games for s in schedule(["a", "b", "c", "d"], 4, 6, seed=0, seating="rotation")]
[2, 2, 1, 1]
>>> [s.games for s in schedule(["a", "b", "c", "d"], 4, 26, seed=0)][:4]
[2, 2, 1, 1]
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from antipolix.checks import is_int
from antipolix.errors import AntipolixError
from antipolix.ladder.ratings import LadderError

GAMES = "games"  # the sittings' folders live under this subfolder of the tournament folder
SEATINGS = ("all", "rotation")  # every seat order of a lineup; only its rotations


@dataclass(frozen=True)
class Sitting:
    """One lineup in one seat order: a runner study of ``games`` games from root ``seed``."""

    lineup: int  # index of the lineup, in the order of :func:`lineups`
    order: int  # index of the seat order, in the order of :func:`seat_orders`
    seats: tuple[str, ...]  # agent label per seat
    agents: tuple[int, ...]  # index into the ladder's agents per seat
    games: int
    seed: int
    folder: str  # relative to the tournament folder, ``/``-separated

    def record(self) -> dict[str, object]:
        """The sitting as JSON-ready data (the manifest lists them)."""
        return {
            "lineup": self.lineup,
            "order": self.order,
            "seats": list(self.seats),
            "games": self.games,
            "seed": self.seed,
            "folder": self.folder,
        }


def lineups(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every combination of ``players`` distinct agents, in the order the agents are given.

    >>> lineups(["a", "b", "c"], 2)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    return list(itertools.combinations(agents, players))


def split_games(games: int, parts: int) -> list[int]:
    """Games of each of ``parts`` seat orders of a lineup playing ``games`` games (they add up to
    ``games``; the first orders play one more).

    >>> split_games(10, 4)
    [3, 3, 2, 2]
    """
    return [games // parts + (1 if r < games % parts else 0) for r in range(parts)]


def seat_orders(players: int, seating: str = "all") -> Iterator[tuple[int, ...]]:
    """The seat orders of a lineup of ``players`` agents, as positions in the lineup.

    ``"rotation"``: the ``players`` rotations. ``"all"``: every order, ring by ring: each
    cyclic arrangement (the lineup's first agent first, the others in every order,
    lexicographically), followed by its rotations. At four players the first three rings put
    each agent across the board from each of the other three once; the last three are the
    first three turned the other way.

    >>> list(seat_orders(3, "rotation"))
    [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    >>> list(seat_orders(3))
    [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2)]
    """
    rings: Iterator[tuple[int, ...]] = iter([tuple(range(players))])
    if seating == "all":
        rings = ((0, *rest) for rest in itertools.permutations(range(1, players)))
    for ring in rings:
        for r in range(players):
            yield ring[r:] + ring[:r]


def sitting_seed(seed: int, seats: Sequence[str]) -> int:
    """The root seed of a sitting: from the tournament seed and the seat order, 0 … 2**63 − 1.

    >>> sitting_seed(0, ["random", "greedy"]) != sitting_seed(0, ["greedy", "random"])
    True
    """
    text = json.dumps({"seed": int(seed), "seats": list(seats)}, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def slug(label: str) -> str:
    """An agent label as part of a folder name: letters, digits and dots; ``_`` for the rest
    (no ``=``, which Parquet readers would take for a partition key, no ``:``).

    >>> slug("search:rollouts=16")
    'search_rollouts_16'
    """
    return re.sub(r"[^A-Za-z0-9.]+", "_", label).strip("_") or "agent"


def check_seating(seating: object) -> str:
    """``seating``, if it is one of :data:`SEATINGS` (:class:`LadderError` otherwise)."""
    if seating not in SEATINGS:
        raise LadderError(f"seating must be {' or '.join(SEATINGS)}, got {seating!r}")
    return str(seating)


def seating_text(seating: str, players: int) -> str:
    """How a tournament's tables were seated, in a sentence (the reports' method).

    >>> seating_text("rotation", 4).split(",")[0]
    'Seats rotate: each lineup plays its 4 rotations equally often'
    """
    if seating == "rotation":
        return (
            f"Seats rotate: each lineup plays its {players} rotations equally often, so who "
            "sits beside whom stays fixed."
        )
    return (
        f"Each lineup plays its {math.factorial(players)} seat orders in turn, ring by ring, so "
        "that every agent sits in every seat, and beside and across from every other on the "
        "ring of home zones (R3), as equally often as its number of games allows."
    )


def lineup_key(lineup: Sequence[str]) -> str:
    """A lineup as text: its agents' labels, comma-separated (the manifest's key).

    >>> lineup_key(("greedy", "planner"))
    'greedy,planner'
    """
    return ",".join(lineup)


def lineup_games(
    agents: Sequence[str], players: int, games: int, more: Mapping[str, int] | None = None
) -> list[int]:
    """The games of every lineup (in the order of :func:`lineups`): ``games``, or the number
    ``more`` gives for it (keyed by :func:`lineup_key`, as :func:`check_lineup_games` makes it).

    >>> lineup_games(["a", "b", "c"], 2, 10, {"a,c": 40})
    [10, 40, 10]
    """
    given = dict(more or {})
    return [int(given.get(lineup_key(t), games)) for t in lineups(agents, players)]


def check_lineup_games(
    agents: Sequence[str],
    players: int,
    more: object,
    label: Callable[[str], str] | None = None,
) -> dict[str, int]:
    """Games for chosen lineups, keyed by :func:`lineup_key` in the order of :func:`lineups`.

    ``more`` maps a lineup (its agents as a comma-separated text or a sequence of names, in any
    order) to its number of games (an integer >= 1). ``label`` turns a name the ladder does not
    list as it is (``"search:rollouts=8"``) into the ladder's label (``"search"``).
    :class:`LadderError` names what is wrong.

    >>> check_lineup_games(["a", "b", "c"], 2, {"c, a": 40})
    {'a,c': 40}
    """
    if more is None:
        return {}
    if not isinstance(more, Mapping):
        raise LadderError(f"lineup games must map lineups to numbers of games, got {more!r}")
    tables = lineups(agents, players)
    position = {a: i for i, a in enumerate(agents)}
    found: dict[int, int] = {}
    for key, count in more.items():
        names = [n.strip() for n in key.split(",")] if isinstance(key, str) else key
        if not isinstance(names, Sequence) or not all(isinstance(n, str) for n in names):
            raise LadderError(f"a lineup is a comma-separated text of agent names, got {key!r}")
        shown = ",".join(names)
        if len(names) != players:
            raise LadderError(
                f"lineup {shown!r} has {len(names)} agent{'s' if len(names) != 1 else ''}; "
                f"a lineup at {players}-player tables has {players}"
            )
        chosen = []
        for name in names:
            if name not in position and label is not None:
                with contextlib.suppress(AntipolixError):
                    name = label(name)
            if name not in position:
                raise LadderError(
                    f"lineup {shown!r}: {name!r} is not one of the agents ({', '.join(agents)})"
                )
            chosen.append(name)
        if len(set(chosen)) != len(chosen):
            raise LadderError(f"lineup {shown!r} names an agent twice; its agents are distinct")
        k = tables.index(tuple(sorted(chosen, key=position.__getitem__)))
        if k in found:
            raise LadderError(f"lineup {shown!r} is given twice")
        if not is_int(count) or count < 1:
            raise LadderError(f"lineup {shown!r}: games must be an integer >= 1, got {count!r}")
        found[k] = int(count)
    return {lineup_key(tables[k]): found[k] for k in sorted(found)}


def schedule(
    agents: Sequence[str],
    players: int,
    games: int,
    seed: int,
    seating: str = "all",
    more: Mapping[str, int] | None = None,
) -> list[Sitting]:
    """Every sitting of a tournament (seat orders with no game left out), lineup by lineup:
    ``games`` per lineup, or the number ``more`` gives for it (:func:`lineup_games`)."""
    check_seating(seating)
    count = math.factorial(players) if seating == "all" else players
    tables = lineups(agents, players)
    index = {a: i for i, a in enumerate(agents)}
    width = max(2, len(str(len(tables) - 1)))
    name = "order" if seating == "all" else "rotation"
    out = []
    counts = lineup_games(agents, players, games, more)
    for k, (lineup, played) in enumerate(zip(tables, counts, strict=True)):
        orders = list(itertools.islice(seat_orders(players, seating), min(played, count)))
        shares = split_games(played, len(orders)) if count <= played else [1] * played
        folder = f"{GAMES}/{k:0{width}d}-{'-'.join(slug(a) for a in lineup)}"
        for j, order in enumerate(orders):
            seats = tuple(lineup[i] for i in order)
            out.append(
                Sitting(
                    lineup=k,
                    order=j,
                    seats=seats,
                    agents=tuple(index[a] for a in seats),
                    games=shares[j],
                    seed=sitting_seed(seed, seats),
                    folder=f"{folder}/{name}-{j}",
                )
            )
    return out
