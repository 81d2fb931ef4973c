"""What every command accepts (antipolix.limits): one seed range (R12), game sizes with a warning
and a limit that says itself, bad arguments refused in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from antipolix import Rules
from antipolix.cli import main
from antipolix.cli.common import checked_rules
from antipolix.codec import apply_overrides
from antipolix.errors import RulesError, SeedError, SimulationError
from antipolix.limits import (
    MAX_CELLS,
    MAX_PIECES,
    MAX_SEED,
    check_seed,
    check_size,
    game_size,
    size_warning,
)
from antipolix.runner import simulate

ROOT = Path(__file__).resolve().parents[1]
SMALL = ["--rule", "shape=4,8,8"]


def test_r12_one_seed_range_for_every_api() -> None:
    assert check_seed(0) == 0 and check_seed(MAX_SEED) == MAX_SEED
    for bad in (-1, MAX_SEED + 1, 2**70, 1.5, True, "3"):
        with pytest.raises(SeedError, match="seed must be an integer from 0 to 2"):
            check_seed(bad)
    rules = Rules(shape=(4, 8, 8), players=2, max_turns=5)
    with pytest.raises(SimulationError, match="seed must be an integer from 0 to 2"):
        simulate(rules, ["random", "random"], 1, MAX_SEED + 1, workers=0)


@pytest.mark.parametrize("command", ["play", "demo", "simulate", "balance"])
def test_r12_every_command_refuses_the_same_seeds_in_one_line(
    command: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = [command, "--seed", str(2**63)]
    if command == "balance":
        argv += ["--out", str(tmp_path / "b")]
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err  # one line, no usage block
    assert err.startswith("antipolix: error: argument --seed: seed must be an integer from 0 to")
    assert f"see: antipolix {command} --help" in err


def test_r12_the_largest_seed_plays_in_play_and_simulate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules = [*SMALL, "--rule", "max_turns=20"]
    assert main(["play", "--agents", "random,random", "--seed", str(MAX_SEED), *rules]) == 0
    played = capsys.readouterr().out
    assert f"seed {MAX_SEED}" in played
    argv = ["simulate", "--games", "1", "--workers", "0", "--agents", "random,random"]
    assert main([*argv, "--seed", str(MAX_SEED), "--no-progress", *rules]) == 0
    assert f"1 games, seed {MAX_SEED}" in capsys.readouterr().out


def test_r3_a_huge_board_is_refused_with_its_estimate_and_the_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    huge = apply_overrides(Rules(), ["shape=64,512,512"])
    size = game_size(huge)
    assert size.cells == 64 * 512 * 512 and size.pieces > MAX_PIECES
    with pytest.raises(RulesError, match="game too large") as info:
        check_size(huge)
    text = str(info.value)
    assert "503,316 points each" in text and "GB of memory" in text
    assert f"{MAX_CELLS:,} cells and {MAX_PIECES:,} pieces" in text
    for command in (["play"], ["simulate", "--workers", "0"]):
        assert main([*command, "--rule", "shape=64,512,512"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("antipolix: error: game too large") and err.count("\n") == 1


def test_r3_a_large_board_is_played_with_a_warning_of_its_cost(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert size_warning(Rules()) is None  # the default game: no warning
    big = ["--rule", "shape=16,64,64", "--rule", "max_turns=300", "--agents", "random,random"]
    rules = apply_overrides(Rules(), ["shape=16,64,64", "max_turns=300", "players=2"])
    assert size_warning(rules) is not None
    assert main(["play", *big, "--rule", "max_turns=1"]) == 0  # one turn: cheap, no warning
    assert "warning" not in capsys.readouterr().err
    check_size(rules)  # allowed
    checked_rules(rules)  # what every command does with its rules (300 turns: a warning)
    err = capsys.readouterr().err
    assert err.startswith("antipolix: warning: large game: a 16×64×64 board (65,536 cells)")
    assert "MB of memory" in err and "a turn with Greedy agents" in err


def test_output_closed_early_is_not_a_traceback() -> None:
    """``antipolix play --log | head -1``: the reader leaves, the command stops quietly."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "antipolix", "play", "--log", "--agents", "random,random"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["simulate", "--games", "1" + "0" * 20], "games 100,000,000,000,000,000,000 must be at"),
        (["simulate", "--games", "9" * 5000], "... (5,000 characters) is not an integer"),
        (["tournament", "--bootstrap", "100001"], "bootstrap 100,001 must be at most 100,000"),
        (["tournament", "--lineup-games", "random,greedy=" + "9" * 20], "more than 1,000,000,000"),
        (["tune", "--population", "1000000001"], "population 1,000,000,001 must be at most"),
        (["balance", "--games", "1e999"], "is not an integer"),
    ],
)
def test_a_count_beyond_a_billion_is_refused_in_one_line(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # 10**20 games in a tournament's lineup hung in planning its chunks, a bootstrap of 10**20
    # replicates ended in numpy's ValueError; a count is at most a billion (a bootstrap 100,000)
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("antipolix: error: argument --") and err.count("\n") == 1, err
    assert says in err and len(err) < 300


@pytest.mark.parametrize(
    "command",
    [
        ["play", "--agents", "greedy,greedy"],
        ["simulate", "--games", "2", "--workers", "0", "--agents", "greedy,greedy"],
        ["tournament", "--agents", "random,greedy", "--games", "2", "--workers", "0"],
    ],
)
def test_r3_the_rules_are_checked_at_the_player_count_the_agents_give(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # on a 2×5×5 board the default credits buy a chief at 2 players (floor(12 × 50 / 100 / 2)
    # = 3 points) but not at 4 (1 point): the options were checked first at the default's 4
    # players, and the 2-player game refused
    assert main([*command, "--rule", "shape=2,5,5", "--rule", "max_turns=30"]) == 0
    assert "error" not in capsys.readouterr().err
    rules = apply_overrides(Rules(), ["shape=2,5,5", "players=2"])
    assert rules.army_budget == 3
    with pytest.raises(RulesError, match="with 4 players, credits_per_100 = 12 gives"):
        apply_overrides(Rules(), ["shape=2,5,5"])
