"""Two Hundred throughput: deals per second for every preset on 1 and 2 threads, and compile
time cold and warm.

    python benchmarks/bench_two_hundred.py [--deals 600000] [--repeat 5] [--strategy heuristic]
                                           [--presets standard,kitty,...] [--no-compile]

Speed is measured in CPU time, which a shared machine distorts far less than wall time: each run
reports deals per CPU-second (process time, all threads) and, for 2 threads, deals per wall
second with the CPU the process actually obtained per wall second ("cores obtained": below the
thread count means other processes took the cores). Every point is the median and the spread
(min..max) of ``--repeat`` runs of about ``--deals`` deals each. Cold compile is measured in a
fresh process with an empty numba cache directory (NUMBA_CACHE_DIR); warm is a fresh process that
loads the cached engine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmark the checkout this file is in, not an installed copy

_COMPILE = (
    "import time; t = time.process_time();"
    "from simcards.games.two_hundred.game import GAME;"
    "GAME.new_run(GAME.build_rules(None), 4, GAME.strategies([{spec!r}], 4));"
    "print(time.process_time() - t)"
)


def compile_seconds(spec: str, cache_dir: str) -> float:
    """CPU seconds to import and compile (or load) the engine in a fresh process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", _COMPILE.format(spec=spec)], env=env, check=True,
                         capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def throughput(preset: str, spec: str, deals: int, repeat: int) -> dict[int, dict[str, float]]:
    """Per thread count: median and spread of deals per CPU-second, deals per wall second and
    cores obtained."""
    import numba

    from simcards.games.two_hundred import layout as L
    from simcards.games.two_hundred.game import GAME

    rules = GAME.build_rules(preset)
    run = GAME.new_run(rules, rules.players, GAME.strategies([spec], rules.players))
    warm, _ = run.raw(1, 0, 2000, 0)
    games = max(1000, int(deals / warm[:, L.G_DEALS].mean()))
    out = {}
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        numba.set_num_threads(threads)
        cpu_rates, wall_rates, cores = [], [], []
        for r in range(repeat):
            t, c = time.perf_counter(), time.process_time()
            g, _ = run.raw(100 + r, 0, games, 0)
            wall, cpu = time.perf_counter() - t, time.process_time() - c
            n = g[:, L.G_DEALS].sum()
            cpu_rates.append(n / cpu)
            wall_rates.append(n / wall)
            cores.append(cpu / wall)
        out[threads] = {"cpu": statistics.median(cpu_rates), "cpu_lo": min(cpu_rates), "cpu_hi": max(cpu_rates),
                        "wall": statistics.median(wall_rates), "cores": statistics.median(cores),
                        "deals_per_game": g[:, L.G_DEALS].mean()}
    return out


def main() -> None:
    from simcards.games.two_hundred.game import GAME

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=600_000, help="deals per timed run (about)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--strategy", default="heuristic")
    ap.add_argument("--presets", default=",".join(GAME.presets()), help="comma-separated presets (default: all)")
    ap.add_argument("--no-compile", action="store_true", help="skip the cold/warm compile measurements")
    args = ap.parse_args()
    if not args.no_compile:
        with tempfile.TemporaryDirectory() as tmp:
            cold = compile_seconds(args.strategy, tmp)
            warm = compile_seconds(args.strategy, tmp)
        print(f"compile ({args.strategy}): cold {cold:.1f} CPU-s, warm (cached) {warm:.2f} CPU-s")
    print(f"{'preset':>12} {'deals/game':>10}  {'1 thread: deals per CPU-s (spread)':>36}   "
          f"{'2 threads: deals per CPU-s':>27}  {'per wall-s':>10}  cores")
    for preset in args.presets.split(","):
        res = throughput(preset, args.strategy, args.deals, args.repeat)
        one, two = res[1], res.get(2)
        line = (f"{preset:>12} {one['deals_per_game']:>10.1f}  {one['cpu']:>12,.0f} ({one['cpu_lo']:,.0f}..{one['cpu_hi']:,.0f})")
        if two:
            line += f"   {two['cpu']:>27,.0f}  {two['wall']:>10,.0f}  {two['cores']:.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
