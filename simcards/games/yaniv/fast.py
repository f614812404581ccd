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

from simcards.games.yaniv.groups import RUN_STARTS, available_faces, lay_singles, multi_groups
from simcards.games.yaniv.policies import (
    P_JOKER_END,
    P_KEEP,
    P_STOCK,
    P_TOP,
    RANK,
    builds_from_summary,
    builds_group,
    group_cost,
    hand_held,
    kept_points,
)
from simcards.games.yaniv.rules import PICK_TOP, R_JOKER_PAIR, R_PICKUP, R_VALUES, R_WILD
from simcards.nbutil import NO_ENTRY, compiled_as, njit_by_type

DENY = False  # a module constant: ``cheapest_group`` adds informed's deny term only in ``denied_group_called``


@njit_by_type(cache=True, _nrt=False, inline="always")
def threshold_turn(hand, n, rules, params, total, stock_n, avail, n_avail, out, keys, scratch, thrown):
    """The discard and the draw of a ``threshold`` seat holding the sorted ``hand[:n]`` (total
    ``total``), the previous discard offering ``avail[:n_avail]``. Writes the group to throw, as
    laid, to ``thrown`` and returns ``(row, length, pick, n_options)``: the group's row in the
    option table, its length, the card to draw (an index into ``avail``, -1 for the stock) and the
    size of the option table. ``out``, ``keys`` and ``scratch`` are ``groups.legal_groups``'s work
    arrays: the table is laid out in ``out`` as ``legal_groups`` would, straight from the hand for
    singles and pairs."""
    singles = lay_singles(hand, n, out)  # the first rows of the table, in face order
    counts, lanes, twice, jokers, pairs, triples = hand_held(hand, n)
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
    held = (counts, lanes, twice, jokers, pairs)
    best, best_cost, best_pick = cheapest_group(out, rows, total, held, avail, n_avail, keep, stock, params, rules,
                                                None)
    length = out[best, 0]
    for j in range(length):
        thrown[j] = out[best, 1 + j]
    if best_pick < 0 and stock_n == 0:
        best_pick = 0  # no stock: the first of the equally refused cards
    return best, length, best_pick, rows


@njit_by_type(cache=True, _nrt=False, inline="always")
def cheapest_group(out, rows, total, held, avail, n_avail, keep, stock, params, rules, denied):
    """``(row, cost, pick)`` of the first row of ``out[:rows]`` of least ``group_cost`` (and its draw),
    scoring only the rows that can be it. A row's cost is at least its floor: what the hand keeps
    (``total`` minus the group), plus the cheapest draw any group could leave (a card builds a group
    with what is left only if it does with the whole hand), minus the whole hand's kept set, in the
    same floating-point operations, each no larger, when ``keep``, ``joker_end`` and ``top`` are not
    negative (else every row is scored). The row of the lowest floor (shedding the most) is scored
    first; a row whose floor exceeds the best cost so far (or equals it, after the best row) cannot
    be chosen. With ``DENY`` (``denied_group_called``), each row's cost is ``denied_cost``'s, never
    lower than ``group_cost``: the floors still hold."""
    counts, lanes, twice, jokers, pairs = held
    wild = rules[R_WILD] != 0
    top_only = rules[R_PICKUP] == PICK_TOP
    prune = keep >= 0 and params[P_JOKER_END] >= 0 and params[P_TOP] >= 0
    spare = 1 if wild and jokers > 0 else 0
    draw_floor = stock
    for t in range(n_avail):
        card = avail[t]
        value = rules[R_VALUES + card]
        d = value - keep * value if builds_from_summary(card, counts, lanes, spare) else float(value)
        draw_floor = min(d, draw_floor)
    kept_most = keep * kept_points(pairs, counts, rules)
    first = 0  # the row shedding the most (the lowest floor), found without a branch
    if prune:
        most = -1
        for a in range(rows):
            shed = 0
            for j in range(out[a, 0]):
                shed += rules[R_VALUES + out[a, 1 + j]]
            first = a if shed > most else first
            most = max(shed, most)
    best = first
    best_cost = 1e18
    best_pick = -1
    for step in range(rows):  # the first row, then the others in order (one scoring loop: one copy to compile)
        a = first if step == 0 else (step - 1 if step <= first else step)
        if step > 0 and prune:
            shed = 0
            for j in range(out[a, 0]):
                shed += rules[R_VALUES + out[a, 1 + j]]
            floor = total - shed + draw_floor - kept_most
            if floor > best_cost or (floor == best_cost and a > best):
                continue
        cost, pick = group_cost(out[a, 1:], out[a, 0], total, held, avail, n_avail, wild, keep, stock, top_only,
                                params, rules)
        if DENY:
            cost = denied_cost(cost, out[a, 1:], out[a, 0], wild, denied)
        if cost < best_cost or (cost == best_cost and a < best):
            best_cost = cost
            best = a
            best_pick = pick
    return best, best_cost, best_pick


@njit_by_type(cache=True, _nrt=False, inline="always")
def denied_cost(cost, cards, length, wild, denied):
    """``cost`` plus informed's ``deny`` for every card of the group ``cards[:length]`` the next
    player could take that builds a group with its known cards; ``denied`` is ``(deny, pickup,
    its known cards' rank counts, faces and jokers, a work array)`` (``search.deny_discard``)."""
    deny, pickup, k_counts, k_lanes, k_jokers, faces = denied
    if deny == 0:
        return cost
    m = available_faces(cards, length, pickup, faces)
    for t in range(m):
        if builds_group(faces[t], k_counts, k_lanes, k_jokers, wild):
            cost += deny
    return cost


# The same turn compiled on its own, for code that is not the plain kernel's hot loop: the
# engines' ``kernel.play_round_via`` and the search's rollouts call it (each inlined copy of
# ``threshold_turn`` costs numba seconds to inline and type, and LLVM to optimize again).
# Called from jitted code only (``nbutil.NO_ENTRY``: no entry points for Python, whose wrappers
# are compile time for nothing); calling one of them from Python crashes.
_CALLED = njit_by_type(**NO_ENTRY, _nrt=False)
threshold_turn_called = compiled_as(threshold_turn, "threshold_turn_called", _CALLED)
# ... and threshold's choice among a table's rows with informed's deny term (``search.deny_discard``:
# informed's discard, 0 for threshold's own choice), calling a group's cost compiled on its own too
group_cost_called = compiled_as(group_cost, "group_cost_called", _CALLED)
denied_group_called = compiled_as(cheapest_group, "denied_group_called", _CALLED, group_cost=group_cost_called,
                                  DENY=True)
