"""Replays in Jupyter notebooks.

``viz.render_turn(...)`` returns a :class:`ReplayPlotter`: the value of a notebook cell shows
itself inline. With PyVista's trame backend installed (``pip install "pyvista[jupyter]"``) the
picture is interactive (rotate, zoom); without it, or when a notebook is executed headless, it
is a static image (rendered offscreen through EGL, no display needed). A backend chosen with
``pyvista.set_jupyter_backend(...)`` is used as it is.

:func:`viz.show_page` (in :mod:`viz.html`) shows the whole game inline as the replay page
(slider, play, modes, fog: the browser draws it, so nothing else needs installing)::

    import viz
    viz.render_turn(replay, 40, mode="boards", boards=(2, 3, 4))  # a picture of turn 40
    viz.show_page(replay)                                        # the whole game, in 3D
"""

from __future__ import annotations

import importlib.util

from viz._env import prepare_headless

prepare_headless()  # before VTK makes a window

import pyvista as pv  # noqa: E402


def in_notebook() -> bool:
    """Is this code running in a Jupyter kernel (not a terminal IPython, not plain Python)?"""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and "IPKernelApp" in getattr(shell, "config", {})


def jupyter_backend() -> str:
    """The PyVista notebook backend to show plots with: the one the user set, else ``trame``
    (interactive) when a trame backend is installed, else ``static`` (a picture)."""
    chosen = pv.global_theme.jupyter_backend
    if chosen:
        return str(chosen)
    if importlib.util.find_spec("trame_pyvista") is not None:  # PyVista >= 0.47
        return "trame"
    if all(importlib.util.find_spec(m) is not None for m in ("trame", "trame_vtk")):
        return "trame"  # older PyVista: trame built in
    return "static"


class ReplayPlotter(pv.Plotter):
    """A :class:`pyvista.Plotter` that shows itself inline when it is a notebook cell's value."""

    def _ipython_display_(self) -> None:
        if in_notebook():
            self.show(jupyter_backend=jupyter_backend())
        else:
            print(repr(self))


__all__ = ["ReplayPlotter", "in_notebook", "jupyter_backend"]
