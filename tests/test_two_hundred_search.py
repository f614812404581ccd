"""Two Hundred's mc search, its fast paths: the heuristic rollout on locals (``heuristic_rollout``)
plays the same cards as the rollout through the view and the policies' own functions
(``view_rollout``), and the deal value with a scratch passed in is the allocating one's."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.core import legal_mask, play_card
from simcards.games.two_hundred.game import FAMILIES, GAME
from simcards.games.two_hundred.params import P_DRAW, P_RUFF_MIN, P_SMEAR
from simcards.games.two_hundred.rules import R_DECK, R_DECK_MASK, R_KITTY, R_SEATS
from simcards.games.two_hundred.search import (
    deal_value,
    heuristic_rollout,
    rollout,
    sample_hands,
    scored_value,
    view_rollout,
)
from simcards.rng import rand_below

PRESETS = ["standard", "cutthroat", "six-3x2", "le-rough", "kitty"]


def _bits(mask):
    return [b for b in range(64) if (mask >> b) & 1]


def _position(rng, rules, n_sides):
    """A random deal of ``rules``' deck to its seats (the kitty's cards left out), random sides,
    contract, trump (no trump sometimes) and a random number of legal random cards played."""
    n_seats = int(rules[R_SEATS])
    n_tricks = (int(rules[R_DECK]) - int(rules[R_KITTY])) // n_seats
    cards = rng.permutation(_bits(int(rules[R_DECK_MASK])))
    hands = np.zeros(L.MAX_SEATS, dtype=np.int64)
    for s in range(n_seats):
        for b in cards[s * n_tricks:(s + 1) * n_tricks]:
            hands[s] |= np.int64(1) << int(b)
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_TRICK_FACES:L.V_TRICK_FACES + L.MAX_SEATS] = -1
    for s in range(L.MAX_SEATS):
        view[L.V_SIDE + s] = rng.integers(n_sides) if s < n_seats else -1
    view[L.V_ACTIVE] = (1 << n_seats) - 1
    view[L.V_N_ACTIVE] = n_seats
    view[L.V_CALLED] = -1
    view[L.V_PARTNER] = -1
    view[L.V_BIDDER] = rng.integers(n_seats)
    view[L.V_BID] = 5 * rng.integers(5, 21)
    view[L.V_TRUMP] = rng.integers(5)  # 4: no trump (T-V-ROUGH)
    view[L.V_LEAD_SUIT] = view[L.V_WIN_SEAT] = view[L.V_WIN_FACE] = view[L.V_LEADER] = -1
    view[L.V_SCORES:L.V_SCORES + L.MAX_SEATS] = rng.integers(-150, 190, L.MAX_SEATS)
    seat = int(rng.integers(n_seats))
    for _ in range(rng.integers(n_tricks * n_seats)):
        legal = _bits(int(legal_mask(hands[seat], view[L.V_LEAD_SUIT])))
        seat = play_card(view, hands, seat, int(rng.choice(legal)), view[L.V_TRUMP], view[L.V_ACTIVE], n_seats)
    return hands, view, seat, n_tricks


@pytest.mark.parametrize("preset", PRESETS)
def test_heuristic_rollout_plays_the_view_rollouts_cards(preset):
    # T-PLAY-1..3, T-SC-1: from any point of a deal (mid-trick included) the rollout on locals ends
    # in the same view (points taken, voids shown, cards played, last trick) and the same hands as
    # the heuristic playing card by card through the view, for any smear / draw / ruff_min.
    rules = GAME.build_rules(preset).encode()
    rng = np.random.default_rng(31)
    params = np.array([p.default for p in FAMILIES["mc"].params], dtype=np.float64)
    for i in range(300):
        hands, view, seat, n_tricks = _position(rng, rules, 1 + i % int(rules[R_SEATS]))
        table = np.tile(params, (2, 1))
        table[1, P_SMEAR] = rng.integers(2)
        table[1, P_DRAW] = rng.integers(2)
        table[1, P_RUFF_MIN] = rng.choice([0.0, 5.0, 10.0, 25.0])
        row = i % 2
        want_h, want_v = hands.copy(), view.copy()
        view_rollout(table, row, want_h, want_v, rules, seat, n_tricks, False)
        got_h, got_v = hands.copy(), view.copy()
        heuristic_rollout(table, row, got_h, got_v, rules, seat, n_tricks)
        assert (got_v == want_v).all(), (i, np.nonzero(got_v != want_v))
        assert (got_h == want_h).all() and not got_h.any()
        disp_h, disp_v = hands.copy(), view.copy()
        rollout(table, row, disp_h, disp_v, rules, seat, n_tricks, False)
        assert (disp_v == want_v).all()
        ds = np.full(L.MAX_SEATS, 77, dtype=np.int64)  # stale scratch: every entry is rewritten
        for side in range(int(rules[R_SEATS])):
            assert scored_value(got_v, rules, side, 15 * (i % 2), 40.0, ds) == deal_value(got_v, rules, side,
                                                                                          15 * (i % 2), 40.0)


def test_rollout_check_can_fail():
    # The comparison above sees a changed card play: with smear flipped on one side only the
    # rollouts part in some positions.
    rules = GAME.build_rules("standard").encode()
    rng = np.random.default_rng(5)
    params = np.array([p.default for p in FAMILIES["mc"].params], dtype=np.float64)
    differ = 0
    for _ in range(100):
        hands, view, seat, n_tricks = _position(rng, rules, 2)
        a = np.tile(params, (1, 1))
        b = a.copy()
        a[0, P_SMEAR], b[0, P_SMEAR] = 0, 1
        va, vb = view.copy(), view.copy()
        view_rollout(a, 0, hands.copy(), va, rules, seat, n_tricks, False)
        heuristic_rollout(b, 0, hands.copy(), vb, rules, seat, n_tricks)
        differ += not (va == vb).all()
    assert differ > 0


def _pick_by_keys(mask, trump, smear):
    """The heuristic's cheapest card (or, with ``smear``, the card giving the most points) as the
    policy defines it: the lowest key over every card, the first on a tie (the reference)."""
    best, best_key = -1, 1 << 30
    for s in range(4):
        for o in range(L.LANE):
            if (int(mask) >> (L.LANE * s + o)) & 1:
                pts = int(L.ORDER_POINTS[o])
                key = ((10 - pts) if smear else pts) * 64 + (32 if s == trump else 0) + o
                if key < best_key:
                    best, best_key = L.LANE * s + o, key
    return best


def test_pick_by_table_is_the_policies_pick():
    # The cheapest / smear card by lane tables (policies._pick) is the card of the lowest key for
    # every trump (4: no trump) and both keys, on random hands and every single-suit lane
    # (T-CARD-2's points).
    from simcards.games.two_hundred.policies import _pick

    rng = np.random.default_rng(7)
    masks = [np.int64(m << (L.LANE * s)) for m in range(1, 1 << L.LANE) for s in range(4)]
    masks += [np.int64(int(rng.integers(1, 1 << 40)) & int(L.DECK_MASK_40)) or np.int64(1) for _ in range(3000)]
    for m in masks:
        for trump in range(5):
            for smear in (False, True):
                assert _pick(m, trump, smear) == _pick_by_keys(m, trump, smear), (int(m), trump, smear)


@njit(cache=False)
def _sample_hands_before(rng, unseen, need, voids, n_h, out, cards):
    """The sampler as it was before its room went into one integer (the reference)."""
    n = 0
    for s in range(4):
        lane = (unseen >> (L.LANE * s)) & L.LANE_FULL
        while lane:
            cards[n] = L.LANE * s + L.LANE_LOW[lane]
            lane &= lane - 1
            n += 1
    any_void = 0
    for i in range(n_h):
        any_void |= voids[i]
    cap = np.empty(L.MAX_SEATS + 1, dtype=np.int64)
    for attempt in range(20):
        use_voids = attempt < 19
        for j in range(n - 1, 0, -1):
            r = rand_below(rng, j + 1)
            t = cards[j]
            cards[j] = cards[r]
            cards[r] = t
        for i in range(n_h):
            cap[i] = need[i]
            out[i] = 0
        ok = True
        for phase in range(2):
            for j in range(n):
                c = cards[j]
                constrained = (any_void >> (c // L.LANE)) & 1
                if (phase == 0) != (constrained == 1):
                    continue
                tot = 0
                for i in range(n_h):
                    if cap[i] > 0 and not (use_voids and (voids[i] >> (c // L.LANE)) & 1):
                        tot += cap[i]
                if tot == 0:
                    ok = False
                    break
                r = rand_below(rng, tot)
                for i in range(n_h):
                    if cap[i] > 0 and not (use_voids and (voids[i] >> (c // L.LANE)) & 1):
                        if r < cap[i]:
                            out[i] |= np.int64(1) << c
                            cap[i] -= 1
                            break
                        r -= cap[i]
            if not ok:
                break
        if ok:
            return True
    return False


def test_sampler_draws_as_before():
    # The mc sampler (T-PLAY-1's voids respected, each holder's count kept) deals the same hands
    # from the same random stream as the array-room version it replaced, on any holders, voids
    # (dead ends and the last try without voids included) and sizes that do or do not add up.
    rng = np.random.default_rng(11)
    deck = _bits(int(L.DECK_MASK_36))
    for case in range(3000):
        n_h = int(rng.integers(1, 7))
        n = int(rng.integers(n_h, 28))
        cut = np.sort(rng.choice(np.arange(1, n), n_h - 1, replace=False)) if n_h > 1 else np.array([], int)
        need = np.zeros(7, dtype=np.int64)
        need[:n_h] = np.diff(np.concatenate([[0], cut, [n]]))
        if case % 10 == 0:
            need[0] += int(rng.integers(-1, 2))  # sizes that do not add up: the sampler fails the same way
        voids = np.zeros(7, dtype=np.int64)
        voids[:n_h] = rng.integers(0, 16, n_h) * (rng.random(n_h) < 0.4)
        unseen = np.int64(0)
        for b in rng.choice(deck, n, replace=False):
            unseen |= np.int64(1) << int(b)
        seed = np.array([case], dtype=np.uint64)
        a_out, b_out = np.zeros(7, dtype=np.int64), np.zeros(7, dtype=np.int64)
        a_rng, b_rng = seed.copy(), seed.copy()
        a = sample_hands(a_rng, unseen, need, voids, n_h, a_out, np.zeros(64, dtype=np.int64))
        b = _sample_hands_before(b_rng, unseen, need, voids, n_h, b_out, np.zeros(64, dtype=np.int64))
        assert a == b and (a_out[:n_h] == b_out[:n_h]).all() and a_rng[0] == b_rng[0], case
