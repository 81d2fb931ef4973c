"""The viewer's drawing and exports (viz.render, viz.viewer, viz.cli), offscreen through EGL.

What a person would see: each living player's colour on screen, one glyph per piece shown (all
pieces of a kind in one merged mesh), fog that hides what the player cannot see (R6), files
that open with the right number of frames, and clear errors (no VTK traceback) for bad input.
Pictures are small (a few hundred pixels) so the suite stays fast on CPU rendering.
"""

from __future__ import annotations

import os
import sys

if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
    os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")  # before VTK loads

import tempfile
from dataclasses import replace
from pathlib import Path

import imageio.v2 as imageio
import numpy as np
import pytest
import pyvista as pv

from antipolix.cli import main
from antipolix.errors import ReplayError
from antipolix.events import Combat, Eliminated
from antipolix.pieces import Trait
from antipolix.replay import Replay, load_replay
from tests.test_viz_scene import first_turn, write_small_replay
from viz import View, ViewError, build_scene
from viz.palette import PALETTE, rgb
from viz.render import (
    FRAME_AREA,
    FRAME_BOTTOM_LEGEND,
    SceneDrawer,
    legend_at_bottom,
    render_turn,
    save_animation,
    save_png,
)
from viz.viewer import Viewer

SIZE = (480, 320)


@pytest.fixture(scope="module")
def replay_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_small_replay(tmp_path_factory.mktemp("viz") / "small.apx.json.gz")


@pytest.fixture(scope="module")
def replay(replay_path: Path) -> Replay:
    return load_replay(replay_path)


def scene_pixels(image: np.ndarray, view: View) -> np.ndarray:
    """The part of a picture where the universe is drawn (no title, log or legend)."""
    h, w = image.shape[:2]
    left, bottom, right, top = FRAME_BOTTOM_LEGEND if legend_at_bottom(view) else FRAME_AREA
    return image[int((1 - top) * h) : int((1 - bottom) * h), int(left * w) : int(right * w), :3]


def colour_pixels(pixels: np.ndarray, colour: str, tolerance: int = 20) -> int:
    return int(
        (np.abs(pixels.astype(int) - rgb(colour).astype(int)).max(axis=2) <= tolerance).sum()
    )


def drawn_ids(plotter) -> list[int]:
    """Piece ids held by the merged glyph meshes (one mesh per type, solid or see-through)."""
    plotter.screenshot(return_img=True)  # the first render
    plotter.render()  # brings replaced actors' pipelines up to date
    ids: list[int] = []
    for name, actor in plotter.actors.items():
        if name.startswith(("pieces:", "ghosts:")):
            mesh = actor.mapper.dataset
            ids += mesh.field_data["piece_ids"].tolist()
    return sorted(ids)


@pytest.mark.parametrize("mode", ["universe", "boards"])
def test_each_living_player_colour_is_on_screen(replay: Replay, mode: str) -> None:
    view = View(mode=mode, boards=(0, 1, 2))  # type: ignore[arg-type]
    plotter = render_turn(replay, 0, view=view, window_size=SIZE)
    try:
        pixels = scene_pixels(np.asarray(plotter.screenshot(return_img=True)), view)
    finally:
        plotter.close()
    for player in replay.state_at(0).living:
        assert colour_pixels(pixels, PALETTE[player]) >= 30, f"P{player}'s colour is missing"
    for unused in PALETTE[replay.rules.players :]:
        assert colour_pixels(pixels, unused, tolerance=6) < 5  # no seat that does not play


@pytest.mark.parametrize(
    "view", [View(), View(mode="boards", axis="y", boards=(1, 2, 4)), View(mode="slice", slice=1)]
)
def test_one_glyph_per_piece_shown_in_one_mesh_per_kind(replay: Replay, view: View) -> None:
    turn = replay.last_turn // 2
    scene = build_scene(replay, turn, view)
    plotter = render_turn(replay, turn, view=view, window_size=SIZE)
    try:
        assert drawn_ids(plotter) == sorted(scene.glyphs.ids.tolist())
        glyph_actors = [n for n in plotter.actors if n.startswith(("pieces:", "ghosts:"))]
        assert len(glyph_actors) <= 6  # 3 types, solid or see-through: never one per piece
    finally:
        plotter.close()


def test_r6_fog_hides_what_the_player_cannot_see(replay: Replay) -> None:
    truth = build_scene(replay, 0)
    hidden = {
        int(i)
        for i, o, t in zip(truth.glyphs.ids, truth.glyphs.owners, truth.glyphs.traits, strict=True)
        if o != 0 and t == int(Trait.INVISIBLE)
    }
    assert hidden
    plotter = render_turn(replay, 0, fog=0, window_size=SIZE)
    try:
        seen = drawn_ids(plotter)
        assert hidden.isdisjoint(seen)
        assert seen == sorted(replay.observation(0, 0).ids.tolist())
        ghosts = [n for n in plotter.actors if n.startswith("ghosts:")]
        owners = set()
        for name in ghosts:  # only player 0's own invisible piece is drawn see-through
            ids = plotter.actors[name].mapper.dataset.field_data["piece_ids"]
            owners |= {replay.state_at(0).piece(int(i)).owner for i in ids}
        assert owners == {0}
    finally:
        plotter.close()


def test_r6_a_player_out_of_the_game_sees_nothing(replay: Replay, tmp_path: Path) -> None:
    """--fog P after P's elimination: an empty board and a line saying why (it was drawn as if
    P still played, every visible piece of the others on the board)."""
    t = next(
        r.turn for r in replay if any(isinstance(e, Eliminated) for e in r.events)
    )  # the first elimination
    out = next(e.player for e in replay.events(t) if isinstance(e, Eliminated))
    later = min(t + 1, replay.last_turn)
    assert len(build_scene(replay, t - 1, View(fog=out)).glyphs) > 0  # it saw before
    scene = build_scene(replay, later, View(fog=out))
    assert len(scene.glyphs) == 0
    assert scene.notice == f"P{out} was eliminated at turn {t}: it sees nothing from then on"
    path = save_png(replay, later, tmp_path / "blind.png", window_size=SIZE, fog=out)
    pixels = scene_pixels(np.asarray(imageio.imread(path)), View())
    for player in range(replay.rules.players):
        assert colour_pixels(pixels, PALETTE[player]) < 5, f"P{player}'s pieces are drawn"
    ink = np.abs(pixels[..., :3].astype(int) - 77).max(axis=2) <= 40  # the grey notice text
    assert ink.sum() > 100
    truth = save_png(replay, later, tmp_path / "truth.png", window_size=SIZE)
    seen = scene_pixels(np.asarray(imageio.imread(truth)), View())
    assert sum(colour_pixels(seen, PALETTE[p]) for p in range(replay.rules.players)) > 100


def test_a_drawer_replaces_its_previous_scene(replay: Replay) -> None:
    plotter = render_turn(replay, 1, window_size=SIZE)
    try:
        drawer = SceneDrawer.of(plotter)
        drawer.draw(build_scene(replay, replay.last_turn, View(events=False)))
        assert drawn_ids(plotter) == sorted(
            p.id for p in replay.state_at(replay.last_turn).pieces()
        )
        assert not [n for n in plotter.actors if n.startswith("events:")]
    finally:
        plotter.close()


def test_save_png_writes_the_picture(replay: Replay, tmp_path: Path) -> None:
    out = save_png(replay, None, tmp_path / "last.png", window_size=SIZE, mode="boards")
    image = imageio.imread(out)
    assert image.shape[:2] == (SIZE[1], SIZE[0])
    assert image[..., :3].std() > 10  # not blank


@pytest.mark.parametrize("suffix", [".gif", ".mp4"])
def test_animation_has_frames_per_turn(replay: Replay, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"game{suffix}"
    count = save_animation(
        replay, out, turns=(0, 2), frames_per_turn=2, fps=5, window_size=(256, 160)
    )
    assert count == 6  # 3 turns × 2 frames
    reader = imageio.get_reader(out)
    try:
        if suffix == ".mp4":
            assert reader.count_frames() == 6
            assert reader.get_meta_data()["fps"] == 5
        else:
            frames = [np.asarray(f) for f in reader]
            assert len(frames) == 6
            assert frames[0].shape[:2] == (160, 256)
    finally:
        reader.close()


def test_a_film_on_the_command_line_tells_its_progress_in_a_log_too(
    replay_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole game's film takes minutes (752 frames of a 375-turn game: 2 min 30 s on the
    project's machine) and said nothing unless stderr was a terminal: like a batch's progress,
    a line at the start, a minute apart and at the end goes to a log or a pipe."""
    film = tmp_path / "film.gif"
    args = ["view", str(replay_path), "--gif", str(film), "--turns", "0:2", "--size", "128,96"]
    assert main(args) == 0
    captured = capsys.readouterr()
    assert captured.out == f"wrote {film} (6 frames, 4 per second)\n"
    lines = captured.err.splitlines()
    assert lines[0] == "frames: 1/6 (16 %)" and lines[-1].startswith("frames: 6/6 (100 %), ")
    assert lines[-1].endswith(" frames/s")


@pytest.mark.parametrize("suffix", [".gif", ".mp4"])
def test_an_interrupted_film_leaves_no_file_under_its_name(
    replay: Replay, tmp_path: Path, suffix: str
) -> None:
    """Ctrl-C after the second frame: no truncated film under the final name, no leftovers."""
    out = tmp_path / f"game{suffix}"

    def interrupt(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        save_animation(replay, out, turns=(0, 3), window_size=(256, 160), progress=interrupt)
    assert list(tmp_path.iterdir()) == []
    count = save_animation(replay, out, turns=(0, 1), frames_per_turn=1, window_size=(256, 160))
    assert count == 2 and [p.name for p in tmp_path.iterdir()] == [out.name]


@pytest.mark.parametrize("folder", ["/sys/kernel", "/proc/self"])
def test_a_picture_into_a_folder_that_cannot_be_written_is_one_clear_line(
    replay_path: Path, capsys, folder: str
) -> None:
    """/sys/kernel: the folder looks writable (to root) and the write fails; /proc/self: the
    folder says it is not writable. Both ended in a PermissionError traceback or worse."""
    if not Path(folder).is_dir():
        pytest.skip(f"no {folder} here")
    for option in ("--png", "--gif"):
        suffix = option[2:]
        target = f"{folder}/picture.{suffix}"
        args = ["view", str(replay_path), option, target, "--size", "128,96"]
        code = main([*args, "--turns", "0:1"] if option == "--gif" else args)
        err = capsys.readouterr().err
        assert code == 2, err
        assert err.startswith(f"antipolix: error: cannot write {target}: ")
        assert err.count("\n") == 1 and "Traceback" not in err


def test_api_refuses_bad_input_before_rendering(replay: Replay, tmp_path: Path) -> None:
    png = tmp_path / "x.png"
    with pytest.raises(ReplayError, match="does not exist"):
        save_png(tmp_path / "missing.apx.json.gz", 0, png)
    corrupt = tmp_path / "corrupt.apx.json.gz"
    corrupt.write_bytes(b"\x1f\x8b not gzip at all")
    with pytest.raises(ReplayError, match=r"corrupt|truncated"):
        save_png(corrupt, 0, png)
    with pytest.raises(ReplayError, match="outside this replay"):
        save_png(replay, replay.last_turn + 5, png)
    with pytest.raises(ViewError, match="unknown mode"):
        save_png(replay, 0, png, mode="spiral")
    with pytest.raises(ViewError, match="unknown axis"):
        render_turn(replay, 0, axis="w")
    with pytest.raises(ViewError, match="unknown view option"):
        render_turn(replay, 0, colour="red")
    with pytest.raises(ViewError, match=r"\.png"):
        save_png(replay, 0, tmp_path / "x.jpg")
    with pytest.raises(ViewError, match="does not exist"):
        save_png(replay, 0, tmp_path / "no" / "x.png")
    with pytest.raises(ViewError, match="frames per turn"):
        save_animation(replay, tmp_path / "x.gif", frames_per_turn=0)
    # (10**11 frames a turn rendered without end)
    with pytest.raises(ViewError, match="frames per turn must be an integer from 1 to 60"):
        save_animation(replay, tmp_path / "x.gif", frames_per_turn=61)
    assert not png.exists()


def test_cli_writes_a_png(replay_path: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "t3.png"
    code = main(
        ["view", str(replay_path), "--turn", "3", "--mode", "boards", "--axis", "x",
         "--boards", "1,2,4", "--fog", "1", "--size", "320,240", "--png", str(out)]
    )  # fmt: skip
    assert code == 0 and out.exists()
    assert "wrote" in capsys.readouterr().out
    assert imageio.imread(out).shape[:2] == (240, 320)


@pytest.mark.parametrize("layers", [1, 2])
def test_cli_shows_a_universe_of_one_or_two_boards(
    layers: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A replay on a universe of fewer than three boards is shown in every mode and as a web
    page without naming boards (every view of one was refused: "board 2 is outside the
    universe")."""
    path = tmp_path / "thin.apx.json.gz"
    code = main(
        ["play", "--agents", "greedy,greedy", "--rule", f"shape={layers},6,6",
         "--rule", "budget=12", "--rule", "max_turns=12", "--seed", "4", "--replay", str(path)]
    )  # fmt: skip
    assert code == 0
    for mode in ("universe", "boards", "slice"):
        out = tmp_path / f"{mode}.png"
        code = main(["view", str(path), "--mode", mode, "--size", "320,240", "--png", str(out)])
        assert code == 0 and imageio.imread(out).shape[:2] == (240, 320), capsys.readouterr().err
    assert main(["view", str(path), "--html", str(tmp_path / "thin.html")]) == 0
    assert "antipolix: error" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{missing}", "--png", "{out}"], "does not exist"),
        (["{corrupt}", "--png", "{out}"], "corrupt"),
        (["{replay}", "--turn", "999", "--png", "{out}"], "outside this replay"),
        (["{replay}", "--mode", "boards", "--boards", "0,1,7", "--png", "{out}"], "outside"),
        (["{replay}", "--fog", "5", "--png", "{out}"], "no player 5"),
        (["{replay}", "--png", "{tmp}/no/such/folder.png"], "does not exist"),
        (["{replay}", "--gif", "{tmp}/film.mp4"], "must end in .gif"),
        (["{replay}", "--turns", "5:2", "--gif", "{tmp}/film.gif"], "empty"),
        (
            ["{replay}", "--frames-per-turn", "99999999999", "--gif", "{tmp}/film.gif"],
            "--frames-per-turn must be from 1 to 60, got 99,999,999,999",
        ),
    ],
)
def test_cli_errors_are_clear(
    replay_path: Path, tmp_path: Path, capsys, args: list[str], message: str
) -> None:
    corrupt = tmp_path / "corrupt.apx.json.gz"
    corrupt.write_bytes(b"\x1f\x8b\x08\x00 damaged")
    names = {
        "missing": str(tmp_path / "missing.apx.json.gz"),
        "corrupt": str(corrupt),
        "replay": str(replay_path),
        "out": str(tmp_path / "out.png"),
        "tmp": str(tmp_path),
    }
    code = main(["view", *(a.format(**names) for a in args)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("antipolix: error:") and message in err
    assert "Traceback" not in err and "vtk" not in err.lower()


@pytest.mark.parametrize(
    ("option", "value"), [("--mode", "spiral"), ("--axis", "w"), ("--layout", "grid")]
)
def test_cli_unknown_choices_are_refused(
    replay_path: Path, capsys, option: str, value: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["view", str(replay_path), option, value, "--png", "x.png"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice" in err and value in err and "Traceback" not in err


def test_cli_without_a_display_asks_for_an_output(
    replay_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert main(["view", str(replay_path)]) == 2
    err = capsys.readouterr().err
    assert "no display" in err and "--png" in err


def test_viewer_wires_keys_slider_and_timer(replay: Replay, tmp_path: Path, monkeypatch) -> None:
    """The interactive viewer, driven offscreen: its widgets exist and keys redraw the scene."""
    monkeypatch.chdir(tmp_path)
    viewer = Viewer(replay, window_size=SIZE, off_screen=True)
    try:
        viewer.install()
        viewer.redraw()
        assert viewer._slider is not None and viewer._button is not None
        viewer.on_key("v")
        assert viewer.state.view.mode == "boards"
        assert any(n.startswith("boards:") for n in viewer.plotter.actors)
        viewer.on_slider(4.4)
        assert viewer.state.turn == 4
        viewer.on_play(True)
        viewer.on_timer()
        assert viewer.state.turn == 5 and viewer.state.playing
        viewer.on_key("space")
        assert not viewer.state.playing
        viewer.on_key("s")
        assert viewer.saved and viewer.saved[0].exists()
    finally:
        viewer.plotter.close()


# -- what hides the game: moves, cells in words, boards, colours, labels --------------------------


def screen_points(plotter, points) -> np.ndarray:
    """Display (pixel) positions of world points in a rendered plotter, y from the top."""
    from vtkmodules.vtkRenderingCore import vtkCoordinate

    coordinate = vtkCoordinate()
    coordinate.SetCoordinateSystemToWorld()
    h = plotter.window_size[1]
    out = []
    for p in np.asarray(points, dtype=float).reshape(-1, 3):
        coordinate.SetValue(*p)
        x, y = coordinate.GetComputedDisplayValue(plotter.renderer)
        out.append((x, h - 1 - y))
    return np.array(out)


def render_pixels(replay: Replay, turn: int, view: View, size=SIZE) -> np.ndarray:
    plotter = render_turn(replay, turn, view=view, window_size=size)
    try:
        return np.asarray(plotter.screenshot(return_img=True))[..., :3].astype(int)
    finally:
        plotter.close()


def near(image: np.ndarray, colour: str, tolerance: int = 30) -> np.ndarray:
    return np.abs(image - rgb(colour).astype(int)).max(axis=2) <= tolerance


def test_moves_are_arrows_in_the_movers_colour_and_each_is_written_out(replay: Replay) -> None:
    """A move was a faint grey line and the caption said "3 moves"."""
    turn = 1
    moves = [e for e in replay.events(turn) if type(e).__name__ == "Moved"]
    assert moves
    scene = build_scene(replay, turn)
    for e in moves:
        z, y, x = e.dst
        assert any(f"to z{z} y{y} x{x}" in line and f"P{e.player} " in line for line in scene.log)
    assert not any(line.endswith(" moves") for line in scene.log)
    drawn = [ln for ln in scene.lines if ln.kind == "move"]
    assert sorted(ln.colour for ln in drawn) == sorted(PALETTE[e.player] for e in moves)
    view = View(mode="boards", angle="top", boards=(0, 1, 2))
    with_moves = render_pixels(replay, turn, view)
    without = render_pixels(replay, turn, View(mode="boards", angle="top", events=False))
    changed = np.abs(with_moves - without).max(axis=2) > 40
    for player in {e.player for e in moves}:  # the arrows and rings, in each mover's colour
        assert (changed & near(with_moves, PALETTE[player])).sum() >= 20, f"P{player}'s move"


def test_event_text_names_cells_as_the_axes_do(replay: Replay) -> None:
    """Cells were written (z, y, x) beside axes labelled x, y, z: each coordinate is named by
    its axis's label, in the order of the API's tuples (R1)."""
    t = first_turn(replay, Combat)
    combat = next(e for e in replay.events(t) if isinstance(e, Combat))
    z, y, x = combat.cell
    line = next(ln for ln in build_scene(replay, t).log if " attacks " in ln)
    assert f"at z{z} y{y} x{x} " in line
    assert f"({z},{y},{x})" not in line and f"({z}, {y}, {x})" not in line


def test_an_attack_from_the_next_board_stays_on_the_target_board(replay: Replay) -> None:
    """Three boards side by side: a player attacks a cell on board z=1 from board z=2 (the first
    such attack of the game). The arrow is drawn on board z=1 from over the attacker, with
    "from z=2" (it was a long line across the gap between the boards)."""
    turn, combat = next(
        (t, e)
        for t in range(1, replay.last_turn + 1)
        for e in replay.events(t)
        if isinstance(e, Combat)
        and e.cell[0] == 1
        and 2 in {replay.state_at(t - 1).piece(p).cell[0] for p in e.pieces}
    )
    colour = PALETTE[combat.player]
    view = View(mode="boards", boards=(0, 1, 2))
    scene = build_scene(replay, turn, view)
    panel = scene.panels[1]
    attacks = [ln for ln in scene.lines if ln.kind == "attack" and ln.colour == colour]
    assert attacks
    lo, hi = panel.origin[0] - 0.5, panel.origin[0] + panel.size[0] - 0.5
    for ln in attacks:
        assert np.all((ln.points[:, 0] >= lo) & (ln.points[:, 0] <= hi))
    assert any(lb.text == "from z=2" for lb in scene.labels)
    plotter = render_turn(replay, turn, view=view, window_size=(960, 600))
    try:
        image = np.asarray(plotter.screenshot(return_img=True))[..., :3].astype(int)
        top, bottom = panel.size[1] - 0.5, -0.5
        corners = [(hi + 0.2, top, -0.5), (scene.panels[2].origin[0] - 0.7, bottom, -0.5)]
        (left, upper), (right, lower) = screen_points(plotter, corners)
    finally:
        plotter.close()
    quiet = render_pixels(replay, turn, replace(view, events=False), size=(960, 600))
    gap = (slice(int(upper) + 3, int(lower)), slice(int(left) + 2, int(right) - 1))
    drawn = (np.abs(image - quiet).max(axis=2) > 40) & near(image, colour)
    # (the arc of a piece teleported from board z=2 to z=0 passes high above the boards)
    assert drawn[gap].sum() == 0, "a line crosses the gap between the boards"
    assert drawn.sum() > 20  # the arrow is there


def test_sixteen_boards_keep_their_labels_apart() -> None:
    """16 boards up the universe's side: the z labels overlapped; now at most 8, a line apart."""
    from antipolix import Rules, play

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tall.apx.json.gz"
        play(Rules(shape=(16, 24, 24), players=2, max_turns=1), ["random"] * 2, 1, replay=path)
        tall = load_replay(path)
    plotter = render_turn(tall, 0)  # the default window, 1280×800
    try:
        plotter.screenshot(return_img=True)
        mapper = plotter.actors["lattice:layers-labels"].GetMapper()
        labels = pv.wrap(mapper.GetInputAlgorithm().GetInputDataObject(0, 0))
        texts = [str(t) for t in labels.point_data["labels"]]
        rows = np.sort(screen_points(plotter, labels.points)[:, 1])
    finally:
        plotter.close()
    assert texts[0] == "z=0" and texts[-1] == "z=15" and len(texts) <= 8
    font = round(11 * 800 / 800)
    assert np.diff(rows).min() >= 2 * font


@pytest.fixture(scope="module")
def eight(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    from antipolix import Rules, play

    path = tmp_path_factory.mktemp("eight") / "eight.apx.json.gz"
    play(Rules(players=8, max_turns=1), ["random"] * 8, 1, replay=path)
    return load_replay(path)


def test_eight_players_colours_are_told_apart_on_screen(eight: Replay) -> None:
    """The colour each of 8 players' pieces has on screen (top faces, shaded), pairwise: far
    enough apart under normal vision and the three colour vision deficiencies (some pairs of
    the former palette were 12 ΔE apart once shaded, blue and indigo, orange and vermillion)."""
    import itertools

    from viz.palette import VISIONS, lab

    scene = build_scene(eight, 0)
    plotter = render_turn(eight, 0, window_size=(960, 640))
    try:
        image = np.asarray(plotter.screenshot(return_img=True))[..., :3].astype(float)
        tops = {0: 0.279, 1: 0.15, 2: 0.2}  # army, hovercraft, fortress: the top's height
        g = scene.glyphs
        solid = ~g.ghost
        points = g.points[solid] + np.array([[0, 0, tops[int(t)]] for t in g.types[solid]])
        where = screen_points(plotter, points).round().astype(int)
    finally:
        plotter.close()
    colours: dict[int, list[np.ndarray]] = {}
    for owner, (x, y) in zip(g.owners[solid], where, strict=True):
        patch = image[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3)
        colours.setdefault(int(owner), []).append(np.median(patch, axis=0))
    assert sorted(colours) == list(range(8))
    seen = ["#{:02X}{:02X}{:02X}".format(*np.median(c, axis=0).round().astype(int)) for c in
            (colours[p] for p in range(8))]  # fmt: skip
    for vision in VISIONS:
        values = lab(seen, vision)
        worst = min(
            float(np.linalg.norm(values[i] - values[j]))
            for i, j in itertools.combinations(range(8), 2)
        )
        assert worst >= 16, f"{vision}: two players' pieces only {worst:.1f} ΔE apart"


def test_the_demo_draws_its_picture_through_the_pictures_entry_point(
    replay_path: Path,
    replay: Replay,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """antipolix reaches viz's PNG and page writers through the ``antipolix.pictures`` entry
    points (it never imports viz by name, and no longer re-enters its own command line): the
    picture of the decisive turn, titled with the winner, and the page opening at that turn;
    without them, a single line says viz is missing."""
    from importlib.metadata import entry_points

    import antipolix.cli
    from antipolix.cli import play as play_cli
    from antipolix.story import story
    from viz.html import read_page_data, save_page

    writers = {e.name: e for e in entry_points(group="antipolix.pictures")}
    assert writers["png"].load() is save_png and writers["html"].load() is save_page

    def no_command_line(argv: object = None) -> int:
        raise AssertionError(f"the demo went through the command line: {argv}")

    monkeypatch.setattr(antipolix.cli, "main", no_command_line)
    png, page = tmp_path / "story.png", tmp_path / "story.html"
    assert play_cli.draw_story(replay_path, png, page) == 0
    told = story(replay)
    turn, last = told.decisive.turn, replay.last_turn
    out = capsys.readouterr().out
    assert f"picture: {png}, turn {turn} of {last}, {told.decisive.text}\n" in out
    assert f"replay page: {page} (" in out
    title = f"AntipoliX · turn {turn} of {last}, the decisive turn · {told.result}"
    expected = save_png(replay, turn, tmp_path / "expected.png", title=title)
    np.testing.assert_array_equal(imageio.imread(png), imageio.imread(expected))
    assert read_page_data(page)["start"]["turn"] == turn

    monkeypatch.setattr(play_cli, "entry_points", lambda group: [])
    assert play_cli.draw_story(replay_path, tmp_path / "none.png", tmp_path / "none.html") == 2
    err = capsys.readouterr().err
    assert err == "antipolix: error: the view command is not installed (package viz)\n"
    assert not (tmp_path / "none.png").exists() and not (tmp_path / "none.html").exists()
