"""Play whole games between agents: the loop that joins agents and the engine.

>>> from antipolix import Rules
>>> from antipolix.agents import GreedyAgent, RandomAgent
>>> played = play_game(Rules(shape=(4, 8, 8), players=2), [GreedyAgent, RandomAgent], seed=7)
>>> played.result.turns > 0
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from antipolix.agents.base import Agent
from antipolix.end import GameResult
from antipolix.errors import AntipolixError
from antipolix.game import Game, SeedLike, TurnReport
from antipolix.pieces import Piece
from antipolix.rules import Rules

AgentFactory = Callable[[Rules, int, np.random.Generator], Agent]


@dataclass
class PlayedGame:
    """A finished game: the game object, the agents' names, and (if kept) every turn report."""

    game: Game
    agents: tuple[str, ...]
    armies: tuple[tuple[Piece, ...], ...]  # each seat's pieces as placed
    reports: list[TurnReport] = field(default_factory=list)

    @property
    def result(self) -> GameResult:
        assert self.game.result is not None
        return self.game.result


def play_game(
    rules: Rules,
    agents: Sequence[AgentFactory],
    seed: SeedLike,
    keep_reports: bool = True,
    on_turn: Callable[[Game, TurnReport], None] | None = None,
    on_start: Callable[[PlayedGame], None] | None = None,
) -> PlayedGame:
    """Play one game to its end (R10). Each agent gets its own generator from the seed (R12)."""
    if len(agents) != rules.players:
        raise AntipolixError(
            f"{rules.players} players need {rules.players} agents, got {len(agents)}"
        )
    game = Game(rules, seed)
    bots = [
        make(rules, seat, np.random.Generator(np.random.PCG64(game.agent_seed(seat))))
        for seat, make in enumerate(agents)
    ]
    for seat, bot in enumerate(bots):
        game.place_army(seat, bot.army())
    game.start()
    armies = tuple(tuple(game.pieces(seat)) for seat in range(rules.players))
    played = PlayedGame(game, tuple(getattr(b, "name", type(b).__name__) for b in bots), armies)
    if on_start is not None:
        on_start(played)
    while game.result is None:
        decisions = {seat: bots[seat].act(game.observe(seat)) for seat in game.living}
        report = game.play_turn(
            {seat: d.order for seat, d in decisions.items()},
            think_times={seat: d.think_time for seat, d in decisions.items()},
            messages={seat: list(d.messages) for seat, d in decisions.items() if d.messages},
        )
        if keep_reports:
            played.reports.append(report)
        if on_turn is not None:
            on_turn(game, report)
    return played
