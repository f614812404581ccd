"""Yaniv policies that cannot be compiled for the decision signature (tests/test_policy_safety.py)."""

from numba import njit

from simcards.strategy import register


def plain(kind, params, hand, n, opts, n_opts, view, rules, rng):  # no @njit
    return 0


@njit
def two_args(kind, params):  # the wrong signature
    return 0


@njit
def floaty(kind, params, hand, n, opts, n_opts, view, rules, rng):  # returns a float
    return params[0] * 0.5


@njit
def untyped(kind, params, hand, n, opts, n_opts, view, rules, rng):  # does not type
    return hand.no_such_attribute


register("yaniv", "plain", plain)
register("yaniv", "two_args", two_args)
register("yaniv", "floaty", floaty)
register("yaniv", "untyped", untyped)
