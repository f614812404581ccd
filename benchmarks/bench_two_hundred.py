"""Two Hundred throughput: deals per second on 1 and 2 threads, and compile time cold and warm.

    python benchmarks/bench_two_hundred.py [--games 300000] [--repeat 5] [--strategy heuristic]

Cold compile is measured in a fresh process with an empty numba cache directory
(NUMBA_CACHE_DIR); warm is a fresh process that loads the cached engine. Throughput is the best
and the median of ``--repeat`` runs (a busy machine shows up as spread), with the CPU time the
process actually obtained per wall second ("cores obtained": below the thread count means other
processes took the cores; 2 vCPUs may also be hyperthreads of one core). Goal: >= 1,000,000
deals/s on 2 threads with the heuristic strategy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

_COMPILE = (
    "import time; t = time.perf_counter();"
    "from simcards.games.two_hundred.game import GAME;"
    "GAME.new_run(GAME.build_rules(None), 4, GAME.strategies([{spec!r}], 4));"
    "print(time.perf_counter() - t)"
)


def compile_seconds(spec: str, cache_dir: str | None) -> float:
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", _COMPILE.format(spec=spec)], env=env, check=True,
                         capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def throughput(spec: str, games: int, repeat: int) -> dict[int, tuple[float, float]]:
    import numba

    from simcards.games.two_hundred.game import GAME
    from simcards.games.two_hundred import layout as L

    run = GAME.new_run(GAME.build_rules(None), 4, GAME.strategies([spec], 4))
    run.raw(1, 0, 1000, 0)
    out = {}
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        numba.set_num_threads(threads)
        rates, cores = [], []
        for r in range(repeat):
            t = time.perf_counter()
            c = time.process_time()
            g, _ = run.raw(100 + r, 0, games, 0)
            wall = time.perf_counter() - t
            rates.append(g[:, L.G_DEALS].sum() / wall)
            cores.append((time.process_time() - c) / wall)
        out[threads] = (max(rates), statistics.median(rates), statistics.median(cores))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--strategy", default="heuristic")
    ap.add_argument("--no-compile", action="store_true", help="skip the cold/warm compile measurements")
    args = ap.parse_args()
    if not args.no_compile:
        with tempfile.TemporaryDirectory() as tmp:
            cold = compile_seconds(args.strategy, tmp)
            warm = compile_seconds(args.strategy, tmp)
        print(f"compile: cold {cold:.1f} s, warm (cached) {warm:.2f} s")
    for spec in dict.fromkeys([args.strategy, "random"]):
        for threads, (best, med, cores) in throughput(spec, args.games, args.repeat).items():
            print(f"{spec:>10}  {threads} thread{'s' if threads > 1 else ' '}  best {best:>12,.0f} deals/s"
                  f"   median {med:>12,.0f} deals/s   cores obtained {cores:.2f}")


if __name__ == "__main__":
    main()
