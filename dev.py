#!/usr/bin/env python3
"""Set up and run the project's jobs with nothing but Python.

    python3 dev.py demo [ARGS...]   # set up, then run the main job (a seeded demo game)
    python3 dev.py test             # set up, then lint, type-check and run the default tests
    python3 dev.py test --all       # ... including the slow suites (marked ``slow``)

``test`` runs pytest in parallel, one process a CPU up to four (pytest-xdist: by default each
test file whole in one process; with ``--all`` test by test, idle processes taking tests from
busy ones, since the slow suites are a few long tests); pass ``-n 0`` to run it in one process,
or ``-n N`` for N. Before the whole suite, the compiled core (numba's kernels, cached on disk:
minutes the first time, seconds after) is built in two processes while ruff and mypy run, so
that no two test processes compile the same kernel at once.

Set-up creates ``.venv`` beside this file and installs the package into it (with uv, which
pip puts there first; with pip where uv cannot install it): for ``demo`` what the package needs
to run (the main job), for ``test`` its dev extras too (pytest, ruff, mypy, Playwright,
Jupyter's kernel, PettingZoo...). It is re-done only when ``pyproject.toml`` changes
or a job needs extras not installed yet, so later runs start at once.

``test`` also needs a browser for the replay page's tests: Debian's ``chromium``. When it is
missing and this runs as root or on CI (``CI`` set) on a machine with ``apt-get``, it is
installed (``apt-get install --no-install-recommends chromium``, a minute or two, once).
Elsewhere a note says how, and those tests are skipped. On CI a failed install stops the job:
CI must run the browser tests.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
UV = BIN / ("uv.exe" if os.name == "nt" else "uv")
STAMP = VENV / ".antipolix-installed"
CHROMIUM = Path("/usr/bin/chromium")  # Debian's package; tests/test_viz_browser.py drives it


def run(*cmd: str | Path, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], cwd=ROOT, check=True, env=env)


def ensure_chromium() -> None:
    """Install Debian's Chromium for the browser tests when it is missing (see the docstring)."""
    if CHROMIUM.exists() or not sys.platform.startswith("linux"):
        return
    ci = bool(os.environ.get("CI"))
    root = os.geteuid() == 0
    apt = shutil.which("apt-get")
    sudo = [] if root else ["sudo", "-n"]
    how = "apt-get install chromium (as root)"
    if apt is None or not (root or (ci and shutil.which("sudo"))):
        print(f"note: no Chromium at {CHROMIUM}: the browser tests will be skipped ({how})")
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        run(*sudo, apt, "update", "-qq", env=env)
        run(*sudo, apt, "install", "-y", "-qq", "--no-install-recommends", "chromium", env=env)
    except (subprocess.CalledProcessError, OSError) as exc:
        if ci:
            sys.exit(f"Chromium could not be installed ({exc}); CI must run the browser tests")
        print(f"note: Chromium could not be installed: the browser tests will be skipped ({how})")


def installed() -> tuple[str, set[str]]:
    """What the stamp says was installed: the hash of ``pyproject.toml`` it was installed
    from, and its extras (``dev``); ``("", set())`` when nothing was."""
    parts = STAMP.read_text().split() if STAMP.exists() and PY.exists() else []
    return (parts[0], set(parts[1:])) if parts else ("", set())


def setup(extras: tuple[str, ...] = ()) -> None:
    """Create the virtual environment and install the project (editable) with ``extras``,
    once per pyproject change: nothing is done when the stamp says this ``pyproject.toml`` was
    installed with these extras or more (after ``test``, ``demo`` installs nothing)."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    digest, have = installed()
    if digest == wanted and set(extras) <= have:
        return
    if not PY.exists():
        print(f"+ creating {VENV}", flush=True)
        venv.create(VENV, with_pip=True)
    install("." + (f"[{','.join(extras)}]" if extras else ""))
    STAMP.write_text(" ".join([wanted, *sorted(extras)]))


def install(target: str) -> None:
    """Install ``target`` (editable) into the environment with uv, which pip puts there first
    (a few seconds): uv fetches, unpacks and byte-compiles the dependencies in parallel, the
    dev extras from a fresh clone in about 30 s where pip took 70 (2-core VM, nothing cached).
    The modules are byte-compiled at install as pip does: where ``PYTHONDONTWRITEBYTECODE`` is
    set, nothing would be otherwise, and every process would compile what it imports again.
    Where uv cannot be had or fails (an index only pip is configured for: uv does not read
    pip's configuration), pip installs it as before."""
    try:
        run(PY, "-m", "pip", "install", "--quiet", "uv")
        run(UV, "pip", "install", "--quiet", "--compile-bytecode", "--python", PY, "-e", target)
        return
    except (subprocess.CalledProcessError, OSError) as exc:
        print(f"note: uv did not install the project ({exc}); pip installs it", flush=True)
    run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(PY, "-m", "pip", "install", "--quiet", "-e", target)


def demo(args: list[str]) -> None:
    run(PY, "-m", "antipolix", "demo", *args)


MAX_TEST_PROCESSES = 4  # each compiles (or loads) the kernels and may start its own Ray


def parallel(args: list[str], cpus: int | None, every: bool = False) -> list[str]:
    """pytest-xdist's options for this machine, unless ``args`` chose a number of processes:
    one process a CPU up to :data:`MAX_TEST_PROCESSES`; none on one CPU or without xdist. The
    default run keeps each test file whole in one process (its module fixtures and its
    compiled kernels shared); ``every`` test (``--all``) is dealt test by test, with idle
    processes taking tests from busy ones: there a few long tests are most of the time."""
    chosen = any(a.startswith(("-n", "--numprocesses")) or a == "no:xdist" for a in args)
    n = min(cpus or 1, MAX_TEST_PROCESSES)
    if chosen or n < 2:
        return []
    return ["-n", str(n), "--dist", "worksteal" if every else "loadfile"]


# The compiled core's two parts, built before the tests: antipolix.compiling.PARTS (this file
# runs before antipolix is installed, so it names them itself; a test holds the two equal)
CORE_PARTS = ("game", "whole games")
BUILD = "from antipolix.compiling import build; build({part!r})"


def build_core(args: list[str], cpus: int | None) -> list[subprocess.Popen[bytes]]:
    """For the whole suite on two cores or more: the compiled core built (or loaded from
    numba's disk cache) in two processes while the linters run (``antipolix.compiling.build``).
    Otherwise the test processes compile what each calls first: on a new install, the kernel
    that plays whole games (two minutes or more) in two of them at once. Nothing for a run of
    chosen tests, which may need none of it."""
    if (cpus or 1) < 2 or any(a != "--all" for a in args):
        return []
    print(f"+ building the compiled core ({', '.join(CORE_PARTS)}) in 2 processes", flush=True)
    return [subprocess.Popen([str(PY), "-c", BUILD.format(part=p)], cwd=ROOT) for p in CORE_PARTS]


def test(args: list[str]) -> None:
    ensure_chromium()
    builds = build_core(args, os.cpu_count())
    try:
        run(PY, "-m", "ruff", "check", ".")
        run(PY, "-m", "ruff", "format", "--check", ".")
        run(PY, "-m", "mypy")
        for build in builds:
            if build.wait() != 0:
                raise subprocess.CalledProcessError(build.returncode, build.args)
    finally:
        for build in builds:
            if build.poll() is None:
                build.kill()
                build.wait()
    pytest_args = list(args)
    every = "--all" in pytest_args
    if every:
        pytest_args.remove("--all")
        pytest_args += ["-m", ""]  # overrides the "not slow" default of pyproject.toml
    run(PY, "-m", "pytest", *parallel(pytest_args, os.cpu_count(), every), *pytest_args)


JOBS = {"demo": demo, "test": test}
EXTRAS: dict[str, tuple[str, ...]] = {"demo": (), "test": ("dev",)}  # what each job installs


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in JOBS:
        print(__doc__.strip(), file=sys.stderr)
        given = f"'{sys.argv[1]}'" if len(sys.argv) > 1 else "nothing"
        print(f"\ndev.py: error: the job is demo or test, got {given}", file=sys.stderr)
        return 2
    try:
        setup(EXTRAS[sys.argv[1]])
        JOBS[sys.argv[1]](sys.argv[2:])
    except subprocess.CalledProcessError as exc:
        return exc.returncode or 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
