"""The first run says what it is doing while the core compiles (no silent minutes), and only
then: numba's cache index tells a warm cache from a cold one (:func:`antipolix.jit.cached`);
``play``, the demo and ``simulate`` print the notice before the games when it will compile,
and the progress counts its rate from the games, not from the compiling."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from antipolix import Rules, compiling
from antipolix.agents import GreedyAgent, PlannerAgent, RandomAgent, SearchAgent, TunedAgent
from antipolix.cli import main
from antipolix.play import play_game
from antipolix.runner import progress, simulate

ROOT = Path(__file__).resolve().parents[1]
SMALL = ["--rule", "shape=4,8,8", "--rule", "max_turns=30"]


def test_the_cache_index_tells_a_cold_kernel_from_a_warm_one(tmp_path: Path) -> None:
    """In a process whose numba cache is an empty folder, a kernel is not cached until it
    has been compiled once (and then saved), and a job's notice names what it will compile."""
    script = (
        "from antipolix.jit import cached\n"
        "from antipolix.reach import cheb\n"
        "from antipolix.agents import GreedyAgent\n"
        "from antipolix.compiling import to_compile\n"
        "before = cached(cheb)\n"
        "cheb(0, 0, 0, 1, 2, 3)\n"
        "print(before, cached(cheb), to_compile([GreedyAgent(), GreedyAgent()]))\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True,
        check=True,
    ).stdout  # fmt: skip
    assert out.split(maxsplit=2) == ["False", "True", "['engine', 'greedy']\n"]


def test_after_a_game_nothing_is_left_to_compile() -> None:
    rules = Rules(shape=(4, 8, 8), players=2, max_turns=5)
    play_game(rules, [GreedyAgent(), RandomAgent()], 1)  # compiles, or loads, what it runs
    assert compiling.to_compile([GreedyAgent(), RandomAgent()]) == []
    assert compiling.compile_notice([RandomAgent(), GreedyAgent()]) is None


def test_the_notice_names_what_compiles_and_about_how_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(compiling, "cached", lambda fn: False)  # a cold cache
    agents = [GreedyAgent(), TunedAgent(), SearchAgent(), RandomAgent(), PlannerAgent()]
    assert compiling.to_compile(agents) == ["engine", "greedy", "planner", "search", "random"]
    seconds = sum(compiling.SECONDS[k] for k in ("engine", "greedy", "random"))
    note = compiling.compile_notice([GreedyAgent(), RandomAgent()])
    assert note == (
        f"compiling the core (engine, greedy, random), once per install: about "
        f"{compiling._rounded(seconds)} s on a 2-core machine (numba caches the machine code on "
        "disk; later runs load it at once)"
    )
    whole = compiling.compile_notice([GreedyAgent()], whole=True)
    assert whole is not None and whole.startswith("compiling the core for whole games, once")
    assert f"about {compiling._rounded(compiling.SECONDS['whole games'])} s" in whole
    # after a game through Game (the demo's batch): the engine's kernels are on disk already
    monkeypatch.setattr(compiling, "cached", lambda fn: fn in compiling.GAME_KERNELS)
    after = compiling.compile_notice([GreedyAgent()], whole=True)
    shorter = compiling._rounded(compiling.WHOLE_AFTER_ENGINE)
    assert after is not None and f"about {shorter} s" in after
    assert compiling.SECONDS["whole games"] > compiling.WHOLE_AFTER_ENGINE


def test_play_says_it_compiles_on_a_cold_cache_and_not_on_a_warm_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["play", "--agents", "greedy,random", "--seed", "3", *SMALL]
    assert main(argv) == 0  # warm now, whatever it was
    warm = capsys.readouterr()
    assert main(argv) == 0
    again = capsys.readouterr()
    assert again.err == "" and again.out == warm.out
    monkeypatch.setattr(compiling, "cached", lambda fn: False)
    assert main(argv) == 0
    cold = capsys.readouterr()
    assert cold.out == warm.out  # the game's own lines do not change
    assert cold.err.startswith("antipolix: compiling the core (engine, greedy, random), once")


def test_a_batch_says_it_compiles_and_its_rate_counts_the_games_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a log (stderr not a terminal) the batch's progress is plain lines: the notice comes
    before any game, and the final rate leaves out the time spent before the games began."""
    clock = [1000.0]
    monkeypatch.setattr(progress, "_now", lambda: clock[0])
    monkeypatch.setattr(compiling, "cached", lambda fn: False)
    real = compiling.compile_notice

    def slow_notice(agents: object, whole: bool = False) -> str | None:
        clock[0] += 100.0  # compiling, as far as the bar's clock can tell
        return real(agents, whole)  # type: ignore[arg-type]

    monkeypatch.setattr("antipolix.runner.run.compile_notice", slow_notice)
    rules = Rules(shape=(4, 8, 8), players=2, max_turns=20)
    simulate(rules, ["greedy", "random"], 4, 1, workers=0, progress=True)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "games: 0/4 (0 %)"
    assert lines[1].startswith("antipolix: compiling the core for whole games, once per install")
    assert lines[-1].startswith("games: 4/4 (100 %)")
    assert "games/s" not in lines[-1]  # no time passed on the clock once the games began


def test_a_warm_batch_says_nothing_of_compiling(capsys: pytest.CaptureFixture[str]) -> None:
    rules = Rules(shape=(4, 8, 8), players=2, max_turns=20)
    simulate(rules, ["greedy", "random"], 2, 1, workers=0)  # compiled (or loaded) now
    simulate(rules, ["greedy", "random"], 2, 1, workers=0, progress=True)
    assert "compiling" not in capsys.readouterr().err


NAMED = """
import antipolix.jit
import numba

@numba.njit
def f(x):
    return x + 1

f(1)
print(next(iter(f.overloads.values())).fndesc.mangled_name)
"""


def test_two_processes_give_the_same_function_different_machine_names() -> None:
    # R12 (the same game from the same seed, whatever the disk cache holds): numba counts the
    # names of the functions it compiles from 1 in each process, so that kernels cached by two
    # processes can hold one name with two bodies, and a process loading both runs one body for
    # both (numba issue #10486: random-agent games changed once the planner's kernels were
    # cached). With antipolix.jit imported the names are drawn at random in each process.
    names = {
        subprocess.run(
            [sys.executable, "-c", NAMED], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    }
    assert len(names) == 2 and all(name.strip() for name in names)


def test_the_core_builds_in_parts_that_leave_nothing_to_compile() -> None:
    """``python3 dev.py test`` builds the compiled core in two parts before the whole suite
    (:func:`compiling.build`): after them, no built-in agent's game, through ``Game`` or
    whole, has anything left to compile; a part it does not know is refused by name."""
    for part in compiling.PARTS:
        compiling.build(part)
    agents = [RandomAgent(), GreedyAgent(), PlannerAgent(), TunedAgent(), SearchAgent()]
    assert compiling.to_compile(agents) == []
    assert compiling.to_compile(agents, whole=True) == []
    with pytest.raises(ValueError, match="game, whole games"):
        compiling.build("everything")
