"""Tournaments (``antipolix tournament``, :func:`antipolix.ladder.tournament`): the schedule (every
lineup, seats rotated evenly), the folder (resume, growth, refusals with nothing written), the
reports and the command, on tiny boards in this process (and once on Ray)."""

from __future__ import annotations

import itertools
import json
import math
import re
import shlex
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from antipolix import Rules, simulate
from antipolix.agents import AGENTS
from antipolix.agents.tuned import weights_fingerprint
from antipolix.cli import main
from antipolix.errors import AgentError, AntipolixError, RulesError
from antipolix.ladder import Ladder, LadderError, Sitting, lineups, schedule, tournament
from antipolix.ladder.schedule import (
    check_lineup_games,
    seat_orders,
    sitting_seed,
    split_games,
)
from antipolix.runner.rows import DETERMINISTIC_COLUMNS

ROOT = Path(__file__).resolve().parents[1]
TINY = Rules(shape=(2, 6, 6), max_turns=100)  # two players: about 100 games/s in-process
SMALL = Rules(shape=(4, 8, 8), max_turns=100)  # room for four home zones
THREE = ["random", "greedy", "planner"]
TINY_ARGS = ["--rule", "shape=2,6,6", "--rule", "max_turns=100"]


def seat_counts(games: pd.DataFrame) -> dict[int, Counter[tuple[str, int]]]:
    """Per lineup, how often each agent sat in each seat."""
    out: dict[int, Counter[tuple[str, int]]] = {}
    for lineup, agents in zip(games["lineup"], games["agents"], strict=True):
        out.setdefault(int(lineup), Counter()).update((a, s) for s, a in enumerate(agents))
    return out


def listing(folder: Path) -> dict[str, int]:
    """Every file under ``folder`` with its modification time (ns)."""
    return {
        str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()
    }


# -- the schedule ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agents", "players", "games"), [(5, 2, 10), (5, 3, 7), (5, 4, 8), (4, 4, 1)]
)
def test_schedule_plays_every_lineup_with_seats_rotated(
    agents: int, players: int, games: int
) -> None:
    names = [f"a{i}" for i in range(agents)]
    sittings = schedule(names, players, games, seed=3)
    tables = list(itertools.combinations(names, players))
    assert lineups(names, players) == tables
    assert sorted({s.lineup for s in sittings}) == list(range(len(tables)))
    for k, lineup in enumerate(tables):
        mine = [s for s in sittings if s.lineup == k]
        assert sum(s.games for s in mine) == games  # --games is per lineup
        assert all(sorted(s.seats) == sorted(lineup) for s in mine)
        seats = Counter()
        for s in mine:
            seats.update({(a, seat): s.games for seat, a in enumerate(s.seats)})
        per_seat = [seats[(a, seat)] for a in lineup for seat in range(players)]
        assert max(per_seat) - min(per_seat) <= 1  # never more than one game apart
        if games % players == 0:
            assert set(per_seat) == {games // players}  # exactly even
    assert len({s.seed for s in sittings}) == len(sittings)
    assert len({s.folder for s in sittings}) == len(sittings)
    assert all("=" not in s.folder and ":" not in s.folder for s in sittings)


def across(sittings: list[Sitting]) -> Counter[frozenset[str]]:
    """At 4-player tables: games in which each two agents sat across the board from each other
    (seats two apart on the ring of home zones, R3)."""
    out: Counter[frozenset[str]] = Counter()
    for s in sittings:
        out.update({frozenset((s.seats[i], s.seats[i + 2])): s.games for i in range(2)})
    return out


@pytest.mark.parametrize("games", [12, 24, 36, 96])
def test_every_seat_order_seats_every_two_agents_across_equally_often(games: int) -> None:
    sittings = schedule(list("abcde"), 4, games, seed=0)
    for k in range(5):
        mine = [s for s in sittings if s.lineup == k]
        assert set(across(mine).values()) == {games // 3}  # each of the 6 pairs, a third
    if games % 24 == 0:
        assert {s.games for s in sittings} == {games // 24}  # every one of the 24 orders


def test_rotations_keep_who_sits_across_fixed() -> None:
    sittings = schedule(list("abcd"), 4, 12, seed=0, seating="rotation")
    assert across(sittings) == Counter({frozenset("ac"): 12, frozenset("bd"): 12})
    assert [s.folder.rsplit("/", 1)[1] for s in sittings] == [f"rotation-{r}" for r in range(4)]


def test_seat_orders_and_the_split_of_games() -> None:
    for n in (2, 3, 4, 5):
        orders = list(seat_orders(n))
        assert len(orders) == len(set(orders)) == math.factorial(n)  # every order, once
        assert orders[:n] == list(seat_orders(n, "rotation"))  # the lineup's own ring first
    assert list(seat_orders(2)) == list(seat_orders(2, "rotation"))  # the same at 2 players
    assert split_games(10, 4) == [3, 3, 2, 2]
    assert split_games(1, 2) == [1, 0]
    assert [sum(split_games(n, 3)) for n in range(7)] == list(range(7))
    big = schedule([str(i) for i in range(10)], 10, 30, seed=0)  # 10! orders: only 30 made
    assert len(big) == 30 and {s.games for s in big} == {1}
    with pytest.raises(LadderError, match="seating must be all or rotation, got 'shuffled'"):
        schedule(list("ab"), 2, 2, seed=0, seating="shuffled")
    # a sitting's seed depends on the tournament seed and its seat order, not on the others
    assert sitting_seed(1, ["a", "b"]) == sitting_seed(1, ["a", "b"])
    assert sitting_seed(1, ["a", "b"]) != sitting_seed(2, ["a", "b"])
    small = {s.seats: s.seed for s in schedule(["a", "b"], 2, 4, seed=1)}
    large = {s.seats: s.seed for s in schedule(["a", "c", "b"], 2, 4, seed=1)}
    assert all(large[seats] == seed for seats, seed in small.items())


# -- a tournament ---------------------------------------------------------------------------------


def test_chosen_lineups_play_their_own_number_of_games() -> None:
    plain = schedule(THREE, 2, 4, seed=5)
    more = schedule(THREE, 2, 4, seed=5, more={"greedy,planner": 9})
    assert [s for s in more if s.lineup != 2] == [s for s in plain if s.lineup != 2]
    grown = [s for s in more if s.lineup == 2]
    assert [s.games for s in grown] == [5, 4]
    assert [s.seed for s in grown] == [s.seed for s in plain if s.lineup == 2]  # same games


def test_lineups_are_named_in_any_order_and_by_any_spelling() -> None:
    agents = ["random", "greedy", "planner"]

    def label(name: str) -> str:
        return name.split(":")[0]

    given = {"planner, random": 7, ("greedy", "random:mean_think=1"): 3}
    assert check_lineup_games(agents, 2, given, label) == {"random,greedy": 3, "random,planner": 7}
    assert check_lineup_games(agents, 2, None) == {}


@pytest.mark.parametrize(
    ("given", "match"),
    [
        ({"random": 5}, "has 1 agent; a lineup at 2-player tables has 2"),
        ({"random,nobody": 5}, "'nobody' is not one of the agents"),
        ({"random,random": 5}, "names an agent twice"),
        ({"random,greedy": 5, "greedy,random": 6}, "is given twice"),
        ({"random,greedy": 0}, "games must be an integer >= 1, got 0"),
        ({"random,greedy": 2.5}, "games must be an integer >= 1, got 2.5"),
        ({3: 5}, "a lineup is a comma-separated text"),
        (["random,greedy"], "must map lineups to numbers of games"),
    ],
)
def test_bad_lineup_games_are_refused_before_anything_is_written(
    tmp_path: Path, given: object, match: str
) -> None:
    out = tmp_path / "t"
    with pytest.raises(LadderError, match=match):
        tournament(THREE, 2, rules=TINY, out=out, workers=0, lineup_games=given)  # type: ignore[arg-type]
    assert not out.exists()


def test_more_games_for_one_lineup_grow_only_it(tmp_path: Path) -> None:
    out = tmp_path / "t"
    plain = tournament(THREE, 2, rules=TINY, seed=4, out=out, workers=0, bootstrap=0)
    assert "lineup_games" not in json.loads((out / "tournament.json").read_text())
    grown = tournament(
        THREE,
        2,
        rules=TINY,
        seed=4,
        out=out,
        workers=0,
        bootstrap=0,
        lineup_games={"planner,greedy": 6},
    )
    assert grown.played == 4 and len(grown.games) == 10 and grown.complete
    assert grown.games.groupby("lineup").size().to_dict() == {0: 2, 1: 2, 2: 6}
    assert grown.lineup_games == {"random,greedy": 2, "random,planner": 2, "greedy,planner": 6}
    assert "2 games each (but greedy, planner: 6)" in grown.description()
    key = ["lineup", "order", "game"]
    columns = [c for c in DETERMINISTIC_COLUMNS if c != "game"]
    first = plain.games.set_index(key)
    assert grown.games.set_index(key).loc[first.index][columns].equals(first[columns])
    # the same lineup named otherwise is the same tournament: nothing to play
    again = tournament(
        THREE, 2, rules=TINY, seed=4, out=out, workers=0, bootstrap=0,
        lineup_games={"greedy, planner": 6},
    )  # fmt: skip
    assert again.played == 0
    before = listing(out)
    for fewer in ({"greedy,planner": 5}, None):
        with pytest.raises(LadderError, match="with 6 games for lineup greedy,planner; ask for 6"):
            tournament(THREE, 2, rules=TINY, seed=4, out=out, workers=0, lineup_games=fewer)
    assert listing(out) == before
    assert Ladder.open(out, bootstrap=0).lineup_games == grown.lineup_games


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Ladder, Path]:
    out = tmp_path_factory.mktemp("ladder") / "t"
    agents = [*THREE, "random:mean_think=0.5"]
    return tournament(agents, 6, rules=TINY, seed=5, out=out, workers=0, bootstrap=100), out


def test_a_tournament_plays_every_lineup_with_rotated_seats(played: tuple[Ladder, Path]) -> None:
    ladder, out = played
    games = ladder.games
    assert len(games) == 6 * 6 and ladder.complete  # C(4, 2) lineups × 6 games
    assert ladder.played == 36 and ladder.before == 0
    assert ladder.agents == ["random", "greedy", "planner", "random:mean_think=0.5"]
    for counts in seat_counts(games).values():
        assert set(counts.values()) == {3}  # each agent 3 games in each seat of its lineups
        assert len(counts) == 4
    studies = [json.loads(p.read_text()) for p in out.glob("games/*/order-*/_study.json")]
    assert len(studies) == 12
    assert {s["variants"][0]["rules"]["think_times"] for s in studies} == {"drawn"}  # R7
    assert {s["shuffle_seats"] for s in studies} == {False}


def test_a_tournament_writes_its_reports(played: tuple[Ladder, Path]) -> None:
    ladder, out = played
    ratings = pd.read_csv(out / "ratings.csv")
    assert ratings.columns.tolist()[:8] == [
        "rank", "agent", "rating", "low", "high", "games", "wins", "draws",
    ]  # fmt: skip
    assert sorted(ratings["agent"]) == sorted(ladder.agents)
    assert ratings.set_index("agent").at["random", "rating"] == 0.0
    assert ratings["rating"].is_monotonic_decreasing
    assert (ratings["games"] == 18).all()  # three lineups of six games each
    assert ratings.equals(pd.read_csv(out / "ratings.csv"))
    md = (out / "ratings.md").read_text()
    for part in ("## Ratings (Elo scale, random = 0", "| agent", "## Scores", "## Army and play"):
        assert part in md
    assert "random:mean_think=0.5" in md
    scores = pd.read_csv(out / "scores.csv")
    assert scores.columns.tolist() == ["agent", "opponent", "ahead", "behind", "tied", "score"]
    assert len(scores) == 12  # every ordered pair met
    pair = scores.set_index(["agent", "opponent"])
    assert pair.at[("greedy", "planner"), "ahead"] == pair.at[("planner", "greedy"), "behind"]
    assert (pair["ahead"] + pair["behind"] + pair["tied"] == 6).all()  # one meeting a game
    usage = pd.read_csv(out / "usage.csv")
    assert "n_army_chief_per_game" in usage.columns and (usage["games"] == 18).all()
    picture = out / "ratings.png"
    assert picture.stat().st_size > 5_000
    assert pd.read_parquet(out / "games").shape[0] == 36  # the games, as one Parquet dataset
    manifest = json.loads((out / "tournament.json").read_text())
    assert manifest["format"] == "antipolix-tournament" and manifest["games_per_lineup"] == 6
    assert len(manifest["plan"]["sittings"]) == 12


def test_a_second_run_plays_nothing_and_gives_the_same_ladder(
    played: tuple[Ladder, Path],
) -> None:
    ladder, out = played
    agents = [*THREE, "random:mean_think=0.5"]
    before = {k: v for k, v in listing(out).items() if k.endswith(".parquet")}
    again = tournament(agents, 6, rules=TINY, seed=5, out=out, workers=0, bootstrap=100)
    assert again.played == 0 and again.before == 36
    assert {k: v for k, v in listing(out).items() if k.endswith(".parquet")} == before
    assert again.ratings.equals(ladder.ratings)
    opened = Ladder.open(out, bootstrap=100)
    assert opened.ratings.equals(ladder.ratings)
    assert opened.games[list(DETERMINISTIC_COLUMNS)].equals(
        ladder.games[list(DETERMINISTIC_COLUMNS)]
    )


class Stop(Exception):
    pass


def test_an_interrupted_tournament_completes_with_the_same_games(tmp_path: Path) -> None:
    whole = tournament(THREE, 12, rules=TINY, seed=2, out=tmp_path / "whole", workers=0)

    def stop_at(done: int, total: int) -> None:
        if done >= 20:
            raise Stop

    out = tmp_path / "cut"
    with pytest.raises(Stop):
        tournament(THREE, 12, rules=TINY, seed=2, out=out, workers=0, progress=stop_at)
    saved = len(pd.read_parquet(out / "games"))
    assert 0 < saved < 36
    assert not (out / "ratings.csv").exists()
    seen: list[tuple[int, int]] = []
    rest = tournament(
        THREE, 12, rules=TINY, seed=2, out=out, workers=0, progress=lambda d, t: seen.append((d, t))
    )
    assert rest.played == 36 - saved and rest.before == saved
    assert seen[0] == (saved, 36) and seen[-1] == (36, 36)
    columns = list(DETERMINISTIC_COLUMNS)
    assert rest.games[columns].equals(whole.games[columns])
    assert rest.ratings.equals(whole.ratings)


def test_more_games_grow_a_tournament_and_fewer_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "t"
    small = tournament(THREE, 3, rules=TINY, seed=1, out=out, workers=0, bootstrap=0)
    grown = tournament(THREE, 5, rules=TINY, seed=1, out=out, workers=0, bootstrap=0)
    assert grown.played == 6 and len(grown.games) == 15
    key = ["lineup", "order", "game"]
    first = small.games.set_index(key)
    kept = grown.games.set_index(key).loc[first.index]
    columns = [c for c in DETERMINISTIC_COLUMNS if c != "game"]
    assert kept[columns].equals(first[columns])  # the first games are kept as they were
    before = listing(out)
    with pytest.raises(LadderError, match="holds this tournament with 5 games per lineup"):
        tournament(THREE, 4, rules=TINY, seed=1, out=out, workers=0)
    assert listing(out) == before


def test_four_player_tables(tmp_path: Path) -> None:
    agents = ["random", "greedy", "planner", "random:mean_think=0.5", "random:mean_think=2"]
    ladder = tournament(
        agents, 4, 4, rules=SMALL, seed=3, out=tmp_path / "t", workers=0, bootstrap=50
    )
    assert len(ladder.games) == 5 * 4  # C(5, 4) lineups
    assert (ladder.games["players"] == 4).all()
    for counts in seat_counts(ladder.games).values():
        assert set(counts.values()) == {1} and len(counts) == 16
    t = ladder.ratings.set_index("agent")
    assert (t["games"] == 16).all()
    assert t.at["random", "rating"] == 0.0


def test_without_out_nothing_is_kept_but_the_ladder(tmp_path: Path) -> None:
    ladder = tournament("random,greedy", 2, rules=TINY, workers=0, bootstrap=0)
    assert len(ladder.games) == 2 and ladder.path.is_dir()
    assert not (ladder.path / "ratings.csv").exists()
    assert ladder.write_reports(tmp_path) and (tmp_path / "ratings.md").is_file()


# -- refusals --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agents", "games", "players", "error", "match"),
    [
        (["random", "nobody"], 2, 2, AgentError, "unknown agent 'nobody'"),
        (["random", "random:depth=2"], 2, 2, AgentError, "no parameter 'depth'"),
        (["random", "random:mean_think=x"], 2, 2, AgentError, "must be a number"),
        (["random"], 2, 2, LadderError, "at least two agents"),
        (["random", "random:mean_think=1"], 2, 2, LadderError, "same agent"),
        (["random", "greedy"], 2, 3, LadderError, "at least 3 different agents"),
        (["random", "greedy"], 0, 2, LadderError, "games"),
        (["random", "greedy"], 2, 11, LadderError, "players must be"),
    ],
)
def test_bad_input_is_refused_before_anything_is_written(
    tmp_path: Path, agents: list[str], games: int, players: int, error: type, match: str
) -> None:
    out = tmp_path / "t"
    with pytest.raises(error, match=match):
        tournament(agents, games, players, rules=TINY, out=out, workers=0)
    assert not out.exists()


def test_bad_run_options_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    out = tmp_path / "t"
    for kwargs in ({"workers": -1}, {"address": "nowhere"}, {"chunk_size": 0}, {"seed": -1}):
        with pytest.raises(AntipolixError):
            tournament(THREE, 2, rules=TINY, out=out, **{"workers": 0, **kwargs})  # type: ignore[arg-type]
        assert not out.exists()
    with pytest.raises(LadderError, match="an address needs Ray"):
        tournament(THREE, 2, rules=TINY, out=out, workers=0, address="localhost:1")
    with pytest.raises(LadderError, match="rules must be a Rules"):
        tournament(THREE, 2, rules="shape=2,6,6", out=out, workers=0)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="cannot buy a chief"):  # valid for 2 players, not 3
        tournament(THREE, 2, 3, rules=Rules(shape=(1, 6, 6), players=2), out=out, workers=0)
    assert not out.exists()


def test_a_folder_holding_something_else_is_refused(tmp_path: Path) -> None:
    study = tmp_path / "study"
    simulate(Rules(shape=(2, 6, 6), players=2), ["random", "greedy"], 2, 1, workers=0, out=study)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    ladder = tmp_path / "ladder"
    tournament(THREE, 2, rules=TINY, seed=1, out=ladder, workers=0, bootstrap=0)
    cases = [
        (study, "holds a simulate study"),
        (other, "not empty and holds no tournament"),
        (ladder, "holds a different tournament"),
    ]
    for folder, match in cases:
        before = listing(folder)
        with pytest.raises(LadderError, match=match):
            tournament(["random", "greedy"], 2, rules=TINY, seed=1, out=folder, workers=0)
        assert listing(folder) == before
    with pytest.raises(LadderError, match=r"different tournament .*seed"):
        tournament(THREE, 2, rules=TINY, seed=2, out=ladder, workers=0)
    manifest = json.loads((ladder / "tournament.json").read_text())
    manifest["agent_specs"][1]["params"]["changed"] = 1  # greedy, as another version made it
    (ladder / "tournament.json").write_text(json.dumps(manifest))
    with pytest.raises(LadderError, match=r"the settings of greedy differ"):
        tournament(THREE, 2, rules=TINY, seed=1, out=ladder, workers=0)
    file = tmp_path / "file"
    file.write_text("x")
    with pytest.raises(LadderError, match="not a folder"):
        tournament(THREE, 2, rules=TINY, out=file, workers=0)


def test_a_rotation_tournament_goes_on_only_with_its_seating(tmp_path: Path) -> None:
    out = tmp_path / "t"
    old = tournament(THREE, 2, rules=TINY, seed=1, out=out, workers=0, seating="rotation")
    assert old.seating == "rotation" and "seats rotated" in old.description()
    assert "stays fixed" in (out / "ratings.md").read_text()
    assert sorted(p.name for p in out.glob("games/*/*")) == ["rotation-0"] * 3 + ["rotation-1"] * 3
    before = listing(out)
    with pytest.raises(
        LadderError, match=r"seating: 'rotation' there, 'all' now.*--seating rotation goes on"
    ):
        tournament(THREE, 4, rules=TINY, seed=1, out=out, workers=0)
    assert listing(out) == before
    # a manifest whose plan names each sitting's rotation (as earlier versions wrote) still opens
    manifest = json.loads((out / "tournament.json").read_text())
    for record in manifest["plan"]["sittings"]:
        record["rotation"] = record.pop("order")
    (out / "tournament.json").write_text(json.dumps(manifest))
    again = Ladder.open(out, bootstrap=0)
    assert again.games["order"].tolist() == old.games["order"].tolist()
    grown = tournament(THREE, 4, rules=TINY, seed=1, out=out, workers=0, seating="rotation")
    assert grown.played == 6 and grown.before == 6
    # at two players both seatings play the same games: the same seats, seeds and splits
    same = tournament(THREE, 4, rules=TINY, seed=1, out=tmp_path / "all", workers=0)
    columns = list(DETERMINISTIC_COLUMNS)
    assert same.games[columns].equals(grown.games[columns])
    with pytest.raises(LadderError, match="seating must be all or rotation, got 'ring'"):
        tournament(THREE, 2, rules=TINY, workers=0, seating="ring")


def test_a_sitting_folder_holding_another_study_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "t"
    tournament(THREE, 2, rules=TINY, seed=1, out=out, workers=0, bootstrap=0)
    first = out / "games" / "00-random-greedy" / "order-0"
    study = json.loads((first / "_study.json").read_text())
    study["seed"] += 1
    (first / "_study.json").write_text(json.dumps(study))
    before = listing(out)
    with pytest.raises(LadderError, match=r"lineup random v greedy: .*different study"):
        tournament(THREE, 3, rules=TINY, seed=1, out=out, workers=0)
    assert listing(out) == before


# -- the command ----------------------------------------------------------------------------------


def test_the_command_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ladder"
    argv = [
        "tournament", "--agents", "random,greedy,planner,random:mean_think=0.5", "--games", "4",
        "--seed", "3", "--out", str(out), "--workers", "0", "--no-progress", "--bootstrap", "50",
        *TINY_ARGS,
    ]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert text.startswith("played 24 games in ")
    assert re.search(
        r"^ +rank +agent +rating +95 % low +95 % high +games +wins +draws$", text, re.M
    )
    assert re.search(r"^ +\d +random +0 +0 +0 +12 ", text, re.M)
    assert "random:mean_think=0.5" in text and "scores" in text
    for name in ("ratings.csv", "ratings.md", "ratings.png", "gaps.csv", "scores.csv", "usage.csv"):
        assert (out / name).is_file()
    assert main(argv) == 0  # again: nothing to play, the same table
    again = capsys.readouterr().out
    assert again.startswith("played 0 games in ") and "24 were already done" in again
    assert again.split("\n", 1)[1] == text.split("\n", 1)[1]


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        (["--agents", "random,nobody"], "unknown agent 'nobody'"),
        (["--agents", "random,greedy:depth=3"], "no parameter 'depth'"),
        (["--agents", "random"], "at least two agents"),
        (["--agents", "random,greedy", "--players", "3"], "at least 3 different agents"),
        (["--games", "0"], "games 0 must be >= 1"),
        (["--players", "1"], "players 1 must be >= 2"),
        (["--rule", "players=4", "--players", "2"], "rules are for 4 players but --players is 2"),
        (["--rule", "players=4"], "at least 4 different agents"),  # (tables of the rules' 4)
        (["--rule", "think_times=agent"], "always draws think times"),
        (["--rule", "nonsense=1"], "unknown option"),
        (["--lineup-games", "random,greedy"], "expected a lineup and its games"),
        (["--lineup-games", "random,greedy=x"], "expected a lineup and its games"),
        (["--lineup-games", "random=4"], "lineup 'random' has 1 agent"),
        (["--lineup-games", "random,planner=4"], "'planner' is not one of the agents"),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], match: str
) -> None:
    out = tmp_path / "t"
    argv = [
        "tournament",
        "--agents",
        "random,greedy",
        "--out",
        str(out),
        "--workers",
        "0",
        *TINY_ARGS,
        *extra,
    ]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse refuses its own arguments
        code = exc.code  # type: ignore[assignment]
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("antipolix: error: ") and err.count("\n") == 1, err
    assert match in err
    assert not out.exists()


def test_the_tables_take_the_rules_players_without_players_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--rule players=3`` without ``--players``: 3-player tables (it was refused, "--players
    is 2", for an option never given); ``--players`` alone still sets the tables' size."""
    base = ["tournament", "--agents", "random,greedy,planner", "--workers", "0", "--no-progress"]
    base += ["--games", "1", *TINY_ARGS]
    three = ["--rule", "players=3", "--rule", "shape=3,8,8", "--out", str(tmp_path / "a")]
    assert main([*base, *three]) == 0
    assert "at 3-player tables" in capsys.readouterr().out
    assert main([*base, "--out", str(tmp_path / "b")]) == 0
    assert "at 2-player tables" in capsys.readouterr().out


def test_the_command_refuses_a_folder_of_another_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    base = [
        "tournament",
        "--out",
        str(out),
        "--workers",
        "0",
        "--no-progress",
        "--games",
        "2",
        *TINY_ARGS,
    ]
    assert main([*base, "--agents", "random,greedy"]) == 0
    capsys.readouterr()
    before = listing(out)
    assert main([*base, "--agents", "random,planner"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("antipolix: error: ") and "holds a different tournament" in err
    assert listing(out) == before


def test_the_readme_command_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The README's ``antipolix tournament`` commands, with few games on a small board, in this
    process, with the agents of this version (the README may name agents still to come)."""
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"^antipolix tournament .*$", readme, flags=re.M)
    assert commands, "README lost its tournament command"
    for k, line in enumerate(commands):
        args = shlex.split(line.split("#")[0])[1:]
        at = args.index("--agents")
        known = [a for a in args[at + 1].split(",") if a.split(":")[0] in AGENTS]
        args[at + 1] = ",".join(known)
        for option, value in (("--games", "2"), ("--out", str(tmp_path / f"r{k}"))):
            if option in args:
                args[args.index(option) + 1] = value
            else:
                args += [option, value]
        args += ["--workers", "0", "--no-progress", "--bootstrap", "20"]
        if "--game" not in args or args[args.index("--game") + 1] == "antipolix":
            args += ["--rule", "shape=4,8,8", "--rule", "max_turns=60"]  # (another game: its own)
        assert main(args) == 0, line
        assert "ratings (Elo scale, random = 0" in capsys.readouterr().out
        assert (tmp_path / f"r{k}" / "ratings.md").is_file()


# -- Ray ------------------------------------------------------------------------------------------


def test_on_ray_the_same_games_as_in_process(ray_local, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    serial = tournament(
        THREE, 4, rules=TINY, seed=4, out=tmp_path / "serial", workers=0, bootstrap=50
    )
    on_ray = tournament(THREE, 4, rules=TINY, seed=4, out=tmp_path / "ray", workers=2, bootstrap=50)
    columns = list(DETERMINISTIC_COLUMNS)
    assert on_ray.games[columns].equals(serial.games[columns])
    assert on_ray.ratings.equals(serial.ratings)
    assert ray_local.is_initialized(), "the tournament shut down a Ray it did not start"


def test_the_study_script_runs(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable, str(ROOT / "experiments" / "ladder.py"), "--games", "2",
            "--lineup-games", "greedy,random=3",
            "--agents", "random,greedy,planner,random:mean_think=0.5,nobody",
            "--games4", "1", "--workers", "0", "--out", str(tmp_path / "runs"),
            "--results", str(tmp_path / "results"), "--rule", "shape=4,8,8",
            "--rule", "max_turns=60",
        ],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "2-player tables: played 13 games" in done.stdout
    assert "4-player tables: played 1 games" in done.stdout
    summary = (tmp_path / "results" / "README.md").read_text()
    assert "## 2-player tables" in summary and "## 4-player tables" in summary
    assert "left out: nobody" in summary
    assert "6 lineups × 2 games, random, greedy × 3 instead = 13 games" in summary
    for players in (2, 4):
        assert (tmp_path / "results" / f"{players}-players" / "ratings.png").is_file()
    # only the 4-player tables, with more games: the 2-player section stays as it was
    two = summary[summary.index("## 2-player") : summary.index("## 4-player")]
    again = subprocess.run(
        [
            sys.executable, str(ROOT / "experiments" / "ladder.py"), "--players", "4",
            "--agents", "random,greedy,planner,random:mean_think=0.5", "--games4", "2",
            "--workers", "0", "--out", str(tmp_path / "runs"),
            "--results", str(tmp_path / "results"), "--rule", "shape=4,8,8",
            "--rule", "max_turns=60",
        ],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr[-2000:]
    assert (
        "2-player tables" not in again.stdout and "4-player tables: played 1 games" in again.stdout
    )
    summary = (tmp_path / "results" / "README.md").read_text()
    assert summary[summary.index("## 2-player") : summary.index("## 4-player")] == two
    assert "--players 4" in summary[summary.index("## 4-player") :]
    assert summary.index("## 2-player") < summary.index("## 4-player")


def test_a_tournament_of_other_tuned_weights_is_not_resumed(tmp_path: Path) -> None:
    """Its folder's tuned agent played with another tuned.json (a study installed since): the
    games are not this tuned agent's, so the folder is refused as another tournament."""
    out = tmp_path / "t"
    tournament(["random", "tuned"], 2, rules=TINY, seed=1, out=out, workers=0, bootstrap=0)
    manifest = json.loads((out / "tournament.json").read_text())
    assert manifest["agent_specs"][1]["tuned_weights"] == weights_fingerprint()
    manifest["agent_specs"][1]["tuned_weights"] = "0" * 16
    (out / "tournament.json").write_text(json.dumps(manifest))
    before = listing(out)
    with pytest.raises(LadderError, match=r"the settings of tuned differ .*tuned weights"):
        tournament(["random", "tuned"], 4, rules=TINY, seed=1, out=out, workers=0)
    assert listing(out) == before
