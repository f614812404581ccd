"""Digests of a fixed set of seeded runs: every table ``simulate`` and the studies return, hashed.

A refactor that must not change any game's logic proves it by printing the same digests before and
after (``python tools/digests.py > before.json`` ... ``python tools/digests.py | diff before.json -``);
``tests/test_golden_digests.py`` checks them against ``tests/data/digests.json``.
"""

from __future__ import annotations

import hashlib
import json
import sys

import pandas as pd

# (game, variant, players, strategies, rules, games, seed)
RUNS = [
    ("yaniv", "israeli", 4, ["threshold"], None, 300, 1),
    ("yaniv", "israeli", 3, ["random", "threshold:call=3", "threshold:keep=0"], None, 200, 2),
    ("yaniv", "nepali", 4, ["threshold"], None, 150, 3),
    ("yaniv", "adrian", 4, ["random"], None, 150, 4),
    ("yaniv", "kluft", 5, ["threshold"], None, 100, 5),
    ("yaniv", "israeli", 2, ["threshold"], {"call_limit": 3, "slam": True, "pickup": "any"}, 200, 6),
    ("gin", "standard", 2, ["simple"], None, 200, 1),
    ("gin", "standard", 2, ["random", "knock:max=6,deny=1,avoid=5"], None, 100, 2),
    ("gin", "oklahoma", 2, ["knock:spade=2"], None, 100, 3),
    ("gin", "hollywood", 2, ["simple"], None, 60, 4),
    ("gin", "three-player", 3, ["simple"], None, 60, 5),
    ("gin", "four-player", 4, ["simple", "knock:max=5"], None, 40, 6),
    ("gin", "mahjong", 2, ["knock:pile=0"], None, 60, 7),
    ("two-hundred", "standard", 4, ["heuristic"], None, 300, 1),
    ("two-hundred", "standard", 4, ["random", "heuristic:aggr=0.3"], None, 200, 2),
]
# The search families (informed, mc and the presets built on them): few games, small k, so a change
# to how they attach or what they import is proved to play the same games (slow lane).
SEARCH_RUNS = [
    ("yaniv", "israeli", 4, ["informed", "mc:k=6", "threshold", "mc:k=4,search=0"], None, 30, 11),
    ("gin", "standard", 2, ["informed", "mc:k=6,width=3,filter=20,fit=8,depth=0,seen=1,style=0"], None, 16, 12),
    ("gin", "oklahoma", 2, ["deep", "knock"], None, 6, 13),
    ("two-hundred", "standard", 4, ["informed", "mc:k=6", "heuristic", "random"], None, 30, 14),
]


def frame_digest(df: pd.DataFrame | None) -> str | None:
    """SHA-256 of a table's column names, dtypes and values (row order included)."""
    if df is None:
        return None
    h = hashlib.sha256()
    h.update(json.dumps([[str(c), str(t)] for c, t in df.dtypes.items()]).encode())
    h.update(pd.util.hash_pandas_object(df, index=True).to_numpy().tobytes())
    return h.hexdigest()[:20]


def run_digests(runs=RUNS) -> dict[str, dict[str, str | None]]:
    import simcards

    out = {}
    for game, variant, players, strategies, rules, games, seed in runs:
        sim = simcards.simulate(game, variant=variant, players=players, strategies=strategies, rules=rules,
                                games=games, seed=seed, threads=1, chunk=max(games // 3, 1))
        key = f"{game}/{variant}/{players}/{','.join(strategies)}/{json.dumps(rules, sort_keys=True)}/{games}/{seed}"
        out[key] = {"games": frame_digest(sim.games), "detail": frame_digest(sim.detail)}
    return out


def study_digests(games: set[str] | None = None) -> dict[str, str | None]:
    """The studies' table digests; ``games``: only the studies of these games (the test checks
    each game apart, so a test worker compiles only that game's engines)."""
    from simcards.studies import compare, tournament, tune

    studies = {
        "compare yaniv": ("yaniv", lambda: compare("yaniv", ["israeli", "nepali"], games=120, seed=3, threads=1)),
        "compare gin": ("gin", lambda: compare("gin", ["standard", "oklahoma"], games=60, seed=3, threads=1)),
        "tune yaniv": ("yaniv", lambda: tune("yaniv", "threshold", ["call=3,5"], games=120, seed=4, threads=1)),
        "tournament two-hundred": ("two-hundred", lambda: tournament("two-hundred", ["heuristic", "heuristic:aggr=0.3"],
                                                                     games=80, seed=5, threads=1)),
    }
    results = {name: run() for name, (game, run) in studies.items() if games is None or game in games}
    # studies carry timings in their metadata, never in their tables: hash every table
    return {f"{name}/{table}": frame_digest(df) for name, res in results.items() for table, df in res.tables.items()}


def main() -> None:
    data = {"runs": run_digests(), "studies": study_digests(), "search": run_digests(SEARCH_RUNS)}
    json.dump(data, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
