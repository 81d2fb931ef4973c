"""What a study is: its game, rules variants, agents, seed and number of games, as a description
stored in its folder (``_study.json``) and as the payload every task receives.

A study names its game (``game``; a folder written before games had names holds AntipoliX's)
and its agents by their registry names (:func:`antipolix.games.host.agent_record`); a folder
written when agents were recorded by their module path reads as the same study
(:func:`antipolix.runner.store.normal_study`), so it resumes unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from antipolix import games as registry
from antipolix.checks import is_int
from antipolix.errors import AntipolixError, SimulationError
from antipolix.games import host
from antipolix.limits import check_seed
from antipolix.runner.seeds import GAME_BRANCH, SEAT_BRANCH
from antipolix.runner.store import STUDY_FORMAT, STUDY_VERSION, STUDY_VERSION_GAMES
from antipolix.runner.variants import RulesLike, Variant, check_game, variants
from antipolix.version import __version__


@dataclass(frozen=True)
class Payload:
    """What every task needs, shipped once to the Ray object store."""

    seed: int
    variants: tuple[Variant, ...]
    agents: tuple[Any, ...]
    labels: tuple[str, ...]
    shuffle_seats: bool
    replays: bool
    game: str = registry.DEFAULT  # the registry name of the game played


def make_study(
    rules: RulesLike,
    agents: Sequence[Any],
    games: int,
    seed: int,
    shuffle_seats: bool,
    replays: bool,
    game: str = registry.DEFAULT,
) -> tuple[dict[str, Any], Payload]:
    """The study's description (JSON-ready) and payload; bad arguments raise a
    :class:`SimulationError` before anything is played or written."""
    game = check_game(game)
    played = registry.game(game)
    if not is_int(games) or games < 1:
        raise SimulationError(f"games must be an integer >= 1, got {games!r}")
    try:
        seed = check_seed(seed)
    except AntipolixError as exc:
        raise SimulationError(str(exc)) from None
    found = variants(rules, game)
    checked = _checked_agents(played, found, agents)
    records = [host.agent_record(played, a) for a in checked]
    labels = _labels(records, [host.agent_label(played, a) for a in checked])
    study: dict[str, Any] = {
        "format": STUDY_FORMAT,
        "version": STUDY_VERSION if game == registry.DEFAULT else STUDY_VERSION_GAMES,
        "engine": __version__,
        "game": game,
    }
    if game != registry.DEFAULT:
        study["game_version"] = played.info.version
    study |= {
        "seed": int(seed),
        "games": int(games),
        "shuffle_seats": bool(shuffle_seats),
        "game_seed": f"SeedSequence(seed, spawn_key=(game, {GAME_BRANCH}))",
        "seat_seed": f"SeedSequence(seed, spawn_key=(game, {SEAT_BRANCH}))",
        "agents": records,
        "labels": list(labels),
        "variants": [
            {"name": v.name, "overrides": v.overrides, "rules": played.config_to_dict(v.rules)}
            for v in found
        ],
    }
    payload = Payload(int(seed), found, tuple(checked), labels, bool(shuffle_seats), replays, game)
    return json.loads(json.dumps(study)), payload


def _checked_agents(played: Any, found: Sequence[Variant], agents: Sequence[Any]) -> list[Any]:
    """The agents, checked against every variant (sizes and seats)."""
    checked: list[Any] = []
    for v in found:
        where = f"variant {v.name!r}: " if len(found) > 1 else ""
        try:
            checked = host.check_agents(played, v.rules, agents)
        except AntipolixError as exc:
            raise SimulationError(f"{where}{exc}") from None
    return checked


def _labels(records: Sequence[Mapping[str, Any]], names: Sequence[str]) -> tuple[str, ...]:
    """Agent labels (:func:`~antipolix.games.host.agent_label`: ``search:rollouts=16``), made
    unique (``greedy#1``, ``greedy#2``) only where different agents share one (other army
    policies, agents not built in); identical agents in several seats share their label."""
    kinds: dict[str, list[str]] = {}
    keys = [json.dumps(r, sort_keys=True) for r in records]
    for name, key in zip(names, keys, strict=True):
        seen = kinds.setdefault(name, [])
        if key not in seen:
            seen.append(key)
    out = []
    for name, key in zip(names, keys, strict=True):
        seen = kinds[name]
        out.append(name if len(seen) == 1 else f"{name}#{seen.index(key) + 1}")
    return tuple(out)
