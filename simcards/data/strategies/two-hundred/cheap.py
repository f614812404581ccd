"""An example user policy for Two Hundred, registered without touching the engine.

Use it, from the repository root, as
``simcards simulate two-hundred --strategy strategies/two-hundred/cheap.py:cheap`` (optionally
with parameters, ``...cheap.py:cheap:open=0``); or copy this file and name your copy.

A policy is one ``@njit`` function with the decision signature every game shares (README,
"Writing your own policy")::

    decide(kind, params, hand, n, opts, n_opts, view, rules, rng) -> index of the chosen option

Here ``kind`` is ``K_BID`` (options: 0 = pass, then the legal bids low to high), ``K_TRUMP``
(suits 0..3, then 4 = no trump where allowed), ``K_PLAY`` (face ids of the legal cards),
``K_DISCARD`` or ``K_CALL`` (see ``simcards/games/two_hundred/layout.py`` and
``docs/two-hundred.md``); ``hand`` is the decider's cards as a mask (bit ``LANE * suit + order``)
and ``n`` how many there are; ``params`` its parameter row; ``view`` the public view
(``layout.V_*``).
"""

from numba import njit

from simcards.games.two_hundred.layout import BIT_OF_FACE, K_BID, K_PLAY, K_TRUMP, LANE, LANE_FULL, V_BID
from simcards.strategy import register


@njit
def cheap(kind, params, hand, n, opts, n_opts, view, rules, rng):
    if kind == K_BID:  # open at the lowest bid when nobody has bid and `open` says so; else pass
        return 1 if params[0] > 0 and n_opts > 1 and view[V_BID] == 0 else 0
    if kind == K_TRUMP:  # the longest suit in hand
        best, best_len = 0, -1
        for o in range(n_opts):
            suit = opts[o]
            length = 0
            if suit < 4:
                lane = (hand >> (LANE * suit)) & LANE_FULL
                while lane:
                    lane &= lane - 1
                    length += 1
            if length > best_len:
                best, best_len = o, length
        return best
    if kind == K_PLAY:  # the lowest card that may be played (lowest order within its suit)
        best, best_order = 0, LANE
        for o in range(n_opts):
            order = BIT_OF_FACE[opts[o]] % LANE
            if order < best_order:
                best, best_order = o, order
        return best
    return 0  # the kitty and the called card: the first option


register("two-hundred", "cheap", cheap, {"open": 1.0},
         description="example plug-in: opens at the minimum bid, names its longest suit, plays its lowest card")
