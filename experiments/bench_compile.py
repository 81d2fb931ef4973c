"""How long the compiled core takes to compile on a cold cache, part by part: the figures of
``antipolix.compiling.SECONDS`` (the notice a first run prints says "about N s").

Each scenario runs in a fresh process whose numba cache is an empty folder (``NUMBA_CACHE_DIR``),
so everything is compiled, in the order a first run meets it: the engine (a game of two agents
written in Python: placement, turns, observations), then a game of each built-in agent through
``Game``, then whole compiled games (``antipolix.autoplay``, the path of ``simulate`` and the
demo's batch). Prints CPU seconds (what compiling costs, whatever else the machine runs) and
wall seconds. Compiling is one core's work: on an idle machine wall ≈ CPU.

    .venv/bin/python experiments/bench_compile.py                 # every scenario
    .venv/bin/python experiments/bench_compile.py --parts engine,greedy

``--build`` times instead what ``python3 dev.py test`` does before the tests on a cold cache:
each part of ``antipolix.compiling.PARTS`` built in its own process, all at once, sharing one
empty cache (wall seconds of each part and of the whole). ``--baseline DIR`` builds a checkout
of other code too (another commit's worktree), the two alternating, ``--runs`` times each:

    .venv/bin/python experiments/bench_compile.py --build --baseline ../old --runs 2
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least
from antipolix.errors import AntipolixError

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("engine", "random", "greedy", "planner", "search", "whole games")

CHILD = r"""
import json, sys, time
from antipolix import Rules
from antipolix.agents import Agent, Decision, agent_named
from antipolix.orders import Pass
from antipolix.play import play_game

class Idle(Agent):
    name = "idle"
    def act(self, obs):
        return Decision(Pass(), think_time=1.0)

rules = Rules(shape=(4, 8, 8), players=2, max_turns=3)
out = {}
for part in json.loads(sys.argv[1]):
    cpu, wall = time.process_time(), time.perf_counter()
    if part == "engine":
        play_game(rules, [Idle(), Idle()], 0)
    elif part == "whole games":
        import numpy as np
        from antipolix.autoplay import play_games
        play_games(rules, [([agent_named("greedy")] * 2, np.random.SeedSequence(0))])
    else:
        name = "search:rollouts=1:depth=1" if part == "search" else part
        play_game(rules, [agent_named(name), agent_named(name)], 0)
    out[part] = (time.process_time() - cpu, time.perf_counter() - wall)
print(json.dumps(out))
"""


def measure(parts: list[str]) -> dict[str, tuple[float, float]]:
    """CPU and wall seconds of each part, in one fresh process with an empty numba cache."""
    with tempfile.TemporaryDirectory(prefix="apx-numba-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        env.pop("NUMBA_DISABLE_JIT", None)
        done = subprocess.run(
            [sys.executable, "-c", CHILD, json.dumps(parts)],
            env=env, cwd=ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
    return {k: (float(v[0]), float(v[1])) for k, v in json.loads(done.stdout).items()}


BUILD = "from antipolix.compiling import build; build({part!r})"
LIST = "import json; from antipolix.compiling import PARTS; print(json.dumps(PARTS))"


def build_all(code: Path) -> tuple[list[float], float]:
    """Wall seconds of each part of ``antipolix.compiling.PARTS`` (the code in ``code``), each
    in its own process, all started at once with one empty numba cache, and of the whole."""
    with tempfile.TemporaryDirectory(prefix="apx-numba-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(code)}
        env.pop("NUMBA_DISABLE_JIT", None)
        parts = subprocess.run(
            [sys.executable, "-c", LIST],
            env=env, cwd=code, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        began = time.perf_counter()
        procs = [
            subprocess.Popen([sys.executable, "-c", BUILD.format(part=part)], env=env, cwd=code)
            for part in json.loads(parts)
        ]
        seconds = [0.0] * len(procs)
        while not all(seconds):
            time.sleep(0.1)
            for k, proc in enumerate(procs):
                if seconds[k] or proc.poll() is None:
                    continue
                if proc.returncode != 0:
                    raise AntipolixError(f"building the code in {code} failed (its output above)")
                seconds[k] = time.perf_counter() - began
    return seconds, max(seconds)


def builds(baseline: Path | None, runs: int) -> None:
    """:func:`build_all` of this checkout (and ``baseline``), alternating, ``runs`` times."""
    sides = [("baseline", baseline)] if baseline else []
    sides.append(("this", ROOT))
    print("the parts built at once, cold numba cache; wall seconds: each part, in all")
    for run in range(runs):
        for name, code in sides if run % 2 == 0 else sides[::-1]:
            each, whole = build_all(code)
            parts = " ".join(f"{s:6.1f}" for s in each)
            print(f"run {run + 1} {name:<8} parts {parts}   in all {whole:6.1f}", flush=True)


def main() -> None:
    p = Parser(description=__doc__.split("\n\n")[0])
    p.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated: {PARTS}")
    p.add_argument("--build", action="store_true", help="time dev.py test's build instead")
    p.add_argument("--baseline", type=Path, help="with --build: another checkout, side by side")
    p.add_argument(
        "--runs", type=int_at_least(1), default=1, help="with --build: how many times each"
    )
    args = p.parse_args()
    if args.build:
        if args.baseline is not None and not (args.baseline / "antipolix").is_dir():
            raise AntipolixError(f"--baseline {args.baseline}: no antipolix package there")
        builds(args.baseline.resolve() if args.baseline else None, args.runs)
        return
    wanted = [x.strip() for x in args.parts.split(",")]
    unknown = [x for x in wanted if x not in PARTS]
    if unknown:
        p.error(f"unknown part {unknown[0]!r} (parts: {', '.join(PARTS)})")
    # the demo's order (engine, its agents, whole games); the planner and search each after
    # the engine alone, as a first game of theirs meets them
    runs = [[x for x in ("engine", "random", "greedy", "whole games") if x in wanted]]
    runs += [["engine", x] for x in ("planner", "search") if x in wanted]
    began = time.perf_counter()
    print(f"{'part':<12} {'CPU s':>7} {'wall s':>7}   (cold numba cache, fresh process)")
    shown = set()
    for parts in runs:
        if not parts:
            continue
        for part, (cpu, wall) in measure(parts).items():
            if part in wanted and part not in shown:
                shown.add(part)
                print(f"{part:<12} {cpu:7.1f} {wall:7.1f}")
    print(f"in all {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    run_script(main)
