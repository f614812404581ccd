"""An example user policy for Yaniv, registered without touching the engine.

Use it, from the repository root, as
``simcards simulate yaniv --strategy strategies/yaniv/greedy.py:greedy`` (optionally with
parameters, ``...greedy.py:greedy:take=3``), or through ``greedy.toml`` beside this file (the preset
``--strategy greedy``, found by name from any directory); or copy this file and name your copy.

A policy is one ``@njit`` function with the Yaniv decision signature (see
``simcards/games/yaniv/policies.py``)::

    decide(kind, params, hand, n, opts, n_opts, view, rules, rng) -> index of the chosen option

``kind`` says which decision: ``K_CALL`` (options 0 = play on, 1 = call), ``K_DISCARD`` (options are
the legal groups as laid, row ``[length, card, ...]``) or ``K_DRAW`` (rows ``[1, face]``, face -1 is
the stock); with the section-5 options also ``K_OVERCALL``, ``K_REQUEST``, ``K_GRANT``, ``K_SLAM``
and ``K_ONDER`` (see ``simcards/games/yaniv/layout.py`` and ``docs/yaniv.md``; option 0 always
means "no": no overcall, no request, refuse, no slam, reveal). ``hand[:n]`` is your sorted hand, ``view`` the public view (``layout.V_*``), ``rules``
the encoded rules (card values at ``R_VALUES + face``), ``rng`` your seat's own random stream (use
``simcards.rng.rand_below(rng, k)`` if you need randomness: it keeps games reproducible).
"""

from numba import njit

from simcards.games.yaniv.layout import K_CALL, K_DISCARD, K_OVERCALL
from simcards.games.yaniv.rules import R_VALUES
from simcards.strategy import register


@njit
def greedy(kind, params, hand, n, opts, n_opts, view, rules, rng):
    if kind == K_CALL:
        return 1  # call whenever the rules allow it
    if kind >= K_OVERCALL:
        return 0  # section-5 decisions: always "no"
    if kind == K_DISCARD:  # throw the group worth the most points
        best, best_points = 0, -1
        for a in range(n_opts):
            points = 0
            for j in range(opts[a, 0]):
                points += rules[R_VALUES + opts[a, 1 + j]]
            if points > best_points:
                best, best_points = a, points
        return best
    # draw: the lowest available card if it is worth at most `take`, else the stock
    best, best_value = -1, params[0] + 1
    stock = -1
    for o in range(n_opts):
        face = opts[o, 1]
        if face < 0:
            stock = o
        elif rules[R_VALUES + face] < best_value:
            best, best_value = o, rules[R_VALUES + face]
    if best >= 0 or stock < 0:
        return max(best, 0)
    return stock


register("yaniv", "greedy", greedy, params={"take": 2},
         description="example plug-in: calls whenever allowed, throws the most points, takes cards worth <= take")
