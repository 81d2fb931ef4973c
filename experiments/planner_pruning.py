"""Could the planner score fewer moves? How often a cheap rule that drops candidate moves before
they are scored keeps the move the planner plays, and what the moves it loses were worth.

    .venv/bin/python experiments/planner_pruning.py [--games 4] [--players 4] [--agents tuned]
        [--out experiments/results/planner_pruning.md]

A planner decision scores every candidate move of every own mobile piece (R4, R5; about 390 a
decision in 4-player tuned games) and plays the best, unless a winning attack scores higher. Most
of a decision's time is that scoring, so an agent several times faster would have to score far
fewer moves. This script records the positions the agents decide on (as ``bench_weights.py``
does), scores every candidate on each with the agent's own weights, and asks of each rule
(computed from what is known before scoring: the mover's distance to the nearest visible enemy
now and after the move, R1; whether an enemy reaches it now, R5, R8; whether it is the chief):

- **kept**: the share of all candidates it keeps (the scoring's cost is about proportional);
- **best kept**: among the positions where a move is played, how often the rule keeps it;
- **loss**: how often the best move the rule keeps scores at least 0.2 or 1 point (R2 cost)
  below the move played, and the mean shortfall (a winning attack counts as kept).

It also says where the moves played come from (threatened pieces, the chief, moves away from the
enemy). Deterministic: the same games and positions every run. Prints the table and writes it
as Markdown to ``--out``. Asserts nothing: a study, not a test.
"""

from __future__ import annotations

import platform
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numba
import numpy as np
from bench_weights import fresh_copy
from profile_planner import record

from antipolix.agents import agent_named
from antipolix.agents.planner.decision import best_attack, candidates, move_scores
from antipolix.agents.planner.reading import opening, read_turn
from antipolix.cli import Parser, run_script
from antipolix.cli.common import file_to_write, int_at_least
from antipolix.errors import AntipolixError
from antipolix.jit import packed

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "experiments" / "results" / "planner_pruning.md"


class Scored(NamedTuple):
    """One position's candidates: the best attack's score (0: none wins), and per candidate
    move its score, its mover (own index), the end's and the start's distance to the nearest
    visible enemy, the enemy power reaching the mover now, and the chief's own index (-1)."""

    attack: float
    score: np.ndarray
    mover: np.ndarray
    gap: np.ndarray
    now: np.ndarray
    threat: np.ndarray
    chief: int


# not cached on disk: numba would not see a change to the planner's kernels it calls
@numba.njit(cache=False)  # type: ignore[untyped-decorator]
def _scored(t: Any, seen: Any, m: Any, w: Any, rng: Any) -> Any:
    memory = fresh_copy(m)
    _, s, unit = opening(t, seen, memory, 0.2, 1.5, rng)
    none = np.zeros(0, dtype=np.int64)
    if not (len(s.enemy) and len(s.mobile)):
        return 0.0, np.zeros(0), none, none, none, none, -1
    tn = read_turn(t, s, memory, unit, w)
    attack = best_attack(tn, s)[0]
    who, _, _, gap = candidates(tn, s)
    score = move_scores(t, tn, s, rng)[0]
    mover = s.mobile_own[who]
    return attack, score, mover, gap, tn.o_dist[mover], tn.t_own[mover], tn.ci


def scored(names: list[str], games: int, players: int) -> list[Scored]:
    """Every position the agents ``names`` decide on in ``games`` games each, its candidates
    scored with the weights of the agent that decided there."""
    out: list[Scored] = []
    for name in names:
        rules, positions = record([name], games, players)
        w = agent_named(name).weights  # type: ignore[attr-defined]
        rng = np.random.default_rng(0)
        for seen, memory in positions:
            one = Scored(*_scored(rules.tables, seen, packed(memory), w, rng))
            if len(one.score):
                out.append(one)
    if not out:
        raise AntipolixError("planner_pruning: no position with a move to score")
    return out


Rule = Callable[[Scored], np.ndarray]


def _urgent(p: Scored) -> np.ndarray:
    return np.asarray((p.threat > 0) | (p.mover == p.chief))


def _nearest_pieces(k: int) -> Rule:
    def keep(p: Scored) -> np.ndarray:
        pieces, first = np.unique(p.mover, return_index=True)
        chosen = pieces[np.argsort(p.now[first], kind="stable")][:k]
        out: np.ndarray = np.isin(p.mover, chosen) | _urgent(p)
        return out

    return keep


def _nearest_ends(k: int) -> Rule:
    def keep(p: Scored) -> np.ndarray:
        out: np.ndarray = p.mover == p.chief
        for piece in np.unique(p.mover):
            moves = np.flatnonzero(p.mover == piece)
            out[moves[np.argsort(p.gap[moves], kind="stable")][:k]] = True
        return out

    return keep


RULES: tuple[tuple[str, Rule], ...] = (
    ("every candidate (today)", lambda p: np.ones(len(p.score), dtype=bool)),
    ("no move away from the enemy, but a threatened piece's or the chief's",
     lambda p: (p.gap <= p.now) | _urgent(p)),
    ("only moves closing in, but a threatened piece's or the chief's",
     lambda p: (p.gap < p.now) | _urgent(p)),
    *((f"the {k} pieces nearest the enemy, threatened pieces and the chief", _nearest_pieces(k))
      for k in (2, 4, 8)),
    *((f"each piece's {k} moves ending nearest the enemy, all the chief's", _nearest_ends(k))
      for k in (8, 16, 32, 64)),
)  # fmt: skip


class Row(NamedTuple):
    rule: str
    kept: float
    best_kept: float
    loss_02: float
    loss_1: float
    mean_loss: float


def evaluate(positions: list[Scored], rule: str, keep: Rule) -> Row:
    """One rule over the positions (see the module docstring)."""
    masks = [keep(p) for p in positions]
    total = sum(len(p.score) for p in positions)
    kept = sum(int(mask.sum()) for mask in masks)
    best_kept, losses = 0, []
    for p, mask in zip(positions, masks, strict=True):
        if p.score.max() <= p.attack:
            continue  # (an attack is played: no move to keep)
        best = int(np.argmax(p.score))
        best_kept += bool(mask[best])
        kept_best = max(float(p.score[mask].max()) if mask.any() else 0.0, p.attack)
        losses.append(float(p.score[best]) - kept_best)
    loss = np.array(losses)
    played = len(losses)
    return Row(
        rule,
        kept / total,
        best_kept / played,
        float(np.mean(loss > 0.2)),
        float(np.mean(loss > 1.0)),
        float(loss.mean()),
    )


def origins(positions: list[Scored]) -> dict[str, float]:
    """Where the moves played come from: shares of the positions where a move is played."""
    played = [p for p in positions if p.score.max() > p.attack]
    best = [int(np.argmax(p.score)) for p in played]
    pairs = list(zip(played, best, strict=True))
    n = len(played)
    return {
        "by a piece an enemy reaches now": sum(p.threat[b] > 0 for p, b in pairs) / n,
        "by the chief": sum(p.mover[b] == p.chief for p, b in pairs) / n,
        "away from the enemy": sum(p.gap[b] > p.now[b] for p, b in pairs) / n,
        "closing in": sum(p.gap[b] < p.now[b] for p, b in pairs) / n,
    }


def table(rows: list[Row]) -> list[str]:
    lines = [
        "| rule | candidates kept | move played kept | loses ≥ 0.2 point | loses ≥ 1 point "
        "| mean loss (points) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.rule} | {r.kept:.1%} | {r.best_kept:.2%} | {r.loss_02:.2%} | {r.loss_1:.2%} "
            f"| {r.mean_loss:.3f} |"
        )
    return lines


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int_at_least(1), default=4, help="games of each agent (default 4)"
    )
    parser.add_argument(
        "--players", type=int_at_least(2), default=4, help="players a game (default 4)"
    )
    parser.add_argument("--agents", default="tuned", help="planners by name (default tuned)")
    parser.add_argument("--out", type=Path, default=OUT, help="the Markdown table written")
    args = parser.parse_args()
    if args.players > 10:
        raise AntipolixError("planner_pruning: --players 2 to 10")
    file_to_write(args.out)
    names = args.agents.split(",")
    positions = scored(names, args.games, args.players)
    played = sum(p.score.max() > p.attack for p in positions)
    mean = np.mean([len(p.score) for p in positions])
    head = (
        f"{len(positions):,} positions with candidate moves from {args.games} default "
        f"{args.players}-player games of each of {names} (a move played in {played:,}; "
        f"{mean:.0f} candidates a position); numba {numba.__version__}, Python "
        f"{platform.python_version()}"
    )
    lines = [head, "", *table([evaluate(positions, name, keep) for name, keep in RULES]), ""]
    lines.append("Where the moves played come from (of the positions where a move is played):")
    lines.append("")
    lines += [f"- {what}: {share:.1%}" for what, share in origins(positions).items()]
    text = "\n".join(lines)
    print(text)
    args.out.write_text(
        "# Could the planner score fewer moves?\n\n"
        "`experiments/planner_pruning.py` (see its docstring): how often a rule that drops "
        "candidate moves before they are scored keeps the move the planner plays.\n\n" + text + "\n"
    )
    print(f"written: {args.out}")


if __name__ == "__main__":
    run_script(main)
