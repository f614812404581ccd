"""The Yaniv numba kernel: deal, turn loop, scoring, a whole game, a batch of games.

Every decision goes through ``decide`` (the built-in strategies; ``make_engine`` rebuilds the
kernel around a dispatcher that also knows user policies). A batch runs in parallel over chunks of games; game
``g`` draws only from its own streams (the deal's, keyed by ``(seed, g)``, and one per seat for its
strategy: ``simcards.rng``) and writes only its own rows, so results do not depend on threads or
batch size. A strategy is handed its seat's stream, never the deal's.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types

from simcards.games.transcript import called_cards as _log_cards
from simcards.games.transcript import called_event as _log
from simcards.games.yaniv.fast import threshold_turn
from simcards.games.yaniv.groups import (
    SCRATCH,
    available_faces,
    hand_total,
    legal_groups,
    slam_position,
    take_from_group,
)
from simcards.games.yaniv.layout import (  # the transcript events (layout.py declares them)
    DECK_MAX,
    EV_CALL,
    EV_DISCARD,
    EV_DRAW,
    EV_GRANT,
    EV_HAND,
    EV_ONDER,
    EV_REQUEST,
    EV_RESHUFFLE,
    EV_ROUND,
    EV_SCORE,
    EV_SLAM,
    EV_UPCARD,
    G_ASAFS,
    G_BAD,
    G_CALLS,
    G_CAPPED,
    G_CAPPED_ROUNDS,
    G_OVERCALLS,
    G_PLAYOFF_ROUNDS,
    G_ROUNDS,
    G_SCORES,
    G_STARTER,
    G_TURNS,
    G_WINNER,
    K_CALL,
    K_DISCARD,
    K_DRAW,
    K_GRANT,
    K_ONDER,
    K_OVERCALL,
    K_REQUEST,
    K_SLAM,
    LOG_WIDTH,
    MAX_HAND,
    MAX_OPTIONS,
    MAX_PLAYERS,
    N_FACES,
    RD_ASAF,
    RD_CALLER,
    RD_CAPPED,
    RD_ELIMINATED,
    RD_HANDS,
    RD_PLAYOFF,
    RD_ROUND,
    RD_STARTER,
    RD_TURNS,
    REQUEST_HAND_LIMIT,
    ROUND_CAP,
    ROW,
    TURN_CAP,
    V_ALIVE,
    V_ALIVE_N,
    V_AVAIL,
    V_AVAIL_N,
    V_BAD,
    V_CALLER,
    V_CALLER_BEATEN,
    V_CALLER_CALLS,
    V_KNOWN,
    V_ONDER_N,
    V_PLAYERS,
    V_REQ_FACE,
    V_REQ_SEAT,
    V_REVEALED,
    V_ROUND,
    V_SCORES,
    V_SEAT,
    V_SEEN,
    V_SIZES,
    V_STARTER,
    V_STOCK,
    V_THROWN,
    V_THROWN_N,
    V_TOTAL,
    V_TURN,
    VIEW_SIZE,
)
from simcards.games.yaniv.policies import SID_THRESHOLD, threshold_calls
from simcards.games.yaniv.rules import (
    MAX_RESET_SCORE,
    OTHERS_HAND,
    OTHERS_HIGHER,
    R_ASAF,
    R_CCW,
    R_DECKS,
    R_FULL_TURN,
    R_JOKERS,
    R_KLUFT,
    R_KLUFT_PEN,
    R_LIMIT,
    R_ONDER_ANY,
    R_OTHERS,
    R_OUT_OVER,
    R_OVERCALL,
    R_PICKUP,
    R_REQUESTS,
    R_RESET,
    R_SLAM,
    R_THREE,
    R_THREE_ONCE,
)
from simcards.games.yaniv.search import kernel_decide as decide  # the built-ins, informed and mc too
from simcards.nbutil import borrow, compiled_as, keep_alive, njit_by_type, rebind
from simcards.rng import rand_below, seed_streams, shuffle

# The working memory of one game, carved out of a single int64 array.
_SCRATCH_ALL = SCRATCH + 2 * MAX_HAND
_W_HANDS = 0
_W_HAND_N = _W_HANDS + MAX_PLAYERS * MAX_HAND
_W_STOCK = _W_HAND_N + MAX_PLAYERS
_W_PILE = _W_STOCK + DECK_MAX
_W_PREV = _W_PILE + DECK_MAX
_W_KEYS = _W_PREV + MAX_HAND
_W_OPTS = _W_KEYS + MAX_OPTIONS
_W_VIEW = _W_OPTS + MAX_OPTIONS * ROW
_W_TOTALS = _W_VIEW + VIEW_SIZE
_W_ROUND_SCORES = _W_TOTALS + MAX_PLAYERS
_W_SCORES = _W_ROUND_SCORES + MAX_PLAYERS
_W_ZEROS = _W_SCORES + MAX_PLAYERS
_W_CLAIMS = _W_ZEROS + MAX_PLAYERS  # Kluft: the caller, then the onderkluft callers in order
_W_KCALLS = _W_CLAIMS + MAX_PLAYERS  # Kluft calls made so far this game, per seat
_W_KBEATEN = _W_KCALLS + MAX_PLAYERS  # ... and how many of them an onderkluft beat
_W_COUNT = _W_KBEATEN + MAX_PLAYERS  # section-5 counters, indexed like G_OVERCALLS..G_ONDER_WINS
_W_SCRATCH = _W_COUNT + 8
_WORK_SIZE = _W_SCRATCH + _SCRATCH_ALL

# play_round is compiled from one source twice: as ``play_round`` (every strategy, every option)
# and as ``play_round_threshold``, with THRESHOLD_ONLY = True, for games in which every seat plays
# the built-in threshold strategy and no section-5 decision can arise (no overcall, requests, slam
# or Kluft: ``threshold_only``). numba drops the branches such games never take, so the default
# engine compiles in about two thirds of the time; the code and the games are the same.
THRESHOLD_ONLY = False

# Counter slots in the working memory (added to G_OVERCALLS at the end of the game).
C_OVERCALLS, C_REQUESTS, C_GRANTED, C_REQ_BLOCKED, C_SLAMS, C_ONDER, C_ONDER_WINS, C_FULL_TABLES = range(8)


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


@njit_by_type(cache=True, _nrt=False, inline="always")
def insert_sorted(hand, n, card):
    j = n
    while j > 0 and hand[j - 1] > card:
        hand[j] = hand[j - 1]
        j -= 1
    hand[j] = card
    return n + 1


@njit_by_type(cache=True, _nrt=False, inline="always")
def remove_card(hand, n, card):
    for i in range(n):
        if hand[i] == card:
            for j in range(i, n - 1):
                hand[j] = hand[j + 1]
            return n - 1
    return n


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


@njit_by_type(cache=True, _nrt=False)
def fill_view(view, seat, players, n_alive, turn, stock_n, rnd, total, starter, scores, hand_n, alive):
    view[V_SEAT] = seat
    view[V_PLAYERS] = players
    view[V_ALIVE_N] = n_alive
    view[V_TURN] = turn
    view[V_STOCK] = stock_n
    view[V_ROUND] = rnd
    view[V_TOTAL] = total
    view[V_STARTER] = starter
    for p in range(players):
        view[V_SCORES + p] = scores[p]
        view[V_SIZES + p] = hand_n[p]
        view[V_ALIVE + p] = 1 if alive[p] else 0

@njit_by_type(cache=True, _nrt=False, inline="always")
def mem_deal(view, upcard):
    """A new round's public memory: only the face-up card has been seen, no hand card is known."""
    for f in range(N_FACES):
        view[V_SEEN + f] = 0
    for p in range(MAX_PLAYERS):
        view[V_KNOWN + p] = 0
    view[V_SEEN + upcard] = 1


@njit_by_type(cache=True, _nrt=False, inline="always")
def mem_throw(view, seat, cards, length):
    """``seat`` laid ``cards[:length]`` on the pile: seen, and no longer known to be in its hand."""
    for j in range(length):
        c = cards[j]
        view[V_SEEN + c] += 1
        view[V_KNOWN + seat] &= ~(np.int64(1) << c)


@njit_by_type(cache=True, _nrt=False, inline="always")
def mem_take(view, seat, face):
    """``seat`` took ``face`` from the pile (a draw or a request): known to be in its hand."""
    view[V_SEEN + face] -= 1
    view[V_KNOWN + seat] |= np.int64(1) << face


@njit_by_type(cache=True, _nrt=False, inline="always")
def mem_reshuffle(view, prev, prev_n):
    """Y-STOCK-1: the buried cards went back into the stock; only the previous discard lies face up."""
    for f in range(N_FACES):
        view[V_SEEN + f] = 0
    for j in range(prev_n):
        view[V_SEEN + prev[j]] += 1


@njit_by_type(cache=True, _nrt=False, inline="always")
def remove_face(faces, n, face):
    """Drop one ``face`` from the ascending list ``faces[:n]``; returns the new length."""
    return remove_card(faces, n, face)


@njit_by_type(cache=True, _nrt=False)
def kluft_challenges(caller, players, alive, n_alive, turn, stock_n, rnd, starter, scores, hand_n, totals,
                     rules, sids, params, rng, hand_all, opts, view, claims, kcalls, kbeaten, log, n_log):
    """Y-V-KLUFT: after a Kluft call every other player, one at a time in the direction of play
    from the caller's next, reveals or calls onderkluft (only below the call limit unless
    ``onderkluft_any``). Each sees the hands already revealed (totals in ``V_REVEALED``) and how
    many onderkluft calls were made, never a caller's cards. Fills ``claims`` (the caller first);
    returns ``(n_claims, n_log)``."""
    ccw = rules[R_CCW] != 0
    limit = rules[R_LIMIT]
    claims[0] = caller
    n_claims = 1
    s = next_seat(caller, alive, players, ccw)
    while s != caller:
        t = totals[s]
        if rules[R_ONDER_ANY] != 0 or limit < 0 or t < limit:
            fill_view(view, s, players, n_alive, turn, stock_n, rnd, t, starter, scores, hand_n, alive)
            view[V_AVAIL_N] = 0
            view[V_THROWN_N] = 0
            view[V_CALLER] = caller
            view[V_ONDER_N] = n_claims - 1
            view[V_CALLER_CALLS] = kcalls[caller]
            view[V_CALLER_BEATEN] = kbeaten[caller]
            opts[0, 0] = 1
            opts[0, 1] = 0
            opts[1, 0] = 1
            opts[1, 1] = 1
            choice = decide(K_ONDER, sids[s], params[s], hand_all[s], hand_n[s], opts, 2, view, rules, rng[1 + s:2 + s])
            n_log = _log(log, n_log, EV_ONDER, rnd, s, t, choice)
            if choice == 1:
                claims[n_claims] = s
                n_claims += 1
                s = next_seat(s, alive, players, ccw)
                continue
        view[V_REVEALED + s] = t
        s = next_seat(s, alive, players, ccw)
    for p in range(players):
        view[V_REVEALED + p] = -1
    view[V_CALLER] = 0
    view[V_ONDER_N] = 0
    view[V_CALLER_CALLS] = 0
    view[V_CALLER_BEATEN] = 0
    return n_claims, n_log


@njit_by_type(cache=True, _nrt=False)
def play_round(rnd, starter, players, n_alive, rules, sids, params, rng, w, alive, log, n_log):
    """One round from the deal to a call (or the turn cap), in the game's working memory ``w``.
    Fills ``totals`` (hand totals of the players in the game, -1 for the others) and returns
    ``(caller, turns, player_to_move, n_claims, n_log)``; caller is -1 when the round hit the cap;
    ``claims[:n_claims]`` are the Kluft callers (Y-V-KLUFT; 0 without Kluft)."""
    hands = w[_W_HANDS:_W_HANDS + MAX_PLAYERS * MAX_HAND].reshape((MAX_PLAYERS, MAX_HAND))
    hand_n = w[_W_HAND_N:_W_HAND_N + MAX_PLAYERS]
    stock = w[_W_STOCK:_W_STOCK + DECK_MAX]
    pile = w[_W_PILE:_W_PILE + DECK_MAX]
    prev = w[_W_PREV:_W_PREV + MAX_HAND]
    keys = w[_W_KEYS:_W_KEYS + MAX_OPTIONS]
    opts = w[_W_OPTS:_W_OPTS + MAX_OPTIONS * ROW].reshape((MAX_OPTIONS, ROW))
    view = w[_W_VIEW:_W_VIEW + VIEW_SIZE]
    totals = w[_W_TOTALS:_W_TOTALS + MAX_PLAYERS]
    scores = w[_W_SCORES:_W_SCORES + MAX_PLAYERS]
    scratch = w[_W_SCRATCH:_W_SCRATCH + _SCRATCH_ALL]
    claims = w[_W_CLAIMS:_W_CLAIMS + MAX_PLAYERS]
    kcalls = w[_W_KCALLS:_W_KCALLS + MAX_PLAYERS]
    kbeaten = w[_W_KBEATEN:_W_KBEATEN + MAX_PLAYERS]
    count = w[_W_COUNT:_W_COUNT + 8]
    ccw = rules[R_CCW] != 0
    pickup = rules[R_PICKUP]
    limit = rules[R_LIMIT]
    overcall = rules[R_OVERCALL] != 0
    requests = rules[R_REQUESTS] != 0
    slam = rules[R_SLAM] != 0
    # Y-DEAL-1/2: shuffle, five cards each one at a time, turn the next card up.
    stock_n = build_deck(rules, stock)
    shuffle(rng, stock, stock_n)
    for p in range(players):
        hand_n[p] = 0
    for _ in range(5):
        for p in range(players):
            if alive[p]:
                stock_n -= 1
                hand_n[p] = insert_sorted(hands[p], hand_n[p], stock[stock_n])
    logging = log.shape[0] > 0  # the transcript is kept only for tests (the batch passes an empty log)
    for p in range(players):
        if logging and alive[p]:
            n_log = _log(log, n_log, EV_HAND, rnd, p, hand_n[p], 0)
            n_log = _log_cards(log, n_log, hands[p], hand_n[p], 5)
    stock_n -= 1
    prev[0] = stock[stock_n]
    prev_n = 1
    prev_seat = -1  # who threw the previous discard (-1: the face-up card)
    # The public memory (layout.V_SEEN, V_KNOWN) is kept when a seat may read it: informed, mc and
    # user policies (random and threshold never do; threshold-only games never keep it).
    track = False
    if not THRESHOLD_ONLY:
        for p in range(players):
            if sids[p] > SID_THRESHOLD:
                track = True
    if track:
        mem_deal(view, prev[0])
    pile_n = 0
    if logging:
        n_log = _log(log, n_log, EV_UPCARD, rnd, -1, prev[0], 0)
    avail = scratch[SCRATCH:SCRATCH + MAX_HAND]
    thrown = scratch[SCRATCH + MAX_HAND:SCRATCH + 2 * MAX_HAND]
    scratch = scratch[:SCRATCH]
    # Section-5 decisions read the public view in the middle of a turn: keep it up to date for all.
    variants = overcall or requests or slam
    seat = starter
    turn = 0
    caller = -1
    n_claims = 0
    while turn < TURN_CAP:
        hand = hands[seat]
        n = hand_n[seat]
        total = hand_total(hand, n, rules)
        n_avail = available_faces(prev, prev_n, pickup, avail)
        sid = sids[seat]
        par = params[seat]
        # A threshold seat's call, discard and draw are computed straight from the hand
        # (fast.threshold_turn, the same choices as policies.threshold_decide): no view needed.
        fast = sid == SID_THRESHOLD
        viewed = not fast or variants
        if not THRESHOLD_ONLY and viewed:
            fill_view(view, seat, players, n_alive, turn, stock_n, rnd, total, starter, scores, hand_n, alive)
            view[V_AVAIL_N] = n_avail
            for t in range(n_avail):
                view[V_AVAIL + t] = avail[t]
            view[V_THROWN_N] = 0
        # Y-CALL-1/2, Y-V-LIMIT: a call only at the start of the turn, within the limit
        # (Y-V-OVERCALL: above it too, as a separate decision).
        if rules[R_FULL_TURN] == 0 or turn >= n_alive:
            kind = K_CALL
            if limit >= 0 and total > limit:
                kind = K_OVERCALL if overcall else -1
            if kind >= 0:
                if THRESHOLD_ONLY or (kind == K_CALL and fast):
                    choice = threshold_calls(scores[seat], total, par, rules)
                else:
                    opts[0, 0] = 1
                    opts[0, 1] = 0
                    opts[1, 0] = 1
                    opts[1, 1] = 1
                    choice = decide(kind, sid, par, hand, n, opts, 2, view, rules, rng[1 + seat:2 + seat])
                if logging:
                    n_log = _log(log, n_log, EV_CALL, rnd, seat, total, choice)
                if choice == 1:
                    caller = seat
                    if kind == K_OVERCALL:
                        count[C_OVERCALLS] += 1
                    break
        # Y-V-REQ: askers in turn order after the mover, never the previous discarder; at most one
        # request; only while the stock can still give the mover a draw; the hand guard.
        if not THRESHOLD_ONLY and requests and stock_n > 0 and n_avail > 0:
            s = next_seat(seat, alive, players, ccw)
            asked = -1
            polled = False
            face = -1
            while s != seat:
                if s != prev_seat:
                    if hand_n[s] >= REQUEST_HAND_LIMIT or n >= REQUEST_HAND_LIMIT:
                        count[C_REQ_BLOCKED] += 1
                    else:
                        polled = True
                        # The asker's view differs from the mover's only in whose seat and total it is.
                        view[V_SEAT] = s
                        view[V_TOTAL] = hand_total(hands[s], hand_n[s], rules)
                        opts[0, 0] = 1
                        opts[0, 1] = -1
                        for t in range(n_avail):
                            opts[1 + t, 0] = 1
                            opts[1 + t, 1] = avail[t]
                        r = decide(K_REQUEST, sids[s], params[s], hands[s], hand_n[s], opts, n_avail + 1, view,
                                   rules, rng[1 + s:2 + s])
                        face = opts[r, 1]
                        n_log = _log(log, n_log, EV_REQUEST, rnd, s, face, r)
                        if r > 0:
                            asked = s
                            break
                s = next_seat(s, alive, players, ccw)
            if asked >= 0:
                count[C_REQUESTS] += 1
                view[V_SEAT] = seat
                view[V_TOTAL] = total
                view[V_REQ_FACE] = face
                view[V_REQ_SEAT] = asked
                opts[0, 0] = 1
                opts[0, 1] = 0
                opts[1, 0] = 1
                opts[1, 1] = 1
                g = decide(K_GRANT, sid, par, hand, n, opts, 2, view, rules, rng[1 + seat:2 + seat])
                n_log = _log(log, n_log, EV_GRANT, rnd, seat, face, g)
                if track:
                    mem_take(view, asked if g == 1 else seat, face)
                if g == 1:
                    count[C_GRANTED] += 1
                    hand_n[asked] = insert_sorted(hands[asked], hand_n[asked], face)
                else:
                    n = insert_sorted(hand, n, face)
                    hand_n[seat] = n
                    total = hand_total(hand, n, rules)
                prev_n = take_from_group(prev, prev_n, pickup, face)
                n_avail = remove_face(avail, n_avail, face)
            view[V_REQ_FACE] = 0
            view[V_REQ_SEAT] = 0
            if polled:  # an asker was shown their own view: the mover's view again
                view[V_SEAT] = seat
                view[V_TOTAL] = total
                if asked >= 0:
                    view[V_SIZES + asked] = hand_n[asked]
                    view[V_SIZES + seat] = n
                    view[V_AVAIL_N] = n_avail
                    for t in range(n_avail):
                        view[V_AVAIL + t] = avail[t]
        # Y-DIS: throw one legal group.
        if THRESHOLD_ONLY or fast:
            a, length, pick, n_opts = threshold_turn(hand, n, rules, par, total, stock_n, avail, n_avail, opts,
                                                     keys, scratch, thrown)
        else:
            n_opts = legal_groups(hand, n, rules, opts, keys, scratch)
            a = decide(K_DISCARD, sid, par, hand, n, opts, n_opts, view, rules, rng[1 + seat:2 + seat])
            length = opts[a, 0]
            for j in range(length):
                thrown[j] = opts[a, 1 + j]
        if n_opts >= MAX_OPTIONS:
            count[C_FULL_TABLES] += 1
        for j in range(length):
            n = remove_card(hand, n, thrown[j])
        hand_n[seat] = n
        if track:
            mem_throw(view, seat, thrown, length)
        if logging:
            n_log = _log(log, n_log, EV_DISCARD, rnd, seat, length, a)
            n_log = _log_cards(log, n_log, thrown, length, 5)
        # Y-DRAW-1/2: the stock or an available card of the previous discard.
        if not THRESHOLD_ONLY and viewed:
            view[V_STOCK] = stock_n
            view[V_SIZES + seat] = n
            view[V_TOTAL] = hand_total(hand, n, rules)
            view[V_THROWN_N] = length
            for j in range(length):
                view[V_THROWN + j] = thrown[j]
        if THRESHOLD_ONLY or fast:
            face = -1 if pick < 0 else avail[pick]
        else:
            n_draw = 0
            if stock_n > 0:
                opts[0, 0] = 1
                opts[0, 1] = -1
                n_draw = 1
            for t in range(n_avail):
                opts[n_draw, 0] = 1
                opts[n_draw, 1] = avail[t]
                n_draw += 1
            d = decide(K_DRAW, sid, par, hand, n, opts, n_draw, view, rules, rng[1 + seat:2 + seat])
            face = opts[d, 1]
        if face < 0:
            stock_n -= 1
            card = stock[stock_n]
        else:
            card = face
            prev_n = take_from_group(prev, prev_n, pickup, face)
            if track:
                mem_take(view, seat, face)
        n = insert_sorted(hand, n, card)
        hand_n[seat] = n
        if logging:
            n_log = _log(log, n_log, EV_DRAW, rnd, seat, face, card)
        # Y-V-SLAM: the card just drawn may join the group just thrown (never emptying the hand).
        if not THRESHOLD_ONLY and slam and n >= 2:
            pos = slam_position(thrown, length, card)
            if pos >= 0:
                view[V_STOCK] = stock_n
                view[V_SIZES + seat] = n
                view[V_TOTAL] = hand_total(hand, n, rules)
                opts[0, 0] = 1
                opts[0, 1] = 0
                opts[1, 0] = 1
                opts[1, 1] = card
                sl = decide(K_SLAM, sid, par, hand, n, opts, 2, view, rules, rng[1 + seat:2 + seat])
                n_log = _log(log, n_log, EV_SLAM, rnd, seat, card, sl)
                if sl == 1:
                    count[C_SLAMS] += 1
                    if track:  # mem_throw of the one card slammed
                        view[V_SEEN + card] += 1
                        view[V_KNOWN + seat] &= ~(np.int64(1) << card)
                    n = remove_card(hand, n, card)
                    hand_n[seat] = n
                    if pos == 0:
                        for j in range(length, 0, -1):
                            thrown[j] = thrown[j - 1]
                    thrown[pos] = card
                    length += 1
        # The previous discard is buried; the new group is the next player's to take from.
        for j in range(prev_n):
            pile[pile_n] = prev[j]
            pile_n += 1
        for j in range(length):
            prev[j] = thrown[j]
        prev_n = length
        prev_seat = seat
        # Y-STOCK-1: the last stock card drawn → the buried pile becomes the new stock.
        if face < 0 and stock_n == 0:
            for j in range(pile_n):
                stock[j] = pile[j]
            stock_n = pile_n
            pile_n = 0
            shuffle(rng, stock, stock_n)
            if track:
                mem_reshuffle(view, prev, prev_n)
            n_log = _log(log, n_log, EV_RESHUFFLE, rnd, seat, stock_n, 0)
        turn += 1
        seat = next_seat(seat, alive, players, ccw)
    for p in range(players):
        totals[p] = hand_total(hands[p], hand_n[p], rules) if alive[p] else -1
    if not THRESHOLD_ONLY and caller >= 0 and rules[R_KLUFT] != 0:
        n_claims, n_log = kluft_challenges(caller, players, alive, n_alive, turn, stock_n, rnd, starter, scores,
                                           hand_n, totals, rules, sids, params, rng, hands, opts, view, claims,
                                           kcalls, kbeaten, log, n_log)
        count[C_ONDER] += n_claims - 1
    return caller, turn, seat, n_claims, n_log

# ``cache`` is not among the target options: ask for it again, or the copy compiles every run
play_round_threshold = compiled_as(
    play_round, "play_round_threshold",
    njit_by_type(cache=True, **{k: v for k, v in play_round.targetoptions.items() if k != "nopython"}),
    THRESHOLD_ONLY=True)


def threshold_only(rules, sids) -> bool:
    """May these encoded rules and seats play with ``play_round_threshold``?"""
    return (all(int(s) == SID_THRESHOLD for s in sids)
            and not (rules[R_OVERCALL] or rules[R_REQUESTS] or rules[R_SLAM] or rules[R_KLUFT]))


# play_game plays its rounds through a function pointer to play_round (a first-class function of
# this type) and play_batch its games through one to play_game: each level is compiled once, on
# its own, instead of linking in and recompiling everything below it (the parallel batch code
# would hold two more copies of the engine); a user-policy engine rebuilds only play_round.
_I64, _I64_1D, _I64_2D = types.int64, types.Array(types.int64, 1, "C"), types.Array(types.int64, 2, "C")
_F64_2D, _I32_2D = types.Array(types.float64, 2, "C"), types.Array(types.int32, 2, "C")
ROUND_FN = types.FunctionType(types.UniTuple(_I64, 5)(
    _I64, _I64, _I64, _I64, _I64_1D, _I64_1D, _F64_2D, types.Array(types.uint64, 1, "C"), _I64_1D,
    types.Array(types.bool_, 1, "C"), _I64_2D, _I64))
_GAME_ARGS = (_I64, _I64, _I64_1D, _I64, _I64_1D, _F64_2D, _I64_1D, _I32_2D, _I64, _I64_2D, ROUND_FN)
GAME_FN = types.FunctionType(_I64(*_GAME_ARGS))


@njit(_I64(*_GAME_ARGS), cache=True)
def play_game(game, seed, rules, players, sids, params, out_game, rounds_out, round_cap, log, round_fn):
    """A whole game to one winner (Y-ELIM-1/2), each round played by ``round_fn``
    (``play_round``, or a user-policy engine's). ``rounds_out[:round_cap]`` receives one row a
    round; rounds past the cap are played but not written. Returns the log length."""
    # Working memory, used through borrowed views (simcards.nbutil.borrow): no reference counting
    # in the turn loop. The owners are kept alive to the end of the game (keep_alive below).
    # The game's streams (simcards.rng.seed_streams): the deal's in rng[0], read by the shuffles and
    # the first starter; seat s's strategy stream in rng[1 + s], the only one its decisions see.
    rng_owner = np.zeros(1 + MAX_PLAYERS, dtype=np.uint64)
    rng = borrow(rng_owner)
    seed_streams(rng, seed, game)
    ccw = rules[R_CCW] != 0
    work = np.zeros(_WORK_SIZE, dtype=np.int64)
    w = borrow(work)
    view = w[_W_VIEW:_W_VIEW + VIEW_SIZE]
    totals = w[_W_TOTALS:_W_TOTALS + MAX_PLAYERS]
    round_scores = w[_W_ROUND_SCORES:_W_ROUND_SCORES + MAX_PLAYERS]
    scores = w[_W_SCORES:_W_SCORES + MAX_PLAYERS]
    zeros = w[_W_ZEROS:_W_ZEROS + MAX_PLAYERS]
    claims = w[_W_CLAIMS:_W_CLAIMS + MAX_PLAYERS]
    kcalls = w[_W_KCALLS:_W_KCALLS + MAX_PLAYERS]
    kbeaten = w[_W_KBEATEN:_W_KBEATEN + MAX_PLAYERS]
    count = w[_W_COUNT:_W_COUNT + 8]
    for p in range(MAX_PLAYERS):
        view[V_REVEALED + p] = -1
    kluft = rules[R_KLUFT] != 0
    alive_owner = np.zeros(MAX_PLAYERS, dtype=np.bool_)
    alive = borrow(alive_owner)
    rules = borrow(rules)
    sids = borrow(sids)
    params = borrow(params)
    log_owner = log
    log = borrow(log_owner)
    for p in range(players):
        alive[p] = True
    n_alive = players
    n_log = 0
    starter = rand_below(rng, players)  # Y-START-1: a uniformly random first starter
    first_starter = starter
    playoff = False
    winner = -1
    rnd = 0
    turns_total = 0
    calls = 0
    asafs = 0
    capped_rounds = 0
    playoff_rounds = 0
    while winner < 0:
        rnd += 1
        caller, turns, to_move, n_claims, n_log = round_fn(rnd, starter, players, n_alive, rules, sids, params, rng, w,
                                                           alive, log, n_log)
        turns_total += turns
        round_winner = -1
        if kluft and caller >= 0:
            round_winner = score_kluft(claims, n_claims, totals, alive, players, rules, round_scores)
            asaf = round_winner != caller
            kcalls[caller] += 1
            if asaf:
                kbeaten[caller] += 1
                count[C_ONDER_WINS] += 1
        else:
            asaf = score_round(caller, totals, alive, players, rules, round_scores)
        if caller >= 0:
            calls += 1
            asafs += 1 if asaf else 0
        else:
            capped_rounds += 1
        in_playoff = playoff  # a Y-ELIM-2 play-off round, not the round that may start one
        if in_playoff:
            playoff_rounds += 1
        n_alive, playoff, eliminated = settle_round(scores, round_scores, alive, zeros, players, n_alive,
                                                    playoff, rules)
        if n_alive == 1:
            for p in range(players):
                if alive[p]:
                    winner = p
        for p in range(players):
            n_log = _log(log, n_log, EV_SCORE, rnd, p, round_scores[p], scores[p])
        n_log = _log(log, n_log, EV_ROUND, rnd, caller, 1 if asaf else 0, eliminated)
        if rnd <= round_cap:
            row = rounds_out[rnd - 1]
            row[RD_ROUND] = rnd
            row[RD_STARTER] = starter
            row[RD_CALLER] = caller
            row[RD_TURNS] = turns
            row[RD_ASAF] = 1 if asaf else 0
            row[RD_ELIMINATED] = eliminated
            row[RD_PLAYOFF] = 1 if in_playoff else 0
            row[RD_CAPPED] = 1 if caller < 0 else 0
            for p in range(players):
                row[RD_HANDS + p] = totals[p]
                row[RD_HANDS + players + p] = scores[p]
        if winner >= 0:
            break
        if rnd >= ROUND_CAP:
            low = 1 << 40
            for p in range(players):
                if alive[p] and scores[p] < low:
                    low = scores[p]
                    winner = p
            out_game[G_CAPPED] = 1
            break
        # Y-START-2: the lowest hand among those still in; ties from the caller's left,
        # the caller last. Kluft (Decision): the round's winner, who scored 0, starts.
        if round_winner >= 0 and alive[round_winner]:
            starter = round_winner
            continue
        ref = caller if caller >= 0 else to_move
        best = -1
        s = ref
        for _ in range(players):
            s = (s + (players - 1 if ccw else 1)) % players
            if alive[s] and (best < 0 or totals[s] < totals[best]):
                best = s
        starter = best
    out_game[G_WINNER] = winner + keep_alive(work) + keep_alive(rng_owner) + keep_alive(alive_owner) + keep_alive(log_owner)
    out_game[G_ROUNDS] = rnd
    out_game[G_TURNS] = turns_total
    out_game[G_STARTER] = first_starter
    out_game[G_CALLS] = calls
    out_game[G_ASAFS] = asafs
    out_game[G_CAPPED_ROUNDS] = capped_rounds
    out_game[G_PLAYOFF_ROUNDS] = playoff_rounds
    for c in range(8):
        out_game[G_OVERCALLS + c] = count[c]
    for p in range(players):
        out_game[G_SCORES + p] = scores[p]
    for j in range(5):  # a user policy's bad option indices (simcards.policy)
        out_game[G_BAD + j] = view[V_BAD + j]
    return n_log

@njit(_I64(_I64, _I64, _I64, _I64_1D, _I64, _I64_1D, _F64_2D, _I64_2D, _I32_2D, _I64, GAME_FN, ROUND_FN),
      cache=True, parallel=True)
def play_batch(seed, first_game, count, rules, players, sids, params, out_games, out_rounds, round_cap, game_fn,
               round_fn):
    """Games ``first_game .. first_game + count - 1`` played by ``game_fn`` (``play_game``) with
    ``round_fn`` (``play_round``, or a user-policy engine's); row ``i`` of the outputs is game
    ``first_game + i``. ``out_rounds`` has ``round_cap`` rows per game (may be 0). Returns 0."""
    n_chunks = min(count, 64)
    empty_log = np.zeros((0, LOG_WIDTH), dtype=np.int64)
    for c in prange(n_chunks):
        lo = c * count // n_chunks
        hi = (c + 1) * count // n_chunks
        for i in range(lo, hi):
            rows = out_rounds[i * round_cap:(i + 1) * round_cap]
            game_fn(first_game + i, seed, rules, players, sids, params, out_games[i], rows, round_cap, empty_log,
                    round_fn)
    return 0


_ENGINE_FUNCTIONS = ("fill_view", "kluft_challenges", "play_round")


def make_engine(custom_decide, cache_key: str | None = None):
    """``play_round`` calling ``custom_decide`` instead of ``policies.kernel_decide`` (pass it to
    ``play_game`` and ``play_batch`` as ``round_fn``).

    The kernel is written once, at module level, around the global name ``decide`` (so the
    built-in engine is cached on disk). For user policies the same functions are rebuilt over a
    copy of this module's globals in which ``decide`` is the user's dispatcher; these copies are
    compiled once per process (numba cannot cache functions that close over other dispatchers) or,
    with ``cache_key`` (``simcards.policy.engine_key``), cached on disk under that key."""
    scope = rebind(globals(), _ENGINE_FUNCTIONS, cache_key, decide=custom_decide)
    return scope["play_round"]
