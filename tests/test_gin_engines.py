"""The two Gin engines agree move for move, and every kernel transcript obeys the rules
(section 7 invariants, checked with hypothesis over seeds, strategies and options)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcards.games.gin import layout as L
from simcards.games.gin.game import GAME, engine_for, seat_arrays
from simcards.games.gin.kernel import (
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_HAND_END,
    EV_KNOCK,
    EV_LAST,
    EV_LAYOFF,
    EV_SCORE,
    EV_UPCARD,
    EV_UPCARD_CHOICE,
    EV_WALL,
    LOG_WIDTH,
)
from simcards.games.gin.melds import best_arrangement, deadwood, lanes_melded
from simcards.games.gin.reference import play_reference


def kernel_game(rules, strats, seed, game):
    _, play_game, _ = engine_for(strats)
    sids, params = seat_arrays(strats)
    log = np.zeros((400_000, LOG_WIDTH), dtype=np.int64)
    out = np.zeros(L.G_WIDTH, dtype=np.int64)
    rows = np.zeros((L.HAND_CAP, L.H_WIDTH), dtype=np.int32)
    n = play_game(game, seed, rules.encode(), sids, params, out, rows, L.HAND_CAP, log)
    assert n <= len(log)
    return log[:n], out, rows[: out[L.G_HANDS]]


def assert_same_game(rules, specs, seed, games):
    strats = GAME.strategies(specs, 2)
    decide = engine_for(strats)[0]
    sids, params = seat_arrays(strats)
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
        assert out[L.G_WINNER] == rec.winner
        assert list(out[L.G_SCORES:L.G_SCORES + 2]) == rec.points
        assert list(out[L.G_WON:L.G_WON + 2]) == rec.won
        assert list(out[L.G_FINAL:L.G_FINAL + 2]) == rec.final
        assert out[L.G_MARGIN] == rec.margin and bool(out[L.G_SHUTOUT]) == rec.shutout
        for row, h in zip(rows, rec.hands):
            assert L.OUTCOMES[row[L.H_OUTCOME]] == h.outcome
            assert row[L.H_POINTS] == h.points and row[L.H_WINNER] == h.winner
            assert list(row[L.H_DW:L.H_DW + 2]) == h.deadwood
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


@pytest.mark.slow
def test_engines_agree_many_games():
    hands = 0
    hands += assert_same_game(GAME.build_rules("standard"), ["simple", "knock:max=5"], 101, range(50))
    hands += assert_same_game(GAME.build_rules("standard", {"knock_limit": 8}),
                              ["knock:avoid=5,take=4", "knock:max=7,drop=0.5"], 102, range(25))
    assert hands > 700


# ----- invariants of section 7, over kernel transcripts --------------------------------------------------
def check_transcript(log, rules, out):
    """Walk a kernel transcript and assert the rules: cards are conserved, no card taken from the
    pile is discarded in the same turn (unless an option allows it), knocks are within the limit,
    gin has 0 deadwood, lay-offs extend the knocker's melds only, scores follow G-SC-2..4, void
    hands score nothing, the first turn follows G-FIRST-1 and walls happen at 2 stock cards."""
    limit = rules.knock_limit
    hands = [set(), set()]
    pile: list[int] = []
    stock = 0
    points = [0, 0]
    taken = -1
    last_draw_seat = -1
    first_choices: list[tuple[int, int]] = []
    dealer = out[L.G_FIRST_DEALER]
    knock_dw = None
    knocker = -1
    d_dw = -1
    discarded = [set(), set()]
    must_knock = False
    last_chance_turn = False
    hand_no = 0
    for row in log:
        ev, hand, seat, a, b, c = (int(x) for x in row[:6])
        if ev == EV_DEAL:
            if seat == 0:
                hand_no = hand
                hands = [set(), set()]
                pile, first_choices, knock_dw, knocker = [], [], None, -1
                discarded = [set(), set()]
                must_knock = False
                last_chance_turn = False
            hands[seat] = {int(x) for x in row[6:6 + a]}
            assert a == 10  # G-DEAL-2
        elif ev == EV_UPCARD:
            assert not hands[0] & hands[1] and len(hands[0] | hands[1]) == 20
            pile = [a]
            stock = 52 - 21  # G-DEAL-2
        elif ev == EV_UPCARD_CHOICE:
            first_choices.append((seat, a))
        elif ev == EV_DRAW:
            if a == 1:
                card = pile.pop()
                assert card == b
                taken = b
                # G-TURN-3: one's own discard comes back only with a knock this turn
                must_knock = rules.gra_rediscard and b in discarded[seat]
            else:
                stock -= 1
                taken = -1
                must_knock = False
                assert b not in hands[0] | hands[1] and b not in pile
            hands[seat].add(b)
            assert len(hands[seat]) == 11
            last_draw_seat = seat
        elif ev == EV_DISCARD:
            assert seat == last_draw_seat and a in hands[seat]
            allow = rules.gra_rediscard or (last_chance_turn and rules.fiftieth_card)
            if a == taken and not allow:
                pytest.fail(f"G-TURN-2: seat {seat} re-discarded {a} in hand {hand}")
            hands[seat].remove(a)
            pile.append(a)
            discarded[seat].add(a)
            if must_knock:
                assert c <= limit
            assert c == deadwood(np.int64(sum(1 << x for x in hands[seat])))
            assert len(hands[0]) == len(hands[1]) == 10
            assert len(hands[0]) + len(hands[1]) + len(pile) + stock == 52  # cards are conserved
        elif ev == EV_KNOCK:
            assert b <= limit  # G-KNOCK-1: only within the limit
            if a == 1:
                knock_dw, knocker = b, seat
            elif must_knock:
                pytest.fail("G-TURN-3: took back an own discard without knocking")
        elif ev == EV_WALL:
            assert stock == 2  # G-WALL-1
        elif ev == EV_LAST:
            assert rules.last_chance
            last_chance_turn = a == 1
        elif ev == EV_LAYOFF:
            k_mask = sum(1 << x for x in hands[knocker])
            k_dw, k_sets = best_arrangement(np.int64(k_mask))
            assert k_dw == knock_dw and k_sets == c  # G-LAY-0: the knocker lays a minimum arrangement
            d_dw, laid_mask = a, b
            check_layoff(hands[knocker], int(k_sets), laid_mask, hands[seat])
            if knock_dw == 0:
                assert laid_mask == 0  # G-LAY-1: no lay-offs on gin
            rest = sum(1 << x for x in hands[seat]) & ~laid_mask
            assert d_dw == deadwood(np.int64(rest))
        elif ev == EV_HAND_END:
            outcome, pts = L.OUTCOMES[a], b
            # G-FIRST-1: the non-dealer is asked first; the dealer only after a refusal
            assert first_choices[0][0] == 1 - dealer
            if first_choices[0][1] == 0:
                assert len(first_choices) == 2 and first_choices[1][0] == dealer
            else:
                assert len(first_choices) == 1
            if knocker < 0:
                assert outcome in ("wall", "capped") and seat == -1 and pts == 0  # a void hand scores nothing
            else:
                if knock_dw == 0:
                    assert outcome == "gin" and seat == knocker and pts == rules.gin_bonus + d_dw  # G-SC-4
                elif knock_dw < d_dw:
                    assert outcome == "knock" and seat == knocker and pts == d_dw - knock_dw  # G-SC-2
                elif knock_dw == d_dw and not rules.undercut_on_tie:
                    assert outcome == "tie" and seat == -1 and pts == 0  # G-SC-3 option
                else:
                    assert outcome == "undercut" and seat == 1 - knocker  # G-SC-3
                    assert pts == knock_dw - d_dw + rules.undercut_bonus
            if seat >= 0:
                points[seat] += pts
                if rules.next_dealer == "loser":
                    dealer = 1 - seat
                elif rules.next_dealer == "winner":
                    dealer = seat
                else:
                    dealer = 1 - dealer
        elif ev == EV_SCORE:
            assert a == points[seat]
    assert list(out[L.G_SCORES:L.G_SCORES + 2]) == points
    assert hand_no == out[L.G_HANDS]


def check_layoff(knocker_cards, k_sets, laid_mask, defender_cards):
    """G-LAY-1: each laid-off card completes a knocker 3-set or extends a knocker run (possibly
    through other laid-off cards); never onto the knocker's deadwood."""
    laid = {c for c in range(52) if laid_mask >> c & 1}
    assert laid <= defender_cards
    k_mask = sum(1 << c for c in knocker_cards)
    runs = int(lanes_melded(np.int64(k_mask & ~k_sets)))
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
            while 0 <= q < 13 and s * 13 + q in laid:
                q += step
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


def test_last_chance_take_and_knock_g_wall_2_g_wall_3():
    # G-WALL-2: at the wall the other player may take the last discard and must knock (G-WALL-3:
    # with fiftieth_card the taken card may be the one discarded). Find such hands in transcripts.
    for fiftieth in (False, True):
        rules = GAME.build_rules("standard", {"last_chance": True, "fiftieth_card": fiftieth})
        strats = GAME.strategies(["knock:max=2", "knock:max=3,gin_after=5"], 2)
        takes = 0
        for g in range(4):
            log, out, rows = kernel_game(rules, strats, 77, g)
            check_transcript(log, rules, out)
            for i in np.flatnonzero((log[:, 0] == EV_LAST) & (log[:, 3] == 1)):
                takes += 1
                draw, discard, knock = log[i + 1], log[i + 2], log[i + 3]
                assert draw[0] == EV_DRAW and draw[3] == 1 and draw[4] == log[i, 4]
                assert discard[0] == EV_DISCARD and discard[5] <= rules.knock_limit
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
