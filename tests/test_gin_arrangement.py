"""G-LAY-0: the knocker lays out any arrangement of its minimum deadwood and so decides which lay-offs
the defender gets. The arrangements offered (both engines, the same order), a scenario where sets
instead of runs deny the lay-offs (exact scores), what `random` and `knock:deny` choose, and the
engines agreeing move for move with the decision in play."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.cards import card_code, parse_cards
from simcards.games.gin import layout as L
from simcards.games.gin.game import GAME, engine_for, seat_arrays
from simcards.games.gin.melds import best_arrangement, layoff_exposure, min_arrangements
from simcards.games.gin.policies import P_DENY, SID_RANDOM, SIMPLE_PARAMS, arrangement_choice, builtin_decide
from simcards.games.gin.reference import ReferenceGame, arrangement, exposed_cards
from simcards.games.gin.reference import min_arrangements as ref_min_arrangements
from simcards.rng import new_state
from tests.test_gin_engines import assert_same_game
from tests.test_gin_variants import SEED_SEAT1_DEALS, stack

GRID = "7s 8s 9s 7h 8h 9h 7d 8d 9d"  # three runs 7-8-9, or three sets 7-7-7 8-8-8 9-9-9: both melt it all


def mask(cards) -> int:
    return sum(1 << c for c in (parse_cards(cards) if isinstance(cards, str) else cards))


def kernel_rows(cards: str, mv: int = 0) -> list[tuple[int, int]]:
    m = np.int64(mask(cards))
    dw, _ = best_arrangement(m, mv)
    out = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
    n = min_arrangements(m, dw, out, L.MAX_OPTIONS, mv)
    return [(int(out[i, 0]), int(layoff_exposure(m, out[i, 0], mv))) for i in range(n)]


def reference_rows(cards: str, mv: int = 0) -> list[tuple[int, int]]:
    hand = frozenset(parse_cards(cards))
    return [(mask([c for s in sets for c in s]), mask(exposed_cards(hand, sets, runs, mv)))
            for _, sets, runs in ref_min_arrangements(hand, mv)]


@pytest.mark.parametrize("cards, n", [
    (GRID + " 3c", 2),  # runs (the default), or sets
    ("4s 5s 6s 7s 7h 7d 7c Kd Qd Jd", 2),  # the 4-set and the run 4-5-6, or the run 4-7 and 7-7-7
    ("As 2s 3s 7h 7d 7c Kd Qd Jd 9c", 1),  # one way only
    ("Ks Kh Kd Qs Qh Qd Js Jh Jd 2c", 2),  # J-Q-K runs in three suits, or the three sets
])
def test_min_arrangements_both_engines_same_order_g_lay_0(cards, n):
    # Row 0 is the default tie-broken arrangement (best_arrangement / arrangement); every row has the
    # minimum deadwood; the kernel and the reference list the same arrangements in the same order,
    # with the same cards open for lay-offs.
    rows = kernel_rows(cards)
    assert len(rows) == n and rows == reference_rows(cards)
    hand = frozenset(parse_cards(cards))
    assert rows[0][0] == mask([c for s in arrangement(hand)[1] for c in s])
    assert rows[0][0] == int(best_arrangement(np.int64(mask(cards)))[1])


def test_min_arrangements_agree_on_random_hands_g_lay_0():
    # Hands crowded on few ranks (so set choices are many), every meld variant: both engines agree.
    rng = np.random.default_rng(7)
    several = 0
    for _i in range(3000):
        ranks = rng.choice(13, size=4, replace=False)
        pool = [s * 13 + r for r in ranks for s in range(4)] + list(rng.choice(52, size=6, replace=False))
        cards = list(dict.fromkeys(int(c) for c in rng.permutation(pool)))[:10]
        mv = int(rng.integers(0, 4))
        text = " ".join(card_code(c) for c in cards)
        rows = kernel_rows(text, mv)
        assert rows == reference_rows(text, mv), text
        several += len(rows) > 1
    assert several > 40


def test_sets_instead_of_runs_deny_the_layoffs_exact_scores_g_lay_0():
    # G-LAY-0 / G-LAY-1. Seat 0 (the non-dealer) holds 7-8-9 in spades, hearts and diamonds and the
    # 3♣; it takes the upcard A♣, throws the 3♣ and knocks with 1. Its nine cards are three runs
    # or three sets. The dealer holds 10♠ 6♥ K♣ Q♦ J♥ 5♣ 4♦ 2♥ 2♠ K♥: no melds, deadwood 69.
    #   * runs (the default tie-broken arrangement): 10♠ goes on 7-8-9♠ and 6♥ on 7-8-9♥ → 69 - 16
    #     = 53; the knocker scores 53 - 1 = 52.
    #   * sets (knock:deny=1): nothing lays off (7♣ 8♣ 9♣ would) → 68.
    deck = stack(GRID + " 3c", "Ts 6h Kc Qd Jh 5c 4d 2h 2s Kh", "Ac", stock="Qc")
    results = {}
    for spec in ("simple", "knock:deny=1", "knock:deny=0"):
        strats = GAME.strategies([spec, "simple"], 2)
        sids, params = seat_arrays(strats)
        rec = ReferenceGame(GAME.build_rules("standard"), sids, params, SEED_SEAT1_DEALS, 0,
                            engine_for(strats)[0], [list(deck)]).play()
        h = rec.hands[0]
        assert (h.knocker, h.upcard_taker, h.deadwood[0]) == (0, 0, 1)
        results[spec] = (h.outcome, h.winner, h.points, sorted(h.laid), h.deadwood[1])
    assert results["simple"] == ("knock", 0, 52, sorted(parse_cards("6h Ts")), 53)
    assert results["knock:deny=0"] == results["simple"]
    assert results["knock:deny=1"] == ("knock", 0, 68, [], 69)


def test_arrangement_options_and_deny_choice_g_lay_0():
    # The rows a strategy sees: [sets, dw, exposed, known]. `deny` weighs the cards the defender is
    # known to hold in full and the other open cards by the chance an unseen card is in its hand.
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_MASK] = mask(GRID + " Ac")
    view[L.V_PILE] = mask("3c 5h")
    opts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
    opts[0, :] = [0, 1, 48, 0]  # runs: 6♠ 10♠ 6♥ 10♥ 6♦ 10♦ open
    opts[1, :] = [1, 1, 24, 0]  # sets: 7♣ 8♣ 9♣ open
    deny = SIMPLE_PARAMS.copy()
    deny[P_DENY] = 1
    assert arrangement_choice(SIMPLE_PARAMS, opts, 2, view) == 0  # the default: row 0
    assert arrangement_choice(deny, opts, 2, view) == 1
    # the defender took the 10♠ from the pile: 10 points known against ~24 x 10/40 expected
    opts[0, 3] = 10
    opts[1, 2] = 30
    view[L.V_OPP_TOOK] = mask("Ts")
    assert arrangement_choice(deny, opts, 2, view) == 1
    opts[0, 2], opts[0, 3] = 12, 10  # only the known 10♠ open on the runs: 10 + 2 x 9/39 > 30 x 9/39
    assert arrangement_choice(deny, opts, 2, view) == 1
    opts[1, 2] = 60
    assert arrangement_choice(deny, opts, 2, view) == 0
    opts[1, 2] = opts[0, 2]
    opts[1, 3] = opts[0, 3]
    assert arrangement_choice(deny, opts, 2, view) == 0  # a tie keeps the default


def arrangement_decisions(rules, specs, seed, games):
    """Play reference games; every K_ARRANGE decision as (seat's spec, rows, choice, view)."""
    strats = GAME.strategies(specs, rules.players)
    decide = engine_for(strats)[0]
    sids, params = seat_arrays(strats)
    seen = []

    def spy(kind, sid, par, hand, n, opts, n_opts, view, enc, rng):
        c = decide(kind, sid, par, hand, n, opts, n_opts, view, enc, rng)
        if kind == L.K_ARRANGE:
            seen.append((specs[int(view[L.V_SEAT]) % len(specs)], opts[:n_opts].copy(), int(c), view.copy()))
        return c

    for g in games:
        ReferenceGame(rules, sids, params, seed, g, spy).play()
    return seen


@pytest.mark.parametrize("deny_games,max_games", [
    (12, 6),  # games to 300 in the reference engine (~0.5 s each): these already hold both deny choices
    pytest.param(40, 25, marks=pytest.mark.slow),
])
def test_strategies_choose_among_arrangements_g_lay_0(deny_games, max_games):
    # `simple` (and knock without deny) always lays out row 0; knock:deny=1 picks a row of least
    # expected lay-off points and sometimes leaves the default; `random` is uniform over the rows.
    # Every row has the minimum deadwood and a distinct arrangement.
    rules = GAME.build_rules("standard", {"game_target": 300})
    seen = arrangement_decisions(rules, ["knock:deny=1", "simple"], 5, range(deny_games))
    seen += arrangement_decisions(rules, ["knock:max=10", "simple"], 5, range(max_games))
    by = {}
    for spec, rows, choice, view in seen:
        assert len(rows) >= 2 and len(set(rows[:, 0].tolist())) == len(rows)
        assert (rows[:, 1] == rows[0, 1]).all() and rows[0, 1] > 0  # minimum deadwood; never gin
        assert (rows[:, 3] <= rows[:, 2]).all()
        # exposed cards are not the knocker's and not in the pile: at most 4 per run end / set
        by.setdefault(spec, []).append(choice)
        if spec == "knock:deny=1":
            par = SIMPLE_PARAMS.copy()
            par[P_DENY] = 1
            assert choice == arrangement_choice(par, rows, len(rows), view)
    assert set(by["simple"]) == {0} and set(by["knock:max=10"]) == {0}
    assert any(c != 0 for c in by["knock:deny=1"])
    rows = seen[0][1]
    rng = new_state(1, 0)
    picks = [builtin_decide(L.K_ARRANGE, SID_RANDOM, SIMPLE_PARAMS, np.zeros(L.MAX_HAND, np.int64), 10, rows,
                            len(rows), seen[0][3], GAME.build_rules("standard").encode(), rng) for _ in range(400)]
    assert set(picks) == set(range(len(rows)))  # random: every arrangement, about equally often
    assert min(picks.count(a) for a in range(len(rows))) > 400 / len(rows) / 2


def test_deny_lowers_the_defenders_layoffs_in_simulated_games_g_lay_0():
    # The same seeds with and without deny: seat 0's knocks leave the defender fewer lay-off points.
    rules = GAME.build_rules("standard")
    totals = {}
    for spec in ("knock:deny=0", "knock:deny=1"):
        run = GAME.new_run(rules, 2, GAME.strategies([spec, "simple"], 2))
        _, hands = run.play(3, 0, 3000, True)
        mine = hands[(hands["knocker"] == 0) & (hands["outcome"] != "gin")]
        totals[spec] = (int(mine["laid_off_points"].sum()), len(mine))
    assert totals["knock:deny=1"][0] < totals["knock:deny=0"][0]


@pytest.mark.parametrize("variant, overrides, specs, games", [
    ("standard", {"game_target": 300}, ["knock:deny=1", "simple"], [0, 2, 4]),
    ("standard", {"game_target": 300}, ["random", "knock:deny=1"], [21, 22]),  # random's own stream: issue 27
    ("tedesco", {"hollywood": False, "game_target": 150}, ["simple", "knock:deny=1,scale=0.7"], [2, 6]),
])
def test_engines_agree_with_the_arrangement_decision_g_lay_0(variant, overrides, specs, games):
    # Kernel and reference move for move in games (seed 13) where K_ARRANGE is asked, away from
    # the default too (G-V-TED: runs round the corner).
    rules = GAME.build_rules(variant, overrides)
    assert assert_same_game(rules, specs, 13, games) > 0
    seen = arrangement_decisions(rules, specs, 13, games)
    assert len(seen) >= len(games)
    if variant == "standard":
        assert any(choice != 0 for _, _, choice, _ in seen)


def test_strategies_help_shows_deny(capsys):
    from simcards.cli import main

    assert main(["strategies", "gin"]) == 0
    out = capsys.readouterr().out
    assert "deny" in out and "G-LAY-0" in out
