"""Streaming sufficient statistics for studies: the count, sums and sums of products of a few
whole-number columns measured per unit (a game, a deal).

A study plays its games block by block; each block becomes one :class:`Moments` (n, Σx, Σxxᵀ over
the block's units, exact Python integers) and blocks add up. Every interval the studies show —
a mean, a ratio of sums, a proportion, and the paired or independent difference of two of them —
is a function of these few numbers, so a 100,000,000-game comparison needs the memory of one block
and gives, up to float rounding, the intervals the whole arrays give (``analysis.stats``).
Columns of different variants sit side by side in one ``Moments``: their cross products are what
paired differences on common random numbers need.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from simcards.stats.aggregate import MeanPart, RatioPart
from simcards.stats.estimates import Z95, Estimate, bounded_mean, proportion_ci, widen_for_counts

_SAFE = 2**62  # |Σ x_c x_d| over a block below this: int64 products cannot overflow


def _whole_column(name: str, values) -> np.ndarray:
    x = np.asarray(values)
    if x.dtype.kind == "b":
        return x.astype(np.int64)
    if x.dtype.kind in "iu":
        return x.astype(np.int64)
    xf = x.astype(np.float64)
    if not np.all(np.isfinite(xf)) or not np.all(xf == np.rint(xf)):
        raise ValueError(f"moments: column {name!r} must hold whole numbers")
    return xf.astype(np.int64)


@dataclass(frozen=True)
class Moments:
    """n, Σx and Σxxᵀ of named per-unit columns (exact integers)."""

    names: tuple[str, ...]
    n: int
    s1: tuple[int, ...]
    s2: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, columns: dict[str, np.ndarray]) -> Moments:
        names = tuple(columns)
        x = np.stack([_whole_column(k, v) for k, v in columns.items()], axis=1) if names else np.zeros((0, 0))
        n = int(x.shape[0])
        if n == 0:
            return cls(names, 0, (0,) * len(names), ((0,) * len(names),) * len(names))
        top = int(np.abs(x).max())
        if top * top * n < _SAFE:
            s2 = (x.T @ x).tolist()
        else:  # huge values: exact object arithmetic (slow, and never met by game counts)
            xo = x.astype(object)
            s2 = (xo.T @ xo).tolist()
        return cls(names, n, tuple(int(v) for v in x.sum(axis=0).tolist()),
                   tuple(tuple(int(v) for v in row) for row in s2))

    def __add__(self, other: Moments | None) -> Moments:
        if other is None:
            return self
        if other.names != self.names:
            raise ValueError("moments of different columns cannot be added")
        return Moments(self.names, self.n + other.n, tuple(a + b for a, b in zip(self.s1, other.s1)),
                       tuple(tuple(a + b for a, b in zip(r, q)) for r, q in zip(self.s2, other.s2)))

    __radd__ = __add__

    # --- one column or a pair ------------------------------------------------------------------
    def _i(self, name: str) -> int:
        return self.names.index(name)

    def sum(self, c: str) -> int:
        return self.s1[self._i(c)]

    def cross(self, c: str, d: str) -> int:
        return self.s2[self._i(c)][self._i(d)]

    def mean_part(self, c: str) -> MeanPart:
        return MeanPart(self.n, self.sum(c), self.cross(c, c))

    def diff_part(self, c1: str, c2: str) -> MeanPart:
        """Moments of the per-unit difference x_c2 − x_c1."""
        return MeanPart(self.n, self.sum(c2) - self.sum(c1),
                        self.cross(c2, c2) - 2 * self.cross(c1, c2) + self.cross(c1, c1))

    def ratio_part(self, a: str, b: str) -> RatioPart:
        return RatioPart(self.n, self.sum(a), self.sum(b), self.cross(a, a), self.cross(b, b), self.cross(a, b))

    # --- estimates (the same intervals as simcards.stats / analysis.stats on the arrays) ----------
    def mean(self, c: str, z: float = Z95) -> Estimate:
        return self.mean_part(c).estimate(z)

    def ratio(self, a: str, b: str, z: float = Z95) -> Estimate:
        """Σa / Σb, delta method. Unbounded: moments cannot tell a share from a ratio of counts, so
        the caller cuts the interval (``stats.clamp``) where ``stats.ratio_ci`` would."""
        return self.ratio_part(a, b).estimate(z)

    def proportion(self, c: str, z: float = Z95) -> Estimate:
        """Σx_c successes in n units (x_c is 0/1): Wilson, never narrower than Clopper–Pearson
        (``stats.proportion_ci``)."""
        return proportion_ci(self.sum(c), self.n, z)

    def share(self, a: str, b: str, z: float = Z95) -> Estimate:
        """Σa / Σb for events a out of b opportunities per unit: the delta-method interval widened
        to the exact one of the pooled count and cut to [0, 1], as ``stats.ratio_ci`` does."""
        return widen_for_counts(self.ratio(a, b, z), self.sum(a), self.sum(b), 0.0, 1.0, z)

    def corr(self, c: str, d: str) -> float:
        """Sample correlation of two columns over the units (0 when either is constant)."""
        n = self.n
        if n < 2:
            return 0.0
        cov = Fraction(self.cross(c, d)) - Fraction(self.sum(c) * self.sum(d), n)
        vc = Fraction(self.cross(c, c)) - Fraction(self.sum(c) ** 2, n)
        vd = Fraction(self.cross(d, d)) - Fraction(self.sum(d) ** 2, n)
        return float(cov) / math.sqrt(float(vc) * float(vd)) if vc > 0 and vd > 0 else 0.0

    def bounded_diff(self, c1: str, c2: str, scale: int = 1, paired: bool = True, z: float = Z95) -> Estimate:
        """mean(x_c2) − mean(x_c1) for per-unit fractions x / scale in [0, 1] (0/1 outcomes with
        scale 1): MOVER (``analysis.stats.mover``) on the two boundary-safe means
        (``fraction_mean``), with their correlation over the units when paired (same deals). Far
        from 0 and 1 it is the paired normal interval; near them it is Newcombe-type and does not
        call a handful of lost games significant."""
        from simcards.stats.differences import mover

        if paired and self._same_difference(c1, c2):  # every unit differs alike: the difference is exact
            return _point(Fraction(self.sum(c2) - self.sum(c1), scale * self.n), self.n)
        r = self.corr(c1, c2) if paired else 0.0
        return mover(self.fraction_mean(c1, scale, z), self.fraction_mean(c2, scale, z), r)

    def _same_difference(self, c1: str, c2: str) -> bool:
        """x_c2 − x_c1 is the same on every unit (Σ(d − mean d)² = 0), e.g. a variant against a copy."""
        p = self.diff_part(c1, c2)
        return p.n > 1 and Fraction(p.s2) * p.n == Fraction(p.s1) ** 2

    def share_diff(self, a1: str, b1: str, a2: str, b2: str, paired: bool = True, z: float = Z95) -> Estimate:
        """Σa2/Σb2 − Σa1/Σb1 for two shares (``share``): MOVER on their intervals, with the
        correlation of the units' influence values when paired."""
        from simcards.stats.differences import mover

        if paired and self._same_difference(a1, a2) and self._same_difference(b1, b2) and \
                self.sum(a1) == self.sum(a2) and self.sum(b1) == self.sum(b2) and self.sum(b1):
            return _point(Fraction(0), self.n)  # the same counts on every unit
        r = self._influence_corr(a1, b1, a2, b2) if paired else 0.0
        return mover(self.share(a1, b1, z), self.share(a2, b2, z), r)

    def _influence_corr(self, a1: str, b1: str, a2: str, b2: str) -> float:
        """Correlation of the per-unit influence values a − r·b of two ratios (quadratic forms in
        the cross products)."""
        sb1, sb2 = self.sum(b1), self.sum(b2)
        if self.n < 2 or sb1 == 0 or sb2 == 0:
            return 0.0
        w1 = {a1: Fraction(1), b1: -Fraction(self.sum(a1), sb1)}
        w2 = {a2: Fraction(1), b2: -Fraction(self.sum(a2), sb2)}
        q = lambda u, v: sum(wc * wd * self.cross(c, d) for c, wc in u.items() for d, wd in v.items())  # noqa: E731
        v1, v2, cv = q(w1, w1), q(w2, w2), q(w1, w2)
        return float(cv) / math.sqrt(float(v1) * float(v2)) if v1 > 0 and v2 > 0 else 0.0

    def all_equal(self, c: str, value: int) -> bool:
        """Every unit has x_c == value (Σ(x − v)² = 0)."""
        return self.cross(c, c) - 2 * value * self.sum(c) + value * value * self.n == 0

    def paired_diff(self, c1: str, c2: str, z: float = Z95) -> Estimate:
        """mean(x_c2 − x_c1) over units played on the same random numbers."""
        if self.n < 2:
            return Estimate(math.nan, math.nan, math.nan, self.n)
        return self.diff_part(c1, c2).estimate(z)

    def welch_diff(self, c1: str, c2: str, z: float = Z95) -> Estimate:
        """mean(x_c2) − mean(x_c1) as independent samples (Welch's standard error)."""
        n = self.n
        if n < 2:
            return Estimate(math.nan, math.nan, math.nan, 2 * n)
        (m1, v1), (m2, v2) = (_mean_var(self.mean_part(c)) for c in (c1, c2))
        d = float(m2 - m1)
        se = math.sqrt(float(v1 / n + v2 / n))
        return Estimate(d, d - z * se, d + z * se, 2 * n)

    def paired_ratio_diff(self, a1: str, b1: str, a2: str, b2: str, z: float = Z95) -> Estimate:
        """Σa2/Σb2 − Σa1/Σb1 on the same units: delta method on the paired influence values
        u = (a2 − r2·b2)/mean(b2) − (a1 − r1·b1)/mean(b1), whose Σu² is a quadratic form in the
        cross products."""
        n = self.n
        sb1, sb2 = self.sum(b1), self.sum(b2)
        if n < 2 or sb1 == 0 or sb2 == 0:
            return Estimate(math.nan, math.nan, math.nan, n)
        r1, r2 = Fraction(self.sum(a1), sb1), Fraction(self.sum(a2), sb2)
        w = {a1: -Fraction(n, sb1), b1: r1 * Fraction(n, sb1), a2: Fraction(n, sb2), b2: -r2 * Fraction(n, sb2)}
        ss = sum(wc * wd * self.cross(c, d) for c, wc in w.items() for d, wd in w.items())
        se = math.sqrt(max(float(ss / (n * (n - 1))), 0.0))
        d = float(r2 - r1)
        return Estimate(d, d - z * se, d + z * se, n)

    def ratio_diff(self, a1: str, b1: str, a2: str, b2: str, z: float = Z95) -> Estimate:
        """Σa2/Σb2 − Σa1/Σb1 as independent runs (delta method, units as clusters)."""
        n = self.n
        sb1, sb2 = self.sum(b1), self.sum(b2)
        if n < 2 or sb1 == 0 or sb2 == 0:
            return Estimate(math.nan, math.nan, math.nan, 2 * n)
        var = Fraction(0)
        for a, b in ((a1, b1), (a2, b2)):
            r = Fraction(self.sum(a), self.sum(b))
            resid = self.cross(a, a) - 2 * r * self.cross(a, b) + r * r * self.cross(b, b)
            var += resid / Fraction(self.sum(b), n) ** 2 / (n * (n - 1))
        d = float(Fraction(self.sum(a2), sb2) - Fraction(self.sum(a1), sb1))
        se = math.sqrt(max(float(var), 0.0))
        return Estimate(d, d - z * se, d + z * se, 2 * n)

    def newcombe_diff(self, c1: str, c2: str, z: float = Z95) -> Estimate:
        """p2 − p1 for two independent proportions (Newcombe's hybrid score interval)."""
        from simcards.stats.differences import newcombe_diff

        return newcombe_diff(self.sum(c1), self.n, self.sum(c2), self.n, z)

    def fraction_mean(self, c: str, scale: int, z: float = Z95) -> Estimate:
        """Mean of per-unit fractions x_c / scale (in [0, 1]) with a 95% interval: normal over
        units, widened to the exact binomial interval of the total over units
        (``stats.bounded_mean``), so that it neither collapses when every unit gave 0 or 1 nor
        under-covers when only a few units did not."""
        n = self.n
        total = self.sum(c)
        if n == 0:
            return Estimate(math.nan, math.nan, math.nan, 0)
        est = MeanPart(n, Fraction(total, scale), Fraction(self.cross(c, c), scale * scale)).estimate(z)
        return bounded_mean(est, total / scale, n, z)


def _point(v: Fraction, n: int) -> Estimate:
    return Estimate(float(v), float(v), float(v), n)


def _mean_var(p: MeanPart) -> tuple[Fraction, Fraction]:
    n = p.n
    return Fraction(p.s1, n), (Fraction(p.s2) - Fraction(p.s1) ** 2 / n) / (n - 1)
