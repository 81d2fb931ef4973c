"""What each kind is worth at a cost table, per agent: the one place the proposal asks.

:func:`measure_values` returns the tidy table of the values-by-skill study (one row per
(agent, kind): ``agent, rating, kind, cost, value, value_low, value_high, ratio, ratio_low,
ratio_high, verdict``, plus ``note``). Its body plays today's single-agent study for each agent
(:func:`antipolix.balance.estimate_values`: random armies, seats shuffled, every agent on the
same game seeds) and leaves ``rating`` empty; it is the seam where the multi-agent study of
values by skill plugs in, so that nothing else in :mod:`antipolix.meta` changes with it.

Verdicts: ``underpriced`` (the value per cost point's interval lies above 1), ``overpriced``
(below 1), ``fair``, ``not estimated`` (the games cannot price the kind: the note says why).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from antipolix.agents import agent_label, agent_named
from antipolix.balance.values import BalanceError, kind_cost, priced_kinds
from antipolix.codec import with_options
from antipolix.errors import AntipolixError
from antipolix.meta.armies import MetaError
from antipolix.rules import Rules

COLUMNS = [
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
Costs = dict[str, int]
Say = Callable[[str], None]


@dataclass(frozen=True)
class Values:
    """One cost table's values: ``table`` (:data:`COLUMNS`, one row per agent and kind), the
    games played for it and the seconds it took."""

    costs: Costs
    table: pd.DataFrame
    games: int
    seconds: float

    def of(self, agent: str) -> pd.DataFrame:
        """One agent's rows, indexed by kind."""
        return self.table[self.table["agent"] == agent].set_index("kind")


def costs_of(rules: Rules) -> Costs:
    """The cost of every priced kind under ``rules`` (R2: types, and traits that cost)."""
    return {k: kind_cost(rules, k) for k in priced_kinds(rules)}


def with_costs(rules: Rules, costs: Mapping[str, int]) -> Rules:
    """``rules`` with these kinds' costs (``{"fortress": 6}``), validated like Rules."""
    try:
        return with_options(rules, [(f"{k}.cost", int(v)) for k, v in costs.items()])
    except AntipolixError as exc:
        raise MetaError(f"the cost table {dict(costs)} is not valid: {exc}") from None


def slug(costs: Mapping[str, int]) -> str:
    """A cost table as a folder name: ``army3-hovercraft2-fortress12-invisible5-teleporter10``."""
    return "-".join(f"{k}{v}" for k, v in costs.items())


def verdict(ratio_low: float, ratio_high: float) -> str:
    if not (math.isfinite(ratio_low) and math.isfinite(ratio_high)):
        return "not estimated"
    if ratio_low > 1:
        return "underpriced"
    if ratio_high < 1:
        return "overpriced"
    return "fair"


def measure_values(
    rules: Rules,
    agents: Sequence[str],
    games: int,
    seed: int,
    *,
    out: Path | None = None,
    workers: int | None = None,
    progress: bool = False,
) -> Values:
    """Every priced kind's value per agent at ``rules`` (module doc); ``out``: one resumable
    study folder per agent under it."""
    from antipolix.balance import estimate_values

    began = time.perf_counter()
    rows: list[dict[str, Any]] = []
    played = 0
    for name in agents:
        label = agent_label(agent_named(name))
        try:
            est = estimate_values(
                rules,
                name,
                games,
                seed,
                workers=workers,
                out=None if out is None else out / label.replace(":", "_"),
                progress=progress,
            )
        except BalanceError as exc:  # the games cannot price any kind: said, not a number
            why = str(exc)
            for kind, cost in costs_of(rules).items():
                rows.append(_unpriced(label, kind, cost, why))
            played += games
            continue
        played += est.games
        for r in est.table.itertuples():
            lo, hi = float(r.ratio_low), float(r.ratio_high)
            rows.append(
                {
                    "agent": label,
                    "rating": math.nan,
                    "kind": str(r.kind),
                    "cost": int(r.cost),
                    "value": float(r.value),
                    "value_low": float(r.value_low),
                    "value_high": float(r.value_high),
                    "ratio": float(r.ratio),
                    "ratio_low": lo,
                    "ratio_high": hi,
                    "verdict": verdict(lo, hi),
                    "note": str(getattr(r, "note", "") or ""),
                }
            )
    return Values(
        costs_of(rules), pd.DataFrame(rows, columns=COLUMNS), played, time.perf_counter() - began
    )


def _unpriced(agent: str, kind: str, cost: int, why: str) -> dict[str, Any]:
    nan = math.nan
    return {
        "agent": agent,
        "rating": nan,
        "kind": kind,
        "cost": cost,
        "value": nan,
        "value_low": nan,
        "value_high": nan,
        "ratio": nan,
        "ratio_low": nan,
        "ratio_high": nan,
        "verdict": "not estimated",
        "note": why,
    }


__all__ = ["COLUMNS", "Values", "costs_of", "measure_values", "slug", "verdict", "with_costs"]
