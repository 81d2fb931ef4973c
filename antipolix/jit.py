"""The compiler of the rules' kernels: numba, in nopython mode, its machine code cached on disk.

Every kernel of the package is a plain Python function over numbers and numpy arrays decorated
with :func:`kernel`: the first call in a fresh install compiles it (and caches the result beside
the source, in ``__pycache__``), every later process loads the cache. With the environment
variable ``NUMBA_DISABLE_JIT=1`` the same functions run as plain Python (slowly): the games are
the same either way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def kernel(fn: F) -> F:
    """``fn`` compiled by numba (nopython, cached on disk)."""
    return cast(F, numba.njit(cache=True)(fn))
