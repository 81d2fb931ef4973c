"""Stored formats name games and agents by registry names, and what earlier versions stored
keeps loading: a study folder and a tournament folder written before (``tests/data/old``,
agents recorded by their module path, no game named) resume with the same study and the same
rows, and today's folders record the game and each agent's registry name."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from antipolix import Rules, games, simulate
from antipolix.errors import SimulationError
from antipolix.games import host
from antipolix.ladder import Ladder, tournament
from antipolix.runner import Results
from antipolix.runner.rows import DETERMINISTIC_COLUMNS
from antipolix.runner.store import STUDY_FILE

OLD = Path(__file__).parent / "data" / "old"
RULES = Rules(shape=(4, 8, 8), players=2, max_turns=60)


@pytest.fixture
def old(tmp_path: Path) -> Path:
    shutil.copytree(OLD, tmp_path / "old")
    return tmp_path / "old"


def _rows(path: Path) -> pd.DataFrame:
    return Results.open(path).to_pandas()[list(DETERMINISTIC_COLUMNS)]


def test_an_old_study_folder_resumes_unchanged(old: Path) -> None:
    folder = old / "study"
    before = (folder / STUDY_FILE).read_bytes()
    rows = _rows(folder)
    again = simulate(RULES, ["planner", "random"], games=4, seed=5, workers=0, out=folder)
    assert again.run is not None and again.run.games_played == 0
    assert (folder / STUDY_FILE).read_bytes() == before  # read as the same study, not rewritten
    pd.testing.assert_frame_equal(_rows(folder), rows)
    assert Results.open(folder).game == "antipolix"


def test_an_old_study_folder_grows_with_the_same_first_games(old: Path, tmp_path: Path) -> None:
    folder = old / "study"
    rows = _rows(folder)
    grown = simulate(RULES, ["planner", "random"], games=6, seed=5, workers=0, out=folder)
    assert grown.run is not None and grown.run.games_played == 2
    pd.testing.assert_frame_equal(_rows(folder).iloc[:4], rows)
    simulate(RULES, ["planner", "random"], games=6, seed=5, workers=0, out=tmp_path / "n")
    fresh, now = _rows(tmp_path / "n"), _rows(folder)
    # the same games; the old ones do not say why each seat left (written before the column)
    said = [c for c in DETERMINISTIC_COLUMNS if c != "elimination_reason"]
    pd.testing.assert_frame_equal(fresh[said], now[said])
    pd.testing.assert_frame_equal(fresh.iloc[4:], now.iloc[4:])
    assert now["elimination_reason"].iloc[:4].isna().all()
    study = json.loads((folder / STUDY_FILE).read_text())  # rewritten as today's, grown
    assert study["game"] == "antipolix" and study["games"] == 6
    assert [a["agent"] for a in study["agents"]] == ["planner", "random"]
    assert not any("class" in a for a in study["agents"])


def test_an_old_study_refuses_other_agents_as_before(old: Path) -> None:
    with pytest.raises(SimulationError, match="holds a different study"):
        simulate(RULES, ["greedy", "random"], games=4, seed=5, workers=0, out=old / "study")


def test_an_old_study_replays_its_games_with_agents_rebuilt_from_their_old_records(
    old: Path, tmp_path: Path
) -> None:
    results = Results.open(old / "study")
    result = results.replay(1, tmp_path / "g1.apx.json.gz")
    row = results.to_pandas().set_index("game").loc[1]
    assert result.turns == row["turns"] and result.reason.name.lower() == row["reason"]


def test_an_old_tournament_resumes_unchanged(old: Path) -> None:
    folder = old / "ladder"
    manifest = (folder / "tournament.json").read_bytes()
    games_before = Ladder.open(folder, bootstrap=0).games[list(DETERMINISTIC_COLUMNS)]
    again = tournament(
        ["random", "greedy"], 2, 2, rules=Rules(shape=(4, 8, 8), max_turns=60), seed=3,
        workers=0, out=folder, bootstrap=0,
    )  # fmt: skip
    assert again.played == 0 and again.before == 2
    assert again.game == "antipolix"
    pd.testing.assert_frame_equal(again.games[list(DETERMINISTIC_COLUMNS)], games_before)
    now = json.loads((folder / "tournament.json").read_text())  # written again, same plan
    assert now["plan"] == json.loads(manifest)["plan"]


def test_studies_record_the_game_and_agents_by_registry_name(tmp_path: Path) -> None:
    simulate(RULES, ["greedy", "random"], games=2, seed=1, workers=0, out=tmp_path / "s")
    study = json.loads((tmp_path / "s" / STUDY_FILE).read_text())
    assert study["game"] == "antipolix"
    assert [(a["game"], a["agent"]) for a in study["agents"]] == [
        ("antipolix", "greedy"),
        ("antipolix", "random"),
    ]
    assert not any("class" in a for a in study["agents"])


def test_an_old_record_reads_as_todays() -> None:
    game = games.game("antipolix")
    today = host.agent_record(game, host.make_agent(game, "planner"))
    old = {
        "class": "antipolix.agents.planner.PlannerAgent",
        **{k: v for k, v in today.items() if k not in ("game", "agent")},
    }
    assert host.normal_record(game, old) == today
    rebuilt = host.agent_from_record(game, old)
    assert host.agent_record(game, rebuilt) == today
    custom = {"class": "mine.Idle", "name": "idle", "params": {}}
    assert host.normal_record(game, custom) == {"game": "antipolix", **custom}


def test_an_old_study_counts_its_eliminations_as_unrecorded_and_grows_with_reasons(
    old: Path,
) -> None:
    """A study written before the rows said why each seat left (R7, R8, R9) reads with those
    seats ``unrecorded``; grown, its new games say why."""
    folder = old / "study"
    before = Results.open(folder)
    out_before = sum(len(o) for o in before.to_pandas()["elimination_order"])
    table = before.eliminations()
    assert table["unrecorded"].sum() == out_before > 0
    assert table[["chief", "timer", "quit"]].to_numpy().sum() == 0
    assert "how players left the games: not in these rows" in before.summary()
    grown = simulate(RULES, ["planner", "random"], games=8, seed=5, workers=0, out=folder)
    assert grown.run is not None and grown.run.games_played == 4
    df = grown.to_pandas()
    new = df[df["game"] >= 4]
    assert df[df["game"] < 4]["elimination_reason"].isna().all()
    table = grown.eliminations()
    assert table["unrecorded"].sum() == out_before
    out_new = sum(len(o) for o in new["elimination_order"])
    assert table[["chief", "timer", "quit"]].to_numpy().sum() == out_new > 0
    assert table["seats"].sum() == 2 * 8
    assert "unrecorded" in grown.summary().split("how players left the games")[1]
