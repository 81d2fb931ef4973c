"""What a tournament plays: every lineup of ``players`` distinct agents, in every seat order of
a rotation, each one runner study (a *sitting*) with its own seed and folder.

A lineup is a combination of ``players`` distinct agents (in the order the agents were given):
``n`` agents give C(n, players) lineups. ``games`` is the number of games *per lineup*, split
over the lineup's ``players`` cyclic rotations (seat order ``lineup[r:] + lineup[:r]``): rotation
``r`` plays ``games // players`` games, one more when ``r < games % players``. So every agent of
a lineup sits in every seat equally often when ``games`` is a multiple of ``players``, and never
more than one game more often in one seat than in another otherwise.

Each sitting is a study of :func:`antipolix.simulate` (seats as given, no shuffle) in
``games/<NN>-<lineup>/rotation-<r>`` under the tournament folder, so the runner resumes it and
grows it on its own. Its root seed is derived from the tournament seed and its seat order
(SHA-256 of both), so a sitting's games do not depend on which other agents are in the ladder.

>>> [s.seats for s in schedule(["random", "greedy", "planner"], 2, 3, seed=0)][:3]
[('random', 'greedy'), ('greedy', 'random'), ('random', 'planner')]
>>> [s.games for s in schedule(["a", "b", "c", "d"], 4, 6, seed=0)]
[2, 2, 1, 1]
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

GAMES = "games"  # the sittings' folders live under this subfolder of the tournament folder


@dataclass(frozen=True)
class Sitting:
    """One lineup in one seat order: a runner study of ``games`` games from root ``seed``."""

    lineup: int  # index of the lineup, in the order of :func:`lineups`
    rotation: int
    seats: tuple[str, ...]  # agent label per seat
    agents: tuple[int, ...]  # index into the ladder's agents per seat
    games: int
    seed: int
    folder: str  # relative to the tournament folder, ``/``-separated

    def record(self) -> dict[str, object]:
        """The sitting as JSON-ready data (the manifest lists them)."""
        return {
            "lineup": self.lineup,
            "rotation": self.rotation,
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


def rotation_games(games: int, players: int) -> list[int]:
    """Games of each rotation of a lineup playing ``games`` games (they add up to ``games``).

    >>> rotation_games(10, 4)
    [3, 3, 2, 2]
    """
    return [games // players + (1 if r < games % players else 0) for r in range(players)]


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


def schedule(agents: Sequence[str], players: int, games: int, seed: int) -> list[Sitting]:
    """Every sitting of a tournament (rotations with no game left out), lineup by lineup."""
    tables = lineups(agents, players)
    index = {a: i for i, a in enumerate(agents)}
    width = max(2, len(str(len(tables) - 1)))
    out = []
    for k, lineup in enumerate(tables):
        folder = f"{GAMES}/{k:0{width}d}-{'-'.join(slug(a) for a in lineup)}"
        for r, n in enumerate(rotation_games(games, players)):
            if n == 0:
                continue
            seats = tuple(lineup[r:] + lineup[:r])
            out.append(
                Sitting(
                    lineup=k,
                    rotation=r,
                    seats=seats,
                    agents=tuple(index[a] for a in seats),
                    games=n,
                    seed=sitting_seed(seed, seats),
                    folder=f"{folder}/rotation-{r}",
                )
            )
    return out
