"""The batch runner (antipolix.runner): seeds by game index (R12), rows identical whatever the
chunking or the mode (serial, Ray with 1 or 2 workers), grids, resume, results helpers, bad
input refused before any work, and the ``antipolix simulate`` command."""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from antipolix import PieceType, Results, Rules, Trait, simulate
from antipolix.agents import GivenArmy, GreedyAgent, RandomAgent
from antipolix.cli import main
from antipolix.codec import apply_overrides, rules_overrides
from antipolix.errors import AgentError, RulesError, SimulationError
from antipolix.play import play_game
from antipolix.replay import load_replay
from antipolix.runner import game_seed, rules_grid, seat_order
from antipolix.runner.rows import DETERMINISTIC_COLUMNS
from antipolix.runner.sizing import MAX_CHUNKS, ChunkSizer
from antipolix.runner.store import STUDY_FILE, Chunk, Store
from antipolix.stats import wilson_interval

SMALL = Rules(shape=(4, 8, 8), players=2, max_turns=100)
AGENTS = [GreedyAgent(), RandomAgent()]


def rows(results: Results) -> pd.DataFrame:
    """The deterministic columns (all but ``seconds``)."""
    return results.to_pandas(DETERMINISTIC_COLUMNS)


def assert_same_rows(a: Results, b: Results) -> None:
    assert a.read(DETERMINISTIC_COLUMNS).equals(b.read(DETERMINISTIC_COLUMNS))


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Results:
    """30 games, serial, one game per chunk: what every other way of running must match."""
    out = tmp_path_factory.mktemp("reference")
    return simulate(SMALL, AGENTS, 30, seed=5, workers=0, out=out, chunk_size=1)


# -- seeds (R12) -----------------------------------------------------------------------------------


def test_r12_game_seed_is_the_games_spawned_child_whatever_the_batch() -> None:
    children = np.random.SeedSequence(11).spawn(40)
    for i in (0, 1, 17, 39):
        want = children[i].spawn(2)[0]
        assert game_seed(11, i).generate_state(4).tolist() == want.generate_state(4).tolist()
    assert game_seed(11, 3).spawn_key == (3, 0)


def test_r12_each_row_is_the_game_play_gives_for_its_seed(reference: Results) -> None:
    df = reference.to_pandas()
    assert df["game"].tolist() == list(range(30))
    for i in (0, 7, 29):
        played = play_game(SMALL, AGENTS, game_seed(5, i))
        assert df["winner"][i] == played.result.winner
        assert df["turns"][i] == played.result.turns
        assert list(df["elimination_order"][i]) == list(played.result.elimination_order)
        assert list(df["pieces_left"][i]) == [len(played.game.pieces(s)) for s in range(2)]


def test_r12_rows_do_not_depend_on_the_chunk_size(reference: Results) -> None:
    for size in (7, None):
        assert_same_rows(simulate(SMALL, AGENTS, 30, seed=5, workers=0, chunk_size=size), reference)


def test_seat_shuffle_comes_from_its_own_branch_of_the_game_seed() -> None:
    orders = {tuple(seat_order(3, i, 4, shuffle=True)) for i in range(50)}
    assert len(orders) > 10 and all(sorted(o) == [0, 1, 2, 3] for o in orders)
    assert seat_order(3, 9, 4, shuffle=True) == seat_order(3, 9, 4, shuffle=True)
    ss = np.random.SeedSequence(3, spawn_key=(9, 1))
    assert seat_order(3, 9, 4, True) == list(np.random.default_rng(ss).permutation(4))
    results = simulate(SMALL, AGENTS, 12, seed=3, workers=0, shuffle_seats=True)
    df = results.to_pandas()
    assert {tuple(s) for s in df["seats"]} == {(0, 1), (1, 0)}
    for seats, agents, winner, who in zip(
        df["seats"], df["agents"], df["winner"], df["winner_agent"], strict=True
    ):
        assert list(agents) == [["greedy", "random"][j] for j in seats]
        assert who == agents[winner]


# -- Ray -------------------------------------------------------------------------------------------


def test_ray_rows_equal_serial_rows_for_1_and_2_workers(
    ray_local, reference: Results, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_flight: list[int] = []
    wait = ray_local.wait

    def spy(refs, *args, **kwargs):
        in_flight.append(len(refs))
        return wait(refs, *args, **kwargs)

    monkeypatch.setattr(ray_local, "wait", spy)
    one = simulate(SMALL, AGENTS, 30, seed=5, workers=1, chunk_size=4)
    two = simulate(SMALL, AGENTS, 30, seed=5, workers=2)
    assert_same_rows(one, reference)
    assert_same_rows(two, reference)
    assert one.run is not None and one.run.mode == "ray" and one.run.chunk_sizes[0] == 4
    assert max(in_flight) <= 2, "more tasks in flight than workers"
    assert ray_local.is_initialized(), "simulate shut down a Ray it did not start"


def test_ray_grid_with_shuffled_seats_equals_serial(ray_local) -> None:
    variants = rules_grid(SMALL, {"hovercraft.cost": [1, 3]})
    serial = simulate(variants, AGENTS, 10, seed=2, workers=0, shuffle_seats=True, chunk_size=3)
    ray = simulate(variants, AGENTS, 10, seed=2, workers=2, shuffle_seats=True)
    assert_same_rows(ray, serial)


def test_ray_reports_a_failing_game_with_its_index(ray_local) -> None:
    broke = GreedyAgent(army=GivenArmy(["army+chief"] + ["fortress"] * 3))  # over budget
    with pytest.raises(SimulationError, match=r"variant 'base', game 0: .*choosing its army"):
        simulate(SMALL, [GreedyAgent(), broke], 4, seed=1, workers=1)


def test_ray_plays_no_more_games_at_a_time_than_cpus(ray_local, reference: Results) -> None:
    """``workers=1000`` on the 2 CPUs of the test Ray: 2 at a time, and the run says so."""
    many = simulate(SMALL, AGENTS, 30, seed=5, workers=1000)
    assert many.run is not None and many.run.workers == 2
    assert "2 at a time: 1000 asked, 2 CPUs" in str(many.run)
    assert_same_rows(many, reference)


def test_ray_workers_import_this_package_from_any_folder(tmp_path: Path) -> None:
    """From a folder that holds a folder named ``antipolix`` (a clone's parent), Ray's workers
    imported that folder (Ray puts the driver's folder first on their path) and every game
    failed with ``cannot import name '__version__'``."""
    command = Path(sys.executable).with_name("antipolix")
    if not command.exists():
        pytest.skip("no antipolix command beside this Python")
    (tmp_path / "antipolix" / "antipolix").mkdir(parents=True)  # a clone, seen from above
    argv = ["simulate", "--games", "3", "--workers", "1", "--agents", "random,random"]
    argv += ["--rule", "shape=4,8,8", "--rule", "max_turns=20", "--no-progress"]
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    proc = subprocess.run(
        [str(command), *argv], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "3 games, seed 0" in proc.stdout
    assert "ImportError" not in proc.stderr


# -- grids -----------------------------------------------------------------------------------------


def test_grid_tags_rows_by_variant_and_plays_the_same_seeds() -> None:
    variants = rules_grid(SMALL, {"hovercraft.cost": [1, 2], "invisible.cost": [4]})
    assert list(variants) == [
        "hovercraft.cost=1 invisible.cost=4",
        "hovercraft.cost=2 invisible.cost=4",
    ]
    results = simulate(variants, AGENTS, 6, seed=4, workers=0)
    df = results.to_pandas()
    assert results.variants == list(variants)
    assert repr(results).endswith(": 12 of 12 games, 2 variants, seed 4)")
    assert df.groupby("variant", sort=False).size().tolist() == [6, 6]
    for name, rules in variants.items():
        overrides = df.loc[df["variant"] == name, "overrides"].iloc[0]
        assert apply_overrides(Rules(), overrides.split()) == rules  # the tag rebuilds the rules
        assert results.rules(name) == rules
    one = simulate(variants["hovercraft.cost=1 invisible.cost=4"], AGENTS, 6, seed=4, workers=0)
    first = df[df["variant"] == "hovercraft.cost=1 invisible.cost=4"].reset_index(drop=True)
    assert first.drop(columns=["variant", "seconds"]).equals(
        one.to_pandas().drop(columns=["variant", "seconds"])
    )


def test_a_list_of_rules_is_named_by_what_differs() -> None:
    results = simulate([SMALL, dataclasses.replace(SMALL, max_turns=50)], AGENTS, 2, 1, workers=0)
    assert results.variants == ["max_turns=100", "max_turns=50"]
    with pytest.raises(SimulationError, match="same rules"):
        simulate([SMALL, SMALL], AGENTS, 2, 1, workers=0)


def test_rules_overrides_round_trip_through_apply_overrides() -> None:
    options = ["players=6", "shape=6,12,12", "timers=false", "p_destroy=0.5", "p_convert=0.2",
               "hovercraft.cost=1", "invisible.cost=4"]  # fmt: skip
    rules = apply_overrides(Rules(), options)
    assert apply_overrides(Rules(), rules_overrides(rules)) == rules
    assert rules_overrides(Rules()) == []


# -- results ---------------------------------------------------------------------------------------


def test_results_table_and_helpers(reference: Results) -> None:
    df = reference.to_pandas()
    items = [f"n_{kind}{suffix}" for kind in ("army", "hovercraft", "fortress")
             for suffix in ("", "_invisible", "_teleporter", "_chief")]  # fmt: skip
    assert list(df.columns) == [
        "variant", "overrides", "game", "seed", "players", "seats", "agents",
        "army_cost", "winner", "winner_agent", "reason", "turns", "elimination_order",
        "pieces_left", "cost_left", "seconds", *items,
        "teleport_moves", "fortress_defences", "crushes", "elimination_reason",
    ]  # fmt: skip
    assert str(df["winner"].dtype) == "Int64" and (df["seconds"] > 0).all()
    assert all(c <= SMALL.army_budget for costs in df["army_cost"] for c in costs)
    # armies are counts a pandas user filters on: one chief per seat, costs that add up (R2, R3)
    chiefs = df["n_army_chief"].map(np.array) + df["n_hovercraft_chief"].map(np.array)
    assert all((c == 1).all() for c in chiefs)
    cost = {f"n_{k.name.lower()}{'' if t is Trait.NONE else '_' + t.name.lower()}":
            SMALL.piece_cost(k, t) for k in PieceType for t in Trait}  # fmt: skip
    for _, row in df.iterrows():
        spent = sum(np.array(row[c]) * v for c, v in cost.items())
        assert spent.tolist() == list(row["army_cost"])
    with_fortress = df[df["n_fortress"].map(sum) > 0]  # filtering needs no parsing
    assert len(with_fortress) < len(df)
    by_agent = reference.win_rates("agent").set_index("agent")
    wins = df["winner_agent"].value_counts()
    draws = int(df["winner"].isna().sum())
    for agent in ("greedy", "random"):
        row = by_agent.loc[agent]
        assert row["games"] == 30 and row["wins"] == wins.get(agent, 0)
        assert row["draws"] == draws
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
    by_seat = reference.win_rates("seat")
    assert by_seat["seat"].tolist() == [0, 1]
    assert by_seat["wins"].sum() + draws == 30
    turns = reference.turns()
    assert turns.loc[0, "games"] == 30 and turns.loc[0, "mean"] == pytest.approx(df["turns"].mean())
    assert turns.loc[0, "p50"] == pytest.approx(df["turns"].median())
    text = reference.summary()
    assert "games won by agent" in text and "games won by seat" in text and "turns per game" in text


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval([0, 10, 1], [10, 10, 0])
    assert lo[0] == 0 and hi[0] == pytest.approx(0.2775, abs=1e-4)
    assert hi[1] == 1 and lo[1] == pytest.approx(0.7225, abs=1e-4)
    assert np.isnan(lo[2]) and np.isnan(hi[2])


def test_the_folder_is_a_parquet_dataset_that_reopens(reference: Results) -> None:
    folder = reference.path
    assert (folder / STUDY_FILE).is_file() and len(reference.files()) == 30
    assert reference.files()[0].name == "v0000-0000000000-0000000001.parquet"
    direct = pd.read_parquet(folder).sort_values("game").reset_index(drop=True)  # as pandas sees it
    assert direct["game"].tolist() == list(range(30))
    again = Results.open(folder)
    assert_same_rows(again, reference)
    assert again.complete and again.agents == ["greedy", "random"] and again.rules() == SMALL
    assert repr(again) == f"Results({str(folder)!r}: 30 of 30 games, 1 variant, seed 5)"
    assert pq.read_schema(reference.files()[0]).names == list(reference.table.column_names)


def test_replays_are_written_and_replayed(tmp_path: Path) -> None:
    results = simulate(SMALL, AGENTS, 3, seed=8, workers=0, out=tmp_path, replays=True)
    df = results.to_pandas()
    files = sorted((tmp_path / "_replays" / "v0000").iterdir())
    assert [f.name for f in files] == [f"game-{i:010d}.apx.json.gz" for i in range(3)]
    replay = load_replay(files[2])
    assert replay.result.turns == df["turns"][2] and replay.result.winner == df["winner"][2]
    result = results.replay(2, tmp_path / "again.apx.json.gz")
    assert (tmp_path / "again.apx.json.gz").read_bytes() == files[2].read_bytes()
    assert result.turns == df["turns"][2]


# -- resume ----------------------------------------------------------------------------------------


def test_resume_plays_only_missing_games(tmp_path: Path, reference: Results) -> None:
    first = simulate(SMALL, AGENTS, 30, seed=5, workers=0, out=tmp_path, chunk_size=4)
    files = first.files()
    assert len(files) == 8
    for f in (files[0], files[3], files[-1]):  # as if the run had died before writing them
        f.unlink()
    (tmp_path / ".v0000-0000000004-0000000008.parquet.123.tmp").write_bytes(b"half a file")
    again = simulate(SMALL, AGENTS, 30, seed=5, workers=0, out=tmp_path, chunk_size=3)
    assert again.run is not None
    assert again.run.games_before == 30 - 4 - 4 - 2 and again.run.games_played == 10
    assert_same_rows(again, reference)
    assert not list(tmp_path.glob(".*.tmp"))
    done = simulate(SMALL, AGENTS, 30, seed=5, workers=0, out=tmp_path)
    assert done.run is not None and done.run.games_played == 0


def test_an_out_holding_another_study_is_refused(tmp_path: Path) -> None:
    simulate(SMALL, AGENTS, 4, seed=5, workers=0, out=tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    study = json.loads((tmp_path / STUDY_FILE).read_text())
    for kwargs, what in [
        ({"seed": 6}, "seed: 5 there, 6 now"),
        ({"games": 5, "seed": 6}, r"\(seed: 5 there, 6 now\)"),  # (a study may grow)
        ({"agents": [RandomAgent(), GreedyAgent()]}, "agents differ"),
        ({"rules": Rules(shape=(4, 8, 8), players=2)}, "variants differ"),
        ({"shuffle_seats": True}, "shuffle_seats"),
    ]:
        args = {"rules": SMALL, "agents": AGENTS, "games": 4, "seed": 5} | kwargs
        with pytest.raises(SimulationError, match=f"holds a different study.*{what}"):
            simulate(**args, workers=0, out=tmp_path)  # type: ignore[arg-type]
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert json.loads((tmp_path / STUDY_FILE).read_text()) == study


def test_asking_for_more_games_of_the_same_study_adds_them(
    tmp_path: Path, reference: Results
) -> None:
    """A study grows (games 0 … n − 1 are the same whatever the total, R12); it never shrinks."""
    simulate(SMALL, AGENTS, 12, seed=5, workers=0, out=tmp_path, chunk_size=4)
    first = {p.name: p.read_bytes() for p in tmp_path.glob("*.parquet")}
    grown = simulate(SMALL, AGENTS, 30, seed=5, workers=0, out=tmp_path)
    assert grown.run is not None and grown.run.games_before == 12
    assert grown.run.games_played == 18 and grown.complete and grown.games == 30
    assert all((tmp_path / n).read_bytes() == data for n, data in first.items())
    assert_same_rows(grown, reference)
    with pytest.raises(SimulationError, match="holds this study with 30 games; ask for 30 or more"):
        simulate(SMALL, AGENTS, 20, seed=5, workers=0, out=tmp_path)
    assert Results.open(tmp_path).games == 30


def test_progress_moves_within_seconds_however_many_games(tmp_path: Path) -> None:
    """10¹¹ games in this process: the first chunk is small and the bar moves with every game
    (it sat still for minutes: the first chunk was 2 × 10⁷ games)."""

    class Enough(Exception):
        pass

    seen: list[tuple[int, float]] = []
    began = time.perf_counter()

    def progress(done: int, total: int) -> None:
        assert total == 10**11
        seen.append((done, time.perf_counter() - began))
        if done >= 3:
            raise Enough

    with pytest.raises(Enough):
        simulate(SMALL, AGENTS, 10**11, seed=5, workers=0, out=tmp_path, progress=progress)
    assert [d for d, _ in seen] == [0, 1, 2, 3]
    assert seen[-1][1] < 10.0
    planner = ChunkSizer([Chunk(0, 0, 10**11)], None, workers=2, total=10**11)
    first = planner.next()
    assert first is not None and first.games <= 4
    planner.record(first.games, 0.1 * first.games)
    second = planner.next()
    assert second is not None and second.games * 0.1 <= 90  # a task lasts 90 s at most


def test_a_second_run_on_the_same_out_is_refused_while_the_first_runs(tmp_path: Path) -> None:
    first = simulate(SMALL, AGENTS, 2, seed=5, workers=0, out=tmp_path)
    store = Store(tmp_path, first.study)
    store.open()
    try:
        with pytest.raises(SimulationError, match="another run is writing"):
            simulate(SMALL, AGENTS, 2, seed=5, workers=0, out=tmp_path)
    finally:
        store.close()


# -- memory: bounded chunks ------------------------------------------------------------------------


def test_a_million_games_make_a_bounded_number_of_chunks() -> None:
    planner = ChunkSizer([Chunk(0, 0, 1_000_000)], None, workers=2, total=1_000_000)
    chunks = []
    while (chunk := planner.next()) is not None:
        chunks.append(chunk)
        planner.record(chunk.games, 0.4 * chunk.games)  # as if each game took 0.4 s
    assert chunks[0].start == 0 and chunks[-1].stop == 1_000_000
    assert all(a.stop == b.start for a, b in itertools.pairwise(chunks))
    assert len(chunks) <= MAX_CHUNKS + 50
    assert max(c.games for c in chunks) <= 1_000_000 // MAX_CHUNKS


def test_automatic_chunks_last_seconds_and_shrink_at_the_end() -> None:
    planner = ChunkSizer([Chunk(0, 0, 2000)], None, workers=2, total=2000)
    sizes = []
    while (chunk := planner.next()) is not None:
        sizes.append(chunk.games)
        planner.record(chunk.games, 0.5 * chunk.games)
    assert sizes[0] == 4 and max(sizes) == 10  # 5 s tasks at 0.5 s per game
    assert sizes[-1] == 1 and sum(sizes) == 2000


# -- bad input -------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"games": 0}, SimulationError, "games must be an integer >= 1"),
        ({"games": -5}, SimulationError, "games must be an integer >= 1"),
        ({"games": 2.5}, SimulationError, "games must be"),
        ({"seed": -1}, SimulationError, "seed must be"),
        ({"agents": ["greedy", "nobody"]}, SimulationError, "unknown agent 'nobody'"),
        ({"agents": ["greedy"]}, SimulationError, "2 players need 2 agents"),
        ({"workers": -1}, SimulationError, "workers must be"),
        ({"chunk_size": 0}, SimulationError, "chunk_size must be"),
        ({"rules": "big"}, SimulationError, "rules must be a Rules"),
        ({"replays": True}, SimulationError, "replays=True needs an out"),
        ({"address": "auto", "workers": 0}, SimulationError, "an address needs Ray"),
        ({"address": "nohost"}, SimulationError, "HOST:PORT"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict, error: type, match: str) -> None:
    args = {"rules": SMALL, "agents": AGENTS, "games": 4, "seed": 1, "workers": 0} | kwargs
    with pytest.raises(error, match=match):
        simulate(**args)


def test_unreachable_cluster_is_refused_before_any_work(tmp_path: Path) -> None:
    out = tmp_path / "x"
    address = f"127.0.0.1:{_free_port()}"
    with pytest.raises(SimulationError, match=f"cannot reach the Ray cluster at {address}"):
        simulate(SMALL, AGENTS, 4, seed=1, address=address, out=out)
    assert not out.exists()


def test_unusable_out_folders_are_refused(tmp_path: Path) -> None:
    file = tmp_path / "file.txt"
    file.write_text("not a folder")
    with pytest.raises(SimulationError, match="not a folder"):
        simulate(SMALL, AGENTS, 2, seed=1, workers=0, out=file)
    with pytest.raises(SimulationError, match=r"cannot create .*file.txt is not a folder"):
        simulate(SMALL, AGENTS, 2, seed=1, workers=0, out=file / "sub")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    with pytest.raises(SimulationError, match="not empty and holds no study"):
        simulate(SMALL, AGENTS, 2, seed=1, workers=0, out=busy)
    assert sorted(p.name for p in busy.iterdir()) == ["notes.txt"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_read_only_out_is_refused(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    with pytest.raises(SimulationError, match="is not writable"):
        simulate(SMALL, AGENTS, 2, seed=1, workers=0, out=locked / "x")


def test_a_failing_game_is_reported_with_its_variant_and_index() -> None:
    broke = GreedyAgent(army=GivenArmy(["army+chief"] + ["fortress"] * 3))  # over budget
    with pytest.raises(SimulationError, match=r"game 0: agent 'greedy' \(seat 1\)") as info:
        simulate(SMALL, [GreedyAgent(), broke], 4, seed=1, workers=0)
    assert isinstance(info.value.__cause__, AgentError)


# -- the command -----------------------------------------------------------------------------------


def test_cli_simulate_prints_a_summary_and_writes_the_dataset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "small.toml"
    rules.write_text("shape = [4, 8, 8]\nmax_turns = 100\n[hovercraft]\ncost = 1\n")
    out = tmp_path / "runs" / "x"
    argv = ["simulate", "--games", "6", "--agents", "greedy,random", "--seed", "3",
            "--workers", "0", "--rules", str(rules), "--grid", "invisible.cost=4,6",
            "--shuffle-seats", "--out", str(out), "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "12 games, seed 3, agents greedy, random, seats shuffled" in text
    assert "variants (6 games each): invisible.cost=4, invisible.cost=6" in text
    assert "games won by agent" in text and str(out) in text
    results = Results.open(out)
    want = ["shape=4,8,8", "players=2", "max_turns=100", "hovercraft.cost=1", "invisible.cost=6"]
    assert results.rules("invisible.cost=6") == apply_overrides(Rules(), want)
    assert len(results) == 12
    assert main(argv) == 0  # nothing left to play: the same summary
    assert "12 games, seed 3" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "4", "--rule", "players=3"], "the rules are for 3 players but 2 agents"),
        (["--games", "4", "--rule", "hovercraft.cost=-1"], "invalid rules"),
        (["--games", "4", "--grid", "hovercraft.cost"], "a grid is KEY=V1,V2"),
        (["--games", "4", "--grid", "nothing.cost=1,2"], "unknown option"),
        (["--games", "4", "--grid", "players=2,3"], "run a study for each player count"),
        (["--games", "4", "--address", "127.0.0.1:1"], "cannot reach the Ray cluster"),
    ],
)
def test_cli_simulate_bad_input(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["simulate", "--agents", "greedy,random", "--rule", "shape=4,8,8", "--no-progress"]
    assert main(base + argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("antipolix: error: ") and message in err


def test_cli_simulate_refuses_zero_games(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--games", "0"])
    assert info.value.code == 2
    assert "games 0 must be >= 1" in capsys.readouterr().err


def test_rules_errors_stay_rules_errors() -> None:
    with pytest.raises(RulesError):
        rules_grid(SMALL, {"hovercraft.cost": [-1]})


def test_summary_shows_the_turn_limit_share_of_games() -> None:
    """R10: every game stopped by a 3-turn limit is a 100 % turn-limit share in the summary."""
    rules = Rules(shape=(4, 8, 8), players=2, max_turns=3)
    results = simulate(rules, ["random", "random"], games=4, seed=2, workers=0)
    assert results.turns()["turn_limit"].tolist() == [1.0]
    assert "100.0 %" in results.summary().split("turns per game:")[1]


def test_rows_say_why_each_seat_left_the_game_on_both_paths(tmp_path: Path) -> None:
    """R7, R8: clocks of about 6.7 s (time_total 20 for 3 players) run out in some games and
    chiefs are taken in others; the compiled games and the games through Game (asked for
    replays) write the same reason per seat, a reason for each seat out and none for the
    seats in, and the summary counts them."""
    rules = Rules(shape=(4, 8, 8), players=3, time_total=20.0)
    agents = ["greedy", "greedy", "greedy"]
    whole = simulate(rules, agents, games=12, seed=1, workers=0)
    through_game = simulate(
        rules, agents, games=12, seed=1, workers=0, out=tmp_path / "g", replays=True
    )
    assert_same_rows(whole, through_game)
    df = whole.to_pandas()
    for order, why in zip(df["elimination_order"], df["elimination_reason"], strict=True):
        assert {s for s, r in enumerate(why) if r is not None} == set(order)
    seen = Counter(r for why in df["elimination_reason"] for r in why if r is not None)
    assert seen["timer"] > 0 and seen["chief"] > 0 and set(seen) <= {"timer", "chief", "quit"}
    table = whole.eliminations()  # one agent in every seat: one row
    staying = sum(3 - len(order) for order in df["elimination_order"])
    assert table[["seats", "chief", "timer", "quit", "in at the end"]].iloc[0].tolist() == [
        36,
        seen["chief"],
        seen["timer"],
        seen["quit"],
        staying,
    ]
    assert "unrecorded" not in table  # (every chunk says)
    section = whole.summary().split("how players left the games")[1]
    assert f"{seen['chief']}" in section and f"{seen['timer']}" in section


def test_eliminations_are_counted_per_agent_and_seat_held() -> None:
    """Each agent's seats, by how they left their games (R7, R8) or stayed in (R10): the
    planner's one seat of three in each game, greedy's two."""
    rules = Rules(shape=(4, 8, 8), players=3, time_total=20.0)
    results = simulate(rules, ["planner", "greedy", "greedy"], games=10, seed=3, workers=0)
    table = results.eliminations().set_index("agent")
    assert table.loc["planner", "seats"] == 10 and table.loc["greedy", "seats"] == 20
    df = results.to_pandas()
    for agent, seats in (("planner", [0]), ("greedy", [1, 2])):
        whys = [why[s] for why in df["elimination_reason"] for s in seats]
        for reason in ("chief", "timer", "quit"):
            assert table.loc[agent, reason] == whys.count(reason)
        assert table.loc[agent, "in at the end"] == whys.count(None)


def test_how_games_ended_lists_the_reasons_in_one_order_whatever_the_first_game() -> None:
    """R10: the summary's table of how games ended has its reasons in alphabetical order, so
    that two studies read side by side line up (the order of the first games seen set it)."""
    rules = Rules(shape=(4, 8, 8), players=2, max_turns=25)
    firsts, headers = set(), set()
    for seed in range(4):
        results = simulate(rules, ["greedy", "greedy"], games=6, seed=seed, workers=0)
        reasons = results.reasons()
        assert list(reasons.columns) == sorted(reasons.columns)
        firsts.add(results.to_pandas()["reason"].iloc[0])
        section = results.summary().split("how games ended:\n")[1].splitlines()[0]
        headers.add(" ".join(section.split()))
    assert len(firsts) > 1  # (studies whose first game ended differently)
    assert len(headers) == 1
