"""R8 Combat: attack and defence power, and the explicit chance outcome of a successful attack.

Chance is explicit (as OpenSpiel's ``chance_outcomes``): :func:`outcome_distribution` lists the
outcomes with their probabilities; :func:`draw_outcome` draws one with the game's generator.

>>> outcome_distribution(Rules())
((<Outcome.DESTROY: 0>, 0.4), (<Outcome.TELEPORT: 1>, 0.3), (<Outcome.CONVERT: 2>, 0.3))
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from antipolix.combat import Outcome
from antipolix.pieces import PieceType
from antipolix.rules import Rules
from antipolix.world import Cell
from tests.oracle.state import Board


def attack_power(board: Board, strength: np.ndarray, pieces: Iterable[int]) -> int:
    """R8: sum of the strengths of the listed pieces that can attack (alive, not fortresses)."""
    ids = np.unique(np.asarray(list(pieces), dtype=np.int64))
    ids = ids[board.alive[ids] & (board.kind[ids] != PieceType.FORTRESS)]
    return int(strength[board.kind[ids]].sum())


def defence_power(board: Board, strength: np.ndarray, cell: Cell, counts: str) -> int:
    """R8: the target's strength plus its 3×3×3 neighbours' (the owner's, or ``all``)."""
    target = board.at(cell)
    total = int(strength[board.kind[target]])
    around = board.around(cell)
    if counts == "owner":
        around = around[board.owner[around] == board.owner[target]]
    return total + int(strength[board.kind[around]].sum())


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
