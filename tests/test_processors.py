"""The same games whatever processor the kernels are compiled for (R12): numba compiles for the
processor it runs on (AVX-512 here, AVX2 or none elsewhere), and the golden replays and the
planner family's recorded digests must come out the same, event for event, from code compiled
for another. Slow: it compiles the engine and the agents again (about 2 minutes of both cores)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.skipif(
    platform.machine().lower() not in ("x86_64", "amd64"), reason="x86-64 processors named"
)
@pytest.mark.parametrize("cpu", ["generic", "haswell"])
def test_games_are_the_same_compiled_for_another_processor(cpu: str, tmp_path: Path) -> None:
    """``generic``: x86-64 without AVX; ``haswell``: AVX2 and FMA. The golden replays replay
    and verify, and the planner, tuned and search agents play their recorded games, with
    every kernel compiled for ``cpu`` into a cache of its own."""
    env = {**os.environ, "NUMBA_CPU_NAME": cpu, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    tests = ["tests/test_golden.py", "tests/test_planner_digests.py"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "", *tests],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
