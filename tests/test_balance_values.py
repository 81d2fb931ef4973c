"""Values by skill: the choice fits (winner, elimination order) on synthetic games with known
values, the joint covariance of fits on common seeds and the skill line, the ladder ratings,
restricted play, precision stopping, and (real games on a small board) a planted variant whose
true ordering is known: an army at cost 1 underpriced under every agent, a fortress of
strength 0 overpriced under every agent (R2: costs are additive, type cost + trait cost)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from antipolix import Rules
from antipolix.agents import FixedArmy, MixedArmy, agent_label, agent_named
from antipolix.agents.army import GivenArmy, RandomArmy, without_kind
from antipolix.agents.tuned import doctrine_army
from antipolix.balance import (
    KINDS,
    BalanceError,
    Design,
    estimate,
    estimate_games,
    restricted_play,
    skill_axis,
    skill_report,
    values_by_skill,
)
from antipolix.balance.ratings import committed_fingerprint, committed_tables
from antipolix.balance.report import clock_share
from antipolix.balance.skill import (
    VALUE_COLUMNS,
    fit_line,
    joint_covariance,
    skill_table,
    values_table,
    verdict,
)
from antipolix.balance.values import kind_cost, players_table
from antipolix.cli import Terminated, main
from antipolix.codec import apply_overrides, item_name

ROOT = Path(__file__).resolve().parents[1]
COSTS = np.array([3.0, 2.0, 12.0, 5.0, 10.0])  # the 1995 costs of KINDS (R2)


def synthetic_games(
    beta: np.ndarray, games: int, seed: int, *, players: int = 4, uniforms: int | None = None
) -> pd.DataFrame:
    """Games whose elimination order follows a Plackett–Luce model read from the last place
    up (the first out drawn with odds exp(−β·x) among all, the next among those left; the last
    one standing wins), armies drawn from ``seed``; the draws of the order from ``uniforms``
    (default ``seed``): two tables with the same ``seed`` and different ``beta`` are games of
    two agents on common seeds, correlated through the same uniforms."""
    rng = np.random.default_rng(seed)
    draw = np.random.default_rng(seed if uniforms is None else uniforms)
    counts = rng.integers(0, 6, size=(games, players, len(KINDS)))
    counts[:, :, 2] = rng.integers(0, 3, size=(games, players))  # few fortresses
    u = draw.random((games, players))
    weight = np.exp(-(counts @ beta))  # odds of falling next, per seat
    alive = np.ones((games, players), dtype=bool)
    order = np.zeros((games, players - 1), dtype=np.int64)
    for step in range(players - 1):
        w = np.where(alive, weight, 0.0)
        cum = np.cumsum(w, axis=1) / w.sum(axis=1, keepdims=True)
        out = np.minimum((cum < u[:, step : step + 1]).sum(axis=1), players - 1)
        out = np.where(alive[np.arange(games), out], out, np.argmax(alive, axis=1))
        order[:, step] = out
        alive[np.arange(games), out] = False
    return pd.DataFrame(
        {
            "game": np.arange(games),
            "winner": np.argmax(alive, axis=1).tolist(),
            "reason": "last_player",
            "turns": 100,
            "elimination_order": order.tolist(),
            "seconds": 0.0,
            "kinds": [
                [dict(zip(KINDS, map(int, c), strict=True)) for c in seats] for seats in counts
            ],
        }
    )


FAIR = 0.08 * COSTS  # log-odds per piece proportional to cost: every kind fairly priced


def test_the_winner_fit_is_the_conditional_logit_of_the_cost_fit() -> None:
    games = synthetic_games(FAIR, 1500, seed=1)
    ours = estimate_games(games, Rules(), "winner").table.set_index("kind")
    table = players_table(games["game"].tolist(), games["winner"].tolist(), games["kinds"].tolist())
    theirs = estimate(table, Rules()).table.set_index("kind")  # statsmodels ConditionalLogit
    for column in ("value", "value_low", "value_high", "beta"):
        assert np.allclose(ours[column], theirs[column], atol=1e-3), column


def test_the_order_fit_recovers_fair_prices_with_narrower_intervals() -> None:
    games = synthetic_games(FAIR, 2000, seed=2)
    order = estimate_games(games, Rules(), "order").table.set_index("kind")
    winner = estimate_games(games, Rules(), "winner").table.set_index("kind")
    se = (order["ratio_high"] - order["ratio_low"]) / (2 * 1.959963984540054)
    assert ((order["ratio"] - 1.0).abs() < 4 * se).all()  # each kind: P(fail) < 1e-4
    width = lambda t: t["ratio_high"] - t["ratio_low"]  # noqa: E731
    # three eliminations a game against one winner: every interval narrower
    assert (width(order) < 0.85 * width(winner)).all()


def test_the_order_fit_flags_a_planted_underpriced_kind() -> None:
    beta = FAIR.copy()
    beta[1] *= 4  # hovercraft worth four times its cost
    table = estimate_games(synthetic_games(beta, 2000, seed=3), Rules(), "order").table
    table = table.set_index("kind")
    assert table.loc["hovercraft", "ratio_low"] > table.drop(index="hovercraft")["ratio_high"].max()
    assert verdict(table.loc["hovercraft", "ratio_low"], table.loc["hovercraft", "ratio_high"]) == (
        "underpriced"
    )


def test_a_kind_whose_holders_always_win_is_not_estimated_and_says_why() -> None:
    games = synthetic_games(FAIR, 800, seed=4)
    for g in range(0, 800, 40):  # 20 games: one fortress, held by the winner
        kinds = [dict(k, fortress=0) for k in games.at[g, "kinds"]]
        kinds[games.at[g, "winner"]]["fortress"] = 1
        games.at[g, "kinds"] = kinds
    for g in range(800):
        if g % 40:
            games.at[g, "kinds"] = [dict(k, fortress=0) for k in games.at[g, "kinds"]]
    table = estimate_games(games, Rules(), "order").table.set_index("kind")
    assert not table.loc["fortress", "estimated"]
    assert "always did better" in table.loc["fortress", "note"]
    assert table.drop(index="fortress")["estimated"].all()


def test_too_few_games_and_bad_outcomes_are_refused() -> None:
    with pytest.raises(BalanceError, match="only 9 eliminations"):
        estimate_games(synthetic_games(FAIR, 3, seed=5), Rules(), "order")
    with pytest.raises(BalanceError, match="outcome must be one of order, winner"):
        estimate_games(synthetic_games(FAIR, 30, seed=5), Rules(), "places")
    with pytest.raises(BalanceError, match="menu must be one of by-cost, uniform"):
        Design(menu="cheap")


# -- the joint covariance and the skill line -----------------------------------------------------


def test_the_joint_covariance_of_a_fit_with_itself_is_its_variance() -> None:
    est = estimate_games(synthetic_games(FAIR, 1500, seed=6), Rules(), "order")
    cov = joint_covariance([est, est], "army")
    se = (
        est.table.set_index("kind").loc["army", "value_high"]
        - est.table.set_index("kind").loc["army", "value"]
    ) / 1.959963984540054
    assert cov[0, 1] == pytest.approx(cov[0, 0])
    assert math.sqrt(cov[0, 0]) == pytest.approx(se, rel=0.15)  # the sandwich ≈ the model's
    other = synthetic_games(FAIR, 1500, seed=7).assign(game=lambda t: t["game"] + 10_000)
    apart = joint_covariance([est, estimate_games(other, Rules(), "order")], "army")
    assert apart[0, 1] == 0.0  # no game in common


def test_a_straight_line_in_rating_is_recovered_with_its_interval() -> None:
    ratings = np.array([400.0, 700.0, 800.0])
    values = 2.0 + 0.5 * ratings / 100  # 0.5 points per 100 Elo
    line = fit_line("army", ["a", "b", "c"], values, ratings, np.diag([0.04, 0.09, 0.01]))
    assert line.slope == pytest.approx(0.5)
    assert line.intercept == pytest.approx(2.0)
    assert line.p == pytest.approx(1.0)  # on the line
    assert line.slope_low < 0.5 < line.slope_high
    assert line.at(600.0)[0] == pytest.approx(5.0)
    bent = fit_line(
        "army", ["a", "b", "c"], values + np.array([0, 3, 0]), ratings, np.diag([0.04] * 3)
    )
    assert bent.p < 0.001


def linear_beta(rating: float) -> np.ndarray:
    """Log-odds per piece whose values in points are exactly linear in ``rating``: the army
    worth 3 points at 300 Elo and 5 at 900 (1/3 point per 100 Elo), the hovercraft losing what
    the army gains (counts average 2.5 for both, so the average spent point stays worth 1),
    the others at their cost."""
    army = 3 + 2 * (rating - 300) / 600
    values = COSTS.copy()
    values[0], values[1] = army, 2 - (army - 3)
    return 0.08 * values


def test_common_seeds_narrow_the_slope_and_its_interval_covers_the_truth() -> None:
    """Three agents on common seeds (the same armies and the same uniforms), the army's value
    rising by 1/3 point per 100 Elo: over 20 replicates the slope's 95 % interval holds the true
    slope in at least 16 (binomial: P(fewer) < 0.3 % at 95 % coverage), and common seeds give
    a smaller standard error than independent seeds would in at least 16."""
    ratings = {"weak": 300.0, "mid": 600.0, "strong": 900.0}
    rules = Rules()
    covered = narrower = 0
    for rep in range(30):
        estimates = {
            name: estimate_games(
                synthetic_games(linear_beta(r), 600, seed=100 + rep), rules, "order"
            )
            for name, r in ratings.items()
        }
        values = values_table(rules, estimates, ratings)
        _, lines = skill_table(rules, values, estimates)
        line = lines["army"]
        covered += line.slope_low <= 1 / 3 <= line.slope_high
        narrower += line.se < line.se_independent
    assert covered >= 16
    assert narrower >= 16


def test_a_verdict_that_changes_with_skill_is_flagged_in_words() -> None:
    ratings = {"weak": 300.0, "strong": 900.0}
    weak, strong = FAIR.copy(), FAIR.copy()
    weak[1] *= 3  # hovercraft underpriced for the weak agent
    strong[1] /= 4  # overpriced for the strong one
    rules = Rules()
    estimates = {
        "weak": estimate_games(synthetic_games(weak, 2000, seed=8), rules, "order"),
        "strong": estimate_games(synthetic_games(strong, 2000, seed=8), rules, "order"),
    }
    values = values_table(rules, estimates, ratings)
    assert list(values.columns) == VALUE_COLUMNS
    table, _ = skill_table(rules, values, estimates)
    row = table.set_index("kind").loc["hovercraft"]
    assert row["weakest_verdict"] == "underpriced" and row["strongest_verdict"] == "overpriced"
    assert row["depends_on_skill"] and row["slope_high"] < 0
    assert row["flag"].startswith("hovercraft: depends on skill: worth less to stronger players")
    assert "verdict flips: underpriced for weak" in row["flag"]
    assert "but overpriced for strong" in row["flag"]


# -- ratings from a ladder ------------------------------------------------------------------------


def test_the_shipped_ladders_are_the_committed_ones() -> None:
    """The package ships a copy of experiments/results/ladder/*/ratings.csv (an installed
    antipolix has no repository); when a ladder is played again, copy its ratings.csv into
    antipolix/balance/ladders/ and its tuned weights' fingerprint into ladders.json."""
    from antipolix.agents.tuned import weights_fingerprint

    for players, table in committed_tables().items():
        repo = pd.read_csv(
            ROOT / "experiments" / "results" / "ladder" / f"{players}-players" / "ratings.csv"
        )
        pd.testing.assert_frame_equal(table, repo.assign(agent=repo["agent"].astype(str)))
    assert committed_fingerprint() == weights_fingerprint()


def test_agents_are_placed_by_the_committed_ladder_of_their_table_size() -> None:
    four = skill_axis(["greedy", "tuned", "search"], 4)
    assert four.ratings == {"greedy": 362.6, "tuned": 792.0, "search": 835.1}
    assert four.low["tuned"] == 782.7 and four.players == 4
    assert skill_axis(["planner"], 2).ratings == {"planner": 1833.5}
    assert skill_axis(["a", "b"], 4, {"a": 1, "b": np.float64(2.5)}).ratings == {"a": 1.0, "b": 2.5}


def test_an_agent_the_ladder_does_not_rate_is_refused_naming_how_to_rate_it() -> None:
    label = agent_label(agent_named("search:rollouts=4"))
    with pytest.raises(BalanceError) as info:
        skill_axis(["greedy", label], 4)
    text = str(info.value)
    assert text.startswith("search:rollouts=4 has no rating in the committed ladder at 4-player")
    assert "antipolix tournament --agents greedy,search:rollouts=4,search,tuned --players 4" in text
    assert "--ladder" in text and "\n" not in text
    with pytest.raises(BalanceError, match="no committed ladder at 3-player tables"):
        skill_axis(["greedy"], 3)


def test_a_ladder_file_of_another_table_size_or_shape_is_refused(tmp_path: Path) -> None:
    two = tmp_path / "2-players"
    two.mkdir()
    (two / "ratings.csv").write_text("agent,rating\ngreedy,1005\ntuned,2087\n")
    with pytest.raises(BalanceError, match=r"rates agents at 2-player tables .* the study has 4"):
        skill_axis(["greedy"], 4, two / "ratings.csv")
    assert skill_axis(["tuned"], 2, two).ratings == {"tuned": 2087.0}
    bare = tmp_path / "mine.csv"
    bare.write_text("agent,rating\ngreedy,10\n")
    axis = skill_axis(["greedy"], 4, bare)
    assert axis.ratings == {"greedy": 10.0} and "not recorded" in axis.notes[0]
    (tmp_path / "bad.csv").write_text("name,score\ngreedy,1\n")
    with pytest.raises(BalanceError, match="not a ratings table: it has no agent column"):
        skill_axis(["greedy"], 4, tmp_path / "bad.csv")
    (tmp_path / "nan.csv").write_text("agent,rating\ngreedy,x\n")
    with pytest.raises(BalanceError, match="not a finite number"):
        skill_axis(["greedy"], 4, tmp_path / "nan.csv")
    with pytest.raises(BalanceError, match="does not exist"):
        skill_axis(["greedy"], 4, tmp_path / "nowhere")


def test_a_tournament_folder_is_checked_for_its_table_size_and_tuned_weights(
    tmp_path: Path,
) -> None:
    from antipolix.ladder import tournament

    small = Rules(shape=(2, 6, 6), max_turns=40)
    folder = tmp_path / "rated"
    tournament(["random", "greedy"], games=2, rules=small, workers=0, bootstrap=20, out=folder)
    axis = skill_axis(["greedy"], 2, folder)
    assert axis.ratings["greedy"] > 0 and axis.players == 2
    with pytest.raises(BalanceError, match="rated agents at 2-player tables; the study has 4"):
        skill_axis(["greedy"], 4, folder)
    manifest = json.loads((folder / "tournament.json").read_text())
    manifest["agent_specs"][1]["tuned_weights"] = "0000000000000000"
    (folder / "tournament.json").write_text(json.dumps(manifest))
    with pytest.raises(BalanceError, match="with other tuned weights than this antipolix"):
        skill_axis(["greedy"], 2, folder)


# -- restricted play ------------------------------------------------------------------------------


def test_forbidding_a_kind_takes_it_out_of_every_doctrine_and_moves_the_chief() -> None:
    rules = Rules()
    tuned = doctrine_army()
    no_fortress = without_kind(tuned, "fortress")
    assert isinstance(no_fortress, MixedArmy)
    for _, policy in no_fortress.choices:
        assert not any("fortress" in item_name(i) for i in policy.choose(rules, None))  # type: ignore[arg-type]
    no_army = without_kind(FixedArmy({"army": 4, "hovercraft": 1}), "army")
    army = no_army.choose(rules, None)  # type: ignore[arg-type]
    assert item_name(army[0]) == "hovercraft+chief" and {item_name(i) for i in army[1:]} == {
        "hovercraft"
    }
    assert sum(rules.piece_cost(*i) for i in army) > rules.army_budget - 2  # the budget spent
    random = without_kind(RandomArmy(), "teleporter").choose(rules, np.random.default_rng(0))
    assert not any("teleporter" in item_name(i) for i in random)
    given = without_kind(GivenArmy(["army+chief", "army+invisible", "hovercraft"]), "invisible")
    assert [item_name(i) for i in given.choose(rules, None)] == ["army+chief", "hovercraft"]  # type: ignore[arg-type]
    only = without_kind(FixedArmy({"fortress": 1}), "fortress").choose(rules, None)  # type: ignore[arg-type]
    assert [item_name(i) for i in only] == ["army+chief"]


SMALL = Rules(shape=(4, 8, 8), players=2, budget=20, max_turns=150)


def test_restricted_play_rates_what_forbidding_each_kind_costs(tmp_path: Path) -> None:
    """The planner buys armies and hovercraft (4 : 1): without armies (strength 2) it is a
    hovercraft swarm and loses many rating points; a kind it never buys costs nothing to
    forbid and has no loss, with why."""
    result = restricted_play(SMALL, "planner", 30, seed=2, out=tmp_path / "r", workers=0)
    table = result.table.set_index("forbidden")
    assert list(result.table.columns) == ["agent", "forbidden", "rating_loss", "loss_low",
                                          "loss_high", "note"]  # fmt: skip
    assert table.loc["army", "loss_low"] > 0 and table.loc["army", "rating_loss"] > 100
    for kind in ("fortress", "invisible", "teleporter"):
        assert math.isnan(table.loc[kind, "rating_loss"])
        assert "planner never buys" in table.loc[kind, "note"]
    assert sorted(result.ladder.agents) == ["planner", "planner-no-army", "planner-no-hovercraft"]
    assert (tmp_path / "r" / "ratings.csv").is_file()


# -- real studies on a small board ---------------------------------------------------------------

PLANTED = apply_overrides(SMALL, ["army.cost=1", "fortress.strength=0"])


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    folder = tmp_path_factory.mktemp("values") / "planted"
    study = values_by_skill(PLANTED, "greedy,planner,tuned", 300, seed=3, workers=0, out=folder)
    return folder, study


def test_planted_variant_army_underpriced_and_useless_fortress_overpriced_for_every_agent(
    planted: tuple[Path, object],
) -> None:
    """R2 planted: an army (strength 2) at cost 1 is clearly better for its price, and a
    fortress of strength 0 (R8: it adds nothing to a defence) is useless at 12."""
    _, study = planted
    values = study.values.set_index(["kind", "agent"])  # type: ignore[attr-defined]
    for agent in ("greedy", "planner", "tuned"):
        assert values.loc[("army", agent), "verdict"] == "underpriced", agent
        assert values.loc[("fortress", agent), "verdict"] == "overpriced", agent


def test_a_values_study_writes_its_tables_plots_and_report(planted: tuple[Path, object]) -> None:
    folder, study = planted
    values = pd.read_csv(folder / "values.csv")
    assert list(values.columns) == VALUE_COLUMNS
    assert len(values) == 3 * 5 and set(values["verdict"]) <= {
        "underpriced", "overpriced", "fair", "not estimated"
    }  # fmt: skip
    assert values.set_index(["agent", "kind"]).loc[("tuned", "army"), "rating"] == 2087.0
    skill = pd.read_csv(folder / "skill.csv")
    assert skill["kind"].tolist() == list(KINDS) and skill["slope"].notna().all()
    assert list(pd.read_csv(folder / "restricted.csv").columns)[:5] == [
        "agent", "forbidden", "rating_loss", "loss_low", "loss_high"
    ]  # fmt: skip
    assert (folder / "plots" / "skill.png").stat().st_size > 10_000
    report = (folder / "report.md").read_text()
    head, rest = report.split("## In short\n", 1)
    assert "**Verdict: complete (greedy 300, planner 300, tuned 300 games).**" in head
    paragraphs = rest.split("\n## ")[0].strip().split("\n\n")[1:]  # after the one line
    assert [p.split("**")[1] for p in paragraphs] == [k.capitalize() for k in KINDS]
    assert paragraphs[0].startswith("**Army** (costs 1). Worth ")
    assert "Underpriced (worth more than it costs) for every agent measured." in paragraphs[0]
    # every rule the study changed, the planted fortress of strength 0 included (R2)
    made = " ".join(report.split("## How this was made\n", 1)[1].split())
    assert "options changed from the 1995 rules: `shape=4,8,8`, " in made
    assert "`fortress.strength=0`" in made


def test_a_values_study_resumes_without_playing_and_gives_the_same_tables(
    planted: tuple[Path, object],
) -> None:
    folder, study = planted
    files = sorted(p.name for p in (folder / "games" / "tuned").iterdir())
    again = values_by_skill(PLANTED, "greedy,planner,tuned", 300, seed=3, workers=0, out=folder)
    assert sorted(p.name for p in (folder / "games" / "tuned").iterdir()) == files
    pd.testing.assert_frame_equal(again.values, study.values)  # type: ignore[attr-defined]
    with pytest.raises(BalanceError, match="holds a different values study"):
        values_by_skill(PLANTED, "greedy,planner", 300, seed=4, workers=0, out=folder)


def test_agents_share_their_seeds_and_armies() -> None:
    """Common random numbers (R12): game i of every agent starts from the same armies."""
    study = values_by_skill(SMALL, "greedy,planner", 20, seed=9, workers=0)
    greedy, planner = study.games["greedy"], study.games["planner"]
    assert greedy["kinds"].tolist() == planner["kinds"].tolist()
    assert greedy["game"].tolist() == list(range(20))


def test_precision_plays_until_met_or_says_the_cap_stopped_it(tmp_path: Path) -> None:
    met = values_by_skill(SMALL, "greedy", 100, seed=5, precision=2.5, max_games=2000,
                          workers=0)  # fmt: skip
    widest, _ = met.widest()["greedy"]
    assert widest < 2.5 and met.verdict.startswith("precision 2.5 met for every agent")
    capped = values_by_skill(SMALL, "greedy", 100, seed=5, precision=0.05, max_games=150,
                             workers=0, out=tmp_path / "c")  # fmt: skip
    assert len(capped.games["greedy"]) == 150
    assert capped.verdict.startswith("precision 0.05 not met within the cap of 150 games")
    assert any("more than the cap of 150" in n for n in capped.precision_notes)
    assert (
        "more than the cap of 150: it plays to the cap"
        in (tmp_path / "c" / "report.md").read_text()
    )


@pytest.mark.parametrize(
    ("stopping", "words"),
    [(KeyboardInterrupt, "interrupted"), (Terminated, "terminated (SIGTERM)")],
)
def test_a_study_that_stops_leaves_a_report_saying_why(
    tmp_path: Path, stopping: type[KeyboardInterrupt], words: str
) -> None:
    def stop(line: str) -> None:  # (Ctrl-C, or the command's SIGTERM handler)
        if line.startswith("restricted play"):
            raise stopping

    with pytest.raises(stopping):
        values_by_skill(SMALL, "greedy,planner", 40, seed=1, workers=0, out=tmp_path / "s",
                        restricted_games=4, progress=stop)  # fmt: skip
    report = (tmp_path / "s" / "report.md").read_text()
    assert f"**Verdict: stopped: {words} (the games played are kept" in report
    assert len(pd.read_csv(tmp_path / "s" / "values.csv")) == 10


# -- the command ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agents", "greedy,search:rollouts=4", "--games", "10"],
         "search:rollouts=4 has no rating in the committed ladder at 4-player tables"),
        (["--agents", "greedy,planner", "--iterations", "2"],
         "a cost fit (--iterations) plays one agent"),
        (["--games", "10", "--step", "0.5"], "--games is an option of a values study and --step"),
        (["--agents", "greedy,planner", "--ladder", "nowhere.csv"],
         "the ladder nowhere.csv does not exist"),
        (["--agents", "greedy,greedy"], "greedy is named twice"),
        (["--agents", "greedy", "--max-games", "10"], "caps a study stopped by --precision"),
    ],
)  # fmt: skip
def test_the_command_refuses_bad_input_in_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    out = tmp_path / "v"
    assert main(["balance", "--out", str(out), "--workers", "0", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("antipolix: error: ") and message in err and err.count("\n") == 1
    assert not out.exists()


def test_the_command_refuses_a_precision_that_is_not_a_positive_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["balance", "--out", str(tmp_path / "v"), "--precision", "0"])
    assert info.value.code == 2
    assert "must be a positive number" in capsys.readouterr().err


def test_the_command_runs_a_values_study(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "v"
    argv = ["balance", "--agents", "greedy,planner", "--games", "40", "--out", str(out)]
    assert main([*argv, "--workers", "0", "--rule", "shape=4,8,8", "--rule", "players=2",
                 "--rule", "budget=20", "--rule", "max_turns=150"]) == 0  # fmt: skip
    shown = capsys.readouterr().out
    assert (
        "value per cost point (95 %) by kind and agent; ratings: greedy 1005, planner 1834" in shown
    )
    assert f"report: {out / 'report.md'}" in shown
    assert (out / "values.csv").is_file() and (out / "report.md").is_file()
    assert kind_cost(SMALL, "army") == 3


# -- the study scripts ----------------------------------------------------------------------------

TRIAL = ["--rule", "shape=4,8,8", "--rule", "players=2", "--rule", "budget=20",
         "--rule", "max_turns=100"]  # fmt: skip


def test_the_design_script_prints_widths_and_games_ratios(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, str(ROOT / "experiments" / "values_design.py"), "--games", "60",
         "--twins", "20", "--workers", "0", "--out", str(tmp_path / "d"), *TRIAL],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "uniform 30-100 %, winner" in out and "by-cost 10-100 %, order" in out
    assert "one piece pairs" in out and "rotated pairs" in out and "(widest)" in out
    assert "correlation of the same army's finishing place" in out


@pytest.mark.slow
def test_the_committed_study_script_runs_end_to_end(tmp_path: Path) -> None:
    """A trial of experiments/values_by_skill.py on a small board: search at one rollout is
    rated by a short tournament and carried onto the committed scale, every agent's values,
    restricted play for tuned, the files copied with run.txt."""
    import subprocess
    import sys

    results = tmp_path / "results"
    done = subprocess.run(
        [sys.executable, str(ROOT / "experiments" / "values_by_skill.py"), "--games", "40",
         "--search-games", "4", "--search", "search:rollouts=1", "--rate-games", "4",
         "--restricted-games", "2", "--workers", "0", "--out", str(tmp_path / "o"),
         "--results", str(results), *TRIAL],
        capture_output=True, text=True, timeout=1800, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    for name in ("report.md", "values.csv", "skill.csv", "restricted.csv", "run.txt"):
        assert (results / name).is_file(), name
    values = pd.read_csv(results / "values.csv")
    assert set(values["agent"]) == {"greedy", "planner", "tuned", "search:rollouts=1"}
    run = (results / "run.txt").read_text()
    assert "rating search:rollouts=1: 24 games" in run  # 6 pairs at 2-player tables, 4 each
    assert "seconds of play per game" in run and "min on 1 core\n" in run
    report = (results / "report.md").read_text()
    assert "moved by" in report and "onto the committed scale" in report


def test_the_games_table_says_how_many_players_ran_out_of_time() -> None:
    """R7: with clocks of 8 s (time_total 16 for 2 players) some players run out of time; the
    report's games table gives their share of the players out, as the rows count them, and
    the share a study written before the rows said is "–"."""
    rules = apply_overrides(SMALL, ["time_total=16"])
    study = values_by_skill(rules, "greedy", 30, seed=2, workers=0)
    games = study.games["greedy"]
    out = [r for why in games["elimination_reason"] for r in why if r is not None]
    share = out.count("timer") / len(out)
    assert 0 < share < 1
    assert clock_share(games) == share

    def cells() -> list[str]:
        text = skill_report.report(study)
        line = next(row for row in text.splitlines() if row.startswith("| greedy"))
        return [cell.strip() for cell in line.split("|")]

    assert f"{share:.1%}" in cells()
    games["elimination_reason"] = None  # (the rows of before)
    assert clock_share(games) is None
    assert "–" in cells()
