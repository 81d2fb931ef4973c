"""Balancing: the value fit on synthetic games with known values, bad input, and (slow) real
studies with a planted underpriced kind (R2: costs are additive, type cost + trait cost)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from antipolix import Rules
from antipolix.balance import KINDS, BalanceError, estimate, fit_costs, kind_counts
from antipolix.balance.fit import check_rules
from antipolix.balance.values import kind_cost
from antipolix.pieces import TypeSpec


def synthetic_players(beta: dict[str, float], games: int, players: int, seed: int) -> pd.DataFrame:
    """Games whose winner is drawn from a conditional logit with the given log-odds per piece."""
    rng = np.random.default_rng(seed)
    rows = []
    b = np.array([beta[k] for k in KINDS])
    for game in range(games):
        counts = rng.integers(0, 6, size=(players, len(KINDS)))
        counts[:, 2] = rng.integers(0, 2, size=players)  # few fortresses, as in real armies
        logits = counts @ b
        p = np.exp(logits - logits.max())
        winner = int(rng.choice(players, p=p / p.sum()))
        for seat in range(players):
            rows.append(
                {"game": game, "seat": seat, "won": seat == winner}
                | dict(zip(KINDS, counts[seat].tolist(), strict=True))
            )
    return pd.DataFrame(rows)


def test_kind_counts_counts_types_and_paid_traits_not_the_chief() -> None:
    counts = kind_counts(["army+chief", "hovercraft+invisible", "fortress+teleporter", "army"])
    assert counts == {
        "army": 1,
        "hovercraft": 1,
        "fortress": 1,
        "invisible": 1,
        "teleporter": 1,
    }


def test_values_recover_known_log_odds_in_budget_points() -> None:
    # log-odds per piece proportional to cost: every kind is fairly priced (ratio 1)
    rules = Rules()
    per_point = 0.08
    beta = {k: per_point * kind_cost(rules, k) for k in KINDS}
    est = estimate(synthetic_players(beta, 3000, 4, seed=1), rules)
    table = est.table.set_index("kind")
    for kind in KINDS:
        row = table.loc[kind]
        assert row["value_low"] <= kind_cost(rules, kind) <= row["value_high"], kind
        assert row["ratio_low"] <= 1.0 <= row["ratio_high"], kind


def test_values_flag_an_underpriced_kind() -> None:
    # hovercraft worth four times its cost, the rest fairly priced
    rules = Rules()
    beta = {k: 0.08 * kind_cost(rules, k) for k in KINDS}
    beta["hovercraft"] *= 4
    table = estimate(synthetic_players(beta, 3000, 4, seed=2), rules).table.set_index("kind")
    others = table.drop(index="hovercraft")
    assert table.loc["hovercraft", "ratio_low"] > others["ratio_high"].max()


def test_draws_are_left_out_and_too_few_games_refused() -> None:
    rules = Rules()
    players = synthetic_players({k: 0.1 for k in KINDS}, 10, 4, seed=3)
    with pytest.raises(BalanceError, match="only 10 decided games"):
        estimate(players, rules)
    drawn = players.assign(won=False)
    with pytest.raises(BalanceError, match="only 0 decided games"):
        estimate(drawn, rules)
    with pytest.raises(BalanceError, match="lacks columns"):
        estimate(players.drop(columns=["invisible"]), rules)


def test_r2_a_type_that_costs_nothing_cannot_be_priced() -> None:
    table = dataclasses.replace(
        Rules().piece_types, hovercraft=TypeSpec(cost=0, strength=1, move=2)
    )
    rules = Rules(piece_types=table)
    with pytest.raises(BalanceError, match="hovercraft cost 0"):
        check_rules(rules)
    with pytest.raises(BalanceError, match="games per iteration must be a positive integer"):
        fit_costs(Rules(), "greedy", 0, 2, seed=1)
    with pytest.raises(BalanceError, match="iterations must be a positive integer"):
        fit_costs(Rules(), "greedy", 10, 0, seed=1)
