"""A Yaniv policy that misbehaves on purpose (tests/test_policy_safety.py): ``mode`` picks how.
0 plays legally (call when allowed, else option 0); 1 returns 10 on every discard; 2 returns -1 on
every draw; 3 returns n_opts on every discard; 4 raises ValueError on the first discard."""

from numba import njit

from simcards.games.yaniv.layout import K_CALL, K_DISCARD, K_DRAW
from simcards.strategy import register


@njit
def misbehave(kind, params, hand, n, opts, n_opts, view, rules, rng):
    mode = params[0]
    if kind == K_CALL:
        return 1
    if kind == K_DISCARD:
        if mode == 1:
            return 10
        if mode == 3:
            return n_opts
        if mode == 4:
            raise ValueError("boom in discard")
    if kind == K_DRAW and mode == 2:
        return -1
    return 0


register("yaniv", "misbehave", misbehave, params={"mode": 0})
