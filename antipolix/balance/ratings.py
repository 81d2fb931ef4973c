"""Where a values study places its agents on the skill axis: their ratings from a ladder.

A ladder is one of:

- ``None``: the committed ladder of the built-in agents at the study's table size (2 or 4
  players; ``experiments/results/ladder/``), read from the copy shipped in the package
  (``antipolix/balance/ladders/``), so that an installed ``antipolix`` has it wherever it runs
  (a test keeps the copy equal to the repository's tables);
- a tournament folder (``antipolix tournament --out DIR``: its ``tournament.json`` says its
  table size and the tuned weights it played with; its ``ratings.csv``, or a fit of its games
  when it has none);
- a ``ratings.csv`` (columns ``agent`` and ``rating``; ``low`` and ``high`` when present);
  when it sits in a tournament folder, or in a folder named ``N-players`` as the committed
  ones do, its table size is checked too;
- a mapping ``{agent label: rating}``.

Every agent of the study must be rated by the same ladder (ratings of two ladders have
different anchors); one that is not is refused before any game, with the tournament that
would rate it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

from antipolix.agents.tuned import weights_fingerprint
from antipolix.balance.values import BalanceError

COMMITTED = "the committed ladder"
MAX_BYTES = 1 << 20  # a ratings file larger than this is not a ladder's
TUNED = ("tuned", "search")  # agents that play with tuned.json's weights


@dataclass(frozen=True)
class SkillAxis:
    """The study's agents on the skill axis: ``ratings`` (label → Elo), with the ladder's
    95 % interval (``low``, ``high``; NaN when it has none), the ladder's ``source`` in
    words, its table size (``players``, None when not recorded) and ``notes`` for the
    report."""

    ratings: dict[str, float]
    low: dict[str, float] = field(default_factory=dict)
    high: dict[str, float] = field(default_factory=dict)
    source: str = ""
    players: int | None = None
    notes: tuple[str, ...] = ()

    def table(self) -> pd.DataFrame:
        agents = list(self.ratings)
        return pd.DataFrame(
            {
                "agent": agents,
                "rating": [self.ratings[a] for a in agents],
                "low": [self.low.get(a, math.nan) for a in agents],
                "high": [self.high.get(a, math.nan) for a in agents],
            }
        )

    def spec(self) -> dict[str, Any]:
        return {"source": self.source, "ratings": self.ratings}


Ladder = str | Path | Mapping[str, float] | SkillAxis | None


def skill_axis(agents: Sequence[str], players: int, ladder: Ladder = None) -> SkillAxis:
    """The ratings of ``agents`` (ladder labels, :func:`~antipolix.agents.agent_label`) from
    ``ladder`` (see the module's docstring, or a :class:`SkillAxis` made by hand, e.g. ratings
    linked from two tournaments) for a study at ``players``-player tables. Raises
    :class:`BalanceError` (one line: which agent, which ladder, how to rate it) when an agent is
    not rated, the ladder's table size is another, or it rated ``tuned`` with other weights."""
    if isinstance(ladder, SkillAxis):
        found = ladder
    elif ladder is None:
        found = _committed(players)
    elif isinstance(ladder, Mapping):
        found = _given(ladder)
    elif isinstance(ladder, (str, Path)):
        found = _from_path(Path(ladder), players)
    else:
        raise BalanceError(
            f"a ladder is a tournament folder, a ratings.csv or a mapping agent → rating, got "
            f"{ladder!r}"
        )
    missing = [a for a in agents if a not in found.ratings]
    if missing:
        rated = ", ".join(found.ratings) or "no agent"
        wanted = list(dict.fromkeys([*agents, *found.ratings]))[: max(players, len(agents))]
        raise BalanceError(
            f"{missing[0]} has no rating in {found.source} (it rates {rated}); rate it beside "
            f"the study's other agents, e.g. antipolix tournament --agents "
            f"{','.join(wanted)} --players {players} --out runs/rated, and pass that folder "
            "(or its ratings.csv) with --ladder (ladder= in Python)"
        )
    return SkillAxis(
        ratings={a: found.ratings[a] for a in agents},
        low={a: found.low.get(a, math.nan) for a in agents},
        high={a: found.high.get(a, math.nan) for a in agents},
        source=found.source,
        players=found.players,
        notes=found.notes,
    )


def committed_tables() -> dict[int, pd.DataFrame]:
    """The committed ladders shipped in the package, by table size."""
    folder = resources.files("antipolix.balance").joinpath("ladders")
    out = {}
    for players in (2, 4):
        text = folder.joinpath(f"{players}-players.csv").read_text("utf-8")
        out[players] = _table(text, f"the committed {players}-player ladder")
    return out


def committed_fingerprint() -> str:
    """The fingerprint of the tuned weights the committed ladders were played with."""
    text = resources.files("antipolix.balance").joinpath("ladders", "ladders.json")
    return str(json.loads(text.read_text("utf-8"))["tuned_weights"])


def _committed(players: int) -> SkillAxis:
    tables = committed_tables()
    if players not in tables:
        raise BalanceError(
            f"there is no committed ladder at {players}-player tables (only at 2 and 4): rate "
            f"the agents with antipolix tournament --players {players} --out runs/rated and "
            "pass that folder with --ladder (ladder= in Python)"
        )
    source = (
        f"{COMMITTED} at {players}-player tables (experiments/results/ladder/{players}-players)"
    )
    _check_tuned(committed_fingerprint(), tables[players]["agent"].tolist(), source)
    return _axis(tables[players], source, players, ())


def _given(ladder: Mapping[str, float]) -> SkillAxis:
    ratings = {}
    for agent, value in ladder.items():
        if not isinstance(agent, str) or not _finite(value):
            raise BalanceError(
                f"a ladder given as a mapping holds agent labels and finite ratings, got "
                f"{agent!r}: {value!r}"
            )
        ratings[agent] = float(value)
    return SkillAxis(ratings=ratings, source="the ratings given")


def _from_path(path: Path, players: int) -> SkillAxis:
    if path.is_dir():
        if (path / "tournament.json").is_file():
            return _tournament(path, players)
        if (path / "ratings.csv").is_file():
            return _csv(path / "ratings.csv", players)
        raise BalanceError(
            f"{path} holds no ladder (no tournament.json or ratings.csv); pass a tournament "
            "folder or its ratings.csv with --ladder"
        )
    if path.is_file():
        if (path.parent / "tournament.json").is_file():
            return _tournament(path.parent, players, path)
        return _csv(path, players)
    raise BalanceError(f"the ladder {path} does not exist")


def _tournament(folder: Path, players: int, csv: Path | None = None) -> SkillAxis:
    from antipolix.ladder.folder import read_manifest
    from antipolix.ladder.ratings import LadderError

    try:
        manifest = read_manifest(folder)
    except LadderError as exc:
        raise BalanceError(str(exc)) from None
    source = f"the tournament in {folder}"
    had = int(manifest.get("players", 0))
    if had != players:
        raise BalanceError(
            f"{source} rated agents at {had}-player tables; the study has {players} players: "
            f"rate them with antipolix tournament --players {players} and pass that folder"
        )
    for spec in manifest.get("agent_specs", []):
        label = spec.get("name", "")
        fingerprint = spec.get("tuned_weights")
        if fingerprint is not None and fingerprint != weights_fingerprint():
            raise BalanceError(
                f"{source} rated {label} with other tuned weights than this antipolix's "
                "tuned.json: rate the agents again with antipolix tournament and pass that "
                "folder with --ladder"
            )
    path = csv if csv is not None else folder / "ratings.csv"
    if path.is_file():
        axis = _csv(path, players, checked=True)
        return SkillAxis(axis.ratings, axis.low, axis.high, source, players, axis.notes)
    from antipolix.ladder import Ladder

    try:
        table = Ladder.open(folder, bootstrap=0).ratings
    except LadderError as exc:
        raise BalanceError(str(exc)) from None
    return _axis(table, source, players, ("the ladder's ratings were fitted without intervals",))


def _csv(path: Path, players: int, *, checked: bool = False) -> SkillAxis:
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as exc:
        raise BalanceError(f"cannot read the ladder {path}: {exc.strerror}") from None
    if len(data) > MAX_BYTES:
        raise BalanceError(f"{path} is larger than {MAX_BYTES} bytes: not a ratings table")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BalanceError(f"{path} is not a ratings table (not UTF-8 text)") from None
    table = _table(text, str(path))
    source = f"the ladder {path}"
    notes: tuple[str, ...] = ()
    if not checked:
        size = re.fullmatch(r"(\d+)-players?", path.parent.name)
        if size is not None and int(size.group(1)) != players:
            raise BalanceError(
                f"{path} rates agents at {size.group(1)}-player tables (its folder says so); "
                f"the study has {players} players: use a ladder of {players}-player tables"
            )
        if size is None:
            notes = (
                f"the table size of {path} is not recorded: its ratings are read as those of "
                f"{players}-player tables",
            )
    return _axis(table, source, players if not notes else None, notes)


def _table(text: str, where: str) -> pd.DataFrame:
    import io

    try:
        table = pd.read_csv(io.StringIO(text))
    except (ValueError, pd.errors.ParserError) as exc:
        raise BalanceError(f"{where} is not a ratings table: {exc}") from None
    missing = [c for c in ("agent", "rating") if c not in table]
    if missing:
        raise BalanceError(f"{where} is not a ratings table: it has no {missing[0]} column")
    table["agent"] = table["agent"].astype(str)
    for column in ("rating", "low", "high"):
        if column in table:
            table[column] = pd.to_numeric(table[column], errors="coerce")
    if not table["rating"].map(_finite).all():
        raise BalanceError(f"{where} holds a rating that is not a finite number")
    if table["agent"].duplicated().any():
        raise BalanceError(f"{where} rates an agent twice")
    return table


def _axis(table: pd.DataFrame, source: str, players: int | None, notes: Sequence[str]) -> SkillAxis:
    agents = table["agent"].tolist()

    def column(name: str) -> dict[str, float]:
        if name not in table:
            return {a: math.nan for a in agents}
        return {a: float(v) for a, v in zip(agents, table[name], strict=True)}

    return SkillAxis(
        ratings=column("rating"),
        low=column("low"),
        high=column("high"),
        source=source,
        players=players,
        notes=tuple(notes),
    )


def _check_tuned(fingerprint: str, agents: Sequence[str], source: str) -> None:
    if fingerprint != weights_fingerprint() and any(a.split(":")[0] in TUNED for a in agents):
        raise BalanceError(
            f"{source} rated tuned and search with other tuned weights than this antipolix's "
            "tuned.json: rate the agents again with antipolix tournament and pass that folder "
            "with --ladder"
        )


def _finite(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
