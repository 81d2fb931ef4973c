"""The compiled core's first run: will a job compile, and a line that says so beforehand.

numba compiles a kernel the first time a process calls it after an install (or after a change
to its source or to a file it imports, :mod:`antipolix.jit`) and caches the machine code on
disk; later processes load it in about a second. On a small machine compiling takes a minute
or more, and a command that says nothing meanwhile looks hung. So each command that plays
games asks :func:`compile_notice` first: it reads numba's cache index of the kernels the job
calls from Python (:func:`antipolix.jit.cached`), and returns a line saying what will be
compiled and about how long it takes, or None when everything is cached (the line never
appears on a warm cache).

Two paths play games (:mod:`antipolix.play` through :class:`~antipolix.Game`, and
:mod:`antipolix.autoplay`, whole games in one kernel, which ``simulate`` and the demo's batch
use when every seat is a built-in agent): each has its own kernels, and the whole-game kernel
holds every built-in agent, so it compiles once for all of them.

The seconds are what compiling took in one process on the project's 2-core machine (numba
0.68, nothing else running): a rough figure, longer on a busy or slower machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from antipolix.agents.base import Agent
from antipolix.agents.planner import PlannerAgent
from antipolix.agents.planner.decision import planner_act_held
from antipolix.agents.scripted import GreedyAgent, RandomAgent, greedy_act_held, random_act_held
from antipolix.agents.search import SearchAgent, search_act_held
from antipolix.autoplay import play_games_k, warm
from antipolix.jit import cached
from antipolix.observation import observe_k
from antipolix.play import play_game
from antipolix.rules import Rules
from antipolix.turn import play_turn_held

# Path through Game: the engine (a turn, an observation) and each agent's decision kernel, as
# Python calls them (their generators held: antipolix.jit.held)
GAME_KERNELS: tuple[Callable[..., Any], ...] = (play_turn_held, observe_k)
AGENT_KERNELS: tuple[tuple[type[Agent], Callable[..., Any]], ...] = (
    (SearchAgent, search_act_held),  # (subclasses first: the search agent plays the planner too)
    (PlannerAgent, planner_act_held),  # the tuned agent is a planner
    (GreedyAgent, greedy_act_held),
    (RandomAgent, random_act_held),
)
# Seconds of compiling, measured cold (see the module docstring)
SECONDS: dict[str, float] = {  # experiments/bench_compile.py: CPU seconds, cold (2026-11-28)
    "engine": 35.0,  # a first game through Game: turns, observations, placement
    "random": 8.0,
    "greedy": 12.0,
    "planner": 75.0,
    "search": 115.0,  # its rollouts hold the planner and the engine's turn
    "whole games": 165.0,  # autoplay's one kernel: the engine and every built-in agent
}
# The whole-game kernel once the engine's kernels are on disk (a first demo's batch, after its
# game): it compiles again what it holds of them, but not all (114 s from a fresh clone)
WHOLE_AFTER_ENGINE = 115.0


def _agent_kernel(agent: Agent) -> tuple[str, Callable[..., Any]] | None:
    for cls, fn in AGENT_KERNELS:
        if isinstance(agent, cls):
            return cls.name, fn
    return None  # an agent written in Python: nothing of its own to compile


def to_compile(agents: Sequence[Agent], whole: bool = False) -> list[str]:
    """What a game of ``agents`` (one per seat) will compile before it plays, as the keys of
    :data:`SECONDS`: ``["engine", "greedy"]``, or ``[]`` when the disk cache holds it all.
    ``whole``: the game plays whole in compiled code (:func:`antipolix.autoplay.play_games`)
    rather than through :class:`~antipolix.Game`."""
    if whole:
        return [] if cached(play_games_k) else ["whole games"]
    out = [] if all(cached(fn) for fn in GAME_KERNELS) else ["engine"]
    for agent in agents:
        found = _agent_kernel(agent)
        if found is not None and found[0] not in out and not cached(found[1]):
            out.append(found[0])
    return out


def compile_notice(agents: Sequence[Agent], whole: bool = False) -> str | None:
    """The line to print before a game of ``agents`` when it will compile (see
    :func:`to_compile`), or None: ``compiling the core (engine, greedy), once per install:
    about 35 s; later runs load it from disk``."""
    parts = to_compile(agents, whole)
    if not parts:
        return None
    seconds = sum(SECONDS[p] for p in parts)
    if whole and all(cached(fn) for fn in GAME_KERNELS):
        seconds = WHOLE_AFTER_ENGINE
    what = "the core for whole games" if whole else f"the core ({', '.join(parts)})"
    return (
        f"compiling {what}, once per install: about {_rounded(seconds)} s on a 2-core machine "
        "(numba caches the machine code on disk; later runs load it at once)"
    )


# What :func:`build` compiles: two parts of about equal cost, for two processes at once
PARTS = ("game", "whole games")


def build(part: str) -> None:
    """Compile, or load from the disk cache, one part of the compiled core (:data:`PARTS`):
    ``"game"``, the path through :class:`~antipolix.Game` (the engine's turn, observations,
    placement) and every built-in agent's decision kernel, by a game of 2 turns with one
    agent of each kind; ``"whole games"``, the kernel that plays whole games (it holds the
    engine and every built-in agent), by one game of random agents. ``python3 dev.py test``
    builds both in two processes before the tests on a machine of two cores or more: every
    test process would otherwise compile what it calls first, the whole-game kernel (about 2
    minutes) in two of them at once.

    Most kernels are in both parts, and numba saves each one to disk as soon as it is
    compiled, where the other process finds it if it gets there later. So the parts start at
    opposite ends: ``"game"`` with the planner and search (its seats' decisions come in seat
    order, before the turn is played), ``"whole games"`` with random, greedy and the engine's
    turn (a game of them through ``Game``) before its own kernel, which then finds most of
    the planner already compiled. On a 2-core VM the two parts in the same order (agents,
    then the engine) took 154 and 153 s, these 113 and 118 s
    (``experiments/bench_compile.py --build``)."""
    if part == "game":
        agents: list[Agent] = [PlannerAgent(), SearchAgent(), GreedyAgent(), RandomAgent()]
        play_game(Rules(players=len(agents), max_turns=2), agents, 0)
    elif part == "whole games":
        play_game(Rules(players=2, max_turns=2), [RandomAgent(), GreedyAgent()], 0)
        warm(Rules(players=2, max_turns=2), [RandomAgent(), RandomAgent()])
    else:
        raise ValueError(f"no part {part!r} of the compiled core: {', '.join(PARTS)}")


def _rounded(seconds: float) -> int:
    """To the nearest 5 s: the figure is rough."""
    return max(5, int(5 * round(seconds / 5)))
