"""Issue 28, item 6: coverage with known truth of the games a sure match needs, rare events bunched in
few games, turns per round over few games and Newcombe's difference with a few events.

    python benchmarks/coverage_intervals.py [runs]

Each share is given with its Monte Carlo 95% error (Wilson over the runs); Newcombe's coverage is
exact (binomial probabilities summed). "before" recomputes the interval as it was before issue 28.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
from scipy.stats import binom

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout this file is in, not an installed copy

from simcards.stats.differences import newcombe_diff  # noqa: E402
from simcards.stats.equilibrium import games_to_be_sure  # noqa: E402
from simcards.stats.estimates import Estimate, clamp, exact_proportion, exact_rate, ratio_bounds, ratio_ci  # noqa: E402
from simcards.stats.moments import Moments  # noqa: E402

Z = 1.959963984540054


def share(hits: float, runs: int) -> str:
    p = hits / runs
    c = (p + Z * Z / (2 * runs)) / (1 + Z * Z / runs)
    h = Z * math.sqrt(p * (1 - p) / runs + Z * Z / (4 * runs * runs)) / (1 + Z * Z / runs)
    return f"{100 * p:.1f}% [{100 * (c - h):.1f}, {100 * (c + h):.1f}]"


def ratio_before(a: np.ndarray, b: np.ndarray) -> Estimate:
    """ratio_ci before issue 28: normal quantile, exact widening at the pooled count of events."""
    n = a.size
    r = a.sum() / b.sum()
    se = math.sqrt(float(((a - r * b) ** 2).sum()) / (n * (n - 1))) / float(b.mean())
    lo, hi = ratio_bounds(a, b)
    est = Estimate(r, r - Z * se, r + Z * se, n)
    if lo >= 0 and a.sum() >= 0:
        share_ = hi <= 1 and a.sum() <= b.sum()
        el, eh = exact_proportion(a.sum(), b.sum()) if share_ else exact_rate(a.sum(), b.sum())
        est = Estimate(r, min(est.low, el), max(est.high, eh), n)
    return clamp(est, lo, hi)


def games_needed(runs: int) -> None:
    print("games for a 95%-sure match, p = 0.52 (truth 1,691), 2 seatings a deal:")
    rng = np.random.default_rng(61)
    truth = games_to_be_sure(0.52)
    for deals in (1000, 2000, 5000):
        above = below = cover = 0
        ests = []
        for _ in range(runs):
            won = rng.binomial(2, 0.52, deals)
            p = Moments.of({"s": won}).fraction_mean("s", 2)
            g = games_to_be_sure(p.value) or math.inf
            lo, hi = (games_to_be_sure(p.high) or math.inf), (games_to_be_sure(p.low) or math.inf)
            ests.append(g)
            above += g > truth
            below += g < truth
            cover += lo <= truth <= hi
        ests = np.sort(np.array(ests))
        # the median's own 95% interval: order statistics runs/2 ± 1.96 √runs / 2
        k = int(1.96 * math.sqrt(runs) / 2)
        med = (ests[runs // 2 - k], ests[runs // 2 + k])
        finite = ests[np.isfinite(ests)]
        print(f"  {deals:,} deals: median estimate {np.median(ests):,.0f} [{med[0]:,.0f}, {med[1]:,.0f}]; above the "
              f"truth {share(above, runs)}, below {share(below, runs)}; mean of the finite ones {finite.mean():,.0f} "
              f"(∞ in {share(runs - finite.size, runs)}); interval covers {share(cover, runs)}")


def bunched(runs: int) -> None:
    print("rare events bunched in few games (2,000 games, ~8 rounds each; a game holds a burst with chance q):")
    rng = np.random.default_rng(62)
    for q, burst in ((0.002, 4.0), (0.005, 4.0), (0.002, 9.0), (0.01, 2.0), (0.001, 0.0)):
        now = before = 0
        truth = q * (1 + burst) / 8
        for _ in range(runs):
            b = rng.poisson(7, 2000) + 1
            a = np.where(rng.random(2000) < q, 1 + rng.poisson(burst, 2000), 0)
            e, o = ratio_ci(a, b), ratio_before(a, b)
            now += e.low <= truth <= e.high
            before += o.low <= truth <= o.high
        print(f"  q = {q}, 1 + Poisson({burst:g}) events a burst ({2000 * q:.0f} bursts expected): "
              f"{share(now, runs)}; before {share(before, runs)}")


def turns(runs: int) -> None:
    print("turns per round (rounds 1 + Poisson(5) a game, turns 2 + Poisson(pace), pace ~ Gamma(2, 3) a game; truth 8):")
    rng = np.random.default_rng(63)
    for games in (10, 20, 50, 200):
        now = before = 0
        for _ in range(runs):
            rounds = 1 + rng.poisson(5, games)
            pace = rng.gamma(2, 3, games)
            t = np.array([(2 + rng.poisson(m, r)).sum() for m, r in zip(pace, rounds)])
            e, o = ratio_ci(t, rounds), ratio_before(t, rounds)
            now += e.low <= 8 <= e.high
            before += o.low <= 8 <= o.high
        print(f"  {games} games: {share(now, runs)}; before {share(before, runs)}")


def newcombe() -> None:
    print("Newcombe's difference p2 − p1, exact coverage:")
    for lam1, lam2, n1, n2 in ((20, 1, 20, 2000), (5, 1, 20, 2000), (1, 1, 2000, 2000), (0.3, 0.3, 2000, 2000),
                               (1, 5, 2000, 2000), (10, 10, 2000, 2000), (600, 1, 2000, 2000)):
        p1, p2 = lam1 / n1, lam2 / n2
        cov = {True: 0.0, False: 0.0}
        for k1 in range(int(binom.ppf(1e-10, n1, p1)), int(binom.ppf(1 - 1e-10, n1, p1)) + 1):
            for k2 in range(int(binom.ppf(1 - 1e-10, n2, p2)) + 1):
                w = binom.pmf(k1, n1, p1) * binom.pmf(k2, n2, p2)
                for exact in (True, False):
                    e = newcombe_diff(k1, n1, k2, n2, exact=exact)
                    cov[exact] += w * (e.low - 1e-15 <= p2 - p1 <= e.high + 1e-15)
        print(f"  {lam1:g} of {n1:,} expected against {lam2:g} of {n2:,}: {100 * cov[True]:.1f}% "
              f"(plain Wilson, before: {100 * cov[False]:.1f}%)")


if __name__ == "__main__":
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    games_needed(runs)
    bunched(runs)
    turns(runs)
    newcombe()
