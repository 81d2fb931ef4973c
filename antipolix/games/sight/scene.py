"""Sight's position as a 2D board for the viewer (:class:`antipolix.games.protocol.Scene2D`).

Back to front: the drawn segments (S1), the points, the groups (a disc of the seat that plays
it, labelled with its height when it is a stack), then the last action in the board's ink: a
ring on a placed point or an arrow for a move, and a small ring on every group it added to
(S7). The seats are drawn in their sides' colours (:data:`SIDE_COLOURS`, S2): White's stones
light, Black's dark, whichever seat plays them after a Swap (S4).
Board coordinates: x right, y down (row 0 at the top), one unit between points. No renderer is
imported here; :mod:`viz` draws every 2D game alike.

>>> from antipolix.games.sight.state import SightState
>>> state = SightState(SightConfig(size=3)); state.apply({0: 1 + 4})
>>> scene = scene_of(state)
>>> [m.kind for m in scene.marks].count("piece"), scene.caption
(1, 'Turn 2: Black (seat 1) to place · after Place (1, 1)')
"""

from __future__ import annotations

from antipolix.games.protocol import Mark, Scene2D
from antipolix.games.sight import actions as act
from antipolix.games.sight.board import point, segments
from antipolix.games.sight.config import SightConfig
from antipolix.games.sight.position import (
    COLOURS,
    LAST,
    MOVER,
    SWAPPED,
    WINNER,
    colours,
    heights,
    seat_of,
)
from antipolix.games.sight.state import SightState

__all__ = ["SIDE_COLOURS", "SightConfig", "caption_of", "scene_of"]

SIDE_COLOURS = ("#F2EEE3", "#2B2B2B")  # White's stones and Black's (S2), as COLOURS names them


def _xy(n: int, p: int) -> tuple[float, float]:
    x, y = point(n, p)
    return float(x), float(y)


def scene_of(state: SightState, seat: int | None = None) -> Scene2D:
    """The position as a 2D board; ``seat`` changes nothing (S9: perfect information)."""
    n = state.config.size
    pos = state.pos
    marks: list[Mark] = []
    ortho, diag = segments(n)
    for a, b in (*ortho, *diag):
        marks.append(Mark("segment", (float(a[0]), float(a[1])), to=(float(b[0]), float(b[1]))))
    for p in range(n * n):
        marks.append(Mark("point", _xy(n, p), size=0.06))
    col, hgt = colours(pos), heights(pos)
    for p in range(n * n):
        if hgt[p] > 0:
            label = str(int(hgt[p])) if hgt[p] >= 2 else ""
            marks.append(Mark("piece", _xy(n, p), seat=seat_of(pos, int(col[p])), label=label))
    last = int(pos[LAST])
    if last >= 0:
        kind, p, q = act.decode(n, last)
        # (in the board's ink: a ring of White's colour would not show on a light page)
        if kind == "place":
            marks.append(Mark("ring", _xy(n, p), size=0.42))
        elif kind == "move":
            marks.append(Mark("arrow", _xy(n, p), to=_xy(n, q)))
        for r in state.added:
            marks.append(Mark("ring", _xy(n, r), size=0.36, label="+1"))
    swapped = int(pos[SWAPPED])
    return Scene2D(
        width=n,
        height=n,
        marks=tuple(marks),
        caption=caption_of(state),
        colours=tuple(SIDE_COLOURS[seat ^ swapped] for seat in range(2)),  # seat s: s ^ swapped
    )


def caption_of(state: SightState) -> str:
    """Whose turn and what to do, or who won and how (S4, S8); then the last action."""
    pos = state.pos
    if state.over:
        result = state.result()
        assert result is not None
        winner = int(pos[WINNER])
        head = (
            f"Over after {state.turns} turns: {COLOURS[winner].capitalize()} (seat "
            f"{result.winner}) wins, {result.reason.replace('_', ' ')}"
        )
    else:
        mover_colour = int(pos[MOVER])
        head = (
            f"Turn {state.turns + 1}: {COLOURS[mover_colour].capitalize()} (seat "
            f"{seat_of(pos, mover_colour)}) to {state.mode}"
        )
    last = int(pos[LAST])
    return head + (f" · after {act.text(state.config, last)}" if last >= 0 else "")
