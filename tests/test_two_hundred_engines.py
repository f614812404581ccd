"""Two Hundred: the kernel and the reference engine play the same games move for move, every
transcript obeys section 7 of two-hundred.md (hypothesis), and results do not depend on threads
or chunking."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.game import GAME, engine_for, seat_arrays
from simcards.games.two_hundred.reference import play_reference
from tests.test_two_hundred_support import check_transcript, kernel_run

CONFIGS = [
    (["heuristic"], {}),
    (["random"], {}),
    (["heuristic", "random"], {"fail_score": "points_minus_bid"}),
    (["heuristic:aggr=1.4,raise=0", "heuristic:aggr=0.7,smear=0,draw=0,ruff_min=0"], {"target": "300", "hole": "-100"}),
    (["random", "heuristic:partner=0"], {"min_bid": "60", "bid_step": "10", "dealer_bids_after_passes": "false"}),
    (["heuristic:aggr=0.9", "heuristic:aggr=0.7,partner=25"], {"min_bid": "60", "max_bid": "90"}),
]


def _differential(specs, overrides, seed, games):
    rules = GAME.build_rules(None, overrides)
    strats = GAME.strategies(specs, 4)
    decide = engine_for(strats)[0]
    sids, params = seat_arrays(strats)
    for g in range(games):
        k, og, _ = kernel_run(specs, seed, g, rules)
        rec = play_reference(rules, sids, params, seed, g, decide)
        r = rec.log_array()
        if k.shape != r.shape or not (k == r).all():
            m = min(len(k), len(r))
            diff = np.flatnonzero((k[:m] != r[:m]).any(axis=1))
            i = int(diff[0]) if len(diff) else m
            pytest.fail(f"{specs} {overrides} game {g}: engines differ at row {i}: "
                        f"kernel {k[i:i + 1].tolist()} reference {r[i:i + 1].tolist()}")
        assert og[L.G_WINNER] == rec.winner and list(og[L.G_SCORES:L.G_SCORES + 2]) == rec.scores
        assert og[L.G_DEALS] == len(rec.deals)


@pytest.mark.parametrize("specs,overrides", CONFIGS)
def test_kernel_matches_reference(specs, overrides):
    # Principle 3: same seed, same game, move for move (bids, trump, every card, every score).
    _differential(specs, overrides, 11, 250)


@pytest.mark.slow
@pytest.mark.parametrize("specs,overrides", CONFIGS[:3])
def test_kernel_matches_reference_more(specs, overrides):
    _differential(specs, overrides, 2026, 600)


@given(seed=st.integers(0, 2**63 - 1), game=st.integers(0, 10**9), config=st.sampled_from(CONFIGS))
def test_section_7_invariants(seed, game, config):
    # Section 7: points sum to 100 (T-CARD-2); every play follows suit when it can (T-PLAY-1);
    # every trick goes to the T-PLAY-2 winner; bids legal and strictly increasing (T-BID-2/3/4);
    # an all-pass deal scores nothing (T-BID-5); scores per T-SC-2/3; one winner per T-END-1/2.
    specs, overrides = config
    rules = GAME.build_rules(None, overrides)
    log, og, deals = kernel_run(specs, seed, game, rules)
    stats = check_transcript(log, rules)
    assert stats["winner"] == og[L.G_WINNER]
    assert stats["deals"] == og[L.G_DEALS] == len(deals)
    assert stats["throw_ins"] == og[L.G_THROWINS]
    # The per-deal rows say the same as the transcript.
    played = deals[:, L.D_BIDDER] >= 0
    assert ((deals[played, L.D_TAKEN0] + deals[played, L.D_TAKEN1]) == 100).all()
    assert (deals[~played, L.D_DSCORE0] == 0).all() and (deals[~played, L.D_DSCORE1] == 0).all()
    assert list(deals[-1, L.D_SCORE0:L.D_SCORE1 + 1]) == stats["scores"]


@given(seed=st.integers(0, 2**63 - 1), game=st.integers(0, 10**6))
def test_reference_invariants(seed, game):
    # The same invariants hold for the reference engine's own record (section 7).
    rules = GAME.build_rules(None)
    strats = GAME.strategies(["random", "heuristic"], 4)
    sids, params = seat_arrays(strats)
    rec = play_reference(rules, sids, params, seed, game, engine_for(strats)[0])
    stats = check_transcript(rec.log_array(), rules)
    assert stats["winner"] == rec.winner
    for d in rec.deals:
        if d.bidder is not None:
            assert sum(d.taken) == 100 and len(d.tricks) == 9


def test_same_results_any_threads_and_chunks():
    # Principle 2: game i of seed s is the same game on 1 or 2 threads, in one batch or many.
    run = GAME.new_run(GAME.build_rules(None), 4, GAME.strategies(["heuristic", "random"], 4))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one, d_one = run.play(9, 0, 3000, True)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        parts = [run.play(9, a, b, True) for a, b in ((0, 7), (7, 1000), (1007, 1993))]
    finally:
        numba.set_num_threads(before)
    many = np.concatenate([p[0].to_numpy() for p in parts])
    assert (one.to_numpy() == many).all()
    import pandas as pd

    d_many = pd.concat([p[1] for p in parts], ignore_index=True)
    pd.testing.assert_frame_equal(d_one, d_many)


def test_long_games_keep_every_deal():
    # Games longer than the first-pass row budget are replayed alone so no deal row is lost.
    from simcards.games.two_hundred import game as G

    run = GAME.new_run(GAME.build_rules(None, {"target": "2000", "hole": "-2000"}), 4, GAME.strategies(["heuristic"], 4))
    games, deals = run.play(3, 0, 40, True)
    assert (games["deals"] > G.DEALS_PER_GAME).any()
    assert len(deals) == games["deals"].sum()
    assert (deals.groupby("game")["deal"].max().to_numpy() == games["deals"].to_numpy()).all()


def test_user_policy_plugs_in():
    # Principle 4: a user policy with the public signature, registered by name, runs in both engines.
    from numba import njit

    from simcards.strategy import register

    @njit(cache=False)
    def lowest(kind, params, hand, opts, n_opts, view, rules, rng):
        if kind == L.K_BID:
            return 1 if n_opts > 1 and view[L.V_BID] == 0 and params[0] > 0 else 0
        if kind == L.K_TRUMP:
            return 7  # out of range on purpose: both engines play option 0 and count it
        return 0

    register("two-hundred", "lowest_test", lowest, {"open": 1.0})
    _differential(["lowest_test", "heuristic"], {}, 4, 20)
    log, og, _ = kernel_run(["lowest_test", "heuristic"], 4, 0)
    check_transcript(log, GAME.build_rules(None))
    strats = GAME.strategies(["lowest_test", "heuristic"], 4)
    rec = play_reference(GAME.build_rules(None), *seat_arrays(strats), 4, 0, engine_for(strats)[0])
    assert og[L.G_INVALID] == rec.invalid > 0


def test_views_show_only_public_information():
    # A strategy sees its own hand and the public state, nothing else (principle 4). Record every
    # question the reference engine asks and rebuild the expected view from the public history.
    from simcards.games.two_hundred.reference import hand_mask, points, trick_winner

    strats = GAME.strategies(["heuristic", "random"], 4)
    inner = engine_for(strats)[0]
    asked = []

    def recorder(kind, sid, table, hand, opts, n_opts, view, rules, rng):
        asked.append((kind, int(view[L.V_SEAT]), int(hand), view.copy(), [int(x) for x in opts[:n_opts]]))
        return inner(kind, sid, table, hand, opts, n_opts, view, rules, rng)

    sids, params = seat_arrays(strats)
    for game in range(6):
        asked.clear()
        rec = play_reference(GAME.build_rules(None), sids, params, 21, game, recorder)
        q = iter(asked)
        scores = [0, 0]
        for d in rec.deals:
            hands = {p: list(h) for p, h in d.hands.items()}
            base = np.zeros(L.VIEW_SIZE, dtype=np.int64)
            base[[L.V_BIDDER, L.V_TRUMP, L.V_LEADER, L.V_LEAD_SUIT, L.V_WIN_SEAT, L.V_WIN_FACE]] = -1
            base[L.V_TRICK_FACES:L.V_TRICK_FACES + 4] = -1
            base[L.V_DEALER], base[L.V_DEAL] = d.dealer, d.deal
            base[L.V_SCORES], base[L.V_SCORES + 1] = scores
            for seat, bid in d.bids:
                kind, s, hand, view, _ = next(q)
                want = base.copy()
                want[L.V_SEAT] = seat
                assert kind == L.K_BID and s == seat and hand == hand_mask(hands[seat])
                assert (view == want).all(), (view - want).nonzero()
                if bid == 0:
                    base[L.V_PASSED] |= 1 << seat
                else:
                    base[L.V_BID], base[L.V_BIDDER], base[L.V_BIDS + seat] = bid, seat, bid
            if d.bidder is None:
                continue
            kind, s, hand, view, opts = next(q)
            want = base.copy()
            want[L.V_SEAT] = d.bidder
            assert kind == L.K_TRUMP and opts == [0, 1, 2, 3] and (view == want).all()
            base[L.V_TRUMP] = d.trump
            played, taken, voids = 0, [0, 0], [0, 0, 0, 0]
            for t, (leader, cards, winner, pts) in enumerate(d.tricks):
                for k, card in enumerate(cards):
                    seat = (leader + k) % 4
                    kind, s, hand, view, opts = next(q)
                    want = base.copy()
                    want[L.V_SEAT], want[L.V_TRICK], want[L.V_LEADER], want[L.V_N_IN] = seat, t, leader, k
                    if k:
                        w = trick_winner(cards[:k], leader, d.trump)
                        want[L.V_LEAD_SUIT] = cards[0] // 13
                        want[L.V_WIN_SEAT], want[L.V_WIN_FACE] = w, cards[(w - leader) % 4]
                        want[L.V_TRICK_POINTS] = sum(points(c) for c in cards[:k])
                        want[L.V_TRICK_FACES:L.V_TRICK_FACES + k] = cards[:k]
                    want[L.V_PLAYED] = played
                    want[L.V_TAKEN], want[L.V_TAKEN + 1] = taken
                    want[L.V_VOIDS:L.V_VOIDS + 4] = voids
                    assert kind == L.K_PLAY and s == seat and hand == hand_mask(hands[seat]) and card in opts
                    assert (view == want).all(), (t, k, (view - want).nonzero())
                    if k and card // 13 != cards[0] // 13:
                        voids[seat] |= 1 << (cards[0] // 13)
                    hands[seat].remove(card)
                    played |= hand_mask([card])
                taken[winner % 2] += pts
            scores = list(d.scores)
        assert next(q, None) is None
