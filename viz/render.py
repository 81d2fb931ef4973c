"""Drawing a :class:`~viz.scene.Scene` with PyVista, and the offscreen exports (PNG, GIF, MP4).

Every glyph kind is one merged mesh (one actor), whatever the number of pieces: the pieces of a
type are instances of one template mesh, stacked with numpy, coloured per cell. A frame of the
full 8×16×16 universe is therefore a handful of actors, which software rendering draws quickly.

>>> from antipolix import load_replay                      # doctest: +SKIP
>>> plotter = render_turn(load_replay("out/demo.apx.json.gz"), 40)  # doctest: +SKIP
>>> plotter.show()                                         # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import math
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from viz._env import has_display, prepare_headless

prepare_headless()  # before VTK makes a window

import pyvista as pv  # noqa: E402
from vtkmodules.vtkRenderingCore import (  # noqa: E402
    vtkActor2D,
    vtkCoordinate,
    vtkPolyDataMapper2D,
    vtkTextActor,
)

from antipolix.game import Game  # noqa: E402
from antipolix.games import DEFAULT, replays  # noqa: E402
from antipolix.games.replays import GameReplay  # noqa: E402
from antipolix.pieces import PieceType, Trait  # noqa: E402
from antipolix.replay import Replay, load_replay  # noqa: E402
from viz.errors import ViewError  # noqa: E402
from viz.notebook import ReplayPlotter  # noqa: E402
from viz.outputs import (  # noqa: E402
    DEFAULT_SIZE,
    MAX_FRAMES_PER_TURN,
    check_output,
    check_size,
    written_atomically,
)
from viz.palette import (  # noqa: E402
    BACKGROUND,
    BACKGROUND_TOP,
    BOARD_DARK,
    BOARD_LIGHT,
    DANGER,
    INK,
    LATTICE,
    PALETTE,
    player_rgb,
    rgb,
)
from viz.render2d import save_png_2d  # noqa: E402
from viz.scene import (  # noqa: E402
    Label,
    Line,
    Mark,
    Scene,
    build_scene,
    check_turn,
    view_of,
)
from viz.view import View  # noqa: E402

FloatArray = npt.NDArray[np.float64]
UInt8Array = npt.NDArray[np.uint8]

ANTI_ALIASING = "msaa"
TYPES = (PieceType.ARMY, PieceType.HOVERCRAFT, PieceType.FORTRESS)
TYPE_NAMES = {
    PieceType.ARMY: "army",
    PieceType.HOVERCRAFT: "hovercraft",
    PieceType.FORTRESS: "fortress",
}
TOP = {PieceType.ARMY: 0.28, PieceType.HOVERCRAFT: 0.17, PieceType.FORTRESS: 0.36}  # glyph tops
GHOST_OPACITY = 0.3  # invisible pieces
LEGEND_WIDTH = 0.24  # right-hand share of the window kept for the legend
ARROW_LIFT = 0.45  # attack and move arrows run this far above the pieces' centres
DENSE = 600  # pieces shown above which outlines, drop lines and shadows are left out (speed)
BOARD_GLYPH_SCALE = 1.3  # pieces on 2D boards are drawn larger (nothing hides them)
GREY = "#4D4D4D"  # secondary text
KEY_GREY = "#9A968E"  # glyph key icons
FADED = "#777777"  # eliminated players


# -- glyph templates ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Template:
    """A mesh to instance: points, normals, and its cell connectivity (VTK legacy layout)."""

    points: FloatArray
    normals: FloatArray | None
    cells: npt.NDArray[np.int64]
    is_id: npt.NDArray[np.bool_]  # entries of ``cells`` that are point ids (not counts)
    n_cells: int
    lines: bool

    @staticmethod
    def of(mesh: pv.PolyData, normals: bool = True) -> Template:
        lines = mesh.faces.size == 0 and mesh.lines.size > 0
        if not lines and normals:
            mesh = mesh.compute_normals(
                cell_normals=False,
                split_vertices=True,
                feature_angle=35.0,
                auto_orient_normals=True,
            )
        cells = np.asarray(mesh.lines if lines else mesh.faces, dtype=np.int64)
        is_id = np.ones(len(cells), dtype=bool)
        i = 0
        while i < len(cells):
            is_id[i] = False
            i += int(cells[i]) + 1
        return Template(
            points=np.asarray(mesh.points, dtype=np.float64),
            normals=None if lines or not normals else np.asarray(mesh.point_data["Normals"]),
            cells=cells,
            is_id=is_id,
            n_cells=mesh.n_lines if lines else mesh.n_cells,
            lines=lines,
        )

    def instances(
        self, centres: FloatArray, colours: UInt8Array, scale: float = 1.0
    ) -> pv.PolyData:
        """One mesh holding a copy of the template at each centre, cells coloured per copy."""
        k, n = len(centres), len(self.points)
        points = (self.points[None, :, :] * scale + centres[:, None, :]).reshape(-1, 3)
        offsets = np.repeat(np.arange(k, dtype=np.int64) * n, len(self.cells))
        cells = np.tile(self.cells, k) + offsets * np.tile(self.is_id, k)
        mesh = pv.PolyData(points, lines=cells) if self.lines else pv.PolyData(points, faces=cells)
        if self.normals is not None:
            mesh.point_data["Normals"] = np.tile(self.normals, (k, 1))
            mesh.point_data.active_normals_name = "Normals"
        mesh.cell_data["rgb"] = np.repeat(np.asarray(colours, dtype=np.uint8), self.n_cells, axis=0)
        return mesh


def _saucer(
    segments: int = 24, radius: float = 0.4, top: float = 0.2, bottom: float = 0.1
) -> pv.PolyData:
    """A flying saucer in 2 × ``segments`` triangles (a sphere costs ten times more to draw)."""
    a = np.linspace(0.0, 2 * math.pi, segments, endpoint=False)
    rim = np.column_stack([radius * np.cos(a), radius * np.sin(a), np.zeros(segments)])
    points = np.vstack([rim, [[0.0, 0.0, top], [0.0, 0.0, -bottom]]])
    i = np.arange(segments)
    j = (i + 1) % segments
    up = np.column_stack([np.full(segments, 3), i, j, np.full(segments, segments)])
    down = np.column_stack([np.full(segments, 3), j, i, np.full(segments, segments + 1)])
    return pv.PolyData(points, faces=np.vstack([up, down]).ravel())


@cache
def templates() -> dict[str, Template]:
    """Glyphs (one cell = one unit): army a cube, hovercraft a saucer, fortress a bunker with a
    pyramid roof; chief a halo above the piece, teleporter a mast with a ball; marks for events."""
    pieces = _piece_meshes()
    out = {TYPE_NAMES[kind]: Template.of(mesh) for kind, mesh in pieces.items()}
    return out | _trait_templates() | _event_templates(pieces)


def _piece_meshes() -> dict[PieceType, pv.PolyData]:
    """The three piece types, centred on the origin."""
    army = pv.Cube(x_length=0.56, y_length=0.56, z_length=0.56)
    base = pv.Cube(center=(0, 0, -0.24), x_length=0.78, y_length=0.78, z_length=0.24)
    roof = pv.Cone(center=(0, 0, 0.12), direction=(0, 0, 1), height=0.48, radius=0.55, resolution=4)
    roof = roof.rotate_z(45.0, inplace=False)
    fortress = (base.triangulate() + roof.triangulate()).clean()
    return {PieceType.ARMY: army, PieceType.HOVERCRAFT: _saucer(), PieceType.FORTRESS: fortress}


def _trait_templates() -> dict[str, Template]:
    """Per piece type (its top, :data:`TOP`): the chief's halo, the teleporter's mast."""
    out = {}
    halo = pv.ParametricTorus(ringradius=0.27, crosssectionradius=0.055, u_res=20, v_res=8)
    mast = pv.Cylinder(center=(0, 0, 0.14), direction=(0, 0, 1), radius=0.035, height=0.28)
    ball = pv.Sphere(radius=0.1, center=(0, 0, 0.32), theta_resolution=14, phi_resolution=10)
    for kind in TYPES:
        top = TOP[kind]
        out[f"chief:{kind.name}"] = Template.of(halo.translate((0, 0, top + 0.16), inplace=False))
        out[f"teleporter:{kind.name}"] = Template.of(
            (mast.triangulate() + ball.triangulate()).translate((0, 0, top), inplace=False)
        )
    return out


def _event_templates(pieces: dict[PieceType, pv.PolyData]) -> dict[str, Template]:
    """Marks of events: a cross (destroyed, crushed), a wire box (converted), a ring where a
    moved piece stood, a shadow, and per type the wire ghost of a casualty."""
    r = 0.5  # the cross: the cell's four diagonals, end to end
    corners = [[-r, -r, -r], [r, r, r], [-r, r, -r], [r, -r, r], [r, -r, -r], [-r, r, r]]
    corners += [[r, r, -r], [-r, -r, r]]
    cross = pv.PolyData(
        np.array(corners, dtype=np.float64), lines=np.array([2, 0, 1, 2, 2, 3, 2, 4, 5, 2, 6, 7])
    )
    box = pv.Box(bounds=(-0.47, 0.47, -0.47, 0.47, -0.47, 0.47)).extract_all_edges()
    circle = pv.Circle(radius=0.3, resolution=24)
    ring = pv.PolyData(circle.points, lines=np.hstack([[25], np.arange(24), [0]]))
    shadow = pv.Disc(inner=0.0, outer=0.2, c_res=12).triangulate()
    out = {
        "destroyed": Template.of(cross),
        "converted": Template.of(box),
        "origin": Template.of(ring),  # where a moved piece stood
        "shadow": Template.of(shadow, normals=False),
    }
    out["crushed"] = out["destroyed"]
    ghosts = {
        PieceType.ARMY: pieces[PieceType.ARMY].extract_feature_edges(30.0),
        PieceType.HOVERCRAFT: _saucer(segments=10).extract_all_edges(),
        PieceType.FORTRESS: pieces[PieceType.FORTRESS].extract_feature_edges(30.0),
    }
    for kind, edges in ghosts.items():
        out[f"casualty:{kind.name}"] = Template.of(edges)
    return out


@cache
def _arrow_parts() -> tuple[Template, Template]:
    """A shaft (radius 0.05, from x=0 to x=1) and a tip (cone 0.3 long, apex at x=0)."""
    shaft = pv.Cylinder(center=(0.5, 0, 0), direction=(1, 0, 0), radius=0.05, height=1.0)
    tip = pv.Cone(center=(-0.15, 0, 0), direction=(1, 0, 0), height=0.3, radius=0.14)
    return Template.of(shaft.triangulate()), Template.of(tip.triangulate())


def arrows(
    starts: FloatArray,
    ends: FloatArray,
    colours: UInt8Array,
    gap: float = 0.0,
    width: float = 1.0,
) -> pv.PolyData:
    """Arrows from ``starts`` to ``ends`` (stopping ``gap`` short), as one mesh, built with numpy:
    shaft points stretched along the arrow, tips moved to its end, both turned onto it;
    ``width`` scales the shaft's and the tip's thickness."""
    d = ends - starts
    length = np.linalg.norm(d, axis=1)
    keep = length > gap + 0.05
    starts, d, length, colours = starts[keep], d[keep], length[keep], colours[keep]
    if not len(starts):
        return pv.PolyData()
    x = d / length[:, None]
    helper = np.where(np.abs(x[:, 2:3]) < 0.9, [[0.0, 0.0, 1.0]], [[0.0, 1.0, 0.0]])
    y = np.cross(x, helper)
    y /= np.linalg.norm(y, axis=1)[:, None]
    z = np.cross(x, y)
    basis = np.stack([x, y, z], axis=1)  # (k, 3, 3): rows are the arrow's axes
    span = length - gap
    shaft, tip = _arrow_parts()
    parts = []
    for part, stretch in ((shaft, True), (tip, False)):
        local = np.broadcast_to(part.points, (len(starts), *part.points.shape)).copy()
        local[:, :, 1:] *= width
        if stretch:
            local[:, :, 0] *= (span - 0.28)[:, None]
        else:
            local[:, :, 0] += span[:, None]
        points = np.einsum("kpi,kij->kpj", local, basis) + starts[:, None, :]
        normals = None if part.normals is None else np.einsum("pi,kij->kpj", part.normals, basis)
        k, n = points.shape[:2]
        cells = np.tile(part.cells, k) + np.repeat(np.arange(k) * n, len(part.cells)) * np.tile(
            part.is_id, k
        )
        mesh = pv.PolyData(points.reshape(-1, 3), faces=cells)
        if normals is not None:
            mesh.point_data["Normals"] = normals.reshape(-1, 3)
            mesh.point_data.active_normals_name = "Normals"
        mesh.cell_data["rgb"] = np.repeat(colours, part.n_cells, axis=0)
        parts.append(mesh)
    merged: pv.PolyData = parts[0].merge(parts[1])
    return merged


PLAYER_RGB = player_rgb(len(PALETTE))


def _owner_rgb(owners: npt.NDArray[np.int64]) -> UInt8Array:
    out: UInt8Array = PLAYER_RGB[np.asarray(owners, dtype=np.int64) % len(PALETTE)]
    return out


def _rgb_rows(colours: Iterable[str]) -> UInt8Array:
    rows = [rgb(c) for c in colours]
    return np.stack(rows) if rows else np.zeros((0, 3), dtype=np.uint8)


# -- 2D overlays (text, legend) ----------------------------------------------------------------


def _text(
    text: str,
    x: float,
    y: float,
    size: int,
    colour: str = INK,
    bold: bool = False,
    right: bool = False,
    top: bool = True,
    font: str = "arial",
) -> vtkTextActor:
    actor = vtkTextActor()
    actor.SetInput(text)
    prop = actor.GetTextProperty()
    prop.SetFontFamilyAsString(font.capitalize())
    prop.SetFontSize(size)
    prop.SetColor(*(c / 255 for c in rgb(colour)))
    prop.SetBold(bold)
    if right:
        prop.SetJustificationToRight()
    else:
        prop.SetJustificationToLeft()
    if top:
        prop.SetVerticalJustificationToTop()
    else:
        prop.SetVerticalJustificationToBottom()
    actor.SetPosition(x, y)
    return actor


def _shapes_2d(polys: Sequence[tuple[FloatArray, str, float]]) -> vtkActor2D:
    """Convex filled polygons in pixels, each with a colour and an opacity."""
    points: list[FloatArray] = []
    cells: list[int] = []
    colours: list[UInt8Array] = []
    start = 0
    for pts, colour, opacity in polys:
        points.append(np.column_stack([pts, np.zeros(len(pts))]))
        cells += [len(pts), *range(start, start + len(pts))]
        start += len(pts)
        colours.append(np.append(rgb(colour), np.uint8(round(255 * opacity))))
    data = pv.PolyData(np.vstack(points), faces=np.array(cells)) if polys else pv.PolyData()
    if polys:
        data.cell_data["rgba"] = np.stack(colours).astype(np.uint8)
    mapper = vtkPolyDataMapper2D()
    mapper.SetInputData(data)
    mapper.SetScalarModeToUseCellData()
    mapper.SetColorModeToDirectScalars()
    mapper.ScalarVisibilityOn()
    coordinate = vtkCoordinate()
    coordinate.SetCoordinateSystemToDisplay()
    mapper.SetTransformCoordinate(coordinate)
    actor = vtkActor2D()
    actor.SetMapper(mapper)
    return actor


def _circle(cx: float, cy: float, rx: float, ry: float, n: int = 20) -> FloatArray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.column_stack([cx + rx * np.cos(a), cy + ry * np.sin(a)])


def _ticks(n: int) -> list[int]:
    """Cell indices labelled along a board side of ``n`` cells: every 5th (every one on small
    boards) and the last."""
    out = list(range(0, n, 5 if n > 10 else 1))
    return out if out[-1] == n - 1 else [*out, n - 1]


def _layer_ticks(n: int, most: int = 8) -> list[int]:
    """The boards (z) labelled up the universe's side: every one up to ``most`` boards, else
    every 2nd, 5th, 10th... so that at most ``most`` labels share the side (16 boards: 0, 2,
    ..., 12, 15), always the first and the last, never two neighbours."""
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 10**9) if math.ceil(n / s) <= most)
    out = list(range(0, n, step))
    if out[-1] != n - 1:
        if len(out) > 1 and n - 1 - out[-1] < step / 2 + 0.5:
            out.pop()  # the last label would crowd its neighbour
        out.append(n - 1)
    return out


def _rect(x0: float, y0: float, x1: float, y1: float) -> FloatArray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)


Polygon = tuple[FloatArray, str, float]  # a convex polygon in pixels, its colour and opacity


def _icon(kind: str, cx: float, cy: float, s: float, colour: str) -> list[Polygon]:
    """A legend icon of half-size ``s`` centred on (cx, cy): filled polygons."""
    return ICONS[kind](cx, cy, s, colour)


def _army_icon(cx: float, cy: float, h: float, colour: str) -> list[Polygon]:
    return [(_rect(cx - h, cy - h, cx + h, cy + h), colour, 1.0)]


def _hovercraft_icon(cx: float, cy: float, h: float, colour: str) -> list[Polygon]:
    return [(_circle(cx, cy, 1.25 * h, 0.6 * h), colour, 1.0)]


def _fortress_icon(cx: float, cy: float, h: float, colour: str) -> list[Polygon]:
    house = np.array(
        [
            [cx - 1.2 * h, cy - h],
            [cx + 1.2 * h, cy - h],
            [cx + 1.2 * h, cy - 0.2 * h],
            [cx, cy + 1.3 * h],
            [cx - 1.2 * h, cy - 0.2 * h],
        ]
    )
    return [(house, colour, 1.0)]


def _chief_icon(cx: float, cy: float, h: float, colour: str) -> list[Polygon]:
    return [
        (_rect(cx - 0.8 * h, cy - h, cx + 0.8 * h, cy + 0.2 * h), colour, 1.0),
        (_circle(cx, cy + 0.75 * h, 0.9 * h, 0.3 * h), INK, 1.0),
        (_circle(cx, cy + 0.75 * h, 0.55 * h, 0.14 * h), BACKGROUND, 1.0),
    ]


def _teleporter_icon(cx: float, cy: float, h: float, colour: str) -> list[Polygon]:
    return [
        (_rect(cx - 0.8 * h, cy - h, cx + 0.8 * h, cy + 0.1 * h), colour, 1.0),
        (_rect(cx - 0.1 * h, cy + 0.1 * h, cx + 0.1 * h, cy + 0.8 * h), INK, 1.0),
        (_circle(cx, cy + 0.95 * h, 0.28 * h, 0.28 * h), INK, 1.0),
    ]


def _invisible_icon(cx: float, cy: float, h: float, colour: str) -> list[Polygon]:
    return [(_rect(cx - h, cy - h, cx + h, cy + h), colour, GHOST_OPACITY + 0.1)]


def _attack_icon(cx: float, cy: float, h: float, colour: str) -> list[Polygon]:
    head = np.array(
        [[cx + 0.5 * h, cy - 0.55 * h], [cx + 1.4 * h, cy], [cx + 0.5 * h, cy + 0.55 * h]]
    )
    return [
        (_rect(cx - 1.4 * h, cy - 0.14 * h, cx + 0.6 * h, cy + 0.14 * h), colour, 1.0),
        (head, colour, 1.0),
    ]


def _move_icon(cx: float, cy: float, h: float, colour: str) -> list[Polygon]:
    head = np.array(
        [[cx + 0.6 * h, cy - 0.4 * h], [cx + 1.4 * h, cy], [cx + 0.6 * h, cy + 0.4 * h]]
    )
    return [
        (_circle(cx - 1.1 * h, cy, 0.35 * h, 0.35 * h), colour, 1.0),
        (_rect(cx - 0.8 * h, cy - 0.1 * h, cx + 0.7 * h, cy + 0.1 * h), colour, 1.0),
        (head, colour, 1.0),
    ]


def _arrow_head(cx: float, cy: float, h: float, back: float, half_width: float) -> FloatArray:
    """A triangle pointing right, its tip at ``cx + 1.4 h``, its base at ``cx + back h``."""
    return np.array(
        [
            [cx + back * h, cy - half_width * h],
            [cx + 1.4 * h, cy],
            [cx + back * h, cy + half_width * h],
        ]
    )


def _destroyed_icon(cx: float, cy: float, h: float, colour: str) -> list[Polygon]:
    t = 0.16 * h
    a = np.array([[-1, -1 + t], [-1 + t, -1], [1, 1 - t], [1 - t, 1]]) * h
    b = a * np.array([-1.0, 1.0])
    centre = np.array([cx, cy])
    return [(a + centre, colour, 1.0), (b + centre, colour, 1.0)]


def _converted_icon(cx: float, cy: float, h: float, colour: str) -> list[Polygon]:
    t = 0.2 * h
    return [
        (_rect(cx - h, cy - h, cx + h, cy - h + t), colour, 1.0),
        (_rect(cx - h, cy + h - t, cx + h, cy + h), colour, 1.0),
        (_rect(cx - h, cy - h, cx - h + t, cy + h), colour, 1.0),
        (_rect(cx + h - t, cy - h, cx + h, cy + h), colour, 1.0),
    ]


def _teleport_icon(cx: float, cy: float, h: float, colour: str) -> list[Polygon]:
    a = np.linspace(0, math.pi, 12)
    outer = np.column_stack([cx - 1.3 * h * np.cos(a), cy - 0.6 * h + 1.5 * h * np.sin(a)])
    inner = np.column_stack([cx - 1.05 * h * np.cos(a), cy - 0.6 * h + 1.2 * h * np.sin(a)])
    return [  # a band of small quads (each convex)
        (np.array([outer[i], outer[i + 1], inner[i + 1], inner[i]]), colour, 1.0)
        for i in range(len(a) - 1)
    ]


# the legend's icons by kind: pieces, traits, then events
ICONS: dict[str, Callable[[float, float, float, str], list[Polygon]]] = {
    "army": _army_icon,
    "hovercraft": _hovercraft_icon,
    "fortress": _fortress_icon,
    "chief": _chief_icon,
    "teleporter": _teleporter_icon,
    "invisible": _invisible_icon,
    "attack": _attack_icon,
    "move": _move_icon,
    "destroyed": _destroyed_icon,
    "converted": _converted_icon,
    "teleport": _teleport_icon,
}


KEY_ROWS: tuple[tuple[str, str], ...] = (
    ("army", "army"),
    ("hovercraft", "hovercraft"),
    ("fortress", "fortress"),
    ("chief", "chief (halo)"),
    ("teleporter", "teleporter (mast)"),
    ("invisible", "invisible (see-through)"),
)
EVENT_ROWS: tuple[tuple[str, str], ...] = (
    ("attack", "attack: attack vs defence"),
    ("destroyed", "destroyed / crushed"),
    ("converted", "converted / taken"),
    ("teleport", "teleported (arc)"),
    ("move", "move: from the ring to the piece"),
)


# -- drawing -----------------------------------------------------------------------------------


_DRAWERS: weakref.WeakKeyDictionary[pv.Plotter, SceneDrawer] = weakref.WeakKeyDictionary()


class SceneDrawer:
    """Draws scenes into one plotter, replacing what it drew before (for animations and the
    interactive viewer: the camera is kept unless the view's geometry changes)."""

    def __init__(self, plotter: pv.Plotter) -> None:
        self.plotter = plotter
        self._names: set[str] = set()
        self._overlays: list[vtkActor2D] = []
        self._geometry: tuple[object, ...] | None = None
        self.help: str | None = None  # extra text (the interactive viewer's keys)
        self.status: str | None = None
        self._scale = 1.0
        self.reserve_bottom = 0.0  # pixels (at 800 px high) kept free at the bottom (widgets)
        self.timeline: float | None = None  # an animation's progress (0 to 1), drawn as a bar
        self._meshes: dict[str, tuple[pv.PolyData, str]] = {}
        self._static: tuple[object, ...] | None = None  # what the lattice / boards were drawn for
        self._static_names: set[str] = set()

    @classmethod
    def of(cls, plotter: pv.Plotter) -> SceneDrawer:
        drawer = _DRAWERS.get(plotter)
        if drawer is None:
            drawer = _DRAWERS[plotter] = cls(plotter)
        return drawer

    # 3D

    def _add(self, name: str, mesh: pv.PolyData, **options: object) -> None:
        """Show ``mesh`` as actor ``name``: the actor drawn last frame is updated in place when
        its options are the same (much cheaper than a new actor), else replaced."""
        if mesh.n_points == 0:
            return
        key = repr(sorted(options.items()))
        old = self._meshes.get(name)
        if old is not None and old[1] == key and name in self.plotter.actors:
            old[0].copy_from(mesh, deep=False)
        else:
            self.plotter.add_mesh(mesh, name=name, reset_camera=False, render=False, **options)  # type: ignore[arg-type]
            self._meshes[name] = (mesh, key)
        self._names.add(name)

    def _pieces(self, scene: Scene) -> None:
        g = scene.glyphs
        colours = _owner_rgb(g.owners)
        shading = {"ambient": 0.32, "diffuse": 0.75, "specular": 0.12, "specular_power": 18.0}
        for kind in TYPES:
            name = TYPE_NAMES[kind]
            of_kind = g.types == int(kind)
            for ghost in (False, True):
                rows = of_kind & (g.ghost == ghost)
                if not rows.any():
                    continue
                mesh = templates()[name].instances(g.points[rows], colours[rows], self._scale)
                mesh.field_data["piece_ids"] = g.ids[rows]
                edges = kind is not PieceType.HOVERCRAFT and len(g) <= DENSE
                self._add(
                    f"{'ghosts' if ghost else 'pieces'}:{name}",
                    mesh,
                    scalars="rgb",
                    rgb=True,
                    opacity=GHOST_OPACITY if ghost else 1.0,
                    show_edges=edges,
                    edge_color=INK,
                    line_width=1.0,
                    **shading,
                )
            for trait in (Trait.CHIEF, Trait.TELEPORTER):
                rows = of_kind & (g.traits == int(trait))
                if not rows.any():
                    continue
                marks = np.tile(rgb(INK), (int(rows.sum()), 1))
                mesh = templates()[f"{trait.name.lower()}:{kind.name}"].instances(
                    g.points[rows], marks, self._scale
                )
                self._add(
                    f"marks:{trait.name.lower()}:{name}", mesh, scalars="rgb", rgb=True, **shading
                )

    def _universe(self, scene: Scene) -> None:
        """The universe's frame: a floor lattice, the bounding box, board (z) ticks, axis names."""
        x0, x1, y0, y1, z0, z1 = scene.bounds
        nx, ny, nz = round(x1 - x0), round(y1 - y0), round(z1 - z0)
        segments = []
        for i in range(nx + 1):
            segments += [(x0 + i, y0, z0), (x0 + i, y1, z0)]
        for j in range(ny + 1):
            segments += [(x0, y0 + j, z0), (x1, y0 + j, z0)]
        self._add(
            "lattice:floor",
            pv.line_segments_from_points(np.array(segments, dtype=float)),
            color=LATTICE,
            line_width=1.0,
        )
        self._add(
            "lattice:box",
            pv.Box(bounds=scene.bounds).extract_all_edges(),
            color="#8C877D",
            line_width=1.5,
        )
        layers = [(x0, y1, z0 + k + 0.5) for k in range(nz)]
        ticks = np.array(
            [[x0, y1, z0 + k + 0.5] for k in range(nz)]
            + [[x0 - 0.25, y1, z0 + k + 0.5] for k in range(nz)]
        )
        self._add(
            "lattice:ticks",
            pv.line_segments_from_points(
                ticks[np.ravel(np.column_stack([np.arange(nz), np.arange(nz) + nz]))]
            ),
            color="#8C877D",
            line_width=1.5,
        )
        shown = _layer_ticks(nz)
        self._labels(
            "lattice:layers",
            [(x0 - 1.1, y1, layers[k][2]) for k in shown],
            [f"z={k}" for k in shown],
            size=11,
        )
        self._labels(
            "lattice:axes",
            [((x0 + x1) / 2, y0 - 1.4, z0), (x0 - 1.8, (y0 + y1) / 2, z0)],
            [f"x 0…{nx - 1}", f"y 0…{ny - 1}"],
            size=13,
        )

    def _drop_lines(self, scene: Scene) -> None:
        """Depth cues of the universe view: a line from each piece down to the floor, and its
        shadow there in its owner's colour (left out for dense scenes, where they only clutter)."""
        z0 = scene.bounds[4]
        if 0 < len(scene.glyphs) <= DENSE:
            tops = scene.glyphs.points
            seg = np.empty((2 * len(tops), 3))
            seg[0::2] = tops - [0, 0, 0.3]
            seg[1::2] = np.column_stack([tops[:, :2], np.full(len(tops), z0)])
            keep = np.repeat(seg[0::2, 2] > z0 + 0.01, 2)
            if keep.any():
                self._add(
                    "lattice:stalks",
                    pv.line_segments_from_points(seg[keep]),
                    color="#A59F94",
                    line_width=1.0,
                    opacity=0.8,
                )
            colours = _owner_rgb(scene.glyphs.owners)
            shadow = templates()["shadow"].instances(
                np.column_stack([tops[:, :2], np.full(len(tops), z0 + 0.01)]), colours
            )
            self._add(
                "lattice:shadows", shadow, scalars="rgb", rgb=True, opacity=0.45, lighting=False
            )

    def _boards(self, scene: Scene) -> None:
        quads: list[FloatArray] = []
        colours: list[str] = []
        outline = []
        labels, texts = [], []
        ticks, tick_texts = [], []
        for k, panel in enumerate(scene.panels):
            su, sv = panel.size
            grid_u, grid_v = np.meshgrid(np.arange(su), np.arange(sv), indexing="ij")
            u, v = grid_u.ravel(), grid_v.ravel()
            base = panel.origin + np.array([0.0, 0.0, -0.5])
            corners = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
            cells = np.stack(
                [
                    base + (u[:, None] + du) * panel.du + (v[:, None] + dv) * panel.dv
                    for du, dv in corners
                ],
                axis=1,
            )
            quads.append(cells.reshape(-1, 3))
            colours += [
                BOARD_LIGHT if (a + b) % 2 == 0 else BOARD_DARK for a, b in zip(u, v, strict=True)
            ]
            lo = base - 0.5 * panel.du - 0.5 * panel.dv
            hi = lo + su * panel.du + sv * panel.dv
            outline.append(
                pv.Box(bounds=(lo[0], hi[0], lo[1], hi[1], lo[2], lo[2])).extract_all_edges()
            )
            labels.append(base + (su / 2 - 0.5) * panel.du + (sv - 0.5 + 1.3) * panel.dv)
            texts.append(panel.label)
            for i in _ticks(su):
                ticks.append(base + i * panel.du - 1.1 * panel.dv)
                tick_texts.append(f"{panel.names[0]}{i}")
            if k == 0 or scene.view.layout == "stack":
                for j in _ticks(sv):
                    ticks.append(base + j * panel.dv - 1.5 * panel.du)
                    tick_texts.append(f"{panel.names[1]}{j}")
        if not quads:
            return
        points = np.vstack(quads)
        n = len(points) // 4
        faces = np.column_stack([np.full(n, 4), np.arange(4 * n).reshape(n, 4)]).ravel()
        mesh = pv.PolyData(points, faces=faces)
        mesh.cell_data["rgb"] = _rgb_rows(colours)
        self._add("boards:cells", mesh, scalars="rgb", rgb=True, lighting=False)
        self._add("boards:outline", pv.merge(outline), color="#8C877D", line_width=2.0)
        self._labels("boards:labels", labels, texts, size=16, bold=True)
        self._labels("boards:ticks", ticks, tick_texts, size=10)

    def _labels(
        self,
        name: str,
        points: Sequence[Sequence[float]] | FloatArray,
        texts: Sequence[str],
        size: int = 12,
        bold: bool = False,
        box: bool = False,
        colour: str = INK,
    ) -> None:
        if not len(texts):
            return
        scale = self.plotter.window_size[1] / 800
        self.plotter.add_point_labels(
            np.asarray(points, dtype=float).reshape(-1, 3),
            list(texts),
            name=name,
            font_size=max(8, round(size * scale)),
            text_color=colour,
            bold=bold,
            show_points=False,
            shape="rounded_rect" if box else None,
            shape_color="white",
            shape_opacity=0.85,
            margin=4,
            always_visible=True,
            reset_camera=False,
            render=False,
        )
        self._names.add(name)

    def _events(self, scene: Scene) -> None:
        """The turn's events: move and attack arrows, teleport arcs, marks, the ghosts of the
        pieces that left the board, and the outcomes written beside their cells."""
        lift = np.array([0.0, 0.0, ARROW_LIFT * self._scale])  # over the pieces, not hidden
        moves = [ln for ln in scene.lines if ln.kind == "move"]
        if moves:  # slimmer arrows than attacks, in the mover's colour, from where it stood
            starts = self._arrows("events:moves", moves, lift, gap=0.4, width=0.7)
            rings = templates()["origin"].instances(
                starts - lift, _rgb_rows(ln.colour for ln in moves), self._scale
            )
            self._add("events:origins", rings, scalars="rgb", rgb=True, line_width=2.5)
        attacks = [ln for ln in scene.lines if ln.kind == "attack"]
        if attacks:
            self._arrows("events:attacks", attacks, lift, gap=0.3, width=1.5)
        self._teleports([ln for ln in scene.lines if ln.kind == "teleport"])
        for kind, width in (("destroyed", 5.0), ("crushed", 5.0), ("converted", 3.0)):
            marks = [m for m in scene.marks if m.kind == kind]
            self._marks(f"events:{kind}", kind, marks, line_width=width, render_lines_as_tubes=True)
        for piece_type in TYPES:
            marks = [m for m in scene.marks if m.kind == "casualty" and m.piece_type is piece_type]
            name = f"events:casualties:{TYPE_NAMES[piece_type]}"
            self._marks(name, f"casualty:{piece_type.name}", marks, line_width=2.5)
        self._event_labels(scene.labels)

    def _arrows(
        self, name: str, lines: Sequence[Line], lift: FloatArray, gap: float, width: float
    ) -> FloatArray:
        """``lines`` as arrows ``lift`` above their ends; returns where they start."""
        starts = np.stack([ln.points[0] for ln in lines]) + lift
        ends = np.stack([ln.points[-1] for ln in lines]) + lift
        mesh = arrows(starts, ends, _rgb_rows(ln.colour for ln in lines), gap=gap, width=width)
        self._add(name, mesh, scalars="rgb", rgb=True, ambient=0.4, diffuse=0.7)
        return starts

    def _teleports(self, arcs: Sequence[Line]) -> None:
        """Teleport arcs, as tubes in the colour of the teleported piece's owner."""
        if not arcs:
            return
        lines = []
        for ln in arcs:
            poly = pv.lines_from_points(ln.points)
            poly.cell_data["rgb"] = np.tile(rgb(ln.colour), (poly.n_cells, 1))
            lines.append(poly)
        self._add(
            "events:teleports",
            pv.merge(lines),
            scalars="rgb",
            rgb=True,
            line_width=4.0,
            render_lines_as_tubes=True,
        )

    def _marks(self, name: str, template: str, marks: Sequence[Mark], **options: object) -> None:
        """``marks`` as copies of one template, each in its colour, as one mesh."""
        if not marks:
            return
        mesh = templates()[template].instances(
            np.stack([m.point for m in marks]), _rgb_rows(m.colour for m in marks), self._scale
        )
        self._add(name, mesh, scalars="rgb", rgb=True, **options)

    def _event_labels(self, labels: Sequence[Label]) -> None:
        """Outcomes above their cells, boxed; notes of lines from another board below them."""
        outcomes = [lb for lb in labels if not lb.text.startswith("from ")]
        notes = [lb for lb in labels if lb.text.startswith("from ")]
        if outcomes:
            self._labels(
                "events:labels",
                [lb.point + np.array([0.0, 0.0, 0.95]) for lb in outcomes],
                [lb.text for lb in outcomes],
                size=13,
                bold=True,
                box=True,
            )
        if notes:  # where a line from another board comes in: below its start, small
            self._labels(
                "events:notes",
                [lb.point + np.array([0.0, -0.75, 0.0]) for lb in notes],
                [lb.text for lb in notes],
                size=11,
                box=True,
            )

    # 2D

    def _overlay(self, scene: Scene) -> None:
        """The 2D layer over the picture: the heading, the notice, the legend, the turn's story,
        a film's timeline and the viewer's help; every shape under every text."""
        renderer = self.plotter.renderer
        for actor in self._overlays:
            renderer.RemoveViewProp(actor)
        band, texts = _notice(scene, *self.plotter.window_size)
        panel, icons, legend = self._legend(scene)
        texts = [*self._heading(scene), *texts, *legend, *self._story(scene)]
        shapes = [_shapes_2d(band), _shapes_2d(panel), _shapes_2d(icons)]
        if self.timeline is not None:  # a progress bar along the bottom edge of a film
            shapes.append(_timeline(self.timeline, *self.plotter.window_size))
        if self.help:
            box, helper = self._help_box(self.help)
            shapes.append(box)
            texts.append(helper)
        self._overlays = [*shapes, *texts]
        for actor in self._overlays:
            renderer.AddViewProp(actor)

    def _heading(self, scene: Scene) -> list[vtkTextActor]:
        """The title, the subtitle and the viewer's status line, top left."""
        h = self.plotter.window_size[1]
        s = h / 800
        pad = 18 * s
        texts = [
            _text(scene.title, pad, h - pad, round(20 * s), bold=True),
            _text(scene.subtitle, pad, h - pad - 30 * s, round(14 * s), colour=GREY),
        ]
        if self.status:
            texts.append(_text(self.status, pad, h - pad - 52 * s, round(13 * s), colour=GREY))
        return texts

    def _legend(self, scene: Scene) -> tuple[list[Polygon], list[Polygon], list[vtkTextActor]]:
        """The legend's panel, icons and texts: down the right-hand side, or in columns along
        the bottom when the boards are side by side."""
        w, h = self.plotter.window_size
        s = h / 800
        pad, row, icon, size = 18 * s, 23 * s, 7 * s, round(13 * s)
        columns = _legend_columns(scene)
        widths = [
            3 * icon + 8 * s + max(self._measure(_text(r[2], 0, 0, size))[0] for r in col) + 16 * s
            for col in columns
        ]
        height = row * max(len(col) for col in columns) + 12 * s
        if legend_at_bottom(scene.view):
            right, top = w - 10 * s, pad + height + self.reserve_bottom * s
            left = right - sum(widths) - 12 * s
        else:
            right, top = w - 10 * s, h - pad
            left = min(right - sum(widths) - 12 * s, w - LEGEND_WIDTH * w)
        panel = [(_rect(left, top - height, right, top + 4 * s), "#FFFFFF", 0.85)]
        icons: list[Polygon] = []
        texts: list[vtkTextActor] = []
        x = left + 12 * s
        for col, width in zip(columns, widths, strict=True):
            y = top - row / 2
            for kind, colour, text, text_colour in col:
                if kind:
                    icons += _icon(kind, x + icon + 2 * s, y, icon, colour)
                    texts.append(
                        _text(text, x + 3 * icon + 8 * s, y + 7 * s, size, colour=text_colour)
                    )
                y -= row
            x += width
        return panel, icons, texts

    def _story(self, scene: Scene) -> list[vtkTextActor]:
        """The turn's events in words (antipolix.log), bottom left, above the viewer's widgets."""
        if not scene.log:
            return []
        s = self.plotter.window_size[1] / 800
        pad = 18 * s
        lines = [f"turn {scene.turn}:", *scene.log]
        text = _text("\n".join(lines), pad, pad + self.reserve_bottom * s, round(13 * s), top=False)
        return [text]

    def _help_box(self, text: str) -> tuple[vtkActor2D, vtkTextActor]:
        """The viewer's keys in the middle of the window, over a white box."""
        w, h = self.plotter.window_size
        s = h / 800
        helper = _text(text, 0, 0, round(13 * s), font="courier")
        tw, th = self._measure(helper)
        hw, hh = tw + 40 * s, th + 36 * s
        x0, y0 = (w - hw) / 2, (h - hh) / 2
        box = _shapes_2d([(_rect(x0, y0, x0 + hw, y0 + hh), "#FFFFFF", 0.95)])
        helper.SetPosition(x0 + 20 * s, y0 + hh - 18 * s)
        return box, helper

    def _measure(self, actor: vtkTextActor) -> tuple[float, float]:
        """Width and height in pixels of a text actor."""
        box = [0.0, 0.0, 0.0, 0.0]
        actor.GetBoundingBox(self.plotter.renderer, box)
        return box[1] - box[0], box[3] - box[2]

    def _camera(self, scene: Scene) -> None:
        view = scene.view
        geometry = (
            view.mode,
            view.axis,
            view.boards if view.mode == "boards" else (),
            view.slice if view.mode == "slice" else -1,
            view.layout,
            view.angle,
            scene.shape,
            tuple(self.plotter.window_size),
            self.reserve_bottom,
        )
        if geometry == self._geometry:
            return
        self._geometry = geometry
        apply_angle(self.plotter, scene, bottom=self.reserve_bottom / 800)

    def draw(self, scene: Scene) -> None:
        """Draw ``scene``, replacing this drawer's previous scene."""
        previous = self._names
        self._names = set()
        view = scene.view
        self._scale = 1.0 if view.mode == "universe" else BOARD_GLYPH_SCALE
        size = tuple(self.plotter.window_size)
        static = (scene.shape, view.mode, view.axis, view.shown, view.layout, scene.bounds, size)
        if static == self._static and self._static_names <= previous:
            self._names |= self._static_names  # the frame of the last scene still fits
        else:
            if view.mode == "universe":
                self._universe(scene)
            else:
                self._boards(scene)
            self._static, self._static_names = static, set(self._names)
        if view.mode == "universe":
            self._drop_lines(scene)
        self._pieces(scene)
        self._events(scene)
        for name in previous - self._names:
            cast(Any, self.plotter).remove_actor(name, reset_camera=False, render=False)
        self._overlay(scene)
        self._camera(scene)


KeyRow = tuple[str, str, str, str]  # a legend row: icon kind, icon colour, text, text colour


def _legend_columns(scene: Scene) -> list[list[KeyRow]]:
    """The legend's rows: the players, the glyph key and (with events) the event key; a column
    each when the legend runs along the bottom, else one column with a blank row between."""
    players = [
        ("army", e.colour, e.text, INK) if e.alive else ("invisible", e.colour, e.text, FADED)
        for e in scene.players
    ]
    sections = [players, [(k, KEY_GREY, t, INK) for k, t in KEY_ROWS]]
    if scene.view.events:
        sections.append([(k, DANGER if k == "destroyed" else GREY, t, INK) for k, t in EVENT_ROWS])
    if legend_at_bottom(scene.view):
        return sections
    return [[r for i, sec in enumerate(sections) for r in ([("", "", "", "")] if i else []) + sec]]


def _notice(scene: Scene, w: int, h: int) -> tuple[list[Polygon], list[vtkTextActor]]:
    """The scene's notice (the fog player is out) across the middle of the board area, over an
    opaque band; nothing without one."""
    if not scene.notice:
        return [], []
    s = h / 800
    left, bottom, right, top = FRAME_BOTTOM_LEGEND if legend_at_bottom(scene.view) else FRAME_AREA
    cx, cy = (left + right) / 2 * w, (bottom + top) / 2 * h
    band = _rect(left * w, cy - 26 * s, right * w, cy + 26 * s)
    note = _text(scene.notice, cx, cy + 11 * s, round(20 * s), colour=GREY, bold=True)
    note.GetTextProperty().SetJustificationToCentered()
    return [(band, "#FFFFFF", 0.92)], [note]


def _timeline(done: float, w: int, h: int) -> vtkActor2D:
    """A film's progress (0 to 1) as a bar along the bottom edge."""
    s = h / 800
    bar = 5 * s
    end = max(0.0, min(1.0, done)) * w
    return _shapes_2d(
        [(_rect(0, 0, w, bar), LATTICE, 0.6), (_rect(0, 0, max(end, 1.0), bar), GREY, 1.0)]
    )


def legend_at_bottom(view: View) -> bool:
    """Three boards side by side take the whole width: their legend goes along the bottom."""
    return view.mode == "boards" and view.layout == "row"


def apply_angle(plotter: pv.Plotter, scene: Scene, bottom: float = 0.0) -> None:
    """Put the camera at the view's angle preset and frame the scene in the part of the window
    left free by the title, the event log and the legend."""
    x0, x1, y0, y1, z0, z1 = scene.bounds
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2])
    view = scene.view
    up = (0.0, 0.0, 1.0)
    if view.angle == "top":
        direction, up = np.array([0.0, -1e-4, 1.0]), (0.0, 1.0, 0.0)
    elif view.angle == "front":
        direction = np.array([0.0, -1.0, 0.12])
    elif view.angle == "side":
        direction = np.array([1.0, 0.0, 0.12])
    elif view.mode != "universe" and view.layout == "row":
        direction = _spherical(azimuth=0.0, elevation=62.0)
    elif view.mode != "universe":
        direction = _spherical(azimuth=-30.0, elevation=30.0)
    else:
        direction = _spherical(azimuth=-32.0, elevation=28.0)
    direction = direction / np.linalg.norm(direction)
    camera = plotter.camera
    camera.view_angle = 24.0
    camera.SetWindowCenter(0.0, 0.0)
    # boards read as 2D diagrams: no perspective; the universe keeps it (depth cue)
    camera.SetParallelProjection(view.mode != "universe")
    camera.parallel_scale = 0.5 * float(np.linalg.norm([x1 - x0, y1 - y0, z1 - z0]))
    distance = 3.0 * float(np.linalg.norm([x1 - x0, y1 - y0, z1 - z0])) + 10.0
    plotter.camera_position = [tuple(centre + direction * distance), tuple(centre), up]
    camera.clipping_range = (0.1 * distance, 3.0 * distance)
    margin = 0.7
    corners = np.array(
        [
            [x, y, z, 1.0]
            for x in (x0 - margin - (1.6 if view.mode == "universe" else 0.6), x1 + margin)
            for y in (y0 - margin, y1 + margin)
            for z in (z0, z1 + (0.8 if view.mode == "universe" else 0.6))
        ]
    )
    left, low, right, top = FRAME_BOTTOM_LEGEND if legend_at_bottom(view) else FRAME_AREA
    _frame(plotter, corners, (left, low + bottom, right, top))


FRAME_AREA = (0.015, 0.16, 0.985 - LEGEND_WIDTH, 0.88)  # left, bottom, right, top (0 to 1)
FRAME_BOTTOM_LEGEND = (0.015, 0.25, 0.985, 0.88)


def _frame(
    plotter: pv.Plotter, corners: FloatArray, area: tuple[float, float, float, float]
) -> None:
    """Zoom and shift the camera's window so ``corners`` (homogeneous, world) fill ``area``."""
    w, h = plotter.window_size
    camera = plotter.camera
    left, bottom, right, top = (2 * a - 1 for a in area)
    want = np.array([(left + right) / 2, (bottom + top) / 2])

    def extent() -> tuple[FloatArray, FloatArray]:
        matrix = camera.GetCompositeProjectionTransformMatrix(w / h, -1.0, 1.0)
        m = np.array([[matrix.GetElement(i, j) for j in range(4)] for i in range(4)])
        p = corners @ m.T
        xy = p[:, :2] / p[:, 3:4]
        return xy.min(axis=0), xy.max(axis=0)

    for _ in range(5):
        lo, hi = extent()
        factor = min((right - left) / (hi[0] - lo[0]), (top - bottom) / (hi[1] - lo[1]))
        cast(Any, camera).zoom(factor)
        lo, hi = extent()
        shift = (lo + hi) / 2 - want
        cx, cy = camera.GetWindowCenter()
        camera.SetWindowCenter(cx + shift[0], cy + shift[1])
        if abs(factor - 1.0) < 0.005 and np.abs(shift).max() < 0.005:
            break


def _spherical(azimuth: float, elevation: float) -> FloatArray:
    a, e = math.radians(azimuth), math.radians(elevation)
    return np.array([math.cos(e) * math.sin(a), -math.cos(e) * math.cos(a), math.sin(e)])


# -- public functions --------------------------------------------------------------------------


def make_plotter(
    window_size: Sequence[int] = DEFAULT_SIZE, off_screen: bool | None = None
) -> pv.Plotter:
    """A plotter styled for replays (light background, anti-aliased lines). Off screen by
    default when there is no display."""
    size = check_size(window_size)
    if off_screen is None:
        off_screen = not has_display()
    # shows itself inline as a notebook cell's value (viz.notebook)
    plotter = ReplayPlotter(off_screen=off_screen, window_size=list(size), lighting="none")
    # two lights that follow the camera (a headlight and a key light from the upper left): a
    # five-light kit costs a third more per frame in software rendering and reads no better
    plotter.add_light(pv.Light(light_type="headlight", intensity=0.62))
    key = pv.Light(position=(-1.0, 1.2, 1.6), focal_point=(0, 0, 0), light_type="camera light")
    key.intensity = 0.48
    plotter.add_light(key)
    cast(Any, plotter).set_background(BACKGROUND, top=BACKGROUND_TOP)
    if ANTI_ALIASING:
        plotter.enable_anti_aliasing(ANTI_ALIASING)  # type: ignore[arg-type]
    return plotter


def _two_d(replay: object) -> bool:
    """Is ``replay`` (or the file it names) a replay of another game than AntipoliX?"""
    if isinstance(replay, GameReplay):
        return True
    if isinstance(replay, (str, Path)):
        return replays.game_of(replay)[0] != DEFAULT
    return False


def as_replay(replay: Replay | str | Path) -> Replay:
    """A loaded replay (the file is loaded and checked when a path is given)."""
    if isinstance(replay, Replay):
        return replay
    if isinstance(replay, (str, Path)):
        return load_replay(replay)
    raise ViewError(f"expected a Replay or the path of a replay file, got {replay!r}")


def render_turn(
    replay: Replay | str | Path,
    turn: int | None = None,
    plotter: pv.Plotter | None = None,
    *,
    view: View | None = None,
    window_size: Sequence[int] = DEFAULT_SIZE,
    **options: object,
) -> pv.Plotter:
    """Draw ``turn`` (default: the last) of a replay into ``plotter`` (a new one if None) and
    return it; ``plotter.show()`` opens it, ``plotter.screenshot(path)`` saves it.

    View options as keywords or a :class:`View`: ``mode`` (``universe``, ``boards``,
    ``slice``), ``axis`` (``z``, ``y``, ``x``), ``boards`` (up to three slice indices),
    ``slice``, ``layout`` (``row``, ``stack``), ``fog`` (None for the truth, or a player: what it
    sees, R6), ``events`` (draw the turn's events), ``angle`` (``oblique``, ``top``, ``front``,
    ``side``).
    """
    rp = as_replay(replay)
    scene = build_scene(rp, turn, view_of(view, **options))
    if plotter is None:
        plotter = make_plotter(window_size)
    SceneDrawer.of(plotter).draw(scene)
    return plotter


def save_png(
    replay: Replay | str | Path,
    turn: int | None,
    path: str | Path,
    *,
    view: View | None = None,
    window_size: Sequence[int] = DEFAULT_SIZE,
    title: str | None = None,
    **options: object,
) -> Path:
    """Render ``turn`` (None: the last) offscreen and write it to ``path`` (a ``.png``).

    Same view options as :func:`render_turn`; ``title`` replaces the picture's title (the
    demo's names the winner). Returns the path written. Also the ``png`` picture writer of the
    ``antipolix.pictures`` entry points, called as ``save(replay, turn, path, title=...)``.
    """
    if _two_d(replay):  # another game's replay: its 2D board (viz.render2d)
        fog = options.get("fog", view.fog if view is not None else None)
        return save_png_2d(replay, turn, path, fog=fog, window_size=window_size)  # type: ignore[arg-type]
    out = check_output(path, (".png",), "PNG")
    rp = as_replay(replay)
    scene = build_scene(rp, turn, view_of(view, **options))
    if title is not None:
        scene = dataclasses.replace(scene, title=title)
    plotter = make_plotter(window_size, off_screen=True)
    try:
        SceneDrawer.of(plotter).draw(scene)
        image = plotter.screenshot(return_img=True)
    finally:
        plotter.close()
    import imageio.v2 as imageio

    with written_atomically(out) as tmp:
        imageio.imwrite(tmp, np.asarray(image), format="PNG")
    return out


def frames(
    replay: Replay,
    turns: Sequence[int],
    frames_per_turn: int,
    view: View,
) -> Iterable[Scene]:
    """The scenes of an animation: ``frames_per_turn`` per turn, pieces gliding from the
    previous turn's cells (the last frame of each turn is the turn itself)."""
    states: dict[int, Game] = {}
    for t in turns:
        wanted = {t, t - 1} if t > 0 else {t}
        for old in set(states) - wanted:
            del states[old]
        for w in wanted - set(states):
            states[w] = replay.state_at(w)
        for i in range(frames_per_turn):
            yield build_scene(replay, t, view, progress=(i + 1) / frames_per_turn, states=states)


def turn_range(replay: Replay, turns: object) -> range:
    """``None`` (every turn), a ``range``, or ``(first, last)`` inclusive, checked."""
    if turns is None:
        return range(0, replay.last_turn + 1)
    if isinstance(turns, range):
        chosen = turns
    else:
        if not isinstance(turns, (tuple, list)) or len(turns) != 2:
            raise ViewError(f"turns are a range or (first, last), got {turns!r}")
        chosen = range(check_turn(replay, turns[0]), check_turn(replay, turns[1]) + 1)
    if len(chosen) == 0:
        raise ViewError(f"the turn range {turns!r} is empty")
    check_turn(replay, chosen[0])
    check_turn(replay, chosen[-1])
    return chosen


def save_animation(
    replay: Replay | str | Path,
    path: str | Path,
    turns: range | tuple[int, int] | None = None,
    frames_per_turn: int = 2,
    fps: float = 4.0,
    *,
    view: View | None = None,
    window_size: Sequence[int] = DEFAULT_SIZE,
    progress: Callable[[int, int], None] | None = None,
    **options: object,
) -> int:
    """Render ``turns`` (default: the whole game) offscreen to a ``.gif`` or ``.mp4`` with
    ``frames_per_turn`` frames per turn at ``fps`` frames per second; returns the number of
    frames written. ``progress(done, total)`` is called after each frame."""
    out = check_output(path, (".gif", ".mp4"), "animation")
    _check_film(frames_per_turn, fps)
    rp = as_replay(replay)
    chosen = turn_range(rp, turns)
    v = view_of(view, **options).check(rp.rules.shape, rp.rules.players)
    w, h = check_size(window_size)
    if out.suffix.lower() == ".mp4":
        w, h = w - w % 2, h - h % 2  # H.264 (yuv420p) wants even sizes
    scenes = frames(rp, chosen, frames_per_turn, v)
    total = len(chosen) * frames_per_turn
    # written under a temporary name and renamed at the end: a film cut short (Ctrl-C, an
    # error) never lies under the final name
    with written_atomically(out) as tmp:
        writer = _film_writer(tmp, fps)
        plotter = make_plotter((w, h), off_screen=True)
        try:
            return _film_frames(writer, plotter, (w, h), scenes, total, progress)
        finally:
            writer.close()
            plotter.close()


def _check_film(frames_per_turn: object, fps: object) -> None:
    """Frames per turn (an integer from 1 to :data:`MAX_FRAMES_PER_TURN`) and frames per
    second (above 0, up to 120)."""
    if (
        isinstance(frames_per_turn, bool)
        or not isinstance(frames_per_turn, int)
        or not 1 <= frames_per_turn <= MAX_FRAMES_PER_TURN
    ):
        raise ViewError(
            f"frames per turn must be an integer from 1 to {MAX_FRAMES_PER_TURN}, "
            f"got {frames_per_turn!r}"
        )
    if not isinstance(fps, (int, float)) or isinstance(fps, bool) or not 0 < fps <= 120:
        raise ViewError(f"fps must be a number above 0 and up to 120, got {fps!r}")


def _film_writer(path: Path, fps: float) -> Any:
    """An imageio writer of an MP4 (H.264) or a looping GIF, by ``path``'s suffix."""
    import imageio.v2 as imageio

    if path.suffix.lower() == ".mp4":
        return imageio.get_writer(
            str(path),
            format="FFMPEG",
            mode="I",
            fps=fps,
            codec="libx264",
            quality=7,
            macro_block_size=1,
            pixelformat="yuv420p",
        )
    return imageio.get_writer(str(path), format="GIF", mode="I", duration=1000.0 / fps, loop=0)


def _film_frames(
    writer: Any,
    plotter: pv.Plotter,
    size: tuple[int, int],
    scenes: Iterable[Scene],
    total: int,
    progress: Callable[[int, int], None] | None,
) -> int:
    """Draw each scene in ``plotter`` and append it to ``writer`` (``size``: the film's width
    and height); returns the number of frames written."""
    w, h = size
    drawer = SceneDrawer.of(plotter)
    count = 0
    for scene in scenes:
        drawer.timeline = count / max(total - 1, 1)  # also keeps frames distinct (GIF)
        drawer.draw(scene)
        plotter.render()
        image = plotter.screenshot(return_img=True)
        assert image is not None
        writer.append_data(np.asarray(image)[:h, :w])
        count += 1
        if progress is not None:
            progress(count, total)
    return count
