"""How the platform serves any game of the registry: agents by name and their records, rule
options as text, the columns of a results table, one game or a batch of games, perft, a board
in text.

Every function takes the game (:class:`~antipolix.games.protocol.GameDef`) first. A game made
of :class:`~antipolix.games.protocol.GameAgent` subclasses needs nothing but the protocol: each
function here serves it from its required members. A game that gives a member of the same
name (AntipoliX, whose agents have army policies and think times and whose batches are its own
compiled core) is served by it instead: the platform never names a game.

>>> from antipolix import games
>>> game = games.game("antipolix")
>>> agent_label(game, make_agent(game, "search:rollouts=8"))
'search:rollouts=8'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from antipolix.codec import parse_override, value_text
from antipolix.errors import shown
from antipolix.games.protocol import (
    COMMON_COLUMNS,
    Column,
    GameAgent,
    GameDef,
    GameError,
    Outcome,
    SeedLike,
    State,
    play_one,
    seed_sequence,
)

# -- agents ----------------------------------------------------------------------------------


def make_agent(game: GameDef, text: str) -> Any:
    """A built-in agent of ``game`` by name, with parameters after colons:
    ``"alphabeta:depth=4"`` (each must be a parameter of that agent, of its default's type)."""
    hook = getattr(game, "make_agent", None)
    if hook is not None:
        return hook(text)
    if not isinstance(text, str):
        raise GameError(f"an agent name must be a string, got {text!r}")
    key, *given = (part.strip() for part in text.strip().split(":"))
    key = key.lower()
    if key not in game.agents:
        raise GameError(
            f"unknown agent {shown(key)} for {game.info.name} (its agents: "
            f"{', '.join(sorted(game.agents))})"
        )
    cls = game.agents[key]
    known = cls().params()
    params: dict[str, Any] = {}
    for part in given:
        name, eq, value = part.partition("=")
        name = name.strip()
        if not eq or not name:
            raise GameError(
                f"agent {shown(text)}: expected name=value after ':', got {shown(part)}"
            )
        if name not in known:
            choices = ", ".join(sorted(known)) or "none"
            raise GameError(
                f"agent {key!r} has no parameter {shown(name)} (its parameters: {choices})"
            )
        params[name] = _typed(text, name, value.strip(), known[name])
    try:
        return cls(**params)
    except (TypeError, ValueError) as exc:
        raise GameError(f"agent {shown(text)}: {exc}") from None


def _typed(text: str, name: str, value: str, default: Any) -> Any:
    """``value`` as the type of the parameter's default (bool, int, float or text)."""
    if isinstance(default, bool):
        if value.lower() not in ("true", "false"):
            raise GameError(
                f"agent {shown(text)}: {name} must be true or false, got {shown(value)}"
            )
        return value.lower() == "true"
    try:
        if isinstance(default, int):
            return int(value)
        if isinstance(default, float):
            number = float(value)
            if number != number or number in (float("inf"), float("-inf")):
                raise ValueError
            return number
    except ValueError:
        kind = "an integer" if isinstance(default, int) else "a finite number"
        raise GameError(f"agent {shown(text)}: {name} must be {kind}, got {shown(value)}") from None
    return value


def agent_label(game: GameDef, agent: Any) -> str:
    """The name that tells this agent apart from others of its kind: its name and the
    parameters that differ from the defaults (``alphabeta:depth=4``), which :func:`make_agent`
    reads back; an agent that is not built-in goes by its name."""
    hook = getattr(game, "agent_label", None)
    if hook is not None:
        return str(hook(agent))
    cls = game.agents.get(agent.name)
    if cls is None or type(agent) is not cls:
        return str(agent.name)
    defaults = cls().params()
    parts = [agent.name]
    for key, value in agent.params().items():
        if defaults.get(key) != value:
            text = f"{value:g}" if isinstance(value, float) else value_text(value)
            parts.append(f"{key}={text}")
    return ":".join(parts)


def agent_record(game: GameDef, agent: Any) -> dict[str, Any]:
    """What studies, tournaments and replays store of an agent (JSON-ready): the game's name,
    the agent's registry name (``agent``: a built-in agent, rebuilt by
    :func:`agent_from_record`) or, for an agent that is not built-in, its class's module path
    (``class``: it has no other name), then its name and parameters."""
    hook = getattr(game, "agent_record", None)
    if hook is not None:
        record: dict[str, Any] = hook(agent)
        return record
    built_in = game.agents.get(agent.name) is type(agent)
    where = (
        {"agent": agent.name}
        if built_in
        else {"class": f"{type(agent).__module__}.{type(agent).__qualname__}"}
    )
    return {"game": game.info.name, **where, "name": agent.name, "params": agent.params()}


def normal_record(game: GameDef, record: Mapping[str, Any]) -> dict[str, Any]:
    """A stored agent record as :func:`agent_record` writes it today (a record stored by an
    earlier version, which named built-in agents by their module path, reads as the same
    agent), so that old study folders and tournaments compare equal to today's."""
    hook = getattr(game, "normal_record", None)
    if hook is not None:
        out: dict[str, Any] = hook(record)
        return out
    return {"game": game.info.name, **record}


def agent_from_record(game: GameDef, record: Mapping[str, Any]) -> Any:
    """The built-in agent a record names, with its parameters; a :class:`GameError` when the
    record names no built-in agent of this version (or parameters it cannot take)."""
    hook = getattr(game, "agent_from_record", None)
    if hook is not None:
        return hook(record)
    if not isinstance(record, Mapping):
        raise GameError(f"an agent record is a JSON object, got {record!r}")
    name = record.get("agent")
    cls = game.agents.get(str(name)) if isinstance(name, str) else None
    if cls is None:
        raise GameError(f"no built-in agent of {game.info.name} for {dict(record)!r}")
    params = record.get("params", {})
    try:
        return cls(**dict(params))
    except (TypeError, ValueError) as exc:
        raise GameError(f"cannot rebuild agent {name!r} from {dict(record)!r}: {exc}") from None


def check_agents(game: GameDef, config: Any, agents: Sequence[Any]) -> list[Any]:
    """One agent per seat of ``config``: agent objects of the game, or names of built-in ones
    (:func:`make_agent`)."""
    hook = getattr(game, "check_agents", None)
    if hook is not None:
        checked: list[Any] = hook(config, agents)
        return checked
    if isinstance(agents, str | GameAgent) or not isinstance(agents, Sequence):
        raise GameError(f"agents must be a list with one agent per seat, got {agents!r}")
    players = int(config.players)
    if len(agents) != players:
        raise GameError(f"{players} players need {players} agents, got {len(agents)}")
    out = []
    for seat, agent in enumerate(agents):
        if isinstance(agent, str):
            agent = make_agent(game, agent)
        if not isinstance(agent, GameAgent):
            raise GameError(
                f"seat {seat}: an agent of {game.info.name} is a GameAgent, got {agent!r}"
            )
        out.append(agent)
    return out


def default_agents(game: GameDef) -> tuple[str, ...]:
    """Who plays when a command names no agents: the game's choice, else its first agent in
    every seat of its smallest table."""
    given = getattr(game, "default_agents", None)
    if given is not None:
        return tuple(given)
    return (next(iter(game.agents)),) * game.info.min_players


# -- rule options ----------------------------------------------------------------------------


def flat(data: Mapping[str, Any]) -> dict[str, Any]:
    """A configuration's dict with nested tables as dotted keys (``hovercraft.cost``)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, Mapping):
            out.update({f"{key}.{k}": v for k, v in value.items()})
        else:
            out[key] = value
    return out


def overrides(game: GameDef, config: Any, base: Any = None) -> list[str]:
    """The options of ``config`` that differ from ``base`` (the defaults), as the ``KEY=VALUE``
    texts ``--rule`` reads back."""
    want = flat(game.config_to_dict(config))
    have = flat(game.config_to_dict(game.config() if base is None else base))
    diff = [f"{k}={value_text(v)}" for k, v in want.items() if k not in have or have[k] != v]
    return diff + [f"{k}=none" for k in have if k not in want]


def with_rules(game: GameDef, base: Any, texts: Sequence[str]) -> Any:
    """``base`` with each ``KEY=VALUE`` text applied (``--rule``), validated by the game."""
    pairs: dict[str, str] = {}
    for text in texts:
        key, _ = parse_override(text)
        pairs[key] = text.partition("=")[2].strip()
    return game.config_from_text(pairs, base) if pairs else base


def with_options(game: GameDef, base: Any, options: Sequence[tuple[str, Any]]) -> Any:
    """``base`` with options changed by key (``[("size", 7)]``; a later value wins), as Python
    values (the game's own ``with_options``, else through their ``--rule`` text)."""
    hook = getattr(game, "with_options", None)
    if hook is not None:
        return hook(base, options)
    return with_rules(game, base, [f"{key}={value_text(value)}" for key, value in options])


def table_config(game: GameDef, config: Any, players: int) -> Any:
    """The configuration of a tournament's tables: ``config`` for ``players`` seats (and
    whatever else the game needs to rate agents fairly: AntipoliX draws think times, R7)."""
    hook = getattr(game, "table_config", None)
    if hook is not None:
        return hook(config, players)
    return with_options(game, config, [("players", players)])


# -- results tables --------------------------------------------------------------------------


def columns(game: GameDef) -> tuple[Column, ...]:
    """Every column of the game's results table, in order: the common ones
    (:data:`~antipolix.games.protocol.COMMON_COLUMNS`, ``seconds`` last) with the game's own
    before ``seconds``, or in the game's own ``layout``."""
    own = tuple(getattr(game, "columns", ()))
    by_name = {c.name: c for c in (*COMMON_COLUMNS, *own)}
    if len(by_name) != len(COMMON_COLUMNS) + len(own):
        raise GameError(f"{game.info.name}: its columns repeat a name of the common columns")
    layout = getattr(game, "layout", None)
    if layout is None:
        return (*COMMON_COLUMNS[:-1], *own, COMMON_COLUMNS[-1])
    if sorted(layout) != sorted(by_name):
        raise GameError(f"{game.info.name}: its layout does not name every column once")
    return tuple(by_name[name] for name in layout)


# -- playing ---------------------------------------------------------------------------------


def play(game: GameDef, config: Any, agents: Sequence[Any], seed: SeedLike) -> Outcome:
    """One whole game (seat ``s`` played by ``agents[s]``) from ``seed`` (R12)."""
    hook = getattr(game, "play", None)
    if hook is not None:
        outcome: Outcome = hook(config, agents, seed_sequence(seed), replay=None)
        return outcome
    return play_one(game, config, agents, seed)[1]


def play_batch(
    game: GameDef, config: Any, agents: Sequence[Any], seeds: Sequence[np.random.SeedSequence]
) -> list[Outcome] | None:
    """Whole games, one per seed, through the game's compiled batch path in one call; None when
    the game has none or these agents have no compiled form (play them one by one)."""
    hook = getattr(game, "play_batch", None)
    if hook is None:
        return None
    outcomes: list[Outcome] | None = hook(config, agents, seeds)
    return outcomes


def warm(game: GameDef, config: Any, agents: Sequence[Any]) -> None:
    """Compile (or load from the disk cache) what a game of these agents runs, by playing one
    in this process: a driver does so before Ray's workers start, so that they load the cached
    machine code instead of each compiling it."""
    hook = getattr(game, "warm", None)
    if hook is not None:
        hook(config, agents)
    elif play_batch(game, config, agents, [np.random.SeedSequence(0)]) is None:
        play(game, config, agents, 0)


# -- perft and text --------------------------------------------------------------------------


def perft(game: GameDef, config: Any, depth: int) -> int:
    """The number of action sequences of ``depth`` from the start (S11's perft: a finished
    game counts 0 beyond depth 0): the game's own count when it gives one, else counted through
    :class:`~antipolix.games.protocol.State` for a deterministic sequential game; a game whose
    moves are simultaneous or drawn by chance has no perft (:class:`GameError`)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise GameError(f"a perft depth is an integer >= 0, got {depth!r}")
    hook = getattr(game, "perft", None)
    if hook is not None:
        return int(hook(config, depth))
    info = game.info
    if info.simultaneous or info.chance:
        why = "its moves are simultaneous" if info.simultaneous else "chance decides its moves"
        if info.simultaneous and info.chance:
            why += " and chance resolves them"
        raise GameError(
            f"{info.name} has no perft: {why}, so a count of action sequences says nothing "
            "of its rules"
        )
    return _perft(game.new(config, 0), depth)


def _perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    if state.over:
        return 0
    (seat,) = state.to_act()
    total = 0
    for action in state.legal_actions(seat):
        child = state.clone()
        child.apply({seat: action})
        total += _perft(child, depth - 1)
    return total


def board_text(game: GameDef, state: State) -> str:
    """The position as lines of text: the game's own drawing, else its 2D scene's points and
    pieces (seat 0 ``X``, seat 1 ``O``, then ``A``, ``B``, ...; a piece's label beside it)."""
    hook = getattr(game, "board_text", None)
    if hook is not None:
        return str(hook(state))
    scene = getattr(game, "scene", None)
    if scene is None:
        raise GameError(f"{game.info.name} draws no board in text")
    drawn = scene(state)
    cells = [["  ." for _ in range(drawn.width)] for _ in range(drawn.height)]
    for mark in drawn.marks:
        x, y = round(mark.at[0]), round(mark.at[1])
        if mark.kind == "piece" and 0 <= y < drawn.height and 0 <= x < drawn.width:
            symbol = "XOABCDEFGH"[mark.seat] if mark.seat is not None else "#"
            cells[y][x] = f"{symbol}{mark.label[:1]}".rjust(3)
    lines = ["".join(row) for row in cells]
    return "\n".join(lines + ([drawn.caption] if drawn.caption else []))
