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
    assert names[-2:] == ["ogin", "style"]
    defaults = {p.name: p.default for p in GAME.families()["mc"].params}
    assert defaults["ogin"] == 99  # off


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
