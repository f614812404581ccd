"""Gin rules as data (presets, validation, refusals) and the scoring rules with exact expected
scores (G-SC-1..4, G-GAME-1..3, G-DEAL-1), in both engines' scoring code."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.errors import SimcardsError
from simcards.games.gin import rules as R
from simcards.games.gin.game import GAME
from simcards.games.gin.kernel import HR_OUTCOME, HR_POINTS, HR_SIZE, HR_WINNER, hand_score
from simcards.games.gin.layout import OUTCOMES
from simcards.games.gin.reference import final_scores, hand_result


# ----- presets and validation ---------------------------------------------------------------------
def test_presets_section_6():
    std = GAME.build_rules("standard")
    assert (std.knock_limit, std.undercut_bonus, std.gin_bonus, std.box_bonus, std.game_target,
            std.game_bonus, std.shutout_bonus) == (10, 10, 20, 20, 100, 100, 200)
    tour = GAME.build_rules("tournament")
    assert (tour.gin_bonus, tour.undercut_bonus, tour.box_bonus) == (25, 20, 25)
    assert GAME.build_rules(None) == std


def test_every_section_6_preset_exists():
    for name in ("standard", "tournament", "oklahoma", "straight", "hollywood", "tedesco", "deal-11",
                 "three-player", "four-player"):
        assert name in R.PRESETS


@pytest.mark.parametrize("overrides, what", [
    ({"knock_limit": 11}, "knock_limit"),
    ({"knock_limit": -1}, "knock_limit"),
    ({"gin_bonus": "lots"}, "whole number"),
    ({"shutout": "triple"}, "shutout"),
    ({"next_dealer": "dealer"}, "next_dealer"),
    ({"undercut_on_tie": "maybe"}, "true or false"),
    ({"no_such_rule": 1}, "unknown Gin rule option"),
    ({"game_target": 0}, "game_target"),
    ({"oklahoma": True, "straight": True}, "cannot be combined"),
    ({"oklahoma": True, "knock_limit": 5}, "cannot be set with oklahoma"),
    ({"straight": True, "knock_limit": 3}, "cannot be set with oklahoma or straight"),
    ({"knock_card": "second_deck"}, "applies only with oklahoma"),
    ({"oklahoma_boxes": True}, "applies only with oklahoma"),
    ({"ace_upcard_gin_only": False}, "applies only with oklahoma"),
    ({"oklahoma": True, "knock_card": "third_deck"}, "knock_card"),
    ({"oklahoma": True, "deal_11": True}, "no upcard"),
    ({"players": 5}, "players"),
    ({"ace_value": 11}, "ace_value"),
    ({"mj_face": 7}, "mj_face"),
    ({"mj_face": 5}, "applies only with mahjong"),
    ({"mahjong": True, "oklahoma": True}, "mahjong with oklahoma"),
    ({"mahjong": True, "hollywood": True}, "mahjong with hollywood"),
    ({"mahjong": True, "fiftieth_card": True}, "mahjong with fiftieth_card"),
    ({"mahjong": True, "players": 3, "next_dealer": "loser"}, "two players only"),
    ({"mahjong": True, "knock_limit": 5}, "no knock"),
    ({"players": 3, "hollywood": True}, "not defined for three players"),
    ({"players": 3, "next_dealer": "winner"}, "the loser deals"),
    ({"players": 4, "match_target": 500}, "two players only"),
    ({"hollywood": True, "match_target": 500}, "cannot be combined"),
    ({"sweep_bonus": 25}, "needs team play"),
    ({"match_target": -1}, "match_target"),
])
def test_impossible_options_give_clear_errors(overrides, what):
    with pytest.raises(SimcardsError, match=what):
        GAME.build_rules("standard", overrides)


def test_unknown_variant_and_players():
    with pytest.raises(SimcardsError, match="unknown Gin variant"):
        GAME.build_rules("rummy500")
    with pytest.raises(SimcardsError, match="are for two players"):
        GAME.check_players(GAME.build_rules("standard"), 3)


def test_cli_style_options_parse():
    rules = GAME.build_rules("standard", {"undercut_on_tie": "off", "gin_bonus": "25", "next_dealer": "winner",
                                          "last_chance": "yes", "fiftieth_card": "on"})
    assert rules.undercut_on_tie is False and rules.gin_bonus == 25 and rules.next_dealer == "winner"
    assert rules.last_chance and rules.fiftieth_card
    assert rules.encode()[R.R_LAST_CHANCE] == 1


def test_fiftieth_card_turns_on_last_chance_g_wall_3(capsys):
    # G-WALL-3: the option turns on G-WALL-2 (it used to be refused without last_chance=true): the
    # rules, their encoding and the CLI all take it alone, and it plays the game of both options.
    alone = GAME.build_rules("standard", {"fiftieth_card": True})
    both = GAME.build_rules("standard", {"fiftieth_card": True, "last_chance": True})
    assert alone.last_chance and alone.fiftieth_card and alone == both
    assert list(alone.encode()) == list(both.encode())
    assert alone.encode()[R.R_LAST_CHANCE] == 1 and alone.encode()[R.R_FIFTIETH] == 1
    from simcards.cli import main

    code = main(["simulate", "gin", "--games", "20", "--seed", "1", "--no-progress", "--json",
                 "--rule", "fiftieth_card=true"])
    out = capsys.readouterr()
    assert code == 0, out.err
    import json

    assert json.loads(out.out)["meta"]["rules"]["last_chance"] is True


def test_every_option_is_documented():
    names = {o.name for o in GAME.rule_options()}
    assert names == set(R.STANDARD.as_dict())


# ----- G-SC: hand scoring, both engines -------------------------------------------------------------
def kernel_score(k_dw, d_dw, rules):
    hres = np.zeros(HR_SIZE, dtype=np.int64)
    hand_score(0, k_dw, d_dw, rules.encode(), hres)
    winner = int(hres[HR_WINNER])
    return OUTCOMES[hres[HR_OUTCOME]], (-1 if winner < 0 else (0 if winner == 0 else 1)), int(hres[HR_POINTS])


def both(k_dw, d_dw, rules):
    a = kernel_score(k_dw, d_dw, rules)
    b = hand_result(k_dw, d_dw, rules)
    assert a == b
    return a


STD = R.STANDARD
TOUR = R.TOURNAMENT


def test_knocker_scores_the_difference_g_sc_1_g_sc_2():
    # G-SC-1/2: knocker 5, defender 20 after lay-offs → knocker scores 15.
    assert both(5, 20, STD) == ("knock", 0, 15)
    assert both(10, 11, STD) == ("knock", 0, 1)


def test_undercut_g_sc_3():
    # G-SC-3: defender lower → defender scores the difference + 10 (tournament 20).
    assert both(8, 6, STD) == ("undercut", 1, 12)
    assert both(8, 6, TOUR) == ("undercut", 1, 22)
    assert both(9, 0, STD) == ("undercut", 1, 19)


def test_tie_is_an_undercut_unless_option_g_sc_3():
    # G-SC-3: equal counts → undercut (bonus only); undercut_on_tie=false → 0–0 (OpenSpiel).
    assert both(7, 7, STD) == ("undercut", 1, 10)
    assert both(7, 7, STD.replace(undercut_on_tie=False)) == ("tie", -1, 0)


def test_gin_bonus_and_never_undercut_g_sc_4():
    # G-SC-4: gin scores 20 (25) + the defender's deadwood; even a 0-deadwood defender scores nothing.
    assert both(0, 30, STD) == ("gin", 0, 50)
    assert both(0, 30, TOUR) == ("gin", 0, 55)
    assert both(0, 0, STD) == ("gin", 0, 20)


# ----- G-GAME: bonuses and the margin -----------------------------------------------------------------
def test_game_bonus_boxes_and_margin_g_game_1_g_game_2_g_game_3():
    # G-GAME-1..3: 105 vs 40 points, 5 vs 3 hands won: winner 105 + 100 + 5 x 20 = 305,
    # loser 40 + 3 x 20 = 100, margin 205.
    assert final_scores([105, 40], [5, 3], 0, STD) == ([305, 100], False, 205)
    # tournament boxes are 25
    assert final_scores([40, 110], [2, 4], 1, TOUR) == ([90, 310], False, 220)


def test_shutout_both_forms_g_game_1():
    # G-GAME-1: the loser scored nothing → 200 instead of 100; option: the whole score doubled.
    assert final_scores([100, 0], [4, 0], 0, STD) == ([380, 0], True, 380)
    assert final_scores([100, 0], [4, 0], 0, STD.replace(shutout="double")) == ([560, 0], True, 560)


def test_engine_games_follow_the_bonus_rules_g_game_1_g_game_2_g_game_3():
    # Every simulated game's final scores and margin follow from its points and hands won;
    # boxes do not count towards 100 (the game ends on points alone).
    for rules in (GAME.build_rules("standard"), GAME.build_rules("tournament", {"shutout": "double"})):
        run = GAME.new_run(rules, 2, GAME.strategies(["simple", "knock:max=2"], 2))
        games, hands = run.play(5, 0, 400, True)
        for g in games.itertuples():
            points, won = [g.points_0, g.points_1], [g.hands_won_0, g.hands_won_1]
            final, shutout, margin = final_scores(points, won, int(g.winner), rules)
            assert [g.final_0, g.final_1] == final and g.margin == margin and g.shutout == shutout
            assert max(points) >= rules.game_target and points[int(g.winner)] >= rules.game_target
        last = hands.groupby("game").tail(2)
        for _game, rows in last.groupby("game"):
            if len(rows) == 2:
                assert max(rows.iloc[0][["score_0", "score_1"]]) < rules.game_target


def test_next_dealer_options_g_deal_1():
    # G-DEAL-1: the loser deals next (options: winner, alternate); a void hand or a 0–0 tie is
    # dealt again by the same dealer.
    for option in ("loser", "winner", "alternate"):
        rules = GAME.build_rules("standard", {"next_dealer": option, "undercut_on_tie": False})
        run = GAME.new_run(rules, 2, GAME.strategies(["simple", "random"], 2))
        _, hands = run.play(3, 0, 100, True)
        checked = 0
        for _, rows in hands.groupby("game"):
            d = rows["dealer"].to_numpy()
            w = rows["winner"].to_numpy(dtype=np.int64, na_value=-1)
            for i in range(len(rows) - 1):
                if w[i] < 0:
                    expect = d[i]
                elif option == "loser":
                    expect = 1 - w[i]
                elif option == "winner":
                    expect = w[i]
                else:
                    expect = 1 - d[i]
                assert d[i + 1] == expect
                checked += 1
        assert checked > 100
