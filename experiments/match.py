"""A head-to-head match: agent A against agent B at 2-player tables, every game reproducible.

    .venv/bin/python experiments/match.py A B [--games 200] [--seed 10000] [--workers 2]
        [--out experiments/results/match.md]
    .venv/bin/python experiments/match.py search tuned --games 200 --seed 10000

Game ``i`` is played on the default 2-player rules with think times drawn by the engine (R7:
``Rules(players=2, think_times="drawn")``, as in the ladder, so that no agent gains on the
clock) from ``SeedSequence(seed + i)``; A sits in seat 0 in the even games and in seat 1 in the
odd ones. A game ends with a winner (R8, R7) or a draw at the turn limit (R10). A's share is
over decided games, with its 95 % Wilson interval. Agents are named as everywhere else
(``search:rollouts=8``: :func:`antipolix.agents.agent_named`); an unknown name or parameter
is refused before any game. Prints the result, the games as a line (``a``: A won, ``b``: B
won, ``.``: draw) and, with ``--out``, writes it as Markdown.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from antipolix import Rules
from antipolix.agents import agent_named
from antipolix.autoplay import play_games
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, seed_arg
from antipolix.errors import AntipolixError
from antipolix.stats import wilson_interval

RULES = Rules(players=2, think_times="drawn")


def play_games_of(job: tuple[str, str, int, list[int]]) -> list[tuple[int, str, int, float]]:
    """Worker: games ``indices`` of the match, as (index, ``a``/``b``/``.``, turns, seconds)."""
    a, b, seed, indices = job
    out = []
    for i in indices:
        pair = [agent_named(a), agent_named(b)]
        agents = pair if i % 2 == 0 else pair[::-1]
        start = time.perf_counter()
        (played,) = play_games(RULES, [(agents, np.random.SeedSequence(seed + i))])
        assert played is not None  # (built-in agents and armies: never refused)
        winner = played.result.winner
        mark = "." if winner is None else ("a" if winner == i % 2 else "b")
        out.append((i, mark, played.result.turns, time.perf_counter() - start))
    return out


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="agent A (e.g. search, search:rollouts=8)")
    parser.add_argument("b", help="agent B")
    parser.add_argument("--games", type=int_at_least(1), default=200)
    parser.add_argument("--seed", type=seed_arg, default=10_000, help="game i uses seed + i")
    parser.add_argument("--workers", type=int_at_least(1), default=2)
    parser.add_argument("--out", type=Path, help="also write the result here (Markdown)")
    args = parser.parse_args()
    for name in (args.a, args.b):
        agent_named(name)  # refuses an unknown name or parameter before any game
    if not 0 <= args.seed <= 2**63 - 1 - args.games:
        raise AntipolixError(f"--seed must be from 0 to 2**63 - 1 - games, got {args.seed}")
    workers = min(args.workers, args.games)
    jobs = [
        (args.a, args.b, args.seed, list(range(k, args.games, workers))) for k in range(workers)
    ]
    began = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        rows = sorted(row for part in pool.map(play_games_of, jobs) for row in part)
    wall = time.perf_counter() - began
    marks = "".join(r[1] for r in rows)
    wins, losses, draws = marks.count("a"), marks.count("b"), marks.count(".")
    decided = wins + losses
    lo, hi = wilson_interval(wins, decided)
    share = (
        f"{100 * wins / decided:.1f} % [{100 * float(lo):.1f}, {100 * float(hi):.1f}]"
        if decided
        else "–"
    )
    text = (
        f"{args.a} against {args.b}, {args.games} games at 2 players (seeds {args.seed} + i, "
        f"seats alternating, think times drawn): {args.a} won {wins}, lost {losses}, drew "
        f"{draws}; {share} of decided games (95 % Wilson); mean game "
        f"{np.mean([r[2] for r in rows]):.0f} turns; {sum(r[3] for r in rows):.0f} s of play, "
        f"{wall:.0f} s wall on {workers} workers"
    )
    print(text)
    print(marks)
    if args.out:
        command = (
            f"`.venv/bin/python experiments/match.py {args.a} {args.b} "
            f"--games {args.games} --seed {args.seed}`"
        )
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(
            f"# {args.a} against {args.b}\n\n{command}\n\n{text}.\n\nGames in order "
            f"(a: {args.a} won, b: {args.b} won, .: draw):\n\n```\n{marks}\n```\n",
            encoding="utf-8",
        )


if __name__ == "__main__":
    run_script(main)
