"""Built-in Yaniv strategies, as jitted decision functions with one signature.

Every decision a player makes goes through::

    decide(kind, params, hand, n, opts, n_opts, view, rules, rng) -> option index

``kind`` is ``K_CALL`` (options: 0 play on, 1 call), ``K_DISCARD`` (options: legal groups as
laid) or ``K_DRAW`` (options: ``[1, face]``, face -1 = stock), and with the section-5 options
``K_OVERCALL``, ``K_REQUEST``, ``K_GRANT``, ``K_SLAM`` and ``K_ONDER`` (see ``layout``). ``hand[:n]`` is the player's own
sorted hand, ``view`` the public view (layout.V_*), ``rules`` the encoded rules, ``rng`` the seat's
own random stream (not the deal's: ``simcards.rng``). A strategy sees nothing else — no other hand, no stock order.
"""

from __future__ import annotations

import numpy as np

from simcards.games.yaniv import params as P
from simcards.games.yaniv.layout import (
    K_CALL,
    K_DISCARD,
    K_GRANT,
    K_OVERCALL,
    K_REQUEST,
    K_SLAM,
    V_ALIVE_N,
    V_AVAIL,
    V_AVAIL_N,
    V_CALLER_BEATEN,
    V_CALLER_CALLS,
    V_ONDER_N,
    V_REQ_FACE,
    V_SCORES,
    V_SEAT,
    V_STOCK,
    V_THROWN,
    V_THROWN_N,
    V_TOTAL,
    V_TURN,
)
from simcards.games.yaniv.params import slot
from simcards.games.yaniv.rules import (
    MAX_RESET_SCORE,
    PICK_TOP,
    R_ASAF,
    R_KLUFT,
    R_KLUFT_PEN,
    R_PICKUP,
    R_RESET,
    R_VALUES,
    R_WILD,
)
from simcards.nbutil import njit_by_type
from simcards.rng import next_u64, rand_below

SID_RANDOM = 0
SID_THRESHOLD = 1
FIRST_CUSTOM_SID = 100
N_PARAMS = 24  # width of each seat's parameter vector (game.seat_arrays)

P_ASK = slot(P.RANDOM, "ask")  # random family: probability of asking when polled for a request (Y-V-REQ)
# threshold family parameters (positions in the params vector, by name: params.py)
P_CALL, P_KEEP, P_STOCK, P_JOKER_END = (slot(P.THRESHOLD, name) for name in ("call", "keep", "stock", "joker_end"))
P_REQUEST, P_REFUSE, P_GROUP, P_SLAM, P_ONDER, P_ONDER_HIST, P_TOP, P_RESET_AIM = (
    slot(P.THRESHOLD, name) for name in ("request", "refuse", "group", "slam", "onder", "onder_history", "top",
                                         "reset_aim"))


@njit_by_type(cache=True, _nrt=False, inline="always")
def random_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """Uniform over the legal options of each decision (call or not, which group, which draw),
    except a Y-V-REQ poll: ask with probability ``ask`` / (players who may be polled this turn),
    then for a uniform available card, so that a table of random players sees a request in about
    ``ask`` of the turns whatever its size. (Uniform over "no" and every card asked nearly every
    turn: every request adds a card to a hand, the hands filled up to the guard and rounds seldom
    ended.) Every other decision draws from ``rng`` exactly as before."""
    if kind == K_REQUEST:
        # the mover and the previous discarder are never polled; on a deal's first turn there is none
        pollable = view[V_ALIVE_N] - (1 if view[V_TURN] == 0 else 2)
        if _unit(rng) * max(pollable, 1) >= params[P_ASK]:
            return 0
        return 1 + rand_below(rng, n_opts - 1)
    return rand_below(rng, n_opts)


@njit_by_type(cache=True, _nrt=False, inline="always")
def _unit(rng):
    """A uniform float in [0, 1) from the seat's stream (53 bits)."""
    return float(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# Rank and suit of every face (jokers: rank 13, suit 4), as constant tables.
RANK = np.array([f % 13 for f in range(52)] + [13, 13], dtype=np.int64)
ONE = np.int64(1)
SUIT = np.array([f // 13 for f in range(52)] + [4, 4], dtype=np.int64)


@njit_by_type(cache=True, _nrt=False, inline="always")
def builds_group(card, counts, lanes, jokers, wild):
    """Would ``card`` form a legal multi-card group with a hand summarised by ``counts`` (4 bits
    per rank), ``lanes`` (bit = face id of each natural) and ``jokers``? A same-rank natural
    makes a set; two cards (or wild jokers) completing a 3-run with it make a run."""
    if card >= 52:
        return False
    rank = RANK[card]
    if counts >> (4 * rank) & 15:
        return True
    lane = lanes >> (13 * SUIT[card]) & 0x1FFF
    spare = jokers if wild else 0
    for start in range(max(0, rank - 2), min(rank, 10) + 1):
        missing = 0
        for q in range(start, start + 3):
            if q != rank and not (lane >> q & 1):
                missing += 1
        if missing <= spare and missing < 2:
            return True
    return False


@njit_by_type(cache=True, _nrt=False, inline="always")
def _draw_cost(card, value, counts, lanes, jokers, wild, thrown_max, keep, stock):
    """Expected value a draw adds to the hand (``card`` -1: the stock), or a large number when
    the heuristic refuses it. An available card is taken only if it is lower than the highest card
    thrown or builds a group (guarding against swapping equal cards forever, PERFORMANCE.md).
    Scalars only: small helpers taking arrays pay for reference counting on every call."""
    if card < 0:
        return stock
    if builds_group(card, counts, lanes, jokers, wild):
        return value - keep * value
    if value < thrown_max:
        return float(value)
    return 1e9


@njit_by_type(cache=True, _nrt=False, inline="always")
def hand_summary(hand, n):
    """(rank counts 4 bits a rank, faces present as bits, jokers, any face held twice)."""
    counts = np.int64(0)
    lanes = np.int64(0)
    jokers = 0
    dup = False
    for i in range(n):
        c = hand[i]
        if c >= 52:
            jokers += 1
        else:
            if lanes >> c & 1:
                dup = True
            counts += ONE << (4 * RANK[c])
            lanes |= ONE << c
    return counts, lanes, jokers, dup


@njit_by_type(cache=True, _nrt=False, inline="always")
def _lanes_left(hand, n, row, length, face):
    """The bit of ``face`` if a copy of it stays in the hand once ``row`` is thrown."""
    held = 0
    for i in range(n):
        if hand[i] == face:
            held += 1
    for j in range(length):
        if row[1 + j] == face:
            held -= 1
    return (ONE << face) if held > 0 else np.int64(0)


@njit_by_type(cache=True, _nrt=False, inline="always")
def _has_natural(row, length):
    for j in range(1, length + 1):
        if row[j] < 52:
            return True
    return False


@njit_by_type(cache=True, _nrt=False)
def threshold_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """The ``threshold`` family: call at or under ``call``; throw the group leaving the lowest
    expected hand (kept pairs and the best available draw count, weighted by ``keep``); take an
    available card when it is lower than what was thrown or builds a group, else the stock;
    runs with a joker at an end (a gift to the next player) cost ``joker_end``."""
    if kind == K_CALL:
        return threshold_calls(view[V_SCORES + view[V_SEAT]], view[V_TOTAL], params, rules)
    if kind >= K_OVERCALL:
        return variant_decide(kind, params, hand, n, opts, n_opts, view, rules)
    keep = params[P_KEEP]
    wild = rules[R_WILD] != 0
    if kind == K_DISCARD:
        stock = params[P_STOCK] if view[V_STOCK] > 0 else 1e9
        n_avail = view[V_AVAIL_N]
        total = view[V_TOTAL]
        # The whole hand summarised once: rank counts (4 bits a rank), faces present, jokers,
        # ranks held twice or more (the only ones a kept set can come from).
        counts_all, lanes_all, jokers_all, dup = hand_summary(hand, n)
        pairs = 0
        for r in range(13):
            if counts_all >> (4 * r) & 14:
                pairs |= 1 << r
        top_only = rules[R_PICKUP] == PICK_TOP
        best = 0
        best_cost = 1e18
        for a in range(n_opts):
            length = opts[a, 0]
            shed = 0
            thrown_max = 0
            counts = counts_all
            lanes = lanes_all
            jokers = jokers_all
            for j in range(length):  # what is left once the group is thrown
                c = opts[a, 1 + j]
                v = rules[R_VALUES + c]
                shed += v
                if v > thrown_max:
                    thrown_max = v
                if c >= 52:
                    jokers -= 1
                else:
                    counts -= ONE << (4 * RANK[c])
                    lanes &= ~(ONE << c)
            if dup:  # two copies of a face: a face thrown once may still be in the hand
                lanes = 0
                for i in range(n):
                    c = hand[i]
                    if c < 52 and counts >> (4 * RANK[c]) & 15:
                        lanes |= _lanes_left(hand, n, opts[a], length, c)
            kept = 0  # points a kept set lets the player shed beyond its first card
            rest_pairs = pairs
            while rest_pairs:
                r = 0
                while not (rest_pairs >> r & 1):
                    r += 1
                rest_pairs &= rest_pairs - 1
                extra = ((counts >> (4 * r) & 15) - 1) * rules[R_VALUES + r]
                if extra > kept:
                    kept = extra
            draw = stock
            for t in range(n_avail):
                card = view[V_AVAIL + t]
                d = _draw_cost(card, rules[R_VALUES + card], counts, lanes, jokers, wild, thrown_max, keep, stock)
                if d < draw:
                    draw = d
            cost = total - shed + draw - keep * kept
            if length >= 3 and (opts[a, 1] >= 52 or opts[a, length] >= 52) and _has_natural(opts[a], length):
                cost += params[P_JOKER_END]  # a run (not a joker set) with a joker at an end
            if top_only and length >= 2:  # Kluft: the card left on top is the next player's to take
                cost += params[P_TOP] * (13 - rules[R_VALUES + opts[a, length]]) / 13.0
            if cost < best_cost:
                best_cost = cost
                best = a
        return best
    return threshold_draw(params, hand, n, opts, n_opts, view, rules)


@njit_by_type(cache=True, _nrt=False, inline="always")
def threshold_draw(params, hand, n, opts, n_opts, view, rules):
    """The threshold family's draw (``K_DRAW``; ``hand`` is already without the thrown group): the
    option of lowest ``_draw_cost``, the stock at ``stock``."""
    thrown_max = 0
    for j in range(view[V_THROWN_N]):
        v = rules[R_VALUES + view[V_THROWN + j]]
        if v > thrown_max:
            thrown_max = v
    counts, lanes, jokers, _ = hand_summary(hand, n)
    keep = params[P_KEEP]
    wild = rules[R_WILD] != 0
    best = 0
    best_cost = 1e18
    for o in range(n_opts):
        card = opts[o, 1]
        value = rules[R_VALUES + card] if card >= 0 else 0
        cost = _draw_cost(card, value, counts, lanes, jokers, wild, thrown_max, keep, params[P_STOCK])
        if cost < best_cost:
            best_cost = cost
            best = o
    return best


@njit_by_type(cache=True, _nrt=False, inline="always")
def threshold_calls(score, total, params, rules):
    """The threshold family's call: at or under ``call``, or to land on a reset (``reset_aim``)."""
    if total <= params[P_CALL]:
        return 1
    return 1 if params[P_RESET_AIM] > 0 and lands_on_reset(score, total, rules) else 0


@njit_by_type(cache=True, _nrt=False, inline="always")
def _lands_on_reset(view, rules):
    return lands_on_reset(view[V_SCORES + view[V_SEAT]], view[V_TOTAL], rules)


@njit_by_type(cache=True, _nrt=False, inline="always")
def lands_on_reset(score, total, rules):
    """Would losing this call land the caller exactly on a reset score (Y-RESET-1's deliberate
    call, e.g. 166 + 4 + 30 = 200 → 100)? The loss costs hand + Asaf (or Kluft) penalty."""
    penalty = rules[R_KLUFT_PEN] if rules[R_KLUFT] != 0 else rules[R_ASAF]
    after = score + total + penalty
    return after <= MAX_RESET_SCORE and rules[R_RESET + after] >= 0


@njit_by_type(cache=True, _nrt=False)
def _group_score(card, hand, n, params, rules, skip):
    """A card's value minus ``group`` if it builds a group with ``hand[:n]`` (one copy of ``skip``
    left out: the card itself when it is already in the hand)."""
    counts = np.int64(0)
    lanes = np.int64(0)
    jokers = 0
    skipped = False
    for i in range(n):
        c = hand[i]
        if c == skip and not skipped:
            skipped = True
            continue
        if c >= 52:
            jokers += 1
        else:
            counts += ONE << (4 * RANK[c])
            lanes |= ONE << c
    v = float(rules[R_VALUES + card])
    if builds_group(card, counts, lanes, jokers, rules[R_WILD] != 0):
        v -= params[P_GROUP]
    return v


@njit_by_type(cache=True, _nrt=False)
def variant_decide(kind, params, hand, n, opts, n_opts, view, rules):
    """The threshold family's section-5 decisions (each tunable):
    overcall only to land on a reset (``reset_aim``); request the available card scoring lowest
    (value minus ``group`` if it builds a group) when that score is at most ``request``; refuse a
    request (keep the card) when its score for the mover is at most ``refuse``; slam (``slam``
    0 never, 1 when it lowers the hand without breaking a group, 2 always); onderkluft at or
    under ``onder`` + ``onder_history`` x the caller's smoothed rate of being beaten, 1 lower per
    earlier onderkluft."""
    if kind == K_OVERCALL:
        return 1 if params[P_RESET_AIM] > 0 and _lands_on_reset(view, rules) else 0
    if kind == K_REQUEST:
        best = 0
        best_score = params[P_REQUEST]
        for o in range(1, n_opts):
            score = _group_score(opts[o, 1], hand, n, params, rules, -1)
            if score <= best_score:
                best_score = score
                best = o
        return best
    if kind == K_GRANT:
        return 0 if _group_score(view[V_REQ_FACE], hand, n, params, rules, -1) <= params[P_REFUSE] else 1
    if kind == K_SLAM:
        mode = params[P_SLAM]
        if mode >= 2:
            return 1
        if mode <= 0:
            return 0
        card = opts[1, 1]
        value = rules[R_VALUES + card]
        return 1 if value > 0 and _group_score(card, hand, n, params, rules, card) >= value else 0
    # K_ONDER
    calls = view[V_CALLER_CALLS]
    rate = (view[V_CALLER_BEATEN] + 1.0) / (calls + 2.0)
    threshold = params[P_ONDER] + params[P_ONDER_HIST] * rate - view[V_ONDER_N]
    return 1 if view[V_TOTAL] <= threshold else 0


@njit_by_type(cache=True, _nrt=False)
def builtin_decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
    if sid == SID_RANDOM:
        return random_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)
    return threshold_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)


@njit_by_type(cache=True, _nrt=False)
def kernel_decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
    """``builtin_decide`` as the kernel asks it. The kernel answers a threshold seat's call,
    discard and draw itself (``fast.py``, the same choices), so only threshold's section-5
    decisions come here: ``threshold_decide``'s table scoring stays out of the compiled kernel."""
    if sid == SID_RANDOM:
        return random_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)
    return variant_decide(kind, params, hand, n, opts, n_opts, view, rules)
