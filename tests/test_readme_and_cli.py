"""The README's Python example runs as written; the CLI demo works and refuses bad arguments."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from antipolix.cli import main
from tests.markdown import FENCE, code_blocks, link_targets, python_blocks

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_examples_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocks = python_blocks((ROOT / "README.md").read_text())
    assert len(blocks) >= 2, "README lost its python examples"
    monkeypatch.chdir(tmp_path)  # examples may write files
    engine: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), engine)
    assert engine["game"].turn == 1  # type: ignore[attr-defined]
    assert "Moved" in capsys.readouterr().out
    agents: dict[str, object] = {}
    exec(compile(blocks[1], "README.md", "exec"), agents)
    replay = agents["replay"]
    assert replay.result == agents["result"]  # type: ignore[attr-defined]
    assert (tmp_path / "game.apx.json.gz").is_file()


def _markdown_files() -> list[Path]:
    """The project's Markdown files (not those of .venv, caches or what examples write)."""
    skip = {"runs", "out", "node_modules"}
    return sorted(
        p
        for p in ROOT.rglob("*.md")
        if not any(part.startswith(".") or part in skip for part in p.relative_to(ROOT).parts)
    )


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_markdown_code_blocks_are_closed_where_they_end(path: Path) -> None:
    """A fence left open turns the prose after it into code when the page is rendered, up to
    the next bare fence (the README's Python API section showed its notes and the next heading
    as one code block): no block may run to the end of its file, or hold a line that opens a
    block of its own (a fence with a language), which is what a block left open swallows."""
    text = path.read_text(encoding="utf-8")
    fences = sum(bool(FENCE.match(line)) for line in text.splitlines())
    blocks = code_blocks(text)
    for block in blocks:
        opening = [line for line in block.text.splitlines() if FENCE.match(line)]
        assert not opening, f"{path.name}:{block.line}: the block holds a fence: {opening[0]!r}"
    assert fences == 2 * len(blocks), f"{path.name}: a code block is left open at its end"


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_markdown_links_to_the_projects_files_lead_to_them(path: Path) -> None:
    """A relative link is read from the file's own folder (as GitHub renders it): a page moved
    from the README into experiments/results/ kept a link written from the project's root."""
    targets = link_targets(path.read_text(encoding="utf-8"))
    local = [t for t in targets if not t.startswith(("http://", "https://", "mailto:", "#"))]
    missing = [t for t in local if not (path.parent / t.split("#")[0]).exists()]
    assert not missing, f"{path.relative_to(ROOT)} links to files that are not there: {missing}"


def test_cli_demo_prints_summary_and_writes_a_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--out", str(tmp_path), "--batch", "6", "--workers", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("AntipoliX: 4 players (greedy, greedy, random, greedy)")
    assert re.search(r"^result: (P\d \(\w+\) wins|draw), ", out, flags=re.M)
    assert "pieces at the end (points: their cost" in out
    replay = tmp_path / "demo.apx.json.gz"
    assert replay.is_file()
    assert (tmp_path / "demo.png").stat().st_size > 10_000  # the decisive turn, drawn
    assert (tmp_path / "demo.html").stat().st_size > 100_000  # its replay page
    assert "batch: 6 games" in out and "games won by agent" in out
    first = replay.read_bytes()
    assert main(["demo", "--out", str(tmp_path), "--batch", "6", "--workers", "0"]) == 0
    assert capsys.readouterr().out == out, "the demo is not deterministic"
    assert replay.read_bytes() == first, "the same game wrote a different replay"


def test_the_demo_draws_its_decisive_turn_names_the_winner_and_writes_its_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo's picture is the decisive turn (the winner's first chief taken, R8), not the
    height of the battle (turn 26 of 234 for seed 7, nothing decided): several players'
    colours on the board, its title naming the winner; the replay page is written beside it,
    opening at that turn, and the demo says how to open it."""
    import imageio.v2 as imageio

    from antipolix.events import Eliminated, Elimination
    from antipolix.replay import load_replay
    from antipolix.story import story
    from tests.test_viz_render import colour_pixels, scene_pixels
    from viz import View
    from viz.html import read_page_data
    from viz.palette import PALETTE

    assert main(["demo", "--out", str(tmp_path), "--batch", "0"]) == 0
    out = capsys.readouterr().out
    replay = load_replay(tmp_path / "demo.apx.json.gz")
    winner = replay.result.winner
    assert winner is not None
    first = next(
        t
        for t in range(1, replay.last_turn + 1)
        for e in replay.events(t)
        if isinstance(e, Eliminated) and e.reason is Elimination.CHIEF and e.by == winner
    )
    told = story(replay)
    assert told.decisive.turn == first < replay.last_turn
    assert f"turn {first} of {replay.last_turn}, the decisive turn: P{winner} (" in out
    image = np.asarray(imageio.imread(tmp_path / "demo.png"))
    pixels = scene_pixels(image, View())
    shown = [c for c in PALETTE[:4] if colour_pixels(pixels, c, tolerance=40) > 200]
    assert len(shown) >= 3, f"only {len(shown)} players' colours on the demo picture"
    # the README's picture is the one the demo draws (python experiments/docs_pictures.py)
    docs = np.asarray(imageio.imread(ROOT / "docs" / "demo.png"))
    assert docs.shape == image.shape
    differ = float((np.abs(docs.astype(int) - image.astype(int)).max(axis=2) > 60).mean())
    assert differ < 0.02, f"docs/demo.png differs from the demo's picture in {differ:.1%}"
    page = tmp_path / "demo.html"
    data = read_page_data(page)
    assert data["start"]["turn"] == first
    assert [m["turn"] for m in data["story"]] == [m.turn for m in told.moments]
    assert f"replay page: {page} (" in out and page.resolve().as_uri() in out


def test_the_demo_pictures_title_names_the_winner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the demo asks the picture writers for (entry points ``png`` and ``html``)."""
    from antipolix.cli import play as play_cli

    calls: list[tuple[str, int, Path, dict[str, object]]] = []

    class Writer:
        def __init__(self, name: str) -> None:
            self.name = name

        def load(self) -> object:
            def save(replay: object, turn: int, path: Path, **kw: object) -> Path:
                calls.append((self.name, turn, Path(path), kw))
                Path(path).write_text("drawn")
                return Path(path)

            return save

    monkeypatch.setattr(play_cli, "entry_points", lambda group: [Writer("png"), Writer("html")])
    argv = ["demo", "--out", str(tmp_path), "--batch", "0", "--agents", "greedy,random"]
    assert main([*argv, "--rule", "shape=4,8,8", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    winner = re.search(r"^result: (P\d \(\w+\)) wins, ", out, re.M)
    assert winner is not None
    (png, png_turn, png_path, png_kw), (html, html_turn, html_path, _) = calls
    assert (png, html) == ("png", "html") and png_turn == html_turn
    assert png_path.suffix == ".png" and html_path == png_path.with_suffix(".html")
    assert f"{winner[1]} wins" in str(png_kw["title"])
    assert f"turn {png_turn} of " in str(png_kw["title"])


def test_a_second_demo_with_other_settings_keeps_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's two demo commands, one after the other, in the same folder: both run, and
    the second writes its own files (it overwrote the first's and then refused the batch)."""
    small = ["--batch", "2", "--workers", "0", "--out", str(tmp_path), "--rule", "max_turns=40"]
    assert main(["demo", *small]) == 0
    first = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert main(["demo", *small, "--seed", "3", "--agents", "greedy,random,random"]) == 0
    out = capsys.readouterr().out
    now = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert all(now[path] == data for path, data in first.items() if path.name != ".lock")
    name = "demo-seed3-greedy-random-random-rules-"
    assert any(p.name.startswith(name) and p.name.endswith(".apx.json.gz") for p in now)
    assert any(p.name.startswith(name) and p.name.endswith(".png") for p in now)
    assert "batch: 2 games of greedy, random, random" in out


def test_demo_refuses_an_out_that_is_a_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "taken"
    file.write_text("mine")
    assert main(["demo", "--batch", "0", "--out", str(file)]) == 2
    err = capsys.readouterr().err
    assert err == f"antipolix: error: cannot use --out {file}: it is a file, not a folder\n"
    assert file.read_text() == "mine"


def test_cli_play_log_and_replay_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.apx.json.gz"
    argv = ["play", "--agents", "greedy,random", "--seed", "3", "--rule", "shape=4,8,8"]
    assert main([*argv, "--log", "--replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^turn +1: ", out, flags=re.M)
    assert f"replay written to {path}" in out
    assert main(["replay", "verify", str(path)]) == 0
    assert "OK: " in capsys.readouterr().out
    assert main(["replay", "show", str(path)]) == 0
    assert "result: " in capsys.readouterr().out
    assert "\nother rules: " not in out  # nothing differs besides the board and the players


def test_cli_play_names_the_rules_it_plays_besides_the_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game of other rules says so (it read as one of the 1995 rules but for its board,
    players, budget and turn limit), and so does its replay."""
    path = tmp_path / "g.apx.json.gz"
    rules = ["--rule", "shape=4,8,8", "--rule", "defence_counts=all", "--rule", "max_turns=40"]
    argv = ["play", "--agents", "greedy,random", "--seed", "3", *rules, "--replay", str(path)]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (
        lines[0].endswith("turn limit 40 turns") and lines[1] == "other rules: defence_counts=all"
    )
    assert main(["replay", "show", str(path)]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "on a 4×8×8 board, other rules defence_counts=all max_turns=40, seed 3" in head


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--seed", "-3"], "seed must be an integer from 0 to 2**63 - 1, got -3"),
        (["play", "--agents", "greedy,nobody"], "unknown agent 'nobody'"),
        (["play", "--rule", "shape=0,8,8"], None),
        (["play", "--seed", "x"], "'x' is not an integer"),
        # an argument no command takes: the help named is the command's, not the top one's
        (["play", "--bogus"], "unrecognized arguments: --bogus (see: antipolix play --help)"),
        (
            ["balance", "compare", "a.toml", "b.toml", "--out", "x", "--games", "8"],
            "unrecognized arguments: --games 8 (see: antipolix balance compare --help)",
        ),
        (["replay", "show", "a.gz", "-x"], "(see: antipolix replay show --help)"),
    ],
)
def test_cli_refuses_bad_arguments(
    argv: list[str], message: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    if message is None:  # refused by the rules, after parsing
        assert main(argv) == 2
        assert "shape must be (P, N, N) with P >= 1" in capsys.readouterr().err
        return
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_cli_reports_invalid_rules_without_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "antipolix", "play", "--agents", "random"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 2
    # the players are the agents given: a lone agent is told so, not "players ... got 1"
    assert (
        "AntipoliX seats 2 to 10 players (R3), but 1 agent is given: --agents names one agent "
        "a seat" in proc.stderr
    )
    assert "Traceback" not in proc.stderr


def test_readme_says_where_the_command_is_and_git_ignores_what_its_examples_write() -> None:
    text = (ROOT / "README.md").read_text()
    assert "`.venv/bin/antipolix ...`" in text and "source .venv/bin/activate" in text
    code = "\n".join(b.text for b in code_blocks(text) if b.info in ("bash", "python"))
    code += "\n" + "\n".join(re.findall(r"`([^`\n]+)`", text))  # inline examples too
    files = set(re.findall(r"[\w./-]+\.(?:apx\.json\.gz|png|gif|mp4|html)\b", code))
    folders = set(re.findall(r"\b(?:runs|out)/[\w-]+", code))
    written = {f for f in files if not f.startswith("docs/")} | {f"{d}/x.parquet" for d in folders}
    assert {"game.apx.json.gz", "t40.png", "game.mp4", "last.png", "game.gif"} <= written
    assert {"game.html", "demo.html"} <= written  # replay pages (antipolix view --html)
    assert "runs/x/x.parquet" in written
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    for path in sorted(written):
        proc = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT, check=False)
        assert proc.returncode == 0, f"git would pick up {path}, which a README example writes"
    kept = subprocess.run(["git", "check-ignore", "-q", "docs/demo.png"], cwd=ROOT, check=False)
    assert kept.returncode == 1  # the README's own pictures stay tracked


def test_a_designers_first_hour_plays_the_committed_proposal_live() -> None:
    """The first hour's last step serves a game at a proposal: its seats must be as many as the
    proposal's players (a proposal names every option, players = 4 at the default rules), and
    a human's clock must leave time to think (R7: ``time_credit`` alone is capped by
    ``time_total`` / players, 600 gave 62.5 s; and zero-sum clocks run out in about 22 turns of
    10 s against three agents at 600 s each): no clocks, or clocks for 200 turns (the command
    says nothing about them)."""
    import shlex

    from antipolix.cli import parser
    from antipolix.cli.common import rules_from_args
    from antipolix.cli.serve import clock_hint
    from antipolix.server.seats import parse_seats

    readme = (ROOT / "README.md").read_text()
    hour = readme.split("## A designer's first hour", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"`(antipolix serve [^`]*)`", hour.replace("\n   ", " "))
    assert found, "the first hour lost its live game"
    proposal = ROOT / "experiments" / "results" / "meta_default" / "proposed.toml"
    argv = shlex.split(found[1].replace("proposed.toml", str(proposal)))[1:]
    args = parser().parse_args(argv)
    seats = parse_seats(args.seats)
    rules = rules_from_args(args, len(seats), seats="--seats")
    assert rules.players == len(seats) == 4
    assert any(seat.kind == "human" for seat in seats)
    assert clock_hint(rules, seats, args.agent_min_think) is None
    assert not rules.timers or rules.initial_timer >= 3 * 9 * 200
