"""The chief guard term of a move's score (R8): enemy power that could reach the chief within
a move against the chief's defence, and the chief's distance from the enemy."""

from __future__ import annotations

from antipolix.agents.planner.reading import Turn, threat_at
from antipolix.agents.planner.weights import (
    CHIEF_FAR,
    CHIEF_UNSEEN,
    GUARD_MARGIN,
    GUARD_MIN,
    I_CHIEF_FAR,
    I_GUARD,
    I_GUARD_SHARE,
    FloatArray,
)
from antipolix.jit import kernel
from antipolix.world import IntArray


@kernel
def chief_guard(
    tn: Turn,
    mover: IntArray,
    dest: IntArray,
    end: IntArray,
    gap: IntArray,
    d_mover: IntArray,
    score: FloatArray,
) -> None:
    """Chief guard, added to ``score``: enemy power within two enemy moves against the
    chief's defence, and the chief's distance from the enemy."""
    ci = tn.ci
    ring = tn.ring
    strength = 0
    for q in range(len(tn.o_s)):
        strength += tn.o_s[q]
    least = float(GUARD_MIN * tn.unit)
    if tn.w[I_GUARD_SHARE] * float(strength) < least:
        least = tn.w[I_GUARD_SHARE] * float(strength)
    margin = GUARD_MARGIN * tn.unit
    # the chief's threat where it stands, as read_turn read it (less its unseen allowance)
    t2_here = tn.t_own[ci] + tn.x_own[ci] - CHIEF_UNSEEN * tn.unit
    need0 = float(t2_here + margin)
    if least > need0:
        need0 = least
    guard0 = need0 - tn.d_own[ci]
    if not guard0 > 0:
        guard0 = 0.0
    far0 = min(tn.o_dist[ci], CHIEF_FAR)
    o_flat, o_s = tn.o_flat, tn.o_s
    now, later, boxes, strongest, hidden = tn.now, tn.later, tn.boxes, tn.strongest, tn.hidden
    d_chief = tn.d_own[ci]
    w_guard, w_far = tn.w[I_GUARD], tn.w[I_CHIEF_FAR]
    for k in range(len(dest)):
        i = mover[k]
        if i == ci:
            d_c = d_mover[k]
            threat, extra = threat_at(
                now, later, boxes, strongest, hidden, end[k, 0], end[k, 1], end[k, 2], dest[k]
            )
            t2_c = threat + extra
        else:  # (the ring: the chief's cell and its neighbours)
            to_b, to_a = ring[dest[k]], ring[o_flat[i]]
            d_c = d_chief + o_s[i] * ((1 if to_b else 0) - (1 if to_a else 0))
            t2_c = t2_here
        need = float(t2_c + margin)
        if least > need:
            need = least
        short = need - d_c
        if not short > 0:
            short = 0.0
        score[k] += w_guard * (guard0 - short)
        if i == ci:
            score[k] += w_far * (min(gap[k], CHIEF_FAR) - far0)
