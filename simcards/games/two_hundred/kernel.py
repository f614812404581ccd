"""The Two Hundred numba kernel: deal, auction, kitty, trump, called partner, tricks, scoring,
the end of a game, a batch — for every table of two-hundred.md, from the encoded rules.

The engine is written once, as plain functions that call the globals ``decide`` and each other
by name (``auction``, ``play_tricks``, ``play_deal``, ``play_game``). The built-in engine binds
them to ``policies.builtin_decide`` at module level, so numba's on-disk cache works across
processes (closures over a dispatcher never hit the cache). ``make_engine(decide)`` rebuilds the
same code around a decision function that also knows user policies (``nbutil.rebind``). A
batch runs in parallel over chunks of games; game ``g`` draws only from its own streams (the
deal's, keyed by ``(seed, g)``, and one per seat for its strategy: ``simcards.rng``) and writes
only its own rows, so results do not depend on threads or batch size. A strategy is handed its
seat's stream, never the deal's.
Hands are lane masks (``layout``); nothing is allocated inside the deal loop.

A variant is a value of the encoded rules, never a copied branch: seats at the table, sides
(side of seat s = s % sides), dummy seats, kitty size, no trump, a called partner, and how a side
at the hole is treated are all read from ``rules``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit, prange

from simcards.games.transcript import log_event as _log
from simcards.games.two_hundred.layout import (  # the transcript events (layout.py declares them)
    BIT_OF_FACE,
    D_BID,
    D_BIDDER,
    D_CALLED,
    D_DEAL,
    D_DEALER,
    D_DSCORE,
    D_KITTY_POINTS,
    D_MADE,
    D_OUT,
    D_PARTNER,
    D_SCORE,
    D_TAKEN,
    D_TRUMP,
    DEAL_CAP,
    DECKS,
    EV_BID,
    EV_CALL,
    EV_DEAL,
    EV_DISCARD,
    EV_GAME,
    EV_HAND,
    EV_KITTY,
    EV_OUT,
    EV_PLAY,
    EV_REVEAL,
    EV_SCORE,
    EV_TRICK,
    EV_TRUMP,
    FACE_OF_BIT,
    G_BAD,
    G_CAPPED,
    G_DEALS,
    G_FAILED,
    G_FIRST_DEALER,
    G_HOLE,
    G_INVALID,
    G_MADE,
    G_NT_DEALS,
    G_OUT_DEAL,
    G_OUT_SIDE,
    G_SCORES,
    G_THROWINS,
    G_WINNER,
    K_BID,
    K_CALL,
    K_DISCARD,
    K_PLAY,
    K_TRUMP,
    LANE,
    LANE_COUNT,
    LANE_FULL,
    LANE_LOW,
    LANE_POINTS,
    LOG_WIDTH,
    MAX_DECK,
    MAX_OPTIONS,
    MAX_SEATS,
    NO_TRUMP,
    ORDER_POINTS,
    V_ACTIVE,
    V_BAD,
    V_BID,
    V_BIDDER,
    V_BIDS,
    V_CALLED,
    V_DEAL,
    V_DEALER,
    V_LEAD_SUIT,
    V_LEADER,
    V_N_ACTIVE,
    V_N_IN,
    V_OWN_SEEN,
    V_PARTNER,
    V_PASSED,
    V_PLAYED,
    V_SCORES,
    V_SEAT,
    V_SIDE,
    V_TAKEN,
    V_TRICK,
    V_TRICK_FACES,
    V_TRICK_POINTS,
    V_TRUMP,
    V_UP,
    V_VOIDS,
    V_WIN_FACE,
    V_WIN_SEAT,
    VIEW_SIZE,
)
from simcards.games.two_hundred.rules import (
    FAIL_POINTS_MINUS_BID,
    R_CALL,
    R_CUT_POINTS,
    R_DEALER_BIDS,
    R_DECK,
    R_DECK_MASK,
    R_DECK_ROW,
    R_DUMMIES,
    R_FAIL,
    R_HOLE,
    R_HOLE_LEAVES,
    R_KITTY,
    R_MAX_BID,
    R_MIN_BID,
    R_NO_TRUMP,
    R_PSL,
    R_REAL,
    R_SEATS,
    R_SIDES,
    R_STEP,
    R_TARGET,
)
from simcards.games.two_hundred.search import builtin_choose, builtin_decide, builtin_play  # every built-in family
from simcards.nbutil import borrow, drop_stale_cache, rebind
from simcards.rng import rand_below, seed_streams, shuffle


def _anchor():
    """Only here to locate this package's numba cache."""


# numba invalidates a cached function only when its own file changes, not when a function or a
# constant it uses (policies.py, layout.py, rules.py, rng.py, nbutil.py, transcript.py) does: drop the engine's
# and the policies' cached functions when any of those files changes.
_HERE = Path(__file__).resolve().parent
_SOURCES = sorted(_HERE.glob("*.py")) + [_HERE.parent.parent / m
                                         for m in ("rng.py", "nbutil.py", "games/transcript.py")]
drop_stale_cache(_anchor, _SOURCES, tuple(p.stem for p in _SOURCES if p.parent == _HERE), "kernel")

# The decision kinds as plain int64 values: numba compiles a separate copy of a called function
# for every literal argument value, so passing the constants themselves would compile the
# decision functions once per kind.
KIND_BID, KIND_DISCARD, KIND_TRUMP, KIND_CALL, KIND_PLAY = (np.int64(k) for k in (K_BID, K_DISCARD, K_TRUMP, K_CALL, K_PLAY))

# Slots of the per-deal result array ``res``.
RS_BIDDER, RS_BID, RS_TRUMP, RS_KITTY_POINTS, RS_CALLED, RS_PARTNER, RS_BAD, RS_KITTY = range(8)
RS_SIZE = 8


@njit(cache=True, inline="always")
def beats(new, cur, trump):
    """T-PLAY-2: does card bit ``new`` beat the card bit ``cur`` currently winning the trick?
    A trump beats any non-trump; otherwise only a higher card of the same suit wins. Without
    trumps (``NO_TRUMP``, T-V-ROUGH) no suit matches, so only the suit led can win."""
    sn = new // LANE
    sc = cur // LANE
    if sn == sc:
        return new > cur
    return sn == trump


@njit(cache=True, inline="always")
def card_points(mask):
    """T-CARD-2: the card points of a mask of cards."""
    return (LANE_POINTS[mask & LANE_FULL] + LANE_POINTS[(mask >> LANE) & LANE_FULL]
            + LANE_POINTS[(mask >> (2 * LANE)) & LANE_FULL] + LANE_POINTS[(mask >> (3 * LANE)) & LANE_FULL])


@njit(cache=True, inline="always")
def n_cards(mask):
    return (LANE_COUNT[mask & LANE_FULL] + LANE_COUNT[(mask >> LANE) & LANE_FULL]
            + LANE_COUNT[(mask >> (2 * LANE)) & LANE_FULL] + LANE_COUNT[(mask >> (3 * LANE)) & LANE_FULL])


@njit(cache=True, inline="always")
def next_seat(seat, mask, n_seats):
    """The first seat of ``mask`` clockwise after ``seat`` (-1 if ``mask`` is empty)."""
    s = seat
    for _ in range(n_seats):
        s += 1
        if s == n_seats:
            s = 0
        if (mask >> s) & 1:
            return s
    return -1


@njit(cache=True)
def set_next(nxt, mask, n_seats):
    """``nxt[s]``: the first seat of ``mask`` clockwise after seat ``s`` (the engine's turn order,
    computed when the seats in play change rather than at every card)."""
    for s in range(n_seats):
        nxt[s] = next_seat(s, mask, n_seats)


@njit(cache=True, inline="always")
def deal_scores(taken, n_sides, cs, ps, bid, kitty_points, doubled, rules, ds):
    """T-SC-1/2 with the variants' scoring: each side's deal score into ``ds[:n_sides]`` from the
    card points ``taken`` per side in tricks; returns whether the contract was made.

    ``cs`` is the contract side; ``ps`` the secret partner's side (T-V-5P) or -1: the contract
    counts the points both took and each of them scores it. A failed contract scores minus the bid
    (``fail_score``: points minus the bid; ``cutthroat_fail=points``: minus the points); the
    partner then scores the same (``partner_shares_loss``) or its own points. Every other side
    scores its own points, the defending team also the kitty's (T-V-KITTY). A no-trump deal doubles
    every deal score, judged made or failed on the undoubled points (T-V-ROUGH)."""
    contract = taken[cs] + (taken[ps] if ps >= 0 else 0)
    made = contract >= bid
    if made:
        c = contract
    elif rules[R_CUT_POINTS] == 1:
        c = -contract
    elif rules[R_FAIL] == FAIL_POINTS_MINUS_BID:
        c = contract - bid
    else:
        c = -bid
    for s in range(n_sides):
        ds[s] = taken[s]
        if s != cs and kitty_points:  # the kitty needs two teams (validated): one defending side
            ds[s] += kitty_points
    ds[cs] = c
    if ps >= 0:
        ds[ps] = c if (made or rules[R_PSL] == 1) else taken[ps]
    if doubled:
        for s in range(n_sides):
            ds[s] *= 2
    return made


@njit(cache=True, inline="always")
def best_side(mask, scores, dealer, n_seats, n_sides):
    """The side of ``mask`` with the highest score; ties go to the side seated first clockwise
    from the dealer's left (T-V-5P / T-V-6P Decisions)."""
    best = -1
    s = dealer
    for _ in range(n_seats):
        s = s + 1 if s + 1 < n_seats else 0
        side = s % n_sides
        if (mask >> side) & 1 and (best < 0 or scores[side] > scores[best]):
            best = side
    return best


@njit(cache=True, inline="always")
def game_end(scores, side_mask, cs, ps, dealer, rules):
    """The end of a game after a played deal: (winner or -1, sides still playing, won by the hole).

    (1) Sides at the target: the contract side wins if among them, else the secret partner
    (T-V-5P), else the highest score (T-END-1; T-V-5P/CUT and T-V-6P Decisions). (2) Otherwise
    sides at the hole: in team play they leave, and the game is won when one side is left
    (T-END-2; T-V-6P: the other teams play on); in individual play the highest score wins."""
    n_sides = rules[R_SIDES]
    n_seats = rules[R_SEATS]
    up = 0
    down = 0
    for s in range(n_sides):
        if (side_mask >> s) & 1:
            if scores[s] >= rules[R_TARGET]:
                up |= 1 << s
            elif scores[s] <= rules[R_HOLE]:
                down |= 1 << s
    if up:
        if (up >> cs) & 1:
            return cs, side_mask, 0
        if ps >= 0 and (up >> ps) & 1:
            return ps, side_mask, 0
        return best_side(up, scores, dealer, n_seats, n_sides), side_mask, 0
    if down == 0:
        return -1, side_mask, 0
    if rules[R_HOLE_LEAVES] == 0:
        return best_side(side_mask, scores, dealer, n_seats, n_sides), side_mask, 1
    left = side_mask & ~down
    if left == 0:  # cannot happen: only the contract side loses points in a deal
        return best_side(side_mask, scores, dealer, n_seats, n_sides), side_mask, 1
    if left & (left - 1) == 0:
        return best_side(left, scores, dealer, n_seats, n_sides), left, 1
    return -1, left, 0


@njit(cache=True, inline="always")
def legal_options(hand, lead, opts):
    """T-PLAY-1: the faces of the legal cards (suit led if held, else any card), by suit then
    rank low to high; returns their count. ``lead`` -1: every card of ``hand``."""
    legal = hand
    if lead >= 0:
        ll = (hand >> (LANE * lead)) & LANE_FULL
        if ll:
            legal = ll << (LANE * lead)
    n = 0
    for s in range(4):
        lane = (legal >> (LANE * s)) & LANE_FULL
        while lane:
            opts[n] = FACE_OF_BIT[LANE * s + LANE_LOW[lane]]
            lane &= lane - 1
            n += 1
    return n


@njit(cache=True, inline="always")
def own_seen(seat, rules, hands, view, buried):
    """What only ``seat``'s decider sees besides the cards it plays from (``V_OWN_SEEN``): its
    buried kitty once it is the contractor; in T-V-2P its dummy's face-up cards, or, when it plays
    for its dummy, its own hand (a dummy is played by the seat opposite)."""
    v = np.int64(0)
    dummies = rules[R_DUMMIES]
    if dummies:
        partner = (seat + 2) % 4
        v = hands[partner] if (dummies >> seat) & 1 else view[V_UP + partner]
    if seat == view[V_BIDDER] and view[V_TRUMP] >= 0:
        v |= buried
    return v


@njit(cache=True, inline="always")
def deal_cards(rules, deck, dealer, active, nxt, hands, piles, pile_n, view):
    """T-DEAL-1: shuffled cards go one at a time clockwise from the dealer's left. With a kitty
    (T-V-KITTY, T-V-ROUGH): 3 to each, 2 to the kitty, 3 to each, 2 to the kitty, the rest to
    each. A T-V-2P dummy's cards, in the order dealt, make piles of 3 (cards 1-3, 4-6, 7-9), the
    last of each face up; ``hands`` then holds only a dummy's face-up cards. Returns the kitty mask."""
    n_seats = rules[R_SEATS]
    n_deck = rules[R_DECK]
    dummies = rules[R_DUMMIES]
    n_kitty = rules[R_KITTY]
    for s in range(MAX_SEATS):
        hands[s] = 0
    kitty = np.int64(0)
    s = dealer
    if dummies:  # one card at a time; a dummy's j-th card goes to pile j // 3 (counted in pile_n for now)
        for i in range(MAX_SEATS * 3):
            pile_n[i] = 0
        for k in range(n_deck):
            s = nxt[s]
            hands[s] |= np.int64(1) << BIT_OF_FACE[deck[k]]
            if (dummies >> s) & 1:
                piles[s * 9 + pile_n[s * 3]] = deck[k]
                pile_n[s * 3] += 1
        for d in range(n_seats):
            if (dummies >> d) & 1:  # in play a dummy "holds" its face-up cards; the piles keep the rest
                hands[d] = 0
                for p in range(3):
                    pile_n[d * 3 + p] = 3
                    hands[d] |= np.int64(1) << BIT_OF_FACE[piles[d * 9 + 3 * p + 2]]
                view[V_UP + d] = hands[d]
    elif n_kitty == 0:  # one card at a time
        for k in range(n_deck):
            s = nxt[s]
            hands[s] |= np.int64(1) << BIT_OF_FACE[deck[k]]
    else:  # packets of 3, 3 and the rest, 2 cards to the kitty after each of the first two rounds
        each = (n_deck - n_kitty) // n_cards(active)
        pos = 0
        for r in range(3):
            size = 3 if r < 2 else each - 6
            for _ in range(n_cards(active)):
                s = nxt[s]
                for _c in range(size):
                    hands[s] |= np.int64(1) << BIT_OF_FACE[deck[pos]]
                    pos += 1
            if r < 2:
                kitty |= (np.int64(1) << BIT_OF_FACE[deck[pos]]) | (np.int64(1) << BIT_OF_FACE[deck[pos + 1]])
                pos += 2
    return kitty


@njit(cache=True, inline="always")
def pile_cards(piles, seat):
    """T-V-2P: the mask of a dummy's nine cards as dealt (face up and face down)."""
    m = np.int64(0)
    for j in range(9):
        m |= np.int64(1) << BIT_OF_FACE[piles[seat * 9 + j]]
    return m


@njit(cache=True)
def turn_up(seat, face, hands, piles, pile_n, view):
    """T-V-2P: a dummy played its face-up ``face`` (already taken from ``hands``): the next card
    of that pile is turned up. Returns (pile, face turned up or -1). (Not inlined: it keeps the
    trick loop of the other tables small.)"""
    for p in range(3):
        n = pile_n[seat * 3 + p]
        if n > 0 and piles[seat * 9 + 3 * p + n - 1] == face:
            pile_n[seat * 3 + p] = n - 1
            nf = -1
            if n > 1:
                nf = piles[seat * 9 + 3 * p + n - 2]
                hands[seat] |= np.int64(1) << BIT_OF_FACE[nf]
            view[V_UP + seat] = hands[seat]
            return p, nf
    return -1, -1


# ----- the engine, written once ---------------------------------------------------------------
def _auction(deal, dealer, rules, sids, params, rng, nxt_bid, hands, opts, view, res, log, n_log):
    """T-BID-1..5: clockwise from the dealer's left among the bidding seats (T-V-2P: the two real
    players); a pass is final; a bid followed by everyone else passing ends it. With
    ``dealer_bids_after_passes`` off, a dealer whom all others passed may only pass (T-V-ROUGH)."""
    bidders = view[V_ACTIVE] & ~rules[R_DUMMIES]
    n_bidders = n_cards(bidders)
    min_bid = rules[R_MIN_BID]
    step = rules[R_STEP]
    max_bid = rules[R_MAX_BID]
    dealer_barred = rules[R_DEALER_BIDS] == 0
    dummies = rules[R_DUMMIES]
    high = 0
    bidder = -1
    passed = 0
    n_passed = 0
    seat = nxt_bid[dealer]
    while True:
        if not (passed >> seat) & 1:
            opts[0] = 0
            n_opts = 1
            if not (dealer_barred and seat == dealer and n_passed == n_bidders - 1):
                b = min_bid if high == 0 else high + step
                while b <= max_bid:
                    opts[n_opts] = b
                    n_opts += 1
                    b += step
            view[V_SEAT] = seat
            if dummies:
                view[V_OWN_SEEN] = own_seen(seat, rules, hands, view, 0)
            c = decide(KIND_BID, sids[seat], params, hands[seat], opts, n_opts, view, rules, rng[1 + seat:2 + seat])
            v = opts[c]
            n_log = _log(log, n_log, EV_BID, deal, seat, v, 0)
            if v == 0:
                passed |= 1 << seat
                n_passed += 1
                view[V_PASSED] = passed
            else:
                high = v
                bidder = seat
                view[V_BID] = v
                view[V_BIDDER] = seat
                view[V_BIDS + seat] = v
            if n_passed == n_bidders or (n_passed == n_bidders - 1 and bidder >= 0):
                break
        seat = nxt_bid[seat]
    res[RS_BIDDER] = bidder
    res[RS_BID] = high
    return n_log


def _contract(deal, rules, sids, params, rng, hands, opts, view, res, kitty, log, n_log):
    """After the auction: the bidder takes the kitty and buries four cards (T-V-KITTY, T-V-ROUGH),
    names trump or, where allowed, no trump (T-TRUMP-1, T-V-ROUGH), and calls a partner's card
    (T-V-5P, after trump). Fills ``res``; returns the log length."""
    bidder = res[RS_BIDDER]
    buried = np.int64(0)
    if rules[R_KITTY] > 0:
        hands[bidder] |= kitty
        n_log = _log(log, n_log, EV_KITTY, deal, bidder, kitty, 0)
        for _ in range(rules[R_KITTY]):
            n_opts = legal_options(hands[bidder], -1, opts)
            view[V_SEAT] = bidder
            view[V_OWN_SEEN] = buried
            c = decide_once(KIND_DISCARD, sids[bidder], params, hands[bidder], opts, np.int64(n_opts), view, rules,
                            rng[1 + bidder:2 + bidder])
            bit = np.int64(1) << BIT_OF_FACE[opts[c]]
            hands[bidder] &= ~bit
            buried |= bit
            n_log = _log(log, n_log, EV_DISCARD, deal, bidder, opts[c], 0)
    res[RS_KITTY] = buried
    n_trumps = 5 if rules[R_NO_TRUMP] == 1 else 4
    for s in range(n_trumps):
        opts[s] = s
    view[V_SEAT] = bidder
    if rules[R_DUMMIES] or buried:
        view[V_OWN_SEEN] = own_seen(bidder, rules, hands, view, 0) | buried
    c = decide_once(KIND_TRUMP, sids[bidder], params, hands[bidder], opts, np.int64(n_trumps), view, rules,
                    rng[1 + bidder:2 + bidder])
    trump = opts[c]
    view[V_TRUMP] = trump
    res[RS_TRUMP] = trump
    n_log = _log(log, n_log, EV_TRUMP, deal, bidder, trump, res[RS_BID])
    res[RS_CALLED] = -1
    res[RS_PARTNER] = -1
    if rules[R_CALL] == 1:
        n_opts = legal_options(rules[R_DECK_MASK] & ~hands[bidder], -1, opts)
        view[V_OWN_SEEN] = own_seen(bidder, rules, hands, view, buried)
        c = decide_once(KIND_CALL, sids[bidder], params, hands[bidder], opts, np.int64(n_opts), view, rules,
                        rng[1 + bidder:2 + bidder])
        called = opts[c]
        bit = np.int64(1) << BIT_OF_FACE[called]
        partner = -1
        for s in range(rules[R_SEATS]):
            if hands[s] & bit:
                partner = s
        res[RS_CALLED] = called
        res[RS_PARTNER] = partner
        view[V_CALLED] = called
        n_log = _log(log, n_log, EV_CALL, deal, bidder, called, partner)
    return n_log


def _play_tricks(deal, rules, sids, params, rng, nxt, hands, piles, pile_n, opts, view, res, log, n_log):
    """T-LEAD-1, T-PLAY-1..3: the bidder leads; every seat in play follows clockwise, following
    suit if it can (a T-V-2P dummy: if one of its face-up cards can); the highest trump, else the
    highest card of the suit led, wins (T-PLAY-2) and leads the next trick. Points go to the
    winner's side (T-SC-1) in ``view[V_TAKEN + side]``."""
    n_active = view[V_N_ACTIVE]
    dummies = rules[R_DUMMIES]
    trump = res[RS_TRUMP]
    buried = res[RS_KITTY]
    called = res[RS_CALLED]
    private = dummies != 0 or buried != 0  # is there anything for V_OWN_SEEN to show?
    n_tricks = (rules[R_DECK] - rules[R_KITTY]) // n_active
    leader = res[RS_BIDDER]
    played = np.int64(0)
    for trick in range(n_tricks):
        view[V_TRICK] = trick
        view[V_LEADER] = leader
        view[V_N_IN] = 0
        view[V_LEAD_SUIT] = -1
        view[V_WIN_SEAT] = -1
        view[V_WIN_FACE] = -1
        view[V_TRICK_POINTS] = 0
        for k in range(n_active):  # (the slots past the seats in play stay -1 from the deal's start)
            view[V_TRICK_FACES + k] = -1
        seat = leader
        lead = -1
        win = -1
        win_seat = -1
        points = 0
        for k in range(n_active):
            src = hands[seat]  # (a T-V-2P dummy's face-up cards)
            n_opts = legal_options(src, lead, opts)
            view[V_SEAT] = seat
            if private:
                view[V_OWN_SEEN] = own_seen(seat, rules, hands, view, buried)
            c = decide_play(KIND_PLAY, sids[seat], params, src, opts, n_opts, view, rules, rng[1 + seat:2 + seat])
            face = opts[c]
            b = BIT_OF_FACE[face]
            hands[seat] &= ~(np.int64(1) << b)
            played |= np.int64(1) << b
            if k == 0:
                lead = b // LANE
                win = b
                win_seat = seat
                view[V_LEAD_SUIT] = lead
            else:
                if b // LANE != lead:
                    view[V_VOIDS + seat] |= 1 << lead
                if beats(b, win, trump):
                    win = b
                    win_seat = seat
            if called >= 0 and face == called:  # T-V-5P: the secret partner is revealed by play
                view[V_PARTNER] = res[RS_PARTNER]
            points += ORDER_POINTS[b % LANE]
            n_log = _log(log, n_log, EV_PLAY, deal, seat, face, trick)
            if dummies != 0 and (dummies >> seat) & 1:
                pile, up = turn_up(seat, face, hands, piles, pile_n, view)
                if up >= 0:
                    n_log = _log(log, n_log, EV_REVEAL, deal, seat, up, pile)
            view[V_TRICK_FACES + k] = face
            view[V_N_IN] = k + 1
            view[V_WIN_SEAT] = win_seat
            view[V_WIN_FACE] = FACE_OF_BIT[win]
            view[V_TRICK_POINTS] = points
            view[V_PLAYED] = played
            seat = nxt[seat]
        view[V_TAKEN + view[V_SIDE + win_seat]] += points
        n_log = _log(log, n_log, EV_TRICK, deal, win_seat, points, trick)
        leader = win_seat
    return n_log


_W_DECK = 0
_W_HANDS = _W_DECK + MAX_DECK
_W_OPTS = _W_HANDS + MAX_SEATS
_W_VIEW = _W_OPTS + MAX_OPTIONS
_W_SCORES = _W_VIEW + VIEW_SIZE
_W_RES = _W_SCORES + MAX_SEATS
_W_PILES = _W_RES + RS_SIZE
_W_PILE_N = _W_PILES + MAX_SEATS * 9
_W_DS = _W_PILE_N + MAX_SEATS * 3
_W_TAKEN = _W_DS + MAX_SEATS
_W_NEXT = _W_TAKEN + MAX_SEATS
_W_NEXT_BID = _W_NEXT + MAX_SEATS
_WORK_SIZE = _W_NEXT_BID + MAX_SEATS


def _play_deal(deal, dealer, rules, sids, params, rng, nxt, nxt_bid, deck, hands, piles, pile_n, opts, view, scores,
               res, log, n_log):
    """One deal from the shuffle to the last trick. ``res`` receives the contract (bidder -1 when
    all passed), the kitty and the called card; the sides' trick points are in ``view[V_TAKEN:]``.
    Returns the log length."""
    n_deck = rules[R_DECK]
    for i in range(n_deck):
        deck[i] = DECKS[rules[R_DECK_ROW], i]
    shuffle(rng, deck, n_deck)
    active = view[V_ACTIVE]
    kitty = deal_cards(rules, deck, dealer, active, nxt, hands, piles, pile_n, view)
    for p in range(rules[R_SEATS]):
        if (active >> p) & 1:
            dealt = pile_cards(piles, p) if (rules[R_DUMMIES] >> p) & 1 else hands[p]
            n_log = _log(log, n_log, EV_HAND, deal, p, dealt, view[V_UP + p])
    view[V_DEALER] = dealer
    view[V_DEAL] = deal
    view[V_BID] = 0
    view[V_BIDDER] = -1
    view[V_PASSED] = 0
    view[V_TRUMP] = -1
    view[V_TRICK] = 0
    view[V_LEADER] = -1
    view[V_N_IN] = 0
    view[V_LEAD_SUIT] = -1
    view[V_WIN_SEAT] = -1
    view[V_WIN_FACE] = -1
    view[V_TRICK_POINTS] = 0
    view[V_PLAYED] = 0
    view[V_CALLED] = -1
    view[V_PARTNER] = -1
    view[V_OWN_SEEN] = 0
    for p in range(MAX_SEATS):
        view[V_TRICK_FACES + p] = -1
        view[V_BIDS + p] = 0
        view[V_VOIDS + p] = 0
        view[V_TAKEN + p] = 0
        view[V_SCORES + p] = scores[p]
    n_log = auction(deal, dealer, rules, sids, params, rng, nxt_bid, hands, opts, view, res, log, n_log)
    res[RS_TRUMP] = -1
    res[RS_KITTY_POINTS] = 0
    res[RS_CALLED] = -1
    res[RS_PARTNER] = -1
    res[RS_KITTY] = kitty
    if res[RS_BIDDER] < 0:  # T-BID-5: thrown in
        return n_log
    n_log = contract(deal, rules, sids, params, rng, hands, opts, view, res, kitty, log, n_log)
    n_log = play_tricks(deal, rules, sids, params, rng, nxt, hands, piles, pile_n, opts, view, res, log, n_log)
    res[RS_KITTY_POINTS] = card_points(res[RS_KITTY])
    return n_log


def _play_game(game, seed, rules, sids, params, out_game, deals_out, row_cap, log):
    """A whole game to one winning side (T-END-1/2 or the variant's rule). ``deals_out[:row_cap]``
    receives one row a deal; deals past ``row_cap`` are played but not written. Returns the log
    length."""
    # Working memory for the game, used through borrowed views (see ``borrow``): no reference
    # counting in the hot loop. The owners stay alive to the end (``keep`` below).
    work = np.zeros(_WORK_SIZE, dtype=np.int64)
    # The game's streams (simcards.rng.seed_streams): the deal's in rng[0], read by the shuffles and
    # the first dealer; seat s's strategy stream in rng[1 + s], the only one its decisions see.
    rng_owner = np.zeros(1 + MAX_SEATS, dtype=np.uint64)
    rng = borrow(rng_owner)
    seed_streams(rng, seed, game)
    w = borrow(work)
    deck = w[_W_DECK:_W_DECK + MAX_DECK]
    hands = w[_W_HANDS:_W_HANDS + MAX_SEATS]
    opts = w[_W_OPTS:_W_OPTS + MAX_OPTIONS]
    view = w[_W_VIEW:_W_VIEW + VIEW_SIZE]
    scores = w[_W_SCORES:_W_SCORES + MAX_SEATS]
    res = w[_W_RES:_W_RES + RS_SIZE]
    piles = w[_W_PILES:_W_PILES + MAX_SEATS * 9]
    pile_n = w[_W_PILE_N:_W_PILE_N + MAX_SEATS * 3]
    ds = w[_W_DS:_W_DS + MAX_SEATS]
    taken = w[_W_TAKEN:_W_TAKEN + MAX_SEATS]
    nxt = w[_W_NEXT:_W_NEXT + MAX_SEATS]
    nxt_bid = w[_W_NEXT_BID:_W_NEXT_BID + MAX_SEATS]
    rules = borrow(rules)
    sids = borrow(sids)
    params = borrow(params)
    out_game = borrow(out_game)
    deals_out = borrow(deals_out)
    log = borrow(log)
    n_seats = rules[R_SEATS]
    n_sides = rules[R_SIDES]
    active = (1 << n_seats) - 1
    side_mask = (1 << n_sides) - 1
    for s in range(MAX_SEATS):
        view[V_SIDE + s] = s % n_sides if s < n_seats else -1
    set_next(nxt, active, n_seats)
    set_next(nxt_bid, active & ~rules[R_DUMMIES], n_seats)
    dealer = rand_below(rng, rules[R_REAL])  # T-TEAM-2 Decision: a uniformly random first dealer
    first_dealer = dealer
    n_log = 0
    deal = 0
    winner = -1
    throwins = 0
    made_n = 0
    failed_n = 0
    nt_n = 0
    hole_win = 0
    capped = 0
    out_side = -1
    out_deal = 0
    while True:
        deal += 1
        view[V_ACTIVE] = active
        view[V_N_ACTIVE] = n_cards(active)
        n_log = play_deal(deal, dealer, rules, sids, params, rng, nxt, nxt_bid, deck, hands, piles, pile_n, opts,
                          view, scores, res, log, n_log)
        bidder = res[RS_BIDDER]
        made = -1
        cs = -1
        out_now = -1
        for s in range(n_sides):
            ds[s] = 0
            taken[s] = view[V_TAKEN + s] if bidder >= 0 else 0
        if bidder < 0:
            throwins += 1  # T-BID-5: nobody scores
        else:
            cs = bidder % n_sides
            ps = res[RS_PARTNER]
            ps = ps % n_sides if ps >= 0 else -1
            doubled = res[RS_TRUMP] == NO_TRUMP
            nt_n += doubled
            ok = deal_scores(taken, n_sides, cs, ps, res[RS_BID], res[RS_KITTY_POINTS], doubled, rules, ds)
            made = 1 if ok else 0
            if ok:
                made_n += 1
            else:
                failed_n += 1
            for s in range(n_sides):
                scores[s] += ds[s]
            winner, left, hole = game_end(scores, side_mask, cs, ps, dealer, rules)
            hole_win = hole
            if winner < 0 and left != side_mask:  # T-V-6P: teams at the hole leave; the others play on
                for s in range(n_sides):
                    if (side_mask >> s) & 1 and not (left >> s) & 1:
                        out_now = s
                        out_side = s
                        out_deal = deal
                        for p in range(n_seats):
                            if p % n_sides == s:
                                active &= ~(1 << p)
                side_mask = left
                set_next(nxt, active, n_seats)
                set_next(nxt_bid, active & ~rules[R_DUMMIES], n_seats)
        n_log = _log(log, n_log, EV_DEAL, deal, cs, made, res[RS_KITTY_POINTS])
        for s in range(n_sides):
            n_log = _log(log, n_log, EV_SCORE, deal, s, ds[s], scores[s])
        if out_now >= 0:
            n_log = _log(log, n_log, EV_OUT, deal, out_now, scores[out_now], 0)
        if deal <= row_cap:
            row = deals_out[deal - 1]
            row[D_DEAL] = deal
            row[D_DEALER] = dealer
            row[D_BIDDER] = bidder
            row[D_BID] = res[RS_BID] if bidder >= 0 else -1
            row[D_TRUMP] = res[RS_TRUMP]
            row[D_MADE] = made
            row[D_KITTY_POINTS] = res[RS_KITTY_POINTS]
            row[D_CALLED] = res[RS_CALLED]
            row[D_PARTNER] = res[RS_PARTNER]
            row[D_OUT] = out_now
            for s in range(n_sides):
                row[D_TAKEN + s] = taken[s]
                row[D_DSCORE + s] = ds[s]
                row[D_SCORE + s] = scores[s]
        if winner < 0 and deal >= DEAL_CAP:
            capped = 1
            winner = 0
            for s in range(n_sides):
                if (side_mask >> s) & 1 and (not (side_mask >> winner) & 1 or scores[s] > scores[winner]):
                    winner = s
        n_log = _log(log, n_log, EV_GAME, deal, winner, hole_win, capped)
        if winner >= 0:
            break
        dealer = nxt_bid[dealer]  # T-DEAL-1: the deal passes clockwise (to the next real player in play)
    out_game[G_WINNER] = winner
    out_game[G_DEALS] = deal
    out_game[G_THROWINS] = throwins
    out_game[G_FIRST_DEALER] = first_dealer
    out_game[G_MADE] = made_n
    out_game[G_FAILED] = failed_n
    out_game[G_CAPPED] = capped
    out_game[G_HOLE] = hole_win
    out_game[G_INVALID] = view[V_BAD]  # a user policy's bad option indices (simcards.policy)
    for j in range(5):
        out_game[G_BAD + j] = view[V_BAD + j]
    out_game[G_OUT_SIDE] = out_side
    out_game[G_OUT_DEAL] = out_deal
    out_game[G_NT_DEALS] = nt_n
    for s in range(MAX_SEATS):
        out_game[G_SCORES + s] = scores[s]
    keep = work[0] + np.int64(rng_owner[0] & np.uint64(1))  # the owners live until here
    return n_log + 0 * keep


def _play_batch(seed, first_game, count, rules, sids, params, out_games, out_deals, row_cap):
    """Games ``first_game .. first_game + count - 1``; row ``i`` of ``out_games`` is game
    ``first_game + i``; ``out_deals`` has ``row_cap`` rows per game (may be 0)."""
    n_chunks = min(count, 64)
    empty_log = np.zeros((0, LOG_WIDTH), dtype=np.int64)
    for c in prange(n_chunks):
        lo = c * count // n_chunks
        hi = (c + 1) * count // n_chunks
        for i in range(lo, hi):
            if row_cap > 0:
                rows = out_deals[i * row_cap:(i + 1) * row_cap]
            else:
                rows = out_deals[0:0]
            play_game(first_game + i, seed, rules, sids, params, out_games[i], rows, row_cap, empty_log)


# ----- binding ---------------------------------------------------------------------------------
# The built-in engine: module-level globals, so the compiled code is cached on disk.
decide = builtin_choose  # bids, kitty, trump, call: random inline, the heuristic a call
decide_play = builtin_play  # card play, inlined into the trick loop
decide_once = builtin_decide  # the kitty, trump and call, once a deal: a call (less code to compile)
auction = njit(cache=True, inline="always")(_auction)
contract = njit(cache=True, inline="always")(_contract)
play_tricks = njit(cache=True, inline="always")(_play_tricks)
play_deal = njit(cache=True, inline="always")(_play_deal)
play_game = njit(cache=True)(_play_game)
play_batch = njit(cache=True, parallel=True)(_play_batch)

# What reaches a decision function, rebuilt (in this order) around a user-policy dispatcher.
_ENGINE_FUNCTIONS = ("auction", "contract", "play_tricks", "play_deal", "play_game", "play_batch")


def make_engine(decide_fn=None, cache_key: str | None = None):
    """``(play_game, play_batch)`` around ``decide_fn(kind, sid, table, hand, opts, n_opts, view,
    rules, rng)``, where ``table`` is the (seats × 8) parameter table and the deciding seat is
    ``view[V_SEAT]`` (None: the built-in engine, cached on disk). The copy is rebuilt over this
    module's globals by ``nbutil.rebind`` and cached under ``cache_key``."""
    if decide_fn is None:
        return play_game, play_batch
    scope = rebind(globals(), _ENGINE_FUNCTIONS, cache_key, decide=decide_fn, decide_play=decide_fn,
                   decide_once=decide_fn)
    return scope["play_game"], scope["play_batch"]
