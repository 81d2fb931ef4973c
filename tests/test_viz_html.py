"""The replay page (viz.html, ``antipolix view GAME --html FILE``) without a browser: the data in
the page is the scene of every turn (one scene, two renderers), one player's page holds only what
that player saw (R6), the page is self-contained and reproducible, and bad input ends with one
clear line and nothing written. tests/test_viz_browser.py opens the page in Chromium.
"""

from __future__ import annotations

import os
import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pytest

from antipolix.cli import main
from antipolix.events import Eliminated
from antipolix.pieces import Trait
from antipolix.replay import Replay, load_replay
from tests.test_viz_scene import write_small_replay
from viz import View, ViewError, build_scene
from viz.html import (
    LINE_KINDS,
    MARK_KINDS,
    WEB_FILES,
    page_html,
    read_page_data,
    save_html,
    unpack,
    web_file,
)

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "viz" / "web"


@pytest.fixture(scope="module")
def replay_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_small_replay(tmp_path_factory.mktemp("page") / "small.apx.json.gz")


@pytest.fixture(scope="module")
def replay(replay_path: Path) -> Replay:
    return load_replay(replay_path)


@pytest.fixture(scope="module")
def page(replay: Replay, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_html(replay, tmp_path_factory.mktemp("page") / "game.html")


def decode(data: dict[str, Any], k: int) -> list[dict[str, Any]]:
    """View ``k`` of a page, turn by turn, rebuilt from its changes as the page's script does:
    pieces by page id, and the turn's lines, marks, labels, log and legend."""
    pieces: dict[int, tuple[int, ...]] = {}
    legend: dict[int, tuple[bool, str]] = {}
    out = []
    for row in data["turns"]:
        d = row[k]
        for pid in d.get("r", []):
            del pieces[pid]
        p = d.get("p", [])
        assert len(p) % 8 == 0
        for i in range(0, len(p), 8):
            pieces[p[i]] = tuple(p[i + 1 : i + 8])
        for player, alive, text in d.get("e", []):
            legend[player] = (bool(alive), text)
        out.append(
            {
                "pieces": dict(pieces),
                "lines": [d.get("l", [])[i : i + 8] for i in range(0, len(d.get("l", [])), 8)],
                "marks": [d.get("m", [])[i : i + 6] for i in range(0, len(d.get("m", [])), 6)],
                "labels": d.get("b", []),
                "log": d.get("g", []),
                "legend": dict(legend),
                "title": d.get("t"),
            }
        )
    return out


def cell(point: Any) -> list[int]:
    return [round(float(v)) for v in point[::-1]]


def test_page_holds_the_scene_of_every_turn_and_view(replay: Replay, page: Path) -> None:
    data = read_page_data(page)
    assert [v["fog"] for v in data["views"]] == [None, 0, 1, 2]  # the truth and every player
    assert len(data["turns"]) == replay.last_turn + 1
    colours = data["colours"]
    for k, fog in enumerate(v["fog"] for v in data["views"]):
        engine_id: dict[int, int] = {}  # page id -> engine id, the same all game long
        for t, got in enumerate(decode(data, k)):
            scene = build_scene(replay, t, View(fog=fog))
            g = scene.glyphs
            want = {
                tuple(int(v) for v in g.cells[i]): (
                    int(g.ids[i]),
                    (int(g.owners[i]), int(g.types[i]), int(g.traits[i]), int(g.ghost[i])),
                )
                for i in range(len(g))
            }
            have = {tuple(row[3:6]): (pid, row[:3] + row[6:]) for pid, row in got["pieces"].items()}
            assert {c: w[1] for c, w in want.items()} == {c: h[1] for c, h in have.items()}
            for c, (pid, _) in have.items():
                assert engine_id.setdefault(pid, want[c][0]) == want[c][0]
            assert got["lines"] == [
                [LINE_KINDS.index(ln.kind), colours.index(ln.colour), *cell(ln.points[0]),
                 *cell(ln.points[-1])]
                for ln in scene.lines
            ]  # fmt: skip
            assert got["marks"] == [
                [MARK_KINDS.index(m.kind), colours.index(m.colour), *cell(m.point),
                 -1 if m.piece_type is None else int(m.piece_type)]
                for m in scene.marks
            ]  # fmt: skip
            assert got["labels"] == [[*cell(lb.point), lb.text] for lb in scene.labels]
            assert got["log"] == list(scene.log)
            assert got["legend"] == {e.player: (e.alive, e.text) for e in scene.players}
            default = f"AntipoliX · turn {t} of {replay.last_turn}"
            assert (got["title"] or default) == scene.title
            assert _seen_at(data["views"][k], t) == scene.subtitle.split(" · ", 1)[-1]


def _seen_at(view: dict[str, Any], turn: int) -> str:
    """What a page view says it sees at ``turn`` (replay.js's seenAt): a seat's view says it
    sees nothing only from the turn the seat is out (it said so at every turn before)."""
    text = view["seen"]
    for start, then in view["seen_from"]:
        if turn >= start:
            text = then
    return str(text)


def test_page_data_are_integers_and_only_changes(replay: Replay, page: Path) -> None:
    data = read_page_data(page)
    numbers = [v for row in data["turns"] for d in row for key in "prlm" for v in d.get(key, [])]
    assert numbers and all(type(v) is int for v in numbers)  # no float noise
    # pieces that neither moved nor changed are not repeated: far fewer rows than pieces × turns
    rows = sum(len(row[0].get("p", [])) // 8 for row in data["turns"])
    every = sum(len(replay.state_at(t).pieces()) for t in range(replay.last_turn + 1))
    assert rows < every / 4


def test_r6_a_players_page_holds_only_what_it_saw(replay: Replay, tmp_path: Path) -> None:
    path = save_html(replay, tmp_path / "p1.html", view=View(fog=1))
    data = read_page_data(path)
    assert [v["fog"] for v in data["views"]] == [1]
    text = path.read_text()
    out = next(
        (
            t
            for t in range(1, replay.last_turn + 1)
            for e in replay.events(t)
            if isinstance(e, Eliminated) and e.player == 1
        ),
        replay.last_turn + 1,
    )
    for t, got in enumerate(decode(data, 0)):
        obs = replay.observation(1, t)
        # from its elimination on, a player sees nothing (the viewer's fog of an eliminated seat)
        cells = sorted(tuple(int(v) for v in c) for c in obs.cells) if t < out else []
        assert sorted(tuple(row[3:6]) for row in got["pieces"].values()) == cells
        for row in got["pieces"].values():
            owner, trait = row[0], row[2]
            if owner != 1:
                assert trait == -1  # traits of other players' pieces are unknown
        truth = replay.state_at(t)
        for piece in truth.pieces():
            if piece.owner != 1 and piece.trait is Trait.INVISIBLE:
                assert tuple(piece.cell) not in {tuple(r[3:6]) for r in got["pieces"].values()}
    assert "the truth" not in unpack(re.search(r'id="apx-data"[^>]*>([^<]*)<', text)[1])


def test_page_is_self_contained_and_reproducible(replay: Replay, page: Path) -> None:
    text = page.read_text()
    assert text == page_html(replay)  # the same replay gives the same bytes
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", text)
    assert not re.search(r"https?://(?!www\.w3\.org/)", text.split('id="apx-three"')[0])
    assert "DecompressionStream" in text
    three = unpack(re.search(r'id="apx-three"[^>]*>([^<]*)<', text)[1])
    assert three == web_file("vendor/three.min.js")


def test_page_starts_where_it_is_told(replay: Replay, tmp_path: Path) -> None:
    view = View(mode="boards", axis="y", boards=(1, 3, 4), layout="stack", events=False)
    data = read_page_data(save_html(replay, tmp_path / "b.html", view=view, turn=5))
    assert data["start"] == {
        "turn": 5, "mode": "boards", "axis": "y", "boards": [1, 3, 4], "slice": 0,
        "layout": "stack", "angle": "oblique", "view": 0, "events": False,
    }  # fmt: skip
    # the layout the browser uses is the one viz.scene gives for these boards
    scene = build_scene(replay, 5, view)
    step = data["layouts"]["y"]["stack"]
    for k, panel in enumerate(scene.panels):
        assert panel.origin.tolist() == [k * s for s in step]


def test_replay_js_uses_only_the_bundled_three_classes() -> None:
    used = set(re.findall(r"THREE\.([A-Za-z0-9_]+)", web_file("replay.js")))
    listed = set(re.findall(r"^\s+([A-Za-z0-9_]+),$", web_file("vendor/three-entry.js"), re.M))
    assert used and used <= listed, f"add {sorted(used - listed)} to three-entry.js, rebuild"
    bundle = web_file("vendor/three.min.js")
    for name in used:
        assert re.search(rf"\b{name}:\(\)=>", bundle), f"{name} is not in three.min.js"


def test_the_page_files_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]["viz"]
    needed = [*WEB_FILES, "vendor/LICENSE"]
    for name in needed:
        assert (WEB / name).is_file()
        assert any(fnmatch(f"web/{name}", g) for g in globs), f"web/{name} is not package data"
    assert "MIT" in (WEB / "vendor" / "LICENSE").read_text()


def test_cli_writes_a_page(replay_path: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "game.html"
    code = main(["view", str(replay_path), "--html", str(out), "--turn", "4", "--fog", "2"])
    assert code == 0
    assert f"wrote {out}" in capsys.readouterr().out
    data = read_page_data(out)
    assert data["start"]["turn"] == 4 and [v["fog"] for v in data["views"]] == [2]
    assert sorted(os.listdir(tmp_path)) == ["game.html"]  # no temporary file left


def test_cli_page_needs_no_display(replay_path: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    assert main(["view", str(replay_path), "--html", str(tmp_path / "g.htm")]) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{text}", "--html", "{out}"], "notes.txt"),  # the error names the file
        (["{corrupt}", "--html", "{out}"], "corrupt"),
        (["{missing}", "--html", "{out}"], "does not exist"),
        (["{replay}", "--html", "{folder}"], "is a folder"),
        (["{replay}", "--html", "{tmp}/game.txt"], "must end in .html"),
        (["{replay}", "--html", "{tmp}/no/such/folder/game.html"], "does not exist"),
        (["{replay}", "--html", "{text}/game.html"], "does not exist"),  # under a file
        (["{replay}", "--html", "/proc/antipolix-game.html"], "cannot write"),
        (["{replay}", "--turn", "999", "--html", "{out}"], "outside this replay"),
        (["{replay}", "--fog", "7", "--html", "{out}"], "no player 7"),
    ],
)
def test_cli_bad_input_is_one_line_and_writes_nothing(
    replay_path: Path, tmp_path: Path, capsys, args: list[str], message: str
) -> None:
    if "/proc/" in " ".join(args) and not Path("/proc/self").exists():
        pytest.skip("no /proc here")
    text = tmp_path / "notes.txt"
    text.write_text('{"type": "note"}\n{"text": "a shopping list"}\n')
    corrupt = tmp_path / "corrupt.apx.json.gz"
    corrupt.write_bytes(b"\x1f\x8b\x08\x00 damaged")
    (tmp_path / "pages.html").mkdir()
    names = {
        "folder": str(tmp_path / "pages.html"),
        "text": str(text),
        "corrupt": str(corrupt),
        "missing": str(tmp_path / "missing.apx.json.gz"),
        "replay": str(replay_path),
        "out": str(tmp_path / "out.html"),
        "tmp": str(tmp_path),
    }
    before = sorted(os.listdir(tmp_path))
    code = main(["view", *(a.format(**names) for a in args)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("antipolix: error:") and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == before  # nothing written, nothing half-written


def test_a_failed_write_leaves_the_old_page_whole(
    replay: Replay, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "game.html"
    out.write_text("the old page")

    def full_disk(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(ViewError, match=r"cannot write .*No space left"):
        save_html(replay, out)
    assert out.read_text() == "the old page"
    assert sorted(os.listdir(tmp_path)) == ["game.html"]  # the temporary file is gone


def test_readme_states_the_demo_pages_size(tmp_path: Path, capsys) -> None:
    stated = re.search(
        r"demo game's page .*? is \*\*(\d+) KB\*\*", (ROOT / "README.md").read_text(), re.S
    )
    assert stated, "the README no longer states the demo page's size"
    assert main(["demo", "--out", str(tmp_path), "--batch", "0"]) == 0
    capsys.readouterr()
    page = tmp_path / "demo.html"  # the demo writes its page (opening at its decisive turn)
    size = page.stat().st_size / 1000
    assert abs(size - int(stated[1])) <= 0.05 * size, f"the demo page is {size:.0f} KB now"
