"""The committed tuning study: the planner's weights by CMA-ES and self-play, then a check.

    .venv/bin/python experiments/tune_planner.py [--generations 40] [--games 48] [--workers 2]
        [--check-games 400] [--players 2] [--install]

Runs :func:`antipolix.tuning.tune` on the default two-player rules (think times drawn by the
engine) with its study folder under ``runs/tune-planner`` (resumable: run the same command
again after an interruption; with more ``--generations`` it goes on), every weight tuned from
the committed ``antipolix/agents/tuned.json``. Then the check: the tuned weights, and the start
weights for comparison, each play ``--check-games`` games against the hand-set planner on seeds
no tuning game used, seats alternated; the win rate of decided games with its 95 % Wilson
interval (the target: at least 65 %). The small files (settings, log, weights, progress table
and plot, report with the check) are copied to ``experiments/results/tuning/``, with a block
per run appended to ``run.txt`` there.

``--players 4`` tunes in 4-player games instead (the entry in each seat in turn, the planner
or a hall-of-fame mean in the three others, a meeting won by finishing ahead), with its study
under ``runs/tune-planner-4p`` and its results under ``experiments/results/tuning-4p``.

``--install`` then writes the tuned weights to ``antipolix/agents/tuned.json`` (the ``tuned``
agent's weights, naming the results folder as its study; a study at more than two players
gives its weights at tables of 3 or more, and the hand-set weights are kept); only a finished
study is installed.
Note that the study starts from ``tuned.json``: once installed, the same folder holds a study
from another start, so a new study needs a new ``--out``.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path

from antipolix.agents.planner import WEIGHT_NAMES
from antipolix.agents.tuned import tuned_weights
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, seed_arg
from antipolix.cli.tune import draw_arg
from antipolix.files import write_atomically
from antipolix.tuning import Pool, check_weights, tune, weights_document, write_outputs
from antipolix.tuning.evaluate import default_rules
from antipolix.tuning.study import LOG_FILE, STUDY_FILE

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "runs" / "tune-planner"
KEEP = ROOT / "experiments" / "results" / "tuning"
TUNED = ROOT / "antipolix" / "agents" / "tuned.json"
SEED = 2026
TARGET = 0.65  # win rate of decided games against the hand-set planner


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int_at_least(1), default=40)
    parser.add_argument(
        "--games", type=int_at_least(1), default=48, help="per candidate and generation"
    )
    parser.add_argument(
        "--population", type=int_at_least(2), default=None, help="default: CMA-ES's (12)"
    )
    parser.add_argument("--workers", type=int_at_least(0), default=None)
    parser.add_argument("--address", default=None)
    parser.add_argument("--seed", type=seed_arg, default=SEED)
    parser.add_argument("--check-games", type=int_at_least(1), default=400)
    parser.add_argument(
        "--players", type=int_at_least(2), default=2, choices=range(2, 11), metavar="P"
    )
    parser.add_argument(
        "--weights", default=None, help="the weights to tune, A,B,... (default: all)"
    )
    parser.add_argument(
        "--draw",
        type=draw_arg,
        default=0.5,
        help="what a draw scores (default 0.5; a win 1)",
    )
    parser.add_argument(
        "--mirror", action="store_true", help="every third group: the entry alone at its table"
    )
    parser.add_argument("--out", type=Path, default=None, help="study folder")
    parser.add_argument("--results", type=Path, default=None, help="where the small files go")
    parser.add_argument("--install", action="store_true", help="write agents/tuned.json")
    args = parser.parse_args()
    tail = "" if args.players == 2 else f"-{args.players}p"
    args.out = args.out or RUNS.with_name(RUNS.name + tail)
    args.results = args.results or KEEP.with_name(KEEP.name + tail)
    rules = default_rules(args.players)
    began = datetime.now(UTC)
    start = time.perf_counter()
    result = tune(
        args.out,
        generations=args.generations,
        population=args.population,
        games=args.games,
        seed=args.seed,
        weights=args.weights,
        draw=args.draw,
        mirror=args.mirror,
        rules=rules,
        workers=args.workers,
        address=args.address,
        progress=True,
    )
    tuning_s = time.perf_counter() - start
    start_weights = dict(zip(WEIGHT_NAMES, map(float, tuned_weights(args.players)), strict=True))
    checks = {}
    with Pool(args.workers, args.address) as pool:
        for name, weights in (("tuned", result.weights), ("start", start_weights)):
            checks[name] = check_weights(
                weights, args.check_games, args.seed, rules=rules, progress=True, pool=pool
            )
    check_s = time.perf_counter() - start - tuning_s
    check = checks["tuned"]
    write_outputs(result, check, checks["start"])
    keep = args.results
    keep.mkdir(parents=True, exist_ok=True)
    study = _relative(keep)
    for name in (STUDY_FILE, LOG_FILE, "progress.csv", "progress.png", "report.md"):
        shutil.copy2(args.out / name, keep / name)
    document = weights_document(result, study)
    write_atomically(keep / "weights.json", (json.dumps(document, indent=1) + "\n").encode())
    lines = [
        f"{len(result.log)} generations ({result.played} played in this run), "
        f"{platform.machine()} with {os.cpu_count()} CPUs, workers {args.workers}; tuning took "
        f"{tuning_s / 60:.1f} min, the checks {check_s / 60:.1f} min",
    ]
    unit = "games" if args.players == 2 else f"{args.players}-player games, one meeting per planner"
    for name, c in checks.items():
        lo, hi = c.interval
        lines.append(
            f"{name} weights: {c.wins} won, {c.draws} drawn, {c.losses} lost of {c.games} "
            f"({unit}); decided {c.rate:.1%} [{lo:.1%}, {hi:.1%}]"
        )
    lo, _ = check.interval
    lines.append(
        f"target ≥ {TARGET:.0%} of decided {'games' if args.players == 2 else 'meetings'}: "
        + ("met (the interval's lower end is above it)" if lo >= TARGET else "not shown")
    )
    with (keep / "run.txt").open("a", encoding="utf-8") as log:  # one block per run
        log.write(f"run started {began:%Y-%m-%d %H:%M} UTC\n" + "\n".join(lines) + "\n\n")
    print("\n".join(lines))
    print(f"report: {keep / 'report.md'}")
    if args.install:
        install(result.weights, study, args.players)


def install(weights: dict[str, float], study: str, players: int) -> None:
    """Write ``weights`` to ``tuned.json``: as its 2-player weights, or (a study at more
    players) as its weights from 3 players on; what it holds besides is kept."""
    tuned = json.loads(TUNED.read_text("utf-8"))
    tuned["about"] = (
        "The weights of the tuned agent (antipolix.agents.tuned), written by "
        "experiments/tune_planner.py --install from finished tuning studies: `weights` from a "
        "2-player study, `more_players` from a study at a larger table, used from `from` "
        "players on; `hand_set` over both."
    )
    if players == 2:
        tuned["study"], tuned["weights"] = study, weights
    else:
        tuned["more_players"] = {"from": 3, "study": study, "weights": weights}
    write_atomically(TUNED, (json.dumps(tuned, indent=2, ensure_ascii=False) + "\n").encode())
    print(f"installed: {TUNED} (study {study})")


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path.resolve())


if __name__ == "__main__":
    run_script(main)
