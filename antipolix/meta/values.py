"""What each kind is worth at a cost table, per agent: the one place the proposal asks.

:func:`measure_values` returns the tidy table of the values-by-skill study (one row per
(agent, kind): ``agent, rating, kind, cost, value, value_low, value_high, ratio, ratio_low,
ratio_high, verdict, note``), from :func:`antipolix.balance.values_by_skill`: random armies of
its design, every agent on the same game seeds, each agent's rating from a ladder (the
committed one at the table size by default). Each agent is a study of its own (one folder per
agent and cost table), so that the strongest agent's games, played at every balance step, are
read again, not played again, when the agents beside it are measured at the same table.

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
from antipolix.balance.skill import VALUE_COLUMNS, verdict
from antipolix.balance.values import BalanceError, kind_cost, priced_kinds
from antipolix.codec import with_options
from antipolix.errors import AntipolixError
from antipolix.meta.armies import MetaError
from antipolix.rules import Rules

COLUMNS = VALUE_COLUMNS  # the values-by-skill study's tidy table, as it writes it
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


def measure_values(
    rules: Rules,
    agents: Sequence[str],
    games: int,
    seed: int,
    *,
    out: Path | None = None,
    workers: int | None = None,
    ladder: str | Path | None = None,
) -> Values:
    """Every priced kind's value per agent at ``rules`` (module doc); ``out``: one resumable
    study folder per agent under it (with its report); ``ladder``: where the agents' ratings
    come from (None: the committed ladder)."""
    from antipolix.balance import values_by_skill

    began = time.perf_counter()
    parts: list[pd.DataFrame] = []
    played = 0
    for name in agents:
        label = agent_label(agent_named(name))
        try:
            study = values_by_skill(
                rules,
                [name],
                games,
                seed,
                ladder=ladder,
                workers=workers,
                out=None if out is None else out / label.replace(":", "_"),
                report=out is not None,
            )
        except BalanceError as exc:
            raise MetaError(f"values of {label} at {slug(costs_of(rules))}: {exc}") from None
        played += sum(len(g) for g in study.games.values())
        table = study.values
        if table.empty:  # stopped before any value: said, not a number
            why = study.stopped or study.verdict
            table = pd.DataFrame(
                [_unpriced(label, k, c, why) for k, c in costs_of(rules).items()],
                columns=COLUMNS,
            )
        parts.append(table.reindex(columns=COLUMNS))
    return Values(
        costs_of(rules), pd.concat(parts, ignore_index=True), played, time.perf_counter() - began
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
