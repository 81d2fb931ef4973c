"""How each kind's value changes with the players' skill: a straight line in rating per kind.

The model. Each agent of a values study plays its own games (every seat the same agent), so
every game is played at one level of skill and the players' rating difference within a game is
always 0: Pav's form, a regression on piece counts with the players' rating difference as a
covariate, has nothing to read here, and reduces to a value per rating level, which is what
the per-agent fits give. Across agents, a kind's value in budget points is modelled as

    value_k(rating) = a_k + b_k · rating

fitted by generalised least squares over the agents, each value weighted by its uncertainty and
its covariance with the others. Agents play the same game seeds (common random numbers: the
same armies on the same cells, R12), so their fits are correlated; the covariance of two
agents' values is the sandwich of their fits over the games they share (per game, the score of
one fit times the score of the other, between the inverse informations), through the delta
method's gradients. ``b_k`` is reported in points per 100 Elo with a 95 % interval; a kind
whose interval excludes 0 depends on skill. With three agents or more the line's misfit is
tested (χ² of the residuals on agents − 2 degrees of freedom): a kind whose values do not lie
on a line is said so. The ratings' own uncertainty is left out: the committed ladder's
intervals are a few Elo points wide against hundreds between agents.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from antipolix.balance.values import ValueEstimate, kind_cost, priced_kinds
from antipolix.rules import Rules
from antipolix.stats import Z95

PER = 100.0  # slopes are per this many Elo points
VERDICTS = ("underpriced", "overpriced", "fair", "not estimated")
VALUE_COLUMNS = [
    "agent",
    "rating",
    "kind",
    "cost",
    "value",
    "value_low",
    "value_high",
    "ratio",
    "ratio_low",
    "ratio_high",
    "verdict",
    "note",
]


def verdict(ratio_low: float, ratio_high: float) -> str:
    """``underpriced`` (value per cost point above 1 within its 95 % interval), ``overpriced``
    (below 1), ``fair`` (1 inside the interval) or ``not estimated`` (no interval)."""
    if not (math.isfinite(ratio_low) and math.isfinite(ratio_high)):
        return "not estimated"
    if ratio_low > 1.0:
        return "underpriced"
    if ratio_high < 1.0:
        return "overpriced"
    return "fair"


def values_table(
    rules: Rules,
    estimates: Mapping[str, ValueEstimate | str],
    ratings: Mapping[str, float],
) -> pd.DataFrame:
    """One row per (agent, priced kind): :data:`VALUE_COLUMNS`. ``estimates`` maps each agent
    to its fit, or to why it has none (its rows are ``not estimated`` with that note)."""
    rows = []
    kinds = priced_kinds(rules)
    for agent, est in estimates.items():
        table = est.table.set_index("kind") if isinstance(est, ValueEstimate) else None
        for kind in kinds:
            row: dict[str, object] = {c: math.nan for c in VALUE_COLUMNS}
            row.update(agent=agent, rating=float(ratings[agent]), kind=kind)
            row["cost"] = kind_cost(rules, kind)
            if table is None:
                row.update(verdict="not estimated", note=f"no values for {agent}: {est}")
            elif kind in table.index and bool(table.loc[kind, "estimated"]):
                numbers = ("value", "value_low", "value_high", "ratio", "ratio_low", "ratio_high")
                row.update({c: float(table.loc[kind, c]) for c in numbers})
                low, high = (
                    float(table.loc[kind, "ratio_low"]),
                    float(table.loc[kind, "ratio_high"]),
                )
                row.update(verdict=verdict(low, high), note="")
            else:
                note = str(table.loc[kind, "note"]) if kind in table.index else "not fitted"
                row.update(verdict="not estimated", note=note)
            rows.append(row)
    return pd.DataFrame(rows, columns=VALUE_COLUMNS)


def joint_covariance(estimates: Sequence[ValueEstimate], kind: str) -> np.ndarray:
    """The covariance of ``kind``'s value (budget points) across the fits ``estimates``
    (each with its :class:`~antipolix.balance.values.ChoiceFit`, the kind estimated): the
    sandwich of each pair of fits over the games they share (by game id). Fits on disjoint
    games are uncorrelated."""
    parts = []
    for est in estimates:
        fit = est.fit
        if fit is None:
            raise ValueError("a joint covariance needs fits made by estimate_games")
        k = fit.kinds.index(kind)
        # d value_k / d beta, then through the inverse information: the row that maps a
        # game's score to its influence on the value
        influence = fit.grad[k] @ fit.cov
        parts.append((fit.games, fit.scores @ influence))
    n = len(parts)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(i, n):
            ids_i, infl_i = parts[i]
            ids_j, infl_j = parts[j]
            _, at_i, at_j = np.intersect1d(ids_i, ids_j, assume_unique=True, return_indices=True)
            out[i, j] = out[j, i] = float(infl_i[at_i] @ infl_j[at_j])
    return out


@dataclass(frozen=True)
class Line:
    """One kind's value against rating: ``slope`` (points per :data:`PER` Elo) with its 95 %
    interval, the value the line gives at ``ratings`` (the agents'), the slope's standard error
    had the agents played independent seeds (``se_independent``: what common seeds save),
    and the misfit of a line (``chi2``, ``p``; NaN with fewer than three agents)."""

    kind: str
    agents: tuple[str, ...]
    slope: float
    slope_low: float
    slope_high: float
    se: float
    se_independent: float
    intercept: float  # the value at rating 0
    chi2: float
    p: float
    cov: tuple[tuple[float, float], tuple[float, float]] = ((0.0, 0.0), (0.0, 0.0))

    def at(self, rating: float) -> tuple[float, float]:
        """The line's value at ``rating`` and its standard error."""
        x = (1.0, rating / PER)
        var = sum(x[i] * self.cov[i][j] * x[j] for i in range(2) for j in range(2))
        return self.intercept + self.slope * rating / PER, math.sqrt(max(var, 0.0))


def fit_line(
    kind: str,
    agents: Sequence[str],
    values: np.ndarray,
    ratings: np.ndarray,
    cov: np.ndarray,
) -> Line:
    """The generalised least-squares line of ``values`` on ``ratings`` (covariance ``cov``)."""
    x = np.column_stack([np.ones(len(ratings)), np.asarray(ratings, dtype=float) / PER])
    y = np.asarray(values, dtype=float)
    inv = np.linalg.pinv(cov)
    precision = x.T @ inv @ x
    theta_cov = np.linalg.pinv(precision)
    theta = theta_cov @ x.T @ inv @ y
    se = math.sqrt(max(float(theta_cov[1, 1]), 0.0))
    diag = np.diag(np.diag(cov))
    independent = np.linalg.pinv(x.T @ np.linalg.pinv(diag) @ x)
    chi2 = p = math.nan
    if len(y) >= 3:
        residual = y - x @ theta
        chi2 = float(residual @ inv @ residual)
        p = chi2_sf(chi2, len(y) - 2)
    slope = float(theta[1])
    return Line(
        kind=kind,
        agents=tuple(agents),
        slope=slope,
        slope_low=slope - Z95 * se,
        slope_high=slope + Z95 * se,
        se=se,
        se_independent=math.sqrt(max(float(independent[1, 1]), 0.0)),
        intercept=float(theta[0]),
        chi2=chi2,
        p=p,
        cov=(
            (float(theta_cov[0, 0]), float(theta_cov[0, 1])),
            (float(theta_cov[1, 0]), float(theta_cov[1, 1])),
        ),
    )


def chi2_sf(x: float, df: int) -> float:
    """P(χ² with ``df`` degrees of freedom > ``x``), ``df`` a positive integer (the regularised
    upper incomplete gamma function Q(df/2, x/2), in closed form).

    >>> round(chi2_sf(3.841458820694124, 1), 6), round(chi2_sf(5.991464547107979, 2), 6)
    (0.05, 0.05)
    """
    if x <= 0:
        return 1.0
    half = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return math.exp(-half) * total
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) * math.exp(-half) / math.gamma(1.5)
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= half / (i + 0.5)
    return total


SKILL_COLUMNS = [
    "kind",
    "cost",
    "agents",
    "slope",
    "slope_low",
    "slope_high",
    "slope_se",
    "depends_on_skill",
    "weakest",
    "weakest_verdict",
    "strongest",
    "strongest_verdict",
    "verdict_changes",
    "line_misfit_p",
    "slope_se_independent_seeds",
    "flag",
]


def skill_table(
    rules: Rules,
    values: pd.DataFrame,
    estimates: Mapping[str, ValueEstimate | str],
) -> tuple[pd.DataFrame, dict[str, Line]]:
    """Per priced kind (:data:`SKILL_COLUMNS`): the line of its value on rating over the
    agents that priced it (slope in points per 100 Elo with its 95 % interval; none with fewer
    than two agents), the verdicts at the weakest and strongest agent, and ``flag``: the words
    a designer reads when the kind depends on skill or its verdict changes; and the lines."""
    rows = []
    lines: dict[str, Line] = {}
    for kind in priced_kinds(rules):
        part = values[values["kind"] == kind].sort_values("rating", kind="stable")
        done = part[part["verdict"] != "not estimated"]
        agents = done["agent"].tolist()
        row: dict[str, object] = {c: math.nan for c in SKILL_COLUMNS}
        row.update(kind=kind, cost=kind_cost(rules, kind), agents=len(agents))
        line = None
        if len(agents) >= 2 and len(set(done["rating"])) >= 2:
            fits = [estimates[a] for a in agents]
            assert all(isinstance(f, ValueEstimate) for f in fits)
            cov = joint_covariance([f for f in fits if isinstance(f, ValueEstimate)], kind)
            line = fit_line(kind, agents, done["value"].to_numpy(), done["rating"].to_numpy(), cov)
            lines[kind] = line
            row.update(
                slope=line.slope,
                slope_low=line.slope_low,
                slope_high=line.slope_high,
                slope_se=line.se,
                depends_on_skill=bool(line.slope_low > 0 or line.slope_high < 0),
                line_misfit_p=line.p,
                slope_se_independent_seeds=line.se_independent,
            )
        else:
            row["depends_on_skill"] = False
        if len(part):
            weak, strong = part.iloc[0], part.iloc[-1]
            row.update(
                weakest=weak["agent"],
                weakest_verdict=weak["verdict"],
                strongest=strong["agent"],
                strongest_verdict=strong["verdict"],
                verdict_changes=bool(
                    len(part) > 1
                    and "not estimated" not in (weak["verdict"], strong["verdict"])
                    and weak["verdict"] != strong["verdict"]
                ),
            )
        row["flag"] = _flag(kind, row, line, part)
        rows.append(row)
    return pd.DataFrame(rows, columns=SKILL_COLUMNS), lines


def _flag(kind: str, row: Mapping[str, object], line: Line | None, part: pd.DataFrame) -> str:
    """The words of a kind that depends on skill, or whose verdict changes between the
    weakest and the strongest agent; empty otherwise."""
    words = []
    if line is not None and row["depends_on_skill"]:
        way = "more" if line.slope > 0 else "less"
        words.append(
            f"depends on skill: worth {way} to stronger players, {line.slope:+.2f} points per "
            f"100 Elo [{line.slope_low:+.2f}, {line.slope_high:+.2f}]"
        )
    if row.get("verdict_changes"):
        weak, strong = part.iloc[0], part.iloc[-1]
        flips = {weak["verdict"], strong["verdict"]} == {"underpriced", "overpriced"}
        words.append(
            f"verdict {'flips' if flips else 'changes'}: {weak['verdict']} for "
            f"{weak['agent']} (value per cost point {weak['ratio']:.2f} "
            f"[{weak['ratio_low']:.2f}, {weak['ratio_high']:.2f}]) but {strong['verdict']} for "
            f"{strong['agent']} ({strong['ratio']:.2f} [{strong['ratio_low']:.2f}, "
            f"{strong['ratio_high']:.2f}])"
        )
    if line is not None and math.isfinite(line.p) and line.p < 0.05:
        words.append(
            f"values off a straight line in rating (misfit p = {line.p:.3f}): "
            "read the values agent by agent"
        )
    if not words:
        return ""
    return f"{kind}: {'; '.join(words)}."
