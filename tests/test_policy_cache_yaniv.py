"""A user policy whose compiled code numba cached under another module name (an older simcards
imported plug-in files as ``simcards_user_<stem>``; each file now gets a module of its own) must
still run: the stale cache entries are dropped and the policy and its engine compiled afresh,
instead of failing with "No module named ..."."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

POLICY = textwrap.dedent("""
    from numba import njit
    from simcards.strategy import register

    @njit
    def stale_pol(kind, params, hand, n, opts, n_opts, view, rules, rng):
        return n % n_opts

    register("yaniv", "stale_pol", stale_pol, {})
""")

# What the older simcards did: the file imported under a plain module name, then played (the
# policy and the engine around it cached on disk).
OLD = textwrap.dedent("""
    import importlib.util, sys
    import simcards
    spec = importlib.util.spec_from_file_location("simcards_user_pol", sys.argv[1])
    module = importlib.util.module_from_spec(spec)
    sys.modules["simcards_user_pol"] = module
    spec.loader.exec_module(module)
    simcards.simulate("yaniv", players=2, games=20, seed=1, strategies=["stale_pol", "threshold"])
""")


@pytest.mark.slow
def test_a_policy_cached_under_an_older_module_name_still_runs(tmp_path):
    policy = tmp_path / "pol.py"
    policy.write_text(POLICY)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "NUMBA_NUM_THREADS": "1"}
    old = subprocess.run([sys.executable, "-c", OLD, str(policy)], env=env, capture_output=True, text=True,
                         timeout=900)
    assert old.returncode == 0, old.stderr[-2000:]
    new = subprocess.run([sys.executable, "-m", "simcards", "simulate", "yaniv", "--players", "2", "--games", "20",
                          "--json", "--strategy", f"{policy}:stale_pol,threshold"], env=env, capture_output=True,
                         text=True, timeout=900)
    assert new.returncode == 0, new.stderr[-2000:]
    assert "No module named" not in new.stderr
