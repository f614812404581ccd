"""The floor of Gin's rule mechanics (simcards/games/gin/core.py) is the one place a rule is written:
change a scoring rule there (G-SC-4, the gin bonus) and both the kernel's hand score and the search's
rollouts (``mc``) follow. The change is made in a subprocess with numba's JIT off, by standing a
changed ``core.knock_result`` in for the real one, as a module attribute the callers read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import numpy as np

from simcards.games.gin import core, kernel, search
from simcards.games.gin import layout as L
from simcards.games.gin.game import GAME
from simcards.games.gin.melds import SCRATCH_SIZE, deadwood
from simcards.games.gin.params import NEVER
from simcards.games.gin.rules import R_GIN

rules = GAME.build_rules("standard").encode()


def mask(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return np.int64(m)


# the searching player holds gin (A-2-3-4 of suit 0, 5-6-7 of suit 1, three kings); it draws a 9 of
# suit 3 from the stock, throws it and goes gin (G-SC-4) against a hand of loose cards
me = mask([0, 1, 2, 3, 13 + 4, 13 + 5, 13 + 6, 12, 13 + 12, 26 + 12])
opp = mask([26 + 0, 26 + 2, 26 + 4, 26 + 6, 26 + 8, 39 + 1, 39 + 3, 39 + 5, 39 + 10, 13 + 9])
stock = np.array([39 + 11, 13 + 10, 39 + 8], dtype=np.int64)  # drawn from the end: the 9 of suit 3 first


def rollout():
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    ends = np.zeros((search.ENDS_ROWS, 14), dtype=np.int64)
    idx = np.zeros(search.ENDS_ROWS, dtype=np.int64)
    plan = search.Plan(rules, 0, 10, stock, 3, scratch, ends, idx, NEVER, NEVER, NEVER, 0.0, 0.0)
    return search.rollout(plan, me, opp, np.int64(0), deadwood(opp, 0), np.int64(-1), 0, 0, 1, 0, 0)


def kernel_points():
    hres = np.zeros(kernel.HR_SIZE, dtype=np.int64)
    kernel.hand_score(0, 0, deadwood(opp, 0), rules, hres)
    return int(hres[kernel.HR_POINTS]), int(hres[kernel.HR_OUTCOME])


before = (int(rollout()), kernel_points())
assert before[0] == rules[R_GIN] + deadwood(opp, 0), before
assert before[1] == (before[0], L.O_GIN), before

real = core.knock_result


def gin_bonus_plus_1000(k_dw, d_dw, rules):
    outcome, side, points = real(k_dw, d_dw, rules)
    return outcome, side, points + (1000 if outcome == L.O_GIN else 0)


core.knock_result = gin_bonus_plus_1000
after = (int(rollout()), kernel_points())
print(before, after)
assert after[0] == before[0] + 1000, (before, after)
assert after[1] == (before[1][0] + 1000, L.O_GIN), (before, after)
"""


def test_a_scoring_rule_changed_in_core_reaches_the_rollouts_and_the_kernel():  # G-SC-4, G-SC-1
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, cwd=ROOT)
    assert res.returncode == 0, res.stderr[-3000:]
