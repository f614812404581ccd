"""A Two Hundred policy that misbehaves on purpose (tests/test_policy_safety.py): ``mode`` 0 plays
option 0 (legal), 1 returns 99 for every card played, 2 raises ValueError on the first card."""

from numba import njit

from simcards.games.two_hundred.layout import K_PLAY
from simcards.strategy import register


@njit
def misbehave(kind, params, hand, n, opts, n_opts, view, rules, rng):
    if kind == K_PLAY:
        if params[0] == 1:
            return 99
        if params[0] == 2:
            raise ValueError("boom in play")
    return 0


register("two-hundred", "misbehave", misbehave, params={"mode": 0})
