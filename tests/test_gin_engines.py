"""The two Gin engines agree move for move, and every kernel transcript obeys the rules
(section 7 invariants, checked with hypothesis over seeds, strategies and options)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcards.games.gin import layout as L
from simcards.games.gin import rules as R
from simcards.games.gin.game import GAME, engine_for, seat_arrays
from simcards.games.gin.kernel import (
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_HAND_END,
    EV_KNOCK,
    EV_KNOCK_CARD,
    EV_LAST,
    EV_LAYOFF,
    EV_MJ_SCORE,
    EV_PICKUP,
    EV_SCORE,
    EV_TABLE_LAYOFF,
    EV_UPCARD,
    EV_UPCARD_CHOICE,
    EV_WALL,
    LOG_WIDTH,
)
from simcards.games.gin.melds import CORNER, VALUES_MV, best_arrangement, deadwood, lanes_melded, min_arrangements
from simcards.games.gin.reference import play_reference


def kernel_game(rules, strats, seed, game):
    _, play_game, _ = engine_for(strats)
    sids, params = seat_arrays(strats)
    log = np.zeros((400_000, LOG_WIDTH), dtype=np.int64)
    out = np.zeros(L.G_WIDTH, dtype=np.int64)
    rows = np.zeros((L.HAND_CAP * rules.tables, R.hand_width(rules)), dtype=np.int32)
    n = play_game(game, seed, rules.encode(), sids, params, out, rows, len(rows), log)
    assert n <= len(log)
    return log[:n], out, rows[: out[L.G_HANDS]]


def assert_same_game(rules, specs, seed, games):
    """Kernel and reference play the same games move for move: identical transcripts, results and
    per-hand rows. Returns the number of hands compared."""
    strats = GAME.strategies(specs, rules.players)
    decide = engine_for(strats)[0]
    sids, params = seat_arrays(strats)
    sections = R.hand_sections(rules)
    hands = 0
    for g in games:
        k, out, rows = kernel_game(rules, strats, seed, g)
        rec = play_reference(rules, sids, params, seed, g, decide)
        r = rec.log_array()
        if k.shape != r.shape or not (k == r).all():
            m = min(len(k), len(r))
            diff = np.flatnonzero((k[:m] != r[:m]).any(axis=1))
            i = int(diff[0]) if len(diff) else m
            pytest.fail(f"game {g}: transcripts differ at row {i}: kernel {k[i:i + 1].tolist()} "
                        f"reference {r[i:i + 1].tolist()}")
        n_sides = rules.sides
        assert out[L.G_WINNER] == rec.winner
        assert list(out[L.G_SCORES:L.G_SCORES + rules.players]) == rec.points
        assert list(out[L.G_WON:L.G_WON + rules.players]) == rec.won
        assert list(out[L.G_SIDE_POINTS:L.G_SIDE_POINTS + n_sides]) == rec.side_points
        assert list(out[L.G_BOXES:L.G_BOXES + n_sides]) == rec.boxes
        assert list(out[L.G_FINAL:L.G_FINAL + n_sides]) == rec.final
        assert out[L.G_MARGIN] == rec.margin and bool(out[L.G_SHUTOUT]) == rec.shutout
        for k, hw in enumerate(rec.hollywood):  # G-V-HOLLY: every game's own result
            base = L.G_HOLLY + k * L.GH_WIDTH
            assert out[base + L.GH_WINNER] == hw["winner"] and out[base + L.GH_CLOSED] == hw["closed"]
            assert out[base + L.GH_MARGIN] == hw["margin"] and bool(out[base + L.GH_SHUTOUT]) == hw["shutout"]
            for key, at in (("points", L.GH_POINTS), ("boxes", L.GH_BOXES), ("final", L.GH_FINAL), ("won", L.GH_WON)):
                assert list(out[base + at:base + at + 2]) == hw[key]
        if rules.match_target:  # G-V-MATCH
            assert out[L.G_MATCHES] == rec.matches and out[L.G_MATCH_SHUTOUTS] == rec.match_shutouts
            assert list(out[L.G_MATCHES_WON:L.G_MATCHES_WON + 2]) == rec.matches_won
        assert len(rows) == len(rec.hands)
        for row, h in zip(rows, rec.hands):
            assert L.OUTCOMES[row[L.H_OUTCOME]] == h.outcome
            assert row[L.H_POINTS] == h.points and row[L.H_WINNER] == h.winner
            assert tuple(row[L.H_SEAT:L.H_SEAT + 2]) == h.seats
            assert list(row[L.H_DW:L.H_DW + 2]) == [h.deadwood[h.seats[0]], h.deadwood[h.seats[1]]]
            assert list(row[L.H_SCORES:L.H_SCORES + n_sides]) == h.scores
            if R.R_H_OKLA in sections:
                o = sections[R.R_H_OKLA][0]
                assert list(row[o:o + L.HO_WIDTH]) == [h.knock_card, h.limit, h.stake, h.boxes]
            if R.R_H_HOLLY in sections:
                o = sections[R.R_H_HOLLY][0]
                assert row[o + L.HH_ENTERED] == h.entered
                assert list(row[o + L.HH_SCORES:o + L.HH_SCORES + 2 * L.N_HOLLY]) == sum(h.hollywood, [])
            if R.R_H_MJ in sections:  # G-V-MJ, by position
                o = sections[R.R_H_MJ][0]
                a, b = h.seats
                assert list(row[o:o + L.HJ_WIDTH]) == [h.mj_points[a], h.mj_points[b], h.table_value[a],
                                                       h.table_value[b], h.pickups, h.max_take]
            if R.R_H_MATCH in sections:
                o = sections[R.R_H_MATCH][0]
                assert [row[o + L.HM_MATCH], *row[o + L.HM_POINTS:o + L.HM_POINTS + 2]] == [h.match, *h.match_points]
        hands += len(rec.hands)
    return hands


# ----- differential: kernel vs reference --------------------------------------------------------------
def test_engines_agree_standard_simple():
    assert assert_same_game(GAME.build_rules("standard"), ["simple"], 7, range(30)) > 250


def test_engines_agree_tournament_knock_family_ties_0_0():
    rules = GAME.build_rules("tournament", {"undercut_on_tie": False, "next_dealer": "winner"})
    assert_same_game(rules, ["knock:max=7,drop=1,avoid=3,take=4", "simple"], 11, range(40))


def test_engines_agree_random_play():
    # uniform random play: long hands, many walls (kept short: the reference engine is slow)
    rules = GAME.build_rules("standard", {"game_target": 1, "next_dealer": "alternate"})
    assert_same_game(rules, ["random"], 3, range(4))
    rules = GAME.build_rules("standard", {"game_target": 30, "next_dealer": "alternate"})
    assert_same_game(rules, ["random", "simple"], 3, range(20))


def test_engines_agree_wall_options_g_wall_2_g_wall_3_g_turn_3():
    rules = GAME.build_rules("standard", {"last_chance": True, "fiftieth_card": True, "gra_rediscard": True,
                                          "game_target": 25})
    assert_same_game(rules, ["random", "knock:gin_after=4"], 5, range(30))
    rules = GAME.build_rules("standard", {"last_chance": True, "gra_rediscard": True, "shutout": "double"})
    assert_same_game(rules, ["knock:gin_after=6,take=3", "knock:max=3"], 9, range(25))


@pytest.mark.parametrize("variant, overrides, specs, games", [
    ("oklahoma", {}, ["simple", "knock:scale=0.6,spade=2"], 12),
    ("oklahoma", {"oklahoma_boxes": True, "ace_upcard_gin_only": False, "game_target": 100}, ["knock:max=6", "simple"],
     10),
    ("oklahoma-second-deck", {"spade_double": False, "last_chance": True}, ["simple", "knock:take=3"], 10),
    ("straight", {}, ["simple", "knock:take=4,avoid=2"], 12),
    ("straight", {"last_chance": True, "fiftieth_card": True, "game_target": 150}, ["random", "simple"], 4),
    ("deal-11", {}, ["simple", "knock:max=5"], 12),
    ("deal-11", {"last_chance": True, "fiftieth_card": True, "gra_rediscard": True, "game_target": 60},
     ["random", "knock:gin_after=5"], 10),
    ("oklahoma-second-deck", {"deal_11": True, "oklahoma_boxes": True}, ["knock:scale=0.5", "simple"], 8),
    ("oklahoma-second-deck", {"next_dealer": "winner", "undercut_on_tie": False}, ["simple", "knock:max=5"], 8),
    ("oklahoma-second-deck", {"next_dealer": "alternate", "deal_11": True}, ["knock:take=3", "simple"], 6),
    ("four-player", {"oklahoma": True, "knock_card": "second_deck", "game_target": 80}, ["simple"], 3),
    ("hollywood", {}, ["simple", "knock:max=6,take=4"], 6),
    ("hollywood", {"game_target": 60, "shutout": "double", "next_dealer": "alternate"}, ["knock:max=3", "simple"], 8),
    ("hollywood", {"oklahoma": True, "oklahoma_boxes": True, "game_target": 80}, ["simple"], 6),
    ("match", {"match_target": 300}, ["simple", "knock:gin_after=6"], 5),
    ("match", {"game_target": 40, "undercut_on_tie": False, "next_dealer": "winner"}, ["random", "simple"], 3),
    ("three-player", {}, ["simple", "knock:max=5", "knock:take=3"], 8),
    ("three-player", {"oklahoma": True, "knock_card": "second_deck", "undercut_on_tie": False, "game_target": 60},
     ["random", "simple", "knock:scale=0.5"], 6),
    ("three-player", {"deal_11": True, "last_chance": True}, ["simple"], 5),
    ("four-player", {}, ["simple", "knock:max=5", "knock:avoid=3", "simple"], 5),
    ("four-player", {"straight": True, "box_bonus": 20, "game_bonus": 100}, ["simple", "knock:take=3", "simple",
                                                                            "simple"], 4),
    ("four-player", {"players": 6, "oklahoma": True, "game_target": 80}, ["simple"], 4),
    ("four-player", {"players": 8, "hollywood": True, "game_target": 40}, ["simple", "knock:max=4"] * 4, 3),
    ("tedesco", {}, ["simple", "knock:scale=0.6,spade=2,avoid=3"], 3),
    ("tedesco", {"knock_card": "second_deck", "oklahoma_boxes": True, "game_target": 100},
     ["knock:take=3", "simple"], 3),
    ("tedesco", {"hollywood": False, "ace_value": 1, "last_chance": True}, ["simple", "knock:avoid=4"], 5),
    ("tedesco-teams", {"game_target": 100}, ["simple", "knock:max=5"], 2),
    ("tedesco-teams-3", {"game_target": 80}, ["simple"], 2),
    ("tedesco-teams-4", {"game_target": 60}, ["simple", "knock:scale=0.5"], 2),
    ("mahjong", {}, ["simple", "knock:pile=5"], 12),
    ("mahjong", {"mj_face": 5, "game_target": 250, "next_dealer": "alternate"}, ["random", "simple"], 4),
    ("mahjong", {"undercut_on_tie": False, "gin_bonus": 10}, ["knock:pile=-5", "knock:avoid=3"], 8),
])
def test_engines_agree_on_variants(variant, overrides, specs, games):
    # G-V-OKLA, G-V-STRAIGHT, G-V-DEAL11, G-V-HOLLY, G-V-MATCH: both engines, move for move.
    rules = GAME.build_rules(variant, overrides)
    assert assert_same_game(rules, specs, 31, range(games)) >= games


@pytest.mark.slow
def test_engines_agree_many_games():
    hands = 0
    hands += assert_same_game(GAME.build_rules("standard"), ["simple", "knock:max=5"], 101, range(50))
    hands += assert_same_game(GAME.build_rules("standard", {"knock_limit": 8}),
                              ["knock:avoid=5,take=4", "knock:max=7,drop=0.5"], 102, range(25))
    assert hands > 700


# ----- invariants of section 7, over kernel transcripts --------------------------------------------------
class HandState:
    """What the transcript walker knows about the hand being played at a table."""

    def __init__(self, rules, hand_no):
        self.hand_no = hand_no
        self.seats: list[int] = []  # position 0 (non-dealer's part), position 1
        self.hands: dict[int, set] = {}
        self.pile: list[int] = []
        self.stock = 0
        self.taken = -1
        self.last_draw_seat = -1
        self.first_choices: list[tuple[int, int]] = []
        self.knock_dw = None
        self.knocker = -1
        self.d_dw = -1
        self.discarded: dict[int, set] = {}
        self.must_knock = False
        self.last_chance_turn = False
        self.limit = 0 if rules.straight else rules.knock_limit
        self.stake = 1
        self.dealt = False  # all cards dealt, the upcard turned (if any)

    def deal_done(self, rules):
        n_dealt = sum(len(h) for h in self.hands.values())
        self.stock = 52 - n_dealt - (1 if rules.upcard else 0)
        self.dealt = True


def check_transcript(log, rules, out):
    """Walk a kernel transcript and assert the rules: cards are conserved, no card taken from the
    pile is discarded in the same turn (unless an option allows it), knocks are within the hand's
    limit, gin has 0 deadwood, lay-offs extend the knocker's melds only, scores follow G-SC-2..4
    (times the G-V-OKLA stake), void hands score nothing, the first turn follows G-FIRST-1 or
    G-V-DEAL11, walls happen at 2 stock cards."""
    mv = rules.meld_variant
    points = [0] * rules.sides
    dealer = out[L.G_FIRST_DEALER]
    h = None
    hands_seen = 0
    for row in log:
        ev, hand, seat, a, b, c = (int(x) for x in row[:6])
        if ev == EV_DEAL:
            if h is None or h.dealt:
                h = HandState(rules, hand)
                hands_seen += 1
            h.seats.append(seat)
            h.hands[seat] = {int(x) for x in row[6:6 + a]}
            h.discarded[seat] = set()
            first = len(h.seats) == 1
            assert a == (11 if rules.deal_11 and first else 10)  # G-DEAL-2, G-V-DEAL11
            if len(h.seats) == 2:
                assert not h.hands[h.seats[0]] & h.hands[h.seats[1]]
                if rules.players == 2:
                    assert h.seats == [1 - dealer, dealer]  # the non-dealer is dealt first
                if not rules.upcard:
                    h.deal_done(rules)
        elif ev == EV_UPCARD:
            assert rules.upcard
            h.pile = [a]
            h.deal_done(rules)
            assert h.stock == 31  # G-DEAL-2
        elif ev == EV_KNOCK_CARD:
            assert rules.oklahoma
            if rules.knock_card == "upcard":
                assert a == h.pile[0]
            expect_limit = 0 if (a % 13 == 0 and rules.ace_upcard_gin_only) else (1 if a % 13 == 0 else min(a % 13 + 1, 10))
            assert b == expect_limit  # G-V-OKLA: the knock card's value, face cards 10
            assert c == (2 if a // 13 == 0 and rules.spade_double else 1)  # a spade doubles
            h.limit, h.stake = b, c
        elif ev == EV_UPCARD_CHOICE:
            h.first_choices.append((seat, a))
        elif ev == EV_DRAW:
            assert seat in h.seats
            if a == 1:
                card = h.pile.pop()
                assert card == b
                h.taken = b
                # G-TURN-3: one's own discard comes back only with a knock this turn
                h.must_knock = rules.gra_rediscard and b in h.discarded[seat]
            else:
                h.stock -= 1
                h.taken = -1
                h.must_knock = False
                assert all(b not in hh for hh in h.hands.values()) and b not in h.pile
            h.hands[seat].add(b)
            assert len(h.hands[seat]) == 11
            h.last_draw_seat = seat
        elif ev == EV_DISCARD:
            if h.last_draw_seat < 0:  # G-V-DEAL11: the non-dealer opens by discarding from 11 cards
                assert rules.deal_11 and seat == h.seats[0] and len(h.hands[seat]) == 11
            else:
                assert seat == h.last_draw_seat
            assert a in h.hands[seat]
            allow = rules.gra_rediscard or (h.last_chance_turn and rules.fiftieth_card)
            if a == h.taken and not allow:
                pytest.fail(f"G-TURN-2: seat {seat} re-discarded {a} in hand {hand}")
            h.hands[seat].remove(a)
            h.pile.append(a)
            h.discarded[seat].add(a)
            h.last_draw_seat = seat
            if h.must_knock:
                assert c <= h.limit
            assert c == deadwood(np.int64(sum(1 << x for x in h.hands[seat])), mv)
            assert all(len(hh) == 10 for hh in h.hands.values())
            assert sum(len(hh) for hh in h.hands.values()) + len(h.pile) + h.stock == 52  # cards are conserved
        elif ev == EV_KNOCK:
            assert b <= h.limit  # G-KNOCK-1: only within the hand's limit (G-V-OKLA, G-V-STRAIGHT: 0)
            if a == 1:
                h.knock_dw, h.knocker = b, seat
            elif h.must_knock:
                pytest.fail("G-TURN-3: took back an own discard without knocking")
        elif ev == EV_WALL:
            assert h.stock == 2  # G-WALL-1
        elif ev == EV_LAST:
            assert rules.last_chance
            h.last_chance_turn = a == 1
        elif ev == EV_LAYOFF:
            k_mask = sum(1 << x for x in h.hands[h.knocker])
            k_dw, _ = best_arrangement(np.int64(k_mask), mv)
            rows = np.zeros((64, 1), dtype=np.int64)
            n_rows = min_arrangements(np.int64(k_mask), k_dw, rows, 64, mv)
            # G-LAY-0: the knocker lays a minimum arrangement: the tie-broken one, or another of the
            # same deadwood that its strategy chose (K_ARRANGE: random, knock:deny=1)
            assert k_dw == h.knock_dw and c in set(rows[:n_rows, 0].tolist())
            h.d_dw, laid_mask = a, b
            check_layoff(h.hands[h.knocker], int(c), laid_mask, h.hands[seat], mv)
            if h.knock_dw == 0:
                assert laid_mask == 0  # G-LAY-1: no lay-offs on gin
            rest = sum(1 << x for x in h.hands[seat]) & ~laid_mask
            assert h.d_dw == deadwood(np.int64(rest), mv)
        elif ev == EV_HAND_END:
            outcome, pts = L.OUTCOMES[a], b
            if rules.upcard:  # G-FIRST-1: the non-dealer is asked first; the dealer only after a refusal
                assert h.first_choices[0][0] == h.seats[0]
                if h.first_choices[0][1] == 0:
                    assert len(h.first_choices) == 2 and h.first_choices[1][0] == h.seats[1]
                else:
                    assert len(h.first_choices) == 1
            else:
                assert not h.first_choices
            if h.knocker < 0:
                assert outcome in ("wall", "capped") and seat == -1 and pts == 0  # a void hand scores nothing
            else:
                assert c == h.knocker
                defender = h.seats[1] if h.knocker == h.seats[0] else h.seats[0]
                k_dw, d_dw, x = h.knock_dw, h.d_dw, h.stake
                if k_dw == 0:
                    assert outcome == "gin" and seat == h.knocker and pts == x * (rules.gin_bonus + d_dw)  # G-SC-4
                elif k_dw < d_dw:
                    assert outcome == "knock" and seat == h.knocker and pts == x * (d_dw - k_dw)  # G-SC-2
                elif k_dw == d_dw and not rules.undercut_on_tie:
                    assert outcome == "tie" and seat == -1 and pts == 0  # G-SC-3 option
                else:
                    assert outcome == "undercut" and seat == defender  # G-SC-3
                    assert pts == x * (k_dw - d_dw + rules.undercut_bonus)
            standard_ledger = rules.players == 2 and not rules.hollywood and not rules.match_target
            if seat >= 0 and standard_ledger:
                points[seat] += pts
            if seat >= 0 and rules.players == 2:  # G-DEAL-1
                if rules.next_dealer == "loser":
                    dealer = 1 - seat
                elif rules.next_dealer == "winner":
                    dealer = seat
                else:
                    dealer = 1 - dealer
        elif ev == EV_SCORE:
            if rules.players == 2 and not rules.hollywood and not rules.match_target:
                assert a == points[seat]
    if rules.players == 2 and not rules.hollywood and not rules.match_target:
        assert list(out[L.G_SCORES:L.G_SCORES + 2]) == points
    assert hands_seen == out[L.G_HANDS]


def check_layoff(knocker_cards, k_sets, laid_mask, defender_cards, mv=0):
    """G-LAY-1: each laid-off card completes a knocker 3-set or extends a knocker run (possibly
    through other laid-off cards; round the corner under G-V-TED); never onto the knocker's
    deadwood."""
    wrap = bool(CORNER[mv])
    laid = {c for c in range(52) if laid_mask >> c & 1}
    assert laid <= defender_cards
    k_mask = sum(1 << c for c in knocker_cards)
    runs = int(lanes_melded(np.int64(k_mask & ~k_sets), mv))
    run_cards = {c for c in range(52) if runs >> c & 1}
    set_ranks = {}
    for c in range(52):
        if k_sets >> c & 1:
            set_ranks.setdefault(c % 13, set()).add(c)
    for c in laid:
        if c % 13 in set_ranks and len(set_ranks[c % 13]) == 3:
            continue
        s, r = divmod(c, 13)
        ok = False
        for step in (-1, 1):
            q = r + step
            for _ in range(12):
                if wrap:
                    q %= 13
                if not (0 <= q < 13 and s * 13 + q in laid):
                    break
                q += step
            if wrap:
                q %= 13
            if 0 <= q < 13 and s * 13 + q in run_cards:
                ok = True
        assert ok, f"laid-off card {c} extends no knocker meld"


SPECS = ["random", "simple", "knock:max=4", "knock:drop=1,gin_after=7,avoid=4,take=3", "knock:gin_stock=12"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**62), game=st.integers(0, 10**9), a=st.sampled_from(SPECS),
       b=st.sampled_from(SPECS), tie=st.booleans(), gra=st.booleans(), last=st.integers(0, 2),
       nd=st.sampled_from(["loser", "winner", "alternate"]), limit=st.integers(0, 10))
def test_transcripts_obey_the_rules_section_7(seed, game, a, b, tie, gra, last, nd, limit):
    # G-DEAL-2, G-FIRST-1, G-TURN-1/2/3, G-KNOCK-1, G-GIN-1, G-LAY-1, G-WALL-1/2/3, G-SC-1..4,
    # G-DEAL-1: every kernel transcript, whatever the strategies and options.
    if "random" in (a, b):  # keep uniform random games short: low target, a reachable knock
        target, limit = (5 if a == b else 30), max(limit, 6)
    else:
        target = 100
    rules = GAME.build_rules("standard", {"undercut_on_tie": tie, "gra_rediscard": gra, "last_chance": last > 0,
                                          "fiftieth_card": last > 1, "next_dealer": nd, "knock_limit": limit,
                                          "game_target": target})
    strats = GAME.strategies([a, b], 2)
    log, out, rows = kernel_game(rules, strats, seed, game)
    check_transcript(log, rules, out)


VARIANT_SPECS = ["random", "simple", "knock:scale=0.5,spade=3", "knock:max=4,take=3", "knock:gin_after=6"]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**62), game=st.integers(0, 10**9), a=st.sampled_from(VARIANT_SPECS),
       b=st.sampled_from(VARIANT_SPECS), form=st.sampled_from(["oklahoma", "second_deck", "straight", "deal_11",
                                                                 "deal_11+second_deck", "hollywood", "match",
                                                                 "three", "teams", "teams-of-3", "tedesco"]),
       ace=st.booleans(), spade=st.booleans(), boxes=st.booleans(), last=st.integers(0, 2), gra=st.booleans())
def test_variant_transcripts_obey_the_rules(seed, game, a, b, form, ace, spade, boxes, last, gra):
    # Section 7 under G-V-OKLA (knock limit and stake from the knock card, G-V-OKLA second deck),
    # G-V-STRAIGHT (every knock is gin), G-V-DEAL11 (11 cards, no upcard, an opening discard),
    # G-V-HOLLY and G-V-MATCH (the hands themselves are standard), with the wall options
    # G-WALL-2/3 and G-TURN-3.
    over = {"last_chance": last > 0, "fiftieth_card": last > 1, "gra_rediscard": gra,
            "game_target": 20 if "random" in (a, b) else 100}
    if form in ("oklahoma", "second_deck", "deal_11+second_deck"):
        over |= {"oklahoma": True, "ace_upcard_gin_only": ace, "spade_double": spade, "oklahoma_boxes": boxes}
        if form != "oklahoma":
            over["knock_card"] = "second_deck"
    if form.startswith("deal_11"):
        over["deal_11"] = True
    if form == "straight":
        over["straight"] = True
    if form == "hollywood":
        over |= {"hollywood": True, "game_target": 40 if "random" in (a, b) else 100}
    if form == "match":
        over |= {"match_target": 100 if "random" in (a, b) else 400, "game_target": 20 if "random" in (a, b) else 100}
    if form == "tedesco":
        over |= {"oklahoma": True, "ace_upcard_gin_only": False, "round_the_corner": True, "ace_value": 15,
                 "spade_double": spade, "oklahoma_boxes": boxes}
    if form == "three":
        over |= {"players": 3, "next_dealer": "loser"}
    if form.startswith("teams"):
        over |= {"players": 6 if form == "teams-of-3" else 4, "next_dealer": "loser", "game_target": 30}
    rules = GAME.build_rules("standard", over)
    log, out, rows = kernel_game(rules, GAME.strategies(([a, b] * rules.players)[:rules.players], rules.players),
                                 seed, game)
    check_transcript(log, rules, out)
    if rules.straight:
        assert (rows[rows[:, L.H_KNOCKER] >= 0, L.H_OUTCOME] == L.O_GIN).all()


def test_gin_only_knock_limit_0_g_gin_1_g_knock_1():
    # knock_limit=0: every knock is gin (G-GIN-1), scored 20 + the defender's deadwood.
    rules = GAME.build_rules("standard", {"knock_limit": 0})
    strats = GAME.strategies(["simple"], 2)
    for g in range(5):
        log, out, rows = kernel_game(rules, strats, 12, g)
        check_transcript(log, rules, out)
        knocks = rows[rows[:, L.H_KNOCKER] >= 0]
        assert len(knocks) and (knocks[:, L.H_OUTCOME] == L.O_GIN).all()


# ----- results do not depend on threads or chunks ----------------------------------------------------------
@pytest.mark.parametrize("variant", sorted(GAME.presets()))
def test_a_batch_of_simple_players_plays_the_logged_games(variant):
    # Two simple players in a batch (no transcript) play a hand's turns on the masks
    # (kernel.simple_turns) where the hand plays no hand-level variant; a logged game plays them
    # through the view and the decision calls, the path checked against the reference engine
    # above. Every game's row and every hand's row must be the same.
    rules = GAME.build_rules(variant)
    strats = GAME.strategies(["simple"], rules.players)
    run = GAME.new_run(rules, rules.players, strats)
    n, cap = 12, 64 * rules.tables
    games, rows = run.raw(17, 0, n, cap)
    for g in range(n):
        _, out, logged = kernel_game(rules, strats, 17, g)
        hands = int(out[L.G_HANDS])
        assert hands <= cap and (games[g] == out).all(), (variant, g)
        assert (rows[g * cap:g * cap + hands] == logged).all(), (variant, g)


def test_same_results_for_any_thread_count_and_chunking():
    import numba

    rules = GAME.build_rules("standard")
    run = GAME.new_run(rules, 2, GAME.strategies(["simple", "knock:max=6"], 2))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        g1, h1 = run.play(42, 0, 300, True)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        parts = [run.play(42, first, count, True) for first, count in ((0, 7), (7, 150), (157, 143))]
    finally:
        numba.set_num_threads(before)
    import pandas as pd

    g2 = pd.concat([p[0] for p in parts], ignore_index=True)
    h2 = pd.concat([p[1] for p in parts], ignore_index=True)
    pd.testing.assert_frame_equal(g1, g2)
    pd.testing.assert_frame_equal(h1, h2)


@pytest.mark.parametrize("variant", ["standard", "deal-11", "straight", "oklahoma"])
def test_last_chance_take_and_knock_g_wall_2_g_wall_3(variant):
    # G-WALL-2: at the wall the other player may take the last discard and must knock (G-WALL-3:
    # with fiftieth_card the taken card may be the one discarded). Find such hands in transcripts;
    # under G-V-DEAL11 too, and under straight gin (G-V-STRAIGHT) the forced knock is a gin.
    for fiftieth in (False, True):
        rules = GAME.build_rules(variant, {"last_chance": True, "fiftieth_card": fiftieth})
        strats = GAME.strategies(["knock:max=2", "knock:max=3,gin_after=5"], 2)
        takes = 0
        for g in range(200):
            if takes >= 3:
                break
            log, out, rows = kernel_game(rules, strats, 77, g)
            check_transcript(log, rules, out)
            for i in np.flatnonzero((log[:, 0] == EV_LAST) & (log[:, 3] == 1)):
                takes += 1
                draw, discard, knock = log[i + 1], log[i + 2], log[i + 3]
                assert draw[0] == EV_DRAW and draw[3] == 1 and draw[4] == log[i, 4]
                assert discard[0] == EV_DISCARD and discard[5] <= (0 if rules.straight else 10)
                assert knock[0] == EV_KNOCK and knock[3] == 1  # the knock is compulsory
                if not fiftieth:
                    assert discard[3] != draw[4]  # a different card (G-WALL-2)
        assert takes > 0


def test_policies_see_only_public_information_g_info_1():
    # G-INFO-1: a card taken from the pile is public; a stock card is seen only by its drawer. The
    # view's "opponent took" cards were all on the pile; the opponent's stock draws never appear
    # in a view before they are discarded.
    from simcards.games.gin.reference import ReferenceGame

    rules = GAME.build_rules("standard")
    strats = GAME.strategies(["simple"], 2)
    decide = engine_for(strats)[0]
    sids, params = seat_arrays(strats)
    seen = []

    def spy(kind, sid, par, hand, n, opts, n_opts, view, enc, rng):
        seen.append((view.copy(), game.hands[1 - int(view[L.V_SEAT])].copy(), set(game.took[1 - int(view[L.V_SEAT])])))
        return decide(kind, sid, par, hand, n, opts, n_opts, view, enc, rng)

    game = ReferenceGame(rules, sids, params, 5, 0, spy)
    game.play()
    assert len(seen) > 50
    for view, opp_hand, opp_took in seen:
        took = {c for c in range(52) if int(view[L.V_OPP_TOOK]) >> c & 1}
        assert took == opp_took
        hidden = opp_hand - opp_took
        for field in (L.V_OPP_TOOK, L.V_OPP_DISCARDS, L.V_PILE, L.V_OPP_PASSED):
            assert not {c for c in hidden if int(view[field]) >> c & 1}
        assert int(view[L.V_MASK]) & sum(1 << c for c in opp_hand) == 0


def test_knocking_is_optional_and_allowed_from_the_first_turn_g_knock_1():
    # G-KNOCK-1: a knock is offered whenever the deadwood is within the limit and may be declined
    # (random players decline half the time); knocks also happen on a player's first turn.
    rules = GAME.build_rules("standard", {"game_target": 60})
    strats = GAME.strategies(["random", "simple"], 2)
    declined = first_turn = 0
    for g in range(20):
        log, out, rows = kernel_game(rules, strats, 21, g)
        declined += int(((log[:, 0] == EV_KNOCK) & (log[:, 3] == 0)).sum())
    rules = GAME.build_rules("standard")
    for g in range(300):
        log, out, rows = kernel_game(rules, GAME.strategies(["simple"], 2), 22, g)
        knocks = np.flatnonzero((log[:, 0] == EV_KNOCK) & (log[:, 3] == 1))
        for i in knocks:  # the knock's discard was the player's first of the hand
            hand, seat = log[i, 1], log[i, 2]
            earlier = (log[:i, 0] == EV_DISCARD) & (log[:i, 1] == hand) & (log[:i, 2] == seat)
            first_turn += int(earlier.sum() == 1)
    assert declined > 0 and first_turn > 0


# ----- G-V-MJ: Mahjong gin transcripts ---------------------------------------------------------------
def _is_meld(cards: set) -> bool:
    """G-MELD-1: a set of 3-4 of a rank or a run of 3+ of a suit (aces low)."""
    ranks = sorted(c % 13 for c in cards)
    if len(cards) in (3, 4) and len(set(ranks)) == 1:
        return True
    return len(cards) >= 3 and len({c // 13 for c in cards}) == 1 and ranks == list(range(ranks[0], ranks[0] + len(cards)))


def check_mj_transcript(log, rules, out):
    """G-V-MJ in a kernel transcript: no knock (only gin), every pickup takes the top N cards and puts
    the deepest on the table in a meld at once, lay-offs extend table melds, no card taken this turn is
    discarded, cards are conserved between hands, stock and pile, the table; hands never exceed 11
    cards before the discard; each player's points are their table cards minus their hand (the gin
    player adds the hand and the gin bonus)."""
    mv = rules.meld_variant
    values = VALUES_MV[mv]
    hands = {}
    pile, stock, melds, table, taken = [], 0, [], {}, set()
    pickups = 0
    for row in log:
        ev, hand, seat, a, b, c = (int(x) for x in row[:6])
        if ev == EV_DEAL:
            if len(hands) == 2 or not hands:
                hands, melds, table, pile = {}, [], {}, []
            hands[seat] = {int(x) for x in row[6:6 + a]}
            table[seat] = set()
        elif ev == EV_UPCARD:
            pile, stock = [a], 31
        elif ev == EV_PICKUP:
            n, k, placed = a, b, {x for x in range(52) if c >> x & 1}
            taken = set(pile[-n:])
            deepest = pile[-n]
            del pile[-n:]
            assert deepest in placed and placed <= hands[seat] | taken  # the deepest goes on the table at once
            if k == len(melds):
                assert _is_meld(placed)  # a new meld of the player's cards
                melds.append(set(placed))
            else:
                assert len(placed) == 1 and _is_meld(melds[k] | placed)  # or onto a table meld
                melds[k] |= placed
            hands[seat] = (hands[seat] | taken) - placed
            table[seat] |= placed
            assert len(hands[seat]) <= 11
            pickups += 1
        elif ev == EV_TABLE_LAYOFF:
            assert a in hands[seat] and _is_meld(melds[b] | {a})  # extends a table meld (anyone's)
            melds[b].add(a)
            hands[seat].remove(a)
            table[seat].add(a)
        elif ev == EV_DRAW:
            assert a == 0  # the pile is only ever taken by a pickup
            stock -= 1
            taken = set()
            hands[seat].add(b)
        elif ev == EV_DISCARD:
            assert a in hands[seat] and a not in taken  # G-TURN-2 for every card taken this turn
            assert len(hands[seat]) <= 11
            hands[seat].remove(a)
            pile.append(a)
            taken = set()
            assert c == deadwood(np.int64(sum(1 << x for x in hands[seat])), mv)
            on_table = sum(len(m) for m in melds)
            assert sum(len(h) for h in hands.values()) + len(pile) + stock + on_table == 52  # conserved
        elif ev == EV_KNOCK:
            assert b == 0  # G-V-MJ: no knocking, only gin
        elif ev == EV_MJ_SCORE:
            hand_value = int(sum(values[x] for x in hands[seat]))
            table_value = int(sum(values[x] for x in table[seat]))
            assert b == table_value and c == sum(1 << x for x in table[seat])
            gin = deadwood(np.int64(sum(1 << x for x in hands[seat])), mv) == 0 and a >= 0 and \
                a == table_value + hand_value + rules.gin_bonus
            assert gin or a == table_value - hand_value
        elif ev == EV_HAND_END:
            assert L.OUTCOMES[a] in ("gin", "wall", "capped")
    assert out[L.G_PICKUPS] == pickups


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**62), game=st.integers(0, 10**9),
       a=st.sampled_from(["random", "simple", "knock:pile=8", "knock:pile=-10"]),
       b=st.sampled_from(["random", "simple", "knock:pile=3"]), face=st.sampled_from([10, 5]))
def test_mahjong_transcripts_obey_the_rules_g_v_mj(seed, game, a, b, face):
    rules = GAME.build_rules("mahjong", {"mj_face": face})
    log, out, rows = kernel_game(rules, GAME.strategies([a, b], 2), seed, game)
    check_mj_transcript(log, rules, out)
