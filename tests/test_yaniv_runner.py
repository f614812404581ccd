"""The runner and the API: reproducibility, tables, summaries, exact probabilities."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from fractions import Fraction
from itertools import combinations_with_replacement

import numpy as np
import pandas as pd
import pytest

import simcards
from simcards.errors import SimcardsError
from simcards.games.yaniv import reference as ref
from simcards.games.yaniv.rules import ISRAELI


def digest(df: pd.DataFrame) -> str:
    return hashlib.sha256(pd.util.hash_pandas_object(df, index=False).values.tobytes()).hexdigest()


def test_same_seed_same_tables_for_any_chunk_size():
    a = simcards.simulate("yaniv", games=3000, seed=42, chunk=3000)
    b = simcards.simulate("yaniv", games=3000, seed=42, chunk=7)
    c = simcards.simulate("yaniv", games=3000, seed=42, chunk=1000)
    assert digest(a.games) == digest(b.games) == digest(c.games)
    assert digest(a.rounds) == digest(b.rounds) == digest(c.rounds)
    assert digest(simcards.simulate("yaniv", games=3000, seed=43).games) != digest(a.games)


SCRIPT = """
import hashlib, pandas as pd, simcards
sim = simcards.simulate("yaniv", games=4000, seed=7, strategies=["threshold", "random", "threshold:call=3"],
                        players=3, chunk=997)
h = lambda df: hashlib.sha256(pd.util.hash_pandas_object(df, index=False).values.tobytes()).hexdigest()
print(h(sim.games), h(sim.rounds), sim.meta["threads"])
"""


def test_same_seed_same_tables_on_one_and_two_threads():
    outs = []
    for threads in ("1", "2"):
        env = dict(os.environ, NUMBA_NUM_THREADS=threads)
        res = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True)
        outs.append(res.stdout.split())
    assert outs[0][:2] == outs[1][:2]
    assert (outs[0][2], outs[1][2]) == ("1", "2")


def test_tables_agree_with_each_other():
    sim = simcards.simulate("yaniv", games=2000, seed=3, players=5)
    g, r = sim.games, sim.rounds
    assert list(g["game"]) == list(range(2000))
    per_game = r.groupby("game").agg(rounds=("round", "size"), turns=("turns", "sum"), asafs=("asaf", "sum"))
    assert (per_game["rounds"].to_numpy() == g["rounds"].to_numpy()).all()
    assert (per_game["turns"].to_numpy() == g["turns"].to_numpy()).all()
    assert (per_game["asafs"].to_numpy() == g["asafs"].to_numpy()).all()
    last = r.groupby("game").tail(1)
    for p in range(5):
        assert (last[f"score_{p}"].to_numpy() == g[f"score_{p}"].to_numpy()).all()
    # the winner is the only seat never eliminated; an eliminated seat's hand is null afterwards
    assert (g["winner"] >= 0).all() and (g["capped"] == False).all()  # noqa: E712
    assert r["hand_0"].isna().any() and (r["eliminated"] != "").any()


def test_long_games_keep_every_round():
    """Games with more rounds than the first-pass buffer are replayed in full (same game)."""
    sim = simcards.simulate("yaniv", games=300, seed=5, rules={"out_over": 1000, "resets": "none"}, players=2)
    assert sim.games["rounds"].max() > 64
    assert len(sim.rounds) == sim.games["rounds"].sum()
    assert sim.rounds.groupby("game")["round"].apply(lambda s: list(s) == list(range(1, len(s) + 1))).all()


def test_summary_has_confidence_intervals_and_json(tmp_path):
    sim = simcards.simulate("yaniv", games=1500, seed=9, out=tmp_path / "run")
    s = sim.summary
    for est in s["win_rate_by_seat"] + [s["starter_win_rate"], s["asaf_rate"], s["rounds_per_game"]]:
        assert est.low <= est.value <= est.high
    assert s["capped_rounds"] == 0  # built-in strategies never hit the turn cap
    files = sorted(p.name for p in (tmp_path / "run").iterdir())
    assert files == ["games.parquet", "rounds.parquet", "summary.json"]
    back = pd.read_parquet(tmp_path / "run" / "games.parquet")
    assert digest(back) == digest(sim.games)
    rounds = pd.read_parquet(tmp_path / "run" / "rounds.parquet")
    assert len(rounds) == sim.games["rounds"].sum()
    data = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert data["meta"]["seed"] == 9 and data["games"] == 1500
    assert len(data["win_rate_by_seat"][0]["ci95"]) == 2


def test_bad_arguments_are_refused():
    for kwargs in ({"games": 0}, {"games": -3}, {"seed": -1}, {"players": 1}, {"players": 11},
                   {"variant": "nope"}, {"strategies": ["nope"]}, {"strategies": ["threshold"] * 3},
                   {"rules": {"call_limit": "x"}}, {"rules": {"colour": 1}}, {"threads": 99}):
        with pytest.raises(SimcardsError):
            simcards.simulate("yaniv", **kwargs)


def _p_opening_hand_at_most(limit: int) -> Fraction:
    """Exact probability that 5 cards from the 54-card deck total at most ``limit``."""
    counts: dict[int, int] = {}
    for c in ref.deck(ISRAELI):
        v = ref.value(c, ISRAELI)
        counts[v] = counts.get(v, 0) + 1
    from math import comb, prod

    good = 0
    for values in combinations_with_replacement(sorted(counts), 5):
        if sum(values) <= limit:
            good += prod(comb(counts[v], values.count(v)) for v in set(values))
    return Fraction(good, comb(54, 5))


@pytest.mark.slow
def test_immediate_call_rate_matches_combinatorics():
    """With ``call=5`` the round-1 starter calls before any discard exactly when the dealt hand
    totals 5 or less: the simulated rate must match the exact probability."""
    p = float(_p_opening_hand_at_most(5))
    sim = simcards.simulate("yaniv", games=40000, seed=2026, detail=True)
    first = sim.rounds[sim.rounds["round"] == 1]
    rate = (first["turns"] == 0).mean()
    se = np.sqrt(p * (1 - p) / len(first))
    assert abs(rate - p) < 4 * se, (rate, p)


@pytest.mark.slow
def test_first_starter_is_uniform_y_start_1():
    sim = simcards.simulate("yaniv", games=20000, seed=11, detail=False)
    counts = np.bincount(sim.games["starter"], minlength=4)
    expected = len(sim.games) / 4
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 16.27  # chi-square, 3 degrees of freedom, p = 0.001


def test_cached_kernels_are_dropped_when_a_module_they_inline_changes(tmp_path):
    """numba's disk cache watches only a function's own file, so a cached kernel could keep the code
    of an edited helper (fast.py, groups.py, policies.py, rng.py ...). Importing the package checks a
    fingerprint of every module the kernels are built from and drops the package's cached functions
    when it no longer matches; anything else in the cache is left alone."""
    from pathlib import Path

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    where = ("import simcards.games.yaniv as y; from numba.core.caching import FunctionCache; "
             "print(FunctionCache(y._anchor)._cache_path)")

    def import_package():
        out = subprocess.run([sys.executable, "-c", where], env=env, capture_output=True, text=True, check=True)
        return Path(out.stdout.strip().splitlines()[-1])

    cache = import_package()
    stamp = cache / "yaniv.deps.stamp"
    fingerprint = stamp.read_text()
    ours = [cache / "kernel.play_round-1.py311.nbi", cache / "fast.threshold_turn-2.py311.nbc"]
    theirs = cache / "kernel_gin.play-1.py311.nbi"
    for f in ours + [theirs]:
        f.write_text("compiled earlier")
    import_package()  # same sources: the cache is kept
    assert all(f.exists() for f in ours + [theirs])
    stamp.write_text("the fingerprint of older sources")
    import_package()
    assert not any(f.exists() for f in ours) and theirs.exists()
    assert stamp.read_text() == fingerprint


def test_every_cached_kernel_function_really_caches():
    """Warm start-up stays fast (issue 2): every module-level jitted function of the Yaniv
    kernel, the threshold-only copy of play_round included, is cached on disk (a copy that lost
    ``cache=True`` recompiles for ~4 s in every process)."""
    from numba.core.caching import NullCache
    from numba.core.registry import CPUDispatcher

    from simcards.games.yaniv import kernel

    jitted = {name: f for name, f in vars(kernel).items()
              if isinstance(f, CPUDispatcher) and f.py_func.__module__ == kernel.__name__}
    assert "play_round_threshold" in jitted and "play_games" in jitted
    uncached = [name for name, f in jitted.items() if isinstance(f._cache, NullCache)]
    assert uncached == []
