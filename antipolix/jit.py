"""The compiler of the rules' kernels: numba, in nopython mode, its machine code cached on disk;
and the records kernels pass around.

Every kernel of the package is a plain Python function over numbers and numpy arrays decorated
with :func:`kernel`: the first call in a fresh install compiles it and caches the machine code
(beside the source, in ``__pycache__``, or in numba's user-wide cache when that is not
writable), and every later process, Ray workers included, loads it from there. With the
environment variable ``NUMBA_DISABLE_JIT=1`` the same functions run as plain Python (slowly):
the games are the same either way.

numba checks a cached kernel against its own source file only, but a kernel's machine code
holds the kernels it calls and the constants it reads, from other files: after a change to one
of those, it would run the old code. So every kernel's cache here is stamped with a hash of its
file and of every package file that file imports, directly or not (:func:`source_stamp`): a
change to any of them recompiles it.

**Records.** The core's state, the rules' tables, an observation... are named tuples of arrays
in Python. Passed to a kernel as such, every array in them is reference-counted at every call
(a few nanoseconds each, but a game's state holds two dozen arrays and hot helpers are called
millions of times). :func:`record` makes a named tuple class also a compiled record (a numba
``StructRef``, passed by one pointer): :func:`packed` turns a tuple into its record for
kernels, :func:`unpacked` a record back into the tuple (sharing the arrays), and the maker
:func:`record` returns builds the tuple in Python and the record inside kernels. Without JIT,
records are the tuples themselves.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir as _ir
from numba.core import bytecode as _bytecode
from numba.core import caching as _caching
from numba.core import cgutils as _cgutils
from numba.core import types as _types
from numba.experimental import structref
from numba.extending import intrinsic as _intrinsic
from numba.extending import overload, register_jitable

caching: Any = _caching  # (numba has partial annotations: used as untyped)
types: Any = _types

F = TypeVar("F", bound=Callable[..., Any])
JIT = not numba.config.DISABLE_JIT
T = TypeVar("T")


class _RandomIds:
    """numba's numbers for the functions it compiles (the ``v123`` in their machine names),
    drawn at random instead of counted from 1 in each process.

    Counted, two processes that compile in the same order give the same name to different
    functions (the sort inside one kernel, the argsort inside another), each kept in the disk
    cache with its own kernel; a process that then loads both kernels links both names to one
    body, and plays differently from the rules' source (numba issue #10486, open for numba
    0.68: seen here as random-agent games that changed once the planner's kernels were cached
    beside theirs). Drawn at random (63 bits, in every process and every fork), names from
    different processes do not meet. Only the names change: what a kernel computes, and the
    cache's keys, do not."""

    def __iter__(self) -> _RandomIds:
        return self

    def __next__(self) -> int:
        return secrets.randbits(63)


if hasattr(_bytecode.FunctionIdentity, "_unique_ids"):  # (where numba draws them: 0.68)
    _bytecode.FunctionIdentity._unique_ids = _RandomIds()

PACKAGE = Path(__file__).resolve().parent
_IMPORTS = re.compile(
    rb"^[ \t]*(?:from[ \t]+antipolix((?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
    rb"|import[ \t]+antipolix((?:\.\w+)+))",
    re.M,
)


def _module_file(dotted: str) -> Path | None:
    """The file of module ``antipolix<dotted>`` (``dotted`` like ``.agents.sight``), if any."""
    base = PACKAGE.joinpath(*dotted.split(".")[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@functools.cache
def _imports(path: Path) -> tuple[Path, ...]:
    """The package's files that ``path`` imports (``from antipolix import x`` imports module
    ``x``, not the package's ``__init__``)."""
    found = set()
    for module, names, plain in _IMPORTS.findall(path.read_bytes()):
        dotted = (module or plain).decode()
        candidates = [dotted] if dotted else []
        candidates += [f"{dotted}.{n}" for n in re.findall(r"\w+", names.decode())]
        found |= {f for c in candidates if (f := _module_file(c)) is not None}
    return tuple(sorted(found))


@functools.cache
def source_stamp(path: Path) -> str:
    """A hash of ``path`` and of every package file it imports, directly or not (and of this
    one): what a kernel of ``path`` compiles from (the kernels it calls, the constants)."""
    seen, todo = {Path(__file__).resolve()}, [path.resolve()]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(_imports(current))
    digest = hashlib.sha256()
    for file in sorted(seen):
        digest.update(file.relative_to(PACKAGE).as_posix().encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()


class _Stamped:
    """A cache locator whose source stamp is :func:`source_stamp` of the kernel's file."""

    _py_file: str

    def get_source_stamp(self) -> str:
        return source_stamp(Path(self._py_file))


class _UserProvided(_Stamped, caching.UserProvidedCacheLocator):  # type: ignore[misc]
    pass


class _InTree(_Stamped, caching.InTreeCacheLocator):  # type: ignore[misc]
    pass


class _UserWide(_Stamped, caching.UserWideCacheLocator):  # type: ignore[misc]
    pass


class _CacheImpl(caching.CompileResultCacheImpl):  # type: ignore[misc]
    _locator_classes: ClassVar[list[type]] = [_UserProvided, _InTree, _UserWide]


class _FunctionCache(caching.FunctionCache):  # type: ignore[misc]
    _impl_class = _CacheImpl


def kernel(fn: F) -> F:
    """``fn`` compiled by numba (nopython), cached on disk under :func:`source_stamp`."""
    dispatcher = numba.njit(cache=False)(fn)
    if not isinstance(dispatcher, numba.core.registry.CPUDispatcher):
        return cast(F, dispatcher)  # NUMBA_DISABLE_JIT=1: the plain function
    dispatcher._cache = _FunctionCache(fn)  # what cache=True sets, with the package's stamp
    return cast(F, dispatcher)


def inlined(fn: F) -> F:
    """``fn`` compiled by numba into every kernel that calls it (``inline="always"``), not as a
    kernel of its own: small helpers called per piece (no call, so no reference counted for
    each array passed), and the steps of a large kernel that only kernels call (the autoplay
    loop's, the search's). numba links into each kernel's machine code every kernel it calls
    and optimises and emits the whole again, so that each level of kernels above the planner
    recompiled all of it (about 10 s a level on a cold build, for a dozen levels); an inlined
    step is compiled once, within its caller. Called from Python it is a kernel of its own,
    cached like :func:`kernel`; a plain function without JIT."""
    dispatcher = numba.njit(cache=False, inline="always")(fn)
    if not isinstance(dispatcher, numba.core.registry.CPUDispatcher):
        return cast(F, dispatcher)
    dispatcher._cache = _FunctionCache(fn)
    return cast(F, dispatcher)


def cached(fn: Callable[..., Any]) -> bool:
    """Does the disk cache hold machine code of kernel ``fn`` that this process will load
    rather than compile: an index of this numba version stamped with the kernel's current
    :func:`source_stamp`, with an entry for this machine (numba's magic tuple: the CPU and its
    features) and this bytecode? True for a plain function (``NUMBA_DISABLE_JIT=1``: nothing
    compiles). Reads the index only; compiles nothing."""
    cache = getattr(fn, "_cache", None)
    if not JIT or not isinstance(cache, _FunctionCache):
        return True
    try:
        index = cache._cache_file._load_index()  # {} when missing, stale or of another numba
        if not index:
            return False
        magic = fn.targetctx.codegen().magic_tuple()  # type: ignore[attr-defined]
        code = hashlib.sha256(fn.py_func.__code__.co_code).hexdigest()  # type: ignore[attr-defined]
    except Exception:  # an unreadable index: numba would compile
        return False
    return any(key[1] == magic and key[2][0] == code for key in index)


def both(fn: F) -> F:
    """``fn`` runs as plain Python when called from Python, and is compiled into the kernels
    that call it (numba's ``register_jitable``): for functions that build records, which give
    Python a named tuple and kernels a record."""
    return cast(F, register_jitable(fn)) if JIT else fn


# -- records ---------------------------------------------------------------------------------------


@structref.register
class RecordType(types.StructRef):  # type: ignore[misc]
    """The numba type of a compiled record: its fields' names and types."""

    def preprocess_fields(self, fields: Any) -> tuple[tuple[str, Any], ...]:
        return tuple((name, types.unliteral(t)) for name, t in fields)


class Record(structref.StructRefProxy):  # type: ignore[misc]
    """A compiled record handed to Python: opaque; give it to kernels, or :func:`unpacked`."""


structref.define_boxing(RecordType, Record)
_RECORDS: dict[tuple[str, ...], type] = {}  # field names → the named tuple class


def _source(name: str, params: str, body: list[str]) -> str:
    return "\n".join([f"def {name}({params}):", *("    " + line for line in body)])


def _record_impl(
    fields: tuple[str, ...], field_types: Sequence[Any], source: str | None = None
) -> Callable[..., Any]:
    """A jitted function that builds the record of ``fields`` with these types: from its
    arguments (one per field), or from the fields of its one argument ``x`` (``source="x"``)."""
    rtype = RecordType(list(zip(fields, field_types, strict=True)))
    params = source or ", ".join(fields)
    body = [  # (the generated names start with "_": fields may be named anything else)
        "_r = _structref.new(_rtype)",
        *(f"_r.{f} = {source + '.' if source else ''}{f}" for f in fields),
        "return _r",
    ]
    namespace: dict[str, Any] = {"_structref": structref, "_rtype": rtype}
    exec(_source("impl", params, body), namespace)
    return cast(Callable[..., Any], namespace["impl"])


def record(cls: type[T]) -> Callable[..., T]:
    """Register the named tuple class ``cls`` as a compiled record; returns its maker, called
    with the fields in order: in Python it returns a ``cls``, inside a kernel a record."""
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    _RECORDS[fields] = cls
    params = ", ".join(fields)
    namespace: dict[str, Any] = {"_cls": cls}
    exec(_source("make", params, [f"return _cls({params})"]), namespace)
    make = namespace["make"]
    make.__name__ = make.__qualname__ = f"make_{cls.__name__}"
    if JIT:
        typer_ns: dict[str, Any] = {"_impl": _record_impl, "_fields": fields}
        exec(_source("typer", params, [f"return _impl(_fields, [{params}])"]), typer_ns)
        overload(make)(typer_ns["typer"])
    return cast(Callable[..., T], make)


def _as_record(x: Any) -> Any:
    return x


def _as_tuple(x: Any) -> Any:
    return x


if JIT:

    @overload(_as_record)
    def _as_record_typer(x):  # type: ignore[no-untyped-def]  # (numba: names as the impl's)
        if isinstance(x, RecordType):
            return lambda x: x
        if isinstance(x, types.BaseNamedTuple):
            return _record_impl(tuple(x.instance_class._fields), list(x.types), source="x")
        return None

    @overload(_as_tuple)
    def _as_tuple_typer(x):  # type: ignore[no-untyped-def]
        if isinstance(x, types.BaseNamedTuple):
            return lambda x: x
        if isinstance(x, RecordType):
            fields = tuple(x.field_dict)
            cls = _RECORDS[fields]
            params = ", ".join(f"x.{f}" for f in fields)
            namespace: dict[str, Any] = {"_cls": cls}
            exec(_source("impl", "x", [f"return _cls({params})"]), namespace)
            return namespace["impl"]
        return None


@kernel
def packed(x: T) -> T:
    """The record of a named tuple registered by :func:`record` (the same arrays), for kernels."""
    return _as_record(x)  # type: ignore[no-any-return]


@kernel
def unpacked(x: T) -> T:
    """The named tuple of a record (the same arrays), for Python."""
    return _as_tuple(x)  # type: ignore[no-any-return]


# -- a generator held for kernels -------------------------------------------------------------


class Held(NamedTuple):
    """A numpy generator held by compiled code (:func:`held`)."""

    rng: np.random.Generator


record(Held)


def held(rng: np.random.Generator) -> Held:
    """``rng`` held for kernels that take it as ``held.rng``: it draws the same numbers from the
    same state. Passed to a kernel called from Python it costs a pointer, where a generator is
    read anew at every call (its bit generator's state and functions, through ctypes: about
    5 µs). Keep ``rng`` itself alive as long as the holder (its state is ``rng``'s); a holder
    cannot be pickled or copied: make it again from the copy's generator."""
    return packed(Held(rng))


# -- a PCG64 generator's state, kept and put back in compiled code ------------------------------

PCG64_WORDS = 5  # the words of a kept state (:func:`keep_pcg64`)
_WORD = (1 << 64) - 1


def keep_pcg64(g: np.random.Generator, into: npt.NDArray[np.uint64]) -> None:
    """Keep the state of generator ``g`` (a PCG64, as ``g.bit_generator.state`` holds it) in
    ``into`` (:data:`PCG64_WORDS` words), for :func:`restore_pcg64`. In kernels it copies the
    words of numpy's C state (``pcg64_state``: the 128-bit state and increment, then the
    buffered half of a 64-bit draw) without the interpreter: about 6 µs less a state kept and
    put back than going through ``bit_generator.state`` in object mode."""
    state = g.bit_generator.state
    s, inc = state["state"]["state"], state["state"]["inc"]
    into[:] = (s & _WORD, s >> 64, inc & _WORD, inc >> 64,
               state["has_uint32"] | state["uinteger"] << 32)  # fmt: skip


def restore_pcg64(g: np.random.Generator, saved: npt.NDArray[np.uint64]) -> None:
    """Put generator ``g`` (a PCG64) back in the state ``saved`` (:func:`keep_pcg64`): it draws
    the same numbers as when it was kept."""
    w = [int(v) for v in saved]
    g.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": w[0] | w[1] << 64, "inc": w[2] | w[3] << 64},
        "has_uint32": w[4] & 0xFFFFFFFF,
        "uinteger": w[4] >> 32,
    }


def seed_pcg64(g: np.random.Generator, seed: int | np.integer, k: int | np.integer) -> None:
    """Put generator ``g`` (a PCG64) in the state ``np.random.PCG64(np.array([seed, k]))``
    starts in (``0 <= seed, k < 2**63``): it draws what that new generator would. In kernels,
    where a generator cannot be made, this seeds one made beforehand: numpy's
    ``SeedSequence`` and PCG64's seeding done in compiled code (:func:`_pcg64_seeded`) and the
    words written as :func:`restore_pcg64` writes them, about 0.1 µs where making the
    generator in object mode costs about 28."""
    g.bit_generator.state = np.random.PCG64(np.array([seed, k], dtype=np.int64)).state


# numpy's SeedSequence (numpy/random/bit_generator.pyx): a pool of 4 32-bit words, its hashes'
# constants; and PCG64's multiplier (numpy/random/src/pcg64: PCG_DEFAULT_MULTIPLIER_128).
_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_MULT_L, _MIX_MULT_R = 0xCA01F9DD, 0x4973F715
_PCG_MULT_HIGH, _PCG_MULT_LOW = 0x2360ED051FC65DA4, 0x4385DF649FCCF645


@register_jitable  # type: ignore[untyped-decorator]
def _hashmix(value: int, hash_const: npt.NDArray[np.int64]) -> int:
    """SeedSequence's ``hashmix`` (``hash_const[0]`` is the running constant)."""
    value = (value ^ hash_const[0]) & _M32
    hash_const[0] = (hash_const[0] * _MULT_A) & _M32
    value = (value * hash_const[0]) & _M32
    return value ^ (value >> 16)


@register_jitable  # type: ignore[untyped-decorator]
def _mix(x: int, y: int) -> int:
    """SeedSequence's ``mix``."""
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _M32
    return result ^ (result >> 16)


@register_jitable  # type: ignore[untyped-decorator]
def _times(h: np.uint64, lo: np.uint64, bh: np.uint64, bl: np.uint64) -> tuple[Any, Any]:
    """``(h:lo) * (bh:bl)`` modulo 2**128, as its high and low words."""
    mask, half = np.uint64(_M32), np.uint64(32)
    a0, a1, b0, b1 = lo & mask, lo >> half, bl & mask, bl >> half
    p00, p01, p10 = a0 * b0, a0 * b1, a1 * b0
    mid = (p00 >> half) + (p01 & mask) + (p10 & mask)
    low = (p00 & mask) | (mid << half)
    high = a1 * b1 + (p01 >> half) + (p10 >> half) + (mid >> half) + h * bl + lo * bh
    return high, low


@register_jitable  # type: ignore[untyped-decorator]
def _plus(h: np.uint64, lo: np.uint64, bh: np.uint64, bl: np.uint64) -> tuple[Any, Any]:
    """``(h:lo) + (bh:bl)`` modulo 2**128, as its high and low words."""
    low = lo + bl
    return h + bh + (np.uint64(1) if low < lo else np.uint64(0)), low


@register_jitable  # type: ignore[untyped-decorator]
def _pcg64_seeded(seed: int, k: int, out: npt.NDArray[np.uint64]) -> None:
    """The words (:func:`keep_pcg64`) of ``np.random.PCG64(np.array([seed, k]))``'s state."""
    entropy = np.zeros(6, dtype=np.int64)  # each number's 32-bit words, low first (0: one)
    n = 0
    for v in (seed, k):
        entropy[n], n, v = v & _M32, n + 1, v >> 32
        while v > 0:
            entropy[n], n, v = v & _M32, n + 1, v >> 32
    hash_const = np.array([_INIT_A], dtype=np.int64)
    pool = np.zeros(4, dtype=np.int64)
    for i in range(4):
        pool[i] = _hashmix(entropy[i] if i < n else 0, hash_const)
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                pool[i_dst] = _mix(pool[i_dst], _hashmix(pool[i_src], hash_const))
    for i_src in range(4, n):
        for i_dst in range(4):
            pool[i_dst] = _mix(pool[i_dst], _hashmix(entropy[i_src], hash_const))
    hash_b = _INIT_B  # generate_state(4, np.uint64): 8 words of 32 bits, paired low first
    words = np.zeros(4, dtype=np.uint64)
    for i in range(8):
        value = (pool[i % 4] ^ hash_b) & _M32
        hash_b = (hash_b * _MULT_B) & _M32
        value = (value * hash_b) & _M32
        words[i // 2] |= np.uint64(value ^ (value >> 16)) << np.uint64(32 * (i % 2))
    # pcg64_set_seed: the initial state words[0]:words[1] (high:low), the stream words[2:4]
    inc_h = (words[2] << np.uint64(1)) | (words[3] >> np.uint64(63))
    inc_l = (words[3] << np.uint64(1)) | np.uint64(1)
    mh, ml = np.uint64(_PCG_MULT_HIGH), np.uint64(_PCG_MULT_LOW)
    h, lo = _plus(np.uint64(0), np.uint64(0), inc_h, inc_l)  # (0 * mult + inc)
    h, lo = _plus(h, lo, words[0], words[1])
    h, lo = _times(h, lo, mh, ml)
    h, lo = _plus(h, lo, inc_h, inc_l)
    out[0], out[1], out[2], out[3], out[4] = lo, h, inc_l, inc_h, np.uint64(0)


@_intrinsic  # type: ignore[untyped-decorator]
def _state_address(typingctx: Any, bitgen: Any) -> Any:
    """The address of a bit generator's C state (the one its ``next_*`` functions take)."""
    if not isinstance(bitgen, types.NumPyRandomBitGeneratorType):
        return None

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return _cgutils.create_struct_proxy(bitgen)(context, builder, value=args[0]).state

    return types.uintp(bitgen), codegen


@_intrinsic  # type: ignore[untyped-decorator]
def _word_at(typingctx: Any, address: Any) -> Any:
    """The 64-bit word at ``address``."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return builder.load(builder.inttoptr(args[0], _ir.IntType(64).as_pointer()))

    return types.uint64(types.uintp), codegen


@_intrinsic  # type: ignore[untyped-decorator]
def _set_word_at(typingctx: Any, address: Any, value: Any) -> Any:
    """Write the 64-bit word ``value`` at ``address``."""

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        builder.store(args[1], builder.inttoptr(args[0], _ir.IntType(64).as_pointer()))
        return context.get_dummy_value()

    return types.void(types.uintp, types.uint64), codegen


@overload(keep_pcg64)  # type: ignore[untyped-decorator]
def _keep_pcg64(g: Any, into: Any) -> Any:
    def impl(g: Any, into: Any) -> None:  # pcg64_state: {pcg64_random_t *, int, uint32}
        state = _state_address(g.bit_generator)
        words = np.uintp(_word_at(state))  # pcg64_random_t: state, inc (128 bits each)
        for u in range(4):
            into[u] = _word_at(words + np.uintp(8 * u))
        into[4] = _word_at(state + np.uintp(8))  # has_uint32, uinteger

    return impl


@overload(restore_pcg64)  # type: ignore[untyped-decorator]
def _restore_pcg64(g: Any, saved: Any) -> Any:
    def impl(g: Any, saved: Any) -> None:
        state = _state_address(g.bit_generator)
        words = np.uintp(_word_at(state))
        for u in range(4):
            _set_word_at(words + np.uintp(8 * u), saved[u])
        _set_word_at(state + np.uintp(8), saved[4])

    return impl


@overload(seed_pcg64)  # type: ignore[untyped-decorator]
def _seed_pcg64(g: Any, seed: Any, k: Any) -> Any:
    def impl(g: Any, seed: Any, k: Any) -> None:
        words = np.empty(PCG64_WORDS, dtype=np.uint64)
        _pcg64_seeded(seed, k, words)
        restore_pcg64(g, words)

    return impl
