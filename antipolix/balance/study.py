"""A balancing study: the fit's record (:class:`CostFit`) and its folder.

The folder holds ``study.json`` (what is being balanced: rules, agent, games per iteration, seed,
spend, step), one simulate study per iteration (``iteration-K``: resumable Parquet), the costs per
iteration (``costs.csv``, ``costs.json``), plots and ``report.md``. A folder is used again only
for the same study, or the same study with more games per iteration (it grows; iterations played
at costs the grown study no longer reaches are moved to ``superseded``).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from antipolix.balance.values import BalanceError, ValueEstimate
from antipolix.codec import rules_to_dict
from antipolix.errors import AntipolixError
from antipolix.files import compare_studies, json_file, write_atomically
from antipolix.rules import Rules
from antipolix.runner.store import STUDY_FILE, read_study

STUDY_FORMAT = "antipolix-balance"
SUPERSEDED = "superseded"  # iterations played at costs a grown study no longer reaches


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
    stopped: str = ""  # why the fit stopped before its end ("iteration K: ..."), else empty
    stopped_costs: dict[str, int] | None = None  # the costs of the iteration it stopped at
    stopped_games: pd.DataFrame | None = None  # that iteration's games, when they were played

    @property
    def unestimated(self) -> dict[str, str]:
        """Kinds the last iteration's games could not price, with the reason (their costs are
        left as they are and the fit cannot be converged)."""
        return self.estimates[-1].unestimated if self.estimates else {}

    @property
    def verdict(self) -> str:
        """One line: converged, or why not."""
        if self.stopped:
            return f"stopped at {self.stopped}"
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
            rows.append({"iteration": i, **costs, "balanced": balanced(est)})
        if self.stopped_costs is not None:
            rows.append({"iteration": len(self.estimates), **self.stopped_costs, "balanced": None})
        proposed = self.proposed or (self.stopped_costs or {})
        rows.append({"iteration": "proposed", **proposed, "balanced": None})
        return pd.DataFrame(rows)


def balanced(est: ValueEstimate) -> bool:
    """Every priced kind estimated, and its value per cost point 1 within its interval."""
    t = est.table
    if est.unestimated:
        return False
    return bool(((t["ratio_low"] <= 1.0) & (t["ratio_high"] >= 1.0)).all())


BALANCE_FILES = {"study.json", "costs.csv", "costs.json", "report.md", "plots", SUPERSEDED}


def open_study(folder: Path, spec: dict[str, Any]) -> None:
    """Create ``folder/study.json``, or check that the folder holds this same study (or this
    study with fewer games per iteration: it grows, its games are kept). A folder that holds
    anything else (a ``simulate`` study, other files) is refused: nothing is written into it."""
    path = folder / "study.json"
    if folder.exists() and not folder.is_dir():
        raise BalanceError(f"cannot use {folder} for a balancing study: it is not a folder")
    if path.exists():
        change = compare_studies(_read(path), spec, grows="games_per_iteration")
        if change == "same":
            return
        if change == "shrinks":
            had = _read(path)["games_per_iteration"]
            raise BalanceError(
                f"{folder} holds a balancing study of {had} games per iteration; ask for {had} "
                "or more (a study grows, it never shrinks), or use another --out folder"
            )
        if isinstance(change, tuple):
            raise BalanceError(
                f"{folder} holds a different balancing study ({'; '.join(change)}); "
                "use another --out folder"
            )
    elif folder.is_dir():
        _check_empty(folder)
    _write_study(folder, spec)  # new, or grown: the games played stay


def _read(path: Path) -> dict[str, Any]:
    try:
        old = json_file(path)
    except (OSError, ValueError) as exc:
        raise BalanceError(f"{path} is not a balancing study file: {exc}") from None
    if not isinstance(old, dict) or old.get("format") != STUDY_FORMAT:
        raise BalanceError(f"{path} is not a balancing study file; use another --out folder")
    return old


def _check_empty(folder: Path) -> None:
    """Refuse a folder that holds a simulate study or files of its own."""
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


def _ours(path: Path) -> bool:
    return path.name.startswith("iteration-") and path.is_dir()


def _write_study(folder: Path, spec: dict[str, Any]) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(folder / "study.json", (json.dumps(spec, indent=1) + "\n").encode())
    except OSError as exc:
        raise BalanceError(f"cannot write the study folder {folder}: {exc.strerror}") from None


def set_aside(games: Path, rules: Rules, top: Path) -> str | None:
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


def save_costs(fit: CostFit, folder: Path) -> None:
    table = fit.costs_table()
    table.to_csv(folder / "costs.csv", index=False)
    data = {
        "iterations": [
            {"costs": c, "values": _records(e.table), "balanced": balanced(e)}
            for c, e in zip(fit.costs, fit.estimates, strict=True)
        ],
        "proposed": fit.proposed,
        "converged": fit.converged,
    }
    if fit.stopped:
        data["stopped"] = fit.stopped
    text = json.dumps(data, indent=1, default=_json_default, allow_nan=False) + "\n"
    write_atomically(folder / "costs.json", text.encode())


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
