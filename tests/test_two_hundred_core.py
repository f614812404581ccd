"""Two Hundred's floor (core.py): the rule mechanics are written once. A scoring rule changed in
core.py alone changes what the kernel scores and what the mc search's rollouts and contract
estimates value (T-SC-2): no engine or strategy keeps a copy of it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

# Runs without compiling (NUMBA_DISABLE_JIT=1), so the module attribute ``core.contract_score``
# can be replaced the way a rule change would replace it; every caller then sees the new rule.
_SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    from simcards.games.two_hundred import core, kernel, search
    from simcards.games.two_hundred import layout as L
    from simcards.games.two_hundred.game import FAMILIES, GAME

    rules = GAME.build_rules("standard").encode()
    table = np.array([[p.default for p in FAMILIES["mc"].params]])
    bits = [b for b in range(64) if int(L.DECK_MASK_36) >> b & 1]
    np.random.default_rng(3).shuffle(bits)
    hands = np.zeros(L.MAX_SEATS, dtype=np.int64)
    for s in range(4):
        for b in bits[9 * s:9 * s + 9]:
            hands[s] |= np.int64(1) << b
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_TRICK_FACES:L.V_TRICK_FACES + L.MAX_SEATS] = -1
    for s in range(L.MAX_SEATS):
        view[L.V_SIDE + s] = s % 2 if s < 4 else -1
    view[L.V_ACTIVE] = 0b1111
    view[L.V_N_ACTIVE] = 4
    view[L.V_BIDDER] = 0
    view[L.V_BID] = 95  # seat 0's side contracts for 95 in hearts: it fails, whoever takes what
    view[L.V_TRUMP] = 1
    for k in (L.V_LEADER, L.V_LEAD_SUIT, L.V_WIN_SEAT, L.V_WIN_FACE):
        view[k] = -1

    def measure():
        rv = view.copy()
        search.rollout(table, 0, hands.copy(), rv, rules, 0, 9, False)  # the heuristic plays the deal out
        taken = [int(t) for t in rv[L.V_TAKEN:L.V_TAKEN + 2]]
        ds = np.zeros(L.MAX_SEATS, dtype=np.int64)
        kernel.deal_scores(rv[L.V_TAKEN:L.V_TAKEN + L.MAX_SEATS], 2, 0, -1, 95, 0, False, rules, ds)
        pts = np.array([[taken[0]]], dtype=np.int64)
        return {"taken": taken, "rollout": float(search.deal_value(rv, rules, 0, 0, 0.0)),
                "estimate": float(search._contract_value(pts, 95, 0, rules, view, 0, 1, 0.0)),
                "kernel": [int(ds[0]), int(ds[1])]}

    out = {"before": measure()}
    core.contract_score = lambda points, bid, rules: points  # the rule changed in one place
    out["after"] = measure()
    print(json.dumps(out))
""")


def test_a_scoring_rule_changed_in_core_reaches_kernel_and_rollouts_t_sc_2():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, check=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    before, after = got["before"], got["after"]
    mine, theirs = before["taken"]
    assert before["taken"] == after["taken"] and mine < 95  # the same play; the contract fails
    # T-SC-2 as written: the failed contract scores minus the bid, the defenders their points.
    assert before["kernel"] == [-95, theirs]
    assert before["rollout"] == -95 - theirs
    assert before["estimate"] == -95 - (100 - mine)
    # The changed rule (a failed contract keeps its points), seen by the kernel and by both of
    # the search's valuations without touching them.
    assert after["kernel"] == [mine, theirs]
    assert after["rollout"] == mine - theirs
    assert after["estimate"] == mine - (100 - mine)
