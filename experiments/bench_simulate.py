"""Scaling of the batch runner: games per second in-process (serial) and on Ray, 1 and 2 workers.

    .venv/bin/python experiments/bench_simulate.py                  # 2,000 default Greedy games
    .venv/bin/python experiments/bench_simulate.py --games 200      # a quicker look

Every mode plays the same study (default rules, four Greedy agents, the same root seed), so the
script also checks that the rows are identical whatever the mode (R12). Ray is started once,
before the Ray runs, and its start-up time is printed apart: the throughputs are those of the
batch itself. The chunk sizes are the automatic ones unless ``--chunk-size`` is given.

Prints figures; asserts nothing (a benchmark, not a test). The issue's target: Ray with 2 workers
at least 1.7 times the serial throughput on a 2-core machine. The load average is printed with
each figure: on a shared machine, other jobs take CPU time from the parallel runs first (and
Ray runs its workers at nice 15); "workers busy" (throughput × mean game time ÷ workers) is the
share of the time the workers spent playing games, which other jobs do not change: its shortfall
from 100 % is the runner's own overhead. ``--modes serial,pool2`` measures what two plain
processes get, Ray or not.

``--checkouts OLD,NEW`` runs the script on each checkout in turn, ``--rounds`` times, and prints
their lines side by side (``experiments/side_by_side.py``): the same study timed before and
after a change (since games are served through the game protocol, ``simulate`` reaches
AntipoliX's compiled core through ``GAME.play_batch``).
"""

from __future__ import annotations

import os
import platform
import re
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

from antipolix import Rules, simulate
from antipolix.agents import GreedyAgent
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, seed_arg
from antipolix.runner import Results
from antipolix.runner.games import play_chunk
from antipolix.runner.rows import DETERMINISTIC_COLUMNS
from antipolix.runner.store import Chunk
from antipolix.runner.study import make_study


def run(mode: str, games: int, seed: int, chunk_size: int | None) -> Results:
    workers = 0 if mode == "serial" else int(mode.removeprefix("ray"))
    rules = Rules()
    agents = [GreedyAgent() for _ in range(rules.players)]
    with tempfile.TemporaryDirectory() as out:
        results = simulate(
            rules, agents, games, seed, workers=workers, out=out, chunk_size=chunk_size
        )
        results.table  # noqa: B018 (read before the folder goes)
    return results


def pool(games: int, seed: int, processes: int, chunk: int) -> float:
    """Games/s of the same games on plain processes (no Ray): what this machine gives at best."""
    _, payload = make_study(Rules(), ["greedy"] * 4, games, seed, False, False)
    chunks = [Chunk(0, a, min(a + chunk, games)) for a in range(0, games, chunk)]
    began = time.perf_counter()
    with ProcessPoolExecutor(processes) as ex:
        done = sum(out.chunk.games for out in ex.map(play_chunk, [payload] * len(chunks), chunks))
    return done / (time.perf_counter() - began)


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int_at_least(1), default=2000)
    parser.add_argument("--seed", type=seed_arg, default=1)
    parser.add_argument("--chunk-size", type=int_at_least(1), default=None)
    parser.add_argument(
        "--modes",
        default="serial,ray1,ray2",
        help="comma-separated: serial, rayK (Ray, K workers), poolK (K plain processes, no Ray, "
        "chunks of 8: the machine's own ceiling)",
    )
    parser.add_argument("--checkouts", help="run on each of these checkouts in turn: OLD,NEW")
    parser.add_argument(
        "--rounds", type=int_at_least(1), default=1, help="runs per checkout (--checkouts)"
    )
    args = parser.parse_args()
    if args.checkouts:
        from side_by_side import run_side_by_side

        run_side_by_side(__file__, args.checkouts, args.rounds, sys.argv[1:])
        return
    modes = args.modes.split(",")
    wrong = [m for m in modes if not re.fullmatch(r"serial|(ray|pool)[1-9][0-9]*", m)]
    if wrong:
        parser.error(f"--modes: no mode {wrong[0]!r} (serial, rayK or poolK, K >= 1)")
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}; {args.games} games of 4 Greedy agents on the "
        f"default rules (8×16×16), seed {args.seed}",
        flush=True,
    )
    if any(m.startswith("ray") for m in modes):
        import ray

        began = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        print(f"ray.init: {time.perf_counter() - began:.1f} s (once, not counted)", flush=True)
    rates: dict[str, float] = {}
    reference = None
    for mode in modes:
        print(f"{mode:>6}: ({load()})", flush=True)
        if mode.startswith("pool"):
            rates[mode] = pool(args.games, args.seed, int(mode.removeprefix("pool")), 8)
            print(f"{mode:>6}: {rates[mode]:6.2f} games/s ({load()})", flush=True)
            continue
        results = run(mode, args.games, args.seed, args.chunk_size)
        info = results.run
        assert info is not None
        rates[mode] = info.games_per_second
        sizes = info.chunk_sizes
        rows = results.table.select(list(DETERMINISTIC_COLUMNS))
        same = "" if reference is None else f", rows identical: {rows.equals(reference)}"
        reference = rows if reference is None else reference
        game_s = results.table["seconds"].to_numpy()
        # what the workers would give with no time lost between games: workers / mean game time;
        # the shortfall is the runner's own overhead (Ray, files), whatever other jobs take
        busy = info.games_per_second / (info.workers / game_s.mean())
        print(
            f"{mode:>6}: {info.games_played} games in {info.seconds:7.1f} s = "
            f"{info.games_per_second:6.2f} games/s (mean game {game_s.mean():.3f} s in its "
            f"worker; workers busy {100 * busy:.1f} % of the time); {len(sizes)} chunks, sizes "
            f"median {statistics.median(sizes):g} (min {min(sizes)}, max {max(sizes)}){same}; "
            f"{load()}",
            flush=True,
        )
    if "serial" in rates:
        for mode, rate in rates.items():
            if mode != "serial":
                print(f"speed-up {mode} / serial: {rate / rates['serial']:.2f}×")


if __name__ == "__main__":
    run_script(main)
