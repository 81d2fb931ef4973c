"""The Ray backend: connect (start Ray here, or join a cluster), and play chunks as tasks.

The rules and agents of a study are shipped once (``ray.put``), each task plays one chunk of
consecutive games and returns its rows, at most ``capacity`` tasks are in flight (from one study,
or from several in turn), and each finished chunk is handed back at once: the driver never holds
more than the chunks in flight, whatever the number of games. A task lost with its node is run
again by Ray.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import threading
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any, Protocol

from antipolix.errors import AntipolixError, SimulationError
from antipolix.runner.games import ChunkOutput, play_chunk
from antipolix.runner.store import Chunk
from antipolix.runner.study import Payload

CONNECT_TIMEOUT = 5.0  # seconds to reach an explicit Ray address before giving up
MAX_RETRIES = 5  # times Ray re-runs a task whose worker or node died


def host_port(address: str) -> tuple[str, int] | None:
    """``HOST:PORT`` (or ``ray://HOST:PORT``) → (host, port); None for ``auto`` and ``local``."""
    if address in ("auto", "local"):
        return None
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        raise SimulationError(f"a Ray address is 'auto' or HOST:PORT, got {address!r}")
    return host.strip("[]"), int(port)


def connect(address: str | None, workers: int | None) -> bool:
    """Connect to Ray (start it on this machine, or join ``address``); True if we started it.

    An explicit address is tried first with a plain TCP connection, so an unreachable cluster is
    reported within seconds (``ray.init`` would wait for minutes).
    """
    import ray

    target = None if address is None else host_port(address)
    if target is not None:
        try:
            socket.create_connection(target, timeout=CONNECT_TIMEOUT).close()
        except OSError as exc:
            raise SimulationError(f"cannot reach the Ray cluster at {address}: {exc}") from None
    if ray.is_initialized():
        current = ray.get_runtime_context().gcs_address
        if target is not None and int(current.rpartition(":")[2]) != target[1]:
            raise SimulationError(
                f"Ray is already connected to {current}, not {address}; call ray.shutdown() "
                "first or leave address out"
            )
        return False
    kwargs: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    if address in (None, "local") and workers and not os.environ.get("RAY_ADDRESS"):
        # a local Ray of our own: no idle worker processes, and no more than the CPUs here
        kwargs["num_cpus"] = min(workers, os.cpu_count() or 1)
    try:
        _init(address, kwargs)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        where = "start Ray" if address is None else f"connect to Ray at {address}"
        raise SimulationError(f"cannot {where}: {exc}") from None
    return True


def _init(address: str | None, kwargs: dict[str, Any]) -> None:
    import ray

    # Ray puts the driver's current folder first on every worker's import path: from a folder
    # holding a folder named ``antipolix`` (a clone's parent), workers would import that instead
    # of this package. Start Ray from the folder this package was imported from, so workers
    # import the same antipolix as the driver, wherever the user stands.
    with contextlib.chdir(_import_root()), _sigterm_kept():
        try:
            ray.init(address=address, **kwargs)
        except ValueError:  # joined a cluster found on this machine: it has its own CPUs
            if "num_cpus" not in kwargs:
                raise
            del kwargs["num_cpus"]
            ray.init(address=address, **kwargs)


@contextlib.contextmanager
def _sigterm_kept() -> Generator[None]:
    """Put back after ``ray.init`` how this process answers SIGTERM. ``ray.init`` sets a Python
    handler of its own, then its core installs a C handler over it that prints a stack dump
    (``*** SIGTERM received ...``) before passing the signal on: the command line's handler
    (:func:`antipolix.cli.terminating`) or the caller's own comes back; without one, Ray's
    Python handler (it exits, and Ray shuts down at exit), re-installed so that no dump comes
    first."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.getsignal(signal.SIGTERM)
    try:
        yield
    finally:
        mine = before not in (signal.SIG_DFL, None)  # (a handler, or SIGTERM ignored)
        keep = before if mine else signal.getsignal(signal.SIGTERM)
        if keep is not None:  # (None: a handler not set from Python, left alone)
            signal.signal(signal.SIGTERM, keep)


def _import_root() -> Path:
    """The folder that holds the ``antipolix`` package this process imported."""
    return Path(__file__).resolve().parent.parent.parent


def capacity(workers: int | None) -> int:
    """Games at a time: ``workers``, but no more than the cluster's CPUs (more tasks than CPUs
    only wait in Ray's queue and hold their chunks in memory)."""
    import ray

    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call, unused-ignore]
    cpus = max(1, int(cpus))
    return cpus if workers is None else min(workers, cpus)


class Source(Protocol):
    """A study whose chunks :func:`run_on_ray` plays: its payload, its next chunk (None when
    none is left), and the time each chunk took (for the sizes of the next ones)."""

    payload: Payload

    def next(self) -> Chunk | None: ...

    def record(self, games: int, seconds: float) -> None: ...


def run_on_ray(sources: Sequence[Source], capacity: int) -> Generator[tuple[int, ChunkOutput]]:
    """Play the chunks of one or more studies on Ray, at most ``capacity`` at a time, the first
    study with chunks left first (so a worker never waits for the last games of a study while
    another has games to play); yield each as it finishes, with its study's index."""
    import ray

    task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(play_chunk)
    shipped: dict[int, Any] = {}  # study index -> its payload, put once, when first needed
    pending: dict[Any, tuple[int, Chunk]] = {}

    def submit() -> None:
        for i, source in enumerate(sources):
            while len(pending) < capacity and (chunk := source.next()) is not None:
                if i not in shipped:
                    try:
                        shipped[i] = ray.put(source.payload)
                    except Exception as exc:
                        raise SimulationError(
                            f"cannot send the rules and agents to Ray: {exc}"
                        ) from exc
                pending[task.remote(shipped[i], chunk)] = (i, chunk)
            if len(pending) >= capacity:
                return

    try:
        while True:
            submit()
            if not pending:
                return
            ready, _ = ray.wait(list(pending), num_returns=1)
            outputs = []
            for ref in ready:
                i, chunk = pending.pop(ref)
                outputs.append((i, _finished(ref, chunk)))
            for i, output in outputs:
                sources[i].record(output.chunk.games, output.seconds)
            submit()  # keep workers busy, then write
            yield from outputs
    finally:
        # Tasks still running are not cancelled: ray.cancel racing with a task that is just
        # finishing aborts the driver inside Ray 2.60 ("Tried to complete task that was not
        # pending", seen on Ctrl-C). Their results are dropped with their references; the
        # workers are freed when they finish, or at once when the Ray started here shuts down.
        pending.clear()
        shipped.clear()


def _finished(ref: Any, chunk: Chunk) -> ChunkOutput:
    """The output of a finished task; errors say what was lost."""
    import ray
    from ray.exceptions import RayError, RayTaskError

    try:
        output: ChunkOutput = ray.get(ref)
    except RayTaskError as exc:
        if isinstance(exc.cause, AntipolixError):
            raise SimulationError(str(exc.cause)) from None
        raise
    except RayError as exc:
        raise SimulationError(
            f"Ray lost games {chunk.start}–{chunk.stop - 1}: {exc}; the finished "
            "chunks are saved, run again with the same out to finish"
        ) from exc
    return output
