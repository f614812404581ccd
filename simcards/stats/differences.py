"""Statistics for comparisons: differences with 95% intervals (paired on common random numbers
or independent), z values for several looks or many comparisons, and Bradley–Terry ratings.

Everything returns :class:`simcards.stats.Estimate` (value, low, high, n) or plain numbers; a
difference is *significant* when its interval excludes 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simcards.stats.estimates import Z95, Estimate, proportion_ci, wilson


def z_for(alpha: float = 0.05, tests: int = 1) -> float:
    """Two-sided normal quantile for level ``alpha`` split (Bonferroni) over ``tests`` tests."""
    if not 0 < alpha < 1 or tests < 1:
        raise ValueError("alpha must be in (0, 1) and tests >= 1")
    return _norm_ppf(1 - alpha / (2 * tests))


def _norm_ppf(p: float) -> float:
    """Inverse standard normal CDF (Acklam's rational approximation, refined by one Newton step)."""
    if not 0 < p < 1:
        raise ValueError("p must be in (0, 1)")
    a = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02, 1.383577518672690e02,
         -3.066479806614716e01, 2.506628277459239e00)
    b = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02, 6.680131188771972e01,
         -1.328068155288572e01)
    c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00, -2.549732539343734e00,
         4.374664141464968e00, 2.938163982698783e00)
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00)
    lo = 0.02425
    if p < lo:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    elif p > 1 - lo:
        q = math.sqrt(-2 * math.log(1 - p))
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    else:
        q = p - 0.5
        r = q * q
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / \
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    return x - e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)


def p_two_sided(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def significant(est: Estimate) -> bool:
    """The interval excludes 0 (for a difference)."""
    return bool(est.low > 0 or est.high < 0)


# ----- differences ---------------------------------------------------------------------------
def newcombe_diff(x1: float, n1: int, x2: float, n2: int, z: float = Z95, exact: bool = True) -> Estimate:
    """p2 − p1 for two independent proportions, Newcombe's hybrid score construction (method 10)
    built from the project's single-rate intervals (``proportion_ci``: Wilson widened to contain
    Clopper–Pearson), so that it keeps its coverage with a few events, where the plain Wilson
    version covered 92.0% for one expected event in 2,000 against 20 of 20 (issue 28). ``exact=False``:
    Newcombe's original, on the two Wilson intervals."""
    if n1 <= 0 or n2 <= 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    single = proportion_ci if exact else wilson
    a, b = single(x1, n1, z), single(x2, n2, z)
    d = b.value - a.value
    low = d - math.sqrt((b.value - b.low) ** 2 + (a.high - a.value) ** 2)
    high = d + math.sqrt((b.high - b.value) ** 2 + (a.value - a.low) ** 2)
    return Estimate(d, max(-1.0, low), min(1.0, high), n1 + n2)


def welch_diff(x1, x2, z: float = Z95) -> Estimate:
    """mean(x2) − mean(x1) for independent samples (normal interval with Welch's standard error)."""
    a = np.asarray(x1, dtype=np.float64)
    b = np.asarray(x2, dtype=np.float64)
    if a.size < 2 or b.size < 2:
        return Estimate(math.nan, math.nan, math.nan, a.size + b.size)
    d = float(b.mean() - a.mean())
    se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    return Estimate(d, d - z * se, d + z * se, a.size + b.size)


def paired_diff(x1, x2, z: float = Z95) -> Estimate:
    """mean(x2 − x1) over units played on the same random numbers (same game indices)."""
    a = np.asarray(x1, dtype=np.float64)
    b = np.asarray(x2, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError("paired samples must have the same length")
    dd = b - a
    n = dd.size
    if n < 2:
        return Estimate(math.nan, math.nan, math.nan, n)
    d = float(dd.mean())
    se = float(dd.std(ddof=1)) / math.sqrt(n)
    return Estimate(d, d - z * se, d + z * se, n)


def _ratio_influence(a: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray]:
    r = a.sum() / b.sum()
    return float(r), (a - r * b) / b.mean()


def paired_ratio_diff(a1, b1, a2, b2, z: float = Z95) -> Estimate:
    """Σa2/Σb2 − Σa1/Σb1 where unit i of both runs used the same random numbers (e.g. turns per
    round of two variants on the same game indices): delta method on paired influence values."""
    a1, b1, a2, b2 = (np.asarray(v, dtype=np.float64) for v in (a1, b1, a2, b2))
    n = a1.size
    if n < 2 or b1.sum() == 0 or b2.sum() == 0:
        return Estimate(math.nan, math.nan, math.nan, n)
    r1, u1 = _ratio_influence(a1, b1)
    r2, u2 = _ratio_influence(a2, b2)
    dd = u2 - u1
    se = math.sqrt(float((dd ** 2).sum()) / (n * (n - 1)))
    d = r2 - r1
    return Estimate(d, d - z * se, d + z * se, n)


def ratio_diff(a1, b1, a2, b2, z: float = Z95) -> Estimate:
    """Σa2/Σb2 − Σa1/Σb1 for independent runs (delta method, games as units)."""
    a1, b1, a2, b2 = (np.asarray(v, dtype=np.float64) for v in (a1, b1, a2, b2))
    n1, n2 = a1.size, a2.size
    if n1 < 2 or n2 < 2 or b1.sum() == 0 or b2.sum() == 0:
        return Estimate(math.nan, math.nan, math.nan, n1 + n2)
    r1, u1 = _ratio_influence(a1, b1)
    r2, u2 = _ratio_influence(a2, b2)
    se = math.sqrt(float((u1 ** 2).sum()) / (n1 * (n1 - 1)) + float((u2 ** 2).sum()) / (n2 * (n2 - 1)))
    d = r2 - r1
    return Estimate(d, d - z * se, d + z * se, n1 + n2)


def mover(first: Estimate, second: Estimate, r: float = 0.0) -> Estimate:
    """second − first from the two estimates' own intervals (Zou & Donner's MOVER, the method
    behind Newcombe's interval for two proportions), with ``r`` the correlation of the two
    estimates (paired units on common random numbers; 0 when independent). With normal intervals
    it is the usual (paired) normal interval; with exact or score intervals near 0 or 1 it keeps
    their coverage where the normal difference calls 4 lost games against 0 significant."""
    d = second.value - first.value
    r = 0.0 if not math.isfinite(r) else max(-1.0, min(1.0, r))
    dl2, du2 = second.value - second.low, second.high - second.value
    dl1, du1 = first.value - first.low, first.high - first.value
    low = d - math.sqrt(max(dl2 * dl2 + du1 * du1 - 2 * r * dl2 * du1, 0.0))
    high = d + math.sqrt(max(du2 * du2 + dl1 * dl1 - 2 * r * du2 * dl1, 0.0))
    return Estimate(d, low, high, max(first.n, second.n))


def p_value(interval, z_max: float = 12.0, steps: int = 30) -> float:
    """Two-sided p-value of "the difference is 0", inverted from a family of intervals:
    ``interval(z)`` is the estimate with its interval at normal quantile z (wider for larger z);
    p = 2(1 − Φ(z*)) for the largest z* whose interval still excludes 0."""
    if not significant(interval(1e-9)):
        return 1.0
    if significant(interval(z_max)):
        return p_two_sided(z_max)
    lo, hi = 1e-9, z_max
    for _ in range(steps):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if significant(interval(mid)) else (lo, mid)
    return p_two_sided(lo)


def holm(pvalues, alpha: float = 0.05) -> list[bool]:
    """Holm's step-down control of the family-wise error rate: which of these tests are
    significant so that the chance of any false "significant" stays at most ``alpha``."""
    p = [1.0 if (v is None or not math.isfinite(v)) else float(v) for v in pvalues]
    m = len(p)
    out = [False] * m
    for rank, i in enumerate(sorted(range(m), key=lambda i: p[i])):
        if p[i] > alpha / (m - rank):
            break
        out[i] = True
    return out


HOLM = "Holm's step-down control of the family-wise error rate at 5%"


def shifted(est: Estimate, by: float) -> Estimate:
    """``est − by`` (e.g. a win rate minus the fair share)."""
    return Estimate(est.value - by, est.low - by, est.high - by, est.n)


# ----- ratings -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ratings:
    """Bradley–Terry strengths on the Elo scale: P(i beats j) = 1/(1 + 10^((r_j − r_i)/400)).

    The scale is centred on an information-weighted mean (``weights``, adding up to 1: each
    strategy's Fisher information, about the games it won times the share it lost), so that a
    strategy that (almost) never wins or never loses weighs (almost) nothing in the centre;
    ``anchor`` names the strategies that weigh at least 1% of it. ``low``/``high``: the 95%
    intervals (``rating ± 1.96 se`` widened to contain the exact interval of the strategy's own
    wins, see ``bradley_terry``)."""

    names: tuple[str, ...]
    rating: np.ndarray
    se: np.ndarray
    iterations: int
    anchor: tuple[str, ...] = ()  # the strategies that weigh at least 1% of the centre
    weights: np.ndarray | None = None  # the centre's weights: Σ weights · rating = 0
    low: np.ndarray | None = None  # 95% interval (None: rating ± 1.96 se)
    high: np.ndarray | None = None

    def estimates(self, z: float = Z95) -> list[Estimate]:
        if z == Z95 and self.low is not None and self.high is not None:
            return [Estimate(float(r), float(lo), float(hi), 0) for r, lo, hi in zip(self.rating, self.low, self.high)]
        return [Estimate(float(r), float(r - z * s), float(r + z * s), 0) for r, s in zip(self.rating, self.se)]


ELO = 400 / math.log(10)


def bradley_terry(wins: np.ndarray, names: list[str] | None = None, tol: float = 1e-10,
                  max_iter: int = 10_000, prior: float = 0.5, z: float = Z95) -> Ratings:
    """Fit Bradley–Terry strengths to ``wins[i, j]`` = games i won against j (Hunter's MM
    algorithm). ``prior`` adds that many virtual wins each way to every pair that met, so a
    strategy that won every game (or none) still gets a finite rating. Standard errors come from
    the Fisher information.

    The centre: mean 0 weighted by each strategy's Fisher information (Σ_j n_ij p_ij (1 − p_ij),
    about the games it won when it rarely wins). A strategy that (almost) never wins has a rating
    the data bound on one side only, or barely on the other; an unweighted mean over it would add
    its huge uncertainty, and the small-count bias of its estimate, to every other rating (issue
    16: a hopeless ``random`` blurred every interval from ±2 to ±48 Elo; issue 28: with 9 wins it
    counted again, ±32 Elo and 71–80% coverage). Weighted, its share of the centre is its share of
    the information, a few wins against thousands of games, and the weights change smoothly (no
    cliff between 0 and 1 win); one that never won (or never lost) weighs nothing, its
    information being the prior's.

    Intervals: the Wald interval ``rating ± z se`` (from the covariance of rating − centre); for a
    strategy with fewer than ``RARE`` wins or losses, or weighing under 1% of the centre (a few
    dozen wins in thousands of games), widened to contain the exact one of its own record: the ratings at which its expected wins
    against the others (at their fitted ratings) equal the Clopper–Pearson bounds of its actual
    wins (without the prior) out of its decided games. A strategy that never won has no lower
    bound (−∞); one with a few wins gets the skewed interval its count allows, where the Wald
    interval on the log-odds under-covers."""
    from scipy.optimize import brentq

    from simcards.stats.estimates import RARE, exact_proportion

    raw = np.asarray(wins, dtype=np.float64)
    k = raw.shape[0]
    if raw.shape != (k, k) or k < 2:
        raise ValueError("wins must be a square matrix of at least 2 strategies")
    met = (raw + raw.T) > 0
    np.fill_diagonal(met, False)
    w = raw + prior * met
    np.fill_diagonal(w, 0.0)
    n = w + w.T
    total = w.sum(axis=1)
    p = np.ones(k)
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 (the count is read after the loop)
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1), p)
        new = new / math.exp(np.log(np.maximum(new, 1e-300)).mean())
        if np.max(np.abs(np.log(np.maximum(new, 1e-300)) - np.log(p))) < tol:
            p = new
            break
        p = new
    theta = np.log(np.maximum(p, 1e-300))
    prob = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    info = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            v = n[i, j] * prob[i, j] * (1 - prob[i, j])
            info[i, i] += v
            info[j, j] += v
            info[i, j] -= v
            info[j, i] -= v
    diag = np.diag(info).copy()
    one_sided = (raw.sum(axis=1) - np.diag(raw) <= 0) | (raw.sum(axis=0) - np.diag(raw) <= 0)
    if not one_sided.all():  # never won or never lost: all its information is the prior's, none in the centre
        diag[one_sided] = 0.0
    weights = diag / diag.sum() if diag.sum() > 0 else np.full(k, 1.0 / k)
    theta -= weights @ theta
    centre = np.eye(k) - np.outer(np.ones(k), weights)  # row i: e_i − the weighted centre
    cov = centre @ np.linalg.pinv(info) @ centre.T
    se = np.sqrt(np.maximum(np.diag(cov), 0))
    low, high = theta - z * se, theta + z * se
    raw_n = raw + raw.T
    for i in range(k):
        games = float(raw_n[i].sum() - raw_n[i, i])
        if games <= 0:
            continue
        won = float(raw[i].sum() - raw[i, i])
        if min(won, games - won) >= RARE and weights[i] >= 0.01:  # the Wald interval is trusted
            continue
        others = [j for j in range(k) if j != i and raw_n[i, j] > 0]

        def expected(t: float, i: int = i, others: list[int] = others, games: float = games) -> float:
            return sum(raw_n[i, j] / (1 + math.exp(min(theta[j] - t, 700.0))) for j in others) / games

        plo, phi = exact_proportion(won, games, z)
        span = 60.0 + float(np.abs(theta).max())
        bounds = []
        for target, inf in ((plo, -math.inf), (phi, math.inf)):
            if target <= 0.0 or target >= 1.0:
                bounds.append(inf)
                continue
            bounds.append(brentq(lambda t, target=target: expected(t) - target, -span, span, xtol=1e-9))
        low[i] = min(low[i], bounds[0], theta[i])
        high[i] = max(high[i], bounds[1], theta[i])
    labels = tuple(names) if names is not None else tuple(str(i) for i in range(k))
    anchor = tuple(x for x, a in zip(labels, weights) if a >= 0.01)
    return Ratings(labels, theta * ELO, se * ELO, it, anchor, weights, low * ELO, high * ELO)
