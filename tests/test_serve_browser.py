"""The browser client of ``antipolix serve`` in a real browser: headless Chromium (Debian's, as
the replay page's tests drive it) plays a human seat against ``greedy`` on a small board, as a
person would: it buys and places an army in its home zone by clicking cells (R3), sends a
message (R9), then each turn clicks its pieces and a highlighted cell to attack or move (R4,
R5) and sends the order, to the end of the game. The replay the server wrote must match what
the page showed, turn by turn (R6: the seat's own view), and the result it printed.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from antipolix import Rules
from antipolix.play import verify
from antipolix.replay import load_replay
from antipolix.server import ServerConfig, running
from antipolix.world import cell_text
from tests.test_viz_browser import FLAGS, _chromium_or_skip
from viz.html import _layouts

RULES = Rules(shape=(2, 6, 6), players=2, budget=8, max_turns=30, time_credit=600, time_total=1200)
SHOTS = Path(tempfile.gettempdir()) / "antipolix-page-shots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium_or_skip()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            headless=True,
            args=FLAGS,
            viewport={"width": 1100, "height": 700},
            device_scale_factor=1,
        )
        yield context
        context.close()


def wait(page: Any, condition: str, timeout: float = 120.0) -> None:
    """Wait until the page's ``condition`` (JavaScript) holds, asking from outside the page (the
    page's Content-Security-Policy forbids the evaluation of strings inside it)."""
    end = time.monotonic() + timeout
    while not page.evaluate(condition):
        if time.monotonic() > end:
            raise TimeoutError(f"the page never had {condition}")
        page.wait_for_timeout(15)


def cheb(a: list[int], b: list[int]) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


class Player:
    """The page of one seat, and a person's clicks on it."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.page.evaluate("apxPlay.state()")
        return state

    def click_cell(self, cell: list[int]) -> bool:
        at = self.page.evaluate(f"apxPlay.screenOf({json.dumps(cell)})")
        if at is None:
            return False
        self.page.mouse.click(at["x"], at["y"])
        return True

    def place_army(self) -> list[list[int]]:
        page = self.page
        # the chief alone leaves 5 of the 8 points: the button says so, and a click asks first
        # (the dialog dismissed, as Playwright does when no one answers: nothing is sent)
        assert page.inner_text("#place") == "place this army (5 points unspent)"
        asked: list[str] = []
        page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        page.click("#place")
        assert asked and asked[0].startswith("5 of your 8 points are unspent (R3)")
        assert page.is_visible("#army-box") and self.state()["cost"] == 3
        page.click('#shop button[data-item="army"][aria-label="more"]')
        page.click('#shop button[data-item="hovercraft"][aria-label="more"]')
        assert self.state()["cost"] == 8  # chief army 3, army 3, hovercraft 2: the budget (R3)
        assert page.inner_text("#place") == "place this army"
        # nothing more fits the budget, so no "+" can be pressed; "-" only where some are bought
        more = page.eval_on_selector_all(
            '#shop button[aria-label="more"]', "bs => bs.map(b => b.disabled)"
        )
        fewer = page.eval_on_selector_all(
            '#shop button[aria-label="fewer"]', "bs => bs.map(b => [b.dataset.item, b.disabled])"
        )
        assert more and all(more)
        assert [item for item, off in fewer if not off] == ["army", "hovercraft"]
        # each price on one line ("12 pts" wrapped to two in a narrow column)
        heights = page.eval_on_selector_all("#shop td.c", "cs => cs.map(c => c.clientHeight)")
        assert max(heights) == min(heights)
        zone = page.evaluate("apxPlay.zone()")
        # the zone in the engine's words: z, y, x, as every cell is written (R1, R3)
        box = " ".join(
            f"{axis}{min(c[i] for c in zone)}..{max(c[i] for c in zone)}"
            for i, axis in enumerate("zyx")
        )
        assert page.inner_text("#placing") == f"your zone: {box}"
        page.check('input[name="where"][value="choose"]')
        for cell in zone:
            if len(self.state()["cells"]) == 3:
                break
            self.click_cell(cell)
        cells = self.state()["cells"]
        assert len(cells) == 3 and all(c in zone for c in cells)
        page.click("#place")
        return cells

    def select(self, piece: dict[str, Any]) -> bool:
        before = self.state()["selected"]
        self.click_cell(piece["cell"])
        return self.state()["selected"] == [*before, piece["id"]]

    def play_turn(self, shot: str | None = None) -> str:
        """One order, as a person gives it: an attack if one of its pieces reaches an enemy,
        else a step of the piece nearest an enemy toward it, else Pass."""
        page = self.page
        obs = page.evaluate("apxPlay.observation()")
        seat = obs["player"]
        own = [p for p in obs["pieces"] if p["owner"] == seat and p["type"] != "fortress"]
        enemies = [p for p in obs["pieces"] if p["owner"] != seat]
        for piece in own:
            self.select(piece)
        if shot:  # what a person sees: the selected pieces boxed, targets red
            page.screenshot(path=str(SHOTS / shot))
        attack = self.state()["attack"]
        if attack:
            target = max(attack, key=lambda t: len(t["by"]))
            self.click_cell(target["cell"])
            staged = self.state()["staged"]
            if staged and staged["kind"] == "Attack":
                assert f" at {cell_text(staged['cell'])} with " in page.inner_text("#order-text")
                page.click("#send")
                return "attack"
        page.click("#clear")
        if enemies:

            def gap(p: dict[str, Any]) -> int:
                return min(cheb(p["cell"], e["cell"]) for e in enemies)

            for piece in sorted(own, key=lambda p: (p["trait"] == "chief", gap(p))):
                if not self.select(piece):
                    page.click("#clear")
                    continue
                moves = self.state()["move"]
                goal = min(enemies, key=lambda e: cheb(e["cell"], piece["cell"]))["cell"]
                for cell in sorted(moves, key=lambda c: cheb(c, goal)):
                    if cheb(cell, goal) >= cheb(piece["cell"], goal):
                        break
                    self.click_cell(cell)
                    staged = self.state()["staged"]
                    if staged and staged["kind"] == "Move":
                        # the cell in the engine's words, as the turn's events write it (R1)
                        words = page.inner_text("#order-text")
                        assert words.endswith(f" to {cell_text(staged['cell'])}")
                        page.click("#send")
                        return "move"
                page.click("#clear")
        page.click("#pass")
        return "pass"


def test_a_human_plays_a_whole_game_against_greedy_in_the_browser(
    browser: Any, tmp_path: Path
) -> None:
    with running(ServerConfig(port=0, data=tmp_path, agent_workers=0)) as server:
        links = server.create("human@ada,greedy", RULES, seed=2, agent_min_think=0.0)
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(links["seats"][0]["link"])
        wait(page, "document.documentElement.dataset.connected === '1'")
        assert "#" not in page.url  # the secret left the address bar
        for shape in [(2, 6, 6), (8, 16, 16), (3, 10, 10), (1, 5, 5)]:  # as viz.html lays out
            assert page.evaluate(f"apxPlay.layouts({list(shape)})") == _layouts(shape)
        assert page.is_visible("#play-hint")  # how to give an order
        me = Player(page)
        cells = me.place_army()
        wait(page, "apxPlay.state().turn === 1")
        watcher = browser.new_page()  # a spectator is told how to look, not how to play
        watcher.goto(links["watch"]["link"])
        wait(watcher, "document.documentElement.dataset.connected === '1'")
        assert watcher.inner_text("#me").startswith("a spectator of game")
        assert not watcher.is_visible("#play-hint")
        assert watcher.inner_text("#how").startswith("Drag to rotate")
        watcher.close()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "live-turn-1.png"))
        page.fill("#text", "good luck, greedy")
        page.click("#say")
        done: list[str] = []
        while not page.evaluate("apxPlay.state().result"):
            turn = me.state()["turn"]
            if turn is None:
                wait(page, "apxPlay.state().result !== null")
                break
            done.append(me.play_turn("live-selected.png" if turn == 4 else None))
            wait(page, f"apxPlay.state().turn !== {turn} || apxPlay.state().result !== null")
        wait(page, "document.documentElement.dataset.over === '1' && !apx.state().gliding")
        page.screenshot(path=str(SHOTS / "live-end.png"))
        state = me.state()
        assert "move" in done and "attack" in done, done
        assert state["errors"] == [] and errors == [], (state["errors"], errors)
        match = server.server.matches[links["game"]]
        replay_path = match.replay_path
        shown = {t: page.evaluate(f"apxPlay.seen({t})") for t in range(state["shown"] + 1)}
        drawn = {}
        for t in range(state["shown"] + 1):
            page.evaluate(f"apx.setTurn({t})")
            page.select_option("#fog", "0")
            drawn[t] = sorted(
                (*p[4:7], p[1], p[2], p[3]) for p in page.evaluate("apx.state().pieces")
            )
        result_text = page.inner_text("#result")
        inbox = state["inbox"]
        # the slider's steps: each turn played, "of" how many were played, then the end
        page.evaluate(f"apx.setTurn({state['shown']})")
        last_turn_text = page.inner_text("#turn-text")
        page.evaluate(f"apx.setTurn({state['shown'] + 1})")
        end_text, end_log = page.inner_text("#turn-text"), page.inner_text("#log")
        # the replay, downloaded from the page with its token: the file the server wrote
        with page.expect_download() as download_info:
            page.click("#get-replay")
        download = download_info.value
        downloaded = Path(download.path()).read_bytes()
        assert download.suggested_filename == replay_path.name
    assert downloaded == replay_path.read_bytes()
    replay = load_replay(replay_path)
    assert verify(replay).turns_checked == replay.last_turn  # every event replays (R12)
    # what the page showed, turn by turn, is what the replay says seat 0 saw (R6)
    assert state["shown"] == replay.last_turn
    for t in range(replay.last_turn + 1):
        obs = replay.observation(0, t)
        want = sorted(
            (
                p.id,
                p.owner,
                p.type.name.lower(),
                None if p.trait is None else p.trait.name.lower(),
                list(p.cell),
            )
            for p in obs.pieces
        )
        got = sorted((p["id"], p["owner"], p["type"], p["trait"], p["cell"]) for p in shown[t])
        assert got == want, f"turn {t}"
        cells_drawn = sorted(
            (*p.cell, p.owner, int(p.type), -1 if p.trait is None else int(p.trait))
            for p in obs.pieces
        )
        assert drawn[t] == cells_drawn, f"turn {t}: drawn"
    placed = sorted(list(p.cell) for p in replay.state_at(0).pieces(0))
    assert placed == sorted(cells)  # the army stands where it was clicked (R3)
    record = replay.records[0]
    assert record.messages[0][0].text == "good luck, greedy"  # sent with turn 1's order (R9)
    assert "P1 greedy-1" in " ".join(replay.agents) or replay.agents[1] == "greedy (live)"
    result = replay.result
    name = {0: "ada", 1: "greedy-1"}
    expected = "draw" if result.winner is None else f"P{result.winner} {name[result.winner]} wins"
    assert result_text.startswith(expected) and f"after {result.turns} turns" in result_text
    assert last_turn_text == f"turn {result.turns} of {result.turns}"  # (the end is no turn)
    assert end_text == "the end" and end_log.startswith("the end:")
    assert inbox[0] == "good luck, greedy"


def test_the_army_shop_sells_no_more_pieces_than_the_zone_holds(
    browser: Any, tmp_path: Path
) -> None:
    """R3 with a budget larger than a home zone holds: "+" stops once the army fills the zone
    (another piece could not be placed), and the place button then says nothing is unspent
    nor asks first, as for an army that spends what it can."""
    rules = Rules(shape=(2, 6, 6), players=2, budget=400, max_turns=5, timers=False)
    zone = rules.home_zones[0]  # type: ignore[index]
    with running(ServerConfig(port=0, data=tmp_path, agent_workers=0)) as server:
        links = server.create("human,greedy", rules, seed=1, agent_min_think=0.0)
        page = browser.new_page()
        page.goto(links["seats"][0]["link"])
        wait(page, "document.documentElement.dataset.connected === '1'")
        wait(page, "apxPlay.state().cost > 0")  # (the shop is open, the chief bought)
        more = '#shop button[data-item="army"][aria-label="more"]'
        presses = 0
        while not page.is_disabled(more):
            page.click(more)
            presses += 1
            assert presses < 1000
        state = page.evaluate("apxPlay.state()")
        assert len(state["army"]) == zone.volume
        assert state["cost"] < rules.army_budget  # points are left, but no room for them
        assert page.inner_text("#place") == "place this army"
        assert all(
            page.eval_on_selector_all(
                '#shop button[aria-label="more"]', "bs => bs.map(b => b.disabled)"
            )
        )
        page.click("#place")  # no question: the army fills its zone
        wait(page, "apxPlay.state().turn === 1")
        page.close()
