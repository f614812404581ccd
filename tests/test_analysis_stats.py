"""Statistics of the analysis package on cases with known answers."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcards.stats.differences import (
    ELO,
    bradley_terry,
    newcombe_diff,
    p_two_sided,
    paired_diff,
    paired_ratio_diff,
    ratio_diff,
    significant,
    welch_diff,
    z_for,
)
from simcards.stats.estimates import Z95, Estimate, ratio_ci, wilson


def test_wilson_matches_newcombe_1998_reference():
    # Newcombe (1998), Stat Med 17:857, single proportion 81/263: score interval 0.2553 to 0.3662.
    est = wilson(81, 263)
    assert est.low == pytest.approx(0.2553, abs=5e-5)
    assert est.high == pytest.approx(0.3662, abs=5e-5)


def test_newcombe_difference_matches_reference():
    # Newcombe (1998), Stat Med 17:873, 56/70 vs 48/80, method 10: 0.0524 to 0.3339 for p1 − p2.
    est = newcombe_diff(48, 80, 56, 70, exact=False)  # second minus first, on plain Wilson
    assert est.value == pytest.approx(0.2)
    assert est.low == pytest.approx(0.0524, abs=5e-5)
    assert est.high == pytest.approx(0.3339, abs=5e-5)
    widened = newcombe_diff(48, 80, 56, 70)  # the default: on the widened single rates (issue 28)
    assert widened.low <= est.low and widened.high >= est.high and widened.high - widened.low < 1.1 * (est.high - est.low)


def test_z_values():
    assert z_for(0.05) == pytest.approx(Z95, abs=1e-9)
    assert z_for(0.05, 2) == pytest.approx(2.241402727604947, abs=1e-9)
    assert z_for(0.01) == pytest.approx(2.5758293035489004, abs=1e-9)
    assert p_two_sided(Z95) == pytest.approx(0.05, abs=1e-12)
    with pytest.raises(ValueError):
        z_for(0.0)


def test_paired_diff_exact():
    a = np.array([1.0, 2.0, 3.0, 4.0])
    b = np.array([2.0, 2.0, 5.0, 5.0])  # differences 1, 0, 2, 1: mean 1, sd sqrt(2/3)
    est = paired_diff(a, b)
    half = Z95 * math.sqrt(2 / 3) / 2
    assert (est.value, est.low, est.high, est.n) == pytest.approx((1.0, 1 - half, 1 + half, 4))
    with pytest.raises(ValueError):
        paired_diff([1, 2], [1, 2, 3])


def test_welch_diff_exact():
    est = welch_diff([0.0, 2.0], [1.0, 3.0, 5.0])
    se = math.sqrt(2 / 2 + 4 / 3)
    assert est.value == pytest.approx(2.0)
    assert est.high - est.value == pytest.approx(Z95 * se)


def test_ratio_diffs_reduce_to_mean_diffs_with_unit_denominators():
    rng = np.random.default_rng(1)
    a, b = rng.normal(5, 2, 50), rng.normal(6, 2, 50)
    ones = np.ones(50)
    p1, p2 = paired_ratio_diff(a, ones, b, ones), paired_diff(a, b)
    assert (p1.value, p1.low, p1.high) == pytest.approx((p2.value, p2.low, p2.high))
    u1, u2 = ratio_diff(a, ones, b, ones), welch_diff(a, b)
    # ratio_diff uses n(n−1) in the variance like ratio_ci; welch uses var(ddof=1)/n: identical
    assert (u1.value, u1.low, u1.high) == pytest.approx((u2.value, u2.low, u2.high))


def test_ratio_diff_value_is_the_difference_of_ratio_estimates():
    a1, b1 = np.array([10, 20, 30.0]), np.array([2, 3, 4.0])
    a2, b2 = np.array([9, 25, 30.0]), np.array([3, 3, 3.0])
    assert ratio_diff(a1, b1, a2, b2).value == pytest.approx(ratio_ci(a2, b2).value - ratio_ci(a1, b1).value)
    assert paired_ratio_diff(a1, b1, a2, b2).value == pytest.approx(64 / 9 - 60 / 9)


def test_significant():
    assert significant(Estimate(0.1, 0.01, 0.2, 10))
    assert significant(Estimate(-0.1, -0.2, -0.01, 10))
    assert not significant(Estimate(0.1, -0.01, 0.2, 10))
    assert not significant(Estimate(math.nan, math.nan, math.nan, 0))


@pytest.mark.slow
def test_no_edge_is_found_at_the_stated_rate():
    """Equal proportions: the 95% Newcombe interval and the paired interval call a difference
    significant in about 5% of replicates (binomial tolerance for 2000 replicates)."""
    rng = np.random.default_rng(2026)
    reps, n, p = 2000, 400, 0.3
    x1 = rng.binomial(n, p, reps)
    x2 = rng.binomial(n, p, reps)
    rate = np.mean([significant(newcombe_diff(a, n, b, n)) for a, b in zip(x1, x2)])
    assert 0.035 <= rate <= 0.065, rate
    # paired: common random numbers make the two outcomes correlated, the interval stays honest
    hits = 0
    for _ in range(1000):
        u = rng.random(n)
        a = (u < p).astype(float)
        b = (np.where(rng.random(n) < 0.8, u, rng.random(n)) < p).astype(float)
        hits += significant(paired_diff(a, b))
    assert 0.03 <= hits / 1000 <= 0.075, hits


def test_a_planted_difference_is_found():
    rng = np.random.default_rng(3)
    n = 2000
    a = (rng.random(n) < 0.30).astype(float)
    b = (rng.random(n) < 0.36).astype(float)
    est = newcombe_diff(a.sum(), n, b.sum(), n)
    assert significant(est) and est.low > 0


def test_bradley_terry_two_players_closed_form():
    # 30 wins to 10: strength ratio 3, so the rating gap is 400·log10(3)
    r = bradley_terry(np.array([[0, 30], [10, 0]]), ["a", "b"], prior=0)
    assert r.rating[0] - r.rating[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert r.rating.sum() == pytest.approx(0, abs=1e-9)
    # standard error of the log-odds of a proportion: 1/sqrt(n p (1−p)), split over two ratings
    se_gap = ELO / math.sqrt(40 * 0.75 * 0.25)
    assert r.se[0] == pytest.approx(se_gap / 2, rel=1e-6)


def test_bradley_terry_recovers_planted_strengths():
    truth = np.array([200.0, 50.0, 0.0, -250.0])
    rng = np.random.default_rng(7)
    k = len(truth)
    wins = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            p = 1 / (1 + 10 ** ((truth[j] - truth[i]) / 400))
            w = rng.binomial(4000, p)
            wins[i, j], wins[j, i] = w, 4000 - w
    r = bradley_terry(wins)
    centred = truth - r.weights @ truth  # centred as the fit centres: weighted by information
    assert np.all(np.abs(r.rating - centred) <= 3 * r.se)
    assert list(np.argsort(-r.rating)) == [0, 1, 2, 3]


def test_bradley_terry_symmetric_results_give_equal_ratings():
    w = np.full((3, 3), 25.0)
    r = bradley_terry(w)
    assert np.allclose(r.rating, 0, atol=1e-9)


def test_bradley_terry_perfect_record_stays_finite():
    r = bradley_terry(np.array([[0, 50], [0, 0]]))
    assert np.all(np.isfinite(r.rating)) and r.rating[0] > r.rating[1]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 300), st.integers(1, 300), st.integers(0, 300), st.integers(1, 300))
def test_newcombe_interval_contains_estimate_and_stays_in_range(x1, n1, x2, n2):
    x1, x2 = min(x1, n1), min(x2, n2)
    est = newcombe_diff(x1, n1, x2, n2)
    assert -1 <= est.low <= est.value + 1e-12 and est.value - 1e-12 <= est.high <= 1


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(-50, 50), st.floats(-50, 50)), min_size=3, max_size=40))
def test_paired_diff_is_antisymmetric_and_contains_its_estimate(pairs):
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    d1, d2 = paired_diff(a, b), paired_diff(b, a)
    assert d1.value == pytest.approx(-d2.value, abs=1e-9)
    assert d1.low == pytest.approx(-d2.high, abs=1e-9) and d1.high == pytest.approx(-d2.low, abs=1e-9)
    assert d1.low <= d1.value + 1e-9 <= d1.high + 2e-9


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=9, max_size=9), st.permutations([0, 1, 2]))
def test_bradley_terry_follows_a_relabelling(counts, perm):
    w = np.array(counts, dtype=float).reshape(3, 3)
    np.fill_diagonal(w, 0)
    r = bradley_terry(w)
    p = np.array(perm)
    rp = bradley_terry(w[np.ix_(p, p)])
    assert np.allclose(rp.rating, r.rating[p], atol=1e-4)
    assert np.allclose(rp.se, r.se[p], atol=1e-4)


def test_estimates_print_as_many_decimals_as_their_interval_needs():
    """A 100M-game rate is not shown as 50.0% [50.0, 50.0]: decimals grow (at most 3) with precision."""
    from simcards.stats.estimates import Estimate, wilson

    assert wilson(523, 1000).pct() == "52.3% [49.2, 55.4]"
    assert wilson(50_000_000, 100_000_000).pct() == "50.000% [49.990, 50.010]"
    assert Estimate(4.43, 4.4299, 4.4301, 10).num(2) == "4.4300 [4.4299, 4.4301]"
    assert Estimate(0.5, 0.5 - 1e-12, 0.5 + 1e-12, 10).pct() == "50.0000% [50.0000, 50.0000]"  # capped
    # a value that rounds to zero prints without a sign: "0.0%", not "-0.0%"
    assert Estimate(-1e-5, -0.007, 0.007, 10).pct() == "0.0% [-0.7, 0.7]"
    assert Estimate(-0.001, -0.5, 0.3, 10).num() == "0.00 [-0.50, 0.30]"
