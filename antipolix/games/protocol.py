"""The game protocol: what every game the platform hosts declares and does.

The platform (``simulate``, replays, ``tournament``, the PettingZoo env, ``play``, ``demo``, the
viewer) reaches a game only through this module's types, in the spirit of OpenSpiel's
``Game``/``State`` and pgx's ``init / step / observe``:

- :class:`GameType`: what a game *is* (name, version, players, simultaneous or sequential
  moves, chance, perfect or imperfect information, where its rules are written);
- a **configuration**: a frozen, validated dataclass of rule options, built from options by name
  (``--rule KEY=VALUE`` everywhere) and written to and read from JSON;
- :class:`State`: the Python face of one game: who acts now, the legal actions and their mask,
  apply, what a seat may know, the result with finishing places, a digest of the game so far;
- :class:`GameAgent`: a player of the game, a picklable description with parameters (R12: its
  generator comes from the game's seed);
- :class:`GameDef`: the game as the registry holds it (:mod:`antipolix.games`), with the codec
  of its actions and observations, its agents by name, and an optional compiled batch path
  (``GameDef.play_batch``) that plays a chunk of whole games in one call.

Actions are integers in ``[0, num_actions(config))``: a game's own action objects (AntipoliX's
orders) are its codec's business. A sequential game has one seat to act at a time
(``to_act()`` holds one seat); a simultaneous game has every seat that acts this turn, and
:meth:`State.apply` takes one action for each.

Finishing places follow R10/R11's reading for every game: 0 is first, ``players - 1`` last,
tied seats share the mean of their places; ratings (:mod:`antipolix.ladder`) need nothing else.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from antipolix.errors import AntipolixError

BoolArray = npt.NDArray[np.bool_]
SeedLike = int | np.random.SeedSequence | None

# The SeedSequence branch a game's agents spawn from (R12: the engine, then each seat).
AGENT_BRANCH = 1


class GameError(AntipolixError):
    """An unknown game, an option a game does not have, or a call that does not fit the game
    (an action that is not legal now, a seat that does not act now)."""


class IllegalActionError(GameError):
    """An action that is not legal in the current position (nothing changes)."""


@dataclass(frozen=True)
class GameType:
    """What a game declares about itself; the platform reads nothing else to serve it."""

    name: str  # the registry name: ``--game NAME``, replay headers, study folders
    title: str  # e.g. "Sight (Kanare Kato)"
    version: int  # the rules' version: replays and studies record it; a change refuses old files
    min_players: int
    max_players: int
    simultaneous: bool  # every seat of to_act() moves at once (AntipoliX), else one at a time
    chance: bool  # the engine draws random outcomes (AntipoliX's R8), not only the agents
    perfect_information: bool  # every seat may know the whole state
    rules_doc: str  # the rules page in the repository, e.g. "docs/rules/sight.md"
    sections: str  # its sections, e.g. "S1–S11"
    costs: bool = False  # piece costs a balance study can price (``antipolix balance``)
    board: str = "2d"  # what the viewer draws: "2d" (a board of points) or "3d" (voxels)

    @property
    def flat(self) -> bool:
        """Is the game drawn on a 2D board (its ``scene``: :class:`Scene2D`)?"""
        return self.board == "2d"


@dataclass(frozen=True)
class Option:
    """One rule option of a game's configuration, as ``--rule KEY=VALUE`` and ``antipolix
    rules`` show it."""

    name: str
    default: Any
    help: str
    section: str  # where the rules page defines it, e.g. "S4"
    choices: tuple[Any, ...] | None = None


@dataclass(frozen=True)
class Outcome:
    """How one game ended. ``places``: per seat, its finishing place (0 first, tied seats share
    the mean of their places); ``elimination_order``: seats out of the game, first out first
    (for a two-player game the loser); ``reason`` a word of the game's rules (``board_full``).
    ``extras`` are the game's own per-game figures (JSON-ready; the results table's game
    columns, :attr:`GameDef.columns`); ``seconds`` the game's wall time when the path that
    played it timed each game (a compiled batch), else None and the runner times it."""

    winner: int | None
    reason: str
    turns: int
    places: tuple[float, ...]
    elimination_order: tuple[int, ...] = ()
    extras: Mapping[str, Any] = field(default_factory=dict)
    seconds: float | None = None  # wall time, when a batch path timed each game itself

    @property
    def draw(self) -> bool:
        return self.winner is None


def places_of(
    players: int, winner: int | None, elimination_order: Sequence[int]
) -> tuple[float, ...]:
    """Finishing places from a winner and an elimination order (first out first): the winner
    first, the eliminated in reverse order of elimination, the others (a draw's survivors)
    sharing the top places.

    >>> places_of(2, 1, [0])
    (1.0, 0.0)
    >>> places_of(3, None, [2])
    (0.5, 0.5, 2.0)
    """
    out = [0.0] * players
    order = list(elimination_order)
    top = [winner] if winner is not None else [p for p in range(players) if p not in order]
    for seat in top:
        out[seat] = (len(top) - 1) / 2
    for k, seat in enumerate(order, start=1):
        if seat not in top:
            out[seat] = float(players - k)
    return tuple(out)


@dataclass(frozen=True)
class Column:
    """One column of a study's results table (one row per game): its name, its Arrow type
    (``"int64"``, ``"string"``, ``"list<int64>"``, ...) and what it holds."""

    name: str
    arrow: str
    doc: str


# The columns every game's results table has, whatever the game (the runner fills them from
# the study and the :class:`Outcome`); a game adds its own (:attr:`GameDef.columns`).
COMMON_COLUMNS: tuple[Column, ...] = (
    Column("variant", "string", "the rules variant's name (`base` for a single variant)"),
    Column("overrides", "string", "the variant's options that differ from the defaults"),
    Column("game", "int64", "the game's index within its variant, 0 … games − 1"),
    Column("seed", "int64", "the study's root seed (the game's: `game_seed(seed, game)`)"),
    Column("players", "int64", "the number of seats"),
    Column("seats", "list<int64>", "per seat, the index of its agent in the study"),
    Column("agents", "list<string>", "per seat, the agent's label"),
    Column("winner", "int64", "the winning seat, null for a draw"),
    Column("winner_agent", "string", "the winner's label, null for a draw"),
    Column("reason", "string", "how the game ended, a word of its rules"),
    Column("turns", "int64", "turns played"),
    Column("elimination_order", "list<int64>", "seats out of the game, first out first"),
    Column("seconds", "float64", "wall time of the game (the only varying column)"),
)


@runtime_checkable
class Config(Protocol):
    """A game's rule options: a frozen dataclass, validated when made (a bad value raises a
    :class:`GameError` naming the option). ``players`` is always one of them."""

    @property
    def players(self) -> int: ...


class State(Protocol):
    """One game in progress: its Python face. Made by :meth:`GameDef.new`; every method that
    changes it validates first and changes nothing on bad input."""

    config: Any

    @property
    def turn(self) -> int:
        """Actions applied so far (sequential) or turns played (simultaneous)."""
        ...

    def to_act(self) -> tuple[int, ...]:
        """The seats that act now, ascending; empty once the game is over."""
        ...

    def legal_actions(self, seat: int) -> list[int]:
        """The seat's legal actions now, ascending (the rules' own order where they give one,
        as S11 does); empty for a seat that does not act now."""
        ...

    def action_mask(self, seat: int) -> BoolArray:
        """``num_actions`` booleans, true exactly at :meth:`legal_actions`."""
        ...

    def apply(self, actions: Mapping[int, int]) -> None:
        """Play one action for every seat of :meth:`to_act` (one entry for a sequential game).
        A missing seat, an extra one or an illegal action raises :class:`IllegalActionError`
        and changes nothing."""
        ...

    def observe(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know now, JSON-ready (lists, numbers, strings): nothing that the
        rules hide from it (for a perfect-information game, everything)."""
        ...

    def observation_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """:meth:`observe` as a fixed-shape array (``GameDef.observation_shape``), for learners;
        it too depends only on what ``seat`` may know."""
        ...

    @property
    def over(self) -> bool: ...

    def result(self) -> Outcome | None:
        """The outcome once the game is over, else None."""
        ...

    def digest(self) -> int:
        """A 64-bit digest of the game so far (the configuration and every action and outcome):
        two games with the same digest were played alike (R12)."""
        ...

    def clone(self) -> State:
        """An independent copy (search agents play ahead on it)."""
        ...


class GameAgent:
    """Base of a game's agents: a small, picklable description of a player (its parameters).
    For each game it plays the platform copies it and calls :meth:`setup` on the copy with the
    configuration, the seat and the seat's own generator (spawned from the game's seed, R12),
    then asks :meth:`act` for an action each time the seat is to act.

    ``act`` receives the seat's observation (:meth:`State.observe`) and its legal actions, and
    nothing else: an agent of an imperfect-information game cannot read what its seat may not
    know. Subclasses set ``name`` (the registry name, as ``--agents`` takes it) and override
    :meth:`act`; parameters are keyword arguments of ``__init__`` returned by :meth:`params`.
    """

    name: ClassVar[str] = "agent"

    config: Any
    seat: int
    rng: np.random.Generator

    def params(self) -> dict[str, Any]:
        """The agent's parameters by name (numbers or strings), as ``name:key=value`` sets
        them; recorded in replays and studies."""
        return {}

    def setup(self, config: Any, seat: int, rng: np.random.Generator) -> None:
        self.config, self.seat, self.rng = config, seat, rng

    def act(self, observation: Mapping[str, Any], legal: Sequence[int]) -> int:
        raise NotImplementedError

    def seated(self, config: Any, seat: int, rng: np.random.Generator) -> GameAgent:
        """A fresh copy of this agent set up for one seat of one game."""
        bot = copy.deepcopy(self)
        bot.setup(config, seat, rng)
        return bot

    def spec(self) -> dict[str, Any]:
        """What replays and studies record of the agent: its registry name and parameters."""
        return {"name": self.name, "params": self.params()}


@dataclass(frozen=True)
class Mark:
    """One thing a 2D board shows: a ``kind`` (``"point"``, ``"segment"``, ``"piece"``,
    ``"arrow"``, ``"ring"``), where (board coordinates, x right and y down, in points of the
    board: ``at`` one point, ``to`` a second for segments and arrows), the seat whose colour it
    takes (None: the board's own ink), a ``label`` (a stack's height, a piece's name) and a
    ``size`` in points (a disc's radius)."""

    kind: str
    at: tuple[float, float]
    to: tuple[float, float] | None = None
    seat: int | None = None
    label: str = ""
    size: float = 0.3


@dataclass(frozen=True)
class Scene2D:
    """A position of a 2D game as the viewer draws it (the replay page and PNGs): a board of
    ``width`` × ``height`` points and its marks, back to front, with a caption in words. A
    game's ``scene`` module makes these from a state or an observation; it imports no
    renderer, so ``viz`` draws every 2D game alike.

    ``colours``: each seat's colour (``"#rrggbb"``) in this position when the game's rules name
    its sides' colours (Sight's White and Black, which follow the stones when a Swap exchanges
    the agents' colours, S4); empty: the platform's palette of seats."""

    width: int
    height: int
    marks: tuple[Mark, ...]
    caption: str = ""
    colours: tuple[str, ...] = ()


class GameDef(Protocol):
    """A game as the registry holds it: the module ``antipolix.games.<name>`` exports one as
    ``GAME``. The members below are required; a 2D game (``info.board == "2d"``) also gives
    ``scene(state, seat=None) -> Scene2D``: the position as a 2D board, the truth (``seat``
    None) or what ``seat`` may know, the last action drawn as arrows or rings.

    The platform (:mod:`antipolix.games.host`) also uses these members when a game gives them,
    and serves the game without them otherwise:

    - ``play_batch(config, agents, seeds) -> list[Outcome] | None``: a compiled path that plays
      a chunk of whole games in one call (one game per seed, seat ``s`` played by
      ``agents[s]``), the same outcomes as :func:`play_one` on each seed; None when these
      agents have no compiled form;
    - ``columns: tuple[Column, ...]``: the game's own columns of a results table, filled from
      :attr:`Outcome.extras` (default: none); ``layout: tuple[str, ...]``, the order of every
      column when the game keeps an order of its own (AntipoliX's tables);
    - ``default_agents: tuple[str, ...]``: who plays when a command names no agents;
    - ``perft(config, depth) -> int``: the number of action sequences of ``depth`` from the
      start, from a fast path of the game's (S11's perft); a deterministic sequential game
      without one is counted through :class:`State`;
    - ``board_text(state) -> str``: the position as lines of text (``antipolix demo``); else
      the text is drawn from ``scene``;
    - a game whose agents and replays are its own (AntipoliX: agents with army policies and
      think times, replay format 2) gives ``make_agent``, ``agent_label``, ``agent_record``,
      ``normal_record``, ``agent_from_record``, ``check_agents``, ``with_options``,
      ``table_config``, ``play``, ``warm`` (see :mod:`antipolix.games.host`), ``load_replay``
      and ``verify_replay`` (:mod:`antipolix.games.replays`); a simultaneous game gives its
      PettingZoo ``parallel_env`` (:mod:`antipolix.games.env`). A game made of
      :class:`GameAgent` subclasses needs none of them.
    """

    info: GameType  # what the game declares
    options: tuple[Option, ...]
    agents: Mapping[str, type[GameAgent]]  # built-in agents by name

    def config(self, **options: Any) -> Any:
        """The validated configuration with ``options`` by name (``players`` among them); the
        others keep their defaults. An unknown option or a bad value raises GameError."""
        ...

    def config_from_text(self, overrides: Mapping[str, str], base: Any = None) -> Any:
        """``base`` (the defaults when None) with options given as text (``--rule KEY=VALUE``)."""
        ...

    def config_to_dict(self, config: Any) -> dict[str, Any]:
        """JSON-ready, every option; :meth:`config_from_dict` reads it back to an equal
        configuration."""
        ...

    def config_from_dict(self, data: Mapping[str, Any]) -> Any: ...

    def num_actions(self, config: Any) -> int: ...

    def observation_shape(self, config: Any) -> tuple[int, ...]: ...

    def new(self, config: Any, seed: SeedLike = None) -> State:
        """A new game at its start; ``seed`` makes every random choice of the engine (R12)."""
        ...

    def action_to_text(self, state: State, action: int) -> str:
        """An action in the words of the rules (``Place (2, 3)``), for logs and pages; ``state``
        is the position it is played in."""
        ...

    def action_to_json(self, config: Any, action: int) -> Any:
        """An action as replays store it (the game's own notation; JSON-ready). The
        configuration says what the integer means: on boards of different sizes one integer
        names different points."""
        ...

    def action_from_json(self, config: Any, data: Any) -> int:
        """Read back :meth:`action_to_json` under ``config``; anything else raises GameError."""
        ...


def agent_rngs(seed: np.random.SeedSequence, players: int) -> list[np.random.Generator]:
    """Each seat's generator for a game of ``seed`` (R12): children of the seed's agent branch,
    so that agents never share or shift the engine's stream."""
    branch = np.random.SeedSequence(
        seed.entropy, spawn_key=(*seed.spawn_key, AGENT_BRANCH), pool_size=seed.pool_size
    )
    return [np.random.default_rng(s) for s in branch.spawn(players)]


def seed_sequence(seed: SeedLike) -> np.random.SeedSequence:
    """A seed as a SeedSequence (an int becomes ``SeedSequence(seed)``)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    return np.random.SeedSequence(seed)


def play_one(
    game: GameDef,
    config: Any,
    agents: Sequence[GameAgent],
    seed: SeedLike = None,
    on_action: Any = None,
) -> tuple[State, Outcome]:
    """One whole game, seat ``s`` played by ``agents[s]`` from the game's seed (R12). Each
    applied action set is passed to ``on_action(state_before_apply, actions)`` when given (a
    replay writer). An agent that returns an illegal action raises GameError naming it."""
    ss = seed_sequence(seed)
    players = int(config.players)
    if len(agents) != players:
        raise GameError(
            f"{game.info.name} with {players} players needs {players} agents, got {len(agents)}"
        )
    rngs = agent_rngs(ss, players)
    seated = [a.seated(config, s, rngs[s]) for s, a in enumerate(agents)]
    state = game.new(config, ss)
    while not state.over:
        actions = {}
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            action = seated[seat].act(state.observe(seat), legal)
            if action not in legal:
                raise GameError(
                    f"agent {seated[seat].name!r} in seat {seat} chose action {action!r}, not "
                    f"legal at turn {state.turn}"
                )
            actions[seat] = int(action)
        if on_action is not None:
            on_action(state, actions)
        state.apply(actions)
    result = state.result()
    assert result is not None
    return state, result
