"""High card in numba: the policies, one game, and a ``prange`` batch driver (rules: rules.py)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simcards.rng import rand_below, seed_streams, shuffle

# transcript rows (event, round, seat, a, b); the reference engine writes the same
EV_DEAL, EV_PLAY, EV_WIN = 1, 2, 3
LOG_WIDTH = 5
# per-game row: winner, rounds, first leader, capped, invalid decisions, round wins per seat
G_WINNER, G_ROUNDS, G_STARTER, G_CAPPED, G_INVALID, G_WINS, G_WIDTH = 0, 1, 2, 3, 4, 5, 9
# per-round row: round, leader, winner, the card each seat played
R_ROUND, R_LEADER, R_WINNER, R_CARDS, R_WIDTH = 0, 1, 2, 3, 7
# what a player sees: its seat, the round, the cards played so far (in order), everyone's round wins
V_SEAT, V_ROUND, V_PLAYERS, V_N_PLAYED, V_PLAYED, V_WINS, VIEW_SIZE = 0, 1, 2, 3, 4, 8, 12
ROUND_CAP = 200  # never reached: every round has a winner, so a game lasts at most 4 x 19 + 1 rounds
SID_RANDOM, SID_GREEDY = 0, 1


@njit(cache=True)
def power(card, aces_high):
    """H-PLAY-2 / H-RANK-1: rank (aces high or low), then suit."""
    rank = card % 13
    if aces_high:
        rank = (rank + 12) % 13
    return rank * 4 + card // 13


@njit(cache=True)
def decide(sid, params, opts, n_opts, view, rules, rng):
    """The index of the card to play among ``opts[:n_opts]`` (sorted by power)."""
    if sid == SID_RANDOM:
        return rand_below(rng, n_opts)
    if view[V_N_PLAYED] == 0:  # greedy leads its high card when lead_high, else its low card
        return n_opts - 1 if params[0] > 0.5 else 0
    best = -1
    for i in range(view[V_N_PLAYED]):
        best = max(best, power(view[V_PLAYED + i], rules[1] != 0))
    for i in range(n_opts):  # the lowest card that wins, else the lowest card
        if power(opts[i], rules[1] != 0) > best:
            return i
    return 0


@njit(cache=True)
def _log(log, n, event, rnd, seat, a, b):
    if n < len(log):
        log[n, 0], log[n, 1], log[n, 2], log[n, 3], log[n, 4] = event, rnd, seat, a, b
    return n + 1


@njit(cache=True)
def play_game(game, seed, rules, players, sids, params, out, rounds_out, round_cap, log):
    """One game to ``rules[0]`` round wins; one row per round in ``rounds_out[:round_cap]``.
    Returns the transcript length (rows past ``len(log)`` are counted, not written)."""
    rng = np.zeros(1 + players, dtype=np.uint64)  # the deal's stream in rng[0], seat s's in rng[1 + s]
    seed_streams(rng, seed, game)
    deck = np.arange(52, dtype=np.int64)
    opts = np.zeros(2, dtype=np.int64)
    hands = np.zeros((players, 2), dtype=np.int64)
    view = np.zeros(VIEW_SIZE, dtype=np.int64)
    wins = np.zeros(players, dtype=np.int64)
    leader = rand_below(rng, players)  # H-PLAY-1
    out[G_STARTER] = leader
    n_log, rnd, winner = 0, 0, -1
    while winner < 0 and rnd < ROUND_CAP:
        rnd += 1
        shuffle(rng, deck, 52)  # H-DEAL-1
        for p in range(players):
            lo, hi = deck[2 * p], deck[2 * p + 1]
            if power(lo, rules[1] != 0) > power(hi, rules[1] != 0):
                lo, hi = hi, lo
            hands[p, 0], hands[p, 1] = lo, hi
            n_log = _log(log, n_log, EV_DEAL, rnd, p, lo, hi)
        view[V_ROUND], view[V_PLAYERS], view[V_N_PLAYED] = rnd, players, 0
        for p in range(players):
            view[V_WINS + p] = wins[p]
        top, top_seat = -1, -1
        keep = rnd <= round_cap  # a row for this round
        for i in range(players):  # H-PLAY-2
            seat = (leader + i) % players
            opts[0], opts[1] = hands[seat, 0], hands[seat, 1]
            view[V_SEAT] = seat
            c = decide(sids[seat], params[seat], opts, 2, view, rules, rng[1 + seat:2 + seat])
            if c < 0 or c >= 2:  # a decision out of range: counted, option 0 played
                out[G_INVALID] += 1
                c = 0
            card = opts[c]
            view[V_PLAYED + i] = card
            view[V_N_PLAYED] = i + 1
            n_log = _log(log, n_log, EV_PLAY, rnd, seat, card, c)
            if power(card, rules[1] != 0) > top:
                top, top_seat = power(card, rules[1] != 0), seat
            if keep:
                rounds_out[rnd - 1, R_CARDS + seat] = card
        wins[top_seat] += 1
        n_log = _log(log, n_log, EV_WIN, rnd, top_seat, wins[top_seat], 0)
        if keep:
            rounds_out[rnd - 1, R_ROUND], rounds_out[rnd - 1, R_LEADER] = rnd, leader
            rounds_out[rnd - 1, R_WINNER] = top_seat
        leader = top_seat  # H-PLAY-3
        if wins[top_seat] >= rules[0]:  # H-END-1
            winner = top_seat
    out[G_CAPPED] = 1 if winner < 0 else 0
    out[G_WINNER], out[G_ROUNDS] = winner, rnd
    for p in range(players):
        out[G_WINS + p] = wins[p]
    return n_log


@njit(cache=True, parallel=True)
def play_batch(seed, first, count, rules, players, sids, params, out_games, out_rounds, round_cap):
    """Games ``first .. first + count - 1``; row i is game ``first + i`` whatever the threads."""
    empty = np.zeros((0, LOG_WIDTH), dtype=np.int64)
    for i in prange(count):
        play_game(first + i, seed, rules, players, sids, params, out_games[i],
                  out_rounds[i * round_cap:(i + 1) * round_cap], round_cap, empty)
