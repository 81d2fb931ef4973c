"""S9, R12: the agents' generators inside compiled code, the same numbers as numpy's.

A game's seed seeds only its agents (S9): seat ``s`` draws from
``Generator(PCG64(SeedSequence(entropy, spawn_key=(*key, 1, s))))``
(:func:`antipolix.games.protocol.agent_rngs`). Built in Python that costs tens of microseconds
a game, more than a whole game of Sight in compiled code; so the batch path
(:mod:`antipolix.games.sight.batch`) builds them in a kernel: :func:`seed_k` is numpy's
``SeedSequence`` pool mixing and ``PCG64`` seeding, :func:`random_k` numpy's
``Generator.random()`` (the top 53 bits of PCG64's next 64-bit output, XSL-RR). Agents draw
only with ``random()``, so a game played seat by seat through numpy's generators and the same
game in a batch draw the same numbers (tested against numpy for many seeds).

A generator's state is 4 ``uint64``: the 128-bit LCG state and increment, high words first.

>>> seed = np.random.SeedSequence(7, spawn_key=(3,))
>>> words, starts, pools = seed_words([seed])
>>> st = np.zeros(4, dtype=np.uint64)
>>> seed_k(words, starts[0], starts[1], pools[0], 1, st)
>>> float(random_k(st)) == agent_rngs(seed, 2)[1].random()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from antipolix.games.protocol import AGENT_BRANCH, agent_rngs
from antipolix.jit import kernel

U32Array = npt.NDArray[np.uint32]
U64Array = npt.NDArray[np.uint64]
IntArray = npt.NDArray[np.int64]

# numpy's SeedSequence constants (numpy/random/bit_generator.pyx)
INIT_A = 0x43B0D7E5
MULT_A = 0x931E8875
INIT_B = 0x8B51F9DD
MULT_B = 0x58F38DED
MIX_MULT_L = 0xCA01F9DD
MIX_MULT_R = 0x4973F715
# PCG64's 128-bit multiplier (PCG_DEFAULT_MULTIPLIER_128), high and low words
MULT_HI = 0x2360ED051FC65DA4
MULT_LO = 0x4385DF649FCCF645
_M32 = 0xFFFFFFFF

__all__ = ["agent_rngs", "random_k", "seed_k", "seed_words"]


def _words(value: int) -> list[int]:
    """An integer as numpy coerces it for a SeedSequence: 32-bit words, least first."""
    if value < 0:
        raise ValueError(f"a seed is a non-negative integer, got {value}")
    out = [value & _M32]
    value >>= 32
    while value:
        out.append(value & _M32)
        value >>= 32
    return out


_ENTROPY: dict[tuple[Any, int], tuple[int, ...]] = {}


def _entropy_words(entropy: Any, pool: int) -> tuple[int, ...]:
    """A seed's run entropy as words, padded to the pool size (a spawn key always follows
    here: the agents' branch), cached (a batch's seeds share their entropy)."""
    key = (entropy if isinstance(entropy, int) else tuple(np.ravel(entropy).tolist()), pool)
    words = _ENTROPY.get(key)
    if words is None:
        values = [entropy] if isinstance(entropy, int) else np.ravel(entropy).tolist()
        flat = [w for v in values for w in _words(int(v))]
        words = tuple(flat + [0] * (pool - len(flat)))
        if len(_ENTROPY) > 4096:
            _ENTROPY.clear()
        _ENTROPY[key] = words
    return words


def seed_words(
    seeds: Sequence[np.random.SeedSequence],
) -> tuple[U32Array, IntArray, IntArray]:
    """The assembled entropy of each seed's agents' branch (its run entropy, its spawn key and
    the branch's key, :data:`AGENT_BRANCH`), without the seat's last word: ``words[starts[g] :
    starts[g + 1]]`` for game ``g``, whose pool size is ``pools[g]``."""
    flat: list[int] = []
    starts = [0]
    pools = []
    for seed in seeds:
        pool = int(seed.pool_size)
        flat.extend(_entropy_words(seed.entropy, pool))
        for k in seed.spawn_key:
            if 0 <= k <= _M32:
                flat.append(k)
            else:
                flat.extend(_words(int(k)))
        flat.append(AGENT_BRANCH)
        starts.append(len(flat))
        pools.append(pool)
    return (
        np.array(flat, dtype=np.uint32),
        np.array(starts, dtype=np.int64),
        np.array(pools, dtype=np.int64),
    )


@kernel
def _hashmix(value: np.uint64, hash_const: U64Array) -> np.uint64:
    m = np.uint64(_M32)
    value = (value ^ hash_const[0]) & m
    hash_const[0] = (hash_const[0] * np.uint64(MULT_A)) & m
    value = (value * hash_const[0]) & m
    return value ^ (value >> np.uint64(16))


@kernel
def _mix(x: np.uint64, y: np.uint64) -> np.uint64:
    m = np.uint64(_M32)
    r = (np.uint64(MIX_MULT_L) * x - np.uint64(MIX_MULT_R) * y) & m
    return r ^ (r >> np.uint64(16))


@kernel
def _mulhi(a: np.uint64, b: np.uint64) -> np.uint64:
    """The high 64 bits of the 128-bit product ``a·b``."""
    m = np.uint64(_M32)
    s32 = np.uint64(32)
    a_lo, a_hi = a & m, a >> s32
    b_lo, b_hi = b & m, b >> s32
    t = a_hi * b_lo + ((a_lo * b_lo) >> s32)
    w1 = (t & m) + a_lo * b_hi
    return a_hi * b_hi + (t >> s32) + (w1 >> s32)


@kernel
def _step(st: U64Array) -> None:
    """The LCG step: state = state·MULT + inc (mod 2^128)."""
    s_hi, s_lo = st[0], st[1]
    lo = s_lo * np.uint64(MULT_LO)
    hi = _mulhi(s_lo, np.uint64(MULT_LO)) + s_lo * np.uint64(MULT_HI) + s_hi * np.uint64(MULT_LO)
    new_lo = lo + st[3]
    carry = np.uint64(1) if new_lo < lo else np.uint64(0)
    st[0] = hi + st[2] + carry
    st[1] = new_lo


@kernel
def seed_k(words: U32Array, lo: int, hi: int, pool_size: int, seat: int, st: U64Array) -> None:
    """Seed ``st`` as ``PCG64(SeedSequence)`` of ``words[lo:hi]`` followed by ``seat`` (the
    last word of the seat's spawn key, :func:`seed_words`)."""
    m = np.uint64(_M32)
    n = hi - lo + 1
    entropy = np.empty(n, dtype=np.uint64)
    for i in range(n - 1):
        entropy[i] = np.uint64(words[lo + i])
    entropy[n - 1] = np.uint64(seat)
    hash_const = np.empty(1, dtype=np.uint64)
    hash_const[0] = np.uint64(INIT_A)
    mixer = np.empty(pool_size, dtype=np.uint64)
    for i in range(pool_size):
        mixer[i] = _hashmix(entropy[i] if i < n else np.uint64(0), hash_const)
    for i_src in range(pool_size):
        for i_dst in range(pool_size):
            if i_src != i_dst:
                mixer[i_dst] = _mix(mixer[i_dst], _hashmix(mixer[i_src], hash_const))
    for i_src in range(pool_size, n):
        for i_dst in range(pool_size):
            mixer[i_dst] = _mix(mixer[i_dst], _hashmix(entropy[i_src], hash_const))
    # generate_state(4, uint64): 8 words, two per uint64, low word first
    state = np.empty(8, dtype=np.uint64)
    hc = np.uint64(INIT_B)
    for i in range(8):
        v = mixer[i % pool_size] ^ hc
        hc = (hc * np.uint64(MULT_B)) & m
        v = (v * hc) & m
        state[i] = v ^ (v >> np.uint64(16))
    s32 = np.uint64(32)
    seed_hi = state[0] | (state[1] << s32)
    seed_lo = state[2] | (state[3] << s32)
    inc_hi = state[4] | (state[5] << s32)
    inc_lo = state[6] | (state[7] << s32)
    # pcg_setseq_128_srandom_r: inc = (initseq << 1) | 1; state = 0; step; state += seed; step
    st[2] = (inc_hi << np.uint64(1)) | (inc_lo >> np.uint64(63))
    st[3] = (inc_lo << np.uint64(1)) | np.uint64(1)
    st[0] = np.uint64(0)
    st[1] = np.uint64(0)
    _step(st)
    lo_sum = st[1] + seed_lo
    carry = np.uint64(1) if lo_sum < st[1] else np.uint64(0)
    st[0] = st[0] + seed_hi + carry
    st[1] = lo_sum
    _step(st)


@kernel
def next64_k(st: U64Array) -> np.uint64:
    """PCG64's next output: step, then XSL-RR of the new state."""
    _step(st)
    x = st[0] ^ st[1]
    rot = st[0] >> np.uint64(58)
    out: np.uint64 = (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))
    return out


@kernel
def random_k(st: U64Array) -> float:
    """numpy's ``Generator.random()``: a double in [0, 1) from the top 53 bits."""
    return float(next64_k(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
