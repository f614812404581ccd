"""Built-in Two Hundred strategies, as jitted decision functions with one signature.

Every decision a player makes goes through::

    decide(kind, params, hand, n, opts, n_opts, view, rules, rng) -> option index

``kind`` is ``K_BID`` (options: ``0`` = pass, then the legal bids low to high), ``K_DISCARD``
(the bidder who took the kitty buries one card; asked four times; options: the cards in hand),
``K_TRUMP`` (options: the suits 0..3, s h d c, then ``NO_TRUMP`` = 4 where allowed), ``K_CALL``
(T-V-5P: the partner's card; options: every card of the deck not in the bidder's hand) or
``K_PLAY`` (options: the legal cards). Card options are face ids by suit, then rank low to high.
``hand`` (``n`` cards) is the cards the deciding seat holds and may see as a lane mask (``layout``): its own
hand, or when a T-V-2P player plays for its dummy, the dummy's face-up cards. ``view`` is the
public view (``layout.V_*``) plus ``V_OWN_SEEN``, the few cards only the decider sees (its buried
kitty; its dummy's cards or its own hand in T-V-2P); ``rules`` the encoded rules, ``rng`` the
seat's own random stream (not the deal's: ``simcards.rng``). A strategy sees nothing else: no other hand, no deck order, not who holds a
called card until it is played.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from simcards.games.two_hundred.core import beats, legal_mask, n_cards, next_seat
from simcards.games.two_hundred.layout import (
    BIT_OF_FACE,
    FACE_OF_BIT,
    K_BID,
    K_CALL,
    K_DISCARD,
    K_PLAY,
    K_TRUMP,
    LANE,
    LANE_COUNT,
    LANE_FULL,
    LANE_HIGH,
    LANE_LOW,
    LANE_POINTS,
    NO_TRUMP,
    ORDER_OF_BIT,
    ORDER_POINTS,
    POINTS_OF_BIT,
    SUIT_OF_BIT,
    V_ACTIVE,
    V_BID,
    V_BIDDER,
    V_BIDS,
    V_CALLED,
    V_LEAD_SUIT,
    V_N_ACTIVE,
    V_N_IN,
    V_OWN_SEEN,
    V_PARTNER,
    V_PASSED,
    V_PLAYED,
    V_SCORES,
    V_SEAT,
    V_SIDE,
    V_TRICK_POINTS,
    V_TRUMP,
    V_UP,
    V_VOIDS,
    V_WIN_FACE,
    V_WIN_SEAT,
)
from simcards.games.two_hundred.params import (  # positions in the parameter table, by name
    P_AGGR,
    P_BOFF,
    P_DRAW,
    P_DRAWLOW,
    P_KITTY,
    P_NT,
    P_PARTNER,
    P_PBID,
    P_PEND,
    P_POPP,
    P_PPASS,
    P_RAISE,
    P_RUFF_MIN,
    P_SHORT,
    P_SMEAR,
    P_THREAT,
)
from simcards.games.two_hundred.rules import (
    R_CALL,
    R_DECK,
    R_DECK_MASK,
    R_DUMMIES,
    R_KITTY,
    R_MIN_BID,
    R_NO_TRUMP,
    R_SEATS,
    R_SIDES,
    R_TARGET,
)
from simcards.nbutil import NO_ENTRY, compiled_as, njit_by_type
from simcards.rng import rand_below

SID_RANDOM = 0
SID_HEURISTIC = 1

# Decision helpers only jitted code calls (the kernel, the other families, the searches):
# ``nbutil.NO_ENTRY``, so calling one of them from Python crashes.
_called = njit(**NO_ENTRY)

# heuristic family parameters (indices into the params vector)

# Lane orders: 0=5 1=6 2=7 3=8 4=9 5=T 6=J 7=Q 8=K 9=A.
_A, _K, _Q, _J, _T, _5 = 9, 8, 7, 6, 5, 0


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


def _nt_value(lane: int) -> float:
    """Points a suit is expected to bring without trumps: its side value (nobody can ruff it, so
    an Ace and what it guards is safer than in a trump deal), plus every further card of an
    unbroken run from the Ace, plus the long cards of a suit headed by three top cards."""
    has = [(lane >> o) & 1 for o in range(LANE)]
    n = sum(has)
    run = 0
    o = _A
    while o >= 0 and has[o]:
        run += 1
        o -= 1
    v = _side_value(lane)
    if run >= 2:
        v += 4.0 * (run - 1)
    if run >= 3:
        v += 3.0 * (n - run)
    return v


# Whole numbers of points, so float32 holds them exactly (and the tables take half the cache).
SIDE_VALUE = np.array([_side_value(m) for m in range(1 << LANE)], dtype=np.float32)
TRUMP_VALUE = np.array([_trump_value(m) for m in range(1 << LANE)], dtype=np.float32)
NT_VALUE = np.array([_nt_value(m) for m in range(1 << LANE)], dtype=np.float32)
SHORT_VALUE = np.array([6.0, 2.0] + [0.0] * (LANE - 1), dtype=np.float64)  # void / singleton with 2+ trumps


@njit(cache=True)
def random_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """Uniform over the legal options of each decision (pass or a legal bid, a suit, a legal card)."""
    return rand_below(rng, n_opts)


@njit(cache=True)
def estimate(hand, trump, partner):
    """Points the team is expected to take with ``trump`` as trump: the trump suit's value,
    the side suits' values, short side suits when holding 2+ trumps, and ``partner`` for the
    partners' unseen cards."""
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
def nt_estimate(hand, partner):
    """Points the team is expected to take in a no-trump deal (T-V-ROUGH)."""
    e = partner
    for s in range(4):
        e += NT_VALUE[(hand >> (LANE * s)) & LANE_FULL]
    return e


@njit(cache=True)
def best_trump(hand, partner):
    """The suit with the best estimate (lowest suit on ties) and that estimate. The suits' values
    are whole numbers: with a ``partner`` credit that sums exactly (``exact_credit``) every order of
    the additions gives ``estimate``'s value, so each suit's side value and shortness bonus is
    looked up once, not once per trump."""
    if not exact_credit(partner):
        return _best_trump_by_estimates(hand, partner)
    sides = 0.0
    shorts = 0.0
    for s in range(4):
        ls = (hand >> (LANE * s)) & LANE_FULL
        sides += SIDE_VALUE[ls]
        shorts += SHORT_VALUE[LANE_COUNT[ls]]
    best = 0
    best_e = -1.0
    for t in range(4):
        lt = (hand >> (LANE * t)) & LANE_FULL
        nt = LANE_COUNT[lt]
        e = partner + (TRUMP_VALUE[lt] + (sides - SIDE_VALUE[lt]) + ((shorts - SHORT_VALUE[nt]) if nt >= 2 else 0.0))
        if e > best_e:
            best_e = e
            best = t
    return best, best_e


@njit(cache=True, inline="always")
def exact_credit(partner):
    """Is ``partner`` a multiple of 1/1024 below 2**40? Then it and whole points up to 2**40 add
    up exactly, in any order."""
    scaled = partner * 1024.0
    return abs(partner) < 1099511627776.0 and scaled == np.floor(scaled)


@njit(cache=True)
def _best_trump_by_estimates(hand, partner):
    """``best_trump`` by four whole estimates (a credit that does not add up exactly)."""
    best = 0
    best_e = -1.0
    for t in range(4):
        e = estimate(hand, t, partner)
        if e > best_e:
            best_e = e
            best = t
    return best, best_e


@njit(cache=True)
def best_trump_called(hand, partner, deck_mask):
    """T-V-5P: ``best_trump`` when the bidder will call the highest trump it lacks: that card
    counts as ours, ``partner`` stands for the rest of the partner's hand."""
    best = 0
    best_e = -1.0
    for t in range(4):
        missing = (deck_mask & ~hand) >> (LANE * t) & LANE_FULL
        with_call = hand | ((np.int64(1) << (LANE * t + LANE_HIGH[missing])) if missing else np.int64(0))
        e = estimate(with_call, t, partner)
        if e > best_e:
            best_e = e
            best = t
    return best, best_e


@njit(cache=True, inline="always")
def _teammate_cards(view, rules, seat):
    """(the teammates' cards the deciding seat can see, how many it cannot see, cards per hand).
    Teams keep their size when a team leaves (T-V-6P); only a T-V-2P dummy shows cards."""
    each = (rules[R_DECK] - rules[R_KITTY]) // view[V_N_ACTIVE]
    teammates = rules[R_SEATS] // rules[R_SIDES] - 1
    seen = np.int64(0)
    if rules[R_DUMMIES]:
        seen = view[V_UP + (seat + 2) % 4]
    hidden = teammates * each - n_cards(seen)
    return seen, hidden, each


@njit(cache=True, inline="always")
def _credit(table, row, rules, hidden, each, auction):
    """The estimate's allowance for unseen help: ``partner`` for each nine unseen partner cards
    (one partner of nine cards in the standard game; in T-V-5P the holder of the card the bidder
    will call), plus ``kitty`` in the auction when the bidder will take a kitty."""
    help_cards = hidden
    if rules[R_CALL] == 1:  # the called card itself is counted in the hand (best_trump_called)
        help_cards = each - 1
    c = table[row, P_PARTNER] * (help_cards / 9.0)
    if auction and rules[R_KITTY] > 0:
        c += table[row, P_KITTY]
    return c


_NO_KEY = 1 << 12  # an empty lane's key: above every card's


def _lane_keys(smear):
    """Per 10-bit lane, the lowest key ``pts * 64 + order`` of its cards (``smear``: ``(10 - pts) *
    64 + order``, the most points first), ``_NO_KEY`` for an empty lane."""
    out = np.full(1 << LANE, _NO_KEY, dtype=np.int16)
    for m in range(1, 1 << LANE):
        out[m] = min(((10 - ORDER_POINTS[o]) if smear else ORDER_POINTS[o]) * 64 + o for o in range(LANE) if m >> o & 1)
    return out


LANE_CHEAP = _lane_keys(False)
LANE_SMEAR = _lane_keys(True)


@njit_by_type(cache=True)
def _pick(mask, trump, smear):
    """The cheapest card of ``mask`` to give away (fewest points, not a trump, lowest), or with
    ``smear`` the card that gives the most points (non-trump, lowest rank first): the card of the
    lowest key ``pts * 64 + 32 * is_trump + order`` (``10 - pts`` with ``smear``), the first suit's
    on a tie; -1 for no card. Each lane's lowest key is a table lookup."""
    keys = LANE_SMEAR if smear else LANE_CHEAP
    best_key = _NO_KEY
    best = -1
    for s in range(4):
        key = keys[(mask >> (LANE * s)) & LANE_FULL] + (32 if s == trump else 0)
        if key < best_key:
            best_key = key
            best = LANE * s + (key & 15)
    return best


pick_inline = compiled_as(_pick, "pick_inline", njit(cache=True, inline="always"))  # (the trick loop's copy)


@njit(cache=True)
def _above(order):
    """Lane mask of the orders strictly above ``order``."""
    return LANE_FULL & ~((np.int64(1) << (order + 1)) - 1)


@njit(cache=True, inline="always")
def friend(view, hand, seat, other):
    """Does ``other``'s score go with ``seat``'s, as far as ``seat`` knows? Teammates do; in
    T-V-5P the bidder and the secret partner do, but the bidder learns who the partner is only
    when the called card is played, and the partner knows it from its own hand."""
    if other == seat:
        return True
    called = view[V_CALLED]
    if called >= 0:
        bidder = view[V_BIDDER]
        if seat == bidder:
            return other == view[V_PARTNER]
        if view[V_PARTNER] == seat or (hand >> BIT_OF_FACE[called]) & 1:
            return other == bidder
        return False
    return view[V_SIDE + seat] == view[V_SIDE + other]


@njit(cache=True, inline="always")
def side_lane(mask, s, trump):
    """Suit ``s``'s lane of ``mask``, or 0 when ``s`` is trump (the side suits a lead is looked for in)."""
    return (mask >> (LANE * s)) & LANE_FULL if s != trump else np.int64(0)


@njit(cache=True, inline="always")
def lead_choice(draw, hand, unseen, trump, contractor):
    """The heuristic's lead (``draw``: its parameter set): its card bit, or -1 and the cards it
    picks the cheapest of (``_pick``, the caller's)."""
    tl = (hand >> (LANE * trump)) & LANE_FULL
    ut = (unseen >> (LANE * trump)) & LANE_FULL
    if draw and contractor and tl and ut and LANE_HIGH[tl] > LANE_HIGH[ut]:
        return np.int64(LANE * trump + LANE_HIGH[tl]), np.int64(0)
    # a side suit whose top card no unseen card beats, the most unseen cards in it first, then the
    # lowest suit: the highest key count * 8 + 7 - suit (0: none), found without a branch a suit
    best_key = 0
    for s in range(4):
        us = (unseen >> (LANE * s)) & LANE_FULL
        boss = LANE_HIGH[side_lane(hand, s, trump)] > LANE_HIGH[us] and us != 0
        best_key = max(best_key, (LANE_COUNT[us] * 8 + 7 - s) if boss else 0)
    if best_key > 0:
        s = 7 - (best_key & 7)
        return np.int64(LANE * s + LANE_HIGH[side_lane(hand, s, trump)]), np.int64(0)
    side = hand & ~(LANE_FULL << (LANE * trump))
    return np.int64(-1), np.int64(side if side else hand)


@njit(cache=True, inline="always")
def follow_choice(smear, ruff_min, hand, unseen, trump, lead, wb, friendly, last, trick_points):
    """The heuristic's card on a trick already led, from the trick's state in locals (``wb`` the
    winning card's bit, ``friendly``: a friend of the seat to play is winning; ``smear``,
    ``ruff_min``: its parameters): its card bit, or -1, the cards it picks from and whether it
    smears (``_pick``, the caller's)."""
    ll = (hand >> (LANE * lead)) & LANE_FULL
    legal = (ll << (LANE * lead)) if ll else hand
    wsuit = SUIT_OF_BIT[wb]
    word = ORDER_OF_BIT[wb]
    if friendly:
        safe = last
        if not safe:
            higher = (unseen >> (LANE * wsuit)) & _above(word)
            if higher == 0 and (wsuit == trump or ((unseen >> (LANE * trump)) & LANE_FULL) == 0):
                safe = True
        return np.int64(-1), np.int64(legal), safe and smear
    if ll:
        if wsuit != lead:
            return np.int64(-1), np.int64(legal), False
        beat = ll & _above(word)
        if beat:
            if last:
                return np.int64(LANE * lead + LANE_LOW[beat]), np.int64(0), False
            us = (unseen >> (LANE * lead)) & LANE_FULL
            top = LANE_HIGH[us]
            boss = beat & _above(np.int64(top)) if top >= 0 else beat
            if boss:
                return np.int64(LANE * lead + LANE_LOW[boss]), np.int64(0), False
        return np.int64(-1), np.int64(legal), False
    tl = (hand >> (LANE * trump)) & LANE_FULL
    if tl and trick_points >= ruff_min:
        beat = tl & _above(word) if wsuit == trump else tl
        if beat:
            return np.int64(LANE * trump + LANE_LOW[beat]), np.int64(0), False
    side = hand & ~(LANE_FULL << (LANE * trump))
    return np.int64(-1), np.int64(side if side else hand), False


@njit(cache=True, inline="always")
def lead_card(table, row, hand, unseen, trump, contractor):
    """Draw trumps with the boss trump while the opponents may still hold some (``P_DRAW``); else
    lead from strength: a side card no unseen card can beat, in the suit most others still hold;
    else the cheapest side card (``lead_choice``)."""
    b, pick = lead_choice(table[row, P_DRAW] >= 0.5, hand, unseen, trump, contractor)
    return b if b >= 0 else _pick(pick, trump, False)


@njit(cache=True, inline="always")
def follow_card(table, row, hand, unseen, trump, seat, view):
    """Partner winning: points on it when it cannot be taken away (``P_SMEAR``); else win the
    trick cheaply when the seat can keep it, ruff a trick worth ``P_RUFF_MIN`` with the lowest
    trump that wins, or throw the cheapest card (``follow_choice``)."""
    b, pick, smear = follow_choice(table[row, P_SMEAR] >= 0.5, table[row, P_RUFF_MIN], hand, unseen, trump,
                                   view[V_LEAD_SUIT], BIT_OF_FACE[view[V_WIN_FACE]],
                                   friend(view, hand, seat, view[V_WIN_SEAT]), view[V_N_IN] == view[V_N_ACTIVE] - 1,
                                   view[V_TRICK_POINTS])
    return b if b >= 0 else _pick(pick, trump, smear)


# ----- the heuristic's card play on locals -----------------------------------------------------
# The kernel (when every seat in play is the heuristic and no transcript is kept) and the search's
# rollouts play whole tricks with the trick's state in locals, not card by card through the view:
# the same cards as ``lead_card`` and ``follow_card`` (on tables without dummies, a called partner
# or buried cards: a friend is a teammate, nothing is privately seen).
SEAT_ROWS = np.int64(0x543210)  # ``heuristic_tricks``'s ``rows``: seat s plays row s of the table


@njit(cache=True, inline="always")
def same_row(row):
    """``heuristic_tricks``'s ``rows`` for every seat playing row ``row`` of the table."""
    return np.int64(row) * np.int64(0x111111)


@njit(cache=True, inline="always")
def low_bit(mask):
    """The lowest card bit of a non-empty ``mask`` (the lanes lie side by side: its lowest set bit)."""
    return np.int64(trailing_zeros(mask))


@_called
def seating(view, rules):
    """The seating packed 4 bits a seat: the next seat in play after each seat, and each seat's side."""
    active = view[V_ACTIVE]
    n_seats = rules[R_SEATS]
    nxt = np.int64(0)
    sides = np.int64(0)
    for s in range(n_seats):
        nxt |= np.int64(next_seat(s, active, n_seats)) << (4 * s)
        sides |= np.int64(view[V_SIDE + s]) << (4 * s)
    return nxt, sides


@_called
def heuristic_tricks(table, rows, hands, rules, deal, first, state, taken, t0, voids, keep_voids):
    """The heuristic's card play from a trick's state in locals to the last trick, seat ``s`` with
    the parameters of row ``(rows >> 4 s) & 15`` of ``table``. ``deal`` is (trump, bidder, bidder's
    side, seats in play, next seats and sides as 4-bit lanes: ``seating``, tricks), ``state`` (the
    seat to play, trick, cards in it, suit led, winning seat and card bit, trick points, cards
    played, leader). ``seat`` plays card bit ``first`` (or its own choice when -1), then every seat
    its heuristic card (a seat with one legal card plays it); a trick's points go to ``taken[t0 +
    side]`` of its winner's side, a seat not following to ``voids[V_VOIDS + seat]`` when
    ``keep_voids``. Returns the last seat to play and the state at the end (its other eight)."""
    trump, bidder, bside, n_active, nxt, sides, n_tricks = deal
    seat, trick, n_in, lead, ws, wb, tp, played, leader = state
    deck = rules[R_DECK_MASK]
    last_seat = -1
    while trick < n_tricks:
        h = hands[seat]
        last_seat = seat
        pm = np.int64(0)
        sm = False
        if first >= 0:
            b = first
        elif n_in == 0:
            if h & (h - 1) == 0:
                b = low_bit(h)
            else:
                contractor = seat == bidder or ((sides >> (4 * seat)) & 15) == bside
                draw = table[(rows >> (4 * seat)) & 15, P_DRAW] >= 0.5
                b, pm = lead_choice(draw, h, deck & ~played & ~h, trump, contractor)
        else:
            ll = (h >> (LANE * lead)) & LANE_FULL
            if ll & (ll - 1) == 0 and (ll or h & (h - 1) == 0):  # one legal card
                b = low_bit(ll << (LANE * lead) if ll else h)
            else:
                friendly = ((sides >> (4 * seat)) & 15) == ((sides >> (4 * ws)) & 15)
                row = (rows >> (4 * seat)) & 15
                b, pm, sm = follow_choice(table[row, P_SMEAR] >= 0.5, table[row, P_RUFF_MIN], h, deck & ~played & ~h,
                                          trump, lead, wb, friendly, n_in == n_active - 1, tp)
        if b < 0:
            b = pick_inline(pm, trump, sm)
        suit = SUIT_OF_BIT[b]
        if n_in == 0:
            lead = suit
            wb = b
            ws = seat
            tp = 0
            leader = seat
        else:
            if keep_voids and suit != lead:
                voids[V_VOIDS + seat] |= 1 << lead
            if beats(b, wb, trump):
                wb = b
                ws = seat
        first = -1
        hands[seat] = h & ~(np.int64(1) << b)
        tp += POINTS_OF_BIT[b]
        played |= np.int64(1) << b
        n_in += 1
        if n_in == n_active:
            taken[t0 + ((sides >> (4 * ws)) & 15)] += tp
            trick += 1
            n_in = 0
            lead = -1
            seat = ws
            ws = -1
            wb = -1
            tp = 0
        else:
            seat = (nxt >> (4 * seat)) & 15
    return last_seat, trick, n_in, lead, ws, wb, tp, played, leader


@njit(cache=True, inline="always")
def _count_below(mask, b):
    """How many bits of ``mask`` lie below bit ``b``: a card's index among options listed in
    lane-bit order."""
    return n_cards(mask & ((np.int64(1) << b) - 1))


@njit(cache=True, inline="always")
def _option_of(b, options_mask, opts, n_opts):
    """The index of card bit ``b`` among options listing ``options_mask`` in bit order; checked,
    with a search as the fallback."""
    face = FACE_OF_BIT[b]
    i = _count_below(options_mask, b)
    if i < n_opts and opts[i] == face:
        return i
    for i in range(n_opts):
        if opts[i] == face:
            return i
    return 0


@njit(cache=True, inline="always")
def _contract(table, row, hand, credit, nt_allowed, bid, call_mask):
    """The contract the heuristic would name: (suit or NO_TRUMP, the best suit's estimate). No
    trump (where allowed) doubles the deal's scores either way, so only a safe contract: every
    suit stopped and a no-trump estimate of at least ``nt`` × the bid. ``call_mask``: the deck
    when a partner's card will be called (T-V-5P), else 0."""
    if call_mask:
        t, e = best_trump_called(hand, credit, call_mask)
    else:
        t, e = best_trump(hand, credit)
    if nt_allowed and table[row, P_NT] > 0.0 and _stopped(hand) and nt_estimate(hand, credit) >= table[row, P_NT] * bid:
        return NO_TRUMP, e
    return t, e


@njit(cache=True, inline="always")
def _stopped(hand):
    """Every suit holds a stopper against the opponents running it without trumps: its Ace, or
    its King with another card."""
    for s in range(4):
        lane = (hand >> (LANE * s)) & LANE_FULL
        if not (lane >> _A) & 1 and not ((lane >> _K) & 1 and LANE_COUNT[lane] >= 2):
            return False
    return True


@njit(cache=True, inline="always")
def _discard(table, row, hand, credit, nt_allowed, bid):
    """The card to bury in the kitty, whose points go to the defenders: a card without points
    before any card with points (a 5 before a 10 or an Ace), a side card before a trump of the
    contract planned for the hand, and from the shortest suit (to make a void), lowest first."""
    plan, _ = _contract(table, row, hand, credit, nt_allowed, bid, 0)
    return _cheapest(hand, plan, 128, 10)


@njit(cache=True, inline="always")
def _cheapest(mask, plan, plan_weight, length_weight):
    """The card bit of ``mask`` with the lowest key: its card points first (× 256), then
    ``plan_weight`` when of suit ``plan`` (-1: none), then its suit's length × ``length_weight``,
    then its order (lowest first)."""
    best = -1
    best_key = 1 << 30
    for s in range(4):
        lane = (mask >> (LANE * s)) & LANE_FULL
        n = LANE_COUNT[lane]
        while lane:
            o = LANE_LOW[lane]
            lane &= lane - 1
            key = ORDER_POINTS[o] * 256 + (plan_weight if s == plan else 0) + n * length_weight + o
            if key < best_key:
                best_key = key
                best = LANE * s + o
    return best


@njit(cache=True, inline="always")
def _call(hand, trump, deck_mask):
    """T-V-5P: the card to call: the highest card of trump the bidder lacks (without trumps: of
    its longest suit); if it holds the whole suit, the highest card it lacks."""
    suit = trump
    if suit == NO_TRUMP:
        suit = 0
        for s in range(1, 4):
            if LANE_COUNT[(hand >> (LANE * s)) & LANE_FULL] > LANE_COUNT[(hand >> (LANE * suit)) & LANE_FULL]:
                suit = s
    missing = (deck_mask & ~hand) >> (LANE * suit) & LANE_FULL
    if missing:
        return LANE * suit + LANE_HIGH[missing]
    best = -1
    for s in range(4):
        m = (deck_mask & ~hand) >> (LANE * s) & LANE_FULL
        if m and (best < 0 or LANE_HIGH[m] > best % LANE):
            best = LANE * s + LANE_HIGH[m]
    return best


@njit(cache=True)
def heuristic_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """The ``heuristic`` family with the public policy signature. Bidding: estimate the team's
    points in each trump suit (own hand, the partners' face-up cards, an allowance for their
    unseen cards and for a kitty) and bid the minimum raise while it stays within estimate ×
    ``aggr`` (not over the partner unless ``raise``). Kitty: bury cards without points from short
    side suits. Trump: the suit with the best estimate, or (where allowed) no trump when every suit
    is stopped and its estimate reaches ``nt`` × the bid. Call: the highest trump it lacks. Play: lead boss cards (draw trumps first on the
    contract side), win cheaply when last or with a boss card, smear points on a friend's safe
    trick, ruff only tricks worth ``ruff_min``, otherwise give the cheapest card."""
    if n_opts == 1:
        return 0
    table = params.reshape((1, params.shape[0]))
    if kind == K_PLAY:
        return _play_call(table, 0, hand, opts, n_opts, view, rules)
    return _choose(kind, table, 0, hand, opts, n_opts, view, rules)


@njit(cache=True, inline="always")
def _bid(table, row, hand, opts, view, rules):
    """The heuristic's bid (see ``heuristic_decide``): pass or the lowest legal bid."""
    seat = view[V_SEAT]
    if defers(table, row, view, seat, view[V_BIDDER]):
        return 0
    return 1 if opts[1] <= bid_plan_called(table, row, hand, seat, view, rules)[0] else 0


@njit(cache=True, inline="always")
def defers(table, row, view, seat, hb):
    """Does the heuristic at ``seat`` pass to leave the high bid (``hb``'s) with its own side
    (``raise`` off)?"""
    return hb >= 0 and view[V_SIDE + hb] == view[V_SIDE + seat] and table[row, P_RAISE] < 0.5


@njit(cache=True, inline="always")
def bid_plan(table, row, hand, seat, view, rules):
    """What the heuristic at ``seat`` bids on: (the highest bid it makes, the suit it then names as
    trump or -1 where that is decided later: ``bid_suit_is_trump``). The highest bid is its team's
    best estimate × ``aggr``, rounded down (a whole bid is at most a number when it is at most its
    floor). Both are the same all through an auction: its hand, the cards it sees and its
    allowances do not change."""
    seen, hidden, each = _teammate_cards(view, rules, seat)
    credit = _credit(table, row, rules, hidden, each, True)
    if rules[R_CALL] == 1:
        t, e = best_trump_called(hand, credit, rules[R_DECK_MASK])
    else:
        t, e = best_trump(hand | seen, credit)
    return np.int64(np.floor(e * table[row, P_AGGR])), t if bid_suit_is_trump(rules) else np.int64(-1)


@njit(cache=True, inline="always")
def bid_suit_is_trump(rules):
    """Does the heuristic name as trump the suit it bid on (``bid_plan``'s)? Where the trump is
    estimated with the same allowance as the bid (no kitty, no called card) and no trump is not
    an option."""
    return rules[R_KITTY] == 0 and rules[R_CALL] == 0 and rules[R_NO_TRUMP] == 0


# ``_bid``'s copy, a call: the auction of heuristic bidders inlines its own (each inlined copy
# costs compile time)
bid_plan_called = compiled_as(bid_plan, "bid_plan_called", _called)


@_called
def _trump(table, row, hand, opts, n_opts, view, rules):
    """The heuristic's trump, or no trump where allowed (see ``heuristic_decide``)."""
    seen, hidden, each = _teammate_cards(view, rules, view[V_SEAT])
    t, _ = _contract(table, row, hand | seen, _credit(table, row, rules, hidden, each, False), n_opts > 4,
                     view[V_BID], rules[R_DECK_MASK] if rules[R_CALL] == 1 else 0)
    for i in range(n_opts):
        if opts[i] == t:
            return i
    return 0


@_called
def _bury_card(table, row, hand, opts, n_opts, view, rules):
    """The heuristic's card to bury in the kitty (see ``heuristic_decide``)."""
    _, hidden, each = _teammate_cards(view, rules, view[V_SEAT])
    b = _discard(table, row, hand, _credit(table, row, rules, hidden, each, False), rules[R_NO_TRUMP] == 1,
                 view[V_BID])
    return _option_of(b, hand, opts, n_opts)


@_called
def _call_card(hand, opts, n_opts, view, rules):
    """The heuristic's partner's card to call (T-V-5P; see ``heuristic_decide``)."""
    b = _call(hand, view[V_TRUMP], rules[R_DECK_MASK])
    return _option_of(b, rules[R_DECK_MASK] & ~hand, opts, n_opts)


@_called
def _bid_call(table, row, hand, opts, view, rules):
    """The heuristic's bid as a function of its own (the kernel inlines ``_bid`` into its auction)."""
    return _bid(table, row, hand, opts, view, rules)


@_called
def _choose(kind, table, row, hand, opts, n_opts, view, rules):
    """The heuristic's bid, kitty, trump and call decisions (see ``heuristic_decide``), each a call:
    once a deal or less."""
    if kind == K_BID:
        return _bid_call(table, row, hand, opts, view, rules)
    if kind == K_TRUMP:
        return _trump(table, row, hand, opts, n_opts, view, rules)
    if kind == K_DISCARD:
        return _bury_card(table, row, hand, opts, n_opts, view, rules)
    if kind == K_CALL:
        return _call_card(hand, opts, n_opts, view, rules)
    return 0


@njit(cache=True, inline="always")
def _play(table, row, hand, opts, n_opts, view, rules):
    """The heuristic's card play (see ``heuristic_decide``)."""
    seat = view[V_SEAT]
    trump = view[V_TRUMP]
    unseen = rules[R_DECK_MASK] & ~view[V_PLAYED] & ~hand & ~view[V_OWN_SEEN]
    if view[V_N_IN] == 0:
        b = lead_card(table, row, hand, unseen, trump, friend(view, hand, seat, view[V_BIDDER]))
    else:
        b = follow_card(table, row, hand, unseen, trump, seat, view)
    lead = view[V_LEAD_SUIT]
    legal = hand
    if lead >= 0 and (hand >> (LANE * lead)) & LANE_FULL:
        legal = hand & (LANE_FULL << (LANE * lead))
    return _option_of(b, legal, opts, n_opts)


@njit(cache=True)
def _play_call(table, row, hand, opts, n_opts, view, rules):
    """The card play as a function of its own (user-policy chains, the public wrapper)."""
    return _play(table, row, hand, opts, n_opts, view, rules)


@njit(cache=True, inline="always")
def builtin_play(kind, sid, table, hand, opts, n_opts, view, rules, rng):
    """The engines' dispatcher for card play, the decision made most often: inlined into the
    trick loop (and only there, since every inlined copy costs compile time)."""
    if sid == SID_RANDOM:
        return rand_below(rng, n_opts)
    if n_opts == 1:
        return 0
    return _play(table, view[V_SEAT], hand, opts, n_opts, view, rules)


@njit(cache=True, inline="always")
def builtin_bid(sid, table, hand, opts, n_opts, view, rules, rng):
    """The engines' dispatcher for bids: random, or the heuristic's bid (inlined into the auction,
    and only the bid: the kitty, trump and call are ``builtin_contract``'s)."""
    if sid == SID_RANDOM:
        return rand_below(rng, n_opts)
    if n_opts == 1:
        return 0
    return _bid(table, view[V_SEAT], hand, opts, view, rules)


@_called
def builtin_contract(kind, sid, table, hand, opts, n_opts, view, rules, rng):
    """The engines' dispatcher for the kitty, trump and call, once a deal: a call (less code to
    compile), never asked for a card or a bid."""
    if sid == SID_RANDOM:
        return rand_below(rng, n_opts)
    if n_opts == 1:
        return 0
    return _choose(kind, table, view[V_SEAT], hand, opts, n_opts, view, rules)


@_called
def builtin_trump(sid, table, hand, opts, n_opts, view, rules, rng):
    """``builtin_contract`` for the trump alone: a kernel whose rules have no kitty to bury and no
    partner to call compiles only this."""
    if sid == SID_RANDOM:
        return rand_below(rng, n_opts)
    if n_opts == 1:
        return 0
    return _trump(table, view[V_SEAT], hand, opts, n_opts, view, rules)


@njit(cache=True)
def builtin_decide(kind, sid, table, hand, opts, n_opts, view, rules, rng):
    """The engines' dispatcher for every decision: ``table`` holds every seat's parameters; the
    deciding seat is ``view[V_SEAT]``."""
    if sid == SID_RANDOM:
        return rand_below(rng, n_opts)
    if n_opts == 1:
        return 0
    if kind == K_PLAY:
        return _play_call(table, view[V_SEAT], hand, opts, n_opts, view, rules)
    return _choose(kind, table, view[V_SEAT], hand, opts, n_opts, view, rules)


# ----- the informed family ---------------------------------------------------------------------
# Its parameters extend the heuristic's (same indices 0..7, so the heuristic's helpers read them).
SID_INFORMED = 2
SID_MC = 3
S_DISCARD, S_LEAD = 1, 2  # bits of ``short``


@njit_by_type(cache=True)
def _void(view, seat, suit):
    """Has ``seat`` shown it holds no card of ``suit`` this deal (it did not follow)?"""
    return suit < 4 and (view[V_VOIDS + seat] >> suit) & 1 == 1


@njit_by_type(cache=True)
def _may_ruff(view, o, suit, unseen, trump):
    """Could opponent ``o`` trump a lead of ``suit``: it may hold a trump (unseen trumps and not
    void in trump) and it is void in ``suit`` or few cards of it are left unseen."""
    if trump >= 4 or suit == trump or _void(view, o, trump):
        return False
    if ((unseen >> (LANE * trump)) & LANE_FULL) == 0:
        return False
    return _void(view, o, suit) or LANE_COUNT[(unseen >> (LANE * suit)) & LANE_FULL] <= 1


@njit_by_type(cache=True)
def _may_beat(view, o, wbit, lead, unseen, trump):
    """Could opponent ``o`` (yet to play) beat the card bit ``wbit`` winning a trick led in
    ``lead``, given the cards still unseen and the voids it has shown?"""
    wsuit = wbit // LANE
    word = wbit % LANE
    if wsuit == lead:
        if not _void(view, o, lead) and ((unseen >> (LANE * lead)) & LANE_FULL) & _above(word):
            return True
        return _may_ruff(view, o, lead, unseen, trump)
    # the winner is a trump on another suit: only a higher trump by a seat void in the suit led
    if not (_void(view, o, lead) or LANE_COUNT[(unseen >> (LANE * lead)) & LANE_FULL] <= 1):
        return False
    if _void(view, o, trump):
        return False
    return (((unseen >> (LANE * trump)) & LANE_FULL) & _above(word)) != 0


@njit(cache=True)
def _threat_after(view, hand, seat, wbit, lead, unseen, trump, rules):
    """Could an opponent still to play in this trick take it from card bit ``wbit``?"""
    n_left = view[V_N_ACTIVE] - view[V_N_IN] - 1
    o = seat
    for _ in range(n_left):
        o = next_seat(o, view[V_ACTIVE], rules[R_SEATS])
        if not friend(view, hand, seat, o) and _may_beat(view, o, wbit, lead, unseen, trump):
            return True
    return False


@njit(cache=True)
def _opp_trumps(view, hand, seat, unseen, trump, rules):
    """May an opponent still hold a trump (unseen trumps and some opponent not void in trump)?"""
    if trump >= 4 or ((unseen >> (LANE * trump)) & LANE_FULL) == 0:
        return False
    o = seat
    for _ in range(view[V_N_ACTIVE] - 1):
        o = next_seat(o, view[V_ACTIVE], rules[R_SEATS])
        if not friend(view, hand, seat, o) and not _void(view, o, trump):
            return True
    return False


@njit(cache=True)
def _give(table, row, hand, side, trump, bit):
    """The card to give away from ``side`` (the side cards; all of ``hand`` if none): the
    heuristic's cheapest card, or with the ``bit`` of ``short`` set and trumps in hand, a card
    without points from the shortest side suit, to make a void to ruff in later."""
    if not side:
        return _pick(hand, trump, False)
    if not (int(table[row, P_SHORT]) & bit) or trump >= 4 or ((hand >> (LANE * trump)) & LANE_FULL) == 0:
        return _pick(side, trump, False)
    return _cheapest(side, -1, 0, 16)


@njit(cache=True)
def _ilead(table, row, hand, unseen, trump, seat, view, rules):
    """Informed lead: draw trumps only while an opponent may hold one; cash a boss side card
    that no opponent can ruff (most unseen points first); else give the partner a ruff in a suit
    it has shown void; else the cheapest card (as the heuristic)."""
    tl = (hand >> (LANE * trump)) & LANE_FULL
    ut = (unseen >> (LANE * trump)) & LANE_FULL
    opp_t = _opp_trumps(view, hand, seat, unseen, trump, rules)
    contractor = friend(view, hand, seat, view[V_BIDDER])
    if table[row, P_DRAW] >= 0.5 and contractor and tl and opp_t and LANE_HIGH[tl] > LANE_HIGH[ut]:
        return LANE * trump + LANE_HIGH[tl]
    drawlow = table[row, P_DRAWLOW]
    if drawlow > 0 and contractor and opp_t and LANE_COUNT[tl] >= drawlow:
        return LANE * trump + LANE_LOW[tl]  # long in trumps without the boss: pull two for one
    n_seats = rules[R_SEATS]
    best = -1
    best_key = -1
    ruff_suit = -1
    for s in range(4):
        ls = side_lane(hand, s, trump)
        if ls == 0:
            continue
        us = (unseen >> (LANE * s)) & LANE_FULL
        ruffable = False
        partner_void = False
        o = seat
        for _ in range(view[V_N_ACTIVE] - 1):
            o = next_seat(o, view[V_ACTIVE], n_seats)
            if friend(view, hand, seat, o):
                if _void(view, o, s) and not _void(view, o, trump) and ut:
                    partner_void = True
            elif _may_ruff(view, o, s, unseen, trump):
                ruffable = True
        if LANE_HIGH[ls] > LANE_HIGH[us] and not ruffable:
            key = LANE_POINTS[us] * 16 + LANE_COUNT[us]
            if key > best_key:
                best_key = key
                best = LANE * s + LANE_HIGH[ls]
        if partner_void and not ruffable and ruff_suit < 0:
            ruff_suit = s
    if best >= 0:
        return best
    if ruff_suit >= 0:
        return _pick(hand & (LANE_FULL << (LANE * ruff_suit)), trump, False)
    side = hand & ~(LANE_FULL << (LANE * trump)) if trump < 4 else hand
    return _give(table, row, hand, side, trump, S_LEAD)


@njit(cache=True)
def _ifollow(table, row, hand, unseen, trump, seat, view, rules):
    """Informed follow: smear points on a friend's trick that no opponent still to play can take
    (judged from the unseen cards and the voids shown); win with the cheapest card no later
    opponent can beat; ruff a trick worth ``ruff_min`` with the cheapest trump no later opponent
    can overruff; else give the cheapest card."""
    lead = view[V_LEAD_SUIT]
    wb = BIT_OF_FACE[view[V_WIN_FACE]]
    ws = view[V_WIN_SEAT]
    ll = (hand >> (LANE * lead)) & LANE_FULL
    legal = (ll << (LANE * lead)) if ll else hand
    wsuit = wb // LANE
    word = wb % LANE
    if friend(view, hand, seat, ws):
        safe = not _threat_after(view, hand, seat, wb, lead, unseen, trump, rules)
        return _pick(legal, trump, safe and table[row, P_SMEAR] >= 0.5)
    if ll:
        if wsuit != lead:  # already trumped: follow cheaply
            return _pick(legal, trump, False)
        beat = ll & _above(word)
        while beat:  # lowest winning card that holds
            o = LANE_LOW[beat]
            b = LANE * lead + o
            if not _threat_after(view, hand, seat, b, lead, unseen, trump, rules):
                return b
            beat &= beat - 1
        return _pick(legal, trump, False)
    tl = (hand >> (LANE * trump)) & LANE_FULL if trump < 4 else 0
    if tl and view[V_TRICK_POINTS] >= table[row, P_RUFF_MIN]:
        beat = tl & _above(word) if wsuit == trump else tl
        while beat:
            b = LANE * trump + LANE_LOW[beat]
            if not _threat_after(view, hand, seat, b, lead, unseen, trump, rules):
                return b
            beat &= beat - 1
    side = hand & ~(LANE_FULL << (LANE * trump)) if trump < 4 else hand
    return _give(table, row, hand, side, trump, S_DISCARD)


@njit(cache=True)
def informed_card(table, row, hand, view, rules):
    """The informed family's card (a bit of ``hand``) for the seat ``view[V_SEAT]``."""
    seat = view[V_SEAT]
    trump = view[V_TRUMP]
    unseen = rules[R_DECK_MASK] & ~view[V_PLAYED] & ~hand & ~view[V_OWN_SEEN]
    if view[V_N_IN] == 0:
        return _ilead(table, row, hand, unseen, trump, seat, view, rules)
    return _ifollow(table, row, hand, unseen, trump, seat, view, rules)


@njit(cache=True)
def informed_credit(table, row, hand, view, rules):
    """The allowance for the partners' unseen cards, with the auction as evidence: a partner who
    bid X holds about ``pbid`` × X of the team's points; a partner who passed without bidding
    gets ``ppass`` × the usual allowance."""
    seat = view[V_SEAT]
    seen, hidden, each = _teammate_cards(view, rules, seat)
    credit = _credit(table, row, rules, hidden, each, True)
    base = table[row, P_PARTNER] * (hidden / 9.0)
    for t in range(rules[R_SEATS]):
        if t != seat and (view[V_ACTIVE] >> t) & 1 and view[V_SIDE + t] == view[V_SIDE + seat]:
            if view[V_BIDS + t] > 0:
                credit += max(0.0, table[row, P_PBID] * view[V_BIDS + t] - base)
            elif (view[V_PASSED] >> t) & 1:
                credit -= (1.0 - table[row, P_PPASS]) * base
    return credit, seen


@njit_by_type(cache=True)
def _opp_near(view, seat, rules):
    """Is another side within the minimum bid of the target (T-BID-2): a contract it makes wins it
    the game (T-END-1), and so may the points it takes defending?"""
    mine = view[V_SIDE + seat]
    for t in range(rules[R_SEATS]):
        if (view[V_ACTIVE] >> t) & 1 and view[V_SIDE + t] != mine:
            if view[V_SCORES + view[V_SIDE + t]] + rules[R_MIN_BID] >= rules[R_TARGET]:
                return True
    return False


@njit(cache=True)
def informed_bid(table, row, hand, opts, view, rules):
    """The informed bid: the heuristic's rule on an estimate whose partner allowance is updated
    by the partners' bids and passes (``informed_credit``); over an opponent's bid the limit is
    ``popp`` × the usual one, and ``pend`` × when making the lowest raise would win the game."""
    seat = view[V_SEAT]
    hb = view[V_BIDDER]
    if hb >= 0 and view[V_SIDE + hb] == view[V_SIDE + seat] and table[row, P_RAISE] < 0.5:
        return 0
    credit, seen = informed_credit(table, row, hand, view, rules)
    if rules[R_CALL] == 1:
        _, e = best_trump_called(hand, credit, rules[R_DECK_MASK])
    else:
        _, e = best_trump(hand | seen, credit)
    limit = e * table[row, P_AGGR] + table[row, P_BOFF]
    if hb >= 0 and view[V_SIDE + hb] != view[V_SIDE + seat]:
        limit *= table[row, P_POPP]  # contest the opponents' contract more (or less) keenly
    if view[V_SCORES + view[V_SIDE + seat]] + opts[1] >= rules[R_TARGET]:
        limit *= table[row, P_PEND]  # making this contract wins the game (T-END-1: even on a tie)
    if _opp_near(view, seat, rules):
        limit *= table[row, P_THREAT]  # any contract of theirs, or a good defence, ends the game
    if opts[1] <= limit:
        return 1
    return 0


@njit(cache=True)
def informed_table(kind, table, row, hand, opts, n_opts, view, rules):
    """The informed family: ``heuristic`` for the kitty, trump and call; its own bid and play."""
    if n_opts == 1:
        return 0
    if kind == K_PLAY:
        b = informed_card(table, row, hand, view, rules)
        return _option_of(b, legal_mask(hand, view[V_LEAD_SUIT]), opts, n_opts)
    if kind == K_BID:
        return informed_bid(table, row, hand, opts, view, rules)
    return _choose(kind, table, row, hand, opts, n_opts, view, rules)


@njit(cache=True)
def informed_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """The ``informed`` family with the public policy signature."""
    table = params.reshape((1, params.shape[0]))
    return informed_table(kind, table, 0, hand, opts, n_opts, view, rules)
