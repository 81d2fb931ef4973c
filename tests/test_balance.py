"""Balancing: the value fit on synthetic games with known values, bad input, and (slow) real
studies with a planted underpriced kind (R2: costs are additive, type cost + trait cost)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from antipolix import Rules
from antipolix.balance import KINDS, BalanceError, CostFit, estimate, fit_costs, kind_counts
from antipolix.balance.fit import check_rules
from antipolix.balance.report import conclusion, measures_table
from antipolix.balance.values import ValueEstimate, kind_cost
from antipolix.cli import main
from antipolix.config import apply_overrides
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


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("budget=1", "the budget of 1 cannot buy a chief"),
        ("army.cost=-2", "army.cost must be an integer >= 0, got -2"),
        ("army.cost=0", "army cost 0"),
    ],
)
def test_balance_command_refuses_bad_rules_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rule: str, message: str
) -> None:
    out = tmp_path / "study"
    assert main(["balance", "--out", str(out), "--rule", rule, "--workers", "0"]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_the_report_says_why_the_fit_stopped() -> None:
    """Converged, stuck at whole-point costs, or cut by the iteration limit: three verdicts."""
    costs = {"army": 3, "hovercraft": 2, "fortress": 12, "invisible": 5, "teleporter": 10}
    estimate_ = ValueEstimate(pd.DataFrame(), games=500, decided=480, players=4)

    def fit(converged: bool, proposed: dict[str, int]) -> CostFit:
        return CostFit(
            rules=Rules(),
            agent_name="greedy",
            costs=[costs],
            estimates=[estimate_],
            converged=converged,
            proposed=proposed,
        )

    assert "no kind is measurably under- or overpriced" in conclusion(fit(True, costs))
    assert "500 games" in conclusion(fit(True, costs))
    assert "rounds to the same costs" in conclusion(fit(False, costs))
    limit = conclusion(fit(False, costs | {"army": 4}))
    assert "iteration limit (1)" in limit and "not a balanced table" in limit


def test_the_report_tracks_draws_and_game_length_per_iteration() -> None:
    games = [
        pd.DataFrame(
            {
                "winner": [0, 1, None, 0],
                "reason": ["last_player", "last_player", "turn_limit", "last_player"],
                "turns": [10, 20, 1000, 30],
            }
        ),
        pd.DataFrame(
            {"winner": [None, None], "reason": ["turn_limit", "all_quit"], "turns": [5, 7]}
        ),
    ]
    fit = CostFit(rules=Rules(players=2), agent_name="greedy", games=games)
    table = measures_table(fit).set_index("iteration")
    assert table.loc[0, "draws"] == "25.0%" and table.loc[0, "turn limit"] == "25.0%"
    assert table.loc[0, "median turns"] == 25
    assert table.loc[0, "seat gap (best − worst win rate)"] == "25.0%"  # 2/4 against 1/4
    assert table.loc[1, "draws"] == "100.0%" and table.loc[1, "turn limit"] == "50.0%"


# -- real studies (played games) ------------------------------------------------------------------

SMALL = Rules(shape=(4, 8, 8), players=2, max_turns=150, budget=20)


def test_planted_underpriced_army_is_flagged_and_its_cost_raised() -> None:
    """R2 planted: an army (strength 2) at cost 1 must stand out and be priced up."""
    rules = apply_overrides(SMALL, ["army.cost=1"])
    fit = fit_costs(rules, "greedy", 300, 1, seed=1, workers=0)
    table = fit.estimates[0].table.set_index("kind")
    others = table.drop(index="army")
    assert table.loc["army", "ratio_low"] > others["ratio_high"].max()
    assert fit.proposed["army"] > 1
    assert not fit.converged


@pytest.fixture(scope="module")
def small_study(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CostFit]:
    folder = tmp_path_factory.mktemp("study") / "a"
    fit = fit_costs(SMALL, "greedy", 60, 2, seed=4, workers=0, out=folder)
    return folder, fit


def test_a_study_folder_holds_games_costs_plots_and_report(
    small_study: tuple[Path, CostFit],
) -> None:
    folder, fit = small_study
    assert (folder / "iteration-0").is_dir()
    costs = json.loads((folder / "costs.json").read_text())
    assert costs["proposed"] == fit.proposed
    assert len(costs["iterations"]) == len(fit.estimates)
    assert pd.read_csv(folder / "costs.csv")["iteration"].tolist()[-1] == "proposed"
    for plot in ("values.png", "convergence.png", "seats.png"):
        assert (folder / "plots" / plot).stat().st_size > 1000
    report = (folder / "report.md").read_text()
    assert "## Proposed costs" in report and "plots/values.png" in report


def test_the_same_study_seed_gives_the_same_proposed_costs(
    small_study: tuple[Path, CostFit], tmp_path: Path
) -> None:
    _, first = small_study
    again = fit_costs(SMALL, "greedy", 60, 2, seed=4, workers=0, out=tmp_path / "b")
    assert again.costs == first.costs
    assert again.proposed == first.proposed
    pd.testing.assert_frame_equal(again.iterations, first.iterations)


def test_a_study_folder_of_other_rules_is_refused_before_any_game(
    small_study: tuple[Path, CostFit],
) -> None:
    folder, _ = small_study
    other = apply_overrides(SMALL, ["hovercraft.cost=1"])
    with pytest.raises(BalanceError, match="holds a different balancing study"):
        fit_costs(other, "greedy", 60, 2, seed=4, workers=0, out=folder)


def test_resuming_a_finished_study_plays_nothing_new(small_study: tuple[Path, CostFit]) -> None:
    folder, first = small_study
    files = sorted(p.name for p in (folder / "iteration-0").iterdir())
    again = fit_costs(SMALL, "greedy", 60, 2, seed=4, workers=0, out=folder)
    assert sorted(p.name for p in (folder / "iteration-0").iterdir()) == files
    assert again.proposed == first.proposed


@pytest.mark.slow
def test_planted_underpriced_army_on_the_default_board() -> None:
    rules = apply_overrides(Rules(), ["army.cost=1"])
    fit = fit_costs(rules, "greedy", 600, 1, seed=3)
    table = fit.estimates[0].table.set_index("kind")
    assert table.loc["army", "ratio_low"] > table.drop(index="army")["ratio_high"].max()
    assert fit.proposed["army"] > 1
