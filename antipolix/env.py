"""The game as a PettingZoo ``ParallelEnv``: one agent per seat, simultaneous orders (R4, R7).

>>> env = parallel_env(players=2, shape=(4, 8, 8))
>>> obs, infos = env.reset(seed=7)
>>> env.agents
['player_0', 'player_1']
>>> actions = {a: env.action_space(a).sample(obs[a]["action_mask"]) for a in env.agents}
>>> obs, rewards, terminations, truncations, infos = env.step(actions)

Built like PettingZoo's own environments: :func:`parallel_env` takes the rules (a
:class:`~antipolix.Rules`, default ``Rules()``) and options: any field of ``Rules`` by name
(``players=2``, ``shape=(4, 8, 8)``, ``max_turns=200``, ...) plus the env's own options
(:class:`AntipolixEnv`). Requires the ``env`` extra (``pip install 'antipolix[env]'``).

**Agents.** ``"player_0"`` ... ``"player_{n-1}"``, one per seat (R3). Every living seat gives
one action per step; the turn is resolved by :meth:`Game.play_turn` (R4). The env's seats send
no messages or commands (R9), so a game ends by eliminations or at the turn limit (R10).

**Think times (R7).** The env always plays with the rule option ``think_times="drawn"`` (it
replaces the option of the rules it is given, and ``think_times="agent"`` as an option is an
error): actions carry no think time, and the engine draws each seat's from the game's generator,
so reception order and timers (still on by default) are a fair draw.

**Observation** (R6): built only from :meth:`Game.observe` of the seat, never from the truth.
Players are numbered *relative to the observer*: ``k`` is seat ``(seat + k) % n`` (0 is the
observer). ``obs[agent]`` is ``{"observation": {...}, "action_mask": ...}``; the observation:

- ``"board"`` ``int8 (10, P, N, N)``: one channel per :data:`BOARD_CHANNELS`: own pieces by type
  (army, hovercraft, fortress) and by trait (invisible, teleporter, chief), visible enemy pieces
  by type (never their traits, R6), and ``enemy_owner``, the relative seat (1..n-1) of the visible
  enemy piece on the cell. Enemy invisible pieces appear nowhere.
- ``"own"`` ``int32 (S, 6)``: the piece table of the observer's pieces, row ``s`` = **slot**
  ``s`` (columns :data:`OWN_COLUMNS`: present, type, trait, z, y, x; absent rows are zeros).
  A piece keeps its slot as long as it is the observer's; a piece gained (a conversion, R8) takes
  the lowest free slot; new pieces are assigned in identifier order (which says nothing, R6).
  Piece identifiers themselves never appear in the arrays.
- ``"enemies"`` ``int32 (S, 6)``: the visible enemy pieces (columns :data:`ENEMY_COLUMNS`:
  present, owner as relative seat, type, z, y, x), in identifier order, then zero rows.
- ``"events"`` ``int32 (n, 19)``: what the observer was told of the last turn (R6 redactions
  kept), one row per relative seat: the outcome of that player's order as far as it was told
  (moved, rejected, an invisible piece crushed, an attack with its powers and outcome, a teleport
  landing when visible) and whether that player was eliminated (how, by whom); columns
  :data:`EVENT_COLUMNS`, -1 where there is nothing to tell.
- ``"players"`` ``int8 (n,)``: 1 for each living player (relative seats).
- ``"scalars"`` ``float32 (4,)``: :data:`SCALARS`: turns played, turns left before the limit,
  own timer in seconds (-1 with timers off, R7), own reception time last turn (-1 for none).

``S`` (:attr:`AntipolixEnv.slots`) is the most pieces a game under the rules can hold: per seat,
a cheapest chief plus the cheapest pieces the budget buys (capped by the home zone), times the
players, capped by the cells (R3: no piece is created after placement). 14 on a 4×8×8 board with
2 players; 120 under the default rules.

**Actions**: ``Discrete(1 + S·C + C)`` with ``C = P·N·N`` cells, and ``cell`` a flat index
(``np.ravel_multi_index((z, y, x), shape)``):

- ``0``: ``Pass`` (always allowed to a living seat);
- ``1 + s·C + cell``: ``Move`` the piece in slot ``s`` to ``cell`` (R4, R5, through the
  observer's own teleporters too);
- ``1 + S·C + cell``: ``Attack`` the visible enemy piece on ``cell`` with every own piece that
  reaches it (R4, R8; attackers never move and a failed attack changes nothing, so adding
  attackers never hurts: the built-in agents attack the same way).

``action_mask`` (``int8``, one entry per action) allows exactly the orders the rules accept now
(:meth:`Game.is_legal`), computed from the observation alone: free cells are those the observer
sees free, so a move onto an enemy invisible piece is allowed (it crushes it, R6). Under the rule
option ``teleport_network="all"`` the mask offers teleports through the observer's own
teleporters only (it cannot know the others'): still legal, not every legal move.
``mask[1:1 + S*C].reshape(S, P, N, N)`` are the moves per slot; ``mask[1 + S*C:]`` the attacks.

**Forbidden actions.** An action the mask forbids raises :class:`IllegalActionError` (a
``ValueError``) before anything changes: the game is untouched and the same step can be retried.
With ``illegal_action="pass"`` the seat passes instead and ``infos[agent]["illegal_action"]``
holds the action. Something that is not an action at all (not an integer, out of range, a missing
or unknown agent) always raises :class:`InvalidActionError`.

**Rewards** (R10, R11): zero-sum, given once, when the agent is done, by finishing order:
``1 - 2·place/(n-1)`` for ``place`` 0 (first) to ``n-1`` (last): the winner gets +1, the first
eliminated -1, the others evenly between; the rewards of a game add up to 0. Places follow the
engine's elimination order (R10; the k-th eliminated is ``n-k``-th, as R11 scores it), except
that in a draw the players still in the game at its end (for "all eliminated", those who went out
in the final instant) share the top places: each gets the mean of their places, so all four
players of a 4-player turn-limit draw get 0. Every other step gives 0.

**Done**: an eliminated seat is *terminated* in the step it goes out, and leaves ``env.agents``
(PettingZoo's parallel API). When the game ends, every remaining agent is terminated, except at
the turn limit (R10), where the living ones are *truncated*. ``infos[agent]`` holds ``"turn"``,
and, when done, ``"place"``; at the end of the game also ``"reason"`` and ``"winner"``.

**Seeds** (R12): ``reset(seed=s)`` plays the game ``Game(rules, seed=s)``: the same seed gives
the same game, bit for bit. The k-th ``reset()`` without a seed after it plays the seed
``SeedSequence(s, spawn_key=(k, 0))`` (game k of ``simulate(..., seed=s)``); with no seed ever
given, fresh entropy. Each seat's army comes from its army policy drawing from the seat's own
generator (:meth:`Game.agent_seed`), as in :func:`antipolix.play`.

**Built-in agents as policies**: ``scripted={"player_1": GreedyAgent()}`` gives a seat an
:class:`~antipolix.agents.Agent` (its army, then its decisions);
:meth:`AntipolixEnv.scripted_action` returns that agent's decision for the current turn as an env
action, and
:meth:`AntipolixEnv.action_of` turns any order into one. With every seat scripted, the env plays
exactly the game :func:`antipolix.play` plays with those agents under ``think_times="drawn"``.
"""

from __future__ import annotations

import copy
import dataclasses
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

try:
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(
        "antipolix.env needs PettingZoo and Gymnasium: pip install 'antipolix[env]'"
    ) from exc

from antipolix.agents import agent_named
from antipolix.agents.army import ArmyPolicy, RandomArmy, checked_army
from antipolix.agents.base import Agent, Decision, Sight
from antipolix.combat import Outcome
from antipolix.end import EndReason, GameResult
from antipolix.errors import AgentError, AntipolixError, PhaseError, RulesError
from antipolix.events import Combat, Crushed, Eliminated, Event, Fate, Moved, Received, Rejected
from antipolix.game import Game, TurnReport
from antipolix.observation import Observation
from antipolix.orders import Attack, Move, Order, Pass
from antipolix.pieces import ArmyItem, PieceType, Trait
from antipolix.rules import Rules
from antipolix.world import as_cell

NAME = "antipolix_v0"

BOARD_CHANNELS = (
    "own_army",
    "own_hovercraft",
    "own_fortress",
    "own_invisible",
    "own_teleporter",
    "own_chief",
    "enemy_army",
    "enemy_hovercraft",
    "enemy_fortress",
    "enemy_owner",  # relative seat 1..n-1 of the visible enemy piece on the cell, else 0
)
OWN_COLUMNS = ("present", "type", "trait", "z", "y", "x")  # PieceType and Trait codes
ENEMY_COLUMNS = ("present", "owner", "type", "z", "y", "x")  # owner: relative seat 1..n-1
EVENT_COLUMNS = (
    "told",  # 1: an event of this player's order of the last turn was told to the observer
    "moved",  # own row only: the observer's piece moved (to the cell)
    "rejected",  # own row only: the observer's order was rejected when its turn came (R4)
    "crushed",  # the player's move crushed an invisible piece (the observer's, or by it, R6)
    "z",  # the cell of the order: the move's destination, the crushed piece's, the target's
    "y",
    "x",
    "attack",  # R8 attack and defence powers of the player's attack, -1 for none
    "defence",
    "success",  # 1: attack > defence
    "outcome",  # the draw after a successful attack: 1 destroy, 2 teleport, 3 convert (R8)
    "destroyed",  # 1: the target was destroyed (drawn, or teleported onto an occupied cell)
    "landing_z",  # where a teleported target landed, -1 for none or unknown to the observer (R6)
    "landing_y",
    "landing_x",
    "victim",  # relative seat of the attacked or crushed piece's owner, -1 for none
    "eliminated",  # 1: this player was eliminated during the last turn
    "reason",  # how: 1 chief taken (R8), 2 timer (R7), 3 quit (R9); 0 for none
    "by",  # relative seat of the player who took its chief, -1 for none
)
SCALARS = ("turn", "turns_left", "timer", "received_at")

_COL = {name: i for i, name in enumerate(EVENT_COLUMNS)}
_EVENT_EMPTY = np.array(
    [
        -1
        if name in ("z", "y", "x", "attack", "defence", "victim", "by") or "landing" in name
        else 0
        for name in EVENT_COLUMNS
    ],
    dtype=np.int32,
)
_OUTCOME_CODE = {Outcome.DESTROY: 1, Outcome.TELEPORT: 2, Outcome.CONVERT: 3}
_REASON_CODE = {"chief": 1, "timer": 2, "quit": 3}
_ENV_OPTIONS = ("armies", "scripted", "placement", "illegal_action", "render_mode")

Placement = Callable[[Game], None]
ArmiesLike = ArmyPolicy | Sequence[ArmyPolicy] | None
ObsDict = dict[str, Any]


class EnvError(AntipolixError):
    """A call the environment cannot serve now (e.g. ``step`` before ``reset``)."""


class InvalidActionError(EnvError):
    """Something that is not an action of the agent's action space, or actions for the wrong
    agents; nothing changed."""


class IllegalActionError(EnvError):
    """An action the agent's action mask forbids (not a legal order now, R4); nothing changed."""


def parallel_env(rules: Rules | None = None, **options: Any) -> AntipolixEnv:
    """The AntipoliX ``ParallelEnv`` (PettingZoo): see the module's documentation.

    ``options``: any field of :class:`~antipolix.Rules` by name, plus the env's own options
    ``armies``, ``scripted``, ``placement``, ``illegal_action`` and ``render_mode``
    (:class:`AntipolixEnv`).
    """
    own = {k: options.pop(k) for k in _ENV_OPTIONS if k in options}
    return AntipolixEnv(_env_rules(rules, options), **own)


def _env_rules(rules: Rules | None, options: Mapping[str, Any]) -> Rules:
    """The rules with the options applied and ``think_times="drawn"`` forced (R7)."""
    if rules is None:
        rules = Rules()
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a Rules or None, got {type(rules).__name__}")
    names = {f.name for f in dataclasses.fields(Rules)}
    unknown = sorted(set(options) - names)
    if unknown:
        raise RulesError(
            f"unknown option(s) {unknown}: the env's options are {list(_ENV_OPTIONS)}, "
            f"and rule options are the fields of Rules ({', '.join(sorted(names))})"
        )
    if options.get("think_times", "drawn") != "drawn":
        raise RulesError(
            f"the env always draws think times (R7): think_times must be 'drawn', got "
            f"{options['think_times']!r}"
        )
    return dataclasses.replace(rules, **{**options, "think_times": "drawn"})


def piece_bound(rules: Rules) -> int:
    """The most pieces a game under ``rules`` can hold (R3; pieces are never created later)."""
    p, n, m = rules.shape
    cells = p * n * m
    zones = rules.home_zones
    room = max(z.volume for z in zones) if zones is not None else cells
    chief = min(rules.piece_cost(k, Trait.CHIEF) for k in PieceType)
    other = min(rules.piece_cost(k, t) for k in PieceType for t in Trait if t is not Trait.CHIEF)
    per_seat = room if other == 0 else min(room, 1 + (rules.army_budget - chief) // other)
    return max(1, min(cells, rules.players * per_seat))


def finishing_places(
    result: GameResult, players: int, last_instant: Sequence[int] = ()
) -> dict[int, float]:
    """Each seat's place at the end of a game (0 first, ``players - 1`` last; ties share the
    mean of their places): the winner first, the eliminated in reverse elimination order (R10,
    R11); in a draw, the players still in the game share the top places, and for "all
    eliminated" (R10) those are ``last_instant``, the players who went out in the final instant.

    >>> finishing_places(GameResult(2, EndReason.LAST_PLAYER, 40, (0, 3, 1)), 4)
    {2: 0.0, 0: 3.0, 3: 2.0, 1: 1.0}
    >>> finishing_places(GameResult(None, EndReason.TURN_LIMIT, 9, (1,)), 3)
    {0: 0.5, 2: 0.5, 1: 2.0}
    """
    order = result.elimination_order
    if result.winner is not None:
        top = [result.winner]
    elif result.reason is EndReason.ALL_ELIMINATED:
        top = [p for p in order if p in set(last_instant)]
    else:
        top = [p for p in range(players) if p not in order]
    places = dict.fromkeys(top, (len(top) - 1) / 2)
    for k, seat in enumerate(order, start=1):
        if seat not in places:
            places[seat] = float(players - k)
    return places


def place_reward(place: float, players: int) -> float:
    """Zero-sum reward of a finishing place: +1 first, -1 last, linear between."""
    return 1.0 - 2.0 * place / (players - 1)


def action_index(agent: str, action: object, size: int) -> int:
    """The plain int of an action (int, numpy integer, 0-d integer array), or an error."""
    value = action
    if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu":
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidActionError(
            f"{agent}: an action is an integer in [0, {size}), got {action!r} "
            f"({type(action).__name__})"
        )
    index = operator.index(value)
    if not 0 <= index < size:
        raise InvalidActionError(f"{agent}: action {index} is outside [0, {size})")
    return index


@dataclass
class _Seat:
    """What the env keeps of one seat between steps, all derived from its observations (R6),
    except ``bot``, its scripted agent (which sees the same observations)."""

    slots: npt.NDArray[np.int64]  # piece id per slot, -1 for a free slot
    rng: np.random.Generator  # the seat's own generator (R12): its army, then its agent's
    obs: Observation | None = None
    view: Sight | None = None
    mask: npt.NDArray[np.int8] | None = None
    enemy_at: dict[int, int] = dataclasses.field(default_factory=dict)  # flat cell → obs row
    bot: Agent | None = None
    decided: tuple[int, int] | None = None  # (turn, action) of the scripted agent


class AntipolixEnv(ParallelEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """AntipoliX as a PettingZoo ``ParallelEnv`` (see the module's documentation).

    Options:

    - ``armies``: the army policy of every seat (default :class:`RandomArmy`), or one per seat;
      it draws from the seat's generator (R12). Seats in ``scripted`` use their agent's instead.
    - ``scripted``: ``{agent name: Agent or built-in agent name}``, agents that can decide for
      those seats (:meth:`scripted_action`); a copy of each is set up at every reset.
    - ``placement``: a function ``placement(game)`` that places every army itself (hand-made
      positions, e.g. with ``zones=False``), instead of the army policies.
    - ``illegal_action``: ``"raise"`` (default) or ``"pass"``: what an action the mask forbids
      does.
    - ``render_mode``: only ``None`` (watch a game with a replay instead).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention
        "name": NAME,
        "render_modes": [],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        armies: ArmiesLike = None,
        scripted: Mapping[str, Agent | str] | None = None,
        placement: Placement | None = None,
        illegal_action: Literal["raise", "pass"] = "raise",
        render_mode: None = None,
    ) -> None:
        self.rules = _env_rules(rules, {})
        n = self.rules.players
        self.possible_agents: list[str] = [f"player_{i}" for i in range(n)]
        self.agents: list[str] = []
        self._seat_of = {name: i for i, name in enumerate(self.possible_agents)}
        self._armies = self._check_armies(armies)
        self._scripted = self._check_scripted(scripted)
        if placement is not None and not callable(placement):
            raise EnvError(f"placement must be a function placement(game), got {placement!r}")
        self._placement = placement
        if illegal_action not in ("raise", "pass"):
            raise EnvError(f"illegal_action must be 'raise' or 'pass', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if render_mode is not None:
            raise EnvError(
                f"render_mode must be None, got {render_mode!r}: to watch a game, write a replay "
                "(antipolix.play) and view it (antipolix view)"
            )
        self.render_mode = None
        p, rows, cols = self.rules.shape
        self.cells = p * rows * cols
        self.slots = piece_bound(self.rules)
        self.actions = 1 + self.slots * self.cells + self.cells
        self.attack_base = 1 + self.slots * self.cells
        self._strides = np.array([rows * cols, cols, 1], dtype=np.int64)
        self.observation_spaces = {a: self._observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.actions) for a in self.possible_agents}
        self._game: Game | None = None
        self._root: np.random.SeedSequence | None = None
        self._resets = 0
        self._seats: list[_Seat] = []

    # -- PettingZoo API ---------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self._name(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self._name(agent)]

    def reset(
        self,
        seed: int | np.random.SeedSequence | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        """Start a new game (placement R3, then play). ``options`` is accepted (PettingZoo's API)
        and not used: the env's options are given when it is built. ``seed`` may also be a
        ``SeedSequence`` (a study's game seed: :mod:`antipolix.games`)."""
        if seed is not None:
            game = Game(self.rules, seed)  # checks the seed (R12)
            if isinstance(seed, np.random.SeedSequence):
                self._root, self._resets = seed, 0
            else:
                self._root, self._resets = np.random.SeedSequence(seed), 0
        else:
            if self._root is None:
                self._root = np.random.SeedSequence()
            self._resets += 1
            key = (*self._root.spawn_key, self._resets, 0)
            game = Game(self.rules, np.random.SeedSequence(self._root.entropy, spawn_key=key))
        self._seats = [self._new_seat(game, seat) for seat in range(self.rules.players)]
        if self._placement is not None:
            self._placement(game)
        else:
            for seat, state in enumerate(self._seats):
                game.place_army(seat, self._army(seat, state))
        game.start()
        self._game = game
        self.agents = list(self.possible_agents)
        obs = {name: self._observe(seat) for seat, name in enumerate(self.agents)}
        return obs, {name: {"turn": 0} for name in self.agents}

    def step(
        self, actions: Mapping[str, object]
    ) -> tuple[
        dict[str, ObsDict],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Play one turn: one action per agent in ``env.agents``, all checked before anything
        changes (R4); then the engine resolves the turn (R7 reception order)."""
        game = self._live_game()
        orders, infos = self._orders(actions)
        report = game.play_turn(orders)
        acting = list(self.agents)
        places = self._places(report)
        obs: dict[str, ObsDict] = {}
        rewards: dict[str, float] = {}
        terminations: dict[str, bool] = {}
        truncations: dict[str, bool] = {}
        for name in acting:
            seat = self._seat_of[name]
            terminated, truncated = self._done(seat)
            terminations[name], truncations[name] = terminated, truncated
            rewards[name] = 0.0
            infos[name]["turn"] = game.turn
            if terminated or truncated:
                rewards[name] = place_reward(places[seat], self.rules.players)
                infos[name]["place"] = places[seat]
            if game.result is not None:
                infos[name]["reason"] = game.result.reason.name.lower()
                winner = game.result.winner
                infos[name]["winner"] = None if winner is None else self.possible_agents[winner]
            obs[name] = self._observe(seat)
        self.agents = [a for a in acting if not (terminations[a] or truncations[a])]
        return obs, rewards, terminations, truncations, infos

    def _orders(
        self, actions: Mapping[str, object]
    ) -> tuple[dict[int, Order], dict[str, dict[str, Any]]]:
        """Every agent's action as an order, checked against its mask (R4, R5) before anything
        changes; a forbidden one raises, or passes with ``illegal_action="pass"``."""
        if not isinstance(actions, Mapping):
            raise InvalidActionError(f"actions must be a dict {{agent: action}}, got {actions!r}")
        unknown = sorted(str(a) for a in actions if a not in self.agents)
        if unknown:
            raise InvalidActionError(
                f"actions for {unknown}, who are not playing (agents now: {self.agents})"
            )
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise InvalidActionError(f"no action for {missing} (0 is Pass)")
        orders: dict[int, Order] = {}
        infos: dict[str, dict[str, Any]] = {}
        for name in self.agents:
            seat = self._seat_of[name]
            index = action_index(name, actions[name], self.actions)
            infos[name] = {}
            if self._allowed(seat, index):
                orders[seat] = self._decode(seat, index)
            elif self.illegal_action == "pass":
                orders[seat] = Pass()
                infos[name]["illegal_action"] = index
            else:
                raise IllegalActionError(
                    f"{name}: action {index} ({self.describe(name, index)}) is forbidden by its "
                    "action mask: not a legal order now (R4, R5); nothing was played"
                )
        return orders, infos

    def _places(self, report: TurnReport) -> dict[int, float]:
        """Finishing places so far (R10, R11): of everyone when the game is over, else of the
        players out."""
        game = self._live_game(over=True)
        if game.result is not None:
            return finishing_places(game.result, self.rules.players, _last_instant(report.events))
        living = set(game.living)
        return {
            s: float(self.rules.players - k)
            for k, s in enumerate(game.elimination_order, start=1)
            if s not in living
        }

    def _done(self, seat: int) -> tuple[bool, bool]:
        """(terminated, truncated): out of the game, or stopped by the turn limit (R10)."""
        game = self._live_game(over=True)
        result, out = game.result, seat not in game.living
        truncated = result is not None and result.reason is EndReason.TURN_LIMIT and not out
        terminated = not truncated and (out or result is not None)
        return terminated, truncated

    def render(self) -> None:
        """Nothing to draw (``render_mode`` None): to watch a game, write a replay
        (:func:`antipolix.play`) and view it (``antipolix view``)."""
        return None

    def close(self) -> None:
        """Nothing to release."""

    # -- beyond PettingZoo: the game, decoding and encoding actions, built-in agents ---------------

    @property
    def game(self) -> Game:
        """The game being played: the whole truth (replays, analysis), never a learner's input."""
        if self._game is None:
            raise EnvError("no game yet: call reset() first")
        return self._game

    def raw_observation(self, agent: str) -> Observation:
        """The seat's :class:`~antipolix.Observation` the arrays were built from (R6)."""
        state = self._seats[self._seat_of[self._name(agent)]] if self._seats else None
        if state is None or state.obs is None:
            raise EnvError("no game yet: call reset() first")
        return state.obs

    def slot_pieces(self, agent: str) -> tuple[int | None, ...]:
        """The identifier of the agent's own piece in each slot (None for a free slot)."""
        self.raw_observation(agent)
        slots = self._seats[self._seat_of[agent]].slots
        return tuple(None if pid < 0 else int(pid) for pid in slots.tolist())

    def order_of(self, agent: str, action: object) -> Order:
        """The order an action of ``agent`` stands for now (it must be allowed by its mask)."""
        seat = self._seat_of[self._name(agent)]
        self._live_game()
        index = action_index(agent, action, self.actions)
        if not self._allowed(seat, index):
            raise IllegalActionError(
                f"{agent}: action {index} ({self.describe(agent, index)}) is forbidden by its "
                "action mask"
            )
        return self._decode(seat, index)

    def action_of(self, agent: str, order: Order) -> int:
        """The action of ``agent`` that gives ``order`` now (an attack maps to the attack on its
        cell, by every own piece that reaches it); an error if the mask forbids it."""
        seat = self._seat_of[self._name(agent)]
        self._live_game()
        shape = self.rules.shape
        if isinstance(order, Pass):
            index = 0
        elif isinstance(order, Move):
            hit = np.flatnonzero(self._seats[seat].slots == order.piece)
            if not len(hit):
                raise IllegalActionError(f"{agent} has no piece {order.piece!r} to move")
            cell = as_cell(shape, order.cell, f"{agent}: move target")
            index = 1 + int(hit[0]) * self.cells + self._flat(cell)
        elif isinstance(order, Attack):
            cell = as_cell(shape, order.cell, f"{agent}: attack target")
            index = self.attack_base + self._flat(cell)
        else:
            raise InvalidActionError(
                f"{agent}: an order is a Move, Attack or Pass, got {type(order).__name__}"
            )
        if not self._allowed(seat, index):
            raise IllegalActionError(
                f"{agent}: {order} ({self.describe(agent, index)}) is not a legal order now"
            )
        return index

    def scripted_action(self, agent: str) -> int:
        """The decision of ``agent``'s scripted agent for this turn, as an env action.

        The agent acts once per turn on the seat's observation (R6); asking again in the same
        turn returns the same action. Its think time is not used (R7: the env draws them).
        """
        name = self._name(agent)
        seat = self._seat_of[name]
        game = self._live_game()
        state = self._seats[seat]
        if state.bot is None:
            raise EnvError(f"{name} has no scripted agent (give one with scripted={{...}})")
        if name not in self.agents:
            raise EnvError(f"{name} is not playing any more")
        if state.decided is not None and state.decided[0] == game.turn:
            return state.decided[1]
        assert state.obs is not None
        label = f"agent {state.bot.name!r} ({name}) at turn {game.turn + 1}"
        try:
            value = state.bot.act(state.obs)
        except Exception as exc:
            raise AgentError(f"{label}: {exc}") from exc
        order = value.order if isinstance(value, Decision) else value
        if not isinstance(order, Move | Attack | Pass):
            raise AgentError(f"{label}: act() must return a Decision or an order, got {value!r}")
        try:
            action = self.action_of(name, order)
        except AntipolixError as exc:
            raise AgentError(f"{label}: {exc}") from exc
        state.decided = (game.turn, action)
        return action

    def move_action(self, slot: int, cell: tuple[int, int, int]) -> int:
        """The action index of moving the piece in ``slot`` to ``cell`` (allowed or not)."""
        if not 0 <= slot < self.slots:
            raise InvalidActionError(f"slot {slot} is outside [0, {self.slots})")
        return 1 + slot * self.cells + self._flat(as_cell(self.rules.shape, cell))

    def attack_action(self, cell: tuple[int, int, int]) -> int:
        """The action index of attacking ``cell`` (allowed or not)."""
        return self.attack_base + self._flat(as_cell(self.rules.shape, cell))

    def describe(self, agent: str, action: int) -> str:
        """A readable form of an action: ``pass``, ``move slot 2 to (1, 3, 4)``, ``attack ...``."""
        index = action_index(agent, action, self.actions)
        if index == 0:
            return "pass"
        if index >= self.attack_base:
            return f"attack {self._cell(index - self.attack_base)}"
        slot, flat = divmod(index - 1, self.cells)
        return f"move slot {slot} to {self._cell(flat)}"

    # -- internals --------------------------------------------------------------------------------

    def _name(self, agent: object) -> str:
        if agent not in self._seat_of:
            raise EnvError(f"no agent {agent!r} (agents: {self.possible_agents})")
        return str(agent)

    def _live_game(self, over: bool = False) -> Game:
        """The game being played (``over``: or just finished)."""
        if self._game is None:
            raise EnvError("no game yet: call reset() first")
        if self._game.result is not None and not over:
            raise PhaseError(f"the game is over ({self._game.result.reason.value}): call reset()")
        return self._game

    def _check_armies(self, armies: ArmiesLike) -> list[ArmyPolicy]:
        n = self.rules.players
        if armies is None:
            return [RandomArmy()] * n
        if hasattr(armies, "choose"):
            return [armies] * n  # type: ignore[list-item]
        if (
            isinstance(armies, Sequence)
            and not isinstance(armies, str)
            and len(armies) == n
            and all(hasattr(a, "choose") for a in armies)
        ):
            return list(armies)
        raise EnvError(
            f"armies must be an army policy (RandomArmy(), FixedArmy(...), GivenArmy(...)) or a "
            f"list of {n}, one per seat; got {armies!r}"
        )

    def _check_scripted(self, scripted: Mapping[str, Agent | str] | None) -> dict[int, Agent]:
        if scripted is None:
            return {}
        if not isinstance(scripted, Mapping):
            raise EnvError(f"scripted must be a dict {{agent name: Agent}}, got {scripted!r}")
        out = {}
        for name, agent in scripted.items():
            if name not in self._seat_of:
                raise EnvError(f"scripted: no agent {name!r} (agents: {self.possible_agents})")
            bot = agent_named(agent) if isinstance(agent, str) else agent
            if not isinstance(bot, Agent):
                raise EnvError(f"scripted[{name!r}] must be an antipolix Agent, got {agent!r}")
            out[self._seat_of[name]] = bot
        return out

    def _new_seat(self, game: Game, seat: int) -> _Seat:
        rng = np.random.Generator(np.random.PCG64(game.agent_seed(seat)))  # R12, as play() does
        state = _Seat(slots=np.full(self.slots, -1, dtype=np.int64), rng=rng)
        bot = self._scripted.get(seat)
        if bot is not None:
            state.bot = copy.deepcopy(bot)
            state.bot.setup(self.rules, seat, rng)
        return state

    def _army(self, seat: int, state: _Seat) -> list[ArmyItem]:
        """R3: the seat's army, from its scripted agent or its army policy (checked)."""
        try:
            if state.bot is not None:
                return checked_army(self.rules, seat, state.bot.army())
            return checked_army(self.rules, seat, self._armies[seat].choose(self.rules, state.rng))
        except AntipolixError as exc:
            raise EnvError(f"{self.possible_agents[seat]}: its army policy failed: {exc}") from exc

    def _allowed(self, seat: int, index: int) -> bool:
        mask = self._seats[seat].mask
        return mask is not None and bool(mask[index])

    def _flat(self, cell: tuple[int, int, int]) -> int:
        return int(cell[0] * self._strides[0] + cell[1] * self._strides[1] + cell[2])

    def _cell(self, flat: int) -> tuple[int, int, int]:
        _, n, m = self.rules.shape
        zy, x = divmod(int(flat), m)
        z, y = divmod(zy, n)
        return z, y, x

    def _decode(self, seat: int, index: int) -> Order:
        """The order of an allowed action (the mask was checked)."""
        if index == 0:
            return Pass()
        state = self._seats[seat]
        assert state.obs is not None and state.view is not None
        if index >= self.attack_base:
            flat = index - self.attack_base
            rows = state.view.targets[state.enemy_at[flat]]
            return Attack([int(i) for i in state.obs.ids[rows]], self._cell(flat))
        slot, flat = divmod(index - 1, self.cells)
        return Move(int(state.slots[slot]), self._cell(flat))

    def _observe(self, seat: int) -> ObsDict:
        """Observe the seat (R6), update its slots, and encode the observation and mask."""
        game = self.game
        state = self._seats[seat]
        obs = game.observe(seat)
        state.obs = obs
        mine = obs.owners == seat
        self._update_slots(state, obs.ids[mine])
        encoded = self._encode(seat, obs, mine, state)
        mask = np.zeros(self.actions, dtype=np.int8)
        state.view, state.enemy_at = None, {}
        if game.result is None and seat in obs.living:
            mask[0] = 1
            view = Sight(self.rules, obs)
            state.view = view
            slot_of = {int(pid): s for s, pid in enumerate(state.slots.tolist()) if pid >= 0}
            for row in view.mobile.tolist():
                base = 1 + slot_of[int(obs.ids[row])] * self.cells
                mask[base + view.free_reach(row)] = 1
            targets = [int(r) for r in view.targets]
            state.enemy_at = {int(view.flat[r]): r for r in targets}
            mask[self.attack_base + np.array(sorted(state.enemy_at), dtype=np.int64)] = 1
        state.mask = mask
        return {"observation": encoded, "action_mask": mask}

    def _update_slots(self, state: _Seat, own_ids: npt.NDArray[np.int64]) -> None:
        """Slots of pieces no longer owned are freed; new pieces take the lowest free slots in
        identifier order (R6: that order says nothing)."""
        slots = state.slots
        slots[~np.isin(slots, own_ids)] = -1
        new = own_ids[~np.isin(own_ids, slots)]
        if len(new):
            free = np.flatnonzero(slots < 0)
            assert len(free) >= len(new), "more pieces than slots: piece_bound is wrong"
            slots[free[: len(new)]] = new

    def _encode(
        self, seat: int, obs: Observation, mine: npt.NDArray[np.bool_], state: _Seat
    ) -> ObsDict:
        n = self.rules.players
        p, rows, cols = self.rules.shape
        flat = obs.cells @ self._strides
        rel = ((obs.owners.astype(np.int64) - seat) % n).astype(np.int64)
        board = np.zeros((len(BOARD_CHANNELS), self.cells), dtype=np.int8)
        board[obs.types[mine].astype(np.int64), flat[mine]] = 1
        traits = obs.traits[mine].astype(np.int64)
        marked = traits > 0  # invisible, teleporter, chief → channels 3, 4, 5
        board[2 + traits[marked], flat[mine][marked]] = 1
        theirs = ~mine
        board[6 + obs.types[theirs].astype(np.int64), flat[theirs]] = 1
        board[9, flat[theirs]] = rel[theirs]
        own = np.zeros((self.slots, len(OWN_COLUMNS)), dtype=np.int32)
        slot_of = {int(pid): s for s, pid in enumerate(state.slots.tolist()) if pid >= 0}
        for row in np.flatnonzero(mine).tolist():
            own[slot_of[int(obs.ids[row])]] = (
                1,
                obs.types[row],
                obs.traits[row],
                *obs.cells[row],
            )
        enemies = np.zeros((self.slots, len(ENEMY_COLUMNS)), dtype=np.int32)
        k = int(theirs.sum())
        if k:
            enemies[:k, 0] = 1
            enemies[:k, 1] = rel[theirs]
            enemies[:k, 2] = obs.types[theirs]
            enemies[:k, 3:] = obs.cells[theirs]
        events, received = self._events(seat, obs.events)
        alive = np.zeros(n, dtype=np.int8)
        alive[[(p_ - seat) % n for p_ in obs.living]] = 1
        scalars = np.array(
            [
                obs.turn,
                self.rules.max_turns - obs.turn,
                -1.0 if obs.timer is None else obs.timer,
                received,
            ],
            dtype=np.float32,
        )
        return {
            "board": board.reshape(len(BOARD_CHANNELS), p, rows, cols),
            "own": own,
            "enemies": enemies,
            "events": events,
            "players": alive,
            "scalars": scalars,
        }

    def _events(self, seat: int, told: Sequence[Event]) -> tuple[npt.NDArray[np.int32], float]:
        """The last turn's events as the seat was told them (R6), one row per relative seat."""
        n = self.rules.players
        table = np.tile(_EVENT_EMPTY, (n, 1))
        received = -1.0
        c = _COL

        def rel(player: int) -> int:
            return (player - seat) % n

        for e in told:
            if isinstance(e, Received):
                received = e.at
            elif isinstance(e, Moved):
                row = table[rel(e.player)]
                row[c["told"]], row[c["moved"]] = 1, 1
                row[c["z"] : c["x"] + 1] = e.dst
            elif isinstance(e, Rejected):
                row = table[rel(e.player)]
                row[c["told"]], row[c["rejected"]] = 1, 1
            elif isinstance(e, Crushed):
                row = table[rel(e.player)]
                row[c["told"]], row[c["crushed"]] = 1, 1
                row[c["z"] : c["x"] + 1] = e.cell
                row[c["victim"]] = rel(e.victim_owner)
            elif isinstance(e, Combat):
                row = table[rel(e.player)]
                row[c["told"]] = 1
                row[c["z"] : c["x"] + 1] = e.cell
                row[c["attack"]], row[c["defence"]] = e.attack, e.defence
                row[c["success"]] = int(e.success)
                row[c["victim"]] = rel(e.target_owner)
            elif isinstance(e, Fate):
                row = table[rel(e.player)]
                row[c["told"]] = 1
                row[c["outcome"]] = _OUTCOME_CODE[e.outcome]
                row[c["destroyed"]] = int(e.destroyed)
                if e.landing is not None:
                    row[c["landing_z"] : c["landing_x"] + 1] = e.landing
            elif isinstance(e, Eliminated):
                row = table[rel(e.player)]
                row[c["eliminated"]] = 1
                row[c["reason"]] = _REASON_CODE.get(e.reason, 0)
                row[c["by"]] = -1 if e.by is None else rel(e.by)
        return table, float(received)

    def _observation_space(self) -> spaces.Dict:
        rules = self.rules
        n, (p, rows, cols) = rules.players, rules.shape
        big = max(p, rows, cols) - 1
        board_high = np.ones((len(BOARD_CHANNELS), p, rows, cols), dtype=np.int8)
        board_high[9] = n - 1
        kinds, traits = len(PieceType) - 1, len(Trait) - 1
        own_high = np.array([1, kinds, traits, p - 1, rows - 1, cols - 1], dtype=np.int32)
        enemy_high = np.array([1, n - 1, kinds, p - 1, rows - 1, cols - 1], dtype=np.int32)
        power = self.slots * max(1, max(int(s) for s in rules.strength_table))
        event_high = np.array(
            [
                {
                    "z": big,
                    "y": big,
                    "x": big,
                    "attack": power,
                    "defence": power,
                    "outcome": 3,
                    "victim": n - 1,
                    "reason": 3,
                    "by": n - 1,
                }.get(name, 1)
                if "landing" not in name
                else big
                for name in EVENT_COLUMNS
            ],
            dtype=np.int32,
        )
        return spaces.Dict(
            {
                "observation": spaces.Dict(
                    {
                        "board": spaces.Box(0, board_high, dtype=np.int8),
                        "own": spaces.Box(0, np.tile(own_high, (self.slots, 1)), dtype=np.int32),
                        "enemies": spaces.Box(
                            0, np.tile(enemy_high, (self.slots, 1)), dtype=np.int32
                        ),
                        "events": spaces.Box(
                            np.tile(_EVENT_EMPTY, (n, 1)),
                            np.tile(event_high, (n, 1)),
                            dtype=np.int32,
                        ),
                        "players": spaces.Box(0, 1, (n,), dtype=np.int8),
                        "scalars": spaces.Box(-1.0, np.inf, (len(SCALARS),), dtype=np.float32),
                    }
                ),
                "action_mask": spaces.Box(0, 1, (self.actions,), dtype=np.int8),
            }
        )


def _last_instant(events: Sequence[Event]) -> list[int]:
    """The players eliminated at the last instant of a turn's events (R10 "all eliminated")."""
    out = [e for e in events if isinstance(e, Eliminated)]
    if not out:
        return []
    last = max(e.at for e in out)
    return [e.player for e in out if e.at == last]
