"""A 2D game's replay page (viz.board2d) in a real browser, as tests/test_viz_browser.py opens
the 3D one: headless Chromium through Playwright, a ``file://`` address, the keys a person
presses; what the page draws is compared with the game's own scene of that turn, and the
console must stay free of errors."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from antipolix.cli import main
from antipolix.games import replays
from antipolix.games.sight.scene import SIDE_COLOURS
from tests.test_viz_browser import FLAGS, SIZE, _chromium_or_skip


@pytest.fixture(scope="module")
def page_and_replay(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    folder = tmp_path_factory.mktemp("board2d")
    replay = folder / "sight.apx.json.gz"
    assert main(["play", "--game", "sight", "--agents", "greedy,random", "--seed", "5",
                 "--replay", str(replay)]) == 0  # fmt: skip
    page = folder / "sight.html"
    assert main(["view", str(replay), "--html", str(page)]) == 0
    return page, replays.load(replay)


def _css_rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium_or_skip()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=executable, headless=True, args=FLAGS, viewport=SIZE
        )
        yield context
        context.close()


def test_the_2d_page_draws_each_turn_the_scene_of_the_game(
    page_and_replay: tuple[Path, Any], browser: Any
) -> None:
    path, replay = page_and_replay
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.resolve().as_uri())
    page.wait_for_function("document.documentElement.dataset.ready === '1'", timeout=30_000)

    def pieces(turn: int) -> int:
        scene = replay.game.scene(replay.state_at(turn))
        return sum(1 for m in scene.marks if m.kind == "piece")

    state = page.evaluate("apx.state()")
    assert state["turn"] == 0 and state["pieces"] == pieces(0) == 0
    page.keyboard.press("End")
    state = page.evaluate("apx.state()")
    assert state["turn"] == replay.last_turn and state["pieces"] == pieces(replay.last_turn)
    assert state["caption"] == replay.game.scene(replay.state_at(replay.last_turn)).caption
    # each seat in its side's colour (S2: White's stones light, Black's dark), legend too
    fills = page.eval_on_selector_all(
        "circle.piece", "cs => cs.map(c => [Number(c.dataset.seat), c.getAttribute('fill')])"
    )
    assert set(map(tuple, fills)) == set(enumerate(SIDE_COLOURS))
    swatches = page.eval_on_selector_all(
        "#players .swatch", "ss => ss.map(s => getComputedStyle(s).backgroundColor)"
    )
    assert swatches == [_css_rgb(c) for c in SIDE_COLOURS]
    page.keyboard.press("Home")
    for turn in range(1, 4):  # the arrow key, turn by turn
        page.keyboard.press("ArrowRight")
        state = page.evaluate("apx.state()")
        assert (state["turn"], state["pieces"]) == (turn, pieces(turn))
        shown = page.inner_text("#log")
        assert all(text in shown for _, text in replay.texts(turn))
    page.select_option("#speed", "8")
    page.click("#play")
    page.wait_for_function(f"apx.state().turn === {replay.last_turn}", timeout=30_000)
    assert errors == []
    page.close()
