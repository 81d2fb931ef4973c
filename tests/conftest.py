"""Fixtures shared by the test files."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import antipolix  # noqa: F401  (before numpy: OpenBLAS's kernels pinned, antipolix.blas)


@pytest.fixture(scope="session")
def ray_local() -> Iterator[Any]:
    """One local Ray (2 CPUs) for the whole session, started by the first test that asks for it
    (about 6–10 s and 0.5 GB here) and shut down at the end. Code under test finds Ray already
    running and leaves it up. Yields the ``ray`` module."""
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            object_store_memory=100 * 1024**2,
        )
    yield ray
    if started:
        ray.shutdown()
