"""The same numbers on every x86-64 machine: OpenBLAS's kernels pinned before numpy loads.

CMA-ES (``cma``: the tuning and the army search) and the equilibrium's solvers (scipy) compute
with numpy's and scipy's OpenBLAS, which picks its kernels for the processor it runs on. Its
kernels for AVX-512 processors (``SkylakeX`` and later) round differently from its AVX2 ones
(``Haswell``, ``Zen``): CMA-ES asks candidates that differ from the tenth digit on (measured:
up to 3e-10 at the second generation of the committed tuning studies), so a study made on one
kind of machine does not replay on the other (its log's candidates are checked to the bit) and
a study run afresh there logs other candidates (agents' weights that differ in their tenth
digit: in a small test its games were the same, but nothing holds them so).

:func:`pin` (called first thing by ``import antipolix``) makes every process that imports
antipolix before numpy use the ``Haswell`` kernels on an x86-64 processor that has them (AVX2
and FMA), as the studies committed in this project were made with: then a study replays, and a
seed gives the same study, on any such machine. It changes nothing when ``OPENBLAS_CORETYPE`` is
already set (the user's choice) or numpy is already loaded (too late: :func:`kernel` says what
runs), and nothing on other processors (ARM, or x86 without AVX2), whose studies replay on
machines of the same kind. This module imports nothing heavy: it runs before numpy.
"""

from __future__ import annotations

import functools
import os
import platform
import sys
from collections.abc import MutableMapping

PINNED = "Haswell"  # OpenBLAS's AVX2 kernels
ALIKE = frozenset({PINNED, "Zen"})  # kernels that gave the same numbers (CMA-ES, equilibria)
VARIABLE = "OPENBLAS_CORETYPE"


def has_avx2(cpuinfo: str = "/proc/cpuinfo") -> bool:
    """Does this x86-64 processor run OpenBLAS's ``Haswell`` kernels (AVX2 and FMA)? Read from
    ``cpuinfo`` (Linux); False where it cannot tell."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        with open(cpuinfo, encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[-1].split())
                    return {"avx2", "fma"} <= flags
    except OSError:
        return False
    return False


def pin(environ: MutableMapping[str, str] | None = None, loaded: bool | None = None) -> bool:
    """Set ``OPENBLAS_CORETYPE`` to :data:`PINNED` in ``environ`` (``os.environ``) unless it is
    set, numpy is ``loaded`` (already imported) or the processor lacks the kernels; returns
    whether it set it. Child processes (Ray's workers) inherit it."""
    env: MutableMapping[str, str] = os.environ if environ is None else environ
    if loaded is None:
        loaded = "numpy" in sys.modules
    if VARIABLE in env or loaded or not has_avx2():
        return False
    env[VARIABLE] = PINNED
    return True


@functools.cache
def kernel() -> str | None:
    """The name of the kernels numpy's OpenBLAS runs (``"Haswell"``, ``"SkylakeX"``, ...), or
    None where it cannot be asked (another BLAS, or a library it does not know). Asked once a
    process: OpenBLAS chooses them when it loads."""
    import ctypes
    import glob

    import numpy as np

    folder = os.path.dirname(np.__file__) + ".libs"  # (where numpy's wheels keep OpenBLAS)
    for path in sorted(glob.glob(os.path.join(folder, "*openblas*"))):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol in ("scipy_openblas_get_corename64_", "openblas_get_corename64_"):
            get = getattr(lib, symbol, None)
            if get is not None:
                get.restype = ctypes.c_char_p
                name = get()
                return name.decode("ascii", "replace") if name else None
    return None


class KernelWarning(UserWarning):
    """A study's CMA-ES runs on other kernels than the pinned ones (see :func:`warn_unpinned`)."""


def warn_unpinned(what: str) -> bool:
    """Warn (once a process) that ``what`` (a study) computes with other kernels than the
    pinned ones on a processor that has them: numpy was imported before antipolix, or
    ``OPENBLAS_CORETYPE`` names others. Returns whether it warned."""
    global _warned
    if _warned:
        return False
    running = kernel()
    if running is None or running in ALIKE or not has_avx2():
        return False
    import warnings

    _warned = True
    warnings.warn(
        f"{what}: numpy's OpenBLAS runs its {running} kernels in this process, not the {PINNED} "
        "ones antipolix pins (numpy was imported before antipolix, or "
        f"{VARIABLE} names them): CMA-ES's numbers differ from the tenth digit on, so the study "
        f"replays only where the same kernels run. Import antipolix before numpy, or set "
        f"{VARIABLE}={PINNED}",
        KernelWarning,
        stacklevel=2,
    )
    return True


_warned = False


def replay_hint() -> str:
    """Why a logged CMA-ES may not ask its candidates again here, in words for an error."""
    running = kernel()
    if running is None:
        return "an edited log, or another cma version"
    if running in ALIKE:
        return (
            "an edited log, another cma version, or a study made with other BLAS kernels: one "
            "made on an AVX-512 processor before antipolix pinned OpenBLAS's replays with "
            f"{VARIABLE}=SkylakeX"
        )
    return (
        f"an edited log, another cma version, or this process's BLAS: numpy's OpenBLAS runs its "
        f"{running} kernels here, which round otherwise than the {PINNED} ones studies are made "
        f"with (import antipolix before numpy, or set {VARIABLE}={PINNED})"
    )


__all__ = [
    "ALIKE",
    "PINNED",
    "KernelWarning",
    "has_avx2",
    "kernel",
    "pin",
    "replay_hint",
    "warn_unpinned",
]

pin()  # on import: ``import antipolix`` imports this module first, before numpy
