"""Built-in Two Hundred strategies, as jitted decision functions with one signature.

Every decision a player makes goes through::

    decide(kind, params, hand, opts, n_opts, view, rules, rng) -> option index

``kind`` is ``K_BID`` (options: ``0`` = pass, then the legal bids low to high), ``K_TRUMP``
(options: the suits 0..3, s h d c) or ``K_PLAY`` (options: the face ids of the legal cards, by
suit then rank low to high). ``hand`` is the player's own hand as a lane mask (``layout``),
``view`` the public view (``layout.V_*``), ``rules`` the encoded rules, ``rng`` the game's random
state. A strategy sees nothing else: no other hand, no deck order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcards.games.two_hundred.layout import (
    BIT_OF_FACE,
    DECK_MASK,
    FACE_OF_BIT,
    K_BID,
    K_TRUMP,
    LANE,
    LANE_COUNT,
    LANE_FULL,
    LANE_HIGH,
    LANE_LOW,
    ORDER_POINTS,
    V_BIDDER,
    V_LEAD_SUIT,
    V_N_IN,
    V_PLAYED,
    V_SEAT,
    V_TRICK_POINTS,
    V_TRUMP,
    V_WIN_FACE,
    V_WIN_SEAT,
)
from simcards.rng import rand_below

SID_RANDOM = 0
SID_HEURISTIC = 1

# heuristic family parameters (indices into the params vector)
P_AGGR, P_PARTNER, P_RAISE, P_RUFF_MIN, P_SMEAR, P_DRAW = range(6)

# Lane orders: 0=5 1=7 2=8 3=9 4=T 5=J 6=Q 7=K 8=A.
_A, _K, _Q, _J, _T, _5 = 8, 7, 6, 5, 4, 0


def _side_value(lane: int) -> float:
    """Points a non-trump suit is expected to bring the team: a side Ace wins its trick (its own
    10 and what falls on it); a King behind the Ace, a Ten guarded by the Ace, and so on."""
    has = [(lane >> o) & 1 for o in range(LANE)]
    n = sum(has)
    v = 0.0
    if has[_A]:
        v += 14.0
        if has[_K]:
            v += 6.0
        if has[_T]:
            v += 8.0
        if has[_5]:
            v += 2.0
    else:
        if has[_K] and n >= 2:
            v += 3.0
        if has[_T] and has[_K] and n >= 3:
            v += 4.0
    return v


def _trump_value(lane: int) -> float:
    """Points a trump suit is expected to bring: length wins tricks, top trumps win for sure."""
    has = [(lane >> o) & 1 for o in range(LANE)]
    n = sum(has)
    v = 7.0 * n
    v += 8.0 * has[_A] + 5.0 * has[_K] + 3.0 * has[_Q] + 1.0 * has[_J]
    v += 6.0 * has[_T] + 3.0 * has[_5]
    return v


SIDE_VALUE = np.array([_side_value(m) for m in range(1 << LANE)], dtype=np.float64)
TRUMP_VALUE = np.array([_trump_value(m) for m in range(1 << LANE)], dtype=np.float64)
SHORT_VALUE = np.array([6.0, 2.0] + [0.0] * 8, dtype=np.float64)  # void / singleton with 2+ trumps


@njit(cache=True)
def random_decide(kind, params, hand, opts, n_opts, view, rules, rng):
    """Uniform over the legal options of each decision (pass or a legal bid, a suit, a legal card)."""
    return rand_below(rng, n_opts)


@njit(cache=True)
def estimate(hand, trump, partner):
    """Points the team is expected to take with ``trump`` as trump: the trump suit's value,
    the side suits' values, short side suits when holding 2+ trumps, and ``partner`` for the
    partner's unseen hand."""
    lt = (hand >> (LANE * trump)) & LANE_FULL
    e = partner + TRUMP_VALUE[lt]
    nt = LANE_COUNT[lt]
    for s in range(4):
        if s != trump:
            ls = (hand >> (LANE * s)) & LANE_FULL
            e += SIDE_VALUE[ls]
            if nt >= 2:
                e += SHORT_VALUE[LANE_COUNT[ls]]
    return e


@njit(cache=True)
def best_trump(hand, partner):
    """The suit with the best estimate (lowest suit on ties) and that estimate."""
    best = 0
    best_e = -1.0
    for t in range(4):
        e = estimate(hand, t, partner)
        if e > best_e:
            best_e = e
            best = t
    return best, best_e


@njit(cache=True)
def _pick(mask, trump, smear):
    """The cheapest card of ``mask`` to give away (fewest points, not a trump, lowest), or with
    ``smear`` the card that gives the most points (non-trump, lowest rank first)."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        lane = (mask >> (LANE * s)) & LANE_FULL
        while lane:
            o = LANE_LOW[lane]
            lane &= lane - 1
            pts = ORDER_POINTS[o]
            if smear:
                key = (10 - pts) * 64 + (32 if s == trump else 0) + o
            else:
                key = pts * 64 + (32 if s == trump else 0) + o
            if key < best_key:
                best_key = key
                best = LANE * s + o
    return best


@njit(cache=True)
def _above(order):
    """Lane mask of the orders strictly above ``order``."""
    return LANE_FULL & ~((1 << (order + 1)) - 1)


@njit(cache=True, inline="always")
def _lead(table, row, hand, unseen, trump, contractor):
    tl = (hand >> (LANE * trump)) & LANE_FULL
    ut = (unseen >> (LANE * trump)) & LANE_FULL
    # Draw trumps with the boss trump while the opponents may still hold some.
    if table[row, P_DRAW] >= 0.5 and contractor and tl and ut and LANE_HIGH[tl] > LANE_HIGH[ut]:
        return LANE * trump + LANE_HIGH[tl]
    # Lead from strength: a side card no unseen card can beat, in the suit most others still hold.
    best = -1
    best_n = 0
    for s in range(4):
        if s == trump:
            continue
        ls = (hand >> (LANE * s)) & LANE_FULL
        if ls == 0:
            continue
        us = (unseen >> (LANE * s)) & LANE_FULL
        if LANE_HIGH[ls] > LANE_HIGH[us] and LANE_COUNT[us] > best_n:
            best_n = LANE_COUNT[us]
            best = LANE * s + LANE_HIGH[ls]
    if best >= 0:
        return best
    side = hand & ~(LANE_FULL << (LANE * trump))
    return _pick(side if side else hand, trump, False)


@njit(cache=True, inline="always")
def _follow(table, row, hand, unseen, trump, seat, view):
    lead = view[V_LEAD_SUIT]
    wb = BIT_OF_FACE[view[V_WIN_FACE]]
    ws = view[V_WIN_SEAT]
    last = view[V_N_IN] == 3
    ll = (hand >> (LANE * lead)) & LANE_FULL
    legal = (ll << (LANE * lead)) if ll else hand
    wsuit = wb // LANE
    word = wb % LANE
    if ws % 2 == seat % 2:
        # Partner is winning: put points on it when it cannot be taken away.
        safe = last
        if not safe:
            higher = (unseen >> (LANE * wsuit)) & _above(word)
            if higher == 0 and (wsuit == trump or ((unseen >> (LANE * trump)) & LANE_FULL) == 0):
                safe = True
        return _pick(legal, trump, safe and table[row, P_SMEAR] >= 0.5)
    if ll:
        if wsuit != lead:  # already trumped: follow cheaply
            return _pick(legal, trump, False)
        beat = ll & _above(word)
        if beat:
            if last:
                return LANE * lead + LANE_LOW[beat]
            us = (unseen >> (LANE * lead)) & LANE_FULL
            top = LANE_HIGH[us]
            boss = beat & _above(top) if top >= 0 else beat
            if boss:
                return LANE * lead + LANE_LOW[boss]
        return _pick(legal, trump, False)
    # Void in the suit led: ruff when the trick is worth it, with the lowest trump that wins.
    tl = (hand >> (LANE * trump)) & LANE_FULL
    if tl and view[V_TRICK_POINTS] >= table[row, P_RUFF_MIN]:
        beat = tl & _above(word) if wsuit == trump else tl
        if beat:
            return LANE * trump + LANE_LOW[beat]
    side = hand & ~(LANE_FULL << (LANE * trump))
    return _pick(side if side else hand, trump, False)


@njit(cache=True)
def heuristic_decide(kind, params, hand, opts, n_opts, view, rules, rng):
    """The ``heuristic`` family with the public policy signature (see ``_heuristic``)."""
    return _heuristic(kind, params.reshape((1, params.shape[0])), 0, hand, opts, n_opts, view)


@njit(cache=True, inline="always")
def _heuristic(kind, table, row, hand, opts, n_opts, view):
    """The ``heuristic`` family. Bidding: estimate the team's points in each trump suit and bid
    the minimum raise while it stays within estimate × ``aggr`` (not over the partner unless
    ``raise``). Trump: the suit with the best estimate. Play: lead boss cards (draw trumps first
    as contractor), win cheaply when last or with a boss card, smear points on a partner's safe
    trick, ruff only tricks worth ``ruff_min``, otherwise give the cheapest card."""
    if n_opts == 1:
        return 0
    if kind == K_BID:
        seat = view[V_SEAT]
        hb = view[V_BIDDER]
        if hb >= 0 and hb % 2 == seat % 2 and table[row, P_RAISE] < 0.5:
            return 0
        t, e = best_trump(hand, table[row, P_PARTNER])
        if opts[1] <= e * table[row, P_AGGR]:
            return 1
        return 0
    if kind == K_TRUMP:
        t, e = best_trump(hand, table[row, P_PARTNER])
        for i in range(n_opts):
            if opts[i] == t:
                return i
        return 0
    seat = view[V_SEAT]
    trump = view[V_TRUMP]
    unseen = DECK_MASK & ~view[V_PLAYED] & ~hand
    if view[V_N_IN] == 0:
        b = _lead(table, row, hand, unseen, trump, view[V_BIDDER] % 2 == seat % 2)
    else:
        b = _follow(table, row, hand, unseen, trump, seat, view)
    face = FACE_OF_BIT[b]
    # The options are the legal cards in lane-bit order, so the card's index is the number of
    # legal cards below it; checked, with a search as the fallback.
    lead = view[V_LEAD_SUIT]
    legal = hand
    if lead >= 0 and (hand >> (LANE * lead)) & LANE_FULL:
        legal = hand & (LANE_FULL << (LANE * lead))
    below = legal & ((np.int64(1) << b) - 1)
    i = (LANE_COUNT[below & LANE_FULL] + LANE_COUNT[(below >> LANE) & LANE_FULL]
         + LANE_COUNT[(below >> (2 * LANE)) & LANE_FULL] + LANE_COUNT[(below >> (3 * LANE)) & LANE_FULL])
    if i < n_opts and opts[i] == face:
        return i
    for i in range(n_opts):
        if opts[i] == face:
            return i
    return 0


@njit(cache=True, inline="always")
def builtin_decide(kind, sid, table, hand, opts, n_opts, view, rules, rng):
    """The engines' dispatcher: ``table`` holds every seat's parameters; the deciding seat is
    ``view[V_SEAT]``."""
    if sid == SID_RANDOM:
        return rand_below(rng, n_opts)
    return _heuristic(kind, table, view[V_SEAT], hand, opts, n_opts, view)
