"""Every command with ``--game``: Sight (and the test game) from the command line, and the bad
input every command refuses in one line (exit 2, nothing written): an unknown game, a rule
option the game does not have, another game's agent, a replay of another game or version, a
command that makes no sense for the game."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from antipolix import games, simulate
from antipolix.cli import main
from antipolix.envelope import envelope_bytes, line
from antipolix.games import replays
from antipolix.ladder import Ladder, tournament
from antipolix.runner import Results
from antipolix.runner.store import STUDY_FILE


@pytest.fixture
def sight_replay(tmp_path: Path) -> Path:
    path = tmp_path / "sight.apx.json.gz"
    assert main(["play", "--game", "sight", "--seed", "3", "--replay", str(path)]) == 0
    return path


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line a refused command prints (exit 2 from main or from the parser)."""
    try:
        code = main(argv)
    except SystemExit as exit_info:
        code = int(exit_info.code or 0)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("antipolix: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def test_play_sight_prints_every_turn_and_its_replay_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.apx.json.gz"
    argv = ["play", "--game", "sight", "--agents", "random,random", "--seed", "3", "--log"]
    assert main([*argv, "--replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Sight (Kanare Kato): 2 players (random, random), seed 3")
    assert re.search(r"^turn +1: seat 0 \(random\): Place \(\d, \d\)$", out, flags=re.M)
    assert re.search(r"^result: seat \d \(random\) wins \((blocked|board_full)\) after", out, re.M)
    assert f"replay written to {path}" in out
    assert main(["replay", "verify", str(path)]) == 0
    assert "OK: " in capsys.readouterr().out
    assert main(["replay", "show", str(path), "--log"]) == 0
    shown = capsys.readouterr().out
    assert "Sight (Kanare Kato) replay" in shown and "turn    1: seat 0" in shown
    loaded = replays.load(path)
    assert isinstance(loaded, replays.GameReplay) and loaded.game.info.name == "sight"


def test_the_game_plays_the_same_whatever_the_command(tmp_path: Path) -> None:
    """R12: the replay ``play`` writes is the game ``simulate`` and ``Results.replay`` play."""
    game = games.game("sight")
    results = simulate(game.config(), ["random", "random"], 3, 9, game="sight", workers=0)
    again = tmp_path / "again.apx.json.gz"
    outcome = results.replay(2, again)
    row = results.to_pandas().set_index("game").loc[2]
    assert (outcome.winner, outcome.turns, outcome.reason) == (
        row["winner"], row["turns"], row["reason"]
    )  # fmt: skip
    assert replays.verify(replays.load(again)).complete


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--game", "nim"], "unknown game 'nim' (games: antipolix, sight)"),
        (["simulate", "--game=chess", "--games", "2"], "unknown game 'chess'"),
        (["play", "--game", "sight", "--rule", "hovercraft.cost=1"], "unknown option"),
        (["play", "--game", "sight", "--rule", "size=12"], "size must be an integer from 3 to 9"),
        (["play", "--game", "sight", "--agents", "planner,random"], "unknown agent 'planner'"),
        (["play", "--game", "sight", "--agents", "random"], "players must be 2"),
        (["balance", "--game", "sight"], "balance fits piece costs, and sight has none"),
        (["tune", "--game", "sight"], "sight has no planner"),
        (["serve", "--game", "sight", "--seats", "human,greedy"], "serve plays AntipoliX only"),
        (["rules", "--game", "sight", "--rule", "bogus=1"], "unknown option 'bogus'"),
        (["perft"], "antipolix has no perft: its moves are simultaneous"),
        (["perft", "--game", "antipolix", "--depth", "2"], "antipolix has no perft"),
        (["play", "--game", "sight", "--replay", "no/such/g.apx.json.gz"], "does not exist"),
    ],
)
def test_bad_input_is_refused_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    assert message in _refused(argv, capsys)
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_rules_prints_another_games_options_marking_what_differs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "--game", "sight", "--rule", "size=7", "--rule", "pie=true"]) == 0
    out = capsys.readouterr().out
    assert "docs/rules/sight.md" in out
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()[3:] if line.strip()}
    assert rows["size"] == "7*" and rows["pie"] == "true*"  # S1, S4: changed, marked
    assert rows["hand"] == "unlimited" and rows["stack_priority"] == "movable"  # the defaults


def test_perft_prints_the_s11_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--game", "sight", "--depth", "4"]) == 0
    out = capsys.readouterr().out
    counts = [int(n.replace(",", "")) for n in re.findall(r"perft\(\d\) = ([\d,]+)", out)]
    assert counts == [25, 600, 13_800, 303_600]  # S11's reference values
    assert main(["perft", "--game", "sight", "--depth", "3", "--rule", "pie=true"]) == 0
    assert "perft(2) = 625" in capsys.readouterr().out  # S11, with pie


def test_perft_says_how_long_a_deep_level_will_take_before_it_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each level takes about the branching times the last one: a level expected to take 10 s
    or more is announced with its estimate before it starts (the deep levels took minutes
    without a word); the counts and their seconds as before."""
    from antipolix.cli import perft

    clock = iter([0.0, 1.0, 1.0, 3.0, 3.0, 23.0, 23.0, 223.0])  # 1 s, 2 s, 20 s, 200 s
    monkeypatch.setattr(perft.time, "perf_counter", lambda: next(clock))
    monkeypatch.setattr(perft.host, "perft", lambda game, config, depth: 10**depth)
    assert main(["perft", "--game", "sight", "--depth", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    assert lines == [
        "perft(1) = 10 (1.00 s)",
        "perft(2) = 100 (2.00 s)",
        "perft(3): counting, about 20 s (Ctrl-C stops)",  # 2 s × 100 / 10
        "perft(3) = 1,000 (20.00 s)",
        "perft(4): counting, about 200 s (Ctrl-C stops)",
        "perft(4) = 10,000 (200.00 s)",
    ]
    assert perft.estimate([10, 0], 5.0) is None  # a game over: nothing grows


def _rewritten(src: Path, dst: Path, change: dict[str, object]) -> Path:
    """``src`` with header fields changed and its checksum made good again."""
    lines = gzip.decompress(src.read_bytes()).splitlines(keepends=True)
    header = json.loads(lines[0]) | change
    body = [line(header), *lines[1:-1]]
    dst.write_bytes(envelope_bytes(body, dst))
    return dst


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "chess"}, "is a replay of the game 'chess', which this antipolix"),
        ({"game_version": 99}, "records sight version 99; this antipolix"),
        ({"version": 4}, "has format version 4"),
    ],
)
def test_a_replay_of_another_game_or_version_is_refused(
    change: dict[str, object], message: str, sight_replay: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    bad = _rewritten(sight_replay, tmp_path / "bad.apx.json.gz", change)
    capsys.readouterr()
    for argv in (["replay", "verify", str(bad)], ["replay", "show", str(bad)]):
        assert message in _refused(argv, capsys)
    page = tmp_path / "bad.html"
    assert message in _refused(["view", str(bad), "--html", str(page)], capsys)
    assert not page.exists()


def test_a_replay_named_for_another_game_is_refused(
    sight_replay: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    err = _refused(["replay", "verify", str(sight_replay), "--game", "antipolix"], capsys)
    assert "is a replay of sight, not of antipolix" in err
    assert main(["replay", "verify", str(sight_replay), "--game", "sight"]) == 0


def test_antipolix_reads_no_other_games_replay_as_its_own(sight_replay: Path) -> None:
    from antipolix import load_replay
    from antipolix.errors import ReplayError

    with pytest.raises(ReplayError, match="a replay of the game 'sight', not of AntipoliX"):
        load_replay(sight_replay)


def test_simulate_sight_writes_a_study_that_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s"
    argv = ["simulate", "--game", "sight", "--games", "30", "--seed", "2", "--workers", "0"]
    assert main([*argv, "--out", str(out), "--no-progress", "--rule", "size=4"]) == 0
    text = capsys.readouterr().out
    assert "30 games, seed 2, agents random, random" in text and "rules: size=4" in text
    study = json.loads((out / STUDY_FILE).read_text())
    assert (study["game"], study["game_version"], study["version"]) == ("sight", 1, 3)
    assert study["agents"][0] == {"game": "sight", "agent": "random", "name": "random",
                                  "params": {}}  # fmt: skip
    frame = Results.open(out).to_pandas()
    assert frame["reason"].isin(["blocked", "board_full"]).all() and "swapped" in frame
    assert main([*argv, "--out", str(out), "--no-progress", "--rule", "size=4"]) == 0
    assert "played 0 games" in capsys.readouterr().out
    err = _refused([*argv, "--out", str(out), "--no-progress"], capsys)  # other rules
    assert "holds a different study" in err


@pytest.mark.slow  # Ray's start; AntipoliX's studies on Ray take the same path by default
def test_simulate_sight_on_ray_gives_the_rows_of_one_process(ray_local: object) -> None:
    config = games.game("sight").config()
    here = simulate(config, ["random", "random"], 40, 4, game="sight", workers=0, chunk_size=7)
    there = simulate(config, ["random", "random"], 40, 4, game="sight", workers=2, chunk_size=9)
    columns = [c for c in here.to_pandas().columns if c != "seconds"]
    pd.testing.assert_frame_equal(here.to_pandas()[columns], there.to_pandas()[columns])
    assert there.run is not None and there.run.mode == "ray"


def test_a_tournament_of_another_game_rates_its_agents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(games.REGISTRY, "tictactoe", "tests.games.tictactoe")
    out = tmp_path / "ladder"
    argv = ["tournament", "--game", "tictactoe", "--agents", "random,first,first:last=true"]
    argv += ["--games", "12", "--workers", "0", "--bootstrap", "20", "--no-progress"]
    assert main([*argv, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Tic-tac-toe (a test game): 3 agents (random, first, first:last=true)" in text
    ladder = Ladder.open(out, bootstrap=0)
    assert ladder.game == "tictactoe" and len(ladder.games) == 36
    assert set(ladder.ratings["agent"]) == {"random", "first", "first:last=true"}
    manifest = json.loads((out / "tournament.json").read_text())
    assert manifest["game"] == "tictactoe" and manifest["agent_specs"][1]["agent"] == "first"
    assert main([*argv, "--out", str(out)]) == 0  # resumes: nothing to play
    assert "played 0 games" in capsys.readouterr().out
    again = tournament(["random", "first"], 4, game="tictactoe", workers=0, bootstrap=0)
    assert len(again.games) == 4


def test_view_draws_a_2d_game_as_a_page_and_a_picture(
    sight_replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from PIL import Image

    from antipolix.games.sight.scene import SIDE_COLOURS
    from viz.board2d import read_page_data
    from viz.palette import player_colour, rgb

    page, png = tmp_path / "g.html", tmp_path / "g.png"
    capsys.readouterr()
    assert main(["view", str(sight_replay), "--html", str(page), "--png", str(png)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {page}" in out and f"wrote {png}" in out
    data = read_page_data(page)
    replay = replays.load(sight_replay)
    assert data["game"] == "sight" and data["last_turn"] == replay.last_turn
    assert len(data["views"]) == 1  # perfect information: the truth only
    last = data["views"][0]["turns"][-1]
    pieces = [m for m in last["marks"] if m[0] == "piece"]
    assert len(pieces) == sum(1 for m in replay.game.scene(replay.state_at(replay.last_turn)).marks
                              if m.kind == "piece")  # fmt: skip
    assert len(data["actions"]) == replay.last_turn + 1 and data["actions"][0] == []
    image = np.asarray(Image.open(png).convert("RGB")).astype(int)
    for seat in (0, 1):  # each seat's pieces in its side's colour (S2: White light, Black dark)
        near = np.abs(image - rgb(SIDE_COLOURS[seat]).astype(int)).sum(axis=2) < 30
        assert near.sum() > 500, seat
        palette = np.abs(image - rgb(player_colour(seat)).astype(int)).sum(axis=2) < 30
        assert palette.sum() < 50, seat  # not the palette's (seat 0 navy: White drawn dark)
    assert {s: p["colour"] for s, p in enumerate(data["players"])} == dict(enumerate(SIDE_COLOURS))
    assert all(t["colours"] == list(SIDE_COLOURS) for t in data["views"][0]["turns"])
    err = _refused(["view", str(sight_replay), "--gif", str(tmp_path / "g.gif")], capsys)
    assert "drawn as a page (--html) or a picture (--png)" in err
    # the 3D views' options are refused by name (they were ignored: the flat board was drawn)
    argv = ["view", str(sight_replay), "--png", str(tmp_path / "b.png"), "--mode", "boards"]
    err = _refused([*argv, "--angle", "top"], capsys)
    assert "--mode, --angle are for AntipoliX's 3D views; a 2D game's board is drawn flat" in err
    assert not (tmp_path / "b.png").exists()


def test_the_2d_pictures_legend_lies_within_the_picture(sight_replay: Path) -> None:
    """The legend of a 2D game's picture (each seat's agent and place) is wholly inside it:
    pyvista's loc="lower right" took the box's height for its width, which put most of the
    legend past the picture's right edge ("seat 0: rando")."""
    from viz.render2d import _legend, _plotter

    plotter = _plotter((640, 400))
    try:
        replay = replays.load(sight_replay)
        legend = _legend(plotter, replay, replay.game.scene(replay.state_at(replay.last_turn)))
        (x, y), (w, h) = legend.GetPosition(), legend.GetPosition2()
    finally:
        plotter.close()
    assert x > 0.5 and x + w <= 1.0 and y > 0.0 and y + h < 0.5  # the lower right corner


def test_demo_of_sight_plays_prints_its_boards_and_draws_its_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--game", "sight", "--out", str(tmp_path), "--batch", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Sight (Kanare Kato): 2 players (random, random), seed 7")
    board = [line.split() for line in out.splitlines() if line.startswith("    ")]
    assert any(len(row) == 5 and "." in row for row in board), "a board in text, 5 points a row"
    assert (tmp_path / "demo-sight.apx.json.gz").is_file()
    assert (tmp_path / "demo-sight.png").is_file()
    argv = ["demo", "--game", "sight", "--out", str(tmp_path), "--batch", "0", "--seed", "3"]
    assert main(argv) == 0
    assert (tmp_path / "demo-sight-seed3-random-random.png").is_file()


def test_a_2d_pictures_caption_grows_with_the_picture(sight_replay: Path, tmp_path: Path) -> None:
    """The caption's two lines (the position, the turn's action) stand as tall, for their
    picture, at any size: it was 11 points whatever the size, under half the height of the
    pieces' labels at the default 1280 × 800."""
    from PIL import Image

    from viz.render2d import save_png_2d

    def caption_height(size: tuple[int, int]) -> int:
        path = save_png_2d(sight_replay, 3, tmp_path / f"c{size[1]}.png", window_size=size)
        image = np.asarray(Image.open(path).convert("RGB")).astype(int)
        corner = image[: size[1] // 8, : size[0] // 3]  # above the board, left of it
        rows = np.flatnonzero((corner.sum(axis=2) < 200).any(axis=1))
        assert rows.size, "no caption drawn"
        return int(rows[-1] - rows[0] + 1)

    small, default = caption_height((640, 400)), caption_height((1280, 800))
    assert 1.6 < default / small < 2.4, (small, default)
    assert default >= 36, default  # two lines of about 15 points at 800 pixels of height
