"""Issue 28, item 4: an equilibrium near a tie, with known truth (no engine).

Two strategies at two sides: A against A and B against B win exactly half (seat rotation); B wins
50% − 0.2 points of its games against A (2 seatings a deal, 1,000 deals a profile). The true
equilibrium is pure A; B's true regret against it is −0.2 points. Per run: the estimated support,
and B's regret interval from bootstrap resamples of the deal blocks, (new) each solved for its own
equilibrium and (old) at the one estimated mixture. Also: the bootstrap's run time per resample for
payoff tables of the shipped reports' sizes.

    python benchmarks/coverage_equilibrium.py [runs] [resamples]
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout this file is in, not an installed copy

from simcards.stats.equilibrium import SymmetricGame, alpha_rank, symmetric_nash, symmetric_profiles  # noqa: E402
from simcards.studies.equilibrium import BLOCKS, PayoffSums, _game, bootstrap_equilibria  # noqa: E402


def near_tie(rng, deals: int = 1000, edge: float = 0.002):
    profiles = symmetric_profiles(2, 2)
    sums = PayoffSums.empty(len(profiles), 2)
    half = np.full(deals, 0.5)
    sums.add(0, 0, np.vstack([half, np.zeros(deals)]))
    b = rng.binomial(2, 0.5 - edge, deals) / 2
    sums.add(1, 0, np.vstack([1 - b, b]))
    sums.add(2, 0, np.vstack([np.zeros(deals), half]))
    return profiles, sums


def share(hits: int, runs: int) -> str:
    """A share with its Monte Carlo error (Wilson 95%)."""
    p = hits / runs
    z = 1.96
    c = (p + z * z / (2 * runs)) / (1 + z * z / runs)
    h = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / (1 + z * z / runs)
    return f"{100 * p:.1f}% [{100 * (c - h):.1f}, {100 * (c + h):.1f}]"


def main(runs: int = 200, reps: int = 200) -> None:
    rng = np.random.default_rng(2028)
    truth = -0.002
    wrong = own = fixed = 0
    support_share = []
    for r in range(runs):
        profiles, sums = near_tie(rng)
        eq = symmetric_nash(_game(2, profiles, sums.means()))
        wrong += eq.mixture[1] > 1e-3
        mix_b, reg_b = bootstrap_equilibria(2, profiles, sums, reps, seed=r)
        lo, hi = np.quantile(reg_b[:, 1], [0.025, 0.975])
        own += min(lo, eq.regrets[1]) <= truth <= max(hi, eq.regrets[1])
        support_share.append(float(np.mean(mix_b[:, 1] > 1e-3)))
        rb = np.random.default_rng(r)
        at = [_game(2, profiles, sums.means(rb.multinomial(BLOCKS, np.full(BLOCKS, 1 / BLOCKS)).astype(float)))
              .regrets(eq.mixture)[1] for _ in range(reps)]
        lo, hi = np.quantile(at, [0.025, 0.975])
        fixed += lo <= truth <= hi
    print(f"near tie (B loses 0.2 points to A; 1,000 deals a profile; {runs} runs, {reps} resamples each):")
    print(f"  estimated support wrong (B played): {share(wrong, runs)}")
    print(f"  B's regret interval covers −0.2 points: own equilibrium per resample {share(own, runs)}; "
          f"at the estimated mixture (before) {share(fixed, runs)}")
    print(f"  share of resamples whose equilibrium plays B: median {np.median(support_share):.0%}, "
          f"quartiles {np.quantile(support_share, 0.25):.0%}–{np.quantile(support_share, 0.75):.0%}")
    print("bootstrap time per resample (symmetric_nash with 8 starts, synthetic win-share tables):")
    g = np.random.default_rng(1)
    for k, n in [(5, 2), (8, 2), (5, 3), (5, 4), (5, 5), (6, 5)]:
        skill = g.normal(0, 0.05, k)

        def pay(c, i, skill=skill, n=n):
            return 1 / n + skill[i] - float(c @ skill) / n

        game = SymmetricGame.from_function(k, n, pay)
        t0 = time.perf_counter()
        for _ in range(10):
            symmetric_nash(game, starts=8)
        each = (time.perf_counter() - t0) / 10
        print(f"  {k} strategies at {n} sides ({len(game.profiles)} profiles): {1000 * each:.1f} ms, "
              f"400 resamples {400 * each:.1f} s")


def alpha_rank_sensitivity() -> None:
    """Why the studies dropped α-rank (issue 28, item 5): on one three-player table its masses move
    with its two free settings, while the equilibrium is one answer."""
    def pay(c, i):
        strength = {0: 1.0, 1: 1.0 + 0.6 * c[0] - 0.5 * c[2], 2: 0.95 + 0.3 * c[1]}
        return strength[i] / sum(c[j] * strength[j] for j in range(3))

    game = SymmetricGame.from_function(3, 3, pay)
    eq = symmetric_nash(game)
    print("α-rank on a three-player table whose symmetric equilibrium is "
          + " / ".join(f"{w:.0%}" for w in eq.mixture) + ":")
    for alpha, m in ((1, 200), (1, 50), (10, 50), (50, 50), (200, 50), (50, 10)):
        print(f"  intensity {alpha}, population {m}: " + " / ".join(f"{w:.0%}" for w in alpha_rank(game, alpha, m)))


if __name__ == "__main__":
    alpha_rank_sensitivity()
    main(*(int(a) for a in sys.argv[1:3]))
