"""How a balancing study draws its armies and what it reads of each game: its :class:`Design`.

Every seat plays with a random army (:class:`~antipolix.agents.RandomArmy`: a chief, then items
bought at random while affordable within a random share ``spend`` of the budget, so that the
worth of a budget point can be told apart from the worth of each kind). Two choices make the
design:

- ``menu``: how the items (every type with trait none, invisible or teleporter) are drawn.
  ``uniform`` (the cost fit's design) draws each item equally often, so the dear ones take most
  of the budget: at the 1995 costs a fortress teleporter (22 points) is bought as often as a
  hovercraft (2), and an army of 61 points holds fewer than two armies. ``by-cost`` weighs each
  item by 1 / its cost, so that every item takes the same share of the budget on average:
  armies hold the many cheap pieces real armies are made of (every agent's own army is mostly
  armies and hovercraft), and the counts of the cheap kinds, which the uniform menu keeps low,
  vary enough to price them.
- ``spend``: the range of the share of the budget an army spends, drawn per army: the cost fit
  draws 30–100 %, a values study 10–100 % (armies of every size, from a chief and one piece
  up), which tells the worth of a budget point, and with it every value, more precisely.
- ``outcome``: what the value fit reads of each game (:func:`~antipolix.balance.values.
  estimate_games`): ``winner`` (the cost fit's: who won, draws left out) or ``order`` (every
  elimination: who fell first among all, next among those left, ...).

Values are averages over the armies a design draws (a piece is worth less in an army that
already holds many of its kind), so two designs can give a kind different values; the report
names its design. ``experiments/values_design.py`` measures the games each design needs for an
interval of a given width.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from antipolix.agents import Agent, RandomArmy, agent_named
from antipolix.balance.values import OUTCOMES, BalanceError
from antipolix.checks import is_plain_number
from antipolix.rules import Rules

SPEND = (0.3, 1.0)  # the cost fit's share of the budget each random army spends, drawn uniformly
VALUES_SPEND = (0.1, 1.0)  # a values study's: armies of every size, from a chief and a piece up
MENUS = ("by-cost", "uniform")


@dataclass(frozen=True)
class Design:
    """A balancing study's design: the item ``menu`` (``by-cost`` or ``uniform``), the
    ``outcome`` fitted (``order`` or ``winner``) and the ``spend`` range (shares of the budget,
    ``0 <= low <= high <= 1``)."""

    menu: str = "by-cost"
    outcome: str = "order"
    spend: tuple[float, float] = VALUES_SPEND

    def __post_init__(self) -> None:
        if self.menu not in MENUS:
            raise BalanceError(f"menu must be one of {', '.join(MENUS)}, got {self.menu!r}")
        if self.outcome not in OUTCOMES:
            raise BalanceError(
                f"outcome must be one of {', '.join(OUTCOMES)}, got {self.outcome!r}"
            )
        try:
            low, high = self.spend
        except (TypeError, ValueError):
            raise BalanceError(f"spend must be (low, high), got {self.spend!r}") from None
        if not (is_plain_number(low) and is_plain_number(high) and 0 <= low <= high <= 1):
            raise BalanceError(f"spend needs 0 <= low <= high <= 1, got {self.spend!r}")
        object.__setattr__(self, "spend", (float(low), float(high)))

    def army(self, rules: Rules) -> RandomArmy:
        """The random army policy of this design under ``rules`` (its costs set the weights)."""
        base = RandomArmy(spend=self.spend)
        if self.menu == "uniform":
            return base
        weights = tuple(1.0 / max(rules.piece_cost(k, t), 1) for k, t in base.menu)
        return RandomArmy(weights=weights, spend=self.spend)

    def agent(self, agent: Agent | str, rules: Rules) -> Agent:
        """A copy of ``agent`` (an agent or a built-in agent's name) playing this design's
        random armies under ``rules``."""
        base = agent_named(agent) if isinstance(agent, str) else agent
        if not isinstance(base, Agent):
            raise BalanceError(f"agent must be an Agent or a built-in agent name, got {agent!r}")
        out = copy.deepcopy(base)
        out.army_policy = self.army(rules)
        return out

    def spec(self) -> dict[str, Any]:
        return {"menu": self.menu, "outcome": self.outcome, "spend": list(self.spend)}

    def describe(self) -> str:
        """The design in a sentence of a report."""
        menu = (
            "each item weighted by 1 / its cost, so that every item takes the same share of "
            "the budget on average"
            if self.menu == "by-cost"
            else "every item equally likely"
        )
        outcome = (
            "every elimination read as a choice of who falls next among the players still in "
            "the game (a drawn game still tells who fell first)"
            if self.outcome == "order"
            else "who won each decided game (draws left out)"
        )
        return (
            f"Random armies (every type with trait none, invisible or teleporter, {menu}; "
            f"bought while affordable within a random {self.spend[0]:.0%}–{self.spend[1]:.0%} "
            f"of the budget); values fitted from {outcome}."
        )


CLASSIC = Design(menu="uniform", outcome="winner", spend=SPEND)  # the cost fit's (fit_costs)
