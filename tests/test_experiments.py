"""The benchmark scripts still run (tiny sizes): a benchmark prints figures, and one that no
longer runs against the current API would only be found when someone needs its figures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``experiments/<script>`` with ``args`` from the project's root, its output captured."""
    return subprocess.run(
        [sys.executable, str(ROOT / "experiments" / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


def _refused(done: subprocess.CompletedProcess[str], message: str) -> None:
    """The script refused its input as the CLI does: exit 2, one line naming the problem."""
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.startswith("antipolix: error:") and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("script", "args", "expected"),
    [
        ("bench_engine.py", ["--games", "2"], "engine only"),
        ("bench_games.py", ["--games", "2"], "player-turns/s"),
        ("bench_simulate.py", ["--games", "3", "--modes", "serial"], "games/s"),
        (
            "bench_games.py",
            ["--agents", "search:rollouts=1:depth=1", "--search-games", "1"],
            "games/hour",
        ),
        ("draws.py", ["--agent", "greedy", "--games", "2"], "2 games in"),
        ("bench_weights.py", ["--games", "1", "--reps", "1"], "µs per decision"),
        (
            "profile_planner.py",
            ["--games", "1", "--agents", "planner", "--changes"],
            "between a seat's turns",
        ),
        (
            "planner_pruning.py",
            ["--games", "1", "--players", "2", "--out", "/dev/null"],
            "| every candidate (today) | 100.0% | 100.00% | 0.00% | 0.00% | 0.000 |",
        ),
        (
            "planner_terms.py",
            ["--games", "2", "--speed-games", "1", "--terms", "tactics"],
            "| tactics | ",
        ),
        ("bench_serve.py", ["--games", "2", "--seconds", "1", "--warmup", "1"], "turns served"),
        ("bench_serve.py", ["--games", "2", "--seconds", "1", "--floor"], "server CPU"),
        ("bench_match.py", ["--games", "2"], "ms a turn"),
    ],
)
def test_benchmark_script_runs(script: str, args: list[str], expected: str) -> None:
    done = _script(script, *args)
    assert done.returncode == 0, done.stderr[-2000:]
    assert expected in done.stdout


@pytest.mark.parametrize(
    ("script", "args", "message"),
    [
        (
            "planner_terms.py",
            ["--terms", "threats,nope"],
            "unknown term 'nope': the terms are threats, hunt",
        ),
        ("planner_terms.py", ["--games", "3"], "--games must be even and at least 2, got 3"),
        (
            "bench_compile.py",
            ["--build", "--baseline", "no-such-checkout"],
            "--baseline no-such-checkout: no antipolix package",
        ),
        ("bench_compile.py", ["--build", "--runs", "0"], "--runs must be at least 1, got 0"),
    ],
)
def test_a_script_refuses_bad_input_in_one_line_before_it_starts(
    script: str, args: list[str], message: str
) -> None:
    """The planner-terms study and the build benchmark (``bench_compile.py --build``: minutes
    of compiling on a cold cache) check their input first: nothing is played, built or
    printed."""
    done = _script(script, *args)
    _refused(done, message)
    assert done.stdout == ""


def test_bench_serve_think_paces_the_bots() -> None:
    """--think: each bot answers 0.1 s after its observation, so 2 games play at most 10
    turns a second each (at once, over a thousand between them)."""
    args = ["--games", "2", "--seconds", "2", "--warmup", "1", "--think", "0.1"]
    done = _script("bench_serve.py", *args)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "answered after 0.1 s" in done.stdout
    found = re.search(r"turns served: \d+ \(([\d.]+) turns/s", done.stdout)
    assert found is not None, done.stdout
    assert 1 <= float(found.group(1)) <= 25  # (at once: over a thousand)


PERF_MAP = """
import os, sys, weakref
import numba
sys.path.insert(0, "experiments")
import profile_planner

@numba.njit
def one_more(x):
    return x + 1

one_more(1)
class Gone:
    pass
gone = Gone()
kept = [weakref.proxy(gone)]  # (dead once its object is: what compiling leaves behind)
del gone
mapped = profile_planner.perf_map()
path = f"/tmp/perf-{os.getpid()}.map"
with open(path) as lines:
    names = [line.split()[2] for line in lines]
os.remove(path)
print(mapped, len(names), any("one_more" in name for name in names))
"""


def test_the_perf_map_names_the_compiled_functions_past_dead_weak_proxies() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PERF_MAP], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]
    mapped, lines, found = done.stdout.split()
    assert int(mapped) == int(lines) > 0
    assert found == "True"


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
        ("meta_default.py", ["--workers", "-1"], "--workers must be 0 or more"),
    ],
)
def test_a_study_script_refuses_bad_input_in_one_line_writing_nothing(
    tmp_path: Path, script: str, args: list[str], message: str
) -> None:
    out, results = tmp_path / "out", tmp_path / "results"
    done = _script(script, *args, "--out", str(out), "--results", str(results))
    _refused(done, message)
    assert not out.exists() and not results.exists()


def _match(*args: str) -> subprocess.CompletedProcess[str]:
    return _script("match.py", *args)


def test_a_match_is_the_same_game_for_game_on_one_worker_or_two(tmp_path: Path) -> None:
    out = tmp_path / "match.md"
    one = _match("greedy", "random", "--games", "6", "--seed", "5", "--workers", "1")
    two = _match(
        "greedy", "random", "--games", "6", "--seed", "5", "--workers", "2",
        "--out", str(out),
    )  # fmt: skip
    assert one.returncode == 0 and two.returncode == 0, one.stderr[-2000:] + two.stderr[-2000:]
    marks = one.stdout.splitlines()[1]
    assert len(marks) == 6 and set(marks) <= set("ab.")
    assert two.stdout.splitlines()[1] == marks
    summary = one.stdout.splitlines()[0]
    wins, losses, draws = marks.count("a"), marks.count("b"), marks.count(".")
    assert f"greedy won {wins}, lost {losses}, drew {draws}" in summary
    text = out.read_text(encoding="utf-8")
    assert "experiments/match.py greedy random --games 6 --seed 5" in text and marks in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search:rollouts=two", "tuned"], "rollouts must be"),
        (["tuned", "nobody"], "unknown agent 'nobody'"),
        (["tuned", "planner", "--games", "0"], "--games and --workers must be at least 1"),
    ],
)
def test_a_match_refuses_bad_input_in_one_line_writing_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "match.md"
    done = _match(*args, "--out", str(out))
    _refused(done, message)
    assert not out.exists()
