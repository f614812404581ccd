"""The Gin Rummy numba kernel: deal, upcard protocol, turns, knock and lay-offs, scoring, a whole
game to the target, a batch of games.

Every decision goes through ``decide`` (the built-in strategies; ``make_engine`` rebuilds the
kernel around a dispatcher that also knows user policies). Hands are sorted card arrays (what a
policy sees) plus a bitmask per seat (what the meld solver reads). A batch runs in parallel over chunks of games;
game ``g`` draws only from its own stream ``(seed, g)`` and writes only its own rows.
"""

from __future__ import annotations


import numpy as np
from numba import njit, prange

from simcards.games.gin.layout import (
    G_CAPPED,
    G_CAPPED_HANDS,
    G_DEALER_WON,
    G_FINAL,
    G_FIRST_DEALER,
    G_GINS,
    G_HANDS,
    G_KNOCKS,
    G_MARGIN,
    G_SCORED,
    G_SCORES,
    G_SHUTOUT,
    G_TIES,
    G_TURNS,
    G_UNDERCUTS,
    G_WALLS,
    G_WINNER,
    G_WON,
    H_DEALER,
    H_DW,
    H_HAND,
    H_KNOCKER,
    H_LAID_N,
    H_LAID_PTS,
    H_OUTCOME,
    H_POINTS,
    H_SCORES,
    H_STOCK,
    H_TURNS,
    H_UPCARD_TAKER,
    H_WINNER,
    HAND_CAP,
    K_DISCARD,
    K_DRAW,
    K_KNOCK,
    K_LAST,
    K_UPCARD,
    MAX_HAND,
    MAX_OPTIONS,
    O_CAPPED,
    O_GIN,
    O_KNOCK,
    O_TIE,
    O_UNDERCUT,
    O_WALL,
    OPT_W,
    TURN_CAP,
    V_DEALER,
    V_DW,
    V_FIRST,
    V_HAND,
    V_LIMIT,
    V_MASK,
    V_MY_SCORE,
    V_MY_TURNS,
    V_OPP_DISCARDS,
    V_OPP_PASSED,
    V_OPP_SCORE,
    V_OPP_TOOK,
    V_PILE,
    V_SEAT,
    V_STOCK,
    V_TAKE_MUST_KNOCK,
    V_TAKEN,
    V_TARGET,
    V_TOP,
    V_TURN,
    VIEW_SIZE,
)
from simcards.games.gin.melds import (
    SCRATCH_SIZE,
    best_arrangement,
    best_layoff,
    deadwood,
    popcount,
    removal_deadwoods,
    value_of_mask,
)
from simcards.games.gin.rules import (
    DEALER_ALTERNATE,
    DEALER_LOSER,
    R_BOX,
    R_FIFTIETH,
    R_GAME_BONUS,
    R_GIN,
    R_GRA,
    R_KNOCK,
    R_LAST_CHANCE,
    R_NEXT_DEALER,
    R_SHUTOUT_BONUS,
    R_SHUTOUT_DOUBLE,
    R_TARGET,
    R_TIE_UNDERCUT,
    R_UNDERCUT,
)
from simcards.games.gin.policies import builtin_decide
from simcards.nbutil import borrow, keep_alive, rebind
from simcards.rng import rand_below, seed_state, shuffle

# Transcript events (differential tests compare these arrays move for move).
(EV_DEAL, EV_UPCARD, EV_UPCARD_CHOICE, EV_DRAW, EV_DISCARD, EV_KNOCK, EV_LAST, EV_WALL, EV_LAYOFF,
 EV_HAND_END, EV_SCORE) = range(11)
LOG_WIDTH = 6 + MAX_HAND  # [event, hand, seat, a, b, c, cards...]

# Scalars of a hand in progress (int64 state array).
S_STOCK, S_PILE_N, S_PILE_MASK, S_TURN = range(4)
S_SIZE = 8
# Hand result (int64): outcome, knocker, winner, points, deadwood per seat, laid-off mask, ...
HR_OUTCOME, HR_KNOCKER, HR_WINNER, HR_POINTS, HR_DW0, HR_DW1, HR_LAID, HR_TURNS, HR_UPCARD, HR_STOCK = range(10)
HR_SIZE = 12
SCRATCH_ENDS = 16
SCRATCH_MASK = 63  # scratch[63]: the 11-card mask whose removal deadwoods scratch[0..51] hold


@njit(cache=True, inline="always")
def _log(log, n_log, event, hand, seat, a, b, c):
    if n_log < log.shape[0]:
        log[n_log, 0] = event
        log[n_log, 1] = hand
        log[n_log, 2] = seat
        log[n_log, 3] = a
        log[n_log, 4] = b
        log[n_log, 5] = c
    return n_log + 1


@njit(cache=True, inline="always")
def _log_cards(log, n_log, cards, n):
    row = n_log - 1
    if row < log.shape[0]:
        for j in range(min(n, MAX_HAND)):
            log[row, 6 + j] = cards[j]
    return n_log


@njit(cache=True, inline="always")
def add_card(hands, hand_n, masks, p, card):
    n = hand_n[p]
    j = n
    while j > 0 and hands[p, j - 1] > card:
        hands[p, j] = hands[p, j - 1]
        j -= 1
    hands[p, j] = card
    hand_n[p] = n + 1
    masks[p] |= np.int64(1) << card


@njit(cache=True, inline="always")
def remove_card(hands, hand_n, masks, p, card):
    n = hand_n[p]
    for i in range(n):
        if hands[p, i] == card:
            for j in range(i, n - 1):
                hands[p, j] = hands[p, j + 1]
            hand_n[p] = n - 1
            masks[p] &= ~(np.int64(1) << card)
            return


@njit(cache=True)
def take_info(mask, card, allow_re, scratch):
    """For taking ``card`` into the 10 cards ``mask``: (deadwood of the 11 cards, the lowest
    deadwood after a legal discard). The discard may be ``card`` itself only if ``allow_re``.
    Leaves the per-card removal deadwoods of the 11 cards in ``scratch`` (and their mask in
    ``scratch[SCRATCH_MASK]``) for the discard that follows."""
    m11 = mask | (np.int64(1) << card)
    dw11 = removal_deadwoods(m11, scratch)
    scratch[SCRATCH_MASK] = m11
    best = np.int64(1) << 40
    m = m11
    while m != 0:
        low = m & -m
        m ^= low
        c = popcount(low - 1)
        if c == card and not allow_re:
            continue
        if scratch[c] < best:
            best = scratch[c]
    return dw11, best


@njit(cache=True, inline="always")
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


@njit(cache=True)
def hand_score(knocker, k_dw, d_dw, rules, hres):
    """G-SC-1..4: fill outcome, winner and points of a knock (``k_dw`` 0 is gin)."""
    defender = 1 - knocker
    if k_dw == 0:  # G-SC-4: gin is never undercut
        hres[HR_OUTCOME] = O_GIN
        hres[HR_WINNER] = knocker
        hres[HR_POINTS] = rules[R_GIN] + d_dw
    elif k_dw < d_dw:  # G-SC-2
        hres[HR_OUTCOME] = O_KNOCK
        hres[HR_WINNER] = knocker
        hres[HR_POINTS] = d_dw - k_dw
    elif k_dw == d_dw and rules[R_TIE_UNDERCUT] == 0:  # G-SC-3 option: a tie scores 0-0
        hres[HR_OUTCOME] = O_TIE
        hres[HR_WINNER] = -1
        hres[HR_POINTS] = 0
    else:  # G-SC-3: undercut
        hres[HR_OUTCOME] = O_UNDERCUT
        hres[HR_WINNER] = defender
        hres[HR_POINTS] = k_dw - d_dw + rules[R_UNDERCUT]



# Working memory of one game (offsets into one int64 array).
_W_DECK = 0
_W_HANDS = _W_DECK + 52
_W_HAND_N = _W_HANDS + 2 * MAX_HAND
_W_MASKS = _W_HAND_N + 2
_W_PILE = _W_MASKS + 2
_W_TOOK = _W_PILE + 52
_W_DISCS = _W_TOOK + 2
_W_PASSED = _W_DISCS + 2
_W_MY_TURNS = _W_PASSED + 2
_W_ST = _W_MY_TURNS + 2
_W_VIEW = _W_ST + S_SIZE
_W_OPTS = _W_VIEW + VIEW_SIZE
_W_ENDS = _W_OPTS + MAX_OPTIONS * OPT_W
_W_IDX = _W_ENDS + SCRATCH_ENDS * 14
_W_HRES = _W_IDX + SCRATCH_ENDS
_W_SCORES = _W_HRES + HR_SIZE
_W_WON = _W_SCORES + 2
_W_COUNTS = _W_WON + 2
_W_SCRATCH = _W_COUNTS + 8
_WORK_SIZE = _W_SCRATCH + SCRATCH_SIZE

decide = builtin_decide  # the built-in strategies; make_engine swaps in user dispatchers


@njit(cache=True)
def ask(kind, p, sids, params, hands, hand_n, opts, n_opts, view, rules, rng):
    if n_opts <= 1:
        return 0
    c = decide(kind, sids[p], params[p], hands[p], hand_n[p], opts, n_opts, view, rules, rng)
    if c < 0 or c >= n_opts:
        raise ValueError("a gin strategy returned an option index out of range")
    return c

@njit(cache=True, inline="always")
def set_view(view, p, dealer, hand_no, st, pile, masks, took, discs, passed, my_turns, scores, rules):
    o = 1 - p
    view[V_SEAT] = p
    view[V_DEALER] = dealer
    view[V_HAND] = hand_no
    view[V_TURN] = st[S_TURN]
    view[V_MY_TURNS] = my_turns[p]
    view[V_STOCK] = st[S_STOCK]
    view[V_TOP] = pile[st[S_PILE_N] - 1] if st[S_PILE_N] > 0 else -1
    view[V_LIMIT] = rules[R_KNOCK]
    view[V_MY_SCORE] = scores[p]
    view[V_OPP_SCORE] = scores[o]
    view[V_TARGET] = rules[R_TARGET]
    view[V_MASK] = masks[p]
    view[V_OPP_TOOK] = took[o]
    view[V_OPP_DISCARDS] = discs[o]
    view[V_PILE] = st[S_PILE_MASK]
    view[V_OPP_PASSED] = passed[o]
    view[V_TAKEN] = -1
    view[V_TAKE_MUST_KNOCK] = 0
    view[V_FIRST] = 0

@njit(cache=True, inline="always")
def take_top(p, st, pile, hands, hand_n, masks, took):
    st[S_PILE_N] -= 1
    card = pile[st[S_PILE_N]]
    st[S_PILE_MASK] &= ~(np.int64(1) << card)
    add_card(hands, hand_n, masks, p, card)
    took[p] |= np.int64(1) << card
    return card

@njit(cache=True)
def discard_phase(p, taken, must_knock, allow_re, first, dealer, hand_no, st, pile, hands, hand_n, masks,
                  took, discs, passed, my_turns, scores, rules, sids, params, rng, view, opts, scratch, log,
                  n_log):
    """G-TURN-1/2, G-KNOCK-1: discard one card (not the one just taken from the pile unless
    ``allow_re``), then knock or not. With ``must_knock`` only knocking discards are offered
    and the knock is made. Returns (knocked, n_log)."""
    limit = rules[R_KNOCK]
    mask = masks[p]
    if scratch[SCRATCH_MASK] != mask:
        removal_deadwoods(mask, scratch)
        scratch[SCRATCH_MASK] = mask
    n_opts = 0
    best = 1 << 30
    for i in range(hand_n[p]):
        c = hands[p, i]
        if c == taken and not allow_re:
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
    set_view(view, p, dealer, hand_no, st, pile, masks, took, discs, passed, my_turns, scores, rules)
    view[V_DW] = best
    view[V_TAKEN] = taken
    view[V_FIRST] = first
    a = ask(K_DISCARD, p, sids, params, hands, hand_n, opts, n_opts, view, rules, rng)
    card = opts[a, 0]
    dw = opts[a, 1]
    remove_card(hands, hand_n, masks, p, card)
    pile[st[S_PILE_N]] = card
    st[S_PILE_N] += 1
    st[S_PILE_MASK] |= np.int64(1) << card
    discs[p] |= np.int64(1) << card
    n_log = _log(log, n_log, EV_DISCARD, hand_no, p, card, a, dw)
    knock = 0
    if dw <= limit:
        if must_knock:
            knock = 1
        else:
            set_view(view, p, dealer, hand_no, st, pile, masks, took, discs, passed, my_turns, scores, rules)
            view[V_DW] = dw
            view[V_FIRST] = first
            opts[0, 0] = 0
            opts[0, 1] = dw
            opts[0, 2] = 0
            opts[0, 3] = 0
            opts[1, 0] = 1
            opts[1, 1] = dw
            opts[1, 2] = 0
            opts[1, 3] = 0
            knock = ask(K_KNOCK, p, sids, params, hands, hand_n, opts, 2, view, rules, rng)
        n_log = _log(log, n_log, EV_KNOCK, hand_no, p, knock, dw, 0)
    my_turns[p] += 1
    st[S_TURN] += 1
    return knock == 1, n_log

@njit(cache=True)
def play_hand(hand_no, dealer, scores, rules, sids, params, rng, deck, hands, hand_n, masks, pile, took,
              discs, passed, my_turns, st, view, opts, ends, idx, hres, scratch, log, n_log):
    """One hand from the shuffle to its result in ``hres``. Returns n_log."""
    limit = rules[R_KNOCK]
    gra = rules[R_GRA] != 0
    for i in range(52):
        deck[i] = i
    shuffle(rng, deck, 52)
    nd = 1 - dealer
    for p in range(2):
        hand_n[p] = 0
        masks[p] = 0
        took[p] = 0
        discs[p] = 0
        passed[p] = 0
        my_turns[p] = 0
    # G-DEAL-2: ten cards each, one at a time, the non-dealer first; the 21st is the upcard.
    stock_n = 52
    for _ in range(10):
        for k in range(2):
            q = nd if k == 0 else dealer
            stock_n -= 1
            add_card(hands, hand_n, masks, q, deck[stock_n])
    for p in range(2):
        n_log = _log(log, n_log, EV_DEAL, hand_no, p, hand_n[p], 0, 0)
        n_log = _log_cards(log, n_log, hands[p], hand_n[p])
    stock_n -= 1
    pile[0] = deck[stock_n]
    st[S_STOCK] = stock_n
    st[S_PILE_N] = 1
    st[S_PILE_MASK] = np.int64(1) << pile[0]
    st[S_TURN] = 0
    n_log = _log(log, n_log, EV_UPCARD, hand_no, -1, pile[0], 0, 0)
    for j in range(HR_SIZE):
        hres[j] = 0
    hres[HR_KNOCKER] = -1
    hres[HR_WINNER] = -1
    # G-FIRST-1: the non-dealer, then the dealer, may take the upcard.
    taker = -1
    for k in range(2):
        q = nd if k == 0 else dealer
        top = pile[st[S_PILE_N] - 1]
        set_view(view, q, dealer, hand_no, st, pile, masks, took, discs, passed, my_turns, scores, rules)
        view[V_DW] = deadwood(masks[q])
        view[V_FIRST] = 1
        dw11, after = take_info(masks[q], top, gra, scratch)
        offer_top(opts, top, dw11, after)
        c = ask(K_UPCARD, q, sids, params, hands, hand_n, opts, 2, view, rules, rng)
        n_log = _log(log, n_log, EV_UPCARD_CHOICE, hand_no, q, c, top, 0)
        if c == 1:
            taker = q
            break
        passed[q] |= np.int64(1) << top
    hres[HR_UPCARD] = taker
    if taker >= 0:
        p = taker
        taken = take_top(p, st, pile, hands, hand_n, masks, took)
        n_log = _log(log, n_log, EV_DRAW, hand_no, p, 1, taken, 0)
    else:
        p = nd  # both declined: the non-dealer draws from the stock
        st[S_STOCK] -= 1
        card = deck[st[S_STOCK]]
        add_card(hands, hand_n, masks, p, card)
        taken = -1
        n_log = _log(log, n_log, EV_DRAW, hand_no, p, 0, card, 0)
    knocked, n_log = discard_phase(p, taken, False, gra, 1, dealer, hand_no, st, pile, hands, hand_n, masks,
                                   took, discs, passed, my_turns, scores, rules, sids, params, rng, view,
                                   opts, scratch, log, n_log)
    capped = False
    while not knocked:
        if st[S_STOCK] <= 2:  # G-WALL-1: the third-last card was drawn and no knock came
            n_log = _log(log, n_log, EV_WALL, hand_no, p, st[S_STOCK], 0, 0)
            if rules[R_LAST_CHANCE] != 0:  # G-WALL-2 / G-WALL-3
                o = 1 - p
                top = pile[st[S_PILE_N] - 1]
                allow_re = rules[R_FIFTIETH] != 0
                dw11, after = take_info(masks[o], top, allow_re, scratch)
                if after <= limit:
                    set_view(view, o, dealer, hand_no, st, pile, masks, took, discs, passed, my_turns, scores,
                             rules)
                    view[V_DW] = deadwood(masks[o])
                    view[V_TAKE_MUST_KNOCK] = 1
                    offer_top(opts, top, dw11, after)
                    c = ask(K_LAST, o, sids, params, hands, hand_n, opts, 2, view, rules, rng)
                    n_log = _log(log, n_log, EV_LAST, hand_no, o, c, top, 0)
                    if c == 1:
                        p = o
                        taken = take_top(p, st, pile, hands, hand_n, masks, took)
                        n_log = _log(log, n_log, EV_DRAW, hand_no, p, 1, taken, 0)
                        knocked, n_log = discard_phase(p, taken, True, allow_re, 0, dealer, hand_no, st, pile,
                                                       hands, hand_n, masks, took, discs, passed, my_turns,
                                                       scores, rules, sids, params, rng, view, opts, scratch,
                                                       log, n_log)
            break
        if st[S_TURN] >= TURN_CAP:
            capped = True
            break
        p = 1 - p
        top = pile[st[S_PILE_N] - 1]
        top_bit = np.int64(1) << top
        # G-TURN-3: under gra_rediscard a player takes back their own discard only to knock.
        must = gra and (discs[p] & top_bit) != 0
        dw11, after = take_info(masks[p], top, gra, scratch)
        n_opts = 2
        if must and after > limit:
            n_opts = 1
        set_view(view, p, dealer, hand_no, st, pile, masks, took, discs, passed, my_turns, scores, rules)
        view[V_DW] = deadwood(masks[p])
        view[V_TAKE_MUST_KNOCK] = 1 if must else 0
        offer_top(opts, top, dw11, after)
        d = ask(K_DRAW, p, sids, params, hands, hand_n, opts, n_opts, view, rules, rng)
        if d == 1:
            taken = take_top(p, st, pile, hands, hand_n, masks, took)
            n_log = _log(log, n_log, EV_DRAW, hand_no, p, 1, taken, 0)
        else:
            passed[p] |= top_bit
            st[S_STOCK] -= 1
            card = deck[st[S_STOCK]]
            add_card(hands, hand_n, masks, p, card)
            taken = -1
            n_log = _log(log, n_log, EV_DRAW, hand_no, p, 0, card, 0)
        knocked, n_log = discard_phase(p, taken, must and d == 1, gra, 0, dealer, hand_no, st, pile, hands,
                                       hand_n, masks, took, discs, passed, my_turns, scores, rules, sids,
                                       params, rng, view, opts, scratch, log, n_log)
    hres[HR_TURNS] = st[S_TURN]
    hres[HR_STOCK] = st[S_STOCK]
    if knocked:
        k = p
        d = 1 - p
        k_dw, k_sets = best_arrangement(masks[k])
        if k_dw == 0:
            d_dw = deadwood(masks[d])  # G-LAY-1: no lay-offs on gin
            laid = np.int64(0)
        else:
            d_dw, laid = best_layoff(masks[d], masks[k], k_sets, ends, idx)
        n_log = _log(log, n_log, EV_LAYOFF, hand_no, d, d_dw, laid, k_sets)
        hres[HR_KNOCKER] = k
        hres[HR_DW0 + k] = k_dw
        hres[HR_DW0 + d] = d_dw
        hres[HR_LAID] = laid
        hand_score(k, k_dw, d_dw, rules, hres)
    else:
        hres[HR_OUTCOME] = O_CAPPED if capped else O_WALL
        hres[HR_DW0] = deadwood(masks[0])
        hres[HR_DW1] = deadwood(masks[1])
    n_log = _log(log, n_log, EV_HAND_END, hand_no, hres[HR_WINNER], hres[HR_OUTCOME], hres[HR_POINTS],
                 hres[HR_KNOCKER])
    return n_log

@njit(cache=True)
def play_game(game, seed, rules, sids, params, out_game, hands_out, hand_cap, log):
    """A whole game to the target (G-GAME-1..3). ``hands_out[:hand_cap]`` receives one row a
    hand; hands past the cap are played but not written. Returns the log length."""
    # Working memory in one array, used through borrowed views (simcards.nbutil.borrow): no
    # reference counting in the turn loop. The owners are kept alive to the end (keep_alive).
    work = np.zeros(_WORK_SIZE, dtype=np.int64)
    w = borrow(work)
    rng_owner = np.zeros(1, dtype=np.uint64)
    rng = borrow(rng_owner)
    seed_state(rng, seed, game)
    deck = w[_W_DECK:_W_DECK + 52]
    hands = w[_W_HANDS:_W_HANDS + 2 * MAX_HAND].reshape((2, MAX_HAND))
    hand_n = w[_W_HAND_N:_W_HAND_N + 2]
    masks = w[_W_MASKS:_W_MASKS + 2]
    pile = w[_W_PILE:_W_PILE + 52]
    took = w[_W_TOOK:_W_TOOK + 2]
    discs = w[_W_DISCS:_W_DISCS + 2]
    passed = w[_W_PASSED:_W_PASSED + 2]
    my_turns = w[_W_MY_TURNS:_W_MY_TURNS + 2]
    st = w[_W_ST:_W_ST + S_SIZE]
    view = w[_W_VIEW:_W_VIEW + VIEW_SIZE]
    opts = w[_W_OPTS:_W_OPTS + MAX_OPTIONS * OPT_W].reshape((MAX_OPTIONS, OPT_W))
    ends = w[_W_ENDS:_W_ENDS + SCRATCH_ENDS * 14].reshape((SCRATCH_ENDS, 14))
    idx = w[_W_IDX:_W_IDX + SCRATCH_ENDS]
    hres = w[_W_HRES:_W_HRES + HR_SIZE]
    scores = w[_W_SCORES:_W_SCORES + 2]
    won = w[_W_WON:_W_WON + 2]
    counts = w[_W_COUNTS:_W_COUNTS + 6]
    scratch = w[_W_SCRATCH:_W_SCRATCH + SCRATCH_SIZE]
    rules = borrow(rules)
    sids = borrow(sids)
    params = borrow(params)
    hands_out = borrow(hands_out)
    log_owner = log
    log = borrow(log_owner)
    n_log = 0
    dealer = rand_below(rng, 2)  # G-DEAL-1 Decision: the first dealer is a uniform draw
    out_game[G_FIRST_DEALER] = dealer
    target = rules[R_TARGET]
    hand_no = 0
    turns = 0
    winner = -1
    game_capped = False
    dealer_won = 0
    while True:
        hand_no += 1
        n_log = play_hand(hand_no, dealer, scores, rules, sids, params, rng, deck, hands, hand_n, masks, pile,
                          took, discs, passed, my_turns, st, view, opts, ends, idx, hres, scratch, log, n_log)
        outcome = hres[HR_OUTCOME]
        counts[outcome] += 1
        turns += hres[HR_TURNS]
        w = hres[HR_WINNER]
        if w >= 0:
            scores[w] += hres[HR_POINTS]
            won[w] += 1
            if w == dealer:
                dealer_won += 1
        for p in range(2):
            n_log = _log(log, n_log, EV_SCORE, hand_no, p, scores[p], won[p], 0)
        if hand_no <= hand_cap:
            row = hands_out[hand_no - 1]
            row[H_HAND] = hand_no
            row[H_DEALER] = dealer
            row[H_KNOCKER] = hres[HR_KNOCKER]
            row[H_OUTCOME] = outcome
            row[H_WINNER] = w
            row[H_POINTS] = hres[HR_POINTS]
            row[H_TURNS] = hres[HR_TURNS]
            row[H_UPCARD_TAKER] = hres[HR_UPCARD]
            row[H_LAID_N] = popcount(hres[HR_LAID])
            row[H_LAID_PTS] = value_of_mask(hres[HR_LAID])
            row[H_STOCK] = hres[HR_STOCK]
            for p in range(2):
                row[H_DW + p] = hres[HR_DW0 + p]
                row[H_SCORES + p] = scores[p]
        if scores[0] >= target or scores[1] >= target:
            winner = 0 if scores[0] >= target else 1
            break
        if hand_no >= HAND_CAP:
            game_capped = True
            break
        # G-DEAL-1: who deals next; a void (wall, cap) or a 0-0 tie: the same dealer again
        if w >= 0:
            nd_rule = rules[R_NEXT_DEALER]
            if nd_rule == DEALER_LOSER:
                dealer = 1 - w
            elif nd_rule == DEALER_ALTERNATE:
                dealer = 1 - dealer
            else:
                dealer = w
    # G-GAME-1..3: bonuses and the margin
    final0 = scores[0] + rules[R_BOX] * won[0]
    final1 = scores[1] + rules[R_BOX] * won[1]
    shutout = False
    if winner >= 0:
        loser = 1 - winner
        shutout = scores[loser] == 0
        fw = scores[winner] + rules[R_BOX] * won[winner]
        if shutout and rules[R_SHUTOUT_DOUBLE] != 0:
            fw = 2 * (fw + rules[R_GAME_BONUS])
        elif shutout:
            fw += rules[R_SHUTOUT_BONUS]
        else:
            fw += rules[R_GAME_BONUS]
        if winner == 0:
            final0 = fw
        else:
            final1 = fw
    out_game[G_WINNER] = winner + keep_alive(work) + keep_alive(rng_owner) + keep_alive(log_owner)
    out_game[G_HANDS] = hand_no
    out_game[G_SCORED] = won[0] + won[1]
    out_game[G_KNOCKS] = counts[O_KNOCK]
    out_game[G_GINS] = counts[O_GIN]
    out_game[G_UNDERCUTS] = counts[O_UNDERCUT]
    out_game[G_WALLS] = counts[O_WALL]
    out_game[G_TIES] = counts[O_TIE]
    out_game[G_CAPPED_HANDS] = counts[O_CAPPED]
    out_game[G_CAPPED] = 1 if game_capped else 0
    out_game[G_TURNS] = turns
    out_game[G_DEALER_WON] = dealer_won
    out_game[G_SHUTOUT] = 1 if shutout else 0
    out_game[G_SCORES] = scores[0]
    out_game[G_SCORES + 1] = scores[1]
    out_game[G_WON] = won[0]
    out_game[G_WON + 1] = won[1]
    out_game[G_FINAL] = final0
    out_game[G_FINAL + 1] = final1
    if winner >= 0:
        out_game[G_MARGIN] = (final0 - final1) if winner == 0 else (final1 - final0)
    else:
        out_game[G_MARGIN] = abs(final0 - final1)
    return n_log

@njit(cache=True, parallel=True)
def play_batch(seed, first_game, count, rules, sids, params, out_games, out_hands, hand_cap):
    """Games ``first_game .. first_game + count - 1``; row ``i`` of the outputs is game
    ``first_game + i``. ``out_hands`` has ``hand_cap`` rows per game (may be 0)."""
    n_chunks = min(count, 64)
    empty_log = np.zeros((0, LOG_WIDTH), dtype=np.int64)
    for c in prange(n_chunks):
        lo = c * count // n_chunks
        hi = (c + 1) * count // n_chunks
        for i in range(lo, hi):
            if hand_cap > 0:
                rows = out_hands[i * hand_cap:(i + 1) * hand_cap]
            else:
                rows = out_hands[0:0]
            play_game(first_game + i, seed, rules, sids, params, out_games[i], rows, hand_cap, empty_log)


_ENGINE_FUNCTIONS = ("ask", "discard_phase", "play_hand", "play_game", "play_batch")


def make_engine(custom_decide):
    """``(play_game, play_batch)`` calling ``custom_decide`` instead of the built-in strategies.

    The kernel is written once, at module level, around the global name ``decide`` (so the
    built-in engine is cached on disk). For user policies the functions that reach ``decide`` are
    rebuilt over a copy of this module's globals in which ``decide`` is the user's dispatcher;
    these copies are compiled once per process (numba cannot cache functions that close over
    other dispatchers)."""
    scope = rebind(globals(), _ENGINE_FUNCTIONS, decide=custom_decide)
    return scope["play_game"], scope["play_batch"]
