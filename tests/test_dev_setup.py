"""``dev.py``'s set-up: the package installed for the main job (``demo``) without the dev tools,
the dev extras for ``test``, each again only when ``pyproject.toml`` changes; an editable
install that prints no caveat; and the browser the replay page's tests need (Debian's
chromium): what it runs when the browser is missing, as root, as a user, on CI, and when the
install fails. The commands are recorded, not run (but for the one real editable install)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def dev(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "CHROMIUM", tmp_path / "chromium")  # missing
    monkeypatch.setattr(module.sys, "platform", "linux")
    monkeypatch.setattr(
        module.shutil, "which", lambda name: f"/usr/bin/{name}" if name != "chromium" else None
    )
    monkeypatch.delenv("CI", raising=False)
    module.ran = []  # type: ignore[attr-defined]
    monkeypatch.setattr(module, "run", lambda *cmd, env=None: module.ran.append(list(cmd)))
    return module


@pytest.fixture
def project(dev: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """``dev`` set up in a project folder of its own (a pyproject, no virtual environment
    yet); creating the environment is recorded as ``["venv"]`` and makes its python."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "x"\n')
    venv = root / ".venv"
    monkeypatch.setattr(dev, "ROOT", root)
    monkeypatch.setattr(dev, "VENV", venv)
    monkeypatch.setattr(dev, "PY", venv / "bin" / "python")
    monkeypatch.setattr(dev, "UV", venv / "bin" / "uv")
    monkeypatch.setattr(dev, "STAMP", venv / ".antipolix-installed")

    def create(path: Path, with_pip: bool) -> None:
        dev.ran.append(["venv"])
        (venv / "bin").mkdir(parents=True)
        (venv / "bin" / "python").write_text("")

    monkeypatch.setattr(dev.venv, "create", create)
    return root


def _installs(ran: list[list[object]]) -> list[str]:
    """What each ``pip install -e`` of the recorded commands installed (``.``, ``.[dev]``)."""
    return [str(cmd[-1]) for cmd in ran if "-e" in cmd]


def test_the_demo_installs_the_package_without_the_dev_tools(
    dev: ModuleType, project: Path
) -> None:
    dev.setup(dev.EXTRAS["demo"])
    assert dev.ran[0] == ["venv"]
    assert _installs(dev.ran) == ["."]  # no mypy, Playwright, Jupyter... for the main job
    dev.ran.clear()
    dev.setup(dev.EXTRAS["demo"])
    assert dev.ran == []  # installed: later runs start at once
    dev.setup(dev.EXTRAS["test"])
    assert _installs(dev.ran) == [".[dev]"]  # the tests install the rest, once
    dev.ran.clear()
    dev.setup(dev.EXTRAS["test"])
    dev.setup(dev.EXTRAS["demo"])  # the dev extras hold what the demo needs
    assert dev.ran == []


def test_a_changed_pyproject_installs_again_with_the_extras_the_job_needs(
    dev: ModuleType, project: Path
) -> None:
    dev.setup(dev.EXTRAS["test"])
    (project / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "2"\n')
    dev.ran.clear()
    dev.setup(dev.EXTRAS["demo"])
    assert _installs(dev.ran) == ["."]
    dev.ran.clear()
    dev.setup(dev.EXTRAS["test"])  # the stamp of the new pyproject is the demo's: no dev tools
    assert _installs(dev.ran) == [".[dev]"]
    dev.ran.clear()
    dev.setup(dev.EXTRAS["test"])
    assert dev.ran == []


def test_uv_installs_the_project_into_the_environment(dev: ModuleType, project: Path) -> None:
    dev.setup(dev.EXTRAS["test"])
    python, uv = dev.PY, dev.UV
    assert dev.ran == [
        ["venv"],
        [python, "-m", "pip", "install", "--quiet", "uv"],  # into .venv, nowhere else
        [uv, "pip", "install", "--quiet", "--compile-bytecode", "--python", python, "-e", ".[dev]"],
    ]


@pytest.mark.parametrize("failing", ["pip", "uv"])
def test_pip_installs_the_project_where_uv_cannot(
    dev: ModuleType, project: Path, monkeypatch: pytest.MonkeyPatch, capsys, failing: str
) -> None:
    """No uv to be had (pip cannot fetch it), or uv fails (an index only pip is configured
    for): pip installs the same target, and the stamp is written."""
    recorded = dev.run

    def run(*cmd: object, env: object = None) -> None:
        recorded(*cmd)
        if (failing == "pip" and cmd[-1] == "uv") or (failing == "uv" and cmd[0] == dev.UV):
            raise subprocess.CalledProcessError(2, [str(c) for c in cmd])

    monkeypatch.setattr(dev, "run", run)
    dev.setup(dev.EXTRAS["demo"])
    assert dev.ran[-1] == [dev.PY, "-m", "pip", "install", "--quiet", "-e", "."]
    assert "pip installs it" in capsys.readouterr().out
    dev.ran.clear()
    dev.setup(dev.EXTRAS["demo"])
    assert dev.ran == []  # installed


def test_a_stamp_of_an_older_dev_py_reads_as_the_package_alone(
    dev: ModuleType, project: Path
) -> None:
    import hashlib

    (project / ".venv" / "bin").mkdir(parents=True)
    (project / ".venv" / "bin" / "python").write_text("")
    digest = hashlib.sha256((project / "pyproject.toml").read_bytes()).hexdigest()
    dev.STAMP.write_text(digest)  # what dev.py wrote before it knew of extras
    dev.setup(dev.EXTRAS["demo"])
    assert dev.ran == []
    dev.setup(dev.EXTRAS["test"])
    assert _installs(dev.ran) == [".[dev]"]


@pytest.mark.slow  # pip makes an isolated build environment: 5 to 20 s
def test_the_editable_install_prints_no_caveat(tmp_path: Path) -> None:
    """The set-up's editable install, built as pip builds it (an isolated build with the
    setuptools pyproject.toml asks for), into a new empty environment (``pip --python``: the
    one running the tests is left alone): setuptools printed a boxed "Editable installation"
    warning for the import finder it used for this layout."""
    import venv

    env = tmp_path / "env"
    venv.create(env, with_pip=False)
    python = env / ("Scripts" if sys.platform == "win32" else "bin") / "python"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "-e", str(ROOT)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    out = proc.stdout + proc.stderr
    if proc.returncode != 0 and "No matching distribution found for setuptools" in out:
        pytest.skip("no package index to build the editable install with")
    assert proc.returncode == 0, out
    assert "Editable install" not in out and "BuildBackendWarning" not in out, out
    pth = list(env.rglob("__editable__.antipolix-*.pth"))
    assert len(pth) == 1 and pth[0].read_text().strip() == str(ROOT)


def test_root_installs_a_missing_chromium(dev: ModuleType, monkeypatch) -> None:
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0)
    dev.ensure_chromium()
    assert dev.ran == [
        ["/usr/bin/apt-get", "update", "-qq"],
        ["/usr/bin/apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"],
    ]


def test_ci_without_root_uses_sudo(dev: ModuleType, monkeypatch) -> None:
    monkeypatch.setattr(dev.os, "geteuid", lambda: 1000)
    monkeypatch.setenv("CI", "true")
    dev.ensure_chromium()
    assert [cmd[:3] for cmd in dev.ran] == [
        ["sudo", "-n", "/usr/bin/apt-get"],
        ["sudo", "-n", "/usr/bin/apt-get"],
    ]


def test_a_user_is_told_how_and_nothing_runs(dev: ModuleType, monkeypatch, capsys) -> None:
    monkeypatch.setattr(dev.os, "geteuid", lambda: 1000)
    dev.ensure_chromium()
    assert dev.ran == []
    assert "browser tests will be skipped" in capsys.readouterr().out


def test_an_installed_chromium_is_left_alone(dev: ModuleType, monkeypatch, tmp_path) -> None:
    (tmp_path / "chromium").write_text("")
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0)
    dev.ensure_chromium()
    assert dev.ran == []


def test_a_failed_install_stops_ci_but_not_a_developer(dev: ModuleType, monkeypatch) -> None:
    def failing(*cmd: object, env: object = None) -> None:
        raise subprocess.CalledProcessError(100, [str(c) for c in cmd])

    monkeypatch.setattr(dev, "run", failing)
    monkeypatch.setattr(dev.os, "geteuid", lambda: 0)
    dev.ensure_chromium()  # a developer's run goes on; the browser tests will skip
    monkeypatch.setenv("CI", "true")
    with pytest.raises(SystemExit, match="CI must run the browser tests"):
        dev.ensure_chromium()


def test_the_browser_tests_skip_without_chromium_except_on_ci(monkeypatch, tmp_path) -> None:
    from tests import test_viz_browser as browser

    monkeypatch.setattr(browser, "CHROMIUM", str(tmp_path / "chromium"))
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        browser._chromium_or_skip()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="set-up must have installed it"):
        browser._chromium_or_skip()


@pytest.mark.parametrize(
    ("args", "cpus", "added"),
    [
        ([], 2, ["-n", "2", "--dist", "loadfile"]),
        ([], 64, ["-n", "4", "--dist", "loadfile"]),  # capped: each process may start a Ray
        ([], 1, []),
        ([], None, []),  # os.cpu_count() may not know
        (["-n", "0"], 8, []),
        (["-n3"], 8, []),
        (["--numprocesses=3", "tests/test_env.py"], 8, []),
        (["-p", "no:xdist"], 8, []),
        (["-m", "", "-x"], 2, ["-n", "2", "--dist", "loadfile"]),
    ],
)
def test_the_tests_run_one_process_a_cpu_unless_told(
    dev: ModuleType, args: list[str], cpus: int | None, added: list[str]
) -> None:
    assert dev.parallel(args, cpus) == added


def test_the_slow_suites_are_dealt_test_by_test(dev: ModuleType) -> None:
    assert dev.parallel(["-m", ""], 2, every=True) == ["-n", "2", "--dist", "worksteal"]
    assert dev.parallel(["-n", "0"], 2, every=True) == []


@pytest.mark.parametrize(
    ("args", "cpus", "parts"),
    [
        ([], 2, ["game", "whole games"]),
        (["--all"], 4, ["game", "whole games"]),
        ([], 1, []),  # one test process: nothing is compiled twice
        ([], None, []),
        (["tests/test_env.py"], 8, []),  # chosen tests may need none of it
        (["-k", "r1"], 8, []),
    ],
)
def test_the_whole_suite_builds_the_compiled_core_first_in_two_processes(
    dev: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    cpus: int | None,
    parts: list[str],
) -> None:
    started: list[list[str]] = []

    class Popen:
        def __init__(self, cmd: list[str], cwd: Path) -> None:
            started.append(cmd)

    monkeypatch.setattr(dev.subprocess, "Popen", Popen)
    builds = dev.build_core(args, cpus)
    assert len(builds) == len(started) == len(parts)
    assert [cmd[-1] for cmd in started] == [dev.BUILD.format(part=p) for p in parts]


def test_the_parts_dev_py_builds_are_the_compiled_cores(dev: ModuleType) -> None:
    from antipolix import compiling

    assert dev.CORE_PARTS == compiling.PARTS


@pytest.mark.parametrize(("argv", "given"), [([], "nothing"), (["tests"], "'tests'")])
def test_an_unknown_job_gets_the_usage_and_a_line_naming_it(
    dev: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    given: str,
) -> None:
    monkeypatch.setattr(dev.sys, "argv", ["dev.py", *argv])
    assert dev.main() == 2
    err = capsys.readouterr().err
    assert err.startswith("Set up and run the project's jobs")
    assert err.strip().splitlines()[-1] == f"dev.py: error: the job is demo or test, got {given}"
    assert dev.ran == []  # nothing installed or run
