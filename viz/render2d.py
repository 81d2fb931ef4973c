"""2D games as pictures (PyVista, offscreen): the marks of a game's
:class:`~antipolix.games.protocol.Scene2D` drawn flat, seen from above, with the caption, the
turn's actions in words and a legend of players, in the 3D pictures' colours.

>>> from antipolix.games import replays                                    # doctest: +SKIP
>>> save_png_2d(replays.load("sight.apx.json.gz"), None, "end.png")          # doctest: +SKIP
PosixPath('end.png')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from antipolix.games import replays
from antipolix.games.protocol import Mark, Scene2D
from antipolix.games.replays import GameReplay
from viz._env import prepare_headless
from viz.board2d import check_2d, check_seat, check_turn_2d, scene_at, seat_colour
from viz.outputs import DEFAULT_SIZE, check_output, check_size, written_atomically

prepare_headless()

import pyvista as pv  # noqa: E402  (after choosing the headless window)

INK = "#1A1A1A"
BOARD_INK = "#4D4D4D"
BACKGROUND = "#FFFFFF"
BACKGROUND_TOP = "#E4EAF1"
LIFT = 1e-3  # each mark a little above the one before it (back to front)


def _xyz(at: tuple[float, float], z: float) -> tuple[float, float, float]:
    return float(at[0]), -float(at[1]), z  # board y runs down, the picture's up


def _colour(mark: Mark, scene: Scene2D) -> str:
    return INK if mark.seat is None else seat_colour(scene, int(mark.seat))


def _luminance(colour: str) -> float:
    v = int(colour.lstrip("#"), 16)
    r, g, b = (v >> 16) & 255, (v >> 8) & 255, v & 255
    return 0.299 * r + 0.587 * g + 0.114 * b


def _ink_on(colour: str) -> str:
    return INK if _luminance(colour) > 150 else "#FFFFFF"


def draw_scene(plotter: pv.Plotter, scene: Scene2D, words: Sequence[str] = ()) -> None:
    """Draw ``scene``'s marks into ``plotter``, back to front, with its caption and ``words``
    (the turn's actions) as text, the board framed from above. Text grows with the picture
    (its sizes are for 800 pixels of height), as the 3D pictures' does."""
    scale = plotter.window_size[1] / 800
    labels: list[tuple[tuple[float, float, float], str, str, int]] = []
    for i, mark in enumerate(scene.marks):
        z = i * LIFT
        colour = _colour(mark, scene)
        if mark.kind == "segment" and mark.to is not None:
            line = pv.Line(_xyz(mark.at, z), _xyz(mark.to, z))
            plotter.add_mesh(line, color=BOARD_INK, line_width=3, lighting=False)
        elif mark.kind == "point":
            dot = _disc(mark.at, z, 0.0, max(mark.size, 0.04))
            plotter.add_mesh(dot, color=INK, lighting=False)
        elif mark.kind == "piece":
            radius = mark.size or 0.3
            plotter.add_mesh(_disc(mark.at, z, 0.0, radius), color=colour, lighting=False)
            rim = _disc(mark.at, z + LIFT / 2, radius - 0.025, radius)
            plotter.add_mesh(rim, color=INK, lighting=False)
            if mark.label:
                labels.append((_xyz(mark.at, z + LIFT), mark.label, _ink_on(colour), 22))
        elif mark.kind == "ring":
            radius = mark.size or 0.4
            ring = _disc(mark.at, z, radius - 0.03, radius + 0.03)
            plotter.add_mesh(ring, color=colour, lighting=False)
            if mark.label:
                x, y = mark.at
                at = (x + radius * 0.95, y - radius * 0.95)
                labels.append((_xyz(at, z + LIFT), mark.label, colour, 17))
        elif mark.kind == "arrow" and mark.to is not None:
            _arrow(plotter, mark, z, colour)
    for point, text, colour, size in labels:
        plotter.add_point_labels(
            [point],
            [text],
            font_size=max(8, round(size * scale)),
            text_color=colour,
            shape=None,
            show_points=False,
            always_visible=True,
            justification_horizontal="center",
            justification_vertical="center",
            bold=True,
        )
    caption = "\n".join(_latin([scene.caption, *words]))
    plotter.add_text(caption, position="upper_left", font_size=caption_size(scale), color=INK)
    camera = plotter.camera
    camera.parallel_projection = True
    camera.parallel_scale = 0.5 * max(scene.width, scene.height) + 0.9
    centre = ((scene.width - 1) / 2, -(scene.height - 1) / 2 - 0.3)
    camera.focal_point = (*centre, 0.0)
    camera.position = (*centre, 10.0)
    camera.up = (0.0, 1.0, 0.0)


def caption_size(scale: float) -> int:
    """The caption's font size in a picture ``scale`` × 800 pixels high: 15 at 800 (it was
    11, half the height of the pieces' labels), never under 9."""
    return max(9, round(15 * scale))


def _latin(lines: Sequence[str]) -> list[str]:
    """Text VTK's font draws: arrows and dashes as ASCII, anything else outside Latin-1 as
    ``?``."""
    table = str.maketrans({"→": "->", "←": "<-", "–": "-", "—": "-", "×": "x"})
    return [line.translate(table).encode("latin-1", "replace").decode("latin-1") for line in lines]


def _disc(at: tuple[float, float], z: float, inner: float, outer: float) -> pv.PolyData:
    return pv.Disc(center=_xyz(at, z), inner=inner, outer=outer, normal=(0, 0, 1), c_res=48)


def _arrow(plotter: pv.Plotter, mark: Mark, z: float, colour: str) -> None:
    assert mark.to is not None
    a = np.array(_xyz(mark.at, z))
    b = np.array(_xyz(mark.to, z))
    d = b - a
    length = float(np.hypot(d[0], d[1])) or 1.0
    u = d / length
    start, tip = a + u * 0.32, b - u * 0.28
    back = tip - u * 0.2
    side = np.array([-u[1], u[0], 0.0]) * 0.11
    plotter.add_mesh(pv.Line(start, back), color=colour, line_width=6, lighting=False)
    head = pv.PolyData(np.array([tip, back + side, back - side]), faces=[3, 0, 1, 2])
    plotter.add_mesh(head, color=colour, lighting=False)


def _plotter(window_size: Sequence[int]) -> pv.Plotter:
    plotter = pv.Plotter(off_screen=True, window_size=list(check_size(window_size)))
    plotter.set_background(BACKGROUND, top=BACKGROUND_TOP)  # type: ignore[arg-type]
    return plotter


LEGEND_MARGIN = 0.02  # of the picture, between the legend and its corner


def _legend(plotter: pv.Plotter, replay: GameReplay, scene: Scene2D) -> Any:
    """The seats' legend (agent and place, in each seat's colour in ``scene``) in the lower
    right corner, on a grey box when a colour is too light for the usual one (Sight's White);
    returns its actor."""
    entries = [
        [f"seat {s}: {name} (place {replay.result.places[s] + 1:g})", seat_colour(scene, s)]
        for s, name in enumerate(replay.agents)
    ]
    box = "#8F8F8F" if any(_luminance(colour) > 220 for _, colour in entries) else "#FAFAF8"
    size = (0.28, 0.045 * len(entries) + 0.02)
    legend = plotter.add_legend(entries, bcolor=box, size=size, face=None)  # type: ignore[arg-type]
    # in the lower right corner, placed here: pyvista's loc="lower right" takes the box's
    # height for its width (map_loc_to_pos, 0.49), which pushed a wide legend off the picture
    legend.SetPosition(1.0 - size[0] - LEGEND_MARGIN, LEGEND_MARGIN)
    legend.SetPosition2(*size)
    return legend


def save_png_2d(
    replay: GameReplay | str | Path,
    turn: int | None,
    path: str | Path,
    *,
    fog: int | None = None,
    window_size: Sequence[int] = DEFAULT_SIZE,
) -> Path:
    """Draw the position after ``turn`` turns (None: the last) of a 2D game's replay offscreen
    and write it to ``path`` (a ``.png``): the truth, or what seat ``fog`` may know. Returns
    the path written."""
    out = check_output(path, (".png",), "PNG")
    rp = check_2d(replays.load(replay) if isinstance(replay, (str, Path)) else replay)
    check_seat(rp, fog)
    shown = rp.last_turn if turn is None else check_turn_2d(rp, turn)
    words = [f"seat {s} ({rp.agents[s]}): {t}" for s, t in rp.texts(shown)] if shown else []
    plotter = _plotter(window_size)
    try:
        scene = scene_at(rp, shown, fog)
        draw_scene(plotter, scene, words)
        _legend(plotter, rp, scene)
        image: Any = plotter.screenshot(return_img=True)
    finally:
        plotter.close()
    import imageio.v2 as imageio

    with written_atomically(out) as tmp:
        imageio.imwrite(tmp, np.asarray(image), format="PNG")
    return out


__all__ = ["draw_scene", "save_png_2d"]
