"""The meta at given costs: which armies an agent buys when it chooses its army to win, and the
equilibrium between the strongest of them.

The search is policy-space response oracles (PSRO, Lanctot et al. 2017) with CMA-ES as the
oracle. The population of armies starts with the agent's own (its army policy: the tuned
agent's doctrines); each *round*:

1. the *field* is the maximum-entropy Nash mixture of the population's empirical game
   (:mod:`antipolix.meta.nash`; at round 0 the agent's own armies alone);
2. CMA-ES (the ``cma`` package, as tuning uses it) searches the army box
   (:class:`~antipolix.meta.armies.ArmySpace`: every point decodes to a legal army, R3) for
   the army that does best against the field: every candidate of a generation, and the
   generation's mean, plays the same games (common random numbers): ``games`` games, the
   candidate in one seat (rotated), an army of the field in every other seat, field armies
   drawn for the seeds in proportion to their weights; the score is the share of the
   candidate's meetings with the other seats it finished ahead in (R10, R11: finishing
   places; a level meeting counts one half);
3. the round's *response*, the army of CMA-ES's final mean (its estimate of the optimum),
   plays ``check_games`` fresh games against the field: its score there, with a 95 %
   interval over games, is how far the field can be beaten;
4. a response that is not already in the population joins it, and plays ``pair_games`` games
   against every member (:func:`~antipolix.meta.play.pair_tables`: half the seats each, every
   seating), which fill its row of the empirical game.

After the last round the empirical game's maximum-entropy equilibrium is the *meta*: the armies
in its support, their weights and compositions. The last round's response was searched against
the equilibrium of every army before it, so its check score is the figure a designer reads as
"the best army against the meta" (Hearthstone's designers aim for the best deck at 53–56 %
against the field).

Every seat is the same agent; think times are drawn by the engine (R7, as in tournaments). The
study folder holds ``meta.json`` (the settings) and ``log.jsonl`` (every candidate, score,
response and pair record), rewritten atomically after each step: running again replays the log
(CMA-ES asked again and checked to the bit against it, as :mod:`antipolix.tuning` does) and
plays only what is missing; more ``rounds`` grow a study. Nothing is unpickled.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from antipolix.agents import Agent, GivenArmy, agent_label, agent_named
from antipolix.agents.army import ArmyPolicy
from antipolix.blas import replay_hint
from antipolix.checks import is_int, is_plain_number
from antipolix.codec import rules_to_dict, with_options
from antipolix.errors import AntipolixError
from antipolix.files import (
    check_creatable,
    compare_studies,
    locked_folder,
    read_json,
    read_json_lines,
    refuse_other_files,
    write_atomically,
)
from antipolix.limits import check_seed, check_size
from antipolix.meta.armies import (
    KINDS,
    Army,
    ArmySpace,
    MetaError,
    SettingError,
    army_from_names,
    army_names,
    army_text,
    counts,
    entropy,
    piece_shares,
    shares,
)
from antipolix.meta.nash import Equilibrium, maxent_nash
from antipolix.meta.play import (
    Armies,
    Finish,
    Record,
    Table,
    add,
    against_field,
    arrangements,
    field_members,
    meetings,
    play_pair,
    play_tables,
    score,
)
from antipolix.rules import Rules
from antipolix.tuning import cmaes
from antipolix.version import __version__

STUDY_FILE = "meta.json"
LOG_FILE = "log.jsonl"
STUDY_FORMAT = "antipolix-meta"
STUDY_VERSION = 1
OUTPUTS = ("armies.csv", "scores.csv", "rounds.csv", "report.md")
CMA_BRANCH, SEARCH_BRANCH, CHECK_BRANCH, PAIR_BRANCH, OWN_BRANCH, RESAMPLE_BRANCH = range(6)
RESAMPLES = 200  # resampled empirical games that say how sure the equilibrium is
PLAYED = 0.01  # the weight from which a resampled equilibrium counts an army as played
OWN_SAMPLES = 200  # the agent's own armies drawn to describe their composition
DOMINANT = 0.5  # a kind on which every army of the meta spends at least this share is flagged
UNCOMPARED = ("cma", "engine")
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class MetaSettings:
    """The size of an army search (module doc): ``rounds`` of ``generations`` CMA-ES
    generations of ``population`` candidates (None: cma's default, 10 for the 10-dimensional
    army box), ``games`` games per candidate (a multiple of the players), ``check_games``
    games of each round's response against the field (a multiple of the players),
    ``pair_games`` games per pair of armies of the empirical game (at least one per seating:
    6 at four players), ``sigma0`` CMA-ES's first step size in the unit box."""

    rounds: int = 4
    generations: int = 8
    population: int | None = None
    games: int = 24
    check_games: int = 96
    pair_games: int = 48
    sigma0: float = 0.3

    def checked(self, players: int) -> MetaSettings:
        """These settings, or a :class:`SettingError` saying which cannot compare armies."""
        for name in ("rounds", "generations"):
            value = getattr(self, name)
            if not is_int(value) or value < 1:
                raise SettingError(name, f"must be an integer >= 1, got {value!r}")
        if self.population is not None and (not is_int(self.population) or self.population < 2):
            raise SettingError(
                "population",
                f"must be an integer >= 2 (CMA-ES compares candidates), got {self.population!r}",
            )
        for name in ("games", "check_games"):
            value = getattr(self, name)
            if not is_int(value) or value < players or value % players:
                raise SettingError(
                    name,
                    f"must be a positive multiple of {players} (each seed is played with the army "
                    f"in every seat), got {value!r}: fewer games cannot compare armies",
                )
        seatings = len(arrangements(players))
        if not is_int(self.pair_games) or self.pair_games < seatings:
            raise SettingError(
                "pair_games",
                f"must be at least {seatings} (two armies meet in each of the {seatings} "
                f"seatings of {players} seats at least once), got {self.pair_games!r}: fewer "
                "games cannot compare armies",
            )
        if not is_plain_number(self.sigma0) or not 0 < self.sigma0 <= 0.5:
            raise SettingError(
                "sigma0", f"must be a number above 0 and at most 0.5, got {self.sigma0!r}"
            )
        return self

    def population_for(self, space: ArmySpace) -> int:
        return cmaes.popsize(space.dims) if self.population is None else int(self.population)

    def games_at_most(self, space: ArmySpace) -> int:
        """The games a search of these settings plays at most (every response new)."""
        per_round = self.generations * (self.population_for(space) + 1) * self.games
        pairs = self.rounds * (self.rounds + 1) // 2
        return self.rounds * (per_round + self.check_games) + pairs * self.pair_games


@dataclass(frozen=True)
class Member:
    """An army of the population: ``army`` (None for the agent's own army policy), ``label``,
    the point ``x`` it decodes from, the ``round`` it was found in (None: the agent's own)."""

    index: int
    label: str
    army: Army | None
    x: tuple[float, ...] | None = None
    round: int | None = None


@dataclass(frozen=True)
class Resampled:
    """How sure a meta's equilibrium is (:meth:`Meta.resampled`): over ``resamples``
    resampled empirical games, each army's share of the equilibria that play it (weight at
    least :data:`PLAYED`), and the effective number of armies' 2.5 %, median and 97.5 %."""

    resamples: int
    played: tuple[float, ...]
    effective: tuple[float, float, float]


def score_table(records: Sequence[Sequence[Record]]) -> np.ndarray[Any, np.dtype[np.float64]]:
    """``M[i, j]``: army ``i``'s share of its meetings with army ``j`` finished ahead (level
    counting one half, :func:`~antipolix.meta.play.score`) from the pair ``records``; 1/2 on
    the diagonal (NaN for a pair that never met)."""
    k = len(records)
    m = np.full((k, k), 0.5)
    for i in range(k):
        for j in range(k):
            if i != j:
                m[i, j] = score(records[i][j])
    return m


@dataclass
class Meta:
    """A finished army search (module doc).

    ``members``: the population, in order; ``records[i][j]``: army ``i``'s meetings with army
    ``j`` (ahead, level, behind); ``equilibrium``: the empirical game's maximum-entropy Nash
    equilibrium; ``rounds``: per round its field, response and check; ``log``: every line;
    ``compositions``: per member, its pieces and its points' shares by kind (the agent's own:
    the mean over :data:`OWN_SAMPLES` of its armies)."""

    rules: Rules
    agent: str
    settings: MetaSettings
    seed: int
    members: list[Member]
    records: list[list[Record]]
    equilibrium: Equilibrium
    rounds: list[dict[str, Any]]
    log: list[dict[str, Any]]
    compositions: list[dict[str, dict[str, float]]]
    played: int = 0
    games: int = 0
    seconds: float = 0.0
    out: Path | None = None
    pair_seeds: dict[tuple[int, int], list[Record] | None] = field(default_factory=dict)
    _resampled: dict[int, Resampled | None] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def scores(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        """``M[i, j]``: army ``i``'s share of its meetings with army ``j`` finished ahead (level
        counting one half); 1/2 on the diagonal."""
        return score_table(self.records)

    @property
    def support(self) -> list[Member]:
        return [self.members[i] for i in self.equilibrium.support]

    def resampled(self, resamples: int = RESAMPLES) -> Resampled | None:
        """How sure the equilibrium is: ``resamples`` empirical games, each pair's seeds drawn
        again with replacement (a bootstrap over the pair games, seeded by the study's seed),
        and their equilibria. None when the log does not keep every pair's records per seed
        (written before they were kept)."""
        if resamples in self._resampled:
            return self._resampled[resamples]
        k = len(self.members)
        pairs = [(i, j) for j in range(k) for i in range(j)]
        per_seed = [self.pair_seeds.get(p) or [] for p in pairs]
        if k < 2 or not all(per_seed):
            self._resampled[resamples] = None
            return None
        rng = np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(RESAMPLE_BRANCH,)))
        played = np.zeros(k, dtype=np.int64)
        effective = []
        for _ in range(resamples):
            m = np.full((k, k), 0.5)
            for (i, j), seeds in zip(pairs, per_seed, strict=True):
                total: Record = (0, 0, 0)
                for q in rng.integers(0, len(seeds), size=len(seeds)):
                    total = add(total, seeds[q])
                m[i, j] = score(total) if sum(total) else 0.5
                m[j, i] = 1.0 - m[i, j]
            eq = maxent_nash(m)
            played += np.asarray(eq.mixture) >= PLAYED
            effective.append(2**eq.entropy)
        low, mid, high = np.quantile(effective, [0.025, 0.5, 0.975])
        sure = Resampled(
            resamples,
            tuple(float(n) / resamples for n in played),
            (float(low), float(mid), float(high)),
        )
        self._resampled[resamples] = sure  # (the report and the CLI both ask)
        return sure

    def best_response(self) -> dict[str, Any]:
        """The last round's response and its check against the field it was searched against:
        ``label``, ``rate``, ``low``, ``high`` (95 %, over games), ``games``, ``new``."""
        return self.rounds[-1]

    def mixture_shares(self) -> dict[str, float]:
        """The meta's points by kind: each support army's shares weighted by its weight."""
        w = self.equilibrium.mixture
        return {
            k: float(sum(w[i] * self.compositions[i]["shares"][k] for i in range(len(w))))
            for k in KINDS
        }

    @property
    def kind_entropy(self) -> float:
        """Entropy (bits) of the meta's points by kind: 0 when one kind takes everything,
        log2(5) ≈ 2.32 when the five kinds share equally."""
        return entropy(self.mixture_shares().values())

    def held(self, i: int, kind: str) -> float:
        """How much of army ``i`` a kind takes: the larger of its share of the army's points and
        its share of the army's pieces (a trait: the pieces carrying it), so that an army of
        invisible hovercraft counts as one of hovercraft although the trait costs more."""
        comp = self.compositions[i]
        return max(comp["shares"][kind], comp["pieces"][kind])

    def flags(self, dominant: float = DOMINANT) -> list[str]:
        """In words: a kind that takes at least ``dominant`` of every army of the meta
        (:meth:`held`), and a kind no army of the meta buys."""
        out = []
        support = self.equilibrium.support
        for k in KINDS:
            taken = [self.held(i, k) for i in support]
            bought = [self.compositions[i]["counts"][k] for i in support]
            if taken and min(taken) >= dominant:
                low, high = f"{min(taken):.0%}", f"{max(taken):.0%}"
                held = low if low == high else f"from {low} to {high}"
                out.append(
                    f"{k} dominates the meta: it takes at least {dominant:.0%} of every army of "
                    f"its support, by points or by pieces ({held})"
                )
            elif bought and max(bought) == 0:
                out.append(
                    f"no army of the meta buys {k} pieces: at these costs strong play skips them"
                )
        return out

    def dominated_by(self, kind: str, dominant: float = DOMINANT) -> bool:
        """Does ``kind`` take at least ``dominant`` of every army of the meta's support
        (:meth:`held`)?"""
        return all(self.held(i, kind) >= dominant for i in self.equilibrium.support)

    def armies_table(self) -> Any:
        """One row per army of the population: its label, round, weight in the meta, score
        against the meta's mixture, pieces per kind and points' share per kind."""
        import pandas as pd

        rows = []
        for m, comp in zip(self.members, self.compositions, strict=True):
            rows.append(
                {
                    "army": m.index,
                    "label": m.label,
                    "found_in_round": m.round,
                    "weight": self.equilibrium.mixture[m.index],
                    "in_support": m.index in self.equilibrium.support,
                    "against_mixture": self.equilibrium.against[m.index],
                    **{f"n_{k}": comp["counts"][k] for k in KINDS},
                    **{f"share_{k}": comp["shares"][k] for k in KINDS},
                    **{f"pieces_{k}": comp["pieces"][k] for k in KINDS},
                    "pieces": army_text(m.army) if m.army is not None else "(its own policy)",
                }
            )
        return pd.DataFrame(rows)

    def scores_table(self) -> Any:
        import pandas as pd

        labels = [m.label for m in self.members]
        frame = pd.DataFrame(self.scores, index=labels, columns=labels)
        frame.index.name = "army"
        return frame

    def rounds_table(self) -> Any:
        import pandas as pd

        return pd.DataFrame(
            [
                {k: r[k] for k in ("round", "label", "new", "rate", "low", "high", "games")}
                | {"field": r["field_text"]}
                for r in self.rounds
            ]
        )

    def generations_table(self) -> Any:
        """One row per generation: its round, the mean's and the candidates' best and median
        scores against the field."""
        import pandas as pd

        rows = []
        for line in self.log:
            if line["kind"] != "generation":
                continue
            s = np.array(line["scores"], dtype=np.float64)
            rows.append(
                {
                    "round": line["round"],
                    "generation": line["generation"],
                    "mean_score": score(line["mean_record"]),
                    "best_score": float(s.max()),
                    "median_score": float(np.median(s)),
                }
            )
        return pd.DataFrame(rows)


def run_search(
    rules: Rules,
    agent: Agent | str = "tuned",
    *,
    settings: MetaSettings | None = None,
    seed: int = 0,
    out: str | Path | None = None,
    workers: int | None = None,
    address: str | None = None,
    progress: bool | Progress = False,
) -> Meta:
    """Search the armies ``agent`` buys to win under ``rules`` and the equilibrium between them
    (module doc). ``out``: the study folder (resumable); ``workers`` and ``address`` as for
    :func:`antipolix.simulate` (0 or 1 worker: in this process). The outputs are written by
    :func:`antipolix.meta.run.meta_search`.

    Bad arguments, settings too small to compare armies, and a folder holding anything else
    raise :class:`MetaError` before any game is played or any file is written."""
    began = time.perf_counter()
    search = Search.make(rules, agent, settings or MetaSettings(), seed, out)
    search.check_folder()
    from antipolix.tuning.evaluate import Pool, check_workers

    try:
        check_workers(workers, address)
    except AntipolixError as exc:
        raise MetaError(str(exc)) from None
    bar = None
    if progress is True:
        from antipolix.runner.progress import Bar

        bar = Bar()
    report_to: Progress | None = (
        bar if bar is not None else progress if callable(progress) else None
    )
    try:
        with Pool(workers, address, None if bar is None else bar.note) as pool, search.opened():
            meta = search.run(pool, report_to)
    finally:
        if bar is not None:
            bar.close()
    meta.seconds = time.perf_counter() - began
    return meta


def play_rules(rules: Rules) -> Rules:
    """``rules`` as the army games play them: think times drawn by the engine (R7)."""
    if not isinstance(rules, Rules):
        raise MetaError(f"rules must be a Rules, got {type(rules).__name__}")
    try:
        table = with_options(rules, [("think_times", "drawn")])
        check_size(table)
    except AntipolixError as exc:
        raise MetaError(str(exc)) from None
    return table


def checked_agent(agent: Agent | str) -> Agent:
    """A built-in agent by name, or an agent object the compiled core plays."""
    from antipolix.autoplay import compiled

    bot = agent_named(agent) if isinstance(agent, str) else agent
    if not isinstance(bot, Agent):
        raise MetaError(f"agent must be an Agent or a built-in agent name, got {agent!r}")
    if not compiled([bot]):
        raise MetaError(f"agent {bot.name!r} is not a built-in agent the compiled core plays")
    return bot


@dataclass
class Search:
    """An army search's settings, folder and log, and the state its log replays to."""

    rules: Rules
    agent: Agent
    settings: MetaSettings
    seed: int
    out: Path | None
    spec: dict[str, Any]
    space: ArmySpace = field(default_factory=ArmySpace)
    log: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def make(
        cls,
        rules: Rules,
        agent: Agent | str,
        settings: MetaSettings,
        seed: int,
        out: str | Path | None,
    ) -> Search:
        table = play_rules(rules)
        bot = checked_agent(agent)
        if not isinstance(settings, MetaSettings):
            raise MetaError(f"settings must be a MetaSettings, got {settings!r}")
        settings = settings.checked(table.players)
        try:
            seed = check_seed(seed)
        except AntipolixError as exc:
            raise MetaError(str(exc)) from None
        space = ArmySpace()
        space.decode(space.centre(), table)  # an army can be bought at all (R3)
        import cma

        spec = _json(
            {
                "format": STUDY_FORMAT,
                "version": STUDY_VERSION,
                "engine": __version__,
                "cma": cma.__version__,
                "rules": rules_to_dict(table),
                "agent": {
                    "class": f"{type(bot).__module__}.{type(bot).__qualname__}",
                    **bot.spec(),
                },
                "label": agent_label(bot),
                "seed": seed,
                **asdict(settings),
                "population": settings.population_for(space),
                "none_below": space.none_below,
            }
        )
        return cls(table, bot, settings, seed, None if out is None else Path(out), spec, space)

    # -- the folder ------------------------------------------------------------------------

    def check_folder(self) -> None:
        """Refuse, writing nothing, a folder that cannot hold this search; read its log."""
        path = self.out
        if path is None:
            return
        if path.exists() and not path.is_dir():
            raise MetaError(f"cannot use {path} for an army search: it is not a folder")
        if not path.exists():
            check_creatable(path, MetaError)
            return
        study = path / STUDY_FILE
        if study.exists():
            old = _read_json(study)
            was = {k: v for k, v in old.items() if k not in UNCOMPARED}
            now = {k: v for k, v in self.spec.items() if k not in UNCOMPARED}
            change = compare_studies(was, now, grows="rounds")
            if change == "shrinks":
                raise MetaError(
                    f"{path} holds an army search of {old['rounds']} rounds; ask for "
                    f"{old['rounds']} or more (a search grows, it never shrinks)"
                )
            if isinstance(change, tuple):
                raise MetaError(
                    f"{path} holds a different army search ({'; '.join(change)}); use another "
                    "folder, or delete it to start again"
                )
            self.log = read_log(path / LOG_FILE)
        else:
            refuse_other_files(path, MetaError, "army search")
        if not os.access(path, os.W_OK | os.X_OK):
            raise MetaError(f"cannot write to {path}: permission denied")

    @contextlib.contextmanager
    def opened(self) -> Any:
        """The folder, created and locked, with ``meta.json`` written (nothing without one)."""
        if self.out is None:
            yield self
            return
        lock = locked_folder(self.out, MetaError, "an army search")
        try:
            self.log = read_log(self.out / LOG_FILE)  # another run may have added to it
            self._write(STUDY_FILE, json.dumps(self.spec, indent=1) + "\n")
            yield self
        finally:
            lock.close()

    def _write(self, name: str, text: str) -> None:
        if self.out is None:
            return
        try:
            write_atomically(self.out / name, text.encode())
        except OSError as exc:
            raise MetaError(f"cannot write {self.out / name}: {exc}") from None

    def _append(self, line: dict[str, Any]) -> None:
        self.log.append(_json(line))
        self._write(LOG_FILE, "".join(json.dumps(x) + "\n" for x in self.log))

    # -- the rounds ------------------------------------------------------------------------

    def run(self, pool: Any, report: Progress | None) -> Meta:
        """Replay the log, play what is missing, and return the :class:`Meta`."""
        s, space, players = self.settings, self.space, self.rules.players
        lam = s.population_for(space)
        total = s.games_at_most(space)
        replay = list(self.log)
        self.log = []
        state = _State(self.rules, self.agent, self.seed)
        done = 0
        played = 0

        def tick(n: int) -> None:
            nonlocal done, played
            done += n
            played += n
            if report is not None:
                report(done, total)

        def logged(kind: str, **where: int) -> dict[str, Any] | None:
            if not replay:
                return None
            line = replay[0]
            if line.get("kind") != kind or any(line.get(k) != v for k, v in where.items()):
                raise MetaError(
                    f"{self._log_path()} does not replay: expected a {kind} line "
                    f"{where}, found {_brief(line)} (an edited log, or another version); use "
                    "another folder, or delete it to start again"
                )
            replay.pop(0)
            self.log.append(line)
            return line

        if report is not None:
            report(0, total)
        for r in range(s.rounds):
            line = logged("round", round=r)
            groups = s.games // players
            if line is None:
                eq = state.equilibrium()
                line = {
                    "kind": "round",
                    "round": r,
                    "field": list(eq.mixture),
                    "opponents": field_members(eq.mixture, groups),
                    "check_opponents": field_members(eq.mixture, s.check_games // players),
                }
                self._append(line)
            elif not _a_field(line, len(state.members), groups, s.check_games // players):
                raise MetaError(
                    f"{self._log_path()} does not replay: round {r}'s field is not a mixture "
                    f"of its {len(state.members)} armies with its opponents drawn from them (an "
                    "edited log); use another folder, or delete it to start again"
                )
            opponents, check_opponents = line["opponents"], line["check_opponents"]
            es = cmaes.new_es(
                state.start(line["field"], space), s.sigma0, lam, self.seed, (CMA_BRANCH, r)
            )
            for g in range(s.generations):
                mean, asked = cmaes.mean(es), cmaes.ask(es)
                gen = logged("generation", round=r, generation=g)
                if gen is not None:
                    if not (cmaes.same(mean, gen["mean"]) and cmaes.same(asked, gen["candidates"])):
                        raise MetaError(
                            f"{self._log_path()} does not replay: round {r}, generation {g}'s "
                            f"candidates differ from the ones CMA-ES asks again ({replay_hint()}); "
                            "use another folder, or delete it"
                        )
                    done += (lam + 1) * s.games
                else:
                    entries = [space.decode(x, self.rules) for x in [*asked, mean]]
                    records = state.against(
                        entries, opponents, s.games, (SEARCH_BRANCH, r, g), pool, tick
                    )
                    gen = {
                        "kind": "generation",
                        "round": r,
                        "generation": g,
                        "sigma": float(es.sigma),
                        "mean": mean,
                        "candidates": asked,
                        "scores": [score(rec) for rec in records[:-1]],
                        "records": [list(rec) for rec in records[:-1]],
                        "mean_record": list(records[-1]),
                    }
                    self._append(gen)
                cmaes.tell(es, asked, gen["scores"])
            resp = logged("response", round=r)
            if resp is None:
                x = cmaes.mean(es)
                army = space.decode(x, self.rules)
                (record,), per_game = state.against(
                    [army],
                    check_opponents,
                    s.check_games,
                    (CHECK_BRANCH, r),
                    pool,
                    tick,
                    per_game=True,
                )
                resp = {
                    "kind": "response",
                    "round": r,
                    "x": x,
                    "army": army_names(army),
                    "record": list(record),
                    "per_game": per_game,
                }
                self._append(resp)
            else:
                done += s.check_games
            member = state.add_member(army_from_names(resp["army"]), resp["x"], r)
            state.rounds.append(_round_summary(r, line, resp, state, member))
            if member.index != len(state.members) - 1 or not state.new_last:
                continue
            for i in range(member.index):
                pair = logged("pair", first=i, second=member.index)
                if pair is None:
                    record, by_seed = state.pair(i, member.index, s.pair_games, pool, tick)
                    pair = {
                        "kind": "pair",
                        "first": i,
                        "second": member.index,
                        "record": list(record),
                        "seeds": [list(r) for r in by_seed],
                    }
                    self._append(pair)
                else:
                    done += s.pair_games
                state.set_pair(i, member.index, _record(pair["record"]))
                state.seeds[i, member.index] = _seed_records(pair)
        if replay:
            raise MetaError(
                f"{self._log_path()} holds more than this search plays ({_brief(replay[0])}); "
                "use another folder, or delete it to start again"
            )
        if report is not None:
            report(total, total)
        return Meta(
            rules=self.rules,
            agent=agent_label(self.agent),
            settings=self.settings,
            seed=self.seed,
            members=state.members,
            records=state.records,
            equilibrium=state.equilibrium(),
            rounds=state.rounds,
            log=self.log,
            compositions=state.compositions,
            played=played,
            games=_games(self.log, s, players),
            out=self.out,
            pair_seeds=state.seeds,
        )

    def _log_path(self) -> str:
        return str(self.out / LOG_FILE) if self.out is not None else "the log"


@dataclass
class _State:
    """The population, its empirical game and the pool's batches, as a search builds them."""

    rules: Rules
    agent: Agent
    seed: int
    members: list[Member] = field(default_factory=list)
    policies: list[ArmyPolicy] = field(default_factory=list)
    records: list[list[Record]] = field(default_factory=list)
    compositions: list[dict[str, dict[str, float]]] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    new_last: bool = False
    seeds: dict[tuple[int, int], list[Record] | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        own = self.agent.army_policy
        self.members.append(Member(0, f"{agent_label(self.agent)}'s own armies", None))
        self.policies.append(own)
        self.records.append([(0, 0, 0)])
        rng = np.random.Generator(
            np.random.PCG64(np.random.SeedSequence(self.seed, spawn_key=(OWN_BRANCH,)))
        )
        try:
            drawn = [own.choose(self.rules, rng) for _ in range(OWN_SAMPLES)]
        except AntipolixError as exc:
            raise MetaError(f"the agent's own army policy cannot buy an army: {exc}") from None
        self.compositions.append(
            {
                "counts": {k: float(np.mean([counts(a)[k] for a in drawn])) for k in KINDS},
                "shares": {
                    k: float(np.mean([shares(a, self.rules)[k] for a in drawn])) for k in KINDS
                },
                "pieces": {k: float(np.mean([piece_shares(a)[k] for a in drawn])) for k in KINDS},
            }
        )

    def equilibrium(self) -> Equilibrium:
        m = score_table(self.records)
        if not np.all(np.isfinite(m)):
            raise MetaError("the empirical game has a pair of armies that never met")
        return maxent_nash(m)

    def start(self, field: Sequence[float], space: ArmySpace) -> list[float]:
        """Where a round's CMA-ES starts: the point of the field's heaviest army the search
        found (its best response is searched near it), or the box's centre while the field is
        the agent's own armies."""
        heaviest = max(range(len(field)), key=lambda i: (field[i], -i))
        x = self.members[heaviest].x if heaviest < len(self.members) else None
        return list(x) if x is not None else space.centre()

    def add_member(self, army: Army, x: Sequence[float], r: int) -> Member:
        for m in self.members:
            if m.army == army:
                self.new_last = False
                return m
        index = len(self.members)
        member = Member(index, f"army {index}", army, tuple(float(v) for v in x), r)
        self.members.append(member)
        self.policies.append(GivenArmy(army))
        for row in self.records:
            row.append((0, 0, 0))
        self.records.append([(0, 0, 0)] * (index + 1))
        self.compositions.append(
            {
                "counts": {k: float(v) for k, v in counts(army).items()},
                "shares": shares(army, self.rules),
                "pieces": piece_shares(army),
            }
        )
        self.new_last = True
        return member

    def set_pair(self, i: int, j: int, record: Record) -> None:
        self.records[i][j] = record
        self.records[j][i] = (record[2], record[1], record[0])

    def against(
        self,
        entries: Sequence[Army],
        opponents: Sequence[int],
        games: int,
        branch: tuple[int, ...],
        pool: Any,
        tick: Callable[[int], None],
        per_game: bool = False,
    ) -> Any:
        """Each entry's record against the field (the same games for every entry); with
        ``per_game`` also the first entry's score in each game."""
        k = len(self.policies)
        batch = Armies(
            self.rules,
            self.seed,
            self.agent,
            (*self.policies, *(GivenArmy(a) for a in entries)),
        )
        tables: list[Table] = []
        for e in range(len(entries)):
            tables += against_field(k + e, opponents, games, self.rules.players, branch)
        finishes: list[Finish] = pool.play(batch, tables, tick, play_tables)
        records: list[Record] = [(0, 0, 0)] * len(entries)
        scores = []
        for t, f in zip(tables, finishes, strict=True):
            e = next(a for a in t.seats if a >= k)
            opponent = next(a for a in t.seats if a < k)
            rec = meetings(f, t.seats, e, opponent)
            records[e - k] = add(records[e - k], rec)
            if e == k:
                scores.append(score(rec))
        return (records, scores) if per_game else records

    def pair(
        self, i: int, j: int, games: int, pool: Any, tick: Callable[[int], None]
    ) -> tuple[Record, list[Record]]:
        """Army ``i``'s record against army ``j`` in their pair games, and per seed
        (:func:`~antipolix.meta.play.play_pair`)."""
        batch = Armies(self.rules, self.seed, self.agent, tuple(self.policies))
        total, by_seed = play_pair(batch, i, j, games, (PAIR_BRANCH, i, j), pool, tick)
        if sum(total) and total[1] == sum(total):
            raise MetaError(
                f"every meeting of armies {i} and {j} was level (every game drawn): these "
                "games cannot compare armies; raise the turn limit or check the agent"
            )
        return total, by_seed


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of per-game scores and its 95 % normal interval (games are independent; the
    meetings within one game are not, so the interval is over games)."""
    v = np.asarray(values, dtype=np.float64)
    if not len(v):
        return math.nan, math.nan, math.nan
    mean = float(v.mean())
    half = 1.959963984540054 * float(v.std(ddof=1)) / math.sqrt(len(v)) if len(v) > 1 else math.inf
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def _round_summary(
    r: int, line: dict[str, Any], resp: dict[str, Any], state: _State, member: Member
) -> dict[str, Any]:
    rate, low, high = mean_interval(resp["per_game"])
    field_w = line["field"]
    field_text = ", ".join(
        f"{state.members[i].label} {w:.0%}" for i, w in enumerate(field_w) if w > 0
    )
    return {
        "round": r,
        "label": member.label,
        "member": member.index,
        "new": state.new_last,
        "army": army_text(army_from_names(resp["army"])),
        "rate": score(resp["record"]),
        "per_game_mean": rate,
        "low": low,
        "high": high,
        "games": len(resp["per_game"]),
        "field": field_w,
        "field_text": field_text,
    }


def _games(log: Sequence[dict[str, Any]], s: MetaSettings, players: int) -> int:
    """Games the logged search played in all."""
    n = 0
    for line in log:
        if line["kind"] == "generation":
            n += (len(line["candidates"]) + 1) * s.games
        elif line["kind"] == "response":
            n += s.check_games
        elif line["kind"] == "pair":
            n += s.pair_games
    return n


def _seed_records(pair: Mapping[str, Any]) -> list[Record] | None:
    """A pair line's records per seed (None in a log written before they were kept, or if
    they do not add up to the pair's record: an edited log)."""
    seeds = pair.get("seeds")
    if not isinstance(seeds, list) or not seeds:
        return None
    try:
        out = [_record(r) for r in seeds]
    except (TypeError, ValueError):
        return None
    total: Record = (0, 0, 0)
    for r in out:
        total = add(total, r)
    return out if total == _record(pair["record"]) else None


def _record(values: Sequence[Any]) -> Record:
    a, b, c = (int(v) for v in values)
    return a, b, c


def _brief(line: dict[str, Any]) -> str:
    keys = ("kind", "round", "generation", "first", "second")
    return "{" + ", ".join(f"{k}: {line[k]!r}" for k in keys if k in line) + "}"


def _a_field(line: Mapping[str, Any], armies: int, groups: int, check_groups: int) -> bool:
    """Is a logged round's field a mixture of ``armies`` armies (finite weights >= 0), and are
    its opponents (``groups`` of them) and check opponents (``check_groups``) among them?"""
    field = line.get("field")
    if not isinstance(field, list) or len(field) != armies:
        return False
    if not all(type(w) in (int, float) and 0 <= w < math.inf for w in field):
        return False
    for key, count in (("opponents", groups), ("check_opponents", check_groups)):
        drawn = line.get(key)
        if not isinstance(drawn, list) or len(drawn) != count:
            return False
        if not all(type(a) is int and 0 <= a < armies for a in drawn):
            return False
    return True


def read_log(path: Path) -> list[dict[str, Any]]:
    """The lines of a search's log (none when it does not exist); a line that is not a JSON
    object of a known kind is refused with its number."""
    out = []
    for n, line in enumerate(read_json_lines(path, MetaError), 1):
        if not isinstance(line, dict) or line.get("kind") not in (
            "round",
            "generation",
            "response",
            "pair",
        ):
            raise MetaError(
                f"{path}, line {n}, is not a line of an army search's log; use another folder, "
                "or delete it to start again"
            )
        out.append(line)
    return out


def _read_json(path: Path) -> dict[str, Any]:
    data = read_json(path, MetaError)
    if not isinstance(data, dict) or data.get("format") != STUDY_FORMAT:
        raise MetaError(f"{path} is not an army search's description")
    if data.get("version") != STUDY_VERSION:
        raise MetaError(
            f"{path} is an army search of format version {data.get('version')!r}; this "
            f"antipolix reads version {STUDY_VERSION}"
        )
    return data


def _json(data: Any) -> Any:
    """``data`` as JSON reads it back (what a folder's description is compared with)."""
    return json.loads(json.dumps(data, default=str))


__all__ = [
    "DOMINANT",
    "LOG_FILE",
    "RESAMPLES",
    "STUDY_FILE",
    "Member",
    "Meta",
    "MetaSettings",
    "Resampled",
    "Search",
    "mean_interval",
    "play_rules",
    "read_log",
    "run_search",
]
