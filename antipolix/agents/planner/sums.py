"""Sums of floats in numpy's order, compiled.

The planner's kernels reproduce, operation for operation, the numpy planner they replaced
(kept as the oracle in ``tests/oracle/agents/planner.py``): the same floating-point operations
in the same order, so that they make the same decisions. numpy sums a 1-D array pairwise
(:func:`pairwise`) and the rows of a matrix one after the other (:func:`column_sum`); the
exposure and the threats count the largest term in full and the others at a weight
(:func:`spread_total`: one order a turn, R4). Which terms a move changes, or which are not
zero, are kept as bits of 64-bit masks, walked from the lowest set bit up
(:func:`trailing_zeros`).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros as _cttz
from numba.extending import overload

from antipolix.agents.planner.weights import FloatArray, MaskArray
from antipolix.jit import JIT, kernel
from antipolix.world import IntArray

ZERO = np.uint64(0)
ONE = np.uint64(1)


@kernel
def _pairwise_leaf(a: FloatArray, lo: int, n: int) -> float:
    """numpy's ``pairwise_sum`` of ``a[lo:lo + n]`` for ``n <= 128``: in order below 8 elements,
    else eight accumulators."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    end = n - n % 8
    while i < end:
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return float(res)


@kernel
def pairwise(a: FloatArray, lo: int, n: int) -> float:
    """numpy's ``pairwise_sum`` of ``a[lo:lo + n]``: above 128 elements, the sum of the two
    halves (the left one a multiple of 8 long), each summed the same way. (Without recursion,
    which numba's disk cache does not take: a stack of the halves still to sum.)"""
    if n <= 128:
        return _pairwise_leaf(a, lo, n)
    los = np.empty(64, dtype=np.int64)
    ns = np.empty(64, dtype=np.int64)
    split = np.zeros(64, dtype=np.bool_)
    sums = np.empty(64)
    los[0], ns[0] = lo, n
    top, done = 0, 0
    while top >= 0:
        if ns[top] <= 128:
            sums[done] = _pairwise_leaf(a, los[top], ns[top])
            done += 1
            top -= 1
        elif split[top]:  # both halves summed: left + right
            sums[done - 2] = sums[done - 2] + sums[done - 1]
            done -= 1
            top -= 1
        else:
            split[top] = True
            half = ns[top] // 2
            half -= half % 8
            los[top + 1], ns[top + 1], split[top + 1] = los[top] + half, ns[top] - half, False
            los[top + 2], ns[top + 2], split[top + 2] = los[top], half, False
            top += 2  # the left half on top: summed first
    return float(sums[0])


@kernel
def pairwise_sum(a: FloatArray) -> float:
    """``float(a.sum())`` of a 1-D float array, summed in numpy's order (:func:`pairwise`).

    >>> x = np.random.default_rng(0).random(1000)
    >>> pairwise_sum(x) == float(x.sum())
    True
    """
    return float(pairwise(a, 0, len(a)))


@kernel
def column_sum(a: FloatArray, n: int, single: bool) -> float:
    """The sum of ``a[:n]``, one column of an ``(n, k)`` matrix summed over its rows by numpy:
    row by row, but pairwise when the matrix is a single column (``k == 1``)."""
    if single:
        return pairwise(a, 0, n)
    res = 0.0
    for i in range(n):
        res += a[i]
    return res


@kernel
def largest(a: FloatArray, n: int) -> float:
    top = a[0]
    for i in range(1, n):
        if a[i] > top:
            top = a[i]
    return float(top)


@kernel
def spread_total(a: FloatArray, n: int, spread: float) -> float:
    """The largest of ``a[:n]`` in full, the others at ``spread``: one order a turn (R4)."""
    if n == 0:
        return 0.0
    top = largest(a, n)
    return top + spread * (pairwise(a, 0, n) - top)


@kernel
def column_spread_total(a: FloatArray, n: int, single: bool, spread: float) -> float:
    """:func:`spread_total` of one column of an ``(n, k)`` matrix (``n >= 1``), as numpy sums it."""
    top = largest(a, n)
    return top + spread * (column_sum(a, n, single) - top)


def trailing_zeros(bits: np.uint64) -> np.uint64:
    """The number of zero bits below the lowest set bit of ``bits`` (``bits`` > 0): one
    machine instruction in kernels, a loop in plain Python."""
    n = np.uint64(0)
    while not bits & ONE:
        bits >>= ONE
        n += ONE
    return n


if JIT:

    @overload(trailing_zeros)
    def _trailing_zeros(bits):  # type: ignore[no-untyped-def]  # (numba: names as the impl's)
        return lambda bits: _cttz(bits)


@kernel
def lowest_bit(bits: np.uint64, n: int) -> int:
    """The index of the lowest set bit of ``bits`` (``n`` if there is none)."""
    return n if bits == 0 else int(np.int64(trailing_zeros(bits)))


@kernel
def case_table(count: int) -> tuple[MaskArray, IntArray]:
    """An empty table of cases for :func:`case_of`, with room for ``count`` of them: keys
    (four words each) and, per slot, its case (-1: free)."""
    slots = 64
    while slots < 2 * count:
        slots *= 2
    return np.empty((slots, 4), dtype=np.uint64), np.full(slots, -1, dtype=np.int64)


@kernel
def case_of(
    keys: MaskArray,
    cases: IntArray,
    a: np.uint64,
    b: np.uint64,
    c: np.uint64,
    d: np.uint64,
    n_cases: int,
) -> int:
    """The case of key ``(a, b, c, d)`` in the table (:func:`case_table`; open addressing):
    its number, or ``n_cases`` when the key is new (then entered under that number)."""
    mask = np.uint64(len(cases) - 1)
    h = a ^ (a >> np.uint64(23)) ^ (b << np.uint64(7)) ^ (b >> np.uint64(31))
    h ^= (c << np.uint64(13)) ^ (c >> np.uint64(17)) ^ (d << np.uint64(29)) ^ (h >> np.uint64(11))
    slot = h & mask
    while cases[slot] >= 0:
        if keys[slot, 0] == a and keys[slot, 1] == b and keys[slot, 2] == c and keys[slot, 3] == d:
            return int(cases[slot])
        slot = (slot + ONE) & mask
    keys[slot, 0], keys[slot, 1], keys[slot, 2], keys[slot, 3] = a, b, c, d
    cases[slot] = n_cases
    return n_cases
