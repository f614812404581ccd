"""Plain-strategy CPU time of every preset, on two trees: the 3% rule of the developers' guide.

Each preset of each game is simulated with its default (plain) strategies on one thread, compile
excluded by a 20-game warm-up; the score is the run's CPU time (``time.process_time``), best of
``--repeat``. Run it once per tree (each run imports the package of the tree it is pointed at),
alternating the trees, then compare:

    PYTHONPATH=/path/to/before python benchmarks/plain_before_after.py run before_1.json
    PYTHONPATH=/path/to/after  python benchmarks/plain_before_after.py run after_1.json
    ... (again, _2) ...
    python benchmarks/plain_before_after.py compare --before before_*.json --after after_*.json

``compare`` takes each side's best over its files, prints after/before per preset and the
geometric mean over presets with a 95% t interval (presets as the sample). On a shared or virtual
machine one preset's best-of-3 moves by 10% or more between rounds, so the geometric mean is the
number to read; pause or avoid other jobs while it runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

GAMES = {"yaniv": 6000, "gin": 6000, "two-hundred": 30000}  # games per timed run (about 1 CPU-s each)


def run(out: str, repeat: int, only: list[str] | None = None) -> None:
    import simcards
    from simcards.games import get_game

    print(f"simcards from {simcards.__file__}", file=sys.stderr)
    best: dict[str, float] = {}
    for game, n in GAMES.items():
        if only and game not in only:
            continue
        g = get_game(game)
        for variant in g.presets() if callable(g.presets) else g.presets:  # a method on newer trees
            simcards.simulate(game, variant=variant, games=20, seed=1, threads=1, detail=False)  # compile
            times = []
            for r in range(repeat):
                t = time.process_time()
                simcards.simulate(game, variant=variant, games=n, seed=2 + r, threads=1, detail=False)
                times.append(time.process_time() - t)
            best[f"{game}/{variant}"] = min(times)
            print(f"{game}/{variant:<24} {min(times):7.3f} CPU-s", flush=True)
    with open(out, "w") as f:
        json.dump(best, f, indent=1)


def compare(before: list[str], after: list[str]) -> None:
    b = [json.load(open(p)) for p in before]
    a = [json.load(open(p)) for p in after]
    keys = [k for k in b[0] if all(k in d for d in b + a)]
    logs = []
    print(f"{'preset':<34} {'before':>7} {'after':>7} {'after/before':>12}")
    for k in keys:
        lo_b, lo_a = min(d[k] for d in b), min(d[k] for d in a)
        logs.append(np.log(lo_a / lo_b))
        print(f"{k:<34} {lo_b:7.3f} {lo_a:7.3f} {lo_a / lo_b:12.3f}")
    x = np.array(logs)
    if len(x) < 2:
        print("geometric mean needs two presets or more")
        return
    from scipy.stats import t as student

    half = student.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))
    print(f"geometric mean after/before over {len(x)} presets: {np.exp(x.mean()):.3f} "
          f"[{np.exp(x.mean() - half):.3f}, {np.exp(x.mean() + half):.3f}] (95%, t over presets)")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="time every preset of the tree on PYTHONPATH")
    r.add_argument("out", help="JSON file for the best CPU seconds per preset")
    r.add_argument("--repeat", type=int, default=3)
    r.add_argument("--only", nargs="+", choices=sorted(GAMES), help="these games only (a change that touches one)")
    c = sub.add_parser("compare", help="after/before per preset and the geometric mean")
    c.add_argument("--before", nargs="+", required=True)
    c.add_argument("--after", nargs="+", required=True)
    args = ap.parse_args(argv)
    if args.cmd == "run":
        run(args.out, args.repeat, args.only)
    else:
        compare(args.before, args.after)


if __name__ == "__main__":
    main()
