"""What a study is: its rules variants, agents, seed and number of games, as a description
stored in its folder (``_study.json``) and as the payload every task receives."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from antipolix.agents import agent_label
from antipolix.agents.base import Agent
from antipolix.checks import is_int
from antipolix.codec import rules_to_dict
from antipolix.errors import AntipolixError, SimulationError
from antipolix.limits import check_seed, check_size
from antipolix.play import check_agents
from antipolix.runner.seeds import GAME_BRANCH, SEAT_BRANCH
from antipolix.runner.store import STUDY_FORMAT, STUDY_VERSION
from antipolix.runner.variants import RulesLike, Variant, variants
from antipolix.version import __version__


@dataclass(frozen=True)
class Payload:
    """What every task needs, shipped once to the Ray object store."""

    seed: int
    variants: tuple[Variant, ...]
    agents: tuple[Agent, ...]
    labels: tuple[str, ...]
    shuffle_seats: bool
    replays: bool


def make_study(
    rules: RulesLike,
    agents: Sequence[Agent | str],
    games: int,
    seed: int,
    shuffle_seats: bool,
    replays: bool,
) -> tuple[dict[str, Any], Payload]:
    """The study's description (JSON-ready) and payload; bad arguments raise a
    :class:`SimulationError` before anything is played or written."""
    if not is_int(games) or games < 1:
        raise SimulationError(f"games must be an integer >= 1, got {games!r}")
    try:
        seed = check_seed(seed)
    except AntipolixError as exc:
        raise SimulationError(str(exc)) from None
    found = variants(rules)
    checked = _checked_agents(found, agents)
    records = [_agent_record(a) for a in checked]
    labels = _labels(records, [agent_label(a) for a in checked])
    study = {
        "format": STUDY_FORMAT,
        "version": STUDY_VERSION,
        "engine": __version__,
        "seed": int(seed),
        "games": int(games),
        "shuffle_seats": bool(shuffle_seats),
        "game_seed": f"SeedSequence(seed, spawn_key=(game, {GAME_BRANCH}))",
        "seat_seed": f"SeedSequence(seed, spawn_key=(game, {SEAT_BRANCH}))",
        "agents": records,
        "labels": list(labels),
        "variants": [
            {"name": v.name, "overrides": v.overrides, "rules": rules_to_dict(v.rules)}
            for v in found
        ],
    }
    payload = Payload(int(seed), found, tuple(checked), labels, bool(shuffle_seats), replays)
    return json.loads(json.dumps(study)), payload


def _checked_agents(found: Sequence[Variant], agents: Sequence[Agent | str]) -> list[Agent]:
    """The agents, checked against every variant (sizes and seats)."""
    checked: list[Agent] = []
    for v in found:
        where = f"variant {v.name!r}: " if len(found) > 1 else ""
        try:
            check_size(v.rules)
            checked = check_agents(v.rules, agents)
        except AntipolixError as exc:
            raise SimulationError(f"{where}{exc}") from None
    return checked


def _agent_record(agent: Agent) -> dict[str, Any]:
    record = {"class": f"{type(agent).__module__}.{type(agent).__qualname__}", **agent.spec()}
    loaded: dict[str, Any] = json.loads(json.dumps(record, default=str))  # JSON-ready, compared
    return loaded


def _labels(records: Sequence[Mapping[str, Any]], names: Sequence[str]) -> tuple[str, ...]:
    """Agent labels (:func:`~antipolix.agents.agent_label`: ``search:rollouts=16``), made
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
