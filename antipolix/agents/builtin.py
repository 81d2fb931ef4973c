"""The built-in agents as the compiled games take them: a code and two parameters per seat.

:func:`compiled_seat` says whether an agent object is one the compiled core can play (exactly a
built-in class, not a subclass that may decide otherwise) and with which numbers; :func:`act_k`
asks the agent of a seat for its decision (compiled into the kernel that plays whole games).
"""

from __future__ import annotations

import numpy as np

from antipolix.agents.base import Agent
from antipolix.agents.memory import Choice, Memory
from antipolix.agents.planner import DEFAULT_WEIGHTS, WEIGHTS, PlannerAgent, planner_act
from antipolix.agents.scripted import GreedyAgent, RandomAgent, greedy_act, random_act
from antipolix.agents.search import SearchAgent, search_act
from antipolix.agents.tuned import TunedAgent
from antipolix.jit import inlined
from antipolix.observation import Seen
from antipolix.rules import Tables

RANDOM, GREEDY, PLANNER, SEARCH = range(4)
SCALARS = 5  # an agent's scalar parameters; its weights (WEIGHTS) follow
PARAMS = 1 + SCALARS + len(WEIGHTS)  # a seat's row: the code, the scalars, the weights


def compiled_seat(agent: Agent, players: int = 2) -> tuple[float, ...] | None:
    """A built-in agent's row of :data:`PARAMS` numbers (its code, its scalar parameters, its
    weights at a table of ``players``), or None for any other agent."""
    scalars: tuple[float, ...]
    weights = DEFAULT_WEIGHTS
    if type(agent) is RandomAgent:
        code, scalars = RANDOM, (agent.mean_think,)
    elif type(agent) is GreedyAgent:
        code, scalars = GREEDY, ()
    elif type(agent) is SearchAgent:
        assert isinstance(agent, SearchAgent)
        code, scalars = SEARCH, agent.scalars()
        weights = agent.weights_for(players)
    elif type(agent) in (PlannerAgent, TunedAgent):
        assert isinstance(agent, PlannerAgent)
        code, scalars = PLANNER, (agent.min_think, agent.max_think)
        weights = agent.weights_for(players)
    else:
        return None
    pad = (0.0,) * (SCALARS - len(scalars))
    return (float(code), *scalars, *pad, *(float(v) for v in weights))


@inlined
def act_k(
    code: int,
    t: Tables,
    seen: Seen,
    memory: Memory,
    params: np.ndarray,
    rng: np.random.Generator,
    scratch_engine: np.random.Generator,
    scratch_agents: np.random.Generator,
) -> Choice:
    """The decision of the built-in agent ``code`` (with its ``params``: scalars, weights) for
    ``seen``; the search agent's rollouts seed ``scratch_engine`` and ``scratch_agents``
    afresh (:class:`~antipolix.agents.search.Scratch`)."""
    if code == RANDOM:
        return random_act(t, seen, memory, params[0], rng)
    if code == GREEDY:
        return greedy_act(t, seen, memory, rng)
    if code == SEARCH:
        return search_act(
            t, seen, memory, params[:SCALARS], params[SCALARS:], rng, scratch_engine,
            scratch_agents,
        )  # fmt: skip
    return planner_act(t, seen, memory, params[0], params[1], params[SCALARS:], rng)
