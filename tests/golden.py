"""Golden replays: a few seeded games stored as replay files (pgx ``random_play.json`` style).

Regenerate after an *intended* change of rules, engine or built-in agents, and say why in the
commit:

    .venv/bin/python -m tests.golden
"""

from __future__ import annotations

from pathlib import Path

from antipolix import Rules, play
from antipolix.agents import GreedyAgent, RandomAgent
from antipolix.agents.base import Agent

FOLDER = Path(__file__).with_name("data") / "golden"

# name → (rules, agents, seed, armies)
GAMES: dict[str, tuple[Rules, list[Agent], int, list[list[str] | None] | None]] = {
    "3p_small_greedy_random_seed7": (
        Rules(shape=(4, 8, 8), players=3, max_turns=300),
        [GreedyAgent(), RandomAgent(), GreedyAgent()],
        7,
        None,
    ),
    "2p_random_teleporters_seed3": (
        Rules(shape=(4, 10, 10), players=2, max_turns=150, budget=40),
        [RandomAgent(), RandomAgent()],
        3,
        [
            ["army+chief", "army+teleporter", "hovercraft+teleporter", "hovercraft"],
            ["hovercraft+chief", "fortress+teleporter", "army+invisible", "army", "army"],
        ],
    ),
    "4p_default_greedy_seed11": (Rules(), [GreedyAgent() for _ in range(4)], 11, None),
}


def path(name: str) -> Path:
    return FOLDER / f"{name}.apx.json.gz"


def write_all() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, (rules, agents, seed, armies) in GAMES.items():
        result = play(rules, agents, seed, armies=armies, replay=path(name))
        print(f"wrote {path(name)}: {result}")


if __name__ == "__main__":
    write_all()
