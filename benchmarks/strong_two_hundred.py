"""Two Hundred strong players: the issue-17 targets. A team of ``informed`` / ``mc`` against a team
of ``heuristic`` (standard preset unless --preset), games to the end, seat rotation (each spec
plays team 0 and team 1 on the same game indices = common deals, the first dealer drawn per game).

    python benchmarks/strong_two_hundred.py --games 4000 --seed 20261202 informed
    python benchmarks/strong_two_hundred.py --games 500 --seed 20261202 mc
    python benchmarks/strong_two_hundred.py [--games 1000] [--seed 100] [--threads 1,2]
        [--speed-games 100] [--against heuristic] [--preset standard] [SPEC ...]

Targets (standard): informed >= 58%, mc >= 62% of games (fair 50%); with no SPEC both are run.
Issue 29's: the strongest preset (``simcards.panel.STRONGEST``: ``deep``, mc on 96 samples) against
the ``informed`` team >= 72% (``deep --against informed``; ``benchmarks/strength.py --game
two-hundred`` plays it against the whole panel).
The win rate's 95% interval is over game indices (a game index's share of wins over the two
team seats is one observation: the two games of an index share the deals). Speed: games/s and
deals/s on each thread count, timed on ``--speed-games`` further game indices, wall clock and
per CPU-second of the process (the machine may be shared: say so when quoting).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout this file is in, not an installed copy

TARGETS = {"informed": 58.0, "mc": 62.0}
TARGETS_29 = {("deep", "informed"): 72.0}  # (spec, against): issue 29


def rate(share: np.ndarray) -> tuple[float, float, float]:
    """Mean of the per-index shares with a 95% normal interval over game indices."""
    p = float(share.mean())
    h = 1.959964 * float(share.std(ddof=1)) / math.sqrt(len(share))
    return p, p - h, p + h


def match(spec: str, against: str, preset: str, games: int, seed: int, start: int = 0) -> dict:
    """Win rate of ``spec``'s team over 2 × ``games`` games (both team seats, same game indices)."""
    from simcards.games.two_hundred import layout as L
    from simcards.games.two_hundred.game import GAME

    rules = GAME.build_rules(preset)
    wins = np.zeros(games)
    deals = 0
    secs = cpu = 0.0
    for side, specs in ((0, [spec, against]), (1, [against, spec])):
        run = GAME.new_run(rules, rules.players, GAME.strategies(specs, rules.players))
        t, c = time.perf_counter(), time.process_time()
        g, _ = run.raw(seed, start, games, 0)
        secs += time.perf_counter() - t
        cpu += time.process_time() - c
        wins += g[:, L.G_WINNER] == side
        deals += int(g[:, L.G_DEALS].sum())
    n = 2 * games
    p, lo, hi = rate(wins / 2)
    return {"spec": spec, "games": n, "win": p, "lo": lo, "hi": hi, "games_s": n / secs, "games_cpu": n / cpu,
            "deals_s": deals / secs, "deals_per_game": deals / n}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("specs", nargs="*", help="default: informed and mc (the targets)")
    ap.add_argument("--games", type=int, default=1000, help="game indices, each played with the spec on both teams")
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--threads", default="1,2", help="thread counts to time; the rate is played on the largest")
    ap.add_argument("--speed-games", type=int, default=100, help="further game indices timed per thread count")
    ap.add_argument("--against", default="heuristic")
    ap.add_argument("--preset", default="standard")
    a = ap.parse_args()
    threads = [int(x) for x in a.threads.split(",")]
    for spec in a.specs or list(TARGETS):
        numba.set_num_threads(max(threads))
        match(spec, a.against, a.preset, 2, a.seed + 10**6)  # compile / warm
        r = match(spec, a.against, a.preset, a.games, a.seed)
        line = (f"{a.preset} {r['spec']} vs {a.against} (seed {a.seed}): {100 * r['win']:.1f}% "
                f"[{100 * r['lo']:.1f}, {100 * r['hi']:.1f}] of {r['games']} games, {r['deals_per_game']:.2f} deals a game")
        family = spec.partition(":")[0]
        if a.preset == "standard" and a.against == "heuristic" and family in TARGETS:
            met = 100 * r["win"] >= TARGETS[family]
            line += f"; target >= {TARGETS[family]:g}%: {'met' if met else 'NOT met'}"
        elif a.preset == "standard" and (spec, a.against) in TARGETS_29:
            goal = TARGETS_29[(spec, a.against)]
            line += f"; target >= {goal:g}%: {'met' if 100 * r['win'] >= goal else 'NOT met'}"
        print(line, flush=True)
        for t in threads:
            numba.set_num_threads(t)
            sp = match(spec, a.against, a.preset, a.speed_games, a.seed, start=a.games)
            print(f"    {t} thread(s): {sp['games_s']:.1f} games/s wall ({sp['games_cpu']:.1f} per CPU-second), "
                  f"{sp['deals_s']:.0f} deals/s wall", flush=True)


if __name__ == "__main__":
    main()
