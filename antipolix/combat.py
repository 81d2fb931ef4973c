"""R8 Combat: attack and defence power, and the explicit chance outcome of a successful attack.

Chance is explicit (as OpenSpiel's ``chance_outcomes``): :func:`outcome_distribution` lists the
outcomes with their probabilities; :func:`draw_outcome_k` draws one with the game's generator.
The defence is one kernel over piece arrays (:func:`defence_k`), which the engine runs on the
truth (the pieces of the target's 3×3×3 cube) and agents on what they see.

>>> outcome_distribution(Rules())
((<Outcome.DESTROY: 0>, 0.4), (<Outcome.TELEPORT: 1>, 0.3), (<Outcome.CONVERT: 2>, 0.3))
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix.jit import kernel
from antipolix.pieces import FORTRESS
from antipolix.reach import cheb
from antipolix.rules import Rules, Tables
from antipolix.state import Arrays


class Outcome(enum.IntEnum):
    """What a successful attack does to its target (R8)."""

    DESTROY = 0
    TELEPORT = 1  # to a uniform random cell; destroyed instead if that cell is occupied
    CONVERT = 2  # becomes the attacker's property, type and trait kept (a chief loses its trait)


@kernel
def defence_k(
    strengths: npt.NDArray[Any],
    owners: npt.NDArray[Any],
    cells: npt.NDArray[Any],
    target: int,
    defence_all: bool,
) -> int:
    """R8: the defence of piece ``target`` (an index into the arrays): its strength plus the
    strengths of the pieces within radius 1 of it that count (its owner's, or every piece's
    with ``defence_counts="all"``). The engine passes the truth; an agent, the pieces it sees
    (a lower bound: invisible ones count too)."""
    c = cells[target]
    total = 0
    for i in range(len(strengths)):
        if not defence_all and owners[i] != owners[target]:
            continue
        d = cheb(cells[i, 0], cells[i, 1], cells[i, 2], c[0], c[1], c[2])
        if d <= 1:  # the target itself is at distance 0
            total += strengths[i]
    return int(total)


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
    """:func:`defence_k` with the rule option by name (``"owner"`` or ``"all"``)."""
    return int(
        defence_k(
            np.ascontiguousarray(strengths, dtype=np.int64),
            np.ascontiguousarray(owners, dtype=np.int64),
            np.ascontiguousarray(cells, dtype=np.int64).reshape(-1, 3),
            target,
            counts == "all",
        )
    )


@kernel
def defence_at(a: Arrays, t: Tables, row: int) -> int:
    """R8 on the truth: the defence of the piece of ``row``, from the pieces of its cube."""
    p, n, m = t.shape[0], t.shape[1], t.shape[2]
    z, y, x = a.pos[row, 0], a.pos[row, 1], a.pos[row, 2]
    rows = np.empty(27, dtype=np.int64)
    rows[0] = row
    k = 1
    for cz in range(max(z - 1, 0), min(z + 2, p)):
        for cy in range(max(y - 1, 0), min(y + 2, n)):
            for cx in range(max(x - 1, 0), min(x + 2, m)):
                other = a.grid[(cz * n + cy) * m + cx]
                if other >= 0 and other != row:
                    rows[k] = other
                    k += 1
    strengths = np.empty(k, dtype=np.int64)
    owners = np.empty(k, dtype=np.int64)
    cells = np.empty((k, 3), dtype=np.int64)
    for i in range(k):
        r = rows[i]
        strengths[i] = t.strength[a.kind[r]]
        owners[i] = a.owner[r]
        cells[i, 0], cells[i, 1], cells[i, 2] = a.pos[r, 0], a.pos[r, 1], a.pos[r, 2]
    return defence_k(strengths, owners, cells, 0, t.defence_all)


@kernel
def attack_power_k(a: Arrays, t: Tables, rows: npt.NDArray[np.int64]) -> int:
    """R8: the summed strength of the listed pieces (rows, each once) that can attack: living
    and not fortresses."""
    total = 0
    for i in range(len(rows)):
        r = rows[i]
        if a.alive[r] and a.kind[r] != FORTRESS:
            total += t.strength[a.kind[r]]
    return int(total)


def outcome_distribution(rules: Rules) -> tuple[tuple[Outcome, float], ...]:
    """R8: ``((outcome, probability), ...)`` of a successful attack, in draw order."""
    return (
        (Outcome.DESTROY, rules.p_destroy),
        (Outcome.TELEPORT, rules.p_teleport),
        (Outcome.CONVERT, rules.p_convert),
    )


@kernel
def draw_outcome_k(
    outcomes: npt.NDArray[np.float64], rng: np.random.Generator
) -> tuple[int, float]:
    """One uniform draw ``u`` in [0, 1); the first outcome whose cumulative probability exceeds
    ``u`` (``outcomes``: destroy, teleport, convert). Returns the outcome's code and ``u``."""
    u = rng.random()
    cumulative = 0.0
    for o in range(len(outcomes)):
        cumulative += outcomes[o]
        if u < cumulative:
            return o, u
    # only reachable when rounding leaves the sum a hair below 1: the last outcome with p > 0
    for o in range(len(outcomes) - 1, -1, -1):
        if outcomes[o] > 0:
            return o, u
    return len(outcomes) - 1, u


def draw_outcome(
    distribution: tuple[tuple[Outcome, float], ...], rng: np.random.Generator
) -> tuple[Outcome, float]:
    """:func:`draw_outcome_k` over :func:`outcome_distribution`'s pairs: the outcome and ``u``."""
    if tuple(o for o, _ in distribution) != tuple(Outcome):
        raise ValueError("the distribution must list destroy, teleport, convert in that order")
    code, u = draw_outcome_k(np.array([p for _, p in distribution], dtype=np.float64), rng)
    return Outcome(code), float(u)
