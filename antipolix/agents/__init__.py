"""Agents: players that decide from their own observation (R6, R12).

Built-in agents, by name: ``random`` (:class:`RandomAgent`), ``greedy`` (:class:`GreedyAgent`),
``planner`` (:class:`PlannerAgent`).
Army policies: :class:`RandomArmy`, :class:`FixedArmy`, :class:`GivenArmy`.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from antipolix.agents.army import FixedArmy, GivenArmy, RandomArmy, policy_from_spec
from antipolix.agents.base import Agent, Decision, Sight
from antipolix.agents.planner import PlannerAgent
from antipolix.agents.scripted import GreedyAgent, RandomAgent
from antipolix.errors import AgentError, AntipolixError
from antipolix.version import __version__

AGENTS: dict[str, type[Agent]] = {cls.name: cls for cls in (RandomAgent, GreedyAgent, PlannerAgent)}


def agent_named(name: str) -> Agent:
    """A built-in agent by name (``"random"``, ``"greedy"``, ...), with its default settings."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in AGENTS:
        raise AgentError(f"unknown agent {name!r} (built-in agents: {', '.join(sorted(AGENTS))})")
    return AGENTS[key]()


def agent_from_spec(spec: Mapping[str, Any]) -> Agent:
    """Rebuild a built-in agent from :meth:`Agent.spec` data (replays, result tables)."""
    cls = AGENTS.get(str(spec.get("name"))) if isinstance(spec, Mapping) else None
    if cls is None:
        raise AgentError(f"no built-in agent for {spec!r}")
    try:
        return cls(army=policy_from_spec(spec["army"]), **dict(spec.get("params", {})))
    except (KeyError, TypeError, ValueError) as exc:
        name = spec.get("name")
        raise AgentError(f"cannot rebuild agent {name!r} from {spec!r}: {exc}") from None


def agents_from_specs(
    specs: Sequence[Mapping[str, Any]],
) -> tuple[list[Agent] | None, tuple[str, ...]]:
    """The agents of recorded specs (a replay's seats), or None and, per seat that cannot be
    rebuilt (not built-in, or parameters this version cannot read), why."""
    agents, why = [], []
    for seat, spec in enumerate(specs):
        name = str(spec.get("name"))
        try:
            agents.append(agent_from_spec(spec))
        except AntipolixError:
            if name in AGENTS:
                why.append(
                    f"seat {seat}'s agent {name!r} has parameters or an army policy this "
                    f"antipolix ({__version__}) cannot rebuild"
                )
            else:
                why.append(
                    f"seat {seat}'s agent {name!r} is not a built-in agent (built-in: "
                    f"{', '.join(sorted(AGENTS))})"
                )
    return (None, tuple(why)) if why else (agents, ())


__all__ = [
    "AGENTS",
    "Agent",
    "Decision",
    "FixedArmy",
    "GivenArmy",
    "GreedyAgent",
    "PlannerAgent",
    "RandomAgent",
    "RandomArmy",
    "Sight",
    "agent_from_spec",
    "agent_named",
    "agents_from_specs",
]
