"""The 3D replay viewer of AntipoliX (PyVista). Imports ``antipolix``, never the reverse.

    antipolix view game.apx.json.gz                          # interactive: slider, keys, help
    antipolix view game.apx.json.gz --turn 40 --png t40.png  # offscreen, no display needed

From Python (notebooks)::

    import viz
    plotter = viz.render_turn("game.apx.json.gz", 40, mode="boards", boards=(2, 3, 4))
    plotter.show()
    viz.save_png(replay, None, "last.png", fog=1)  # the last turn as player 1 sees it (R6)
    viz.save_animation(replay, "game.mp4", turns=(0, 60), frames_per_turn=3, fps=6)
    viz.save_html(replay, "game.html")  # one web page with the whole game, for any browser
    viz.show_page(replay)  # that page inline in a notebook; render_turn's plotter shows inline

Layers: :mod:`viz.view` (view options and the interactive state, pure Python), :mod:`viz.scene`
(a replay turn as numpy arrays of glyphs, event lines and marks, no VTK), :mod:`viz.render`
(one merged PyVista mesh per glyph kind; PNG, GIF and MP4 export), :mod:`viz.viewer` (the
interactive window), :mod:`viz.html` (the same scenes as a web page, drawn by three.js),
:mod:`viz.notebook` (inline plots in Jupyter) and :mod:`viz.cli` (``antipolix view``). PyVista
is imported only when something is drawn, so ``antipolix`` commands start fast and this package
imports without a display.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from viz.errors import ViewError
from viz.palette import PALETTE, player_colour
from viz.scene import Scene, build_scene
from viz.view import View, ViewerState

if TYPE_CHECKING:
    from viz.html import save_html, show_page
    from viz.render import render_turn, save_animation, save_png
    from viz.viewer import open_viewer

_LAZY = {
    "render_turn": "viz.render",
    "save_png": "viz.render",
    "save_animation": "viz.render",
    "open_viewer": "viz.viewer",
    "show_page": "viz.html",
    "save_html": "viz.html",
}


def __getattr__(name: str) -> Any:
    """PyVista-backed functions, imported on first use (see the module docstring)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'viz' has no attribute {name!r}")


__all__ = [
    "PALETTE",
    "Scene",
    "View",
    "ViewError",
    "ViewerState",
    "build_scene",
    "open_viewer",
    "player_colour",
    "render_turn",
    "save_animation",
    "save_html",
    "save_png",
    "show_page",
]
