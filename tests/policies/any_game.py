"""One user policy, one source, registered for every game (tests/test_engine_spine.py): the
decision signature is the same in all of them. ``mode`` 0 plays ``n % n_opts`` (a legal option
that depends on the hand size), 1 returns ``n_opts`` (out of range) every time, 2 returns
``n_opts`` only if the hand size ``n`` is not a sensible card count (1..64)."""

from numba import njit

from simcards.strategy import register


@njit
def any_game(kind, params, hand, n, opts, n_opts, view, rules, rng):
    if params[0] == 1:
        return n_opts
    if params[0] == 2:
        return n_opts if n < 1 or n > 64 else 0
    return n % n_opts


for _game in ("yaniv", "gin", "two-hundred"):
    register(_game, "any_game", any_game, {"mode": 0})
