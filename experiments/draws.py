"""How games among agents of one kind end: turn-limit draws, NUL draws, decided games.

    .venv/bin/python experiments/draws.py [--agent tuned] [--players 4] [--games 200]

Plays ``--games`` seeded games (seeds ``SeedSequence([11, i])``) of ``--players`` copies of one
built-in agent on the default rules with think times drawn by the engine (R7), whole in
compiled code, and prints how they ended (R10). The issue's target for four ``tuned`` agents:
at most 5 % turn-limit draws. Asserts nothing: a study, not a test.
"""

from __future__ import annotations

import collections
import time

import numpy as np

from antipolix import Rules
from antipolix.agents import agent_named
from antipolix.autoplay import play_games
from antipolix.cli import Parser, run_script
from antipolix.cli.common import int_at_least


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="tuned")
    parser.add_argument("--players", type=int_at_least(2), default=4)
    parser.add_argument("--games", type=int_at_least(1), default=200)
    args = parser.parse_args()
    rules = Rules(players=args.players, think_times="drawn")
    games = [
        ([agent_named(args.agent) for _ in range(args.players)], np.random.SeedSequence([11, i]))
        for i in range(args.games)
    ]
    began = time.perf_counter()
    played = [p for p in play_games(rules, games) if p is not None]
    seconds = time.perf_counter() - began
    ends = collections.Counter(p.result.reason.name.lower() for p in played)
    turns = np.mean([p.result.turns for p in played])
    print(
        f"{args.players}× {args.agent}, {len(played)} games in {seconds:.1f} s, mean {turns:.0f} "
        f"turns: " + ", ".join(f"{k} {v} ({v / len(played):.1%})" for k, v in sorted(ends.items()))
    )


if __name__ == "__main__":
    run_script(main)
