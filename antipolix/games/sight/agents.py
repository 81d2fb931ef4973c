"""Sight's built-in agents (:class:`antipolix.games.protocol.GameAgent`).

- ``random``: uniform over the legal actions;
- ``greedy``: one ply: an action that leaves the other player no action wins at once (S8);
  else the one that leaves the mover the most actions and the other player the fewest (being
  short of actions is how this game is lost);
- ``search``: alpha-beta with a transposition table keyed up to the board's symmetries (S1),
  iterative deepening under a budget of ``nodes`` per decision
  (:func:`~antipolix.games.sight.search.best_actions_k`), the same evaluation at the horizon;
  near the end it sees to the last turn and plays perfectly.

Each agent draws exactly one ``u = rng.random()`` a decision, from its seat's generator (R12,
S9), and takes ``candidates[floor(u·j)]`` of the ``j`` actions it rates best (all of them for
``random``). A decision is a kernel of the position, the parameters and ``u``
(:func:`choose_k`): the batch path (:mod:`antipolix.games.sight.batch`) plays the same games
from the same seeds with its compiled generators (:mod:`antipolix.games.sight.draws`).

Why alpha-beta and not MCTS: the game is short (at most N² turns), has no chance and no hidden
information, and its end comes from running out of actions, which the action counts at the
horizon see coming; exact values near the end are cheap with a table. Random playouts would be
noisier than the count for the same time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from antipolix.checks import is_plain_int
from antipolix.games.protocol import GameAgent, GameError
from antipolix.games.sight.actions import num_actions
from antipolix.games.sight.board import IntArray
from antipolix.games.sight.config import SightConfig
from antipolix.games.sight.position import MOVER
from antipolix.games.sight.rules import apply_k, count_legal_k
from antipolix.games.sight.search import (
    CTX,
    GEN,
    WIN,
    U64Array,
    best_actions_k,
    mobility_k,
    new_table,
)
from antipolix.games.sight.state import position_of
from antipolix.jit import kernel

RANDOM, GREEDY, SEARCH = 0, 1, 2  # the agents' codes in the batch path
PARAMS = 2  # per agent: (nodes, depth) for search, unused otherwise
TABLE_BITS = 16  # the search agent's table: 65,536 entries (2 MB)


@kernel
def greedy_best_k(pos: IntArray, legal: IntArray, k: int, out: IntArray) -> int:
    """The greedy agent's best actions (see the module) written to ``out[:j]``; returns ``j``."""
    child = np.empty_like(pos)
    added = np.empty(8, dtype=np.int64)
    best = -2 * WIN
    j = 0
    for i in range(k):
        child[:] = pos
        apply_k(child, legal[i], added)
        replies = count_legal_k(child)
        # the colour this agent holds after the action: the other than the one to move (after
        # Swap too: the agents exchanged colours, S4)
        score = WIN if replies == 0 else mobility_k(child, 1 - child[MOVER]) - replies
        if score > best:
            best = score
            j = 0
        if score == best:
            out[j] = legal[i]
            j += 1
    return j


@kernel
def choose_k(
    kind: int,
    params: np.ndarray,
    pos: IntArray,
    legal: IntArray,
    k: int,
    u: float,
    best: IntArray,
    tt_keys: U64Array,
    tt_vals: IntArray,
    ctx: IntArray,
) -> int:
    """One decision of agent ``kind`` with ``params`` at ``pos`` (``legal[:k]`` its legal
    actions): ``candidates[floor(u·j)]`` of its ``j`` best actions."""
    if kind == RANDOM:
        return int(legal[int(u * k)])
    if kind == GREEDY:
        j = greedy_best_k(pos, legal, k, best)
    else:
        ctx[GEN] += 1
        j = best_actions_k(pos, int(params[0]), int(params[1]), best, tt_keys, tt_vals, ctx)
    return int(best[int(u * j)])


class SightAgent(GameAgent):
    """A built-in agent whose decision is :func:`choose_k`."""

    code: ClassVar[int] = RANDOM

    def vector(self) -> np.ndarray:
        """The parameters as :func:`choose_k` reads them."""
        return np.zeros(PARAMS, dtype=np.float64)

    def setup(self, config: Any, seat: int, rng: np.random.Generator) -> None:
        super().setup(config, seat, rng)
        size = num_actions(config.size) if isinstance(config, SightConfig) else 1
        self._best = np.empty(size, dtype=np.int64)
        self._table = new_table(TABLE_BITS) if self.code == SEARCH else new_table(1)
        self._ctx = np.zeros(CTX, dtype=np.int64)

    def act(self, observation: Mapping[str, Any], legal: Sequence[int]) -> int:
        u = self.rng.random()
        if self.code == RANDOM:
            return int(legal[int(u * len(legal))])
        pos = position_of(self.config, observation)
        moves = np.asarray(legal, dtype=np.int64)
        keys, vals = self._table
        return int(
            choose_k(
                self.code,
                self.vector(),
                pos,
                moves,
                len(moves),
                u,
                self._best,
                keys,
                vals,
                self._ctx,
            )
        )


class RandomAgent(SightAgent):
    """Uniform over the legal actions, from the seat's generator (R12)."""

    name: ClassVar[str] = "random"
    code: ClassVar[int] = RANDOM


class GreedyAgent(SightAgent):
    """One ply: win at once if it can, else keep its actions and cut the other's."""

    name: ClassVar[str] = "greedy"
    code: ClassVar[int] = GREEDY


MAX_NODES = 10**9  # a search's budget of nodes, at most: minutes a decision
MAX_PLIES = 10**6  # its depth, at most (a game ends sooner: the depth stops there, S8)


class SearchAgent(SightAgent):
    """Alpha-beta with iterative deepening: ``nodes`` per decision, at most ``depth`` plies."""

    name: ClassVar[str] = "search"
    code: ClassVar[int] = SEARCH

    def __init__(self, nodes: int = 4000, depth: int = 64) -> None:
        for key, value, most in (("nodes", nodes, MAX_NODES), ("depth", depth, MAX_PLIES)):
            if not is_plain_int(value) or value < 1:
                raise GameError(f"search's {key} must be an integer >= 1, got {value!r}")
            if value > most:  # (the kernel reads them as float64 numbers: 10**20 became < 0)
                raise GameError(f"search's {key} must be at most {most:,}, got {value:,}")
        self.nodes = nodes
        self.depth = depth

    def params(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "depth": self.depth}

    def vector(self) -> np.ndarray:
        return np.array([self.nodes, self.depth], dtype=np.float64)


AGENTS: dict[str, type[GameAgent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "search": SearchAgent,
}
