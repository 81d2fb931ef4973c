"""Agents: players that decide from their own observation (R6, R12).

Built-in agents, by name: ``random`` (:class:`RandomAgent`), ``greedy`` (:class:`GreedyAgent`),
``planner`` (:class:`PlannerAgent`), ``tuned`` (:class:`TunedAgent`), ``search``
(:class:`SearchAgent`).
Army policies: :class:`RandomArmy`, :class:`FixedArmy`, :class:`GivenArmy`, :class:`MixedArmy`.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from antipolix.agents.army import FixedArmy, GivenArmy, MixedArmy, RandomArmy, policy_from_spec
from antipolix.agents.base import Agent, Decision, Sight
from antipolix.agents.planner import PlannerAgent
from antipolix.agents.planner.weights import WEIGHT_NAMES
from antipolix.agents.scripted import GreedyAgent, RandomAgent
from antipolix.agents.search import SearchAgent
from antipolix.agents.tuned import TunedAgent, weights_fingerprint
from antipolix.errors import AgentError, AntipolixError, shown
from antipolix.version import __version__

AGENTS: dict[str, type[Agent]] = {
    cls.name: cls for cls in (RandomAgent, GreedyAgent, PlannerAgent, TunedAgent, SearchAgent)
}


def agent_named(name: str) -> Agent:
    """A built-in agent by name (``"random"``, ``"greedy"``, ...), with its default settings,
    or with parameters after colons: ``"search:rollouts=16:depth=2"``, ``"random:mean_think=0.5"``
    (numbers only; each must be a parameter of that agent). The planner's family (planner,
    tuned, search) also takes its weights by name (:data:`~antipolix.agents.planner.WEIGHTS`):
    ``"tuned:press=0"`` is ``TunedAgent(weights={"press": 0.0})``."""
    if not isinstance(name, str):
        raise AgentError(f"an agent name must be a string, got {name!r}")
    key, *given = (part.strip() for part in name.strip().split(":"))
    key = key.lower()
    if key not in AGENTS:
        known_names = ", ".join(sorted(AGENTS))
        raise AgentError(f"unknown agent {shown(key)} (built-in agents: {known_names})")
    cls = AGENTS[key]
    known = {k: v for k, v in cls().params().items() if isinstance(v, int | float)}
    weights = WEIGHT_NAMES if issubclass(cls, PlannerAgent) else ()
    params: dict[str, Any] = {}
    given_weights: dict[str, float] = {}
    for part in given:
        pname, eq, text = part.partition("=")
        pname = pname.strip()
        if not eq or not pname:
            raise AgentError(
                f"agent {shown(name)}: expected name=value after ':', got {shown(part)}"
            )
        if pname in known:
            params[pname] = _number(name, pname, text.strip(), known[pname])
        elif pname in weights:
            given_weights[pname] = float(_number(name, pname, text.strip(), 0.0))
        else:
            choices = ", ".join(sorted(known)) or "none"
            also = f"; its weights: {', '.join(weights)}" if weights else ""
            raise AgentError(
                f"agent {key!r} has no parameter {shown(pname)} (its parameters: {choices}{also})"
            )
    if given_weights:
        params["weights"] = given_weights
    try:
        return cls(**params)
    except (TypeError, ValueError) as exc:
        raise AgentError(f"agent {shown(name)}: {exc}") from None


def _number(name: str, pname: str, text: str, default: Any) -> float | int:
    """``text`` as the number type of the parameter's default."""
    whole = isinstance(default, int) and not isinstance(default, bool)
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        kind = "an integer" if isinstance(default, int) else "a number"
        raise AgentError(
            f"agent {shown(name)}: {pname} must be {kind}, got {shown(text)}"
        ) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise AgentError(f"agent {shown(name)}: {pname} must be finite, got {shown(text)}")
    return value


def agent_label(agent: Agent) -> str:
    """The name that tells this agent apart from others of its kind: its name and the
    parameters that differ from the defaults (``"search:rollouts=16"``; for the planner's
    family, the weights that differ from its own: ``"tuned:press=0"``), which
    :func:`agent_named` reads back. Agents that are not built-in go by their name, and an
    agent given a ``label`` (a balancing study's copy that may not buy some kind) by it."""
    if agent.label:
        return agent.label
    cls = AGENTS.get(agent.name)
    if cls is None or type(agent) is not cls:
        return agent.name
    defaults = cls().params()
    parts, weights = [agent.name], []
    for key, value in agent.params().items():
        if key == "weights" and isinstance(agent, PlannerAgent):
            weights = [f"{w}={_exact(v)}" for w, v in value.items()]  # (those changed), last
        elif defaults.get(key) != value:
            parts.append(f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}")
    return ":".join(parts + weights)


def _exact(value: float) -> str:
    """A weight as text that reads back as the same float: short when ``:g`` is exact
    (``0``, ``0.5``), else Python's shortest exact form (``0.16475460470885667``)."""
    short = f"{value:g}"
    return short if float(short) == value else repr(value)


def agent_from_spec(spec: Mapping[str, Any]) -> Agent:
    """Rebuild a built-in agent from :meth:`Agent.spec` data (replays, result tables)."""
    cls = AGENTS.get(str(spec.get("name"))) if isinstance(spec, Mapping) else None
    if cls is None:
        raise AgentError(f"no built-in agent for {spec!r}")
    name = spec.get("name")
    if _other_tuned_weights(spec):
        raise AgentError(
            f"cannot rebuild agent {name!r}: it played with other tuned weights (fingerprint "
            f"{spec['tuned_weights']}) than this version's tuned.json ({weights_fingerprint()})"
        )
    try:
        return cls(army=policy_from_spec(spec["army"]), **dict(spec.get("params", {})))
    except (KeyError, TypeError, ValueError) as exc:
        raise AgentError(f"cannot rebuild agent {name!r} from {spec!r}: {exc}") from None


def _other_tuned_weights(spec: Mapping[str, Any]) -> bool:
    """Was the agent of ``spec`` made with another ``tuned.json`` (a study installed since)?
    A spec recorded before the fingerprint existed says nothing, and is not refused."""
    was = spec.get("tuned_weights")
    return was is not None and was != weights_fingerprint()


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
            if _other_tuned_weights(spec):
                why.append(
                    f"seat {seat}'s agent {name!r} played with other tuned weights than this "
                    f"antipolix's ({__version__}) tuned.json"
                )
            elif name in AGENTS:
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
    "MixedArmy",
    "PlannerAgent",
    "RandomAgent",
    "RandomArmy",
    "SearchAgent",
    "Sight",
    "TunedAgent",
    "agent_from_spec",
    "agent_label",
    "agent_named",
    "agents_from_specs",
]
