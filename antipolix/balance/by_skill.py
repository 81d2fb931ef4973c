"""Values by skill: what each kind of piece is worth to players of every strength, in one study.

:func:`values_by_skill` plays, for each agent, games where every seat is that agent with a random
army (:class:`~antipolix.balance.design.Design`), all agents on the same game seeds (common
random numbers: game ``i`` starts from the same armies on the same cells whoever plays it,
R12), fits every priced kind's value per agent (:func:`~antipolix.balance.values.
estimate_games`), places the agents on the skill axis by their ladder ratings
(:mod:`antipolix.balance.ratings`), fits how each kind's value changes with rating
(:mod:`antipolix.balance.skill`) and, when asked, rates the strongest agent against copies of
itself that may not buy each kind (:mod:`antipolix.balance.restricted`).

With ``precision`` it plays in rounds until every kind's value-per-cost interval is narrower
than it for every agent, or the cap is reached: each round projects the games an agent needs
from its interval widths so far (a width shrinks as one over the square root of the games) and
plays them, the first games of every agent on the same seeds.

The study folder holds ``study.json`` (what the study is), each agent's games under
``games/<agent>/`` (resumable runner studies that grow), the restricted-play tournament under
``restricted/``, ``values.csv``, ``skill.csv``, ``restricted.csv``, ``report.md`` and
``plots/``. A study that stops, for any reason, writes its report with what it has, the
verdict and the reason at the top.
"""

from __future__ import annotations

import json
import math
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from antipolix.agents import Agent, agent_label, agent_named
from antipolix.balance.design import Design
from antipolix.balance.fit import check_rules, games_frame
from antipolix.balance.ratings import Ladder, skill_axis
from antipolix.balance.restricted import restricted_play
from antipolix.balance.skill import skill_table, values_table
from antipolix.balance.skill_report import write_files
from antipolix.balance.skill_study import ValuesBySkill, widest_interval
from antipolix.balance.values import (
    BalanceError,
    estimate_games,
    kind_cost,
    priced_kinds,
    unbuyable,
)
from antipolix.checks import is_int, is_plain_number
from antipolix.codec import rules_to_dict
from antipolix.errors import AntipolixError
from antipolix.files import compare_studies, json_file, write_atomically
from antipolix.limits import check_seed, check_size
from antipolix.rules import Rules
from antipolix.runner import Results
from antipolix.runner.run import StudyJob, simulate_studies
from antipolix.runner.store import STUDY_FILE, read_study

FORMAT = "antipolix-values"
VERSION = 1
PILOT = 1000  # games per agent in the first round of a study stopped by precision
MAX_GAMES = 50_000  # the default cap of games per agent with a precision
ROUNDS = 12  # at most this many rounds of a study stopped by precision
MARGIN = 1.15  # a round plays this much more than the projection, so the next one is rarely needed
FILES = {"study.json", "games", "restricted", "values.csv", "skill.csv", "restricted.csv",
         "report.md", "plots"}  # fmt: skip
Say = Callable[[str], None]


def values_by_skill(
    rules: Rules,
    agents: Sequence[Agent | str] | str,
    games: int | Mapping[str, int] | None = None,
    seed: int = 0,
    *,
    ladder: Ladder = None,
    precision: float | None = None,
    max_games: int | None = None,
    restricted_games: int = 0,
    design: Design | None = None,
    workers: int | None = None,
    out: str | Path | None = None,
    report: bool = True,
    progress: Say | None = None,
) -> ValuesBySkill:
    """What each priced kind is worth to each agent, and how that changes with skill.

    - ``agents``: built-in agent names (``"search:rollouts=4"``), agents, or one
      comma-separated text; each must be rated by ``ladder`` (default: the committed ladder at
      the rules' table size, :mod:`antipolix.balance.ratings`).
    - ``games``: games per agent (the same seeds for every agent: an agent with fewer games
      plays the first of the others'), or a mapping agent label → games; with ``precision``,
      the games of the first round (default :data:`PILOT`).
    - ``precision``: play until every kind's value-per-cost interval (95 %) is narrower than
      this for every agent, at most ``max_games`` per agent (default :data:`MAX_GAMES`).
    - ``restricted_games``: games per lineup of the restricted-play tournament of the
      strongest agent (0: none).
    - ``design``: how armies are drawn and what is fitted (default :class:`Design`).
    - ``out``: the study folder (resumable; see the module's docstring); ``workers`` as in
      :func:`antipolix.simulate`; ``progress``: a function given a line of text per step.

    Bad arguments raise :class:`BalanceError` (or another ``AntipolixError``) before any game
    is played or anything is written. Returns a :class:`ValuesBySkill`."""
    began = time.perf_counter()
    check_rules(rules)
    seed = check_seed(seed)
    check_size(rules)
    design = Design() if design is None else design
    if not isinstance(design, Design):
        raise BalanceError(f"design must be a Design, got {design!r}")
    bots = _agents(agents)
    labels = [agent_label(b) for b in bots]
    axis = skill_axis(labels, rules.players, ladder)
    counts, precision, max_games = _check_counts(games, precision, max_games, labels)
    if not is_int(restricted_games) or restricted_games < 0:
        raise BalanceError(f"restricted games must be an integer >= 0, got {restricted_games!r}")
    _check_workers(workers)
    keep = None
    if out is None:
        keep = tempfile.TemporaryDirectory(prefix="antipolix-values-")
        folder = Path(keep.name)
    else:
        folder = Path(out)
    spec = {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_to_dict(rules),
        "agents": labels,
        "agent_specs": [_spec(design.agent(b, rules)) for b in bots],
        "seed": seed,
        "design": design.spec(),
    }
    _open_folder(folder, spec, labels)
    study = ValuesBySkill(
        rules=rules,
        agents=labels,
        axis=axis,
        design=design,
        seed=seed,
        precision=precision,
        max_games=max_games,
        path=None if out is None else folder,
        keep=keep,
    )
    say = progress or (lambda _: None)
    run = _Run(study, bots, [design.agent(b, rules) for b in bots], folder, workers, say)
    try:
        run.play(counts)
        study.values = values_table(rules, study.estimates, axis.ratings)
        study.skill, study.lines = skill_table(rules, study.values, study.estimates)
        if restricted_games:
            run.restrict(restricted_games)
    except BaseException as exc:
        study.stopped = _why(exc, out is not None)
        _finish(study, folder, report and out is not None, began)
        if isinstance(exc, AntipolixError) and out is not None and report:
            raise BalanceError(
                f"{study.stopped}; what the study had is in {folder / 'report.md'}"
            ) from None
        raise
    _finish(study, folder, report and out is not None, began)
    return study


def _finish(study: ValuesBySkill, folder: Path, report: bool, began: float) -> None:
    """Fill what a stopped study lacks and write its files (report when asked)."""
    if study.values.empty and study.agents:
        study.values = values_table(
            study.rules,
            {a: study.estimates.get(a, study.stopped or "not played") for a in study.agents},
            study.axis.ratings,
        )
    if study.skill.empty and not study.values.empty:
        study.skill, study.lines = skill_table(study.rules, study.values, study.estimates)
    study.seconds["total"] = time.perf_counter() - began
    if report:
        try:
            write_files(study, folder)
        except OSError as exc:
            if not study.stopped:
                raise BalanceError(f"cannot write the report to {folder}: {exc.strerror}") from None


def _why(exc: BaseException, folder: bool) -> str:
    resume = " (the games played are kept: the same command resumes)" if folder else ""
    if isinstance(exc, KeyboardInterrupt):  # (Ctrl-C, or SIGTERM: Terminated)
        return f"{str(exc) or 'interrupted'}{resume}"
    if isinstance(exc, AntipolixError):
        return f"{exc}{resume}"
    return f"{type(exc).__name__}: {exc}{resume}"


@dataclass
class _Run:
    """The rounds of one study: each plays what every agent still needs, then fits."""

    study: ValuesBySkill
    originals: list[Agent]  # the agents with their own armies (restricted play)
    bots: list[Agent]  # their copies playing the design's random armies
    folder: Path
    workers: int | None
    say: Say
    capped: set[str] = field(default_factory=set)  # agents said to need more than the cap

    def play(self, games: dict[str, int]) -> None:
        study = self.study
        cap = study.max_games
        first = {a: games[a] if cap is None else min(games[a], cap) for a in study.agents}
        targets = {a: max(first[a], self._had(a)) for a in study.agents}  # never shrinks
        if study.precision is not None:
            impossible = unbuyable(study.rules)
            for kind, why in impossible.items():
                study.precision_notes.append(
                    f"{kind} cannot be priced under these rules ({why}): the precision applies "
                    "to the other kinds"
                )
                self.say(f"note: {study.precision_notes[-1]}")
        for round_ in range(ROUNDS):
            self._play(targets)
            self._fit()
            if study.precision is None:
                return
            targets, more = self._next(targets, round_)
            if not more:
                return

    def _had(self, agent: str) -> int:
        """The games a previous run asked of ``agent`` in this folder (a study never shrinks)."""
        path = self._path(agent)
        if not (path / STUDY_FILE).is_file():
            return 0
        try:
            return int(read_study(path)["games"])
        except (AntipolixError, KeyError, TypeError, ValueError):
            return 0

    def _path(self, agent: str) -> Path:
        from antipolix.ladder.schedule import slug

        return self.folder / "games" / slug(agent)

    def _play(self, targets: dict[str, int]) -> None:
        study = self.study
        jobs = [
            StudyJob(
                study.rules, [bot] * study.rules.players, targets[a], study.seed, self._path(a)
            )
            for a, bot in zip(study.agents, self.bots, strict=True)
        ]
        counts = ", ".join(f"{a} {targets[a]}" for a in study.agents)
        self.say(f"games per agent: {counts}")
        began = time.perf_counter()
        total = sum(targets.values())
        last = [0.0]

        def tick(done: int, of: int) -> None:
            now = time.perf_counter()
            if done == of or now - last[0] > 60:
                last[0] = now
                self.say(f"games: {done}/{total} ({done / max(total, 1):.0%})")

        simulate_studies(jobs, workers=self.workers, progress=tick)
        study.seconds["playing"] = study.seconds.get("playing", 0.0) + time.perf_counter() - began
        for a in study.agents:
            study.games[a] = games_frame(Results.open(self._path(a)).to_pandas())

    def _fit(self) -> None:
        study = self.study
        began = time.perf_counter()
        for a in study.agents:
            try:
                study.estimates[a] = estimate_games(
                    study.games[a], study.rules, study.design.outcome
                )
            except BalanceError as exc:
                study.estimates[a] = str(exc)
                self.say(f"{a}: no values ({exc})")
                continue
            widest, kind = widest_interval(study.estimates[a], study.rules)
            shown = (
                f"{widest:.3f} ({kind})" if math.isfinite(widest) else f"none: {kind} not estimated"
            )
            self.say(f"{a}: {len(study.games[a])} games; widest value-per-cost interval {shown}")
        study.seconds["fitting"] = study.seconds.get("fitting", 0.0) + time.perf_counter() - began

    def _next(self, targets: dict[str, int], round_: int) -> tuple[dict[str, int], bool]:
        """The next round's games per agent, and whether any agent needs more."""
        study = self.study
        assert study.precision is not None and study.max_games is not None
        cap, want = study.max_games, study.precision
        out, more = dict(targets), False
        for a in study.agents:
            est, n = study.estimates[a], targets[a]
            widest, kind = widest_interval(est, study.rules)
            if widest < want or n >= cap:
                continue
            need = math.ceil(n * (widest / want) ** 2 * MARGIN) if math.isfinite(widest) else 2 * n
            if need > cap and a not in self.capped:
                self.capped.add(a)
                study.precision_notes.append(
                    f"{a} needs about {need} games for intervals narrower than {want:g} "
                    f"(its widest is {widest:.2f}, {kind}, after {n} games), more than the cap "
                    f"of {cap}: it plays to the cap"
                )
                self.say(f"note: {study.precision_notes[-1]}")
            out[a] = min(cap, max(need, n + max(1, n // 10)))
            more = True
        return out, more

    def restrict(self, games: int) -> None:
        study = self.study
        strongest = study.strongest
        self.say(f"restricted play: {strongest} against copies that may not buy each kind")
        began = time.perf_counter()
        result = restricted_play(
            study.rules,
            self.originals[study.agents.index(strongest)],
            games,
            study.seed,
            out=self.folder / "restricted",
            workers=self.workers,
        )
        study.restricted_run = result
        study.restricted = result.table
        study.seconds["restricted"] = time.perf_counter() - began


def _agents(agents: Sequence[Agent | str] | str) -> list[Agent]:
    if isinstance(agents, str):
        agents = [a.strip() for a in agents.split(",") if a.strip()]
    if isinstance(agents, Agent) or not isinstance(agents, Sequence) or not agents:
        raise BalanceError(f"agents must be one or more agent names or agents, got {agents!r}")
    bots: list[Agent] = []
    for a in agents:
        if isinstance(a, str):
            bots.append(agent_named(a))
        elif isinstance(a, Agent):
            bots.append(a)
        else:
            raise BalanceError(f"an agent is a name (e.g. 'greedy') or an Agent, got {a!r}")
    labels = [agent_label(b) for b in bots]
    for i, label in enumerate(labels):
        if label in labels[:i]:
            raise BalanceError(f"{label} is named twice; a values study compares different agents")
    return bots


def _check_counts(
    games: object, precision: object, max_games: object, agents: Sequence[str]
) -> tuple[dict[str, int], float | None, int | None]:
    """Games per agent (of the first round, with a precision), the precision and the cap."""
    if isinstance(games, Mapping):
        unknown = [a for a in games if a not in agents]
        if unknown:
            raise BalanceError(
                f"games are given for {unknown[0]}, which is not an agent of the study"
            )
        missing = [a for a in agents if a not in games]
        if missing:
            raise BalanceError(f"games are given per agent but not for {missing[0]}")
        given = dict(games)
    else:
        given = {a: games for a in agents}
    counts: dict[str, int | None] = {}
    for a, n in given.items():
        if n is None:
            counts[a] = None
        elif is_int(n) and n >= 1:
            counts[a] = int(n)
        else:
            raise BalanceError(f"games must be a positive integer, got {n!r} for {a}")
    if precision is None:
        if max_games is not None:
            raise BalanceError("max_games (--max-games) caps a study stopped by --precision")
        fixed = {a: n for a, n in counts.items() if n is not None}
        if len(fixed) < len(counts):
            raise BalanceError("give the games per agent (--games), or a --precision to reach")
        return fixed, None, None
    if not is_plain_number(precision) or not 0 < precision < math.inf:
        raise BalanceError(
            f"precision must be a positive number (the widest value-per-cost interval "
            f"wanted, e.g. 0.5), got {precision!r}"
        )
    cap = MAX_GAMES if max_games is None else max_games
    if not is_int(cap) or cap < 1:
        raise BalanceError(f"max_games must be a positive integer, got {max_games!r}")
    first = {a: min(PILOT, int(cap)) if n is None else n for a, n in counts.items()}
    if max(first.values()) > cap:
        raise BalanceError(
            f"the first round's {max(first.values())} games per agent are more than the cap of "
            f"{cap} (--max-games)"
        )
    return first, float(precision), int(cap)


def _check_workers(workers: object) -> None:
    if workers is not None and (not is_int(workers) or workers < 0):
        raise BalanceError(f"workers must be None or an integer >= 0, got {workers!r}")


def _spec(agent: Agent) -> dict[str, Any]:
    record = {"class": f"{type(agent).__module__}.{type(agent).__qualname__}", **agent.spec()}
    loaded: dict[str, Any] = json.loads(json.dumps(record, default=str))
    return loaded


def _open_folder(folder: Path, spec: dict[str, Any], labels: Sequence[str]) -> None:
    """Create ``folder/study.json``, or check that the folder holds this study; a folder that
    holds anything else is refused and nothing is written into it."""
    path = folder / "study.json"
    if folder.exists() and not folder.is_dir():
        raise BalanceError(f"cannot use {folder} for a values study: it is not a folder")
    if path.is_file():
        try:
            old = json_file(path)
        except (OSError, ValueError) as exc:
            raise BalanceError(f"{path} is not a study file: {exc}") from None
        if not isinstance(old, dict) or old.get("format") != FORMAT:
            what = (
                "a cost fit"
                if isinstance(old, dict) and old.get("format") == "antipolix-balance"
                else "another study"
            )
            raise BalanceError(f"{folder} holds {what}; a values study needs its own --out folder")
        change = compare_studies(old, spec, grows="games")
        if change != "same":
            differ = "; ".join(change) if isinstance(change, tuple) else change
            raise BalanceError(
                f"{folder} holds a different values study ({differ}); use another --out folder"
            )
        return
    if folder.is_dir():
        if (folder / STUDY_FILE).exists():
            raise BalanceError(
                f"{folder} holds a simulate study ({STUDY_FILE}); a values study needs its own "
                "--out folder"
            )
        others = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
        if others:
            raise BalanceError(
                f"{folder} is not empty and holds no values study (it holds {others[0]}"
                f"{' and more' if len(others) > 1 else ''}); use a new --out folder"
            )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(path, (json.dumps(spec, indent=1) + "\n").encode())
    except OSError as exc:
        raise BalanceError(f"cannot write the study folder {folder}: {exc.strerror}") from None


def kinds_line(rules: Rules) -> str:
    """The priced kinds and their costs, in words."""
    return ", ".join(f"{k} {kind_cost(rules, k)}" for k in priced_kinds(rules))
