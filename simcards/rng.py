"""A counter-based random generator that lives inside numba kernels.

Game ``i`` of a run with seed ``s`` draws from its own SplitMix64 stream, keyed by ``(s, i)``.
Nothing global, nothing clock-based: the same game comes out of any thread, any batch,
any machine. The state is a one-element ``uint64`` array so that plain Python (the reference
engines) and jitted code share the very same functions and consume the stream identically.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)

MAX_SEED = 2**63 - 1


@njit(cache=True)
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_key(seed, index):
    """The starting state of game ``index`` in a run seeded with ``seed``."""
    return _mix(_mix(np.uint64(seed) + _GOLDEN) ^ _mix((np.uint64(index) + np.uint64(1)) * _STREAM))


@njit(cache=True)
def seed_state(state, seed, index):
    state[0] = stream_key(seed, index)


@njit(cache=True)
def next_u64(state):
    state[0] += _GOLDEN
    return _mix(state[0])


@njit(cache=True)
def rand_below(state, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**31`` (bias below n / 2**32)."""
    hi = next_u64(state) >> np.uint64(32)
    return np.int64((hi * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle(state, arr, n):
    """Fisher–Yates shuffle of ``arr[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = rand_below(state, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


def new_state(seed: int, index: int) -> np.ndarray:
    """A Python-side state for game ``index`` of ``seed`` (the reference engines use it)."""
    state = np.zeros(1, dtype=np.uint64)
    seed_state(state, seed, index)
    return state
