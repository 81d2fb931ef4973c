"""Headless rendering: choose VTK's EGL window when there is no display.

VTK reads ``VTK_DEFAULT_OPENGL_WINDOW`` when it creates a render window. On Linux without an X
display the default (X11) window cannot open, so every module of :mod:`viz` that imports PyVista
calls :func:`prepare_headless` first. A value the user set is kept; the variable is never set to
an empty string (VTK crashes on it).
"""

from __future__ import annotations

import os
import sys

EGL_WINDOW = "vtkEGLRenderWindow"


def has_display() -> bool:
    """Can an interactive window open here? (Linux needs X: ``DISPLAY``; others always can.)"""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY"))
    return True


def prepare_headless() -> None:
    """Use EGL (GPU or Mesa software) for off-screen rendering when there is no display."""
    if not has_display() and not os.environ.get("VTK_DEFAULT_OPENGL_WINDOW"):
        os.environ["VTK_DEFAULT_OPENGL_WINDOW"] = EGL_WINDOW
