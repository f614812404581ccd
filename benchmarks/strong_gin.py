"""Gin Rummy strong players (issue 17): win rates of ``informed`` and ``mc`` against ``simple``
(standard rules, games to 100, seat rotation: every deal seed is played once with the player in
seat 0 and once in seat 1 — common deals —, 95% normal intervals over the games), and the cost:
games/s and turns/s on 1 and 2 threads (a turn: one player's draw, discard and knock decisions;
half of them are the searching player's). Wall clock: on a shared machine these are a floor.

    python benchmarks/strong_gin.py [--games 1000] [--seed 20261202] [--specs informed mc]

Report on seeds that were not used to choose the defaults (the defaults were chosen on seeds
7, 11 and 13; mc's k on seeds 7 and 11). ``--paired`` adds each spec's win rate minus the first
spec's, per deal seed (the same deals in both seats), with its interval.

    python benchmarks/strong_gin.py --specs mc:k=64 mc:k=128 --games 2000 --seed 7 --paired --no-speed

``--base`` plays other opponents than ``simple`` (one table each, e.g. the panel of
``simcards.panel``), ``--variant`` another rules preset (``eaai``: the literature's conditions).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # benchmark the checkout this file is in, not an installed copy


def wins(spec: str, games: int, seed: int, base: str = "simple", threads: int | None = None,
         variant: str | None = None):
    """(wins, turns, wall seconds, CPU seconds): ``wins[s, i]`` is 1 when ``spec`` in seat ``s``
    won the game of deal seed ``i`` against ``base`` (under the rules preset ``variant``)."""
    import simcards

    t = time.perf_counter()
    c = time.process_time()
    a = simcards.simulate("gin", variant=variant, games=games, seed=seed, strategies=[spec, base], detail=False,
                          threads=threads).games
    b = simcards.simulate("gin", variant=variant, games=games, seed=seed, strategies=[base, spec], detail=False,
                          threads=threads).games
    dt = time.perf_counter() - t
    dc = time.process_time() - c  # every thread's CPU time: the cost on a machine others share
    w = np.stack([(a.winner == 0).to_numpy(), (b.winner == 1).to_numpy()]).astype(float)
    return w, a.turns.sum() + b.turns.sum(), dt, dc


def win_rate(spec: str, games: int, seed: int, base: str = "simple", threads: int | None = None,
             variant: str | None = None):
    """(win rate, 95% half-width, games played, games/s, turns/s, games per CPU-second) of ``spec``
    against ``base``."""
    w, turns, dt, dc = wins(spec, games, seed, base, threads, variant)
    half = 1.96 * w.std(ddof=1) / np.sqrt(w.size)
    return w.mean(), half, w.size, w.size / dt, turns / dt, w.size / dc


def paired(w, w0):
    """(mean, 95% half-width) of the difference of two specs' win rates on the same deal seeds:
    the difference is taken per deal seed (both seats), so what the deals share cancels."""
    d = (w - w0).mean(axis=0)
    return d.mean(), 1.96 * d.std(ddof=1) / np.sqrt(len(d))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="deal seeds per seat (2x games in all)")
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--specs", nargs="+", default=["informed", "mc"])
    ap.add_argument("--base", nargs="+", default=["simple"], help="the opponents (each a table; e.g. the panel: "
                    "simple camper informed knock:max=10,gin_after=6)")
    ap.add_argument("--variant", default=None, help="the rules preset (e.g. eaai; default: standard)")
    ap.add_argument("--speed-games", type=int, default=100, help="games per speed measurement")
    ap.add_argument("--paired", action="store_true", help="also each spec's win rate minus the first spec's, "
                    "paired by deal seed, with its 95%% interval")
    ap.add_argument("--no-speed", action="store_true", help="skip the speed rows")
    args = ap.parse_args(argv)
    import numba

    for spec in args.specs:  # compile outside the timings (a strong family's engine plays simple too)
        win_rate(spec, 2, 0, variant=args.variant)
    for base in args.base:
        head = f"{'strategy':<28} {'win % vs ' + base:>18} {'games':>6}"
        print(head + ("   paired diff vs the first" if args.paired else ""))
        first = None
        for spec in args.specs:
            w = wins(spec, args.games, args.seed, base, variant=args.variant)[0]
            m, h, n = w.mean(), 1.96 * w.std(ddof=1) / np.sqrt(w.size), w.size
            line = f"{spec:<28} {100 * m:6.1f} [{100 * (m - h):.1f}, {100 * (m + h):.1f}] {n:>6}"
            if args.paired and first is not None:
                dm, dh = paired(w, first)
                line += f"   {100 * dm:+.1f} [{100 * (dm - dh):+.1f}, {100 * (dm + dh):+.1f}]"
            first = w if first is None else first
            print(line, flush=True)
    if args.no_speed:
        return
    print(f"\n{'strategy':<28} {'threads':>7} {'games/s':>9} {'turns/s':>9} {'games/CPU-s':>11}  (machine shared: "
          f"wall rates are a floor; load average {os.getloadavg()[0]:.1f})")
    for spec in args.specs:
        for threads in (1, 2):
            if threads > numba.config.NUMBA_NUM_THREADS:
                continue
            _, _, n, rate, turns, cpu = win_rate(spec, args.speed_games, args.seed + 1, threads=threads,
                                                 variant=args.variant)
            print(f"{spec:<28} {threads:>7} {rate:9.1f} {turns:9.0f} {cpu:11.1f}", flush=True)


if __name__ == "__main__":
    main()
