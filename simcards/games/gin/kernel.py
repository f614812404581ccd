"""The Gin Rummy numba kernel: deal, upcard protocol, turns, knock and lay-offs, scoring, a whole
game to the target, a batch of games.

Every decision goes through ``ask``: the built-in strategies (random, simple, knock) are the
kernel's own; every other strategy id (the attached families informed and mc, user policies) is
asked of ``ext``, the engine's decision function, called through a function pointer (a
first-class function of type ``DECIDE_FN``, as Two Hundred's and Yaniv's rounds are). So the
kernel is compiled once and cached, a plain run compiles no search code, and an engine of search
players or policies compiles only its decision function (``make_engine``), not the game around
it. Hands are sorted card arrays (what a policy sees) plus a bitmask per player (what the meld
solver reads). A batch runs in ranges of games on threads; game ``g`` draws only from its own
streams (the deal's, keyed by ``(seed, g)``, and one per seat for its strategy: ``simcards.rng``)
and writes only its own rows. A strategy is handed its seat's stream, never the deal's.

A hand is played at a *table* by two players, positions 0 (the non-dealer's part: offered the
upcard first, plays first) and 1 (the dealer's part); ``st[S_SEAT0 + pos]`` is the seat at each
position. Everything a variant changes in a hand is a value in ``st`` set at the deal (the knock
limit, the stake multiplier, the knock card) or in the encoded rules.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from simcards.games.batch import address, play_ranges
from simcards.games.gin import core
from simcards.games.gin import layout as L
from simcards.games.gin import melds as M
from simcards.games.gin import rules as R
from simcards.games.gin.jit import grid, internal, rows, view_record
from simcards.games.gin.layout import (  # the transcript events (layout.py declares them)
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_HAND_END,
    EV_KNOCK,
    EV_KNOCK_CARD,
    EV_LAST,
    EV_LAYOFF,
    EV_LEDGER,
    EV_MJ_SCORE,
    EV_PICKUP,
    EV_SCORE,
    EV_TABLE_LAYOFF,
    EV_UPCARD,
    EV_UPCARD_CHOICE,
    EV_WALL,
    LOG_WIDTH,
)
from simcards.games.gin.melds import (
    FULL,
    LANE,
    LOW_RANK,
    SCRATCH_SIZE,
    SUIT_BITS,
    VALUES_MV,
    best_arrangement,
    best_layoff,
    deadwood,
    layoff_exposure,
    low_card,
    min_arrangements,
    popcount,
    removal_deadwoods,
    simple_choice,
    suits_at,
    triple_ranks,
    value_of_mask,
)
from simcards.games.gin.policies import (
    P_AVOID,
    P_HURRY,
    SID_KNOCK,
    SID_SIMPLE,
    SIMPLE_PARAMS,
    builtin_decide,
    knock_threshold,
    wants_card,
)
from simcards.games.transcript import called_cards, event_c
from simcards.nbutil import NO_ENTRY, compiled_as, njit_by_type, rebind
from simcards.policy import checked_choice as _checked_choice
from simcards.rng import rand_below, seed_streams, shuffle

# The game-level variants (G-V-3P, team play G-V-4P/G-V-TED, G-V-HOLLY, G-V-MATCH) are compiled in where
# this is True. The kernel is also compiled once more with it False (``_plain()``, numba prunes each
# ``if VARIANTS ...`` branch): a run of two players without those rules compiles only that (about a
# sixth less to compile), the others the whole game.
VARIANTS = True
# The same for the hand-level variants (G-TURN-3, G-WALL-2/3, G-V-DEAL11, G-V-OKLA and its second
# deck, G-V-MJ's discard): ``play_hand`` is compiled once more with it False (``_PLAIN_HAND``) for a
# hand that plays none of them (``plain_hand_rules``), as the standard game's.
HAND_VARIANTS = True

# A transcript event, called (compiled once), not inlined at its ~30 call sites; it, the cards of a
# hand in the transcript and the check of a strategy's choice are compiled under names of their own
# without the Python and C entry points (only the kernel calls them here).
_log = compiled_as(event_c, "gin_event", njit_by_type(_nrt=False, **NO_ENTRY))
_log_cards = compiled_as(called_cards, "gin_cards", njit_by_type(**NO_ENTRY))
checked_choice = compiled_as(_checked_choice, "gin_checked_choice", njit_by_type(**NO_ENTRY))

# A hand in progress (int64 state array): the piles, then what the deal fixed for the hand.
(S_STOCK, S_PILE_N, S_PILE_MASK, S_TURN, S_HAND, S_LIMIT, S_STAKE, S_KCARD, S_MV, S_SEAT0, S_SEAT1,
 S_DPOS, S_DEALER_SEAT, S_SC0, S_SC1, S_THIRD, S_TAKEN, S_N_MELDS, S_TABLE0, S_TABLE1, S_FIRST, S_HN0,
 S_HN1) = range(23)
S_HIST = 23  # each position's turn records this hand (layout.V_OPP_HIST's form), HIST_SLOTS apiece
HIST_SLOTS = L.HIST_MAX // L.HIST_PER_SLOT
S_WAITED0 = S_HIST + 2 * HIST_SLOTS  # each position's layout.V_OPP_WAITED as its opponent sees it (the ledger's)
S_SIZE = S_WAITED0 + 2  # S_TAKEN: cards taken from the pile this turn (G-V-MJ); S_TABLE0/1: cards
# each put on the table; S_FIRST: the position that plays first without an upcard (G-V-OKLA second deck: the
# last winner); S_HN0/1: turns recorded per position
# Hand result (int64), positions 0/1 at the table: outcome, knocker, winner (-1: none), points
# (with the stake), deadwood per position, laid-off mask, discards, upcard taker, stock left, boxes.
(HR_OUTCOME, HR_KNOCKER, HR_WINNER, HR_POINTS, HR_DW0, HR_DW1, HR_LAID, HR_TURNS, HR_UPCARD, HR_STOCK,
 HR_BOXES, HR_ENTERED, HR_MATCH, HR_MJ0, HR_MJ1, HR_TV0, HR_TV1, HR_PICKUPS, HR_MAX_TAKE, HR_MULTI,
 HR_WAITED) = range(21)
HR_SIZE = 21  # HR_MJ0/1: G-V-MJ points per position; HR_TV0/1: value each put on the table; HR_WAITED: the
# defender's own turns when its laid-out hand could have knocked after its last discard (0: it could not)
SCRATCH_ENDS = 16
SCRATCH_MASK = 63  # scratch[63]: the mask whose removal deadwoods scratch[0..51] hold


@internal
def add_card(hands, hand_n, masks, p, card):
    n = hand_n[p]
    j = n
    while j > 0 and hands[p, j - 1] > card:
        hands[p, j] = hands[p, j - 1]
        j -= 1
    hands[p, j] = card
    hand_n[p] = n + 1
    masks[p] |= np.int64(1) << card


@internal
def remove_card(hands, hand_n, masks, p, card):
    n = hand_n[p]
    for i in range(n):
        if hands[p, i] == card:
            for j in range(i, n - 1):
                hands[p, j] = hands[p, j + 1]
            hand_n[p] = n - 1
            masks[p] &= ~(np.int64(1) << card)
            return


@internal(inline="always")
def take_info(mask, card, allow_re, scratch, mv):
    """For taking ``card`` into the 10 cards ``mask``: (deadwood of the 11 cards, the lowest
    deadwood after a legal discard). The discard may be ``card`` itself only if ``allow_re``.
    Leaves the per-card removal deadwoods of the 11 cards in ``scratch`` (and their mask in
    ``scratch[SCRATCH_MASK]``) for the discard that follows."""
    m11 = mask | (np.int64(1) << card)
    dw11 = removal_deadwoods(m11, scratch, mv)
    scratch[SCRATCH_MASK] = m11
    best = np.int64(1) << 40
    m = m11
    while m != 0:
        c, m = low_card(m)
        if c == card and not allow_re:
            continue
        if scratch[c] < best:
            best = scratch[c]
    return dw11, best


@internal
def offer_top(opts, top, dw11, after):
    """Rows of a take-or-not decision: [0, -1] no; [1, card, deadwood of the 11 cards, lowest
    deadwood after a legal discard] take it."""
    opts[0, 0] = 0
    opts[0, 1] = -1
    opts[0, 2] = 0
    opts[0, 3] = 0
    opts[1, 0] = 1
    opts[1, 1] = top
    opts[1, 2] = dw11
    opts[1, 3] = after


@internal
def hand_score(knocker, k_dw, d_dw, rules, hres):
    """G-SC-1..4 (``core.knock_result``): fill outcome, winner and points of a knock (``k_dw`` 0 is
    gin); positions."""
    outcome, side, points = core.knock_result(k_dw, d_dw, rules)
    hres[HR_OUTCOME] = outcome
    hres[HR_WINNER] = knocker if side == core.KNOCKER else (1 - knocker if side == core.DEFENDER else -1)
    hres[HR_POINTS] = points


@internal
def apply_stake(stake, rules, hres):
    """G-V-OKLA: a spade knock card doubles the hand's score, bonuses included; boxes: one for
    the hand won, and with the optional box rules an undercut earns 1 more, a gin 2 more (doubled
    with a spade too)."""
    hres[HR_POINTS] *= stake
    if hres[HR_WINNER] < 0:
        hres[HR_BOXES] = 0
        return
    extra = 0
    if rules[R.R_OKLA_BOXES] != 0:
        if hres[HR_OUTCOME] == L.O_UNDERCUT:
            extra = stake
        elif hres[HR_OUTCOME] == L.O_GIN:
            extra = 2 * stake
    hres[HR_BOXES] = 1 + extra


@internal
def knock_card_terms(card, rules):
    """G-V-OKLA: (knock limit, stake) set by the knock card: its value (face cards 10); an ace
    allows gin only (``ace_upcard_gin_only``) or a limit of 1; a spade doubles (``spade_double``)."""
    r = card % 13
    limit = rules[R.R_VALUES + r]
    if r == 0:
        limit = 0 if rules[R.R_ACE_GIN] != 0 else 1
    stake = 2 if (card // 13 == R.SPADES and rules[R.R_SPADE_DOUBLE] != 0) else 1
    return limit, stake


# Working memory of one game (offsets into one int64 array).
_W_DECK = 0
_W_DECK2 = _W_DECK + 52
_W_HANDS = _W_DECK2 + 52
_W_HAND_N = _W_HANDS + 2 * L.MAX_HAND
_W_MASKS = _W_HAND_N + 2
_W_PILE = _W_MASKS + 2
_W_TOOK = _W_PILE + 52
_W_DISCS = _W_TOOK + 2
_W_PASSED = _W_DISCS + 2
_W_MY_TURNS = _W_PASSED + 2
_W_ST = _W_MY_TURNS + 2
_W_VIEW = _W_ST + S_SIZE
_W_OPTS = _W_VIEW + L.VIEW_SIZE
_W_ENDS = _W_OPTS + L.MAX_OPTIONS * L.OPT_W
_W_IDX = _W_ENDS + SCRATCH_ENDS * 14
_W_HRES = _W_IDX + SCRATCH_ENDS
_W_MELDS = _W_HRES + HR_SIZE  # G-V-MJ: the table melds
_W_TRES = _W_MELDS + L.MAX_MELDS  # every table's hand result and state, kept until the deal is scored
_W_TST = _W_TRES + L.MAX_TABLES * HR_SIZE
_W_LEDGER = _W_TST + L.MAX_TABLES * S_SIZE
# The ledger: what the game keeps between hands.
_LG_POINTS = 0  # per side: points toward the target
_LG_WON = _LG_POINTS + L.MAX_SIDES  # per side: hands (deals) won
_LG_BOXES = _LG_WON + L.MAX_SIDES  # per side: boxes
_LG_SEAT_POINTS = _LG_BOXES + L.MAX_SIDES  # per seat: points from hands won
_LG_SEAT_WON = _LG_SEAT_POINTS + L.MAX_SEATS  # per seat: hands won
# G-V-HOLLY, per game k (3) and side (2): points, boxes, hands entered; per game: open?, winner,
# the hand that closed it.
_LG_HW_POINTS = _LG_SEAT_WON + L.MAX_SEATS
_LG_HW_BOXES = _LG_HW_POINTS + 2 * L.N_HOLLY
_LG_HW_WON = _LG_HW_BOXES + 2 * L.N_HOLLY
_LG_HW_OPEN = _LG_HW_WON + 2 * L.N_HOLLY
_LG_HW_WINNER = _LG_HW_OPEN + L.N_HOLLY
_LG_HW_CLOSED = _LG_HW_WINNER + L.N_HOLLY
# G-V-MATCH: the match number, per side match points, matches won, hands won in this match;
# shutout matches. (_LG_POINTS holds the points of the match in progress.)
_LG_MATCH_NO = _LG_HW_CLOSED + L.N_HOLLY
_LG_MP = _LG_MATCH_NO + 1
_LG_MATCHES_WON = _LG_MP + 2
_LG_MATCH_HANDS = _LG_MATCHES_WON + 2
_LG_MATCH_SHUTOUTS = _LG_MATCH_HANDS + 2
_LG_AFTER = _LG_MATCH_SHUTOUTS + 1  # per side: points toward the target right after the last hand
_LG_SWEEPS = _LG_AFTER + L.MAX_SIDES  # G-V-TED: deals a team won at every table
_LG_LAST = _LG_SWEEPS + 2  # the side that won the last hand (-1: nobody)
_LG_LAST_WON = _LG_LAST + 1  # the side that won the latest hand that was won (-1: none yet)
_LG_WAITED = _LG_LAST_WON + 1  # per seat: the earliest own turn it was seen waiting (layout.V_OPP_WAITED)
_LG_SIZE = _LG_WAITED + L.MAX_SEATS
_W_COUNTS = _W_LEDGER + _LG_SIZE  # the game's counters: hands by outcome (layout.O_*), then C_*
C_TURNS, C_DEALER_WON, C_DOUBLED, C_PICKUPS, C_MULTI, C_HANDS = range(8, 14)
_W_SCRATCH = _W_COUNTS + 16
_WORK_SIZE = _W_SCRATCH + SCRATCH_SIZE

# The engine's decision function (``ext``): ``policies.builtin_decide``'s arguments, as ``ask``
# passes them. play_games has one signature, compiled on its first use (``_compiled``).
_I64, _F64_1D = types.int64, types.Array(types.float64, 1, "C")
_I64_1D, _I64_2D = types.Array(types.int64, 1, "C"), types.Array(types.int64, 2, "C")
_U64_1D, _F64_2D = types.Array(types.uint64, 1, "C"), types.Array(types.float64, 2, "C")
DECIDE_FN = types.FunctionType(_I64(_I64, _I64, _F64_1D, _I64_1D, _I64, _I64_2D, _I64, _I64_1D, _I64_1D, _U64_1D))

# A hand in progress travels as one record (``HAND_T``, ``jit.ViewRecord``): the rules, the seats'
# strategies and streams, the transcript and the engine's decision function, and the table's
# working arrays, views of the game's working memory at the ``_W_*`` offsets (``carve``). ``st`` is
# the hand's state (S_*), ``hres`` its result (HR_*), ``shown`` the view a strategy is shown
# (layout.V_*; numba reserves the name ``view``); ``ends``/``idx``/``scratch`` are the meld
# solver's scratch.
# How the functions that take a Hand are compiled: without reference counting (its arrays are
# borrowed views; counting references at every field read made the game twice as slow), and
# without the Python and C entry points numba gives every function (never called from Python:
# unboxing a record of two dozen arrays was much of their compile). Those with one call site
# (``_HAND_INLINE``) are part of their caller: each function numba compiles links in and optimises
# again everything it calls, so fewer levels compile faster.
_HAND = {"cache": True, "_nrt": False, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
_HAND_INLINE = {"cache": True, "_nrt": False, "inline": "always"}
# A hand is played through a function pointer (``play_hand`` or ``play_hand_mj``, a ``HAND_FN``):
# the game is compiled once, on its own, instead of linking in and optimising the whole hand again
# (numba optimises every function together with everything it calls), and a run compiles the
# hand its rules play, not the other.
HAND_T, _make_hand = view_record(
    "GinHand", {"rules": _I64_1D, "sids": _I64_1D, "params": _F64_2D, "rng": _U64_1D, "log": _I64_2D, "ext": DECIDE_FN},
    {"deck": (_W_DECK, (52,)), "deck2": (_W_DECK2, (52,)), "hands": (_W_HANDS, (2, L.MAX_HAND)),
     "hand_n": (_W_HAND_N, (2,)), "masks": (_W_MASKS, (2,)), "pile": (_W_PILE, (52,)), "took": (_W_TOOK, (2,)),
     "discs": (_W_DISCS, (2,)), "passed": (_W_PASSED, (2,)), "my_turns": (_W_MY_TURNS, (2,)), "st": (_W_ST, (S_SIZE,)),
     "shown": (_W_VIEW, (L.VIEW_SIZE,)), "opts": (_W_OPTS, (L.MAX_OPTIONS, L.OPT_W)),
     "ends": (_W_ENDS, (SCRATCH_ENDS, 14)), "idx": (_W_IDX, (SCRATCH_ENDS,)), "hres": (_W_HRES, (HR_SIZE,)),
     "scratch": (_W_SCRATCH, (SCRATCH_SIZE,)), "melds": (_W_MELDS, (L.MAX_MELDS,))})
HAND_FN = types.FunctionType(_I64(HAND_T, _I64))
_I32_2D = types.Array(types.int32, 2, "C")
GAME_SIG = (_I64_1D, _U64_1D, _I64_1D, _I64_1D, _F64_2D, _I64_1D, _I32_2D, _I64_2D, DECIDE_FN, HAND_FN)
GAME_FN = types.FunctionType(_I64(*GAME_SIG))
GAMES_SIG = (_I64_1D, _I64, _I64, _I64_1D, _I64_1D, _F64_2D, _I64_2D, _I32_2D, _I64_2D, DECIDE_FN, GAME_FN, HAND_FN)
_HAND_PTR = {"cache": True, "_nrt": False, "no_cpython_wrapper": True}  # called through a HAND_FN


@njit_by_type(**_HAND)
def ask(h, kind, p, n_opts):
    """The decision of the player at position ``p`` among ``h.opts[:n_opts]`` (shown ``h.shown``);
    a single option is not asked."""
    if n_opts <= 1:
        return 0
    seat = h.st[S_SEAT0 + p]
    sid = h.sids[seat]
    if sid > SID_KNOCK:  # not a built-in: the engine's decision function
        c = h.ext(kind, sid, h.params[seat], h.hands[p], h.hand_n[p], h.opts, n_opts, h.shown, h.rules,
                  rows(h.rng, 1 + seat, 1))
    else:
        c = builtin_decide(kind, sid, h.params[seat], h.hands[p], h.hand_n[p], h.opts, n_opts, h.shown, h.rules,
                           rows(h.rng, 1 + seat, 1))
    # (no exception: the hand is called through a pointer, which cannot pass one on; a bad index
    # is recorded as a user policy's is, and the run stops on it: policy.check_games)
    return checked_choice(c, sid, kind, n_opts, h.shown, L.V_BAD)


@internal
def set_view(view, p, st, pile, masks, took, discs, passed, my_turns, rules):
    o = 1 - p
    view[L.V_SEAT] = st[S_SEAT0 + p]
    view[L.V_DEALER] = st[S_DEALER_SEAT]
    view[L.V_HAND] = st[S_HAND]
    view[L.V_TURN] = st[S_TURN]
    view[L.V_MY_TURNS] = my_turns[p]
    view[L.V_STOCK] = st[S_STOCK]
    view[L.V_TOP] = pile[st[S_PILE_N] - 1] if st[S_PILE_N] > 0 else -1
    view[L.V_LIMIT] = st[S_LIMIT]
    view[L.V_MY_SCORE] = st[S_SC0 + p]
    view[L.V_OPP_SCORE] = st[S_SC0 + o]
    view[L.V_TARGET] = rules[R.R_TARGET]
    view[L.V_MASK] = masks[p]
    view[L.V_OPP_TOOK] = took[o]
    view[L.V_OPP_DISCARDS] = discs[o]
    view[L.V_PILE] = st[S_PILE_MASK]
    view[L.V_OPP_PASSED] = passed[o]
    view[L.V_TAKEN] = -1
    view[L.V_TAKE_MUST_KNOCK] = 0
    view[L.V_FIRST] = 0
    view[L.V_STAKE] = st[S_STAKE]
    view[L.V_KNOCK_CARD] = st[S_KCARD]
    view[L.V_THIRD_SCORE] = st[S_THIRD]
    view[L.V_PLAYERS] = rules[R.R_PLAYERS]
    view[L.V_OPP_TURNS] = st[S_HN0 + o]
    for j in range(HIST_SLOTS):
        view[L.V_OPP_HIST + j] = st[S_HIST + o * HIST_SLOTS + j]
    view[L.V_OPP_WAITED] = st[S_WAITED0 + o]
    if rules[R.R_MJ] != 0:  # G-V-MJ (zero otherwise: the view array starts at 0)
        view[L.V_TABLE_MINE] = st[S_TABLE0 + p]
        view[L.V_TABLE_OPP] = st[S_TABLE0 + o]
        view[L.V_TABLE] = st[S_TABLE0] | st[S_TABLE1]


@njit_by_type(**_HAND)
def show(h, p, dw, first):
    """``set_view`` for position ``p`` of the hand ``h``, with its deadwood ``dw`` and whether it
    is the first turn."""
    set_view(h.shown, p, h.st, h.pile, h.masks, h.took, h.discs, h.passed, h.my_turns, h.rules)
    h.shown[L.V_DW] = dw
    h.shown[L.V_FIRST] = first


@njit_by_type(**_HAND)
def reshow(h, p, dw, first):
    """``show`` when the view already shows position ``p`` this turn and its strategy is a built-in
    one (which never writes to it): only what a draw or a discard changes is written again."""
    if h.sids[h.st[S_SEAT0 + p]] > SID_KNOCK:  # (a policy may write to its view: all of it again)
        show(h, p, dw, first)
        return
    st, v = h.st, h.shown
    v[L.V_STOCK] = st[S_STOCK]
    v[L.V_TOP] = h.pile[st[S_PILE_N] - 1] if st[S_PILE_N] > 0 else -1
    v[L.V_MASK] = h.masks[p]
    v[L.V_PILE] = st[S_PILE_MASK]
    v[L.V_TAKEN] = -1
    v[L.V_TAKE_MUST_KNOCK] = 0
    v[L.V_DW] = dw
    v[L.V_FIRST] = first


@njit(**_HAND)
def take_top(h, p):
    """Position ``p`` takes the pile's top card; returns it."""
    st = h.st
    st[S_PILE_N] -= 1
    card = h.pile[st[S_PILE_N]]
    st[S_PILE_MASK] &= ~(np.int64(1) << card)
    add_card(h.hands, h.hand_n, h.masks, p, card)
    h.took[p] |= np.int64(1) << card
    return card


@njit(**_HAND)
def draw_stock(h, p):
    """Position ``p`` draws the stock's top card; returns it."""
    h.st[S_STOCK] -= 1
    card = h.deck[h.st[S_STOCK]]
    add_card(h.hands, h.hand_n, h.masks, p, card)
    return card


@internal
def record_turn(p, card, taken, drew, st, pile):
    """Add the turn position ``p`` just ended by discarding ``card`` to its records (layout's turn
    record; ``drew``: it drew this turn); the discard is already on the pile, so the top it drew
    at lies under it."""
    n = st[S_HN0 + p]
    if n >= L.HIST_MAX:
        return
    if taken >= 0:
        rec = card | (taken << 6) | L.HIST_TOOK
    else:
        under = pile[st[S_PILE_N] - 2] if st[S_PILE_N] >= 2 else L.HIST_NONE
        rec = card | (under << 6) | (L.HIST_STOCK if drew else 0)
    st[S_HIST + p * HIST_SLOTS + n // L.HIST_PER_SLOT] |= np.int64(rec) << (L.HIST_BITS * (n % L.HIST_PER_SLOT))
    st[S_HN0 + p] = n + 1


@njit(**_HAND_INLINE)
def discard_phase(h, p, taken, must_knock, allow_re, first, n_log):
    """G-TURN-1/2, G-KNOCK-1: discard one card (not the one just taken from the pile unless
    ``allow_re``), then knock or not. With ``must_knock`` only knocking discards are offered
    and the knock is made. Returns (knocked, n_log). (Part of its caller: a hand discards in
    one place, after whichever draw.)"""
    st, opts, scratch, rules = h.st, h.opts, h.scratch, h.rules
    limit = st[S_LIMIT]
    mask = h.masks[p]
    if scratch[SCRATCH_MASK] != mask:
        removal_deadwoods(mask, scratch, st[S_MV])
        scratch[SCRATCH_MASK] = mask
    n_opts = 0
    best = 1 << 30
    # G-TURN-2: the card taken this turn (G-V-MJ: every card taken) may not be thrown
    blocked = np.int64(0) if allow_re else st[S_TAKEN] | ((np.int64(1) << taken) if taken >= 0 else np.int64(0))
    for i in range(h.hand_n[p]):
        c = h.hands[p, i]
        if (blocked >> c) & 1:
            continue
        dw = scratch[c]
        if must_knock and dw > limit:
            continue
        opts[n_opts, 0] = c
        opts[n_opts, 1] = dw
        opts[n_opts, 2] = 0
        opts[n_opts, 3] = 0
        n_opts += 1
        if dw < best:
            best = dw
    if first == 0 and (not HAND_VARIANTS or rules[R.R_MJ] == 0):  # (the draw just showed p this view; G-V-MJ
        # lays off in between)
        reshow(h, p, best, first)
    else:
        show(h, p, best, first)
    h.shown[L.V_TAKEN] = taken
    a = ask(h, L.K_DISCARD, p, n_opts)
    card = opts[a, 0]
    dw = opts[a, 1]
    remove_card(h.hands, h.hand_n, h.masks, p, card)
    h.pile[st[S_PILE_N]] = card
    st[S_PILE_N] += 1
    st[S_PILE_MASK] |= np.int64(1) << card
    h.discs[p] |= np.int64(1) << card
    if not HAND_VARIANTS or rules[R.R_MJ] == 0:  # (G-V-MJ takes several cards at once: not recorded)
        record_turn(p, card, taken, first == 0 or not HAND_VARIANTS or rules[R.R_DEAL11] == 0, st, h.pile)
    seat = st[S_SEAT0 + p]
    n_log = _log(h.log, n_log, EV_DISCARD, st[S_HAND], seat, card, a, dw)
    knock = 0
    if dw <= limit:
        if must_knock:
            knock = 1
        else:
            reshow(h, p, dw, first)
            for j in range(2):  # rows: [0, dw] play on, [1, dw] knock
                opts[j, 0] = j
                opts[j, 1] = dw
                opts[j, 2] = 0
                opts[j, 3] = 0
            knock = ask(h, L.K_KNOCK, p, np.int64(2))
        n_log = _log(h.log, n_log, EV_KNOCK, st[S_HAND], seat, knock, dw, 0)
    h.my_turns[p] += 1
    st[S_TURN] += 1
    return knock == 1, n_log


@njit(**_HAND_INLINE)
def choose_arrangement(h, k, k_dw, k_sets):
    """G-LAY-0: the knocker (position ``k``) lays out any arrangement of its minimum deadwood
    ``k_dw``; with several, the strategy chooses (rows: ``layout.K_ARRANGE``; row 0 is the default
    ``k_sets``). Returns the bits laid in sets of the chosen one."""
    mask = h.masks[k]
    if triple_ranks(mask) == 0:  # no set to choose: the maximal runs are the one arrangement
        return k_sets
    mv = h.st[S_MV]
    opts = h.opts
    n_opts = min_arrangements(mask, k_dw, opts, L.MAX_OPTIONS, mv)
    if n_opts <= 1:
        return k_sets
    for a in range(n_opts):
        exposed = layoff_exposure(mask, opts[a, 0], mv) & ~h.st[S_PILE_MASK]
        opts[a, 1] = k_dw
        opts[a, 2] = value_of_mask(exposed, mv)
        opts[a, 3] = value_of_mask(exposed & h.took[1 - k], mv)
    show(h, k, k_dw, 0)
    a = ask(h, L.K_ARRANGE, k, n_opts)
    return opts[a, 0]


# ----- G-V-MJ: Mahjong gin's pickups, table melds and lay-offs -------------------------------------
MJ_HAND_LIMIT = 11  # Decision: a pickup may not leave more than 11 cards in hand (before the discard)


@internal
def mj_extends(card, meld):
    """G-V-MJ: ``card`` extends the table meld ``meld``: the fourth card of a 3-set, or the next card
    of the run's suit at either end (aces low)."""
    c0 = popcount((meld & -meld) - 1)
    r0 = c0 % 13
    if meld == SUIT_BITS[r0, suits_at(meld, r0)]:  # a set
        return card % 13 == r0 and popcount(meld) == 3
    s = c0 // 13
    if card // 13 != s:
        return False
    lane = (meld >> (13 * s)) & LANE
    lo = LOW_RANK[lane]
    hi = lo + popcount(lane) - 1
    r = card % 13
    return r == lo - 1 or r == hi + 1


@internal
def mj_extensions(melds, n_melds):
    """Every card that would extend some table meld (a quick filter before mj_target)."""
    ext = np.int64(0)
    for k in range(n_melds):
        meld = melds[k]
        c0 = popcount((meld & -meld) - 1)
        r0 = c0 % 13
        sm = suits_at(meld, r0)
        if meld == SUIT_BITS[r0, sm]:
            if popcount(meld) == 3:
                ext |= SUIT_BITS[r0, 15 ^ sm]
            continue
        s = c0 // 13
        lane = (meld >> (13 * s)) & LANE
        lo = LOW_RANK[lane]
        hi = lo + popcount(lane) - 1
        if lo > 0:
            ext |= np.int64(1) << (13 * s + lo - 1)
        if hi < 12:
            ext |= np.int64(1) << (13 * s + hi + 1)
    return ext


@internal
def mj_target(card, melds, n_melds):
    """The first table meld ``card`` extends (-1: none)."""
    for k in range(n_melds):
        if mj_extends(card, melds[k]):
            return k
    return -1


@internal
def mj_better(m, k, hand, taken, mv, best_dw, best_k, best_m, best_cnt):
    """One candidate placement ``m`` (onto meld ``k``, -1: a new meld) against the best so far."""
    rest = hand & ~m
    if rest & ~taken == 0 or popcount(rest) > MJ_HAND_LIMIT:
        return best_dw, best_k, best_m, best_cnt
    dw = deadwood(rest, mv)
    cnt = popcount(m)
    if dw < best_dw or (dw == best_dw and (cnt > best_cnt or (cnt == best_cnt and m < best_m))):
        return dw, k, m, cnt
    return best_dw, best_k, best_m, best_cnt


@internal
def mj_placement(hand, d, taken, melds, n_melds, mv):
    """G-V-MJ: where the deepest card ``d`` of a pickup goes on the table, from ``hand`` (the cards
    held with the ones taken, ``taken``): a new set or run holding ``d`` made of these cards, or
    ``d`` laid off on a table meld. The placement leaving the least deadwood wins, then the one
    placing more cards, then the lower card mask; it must leave a card that may be discarded and at
    most MJ_HAND_LIMIT cards. Returns (deadwood left, meld index or -1 for a new meld, cards
    placed); no placement: deadwood 1 << 40."""
    best_dw = np.int64(1) << 40
    best_k = -1
    best_m = np.int64(0)
    best_cnt = 0
    r = d % 13
    s = d // 13
    dbit = np.int64(1) << d
    sm = suits_at(hand, r)
    for i in range(M.SET_NOPTS[sm]):  # sets holding d
        m = SUIT_BITS[r, M.SET_OPTS[sm, i]]
        if m & dbit:
            best_dw, best_k, best_m, best_cnt = mj_better(m, -1, hand, taken, mv, best_dw, best_k, best_m, best_cnt)
    lane = (hand >> (13 * s)) & LANE
    lo0 = r
    while lo0 > 0 and (lane >> (lo0 - 1)) & 1:
        lo0 -= 1
    hi0 = r
    while hi0 < 12 and (lane >> (hi0 + 1)) & 1:
        hi0 += 1
    for lo in range(lo0, r + 1):  # runs holding d
        for hi in range(max(r, lo + 2), hi0 + 1):
            m = ((np.int64(1) << (hi - lo + 1)) - 1) << (13 * s + lo)
            best_dw, best_k, best_m, best_cnt = mj_better(m, -1, hand, taken, mv, best_dw, best_k, best_m, best_cnt)
    k = mj_target(d, melds, n_melds)  # or onto a table meld
    if k >= 0:
        best_dw, best_k, best_m, best_cnt = mj_better(dbit, k, hand, taken, mv, best_dw, best_k, best_m, best_cnt)
    return best_dw, best_k, best_m


@internal
def mj_most_placed(hand, d, ext):
    """The most cards a placement of ``d`` can put on the table: its set or run in ``hand`` (3+), or
    1 when it only extends a table meld (``ext``: the cards that do), or 0 — a cheap test before the
    exact placement."""
    r = d % 13
    most = popcount(suits_at(hand, r))
    if most < 3:
        most = 0
    lane = (hand >> (13 * (d // 13))) & LANE
    run = 1
    q = r - 1
    while q >= 0 and (lane >> q) & 1:
        run += 1
        q -= 1
    q = r + 1
    while q <= 12 and (lane >> q) & 1:
        run += 1
        q += 1
    if run >= 3 and run > most:
        most = run
    if most == 0 and (ext >> d) & 1:
        most = 1
    return most


@internal
def mj_offer(p, first, st, pile, masks, melds, opts, scratch):
    """The rows of a Mahjong draw decision (``layout.K_PICKUP``): stock (or, on the first turn,
    declining the upcard), then every N whose deepest card can be placed. Returns the row count."""
    mv = st[S_MV]
    hand = masks[p]
    opts[0, 0] = 0
    opts[0, 1] = -1
    opts[0, 2] = deadwood(hand, mv)
    opts[0, 3] = 0
    n_opts = 1
    top_n = st[S_PILE_N]
    most = 1 if first else min(top_n, L.MAX_OPTIONS - 1)
    taken = np.int64(0)
    ext = mj_extensions(melds, st[S_N_MELDS])
    for n in range(1, most + 1):
        d = pile[top_n - n]
        taken |= np.int64(1) << d
        placed_most = mj_most_placed(hand | taken, d, ext)
        if placed_most == 0 or popcount(hand | taken) - placed_most > MJ_HAND_LIMIT:
            continue
        dw, k, placed = mj_placement(hand | taken, d, taken, melds, st[S_N_MELDS], mv)
        if dw >= np.int64(1) << 40:
            continue
        rest = (hand | taken) & ~placed
        removal_deadwoods(rest, scratch, mv)
        scratch[SCRATCH_MASK] = rest
        after = np.int64(1) << 40
        m = rest & ~taken
        while m != 0:
            low = m & -m
            m ^= low
            c = popcount(low - 1)
            if scratch[c] < after:
                after = scratch[c]
        opts[n_opts, 0] = n
        opts[n_opts, 1] = d
        opts[n_opts, 2] = after
        opts[n_opts, 3] = value_of_mask(placed, mv)
        n_opts += 1
    return n_opts


@internal
def mj_pickup(p, n, st, pile, hands, hand_n, masks, took, melds, log, n_log):
    """G-V-MJ: take the top ``n`` cards of the pile and put the deepest on the table at once."""
    mv = st[S_MV]
    taken = np.int64(0)
    for _ in range(n):  # off the pile (the hand takes only what does not go on the table)
        st[S_PILE_N] -= 1
        taken |= np.int64(1) << pile[st[S_PILE_N]]
    st[S_PILE_MASK] &= ~taken
    took[p] |= taken
    d = pile[st[S_PILE_N]]  # the deepest card taken
    _, k, placed = mj_placement(masks[p] | taken, d, taken, melds, st[S_N_MELDS], mv)
    if k < 0:
        k = st[S_N_MELDS]
        melds[k] = 0
        st[S_N_MELDS] += 1
    melds[k] |= placed
    st[S_TABLE0 + p] |= placed
    m = placed & masks[p]
    while m != 0:
        low = m & -m
        m ^= low
        remove_card(hands, hand_n, masks, p, popcount(low - 1))
    m = taken & ~placed
    while m != 0:
        low = m & -m
        m ^= low
        add_card(hands, hand_n, masks, p, popcount(low - 1))
    st[S_TAKEN] = taken
    return _log(log, n_log, EV_PICKUP, st[S_HAND], st[S_SEAT0 + p], n, k, placed)


@internal
def mj_layoffs(p, st, hands, hand_n, masks, melds, log, n_log):
    """G-V-MJ Decision: before discarding, a player lays off onto the table melds (anyone's) every
    card that is unmatched in a best arrangement of the hand and extends a meld — lowest card
    first, again until none is left — keeping a card that may be discarded."""
    mv = st[S_MV]
    changed = True
    while changed:
        changed = False
        if masks[p] & mj_extensions(melds, st[S_N_MELDS]) == 0:
            break
        dw = deadwood(masks[p], mv)
        for i in range(hand_n[p]):
            c = hands[p, i]
            k = mj_target(c, melds, st[S_N_MELDS])
            if k < 0:
                continue
            bit = np.int64(1) << c
            rest = masks[p] & ~bit
            if rest & ~st[S_TAKEN] == 0 or deadwood(rest, mv) + VALUES_MV[mv, c] != dw:
                continue
            melds[k] |= bit
            st[S_TABLE0 + p] |= bit
            remove_card(hands, hand_n, masks, p, c)
            n_log = _log(log, n_log, EV_TABLE_LAYOFF, st[S_HAND], st[S_SEAT0 + p], c, k, 0)
            changed = True
            break
    return n_log


@njit(**_HAND)
def mj_draw(h, p, first, n_log):
    """G-V-MJ: a Mahjong draw: the stock, or the top N cards of the pile (the deepest placed on the
    table at once); then the lay-offs. On the first turn (G-FIRST-1) only the upcard is offered and
    row 0 declines it. Returns (took from the pile?, n_log)."""
    st, hres, pile = h.st, h.hres, h.pile
    n_opts = mj_offer(p, first, st, pile, h.masks, h.melds, h.opts, h.scratch)
    show(h, p, h.opts[0, 2], 1 if first else 0)
    a = ask(h, L.K_PICKUP, p, n_opts)
    st[S_TAKEN] = 0
    if a > 0:
        n = h.opts[a, 0]
        n_log = mj_pickup(p, n, st, pile, h.hands, h.hand_n, h.masks, h.took, h.melds, h.log, n_log)
        hres[HR_PICKUPS] += 1
        if n > 1:
            hres[HR_MULTI] += 1
        if n > hres[HR_MAX_TAKE]:
            hres[HR_MAX_TAKE] = n
    elif first:
        return False, n_log
    else:
        h.passed[p] |= np.int64(1) << pile[st[S_PILE_N] - 1] if st[S_PILE_N] > 0 else np.int64(0)
        card = draw_stock(h, p)
        n_log = _log(h.log, n_log, EV_DRAW, st[S_HAND], st[S_SEAT0 + p], 0, card, 0)
    n_log = mj_layoffs(p, st, h.hands, h.hand_n, h.masks, h.melds, h.log, n_log)
    return a > 0, n_log


@internal
def mj_score(g, st, masks, rules, hres):
    """G-V-MJ scoring (Decision): each player scores the value of the cards they put on the table
    minus the value of the cards in their hand; the gin player's hand is all melds and goes on the
    table too, and adds the gin bonus (25 in the mahjong preset)."""
    mv = st[S_MV]
    for q in range(2):
        table = value_of_mask(st[S_TABLE0 + q], mv)
        hand = value_of_mask(masks[q], mv)
        hres[HR_TV0 + q] = table
        hres[HR_MJ0 + q] = table + hand + rules[R.R_GIN] if q == g else table - hand
    hres[HR_OUTCOME] = L.O_GIN
    hres[HR_WINNER] = g
    hres[HR_KNOCKER] = g
    hres[HR_POINTS] = hres[HR_MJ0 + g]
    hres[HR_BOXES] = 1


@njit(**_HAND_INLINE)
def deal_hand(h, n_log):
    """G-DEAL-2 (G-V-DEAL11, G-V-OKLA): shuffle and deal, turn the upcard, fix the hand's knock
    limit and stake. Returns n_log."""
    rules, deck, deck2, st, pile, hres, log = h.rules, h.deck, h.deck2, h.st, h.pile, h.hres, h.log
    hand_no = st[S_HAND]
    for i in range(52):
        deck[i] = i
    shuffle(h.rng, deck, 52)
    second = HAND_VARIANTS and rules[R.R_SECOND_DECK] != 0
    if HAND_VARIANTS and second:  # G-V-OKLA tournament form: the knock card is the bottom card of a second deck
        for i in range(52):
            deck2[i] = i
        shuffle(h.rng, deck2, 52)
    dpos = st[S_DPOS]
    nd = 1 - dpos
    for p in range(2):
        h.hand_n[p] = 0
        h.masks[p] = 0
        h.took[p] = 0
        h.discs[p] = 0
        h.passed[p] = 0
        h.my_turns[p] = 0
        st[S_HN0 + p] = 0
    for j in range(2 * HIST_SLOTS):
        st[S_HIST + j] = 0
    # One card at a time from the top, the non-dealer first; G-V-DEAL11: an 11th to the non-dealer.
    stock_n = 52
    for _ in range(R.HAND_SIZE):
        for k in range(2):
            q = nd if k == 0 else dpos
            stock_n -= 1
            add_card(h.hands, h.hand_n, h.masks, q, deck[stock_n])
    if HAND_VARIANTS and rules[R.R_DEAL11] != 0:  # (to the player who plays first: the non-dealer, or see S_FIRST)
        stock_n -= 1
        add_card(h.hands, h.hand_n, h.masks, st[S_FIRST], deck[stock_n])
    for p in range(2):
        n_log = _log(log, n_log, EV_DEAL, hand_no, st[S_SEAT0 + p], h.hand_n[p], 0, 0)
        n_log = _log_cards(log, n_log, h.hands[p], h.hand_n[p], 6)
    st[S_PILE_N] = 0
    st[S_PILE_MASK] = 0
    if not HAND_VARIANTS or rules[R.R_UPCARD] != 0:
        stock_n -= 1
        pile[0] = deck[stock_n]
        st[S_PILE_N] = 1
        st[S_PILE_MASK] = np.int64(1) << pile[0]
        n_log = _log(log, n_log, EV_UPCARD, hand_no, -1, pile[0], 0, 0)
    st[S_STOCK] = stock_n
    st[S_TURN] = 0
    st[S_TAKEN] = 0
    st[S_N_MELDS] = 0
    st[S_TABLE0] = 0
    st[S_TABLE1] = 0
    st[S_LIMIT] = rules[R.R_KNOCK]
    st[S_STAKE] = 1
    st[S_KCARD] = -1
    st[S_MV] = rules[R.R_MV]
    if HAND_VARIANTS and rules[R.R_OKLA] != 0:  # G-V-OKLA: the knock card sets this hand's limit and stake
        kc = deck2[0] if second else pile[0]
        limit, stake = knock_card_terms(kc, rules)
        st[S_KCARD] = kc
        st[S_LIMIT] = limit
        st[S_STAKE] = stake
        n_log = _log(log, n_log, EV_KNOCK_CARD, hand_no, -1, kc, limit, stake)
    for j in range(HR_SIZE):
        hres[j] = 0
    hres[HR_KNOCKER] = -1
    hres[HR_WINNER] = -1
    hres[HR_UPCARD] = -1
    return n_log


@njit_by_type(**_HAND_INLINE)
def offer_pile(h, q, kind, top, dw11, after, n_opts, must):
    """Ask position ``q`` whether to take the pile's ``top`` card (``offer_top``'s rows, of which
    ``n_opts``; ``dw11``, ``after``: ``take_info``'s; ``must``: it may take it only to knock,
    G-TURN-3, G-WALL-2/3); returns the row chosen."""
    show(h, q, deadwood(h.masks[q], h.st[S_MV]), 1 if kind == L.K_UPCARD else 0)
    h.shown[L.V_TAKE_MUST_KNOCK] = must
    offer_top(h.opts, top, dw11, after)
    return ask(h, kind, q, n_opts)


@njit(**_HAND_INLINE)
def first_turn(h, n_log):
    """The first turn of a hand. G-FIRST-1: the non-dealer, then the dealer, may take the upcard;
    if both decline the non-dealer draws from the stock. G-V-DEAL11: the player with 11 cards
    only discards. Without an upcard (G-V-OKLA second deck) the player at ``st[S_FIRST]`` (the
    winner of the previous hand) draws from the stock. Returns (position that discards next, the
    card it took from the pile or -1, n_log)."""
    rules, st, log = h.rules, h.st, h.log
    hand_no = st[S_HAND]
    nd = 1 - st[S_DPOS]
    gra = HAND_VARIANTS and rules[R.R_GRA] != 0
    taken = -1
    p = st[S_FIRST]  # the non-dealer unless G-V-OKLA's second deck says otherwise
    if HAND_VARIANTS and rules[R.R_DEAL11] != 0:
        pass
    elif not HAND_VARIANTS or rules[R.R_UPCARD] != 0:
        taker = -1
        for k in range(2):
            q = nd if k == 0 else 1 - nd
            top = h.pile[st[S_PILE_N] - 1]
            dw11, after = take_info(h.masks[q], top, gra, h.scratch, st[S_MV])
            c = offer_pile(h, q, L.K_UPCARD, top, dw11, after, 2, 0)
            n_log = _log(log, n_log, EV_UPCARD_CHOICE, hand_no, st[S_SEAT0 + q], c, top, 0)
            if c == 1:
                taker = q
                break
            h.passed[q] |= np.int64(1) << top
        h.hres[HR_UPCARD] = taker
        if taker >= 0:
            p = taker
            taken = take_top(h, p)
            n_log = _log(log, n_log, EV_DRAW, hand_no, st[S_SEAT0 + p], 1, taken, 0)
        else:
            card = draw_stock(h, p)
            n_log = _log(log, n_log, EV_DRAW, hand_no, st[S_SEAT0 + p], 0, card, 0)
    else:
        card = draw_stock(h, p)
        n_log = _log(log, n_log, EV_DRAW, hand_no, st[S_SEAT0 + p], 0, card, 0)
    return p, taken, n_log


@njit(**_HAND_INLINE)
def last_chance(h, p, n_log):
    """G-WALL-2 / G-WALL-3: at the wall, the player who did not draw the last card may take the
    pile's top card if it lets it knock, and then must knock. Returns (the card it took, or -1:
    none, n_log); the other position ``1 - p`` discards it."""
    st = h.st
    o = 1 - p
    top = h.pile[st[S_PILE_N] - 1]
    allow_re = h.rules[R.R_FIFTIETH] != 0
    dw11, after = take_info(h.masks[o], top, allow_re, h.scratch, st[S_MV])
    if after > st[S_LIMIT]:
        return np.int64(-1), n_log
    c = offer_pile(h, o, L.K_LAST, top, dw11, after, 2, 1)
    n_log = _log(h.log, n_log, EV_LAST, st[S_HAND], st[S_SEAT0 + o], c, top, 0)
    if c != 1:
        return np.int64(-1), n_log
    taken = take_top(h, o)
    n_log = _log(h.log, n_log, EV_DRAW, st[S_HAND], st[S_SEAT0 + o], 1, taken, 0)
    return taken, n_log


@njit(**_HAND_INLINE)
def draw_turn(h, p, n_log):
    """G-TURN-1: position ``p`` takes the pile's top card or draws from the stock (G-TURN-3: under
    ``gra_rediscard`` it takes back its own discard only to knock). Returns (the card it took from
    the pile or -1, whether it must knock, n_log) for its discard."""
    st = h.st
    gra = HAND_VARIANTS and h.rules[R.R_GRA] != 0
    top = h.pile[st[S_PILE_N] - 1]
    top_bit = np.int64(1) << top
    must = HAND_VARIANTS and gra and (h.discs[p] & top_bit) != 0
    dw11, after = take_info(h.masks[p], top, gra, h.scratch, st[S_MV])
    n_opts = 2
    if must and after > st[S_LIMIT]:
        n_opts = 1
    d = offer_pile(h, p, L.K_DRAW, top, dw11, after, n_opts, 1 if must else 0)
    if d == 1:
        taken = take_top(h, p)
        n_log = _log(h.log, n_log, EV_DRAW, st[S_HAND], st[S_SEAT0 + p], 1, taken, 0)
    else:
        h.passed[p] |= top_bit
        card = draw_stock(h, p)
        taken = -1
        n_log = _log(h.log, n_log, EV_DRAW, st[S_HAND], st[S_SEAT0 + p], 0, card, 0)
    return taken, must and d == 1, n_log


@njit(**_HAND_INLINE)
def knock_out(h, k, n_log):
    """Position ``k`` knocked: it lays out an arrangement (G-LAY-0), the other lays off (G-LAY-1,
    none on gin), and the hand is scored (G-SC-1..4, the stake of G-V-OKLA). Returns n_log."""
    st, masks, hres = h.st, h.masks, h.hres
    mv = st[S_MV]
    d = 1 - k
    k_dw, k_sets = best_arrangement(masks[k], mv)
    if k_dw == 0:
        d_dw = deadwood(masks[d], mv)  # G-LAY-1: no lay-offs on gin (so no arrangement to choose)
        laid = np.int64(0)
    else:
        k_sets = choose_arrangement(h, k, k_dw, k_sets)
        d_dw, laid = best_layoff(masks[d], masks[k], k_sets, h.ends, h.idx, mv)
    # the defender's hand is the one it kept after its last discard: could it have knocked with it?
    # (lay-offs only lower the deadwood, so only then is it counted before them)
    if h.my_turns[d] > 0 and d_dw <= st[S_LIMIT] and (laid == 0 or deadwood(masks[d], mv) <= st[S_LIMIT]):
        hres[HR_WAITED] = h.my_turns[d]
    n_log = _log(h.log, n_log, EV_LAYOFF, st[S_HAND], st[S_SEAT0 + d], d_dw, laid, k_sets)
    hres[HR_KNOCKER] = k
    hres[HR_DW0 + k] = k_dw
    hres[HR_DW0 + d] = d_dw
    hres[HR_LAID] = laid
    hand_score(k, k_dw, d_dw, h.rules, hres)
    apply_stake(st[S_STAKE], h.rules, hres)
    return n_log


@njit(**_HAND_INLINE)
def end_hand(h, n_log):
    """The transcript's end of a hand (its result in ``h.hres``). Returns n_log."""
    st, hres = h.st, h.hres
    w = hres[HR_WINNER]
    return _log(h.log, n_log, EV_HAND_END, st[S_HAND], st[S_SEAT0 + w] if w >= 0 else -1, hres[HR_OUTCOME],
                hres[HR_POINTS], st[S_SEAT0 + hres[HR_KNOCKER]] if hres[HR_KNOCKER] >= 0 else -1)


# ``simple`` against ``simple`` without a transcript: the turns after the first on the two masks
# (``melds.simple_choice``: ``simple``'s discard and what taking the top card would leave, in one
# pass), not through the view, the option rows and a decision call per draw and discard. The draw
# and the knock are ``simple``'s own rules (``wants_card``, ``knock_threshold``, shown the few view
# fields they read); its discard is ``simple_choice``'s (the least deadwood, then the higher rank,
# then the lower id, as ``knock_decide`` without ``avoid``): checked against the logged hands.
# (``avoid`` and ``hurry`` read more of the view: a ``simple`` with them set takes the general turns.)
SIMPLE_FAST = SIMPLE_PARAMS[P_AVOID] == 0 and SIMPLE_PARAMS[P_HURRY] == 0
# (inlined copies in the turns: as calls they cost the loop 9%)
simple_knock_at = compiled_as(knock_threshold, "simple_knock_at", internal(inline="always"))
simple_wants = compiled_as(wants_card, "simple_wants", internal(inline="always"), knock_threshold=simple_knock_at)


@njit(**_HAND)
def simple_turns(h, p, taken):
    """``play_hand``'s turns after the first when both players are ``simple``, nothing is logged and
    the hand plays no hand-level variant: from position ``p``'s discard (it took ``taken`` from the
    pile, or -1) to a knock, the wall (G-WALL-1) or the turn cap. The hand's state is left as the
    general turns leave it (masks, pile, stock, turn, the cards each took, passed and threw; the
    cards in hand: ``hands_from_masks``), but for the turn records only a strategy's view reads;
    returns (the position that played last, whether it knocked, whether the cap stopped the hand)."""
    st, pile, masks, mv, view = h.st, h.pile, h.masks, h.st[S_MV], h.shown
    limit = st[S_LIMIT]
    simple = rows(SIMPLE_PARAMS, 0, SIMPLE_PARAMS.shape[0])
    view[L.V_LIMIT] = limit  # what ``knock_threshold`` reads of the view, besides the turn and the stock
    view[L.V_STAKE] = st[S_STAKE]
    dw0 = dw1 = deadwood(masks[1 - p], mv)  # each position's 10 cards between its turns (p's: set below)
    m11 = masks[p]  # the 11 cards a choice is made from, and the cards it may throw
    allowed = ~(np.int64(1) << taken) if taken >= 0 else FULL
    offered = -1  # the pile's top card while p decides whether to take it
    while True:
        dw11, d, after = simple_choice(m11, allowed, mv)  # (one call site: one inlined copy)
        if offered >= 0:  # the draw (``wants_card``): the card melds, or it lets p knock
            top, offered = offered, -1
            top_bit = np.int64(1) << top
            view[L.V_MY_TURNS] = h.my_turns[p]
            view[L.V_STOCK] = st[S_STOCK]
            if simple_wants(top, dw0 if p == 0 else dw1, dw11, after, simple, view, h.rules):
                st[S_PILE_N] -= 1
                st[S_PILE_MASK] &= ~top_bit
                h.took[p] |= top_bit
            else:
                h.passed[p] |= top_bit
                st[S_STOCK] -= 1
                m11 = masks[p] | (np.int64(1) << h.deck[st[S_STOCK]])
                allowed = FULL
                continue
        m = m11 & ~(np.int64(1) << d)  # the discard (G-TURN-2: not the card just taken)
        masks[p] = m
        if p == 0:
            dw0 = after
        else:
            dw1 = after
        pile[st[S_PILE_N]] = d
        st[S_PILE_N] += 1
        st[S_PILE_MASK] |= np.int64(1) << d
        h.discs[p] |= np.int64(1) << d
        view[L.V_MY_TURNS] = h.my_turns[p]
        view[L.V_STOCK] = st[S_STOCK]
        knock = after <= limit and after <= simple_knock_at(simple, view)
        h.my_turns[p] += 1
        st[S_TURN] += 1
        if knock:
            return p, True, False
        if st[S_STOCK] <= 2:
            return p, False, False
        if st[S_TURN] >= L.TURN_CAP:
            return p, False, True
        p = 1 - p
        offered = pile[st[S_PILE_N] - 1]
        m11 = masks[p] | (np.int64(1) << offered)
        allowed = ~(np.int64(1) << offered)


@internal
def hands_from_masks(h):
    """Each position's sorted cards (``hands``, ``hand_n``) from its mask."""
    for q in range(2):
        m = h.masks[q]
        n = 0
        while m != 0:
            c, m = low_card(m)
            h.hands[q, n] = c
            n += 1
        h.hand_n[q] = n


@njit(**_HAND_PTR)
def play_hand(h, n_log):
    """One hand at a table (``h.st`` holds its seats, dealer position, hand number and the players'
    scores) from the shuffle to its result in ``h.hres``. Returns n_log."""
    st, hres, masks = h.st, h.hres, h.masks
    n_log = deal_hand(h, n_log)
    p, taken, n_log = first_turn(h, n_log)
    gra = HAND_VARIANTS and h.rules[R.R_GRA] != 0
    must, allow_re, first = False, gra, np.int64(1)  # the discard after the draw (``discard_phase``)
    capped = last = knocked = done = False
    if (not HAND_VARIANTS and SIMPLE_FAST and h.log.shape[0] == 0 and h.sids[st[S_SEAT0]] == SID_SIMPLE
            and h.sids[st[S_SEAT1]] == SID_SIMPLE):
        p, knocked, capped = simple_turns(h, p, taken)
        hands_from_masks(h)
        done = True
    while not done:
        knocked, n_log = discard_phase(h, p, taken, must, allow_re, first, n_log)
        if knocked or last:
            break
        if st[S_STOCK] <= 2:  # G-WALL-1: the third-last card was drawn and no knock came
            n_log = _log(h.log, n_log, EV_WALL, st[S_HAND], st[S_SEAT0 + p], st[S_STOCK], 0, 0)
            if not HAND_VARIANTS or h.rules[R.R_LAST_CHANCE] == 0:
                break
            taken, n_log = last_chance(h, p, n_log)  # G-WALL-2 / G-WALL-3
            if taken < 0:
                break
            p, must, allow_re, first, last = 1 - p, True, h.rules[R.R_FIFTIETH] != 0, np.int64(0), True
            continue
        if st[S_TURN] >= L.TURN_CAP:
            capped = True
            break
        p = 1 - p
        taken, must, n_log = draw_turn(h, p, n_log)
        allow_re, first = gra, np.int64(0)
    hres[HR_TURNS] = st[S_TURN]
    hres[HR_STOCK] = st[S_STOCK]
    if knocked:
        n_log = knock_out(h, p, n_log)
    else:
        hres[HR_OUTCOME] = L.O_CAPPED if capped else L.O_WALL
        hres[HR_DW0] = deadwood(masks[0], st[S_MV])
        hres[HR_DW1] = deadwood(masks[1], st[S_MV])
    return end_hand(h, n_log)


@internal
def start_ledger(ledger, rules):
    for j in range(_LG_SIZE):
        ledger[j] = 0
    for k in range(L.N_HOLLY):
        ledger[_LG_HW_OPEN + k] = 1
        ledger[_LG_HW_WINNER + k] = -1
    ledger[_LG_MATCH_NO] = 1
    ledger[_LG_LAST_WON] = -1


@internal
def view_score(ledger, side, rules):
    """The score a player is shown for a side: its points toward the target (G-V-HOLLY: in the
    first game still open; G-V-MATCH: in the match being played)."""
    if VARIANTS and rules[R.R_HOLLY] != 0:
        for k in range(L.N_HOLLY):
            if ledger[_LG_HW_OPEN + k] != 0:
                return ledger[_LG_HW_POINTS + 2 * k + side]
    return ledger[_LG_POINTS + side]


@internal
def hollywood_enter(ledger, side, points, boxes, hand_no, rules):
    """G-V-HOLLY: a hand score goes into game k (1..3) if that game is still open and the side had
    already won at least k-1 hands of the set; a game closes when a side reaches the target.
    Returns the bit mask of the games entered."""
    target = rules[R.R_TARGET]
    prior = ledger[_LG_WON + side] - 1  # hands won before this one
    entered = 0
    for k in range(L.N_HOLLY):
        if ledger[_LG_HW_OPEN + k] == 0 or prior < k:
            continue
        entered |= 1 << k
        at = 2 * k + side
        ledger[_LG_HW_POINTS + at] += points
        ledger[_LG_HW_BOXES + at] += boxes
        ledger[_LG_HW_WON + at] += 1
        if ledger[_LG_HW_POINTS + at] >= target:
            ledger[_LG_HW_OPEN + k] = 0
            ledger[_LG_HW_WINNER + k] = side
            ledger[_LG_HW_CLOSED + k] = hand_no
    return entered


@internal
def settle_match(ledger):
    """G-V-MATCH: at the end of a match, 25 match points per hand won, 100 for winning the match,
    100 more when the opponent won no hand in it; the game score and hand counts start again."""
    w = 0 if ledger[_LG_POINTS] >= ledger[_LG_POINTS + 1] else 1
    for s in range(2):
        ledger[_LG_MP + s] += R.MATCH_HAND_POINTS * ledger[_LG_MATCH_HANDS + s]
    ledger[_LG_MP + w] += R.MATCH_WIN_POINTS
    if ledger[_LG_MATCH_HANDS + 1 - w] == 0:
        ledger[_LG_MP + w] += R.MATCH_SHUTOUT_POINTS
        ledger[_LG_MATCH_SHUTOUTS] += 1
    ledger[_LG_MATCHES_WON + w] += 1
    for s in range(2):
        ledger[_LG_POINTS + s] = 0
        ledger[_LG_MATCH_HANDS + s] = 0
    ledger[_LG_MATCH_NO] += 1


@internal
def record_hand(ledger, side, points, boxes, hand_no, rules):
    """Enter a won hand (side -1: nobody scored) and say whether the game is over: G-GAME-1 (a
    side reaches the target), G-V-HOLLY (all three games are over) or G-V-MATCH (match points
    reach the match target at the end of a match). Returns (over, Hollywood games entered)."""
    entered = 0
    ledger[_LG_LAST] = side
    if side >= 0:
        ledger[_LG_LAST_WON] = side
        ledger[_LG_POINTS + side] += points
        ledger[_LG_WON + side] += 1
        ledger[_LG_BOXES + side] += boxes
        if VARIANTS and rules[R.R_HOLLY] != 0:
            entered = hollywood_enter(ledger, side, points, boxes, hand_no, rules)
        if VARIANTS and rules[R.R_MATCH] > 0:
            ledger[_LG_MATCH_HANDS + side] += 1
    for s in range(rules[R.R_SIDES]):
        ledger[_LG_AFTER + s] = ledger[_LG_POINTS + s]  # (a finished match resets the points)
    if VARIANTS and rules[R.R_HOLLY] != 0:
        for k in range(L.N_HOLLY):
            if ledger[_LG_HW_OPEN + k] != 0:
                return False, entered
        return True, entered
    target = rules[R.R_TARGET]
    reached = False
    for s in range(rules[R.R_SIDES]):
        if ledger[_LG_POINTS + s] >= target:
            reached = True
    if VARIANTS and rules[R.R_MATCH] > 0 and reached:
        settle_match(ledger)
        goal = rules[R.R_MATCH]
        mp0 = ledger[_LG_MP]
        mp1 = ledger[_LG_MP + 1]
        return (mp0 >= goal or mp1 >= goal) and mp0 != mp1, entered
    return reached, entered


@internal
def game_winner(ledger, rules):
    """The side that won a finished game: the one at the target with the most points (G-GAME-1);
    G-V-MATCH: the most match points."""
    if VARIANTS and rules[R.R_MATCH] > 0:
        return 0 if ledger[_LG_MP] > ledger[_LG_MP + 1] else 1
    best = -1
    for s in range(rules[R.R_SIDES]):
        pts = ledger[_LG_POINTS + s]
        if pts >= rules[R.R_TARGET] and (best < 0 or pts > ledger[_LG_POINTS + best]
                                          or (pts == ledger[_LG_POINTS + best] and s == ledger[_LG_LAST])):
            best = s  # (G-V-MJ: both may reach the target in one hand; a tie goes to the hand's winner)
    return best


@njit(**_HAND_PTR)
def play_hand_mj(h, n_log):
    """A hand of Mahjong gin (G-V-MJ): the deal and the wall are the standard ones; a turn is the
    stock or a multi-card pickup, the lay-offs, the discard; only gin ends the hand. Its own loop
    (the turn is another game's), so the standard hand stays as it is. Returns n_log."""
    st, hres, masks, log = h.st, h.hres, h.masks, h.log
    hand_no = st[S_HAND]
    n_log = deal_hand(h, n_log)
    mv = st[S_MV]
    nd = 1 - st[S_DPOS]
    p = nd
    # G-FIRST-1 with the pickup: the non-dealer, then the dealer, may take the upcard (placing it at
    # once); if both decline, the non-dealer draws from the stock.
    taker = -1
    for k in range(2):
        q = nd if k == 0 else 1 - nd
        top = h.pile[st[S_PILE_N] - 1]
        took_it, n_log = mj_draw(h, q, np.bool_(True), n_log)
        n_log = _log(log, n_log, EV_UPCARD_CHOICE, hand_no, st[S_SEAT0 + q], 1 if took_it else 0, top, 0)
        if took_it:
            taker = q
            break
        h.passed[q] |= np.int64(1) << top
    hres[HR_UPCARD] = taker
    if taker >= 0:
        p = taker
    else:
        card = draw_stock(h, p)
        n_log = _log(log, n_log, EV_DRAW, hand_no, st[S_SEAT0 + p], 0, card, 0)
        n_log = mj_layoffs(p, st, h.hands, h.hand_n, masks, h.melds, log, n_log)
    first = np.int64(1)
    capped = False
    while True:
        knocked, n_log = discard_phase(h, p, np.int64(-1), np.bool_(False), np.bool_(False), first, n_log)
        if knocked:
            break
        if st[S_STOCK] <= 2:  # G-WALL-1
            n_log = _log(log, n_log, EV_WALL, hand_no, st[S_SEAT0 + p], st[S_STOCK], 0, 0)
            break
        if st[S_TURN] >= L.TURN_CAP:
            capped = True
            break
        p = 1 - p
        _, n_log = mj_draw(h, p, np.bool_(False), n_log)
        first = np.int64(0)
    hres[HR_TURNS] = st[S_TURN]
    hres[HR_STOCK] = st[S_STOCK]
    hres[HR_DW0] = deadwood(masks[0], mv)
    hres[HR_DW1] = deadwood(masks[1], mv)
    if knocked:  # only gin ends a hand
        mj_score(p, st, masks, h.rules, hres)
        for q in range(2):
            n_log = _log(log, n_log, EV_MJ_SCORE, hand_no, st[S_SEAT0 + q], hres[HR_MJ0 + q], hres[HR_TV0 + q],
                         st[S_TABLE0 + q])
    else:
        hres[HR_OUTCOME] = L.O_CAPPED if capped else L.O_WALL
    return end_hand(h, n_log)


@internal
def write_hand_row(row, st, hres, ledger, rules, table, deal_side, deal_points):
    """One row of the per-hand table (layout H_*; optional blocks where the rules put them)."""
    s0 = st[S_SEAT0]
    s1 = st[S_SEAT1]
    row[L.H_HAND] = st[S_HAND]
    row[L.H_DEALER] = st[S_DEALER_SEAT]
    k = hres[HR_KNOCKER]
    row[L.H_KNOCKER] = -1 if k < 0 else (s0 if k == 0 else s1)
    row[L.H_OUTCOME] = hres[HR_OUTCOME]
    w = hres[HR_WINNER]
    row[L.H_WINNER] = -1 if w < 0 else (s0 if w == 0 else s1)
    row[L.H_POINTS] = hres[HR_POINTS]
    row[L.H_TURNS] = hres[HR_TURNS]
    u = hres[HR_UPCARD]
    row[L.H_UPCARD_TAKER] = -1 if u < 0 else (s0 if u == 0 else s1)
    row[L.H_LAID_N] = popcount(hres[HR_LAID])
    row[L.H_LAID_PTS] = value_of_mask(hres[HR_LAID], st[S_MV])
    row[L.H_STOCK] = hres[HR_STOCK]
    row[L.H_SEAT] = s0
    row[L.H_SEAT + 1] = s1
    row[L.H_DW] = hres[HR_DW0]
    row[L.H_DW + 1] = hres[HR_DW1]
    for s in range(rules[R.R_SIDES]):
        row[L.H_SCORES + s] = ledger[_LG_AFTER + s]
    at = rules[R.R_H_OKLA]
    if at > 0:
        row[at + L.HO_KNOCK_CARD] = st[S_KCARD]
        row[at + L.HO_LIMIT] = st[S_LIMIT]
        row[at + L.HO_STAKE] = st[S_STAKE]
        row[at + L.HO_BOXES] = hres[HR_BOXES]
    at = rules[R.R_H_HOLLY]
    if VARIANTS and at > 0:
        row[at + L.HH_ENTERED] = hres[HR_ENTERED]
        for j in range(2 * L.N_HOLLY):
            row[at + L.HH_SCORES + j] = ledger[_LG_HW_POINTS + j]
    at = rules[R.R_H_MATCH]
    if VARIANTS and at > 0:
        row[at + L.HM_MATCH] = hres[HR_MATCH]
        for s in range(2):
            row[at + L.HM_POINTS + s] = ledger[_LG_MP + s]
    at = rules[R.R_H_MJ]
    if at > 0:
        for q in range(2):
            row[at + L.HJ_POINTS + q] = hres[HR_MJ0 + q]
            row[at + L.HJ_TABLE + q] = hres[HR_TV0 + q]
        row[at + L.HJ_PICKUPS] = hres[HR_PICKUPS]
        row[at + L.HJ_MAX_TAKE] = hres[HR_MAX_TAKE]
    at = rules[R.R_H_TEAM]
    if VARIANTS and at > 0:
        row[at + L.HT_TABLE] = table
        row[at + L.HT_DEAL_WINNER] = deal_side
        row[at + L.HT_DEAL_POINTS] = deal_points


@internal
def log_scores(log, n_log, hand_no, side, points, ledger, entered, rules):
    """The ledger after a hand (a deal in team play), for the transcript: in team play the deal's
    scoring team and points; per side points and hands won (the entered Hollywood games in c);
    G-V-HOLLY: each game's two scores; G-V-MATCH: the match points."""
    if VARIANTS and rules[R.R_TEAMS] != 0:
        n_log = _log(log, n_log, EV_LEDGER, hand_no, side, points, ledger[_LG_SWEEPS], ledger[_LG_SWEEPS + 1])
    for s in range(rules[R.R_SIDES]):
        n_log = _log(log, n_log, EV_SCORE, hand_no, s, ledger[_LG_POINTS + s], ledger[_LG_WON + s], entered)
    if VARIANTS and rules[R.R_HOLLY] != 0:
        for k in range(L.N_HOLLY):
            n_log = _log(log, n_log, EV_LEDGER, hand_no, k, ledger[_LG_HW_POINTS + 2 * k],
                         ledger[_LG_HW_POINTS + 2 * k + 1], ledger[_LG_HW_OPEN + k])
    if VARIANTS and rules[R.R_MATCH] > 0:
        n_log = _log(log, n_log, EV_LEDGER, hand_no, ledger[_LG_MATCH_NO], ledger[_LG_MP], ledger[_LG_MP + 1],
                     ledger[_LG_MATCH_SHUTOUTS])
    return n_log


@internal
def column_final(points, boxes, n_sides, winner, rules, final):
    """G-GAME-1..3 for one score column: each side's points plus its boxes; the winner adds the
    game bonus — the shutout bonus, or twice its whole score, when every other side scored
    nothing. Fills ``final``; returns (shutout, margin: the sum of the winner's lead over each
    other side)."""
    box = rules[R.R_BOX]
    shutout = winner >= 0
    for s in range(n_sides):
        final[s] = points[s] + box * boxes[s]
        if s != winner and points[s] > 0:  # (G-V-MJ points may be below 0: "nothing" is 0 or less)
            shutout = False
    if winner < 0:
        return False, abs(final[0] - final[1])
    fw = final[winner]
    if shutout and rules[R.R_SHUTOUT_DOUBLE] != 0:
        fw = 2 * (fw + rules[R.R_GAME_BONUS])
    elif shutout:
        fw += rules[R.R_SHUTOUT_BONUS]
    else:
        fw += rules[R.R_GAME_BONUS]
    final[winner] = fw
    margin = 0
    for s in range(n_sides):
        if s != winner:
            margin += fw - final[s]
    return shutout, margin


@internal
def game_result(ledger, capped, rules, out_game, tmp):
    """The game's winner, final scores, shutout and margin (G-GAME-1..3; G-V-HOLLY: the three
    games' finals added up, each game scored on its own column; G-V-MATCH: match points)."""
    n_sides = rules[R.R_SIDES]
    if VARIANTS and rules[R.R_HOLLY] != 0:
        for s in range(2):
            out_game[L.G_FINAL + s] = 0
        any_shutout = False
        for k in range(L.N_HOLLY):
            base = L.G_HOLLY + k * L.GH_WIDTH
            w = ledger[_LG_HW_WINNER + k]
            shutout, margin = column_final(ledger[_LG_HW_POINTS + 2 * k:_LG_HW_POINTS + 2 * k + 2],
                                           ledger[_LG_HW_BOXES + 2 * k:_LG_HW_BOXES + 2 * k + 2], np.int64(2), w, rules,
                                           tmp)
            out_game[base + L.GH_WINNER] = w
            out_game[base + L.GH_SHUTOUT] = 1 if shutout else 0
            out_game[base + L.GH_MARGIN] = margin
            out_game[base + L.GH_CLOSED] = ledger[_LG_HW_CLOSED + k]
            for s in range(2):
                out_game[base + L.GH_POINTS + s] = ledger[_LG_HW_POINTS + 2 * k + s]
                out_game[base + L.GH_BOXES + s] = ledger[_LG_HW_BOXES + 2 * k + s]
                out_game[base + L.GH_FINAL + s] = tmp[s]
                out_game[base + L.GH_WON + s] = ledger[_LG_HW_WON + 2 * k + s]
                out_game[L.G_FINAL + s] += tmp[s]
            any_shutout = any_shutout or shutout
        f0 = out_game[L.G_FINAL]
        f1 = out_game[L.G_FINAL + 1]
        winner = -1 if capped or f0 == f1 else (0 if f0 > f1 else 1)
        out_game[L.G_MARGIN] = abs(f0 - f1)
        out_game[L.G_SHUTOUT] = 1 if any_shutout else 0
        return winner
    if VARIANTS and rules[R.R_MATCH] > 0:
        winner = -1 if capped else game_winner(ledger, rules)
        for s in range(2):
            out_game[L.G_FINAL + s] = ledger[_LG_MP + s]
            out_game[L.G_MATCHES_WON + s] = ledger[_LG_MATCHES_WON + s]
            out_game[L.G_MATCH_POINTS + s] = ledger[_LG_MP + s]
        out_game[L.G_MATCHES] = ledger[_LG_MATCH_NO] - 1
        out_game[L.G_MATCH_SHUTOUTS] = ledger[_LG_MATCH_SHUTOUTS]
        if winner >= 0:
            out_game[L.G_MARGIN] = ledger[_LG_MP + winner] - ledger[_LG_MP + 1 - winner]
            out_game[L.G_SHUTOUT] = 1 if ledger[_LG_MP + 1 - winner] == 0 else 0
        else:
            out_game[L.G_MARGIN] = abs(ledger[_LG_MP] - ledger[_LG_MP + 1])
        return winner
    winner = -1 if capped else game_winner(ledger, rules)
    shutout, margin = column_final(ledger[_LG_POINTS:_LG_POINTS + n_sides], ledger[_LG_BOXES:_LG_BOXES + n_sides],
                                   n_sides, winner, rules, tmp)
    for s in range(n_sides):
        out_game[L.G_FINAL + s] = tmp[s]
    out_game[L.G_SHUTOUT] = 1 if shutout else 0
    out_game[L.G_MARGIN] = margin
    return winner


@internal
def side_of(seat, rules):
    """Scores are kept per seat, or per team in team play (seat s plays for team s % 2)."""
    return seat % 2 if VARIANTS and rules[R.R_TEAMS] != 0 else seat


@internal
def seat_table(st, t, dealer, deal_no, ledger, rules):
    """Who plays at table ``t`` of this deal (positions 0: the non-dealer's part, 1: the dealer's).
    Two players: the non-dealer and the dealer. G-V-3P: the dealer sits out; the player after the
    dealer plays the non-dealer's part. G-V-4P (and teams of three or four): ``dealer`` is the
    dealing team; team-0 player t meets team-1 player (t + deal - 1) mod tables, so opponents
    rotate every deal and partners never meet; the dealing team's player deals at each table."""
    players = rules[R.R_PLAYERS]
    third = -1
    if not VARIANTS or players == 2:
        s0 = 1 - dealer
        s1 = dealer
        dseat = dealer
    elif players == 3:
        s0 = (dealer + 1) % 3
        s1 = (dealer + 2) % 3
        dseat = dealer
        third = view_score(ledger, dealer, rules)
    else:
        a = 2 * t
        b = 2 * ((t + deal_no - 1) % rules[R.R_TABLES]) + 1
        s0 = b if dealer == 0 else a
        s1 = a if dealer == 0 else b
        dseat = s1
    st[S_SEAT0] = s0
    st[S_SEAT1] = s1
    st[S_DPOS] = 1
    st[S_DEALER_SEAT] = dseat
    # G-V-OKLA second deck: the winner of the previous hand (of a team game: the player of the
    # team that scored the last deal won) draws first; until a hand is won, the non-dealer.
    st[S_FIRST] = 0
    if rules[R.R_SECOND_DECK] != 0 and ledger[_LG_LAST_WON] >= 0 and side_of(s1, rules) == ledger[_LG_LAST_WON]:
        st[S_FIRST] = 1
    st[S_SC0] = view_score(ledger, side_of(s0, rules), rules)
    st[S_SC1] = view_score(ledger, side_of(s1, rules), rules)
    st[S_THIRD] = third
    st[S_WAITED0] = ledger[_LG_WAITED + s0]
    st[S_WAITED0 + 1] = ledger[_LG_WAITED + s1]


@internal
def deal_result(tres, tst, n_tables, ledger, rules):
    """(side that scores, points, boxes) of a deal. One table: its winner. G-V-4P: if one team
    wins every table it scores all their points; otherwise the team with the larger total scores
    the difference (equal totals: nobody). G-V-TED: ``sweep_bonus`` more when a team wins at
    every table. The scoring team's boxes are those of the tables it won."""
    if not VARIANTS or rules[R.R_TEAMS] == 0:
        w = tres[0, HR_WINNER]
        if w < 0:
            return -1, 0, 0
        return tst[0, S_SEAT0 + w], tres[0, HR_POINTS], tres[0, HR_BOXES]
    p0 = 0
    p1 = 0
    won0 = 0
    won1 = 0
    b0 = 0
    b1 = 0
    for t in range(n_tables):
        w = tres[t, HR_WINNER]
        if w < 0:
            continue
        if tst[t, S_SEAT0 + w] % 2 == 0:
            p0 += tres[t, HR_POINTS]
            won0 += 1
            b0 += tres[t, HR_BOXES]
        else:
            p1 += tres[t, HR_POINTS]
            won1 += 1
            b1 += tres[t, HR_BOXES]
    if p0 == p1:
        return -1, 0, 0
    side = 0 if p0 > p1 else 1
    points = abs(p0 - p1)
    if (won0 if side == 0 else won1) == n_tables:
        points += rules[R.R_SWEEP]
        ledger[_LG_SWEEPS + side] += 1
    return side, points, (b0 if side == 0 else b1)


@internal
def next_dealer(dealer, tres, tst, side, rules):
    """G-DEAL-1: two players — the loser deals (options: the winner, alternate); G-V-3P: the loser
    of the hand deals, so the next hand is between the previous dealer and the winner; team play:
    the team that did not score deals. After a void hand or a 0-0 deal the same dealer deals."""
    if side < 0:
        return dealer
    players = rules[R.R_PLAYERS]
    if VARIANTS and players == 3:
        w = tres[0, HR_WINNER]
        return tst[0, S_SEAT0 + 1 - w]
    if VARIANTS and players >= 4:
        return 1 - side
    nd_rule = rules[R.R_NEXT_DEALER]
    if nd_rule == R.DEALER_LOSER:
        return 1 - side
    if nd_rule == R.DEALER_ALTERNATE:
        return 1 - dealer
    return side


@njit(cache=True, inline="always")
def carve(w, rules, sids, params, rng, log, ext):
    """The game's record (``HAND_T``) over the working memory ``w`` (views at the ``_W_*``
    offsets) and the arguments."""
    return _make_hand(w, (rules, sids, params, rng, log, ext))


@njit(**_HAND_INLINE)
def tally(h, t, ledger, counts, tres, tst):
    """Count the hand just played at table ``t`` into the game's counters and the ledger's
    per-seat columns, and keep its result and state (``tres[t]``, ``tst[t]``) until the deal is
    scored."""
    st, hres, rules = h.st, h.hres, h.rules
    counts[C_HANDS] += 1
    counts[hres[HR_OUTCOME]] += 1
    counts[C_TURNS] += hres[HR_TURNS]
    if st[S_STAKE] > 1:
        counts[C_DOUBLED] += 1
    wpos = hres[HR_WINNER]
    if wpos >= 0:
        wseat = st[S_SEAT0 + wpos]
        ledger[_LG_SEAT_POINTS + wseat] += hres[HR_POINTS]
        ledger[_LG_SEAT_WON + wseat] += 1
        if wpos == st[S_DPOS]:
            counts[C_DEALER_WON] += 1
        if rules[R.R_MJ] != 0:  # G-V-MJ: the other player scores too (often less than 0)
            lseat = st[S_SEAT0 + 1 - wpos]
            ledger[_LG_SEAT_POINTS + lseat] += hres[HR_MJ0 + 1 - wpos]
            ledger[_LG_POINTS + lseat] += hres[HR_MJ0 + 1 - wpos]
    counts[C_PICKUPS] += hres[HR_PICKUPS]
    counts[C_MULTI] += hres[HR_MULTI]
    if hres[HR_WAITED] > 0:  # layout.V_OPP_WAITED: the earliest turn the defender was seen waiting
        dseat = _LG_WAITED + st[S_SEAT0 + 1 - hres[HR_KNOCKER]]
        seen = ledger[dseat]
        ledger[dseat] = hres[HR_WAITED] if seen == 0 else min(seen, hres[HR_WAITED])
    for j in range(HR_SIZE):
        tres[t, j] = hres[j]
    for j in range(S_SIZE):
        tst[t, j] = st[j]


@njit(cache=True, inline="always")
def game_row(out_game, ledger, counts, view, rules, deals, capped):
    """The per-game row's counts and scores (layout G_*; the winner and finals: ``game_result``)."""
    out_game[L.G_HANDS] = counts[C_HANDS]
    out_game[L.G_DEALS] = deals
    scored = 0
    for p in range(rules[R.R_PLAYERS]):
        scored += ledger[_LG_SEAT_WON + p]
    out_game[L.G_SCORED] = scored
    out_game[L.G_KNOCKS] = counts[L.O_KNOCK]
    out_game[L.G_GINS] = counts[L.O_GIN]
    out_game[L.G_UNDERCUTS] = counts[L.O_UNDERCUT]
    out_game[L.G_WALLS] = counts[L.O_WALL]
    out_game[L.G_TIES] = counts[L.O_TIE]
    out_game[L.G_CAPPED_HANDS] = counts[L.O_CAPPED]
    out_game[L.G_CAPPED] = 1 if capped else 0
    out_game[L.G_TURNS] = counts[C_TURNS]
    out_game[L.G_DEALER_WON] = counts[C_DEALER_WON]
    out_game[L.G_DOUBLED] = counts[C_DOUBLED]
    out_game[L.G_PICKUPS] = counts[C_PICKUPS]
    out_game[L.G_MULTI_PICKUPS] = counts[C_MULTI]
    for p in range(rules[R.R_PLAYERS]):
        out_game[L.G_SCORES + p] = ledger[_LG_SEAT_POINTS + p]
        out_game[L.G_WON + p] = ledger[_LG_SEAT_WON + p]
    for s in range(rules[R.R_SIDES]):
        out_game[L.G_SIDE_POINTS + s] = ledger[_LG_POINTS + s]
        out_game[L.G_SIDE_WON + s] = ledger[_LG_WON + s]
        out_game[L.G_BOXES + s] = ledger[_LG_BOXES + s]
    out_game[L.G_SWEEPS] = ledger[_LG_SWEEPS]
    out_game[L.G_SWEEPS + 1] = ledger[_LG_SWEEPS + 1]
    for j in range(5):  # a user policy's bad option indices (simcards.policy)
        out_game[L.G_BAD + j] = view[L.V_BAD + j]


@njit(**_HAND_PTR)
def play_one(w, rng, rules, sids, params, out_game, hands_out, log, ext, hand_fn):
    """A whole game to the target (G-GAME-1..3) in the working memory ``w`` (zeroed here) with the
    game's streams ``rng``, each hand played by ``hand_fn``, every decision of an attached strategy
    asked of ``ext``. ``hands_out`` receives one row a hand; hands past its rows are played but not
    written. Returns the log length. Compiled without reference counting (every array is a
    borrowed view: ``play_games``) and called through a pointer (a ``GAME_FN``)."""
    for i in range(_WORK_SIZE):
        w[i] = 0
    hand_cap = hands_out.shape[0]
    h = carve(w, rules, sids, params, rng, log, ext)
    rules = h.rules
    tres = grid(w, _W_TRES, L.MAX_TABLES, HR_SIZE)
    tst = grid(w, _W_TST, L.MAX_TABLES, S_SIZE)
    ledger = rows(w, _W_LEDGER, _LG_SIZE)
    counts = rows(w, _W_COUNTS, 16)
    n_log = np.int64(0)  # (typed values, not literals, at call sites: numba compiles a copy per literal)
    # G-DEAL-1 Decision: the first dealer (G-V-3P: of three; team play: the dealing team) is a
    # uniform draw.
    dealer = rand_below(rng, 3 if rules[R.R_PLAYERS] == 3 else 2)
    out_game[L.G_FIRST_DEALER] = dealer
    start_ledger(ledger, rules)
    n_tables = rules[R.R_TABLES]
    deal_no = 0
    game_capped = False
    while True:
        deal_no += 1
        for t in range(n_tables):
            h.st[S_HAND] = deal_no
            seat_table(h.st, t, dealer, deal_no, ledger, rules)
            n_log = hand_fn(h, n_log)
            tally(h, t, ledger, counts, tres, tst)
        side, points, boxes = deal_result(tres, tst, n_tables, ledger, rules)
        match_no = ledger[_LG_MATCH_NO]
        over, entered = record_hand(ledger, side, points, boxes, deal_no, rules)
        n_log = log_scores(h.log, n_log, deal_no, side, points, ledger, entered, rules)
        for t in range(n_tables):
            row = (deal_no - 1) * n_tables + t
            if row < hand_cap:
                tres[t, HR_MATCH] = match_no
                tres[t, HR_ENTERED] = entered
                write_hand_row(hands_out[row], tst[t], tres[t], ledger, rules, t, side, points)
        if over:
            break
        if deal_no >= L.HAND_CAP:
            game_capped = True
            break
        dealer = next_dealer(dealer, tres, tst, side, rules)
    winner = game_result(ledger, game_capped, rules, out_game, rows(h.scratch, 0, L.MAX_SIDES))
    out_game[L.G_WINNER] = winner
    game_row(out_game, ledger, counts, h.shown, rules, deal_no, game_capped)
    return n_log


@njit(cache=True, nogil=True)
def play_games(start, lo, hi, rules, sids, params, out_games, out_hands, log, ext, game_fn, hand_fn):
    """Games ``first_game + lo .. first_game + hi - 1`` of the run seeded with ``seed`` (``start``:
    ``[seed, first_game]``); row ``i`` of the outputs is game ``first_game + i``, with the same number of rows of ``out_hands`` each (may be 0). Returns the log
    length of the last game; ``ext`` is the engine's decision function (a ``DECIDE_FN``),
    ``game_fn`` and ``hand_fn`` the game and the hand the rules play (a ``GAME_FN`` and a
    ``HAND_FN``: ``_compiled``). Releases the GIL: ``play_batch`` runs ranges of games on threads."""
    # Working memory and streams in one allocation each, reused game after game, and every array
    # handed on as a view without reference counting (``jit.rows``): none in the game either.
    # The owners are kept alive to the end (read after the last game).
    seed, first_game = start[0], start[1]
    work = np.zeros(_WORK_SIZE, dtype=np.int64)
    rng_owner = np.zeros(1 + L.MAX_SEATS, dtype=np.uint64)
    w, rng = rows(work, 0, _WORK_SIZE), rows(rng_owner, 0, 1 + L.MAX_SEATS)
    rules, sids, params = rows(rules, 0, rules.shape[0]), rows(sids, 0, sids.shape[0]), rows(params, 0, params.shape[0])
    log = rows(log, 0, log.shape[0])
    n_log = np.int64(0)
    hand_cap = out_hands.shape[0] // max(out_games.shape[0], 1)
    for i in range(lo, hi):
        # The game's streams (simcards.rng.seed_streams): the deal's in rng[0], read by the shuffles
        # and the first dealer; seat s's strategy stream in rng[1 + s], the only one its decisions
        # see (ask).
        seed_streams(rng, seed, first_game + i)
        n_log = game_fn(w, rng, rules, sids, params, rows(out_games, i, 1)[0], rows(out_hands, i * hand_cap, hand_cap),
                        log, ext, hand_fn)
    return n_log + 0 * (work.size + rng_owner.size)


# What ``VARIANTS`` gates: these functions are compiled again over a copy of the module's globals in
# which it is False and they name each other's copies (``_plain``), each under a name of its own
# (``<name>_plain``: numba caches a function under its file and qualified name).
_PLAIN_NAMES = ("view_score", "side_of", "seat_table", "deal_result", "next_dealer", "record_hand", "game_winner",
                "write_hand_row", "log_scores", "game_result", "play_one")


# What ``HAND_VARIANTS`` gates, copied the same way (``_plain("HAND_VARIANTS", _PLAIN_HAND)``): the
# hand and the parts of it that read the flag (inlined into it).
_PLAIN_HAND = ("deal_hand", "first_turn", "last_chance", "draw_turn", "discard_phase", "play_hand")


def _plain(flag: str = "VARIANTS", names: tuple[str, ...] = _PLAIN_NAMES) -> dict:
    """The copies of ``names`` compiled with the module's ``flag`` False (made once, on first use)."""
    copies = globals().get("_PLAIN_" + flag)
    if copies is None:
        import types as pytypes

        scope = dict(globals())
        scope[flag] = False
        for name in names:
            original = globals()[name]
            py = original.py_func
            fn = pytypes.FunctionType(py.__code__, scope, name + "_plain", py.__defaults__)
            fn.__qualname__ = fn.__name__
            options = {k: v for k, v in original.targetoptions.items() if k != "nopython"}
            copy = njit(**options, cache=True)(fn)
            if isinstance(original, type(start_ledger)):  # (an ``internal`` helper: the same class)
                copy.__class__ = type(original)
            scope[name] = copy
        copies = globals()["_PLAIN_" + flag] = {name: scope[name] for name in names}
    return copies


def plain_hand_rules(rules) -> bool:
    """Whether ``rules`` play none of the hand-level variants ``HAND_VARIANTS`` gates."""
    return (rules[R.R_GRA] == 0 and rules[R.R_LAST_CHANCE] == 0 and rules[R.R_DEAL11] == 0 and rules[R.R_OKLA] == 0
            and rules[R.R_SECOND_DECK] == 0 and rules[R.R_MJ] == 0 and rules[R.R_UPCARD] != 0)


def plain_rules(rules) -> bool:
    """Whether ``rules`` use none of the game-level variants ``VARIANTS`` gates."""
    return (rules[R.R_PLAYERS] == 2 and rules[R.R_TEAMS] == 0 and rules[R.R_HOLLY] == 0 and rules[R.R_MATCH] == 0
            and rules[R.R_TABLES] == 1)


def _compiled(rules):
    """``(game function, hand function)`` for these rules (``play_hand``, without the hand-level
    variants when they play none, ``plain_hand_rules``, or ``play_hand_mj`` for G-V-MJ; ``play_one``
    without the game-level variants when they play none: ``plain_rules``),
    each compiled for its signature on its first use (or loaded from the disk cache: a signature
    given to ``njit`` would compile at import) and then held to it, as ``play_games`` is, so the
    game, the hand and an engine's decision function always arrive as pointers, never as
    dispatchers numba would compile into a caller of their own."""
    if rules[R.R_MJ] != 0:
        hand_fn = play_hand_mj
    else:
        hand_fn = _plain("HAND_VARIANTS", _PLAIN_HAND)["play_hand"] if plain_hand_rules(rules) else play_hand
    game_fn = _plain()["play_one"] if plain_rules(rules) else play_one
    for fn, sig in ((hand_fn, (HAND_T, _I64)), (game_fn, GAME_SIG), (play_games, GAMES_SIG)):
        if not fn.signatures:
            fn.compile(sig)
            fn.disable_compile()
    return game_fn, hand_fn


def game_player(ext):
    """``play_game(game, seed, rules, sids, params, out_game, hands_out, hand_cap, log)``: one game,
    with its transcript in ``log``; returns the log length."""

    def play_game(game, seed, rules, sids, params, out_game, hands_out, hand_cap, log):
        game_fn, hand_fn = _compiled(rules)
        return play_games(np.array([seed, game], dtype=np.int64), 0, 1, rules, sids, params, out_game.reshape(1, -1),
                          hands_out[:hand_cap], log, ext, game_fn, hand_fn)

    return play_game


def batch_player(ext):
    """``play_batch(seed, first_game, count, rules, sids, params, out_games, out_hands, hand_cap)``:
    the games in ranges on threads (``games.batch.play_ranges``: not a ``prange``, which would
    compile the whole game twice more)."""

    def play_batch(seed, first_game, count, rules, sids, params, out_games, out_hands, hand_cap):
        game_fn, hand_fn = _compiled(rules)
        log = np.zeros((0, LOG_WIDTH), dtype=np.int64)
        play_ranges(play_games, count, (np.array([seed, first_game], dtype=np.int64),),
                    (rules, sids, params, out_games, out_hands[:count * hand_cap], log, address(ext, DECIDE_FN),
                     address(game_fn, GAME_FN), address(hand_fn, HAND_FN)))

    return play_batch


@njit(cache=True)
def no_decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
    """The ``ext`` of the built-in engine (its strategies are the kernel's own): never called."""
    return 0


@njit(cache=True)
def engine_decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
    """An engine's decision function, rebuilt by ``make_engine`` around its dispatcher as ``custom``."""
    return custom(kind, sid, params, hand, n, opts, n_opts, view, rules, rng)


custom = builtin_decide  # stands in for an engine's dispatcher (``make_engine``)
play_game = game_player(no_decide)
play_batch = batch_player(no_decide)


def make_engine(custom_decide=None, cache_key: str | None = None):
    """``(play_game, play_batch)`` asking ``custom_decide`` every decision of a strategy id other than
    the built-ins' (None: the built-in engine). Only ``engine_decide`` is rebuilt around it
    (``nbutil.rebind``), cached under ``cache_key``; the kernel is the cached one."""
    if custom_decide is None:
        return play_game, play_batch
    ext = rebind(globals(), ("engine_decide",), cache_key, custom=custom_decide)["engine_decide"]
    return game_player(ext), batch_player(ext)
