"""Two Hundred's option evaluator for ``simcards advise`` / ``analyze``: every legal card of one
card-play decision played on to the end of the deal in ``k`` determinized deals.

It reads only what the deciding seat may see and reuses the ``mc`` search player's machinery from
``search.py`` (``mc_play``'s steps, each deal's value kept instead of summed): the
hidden holders (``holders``: every other seat in play with the cards it still holds and the
suits it showed void in, then the kitty), the deal (``sampled_deal``), the card played and
the rollout to the last trick (``played_out``: mc's rollout policy, the heuristic's card play
unless mc's ``rollout`` param asks for the informed one) and the deal's
value (``deal_value`` without mc's ``win`` bonus: the side's deal score, T-SC-2 and the options,
minus the mean of the other sides' in play). Every option is played in the same deals.
``scores[s, a]`` keeps the deal's score of the deciding side and of the other side (two sides:
the game-win value table is read at them, ``simcards.table.value``).

Not evaluated (``False``): the auction, the trump and the bury (their values depend on a whole
deal's play from the start, which mc searches in a different way), and the tables the sampler
cannot rebuild (``search.searchable``: T-V-2P's face-down piles, T-V-5P's secret partner).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcards.games.two_hundred.core import deal_scores
from simcards.games.two_hundred.layout import (
    K_PLAY,
    MAX_SEATS,
    NO_TRUMP,
    V_BID,
    V_BIDDER,
    V_N_ACTIVE,
    V_OWN_SEEN,
    V_PLAYED,
    V_SEAT,
    V_SIDE,
    V_TAKEN,
    V_TRUMP,
)
from simcards.games.two_hundred.params import P_ROLLOUT
from simcards.games.two_hundred.rules import R_DECK, R_DECK_MASK, R_KITTY
from simcards.games.two_hundred.search import deal_value, holders, kitty_known, played_out, sampled_deal, searchable


@njit(cache=True)
def option_values(kind, params, hand, opts, n_opts, view, rules, k, rng, out, scores):
    """``out[s, a]``: card option ``a``'s deal value for the deciding side in sampled deal ``s``
    (module doc); ``scores[s, a, 0]``, ``scores[s, a, 1]``: the deal's score of the deciding side
    and of the other side (side ``1 - side``: two sides). False when the decision is not evaluated."""
    if kind != K_PLAY or not searchable(rules):
        return False
    table = params.reshape((1, params.shape[0]))
    seat = view[V_SEAT]
    n_tricks = (rules[R_DECK] - rules[R_KITTY]) // view[V_N_ACTIVE]
    unseen = rules[R_DECK_MASK] & ~view[V_PLAYED] & ~hand & ~view[V_OWN_SEEN]
    need = np.zeros(MAX_SEATS + 1, dtype=np.int64)
    voids = np.zeros(MAX_SEATS + 1, dtype=np.int64)
    seats = np.zeros(MAX_SEATS + 1, dtype=np.int64)
    held = np.zeros(MAX_SEATS + 1, dtype=np.int64)
    cards = np.zeros(64, dtype=np.int64)
    n_h = holders(view, rules, seat, n_tricks, unseen, need, voids, seats)
    if n_h < 0:
        return False
    kitty = kitty_known(view, rules, seat)
    informed = table[0, P_ROLLOUT] >= 0.5
    side = view[V_SIDE + seat]
    base = np.zeros(MAX_SEATS, dtype=np.int64)
    hands = np.zeros(MAX_SEATS, dtype=np.int64)
    rv = np.empty_like(view)
    ds = np.zeros(MAX_SEATS, dtype=np.int64)
    for s in range(k):
        kitty_points = sampled_deal(rng, unseen, need, voids, n_h, held, cards, seats, seat, hand, kitty, base)
        for i in range(n_opts):
            played_out(table, 0, base, hands, rv, view, rules, seat, opts[i], n_tricks, informed)
            out[s, i] = deal_value(rv, rules, side, kitty_points, 0.0)
            cs = rv[V_SIDE + rv[V_BIDDER]]
            deal_scores(rv[V_TAKEN:V_TAKEN + MAX_SEATS], MAX_SEATS, cs, -1, rv[V_BID], kitty_points,
                        rv[V_TRUMP] == NO_TRUMP, rules, ds)
            scores[s, i, 0] = ds[side]
            scores[s, i, 1] = ds[1 - side] if side <= 1 else 0
    return True
