"""Intervals of estimated proportions and values, at 95 %.

>>> lo, hi = wilson_interval(50, 100)
>>> round(float(lo), 4), round(float(hi), 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def wilson_interval(
    wins: npt.ArrayLike, n: npt.ArrayLike, z: float = Z95
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Wilson score interval of a binomial proportion (95 % by default); NaN where ``n == 0``."""
    k = np.asarray(wins, dtype=np.float64)
    m = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / m
        denom = 1 + z * z / m
        centre = (p + z * z / (2 * m)) / denom
        half = z * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / denom
    lo = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    hi = np.where(k == m, 1.0, np.clip(centre + half, 0.0, 1.0))
    return np.where(m > 0, lo, np.nan), np.where(m > 0, hi, np.nan)
