"""Confidence intervals. Every rate or mean we show a user goes through here."""

from __future__ import annotations

import math
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


def ratio_ci(numer, denom, z: float = Z95) -> Estimate:
    """Ratio of sums over independent units (e.g. turns per round, with games as units),
    with a delta-method interval that respects the clustering of rounds within games. The
    interval stays inside what the data allow (``ratio_bounds``): a ratio of counts is never
    negative, and a share (each unit's numerator at most its denominator) never above 1."""
    a = np.asarray(numer, dtype=np.float64)
    b = np.asarray(denom, dtype=np.float64)
    n = a.size
    if n == 0 or b.sum() == 0:
        return Estimate(math.nan, math.nan, math.nan, n)
    r = a.sum() / b.sum()
    if n == 1:
        return Estimate(r, math.nan, math.nan, 1)
    resid = a - r * b
    se = math.sqrt(float((resid**2).sum()) / (n * (n - 1))) / float(b.mean())
    return clamp(Estimate(r, r - z * se, r + z * se, n), *ratio_bounds(a, b))


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
