"""An example user policy for Gin: like `simple`, but never takes the upcard and only knocks at
deadwood <= `knock_at`. Use it, from the repository root, as
``simcards simulate gin --strategy strategies/gin/lowball.py:lowball`` (optionally with parameters,
``...lowball.py:lowball:knock_at=2``); or copy this file and name your copy.

A policy is a numba @njit function with the Gin policy signature (see
simcards/games/gin/policies.py) registered under a name with its parameters."""

from numba import njit

from simcards.games.gin.layout import K_KNOCK, K_UPCARD
from simcards.games.gin.policies import SIMPLE_PARAMS, knock_decide
from simcards.strategy import register


@njit(cache=True)
def lowball(kind, params, hand, n, opts, n_opts, view, rules, rng):
    if kind == K_UPCARD:
        return 0
    if kind == K_KNOCK:
        return 1 if opts[1, 1] <= params[0] else 0
    return knock_decide(kind, SIMPLE_PARAMS, hand, n, opts, n_opts, view, rules, rng)


register("gin", "lowball", lowball, {"knock_at": 4}, "never takes the upcard; knocks at <= knock_at")
