"""A Gin policy that misbehaves on purpose (tests/test_policy_safety.py): ``mode`` 0 plays option 0
(legal), 1 returns 99 on every discard, 2 raises ValueError on the first discard."""

from numba import njit

from simcards.games.gin.layout import K_DISCARD
from simcards.strategy import register


@njit
def misbehave(kind, params, hand, n, opts, n_opts, view, rules, rng):
    if kind == K_DISCARD:
        if params[0] == 1:
            return 99
        if params[0] == 2:
            raise ValueError("boom in discard")
    return 0


register("gin", "misbehave", misbehave, params={"mode": 0})
