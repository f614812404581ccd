"""Two Hundred: the kernel and the reference engine play the same games move for move on every
preset of section 6 and on single options, every transcript obeys section 7 of two-hundred.md
(hypothesis, with an independent checker of every table's rules), strategies see only what their
player may see, and results do not depend on threads or chunking."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.game import GAME, engine_for, seat_arrays
from simcards.games.two_hundred.reference import hand_mask, play_reference, points, winning_card
from tests.test_two_hundred_support import check_transcript, kernel_run

# (preset, strategies, single options): the standard game's option combinations, then every
# section-5 preset with both built-in strategies (alone and mixed) and its own options.
CONFIGS = [
    ("standard", ["heuristic"], {}),
    ("standard", ["random"], {}),
    ("standard", ["heuristic", "random"], {"fail_score": "points_minus_bid"}),
    ("standard", ["heuristic:aggr=1.4,raise=0", "heuristic:aggr=0.7,smear=0,draw=0,ruff_min=0"],
     {"target": "300", "hole": "-100"}),
    ("standard", ["random", "heuristic:partner=0"], {"min_bid": "60", "bid_step": "10", "dealer_bids_after_passes": "false"}),
    ("standard", ["heuristic:aggr=0.9", "heuristic:aggr=0.7,partner=25"], {"min_bid": "60", "max_bid": "90"}),
    ("standard", ["heuristic", "random"], {"no_trump": "true"}),
    ("standard", ["heuristic"], {"kitty": "4"}),
    ("standard", ["random", "heuristic"], {"deck": "40"}),
    ("kitty", ["heuristic"], {}),
    ("kitty", ["random", "heuristic:kitty=0"], {}),
    ("kitty", ["heuristic:nt=1.0", "heuristic"], {"no_trump": "true", "fail_score": "points_minus_bid"}),
    ("le-rough", ["heuristic"], {}),
    ("le-rough", ["random"], {}),
    ("le-rough", ["heuristic:aggr=1.0,nt=0.9", "heuristic:aggr=0.9"], {"min_bid": "50"}),
    ("cutthroat", ["heuristic"], {}),
    ("cutthroat", ["random", "heuristic"], {"cutthroat_fail": "points"}),
    ("cutthroat", ["heuristic:aggr=0.9"], {"deck": "40", "no_trump": "true"}),
    ("five-player", ["heuristic"], {}),
    ("five-player", ["random"], {"partner_shares_loss": "false"}),
    ("five-player", ["heuristic", "random", "heuristic:aggr=0.9", "random", "heuristic"], {"no_trump": "true"}),
    ("six-3x2", ["heuristic"], {}),
    ("six-3x2", ["random"], {"hole": "-100"}),
    ("six-3x2", ["heuristic:aggr=1.1", "random", "heuristic"], {"min_bid": "30", "hole": "-100"}),
    ("six-2x3", ["heuristic"], {}),
    ("six-2x3", ["random", "heuristic"], {"deck": "40", "kitty": "4"}),
    ("two-player", ["heuristic"], {}),
    ("two-player", ["random"], {}),
    ("two-player", ["heuristic", "random"], {"no_trump": "true", "dealer_bids_after_passes": "false"}),
]
IDS = [f"{v}-{'+'.join(s)}-{','.join(f'{k}={x}' for k, x in o.items())}" for v, s, o in CONFIGS]


def _differential(preset, specs, overrides, seed, games):
    rules = GAME.build_rules(preset, overrides)
    strats = GAME.strategies(specs, rules.players)
    decide = engine_for(strats)[0]
    sids, params = seat_arrays(strats, rules)
    for g in range(games):
        k, og, _ = kernel_run(specs, seed, g, rules)
        rec = play_reference(rules, sids, params, seed, g, decide, on_invalid="first")  # as the kernel (see below)
        r = rec.log_array()
        if k.shape != r.shape or not (k == r).all():
            m = min(len(k), len(r))
            diff = np.flatnonzero((k[:m] != r[:m]).any(axis=1))
            i = int(diff[0]) if len(diff) else m
            pytest.fail(f"{preset} {specs} {overrides} game {g}: engines differ at row {i}: "
                        f"kernel {k[i:i + 1].tolist()} reference {r[i:i + 1].tolist()}")
        assert og[L.G_WINNER] == rec.winner and list(og[L.G_SCORES:L.G_SCORES + rules.sides]) == rec.scores
        assert og[L.G_DEALS] == len(rec.deals) and og[L.G_HOLE] == rec.hole and og[L.G_CAPPED] == rec.capped


@pytest.mark.parametrize("preset,specs,overrides", CONFIGS, ids=IDS)
def test_kernel_matches_reference(preset, specs, overrides):
    # Principle 3: same seed, same game, move for move (bids, kitty, trump, call, every card, every
    # card turned up, every score, who leaves), on every preset of section 6 and single options.
    _differential(preset, specs, overrides, 11, 60 if preset == "standard" else 50)


@pytest.mark.slow
@pytest.mark.parametrize("preset,specs,overrides", CONFIGS[::2], ids=IDS[::2])
def test_kernel_matches_reference_more(preset, specs, overrides):
    _differential(preset, specs, overrides, 2026, 150)


# Where every seat in play is the heuristic, a batch (no transcript) plays the tricks on locals
# (``policies.heuristic_tricks``); a logged game plays them card by card, the path the reference
# engine is checked against above. Both must be the same games.
HEURISTIC_ONLY = [(v, s, o) for v, s, o in CONFIGS if not any(x.startswith("random") for x in s)]


@pytest.mark.parametrize("preset,specs,overrides", HEURISTIC_ONLY,
                         ids=[i for i, c in zip(IDS, CONFIGS) if c in HEURISTIC_ONLY])
def test_a_batch_plays_the_same_games_as_the_logged_kernel(preset, specs, overrides):
    rules = GAME.build_rules(preset, overrides)
    strats = GAME.strategies(specs, rules.players)
    play_batch = engine_for(strats)[2]
    sids, params = seat_arrays(strats, rules)
    n = 40
    games = np.zeros((L.G_WIDTH, n), dtype=np.int64)  # a game a column (GameRun.columns_first)
    deals = np.zeros((n * L.DEAL_CAP, L.D_WIDTH), dtype=np.int32)
    play_batch(5, 0, n, rules.encode(), sids, params, games, deals, L.DEAL_CAP)
    for g in range(n):
        _, og, logged = kernel_run(specs, 5, g, rules)
        assert (games[:, g] == og).all(), (preset, specs, overrides, g)
        assert (deals[g * L.DEAL_CAP:g * L.DEAL_CAP + og[L.G_DEALS]] == logged).all(), (preset, specs, overrides, g)


PRESETS = list(GAME.presets())


@pytest.mark.parametrize("preset", PRESETS)
@given(data=st.data(), seed=st.integers(0, 2**63 - 1), game=st.integers(0, 10**9))
def test_section_7_invariants(preset, data, seed, game):
    # Section 7 on every table: points taken, kitty included, sum to 100 (T-CARD-2); every play
    # follows suit when it can (T-PLAY-1; T-V-2P: judged on a dummy's face-up cards); every trick
    # goes to the T-PLAY-2 winner; bids legal and strictly increasing (T-BID-2/3/4); an all-pass
    # deal scores nothing (T-BID-5); scores per T-SC-2/3 and section 5; one winner per T-END-1/2 or
    # the variant's rule. The checker is written apart from both engines. Per preset: its
    # strategies and single options from CONFIGS.
    preset, specs, overrides = data.draw(st.sampled_from([cfg for cfg in CONFIGS if cfg[0] == preset]))
    rules = GAME.build_rules(preset, overrides)
    log, og, deals = kernel_run(specs, seed, game, rules)
    stats = check_transcript(log, rules)
    assert stats["winner"] == og[L.G_WINNER]
    assert stats["deals"] == og[L.G_DEALS] == len(deals)
    assert stats["throw_ins"] == og[L.G_THROWINS]
    assert stats["no_trump"] == og[L.G_NT_DEALS]
    # The per-deal rows say the same as the transcript.
    played = deals[:, L.D_BIDDER] >= 0
    taken = deals[:, L.D_TAKEN:L.D_TAKEN + rules.sides].sum(axis=1) + deals[:, L.D_KITTY_POINTS]
    assert (taken[played] == 100).all()
    assert (deals[~played, L.D_DSCORE:L.D_DSCORE + L.MAX_SEATS] == 0).all()
    assert list(deals[-1, L.D_SCORE:L.D_SCORE + rules.sides]) == stats["scores"]
    assert stats["kitty_points"] == deals[played, L.D_KITTY_POINTS].sum()


@pytest.mark.parametrize("preset", PRESETS)
@given(seed=st.integers(0, 2**63 - 1), game=st.integers(0, 10**6))
def test_reference_invariants(preset, seed, game):
    # The same invariants hold for the reference engine's own record (section 7).
    rules = GAME.build_rules(preset)
    strats = GAME.strategies(["random", "heuristic"] * (rules.players // 2) + ["heuristic"] * (rules.players % 2),
                             rules.players)
    sids, params = seat_arrays(strats, rules)
    rec = play_reference(rules, sids, params, seed, game, engine_for(strats)[0])
    stats = check_transcript(rec.log_array(), rules)
    assert stats["winner"] == rec.winner
    for d in rec.deals:
        if d.bidder is not None:
            assert sum(d.taken) + d.kitty_points == 100 and len(d.tricks) == len(d.hands[d.bidder])


def test_same_results_any_threads_and_chunks():
    # Principle 2: game i of seed s is the same game on 1 or 2 threads, in one batch or many.
    import pandas as pd

    for preset, n in (("standard", 3000), ("six-3x2", 600), ("two-player", 600)):
        rules = GAME.build_rules(preset)
        run = GAME.new_run(rules, rules.players, GAME.strategies(["heuristic", "random"] if rules.players % 2 == 0
                                                                 else ["heuristic"], rules.players))
        before = numba.get_num_threads()
        try:
            numba.set_num_threads(1)
            one, d_one = run.play(9, 0, n, True)
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
            cuts = ((0, 7), (7, n // 3), (7 + n // 3, n - 7 - n // 3))
            parts = [run.play(9, a, b, True) for a, b in cuts]
        finally:
            numba.set_num_threads(before)
        pd.testing.assert_frame_equal(one, pd.concat([p[0] for p in parts], ignore_index=True))
        pd.testing.assert_frame_equal(d_one, pd.concat([p[1] for p in parts], ignore_index=True))


def test_long_games_keep_every_deal():
    # Games longer than the first-pass row budget are replayed alone so no deal row is lost.
    from simcards.games.two_hundred import game as G

    run = GAME.new_run(GAME.build_rules(None, {"target": "2000", "hole": "-2000"}), 4, GAME.strategies(["heuristic"], 4))
    games, deals = run.play(3, 0, 40, True)
    assert (games["deals"] > G.DEALS_PER_GAME).any()
    assert len(deals) == games["deals"].sum()
    assert (deals.groupby("game")["deal"].max().to_numpy() == games["deals"].to_numpy()).all()


@pytest.mark.slow  # compiles a Two Hundred kernel of its own (~1 min cold); the fast lane rebuilds Yaniv's for a
def test_user_policy_plugs_in():  # user policy (test_policy_safety), through the same KernelBinding
    # Principle 4: a user policy with the public signature, registered by name, runs in both engines,
    # on the standard table and on the variants' new decisions (discard, call, a dummy's cards).
    from numba import njit

    from simcards.strategy import register

    @njit(cache=False)
    def lowest(kind, params, hand, n, opts, n_opts, view, rules, rng):
        if kind == L.K_BID:
            return 1 if n_opts > 1 and view[L.V_BID] == 0 and params[0] > 0 else 0
        if kind == L.K_TRUMP:
            return 7  # out of range on purpose: with on_invalid="first" both engines play option 0 and count it
        return 0

    register("two-hundred", "lowest_test", lowest, {"open": 1.0})
    _differential("standard", ["lowest_test", "heuristic"], {}, 4, 20)
    for preset in ("five-player", "kitty", "two-player"):
        _differential(preset, ["lowest_test"], {}, 4, 5)
    log, og, _ = kernel_run(["lowest_test", "heuristic"], 4, 0)
    check_transcript(log, GAME.build_rules(None))
    strats = GAME.strategies(["lowest_test", "heuristic"], 4)
    rec = play_reference(GAME.build_rules(None), *seat_arrays(strats), 4, 0, engine_for(strats)[0], on_invalid="first")
    assert og[L.G_INVALID] == og[L.G_BAD] == rec.invalid > 0


# ----- what a strategy may see -----------------------------------------------------------------------
def _expected_views(rules, rec):
    """Rebuild, from the public history of a recorded game alone, every (kind, seat, hand, view)
    a strategy must be shown: its own hand (or a dummy's face-up cards), the public state, and in
    V_OWN_SEEN only the cards that player may see — never another hand, the kitty of another
    player, or who holds a called card before it is played."""
    sides = rules.sides
    scores = [0] * sides
    in_play = set(range(rules.seats))
    dummy = {2, 3} if rules.mode == "two-player" else set()
    for d in rec.deals:
        hands = {p: list(h) for p, h in d.hands.items()}
        piles = {p: [hands[p][3 * i:3 * i + 3] for i in range(3)] for p in dummy}
        up = {p: [pile[-1] for pile in piles[p]] for p in dummy}
        base = np.zeros(L.VIEW_SIZE, dtype=np.int64)
        base[[L.V_BIDDER, L.V_TRUMP, L.V_LEADER, L.V_LEAD_SUIT, L.V_WIN_SEAT, L.V_WIN_FACE, L.V_CALLED,
              L.V_PARTNER]] = -1
        base[L.V_TRICK_FACES:L.V_TRICK_FACES + L.MAX_SEATS] = -1
        base[L.V_DEALER], base[L.V_DEAL] = d.dealer, d.deal
        base[L.V_SCORES:L.V_SCORES + sides] = scores
        base[L.V_ACTIVE], base[L.V_N_ACTIVE] = sum(1 << s for s in in_play), len(in_play)
        base[L.V_SIDE:L.V_SIDE + L.MAX_SEATS] = [rules.side_of(s) if s < rules.seats else -1 for s in range(L.MAX_SEATS)]

        def show(kind, seat, cards, seen=()):
            want = base.copy()
            want[L.V_SEAT] = seat
            want[L.V_OWN_SEEN] = hand_mask(seen)
            for p in dummy:
                want[L.V_UP + p] = hand_mask(up[p])
            return kind, seat, hand_mask(cards), want

        def mine(seat):  # T-V-2P: a player sees its dummy's face-up cards; playing for the dummy, its own hand
            if seat in dummy:
                return hands[(seat + 2) % 4]
            return up.get((seat + 2) % 4, []) if dummy else []

        for seat, bid in d.bids:
            yield show(L.K_BID, seat, hands[seat], mine(seat))
            if bid == 0:
                base[L.V_PASSED] |= 1 << seat
            else:
                base[L.V_BID], base[L.V_BIDDER], base[L.V_BIDS + seat] = bid, seat, bid
        if d.bidder is None:
            continue
        b = d.bidder
        if rules.kitty:
            hands[b] += d.kitty
            for i, card in enumerate(d.buried):
                yield show(L.K_DISCARD, b, hands[b], d.buried[:i])
                hands[b].remove(card)
        yield show(L.K_TRUMP, b, hands[b], mine(b) + d.buried)
        base[L.V_TRUMP] = d.trump
        if d.called is not None:
            yield show(L.K_CALL, b, hands[b], mine(b))
            base[L.V_CALLED] = d.called
        played, taken, voids = 0, [0] * sides, [0] * L.MAX_SEATS
        for t, (leader, cards, winner, pts) in enumerate(d.tricks):
            order = [leader] + [s for s in [(leader + k) % rules.seats for k in range(1, rules.seats)] if s in in_play]
            for k, card in enumerate(cards):
                seat = order[k]
                base[L.V_TRICK], base[L.V_LEADER], base[L.V_N_IN] = t, leader, k
                if k:
                    w = order[winning_card(cards[:k], d.trump)]
                    base[L.V_LEAD_SUIT] = cards[0] // 13
                    base[L.V_WIN_SEAT], base[L.V_WIN_FACE] = w, cards[order.index(w)]
                    base[L.V_TRICK_POINTS] = sum(points(c) for c in cards[:k])
                else:
                    base[[L.V_LEAD_SUIT, L.V_WIN_SEAT, L.V_WIN_FACE]] = -1
                    base[L.V_TRICK_POINTS] = 0
                    base[L.V_TRICK_FACES:L.V_TRICK_FACES + L.MAX_SEATS] = -1
                base[L.V_TRICK_FACES:L.V_TRICK_FACES + k] = cards[:k]
                base[L.V_PLAYED] = played
                base[L.V_TAKEN:L.V_TAKEN + sides] = taken
                base[L.V_VOIDS:L.V_VOIDS + L.MAX_SEATS] = voids
                seen = mine(seat) + (d.buried if seat == b else [])
                yield show(L.K_PLAY, seat, up[seat] if seat in dummy else hands[seat], seen)
                if k and card // 13 != cards[0] // 13:
                    voids[seat] |= 1 << (cards[0] // 13)
                hands[seat].remove(card)
                if seat in dummy:
                    pile = next(p for p in piles[seat] if p and p[-1] == card)
                    pile.pop()
                    up[seat] = [p[-1] for p in piles[seat] if p]
                if card == d.called:
                    base[L.V_PARTNER] = d.partner
                played |= hand_mask([card])
            taken[rules.side_of(winner)] += pts
        scores = list(d.scores)
        if d.out is not None:
            in_play -= set(rules.side_seats(d.out))


@pytest.mark.parametrize("preset", list(GAME.presets()))
def test_views_show_only_public_information(preset):
    # A strategy sees its own hand and the public state, nothing else (principle 4), on every
    # table: T-V-2P (a dummy's face-down cards stay hidden, even from its owner), T-V-5P (the
    # partner is unknown until the called card is played), T-V-KITTY (only the bidder knows what
    # it buried). Record every question the reference engine asks and compare it with the view
    # rebuilt from the public history.
    rules = GAME.build_rules(preset)
    strats = GAME.strategies(["heuristic"] * (rules.players - 1) + ["random"], rules.players)
    inner = engine_for(strats)[0]
    asked = []

    def recorder(kind, sid, table, hand, opts, n_opts, view, rules_arr, rng):
        asked.append((kind, int(view[L.V_SEAT]), int(hand), view.copy()))
        return inner(kind, sid, table, hand, opts, n_opts, view, rules_arr, rng)

    sids, params = seat_arrays(strats, rules)
    for game in range(4):
        asked.clear()
        rec = play_reference(rules, sids, params, 21, game, recorder)
        q = iter(asked)
        for kind, seat, hand, want in _expected_views(rules, rec):
            got_kind, got_seat, got_hand, view = next(q)
            assert (got_kind, got_seat, got_hand) == (kind, seat, hand)
            assert (view == want).all(), (preset, kind, seat, np.flatnonzero(view != want))
        assert next(q, None) is None
