"""The `eaai` Gin preset (gin-rummy.md section 6): the EAAI-2021 challenge's conditions as rule
data, scored by both engines as the rules say."""

from __future__ import annotations

import numpy as np

from simcards.cli import main
from simcards.games.gin import rules as R
from simcards.games.gin.game import GAME, engine_for, seat_arrays
from simcards.games.gin.reference import play_reference
from tests.test_gin_engines import assert_same_game

SPECS = ["simple", "knock:max=4,gin_after=5"]  # knocks, gins, undercuts and walls all happen


def eaai():
    return GAME.build_rules("eaai")


def test_eaai_preset_encodes_the_challenge_conditions_section_6():
    rules = eaai()
    arr = rules.encode()
    assert rules.name == "eaai"
    assert arr[R.R_GIN] == 25  # G-SC-4
    assert arr[R.R_UNDERCUT] == 25 and arr[R.R_TIE_UNDERCUT] == 1  # G-SC-3, a tie is an undercut
    assert arr[R.R_BOX] == 0  # G-GAME-2: no box bonus
    assert arr[R.R_GAME_BONUS] == 0 and arr[R.R_SHUTOUT_BONUS] == 0  # G-GAME-1: no game or shutout bonus
    assert arr[R.R_TARGET] == 100  # G-GAME-1
    assert arr[R.R_NEXT_DEALER] == R.DEALER_ALTERNATE  # G-DEAL-1 option
    assert arr[R.R_KNOCK] == 10 and arr[R.R_PLAYERS] == 2  # standard play (G-KNOCK-1)
    # everything else is standard: only the six scoring/dealing options differ
    std = GAME.build_rules("standard").as_dict()
    changed = {k for k, v in rules.as_dict().items() if std[k] != v}
    assert changed == {"gin_bonus", "undercut_bonus", "box_bonus", "game_bonus", "shutout_bonus", "next_dealer"}


def _hand_points(outcome, k_dw, d_dw):
    """What the rules give the hand's scorer under eaai (G-SC-2..4 with gin 25, undercut 25)."""
    return {"gin": 25 + d_dw, "knock": d_dw - k_dw, "undercut": k_dw - d_dw + 25}[outcome]


def test_reference_engine_scores_eaai_games_as_the_rules_g_sc_g_game_g_deal_1_g_wall_1():
    rules = eaai()
    strats = GAME.strategies(SPECS, 2)
    decide = engine_for(strats)[0]
    sids, params = seat_arrays(strats)
    seen = {"gin": 0, "knock": 0, "undercut": 0, "wall": 0}
    for g in range(12):
        rec = play_reference(rules, sids, params, 5, g, decide)
        totals = [0, 0]
        for i, h in enumerate(rec.hands):
            seen[h.outcome] = seen.get(h.outcome, 0) + 1
            if h.outcome == "wall":  # G-WALL-1: void, no score
                assert h.winner < 0 and h.points == 0
            else:
                k, d = h.knocker, 1 - h.knocker
                assert h.points == _hand_points(h.outcome, h.deadwood[k], h.deadwood[d])
                totals[h.winner] += h.points
            assert h.scores == totals
            if i + 1 < len(rec.hands):  # G-DEAL-1 alternate; G-WALL-1: the same dealer deals again
                expect = h.dealer if h.winner < 0 else 1 - h.dealer
                assert rec.hands[i + 1].dealer == expect
        # G-GAME-1/2: no game, shutout or box bonus; the final score is the points
        assert rec.final == totals  # boxes are counted (rec.boxes) but worth 0 points
        assert max(totals) >= 100 and totals[rec.winner] == max(totals)
        assert rec.margin == abs(totals[0] - totals[1])
    assert all(n > 0 for n in seen.values()), seen


def test_kernel_scores_eaai_games_as_the_rules():
    rules = eaai()
    run = GAME.new_run(rules, 2, GAME.strategies(SPECS, 2))
    games, hands = run.play(8, 0, 150, True)
    outcome = hands["outcome"].astype(str).to_numpy()
    k_dw = hands["knocker_deadwood"].to_numpy(dtype=np.int64, na_value=-1)
    d_dw = hands["defender_deadwood"].to_numpy(dtype=np.int64, na_value=-1)
    pts = hands["points"].to_numpy()
    for i in range(len(hands)):
        if outcome[i] == "wall":
            assert pts[i] == 0
        else:
            assert pts[i] == _hand_points(outcome[i], k_dw[i], d_dw[i]), i
    # G-DEAL-1 alternate / G-WALL-1 in the kernel
    for _, rows in hands.groupby("game"):
        d = rows["dealer"].to_numpy()
        w = rows["winner"].to_numpy(dtype=np.int64, na_value=-1)
        assert (d[1:] == np.where(w[:-1] < 0, d[:-1], 1 - d[:-1])).all()
    assert (outcome == "wall").sum() > 0 and (outcome == "undercut").sum() > 0 and (outcome == "gin").sum() > 0
    # G-GAME-1/2: finals are the points, no bonus of any kind
    for p in (0, 1):
        assert (games[f"final_{p}"] == games[f"points_{p}"]).all()


def test_engines_agree_under_eaai():
    assert assert_same_game(eaai(), SPECS, 5, range(12)) > 60


def test_variants_lists_eaai(capsys):
    assert main(["variants", "gin"]) in (0, None)
    out = capsys.readouterr().out
    assert "eaai" in out and "EAAI-2021" in out
