"""Built-in Yaniv strategies, as jitted decision functions with one signature.

Every decision a player makes goes through::

    decide(kind, params, hand, n, opts, n_opts, view, rules, rng) -> option index

``kind`` is ``K_CALL`` (options: 0 play on, 1 call), ``K_DISCARD`` (options: legal groups as
laid) or ``K_DRAW`` (options: ``[1, face]``, face -1 = stock). ``hand[:n]`` is the player's own
sorted hand, ``view`` the public view (layout.V_*), ``rules`` the encoded rules, ``rng`` the game's
random state. A strategy sees nothing else — no other hand, no stock order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcards.games.yaniv.layout import (
    K_CALL,
    K_DISCARD,
    MAX_HAND,
    V_AVAIL,
    V_AVAIL_N,
    V_STOCK,
    V_THROWN,
    V_THROWN_N,
    V_TOTAL,
)
from simcards.games.yaniv.rules import R_VALUES, R_WILD
from simcards.rng import rand_below

SID_RANDOM = 0
SID_THRESHOLD = 1
FIRST_CUSTOM_SID = 100
N_PARAMS = 8

# threshold family parameters (indices into the params vector)
P_CALL, P_KEEP, P_STOCK, P_JOKER_END = 0, 1, 2, 3


@njit(cache=True)
def random_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """Uniform over the legal options of each decision (call or not, which group, which draw)."""
    return rand_below(rng, n_opts)


@njit(cache=True)
def builds_group(card, hand, n, skip, wild):
    """Does ``card`` form a legal multi-card group with cards of ``hand[:n]`` (those whose bit
    is clear in the ``skip`` mask)? A same-rank natural makes a set; two cards making a 3-run with it a run."""
    if card >= 52:
        return False
    rank = card % 13
    suit = card // 13
    jokers = 0
    ranks_in_suit = 0
    for i in range(n):
        if skip >> i & 1:
            continue
        c = hand[i]
        if c >= 52:
            jokers += 1
        elif c % 13 == rank:
            return True
        elif c // 13 == suit:
            ranks_in_suit |= 1 << (c % 13)
    if not wild:
        jokers = 0
    for start in range(max(0, rank - 2), min(rank, 10) + 1):
        missing = 0
        for q in range(start, start + 3):
            if q != rank and not (ranks_in_suit >> q & 1):
                missing += 1
        if missing <= jokers and missing < 2:
            return True
    return False


@njit(cache=True)
def _draw_cost(card, hand, n, skip, thrown_max, params, rules):
    """Expected value a draw adds to the hand, or a large number when the heuristic refuses it.
    An available card is taken only if it is lower than the highest card thrown or builds a group
    (guarding against swapping equal cards forever, see PERFORMANCE.md)."""
    if card < 0:
        return params[P_STOCK]
    value = rules[R_VALUES + card]
    builds = builds_group(card, hand, n, skip, rules[R_WILD] != 0)
    if builds:
        return value - params[P_KEEP] * value
    if value < thrown_max:
        return float(value)
    return 1e9


@njit(cache=True)
def _kept_pair_bonus(hand, n, skip, rules):
    """Points a kept set would let the player shed beyond its first card next turn."""
    best = 0
    for i in range(n):
        c = hand[i]
        if skip >> i & 1 or c >= 52:
            continue
        same = 0
        for j in range(n):
            if not (skip >> j & 1) and hand[j] < 52 and hand[j] % 13 == c % 13:
                same += 1
        extra = (same - 1) * rules[R_VALUES + c]
        if extra > best:
            best = extra
    return best


@njit(cache=True)
def threshold_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """The ``threshold`` family: call at or under ``call``; throw the group leaving the lowest
    expected hand (kept pairs and the best available draw count, weighted by ``keep``); take an
    available card when it is lower than what was thrown or builds a group, else the stock;
    runs with a joker at an end (a gift to the next player) cost ``joker_end``."""
    if kind == K_CALL:
        return 1 if view[V_TOTAL] <= params[P_CALL] else 0
    if kind == K_DISCARD:
        total = view[V_TOTAL]
        best = 0
        best_cost = 1e18
        for a in range(n_opts):
            length = opts[a, 0]
            skip = 0  # bit i set: hand[i] is thrown
            shed = 0
            thrown_max = 0
            for j in range(length):
                c = opts[a, 1 + j]
                v = rules[R_VALUES + c]
                shed += v
                if v > thrown_max:
                    thrown_max = v
                for i in range(n):  # mark one copy of the face as thrown
                    if not (skip >> i & 1) and hand[i] == c:
                        skip |= 1 << i
                        break
            draw = 1e9
            if view[V_STOCK] > 0:
                draw = params[P_STOCK]
            for t in range(view[V_AVAIL_N]):
                cost = _draw_cost(view[V_AVAIL + t], hand, n, skip, thrown_max, params, rules)
                if cost < draw:
                    draw = cost
            cost = total - shed + draw - params[P_KEEP] * _kept_pair_bonus(hand, n, skip, rules)
            if length >= 3 and (opts[a, 1] >= 52 or opts[a, length] >= 52):
                if not (opts[a, 1] >= 52 and opts[a, length] >= 52):  # a run, not a joker set
                    cost += params[P_JOKER_END]
            if cost < best_cost:
                best_cost = cost
                best = a
        return best
    # K_DRAW: hand is already without the thrown group.
    thrown_max = 0
    for j in range(view[V_THROWN_N]):
        v = rules[R_VALUES + view[V_THROWN + j]]
        if v > thrown_max:
            thrown_max = v
    skip = 0
    best = 0
    best_cost = 1e18
    for o in range(n_opts):
        cost = _draw_cost(opts[o, 1], hand, n, skip, thrown_max, params, rules)
        if cost < best_cost:
            best_cost = cost
            best = o
    return best


@njit(cache=True)
def builtin_decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
    if sid == SID_RANDOM:
        return random_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)
    return threshold_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)
