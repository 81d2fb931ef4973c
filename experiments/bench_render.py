"""Viewer speed: seconds per frame rendered offscreen (scene, drawing, render and read-back).

    .venv/bin/python experiments/bench_render.py [--frames 12] [--size 1280,800]

Two cases: the default board (8×16×16, 4 players) with 4 full armies (the first turns of a seeded
game), and a full universe (every one of the 2048 cells holds a piece). Each glyph kind is one
merged mesh, so the full universe is still a handful of actors. Target: <= 0.5 s per frame with
software rendering (Mesa llvmpipe through EGL). The CPU seconds (all threads of this process) are
printed too: on a shared machine they vary less than the wall-clock time. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

from antipolix import Rules, load_replay, play
from antipolix.agents import GreedyAgent
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least
from antipolix.replay import Replay
from viz import View, build_scene
from viz.render import DEFAULT_SIZE, SceneDrawer, make_plotter


def default_game(folder: Path) -> Replay:
    path = folder / "default.apx.json.gz"
    play(Rules(), [GreedyAgent() for _ in range(4)], 7, replay=path)
    return load_replay(path)


def full_universe(folder: Path) -> Replay:
    """Every cell occupied: 4 players × 512 pieces, placed anywhere (zones off), 2 turns."""
    path = folder / "full.apx.json.gz"
    rules = Rules(budget=3 * 512, max_turns=2, zones=False)
    armies = [["army+chief", *(["army"] * 300), *(["hovercraft"] * 211)] for _ in range(4)]
    play(rules, [GreedyAgent() for _ in range(4)], 1, armies=armies, replay=path)
    return load_replay(path)


def bench(name: str, replay: Replay, view: View, frames: int, size: tuple[int, int]) -> None:
    plotter = make_plotter(size, off_screen=True)
    drawer = SceneDrawer.of(plotter)
    turns = [t % (replay.last_turn + 1) for t in range(frames + 1)]
    parts: dict[str, list[float]] = {"scene": [], "draw": [], "render": [], "total": [], "cpu": []}
    pieces = 0
    try:
        for i, t in enumerate(turns):
            start, cpu = time.perf_counter(), time.process_time()
            scene = build_scene(replay, t, view)
            built = time.perf_counter()
            drawer.draw(scene)
            drawn = time.perf_counter()
            plotter.render()
            plotter.screenshot(return_img=True)
            done = time.perf_counter()
            if i == 0:  # the first frame also sets up the window and compiles shaders
                first = done - start
                continue
            pieces = len(scene.glyphs)
            parts["scene"].append(built - start)
            parts["draw"].append(drawn - built)
            parts["render"].append(done - drawn)
            parts["total"].append(done - start)
            parts["cpu"].append(time.process_time() - cpu)
    finally:
        plotter.close()
    med = {k: statistics.median(v) for k, v in parts.items()}
    print(
        f"{name:<44} {pieces:5d} pieces  {med['total']:.3f} s/frame "
        f"(scene {med['scene']:.3f}, draw {med['draw']:.3f}, render {med['render']:.3f}; "
        f"worst {max(parts['total']):.3f}; CPU {med['cpu']:.3f} s; first frame {first:.2f})"
    )


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int_at_least(1), default=12, help="frames timed per case")
    parser.add_argument("--size", default=",".join(map(str, DEFAULT_SIZE)), help="W,H pixels")
    args = parser.parse_args()
    w, h = (int(v) for v in args.size.split(","))
    window = os.environ.get("VTK_DEFAULT_OPENGL_WINDOW", "default")
    print(
        f"viz render benchmark: {w}×{h} px, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, VTK window {window}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        default = default_game(folder)
        full = full_universe(folder)
        print(f"(games played and loaded in {time.perf_counter() - start:.1f} s)")
        bench("default board, 4 full armies: universe", default, View(), args.frames, (w, h))
        bench(
            "default board, 4 full armies: three boards",
            default,
            View(mode="boards", boards=(2, 3, 4)),
            args.frames,
            (w, h),
        )
        bench("default board, as player 0 sees it (R6)", default, View(fog=0), args.frames, (w, h))
        bench("full 8×16×16 universe: universe", full, View(), args.frames, (w, h))
        bench(
            "full 8×16×16 universe: three boards",
            full,
            View(mode="boards", boards=(2, 3, 4)),
            args.frames,
            (w, h),
        )


if __name__ == "__main__":
    run_script(main)
