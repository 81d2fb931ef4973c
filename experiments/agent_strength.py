"""Agent strength: head-to-head win rates of the built-in agents, and how often Greedy stalls.

    .venv/bin/python experiments/agent_strength.py [--games 400] [--draw-games 200] [--workers 2]
        [--cache runs/agent_strength.jsonl]

Table 1: two-player games on the default rules (``Rules(players=2)``, R1–R3), one pairing per
row. Game ``i`` of a pairing uses seed ``SEED + i``; the seat of agent A (seat 0 or 1) is drawn
from that seed, so seats are shuffled and every game is reproducible on its own
(``play_game(rules, agents, seed)``). A game ends with a winner (the other chief taken, R8, or
the other timer run out, R7) or a draw at the turn limit (R10). The win rate of A is over
decided games, with a 95 % Wilson interval.

Table 2: four Greedy agents on the default four-player rules: how many games reach the turn
limit (R10), and the turn counts.

Both tables are printed and written as Markdown to ``experiments/results/agent_strength.md``.
Every game is played whole in compiled code (:func:`antipolix.autoplay.play_games`: the same game
as ``play_game``, event for event).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from antipolix import Rules
from antipolix.agents import Agent, GreedyAgent, PlannerAgent, RandomAgent
from antipolix.autoplay import play_games, warm
from antipolix.cli import Parser, run_script
from antipolix.cli.common import file_to_write, int_at_least
from antipolix.end import EndReason
from antipolix.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "experiments" / "results" / "agent_strength.md"
SEED = 20_000  # game i of every pairing uses seed SEED + i
AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "planner": PlannerAgent,
}
PAIRINGS = (("greedy", "random"), ("planner", "greedy"), ("planner", "random"))
REQUIRED = {("greedy", "random"): 0.90, ("planner", "greedy"): 0.60}  # win rate of A, decided


@dataclass(frozen=True)
class Row:
    """One game: which side won (``"A"``, ``"B"`` or None for a draw), why, in how many turns."""

    a: str
    b: str
    seed: int
    seat_a: int
    winner: str | None
    reason: str
    turns: int
    seconds: float


def whole_game(rules: Rules, agents: list[Agent], seed: int) -> Any:
    """The result of the game of ``seed`` (the game ``play_game(rules, agents, seed)`` plays),
    played whole in compiled code."""
    (played,) = play_games(rules, [(agents, np.random.SeedSequence(seed))])
    assert played is not None  # (built-in agents and armies: never refused)
    return played.result


def seat_of_a(seed: int) -> int:
    """The seat of agent A in the game of ``seed``: drawn from the seed (shuffled seats)."""
    return int(np.random.default_rng(seed).integers(2))


def play_pair(job: tuple[str, str, int]) -> Row:
    """Worker: one two-player game of A against B on the default rules."""
    a, b, seed = job
    seat = seat_of_a(seed)
    agents = [AGENTS[b](), AGENTS[b]()]
    agents[seat] = AGENTS[a]()
    start = time.perf_counter()
    result = whole_game(Rules(players=2), agents, seed)
    winner = None if result.winner is None else ("A" if result.winner == seat else "B")
    return Row(
        a, b, seed, seat, winner, result.reason.name, result.turns, time.perf_counter() - start
    )


def play_greedy4(seed: int) -> tuple[int | None, str, int]:
    """Worker: one game of four Greedy agents on the default rules."""
    result = whole_game(Rules(), [GreedyAgent() for _ in range(4)], seed)
    return result.winner, result.reason.name, result.turns


def wilson(wins: int, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of a binomial proportion ((0, 1) when n is 0)."""
    if n == 0:
        return 0.0, 1.0
    lo, hi = wilson_interval(wins, n)
    return float(lo), float(hi)


def markdown(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def upsets(rows: list[Row], most: int = 10) -> str:
    """The seeds of the games A did not win (to replay them), at most ``most`` per pairing."""
    lines = []
    for a, b in PAIRINGS:
        lost = [r for r in rows if (r.a, r.b) == (a, b) and r.winner != "A"]
        if lost:
            shown = ", ".join(
                f"{r.seed} (A in seat {r.seat_a}, {'B won' if r.winner else 'draw'}, "
                f"{r.turns} turns)"
                for r in lost[:most]
            )
            more = f" and {len(lost) - most} more" if len(lost) > most else ""
            lines.append(f"- {a} vs {b}: {shown}{more}")
    return "\n".join(lines) if lines else "- none"


def strength_table(rows: list[Row]) -> tuple[str, list[str]]:
    header = [
        "pairing (A vs B)",
        "games",
        "decided",
        "wins A",
        "wins B",
        "draws (turn limit)",
        "win rate A (decided) [95 % CI]",
        "mean turns",
        "s/game",
    ]
    out, problems = [], []
    for a, b in PAIRINGS:
        games = [r for r in rows if (r.a, r.b) == (a, b)]
        if not games:
            continue
        wins = Counter(r.winner for r in games)
        decided = wins["A"] + wins["B"]
        limit = sum(r.reason == EndReason.TURN_LIMIT.name for r in games)
        rate = wins["A"] / decided if decided else float("nan")
        lo, hi = wilson(wins["A"], decided)
        out.append(
            [
                f"{a} vs {b}",
                str(len(games)),
                str(decided),
                str(wins["A"]),
                str(wins["B"]),
                str(limit),
                f"{100 * rate:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]",
                f"{np.mean([r.turns for r in games]):.0f}",
                f"{np.mean([r.seconds for r in games]):.2f}",
            ]
        )
        need = REQUIRED.get((a, b))
        if need is not None and not rate >= need:
            problems.append(f"{a} vs {b}: win rate {rate:.3f} < required {need}")
    return markdown(header, out), problems


def stall_table(results: list[tuple[int | None, str, int]]) -> str:
    n = len(results)
    reasons = Counter(r for _, r, _ in results)
    turns = np.array([t for _, _, t in results])
    seats = Counter(w for w, _, _ in results if w is not None)
    header = [
        "games",
        "turn limit (draw)",
        "last player standing",
        "other draws",
        "mean turns",
        "median",
        "max",
        "wins by seat 0/1/2/3",
    ]
    limit, last = reasons[EndReason.TURN_LIMIT.name], reasons[EndReason.LAST_PLAYER.name]
    row = [
        str(n),
        f"{limit} ({100 * limit / n:.1f} %)",
        str(last),
        str(n - limit - last),
        f"{turns.mean():.0f}",
        f"{np.median(turns):.0f}",
        str(turns.max()),
        "/".join(str(seats[s]) for s in range(4)),
    ]
    return markdown(header, [row])


def load_cache(path: Path | None) -> dict[str, dict[str, Any]]:
    """Finished games by key, from a JSON-lines cache (empty without one)."""
    if path is None or not path.exists():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            out[item["key"]] = item["record"]
    return out


def save(path: Path | None, key: str, record: dict[str, Any]) -> dict[str, Any]:
    """Append one finished game to the cache (if any); return the record."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"key": key, "record": record}) + "\n")
    return record


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int_at_least(1), default=400, help="games per pairing")
    parser.add_argument("--draw-games", type=int_at_least(1), default=200, help="4-Greedy games")
    parser.add_argument("--workers", type=int_at_least(1), default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="JSON-lines file of finished games: games already in it are not played again "
        "(resume after an interruption; delete it after changing an agent)",
    )
    args = parser.parse_args()
    file_to_write(args.out)
    start = time.perf_counter()
    done = load_cache(args.cache)
    # compile (or load) the core once, here, not in each worker
    warm(Rules(players=3), [RandomAgent(), GreedyAgent(), PlannerAgent()])
    jobs = [(a, b, SEED + i) for a, b in PAIRINGS for i in range(args.games)]
    seeds4 = range(SEED, SEED + args.draw_games)
    with ProcessPoolExecutor(args.workers) as pool:
        todo = [job for job in jobs if f"{job[0]}-{job[1]}-{job[2]}" not in done]
        for row in pool.map(play_pair, todo, chunksize=8):
            done[f"{row.a}-{row.b}-{row.seed}"] = save(
                args.cache, f"{row.a}-{row.b}-{row.seed}", asdict(row)
            )
        todo4 = [seed for seed in seeds4 if f"greedy4-{seed}" not in done]
        for seed, (winner, reason, turns) in zip(
            todo4, pool.map(play_greedy4, todo4, chunksize=4), strict=True
        ):
            record = {"winner": winner, "reason": reason, "turns": turns}
            done[f"greedy4-{seed}"] = save(args.cache, f"greedy4-{seed}", record)
    rows = [Row(**done[f"{a}-{b}-{seed}"]) for a, b, seed in jobs]
    greedy4 = [
        (done[k]["winner"], done[k]["reason"], done[k]["turns"])
        for k in (f"greedy4-{seed}" for seed in seeds4)
    ]
    elapsed = time.perf_counter() - start
    strength, problems = strength_table(rows)
    stalls = stall_table(greedy4)
    text = "\n".join(
        [
            "# Agent strength",
            "",
            f"Made by `experiments/agent_strength.py --games {args.games} "
            f"--draw-games {args.draw_games}` ({args.workers} processes; the last run took "
            f"{elapsed / 60:.1f} min). Seeds {SEED} + i; the seat of A is drawn from the seed.",
            "",
            "## Two players, default rules (8×16×16, budget 122 each)",
            "",
            "Win rate of A among decided games (draws = turn limit, R10), 95 % Wilson interval.",
            "",
            strength,
            "",
            "Games A did not win (seed, seat):",
            "",
            upsets(rows),
            "",
            "## Four Greedy agents, default rules (8×16×16, budget 61 each)",
            "",
            stalls,
            "",
        ]
    )
    print(text)
    args.out.write_text(text, encoding="utf-8")
    print(f"written to {args.out}")
    for problem in problems:
        print("BELOW REQUIREMENT:", problem)


if __name__ == "__main__":
    run_script(main)
