"""Two Hundred section 5: a scenario test for every variant rule (T-V-CUT, T-V-KITTY, T-V-ROUGH,
T-V-5P, T-V-6P, T-V-2P) and each of their Decision lines, with the deal drawn in a comment and
exact expected scores, in the reference engine; the rule helpers (scoring, end of game, trick
winner) also in the kernel. The presets and single options of section 6 are at the end.

Unless a test scripts the cards, the scripted player plays its first legal option: the lowest
card by suit order (spades, hearts, diamonds, clubs), then by rank."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simcards.cards import parse_cards
from simcards.errors import SimcardsError
from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred import rules as R
from simcards.games.two_hundred.game import GAME, seat_arrays
from simcards.games.two_hundred.kernel import beats, deal_scores, game_end
from simcards.games.two_hundred.reference import (
    NO_TRUMP,
    deal_score,
    deck,
    end_of_game,
    hand_mask,
    points,
    strength,
    trick_winner,
)
from simcards.rng import new_state, rand_below, shuffle
from tests.test_two_hundred_support import Script, cards, scripted_game, suit_hand, variant


def c(text: str) -> int:
    return parse_cards(text)[0]


def kernel_scores(rules, taken, cs, ps=-1, bid=50, kitty_points=0, doubled=False):
    ds = np.zeros(L.MAX_SEATS, dtype=np.int64)
    t = np.zeros(L.MAX_SEATS, dtype=np.int64)
    t[:len(taken)] = taken
    made = deal_scores(t, rules.sides, cs, ps, bid, kitty_points, doubled, rules.encode(), ds)
    return list(ds[:rules.sides]), bool(made)


def kernel_end(rules, scores, cs, ps=-1, dealer=0, playing=None):
    sc = np.zeros(L.MAX_SEATS, dtype=np.int64)
    sc[:len(scores)] = scores
    mask = (1 << rules.sides) - 1 if playing is None else sum(1 << t for t in playing)
    winner, left, hole = game_end(sc, mask, cs, ps, dealer, rules.encode())
    return (None if winner < 0 else int(winner)), {t for t in range(rules.sides) if left >> t & 1}, bool(hole)


def both_ends(rules, scores, cs, ps=None, dealer=0, playing=None):
    """end_of_game in the reference engine, checked equal to the kernel's game_end."""
    ref = end_of_game(scores, rules, cs, ps, dealer, playing)
    assert kernel_end(rules, scores, cs, -1 if ps is None else ps, dealer, playing) == ref
    return ref


def both_scores(rules, taken, cs, bid, ps=None, kitty_points=0, doubled=False):
    ref = deal_score(taken, cs, bid, rules, ps, kitty_points, doubled)
    assert kernel_scores(rules, taken, cs, -1 if ps is None else ps, bid, kitty_points, doubled) == ref
    return ref


# ----- T-V-CUT ------------------------------------------------------------------------------------
CUT = variant("cutthroat")
#   seat 0: ♠ A K Q J T 9 8 7 5     seat 1: ♥ A K Q J T 9 8 7 5
#   seat 2: ♦ A K Q J T 9 8 7 5     seat 3: ♣ A K Q J T 9 8 7 5
SUITS4 = {0: suit_hand("s"), 1: suit_hand("h"), 2: suit_hand("d"), 3: suit_hand("c")}


def test_cutthroat_no_teams_min_bid_25_t_v_cut():
    # T-V-CUT: 4 players, no teams (every seat its own side), 9 cards each, minimum bid 25.
    assert (CUT.players, CUT.seats, CUT.sides, CUT.individual, CUT.cards_each) == (4, 4, 4, True, 9)
    # Seat 0 bids 25 and names spades: it wins all nine tricks and keeps all 100 points.
    s = Script(bids=[25, 0, 0, 0], trump=0)
    rec = scripted_game(s, [dict(SUITS4)], rules=CUT, start_scores=(150, 0, 0, 0))
    assert s.questions(L.K_BID)[0][2] == [0] + list(range(25, 101, 5))
    d = rec.deals[0]
    assert d.taken == (100, 0, 0, 0) and d.deal_scores == [100, 0, 0, 0]
    assert rec.winner == 0 and rec.scores == [250, 0, 0, 0]


#   seat 0: ♠ A K Q J T 9 8 7  ♥ 5      seat 1: ♥ A K Q J T 9 8 7  ♠ 5
#   seat 2: ♦ A K Q J T 9 8 7 5         seat 3: ♣ A K Q J T 9 8 7 5
# Seat 0 bids 40 and names hearts. Trick 1: 7♠ 5♠ 5♦ 5♣, seat 0 wins 15. Then seat 1 ruffs
# (8♠ 7♥ 7♦ 7♣) and leads its hearts; seat 0 follows once with 5♥: seat 1 takes the other 85.
CUT_FAIL = [{0: cards("As Ks Qs Js Ts 9s 8s 7s 5h"), 1: cards("Ah Kh Qh Jh Th 9h 8h 7h 5s"),
             2: suit_hand("d"), 3: suit_hand("c")}]


@pytest.mark.parametrize("option,bidder_score", [("bid", -40), ("points", -15)])
def test_cutthroat_failed_bid_t_v_cut(option, bidder_score):
    # T-V-CUT Decision: a failed bidder scores minus the bid (as T-SC-2); option
    # cutthroat_fail="points": minus the card points it took (15 here). Opponents keep theirs.
    rules = variant("cutthroat", cutthroat_fail=option)
    rec = scripted_game(Script(bids=[40, 0, 0, 0], trump=1), [dict(p) for p in CUT_FAIL], rules=rules, max_deals=1)
    d = rec.deals[0]
    assert d.taken == (15, 85, 0, 0) and d.made is False
    assert d.deal_scores == [bidder_score, 85, 0, 0]
    assert both_scores(rules, [15, 85, 0, 0], 0, 40) == ([bidder_score, 85, 0, 0], False)
    assert both_scores(rules, [45, 55, 0, 0], 0, 40) == ([45, 55, 0, 0], True)  # made: keeps its points


def test_cutthroat_game_end_as_five_player_t_v_cut():
    # T-V-CUT: game end as T-V-5P (no partner): the bidder wins if at 200+ even when another is
    # higher; else the highest at 200+; ties to the first clockwise from the dealer's left;
    # nobody at 200 but someone at -200: the highest score wins. Nobody is eliminated.
    assert both_ends(CUT, [205, 230, 0, 0], 0) == (0, {0, 1, 2, 3}, False)
    assert both_ends(CUT, [150, 230, 210, 0], 0) == (1, {0, 1, 2, 3}, False)
    assert both_ends(CUT, [150, 220, 0, 220], 0, dealer=2) == (3, {0, 1, 2, 3}, False)  # seat 3 first after 2
    assert both_ends(CUT, [150, 220, 0, 220], 0, dealer=0) == (1, {0, 1, 2, 3}, False)
    assert both_ends(CUT, [-205, 40, 60, 10], 0) == (2, {0, 1, 2, 3}, True)
    assert both_ends(CUT, [-205, 60, 60, 10], 0, dealer=1) == (2, {0, 1, 2, 3}, True)
    assert both_ends(CUT, [-195, 60, 60, 10], 0)[0] is None


# ----- T-V-5P -------------------------------------------------------------------------------------
FIVE = variant("five-player")
#   seat 0: ♠ A K Q J T 9 8 7                 seat 1: ♦ A K Q J T 9 8 7
#   seat 2: ♠ 6 5  ♦ 6 5  ♥ A K Q J           seat 3: ♥ T 9 8 7 6 5  ♣ A K
#   seat 4: ♣ Q J T 9 8 7 6 5
FIVE_HANDS = {0: cards("As Ks Qs Js Ts 9s 8s 7s"), 1: cards("Ad Kd Qd Jd Td 9d 8d 7d"),
              2: cards("6s 5s 6d 5d Ah Kh Qh Jh"), 3: cards("Th 9h 8h 7h 6h 5h Ac Kc"),
              4: cards("Qc Jc Tc 9c 8c 7c 6c 5c")}


def test_five_players_forty_cards_eight_each_t_v_5p():
    # T-V-5P: five players, 40 cards (only 2, 3, 4 removed), ranked A K Q J 10 9 8 7 6 5, 8 each.
    assert (FIVE.players, FIVE.seats, FIVE.sides, FIVE.deck, FIVE.cards_each) == (5, 5, 5, 40, 8)
    d40 = deck(40)
    assert len(d40) == 40 and sum(points(x) for x in d40) == 100 and points(c("6h")) == 0
    assert [strength(x) for x in parse_cards("Ah Kh Qh Jh Th 9h 8h 7h 6h 5h")] == list(range(9, -1, -1))
    assert trick_winner(parse_cards("5h 6h 7h Kd"), 0, 3) == 2  # 7 beats 6 beats 5
    assert trick_winner(parse_cards("6h 5h"), 0, 0, 2) == 0
    rng = new_state(0, 0)  # scripted_game plays game 0 of seed 0
    dealer = int(rand_below(rng, 5))
    shuffled = np.array(d40, dtype=np.int64)
    shuffle(rng, shuffled, 40)
    rec = scripted_game(Script(), None, rules=FIVE, first_dealer=None, max_deals=1)
    assert rec.first_dealer == dealer
    want = {p: sorted(int(x) for k, x in enumerate(shuffled) if (dealer + 1 + k) % 5 == p) for p in range(5)}
    assert rec.deals[0].hands == want and all(len(h) == 8 for h in want.values())


def test_auction_ends_after_four_passes_t_v_5p():
    # T-V-5P: the auction ends when a bid is followed by four passes (dealer 4: seat 0 first).
    s = Script(bids=[60, 0, 0, 0, 0], trump=0, call="Ah")
    scripted_game(s, [dict(FIVE_HANDS)], rules=FIVE, first_dealer=4, max_deals=1)
    assert [q[1] for q in s.questions(L.K_BID)] == [0, 1, 2, 3, 4]


def test_called_partner_made_scores_pair_total_t_v_5p():
    # T-V-5P: seat 0 bids 60, names spades (Decision: trump first, then the call) and calls the
    # A♥, a card it does not hold: seat 2 holds it and is the secret partner. Seat 0 leads its
    # spades and wins all 8 tricks (100 points; seat 2 took none): made, so seat 0 and seat 2
    # each score the pair's 100; the others score what they took (0).
    s = Script(bids=[60, 0, 0, 0, 0], trump=0, call="Ah")
    rec = scripted_game(s, [dict(FIVE_HANDS)], rules=FIVE, first_dealer=4, max_deals=1)
    kinds = [q[0] for q in s.asked if q[0] != L.K_BID]
    assert kinds[:2] == [L.K_TRUMP, L.K_CALL]  # Decision: the partner card is called after trump
    call_options = s.questions(L.K_CALL)[0][2]
    assert len(call_options) == 32 and not set(call_options) & set(FIVE_HANDS[0])  # not in the bidder's hand
    d = rec.deals[0]
    assert (d.called, d.partner) == (c("Ah"), 2)
    assert d.taken == (100, 0, 0, 0, 0) and d.made is True
    assert d.deal_scores == [100, 0, 100, 0, 0]
    assert both_scores(FIVE, [40, 10, 25, 25, 0], 0, 60, ps=2) == ([65, 10, 65, 25, 0], True)


@pytest.mark.parametrize("shares,partner_score", [(True, -60), (False, 0)])
def test_called_partner_failed_t_v_5p(shares, partner_score):
    # T-V-5P: the same deal with diamonds as trump: seat 1 ruffs trick 1 (7♠ 7♦ 5♠ 5♥ 5♣) and
    # draws every trump; it takes all 100. Bidder and partner (seat 2, who holds A♥) took 0 < 60:
    # the bidder scores -60, and so does the partner (partner_shares_loss, default on; off: the
    # partner scores its own 0).
    rules = variant("five-player", partner_shares_loss=shares)
    s = Script(bids=[60, 0, 0, 0, 0], trump=2, call="Ah")
    rec = scripted_game(s, [dict(FIVE_HANDS)], rules=rules, first_dealer=4, max_deals=1)
    d = rec.deals[0]
    assert d.taken == (0, 100, 0, 0, 0) and d.made is False and d.partner == 2
    assert d.deal_scores == [-60, 100, partner_score, 0, 0]
    assert both_scores(rules, [20, 30, 25, 25, 0], 0, 60, ps=2) == ([-60, 30, -60 if shares else 25, 25, 0], False)


def test_secret_partner_revealed_only_by_play_t_v_5p():
    # T-V-5P: the holder does not announce it: nobody's view shows the partner until the A♥ is
    # played (trick 8, by seat 2, in the failed deal above); from then on every view does.
    s = Script(bids=[60, 0, 0, 0, 0], trump=2, call="Ah")
    scripted_game(s, [dict(FIVE_HANDS)], rules=FIVE, first_dealer=4, max_deals=1)
    plays = s.questions(L.K_PLAY)
    shown = [int(q[4][L.V_PARTNER]) for q in plays]
    first = next(i for i, q in enumerate(plays) if q[1] == 2 and q[2] == [c("Ah")])  # seat 2's last card
    assert all(p == -1 for p in shown[:first + 1]) and all(p == 2 for p in shown[first + 1:])
    assert all(q[4][L.V_CALLED] == c("Ah") for q in plays)  # the called card itself is public


def test_five_player_game_end_t_v_5p():
    # T-V-5P Decision (game end): among players at 200+ the bidder wins, else the secret partner
    # ("the bidding side wins"), else the highest score; nobody at 200 but someone at -200: the
    # highest score; remaining ties: first clockwise from the dealer's left. Nobody is eliminated.
    everyone = {0, 1, 2, 3, 4}
    assert both_ends(FIVE, [210, 250, 0, 0, 0], 0, 2) == (0, everyone, False)
    assert both_ends(FIVE, [150, 250, 205, 0, 0], 0, 2) == (2, everyone, False)
    assert both_ends(FIVE, [150, 220, 100, 0, 230], 0, 2) == (4, everyone, False)
    assert both_ends(FIVE, [150, 220, 100, 0, 220], 0, 2, dealer=2) == (4, everyone, False)
    assert both_ends(FIVE, [150, 220, 100, 0, 220], 0, 2, dealer=4) == (1, everyone, False)
    assert both_ends(FIVE, [-210, 50, 60, 60, 0], 0, 2, dealer=4) == (2, everyone, True)
    assert both_ends(FIVE, [-210, 50, 60, 60, 0], 0, 2, dealer=2) == (3, everyone, True)
    assert both_ends(FIVE, [-150, 50, 60, 60, 0], 0, 2)[0] is None


# ----- T-V-KITTY ----------------------------------------------------------------------------------
KITTY = variant("kitty")


def _packet_deal(seed, game, rules):
    """The deal of two-hundred.md written out: 3 to each from the dealer's left, 2 to the kitty,
    3 to each, 2 to the kitty, the rest to each."""
    rng = new_state(seed, game)
    dealer = int(rand_below(rng, rules.players))
    d = np.array(deck(rules.deck), dtype=np.int64)
    shuffle(rng, d, rules.deck)
    d = [int(x) for x in d]
    order = [(dealer + k) % 4 for k in range(1, 5)]
    hands, kitty, pos = {p: [] for p in order}, [], 0
    for packet in (3, 3, rules.cards_each - 6):
        for p in order:
            hands[p] += d[pos:pos + packet]
            pos += packet
        if len(kitty) < 4:
            kitty += d[pos:pos + 2]
            pos += 2
    return dealer, {p: sorted(h) for p, h in hands.items()}, kitty


@pytest.mark.parametrize("preset,pattern", [("kitty", (3, 3, 3)), ("le-rough", (3, 3, 2))])
def test_kitty_deal_pattern_t_v_kitty_t_v_rough(preset, pattern):
    # T-V-KITTY: 40 cards, 3 each, 2 kitty, 3 each, 2 kitty, 3 each: 9 each and a 4-card kitty.
    # T-V-ROUGH: 36 cards, 3, 2 kitty, 3, 2 kitty, 2: 8 each.
    rules = variant(preset)
    assert (rules.deck, rules.kitty, rules.cards_each) == ((40, 4, 9) if preset == "kitty" else (36, 4, 8))
    assert rules.cards_each == sum(pattern)
    from simcards.games.two_hundred.reference import ReferenceGame

    for game in range(5):
        dealer, hands, kitty = _packet_deal(8, game, rules)
        g = ReferenceGame(rules, np.zeros(4, np.int64), np.zeros((4, 8)), 8, game, Script(), max_deals=1).play()
        assert g.first_dealer == dealer and g.deals[0].hands == hands and g.deals[0].kitty == kitty


#   seat 0: ♠ A K Q J T 9 8 7 6   seat 1: ♥ A K Q J T 9 8 7 6   seat 2: ♦ ...   seat 3: ♣ ...
#   kitty:  5♠ 5♥ 5♦ 5♣ (20 points)
KITTY_DEAL = {p: suit_hand(x, "A K Q J T 9 8 7 6") for p, x in enumerate("shdc")} | {"kitty": cards("5s 5h 5d 5c")}


def test_bidder_takes_kitty_then_names_trump_t_v_kitty():
    # T-V-KITTY: the highest bidder takes the kitty (Decision: always) and buries 4 cards face
    # down (13 cards to choose from, then 12, 11, 10), then names trump. It buries 6♠ 5♥ 5♦ 5♣
    # (15 points), names spades and wins every trick: 85 points in tricks; the kitty's 15 go to
    # the defending team. Made (85 >= 50): team 0 +85, team 1 +15.
    assert KITTY.deck == 40 and KITTY.min_bid == 50
    s = Script(bids=[50, 0, 0, 0], trump=0, discards=["6s", "5h", "5d", "5c"])
    rec = scripted_game(s, [dict(KITTY_DEAL)], rules=KITTY, max_deals=1)
    after_auction = [q for q in s.asked if q[0] != L.K_BID]
    assert [q[0] for q in after_auction[:5]] == [L.K_DISCARD] * 4 + [L.K_TRUMP]
    assert [len(q[2]) for q in after_auction[:4]] == [13, 12, 11, 10]
    d = rec.deals[0]
    assert sorted(d.buried) == cards("6s 5h 5d 5c") and d.kitty_points == 15
    assert d.taken == (85, 0) and d.made is True and d.deal_scores == [85, 15]
    assert both_scores(KITTY, [85, 0], 0, 90, kitty_points=15) == ([-90, 15], False)


def test_kitty_may_go_back_unchanged_t_v_kitty():
    # T-V-KITTY Decision: the simulator always takes the kitty; the same four cards may be put
    # back. Burying 5♠ 5♥ 5♦ 5♣ hands their 20 points to the defenders: 80 against 20.
    s = Script(bids=[50, 0, 0, 0], trump=0, discards=["5s", "5h", "5d", "5c"])
    rec = scripted_game(s, [dict(KITTY_DEAL)], rules=KITTY, max_deals=1)
    d = rec.deals[0]
    assert sorted(d.buried) == cards("5s 5h 5d 5c") and d.deal_scores == [80, 20]
    assert sum(d.taken) + d.kitty_points == 100


def test_heuristic_buries_no_points_needlessly_t_v_kitty():
    # Strategy (T-V-KITTY, T-V-ROUGH): the heuristic buries cards without points while it has
    # four; with fewer, the cheapest point cards (5s before 10s and Aces).
    from simcards.games.two_hundred.policies import builtin_decide  # the engines' dispatcher: no second compile

    strat = GAME.strategies(["heuristic"], 4)[0]
    table = np.tile(strat.vector(), (4, 1))  # every seat's row the heuristic's (the decider is seat 0)

    def bury(hand, rules):
        hand = list(hand)
        out = []
        for _ in range(4):
            opts = np.zeros(L.MAX_OPTIONS, dtype=np.int64)
            options = sorted(hand, key=lambda x: (x // 13, strength(x)))
            opts[:len(options)] = options
            view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
            view[L.V_N_ACTIVE], view[L.V_ACTIVE], view[L.V_BID], view[L.V_TRUMP] = 4, 15, 50, -1
            view[L.V_CALLED] = view[L.V_PARTNER] = -1
            i = builtin_decide(L.K_DISCARD, strat.family.sid, table, np.int64(hand_mask(hand)), opts, len(options),
                               view, rules.encode(), new_state(0, 0))
            out.append(options[i])
            hand.remove(options[i])
        return out

    # 13 cards, 5 without points: none of the points go to the defenders.
    hand = cards("As Ts 5s Ks Qs Ah Th 9h 8h Ad 5d Ac 7c")
    assert sum(points(x) for x in bury(hand, KITTY)) == 0
    # 13 cards, only 2 without points (K♠ 9♥): they go first, then two 5s.
    hand = cards("As Ts 5s Ks Ah Th 5h 9h Ad Td 5d Ac Tc")
    buried = bury(hand, KITTY)
    assert sorted(buried[:2]) == cards("Ks 9h") and all(points(x) == 5 for x in buried[2:])
    # Over many heuristic deals (kernel), a bidder holding four pointless cards never buries a point.
    from simcards.games.two_hundred.kernel import EV_DISCARD, EV_HAND, EV_KITTY
    from tests.test_two_hundred_support import kernel_run, mask_cards

    for preset in ("kitty", "le-rough"):
        rules = variant(preset)
        checked = 0
        for game in range(60):
            log, _, _ = kernel_run(["heuristic"], 5, game, rules)
            hands = {}
            for ev, _, seat, a, _ in log.tolist():
                if ev == EV_HAND:
                    hands[seat] = mask_cards(a)
                elif ev == EV_KITTY:
                    held = hands[seat] + mask_cards(a)
                    buried = []
                elif ev == EV_DISCARD:
                    buried.append(a)
                    if len(buried) == 4 and sum(points(x) == 0 for x in held) >= 4:
                        assert sum(points(x) for x in buried) == 0
                        checked += 1
        assert checked > 30


# ----- T-V-ROUGH ----------------------------------------------------------------------------------
ROUGH = variant("le-rough")
#   seat 0: ♠ A K Q J T 9 8 7   seat 1: ♥ A K Q J T 9 8 7   seat 2: ♦ ...   seat 3: ♣ ...
#   kitty:  5♠ 5♥ 5♦ 5♣
ROUGH_DEAL = {p: suit_hand(x, "A K Q J T 9 8 7") for p, x in enumerate("shdc")} | {"kitty": cards("5s 5h 5d 5c")}
BURY = ["7s", "5h", "5d", "5c"]  # 15 points to the defenders; seat 0 keeps A K Q J T 9 8 5 of spades


def test_le_rough_table_t_v_rough():
    # T-V-ROUGH: 36 cards, 2 teams, 8 each + a 4-card kitty, minimum bid 70, 350 wins, -200 loses,
    # the bidder may name no trump; 8 tricks.
    assert (ROUGH.deck, ROUGH.cards_each, ROUGH.kitty, ROUGH.min_bid, ROUGH.target, ROUGH.hole) == (36, 8, 4, 70, 350, -200)
    assert ROUGH.no_trump and not ROUGH.dealer_bids_after_passes and ROUGH.sides == 2
    s = Script(bids=[70, 0, 0, 0], trump=NO_TRUMP, discards=BURY)
    rec = scripted_game(s, [dict(ROUGH_DEAL)], rules=ROUGH, max_deals=1)
    assert s.questions(L.K_BID)[0][2] == [0] + list(range(70, 101, 5))
    assert s.questions(L.K_TRUMP)[0][2] == [0, 1, 2, 3, NO_TRUMP]
    assert len(rec.deals[0].tricks) == 8


@pytest.mark.parametrize("trump,bid,want,made", [
    (NO_TRUMP, 70, [170, 30], True),   # no trump: made on 85 undoubled; every score doubled
    (NO_TRUMP, 90, [-180, 30], False),  # 85 < 90 fails (though 2 × 85 ≥ 90): minus the bid, doubled
    (0, 70, [85, 15], True),            # spades trump: nothing doubled
])
def test_no_trump_doubles_the_deal_t_v_rough(trump, bid, want, made):
    # T-V-ROUGH: seat 0 takes the kitty, buries 7♠ 5♥ 5♦ 5♣ (15 points, to the defenders) and
    # wins all 8 tricks with its spades (in no trump the highest card of the suit led wins):
    # 85 points. Made or failed is judged on the undoubled points; then in no trump each team's
    # deal score, the bidder's minus-the-bid included, is doubled.
    s = Script(bids=[bid, 0, 0, 0], trump=trump, discards=BURY)
    rec = scripted_game(s, [dict(ROUGH_DEAL)], rules=ROUGH, max_deals=1)
    d = rec.deals[0]
    assert d.taken == (85, 0) and d.kitty_points == 15 and d.made is made and d.deal_scores == want
    assert both_scores(ROUGH, [85, 0], 0, bid, kitty_points=15, doubled=trump == NO_TRUMP) == (want, made)


def test_no_trump_trick_winner_t_v_rough():
    # T-V-ROUGH: no trump: the highest card of the suit led wins, whatever else is played.
    assert trick_winner(parse_cards("9h As Kh Ad"), 0, NO_TRUMP) == 2
    for a, b in itertools.permutations(deck(), 2):
        want = trick_winner([a, b], 0, NO_TRUMP) == 1
        assert beats(int(L.BIT_OF_FACE[b]), int(L.BIT_OF_FACE[a]), NO_TRUMP) == want
        assert want == (a // 13 == b // 13 and strength(b) > strength(a))


def test_350_wins_and_minus_200_still_loses_t_v_rough():
    # T-V-ROUGH: 350 wins ("other features are the same": -200 still loses).
    win = scripted_game(Script(bids=[70, 0, 0, 0], trump=NO_TRUMP, discards=BURY), [dict(ROUGH_DEAL)],
                        rules=ROUGH, start_scores=(190, 0))
    assert win.winner == 0 and win.scores == [360, 30] and len(win.deals) == 1
    on = scripted_game(Script(bids=[70, 0, 0, 0], trump=NO_TRUMP, discards=BURY), [dict(ROUGH_DEAL)],
                       rules=ROUGH, start_scores=(100, 0), max_deals=2)
    assert on.deals[0].scores == [270, 30] and len(on.deals) == 2  # 270 would win the standard game
    hole = scripted_game(Script(bids=[90, 0, 0, 0], trump=NO_TRUMP, discards=BURY), [dict(ROUGH_DEAL)],
                         rules=ROUGH, start_scores=(-30, 0))
    assert hole.winner == 1 and hole.scores == [-210, 30] and hole.hole


def test_dealer_may_not_bid_after_three_passes_t_v_rough():
    # T-V-ROUGH: if the first three players pass, the dealer may not bid: thrown in, and the
    # next player deals.
    s = Script(bids=[0, 0, 0, 0])
    rec = scripted_game(s, [dict(ROUGH_DEAL), dict(ROUGH_DEAL)], rules=ROUGH, first_dealer=3, max_deals=2)
    bids = s.questions(L.K_BID)
    assert [q[1] for q in bids[:4]] == [0, 1, 2, 3] and bids[3][2] == [0]
    assert rec.deals[0].bidder is None and rec.deals[0].deal_scores == [0, 0]
    assert rec.deals[1].dealer == 0 and bids[4][1] == 1


# ----- T-V-6P -------------------------------------------------------------------------------------
SIX3 = variant("six-3x2")
SIX2 = variant("six-2x3")


def test_six_players_teams_t_v_6p():
    # T-V-6P: 36 cards, 6 each; 3 teams of 2 with partners opposite (seats s and s+3), or 2 teams
    # of 3 alternating (each player between two opponents).
    assert (SIX3.seats, SIX3.sides, SIX3.cards_each, SIX3.deck) == (6, 3, 6, 36)
    assert [SIX3.side_seats(t) for t in range(3)] == [[0, 3], [1, 4], [2, 5]]
    assert [SIX2.side_seats(t) for t in range(2)] == [[0, 2, 4], [1, 3, 5]]
    assert all(SIX2.side_of(s) != SIX2.side_of((s + 1) % 6) and SIX2.side_of(s) != SIX2.side_of((s - 1) % 6)
               for s in range(6))


#   seat 0: ♠ A K Q J T 9    seat 1: ♥ J T 9 8 7 5      seat 2: ♦ 8 7 5  ♣ A K Q
#   seat 3: ♠ 8 7 5  ♥ A K Q  seat 4: ♦ A K Q J T 9    seat 5: ♣ J T 9 8 7 5
SIX_HANDS = {0: cards("As Ks Qs Js Ts 9s"), 1: cards("Jh Th 9h 8h 7h 5h"), 2: cards("8d 7d 5d Ac Kc Qc"),
             3: cards("8s 7s 5s Ah Kh Qh"), 4: cards("Ad Kd Qd Jd Td 9d"), 5: cards("Jc Tc 9c 8c 7c 5c")}


def test_six_player_auction_and_team_points_t_v_6p():
    # T-V-6P Decision: the auction ends after a bid and five passes. Seat 0 bids 50, names spades
    # and leads A K Q J T 9: partners 0 and 3 hold every spade, so team 0 wins all 6 tricks.
    s = Script(bids=[50, 0, 0, 0, 0, 0], trump=0, plays=["As", "Ks", "Qs", "Js", "Ts", "9s"])
    rec = scripted_game(s, [dict(SIX_HANDS)], rules=SIX3, first_dealer=5, max_deals=1)
    assert [q[1] for q in s.questions(L.K_BID)] == [0, 1, 2, 3, 4, 5]
    d = rec.deals[0]
    assert len(d.tricks) == 6 and all(w == 0 for _, _, w, _ in d.tricks)
    assert d.taken == (100, 0, 0) and d.deal_scores == [100, 0, 0]
    # The same deal with two teams of three: team 0 = seats 0, 2, 4.
    rec2 = scripted_game(Script(bids=[50, 0, 0, 0, 0, 0], trump=0, plays=["As", "Ks", "Qs", "Js", "Ts", "9s"]),
                         [dict(SIX_HANDS)], rules=SIX2, first_dealer=5, max_deals=1)
    assert rec2.deals[0].taken == (100, 0) and rec2.deals[0].deal_scores == [100, 0]


def test_three_team_game_end_t_v_6p():
    # T-V-6P Decision, three teams: (1) a team at 200+: the contractor if among them, else the
    # higher score, a further tie to the team seated first clockwise from the dealer; (2) else
    # every team at -200 leaves, and if two leave at once the third wins.
    assert both_ends(SIX3, [210, 220, 0], 0) == (0, {0, 1, 2}, False)
    assert both_ends(SIX3, [210, 220, 0], 2) == (1, {0, 1, 2}, False)
    assert both_ends(SIX3, [220, 220, 0], 2, dealer=5) == (0, {0, 1, 2}, False)  # seat 0 first after 5
    assert both_ends(SIX3, [220, 220, 0], 2, dealer=0) == (1, {0, 1, 2}, False)
    assert both_ends(SIX3, [210, 60, -250], 2) == (0, {0, 1, 2}, False)  # (1) before (2)
    assert both_ends(SIX3, [-210, 50, 60], 0) == (None, {1, 2}, False)
    assert both_ends(SIX3, [-210, -205, 60], 0) == (2, {2}, True)
    # Once a team has left, two teams play on: the standard T-END-1/2.
    assert both_ends(SIX3, [-210, 150, -200], 2, playing={1, 2}) == (1, {1}, True)
    assert both_ends(SIX3, [-210, 210, 205], 2, playing={1, 2}) == (2, {1, 2}, False)
    # Two teams of three: the standard game's end.
    assert both_ends(SIX2, [200, 10], 1) == (0, {0, 1}, False)
    assert both_ends(SIX2, [-200, 10], 0) == (1, {1}, True)


#   Deal 2, four players left (team 0 has gone): seat 2: all spades, seat 4: all hearts,
#   seat 5: all diamonds, seat 1: all clubs (9 each).
FOUR_LEFT = {2: suit_hand("s"), 4: suit_hand("h"), 5: suit_hand("d"), 1: suit_hand("c")}


def test_team_leaves_and_four_play_on_t_v_6p():
    # T-V-6P Decision (3): team 0 (-150) bids 100 and fails: -250, it leaves. The four remaining
    # players continue as the standard game: 36 cards, 9 each, partners opposite (seats 1, 4 and
    # 2, 5 alternate around the table), scores carried over; the deal passes to seat 1 (seat 0 is
    # gone), so seat 2 bids first, and the auction ends after a bid and three passes. Seat 2 names
    # spades and takes all 100: team 2 goes from 120 + its deal-1 points to 200+ and wins.
    # Deal 1, trump diamonds (seat 4's suit): seat 4 ruffs the first spade and draws trumps, team 1
    # takes all 100 (100, not 200: nobody wins yet).
    s = Script(bids=[100, 0, 0, 0, 0, 0, 50, 0, 0, 0], trump=[2, 0])
    rec = scripted_game(s, [dict(SIX_HANDS), dict(FOUR_LEFT)], rules=SIX3, first_dealer=5, start_scores=(-150, 0, 120))
    d1, d2 = rec.deals[0], rec.deals[1]
    assert d1.made is False and d1.deal_scores[0] == -100 and d1.out == 0 and d1.scores[0] == -250
    assert d2.dealer == 1 and sorted(d2.hands) == [1, 2, 4, 5] and all(len(h) == 9 for h in d2.hands.values())
    assert [seat for seat, _ in d2.bids] == [2, 4, 5, 1] and d2.bidder == 2
    assert d2.taken == (0, 0, 100) and d2.deal_scores == [0, 0, 100]
    assert d1.taken == (0, 100, 0) and d1.scores == [-250, 100, 120]
    assert d2.scores == [-250, 100, 220]
    assert rec.winner == 2 and len(rec.deals) == 2 and not rec.hole
    assert all(len(t[1]) == 4 for t in d2.tricks) and len(d2.tricks) == 9


# ----- T-V-2P -------------------------------------------------------------------------------------
TWO = variant("two-player")
#   seat 0 (A): ♠ A K Q J T 9 8 7 5          seat 1 (B): ♥ A K Q J T 9 8 7 5
#   seat 2 (A's dummy), piles bottom→top:   5♦ 7♦ [A♦] | 8♦ 9♦ [T♦] | J♦ Q♦ [K♦]
#   seat 3 (B's dummy):                     5♣ 7♣ [8♣] | 9♣ T♣ [J♣] | Q♣ K♣ [A♣]
TWO_DEAL = {0: suit_hand("s"), 1: suit_hand("h"),
            2: parse_cards("5d 7d Ad 8d 9d Td Jd Qd Kd"), 3: parse_cards("5c 7c 8c 9c Tc Jc Qc Kc Ac")}


def test_two_player_table_t_v_2p():
    # T-V-2P: two real players and their dummies, seated A, B, A's dummy (opposite A), B's dummy;
    # same deck, ranks and scoring (A and its dummy are side 0); each dummy's 9 cards lie in 3
    # piles of 3, the top card face up; its owner plays for it with the same strategy.
    assert (TWO.players, TWO.seats, TWO.sides, TWO.deck, TWO.cards_each) == (2, 4, 2, 36, 9)
    assert TWO.side_seats(0) == [0, 2] and TWO.side_seats(1) == [1, 3]
    sids, params = seat_arrays(GAME.strategies(["heuristic:aggr=0.9", "random"], 2), TWO)
    assert list(sids) == [1, 0, 1, 0] and params[2, 0] == 0.9 and (params[0] == params[2]).all()
    s = Script(bids=[50, 0], trump=0)
    rec = scripted_game(s, [dict(TWO_DEAL)], rules=TWO, first_dealer=1, max_deals=1)
    first_play_of_dummy = next(q for q in s.questions(L.K_PLAY) if q[1] == 2)
    assert first_play_of_dummy[3] == hand_mask(cards("Ad Td Kd"))  # it shows only its face-up cards
    assert first_play_of_dummy[4][L.V_OWN_SEEN] == hand_mask(cards("Ks Qs Js Ts 9s 8s 7s As"))  # and A's hand
    assert rec.deals[0].hands[2] == TWO_DEAL[2]


def test_only_real_players_bid_t_v_2p():
    # T-V-2P: only A and B bid; a bid the other does not raise wins. Decision: the real player
    # left of the dealer bids first (B deals: A first; A deals: B first).
    s = Script(bids=[50, 0], trump=0)
    rec = scripted_game(s, [dict(TWO_DEAL)], rules=TWO, first_dealer=1, max_deals=1)
    assert [q[1] for q in s.questions(L.K_BID)] == [0, 1] and rec.deals[0].bidder == 0
    s = Script(bids=[0, 55, 0], trump=0)
    rec = scripted_game(s, [dict(TWO_DEAL)], rules=TWO, first_dealer=0, max_deals=1)
    assert [q[1] for q in s.questions(L.K_BID)] == [1, 0] and rec.deals[0].bid == 55 and rec.deals[0].bidder == 0


def test_two_passes_redeal_and_deal_alternates_t_v_2p():
    # T-V-2P Decision: if both pass, the next dealer redeals and nobody scores; the deal
    # alternates between A and B.
    s = Script()
    rec = scripted_game(s, [dict(TWO_DEAL)] * 3, rules=TWO, first_dealer=1, start_scores=(10, 20), max_deals=3)
    assert [d.dealer for d in rec.deals] == [1, 0, 1]
    assert all(d.bidder is None and d.deal_scores == [0, 0] for d in rec.deals) and rec.scores == [10, 20]
    assert [q[1] for q in s.questions(L.K_BID)] == [0, 1, 1, 0, 0, 1]


def test_dummies_play_face_up_cards_and_turn_up_the_next_t_v_2p():
    # T-V-2P: A bids 50, names spades and leads from its own hand (Decision); tricks are 4 cards
    # clockwise A, B, A's dummy, B's dummy; each dummy plays one of its face-up cards (here the
    # lowest) and the next card of that pile is turned up. A's spades win all 9 tricks: +100.
    s = Script(bids=[50, 0], trump=0)
    rec = scripted_game(s, [dict(TWO_DEAL)], rules=TWO, first_dealer=1, max_deals=1)
    d = rec.deals[0]
    assert d.tricks[0][0] == 0 and d.tricks[0][1] == parse_cards("5s 5h Td 8c")
    assert all(t[0] == 0 and len(t[1]) == 4 for t in d.tricks) and len(d.tricks) == 9
    assert [f for _, seat, f in d.reveals if seat == 2] == parse_cards("9d 8d Qd Jd 7d 5d")
    assert [f for _, seat, f in d.reveals if seat == 3] == parse_cards("7c 5c Tc 9c Kc Qc")
    assert d.taken == (100, 0) and d.made and d.deal_scores == [100, 0]
    dummy_options = [q[2] for q in s.questions(L.K_PLAY) if q[1] == 2]
    assert dummy_options[:3] == [parse_cards("Td Kd Ad"), parse_cards("9d Kd Ad"), parse_cards("8d Kd Ad")]


#   A's dummy: 5♣ 7♦ [A♦] | 8♦ 9♦ [T♦] | J♦ Q♦ [K♦]      B's dummy: 5♦ 7♣ [8♣] | 9♣ T♣ [J♣] | Q♣ K♣ [A♣]
HIDDEN_DIAMOND = {**TWO_DEAL, 2: parse_cards("5c 7d Ad 8d 9d Td Jd Qd Kd"), 3: parse_cards("5d 7c 8c 9c Tc Jc Qc Kc Ac")}


def test_dummy_that_wins_leads_and_follows_on_visible_cards_t_v_2p():
    # T-V-2P: A names diamonds; trick 1 (5♠ 5♥ T♦ 8♣) is won by A's dummy with the T♦ trump, so
    # the dummy leads trick 2 (A chooses which face-up card: 9♦, just turned up). Decision: a
    # dummy must follow suit only with a face-up card: B's dummy shows 7♣ J♣ A♣ and may play any
    # of them, although its face-down 5♦ is a diamond.
    s = Script(bids=[50, 0], trump=2)
    rec = scripted_game(s, [dict(HIDDEN_DIAMOND)], rules=TWO, first_dealer=1, max_deals=1)
    d = rec.deals[0]
    assert d.tricks[0][1] == parse_cards("5s 5h Td 8c") and d.tricks[0][2] == 2
    assert d.tricks[1][0] == 2 and d.tricks[1][1][0] == c("9d")
    lead_q = [q for q in s.questions(L.K_PLAY) if q[1] == 2][1]
    assert lead_q[2] == parse_cards("9d Kd Ad") and lead_q[4][L.V_LEAD_SUIT] == -1
    follow_q = [q for q in s.questions(L.K_PLAY) if q[1] == 3][1]
    assert follow_q[4][L.V_LEAD_SUIT] == 2 and follow_q[2] == parse_cards("7c Jc Ac")


# ----- Section 6: presets and single options --------------------------------------------------------
def test_presets_t_v_all():
    # Section 6: every preset exists and sets what the table says (T-V-2P, T-V-5P, T-V-KITTY,
    # T-V-ROUGH, T-V-CUT, T-V-6P).
    got = {name: GAME.build_rules(name) for name in GAME.presets()}
    assert list(got) == ["standard", "two-player", "five-player", "kitty", "le-rough", "cutthroat", "six-3x2", "six-2x3"]
    assert got["standard"] == R.STANDARD and got["standard"].players == 4
    table = {name: (r.mode, r.players, r.deck, r.cards_each, r.kitty, r.min_bid, r.target, r.no_trump,
                    r.dealer_bids_after_passes) for name, r in got.items()}
    assert table == {
        "standard": ("teams", 4, 36, 9, 0, 50, 200, False, True),
        "two-player": ("two-player", 2, 36, 9, 0, 50, 200, False, True),
        "five-player": ("five-player", 5, 40, 8, 0, 50, 200, False, True),
        "kitty": ("teams", 4, 40, 9, 4, 50, 200, False, True),
        "le-rough": ("teams", 4, 36, 8, 4, 70, 350, True, False),
        "cutthroat": ("cutthroat", 4, 36, 9, 0, 25, 200, False, True),
        "six-3x2": ("six-3x2", 6, 36, 6, 0, 50, 200, False, True),
        "six-2x3": ("six-2x3", 6, 36, 6, 0, 50, 200, False, True),
    }
    assert {name: GAME.players_for(r) for name, r in got.items()} == {n: t[1] for n, t in table.items()}


def test_single_options_on_their_own():
    # Section 6: minimum bid, bid step, target, hole, no trump, kitty size and deck are each
    # settable alone on any table.
    s = Script(bids=[0, 0, 0, 0])
    scripted_game(s, None, rules=variant("standard", min_bid=65, bid_step=10), max_deals=1)
    assert s.questions(L.K_BID)[0][2] == [0, 65, 75, 85, 95]
    rules = variant("standard", no_trump=True)
    s = Script(bids=[50, 0, 0, 0], trump=NO_TRUMP)
    rec = scripted_game(s, [dict(SUITS4)], rules=rules, max_deals=1)
    assert s.questions(L.K_TRUMP)[0][2] == [0, 1, 2, 3, NO_TRUMP] and rec.deals[0].deal_scores == [200, 0]
    kitty = variant("standard", kitty=4)
    assert (kitty.deck, kitty.cards_each, kitty.kitty) == (36, 8, 4)  # Le Rough's deal without its other rules
    assert variant("standard", deck=40).cards_each == 10
    assert variant("cutthroat", deck=40).cards_each == 10
    assert variant("six-2x3", deck=40, kitty=4).cards_each == 6
    assert (variant("five-player", target=300, hole=-150).target, variant("two-player", hole=-150).hole) == (300, -150)
    assert variant("le-rough", no_trump=False, min_bid=50).min_bid == 50
    rec = scripted_game(Script(bids=[50, 0, 0, 0], trump=0), [dict(SUITS4)], rules=variant("standard", target=100))
    assert rec.winner == 0 and len(rec.deals) == 1


@pytest.mark.parametrize("preset,overrides,message", [
    ("standard", {"kitty": 3}, r"kitty=3; allowed: 0, 4 \(T-V-KITTY\)"),
    ("standard", {"deck": 52}, "deck=52; allowed: 36"),
    ("five-player", {"deck": 36}, "cannot be dealt evenly to 5 hands.*allowed at this table: deck=40, kitty=0"),
    ("six-3x2", {"deck": 40}, "cannot be dealt evenly to 6 hands.*deck=36, kitty=0"),
    ("six-3x2", {"deck": 40, "kitty": 4}, "needs two teams"),
    ("cutthroat", {"kitty": 4}, "needs two teams"),
    ("two-player", {"kitty": 4}, "3 piles of 3"),
    ("two-player", {"deck": 40}, "3 piles of 3"),
    ("kitty", {"hand_size": 8}, "deals 9 cards to each of 4 hands; use hand_size=9 or 0"),
    ("standard", {"partner_shares_loss": False}, "applies only to mode=five-player"),
    ("five-player", {"cutthroat_fail": "points"}, "applies only to mode=cutthroat"),
    ("cutthroat", {"cutthroat_fail": "points", "fail_score": "points_minus_bid"}, "leave fail_score=minus_bid"),
    ("standard", {"mode": "solo"}, "mode='solo'; allowed: teams, two-player"),
    ("le-rough", {"max_bid": 60}, "max_bid=60; allowed: min_bid..100 with min_bid=70"),
])
def test_invalid_combinations_are_refused(preset, overrides, message):
    with pytest.raises(SimcardsError, match=message):
        GAME.build_rules(preset, overrides)


def test_players_must_match_the_table():
    with pytest.raises(SimcardsError, match="exactly 5 players"):
        GAME.check_players(FIVE, 4)
    with pytest.raises(SimcardsError, match="for 6 players use --variant six-3x2 or six-2x3"):
        GAME.check_players(R.STANDARD, 6)
    with pytest.raises(SimcardsError, match="exactly 2 players"):
        GAME.check_players(TWO, 4)
