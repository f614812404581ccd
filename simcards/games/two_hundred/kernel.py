"""The Two Hundred numba kernel: deal, auction, kitty, trump, called partner, tricks, scoring,
the end of a game, a batch — for every table of two-hundred.md, from the encoded rules.

The engine is written once, as plain functions that call each other by name (``auction``,
``play_tricks``, ``play_deal``, ``play_game``); a game's state travels as one record (``Table``).
Random and the heuristic (``policies.builtin_*``) are the kernel's own; every other strategy
(the attached families informed and mc, user policies) is asked of the engine's decision
function ``ext``, called through a function pointer (``DECIDE_FN``), so the kernel is compiled
once and cached on disk, a plain run compiles no search code, and an engine of search players or
policies compiles only its decision function (``make_engine``). The rule mechanics are
``core.py``'s. A batch runs ranges of games on threads; game ``g`` draws only from its own
streams (the deal's, keyed by ``(seed, g)``, and one per seat for its strategy: ``simcards.rng``)
and writes only its own rows, so results do not depend on threads or batch size. A strategy is
handed its seat's stream, never the deal's.
Hands are lane masks (``layout``); nothing is allocated inside the deal loop.

A variant is a value of the encoded rules, never a copied branch: seats at the table, sides
(side of seat s = s % sides), dummy seats, kitty size, no trump, a called partner, and how a side
at the hole is treated are all read from ``rules``.
"""

from __future__ import annotations

from collections import namedtuple
from pathlib import Path
from threading import Lock
from typing import Any

import numpy as np
from numba import njit, types

from simcards.games.batch import address, own_lines, play_ranges
from simcards.games.transcript import log_event as _log
from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.core import (  # the rule mechanics (core.py); tests import some from here
    beats,
    card_points,
    deal_cards,
    deal_scores,
    deal_singly,
    game_end,
    legal_options,
    n_cards,
    new_trick,
    own_seen,
    pile_cards,
    set_next,
    turn_up,
)
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
    LANE,
    LOG_WIDTH,
    MAX_DECK,
    MAX_OPTIONS,
    MAX_SEATS,
    NO_TRUMP,
    ORDER_POINTS,
)
from simcards.games.two_hundred.policies import (  # random and heuristic
    SEAT_ROWS,
    SID_HEURISTIC,
    bid_plan,
    builtin_bid,
    builtin_contract,
    builtin_decide,
    builtin_play,
    builtin_trump,
    defers,
    heuristic_tricks,
    seating,
)
from simcards.games.two_hundred.rules import (
    R_CALL,
    R_DEALER_BIDS,
    R_DECK,
    R_DECK_MASK,
    R_DECK_ROW,
    R_DUMMIES,
    R_KITTY,
    R_MAX_BID,
    R_MIN_BID,
    R_NO_TRUMP,
    R_REAL,
    R_SEATS,
    R_SIDES,
    R_STEP,
)
from simcards.nbutil import NO_ENTRY, compiled_as, drop_stale_cache, rebind
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
KIND_BID, KIND_DISCARD, KIND_TRUMP, KIND_CALL, KIND_PLAY = (np.int64(k) for k in (L.K_BID, L.K_DISCARD, L.K_TRUMP,
                                                                                 L.K_CALL, L.K_PLAY))

# Slots of the per-deal result array ``res``.
RS_BIDDER, RS_BID, RS_TRUMP, RS_KITTY_POINTS, RS_CALLED, RS_PARTNER, RS_BAD, RS_KITTY, RS_PLAN = range(9)
RS_SIZE = 9

# The variants of the deal (T-V-2P dummies, T-V-KITTY and T-V-ROUGH's kitty, no trump and barred
# dealer, T-V-5P's called partner) are compiled in where this is True. The game is also compiled
# once more with it False (``_plain``: numba prunes each ``if VARIANTS ...`` branch): a run under
# rules without them (``plain_rules``: standard, cutthroat, the six-player tables) compiles only that.
VARIANTS = True


# ----- the engine, written once ---------------------------------------------------------------
# A game's state travels as one record (``Table``): the rules and strategies, the streams, the
# working arrays (views of the working memory the caller hands in: ``with_memory``) and the transcript. ``shown`` is the view the
# strategies are shown (numba reserves the name ``view`` for the array method).
Table = namedtuple("Table", ("rules", "sids", "params", "rng", "nxt", "nxt_bid", "deck", "hands", "piles", "pile_n",
                             "opts", "shown", "scores", "res", "ds", "taken", "log", "ext"))


def _auction(st, deal, dealer, n_log):
    """T-BID-1..5: clockwise from the dealer's left among the bidding seats (T-V-2P: the two real
    players); a pass is final; a bid followed by everyone else passing ends it. With
    ``dealer_bids_after_passes`` off, a dealer whom all others passed may only pass (T-V-ROUGH)."""
    rules, view, opts, hands = st.rules, st.shown, st.opts, st.hands
    bidders = view[L.V_ACTIVE] & ~rules[R_DUMMIES]
    n_bidders = n_cards(bidders)
    step, min_bid, max_bid = rules[R_STEP], rules[R_MIN_BID], rules[R_MAX_BID]
    dealer_barred = VARIANTS and rules[R_DEALER_BIDS] == 0
    # Every bidder the heuristic: each bids the lowest legal bid up to its limit, and names the
    # suit it bid on as trump where it would (``bid_plan``: the same all through the auction, kept
    # in ``opts``; no option table is laid out), and the view is brought up to date only before a
    # strategy is asked and at the end (the view shares memory with the rest of the game's state:
    # a store into it makes the loop read every value again).
    heuristic = all_heuristic(st.sids, bidders)
    if heuristic:
        for s in range(rules[R_SEATS]):
            if (bidders >> s) & 1:
                opts[s], opts[MAX_SEATS + s] = bid_plan(st.params, s, hands[s], s, view, rules)
    high = 0
    bidder = -1
    passed = 0
    n_passed = 0
    seat = st.nxt_bid[dealer]
    while True:
        if not (passed >> seat) & 1:
            lowest = 0  # the lowest legal bid (0: only a pass)
            if not (dealer_barred and seat == dealer and n_passed == n_bidders - 1):
                b = min_bid if high == 0 else high + step
                lowest = b if b <= max_bid else 0
            if heuristic:
                v = lowest if lowest and lowest <= opts[seat] and not defers(st.params, seat, view, seat, bidder) else 0
            else:
                view[L.V_SEAT] = seat
                view[L.V_PASSED] = passed
                view[L.V_BID] = high
                view[L.V_BIDDER] = bidder
                if VARIANTS and rules[R_DUMMIES]:
                    view[L.V_OWN_SEEN] = own_seen(seat, rules, hands, view, 0)
                opts[0] = 0
                n_opts = 1
                b = lowest
                while b and b <= max_bid:
                    opts[n_opts] = b
                    n_opts += 1
                    b += step
                sid = st.sids[seat]
                rng = st.rng[1 + seat:2 + seat]
                if sid > SID_HEURISTIC:
                    c = st.ext(KIND_BID, sid, st.params, hands[seat], opts, n_opts, view, rules, rng)
                else:
                    c = builtin_bid(sid, st.params, hands[seat], opts, n_opts, view, rules, rng)
                v = opts[c]
            n_log = _log(st.log, n_log, EV_BID, deal, seat, v, 0)
            if v == 0:
                passed |= 1 << seat
                n_passed += 1
            else:
                high = v
                bidder = seat
                view[L.V_BIDS + seat] = v
            if n_passed == n_bidders or (n_passed == n_bidders - 1 and bidder >= 0):
                break
        seat = st.nxt_bid[seat]
    view[L.V_SEAT] = seat
    view[L.V_PASSED] = passed
    view[L.V_BID] = high
    view[L.V_BIDDER] = bidder
    st.res[RS_BIDDER] = bidder
    st.res[RS_BID] = high
    st.res[RS_PLAN] = opts[MAX_SEATS + bidder] if heuristic and bidder >= 0 else -1
    return n_log


def _bury(st, deal, bidder, kitty, n_log):
    """T-V-KITTY, T-V-ROUGH: the bidder takes the kitty and buries as many cards. Returns (the
    buried cards, the log length)."""
    hands, opts, view = st.hands, st.opts, st.shown
    buried = np.int64(0)
    hands[bidder] |= kitty
    n_log = _log(st.log, n_log, EV_KITTY, deal, bidder, kitty, 0)
    for _ in range(st.rules[R_KITTY]):
        n_opts = legal_options(hands[bidder], -1, opts)
        view[L.V_SEAT] = bidder
        view[L.V_OWN_SEEN] = buried
        c = decide_once(st.ext, KIND_DISCARD, st.sids[bidder], st.params, hands[bidder], opts,
                        np.int64(n_opts), view, st.rules, st.rng[1 + bidder:2 + bidder])
        bit = np.int64(1) << BIT_OF_FACE[opts[c]]
        hands[bidder] &= ~bit
        buried |= bit
        n_log = _log(st.log, n_log, EV_DISCARD, deal, bidder, opts[c], 0)
    return buried, n_log


def _call(st, deal, bidder, buried, n_log):
    """T-V-5P: after trump the bidder calls a card it does not hold; its holder is the secret partner."""
    rules, hands, opts, view, res = st.rules, st.hands, st.opts, st.shown, st.res
    n_opts = legal_options(rules[R_DECK_MASK] & ~hands[bidder], -1, opts)
    view[L.V_OWN_SEEN] = own_seen(bidder, rules, hands, view, buried)
    c = decide_once(st.ext, KIND_CALL, st.sids[bidder], st.params, hands[bidder], opts, np.int64(n_opts),
                    view, rules, st.rng[1 + bidder:2 + bidder])
    called = opts[c]
    bit = np.int64(1) << BIT_OF_FACE[called]
    partner = -1
    for s in range(rules[R_SEATS]):
        if hands[s] & bit:
            partner = s
    res[RS_CALLED] = called
    res[RS_PARTNER] = partner
    view[L.V_CALLED] = called
    return _log(st.log, n_log, EV_CALL, deal, bidder, called, partner)


def _contract(st, deal, kitty, n_log):
    """After the auction: the bidder takes the kitty and buries four cards (T-V-KITTY, T-V-ROUGH),
    names trump or, where allowed, no trump (T-TRUMP-1, T-V-ROUGH), and calls a partner's card
    (T-V-5P, after trump). Fills ``res``; returns the log length."""
    rules, hands, opts, view, res = st.rules, st.hands, st.opts, st.shown, st.res
    bidder = res[RS_BIDDER]
    buried = np.int64(0)
    if VARIANTS and rules[R_KITTY] > 0:
        buried, n_log = bury(st, deal, bidder, kitty, n_log)
    res[RS_KITTY] = buried
    n_trumps = 5 if VARIANTS and rules[R_NO_TRUMP] == 1 else 4
    for s in range(n_trumps):
        opts[s] = s
    view[L.V_SEAT] = bidder
    if VARIANTS and (rules[R_DUMMIES] or buried):
        view[L.V_OWN_SEEN] = own_seen(bidder, rules, hands, view, 0) | buried
    trump = res[RS_PLAN]  # the heuristic's, known from its bid (``policies.bid_plan``), else asked
    if trump < 0:
        trump = opts[decide_once(st.ext, KIND_TRUMP, st.sids[bidder], st.params, hands[bidder], opts,
                                 np.int64(n_trumps), view, rules, st.rng[1 + bidder:2 + bidder])]
    view[L.V_TRUMP] = trump
    res[RS_TRUMP] = trump
    n_log = _log(st.log, n_log, EV_TRUMP, deal, bidder, trump, res[RS_BID])
    res[RS_CALLED] = -1
    res[RS_PARTNER] = -1
    if VARIANTS and rules[R_CALL] == 1:
        n_log = call(st, deal, bidder, buried, n_log)
    return n_log


def _play_tricks(st, deal, leader, n_log):
    """T-LEAD-1, T-PLAY-1..3: ``leader`` (the bidder) leads; every seat in play follows clockwise, following
    suit if it can (a T-V-2P dummy: if one of its face-up cards can); the highest trump, else the
    highest card of the suit led, wins (T-PLAY-2) and leads the next trick. Points go to the
    winner's side (T-SC-1) in ``view[L.V_TAKEN + side]``."""
    rules, hands, opts, view, res, nxt = st.rules, st.hands, st.opts, st.shown, st.res, st.nxt
    n_active = view[L.V_N_ACTIVE]
    dummies = rules[R_DUMMIES]
    trump = res[RS_TRUMP]
    buried = res[RS_KITTY]
    called = res[RS_CALLED]
    private = VARIANTS and (dummies != 0 or buried != 0)  # is there anything for L.V_OWN_SEEN to show?
    if st.log.shape[0] == 0 and not private and called < 0 and all_heuristic(st.sids, view[L.V_ACTIVE]):
        heuristic_deal_tricks(st, leader)
        return n_log
    played = np.int64(0)
    for trick in range((rules[R_DECK] - rules[R_KITTY]) // n_active):
        new_trick(view, trick, leader, n_active)
        seat = leader
        lead = -1
        win = -1
        win_seat = -1
        points = 0
        for k in range(n_active):
            src = hands[seat]  # (a T-V-2P dummy's face-up cards)
            n_opts = legal_options(src, lead, opts)
            view[L.V_SEAT] = seat
            if private:
                view[L.V_OWN_SEEN] = own_seen(seat, rules, hands, view, buried)
            sid = st.sids[seat]
            rng = st.rng[1 + seat:2 + seat]
            if sid > SID_HEURISTIC:
                c = st.ext(KIND_PLAY, sid, st.params, src, opts, n_opts, view, rules, rng)
            else:
                c = builtin_play(KIND_PLAY, sid, st.params, src, opts, n_opts, view, rules, rng)
            face = opts[c]
            b = BIT_OF_FACE[face]
            hands[seat] &= ~(np.int64(1) << b)
            played |= np.int64(1) << b
            if k == 0:
                lead = b // LANE
                win = b
                win_seat = seat
                view[L.V_LEAD_SUIT] = lead
            else:
                if b // LANE != lead:
                    view[L.V_VOIDS + seat] |= 1 << lead
                if beats(b, win, trump):
                    win = b
                    win_seat = seat
            if VARIANTS and called >= 0 and face == called:  # T-V-5P: the secret partner is revealed by play
                view[L.V_PARTNER] = res[RS_PARTNER]
            points += ORDER_POINTS[b % LANE]
            n_log = _log(st.log, n_log, EV_PLAY, deal, seat, face, trick)
            if VARIANTS and dummies != 0 and (dummies >> seat) & 1:
                pile, up = turn_up(seat, face, hands, st.piles, st.pile_n, view)
                if up >= 0:
                    n_log = _log(st.log, n_log, EV_REVEAL, deal, seat, up, pile)
            view[L.V_TRICK_FACES + k] = face
            view[L.V_N_IN] = k + 1
            view[L.V_WIN_SEAT] = win_seat
            view[L.V_WIN_FACE] = FACE_OF_BIT[win]
            view[L.V_TRICK_POINTS] = points
            view[L.V_PLAYED] = played
            seat = nxt[seat]
        view[L.V_TAKEN + view[L.V_SIDE + win_seat]] += points
        n_log = _log(st.log, n_log, EV_TRICK, deal, win_seat, points, trick)
        leader = win_seat
    return n_log


def _all_heuristic(sids, active):
    """Is every seat in play the heuristic?"""
    for s in range(MAX_SEATS):
        if (active >> s) & 1 and sids[s] != SID_HEURISTIC:
            return False
    return True


def _heuristic_deal_tricks(st, leader):
    """``play_tricks`` when every seat in play is the heuristic, nothing is logged and nobody sees
    cards privately (no dummies, no buried kitty, no called partner): the tricks on locals
    (``policies.heuristic_tricks``, the same cards), only the sides' points written to the view."""
    view, rules, res = st.shown, st.rules, st.res
    nxt, sides = seating(view, rules)
    bidder = res[RS_BIDDER]
    n_active = view[L.V_N_ACTIVE]
    deal = (res[RS_TRUMP], bidder, view[L.V_SIDE + bidder], n_active, nxt, sides,
            (rules[R_DECK] - rules[R_KITTY]) // n_active)
    state = (leader, 0, 0, -1, -1, -1, 0, np.int64(0), leader)
    heuristic_tricks(st.params, SEAT_ROWS, st.hands, rules, deal, -1, state, view, L.V_TAKEN, view, False)


_W_DECK = 0
_W_HANDS = _W_DECK + MAX_DECK
_W_OPTS = _W_HANDS + MAX_SEATS
_W_VIEW = _W_OPTS + MAX_OPTIONS
_W_SCORES = _W_VIEW + L.VIEW_SIZE
_W_RES = _W_SCORES + MAX_SEATS
_W_PILES = _W_RES + RS_SIZE
_W_PILE_N = _W_PILES + MAX_SEATS * 9
_W_DS = _W_PILE_N + MAX_SEATS * 3
_W_TAKEN = _W_DS + MAX_SEATS
_W_NEXT = _W_TAKEN + MAX_SEATS
_W_NEXT_BID = _W_NEXT + MAX_SEATS
_WORK_SIZE = _W_NEXT_BID + MAX_SEATS


def _new_deal(view, deal, dealer, scores):
    """The view at the start of a deal (before the auction)."""
    view[L.V_DEALER] = dealer
    view[L.V_DEAL] = deal
    view[L.V_BID] = 0
    view[L.V_BIDDER] = -1
    view[L.V_PASSED] = 0
    view[L.V_TRUMP] = -1
    view[L.V_TRICK] = 0
    view[L.V_LEADER] = -1
    view[L.V_N_IN] = 0
    view[L.V_LEAD_SUIT] = -1
    view[L.V_WIN_SEAT] = -1
    view[L.V_WIN_FACE] = -1
    view[L.V_TRICK_POINTS] = 0
    view[L.V_PLAYED] = 0
    view[L.V_CALLED] = -1
    view[L.V_PARTNER] = -1
    view[L.V_OWN_SEEN] = 0
    for p in range(MAX_SEATS):
        view[L.V_TRICK_FACES + p] = -1
        view[L.V_BIDS + p] = 0
        view[L.V_VOIDS + p] = 0
        view[L.V_TAKEN + p] = 0
        view[L.V_SCORES + p] = scores[p]


def _play_deal(st, deal, dealer, n_log):
    """One deal from the shuffle to the last trick. ``res`` receives the contract (bidder -1 when
    all passed), the kitty and the called card; the sides' trick points are in
    ``view[L.V_TAKEN:]``. Returns the log length."""
    rules, deck, hands, view, res = st.rules, st.deck, st.hands, st.shown, st.res
    n_deck = rules[R_DECK]
    for i in range(n_deck):
        deck[i] = DECKS[rules[R_DECK_ROW], i]
    shuffle(st.rng, deck, n_deck)
    active = view[L.V_ACTIVE]
    if VARIANTS:
        kitty = deal_cards(rules, deck, dealer, active, st.nxt, hands, st.piles, st.pile_n, view)
    else:
        kitty = deal_singly(n_deck, deck, dealer, st.nxt, hands)
    for p in range(rules[R_SEATS]):
        if (active >> p) & 1:
            dealt = pile_cards(st.piles, p) if VARIANTS and (rules[R_DUMMIES] >> p) & 1 else hands[p]
            n_log = _log(st.log, n_log, EV_HAND, deal, p, dealt, view[L.V_UP + p])
    new_deal(view, deal, dealer, st.scores)
    n_log = auction(st, deal, dealer, n_log)
    res[RS_TRUMP] = -1
    res[RS_KITTY_POINTS] = 0
    res[RS_CALLED] = -1
    res[RS_PARTNER] = -1
    res[RS_KITTY] = kitty
    if res[RS_BIDDER] < 0:  # T-BID-5: thrown in
        return n_log
    n_log = contract(st, deal, kitty, n_log)
    n_log = play_tricks(st, deal, res[RS_BIDDER], n_log)
    res[RS_KITTY_POINTS] = card_points(res[RS_KITTY])
    return n_log


def _score_deal(st, out_game, side_mask, dealer):
    """T-SC-1..3 and the end of the game after a deal: each side's deal score into ``ds`` (the
    points taken into ``taken``), the totals, the game's counts in ``out_game``. Returns (winner
    or -1, the sides still playing, the contract side or -1, made 1/0 or -1 when thrown in)."""
    n_sides = st.rules[R_SIDES]
    res, ds, taken = st.res, st.ds, st.taken
    bidder = res[RS_BIDDER]
    for s in range(n_sides):
        ds[s] = 0
        taken[s] = st.shown[L.V_TAKEN + s] if bidder >= 0 else 0
    if bidder < 0:
        out_game[G_THROWINS] += 1  # T-BID-5: nobody scores
        return -1, side_mask, -1, -1
    cs = bidder % n_sides
    ps = res[RS_PARTNER]
    ps = ps % n_sides if ps >= 0 else -1
    doubled = res[RS_TRUMP] == NO_TRUMP
    out_game[G_NT_DEALS] += doubled
    ok = deal_scores(taken, n_sides, cs, ps, res[RS_BID], res[RS_KITTY_POINTS], doubled, st.rules, ds)
    if ok:
        out_game[G_MADE] += 1
    else:
        out_game[G_FAILED] += 1
    for s in range(n_sides):
        st.scores[s] += ds[s]
    winner, left, hole = game_end(st.scores, side_mask, cs, ps, dealer, st.rules)
    out_game[G_HOLE] = hole
    return winner, left, cs, 1 if ok else 0


def _leave(st, side_mask, left, active):
    """T-V-6P: the teams at the hole leave, the others play on. Returns (the side that left, the
    seats still in play)."""
    n_seats = st.rules[R_SEATS]
    out = -1
    for s in range(st.rules[R_SIDES]):
        if (side_mask >> s) & 1 and not (left >> s) & 1:
            out = s
            for p in range(n_seats):
                if p % st.rules[R_SIDES] == s:
                    active &= ~(1 << p)
    set_next(st.nxt, active, n_seats)
    set_next(st.nxt_bid, active & ~st.rules[R_DUMMIES], n_seats)
    return out, active


def _write_row(row, st, deal, dealer, made, out_now):
    """The deal's row of the per-deal table."""
    res = st.res
    bidder = res[RS_BIDDER]
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
    for s in range(st.rules[R_SIDES]):
        row[D_TAKEN + s] = st.taken[s]
        row[D_DSCORE + s] = st.ds[s]
        row[D_SCORE + s] = st.scores[s]


def _capped_winner(scores, side_mask, n_sides):
    """The deal cap: the highest score among the sides still playing wins (the first on a tie)."""
    winner = 0
    for s in range(n_sides):
        if (side_mask >> s) & 1 and (not (side_mask >> winner) & 1 or scores[s] > scores[winner]):
            winner = s
    return winner


def _table(work, rng, rules, sids, params, log, ext):
    """The game's record over views of its working memory."""
    w = work
    return Table(rules, sids, params, rng, w[_W_NEXT:_W_NEXT + MAX_SEATS],
                 w[_W_NEXT_BID:_W_NEXT_BID + MAX_SEATS], w[_W_DECK:_W_DECK + MAX_DECK],
                 w[_W_HANDS:_W_HANDS + MAX_SEATS], w[_W_PILES:_W_PILES + MAX_SEATS * 9],
                 w[_W_PILE_N:_W_PILE_N + MAX_SEATS * 3], w[_W_OPTS:_W_OPTS + MAX_OPTIONS],
                 w[_W_VIEW:_W_VIEW + L.VIEW_SIZE], w[_W_SCORES:_W_SCORES + MAX_SEATS], w[_W_RES:_W_RES + RS_SIZE],
                 w[_W_DS:_W_DS + MAX_SEATS], w[_W_TAKEN:_W_TAKEN + MAX_SEATS], log, ext)


def _finish(out_game, st, winner, deal):
    """The per-game row's last columns."""
    out_game[G_WINNER] = winner
    out_game[G_DEALS] = deal
    out_game[G_INVALID] = st.shown[L.V_BAD]  # a user policy's bad option indices (simcards.policy)
    for j in range(5):
        out_game[G_BAD + j] = st.shown[L.V_BAD + j]
    for s in range(MAX_SEATS):
        out_game[G_SCORES + s] = st.scores[s]


def _start_game(st, game, seed, out_game):
    """A game's start: its streams (``simcards.rng.seed_streams``: the deal's in ``rng[0]``, read by
    the shuffles and the first dealer; seat s's strategy stream in ``rng[1 + s]``, the only one its
    decisions see, left unkeyed for the heuristic, which never draws), the sides, the turn order,
    the per-game counts and a uniformly random first dealer (T-TEAM-2 Decision), which it returns.
    The working memory is zero."""
    n_seats = st.rules[R_SEATS]
    drawing = 0  # the seats whose strategy may draw: all but the heuristic's (deterministic)
    for s in range(n_seats):
        if st.sids[s] != SID_HEURISTIC:
            drawing |= 1 << s
    seed_streams(st.rng[:1 + n_seats], seed, game, drawing)  # the seats at the table only
    n_sides = st.rules[R_SIDES]
    active = (1 << n_seats) - 1
    for s in range(MAX_SEATS):
        st.shown[L.V_SIDE + s] = s % n_sides if s < n_seats else -1
    set_next(st.nxt, active, n_seats)
    set_next(st.nxt_bid, active & ~st.rules[R_DUMMIES], n_seats)
    for j in (G_THROWINS, G_MADE, G_FAILED, G_CAPPED, G_HOLE, G_OUT_DEAL, G_NT_DEALS):
        out_game[j] = 0
    out_game[G_OUT_SIDE] = -1
    dealer = rand_below(st.rng, st.rules[R_REAL])
    out_game[G_FIRST_DEALER] = dealer
    return dealer


def _play_games(run, lo, hi, rules, sids, params, out_games, out_deals, log, ext, work, streams):
    """Games ``first_game + lo .. first_game + hi - 1`` of the ``run`` (``[seed, first_game,
    row_cap]``: ``_run``), each to one winning side (T-END-1/2 or the variant's rule); column ``i``
    of ``out_games`` is game ``first_game + i`` (``GameRun.columns_first``), with ``row_cap`` rows
    of ``out_deals`` (may be 0): one row a deal, deals past ``row_cap`` played but not written.
    Returns the log length of the last game. Releases the GIL: ``play_batch`` runs ranges of games
    on threads. ``work`` and ``streams`` are its working memory (zero, ``with_memory``). One
    function, compiled once: a game called from here would be optimised and compiled to machine
    code again inside it."""
    seed, first_game, row_cap = run[0], run[1], run[2]
    st = table(work, streams, rules, sids, params, log, ext)
    games_out = out_games
    rows_out = out_deals
    n_sides = st.rules[R_SIDES]
    n_log = 0
    for i in range(lo, hi):
        for j in range(_WORK_SIZE):
            work[j] = 0
        out_game = games_out[:, i]
        deals_out = rows_out[i * row_cap:(i + 1) * row_cap]
        dealer = start_game(st, first_game + i, seed, out_game)
        active = (1 << st.rules[R_SEATS]) - 1
        side_mask = (1 << n_sides) - 1
        n_log = 0
        deal = 0
        while True:
            deal += 1
            st.shown[L.V_ACTIVE] = active
            st.shown[L.V_N_ACTIVE] = n_cards(active)
            n_log = play_deal(st, deal, dealer, n_log)
            winner, left, cs, made = score_deal(st, out_game, side_mask, dealer)
            out_now = -1
            if winner < 0 and left != side_mask:
                out_now, active = leave(st, side_mask, left, active)
                out_game[G_OUT_SIDE] = out_now
                out_game[G_OUT_DEAL] = deal
                side_mask = left
            n_log = _log(st.log, n_log, EV_DEAL, deal, cs, made, st.res[RS_KITTY_POINTS])
            for s in range(n_sides):
                n_log = _log(st.log, n_log, EV_SCORE, deal, s, st.ds[s], st.scores[s])
            if out_now >= 0:
                n_log = _log(st.log, n_log, EV_OUT, deal, out_now, st.scores[out_now], 0)
            if deal <= row_cap:
                write_row(deals_out[deal - 1], st, deal, dealer, made, out_now)
            if winner < 0 and deal >= DEAL_CAP:
                out_game[G_CAPPED] = 1
                winner = capped_winner(st.scores, side_mask, n_sides)
            n_log = _log(st.log, n_log, EV_GAME, deal, winner, out_game[G_HOLE], out_game[G_CAPPED])
            if winner >= 0:
                break
            dealer = st.nxt_bid[dealer]  # T-DEAL-1: the deal passes clockwise (to the next real player in play)
        finish(out_game, st, winner, deal)
    return n_log


# ----- binding ---------------------------------------------------------------------------------
# One engine for every run. Random and the heuristic are the kernel's own (``policies.builtin_*``);
# every other strategy id (the attached families informed and mc, user policies) is asked of
# ``ext``, the engine's decision function, called through a function pointer (a first-class
# function of type ``DECIDE_FN``, as Yaniv's rounds are): the kernel is compiled once and cached, a
# plain run compiles no search code, and an engine of search players or policies compiles only its
# decision function (``make_engine``), not the game around it.
#
# Each level is compiled once by numba, on its own: numba inlines a function by copying and
# re-processing its code at every level above it, and a called function's code is optimised and
# compiled to machine code again inside every caller. So the games of a range are one function
# (``play_games``: no game function under it), and the game calls ``builtin_contract`` for the
# built-ins' kitty, trump and call (once a deal); inside a game the deal, its steps and the
# decisions made most (bids, card play) are inlined where they are made: as calls, each handed the
# ``Table``, a deal played a third slower (the tricks alone as a call: 26%, or 5% without reference
# counting).
#
# The games allocate nothing (``with_memory`` hands them their working memory), so they and the
# helpers they call are compiled without reference counting (``_nrt=False``, which numba passes on
# to the functions they call unless those say otherwise): no reference counts in the hot loop and
# less code to compile.
_I64, _I64_1D, _I64_2D = types.int64, types.Array(types.int64, 1, "C"), types.Array(types.int64, 2, "C")
_F64_2D, _U64_1D = types.Array(types.float64, 2, "C"), types.Array(types.uint64, 1, "C")
_I32_2D = types.Array(types.int32, 2, "C")
DECIDE_FN = types.FunctionType(_I64(_I64, _I64, _F64_2D, _I64, _I64_1D, _I64, _I64_1D, _I64_1D, _U64_1D))
_GAMES_SIG = _I64(_I64_1D, _I64, _I64, _I64_1D, _I64_1D, _F64_2D, _I64_2D, _I32_2D, _I64_2D, DECIDE_FN,
                  _I64_1D, _U64_1D)


@njit(cache=True, inline="always")
def decide_once(ext, kind, sid, table, hand, opts, n_opts, view, rules, rng):
    """The kitty, trump and call, once a deal: a call (less code to compile); without the
    variants, only the trump is ever asked."""
    if sid > SID_HEURISTIC:
        return ext(kind, sid, table, hand, opts, n_opts, view, rules, rng)
    if VARIANTS:
        return builtin_contract(kind, sid, table, hand, opts, n_opts, view, rules, rng)
    return builtin_trump(sid, table, hand, opts, n_opts, view, rules, rng)


_INLINE = njit(cache=True, inline="always")
auction = _INLINE(_auction)
bury = _INLINE(_bury)
call = _INLINE(_call)
contract = _INLINE(_contract)
play_tricks = _INLINE(_play_tricks)
play_deal = _INLINE(_play_deal)
# Called from jitted code only (``nbutil.NO_ENTRY``): calling one of these from Python crashes.
_NO_NRT: dict[str, Any] = {"_nrt": False}  # (options numba's type stubs do not list)
_called = njit(**NO_ENTRY, **_NO_NRT)
start_game = _called(_start_game)
table = _INLINE(_table)
new_deal = _called(_new_deal)
score_deal = _called(_score_deal)
leave = _called(_leave)
write_row = _called(_write_row)
capped_winner = _called(_capped_winner)
finish = _called(_finish)
all_heuristic = _INLINE(_all_heuristic)
# the tricks inlined into the one function a deal calls for them (a called function would be
# compiled on its own and again inside its caller)
heuristic_deal_tricks = compiled_as(_heuristic_deal_tricks, "heuristic_deal_tricks", _called,
                                    heuristic_tricks=compiled_as(heuristic_tricks, "_heuristic_tricks", _INLINE))
_games: dict = {}  # play_games (True: the plain copy), compiled (or loaded) at its first use, not at import
_games_lock = Lock()


def plain_rules(rules) -> bool:
    """Whether the encoded ``rules`` use none of the variants ``VARIANTS`` gates."""
    return (rules[R_DUMMIES] == 0 and rules[R_KITTY] == 0 and rules[R_NO_TRUMP] == 0 and rules[R_CALL] == 0
            and rules[R_DEALER_BIDS] != 0)


def _compile_games(plain: bool):
    """``_play_games`` compiled for ``_GAMES_SIG`` (its ``ext`` a function pointer); ``plain``: the
    copy with ``VARIANTS`` False, over copies of the inlined steps that read it, each under a name
    of its own (numba caches a function under its file and qualified name)."""
    jit = njit(_GAMES_SIG, cache=True, nogil=True, **_NO_NRT)
    if not plain:
        return jit(_play_games)
    off = {"VARIANTS": False}
    once = compiled_as(decide_once, "_decide_once_plain", _INLINE, **off)
    steps = {name: compiled_as(globals()[name], f"_{name}_plain", _INLINE, **off, decide_once=once)
             for name in ("auction", "contract", "play_tricks")}
    deal = compiled_as(_play_deal, "_play_deal_plain", _INLINE, **off, **steps)
    return compiled_as(_play_games, "_play_games_plain", jit, **off, play_deal=deal)


def games_for(rules):
    """``play_games`` for these rules (without the variants' code when they play none), compiled
    on its first use: a signature given to ``njit`` compiles at once, and importing the kernel
    must not."""
    plain = plain_rules(rules)
    fn = _games.get(plain)
    if fn is None:
        with _games_lock:
            fn = _games.get(plain)
            if fn is None:
                fn = _games[plain] = _compile_games(plain)
    return fn


@njit(cache=True)
def no_decide(kind, sid, table, hand, opts, n_opts, view, rules, rng):
    """The ``ext`` of the built-in engine (random and the heuristic are the kernel's): never called."""
    return 0


@njit(cache=True)
def engine_decide(kind, sid, table, hand, opts, n_opts, view, rules, rng):
    """An engine's decision function, rebuilt by ``make_engine`` around its dispatcher as ``custom``."""
    return custom(kind, sid, table, hand, opts, n_opts, view, rules, rng)


custom = builtin_decide  # stands in for an engine's dispatcher (``make_engine``)


def _memory():
    """A range of games' working memory and streams, new at every call (a range on a thread), each
    on cache lines of its own (``batch.own_lines``: 2-3% of a 2-thread batch): the games allocate
    nothing, so they are compiled without reference counting (``_nrt=False``)."""
    return own_lines(_WORK_SIZE, np.int64), own_lines(1 + MAX_SEATS, np.uint64)


def with_memory(games_fn):
    """``games_fn`` handed its working memory (``_memory``)."""

    def run(*args):
        return games_fn(*args, *_memory())

    return run


def game_player(ext):
    """``play_game(game, seed, rules, sids, params, out_game, deals_out, row_cap, log)``: one game,
    with its transcript in ``log``; returns the log length."""

    def play_game(game, seed, rules, sids, params, out_game, deals_out, row_cap, log):
        return with_memory(games_for(rules))(_run(seed, game, row_cap), 0, 1, rules, sids, params,
                                             out_game.reshape(-1, 1), deals_out, log, ext)

    return play_game


def batch_player(ext):
    """``play_batch(seed, first_game, count, rules, sids, params, out_games, out_deals, row_cap)``
    (``out_games``: a game a column): the games in ranges on threads (``games.batch.play_ranges``:
    not a ``prange``, which would compile the whole game twice more)."""

    def play_batch(seed, first_game, count, rules, sids, params, out_games, out_deals, row_cap):
        log = np.zeros((0, LOG_WIDTH), dtype=np.int64)
        play_ranges(games_for(rules), count, (_run(seed, first_game, row_cap),),
                    (rules, sids, params, out_games, out_deals, log, address(ext, DECIDE_FN)), memory=_memory)

    return play_batch


def _run(seed, first_game, row_cap):
    """The run's seed, first game and deal rows a game, as ``play_games`` takes them (one array)."""
    return np.array([seed, first_game, row_cap], dtype=np.int64)


play_game = game_player(no_decide)
play_batch = batch_player(no_decide)


def make_engine(decide_fn=None, cache_key: str | None = None):
    """``(play_game, play_batch)`` asking ``decide_fn(kind, sid, table, hand, opts, n_opts, view,
    rules, rng)`` every decision of a strategy id other than random's and the heuristic's, where
    ``table`` is the (seats × 8) parameter table and the deciding seat is ``view[L.V_SEAT]`` (None:
    the built-in engine). Only ``engine_decide`` is rebuilt around it (``nbutil.rebind``), cached
    under ``cache_key``; the kernel is the cached one."""
    if decide_fn is None:
        return play_game, play_batch
    ext = rebind(globals(), ("engine_decide",), cache_key, custom=decide_fn)["engine_decide"]
    return game_player(ext), batch_player(ext)
