"""The stronger Gin families (``informed``, ``mc``): listed with their parameters, no peeking
(G-INFO-1), the same game in both engines, reproducible at any thread count, every preset playable."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.games.gin import informed as I
from simcards.games.gin import kernel as K
from simcards.games.gin import layout as L
from simcards.games.gin import search as S
from simcards.games.gin.game import GAME, seat_arrays
from simcards.games.gin.melds import SCRATCH_SIZE, VALUES_MV, min_deadwood, removal_deadwoods
from simcards.rng import new_state
from tests.test_gin_engines import assert_same_game

NO_VIEW = np.zeros(L.VIEW_SIZE, dtype=np.int64)  # a view with no turns recorded
RNG = new_state(0, 0)

MC = "mc:k=6,draw=1,knock=1,depth=32"  # few samples (the engines-agree games stay fast), every search on, the
# whole turn record read (a record that differed between the engines would change the samples, then the play)
# every mc parameter off its default
MC_ALL = "mc:k=20,draw=1,knock=1,fit=4,rtake=6,rknock=8,stop=0.5,prune=20,rgin=6,strict=1,rout=1.5,depth=3,seen=0"


def test_families_listed_with_parameters():
    fams = GAME.families()
    assert {"informed", "mc"} <= set(fams)
    assert {"outs", "safe", "hint", "take", "max"} <= {p.name for p in fams["informed"].params}
    assert {"k", "width", "draw", "knock", "goal", "filter", "z", "fit", "rtake", "rknock", "stop", "prune", "rgin",
            "strict", "rout", "depth", "seen"} <= {
        p.name for p in fams["mc"].params}
    assert fams["mc"].stochastic
    deep = dict(GAME.strategies(["deep"], 2)[0].values)  # the shipped preset of the strongest player
    assert (deep["k"], deep["depth"], deep["seen"], deep["fit"], deep["filter"], deep["stop"]) == (128, 5, 0, 12, 3, 2)


def bits(cards):
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def build_view(me, opp, pile, took, discs, passed, stock_n, turns=()):
    """The view of position 0 in a hand state (kernel.set_view: the engines' own builder);
    ``turns``: the opponent's turn records (card thrown, top card it drew at, how)."""
    rules = GAME.build_rules("standard").encode()
    st = np.zeros(K.S_SIZE, dtype=np.int64)
    st[K.S_STOCK] = stock_n
    st[K.S_PILE_N] = len(pile)
    st[K.S_PILE_MASK] = bits(pile)
    st[K.S_LIMIT] = 10
    st[K.S_STAKE] = 1
    st[K.S_KCARD] = -1
    st[K.S_THIRD] = -1
    st[K.S_SEAT1] = 1
    st[K.S_TURN] = 2 * len(discs[1])
    st[K.S_HN1] = len(turns)
    for i, t in enumerate(turns):
        st[K.S_HIST + K.HIST_SLOTS + i // 4] |= record(*t) << (16 * (i % 4))
    pile_arr = np.zeros(52, dtype=np.int64)
    pile_arr[:len(pile)] = pile
    masks = np.array([bits(me), bits(opp)], dtype=np.int64)
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    K.set_view(view, 0, st, pile_arr, masks, np.array([bits(t) for t in took], dtype=np.int64),
               np.array([bits(d) for d in discs], dtype=np.int64),
               np.array([bits(p) for p in passed], dtype=np.int64), np.array([3, 3], dtype=np.int64), rules)
    return view, rules


def discard_options(me):
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    removal_deadwoods(np.int64(bits(me)), scratch, 0)
    opts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
    for i, c in enumerate(sorted(me)):
        opts[i, 0] = c
        opts[i, 1] = scratch[c]
    return opts


TURNS = [(20, 5, "stock"), (51, 33, "took")]  # the opponent's turns in the no-peeking states
INFORMED_ALL = "informed:swap=0,wary=1,finish=50,late=2,fall=1,reach=3,fade=20"  # every informed rule on


@pytest.mark.parametrize("spec", ["informed", "informed:safe=4,hint=2", INFORMED_ALL, "mc", "mc:k=24,draw=1,knock=1",
                                  "mc:k=24,filter=0,z=0,draw=1,knock=1", MC_ALL, "deep"])
def test_no_peeking_same_view_same_decision_g_info_1(spec):
    # G-INFO-1: two states the player cannot tell apart — the same own hand, pile, pickups,
    # discards and passes, but different hidden cards (the opponent's unknown cards and the stock)
    # — give the same view and, from the same rng state, the same decision at every searched
    # decision (discard, draw, knock), with the rng left in the same state. The opponent's turns
    # are public (the same record in both); `deep` walks sampled hands back through them.
    rng0 = np.random.default_rng(17)
    me = [0, 1, 2, 16, 17, 31, 44, 12, 25, 38, 9]  # 11 cards: the discard decision
    pile = [5, 20, 51]
    took = [[], [33]]  # the opponent took the 8 of diamonds (33) from the pile: known in its hand
    discs = [[5], [20, 51]]
    passed = [[], [20]]
    rest = [c for c in range(52) if c not in me + pile + [33]]
    strat = GAME.strategies([spec], 2)[0]
    _, params = seat_arrays([strat])
    decide = strat.family.decide

    decisions = []
    for _trial in range(2):
        hidden = list(rng0.permutation(rest))
        opp = [33] + hidden[:9]  # different opponents' hands (and stock orders) each trial
        view, rules = build_view(me, opp, pile, took, discs, passed, stock_n=len(hidden) - 9, turns=TURNS)
        assert S.unseen_cards(view) == bits(hidden)  # the sampler's pool: the hidden cards, all of them
        assert S.known_opp(view) == bits([33])
        got = []
        hand = np.array(sorted(me), dtype=np.int64)
        opts = discard_options(me)
        rng = new_state(5, 0)
        got.append(decide(L.K_DISCARD, params[0], hand, 11, opts, 11, view, rules, rng))
        # the draw decision of the 10 cards without the 9 of clubs (47), top card 51
        me10 = [c for c in me if c != 9]
        view10, rules = build_view(me10, opp, pile, took, discs, passed, stock_n=len(hidden) - 8, turns=TURNS)
        dopts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
        dopts[0, 1] = -1
        dopts[1] = [1, 51, 0, 0]
        got.append(decide(L.K_DRAW, params[0], np.array(sorted(me10), dtype=np.int64), 10, dopts, 2,
                                  view10, rules, rng))
        kopts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
        kopts[0] = [0, 8, 0, 0]
        kopts[1] = [1, 8, 0, 0]
        got.append(decide(L.K_KNOCK, params[0], np.array(sorted(me10), dtype=np.int64), 10, kopts, 2,
                                  view10, rules, rng))
        got.append(int(rng[0]))
        decisions.append((view.copy(), got))
    assert decisions[0][0][L.V_OPP_TURNS] == 2 and (decisions[0][0] == decisions[1][0]).all()
    assert decisions[0][1] == decisions[1][1]


def test_sampled_deals_respect_the_view():
    # The opponent gets its known pickups plus unseen cards up to 10; the stock is the rest of the
    # unseen cards; nothing of the own hand or the pile is dealt (with and without the filter).
    rng = new_state(9, 0)
    pool = np.arange(20, 52, dtype=np.int64)
    buf = np.empty(52, dtype=np.int64)
    stock = np.empty(52, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    known = np.int64(bits([3, 4]))
    for extra in (0, 5):
        for _ in range(50):
            opp = S.sample_deal(pool, len(pool), 8, extra, known, buf, stock, scratch, 0, rng)
            opp_cards = [c for c in range(52) if opp >> c & 1]
            assert len(opp_cards) == 10 and {3, 4} <= set(opp_cards)
            st = sorted(stock[:len(pool) - 8])
            assert sorted(st + [c for c in opp_cards if c >= 20]) == list(range(20, 52))


def test_mc_search_finds_the_gin_draw():
    # Taking the 7 of hearts completes 4-5-6-7 of hearts; the rollouts see it.
    me = [0, 1, 2, 16, 17, 18, 32, 45, 12, 24]
    view, rules = build_view(me, list(range(26, 36)), [19], [[], []], [[], []], [[], []], stock_n=31)
    strat = GAME.strategies(["mc:k=64,z=0,draw=1"], 2)[0]
    _, params = seat_arrays([strat])
    opts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
    opts[0, 1] = -1
    opts[1] = [1, 19, 0, 0]
    assert strat.family.decide(L.K_DRAW, params[0], np.array(sorted(me), dtype=np.int64), 10, opts, 2,
                          view, rules, new_state(1, 0)) == 1


def test_engines_agree_informed_and_mc():
    # Every table seats both families: they share one engine (the contract's and the presets'
    # below); each family without the other is an engine of its own (~40 s of CPU cold), played
    # in the slow lane's test after this one.
    rules = GAME.build_rules("standard")
    assert_same_game(rules, [INFORMED_ALL, MC], 24, range(2))
    assert_same_game(rules, [MC, "informed:safe=3,hint=1,outs=2"], 22, range(2))
    assert_same_game(rules, ["informed", MC_ALL], 24, range(1))


@pytest.mark.slow
def test_engines_agree_informed_alone_and_mc_alone():
    rules = GAME.build_rules("standard")
    assert_same_game(rules, ["informed", "simple"], 21, range(4))
    assert_same_game(rules, [INFORMED_ALL, "informed"], 24, range(2))
    assert_same_game(rules, ["simple", MC_ALL], 24, range(1))


@pytest.mark.parametrize("variant", ["oklahoma", "straight", "deal-11", "three-player", "four-player", "mahjong",
                                     "tedesco"])
def test_engines_agree_mc_on_presets(variant):
    # mc plays every preset: the searches on every two-player table hand (G-V-OKLA limits,
    # G-V-STRAIGHT gin only, G-V-DEAL11, G-V-3P, team tables), the informed heuristic under G-V-MJ.
    rules = GAME.build_rules(variant, {"game_target": 40} if variant not in ("mahjong",) else {})
    players = rules.players
    specs = ([MC, "informed"] * 4)[:players]
    assert_same_game(rules, specs, 23, range(1))


def test_mc_same_results_any_thread_count():
    import numba

    rules = GAME.build_rules("standard")
    run = GAME.new_run(rules, 2, GAME.strategies(["mc:k=4", "informed"], 2))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        g1, _ = run.play(8, 0, 6, True)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        g2 = run.play(8, 0, 3, True)[0], run.play(8, 3, 3, True)[0]
    finally:
        numba.set_num_threads(before)
    import pandas as pd

    pd.testing.assert_frame_equal(g1, pd.concat(g2, ignore_index=True))


def informed_params(spec):
    return seat_arrays(GAME.strategies([spec], 2))[1][0]


def test_informed_knock_threshold_g_knock_1():
    # G-KNOCK-1 timing: gin_after (default 8: only gin from own turn 8), late/fall (lower the
    # threshold per own turn), wary (per card the opponent holds from the pile), finish (full
    # limit near the target); never below 0, so gin always goes out.
    me = [0, 1, 2, 16, 17, 31, 44, 12, 25, 38]
    view, rules = build_view(me, [], [5], [[], [20]], [[5], []], [[], []], stock_n=20)
    assert S.known_opp(view) == bits([20])  # the opponent took the 8 of diamonds and holds it
    view[L.V_TARGET], view[L.V_OPP_SCORE] = 100, 0

    def thr(spec, my_turns, my_score=0):
        view[L.V_MY_TURNS] = my_turns
        view[L.V_MY_SCORE] = my_score
        return I.informed_threshold(informed_params(spec), view)

    assert thr("informed", 6) == 10 and thr("informed", 7) == 0
    late = "informed:gin_after=99,late=3,fall=2"
    assert [thr(late, t) for t in (0, 1, 2, 4, 30)] == [10, 10, 8, 4, 0]
    assert thr("informed:gin_after=99,wary=2.5", 0) == 7.5
    assert thr("informed:finish=20", 12, my_score=79) == 0
    assert thr("informed:finish=20", 12, my_score=80) == 10
    kopts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
    kopts[1] = [1, 0, 0, 0]
    view[L.V_MY_TURNS] = 30
    hand = np.array(sorted(me), dtype=np.int64)
    assert S.informed_decide(L.K_KNOCK, informed_params(late), hand, 10, kopts, 2, view, rules,
                             new_state(1, 0)) == 1  # gin goes out whatever the threshold


def test_informed_out_credit_reach_and_fade():
    # outs counts the unseen cards that would be melded with the kept 10, reach their mean melded
    # deadwood (checked against the exact solver), and fade scales both down to 0 at own turn fade + 1.
    m10 = [0, 13, 4, 5, 20, 34, 35, 48, 11, 50]
    mask = np.int64(bits(m10))
    dw = min_deadwood(m10)
    unseen_l = [c for c in range(52) if c not in m10 and c % 3 != 0]
    unseen = np.int64(bits(unseen_l))
    gains = [dw + VALUES_MV[0, u] - min_deadwood(m10 + [u]) for u in unseen_l]
    want_n = sum(g > 0 for g in gains)
    want_pts = sum(g for g in gains if g > 0)
    assert want_n > 3 and want_pts > 0
    assert I.out_stats(mask, dw, unseen, 0) == (want_n, want_pts)
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    p = informed_params("informed:outs=1.5,reach=2,fade=10")
    full = 1.5 * want_n + 2 * want_pts / len(unseen_l)
    for turns, scale in ((0, 1.0), (5, 0.5), (10, 0.0), (20, 0.0)):
        view[L.V_MY_TURNS] = turns
        assert I.out_credit(p, view, mask, dw, unseen, 0) == pytest.approx(full * scale)


def test_informed_swap_takes_a_card_that_improves_the_score():
    # swap: the gain of taking the pile's top card is the informed score of the 10 held cards minus
    # the best score after taking it and throwing another card (G-TURN-2: not the card taken);
    # informed takes it exactly when the gain reaches swap (the card melds with nothing here and
    # take is off, so only swap can take it).
    me = [0, 14, 28, 42, 4, 18, 32, 7, 21, 48]  # A, 2, 3, 4 of four suits, 5s, 8s, 10: no meld
    card = 11  # the queen of the first suit: no meld either
    view, rules = build_view(me, [], [card], [[], []], [[], [card]], [[], []], stock_n=20)
    view[L.V_MY_TURNS] = 1
    unseen = S.unseen_cards(view)
    p = informed_params("informed:take=99,gin_after=99")

    def score(cards):
        dw = min_deadwood(cards)
        return dw - I.out_credit(p, view, np.int64(bits(cards)), dw, unseen, 0)

    want = score(me) - min(score([x for x in me if x != c] + [card]) for c in me)
    assert I.swap_gain(p, view, card, unseen, rules) == pytest.approx(want)
    dw10 = min_deadwood(me)
    dw11 = min_deadwood(me + [card])
    assert dw11 == dw10 + VALUES_MV[0, card]  # the queen melds with nothing
    after = min(min_deadwood([x for x in me if x != c] + [card]) for c in me)
    for swap, took in ((want, True), (want + 0.01, False)):
        q = p.copy()
        q[I.P_SWAP] = swap
        assert I.informed_wants(L.K_DRAW, card, dw10, dw11, after, q, view, rules, unseen) == took


def test_fitted_deal_keeps_hands_that_fit_the_opponents_throws():
    # The opponent discarded/declined the 7s of spades and hearts (6, 19) and the 10 of diamonds
    # (35): a simple-like player keeps a card that melds, so a hand holding two more 7s, or a run
    # through the 10 of diamonds, is unlikely. With tries the kept samples avoid them; the deal is
    # still a partition of the pool (10 cards to the opponent, the rest the stock).
    rng = new_state(3, 0)
    shown = np.int64(bits([6, 19, 35]))
    pool = np.array([c for c in range(52) if c not in (6, 19, 35, 0, 1, 2, 3, 4)], dtype=np.int64)
    buf = np.empty(52, dtype=np.int64)
    stock = np.empty(52, dtype=np.int64)
    best_stock = np.empty(52, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    odd = {}
    for tries in (1, 32):
        odd[tries] = 0
        for _ in range(300):
            smp = S.Sampler(pool, len(pool), 10, 0, np.int64(0), shown, tries, -1, -1, 0, 10, NO_VIEW, 0)
            opp = S.fitted_deal(smp, buf, stock, best_stock, scratch, rng)
            odd[tries] += S.odd_cards(opp, shown, 0) > 0
            opp_cards = [c for c in range(52) if opp >> c & 1]
            assert len(opp_cards) == 10
            assert sorted(list(stock[:len(pool) - 10]) + opp_cards) == sorted(pool)
    assert odd[1] > 30 and odd[32] == 0


def test_odd_cards_counts_throws_that_meld_with_the_hand():
    # the 7 of spades (6) melds with the 7s of diamonds and clubs (32, 45); the 4 of spades (3)
    # melds with nothing in the hand
    hand = np.int64(bits([32, 45, 0, 14, 28, 9, 23, 11, 25, 51]))
    assert S.odd_cards(hand, np.int64(bits([6])), 0) == 1
    assert S.odd_cards(hand, np.int64(bits([6, 3])), 0) == 1
    assert S.odd_cards(hand, np.int64(bits([3])), 0) == 0


def test_rollout_own_knock_threshold_and_take():
    # The player holds A-2-3 of spades, the 4s of hearts, diamonds, clubs, 7-8-9 of hearts and the
    # 2 of hearts (deadwood 2), the opponent a hand far from knocking. From the stock (the 10 of
    # spades comes first) simple throws it and knocks at once; with rknock=0 the player plays on.
    me = np.int64(bits([0, 1, 2, 16, 29, 42, 19, 20, 21, 14]))
    opp = np.int64(bits([4, 5, 30, 31, 47, 48, 8, 36, 37, 50]))
    stock = np.array([9, 10, 22, 23, 24, 33, 34, 11, 12, 25, 38, 51][::-1], dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    ends = np.zeros((S.ENDS_ROWS, 14), dtype=np.int64)
    idx = np.zeros(S.ENDS_ROWS, dtype=np.int64)
    rules = GAME.build_rules("standard").encode()
    dw_opp = S.deadwood(opp, 0)

    def run(top, force, take, knock, turn=1, gin=99.0):
        plan = S.Plan(rules, 0, 10, stock.copy(), len(stock), scratch, ends, idx, take, knock, gin, 0.0, 0.0)
        return S.rollout(plan, me, opp, 2, dw_opp, top, 0, force, turn, 0, 0)

    at_once = run(-1, -1, 99.0, 99.0)
    assert at_once == S.knock_points(me, opp, rules, 0, ends, idx) > 0
    assert run(-1, -1, 99.0, 0.0) != at_once
    # rgin (G-KNOCK-1, informed's gin_after): from own turn 8 on only gin; before it, the knock
    assert run(-1, -1, 99.0, 99.0, turn=7, gin=8.0) == at_once
    assert run(-1, -1, 99.0, 99.0, turn=8, gin=8.0) == run(-1, -1, 99.0, 0.0)
    # the ace of hearts (13) on the pile: no meld, no knock at rknock=0, but it lowers the deadwood
    # by 1 (it replaces the 2 of hearts): simple draws from the stock, rtake=1 takes it
    assert run(13, -1, 99.0, 0.0) == run(13, 0, 99.0, 0.0)
    assert run(13, -1, 1.0, 0.0) == run(13, 1, 99.0, 0.0)
    assert run(13, 1, 99.0, 0.0) != run(13, 0, 99.0, 0.0)


def test_early_stop_rule():
    total = np.array([0.0, 50.0, -40.0])
    total2 = np.array([0.0, 2.0 * 40, 2.0 * 40])
    assert S.settled(total, total2, 3, 40, 2.0)  # both far from 0: means 1.25 and -1 (SE 0.10 and 0.16)
    total[2] = -2.0
    assert not S.settled(total, total2, 3, 40, 2.0)  # one undecided: mean -0.05, SE 0.22


def test_prune_skips_rollouts_of_clearly_worse_discards():
    # Discarding the king of clubs (51) leaves deadwood 2; every other discard breaks a meld or
    # keeps the king (informed scores 8+ points worse): with prune=5 mc plays the heuristic's discard without
    # sampling (the rng is untouched); without prune it samples.
    me = [0, 1, 2, 16, 29, 42, 19, 20, 21, 14, 51]
    view, rules = build_view(me, list(range(30, 40)), [5], [[], []], [[5], []], [[], []], stock_n=30)
    opts = discard_options(me)
    for spec, moved in (("mc:prune=5", False), ("mc", True)):
        strat = GAME.strategies([spec], 2)[0]
        _, params = seat_arrays([strat])
        rng = new_state(4, 0)
        before = rng.copy()
        a = strat.family.decide(L.K_DISCARD, params[0], np.array(sorted(me), dtype=np.int64), 11, opts, 11, view, rules,
                                rng)
        assert opts[a, 0] == 51
        assert (rng != before).any() == moved


# A-2-3 of spades and 5-6-7 of diamonds melded; J-Q of hearts (23, 24) a run draw; the 9 of clubs
# (47), 8 of spades (7) and 4 of clubs (42) alone
DRAW_HAND = [0, 1, 2, 30, 31, 32, 23, 24, 47, 7, 42]


def test_meld_outs_are_the_cards_that_would_meld():
    # meld_outs (mc's cheap out count in rollouts) against the exact definition: a card is an out
    # when adding it lowers the deadwood by less than its value (G-MELD-4: it goes into a meld)
    kept = [c for c in DRAW_HAND if c != 47]
    exact = {u for u in range(52) if u not in kept
             and min_deadwood(kept + [u]) < min_deadwood(kept) + VALUES_MV[0, u]}
    got = S.meld_outs(np.int64(bits(kept)), False)
    assert {c for c in range(52) if got >> c & 1} == exact == {3, 29, 33, 22, 25}
    pair = S.meld_outs(np.int64(bits([6, 19])), False)  # two 7s: the other two 7s
    assert {c for c in range(52) if pair >> c & 1} == {32, 45}
    corner = S.meld_outs(np.int64(bits([12, 0])), True)  # K-A of spades round the corner (G-V-TED): Q, 2
    assert {c for c in range(52) if corner >> c & 1} == {11, 1}


def test_rollout_own_discard_keeps_live_outs():
    # simple throws the queen of hearts (10 points, the higher rank of the tie with the jack); with
    # the outs credit (mc's rout) the player throws the 9 of clubs instead and keeps the J-Q of
    # hearts with its two live outs (10 and K of hearts) — unless both are dead (in the pile)
    m11 = np.int64(bits(DRAW_HAND))
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    removal_deadwoods(m11, scratch, 0)
    assert S.own_discard(m11, -1, scratch, 0, 0.0, np.int64(0), False)[0] == 24
    assert S.simple_discard(m11, -1, scratch, 0)[0] == 24
    c, dw = S.own_discard(m11, -1, scratch, 0, 1.0, np.int64(0), False)
    assert c == 47 and dw == min_deadwood([x for x in DRAW_HAND if x != 47])
    assert S.own_discard(m11, -1, scratch, 0, 1.0, np.int64(bits([22, 25])), False)[0] == 24
    # in a rollout: the player holds the 10 cards without the 9 of clubs and draws it from the
    # stock; simple throws the queen of hearts, rout the 9 of clubs; the opponent (a run of
    # diamonds, 22 points of 5s and 6s) draws and throws the king of clubs; the player draws the 10
    # of hearts: with the J-Q of hearts kept (rout) it melds 10-J-Q, throws the 8 of spades and
    # knocks with 4; the simple hand cannot knock yet
    me = np.int64(bits([c for c in DRAW_HAND if c != 47]))
    opp = np.int64(bits([4, 5, 17, 18, 33, 34, 35, 36, 37, 38]))
    stock = np.array([47, 51, 22, 10, 11, 12, 13, 14, 15, 26, 27, 28][::-1], dtype=np.int64)  # drawn from the end
    ends = np.zeros((S.ENDS_ROWS, 14), dtype=np.int64)
    idx = np.zeros(S.ENDS_ROWS, dtype=np.int64)
    rules = GAME.build_rules("standard").encode()
    dw10 = min_deadwood([c for c in DRAW_HAND if c != 47])

    def run(rout):
        plan = S.Plan(rules, 0, 10, stock.copy(), len(stock), scratch, ends, idx, 99.0, 99.0, 99.0, rout, 0.0)
        return S.rollout(plan, me, opp, dw10, S.deadwood(opp, 0), -1, 0, 0, 1, np.int64(0), np.int64(0))

    knocked = run(1.0)
    melds_with_kq = [0, 1, 2, 30, 31, 32, 22, 23, 24, 42]  # deadwood 4: the 4 of clubs
    opp_after = np.int64(bits([4, 5, 17, 18, 33, 34, 35, 36, 37, 38]))
    assert knocked == S.knock_points(np.int64(bits(melds_with_kq)), opp_after, rules, 0, ends, idx) > 0
    assert run(0.0) != knocked
    assert run(0.0) != run(1.0)


def test_misfit_counts_what_simple_would_not_have_done_g_knock_1():
    # the opponent discarded and played on: simple knocks at deadwood <= the limit, so a sampled
    # hand with deadwood 10 or less is unlikely (cap); its latest discard was a lowest-deadwood one
    # (last): a hand holding an unmatched king would have thrown it rather than the 3 of spades
    low = np.int64(bits([0, 1, 2, 16, 29, 42, 19, 20, 21, 9]))  # deadwood 10
    assert S.misfit(low, np.int64(0), -1, -1, np.int64(0), 0, NO_VIEW, 0, 10, RNG) == 0
    assert S.misfit(low, np.int64(0), 10, -1, np.int64(0), 0, NO_VIEW, 0, 10, RNG) == 1
    assert S.misfit(low, np.int64(0), 9, -1, np.int64(0), 0, NO_VIEW, 0, 10, RNG) == 0
    kinged = np.int64(bits([0, 1, 2, 16, 29, 42, 19, 20, 21, 51]))  # the king of clubs unmatched
    assert S.misfit(kinged, np.int64(0), -1, 4, np.int64(0), 0, NO_VIEW, 0, 10, RNG) == 1  # it threw the 5 of spades
    assert S.misfit(kinged, np.int64(0), -1, 12, np.int64(0), 0, NO_VIEW, 0, 10, RNG) == 0  # it threw the king of spades
    assert S.misfit(kinged, np.int64(0), -1, 4, np.int64(bits([51])), 0, NO_VIEW, 0, 10, RNG) == 0  # the king just taken


def record(card, top, how):
    """A turn as layout.V_OPP_HIST records it (the layout's documented bit fields)."""
    return card | ((63 if top < 0 else top) << 6) | {"took": 1 << 12, "stock": 1 << 13, "none": 0}[how]


def with_record(view, turns):
    view = view.copy()
    view[L.V_OPP_TURNS] = len(turns)
    for i, t in enumerate(turns):
        view[L.V_OPP_HIST + i // 4] |= record(*t) << (16 * (i % 4))
    return view


def test_history_misfit_walks_the_opponents_turns_back_g_knock_1():
    # The opponent holds `hand` now; each recorded turn counts against it what a simple-like player
    # would not have done with the cards it held then.
    rng = new_state(4, 0)
    hand = [1, 2, 3, 6, 19, 32, 8, 22, 23, 24]  # 2-3-4 S, 7 S H D, 9 S, 10-J-Q H: deadwood 9
    view = with_record(np.zeros(L.VIEW_SIZE, dtype=np.int64), [])
    opp = np.int64(bits(hand))
    assert S.history_misfit(opp, view, 32, 5, 0, rng) == 0  # no turns: nothing to check
    # it took the 4 of spades (3) from the pile and threw the king of clubs (51): fine
    took = with_record(view, [(51, 3, "took")])
    assert S.history_misfit(opp, took, 32, 5, 0, rng) == 0
    # the hand it kept has deadwood 9: with a knock limit of 10 simple would have knocked
    assert S.history_misfit(opp, took, 32, 10, 0, rng) == 1
    # it threw the 3 of clubs (41) holding the 9 of spades unmatched: not a lowest-deadwood discard
    assert S.history_misfit(opp, with_record(view, [(41, 3, "took")]), 32, 5, 0, rng) == 1
    # it drew from the stock leaving the 7 of clubs (45) on the pile: it melds with the 7s, whichever
    # card the draw brought
    left = with_record(view, [(51, 45, "stock")])
    assert all(S.history_misfit(opp, left, 32, 5, 0, rng) == 1 for _ in range(20))
    # ... but the 6 of diamonds (31) would not have melded, and depth 0 checks nothing
    assert all(S.history_misfit(opp, with_record(view, [(51, 31, "stock")]), 32, 5, 0, rng) == 0
               for _ in range(20))
    assert S.history_misfit(opp, left, 0, 5, 0, rng) == 0
    # two turns: the older one is checked on the hand before the newer draw. Leaving the 5 of
    # spades (4) melds with 2-3-4 of spades now (most draws), but the 4 came from the pile at the
    # second turn: at the first the hand held no 4 and leaving the 5 was fine
    assert sum(S.history_misfit(opp, with_record(view, [(51, 4, "stock")]), 32, 5, 0, rng)
               for _ in range(200)) > 120
    two = with_record(view, [(50, 4, "stock"), (51, 3, "took")])
    assert all(S.history_misfit(opp, two, 32, 5, 0, rng) == 0 for _ in range(20))


def decoded(view):
    """The opponent's turns from the view: (card thrown, top card it drew at or -1, how)."""
    out = []
    for i in range(int(view[L.V_OPP_TURNS])):
        r = int(view[L.V_OPP_HIST + i // 4]) >> (16 * (i % 4)) & 0xFFFF
        top = r >> 6 & 63
        how = "took" if r & (1 << 12) else "stock" if r & (1 << 13) else "none"
        out.append((r & 63, -1 if top == 63 else top, how))
    return out


def turns_in_log(log, hand, seat):
    """The same, read off a reference transcript of the hand so far."""
    out, top, draw = [], -1, None
    for row in log:
        ev, h, who = row[0], row[1], row[2]
        if h != hand:
            continue
        if ev == K.EV_UPCARD:
            top = row[3]
        elif ev == K.EV_DRAW and who == seat:
            draw = (row[4], "took") if row[3] == 1 else (top, "stock")
        elif ev == K.EV_DISCARD:
            if who == seat:
                out.append((row[3], *(draw if draw is not None else (-1, "none"))))
            top, draw = row[3], None
    return out


@pytest.mark.parametrize("variant,overrides", [("standard", {}), ("deal-11", {}),
                                               ("oklahoma", {"knock_card": "second_deck"})])
def test_the_view_records_the_opponents_turns_in_order_g_info_1(variant, overrides):
    # G-INFO-1: what the opponent did is public, in order: the view's turn record at every decision
    # is the opponent's draws and discards of the hand as the transcript has them.
    from simcards.games.gin.game import engine_for
    from simcards.games.gin.reference import ReferenceGame

    rules = GAME.build_rules(variant, {"game_target": 60, **overrides})
    strats = GAME.strategies(["simple", "knock:max=4"], 2)
    decide = engine_for(strats)[0]
    sids, params = seat_arrays(strats)
    checked = 0

    def spy(kind, sid, par, hand, n, opts, n_opts, view, enc, rng):
        nonlocal checked
        o = game.opponent(int(view[L.V_SEAT]))
        assert decoded(view) == turns_in_log(game.record.log, int(view[L.V_HAND]), o)
        checked += int(view[L.V_OPP_TURNS])
        return decide(kind, sid, par, hand, n, opts, n_opts, view, enc, rng)

    game = ReferenceGame(rules, sids, params, 8, 0, spy)
    game.play()
    assert checked > 200


def test_strict_checks_read_the_view():
    me = [0, 1, 2, 16, 17, 31, 44, 12, 25, 38]
    view, _ = build_view(me, [], [5, 20], [[], []], [[5], [20]], [[], []], stock_n=20)
    assert S.strict_checks(view) == (10, 20)  # the opponent's latest discard is the top
    view[L.V_TAKEN] = 20
    assert S.strict_checks(view) == (10, 20)  # taken by the player this turn
    view2, _ = build_view(me, [], [5], [[], []], [[5], []], [[], []], stock_n=20)
    assert S.strict_checks(view2) == (-1, -1)  # it has not discarded this hand


@pytest.mark.parametrize("mv", [0, 1])
def test_rollout_take_shortcut_is_exact(mv):
    # cannot_want (the rollouts skip the take computation with it) may say "declines" only when
    # the take rule computed in full declines too: the card melds with nothing (G-MELD-4), the best
    # discard after taking it cannot knock at `at` nor gain `take`; and it must fire often (it is
    # what makes the rollouts faster). mv 1: runs round the corner, aces 15 (G-V-TED).
    rng = np.random.default_rng(11)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    corner = S.CORNER[mv] != 0
    vmax = VALUES_MV[mv].max()
    skipped = 0
    for _ in range(3000):
        cards = rng.choice(52, 11, replace=False)
        m, top = np.int64(bits(cards[:10])), int(cards[10])
        dw = S.deadwood(m, mv)
        at = float(rng.choice([0, 5, 10, 99]))
        take = float(rng.choice([2, 6, 99]))
        m11 = m | (np.int64(1) << top)
        dw11 = removal_deadwoods(m11, scratch, mv)
        after = S.simple_discard(m11, top, scratch, mv)[1]
        wants = dw11 < dw + VALUES_MV[mv, top] or after <= at or dw - after >= take
        if S.cannot_want(m, dw, top, at, vmax, take, corner, mv):
            skipped += 1
            assert not wants
    assert skipped > 600
