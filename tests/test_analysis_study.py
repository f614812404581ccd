"""Studies on tiny seeded runs: seat rotation, common random numbers, known answers."""

import numpy as np
import pandas as pd
import pytest

from simcards.errors import SimcardsError
from simcards.games import available, get_game
from simcards.strategy import split_specs
from simcards.studies import compare, field_lineups, pair_lineups, parse_values, tournament, tune
from simcards.studies.common import Arena, play_matchup, unit_mean


def _est(res, variant, metric):
    row = res.tables["estimates"].query("variant == @variant and metric == @metric").iloc[0]
    return row


# ----- lineups -------------------------------------------------------------------------------------
@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_pair_lineups_are_balanced(k):
    lus = pair_lineups(k)
    assert len(set(lus)) == len(lus)
    share = np.mean(np.array(lus) == 0, axis=0)  # per side: how often strategy 0 sits there
    assert np.allclose(share, 0.5)


def test_pair_and_field_lineups_exact():
    assert pair_lineups(2) == [(0, 1), (1, 0)]
    assert pair_lineups(4) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert field_lineups(3) == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]


def test_parse_values():
    assert parse_values("0..3") == [0, 1, 2, 3]
    assert parse_values("0..1:0.25") == [0, 0.25, 0.5, 0.75, 1]
    assert parse_values("1,3,5") == [1, 3, 5]
    for bad in ("3..1", "a..b", "1,1", "", "0..1:0"):
        with pytest.raises(SimcardsError):
            parse_values(bad)


def test_split_specs_keeps_parameters_together():
    assert split_specs("random,threshold:call=3,keep=0.2,threshold") == ["random", "threshold:call=3,keep=0.2", "threshold"]


def test_unit_mean_never_collapses_at_the_boundary():
    est = unit_mean(np.ones(100))
    assert est.value == 1 and est.high == 1 and est.low < 0.97  # Wilson over 100 deals
    assert unit_mean(np.full(100, 0.5)).low == pytest.approx(0.5)  # seat rotation: exactly fair on every deal
    # issue 16: near 1, a few lost deals do not give the normal interval's near-zero width
    few = np.ones(100_000)
    few[:3] = 0.5
    assert unit_mean(few).low < 1 - 5 / 100_000


# ----- known answers ---------------------------------------------------------------------------------
def test_strategy_against_itself_has_exactly_the_fair_share():
    """With seat rotation on the same deals, a strategy against itself wins exactly its share:
    each deal is played once with it at every side."""
    t = Arena("two-hundred")
    s = t.strategy("heuristic")
    mu = play_matchup(t, s, s, pair_lineups(t.k), seed=5, first=0, count=300)
    assert np.allclose(mu.won, 0.5) and mu.fair == 0.5
    ty = Arena("yaniv", players=3)
    sy = ty.strategy("threshold")
    mu = play_matchup(ty, sy, sy, field_lineups(3), seed=5, first=0, count=60)
    assert np.allclose(mu.won, 1 / 3) and mu.fair == pytest.approx(1 / 3)


@pytest.mark.slow
def test_self_play_seat_edge_is_flagged_at_about_the_stated_rate():
    """Two Hundred's teams are symmetric (the first dealer is drawn at random): over many seeds
    the 95% Wilson interval of team 0's win rate misses 1/2 about 5% of the time."""
    t = Arena("two-hundred")
    seat = t.gdef.strategies(None, 4)
    misses = 0
    runs = 300
    for seed in range(runs):
        df = t.play(seat, seed, 0, 200)
        w = t.m.winner_side(df, 4)
        from simcards.stats.estimates import wilson
        est = wilson(int((w == 0).sum()), len(w))
        misses += not (est.low <= 0.5 <= est.high)
    assert misses / runs <= 0.09, misses  # expected 0.05; binomial 99.9% bound for 300 runs


def test_planted_advantage_is_found_two_hundred():
    res = compare("two-hundred", ["standard"], games=200, seed=3, weak="random")
    skill = _est(res, "standard", "skill_edge")
    assert skill["significant"] and skill["low"] > 0.3  # the heuristic crushes random


def test_compare_speed_and_fairness_rows_match_the_games():
    res = compare("yaniv", ["israeli", "nepali"], games=120, seed=4, skill=False)
    games = res.tables["games"]
    sub = games[games["variant"] == "nepali"]
    rpg = _est(res, "nepali", "rounds_per_game")
    assert rpg["value"] == pytest.approx(sub["rounds"].mean())
    tpr = _est(res, "nepali", "turns_per_round")
    assert tpr["value"] == pytest.approx(sub["turns"].sum() / sub["rounds"].sum())
    seat_rates = [_est(res, "nepali", f"win_seat_{s}")["value"] for s in range(4)]
    assert sum(seat_rates) == pytest.approx(1.0)
    assert seat_rates[2] == pytest.approx((sub["winner_side"] == 2).mean())
    dev = _est(res, "nepali", "max_seat_deviation")
    assert dev["value"] == pytest.approx(max(abs(r - 0.25) for r in seat_rates))
    assert set(res.table["variant"]) == {"israeli", "nepali"}
    # nepali has 52 cards, israeli 54: different decks, unpaired differences
    assert not res.tables["differences"]["paired"].any()


def test_compare_pairs_variants_that_share_a_deck():
    """israeli, nepali-jokers and fast all use 54 cards: paired on the same deals. A variant
    against an identical copy of itself differs by exactly 0 (paired), never significantly."""
    from simcards.stats.moments import Moments
    from simcards.studies.compare import _diff_rows, _Variant, _variant_columns

    res = compare("yaniv", ["israeli", "nepali-jokers", "fast"], games=80, seed=6, skill=False)
    d = res.tables["differences"]
    assert d["paired"].all()
    t = Arena("yaniv")
    seats = t.gdef.strategies(None, 4)
    df = t.play(seats, 6, 0, 80)
    a, b = _Variant("a", t, seats, ()), _Variant("b", t, seats, ())
    mo = Moments.of({**_variant_columns(a, df, None), **_variant_columns(b, df, None)})
    same = pd.DataFrame(_diff_rows(a, b, mo, 0))
    assert same["paired"].all() and not same["significant_95"].any() and (same["p"] == 1).all()
    assert np.allclose(same[["diff", "low", "high"]].to_numpy(), 0)
    nj = d[(d["variant"] == "nepali-jokers") & (d["metric"] == "rounds_per_game")].iloc[0]
    assert nj["significant"] and nj["diff"] < 0  # out over 100 instead of 200: shorter games
    assert any("paired on the same deals" in n for n in res.notes)


def test_compare_in_blocks_and_summary_only_gives_the_same_estimates(monkeypatch):
    """Issue 9: compare streams blocks of games into moments; cutting the games into blocks of
    37 (or not keeping the per-game table) changes no estimate beyond float rounding, and the
    per-game table of the blocked run is the unblocked one."""
    import simcards.studies.common as study

    whole = compare("yaniv", ["israeli", "fast"], games=150, seed=2)
    monkeypatch.setattr(study, "COMPARE_BLOCK", 37)
    blocked = compare("yaniv", ["israeli", "fast"], games=150, seed=2)
    lean = compare("yaniv", ["israeli", "fast"], games=150, seed=2, summary_only=True)
    pd.testing.assert_frame_equal(whole.tables["games"], blocked.tables["games"])
    assert "games" not in lean.tables and lean.meta["summary_only"]
    for name in ("estimates", "differences"):
        for other in (blocked, lean):
            pd.testing.assert_frame_equal(whole.tables[name], other.tables[name], rtol=1e-12, atol=1e-15)


def test_compare_interrupted_keeps_the_finished_blocks(monkeypatch):
    """Ctrl-C during the second block: the estimates of the first block come back, marked."""
    import simcards.studies.common as study

    monkeypatch.setattr(study, "COMPARE_BLOCK", 40)
    real = study.Arena.play
    calls = {"n": 0}

    def play(self, *args, **kw):
        calls["n"] += 1
        if calls["n"] == 3:  # block 2, first variant
            raise KeyboardInterrupt
        return real(self, *args, **kw)

    monkeypatch.setattr(study.Arena, "play", play)
    res = compare("yaniv", ["israeli", "fast"], games=100, seed=4, skill=False)
    assert res.meta["interrupted"] and res.meta["games_completed"] == 40
    assert (res.tables["estimates"]["n"] == 40).all()
    assert len(res.tables["games"]) == 2 * 40
    assert any("Interrupted after 40 of 100" in n for n in res.notes)


def test_compare_is_reproducible():
    a = compare("two-hundred", ["standard"], games=100, seed=9)
    b = compare("two-hundred", ["standard"], games=100, seed=9)
    pd.testing.assert_frame_equal(a.tables["estimates"], b.tables["estimates"])


def test_compare_all_variants_each_at_its_own_table():
    # Every Two Hundred preset runs, each with its own players and sides (cutthroat: 4 seats alone,
    # six-3x2: 3 teams, two-player: 2 players).

    res = compare("two-hundred", "all", games=20, seed=1, skill=False)
    assert list(res.table["variant"]) == list(get_game("two-hundred").presets())
    est = res.tables["estimates"]
    sides = {v: len(est[(est["variant"] == v) & est["metric"].str.startswith("win_")]) for v in ("cutthroat", "six-3x2", "two-player")}
    assert sides == {"cutthroat": 4, "six-3x2": 3, "two-player": 2}


def test_compare_of_different_tables_shares_rows_and_marks_what_does_not_apply():
    # T-V-2P (2 players), T-V-5P (5 alone), T-V-CUT (4 alone) against the 4-player team game: one
    # row per metric whatever the table's fair share (kept in the estimates), "-" where a seat or
    # team row does not exist, rows grouped speed, fairness, outcomes, skill; the title says who plays.
    res = compare("two-hundred", ["standard", "two-player", "five-player", "cutthroat"], games=60, seed=4)
    wide = res.tables["compare"].set_index("variant")
    assert "(4p)" in res.title and "(2p)" in res.title and "(5p)" in res.title
    edge_cols = [c for c in wide.columns if "edge (win rate" in c and "skill" not in c]
    assert len(edge_cols) == 2  # "first dealer's team's edge" (team tables) and "first dealer's edge"
    assert wide.loc["five-player", "seat 4 wins"] != "-" and wide.loc["standard", "seat 4 wins"] == "-"
    assert wide.loc["standard", "team 0 wins"] != "-" and wide.loc["cutthroat", "team 0 wins"] == "-"
    est = res.tables["estimates"]
    fair = est[est["metric"] == "starter_edge"].set_index("variant")["fair"]
    assert dict(fair) == pytest.approx({"standard": 1 / 2, "two-player": 1 / 2, "five-player": 1 / 5, "cutthroat": 1 / 4})
    groups = est.drop_duplicates("label").set_index("label")["group"]
    order = [groups[c] for c in wide.columns]
    assert order == sorted(order, key=["speed", "fairness", "outcomes", "skill"].index)


def test_tune_finds_the_planted_best_and_reports_significance():
    default = dict(Arena("two-hundred").strategy("heuristic").values)["aggr"]
    res = tune("two-hundred", "heuristic", [f"aggr={default},2.5"], games=300, seed=2)
    tab = res.table
    assert list(tab["aggr"]) == [default, 2.5]
    # bidding 2.5 times the hand's estimate overbids wildly: the default is significantly better
    assert res.summary["best"] == {"aggr": default} and res.summary["significant"]
    assert (tab["games"] == 600).all()  # 300 deals × 2 team rotations
    # the candidate equal to the opponent (the family's defaults) wins exactly half
    assert tab.loc[tab["aggr"] == default, "win_rate"].iloc[0] == pytest.approx(0.5)


def test_tune_two_parameters_gives_the_grid():
    res = tune("two-hundred", "heuristic", {"aggr": [0.6, 0.8], "partner": [10, 20]}, games=40, seed=1)
    assert len(res.table) == 4
    assert set(map(tuple, res.table[["aggr", "partner"]].to_numpy())) == {(0.6, 10), (0.6, 20), (0.8, 10), (0.8, 20)}


def test_adaptive_tune_uses_fewer_games_and_agrees_with_the_flat_grid():
    vals = "0.2,0.4,0.6,0.8,1.2,1.6,2.0"
    flat = tune("two-hundred", "heuristic", [f"aggr={vals}"], games=1200, seed=11)
    race = tune("two-hundred", "heuristic", [f"aggr={vals}"], games=1200, seed=11, adaptive=True, batch=150)
    assert race.summary["best"] == flat.summary["best"]
    assert race.summary["games_used"] < flat.table["games"].sum()
    assert race.summary["saving"] > 0.2
    assert race.table["eliminated_at"].notna().sum() >= 4
    # the eliminated values all played the same first deals as the leader (common random numbers)
    assert any("fewer" in n for n in race.notes)


def test_tournament_matrix_and_ratings():
    res = tournament("two-hundred", "random,heuristic,heuristic:aggr=0.4", games=150, seed=3)
    rat = res.tables["ratings"]
    assert list(rat["strategy"])[0] == "heuristic" and list(rat["strategy"])[-1] == "random"
    anchor = res.meta["rating_anchor"]  # random (almost) never wins here: it weighs under 1% of the centre
    weights = res.meta["rating_weights"]  # mean 0 weighted by information (issue 28)
    assert "random" not in anchor and weights["random"] < 0.01
    assert sum(weights[s] * r for s, r in zip(rat["strategy"], rat["rating"])) == pytest.approx(0, abs=1e-6)
    assert any("Holm" in n for n in res.notes)
    pairs = res.tables["pairs"]
    assert len(pairs) == 6
    hr = pairs.query("strategy == 'heuristic' and opponent == 'random'").iloc[0]
    rh = pairs.query("strategy == 'random' and opponent == 'heuristic'").iloc[0]
    assert hr["win_rate"] + rh["win_rate"] == pytest.approx(1.0)  # every game has a winner
    assert hr["significant"]
    assert (rat["wins"] + rat["losses"] == 2 * 150 * 2).all()


def test_tournament_yaniv_four_players_rotates_teams_of_seats():
    res = tournament("yaniv", ["threshold", "threshold:call=3"], games=40, seed=1)
    assert res.meta["lineups"] == [[0, 1, 0, 1], [1, 0, 1, 0]]
    assert res.tables["pairs"]["games"].iloc[0] == 80


@pytest.mark.parametrize("call, msg", [
    (lambda: compare("yaniv", ["israeli", "israeli"], games=10), "twice"),
    (lambda: compare("yaniv", ["nope"], games=10), "unknown Yaniv variant"),
    (lambda: compare("yaniv", [], games=10), "at least one variant"),
    (lambda: compare("yaniv", ["israeli"], games=0), "games=0"),
    (lambda: tune("yaniv", "threshold", ["nope=1,2"], games=10), "no parameter"),
    (lambda: tune("yaniv", "threshold", ["call=1"], games=10), "at least two values"),
    (lambda: tune("yaniv", "threshold", ["call=99,100"], games=10), "out of range"),
    (lambda: tune("yaniv", "threshold", ["call=1,2", "keep=0,1", "stock=1,2"], games=10), "one or two"),
    (lambda: tune("yaniv", "threshold", ["call"], games=10), "NAME=VALUES"),
    (lambda: tournament("yaniv", ["random"], games=10), "at least two"),
    (lambda: tournament("yaniv", ["random", "random"], games=10), "twice"),
    (lambda: tournament("yaniv", ["random", "nope"], games=10), "unknown yaniv strategy"),
    (lambda: compare("chess", ["x"]), "unknown game"),
])
def test_bad_input_is_one_clear_error(call, msg):
    with pytest.raises(SimcardsError, match=msg):
        call()


def test_every_game_declares_its_metrics():
    for game in available():
        gdef = get_game(game)
        m = gdef.metrics(gdef.build_rules(None))
        assert m.units == gdef.unit + "s" and m.units in ("rounds", "hands", "deals")


@pytest.mark.slow
@pytest.mark.skipif("gin" not in available(), reason="gin not in this version")
def test_gin_compare_and_tune():
    res = compare("gin", ["standard", "tournament"], games=60, seed=1, weak="random")
    est = res.tables["estimates"]
    assert {"gin_rate", "undercut_rate", "wall_rate", "knock_rate", "dealer_hand_share"} <= set(est["metric"])
    g = res.tables["games"]
    assert len(g) == 120 and set(g["variant"]) == {"standard", "tournament"}
    assert res.tables["differences"]["paired"].all()  # same 52-card deck
    assert _est(res, "standard", "skill_edge")["significant"]
    t = tune("gin", "knock", ["max=0,10"], games=40, seed=1)
    assert len(t.table) == 2 and (t.table["fair_share"] == 0.5).all()


def test_studies_on_a_backend_give_identical_tables():
    backends = pytest.importorskip("simcards.backends")
    a = tournament("two-hundred", ["random", "heuristic"], games=60, seed=4)
    with backends.using("local"):
        b = tournament("two-hundred", ["random", "heuristic"], games=60, seed=4)
    pd.testing.assert_frame_equal(a.tables["pairs"], b.tables["pairs"])
