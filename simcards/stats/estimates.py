"""Confidence intervals. Every rate or mean we show a user goes through here."""

from __future__ import annotations

import importlib
import importlib.util
import math
import sys
import threading
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95% confidence interval."""

    value: float
    low: float
    high: float
    n: int

    def as_dict(self) -> dict:
        return {"value": self.value, "ci95": [self.low, self.high], "n": self.n}

    def pct(self, digits: int = 1) -> str:
        """``'52.3% [51.8, 52.8]'``; more decimals (up to 3 more) when the interval is narrower
        than ``digits`` can show (``'50.000% [49.990, 50.010]'`` after 100M games)."""
        d = _decimals(100 * (self.high - self.low) / 2, digits)
        return f"{_fixed(100 * self.value, d)}% [{_fixed(100 * self.low, d)}, {_fixed(100 * self.high, d)}]"

    def num(self, digits: int = 2) -> str:
        """``'4.43 [4.42, 4.44]'``, with more decimals for a narrower interval, as ``pct``."""
        d = _decimals((self.high - self.low) / 2, digits)
        return f"{_fixed(self.value, d)} [{_fixed(self.low, d)}, {_fixed(self.high, d)}]"


def _fixed(x: float, d: int) -> str:
    """``x`` with ``d`` decimals, and no minus sign on a value that rounds to zero ("-0.0")."""
    text = f"{x:.{d}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _decimals(half_width: float, digits: int) -> int:
    """At least ``digits`` decimals, and enough (at most 3 more) to show the half-width."""
    if not half_width > 0 or math.isinf(half_width):
        return digits
    return min(max(digits, math.ceil(-math.log10(half_width))), digits + 3)


def wilson(successes: float, n: int, z: float = Z95) -> Estimate:
    """Wilson score interval for a binomial proportion (good near 0 and 1, unlike Wald)."""
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # Rounding can put a bound a hair on the wrong side of p at 0 or 1: the interval holds p.
    return Estimate(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)), n)


def mean_ci(values, z: float = Z95) -> Estimate:
    """Mean with a normal-approximation interval (the samples here number in the thousands)."""
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = float(x.mean())
    if n == 1:
        return Estimate(m, math.nan, math.nan, 1)
    se = float(x.std(ddof=1)) / math.sqrt(n)
    return Estimate(m, m - z * se, m + z * se, n)


def _alpha(z: float) -> float:
    """Two-sided level of a normal quantile z (z = 1.96 → 0.05)."""
    return math.erfc(z / math.sqrt(2))


def exact_proportion(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Clopper–Pearson interval for k successes in n trials (scipy's beta quantiles): its coverage
    is at least the nominal level for every p, also with 0 or a few events, where the Wilson and
    normal intervals fall short. ``k`` may be fractional (a sum of per-unit fractions)."""
    a = _alpha(z)
    low = 0.0 if k <= 0 else _beta_ppf(a / 2, k, n - k + 1)
    high = 1.0 if k >= n else _beta_ppf(1 - a / 2, k + 1, n - k)
    return low, high


def exact_rate(k: float, exposure: float, z: float = Z95) -> tuple[float, float]:
    """Exact (Garwood) interval for a Poisson rate: k events over ``exposure`` units, from the
    chi-square (gamma) quantiles. Never of zero width: 0 events give [0, 3.69 / exposure]."""
    a = _alpha(z)
    low = 0.0 if k <= 0 else _chi2_ppf(a / 2, 2 * k) / 2
    return low / exposure, _chi2_ppf(1 - a / 2, 2 * k + 2) / 2 / exposure


def t_quantile(z: float, df: float) -> float:
    """The Student t quantile with ``df`` degrees of freedom at the two-sided level of the normal
    quantile ``z`` (1.96 → t_df,0.975): the small-sample interval of a mean or ratio over df + 1
    units, whose standard error is itself estimated (at 20 games z alone covers ~90%)."""
    if not df >= 1 or not math.isfinite(df):
        return z
    return _t_ppf(1 - _alpha(z) / 2, df)


# The quantiles of scipy.stats' t, beta and chi2 (``dist.ppf(q, ...)``), from the scipy.special functions
# those distributions call, value for value: importing scipy.stats costs about a second, longer than
# a short run itself (tests/test_estimates_quantiles.py compares the two). Outside the ordinary case
# (q strictly inside (0, 1), valid shapes) the distribution itself answers.
def _t_ppf(q: float, df: float) -> float:
    stdtrit = _special("stdtrit")
    return _ppf("t", q, (df,), df > 0, lambda: stdtrit(df, q))


def _beta_ppf(q: float, a: float, b: float) -> float:
    beta_ppf = _special("_beta_ppf")
    if beta_ppf is None:  # scipy moved it
        return _ppf("beta", q, (a, b), False, None)
    return _ppf("beta", q, (a, b), a > 0 and b > 0, lambda: beta_ppf(q, a, b))


def _chi2_ppf(q: float, df: float) -> float:
    gammaincinv = _special("gammaincinv")
    return _ppf("chi2", q, (df,), df > 0, lambda: 2 * gammaincinv(df / 2, q))


_LOADING = threading.Lock()


def _special(name: str):
    """scipy.special's compiled function ``name``: the very object ``scipy.special.<name>`` is.

    scipy.special's package ``__init__`` clones numpy's namespace for its array-API layer, which
    imports numpy.f2py and numpy.testing on the way: 0.1-0.25 CPU s, a fifth of a short warm run.
    The compiled ufuncs need none of it. So while scipy.special is not loaded, its ``_ufuncs`` loads
    under a bare package object that is dropped at once: a later ``import scipy.special`` runs the
    real package, which finds the same extension modules (tests/test_estimates_quantiles.py)."""
    with _LOADING:
        ufuncs = sys.modules.get("scipy.special._ufuncs")
        if ufuncs is None and "scipy.special" not in sys.modules:
            ufuncs = _ufuncs_without_package()
        if ufuncs is None:
            ufuncs = importlib.import_module("scipy.special._ufuncs")
    return getattr(ufuncs, name, None)


def _ufuncs_without_package():
    """``scipy.special._ufuncs`` imported under a bare ``scipy.special``; None if that fails."""
    spec = importlib.util.find_spec("scipy.special")
    if spec is None or spec.loader is None:
        return None
    bare = importlib.util.module_from_spec(spec)  # the package, its __init__ not run
    sys.modules["scipy.special"] = bare
    try:
        return importlib.import_module("scipy.special._ufuncs")
    except ImportError:
        return None
    finally:
        if sys.modules.get("scipy.special") is bare:
            del sys.modules["scipy.special"]


def _ppf(dist: str, q: float, shapes: tuple, ordinary: bool, quantile) -> float:
    """``scipy.stats.<dist>.ppf(q, *shapes)``: in the ordinary case what it makes of ``quantile()``
    (loc 0, scale 1), otherwise its own answer."""
    if ordinary and 0 < q < 1:
        return float(np.float64(quantile()) * 1.0 + 0.0)
    import scipy.stats

    return float(getattr(scipy.stats, dist).ppf(q, *shapes))


def proportion_ci(k: float, n: int, z: float = Z95) -> Estimate:
    """k of n: the Wilson interval widened to contain the exact Clopper–Pearson one, so that its
    coverage holds near 0 and 1 (Wilson's dips to ~84% when about 0.1 events are expected); with
    thousands of events both agree to the shown digits."""
    w = wilson(k, n, z)
    if n <= 0:
        return w
    low, high = exact_proportion(k, n, z)
    return Estimate(w.value, min(w.low, low), max(w.high, high), w.n)


RARE = 10  # fewer deals' worth of the rarer outcome than this: the normal interval is not trusted


def bounded_mean(est: Estimate, total: float, n: int, z: float = Z95) -> Estimate:
    """Mean of n per-unit values in [0, 1] (fractions of lineups won): the normal interval ``est``
    widened to contain the Clopper–Pearson interval of ``total`` successes in n trials, and cut to
    [0, 1]. A [0, 1] value varies at most as a 0/1 one of the same mean, so the exact binomial
    bounds are conservative; they matter near 0 and 1, where a few units decide (4 lost games in
    400,000) and the normal interval is far too narrow. Only there: with ``RARE`` or more deals'
    worth on both sides the normal interval is kept, since seat rotation makes a deal's value
    vary far less than a 0/1 one (a strategy against itself wins exactly its fair share on every
    deal, an interval of zero width that is exact)."""
    if n <= 0 or min(total, n - total) >= RARE:
        return est
    el, eh = exact_proportion(total, n, z)
    low = el if math.isnan(est.low) else min(est.low, el)
    high = eh if math.isnan(est.high) else max(est.high, eh)
    return clamp(Estimate(est.value, low, high, est.n), 0.0, 1.0)


def count_interval(events, exposure, share: bool, z: float = Z95) -> tuple[float, float]:
    """Exact interval of Σevents / Σexposure for whole counts: Clopper–Pearson for a share
    (events out of that many opportunities), Garwood's Poisson interval for a rate."""
    return exact_proportion(events, exposure, z) if share else exact_rate(events, exposure, z)


def widen_for_counts(est: Estimate, events, exposure, lo: float, hi: float, z: float = Z95) -> Estimate:
    """The delta-method interval ``est`` of a ratio of whole counts, widened to contain the exact
    interval of the pooled count (``count_interval``) and cut to [lo, hi]. The delta method
    accounts for events clustering within units but collapses to [0, 0] with no event and
    under-covers with a few (the exact interval keeps its coverage there); with many events the
    delta interval is the wider one unless the counts are under-dispersed."""
    if lo >= 0 and exposure > 0 and events >= 0:
        share = hi <= 1 and events <= exposure
        el, eh = count_interval(events, exposure, share, z)
        k = effective_events(est, events, exposure, z)
        if 0 < k < events:  # bunched in few units: the exact interval of that many independent events
            r = events / exposure
            kl, kh = count_interval(k, k / r, share and k / r >= k, z)
            el, eh = min(el, kl), max(eh, kh)
        low = el if math.isnan(est.low) else min(est.low, el)
        high = eh if math.isnan(est.high) else max(est.high, eh)
        est = Estimate(est.value, low, high, est.n)
    return clamp(est, lo, hi)


def effective_events(est: Estimate, events: float, exposure: float, z: float = Z95) -> float:
    """How many independent events the clustered (delta-method) interval ``est`` of ``events /
    exposure`` is worth: (ratio / its standard error)² (Korn & Graubard's effective sample size,
    1998). Events that fall one to a unit give about ``events``; events bunched in few units (a
    game with 6 of them) give about the number of units that hold them, and the exact interval of
    that many events is the small-sample interval of the clustered ratio. Over few units the count
    is scaled by (z / t)², t at units − 1 degrees of freedom (Korn & Graubard's correction: the
    standard error is itself estimated), which widens the skewed exact interval where a ratio over
    10–20 games needs it. 0 when unknown."""
    if events <= 0 or not (math.isfinite(est.low) and math.isfinite(est.high)) or est.high <= est.low:
        return 0.0
    q = t_quantile(z, est.n - 1) if est.n > 1 else z
    se = (est.high - est.low) / (2 * q)
    return (events / exposure / se) ** 2 * (z / q) ** 2  # Korn–Graubard's degrees-of-freedom correction


def _whole(x: np.ndarray) -> bool:
    return x.dtype.kind in "biu" or bool(np.all(np.isfinite(x)) and np.all(x == np.rint(x)))


def ratio_ci(numer, denom, z: float = Z95) -> Estimate:
    """Ratio of sums over independent units (e.g. turns per round, with games as units),
    with a delta-method interval that respects the clustering of rounds within games. The
    interval stays inside what the data allow (``ratio_bounds``): a ratio of counts is never
    negative, and a share (each unit's numerator at most its denominator) never above 1. For
    whole counts it also contains the exact interval of the pooled count (``widen_for_counts``),
    so that a rare event (0, 1, 3 events) keeps its coverage and never shows a zero-width interval."""
    a = np.asarray(numer, dtype=np.float64)
    b = np.asarray(denom, dtype=np.float64)
    n = a.size
    if n == 0 or b.sum() == 0:
        return Estimate(math.nan, math.nan, math.nan, n)
    r = a.sum() / b.sum()
    lo, hi = ratio_bounds(a, b)
    if n == 1:
        est = Estimate(r, math.nan, math.nan, 1)
    else:
        resid = a - r * b
        se = math.sqrt(float((resid**2).sum()) / (n * (n - 1))) / float(b.mean())
        q = t_quantile(z, n - 1)  # the standard error is estimated from n units
        est = Estimate(r, r - q * se, r + q * se, n)
    if _whole(a) and _whole(b):
        return widen_for_counts(est, float(a.sum()), float(b.sum()), lo, hi, z)
    return clamp(est, lo, hi) if n > 1 else est


def ratio_bounds(numer, denom) -> tuple[float, float]:
    """Where Σnumer / Σdenom can lie: >= 0 when every value is >= 0, and <= 1 as well when every
    unit's numerator is at most its denominator (a share, such as thrown-in deals per deal)."""
    a, b = np.asarray(numer), np.asarray(denom)
    if not ((a >= 0).all() and (b >= 0).all()):
        return -math.inf, math.inf
    return 0.0, (1.0 if (a <= b).all() else math.inf)


def clamp(est: Estimate, lo: float, hi: float) -> Estimate:
    """``est`` with its interval cut to [lo, hi] (the delta method's normal interval can cross a
    bound the quantity cannot: a rare event's rate below 0)."""
    return Estimate(est.value, min(max(est.low, lo), est.value), max(min(est.high, hi), est.value), est.n)
