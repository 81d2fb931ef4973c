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
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from antipolix.agents import Agent, RandomArmy, agent_named
from antipolix.balance.values import (
    BalanceError,
    ValueEstimate,
    estimate,
    kind_cost,
    players_table,
    priced_kinds,
)
from antipolix.config import apply_overrides, rules_to_dict
from antipolix.errors import AntipolixError
from antipolix.limits import check_seed, check_size
from antipolix.results import STUDY_FILE, read_study
from antipolix.rules import Rules

SPEND = (0.3, 1.0)  # share of the budget each random army spends, drawn uniformly
STUDY_FORMAT = "antipolix-balance"
SUPERSEDED = "superseded"  # iterations played at costs a grown study no longer reaches
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
    game: ``game``, ``winner`` (seat or None), ``reason``, ``turns``, ``armies`` (per seat, the
    item names as placed)."""
    from antipolix.simulate import simulate

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
    frame = results.to_pandas()
    return pd.DataFrame(
        {
            "game": frame["game"].to_numpy(),
            "winner": [None if pd.isna(w) else int(w) for w in frame["winner"]],
            "reason": frame["reason"].to_numpy(),
            "turns": frame["turns"].to_numpy(),
            "armies": [[a.split(",") for a in armies] for armies in frame["armies"]],
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
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise BalanceError(f"games must be a positive integer, got {games!r}")
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
    fitting = time.perf_counter()
    table = players_table(
        played["game"].tolist(), played["winner"].tolist(), played["armies"].tolist()
    )
    result = estimate(table, rules)
    return ValueEstimate(
        result.table,
        result.games,
        result.decided,
        result.players,
        played,
        seconds_games=fitting - began,
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
    if (
        isinstance(step, bool)
        or not isinstance(step, (int, float))
        or not math.isfinite(step)
        or not 0 < step <= 1
    ):
        raise BalanceError(
            f"step must be a number above 0 and at most 1 (cost × (value/cost)^step; 0.5 damps, "
            f"1 jumps to the value), got {step!r}"
        )
    return float(step)


def _costs(rules: Rules) -> dict[str, int]:
    return {k: kind_cost(rules, k) for k in priced_kinds(rules)}


def _with_costs(rules: Rules, costs: dict[str, int]) -> Rules:
    try:
        return apply_overrides(rules, [f"{k}.cost={v}" for k, v in costs.items()])
    except AntipolixError as exc:
        raise BalanceError(f"the cost table {costs} is not valid: {exc}") from None


@dataclass
class CostFit:
    """A finished (or stopped) cost fit: per iteration, the costs used, the value estimates and
    the games; ``proposed`` is the cost table to use next."""

    rules: Rules
    agent_name: str
    costs: list[dict[str, int]] = field(default_factory=list)
    estimates: list[ValueEstimate] = field(default_factory=list)
    games: list[pd.DataFrame] = field(default_factory=list)
    proposed: dict[str, int] = field(default_factory=dict)
    converged: bool = False
    description: str = ""
    method: str = ""

    @property
    def unestimated(self) -> dict[str, str]:
        """Kinds the last iteration's games could not price, with the reason (their costs are
        left as they are and the fit cannot be converged)."""
        return self.estimates[-1].unestimated if self.estimates else {}

    @property
    def verdict(self) -> str:
        """One line: converged, or why not."""
        if self.converged:
            return "converged"
        if self.unestimated:
            return f"not converged: {', '.join(self.unestimated)} could not be estimated"
        if self.costs and self.proposed == self.costs[-1]:
            return "not converged: whole-point costs cannot get closer"
        return "not converged (iteration limit)"

    @property
    def iterations(self) -> pd.DataFrame:
        """Every iteration's value table, with an ``iteration`` column."""
        return pd.concat(
            [e.table.assign(iteration=i) for i, e in enumerate(self.estimates)], ignore_index=True
        )

    def costs_table(self) -> pd.DataFrame:
        """One row per iteration: the costs used and whether every ratio was 1 within its CI."""
        rows: list[dict[str, Any]] = []
        for i, (costs, est) in enumerate(zip(self.costs, self.estimates, strict=True)):
            rows.append({"iteration": i, **costs, "balanced": _balanced(est)})
        rows.append({"iteration": "proposed", **self.proposed, "balanced": None})
        return pd.DataFrame(rows)


def _balanced(est: ValueEstimate) -> bool:
    """Every priced kind estimated, and its value per cost point 1 within its interval."""
    t = est.table
    if est.unestimated:
        return False
    return bool(((t["ratio_low"] <= 1.0) & (t["ratio_high"] >= 1.0)).all())


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


BALANCE_FILES = {"study.json", "costs.csv", "costs.json", "report.md", "plots", SUPERSEDED}


def _study(folder: Path, spec: dict[str, Any]) -> None:
    """Create ``folder/study.json``, or check that the folder holds this same study (or this
    study with fewer games per iteration: it grows, its games are kept). A folder that holds
    anything else (a ``simulate`` study, other files) is refused: nothing is written into it."""
    path = folder / "study.json"
    if folder.exists() and not folder.is_dir():
        raise BalanceError(f"cannot use {folder} for a balancing study: it is not a folder")
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BalanceError(f"{path} is not a balancing study file: {exc}") from None
        if not isinstance(old, dict) or old.get("format") != STUDY_FORMAT:
            raise BalanceError(f"{path} is not a balancing study file; use another --out folder")
        if old == spec:
            return
        diff = sorted(k for k in set(old) | set(spec) if old.get(k) != spec.get(k))
        games, had = spec["games_per_iteration"], old.get("games_per_iteration")
        if diff == ["games_per_iteration"] and isinstance(had, int) and had < games:
            _write_study(folder, spec)  # more games: the study grows, the games played stay
            return
        if diff == ["games_per_iteration"]:
            raise BalanceError(
                f"{folder} holds a balancing study of {had} games per iteration; ask for {had} "
                "or more (a study grows, it never shrinks), or use another --out folder"
            )
        raise BalanceError(
            f"{folder} holds a different balancing study (differs in {', '.join(diff)}); "
            "use another --out folder"
        )
    if folder.is_dir():
        if (folder / STUDY_FILE).exists():
            raise BalanceError(
                f"{folder} holds a simulate study ({STUDY_FILE}); a balancing study needs its "
                "own --out folder"
            )
        others = sorted(
            p.name
            for p in folder.iterdir()
            if p.name not in BALANCE_FILES and not _ours(p) and not p.name.startswith(".")
        )
        if others:
            raise BalanceError(
                f"{folder} is not empty and holds no balancing study (it holds {others[0]}"
                f"{' and more' if len(others) > 1 else ''}); use a new --out folder"
            )
    _write_study(folder, spec)


def _ours(path: Path) -> bool:
    return path.name.startswith("iteration-") and path.is_dir()


def _write_study(folder: Path, spec: dict[str, Any]) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / ".study.json.tmp"
        tmp.write_text(json.dumps(spec, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, folder / "study.json")
    except OSError as exc:
        raise BalanceError(f"cannot write the study folder {folder}: {exc.strerror}") from None


def _set_aside(games: Path, rules: Rules, top: Path) -> str | None:
    """When ``games`` (an iteration's folder) holds games played at other costs than ``rules``
    (the study grew, so the fit before it moved), move it under ``top/superseded`` and say so.
    """
    if not (games / STUDY_FILE).is_file():
        return None
    try:
        variants = read_study(games)["variants"]
    except AntipolixError:
        return None  # simulate refuses it with its own message
    if len(variants) == 1 and variants[0].get("rules") == rules_to_dict(rules):
        return None
    shelf = top / SUPERSEDED
    k = 1
    while (shelf / f"{games.name}-{k}").exists():
        k += 1
    target = shelf / f"{games.name}-{k}"
    try:
        shelf.mkdir(exist_ok=True)
        os.replace(games, target)
    except OSError as exc:
        raise BalanceError(f"cannot move {games} aside: {exc.strerror}") from None
    return f"{games.name} held games played at other costs; moved to {SUPERSEDED}/{target.name}"


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
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise BalanceError(f"iterations must be a positive integer, got {iterations!r}")
    if (
        isinstance(games_per_iteration, bool)
        or not isinstance(games_per_iteration, int)
        or games_per_iteration < 1
    ):
        raise BalanceError(
            f"games per iteration must be a positive integer, got {games_per_iteration!r}"
        )
    bot = balancing_agent(agent, spend)
    folder = None if out is None else Path(out)
    spec = {
        "format": STUDY_FORMAT,
        "rules": rules_to_dict(rules),
        "agent": bot.spec(),
        "games_per_iteration": games_per_iteration,
        "seed": seed,
        "spend": list(spend),
        "step": step,
    }
    if folder is not None:
        _study(folder, spec)
    fit = CostFit(rules=rules, agent_name=bot.name)
    costs = _costs(rules)
    for i in range(iterations):
        current = _with_costs(rules, costs)
        if progress is not None:
            progress(f"iteration {i}: costs {costs}, {games_per_iteration} games")
        games = None if folder is None else folder / f"iteration-{i}"
        if folder is not None and games is not None:
            moved = _set_aside(games, current, folder)
            if moved is not None and progress is not None:
                progress(f"iteration {i}: {moved}")
        try:
            est = estimate_values(
                current,
                bot,
                games_per_iteration,
                seed,
                workers=workers,
                out=games,
                spend=spend,
                progress=progress is not None,
            )
        except BalanceError as exc:
            again = (
                "run again with more games per iteration and the same out folder (the games "
                "played are kept)"
                if folder is not None
                else "play more games per iteration"
            )
            raise BalanceError(f"iteration {i}: {exc}; {again}") from None
        fit.costs.append(costs)
        fit.estimates.append(est)
        assert est.games_table is not None
        fit.games.append(est.games_table)
        fit.converged = _balanced(est)
        fit.proposed = costs if fit.converged else _step_costs(est, step)
        if progress is not None:
            ratios = ", ".join(
                f"{r.kind} {r.ratio:.2f} [{r.ratio_low:.2f}, {r.ratio_high:.2f}]"
                if math.isfinite(r.ratio)
                else f"{r.kind} not estimated ({r.note})"
                for r in est.table.itertuples()
            )
            progress(
                f"iteration {i}: games {est.seconds_games:.1f} s, fit {est.seconds_fit:.1f} s; "
                f"value/cost {ratios}; next costs {fit.proposed}"
            )
        if folder is not None:
            _save_costs(fit, folder)
        if fit.converged or fit.proposed == costs:
            break
        _with_costs(rules, fit.proposed)  # refuse a table the rules reject before playing it
        costs = fit.proposed
    fit.description = (
        f"Rules: board {'×'.join(map(str, rules.shape))}, {rules.players} players, budget "
        f"{rules.army_budget}, turn limit {rules.max_turns}. Every seat played by the "
        f"`{bot.name}` agent with a random army (every type with trait none, invisible or "
        f"teleporter, bought at random while affordable within a random {spend[0]:.0%}–"
        f"{spend[1]:.0%} of the budget; seats shuffled per game). {len(fit.estimates)} "
        f"iteration(s) of {games_per_iteration} games, study seed {seed}."
    )
    fit.method = (
        "Each player's army is counted by kind (types, and the paid traits invisible and "
        "teleporter; the chief aside). A conditional logit (statsmodels `ConditionalLogit`, "
        "grouped by game, draws left out) fits the log-odds of winning per piece of each kind. "
        "Values are those log-odds divided by the log-odds of the average spent budget point, "
        "so they read in budget points; 95 % intervals by the delta method. Each iteration "
        f"moves every cost to cost × (value/cost)^{step:g} (at most ×4 or ÷4, rounded, at "
        "least 1) and replays the same game seeds (common random numbers)."
    )
    if folder is not None:
        _save_costs(fit, folder)
        if report:
            from antipolix.balance.report import write_report

            write_report(fit, folder)
    return fit


def _save_costs(fit: CostFit, folder: Path) -> None:
    table = fit.costs_table()
    table.to_csv(folder / "costs.csv", index=False)
    data = {
        "iterations": [
            {"costs": c, "values": _records(e.table), "balanced": _balanced(e)}
            for c, e in zip(fit.costs, fit.estimates, strict=True)
        ],
        "proposed": fit.proposed,
        "converged": fit.converged,
    }
    (folder / "costs.json").write_text(
        json.dumps(data, indent=1, default=_json_default, allow_nan=False) + "\n",
        encoding="utf-8",
    )


def _records(table: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as plain data; a value that was not estimated (NaN) is null, as JSON wants."""
    rows: list[dict[str, Any]] = table.astype(object).where(table.notna(), None).to_dict("records")
    return rows


def _json_default(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"cannot write {value!r} as JSON")
