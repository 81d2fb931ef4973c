"""``dev.py``'s set-up of the browser the replay page's tests need (Debian's chromium): what it
runs when the browser is missing, as root, as a user, on CI, and when the install fails. The
commands are recorded, not run."""

from __future__ import annotations

import importlib.util
import subprocess
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
