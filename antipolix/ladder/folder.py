"""The tournament folder: a manifest (``tournament.json``) saying what the tournament is, the
sittings' runner studies under ``games/``, and the reports.

A folder is used again only for the same tournament (it resumes: the runner plays only what is
missing), or for the same tournament with more games per lineup or for chosen lineups (it
grows); a folder holding another tournament, a ``simulate`` study or other files is refused
before anything is written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from antipolix import games as registry
from antipolix.errors import AntipolixError
from antipolix.files import (
    check_creatable,
    compare_studies,
    json_file,
    refuse_other_files,
    write_atomically,
)
from antipolix.games import host
from antipolix.ladder.ratings import LadderError
from antipolix.ladder.schedule import GAMES, Sitting, lineup_games, lineup_key, lineups
from antipolix.runner.store import STUDY_FILE

MANIFEST = "tournament.json"
FORMAT = "antipolix-tournament"
VERSION = 1
VERSION_GAMES = 2  # a tournament of another game than AntipoliX (it names it: ``game``)
LINEUP_GAMES = "lineup_games"  # games of chosen lineups, when not games_per_lineup
PLAN = "plan"  # the manifest's derived part (lineups, sittings): written, never compared
REPORTS = ("ratings.csv", "ratings.md", "ratings.png", "scores.csv", "usage.csv")


def describe(
    labels: Sequence[str],
    specs: Sequence[dict[str, Any]],
    players: int,
    games: int,
    seed: int,
    rules: Any,
    seating: str = "all",
    more: Mapping[str, int] | None = None,
    game: str = registry.DEFAULT,
) -> dict[str, Any]:
    """What a tournament is, JSON-ready (the manifest, its plan aside): its game, agents (by
    registry name), tables, seed and rules. ``more``: games of chosen lineups
    (:func:`~antipolix.ladder.schedule.check_lineup_games`), kept only when some are chosen,
    so that a tournament without them reads as before."""
    played = registry.game(game)
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION if game == registry.DEFAULT else VERSION_GAMES,
        "game": game,
    }
    if game != registry.DEFAULT:
        data["game_version"] = played.info.version
    data |= {
        "agents": list(labels),
        "agent_specs": list(specs),
        "players": int(players),
        "games_per_lineup": int(games),
        "seed": int(seed),
        "seating": seating,
        "rules": played.config_to_dict(rules),
    }
    if more:
        data[LINEUP_GAMES] = dict(more)
    loaded: dict[str, Any] = json.loads(json.dumps(data, default=str))
    return loaded


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of a tournament folder; errors say what is wrong."""
    path = folder / MANIFEST
    try:
        data = json_file(path)
    except FileNotFoundError:
        raise LadderError(f"{folder} holds no tournament ({MANIFEST} is missing)") from None
    except (OSError, ValueError) as exc:
        raise LadderError(f"{path} cannot be read: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LadderError(f"{path} is not an antipolix tournament manifest; use another folder")
    if data.get("version") not in (VERSION, VERSION_GAMES):
        raise LadderError(
            f"{path} has tournament format version {data.get('version')!r}; this antipolix "
            f"reads versions {VERSION} and {VERSION_GAMES}"
        )
    game = data.get("game", registry.DEFAULT)
    try:
        played = registry.game(game)
    except AntipolixError:
        raise LadderError(
            f"{path} is a tournament of the game {game!r}, which this antipolix does not have"
        ) from None
    if data.get("game_version", played.info.version) != played.info.version:
        raise LadderError(
            f"{path} is a tournament of {game} version {data.get('game_version')!r}; this "
            f"antipolix plays version {played.info.version}: use a new folder"
        )
    wrong = _shape_problem(data)
    if wrong is not None:
        raise LadderError(f"{path} was edited or damaged: {wrong}")
    return data


def _shape_problem(data: Mapping[str, Any]) -> str | None:
    """What is not as a tournament writes its manifest (the fields every reader relies on, by
    type), or None."""
    agents, specs, plan = data.get("agents"), data.get("agent_specs"), data.get("plan")
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        return "its agents are not a list of agent names"
    if (
        not isinstance(specs, list)
        or len(specs) != len(agents)
        or not all(isinstance(spec, dict) for spec in specs)
    ):
        return "its agent_specs are not a list of one record per agent"
    numbers = [data.get(k) for k in ("players", "games_per_lineup", "seed")]
    if not all(type(v) is int and v >= 0 for v in numbers):
        return "its players, games_per_lineup and seed are not integers >= 0"
    if not isinstance(data.get("seating"), str) or not isinstance(data.get("rules"), dict):
        return "its seating is not a word or its rules not a table"
    sittings = plan.get("sittings") if isinstance(plan, dict) else None
    if not isinstance(sittings, list) or not all(isinstance(x, dict) for x in sittings):
        return "its plan is not a table of sittings"
    return None


def normal_manifest(data: Mapping[str, Any]) -> dict[str, Any]:
    """A manifest as :func:`describe` writes one today: one written before manifests named
    their game is AntipoliX's, and its agents recorded by module path read as today's
    records (:func:`antipolix.games.host.normal_record`)."""
    out = dict(data)
    name = out.setdefault("game", registry.DEFAULT)
    try:
        played = registry.game(name)
    except AntipolixError:
        return out
    specs = out.get("agent_specs")
    if isinstance(specs, list) and all(isinstance(a, Mapping) for a in specs):
        out["agent_specs"] = [host.normal_record(played, a) for a in specs]
    return out


def check_folder(folder: Path, spec: dict[str, Any]) -> Literal["new", "same", "grows"]:
    """Refuse, writing nothing, a folder that cannot hold this tournament: not a folder, not
    writable, holding another tournament (or this one with more games per lineup: it never
    shrinks), a ``simulate`` study or other files."""
    if not folder.exists():
        check_creatable(folder, LadderError)
        return "new"
    if not folder.is_dir():
        raise LadderError(f"cannot use {folder} for a tournament: it is not a folder")
    if (folder / MANIFEST).exists():
        old = {k: v for k, v in normal_manifest(read_manifest(folder)).items() if k != PLAN}
        change = _compare(folder, old, normal_manifest(spec))
        if isinstance(change, tuple):
            what = [_specs_change(old, spec) if c == "agent_specs differ" else c for c in change]
            was = old.get("seating")
            hint = f" (--seating {was} goes on with it)" if was != spec["seating"] else ""
            raise LadderError(
                f"{folder} holds a different tournament ({'; '.join(what)}); use another "
                f"folder{hint}, or delete it to start again"
            )
        state: Literal["new", "same", "grows"] = change
    else:
        if (folder / STUDY_FILE).exists():
            raise LadderError(
                f"{folder} holds a simulate study ({STUDY_FILE}); a tournament needs its own folder"
            )
        refuse_other_files(folder, LadderError, "tournament")
        state = "new"
    if not os.access(folder, os.W_OK | os.X_OK):
        raise LadderError(f"cannot write to {folder}: permission denied")
    return state


def _compare(
    folder: Path, old: dict[str, Any], new: dict[str, Any]
) -> Literal["same", "grows"] | tuple[str, ...]:
    """``"same"``, ``"grows"`` (no lineup plays fewer games, one more), or what else differs
    (:func:`compare_studies`); :class:`LadderError` when a lineup would play fewer games."""
    counts = ("games_per_lineup", LINEUP_GAMES)
    rest = compare_studies(
        {k: v for k, v in old.items() if k not in counts},
        {k: v for k, v in new.items() if k not in counts},
        grows="games_per_lineup",  # left out above: "same" or what differs, never "grows"
    )
    if isinstance(rest, tuple):
        return rest
    agents, players = new["agents"], new["players"]
    had = lineup_games(agents, players, old["games_per_lineup"], old.get(LINEUP_GAMES))
    want = lineup_games(agents, players, new["games_per_lineup"], new.get(LINEUP_GAMES))
    for lineup, a, b in zip(lineups(agents, players), had, want, strict=True):
        if b < a:
            per = LINEUP_GAMES in old or LINEUP_GAMES in new
            what = f"games for lineup {lineup_key(lineup)}" if per else "games per lineup"
            raise LadderError(
                f"{folder} holds this tournament with {a} {what}; ask for {a} or more (a "
                "tournament grows, it never shrinks), or use another folder"
            )
    return "same" if had == want else "grows"


def _specs_change(old: dict[str, Any], new: dict[str, Any]) -> str:
    """Which agents' settings (parameters, army policy, class) differ, by label."""
    was = dict(zip(old.get("agents", []), old.get("agent_specs", []), strict=False))
    now = dict(zip(new["agents"], new["agent_specs"], strict=False))
    changed = [a for a in now if a in was and was[a] != now[a]]
    if not changed:
        return "agent_specs differ"
    return (
        f"the settings of {', '.join(changed)} differ (parameters, army policy, built-in or "
        "not, or the tuned weights)"
    )


def write_manifest(folder: Path, spec: dict[str, Any], sittings: Sequence[Sitting]) -> None:
    """Create the folder and write its manifest, with the plan: lineups and sittings."""
    plan = {"folder": GAMES, "sittings": [s.record() for s in sittings]}
    text = json.dumps({**spec, PLAN: plan}, indent=1) + "\n"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(folder / MANIFEST, text.encode())
    except OSError as exc:
        raise LadderError(f"cannot write the tournament folder {folder}: {exc}") from None
