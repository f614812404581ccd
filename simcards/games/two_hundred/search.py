"""The ``mc`` family: determinized Monte Carlo search for Two Hundred. It attaches to the engines
the way a user policy does (``mc_decide``, the public signature, as ``Family.decide``): a run that
does not play it never compiles it. The rollouts play by the rules of ``core.py``.

At a decision the player samples ``k`` deals of the cards it has not seen into the other hands
(and the kitty when it did not bury it itself), each hand getting exactly the cards it still
holds and no card of a suit it has shown void in. Every legal option is played forward in every
sample (common random numbers: the same ``k`` deals for every option) to the end of the deal with
a fast rollout policy (the ``heuristic`` card play, or the informed one), and the option with the
best mean deal result for the player's side wins: its deal score minus the other sides' (made
contract or minus the bid, no-trump doubling), plus ``win`` when the deal takes the side to the
game target and minus ``win`` when it takes another side there or the side to the hole.

Searched decisions (``search``, a bit mask): 1 card play, 2 the bid (would I gain by declaring
at the lowest legal bid, with my best trump, leading first, by more than ``margin``?), 4 the
trump. The rest is the ``informed`` family's. Tables the search cannot sample (T-V-2P dummies
with face-down piles, T-V-5P's secret partner, a kitty in the auction) use the informed
decision there. All randomness comes from the seat's own stream (``rng``, never the deal's): same seed, same game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcards.games.two_hundred import core
from simcards.games.two_hundred.core import card_points, n_cards, play_card
from simcards.games.two_hundred.layout import (
    BIT_OF_FACE,
    FACE_OF_BIT,
    K_BID,
    K_PLAY,
    K_TRUMP,
    LANE,
    LANE_COUNT,
    LANE_FULL,
    LANE_LOW,
    MAX_SEATS,
    NO_TRUMP,
    V_ACTIVE,
    V_BID,
    V_BIDDER,
    V_CALLED,
    V_LEAD_SUIT,
    V_LEADER,
    V_N_ACTIVE,
    V_N_IN,
    V_OWN_SEEN,
    V_PLAYED,
    V_SCORES,
    V_SEAT,
    V_SIDE,
    V_TAKEN,
    V_TRICK,
    V_TRICK_POINTS,
    V_TRUMP,
    V_VOIDS,
    V_WIN_FACE,
    V_WIN_SEAT,
)
from simcards.games.two_hundred.params import (
    P_K,
    P_MARGIN,
    P_RAISE,
    P_ROLLOUT,
    P_SEARCH,
    P_WIN,
)
from simcards.games.two_hundred.policies import (
    follow_card,
    friend,
    heuristic_tricks,
    informed_card,
    informed_table,
    lead_card,
    same_row,
    seating,
)
from simcards.games.two_hundred.rules import (
    R_CALL,
    R_DECK,
    R_DECK_MASK,
    R_DUMMIES,
    R_HOLE,
    R_KITTY,
    R_SEATS,
    R_TARGET,
)
from simcards.rng import rand_below

S_PLAY, S_BID, S_TRUMP = 1, 2, 4
_TRIES = 20  # sampling attempts before the voids are ignored (the last attempt)


@njit(cache=True)
def sample_hands(rng, unseen, need, voids, n_h, out, cards):
    """Deal the cards of ``unseen`` to ``n_h`` holders, ``need[i]`` cards each (their sum is the
    number of unseen cards), none of a suit in ``voids[i]`` (bit per suit): the cards in random
    order, cards of a suit someone is void in first, each to a holder that may take it chosen
    with weight its room left. A dead end retries; the last try ignores the voids. ``out[i]``
    receives holder ``i``'s mask."""
    n = 0
    for s in range(4):
        lane = (unseen >> (LANE * s)) & LANE_FULL
        while lane:
            cards[n] = LANE * s + LANE_LOW[lane]
            lane &= lane - 1
            n += 1
    any_void = 0
    for i in range(n_h):
        any_void |= voids[i]
    for attempt in range(_TRIES):
        use_voids = attempt < _TRIES - 1
        for j in range(n - 1, 0, -1):
            r = rand_below(rng, j + 1)
            t = cards[j]
            cards[j] = cards[r]
            cards[r] = t
        caps = np.int64(0)  # the holders' room left, 8 bits each (no array a sample)
        left = 0  # their room in all
        for i in range(n_h):
            caps |= np.int64(need[i]) << (8 * i)
            left += need[i]
            out[i] = 0
        ok = True
        for phase in range(2):
            for j in range(n):
                c = cards[j]
                constrained = (any_void >> (c // LANE)) & 1
                if (phase == 0) != (constrained == 1):
                    continue
                barred = 0  # the holders void in the card's suit (bit i: holder i), while voids count
                tot = left  # the room of the holders that may take it (a full holder weighs 0)
                if use_voids and constrained:
                    for i in range(n_h):
                        if (voids[i] >> (c // LANE)) & 1:
                            barred |= 1 << i
                            tot -= (caps >> (8 * i)) & 255
                if tot == 0:
                    ok = False
                    break
                r = rand_below(rng, tot)
                for i in range(n_h):
                    if (barred >> i) & 1:
                        continue
                    cap = (caps >> (8 * i)) & 255
                    if r < cap:
                        out[i] |= np.int64(1) << c
                        caps -= np.int64(1) << (8 * i)
                        break
                    r -= cap
                left -= 1
            if not ok:
                break
        if ok:
            return True
    return False


@njit(cache=True)
def rollout(table, row, hands, rv, rules, seat, n_tricks, informed):
    """Play the deal in ``rv``/``hands`` to its last trick from ``seat`` (next to play), every
    seat with the heuristic's card play (``informed``: the informed family's), parameters of
    ``table[row]``. Points land in ``rv[V_TAKEN + side]``. The heuristic's rollout on a table
    the search samples (no dummies, no called partner) is ``heuristic_rollout``: the same cards."""
    if fast_rollouts(rules, rv, informed):
        heuristic_rollout(table, row, hands, rv, rules, seat, n_tricks)
    else:
        view_rollout(table, row, hands, rv, rules, seat, n_tricks, informed)


@njit(cache=True)
def view_rollout(table, row, hands, rv, rules, seat, n_tricks, informed):
    """``rollout`` card by card through the view and the policies' own functions (every table)."""
    trump = rv[V_TRUMP]
    active = rv[V_ACTIVE]
    n_seats = rules[R_SEATS]
    deck = rules[R_DECK_MASK]
    rv[V_OWN_SEEN] = 0
    while rv[V_TRICK] < n_tricks:
        h = hands[seat]
        rv[V_SEAT] = seat
        if informed:
            b = informed_card(table, row, h, rv, rules)
        else:
            unseen = deck & ~rv[V_PLAYED] & ~h
            if rv[V_N_IN] == 0:
                b = lead_card(table, row, h, unseen, trump, friend(rv, h, seat, rv[V_BIDDER]))
            else:
                b = follow_card(table, row, h, unseen, trump, seat, rv)
        seat = play_card(rv, hands, seat, b, trump, active, n_seats)


@njit(cache=True)
def fast_rollouts(rules, view, informed):
    """Do the rollouts on this table take the heuristic's path on locals (``policies.heuristic_tricks``)? Without
    dummies and a called partner (a friend is a teammate), for the heuristic's card play."""
    return not informed and rules[R_DUMMIES] == 0 and view[V_CALLED] < 0


@njit(cache=True)
def informed_rollout(table, row, hands, rv, rules, seat, n_tricks):
    """``view_rollout`` with the informed family's card play only: the rollout of mc's own
    searches when ``rollout`` asks for it (they search only tables without dummies or a called
    partner, where the heuristic's rollout is ``policies.heuristic_tricks``: the mc engine compiles no other)."""
    trump = rv[V_TRUMP]
    active = rv[V_ACTIVE]
    n_seats = rules[R_SEATS]
    rv[V_OWN_SEEN] = 0
    while rv[V_TRICK] < n_tricks:
        rv[V_SEAT] = seat
        b = informed_card(table, row, hands[seat], rv, rules)
        seat = play_card(rv, hands, seat, b, trump, active, n_seats)


@njit(cache=True)
def heuristic_rollout(table, row, hands, rv, rules, seat, n_tricks):
    """``rollout`` with the heuristic's card play on a table without dummies or a called partner
    (``fast_rollouts``): the trick's state in locals (``policies.heuristic_tricks``) and the view written back once
    at the end (the same cards, tricks, voids and points as ``view_rollout``)."""
    nxt, sides = seating(rv, rules)
    bidder = rv[V_BIDDER]
    wb = BIT_OF_FACE[rv[V_WIN_FACE]] if rv[V_WIN_FACE] >= 0 else -1
    deal = (rv[V_TRUMP], bidder, rv[V_SIDE + bidder], rv[V_N_ACTIVE], nxt, sides, n_tricks)
    state = (seat, rv[V_TRICK], rv[V_N_IN], rv[V_LEAD_SUIT], rv[V_WIN_SEAT], wb, rv[V_TRICK_POINTS], rv[V_PLAYED],
             rv[V_LEADER])
    last_seat, trick, n_in, lead, ws, wb, tp, played, leader = heuristic_tricks(table, same_row(row), hands, rules,
                                                                                 deal, -1, state, rv,
                                                                       V_TAKEN, rv, True)
    rv[V_OWN_SEEN] = 0
    if last_seat >= 0:
        rv[V_SEAT] = last_seat
    rv[V_TRICK] = trick
    rv[V_N_IN] = n_in
    rv[V_LEAD_SUIT] = lead
    rv[V_WIN_SEAT] = ws
    rv[V_WIN_FACE] = FACE_OF_BIT[wb] if wb >= 0 else -1
    rv[V_TRICK_POINTS] = tp
    rv[V_PLAYED] = played
    rv[V_LEADER] = leader


@njit(cache=True, inline="always")
def _active_sides(rv, rules):
    m = 0
    for s in range(rules[R_SEATS]):
        if (rv[V_ACTIVE] >> s) & 1:
            m |= 1 << rv[V_SIDE + s]
    return m


@njit(cache=True)
def deal_value(rv, rules, side, kitty_points, win_w):
    """The deal's result for ``side`` after a rollout: its deal score (T-SC-2 and the options:
    made, minus the bid, points minus the bid, a cutthroat's minus its points; no trump doubles,
    T-V-ROUGH; the kitty's points to the defenders, T-V-KITTY) minus the mean of the other sides'
    in play, and ``win`` for reaching the target / minus it for another side reaching it or this
    side reaching the hole (T-END-1/2)."""
    return scored_value(rv, rules, side, kitty_points, win_w, np.zeros(MAX_SEATS, dtype=np.int64))


@njit(cache=True)
def scored_value(rv, rules, side, kitty_points, win_w, ds):
    """``deal_value`` with the deal scores' scratch ``ds`` (``MAX_SEATS`` entries) passed in: no
    allocation a rollout."""
    return taken_value(rv, rules, side, kitty_points, win_w, rv[V_TAKEN:V_TAKEN + MAX_SEATS], ds)


@njit(cache=True)
def taken_value(view, rules, side, kitty_points, win_w, taken, ds):
    """``deal_value`` of the deal in ``view`` (its contract, trump, sides and scores) with the
    points ``taken[side]`` each side took in it (``ds``: scratch)."""
    cs = view[V_SIDE + view[V_BIDDER]]
    sides = _active_sides(view, rules)
    core.deal_scores(taken, MAX_SEATS, cs, -1, view[V_BID], kitty_points, view[V_TRUMP] == NO_TRUMP, rules, ds)
    mine = 0
    others = 0
    n_o = 0
    best_other = -(1 << 30)
    for s in range(MAX_SEATS):
        if not (sides >> s) & 1:
            continue
        d = ds[s]
        if s == side:
            mine = d
        else:
            others += d
            n_o += 1
            if view[V_SCORES + s] + d > best_other:
                best_other = view[V_SCORES + s] + d
    v = mine - (others / n_o if n_o else 0.0)
    if win_w != 0.0:
        mine_total = view[V_SCORES + side] + mine
        if mine_total >= rules[R_TARGET]:
            v += win_w
        elif best_other >= rules[R_TARGET] or mine_total <= rules[R_HOLE]:
            v -= win_w
    return v


@njit(cache=True)
def searchable(rules):
    """Can the sampler rebuild every hidden hand? Not with T-V-2P's face-down piles nor with
    T-V-5P's secret partner (who plays with whom is part of the hidden deal)."""
    return rules[R_DUMMIES] == 0 and rules[R_CALL] == 0


@njit(cache=True)
def holders(view, rules, seat, n_tricks, unseen, need, voids, seats):
    """The hidden holders at card play: every other seat in play with the cards it still holds
    and its voids, then the kitty (when ``seat`` did not bury it). Returns their number, or -1
    when the cards they hold do not add up to the ``unseen`` ones (never on a table searched)."""
    active = view[V_ACTIVE]
    n_seats = rules[R_SEATS]
    trick = view[V_TRICK]
    played_now = 0  # seats that already played to this trick
    o = view[V_LEADER]
    for _ in range(view[V_N_IN]):
        played_now |= 1 << o
        o = core.next_seat(o, active, n_seats)
    n_h = 0
    for o in range(n_seats):
        if o != seat and (active >> o) & 1:
            seats[n_h] = o
            need[n_h] = n_tricks - trick - ((played_now >> o) & 1)
            voids[n_h] = view[V_VOIDS + o]
            n_h += 1
    if rules[R_KITTY] > 0 and not (seat == view[V_BIDDER] and view[V_TRUMP] >= 0):
        seats[n_h] = -1
        need[n_h] = rules[R_KITTY]
        voids[n_h] = 0
        n_h += 1
    total = 0
    for i in range(n_h):
        total += need[i]
    return n_h if total == n_cards(unseen) else -1


@njit(cache=True)
def kitty_known(view, rules, seat):
    """The kitty's points when ``seat`` took and buried it (it knows them), else 0."""
    if rules[R_KITTY] > 0 and seat == view[V_BIDDER]:
        return card_points(view[V_OWN_SEEN])
    return 0


@njit(cache=True)
def holder_scratch():
    """Scratch for the hidden cards' holders (``holders``, ``sample_hands``): ``need``, ``voids``,
    ``seats`` and the sampled hands, a slot a seat and one for the kitty, and a list of cards."""
    slots = MAX_SEATS + 1
    return (np.zeros(slots, dtype=np.int64), np.zeros(slots, dtype=np.int64), np.zeros(slots, dtype=np.int64),
            np.zeros(slots, dtype=np.int64), np.zeros(64, dtype=np.int64))


@njit(cache=True)
def sampled_deal(rng, unseen, need, voids, n_h, held, cards, seats, seat, hand, kitty_known, base):
    """One determinized deal: the holders' hands sampled (``sample_hands``), ``base[s]`` every
    seat's hand (the own one included); returns the kitty's points (known to its taker, else the
    sampled kitty's)."""
    sample_hands(rng, unseen, need, voids, n_h, held, cards)
    k = seat_hands(base, seat, hand, n_h, held, seats)
    return kitty_known if k < 0 else card_points(held[k])


@njit(cache=True)
def seat_hands(base, seat, hand, n_h, held, seats):
    """``base[s]``: every seat's hand in a sampled deal — the own ``hand`` to ``seat``, ``held[i]``
    to holder ``seats[i]``; returns the index ``i`` of the sampled kitty (holder -1), or -1."""
    kitty = -1
    for i in range(MAX_SEATS):
        base[i] = 0
    base[seat] = hand
    for i in range(n_h):
        if seats[i] >= 0:
            base[seats[i]] = held[i]
        else:
            kitty = i
    return kitty


@njit(cache=True)
def first_trick(rv):
    """The view ``rv`` at the deal's first trick: nothing played, taken or shown void yet (the
    trump, the bidder and the leader are the caller's to set)."""
    rv[V_TRICK] = 0
    rv[V_N_IN] = 0
    rv[V_LEAD_SUIT] = -1
    rv[V_WIN_SEAT] = -1
    rv[V_WIN_FACE] = -1
    rv[V_TRICK_POINTS] = 0
    rv[V_PLAYED] = 0
    for p in range(MAX_SEATS):
        rv[V_TAKEN + p] = 0
        rv[V_VOIDS + p] = 0


@njit(cache=True)
def played_out(table, row, base, hands, rv, view, rules, seat, face, n_tricks, informed):
    """Card ``face`` played by ``seat`` in the deal ``base`` and the deal rolled out to its last
    trick: ``rv`` is then the deal's final view (``hands`` and ``rv`` are scratch)."""
    hands[:] = base
    rv[:] = view
    nxt = play_card(rv, hands, seat, BIT_OF_FACE[face], rv[V_TRUMP], rv[V_ACTIVE], rules[R_SEATS])
    rollout(table, row, hands, rv, rules, nxt, n_tricks, informed)


@njit(cache=True)
def mc_play(table, row, hand, opts, n_opts, view, rules, rng):
    """The searched card play: the option with the best mean deal value over ``k`` samples."""
    seat = view[V_SEAT]
    n_tricks = (rules[R_DECK] - rules[R_KITTY]) // view[V_N_ACTIVE]
    unseen = rules[R_DECK_MASK] & ~view[V_PLAYED] & ~hand & ~view[V_OWN_SEEN]
    need, voids, seats, out, cards = holder_scratch()
    n_h = holders(view, rules, seat, n_tricks, unseen, need, voids, seats)
    if n_h < 0:  # cannot happen on the tables searched; never guess
        return informed_table(K_PLAY, table, row, hand, opts, n_opts, view, rules)
    kitty = kitty_known(view, rules, seat)
    k = max(1, int(table[row, P_K]))
    informed = table[row, P_ROLLOUT] >= 0.5
    win_w = table[row, P_WIN]
    side = view[V_SIDE + seat]
    sums = np.zeros(n_opts, dtype=np.float64)
    base = np.zeros(MAX_SEATS, dtype=np.int64)
    hands = np.zeros(MAX_SEATS, dtype=np.int64)
    rv = np.empty_like(view)
    ds = np.zeros(MAX_SEATS, dtype=np.int64)
    taken = np.zeros(MAX_SEATS, dtype=np.int64)
    fast = not informed  # a searched table (``searchable``): ``fast_rollouts`` is ``not informed``
    nxt, sides = seating(view, rules)
    rows = same_row(row)
    bidder = view[V_BIDDER]
    wb = BIT_OF_FACE[view[V_WIN_FACE]] if view[V_WIN_FACE] >= 0 else -1
    deal = (view[V_TRUMP], bidder, view[V_SIDE + bidder], view[V_N_ACTIVE], nxt, sides, n_tricks)
    state = (seat, view[V_TRICK], view[V_N_IN], view[V_LEAD_SUIT], view[V_WIN_SEAT], wb, view[V_TRICK_POINTS],
             view[V_PLAYED], view[V_LEADER])
    for _ in range(k):
        kitty_points = sampled_deal(rng, unseen, need, voids, n_h, out, cards, seats, seat, hand, kitty, base)
        for i in range(n_opts):
            if fast:  # played_out on locals: the same cards, no copy of the view
                for s in range(MAX_SEATS):
                    hands[s] = base[s]
                    taken[s] = view[V_TAKEN + s]
                heuristic_tricks(table, rows, hands, rules, deal, BIT_OF_FACE[opts[i]], state, taken, 0, view, False)
                sums[i] += taken_value(view, rules, side, kitty_points, win_w, taken, ds)
            else:
                hands[:] = base  # played_out with the informed rollout
                rv[:] = view
                nxt1 = play_card(rv, hands, seat, BIT_OF_FACE[opts[i]], rv[V_TRUMP], rv[V_ACTIVE], rules[R_SEATS])
                informed_rollout(table, row, hands, rv, rules, nxt1, n_tricks)
                sums[i] += scored_value(rv, rules, side, kitty_points, win_w, ds)
    best = 0
    for i in range(1, n_opts):
        if sums[i] > sums[best]:
            best = i
    return best


@njit(cache=True)
def others_in_play(view, rules, seat, n_tricks, need, seats):
    """Before the first trick: every other seat in play holds ``n_tricks`` unseen cards
    (``seats[i]``, ``need[i]``); returns how many such seats."""
    n_h = 0
    for o in range(rules[R_SEATS]):
        if o != seat and (view[V_ACTIVE] >> o) & 1:
            seats[n_h] = o
            need[n_h] = n_tricks
            n_h += 1
    return n_h


@njit(cache=True)
def contract_points(table, row, hand, view, rules, rng, n_tr, pts):
    """For the auction and the trump: ``pts[j, t]``, the points the side takes in sample ``j``
    when this seat declares trump ``t`` (``t < n_tr``; 4 = no trump) and leads the first trick
    (T-LEAD-1). Every other seat in play holds a uniform share of the unseen cards."""
    bases = np.empty((pts.shape[0], MAX_SEATS), dtype=np.int64)
    contract_deals(hand, view, rules, rng, bases)
    for t in range(n_tr):
        contract_rollouts(table, row, bases, view, rules, t, pts)


@njit(cache=True)
def contract_deals(hand, view, rules, rng, bases):
    """The deals ``contract_points`` rolls out: ``bases[j, s]`` seat ``s``'s hand in sample ``j``
    (the own ``hand`` to the seat deciding, a uniform share of the unseen cards to every other
    seat in play; the samples drawn in order, as the rollouts draw nothing)."""
    seat = view[V_SEAT]
    n_tricks = (rules[R_DECK] - rules[R_KITTY]) // view[V_N_ACTIVE]
    unseen = rules[R_DECK_MASK] & ~hand & ~view[V_OWN_SEEN]
    need, voids, seats, out, cards = holder_scratch()
    n_h = others_in_play(view, rules, seat, n_tricks, need, seats)
    for j in range(bases.shape[0]):
        sample_hands(rng, unseen, need, voids, n_h, out, cards)
        seat_hands(bases[j], seat, hand, n_h, out, seats)  # the kitty is the searcher's: no holder -1


@njit(cache=True)
def contract_rollouts(table, row, bases, view, rules, t, pts):
    """``pts[j, t]`` for every sample ``j`` of ``bases`` (``contract_points``): the deal played
    out with trump ``t`` declared by the seat deciding, which leads the first trick."""
    seat = view[V_SEAT]
    n_tricks = (rules[R_DECK] - rules[R_KITTY]) // view[V_N_ACTIVE]
    informed = table[row, P_ROLLOUT] >= 0.5
    side = view[V_SIDE + seat]
    hands = np.zeros(MAX_SEATS, dtype=np.int64)
    taken = np.zeros(MAX_SEATS, dtype=np.int64)
    fast = not informed  # a searched table (``searchable``): ``fast_rollouts`` is ``not informed``
    nxt, sides = seating(view, rules)
    rows = same_row(row)
    rv = np.empty_like(view)
    for j in range(bases.shape[0]):
        if fast:  # the rollout below on locals: the same cards
            for s in range(MAX_SEATS):
                hands[s] = bases[j, s]
                taken[s] = 0
            heuristic_tricks(table, rows, hands, rules, (t, seat, side, view[V_N_ACTIVE], nxt, sides, n_tricks), -1,
                    (seat, 0, 0, -1, -1, -1, 0, np.int64(0), -1), taken, 0, view, False)
            pts[j, t] = taken[side]
        else:
            hands[:] = bases[j]
            rv[:] = view
            rv[V_TRUMP] = t
            rv[V_BIDDER] = seat
            first_trick(rv)
            informed_rollout(table, row, hands, rv, rules, seat, n_tricks)
            pts[j, t] = rv[V_TAKEN + side]


@njit(cache=True)
def _contract_value(pts, bid, t, rules, view, side, n_other, win_w):
    """Mean deal value (``deal_value`` without a rollout) of declaring ``bid`` in trump ``t``
    over the sampled points ``pts[:, t]`` (no kitty: 100 points shared by the sides)."""
    dbl = 2 if t == NO_TRUMP else 1
    v = 0.0
    for j in range(pts.shape[0]):
        p = pts[j, t]
        d = core.contract_score(p, bid, rules) * dbl
        o = (100 - p) * dbl
        x = d - o / n_other
        if win_w != 0.0:
            if view[V_SCORES + side] + d >= rules[R_TARGET]:
                x += win_w
            elif view[V_SCORES + side] + d <= rules[R_HOLE]:
                x -= win_w
        v += x
    return v / pts.shape[0]


@njit(cache=True)
def _n_other_sides(view, rules, seat):
    m = 0
    for s in range(rules[R_SEATS]):
        if (view[V_ACTIVE] >> s) & 1 and view[V_SIDE + s] != view[V_SIDE + seat]:
            m |= 1 << view[V_SIDE + s]
    return max(1, n_cards(m))


@njit(cache=True, inline="always")
def mc_bid(table, row, hand, opts, n_opts, view, rules, rng):
    """The searched bid: raise to the lowest legal bid when declaring it with the best trump
    (by mean value over the samples) is worth more than ``margin``; never over the partner
    unless ``raise``."""
    seat = view[V_SEAT]
    hb = view[V_BIDDER]
    if hb >= 0 and view[V_SIDE + hb] == view[V_SIDE + seat] and table[row, P_RAISE] < 0.5:
        return 0
    k = max(1, int(table[row, P_K]))
    pts = np.zeros((k, 4), dtype=np.int64)
    bases = np.empty((k, MAX_SEATS), dtype=np.int64)
    contract_deals(hand, view, rules, rng, bases)
    side = view[V_SIDE + seat]
    n_other = _n_other_sides(view, rules, seat)
    # The best trump's mean is above the margin when any trump's is: the suits rolled out longest
    # first (ties: lowest suit), and the first one above the margin settles the bid.
    tried = 0
    for _ in range(4):
        t = -1
        for u in range(4):
            if not (tried >> u) & 1 and (t < 0 or LANE_COUNT[(hand >> (LANE * u)) & LANE_FULL]
                                         > LANE_COUNT[(hand >> (LANE * t)) & LANE_FULL]):
                t = u
        tried |= 1 << t
        contract_rollouts(table, row, bases, view, rules, t, pts)
        if _contract_value(pts, opts[1], t, rules, view, side, n_other, table[row, P_WIN]) > table[row, P_MARGIN]:
            return 1
    return 0


@njit(cache=True, inline="always")
def mc_trump(table, row, hand, opts, n_opts, view, rules, rng):
    """The searched trump: the option (a suit, or no trump where allowed) with the best mean
    deal value at the contract's bid."""
    k = max(1, int(table[row, P_K]))
    n_tr = 0
    for i in range(n_opts):
        n_tr = max(n_tr, opts[i] + 1)
    pts = np.zeros((k, n_tr), dtype=np.int64)
    contract_points(table, row, hand, view, rules, rng, n_tr, pts)
    side = view[V_SIDE + view[V_SEAT]]
    n_other = _n_other_sides(view, rules, view[V_SEAT])
    best = 0
    best_v = -1e18
    for i in range(n_opts):
        v = _contract_value(pts, view[V_BID], opts[i], rules, view, side, n_other, table[row, P_WIN])
        if v > best_v:
            best_v = v
            best = i
    return best


@njit(cache=True, inline="always")
def mc_table(kind, table, row, hand, opts, n_opts, view, rules, rng):
    """The mc family's decision (see the module docstring)."""
    if n_opts == 1:
        return 0
    mode = int(table[row, P_SEARCH])
    if searchable(rules):
        if kind == K_PLAY and mode & S_PLAY:
            return mc_play(table, row, hand, opts, n_opts, view, rules, rng)
        if rules[R_KITTY] == 0:  # with a kitty the declarer's hand is not known in the auction
            if kind == K_BID and mode & S_BID:
                return mc_bid(table, row, hand, opts, n_opts, view, rules, rng)
            if kind == K_TRUMP and mode & S_TRUMP:
                return mc_trump(table, row, hand, opts, n_opts, view, rules, rng)
    return informed_table(kind, table, row, hand, opts, n_opts, view, rules)


@njit(cache=True)
def mc_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """The ``mc`` family with the public policy signature (``n``: the cards in ``hand``, unused): it
    attaches to the engines as a user policy does (``Family.decide``), so a run without it never
    compiles the search."""
    table = params.reshape((1, params.shape[0]))
    return mc_table(kind, table, 0, hand, opts, n_opts, view, rules, rng)

