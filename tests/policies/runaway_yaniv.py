"""A Yaniv policy that runs away on purpose (tests/test_runaway_policy.py): legal play (call when
allowed, else option 0), except that about one decision in ``every`` (drawn from the game's own
random stream, so always the same decisions for a seed) it misbehaves as ``mode`` says:
0 never; 1 prints ``spinning`` and loops for ever; 2 prints ``allocating`` and asks for more
memory than any machine has (numba raises MemoryError). Legal play is greedy's: call whenever
allowed, throw the group worth the most points, draw from the stock."""

import numpy as np
from numba import njit

from simcards.games.yaniv.layout import K_CALL, K_DISCARD, K_DRAW
from simcards.games.yaniv.rules import R_VALUES
from simcards.rng import rand_below
from simcards.strategy import register


@njit
def spin(kind, params, hand, n, opts, n_opts, view, rules, rng):
    mode = params[0]
    if mode != 0 and rand_below(rng, np.int64(params[1])) == 0:
        if mode == 1:
            print("spinning")
            k = np.int64(0)
            while k >= 0:  # never false: k wraps within 0 .. 2**40 - 1
                k = (k + 1) & ((np.int64(1) << 40) - 1)
        elif mode == 2:
            print("allocating")
            big = np.empty(np.int64(1) << 44, np.int64)  # 128 TiB: malloc fails at once
            return np.int64(big[0] != 0)
    if kind == K_CALL:
        return 1
    if kind == K_DISCARD:
        best, best_points = 0, -1
        for a in range(n_opts):
            points = 0
            for j in range(opts[a, 0]):
                points += rules[R_VALUES + opts[a, 1 + j]]
            if points > best_points:
                best, best_points = a, points
        return best
    if kind == K_DRAW:
        for o in range(n_opts):
            if opts[o, 1] < 0:
                return o
    return 0


register("yaniv", "spin", spin, params={"mode": 0, "every": 1_000_000})
