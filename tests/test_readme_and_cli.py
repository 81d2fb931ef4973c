"""The README's Python example runs as written; the CLI demo works and refuses bad arguments."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from antipolix.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "README has no python example"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    game = namespace["game"]
    assert game.turn == 1  # type: ignore[attr-defined]
    assert "Moved" in capsys.readouterr().out


def test_cli_demo_prints_turn_log_and_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("AntipoliX demo: 2 players (greedy vs random)")
    assert re.search(r"^turn +1: ", out, flags=re.M)
    assert re.search(r"^result: (player \d wins|draw) ", out, flags=re.M)
    assert main(["demo", "--seed", "7"]) == 0
    assert capsys.readouterr().out == out, "the demo is not deterministic"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "--seed", "-3"], "seed -3 must be >= 0"),
        (["demo", "--agents", "nobody", "random"], "invalid choice: 'nobody'"),
        (["demo", "--shape", "0", "8"], "0 must be >= 1"),
        (["demo", "--max-turns", "x"], "'x' is not an integer"),
    ],
)
def test_cli_refuses_bad_arguments(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_cli_reports_invalid_rules_without_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "antipolix", "demo", "--agents", "random"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 2
    assert "players must be an integer from 2 to 10, got 1" in proc.stderr
    assert "Traceback" not in proc.stderr
