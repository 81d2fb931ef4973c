"""A cost table a designer can adopt: balanced at the strongest agent, healthy, the smallest
change from the start, and re-derived on independent seed sets.

:func:`propose` works in five steps, each step's games in a resumable folder of its own:

1. **Balance** (on each of ``replicates`` independent seed sets): the values at the start
   costs, at the strongest agent (:func:`antipolix.meta.values.measure_values`); every kind
   whose value per cost point is not 1 within its 95 % interval moves to the nearest whole cost
   inside the value's interval, damped as ``fit_costs`` damps (:func:`smallest_move`); fixed
   kinds never move; the values are measured again at the new table (the same game seeds:
   common random numbers) and the step repeats until no kind moves (or ``iterations``), so
   each kind stops at the first cost that balances it: the balanced table nearest the start.
   A kind whose value is within half a point of its cost counts as balanced: whole-point costs
   get no closer.
2. **Candidates** (:func:`candidates`): the tables that balance every kind, from the step-1
   table of seed set 0, each changed kind at any whole cost inside its interval, ordered by the
   smallest change (fewest kinds changed, then the smallest total change); then the tables that
   leave some of those kinds unbalanced (a trade-off), fewest unbalanced first.
3. **Health** at the start (the baselines) and at each candidate in order
   (:mod:`antipolix.meta.health`): turn-limit draws, median length and seats from games of the
   strongest agent with its own armies; then the ladder's order (a short re-run of its
   neighbours); then the meta (an army search, :mod:`antipolix.meta.search`), the costliest,
   last. The first candidate that keeps every bound is the proposal; later candidates are not
   played. When no balanced table keeps them, the report shows which bound binds.
4. **Values at the proposal**, for the strongest agent and the agents beside it.
5. **Reproducibility**: the step-1 table of every seed set; a proposal is *stable* when, kind by
   kind, the sets' costs agree within one point.

The folder holds ``proposal.json`` (the settings; running the same call again resumes, any
other settings are refused), ``values/``, ``health/``, ``ladder/`` and ``meta/`` (one resumable
study per cost table) and the outputs: ``proposed.toml`` (the proposal as a rules file every
command takes with ``--rules``), ``report.md``, ``values.csv``, ``candidates.csv``,
``health.csv``, ``stability.csv`` and ``plots/``.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from antipolix.agents import agent_label, agent_named
from antipolix.checks import is_int
from antipolix.codec import rules_to_dict
from antipolix.errors import AntipolixError, shown
from antipolix.limits import check_seed
from antipolix.meta.armies import MetaError
from antipolix.meta.folder import as_json, check_folder, opened, ray_once
from antipolix.meta.health import (
    Bounds,
    Health,
    Measures,
    Verdict,
    binding,
    judge,
    play_health,
    play_ladder,
)
from antipolix.meta.report import write_meta
from antipolix.meta.search import Meta, MetaSettings, checked_agent, play_rules, run_search
from antipolix.meta.values import Costs, Values, costs_of, measure_values, slug, with_costs
from antipolix.rules import Rules

STUDY_FILE = "proposal.json"
STUDY_FORMAT = "antipolix-proposal"
STUDY_VERSION = 1
FOLDERS = ("values", "health", "ladder", "meta", "plots")
OUTPUTS = (
    "proposed.toml",
    "report.md",
    "values.csv",
    "candidates.csv",
    "health.csv",
    "stability.csv",
)
HALF_POINT = 0.5  # a value within this of its cost is as balanced as whole points get
STEP = 0.5  # a balance step's damping (antipolix.balance.fit_costs's default)
OPTIONS_PER_KIND = 3  # whole costs tried per changed kind among the balanced candidates
Say = Callable[[str], None]


@dataclass(frozen=True)
class ProposalSettings:
    """What a proposal plays (module doc).

    ``agent``: the strongest agent, the one the costs are balanced at; ``beside``: agents whose
    values are reported beside it; ``fix``: kinds whose costs never move; ``bounds``: the health
    bounds; ``value_games``: games per values study (per agent and table); ``iterations``:
    balance steps at most per seed set; ``health_games``: games of the strongest agent per
    table; ``ladder_agents`` (None: ``beside`` and ``agent``, or the planner and ``agent``) and
    ``ladder_games`` (per pair, two players): the ladder's re-run; ``meta``: the army search's
    size; ``replicates``: independent seed sets; ``candidates``: tables whose health is
    measured at most, the start aside; ``ladder``: where the values study rates its agents (a
    tournament folder or a ``ratings.csv``; None: the committed ladder at the table size)."""

    agent: str = "tuned"
    beside: tuple[str, ...] = ()
    fix: tuple[str, ...] = ()
    bounds: Bounds = field(default_factory=Bounds)
    value_games: int = 3000
    iterations: int = 6
    health_games: int = 400
    ladder_agents: tuple[str, ...] | None = None
    ladder_games: int = 200
    meta: MetaSettings = field(default_factory=MetaSettings)
    replicates: int = 3
    candidates: int = 6
    ladder: str | None = None

    def checked(self, rules: Rules) -> ProposalSettings:
        """These settings with names made canonical, or a :class:`MetaError` (before any game)
        saying what is wrong."""
        agent = _label(self.agent)
        checked_agent(self.agent)
        beside = tuple(_label(a) for a in self.beside)
        if agent in beside:
            raise MetaError(f"{agent} is the strongest agent; name it once, not beside itself")
        if len(set(beside)) < len(beside):
            twice = next(a for a in beside if beside.count(a) > 1)
            raise MetaError(f"{twice} is named twice beside the strongest agent; name it once")
        kinds = [k for k in costs_of(rules)]
        fix = tuple(str(k).strip().lower() for k in self.fix)
        for k in fix:
            if k not in kinds:
                raise MetaError(
                    f"cannot fix {shown(k)}: it is not a priced kind (kinds: {', '.join(kinds)})"
                )
        if len(set(fix)) < len(fix):
            twice = next(k for k in fix if fix.count(k) > 1)
            raise MetaError(f"{twice} is fixed twice; name each kind once")
        if set(fix) == set(kinds):
            raise MetaError(
                f"every kind is fixed ({', '.join(fix)}): there is no cost left to propose"
            )
        for name in ("value_games", "iterations", "health_games", "ladder_games", "replicates"):
            value = getattr(self, name)
            if not is_int(value) or value < 1:
                raise MetaError(f"{name.replace('_', ' ')} must be an integer >= 1, got {value!r}")
        if not is_int(self.candidates) or self.candidates < 1:
            raise MetaError(f"candidates must be an integer >= 1, got {self.candidates!r}")
        bounds = self.bounds.checked()
        ladder = self.ladder_agents
        if ladder is None:
            ladder = (*beside, agent) if beside else ("planner", agent)
            if agent == "planner" and not beside:
                ladder = ("greedy", "planner")
        ladder = tuple(_label(a) for a in ladder)
        if bounds.ladder and len(set(ladder)) < 2:
            raise MetaError(
                f"the ladder's order needs at least two different agents, got {list(ladder)}; "
                "name them, or switch the ladder bound off"
            )
        meta = self.meta.checked(play_rules(rules).players)
        from antipolix.balance import skill_axis

        try:  # every agent of the values rated by the ladder, before any game
            skill_axis([agent, *beside], rules.players, self.ladder)
        except AntipolixError as exc:
            raise MetaError(str(exc)) from None
        return ProposalSettings(
            agent,
            beside,
            fix,
            bounds,
            self.value_games,
            self.iterations,
            self.health_games,
            ladder,
            self.ladder_games,
            meta,
            self.replicates,
            self.candidates,
            None if self.ladder is None else str(self.ladder),
        )


def _label(name: str) -> str:
    try:
        return agent_label(agent_named(name))
    except AntipolixError as exc:
        raise MetaError(str(exc)) from None


# -- balance: the smallest move to a balanced table ------------------------------------------


def balanced(cost: int, row: Mapping[str, Any]) -> bool | None:
    """Is a kind at ``cost`` balanced by its values ``row`` (``value``, ``value_low``,
    ``value_high``): the cost inside the value's interval, or within half a point of the value
    (whole points get no closer)? None when the games could not price it."""
    v, lo, hi = float(row["value"]), float(row["value_low"]), float(row["value_high"])
    if not all(math.isfinite(x) for x in (v, lo, hi)):
        return None
    return bool(lo <= cost <= hi or abs(v - cost) <= HALF_POINT)


def nearest_balanced(cost: int, row: Mapping[str, Any]) -> int:
    """The whole cost, at least 1, inside the value's interval that is nearest ``cost`` (the
    smallest change that balances the kind); the rounded value when no whole cost lies
    inside."""
    v, lo, hi = float(row["value"]), float(row["value_low"]), float(row["value_high"])
    if balanced(cost, row) in (True, None):
        return cost
    inside = range(max(1, math.ceil(lo)), math.floor(hi) + 1)
    if len(inside):
        return min(inside, key=lambda c: (abs(c - cost), c))
    return max(1, round(v))


def smallest_move(
    costs: Costs, table: pd.DataFrame, fix: Sequence[str] = (), step: float = STEP
) -> Costs:
    """The next cost table: each kind that is not fixed and not balanced by ``table`` (one
    agent's values, indexed by kind) moves toward :func:`nearest_balanced`, damped as
    :func:`antipolix.balance.fit_costs` damps (``cost × (target / cost) ** step``, at least one
    point, never past the target); the others are kept. A kind stops at the first cost that
    balances it, so the steps end at the balanced table nearest the start."""
    out = dict(costs)
    for k, c in costs.items():
        if k in fix or k not in table.index:
            continue
        target = nearest_balanced(c, table.loc[k])
        if target == c:
            continue
        damped = round(c * (target / c) ** step)
        if damped == c:
            damped = c + (1 if target > c else -1)
        out[k] = max(1, min(damped, target) if target > c else max(damped, target))
    return out


def options(end: int, start: int, row: Mapping[str, Any]) -> list[int]:
    """The whole costs (at least 1) that balance a kind by its values ``row`` (measured at the
    step-1 end), from ``end`` (the first cost that balanced it, walking from ``start``) onward,
    away from the start: the costs between were measured unbalanced on the way. Nearest the
    start first, at most :data:`OPTIONS_PER_KIND`."""
    lo, hi = float(row["value_low"]), float(row["value_high"])
    inside = set(range(max(1, math.ceil(lo)), math.floor(hi) + 1)) if math.isfinite(lo) else set()
    outward = {c for c in inside if (c - end) * (1 if end >= start else -1) >= 0}
    outward.add(end)
    inside = outward
    ranked = sorted(inside, key=lambda c: (abs(c - start), c))
    return ranked[:OPTIONS_PER_KIND]


@dataclass(frozen=True)
class Step:
    """One balance step: the costs, their values (the strongest agent's, indexed by kind) and
    the kinds that values balance."""

    costs: Costs
    values: Values
    balanced: dict[str, bool | None]


@dataclass(frozen=True)
class BalancePath:
    """One seed set's balance steps and where they ended: ``end`` (the last step's costs when
    it balanced every free kind, else the move it proposes), ``verified`` (the end was measured
    and balanced), ``why`` (in words, when not)."""

    seed_set: int
    seed: int
    steps: tuple[Step, ...]
    end: Costs
    verified: bool
    why: str = ""

    @property
    def games(self) -> int:
        return sum(s.values.games for s in self.steps)


def change(costs: Mapping[str, int], start: Mapping[str, int]) -> tuple[int, int]:
    """How far a table is from the start: kinds changed, then total change in points."""
    moved = [k for k in costs if costs[k] != start[k]]
    return len(moved), sum(abs(costs[k] - start[k]) for k in costs)


# -- candidates ---------------------------------------------------------------------------------


@dataclass
class Candidate:
    """A cost table tried: ``costs``; ``unbalanced``: kinds the values predict it leaves
    unbalanced (empty: a balanced table); ``health``/``verdicts``: what was measured there and
    each bound's verdict (empty until measured)."""

    costs: Costs
    unbalanced: tuple[str, ...]
    start: Costs
    health: Health = field(default_factory=Health)
    verdicts: list[Verdict] = field(default_factory=list)

    @property
    def changed(self) -> tuple[int, int]:
        return change(self.costs, self.start)

    @property
    def kept(self) -> bool | None:
        """Every bound measured and kept (True), one broken (False), or not measured yet."""
        if not self.verdicts:
            return None
        if binding(self.verdicts):
            return False
        return True if all(v.kept for v in self.verdicts) else None

    def describe(self) -> str:
        kinds, points = self.changed
        moved = ", ".join(
            f"{k} {self.start[k]}→{c}" for k, c in self.costs.items() if c != self.start[k]
        )
        return (
            f"{moved or 'no change'} ({kinds} kind{'s' * (kinds != 1)}, {points} "
            f"point{'s' * (points != 1)})"
        )


def candidates(
    start: Costs,
    end: Costs,
    table: pd.DataFrame,
    fix: Sequence[str],
    limit: int,
    steps: Sequence[tuple[Costs, Mapping[str, bool | None]]] = (),
) -> list[Candidate]:
    """The tables to try, in order (module doc), at most ``limit``:

    1. every balanced table built from ``end`` (each kind it changed at one of
       :func:`options`, from ``table``: the values at ``end``'s last measured step), nearest
       the start first (fewest kinds changed, then the smallest total change);
    2. the trade-off: the measured ``steps`` on the way (costs, and which kinds their values
       balance), the nearest to balance first; then ``end``'s changes applied to some of the
       kinds only; fewest kinds left unbalanced first."""
    moved = [k for k in end if end[k] != start[k] and k not in fix]
    if not moved:
        return [Candidate(dict(start), (), start)]
    choices = [
        options(end[k], start[k], table.loc[k]) if k in table.index else [end[k]] for k in moved
    ]
    balanced_tables = []
    for combo in itertools.product(*choices):
        costs = dict(start)
        costs.update(zip(moved, combo, strict=True))
        balanced_tables.append(costs)
    balanced_tables.sort(key=lambda c: change(c, start))
    out = [Candidate(c, (), start) for c in balanced_tables]
    seen = [c.costs for c in out]
    partial = []
    for costs, state in reversed(steps):
        if costs == start or costs in seen:
            continue
        left = tuple(k for k in moved if state.get(k) is not True)
        partial.append(Candidate(dict(costs), left, start))
        seen.append(costs)
    subsets = []
    for size in range(len(moved) - 1, 0, -1):
        for kept in itertools.combinations(moved, size):
            costs = dict(start)
            costs.update({k: end[k] for k in kept})
            if costs in seen:
                continue
            left = tuple(k for k in moved if k not in kept)
            subsets.append(Candidate(costs, left, start))
    partial = sorted(partial + subsets, key=lambda c: len(c.unbalanced))  # stable: steps first
    return (out + partial)[:limit]


# -- the proposal -----------------------------------------------------------------------------


@dataclass
class Proposal:
    """A finished proposal (module doc)."""

    rules: Rules
    settings: ProposalSettings
    seed: int
    start: Costs
    paths: list[BalancePath]
    start_health: Health
    tried: list[Candidate]
    proposal: Costs | None
    values_start: Values | None = None
    values_proposal: Values | None = None
    seconds: dict[str, float] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)
    out: Path | None = None

    @property
    def proposed_rules(self) -> Rules | None:
        return None if self.proposal is None else with_costs(self.rules, self.proposal)

    @property
    def chosen(self) -> Candidate | None:
        return next((c for c in self.tried if c.kept), None)

    def stability(self) -> pd.DataFrame:
        """Per kind: the step-1 table's cost on each seed set, the spread (largest − smallest)
        and whether the sets agree within one point."""
        rows = []
        for k in self.start:
            costs = [p.end[k] for p in self.paths]
            spread = max(costs) - min(costs)
            rows.append(
                {"kind": k, "start": self.start[k]}
                | {f"set {p.seed_set}": p.end[k] for p in self.paths}
                | {"spread": spread, "stable": spread <= 1}
            )
        return pd.DataFrame(rows)

    @property
    def stable(self) -> bool:
        return bool(self.stability()["stable"].all()) and all(p.verified for p in self.paths)

    def verdict(self) -> str:
        """One line: the proposal, or why there is none."""
        if self.proposal is None:
            first = self.tried[0] if self.tried else None
            if first is None:
                return "no proposal: no candidate table"
            broken = ", ".join(binding(first.verdicts)) or "unmeasured"
            return (
                f"no proposal: no table tried keeps every bound (the balanced table "
                f"{first.describe()} breaks {broken})"
            )
        if self.proposal == self.start:
            main = self.paths[0]
            if not main.verified:
                return f"the start costs are kept: no balanced table was found ({main.why})"
            return f"the start costs already balance at {self.settings.agent}: keep them"
        chosen = self.chosen
        assert chosen is not None
        if chosen.unbalanced:
            kind = f"leaves {', '.join(chosen.unbalanced)} unbalanced"
        else:
            off = self.measured_off()
            kind = (
                "balanced as measured at the proposal"
                if not off
                else "predicted balanced, but measured at the proposal "
                + "; ".join(f"{k} {v}" for k, v in off.items())
            )
        return f"proposed {chosen.describe()}: {kind}; every bound kept"

    def measured_off(self) -> dict[str, str]:
        """The kinds (not fixed) the values measured at the proposal leave unbalanced, each
        with its value per cost point (or why it was not estimated)."""
        if self.values_proposal is None or self.proposal is None:
            return {}
        table = self.values_proposal.of(self.settings.agent)
        out = {}
        for k, cost in self.proposal.items():
            if k in self.settings.fix or k not in table.index:
                continue
            row = table.loc[k]
            state = balanced(cost, row)
            if state is None:
                out[k] = f"not estimated ({row['note']})"
            elif not state:
                out[k] = (
                    f"still {row['verdict']} (value/cost {row['ratio']:.2f} "
                    f"[{row['ratio_low']:.2f}, {row['ratio_high']:.2f}])"
                )
        return out

    def binding_bounds(self) -> list[str]:
        """The bounds that balanced tables tried broke (what pulls balance and health apart)."""
        out: list[str] = []
        for c in self.tried:
            if not c.unbalanced:
                out += [b for b in binding(c.verdicts) if b not in out]
        return out


def make_proposal(
    rules: Rules,
    settings: ProposalSettings | None = None,
    *,
    seed: int = 0,
    out: str | Path,
    workers: int | None = None,
    say: Say | None = None,
    progress: bool = False,
    finish: Callable[[Proposal], None] | None = None,
) -> Proposal:
    """Derive a cost table (module doc) in the folder ``out``; see :class:`ProposalSettings`.
    ``finish`` is called with the result while the folder is still locked (the outputs:
    :func:`antipolix.meta.run.propose`). Bad settings, and a folder holding anything else,
    raise :class:`MetaError` before any game is played or any file is written."""
    began = time.perf_counter()
    if not isinstance(rules, Rules):
        raise MetaError(f"rules must be a Rules, got {type(rules).__name__}")
    from antipolix.balance.fit import check_rules

    try:
        check_rules(rules)
        seed = check_seed(seed)
    except AntipolixError as exc:
        raise MetaError(str(exc)) from None
    s = (settings or ProposalSettings()).checked(rules)
    folder = Path(out)
    spec = _spec(rules, s, seed)
    check_folder(folder, spec, STUDY_FILE, "proposal")
    run = _Run(rules, s, seed, folder, workers, say or (lambda _: None), progress)
    with opened(folder, spec, STUDY_FILE, "proposal"), ray_once(workers):
        result = run.all()
        result.seconds["all"] = time.perf_counter() - began
        if finish is not None:
            finish(result)
    return result


@dataclass
class _Run:
    rules: Rules
    s: ProposalSettings
    seed: int
    folder: Path
    workers: int | None
    say: Say
    progress: bool
    seconds: dict[str, float] = field(default_factory=dict)
    games: dict[str, int] = field(default_factory=dict)

    @contextlib.contextmanager
    def timed(self, part: str) -> Iterator[None]:
        began = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[part] = self.seconds.get(part, 0.0) + time.perf_counter() - began

    def count(self, part: str, games: int) -> None:
        self.games[part] = self.games.get(part, 0) + games

    def all(self) -> Proposal:
        s, start = self.s, costs_of(self.rules)
        paths = [self.balance(i) for i in range(s.replicates)]
        main = paths[0]
        last = main.steps[-1]
        table = last.values.of(s.agent)
        steps = [(st.costs, st.balanced) for st in main.steps]
        tried = candidates(start, main.end, table, s.fix, s.candidates, steps)
        start_health = self.health(start, meta=True)
        proposal = None
        for candidate in tried:
            self.say(f"candidate {candidate.describe()}")
            candidate.health, candidate.verdicts = self.judge(candidate.costs, start_health)
            if candidate.kept:
                proposal = candidate.costs
                break
        values_start = self.values(start, (s.agent, *s.beside), 0, "values")
        values_proposal = None
        if proposal is not None:
            values_proposal = self.values(proposal, (s.agent, *s.beside), 0, "values")
        return Proposal(
            self.rules,
            s,
            self.seed,
            start,
            paths,
            start_health,
            tried,
            proposal,
            values_start,
            values_proposal,
            self.seconds,
            self.games,
            self.folder,
        )

    # -- the parts ------------------------------------------------------------------------

    def set_seed(self, i: int) -> int:
        """Seed set ``i``'s root seed: the study's for set 0, an independent one for the
        others (``SeedSequence([seed, 34, i])``)."""
        if i == 0:
            return self.seed
        state = np.random.SeedSequence([self.seed, 34, i]).generate_state(2, dtype=np.uint32)
        return int((int(state[0]) << 31) | (int(state[1]) >> 1))

    def values(self, costs: Costs, agents: Sequence[str], seed_set: int, part: str) -> Values:
        folder = self.folder / "values" / f"set-{seed_set}" / slug(costs)
        self.say(f"values at {slug(costs)} (seed set {seed_set}): {', '.join(agents)}")
        with self.timed(part):
            got = measure_values(
                with_costs(self.rules, costs),
                list(agents),
                self.s.value_games,
                self.set_seed(seed_set),
                out=folder,
                workers=self.workers,
                ladder=self.s.ladder,
            )
        self.count(part, got.games)
        return got

    def balance(self, i: int) -> BalancePath:
        s = self.s
        costs = costs_of(self.rules)
        steps: list[Step] = []
        seen: list[Costs] = []
        for _ in range(s.iterations):
            values = self.values(costs, (s.agent,), i, "balance")
            table = values.of(s.agent)
            unpriced = table[table["verdict"] == "not estimated"]
            if len(unpriced) == len(table):
                why = str(unpriced["note"].iloc[0]) if len(unpriced) else "no kind"
                if not steps:
                    raise MetaError(
                        f"the values of {s.agent} at the start costs cannot be measured (seed "
                        f"set {i}): {why}; play more games (value games) or check the agent"
                    )
                return BalancePath(
                    i,
                    self.set_seed(i),
                    tuple(steps),
                    steps[-1].costs,
                    False,
                    f"the values could not be measured at {slug(costs)} ({why}); the last "
                    "measured table is kept",
                )
            state = {
                k: (None if k not in table.index else balanced(c, table.loc[k]))
                for k, c in costs.items()
            }
            steps.append(Step(dict(costs), values, state))
            seen.append(dict(costs))
            nxt = smallest_move(costs, table, s.fix)
            if nxt == costs:
                free = [k for k in costs if k not in s.fix]
                missing = [k for k in free if state[k] is None]
                why = f"the games cannot price {', '.join(missing)}" if missing else ""
                return BalancePath(i, self.set_seed(i), tuple(steps), costs, not missing, why)
            if nxt in seen:
                best = min(steps, key=lambda st: _imbalance(st))
                return BalancePath(
                    i,
                    self.set_seed(i),
                    tuple(steps),
                    best.costs,
                    False,
                    "the steps went round in a circle (whole-point costs cannot settle); the "
                    "least unbalanced table measured is kept",
                )
            costs = nxt
        return BalancePath(
            i,
            self.set_seed(i),
            tuple(steps),
            costs,
            False,
            f"the iteration limit ({s.iterations}) was reached before a measured table "
            "balanced every kind; the last move is kept unmeasured",
        )

    def health(self, costs: Costs, *, meta: bool) -> Health:
        """Draws, length and seats, the ladder and (``meta``) the meta at ``costs``."""
        h = Health()
        h.measures = self.measures(costs)
        if self.s.bounds.ladder:
            h.ladder = self.ladder(costs)
        if meta:
            h.meta = self.meta(costs)
        return h

    def measures(self, costs: Costs) -> Measures:
        s = self.s
        self.say(f"health at {slug(costs)}: {s.health_games} games of {s.agent}")
        with self.timed("health"):
            got = play_health(
                with_costs(self.rules, costs),
                agent_named(s.agent),
                s.health_games,
                self.seed,
                out=self.folder / "health" / slug(costs),
                workers=self.workers,
                progress=self.progress,
                level=s.bounds.seat_level,
            )
        self.count("health", got.games)
        return got

    def ladder(self, costs: Costs) -> Any:
        s = self.s
        assert s.ladder_agents is not None
        self.say(f"ladder at {slug(costs)}: {', '.join(s.ladder_agents)}")
        with self.timed("ladder"):
            got = play_ladder(
                with_costs(self.rules, costs),
                s.ladder_agents,
                s.ladder_games,
                self.seed,
                out=self.folder / "ladder" / slug(costs),
                workers=self.workers,
                progress=self.progress,
            )
        self.count("ladder", got.games)
        return got

    def meta(self, costs: Costs) -> Meta:
        s = self.s
        self.say(f"meta at {slug(costs)}: army search of {s.agent}")
        with self.timed("meta"):
            got = run_search(
                with_costs(self.rules, costs),
                s.agent,
                settings=s.meta,
                seed=self.seed,
                out=self.folder / "meta" / slug(costs),
                workers=self.workers,
                progress=self.progress,
            )
            assert got.out is not None
            write_meta(got, got.out, s.bounds.meta)
        self.count("meta", got.games)
        return got

    def judge(self, costs: Costs, start: Health) -> tuple[Health, list[Verdict]]:
        """Measure ``costs`` bound by bound, cheapest first, stopping at the first broken."""
        h = Health(measures=self.measures(costs))
        verdicts = judge(h, start, self.s.bounds)
        if binding(verdicts):
            return h, verdicts
        if self.s.bounds.ladder:
            h.ladder = self.ladder(costs)
            verdicts = judge(h, start, self.s.bounds)
            if binding(verdicts):
                return h, verdicts
        h.meta = self.meta(costs)
        return h, judge(h, start, self.s.bounds)


def _imbalance(step: Step) -> tuple[int, float]:
    """How unbalanced a measured step is: kinds unbalanced, then Σ |value − cost|."""
    table = step.values.table
    gap = float(np.nansum(np.abs(table["value"] - table["cost"])))
    return sum(1 for v in step.balanced.values() if v is False), gap


# -- the folder ---------------------------------------------------------------------------------


def _spec(rules: Rules, s: ProposalSettings, seed: int) -> dict[str, Any]:
    spec: dict[str, Any] = as_json(
        {
            "format": STUDY_FORMAT,
            "version": STUDY_VERSION,
            "rules": rules_to_dict(rules),
            "seed": seed,
            **asdict(s),
        }
    )
    return spec


__all__ = [
    "HALF_POINT",
    "Candidate",
    "Proposal",
    "ProposalSettings",
    "balanced",
    "candidates",
    "change",
    "make_proposal",
    "nearest_balanced",
    "options",
    "smallest_move",
]
