"""The ``camper``: a Gin player of the style the strongest published bots meet, written here from
its public description (../shared/STRATEGY.md; our own code). It plays for a low hand early and for
gin later, so it punishes opponents that knock at once with undercuts and gins.

* **Draw** (G-FIRST-1, G-TURN-1): take the upcard or the discard only when it goes into a meld
  (no best arrangement of the 11 cards leaves it unmatched) *and* the hand's deadwood after the
  best legal discard is lower than before; otherwise draw from the stock.
* **Discard**: the card whose cost is lowest, where cost = deadwood after discarding it
  − ``weight`` × ``decay`` ^ (own turn − 1) × the one-draw lookahead of the cards kept (the share
  of the unseen cards that would go into a meld with them) + ``danger`` × the cards the opponent is
  known to hold (taken from the pile, not thrown back) that the discard melds with (same rank, or
  same suit within two ranks). Ties: the higher rank, then the lower card id.
* **Knock** (G-KNOCK-1): only in its first ``window`` own turns of the hand (whenever the engine
  offers a knock there); afterwards only gin.
* **Lay out** (G-LAY-0): of the minimum-deadwood arrangements, the one that leaves the defender
  the fewest lay-off points expected (the exposed cards it is known to hold count in full, the
  others by the chance that an unseen card is in its hand).
* **Last chance** (G-WALL-2): take the card only under the draw rule and when it can knock with
  it. Mahjong gin's pickups (G-V-MJ) are not part of the style: it draws from the stock there.

It reads only what a strategy is promised (``policies``: the view, its own hand, the options, its
params and its own rng, which it does not use: it is deterministic). It imports the melds and layout
modules (the layer every Gin player shares) and the lay-out choice of ``policies`` (G-LAY-0).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcards.games.gin.jit import internal
from simcards.games.gin.layout import (
    K_ARRANGE,
    K_DISCARD,
    K_KNOCK,
    K_LAST,
    K_PICKUP,
    V_DW,
    V_LIMIT,
    V_MASK,
    V_MY_TURNS,
    V_OPP_TOOK,
    V_PILE,
    V_TABLE,
)
from simcards.games.gin.melds import CORNER, VALUES_MV, deadwood, low_card, popcount
from simcards.games.gin.policies import better, fewest_layoffs  # G-LAY-0 and the tie-break, shared with knock, mc
from simcards.games.gin.rules import R_MV
from simcards.strategy import Family, Param

SID_CAMPER = 5  # a kernel id of its own (policies: 0-4 are the built-ins; user policies start at 100)

PARAMS = (
    Param("window", 3, 0, 10, "knock only in the first `window` own turns of the hand; later only gin (0: gin only)",
          True),
    Param("weight", 18, 0, 100, "discard: credit (points) for the one-draw lookahead, the share of the unseen "
          "cards that would meld with the cards kept"),
    Param("decay", 0.9, 0, 1, "discard: the lookahead's credit is weight x decay^(own turn - 1)"),
    # danger 0.5: on seed 1 under eaai, 2 lost 4 points against informed (danger 0 and 0.5 equal); simple
    # takes too few cards for it to matter
    Param("danger", 0.5, 0, 20, "discard: penalty (points) per card the opponent is known to hold that the "
          "discard melds with"),
)
P_WINDOW, P_WEIGHT, P_DECAY, P_DANGER = range(len(PARAMS))
FULL = (np.int64(1) << 52) - 1


@njit(cache=True, inline="always")
def _bit(c):
    return np.int64(1) << c


@internal
def near_mask(card, corner):
    """The cards that meld directly with ``card``: the same rank, or the same suit within two ranks
    (round the corner when runs may turn it, G-V-TED)."""
    r = card % 13
    s = card // 13
    m = np.int64(0)
    for q in range(4):
        if q != s:
            m |= _bit(q * 13 + r)
    for d in (-2, -1, 1, 2):
        q = r + d
        if corner:
            q %= 13
        if 0 <= q < 13:
            m |= _bit(s * 13 + q)
    return m


@internal
def opponent_holds(view):
    """Cards the opponent took from the pile and has not thrown back (G-INFO-1)."""
    return view[V_OPP_TOOK] & ~view[V_PILE] & ~view[V_MASK]


@internal
def lookahead(kept, unseen, mv, corner):
    """The one-draw lookahead of the hand ``kept``: the share of the ``unseen`` cards that would go
    into a meld with it (drawn, the card is not left unmatched by the best arrangement)."""
    n_unseen = popcount(unseen)
    if n_unseen == 0:
        return 0.0
    base = deadwood(kept, mv)
    outs = 0
    m = unseen
    while m != 0:
        u, m = low_card(m)
        if near_mask(u, corner) & kept == 0:
            continue  # nothing kept is next to it: it cannot meld
        if deadwood(kept | _bit(u), mv) < base + VALUES_MV[mv, u]:
            outs += 1
    return outs / n_unseen


@internal
def discard_choice(params, opts, n_opts, view, rules):
    mv = rules[R_MV]
    corner = CORNER[mv] != 0
    mask = view[V_MASK]
    held = opponent_holds(view)
    unseen = FULL & ~mask & ~view[V_PILE] & ~held & ~view[V_TABLE]
    turn = view[V_MY_TURNS] + 1
    credit = params[P_WEIGHT] * params[P_DECAY] ** (turn - 1)
    best = 0
    best_cost = 1e18
    for a in range(n_opts):
        c = opts[a, 0]
        cost = float(opts[a, 1])
        if credit != 0:
            cost -= credit * lookahead(mask & ~_bit(c), unseen, mv, corner)
        if params[P_DANGER] != 0:
            cost += params[P_DANGER] * popcount(near_mask(c, corner) & held)
        if better(cost, c, best_cost, opts[best, 0]):  # (the first option always is: best_cost starts at 1e18)
            best = a
            best_cost = cost
    return best


@njit(cache=True)
def camper_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """The camper's decision (the policy signature of ``policies``)."""
    if kind == K_DISCARD:
        return discard_choice(params, opts, n_opts, view, rules)
    if kind == K_KNOCK:
        if opts[1, 1] == 0:  # gin: always
            return 1
        return 1 if view[V_MY_TURNS] + 1 <= params[P_WINDOW] else 0
    if kind == K_ARRANGE:
        return fewest_layoffs(opts, n_opts, view)
    if kind == K_PICKUP:
        return 0  # G-V-MJ: not part of the style; draw from the stock
    # K_UPCARD, K_DRAW, K_LAST: row 1 = [1, card, dw11, after]
    card, dw11, after = opts[1, 1], opts[1, 2], opts[1, 3]
    dw10 = view[V_DW]
    melds = dw11 < dw10 + VALUES_MV[rules[R_MV], card]
    if not (melds and after < dw10):
        return 0
    if kind == K_LAST and after > view[V_LIMIT]:  # G-WALL-2: taking it obliges a knock
        return 0
    return 1


FAMILY = Family(
    "camper", SID_CAMPER,
    "plays for gin after an early window: takes the upcard/discard only when it melds and lowers the deadwood; "
    "discards by deadwood - weight x decay^(own turn - 1) x the share of unseen cards that would meld with the "
    "cards kept + danger x the opponent's known cards it melds with; knocks only in its first `window` own turns, "
    "then goes for gin; lays out the arrangement leaving the fewest lay-offs",
    PARAMS,
    decide=camper_decide,
)
