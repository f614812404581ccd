"""Two Hundred strong players: a team of ``informed`` / ``mc`` against a team of ``heuristic``
(standard preset unless --preset), games to the end, seat rotation (each spec plays team 0 and
team 1 on the same game indices = common deals, the first dealer drawn per game), 95% Wilson
intervals, games/s and decisions/s (wall; the machine is shared, say so when quoting).

    python benchmarks/strong_two_hundred.py [--games 1000] [--seed 100] [--threads 2]
        [--against heuristic] [--preset standard] SPEC [SPEC ...]
"""

from __future__ import annotations

import argparse
import math
import time

import numba


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def match(spec: str, against: str, preset: str, games: int, seed: int) -> dict:
    """Win rate of ``spec``'s team over 2 × ``games`` games (both team seats, same game indices)."""
    from simcards.games.two_hundred import layout as L
    from simcards.games.two_hundred.game import GAME

    rules = GAME.build_rules(preset)
    wins = 0
    deals = 0
    secs = 0.0
    for side, specs in ((0, [spec, against]), (1, [against, spec])):
        run = GAME.new_run(rules, rules.players, GAME.strategies(specs, rules.players))
        t = time.perf_counter()
        g, _ = run.raw(seed, 0, games, 0)
        secs += time.perf_counter() - t
        wins += int((g[:, L.G_WINNER] == side).sum())
        deals += int(g[:, L.G_DEALS].sum())
    n = 2 * games
    lo, hi = wilson(wins, n)
    return {"spec": spec, "games": n, "win": wins / n, "lo": lo, "hi": hi, "games_s": n / secs,
            "deals_s": deals / secs, "deals_per_game": deals / n}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--against", default="heuristic")
    ap.add_argument("--preset", default="standard")
    a = ap.parse_args()
    numba.set_num_threads(a.threads)
    for spec in a.specs:
        r = match(spec, a.against, a.preset, a.games, a.seed)
        print(f"{a.preset} {r['spec']:40s} vs {a.against}: {100 * r['win']:.1f}% [{100 * r['lo']:.1f}, "
              f"{100 * r['hi']:.1f}] of {r['games']} games; {r['games_s']:.1f} games/s, {r['deals_s']:.0f} deals/s "
              f"({a.threads} threads, wall)", flush=True)


if __name__ == "__main__":
    main()
