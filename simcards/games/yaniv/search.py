"""The strong Yaniv players: ``informed`` (a heuristic that uses what it has seen) and ``mc``
(a Monte Carlo search over the unseen cards), and the decision dispatchers that add them to the
built-in ``random`` and ``threshold``.

Both read only what every player saw: their own hand, the options, ``params``, ``rng`` and the
public view, including the round's public memory that both engines keep (``layout.V_SEEN``: cards
lying in the discard pile; ``layout.V_KNOWN``: the faces each seat took from a discard and still
holds). The *unseen* cards are the deck minus the own hand, minus the pile, minus the cards known to
be in other hands: the stock and the opponents' other cards are drawn from them, never read.

Both play the section-5 decisions (requests, grants, slams, onderkluft, overcalls) as ``threshold``
with the same parameters. Under Kluft (Y-V-KLUFT) a call is not judged by Y-SC-2: both call as
``threshold`` there, and ``mc`` does not search at all.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from simcards.games.yaniv import core
from simcards.games.yaniv import params as P
from simcards.games.yaniv.core import available_faces, hand_total, insert_sorted, next_seat, throw
from simcards.games.yaniv.fast import denied_group_called, threshold_turn_called
from simcards.games.yaniv.groups import SCRATCH
from simcards.games.yaniv.layout import (
    K_CALL,
    K_DISCARD,
    K_DRAW,
    MAX_HAND,
    MAX_OPTIONS,
    MAX_PLAYERS,
    N_FACES,
    ROW,
    V_ALIVE,
    V_AVAIL,
    V_AVAIL_N,
    V_KNOWN,
    V_PLAYERS,
    V_SCORES,
    V_SEAT,
    V_SEEN,
    V_SIZES,
    V_STOCK,
    V_THROWN,
    V_THROWN_N,
    V_TOTAL,
    V_TURN,
)
from simcards.games.yaniv.params import slot
from simcards.games.yaniv.policies import (
    P_CALL,
    P_KEEP,
    P_RESET_AIM,
    P_STOCK,
    RANK,
    best_draw,
    hand_held,
    hand_summary,
    lands_on_reset,
    threshold_calls,
    threshold_draw,
    variant_decide,
)
from simcards.games.yaniv.policies import (
    builtin_decide as plain_builtin_decide,
)
from simcards.games.yaniv.policies import (
    kernel_decide as plain_kernel_decide,
)
from simcards.games.yaniv.rules import (
    R_CCW,
    R_DECKS,
    R_FULL_TURN,
    R_JOKERS,
    R_KLUFT,
    R_LIMIT,
    R_OUT_OVER,
    R_PICKUP,
    R_VALUES,
    R_WILD,
)
from simcards.nbutil import NO_ENTRY, compiled_as, njit_by_type, rebind
from simcards.rng import shuffle

SID_INFORMED = 2
SID_MC = 3
# Both families share threshold's parameters (same meaning, same slots: params.py), for the
# decisions they play as threshold and for mc's rollouts; their own follow, placed by name.
P_RISK, P_DENY, P_PATIENCE = (slot(P.INFORMED, name) for name in ("risk", "deny", "patience"))
P_K, P_OPP_CALL, P_SEARCH, P_DEPTH, P_PRIOR, P_LOW, P_MC_RISK, P_MC_DENY, P_MC_PATIENCE, P_STOP = (
    slot(P.MC, name) for name in ("k", "opp_call", "search", "depth", "prior", "low", "risk", "deny", "patience",
                                  "stop"))
S_CALL, S_DISCARD, S_DRAW = 1, 2, 4  # mc's ``search`` bits
STOP_MIN, STOP_EVERY = 16, 8  # early stop (``stop``): first checked after 16 samples, then every 8
ONE = np.int64(1)
MAX_VALUE = 14  # card values are 0..13 in every preset
# For the functions only jitted code calls: no entry points for Python (``nbutil.NO_ENTRY``: their
# wrappers are compile time for nothing); calling one of them from Python crashes.
called = njit_by_type(**NO_ENTRY, _nrt=False)
called_nrt = njit_by_type(**NO_ENTRY, _nrt=True)


# --- what the player knows -------------------------------------------------------------------------
@njit_by_type(cache=True, _nrt=False)
def unseen_counts(hand, n, view, rules, pool):
    """Copies of each face the player has not seen (``pool[f]``): the deck minus the own hand,
    the discard pile and the faces known to sit in another hand. Returns the number of cards."""
    faces = 52 + rules[R_JOKERS]
    for f in range(N_FACES):
        pool[f] = rules[R_DECKS] if f < faces else 0
        pool[f] -= view[V_SEEN + f]
    for i in range(n):
        pool[hand[i]] -= 1
    me = view[V_SEAT]
    for p in range(view[V_PLAYERS]):
        if p == me or not view[V_ALIVE + p]:
            continue
        mask = view[V_KNOWN + p]
        for f in range(N_FACES):
            if mask >> f & 1:
                pool[f] -= 1
    size = 0
    for f in range(N_FACES):
        if pool[f] < 0:  # two decks: a face thrown while a known copy was held
            pool[f] = 0
        size += pool[f]
    return size


@called
def known_cards(view, seat, rules, out):
    """The faces known to be in ``seat``'s hand (at most its hand size); returns (count, total)."""
    mask = view[V_KNOWN + seat]
    size = view[V_SIZES + seat]
    k = 0
    total = 0
    for f in range(N_FACES):
        if mask >> f & 1 and k < size:
            out[k] = f
            k += 1
            total += rules[R_VALUES + f]
    return k, total


@njit_by_type(cache=True, _nrt=True, inline="always")
def p_at_most(pool, rules, u, limit):
    """Probability that ``u`` cards drawn without replacement from the unseen ``pool`` add up to
    at most ``limit``: exact, counting the ways by card value (a small dynamic programme)."""
    if limit < 0:
        return 0.0
    if u == 0:
        return 1.0
    ways, size = hand_ways(pool, rules, u, limit)
    return share_at_most(ways, size, u, limit)


@njit_by_type(cache=True, _nrt=True, inline="always")
def hand_ways(pool, rules, u, limit):
    """``(ways, size)``: ``ways[j, t]`` counts the ways to choose ``j <= u`` cards totalling ``t <= limit``
    from the unseen ``pool`` of ``size`` cards, by value class. An entry does not depend on the bounds
    (each is summed from smaller ones, in the same order), so one table serves every opponent. Each
    class updates the table in place, ``j`` downwards: the entries an update reads are the previous
    class's."""
    by_value = np.zeros(MAX_VALUE, dtype=np.int64)
    size = 0
    for f in range(N_FACES):
        by_value[rules[R_VALUES + f]] += pool[f]
        size += pool[f]
    ways = np.zeros((u + 1, limit + 1))
    ways[0, 0] = 1.0
    choose = np.empty(u + 1)  # C(c, m) for the class's count c, built as m grows
    for v in range(MAX_VALUE):
        c = by_value[v]
        if c == 0:
            continue
        top = min(c, u)
        choose[0] = 1.0
        for m in range(1, top + 1):
            choose[m] = choose[m - 1] * (c - m + 1) / m
        for j in range(u, 0, -1):
            for t in range(limit, -1, -1):
                acc = ways[j, t]
                for m in range(1, min(top, j) + 1):
                    step = m * v
                    if step > t:
                        break
                    acc += ways[j - m, t - step] * choose[m]
                ways[j, t] = acc
    return ways, size


@njit_by_type(cache=True, _nrt=False, inline="always")
def share_at_most(ways, size, u, limit):
    """``p_at_most`` read from ``hand_ways``'s table (1 when the pool has fewer than ``u`` cards)."""
    if size < u:
        return 1.0
    good = 0.0
    for t in range(limit + 1):
        good += ways[u, t]
    all_ways = 1.0
    for m in range(u):
        all_ways = all_ways * (size - m) / (m + 1)
    return min(1.0, good / all_ways)


@njit_by_type(cache=True, _nrt=True)
def asaf_probability(hand, n, view, rules):
    """The estimated chance that calling now is an Asaf (Y-SC-2): some opponent holds a total at
    most mine. Each opponent's hand is its known cards plus cards drawn uniformly from the unseen
    ones (exact for one opponent; the opponents taken as independent for several): ``p_at_most``
    for each, read from one table (``hand_ways``)."""
    pool = np.zeros(N_FACES, dtype=np.int64)
    unseen_counts(hand, n, view, rules, pool)
    known = np.zeros(MAX_HAND, dtype=np.int64)
    mine = view[V_TOTAL]
    me = view[V_SEAT]
    unknown = np.zeros(MAX_PLAYERS, dtype=np.int64)  # each opponent's unknown cards and its limit on them
    limits = np.full(MAX_PLAYERS, -1, dtype=np.int64)
    u_max = limit_max = 0
    for p in range(view[V_PLAYERS]):
        if p == me or not view[V_ALIVE + p]:
            continue
        k, kt = known_cards(view, p, rules, known)
        unknown[p] = view[V_SIZES + p] - k
        limits[p] = mine - kt
        if limits[p] >= 0 and unknown[p] > 0:
            u_max = max(u_max, unknown[p])
            limit_max = max(limit_max, limits[p])
    ways, size = hand_ways(pool, rules, u_max, limit_max)
    safe = 1.0
    for p in range(view[V_PLAYERS]):
        if p == me or not view[V_ALIVE + p]:
            continue
        at_most = 0.0 if limits[p] < 0 else (1.0 if unknown[p] == 0 else share_at_most(ways, size, unknown[p],
                                                                                        limits[p]))
        safe *= 1.0 - at_most
    return 1.0 - safe


@njit_by_type(cache=True, _nrt=False, inline="always")
def next_alive(seat, view, rules):
    """The next player still in the round after ``seat`` (Y-PLAY-2), read from the view."""
    return next_seat(seat, view[V_ALIVE:V_ALIVE + MAX_PLAYERS], view[V_PLAYERS], rules[R_CCW] != 0)


# --- informed ------------------------------------------------------------------------------------
@njit_by_type(cache=True, _nrt=False, inline="always")
def informed_call(hand, n, view, rules, params, risk, patience):
    """Call within ``call`` when the estimated Asaf probability is at most ``risk`` (or, as
    threshold, to land on a reset), and whenever a call is allowed once the round has lasted
    ``patience`` discards: a table of cautious players who know each other's low cards would
    otherwise wait for each other until the turn cap. Kluft: threshold's rule."""
    total = view[V_TOTAL]
    if rules[R_KLUFT] != 0:
        return threshold_calls(view[V_SCORES + view[V_SEAT]], total, params, rules)
    if params[P_RESET_AIM] > 0 and lands_on_reset(view[V_SCORES + view[V_SEAT]], total, rules):
        return 1
    if total > params[P_CALL]:
        return 0
    if view[V_TURN] >= patience:
        return 1
    return 1 if asaf_probability(hand, n, view, rules) <= risk else 0


@called
def informed_discard(hand, n, opts, n_opts, view, rules, params, deny):
    """Threshold's discard cost (``policies.group_cost``) plus ``deny`` for every card the next
    player could take from the group that builds a set or run with the cards known in its hand."""
    counts, lanes, twice, jokers, pairs, _ = hand_held(hand, n)
    stock = params[P_STOCK] if view[V_STOCK] > 0 else 1e9
    avail = view[V_AVAIL:V_AVAIL + MAX_HAND]
    held = (counts, lanes, twice, jokers, pairs)
    mask = view[V_KNOWN + next_alive(view[V_SEAT], view, rules)]  # the next player's known cards
    if mask != 0 and deny > 0:
        return deny_discard(opts, n_opts, view, rules, params, deny, mask, held, avail, stock)
    # threshold's choice: the same copy of ``cheapest_group`` (a second costs about 2 s of compile),
    # with no deny term (``fast.denied_cost`` returns at once: its work array, here the view, is not touched)
    best, _, _ = denied_group_called(opts, n_opts, view[V_TOTAL], held, avail, view[V_AVAIL_N], params[P_KEEP], stock,
                                     params, rules, (0.0, 0, np.int64(0), np.int64(0), 0, view))
    return best


@called_nrt
def deny_discard(opts, n_opts, view, rules, params, deny, mask, held, avail, stock):
    """``informed_discard`` when the next player holds known cards (``mask``) and ``deny`` is
    positive: threshold's cost plus ``deny`` for every card it could take that builds a group
    (``fast.denied_cost``), the first row of least cost (``fast.cheapest_group``)."""
    k_counts = np.int64(0)
    k_lanes = np.int64(0)
    k_jokers = 0
    while mask != 0:
        f = trailing_zeros(mask)
        mask &= mask - 1
        if f >= 52:
            k_jokers += 1
        else:
            k_counts += ONE << (4 * RANK[f])
            k_lanes |= ONE << f
    denied = (deny, rules[R_PICKUP], k_counts, k_lanes, k_jokers, np.zeros(MAX_HAND, dtype=np.int64))
    best, _, _ = denied_group_called(opts, n_opts, view[V_TOTAL], held, avail, view[V_AVAIL_N], params[P_KEEP], stock,
                                     params, rules, denied)
    return best


@called
def informed_play(kind, params, hand, n, opts, n_opts, view, rules, rng, risk, deny, patience):
    """The informed heuristic with these ``risk``, ``deny`` and ``patience`` (informed's own, or
    mc's for the decisions it does not search): its call and discard, threshold's draw and
    section-5 decisions."""
    if kind == K_CALL:
        return informed_call(hand, n, view, rules, params, risk, patience)
    if kind == K_DISCARD:
        return informed_discard(hand, n, opts, n_opts, view, rules, params, deny)
    if kind == K_DRAW:
        return threshold_draw(params, hand, n, opts, n_opts, view, rules)
    return variant_decide(kind, params, hand, n, opts, n_opts, view, rules)


@njit_by_type(cache=True, _nrt=False)
def informed_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """The ``informed`` family (attached: ``game.FAMILIES``)."""
    return informed_play(kind, params, hand, n, opts, n_opts, view, rules, rng, params[P_RISK], params[P_DENY],
                         params[P_PATIENCE])


# --- mc: rollouts ------------------------------------------------------------------------------------


@njit_by_type(cache=True, _nrt=True)
def round_value(me, caller, hands, hand_n, view, rules):
    """The round's result for ``me``, scored by the kernel's rules (``core.score_round``: Y-SC-1/2,
    the failed-call options, Y-V-OVERCALL; caller -1: everyone adds their hand) and settled with at
    most one reset (``core.apply_reset``): the sum over the opponents of (their new score - mine),
    scores capped just over ``out_over``, and ``out_over`` per opponent more when the round
    eliminates me."""
    return settled_value(me, caller, hands, hand_n, view, rules, np.zeros(MAX_PLAYERS, dtype=np.int64),
                         np.zeros(MAX_PLAYERS, dtype=np.int64))


@called
def settled_value(me, caller, hands, hand_n, view, rules, totals, scored):
    """``round_value`` with its work arrays given (``totals``, ``scored``: MAX_PLAYERS each)."""
    players = view[V_PLAYERS]
    for p in range(players):
        totals[p] = hand_total(hands[p], hand_n[p], rules)
    core.score_round(caller, totals, view[V_ALIVE:V_ALIVE + MAX_PLAYERS], players, rules, scored)
    out_over = rules[R_OUT_OVER]
    value = 0
    my_new = 0
    n_opp = 0
    for p in range(players):
        if not view[V_ALIVE + p]:
            continue
        new = min(core.apply_reset(view[V_SCORES + p] + scored[p], rules), out_over + 1)
        if p == me:
            my_new = new
        else:
            value += new
            n_opp += 1
    value -= n_opp * my_new
    if my_new > out_over:
        value -= n_opp * out_over
    return value


# One sampled table being played on: the hands, the stock, the previous discard and the work arrays
# of a threshold turn and of scoring (a record numba passes as one argument).
Table = namedtuple("Table", "hands hand_n stock prev out keys scratch thrown avail totals scored known")


@njit_by_type(cache=True, _nrt=True)
def new_table():
    return table_on(np.zeros(2 * N_FACES, dtype=np.int64))


@called_nrt
def table_on(stock):
    """A new table whose stock is ``stock`` (a sampled table's: the rollouts only read the stock),
    carved out of one array (one allocation, not a dozen: a search decision makes two tables). A
    threshold turn's work arrays (``out``, ``keys``, ``scratch``: written before they are read) are
    left as allocated, the rest is zero."""
    w = np.empty(_T_SIZE, dtype=np.int64)
    w[:_T_OUT] = 0
    return Table(w[_T_HANDS:_T_HAND_N].reshape((MAX_PLAYERS, MAX_HAND)), w[_T_HAND_N:_T_PREV], stock,
                 w[_T_PREV:_T_THROWN], w[_T_OUT:_T_KEYS].reshape((MAX_OPTIONS, ROW)), w[_T_KEYS:_T_SCRATCH],
                 w[_T_SCRATCH:_T_SIZE], w[_T_THROWN:_T_AVAIL], w[_T_AVAIL:_T_TOTALS], w[_T_TOTALS:_T_SCORED],
                 w[_T_SCORED:_T_KNOWN], w[_T_KNOWN:_T_OUT])


# table_on's parts in its one array: the zeroed parts first, then the work arrays
_T_HANDS = 0
_T_HAND_N = _T_HANDS + MAX_PLAYERS * MAX_HAND
_T_PREV = _T_HAND_N + MAX_PLAYERS
_T_THROWN = _T_PREV + MAX_HAND + 2
_T_AVAIL = _T_THROWN + MAX_HAND
_T_TOTALS = _T_AVAIL + MAX_HAND
_T_SCORED = _T_TOTALS + MAX_PLAYERS
_T_KNOWN = _T_SCORED + MAX_PLAYERS
_T_OUT = _T_KNOWN + MAX_HAND
_T_KEYS = _T_OUT + MAX_OPTIONS * ROW
_T_SCRATCH = _T_KEYS + MAX_OPTIONS
_T_SIZE = _T_SCRATCH + SCRATCH


@called
def rollout(me, seat, turn, t, stock_n, prev_n, view, rules, params, opp_params, depth):
    """Play the round of table ``t`` on from the start of ``seat``'s turn (``turn`` discards made)
    with threshold play for everyone (``params`` for me, ``opp_params`` for the others) until a
    call, an empty stock or ``depth`` more turns (then everyone adds their hand); returns
    ``round_value``."""
    hands, hand_n, stock, prev, avail, thrown = t.hands, t.hand_n, t.stock, t.prev, t.avail, t.thrown
    pickup = rules[R_PICKUP]
    limit = rules[R_LIMIT]
    n_alive = 0
    for p in range(view[V_PLAYERS]):
        if view[V_ALIVE + p]:
            n_alive += 1
    for _ in range(depth):
        hand = hands[seat]
        n = hand_n[seat]
        total = hand_total(hand, n, rules)
        par = params if seat == me else opp_params
        if (rules[R_FULL_TURN] == 0 or turn >= n_alive) and (limit < 0 or total <= limit):
            if threshold_calls(view[V_SCORES + seat], total, par, rules) == 1:
                return settled_value(me, seat, hands, hand_n, view, rules, t.totals, t.scored)
        n_avail = available_faces(prev, prev_n, pickup, avail)
        _, length, pick, _ = threshold_turn_called(hand, n, rules, par, total, stock_n, avail, n_avail, t.out,
                                                   t.keys, t.scratch, thrown)
        n = throw(hand, n, thrown, length)
        if pick < 0:
            if stock_n == 0:
                break
            stock_n -= 1
            card = stock[stock_n]
        else:
            card = avail[pick]
        hand_n[seat] = insert_sorted(hand, n, card)
        for j in range(length):
            prev[j] = thrown[j]
        prev_n = length
        if stock_n == 0:
            break
        turn += 1
        seat = next_alive(seat, view, rules)
    return settled_value(me, -1, hands, hand_n, view, rules, t.totals, t.scored)


@njit_by_type(cache=True, _nrt=False)
def sample_deal(me, hand, n, view, rules, rng, pool, deck, sample, low):
    """One deal of the unseen cards consistent with the view: each opponent holds its known cards
    plus unseen ones up to its hand size, the rest (up to the stock's size) form the stock in a
    random order. ``pool`` holds the unseen counts. Opponents keep low cards and throw high ones:
    each of their unseen cards is the lowest of ``1 + low`` cards drawn. Deals into the table
    ``sample``; returns the stock size."""
    hands, hand_n, stock = sample.hands, sample.hand_n, sample.stock
    size = 0
    one_deck = rules[R_DECKS] == 1
    if one_deck:  # a copy or none of each face: no branch on the pool
        for f in range(N_FACES):
            deck[size] = f
            size += pool[f]
    else:
        for f in range(N_FACES):
            for _ in range(pool[f]):
                deck[size] = f
                size += 1
    shuffle(rng, deck, size)  # Fisher-Yates, from the seat's stream
    used = 0
    known = sample.known
    for p in range(view[V_PLAYERS]):
        hand_n[p] = 0
        if not view[V_ALIVE + p]:
            continue
        if p == me:
            for i in range(n):
                hands[p, i] = hand[i]
            hand_n[p] = n
            continue
        m = 0
        k = 0
        if view[V_KNOWN + p] != 0:
            k, _ = known_cards(view, p, rules, known)
        faces = np.int64(0)  # one deck: the hand as a bit set of faces, laid out sorted at the end
        for i in range(k):
            if one_deck:
                faces |= ONE << known[i]
                m += 1
            else:
                m = insert_sorted(hands[p], m, known[i])
        while m < view[V_SIZES + p] and used < size:
            best = used  # the lowest of the next 1 + low shuffled cards, swapped to the front
            lowest = rules[R_VALUES + deck[used]]
            for j in range(used + 1, min(size, used + 1 + low)):
                v = rules[R_VALUES + deck[j]]
                best = j if v < lowest else best
                lowest = min(v, lowest)
            tmp = deck[used]
            deck[used] = deck[best]
            deck[best] = tmp
            if one_deck:
                faces |= ONE << deck[used]
                m += 1
            else:
                m = insert_sorted(hands[p], m, deck[used])
            used += 1
        if one_deck:
            i = 0
            while faces != 0:
                hands[p, i] = trailing_zeros(faces)
                faces &= faces - 1
                i += 1
        hand_n[p] = m
    stock_n = min(size - used, view[V_STOCK])
    for i in range(stock_n):
        stock[i] = deck[used + i]
    return stock_n


@njit_by_type(cache=True, _nrt=False)
def mc_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """Monte Carlo search: up to ``k`` deals of the unseen cards (the same deals for every option;
    fewer once ``stop`` settles the choice), each option played forward to the end of the round
    with threshold rollouts, the best mean ``round_value`` chosen (ties: the first). Decisions not
    searched are the heuristic's (``mc_heuristic``: informed's)."""
    search = int(params[P_SEARCH])
    bit = S_CALL if kind == K_CALL else (S_DISCARD if kind == K_DISCARD else (S_DRAW if kind == K_DRAW else 0))
    searched = bit != 0 and rules[R_KLUFT] == 0 and (search & bit) != 0 and n_opts <= MAX_HAND + 4
    if searched and n_opts == 1:
        return 0
    # one call of the heuristic (inlined: one copy), whatever follows it
    prior = mc_heuristic(kind, params, hand, n, opts, n_opts, view, rules, rng)
    if not searched or (kind == K_CALL and view[V_TURN] >= params[P_MC_PATIENCE]):  # a long round: call, as informed
        return prior
    return mc_search(kind, params, hand, n, opts, n_opts, view, rules, rng, prior)


@called_nrt
def mc_search(kind, params, hand, n, opts, n_opts, view, rules, rng, prior):
    """``mc_decide``'s search, from the heuristic's choice ``prior``."""
    k = max(1, int(params[P_K]))
    n_opp = -1
    for p in range(view[V_PLAYERS]):
        if view[V_ALIVE + p]:
            n_opp += 1
    edge = params[P_PRIOR] * n_opp  # a sample's margin: round_value counts my points once per opponent
    sums, done = option_sums(kind, params, hand, n, opts, n_opts, view, rules, rng, k, prior, edge)
    # the heuristic's choice is kept unless another option beats it by ``prior`` points a sample
    best = prior
    margin = edge * done
    for o in range(n_opts):
        if o != prior and sums[o] - margin > sums[prior] and sums[o] > sums[best]:
            best = o
    return best


@njit_by_type(cache=True, _nrt=True, inline="always")
def deal_scratch(params, hand, n, view, rules):
    """What sampling deals for a decision takes: the opponents' parameter row (their call at
    ``opp_call``), the unseen faces' counts (``unseen_counts``), a deck, the sampled table and the
    table played on (which reads the sampled table's stock: a rollout never writes a stock)."""
    opp_params = params.copy()
    opp_params[P_CALL] = params[P_OPP_CALL]
    pool = np.zeros(N_FACES, dtype=np.int64)
    unseen_counts(hand, n, view, rules, pool)
    sample = new_table()
    return opp_params, pool, np.zeros(2 * N_FACES, dtype=np.int64), sample, table_on(sample.stock)


@njit_by_type(cache=True, _nrt=True, inline="always")
def option_sums(kind, params, hand, n, opts, n_opts, view, rules, rng, k, prior, edge):
    """Each option's ``round_value`` summed over up to ``k`` sampled deals (common to all options),
    as ``play_option`` plays it (``deal_sums``), and the number of deals played: fewer than ``k``
    when ``stop`` settles the choice against ``prior`` (``settled``, a sample's margin ``edge``)."""
    opp_params, pool, deck, sample, t = deal_scratch(params, hand, n, view, rules)
    sums = np.zeros(n_opts, dtype=np.int64)
    spread = np.zeros(n_opts)  # each option's squared differences to the prior's, summed over the deals
    values = np.zeros(n_opts, dtype=np.int64)
    plans = np.zeros((n_opts, 2 * MAX_HAND + 3), dtype=np.int64)
    done = deal_sums(kind, params, hand, n, opts, n_opts, view, rules, rng, k,
                     (opp_params, pool, deck, sample, t, plans), (sums, spread, values, prior, edge))
    return sums, done


@njit_by_type(cache=True, _nrt=False, inline="always")
def settled(sums, spread, n_opts, done, prior, edge, stop):
    """Early stop: every other option's mean result against ``prior``'s is more than ``stop``
    standard errors (of the paired mean difference) away from the margin ``edge`` it must beat,
    so more deals would hardly move it to the other side."""
    for o in range(n_opts):
        if o == prior:
            continue
        mean = (sums[o] - sums[prior]) / done
        var = max(spread[o] / done - mean * mean, 0.0)
        if abs(mean - edge) <= stop * np.sqrt(var / done):
            return False
    return True


@called
def deal_sums(kind, params, hand, n, opts, n_opts, view, rules, rng, k, scratch, tally):
    """``option_sums``'s deals, in the work arrays ``deal_scratch`` made and ``plans`` (a row an
    option), together ``scratch``, without reference counting; ``tally`` is ``option_sums``'s sums,
    squared differences to the prior's and a deal's values, the prior and the margin ``settled``
    weighs. Returns the number of deals played. My own move (the option, and my draw after it)
    reads only my hand, the view and whether the stock is empty, the same in every deal (the
    stock's size is): it is made once per option, kept in its row of ``plans`` (my hand's size, -1
    when I call; the group's length; my draw; my hand; the group), and each deal plays on from it:
    the last option on the deal itself, the others on a copy."""
    opp_params, pool, deck, sample, t, plans = scratch
    sums, spread, values, prior, edge = tally
    me = view[V_SEAT]
    players = view[V_PLAYERS]
    low = int(params[P_LOW])
    depth = max(1, int(params[P_DEPTH]))
    stop = params[P_STOP]
    planned = -1  # the stock's size the moves were made for
    last = n_opts - 1
    done = 0
    for _ in range(k):
        if stop > 0 and done >= STOP_MIN and done % STOP_EVERY == 0 and settled(sums, spread, n_opts, done, prior,
                                                                                  edge, stop):
            break
        done += 1
        stock_n = sample_deal(me, hand, n, view, rules, rng, pool, deck, sample, low)
        if stock_n != planned:
            planned = stock_n
            for o in range(n_opts):
                for i in range(n):
                    t.hands[me, i] = hand[i]
                t.hand_n[me] = n
                m, length, pick = my_move(kind, opts[o], t, stock_n, view, rules, params)
                plans[o, 0] = m
                plans[o, 1] = length
                plans[o, 2] = pick
                for i in range(max(m, 0)):
                    plans[o, 3 + i] = t.hands[me, i]
                for j in range(length):
                    plans[o, 3 + MAX_HAND + j] = t.thrown[j]
            last = n_opts - 1
            while last >= 0 and plans[last, 0] < 0:
                last -= 1
        for o in range(n_opts):
            if plans[o, 0] < 0:  # the call: scored on the deal as dealt
                values[o] = settled_value(me, me, sample.hands, sample.hand_n, view, rules, t.totals, t.scored)
        for o in range(last + 1):
            if plans[o, 0] < 0:
                continue
            on = sample  # the last option plays on the deal itself, the others on a copy
            if o < last:
                on = t
                for p in range(players):
                    if p != me:
                        t.hand_n[p] = sample.hand_n[p]
                        for i in range(sample.hand_n[p]):
                            t.hands[p, i] = sample.hands[p, i]
            values[o] = planned_option(plans[o], on, stock_n, view, rules, params, opp_params, depth)
        for o in range(n_opts):
            sums[o] += values[o]
            d = values[o] - values[prior]
            spread[o] += d * d
    return done


@njit_by_type(cache=True, _nrt=False, inline="always")
def planned_option(plan, t, stock_n, view, rules, params, opp_params, depth):
    """The option planned in ``plan`` (a row of ``deal_sums``'s plans) played on from the table ``t``
    (the others' hands dealt): my hand after it, the group thrown, then ``play_on``."""
    me = view[V_SEAT]
    m = plan[0]
    length = plan[1]
    for i in range(m):
        t.hands[me, i] = plan[3 + i]
    for j in range(length):
        t.thrown[j] = plan[3 + MAX_HAND + j]
    return play_on(m, length, plan[2], t, stock_n, view, rules, params, opp_params, depth)


@njit_by_type(cache=True, _nrt=True, inline="always")
def play_option(kind, option, t, stock_n, view, rules, params, opp_params, depth):
    """My ``option`` (a row of the options table) played on the sampled table ``t``, then my draw
    (threshold's, unless the option is the draw) and the round on in a ``rollout``: its value."""
    m, length, pick = my_move(kind, option, t, stock_n, view, rules, params)
    if m < 0:
        return round_value(view[V_SEAT], view[V_SEAT], t.hands, t.hand_n, view, rules)
    return play_on(m, length, pick, t, stock_n, view, rules, params, opp_params, depth)


@njit_by_type(cache=True, _nrt=False, inline="always")
def my_move(kind, option, t, stock_n, view, rules, params):
    """My ``option`` made on the table ``t`` (``stock_n`` cards in its stock), short of the draw:
    the group thrown from my hand into ``t.thrown``; returns ``(m, length, pick)``: the cards left in
    my hand (-1: I call), the group's length and my draw (threshold's unless the option is the
    draw: an index into the view's available faces, -1 for the stock)."""
    me = view[V_SEAT]
    thrown = t.thrown
    v_avail = view[V_AVAIL:V_AVAIL + MAX_HAND]
    n_avail = view[V_AVAIL_N]
    mine = t.hands[me]
    m = t.hand_n[me]
    if kind == K_CALL:
        if option[1] == 1:
            return -1, 0, 0
        # play on: my whole turn as threshold, then the others
        _, length, pick, _ = threshold_turn_called(mine, m, rules, params, view[V_TOTAL], stock_n, v_avail,
                                                   n_avail, t.out, t.keys, t.scratch, thrown)
        m = throw(mine, m, thrown, length)
    elif kind == K_DISCARD:
        length = option[0]
        thrown_max = 0
        for j in range(length):
            thrown[j] = option[1 + j]
            thrown_max = max(thrown_max, rules[R_VALUES + thrown[j]])
        m = throw(mine, m, thrown, length)
        # the draw after it: threshold's, for the hand left
        counts, lanes, jokers, _ = hand_summary(mine, m)
        stock_cost = params[P_STOCK] if stock_n > 0 else 1e9
        _, pick = best_draw(v_avail, n_avail, thrown_max, counts, lanes, jokers, rules[R_WILD] != 0,
                             params[P_KEEP], stock_cost, rules)
        if pick < 0 and stock_n == 0:
            pick = 0
    else:  # K_DRAW: the group is already thrown (view V_THROWN)
        length = view[V_THROWN_N]
        for j in range(length):
            thrown[j] = view[V_THROWN + j]
        pick = -1
        for a in range(n_avail):
            if v_avail[a] == option[1]:
                pick = a
    return m, length, pick


@njit_by_type(cache=True, _nrt=False, inline="always")
def play_on(m, length, pick, t, stock_n, view, rules, params, opp_params, depth):
    """The round after my move (``my_move``: ``t.hands[me][:m]`` left, ``t.thrown[:length]`` thrown):
    my draw ``pick``, then the others in a ``rollout``; its value."""
    me = view[V_SEAT]
    hands, hand_n, thrown = t.hands, t.hand_n, t.thrown
    mine = hands[me]
    hand_n[me] = m
    if pick < 0:
        if stock_n == 0:
            return settled_value(me, -1, hands, hand_n, view, rules, t.totals, t.scored)
        stock_n -= 1
        card = t.stock[stock_n]
    else:
        card = view[V_AVAIL + pick]
    hand_n[me] = insert_sorted(mine, m, card)
    for j in range(length):
        t.prev[j] = thrown[j]
    if stock_n == 0:
        return settled_value(me, -1, hands, hand_n, view, rules, t.totals, t.scored)
    return rollout(me, next_alive(me, view, rules), view[V_TURN] + 1, t, stock_n, length, view, rules, params,
                   opp_params, depth)


@njit_by_type(cache=True, _nrt=False, inline="always")
def mc_heuristic(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """mc's choice without search: informed's (with mc's ``risk``, ``deny`` and ``patience``)."""
    return informed_play(kind, params, hand, n, opts, n_opts, view, rules, rng, params[P_MC_RISK],
                         params[P_MC_DENY], params[P_MC_PATIENCE])


# --- dispatchers -------------------------------------------------------------------------------------
# The engines attach informed and mc as families of their own (``game.FAMILIES``: ``Family.decide``),
# so a plain run never compiles them. These dispatchers over every built-in family are for tests
# and tools that call one decision directly. They take no references (``_nrt=False``, as the
# kernel): only informed and mc, which allocate their work arrays, run with reference counting.
PLAIN = plain_builtin_decide


@njit_by_type(cache=True, _nrt=False)
def builtin_decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
    """Every built-in strategy's decision, as the reference engine asks it."""
    if sid == SID_INFORMED:
        return informed_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)
    if sid == SID_MC:
        return mc_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)
    return PLAIN(kind, sid, params, hand, n, opts, n_opts, view, rules, rng)


# ``builtin_decide`` as the kernel asks it (threshold seats' own turns are the kernel's)
kernel_decide = compiled_as(builtin_decide, "kernel_decide", njit_by_type(cache=True, _nrt=False),
                            PLAIN=plain_kernel_decide)


def engine_decide(cache_key: str | None):
    """The decision function of an engine that plays the attached families and no user policy
    (``game._build``): ``kernel_decide`` compiled again, cached on disk under the engine's
    ``cache_key`` (``nbutil.rebind``) as every engine is. Called straight from
    ``kernel.play_round_via``, not through ``policy.chain``'s two checking layers: each layer
    optimizes and compiles everything below it again, and these families never return an
    option out of range."""
    scope = {**globals(), "builtin_decide": _ENGINE_DECIDE}
    return rebind(scope, ("builtin_decide",), cache_key, PLAIN=plain_kernel_decide)["builtin_decide"]


# ``builtin_decide`` as an engine compiles it: called through a function pointer only (its C
# entry point), never from Python (no CPython wrapper); never compiled itself (``rebind`` copies it)
_ENGINE_DECIDE = njit_by_type(_nrt=False, no_cpython_wrapper=True)(getattr(builtin_decide, "py_func", builtin_decide))
