"""The search's fast paths agree with what they replace: ``simple_choice`` (the rollouts' and the
sampler's ``simple`` discard by lane keys) with ``melds.removal_deadwoods`` + ``simple_discard``,
and the sampler's deal that lays out the stock only when kept (``deal_hand`` + ``lay_stock``,
the stream skipped ahead) with a deal shuffled in full."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.games.gin import search as S
from simcards.games.gin.layout import N_MV
from simcards.games.gin.melds import SCRATCH_SIZE, deadwood, removal_deadwoods, simple_choice, simple_discard
from simcards.rng import new_state, rand_below


def set_rich_hand(rng, n):
    """A random hand of ``n`` cards, often with ranks of 3 or 4 cards (sets to choose among)."""
    cards = set()
    for r in rng.choice(13, rng.integers(0, 4), replace=False):
        cards.update(int(s) * 13 + int(r) for s in rng.choice(4, rng.integers(3, 5), replace=False))
    rest = [c for c in rng.permutation(52) if c not in cards]
    cards = sorted(cards)[:n] + [int(c) for c in rest[: max(n - len(cards), 0)]]
    m = 0
    for c in cards:
        m |= 1 << c
    return np.int64(m)


@pytest.mark.parametrize("mv", range(N_MV))
def test_simple_choice_is_simples_discard_g_meld_4_g_turn_2(mv):
    # G-MELD-4: the deadwood is the minimum over arrangements; simple throws the card leaving the
    # least, then the higher rank, then the lower id, never the card just taken (G-TURN-2: the
    # allowed mask). simple_choice gets it from lane keys over the set choices: the same card and
    # deadwoods as removal_deadwoods + simple_discard, on hands of 10 to 12 cards (G-V-DEAL11's 12).
    rng = np.random.default_rng(100 + mv)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    with_sets = 0
    for i in range(4000):
        m = set_rich_hand(rng, int(rng.choice([10, 11, 11, 11, 12])))
        cards = [c for c in range(52) if m >> c & 1]
        allowed = np.int64(-1)
        if i % 3 == 1:  # a card just taken may not be thrown
            allowed = ~(np.int64(1) << int(rng.choice(cards)))
        elif i % 3 == 2:  # known cards left out (the sampler's filter), sometimes every card
            allowed = ~np.int64(sum(1 << int(c) for c in rng.choice(cards, rng.integers(1, len(cards) + 1),
                                                                   replace=False)))
        full = removal_deadwoods(m, scratch, mv)
        card, after = simple_discard(m & allowed, -1, scratch, mv)
        got = simple_choice(m, allowed, mv)
        assert got == (full, card, after), (mv, cards, allowed)
        assert full == deadwood(m, mv)
        with_sets += S.triple_ranks(m) != 0
    assert with_sets > 1500


def full_shuffle_deal(pool, n_opp, extra, known, mv, rng):
    """The sampler's deal as it was written first: the whole pool shuffled, the stock laid as it
    goes, each extra card drawn and thrown back then swapped to a random filled place."""
    n_pool = len(pool)
    buf = list(pool)
    stock = [0] * 52
    extra = min(extra, n_pool - n_opp)
    dealt = n_opp + extra
    opp = int(known)
    for i in range(n_pool):
        j = i + rand_below(rng, n_pool - i)
        buf[i], buf[j] = buf[j], buf[i]
        if i < n_opp:
            opp |= 1 << int(buf[i])
        elif i >= dealt:
            stock[i - n_opp] = buf[i]
    n_stock = n_pool - n_opp
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    for e in range(extra):
        opp |= 1 << int(buf[n_opp + e])
        removal_deadwoods(np.int64(opp), scratch, mv)
        d, _ = simple_discard(np.int64(opp & ~int(known)), -1, scratch, mv)
        opp &= ~(1 << int(d))
        stock[e] = d
        j = rand_below(rng, e + 1 + n_stock - extra)
        if j > e:
            j += extra - e - 1
        stock[e] = stock[j]
        stock[j] = d
    return opp, stock[:n_stock]


@pytest.mark.parametrize("extra", [0, 3, 20])
def test_deal_without_the_stock_until_kept_is_the_same_deal(extra):
    # deal_hand skips the stock's draws (the stream is a counter) and lay_stock draws them later
    # from the saved state: the same opponent hand, the same stock and the stream left where a
    # full shuffle leaves it. G-INFO-1: the pool is the unseen cards only, known cards stay put.
    known = np.int64((1 << 3) | (1 << 40))
    pool = np.array([c for c in range(52) if c not in (3, 40, 7, 8, 9, 20, 21, 30, 31, 33, 50, 51)], dtype=np.int64)
    buf = np.empty(52, dtype=np.int64)
    stock = np.empty(52, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    for game in range(40):
        a, b = new_state(5, game), new_state(5, game)
        want_opp, want_stock = full_shuffle_deal(pool, 8, extra, known, 0, a)
        got_opp = S.sample_deal(pool, len(pool), 8, extra, known, buf, stock, scratch, 0, b)
        assert got_opp == want_opp
        assert list(stock[:len(pool) - 8]) == want_stock
        assert a[0] == b[0]


def test_fitted_deal_same_as_redealing_in_full():
    # fitted_deal keeps the best of several deals but lays out only the kept one's stock: the same
    # hands, stocks and stream as dealing every try in full and keeping the best (the first of the
    # fewest misfits), with a check that uses the stream itself (the record's stock draws).
    shown = np.int64((1 << 6) | (1 << 19) | (1 << 35))
    pool = np.array([c for c in range(52) if c not in (6, 19, 35, 0, 1, 2, 3, 4)], dtype=np.int64)
    buf, stock, best_buf = (np.empty(52, dtype=np.int64) for _ in range(3))
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    view = np.zeros(S.V_OPP_HIST + 8, dtype=np.int64)
    for tries in (1, 3, 12):
        smp = S.Sampler(pool, len(pool), 10, 2, np.int64(0), shown, tries, 8, -1, 0, 10, view, 0)
        for game in range(30):
            a, b = new_state(8, game), new_state(8, game)
            got = S.fitted_deal(smp, buf, stock, best_buf, scratch, a)
            best = None
            for _t in range(tries):
                opp, st = full_shuffle_deal(pool, 10, 2, np.int64(0), 0, b)
                odd = S.misfit(np.int64(opp), shown, 8, -1, np.int64(0), 0, view, 0, 10, b)
                if best is None or odd < best[0]:
                    best = (odd, opp, st)
                if best[0] == 0:
                    break
            assert got == best[1] and list(stock[:len(pool) - 10]) == best[2]
            assert a[0] == b[0]
