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

from antipolix.codec import rules_to_dict
from antipolix.files import check_creatable, compare_studies, refuse_other_files, write_atomically
from antipolix.ladder.ratings import LadderError
from antipolix.ladder.schedule import GAMES, Sitting, lineup_games, lineup_key, lineups
from antipolix.rules import Rules
from antipolix.runner.store import STUDY_FILE

MANIFEST = "tournament.json"
FORMAT = "antipolix-tournament"
VERSION = 1
LINEUP_GAMES = "lineup_games"  # games of chosen lineups, when not games_per_lineup
PLAN = "plan"  # the manifest's derived part (lineups, sittings): written, never compared
REPORTS = ("ratings.csv", "ratings.md", "ratings.png", "scores.csv", "usage.csv")


def describe(
    labels: Sequence[str],
    specs: Sequence[dict[str, Any]],
    players: int,
    games: int,
    seed: int,
    rules: Rules,
    seating: str = "all",
    more: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """What a tournament is, JSON-ready (the manifest, its plan aside). ``more``: games of
    chosen lineups (:func:`~antipolix.ladder.schedule.check_lineup_games`), kept only when
    some are chosen, so that a tournament without them reads as before."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "agents": list(labels),
        "agent_specs": list(specs),
        "players": int(players),
        "games_per_lineup": int(games),
        "seed": int(seed),
        "seating": seating,
        "rules": rules_to_dict(rules),
    }
    if more:
        data[LINEUP_GAMES] = dict(more)
    loaded: dict[str, Any] = json.loads(json.dumps(data, default=str))
    return loaded


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of a tournament folder; errors say what is wrong."""
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LadderError(f"{folder} holds no tournament ({MANIFEST} is missing)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LadderError(f"{path} cannot be read: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LadderError(f"{path} is not an antipolix tournament manifest; use another folder")
    if data.get("version") != VERSION:
        raise LadderError(
            f"{path} has tournament format version {data.get('version')!r}; this antipolix "
            f"reads version {VERSION}"
        )
    return data


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
        old = {k: v for k, v in read_manifest(folder).items() if k != PLAN}
        change = _compare(folder, old, spec)
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
        f"the settings of {', '.join(changed)} differ (parameters, army policy, class or the "
        "tuned weights)"
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
