"""The equilibrium of an empirical game between armies: its maximum-entropy Nash equilibrium.

An empirical game (Wellman 2006; Lanctot et al. 2017's PSRO) is a table ``M`` of measured
scores: ``M[i, j]`` is the share of the meetings between army ``i`` and army ``j`` that ``i``
finished ahead in (a level meeting counting one half), so ``M[i, j] + M[j, i] = 1`` and
``M[i, i] = 1/2``. With ``A = M − 1/2`` (antisymmetric), choosing an army is a symmetric
two-player zero-sum game of value 0: a mixture ``p`` of armies is an equilibrium when no army
does better than even against it, ``(A p)_j <= 0`` for every ``j`` (equivalently
``A^T p >= 0``).

Equilibria of such a game form a convex polytope; Balduzzi et al. 2018 ("Re-evaluating
evaluation", Nash averaging) take the one of maximum entropy, which is unique and does not
change when an army is copied (copies share its weight), so that a search that finds the same
army twice does not shift the meta. It is found in three steps with scipy: the game's value by
a linear program (HiGHS); the support, every army that some equilibrium plays (one linear
program per army, maximising its weight over the polytope); then the entropy maximised over
the polytope's face on that support (SLSQP), where it is smooth. An army no equilibrium plays
(a dominated one) gets exactly 0.

>>> rps = [[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]]
>>> [round(w, 6) for w in maxent_nash(rps).mixture]
[0.333333, 0.333333, 0.333333]
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from antipolix.meta.armies import MetaError

FloatArray = npt.NDArray[np.float64]
TOL = 1e-9  # slack of the equilibrium constraints (scores are shares, of order 1)
SUPPORT = 1e-7  # a weight above this is in the support


@dataclass(frozen=True)
class Equilibrium:
    """The maximum-entropy Nash equilibrium of an empirical game.

    ``mixture``: each army's weight; ``support``: the armies played (weight > 0), in order;
    ``against``: each army's expected score against the mixture (``M p``: 1/2 for every army
    of the support, at most 1/2 for the others, up to the solver's tolerance); ``value``: the
    game's value found by the linear program (1/2 in a symmetric game)."""

    mixture: tuple[float, ...]
    support: tuple[int, ...]
    against: tuple[float, ...]
    value: float

    @property
    def entropy(self) -> float:
        """Entropy of the mixture in bits; 2 ** entropy is the effective number of armies."""
        w = np.array([v for v in self.mixture if v > 0])
        return float(-(w * np.log2(w)).sum()) if len(w) else 0.0


def check_scores(scores: Sequence[Sequence[float]] | FloatArray) -> FloatArray:
    """``scores`` as a square matrix of shares in [0, 1] (:class:`MetaError` otherwise)."""
    try:
        m = np.array(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise MetaError("an empirical game is a square table of scores from 0 to 1") from None
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] == 0:
        raise MetaError(f"an empirical game is a square table of scores, got shape {m.shape}")
    if not np.all(np.isfinite(m)) or m.min() < 0 or m.max() > 1:
        raise MetaError("an empirical game's scores are shares from 0 to 1, none missing")
    return m


def maxent_nash(scores: Sequence[Sequence[float]] | FloatArray) -> Equilibrium:
    """The maximum-entropy Nash equilibrium of the symmetric zero-sum game of ``scores``
    (module doc); ``scores`` is antisymmetrised, ``(M − M^T) / 2``, so that a table measured
    from each side separately is read as one game."""
    m = check_scores(scores)
    k = len(m)
    a = (m - m.T) / 2.0  # A[i, j]: i's advantage over j
    value, p0 = _value(a)
    if k == 1:
        return Equilibrium((1.0,), (0,), (0.5,), 0.5)
    floor = value - TOL
    vertices = [p0]
    for i in range(k):  # the support: every army some equilibrium plays
        vertices.append(_most(a, i, floor))
    highest = np.max(np.array(vertices), axis=0)
    support = np.flatnonzero(highest > SUPPORT)
    start = np.mean(np.array(vertices), axis=0)[support]
    p = np.zeros(k)
    p[support] = _max_entropy(a[np.ix_(support, np.arange(k))], start / start.sum(), floor)
    p[p < SUPPORT / 10] = 0.0
    p /= p.sum()
    against = m @ p
    return Equilibrium(
        tuple(float(v) for v in p),
        tuple(int(i) for i in np.flatnonzero(p > 0)),
        tuple(float(v) for v in against),
        float(value + 0.5),
    )


def _value(a: FloatArray) -> tuple[float, FloatArray]:
    """max_p min_j (A^T p)_j by a linear program: the value and one maximin mixture."""
    from scipy.optimize import linprog

    k = len(a)
    c = np.zeros(k + 1)
    c[-1] = -1.0  # maximise v
    a_ub = np.hstack([-a.T, np.ones((k, 1))])  # v - (A^T p)_j <= 0
    a_eq = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    bounds = [(0.0, 1.0)] * k + [(None, None)]
    res = linprog(
        c, A_ub=a_ub, b_ub=np.zeros(k), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs"
    )
    if not res.success:
        raise MetaError(f"the equilibrium's linear program failed: {res.message}")
    p = np.clip(res.x[:k], 0.0, None)
    return float(res.x[-1]), p / p.sum()


def _most(a: FloatArray, i: int, floor: float) -> FloatArray:
    """An equilibrium (a mixture scoring at least ``floor`` against every army) that gives
    army ``i`` the most weight."""
    from scipy.optimize import linprog

    k = len(a)
    c = np.zeros(k)
    c[i] = -1.0
    res = linprog(
        c,
        A_ub=-a.T,
        b_ub=-np.full(k, floor),
        A_eq=np.ones((1, k)),
        b_eq=[1.0],
        bounds=[(0.0, 1.0)] * k,
        method="highs",
    )
    if not res.success:  # numerically at the edge: the maximin mixture stands in
        return np.zeros(k)
    p = np.clip(res.x, 0.0, None)
    out: FloatArray = p / p.sum()
    return out


def _max_entropy(rows: FloatArray, start: FloatArray, floor: float) -> FloatArray:
    """The mixture over the support (``rows``: the support's rows of A) of maximum entropy
    among those scoring at least ``floor`` against every army."""
    from scipy.optimize import minimize

    if len(start) == 1:
        return np.ones(1)

    def negative_entropy(q: FloatArray) -> float:
        q = np.clip(q, 1e-300, None)
        return float((q * np.log(q)).sum())

    def gradient(q: FloatArray) -> FloatArray:
        out: FloatArray = np.log(np.clip(q, 1e-300, None)) + 1.0
        return out

    constraints = [
        {"type": "eq", "fun": lambda q: float(q.sum() - 1.0), "jac": lambda q: np.ones_like(q)},
        {"type": "ineq", "fun": lambda q: rows.T @ q - floor, "jac": lambda q: rows.T},
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = minimize(
            negative_entropy,
            start,
            jac=gradient,
            method="SLSQP",
            bounds=[(0.0, 1.0)] * len(start),
            constraints=constraints,
            options={"maxiter": 500, "ftol": 1e-14},
        )
    q = np.clip(res.x, 0.0, None) if res.success else start
    if not math.isfinite(float(q.sum())) or q.sum() <= 0 or np.min(rows.T @ q) < floor - 1e-6:
        q = start  # the linear programs' mean: an equilibrium on the same support
    out: FloatArray = q / q.sum()
    return out


__all__ = ["Equilibrium", "check_scores", "maxent_nash"]
