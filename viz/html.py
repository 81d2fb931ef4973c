"""The replay page: one self-contained HTML file that shows a replay in 3D in any browser.

``antipolix view GAME --html game.html`` (or :func:`save_html`) writes a page that needs no
server and no network: the three.js library (``viz/web/vendor``), the page's own renderer
(``viz/web/replay.js``) and the game are all inside the file. It opens offline by a double click
and can be mailed or attached like a picture.

One scene, two renderers: the page is built from the same :class:`~viz.scene.Scene` the PyVista
viewer draws. :func:`page_data` builds the scene of every turn, for the truth and for what each
player saw (R6, what ``--fog`` shows), in universe mode (where a world point is a cell, so every
coordinate is an integer) and keeps only what changes from one turn to the next: pieces that
appeared, changed or moved (by their id, whatever ids are), pieces gone, and the turn's event
lines, marks, labels, log lines and legend entries. The browser lays the cells out as the whole
universe or as boards with the numbers :class:`~viz.scene.Projection` spreads them by (also in
the data), so it can show any three boards along any axis without another scene per choice.

The data (JSON) and the library are gzip-compressed and base64-encoded into the page, which
unpacks them with the browser's ``DecompressionStream`` (every current browser has it). The
same replay and options always give the same bytes.

The page also carries the game's story (:mod:`antipolix.story`: the eliminations, the decisive
turn, the end), marked on its timeline above the slider and listed in the legend, each a jump
to its turn (keys ``[`` and ``]``: the previous and next one). The story is read from what
every player is told (R6), so a one-player page holds it too.

>>> from antipolix import load_replay                                    # doctest: +SKIP
>>> save_html(load_replay("out/demo.apx.json.gz"), "demo.html")          # doctest: +SKIP
PosixPath('demo.html')
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from antipolix.game import Game
from antipolix.pieces import PieceType, Trait
from antipolix.replay import Replay, load_replay
from antipolix.story import story
from antipolix.version import __version__
from viz.errors import ViewError
from viz.outputs import check_output, written_atomically
from viz.palette import TONES, player_colour
from viz.scene import (
    AXIS_NAMES,
    BOARD_AXES,
    UNKNOWN_TRAIT,
    Projection,
    Scene,
    build_scene,
    check_turn,
)
from viz.view import AXES, View

PAGE_FORMAT = "antipolix-page"
PAGE_VERSION = 1
LINE_KINDS = ("move", "attack", "teleport")
MARK_KINDS = ("destroyed", "crushed", "converted", "casualty")
HTML_SUFFIXES = (".html", ".htm")
# where the page's pieces live in the package (installed as package data, see pyproject.toml)
WEB_FILES = ("page.html", "page.css", "replay.js", "vendor/three.min.js")
DATA_MARK = "/*APX:DATA*/"
THREE_MARK = "/*APX:THREE*/"
SCRIPT_MARK = "/*APX:SCRIPT*/"
STYLE_MARK = "/*APX:STYLE*/"
TITLE_MARK = "<!--APX:TITLE-->"


def web_file(name: str) -> str:
    """The text of one file of ``viz/web`` (package data)."""
    return (resources.files("viz") / "web" / name).read_text(encoding="utf-8")


def _pack(text: str) -> str:
    """gzip (no timestamp, so the same text gives the same bytes) then base64."""
    return base64.b64encode(gzip.compress(text.encode("utf-8"), 9, mtime=0)).decode("ascii")


def unpack(text: str) -> str:
    """The inverse of the page's packing (for tests and tools that read a page)."""
    return gzip.decompress(base64.b64decode(text)).decode("utf-8")


@cache
def _packed_three() -> str:
    return _pack(web_file("vendor/three.min.js"))


# -- the scene as data -------------------------------------------------------------------------


def _cell(point: Any) -> list[int | float]:
    """A universe-mode world point ``(x, y, z)`` as the cell ``[z, y, x]``: integers, as every
    point of today's scenes is a cell; a point between cells (should a scene ever place one
    there) keeps 3 decimals, never float noise."""
    p = np.asarray(point, dtype=np.float64)[::-1]
    out: list[int | float] = []
    for v in p:
        r = round(float(v), 3)
        out.append(int(r) if r.is_integer() else r)
    return out


@dataclass
class _Colours:
    """Colours by index: the players' first, then the tones the scene uses."""

    table: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)

    def __call__(self, colour: str) -> int:
        key = colour.upper()
        if key not in self.index:
            self.index[key] = len(self.table)
            self.table.append(key)
        return self.index[key]


@dataclass
class _Ids:
    """Page ids: small integers in order of first appearance, whatever the engine's ids are (they
    are opaque; a browser's numbers are exact only up to 2**53). Built from the views the page
    holds, so a one-player page numbers only what that player saw."""

    index: dict[int, int] = field(default_factory=dict)

    def __call__(self, pid: int) -> int:
        return self.index.setdefault(pid, len(self.index))


@dataclass
class _Track:
    """One view's previous turn, to write only what changed."""

    pieces: dict[int, tuple[int, ...]] = field(default_factory=dict)
    players: dict[int, tuple[bool, str]] = field(default_factory=dict)


def _turn_delta(scene: Scene, track: _Track, colours: _Colours, ids: _Ids) -> dict[str, Any]:
    """What ``scene`` adds to the previous turn of its view (see the module docstring)."""
    out = _pieces_delta(scene, track, ids)
    out |= _events_data(scene, colours)
    entries = []
    for e in scene.players:
        row = (e.alive, e.text)
        if track.players.get(e.player) != row:
            entries.append([e.player, int(e.alive), e.text])
            track.players[e.player] = row
    if entries:
        out["e"] = entries
    if scene.title != default_title(scene.turn, scene.last_turn):
        out["t"] = scene.title
    return out


def _pieces_delta(scene: Scene, track: _Track, ids: _Ids) -> dict[str, Any]:
    """The pieces that appeared, changed or moved (``p``: id, owner, type, trait, cell, ghost,
    flat) and those gone (``r``), by page id."""
    g = scene.glyphs
    now: dict[int, tuple[int, ...]] = {}
    for i in range(len(g)):
        cell = [int(v) for v in g.cells[i]]
        now[ids(int(g.ids[i]))] = (
            int(g.owners[i]),
            int(g.types[i]),
            int(g.traits[i]),
            *cell,
            int(bool(g.ghost[i])),
        )
    out: dict[str, Any] = {}
    changed = [pid for pid, row in now.items() if track.pieces.get(pid) != row]
    if changed:
        out["p"] = [v for pid in changed for v in (pid, *now[pid])]
    gone = [pid for pid in track.pieces if pid not in now]
    if gone:
        out["r"] = gone
    track.pieces = now
    return out


def _events_data(scene: Scene, colours: _Colours) -> dict[str, Any]:
    """The turn's event lines (``l``), marks (``m``), labels (``b``) and log lines (``g``)."""
    out: dict[str, Any] = {}
    lines = [
        v
        for ln in scene.lines
        for v in (
            LINE_KINDS.index(ln.kind),
            colours(ln.colour),
            *_cell(ln.points[0]),
            *_cell(ln.points[-1]),
        )
    ]
    if lines:
        out["l"] = lines
    marks = [
        v
        for m in scene.marks
        for v in (
            MARK_KINDS.index(m.kind),
            colours(m.colour),
            *_cell(m.point),
            -1 if m.piece_type is None else int(m.piece_type),
        )
    ]
    if marks:
        out["m"] = marks
    if scene.labels:
        out["b"] = [[*_cell(lb.point), lb.text] for lb in scene.labels]
    if scene.log:
        out["g"] = list(scene.log)
    return out


def default_title(turn: int, last_turn: int) -> str:
    """The title the page writes itself for a turn (the scene's, unless it says more)."""
    return f"AntipoliX · turn {turn} of {last_turn}"


def _layouts(shape: tuple[int, int, int]) -> dict[str, Any]:
    """Per axis: which cell axes are a board's u and v, and the step from one shown board to
    the next in each layout (as :class:`~viz.scene.Projection` spreads them)."""
    out: dict[str, Any] = {}
    for a, axis in enumerate(AXES):
        iu, iv = BOARD_AXES[a]
        entry: dict[str, Any] = {
            "u": iu,
            "v": iv,
            "names": [AXIS_NAMES[iu], AXIS_NAMES[iv]],
            "size": [shape[iu], shape[iv]],
            "length": shape[a],
        }
        for layout in ("row", "stack"):
            if shape[a] < 2:
                entry[layout] = [0, 0, 0]
                continue
            two = Projection(shape, View(mode="boards", axis=axis, boards=(0, 1), layout=layout))
            step = two.panels[1].origin - two.panels[0].origin
            entry[layout] = [round(float(v), 6) for v in step]
        out[axis] = entry
    return out


def _view_name(fog: int | None, agents: Sequence[str]) -> str:
    if fog is None:
        return "the truth"
    return f"as P{fog} ({agents[fog]}) sees it"


def page_data(
    replay: Replay,
    fogs: Sequence[int | None] | None = None,
    start: View | None = None,
    turn: int = 0,
) -> dict[str, Any]:
    """The data of a replay page: the scene of every turn for each view in ``fogs`` (``None``
    is the truth, a player is what it saw, R6; default: the truth and every player), as
    described in the module docstring. ``start`` and ``turn`` are what the page shows first."""
    players = replay.rules.players
    fogs = [None, *range(players)] if fogs is None else list(fogs)
    start_view = (start if start is not None else View()).check(replay.rules.shape, players)
    for fog in fogs:
        View(fog=fog).check(replay.rules.shape, players)
    if start_view.fog not in fogs:
        raise ViewError(f"the page's first view (fog {start_view.fog}) is not among its views")
    colours = _Colours()
    for p in range(players):
        colours(player_colour(p))
    turns, seen = _turns(replay, fogs, colours)
    return {
        "format": PAGE_FORMAT,
        "version": PAGE_VERSION,
        "engine": __version__,
        "shape": list(replay.rules.shape),
        "players": players,
        "agents": list(replay.agents),
        "last_turn": replay.last_turn,
        "colours": colours.table,
        "tones": dict(TONES),
        "types": {str(int(t)): t.name.lower() for t in PieceType},
        "traits": {
            **{str(int(t)): t.name.lower() for t in Trait},
            str(UNKNOWN_TRAIT): "unknown",
        },
        "line_kinds": list(LINE_KINDS),
        "mark_kinds": list(MARK_KINDS),
        "layouts": _layouts(replay.rules.shape),
        "views": [
            {
                "fog": fog,
                "name": _view_name(fog, replay.agents),
                "seen": seen[k][0][1],  # at the first turn; then from the turns of "seen_from"
                "seen_from": seen[k][1:],
            }
            for k, fog in enumerate(fogs)
        ],
        "turns": turns,
        "start": _start(start_view, turn, fogs.index(start_view.fog)),
        "story": [{"turn": m.turn, "kind": m.kind, "text": m.text} for m in story(replay).moments],
    }


def _turns(
    replay: Replay, fogs: Sequence[int | None], colours: _Colours
) -> tuple[list[list[dict[str, Any]]], list[list[list[Any]]]]:
    """Per turn, what each view adds to its previous turn; and what each view sees (the end
    of its scenes' subtitle), as ``[turn, text]`` from the turns it changes on: a seat's view
    says what it sees until the seat is out, then that it sees nothing (R6)."""
    tracks = [_Track() for _ in fogs]
    ids = _Ids()
    turns: list[list[dict[str, Any]]] = []
    seen: list[list[list[Any]]] = [[] for _ in fogs]
    states: dict[int, Game] = {}
    for t in range(replay.last_turn + 1):
        states = {k: v for k, v in states.items() if k == t - 1}
        states[t] = replay.state_at(t)
        row = []
        for k, fog in enumerate(fogs):
            scene = build_scene(replay, t, View(fog=fog), states=states)
            row.append(_turn_delta(scene, tracks[k], colours, ids))
            text = scene.subtitle.split(" · ", 1)[-1]
            if not seen[k] or seen[k][-1][1] != text:
                seen[k].append([t, text])
        turns.append(row)
    return turns, seen


def _start(view: View, turn: int, index: int) -> dict[str, Any]:
    """What the page shows first: ``view`` (its fog as the ``index`` of a page view) at
    ``turn``."""
    return {
        "turn": turn,
        "mode": view.mode,
        "axis": view.axis,
        "boards": list(view.boards),
        "slice": view.slice,
        "layout": view.layout,
        "angle": view.angle,
        "view": index,
        "events": view.events,
    }


# -- the page ----------------------------------------------------------------------------------


def escape_script(text: str) -> str:
    """Text safe inside a ``<script>`` element (no ``</script`` can end it early)."""
    return text.replace("</", "<\\/")


def escape_html(text: str) -> str:
    """Text safe inside an HTML element."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def filled_page(name: str, marks: Sequence[tuple[str, str]]) -> str:
    """The page ``viz/web/NAME`` with each mark replaced by its value (each mark must stand
    there exactly once: a page that lost one is an error of the package, not of the user)."""
    page = web_file(name)
    for mark, value in marks:
        if page.count(mark) != 1:
            raise RuntimeError(f"viz/web/{name} must hold {mark} exactly once")
        page = page.replace(mark, value)
    return page


def page_html(
    replay: Replay,
    *,
    view: View | None = None,
    turn: int | None = None,
    fogs: Sequence[int | None] | None = None,
) -> str:
    """The replay page as text (see :func:`save_html`)."""
    start = (view if view is not None else View()).check(replay.rules.shape, replay.rules.players)
    if fogs is None:
        fogs = [None, *range(replay.rules.players)] if start.fog is None else [start.fog]
    first = check_turn(replay, 0 if turn is None else turn)
    data = page_data(replay, fogs, start, first)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    title = f"AntipoliX replay · {', '.join(replay.agents)} · {replay.last_turn} turns"
    return filled_page(
        "page.html",
        (
            (TITLE_MARK, escape_html(title)),
            (STYLE_MARK, web_file("page.css")),
            (THREE_MARK, _packed_three()),
            (DATA_MARK, _pack(text)),
            (SCRIPT_MARK, escape_script(web_file("replay.js"))),
        ),
    )


def save_html(
    replay: Replay | str | Path,
    path: str | Path,
    *,
    view: View | None = None,
    turn: int | None = None,
    fogs: Sequence[int | None] | None = None,
) -> Path:
    """Write the replay page of ``replay`` to ``path`` (a ``.html`` file) and return the path.

    ``view`` is what the page shows first (mode, axis, boards, layout, events). Its ``fog``
    chooses what the page holds: ``None`` (the default) the truth and every player's view,
    switchable in the page; a player, only what that player saw (R6), so a page can be shared
    without what it did not know. ``fogs`` overrides that choice. ``turn`` is the first turn
    shown (default 0).

    The page is written to a temporary file beside ``path`` and renamed when complete, so a
    failure leaves nothing half-written.
    """
    out = check_output(path, HTML_SUFFIXES, "HTML")
    rp = replay if isinstance(replay, Replay) else load_replay(replay)
    text = page_html(rp, view=view, turn=turn, fogs=fogs)
    with written_atomically(out) as tmp:
        tmp.write_bytes(text.encode("utf-8"))
    return out


def save_page(replay: Replay | str | Path, turn: int | None, path: str | Path) -> Path:
    """The replay page of ``replay`` opening at ``turn``, written to ``path``: the ``html``
    picture writer of the ``antipolix.pictures`` entry points, called as the ``png`` one is,
    ``save(replay, turn, path)`` (the demo writes its page beside its picture so)."""
    return save_html(replay, path, turn=turn)


def show_page(
    replay: Replay | str | Path,
    *,
    view: View | None = None,
    turn: int | None = None,
    height: int = 640,
) -> Any:
    """The replay page of ``replay`` as an inline notebook output (Jupyter): an
    ``IPython.display.HTML`` holding the page in a frame ``height`` pixels high. Same options
    as :func:`save_html`."""
    from IPython.display import HTML

    rp = replay if isinstance(replay, Replay) else load_replay(replay)
    page = page_html(rp, view=view, turn=turn)
    return HTML(  # type: ignore[no-untyped-call]
        f'<div class="antipolix-replay"><iframe srcdoc="{html.escape(page, quote=True)}" '
        f'style="width: 100%; height: {int(height)}px; border: 1px solid #DAD6CD;" '
        'title="AntipoliX replay"></iframe></div>'
    )


def read_page_data(path: str | Path) -> dict[str, Any]:
    """The data inside a replay page written by :func:`save_html` (for tests and tools)."""
    text = Path(path).read_text(encoding="utf-8")
    start = text.find('id="apx-data"')
    if start < 0:
        raise ViewError(f"{path} is not an antipolix replay page")
    body = text[text.index(">", start) + 1 : text.index("</script>", start)]
    data: dict[str, Any] = json.loads(unpack(body.strip()))
    if data.get("format") != PAGE_FORMAT:
        raise ViewError(f"{path} is not an antipolix replay page")
    return data


__all__ = [
    "PAGE_FORMAT",
    "PAGE_VERSION",
    "page_data",
    "page_html",
    "read_page_data",
    "save_html",
    "save_page",
    "show_page",
]
