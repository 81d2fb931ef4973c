"""Ratings: finishing orders broken into comparisons (R10, R11), the Bradley–Terry fit on the Elo
scale, its anchor, its prior against perfect separation, and its bootstrap over games. Synthetic
games are drawn from known strengths with a seeded generator."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pandas as pd
import pytest

from antipolix import Rules, simulate
from antipolix.ladder import ELO, LadderError, finishing_places, fit, fit_ratings
from antipolix.ladder.report import usage_table

TRUE = {"random": 0.0, "greedy": 150.0, "tuned": 300.0, "planner": 450.0}


def game(agents: list[str], winner: int | None, eliminated: list[int], reason: str) -> dict:
    return {"agents": agents, "winner": winner, "elimination_order": eliminated, "reason": reason}


def synthetic(
    strengths: dict[str, float], players: int, per_lineup: int, seed: int
) -> pd.DataFrame:
    """Games of every lineup, seats rotated, finishing orders drawn from the Plackett–Luce
    model of the strengths (Elo): the winner with probability ∝ 10^(rating/400), then the
    runner-up among the rest, and so on; the last place was eliminated first. With two
    players this is Bradley–Terry."""
    rng = np.random.default_rng(seed)
    rows = []
    for lineup in itertools.combinations(strengths, players):
        for g in range(per_lineup):
            seats = list(lineup[g % players :] + lineup[: g % players])
            weight = np.array([10 ** (strengths[a] / 400) for a in seats])
            left, ranking = list(range(players)), []
            while left:
                w = weight[left]
                ranking.append(left.pop(int(rng.choice(len(left), p=w / w.sum()))))
            rows.append(game(seats, ranking[0], ranking[:0:-1], "last_player"))
    return pd.DataFrame(rows)


# -- finishing orders -----------------------------------------------------------------------------


def test_r10_the_winner_first_then_the_last_eliminated() -> None:
    # seat 2 wins; seat 0 went out first, then 3, then 1: places 2 > 1 > 3 > 0
    assert finishing_places(2, [0, 3, 1], "last_player", 4) == [3.0, 1.0, 0.0, 2.0]


def test_r10_in_a_draw_the_players_still_in_tie_ahead_of_the_eliminated() -> None:
    assert finishing_places(None, [1], "turn_limit", 3) == [0.5, 2.0, 0.5]
    assert finishing_places(None, [], "nul", 4) == [1.5, 1.5, 1.5, 1.5]
    assert finishing_places(None, [3, 0], "nul", 4) == [2.0, 0.5, 0.5, 3.0]


def test_r10_all_eliminated_the_last_two_tie() -> None:
    assert finishing_places(None, [0, 1, 2], "all_eliminated", 3) == [2.0, 0.5, 0.5]
    assert finishing_places(None, [1, 0], "all_eliminated", 2) == [0.5, 0.5]


def test_a_four_player_game_gives_six_comparisons() -> None:
    # c wins; a out first, then d, then b: c > b > d > a
    f = fit(
        pd.DataFrame([game(["a", "b", "c", "d"], 2, [0, 3, 1], "last_player")]),
        bootstrap=0,
    )
    ahead = f.ahead.loc[["a", "b", "c", "d"], ["a", "b", "c", "d"]].to_numpy()
    assert ahead.tolist() == [
        [0, 0, 0, 0],
        [1, 0, 0, 1],
        [1, 1, 0, 1],
        [1, 0, 0, 0],
    ]
    assert f.ties.to_numpy().sum() == 0
    t = f.table.set_index("agent")
    assert t["wins"].to_dict() == {"c": 1, "b": 0, "d": 0, "a": 0}
    assert t["losses"].to_dict() == {"c": 0, "b": 1, "d": 1, "a": 1}
    assert t["rating"]["c"] > t["rating"]["b"] > t["rating"]["d"] > t["rating"]["a"]


def test_a_draw_ties_the_survivors_who_beat_the_eliminated() -> None:
    f = fit(pd.DataFrame([game(["a", "b", "c"], None, [1], "turn_limit")]), bootstrap=0)
    assert f.ties.at["a", "c"] == f.ties.at["c", "a"] == 1
    assert f.ties.at["a", "b"] == 0
    assert f.ahead.at["a", "b"] == f.ahead.at["c", "b"] == 1
    assert f.ahead.at["b", "a"] == f.ahead.at["b", "c"] == 0
    t = f.table.set_index("agent")
    assert t["draws"].to_dict() == {"a": 1, "b": 1, "c": 1}
    assert t["wins"].sum() == 0
    assert math.isclose(t["rating"]["a"], t["rating"]["c"], abs_tol=1e-6)


def test_the_same_agent_in_two_seats_is_not_compared_with_itself() -> None:
    f = fit(pd.DataFrame([game(["a", "a", "b"], 0, [2, 1], "last_player")]), bootstrap=0)
    assert f.ahead.at["a", "a"] == 0 and f.ahead.at["a", "b"] == 2
    assert f.table.set_index("agent").at["a", "games"] == 2


# -- the fit ---------------------------------------------------------------------------------------


def test_draws_count_half_a_win_each_way() -> None:
    # a v b: 3 wins, 1 loss, 2 draws: a scores 4 of 6, odds 2, so 400·log10(2) = 120.4 Elo
    rows = [game(["a", "b"], 0, [1], "last_player")] * 3 + [game(["a", "b"], 1, [0], "last_player")]
    rows += [game(["a", "b"], None, [], "turn_limit"), game(["b", "a"], None, [], "nul")]
    t = fit_ratings(pd.DataFrame(rows), prior_sd=1e7, bootstrap=0, anchor="b")
    rating = t.set_index("agent")["rating"]
    assert rating["b"] == 0.0
    assert rating["a"] == pytest.approx(400 * math.log10(2), abs=0.05)


def test_the_prior_is_weak() -> None:
    # 60 games at 75 % (odds 3: 190.8 Elo): the prior moves the estimate by a few points only
    rows = [game(["a", "b"], 0, [1], "last_player")] * 45
    rows += [game(["a", "b"], 1, [0], "last_player")] * 15
    rating = fit_ratings(pd.DataFrame(rows), bootstrap=0, anchor="b").set_index("agent")["rating"]
    mle = 400 * math.log10(3)
    assert mle - 5 < rating["a"] < mle


@pytest.mark.parametrize("players", [2, 4])
def test_known_strengths_are_recovered(players: int) -> None:
    t = fit_ratings(synthetic(TRUE, players, 300, seed=players), bootstrap=200).set_index("agent")
    assert t.at["random", "rating"] == 0.0
    assert list(t.index) == ["planner", "tuned", "greedy", "random"]  # the true order
    for agent, truth in TRUE.items():
        assert abs(t.at[agent, "rating"] - truth) < 60, (agent, t.at[agent, "rating"])
        assert t.at[agent, "high"] - t.at[agent, "low"] < 200  # the interval says something
    assert not t["separated"].any()


@pytest.mark.parametrize("players", [2, 4])
def test_the_intervals_hold_the_true_strengths_95_percent_of_the_time(players: int) -> None:
    """60 seeded tournaments of 60 games per lineup: of the 180 intervals (three agents
    besides the anchor), about 95 % hold the true rating (measured: 92 % and 95 %). Intervals
    that resampled comparisons instead of games, or a biased fit, would hold it far less."""
    hits = []
    for k in range(60):
        t = fit_ratings(synthetic(TRUE, players, 60, seed=100 + k), bootstrap=200, seed=k)
        t = t.set_index("agent")
        hits += [t.at[a, "low"] <= v <= t.at[a, "high"] for a, v in TRUE.items() if v != 0]
    assert 0.88 <= np.mean(hits) <= 0.99, np.mean(hits)


def test_multi_player_games_rate_like_two_player_games() -> None:
    """The same strengths seen through 2- and 4-player tables give the same ladder."""
    two = fit_ratings(synthetic(TRUE, 2, 1500, seed=5), bootstrap=0).set_index("agent")
    four = fit_ratings(synthetic(TRUE, 4, 1500, seed=6), bootstrap=0).set_index("agent")
    for agent in TRUE:
        assert abs(two.at[agent, "rating"] - four.at[agent, "rating"]) < 40, agent


def test_the_gaps_are_the_differences_of_neighbours_in_the_ranking() -> None:
    f = fit(synthetic(TRUE, 2, 100, seed=8), bootstrap=200)
    t, g = f.table, f.gaps
    assert g is not None
    assert g["above"].tolist() == t["agent"].tolist()[:-1]
    assert g["below"].tolist() == t["agent"].tolist()[1:]
    assert np.allclose(g["gap"], -np.diff(t["rating"].to_numpy()))
    assert (g["gap"] > 0).all() and (g["low"] <= g["gap"]).all() and (g["gap"] <= g["high"]).all()
    assert ((g["ordered"] > 0.5) & (g["ordered"] <= 1)).all()
    unsampled = fit(synthetic(TRUE, 2, 20, seed=8), bootstrap=0).gaps
    assert unsampled is not None and unsampled["low"].isna().all()  # no bootstrap, no interval


def test_a_clear_difference_shows_in_its_gap_while_the_rating_intervals_overlap() -> None:
    """Random ahead of the others in 2 games of 100: the gap to it is uncertain (a bootstrap
    draws it from 0 to 5 such games), and that uncertainty, shared by both other ratings,
    widens both intervals; the difference between the two others is measured by their 200
    games (70 % to 30 %, about 147 Elo), and its interval is clear of 0."""
    rows = []
    for k in range(100):
        for a in ("strong", "weak"):
            won = 0 if k < 2 else 1  # random ahead in 2 games
            rows.append(game(["random", a], won, [1 - won], "last_player"))
        first = k < 70  # strong first in 70 of 100 games of each seating
        rows.append(game(["strong", "weak"], 0 if first else 1, [1 if first else 0], "last_player"))
        rows.append(game(["weak", "strong"], 1 if first else 0, [0 if first else 1], "last_player"))
    f = fit(pd.DataFrame(rows), bootstrap=300)
    t = f.table.set_index("agent")
    assert t.at["strong", "low"] < t.at["weak", "high"]  # the ratings' intervals overlap
    assert f.gaps is not None
    gap = f.gaps.set_index("above").loc["strong"]
    assert gap["below"] == "weak" and 0 < gap["low"] < 147 < gap["high"]
    assert gap["ordered"] == 1.0
    assert not f.gaps["prior"].any()  # random finished ahead twice: no gap rests on the prior


def test_perfect_separation_stays_finite_and_is_flagged() -> None:
    rows = [game(["planner", "random"], 0, [1], "last_player")] * 25
    rows += [game(["random", "planner"], 1, [0], "last_player")] * 25
    f = fit(pd.DataFrame(rows), bootstrap=200)
    t = f.table.set_index("agent")
    r = t.at["planner", "rating"]
    assert math.isfinite(r) and 500 < r < 3000
    assert math.isfinite(t.at["planner", "low"]) and math.isfinite(t.at["planner", "high"])
    assert t.at["planner", "separated"] and not t.at["random", "separated"]
    assert any("planner" in n and "floor" in n for n in f.notes)
    assert f.gaps is not None and f.gaps["prior"].tolist() == [True]  # the gap, too
    # more games of the same outcome: a larger gap, still finite
    more = fit_ratings(pd.DataFrame(rows * 8), bootstrap=0).set_index("agent")
    assert r < more.at["planner", "rating"] < 3000


def test_a_rating_only_the_prior_bounds_is_printed_as_such() -> None:
    """Its bootstrap interval has no width (every replicate gives the prior's value): printed
    as numbers it read as exact (``953*``, ``953–953``); the table says ``prior only``."""
    from antipolix.ladder.report import PRIOR, gaps_frame, ratings_frame, summary

    rows = [game(["planner", "random"], 0, [1], "last_player")] * 25
    rows += [game(["random", "planner"], 1, [0], "last_player")] * 25
    f = fit(pd.DataFrame(rows), bootstrap=200)
    t = f.table.set_index("agent")
    assert t.at["planner", "low"] == t.at["planner", "high"]  # the zero width it had
    shown = ratings_frame(f).set_index("agent")
    assert shown.at["planner", "rating"].endswith("*")
    assert shown.at["planner", "95 % low"] == shown.at["planner", "95 % high"] == PRIOR
    assert shown.at["random", "95 % low"] == "0"  # the anchor: exactly 0, by definition
    gaps = gaps_frame(f)
    assert gaps.at[0, "95 % low"] == gaps.at[0, "95 % high"] == PRIOR
    assert re.search(r"^ +1 +planner +\d+\* +prior only +prior only +50 ", summary(f, ""), re.M)


def test_separation_below_the_anchor_is_a_ceiling() -> None:
    rows = [game(["random", "weak"], 0, [1], "last_player")] * 10
    rows += [game(["random", "greedy"], i % 2, [1 - i % 2], "last_player") for i in range(10)]
    f = fit(pd.DataFrame(rows), bootstrap=0)
    t = f.table.set_index("agent")
    assert t.at["weak", "separated"] and not t.at["greedy", "separated"]
    assert t.at["weak", "rating"] < 0
    assert any("weak" in n and "ceiling" in n for n in f.notes)


def test_random_is_the_anchor_and_else_the_first_agent_and_it_says_so() -> None:
    games = synthetic(TRUE, 2, 20, seed=3)
    f = fit(games, bootstrap=50)
    t = f.table.set_index("agent")
    assert f.anchor == "random"
    assert t.at["random", "rating"] == t.at["random", "low"] == t.at["random", "high"] == 0
    assert not any("rated 0" in n for n in f.notes)
    without = games[games["agents"].map(lambda a: "random" not in a)]
    g = fit(without, bootstrap=50)
    assert g.anchor == "greedy"  # the first to appear
    assert g.table.set_index("agent").at["greedy", "rating"] == 0.0
    assert any("no agent named 'random'" in n and "greedy" in n for n in g.notes)
    h = fit(without, agents=["tuned", "greedy", "planner"], bootstrap=0)
    assert h.anchor == "tuned"
    explicit = fit(games, anchor="planner", bootstrap=0).table.set_index("agent")
    assert explicit.at["planner", "rating"] == 0.0
    # differences do not depend on the anchor
    diff = t.at["planner", "rating"] - t.at["greedy", "rating"]
    assert diff == pytest.approx(-explicit.at["greedy", "rating"], abs=1e-6)


def test_the_bootstrap_is_seeded_and_resamples_games() -> None:
    games = synthetic(TRUE, 4, 40, seed=8)
    a = fit(games, bootstrap=100, seed=1)
    b = fit(games, bootstrap=100, seed=1)
    c = fit(games, bootstrap=100, seed=2)
    assert a.table.equals(b.table)
    assert not a.table["low"].equals(c.table["low"])
    assert a.samples.shape == (100, 4)
    t = a.table
    assert ((t["low"] <= t["rating"]) & (t["rating"] <= t["high"])).all()


def test_comparisons_of_one_game_are_resampled_together() -> None:
    """Games where a and b always finish together (both ahead of, or both behind, c and d):
    a game is one draw of luck, four comparisons. Resampling games gives a wider interval for
    a than the same comparisons spread over independent two-player games would."""
    rng = np.random.default_rng(4)
    together, apart = [], []
    for _ in range(200):
        first = rng.random() < 0.6
        order = [2, 3, 1, 0] if first else [0, 1, 3, 2]  # eliminated first … last
        winner = order.pop()
        together.append(game(["a", "b", "c", "d"], winner, order, "last_player"))
        for x, y in itertools.product((0, 1), (2, 3)):
            ahead = rng.random() < 0.6
            pair = [["a", "b"][x], ["c", "d"][y - 2]]
            apart.append(game(pair, 0 if ahead else 1, [1 if ahead else 0], "last_player"))
    wide = fit(pd.DataFrame(together), bootstrap=300, anchor="c").table.set_index("agent")
    narrow = fit(pd.DataFrame(apart), bootstrap=300, anchor="c").table.set_index("agent")
    width = (wide["high"] - wide["low"])["a"]
    assert width > 1.4 * (narrow["high"] - narrow["low"])["a"]


def test_a_results_table_of_simulate_is_rated() -> None:
    results = simulate(
        Rules(shape=(2, 6, 6), players=2, max_turns=100), ["greedy", "random"], 8, 1, workers=0
    )
    by_table = fit_ratings(results.table, bootstrap=20)
    by_frame = fit_ratings(results.to_pandas(), bootstrap=20)
    assert by_table.equals(by_frame)
    assert set(by_table["agent"]) == {"greedy", "random"}
    assert by_table["games"].tolist() == [8, 8]


def test_bad_tables_and_options_are_refused() -> None:
    with pytest.raises(LadderError, match="needs the columns"):
        fit_ratings(pd.DataFrame({"agents": [["a", "b"]], "winner": [0]}))
    one = pd.DataFrame([game(["a", "a"], 0, [1], "last_player")])
    with pytest.raises(LadderError, match="at least two agents"):
        fit_ratings(one)
    two = pd.DataFrame([game(["a", "b"], 0, [1], "last_player")])
    with pytest.raises(LadderError, match="bootstrap"):
        fit_ratings(two, bootstrap=-1)
    with pytest.raises(LadderError, match="prior_sd"):
        fit_ratings(two, prior_sd=0)
    with pytest.raises(LadderError, match="anchor 'c'"):
        fit_ratings(two, anchor="c")
    with pytest.raises(LadderError, match="not in the list"):
        fit_ratings(two, agents=["a"])


def test_elo_scale() -> None:
    assert pytest.approx(400 / math.log(10)) == ELO


# -- usage ----------------------------------------------------------------------------------------


def test_usage_sums_per_agent_and_shows_event_columns_only_when_present() -> None:
    frame = pd.DataFrame(
        {
            "agents": [["a", "b"], ["b", "a"]],
            "n_army": [[2, 0], [1, 3]],
            "n_hovercraft_invisible": [[0, 1], [1, 1]],
        }
    )
    plain = usage_table(frame, ["a", "b"]).set_index("agent")
    assert plain.at["a", "games"] == 2
    assert plain.at["a", "n_army_per_game"] == 2.5  # (2 + 3) / 2
    assert plain.at["b", "n_hovercraft_invisible_per_game"] == 1.0
    assert not any(c.endswith("_total") for c in plain.columns)
    frame["crushes"] = [[1, 0], [4, 2]]
    frame["teleport_moves"] = [[0, 5], [0, 0]]
    full = usage_table(frame, ["a", "b"]).set_index("agent")
    assert full.at["a", "crushes_total"] == 3 and full.at["b", "crushes_total"] == 4
    assert full.at["b", "teleport_moves_total"] == 5
    assert "fortress_defences_total" not in full.columns
