"""Whole games per second with the built-in agents, in one process (one core).

    .venv/bin/python experiments/bench_games.py [--games 200] [--agents random,greedy,planner]
    .venv/bin/python experiments/bench_games.py --agents tuned,search --search-games 4
    .venv/bin/python experiments/bench_games.py --agents planner,tuned,search --no-game \\
        --baseline ../antipolix-old --runs 2

Plays seeded games on the default rules (8×16×16, 4 players), four agents of one kind, three ways:

- **compiled**: whole games in compiled code (:func:`antipolix.autoplay.play_games`, the path
  ``simulate`` and ``balance`` take), all the games in one call;
- **protocol**: the same compiled games through the game protocol
  (``antipolix.games.host.play_batch`` of AntipoliX's ``GAME``: the path ``simulate`` takes
  since games are served through it), all in one call; versions before the protocol skip it;
- **Game**: through :func:`antipolix.play.play_game`, the Python loop over :class:`Game` (the
  path of replays, the CLI and agents written in Python), on a tenth of the games.

It prints games/s (and games/hour) and player-turns/s (one player-turn = one living player's
decision and its resolution) for each; a search agent plays ``--search-games`` games (its
decisions are thousands of times dearer), and no Game-path run; for it, decisions/s are its own
decisions (its seats' player-turns). A warm-up game first (the compiled code loads from the disk
cache, or compiles on the first run after an install). Runs on older versions of the package too
(``PYTHONPATH=/path/to/old/checkout``, which have only the Game path), so that the two can be
compared.

``--baseline PATH``: the same benchmark, side by side, with the package of another checkout
(today's ``main``, say: ``git worktree add ../antipolix-old main``, then one ``python3 dev.py
test tests/test_layout.py -n 0`` there so that its kernels are compiled): each run plays the
baseline's games then this checkout's, each in a fresh process (``PYTHONPATH``), ``--runs``
times, and prints every figure of both and their ratio. The same seeds, so the same games (the
agents make the same decisions, bit for bit). ``--checkouts OLD,NEW --rounds N`` does the same
for any number of checkouts with every line as printed (``experiments/side_by_side.py``, shared
with ``bench_simulate.py``); ``--ways compiled,protocol`` times only those paths (``--no-game``:
all but the Game path). Asserts nothing: a benchmark, not a test; run it
with nothing else running.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from antipolix import Rules
from antipolix.agents import Agent, GreedyAgent, PlannerAgent, RandomAgent
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least
from antipolix.errors import AntipolixError
from antipolix.play import play_game

try:
    from antipolix.autoplay import play_games
except ImportError:  # an older version: no compiled games
    play_games = None  # type: ignore[assignment]

AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "planner": PlannerAgent,
}
HERE = Path(__file__).resolve().parent.parent  # this checkout


def maker(name: str) -> Callable[[], Agent]:
    """The agent of ``name`` (with parameters, ``search:rollouts=2``, where the version has
    :func:`antipolix.agents.agent_named` that reads them)."""
    try:
        from antipolix.agents import (
            agent_label,  # noqa: F401  (versions that read parameters)
            agent_named,
        )
    except ImportError:
        return AGENTS[name]
    return lambda: agent_named(name)


def compiled(rules: Rules, make: Callable[[], Agent], games: int) -> tuple[float, int, int]:
    """Seconds, turns and player-turns of ``games`` whole compiled games (one call)."""
    batch = [
        ([make() for _ in range(rules.players)], np.random.SeedSequence(seed))
        for seed in range(games)
    ]
    began = time.perf_counter()
    played = play_games(rules, batch)
    seconds = time.perf_counter() - began
    done = [p for p in played if p is not None]
    return seconds, sum(p.result.turns for p in done), sum(p.decisions for p in done)


def through_protocol(rules: Rules, make: Callable[[], Agent], games: int) -> tuple[float, int, int]:
    """Seconds, turns and player-turns of ``games`` compiled games through the game protocol
    (AntipoliX's ``GAME.play_batch``, the runner's path; turns only: an outcome does not count
    decisions)."""
    from antipolix import games as registry
    from antipolix.games import host

    game = registry.game("antipolix")
    agents = [make() for _ in range(rules.players)]
    seeds = [np.random.SeedSequence(seed) for seed in range(games)]
    began = time.perf_counter()
    outcomes = host.play_batch(game, rules, agents, seeds)
    seconds = time.perf_counter() - began
    assert outcomes is not None
    return seconds, sum(o.turns for o in outcomes), 0


def has_protocol() -> bool:
    try:
        import antipolix.games.host  # noqa: F401
    except ImportError:
        return False
    return True


def through_game(rules: Rules, make: Callable[[], Agent], games: int) -> tuple[float, int, int]:
    """Seconds, turns and player-turns of ``games`` games through :func:`play_game`."""
    player_turns = 0
    cls = type(make())

    class Counted(cls):  # type: ignore[valid-type, misc]
        def act(self, obs: Any) -> Any:
            nonlocal player_turns
            player_turns += 1
            return super().act(obs)

    turns = 0
    began = time.perf_counter()
    for seed in range(games):
        played = play_game(rules, [Counted() for _ in range(rules.players)], seed)
        turns += played.result.turns
    return time.perf_counter() - began, turns, player_turns


WAYS = ("compiled", "protocol", "Game")  # what --ways names


def measure(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every agent's figures with the package this process imports (one dict each, also
    printed as a line, or as JSON with ``--json``)."""
    rules = Rules()
    wanted = set(args.ways.split(",")) - ({"Game"} if args.no_game else set())
    out: list[dict[str, Any]] = []
    for name in args.agents.split(","):
        make = maker(name)
        search = name.startswith("search")
        ways: list[tuple[str, Any, int]] = []
        count = args.search_games if search else args.games
        if play_games is not None:
            ways.append(("compiled", compiled, count))
            if has_protocol():
                ways.append(("protocol", through_protocol, count))
        if not search:
            ways.append(("Game", through_game, max(1, args.games // 10)))
        ways = [w for w in ways if w[0] in wanted]
        for _, run, _ in ways:
            run(rules, make, 1)  # warm-up: load (or compile) the kernels
        for how, run, games in ways:
            seconds, turns, player_turns = run(rules, make, games)
            row = {
                "agent": name,
                "way": how,
                "games": games,
                "turns": turns,
                "player_turns": player_turns,
                "seconds": seconds,
                "games_per_s": games / seconds,
                "player_turns_per_s": player_turns / seconds,
                "turns_per_s": turns / seconds,
            }
            out.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print(
                    f"4× {name:<7} {how:<8}: {games} games, {turns} turns, {player_turns} "
                    f"player-turns in {seconds:.2f} s = {games / seconds:,.2f} games/s "
                    f"({3600 * games / seconds:,.0f} games/hour), {turns / seconds:,.1f} turns/s"
                    + (f", {player_turns / seconds:,.1f} player-turns/s" if player_turns else ""),
                    flush=True,
                )
    return out


def run_with(code: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    """:func:`measure` in a fresh process that imports the package of checkout ``code``."""
    command = [sys.executable, str(Path(__file__).resolve()), "--json"]
    command += ["--games", str(args.games), "--agents", args.agents]
    command += ["--search-games", str(args.search_games), "--ways", args.ways]
    command += ["--no-game"] if args.no_game else []
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise AntipolixError(f"bench_games: the run with {code} failed: {last}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def side_by_side(args: argparse.Namespace) -> None:
    """``--runs`` runs of the baseline's figures and this checkout's, printed together."""
    baseline = Path(args.baseline).resolve()
    if not (baseline / "antipolix" / "__init__.py").is_file():
        raise AntipolixError(f"--baseline {args.baseline}: no antipolix package there")
    for run in range(1, args.runs + 1):
        old, new = run_with(baseline, args), run_with(HERE, args)
        print(f"run {run}: {baseline.name} (baseline) against {HERE.name} (this checkout)")
        for a, b in zip(old, new, strict=True):
            unit = "decisions/s" if a["agent"].startswith("search") else "player-turns/s"
            key = "player_turns_per_s"
            if not a["player_turns"]:  # (the protocol path counts turns only)
                unit, key = "turns/s", "turns_per_s"
            ratio = b[key] / a[key]
            same = (
                "same games"
                if (a["turns"], a["player_turns"]) == (b["turns"], b["player_turns"])
                else "OTHER GAMES"
            )
            print(
                f"  4× {a['agent']:<7} {a['way']:<8} {a['games']} games: "
                f"{a[key]:,.1f} → {b[key]:,.1f} {unit} "
                f"({ratio:.2f}×; {a['seconds']:.2f} s → {b['seconds']:.2f} s; {same})",
                flush=True,
            )


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int_at_least(1), default=200)
    parser.add_argument("--agents", default="random,greedy,planner")
    parser.add_argument("--search-games", type=int_at_least(1), default=4)
    parser.add_argument("--ways", default=",".join(WAYS), help="which paths to time (default: all)")
    parser.add_argument("--no-game", action="store_true", help="all paths but the Game path")
    parser.add_argument("--checkouts", help="run on each of these checkouts in turn: OLD,NEW")
    parser.add_argument(
        "--rounds", type=int_at_least(1), default=1, help="runs per checkout (--checkouts)"
    )
    parser.add_argument("--baseline", help="another checkout to measure side by side")
    parser.add_argument(
        "--runs", type=int_at_least(1), default=2, help="runs of each with --baseline"
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    unknown = set(args.ways.split(",")) - set(WAYS)
    if unknown:
        parser.error(f"--ways: no way {', '.join(sorted(unknown))} (the ways: {', '.join(WAYS)})")
    if args.checkouts:
        from side_by_side import run_side_by_side

        run_side_by_side(__file__, args.checkouts, args.rounds, sys.argv[1:])
        return
    rules = Rules()
    if not args.json:
        print(
            f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
            f"Python {platform.python_version()}, numpy {np.__version__}; one process (one "
            f"core); load average {os.getloadavg()[0]:.2f}"
        )
        print(
            f"rules: default, {rules.shape}, {rules.players} players, turn limit {rules.max_turns}"
        )
    if args.baseline:
        side_by_side(args)
    else:
        measure(args)


if __name__ == "__main__":
    run_script(main)
