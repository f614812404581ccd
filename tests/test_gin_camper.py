"""The Gin ``camper`` (simcards/games/gin/camper.py): its rules checked on every decision of real
games (the draw, the knock window, the lay-out), both engines agreeing, and no peeking."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.games.gin import layout as L
from simcards.games.gin.camper import FAMILY, camper_decide, near_mask
from simcards.games.gin.game import GAME, engine_for, seat_arrays
from simcards.games.gin.melds import VALUES, deadwood
from simcards.games.gin.reference import play_reference
from simcards.strategy import make_strategy
from tests.test_gin_engines import kernel_game


def camper(**given):
    return make_strategy(FAMILY, given)


def strategies(*seats):
    return [s if not isinstance(s, str) else GAME.strategies([s], 2)[0] for s in seats]


def traced_games(rules, seats, seed, games):
    """Every decision the camper (seat 0) makes in reference games: (kind, view, opts, n_opts, choice)."""
    sids, params = seat_arrays(seats)
    played = engine_for(seats).decide  # the reference engine's decision function for these seats
    calls = []

    def decide(kind, sid, params_, hand, n, opts, n_opts, view, rules_, rng):
        c = played(kind, sid, params_, hand, n, opts, n_opts, view, rules_, rng)
        if sid == FAMILY.sid:
            assert c == camper_decide(kind, params_, hand, n, opts, n_opts, view, rules_, rng)
            calls.append((kind, view.copy(), opts.copy(), n_opts, c))
        return c

    for g in games:
        play_reference(rules, sids, params, seed, g, decide)
    return calls


@pytest.fixture(scope="module")
def calls():
    return traced_games(GAME.build_rules("eaai"), strategies(camper(), "simple"), 3, range(6))


def test_camper_knocks_only_in_its_window_then_only_gin_g_knock_1(calls):
    knocks = [(v, o, c) for k, v, o, _, c in calls if k == L.K_KNOCK]
    assert len(knocks) > 10
    late = early = 0
    for view, opts, c in knocks:
        turn = view[L.V_MY_TURNS] + 1
        if opts[1, 1] == 0:
            assert c == 1  # gin always goes out
        elif turn <= 3:
            assert c == 1  # a knock offered in the window is taken
            early += 1
        else:
            assert c == 0  # never knocks after the window without gin
            late += 1
    assert late > 0 and early > 0


def test_camper_takes_a_card_only_when_it_melds_and_lowers_deadwood_g_turn_1(calls):
    draws = [(v, o, c) for k, v, o, _, c in calls if k in (L.K_UPCARD, L.K_DRAW)]
    taken = declined_low = 0
    for view, opts, c in draws:
        card, dw11, after = opts[1, 1], opts[1, 2], opts[1, 3]
        dw10 = view[L.V_DW]
        # the card is in a meld of the 11 cards' best arrangement (checked with the solver too)
        hand = view[L.V_MASK]
        assert deadwood(hand) == dw10 and deadwood(hand | (1 << card)) == dw11
        melds = dw11 < dw10 + VALUES[card]
        assert c == int(melds and after < dw10)
        taken += c
        declined_low += int(not melds and after < dw10)  # simple's knock-enabling takes are not the camper's
    assert taken > 5 and declined_low > 0


def test_camper_discards_by_its_cost_and_lays_out_the_fewest_layoffs_g_lay_0(calls):
    discards = [(v, o, n, c) for k, v, o, n, c in calls if k == L.K_DISCARD]
    assert len(discards) > 50
    # the lookahead credit is at most weight x decay^(turn - 1), the danger at most danger x 7 cards
    for view, opts, n, c in discards:
        assert opts[c, 1] <= opts[:n, 1].min() + 18 * 0.9 ** view[L.V_MY_TURNS] + 0.5 * 7
    arranges = [(v, o, n, c) for k, v, o, n, c in calls if k == L.K_ARRANGE]
    for view, opts, n, c in arranges:
        known = bin(int(view[L.V_OPP_TOOK] & ~view[L.V_PILE] & ~view[L.V_MASK])).count("1")
        unseen = 52 - bin(int(view[L.V_MASK])).count("1") - bin(int(view[L.V_PILE])).count("1") - known
        cost = [opts[a, 3] + (10 - known) / unseen * (opts[a, 2] - opts[a, 3]) for a in range(n)]
        assert cost[c] == min(cost)


def _discard(strategy, hand, took=0):
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    mask = sum(1 << c for c in hand)
    view[L.V_MASK], view[L.V_OPP_TOOK] = mask, took
    cards = sorted(hand)
    opts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
    for i, c in enumerate(cards):
        opts[i, 0], opts[i, 1] = c, deadwood(mask & ~(1 << c))
    rules = GAME.build_rules("standard").encode()
    a = camper_decide(L.K_DISCARD, strategy.vector(), np.array(cards), 11, opts, 11, view, rules,
                      np.zeros(2, dtype=np.uint64))
    return cards[a]


def test_camper_lookahead_keeps_connected_cards_early_and_danger_avoids_feeding():
    # A-2-3 of spades, 6-8-9 of hearts, 6 of diamonds, 9 and 4 and A of clubs, 2 of diamonds
    nine_h, nine_c, ten_c = 13 + 8, 39 + 8, 39 + 9
    hand = [0, 1, 2, 13 + 5, 13 + 7, nine_h, 26 + 5, 26 + 1, nine_c, 39 + 3, 39 + 0]
    assert _discard(camper(weight=0, danger=0), hand) == nine_h  # plain deadwood: the tie goes to the lower id
    assert _discard(camper(danger=0), hand) == nine_c  # the lookahead keeps the 6-8-9 of hearts together
    # the opponent is known to hold the 10 of clubs: the 9 of clubs would feed it
    assert near_mask(nine_c, False) >> ten_c & 1
    assert _discard(camper(danger=5), hand, took=1 << ten_c) == nine_h
    assert _discard(camper(danger=0), hand, took=1 << ten_c) == nine_c


def test_engines_agree_with_the_camper():
    rules = GAME.build_rules("eaai")
    seats = strategies(camper(), "simple")
    decide = engine_for(seats)[0]
    sids, params = seat_arrays(seats)
    hands = 0
    for g in range(5):
        k, out, rows = kernel_game(rules, seats, 4, g)
        r = play_reference(rules, sids, params, 4, g, decide)
        assert k.shape == r.log_array().shape and (k == r.log_array()).all()
        assert out[L.G_WINNER] == r.winner
        hands += len(r.hands)
    assert hands > 20


def test_camper_sees_only_its_view():
    rules = GAME.build_rules("standard")
    seats = strategies(camper(), "simple")
    pairs = [p for g in range(3) for p in GAME.view_twins(rules, 2, seats, 17, g)]
    assert len(pairs) > 50 and all(a == b for a, b in pairs)
