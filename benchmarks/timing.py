"""Timing helpers the profile benchmarks share (``profile_yaniv.py``, ``profile_two_hundred.py``)."""

from __future__ import annotations

import time


def best_cpu(fn, args, repeats: int) -> float:
    """The least CPU seconds of ``repeats`` calls of ``fn(*args)``, after one untimed call (it
    compiles or loads the jitted code)."""
    return best_cpu_and_result(fn, args, repeats)[0]


def best_cpu_and_result(fn, args, repeats: int):
    """``best_cpu`` and what the last call returned (e.g. a batch's games, to count its units)."""
    result = fn(*args)
    best = 1e9
    for _ in range(repeats):
        c = time.process_time()
        result = fn(*args)
        best = min(best, time.process_time() - c)
    return best, result
