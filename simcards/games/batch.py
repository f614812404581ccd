"""Playing a batch of games on threads, the same way in every game.

A kernel compiles ``play_games(..., lo, hi, ...)``: games ``lo .. hi - 1`` of a batch, a plain
loop compiled with ``nogil=True``. ``play_ranges`` cuts the batch in ranges that shrink as it runs
out (``guided_cuts``) and plays them on ``numba.get_num_threads()`` Python threads. Not a
``prange``: a parallel kernel compiles the whole game twice more (its gufunc and its wrapper),
which was most of a cold compile. Game ``g`` draws only from its own streams and writes only its
own rows (``simcards.rng``), so the results do not depend on the threads or the cuts.
"""

from __future__ import annotations

import os
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numba
import numpy as np
from numba.core.types import WrapperAddressProtocol
from numba.experimental.function_type import _get_wrapper_address

RANGES = 64  # the smallest range is a batch's 1/RANGES: enough to even out long and short games


def play_ranges(games_fn: Callable, count: int, before: tuple, after: tuple,
                memory: Callable[[], tuple] = tuple) -> None:
    """``games_fn(*before, lo, hi, *after, *memory())`` over ranges covering ``0 .. count - 1``, on up
    to ``numba.get_num_threads()`` threads (one: a single call, no thread). ``memory`` gives each
    range its own working arrays. ``games_fn`` (a jitted function whose empty range plays nothing)
    is called through its compiled entry point (``entry_point``)."""
    threads = min(numba.get_num_threads(), count)
    if threads <= 1:
        games_fn(*before, 0, count, *after, *memory())
        return
    call = entry_point(games_fn, (*before, 0, 0, *after, *memory()))
    cuts = guided_cuts(count, threads)
    pool = range_pool(threads)
    for done in [pool.submit(call, *before, lo, hi, *after, *memory()) for lo, hi in zip(cuts, cuts[1:])]:
        done.result()


_POOLS: dict[tuple[int, int], ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def range_pool(threads: int) -> ThreadPoolExecutor:
    """The threads that play a batch's ranges, ``threads`` of them, started once per process and
    kept (starting two threads cost about a millisecond a batch, 1% of a Two Hundred batch of
    40,000 games). Batches submitted from several threads at once share them; each waits for its
    own ranges."""
    key = (os.getpid(), threads)  # (a forked process has none of its parent's threads)
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            pool = _POOLS[key] = ThreadPoolExecutor(threads, thread_name_prefix="simcards-range")
        return pool


def own_lines(n: int, dtype) -> np.ndarray:
    """``np.zeros(n, dtype)`` sharing no cache line with any other array: a range's working memory,
    written at every card, placed by the allocator beside the other thread's (two small arrays
    often are) slows both threads (false sharing: the line moves between the cores at every
    write). 128 bytes of padding on each side also keep the neighbouring line, which the
    processor fetches in pairs, to itself."""
    pad = 128 // np.dtype(dtype).itemsize
    return np.zeros(n + 2 * pad, dtype=dtype)[pad:pad + n]


def entry_point(fn: Callable, args: tuple) -> Callable:
    """The compiled code ``fn(*args)`` runs, as a callable that takes arguments of the same types
    (``fn`` itself when it is not a dispatcher). A dispatcher types every argument again at every
    call (tens of microseconds with a first-class function among them, and with the GIL held, so
    the other thread waits); the entry point only converts them. ``fn(*args)`` is called once,
    which compiles it if needed: ``args`` must ask for no work (an empty range)."""
    fn(*args)
    typeof, overloads = getattr(fn, "typeof_pyval", None), getattr(fn, "overloads", None)
    if typeof is None or overloads is None:
        return fn
    found = overloads.get(tuple(typeof(a) for a in args))
    return fn if found is None else found.entry_point


class FunctionAddress(WrapperAddressProtocol):
    """A compiled function as numba unboxes a first-class function argument fastest: its address,
    looked up once (a dispatcher is looked up again at every call: ``get_compile_result`` and a
    symbol search, about 30 us each). Holds the dispatcher, so its code lives as long."""

    def __init__(self, fn, ftype):
        self._fn = fn
        self._sig = ftype.signature
        self._addr = _get_wrapper_address(fn, self._sig)

    def __wrapper_address__(self):
        return self._addr

    def signature(self):
        return self._sig


_ADDRESSES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def address(fn, ftype) -> FunctionAddress:
    """``fn`` (a dispatcher compiled for ``ftype``'s signature) as a ``FunctionAddress``, made once
    per dispatcher and type."""
    per_fn = _ADDRESSES.setdefault(fn, {})
    if ftype not in per_fn:
        per_fn[ftype] = FunctionAddress(fn, ftype)
    return per_fn[ftype]


def guided_cuts(count: int, threads: int) -> list[int]:
    """Cuts of ``0 .. count`` into ranges that shrink as the batch runs out (each a share of what is
    left, ``left / (2 threads)``, but not under ``count / RANGES``): few calls, and a small last
    range, so no thread waits long for the other at the end."""
    smallest = max(1, -(-count // RANGES))
    cuts = [0]
    while cuts[-1] < count:
        left = count - cuts[-1]
        cuts.append(cuts[-1] + min(left, max(smallest, left // (2 * threads))))
    return cuts
