"""Yaniv throughput: rounds/s and games/s on 1 and 2 threads, compile time cold and warm.

    python benchmarks/bench_yaniv.py                 # 4-player Israeli, threshold strategy
    python benchmarks/bench_yaniv.py --games 50000 --variants israeli,nepali,fast --json out.json

Numbers are wall-clock on this machine; run it on an idle machine (another busy process on a
2-core box halves the 2-thread figure). Each measurement is repeated and the best and the spread
are reported.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numba

from simcards.games.yaniv import layout as L
from simcards.games.yaniv.game import GAME, YanivRun

COLD = """
import time; t = time.perf_counter()
from simcards.games.yaniv.game import GAME, YanivRun
rules = GAME.build_rules("israeli")
YanivRun(rules, 4, GAME.strategies(["threshold"], 4)).raw(0, 0, 10, 0)
print(time.perf_counter() - t)
"""


def startup_seconds(cache_dir: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", COLD], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def throughput(variant: str, players: int, strategy: str, games: int, threads: int, repeats: int):
    numba.set_num_threads(threads)
    rules = GAME.build_rules(variant)
    run = YanivRun(rules, players, GAME.strategies([strategy], players))
    run.raw(0, 0, 200, 0)  # warm
    times = []
    for rep in range(repeats):
        t = time.perf_counter()
        g, _ = run.raw(rep, 0, games, 0)
        times.append(time.perf_counter() - t)
        rounds = int(g[:, L.G_ROUNDS].sum())
        turns = int(g[:, L.G_TURNS].sum())
    best = min(times)
    return {
        "variant": variant, "players": players, "strategy": strategy, "threads": threads, "games": games,
        "games_per_s": games / best, "rounds_per_s": rounds / best, "turns_per_round": turns / rounds,
        "spread": (max(times) - best) / best, "capped_rounds": int(g[:, L.G_CAPPED_ROUNDS].sum()),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--strategy", default="threshold")
    ap.add_argument("--variants", default="israeli")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-compile", action="store_true", help="skip the cold/warm start-up measurement")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()

    results = {"machine": {"cpus": os.cpu_count(), "numba_threads": numba.config.NUMBA_NUM_THREADS}}
    if not args.no_compile:
        with tempfile.TemporaryDirectory() as cache:
            cold = startup_seconds(cache)
            warm = startup_seconds(cache)
        results["startup"] = {"cold_compile_s": cold, "warm_cache_s": warm}
        print(f"start-up to first games: cold (compile) {cold:.1f} s, warm cache {warm:.2f} s")
    rows = []
    print(f"{'variant':16} {'thr':>3} {'games/s':>10} {'rounds/s':>11} {'turns/round':>11} {'spread':>7} {'capped':>6}")
    for variant in args.variants.split(","):
        for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
            r = throughput(variant, args.players, args.strategy, args.games, threads, args.repeats)
            rows.append(r)
            print(f"{variant:16} {threads:>3} {r['games_per_s']:>10,.0f} {r['rounds_per_s']:>11,.0f} "
                  f"{r['turns_per_round']:>11.1f} {100 * r['spread']:>6.1f}% {r['capped_rounds']:>6}")
    results["throughput"] = rows
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2)


if __name__ == "__main__":
    main()
