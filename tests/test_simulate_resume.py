"""Resume: ``antipolix simulate`` killed part way (SIGKILL in-process mode, Ctrl-C and SIGTERM on
Ray), then run again with the same ``--out``, ends with every game exactly once and the rows of
an uninterrupted serial run (R12)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from antipolix import Results, Rules, simulate
from antipolix.agents import GreedyAgent, RandomAgent
from antipolix.runner.rows import DETERMINISTIC_COLUMNS

GAMES = 1000  # compiled games take about a millisecond: enough that a stop lands mid-run
SEED = 9
RULES = Rules(shape=(4, 8, 8), players=2, max_turns=100)
ROOT = Path(__file__).resolve().parents[1]


def command(out: Path, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "antipolix", "simulate", "--games", str(GAMES),
        "--agents", "greedy,random", "--rule", "shape=4,8,8", "--rule", "max_turns=100",
        "--seed", str(SEED), "--out", str(out), "--no-progress", *extra,
    ]  # fmt: skip


@pytest.fixture(scope="module")
def uninterrupted() -> Results:
    return simulate(RULES, [GreedyAgent(), RandomAgent()], GAMES, SEED, workers=0)


def start_then_stop(out: Path, sig: int, extra: list[str], files: int, timeout: float = 120) -> int:
    """Start the command, send ``sig`` once ``files`` chunk files exist; its exit code."""
    proc = subprocess.Popen(
        command(out, *extra),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C as a terminal sends it: a suite run in the background (``cmd &``) has SIGINT
        # ignored, and its children inherit that (the command would then finish, untouched)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + timeout
        while len(list(out.glob("v*.parquet"))) < files:
            assert proc.poll() is None, f"finished before it could be stopped: {proc.stderr}"
            assert time.monotonic() < deadline, "no chunk file appeared in time"
            time.sleep(0.02)
        proc.send_signal(sig)
        out_text, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if sig in (signal.SIGINT, signal.SIGTERM):
        assert "games are saved in" in err and "run the same command again" in err, (
            proc.returncode,
            err[-2000:],
            out_text[-2000:],
        )
    return proc.returncode


def check_complete(out: Path, uninterrupted: Results) -> None:
    results = Results.open(out)
    games = results.to_pandas(["game"])["game"].tolist()
    assert games == list(range(GAMES)), "a game is missing or counted twice"
    assert results.read(DETERMINISTIC_COLUMNS).equals(uninterrupted.read(DETERMINISTIC_COLUMNS))
    assert not list(out.glob(".*.tmp"))


def test_kill_part_way_then_rerun_completes_only_the_missing_chunks(
    tmp_path: Path, uninterrupted: Results
) -> None:
    out = tmp_path / "run"
    code = start_then_stop(out, signal.SIGKILL, ["--workers", "0", "--chunk-size", "3"], files=3)
    assert code == -signal.SIGKILL
    saved = len(Results.open(out))
    assert 0 < saved < GAMES
    again = subprocess.run(command(out, "--workers", "0"), cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert f"played {GAMES - saved} games in" in again.stdout
    assert f"{saved} were already done" in again.stdout
    check_complete(out, uninterrupted)


def test_ctrl_c_on_ray_then_rerun_in_process_completes(
    tmp_path: Path, uninterrupted: Results
) -> None:
    out = tmp_path / "run"
    code = start_then_stop(out, signal.SIGINT, ["--workers", "2", "--chunk-size", "2"], files=4)
    assert code == 130
    saved = len(Results.open(out))
    assert 0 < saved < GAMES
    again = subprocess.run(command(out, "--workers", "0"), cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    check_complete(out, uninterrupted)


def test_sigterm_on_ray_stops_as_ctrl_c_does_and_says_so(
    tmp_path: Path, uninterrupted: Results
) -> None:
    """SIGTERM (``kill``, a job scheduler's limit) keeps the rows played and ends in one line,
    exit code 143; Ray's own dump of the signal (``*** SIGTERM received ...``) does not show."""
    out = tmp_path / "run"
    proc = subprocess.Popen(
        command(out, "--workers", "2", "--chunk-size", "2"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while len(list(out.glob("v*.parquet"))) < 4:
            assert proc.poll() is None, f"finished before it could be stopped: {proc.stderr}"
            assert time.monotonic() < deadline, "no chunk file appeared in time"
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM, err[-2000:]
    lines = err.strip().splitlines()
    assert lines[-1] == "antipolix: terminated (SIGTERM)", lines
    assert "games are saved in" in err and "run the same command again" in err
    assert "SIGTERM received" not in err
    saved = len(Results.open(out))
    assert 0 < saved < GAMES
    again = subprocess.run(command(out, "--workers", "0"), cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    check_complete(out, uninterrupted)


def test_a_script_on_ray_keeps_its_own_answer_to_sigterm_without_ray_s_dump() -> None:
    """The Python API in a script of one's own: after Ray starts, SIGTERM ends the process as
    Ray's handler does (exit code 15, Ray shut down at exit), without the stack dump its core
    would print first; a handler the script set before is kept."""
    script = (
        "import os, signal, sys, time\n"
        "from antipolix.runner.on_ray import connect\n"
        "if sys.argv[1] == 'own':\n"
        "    signal.signal(signal.SIGTERM, lambda s, f: sys.exit(42))\n"
        "connect(None, 1)\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "time.sleep(30)\n"
    )
    for mode, code in (("ray", signal.SIGTERM), ("own", 42)):
        done = subprocess.run(
            [sys.executable, "-c", script, mode], cwd=ROOT, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert done.returncode == code, (mode, done.stderr[-2000:])
        assert "SIGTERM received" not in done.stderr, done.stderr[-2000:]
