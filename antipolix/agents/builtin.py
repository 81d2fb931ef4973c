"""The built-in agents as the compiled games take them: a code and two parameters per seat.

:func:`compiled_seat` says whether an agent object is one the compiled core can play (exactly a
built-in class, not a subclass that may decide otherwise) and with which numbers; :func:`act_k`
is the one kernel that asks the agent of a seat for its decision.
"""

from __future__ import annotations

import numpy as np

from antipolix.agents.base import Agent
from antipolix.agents.memory import Choice, Memory
from antipolix.agents.planner import PlannerAgent, planner_act
from antipolix.agents.scripted import GreedyAgent, RandomAgent, greedy_act, random_act
from antipolix.jit import kernel
from antipolix.observation import Seen
from antipolix.rules import Tables

RANDOM, GREEDY, PLANNER = range(3)


def compiled_seat(agent: Agent) -> tuple[int, float, float] | None:
    """``(code, parameter, parameter)`` of a built-in agent, or None for any other agent."""
    if type(agent) is RandomAgent:
        return RANDOM, agent.mean_think, 0.0
    if type(agent) is GreedyAgent:
        return GREEDY, 0.0, 0.0
    if type(agent) is PlannerAgent:
        return PLANNER, agent.min_think, agent.max_think
    return None


@kernel
def act_k(
    code: int,
    t: Tables,
    seen: Seen,
    memory: Memory,
    params: np.ndarray,
    rng: np.random.Generator,
) -> Choice:
    """The decision of the built-in agent ``code`` (with its ``params``) for ``seen``."""
    if code == RANDOM:
        return random_act(t, seen, memory, params[0], rng)
    if code == GREEDY:
        return greedy_act(t, seen, memory, rng)
    return planner_act(t, seen, memory, params[0], params[1], rng)
