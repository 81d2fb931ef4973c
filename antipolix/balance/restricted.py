"""Restricted play: what an agent loses when it may not buy a kind (Jaffe et al. 2012).

For each priced kind (each type, each paid trait), a copy of the agent whose army policy may not
buy it (:func:`~antipolix.agents.army.without_kind`: the items of that kind leave its army and
their budget goes to the items left, in their proportions; a chief of a forbidden type is a
chief of the other mobile type) plays a rating tournament
(:func:`antipolix.ladder.tournament`: every lineup of the agent and its restricted copies at
the study's table size, every seat order, think times drawn by the engine, R7) against the
unrestricted agent. The rating loss of a kind is the agent's rating minus its copy's, with the
95 % interval of that difference from the tournament's bootstrap over games. A kind that costs
nothing to forbid is one the agent can do without; one whose loss is large is one it needs: a
second answer to "what is it worth", independent of the values fitted from random armies.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from antipolix.agents import Agent, agent_label, agent_named
from antipolix.agents.army import (
    ArmyPolicy,
    FixedArmy,
    GivenArmy,
    MixedArmy,
    RandomArmy,
    holds,
    without_kind,
)
from antipolix.balance.values import BalanceError, kind_cost, priced_kinds
from antipolix.codec import item_name, parse_item
from antipolix.errors import AntipolixError
from antipolix.rules import Rules

RESTRICTED_COLUMNS = ["agent", "forbidden", "rating_loss", "loss_low", "loss_high", "note"]
DRAWS = 64  # armies drawn from a policy to tell whether it ever buys a kind


@dataclass
class Restricted:
    """Restricted play's outcome: ``table`` (:data:`RESTRICTED_COLUMNS`, one row per kind;
    ``note`` says why a kind has no loss), the tournament (``ladder``, None when none was
    played), and ``how`` (in words: what "may not buy" meant for this agent's army)."""

    agent: str
    table: pd.DataFrame
    ladder: Any = None
    how: str = ""
    games: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


def restricted_copy(agent: Agent, kind: str) -> Agent:
    """A copy of ``agent`` that may not buy ``kind``, labelled ``<label>-no-<kind>``."""
    out = copy.deepcopy(agent)
    out.army_policy = without_kind(agent.army_policy, kind)
    out.label = f"{agent_label(agent)}-no-{kind}"
    return out


def buys(policy: ArmyPolicy, rules: Rules, kind: str, draws: int = DRAWS) -> bool:
    """Does ``policy`` ever buy a piece of ``kind`` under ``rules`` (in ``draws`` armies drawn
    from fixed seeds; a fixed army is drawn once)?"""
    for k in range(draws):
        rng = np.random.default_rng(np.random.SeedSequence(k, spawn_key=(0xA4,)))
        try:
            army = policy.choose(rules, rng)
        except AntipolixError:
            return False
        if any(holds(item, kind) for item in army if item[1].name != "CHIEF"):
            return True
        if isinstance(policy, (FixedArmy, GivenArmy)):
            return False
    return False


def plan(
    rules: Rules, agent: Agent | str, kinds: Sequence[str] | None = None
) -> tuple[Agent, list[Agent], dict[str, str]]:
    """The agent, its restricted copies (one per kind it buys under ``rules``) and, per kind
    left out, why (it never buys one; the tables need more agents than there are)."""
    base = agent_named(agent) if isinstance(agent, str) else agent
    if not isinstance(base, Agent):
        raise BalanceError(f"agent must be an Agent or a built-in agent name, got {agent!r}")
    label = agent_label(base)
    wanted = list(priced_kinds(rules)) if kinds is None else list(kinds)
    copies, skipped = [], {}
    for kind in wanted:
        if not buys(base.army_policy, rules, kind):
            skipped[kind] = (
                f"{label} never buys {one_piece(kind)} under these rules (budget "
                f"{rules.army_budget}, {kind} costs {kind_cost(rules, kind)}): forbidding it "
                "changes nothing"
            )
            continue
        copies.append(restricted_copy(base, kind))
    if copies and len(copies) + 1 < rules.players:
        why = (
            f"restricted play at {rules.players}-player tables needs {rules.players} different "
            f"agents; {label} and its restricted copies are {len(copies) + 1}"
        )
        skipped.update({c.label.rsplit("-no-", 1)[1]: why for c in copies if c.label})
        copies = []
    return base, copies, skipped


def restricted_play(
    rules: Rules,
    agent: Agent | str,
    games: int,
    seed: int,
    *,
    kinds: Sequence[str] | None = None,
    out: str | Path | None = None,
    workers: int | None = None,
    progress: bool | Callable[[int, int], None] = False,
) -> Restricted:
    """Rate ``agent`` against copies of itself that may not buy each kind (see the module's
    docstring): ``games`` games per lineup of the tournament (at ``rules.players``-player
    tables; a multiple of 24 at four players plays every seat order equally often), its folder
    ``out`` (resumable, as :func:`~antipolix.ladder.tournament`'s). Returns a
    :class:`Restricted` whose ``table`` has one row per kind."""
    from antipolix.ladder import tournament

    base, copies, skipped = plan(rules, agent, kinds)
    label = agent_label(base)
    wanted = list(priced_kinds(rules)) if kinds is None else list(kinds)
    result = Restricted(agent=label, table=_table(label, wanted, {}, skipped))
    result.how = how(base.army_policy)
    if not copies:
        return result
    ladder = tournament(
        [base, *copies],
        games,
        players=rules.players,
        rules=rules,
        seed=seed,
        out=out,
        workers=workers,
        progress=progress,
    )
    fit = ladder.fit
    names = list(ladder.agents)
    rating = dict(zip(fit.table["agent"], fit.table["rating"], strict=True))
    losses: dict[str, tuple[float, float, float]] = {}
    for c in copies:
        assert c.label is not None
        kind = c.label.rsplit("-no-", 1)[1]
        loss = float(rating[label] - rating[c.label])
        low = high = math.nan
        if len(fit.samples):
            d = fit.samples[:, names.index(label)] - fit.samples[:, names.index(c.label)]
            low, high = (float(v) for v in np.percentile(d, [2.5, 97.5]))
        losses[kind] = (loss, low, high)
    result.table = _table(label, wanted, losses, skipped)
    result.ladder = ladder
    result.games = len(ladder.games)
    result.seconds = float(ladder.seconds)
    return result


def _table(
    agent: str,
    kinds: Sequence[str],
    losses: dict[str, tuple[float, float, float]],
    skipped: dict[str, str],
) -> pd.DataFrame:
    rows = []
    for kind in kinds:
        loss, low, high = losses.get(kind, (math.nan, math.nan, math.nan))
        note = skipped.get(kind, "" if kind in losses else "not played")
        rows.append(
            {"agent": agent, "forbidden": kind, "rating_loss": loss, "loss_low": low,
             "loss_high": high, "note": note}
        )  # fmt: skip
    return pd.DataFrame(rows, columns=RESTRICTED_COLUMNS)


def one_piece(kind: str) -> str:
    """``kind`` as one piece, in words: "an army", "a fortress", "an invisible piece"."""
    noun = kind if kind in ("army", "hovercraft", "fortress") else f"{kind} piece"
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def describe_policy(policy: ArmyPolicy) -> str:
    """An army policy in a few words (a report's)."""
    if isinstance(policy, FixedArmy):
        mix = " : ".join(f"{item_name(parse_item(i))} {w:g}" for i, w in policy.mix.items())
        return f"{mix}, chief {policy.chief.name.lower()}"
    if isinstance(policy, GivenArmy):
        return ", ".join(item_name(i) for i in policy.items)
    if isinstance(policy, RandomArmy):
        return "random purchases from " + ", ".join(item_name(i) for i in policy.menu)
    if isinstance(policy, MixedArmy):
        total = sum(w for w, _ in policy.choices)
        return "; ".join(
            f"{w / total:.0%} of games {describe_policy(p)}" for w, p in policy.choices
        )
    return type(policy).__name__


def how(policy: ArmyPolicy) -> str:
    """What "may not buy a kind" means for an agent with ``policy``, in words."""
    text = (
        "A restricted copy buys no piece of the forbidden kind: its items leave the army and "
        "the budget they took goes to the items left, in their proportions; a chief of a "
        "forbidden type is a chief of the other mobile type (army or hovercraft)."
    )
    if isinstance(policy, MixedArmy):
        text += (
            " This agent draws one of several doctrines per game "
            f"({describe_policy(policy)}); each doctrine keeps its weight and loses the "
            "forbidden items, so a doctrine built around the kind (the fortress guard, the "
            "teleporter network, the invisible raiders) becomes a line of the other pieces "
            "bought with the whole budget."
        )
    else:
        text += f" This agent's army: {describe_policy(policy)}."
    return text
