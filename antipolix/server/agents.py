"""Built-in agents seated on the server, deciding away from the event loop.

A served game's built-in agent (``greedy``, ``search:rollouts=4``, ...) is the same object
:func:`antipolix.play` seats: a copy of the named agent, set up with the seat's own generator
spawned from the game's seed (R12), asked for its army (R3), then for a decision on each of its
observations (R6), in turn order. Its decisions are computed outside the server's event loop,
so that a slow agent (search) never holds up the other games' turns:

- :class:`ThreadAgents` decides in one worker thread of the server's process (the compiled
  kernels hold the interpreter lock while they run: fine for the fast agents and for tests);
- :class:`ProcessAgents` decides in worker processes (``antipolix serve --agent-workers N``,
  default 1): each agent lives in one worker for its whole game, so its memory stays there.

Either way the server takes an agent's think time as measured (R7): the seconds from the
observation to the decision's arrival, or the game's minimum think time if that is longer.
Every call for one agent runs in order; :meth:`AgentHost.restore` plays an agent again over the
observations of the turns already played, so that an agent of a game restored from its journal
has the memory (and the generator state) it had before the restart.
"""

from __future__ import annotations

import asyncio
import copy
import multiprocessing
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from antipolix.agents import Agent, agent_named
from antipolix.agents.army import checked_army
from antipolix.agents.base import Decision
from antipolix.observation import Observation
from antipolix.orders import Attack, Move, Pass
from antipolix.pieces import ArmyItem
from antipolix.rules import Rules

Key = tuple[str, int]  # (game id, seat)
WARM_RULES = Rules(shape=(2, 6, 6), players=2, max_turns=3)  # a tiny game loads the kernels


class AgentHost(Protocol):
    async def setup(
        self, key: Key, name: str, rules: Rules, seat: int, seed: np.random.SeedSequence
    ) -> list[ArmyItem]: ...

    async def act(self, key: Key, obs: Observation) -> Decision: ...

    async def restore(self, key: Key, observations: Sequence[Observation]) -> list[Decision]: ...

    def drop(self, key: Key) -> None: ...

    async def close(self) -> None: ...


def as_decision(value: object) -> Decision:
    if isinstance(value, Decision):
        return value
    if isinstance(value, Move | Attack | Pass):
        return Decision(value)
    raise TypeError(f"an agent returned {value!r}, not a decision")


@dataclass
class _Seat:
    agent: Agent


class _Agents:
    """The agents of one thread or process, by key; every call runs where they live."""

    def __init__(self) -> None:
        self.seats: dict[Key, _Seat] = {}
        self.warm: set[str] = set()

    def setup(
        self, key: Key, name: str, rules: Rules, seat: int, seed: np.random.SeedSequence
    ) -> list[ArmyItem]:
        agent = copy.deepcopy(agent_named(name))
        self._warm(agent)
        agent.setup(rules, seat, np.random.Generator(np.random.PCG64(seed)))
        army = checked_army(rules, seat, agent.army())
        self.seats[key] = _Seat(agent)
        return army

    def _warm(self, agent: Agent) -> None:
        """Load (or compile) the agent's kernels once per worker, so that its first decision
        in a game is not charged the loading time (R7)."""
        if agent.name in self.warm:
            return
        from antipolix.play import play_game  # (the play loop is needed only here)

        play_game(WARM_RULES, [copy.deepcopy(agent), copy.deepcopy(agent)], seed=0)
        self.warm.add(agent.name)

    def act(self, key: Key, obs: Observation) -> Decision:
        return as_decision(self.seats[key].agent.act(obs))

    def restore(self, key: Key, observations: Sequence[Observation]) -> list[Decision]:
        return [self.act(key, obs) for obs in observations]

    def drop(self, key: Key) -> None:
        self.seats.pop(key, None)


class ThreadAgents:
    """Agents deciding in one worker thread of this process."""

    def __init__(self) -> None:
        self._agents = _Agents()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="antipolix-agents")

    async def _call(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def setup(
        self, key: Key, name: str, rules: Rules, seat: int, seed: np.random.SeedSequence
    ) -> list[ArmyItem]:
        army: list[ArmyItem] = await self._call(self._agents.setup, key, name, rules, seat, seed)
        return army

    async def act(self, key: Key, obs: Observation) -> Decision:
        decision: Decision = await self._call(self._agents.act, key, obs)
        return decision

    async def restore(self, key: Key, observations: Sequence[Observation]) -> list[Decision]:
        out: list[Decision] = await self._call(self._agents.restore, key, list(observations))
        return out

    def drop(self, key: Key) -> None:
        self._pool.submit(self._agents.drop, key)

    async def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _worker(conn: Any) -> None:
    """A worker process: answers ``(call id, method, args)`` with ``(call id, ok, value)``."""
    agents = _Agents()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if message is None:
            return
        call, method, args = message
        try:
            value = getattr(agents, method)(*args)
            reply = (call, True, value)
        except Exception as exc:  # reported to the server, which names the seat
            reply = (call, False, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


class _Process:
    """One worker process, its pipe and the thread that reads its answers."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.loop = loop
        self.calls: dict[int, asyncio.Future[Any]] = {}
        self.next = 0
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                call, ok, value = self.conn.recv()
            except (EOFError, OSError):
                break
            self.loop.call_soon_threadsafe(self._answer, call, ok, value)
        self.loop.call_soon_threadsafe(self._lost)

    def _answer(self, call: int, ok: bool, value: Any) -> None:
        future = self.calls.pop(call, None)
        if future is None or future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(RuntimeError(value))

    def _lost(self) -> None:
        for future in self.calls.values():
            if not future.done():
                future.set_exception(RuntimeError("the agents' worker process stopped"))
        self.calls.clear()

    def call(self, method: str, *args: Any) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = self.loop.create_future()
        self.next += 1
        self.calls[self.next] = future
        with self.lock:
            self.conn.send((self.next, method, args))
        return future

    def close(self) -> None:
        try:
            with self.lock:
                self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)
        self.conn.close()


class ProcessAgents:
    """Agents deciding in ``workers`` worker processes (spawned at the first agent); each game's
    agents go to the worker with the fewest seats."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("ProcessAgents needs at least one worker (ThreadAgents has none)")
        self.workers = workers
        self._processes: list[_Process] = []
        self._home: dict[Key, _Process] = {}

    def _process_for(self, key: Key) -> _Process:
        if key in self._home:
            return self._home[key]
        if len(self._processes) < self.workers:
            self._processes.append(_Process(asyncio.get_running_loop()))
        load = {id(p): 0 for p in self._processes}
        for p in self._home.values():
            load[id(p)] += 1
        same_game = [p for k, p in self._home.items() if k[0] == key[0]]
        chosen = same_game[0] if same_game else min(self._processes, key=lambda p: load[id(p)])
        self._home[key] = chosen
        return chosen

    async def setup(
        self, key: Key, name: str, rules: Rules, seat: int, seed: np.random.SeedSequence
    ) -> list[ArmyItem]:
        army: list[ArmyItem] = await self._process_for(key).call(
            "setup", key, name, rules, seat, seed
        )
        return army

    async def act(self, key: Key, obs: Observation) -> Decision:
        decision: Decision = await self._home[key].call("act", key, obs)
        return decision

    async def restore(self, key: Key, observations: Sequence[Observation]) -> list[Decision]:
        out: list[Decision] = await self._home[key].call("restore", key, list(observations))
        return out

    def drop(self, key: Key) -> None:
        process = self._home.pop(key, None)
        if process is not None:
            process.call("drop", key)

    async def close(self) -> None:
        for process in self._processes:
            await asyncio.to_thread(process.close)
        self._processes.clear()
        self._home.clear()


def agent_host(workers: int) -> AgentHost:
    """Agents in ``workers`` processes, or in a thread of this process for ``workers == 0``."""
    return ThreadAgents() if workers == 0 else ProcessAgents(workers)
