"""The benchmark scripts still run (tiny sizes): a benchmark prints figures, and one that no
longer runs against the current API would only be found when someone needs its figures."""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from antipolix.cli import Parser, run_script

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


def _inline(
    script: str,
    args: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> subprocess.CompletedProcess[str]:
    """``experiments/<script>`` with ``args`` run in this process as its ``__main__`` runs it
    (:func:`antipolix.cli.run_script`), from the project's root: its exit code and output as
    :func:`_script` gives them, without a new interpreter's second of start-up (for refusals,
    which end before anything is played; :func:`test_a_benchmark_refuses_a_count_or_way_it_
    cannot_play` keeps one whole process)."""
    module = _module_of(script, monkeypatch)
    monkeypatch.setattr(sys, "argv", [script, *args])
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        run_script(module.main)
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return subprocess.CompletedProcess(args, code if isinstance(code, int) else 1, out, err)


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
        pytest.param(  # (its stages compile afresh, not cached on disk)
            "profile_planner.py",
            ["--games", "1", "--agents", "planner", "--reps", "1"],
            "arrays allocated per decision",
            marks=pytest.mark.slow,
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
        pytest.param(  # (about 20 s: its kernels compile afresh, not cached on disk)
            "planner_bounds.py",
            ["--games", "1", "--players", "2", "--reps", "1", "--out", "/dev/null"],
            "Moves an exact bound could skip, with the oracle bound",
            marks=pytest.mark.slow,
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
        ("planner_terms.py", ["--games", "3"], "--games must be even, got 3"),
        ("planner_bounds.py", ["--agent", "greedy"], "'greedy' is not a planner with weights"),
        (
            "bench_compile.py",
            ["--build", "--baseline", "no-such-checkout"],
            "--baseline no-such-checkout: no antipolix package",
        ),
        ("bench_compile.py", ["--build", "--runs", "0"], "argument --runs: 0 must be >= 1"),
        ("bench_simulate.py", ["--modes", "serial,ray0"], "--modes: no mode 'ray0'"),
        (
            "planner_pruning.py",
            ["--out", "README.md/table.md"],
            "--out README.md/table.md: cannot make its folder (a file is in the way)",
        ),
        ("planner_pruning.py", ["--out", "experiments"], "--out experiments: a folder, not a file"),
        (
            "sight_solve.py",
            ["--out", "README.md/sight"],
            "--out README.md/sight: cannot make this folder (a file is in the way)",
        ),
    ],
)
def test_a_script_refuses_bad_input_in_one_line_before_it_starts(
    script: str,
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The planner-terms study, the build benchmark (``bench_compile.py --build``: minutes
    of compiling on a cold cache) and the scripts that write results check their input and
    where they write first: nothing is played, built or printed."""
    done = _inline(script, args, monkeypatch, capsys)
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
        ("tune_planner.py", ["--draw", "0.7"], "--draw: draw must be a number from 0 to 0.5"),
        ("tune_planner.py", ["--games", "5"], "games must be even"),
        (
            "ladder.py",
            ["--agents", "random", "--games", "2"],
            "a ladder needs at least two agents, got random",
        ),
        ("ladder.py", ["--players", "3"], "--players is 2, 4 or 2,4"),
        ("meta_default.py", ["--workers", "-1"], "argument --workers: -1 must be >= 0"),
    ],
)
def test_a_study_script_refuses_bad_input_in_one_line_writing_nothing(
    tmp_path: Path,
    script: str,
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, results = tmp_path / "out", tmp_path / "results"
    argv = [*args, "--out", str(out), "--results", str(results)]
    done = _inline(script, argv, monkeypatch, capsys)
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
        (["tuned", "planner", "--games", "0"], "argument --games: 0 must be >= 1"),
    ],
)
def test_a_match_refuses_bad_input_in_one_line_writing_nothing(
    tmp_path: Path,
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "match.md"
    done = _inline("match.py", [*args, "--out", str(out)], monkeypatch, capsys)
    _refused(done, message)
    assert not out.exists()


# -- every script's numbers ------------------------------------------------------------------------

# the scripts that read arguments (the example bot stays free of antipolix: not among them)
PARSED = sorted(
    p.name
    for p in (ROOT / "experiments").glob("*.py")
    if "add_argument(" in p.read_text() and p.name != "bot_example.py"
)


NUMBERS = ("int_at_least", "float_in", "seed_arg", "draw_arg")  # the CLI's checked numbers


class _Parsed(Exception):
    """Raised in place of parsing: carries the parser a script's ``main`` built."""


def _module_of(script: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``experiments/<script>`` imported as a module (not as ``__main__``: nothing runs)."""
    monkeypatch.syspath_prepend(str(ROOT / "experiments"))
    monkeypatch.setattr(sys, "argv", [script])
    spec = importlib.util.spec_from_file_location(
        f"_experiment_{script[:-3]}", ROOT / "experiments" / script
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # (its dataclasses look it up)
    spec.loader.exec_module(module)
    return module


def _parser_of(script: str, monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """The parser ``experiments/<script>``'s ``main`` builds, taken when it parses: nothing
    of the script runs past that."""
    module = _module_of(script, monkeypatch)

    def taken(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        raise _Parsed(self)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", taken)
    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", taken)
    with pytest.raises(_Parsed) as caught:
        module.main()
    parser: argparse.ArgumentParser = caught.value.args[0]
    return parser


@pytest.mark.parametrize("script", PARSED)
def test_every_number_a_script_reads_is_checked_before_it_starts(
    script: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each script refuses bad arguments as the CLI does (``antipolix: error: ...``, exit 2:
    its parser is the CLI's), and no count, seed or number of seconds is read unchecked: a
    negative one is refused by its type, before any game is played or a result written
    (``--games -1`` once printed negative games a second, and two studies wrote their
    results files from no games)."""
    parser = _parser_of(script, monkeypatch)
    assert isinstance(parser, Parser)
    numbers = [a for a in parser._actions if a.option_strings and a.type not in (None, str, Path)]
    for action in numbers:
        option = action.option_strings[0]
        assert action.type not in (int, float), f"{script} {option}: an unchecked number"
        if not action.type.__qualname__.startswith(NUMBERS):  # (names, lists, paths, ...)
            continue
        for bad in ("-1", "nan", "x"):
            with pytest.raises(argparse.ArgumentTypeError):
                action.type(bad)
        if action.default is not None and not isinstance(action.default, str):
            assert action.type(str(action.default)) == action.default  # the default passes


def test_a_benchmark_refuses_a_count_or_way_it_cannot_play() -> None:
    """The whole path, for one script: exit 2 and one line, nothing measured."""
    for args, message in (
        (["--games", "-1"], "argument --games: -1 must be >= 1"),
        (["--ways", "fast"], "--ways: no way fast (the ways: compiled, protocol, Game)"),
    ):
        done = _script("bench_games.py", *args)
        _refused(done, message)
        assert "games/s" not in done.stdout
