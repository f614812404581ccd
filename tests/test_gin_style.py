"""mc's model of the opponent's style (issue 29): the rollouts' opponent that stops knocking
(``ogin``, ``rollout_vs``) and the style read from each sampled hand (``style``, on by default
since mc took reader's sampler; deep pins it off, so its search digest, tests/test_golden_digests.py,
is unchanged); these check what the parameters do, that mc still sees only its own view (G-INFO-1) and that both engines agree."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.games.gin import search as S
from simcards.games.gin.game import GAME, seat_arrays
from simcards.games.gin.melds import SCRATCH_SIZE
from simcards.rng import new_state
from tests.test_gin_engines import assert_same_game
from tests.test_gin_strong import bits, build_view
from tests.test_gin_strong import test_no_peeking_same_view_same_decision_g_info_1 as same_view_same_decision

STYLED = "mc:k=12,style=2,ogin=5,depth=5,fit=6"


def test_rollout_opponent_goes_for_gin_after_its_knocks_g_knock_1():
    # The opponent (to draw first) holds A-2-3 of spades, the 4s of hearts, diamonds and clubs, 7-8-9
    # of hearts and the 2 of hearts (deadwood 2); the player a hand far from knocking. Drawing the 10
    # of spades, the opponent throws it and knocks at once while it still knocks (simple, G-KNOCK-1);
    # with no knocks left it plays on for gin, and the hand ends otherwise.
    opp = np.int64(bits([0, 1, 2, 16, 29, 42, 19, 20, 21, 14]))
    me = np.int64(bits([4, 5, 30, 31, 47, 48, 8, 36, 37, 50]))
    stock = np.array([9, 10, 22, 23, 24, 33, 34, 11, 12, 25, 38, 51][::-1], dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    ends = np.zeros((S.ENDS_ROWS, 14), dtype=np.int64)
    idx = np.zeros(S.ENDS_ROWS, dtype=np.int64)
    rules = GAME.build_rules("standard").encode()
    dw_me = S.deadwood(me, 0)

    def run(opp_knocks=None):
        plan = S.Plan(rules, 0, 10, stock.copy(), len(stock), scratch, ends, idx, 99.0, 99.0, 99.0, 0.0, 0.0)
        if opp_knocks is None:
            return S.rollout(plan, me, opp, dw_me, 2, -1, 1, -1, 1, 0, 0)
        return S.rollout_vs(plan, me, opp, dw_me, 2, -1, 1, -1, 1, 0, 0, opp_knocks)

    at_once = -S.knock_points(opp, me, rules, 0, ends, idx)
    assert at_once < 0
    assert run() == run(S.ROLLOUT_TURNS) == run(1) == at_once  # rollout: the simple opponent
    assert run(0) != at_once


def test_mc_params_listed():
    names = [p.name for p in GAME.families()["mc"].params]
    assert names[-3:] == ["ogin", "style", "patience"]
    defaults = {p.name: p.default for p in GAME.families()["mc"].params}
    assert defaults["ogin"] == 99 and defaults["patience"] == 99  # off


def test_mc_defaults_are_the_reader_sampler_and_deep_reads_no_style():
    # mc's sampler defaults are reader's (issue 29: the old filter=20, fit=8 sampler lost to every
    # panel member but simple); deep, which predates style, pins style=0 so its games are unchanged.
    import tomllib

    from simcards.presets import strategy_preset

    defaults = {p.name: p.default for p in GAME.families()["mc"].params}
    reader = tomllib.loads(strategy_preset("gin", "reader").read_text())["params"]
    deep = tomllib.loads(strategy_preset("gin", "deep").read_text())["params"]
    sampler = ("filter", "fit", "depth", "seen", "style")
    assert {name: defaults[name] for name in sampler} == {name: reader[name] for name in sampler}
    assert deep["style"] == 0 and defaults["style"] > 0


def test_style_keeps_sampled_hands_that_passed_a_knock_g_knock_1():
    # The opponent has drawn from the stock and discarded twice without knocking (G-KNOCK-1). Reading
    # its turns as simple's (depth), the sampler pushes out hands within the knock limit: simple would
    # have knocked with them. With style=2 (from its 2nd turn on) such a hand is a style (a player
    # going for gin), kept.
    me = [0, 1, 2, 16, 17, 31, 44, 12, 25, 38, 9]
    opp = [33, 3, 4, 5, 22, 23, 24, 48, 49, 50]
    view, rules = build_view(me, opp, [20, 51], [[], []], [[], [20, 51]], [[], []], stock_n=20,
                             turns=[(20, 7, "stock"), (51, 8, "stock")])
    pool = np.empty(52, dtype=np.int64)
    known, n_opp, n_pool, _ = S.deal_space(view, pool)
    buf, stock, best_stock = (np.empty(52, dtype=np.int64) for _ in range(3))
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    low = {}
    for style in (0, 2):
        _, params = seat_arrays(GAME.strategies([f"mc:depth=5,fit=12,filter=6,strict=1,style={style}"], 2))
        extra, shown, tries, cap, last, depth = S.sampler_terms(params[0], view)
        assert (cap, last) == (10, 51)  # strict: it discarded without knocking; its latest discard is the top
        cap, limit = S.style_checks(params[0], view, cap, 10)
        assert (cap, limit) == ((10, 10) if style == 0 else (-1, -1))
        smp = S.Sampler(pool, n_pool, n_opp, extra, known, shown, tries, cap, last, depth, limit, view, 0)
        rng = new_state(3, 0)
        hands = [S.fitted_deal(smp, buf, stock, best_stock, scratch, rng) for _ in range(300)]
        low[style] = sum(S.deadwood(np.int64(h), 0) <= 10 for h in hands)
    assert low[2] > 2 * low[0] + 5
    # before its style-th turn every panel style knocks as simple does: the checks stay
    _, params = seat_arrays(GAME.strategies(["mc:strict=1,style=3"], 2))
    assert S.style_checks(params[0], view, 10, 10) == (10, 10)


def test_no_peeking_with_style_g_info_1():
    same_view_same_decision(STYLED)
    same_view_same_decision("deep:style=1,ogin=6")


@pytest.mark.parametrize("variant", ["standard", "eaai"])
def test_engines_agree_mc_with_style(variant):
    rules = GAME.build_rules(variant)
    assert_same_game(rules, [STYLED, "camper"], 22, range(1))


def waited_seen(variant, specs, seed, games):
    """Per game, what each seat's decisions were shown as its opponent's V_OPP_WAITED, hand by hand
    (reference engine), and the game records."""
    from simcards.games.gin import layout as L
    from simcards.games.gin.game import engine_for
    from simcards.games.gin.reference import play_reference

    rules = GAME.build_rules(variant)
    strats = GAME.strategies(specs, 2)
    decide = engine_for(strats)[0]
    sids, params = seat_arrays(strats)
    out = []
    for g in games:
        shown = {0: {}, 1: {}}

        def record(kind, sid, p, hand, n, opts, n_opts, view, r, rng, shown=shown):
            shown[int(view[L.V_SEAT])].setdefault(int(view[L.V_HAND]), set()).add(int(view[L.V_OPP_WAITED]))
            return decide(kind, sid, p, hand, n, opts, n_opts, view, r, rng)

        out.append((shown, play_reference(rules, sids, params, seed, g, record)))
    return out


def test_a_player_that_knocks_when_it_can_is_never_seen_waiting_g_knock_1():
    # simple knocks whenever its hand allows (G-KNOCK-1): no laid-out hand of it could have knocked
    # after its last discard. The player that waits for gin (gin_after=1) is seen waiting once simple
    # knocks while its kept hand was within the limit, and from then on in every hand of that game.
    seen_waiting = 0
    for shown, rec in waited_seen("standard", ["knock:gin_after=1", "simple"], 5, range(6)):
        assert all(v == {0} for v in shown[0].values())  # the waiter's view of simple: never waited
        by_hand = [min(shown[1][h]) for h in sorted(shown[1])]  # simple's view of the waiter
        assert by_hand[0] == 0  # nothing seen before the first hand ends
        assert all(len(shown[1][h]) == 1 for h in shown[1])  # fixed within a hand
        first = next((i for i, v in enumerate(by_hand) if v > 0), None)
        if first is not None:
            seen_waiting += 1
            assert all(v > 0 for v in by_hand[first:])  # the earliest turn seen: kept for the game
            assert all(b <= a for a, b in zip(by_hand[first:], by_hand[first + 1:]))  # and only lowered
            assert rec.hands[first - 1].knocker == 1  # shown by simple's knock in the hand before
    assert seen_waiting >= 3


def test_patience_waits_only_until_the_opponent_is_seen_waiting_g_knock_1():
    # patience: gin_after and rgin brought forward while the opponent has not been seen waiting
    from simcards.games.gin import layout as L

    _, params = seat_arrays(GAME.strategies(["mc:patience=5,gin_after=8,rgin=8"], 2))
    patient = S.patient(params[0])
    assert patient[S.P_GIN_AFTER] == 5 and patient[S.P_RGIN] == 5 and params[0][S.P_GIN_AFTER] == 8
    # the kernel's decision: a hand that could knock at own turn 6, the opponent never seen waiting
    # plays on for gin; once seen waiting (it is a patient player), it knocks as informed would
    me = [0, 1, 2, 16, 17, 18, 29, 30, 31, 44]  # A-2-3 of spades, 4-5-6 of hearts and of diamonds, 6 of clubs
    view, rules = build_view(me, [], [], [[], []], [[], []], [[], []], stock_n=20)
    view[L.V_MY_TURNS] = 6
    opts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
    opts[0] = (0, 6, 0, 0)
    opts[1] = (1, 6, 0, 0)
    hand = np.zeros(L.MAX_HAND, dtype=np.int64)
    hand[:10] = me
    choices = {}
    for waited in (0, 3):
        view[L.V_OPP_WAITED] = waited
        choices[waited] = S.mc_decide(L.K_KNOCK, params[0], hand, 10, opts, 2, view, rules, new_state(1, 0))
    assert choices == {0: 0, 3: 1}


@pytest.mark.parametrize("variant", ["standard", "eaai"])
def test_engines_agree_mc_with_patience(variant):
    rules = GAME.build_rules(variant)
    assert_same_game(rules, ["mc:k=12,patience=4", "knock:gin_after=5"], 23, range(2))
