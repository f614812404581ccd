"""Playing a batch of games on threads, the same way in every game.

A kernel compiles ``play_games(..., lo, hi, ...)``: games ``lo .. hi - 1`` of a batch, a plain
loop compiled with ``nogil=True``. ``play_ranges`` cuts the batch in ranges that shrink as it runs
out (``guided_cuts``) and plays them on ``numba.get_num_threads()`` Python threads. Not a
``prange``: a parallel kernel compiles the whole game twice more (its gufunc and its wrapper),
which was most of a cold compile. Game ``g`` draws only from its own streams and writes only its
own rows (``simcards.rng``), so the results do not depend on the threads or the cuts.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numba

RANGES = 64  # the smallest range is a batch's 1/RANGES: enough to even out long and short games


def play_ranges(games_fn: Callable, count: int, before: tuple, after: tuple) -> None:
    """``games_fn(*before, lo, hi, *after)`` over ranges covering ``0 .. count - 1``, on up to
    ``numba.get_num_threads()`` threads (one: a single call, no thread)."""
    threads = min(numba.get_num_threads(), count)
    if threads <= 1:
        games_fn(*before, 0, count, *after)
        return
    cuts = guided_cuts(count, threads)
    with ThreadPoolExecutor(threads) as pool:
        for done in [pool.submit(games_fn, *before, lo, hi, *after) for lo, hi in zip(cuts, cuts[1:])]:
            done.result()


def guided_cuts(count: int, threads: int) -> list[int]:
    """Cuts of ``0 .. count`` into ranges that shrink as the batch runs out (each a share of what is
    left, ``left / (2 threads)``, but not under ``count / RANGES``): few calls (each costs tens of
    microseconds), and a small last range, so no thread waits long for the other at the end."""
    smallest = max(1, -(-count // RANGES))
    cuts = [0]
    while cuts[-1] < count:
        left = count - cuts[-1]
        cuts.append(cuts[-1] + min(left, max(smallest, left // (2 * threads))))
    return cuts
