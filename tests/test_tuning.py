"""Self-play tuning (antipolix.tuning): the search space, the fitness games and their accounting,
determinism, resuming, refusals, and the ``antipolix tune`` command, on a small board."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from antipolix import Rules
from antipolix.agents import PlannerAgent
from antipolix.agents.planner import DEFAULT_WEIGHTS, WEIGHT_NAMES, WEIGHTS
from antipolix.agents.tuned import tuned_weights
from antipolix.autoplay import play_games
from antipolix.cli import main
from antipolix.end import EndReason
from antipolix.tuning import Space, TuningError, check_weights, tune
from antipolix.tuning import evaluate as ev
from antipolix.tuning.study import LOG_FILE, STUDY_FILE

# 3×8×8, two players: decided games in about 100 turns, a few ms each
RULES = Rules(shape=(3, 8, 8), players=2, think_times="drawn")
SMALL: dict[str, Any] = {
    "generations": 3,
    "population": 4,
    "games": 4,
    "seed": 5,
    "weights": ["win", "press", "advance"],
    "rules": RULES,
    "workers": 0,
}


def command(args: list[str]) -> int:
    """``antipolix ARGS``' exit code (argparse refuses bad arguments by SystemExit)."""
    try:
        return main(args)
    except SystemExit as exc:
        return int(exc.code or 0)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}


# -- the search space ------------------------------------------------------------------------------


def test_scaling_round_trip_every_weight() -> None:
    space = Space.of()
    assert space.names == WEIGHT_NAMES
    rng = np.random.default_rng(1)
    for x in rng.uniform(0, 1, (20, space.dims)):
        back = space.scale(space.unscale(x))
        np.testing.assert_allclose(back, x, rtol=0, atol=1e-12)
        np.testing.assert_allclose(space.scale(space.full(DEFAULT_WEIGHTS, x)), x, atol=1e-12)
    assert space.scale({w.name: w.low for w in WEIGHTS}).tolist() == [0.0] * space.dims
    assert space.scale({w.name: w.high for w in WEIGHTS}).tolist() == [1.0] * space.dims
    # a subset keeps the planner's order and leaves the other weights as they were
    sub = Space.of(["crush", "win"])
    assert sub.names == ("win", "crush")
    full = sub.full(DEFAULT_WEIGHTS, [1.0, 0.5])
    assert full[WEIGHT_NAMES.index("win")] == 400.0
    assert full[WEIGHT_NAMES.index("crush")] == 2.0
    others = [i for i, n in enumerate(WEIGHT_NAMES) if n not in ("win", "crush")]
    assert np.array_equal(full[others], DEFAULT_WEIGHTS[others])


@pytest.mark.parametrize(
    ("names", "message"),
    [(["win", "nope"], "no weight 'nope'"), (["win", "win"], "named twice"), ([], "at least one")],
)
def test_space_refuses_bad_names(names: list[str], message: str) -> None:
    with pytest.raises(TuningError, match=message):
        Space.of(names)


# -- fitness games -------------------------------------------------------------------------------


def test_schedule_alternates_seats_and_shares_games_between_entries() -> None:
    matches = ev.schedule(games=8, generation=3, entries=3, hall=2)
    per_entry = [[m[1:] for m in matches if m.entry == e] for e in range(3)]
    assert per_entry[0] == per_entry[1] == per_entry[2]  # common random numbers
    games = per_entry[0]
    assert [seat for _, seat, _ in games] == [0, 1] * 4
    assert [key for _, _, key in games] == [(1, 3, p) for p in (0, 0, 1, 1, 2, 2, 3, 3)]
    # pairs alternate: planner, hall member 1, planner, hall member 2
    assert [opp for opp, _, _ in games] == [0, 0, 1, 1, 0, 0, 2, 2]
    # no hall of fame yet: every game against the planner
    assert {m.opponent for m in ev.schedule(8, 0, 2, 0)} == {ev.PLANNER}


def test_tally_counts_wins_draws_losses_and_the_planner_share() -> None:
    matches = ev.schedule(games=4, generation=0, entries=2, hall=1)  # opponents 0, 0, 1, 1
    outcomes = [ev.WIN, ev.DRAW, ev.LOSS, ev.WIN, ev.DRAW, ev.DRAW, ev.DRAW, ev.LOSS]
    first, second = ev.tally(matches, outcomes, 2)
    assert first.record == (2, 1, 1) and first.planner == (1, 1, 0)
    assert first.score == (2 + 0.5) / 4 and first.planner_score == 0.75
    assert second.record == (0, 3, 1) and second.planner == (0, 2, 0)
    assert second.score == 1.5 / 4
    low_first, low_second = ev.tally(matches, outcomes, 2, draw=0.0)  # a draw scores nothing
    assert low_first.score == 2 / 4 and low_first.planner_score == 0.5
    assert low_second.score == 0.0
    quarter = ev.tally(matches, outcomes, 2, draw=0.25)[1]
    assert quarter.score == 0.75 / 4


def test_a_study_with_draws_scored_low_logs_those_scores(tmp_path: Path) -> None:
    """The log's scores are the records scored with the study's draw value, and a study with
    another draw value is another study."""
    out = tmp_path / "t"
    result = tune(out, **(SMALL | {"draw": 0.0}))
    assert json.loads((out / STUDY_FILE).read_text())["draw"] == 0.0
    drawn = 0
    for line in result.log:
        for score, (w, d, lost) in zip(line["scores"], line["records"], strict=True):
            assert score == w / (w + d + lost)
            drawn += d
    assert drawn > 0  # the small board has draws, so the value matters
    report = " ".join((out / "report.md").read_text().split())
    assert "a draw scoring 0" in report
    # the rules it was tuned under: every option changed from the 1995 rules
    assert "options changed from the 1995 rules: `shape=" in report
    with pytest.raises(TuningError, match=r"draw: 0\.0 there, 0\.5 now"):
        tune(out, **SMALL)


def test_a_study_written_before_draw_and_mirror_were_settings_resumes(tmp_path: Path) -> None:
    out = tmp_path / "t"
    first = tune(out, **SMALL)
    settings = json.loads((out / STUDY_FILE).read_text())
    del settings["draw"], settings["mirror"]
    (out / STUDY_FILE).write_text(json.dumps(settings))
    again = tune(out, **SMALL)
    assert again.log == first.log and again.played == 0


def test_outcomes_are_the_entrys_whatever_its_seat() -> None:
    """Each outcome is the game's winner seen from the entry's seat: replayed one by one with
    play_games, the seats put back as the match says."""
    vector = tuple(float(v) for v in tuned_weights())
    batch = ev.Batch(RULES, 9, (vector,), (None,))
    matches = ev.schedule(games=12, generation=0, entries=1, hall=0)
    outcomes = ev.play_matches(batch, matches)
    assert set(outcomes) >= {ev.WIN, ev.LOSS}  # the test sees both sides
    for m, outcome in zip(matches, outcomes, strict=True):
        seats = [ev.tuned(vector), PlannerAgent()]
        if m.seat == 1:
            seats.reverse()
        (played,) = play_games(RULES, [(seats, np.random.SeedSequence(9, spawn_key=m.key))])
        assert played is not None
        winner = played.result.winner
        expected = ev.DRAW if winner is None else ev.WIN if winner == m.seat else ev.LOSS
        assert outcome == expected
    # the chunking of a batch changes nothing
    assert ev.play_matches(batch, matches[:5]) + ev.play_matches(batch, matches[5:]) == outcomes


RULES4 = Rules(shape=(3, 8, 8), players=4, think_times="drawn", zones=False)


def test_schedule_rotates_the_entry_through_every_seat_of_a_group() -> None:
    """At four players a group is four games from one seed, the entry in seats 0 … 3."""
    games = [m[1:] for m in ev.schedule(games=16, generation=2, entries=2, hall=1, players=4)]
    assert games[:16] == games[16:]  # both entries play the same games
    assert [seat for _, seat, _ in games[:16]] == [0, 1, 2, 3] * 4
    assert [key for _, _, key in games[:16]] == [(1, 2, g) for g in range(4) for _ in range(4)]
    assert [opp for opp, _, _ in games[:16:4]] == [0, 1, 0, 1]


def test_a_mirror_study_plays_every_third_group_against_the_entry_itself() -> None:
    """With ``mirror`` every third group is the entry alone at its table: one game per entry
    and seed (the game of four copies, replayed with play_games), seen from each seat, so that
    its meetings are as often ahead as behind and its draws are the table's."""
    matches = ev.schedule(games=24, generation=3, entries=2, hall=2, players=4, mirror=True)
    kinds = [m.opponent for m in matches[:24:4]]
    assert kinds == [ev.PLANNER, 1, ev.SELF, ev.PLANNER, 2, ev.SELF]
    assert [m.opponent for m in matches[:24:4]] == [m.opponent for m in matches[24::4]]
    first = ev.schedule(games=12, generation=0, entries=1, hall=0, players=4, mirror=True)
    assert [m.opponent for m in first[::4]] == [ev.PLANNER, ev.PLANNER, ev.SELF]
    vector = tuple(float(v) for v in tuned_weights())
    other = tuple(v * 0.5 for v in vector)
    batch = ev.Batch(RULES4, 6, (vector, other), (None,))
    mine = [m for m in ev.schedule(12, 0, 2, 0, 4, mirror=True) if m.opponent == ev.SELF]
    outcomes = ev.play_matches(batch, mine)
    for entry, v in enumerate((vector, other)):
        seen = [o for m, o in zip(mine, outcomes, strict=True) if m.entry == entry]
        (key,) = {m.key for m in mine if m.entry == entry}
        seats = [ev.tuned(v) for _ in range(4)]
        (played,) = play_games(RULES4, [(seats, np.random.SeedSequence(6, spawn_key=key))])
        assert played is not None
        assert seen == [ev.outcome(played, seat, 4) for seat in range(4)]
        assert sum(o[0] for o in seen) == sum(o[2] for o in seen)  # ahead as often as behind
    assert ev.play_matches(batch, mine[:3]) + ev.play_matches(batch, mine[3:]) == outcomes


def test_a_mirror_study_says_so_and_is_another_study(tmp_path: Path) -> None:
    out = tmp_path / "t"
    small = SMALL | {"rules": RULES4, "mirror": True, "draw": 0.0, "games": 12, "generations": 1}
    result = tune(out, **small)
    assert result.log[0]["opponents"] == ["planner", "itself"]
    assert json.loads((out / STUDY_FILE).read_text())["mirror"] is True
    assert "every third group of games the entry alone" in (out / "report.md").read_text()
    with pytest.raises(TuningError, match="mirror: True there, False now"):
        tune(out, **(small | {"mirror": False}))


def test_multiplayer_outcomes_count_meetings_by_finishing_place() -> None:
    """Each outcome is the entry's place against the three other seats (R10, R11), from the
    game replayed with play_games: ahead of those it outlived, behind the ones that outlived
    it, level with those still in the game at a draw."""
    vector = tuple(float(v) for v in tuned_weights())
    batch = ev.Batch(RULES4, 4, (vector,), (None,))
    matches = ev.schedule(games=8, generation=0, entries=1, hall=0, players=4)
    outcomes = ev.play_matches(batch, matches)
    assert all(sum(o) == 3 for o in outcomes)
    for m, o in zip(matches, outcomes, strict=True):
        seats: list[Any] = [PlannerAgent() for _ in range(4)]
        seats[m.seat] = ev.tuned(vector)
        (played,) = play_games(RULES4, [(seats, np.random.SeedSequence(4, spawn_key=m.key))])
        assert played is not None
        r = played.result
        out = r.elimination_order
        if r.winner == m.seat:
            assert o == (3, 0, 0)
        elif m.seat not in out:  # a draw, the entry still in: level with the others still in
            assert r.winner is None and o == (len(out), 4 - len(out) - 1, 0)
        elif r.reason is not EndReason.ALL_ELIMINATED:
            k = out.index(m.seat)  # outlived the k eliminated before it
            assert o == (k, 0, 3 - k)
    seen = {o for o in outcomes}
    assert len(seen) >= 2  # the test sees more than one kind of finish
    (t,) = ev.tally(matches, outcomes, 1)
    ahead, level, behind = t.record
    assert ahead + level + behind == 24 and t.score == (ahead + level / 2) / 24


def test_a_four_player_study_runs_and_checks(tmp_path: Path) -> None:
    result = tune(tmp_path / "t4", **(SMALL | {"rules": RULES4, "games": 4, "generations": 1}))
    assert result.settings["rules"]["players"] == 4
    (line,) = result.log
    assert all(sum(r) == 12 for r in line["records"])  # 4 games × 3 meetings
    check = check_weights(None, games=4, seed=3, rules=RULES4, workers=0)
    assert check.players == 4 and check.wins + check.draws + check.losses == 12
    assert "4-player games against the hand-set planner in every other seat" in check.line()
    report = (tmp_path / "t4" / "report.md").read_text()
    assert "4 4-player games each per generation" in report


def test_check_weights_reports_decided_games() -> None:
    check = check_weights(None, games=12, seed=3, rules=RULES, workers=0)
    assert check.wins + check.draws + check.losses == 12
    if check.decided:
        lo, hi = check.interval
        assert lo <= check.rate <= hi
    assert "12 games against the hand-set planner" in check.line()


def test_cma_es_is_told_to_maximise_the_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a made-up fitness (an entry wins a share of its games equal to its scaled ``win``
    weight), the mean climbs; told the score instead of its negative, it would fall."""
    space = Space.of(["win", "press"])

    def fake_play(self: ev.Pool, batch: ev.Batch, matches: Any, on_games: Any = None) -> Any:
        share = [space.scale(np.array(v))[0] for v in batch.entries]
        seen: dict[int, int] = {}
        out = []
        for m in matches:
            j = seen[m.entry] = seen.get(m.entry, -1) + 1
            out.append(ev.WIN if j < round(share[m.entry] * 20) else ev.LOSS)
        return out

    monkeypatch.setattr(ev.Pool, "play", fake_play)
    result = tune(
        tmp_path / "t", generations=8, population=6, games=20, seed=1, weights=["win", "press"]
    )
    start = result.settings["start"]["win"]
    assert result.tuned["win"] > start + 0.4 * (400 - start)


# -- the study: determinism, resuming, refusals ----------------------------------------------------


def test_same_seed_same_log_and_outputs(tmp_path: Path) -> None:
    one = tune(tmp_path / "a", **SMALL)
    two = tune(tmp_path / "b", **SMALL)
    log = (tmp_path / "a" / LOG_FILE).read_text()
    assert log == (tmp_path / "b" / LOG_FILE).read_text()
    assert len(log.splitlines()) == 3 and one.played == 3
    assert one.weights == two.weights
    assert set(one.weights) == set(WEIGHT_NAMES)
    for name in ("weights.json", "progress.csv", "progress.png", "report.md", STUDY_FILE):
        assert (tmp_path / "a" / name).stat().st_size > 0
    saved = json.loads((tmp_path / "a" / "weights.json").read_text())
    assert saved["weights"] == one.weights and saved["tuned"] == ["win", "press", "advance"]
    # the weights not tuned stay at the committed ones
    for name, value in zip(WEIGHT_NAMES, tuned_weights(), strict=True):
        if name not in SMALL["weights"]:
            assert one.weights[name] == value
    other = tune(tmp_path / "c", **(SMALL | {"seed": 6}))
    assert (tmp_path / "c" / LOG_FILE).read_text() != log
    assert other.settings["seed"] == 6


def test_workers_do_not_change_the_log(tmp_path: Path, ray_local: Any) -> None:
    tune(tmp_path / "serial", **SMALL)
    tune(tmp_path / "ray", **(SMALL | {"workers": 2}))
    assert (tmp_path / "ray" / LOG_FILE).read_bytes() == (
        tmp_path / "serial" / LOG_FILE
    ).read_bytes()
    assert ray_local.is_initialized()  # a Ray it did not start is left running


def test_resume_after_an_interruption_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    tune(whole, **(SMALL | {"generations": 4}))
    cut = tmp_path / "cut"
    per_generation = (SMALL["population"] + 1) * SMALL["games"]

    def interrupt(done: int, total: int) -> None:
        if done > 2 * per_generation:  # during generation 2
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tune(cut, **(SMALL | {"generations": 4}), progress=interrupt)
    assert len((cut / LOG_FILE).read_text().splitlines()) == 2
    assert not (cut / "weights.json").exists()
    resumed = tune(cut, **(SMALL | {"generations": 4}))
    assert resumed.played == 2
    assert (cut / LOG_FILE).read_bytes() == (whole / LOG_FILE).read_bytes()
    # growing a finished study: 2 generations, then 4, as 4 at once
    grown = tmp_path / "grown"
    tune(grown, **(SMALL | {"generations": 2}))
    again = tune(grown, **(SMALL | {"generations": 4}))
    assert again.played == 2
    assert (grown / LOG_FILE).read_bytes() == (whole / LOG_FILE).read_bytes()
    assert again.weights == tune(whole, **(SMALL | {"generations": 4})).weights
    with pytest.raises(TuningError, match="holds 4 generations"):
        tune(grown, **(SMALL | {"generations": 3}))


def test_an_edited_log_does_not_replay(tmp_path: Path) -> None:
    out = tmp_path / "t"
    tune(out, **SMALL)
    lines = (out / LOG_FILE).read_text().splitlines()
    first = json.loads(lines[1])
    first["candidates"][0][0] += 1e-12
    lines[1] = json.dumps(first)
    (out / LOG_FILE).write_text("\n".join(lines) + "\n")
    before = snapshot(out)
    with pytest.raises(TuningError, match="generation 1's candidates differ"):
        tune(out, **(SMALL | {"generations": 5}))
    assert snapshot(out) == before
    (out / LOG_FILE).write_text("not json\n")
    with pytest.raises(TuningError, match="line 1, is not generation 0"):
        tune(out, **SMALL)


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"_study.json": "{}"}, "holds a simulate study"),
        ({"study.json": "{}"}, "holds a balancing study"),
        ({"notes.txt": "mine"}, "not empty and holds no tuning study"),
        ({STUDY_FILE: '{"format": "antipolix-study"}'}, "not a tuning study"),
        ({STUDY_FILE: "{"}, "cannot be read"),
    ],
)
def test_a_foreign_folder_is_refused_untouched(
    tmp_path: Path, files: dict[str, str], message: str
) -> None:
    out = tmp_path / "x"
    out.mkdir()
    for name, text in files.items():
        (out / name).write_text(text)
    before = snapshot(out)
    with pytest.raises(TuningError, match=message):
        tune(out, **SMALL)
    assert snapshot(out) == before


def test_another_tuning_study_is_refused_untouched(tmp_path: Path) -> None:
    out = tmp_path / "t"
    tune(out, **SMALL)
    before = snapshot(out)
    for change, what in [
        ({"seed": 6}, "seed: 5 there, 6 now"),
        ({"games": 6}, "games: 4 there, 6 now"),
        ({"weights": ["win", "press"]}, "weights differ"),
        ({"rules": Rules(shape=(4, 8, 8), players=2, think_times="drawn")}, "rules differ"),
    ]:
        with pytest.raises(TuningError, match=what):
            tune(out, **(SMALL | change))
    assert snapshot(out) == before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"generations": 0}, "generations must be an integer >= 1"),
        ({"population": 1}, "population must be an integer >= 2"),
        ({"games": 0}, "games must be an integer >= 2"),
        ({"games": 5}, "games must be even"),
        ({"weights": ["win", "bogus"]}, "no weight 'bogus'"),
        ({"seed": -1}, "seed must be an integer"),
        ({"sigma0": 0.0}, "sigma0 must be a number above 0"),
        ({"hall_of_fame": -1}, "hall_of_fame must be an integer >= 0"),
        ({"draw": 0.6}, "draw must be a number from 0 to 0.5"),
        ({"draw": -0.1}, "draw must be a number from 0 to 0.5"),
        ({"draw": "half"}, "draw must be a number from 0 to 0.5"),
        ({"mirror": "yes"}, "mirror must be True or False"),
        ({"rules": Rules(shape=(3, 8, 8), players=3)}, "games must be a multiple of 3"),
        ({"workers": -1}, "workers must be None or an integer >= 0"),
        ({"address": "nowhere"}, "a Ray address is 'auto' or HOST:PORT"),
        ({"address": "auto"}, "workers=0 plays in this process; an address needs Ray"),
    ],
)
def test_bad_arguments_write_nothing(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    out = tmp_path / "t"
    with pytest.raises(TuningError, match=message):
        tune(out, **(SMALL | change))
    assert not out.exists()


# -- the command -------------------------------------------------------------------------------


def test_tune_command_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t"
    args = ["tune", "--out", str(out), "--generations", "2", "--population", "4", "--games", "4"]
    args += ["--weights", "win,advance", "--rule", "shape=3,8,8", "--workers", "1"]
    args += ["--seed", "3", "--no-progress"]
    assert main([*args, "--check", "6"]) == 0
    printed = capsys.readouterr().out
    assert "2 generations (2 played now, 0 read from the log)" in printed
    assert "6 games against the hand-set planner" in printed
    settings = json.loads((out / STUDY_FILE).read_text())
    assert settings["rules"]["think_times"] == "drawn" and settings["rules"]["players"] == 2
    assert settings["weights"] == ["win", "advance"] and settings["seed"] == 3
    report = (out / "report.md").read_text()
    assert "Check against the hand-set planner" in report and "| advance |" in report
    assert main(args) == 0  # again: read from the log, nothing played
    assert "(0 played now, 2 read from the log)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--weights", "win,bogus"], "no weight 'bogus'"),
        (["--games", "3"], "games must be even (each seed is played from both seats), got 3"),
        (["--generations", "0"], "generations 0 must be >= 1"),
        (["--population", "1"], "population 1 must be >= 2"),
        (["--sigma0", "2"], "sigma0 must be a number above 0 and at most 0.5, got 2.0"),
        (["--draw", "0.75"], "draw must be a number from 0 to 0.5 (what a draw scores), got 0.75"),
        (["--draw", "x"], "'x' is not a number"),
        (["--rule", "players=3", "--games", "4"], "games must be a multiple of 3"),
    ],
)
def test_tune_command_refuses_bad_input_writing_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    out = tmp_path / "t"
    assert command(["tune", "--out", str(out), "--workers", "1", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("antipolix: error:") and message in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_tune_command_games_are_counted_for_the_rules_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Games per entry are a multiple of the players (each seed from every seat): three games
    at 3-player tables are taken (the command refused any odd count, as if two played), and the
    default 48 becomes 50 at 5-player tables (48 was refused, though never given)."""
    small = ["--rule", "shape=2,6,6", "--rule", "budget=6", "--rule", "max_turns=40"]
    args = ["--generations", "1", "--population", "2", "--weights", "win", *small]
    args += ["--workers", "0", "--no-progress"]
    for players, games, want in [(3, ["--games", "3"], 3), (5, [], 50)]:
        out = tmp_path / f"t{players}"
        argv = ["tune", "--out", str(out), "--rule", f"players={players}", *games, *args]
        assert main(argv) == 0
        assert capsys.readouterr().out.startswith("1 generation (1 played now, 0 read from")
        assert json.loads((out / STUDY_FILE).read_text())["games"] == want


def test_tune_command_refuses_a_simulate_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim"
    sim = ["simulate", "--games", "2", "--agents", "random,random", "--workers", "0"]
    assert main([*sim, "--rule", "shape=3,8,8", "--out", str(out), "--no-progress"]) == 0
    capsys.readouterr()
    before = snapshot(out)
    assert main(["tune", "--out", str(out), "--workers", "1", "--rule", "shape=3,8,8"]) == 2
    assert "holds a simulate study" in capsys.readouterr().err
    assert snapshot(out) == before
