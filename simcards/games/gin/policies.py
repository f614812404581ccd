"""Built-in Gin strategies, as jitted decision functions with one signature.

Every decision a player makes goes through::

    decide(kind, params, hand, n, opts, n_opts, view, rules, rng) -> option index

``kind`` is one of ``layout.K_*`` (the option rows are described in ``layout``), ``hand[:n]``
the player's own sorted cards, ``view`` the public view (``layout.V_*``: own hand mask, stock
size, discard pile, the cards the opponent took or discarded, scores), ``rules`` the encoded
rules and ``rng`` the seat's own random stream (not the deal's: ``simcards.rng``). A strategy sees nothing else — not the opponent's
hand, not the stock order.

Families:

* ``random`` — uniform over the legal options of every decision (including knocking).
* ``simple`` — the well-known baseline other engines ship: take the upcard / discard only when
  it goes into a meld or lets the player knock; discard the highest-value unmatched card; knock
  as soon as it is legal.
* ``knock`` — ``simple`` with tunable knock timing (``max``, ``drop`` per own turn, gin-only
  after ``gin_after`` own turns or once the stock is at ``gin_stock`` or fewer), an option to take
  discards that merely lower deadwood by ``take`` points, and ``avoid``: a penalty on discarding
  cards that meld with cards the opponent took from the discard pile. Variant decisions:
  ``scale`` knocks at a fraction of the hand's knock limit (G-V-OKLA: the limit is the knock
  card's value), ``spade`` lowers the threshold on a doubled hand (a spade knock card doubles the
  cost of an undercut too), ``hurry`` knocks at the full limit once an opponent — under G-V-3P
  also the player sitting out, who plays the next hand — is within ``hurry`` points of the target.
  Mahjong gin (G-V-MJ) has no knock; its multi-card pickup takes the N cards that gain most
  (deadwood saved plus the value put on the table) when the gain beats ``pile`` points. Under
  straight gin (G-V-STRAIGHT) the limit is 0, so every family knocks only with gin; the 11-card
  first discard (G-V-DEAL11) is an ordinary discard decision. G-LAY-0: the knocker's arrangement
  (when several have the minimum deadwood) is the default tie-broken one, unless ``deny`` is on:
  then the one whose melds leave the defender the fewest lay-off points expected (``random``:
  uniform over the arrangements, as over every decision's options).
"""

from __future__ import annotations

import numpy as np

from simcards.games.gin.jit import internal, rows
from simcards.games.gin.layout import (
    K_ARRANGE,
    K_DISCARD,
    K_KNOCK,
    K_PICKUP,
    V_DW,
    V_LIMIT,
    V_MASK,
    V_MY_TURNS,
    V_OPP_SCORE,
    V_OPP_TOOK,
    V_PILE,
    V_STAKE,
    V_STOCK,
    V_TARGET,
    V_THIRD_SCORE,
)
from simcards.games.gin.melds import CORNER, VALUES_MV, popcount
from simcards.games.gin.params import KNOCK, NEVER, slot
from simcards.games.gin.rules import R_MV
from simcards.rng import rand_below

SID_RANDOM = 0
SID_SIMPLE = 1
SID_KNOCK = 2
SID_INFORMED = 3  # search.py; played through their own engine (game.FAMILIES: decide=...)
SID_MC = 4
FIRST_CUSTOM_SID = 100

# the knock family's parameter positions, by name (params.py declares them)
P_MAX, P_DROP, P_GIN_AFTER, P_GIN_STOCK, P_AVOID, P_TAKE, P_SCALE, P_SPADE, P_HURRY, P_PILE, P_DENY = (
    slot(KNOCK, name) for name in ("max", "drop", "gin_after", "gin_stock", "avoid", "take", "scale", "spade", "hurry",
                                   "pile", "deny"))
SIMPLE_PARAMS = np.array([p.default for p in KNOCK], dtype=np.float64)  # simple: knock at its defaults
DEFENDER_CARDS = 10  # the defender's hand when the knocker lays out (G-LAY-1)


@internal
def random_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    """Uniform over the legal options of each decision."""
    return rand_below(rng, n_opts)


@internal
def knock_threshold(params, view):
    """The deadwood at or under which the ``knock`` family knocks this turn."""
    if params[P_HURRY] > 0:  # an opponent (G-V-3P: or the player sitting out) is close to winning
        lead = max(view[V_OPP_SCORE], view[V_THIRD_SCORE])
        if view[V_TARGET] - lead <= params[P_HURRY]:
            return float(view[V_LIMIT])
    thr = min(params[P_MAX], params[P_SCALE] * view[V_LIMIT])
    turn = view[V_MY_TURNS] + 1  # this is the player's turn number in the hand, from 1
    thr -= params[P_DROP] * (turn - 1)
    if view[V_STAKE] > 1:  # G-V-OKLA: a doubled hand doubles an undercut too
        thr -= params[P_SPADE]
    if turn >= params[P_GIN_AFTER] or view[V_STOCK] <= params[P_GIN_STOCK]:
        thr = 0.0
    return thr


@internal
def wants_card(card, dw10, dw11, after, params, view, rules):
    """Take ``card``: it goes into a meld (``dw11 < dw10 + value``: no best arrangement of the 11
    cards leaves it unmatched), or it lets the player knock by this strategy's threshold, or
    (``take`` < 99) it lowers the deadwood by at least ``take`` points."""
    if dw11 < dw10 + VALUES_MV[rules[R_MV], card]:
        return True
    if after <= knock_threshold(params, view):
        return True
    return params[P_TAKE] < NEVER and dw10 - after >= params[P_TAKE]


@internal
def danger(card, took, corner):
    """How many cards the opponent took from the pile meld with ``card`` (same rank, or same
    suit within two ranks; round the corner when runs may turn it, G-V-TED)."""
    r = card % 13
    s = card // 13
    count = 0
    for q in range(4):
        if q != s and (took >> (q * 13 + r)) & 1:
            count += 1
    for d in range(-2, 3):
        q = r + d
        if corner:
            q %= 13
        if d != 0 and 0 <= q < 13 and (took >> (s * 13 + q)) & 1:
            count += 1
    return count


@internal
def pickup_choice(params, opts, n_opts):
    """G-V-MJ: take the top N cards of the pile whose pickup gains most — deadwood saved plus the
    value put on the table — if that beats ``pile`` points; else draw from the stock (row 0)."""
    best = 0
    best_gain = params[P_PILE]
    for a in range(1, n_opts):
        gain = float(opts[0, 2] - opts[a, 2] + opts[a, 3])
        if gain > best_gain:
            best = a
            best_gain = gain
    return best


@internal
def arrangement_choice(params, opts, n_opts, view):
    """G-LAY-0: row 0 (the default arrangement), or with ``deny`` the one of ``fewest_layoffs``."""
    if params[P_DENY] <= 0:
        return 0
    return fewest_layoffs(opts, n_opts, view)


@internal
def fewest_layoffs(opts, n_opts, view):
    """G-LAY-0: the arrangement with the fewest lay-off points expected: the exposed cards the
    defender is known to hold (taken from the pile, not thrown back: G-INFO-1) count in full, the
    others times the chance that an unseen card is in the defender's hand (ties: the lower row)."""
    known_n = popcount(view[V_OPP_TOOK] & ~view[V_PILE] & ~view[V_MASK])
    unseen = 52 - popcount(view[V_MASK]) - popcount(view[V_PILE]) - known_n
    p = (DEFENDER_CARDS - known_n) / max(unseen, 1)
    best = 0
    best_cost = 1e18
    for a in range(n_opts):
        cost = opts[a, 3] + p * (opts[a, 2] - opts[a, 3])
        if cost < best_cost - 1e-9:
            best = a
            best_cost = cost
    return best


@internal
def better(cost, card, best_cost, best_card):
    """Lower cost, then the higher rank, then the lower card id (options come by card id)."""
    if cost < best_cost - 1e-9:
        return True
    return abs(cost - best_cost) <= 1e-9 and card % 13 > best_card % 13


@internal
def knock_decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    if kind == K_DISCARD:
        avoid = params[P_AVOID]
        took = view[V_OPP_TOOK]
        best = 0
        best_cost = 1e18
        best_rank = -1
        for a in range(n_opts):
            card = opts[a, 0]
            cost = float(opts[a, 1])
            if avoid > 0:
                cost += avoid * danger(card, took, CORNER[rules[R_MV]] != 0)
            rank = card % 13
            # lowest deadwood after the discard (= the highest unmatched card), then the
            # higher rank, then the lower card id (options come by card id)
            if cost < best_cost or (cost == best_cost and rank > best_rank):
                best = a
                best_cost = cost
                best_rank = rank
        return best
    if kind == K_KNOCK:
        return 1 if opts[1, 1] <= knock_threshold(params, view) else 0
    if kind == K_PICKUP:
        return pickup_choice(params, opts, n_opts)
    if kind == K_ARRANGE:
        return arrangement_choice(params, opts, n_opts, view)
    # K_UPCARD, K_DRAW, K_LAST: option 1 takes the card opts[1, 1]
    return 1 if wants_card(opts[1, 1], view[V_DW], opts[1, 2], opts[1, 3], params, view, rules) else 0


@internal(_nrt=True)  # (stated: the kernel calls it from code compiled without, _nrt=False)
def builtin_decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
    if sid == SID_RANDOM:
        return random_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)
    if sid == SID_SIMPLE:
        # (a writable view of the global, jit.rows, so knock_decide compiles once for both)
        return knock_decide(kind, rows(SIMPLE_PARAMS, 0, SIMPLE_PARAMS.shape[0]), hand, n, opts, n_opts, view, rules,
                            rng)
    return knock_decide(kind, params, hand, n, opts, n_opts, view, rules, rng)

