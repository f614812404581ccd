"""Strong Yaniv players against the baseline: win rates with seat rotation and common deals.

    python benchmarks/strong_yaniv.py informed --games 2000 --seed 100
    python benchmarks/strong_yaniv.py mc --players 2 --against threshold:call=0 --games 2000

One seat plays the strategy, the others ``--against`` (default: the default ``threshold``). Every
deal (seed, game index) is played once with the strategy in each seat (seat rotation, common
deals), so the fair share is 1 / players. Reports the win rate with a 95% Wilson interval over all
games played (the rotated games of one deal are not independent: the interval is a little narrow),
and games/s and decisions/s of the whole table on the threads given (the machine may be loaded).
"""

from __future__ import annotations

import argparse
import math
import time

import simcards


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float, float]:
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, c - h, c + h


def measure(strategy: str, against: str, players: int, games: int, seed: int, variant: str, threads: int):
    wins = 0
    played = 0
    turns = 0
    start = time.perf_counter()
    for seat in range(players):
        strats = [against] * players
        strats[seat] = strategy
        sim = simcards.simulate("yaniv", variant=variant, players=players, games=games, seed=seed,
                                strategies=strats, threads=threads, detail=False)
        w = sim.games["winner"].to_numpy()
        wins += int((w == seat).sum())
        played += len(w)
        turns += int(sim.games["turns"].sum())
    secs = time.perf_counter() - start
    return wins, played, turns, secs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("strategy")
    ap.add_argument("--against", default="threshold")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=1000, help="deals (each played once per seat)")
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--variant", default="israeli")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    measure(a.strategy, a.against, a.players, 2, a.seed + 10**6, a.variant, a.threads)  # compile / warm
    wins, played, turns, secs = measure(a.strategy, a.against, a.players, a.games, a.seed, a.variant, a.threads)
    p, lo, hi = wilson(wins, played)
    print(f"{a.strategy} vs {a.against} ({a.variant}, {a.players} players, seed {a.seed}): "
          f"{100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of {played} games "
          f"(fair {100 / a.players:.1f}%); {played / secs:.1f} games/s, {turns / secs:.0f} turns/s "
          f"on {a.threads} thread(s)")


if __name__ == "__main__":
    main()
