"""Run a benchmark script of this folder on several checkouts of antipolix, side by side.

    .venv/bin/python experiments/bench_games.py --checkouts /path/to/old,. --rounds 2
    .venv/bin/python experiments/bench_simulate.py --checkouts /path/to/old,. --games 2000

With ``--checkouts A,B`` a script runs itself again once per checkout and round, in turn (A, B,
A, B, ...: a machine that slows down during the runs slows both alike), each run a fresh
process that imports the ``antipolix`` of that checkout (``PYTHONPATH``, ahead of the installed
one), and prints each run's lines prefixed with the checkout's name and commit. The figures
mean something only on a quiet machine: nothing here checks that.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


def checkout_name(path: Path) -> str:
    """``folder@commit`` (the commit when the folder is a git checkout)."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "?"
    return f"{path.name or path}@{commit}"


def without(argv: Sequence[str], option: str, takes_value: bool = True) -> list[str]:
    """``argv`` without ``option`` (and its value)."""
    out, skip = [], False
    for token in argv:
        if skip:
            skip = False
            continue
        if token == option:
            skip = takes_value
            continue
        if token.startswith(option + "="):
            continue
        out.append(token)
    return out


def run_side_by_side(script: str, checkouts: str, rounds: int, argv: Sequence[str]) -> None:
    """Run ``script`` with ``argv`` (less ``--checkouts`` and ``--rounds``) once per checkout and
    round, in turn, each with that checkout first on ``PYTHONPATH``."""
    rest = without(without(argv, "--checkouts"), "--rounds")
    paths = [Path(p).resolve() for p in checkouts.split(",") if p.strip()]
    for path in paths:
        if not (path / "antipolix" / "__init__.py").is_file():
            raise SystemExit(f"antipolix: error: {path} is not a checkout of antipolix")
    names = [checkout_name(p) for p in paths]
    for k in range(rounds):
        for path, name in zip(paths, names, strict=True):
            given = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), *given])}
            proc = subprocess.run(
                [sys.executable, script, *rest],
                env=env,
                cwd=path,
                capture_output=True,
                text=True,
                check=False,
            )
            for line in (proc.stdout + proc.stderr).splitlines():
                print(f"[{name} round {k + 1}] {line}", flush=True)
