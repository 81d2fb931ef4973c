"""Balancing piece costs by mass simulation: what each kind is worth, and a fair cost table.

>>> from antipolix.balance import kind_counts
>>> kind_counts(["hovercraft+chief", "army+teleporter"])["teleporter"]
1

``estimate_values(rules, agent, games, seed)`` → :class:`ValueEstimate` (``.table``: one row per
priced kind with its cost and its value in budget points, 95 % interval); ``fit_costs(...)`` →
:class:`CostFit` (the cost table per iteration and the proposal), with a study folder holding the
games (Parquet), the costs (CSV, JSON), plots and a one-page report.
"""

from antipolix.balance.fit import balancing_agent, estimate_values, fit_costs
from antipolix.balance.study import CostFit
from antipolix.balance.values import KINDS, BalanceError, ValueEstimate, estimate, kind_counts

__all__ = [
    "KINDS",
    "BalanceError",
    "CostFit",
    "ValueEstimate",
    "balancing_agent",
    "estimate",
    "estimate_values",
    "fit_costs",
    "kind_counts",
]
