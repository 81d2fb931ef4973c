"""The planner's elementary values (R2, R8): the unit strength, what an own piece risks where
enemy power reaches it, how well own power covers a cell a chief may flee to."""

from __future__ import annotations

from antipolix.jit import kernel
from antipolix.rules import Tables


@kernel
def piece_risk(threat: int, extra: int, defence: int, loss: float, p_near: float) -> float:
    """Expected loss of an own piece with this enemy power reaching it, this much more power one
    enemy move away, and this defence (R8)."""
    if threat > defence:
        return loss * 1.0
    if threat > 0 and threat + extra > defence:
        return loss * p_near
    return loss * 0.0


@kernel
def cover(power: int, defence: int) -> float:
    """How well own attack ``power`` covers a cell where a piece would have ``defence``: half
    if it beats it outright (R8), half in proportion to the power."""
    need = defence + 1
    return 0.5 * min(power, need) / need + (0.5 if power >= need else 0.0)


@kernel
def unit_of(t: Tables) -> int:
    """:func:`~antipolix.agents.base.unit_strength`: the strongest type that can attack (R2)."""
    unit = 1
    for k in range(len(t.strength)):
        if t.move[k] > 0 and t.strength[k] > unit:
            unit = t.strength[k]
    return int(unit)
