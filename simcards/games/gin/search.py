"""Stronger Gin players: the ``informed`` heuristic and the ``mc`` Monte Carlo search player.

Both read only what ``policies`` promises a strategy: the view, the own hand, the options, the
params and the seat's own rng (never the deal's stream). What a player knows (G-INFO-1) is rebuilt from the view:

* ``known``: cards the opponent took from the pile and still holds (``V_OPP_TOOK`` minus the pile
  and the own hand — a card it took and threw again is back in the pile or in the own hand);
* ``unseen``: the deck minus the own hand, the pile and ``known`` — the opponent's other cards
  and the stock, in an order nobody has seen.

``informed`` (params: the ``knock`` family's, then ``outs``, ``safe``, ``hint``) discards the card
that minimises ``deadwood after - outs x live outs of the kept hand + safe x known opponent cards
it melds with - hint x opponent discards/passes it melds with``; a live out is an unseen card that
would meld with the kept hand. Draws and knocks follow ``knock`` (``wants_card``,
``knock_threshold``).

``mc`` (the informed params, then ``k``, ``width``, ``draw``, ``knock``, ``goal``, ``filter``, ``z``,
``fit``, ``rtake``, ``rknock``, ``stop``, ``prune``, ``rgin``, ``strict``, ``rout``, ``depth``, ``seen``,
``ogin``, ``style``, ``patience``) searches three
decisions by determinized rollouts: the draw (pile top vs stock), the discard (among the ``width`` best by the informed
score, ``prune``: within that many points of the best) and the knock (knock now vs play on). Each
of the ``k`` samples deals the opponent its known cards plus random unseen cards up to 10
(``filter``: drawn and thrown back as a kept hand; ``fit``: redealt until the hand melds with none
of the cards it discarded or declined; ``strict``: nor holds a hand ``simple`` would have knocked
with, nor one whose lowest-deadwood discard was not its latest discard) and stacks the rest as
the stock, in a random order; every option is played in the same samples (common random
numbers) to the end of the hand with the ``simple`` policy for both players (the opponent's
knocks: ``ogin``, from that own turn on it goes only for gin; ``style``: once it has played that many
turns, a sampled hand it could have knocked with after its last discard, and did not, is no longer
counted against a sample and is played on for gin: the opponent is not assumed ``simple``)
(``rtake``/``rknock``/``rgin``: the player's own take and knock rule in the rollouts; ``rout``: its
discards credit the live outs of the cards kept, a cheap form of informed's), and scored by the
hand's points from the player's side (``goal`` > 0: points capped at what either side needs to
reach the target, plus ``goal`` for reaching it). The heuristic's
choice stands unless another option gains ``z`` standard errors over it (``stop``: sampling ends
early once every option is that clearly settled). ``patience``: while no earlier hand of the game has
shown the opponent keeping a hand it could have knocked with (``V_OPP_WAITED``), the player, and its
own side in the rollouts, knock only with gin from that own turn on (``patient``). Other decisions,
and whole games under Mahjong gin (G-V-MJ, a different hand), are the informed heuristic's. Rollouts ignore G-TURN-3 and
G-WALL-2/3 refinements (a hand that reaches the wall is void, G-WALL-1).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit
from numba.extending import overload

from simcards.games.gin import core
from simcards.games.gin.informed import (
    P_FADE,
    informed_threshold,
    informed_wants,
    out_credit,
)
from simcards.games.gin.jit import internal
from simcards.games.gin.layout import (
    HIST_BITS,
    HIST_CARD,
    HIST_NONE,
    HIST_PER_SLOT,
    HIST_STOCK,
    HIST_TOOK,
    K_DISCARD,
    K_DRAW,
    K_KNOCK,
    K_LAST,
    K_UPCARD,
    V_DW,
    V_LIMIT,
    V_MASK,
    V_MY_SCORE,
    V_MY_TURNS,
    V_OPP_DISCARDS,
    V_OPP_HIST,
    V_OPP_PASSED,
    V_OPP_SCORE,
    V_OPP_TOOK,
    V_OPP_TURNS,
    V_OPP_WAITED,
    V_PILE,
    V_STAKE,
    V_STOCK,
    V_TAKE_MUST_KNOCK,
    V_TAKEN,
    V_TARGET,
    V_TOP,
)
from simcards.games.gin.melds import (
    CORNER,
    FULL,
    LANE,
    SCRATCH_SIZE,
    VALUES_MV,
    best_arrangement,
    best_layoff,
    ctz,
    deadwood,
    lane_dw,
    popcount,
    removal_deadwoods,
    simple_choice,
    simple_discard,
    triple_ranks,
)
from simcards.games.gin.params import INFORMED, MC, NEVER, slot
from simcards.games.gin.policies import better, knock_decide
from simcards.games.gin.policies import danger as melds_with  # cards of a mask that meld directly with a card
from simcards.games.gin.rules import R_MJ, R_MV
from simcards.nbutil import borrow, keep_alive, njit_by_type
from simcards.rng import GOLDEN as STREAM_STEP  # the counter's step per draw (splitmix64)
from simcards.rng import rand_below

P_SAFE, P_HINT = slot(INFORMED, "safe"), slot(INFORMED, "hint")  # informed (informed.P_* the others)
(P_K, P_WIDTH, P_DRAW, P_KNOCK, P_GOAL, P_FILTER, P_Z, P_FIT, P_RTAKE, P_RKNOCK, P_STOP, P_PRUNE, P_RGIN, P_STRICT,
 P_ROUT, P_DEPTH, P_SEEN, P_OGIN, P_STYLE, P_PATIENCE) = (slot(MC, name) for name in (
     "k", "width", "draw", "knock", "goal", "filter", "z", "fit", "rtake", "rknock", "stop", "prune", "rgin", "strict",
     "rout", "depth", "seen", "ogin", "style", "patience"))  # mc: search, sampler, own rollout policy, the opponent's, effort
P_GIN_AFTER = slot(MC, "gin_after")
OPP_CARDS = 10  # the opponent's hand while the player decides (G-DEAL-1)
ROLLOUT_TURNS = 120  # a rollout stops (void) after this many turns (the kernel's TURN_CAP is larger)
ENDS_ROWS = 16
EX_ROW = 128  # fitted_deal: the second deal's record in scratch (2 x the extra cards <= 2 x 52)
STOP_MIN, STOP_EVERY = 16, 8  # early stop (``stop``): first checked after 16 samples, then every 8


@njit(cache=True, inline="always")
def bit(c):
    return np.int64(1) << c


@njit(cache=True, inline="always")
def removal_of(m, full, c, mv):
    """The deadwood of the hand ``m`` (deadwood ``full``) without its card ``c``."""
    if triple_ranks(m) != 0:
        return deadwood(m & ~bit(c), mv)
    lane = (m >> (13 * (c // 13))) & LANE
    return full - lane_dw(mv, lane) + lane_dw(mv, lane ^ (np.int64(1) << (c % 13)))


@internal
def thrown_and_lowest(h11, d, cards, mv):
    """(the deadwood after throwing ``d`` from the hand ``h11``, the lowest deadwood after throwing
    one of ``cards`` instead (2**40: none), the deadwood of ``h11``): the card thrown was a
    lowest-deadwood discard unless the second is below the first."""
    full, _, low = simple_choice(h11, cards, mv)
    return removal_of(h11, full, d, mv), low, full


@internal
def known_opp(view):
    """Cards the opponent is known to hold: taken from the pile, not thrown back since."""
    return view[V_OPP_TOOK] & ~view[V_PILE] & ~view[V_MASK]


@internal
def unseen_cards(view):
    """Cards neither in the own hand, nor in the pile, nor known in the opponent's hand."""
    return FULL & ~view[V_MASK] & ~view[V_PILE] & ~known_opp(view)


@internal
def discard_costs(params, opts, n_opts, view, rules, out):
    """The informed score of each discard option (lower is better) into ``out[:n_opts]``."""
    mv = rules[R_MV]
    corner = CORNER[mv] != 0
    mask = view[V_MASK]
    known = known_opp(view)
    unseen = unseen_cards(view)
    hint = view[V_OPP_DISCARDS] | view[V_OPP_PASSED]
    for a in range(n_opts):
        c = opts[a, 0]
        dw = opts[a, 1]
        cost = float(dw)
        cost -= out_credit(params, view, mask & ~bit(c), dw, unseen, mv)
        if params[P_SAFE] != 0:
            cost += params[P_SAFE] * melds_with(c, known, corner)
        if params[P_HINT] != 0:
            cost -= params[P_HINT] * melds_with(c, hint, corner)
        out[a] = cost


@internal
def informed_discard(params, opts, n_opts, view, rules):
    costs = np.empty(n_opts)
    discard_costs(params, opts, n_opts, view, rules, costs)
    best = 0
    for a in range(1, n_opts):
        if better(costs[a], opts[a, 0], costs[best], opts[best, 0]):
            best = a
    return best


@njit(cache=True)
def informed_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    if rules[R_MJ] != 0:  # G-V-MJ: a different hand, the knock family's play
        return knock_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)
    if kind == K_DISCARD:
        return informed_discard(params, opts, n_opts, view, rules)
    if kind == K_KNOCK:
        return 1 if opts[1, 1] <= informed_threshold(params, view) else 0
    if kind == K_UPCARD or kind == K_DRAW or kind == K_LAST:
        return 1 if informed_wants(kind, opts[1, 1], view[V_DW], opts[1, 2], opts[1, 3], params, view, rules,
                                   unseen_cards(view)) else 0
    return knock_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)


# ----- Monte Carlo search --------------------------------------------------------------------------


@internal
def knock_points(km, dm, rules, mv, ends, idx):
    """G-SC-1..4 (``core.knock_result``, the kernel's scoring), G-LAY-1: the knocker's points
    (negative: the defender's) when ``km`` knocks against ``dm`` (the default arrangement; the
    defender lays off as well as it can, not on gin)."""
    k_dw, k_sets = best_arrangement(km, mv)
    if k_dw == 0:
        d_dw = deadwood(dm, mv)
    else:
        d_dw, _ = best_layoff(dm, km, k_sets, ends, idx, mv)
    _, side, points = core.knock_result(k_dw, d_dw, rules)
    return side * points


@njit(cache=True, inline="always")
def meld_outs(m, corner):
    """Cards not in ``m`` that would go into a meld with it, by bits (cheap, for rollouts): the
    third or fourth card of a rank held twice or more, a card that makes or extends a run (a card
    that melds only by breaking another meld counts too)."""
    s0 = m & LANE
    s1 = (m >> 13) & LANE
    s2 = (m >> 26) & LANE
    s3 = (m >> 39) & LANE
    pairs = (s0 & s1) | (s0 & s2) | (s0 & s3) | (s1 & s2) | (s1 & s3) | (s2 & s3)
    out = pairs | (pairs << 13) | (pairs << 26) | (pairs << 39)
    for s in range(4):
        x = (m >> (13 * s)) & LANE
        l1 = x << 1  # bit r: rank r - 1 held
        l2 = x << 2
        r1 = x >> 1  # bit r: rank r + 1 held
        r2 = x >> 2
        if corner:  # G-V-TED: K-A-2 is a run
            l1 |= x >> 12
            l2 |= x >> 11
            r1 |= (x & 1) << 12
            r2 |= (x & 3) << 11
        out |= (((l1 & l2) | (r1 & r2) | (l1 & r1)) & LANE) << (13 * s)
    return out & ~m


@internal
def own_discard(m11, taken, scratch, mv, credit, dead, corner):
    """The searching player's rollout discard: ``simple``'s (lowest deadwood after, then the
    higher rank, then the lower id; never the card just taken) when ``credit`` is 0, else the
    lowest ``deadwood after - credit x live outs of the cards kept`` (a cheap form of informed's
    outs credit: outs by ``meld_outs``, live = not in ``dead``, the pile and the opponent's known
    cards, nor the card thrown). Returns (card, deadwood after)."""
    if credit <= 0:
        return simple_discard(m11, taken, scratch, mv)
    best = -1
    best_cost = 1e18
    m = m11 & ~(bit(taken) if taken >= 0 else np.int64(0))
    while m != 0:  # by card id (ties: the first of the higher rank)
        c = ctz(m)
        m &= m - 1
        kept = m11 & ~bit(c)
        cost = scratch[c] - credit * popcount(meld_outs(kept, corner) & ~dead & ~bit(c))
        if cost < best_cost - 1e-9 or (abs(cost - best_cost) <= 1e-9 and c % 13 > best % 13):
            best = c
            best_cost = cost
    return best, scratch[best]


@njit(cache=True, inline="always")
def cannot_want(m, dw, top, at, vmax, take, corner, mv):
    """True when the rollout's take rule surely declines ``top`` (no deadwood computed): it melds
    with nothing of ``m`` (not one of ``meld_outs``, a superset of the cards that meld), so
    whatever card is thrown after taking it the deadwood is at least ``dw + value(top) - vmax``
    (a thrown card lowers the deadwood by at most its value): too much to knock at ``at`` and
    (``take``) too little a gain to take it. The same decision as computing it, faster."""
    if (meld_outs(m, corner) >> top) & 1:
        return False
    v = VALUES_MV[mv, top]
    return dw + v - vmax > at and vmax - v < take


# What every rollout of one search shares: the rules (``mv``: the card values, ``limit``: the hand's
# knock limit), the sampled stock (``stock[:ns]``, drawn from the end), the meld solver's scratch
# and the searching player's own rollout policy (``my_take``, ``my_knock``, ``my_gin``, ``my_out``,
# ``fade``: see ``rollout``).
Plan = namedtuple("Plan", ("rules", "mv", "limit", "stock", "ns", "scratch", "ends", "idx", "my_take", "my_knock",
                           "my_gin", "my_out", "fade"))


@njit_by_type(cache=True)
def rollout(plan, me, opp, dw_me, dw_opp, top, p, force, my_turn, pile, kopp):
    """``rollout_vs`` against an opponent that knocks at the limit on every turn (``simple``)."""
    return rollout_vs(plan, me, opp, dw_me, dw_opp, top, p, force, my_turn, pile, kopp, ROLLOUT_TURNS)


@njit_by_type(cache=True)
def rollout_vs(plan, me, opp, dw_me, dw_opp, top, p, force, my_turn, pile, kopp, opp_knocks):
    """Play the hand on from the draw of position ``p`` (0: the player, 1: the opponent); the
    stock is ``plan.stock[:plan.ns]``, drawn from the end, ``top`` the pile's top card. ``force`` (0
    stock, 1 pile top, -1 policy) fixes the first draw. The opponent plays ``simple`` on its next
    ``opp_knocks`` turns and then goes only for gin (a camper past its window); the player
    plays ``simple`` but also takes a pile card that lowers its deadwood by ``my_take`` points or
    more and knocks only at deadwood <= ``my_knock`` (gin always goes out), and only gin from its
    own turn ``my_gin`` on (``my_turn``: the own turn number of its next turn in the rollout); with
    ``my_out`` > 0 it discards by ``own_discard`` with that credit per live out, scaled as
    informed's by ``fade`` (``pile``, ``kopp``: the pile and the opponent's known cards, kept up
    to date here). Returns the hand's points from the player's side (a hand that reaches the wall
    is void, G-WALL-1)."""
    rules, mv, limit, stock, ns, scratch, ends, idx, my_take, my_knock, my_gin, my_out, fade = plan
    my_at = min(limit, my_knock)
    corner = CORNER[mv] != 0
    vmax = VALUES_MV[mv].max()
    for _turn in range(ROLLOUT_TURNS):
        if ns <= 2:
            return 0
        m = me if p == 0 else opp
        dw = dw_me if p == 0 else dw_opp
        at = (my_at if my_turn < my_gin else 0) if p == 0 else (limit if opp_knocks > 0 else 0)
        take = force == 1
        d = -1  # the discard, once known
        if force < 0 and top >= 0 and not cannot_want(m, dw, top, at, vmax, my_take if p == 0 else NEVER, corner, mv):
            dw11, d, after = simple_choice(m | bit(top), ~bit(top), mv)
            take = dw11 < dw + VALUES_MV[mv, top] or after <= at or (p == 0 and dw - after >= my_take)
            if not take:
                d = -1
        if take:
            card = top
            pile &= ~bit(card)
            if p == 1:
                kopp |= bit(card)
        else:
            ns -= 1
            card = stock[ns]
        m11 = m | bit(card)
        if p == 0 and my_out > 0:
            scale = max(0.0, 1.0 - (my_turn - 1) / fade) if fade > 0 else 1.0
            removal_deadwoods(m11, scratch, mv)
            d, dw = own_discard(m11, card if take else -1, scratch, mv, my_out * scale, pile | kopp, corner)
        elif d >= 0:
            dw = after
        else:
            _, d, dw = simple_choice(m11, ~bit(card) if take else FULL, mv)
        force = -1
        m = m11 & ~bit(d)
        top = d
        pile |= bit(d)
        kopp &= ~bit(d)
        if p == 0:
            me = m
            dw_me = dw
            my_turn += 1
        else:
            opp = m
            dw_opp = dw
            opp_knocks -= 1
        if dw <= at or dw == 0:
            pts = knock_points(me, opp, rules, mv, ends, idx) if p == 0 else knock_points(opp, me, rules, mv, ends, idx)
            return pts if p == 0 else -pts
        p = 1 - p
    return 0


@internal
def utility(pts, params, view):
    """The value of a hand's points (the player's side; negative: the opponent's). ``goal`` > 0:
    points count up to what the winner needs to reach the target, plus ``goal`` for reaching it."""
    v = float(pts * view[V_STAKE])
    goal = params[P_GOAL]
    if goal <= 0 or v == 0:
        return v
    if v > 0:
        need = float(max(view[V_TARGET] - view[V_MY_SCORE], 1))
        return min(v, need) + (goal if v >= need else 0.0)
    need = float(max(view[V_TARGET] - view[V_OPP_SCORE], 1))
    return -(min(-v, need) + (goal if -v >= need else 0.0))


def skip_draws(rng, n):
    """Move the stream ``rng`` on by ``n`` draws, as ``n`` calls of ``rand_below`` would (the state
    is a counter: ``simcards.rng.next_u64``); plain Python here, one multiply-add jitted."""
    rng[0] = np.uint64((int(rng[0]) + n * int(STREAM_STEP)) % (1 << 64))


@overload(skip_draws, inline="always")
def _skip_draws_jit(rng, n):
    def impl(rng, n):
        rng[0] += np.uint64(n) * STREAM_STEP

    return impl


@internal
def deal_hand(pool, n_pool, n_opp, extra, known, buf, ex, exo, mv, rng):
    """The opponent's hand of ``sample_deal``'s deal, without laying out the stock: the shuffle
    stops after the opponent's cards (``buf[n_opp + extra:n_pool]`` holds the rest, not yet
    shuffled) and the stream skips the draws the stock's shuffle takes (the stream is a counter:
    ``simcards.rng``), so a deal the sampler throws away costs no stock. ``ex[exo:]`` records each
    extra card thrown back and the place it goes to. Returns (the opponent's mask, the stream's
    state where the stock's shuffle starts): ``lay_stock`` finishes the deal."""
    for i in range(n_pool):
        buf[i] = pool[i]
    extra = min(extra, n_pool - n_opp)
    dealt = n_opp + extra
    opp = known
    for i in range(dealt):  # Fisher-Yates from the front: buf[:i] is the dealt prefix
        j = i + rand_below(rng, n_pool - i)
        t = buf[i]
        buf[i] = buf[j]
        buf[j] = t
        if i < n_opp:
            opp |= bit(buf[i])
    start = rng[0]
    skip_draws(rng, n_pool - dealt)  # the stock's draws
    n_stock = n_pool - n_opp
    for e in range(extra):  # a turn of the opponent's past: draw one, throw its worst back
        opp |= bit(buf[n_opp + e])
        _, d, _ = simple_choice(opp, ~known, mv)
        opp &= ~bit(d)
        j = rand_below(rng, e + 1 + n_stock - extra)  # a random filled place of the stock
        if j > e:
            j += extra - e - 1
        ex[exo + 2 * e] = d
        ex[exo + 2 * e + 1] = j
    return opp, start


@internal
def lay_stock(buf, n_pool, n_opp, extra, ex, exo, start, stock, rng):
    """The stock of the deal ``deal_hand`` left in ``buf``/``ex[exo:]`` (its shuffle drawn from the
    stream state ``start``; ``rng`` is left as it was) into ``stock[:n_pool - n_opp]``."""
    extra = min(extra, n_pool - n_opp)
    saved = rng[0]
    rng[0] = start
    for i in range(n_opp + extra, n_pool):
        j = i + rand_below(rng, n_pool - i)
        t = buf[i]
        buf[i] = buf[j]
        buf[j] = t
        stock[i - n_opp] = buf[i]
    rng[0] = saved
    for e in range(extra):  # each card thrown back swapped to its place
        d = ex[exo + 2 * e]
        j = ex[exo + 2 * e + 1]
        stock[e] = d
        stock[e] = stock[j]
        stock[j] = d


@internal
def sample_deal(pool, n_pool, n_opp, extra, known, buf, stock, scratch, mv, rng):
    """Deal the opponent ``known`` plus ``n_opp`` random cards of ``pool[:n_pool]``; the rest, in
    random order, is the stock (``stock[:n_pool - n_opp]``). With ``extra`` > 0 the opponent is
    dealt ``extra`` cards more and throws back, one at a time, the card whose removal leaves the
    lowest deadwood (the ``simple`` discard): its hand has been filtered by its draws as a real
    hand is, not a uniform one. The cards thrown back go to random places in the stock. Returns
    the opponent's mask (``deal_hand`` then ``lay_stock``; ``scratch`` holds the record)."""
    opp, start = deal_hand(pool, n_pool, n_opp, extra, known, buf, scratch, 0, mv, rng)
    lay_stock(buf, n_pool, n_opp, extra, scratch, 0, start, stock, rng)
    return opp


@internal
def odd_cards(opp, shown, mv):
    """How many of ``shown`` (cards the opponent discarded or declined) would go into a meld with
    the sampled hand ``opp``: a ``simple``-like player keeps such a card rather than throw it or
    let it lie, so a sample with many is an unlikely one."""
    dw = deadwood(opp, mv)
    count = 0
    m = shown & ~opp & meld_outs(opp, CORNER[mv] != 0)  # (a card that melds is one of them)
    while m != 0:
        low = m & -m
        m ^= low
        if deadwood(opp | low, mv) < dw + VALUES_MV[mv, popcount(low - 1)]:
            count += 1
    return count


@internal
def misfit(opp, shown, cap, last, known, mv, view, depth, limit, rng, bound=1 << 30):
    """How unlikely the sampled hand ``opp`` is for a ``simple``-like opponent: ``odd_cards`` of
    ``shown``, plus 1 if its deadwood is at or under ``cap`` (>= 0: it discarded and played on,
    where ``simple`` knocks as soon as it may, G-KNOCK-1), plus 1 if ``last`` (>= 0: its latest
    discard) would not have been a lowest-deadwood discard of ``opp`` plus ``last`` (``known``
    cards, taken from the pile, are left out of the comparison: the card just taken may not be
    thrown, G-TURN-2), plus ``history_misfit`` over ``depth`` turns. Counting stops at ``bound``."""
    count = odd_cards(opp, shown, mv) if shown != 0 else 0
    if cap >= 0 and deadwood(opp, mv) <= cap:
        count += 1
    if last >= 0:
        thrown, lowest, _ = thrown_and_lowest(opp | bit(last), last, opp & ~known, mv)
        if lowest < thrown:
            count += 1
    if depth > 0 and count < bound:
        count += history_misfit(opp, view, depth, limit, mv, rng, bound - count)
    return count


@njit(cache=True, inline="always")
def turn_record(view, i):
    """The opponent's ``i``-th turn of the hand as the view records it (layout.V_OPP_HIST)."""
    return (view[V_OPP_HIST + i // HIST_PER_SLOT] >> (HIST_BITS * (i % HIST_PER_SLOT))) & ((1 << HIST_BITS) - 1)


@internal
def history_misfit(opp, view, depth, limit, mv, rng, bound=1 << 30):
    """How many of the opponent's last ``depth`` recorded turns a ``simple``-like player who holds
    ``opp`` now would not have played as it did. Walking back from ``opp``, each turn's 11 cards
    are the hand after it plus the card it threw; they count against the sample when that card
    was not a lowest-deadwood discard of them, when the hand it kept would have let it knock
    (G-KNOCK-1: ``simple`` knocks as soon as it may), and, before a draw from the stock, when the
    card it left on the pile would have gone into a meld. The card a stock draw brought is not
    known: one of the 11 that did not come from the pile is taken at random (from ``rng``).
    Counting stops at ``bound`` (a sample that far off is not kept)."""
    n = view[V_OPP_TURNS]
    from_pile = np.int64(0)
    for i in range(n):
        rec = turn_record(view, i)
        if rec & HIST_TOOK:
            from_pile |= bit((rec >> 6) & HIST_CARD)
    hand = opp
    count = 0
    for i in range(n - 1, max(n - depth, 0) - 1, -1):
        rec = turn_record(view, i)
        d = rec & HIST_CARD
        top = (rec >> 6) & HIST_CARD
        took = (rec & HIST_TOOK) != 0
        h11 = hand | bit(d)
        kept, lowest, full = thrown_and_lowest(h11, d, h11 & ~bit(d) & ~(bit(top) if took else np.int64(0)), mv)
        if kept <= limit:
            count += 1
        if lowest < kept:
            count += 1
        if count >= bound:
            return count
        if took:
            if not (h11 >> top) & 1:
                return count + 1
            hand = h11 & ~bit(top)
        elif rec & HIST_STOCK:
            cands = h11 & ~from_pile
            nc = popcount(cands)
            if nc == 0:
                return count + 1
            pick = rand_below(rng, nc)
            for _ in range(pick):
                cands &= cands - 1
            drawn = cands & -cands
            hand = h11 & ~drawn
            # the card left on the pile melds with the hand (then it is one of meld_outs)
            if (top != HIST_NONE and (meld_outs(hand, CORNER[mv] != 0) >> top) & 1
                    and deadwood(hand | bit(top), mv) < removal_of(h11, full, ctz(drawn), mv) + VALUES_MV[mv, top]):
                count += 1
        else:  # the deal's eleventh card thrown (G-V-DEAL11): no draw before it
            break
    return count


# What the sampler of one search deals from and checks against (``sampler``): the unseen cards
# (``pool[:n_pool]``), the opponent's hand size to fill (``n_opp``) and known cards, and
# ``sampler_terms``' checks; ``view``/``limit``/``mv`` for ``misfit``.
Sampler = namedtuple("Sampler", ("pool", "n_pool", "n_opp", "extra", "known", "shown", "tries", "cap", "last",
                                 "depth", "limit", "view", "mv"))


@internal
def fitted_deal(smp, buf, stock, best_buf, scratch, rng):
    """``sample_deal`` up to ``smp.tries`` times, keeping the first deal whose opponent hand melds
    with none of ``smp.shown`` (else the one with the fewest such cards; with ``cap``/``last``, the
    fewest ``misfit`` count); the stock lands in ``stock``. Rejection, not weights: every kept
    sample counts the same. Only the kept deal's stock is laid out (``deal_hand``, ``lay_stock``:
    ``buf``/``best_buf`` and ``scratch[:2 * EX_ROW]`` hold the deal tried and the best one)."""
    pool, n_pool, n_opp, extra, known, shown, tries, cap, last, depth, limit, view, mv = smp
    best, best_start = deal_hand(pool, n_pool, n_opp, extra, known, buf, scratch, 0, mv, rng)
    best_exo = 0
    if tries > 1 and not (shown == 0 and cap < 0 and last < 0 and (depth <= 0 or view[V_OPP_TURNS] == 0)):
        best_odd = misfit(best, shown, cap, last, known, mv, view, depth, limit, rng)
        t = 1
        while best_odd > 0 and t < tries:
            t += 1
            buf, best_buf = best_buf, buf  # the best so far stays in best_buf
            opp, start = deal_hand(pool, n_pool, n_opp, extra, known, buf, scratch, EX_ROW - best_exo, mv, rng)
            odd = misfit(opp, shown, cap, last, known, mv, view, depth, limit, rng, best_odd)
            if odd < best_odd:
                best, best_start, best_odd = opp, start, odd
                best_exo = EX_ROW - best_exo
            else:
                buf, best_buf = best_buf, buf
    lay_stock(buf, n_pool, n_opp, extra, scratch, best_exo, best_start, stock, rng)
    return best


@internal
def strict_checks(view):
    """(cap, last) for ``misfit`` from what the player has seen: once the opponent has discarded
    this hand and not knocked, a ``simple``-like opponent holds more than the hand's limit
    (G-KNOCK-1); its latest discard is the pile's top (or, once the player took it this turn,
    the card taken). -1: no such check."""
    cap = -1
    if view[V_OPP_DISCARDS] != 0:
        cap = view[V_LIMIT]
    last = -1
    if view[V_TAKEN] >= 0:
        if (view[V_OPP_DISCARDS] >> view[V_TAKEN]) & 1:
            last = view[V_TAKEN]
    elif view[V_TOP] >= 0 and (view[V_OPP_DISCARDS] >> view[V_TOP]) & 1:
        last = view[V_TOP]
    return cap, last


@internal
def unseen_pool(view, pool):
    """The unseen cards (``unseen_cards``) into ``pool``, by card id; returns how many."""
    n_pool = 0
    m = unseen_cards(view)
    while m != 0:
        low = m & -m
        m ^= low
        pool[n_pool] = popcount(low - 1)
        n_pool += 1
    return n_pool


@internal
def sampler_terms(params, view):
    """What ``fitted_deal`` checks a sampled opponent hand against, from the params and the view:
    (extra cards it drew from the stock and threw back, the cards it discarded or declined, deals
    tried, strict's knock cap and latest discard, turns of the record checked)."""
    extra = 0
    if params[P_FILTER] > 0:  # the opponent's draws from the stock so far (discards not matched by pickups)
        drew = popcount(view[V_OPP_DISCARDS]) - popcount(view[V_OPP_TOOK])
        extra = min(max(drew, 0), int(params[P_FILTER]))
    shown = np.int64(0)
    if params[P_SEEN] > 0:
        shown = (view[V_OPP_DISCARDS] | view[V_OPP_PASSED]) & ~known_opp(view)
    cap, last = -1, -1
    if params[P_STRICT] > 0:
        cap, last = strict_checks(view)
    return extra, shown, int(params[P_FIT]), cap, last, int(params[P_DEPTH])


@internal
def style_checks(params, view, cap, limit):
    """(strict's knock cap, the turn record's knock limit) the sampler checks (``misfit``): once the
    opponent has played ``style`` (> 0) turns of the hand, neither (-1): a hand it could have knocked
    with and did not is the hand of a player who goes for gin (the search plays it on so,
    ``rollout_vs``), not a misfit; before that turn every panel style knocks as ``simple`` does."""
    if params[P_STYLE] > 0 and view[V_OPP_TURNS] >= params[P_STYLE]:
        return -1, -1
    return cap, limit


@internal
def opponent_marginals(params, view, rules, n, rng):
    """How many of ``n`` of mc's sampled deals put each card in the opponent's hand (its known
    cards included): the sampler's belief, to score against the truth
    (``benchmarks/gin_sampler.py``)."""
    mv = rules[R_MV]
    known = known_opp(view)
    n_opp = OPP_CARDS - popcount(known)
    pool = np.empty(52, dtype=np.int64)
    n_pool = unseen_pool(view, pool)
    counts = np.zeros(52, dtype=np.int64)
    if n_opp < 0 or n_pool < n_opp:
        return counts
    extra, shown, tries, cap, last, depth = sampler_terms(params, view)
    cap, knock_check = style_checks(params, view, cap, view[V_LIMIT])
    smp = Sampler(pool, n_pool, n_opp, extra, known, shown, tries, cap, last, depth, knock_check, view, mv)
    buf = np.empty(52, dtype=np.int64)
    stock = np.empty(52, dtype=np.int64)
    best_stock = np.empty(52, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    for _ in range(n):
        opp = fitted_deal(smp, buf, stock, best_stock, scratch, rng)
        for c in range(52):
            counts[c] += (opp >> c) & 1
    return counts


@njit(cache=True)
def mc_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    if params[P_PATIENCE] < NEVER and view[V_OPP_WAITED] == 0:
        params = patient(params)
    if rules[R_MJ] != 0 or view[V_TAKE_MUST_KNOCK] != 0:
        return informed_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)
    if kind == K_DRAW and params[P_DRAW] > 0:
        return mc_search(kind, params, hand, n, opts, n_opts, view, rules, rng)
    if kind == K_KNOCK and params[P_KNOCK] > 0 and opts[1, 1] > 0:
        return mc_search(kind, params, hand, n, opts, n_opts, view, rules, rng)
    if kind == K_DISCARD and params[P_WIDTH] > 1:
        return mc_search(kind, params, hand, n, opts, n_opts, view, rules, rng)
    return informed_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)


@internal
def patient(params):
    """``params`` with gin_after and rgin brought forward to ``patience``: the player, and its own side
    in the rollouts, knock only with gin from that own turn on (against an opponent not yet seen
    waiting, layout.V_OPP_WAITED: one that knocks when it can is undercut, or ginned, by waiting)."""
    out = params.copy()
    out[P_GIN_AFTER] = min(params[P_GIN_AFTER], params[P_PATIENCE])
    out[P_RGIN] = min(params[P_RGIN], params[P_PATIENCE])
    return out


@internal
def settled(total, total2, n_cand, done, stop):
    """Early stop: every challenger's mean gain over the heuristic's choice is more than ``stop``
    standard errors away from zero (more samples would not change which side of it it is on)."""
    for j in range(1, n_cand):
        mean = total[j] / done
        var = max(total2[j] / done - mean * mean, 0.0)
        if abs(mean) <= stop * np.sqrt(var / done):
            return False
    return True


@internal
def deal_space(view, pool):
    """What a sampled deal is dealt from: the cards the opponent is known to hold, how many more it
    holds (``n_opp``), the unseen cards (``pool[:n_pool]``) and the stock's size in the deal."""
    known = known_opp(view)
    n_opp = OPP_CARDS - popcount(known)
    n_pool = unseen_pool(view, pool)
    return known, n_opp, n_pool, min(view[V_STOCK], n_pool - n_opp)


@internal
def mc_search(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """Determinized rollouts of the candidate options (see the module doc); the best mean wins
    (ties: the lower candidate index, i.e. the heuristic's order)."""
    mv = rules[R_MV]
    limit = view[V_LIMIT]
    mask = view[V_MASK]
    pool_o = np.empty(52, dtype=np.int64)
    known, n_opp, n_pool, ns = deal_space(view, pool_o)
    if n_opp < 0 or ns < 0:  # the view does not fit a two-hand table: play the heuristic
        return informed_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)
    # candidates, best first by the heuristic
    cand = np.empty(n_opts, dtype=np.int64)
    n_cand = n_opts
    if kind == K_DISCARD:
        costs = np.empty(n_opts)
        discard_costs(params, opts, n_opts, view, rules, costs)
        used = np.zeros(n_opts, dtype=np.bool_)
        n_cand = min(n_opts, max(int(params[P_WIDTH]), 1))
        for j in range(n_cand):
            best = -1
            for a in range(n_opts):
                if not used[a] and (best < 0 or better(costs[a], opts[a, 0], costs[best], opts[best, 0])):
                    best = a
            if j > 0 and params[P_PRUNE] > 0 and costs[best] > costs[cand[0]] + params[P_PRUNE]:
                n_cand = j  # the rest are worse by the heuristic's margin: not worth rollouts
                break
            used[best] = True
            cand[j] = best
    else:  # draw: the heuristic's choice first; knock: knock first
        h = knock_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)
        cand[0] = h
        cand[1] = 1 - h
    if n_cand <= 1:
        return cand[0]
    # the arrays the sampling loop passes on at every call, borrowed (``nbutil.borrow``: no atomic
    # reference counting at each call); the owners are kept alive to the end (``keep_alive``)
    buf_o = np.empty(52, dtype=np.int64)
    stock_o = np.empty(52, dtype=np.int64)
    best_o = np.empty(52, dtype=np.int64)
    scratch_o = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    ends_o = np.zeros((ENDS_ROWS, 14), dtype=np.int64)
    idx_o = np.zeros(ENDS_ROWS, dtype=np.int64)
    pool, buf, stock, best_stock = borrow(pool_o), borrow(buf_o), borrow(stock_o), borrow(best_o)
    scratch, ends, idx = borrow(scratch_o), borrow(ends_o), borrow(idx_o)
    params, view, rules, rng = borrow(params), borrow(view), borrow(rules), borrow(rng)
    total = np.zeros(n_cand)  # sum of each candidate's utility minus candidate 0's, and of its square
    total2 = np.zeros(n_cand)
    vals = np.zeros(n_cand)
    k = max(int(params[P_K]), 1)
    dw_me = deadwood(mask, mv) if kind == K_DRAW else 0
    top = view[V_TOP]
    extra, shown, tries, cap, last, depth = sampler_terms(params, view)
    cap, knock_check = style_checks(params, view, cap, limit)
    smp = Sampler(pool, n_pool, n_opp, extra, known, shown, tries, cap, last, depth, knock_check, view, mv)
    # the opponent's turns on which it still knocks at the limit in the rollouts (``ogin``)
    opp_knocks_all = ROLLOUT_TURNS
    if params[P_OGIN] < NEVER:
        opp_knocks_all = max(int(params[P_OGIN]) - 1 - view[V_OPP_TURNS], 0)
    passed_seen = knock_check < 0 and view[V_OPP_DISCARDS] != 0
    my_gin = params[P_RGIN]
    plan = Plan(rules, mv, limit, stock, ns, scratch, ends, idx, params[P_RTAKE], params[P_RKNOCK], my_gin,
                params[P_ROUT], params[P_FADE])
    pile = view[V_PILE]
    turn = view[V_MY_TURNS] + 1  # the own turn deciding now
    # with ``rgin`` the search knows informed's knock timing: a discard knocks only at its threshold
    knock_at = informed_threshold(params, view) if my_gin < NEVER else float(limit)
    stop = params[P_STOP]
    done = 0
    for _s in range(k):
        if stop > 0 and done >= STOP_MIN and done % STOP_EVERY == 0 and settled(total, total2, n_cand, done, stop):
            break
        done += 1
        opp = fitted_deal(smp, buf, stock, best_stock, scratch, rng)
        dw_opp = deadwood(opp, mv)
        # ``style``: a sampled hand it could have knocked with, and did not, is a hand of a player
        # who goes for gin: so it plays on in this sample's rollouts
        opp_knocks = 0 if passed_seen and dw_opp <= limit else opp_knocks_all
        for j in range(n_cand):
            a = cand[j]
            if kind == K_DISCARD:
                c = opts[a, 0]
                m10 = mask & ~bit(c)
                if opts[a, 1] <= knock_at:  # a knocking discard: the player knocks (informed's knock)
                    pts = knock_points(m10, opp, rules, mv, ends, idx)
                else:
                    pts = rollout_vs(plan, m10, opp, opts[a, 1], dw_opp, c, 1, -1, turn + 1, pile | bit(c), known,
                                     opp_knocks)
            elif kind == K_DRAW:
                pts = rollout_vs(plan, mask, opp, dw_me, dw_opp, top, 0, a, turn, pile, known, opp_knocks)
            else:  # K_KNOCK
                if a == 1:
                    pts = knock_points(mask, opp, rules, mv, ends, idx)
                else:
                    pts = rollout_vs(plan, mask, opp, opts[0, 1], dw_opp, top, 1, -1, turn + 1, pile, known,
                                     opp_knocks)
            vals[j] = utility(pts, params, view)
        for j in range(1, n_cand):
            d = vals[j] - vals[0]
            total[j] += d
            total2[j] += d * d
    # the heuristic's choice stands unless another candidate beats it by z standard errors of
    # the paired mean difference (the samples are the same for every candidate)
    best = 0
    best_gain = 0.0
    for j in range(1, n_cand):
        mean = total[j] / done
        var = max(total2[j] / done - mean * mean, 0.0)
        if mean > params[P_Z] * np.sqrt(var / done) and mean > best_gain + 1e-9:
            best = j
            best_gain = mean
    alive = (keep_alive(pool_o) + keep_alive(buf_o) + keep_alive(stock_o) + keep_alive(best_o) + keep_alive(scratch_o)
             + keep_alive(ends_o) + keep_alive(idx_o))
    return cand[best] + alive
