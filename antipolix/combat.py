"""R8 Combat: attack and defence power, and the explicit chance outcome of a successful attack.

Chance is explicit (as OpenSpiel's ``chance_outcomes``): :func:`outcome_distribution` lists the
outcomes with their probabilities; :func:`draw_outcome` draws one with the game's generator.

>>> outcome_distribution(Rules())
((<Outcome.DESTROY: 0>, 0.4), (<Outcome.TELEPORT: 1>, 0.3), (<Outcome.CONVERT: 2>, 0.3))
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix.pieces import PieceType
from antipolix.rules import Rules
from antipolix.state import Board
from antipolix.world import Cell, distances


class Outcome(enum.IntEnum):
    """What a successful attack does to its target (R8)."""

    DESTROY = 0
    TELEPORT = 1  # to a uniform random cell; destroyed instead if that cell is occupied
    CONVERT = 2  # becomes the attacker's property, type and trait kept (a chief loses its trait)


def attack_power(board: Board, strength: np.ndarray, pieces: Iterable[int]) -> int:
    """R8: sum of the strengths of the listed pieces that can attack (alive, not fortresses)."""
    ids = np.unique(np.asarray(list(pieces), dtype=np.int64))
    ids = ids[board.alive[ids] & (board.kind[ids] != PieceType.FORTRESS)]
    return int(strength[board.kind[ids]].sum())


def defenders(owners: npt.NDArray[Any], owner: int, counts: str) -> npt.NDArray[np.bool_]:
    """R8 option ``defence_counts``: which pieces (by their ``owners``) count in the defence of a
    piece of ``owner``: its owner's (``owner``), or every piece (``all``)."""
    if counts == "all":
        return np.ones(len(owners), dtype=bool)
    out: npt.NDArray[np.bool_] = owners == owner
    return out


def defence_of(
    strengths: npt.NDArray[Any],
    owners: npt.NDArray[Any],
    cells: npt.NDArray[Any],
    target: int,
    counts: str,
) -> int:
    """R8: the defence of piece ``target`` (an index into the arrays): its strength plus the
    strengths of the pieces within radius 1 of it that count (:func:`defenders`). The engine
    passes the truth; an agent, the pieces it sees (a lower bound: invisible ones count too)."""
    near = distances(cells, cells[target]) <= 1  # the target itself is at distance 0
    near &= defenders(owners, int(owners[target]), counts)
    return int(strengths[near].sum())


def defence_power(board: Board, strength: np.ndarray, cell: Cell, counts: str) -> int:
    """R8: the defence of the piece on ``cell``, from the pieces of its 3×3×3 cube."""
    rows = np.concatenate([[board.at(cell)], board.around(cell)])
    kinds = board.kind[rows]
    return defence_of(strength[kinds], board.owner[rows], board.pos[rows], 0, counts)


def outcome_distribution(rules: Rules) -> tuple[tuple[Outcome, float], ...]:
    """R8: ``((outcome, probability), ...)`` of a successful attack, in draw order."""
    return (
        (Outcome.DESTROY, rules.p_destroy),
        (Outcome.TELEPORT, rules.p_teleport),
        (Outcome.CONVERT, rules.p_convert),
    )


def draw_outcome(
    distribution: tuple[tuple[Outcome, float], ...], rng: np.random.Generator
) -> tuple[Outcome, float]:
    """One uniform draw ``u`` in [0, 1); the first outcome whose cumulative probability exceeds
    ``u``. Returns the outcome and ``u`` (recorded in the turn report)."""
    u = float(rng.random())
    cumulative = 0.0
    for outcome, p in distribution:
        cumulative += p
        if u < cumulative:
            return outcome, u
    # only reachable when rounding leaves the sum a hair below 1: the last outcome with p > 0
    return next(o for o, p in reversed(distribution) if p > 0), u
