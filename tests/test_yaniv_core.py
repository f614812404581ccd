"""The floor (simcards/games/yaniv/core.py): the rule mechanics the kernel, the strategies and the
search's rollouts share. A scoring rule changed in core.py is the rule the rollouts plan with."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np

from simcards.games.yaniv import core
from simcards.games.yaniv import layout as L
from simcards.games.yaniv.rules import preset

# Run with the jit off, so that a rule can be changed the way a developer changes it: in core.py
# alone (here: the module attribute every caller reaches the rule through).
ROLLOUT_FOLLOWS = textwrap.dedent("""
    import numpy as np
    from simcards.games.yaniv import core, search
    from simcards.games.yaniv import layout as L
    from simcards.games.yaniv.params import THRESHOLD
    from simcards.games.yaniv.rules import preset

    rules = preset("israeli").encode()
    params = np.array([p.default for p in THRESHOLD] + [0.0] * 12)  # threshold's defaults (call=5)

    def table():
        # seat 0 (me) holds A-clubs 2-clubs = 3 and calls at once; seat 1 holds the A-diamonds = 1: an Asaf
        hands = np.zeros((L.MAX_PLAYERS, L.MAX_HAND), dtype=np.int64)
        hand_n = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
        hands[0, :2] = [0, 1]
        hands[1, :1] = [13]
        hand_n[:2] = [2, 1]
        view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
        view[L.V_PLAYERS] = 2
        view[L.V_ALIVE:L.V_ALIVE + 2] = 1
        return hands, hand_n, view

    def rollout():  # seat 0 to move, 10 discards made: it calls (threshold, call=5) and the round is scored
        hands, hand_n, view = table()
        t = search.new_table()
        t.hands[:] = hands
        t.hand_n[:] = hand_n
        return search.rollout(0, 0, 10, t, 20, 1, view, rules, params, params, 4)

    before = (search.round_value(0, 0, *table(), rules), rollout())
    rule = core.score_round

    def harsher(caller, totals, alive, players, rules, round_scores):  # an Asaf costs 10 more
        asaf = rule(caller, totals, alive, players, rules, round_scores)
        if asaf:
            round_scores[caller] += 10
        return asaf

    core.score_round = harsher
    after = (search.round_value(0, 0, *table(), rules), rollout())
    print(*before, *after)
""")


def test_a_scoring_rule_changed_in_core_is_the_rule_the_rollouts_play():
    """Y-SC-2: the caller's Asaf (3 against 1) costs 3 + 30 in the israeli rules; with the rule
    changed in core.py alone to cost 10 more, mc's round value and a whole rollout see the new
    cost. A copy of the scoring anywhere in search.py would leave them at the old one."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", ROLLOUT_FOLLOWS], env=env, capture_output=True, text=True,
                         check=True, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    value, rolled, value2, rolled2 = (int(x) for x in out.stdout.split())
    assert value == rolled == 1 - 33  # the opponent adds its 1, I add 3 + 30 (Y-SC-2)
    assert value2 == rolled2 == 1 - 43


def test_score_round_asaf_and_a_good_call():
    """Y-SC-1/2, straight from the floor."""
    rules = preset("israeli").encode()
    alive = np.ones(L.MAX_PLAYERS, dtype=np.bool_)
    out = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    totals = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    totals[:3] = [3, 1, 9]
    assert core.score_round(0, totals, alive, 3, rules, out)  # seat 1 holds 1 <= 3: Asaf
    assert out[:3].tolist() == [33, 1, 9]  # the others add their hands (israeli)
    totals[1] = 5
    assert not core.score_round(0, totals, alive, 3, rules, out)  # Y-SC-1: the others add their hands
    assert out[:3].tolist() == [0, 5, 9]


def test_deal_gives_five_cards_each_and_turns_one_up():
    """Y-DEAL-1/2: five cards to each player still in, the next card face up, the rest the stock."""
    from simcards.rng import new_state

    rules = preset("israeli").encode()
    hands = np.zeros((L.MAX_PLAYERS, L.MAX_HAND), dtype=np.int64)
    hand_n = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    stock = np.zeros(L.DECK_MAX, dtype=np.int64)
    prev = np.zeros(L.MAX_HAND, dtype=np.int64)
    alive = np.array([True, False, True, True] + [False] * (L.MAX_PLAYERS - 4))
    rng = np.array([new_state(1, 2)[0]], dtype=np.uint64)
    n = core.deal(rules, rng, 4, alive, hands, hand_n, stock, prev)
    assert hand_n[:4].tolist() == [5, 0, 5, 5]
    cards = [*stock[:n], prev[0], *(c for p in (0, 2, 3) for c in hands[p, :5])]
    assert sorted(cards) == list(range(54))  # the israeli deck: 52 cards and two jokers (Y-CARD-1)
    assert all(list(hands[p, :5]) == sorted(hands[p, :5]) for p in (0, 2, 3))
