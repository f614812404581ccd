"""The floor of Gin's rule mechanics that the kernel and the search's rollouts share: written once,
imported by both, so a rollout plans under the rules the game is played by (a test changes a rule
here and sees the rollouts follow: tests/test_gin_core.py).

Callers reach these functions as attributes of this module (``core.knock_result``), not imported
names, so a test can stand a changed rule in for one of them.
"""

from __future__ import annotations

from simcards.games.gin.jit import internal
from simcards.games.gin.layout import O_GIN, O_KNOCK, O_TIE, O_UNDERCUT
from simcards.games.gin.rules import R_GIN, R_TIE_UNDERCUT, R_UNDERCUT

KNOCKER, NOBODY, DEFENDER = 1, 0, -1  # who scores a knock (``knock_result``)


@internal
def knock_result(k_dw, d_dw, rules):
    """G-SC-1..4: (outcome, who scores: KNOCKER / DEFENDER / NOBODY, points before any stake) of a
    knock laid with deadwood ``k_dw`` (0: gin) against the defender's ``d_dw`` (after lay-offs;
    none on gin, G-LAY-1)."""
    if k_dw == 0:  # G-SC-4: gin is never undercut
        return O_GIN, KNOCKER, rules[R_GIN] + d_dw
    if k_dw < d_dw:  # G-SC-2
        return O_KNOCK, KNOCKER, d_dw - k_dw
    if k_dw == d_dw and rules[R_TIE_UNDERCUT] == 0:  # G-SC-3 option: a tie scores 0-0
        return O_TIE, NOBODY, 0
    return O_UNDERCUT, DEFENDER, k_dw - d_dw + rules[R_UNDERCUT]  # G-SC-3: undercut
