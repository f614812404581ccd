"""Playing a batch of games on threads, the same way in every game.

A kernel compiles ``play_games(..., lo, hi, ...)``: games ``lo .. hi - 1`` of a batch, a plain
loop compiled with ``nogil=True``. ``play_ranges`` cuts the batch in up to 64 ranges and plays
them on ``numba.get_num_threads()`` Python threads. Not a ``prange``: a parallel kernel compiles
the whole game twice more (its gufunc and its wrapper), which was most of a cold compile. Game
``g`` draws only from its own streams and writes only its own rows (``simcards.rng``), so the
results do not depend on the threads or the cuts.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numba

RANGES = 64  # at most this many ranges a batch: enough to even out long and short games


def play_ranges(games_fn: Callable, count: int, before: tuple, after: tuple) -> None:
    """``games_fn(*before, lo, hi, *after)`` over ranges covering ``0 .. count - 1``, on up to
    ``numba.get_num_threads()`` threads (one: a single call, no thread)."""
    threads = min(numba.get_num_threads(), count)
    if threads <= 1:
        games_fn(*before, 0, count, *after)
        return
    n = min(count, RANGES)
    cuts = [c * count // n for c in range(n + 1)]
    with ThreadPoolExecutor(threads) as pool:
        for done in [pool.submit(games_fn, *before, lo, hi, *after) for lo, hi in zip(cuts, cuts[1:])]:
            done.result()
