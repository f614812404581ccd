"""The floor of Two Hundred: the rule mechanics every engine and strategy imports — counting and
scoring cards, the deal, the legal options, a card played to a trick, the deal's scores and the end
of a game. The kernel (``kernel.py``), the strategies (``policies.py``) and the search's rollouts
(``search.py``) all call these functions, so a rule is written once (two-hundred.md's IDs cite
where each comes from). Nothing here decides anything: no strategy is imported.

Cards are lane masks (``layout``); seats, sides and variants are read from the encoded ``rules``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.layout import (
    BIT_OF_FACE,
    FACE_OF_BIT,
    LANE,
    LANE_COUNT,
    LANE_FULL,
    LANE_LOW,
    LANE_POINTS,
    MAX_SEATS,
    ORDER_POINTS,
    SUIT_OF_BIT,
)
from simcards.games.two_hundred.rules import (
    FAIL_POINTS_MINUS_BID,
    R_CUT_POINTS,
    R_DECK,
    R_DUMMIES,
    R_FAIL,
    R_HOLE,
    R_HOLE_LEAVES,
    R_KITTY,
    R_PSL,
    R_SEATS,
    R_SIDES,
    R_TARGET,
)


@njit(cache=True, inline="always")
def contract_score(points, bid, rules):
    """T-SC-2 with the variants' scoring: what the contract side scores for ``points`` taken
    against ``bid``: the points when made (points >= bid); failed, minus the bid (``fail_score``:
    the points minus the bid; ``cutthroat_fail=points``: minus the points)."""
    if points >= bid:
        return points
    if rules[R_CUT_POINTS] == 1:
        return -points
    if rules[R_FAIL] == FAIL_POINTS_MINUS_BID:
        return points - bid
    return -bid


@njit(cache=True, inline="always")
def beats(new, cur, trump):
    """T-PLAY-2: does card bit ``new`` beat the card bit ``cur`` currently winning the trick?
    A trump beats any non-trump; otherwise only a higher card of the same suit wins. Without
    trumps (``NO_TRUMP``, T-V-ROUGH) no suit matches, so only the suit led can win."""
    sn = SUIT_OF_BIT[new]  # (a table: a division by the lane's width costs more in the trick loops)
    sc = SUIT_OF_BIT[cur]
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
    c = contract_score(contract, bid, rules)
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


@njit(cache=True)
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


@njit(cache=True)
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
        v = hands[partner] if (dummies >> seat) & 1 else view[L.V_UP + partner]
    if seat == view[L.V_BIDDER] and view[L.V_TRUMP] >= 0:
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
                view[L.V_UP + d] = hands[d]
    elif n_kitty == 0:  # one card at a time
        return deal_singly(n_deck, deck, dealer, nxt, hands)
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
def deal_singly(n_deck, deck, dealer, nxt, hands):
    """T-DEAL-1 without a kitty or dummies: the ``n_deck`` shuffled cards one at a time clockwise
    from the dealer's left (``nxt``: the seats in play). Returns the (empty) kitty mask."""
    for s in range(MAX_SEATS):
        hands[s] = 0
    order = np.int64(0)  # the seats in dealing order, 4 bits each: no chain of loads from ``nxt`` a card
    n = 0
    s = nxt[dealer]
    while n == 0 or s != nxt[dealer]:
        order |= np.int64(s) << (4 * n)
        n += 1
        s = nxt[s]
    j = 0
    for k in range(n_deck):
        hands[(order >> (4 * j)) & 15] |= np.int64(1) << BIT_OF_FACE[deck[k]]
        j = j + 1 if j + 1 < n else 0
    return np.int64(0)


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
            view[L.V_UP + seat] = hands[seat]
            return p, nf
    return -1, -1


@njit(cache=True)
def new_trick(view, trick, leader, n_active):
    """T-LEAD-1, T-PLAY-2: the view at the start of trick ``trick`` led by ``leader``: nothing
    played to it yet (the faces of the ``n_active`` seats in play -1)."""
    view[L.V_TRICK] = trick
    view[L.V_LEADER] = leader
    view[L.V_N_IN] = 0
    view[L.V_LEAD_SUIT] = -1
    view[L.V_WIN_SEAT] = -1
    view[L.V_WIN_FACE] = -1
    view[L.V_TRICK_POINTS] = 0
    for k in range(n_active):  # (the slots past the seats in play stay -1 from the deal's start)
        view[L.V_TRICK_FACES + k] = -1


@njit(cache=True, inline="always")
def legal_mask(hand, lead):
    """T-PLAY-1: the cards of ``hand`` that may be played to a trick led in ``lead`` (-1: any)."""
    if lead >= 0 and (hand >> (LANE * lead)) & LANE_FULL:
        return hand & (LANE_FULL << (LANE * lead))
    return hand


@njit(cache=True, inline="always")
def play_card(view, hands, seat, b, trump, active, n_seats):
    """T-PLAY-1..3, T-SC-1: ``seat`` plays card bit ``b`` to the trick in ``view`` (its voids,
    the winning card, the trick's points, the cards played); after the last card the trick's
    points go to the winner's side and the next trick starts. Returns the next seat to play (the
    winner after the last card). The searches' rollouts play with it."""
    hands[seat] &= ~(np.int64(1) << b)
    if view[L.V_N_IN] == 0:
        view[L.V_LEAD_SUIT] = b // LANE
        view[L.V_WIN_FACE] = FACE_OF_BIT[b]
        view[L.V_WIN_SEAT] = seat
        view[L.V_TRICK_POINTS] = 0
        view[L.V_LEADER] = seat
    else:
        lead = view[L.V_LEAD_SUIT]
        if b // LANE != lead:
            view[L.V_VOIDS + seat] |= 1 << lead
        if beats(b, BIT_OF_FACE[view[L.V_WIN_FACE]], trump):
            view[L.V_WIN_FACE] = FACE_OF_BIT[b]
            view[L.V_WIN_SEAT] = seat
    view[L.V_TRICK_POINTS] += ORDER_POINTS[b % LANE]
    view[L.V_PLAYED] |= np.int64(1) << b
    view[L.V_N_IN] += 1
    if view[L.V_N_IN] == view[L.V_N_ACTIVE]:
        ws = view[L.V_WIN_SEAT]
        view[L.V_TAKEN + view[L.V_SIDE + ws]] += view[L.V_TRICK_POINTS]
        view[L.V_TRICK] += 1
        view[L.V_N_IN] = 0
        view[L.V_LEAD_SUIT] = -1
        view[L.V_WIN_SEAT] = -1
        view[L.V_WIN_FACE] = -1
        view[L.V_TRICK_POINTS] = 0
        return ws
    return next_seat(seat, active, n_seats)
