"""Issue 16, items 1-6: intervals that keep their coverage for rare events, near 0 and 1, for a
selected winner and beside a hopeless player; named multiple-comparison control. Coverages are
computed exactly (summing binomial / Poisson probabilities) or on cheap synthetic data."""

import math

import numpy as np
import pytest
from scipy.stats import binom, binomtest, poisson

from simcards.stats.aggregate import RatioPart, _rec_ratio_ci
from simcards.stats.differences import bradley_terry, holm, mover, p_value, significant
from simcards.stats.estimates import Estimate, clamp, exact_rate, proportion_ci, ratio_ci, wilson
from simcards.stats.moments import Moments
from simcards.studies.common import unit_mean
from simcards.studies.tune import selection_adjusted

N = 2000  # units (games), each one opportunity: the share's events are binomial


def _share_interval(k: int, n: int = N) -> Estimate:
    return ratio_ci(np.r_[np.ones(k), np.zeros(n - k)].astype(np.int64), np.ones(n, np.int64))


def _coverage(interval, p: float, n: int = N) -> float:
    """P(interval(K) holds p) for K ~ Binomial(n, p), summed exactly over every likely K."""
    ks = range(int(binom.ppf(1 - 1e-12, n, p)) + 1)
    return sum(binom.pmf(k, n, p) for k in ks if interval(k).low <= p <= interval(k).high)


@pytest.mark.parametrize("events", [0, 1, 3])
def test_rare_share_interval_is_exact_at_0_1_3_events(events):
    est = _share_interval(events)
    ci = binomtest(events, N).proportion_ci(method="exact")
    assert est.high > est.low  # never a zero-width interval for a random count
    assert est.low <= ci.low + 1e-12 and est.high >= ci.high - 1e-12  # contains Clopper–Pearson
    assert est.high < 3 * ci.high  # and is not absurdly wider


@pytest.mark.parametrize("expected", [0.05, 0.3, 1, 3, 10])
def test_rare_share_interval_keeps_its_coverage(expected):
    """Item 1: with 0.05 to 10 events expected, ratio_ci covers at least 95% (exact sum); the bare
    delta method covered 0% at 0.05 events expected and ~63% at 1."""
    p = expected / N
    assert _coverage(_share_interval, p) >= 0.95
    cache = {}

    def delta_only(k):
        if k not in cache:
            a = np.r_[np.ones(k), np.zeros(N - k)]
            r = k / N
            se = math.sqrt(((a - r) ** 2).sum() / (N * (N - 1)))
            cache[k] = clamp(Estimate(r, r - 1.96 * se, r + 1.96 * se, N), 0, 1)
        return cache[k]

    if expected <= 1:
        assert _coverage(delta_only, p) < 0.7  # what the old interval did


def test_wilson_under_covers_rare_proportions_and_proportion_ci_does_not():
    p = 0.1 / N
    assert _coverage(lambda k: wilson(k, N), p) < 0.92
    assert _coverage(lambda k: proportion_ci(k, N), p) >= 0.95


@pytest.mark.parametrize("lam", [0.05, 1, 3, 10])
def test_poisson_rate_interval_coverage(lam):
    """A rate (events per unit, several per unit allowed): Garwood's exact interval covers >= 95%."""
    exposure = 500
    ks = range(int(poisson.ppf(1 - 1e-12, lam)) + 1)
    cov = sum(poisson.pmf(k, lam) for k in ks
              if exact_rate(k, exposure)[0] <= lam / exposure <= exact_rate(k, exposure)[1])
    assert cov >= 0.95
    # ratio_ci of counts that are not a share (3 events in one game) contains it
    a = np.zeros(exposure, np.int64)
    a[7] = 3
    est = ratio_ci(a, np.ones(exposure, np.int64))
    lo, hi = exact_rate(3, exposure)
    assert est.low <= lo and est.high >= hi > est.value


def test_streamed_rare_share_equals_the_whole_table():
    """The summary-only path (RatioPart, merged by chunks) gives ratio_ci's interval, also at 0 events."""
    for k in (0, 1, 3):
        a = np.r_[np.ones(k), np.zeros(N - k)].astype(np.int64)
        b = np.ones(N, np.int64)
        parts = [_rec_ratio_ci(a[i:i + 300], b[i:i + 300]) for i in range(0, N, 300)]
        total = sum(parts[1:], parts[0])
        assert isinstance(total, RatioPart)
        est, whole = total.estimate(), ratio_ci(a, b)
        assert (est.low, est.high) == pytest.approx((whole.low, whole.high), rel=1e-12, abs=1e-15)
        assert est.high > 0
        mo = Moments.of({"a": a, "b": b})
        assert (mo.share("a", "b").low, mo.share("a", "b").high) == pytest.approx((whole.low, whole.high))


# ----- item 2: differences near 0 and 1 -------------------------------------------------------------
def _paired_moments(n: int, n10: int, n01: int, n00: int = 0) -> Moments:
    """Moments of two 0/1 columns x1, x2 over n units from their 2×2 table."""
    n11 = n - n10 - n01 - n00
    s1, s2 = n11 + n10, n11 + n01
    return Moments(("x1", "x2"), n, (s1, s2), ((s1, n11), (n11, s2)))


def test_four_lost_games_against_none_is_not_significant():
    """The shipped Two Hundred report called +0.00 pts [+0.00, +0.00] significant: about 4 lost
    games of 400,000 against 0 (exact sign test p = 0.125)."""
    n = 400_000
    mo = _paired_moments(n, 4, 0)  # x1 lost 0 (won all), x2 lost 4: as a difference x2 − x1 < 0
    mo = _paired_moments(n, 4, 0)
    d = mo.bounded_diff("x1", "x2")
    assert d.value == pytest.approx(-4 / n) and not significant(d)
    assert d.high - d.low > 4 / n
    assert mo.paired_diff("x1", "x2").high < 0  # the normal interval's false "significant"
    p = p_value(lambda z: mo.bounded_diff("x1", "x2", 1, True, z))
    assert p > 0.05
    assert binomtest(0, 4).pvalue == pytest.approx(0.125)
    # skill columns in lineup units (scale 4): one deal lost 1 of 4 lineups in each of 4 deals
    a = np.full(n, 4)
    b = a.copy()
    b[[5, 77, 900, 3000]] = 3
    ms = Moments.of({"a": a, "b": b})
    assert not significant(ms.bounded_diff("a", "b", 4))


@pytest.mark.parametrize("lam_b, lam_c", [(0.5, 0.5), (2, 2), (5, 5), (3, 0.5), (8, 1)])
def test_rare_paired_difference_coverage(lam_b, lam_c):
    """Item 2: the paired difference of two rates near 1 (discordant deals b ~ x1 won only,
    c ~ x2 won only, everything else won by both) covers the true difference >= ~95%, computed
    exactly over the multinomial table (rare discordance: b, c nearly independent Poisson)."""
    n = 100_000
    pb, pc = lam_b / n, lam_c / n
    true = pc - pb  # mean(x2) − mean(x1)
    cov = 0.0
    kb = range(int(poisson.ppf(1 - 1e-9, lam_b)) + 1)
    kc = range(int(poisson.ppf(1 - 1e-9, lam_c)) + 1)
    for b in kb:
        for c in kc:
            prob = poisson.pmf(b, lam_b) * poisson.pmf(c, lam_c)
            d = _paired_moments(n, b, c).bounded_diff("x1", "x2")
            cov += prob * (d.low <= true <= d.high)
    assert cov >= 0.945, cov


def test_mover_with_normal_intervals_is_the_paired_normal_interval():
    rng = np.random.default_rng(1)
    x1 = rng.normal(10, 2, 500)
    x2 = x1 + rng.normal(0.3, 1, 500)
    from simcards.stats.differences import paired_diff
    from simcards.stats.estimates import mean_ci

    r = np.corrcoef(x1, x2)[0, 1]
    d, ref = mover(mean_ci(x1), mean_ci(x2), r), paired_diff(x1, x2)
    assert (d.low, d.high) == pytest.approx((ref.low, ref.high), rel=2e-3)


# ----- item 3: the winner's curse -----------------------------------------------------------------
def test_selected_best_arm_interval_covers_on_identical_arms():
    """Six identical values, 300 deals each (each deal: 4 seatings at a fair 25%): the plain 95%
    interval of the best one covers the truth far less than 95% (the winner's curse); the
    selection-adjusted interval and a replay on fresh deals both cover >= 93%."""
    rng = np.random.default_rng(16)
    runs, arms, deals, p = 2000, 6, 300, 0.25
    plain = adjusted = replay = 0
    for _ in range(runs):
        won = rng.binomial(4, p, size=(arms, deals)) / 4
        best = int(np.argmax(won.mean(axis=1)))
        e = unit_mean(won[best])
        plain += e.low <= p <= e.high
        a = selection_adjusted(won[best], arms)
        adjusted += a.low <= p <= a.high
        fresh = unit_mean(rng.binomial(4, p, size=deals) / 4)
        replay += fresh.low <= p <= fresh.high
    assert plain / runs < 0.9
    assert adjusted / runs >= 0.93 and replay / runs >= 0.93


# ----- item 4: ratings beside a hopeless player ----------------------------------------------------
def test_a_player_that_never_wins_does_not_blur_the_other_ratings():
    w = np.array([[0, 4100, 4000], [3900, 0, 4050], [4000, 3950, 0]], float)
    alone = bradley_terry(w, list("abc"))
    w4 = np.zeros((4, 4))
    w4[:3, :3] = w
    w4[:3, 3] = 8000  # "random" loses every game to everyone
    with_random = bradley_terry(w4, list("abcr"))
    assert with_random.anchor == ("a", "b", "c")
    assert np.allclose(with_random.se[:3], alone.se, rtol=0.05)  # ±3.6 Elo either way
    assert np.allclose(with_random.rating[:3], alone.rating, atol=0.5)
    assert with_random.rating[3] < -1000 and with_random.se[3] > 10 * with_random.se[0]


# ----- item 6: multiple comparisons ---------------------------------------------------------------
def test_holm_step_down():
    assert holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]  # 0.005 ≤ .05/4, .01 ≤ .05/3, .03 > .05/2
    assert holm([0.01, 0.02, 0.03]) == [True, True, True]  # .01 ≤ .05/3, .02 ≤ .05/2, .03 ≤ .05
    assert holm([float("nan"), 0.001]) == [False, True]


def test_p_value_inverts_the_interval():
    # a normal estimate 2.5 standard errors from 0: p = 2(1 − Φ(2.5))
    est = lambda z: Estimate(2.5, 2.5 - z, 2.5 + z, 100)  # noqa: E731
    assert p_value(est) == pytest.approx(math.erfc(2.5 / math.sqrt(2)), rel=1e-6)


# ----- studies on the engine (tiny runs) -----------------------------------------------------------
def test_compare_names_holm_and_matches_the_seat_deviation_flag():
    """Items 5 and 6: the largest seat deviation shows its Bonferroni interval (the one behind
    its flag), and the significant-differences note names its multiple-comparison control."""
    from simcards.studies import compare

    res = compare("yaniv", ["israeli", "nepali-jokers"], games=120, seed=4)
    est = res.tables["estimates"]
    for _, row in est[est["metric"] == "max_seat_deviation"].iterrows():
        assert "Bonferroni" in row["label"] and row["significant"] == (row["low"] > 0)
        seat = int(row["detail"].split()[-1])
        win = est[(est["variant"] == row["variant"]) & (est["metric"] == f"win_seat_{seat}")].iloc[0]
        assert row["high"] > abs(win["high"] - 0.25) - 1e-12  # wider than the plain 95% interval's reach
    assert any("Holm" in n for n in res.notes)
    d = res.tables["differences"]
    assert {"p", "significant", "significant_95"} <= set(d.columns)
    assert (d["significant"] <= d["significant_95"]).all()  # Holm never flags more than the 95% intervals
    # item 7: a round's starter, against 1 / players still in the round (Y-START-2)
    rs = est[est["metric"] == "round_starter_edge"]
    assert len(rs) == 2 and (rs["fair"] >= 0.25).all() and (rs["fair"] < 0.5).all()
    # item 11: the skill row no longer pits the default against random
    assert res.meta["skill"]["weak"] == "threshold:keep=0"


def test_round_starter_counts_on_a_hand_made_rounds_table():
    """Item 7: the round's winner is the lowest hand (Y-SC-1/2); a tie goes to the first player
    after the caller (Y-START-2); capped rounds (no caller) have no winner."""
    import pandas as pd

    from simcards.games import get_game
    from simcards.games.analysis import FAIR_SCALE

    rounds = pd.DataFrame({
        "game": [10, 10, 10, 11],
        "starter": [0, 1, 2, 3],
        "caller": pd.array([0, 2, pd.NA, 1], dtype="Int8"),
        "hand_0": pd.array([3, 7, 9, 5], dtype="Int16"),
        "hand_1": pd.array([8, 4, 9, 5], dtype="Int16"),  # round 2: Asaf, 1 beats caller 2
        "hand_2": pd.array([9, 6, 9, pd.NA], dtype="Int16"),  # game 11: seat 2 is out
        "hand_3": pd.array([9, 9, 9, 5], dtype="Int16"),  # game 11: caller 1 ties 3 and 0: 3 is first after 1
    })
    yaniv = get_game("yaniv")
    won, units, fair = yaniv.metrics(yaniv.build_rules("israeli")).unit_starter(rounds, np.array([10, 11]), 4)
    assert list(won) == [2, 1] and list(units) == [2, 1]
    assert list(fair) == [2 * FAIR_SCALE // 4, FAIR_SCALE // 3]


def test_tune_replays_the_best_and_warns_on_values_the_rules_make_equal():
    """Items 3 and 11: call=5..7 under the call limit 5 (Y-CALL-1) are one setting, the opponents'
    own: the sweep's best is replayed on fresh deals and no value beats the reference."""
    from simcards.studies import tune

    res = tune("yaniv", "threshold", ["call=5..7"], games=60, seed=3, players=2)
    s = res.summary
    assert any("call=6, 7 cannot differ from call=5" in w for w in s["warnings"])
    assert any("played every common deal identically" in w for w in s["warnings"])
    assert s["confirm_games"] == [60, 120] and not s["better_than_reference"]
    assert s["best_confirmed"]["value"] == pytest.approx(0.5)  # the reference against itself
    assert any("no value is better than the reference" in n for n in res.notes)
