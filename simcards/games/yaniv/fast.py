"""The built-in ``threshold`` strategy's discard and draw, computed by the kernel straight from the hand.

``policies.threshold_decide`` defines the strategy: it scores every row of the option table a
decision is shown. The reference engine always asks it that way, and so does the kernel for every
other strategy (``random``, user policies) and for the section-5 decisions. For a seat playing
``threshold`` the kernel calls ``threshold_turn`` instead, which makes the same two choices
without laying the singles out in the table or calling a policy per decision:

* every option gets the same cost, computed with the same floating-point operations in the same
  order (so equal costs stay equal), and ties go the same way: to the first best option in table
  order (the singles in face order, then the multi-card rows that ``groups.multi_groups`` writes,
  sorted, after them — the table the other strategies see);
* the draw is the best available card found while scoring the chosen group: the draw decision
  weighs the very same numbers (same hand left, same thrown group), stock first;
* "does this card build a group" is a table lookup derived from ``policies.builds_group`` itself.

The differential tests (reference engine against kernel, move for move) check that both give the
same games.
"""

from __future__ import annotations

import numpy as np

from simcards.games.yaniv.groups import LOWBIT13, RUN_STARTS, multi_groups
from simcards.games.yaniv.policies import P_JOKER_END, P_KEEP, P_STOCK, P_TOP, RANK, SUIT, builds_group
from simcards.games.yaniv.rules import PICK_TOP, R_JOKER_PAIR, R_PICKUP, R_VALUES, R_WILD
from simcards.nbutil import compiled_as, njit_by_type

ONE = np.int64(1)


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
def _builds(card, counts, lanes, spare):
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
        d = value - keep * value if _builds(card, counts, lanes, spare) else (
            float(value) if value < thrown_max else 1e9)
        if d < draw:
            draw = d
            pick = t
    return draw, pick


@njit_by_type(cache=True, _nrt=False, inline="always")
def _kept(pairs, counts, rules):
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
    cost = total - shed + draw - keep * _kept(pairs, left_counts, rules)
    if length >= 3 and (cards[0] >= 52 or cards[length - 1] >= 52) and natural:
        cost += params[P_JOKER_END]  # a run (not a joker set) with a joker at an end
    if top_only and length >= 2:  # Kluft: the card left on top is the next player's to take
        cost += params[P_TOP] * (13 - rules[R_VALUES + cards[length - 1]]) / 13.0
    return cost, pick


@njit_by_type(cache=True, _nrt=False, inline="always")
def threshold_turn(hand, n, rules, params, total, stock_n, avail, n_avail, out, keys, scratch, thrown):
    """The discard and the draw of a ``threshold`` seat holding the sorted ``hand[:n]`` (total
    ``total``), the previous discard offering ``avail[:n_avail]``. Writes the group to throw, as
    laid, to ``thrown`` and returns ``(row, length, pick, n_options)``: the group's row in the
    option table, its length, the card to draw (an index into ``avail``, -1 for the stock) and the
    size of the option table. ``out``, ``keys`` and ``scratch`` are ``groups.legal_groups``'s work
    arrays: the table is laid out in ``out`` as ``legal_groups`` would, straight from the hand for
    singles and pairs."""
    # The hand once: rank counts (4 bits a rank), faces present, faces held twice (two decks),
    # ranks held twice or more (the only ones a kept set can come from) and three times, jokers.
    counts = np.int64(0)
    lanes = np.int64(0)
    twice = np.int64(0)
    ranks = np.int64(0)
    pairs = np.int64(0)
    triples = np.int64(0)
    jokers = 0
    singles = 0  # the singles are the first rows of the table, in face order
    last = -1
    for i in range(n):
        c = hand[i]
        if c != last:
            out[singles, 0] = 1
            out[singles, 1] = c
            singles += 1
            last = c
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
    wild = rules[R_WILD] != 0
    top_only = rules[R_PICKUP] == PICK_TOP
    # Sets and runs, sorted after the singles.
    runs = lanes & (lanes >> 1) & (lanes >> 2) & RUN_STARTS != 0 or (wild and jokers > 0 and lanes != 0 and n >= 3)
    joker_set = jokers >= 2 and rules[R_JOKER_PAIR] != 0
    rows = singles
    if pairs == 0 and not runs and not joker_set:
        pass  # singles only
    elif triples == 0 and not runs and not joker_set and not top_only:
        # Only pairs (one layout each): sorted by first card, the lower of the two.
        for i in range(n):
            c = hand[i]
            if c < 52 and pairs >> RANK[c] & 1:
                for j in range(i + 1, n):  # the other card, when c is the lower of the two
                    if hand[j] < 52 and RANK[hand[j]] == RANK[c]:
                        out[rows, 0] = 2
                        out[rows, 1] = c
                        out[rows, 2] = hand[j]
                        rows += 1
    else:
        rows += multi_groups(hand, n, rules, out, keys, scratch, singles)
    keep = params[P_KEEP]
    stock = params[P_STOCK] if stock_n > 0 else 1e9
    best = 0
    best_cost = 1e18
    best_pick = -1
    held = (counts, lanes, twice, np.int64(jokers), pairs)
    for a in range(rows):
        cost, pick = group_cost(out[a, 1:], out[a, 0], total, held, avail, n_avail, wild, keep, stock, top_only,
                                params, rules)
        if cost < best_cost:
            best_cost = cost
            best = a
            best_pick = pick
    length = out[best, 0]
    for j in range(length):
        thrown[j] = out[best, 1 + j]
    if best_pick < 0 and stock_n == 0:
        best_pick = 0  # no stock: the first of the equally refused cards
    return best, length, best_pick, rows


# The same turn compiled on its own, for code that is not the plain kernel's hot loop: the
# engines' ``kernel.play_round_via`` and the search's rollouts call it (each inlined copy of
# ``threshold_turn`` costs numba seconds to inline and type, and LLVM to optimize again).
threshold_turn_called = compiled_as(threshold_turn, "threshold_turn_called", njit_by_type(cache=True, _nrt=False))
