"""The game-win value table (``simcards.table.value``): the dynamic programme against closed
forms on toy hand laws, the two sides' values summing to one, the law read off self-play, and
the disk cache (G-GAME-1: the first side to reach the target wins; G-DEAL-1: who deals next)."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.errors import SimcardsError
from simcards.table.value import HandLaw, WinTable, hand_law, solve, win_table


def law(rows, same):
    """A law from (dealer's gain, other's gain, probability) rows; ``same``: P(the dealer's side
    deals again) for every row."""
    g = np.array([(a, b) for a, b, _ in rows], dtype=np.int64)
    p = np.array([x for _, _, x in rows])
    return HandLaw(g, p, np.full(len(rows), same), 0)


def test_one_hand_to_the_target_is_the_hand_law():
    """Target 1: the game is the first scoring hand; a void hand (0, 0) is dealt again."""
    v = solve(law([(1, 0, 0.3), (0, 1, 0.5), (0, 0, 0.2)], same=1.0), 1)
    assert v[0, 0, 1] == pytest.approx(0.3 / 0.8, abs=1e-9)
    assert v[0, 0, 0] == pytest.approx(0.5 / 0.8, abs=1e-9)


def test_two_hands_with_the_deal_alternating():
    """Target 2, one point a hand, the deal alternating (same = 0): the dealer wins a hand with
    p. Enumerated: from 0-0 with me dealing, I win the game with p*q' + ... (three-hand paths)."""
    p = 0.6
    v = solve(law([(1, 0, p), (0, 1, 1 - p)], same=0.0), 2)
    # me deals hand 1 (win p), the other deals hand 2 (I win it 1-p), me deals hand 3 (p)
    a, b = p, 1 - p  # P(I win a hand I deal), P(I win a hand the other deals)
    exact = a * b + a * (1 - b) * a + (1 - a) * b * a
    assert v[0, 0, 1] == pytest.approx(exact, abs=1e-9)
    assert v[1, 1, 1] == pytest.approx(a, abs=1e-9) and v[1, 1, 0] == pytest.approx(b, abs=1e-9)


def test_the_two_sides_values_sum_to_one():
    """Symmetric law: P(me wins | a, b, me deals) + P(the other wins | b, a, it deals) = 1."""
    rng = np.random.default_rng(0)
    rows = [(int(x), int(y), float(w)) for x, y, w in zip(rng.integers(0, 30, 40), rng.integers(0, 30, 40),
                                                          rng.random(40))]
    rows = [(x, 0, w) if k % 2 else (0, y, w) for k, (x, y, w) in enumerate(rows)] + [(0, 0, 0.5)]
    total = sum(w for *_, w in rows)
    rows = [(x, y, w / total) for x, y, w in rows]
    v = solve(law(rows, same=0.4), 50)
    assert np.allclose(v[:, :, 1] + v[:, :, 0].T, 1.0, atol=1e-8)
    assert ((v >= 0) & (v <= 1)).all()
    assert (np.diff(v[:, 10, 1]) >= -1e-12).all()  # more points never hurt: gains are never negative


def test_the_law_from_hands_reads_the_next_dealer():
    """Loser deals (Gin's default next_dealer): after the dealer's side wins the other deals."""
    games = [0, 0, 0, 1]
    dealer = [1, 1, 0, 0]
    gains = [[20, 0], [0, 10], [0, 5], [0, 0]]
    lw, rates = hand_law(games, dealer, gains)
    assert rates["1"] == 1.0  # hand 1: seat 1 dealt and seat 0 won; seat 1 (the loser) deals hand 2
    assert rates["0"] == 0.0  # hand 2: seat 1 dealt and won; seat 0 deals hand 3
    assert lw.p.sum() == pytest.approx(1.0) and lw.hands == 4


def test_the_gin_table_is_cached_and_refuses_what_it_does_not_fit(tmp_path, monkeypatch):
    from simcards.spec import RunSpec

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # cache_root(): the table's file goes here
    rules = RunSpec.resolve("gin", rules={"game_target": 30}).rules
    first = win_table("gin", rules, games=300)
    assert list((tmp_path / "value").glob("gin-*.npz"))
    again = win_table("gin", rules, games=300)
    assert isinstance(again, WinTable) and np.array_equal(first.values, again.values)
    assert first.values.shape == (30, 30, 2)
    assert first.p_win(30, 10, False) == 1.0 and first.p_win(10, 35, True) == 0.0
    with pytest.raises(SimcardsError, match="two players"):
        win_table("gin", RunSpec.resolve("gin", variant="hollywood").rules, games=10)
    with pytest.raises(SimcardsError, match="no game-win value table"):
        win_table("yaniv", None)
