"""The benchmark scripts still run (tiny sizes): a benchmark prints figures, and one that no
longer runs against the current API would only be found when someone needs its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("script", "args", "expected"),
    [
        ("bench_engine.py", ["--games", "2"], "engine only"),
        ("bench_games.py", ["--games", "2"], "player-turns/s"),
        ("bench_simulate.py", ["--games", "3", "--modes", "serial"], "games/s"),
        ("bench_games.py", ["--agents", "search:rollouts=1", "--search-games", "1"], "games/hour"),
        ("draws.py", ["--agent", "greedy", "--games", "2"], "2 games in"),
        ("bench_weights.py", ["--games", "1", "--reps", "1"], "µs per decision"),
    ],
)
def test_benchmark_script_runs(script: str, args: list[str], expected: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "experiments" / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert expected in done.stdout


@pytest.mark.parametrize(
    ("script", "args", "message"),
    [
        ("tune_planner.py", ["--draw", "0.7"], "draw must be a number from 0 to 0.5"),
        ("tune_planner.py", ["--games", "5"], "games must be even"),
        (
            "ladder.py",
            ["--agents", "random", "--games", "2"],
            "a ladder needs at least two agents, got random",
        ),
        ("ladder.py", ["--players", "3"], "--players is 2, 4 or 2,4"),
    ],
)
def test_a_study_script_refuses_bad_input_in_one_line_writing_nothing(
    tmp_path: Path, script: str, args: list[str], message: str
) -> None:
    out, results = tmp_path / "out", tmp_path / "results"
    done = subprocess.run(
        [sys.executable, str(ROOT / "experiments" / script), *args,
         "--out", str(out), "--results", str(results)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.startswith("antipolix: error:") and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not out.exists() and not results.exists()
