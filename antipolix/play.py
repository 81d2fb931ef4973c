"""Play whole games between agents: the loop that joins agents and the engine.

>>> from antipolix import Rules, play
>>> from antipolix.agents import GreedyAgent, RandomAgent
>>> result = play(Rules(shape=(4, 8, 8), players=2), [GreedyAgent(), RandomAgent()], seed=7)
>>> result.turns > 0
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from antipolix.agents import agent_named
from antipolix.agents.army import ItemLike, checked_army
from antipolix.agents.base import Agent, Decision
from antipolix.end import GameResult
from antipolix.errors import AgentError, AntipolixError
from antipolix.game import Game, SeedLike, TurnReport
from antipolix.orders import Attack, Move, Pass
from antipolix.pieces import ArmyItem, Piece
from antipolix.rules import Rules

if TYPE_CHECKING:
    from antipolix.replay import ReplayWriter

OnTurn = Callable[[Game, TurnReport, Mapping[int, Decision]], None]
ArmiesLike = Sequence[Sequence[ItemLike] | None] | None


@dataclass
class PlayedGame:
    """A finished game: the game object, the agents' names, the armies as placed, and (if kept)
    every turn report."""

    game: Game
    agents: tuple[str, ...]
    armies: tuple[tuple[Piece, ...], ...]  # each seat's pieces as placed
    reports: list[TurnReport] = field(default_factory=list)

    @property
    def result(self) -> GameResult:
        assert self.game.result is not None
        return self.game.result


def check_agents(rules: Rules, agents: Sequence[Agent | str]) -> list[Agent]:
    """One agent per seat: agent objects, or names of built-in agents."""
    if isinstance(agents, (str, Agent)) or not isinstance(agents, Sequence):
        raise AgentError(f"agents must be a list with one agent per seat, got {agents!r}")
    if len(agents) != rules.players:
        raise AgentError(f"{rules.players} players need {rules.players} agents, got {len(agents)}")
    out = []
    for seat, agent in enumerate(agents):
        if isinstance(agent, str):
            agent = agent_named(agent)
        if isinstance(agent, type) and issubclass(agent, Agent):
            raise AgentError(
                f"seat {seat}: got the class {agent.__name__}; pass an agent object, "
                f"{agent.__name__}()"
            )
        if not isinstance(agent, Agent):
            raise AgentError(
                f"seat {seat}: an agent must be an antipolix.agents.Agent, got {agent!r}"
            )
        out.append(agent)
    return out


def _label(bot: Agent, seat: int) -> str:
    return f"agent {bot.name!r} (seat {seat})"


def _decision(bot: Agent, seat: int, turn: int, value: object) -> Decision:
    if isinstance(value, Move | Attack | Pass):
        return Decision(value)
    if not isinstance(value, Decision):
        raise AgentError(
            f"{_label(bot, seat)} at turn {turn}: act() must return a Decision or an order "
            f"(Move, Attack, Pass), got {value!r}"
        )
    return value


def play_game(
    rules: Rules,
    agents: Sequence[Agent | str],
    seed: SeedLike,
    *,
    armies: ArmiesLike = None,
    keep_reports: bool = False,
    on_start: Callable[[PlayedGame], None] | None = None,
    on_turn: OnTurn | None = None,
    writer: ReplayWriter | None = None,
) -> PlayedGame:
    """Play one game to its end (R10) and return it whole.

    Each seat gets a copy of its agent, set up with its own generator spawned from the seed
    (R12). ``armies`` overrides the army policy of chosen seats (one list of items or None per
    seat). An agent that raises, returns something that is not a decision, or gives an order or
    army the engine refuses stops the game with an :class:`AgentError` naming the agent, its
    seat and the turn.
    """
    agents = check_agents(rules, agents)
    if armies is not None and (isinstance(armies, str) or len(armies) != rules.players):
        raise AgentError(f"armies must be a list with one entry (or None) per seat, got {armies!r}")
    game = Game(rules, seed)
    bots = [copy.deepcopy(a) for a in agents]
    chosen: list[list[ArmyItem]] = []
    for seat, bot in enumerate(bots):
        try:
            bot.setup(rules, seat, np.random.Generator(np.random.PCG64(game.agent_seed(seat))))
            given = armies[seat] if armies is not None else None
            army = bot.army() if given is None else given
            chosen.append(checked_army(rules, seat, army))
        except Exception as exc:
            raise AgentError(f"{_label(bot, seat)} when choosing its army: {exc}") from exc
    for seat, army in enumerate(chosen):
        try:
            game.place_army(seat, army)
        except AntipolixError as exc:
            raise AgentError(f"{_label(bots[seat], seat)} when placing its army: {exc}") from exc
    game.start()
    played = PlayedGame(
        game,
        tuple(b.name for b in bots),
        tuple(
            tuple(p for p in game.placement() if p.owner == seat) for seat in range(rules.players)
        ),
    )
    if writer is not None:
        writer.start(game, agents, armies)
    if on_start is not None:
        on_start(played)
    try:
        while game.result is None:
            turn = game.turn + 1
            decisions: dict[int, Decision] = {}
            for seat in game.living:
                bot = bots[seat]
                try:
                    decision = _decision(bot, seat, turn, bot.act(game.observe(seat)))
                    game.check_submission(
                        seat, decision.order, decision.think_time, decision.messages
                    )
                except AgentError:
                    raise
                except Exception as exc:
                    raise AgentError(f"{_label(bot, seat)} at turn {turn}: {exc}") from exc
                decisions[seat] = decision
            report = game.play_turn(
                {seat: d.order for seat, d in decisions.items()},
                think_times={seat: d.think_time for seat, d in decisions.items()},
                messages={seat: list(d.messages) for seat, d in decisions.items() if d.messages},
            )
            if writer is not None:
                writer.turn(report, decisions)
            if keep_reports:
                played.reports.append(report)
            if on_turn is not None:
                on_turn(game, report, decisions)
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    if writer is not None:
        writer.finish(played.result)
    return played


def play(
    rules: Rules,
    agents: Sequence[Agent | str],
    seed: SeedLike,
    armies: ArmiesLike = None,
    replay: str | Path | None = None,
) -> GameResult:
    """Play one full game and return its result; with ``replay``, also write its replay file.

    ``agents`` holds one agent object (or built-in agent name) per seat; ``armies`` optionally
    gives a seat's pieces, e.g. ``[None, ["army+chief", "army", "hovercraft"]]``.
    """
    writer = None
    if replay is not None:
        from antipolix.replay import ReplayWriter

        writer = ReplayWriter(replay)
    try:
        return play_game(rules, agents, seed, armies=armies, writer=writer).result
    except AntipolixError:
        if writer is not None:
            writer.abort()
        raise
