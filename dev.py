#!/usr/bin/env python3
"""Set up and run the project's jobs with nothing but Python.

    python3 dev.py demo [ARGS...]   # set up, then run the main job (a seeded demo game)
    python3 dev.py test             # set up, then lint, type-check and run the default tests
    python3 dev.py test --all       # ... including the slow suites (marked ``slow``)

Set-up creates ``.venv`` beside this file and installs the package with its dev extras into it.
It is re-done only when ``pyproject.toml`` changes, so later runs start at once.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".antipolix-installed"


def run(*cmd: str | Path) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], cwd=ROOT, check=True)


def setup() -> None:
    """Create the virtual environment and install the project, once per pyproject change."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and PY.exists():
        return
    if not PY.exists():
        print(f"+ creating {VENV}", flush=True)
        venv.create(VENV, with_pip=True)
    run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(PY, "-m", "pip", "install", "--quiet", "-e", ".[dev]")
    STAMP.write_text(wanted)


def demo(args: list[str]) -> None:
    run(PY, "-m", "antipolix", "demo", *args)


def test(args: list[str]) -> None:
    run(PY, "-m", "ruff", "check", ".")
    run(PY, "-m", "mypy")
    pytest_args = list(args)
    if "--all" in pytest_args:
        pytest_args.remove("--all")
        pytest_args += ["-m", ""]  # overrides the "not slow" default of pyproject.toml
    run(PY, "-m", "pytest", *pytest_args)


JOBS = {"demo": demo, "test": test}


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in JOBS:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        setup()
        JOBS[sys.argv[1]](sys.argv[2:])
    except subprocess.CalledProcessError as exc:
        return exc.returncode or 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
