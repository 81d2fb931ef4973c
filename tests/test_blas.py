"""The same numbers on every x86-64 machine (antipolix.blas): OpenBLAS's kernels pinned, so that
CMA-ES asks the same candidates and a study replays wherever it was made."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from antipolix import blas
from antipolix.tuning import cmaes
from antipolix.tuning.study import CMA_BRANCH

ROOT = Path(__file__).resolve().parents[1]
TUNING_STUDIES = sorted((ROOT / "experiments" / "results").glob("tuning*/generations.jsonl"))
AVX2 = pytest.mark.skipif(not blas.has_avx2(), reason="not an x86-64 processor with AVX2 and FMA")


def _kernel_in_a_fresh_process(code: str, env: dict[str, str]) -> str:
    """What ``code`` prints, run in a new interpreter with ``env``."""
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def _env_without_the_variable() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != blas.VARIABLE}


ASK = "from antipolix.blas import kernel; print(kernel())"


@AVX2
def test_import_antipolix_pins_the_haswell_kernels() -> None:
    """A process that imports antipolix before numpy runs OpenBLAS's Haswell kernels whatever
    its processor picks (an AVX-512 one picks SkylakeX), and its children inherit the choice."""
    env = _env_without_the_variable()
    assert _kernel_in_a_fresh_process("import antipolix; " + ASK, env) == blas.PINNED
    inherited = "import antipolix, os; print(os.environ['OPENBLAS_CORETYPE'])"
    assert _kernel_in_a_fresh_process(inherited, env) == blas.PINNED


@AVX2
def test_a_kernel_the_user_chose_is_kept() -> None:
    env = {**_env_without_the_variable(), blas.VARIABLE: "Sandybridge"}
    assert _kernel_in_a_fresh_process("import antipolix; " + ASK, env) == "Sandybridge"


@AVX2
def test_this_test_process_runs_the_pinned_kernels() -> None:
    """The test suite itself (pytest imports antipolix before numpy): the replay test below
    means what it says."""
    assert blas.kernel() == blas.PINNED


def test_pin_sets_the_variable_only_when_it_is_free_and_numpy_is_not_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(blas, "has_avx2", lambda: True)
    env: dict[str, str] = {}
    assert blas.pin(env, loaded=False) and env == {blas.VARIABLE: blas.PINNED}
    chosen = {blas.VARIABLE: "Zen"}
    assert not blas.pin(chosen, loaded=False) and chosen == {blas.VARIABLE: "Zen"}
    late: dict[str, str] = {}
    assert not blas.pin(late, loaded=True) and late == {}
    monkeypatch.setattr(blas, "has_avx2", lambda: False)
    other: dict[str, str] = {}
    assert not blas.pin(other, loaded=False) and other == {}


@pytest.mark.parametrize(
    ("flags", "machine", "expected"),
    [
        ("fpu sse2 avx avx2 fma bmi2", "x86_64", True),
        ("fpu sse2 avx fma", "x86_64", False),  # no AVX2
        ("fpu sse2 avx avx2", "x86_64", False),  # no FMA
        ("fp asimd evtstrm aes pmull", "aarch64", False),
    ],
)
def test_has_avx2_reads_the_processor_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: str, machine: str, expected: bool
) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(f"processor\t: 0\nvendor_id\t: X\nflags\t\t: {flags}\n\n")
    monkeypatch.setattr("platform.machine", lambda: machine)
    assert blas.has_avx2(str(cpuinfo)) is expected
    assert blas.has_avx2(str(tmp_path / "missing")) is False


def test_the_replay_error_says_what_runs_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(blas, "kernel", lambda: "SkylakeX")
    here = blas.replay_hint()
    assert "SkylakeX kernels here" in here and "OPENBLAS_CORETYPE=Haswell" in here
    monkeypatch.setattr(blas, "kernel", lambda: blas.PINNED)
    assert "OPENBLAS_CORETYPE=SkylakeX" in blas.replay_hint()  # (a study made before the pin)


@AVX2
@pytest.mark.parametrize("log", TUNING_STUDIES, ids=lambda p: p.parent.name)
def test_the_committed_tuning_studies_replay_to_the_bit(log: Path) -> None:
    """Each committed tuning study (made on AVX2 machines): CMA-ES, started where the study
    started, asks every logged generation's candidates again, to the bit, when told the
    logged scores (on an AVX-512 processor without the pin the second generation differed
    by up to 3e-10; a study made there, ``antipolix tune`` refused to resume with the
    other kernels)."""
    settings = json.loads((log.parent / "_tuning.json").read_text())
    lines = [json.loads(t) for t in log.read_text().splitlines() if t.strip()]
    es = cmaes.new_es(
        lines[0]["mean"],
        settings["sigma0"],
        settings["population"],
        settings["seed"],
        (CMA_BRANCH,),
    )
    for line in lines:
        mean, asked = cmaes.mean(es), cmaes.ask(es)
        assert cmaes.same(mean, line["mean"]), line["generation"]
        assert cmaes.same(asked, line["candidates"]), (
            line["generation"],
            float(np.max(np.abs(np.asarray(asked) - np.asarray(line["candidates"])))),
        )
        cmaes.tell(es, asked, line["scores"])
    assert len(lines) == settings["generations"]


def test_cma_es_warns_once_when_the_process_runs_other_kernels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Python script that imported numpy before antipolix: its first CMA-ES says that its
    studies replay only where the same kernels run (once a process); a pinned one says
    nothing."""
    import warnings

    monkeypatch.setattr(blas, "has_avx2", lambda: True)
    monkeypatch.setattr(blas, "_warned", False)
    monkeypatch.setattr(blas, "kernel", lambda: blas.PINNED)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cmaes.new_es([0.5, 0.5], 0.2, 4, 1, (0,))
    monkeypatch.setattr(blas, "kernel", lambda: "Zen")  # (the same numbers)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cmaes.new_es([0.5, 0.5], 0.2, 4, 1, (0,))
    monkeypatch.setattr(blas, "kernel", lambda: "SkylakeX")
    with pytest.warns(blas.KernelWarning, match="SkylakeX kernels in this process"):
        cmaes.new_es([0.5, 0.5], 0.2, 4, 1, (0,))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cmaes.new_es([0.5, 0.5], 0.2, 4, 1, (0,))  # (once)
