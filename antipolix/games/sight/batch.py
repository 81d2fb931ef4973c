"""Whole games of Sight in one compiled call: the mass-simulation path.

:func:`play_batch` plays one game per seed, seat ``s`` by ``agents[s]`` (built-in agents
only), in one kernel: each seat's generator is seeded inside it as numpy would
(:mod:`antipolix.games.sight.draws`), each decision is the agent's own kernel
(:func:`~antipolix.games.sight.agents.choose_k`) and each turn the rules' kernels. The games
are the games :func:`antipolix.games.protocol.play_one` plays through
:class:`~antipolix.games.sight.state.SightState` with the same seeds, bit for bit: the same
outcomes and the same digests (tested).

>>> from antipolix.games.sight.agents import RandomAgent
>>> outcomes = play_batch(SightConfig(), [RandomAgent(), RandomAgent()],
...                       np.random.SeedSequence(1).spawn(3))
>>> [o.reason in ("board_full", "blocked") for o in outcomes]
[True, True, True]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from antipolix.games.protocol import GameAgent, Outcome
from antipolix.games.sight.actions import num_actions
from antipolix.games.sight.agents import PARAMS, TABLE_BITS, SightAgent, choose_k
from antipolix.games.sight.board import IntArray
from antipolix.games.sight.config import SightConfig
from antipolix.games.sight.draws import U32Array, random_k, seed_k, seed_words
from antipolix.games.sight.position import (
    MOVER,
    REASON,
    REASONS,
    SWAPPED,
    TURN,
    WINNER,
    digest_start,
    fnv_k,
    new_position,
)
from antipolix.games.sight.rules import apply_k, start_turn_k
from antipolix.games.sight.search import CTX, U64Array, new_table
from antipolix.jit import kernel

# the columns of a game's row in play_games_k's ``out``
WINNER_SEAT, REASON_CODE, TURNS, SWAP_TAKEN, ACTIONS_PLAYED = range(5)
COLUMNS = 5


@kernel
def play_games_k(
    start: IntArray,
    kinds: IntArray,
    params: npt.NDArray[np.float64],
    words: U32Array,
    starts: IntArray,
    pools: IntArray,
    digest0: np.uint64,
    tt_keys: U64Array,
    tt_vals: IntArray,
    out: IntArray,
    digests: U64Array,
) -> None:
    """Play game ``g`` from ``start`` for each ``g`` of ``starts[:-1]``; seat ``s`` is agent
    ``kinds[s]`` with ``params[s]``, drawing from the generator of ``words[starts[g] :
    starts[g + 1]]`` and ``s`` (:func:`~antipolix.games.sight.draws.seed_k`). Each game's row
    of ``out`` (winner seat, reason, turns, Swap taken, actions) and digest."""
    size = num_actions(start[0])
    pos = np.empty_like(start)
    legal = np.empty(size, dtype=np.int64)
    best = np.empty(size, dtype=np.int64)
    added = np.empty(8, dtype=np.int64)
    rng = np.empty((2, 4), dtype=np.uint64)
    ctx = np.zeros(CTX, dtype=np.int64)
    for g in range(len(starts) - 1):
        pos[:] = start
        for seat in range(2):
            seed_k(words, starts[g], starts[g + 1], pools[g], seat, rng[seat])
        h = digest0
        actions = 0
        while True:
            k = start_turn_k(pos, legal)
            if k == 0:
                break
            seat = pos[MOVER] ^ pos[SWAPPED]  # the seat playing the mover's colour (S4)
            u = random_k(rng[seat])
            action = choose_k(
                kinds[seat], params[seat], pos, legal, k, u, best, tt_keys, tt_vals, ctx
            )
            apply_k(pos, action, added)
            h = fnv_k(h, action)
            actions += 1
        out[g, WINNER_SEAT] = pos[WINNER] ^ pos[SWAPPED]
        out[g, REASON_CODE] = pos[REASON]
        out[g, TURNS] = pos[TURN]
        out[g, SWAP_TAKEN] = pos[SWAPPED]
        out[g, ACTIONS_PLAYED] = actions
        digests[g] = h


@dataclass(frozen=True)
class Played:
    """Games played by :func:`play_games`: per game its row (winner seat, reason code, turns,
    Swap taken, actions) and its digest (as :meth:`SightState.digest`)."""

    rows: IntArray
    digests: U64Array

    def outcomes(self) -> list[Outcome]:
        """The rows as the protocol's outcomes. Equal outcomes are one shared object (an
        :class:`Outcome` is frozen and its extras are read, never written): building one per
        game would cost more than playing it."""
        made: dict[tuple[int, int, int, int], Outcome] = {}
        out = []
        for winner, reason, turns, swapped, _ in self.rows.tolist():
            key = (winner, reason, turns, swapped)
            outcome = made.get(key)
            if outcome is None:
                outcome = made[key] = Outcome(
                    winner=winner,
                    reason=REASONS[reason],
                    turns=turns,
                    places=(0.0, 1.0) if winner == 0 else (1.0, 0.0),
                    elimination_order=(1 - winner,),
                    extras={"swapped": bool(swapped)},
                )
            out.append(outcome)
        return out


def compiled(agents: Sequence[GameAgent]) -> bool:
    """Can these agents (one per seat) play inside :func:`play_games_k`?"""
    return len(agents) == 2 and all(
        isinstance(a, SightAgent) and type(a).act is SightAgent.act for a in agents
    )


def play_games(
    config: SightConfig, agents: Sequence[SightAgent], seeds: Sequence[np.random.SeedSequence]
) -> Played:
    """One game per seed, whole, in one call (see the module)."""
    start = new_position(config)
    kinds = np.array([a.code for a in agents], dtype=np.int64)
    params = np.zeros((2, PARAMS), dtype=np.float64)
    for s, a in enumerate(agents):
        params[s] = a.vector()
    words, starts, pools = seed_words(seeds)
    table = new_table(TABLE_BITS if 2 in kinds.tolist() else 1)
    rows = np.zeros((len(seeds), COLUMNS), dtype=np.int64)
    digests = np.zeros(len(seeds), dtype=np.uint64)
    with np.errstate(over="ignore"):  # (without JIT: uint64 arithmetic wraps, as compiled)
        play_games_k(
            start,
            kinds,
            params,
            words,
            starts,
            pools,
            np.uint64(digest_start(start)),
            table[0],
            table[1],
            rows,
            digests,
        )
    return Played(rows, digests)


def play_batch(
    config: SightConfig, agents: Sequence[GameAgent], seeds: Sequence[np.random.SeedSequence]
) -> list[Outcome] | None:
    """The protocol's batch path: None unless every agent is built in."""
    if not compiled(agents):
        return None
    return play_games(config, [a for a in agents if isinstance(a, SightAgent)], seeds).outcomes()
