"""Every printed figure says what it counts: a game's budget and armies in points, the pieces at
the end with those taken from others (R8) counted apart, a study's games won against the fair
share of the seats held, per variant with the armies bought (what a rule changes, and what
wins)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from antipolix import Rules, load_replay, simulate
from antipolix.cli import main
from antipolix.runner import Results, rules_grid
from antipolix.runner.results import WINNERS

SMALL = Rules(shape=(4, 8, 8), players=3, max_turns=80)


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Results:
    grid = rules_grid(SMALL, {"hovercraft.cost": [1, 3]})
    out = tmp_path_factory.mktemp("study") / "s"
    return simulate(grid, ["greedy", "greedy", "random"], 24, 5, workers=0, out=out,
                    shuffle_seats=True)  # fmt: skip


def test_games_won_are_read_against_the_fair_share_of_the_seats(study: Results) -> None:
    frame = study.to_pandas()
    shares = study.win_shares("agent").set_index(["variant", "agent"])
    for variant, rows in frame.groupby("variant"):
        decided = int(rows["winner"].notna().sum())
        for agent, seats in (("greedy", 2), ("random", 1)):
            row = shares.loc[(variant, agent)]
            wins = int((rows["winner_agent"] == agent).sum())
            assert row["games"] == len(rows) == 24 and row["seats"] == seats
            assert row["wins"] == wins and row["share"] == pytest.approx(wins / 24)
            assert row["draws"] == 24 - decided
            assert row["fair_share"] == pytest.approx(seats / 3 * decided / 24)
            assert row["ci_low"] <= row["share"] <= row["ci_high"]
    seats = study.win_shares("seat")
    assert set(seats["seats"]) == {1.0}
    assert seats.groupby("variant")["wins"].sum().tolist() == [
        int(r["winner"].notna().sum()) for _, r in frame.groupby("variant", sort=False)
    ]


def test_the_armies_per_variant_and_of_the_winners(study: Results) -> None:
    frame = study.to_pandas()
    armies = study.armies().set_index(["variant", "agent"])
    for variant, rows in frame.groupby("variant"):
        budget = study.rules(str(variant)).army_budget
        for agent in ("greedy", "random", WINNERS):
            picked = [
                (cost, hover)
                for _, r in rows.iterrows()
                for s, (cost, hover) in enumerate(
                    zip(r["army_cost"], r["n_hovercraft"], strict=True)
                )
                if (
                    r["agents"][s] == agent
                    if agent != WINNERS
                    else r["winner"] is not pd.NA and r["winner"] == s
                )
            ]
            got = armies.loc[(variant, agent)]
            assert got["armies"] == len(picked) and got["budget"] == budget
            assert got["points"] == pytest.approx(np.mean([c for c, _ in picked]))
            assert got["hovercraft"] == pytest.approx(np.mean([h for _, h in picked]))
            assert got["points"] <= budget
    # the variant changes the armies: random buys more hovercraft when they cost 1 than 3
    assert (
        armies.loc[("hovercraft.cost=1", "random"), "hovercraft"]
        > armies.loc[("hovercraft.cost=3", "random"), "hovercraft"]
    )


def test_the_summary_prints_shares_with_their_fair_share_per_variant(study: Results) -> None:
    text = study.summary()
    assert "fair share: what its seats would win if every seat were as strong" in text
    for variant in ("hovercraft.cost=1", "hovercraft.cost=3"):
        assert re.search(rf"^{re.escape(variant)} +greedy +2 of 3 +24 ", text, re.M)
        assert re.search(rf"^{re.escape(variant)} +random +1 of 3 +24 ", text, re.M)
        assert re.search(rf"^{re.escape(variant)} +winners +\d+ +\d+ ", text, re.M)
    assert "armies: mean per seat, points spent of the budget" in text
    assert "win rate" not in text  # the share of seat-games, with no fair share beside it


def _pieces(count: int) -> str:
    return "1 piece" if count == 1 else f"{count} pieces"


def test_a_games_summary_counts_one_piece_in_the_singular(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Armies of one piece (a budget of 3 buys the chief alone, R3) and a seat holding one at
    the end read "1 piece", in columns that stay aligned (they read "1 pieces")."""
    argv = ["play", "--agents", "greedy,greedy", "--rule", "shape=2,6,6", "--rule", "budget=3"]
    assert main([*argv, "--rule", "max_turns=20", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "army of P0 (greedy, 1 piece, 3 points): 1× army+chief" in out
    rows = [line for line in out.splitlines() if line.startswith("  P")]
    assert rows and all(re.search(r"  1 piece,  +3 points, ", row) for row in rows), rows
    assert len({row.index("points") for row in rows}) == 1
    assert "1 pieces" not in out


def test_a_games_summary_says_what_its_points_and_pieces_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.apx.json.gz"
    argv = ["play", "--agents", "greedy,random,random", "--seed", "2", "--rule", "shape=4,8,8"]
    assert main([*argv, "--replay", str(path)]) == 0
    out = capsys.readouterr().out
    replay = load_replay(path)
    budget = replay.rules.army_budget
    assert f"an army budget of {budget} points a player (R3)" in out.splitlines()[0]
    start, end = replay.state_at(0), replay.state_at(replay.last_turn)
    placed = {p.id: p.owner for p in start.placement()}
    for seat in range(3):
        army = start.pieces(seat)
        cost = sum(replay.rules.piece_cost(p.type, p.trait) for p in army)
        assert (
            f"army of P{seat} ({replay.agents[seat]}, {_pieces(len(army))}, {cost} points): " in out
        )
        held = end.pieces(seat)
        points = sum(replay.rules.piece_cost(p.type, p.trait) for p in held)
        taken = sum(1 for p in held if placed[p.id] != seat)
        assert re.search(
            rf"^  P{seat} \({replay.agents[seat]}\) +{_pieces(len(held))}, +{points} points, "
            rf"+{taken} taken ",
            out,
            re.M,
        )
    assert f"each army bought within {budget}, R3; taken: of those, pieces it converted" in out
    winner = replay.result.winner
    assert winner is not None
    assert sum(1 for p in end.pieces(winner) if placed[p.id] != winner) > 0  # it took some
    assert main(["replay", "show", str(path)]) == 0  # the same summary from the replay
    shown = capsys.readouterr().out
    block = out[out.index("result: ") : out.index("replay written")]
    assert block in shown
