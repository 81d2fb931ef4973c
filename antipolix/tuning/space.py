"""The search space of a tuning study: which planner weights are tuned, scaled to ``[0, 1]``.

CMA-ES samples from one covariance matrix and one step size, which works best when every
coordinate has a comparable scale: weight ``w`` with search range ``(low, high)``
(:data:`~antipolix.agents.planner.WEIGHTS`) is searched as ``(w − low) / (high − low)``, so
``win`` (60–400) and ``hunt_min`` (0–0.5) move alike, and the box ``[0, 1]`` is every weight's
range.

>>> space = Space.of(["win", "press"])
>>> space.scale({"win": 230.0, "press": 0.5}).tolist()
[0.5, 0.25]
>>> space.unscale(space.scale({"win": 230.0, "press": 0.5}))
{'win': 230.0, 'press': 0.5}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from antipolix.agents.planner import WEIGHT_NAMES, WEIGHTS
from antipolix.errors import AntipolixError

FloatArray = npt.NDArray[np.float64]


class TuningError(AntipolixError):
    """A tuning study that cannot start or go on: bad arguments, a folder that holds something
    else, a log that does not replay; the message says why."""


@dataclass(frozen=True)
class Space:
    """The tuned weights (by name, in :data:`WEIGHT_NAMES` order) and their search ranges."""

    names: tuple[str, ...]
    low: FloatArray
    high: FloatArray

    @classmethod
    def of(cls, names: Iterable[str] | None = None) -> Space:
        """The space of ``names`` (every weight of the planner when None); unknown or repeated
        names are refused."""
        if names is None:
            chosen = list(WEIGHT_NAMES)
        else:
            if isinstance(names, str):
                names = [n.strip() for n in names.split(",")]
            chosen = [str(n) for n in names]
            unknown = [n for n in chosen if n not in WEIGHT_NAMES]
            if unknown:
                raise TuningError(
                    f"the planner has no weight {unknown[0]!r} (its weights: "
                    f"{', '.join(WEIGHT_NAMES)})"
                )
            twice = sorted({n for n in chosen if chosen.count(n) > 1})
            if twice:
                raise TuningError(f"weight {twice[0]!r} is named twice")
            if not chosen:
                raise TuningError("name at least one weight to tune")
            chosen = [n for n in WEIGHT_NAMES if n in chosen]  # the kernels' order
        by_name = {w.name: w for w in WEIGHTS}
        low = np.array([by_name[n].low for n in chosen], dtype=np.float64)
        high = np.array([by_name[n].high for n in chosen], dtype=np.float64)
        return cls(tuple(chosen), low, high)

    @property
    def dims(self) -> int:
        return len(self.names)

    def index(self) -> list[int]:
        """Where each tuned weight sits in the planner's full weight vector."""
        return [WEIGHT_NAMES.index(n) for n in self.names]

    def scale(self, weights: Mapping[str, float] | Sequence[float] | FloatArray) -> FloatArray:
        """Weights (by name, or as a full :data:`WEIGHTS` vector) → the tuned ones in [0, 1]
        units (a weight outside its range maps outside [0, 1])."""
        if isinstance(weights, Mapping):
            values = np.array([float(weights[n]) for n in self.names], dtype=np.float64)
        else:
            full = np.asarray(weights, dtype=np.float64)
            if full.shape != (len(WEIGHT_NAMES),):
                raise TuningError(
                    f"a weight vector has {len(WEIGHT_NAMES)} values, got shape {full.shape}"
                )
            values = full[self.index()]
        out: FloatArray = (values - self.low) / (self.high - self.low)
        return out

    def unscale(self, x: Sequence[float] | FloatArray) -> dict[str, float]:
        """A point of the [0, 1] box → the tuned weights by name."""
        values = self.low + np.asarray(x, dtype=np.float64) * (self.high - self.low)
        return {n: float(v) for n, v in zip(self.names, values, strict=True)}

    def full(self, base: FloatArray, x: Sequence[float] | FloatArray) -> FloatArray:
        """The planner's full weight vector: ``base`` with the tuned weights set from ``x``."""
        out = np.array(base, dtype=np.float64)
        out[self.index()] = self.low + np.asarray(x, dtype=np.float64) * (self.high - self.low)
        return out


__all__ = ["Space", "TuningError"]
