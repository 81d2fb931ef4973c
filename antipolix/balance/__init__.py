"""Balancing piece costs by mass simulation: what each kind is worth, to players of every
strength, and a fair cost table.

>>> from antipolix.balance import kind_counts
>>> kind_counts(["hovercraft+chief", "army+teleporter"])["teleporter"]
1

``values_by_skill(rules, agents, games, seed, ...)`` → :class:`ValuesBySkill` (``.values``: one
row per agent and priced kind, value in budget points with its 95 % interval, value per cost
point and its verdict; ``.skill``: how each kind's value changes with the agents' ladder
ratings; ``.restricted``: what the strongest agent loses when it may not buy each kind), with a
study folder holding the games, the same tables as CSV, plots and a report;
``estimate_values(rules, agent, games, seed)`` → :class:`ValueEstimate` (one agent);
``fit_costs(...)`` → :class:`CostFit` (the cost table per iteration and the proposal), with a
study folder holding the games (Parquet), the costs (CSV, JSON), plots and a one-page report.
"""

from antipolix.balance.by_skill import values_by_skill
from antipolix.balance.design import CLASSIC, Design
from antipolix.balance.fit import balancing_agent, estimate_values, fit_costs
from antipolix.balance.ratings import SkillAxis, skill_axis
from antipolix.balance.restricted import Restricted, restricted_play
from antipolix.balance.skill_study import ValuesBySkill
from antipolix.balance.study import CostFit
from antipolix.balance.values import (
    KINDS,
    BalanceError,
    ValueEstimate,
    estimate,
    estimate_games,
    kind_counts,
)

__all__ = [
    "CLASSIC",
    "KINDS",
    "BalanceError",
    "CostFit",
    "Design",
    "Restricted",
    "SkillAxis",
    "ValueEstimate",
    "ValuesBySkill",
    "balancing_agent",
    "estimate",
    "estimate_games",
    "estimate_values",
    "fit_costs",
    "kind_counts",
    "restricted_play",
    "skill_axis",
    "values_by_skill",
]
