"""Scaling benchmark: throughput against numba threads and Dask workers, the overhead of the Dask
path, and peak memory (RSS) of summary-only and --out runs. Not a test: numbers for the docs.

    python benchmarks/bench_scaling.py throughput --game yaniv --games 20000 --repeat 3
    python benchmarks/bench_scaling.py rss --game yaniv --games 200000 400000 --summary-only
    python benchmarks/bench_scaling.py rss --game yaniv --games 1000000 --out /tmp/rss-out
    python benchmarks/bench_scaling.py rss --game gin --games 100000 1000000 --compare standard,tournament

Throughput runs in summary-only mode (no tables), so it measures the engines and the backend,
not Parquet. Each setting is repeated; the median and the spread (min..max) are printed. Parallel
efficiency = rate(2) / (2 × rate(1)). Dask startup (cluster + loading the cached kernels on each
worker) is reported apart from the timed run. On a busy 2-core machine expect wide spreads.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time


def _rate(game: str, games: int, seed: int, **kw) -> float:
    import simcards

    sim = simcards.simulate(game, games=games, seed=seed, summary_only=True, chunk=kw.pop("chunk", 5000), **kw)
    return sim.meta["games_per_second"]


def _fmt(rates: list[float]) -> str:
    return f"{statistics.median(rates):>10,.0f} games/s  (min {min(rates):,.0f}, max {max(rates):,.0f}, n={len(rates)})"


def throughput(args) -> dict:
    import numba

    from simcards.backends import make_backend

    results: dict[str, list[float]] = {}
    _rate(args.game, 200, 0)  # load the cached kernel
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        key = f"local, {threads} thread(s)"
        results[key] = [_rate(args.game, args.games, 100 + r, threads=threads) for r in range(args.repeat)]
        print(f"{key:<28}{_fmt(results[key])}", flush=True)
    startup = {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        with make_backend("dask", workers=workers) as be:
            _rate(args.game, 200, 0, backend=be)  # workers load the kernel
            startup[workers] = time.perf_counter() - t0
            key = f"dask, {workers} worker(s)"
            results[key] = [_rate(args.game, args.games, 100 + r, backend=be) for r in range(args.repeat)]
            print(f"{key:<28}{_fmt(results[key])}   startup {startup[workers]:.1f} s", flush=True)
    med = {k: statistics.median(v) for k, v in results.items()}
    summary = {}
    if "local, 2 thread(s)" in med:
        summary["local parallel efficiency (2 threads)"] = med["local, 2 thread(s)"] / (2 * med["local, 1 thread(s)"])
    summary["dask parallel efficiency (2 workers)"] = med["dask, 2 worker(s)"] / (2 * med["dask, 1 worker(s)"])
    summary["dask 1 worker vs local 1 thread"] = med["dask, 1 worker(s)"] / med["local, 1 thread(s)"]
    if "local, 2 thread(s)" in med:
        summary["dask 2 workers vs local 2 threads"] = med["dask, 2 worker(s)"] / med["local, 2 thread(s)"]
    for k, v in summary.items():
        print(f"{k:<40}{v:6.2f}")
    return {"game": args.game, "games": args.games, "rates": results, "startup_seconds": startup, **summary}


def rss(args) -> dict:
    """Peak RSS of a CLI run in a fresh process, for each number of games."""
    out = {}
    for n in args.games_list:
        if args.compare:  # a summary-only compare study (issue 9): streaming moments
            cmd = [sys.executable, "-m", "simcards", "compare", args.game, "--variants", args.compare,
                   "--games", str(n), "--seed", "1", "--no-progress", "--json", "--summary-only"]
        else:
            cmd = [sys.executable, "-m", "simcards", "simulate", args.game, "--games", str(n), "--seed", "1",
                   "--no-progress", "--json"]
        if args.summary_only and not args.compare:
            cmd.append("--summary-only")
        if args.out:
            cmd += ["--out", f"{args.out}-{n}"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t0 = time.perf_counter()
        res = subprocess.run(cmd, capture_output=True, text=True)
        elapsed = time.perf_counter() - t0
        peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        if res.returncode != 0:
            print(res.stderr, file=sys.stderr)
            raise SystemExit(res.returncode)
        data = json.loads(res.stdout)
        games = data["meta"]["games_played"] if args.compare else data["games"]
        # ru_maxrss of children is the max over all children so far: run one size per call for exact numbers
        out[n] = {"peak_rss_mb": peak_kb / 1024, "seconds": elapsed, "games": games,
                  "note": "max over children so far" if before else "exact"}
        what = f"compare {args.compare}, {games:,} games played" if args.compare else \
            ("summary-only" if args.summary_only else "tables") + (" --out" if args.out else "")
        print(f"{args.game} {n:>12,} games  {what}: peak RSS {peak_kb / 1024:,.0f} MB, {elapsed:,.0f} s", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("throughput")
    t.add_argument("--game", default="yaniv")
    t.add_argument("--games", type=int, default=20000)
    t.add_argument("--repeat", type=int, default=3)
    r = sub.add_parser("rss")
    r.add_argument("--game", default="yaniv")
    r.add_argument("--games", dest="games_list", type=int, nargs="+", default=[100000])
    r.add_argument("--summary-only", action="store_true")
    r.add_argument("--out", default=None, help="write tables to OUT-<games>")
    r.add_argument("--compare", default=None, help="measure `compare --summary-only` of these variants instead")
    args = ap.parse_args()
    result = throughput(args) if args.cmd == "throughput" else rss(args)
    print(json.dumps(result, indent=1, default=str))


if __name__ == "__main__":
    main()
