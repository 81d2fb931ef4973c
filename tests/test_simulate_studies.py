"""Several studies in one pool (:func:`simulate_studies`, what a tournament plays its seat orders
with): each folder ends with the rows a separate :func:`simulate` writes (R12), on Ray and in
this process; a second call plays only what is missing; a bad study is refused before any game
is played or anything is written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from antipolix import Results, Rules, simulate
from antipolix.errors import SimulationError
from antipolix.runner import progress, run
from antipolix.runner.progress import Bar, TimeLeft
from antipolix.runner.rows import DETERMINISTIC_COLUMNS
from antipolix.runner.run import StudyJob, simulate_studies

RULES = Rules(shape=(4, 8, 8), players=2, max_turns=100)
COLUMNS = list(DETERMINISTIC_COLUMNS)


def jobs(folder: Path) -> list[StudyJob]:
    return [
        StudyJob(RULES, ["greedy", "random"], 7, 1, folder / "a"),
        StudyJob(RULES, ["random", "greedy"], 3, 2, folder / "b"),
        StudyJob(RULES, ["planner", "random"], 12, 1, folder / "c"),
    ]


def alone(job: StudyJob) -> Any:
    return simulate(job.rules, job.agents, job.games, job.seed, workers=0).to_pandas()[COLUMNS]


def test_studies_in_one_ray_pool_give_the_rows_of_separate_runs(
    tmp_path: Path, ray_local: Any
) -> None:
    todo = jobs(tmp_path)
    seen: list[tuple[int, int]] = []
    played = simulate_studies(
        todo, workers=2, chunk_size=2, progress=lambda done, total: seen.append((done, total))
    )
    assert played == [7, 3, 12]
    for job in todo:
        assert Results.open(job.out).to_pandas()[COLUMNS].equals(alone(job))
    assert seen[0] == (0, 22) and seen[-1] == (22, 22)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)  # never backwards
    assert simulate_studies(todo, workers=2) == [0, 0, 0]  # nothing missing: nothing played
    assert ray_local.is_initialized(), "simulate_studies shut down a Ray it did not start"


def test_in_process_a_second_call_plays_only_what_is_missing(tmp_path: Path) -> None:
    todo = jobs(tmp_path)
    first = todo[0]
    simulate(first.rules, first.agents, 4, first.seed, workers=0, out=first.out)  # 4 of its 7
    played = simulate_studies(todo, workers=0)
    assert played == [3, 3, 12]
    for job in todo:
        assert Results.open(job.out).to_pandas()[COLUMNS].equals(alone(job))


def test_a_bad_study_is_refused_before_any_game(tmp_path: Path) -> None:
    todo = jobs(tmp_path)
    simulate(RULES, ["random", "random"], 2, 5, workers=0, out=todo[2].out)  # another study
    held = sorted(p.name for p in todo[2].out.iterdir())
    with pytest.raises(SimulationError, match="holds a different study"):
        simulate_studies(todo, workers=0)
    assert not todo[0].out.exists() and not todo[1].out.exists()
    assert sorted(p.name for p in todo[2].out.iterdir()) == held
    with pytest.raises(SimulationError, match="chunk_size must be None or an integer >= 1"):
        simulate_studies(todo[:2], workers=0, chunk_size=0)
    assert not todo[0].out.exists()


def test_the_bar_of_a_run_of_studies_counts_each_studys_games_and_their_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    made: list[TimeLeft] = []

    def bar(left: TimeLeft) -> Bar:
        made.append(left)
        return Bar(every=0, left=left)

    monkeypatch.setattr(run, "Bar", bar)
    monkeypatch.setattr(progress, "_interactive", lambda: False)
    simulate_studies(jobs(tmp_path), workers=0, chunk_size=2, progress=True)
    (left,) = made
    assert left.left == [0, 0, 0]
    assert left.games == [7, 3, 12]  # each chunk counted for its own study
    assert all(s > 0 for s in left.seconds)
    log = capsys.readouterr().err.splitlines()
    assert log[0] == "games: 0/22 (0 %)"
    assert any("left" in line for line in log[1:-1])
    assert log[-1].startswith("games: 22/22 (100 %)") and "left" not in log[-1]
