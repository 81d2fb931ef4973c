"""The progress of a batch (antipolix.runner.progress): a bar on a terminal, lines in a log."""

from __future__ import annotations

import pytest

from antipolix.runner import progress
from antipolix.runner.progress import Bar, TimeLeft


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(progress, "_now", c)
    monkeypatch.setattr(progress, "_interactive", lambda: False)
    return c


def lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    out, err = capsys.readouterr()
    assert out == ""
    return err.splitlines()


def test_a_log_gets_a_line_at_the_start_then_at_most_one_a_minute_and_one_at_the_end(
    clock: Clock, capsys: pytest.CaptureFixture[str]
) -> None:
    bar = Bar()
    bar(0, 400)
    assert lines(capsys) == ["games: 0/400 (0 %)"]
    clock.now += 30
    bar(100, 400)
    assert lines(capsys) == []  # under a minute since the last line
    clock.now += 30
    bar(200, 400)
    assert lines(capsys) == ["games: 200/400 (50 %), 3.33 games/s, about 60 s left"]
    clock.now += 60
    bar(400, 400)  # the end is written whenever it comes
    assert lines(capsys) == ["games: 400/400 (100 %), 3.33 games/s"]
    bar.close()  # nothing new to say
    assert lines(capsys) == []


def test_a_resumed_batch_counts_its_rate_from_the_games_it_plays(
    clock: Clock, capsys: pytest.CaptureFixture[str]
) -> None:
    bar = Bar(every=0)
    bar(900, 960)  # 900 were in the folder already
    clock.now += 600
    bar(930, 960)
    assert lines(capsys) == [
        "games: 900/960 (93 %)",
        "games: 930/960 (96 %), 0.05 games/s, about 10 min left",
    ]


def test_close_writes_where_the_batch_stopped_and_describe_renames_the_line(
    clock: Clock, capsys: pytest.CaptureFixture[str]
) -> None:
    bar = Bar()
    bar(0, 10_000)
    bar.describe("generation 3")
    clock.now += 7200
    bar(3000, 10_000)
    clock.now += 1
    bar(3010, 10_000)
    bar.note("a note")
    bar.close()
    assert lines(capsys) == [
        "games: 0/10000 (0 %)",
        "generation 3: 3000/10000 (30 %), 0.417 games/s, about 4.7 h left",
        "a note",
        "generation 3: 3010/10000 (30 %), 0.418 games/s, about 4.6 h left",
    ]


def test_a_terminal_gets_the_tqdm_bar_and_no_plain_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "_interactive", lambda: True)
    bar = Bar(every=0)
    bar(0, 10)
    bar(10, 10)
    assert bar._bar is not None and bar._bar.n == 10
    bar.close()
    assert "games: 10/10 (100 %)" not in capsys.readouterr().err


def test_the_time_left_counts_each_study_at_the_cost_of_its_own_games(clock: Clock) -> None:
    left = TimeLeft([1000, 10])  # cheap games, then a few dear ones
    assert left() is None  # nothing played yet
    clock.now += 2.5
    left.played(0, 500, 5.0)  # 0.01 s each, 2 s of play a second
    assert left() == pytest.approx((500 * 0.01 + 10 * 0.01) / 2)  # the dear at the mean so far
    clock.now += 60
    left.played(1, 2, 120.0)  # 60 s each: 125 s of play in 62.5 s
    assert left() == pytest.approx((500 * 0.01 + 8 * 60) / 2)
    clock.now += 40  # no chunk since: the time passed is taken off
    assert left() == pytest.approx((500 * 0.01 + 8 * 60) / 2 - 40)
    clock.now += 10_000
    assert left() == 0.0


def test_the_time_left_counts_from_the_start_of_the_games(clock: Clock) -> None:
    left = TimeLeft([100])
    clock.now += 300  # compiling, starting Ray: no games are played
    left.start()
    clock.now += 10
    left.played(0, 20, 20.0)  # 2 s of play a second since the start
    assert left() == pytest.approx(80 * 1.0 / 2)


def test_a_log_tells_the_time_left_of_a_time_left_when_given(
    clock: Clock, capsys: pytest.CaptureFixture[str]
) -> None:
    left = TimeLeft([990, 10])
    bar = Bar(every=0, left=left)
    bar(0, 1000)
    clock.now += 10
    left.played(0, 990, 9.9)  # the rate says 1 s left, but the ten dear games remain ...
    bar(990, 1000)
    clock.now += 100
    left.played(1, 1, 100.0)  # ... at 100 s each
    bar(991, 1000)
    clock.now += 900
    left.played(1, 9, 900.0)
    bar(1000, 1000)
    assert lines(capsys) == [
        "games: 0/1000 (0 %)",
        "games: 990/1000 (99 %), 99 games/s, about 0 s left",
        "games: 991/1000 (99 %), 9.01 games/s, about 15 min left",
        "games: 1000/1000 (100 %), 0.99 games/s",
    ]


def test_a_terminal_bar_shows_the_time_left_of_a_time_left_instead_of_its_own(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "_interactive", lambda: True)
    bar = Bar(every=0, left=lambda: 1800.0)
    bar(0, 10)
    bar(5, 10)
    assert bar._bar is not None
    assert bar._bar.postfix == "about 30 min left"
    assert "{remaining}" not in bar._bar.bar_format
    bar(10, 10)
    assert bar._bar.postfix == ""  # done: nothing left to tell
    bar.close()
    assert "about 30 min left" in capsys.readouterr().err
