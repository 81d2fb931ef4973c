"""Whole games on the oracle engine: the same loop as :func:`antipolix.play.play_game`."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from antipolix.agents.army import checked_army
from antipolix.agents.base import Agent, Decision
from antipolix.orders import Attack, Move, Pass
from antipolix.pieces import ArmyItem
from antipolix.rules import Rules
from tests.oracle.game import Game, TurnReport


@dataclass
class OraclePlayed:
    game: Game
    reports: list[TurnReport] = field(default_factory=list)
    decisions: list[dict[int, Decision]] = field(default_factory=list)
    armies: list[list[ArmyItem]] = field(default_factory=list)  # per seat, as placed (R3)


def play_game(
    rules: Rules, agents: Sequence[Agent], seed: object, armies: Sequence | None = None
) -> OraclePlayed:
    game = Game(rules, seed)
    bots = [copy.deepcopy(a) for a in agents]
    chosen = []
    for seat, bot in enumerate(bots):
        bot.setup(rules, seat, np.random.Generator(np.random.PCG64(game.agent_seed(seat))))
        given = armies[seat] if armies is not None else None
        chosen.append(checked_army(rules, seat, bot.army() if given is None else given))
    for seat, army in enumerate(chosen):
        game.place_army(seat, army)
    game.start()
    played = OraclePlayed(game, armies=chosen)
    while game.result is None:
        decisions = {}
        for seat in game.living:
            value = bots[seat].act(game.observe(seat))
            decisions[seat] = Decision(value) if isinstance(value, Move | Attack | Pass) else value
        report = game.play_turn(
            {s: d.order for s, d in decisions.items()},
            think_times={s: d.think_time for s, d in decisions.items()},
            messages={s: list(d.messages) for s, d in decisions.items() if d.messages},
        )
        played.reports.append(report)
        played.decisions.append(decisions)
    return played
