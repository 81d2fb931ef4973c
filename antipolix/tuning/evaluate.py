"""Fitness games: who plays whom, on which seeds, in which seat, played in this process or on
Ray, and scored.

A generation's games (:func:`schedule`): every entry (each CMA-ES candidate, and the generation's
mean) plays the same ``games`` games. With ``P`` players, game ``j`` belongs to the ``j // P``-th
group (a "pair" at two players), the entry sits in seat ``j % P`` (seats rotated), and every game
of a group plays from the same seed, ``SeedSequence(seed, spawn_key=(1, generation, group))``:
common random numbers, so that two entries' scores differ by their play, not by their luck.
Groups alternate between the hand-set planner (:class:`~antipolix.agents.PlannerAgent`, even
groups) and the hall of fame (the means of the last generations, odd groups, in turn); the
group's opponent takes every other seat. With an empty hall (generation 0), every group is
against the planner. A study with ``mirror`` makes every third group a table of the entry
alone (every seat; one game, seen from each seat in turn): with a ``draw`` below 1/2, an entry
whose copies sit still until they all offer a draw scores less there than one whose games end.

An outcome is the entry's finishing place (R10, R11) against each of the other ``P - 1`` seats:
ahead, level or behind (at two players: a win, a draw or a loss). Score:
``(ahead + draw * level) / meetings``, with ``draw`` the study's value of a level meeting (by
default 1/2: ``(wins + draws / 2) / games`` at two players). A lower ``draw`` makes a game that
ends without a winner (R9 NUL, the turn limit) cost the entry: at more than two players a table
that sits still until everyone offers a draw is otherwise a safe half for every seat.

The games are played whole in compiled code (:func:`antipolix.autoplay.play_games`), in chunks
of games: one compiled call per chunk, one Ray task per chunk. An outcome depends only on its
game's specification (:class:`Match`), never on the chunking or the number of workers (R12).
"""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, NamedTuple

import numpy as np

from antipolix.agents import Agent, PlannerAgent, TunedAgent
from antipolix.agents.planner import WEIGHT_NAMES
from antipolix.autoplay import Played, play_games, warm
from antipolix.checks import is_int, is_plain_number
from antipolix.errors import AntipolixError
from antipolix.ladder.ratings import finishing_places
from antipolix.limits import check_seed, check_size
from antipolix.rules import Rules
from antipolix.stats import wilson_interval
from antipolix.tuning.space import TuningError

GAMES_BRANCH = 1  # generation g's pair p: SeedSequence(seed, spawn_key=(1, g, p))
CHECK_BRANCH = 2  # the head-to-head check's pair p: SeedSequence(seed, spawn_key=(2, p))
Outcome = tuple[int, int, int]  # the entry's meetings with the other seats: ahead, level, behind
WIN: Outcome = (1, 0, 0)  # the two-player outcomes
DRAW: Outcome = (0, 1, 0)
LOSS: Outcome = (0, 0, 1)
DRAW_VALUE = 0.5  # what a level meeting scores by default (a win scores 1)
PLANNER = 0  # opponent 0 of every batch: the hand-set planner
SELF = -1  # the opponent of a match against copies of the entry itself
MIN_CHUNK = 8  # games per Ray task at least (never one tiny game per task)
SERIAL_CHUNK = 16  # games per compiled call in this process (the progress bar moves)
TASKS_PER_WORKER = 4  # a generation is cut into about this many tasks per worker

Vector = tuple[float, ...]  # a full weight vector (WEIGHTS order)


def default_rules(players: int = 2) -> Rules:
    """``players`` players (default two) on the default board, think times drawn by the engine
    (R7) so that no weight setting gains on the clock."""
    return Rules(players=players, think_times="drawn")


def check_rules(rules: object) -> Rules:
    """``rules`` for fitness games: a :class:`Rules` within the size limits."""
    if not isinstance(rules, Rules):
        raise TuningError(f"rules must be a Rules, got {rules!r}")
    try:
        check_size(rules)
    except AntipolixError as exc:
        raise TuningError(str(exc)) from None
    return rules


class Match(NamedTuple):
    """One game: entry ``entry`` against opponent ``opponent`` (in every other seat), the entry
    in seat ``seat``, from ``SeedSequence(seed, spawn_key=key)``."""

    entry: int
    opponent: int
    seat: int
    key: tuple[int, ...]


@dataclass(frozen=True)
class Batch:
    """What every task of a batch needs, shipped once: the rules, the root seed, the entries'
    weight vectors (each plays as a :class:`TunedAgent`) and the opponents' (``None``: the
    hand-set :class:`PlannerAgent`; a vector: a TunedAgent)."""

    rules: Rules
    seed: int
    entries: tuple[Vector, ...]
    opponents: tuple[Vector | None, ...]


def tuned(vector: Sequence[float]) -> TunedAgent:
    """The tuned agent (doctrine army) with every weight set from ``vector``."""
    return TunedAgent(weights=dict(zip(WEIGHT_NAMES, (float(v) for v in vector), strict=True)))


def schedule(
    games: int,
    generation: int,
    entries: int,
    hall: int,
    players: int = 2,
    mirror: bool = False,
) -> list[Match]:
    """Generation ``generation``'s games: ``games`` per entry (a multiple of ``players``), the
    same for every entry (see the module docstring); opponent 0 is the planner, 1 … ``hall``
    the hall of fame. With ``mirror``, every third group is the entry against copies of
    itself (:data:`SELF`, every seat), so that a table of the entry alone must end its games.

    >>> [(m.opponent, m.seat, m.key) for m in schedule(4, 7, 1, 1)]
    [(0, 0, (1, 7, 0)), (0, 1, (1, 7, 0)), (1, 0, (1, 7, 1)), (1, 1, (1, 7, 1))]
    >>> [(m.opponent, m.seat, m.key[2]) for m in schedule(8, 0, 1, 1, players=4)][3:5]
    [(0, 3, 0), (1, 0, 1)]
    """
    out = []
    cycle = 3 if mirror else 2  # planner, hall of fame (or the planner), [itself]
    for entry in range(entries):
        for j in range(games):
            group = j // players
            kind = group % cycle
            opponent = (
                SELF
                if kind == 2
                else PLANNER
                if hall == 0 or kind == 0
                else 1 + (group // cycle) % hall
            )
            out.append(Match(entry, opponent, j % players, (GAMES_BRANCH, generation, group)))
    return out


def outcome(played: Played, seat: int, players: int) -> Outcome:
    """The player in ``seat``'s meetings with every other seat: how many it finished ahead of,
    level with and behind (finishing places, R10 and R11)."""
    r = played.result
    places = finishing_places(r.winner, r.elimination_order, r.reason.name.lower(), players)
    mine = places[seat]
    others = [p for s, p in enumerate(places) if s != seat]
    return (
        sum(p > mine for p in others),
        sum(p == mine for p in others),
        sum(p < mine for p in others),
    )


def play_matches(batch: Batch, matches: Sequence[Match]) -> list[Outcome]:
    """Play ``matches`` in one compiled call; per match the entry's :func:`outcome`. A Ray
    task."""
    players = batch.rules.players
    entries = [tuned(v) for v in batch.entries]
    opponents: list[Agent] = [PlannerAgent() if v is None else tuned(v) for v in batch.opponents]
    games: list[tuple[list[Agent], np.random.SeedSequence]] = []
    where = []  # each match's game; a table of the entry alone is one game, seen from each seat
    alone: dict[tuple[int, tuple[int, ...]], int] = {}
    for m in matches:
        if m.opponent == SELF and (m.entry, m.key) in alone:
            where.append(alone[m.entry, m.key])
            continue
        if m.opponent == SELF:
            alone[m.entry, m.key] = len(games)
            seats: list[Agent] = [entries[m.entry]] * players
        else:
            seats = [opponents[m.opponent]] * players  # an agent only configures its seats here
            seats[m.seat] = entries[m.entry]
        where.append(len(games))
        games.append((seats, np.random.SeedSequence(batch.seed, spawn_key=m.key)))
    played_games = play_games(batch.rules, games)
    played = [played_games[i] for i in where]
    out = []
    for m, p in zip(matches, played, strict=True):
        if p is None:
            raise TuningError(
                f"game {m.key} cannot be played: the engine refuses an army under these rules "
                "(antipolix.play.play_game with the same agents and seed says why)"
            )
        out.append(outcome(p, m.seat, players))
    return out


@dataclass(frozen=True)
class Tally:
    """An entry's meetings: ahead (won), level (drawn), behind (lost), in all and in the games
    against the planner alone; ``draw`` is what a level meeting scores (a win scores 1)."""

    record: tuple[int, int, int]
    planner: tuple[int, int, int]
    draw: float = DRAW_VALUE

    @property
    def score(self) -> float:
        """(ahead + draw * level) / meetings: (wins + draws / 2) / games at two players with
        the default ``draw``."""
        return _score(self.record, self.draw)

    @property
    def planner_score(self) -> float:
        return _score(self.planner, self.draw)


def _score(record: tuple[int, int, int], draw: float) -> float:
    w, d, lost = record
    n = w + d + lost
    return (w + draw * d) / n if n else math.nan


def check_draw(draw: object) -> float:
    """The value of a level meeting, a number from 0 to 1/2 (:class:`TuningError` otherwise)."""
    if not is_plain_number(draw) or not 0 <= draw <= DRAW_VALUE:
        raise TuningError(f"draw must be a number from 0 to 0.5 (what a draw scores), got {draw!r}")
    return float(draw)


def tally(
    matches: Sequence[Match], outcomes: Sequence[Outcome], entries: int, draw: float = DRAW_VALUE
) -> list[Tally]:
    """Each entry's :class:`Tally` from its matches' outcomes, a level meeting scoring
    ``draw``."""
    counts = np.zeros((entries, 2, 3), dtype=np.int64)  # [entry, all/planner, ahead/level/behind]
    for m, o in zip(matches, outcomes, strict=True):
        counts[m.entry, 0] += o
        if m.opponent == PLANNER:
            counts[m.entry, 1] += o
    return [
        Tally(
            (int(c[0, 0]), int(c[0, 1]), int(c[0, 2])),
            (int(c[1, 0]), int(c[1, 1]), int(c[1, 2])),
            draw,
        )
        for c in counts
    ]


OnGames = Callable[[int], None]  # told how many more games finished
Player = Callable[[Any, Sequence[Any]], list[Any]]  # a batch and its games → their outcomes


class Pool:
    """Where games are played: in this process (``workers`` 0 or 1 without an ``address``, or
    when Ray cannot be imported), or on Ray (this machine, or the cluster at ``address``),
    started on entry and shut down on exit if this pool started it."""

    def __init__(
        self,
        workers: int | None = None,
        address: str | None = None,
        note: Callable[[str], None] | None = None,
    ) -> None:
        check_workers(workers, address)
        self.workers = workers
        self.address = address
        self.note = note
        self.serial = address is None and (workers is not None and workers <= 1)
        if not self.serial and address is None:
            try:
                import ray  # noqa: F401
            except ImportError:
                self._say("antipolix: Ray cannot be imported; playing in this process")
                self.serial = True
        self.capacity = 1
        self._started = False
        self._warmed: set[Rules] = set()

    def _say(self, text: str) -> None:
        (self.note or (lambda t: print(t, file=sys.stderr)))(text)

    def __enter__(self) -> Pool:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._started:
            import ray

            ray.shutdown()
            self._started = False

    def start(self, rules: Rules, agents: Sequence[Agent] | None = None) -> None:
        """Load the compiled core in this process (compiled once after an install, else read
        from the disk cache) before Ray's workers need it, by a game of ``agents`` (one per
        seat; default the tuned agent and planners), then start or join Ray."""
        if self.serial or rules in self._warmed:
            return
        if self.note is not None:
            where = "on this machine" if self.address is None else f"at {self.address}"
            self.note(f"antipolix: loading the compiled core, then Ray {where}")
        if agents is None:
            agents = [TunedAgent(), *(PlannerAgent() for _ in range(rules.players - 1))]
        with contextlib.suppress(AntipolixError):  # a game that cannot be played: tasks say why
            warm(rules, agents)
        self._warmed.add(rules)
        if not self._started:
            from antipolix.runner.on_ray import capacity, connect

            self._started = connect(self.address, self.workers)  # False: Ray was running
            self.capacity = capacity(self.workers)

    def play(
        self,
        batch: Any,
        matches: Sequence[Any],
        on_games: OnGames | None = None,
        play: Player | None = None,
    ) -> list[Any]:
        """Every match's outcome, in order, however the games are spread. ``play`` plays a
        chunk of matches of ``batch`` (a top-level function, shipped to Ray's workers;
        default :func:`play_matches`, the tuning games); ``batch.rules`` are the games'."""
        player: Player = play_matches if play is None else play
        if self.serial:
            out: list[Any] = []
            for start in range(0, len(matches), SERIAL_CHUNK):
                part = player(batch, matches[start : start + SERIAL_CHUNK])
                out.extend(part)
                if on_games is not None:
                    on_games(len(part))
            return out
        self.start(batch.rules)
        return self._on_ray(batch, matches, on_games, player)

    def _on_ray(
        self, batch: Any, matches: Sequence[Any], on_games: OnGames | None, player: Player
    ) -> list[Any]:
        import ray
        from ray.exceptions import RayTaskError

        from antipolix.runner.on_ray import MAX_RETRIES

        size = chunk_size(len(matches), self.capacity)
        task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(player)
        shipped = ray.put(batch)
        pending: dict[Any, int] = {}
        for start in range(0, len(matches), size):
            pending[task.remote(shipped, list(matches[start : start + size]))] = start
        out: list[Any] = [None] * len(matches)
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    start = pending.pop(ref)
                    try:
                        part: list[Any] = ray.get(ref)
                    except RayTaskError as exc:
                        if isinstance(exc.cause, AntipolixError):
                            raise TuningError(str(exc.cause)) from None
                        raise
                    out[start : start + len(part)] = part
                    if on_games is not None:
                        on_games(len(part))
        finally:
            pending.clear()
            del shipped
        return out


def chunk_size(games: int, capacity: int) -> int:
    """Games per Ray task: about :data:`TASKS_PER_WORKER` tasks per worker, at least
    :data:`MIN_CHUNK` games each.

    >>> chunk_size(624, 2), chunk_size(12, 2)
    (78, 8)
    """
    return max(MIN_CHUNK, math.ceil(games / (TASKS_PER_WORKER * max(1, capacity))))


def check_workers(workers: object, address: object) -> None:
    if workers is not None and (not is_int(workers) or workers < 0):
        raise TuningError(f"workers must be None or an integer >= 0, got {workers!r}")
    if address is not None:
        if not isinstance(address, str):
            raise TuningError(f"a Ray address is 'auto' or HOST:PORT, got {address!r}")
        from antipolix.runner.on_ray import host_port

        try:
            host_port(address)
        except AntipolixError as exc:
            raise TuningError(str(exc)) from None
        if workers == 0:
            raise TuningError("workers=0 plays in this process; an address needs Ray")


# -- the head-to-head check ------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """Weights (as the tuned agent) against the hand-set planner: wins, draws, losses, and the
    win rate of decided games with its 95 % Wilson interval. At more than two players the
    planner takes every other seat and each planner is a meeting: won when the tuned agent
    finished ahead of it, drawn when level, lost when behind."""

    weights: dict[str, float]
    games: int
    wins: int
    draws: int
    losses: int
    seed: int
    players: int = 2

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def rate(self) -> float:
        """Wins over decided games (NaN when none was decided)."""
        return self.wins / self.decided if self.decided else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        lo, hi = wilson_interval(self.wins, self.decided)
        return float(lo), float(hi)

    def line(self) -> str:
        lo, hi = self.interval
        if self.players == 2:
            return (
                f"{self.games} games against the hand-set planner (seats alternated): "
                f"{self.wins} won, {self.draws} drawn, {self.losses} lost; win rate of decided "
                f"games {self.rate:.1%} (95 % interval {lo:.1%}–{hi:.1%})"
            )
        return (
            f"{self.games} {self.players}-player games against the hand-set planner in every "
            f"other seat (seats rotated): finished ahead of a planner {self.wins} times, level "
            f"{self.draws}, behind {self.losses}; ahead in {self.rate:.1%} of the meetings "
            f"that were not level (95 % interval {lo:.1%}–{hi:.1%})"
        )


def check_weights(
    weights: Mapping[str, float] | None = None,
    games: int = 400,
    seed: int = 0,
    *,
    rules: Rules | None = None,
    workers: int | None = None,
    address: str | None = None,
    progress: bool | Callable[[int, int], None] = False,
    pool: Pool | None = None,
) -> Check:
    """``games`` games of the tuned agent with ``weights`` (on top of the committed ones; None:
    the committed ones) against the hand-set planner (in every other seat), seats rotated, group
    ``p`` of ``players`` games from ``SeedSequence(seed, spawn_key=(2, p))`` (a branch no
    tuning game uses). ``progress``: True
    for a progress bar, or a function called with (games done, games). ``pool``: a
    :class:`Pool` to play in (several checks, one Ray), in place of ``workers`` and
    ``address``."""
    rules = check_rules(default_rules() if rules is None else rules)
    if not is_int(games) or games < 1:
        raise TuningError(f"games must be an integer >= 1, got {games!r}")
    seed = checked_seed(seed)
    try:
        agent = TunedAgent(weights=weights)
    except ValueError as exc:
        raise TuningError(str(exc)) from None
    n = rules.players
    vector = tuple(float(v) for v in agent.weights_for(n))
    matches = [Match(0, PLANNER, j % n, (CHECK_BRANCH, j // n)) for j in range(games)]
    report: Callable[[int, int], None] | None = None
    bar = None
    if progress is True:
        from antipolix.runner.progress import Bar

        report = bar = Bar()
    elif callable(progress):
        report = progress
    done = 0

    def tick(n: int) -> None:
        nonlocal done
        done += n
        if report is not None:
            report(done, games)

    try:
        with contextlib.ExitStack() as stack:
            if pool is None:
                pool = stack.enter_context(
                    Pool(workers, address, None if bar is None else bar.note)
                )
            if bar is not None:
                bar(0, games)
                bar.describe("check")
            outcomes = pool.play(Batch(rules, seed, (vector,), (None,)), matches, tick)
    finally:
        if bar is not None:
            bar.close()
    (t,) = tally(matches, outcomes, 1)
    w, d, lost = t.record
    return Check(dict(zip(WEIGHT_NAMES, vector, strict=True)), games, w, d, lost, seed, n)


def checked_seed(seed: object) -> int:
    try:
        return check_seed(seed)
    except AntipolixError as exc:
        raise TuningError(str(exc)) from None


__all__ = [
    "Batch",
    "Check",
    "Match",
    "Pool",
    "Tally",
    "check_draw",
    "check_weights",
    "default_rules",
    "play_matches",
    "schedule",
    "tally",
]
