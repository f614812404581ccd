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
from simcards.games.yaniv.groups import LOWBIT13
from simcards.games.yaniv.layout import (
    K_CALL,
    K_DISCARD,
    K_GRANT,
    K_OVERCALL,
    K_REQUEST,
    K_SLAM,
    MAX_HAND,
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


# --- threshold's discard cost: ``threshold_decide``'s, the kernel's (``fast.threshold_turn``), the search's ---
def _run_table() -> np.ndarray:
    """``builds_group``'s run test for every (spare joker 0/1, rank, lane bits rank-2..rank+2):
    entry ``(spare * 14 + rank) * 32 + near`` where bit ``k`` of ``near`` is rank ``rank + k - 2``
    of the card's suit (bits outside Ace..King are never set); rank 13, a joker, never builds.
    Sets are tested separately."""
    table = np.zeros(2 * 14 * 32, dtype=np.bool_)
    _plain = getattr(builds_group, "py_func", builds_group)  # (a plain function with the jit off)
    for spare in (0, 1):
        for rank in range(13):
            for near in range(32):
                lane = 0
                for k in range(5):
                    q = rank + k - 2
                    if near >> k & 1 and 0 <= q <= 12:
                        lane |= 1 << q
                table[(spare * 14 + rank) * 32 + near] = _plain(rank, 0, lane, spare, True)
    return table


RUN_OK = _run_table()


@njit_by_type(cache=True, _nrt=False, inline="always")
def builds_from_summary(card, counts, lanes, spare):
    """``policies.builds_group`` for a hand summarised as there; ``spare`` is 1 when a wild joker
    is left in the hand. Without branches: a joker's rank (13) and suit (4) find no cards."""
    rank = RANK[card]
    lane = lanes >> (13 * SUIT[card]) & 0x1FFF
    return (counts >> (4 * rank) & 15 != 0) | RUN_OK[(spare * 14 + rank) * 32 + ((lane << 2) >> rank & 31)]


@njit_by_type(cache=True, _nrt=False, inline="always")
def best_draw(avail, n_avail, thrown_max, counts, lanes, jokers, wild, keep, stock, rules):
    """``(cost, index)`` of the best draw once a group is thrown (``policies._draw_cost`` for every
    available card, the stock first at cost ``stock``); index -1 is the stock."""
    spare = 1 if wild and jokers > 0 else 0
    draw = stock
    pick = -1
    for t in range(n_avail):
        card = avail[t]
        value = rules[R_VALUES + card]
        d = value - keep * value if builds_from_summary(card, counts, lanes, spare) else (
            float(value) if value < thrown_max else 1e9)
        if d < draw:
            draw = d
            pick = t
    return draw, pick


@njit_by_type(cache=True, _nrt=False, inline="always")
def kept_points(pairs, counts, rules):
    """Points the best kept set lets the player shed beyond its first card (ranks in ``pairs``)."""
    kept = 0
    while pairs:
        r = LOWBIT13[pairs]
        pairs &= pairs - 1
        extra = ((counts >> (4 * r) & 15) - 1) * rules[R_VALUES + r]
        if extra > kept:
            kept = extra
    return kept


@njit_by_type(cache=True, _nrt=False, inline="always")
def group_cost(cards, length, total, held, avail, n_avail, wild, keep, stock, top_only, params, rules):
    """``(cost, pick)`` of throwing the group ``cards[:length]`` (as laid) from a hand summarised
    as in ``threshold_turn`` (``held``: its rank counts, faces, faces held twice, jokers and ranks
    held twice): ``policies.threshold_decide``'s cost, operation for operation, and the best draw
    after it."""
    counts, lanes, twice, jokers, pairs = held
    shed = 0
    thrown_max = 0
    left_counts = counts
    left_jokers = jokers
    gone = np.int64(0)  # faces no copy of which is left
    once = np.int64(0)  # faces held twice, one copy thrown so far
    natural = False
    for j in range(length):
        c = cards[j]
        v = rules[R_VALUES + c]
        shed += v
        if v > thrown_max:
            thrown_max = v
        if c >= 52:
            left_jokers -= 1
        else:
            natural = True
            left_counts -= ONE << (4 * RANK[c])
            bit = ONE << c
            if twice & bit & ~once:
                once |= bit
            else:
                gone |= bit
    draw, pick = best_draw(avail, n_avail, thrown_max, left_counts, lanes & ~gone, left_jokers, wild, keep, stock,
                            rules)
    cost = total - shed + draw - keep * kept_points(pairs, left_counts, rules)
    if length >= 3 and (cards[0] >= 52 or cards[length - 1] >= 52) and natural:
        cost += params[P_JOKER_END]  # a run (not a joker set) with a joker at an end
    if top_only and length >= 2:  # Kluft: the card left on top is the next player's to take
        cost += params[P_TOP] * (13 - rules[R_VALUES + cards[length - 1]]) / 13.0
    return cost, pick


@njit_by_type(cache=True, _nrt=False, inline="always")
def hand_summary(hand, n):
    """(rank counts 4 bits a rank, faces present as bits, jokers, any face held twice)."""
    return summary_without(hand, n, -1)


@njit_by_type(cache=True, _nrt=False, inline="always")
def summary_without(hand, n, skip):
    """``hand_summary`` of ``hand[:n]`` with one copy of ``skip`` left out (-1: none)."""
    counts = np.int64(0)
    lanes = np.int64(0)
    jokers = 0
    dup = False
    skipped = False
    for i in range(n):
        c = hand[i]
        if c == skip and not skipped:
            skipped = True
        elif c >= 52:
            jokers += 1
        else:
            if lanes >> c & 1:
                dup = True
            counts += ONE << (4 * RANK[c])
            lanes |= ONE << c
    return counts, lanes, jokers, dup


@njit_by_type(cache=True, _nrt=False, inline="always")
def hand_held(hand, n):
    """The hand once, as threshold's discard cost reads it: rank counts (4 bits a rank), faces
    present, faces held twice (two decks), jokers, ranks held twice or more (the only ones a kept
    set can come from) and ranks held three times or more."""
    counts = lanes = twice = ranks = pairs = triples = np.int64(0)
    jokers = np.int64(0)
    for i in range(n):
        c = hand[i]
        if c >= 52:
            jokers += 1
        else:
            bit = ONE << c
            twice |= lanes & bit
            lanes |= bit
            r = RANK[c]
            counts += ONE << (4 * r)
            rbit = ONE << r
            triples |= pairs & rbit
            pairs |= ranks & rbit
            ranks |= rbit
    return counts, lanes, twice, jokers, pairs, triples


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
        counts, lanes, twice, jokers, pairs, _ = hand_held(hand, n)
        held = (counts, lanes, twice, jokers, pairs)
        stock = params[P_STOCK] if view[V_STOCK] > 0 else 1e9
        avail = view[V_AVAIL:V_AVAIL + MAX_HAND]
        top_only = rules[R_PICKUP] == PICK_TOP
        best = 0
        best_cost = 1e18
        for a in range(n_opts):
            cost, _ = group_cost(opts[a, 1:], opts[a, 0], view[V_TOTAL], held, avail, view[V_AVAIL_N], wild, keep,
                                 stock, top_only, params, rules)
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
    counts, lanes, jokers, _ = summary_without(hand, n, skip)
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
