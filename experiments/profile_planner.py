"""Where a planner decision's time goes, stage by stage, on recorded positions.

    .venv/bin/python experiments/profile_planner.py [--games 6] [--agents planner,tuned]
        [--reps 10] [--players 2]

numba's kernels are opaque to Python's profilers (cProfile sees one call), so this script
times *prefixes* of the decision: the same positions (recorded as ``bench_weights.py`` records
them, from 2-player games unless ``--players`` says otherwise) decided ``--reps`` times each
by a copy of the planner's decision cut after each stage (1: the opening, reading the
observation and the memory; 2: the turn's maps, ``read_turn``; 3: the best attack; 4: the
candidate moves; 5: exposure; 6: the chief's guard; 7: threats; 8: hunting; 9: tactics; 10:
the hopeless check, the whole decision). A stage's cost is its prefix's time less the one before,
in microseconds per decision, with the memory's copy taken off, and the arrays it allocates per
decision (numba's runtime counts them: each costs a call to the allocator and one to free it).
Asserts nothing: a profile, not a test; run it with nothing else running.

With ``--changes`` it times nothing and says how many pieces change between a seat's
consecutive decisions (enemy and own, as the seat sees them, R6): what maps kept from a seat's
last turn would have to update.

With ``--perf-map``, it writes ``/tmp/perf-<pid>.map`` (the address and size of every compiled
function this process holds, the format ``perf`` reads for code it cannot find in a file) and
times the whole decisions only, so that a sampling profiler sees the kernels by name, the
runtime's reference counting and allocation included::

    perf record -F 4000 -o /tmp/planner.perf .venv/bin/python experiments/profile_planner.py \
        --players 4 --agents planner --reps 40 --perf-map
    perf report -i /tmp/planner.perf --no-children --sort symbol --time 70%-100%
"""

from __future__ import annotations

import contextlib
import gc
import os
import platform
import time
from typing import Any

import numba
import numpy as np
from bench_weights import fresh_copy, recorder  # the benchmark's recording and memory copy
from numba.core.registry import CPUDispatcher
from numba.core.runtime import _nrt_python, rtsys

from antipolix import Rules
from antipolix.agents import agent_named
from antipolix.agents.memory import Memory
from antipolix.agents.planner.decision import best_attack, candidates, hopeless, terms_computed
from antipolix.agents.planner.exposure import exposure
from antipolix.agents.planner.guard import chief_guard
from antipolix.agents.planner.hunting import hunt
from antipolix.agents.planner.reading import opening, read_turn
from antipolix.agents.planner.tactics import tactics
from antipolix.agents.planner.threats import threats
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least
from antipolix.errors import AntipolixError
from antipolix.jit import packed, unpacked
from antipolix.play import play_game

STAGES = (
    "opening (the observation read, the memory updated)",
    "read_turn (the turn's maps: reach, defence, values, chief ring)",
    "best_attack",
    "candidates (the moves to score)",
    "exposure",
    "chief_guard",
    "threats",
    "hunt",
    "tactics (networks, fortresses, crushing)",
    "hopeless (the draw check)",
)


# not cached on disk: numba would not see a change to the planner's kernels it calls
@numba.njit(cache=False)  # type: ignore[untyped-decorator]
def _prefix(t: Any, seen: Any, m: Memory, w: Any, reps: int, rng: Any, upto: int) -> float:
    """``reps`` decisions on one position cut after stage ``upto`` (0: the memory's copy
    alone), each from a fresh copy of the memory; a sum so that nothing is optimised away."""
    total = 0.0
    for _ in range(reps):
        memory = fresh_copy(m)
        if upto < 1:
            total += memory.counters[0]
            continue
        think, s, unit = opening(t, seen, memory, 0.2, 1.5, rng)
        total += think
        if upto < 2 or not (len(s.enemy) and len(s.mobile)):
            continue
        tn = read_turn(t, s, memory, unit, w)
        if upto < 3:
            continue
        total += best_attack(tn, s)[0]
        if upto < 4:
            continue
        who, dest, end, gap = candidates(tn, s)
        total += len(dest)
        if upto < 5 or not len(dest):
            continue
        mover = s.mobile_own[who]
        score, adj_ab, d_mover = exposure(tn, mover, dest, end)
        total += score.sum()
        if upto < 6:
            continue
        guards, threatens, hunts, tactical = terms_computed(w)  # (the terms it skips, skipped)
        if tn.ci >= 0 and guards:
            chief_guard(tn, mover, dest, end, gap, d_mover, score)
        if upto < 7:
            continue
        offence = threats(tn, mover, dest, end) if threatens else np.zeros(len(dest))
        total += offence.sum()
        if upto < 8:
            continue
        if hunts:
            hunt(tn, s, mover, dest, end, offence)
        if upto < 9:
            continue
        if tactical:
            tactics(t, tn, s, mover, dest, end, gap, score)
        total += score.sum() + offence.sum() + adj_ab.sum()
        if upto < 10:
            continue
        total += hopeless(tn, s)
    return total


def record(
    names: list[str], games: int, players: int = 2
) -> tuple[Rules, list[tuple[Any, Memory]]]:
    """The positions the agents ``names`` decide on in ``games`` games of ``players`` each."""

    rules = Rules(players=players, think_times="drawn")
    positions: list[tuple[Any, Memory]] = []
    for name in names:
        for seed in range(games):
            play_game(rules, [recorder(name, positions) for _ in range(players)], seed)
    return rules, positions


def timed(rules: Rules, positions: list[tuple[Any, Memory]], w: Any, reps: int, upto: int) -> float:
    """Microseconds per decision of the prefix ``upto`` over ``positions``."""
    rng = np.random.default_rng(0)
    t = rules.tables
    began = time.perf_counter()
    for seen, memory in positions:
        _prefix(t, seen, packed(memory), w, reps, rng, upto)
    return (time.perf_counter() - began) / (len(positions) * reps) * 1e6


def allocations(rules: Rules, positions: list[tuple[Any, Memory]], w: Any, upto: int) -> float:
    """Arrays the prefix ``upto`` allocates per decision over ``positions`` (numba's runtime
    counts them while its statistics are on; on for this pass only, as they cost a little)."""
    rng = np.random.default_rng(0)
    t = rules.tables
    _nrt_python.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats().alloc
        for seen, memory in positions:
            _prefix(t, seen, packed(memory), w, 1, rng, upto)
        return float(rtsys.get_allocation_stats().alloc - before) / len(positions)
    finally:
        _nrt_python.memsys_disable_stats()


def changes(positions: list[tuple[Any, Memory]]) -> dict[str, float]:
    """Between each seat's consecutive decisions of a game: the pieces it sees of its enemies
    and of its own, and how many of each changed (moved, appeared or went: a moved piece counts
    out and in): what maps kept from a seat's last turn would have to update (R6: as seen)."""
    last: dict[int, tuple[int, dict[int, tuple[int, tuple[int, ...]]]]] = {}
    seen_e: list[int] = []
    seen_o: list[int] = []
    changed_e: list[int] = []
    changed_o: list[int] = []
    for packed_seen, _ in positions:
        seen = unpacked(packed_seen)
        player, turn = int(seen.player), int(seen.turn)
        pieces = {
            int(i): (int(o), tuple(int(v) for v in c))
            for i, o, c in zip(seen.ids, seen.owners, seen.cells, strict=True)
        }
        before = last.get(player)
        if before is not None and before[0] == turn - 1:  # (the same game's next turn)
            for own, counts, sizes in ((False, changed_e, seen_e), (True, changed_o, seen_o)):
                now = {(i, v) for i, v in pieces.items() if (v[0] == player) == own}
                then = {(i, v) for i, v in before[1].items() if (v[0] == player) == own}
                counts.append(len(now ^ then))
                sizes.append(len(now))
        last[player] = (turn, pieces)
    if not changed_e:
        raise AntipolixError("profile_planner: no seat decided on two consecutive turns")
    return {
        "pairs": len(changed_e),
        "enemy": float(np.mean(seen_e)),
        "enemy_changed": float(np.mean(changed_e)),
        "enemy_p90": float(np.percentile(changed_e, 90)),
        "own": float(np.mean(seen_o)),
        "own_changed": float(np.mean(changed_o)),
        "own_p90": float(np.percentile(changed_o, 90)),
    }


def perf_map() -> int:
    """Write ``/tmp/perf-<pid>.map``: every compiled function of this process, its address and
    its size (up to the next one's address); returns how many."""
    names: dict[int, str] = {}
    for obj in gc.get_objects():
        try:
            if not isinstance(obj, CPUDispatcher):
                continue
        except ReferenceError:  # (a weak proxy whose object is gone: what compiling leaves)
            continue
        for compiled in obj.overloads.values():
            library = compiled.library
            try:
                symbols = [f.name for f in library._final_module.functions if not f.is_declaration]
            except AttributeError:  # (code loaded from the disk cache)
                symbols = [compiled.fndesc.llvm_func_name]
            for symbol in symbols:
                with contextlib.suppress(Exception):
                    if address := library.get_pointer_to_function(symbol):
                        names[address] = symbol
    addresses = sorted(names)
    if not addresses:
        raise AntipolixError("profile_planner: no compiled function found to map")
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for here, after in zip(addresses, [*addresses[1:], addresses[-1] + 4096], strict=True):
            out.write(f"{here:x} {min(after - here, 1 << 20):x} {names[here]}\n")
    return len(addresses)


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int_at_least(1), default=6, help="games of each kind (default 6)"
    )
    parser.add_argument("--agents", default="planner,tuned")
    parser.add_argument("--reps", type=int_at_least(1), default=10, help="decisions per position")
    parser.add_argument(
        "--players", type=int_at_least(2), default=2, help="players a game (default 2)"
    )
    parser.add_argument(
        "--perf-map", action="store_true", help="write a perf map, time whole decisions only"
    )
    parser.add_argument(
        "--changes",
        action="store_true",
        help="how many pieces change between a seat's turns (no timing)",
    )
    args = parser.parse_args()
    names = args.agents.split(",")
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}, numba {numba.__version__}; one process (one core); "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    rules, positions = record(names, args.games, args.players)
    print(
        f"{len(positions):,} positions from {args.games} {args.players}-player games of each "
        f"of {names}"
    )
    if args.changes:
        c = changes(positions)
        print(
            f"between a seat's turns ({c['pairs']:,} pairs of consecutive decisions): enemy "
            f"pieces in sight {c['enemy']:.1f}, changed {c['enemy_changed']:.2f} (p90 "
            f"{c['enemy_p90']:.0f}); own pieces {c['own']:.1f}, changed {c['own_changed']:.2f} "
            f"(p90 {c['own_p90']:.0f}); a moved piece counts out and in"
        )
        return
    if args.perf_map:
        for name in names:
            w = agent_named(name).weights_for(args.players)  # type: ignore[attr-defined]
            timed(rules, positions[:1], w, 1, len(STAGES))
        print(f"{perf_map()} compiled functions mapped in /tmp/perf-{os.getpid()}.map")
        gc.collect()
        gc.disable()  # (the collector's passes would show in the profile)
        for name in names:
            w = agent_named(name).weights_for(args.players)  # type: ignore[attr-defined]
            cost = timed(rules, positions, w, args.reps, len(STAGES))
            print(f"{name}: {cost:.1f} µs per decision, the memory's copy included")
        return
    for name in names:
        w = agent_named(name).weights_for(args.players)  # type: ignore[attr-defined]
        for upto in range(len(STAGES) + 1):  # warm-up: compile every prefix
            timed(rules, positions[:1], w, 1, upto)
        prefix = [timed(rules, positions, w, args.reps, upto) for upto in range(len(STAGES) + 1)]
        made = [allocations(rules, positions, w, upto) for upto in range(len(STAGES) + 1)]
        whole = prefix[-1] - prefix[0]
        print(
            f"{name}: {whole:.1f} µs and {made[-1] - made[0]:.1f} arrays allocated per decision "
            f"(the memory's copy, {prefix[0]:.1f} µs and {made[0]:.0f} arrays, off)"
        )
        for k, stage in enumerate(STAGES, start=1):
            part = prefix[k] - prefix[k - 1]
            arrays = made[k] - made[k - 1]
            print(
                f"  {k:2}. {stage:<64} {part:7.1f} µs  {100 * part / whole:5.1f} %  "
                f"{arrays:6.1f} arrays"
            )


if __name__ == "__main__":
    run_script(main)
