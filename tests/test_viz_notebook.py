"""Notebooks: the example notebook (experiments/batch_and_replay.ipynb) runs from top to bottom
in a Jupyter kernel (nbclient, ipykernel) and shows what it promises: the batch's tables, the
plots, a picture of a replay turn inline and the replay page inline; and ``viz.render_turn``'s
plotter shows itself as a notebook cell's value (a static picture without trame). About 10 s.
"""

from __future__ import annotations

import base64
import io
import os
import sys

if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
    os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")  # before VTK loads

from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "experiments" / "batch_and_replay.ipynb"


def outputs(cell) -> list[dict]:
    return [dict(o) for o in cell.get("outputs", [])]


def image(output: dict) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(base64.b64decode(output["data"]["image/png"]))))


def test_the_example_notebook_runs_and_shows_a_batch_and_a_replay(tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(not c.outputs and c.execution_count is None for c in code), "commit it clean"
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError with the cell and traceback on any error
    sources = [c.source for c in code]

    def cell_of(text: str) -> list[dict]:
        return outputs(code[next(i for i, s in enumerate(sources) if text in s)])

    rates = cell_of("results = simulate(")[0]["data"]["text/html"]
    assert "greedy" in rates and "random" in rates and "win_rate" in rates
    plots = [o for o in cell_of("plt.subplots") if "image/png" in o.get("data", {})]
    assert len(plots) == 1
    pictures = [o for o in cell_of("viz.render_turn(") if "image/png" in o.get("data", {})]
    assert len(pictures) == 1, "render_turn's plotter did not show itself inline"
    picture = image(pictures[0])
    assert picture.shape[:2] == (600, 960)
    assert len(np.unique(picture.reshape(-1, picture.shape[2]), axis=0)) > 50  # not blank
    page = cell_of("viz.show_page(")[0]["data"]["text/html"]
    assert "<iframe srcdoc=" in page and "apx-data" in page
    assert (tmp_path / "runs" / "notebook" / "game.apx.json.gz").exists()
    assert list((tmp_path / "runs" / "notebook" / "batch").glob("*.parquet"))


def test_a_replay_plotter_outside_a_notebook_prints_itself(capsys) -> None:
    from viz.notebook import ReplayPlotter, in_notebook

    assert not in_notebook()
    plotter = ReplayPlotter(off_screen=True, window_size=(64, 64))
    try:
        plotter._ipython_display_()
        assert "Plotter" in capsys.readouterr().out
    finally:
        plotter.close()


def test_notebook_backend_is_the_users_else_trame_else_static(monkeypatch) -> None:
    import pyvista as pv

    from viz import notebook

    monkeypatch.setattr(pv.global_theme, "_jupyter_backend", None, raising=False)
    monkeypatch.setattr(notebook.importlib.util, "find_spec", lambda name: None)
    assert notebook.jupyter_backend() == "static"
    monkeypatch.setattr(
        notebook.importlib.util, "find_spec", lambda name: object() if "trame" in name else None
    )
    assert notebook.jupyter_backend() == "trame"
    monkeypatch.setattr(pv.global_theme, "_jupyter_backend", "html", raising=False)
    assert notebook.jupyter_backend() == "html"
