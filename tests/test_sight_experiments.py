"""Sight's experiment scripts run from a fresh process, write what they say, and refuse bad
arguments in one line (exit 2)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "experiments" / script), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_sight_first_move_study_writes_its_table_and_report(tmp_path: Path) -> None:
    out = tmp_path / "study"
    args = ["--scale", "0.002", "--agents", "random,greedy", "--solver-budget", "1000"]
    done = _run("sight_first_move.py", *args, "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader((out / "first_move.csv").open(encoding="utf-8")))
    pairs = {(r["section"], r["seat0"], r["seat1"]) for r in rows}
    assert ("pairings", "greedy", "random") in pairs and ("pie", "random", "greedy") in pairs
    assert not any("search" in (r["seat0"], r["seat1"]) for r in rows)
    for r in rows:
        games = int(r["games"])
        assert int(r["board_full"]) + int(r["blocked"]) == games
        assert float(r["seat0_lo"]) <= float(r["seat0_rate"]) <= float(r["seat0_hi"])
        if r["pie"] == "False":
            assert r["white_wins"] == r["seat0_wins"] and r["swaps"] == "0"
    levers = {r["lever"] for r in rows if r["section"] == "levers"}
    assert {"default", "pie", "size=7", "hand=6", "strict"} <= levers
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "## White's win rate by pairing" in text and "## What it says" in text
    assert "| 3×3 | wins |" in text  # the solver: White wins 3×3 within 1,000 nodes


def test_sight_scripts_refuse_bad_arguments_in_one_line(tmp_path: Path) -> None:
    for script, args in [
        ("sight_first_move.py", ["--agents", "random,best", "--out", str(tmp_path / "x")]),
        ("bench_sight.py", ["--rule", "size=12"]),
    ]:
        done = _run(script, *args)
        assert done.returncode == 2
        assert done.stderr.startswith("antipolix: error: ") and done.stderr.count("\n") == 1
    assert not (tmp_path / "x").exists()  # nothing written


def test_sight_bench_prints_its_figures() -> None:
    done = _run("bench_sight.py", "--agents", "random", "--games", "300", "--repeat", "1")
    assert done.returncode == 0, done.stderr
    assert "load average" in done.stdout
    assert "2× random batch" in done.stdout and "games a CPU second" in done.stdout
