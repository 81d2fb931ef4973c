"""Sight: how much does moving first matter, at each agent's strength, and which rule option
evens it out? (RULES-sight.md S10)

    .venv/bin/python experiments/sight_first_move.py [--out experiments/results/sight]
    .venv/bin/python experiments/sight_first_move.py --scale 0.05 --out /tmp/quick

Plays, with Sight's compiled batch path, seeded games for every cell below and writes
``first_move.csv`` (one row a cell) and ``report.md`` (the tables and what they say) under
``--out``:

- **pairings**: the default rules (5×5, pie off), every pairing of random, greedy and search
  (seat 0, White, against seat 1, Black): White's win rate with its 95 % Wilson interval, the
  share of ``board_full`` and ``blocked`` endings, the game length;
- **pie**: the same with the pie option (S4): the first seat's win rate (seat 0 places first;
  after Swap it plays Black), White's, and how often Swap is taken;
- **levers**: for greedy against greedy and search against search, each balance lever of S10
  on its own: ``pie``, ``size`` (3, 4, 6, 7), ``hand`` (6, 9, 13, 17),
  ``stack_priority=strict``;
- **exact values**: the solver (:mod:`antipolix.games.sight.solve`) on the boards it solves
  here (3×3, 4×4), the ground truth agents are read against.

Game counts per cell: 20,000 random against random, 4,000 with greedy, 200 with search (at its
default budget), times ``--scale``. Cell ``i`` plays the seeds
``SeedSequence(seed, spawn_key=(i,)).spawn(games)``: a cell's games do not depend on the
others. The committed run took a few CPU-minutes.
"""

from __future__ import annotations

import csv
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from antipolix.cli import Parser, run_script
from antipolix.cli.common import float_in, int_at_least, make_folder, seed_arg
from antipolix.games.protocol import GameError, Outcome
from antipolix.games.sight import GAME, SightConfig
from antipolix.games.sight.solve import NODES_MAX, solve
from antipolix.stats import wilson_interval

AGENTS = ("random", "greedy", "search")
GAMES = {"random": 20_000, "greedy": 4_000, "search": 200}  # by the slowest agent of a pairing
LEVERS: list[tuple[str, dict[str, Any]]] = [
    ("default", {}),
    ("pie", {"pie": True}),
    ("size=3", {"size": 3}),
    ("size=4", {"size": 4}),
    ("size=6", {"size": 6}),
    ("size=7", {"size": 7}),
    ("hand=6", {"hand": 6}),
    ("hand=9", {"hand": 9}),
    ("hand=13", {"hand": 13}),
    ("hand=17", {"hand": 17}),
    ("strict", {"stack_priority": "strict"}),
]
EXACT = [
    ("3×3", {"size": 3}),
    ("3×3 strict", {"size": 3, "stack_priority": "strict"}),
    ("3×3 pie", {"size": 3, "pie": True}),
    ("4×4", {"size": 4}),
    ("4×4 strict", {"size": 4, "stack_priority": "strict"}),
    ("4×4 pie", {"size": 4, "pie": True}),
]
FIELDS = [
    "section", "lever", "size", "hand", "pie", "stack_priority", "seat0", "seat1", "games",
    "seat0_wins", "seat0_rate", "seat0_lo", "seat0_hi", "white_wins", "white_rate", "white_lo",
    "white_hi", "swaps", "board_full", "blocked", "mean_turns", "min_turns", "max_turns",
]  # fmt: skip


@dataclass(frozen=True)
class Cell:
    section: str
    lever: str
    options: dict[str, Any]
    seat0: str
    seat1: str

    @property
    def base_games(self) -> int:
        return min(GAMES[self.seat0], GAMES[self.seat1])


def cells() -> list[Cell]:
    """Every cell of the study, numbered by its place here (its seeds' spawn key)."""
    out = [Cell("pairings", "default", {}, a, b) for a in AGENTS for b in AGENTS]
    out += [Cell("pie", "pie", {"pie": True}, a, b) for a in AGENTS for b in AGENTS]
    for name in ("greedy", "search"):
        out += [
            Cell("levers", lever, options, name, name)
            for lever, options in LEVERS
            if lever not in ("default", "pie")
        ]
    return out


def _rate(wins: int, games: int) -> tuple[float, float, float]:
    lo, hi = wilson_interval(wins, games)
    return wins / games, float(lo), float(hi)


def summarise(cell: Cell, config: SightConfig, outcomes: list[Outcome]) -> dict[str, Any]:
    """One CSV row: the first seat's and White's wins with 95 % Wilson intervals, endings,
    lengths."""
    games = len(outcomes)
    swapped = [bool(o.extras["swapped"]) for o in outcomes]
    seat0 = sum(o.winner == 0 for o in outcomes)
    # White is seat 0, or seat 1 after Swap (S4)
    white = sum(o.winner == int(s) for o, s in zip(outcomes, swapped, strict=True))
    turns = [o.turns for o in outcomes]
    r0, lo0, hi0 = _rate(seat0, games)
    rw, low, hiw = _rate(white, games)
    return {
        "section": cell.section,
        "lever": cell.lever,
        "size": config.size,
        "hand": config.hand,
        "pie": config.pie,
        "stack_priority": config.stack_priority,
        "seat0": cell.seat0,
        "seat1": cell.seat1,
        "games": games,
        "seat0_wins": seat0,
        "seat0_rate": round(r0, 4),
        "seat0_lo": round(lo0, 4),
        "seat0_hi": round(hi0, 4),
        "white_wins": white,
        "white_rate": round(rw, 4),
        "white_lo": round(low, 4),
        "white_hi": round(hiw, 4),
        "swaps": sum(swapped),
        "board_full": sum(o.reason == "board_full" for o in outcomes),
        "blocked": sum(o.reason == "blocked" for o in outcomes),
        "mean_turns": round(float(np.mean(turns)), 2),
        "min_turns": min(turns),
        "max_turns": max(turns),
    }


def _pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:.1f} % ({100 * lo:.1f}–{100 * hi:.1f})"


def _grid(rows: list[dict[str, Any]], section: str, key: str) -> list[str]:
    """A table: seat 0's agent by row, seat 1's by column, ``key``'s rate with its interval."""
    at = {(r["seat0"], r["seat1"]): r for r in rows if r["section"] == section}
    head = f"| seat 0 (first) \\ seat 1 | {' | '.join(AGENTS)} |"
    lines = [head, "|---" * (len(AGENTS) + 1) + "|"]
    for a in AGENTS:
        cells_ = [
            _pct(at[a, b][f"{key}_rate"], at[a, b][f"{key}_lo"], at[a, b][f"{key}_hi"])
            + f" of {at[a, b]['games']:,}"
            if (a, b) in at
            else "not played"
            for b in AGENTS
        ]
        lines.append(f"| **{a}** | {' | '.join(cells_)} |")
    return lines


def _own(rows: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The lever rows of ``name`` against itself, in :data:`LEVERS`' order."""
    order = [lever for lever, _ in LEVERS]
    own = [r for r in rows if r["section"] == "levers" and r["seat0"] == r["seat1"] == name]
    return sorted(own, key=lambda r: order.index(r["lever"]))


def _levers(rows: list[dict[str, Any]], name: str) -> list[str]:
    own = _own(rows, name)
    lines = [
        "| rules | games | White wins | first seat wins | Swap taken | board_full | blocked "
        "| turns (mean, min–max) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in own:
        lines.append(
            f"| {r['lever']} | {r['games']:,} | "
            f"{_pct(r['white_rate'], r['white_lo'], r['white_hi'])} | "
            f"{_pct(r['seat0_rate'], r['seat0_lo'], r['seat0_hi'])} | {r['swaps']:,} | "
            f"{100 * r['board_full'] / r['games']:.1f} % | "
            f"{100 * r['blocked'] / r['games']:.1f} % | "
            f"{r['mean_turns']} ({r['min_turns']}–{r['max_turns']}) |"
        )
    return lines


def _closest(rows: list[dict[str, Any]], name: str) -> str:
    """Which lever brings the first seat nearest an even game for ``name`` against itself."""
    own = _own(rows, name)
    if not own:
        return f"{name} against {name}: not played."
    default = next(r for r in own if r["lever"] == "default")
    best = min(own, key=lambda r: abs(r["seat0_rate"] - 0.5))
    even = [r["lever"] for r in own if r["seat0_lo"] <= 0.5 <= r["seat0_hi"]]
    words = (
        f"{name} against {name}: the first seat wins "
        f"{_pct(default['seat0_rate'], default['seat0_lo'], default['seat0_hi'])} on the "
        f"default rules; nearest an even game: **{best['lever']}** "
        f"({_pct(best['seat0_rate'], best['seat0_lo'], best['seat0_hi'])})"
    )
    if even:
        words += f"; 50 % lies within the interval for: {', '.join(even)}"
    else:
        words += "; no lever's interval holds 50 %"
    return words + "."


def report(rows: list[dict[str, Any]], exact: list[dict[str, Any]], args: Any) -> str:
    pairs = [r for r in rows if r["section"] == "pairings"]
    pie = [r for r in rows if r["section"] == "pie"]
    total_pie = sum(r["games"] for r in pie)
    lines = [
        "# Sight: the first move (RULES-sight.md S10)",
        "",
        f"Made by `experiments/sight_first_move.py --seed {args.seed} --scale {args.scale} "
        f"--agents {args.agents}`, "
        "Sight's compiled batch path, one process. Rates are of games won, with 95 % Wilson "
        "intervals (`antipolix.stats`). Seat 0 moves first (White, S4); with the pie option "
        "Black may answer White's first piece with Swap, after which seat 0 plays Black. "
        "search is `search` at its default budget (4,000 nodes a decision).",
        "",
        "## White's win rate by pairing, default rules (5×5, no pie)",
        "",
        *_grid(rows, "pairings", "seat0"),
        "",
        "Endings and length (default rules):",
        "",
        "| seat 0 | seat 1 | board_full | blocked | turns (mean, min–max) |",
        "|---|---|---|---|---|",
        *[
            f"| {r['seat0']} | {r['seat1']} | {100 * r['board_full'] / r['games']:.1f} % | "
            f"{100 * r['blocked'] / r['games']:.1f} % | {r['mean_turns']} "
            f"({r['min_turns']}–{r['max_turns']}) |"
            for r in pairs
        ],
        "",
        "## With the pie option: the first seat's win rate",
        "",
        *_grid(rows, "pie", "seat0"),
        "",
        "White's (the colour's) win rate with the pie option:",
        "",
        *_grid(rows, "pie", "white"),
        "",
        "Swap taken: "
        + ", ".join(f"{r['seat0']}–{r['seat1']} {r['swaps']:,} of {r['games']:,}" for r in pie)
        + f" ({sum(r['swaps'] for r in pie):,} of {total_pie:,} games).",
        "",
        "## The levers (S10), one at a time",
        "",
        "### greedy against greedy",
        "",
        *_levers(rows, "greedy"),
        "",
        "### search against search",
        "",
        *_levers(rows, "search"),
        "",
        "## Exact values (the solver)",
        "",
        "The value for the first seat (White until a Swap), with perfect play on both sides:",
        "",
        "| rules | first seat | nodes |",
        "|---|---|---|",
        *[f"| {e['rules']} | {e['result']} | {e['nodes']:,} |" for e in exact],
        "",
        "## What it says",
        "",
        *[f"- {line}" for line in _findings(rows)],
    ]
    return "\n".join(lines) + "\n"


def _first(rows: list[dict[str, Any]], name: str, lever: str) -> str:
    row = next((r for r in _own(rows, name) if r["lever"] == lever), None)
    return "–" if row is None else f"{100 * row['seat0_rate']:.1f} %"


def _findings(rows: list[dict[str, Any]]) -> list[str]:
    """What the tables say, read off them (the same sentences whatever the numbers)."""
    out = []
    same = {r["seat0"]: r for r in rows if r["section"] == "pairings" and r["seat0"] == r["seat1"]}
    if same:
        out.append(
            "The first seat's share against the same agent, default rules: "
            + ", ".join(
                f"{a} {_pct(same[a]['seat0_rate'], same[a]['seat0_lo'], same[a]['seat0_hi'])}"
                for a in AGENTS
                if a in same
            )
            + "."
        )
    pie = [r for r in rows if r["section"] == "pie"]
    if pie:
        out.append(
            f"With the pie Swap was taken in {sum(r['swaps'] for r in pie):,} of "
            f"{sum(r['games'] for r in pie):,} games; the first seat against the same agent: "
            + ", ".join(
                f"{a} {_first(rows, a, 'default')} → {_first(rows, a, 'pie')}"
                for a in ("greedy", "search")
                if _own(rows, a)
            )
            + "."
        )
    for name in ("greedy", "search"):
        if not _own(rows, name):
            continue
        hands = ", ".join(
            f"{lever.split('=')[1]} {_first(rows, name, lever)}"
            for lever, _ in LEVERS
            if lever.startswith("hand=")
        )
        sizes = ", ".join(
            f"{lever.split('=')[1]}×{lever.split('=')[1]} {_first(rows, name, lever)}"
            for lever, _ in LEVERS
            if lever.startswith("size=")
        )
        out.append(
            f"{name} against {name}, the first seat by hand: {hands}, unlimited "
            f"{_first(rows, name, 'default')}; by board: {sizes}, 5×5 "
            f"{_first(rows, name, 'default')}; strict {_first(rows, name, 'strict')}."
        )
        out.append(_closest(rows, name))
    return out


def exact_values(budget: int) -> list[dict[str, Any]]:
    out = []
    for name, options in EXACT:
        solution = solve(GAME.config(**options), budget=budget)
        result = {1: "wins", -1: "loses", 0: "unknown (budget spent)"}[solution.value]
        out.append({"rules": name, "result": result, "nodes": solution.nodes})
    return out


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a ``first_move.csv``, numbers as numbers."""
    if not path.is_file():
        raise GameError(f"no study table at {path} (run the study first)")
    text = {"section", "lever", "hand", "stack_priority", "seat0", "seat1"}
    rows = []
    with path.open(encoding="utf-8") as fh:
        for raw in csv.DictReader(fh):
            row: dict[str, Any] = {}
            for key, value in raw.items():
                if key in text:
                    row[key] = value
                elif key == "pie":
                    row[key] = value == "True"
                else:
                    row[key] = float(value) if "." in value else int(value)
            rows.append(row)
    return rows


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("experiments/results/sight"))
    parser.add_argument("--seed", type=seed_arg, default=36)
    parser.add_argument(
        "--scale", type=float_in(0, open_low=True), default=1.0, help="times the game counts"
    )
    parser.add_argument(
        "--solver-budget", type=int_at_least(1, maximum=NODES_MAX), default=20_000_000
    )
    parser.add_argument(
        "--agents", default=",".join(AGENTS), help="play only pairings of these agents"
    )
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="write report.md from the first_move.csv already under --out (no games)",
    )
    args = parser.parse_args()
    chosen = tuple(args.agents.split(","))
    unknown = [a for a in chosen if a not in AGENTS]
    if unknown:
        raise GameError(f"unknown agent {unknown[0]!r} (agents: {', '.join(AGENTS)})")
    if args.report_only:
        rows = read_rows(args.out / "first_move.csv")
        exact = exact_values(args.solver_budget)
        (args.out / "report.md").write_text(report(rows, exact, args), encoding="utf-8")
        print(f"wrote {args.out / 'report.md'} from {args.out / 'first_move.csv'}")
        return
    make_folder(args.out)
    rows = []
    began, began_cpu = time.perf_counter(), time.process_time()
    for i, cell in enumerate(cells()):
        if cell.seat0 not in chosen or cell.seat1 not in chosen:
            continue  # (cell numbers, hence seeds, stay those of the whole study)
        config = GAME.config(**cell.options)
        games = max(2, round(cell.base_games * args.scale))
        seeds = np.random.SeedSequence(args.seed, spawn_key=(i,)).spawn(games)
        agents = [GAME.agents[cell.seat0](), GAME.agents[cell.seat1]()]
        t0 = time.perf_counter()
        outcomes = GAME.play_batch(config, agents, seeds)
        assert outcomes is not None
        row = summarise(cell, config, outcomes)
        rows.append(row)
        print(
            f"{cell.section:<8} {cell.lever:<8} {cell.seat0:>6}–{cell.seat1:<6} {games:>6,} "
            f"games: first seat {100 * row['seat0_rate']:5.1f} %, White "
            f"{100 * row['white_rate']:5.1f} %, swaps {row['swaps']}, "
            f"{time.perf_counter() - t0:.1f} s",
            flush=True,
        )
    # the dict levers of greedy/search against themselves, default and pie, come from the
    # pairing and pie sections
    for row in list(rows):
        if row["section"] in ("pairings", "pie") and row["seat0"] == row["seat1"] != "random":
            rows.append({**row, "section": "levers"})
    exact = exact_values(args.solver_budget)
    with (args.out / "first_move.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    (args.out / "report.md").write_text(report(rows, exact, args), encoding="utf-8")
    print(
        f"wrote {args.out / 'first_move.csv'} and {args.out / 'report.md'} in "
        f"{time.perf_counter() - began:.0f} s ({time.process_time() - began_cpu:.0f} s CPU; "
        f"load average {os.getloadavg()[0]:.2f})"
    )


if __name__ == "__main__":
    run_script(main)
