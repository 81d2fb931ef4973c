"""The golden trace: one seeded game stored event by event (pgx ``random_play.json`` style).

Regenerate after an *intended* change of rules, engine or built-in agents, and say why in the
commit:

    .venv/bin/python -m tests.golden
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from antipolix import Rules
from antipolix.agents import GreedyAgent, RandomAgent
from antipolix.play import play_game

PATH = Path(__file__).with_name("data") / "golden_3p_seed7.json"
RULES = Rules(shape=(4, 8, 8), players=3, max_turns=300)
AGENTS = [GreedyAgent, RandomAgent, GreedyAgent]
SEED = 7


def trace() -> dict[str, Any]:
    played = play_game(RULES, AGENTS, SEED)
    return {
        "rules": repr(RULES),
        "agents": [a.name for a in AGENTS],
        "seed": SEED,
        "armies": [
            [p.type.name + "/" + p.trait.name + "@" + str(list(p.cell)) for p in army]
            for army in played.armies
        ],
        "turns": [[e.to_dict() for e in report.events] for report in played.reports],
    }


if __name__ == "__main__":
    PATH.write_text(json.dumps(trace(), indent=1) + "\n")
    print(f"wrote {PATH}")
