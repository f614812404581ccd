"""The Yaniv numba kernel: deal, turn loop, scoring, a whole game, a batch of games.

Every decision goes through ``decide`` (the built-in strategies), or, in an engine of user
policies or search players, through a function pointer to that engine's dispatcher
(``play_round_via``, ``make_engine``). A batch runs ranges of games on threads; game
``g`` draws only from its own streams (the deal's, keyed by ``(seed, g)``, and one per seat for its
strategy: ``simcards.rng``) and writes only its own rows, so results do not depend on threads or
batch size. A strategy is handed its seat's stream, never the deal's.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros

from simcards.games.batch import address, play_ranges
from simcards.games.transcript import called_cards as _log_cards
from simcards.games.transcript import called_event as _log
from simcards.games.yaniv import core
from simcards.games.yaniv.core import (
    available_faces,
    hand_total,
    insert_sorted,
    legal_groups,
    next_seat,
    remove_card,
    slam_position,
    take_from_group,
    throw,
)
from simcards.games.yaniv.fast import threshold_turn, threshold_turn_called
from simcards.games.yaniv.groups import SCRATCH
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
    G_WIDTH,
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
from simcards.games.yaniv.policies import kernel_decide as decide  # random and threshold (the rest attach)
from simcards.games.yaniv.rules import (
    R_CCW,
    R_DECKS,
    R_FULL_TURN,
    R_KLUFT,
    R_LIMIT,
    R_ONDER_ANY,
    R_OVERCALL,
    R_PICKUP,
    R_REQUESTS,
    R_SLAM,
    R_VALUES,
)
from simcards.nbutil import NO_ENTRY, borrow, compiled_as, keep_alive, njit_by_type, rebind
from simcards.rng import rand_below, seed_streams, shuffle

ONE = np.int64(1)

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
_W_MASKS = _W_COUNT + 8  # ``play_round_masks``: each seat's hand as a bit set of faces
_W_SCRATCH = _W_MASKS + MAX_PLAYERS
_WORK_SIZE = _W_SCRATCH + _SCRATCH_ALL

# play_round is compiled from one source twice: as ``play_round`` (every strategy, every option)
# and as ``play_round_threshold``, with THRESHOLD_ONLY = True, for games in which every seat plays
# the built-in threshold strategy and no section-5 decision can arise (no overcall, requests, slam
# or Kluft: ``threshold_only``). numba drops the branches such games never take, so the default
# engine compiles in about two thirds of the time; the code and the games are the same.
THRESHOLD_ONLY = False
# ... and as ``play_round_via``, with VIA_POINTER = True, which asks every decision of
# ``decide_fn``, a first-class function (``DECIDE_FN``): the engine of search players or user
# policies. That copy is compiled once and cached like the built-ins; an engine compiles only its
# decision function (``make_engine``), not the round around it.
VIA_POINTER = False

# Counter slots in the working memory (added to G_OVERCALLS at the end of the game).
C_OVERCALLS, C_REQUESTS, C_GRANTED, C_REQ_BLOCKED, C_SLAMS, C_ONDER, C_ONDER_WINS, C_FULL_TABLES = range(8)


# A game's working memory as a record of its parts (views into the one int64 array, no copies;
# ``public``: the public view, layout.V_*),
# and the seats' strategies as another: what the round's steps take instead of two dozen arrays.
Table = namedtuple("Table", "hands hand_n stock pile prev keys opts public totals scores scratch avail thrown claims "
                            "kcalls kbeaten count masks")
Seats = namedtuple("Seats", "sids params rng alive decide")


@njit_by_type(cache=True, _nrt=False, inline="always")
def carve(w):
    """The parts of the working memory ``w`` (the ``_W_*`` offsets)."""
    scratch = w[_W_SCRATCH:_W_SCRATCH + _SCRATCH_ALL]
    return Table(w[_W_HANDS:_W_HANDS + MAX_PLAYERS * MAX_HAND].reshape((MAX_PLAYERS, MAX_HAND)),
                 w[_W_HAND_N:_W_HAND_N + MAX_PLAYERS], w[_W_STOCK:_W_STOCK + DECK_MAX], w[_W_PILE:_W_PILE + DECK_MAX],
                 w[_W_PREV:_W_PREV + MAX_HAND], w[_W_KEYS:_W_KEYS + MAX_OPTIONS],
                 w[_W_OPTS:_W_OPTS + MAX_OPTIONS * ROW].reshape((MAX_OPTIONS, ROW)), w[_W_VIEW:_W_VIEW + VIEW_SIZE],
                 w[_W_TOTALS:_W_TOTALS + MAX_PLAYERS], w[_W_SCORES:_W_SCORES + MAX_PLAYERS], scratch[:SCRATCH],
                 scratch[SCRATCH:SCRATCH + MAX_HAND], scratch[SCRATCH + MAX_HAND:SCRATCH + 2 * MAX_HAND],
                 w[_W_CLAIMS:_W_CLAIMS + MAX_PLAYERS], w[_W_KCALLS:_W_KCALLS + MAX_PLAYERS],
                 w[_W_KBEATEN:_W_KBEATEN + MAX_PLAYERS], w[_W_COUNT:_W_COUNT + 8], w[_W_MASKS:_W_MASKS + MAX_PLAYERS])


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


# --- the decisions, asked of the seat's strategy -----------------------------------------------------------
@njit_by_type(cache=True, _nrt=False, inline="always")
def ask_yes_no(kind, seat, yes, s, t, rules):
    """A two-option decision (0: no; 1: yes, row ``[1, yes]``): a call, an overcall, a grant, a
    slam (``yes``: the card) or an onderkluft."""
    t.opts[0, 0] = 1
    t.opts[0, 1] = 0
    t.opts[1, 0] = 1
    t.opts[1, 1] = yes
    return s.decide(kind, s.sids[seat], s.params[seat], t.hands[seat], t.hand_n[seat], t.opts, 2, t.public, rules,
                  s.rng[1 + seat:2 + seat])


@njit_by_type(cache=True, _nrt=False, inline="always")
def ask_discard(seat, s, t, rules):
    """Y-DIS: the seat's choice among the legal groups, laid into ``t.thrown``; returns
    ``(choice, length, options)``."""
    hand = t.hands[seat]
    n = t.hand_n[seat]
    n_opts = legal_groups(hand, n, rules, t.opts, t.keys, t.scratch)
    a = s.decide(K_DISCARD, s.sids[seat], s.params[seat], hand, n, t.opts, n_opts, t.public, rules,
               s.rng[1 + seat:2 + seat])
    length = t.opts[a, 0]
    for j in range(length):
        t.thrown[j] = t.opts[a, 1 + j]
    return a, length, n_opts


@njit_by_type(cache=True, _nrt=False, inline="always")
def ask_draw(seat, stock_n, n_avail, s, t, rules):
    """Y-DRAW-1/2: the stock (while it has cards) or an available card; returns the face taken (-1: the stock)."""
    opts = t.opts
    n_draw = 0
    if stock_n > 0:
        opts[0, 0] = 1
        opts[0, 1] = -1
        n_draw = 1
    for a in range(n_avail):
        opts[n_draw, 0] = 1
        opts[n_draw, 1] = t.avail[a]
        n_draw += 1
    d = s.decide(K_DRAW, s.sids[seat], s.params[seat], t.hands[seat], t.hand_n[seat], opts, n_draw, t.public, rules,
               s.rng[1 + seat:2 + seat])
    return opts[d, 1]


# --- one round ----------------------------------------------------------------------------------------------
@njit_by_type(cache=True, _nrt=False, inline="always")
def start_round(rnd, players, rules, s, t, log, n_log):
    """Y-DEAL-1/2 (``core.deal``), the hands and the face-up card logged; the public memory
    (layout.V_SEEN, V_KNOWN) starts when a seat may read it: informed, mc and user policies
    (random and threshold never do). Returns ``(stock_n, track, n_log)``."""
    stock_n = core.deal(rules, s.rng, players, s.alive, t.hands, t.hand_n, t.stock, t.prev)
    logging = log.shape[0] > 0  # the transcript is kept only for tests (the batch passes an empty log)
    for p in range(players):
        if logging and s.alive[p]:
            n_log = _log(log, n_log, EV_HAND, rnd, p, t.hand_n[p], 0)
            n_log = _log_cards(log, n_log, t.hands[p], t.hand_n[p], 5)
    track = False
    for p in range(players):
        if s.sids[p] > SID_THRESHOLD:
            track = True
    if track:
        mem_deal(t.public, t.prev[0])
    if logging:
        n_log = _log(log, n_log, EV_UPCARD, rnd, -1, t.prev[0], 0)
    return stock_n, track, n_log


@njit_by_type(cache=True, _nrt=False, inline="always")
def ask_requests(seat, total, prev_n, n_avail, prev_seat, rnd, s, t, rules, track, log, n_log):
    """Y-V-REQ: askers in turn order after the mover, never the previous discarder; at most one
    request, granted or refused by the mover; the hand guard. The view is the mover's (filled).
    Returns ``(total, prev_n, n_avail, n_log)``: the mover's hand total and what is left to take."""
    view, hands, hand_n, count = t.public, t.hands, t.hand_n, t.count
    players = view[V_PLAYERS]
    n = hand_n[seat]
    s_ = next_seat(seat, s.alive, players, rules[R_CCW] != 0)
    asked = -1
    polled = False
    face = -1
    while s_ != seat:
        if s_ != prev_seat:
            if hand_n[s_] >= REQUEST_HAND_LIMIT or n >= REQUEST_HAND_LIMIT:
                count[C_REQ_BLOCKED] += 1
            else:
                polled = True
                # The asker's view differs from the mover's only in whose seat and total it is.
                view[V_SEAT] = s_
                view[V_TOTAL] = hand_total(hands[s_], hand_n[s_], rules)
                t.opts[0, 0] = 1
                t.opts[0, 1] = -1
                for a in range(n_avail):
                    t.opts[1 + a, 0] = 1
                    t.opts[1 + a, 1] = t.avail[a]
                r = s.decide(K_REQUEST, s.sids[s_], s.params[s_], hands[s_], hand_n[s_], t.opts, n_avail + 1, view,
                           rules, s.rng[1 + s_:2 + s_])
                face = t.opts[r, 1]
                n_log = _log(log, n_log, EV_REQUEST, rnd, s_, face, r)
                if r > 0:
                    asked = s_
                    break
        s_ = next_seat(s_, s.alive, players, rules[R_CCW] != 0)
    if asked >= 0:
        count[C_REQUESTS] += 1
        view[V_SEAT] = seat
        view[V_TOTAL] = total
        view[V_REQ_FACE] = face
        view[V_REQ_SEAT] = asked
        g = ask_yes_no(K_GRANT, seat, 1, s, t, rules)
        n_log = _log(log, n_log, EV_GRANT, rnd, seat, face, g)
        if track:
            mem_take(view, asked if g == 1 else seat, face)
        if g == 1:
            count[C_GRANTED] += 1
            hand_n[asked] = insert_sorted(hands[asked], hand_n[asked], face)
        else:
            n = insert_sorted(hands[seat], n, face)
            hand_n[seat] = n
            total = hand_total(hands[seat], n, rules)
        prev_n = take_from_group(t.prev, prev_n, rules[R_PICKUP], face)
        n_avail = remove_card(t.avail, n_avail, face)  # the face is no longer available
    view[V_REQ_FACE] = 0
    view[V_REQ_SEAT] = 0
    if polled:  # an asker was shown their own view: the mover's view again
        view[V_SEAT] = seat
        view[V_TOTAL] = total
        if asked >= 0:
            view[V_SIZES + asked] = hand_n[asked]
            view[V_SIZES + seat] = n
            view[V_AVAIL_N] = n_avail
            for a in range(n_avail):
                view[V_AVAIL + a] = t.avail[a]
    return total, prev_n, n_avail, n_log


@njit_by_type(cache=True, _nrt=False, inline="always")
def offer_slam(seat, card, length, stock_n, rnd, s, t, rules, track, log, n_log):
    """Y-V-SLAM: the card just drawn may join the group just thrown (``t.thrown[:length]``),
    never emptying the hand. Returns ``(length, n_log)``."""
    hand, view = t.hands[seat], t.public
    n = t.hand_n[seat]
    pos = slam_position(t.thrown, length, card)
    if pos < 0:
        return length, n_log
    view[V_STOCK] = stock_n
    view[V_SIZES + seat] = n
    view[V_TOTAL] = hand_total(hand, n, rules)
    sl = ask_yes_no(K_SLAM, seat, card, s, t, rules)
    n_log = _log(log, n_log, EV_SLAM, rnd, seat, card, sl)
    if sl == 1:
        t.count[C_SLAMS] += 1
        if track:  # mem_throw of the one card slammed
            view[V_SEEN + card] += 1
            view[V_KNOWN + seat] &= ~(np.int64(1) << card)
        t.hand_n[seat] = remove_card(hand, n, card)
        if pos == 0:
            for j in range(length, 0, -1):
                t.thrown[j] = t.thrown[j - 1]
        t.thrown[pos] = card
        length += 1
    return length, n_log


@njit_by_type(cache=True, _nrt=False)
def kluft_challenges(caller, s, t, players, n_alive, turn, stock_n, rnd, starter, rules, log, n_log):
    """Y-V-KLUFT: after a Kluft call every other player, one at a time in the direction of play
    from the caller's next, reveals or calls onderkluft (only below the call limit unless
    ``onderkluft_any``). Each sees the hands already revealed (totals in ``V_REVEALED``) and how
    many onderkluft calls were made, never a caller's cards. Fills ``claims`` (the caller first);
    returns ``(n_claims, n_log)``."""
    ccw = rules[R_CCW] != 0
    limit = rules[R_LIMIT]
    view, claims = t.public, t.claims
    claims[0] = caller
    n_claims = 1
    p = next_seat(caller, s.alive, players, ccw)
    while p != caller:
        total = t.totals[p]
        if rules[R_ONDER_ANY] != 0 or limit < 0 or total < limit:
            fill_view(view, p, players, n_alive, turn, stock_n, rnd, total, starter, t.scores, t.hand_n, s.alive)
            view[V_AVAIL_N] = 0
            view[V_THROWN_N] = 0
            view[V_CALLER] = caller
            view[V_ONDER_N] = n_claims - 1
            view[V_CALLER_CALLS] = t.kcalls[caller]
            view[V_CALLER_BEATEN] = t.kbeaten[caller]
            choice = ask_yes_no(K_ONDER, p, 1, s, t, rules)
            n_log = _log(log, n_log, EV_ONDER, rnd, p, total, choice)
            if choice == 1:
                claims[n_claims] = p
                n_claims += 1
                p = next_seat(p, s.alive, players, ccw)
                continue
        view[V_REVEALED + p] = total
        p = next_seat(p, s.alive, players, ccw)
    for q in range(players):
        view[V_REVEALED + q] = -1
    view[V_CALLER] = 0
    view[V_ONDER_N] = 0
    view[V_CALLER_CALLS] = 0
    view[V_CALLER_BEATEN] = 0
    return n_claims, n_log


@njit_by_type(cache=True, _nrt=False, inline="always")
def view_thrown(view, seat, stock_n, n, total, thrown, length):
    """The mover's view once its group is thrown, before the draw."""
    view[V_STOCK] = stock_n
    view[V_SIZES + seat] = n
    view[V_TOTAL] = total
    view[V_THROWN_N] = length
    for j in range(length):
        view[V_THROWN + j] = thrown[j]


@njit_by_type(cache=True, _nrt=False, inline="always")
def bury(pile, pile_n, prev, prev_n, thrown, length):
    """The previous discard goes under (onto ``pile``); the group just thrown becomes the previous
    discard. Returns the pile's size."""
    for j in range(prev_n):
        pile[pile_n] = prev[j]
        pile_n += 1
    for j in range(length):
        prev[j] = thrown[j]
    return pile_n


@njit_by_type(cache=True, _nrt=False, inline="always")
def restock(rng, t, pile_n, prev_n, track):
    """Y-STOCK-1: the buried pile, shuffled with the deal's stream, is the new stock; returns its size."""
    for j in range(pile_n):
        t.stock[j] = t.pile[j]
    shuffle(rng, t.stock, pile_n)
    if track:
        mem_reshuffle(t.public, t.prev, prev_n)
    return pile_n


@njit_by_type(cache=True, _nrt=False)
def play_round(rnd, starter, players, n_alive, rules, seats, w, log, n_log):
    """One round from the deal to a call (or the turn cap), in the game's working memory ``w``.
    Fills ``totals`` (hand totals of the players in the game, -1 for the others) and returns
    ``(caller, turns, player_to_move, n_claims, n_log)``; caller is -1 when the round hit the cap;
    ``claims[:n_claims]`` are the Kluft callers (Y-V-KLUFT; 0 without Kluft). Every decision goes
    to ``decide`` (the built-ins), or, in ``play_round_via``, to ``seats.decide`` (``Seats``)."""
    t = carve(w)
    if VIA_POINTER:  # a constant: numba keeps one branch
        s = seats
    else:
        s = Seats(seats.sids, seats.params, seats.rng, seats.alive, decide)
    hands, hand_n, stock, pile, prev, view, count = t.hands, t.hand_n, t.stock, t.pile, t.prev, t.public, t.count
    avail, thrown, alive = t.avail, t.thrown, s.alive
    ccw, pickup, limit = rules[R_CCW] != 0, rules[R_PICKUP], rules[R_LIMIT]
    overcall, requests, slam = rules[R_OVERCALL] != 0, rules[R_REQUESTS] != 0, rules[R_SLAM] != 0
    stock_n, track, n_log = start_round(rnd, players, rules, s, t, log, n_log)  # Y-DEAL-1/2
    track = track and not THRESHOLD_ONLY  # (threshold-only games never keep the public memory)
    logging = log.shape[0] > 0
    prev_n, prev_seat, pile_n = 1, -1, 0  # prev_seat: who threw the previous discard (-1: the face-up card)
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
        par = s.params[seat]
        # A threshold seat's call, discard and draw are computed straight from the hand
        # (fast.threshold_turn, the same choices as policies.threshold_decide): no view needed.
        fast = s.sids[seat] == SID_THRESHOLD
        viewed = not fast or variants
        if not THRESHOLD_ONLY and viewed:
            fill_view(view, seat, players, n_alive, turn, stock_n, rnd, total, starter, t.scores, hand_n, alive)
            view[V_AVAIL_N] = n_avail
            for a in range(n_avail):
                view[V_AVAIL + a] = avail[a]
            view[V_THROWN_N] = 0
        # Y-CALL-1/2, Y-V-LIMIT: a call only at the start of the turn, within the limit
        # (Y-V-OVERCALL: above it too, as a separate decision).
        if rules[R_FULL_TURN] == 0 or turn >= n_alive:
            kind = K_CALL
            if limit >= 0 and total > limit:
                kind = K_OVERCALL if overcall else -1
            if kind >= 0:
                if THRESHOLD_ONLY or (kind == K_CALL and fast):
                    choice = threshold_calls(t.scores[seat], total, par, rules)
                else:
                    choice = ask_yes_no(kind, seat, 1, s, t, rules)
                if logging:
                    n_log = _log(log, n_log, EV_CALL, rnd, seat, total, choice)
                if choice == 1:
                    caller = seat
                    if kind == K_OVERCALL:
                        count[C_OVERCALLS] += 1
                    break
        # Y-V-REQ: only while the stock can still give the mover a draw.
        if not THRESHOLD_ONLY and requests and stock_n > 0 and n_avail > 0:
            total, prev_n, n_avail, n_log = ask_requests(seat, total, prev_n, n_avail, prev_seat, rnd, s, t, rules,
                                                         track, log, n_log)
            n = hand_n[seat]
        # Y-DIS: throw one legal group.
        if THRESHOLD_ONLY or fast:
            a, length, pick, n_opts = threshold_turn(hand, n, rules, par, total, stock_n, avail, n_avail, t.opts,
                                                     t.keys, t.scratch, thrown)
        else:
            a, length, n_opts = ask_discard(seat, s, t, rules)
        if n_opts >= MAX_OPTIONS:
            count[C_FULL_TABLES] += 1
        n = throw(hand, n, thrown, length)
        hand_n[seat] = n
        if track:
            mem_throw(view, seat, thrown, length)
        if logging:
            n_log = _log(log, n_log, EV_DISCARD, rnd, seat, length, a)
            n_log = _log_cards(log, n_log, thrown, length, 5)
        # Y-DRAW-1/2: the stock or an available card of the previous discard.
        if not THRESHOLD_ONLY and viewed:
            view_thrown(view, seat, stock_n, n, hand_total(hand, n, rules), thrown, length)
        if THRESHOLD_ONLY or fast:
            face = -1 if pick < 0 else avail[pick]
        else:
            face = ask_draw(seat, stock_n, n_avail, s, t, rules)
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
        if not THRESHOLD_ONLY and slam and n >= 2:
            length, n_log = offer_slam(seat, card, length, stock_n, rnd, s, t, rules, track, log, n_log)
        # The previous discard is buried; the new group is the next player's to take from.
        pile_n = bury(pile, pile_n, prev, prev_n, thrown, length)
        prev_n = length
        prev_seat = seat
        # Y-STOCK-1: the last stock card drawn → the buried pile becomes the new stock.
        if face < 0 and stock_n == 0:
            stock_n = restock(s.rng, t, pile_n, prev_n, track)
            pile_n = 0
            n_log = _log(log, n_log, EV_RESHUFFLE, rnd, seat, stock_n, 0)
        turn += 1
        seat = next_seat(seat, alive, players, ccw)
    for p in range(players):
        t.totals[p] = hand_total(hands[p], hand_n[p], rules) if alive[p] else -1
    if not THRESHOLD_ONLY and caller >= 0 and rules[R_KLUFT] != 0:
        n_claims, n_log = kluft_challenges(caller, s, t, players, n_alive, turn, stock_n, rnd, starter, rules, log,
                                           n_log)
        count[C_ONDER] += n_claims - 1
    return caller, turn, seat, n_claims, n_log


# ``cache`` is not among the target options: ask for it again, or the copy compiles every run
_ROUND_OPTIONS = {"cache": True, **{k: v for k, v in play_round.targetoptions.items() if k != "nopython"}}
_ROUND_JIT = njit_by_type(**_ROUND_OPTIONS)
play_round_threshold = compiled_as(play_round, "play_round_threshold", _ROUND_JIT, THRESHOLD_ONLY=True)
_CALLED = njit_by_type(**NO_ENTRY, _nrt=False)


@_ROUND_JIT
def play_round_masks(rnd, starter, players, n_alive, rules, seats, w, log, n_log):
    """``play_round_threshold`` for a batch (no transcript) with one deck (``masks_only``): the same
    round, each hand kept as a bit set of faces (``t.masks``) and its running total (in
    ``t.totals``) instead of a sorted array to search, shift and add up at every turn. The
    threshold turn reads the hand as before, laid out sorted from the bits (``threshold_turn``).
    The differential tests compare its games with the logged round's."""
    t = carve(w)
    s = seats
    hands, hand_n, stock, pile, prev, masks, totals = t.hands, t.hand_n, t.stock, t.pile, t.prev, t.masks, t.totals
    avail, thrown, alive = t.avail, t.thrown, s.alive
    ccw, pickup, limit = rules[R_CCW] != 0, rules[R_PICKUP], rules[R_LIMIT]
    stock_n = core.deal(rules, s.rng, players, alive, hands, hand_n, stock, prev)  # Y-DEAL-1/2
    for p in range(players):
        masks[p] = 0
        for i in range(hand_n[p] if alive[p] else 0):
            masks[p] |= ONE << hands[p, i]
        totals[p] = hand_total(hands[p], hand_n[p], rules) if alive[p] else -1
    prev_n, pile_n = 1, 0
    seat = starter
    turn = 0
    caller = -1
    while turn < TURN_CAP:
        mask = masks[seat]
        total = totals[seat]
        n_avail = available_faces(prev, prev_n, pickup, avail)
        par = s.params[seat]
        # Y-CALL-1/2, Y-V-LIMIT: a call only at the start of the turn, within the limit
        if (rules[R_FULL_TURN] == 0 or turn >= n_alive) and (limit < 0 or total <= limit):
            if threshold_calls(t.scores[seat], total, par, rules) == 1:
                caller = seat
                break
        hand = hands[seat]  # the hand sorted, from its bits
        n = 0
        bits = mask
        while bits:
            hand[n] = trailing_zeros(bits)
            bits &= bits - 1
            n += 1
        _, length, pick, n_opts = threshold_turn(hand, n, rules, par, total, stock_n, avail, n_avail, t.opts, t.keys,
                                                 t.scratch, thrown)
        if n_opts >= MAX_OPTIONS:
            t.count[C_FULL_TABLES] += 1
        for j in range(length):  # Y-DIS: the group leaves the hand
            mask &= ~(ONE << thrown[j])
            total -= rules[R_VALUES + thrown[j]]
        if pick < 0:  # Y-DRAW-1/2: the stock or an available card of the previous discard
            stock_n -= 1
            card = stock[stock_n]
        else:
            card = avail[pick]
            prev_n = take_from_group(prev, prev_n, pickup, card)
        masks[seat] = mask | ONE << card
        totals[seat] = total + rules[R_VALUES + card]
        pile_n = bury(pile, pile_n, prev, prev_n, thrown, length)
        prev_n = length
        if pick < 0 and stock_n == 0:  # Y-STOCK-1
            stock_n = restock(s.rng, t, pile_n, prev_n, False)
            pile_n = 0
        turn += 1
        seat = next_seat(seat, alive, players, ccw)
    return caller, turn, seat, 0, n_log


def masks_only(rules, sids) -> bool:
    """May a batch (no transcript) with these encoded rules and seats play ``play_round_masks``?"""
    return threshold_only(rules, sids) and rules[R_DECKS] == 1


def _called(fn):
    """A copy of the inlined helper ``fn`` compiled on its own, for ``play_round_via`` (called from
    jitted code only: ``nbutil.NO_ENTRY``)."""
    return compiled_as(fn, fn.py_func.__name__ + "_via", _CALLED)


# The engines' copy calls its big helpers instead of inlining them: numba inlines a function by
# copying and typing its code again (seconds for these), and this round is compiled for the first
# user policy or search player, not for a plain run, whose speed its inlining is for.
# It is called through a function pointer only (its C entry point), never from Python.
play_round_via = compiled_as(
    play_round, "play_round_via", njit_by_type(**_ROUND_OPTIONS, no_cpython_wrapper=True), VIA_POINTER=True,
    threshold_turn=threshold_turn_called,
    **{f.py_func.__name__: _called(f) for f in (start_round, ask_yes_no, ask_discard, ask_draw, ask_requests,
                                                offer_slam, restock)})


def threshold_only(rules, sids) -> bool:
    """May these encoded rules and seats play with ``play_round_threshold``?"""
    return (all(int(s) == SID_THRESHOLD for s in sids)
            and not (rules[R_OVERCALL] or rules[R_REQUESTS] or rules[R_SLAM] or rules[R_KLUFT]))


# play_game plays its rounds through a function pointer to play_round (a first-class function of
# this type) and play_games its games through one to play_game: each level is compiled once, on
# its own, instead of linking in and recompiling everything below it (a parallel batch would
# compile a gufunc on top); a user-policy engine rebuilds only play_round.
_I64, _I64_1D, _I64_2D = types.int64, types.Array(types.int64, 1, "C"), types.Array(types.int64, 2, "C")
_F64_1D, _F64_2D, _I32_2D = (types.Array(types.float64, 1, "C"), types.Array(types.float64, 2, "C"),
                             types.Array(types.int32, 2, "C"))
_U64_1D = types.Array(types.uint64, 1, "C")
# decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng): the kernel's decision function
DECIDE_FN = types.FunctionType(_I64(_I64, _I64, _F64_1D, _I64_1D, _I64, _I64_2D, _I64, _I64_1D, _I64_1D, _U64_1D))
# the seats' strategies as play_game hands them to its round (``Seats``: sids, params, rng, alive, decide)
SEATS = types.NamedTuple((_I64_1D, _F64_2D, _U64_1D, types.Array(types.bool_, 1, "C"), DECIDE_FN), Seats)
ROUND_FN = types.FunctionType(types.UniTuple(_I64, 5)(_I64, _I64, _I64, _I64, _I64_1D, SEATS, _I64_1D, _I64_2D, _I64))
_GAME_ARGS = (_I64, _I64, _I64_1D, _I64, _I64_1D, _F64_2D, _I64_1D, _I32_2D, _I64, _I64_2D, ROUND_FN, DECIDE_FN)
GAME_FN = types.FunctionType(_I64(*_GAME_ARGS))


@njit_by_type(cache=True, _nrt=False, inline="always")
def next_starter(ref, totals, alive, players, ccw):
    """Y-START-2: the lowest hand among those still in; ties from ``ref``'s (the caller's) left,
    ``ref`` last."""
    best = -1
    s = ref
    for _ in range(players):
        s = (s + (players - 1 if ccw else 1)) % players
        if alive[s] and (best < 0 or totals[s] < totals[best]):
            best = s
    return best


@njit_by_type(cache=True, _nrt=False, inline="always")
def round_row(row, rnd, starter, caller, turns, asaf, eliminated, in_playoff, totals, scores, players):
    """One row of the rounds table (layout.RD_*)."""
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


@njit_by_type(cache=True, _nrt=False, inline="always")
def game_counts(out_game, count, scores, view, players):
    """The game's row: the section-5 counters, the final scores and a user policy's bad option
    indices (simcards.policy)."""
    for c in range(8):
        out_game[G_OVERCALLS + c] = count[c]
    for p in range(players):
        out_game[G_SCORES + p] = scores[p]
    for j in range(5):
        out_game[G_BAD + j] = view[V_BAD + j]


@njit(_I64(*_GAME_ARGS), cache=True)
def play_game(game, seed, rules, players, sids, params, out_game, rounds_out, round_cap, log, round_fn, decide_fn):
    """A whole game to one winner (Y-ELIM-1/2), each round played by ``round_fn``
    (``play_round``, or ``play_round_via`` asking ``decide_fn``: an engine's, ``make_engine``).
    ``rounds_out[:round_cap]`` receives one row a round; rounds past the cap are played but not
    written. Returns the log length."""
    # Working memory, used through borrowed views (simcards.nbutil.borrow): no reference counting
    # in the turn loop. The owners are kept alive to the end of the game (keep_alive below).
    # The game's streams (simcards.rng.seed_streams): the deal's in rng[0], read by the shuffles and
    # the first starter; seat s's strategy stream in rng[1 + s], the only one its decisions see.
    rng_owner = np.zeros(1 + MAX_PLAYERS, dtype=np.uint64)
    rng = borrow(rng_owner)
    seed_streams(rng[:1 + players], seed, game)  # the seats at the table only (all 21: 0.58 us a game; 4: 0.12)
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
    seats = Seats(sids, params, rng, alive, decide_fn)
    n_alive = players
    n_log = 0
    starter = rand_below(rng, players)  # Y-START-1: a uniformly random first starter
    for c in range(G_WIDTH):  # the game's row: its counters add up from 0
        out_game[c] = 0
    out_game[G_STARTER] = starter
    playoff = False
    winner = -1
    rnd = 0
    while winner < 0:
        rnd += 1
        caller, turns, to_move, n_claims, n_log = round_fn(rnd, starter, players, n_alive, rules, seats, w, log, n_log)
        out_game[G_TURNS] += turns
        round_winner = -1
        if kluft and caller >= 0:
            round_winner = core.score_kluft(claims, n_claims, totals, alive, players, rules, round_scores)
            asaf = round_winner != caller
            kcalls[caller] += 1
            if asaf:
                kbeaten[caller] += 1
                count[C_ONDER_WINS] += 1
        else:
            asaf = core.score_round(caller, totals, alive, players, rules, round_scores)
        if caller >= 0:
            out_game[G_CALLS] += 1
            out_game[G_ASAFS] += 1 if asaf else 0
        else:
            out_game[G_CAPPED_ROUNDS] += 1
        in_playoff = playoff  # a Y-ELIM-2 play-off round, not the round that may start one
        if in_playoff:
            out_game[G_PLAYOFF_ROUNDS] += 1
        n_alive, playoff, eliminated = core.settle_round(scores, round_scores, alive, zeros, players, n_alive,
                                                    playoff, rules)
        if n_alive == 1:
            for p in range(players):
                if alive[p]:
                    winner = p
        for p in range(players):
            n_log = _log(log, n_log, EV_SCORE, rnd, p, round_scores[p], scores[p])
        n_log = _log(log, n_log, EV_ROUND, rnd, caller, 1 if asaf else 0, eliminated)
        if rnd <= round_cap:
            round_row(rounds_out[rnd - 1], rnd, starter, caller, turns, asaf, eliminated, in_playoff, totals, scores,
                      players)
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
        starter = next_starter(caller if caller >= 0 else to_move, totals, alive, players, ccw)
    out_game[G_WINNER] = winner + keep_alive(work) + keep_alive(rng_owner) + keep_alive(alive_owner) + keep_alive(log_owner)
    out_game[G_ROUNDS] = rnd
    game_counts(out_game, count, scores, view, players)
    return n_log

# The run's arrays as play_games takes them, one argument: ``(rules, sids, params)``.
RUN_ARRAYS = types.Tuple((_I64_1D, _I64_1D, _F64_2D))


@njit(_I64(_I64, _I64, _I64, _I64, RUN_ARRAYS, _I64_2D, _I32_2D, _I64, GAME_FN, ROUND_FN, DECIDE_FN), cache=True,
      nogil=True)
def play_games(seed, first_game, lo, hi, arrays, out_games, out_rounds, round_cap, game_fn, round_fn, decide_fn):
    """Games ``first_game + lo .. first_game + hi - 1`` played by ``game_fn`` (``play_game``) with
    ``round_fn`` and ``decide_fn`` (as ``play_game`` takes them), ``arrays`` the encoded rules, one
    strategy id a seat and the seats' parameters; row ``i`` of the outputs is game ``first_game + i``.
    ``out_rounds`` has ``round_cap`` rows per game (may be 0). Returns 0. Releases the GIL:
    ``play_batch`` plays ranges of games on threads. (The three functions are separate arguments:
    numba converts a tuple of dispatchers to function pointers three times slower, on every call.)"""
    empty_log = np.zeros((0, LOG_WIDTH), dtype=np.int64)
    rules, sids, params = arrays
    players = sids.shape[0]
    for i in range(lo, hi):
        rows = out_rounds[i * round_cap:(i + 1) * round_cap]
        game_fn(first_game + i, seed, rules, players, sids, params, out_games[i], rows, round_cap, empty_log, round_fn,
                decide_fn)
    return 0


def play_batch(seed, first_game, count, rules, sids, params, out_games, out_rounds, round_cap, game_fn, round_fn,
               decide_fn):
    """``play_games`` over the whole batch, in ranges on threads (``games.batch.play_ranges``: not a
    ``prange``, whose gufunc would be compiled on top). The three functions go in as addresses
    (``batch.address``): an empty range call costs 12 us (``batch.entry_point``; 51 through the
    dispatcher, 141 with the functions as dispatchers)."""
    play_ranges(play_games, count, (seed, first_game),
                ((rules, sids, params), out_games, out_rounds, round_cap, address(game_fn, GAME_FN),
                 address(round_fn, ROUND_FN), address(decide_fn, DECIDE_FN)))


@njit(_I64(_I64, _I64, _F64_1D, _I64_1D, _I64, _I64_2D, _I64, _I64_1D, _I64_1D, _U64_1D), cache=True)
def no_decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
    """The ``decide_fn`` of the built-in engines (``play_round`` asks ``decide`` itself): never called."""
    return 0


@njit_by_type(cache=True, _nrt=False)
def engine_decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
    """An engine's decision function, rebuilt by ``make_engine`` around its dispatcher as ``decide``."""
    return decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng)


def make_engine(custom_decide, cache_key: str | None = None):
    """The ``decide_fn`` of an engine whose decisions go to ``custom_decide`` instead of
    ``policies.kernel_decide`` (a dispatcher over user policies or the search players; pass it
    with ``round_fn=play_round_via`` to ``play_game`` and ``play_batch``).

    ``play_round_via`` calls it through a function pointer, so the round is compiled once for
    every engine (cached like the built-ins) and an engine compiles only ``engine_decide``,
    rebuilt over a copy of this module's globals in which ``decide`` is ``custom_decide``. Such a
    copy is compiled once per process (numba cannot cache functions that close over other
    dispatchers) or, with ``cache_key`` (``simcards.policy.engine_key``), cached on disk under
    that key."""
    return rebind(globals(), ("engine_decide",), cache_key, decide=custom_decide)["engine_decide"]
