"""Play whole games between agents: the loop that joins agents and the engine.

>>> from antipolix import Rules, play
>>> from antipolix.agents import GreedyAgent, RandomAgent
>>> result = play(Rules(shape=(4, 8, 8), players=2), [GreedyAgent(), RandomAgent()], seed=7)
>>> result.turns > 0
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from antipolix.agents import agent_named, agents_from_specs
from antipolix.agents.army import ItemLike, checked_army
from antipolix.agents.base import Agent, Decision
from antipolix.end import GameResult
from antipolix.errors import AgentError, AntipolixError, ReplayError
from antipolix.game import Game, SeedLike, TurnReport
from antipolix.orders import Attack, Move, Order, Pass
from antipolix.pieces import ArmyItem
from antipolix.replay import Replay, ReplayWriter
from antipolix.rules import Rules
from antipolix.watch import Hooks, PlayedGame, Watcher

ArmiesLike = Sequence[Sequence[ItemLike] | None] | None


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
    watchers: Sequence[Watcher] = (),
) -> PlayedGame:
    """Play one game to its end (R10) and return it whole.

    Each seat gets a copy of its agent, set up with its own generator spawned from the seed
    (R12). ``armies`` overrides the army policy of chosen seats (one list of items or None per
    seat). ``watchers`` follow the game (:class:`~antipolix.watch.Watcher`: a replay writer,
    :class:`~antipolix.watch.Hooks`). An agent that raises, returns something that is not a
    decision, or gives an order or army the engine refuses stops the game with an
    :class:`AgentError` naming the agent, its seat and the turn.
    """
    agents = check_agents(rules, agents)
    if armies is not None and (isinstance(armies, str) or len(armies) != rules.players):
        raise AgentError(f"armies must be a list with one entry (or None) per seat, got {armies!r}")
    game = Game(rules, seed)
    bots = _seated(game, agents, armies)
    played = PlayedGame(
        game,
        tuple(b.name for b in bots),
        tuple(
            tuple(p for p in game.placement() if p.owner == seat) for seat in range(rules.players)
        ),
    )
    try:
        for watcher in watchers:
            watcher.start(played, agents, armies)
        while game.result is None:
            decisions = _decisions(game, bots)
            report = game.play_turn(
                {seat: d.order for seat, d in decisions.items()},
                think_times={seat: d.think_time for seat, d in decisions.items()},
                messages={seat: list(d.messages) for seat, d in decisions.items() if d.messages},
            )
            if keep_reports:
                played.reports.append(report)
            for watcher in watchers:
                watcher.turn(played, report, decisions)
    except BaseException:
        for watcher in watchers:
            watcher.abort()
        raise
    for watcher in watchers:
        watcher.finish(played)
    return played


def _seated(game: Game, agents: Sequence[Agent], armies: ArmiesLike) -> list[Agent]:
    """A copy of each seat's agent, set up with the seat's generator (R12), its army placed
    (R3); the game started."""
    rules = game.rules
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
    return bots


def _decisions(game: Game, bots: Sequence[Agent]) -> dict[int, Decision]:
    """Every living seat's decision for the next turn, each checked as the engine would."""
    turn = game.turn + 1
    decisions: dict[int, Decision] = {}
    for seat in game.living:
        bot = bots[seat]
        try:
            decision = _decision(bot, seat, turn, bot.act(game.observe(seat)))
            game.check_submission(seat, decision.order, decision.think_time, decision.messages)
        except AgentError:
            raise
        except Exception as exc:
            raise AgentError(f"{_label(bot, seat)} at turn {turn}: {exc}") from exc
        decisions[seat] = decision
    return decisions


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
    watchers = [] if replay is None else [ReplayWriter(replay)]
    return play_game(rules, agents, seed, armies=armies, watchers=watchers).result


# -- verifying a replay: play its agents again ------------------------------------------------


@dataclass(frozen=True)
class VerifyReport:
    """What :func:`verify` checked. ``complete``: the events and every decision; otherwise
    ``unchecked`` says, per seat, why its agent's decisions could not be checked."""

    turns: int
    turns_checked: int
    agents_rerun: bool
    unchecked: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return self.agents_rerun

    def __str__(self) -> str:
        events = f"{self.turns_checked} of {self.turns} turns replay event by event"
        if self.agents_rerun:
            return f"OK: {events}; the agents were played again and made the same decisions"
        why = "; ".join(self.unchecked) or "the agents cannot be rebuilt"
        return (
            f"PARTLY VERIFIED: {events} (the engine agrees with every recorded event), but the "
            f"agents' decisions were NOT checked: {why}, so the recorded orders cannot be "
            "told from ones that agent would not have given"
        )


def verify(replay: Replay) -> VerifyReport:
    """Check a replay as far as it can be: its events were checked when it was loaded; when
    its agents are built-in, play them again from the seed and check every decision. The report
    says plainly what could not be checked (``complete`` is False then)."""
    agents, why = agents_from_specs(replay.agent_specs)
    if agents is None:
        return VerifyReport(replay.last_turn, replay.last_turn, agents_rerun=False, unchecked=why)
    seen: list[dict[int, tuple[Order, float]]] = []

    def on_turn(game: Game, report: TurnReport, decisions: Mapping[int, Decision]) -> None:
        seen.append({s: (d.order, d.think_time) for s, d in decisions.items()})

    try:
        play_game(
            replay.rules,
            agents,
            replay.seed,
            armies=replay.armies,
            watchers=[Hooks(on_turn=on_turn)],
        )
    except AntipolixError as exc:
        raise ReplayError(
            f"replay {replay.path}: the agents cannot be played again: {exc}"
        ) from None
    if len(seen) != len(replay.records):
        raise ReplayError(
            f"replay {replay.path}: the agents played again give a game of {len(seen)} turns, "
            f"the file has {len(replay.records)}"
        )
    for rec, again in zip(replay.records, seen, strict=True):
        recorded = {s: (rec.orders[s], rec.think[s]) for s in rec.orders}
        if recorded != again:
            raise ReplayError(
                f"replay {replay.path}: at turn {rec.turn} the agents played again decide "
                f"{again}, the file records {recorded}"
            )
    return VerifyReport(replay.last_turn, replay.last_turn, agents_rerun=True)
