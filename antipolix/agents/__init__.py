"""Agents: players that decide from their own observation (R6, R12).

Built-in agents, by name: ``random`` (:class:`RandomAgent`), ``greedy`` (:class:`GreedyAgent`),
``planner`` (:class:`PlannerAgent`).
Army policies: :class:`RandomArmy`, :class:`FixedArmy`, :class:`GivenArmy`.
"""

from collections.abc import Mapping
from typing import Any

from antipolix.agents.army import FixedArmy, GivenArmy, RandomArmy, policy_from_spec
from antipolix.agents.base import Agent, Decision, View
from antipolix.agents.planner import PlannerAgent
from antipolix.agents.scripted import GreedyAgent, RandomAgent
from antipolix.errors import AgentError

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
    "View",
    "agent_from_spec",
    "agent_named",
]
