"""A counter-based random generator that lives inside numba kernels.

Game ``i`` of a run with seed ``s`` draws its deal (shuffles, the first dealer or starter) from its
own SplitMix64 stream, keyed by ``(s, i)``, and that stream stays with the engine. Each seat's
strategy draws from a stream of its own, keyed by ``strategy_key(s, i, seat)``: SipHash-2-4, a
keyed pseudorandom function (key: the seed), of ``(i, seat, a domain constant)``. SplitMix64's
mixer is a bijection, so a strategy key built from mixes and xors of the seed could be inverted
back to the deal's key; SipHash's output reveals nothing of its key nor of another message's
output, so nothing of the deal can be computed from a strategy's stream (issue 27).

Nothing global, nothing clock-based: the same game comes out of any thread, any batch,
any machine. A state is a one-element ``uint64`` array so that plain Python (the reference
engines) and jitted code share the very same functions and consume the stream identically; the
kernels keep a game's streams in one array (``seed_streams``: the deal's at 0, seat ``s``'s at
``1 + s``) and hand a strategy the one-element slice of its seat.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)
# SipHash's second key half and the message's domain word for the strategies' streams (arbitrary
# constants: "simcards", "strategy")
_SIP_K1 = np.uint64(0x73696D6361726473)
_STRATEGY = np.uint64(0x7374726174656779)

MAX_SEED = 2**63 - 1


@njit(cache=True)
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_key(seed, index):
    """The starting state of game ``index`` in a run seeded with ``seed``."""
    return mix64(mix64(np.uint64(seed) + GOLDEN) ^ mix64((np.uint64(index) + np.uint64(1)) * _STREAM))


@njit(cache=True)
def seed_state(state, seed, index):
    state[0] = stream_key(seed, index)


@njit(cache=True, inline="always")
def _rotl(x, b):
    return (x << np.uint64(b)) | (x >> np.uint64(64 - b))


@njit(cache=True, inline="always")
def _sip_rounds(v0, v1, v2, v3, n):
    for _ in range(n):
        v0 += v1
        v1 = _rotl(v1, 13)
        v1 ^= v0
        v0 = _rotl(v0, 32)
        v2 += v3
        v3 = _rotl(v3, 16)
        v3 ^= v2
        v0 += v3
        v3 = _rotl(v3, 21)
        v3 ^= v0
        v2 += v1
        v1 = _rotl(v1, 17)
        v1 ^= v2
        v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


@njit(cache=True)
def siphash24(k0, k1, words, n_bytes):
    """SipHash-2-4 (Aumasson and Bernstein, 2012) with key ``(k0, k1)`` of the ``n_bytes``-byte
    message held little-endian in ``words`` (the last word's unused high bytes zero)."""
    k0 = np.uint64(k0)
    k1 = np.uint64(k1)
    v0 = k0 ^ np.uint64(0x736F6D6570736575)
    v1 = k1 ^ np.uint64(0x646F72616E646F6D)
    v2 = k0 ^ np.uint64(0x6C7967656E657261)
    v3 = k1 ^ np.uint64(0x7465646279746573)
    full = n_bytes // 8
    for i in range(full):
        m = np.uint64(words[i])
        v3 ^= m
        v0, v1, v2, v3 = _sip_rounds(v0, v1, v2, v3, 2)
        v0 ^= m
    b = np.uint64(n_bytes & 0xFF) << np.uint64(56)
    if n_bytes % 8:
        b |= np.uint64(words[full])
    v3 ^= b
    v0, v1, v2, v3 = _sip_rounds(v0, v1, v2, v3, 2)
    v0 ^= b
    v2 ^= np.uint64(0xFF)
    v0, v1, v2, v3 = _sip_rounds(v0, v1, v2, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


@njit(cache=True)
def strategy_key(seed, index, seat):
    """The starting state of ``seat``'s strategy stream in game ``index`` of a run seeded with
    ``seed``: SipHash-2-4 keyed by the seed of the 24-byte message ``(index, seat, domain)``."""
    words = (np.uint64(index), np.uint64(seat), _STRATEGY)  # (a tuple: nothing allocated)
    return siphash24(np.uint64(seed), _SIP_K1, words, 24)


@njit(cache=True)
def seed_streams(state, seed, index, seats=-1):
    """A game's streams in one array: the deal's at 0 (``stream_key``), seat ``s``'s strategy
    stream at ``1 + s`` for every further slot (``strategy_key``) whose bit is set in ``seats``
    (default: all). A kernel may leave out the seats whose strategy never draws: each key is a
    SipHash, about 22 ns (four of them, about 1% of a plain Two Hundred game)."""
    state[0] = stream_key(seed, index)
    for s in range(state.shape[0] - 1):
        if seats >> s & 1:
            state[1 + s] = strategy_key(seed, index, s)


@njit(cache=True)
def next_u64(state):
    state[0] += GOLDEN
    return mix64(state[0])


@njit(cache=True)
def rand_below(state, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**31`` (bias below n / 2**32)."""
    hi = next_u64(state) >> np.uint64(32)
    return np.int64((hi * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def shuffle(state, arr, n):
    """Fisher–Yates shuffle of ``arr[:n]`` in place: swap ``arr[i]`` with ``arr[rand_below(state, i
    + 1)]`` for ``i`` from ``n - 1`` down to 1, with the stream's state held in a local (read once
    and written once: the swaps' stores cannot alias it, so it stays in a register)."""
    s = state[0]
    for i in range(n - 1, 0, -1):
        s += GOLDEN
        j = np.int64(((mix64(s) >> np.uint64(32)) * np.uint64(i + 1)) >> np.uint64(32))
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
    state[0] = s


def new_state(seed: int, index: int) -> np.ndarray:
    """A Python-side deal state for game ``index`` of ``seed`` (the reference engines use it)."""
    state = np.zeros(1, dtype=np.uint64)
    seed_state(state, seed, index)
    return state


def seat_states(seed: int, index: int, seats: int) -> list[np.ndarray]:
    """The Python-side strategy states of seats ``0 .. seats - 1`` in game ``index`` of ``seed``:
    what the reference engines hand each seat's strategy (the kernels: ``seed_streams``)."""
    return [np.array([strategy_key(seed, index, s)], dtype=np.uint64) for s in range(seats)]
