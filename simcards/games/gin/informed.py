"""The ``informed`` Gin heuristic's knock timing, draw rule and out statistics (search.py's
``informed_decide`` uses them; ``mc`` through it for the decisions it does not search).

Params after the knock family's and ``outs``/``safe``/``hint`` (search.P_*):

* knock (G-KNOCK-1): the ``knock`` family's threshold, lowered by ``fall`` per own turn from own
  turn ``late`` on (simple opponents get low late in a hand: the undercut risk grows) and by
  ``wary`` per card the opponent took from the pile and still holds (it melds them); at the full
  limit once the own score is within ``finish`` of the target (a won hand ends the game);
* draw (G-TURN-1, G-FIRST-1): also take the pile's top card when the informed score of the best
  discard after taking it beats the score of the 10 cards held by ``swap`` points or more;
* discard: ``reach`` credits the deadwood a random unseen card would meld with the kept cards
  (its expectation over the unseen cards, so a card with many outs that meld much counts most);
  ``fade`` > 0 scales the ``outs``/``reach`` credits by ``max(0, 1 - (own turn - 1) / fade)``:
  late in a hand few draws are left and the deadwood held is what counts.
"""

from __future__ import annotations

import numpy as np

from simcards.games.gin.jit import internal
from simcards.games.gin.layout import (
    K_LAST,
    V_LIMIT,
    V_MASK,
    V_MY_SCORE,
    V_MY_TURNS,
    V_OPP_TOOK,
    V_PILE,
    V_TAKE_MUST_KNOCK,
    V_TARGET,
)
from simcards.games.gin.melds import SCRATCH_SIZE, VALUES_MV, deadwood, low_card, popcount, removal_deadwoods
from simcards.games.gin.params import INFORMED, NEVER, slot
from simcards.games.gin.policies import P_TAKE, knock_threshold
from simcards.games.gin.rules import R_MV

P_OUTS, P_LATE, P_FALL, P_WARY, P_FINISH, P_SWAP, P_REACH, P_FADE = (
    slot(INFORMED, name) for name in ("outs", "late", "fall", "wary", "finish", "swap", "reach", "fade"))
N_INFORMED_PARAMS = len(INFORMED)
FULL = (np.int64(1) << 52) - 1


@internal
def informed_threshold(params, view):
    """The deadwood at or under which ``informed`` knocks this turn (see the module doc; never
    below 0: gin always goes out)."""
    if params[P_FINISH] > 0 and view[V_TARGET] - view[V_MY_SCORE] <= params[P_FINISH]:
        return float(view[V_LIMIT])
    thr = knock_threshold(params, view)
    turn = view[V_MY_TURNS] + 1
    if params[P_FALL] != 0 and turn >= params[P_LATE]:
        thr -= params[P_FALL] * (turn - params[P_LATE] + 1)
    if params[P_WARY] != 0:
        known = view[V_OPP_TOOK] & ~view[V_PILE] & ~view[V_MASK]
        thr -= params[P_WARY] * popcount(known)
    return max(thr, 0.0)  # gin always goes out


@internal
def out_stats(m10, dw, unseen, mv):
    """(live outs, melded points): unseen cards that would be melded if added to the 10 cards
    ``m10`` (deadwood ``dw``), and the sum over them of the deadwood they take away with them
    (their own value plus the held cards they meld with)."""
    count = 0
    pts = 0
    m = unseen
    while m != 0:
        u, m = low_card(m)
        gain = dw + VALUES_MV[mv, u] - deadwood(m10 | (np.int64(1) << u), mv)
        if gain > 0:
            count += 1
            pts += gain
    return count, pts


@internal
def out_credit(params, view, m10, dw, unseen, mv):
    """The discard score's credit for the outs of the kept 10 cards (``outs``, ``reach``, ``fade``)."""
    scale = 1.0
    if params[P_FADE] > 0:
        scale = max(0.0, 1.0 - view[V_MY_TURNS] / params[P_FADE])
    if scale == 0 or (params[P_OUTS] == 0 and params[P_REACH] == 0):
        return 0.0  # late in the hand the outs count for nothing: skip counting them
    n, pts = out_stats(m10, dw, unseen, mv)
    credit = params[P_OUTS] * n
    if params[P_REACH] != 0:
        credit += params[P_REACH] * pts / max(popcount(unseen), 1)
    return credit * scale


@internal
def swap_gain(params, view, card, unseen, rules):
    """How much the informed score (deadwood minus the outs credit) improves by taking ``card``
    and throwing the best other card, against keeping the 10 cards held."""
    mv = rules[R_MV]
    mask = view[V_MASK]
    dw10 = deadwood(mask, mv)
    now = dw10 - out_credit(params, view, mask, dw10, unseen, mv)
    m11 = mask | (np.int64(1) << card)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    removal_deadwoods(m11, scratch, mv)
    best = 1e18
    m = mask
    while m != 0:
        c, m = low_card(m)
        dw = scratch[c]
        cost = dw - out_credit(params, view, m11 & ~(np.int64(1) << c), dw, unseen, mv)
        if cost < best:
            best = cost
    return now - best


@internal
def informed_wants(kind, card, dw10, dw11, after, params, view, rules, unseen):
    """Take the pile's top ``card`` (K_UPCARD, K_DRAW, K_LAST): it melds, or it lets the player
    knock by informed's threshold, or it lowers the deadwood by ``take``, or (``swap``) it
    improves the informed score by ``swap`` points (not when taking it obliges a knock)."""
    if dw11 < dw10 + VALUES_MV[rules[R_MV], card]:
        return True
    if after <= informed_threshold(params, view):
        return True
    if params[P_TAKE] < NEVER and dw10 - after >= params[P_TAKE]:
        return True
    if params[P_SWAP] < NEVER and kind != K_LAST and view[V_TAKE_MUST_KNOCK] == 0:
        return swap_gain(params, view, card, unseen, rules) >= params[P_SWAP]
    return False

