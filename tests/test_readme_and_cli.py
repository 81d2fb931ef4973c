"""The README's Python example runs as written; the CLI demo works and refuses bad arguments."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from antipolix.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_examples_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
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


def test_cli_demo_prints_summary_and_writes_a_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--out", str(tmp_path), "--batch", "6", "--workers", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("AntipoliX: 4 players (greedy, greedy, random, greedy)")
    assert re.search(r"^result: (P\d \(\w+\) wins|draw), ", out, flags=re.M)
    assert "pieces left" in out
    replay = tmp_path / "demo.apx.json.gz"
    assert replay.is_file()
    assert (tmp_path / "demo.png").stat().st_size > 10_000  # the last turn, drawn
    assert "batch: 6 games" in out and "win rates by agent" in out
    first = replay.read_bytes()
    assert main(["demo", "--out", str(tmp_path), "--batch", "6", "--workers", "0"]) == 0
    assert capsys.readouterr().out == out, "the demo is not deterministic"
    assert replay.read_bytes() == first, "the same game wrote a different replay"


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


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--seed", "-3"], "seed must be an integer from 0 to 2**63 - 1, got -3"),
        (["play", "--agents", "greedy,nobody"], "unknown agent 'nobody'"),
        (["play", "--rule", "shape=0,8,8"], None),
        (["play", "--seed", "x"], "'x' is not an integer"),
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
    assert "players must be an integer from 2 to 10, got 1" in proc.stderr
    assert "Traceback" not in proc.stderr
