"""A tournament: play every sitting (:mod:`antipolix.ladder.schedule`) through the batch runner,
in this process or on Ray, then fit the ratings and write the reports."""

from __future__ import annotations

import math
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from antipolix import games as registry
from antipolix.agents import Agent
from antipolix.checks import is_int
from antipolix.errors import AntipolixError
from antipolix.games import host
from antipolix.games.protocol import GameAgent
from antipolix.ladder.folder import (
    LINEUP_GAMES,
    check_folder,
    describe,
    read_manifest,
    write_manifest,
)
from antipolix.ladder.ratings import BOOTSTRAP, PRIOR_SD, LadderError, RatingFit, fit
from antipolix.ladder.report import summary, usage_table, write_reports
from antipolix.ladder.schedule import (
    Sitting,
    check_lineup_games,
    check_seating,
    lineup_games,
    lineup_key,
    lineups,
    schedule,
    seating_text,
)
from antipolix.limits import check_seed
from antipolix.rules import Rules
from antipolix.runner import Results
from antipolix.runner.on_ray import host_port
from antipolix.runner.run import StudyJob, simulate_studies
from antipolix.runner.store import Store
from antipolix.runner.study import make_study
from antipolix.runner.variants import check_game

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped, unused-ignore]

Progress = Callable[[int, int], None]


class Ladder:
    """A tournament's games and ratings.

    ``ratings`` (one row per agent, best first: ``rank``, ``agent``, ``rating``, ``low``,
    ``high`` (95 %), ``games``, ``wins``, ``draws``, ``losses``, ``separated``), ``scores``
    (the win-rate matrix of decided meetings), ``usage`` (pieces bought, events), ``games``
    (every game's row, with its ``lineup`` and seat ``order``), ``fit`` (:class:`RatingFit`),
    ``manifest`` (what the tournament is). ``played``/``before``: games played by this call /
    found on disk. :meth:`open` reads a tournament folder again.
    """

    def __init__(
        self,
        path: Path,
        manifest: dict[str, Any],
        games: pd.DataFrame,
        fitted: RatingFit,
        *,
        played: int = 0,
        before: int = 0,
        seconds: float = math.nan,
        keep: object = None,
    ) -> None:
        self.path = path
        self.manifest = manifest
        self.games = games
        self.fit = fitted
        self.usage = usage_table(games, fitted.table["agent"].tolist())
        self.played = played
        self.before = before
        self.seconds = seconds
        self._keep = keep  # a TemporaryDirectory that lives as long as this ladder

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        bootstrap: int = BOOTSTRAP,
        prior_sd: float = PRIOR_SD,
    ) -> Ladder:
        """The ladder of the games found in a tournament folder (complete or not)."""
        folder = Path(path)
        manifest = read_manifest(folder)
        sittings = [_sitting(s) for s in manifest["plan"]["sittings"]]
        games = _games(folder, sittings)
        if games.empty:
            raise LadderError(f"{folder} holds no finished game yet")
        fitted = fit(
            games,
            agents=manifest["agents"],
            bootstrap=bootstrap,
            prior_sd=prior_sd,
            seed=int(manifest["seed"]),
        )
        return cls(folder, manifest, games, fitted, before=len(games))

    @property
    def ratings(self) -> pd.DataFrame:
        return self.fit.table

    @property
    def scores(self) -> pd.DataFrame:
        return self.fit.scores

    @property
    def agents(self) -> list[str]:
        return list(self.manifest["agents"])

    @property
    def players(self) -> int:
        return int(self.manifest["players"])

    @property
    def seating(self) -> str:
        """``"all"`` (every seat order) or ``"rotation"`` (:mod:`antipolix.ladder.schedule`)."""
        return str(self.manifest["seating"])

    @property
    def games_per_lineup(self) -> int:
        """The games of a lineup not named in :attr:`lineup_games`."""
        return int(self.manifest["games_per_lineup"])

    @property
    def lineup_games(self) -> dict[str, int]:
        """The games of every lineup (agents comma-separated), as the tournament plays them."""
        agents, k = self.agents, self.players
        counts = lineup_games(agents, k, self.games_per_lineup, self.manifest.get(LINEUP_GAMES))
        return {lineup_key(t): n for t, n in zip(lineups(agents, k), counts, strict=True)}

    @property
    def total_games(self) -> int:
        """The games of the whole tournament, played or not."""
        return sum(self.lineup_games.values())

    @property
    def game(self) -> str:
        """The registry name of the game played (:mod:`antipolix.games`)."""
        return str(self.manifest.get("game", registry.DEFAULT))

    @property
    def rules(self) -> Any:
        """The tables' rules: a :class:`~antipolix.Rules`, or the game's configuration."""
        return registry.game(self.game).config_from_dict(self.manifest["rules"])

    @property
    def complete(self) -> bool:
        return len(self.games) == self.total_games

    def description(self) -> str:
        """What was played, in a sentence or two."""
        agents, k = self.agents, self.players
        tables = len(lineups(agents, k))
        total = self.total_games
        shown = len(self.games)
        chosen = self.manifest.get(LINEUP_GAMES) or {}
        more = "; ".join(f"{key.replace(',', ', ')}: {n}" for key, n in chosen.items())
        game = registry.game(self.game)
        overrides = " ".join(host.overrides(game, self.rules))
        played = "" if self.game == registry.DEFAULT else f"{game.info.title}: "
        drawn = " (think times drawn by the engine, R7)" if self.game == registry.DEFAULT else ""
        return (
            played + f"{len(agents)} agents ({', '.join(agents)}) at {k}-player tables: {tables} "
            f"lineup{'s' if tables != 1 else ''} (every {k} distinct agents), "
            f"{self.games_per_lineup} games each"
            + (f" (but {more})" if more else "")
            + ", "
            + ("seats rotated; " if self.seating == "rotation" else "in every seat order; ")
            + (f"{total} games" if shown == total else f"{shown} of {total} games so far")
            + f", seed {self.manifest['seed']}. Rules: {overrides or 'the defaults'}"
            + drawn
            + "."
        )

    def run_line(self) -> str:
        """How this call went: games played, time, games found done."""
        rate = self.played / self.seconds if self.seconds > 0 else math.nan
        text = f"played {self.played} games in {self.seconds:.1f} s"
        if self.played:
            text += f" ({rate:.2f} games/s)"
        return text + (f"; {self.before} were already done" if self.before else "")

    def summary(self) -> str:
        """The ladder as plain text: what was played, ratings, scores, notes."""
        return summary(self.fit, self.description())

    def write_reports(self, folder: str | Path | None = None) -> list[Path]:
        """Write ``ratings.csv``, ``ratings.md``, ``ratings.png``, ``gaps.csv``, ``scores.csv``
        and ``usage.csv`` to ``folder`` (default: the tournament folder); the paths written."""
        target = self.path if folder is None else Path(folder)
        seats = seating_text(self.seating, self.players)
        return write_reports(target, self.fit, self.usage, self.description(), seats)

    def __repr__(self) -> str:
        return f"Ladder({str(self.path)!r}: {len(self.agents)} agents, {len(self.games)} games)"


def tournament(
    agents: Sequence[Agent | str] | str,
    games: int,
    players: int = 2,
    *,
    game: str = registry.DEFAULT,
    rules: Rules | None = None,
    seed: int = 0,
    out: str | Path | None = None,
    workers: int | None = None,
    address: str | None = None,
    chunk_size: int | None = None,
    bootstrap: int = BOOTSTRAP,
    prior_sd: float = PRIOR_SD,
    progress: bool | Progress = False,
    report: bool = True,
    seating: str = "all",
    lineup_games: Mapping[str | Sequence[str], int] | None = None,
) -> Ladder:
    """Play a rating tournament and fit its ladder.

    - ``agents``: agent names (``"search:rollouts=16"``: :func:`antipolix.agents.agent_named`),
      agent objects, or one comma-separated text; at least two, all different (by
      :func:`~antipolix.agents.agent_label`).
    - ``games``: games *per lineup*; a lineup is each combination of ``players`` distinct
      agents, and its games are split over its seat orders (a multiple of ``players`` seats
      every agent in every seat equally often).
    - ``seating``: ``"all"`` (every seat order: who sits beside whom on the ring of home zones,
      R3, varies too; at four players 12 games per lineup balance it) or ``"rotation"`` (the
      ``players`` rotations only), see :mod:`antipolix.ladder.schedule`.
    - ``lineup_games``: games for chosen lineups instead of ``games``, e.g.
      ``{"greedy,planner": 2000}`` (a lineup's agents comma-separated, in any order): more games
      where the agents are fast, or where a gap between two agents needs them. They grow and
      never shrink, as ``games`` does.
    - ``game``: the game played (a registry name, :mod:`antipolix.games`; AntipoliX by
      default): its agents, its rules, its finishing places.
    - ``rules``: the rules (default :class:`~antipolix.Rules`, or the game's default
      configuration), with ``players`` set to ``players`` and, for AntipoliX,
      ``think_times="drawn"`` (R7) always, so that no agent gains on the clock.
    - ``seed``, ``workers``, ``address``, ``chunk_size``, ``progress``: as in
      :func:`antipolix.simulate` (``workers=0``: in this process, no Ray).
    - ``out``: the tournament folder (``tournament.json``, the games under ``games/`` as
      resumable runner studies, and with ``report`` the report files); a second call with the
      same arguments plays only what is missing, one with more ``games`` adds them. Without it
      the games go to a temporary folder that lives as long as the returned :class:`Ladder`.
    - ``bootstrap``, ``prior_sd``: the rating fit's (:func:`antipolix.ladder.fit`).

    Bad arguments raise :class:`~antipolix.errors.AntipolixError` (mostly
    :class:`LadderError`) before any game is played or anything is written.
    """
    began = time.perf_counter()
    plan = _prepare(
        agents, games, players, rules, seed, out, workers, address, chunk_size, seating,
        lineup_games, game,
    )  # fmt: skip
    if not is_int(bootstrap) or bootstrap < 0:
        raise LadderError(f"bootstrap must be an integer >= 0, got {bootstrap!r}")
    if not isinstance(prior_sd, (int, float)) or not 0 < prior_sd < math.inf:
        raise LadderError(f"prior_sd must be a positive number of Elo points, got {prior_sd!r}")
    write_manifest(plan.folder, plan.spec, plan.sittings)
    played = _play(plan, workers, address, chunk_size, progress)
    frame = _games(plan.folder, plan.sittings)
    fitted = fit(frame, agents=plan.labels, bootstrap=bootstrap, prior_sd=prior_sd, seed=seed)
    ladder = Ladder(
        plan.folder,
        read_manifest(plan.folder),
        frame,
        fitted,
        played=played,
        before=len(frame) - played,
        seconds=time.perf_counter() - began,
        keep=plan.keep,
    )
    if report and out is not None:
        ladder.write_reports()
    return ladder


@dataclass
class _Plan:
    """A checked tournament: what to play and where; nothing written yet."""

    rules: Any
    agents: list[Any]
    labels: list[str]
    sittings: list[Sitting]
    spec: dict[str, Any]
    folder: Path
    keep: object = None
    game: str = registry.DEFAULT


def _prepare(
    agents: Sequence[Agent | str] | str,
    games: int,
    players: int,
    rules: Rules | None,
    seed: int,
    out: str | Path | None,
    workers: int | None,
    address: str | None,
    chunk_size: int | None,
    seating: str,
    lineup_games: object = None,
    game: str = registry.DEFAULT,
) -> _Plan:
    """Every check, in the order a user fixes them; nothing written."""
    game = check_game(game)
    played = registry.game(game)
    bots = _agents(played, agents)
    labels = [host.agent_label(played, a) for a in bots]
    low, high = played.info.min_players, played.info.max_players
    if not is_int(players) or not low <= players <= high:
        raise LadderError(f"players must be an integer from {low} to {high}, got {players!r}")
    if players > len(bots):
        raise LadderError(
            f"{players}-player tables need at least {players} different agents, got "
            f"{len(bots)} ({', '.join(labels)})"
        )
    if not is_int(games) or games < 1:
        raise LadderError(f"games (per lineup) must be an integer >= 1, got {games!r}")
    check_seating(seating)
    seed = check_seed(seed)
    _check_run_options(workers, address, chunk_size)
    table = _table_rules(played, rules, players)

    def label(name: str) -> str:  # the ladder label of an agent name (search:rollouts=8)
        return host.agent_label(played, host.make_agent(played, name))

    more = check_lineup_games(labels, players, lineup_games, label)
    sittings = schedule(labels, players, games, seed, seating, more)
    specs = [host.agent_record(played, a) for a in bots]
    spec = describe(labels, specs, players, games, seed, table, seating, more, game)
    keep = tempfile.TemporaryDirectory(prefix="antipolix-tournament-") if out is None else None
    folder = Path(keep.name) / "ladder" if keep is not None else Path(out or ".")
    check_folder(folder, spec)
    for s in sittings:
        _check_sitting(game, table, bots, s, folder)
    return _Plan(table, bots, labels, sittings, spec, folder, keep, game)


def _agents(played: Any, agents: Sequence[Any] | str) -> list[Any]:
    if isinstance(agents, str):
        agents = [a.strip() for a in agents.split(",")]
    kind = Agent if played.info.name == registry.DEFAULT else GameAgent
    if isinstance(agents, kind) or not isinstance(agents, Sequence):
        raise LadderError(f"agents must be a list of agent names or agents, got {agents!r}")
    bots: list[Any] = []
    for a in agents:
        if isinstance(a, str):
            bots.append(host.make_agent(played, a))
        elif isinstance(a, kind):
            bots.append(a)
        else:
            raise LadderError(
                f"an agent is a name (e.g. 'greedy') or an {kind.__name__}, got {a!r}"
            )
    labels = [host.agent_label(played, a) for a in bots]
    for i, label in enumerate(labels):
        if label in labels[:i]:
            j = labels.index(label)
            raise LadderError(
                f"agents {j + 1} and {i + 1} are the same agent ({label}); a ladder rates "
                "different agents (other parameters make another agent)"
            )
    if len(bots) < 2:
        raise LadderError(f"a tournament needs at least two agents, got {len(bots)}")
    return bots


def _table_rules(played: Any, rules: Any, players: int) -> Any:
    base = played.config() if rules is None else rules
    kind = type(played.config())
    if not isinstance(base, kind):
        what = "Rules" if kind is Rules else f"configuration of {played.info.name}"
        raise LadderError(f"rules must be a {what}, got {type(base).__name__}")
    return host.table_config(played, base, players)


def _check_run_options(workers: Any, address: Any, chunk_size: Any) -> None:
    if workers is not None and (not is_int(workers) or workers < 0):
        raise LadderError(f"workers must be None or an integer >= 0, got {workers!r}")
    if chunk_size is not None and (not is_int(chunk_size) or chunk_size < 1):
        raise LadderError(f"chunk_size must be None or an integer >= 1, got {chunk_size!r}")
    if address is not None:
        if not isinstance(address, str):
            raise LadderError(f"a Ray address is 'auto' or HOST:PORT, got {address!r}")
        host_port(address)
        if workers == 0:
            raise LadderError("workers=0 plays in this process; an address needs Ray")


def _check_sitting(game: str, rules: Any, agents: Sequence[Any], s: Sitting, folder: Path) -> None:
    """Refuse, naming the lineup, what the runner would refuse for this sitting (its folder
    holds another study or stray chunk files, agents that cannot play these rules)."""
    seated = [agents[i] for i in s.agents]
    try:
        study, _ = make_study(rules, seated, s.games, s.seed, False, False, game)
        store = Store(folder / s.folder, study)
        store.check()
        store.missing()
    except AntipolixError as exc:
        raise LadderError(f"lineup {' v '.join(s.seats)}: {exc}") from None


def _play(
    plan: _Plan,
    workers: int | None,
    address: str | None,
    chunk_size: int | None,
    progress: bool | Progress,
) -> int:
    """Play every sitting's missing games in one pool (:func:`simulate_studies`: Ray, when
    used, is started or joined once, and only if a game is missing); the number played."""
    jobs = [
        StudyJob(
            plan.rules,
            [plan.agents[i] for i in s.agents],
            s.games,
            s.seed,
            plan.folder / s.folder,
            plan.game,
        )
        for s in plan.sittings
    ]
    played = simulate_studies(
        jobs, workers=workers, address=address, chunk_size=chunk_size, progress=progress
    )
    return sum(played)


def _games(folder: Path, sittings: Sequence[Sitting]) -> pd.DataFrame:
    """Every finished game of the sittings, with its ``lineup`` and seat ``order``."""
    import pandas as pd

    parts = []
    for s in sittings:
        path = folder / s.folder
        if not path.is_dir():
            continue
        frame = Results.open(path).to_pandas()
        parts.append(frame.assign(lineup=s.lineup, order=s.order))
    if not parts:
        return pd.DataFrame(columns=["agents", "winner", "elimination_order", "reason"])
    return pd.concat(parts, ignore_index=True)


def _sitting(record: dict[str, Any]) -> Sitting:
    seats = tuple(str(a) for a in record["seats"])
    return Sitting(
        lineup=int(record["lineup"]),
        order=int(record["order"] if "order" in record else record["rotation"]),
        seats=seats,
        agents=(),
        games=int(record["games"]),
        seed=int(record["seed"]),
        folder=str(record["folder"]),
    )
