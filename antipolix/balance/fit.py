"""Estimate what each kind of piece is worth, and fit a cost table under which none dominates.

``estimate_values`` plays games where every player's army is drawn at random under the budget
(:class:`~antipolix.agents.RandomArmy` with a random share of the budget spent, seats shuffled)
and fits values (:mod:`antipolix.balance.values`). ``fit_costs`` iterates: simulate, estimate,
move each cost toward its value (``cost × (value / cost) ** step``, step 0.5 by default,
rounded, at least 1), with the
same game seeds every iteration (common random numbers), until every kind's value per cost point
is 1 within its 95 % interval or the iteration limit is reached.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from antipolix.agents import Agent, RandomArmy, agent_named
from antipolix.balance.design import SPEND
from antipolix.balance.report import write_report
from antipolix.balance.study import (
    STUDY_FORMAT,
    CostFit,
    balanced,
    open_study,
    save_costs,
    set_aside,
)
from antipolix.balance.values import (
    BalanceError,
    ValueEstimate,
    estimate,
    kind_cost,
    players_table,
    priced_kinds,
    seat_kinds,
)
from antipolix.checks import is_int, is_plain_number
from antipolix.codec import rules_to_dict, with_options
from antipolix.errors import AntipolixError
from antipolix.limits import check_seed, check_size
from antipolix.rules import Rules
from antipolix.runner import simulate

Progress = Callable[[str], None]


def balancing_agent(agent: Agent | str, spend: tuple[float, float] = SPEND) -> Agent:
    """A copy of ``agent`` whose army is drawn at random (all types × traits) under a random
    share ``spend`` of the budget."""
    base = agent_named(agent) if isinstance(agent, str) else agent
    if not isinstance(base, Agent):
        raise BalanceError(f"agent must be an Agent or a built-in agent name, got {agent!r}")
    out = copy.deepcopy(base)
    out.army_policy = RandomArmy(spend=spend)
    return out


def play_games(
    rules: Rules,
    agent: Agent,
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    out: Path | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Play ``games`` games with ``agent`` in every seat (seats shuffled per game); one row per
    game: ``game``, ``winner`` (seat or None), ``reason``, ``turns``, ``kinds`` (per seat, its
    pieces counted by priced kind, :func:`~antipolix.balance.values.item_kinds`)."""
    results = simulate(
        rules,
        [agent] * rules.players,
        games,
        seed,
        workers=workers,
        out=out,
        shuffle_seats=True,
        progress=progress,
    )
    return games_frame(results.to_pandas())


def games_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A study's results table (:meth:`~antipolix.Results.to_pandas`) as a balancing study
    reads it: one row per game, ``game``, ``winner`` (seat or None), ``reason``, ``turns``,
    ``elimination_order`` (seats, first out first), ``seconds``, ``kinds`` (per seat, its
    pieces counted by priced kind, :func:`~antipolix.balance.values.item_kinds`) and
    ``elimination_reason`` (per seat, why it left the game, R7, R8, R9; None where the rows do
    not say)."""
    frame = frame.sort_values("game", kind="stable")
    why = frame["elimination_reason"] if "elimination_reason" in frame else [None] * len(frame)
    return pd.DataFrame(
        {
            "game": frame["game"].to_numpy(),
            "winner": [None if pd.isna(w) else int(w) for w in frame["winner"]],
            "reason": frame["reason"].to_numpy(),
            "turns": frame["turns"].to_numpy(),
            "elimination_order": [[int(s) for s in o] for o in frame["elimination_order"]],
            "seconds": frame["seconds"].to_numpy(),
            "kinds": seat_kinds(frame),
            "elimination_reason": [None if w is None else list(w) for w in why],
        }
    )


def estimate_values(
    rules: Rules,
    agent: Agent | str,
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    out: str | Path | None = None,
    spend: tuple[float, float] = SPEND,
    progress: bool = False,
) -> ValueEstimate:
    """Play ``games`` games of random armies and estimate each priced kind's value (R2).

    Returns a :class:`ValueEstimate`; its ``table`` has one row per priced kind with ``kind``,
    ``cost``, ``value``, ``value_low``, ``value_high`` (95 %, budget points) and more.
    """
    check_rules(rules)
    seed = check_seed(seed)
    check_size(rules)
    _check_count(games, "games")
    began = time.perf_counter()
    played = play_games(
        rules,
        balancing_agent(agent, spend),
        games,
        seed,
        workers=workers,
        out=None if out is None else Path(out),
        progress=progress,
    )
    return estimate_played(rules, played, time.perf_counter() - began)


def estimate_played(rules: Rules, played: pd.DataFrame, seconds_games: float) -> ValueEstimate:
    """:func:`estimate_values`'s fit of games already played (:func:`play_games`' table)."""
    fitting = time.perf_counter()
    table = players_table(
        played["game"].tolist(), played["winner"].tolist(), played["kinds"].tolist()
    )
    result = estimate(table, rules)
    return ValueEstimate(
        result.table,
        result.games,
        result.decided,
        result.players,
        played,
        seconds_games=seconds_games,
        seconds_fit=time.perf_counter() - fitting,
    )


def check_rules(rules: Rules) -> None:
    """Refuse rules a balancing study cannot price: a type that costs nothing.

    The rules themselves are valid (``play`` and ``simulate`` accept free pieces); balancing
    needs more, and says why: it moves each cost by value / cost, which a cost of 0 has not.
    """
    if not isinstance(rules, Rules):
        raise BalanceError(f"rules must be a Rules, got {type(rules).__name__}")
    free = [k for k in priced_kinds(rules) if kind_cost(rules, k) <= 0]
    if free:
        names = ", ".join(free)
        raise BalanceError(
            f"balance cannot price a free piece: {names} cost{'s' if len(free) == 1 else ''} "
            "0. The rules allow it (play and simulate accept free pieces), but a balancing "
            "study moves every type's cost by value / cost, so each type must cost at least 1 "
            f"(R2): set {free[0]}.cost=1 or more"
        )


def check_step(step: object) -> float:
    """The damping exponent of a cost step: a number above 0 and at most 1 (1 moves a cost all
    the way to its value; above 1 overshoots and oscillates; 0 or below never moves or moves
    away from the value)."""
    if not is_plain_number(step) or not 0 < step <= 1:
        raise BalanceError(
            f"step must be a number above 0 and at most 1 (cost × (value/cost)^step; 0.5 damps, "
            f"1 jumps to the value), got {step!r}"
        )
    return float(step)


def _costs(rules: Rules) -> dict[str, int]:
    return {k: kind_cost(rules, k) for k in priced_kinds(rules)}


def _with_costs(rules: Rules, costs: dict[str, int]) -> Rules:
    try:
        return with_options(rules, [(f"{k}.cost", v) for k, v in costs.items()])
    except AntipolixError as exc:
        raise BalanceError(f"the cost table {costs} is not valid: {exc}") from None


def _step_costs(est: ValueEstimate, step: float) -> dict[str, int]:
    """The next cost of every kind; a kind the games could not price keeps its cost."""
    out = {}
    for row in est.table.itertuples():
        if not math.isfinite(float(row.ratio)):
            out[str(row.kind)] = int(row.cost)
            continue
        ratio = min(max(float(row.ratio), 0.25), 4.0)  # at most ×4 or ÷4 per iteration
        out[str(row.kind)] = max(1, round(int(row.cost) * ratio**step))
    return out


def fit_costs(
    rules: Rules,
    agent: Agent | str,
    games_per_iteration: int,
    iterations: int,
    seed: int,
    *,
    workers: int | None = None,
    out: str | Path | None = None,
    spend: tuple[float, float] = SPEND,
    step: float = 0.5,
    report: bool = True,
    progress: Progress | None = None,
) -> CostFit:
    """Iterate simulate → estimate → move costs toward values; returns the :class:`CostFit`.

    The same seed (hence the same game seeds) is used at every iteration: common random
    numbers, so a change between iterations comes from the costs, not from luck. With ``out``,
    each iteration's games are a resumable Parquet dataset in ``out/iteration-K``, the costs per
    iteration go to ``out/costs.csv`` and ``out/costs.json``, and (``report``) plots and
    ``out/report.md`` are written at the end; running again with the same ``out`` resumes.
    """
    check_rules(rules)
    step = check_step(step)
    seed = check_seed(seed)
    check_size(rules)
    _check_count(iterations, "iterations")
    _check_count(games_per_iteration, "games per iteration")
    bot = balancing_agent(agent, spend)
    folder = None if out is None else Path(out)
    if folder is not None:
        spec = {
            "format": STUDY_FORMAT,
            "rules": rules_to_dict(rules),
            "agent": bot.spec(),
            "games_per_iteration": games_per_iteration,
            "seed": seed,
            "spend": list(spend),
            "step": step,
        }
        open_study(folder, spec)
    fit = CostFit(rules=rules, agent_name=bot.name)
    run = _Iterations(fit, bot, games_per_iteration, seed, workers, folder, spend, step, progress)
    costs = _costs(rules)
    fit.method = _method(step)
    try:
        for i in range(iterations):
            run.play(i, costs)
            if fit.converged or fit.proposed == costs:
                break
            _with_costs(rules, fit.proposed)  # refuse a table the rules reject before playing it
            costs = fit.proposed
    except BaseException as exc:
        _stopped(fit, run, len(fit.estimates), costs, exc)
        written = _save(fit, folder, report)
        if isinstance(exc, AntipolixError):
            where = f"; what the study had is in {written}" if written is not None else ""
            raise BalanceError(f"{fit.stopped}{where}") from None
        raise
    fit.description = _description(rules, bot.name, spend, len(fit.estimates), run)
    _save(fit, folder, report)
    return fit


def _stopped(
    fit: CostFit, run: _Iterations, i: int, costs: dict[str, int], exc: BaseException
) -> None:
    """Record why the fit stopped at iteration ``i`` (played at ``costs``)."""
    if isinstance(exc, KeyboardInterrupt):  # (Ctrl-C, or SIGTERM: Terminated)
        why = str(exc) or "interrupted"
    elif isinstance(exc, AntipolixError):
        why = str(exc)
    else:
        why = f"{type(exc).__name__}: {exc}"
    again = (
        "run again with more games per iteration and the same out folder (the games played "
        "are kept)"
        if run.folder is not None
        else "play more games per iteration"
    )
    if isinstance(exc, BalanceError) and run.pending is not None:
        why = f"{why}; {again}"
    fit.stopped = f"iteration {i}: {why}"
    fit.stopped_costs = dict(costs)
    fit.stopped_games = run.pending
    fit.description = _description(fit.rules, fit.agent_name, run.spend, i + 1, run)


def _save(fit: CostFit, folder: Path | None, report: bool) -> Path | None:
    """Write the costs and (``report``) the report; the report's path, or None. A study that
    stopped writes what it can, and never hides why it stopped behind a second error."""
    if folder is None:
        return None
    try:
        save_costs(fit, folder)
        return write_report(fit, folder) if report else None
    except OSError as exc:
        if not fit.stopped:
            raise BalanceError(
                f"cannot write the study files in {folder}: {exc.strerror}"
            ) from None
        return None


def _check_count(value: object, what: str) -> None:
    if not is_int(value) or value < 1:
        raise BalanceError(f"{what} must be a positive integer, got {value!r}")


@dataclass
class _Iterations:
    """The iterations of one fit: each plays its games at the current costs, estimates the
    values, and proposes the next costs."""

    fit: CostFit
    bot: Agent
    games: int
    seed: int
    workers: int | None
    folder: Path | None
    spend: tuple[float, float]
    step: float
    progress: Progress | None

    pending: pd.DataFrame | None = None  # the games of the iteration being fitted

    def play(self, i: int, costs: dict[str, int]) -> None:
        fit = self.fit
        current = _with_costs(fit.rules, costs)
        self._say(f"iteration {i}: costs {costs}, {self.games} games")
        self.pending = None
        est = self._estimate(i, current)
        self.pending = None
        fit.costs.append(costs)
        fit.estimates.append(est)
        assert est.games_table is not None
        fit.games.append(est.games_table)
        fit.converged = balanced(est)
        fit.proposed = costs if fit.converged else _step_costs(est, self.step)
        self._say(
            f"iteration {i}: games {est.seconds_games:.1f} s, fit {est.seconds_fit:.1f} s; "
            f"value/cost {_ratios(est)}; next costs {fit.proposed}"
        )
        if self.folder is not None:
            save_costs(fit, self.folder)

    def _estimate(self, i: int, rules: Rules) -> ValueEstimate:
        games = None if self.folder is None else self.folder / f"iteration-{i}"
        if games is not None and self.folder is not None:
            moved = set_aside(games, rules, self.folder)
            if moved is not None:
                self._say(f"iteration {i}: {moved}")
        began = time.perf_counter()
        self.pending = play_games(
            rules,
            self.bot,
            self.games,
            self.seed,
            workers=self.workers,
            out=games,
            progress=self.progress is not None,
        )
        return estimate_played(rules, self.pending, time.perf_counter() - began)

    def _say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)


def _ratios(est: ValueEstimate) -> str:
    return ", ".join(
        f"{r.kind} {r.ratio:.2f} [{r.ratio_low:.2f}, {r.ratio_high:.2f}]"
        if math.isfinite(r.ratio)
        else f"{r.kind} not estimated ({r.note})"
        for r in est.table.itertuples()
    )


def _description(
    rules: Rules, agent: str, spend: tuple[float, float], iterations: int, run: _Iterations
) -> str:
    return (
        f"Rules: board {'×'.join(map(str, rules.shape))}, {rules.players} players, budget "
        f"{rules.army_budget}, turn limit {rules.max_turns}. Every seat played by the "
        f"`{agent}` agent with a random army (every type with trait none, invisible or "
        f"teleporter, bought at random while affordable within a random {spend[0]:.0%}–"
        f"{spend[1]:.0%} of the budget; seats shuffled per game). {iterations} "
        f"iteration(s) of {run.games} games, study seed {run.seed}."
    )


def _method(step: float) -> str:
    return (
        "Each player's army is counted by kind (types, and the paid traits invisible and "
        "teleporter; the chief aside). A conditional logit (statsmodels `ConditionalLogit`, "
        "grouped by game, draws left out) fits the log-odds of winning per piece of each kind. "
        "Values are those log-odds divided by the log-odds of the average spent budget point, "
        "so they read in budget points; 95 % intervals by the delta method. Each iteration "
        f"moves every cost to cost × (value/cost)^{step:g} (at most ×4 or ÷4, rounded, at "
        "least 1) and replays the same game seeds (common random numbers)."
    )
