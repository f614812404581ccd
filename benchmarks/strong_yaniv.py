"""Strong Yaniv players against the baseline: the issue-17 targets, with seat rotation and common deals.

    python benchmarks/strong_yaniv.py --games 1500 --seed 20261202          # every target below
    python benchmarks/strong_yaniv.py informed --games 2000 --seed 100      # one strategy, 4 players
    python benchmarks/strong_yaniv.py mc --players 2 --games 2000            # against BEST_2P

The targets (Israeli preset): 4 players, one seat against three default ``threshold`` players
(informed >= 31%, mc >= 33%, fair share 25%); 2 players, head to head against the best tuned
``threshold`` (``BEST_2P``: call=1 beats every other call value head to head, and keep=1 beats
keep=0.5 with call=1; docs/yaniv.md gives the sweeps), where each must win significantly more
than 50%. Issue 29's, for the strongest preset (``simcards.panel.STRONGEST``: ``deep``, mc searching
its discards too): one seat against three ``informed`` >= 30%, head to head against ``informed``
>= 60% (``benchmarks/strength.py --game yaniv`` plays it against the whole panel).

One seat plays the strategy, the others ``--against``. Every deal (seed, game index) is played
once with the strategy in each seat (seat rotation, common deals). The win rate's 95% interval
is over deals (each deal's share of wins over the seat rotation is one observation: the rotated
games of a deal are not independent). Speed: games/s and turns/s of the whole table on 1 and 2
threads, timed on ``--speed-games`` deals (CPU time of the process and wall time; the machine
may be shared, say so when quoting).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout this file is in, not an installed copy

import simcards  # noqa: E402

BEST_2P = "threshold:call=1,keep=1"
TARGETS = [("informed", 4, "threshold", 31.0), ("mc", 4, "threshold", 33.0),
           ("informed", 2, BEST_2P, 50.0), ("mc", 2, BEST_2P, 50.0),
           ("deep", 4, "informed", 30.0), ("deep", 2, "informed", 60.0)]  # issue 29


def play(strategy: str, against: str, players: int, games: int, seed: int, variant: str,
         threads: int) -> tuple[np.ndarray, int]:
    """(wins per deal over the seat rotation, turns played)."""
    wins = np.zeros(games, dtype=np.int64)
    turns = 0
    for seat in range(players):
        strats = [against] * players
        strats[seat] = strategy
        sim = simcards.simulate("yaniv", variant=variant, players=players, games=games, seed=seed,
                                strategies=strats, threads=threads, detail=False)
        wins += sim.games["winner"].to_numpy() == seat
        turns += int(sim.games["turns"].sum())
    return wins, turns


def rate(wins: np.ndarray, players: int) -> tuple[float, float, float]:
    """Win rate with a 95% normal interval over deals (a deal's share over its rotation)."""
    share = wins / players
    p = float(share.mean())
    h = 1.959964 * float(share.std(ddof=1)) / math.sqrt(len(share))
    return p, p - h, p + h


def speed(strategy: str, against: str, players: int, games: int, seed: int, variant: str,
          threads: int) -> tuple[float, float, float]:
    """(games/s wall, games per CPU-second, turns/s wall) on ``threads`` threads."""
    wall, cpu = time.perf_counter(), time.process_time()
    _, turns = play(strategy, against, players, games, seed, variant, threads)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    n = games * players
    return n / wall, n / cpu, turns / wall


def report(strategy: str, against: str, players: int, a: argparse.Namespace, target: float | None) -> None:
    for t in a.threads:  # compile and warm every engine the run uses
        play(strategy, against, players, 1, a.seed + 10**6, a.variant, t)
    wins, _ = play(strategy, against, players, a.games, a.seed, a.variant, max(a.threads))
    p, lo, hi = rate(wins, players)
    line = (f"{strategy} vs {against} ({a.variant}, {players} players, seed {a.seed}): "
            f"{100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of {a.games * players} games "
            f"({a.games} deals x {players} seats; fair {100 / players:.1f}%)")
    if target is not None:
        met = lo > target / 100 if target == 50.0 else p >= target / 100
        line += f"; target {'> 50% significantly' if target == 50.0 else f'>= {target:g}%'}: {'met' if met else 'NOT met'}"
    print(line, flush=True)
    for t in a.threads:
        g, gc, tu = speed(strategy, against, players, a.speed_games, a.seed + 2 * 10**6, a.variant, t)
        print(f"    {t} thread(s): {g:.1f} games/s wall ({gc:.1f} per CPU-second), {tu:.0f} turns/s wall",
              flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("strategy", nargs="?", help="one strategy (default: every issue-17 and issue-29 target)")
    ap.add_argument("--against", default=None, help=f"default: threshold (4 players), {BEST_2P} (2)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=1000, help="deals (each played once per seat)")
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--variant", default="israeli")
    ap.add_argument("--threads", default="1,2", help="thread counts to time, e.g. 1,2")
    ap.add_argument("--speed-games", type=int, default=100, help="deals timed per thread count")
    a = ap.parse_args()
    a.threads = [int(x) for x in a.threads.split(",")]
    if a.strategy is None:
        for strategy, players, against, target in TARGETS:
            report(strategy, a.against or against, players, a, target)
        return
    against = a.against or ("threshold" if a.players != 2 else BEST_2P)
    report(a.strategy, against, a.players, a, None)


if __name__ == "__main__":
    main()
