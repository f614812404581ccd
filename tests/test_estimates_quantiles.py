"""The interval quantiles (``simcards.stats.estimates``) come from scipy.special without importing
scipy.stats (a second of every short run): they must equal scipy.stats' own, bit for bit, so every
interval a table shows stays what it was."""

import numpy as np
import pytest
from scipy import stats

from simcards.stats import estimates as e

LEVELS = [0.025, 0.975, 0.005, 0.995, 0.05, 0.95, 1e-9, 0.5]


@pytest.mark.parametrize("q", LEVELS)
def test_t_quantile_is_scipy_stats_t(q):
    for df in [1, 1.5, 2, 3, 7, 19, 29.25, 99, 1000, 12345.5, 1e7]:
        assert e._t_ppf(q, df) == float(stats.t.ppf(q, df))


@pytest.mark.parametrize("q", LEVELS)
def test_beta_quantile_is_scipy_stats_beta(q):
    rng = np.random.default_rng(5)
    cases = [(1, 1), (0.5, 3), (1, 20000), (3.25, 10.75), (99, 2)]
    cases += [tuple(x) for x in rng.uniform(0.01, 5000, size=(40, 2))]
    for a, b in cases:
        assert e._beta_ppf(q, a, b) == float(stats.beta.ppf(q, a, b))


@pytest.mark.parametrize("q", LEVELS)
def test_chi2_quantile_is_scipy_stats_chi2(q):
    for df in [0.5, 2, 2.5, 4, 10, 61.5, 1000, 200002]:
        assert e._chi2_ppf(q, df) == float(stats.chi2.ppf(q, df))


def test_edges_answer_as_scipy_stats():
    assert e._t_ppf(1.0, 5) == float(stats.t.ppf(1.0, 5)) == np.inf
    assert e._beta_ppf(0.0, 2, 3) == 0.0
    assert np.isnan(e._beta_ppf(0.5, 0, 3)) and np.isnan(float(stats.beta.ppf(0.5, 0, 3)))
    assert np.isnan(e._chi2_ppf(0.5, -1))


def test_intervals_unchanged():
    """The public intervals, on the figures a short run produces, as scipy.stats gave them."""
    a = e._alpha(e.Z95)
    assert e.t_quantile(e.Z95, 19) == float(stats.t.ppf(1 - a / 2, 19))
    assert e.exact_proportion(3, 40) == (float(stats.beta.ppf(a / 2, 3, 38)), float(stats.beta.ppf(1 - a / 2, 4, 37)))
    low, high = e.exact_rate(4, 100.0)
    assert low == float(stats.chi2.ppf(a / 2, 8)) / 2 / 100.0
    assert high == float(stats.chi2.ppf(1 - a / 2, 10)) / 2 / 100.0


def test_quantiles_load_without_scipy_special_package_and_leave_it_whole():
    """In a fresh process the quantiles load scipy.special's compiled ufuncs without running the
    package's costly ``__init__`` (its array-API layer imports numpy.f2py); a later
    ``import scipy.special`` (and scipy.stats) still gets the whole package, with the same ufuncs."""
    import subprocess
    import sys

    code = """
import sys
from simcards.stats import estimates as e
t = e.t_quantile(e.Z95, 999)
assert "scipy.special" not in sys.modules and "numpy.f2py" not in sys.modules, sorted(sys.modules)
from scipy import special, stats
assert special.stdtrit is e._special("stdtrit") and special.gammaincinv is e._special("gammaincinv")
a = e._alpha(e.Z95)
assert t == float(stats.t.ppf(1 - a / 2, 999)) and special.erf(0.0) == 0.0
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
