"""The planner's weights: the constants of its position value and the vector of weights a
tuning study searches (:mod:`antipolix.tuning`), with their indices in that vector.

Values are in points of piece cost (R2). :data:`WEIGHTS` lists every weight the kernels read
from a vector ``w`` (its default, the hand-set planner's, and the range a study searches);
``I_<NAME>`` is its index there. The integer settings (:data:`FRONT`, :data:`HUNT_K`,
:data:`MEMORY`, ...) stay fixed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
MaskArray = npt.NDArray[np.uint64]  # 64-bit masks, a bit per piece or cell

# Values, in points of piece cost (R2).
WIN = 150.0  # eliminating a player (taking its chief), or losing one's own chief (R8)
TELEPORTED = 0.6  # share of a teleported piece's value its owner loses (it lands anywhere, R8)
# Exposure (R8): an own piece is lost for sure when the enemy power reaching it exceeds its
# defence, and with P_NEAR when one more enemy piece (one move, R4) or an invisible attacker
# seen nearby (R6) would tip it.
P_NEAR = 0.3
SPREAD = 0.5  # weight of every exposure or threat but the largest (one order a turn, R4)
W_THREAT = 0.35  # a winning attack available next turn, relative to making it now
# Pressure: own power on each enemy piece near the front, as a share of the power that beats
# it. Off at first (it slows the win against pieces that come to it), then growing from turn
# PRESS_FROM to W_PRESS at turn 2 * PRESS_FROM, to break stand-offs of two defensive fronts.
W_PRESS = 0.6
PRESS_FROM = 150
NUL_AFTER = 200  # turns without a piece taken after which it offers a draw (R9 NUL)
W_HUNT = 0.3  # covering the cells a suspected chief may flee to, relative to taking it
HUNT_K = 3  # chief suspects hunted at most (the likeliest)
HUNT_MIN = 0.12  # ... and only those at least this likely
# Strengths are never written here as numbers: they come from the rules (R2), in units of the
# strongest piece that can attack (its "unit"), so that re-balanced strengths re-scale them.
W_GUARD = 2.0  # per point of enemy power within two moves of the chief above its defence
GUARD_MARGIN = 1  # units of defence the chief keeps above the power that could reach it
# Defence kept around the chief even with no enemy in sight (invisible ones, R6): GUARD_SHARE
# of the own strength, at most GUARD_MIN units.
GUARD_MIN = 3
GUARD_SHARE = 0.1
CHIEF_UNSEEN = 1  # units of unseen invisible attack power the chief allows for near enemies (R6)
W_CHIEF_FAR = 0.5  # per cell of the chief's distance from the nearest enemy (up to CHIEF_FAR)
CHIEF_FAR = 6
W_ADVANCE = 0.12  # per cell a piece closes on the nearest enemy
W_COHESION = 0.03  # per point of own strength around the moved piece, near the front
FRONT = 4  # "near the front": within this distance of a visible enemy
MOVED_SUSPECT = 0.1  # chief-suspect weight of an enemy piece seen to move (1 if never seen to)
MEMORY = 12  # turns the hidden defence of a failed attack, or an invisible attacker, is kept
HIDDEN_PROBE = 0.1  # chance a narrow win (margin <= one unit) meets unseen invisible defenders


class Weight(NamedTuple):
    """One weight of the planner's position value: its default (the hand-set planner's), and
    the range a tuning study searches (:mod:`antipolix.tuning`)."""

    name: str
    default: float
    low: float
    high: float


# The weights the kernels read from a vector (``w``, in this order): the ones above, and the
# tactics' (teleporter networks R5, fortresses R8, hunting invisible pieces R6), which the
# hand-set planner leaves at 0. The integer settings (FRONT, HUNT_K, MEMORY, ...) stay fixed.
WEIGHTS: tuple[Weight, ...] = (
    Weight("win", WIN, 60.0, 400.0),
    Weight("teleported", TELEPORTED, 0.2, 1.0),
    Weight("p_near", P_NEAR, 0.0, 1.0),
    Weight("spread", SPREAD, 0.0, 1.0),
    Weight("threat", W_THREAT, 0.0, 1.0),
    Weight("press", W_PRESS, 0.0, 2.0),
    Weight("press_from", float(PRESS_FROM), 10.0, 400.0),
    Weight("hunt", W_HUNT, 0.0, 1.5),
    Weight("hunt_min", HUNT_MIN, 0.0, 0.5),
    Weight("guard", W_GUARD, 0.0, 6.0),
    Weight("guard_share", GUARD_SHARE, 0.0, 0.5),
    Weight("chief_far", W_CHIEF_FAR, 0.0, 2.0),
    Weight("advance", W_ADVANCE, 0.0, 0.6),
    Weight("cohesion", W_COHESION, 0.0, 0.3),
    Weight("moved_suspect", MOVED_SUSPECT, 0.0, 1.0),
    Weight("hidden_probe", HIDDEN_PROBE, 0.0, 0.6),
    Weight("network", 0.0, 0.0, 2.0),  # a teleporter's move that links or extends the network
    Weight("fortress", 0.0, 0.0, 2.0),  # the chief beside own fortresses (R8 defence)
    Weight("crush", 0.0, 0.0, 4.0),  # a move onto a cell where an unseen enemy showed itself
)
(
    I_WIN, I_TELEPORTED, I_P_NEAR, I_SPREAD, I_THREAT, I_PRESS, I_PRESS_FROM, I_HUNT,
    I_HUNT_MIN, I_GUARD, I_GUARD_SHARE, I_CHIEF_FAR, I_ADVANCE, I_COHESION, I_MOVED_SUSPECT,
    I_HIDDEN_PROBE, I_NETWORK, I_FORTRESS, I_CRUSH,
) = range(len(WEIGHTS))  # fmt: skip
DEFAULT_WEIGHTS = np.array([w.default for w in WEIGHTS], dtype=np.float64)
WEIGHT_NAMES = tuple(w.name for w in WEIGHTS)


def weight_vector(base: FloatArray, weights: Mapping[str, float] | None) -> FloatArray:
    """``base`` with the named ``weights`` set (a copy); unknown names and values that are not
    finite numbers are refused."""
    out = np.array(base, dtype=np.float64)
    if weights is None:
        return out
    if not isinstance(weights, Mapping):
        raise ValueError(f"weights must map weight names to numbers, got {weights!r}")
    index = {name: i for i, name in enumerate(WEIGHT_NAMES)}
    for name, value in weights.items():
        if name not in index:
            raise ValueError(
                f"the planner has no weight {name!r} (its weights: {', '.join(WEIGHT_NAMES)})"
            )
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"weight {name!r} must be a number, got {value!r}") from None
        if not np.isfinite(number):
            raise ValueError(f"weight {name!r} must be finite, got {value!r}")
        out[index[name]] = number
    return out
