"""The record of a values-by-skill study (:func:`antipolix.balance.values_by_skill`): its
tables, fits, games, ratings, and how it ended."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from antipolix.balance.design import Design
from antipolix.balance.ratings import SkillAxis
from antipolix.balance.restricted import RESTRICTED_COLUMNS, Restricted
from antipolix.balance.skill import Line
from antipolix.balance.values import ValueEstimate, unbuyable
from antipolix.rules import Rules


@dataclass
class ValuesBySkill:
    """A values-by-skill study (finished, or stopped: ``stopped`` says why).

    - ``values``: one row per (agent, kind): ``agent, rating, kind, cost, value, value_low,
      value_high, ratio, ratio_low, ratio_high, verdict, note`` (``values.csv``);
    - ``skill``: one row per kind: the slope of its value on rating (points per 100 Elo, 95 %),
      the verdicts at the weakest and strongest agent and the flag in words (``skill.csv``);
    - ``restricted``: one row per kind: ``agent, forbidden, rating_loss, loss_low, loss_high,
      note`` (``restricted.csv``; empty when restricted play was not asked for);
    - ``estimates`` (per agent, its :class:`ValueEstimate`, or why it has none), ``games`` (per
      agent, its games), ``axis`` (the ratings and their ladder), ``lines`` (per kind).
    """

    rules: Rules
    agents: list[str]
    axis: SkillAxis
    design: Design
    seed: int
    estimates: dict[str, ValueEstimate | str] = field(default_factory=dict)
    games: dict[str, pd.DataFrame] = field(default_factory=dict)
    values: pd.DataFrame = field(default_factory=pd.DataFrame)
    skill: pd.DataFrame = field(default_factory=pd.DataFrame)
    lines: dict[str, Line] = field(default_factory=dict)
    restricted: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=RESTRICTED_COLUMNS)
    )
    restricted_run: Restricted | None = None
    precision: float | None = None
    max_games: int | None = None
    precision_notes: list[str] = field(default_factory=list)
    stopped: str = ""
    seconds: dict[str, float] = field(default_factory=dict)
    path: Path | None = None
    keep: object = None  # a TemporaryDirectory that lives as long as this study

    @property
    def strongest(self) -> str:
        return max(self.agents, key=lambda a: self.axis.ratings[a])

    @property
    def verdict(self) -> str:
        """One line: how the study ended, and why."""
        if self.stopped:
            return f"stopped: {self.stopped}"
        played = ", ".join(f"{a} {len(self.games.get(a, ()))}" for a in self.agents)
        failed = [a for a, e in self.estimates.items() if not isinstance(e, ValueEstimate)]
        text = f"complete ({played} games)"
        if self.precision is not None:
            wide = self.widest()
            short = {a: w for a, w in wide.items() if not w[0] < self.precision}
            if short:
                a, (w, kind) = next(iter(short.items()))
                text = (
                    f"precision {self.precision:g} not met within the cap of {self.max_games} "
                    f"games per agent ({played} games): {a}'s widest interval is {w:.2f} "
                    f"({kind})" + (f", and {len(short) - 1} more agents'" if len(short) > 1 else "")
                )
            else:
                text = f"precision {self.precision:g} met for every agent ({played} games)"
        if failed:
            text += f"; no values for {', '.join(failed)} (see below)"
        return text

    def widest(self) -> dict[str, tuple[float, str]]:
        """Per agent with values: its widest value-per-cost interval among the kinds that can
        be priced under the rules, and that kind (infinite when one was not estimated)."""
        return {
            a: widest_interval(e, self.rules)
            for a, e in self.estimates.items()
            if isinstance(e, ValueEstimate)
        }


def widest_interval(est: ValueEstimate | str, rules: Rules) -> tuple[float, str]:
    """Among the kinds ``rules`` lets armies buy: the widest value-per-cost interval of a fit
    and its kind (infinite when a kind was not estimated, or the fit failed)."""
    if not isinstance(est, ValueEstimate):
        return math.inf, "no values"
    impossible = unbuyable(rules)
    t = est.table
    t = t[~t["kind"].isin(list(impossible))]
    if len(t) == 0:
        return 0.0, ""
    width = (t["ratio_high"] - t["ratio_low"]).fillna(math.inf)
    i = int(width.to_numpy().argmax())
    return float(width.iloc[i]), str(t["kind"].iloc[i])
