"""The Two Hundred numba kernel: deal, auction, trump, nine tricks, scoring, a whole game, a batch.

The engine is written once, as plain functions that call the globals ``decide``, ``play_deal``
and ``play_game``. The built-in engine binds them to ``policies.builtin_decide`` at module level,
so numba's on-disk cache works across processes (closures over a dispatcher never hit the cache).
``make_engine(decide)`` binds the same code to a decision function that also knows user policies
(compiled once per process). A batch runs in parallel over chunks of games; game
``g`` draws only from its own stream ``(seed, g)`` and writes only its own rows, so results do
not depend on threads or batch size. Hands are lane masks (``layout``); nothing is allocated
inside the deal loop.
"""

from __future__ import annotations

from types import FunctionType

import numpy as np
from numba import njit, prange

from simcards.games.two_hundred.layout import (
    BIT_OF_FACE,
    D_BID,
    D_BIDDER,
    D_DEAL,
    D_DEALER,
    D_DSCORE0,
    D_DSCORE1,
    D_MADE,
    D_SCORE0,
    D_SCORE1,
    D_TAKEN0,
    D_TAKEN1,
    D_TRUMP,
    DEAL_CAP,
    DECK_FACES,
    DECK_SIZE,
    FACE_OF_BIT,
    G_CAPPED,
    G_DEALS,
    G_FAILED,
    G_FIRST_DEALER,
    G_HOLE,
    G_INVALID,
    G_MADE,
    G_SCORES,
    G_THROWINS,
    G_WINNER,
    K_BID,
    K_PLAY,
    K_TRUMP,
    LANE,
    LANE_FULL,
    LANE_LOW,
    MAX_OPTIONS,
    N_PLAYERS,
    ORDER_POINTS,
    TRICKS,
    V_BID,
    V_BIDDER,
    V_BIDS,
    V_DEAL,
    V_DEALER,
    V_LEAD_SUIT,
    V_LEADER,
    V_N_IN,
    V_PASSED,
    V_PLAYED,
    V_SCORES,
    V_SEAT,
    V_TAKEN,
    V_TRICK,
    V_TRICK_FACES,
    V_TRICK_POINTS,
    V_TRUMP,
    V_VOIDS,
    V_WIN_FACE,
    V_WIN_SEAT,
    VIEW_SIZE,
)
from simcards.games.two_hundred.rules import (
    FAIL_POINTS_MINUS_BID,
    R_DEALER_BIDS,
    R_FAIL,
    R_HOLE,
    R_MAX_BID,
    R_MIN_BID,
    R_STEP,
    R_TARGET,
)
from simcards.games.two_hundred.policies import builtin_decide
from simcards.nbutil import borrow
from simcards.rng import rand_below, seed_state, shuffle


def _drop_stale_cache() -> None:
    """numba invalidates a cached function only when its own file changes, not when a function it
    calls (in policies.py, layout.py, rules.py, rng.py) does. Keep a fingerprint of those files
    next to the cache and drop this module's cached engine when it no longer matches."""
    import hashlib
    from pathlib import Path

    here = Path(__file__).resolve().parent
    deps = [here / "policies.py", here / "layout.py", here / "rules.py", here.parent.parent / "rng.py"]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in deps if p.exists())).hexdigest()
    try:  # where numba keeps this file's cache (NUMBA_CACHE_DIR, __pycache__ or a user cache)
        from numba.core.caching import FunctionCache

        cache = Path(FunctionCache(_drop_stale_cache)._cache_path)
    except Exception:  # an internal API: fall back to numba's default place
        cache = here / "__pycache__"
    stamp = cache / "kernel.deps.stamp"
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return
        cache.mkdir(parents=True, exist_ok=True)
        for f in cache.glob("kernel.*.nb[ci]"):
            f.unlink(missing_ok=True)
        stamp.write_text(digest)
    except OSError:  # a read-only cache: numba then compiles in memory
        pass


_drop_stale_cache()

# Transcript events (differential tests compare these arrays move for move).
EV_HAND, EV_BID, EV_TRUMP, EV_PLAY, EV_TRICK, EV_DEAL, EV_GAME = range(7)
LOG_WIDTH = 5  # [event, deal, seat, a, b]
# EV_HAND  seat, a = hand mask
# EV_BID   seat, a = bid (0 = pass)
# EV_TRUMP seat = bidder, a = trump suit, b = bid
# EV_PLAY  seat, a = face, b = trick number
# EV_TRICK seat = winner, a = points in the trick, b = trick number
# EV_DEAL  seat = contract team (-1 thrown in), a = deal score team 0, b = deal score team 1
# EV_GAME  seat = winning team (-1 not over), a = score team 0, b = score team 1


@njit(cache=True, inline="always")
def beats(new, cur, trump):
    """T-PLAY-2: does card bit ``new`` beat the card bit ``cur`` currently winning the trick?
    A trump beats any non-trump; otherwise only a higher card of the same suit wins."""
    sn = new // LANE
    sc = cur // LANE
    if sn == sc:
        return new > cur
    return sn == trump


@njit(cache=True)
def deal_scores(taken0, taken1, bidder, bid, fail_mode):
    """T-SC-1/2: (score team 0, score team 1, made) of a played deal."""
    ct = bidder % 2
    mine = taken0 if ct == 0 else taken1
    theirs = taken1 if ct == 0 else taken0
    made = mine >= bid
    if made:
        c = mine
    elif fail_mode == FAIL_POINTS_MINUS_BID:
        c = mine - bid
    else:
        c = -bid
    if ct == 0:
        return c, theirs, made
    return theirs, c, made


@njit(cache=True)
def game_winner(s0, s1, contract_team, target, hole):
    """T-END-1/2 after a deal: the winning team, or -1 if the game goes on. Both at the target:
    the contractor team; a team at the target beats the other's fall into the hole."""
    up0 = s0 >= target
    up1 = s1 >= target
    if up0 and up1:
        return contract_team
    if up0:
        return 0
    if up1:
        return 1
    if s0 <= hole:
        return 1
    if s1 <= hole:
        return 0
    return -1


@njit(cache=True, inline="always")
def _log(log, n_log, event, deal, seat, a, b):
    if n_log < log.shape[0]:
        log[n_log, 0] = event
        log[n_log, 1] = deal
        log[n_log, 2] = seat
        log[n_log, 3] = a
        log[n_log, 4] = b
    return n_log + 1


@njit(cache=True, inline="always")
def _checked(choice, n_opts, bad):
    """A decision index a (user) policy returned, made safe: out of range → option 0, counted."""
    if choice < 0 or choice >= n_opts:
        return 0, bad + 1
    return choice, bad


@njit(cache=True, inline="always")
def legal_options(hand, lead, opts):
    """T-PLAY-1: the faces of the legal cards (suit led if held, else any card), by suit then
    rank low to high; returns their count."""
    legal = hand
    if lead >= 0:
        ll = (hand >> (LANE * lead)) & LANE_FULL
        if ll:
            legal = ll << (LANE * lead)
    n = 0
    for s in range(4):
        lane = (legal >> (LANE * s)) & LANE_FULL
        while lane:
            opts[n] = FACE_OF_BIT[LANE * s + LANE_LOW[lane]]
            lane &= lane - 1
            n += 1
    return n


_W_DECK = 0
_W_HANDS = _W_DECK + DECK_SIZE
_W_OPTS = _W_HANDS + N_PLAYERS
_W_VIEW = _W_OPTS + MAX_OPTIONS
_W_SCORES = _W_VIEW + VIEW_SIZE
_W_RES = _W_SCORES + 2
_WORK_SIZE = _W_RES + 6


# ----- the engine, written once ---------------------------------------------------------------
def _play_deal(deal, dealer, rules, sids, params, rng, deck, hands, opts, view, scores, res, log, n_log):
    """One deal from the shuffle to the deal score. ``res`` receives (bidder, bid, trump,
    taken 0, taken 1); bidder is -1 when all passed. Returns the log length."""
    # T-DEAL-1: shuffle, one card at a time starting left of the dealer.
    for i in range(DECK_SIZE):
        deck[i] = DECK_FACES[i]
    shuffle(rng, deck, DECK_SIZE)
    for p in range(N_PLAYERS):
        hands[p] = 0
    for k in range(DECK_SIZE):
        p = (dealer + 1 + k) % N_PLAYERS
        hands[p] |= np.int64(1) << BIT_OF_FACE[deck[k]]
    for p in range(N_PLAYERS):
        n_log = _log(log, n_log, EV_HAND, deal, p, hands[p], 0)
    view[V_DEALER] = dealer
    view[V_DEAL] = deal
    view[V_BID] = 0
    view[V_BIDDER] = -1
    view[V_PASSED] = 0
    view[V_TRUMP] = -1
    view[V_TRICK] = 0
    view[V_LEADER] = -1
    view[V_N_IN] = 0
    view[V_LEAD_SUIT] = -1
    view[V_WIN_SEAT] = -1
    view[V_WIN_FACE] = -1
    view[V_TRICK_POINTS] = 0
    view[V_PLAYED] = 0
    for p in range(N_PLAYERS):
        view[V_TRICK_FACES + p] = -1
        view[V_BIDS + p] = 0
        view[V_VOIDS + p] = 0
    view[V_TAKEN] = 0
    view[V_TAKEN + 1] = 0
    view[V_SCORES] = scores[0]
    view[V_SCORES + 1] = scores[1]
    # T-BID-1..5: clockwise from the dealer's left; passing is final.
    min_bid = rules[R_MIN_BID]
    step = rules[R_STEP]
    max_bid = rules[R_MAX_BID]
    high = 0
    bidder = -1
    passed = 0
    n_passed = 0
    seat = (dealer + 1) % N_PLAYERS
    while True:
        if not (passed >> seat) & 1:
            opts[0] = 0
            n_opts = 1
            if not (rules[R_DEALER_BIDS] == 0 and seat == dealer and n_passed == 3):
                b = min_bid if high == 0 else high + step
                while b <= max_bid:
                    opts[n_opts] = b
                    n_opts += 1
                    b += step
            view[V_SEAT] = seat
            c = decide(K_BID, sids[seat], params, hands[seat], opts, n_opts, view, rules, rng)
            c, res[5] = _checked(c, n_opts, res[5])
            v = opts[c]
            n_log = _log(log, n_log, EV_BID, deal, seat, v, 0)
            if v == 0:
                passed |= 1 << seat
                n_passed += 1
                view[V_PASSED] = passed
            else:
                high = v
                bidder = seat
                view[V_BID] = v
                view[V_BIDDER] = seat
                view[V_BIDS + seat] = v
            if n_passed == N_PLAYERS or (n_passed == N_PLAYERS - 1 and bidder >= 0):
                break
        seat = (seat + 1) % N_PLAYERS
    res[0] = bidder
    res[1] = high
    res[2] = -1
    res[3] = 0
    res[4] = 0
    if bidder < 0:  # T-BID-5: thrown in
        return n_log
    # T-TRUMP-1: the highest bidder names trump.
    for s in range(4):
        opts[s] = s
    view[V_SEAT] = bidder
    c = decide(K_TRUMP, sids[bidder], params, hands[bidder], opts, 4, view, rules, rng)
    c, res[5] = _checked(c, 4, res[5])
    trump = opts[c]
    view[V_TRUMP] = trump
    res[2] = trump
    n_log = _log(log, n_log, EV_TRUMP, deal, bidder, trump, high)
    # T-LEAD-1, T-PLAY-1..3: the bidder leads; nine tricks.
    leader = bidder
    taken0 = 0
    taken1 = 0
    played = np.int64(0)
    for trick in range(TRICKS):
        view[V_TRICK] = trick
        view[V_LEADER] = leader
        view[V_N_IN] = 0
        view[V_LEAD_SUIT] = -1
        view[V_WIN_SEAT] = -1
        view[V_WIN_FACE] = -1
        view[V_TRICK_POINTS] = 0
        for k in range(N_PLAYERS):
            view[V_TRICK_FACES + k] = -1
        seat = leader
        lead = -1
        win = -1
        win_seat = -1
        points = 0
        for k in range(N_PLAYERS):
            n_opts = legal_options(hands[seat], lead, opts)
            view[V_SEAT] = seat
            c = decide(K_PLAY, sids[seat], params, hands[seat], opts, n_opts, view, rules, rng)
            c, res[5] = _checked(c, n_opts, res[5])
            face = opts[c]
            b = BIT_OF_FACE[face]
            hands[seat] &= ~(np.int64(1) << b)
            played |= np.int64(1) << b
            if k == 0:
                lead = b // LANE
                win = b
                win_seat = seat
                view[V_LEAD_SUIT] = lead
            else:
                if b // LANE != lead:
                    view[V_VOIDS + seat] |= 1 << lead
                if beats(b, win, trump):
                    win = b
                    win_seat = seat
            points += ORDER_POINTS[b % LANE]
            n_log = _log(log, n_log, EV_PLAY, deal, seat, face, trick)
            view[V_TRICK_FACES + k] = face
            view[V_N_IN] = k + 1
            view[V_WIN_SEAT] = win_seat
            view[V_WIN_FACE] = FACE_OF_BIT[win]
            view[V_TRICK_POINTS] = points
            view[V_PLAYED] = played
            seat = (seat + 1) % N_PLAYERS
        # T-SC-1: the trick's points go to the winner's team; T-PLAY-3: the winner leads.
        if win_seat % 2 == 0:
            taken0 += points
        else:
            taken1 += points
        view[V_TAKEN] = taken0
        view[V_TAKEN + 1] = taken1
        n_log = _log(log, n_log, EV_TRICK, deal, win_seat, points, trick)
        leader = win_seat
    res[3] = taken0
    res[4] = taken1
    return n_log

def _play_game(game, seed, rules, sids, params, out_game, deals_out, row_cap, log):
    """A whole game to one winning team (T-END-1/2). ``deals_out[:row_cap]`` receives one row a
    deal; deals past ``row_cap`` are played but not written. Returns the log length."""
    # Working memory for the game, used through borrowed views (see ``borrow``): no reference
    # counting in the hot loop. The owners stay alive to the end (``keep`` below).
    work = np.zeros(_WORK_SIZE, dtype=np.int64)
    rng_owner = np.zeros(1, dtype=np.uint64)
    rng = borrow(rng_owner)
    seed_state(rng, seed, game)
    w = borrow(work)
    deck = w[_W_DECK:_W_DECK + DECK_SIZE]
    hands = w[_W_HANDS:_W_HANDS + N_PLAYERS]
    opts = w[_W_OPTS:_W_OPTS + MAX_OPTIONS]
    view = w[_W_VIEW:_W_VIEW + VIEW_SIZE]
    scores = w[_W_SCORES:_W_SCORES + 2]
    res = w[_W_RES:_W_RES + 6]
    rules = borrow(rules)
    sids = borrow(sids)
    params = borrow(params)
    out_game = borrow(out_game)
    deals_out = borrow(deals_out)
    log = borrow(log)
    dealer = rand_below(rng, N_PLAYERS)  # T-TEAM-2 Decision: a uniformly random first dealer
    first_dealer = dealer
    target = rules[R_TARGET]
    hole = rules[R_HOLE]
    n_log = 0
    deal = 0
    winner = -1
    throwins = 0
    made_n = 0
    failed_n = 0
    hole_win = 0
    capped = 0
    while True:
        deal += 1
        n_log = play_deal(deal, dealer, rules, sids, params, rng, deck, hands, opts, view, scores, res,
                          log, n_log)
        bidder = res[0]
        bid = res[1]
        d0 = 0
        d1 = 0
        made = -1
        ct = -1
        if bidder < 0:
            throwins += 1  # T-BID-5: nobody scores
        else:
            ct = bidder % 2
            d0, d1, ok = deal_scores(res[3], res[4], bidder, bid, rules[R_FAIL])
            made = 1 if ok else 0
            if ok:
                made_n += 1
            else:
                failed_n += 1
            scores[0] += d0
            scores[1] += d1
            winner = game_winner(scores[0], scores[1], ct, target, hole)
            if winner >= 0 and scores[0] < target and scores[1] < target:
                hole_win = 1
        n_log = _log(log, n_log, EV_DEAL, deal, ct, d0, d1)
        if deal <= row_cap:
            row = deals_out[deal - 1]
            row[D_DEAL] = deal
            row[D_DEALER] = dealer
            row[D_BIDDER] = bidder
            row[D_BID] = bid if bidder >= 0 else -1
            row[D_TRUMP] = res[2]
            row[D_TAKEN0] = res[3]
            row[D_TAKEN1] = res[4]
            row[D_MADE] = made
            row[D_DSCORE0] = d0
            row[D_DSCORE1] = d1
            row[D_SCORE0] = scores[0]
            row[D_SCORE1] = scores[1]
        if winner < 0 and deal >= DEAL_CAP:
            capped = 1
            winner = 0 if scores[0] >= scores[1] else 1
        n_log = _log(log, n_log, EV_GAME, deal, winner, scores[0], scores[1])
        if winner >= 0:
            break
        dealer = (dealer + 1) % N_PLAYERS  # T-DEAL-1: the deal passes clockwise
    out_game[G_WINNER] = winner
    out_game[G_DEALS] = deal
    out_game[G_THROWINS] = throwins
    out_game[G_FIRST_DEALER] = first_dealer
    out_game[G_MADE] = made_n
    out_game[G_FAILED] = failed_n
    out_game[G_CAPPED] = capped
    out_game[G_HOLE] = hole_win
    out_game[G_SCORES] = scores[0]
    out_game[G_SCORES + 1] = scores[1]
    out_game[G_INVALID] = res[5]
    keep = work[0] + np.int64(rng_owner[0] & np.uint64(1))  # the owners live until here
    return n_log + 0 * keep

def _play_batch(seed, first_game, count, rules, sids, params, out_games, out_deals, row_cap):
    """Games ``first_game .. first_game + count - 1``; row ``i`` of ``out_games`` is game
    ``first_game + i``; ``out_deals`` has ``row_cap`` rows per game (may be 0)."""
    n_chunks = min(count, 64)
    empty_log = np.zeros((0, LOG_WIDTH), dtype=np.int64)
    for c in prange(n_chunks):
        lo = c * count // n_chunks
        hi = (c + 1) * count // n_chunks
        for i in range(lo, hi):
            if row_cap > 0:
                rows = out_deals[i * row_cap:(i + 1) * row_cap]
            else:
                rows = out_deals[0:0]
            play_game(first_game + i, seed, rules, sids, params, out_games[i], rows, row_cap, empty_log)


# ----- binding ---------------------------------------------------------------------------------
def _bind(decide_fn, cache: bool):
    """Compile the engine with ``decide`` bound to ``decide_fn`` (a fresh globals dict per binding)."""
    g = dict(_ENGINE_GLOBALS)
    g["decide"] = decide_fn
    deal = njit(cache=cache, inline="always")(FunctionType(_play_deal.__code__, g, "play_deal"))
    g["play_deal"] = deal
    game = njit(cache=cache)(FunctionType(_play_game.__code__, g, "play_game"))
    g["play_game"] = game
    batch = njit(cache=cache, parallel=True)(FunctionType(_play_batch.__code__, g, "play_batch"))
    return deal, game, batch


_ENGINE_GLOBALS = globals()
# The built-in engine: module-level globals, so the compiled code is cached on disk.
decide = builtin_decide
play_deal = njit(cache=True, inline="always")(_play_deal)
play_game = njit(cache=True)(_play_game)
play_batch = njit(cache=True, parallel=True)(_play_batch)


def make_engine(decide_fn):
    """``(play_deal, play_game, play_batch)`` around ``decide_fn(kind, sid, table, hand, opts,
    n_opts, view, rules, rng)``, where ``table`` is the (seats × 8) parameter table and the
    deciding seat is ``view[V_SEAT]``. The built-in decision function gets the cached engine."""
    if decide_fn is builtin_decide:
        return play_deal, play_game, play_batch
    return _bind(decide_fn, cache=False)
