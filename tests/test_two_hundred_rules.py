"""Two Hundred scenario tests: each pins a numbered rule of two-hundred.md (sections 1–4) with a
stacked deal or an exact value, in the reference engine and, for the rule helpers, the kernel.
The section-5 variants are in ``test_two_hundred_variants.py``."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simcards.cards import parse_cards
from simcards.errors import SimcardsError
from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred import rules as R
from simcards.games.two_hundred.game import GAME
from simcards.games.two_hundred.kernel import beats, deal_scores, game_end, legal_options
from simcards.games.two_hundred.reference import (
    deal_score,
    deck,
    end_of_game,
    legal_cards,
    points,
    strength,
    team,
    trick_winner,
)
from simcards.rng import new_state, rand_below, shuffle
from tests.test_two_hundred_support import Script, cards, kernel_run, mask_cards, scripted_game, suit_hand

STD = GAME.build_rules(None)


# ----- Section 1 --------------------------------------------------------------------------------
def test_deck_t_card_1():
    # T-CARD-1: 36 cards, no 2 3 4 6; in every suit A K Q J 10 9 8 7 5 from high to low.
    d = deck()
    assert len(d) == 36 and len(L.DECK_FACES) == 36 and list(L.DECK_FACES) == d
    assert {c % 13 for c in d} == {0, 4, 6, 7, 8, 9, 10, 11, 12}
    high_to_low = parse_cards("As Ks Qs Js Ts 9s 8s 7s 5s")
    assert sorted(high_to_low, key=strength, reverse=True) == high_to_low
    assert [strength(c) for c in high_to_low] == [9, 8, 7, 6, 5, 4, 3, 2, 0]  # (1 is the 6 of T-V-5P)


def test_points_t_card_2():
    # T-CARD-2: Ace 10, ten 10, five 5, others 0: 100 points in the deck.
    assert [points(c) for c in parse_cards("Ac Tc 5c Kc Qc Jc 9c 8c 7c")] == [10, 10, 5, 0, 0, 0, 0, 0, 0]
    assert points(cards("Ad")[0]) == 10 and points(cards("Td")[0]) == 10 and points(cards("5d")[0]) == 5
    assert all(points(c) == 0 for c in cards("Kd Qd Jd 9d 8d 7d"))
    assert sum(points(c) for c in deck()) == 100
    assert int(L.LANE_POINTS[L.LANE_FULL]) * 4 == 100  # the kernel's table agrees


def test_partners_opposite_t_team_1():
    # T-TEAM-1: seats 0+2 against 1+3; a trick won by seat 2 counts for team 0.
    assert [team(s) for s in range(4)] == [0, 1, 0, 1]
    # Seat 2 holds every spade and bids; spades trump: seat 2 takes all nine tricks.
    stacked = [{0: suit_hand("h"), 1: suit_hand("d"), 2: suit_hand("s"), 3: suit_hand("c")}]
    rec = scripted_game(Script(bids=[0, 0, 50, 0], trump=0), stacked, start_scores=(150, 0))
    d = rec.deals[0]
    assert d.bidder == 2 and d.taken == (100, 0) and d.deal_scores == [100, 0] and rec.winner == 0


def test_first_dealer_uniform_t_team_2():
    # T-TEAM-2 Decision: the first dealer is uniform over the four seats (chi-square, fixed seed).
    sim_run = GAME.new_run(STD, 4, GAME.strategies(["heuristic"], 4))
    games, _ = sim_run.raw(17, 0, 8000, 0)
    counts = np.bincount(games[:, L.G_FIRST_DEALER], minlength=4)
    chi2 = float(((counts - 2000.0) ** 2 / 2000.0).sum())
    assert chi2 < 16.27  # 3 degrees of freedom, p = 0.001


def test_deal_one_at_a_time_from_dealers_left_t_deal_1():
    # T-DEAL-1: shuffle, then one card at a time starting left of the dealer; 9 each.
    log, _, deals = kernel_run(["heuristic"], 5, 3)
    rng = new_state(5, 3)
    dealer = int(rand_below(rng, 4))
    d = np.array(deck(), dtype=np.int64)
    shuffle(rng, d, 36)
    want = {p: sorted(int(c) for k, c in enumerate(d) if (dealer + 1 + k) % 4 == p) for p in range(4)}
    got = {int(r[2]): mask_cards(int(r[3])) for r in log[:4]}
    assert got == want and all(len(h) == 9 for h in got.values())
    # The deal passes clockwise.
    dealers = deals[:, L.D_DEALER]
    assert dealers[0] == dealer and all((dealers[1:] - dealers[:-1]) % 4 == 1)


# ----- Section 2 --------------------------------------------------------------------------------
SPLIT = [{0: suit_hand("s"), 1: suit_hand("h"), 2: suit_hand("d"), 3: suit_hand("c")}]


def test_bidding_starts_left_of_dealer_t_bid_1():
    # T-BID-1 Decision: the player left of the dealer bids first; the dealer speaks last.
    for dealer in range(4):
        s = Script(bids=[0, 0, 0, 50])
        rec = scripted_game(s, [dict(SPLIT[0])], first_dealer=dealer, max_deals=1)
        seats = [seat for kind, seat, *_ in s.asked if kind == L.K_BID]
        assert seats == [(dealer + 1 + k) % 4 for k in range(4)]
        assert rec.deals[0].bidder == dealer


def test_bid_options_t_bid_2():
    # T-BID-2: minimum 50, steps of 5, each bid above the last; Decision: at most 100.
    s = Script(bids=[70, 0, 0, 0])
    scripted_game(s, [dict(SPLIT[0])], start_scores=(150, 0))
    bid_opts = [q[2] for q in s.questions(L.K_BID)]
    assert bid_opts[0] == [0] + list(range(50, 101, 5))
    assert bid_opts[1] == [0] + list(range(75, 101, 5))
    # Other settings of the same option (rules are data).
    rules = GAME.build_rules(None, {"min_bid": "60", "bid_step": "10"})
    s = Script(bids=[0])
    scripted_game(s, [dict(SPLIT[0])], rules=rules, max_deals=1)
    assert s.asked[0][2] == [0, 60, 70, 80, 90, 100]


def test_pass_is_final_t_bid_3():
    # T-BID-3: seat 0 passes; seats 1..3 raise each other; seat 0 is never asked again.
    s = Script(bids=[0, 50, 55, 60, 65, 0, 0])
    rec = scripted_game(s, [dict(SPLIT[0])], max_deals=1)
    seats = [seat for kind, seat, *_ in s.asked if kind == L.K_BID]
    assert seats == [0, 1, 2, 3, 1, 2, 3]
    assert rec.deals[0].bidder == 1 and rec.deals[0].bid == 65


def test_bid_then_three_passes_ends_t_bid_4():
    # T-BID-4: 50 by seat 0, then three passes: the auction is over, seat 0 is not asked again.
    s = Script(bids=[50, 0, 0, 0])
    rec = scripted_game(s, [dict(SPLIT[0])], start_scores=(150, 0))
    assert [q[0] for q in s.asked].count(L.K_BID) == 4
    assert rec.deals[0].bids == [(0, 50), (1, 0), (2, 0), (3, 0)]


def test_all_pass_throws_in_t_bid_5():
    # T-BID-5: four passes: thrown in, nobody scores, the next dealer deals.
    stacked = [dict(SPLIT[0]), dict(SPLIT[0])]
    s = Script(bids=[0, 0, 0, 0, 50, 0, 0, 0])
    rec = scripted_game(s, stacked, first_dealer=3, start_scores=(150, 20))
    first, second = rec.deals
    assert first.bidder is None and first.deal_scores == [0, 0] and first.scores == [150, 20]
    assert second.dealer == 0 and second.bidder == 1  # seat 1 speaks first now and bids 50
    assert rec.winner == 1 or rec.winner == 0


def test_all_pass_forever_hits_the_deal_cap():
    # A game of throw-ins cannot end by T-END; the deal cap stops it and says so.
    rec = scripted_game(Script(), None, max_deals=25)
    assert rec.capped and len(rec.deals) == 25 and all(d.bidder is None for d in rec.deals)
    assert rec.scores == [0, 0] and rec.winner == 0


def test_highest_bidder_names_trump_t_trump_1():
    # T-TRUMP-1: seat 0 wins the auction and names hearts, a suit it does not hold: seat 1
    # (all hearts) then trumps every trick.
    rec = scripted_game(Script(bids=[50, 0, 0, 0], trump=1), [dict(SPLIT[0])], start_scores=(0, 150))
    d = rec.deals[0]
    assert d.trump == 1 and all(w == 1 for _, _, w, _ in d.tricks)


def test_bidder_leads_t_lead_1():
    # T-LEAD-1: the highest bidder leads the first trick (seat 2 here, dealer 3).
    rec = scripted_game(Script(bids=[0, 0, 60, 0], trump=2), [dict(SPLIT[0])], start_scores=(150, 0))
    assert rec.deals[0].tricks[0][0] == 2


# ----- Section 3 --------------------------------------------------------------------------------
def test_follow_suit_t_play_1():
    # T-PLAY-1: holding the suit led you must follow; void, any card (trump included).
    hand = cards("As 7s Kh 5d Tc")
    assert legal_cards(hand, 0) == parse_cards("7s As")
    assert legal_cards(hand, 1) == cards("Kh")
    hand2 = cards("Kh 5d Tc")
    assert legal_cards(hand2, 0) == sorted(hand2, key=lambda c: (c // 13, strength(c)))
    # The kernel offers the same cards in the same order.
    opts = np.zeros(L.MAX_OPTIONS, dtype=np.int64)
    for h, led in [(hand, 0), (hand, 1), (hand, 3), (hand2, 0), (hand, -1)]:
        mask = sum(1 << int(L.BIT_OF_FACE[c]) for c in h)
        n = legal_options(np.int64(mask), led, opts)
        assert list(opts[:n]) == legal_cards(h, None if led < 0 else led)


def test_trick_winner_t_play_2():
    # T-PLAY-2: highest trump wins; without trumps, the highest card of the suit led.
    assert trick_winner(parse_cards("Ks As 5h Qs"), 1, 3) == 2
    assert trick_winner([cards("Ks")[0], cards("As")[0], cards("5h")[0], cards("Qs")[0]], 1, 1) == 3  # 5h trumps
    assert trick_winner([cards("Ks")[0], cards("Ad")[0], cards("Ac")[0], cards("Qs")[0]], 0, 1) == 0  # off-suit aces lose
    assert trick_winner([cards("9d")[0], cards("7h")[0], cards("Th")[0], cards("Ad")[0]], 2, 1) == 0  # Th best trump
    assert trick_winner([cards("Tc")[0], cards("5c")[0], cards("Jc")[0], cards("9c")[0]], 0, 0) == 2  # J above 10
    # The kernel's incremental "beats" agrees with the rule on every pair and trump.
    for a, b in itertools.permutations(deck(), 2):
        for trump in range(4):
            want = trick_winner([a, b], 0, trump) == 1
            assert beats(int(L.BIT_OF_FACE[b]), int(L.BIT_OF_FACE[a]), trump) == want


def test_winner_leads_next_t_play_3():
    # T-PLAY-3: hearts trump, seat 0 leads spades, seat 1 trumps and then leads every trick; nine tricks.
    rec = scripted_game(Script(bids=[50, 0, 0, 0], trump=1), [dict(SPLIT[0])], start_scores=(0, 150))
    tricks = rec.deals[0].tricks
    assert len(tricks) == 9
    assert [t[0] for t in tricks] == [0] + [1] * 8
    for prev, nxt in zip(tricks, tricks[1:]):
        assert nxt[0] == prev[2]


# ----- Section 4 --------------------------------------------------------------------------------
def test_points_counted_per_team_t_sc_1():
    # T-SC-1: seat 0 holds all spades (trump) and wins every trick: the 5s trick is worth 20,
    # the tens 40, the aces 40 (cards are played low to high by the script).
    rec = scripted_game(Script(bids=[50, 0, 0, 0], trump=0), [dict(SPLIT[0])], start_scores=(150, 0))
    d = rec.deals[0]
    assert [t[3] for t in d.tricks] == [20, 0, 0, 0, 40, 0, 0, 0, 40]
    assert d.taken == (100, 0) and sum(d.taken) == 100


def test_contract_made_and_failed_t_sc_2():
    # T-SC-2: made → all points taken; failed → minus the bid; defenders keep theirs.
    assert deal_score((60, 40), 0, 60, STD) == ([60, 40], True)
    assert deal_score((55, 45), 0, 60, STD) == ([-60, 45], False)
    assert deal_score((30, 70), 1, 75, STD) == ([30, -75], False)
    assert deal_score((0, 100), 1, 100, STD) == ([0, 100], True)
    other = GAME.build_rules(None, {"fail_score": "points_minus_bid"})
    assert deal_score((55, 45), 0, 60, other) == ([-5, 45], False)
    # The kernel agrees (both fail modes, both teams).
    ds = np.zeros(6, dtype=np.int64)
    for taken0 in range(0, 101, 5):
        for bidder in range(4):
            for bid in range(50, 101, 5):
                for rules in (STD, other):
                    want, made = deal_score((taken0, 100 - taken0), bidder % 2, bid, rules)
                    taken = np.array([taken0, 100 - taken0, 0, 0, 0, 0], dtype=np.int64)
                    kmade = deal_scores(taken, 2, bidder % 2, -1, bid, 0, False, rules.encode(), ds)
                    assert list(ds[:2]) == want and kmade == made
    # In play: seat 0 bids 50, names hearts and takes nothing → -50; team 1 scores its 100.
    rec = scripted_game(Script(bids=[50, 0, 0, 0], trump=1), [dict(SPLIT[0])], start_scores=(0, 150))
    assert rec.deals[0].made is False and rec.deals[0].deal_scores == [-50, 100]


def test_scores_accumulate_and_go_negative_t_sc_3():
    # T-SC-3: scores add up deal by deal; negative totals are allowed.
    stacked = [dict(SPLIT[0]), dict(SPLIT[0])]
    s = Script(bids=[50, 0, 0, 0, 0, 0, 0, 0], trump=1)  # deal 1 fails for team 0; deal 2 thrown in
    rec = scripted_game(s, stacked, max_deals=2)
    assert rec.deals[0].scores == [-50, 100]
    assert rec.deals[1].scores == [-50, 100]


def _end(scores, contract, rules=STD):
    return end_of_game(scores, rules, contract)[0]


def test_target_wins_t_end_1():
    # T-END-1: a team with 200 or more wins; both at once: the contractor team.
    assert _end([200, 10], 1) == 0
    assert _end([199, 10], 1) is None
    assert _end([230, 210], 1) == 1
    assert _end([230, 210], 0) == 0
    rec = scripted_game(Script(bids=[50, 0, 0, 0], trump=0), [dict(SPLIT[0])], start_scores=(100, 190))
    assert rec.winner == 0 and rec.scores == [200, 190] and len(rec.deals) == 1


def test_hole_loses_t_end_2():
    # T-END-2: at -200 or below a team loses at once; Decision: 200 beats -200 in the same deal.
    assert _end([-200, 0], 0) == 1
    assert _end([30, -205], 1) == 0
    assert _end([210, -200], 1) == 0
    assert _end([-150, 0], 0) is None
    enc = STD.encode()
    for s0, s1, ct in itertools.product(range(-300, 301, 25), range(-300, 301, 25), (0, 1)):
        for dealer in range(4):
            want = end_of_game([s0, s1], STD, ct, dealer=dealer)[0]
            winner, _, hole = game_end(np.array([s0, s1, 0, 0, 0, 0], dtype=np.int64), 0b11, ct, -1, dealer, enc)
            assert winner == (-1 if want is None else want)
            assert hole == (want is not None and max(s0, s1) < 200)
    rec = scripted_game(Script(bids=[50, 0, 0, 0], trump=1), [dict(SPLIT[0])], start_scores=(-160, 0))
    assert rec.winner == 1 and rec.scores == [-210, 100] and rec.hole


# ----- rules as data ---------------------------------------------------------------------------------
def test_presets_and_refusals():
    assert GAME.build_rules("standard") == R.STANDARD.validate()
    with pytest.raises(SimcardsError, match="min_bid"):
        GAME.build_rules(None, {"min_bid": "0"})
    with pytest.raises(SimcardsError, match="max_bid"):
        GAME.build_rules(None, {"max_bid": "105"})
    with pytest.raises(SimcardsError, match="fail_score"):
        GAME.build_rules(None, {"fail_score": "nothing"})
    with pytest.raises(SimcardsError, match="unknown Two Hundred rule option"):
        GAME.build_rules(None, {"call_limit": "5"})
    with pytest.raises(SimcardsError, match="whole number"):
        GAME.build_rules(None, {"target": "lots"})
    with pytest.raises(SimcardsError, match="unknown Two Hundred variant"):
        GAME.build_rules("nope")
    with pytest.raises(SimcardsError, match="exactly 4 players"):
        GAME.check_players(STD, 3)
    with pytest.raises(SimcardsError, match="exactly 4 players.*five-player"):
        GAME.check_players(STD, 5)
    assert GAME.build_rules(None, {"dealer_bids_after_passes": "false"}).dealer_bids_after_passes is False


def test_dealer_barred_after_three_passes_option():
    # T-V-ROUGH's auction rule, settable on its own: after three passes the dealer may only pass.
    rules = GAME.build_rules(None, {"dealer_bids_after_passes": "false"})
    s = Script(bids=[0, 0, 0])
    rec = scripted_game(s, [dict(SPLIT[0])], rules=rules, max_deals=1)
    assert s.asked[3][2] == [0] and rec.deals[0].bidder is None  # T-V-ROUGH
