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
from antipolix.codec import apply_overrides
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
    with pytest.raises(BalanceError, match="hovercraft costs 0"):
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
        ("army.cost=0", "balance cannot price a free piece: army costs 0"),
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


# -- what a new user hits: nonsense refused, studies that cannot price a kind, folders ----------


@pytest.mark.parametrize("step", ["nan", "inf", "-1", "0", "5", "x"])
def test_nonsense_steps_are_refused_before_any_game_or_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], step: str
) -> None:
    out = tmp_path / "study"
    with pytest.raises(SystemExit) as exit_info:
        main(["balance", "--out", str(out), "--workers", "0", f"--step={step}"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("antipolix: error: argument --step: ") and err.count("\n") == 1
    assert "above 0 and at most 1" in err or "is not a number" in err
    assert not out.exists()
    if step != "x":
        with pytest.raises(BalanceError, match="step must be a number above 0 and at most 1"):
            fit_costs(SMALL, "greedy", 10, 1, seed=1, workers=0, out=out, step=float(step))
        assert not out.exists()


def test_r2_balance_explains_why_it_cannot_price_a_free_piece_that_play_accepts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    free = ["--rule", "hovercraft.cost=0", "--rule", "max_turns=30"]
    assert main(["play", "--agents", "random,random", *free]) == 0  # valid rules (R2)
    capsys.readouterr()
    assert main(["balance", "--out", str(tmp_path / "b"), *free]) == 2
    err = capsys.readouterr().err
    assert err.startswith("antipolix: error: balance cannot price a free piece: hovercraft")
    assert "play and simulate accept free pieces" in err and "hovercraft.cost=1" in err


def test_a_kind_no_army_can_buy_is_reported_never_counted_converged(tmp_path: Path) -> None:
    """4 players on 4×8×8: a budget of 7, so no army holds a fortress (12) or a teleporter;
    the study says so, keeps their costs and writes its whole report (it died on a KeyError)."""
    rules = Rules(shape=(4, 8, 8), max_turns=300)
    out = tmp_path / "study"
    fit = fit_costs(rules, "greedy", 60, 1, seed=0, workers=0, out=out)
    assert set(fit.unestimated) == {"fortress", "invisible", "teleporter"}
    assert "a fortress costs 12 and an army has 5 points" in fit.unestimated["fortress"]
    assert not fit.converged
    assert fit.verdict.startswith("not converged: fortress, invisible, teleporter")
    for kind in fit.unestimated:
        assert fit.proposed[kind] == kind_cost(rules, kind)  # not moved
    table = fit.estimates[-1].table.set_index("kind")
    assert list(table.index) == list(KINDS)
    assert not table.loc["fortress", "estimated"] and np.isnan(table.loc["fortress", "value"])
    saved = json.loads((out / "costs.json").read_text(), parse_constant=pytest.fail)  # no NaN
    fortress = next(v for v in saved["iterations"][0]["values"] if v["kind"] == "fortress")
    assert fortress["value"] is None and fortress["estimated"] is False
    report = (out / "report.md").read_text()
    assert "The games could not price fortress, invisible, teleporter" in report
    assert "fortress could not be estimated (no army held one" in report
    assert (out / "plots" / "values.png").stat().st_size > 1000


def test_a_simulate_study_folder_is_refused_and_left_readable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "sim"
    argv = ["simulate", "--games", "3", "--workers", "0", "--agents", "random,random"]
    assert main([*argv, "--rule", "shape=4,8,8", "--out", str(folder), "--no-progress"]) == 0
    before = sorted(p.name for p in folder.iterdir())
    capsys.readouterr()
    assert main(["balance", "--out", str(folder), "--workers", "0", "--rule", "shape=4,8,8"]) == 2
    err = capsys.readouterr().err
    assert "holds a simulate study (_study.json)" in err and err.count("\n") == 1
    assert sorted(p.name for p in folder.iterdir()) == before
    assert len(pd.read_parquet(folder)) == 3
    other = tmp_path / "notes"
    other.mkdir()
    (other / "mine.txt").write_text("keep me")
    with pytest.raises(BalanceError, match="is not empty and holds no balancing study"):
        fit_costs(SMALL, "greedy", 10, 1, seed=1, workers=0, out=other)
    assert [p.name for p in other.iterdir()] == ["mine.txt"]


def test_a_study_too_small_to_fit_runs_again_with_more_games_keeping_its_games(
    tmp_path: Path,
) -> None:
    out = tmp_path / "study"
    with pytest.raises(BalanceError, match="run again with more games per iteration") as info:
        fit_costs(SMALL, "greedy", 8, 2, seed=4, workers=0, out=out)
    assert "only" in str(info.value) and "decided games" in str(info.value)
    first = {p.name: p.read_bytes() for p in (out / "iteration-0").glob("*.parquet")}
    assert first
    fit = fit_costs(SMALL, "greedy", 60, 2, seed=4, workers=0, out=out)
    after = {p.name: p.read_bytes() for p in (out / "iteration-0").glob("*.parquet")}
    assert all(after[name] == data for name, data in first.items())  # the 8 games were kept
    assert sum(len(pd.read_parquet(out / "iteration-0" / n)) for n in after) == 60
    fresh = fit_costs(SMALL, "greedy", 60, 2, seed=4, workers=0, out=tmp_path / "fresh")
    assert fit.costs == fresh.costs and fit.proposed == fresh.proposed  # same games, same fit
    with pytest.raises(BalanceError, match="ask for 60 or more"):
        fit_costs(SMALL, "greedy", 30, 2, seed=4, workers=0, out=out)


def test_the_seat_plot_draws_the_fair_share_net_of_draws(tmp_path: Path) -> None:
    """Four seats that each win exactly their share of the 80 % of games not drawn: the dashed
    fair-share line must run along the tops of the bars (1/4 would float above them all)."""
    import imageio.v2 as imageio

    from antipolix.balance.report import fair_share, plot_seats, seat_table
    from viz.palette import rgb

    winners = [0, 1, 2, 3] * 20 + [None] * 20
    games = pd.DataFrame(
        {
            "winner": winners,
            "reason": ["turn_limit" if w is None else "last_player" for w in winners],
            "turns": 10,
        }
    )
    fair = fair_share(games, 4)
    assert fair == pytest.approx(0.2)
    seats = seat_table(games, 4)
    assert seats["win_rate"].tolist() == pytest.approx([0.2] * 4)
    path = tmp_path / "seats.png"
    plot_seats(seats, path, 4, fair)
    image = imageio.imread(path)[:, :, :3].astype(int)

    def rows_of(colour: str, tolerance: int) -> np.ndarray:
        near = np.abs(image - rgb(colour).astype(int)).max(axis=2) <= tolerance
        return np.flatnonzero(near.sum(axis=1) >= 3)

    bar_top = rows_of("#009E73", 10).min()  # the bars' green, top edge
    line = rows_of("#666666", 12)  # the dashed line (0.4 grey), wide rows only
    line = line[np.isin(line, np.flatnonzero((np.abs(image - 102).max(axis=2) <= 12).sum(1) > 40))]
    assert len(line), "no fair-share line drawn"
    assert abs(int(np.median(line)) - int(bar_top)) <= 3


def test_the_report_carries_the_cautions_a_designer_needs() -> None:
    from antipolix.balance.report import cautions

    games = [
        pd.DataFrame({"winner": [0, 1, 0, None], "reason": ["last_player"] * 3 + ["turn_limit"]}),
        pd.DataFrame({"winner": [0, None, None, None], "reason": ["last_player"] + ["x"] * 3}),
    ]
    fit = CostFit(
        rules=Rules(),
        agent_name="greedy",
        games=games,
        proposed={"army": 11, "hovercraft": 3, "fortress": 1, "invisible": 5, "teleporter": 1},
    )
    text = "\n".join(cautions(fit))
    assert "values are those of the `greedy` agent's play" in text
    assert "Draws rose from 25% of games at the start to 75% at the last iteration" in text
    assert "fortress, teleporter are proposed at the lowest cost, 1 point" in text
    steady = CostFit(rules=Rules(), agent_name="greedy", games=[games[0], games[0]], proposed={})
    assert len(cautions(steady)) == 1  # only whose play it measures


def test_a_study_that_stops_leaves_its_report_with_the_verdict_on_top(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """4 players on 4×8×8 (budget 7): three kinds cannot be bought, and the fit of the two
    left fails ("worth nothing on average"). The command still ends in one line, and the
    folder holds the report (verdict and reason first), its plot and its cost tables."""
    out = tmp_path / "bal-small"
    argv = ["balance", "--games-per-iteration", "300", "--iterations", "2"]
    assert main([*argv, "--rule", "shape=4,8,8", "--out", str(out), "--workers", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("antipolix: error: iteration 1: the fitted pieces are worth nothing")
    assert err.endswith(f"what the study had is in {out / 'report.md'}")
    report = (out / "report.md").read_text()
    head = report.split("\n## ")[0]
    assert "**Verdict: stopped at iteration 1: the fitted pieces are worth nothing" in head
    assert "fortress, invisible and teleporter cannot be priced under these rules" in head
    assert "a fortress costs 12 and an army has 5 points" in head
    assert "## Balance measures (the iteration it stopped at)" in report
    for plot in ("values.png", "convergence.png", "seats.png"):
        assert (out / "plots" / plot).stat().st_size > 1000
    costs = pd.read_csv(out / "costs.csv")
    assert costs["iteration"].tolist() == ["0", "1", "proposed"]
    assert json.loads((out / "costs.json").read_text())["stopped"].startswith("iteration 1")
