"""The compiler of the rules' kernels: numba, in nopython mode, its machine code cached on disk.

Every kernel of the package is a plain Python function over numbers and numpy arrays decorated
with :func:`kernel`: the first call in a fresh install compiles it and caches the machine code
(beside the source, in ``__pycache__``, or in numba's user-wide cache when that is not
writable), and every later process, Ray workers included, loads it from there. With the
environment variable ``NUMBA_DISABLE_JIT=1`` the same functions run as plain Python (slowly):
the games are the same either way.

numba checks a cached kernel against its own source file only, but a kernel's machine code
holds the kernels it calls, from other files: after a change to one of those, it would run the
old code. So every kernel's cache here is stamped with a hash of the sources of *all* the
package's kernel files (:func:`kernels_stamp`): a change to any of them recompiles them all.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
from numba.core import caching

F = TypeVar("F", bound=Callable[..., Any])
PACKAGE = Path(__file__).resolve().parent
MARK = "from antipolix.jit import kernel"


@functools.cache
def kernels_stamp() -> str:
    """A hash of the package's kernel files (those that use :func:`kernel`) and of this one."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_bytes()
        if MARK.encode() in text or path == Path(__file__).resolve():
            digest.update(path.relative_to(PACKAGE).as_posix().encode())
            digest.update(text)
    return digest.hexdigest()


class _Stamped:
    """A cache locator whose source stamp is :func:`kernels_stamp`."""

    def get_source_stamp(self) -> str:
        return kernels_stamp()


class _UserProvided(_Stamped, caching.UserProvidedCacheLocator):  # type: ignore[misc]
    pass


class _InTree(_Stamped, caching.InTreeCacheLocator):  # type: ignore[misc]
    pass


class _UserWide(_Stamped, caching.UserWideCacheLocator):  # type: ignore[misc]
    pass


class _CacheImpl(caching.CompileResultCacheImpl):  # type: ignore[misc]
    _locator_classes = [_UserProvided, _InTree, _UserWide]


class _FunctionCache(caching.FunctionCache):  # type: ignore[misc]
    _impl_class = _CacheImpl


def kernel(fn: F) -> F:
    """``fn`` compiled by numba (nopython), cached on disk under :func:`kernels_stamp`."""
    dispatcher = numba.njit(cache=False)(fn)
    if not isinstance(dispatcher, numba.core.registry.CPUDispatcher):
        return cast(F, dispatcher)  # NUMBA_DISABLE_JIT=1: the plain function
    dispatcher._cache = _FunctionCache(fn)  # what cache=True sets, with the package's stamp
    return cast(F, dispatcher)
