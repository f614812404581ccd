"""Issue 28, item 3: Bradley–Terry rating intervals beside a (nearly) hopeless player, with known truth.

Synthetic round robins: four close players (0, 15, 30, 45 Elo) and one far weaker (−900 to −4,000
Elo: from about 40 wins in all down to none), 2,000 games a pair. Coverage of each rating's 95%
interval (the truth centred as the fit centres), now and with the centring before issue 28 (the
plain mean over every player that won and lost a game, Wald intervals).

    python benchmarks/coverage_ratings.py [runs]
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout this file is in, not an installed copy

from simcards.stats.differences import ELO, bradley_terry  # noqa: E402

CLOSE = [0.0, 15.0, 30.0, 45.0]


def tournament(rng, true: np.ndarray, games: int) -> np.ndarray:
    p = 1 / (1 + 10 ** ((true[None, :] - true[:, None]) / 400))
    k = len(true)
    w = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            w[i, j] = rng.binomial(games, p[i, j])
            w[j, i] = games - w[i, j]
    return w


def old_intervals(w: np.ndarray, r) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fit before issue 28: the same strengths, centred on the plain mean of the players that
    won and lost a game, Wald intervals from the Fisher information."""
    k = len(w)
    mixed = (w.sum(axis=1) > 0) & (w.sum(axis=0) > 0)
    anchor = mixed if mixed.sum() >= 2 else np.ones(k, bool)
    theta = r.rating / ELO
    theta = theta - theta[anchor].mean()
    met = ((w + w.T) > 0) & ~np.eye(k, dtype=bool)
    n = w + 0.5 * met + (w + 0.5 * met).T
    np.fill_diagonal(n, 0)
    prob = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    v = n * prob * (1 - prob)
    info = np.diag(v.sum(axis=1)) - v
    centre = np.eye(k) - np.outer(np.ones(k), anchor / anchor.sum())
    se = np.sqrt(np.maximum(np.diag(centre @ np.linalg.pinv(info) @ centre.T), 0))
    return theta * ELO, (theta - 1.96 * se) * ELO, anchor / anchor.sum()


def share(hits: float, runs: int) -> str:
    p = hits / runs
    z = 1.96
    c = (p + z * z / (2 * runs)) / (1 + z * z / runs)
    h = z * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / (1 + z * z / runs)
    return f"{100 * p:.1f}% [{100 * (c - h):.1f}, {100 * (c + h):.1f}]"


def main(runs: int = 1000) -> None:
    rng = np.random.default_rng(3028)
    print(f"{runs} synthetic round robins per row, 2,000 games a pair; coverage with Monte Carlo 95% error")
    for weak in (-900.0, -1100.0, -1300.0, -4000.0):
        true = np.array(CLOSE + [weak])
        cov_close = cov_weak = old_close = old_weak = 0
        half = old_half = wins = 0.0
        for _ in range(runs):
            w = tournament(rng, true, 2000)
            r = bradley_terry(w)
            centred = true - r.weights @ true
            ok = (r.low <= centred) & (centred <= r.high)
            cov_close += ok[:4].sum()
            cov_weak += ok[4]
            half += ((r.high - r.low) / 2)[:4].mean()
            wins += w[4].sum()
            rating, low, weights = old_intervals(w, r)
            centred = true - weights @ true
            high = 2 * rating - low
            ok = (low <= centred) & (centred <= high)
            old_close += ok[:4].sum()
            old_weak += ok[4]
            old_half += (rating - low)[:4].mean()
        print(f"weak player at {weak:.0f} Elo (mean {wins / runs:.1f} wins in 8,000 games):")
        print(f"  close players: coverage {share(cov_close, 4 * runs)}, mean half-width ±{half / runs:.1f} Elo; "
              f"before: {share(old_close, 4 * runs)}, ±{old_half / runs:.1f}")
        print(f"  weak player:   coverage {share(cov_weak, runs)}; before: {share(old_weak, runs)}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
