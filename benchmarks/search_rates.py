"""The search players' cost: games/s and decisions/s of each game's search presets against the game's
baseline, on 1 and 2 threads, in one sitting with the load average (issue 31 item 3).

Each row is the ``cost`` table of a two-strategy ``tournament`` (``simcards.studies.tournament`` with
``cost=`` the baseline): the searcher's matchup against the baseline, seat rotation, common deals,
games to the end; the clock runs only while games are played (each engine is compiled first), and
decisions are the searcher's own (see ``simcards.studies.cost``). CPU seconds are every thread's:
on a busy machine games per CPU-second is the steadier figure.

    python benchmarks/search_rates.py [--games 200] [--only gin] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout this file is in

# game -> (baseline, search presets, games per matchup relative to --games)
WORK = {
    "gin": ("simple", ["reader", "deep", "mc", "informed"], 1.0),  # reader: the strongest (simcards.panel)
    "yaniv": ("threshold", ["mc", "informed"], 4.0),
    "two-hundred": ("heuristic", ["mc", "informed"], 1.0),
}


def rates(game: str, search: str, base: str, games: int, threads: int) -> dict:
    from simcards.studies import tournament

    res = tournament(game, [search, base], games=games, seed=20261206, threads=threads, cost=base)
    row = res.tables["cost"].set_index("strategy").loc[search]
    return {"game": game, "strategy": search, "against": base, "threads": threads, "games": int(row["games"]),
            "games_per_s": float(row["games_per_s"]), "decisions_per_s": float(row["decisions_per_s"]),
            "games_per_cpu_s": float(row["games_per_cpu_s"]), "decision_unit": row["decision_unit"]}


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="deals per matchup (Yaniv plays 4x as many)")
    ap.add_argument("--only", choices=sorted(WORK), action="append", help="just this game (repeatable)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    load_before = os.getloadavg()
    rows = [rates(game, s, base, max(10, int(a.games * scale)), t)
            for game, (base, searches, scale) in WORK.items() if not a.only or game in a.only
            for s in searches for t in (1, 2)]
    load_after = os.getloadavg()
    if a.json:
        print(json.dumps({"load_before": load_before, "load_after": load_after, "rows": rows}, indent=1))
        return rows
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (2 cores: above 1, wall rates "
          "are floors; games/cpu-s is steadier)")
    print(f"{'game':12} {'strategy':9} {'against':10} {'thr':>3} {'games':>6} {'games/s':>9} {'dec/s':>10} "
          f"{'games/cpu-s':>11}")
    for r in rows:
        print(f"{r['game']:12} {r['strategy']:9} {r['against']:10} {r['threads']:>3} {r['games']:>6} "
              f"{r['games_per_s']:>9,.1f} {r['decisions_per_s']:>10,.0f} {r['games_per_cpu_s']:>11,.1f}")
    return rows


if __name__ == "__main__":
    main()
