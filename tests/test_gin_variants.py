"""Gin Rummy variants of gin-rummy.md section 5, one rule ID at a time: scenario hands dealt from
stacked decks (drawn in the comments) with exact expected scores, the scoring helpers of both
engines side by side, and what the strategies do with each new decision."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.cards import parse_cards
from simcards.games.gin import layout as L
from simcards.games.gin import min_deadwood
from simcards.games.gin import rules as R
from simcards.games.gin.game import GAME, engine_for, seat_arrays
from simcards.games.gin.kernel import (
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_HAND_END,
    EV_KNOCK,
    EV_KNOCK_CARD,
    EV_UPCARD,
    HR_BOXES,
    HR_OUTCOME,
    HR_POINTS,
    HR_SIZE,
    HR_WINNER,
    LOG_WIDTH,
    apply_stake,
    hand_score,
    knock_card_terms,
)
from simcards.games.gin.policies import knock_threshold
from simcards.games.gin.reference import ReferenceGame, boxes_for, final_scores, hand_result
from simcards.games.gin.reference import knock_card_terms as ref_knock_card_terms

SEED_SEAT1_DEALS = 0  # game 0 of seed 0: seat 1 deals first, so seat 0 is the non-dealer


def stack(first: str, second: str, upcard: str | None = None, stock: str = "", eleventh: str | None = None):
    """A deck that deals ``first`` to the non-dealer's part and ``second`` to the dealer's (one card at
    a time), then ``eleventh`` (G-V-DEAL11) and the upcard, then the stock from the top."""
    order: list[int] = []
    f, s = parse_cards(first), parse_cards(second)
    for i in range(10):
        order += [f[i], s[i]]
    for extra in (eleventh, upcard, stock):
        if extra:
            order += parse_cards(extra)
    assert len(set(order)) == len(order)
    rest = [c for c in range(52) if c not in order]
    return rest[::-1] + order[::-1]  # the last card of the list is dealt first


def second_deck(bottom: str):
    """G-V-OKLA second deck with ``bottom`` as its bottom card (the knock card)."""
    kc = parse_cards(bottom)[0]
    return [kc] + [c for c in range(52) if c != kc]


def play(variant: str, overrides: dict, decks, specs=("simple",), seed: int = SEED_SEAT1_DEALS):
    rules = GAME.build_rules(variant, overrides)
    strats = GAME.strategies(list(specs), rules.players)
    decide = engine_for(strats)[0]
    sids, params = seat_arrays(strats)
    return ReferenceGame(rules, sids, params, seed, 0, decide, decks).play()


def hand_events(rec, hand=1):
    return [row for row in rec.log if row[1] == hand]


# ----- G-V-OKLA -----------------------------------------------------------------------------------
def kernel_knock_score(k_dw, d_dw, stake, rules):
    hres = np.zeros(HR_SIZE, dtype=np.int64)
    hand_score(0, k_dw, d_dw, rules.encode(), hres)
    apply_stake(stake, rules.encode(), hres)
    return L.OUTCOMES[hres[HR_OUTCOME]], int(hres[HR_WINNER]), int(hres[HR_POINTS]), int(hres[HR_BOXES])


def reference_knock_score(k_dw, d_dw, stake, rules):
    outcome, who, points = hand_result(k_dw, d_dw, rules)
    return outcome, who, points * stake, boxes_for(outcome, stake, rules) if who >= 0 else 0


@pytest.mark.parametrize("card, ace_gin, spade, expect", [
    ("7h", True, True, (7, 1)),
    ("7s", True, True, (7, 2)),  # a spade doubles
    ("7s", True, False, (7, 1)),  # spade_double=false
    ("Kd", True, True, (10, 1)),  # face cards count 10
    ("Ts", True, True, (10, 2)),
    ("Ah", True, True, (0, 1)),  # ace: gin only
    ("Ah", False, True, (1, 1)),  # ace_upcard_gin_only=false: a limit of 1 (G-V-TED's Decision)
    ("As", False, True, (1, 2)),
    ("2c", True, True, (2, 1)),
])
def test_knock_card_sets_limit_and_stake_g_v_okla(card, ace_gin, spade, expect):
    # G-V-OKLA: the knock card's value is the hand's knock limit; an ace allows only gin (option:
    # limit 1); a spade doubles the hand. Both engines' helpers agree, on every card too.
    rules = R.OKLAHOMA.replace(ace_upcard_gin_only=ace_gin, spade_double=spade)
    c = parse_cards(card)[0]
    assert tuple(knock_card_terms(c, rules.encode())) == expect
    assert ref_knock_card_terms(c, rules) == expect
    for other in range(52):
        assert tuple(knock_card_terms(other, rules.encode())) == ref_knock_card_terms(other, rules)


@pytest.mark.parametrize("k_dw, d_dw, stake, boxes_rule, expect", [
    (4, 76, 2, False, ("knock", 0, 144, 1)),  # (76 - 4) x 2
    (4, 2, 2, False, ("undercut", 1, 24, 1)),  # (4 - 2 + 10) x 2
    (4, 2, 2, True, ("undercut", 1, 24, 3)),  # extra box for an undercut, doubled: 1 + 2
    (4, 2, 1, True, ("undercut", 1, 12, 2)),
    (0, 30, 2, False, ("gin", 0, 100, 1)),  # (20 + 30) x 2
    (0, 30, 2, True, ("gin", 0, 100, 5)),  # 2 extra boxes for gin, doubled: 1 + 4
    (0, 30, 1, True, ("gin", 0, 50, 3)),
    (3, 9, 1, True, ("knock", 0, 6, 1)),  # a plain knock earns no extra box
])
def test_spade_doubles_the_hand_with_bonuses_and_extra_boxes_g_v_okla(k_dw, d_dw, stake, boxes_rule, expect):
    # G-V-OKLA: a spade knock card doubles the hand's score including the undercut and gin
    # bonuses; the optional box rules give an undercut 1 extra box and a gin 2 (2 and 4 with a spade).
    rules = R.OKLAHOMA.replace(oklahoma_boxes=boxes_rule)
    assert kernel_knock_score(k_dw, d_dw, stake, rules) == expect
    assert reference_knock_score(k_dw, d_dw, stake, rules) == expect


def test_oklahoma_scenario_spade_upcard_g_v_okla():
    # Non-dealer (seat 0): A♥ 2♥ 3♥ · 5♣ 5♦ 5♥ · 9♠ 9♥ 9♦ · K♣ (deadwood 10); upcard 4♠: the knock
    # limit is 4 and the hand counts double. Seat 0 takes the 4♠, throws the K♣ and knocks with 4;
    # the dealer (Q♠ Q♥ J♦ J♣ T♦ 8♣ 7♠ 6♦ 3♣ 2♠, no melds, nothing to lay off) has 76:
    # seat 0 scores (76 - 4) x 2 = 144.
    rec = play("oklahoma", {}, [stack("Ah 2h 3h 5c 5d 5h 9s 9h 9d Kc", "Qs Qh Jd Jc Td 8c 7s 6d 3c 2s", "4s")])
    h = rec.hands[0]
    assert (h.knock_card, h.limit, h.stake) == (parse_cards("4s")[0], 4, 2)
    assert (h.outcome, h.knocker, h.winner, h.points, h.boxes) == ("knock", 0, 0, 144, 1)
    assert h.deadwood == {0: 4, 1: 76}
    kinds = [row[0] for row in hand_events(rec)]
    assert kinds[:4] == [EV_DEAL, EV_DEAL, EV_UPCARD, EV_KNOCK_CARD]


def test_oklahoma_scenario_undercut_doubled_with_extra_boxes_g_v_okla():
    # The same knock (4, with 4♠ up) against a dealer holding 7♣ 7♦ 7♥ · 8♠ 8♥ 8♦ · T♣ J♣ Q♣ · 2♠
    # (deadwood 2): an undercut worth (4 - 2 + 10) x 2 = 24 and, with the box rules, 1 + 2 boxes.
    rec = play("oklahoma", {"oklahoma_boxes": True},
               [stack("Ah 2h 3h 5c 5d 5h 9s 9h 9d Kc", "7c 7d 7h 8s 8h 8d Tc Jc Qc 2s", "4s")])
    h = rec.hands[0]
    assert (h.outcome, h.winner, h.points, h.boxes) == ("undercut", 1, 24, 3)


def test_ace_upcard_allows_gin_only_g_v_okla():
    # Upcard A♦: gin only. Seat 0 (deadwood 1 after taking it: A♥ 2♥ 3♥ · 5♣ 5♦ 5♥ · 9♠ 9♥ 9♦ · A♦)
    # may not knock; with ace_upcard_gin_only=false (limit 1) the same hand knocks with 1.
    deck = stack("Ah 2h 3h 5c 5d 5h 9s 9h 9d Kc", "Qs Qh Jd Jc Td 8c 7s 6d 3c 2s", "Ad")
    rec = play("oklahoma", {}, [list(deck)])
    first_turn = hand_events(rec)[:8]
    assert [r for r in first_turn if r[0] == EV_KNOCK_CARD][0][4:6] == [0, 1]
    assert not [r for r in first_turn if r[0] == EV_KNOCK]  # no knock offered at deadwood 1
    rec = play("oklahoma", {"ace_upcard_gin_only": False}, [list(deck)])
    h = rec.hands[0]
    assert (h.limit, h.outcome, h.knocker, h.points) == (1, "knock", 0, 76 - 1)


def test_second_deck_knock_card_no_upcard_non_dealer_draws_first_g_v_okla():
    # knock_card=second_deck: both get 10 cards, no upcard; the bottom card of a second deck (7♠)
    # is the knock card (limit 7, doubled); the non-dealer draws first from the stock (the 4♥),
    # throws the K♣ and is left with gin (A-2-3-4♥ · 5-5-5 · 9-9-9): (20 + 76) x 2 = 192.
    rec = play("oklahoma-second-deck", {}, [stack("Ah 2h 3h 5c 5d 5h 9s 9h 9d Kc", "Qs Qh Jd Jc Td 8c 7s 6d 3c 2s",
                                                  stock="4h"), second_deck("7s")])
    events = hand_events(rec)
    assert EV_UPCARD not in [r[0] for r in events]
    kc = [r for r in events if r[0] == EV_KNOCK_CARD][0]
    assert kc[3:6] == [parse_cards("7s")[0], 7, 2]
    draw = [r for r in events if r[0] == EV_DRAW][0]
    assert draw[2] == 0 and draw[3] == 0 and draw[4] == parse_cards("4h")[0]  # seat 0, from the stock
    h = rec.hands[0]
    assert (h.outcome, h.winner, h.points, h.stock) == ("gin", 0, 192, 31)


def first_drawers(log):
    """Per hand of a transcript: (non-dealer seat, seat of the first draw, winner of the latest hand
    won before it, or -1)."""
    out, last_won = [], -1
    for h in sorted({int(r[1]) for r in log}):
        rows = [r for r in log if r[1] == h]
        non_dealer = next(int(r[2]) for r in rows if r[0] == EV_DEAL)
        drawer = next(int(r[2]) for r in rows if r[0] in (EV_DRAW, EV_DISCARD))
        out.append((non_dealer, drawer, last_won))
        winner = next(int(r[2]) for r in rows if r[0] == EV_HAND_END)
        last_won = winner if winner >= 0 else last_won
    return out


def test_second_deck_previous_winner_draws_first_g_v_okla():
    # G-V-OKLA, knock_card=second_deck: the winner of the previous hand draws first (the non-dealer
    # in the first hand). The replay: with next_dealer=winner seat 1 wins hand 1 and deals
    # hand 2 — and seat 1, not the non-dealer seat 0, draws first.
    rec = play("oklahoma-second-deck", {"next_dealer": "winner"}, None, seed=11)
    assert rec.hands[0].winner == 1 and rec.hands[1].dealer == 1
    hand2 = hand_events(rec, 2)
    first = next(r for r in hand2 if r[0] in (EV_DRAW, EV_DISCARD))
    assert first[0] == EV_DRAW and first[2] == 1
    # Every hand, both engines (kernel transcripts; the engines agree move for move in
    # test_gin_engines), every next_dealer option, with deal_11 the 11th card goes to that player.
    strats = GAME.strategies(["simple", "knock:max=5"], 2)
    _, play_game, _ = engine_for(strats)
    sids, params = seat_arrays(strats)
    seen = {"winner deals": 0, "loser deals": 0}
    for nd in ("winner", "alternate", "loser"):
        for over in ({}, {"deal_11": True}):
            rules = GAME.build_rules("oklahoma-second-deck", {"next_dealer": nd, **over})
            for g in range(4):
                log = np.zeros((100_000, LOG_WIDTH), dtype=np.int64)
                out = np.zeros(L.G_WIDTH, dtype=np.int64)
                rows = np.zeros((L.HAND_CAP, R.hand_width(rules)), dtype=np.int32)
                n = play_game(g, 11, rules.encode(), sids, params, out, rows, len(rows), log)
                for non_dealer, drawer, last_won in first_drawers(log[:n]):
                    assert drawer == (non_dealer if last_won < 0 else last_won)
                    if last_won >= 0:
                        seen["loser deals" if last_won == non_dealer else "winner deals"] += 1
                if over:
                    deals = log[:n][log[:n, 0] == EV_DEAL]
                    assert sorted(deals[:2, 3].tolist()) == [10, 11]
    assert seen["winner deals"] > 20 and seen["loser deals"] > 20


def test_game_to_150_and_boxes_in_the_final_score_g_v_okla():
    # G-V-OKLA: the game goes to 150 (option 100). 150 vs 40 points, 7 vs 2 boxes (extra boxes
    # included): 150 + 7 x 20 + 100 = 390 against 40 + 2 x 20 = 80, margin 310.
    assert R.OKLAHOMA.game_target == 150
    assert final_scores([150, 40], [7, 2], 0, R.OKLAHOMA) == ([390, 80], False, 310)
    run = GAME.new_run(R.OKLAHOMA, 2, GAME.strategies(["simple"], 2))
    games, hands = run.play(3, 0, 200, True)
    assert (games[["points_0", "points_1"]].max(axis=1) >= 150).all()
    for _game, rows in hands.groupby("game"):
        if len(rows) > 1:
            assert rows.iloc[-2][["score_0", "score_1"]].max() < 150
    assert set(hands["knock_limit"]) <= set(range(11)) and set(hands["stake"]) == {1, 2}
    assert (hands.loc[hands["knocker_deadwood"].notna(), "knocker_deadwood"]
            <= hands.loc[hands["knocker_deadwood"].notna(), "knock_limit"]).all()
    # every knock stays within its hand's limit; a hand is doubled exactly when the knock card is a spade
    assert ((hands["stake"] == 2) == hands["knock_card"].astype(str).str.endswith("s")).all()
    assert games["doubled_hands"].sum() == (hands["stake"] == 2).sum()


def test_oklahoma_boxes_enter_the_final_score_g_v_okla():
    rules = R.OKLAHOMA.replace(oklahoma_boxes=True)
    run = GAME.new_run(rules, 2, GAME.strategies(["simple"], 2))
    games, hands = run.play(4, 0, 200, True)
    won = hands[hands["winner"].notna()]
    for p in range(2):
        boxes = won.loc[won["winner"] == p].groupby("game")["boxes"].sum().reindex(games["game"], fill_value=0)
        assert (boxes.to_numpy() == games[f"boxes_{p}"].to_numpy()).all()
    assert (games["boxes_0"] + games["boxes_1"] > games["scored_hands"]).any()  # extra boxes happen
    for g in games.itertuples():
        final, _, margin = final_scores([g.points_0, g.points_1], [g.boxes_0, g.boxes_1], int(g.winner), rules)
        assert [g.final_0, g.final_1] == final and g.margin == margin


def test_knock_family_scales_with_the_limit_and_respects_spades_g_v_okla():
    # Strategies: `scale` knocks at a fraction of the hand's limit, `spade` lowers the threshold
    # on a doubled hand; the `simple` baseline knocks at the full limit.
    strat = GAME.strategies(["knock:scale=0.5,spade=2"], 1)[0]
    params = strat.vector()
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_STOCK] = 30
    view[L.V_LIMIT], view[L.V_STAKE] = 8, 1
    assert knock_threshold(params, view) == 4.0
    view[L.V_STAKE] = 2
    assert knock_threshold(params, view) == 2.0
    view[L.V_LIMIT], view[L.V_STAKE] = 0, 1  # gin only (ace knock card, straight gin)
    assert knock_threshold(params, view) == 0.0
    simple = GAME.strategies(["simple"], 1)[0]
    view[L.V_LIMIT] = 6
    from simcards.games.gin.policies import SIMPLE_PARAMS

    assert knock_threshold(SIMPLE_PARAMS, view) == 6.0 and simple.family.name == "simple"
    sim = GAME.new_run(R.OKLAHOMA, 2, GAME.strategies(["knock:scale=0.5", "simple"], 2))
    _, hands = sim.play(2, 0, 150, True)
    mine = hands[(hands["knocker"] == 0)]
    assert len(mine) > 50 and (mine["knocker_deadwood"] <= mine["knock_limit"] // 2).all()


# ----- G-V-STRAIGHT ---------------------------------------------------------------------------------
def test_straight_gin_never_knocks_short_of_gin_g_v_straight():
    # Seat 0 holds A♥ 2♥ 3♥ · 5♣ 5♦ 5♥ · 9♠ 9♥ 9♦ · A♠ (deadwood 1): under the standard rules a knock;
    # under straight gin no knock is offered. Both decline the upcard K♦; seat 0 draws the 4♥,
    # throws the A♠ and goes gin: 20 + the dealer's 76 = 96.
    deck = stack("Ah 2h 3h 5c 5d 5h 9s 9h 9d As", "Qs Qh Jd Jc Td 8c 7s 6d 3c 2s", "Kd", stock="4h")
    rec = play("straight", {}, [deck])
    h = rec.hands[0]
    assert (h.outcome, h.winner, h.points) == ("gin", 0, 96)
    assert R.STANDARD.replace(straight=True).encode()[R.R_KNOCK] == 0


def test_straight_gin_plays_on_past_low_deadwood_g_v_straight():
    # Straight gin: a player at deadwood 1 must play on. Seat 0 (deadwood 1) draws Q♦ and throws
    # it; no knock event appears until someone has gin; every scored hand of a run is gin.
    deck = stack("Ah 2h 3h 5c 5d 5h 9s 9h 9d As", "Qs Qh Jd Jc Td 8c 7s 6d 3c 2s", "Kd", stock="Qd 7c 4h")
    rec = play("straight", {}, [deck])
    events = hand_events(rec)
    knocks = [r for r in events if r[0] == EV_KNOCK]
    assert all(r[4] == 0 for r in knocks)  # only gin is ever offered
    first_discard = [r for r in events if r[0] == EV_DISCARD][0]
    assert first_discard[2] == 0 and first_discard[5] == 1  # deadwood 1, and play goes on
    run = GAME.new_run(GAME.build_rules("straight"), 2, GAME.strategies(["knock:max=10", "simple"], 2))
    games, hands = run.play(5, 0, 150, True)
    scored = hands[hands["winner"].notna()]
    assert len(scored) > 300 and (scored["outcome"] == "gin").all() and games["knocks"].sum() == 0


# ----- G-V-DEAL11 ----------------------------------------------------------------------------------
def test_eleven_card_deal_opening_discard_may_go_gin_g_v_deal11():
    # G-V-DEAL11: no upcard; the non-dealer gets 11 cards — A♥ 2♥ 3♥ 4♥ · 5♣ 5♦ 5♥ · 9♠ 9♥ 9♦ · K♣ —
    # and opens by discarding: the K♣, gin. The dealer's 10 cards (no melds) count 76: 20 + 76 = 96.
    deck = stack("Ah 2h 3h 4h 5c 5d 5h 9s 9h 9d", "Qs Qh Jd Jc Td 8c 7s 6d 3c 2s", eleventh="Kc")
    rec = play("deal-11", {}, [deck])
    events = hand_events(rec)
    deal = [r for r in events if r[0] == EV_DEAL]
    assert [(r[2], r[3]) for r in deal] == [(0, 11), (1, 10)]
    assert events[2][0] == EV_DISCARD and events[2][3] == parse_cards("Kc")[0]  # no draw, no upcard
    h = rec.hands[0]
    assert (h.outcome, h.winner, h.points, h.stock, h.upcard_taker) == ("gin", 0, 96, 31, -1)


def test_eleven_card_deal_opening_knock_g_v_deal11():
    # Opening with a knock: 11 cards A♥ 2♥ 3♥ · 5♣ 5♦ 5♥ · 9♠ 9♥ 9♦ · 4♦ · K♣; throw the K♣ and knock
    # with 4 against 76 (nothing lays off on A-2-3♥ or the sets): 72.
    deck = stack("Ah 2h 3h 5c 5d 5h 9s 9h 9d 4d", "Qs Qh Jd Jc Td 8c 7s 6d 3c 2s", eleventh="Kc")
    h = play("deal-11", {}, [deck]).hands[0]
    assert (h.outcome, h.knocker, h.points) == ("knock", 0, 72)


def test_eleven_card_deal_then_normal_play_g_v_deal11():
    # After the opening discard the dealer may take it or draw: the dealer's first move is a draw
    # decision (one event: from the pile or the stock), then play alternates as usual.
    deck = stack("Ah 2h 3h 5c 5d 5h 9s 9h Kd Qc", "Qs Qh Jd Jc Td 8c 7s 6d 3c 2s", eleventh="Kc", stock="7d 8d")
    rec = play("deal-11", {}, [deck])
    events = hand_events(rec)
    assert events[2][0] == EV_DISCARD and events[2][2] == 0
    assert events[3][0] == EV_DRAW and events[3][2] == 1
    seats = [r[2] for r in events if r[0] == EV_DISCARD]
    assert seats[:6] == [0, 1, 0, 1, 0, 1]


def test_eleven_card_deal_with_the_second_deck_is_the_same_game_g_v_deal11_g_v_okla():
    # An exact equivalence: under knock_card=second_deck the first player's first draw (the previous
    # winner's, G-V-OKLA) is the card the 11-card deal gives it, so deal_11 changes the transcript
    # but not the game — whoever deals next.
    import pandas as pd

    for nd in ("loser", "winner"):
        base = GAME.build_rules("oklahoma-second-deck", {"next_dealer": nd})
        eleven = GAME.build_rules("oklahoma-second-deck", {"deal_11": True, "next_dealer": nd})
        strats = GAME.strategies(["simple", "knock:scale=0.7"], 2)
        a, _ = GAME.new_run(base, 2, strats).play(9, 0, 300, False)
        b, _ = GAME.new_run(eleven, 2, strats).play(9, 0, 300, False)
        pd.testing.assert_frame_equal(a, b)


# ----- G-V-HOLLY and G-V-MATCH: the ledgers of both engines ------------------------------------------
def kernel_ledger_run(rules, wins):
    """Feed (winner side, points) hands through the kernel's ledger; the game result out."""
    from simcards.games.gin.kernel import _LG_SIZE, game_result, record_hand, start_ledger

    enc = rules.encode()
    ledger = np.zeros(_LG_SIZE, dtype=np.int64)
    start_ledger(ledger, enc)
    entered, over = [], False
    for n, (side, points) in enumerate(wins, start=1):
        assert not over
        over, mask = record_hand(ledger, side, points, 1 if side >= 0 else 0, n, enc)
        entered.append(int(mask))
    out = np.zeros(L.G_WIDTH, dtype=np.int64)
    winner = game_result(ledger, False, enc, out, np.zeros(L.MAX_SIDES, dtype=np.int64))
    return over, entered, int(winner), out


def reference_ledger_run(rules, wins):
    from simcards.games.gin.reference import Ledger

    ledger = Ledger(rules)
    entered, over = [], False
    for n, (side, points) in enumerate(wins, start=1):
        assert not over
        over, mask = ledger.record(side, points, 1 if side >= 0 else 0, n)
        entered.append(mask)
    return over, entered, ledger.result(False)


# Nine hands, target 100:
#   hand  winner pts  entered in   game 1    game 2    game 3
#    1    seat 0  20   1            20–0
#    2    seat 1  15   1            20–15
#    3    seat 0  30   1, 2         50–15     30–0
#    4    seat 0  25   1, 2, 3      75–15     55–0      25–0
#    5    seat 1  40   1, 2         75–55     55–40
#    6    seat 0  30   1, 2, 3      105–55 ✓  85–40     55–0       game 1 over: seat 0
#    7    seat 1  20   2, 3                   85–60     55–20      (game 1 is closed)
#    8    seat 0  20   2, 3                   105–60 ✓  75–20      game 2 over: seat 0
#    9    seat 1  90   3                                75–110 ✓   game 3 over: seat 1
HOLLY_WINS = [(0, 20), (1, 15), (0, 30), (0, 25), (1, 40), (0, 30), (1, 20), (0, 20), (1, 90)]


def test_hollywood_three_games_at_once_exact_scores_g_v_holly():
    # Finals per game (G-GAME-1/2 on each column: its boxes are the hands entered there):
    #   game 1: 105 + 4 boxes x 20 + 100 = 285 vs 55 + 2 x 20 = 95   (margin 190)
    #   game 2: 105 + 4 x 20 + 100 = 285 vs 60 + 2 x 20 = 100         (margin 185)
    #   game 3: seat 1 110 + 2 x 20 + 100 = 250 vs 75 + 3 x 20 = 135  (margin 115)
    # The set: seat 0 285 + 285 + 135 = 705, seat 1 95 + 100 + 250 = 445: seat 0 by 260.
    rules = R.STANDARD.replace(hollywood=True)
    over, entered, winner, out = kernel_ledger_run(rules, HOLLY_WINS)
    r_over, r_entered, res = reference_ledger_run(rules, HOLLY_WINS)
    assert over and r_over
    assert entered == r_entered == [1, 1, 3, 7, 3, 7, 6, 6, 4]
    expect = [(0, [285, 95], 190, 6), (0, [285, 100], 185, 8), (1, [135, 250], 115, 9)]
    for k, (w, final, margin, closed) in enumerate(expect):
        base = L.G_HOLLY + k * L.GH_WIDTH
        assert (out[base + L.GH_WINNER], list(out[base + L.GH_FINAL:base + L.GH_FINAL + 2]), out[base + L.GH_MARGIN],
                out[base + L.GH_CLOSED]) == (w, final, margin, closed)
        g = res["hollywood"][k]
        assert (g["winner"], g["final"], g["margin"], g["closed"]) == (w, final, margin, closed)
    assert winner == res["winner"] == 0
    assert list(out[L.G_FINAL:L.G_FINAL + 2]) == res["final"] == [705, 445]
    assert out[L.G_MARGIN] == res["margin"] == 260


def test_hollywood_shutout_looks_at_its_own_column_g_v_holly():
    # Seat 0 wins the first hand (10, game 1 only), then seat 1 wins 60 (game 1), 50 (games 1, 2:
    # game 1 ends 10–110), 70 (games 2, 3: game 2 ends 0–120), 40 (game 3 ends 0–110). Seat 0
    # scored in game 1's column only, so games 2 and 3 are shutouts (200 instead of 100):
    #   game 1: 110 + 2 boxes x 20 + 100 = 250 vs 10 + 20 = 30
    #   game 2: 120 + 2 x 20 + 200 = 360 vs 0;  game 3: 110 + 2 x 20 + 200 = 350 vs 0
    rules = R.STANDARD.replace(hollywood=True)
    wins = [(0, 10), (1, 60), (1, 50), (1, 70), (1, 40)]
    over, entered, winner, out = kernel_ledger_run(rules, wins)
    _, r_entered, res = reference_ledger_run(rules, wins)
    assert over and entered == r_entered == [1, 1, 3, 6, 4]
    g = [res["hollywood"][k] for k in range(3)]
    assert [x["points"] for x in g] == [[10, 110], [0, 120], [0, 110]]
    assert [x["shutout"] for x in g] == [False, True, True]
    assert [x["final"] for x in g] == [[30, 250], [0, 360], [0, 350]]
    assert [bool(out[L.G_HOLLY + k * L.GH_WIDTH + L.GH_SHUTOUT]) for k in range(3)] == [False, True, True]
    assert winner == 1 and list(out[L.G_FINAL:L.G_FINAL + 2]) == res["final"] == [30, 960]


def test_hollywood_games_from_simulated_hands_g_v_holly():
    # Every simulated set: recomputing the three columns from the hands table (who won, how much,
    # in order) gives the games table; entered games follow the n-th-win rule.
    rules = GAME.build_rules("hollywood")
    run = GAME.new_run(rules, 2, GAME.strategies(["simple", "knock:max=5"], 2))
    games, hands = run.play(6, 0, 120, True)
    for g, rows in hands.groupby("game"):
        wins = [(int(w), int(p)) if not pd_isna(w) else (-1, 0) for w, p in zip(rows["winner"], rows["points"])]
        _, entered, res = reference_ledger_run(rules, wins)
        assert entered == [int(a) + 2 * int(b) + 4 * int(c) for a, b, c in
                           zip(rows["in_hw1"], rows["in_hw2"], rows["in_hw3"])]
        row = games.loc[games["game"] == g].iloc[0]
        for k in range(3):
            assert [row[f"hw{k + 1}_final_0"], row[f"hw{k + 1}_final_1"]] == res["hollywood"][k]["final"]
        assert [row["final_0"], row["final_1"]] == res["final"] and row["margin"] == res["margin"]


def pd_isna(x) -> bool:
    import pandas as pd

    return bool(pd.isna(x))


# Multi-match to 500 (matches to 100):
#   match 1: seat 0 wins 60, 50 — 110: 2 hands x 25 + 100 + 100 (seat 1 won no hand) = 250 to 0
#   match 2: seat 1 30, seat 0 20, seat 1 80 — seat 1 110: seat 1 2 x 25 + 100 = 150; seat 0 25
#   match 3: seat 0 100: 25 + 100 + 100 → seat 0 500, seat 1 150: over, margin 350
MATCH_WINS = [(0, 60), (0, 50), (1, 30), (0, 20), (1, 80), (0, 100)]


def test_multi_match_points_exact_scores_g_v_match():
    rules = R.STANDARD.replace(match_target=500)
    over, _, winner, out = kernel_ledger_run(rules, MATCH_WINS)
    r_over, _, res = reference_ledger_run(rules, MATCH_WINS)
    assert over and r_over
    assert winner == res["winner"] == 0
    assert list(out[L.G_MATCH_POINTS:L.G_MATCH_POINTS + 2]) == res["final"] == [500, 150]
    assert list(out[L.G_FINAL:L.G_FINAL + 2]) == [500, 150] and out[L.G_MARGIN] == res["margin"] == 350
    assert out[L.G_MATCHES] == res["matches"] == 3
    assert list(out[L.G_MATCHES_WON:L.G_MATCHES_WON + 2]) == res["matches_won"] == [2, 1]
    assert out[L.G_MATCH_SHUTOUTS] == res["match_shutouts"] == 2


def test_multi_match_is_not_over_on_a_tie_g_v_match():
    # Match target 200. Match 1: seat 0 wins 3 hands, seat 1 2 (seat 0 reaches 100): 175–50.
    # Match 2: seat 1 wins 3, seat 0 2: 225–225 — both past 200 but tied, so match 3 is played:
    # seat 0 wins it with one hand, seat 1 none: 225 + 25 + 100 + 100 = 450 to 225.
    rules = R.STANDARD.replace(match_target=200)
    wins = [(1, 10), (0, 30), (1, 10), (0, 30), (0, 40),
            (0, 10), (1, 30), (0, 10), (1, 30), (1, 40),
            (0, 100)]
    assert not kernel_ledger_run(rules, wins[:10])[0] and not reference_ledger_run(rules, wins[:10])[0]
    over, _, winner, out = kernel_ledger_run(rules, wins)
    _, _, res = reference_ledger_run(rules, wins)
    assert over and winner == res["winner"] == 0 and res["final"] == [450, 225] and res["matches"] == 3
    assert list(out[L.G_FINAL:L.G_FINAL + 2]) == [450, 225] and out[L.G_MARGIN] == 225
    # a void hand (nobody wins) changes nothing
    assert not kernel_ledger_run(rules, [(0, 60), (-1, 0)])[0]


def test_single_match_is_the_game_to_100_g_v_match():
    # G-V-MATCH single match: play to 100, the winner wins the match — match_target=0, the
    # standard game: no match columns, and the winner is the seat that reached 100.
    rules = GAME.build_rules("standard")
    assert rules.match_target == 0
    games, hands = GAME.new_run(rules, 2, GAME.strategies(["simple"], 2)).play(2, 0, 100, True)
    assert "matches" not in games
    for g in games.itertuples():
        assert getattr(g, f"points_{g.winner}") >= 100 > getattr(g, f"points_{1 - g.winner}")


def test_simulated_multi_match_follows_the_match_rules_g_v_match():
    rules = GAME.build_rules("match")
    games, hands = GAME.new_run(rules, 2, GAME.strategies(["simple", "knock:max=4"], 2)).play(8, 0, 80, True)
    for g, rows in hands.groupby("game"):
        wins = [(int(w), int(p)) if not pd_isna(w) else (-1, 0) for w, p in zip(rows["winner"], rows["points"])]
        _, _, res = reference_ledger_run(rules, wins)
        row = games.loc[games["game"] == g].iloc[0]
        assert [row["final_0"], row["final_1"]] == res["final"] and row["matches"] == res["matches"]
        assert max(res["final"]) >= 500
        # score_<s> restart with every match; the match column counts up from 1
        assert rows["match"].iloc[0] == 1 and rows["match"].iloc[-1] == row["matches"]
        first_of_match = rows.groupby("match").head(1)
        assert (first_of_match[["score_0", "score_1"]].max(axis=1) < 100).all()


# ----- G-V-3P ------------------------------------------------------------------------------------------
SEED_SEAT0_DEALS_OF_3 = 2  # game 0 of seed 2: with three players seat 0 deals first (and sits out)


def test_three_players_dealer_sits_out_loser_deals_g_v_3p():
    # Seat 0 deals and sits out; seat 1 plays the non-dealer's part against seat 2. Seat 1 holds
    # A♥ 2♥ 3♥ · 5♣ 5♦ 5♥ · 9♠ 9♥ 9♦ · K♣, takes the upcard 4♠ and knocks with 4 against seat 2's
    # 76: seat 1 scores 72. Seat 2 lost, so seat 2 deals hand 2, between seat 0 (the previous
    # dealer) and seat 1 (the winner); seat 0, after the dealer, plays first.
    deck = stack("Ah 2h 3h 5c 5d 5h 9s 9h 9d Kc", "Qs Qh Jd Jc Td 8c 7s 6d 3c 2s", "4s")
    rec = play("three-player", {}, [deck], seed=SEED_SEAT0_DEALS_OF_3)
    h1, h2 = rec.hands[0], rec.hands[1]
    assert rec.first_dealer == 0 and h1.dealer == 0 and h1.seats == (1, 2)
    assert (h1.outcome, h1.winner, h1.points, h1.scores) == ("knock", 1, 72, [0, 72, 0])
    assert h2.dealer == 2 and h2.seats == (0, 1)
    deals = [r for r in hand_events(rec, 1) if r[0] == EV_DEAL]
    assert [r[2] for r in deals] == [1, 2]  # the dealer gets no cards


def test_three_player_final_scores_g_v_3p():
    # G-V-3P: game to 100 with the standard bonuses, for each player's own total. 105, 30 and 0
    # points, 5, 2 and 0 hands won: seat 0 105 + 5 x 20 + 100 = 305; seat 1 30 + 40 = 70; seat 2 0.
    # The margin is what the two losers pay: (305 - 70) + (305 - 0) = 540. A shutout needs both
    # losers at 0: 100 + 4 x 20 + 200 = 380, margin 760.
    rules = R.STANDARD.replace(players=3)
    assert final_scores([105, 30, 0], [5, 2, 0], 0, rules) == ([305, 70, 0], False, 540)
    assert final_scores([100, 0, 0], [4, 0, 0], 0, rules) == ([380, 0, 0], True, 760)
    from simcards.games.gin.kernel import column_final

    out = np.zeros(3, dtype=np.int64)
    assert column_final(np.array([105, 30, 0]), np.array([5, 2, 0]), 3, 0, rules.encode(), out) == (False, 540)
    assert list(out) == [305, 70, 0]


def test_three_player_rotation_in_simulated_games_g_v_3p():
    rules = GAME.build_rules("three-player")
    games, hands = GAME.new_run(rules, 3, GAME.strategies(["simple", "knock:max=4", "knock:take=3"], 3)).play(
        4, 0, 150, True)
    checked = 0
    for _, rows in hands.groupby("game"):
        rows = rows.reset_index(drop=True)
        for i in range(len(rows)):
            dealer = rows.loc[i, "dealer"]
            at_table = [p for p in range(3) if not pd_isna(rows.loc[i, f"deadwood_{p}"])]
            assert dealer not in at_table and len(at_table) == 2  # the dealer sits out
            if i + 1 < len(rows):
                w = rows.loc[i, "winner"]
                nxt = rows.loc[i + 1]
                if pd_isna(w):
                    assert nxt["dealer"] == dealer
                else:
                    loser = next(p for p in at_table if p != w)
                    assert nxt["dealer"] == loser  # the loser deals: next hand is previous dealer v winner
                checked += 1
    assert checked > 1000
    for g in games.itertuples():
        points = [g.points_0, g.points_1, g.points_2]
        assert points[g.winner] >= 100 and sorted(points)[1] < 100
        final, _, margin = final_scores(points, [g.hands_won_0, g.hands_won_1, g.hands_won_2], g.winner, rules)
        assert [g.final_0, g.final_1, g.final_2] == final and g.margin == margin


def test_views_in_three_player_gin_g_v_3p():
    # The player sitting out is not at the table: the view names him as the dealer, his score is
    # V_THIRD_SCORE, and the `hurry` parameter reacts to it.
    rules = GAME.build_rules("three-player")
    strats = GAME.strategies(["simple"], 3)
    decide = engine_for(strats)[0]
    sids, params = seat_arrays(strats)
    seen = []

    def spy(kind, sid, par, hand, n, opts, n_opts, view, enc, rng):
        seen.append((view.copy(), game.table, game.dealer_seat, list(game.ledger.points)))
        return decide(kind, sid, par, hand, n, opts, n_opts, view, enc, rng)

    game = ReferenceGame(rules, sids, params, 3, 0, spy)
    game.play()
    assert len(seen) > 100
    for view, table, dealer, points in seen:
        assert view[L.V_SEAT] in table and view[L.V_DEALER] == dealer and dealer not in table
        assert view[L.V_THIRD_SCORE] == points[dealer] and view[L.V_PLAYERS] == 3
    hurry = GAME.strategies(["knock:max=2,hurry=15"], 1)[0].vector()
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_LIMIT], view[L.V_TARGET], view[L.V_STOCK] = 10, 100, 20
    view[L.V_OPP_SCORE], view[L.V_THIRD_SCORE] = 40, 70
    assert knock_threshold(hurry, view) == 2.0
    view[L.V_THIRD_SCORE] = 88  # the player sitting out needs 12: knock at once
    assert knock_threshold(hurry, view) == 10.0


# ----- G-V-4P and team play ---------------------------------------------------------------------------
def kernel_deal(rules, tables):
    """The kernel's deal_result on (seat at position 0, seat at position 1, winner seat or -1, points)."""
    from simcards.games.gin.kernel import _LG_SIZE, S_SEAT0, S_SIZE, deal_result
    from simcards.games.gin.kernel import HR_SIZE as HS

    tres = np.zeros((L.MAX_TABLES, HS), dtype=np.int64)
    tst = np.zeros((L.MAX_TABLES, S_SIZE), dtype=np.int64)
    for t, (a, b, w, pts) in enumerate(tables):
        tst[t, S_SEAT0], tst[t, S_SEAT0 + 1] = a, b
        tres[t, HR_WINNER] = -1 if w < 0 else (0 if w == a else 1)
        tres[t, HR_POINTS] = pts
        tres[t, HR_BOXES] = 1 if w >= 0 else 0
    side, points, boxes = deal_result(tres, tst, len(tables), np.zeros(_LG_SIZE, dtype=np.int64), rules.encode())
    return int(side), int(points)


def reference_deal(rules, tables):
    from simcards.games.gin.reference import HandRecord

    game = ReferenceGame(rules, np.zeros(rules.players, np.int64), np.zeros((rules.players, 9)), 0, 0, None)
    game.sweeps = [0, 0]
    hands = [HandRecord(1, b, (a, b), -1, "knock" if w >= 0 else "wall", w, pts, 1 if w >= 0 else 0, 0, -1,
                        frozenset(), 0, {}) for a, b, w, pts in tables]
    side, points, _ = game.deal_result(hands)
    return side, points


@pytest.mark.parametrize("players, sweep, tables, expect", [
    # (seat a, seat b, winner, points) per table; teams: 0 = seats 0, 2, 4, ...; 1 = seats 1, 3, ...
    (4, 0, [(1, 0, 0, 12), (3, 2, 2, 30)], (0, 42)),  # both players of team 0 win: both scores
    (4, 0, [(1, 0, 0, 25), (3, 2, 3, 10)], (0, 15)),  # one each: the larger scores the difference
    (4, 0, [(1, 0, 1, 10), (3, 2, 2, 25)], (0, 15)),
    (4, 0, [(1, 0, 0, 20), (3, 2, 3, 20)], (-1, 0)),  # equal: nobody scores
    (4, 0, [(1, 0, -1, 0), (3, 2, 3, 8)], (1, 8)),  # a void table counts for nobody
    (6, 25, [(1, 0, 1, 5), (3, 2, 3, 6), (5, 4, 5, 7)], (1, 43)),  # G-V-TED: all three win: 18 + 25
    (6, 25, [(1, 0, 1, 5), (3, 2, 3, 6), (5, 4, 4, 7)], (1, 4)),  # two of three: 11 - 7, no bonus
    (8, 50, [(1, 0, 0, 5), (3, 2, 2, 5), (5, 4, 4, 5), (7, 6, 6, 5)], (0, 70)),  # teams of four: +50
])
def test_team_deal_scoring_g_v_4p_g_v_ted(players, sweep, tables, expect):
    rules = R.STANDARD.replace(players=players, sweep_bonus=sweep)
    assert kernel_deal(rules, tables) == expect
    assert reference_deal(rules, tables) == expect


@pytest.mark.parametrize("players, deals", [
    (4, [[(0, 1), (2, 3)], [(0, 3), (2, 1)], [(0, 1), (2, 3)]]),
    (6, [[(0, 1), (2, 3), (4, 5)], [(0, 3), (2, 5), (4, 1)], [(0, 5), (2, 1), (4, 3)], [(0, 1), (2, 3), (4, 5)]]),
])
def test_opponents_rotate_partners_fixed_g_v_4p(players, deals):
    # G-V-4P: each player plays against one opponent, opponents rotating every deal, partners
    # fixed (teams of three, G-V-TED, rotate through all three opponents).
    from simcards.games.gin.kernel import _LG_SIZE, S_SEAT0, S_SIZE, seat_table

    rules = R.STANDARD.replace(players=players)
    enc = rules.encode()
    st = np.zeros(S_SIZE, dtype=np.int64)
    game = ReferenceGame(rules, np.zeros(players, np.int64), np.zeros((players, 9)), 0, 0, None)
    for dealer in (0, 1):
        game.dealer = dealer
        for deal_no, pairs in enumerate(deals, start=1):
            game.hand_no = deal_no
            for t, pair in enumerate(pairs):
                seat_table(st, t, dealer, deal_no, np.zeros(_LG_SIZE, dtype=np.int64), enc)
                first, second, dseat = game.seat_table(t)
                assert (first, second) == (int(st[S_SEAT0]), int(st[S_SEAT0 + 1]))
                assert sorted((first, second)) == sorted(pair) and dseat == second and dseat % 2 == dealer


def test_four_player_team_game_to_125_without_bonuses_g_v_4p():
    rules = GAME.build_rules("four-player")
    assert (rules.players, rules.game_target, rules.game_bonus, rules.box_bonus, rules.shutout_bonus) == (
        4, 125, 0, 0, 0)
    games, hands = GAME.new_run(rules, 4, GAME.strategies(["simple", "knock:max=5"], 4)).play(5, 0, 150, True)
    for g in games.itertuples():
        team = [g.team_points_0, g.team_points_1]
        assert team[g.winner] >= 125 > team[1 - g.winner]
        assert [g.team_final_0, g.team_final_1] == team and g.margin == team[g.winner] - team[1 - g.winner]
        assert g.hands == 2 * g.deals
    # every table has one player of each team; the team that did not score deals next
    for _, rows in hands.groupby("game"):
        for (_deal, _table), row in rows.set_index(["hand", "table"]).iterrows():
            seats = [p for p in range(4) if not pd_isna(row[f"deadwood_{p}"])]
            assert len(seats) == 2 and seats[0] % 2 != seats[1] % 2 and row["dealer"] in seats
        per_deal = rows.groupby("hand").first()
        dealers = per_deal["dealer"].to_numpy() % 2
        scorer = per_deal["deal_winner"].to_numpy(dtype=np.int64, na_value=-1)
        for i in range(len(per_deal) - 1):
            assert dealers[i + 1] == (dealers[i] if scorer[i] < 0 else 1 - scorer[i])
    sim = GAME.strategies(["simple", "knock:max=5"], 4)
    assert [s.spec for s in sim] == ["simple", "knock:max=5", "simple", "knock:max=5"]  # one spec per team


# ----- G-V-TED --------------------------------------------------------------------------------------
def test_tedesco_preset_g_v_ted():
    # Like Oklahoma (the knock card sets the limit, a spade doubles), aces high or low with runs
    # turning the corner, an unmelded ace 15, Hollywood to 200; an ace knock card allows 1.
    t = GAME.build_rules("tedesco")
    assert (t.oklahoma, t.round_the_corner, t.ace_value, t.hollywood, t.game_target) == (True, True, 15, True, 200)
    assert tuple(knock_card_terms(parse_cards("Ac")[0], t.encode())) == ref_knock_card_terms(parse_cards("Ac")[0], t) \
        == (1, 1)
    assert ref_knock_card_terms(parse_cards("As")[0], t) == (1, 2)


def test_tedesco_gin_round_the_corner_doubled_closes_game_1_g_v_ted():
    # Seat 0: Q♠ K♠ A♠ (a run: the ace is high) · 5♣ 5♦ 5♥ · 9♠ 9♥ 9♦ · 2♣; upcard J♠ (limit 10,
    # a spade: double). Seat 0 takes it (J-Q-K-A♠), throws the 2♣: gin. The dealer holds A♥ A♦
    # (15 each, unmelded) 7♠ 6♦ T♣ J♣ 3♥ 4♦ 8♣ 2♠ = 80, no lay-offs on gin: (20 + 80) x 2 = 200,
    # seat 0's first win — entered in Hollywood game 1 only, which it ends at once (target 200).
    deck = stack("Qs Ks As 5c 5d 5h 9s 9h 9d 2c", "Ah Ad 7s 6d Tc Jc 3h 4d 8c 2s", "Js")
    rec = play("tedesco", {}, [deck])
    h = rec.hands[0]
    assert (h.limit, h.stake, h.outcome, h.winner, h.points, h.deadwood[1]) == (10, 2, "gin", 0, 200, 80)
    assert h.entered == 1 and h.hollywood[0] == [200, 0]
    assert rec.hollywood[0]["winner"] == 0 and rec.hollywood[0]["closed"] == 1


def test_tedesco_layoff_round_the_corner_g_v_ted():
    # Seat 0: J♥ Q♥ K♥ · 5♣ 5♦ 5♥ · 9♠ 9♣ 9♦ · 3♣; upcard 6♦: limit 6. Seat 0 takes the 6♦, throws the
    # 3♣ and knocks with 6. The dealer (A♥ 2♥ 7♠ 7♦ 4♣ T♣ J♦ Q♠ 8♣ 2♠: 75, the ace counting 15)
    # lays A♥ 2♥ off on J-Q-K♥ round the corner: 58 left, seat 0 scores 58 - 6 = 52. Under the
    # standard meld rules the same cards could not be laid off (61 - 6 = 55 with the ace at 1).
    deck = stack("Jh Qh Kh 5c 5d 5h 9s 9c 9d 3c", "Ah 2h 7s 7d 4c Tc Jd Qs 8c 2s", "6d")
    h = play("tedesco", {}, [list(deck)]).hands[0]
    assert (h.limit, h.outcome, h.knocker, h.points) == (6, "knock", 0, 52)
    assert h.laid == frozenset(parse_cards("Ah 2h")) and h.deadwood == {0: 6, 1: 58}
    h = play("oklahoma", {"hollywood": True, "game_target": 200}, [list(deck)]).hands[0]
    assert h.laid == frozenset() and h.points == 61 - 6


def test_tedesco_hollywood_to_200_in_simulated_games_g_v_ted():
    rules = GAME.build_rules("tedesco")
    games, hands = GAME.new_run(rules, 2, GAME.strategies(["simple", "knock:scale=0.6,spade=2"], 2)).play(
        3, 0, 60, True)
    for k in (1, 2, 3):
        w = games[f"hw{k}_winner"].to_numpy(dtype=np.int64)
        pts = games[[f"hw{k}_points_0", f"hw{k}_points_1"]].to_numpy()
        assert (pts[np.arange(len(w)), w] >= 200).all()
    knocked = hands[hands["knocker"].notna()]
    assert (knocked["knocker_deadwood"] <= knocked["knock_limit"]).all()
    aces = hands["knock_card"].astype(str).str.startswith("A")
    assert (hands.loc[aces, "knock_limit"] == 1).all() and aces.any()


@pytest.mark.parametrize("variant, players, target, sweep", [
    ("tedesco-teams", 4, 200, 0), ("tedesco-teams-3", 6, 300, 25), ("tedesco-teams-4", 8, 400, 50)])
def test_tedesco_by_teams_g_v_ted(variant, players, target, sweep):
    # G-V-TED by teams of two (Hollywood to 200), of three (to 300, +25 when all three win their
    # hands) and of four (+50; Decision: to 400), on team scores without game or box bonuses.
    rules = GAME.build_rules(variant)
    assert (rules.players, rules.game_target, rules.sweep_bonus, rules.hollywood) == (players, target, sweep, True)
    games, hands = GAME.new_run(rules, players, GAME.strategies(["simple"], players)).play(2, 0, 12, True)
    assert (games["hands"] == games["deals"] * (players // 2)).all()
    for k in (1, 2, 3):
        w = games[f"hw{k}_winner"].to_numpy(dtype=np.int64)
        pts = games[[f"hw{k}_points_0", f"hw{k}_points_1"]].to_numpy()
        assert (pts[np.arange(len(w)), w] >= target).all()
    deals = hands.groupby(["game", "hand"]).first()
    if sweep:
        swept = games["team_sweeps_0"].sum() + games["team_sweeps_1"].sum()
        assert swept > 0
        assert (deals.loc[deals["deal_winner"].notna(), "deal_points"] > 0).all()


# ----- G-V-MJ -----------------------------------------------------------------------------------------
MJ = R.STANDARD.replace(mahjong=True, gin_bonus=25)


def test_mahjong_card_values_g_v_mj():
    # G-V-MJ: 2-9 count 5, an ace 15, 10-K 10 (Decision; mj_face=5: the source's 5).
    hand = "As 2h 9d Tc Jh Qs Kd 5c 7h 3d"  # no melds
    assert min_deadwood(hand, MJ) == 15 + 5 + 5 + 10 + 10 + 10 + 10 + 5 + 5 + 5
    assert min_deadwood(hand, MJ.replace(mj_face=5)) == 15 + 5 * 9
    assert GAME.build_rules("mahjong").gin_bonus == 25 and R.STANDARD.replace(mahjong=True).encode()[R.R_KNOCK] == 0


def test_mahjong_hand_pickup_layoffs_gin_exact_scores_g_v_mj():
    # Seat 0: 7♥ 8♥ · 5♠ 5♦ 5♣ · J♣ Q♣ K♣ · 2♦ 4♠; upcard 9♥. Seat 0 takes it and must put it on the
    # table at once: 7-8-9♥ goes down (15 points for seat 0); it throws the 4♠.
    # Seat 1 (A♠ A♥ T♦ T♥ 3♦ 6♥ 6♣ J♦ Q♠ 9♣, no melds) cannot use the 4♠, draws the 4♣ and lays off
    # 6♥ and T♥ on seat 0's run (they score for seat 1), then throws the A♠ (15).
    # Seat 0 cannot place the A♠ or the 4♠ under it, draws the 5♥ (5-5-5-5), throws the 2♦: gin.
    # Seat 0: table 15 + hand 5555 JQK 50 + 25 = 90. Seat 1: table 6♥ T♥ 15 - hand 65 = -50.
    deck = stack("7h 8h 5s 5d 5c Jc Qc Kc 2d 4s", "As Ah Td Th 3d 6h 6c Jd Qs 9c", "9h", stock="4c 5h")
    rec = play("mahjong", {}, [deck])
    h = rec.hands[0]
    assert (h.outcome, h.winner, h.points, h.mj_points, h.table_value) == ("gin", 0, 90, {0: 90, 1: -50},
                                                                          {0: 15, 1: 15})
    from simcards.games.gin.kernel import EV_PICKUP, EV_TABLE_LAYOFF

    events = hand_events(rec)
    pickup = [r for r in events if r[0] == EV_PICKUP]
    assert pickup == [[EV_PICKUP, 1, 0, 1, 0, sum(1 << c for c in parse_cards("7h 8h 9h"))]]
    assert [(r[2], r[3]) for r in events if r[0] == EV_TABLE_LAYOFF] == [(1, c) for c in parse_cards("6h Th")]
    assert rec.hands[0].scores == [90, -50] and h.pickups == 1 and h.max_take == 1


def _mj_state(hand: str, pile: str, table: list[str]):
    """A Mahjong position for both engines' pickup offers: seat 0 holds ``hand``; ``pile`` from the
    bottom up; ``table``: melds already down."""
    from simcards.games.gin.kernel import LOG_WIDTH, S_MV, S_N_MELDS, S_PILE_N, S_SIZE, mj_offer
    from simcards.games.gin.melds import SCRATCH_SIZE

    enc = MJ.encode()
    st = np.zeros(S_SIZE, dtype=np.int64)
    st[S_MV], st[S_PILE_N], st[S_N_MELDS] = MJ.meld_variant, len(parse_cards(pile)), len(table)
    pile_arr = np.zeros(52, dtype=np.int64)
    pile_arr[:len(parse_cards(pile))] = parse_cards(pile)
    masks = np.array([sum(1 << c for c in parse_cards(hand)), 0], dtype=np.int64)
    melds = np.zeros(L.MAX_MELDS, dtype=np.int64)
    for k, m in enumerate(table):
        melds[k] = sum(1 << c for c in parse_cards(m))
    opts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
    n = mj_offer(0, False, st, pile_arr, masks, melds, opts, np.zeros(SCRATCH_SIZE, dtype=np.int64))
    kernel_rows = [list(map(int, opts[i])) for i in range(n)]
    game = ReferenceGame(MJ, np.zeros(2, np.int64), np.zeros((2, 10)), 0, 0, None)
    game.hands = {0: set(parse_cards(hand)), 1: set()}
    game.pile = list(parse_cards(pile))
    game.melds = [set(parse_cards(m)) for m in table]
    reference_rows = [list(r) for r in game.pickup_options(0, False)]
    assert enc[R.R_MJ] == 1 and LOG_WIDTH > 0
    return kernel_rows, reference_rows


def test_multi_card_pickup_offers_g_v_mj():
    # Seat 0: 7♥ 8♥ 5♠ 5♦ K♣ Q♣ 2♦ 3♣ 9♠ T♣ (no melds: 65). Pile from the bottom: 4♠ 6♣ 9♥ J♦ K♠; on the
    # table T♠ J♠ Q♠. Taking 1 (K♠) lays it off on the spades: 55 after throwing a 10, 10 placed.
    # Taking 2 (down to J♦) or 4 (6♣) or 5 (4♠): the deepest card cannot be placed. Taking 3 (down
    # to 9♥): 7-8-9♥ goes down (15); J♦ and K♠ join the hand and may not be thrown this turn: 65.
    kernel_rows, reference_rows = _mj_state("7h 8h 5s 5d Kc Qc 2d 3c 9s Tc", "4s 6c 9h Jd Ks", ["Ts Js Qs"])
    ks, nine_h = parse_cards("Ks 9h")
    assert kernel_rows == reference_rows == [[0, -1, 65, 0], [1, ks, 55, 10], [3, nine_h, 65, 15]]
    # the knock family's choice: the most gain (deadwood saved + value placed): N=1 gains 20, N=3 15
    from simcards.games.gin.policies import pickup_choice

    opts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
    opts[:3] = kernel_rows
    params = GAME.strategies(["knock"], 1)[0].vector()
    assert pickup_choice(params, opts, 3) == 1
    assert pickup_choice(GAME.strategies(["knock:pile=20"], 1)[0].vector(), opts, 3) == 0  # not above 20


def test_pickup_may_not_leave_more_than_11_cards_g_v_mj():
    # Decision: a pickup must leave at most 11 cards in hand. Seat 0 holds 10 cards; the pile has 6
    # cards whose deepest, 7♣, melds with the 8♣ 9♣ in hand: 10 + 6 - 3 = 13 cards: not offered.
    kernel_rows, reference_rows = _mj_state("8c 9c 2s 4h 6d Ks Qh 3d Jh 5s", "7c Ad Th 2h 6s Kd", [])
    assert kernel_rows == reference_rows
    assert all(row[0] != 6 for row in kernel_rows)


def test_mahjong_game_scoring_and_play_g_v_mj():
    # G-V-MJ: no knocking — every hand ends in gin or at the wall; points may go below 0; a shutout
    # is a loser at 0 or less: 120 + 1 box x 20 + 200 = 340 against -30, margin 370.
    assert final_scores([120, -30], [1, 0], 0, MJ) == ([340, -30], True, 370)
    rules = GAME.build_rules("mahjong")
    games, hands = GAME.new_run(rules, 2, GAME.strategies(["simple", "knock:pile=-5"], 2)).play(2, 0, 300, True)
    assert set(hands["outcome"].astype(str)) <= {"gin", "wall"} and games["knocks"].sum() == 0
    assert (games["multi_pickups"] > 0).mean() > 0.5
    assert (hands["mj_points_0"] < 0).any() and (hands["max_take"] >= 2).any()
    won = hands[hands["winner"].notna()]
    for p in range(2):
        mine = won[won["winner"] == p]
        assert (mine["points"] == mine[f"mj_points_{p}"]).all()
    # a strategy that never takes from the pile never does
    lazy = GAME.new_run(rules, 2, GAME.strategies(["knock:pile=200"], 2)).play(3, 0, 100, False)[0]
    assert lazy["pickups"].sum() == 0
