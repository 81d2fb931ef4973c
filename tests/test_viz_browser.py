"""The replay page in a real browser: headless Chromium (Debian's ``chromium``, which
``python3 dev.py test`` installs when it is missing, as root or on CI) driven by Playwright.

Each test opens the page as a person would (a ``file://`` address, nothing served), works its
controls (slider by keyboard, play button, the view and seen-by menus), compares what the page
says it draws with the Python scene of the same turn and view, takes a screenshot and checks
the picture: pieces in each living player's colour, none in an eliminated player's colour.
The browser console must stay free of errors. About 5 s here.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from antipolix.replay import Replay, load_replay
from antipolix.story import story
from tests.test_viz_scene import write_small_replay
from viz import View, build_scene
from viz.html import save_html
from viz.palette import PALETTE, rgb

CHROMIUM = os.environ.get("ANTIPOLIX_CHROMIUM", "/usr/bin/chromium")
# flags that work on a headless machine without a GPU: WebGL through SwiftShader
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
]
SIZE = {"width": 1200, "height": 760}
SHOTS = Path(os.environ.get("ANTIPOLIX_SHOTS", tempfile.gettempdir())) / "antipolix-page-shots"


def _chromium_or_skip() -> str:
    if Path(CHROMIUM).exists():
        return CHROMIUM
    found = shutil.which("chromium")
    if found:
        return found
    message = (
        f"Chromium is not installed ({CHROMIUM}): python3 dev.py test installs it with "
        "apt-get install chromium when it runs as root or on CI; else install it by hand"
    )
    if os.environ.get("CI"):
        pytest.fail(message + " (on CI the set-up must have installed it)")
    pytest.skip(message)


@pytest.fixture(scope="module")
def replay_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_small_replay(tmp_path_factory.mktemp("browser") / "small.apx.json.gz")


@pytest.fixture(scope="module")
def replay(replay_path: Path) -> Replay:
    return load_replay(replay_path)


@pytest.fixture(scope="module")
def page_file(replay: Replay, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_html(replay, tmp_path_factory.mktemp("browser") / "game.html")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium_or_skip()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile,  # a fresh, empty user-data-dir
            executable_path=executable,
            headless=True,
            args=FLAGS,
            viewport=SIZE,
            device_scale_factor=1,
        )
        yield context
        context.close()


class Page:
    """One open page and what its console said."""

    def __init__(self, context: Any, path: Path) -> None:
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(path.resolve().as_uri())
        self.page.wait_for_function(
            "document.documentElement.dataset.ready === '1' || "
            "document.documentElement.dataset.error !== undefined",
            timeout=30_000,
        )
        error = self.page.evaluate("document.documentElement.dataset.error")
        assert error is None, error

    def state(self) -> dict[str, Any]:
        self.page.wait_for_function("!apx.state().gliding")
        self.page.evaluate("apx.frameNow()")
        state: dict[str, Any] = self.page.evaluate("apx.state()")
        return state

    def screenshot(self, name: str) -> np.ndarray:
        """The page as a person sees it (saved under SHOTS), as an RGB array."""
        from PIL import Image

        SHOTS.mkdir(parents=True, exist_ok=True)
        png = self.page.screenshot(path=str(SHOTS / f"{name}.png"))
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))

    def scene_pixels(self, image: np.ndarray) -> np.ndarray:
        """The pixels of the 3D view only: the canvas without the title, the event log and the
        labels drawn over it (the legend's colour swatches are outside it)."""
        boxes = self.page.evaluate(
            """() => {
                const r = (e) => { const b = e.getBoundingClientRect();
                                   return [b.left, b.top, b.right, b.bottom]; };
                return { canvas: r(document.getElementById('view')),
                         covers: [...document.querySelectorAll(
                             '#head, #log, #labels > div')].map(r) };
            }"""
        )
        keep = np.zeros(image.shape[:2], dtype=bool)
        x0, y0, x1, y1 = (round(v) for v in boxes["canvas"])
        keep[y0:y1, x0:x1] = True
        for x0, y0, x1, y1 in boxes["covers"]:
            keep[int(y0) : int(np.ceil(y1)) + 1, int(x0) : int(np.ceil(x1)) + 1] = False
        return image[keep]


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    pages: list[Page] = []

    def opener(path: Path) -> Page:
        pages.append(Page(browser, path))
        return pages[-1]

    yield opener
    for p in pages:
        p.page.close()
        assert p.errors == [], f"errors in the browser console: {p.errors}"


def colour_pixels(pixels: np.ndarray, colour: str, tolerance: int = 24) -> int:
    return int(
        (np.abs(pixels.astype(int) - rgb(colour).astype(int)).max(axis=1) <= tolerance).sum()
    )


def cells_of(scene_or_state: Any) -> list[tuple[int, ...]]:
    """(cell, owner, type, trait) of every piece drawn: one piece per cell (R1), so this is
    the whole picture whatever the ids."""
    if isinstance(scene_or_state, dict):
        return sorted((*p[4:7], p[1], p[2], p[3]) for p in scene_or_state["pieces"])
    g = scene_or_state.glyphs
    return sorted(
        (*(int(v) for v in g.cells[i]), int(g.owners[i]), int(g.types[i]), int(g.traits[i]))
        for i in range(len(g))
    )


def first_elimination(replay: Replay) -> int:
    for t in range(1, replay.last_turn):
        if len(replay.state_at(t).living) < replay.rules.players:
            return t
    pytest.fail("the fixture game has no elimination before its last turn: change its seed")


def test_slider_turn_matches_the_pieces_and_colours_drawn(
    replay: Replay, page_file: Path, open_page: Any
) -> None:
    page = open_page(page_file)
    state = page.state()
    assert state["turn"] == 0 and state["slider"] == 0
    assert cells_of(state) == cells_of(build_scene(replay, 0))
    pixels = page.scene_pixels(page.screenshot("turn-0"))
    for player in range(replay.rules.players):
        assert colour_pixels(pixels, PALETTE[player]) >= 200, f"P{player}'s pieces are not drawn"

    # move the slider as a person does: click it, then keys
    out = first_elimination(replay)
    turn = out + 1
    slider = page.page.locator("#turn")
    slider.click()
    slider.press("End")
    assert page.state()["turn"] == replay.last_turn
    slider.press("Home")
    for _ in range(turn):
        slider.press("ArrowRight")
    state = page.state()
    assert state["slider"] == state["turn"] == turn
    assert state["title"].startswith(f"AntipoliX · turn {turn} of {replay.last_turn}")
    scene = build_scene(replay, turn)
    assert cells_of(state) == cells_of(scene)
    assert state["legend"] == [e.text for e in scene.players]
    assert state["lines"] == len(scene.lines) and state["labels"] == len(scene.labels)
    # the view of the player out first says it sees nothing from that turn on, not before
    gone = next(p for p in range(replay.rules.players) if p not in replay.state_at(out).living)
    page.page.select_option("#fog", label=f"as P{gone} ({replay.agents[gone]}) sees it")
    for t in (out - 1, out):
        page.page.evaluate(f"apx.setTurn({t})")
        assert page.page.inner_text("#subtitle") == build_scene(replay, t, View(fog=gone)).subtitle
    assert "nothing, out since" in page.page.inner_text("#subtitle")
    page.page.select_option("#fog", label="the truth")
    page.page.evaluate(f"apx.setTurn({turn})")
    pixels = page.scene_pixels(page.screenshot(f"turn-{turn}"))
    living = replay.state_at(turn).living
    for player in range(replay.rules.players):
        count = colour_pixels(pixels, PALETTE[player])
        if player in living and (scene.glyphs.owners == player).any():
            assert count >= 200, f"P{player} is alive at turn {turn} but not drawn"
        else:
            assert count < 10, f"P{player} is out since turn {out} but still drawn ({count} px)"


def test_play_and_pause_step_through_the_turns(
    replay: Replay, page_file: Path, open_page: Any
) -> None:
    page = open_page(page_file)
    page.page.select_option("#speed", "16")
    page.page.click("#play")
    page.page.wait_for_function("apx.state().turn >= 3", timeout=10_000)
    page.page.click("#play")
    state = page.state()
    assert not state["playing"] and 3 <= state["turn"] <= replay.last_turn
    assert cells_of(state) == cells_of(build_scene(replay, state["turn"]))
    turn = state["turn"]
    page.page.keyboard.press("ArrowLeft")  # the keys of the PyVista viewer work here too
    assert page.state()["turn"] == turn - 1


def test_r6_boards_mode_and_one_players_view(
    replay: Replay, page_file: Path, open_page: Any
) -> None:
    page = open_page(page_file)
    turn = replay.last_turn // 2
    page.page.evaluate(f"apx.setTurn({turn})")
    page.page.select_option("#mode", "boards")
    page.page.select_option("#axis", "y")
    state = page.state()
    assert (state["mode"], state["axis"], state["boards"]) == ("boards", "y", [0, 1, 2])
    view = View(mode="boards", axis="y", boards=(0, 1, 2))
    assert cells_of(state) == cells_of(build_scene(replay, turn, view))
    page.screenshot("boards")
    player = 2
    page.page.select_option("#fog", label=f"as P{player} ({replay.agents[player]}) sees it")
    state = page.state()
    assert state["fog"] == player
    seen = build_scene(replay, turn, View(mode="boards", axis="y", fog=player))
    assert cells_of(state) == cells_of(seen)
    assert all(p[3] == -1 for p in state["pieces"] if p[1] != player)  # traits unknown (R6)
    assert f"as P{player}" in page.page.inner_text("#subtitle")
    page.screenshot("boards-fog")
    page.page.select_option("#mode", "universe")
    state = page.state()
    seen = build_scene(replay, turn, View(fog=player))
    assert cells_of(state) == cells_of(seen)
    hidden = len(build_scene(replay, turn).glyphs) - len(seen.glyphs)
    assert hidden > 0, "choose a turn where enemy invisible pieces are hidden from P2"
    page.screenshot("universe-fog")


def test_drag_rotates_wheel_zooms_double_click_frames_again(
    replay: Replay, page_file: Path, open_page: Any
) -> None:
    page = open_page(page_file)
    page.page.evaluate("apx.setTurn(3)")
    page.state()
    box = page.page.locator("#view").bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def canvas() -> np.ndarray:
        page.page.evaluate("apx.frameNow()")
        x, y, w, h = (round(box[k]) for k in ("x", "y", "width", "height"))
        return page.screenshot("camera")[y : y + h, x : x + w].astype(int)

    mouse = page.page.mouse
    # the framing fits the part of the canvas the title and this turn's event log leave free,
    # so frame once at this turn (its log may be taller than turn 0's, which framed the page)
    mouse.dblclick(cx, cy)
    framed = canvas()
    mouse.move(cx, cy)
    mouse.down()
    mouse.move(cx + 160, cy + 40, steps=8)
    mouse.up()
    turned = canvas()
    assert (np.abs(turned - framed).max(axis=2) > 40).mean() > 0.02  # the view turned
    mouse.dblclick(cx, cy)
    assert np.array_equal(canvas(), framed)  # framed as at first
    mouse.move(cx, cy)
    mouse.wheel(0, -400)  # zoom in: pieces grow, so each colour covers more pixels
    zoomed = canvas()

    def coloured(image: np.ndarray) -> int:
        return sum(colour_pixels(image.reshape(-1, 3), c) for c in PALETTE[:3])

    assert coloured(zoomed) > 1.3 * coloured(framed)


def test_the_story_is_marked_on_the_timeline_with_a_jump_to_each_turn(
    replay: Replay, page_file: Path, open_page: Any
) -> None:
    """The eliminations, the decisive turn and the end (antipolix.story) are marks above the
    slider and lines in the legend; a click on either, or the keys ] and [, goes to the turn."""
    told = story(replay)
    page = open_page(page_file)
    state = page.state()
    assert [(m["turn"], m["kind"], m["text"]) for m in state["story"]] == [
        (m.turn, m.kind, m.text) for m in told.moments
    ]
    marks = page.page.locator("#marks .mark")
    assert marks.count() == len(told.moments)
    kinds = [marks.nth(i).get_attribute("class") for i in range(marks.count())]
    assert kinds == [f"mark {m.kind}" for m in told.moments]
    decisive = page.page.locator("#marks .mark.decisive")
    assert decisive.get_attribute("title") == f"turn {told.decisive.turn}: {told.decisive.text}"
    # the marks sit above the slider, in turn order, where the turn is on it
    boxes = [marks.nth(i).bounding_box() for i in range(marks.count())]
    slider = page.page.locator("#turn").bounding_box()
    assert all(b["y"] + b["height"] <= slider["y"] + 2 for b in boxes)
    xs = [b["x"] + b["width"] / 2 for b in boxes]
    assert xs == sorted(xs) and slider["x"] <= xs[0] and xs[-1] <= slider["x"] + slider["width"]
    decisive.click()
    after = page.state()
    assert after["turn"] == after["slider"] == told.decisive.turn
    assert told.decisive.text in after["log"]  # the page says why this turn
    assert cells_of(after) == cells_of(build_scene(replay, told.decisive.turn))
    out = next(m for m in told.moments if m.kind == "eliminated")
    page.page.evaluate("apx.setTurn(0)")
    page.page.locator(f'#story li.eliminated button[data-turn="{out.turn}"]').first.click()
    assert page.state()["turn"] == out.turn
    page.page.locator("#turn").click()
    page.page.keyboard.press("Home")
    turns = sorted({m.turn for m in told.moments})
    for t in turns:
        page.page.locator("#view").click()  # the keys of the page, not of the slider
        page.page.keyboard.press("]")
        assert page.state()["turn"] == t
    page.page.keyboard.press("[")
    assert page.state()["turn"] == (turns[-2] if len(turns) > 1 else turns[-1])
    page.screenshot("story")
