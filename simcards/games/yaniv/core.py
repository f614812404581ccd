"""The floor of Yaniv's numba code: the rule mechanics that the kernel, the strategies and the
search's rollouts all import, each written once — seats in the direction of play (Y-PLAY-2), the
deck and the deal (Y-CARD-1/3, Y-DEAL-1/2), a hand's sorted card list, the legal options
(``groups``: the discard groups of Y-DIS, the available draws of Y-DRAW-2, the slam of Y-V-SLAM),
scoring a round (Y-SC-1/2, the failed-call variants, Y-V-OVERCALL, Y-V-KLUFT) and settling it
(Y-RESET-1, Y-V-THREE, Y-ELIM-1/2).

Nothing here imports a strategy or the kernel, so the search can import it too: a rule changed
here changes the kernel's games and the rollouts the search plans with alike
(tests/test_yaniv_core.py). Callers reach the scoring through this module (``core.score_round``),
the one place to change it.
"""

from __future__ import annotations

from simcards.games.yaniv.groups import (  # noqa: F401  (the legal options, re-exported as the floor's)
    available_faces,
    hand_total,
    legal_groups,
    slam_position,
    take_from_group,
)
from simcards.games.yaniv.rules import (
    HAND_SIZE,
    MAX_RESET_SCORE,
    OTHERS_HAND,
    OTHERS_HIGHER,
    R_ASAF,
    R_DECKS,
    R_JOKERS,
    R_KLUFT_PEN,
    R_LIMIT,
    R_OTHERS,
    R_OUT_OVER,
    R_RESET,
    R_THREE,
    R_THREE_ONCE,
)
from simcards.nbutil import njit_by_type
from simcards.rng import shuffle


@njit_by_type(cache=True, _nrt=False, inline="always")
def next_seat(seat, alive, players, ccw):
    """The next player still in the game in the direction of play (Y-PLAY-2)."""
    s = seat
    while True:  # one step at a time, wrapping around (no division)
        if ccw:
            s = players - 1 if s == 0 else s - 1
        else:
            s = 0 if s == players - 1 else s + 1
        if alive[s]:
            return s


# --- a hand: a sorted list of faces -----------------------------------------------------------------
@njit_by_type(cache=True, _nrt=False, inline="always")
def insert_sorted(hand, n, card):
    """Put ``card`` into the ascending ``hand[:n]``; returns the new length."""
    j = n
    while j > 0 and hand[j - 1] > card:
        hand[j] = hand[j - 1]
        j -= 1
    hand[j] = card
    return n + 1


@njit_by_type(cache=True, _nrt=False, inline="always")
def remove_card(hand, n, card):
    """Take one ``card`` out of the ascending ``hand[:n]``; returns the new length."""
    for i in range(n):
        if hand[i] == card:
            for j in range(i, n - 1):
                hand[j] = hand[j + 1]
            return n - 1
    return n


@njit_by_type(cache=True, _nrt=False, inline="always")
def throw(hand, n, group, length):
    """Y-DIS: the cards of ``group[:length]`` leave the hand; returns the new length."""
    for j in range(length):
        n = remove_card(hand, n, group[j])
    return n


# --- the deck and the deal -----------------------------------------------------------------------------
@njit_by_type(cache=True, inline="always")
def build_deck(rules, deck):
    """Faces of the deck in id order (Y-CARD-1, Y-CARD-3)."""
    n = 0
    for _ in range(rules[R_DECKS]):
        for face in range(52 + rules[R_JOKERS]):
            deck[n] = face
            n += 1
    return n


@njit_by_type(cache=True, _nrt=False, inline="always")
def deal(rules, rng, players, alive, hands, hand_n, stock, prev):
    """Y-DEAL-1/2: shuffle the deck into ``stock`` with the deal's stream, five cards to each player
    still in, one at a time from the top, then the next card face up (``prev[0]``). Returns the
    stock's size."""
    stock_n = build_deck(rules, stock)
    shuffle(rng, stock, stock_n)
    for p in range(players):
        hand_n[p] = 0
    for _ in range(HAND_SIZE):
        for p in range(players):
            if alive[p]:
                stock_n -= 1
                hand_n[p] = insert_sorted(hands[p], hand_n[p], stock[stock_n])
    stock_n -= 1
    prev[0] = stock[stock_n]
    return stock_n


# --- scoring -----------------------------------------------------------------------------------------
@njit_by_type(cache=True, _nrt=False, inline="always")
def apply_reset(score, rules):
    """Y-RESET-1 / Y-V-RESET: at most one reset, looked up in the rules table."""
    if 0 <= score <= MAX_RESET_SCORE:
        new = rules[R_RESET + score]
        if new >= 0:
            return new
    return score


@njit_by_type(cache=True, _nrt=False, inline="always")
def score_round(caller, totals, alive, players, rules, round_scores):
    """Y-SC-1/2 and the failed-call variants: fill ``round_scores``; return True on Asaf.
    ``caller`` -1 (the turn cap) makes everyone add their hand."""
    for p in range(players):
        round_scores[p] = 0
    if caller < 0:
        for p in range(players):
            if alive[p]:
                round_scores[p] = totals[p]
        return False
    mine = totals[caller]
    asaf = False
    for p in range(players):
        if alive[p] and p != caller and totals[p] <= mine:
            asaf = True
    others = rules[R_OTHERS]
    if rules[R_LIMIT] >= 0 and mine > rules[R_LIMIT]:
        # Y-V-OVERCALL: a call above the limit always costs hand + penalty; the others add their hands.
        asaf = True
        others = OTHERS_HAND
    for p in range(players):
        if not alive[p] or p == caller:
            continue
        if not asaf or others == OTHERS_HAND:
            round_scores[p] = totals[p]
        elif others == OTHERS_HIGHER:
            round_scores[p] = totals[p] if totals[p] > mine else 0
    if asaf:
        round_scores[caller] = mine + rules[R_ASAF]
    return asaf


@njit_by_type(cache=True, _nrt=False, inline="always")
def score_kluft(claims, n_claims, totals, alive, players, rules, round_scores):
    """Y-V-KLUFT scoring. ``claims[:n_claims]`` holds the Kluft caller then the onderkluft callers
    in the order they called. Nobody challenged: the caller scores 0, everyone else adds their
    hand. Otherwise the lowest hand among the callers wins (ties: the earliest caller) and scores
    0, every other caller adds hand + ``kluft_penalty``, the players who revealed add their hands.
    Returns the winner."""
    for p in range(players):
        round_scores[p] = totals[p] if alive[p] else 0
    winner = claims[0]
    for i in range(1, n_claims):
        if totals[claims[i]] < totals[winner]:
            winner = claims[i]
    for i in range(n_claims):
        c = claims[i]
        round_scores[c] = 0 if c == winner else totals[c] + rules[R_KLUFT_PEN]
    return winner


@njit_by_type(cache=True, _nrt=False, inline="always")
def settle_round(scores, round_scores, alive, zeros, players, n_alive, playoff, rules):
    """Y-RESET-1's order: (1) add the round, (2) Y-V-THREE, (3) at most one reset, (4) eliminate
    (Y-ELIM-1); everyone left over the limit together starts a play-off (Y-ELIM-2) in which only
    the lowest stay. Returns ``(n_alive, playoff, eliminated seats as a bit mask)``."""
    counts_zero = rules[R_THREE] != 0 and n_alive > 2
    out_over = rules[R_OUT_OVER]
    for p in range(players):
        if not alive[p]:
            continue
        scores[p] += round_scores[p]
        if counts_zero and round_scores[p] == 0:
            zeros[p] += 1
            if zeros[p] % 3 == 0 and (rules[R_THREE_ONCE] == 0 or zeros[p] == 3):
                scores[p] = max(0, scores[p] - 20)
        if not playoff:
            scores[p] = apply_reset(scores[p], rules)
    eliminated = 0
    if not playoff:
        n_over = 0
        for p in range(players):
            if alive[p] and scores[p] > out_over:
                n_over += 1
        if n_over < n_alive:
            for p in range(players):
                if alive[p] and scores[p] > out_over:
                    alive[p] = False
                    eliminated |= 1 << p
                    n_alive -= 1
        else:
            playoff = True
    if playoff:
        low = scores[0]
        for p in range(players):
            if alive[p]:
                low = scores[p]
        for p in range(players):
            if alive[p] and scores[p] < low:
                low = scores[p]
        for p in range(players):
            if alive[p] and scores[p] != low:
                alive[p] = False
                eliminated |= 1 << p
                n_alive -= 1
    return n_alive, playoff, eliminated
