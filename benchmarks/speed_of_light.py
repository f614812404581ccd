"""Plain throughput beside the speed of light: each game's rate through the public API next to a small
lab kernel's rate for the same work, measured in one sitting, on 1 and 2 threads (issue 31).

The lab kernels (``../shared/lab`` beside a checkout, or ``--lab DIR``) play each game's core rules with
simple strategies, written only to learn how fast this machine can go; a shared machine is noisy, so
only the ratio of two rates measured minutes apart means something. The lab's ``rates.py`` (in its
own process) and simcards take turns, ``--rounds`` times, the lab first and last: each simcards
reading is set against the mean of the lab readings just before and after it, and every row gives
the median ratio and its range over the rounds (the lab's own rate moved by up to 9% within one
sitting). The lab readings are printed, with the load average, so a reader can see how steady the
machine was.

The work, as issue 31 states it (``summary_only=True``, the built-in engines):

- Yaniv rounds/s: 4 players, ``threshold`` (calls at 5 or less, as the lab's players);
- Gin hands/s: ``simple`` against ``simple``, standard rules;
- Two Hundred deals/s: ``heuristic`` in every seat, standard rules.

Each simcards measurement plays about as many units as the lab's timed call (``LAB_UNITS``, the
sizes in ``rates.py``): the games it takes are counted from the warm-up run's units a game. A call
has fixed costs (the games table and summary of each chunk are built in one thread, 5-7 ms a
Two Hundred chunk), which weigh on a call a quarter of the lab's size four times as much.

    python benchmarks/speed_of_light.py [--rounds 3] [--games-scale 1.0] [--repeats 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # benchmark the checkout this file is in, not an installed copy

# (game, simulate arguments, summary count, unit, lab key prefix)
WORK = [
    ("yaniv", {"players": 4, "strategies": "threshold"}, "rounds", "rounds", "yaniv_rounds"),
    ("gin", {"strategies": "simple"}, "hands", "hands", "gin_hands"),
    ("two-hundred", {"strategies": "heuristic"}, "deals", "deals", "th_deals"),
]
# the units of the lab's timed call for each (``rates.py``: ``rate(..., n, ...)``): simcards plays as many
LAB_UNITS = {"yaniv_rounds": 400_000, "gin_hands": 200_000, "th_deals": 800_000}
WARM_GAMES = 1_000  # the warm-up run: compiles or loads the engine, and gives the units a game
GOAL = 2 / 3  # issue 31: each plain kernel at two thirds of the lab's rate or better


def lab_rates(lab: Path) -> dict[str, float]:
    """The lab kernels' rates now, from their own process (``rates.py`` prints JSON)."""
    res = subprocess.run([sys.executable, str(lab / "rates.py")], capture_output=True, text=True, timeout=1800)
    if res.returncode != 0:
        raise SystemExit(f"error: {lab / 'rates.py'} failed: {res.stderr.strip().splitlines()[-1:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def simcards_rate(game: str, args: dict, count: str, units: int, threads: int, repeats: int) -> float:
    """Units per second through ``simcards.simulate`` (best of ``repeats`` after a warm-up run that
    compiles or loads the engine), each run of about ``units`` units (the games counted from the
    warm-up's units a game)."""
    import simcards

    warm = simcards.simulate(game, games=WARM_GAMES, threads=threads, summary_only=True, **args)
    games = max(WARM_GAMES, round(units * WARM_GAMES / warm.summary[count]))
    best = 0.0
    for r in range(repeats):
        t0 = time.perf_counter()
        res = simcards.simulate(game, games=games, seed=r, threads=threads, summary_only=True, **args)
        best = max(best, res.summary[count] / (time.perf_counter() - t0))
    return best


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lab", type=Path, default=HERE.parents[1] / "shared" / "lab",
                    help="the lab kernels' folder (default: ../shared/lab beside the checkout)")
    ap.add_argument("--games-scale", type=float, default=1.0,
                    help="scale every measurement's size (1: the units of the lab's timed call)")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs per rate (the best is kept)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="lab and simcards taking turns this many times (the lab also before the first and "
                         "after the last): each row's ratio is given per round, as a median and range")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    a = ap.parse_args(argv)
    if not (a.lab / "rates.py").is_file():
        raise SystemExit(f"error: no lab kernels at {a.lab} (give --lab DIR: the folder with rates.py)")
    if a.rounds < 1:
        raise SystemExit("error: --rounds must be at least 1")

    load_before = os.getloadavg()
    labs = [lab_rates(a.lab)]
    ours = []
    for _ in range(a.rounds):  # each simcards reading between two lab readings: drift shows in both
        ours.append({(game, t): simcards_rate(game, args, count, int(LAB_UNITS[key] * a.games_scale), t, a.repeats)
                     for game, args, count, _, key in WORK for t in (1, 2)})
        labs.append(lab_rates(a.lab))
    load_after = os.getloadavg()

    rows = []
    for game, _, _, unit, key in WORK:
        for t in (1, 2):
            lab = [(labs[i][f"{key}_{t}"] + labs[i + 1][f"{key}_{t}"]) / 2 for i in range(a.rounds)]
            mine = [ours[i][game, t] for i in range(a.rounds)]
            ratios = [m / b for m, b in zip(mine, lab)]
            rows.append({"game": game, "unit": unit, "threads": t, "simcards_per_s": statistics.median(mine),
                         "lab_per_s": statistics.median(lab), "ratio": statistics.median(ratios),
                         "ratios": ratios, "simcards_rounds": mine, "lab_readings": [r[f"{key}_{t}"] for r in labs]})
    for game, *_ in WORK:
        one, two = (r for r in rows if r["game"] == game)
        two["two_over_one"] = statistics.median(b / o for b, o in zip(two["simcards_rounds"], one["simcards_rounds"]))
    result = {"load_before": load_before, "load_after": load_after, "goal_ratio": GOAL, "rounds": a.rounds,
              "rows": rows}
    if a.json:
        print(json.dumps(result, indent=1))
        return result
    print(f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
          f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f} (2 cores: above 1 the figures are floors)")
    print(f"{a.rounds} round(s): medians; the ratio's range over the rounds in brackets")
    print(f"{'game':12} {'unit':7} {'thr':>3} {'simcards/s':>11} {'lab/s':>11} {'ratio':>5} {'range':>11} {'goal':>5} "
          f"{'2t/1t':>5}")
    for r in rows:
        mark = "ok" if r["ratio"] >= GOAL else "below"
        spread = f"[{min(r['ratios']):.2f}-{max(r['ratios']):.2f}]"
        scale = f"{r['two_over_one']:.2f}" if "two_over_one" in r else ""
        print(f"{r['game']:12} {r['unit']:7} {r['threads']:>3} {r['simcards_per_s']:>11,.0f} {r['lab_per_s']:>11,.0f} "
              f"{r['ratio']:>5.2f} {spread:>11} {mark:>5} {scale:>5}")
    print("lab readings in order: " + "; ".join(
        f"{r['game']} {r['threads']}t " + "/".join(f"{v:,.0f}" for v in r["lab_readings"]) for r in rows))
    return result


if __name__ == "__main__":
    main()
