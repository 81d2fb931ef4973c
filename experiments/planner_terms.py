"""What each term of the tuned planner's score buys and what it costs: ``tuned`` against
``tuned`` without that term, in paired games, and how fast each decides.

    .venv/bin/python experiments/planner_terms.py [--players 2] [--games 2000]
        [--terms threats,hunt,guard,tactics,all] [--speed-games 40]

A term is dropped by setting its weights to 0 (R8's terms of the position value, see
``antipolix.agents.planner``): threats (``threat``, ``press``), hunt (``hunt``), the chief's
guard (``guard``, ``chief_far``), tactics (``network``, ``fortress``, ``crush``); ``all`` drops
every one of them; ``wins`` and ``pressure`` drop one part of threats each (the winning
attacks open next turn, ``threat``; the late game's pressure, ``press``). The planner skips a
term whose weights are all 0 (it would add only zeros), so such a variant also decides faster.
For each term:

- **strength**: ``--games`` games on the default board (each seed ``10000 + i`` played twice,
  the seats swapped; with 4 players, two seats each, alternating), whole in compiled code: the
  variant's share of the decided games with its 95 % interval (normal approximation), and the
  draws;
- **speed**: ``--speed-games`` games of the variant alone and of ``tuned`` alone, the same
  seeds, one after the other in this process: player-turns a second of each.

A changed agent is "the same strength" when the interval holds 0.5 (the issues' rule: a paired
match of at least 2,000 games). Asserts nothing: a study, not a test; run it with nothing
else running.
"""

from __future__ import annotations

import time

import numpy as np

from antipolix import Rules
from antipolix.agents.tuned import TunedAgent
from antipolix.autoplay import play_games, warm
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least
from antipolix.errors import AntipolixError

TERMS: dict[str, dict[str, float]] = {
    "threats": {"threat": 0.0, "press": 0.0},
    "hunt": {"hunt": 0.0},
    "guard": {"guard": 0.0, "chief_far": 0.0},
    "tactics": {"network": 0.0, "fortress": 0.0, "crush": 0.0},
}
TERMS["all"] = {k: v for weights in TERMS.values() for k, v in weights.items()}
TERMS["wins"] = {"threat": 0.0}  # the threats term's two parts (the term runs for either)
TERMS["pressure"] = {"press": 0.0}
SEED = 10_000
CHUNK = 100  # games a compiled call


def strength(rules: Rules, variant: TunedAgent, games: int) -> tuple[int, int, int]:
    """The variant's wins, tuned's wins and the draws in ``games`` paired games."""
    base = TunedAgent()
    plan = []
    for i in range(games):
        seed, flip = divmod(i, 2)
        pair = [variant, base] if flip == 0 else [base, variant]
        seats = [pair[s % 2] for s in range(rules.players)]
        plan.append((seats, np.random.SeedSequence(SEED + seed)))
    won, lost, drawn = 0, 0, 0
    for start in range(0, len(plan), CHUNK):
        chunk = plan[start : start + CHUNK]
        for (seats, _), played in zip(chunk, play_games(rules, chunk), strict=True):
            if played is None:
                raise AntipolixError("an army was refused: this study needs built-in armies")
            winner = played.result.winner
            if winner is None:
                drawn += 1
            elif seats[winner] is variant:
                won += 1
            else:
                lost += 1
    return won, lost, drawn


def speed(rules: Rules, agent: TunedAgent, games: int) -> float:
    """Player-turns a second of ``games`` games of ``agent`` alone."""
    plan = [([agent] * rules.players, np.random.SeedSequence(SEED + i)) for i in range(games)]
    began = time.perf_counter()
    played = play_games(rules, plan)
    seconds = time.perf_counter() - began
    return sum(p.decisions for p in played if p is not None) / seconds


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int_at_least(2), default=2, choices=(2, 4))
    parser.add_argument(
        "--games", type=int_at_least(2), default=2000, help="paired games a term (even)"
    )
    parser.add_argument("--terms", default="threats,hunt,guard,tactics,all")
    parser.add_argument("--speed-games", type=int_at_least(1), default=40)
    args = parser.parse_args()
    terms = [t.strip() for t in args.terms.split(",") if t.strip()]
    unknown = [t for t in terms if t not in TERMS]
    if unknown or not terms:
        raise AntipolixError(
            f"unknown term {', '.join(map(repr, unknown)) or '(none given)'}: "
            f"the terms are {', '.join(TERMS)}"
        )
    if args.games % 2:
        raise AntipolixError(f"--games must be even, got {args.games}")
    rules = Rules(players=args.players)
    warm(rules, [TunedAgent()] * args.players)  # (compiled before anything is timed)
    print(
        f"tuned against tuned without a term: {args.games} games each, {args.players} players, "
        f"default board; speed from {args.speed_games} games of each alone"
    )
    print(
        "| term dropped | variant wins | tuned wins | draws | variant's share of decided "
        "(95 %) | player-turns/s variant / tuned |"
    )
    print("|---|---|---|---|---|---|")
    for term in terms:
        variant = TunedAgent(weights=TERMS[term])
        won, lost, drawn = strength(rules, variant, args.games)
        decided = won + lost
        share = won / decided if decided else float("nan")
        half = 1.96 * (share * (1 - share) / decided) ** 0.5 if decided else float("nan")
        fast, base = (
            speed(rules, variant, args.speed_games),
            speed(rules, TunedAgent(), args.speed_games),
        )
        print(
            f"| {term} | {won} | {lost} | {drawn} | {share:.3f} ± {half:.3f} | "
            f"{fast:,.0f} / {base:,.0f} ({fast / base:.2f}×) |",
            flush=True,
        )


if __name__ == "__main__":
    run_script(main)
