"""Timing helpers the profile benchmarks share (``profile_yaniv.py``, ``profile_two_hundred.py``)."""

from __future__ import annotations

import time


def best_cpu(fn, args, repeats: int) -> float:
    """The least CPU seconds of ``repeats`` calls of ``fn(*args)``, after one untimed call (it
    compiles or loads the jitted code)."""
    fn(*args)
    best = 1e9
    for _ in range(repeats):
        c = time.process_time()
        fn(*args)
        best = min(best, time.process_time() - c)
    return best
