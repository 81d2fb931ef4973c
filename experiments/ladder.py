"""The rating ladder of the built-in agents, at 2- and 4-player tables.

    .venv/bin/python experiments/ladder.py [--games 200] [--games4 96] [--players 2,4]
        [--lineup-games A,B=N ...] [--lineup-games4 A,B,C,D=N ...]
        [--workers K] [--agents random,greedy,planner,tuned,search] [--seed 2026]
        [--out runs/ladder] [--rule KEY=VALUE ...]

Two tournaments (:func:`antipolix.ladder.tournament`) on the default rules (``Rules()``, R1–R3,
``--rule`` to change them), think times drawn by the engine (R7): every pair of agents plays
``--games`` games at 2-player tables, every four agents ``--games4`` games at 4-player tables,
in every seat order (at four players 24 orders, so that who sits beside whom on the ring of home
zones is balanced too: a multiple of 24 plays each equally often). ``--lineup-games`` and
``--lineup-games4`` give chosen lineups more games (those of fast agents cost little), to
measure a gap between them finely. ``--players 4`` plays only the
4-player tables (``2``: only the 2-player ones) and keeps the other table size's section of the
summary as it was. The games stay in ``--out`` (``2-players/``, ``4-players/``: resumable, run
again to finish or to add games); the reports (``ratings.md``, ``ratings.png``, ``ratings.csv``,
``gaps.csv``, ``scores.csv``, ``usage.csv``) and a summary with the commands and timings go to
``experiments/results/ladder/`` (``--results``). Agents this version does not have are left out,
and the summary says so.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from antipolix import Rules
from antipolix.agents import AGENTS
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least, seed_arg
from antipolix.cli.tournament import lineup_count
from antipolix.codec import apply_overrides, rules_overrides
from antipolix.ladder import tournament
from antipolix.ladder.folder import LINEUP_GAMES
from antipolix.ladder.ratings import LadderError
from antipolix.ladder.schedule import lineups

ROOT = Path(__file__).resolve().parents[1]
AGENT_LIST = "random,greedy,planner,tuned,search"
SEED = 2026


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", default=AGENT_LIST, help=f"default {AGENT_LIST}")
    parser.add_argument(
        "--games", type=int_at_least(1), default=200, help="games per pair (2 players)"
    )
    parser.add_argument(
        "--games4", type=int_at_least(1), default=96, help="games per four (4 players)"
    )
    parser.add_argument(
        "--lineup-games",
        type=lineup_count,
        action="append",
        default=[],
        metavar="A,B=N",
        help="N games for this pair instead of --games (2 players; repeat for others)",
    )
    parser.add_argument(
        "--lineup-games4",
        type=lineup_count,
        action="append",
        default=[],
        metavar="A,B,C,D=N",
        help="N games for these four instead of --games4 (4 players; repeat for others)",
    )
    parser.add_argument("--players", default="2,4", help="table sizes to play: 2, 4 or 2,4")
    parser.add_argument("--seed", type=seed_arg, default=SEED)
    parser.add_argument(
        "--workers", type=int_at_least(0), default=None, help="default: every CPU (Ray)"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "runs" / "ladder")
    parser.add_argument("--results", type=Path, default=ROOT / "experiments/results/ladder")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()

    wanted = [a.strip() for a in args.agents.split(",")]
    agents = [a for a in wanted if a.split(":")[0] in AGENTS]
    left_out = [a for a in wanted if a not in agents]
    if left_out:
        print(f"not built into this version, left out: {', '.join(left_out)}")
    if len(agents) < 2:
        raise LadderError(f"a ladder needs at least two agents, got {', '.join(agents) or 'none'}")
    sizes = {"2": [2], "4": [4], "2,4": [2, 4], "4,2": [2, 4]}.get(args.players.replace(" ", ""))
    if sizes is None:
        raise LadderError(
            f"--players is 2, 4 or 2,4 (the table sizes to play), got {args.players!r}"
        )
    rules = apply_overrides(Rules(), args.rule)
    command = " ".join(["`.venv/bin/python experiments/ladder.py", *sys.argv[1:]]) + "`"
    lines = [
        "# Rating ladder of the built-in agents",
        "",
        "Each section: the command that played it, what it played and its summary.",
    ]
    sections = _sections(args.results / "README.md")
    sizes_games = ((2, args.games, args.lineup_games), (4, args.games4, args.lineup_games4))
    for players, games, chosen in sizes_games:
        if players not in sizes:
            lines += sections.get(players, [])
            continue
        if len(agents) < players:
            print(f"{players}-player tables need {players} agents: skipped")
            continue
        more = dict(chosen)
        began = time.perf_counter()
        ladder = tournament(
            agents,
            games,
            players,
            rules=rules,
            seed=args.seed,
            out=args.out / f"{players}-players",
            workers=args.workers,
            progress=True,
            lineup_games=more,
        )
        seconds = time.perf_counter() - began
        folder = args.results / f"{players}-players"
        folder.mkdir(parents=True, exist_ok=True)
        ladder.write_reports(folder)
        tables = len(lineups(agents, players))
        given = ladder.manifest.get(LINEUP_GAMES, {})  # as the tournament names them
        chosen_text = "".join(f", {t.replace(',', ', ')} × {n}" for t, n in given.items())
        chosen_text += " instead" if given else ""
        print(f"\n{players}-player tables: {ladder.run_line()}")
        print(ladder.summary())
        lines += [
            "",
            f"## {players}-player tables",
            "",
            f"{command} (seed {args.seed}; rules: "
            f"{' '.join(rules_overrides(rules)) or 'the defaults'}, think times drawn, R7"
            + (
                f"; not built into this version, left out: {', '.join(left_out)}"
                if left_out
                else ""
            )
            + ").",
            "",
            f"{tables} lineups × {games} games{chosen_text} = {ladder.total_games} games; this "
            f"run played {ladder.played} in {seconds:.1f} s ({ladder.before} were already "
            f"done); the {len(ladder.games)} games took "
            f"{ladder.games['seconds'].sum() / 60:.1f} min of play in all, each on one core. "
            f"Report: [{players}-players/ratings.md]"
            f"({players}-players/ratings.md).",
            "",
            "```",
            ladder.summary(),
            "```",
        ]
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"\nreports: {args.results}")


def _sections(readme: Path) -> dict[int, list[str]]:
    """The ``## N-player tables`` sections of an earlier summary, by N, as lines (with the
    blank line before each), so that a run of one table size keeps the other's."""
    if not readme.is_file():
        return {}
    out: dict[int, list[str]] = {}
    current: list[str] | None = None
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith("## ") and line.endswith("-player tables"):
            current = out.setdefault(int(line[3:].split("-")[0]), ["", line])
        elif line.startswith("#"):
            current = None
        elif current is not None:
            current.append(line)
    for part in out.values():
        while part and not part[-1]:
            part.pop()
    return out


if __name__ == "__main__":
    run_script(main)
