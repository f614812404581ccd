"""Yaniv throughput: rounds/s and games/s on 1 and 2 threads, compile time cold and warm.

    python benchmarks/bench_yaniv.py                 # every preset, 4 players, threshold strategy
    python benchmarks/bench_yaniv.py --variants israeli --games 100000 --json out.json

Two clocks: wall-clock rounds/s (what a user sees; on a shared 2-core box another busy process
halves the 2-thread figure) and rounds per CPU-second (``time.process_time``: with 1 thread it is
the per-thread speed even when the machine is loaded; ns per turn is CPU time per discard). Each
measurement is repeated; the best and the spread are reported.

Start-up is measured in fresh subprocesses: "cold" with an empty numba cache (a new
NUMBA_CACHE_DIR, so everything is compiled), "warm" again with the cache the cold run filled.
Both include importing simcards; the cold run also reports its CPU time and how many jitted
function signatures it compiled.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmark the checkout this file is in, not an installed copy

import numba

from simcards.games.yaniv import layout as L
from simcards.games.yaniv.game import GAME, YanivRun

COLD = """
import time
t, c = time.perf_counter(), time.process_time()
from simcards.games.yaniv.game import GAME, YanivRun
rules = GAME.build_rules("israeli")
YanivRun(rules, 4, GAME.strategies(["threshold"], 4)).raw(0, 0, 10, 0)
wall, cpu = time.perf_counter() - t, time.process_time() - c
import numba, sys
compiled = sum(len(d.overloads) for m in list(sys.modules.values()) if (m.__name__ or "").startswith("simcards")
               for d in vars(m).values() if isinstance(d, numba.core.registry.CPUDispatcher) and d.__module__ == m.__name__)
print(wall, cpu, compiled)
"""


def startup(cache_dir: str) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, jitted signatures) to the first games in a new process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", COLD], env=env, capture_output=True, text=True, check=True)
    wall, cpu, compiled = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu), int(compiled)


def throughput(variant: str, players: int, strategy: str, games: int, threads: int, repeats: int):
    numba.set_num_threads(threads)
    rules = GAME.build_rules(variant)
    run = YanivRun(rules, players, GAME.strategies([strategy], players))
    run.raw(0, 0, 200, 0)  # warm
    times = []
    cpu = []
    for _rep in range(repeats):
        t = time.perf_counter()
        c = time.process_time()
        g, _ = run.raw(0, 0, games, 0)  # the same games every repeat
        cpu.append(time.process_time() - c)
        times.append(time.perf_counter() - t)
        rounds = int(g[:, L.G_ROUNDS].sum())
        turns = int(g[:, L.G_TURNS].sum())
    best = min(times)
    return {
        "variant": variant, "players": players, "strategy": strategy, "threads": threads, "games": games,
        "games_per_s": games / best, "rounds_per_s": rounds / best, "rounds_per_cpu_s": rounds / min(cpu),
        "ns_per_turn_cpu": 1e9 * min(cpu) / turns, "turns_per_round": turns / rounds,
        "spread": (max(times) - best) / best, "capped_rounds": int(g[:, L.G_CAPPED_ROUNDS].sum()),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--strategy", default="threshold")
    ap.add_argument("--variants", default="israeli,israeli-anyset,nepali,nepali-jokers,kluft,adrian,fast")
    ap.add_argument("--threads", default="1,2", help="thread counts to measure, e.g. 1 or 1,2")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-compile", action="store_true", help="skip the cold/warm start-up measurement")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()

    results = {"machine": {"cpus": os.cpu_count(), "numba_threads": numba.config.NUMBA_NUM_THREADS}}
    if not args.no_compile:
        with tempfile.TemporaryDirectory() as cache:  # an empty numba cache: everything is compiled
            cold, cold_cpu, compiled = startup(cache)
            warm, warm_cpu, _ = startup(cache)
        results["startup"] = {"cold_compile_s": cold, "cold_compile_cpu_s": cold_cpu, "compiled_signatures": compiled,
                              "warm_cache_s": warm, "warm_cache_cpu_s": warm_cpu}
        print(f"start-up to first games: cold (compile, empty cache) {cold:.1f} s ({cold_cpu:.1f} s CPU, "
              f"{compiled} jitted signatures), warm cache {warm:.2f} s")
    rows = []
    print(f"{'variant':16} {'thr':>3} {'games/s':>10} {'rounds/s':>11} {'rounds/cpu-s':>13} {'ns/turn cpu':>11} "
          f"{'turns/round':>11} {'spread':>7} {'capped':>6}")
    thread_counts = sorted({min(int(t), numba.config.NUMBA_NUM_THREADS) for t in args.threads.split(",")})
    for variant in args.variants.split(","):
        for threads in thread_counts:
            r = throughput(variant, args.players, args.strategy, args.games, threads, args.repeats)
            rows.append(r)
            print(f"{variant:16} {threads:>3} {r['games_per_s']:>10,.0f} {r['rounds_per_s']:>11,.0f} "
                  f"{r['rounds_per_cpu_s']:>13,.0f} {r['ns_per_turn_cpu']:>11,.0f} "
                  f"{r['turns_per_round']:>11.1f} {100 * r['spread']:>6.1f}% {r['capped_rounds']:>6}")
    results["throughput"] = rows
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2)


if __name__ == "__main__":
    main()
