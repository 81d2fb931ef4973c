"""CMA-ES (the ``cma`` package) as the studies drive it: seeded by a generator of our own,
asked and told through lists of plain floats, so that a study's log replays it exactly.

A study never pickles CMA-ES: it builds it again with :func:`new_es` and replays its log (ask,
check that the candidates equal the logged ones to the bit with :func:`same`, tell the logged
scores), which restores its state exactly where numpy's OpenBLAS runs the kernels the study
was made with (the same on every x86-64 processor with AVX2: :mod:`antipolix.blas`). Its
normal deviates come from ``Generator(PCG64(SeedSequence(seed, spawn_key=key)))``, passed to
cma as its ``randn`` option: the same as cma's ``seed`` option, without touching numpy's global
random state.
Scores are maximised (CMA-ES minimises: it is told them negated).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix.blas import warn_unpinned

FloatArray = npt.NDArray[np.float64]


def new_es(
    x0: Sequence[float], sigma0: float, population: int, seed: int, key: tuple[int, ...]
) -> Any:
    """CMA-ES in the box [0, 1]^n from ``x0`` with step size ``sigma0``, ``population``
    candidates a generation, its normal deviates drawn from ``SeedSequence(seed,
    spawn_key=key)``."""
    import cma

    warn_unpinned("CMA-ES")
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))

    def randn(*shape: int) -> FloatArray:
        out: FloatArray = rng.standard_normal(shape)
        return out

    options = {
        "bounds": [0.0, 1.0],
        "popsize": population,
        "randn": randn,
        "seed": math.nan,  # no seeding of numpy's global generator: ``randn`` is ours
        "verbose": -9,
        "verb_log": 0,
        "verb_disp": 0,
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cma.CMAEvolutionStrategy(list(x0), sigma0, options)


def popsize(dims: int) -> int:
    """cma's default population: ``4 + floor(3 ln n)``."""
    return 4 + int(3 * math.log(dims))


def mean(es: Any) -> list[float]:
    """The distribution mean, in the box (cma's ``xfavorite``)."""
    return [float(v) for v in es.result.xfavorite]


def ask(es: Any) -> list[list[float]]:
    return [[float(v) for v in x] for x in es.ask()]


def tell(es: Any, asked: list[list[float]], scores: Sequence[float]) -> None:
    """CMA-ES minimises: it is told each candidate's score, negated."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        es.tell([np.array(x, dtype=np.float64) for x in asked], [-float(s) for s in scores])


def same(a: Any, b: Any) -> bool:
    """Equal to the bit (floats written to JSON read back exactly)."""
    return bool(np.array_equal(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)))


__all__ = ["ask", "mean", "new_es", "popsize", "same", "tell"]
