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
    with pytest.raises(SimcardsError, match="unknown game .poker."):
        win_table("poker", None)
    with pytest.raises(SimcardsError, match="two players without Kluft"):
        win_table("yaniv", RunSpec.resolve("yaniv", variant="kluft", players=2).rules, games=10)


# ----- the race both ways: a hole, negative gains, ties and resets (Two Hundred's T-END-1/2) -------------
from simcards.table.value import TIE_DEALER, TIE_HIGHER, TIE_OTHER, Race, lattice, solve_race  # noqa: E402


def tie_law(rows, same):
    """(dealer's gain, other's gain, probability, tie rule) rows."""
    g = np.array([(a, b) for a, b, _, _ in rows], dtype=np.int64)
    return HandLaw(g, np.array([r[2] for r in rows]), np.full(len(rows), same), 0,
                   np.array([r[3] for r in rows], dtype=np.int64))


def brute_force(lw: HandLaw, race: Race) -> np.ndarray:
    """The same values as one linear system over every (a, b, d) state, written out state by state."""
    st = race.step
    live = list(range(race.lo, race.hi + 1, st))
    idx = {(a, b, d): k for k, (a, b, d) in enumerate((a, b, d) for a in live for b in live for d in (0, 1))}
    m = np.eye(len(idx))
    rhs = np.zeros(len(idx))
    ties = lw.tie if lw.tie is not None else [TIE_HIGHER] * len(lw.p)
    for (a, b, d), k in idx.items():
        for (x, y), p, s, t in zip(lw.gains, lw.p, lw.same, ties):
            ga, gb = (x, y) if d == 1 else (y, x)
            na, nb = a + ga, b + gb
            end = race.outcome(int(na), int(nb), int(t), d == 1)
            if end is not None:
                rhs[k] += p * end
                continue
            na, nb = race.reset(int(na)), race.reset(int(nb))
            me_next = s if d == 1 else 1 - s
            m[k, idx[na, nb, 1]] -= p * me_next
            m[k, idx[na, nb, 0]] -= p * (1 - me_next)
    sol = np.linalg.solve(m, rhs)
    out = np.zeros((len(live), len(live), 2))
    for (a, b, d), k in idx.items():
        out[(a - race.lo) // st, (b - race.lo) // st, d] = sol[k]
    return out


def test_a_walk_to_the_target_or_the_hole_is_gamblers_ruin():
    """T-END-1/2: only the dealer's side scores, +1 or -1 with chance p; me deals every hand
    (same = 1): from a, me reaches the target T before the hole -H with the gambler's-ruin chance."""
    p, target, hole = 0.6, 5, -4
    v = solve_race(tie_law([(1, 0, p, TIE_HIGHER), (-1, 0, 1 - p, TIE_HIGHER)], same=1.0),
                   Race(hole + 1, target - 1))
    r = (1 - p) / p
    for a in range(hole + 1, target):
        exact = (1 - r ** (a - hole)) / (1 - r ** (target - hole))
        assert v[a - hole - 1, 0 - hole - 1, 1] == pytest.approx(exact, abs=1e-9)


def test_the_race_both_ways_matches_a_brute_force_solve_and_the_sides_sum_to_one():
    """Random laws with negative gains, both-over ties by the dealer or the other side, and a
    reset: the FFT value iteration equals the linear solve, and P(me) + P(the other) = 1."""
    rng = np.random.default_rng(3)
    for trial in range(4):
        rows = []
        for _ in range(12):
            x, y = (int(v) for v in rng.integers(-3, 5, 2) * 2)
            rows.append((x, y, float(rng.random()), int(rng.integers(0, 3))))
        total = sum(r[2] for r in rows)
        rows = [(x, y, w / total, t) for x, y, w, t in rows]
        lw = tie_law(rows, same=float(rng.random()))
        race = lattice(lw, Race(-7, 9, ((6, 0),) if trial % 2 else ()))
        assert race.step == 2 and (race.lo, race.hi) == (-6, 8)
        v = solve_race(lw, race)
        assert np.allclose(v, brute_force(lw, race), atol=1e-8)
        # the other side's view: its chance is one minus mine at the mirrored state
        assert np.allclose(v[:, :, 1] + v[:, :, 0].T, 1.0, atol=1e-8)


def test_the_mirrored_sides_sum_to_one_with_ties_by_role():
    """A tie by the dealer's side is symmetric between the sides: the two values sum to one."""
    rows = [(10, -5, 0.3, TIE_DEALER), (-5, 10, 0.3, TIE_OTHER), (5, 5, 0.2, TIE_DEALER), (0, 0, 0.2, TIE_HIGHER)]
    v = solve_race(tie_law(rows, same=0.0), Race(-20, 20, (), 5))
    assert np.allclose(v[:, :, 1] + v[:, :, 0].T, 1.0, atol=1e-9) and ((v >= 0) & (v <= 1)).all()


def test_two_hundred_table_reads_the_end_of_a_deal():
    """T-END-1 (both sides at 200 in one deal: the contract team wins), T-END-2 (a side at -200
    loses; 200 against -200: the side at 200 wins, the Decision), scores below zero (T-SC-3)."""
    from simcards.spec import RunSpec

    rules = RunSpec.resolve("two-hundred").rules
    t = win_table("two-hundred", rules, games=200, cache=False)
    assert t.race is not None and (t.race.lo, t.race.hi, t.race.step) == (-195, 195, 5)
    assert t.after_hand(180, 190, 30, 20, True, TIE_DEALER) == 1.0  # me dealt and contracted
    assert t.after_hand(180, 190, 30, 20, True, TIE_OTHER) == 0.0
    assert t.after_hand(-180, 0, -50, 30, False, TIE_OTHER) == 0.0
    assert t.after_hand(190, -190, 20, -20, True, TIE_OTHER) == 1.0
    assert 0.0 < t.p_win(-150, 0, True) < t.p_win(0, 0, True) < t.p_win(150, 0, True) < 1.0
    v = t.values
    assert np.allclose(v[:, :, 1] + v[:, :, 0].T, 1.0, atol=1e-8)
    with pytest.raises(SimcardsError, match="two sides"):
        win_table("two-hundred", RunSpec.resolve("two-hundred", variant="cutthroat").rules, games=5)


def test_two_builders_of_one_table_both_save_it(tmp_path, monkeypatch):
    """Two processes building the same value table at once (the test workers, parallel jobs on one
    cache) each save it whole: neither renames the other's file away from under it."""
    import threading

    from simcards.table import value

    both_written = threading.Barrier(2)
    savez = np.savez

    def savez_then_wait(file, **arrays):
        savez(file, **arrays)
        both_written.wait(timeout=10)  # both files written before either is renamed into place

    monkeypatch.setattr(value.np, "savez", savez_then_wait)
    path = tmp_path / "value" / "gin-0.npz"
    errors: list[BaseException] = []

    def build(k: int) -> None:
        try:
            value._save(path, values=np.arange(5) + k)
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=build, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert not errors, errors
    with np.load(path) as z:
        assert list(z["values"]) in ([0, 1, 2, 3, 4], [1, 2, 3, 4, 5])
    assert sorted(p.name for p in path.parent.iterdir()) == ["gin-0.npz"]
