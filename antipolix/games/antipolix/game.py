"""AntipoliX as the registry holds it: :class:`AntipolixGame`, a thin face over the engine.

Nothing of the engine moves or is copied here: the configuration is :class:`~antipolix.Rules`
and its codec (:mod:`antipolix.codec`), the agents are :data:`antipolix.agents.AGENTS` (with
their army policies and think times, R3, R7), a game played by the platform is
:func:`antipolix.play.play_game` (replays in format 2, :mod:`antipolix.replay`), a batch is the
compiled core's :func:`antipolix.autoplay.play_games`, and a game through the protocol's
integer actions is the PettingZoo env's (:mod:`antipolix.games.antipolix.state`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from antipolix.agents import (
    AGENTS,
    Agent,
    agent_from_spec,
    agent_label,
    agent_named,
)
from antipolix.autoplay import Played, compiled, play_games
from antipolix.autoplay import warm as warm_core
from antipolix.codec import (
    ARMY_COLUMNS,
    apply_overrides,
    army_counts,
    rules_from_dict,
    rules_to_dict,
    with_options,
)
from antipolix.end import EndReason, GameResult
from antipolix.events import Elimination
from antipolix.games.protocol import (
    Column,
    GameError,
    GameType,
    Option,
    Outcome,
    SeedLike,
    places_of,
    seed_sequence,
)
from antipolix.limits import check_size
from antipolix.pieces import ArmyItem
from antipolix.play import VerifyReport, check_agents, play_game, verify
from antipolix.replay import VERSION, Replay, ReplayWriter, load_replay
from antipolix.rules import Rules
from antipolix.usage import USAGE, UsageCounter
from antipolix.watch import Watcher

INFO = GameType(
    name="antipolix",
    title="AntipoliX (1995)",
    version=VERSION,  # the replay format's: a change of the rules' play refuses old replays
    min_players=2,
    max_players=10,
    simultaneous=True,
    chance=True,
    perfect_information=False,
    rules_doc="docs/rules/antipolix.md",
    sections="R1–R12",
    costs=True,
    board="3d",
)

# Where each rule option is written in RULES.md, by its --rule key (its table's for TYPE.x).
_SECTIONS = {
    "shape": "R1",
    "players": "R3",
    "budget": "R3",
    "credits_per_100": "R3",
    "zones": "R3",
    "teleport_field": "R5",
    "teleport_network": "R5",
    "p_destroy": "R8",
    "p_teleport": "R8",
    "p_convert": "R8",
    "defence_counts": "R8",
    "timers": "R7",
    "time_credit": "R7",
    "time_total": "R7",
    "think_times": "R7",
    "max_turns": "R10",
}
_HELP = {
    "shape": "the universe P × N × N",
    "players": "seats, 2 to 10",
    "budget": "army budget (none: from credits_per_100)",
    "credits_per_100": "budget points per 100 cells of a home zone",
    "zones": "armies placed in home zones",
    "teleport_field": "how far a teleporter's network reaches",
    "teleport_network": "whose teleporters a mover may use: own or all",
    "p_destroy": "chance a won attack destroys",
    "p_teleport": "chance a won attack teleports",
    "p_convert": "chance a won attack converts",
    "defence_counts": "whose pieces defend: owner or all",
    "timers": "zero-sum timers",
    "time_credit": "seconds each timer starts with",
    "time_total": "seconds of all timers together",
    "think_times": "agent (reported) or drawn (by the engine)",
    "max_turns": "turn limit (a draw)",
}


def _options() -> tuple[Option, ...]:
    out = []
    for key, value in rules_to_dict(Rules()).items():
        if isinstance(value, dict):  # a piece type's or trait's table: R2
            out += [Option(f"{key}.{k}", v, f"{k} of {key}", "R2", None) for k, v in value.items()]
        else:
            choices = {"teleport_network": ("own", "all"), "defence_counts": ("owner", "all")}
            choices["think_times"] = ("agent", "drawn")
            out.append(Option(key, value, _HELP[key], _SECTIONS[key], choices.get(key)))
    return tuple(out)


def _spec_columns() -> tuple[Column, ...]:
    per_seat = "list<int64>"
    usage = {
        "teleport_moves": "per seat, moves beyond the piece's own field, through teleporters (R5)",
        "fortress_defences": "per seat, attacks met with a fortress of its own in the defence (R8)",
        "crushes": "per seat, moves onto an enemy invisible piece (R6)",
    }
    return (
        Column("army_cost", per_seat, "per seat, the cost of the army placed (R2)"),
        Column("pieces_left", per_seat, "per seat, living pieces at the end"),
        Column("cost_left", per_seat, "per seat, the cost of those pieces"),
        *(Column(n, per_seat, f"per seat, {n[2:].replace('_', '+', 1)} pieces placed") for n in
          ARMY_COLUMNS),
        *(Column(name, per_seat, usage[name]) for name in USAGE),
        Column("elimination_reason", "list<string>", "per seat, why it left the game: `chief` "
               "(taken, R8), `timer` (R7) or `quit` (R9); null for a seat still in it at the end "
               "(and in tables written before the column was)"),
    )  # fmt: skip


# Built-in agents as earlier versions recorded them (studies, tournaments: their class's module
# path), so that old folders read as the same agents (names, not module paths, since then).
OLD_CLASSES = {
    "antipolix.agents.scripted.RandomAgent": "random",
    "antipolix.agents.scripted.GreedyAgent": "greedy",
    "antipolix.agents.planner.PlannerAgent": "planner",
    "antipolix.agents.tuned.TunedAgent": "tuned",
    "antipolix.agents.search.SearchAgent": "search",
}


def places(result: GameResult, players: int) -> tuple[float, ...]:
    """Finishing places (R10, R11) as the ladder reads a results row: the winner first, the
    eliminated last out first; in a draw the players in the game share the top places, and
    for "all eliminated" the last two out (who went in the final instant) do."""
    order = list(result.elimination_order)
    if result.winner is None and result.reason is EndReason.ALL_ELIMINATED:
        return places_of(players, None, order[:-2])
    return places_of(players, result.winner, order)


def figures(
    rules: Rules,
    armies: Sequence[Sequence[ArmyItem]],
    pieces_left: Sequence[int],
    cost_left: Sequence[int],
    usage: Mapping[str, Sequence[int]],
    eliminations: Sequence[Elimination | None],
) -> dict[str, list[Any]]:
    """AntipoliX's own columns of a results row: per seat, the cost of the army placed (R2),
    the living pieces and their cost at the end, the army as counts per item, the usage, and
    why it left the game (None: it did not)."""
    return {
        "army_cost": [rules.army_cost(army) for army in armies],
        "pieces_left": [int(n) for n in pieces_left],
        "cost_left": [int(c) for c in cost_left],
        **army_counts(armies),
        **{name: [int(v) for v in usage[name]] for name in USAGE},
        "elimination_reason": [None if e is None else str(e) for e in eliminations],
    }


class AntipolixGame:
    """The AntipoliX :class:`~antipolix.games.protocol.GameDef` (``antipolix.games.game()``)."""

    info = INFO
    options = _options()
    agents: Mapping[str, type[Agent]] = AGENTS
    columns = _spec_columns()
    # the order of today's results tables (antipolix.runner.rows.GameRow), kept
    layout = (
        "variant", "overrides", "game", "seed", "players", "seats", "agents", "army_cost",
        "winner", "winner_agent", "reason", "turns", "elimination_order", "pieces_left",
        "cost_left", "seconds", *ARMY_COLUMNS, *USAGE, "elimination_reason",
    )  # fmt: skip
    default_agents = ("greedy", "greedy", "greedy", "greedy")

    # -- configuration ---------------------------------------------------------------------------

    def config(self, **options: Any) -> Rules:
        return with_options(Rules(), list(options.items()))

    def config_from_text(self, overrides: Mapping[str, str], base: Any = None) -> Rules:
        rules = Rules() if base is None else base
        return apply_overrides(rules, [f"{k}={v}" for k, v in overrides.items()])

    def with_options(self, base: Rules, options: Sequence[tuple[str, Any]]) -> Rules:
        return with_options(base, options)

    def config_to_dict(self, config: Rules) -> dict[str, Any]:
        return rules_to_dict(config)

    def config_from_dict(self, data: Mapping[str, Any]) -> Rules:
        return rules_from_dict(data)

    # The protocol's actions and observations are the PettingZoo env's (antipolix.env, the
    # ``env`` extra), imported when first needed: simulate, replays and tournaments play
    # without it.

    def num_actions(self, config: Rules) -> int:
        from antipolix.env import piece_bound

        p, n, m = config.shape
        cells = p * n * m
        return 1 + piece_bound(config) * cells + cells

    def observation_shape(self, config: Rules) -> tuple[int, ...]:
        """The env's observation arrays (:data:`~antipolix.games.antipolix.state.PARTS`)
        end to end: board, own and enemy pieces, events, players, scalars."""
        from antipolix.env import (
            BOARD_CHANNELS,
            ENEMY_COLUMNS,
            EVENT_COLUMNS,
            OWN_COLUMNS,
            SCALARS,
            piece_bound,
        )

        p, n, m = config.shape
        slots, players = piece_bound(config), config.players
        sizes = (
            len(BOARD_CHANNELS) * p * n * m,
            slots * len(OWN_COLUMNS),
            slots * len(ENEMY_COLUMNS),
            players * len(EVENT_COLUMNS),
            players,
            len(SCALARS),
        )
        return (sum(sizes),)

    # -- one game through the protocol ----------------------------------------------------------

    def new(self, config: Rules, seed: SeedLike = None) -> Any:
        """A game in play (R3's placement done: see the package's documentation), as
        :class:`~antipolix.games.antipolix.state.AntipolixState`."""
        from antipolix.games.antipolix.state import AntipolixState

        return AntipolixState(config, seed_sequence(seed))

    def action_to_text(self, state: Any, action: int) -> str:
        text: str = state.env.describe("player_0", action)
        return text

    def parallel_env(self, config: Rules | None = None, **options: Any) -> Any:
        """The PettingZoo ``ParallelEnv`` (:func:`antipolix.env.parallel_env`)."""
        from antipolix.env import parallel_env

        return parallel_env(config, **options)

    def action_to_json(self, config: Any, action: int) -> int:
        return int(action)

    def action_from_json(self, config: Any, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int) or data < 0:
            raise GameError(f"an antipolix action is an integer >= 0, got {data!r}")
        return data

    # -- agents ----------------------------------------------------------------------------------

    def make_agent(self, text: str) -> Agent:
        return agent_named(text)

    def agent_label(self, agent: Agent) -> str:
        return agent_label(agent)

    def agent_record(self, agent: Agent) -> dict[str, Any]:
        """``{"game": "antipolix", "agent": NAME, "name", "params", "army", ...}`` for a
        built-in agent (its spec: parameters, army policy, tuned weights' fingerprint);
        ``class`` (its module path) in place of ``agent`` for another."""
        cls = AGENTS.get(agent.name)
        where = (
            {"agent": agent.name}
            if cls is not None and type(agent) is cls
            else {"class": f"{type(agent).__module__}.{type(agent).__qualname__}"}
        )
        record: dict[str, Any] = json.loads(
            json.dumps({"game": INFO.name, **where, **agent.spec()}, default=str)
        )
        return record

    def normal_record(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """A record as :meth:`agent_record` writes it: one of an earlier version (``class``, a
        built-in agent's module path, no ``game``) reads as today's."""
        out = {"game": INFO.name, **record}
        old = out.get("class")
        if isinstance(old, str) and old in OLD_CLASSES and out.get("name") == OLD_CLASSES[old]:
            del out["class"]
            out = {"game": out.pop("game"), "agent": OLD_CLASSES[old], **out}
        return out

    def agent_from_record(self, record: Mapping[str, Any]) -> Agent:
        record = self.normal_record(record)
        if record.get("agent") not in AGENTS:
            raise GameError(f"no built-in agent of antipolix for {record!r}")
        return agent_from_spec(record)

    def check_agents(self, config: Rules, agents: Sequence[Agent | str]) -> list[Agent]:
        check_size(config)
        return check_agents(config, agents)

    def table_config(self, config: Rules, players: int) -> Rules:
        """A tournament's tables: ``players`` seats, think times drawn by the engine (R7), so
        that no agent gains on the clock."""
        table = with_options(config, [("players", players), ("think_times", "drawn")])
        check_size(table)
        return table

    # -- whole games -----------------------------------------------------------------------------

    def play(
        self,
        config: Rules,
        agents: Sequence[Agent],
        seed: np.random.SeedSequence,
        replay: Path | None = None,
    ) -> Outcome:
        """One game through :class:`~antipolix.Game` (:func:`~antipolix.play.play_game`), its
        replay written to ``replay`` when given (format 2)."""
        counter = UsageCounter()
        watchers: list[Watcher] = [counter]
        if replay is not None:
            watchers.append(ReplayWriter(replay))
        began = time.perf_counter()
        played = play_game(config, agents, seed, watchers=watchers)
        seconds = time.perf_counter() - began
        left = [played.game.pieces(seat) for seat in range(config.players)]
        armies = [[(p.type, p.trait) for p in army] for army in played.armies]
        extras = figures(
            config,
            armies,
            [len(pieces) for pieces in left],
            [config.army_cost((p.type, p.trait) for p in pieces) for pieces in left],
            counter.counts,
            [played.game.eliminations.get(seat) for seat in range(config.players)],
        )
        return _outcome(config, played.result, extras, seconds)

    def play_batch(
        self, config: Rules, agents: Sequence[Agent], seeds: Sequence[np.random.SeedSequence]
    ) -> list[Outcome] | None:
        """The compiled core's games (:func:`antipolix.autoplay.play_games`), when every seat is
        a built-in agent; a game whose armies the engine refuses is played through
        :meth:`play`, which names the problem."""
        if not compiled(agents):
            return None
        played = play_games(config, [(agents, seed) for seed in seeds])
        return [
            self.play(config, agents, seed) if p is None else _played(config, p)
            for p, seed in zip(played, seeds, strict=True)
        ]

    def warm(self, config: Rules, agents: Sequence[Agent]) -> None:
        warm_core(config, agents)

    # -- replays ---------------------------------------------------------------------------------

    def load_replay(self, path: Path) -> Replay:
        return load_replay(path)

    def verify_replay(self, replay: Replay) -> VerifyReport:
        return verify(replay)


def _played(rules: Rules, p: Played) -> Outcome:
    usage = dict(zip(USAGE, p.usage, strict=True))
    extras = figures(rules, p.armies, p.pieces_left, p.cost_left, usage, p.eliminations)
    return _outcome(rules, p.result, extras, p.seconds)


def _outcome(rules: Rules, result: GameResult, extras: dict[str, Any], seconds: float) -> Outcome:
    return Outcome(
        winner=result.winner,
        reason=result.reason.name.lower(),
        turns=result.turns,
        places=places(result, rules.players),
        elimination_order=tuple(result.elimination_order),
        extras=extras,
        seconds=seconds,
    )


__all__ = ["INFO", "OLD_CLASSES", "AntipolixGame", "figures", "places"]
