"""Gin melds and deadwood (G-CARD-1, G-MELD-1..4), lay-offs (G-LAY-0, G-LAY-1) and the public
``min_deadwood`` / ``best_melds`` API.

The fast solver (set branching + lane tables) is checked against an independent brute force
that enumerates every family of pairwise-disjoint melds, on more than 100,000 random hands, and
against an exact count of all gin hands."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit

from simcards.cards import parse_cards
from simcards.errors import SimcardsError
from simcards.games.gin import best_melds, min_deadwood
from simcards.games.gin import rules as R
from simcards.games.gin.melds import (
    CORNER,
    SCRATCH_SIZE,
    VALUES,
    VALUES_MV,
    best_arrangement,
    best_layoff,
    deadwood,
    lanes_melded,
    removal_deadwoods,
)
from simcards.games.gin.reference import arrangement as ref_arrangement
from simcards.games.gin.reference import layoff as ref_layoff
from simcards.rng import seed_state, shuffle


# ----- an independent brute force: every family of disjoint melds --------------------------------
@njit
def all_melds(mask, out, corner=False):
    """Every meld inside ``mask`` (G-MELD-1): runs of 3+ in a suit, sets of 3 or 4 of a rank.
    ``corner`` (G-V-TED): runs may also turn the corner (Q-K-A, K-A-2, ...)."""
    k = 0
    for s in range(4):
        for lo in range(13):
            m = np.int64(0)
            for length in range(1, 14 if corner else 14 - lo):
                hi = (lo + length - 1) % 13
                b = np.int64(1) << (s * 13 + hi)
                if not mask & b:
                    break
                m |= b
                if length >= 3 and not (corner and length == 13 and lo > 0):  # the whole suit once
                    out[k] = m
                    k += 1
    for r in range(13):
        for drop in range(-1, 4):  # -1: all four suits; s: the three without suit s
            m = np.int64(0)
            for s in range(4):
                if s != drop:
                    m |= np.int64(1) << (s * 13 + r)
            if mask & m == m:
                out[k] = m
                k += 1
    return k


@njit
def value_of(mask, values=VALUES):
    t = 0
    for c in range(52):
        if mask >> c & 1:
            t += values[c]
    return t


@njit
def brute_deadwood(mask, corner=False, values=VALUES):
    """Total value minus the most value any set of pairwise-disjoint melds covers (G-MELD-2/4),
    by exhaustive depth-first search over include/skip for every meld."""
    melds = np.zeros(512, dtype=np.int64)
    vals = np.zeros(512, dtype=np.int64)
    k = all_melds(mask, melds, corner)
    for i in range(k):
        vals[i] = value_of(melds[i], values)
    best = 0
    # stack of (next meld index, used mask, covered value)
    st_i = np.zeros(512, dtype=np.int64)
    st_m = np.zeros(512, dtype=np.int64)
    st_v = np.zeros(512, dtype=np.int64)
    top = 1
    while top > 0:
        top -= 1
        i, used, v = st_i[top], st_m[top], st_v[top]
        if v > best:
            best = v
        if i >= k:
            continue
        st_i[top], st_m[top], st_v[top] = i + 1, used, v  # skip meld i
        top += 1
        if melds[i] & used == 0:  # take meld i
            st_i[top], st_m[top], st_v[top] = i + 1, used | melds[i], v + vals[i]
            top += 1
    return value_of(mask, values) - best


@njit
def compare_random(seed, n, size, out_bad):
    st = np.zeros(1, dtype=np.uint64)
    seed_state(st, seed, 0)
    deck = np.arange(52)
    bad = 0
    for _i in range(n):
        shuffle(st, deck, 52)
        m = np.int64(0)
        for j in range(size):
            m |= np.int64(1) << deck[j]
        if deadwood(m) != brute_deadwood(m):
            if bad < out_bad.size:
                out_bad[bad] = m
            bad += 1
    return bad


@njit
def compare_clustered(seed, n, size, out_bad):
    """Hands drawn from 5 adjacent ranks (20 cards): sets, 4-of-a-kinds and crossing runs galore."""
    st = np.zeros(1, dtype=np.uint64)
    seed_state(st, seed, 1)
    pool = np.zeros(20, dtype=np.int64)
    bad = 0
    for i in range(n):
        lo = i % 9
        for j in range(20):
            pool[j] = (j % 4) * 13 + lo + j // 4
        shuffle(st, pool, 20)
        m = np.int64(0)
        for j in range(size):
            m |= np.int64(1) << pool[j]
        if deadwood(m) != brute_deadwood(m):
            if bad < out_bad.size:
                out_bad[bad] = m
            bad += 1
    return bad


def test_deadwood_matches_brute_force_on_100k_random_hands_g_meld_4():
    # G-MELD-1..4: the fast minimum equals an exhaustive search over disjoint meld families.
    bad = np.zeros(5, dtype=np.int64)
    assert compare_random(2024, 60_000, 10, bad) == 0, bad
    assert compare_random(2025, 40_000, 11, bad) == 0, bad
    assert compare_clustered(2026, 30_000, 10, bad) == 0, bad
    assert compare_clustered(2027, 30_000, 11, bad) == 0, bad


@njit
def compare_variant(seed, n, size, mv, near_corner, out_bad):
    """Deadwood and every one-card removal under meld variant ``mv`` against the brute force;
    ``near_corner`` draws the hands from the 24 cards J-Q-K-A-2-3 (runs turning the corner)."""
    st = np.zeros(1, dtype=np.uint64)
    seed_state(st, seed, 7)
    pool = np.arange(52)
    if near_corner:
        pool = np.zeros(24, dtype=np.int64)
        for j in range(24):
            pool[j] = (j % 4) * 13 + (10 + j // 4) % 13
    corner = CORNER[mv] != 0
    values = VALUES_MV[mv]
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    bad = 0
    for _i in range(n):
        shuffle(st, pool, len(pool))
        m = np.int64(0)
        for j in range(size):
            m |= np.int64(1) << pool[j]
        dw = deadwood(m, mv)
        ok = dw == brute_deadwood(m, corner, values) and removal_deadwoods(m, scratch, mv) == dw
        if size == 11:
            for j in range(size):
                if scratch[pool[j]] != brute_deadwood(m & ~(np.int64(1) << pool[j]), corner, values):
                    ok = False
        if not ok:
            if bad < out_bad.size:
                out_bad[bad] = m
            bad += 1
    return bad


@pytest.mark.parametrize("mv", [1, 2, 3])
def test_deadwood_matches_brute_force_under_tedesco_meld_rules_g_v_ted_g_meld_4(mv):
    # G-V-TED: runs may turn the corner (Q-K-A, K-A-2) and an unmelded ace counts 15 (meld
    # variants 1: ace 15, 2: corner runs, 3: both). The fast minimum and the one-pass removal
    # deadwoods equal the exhaustive search, on random hands and on hands crowded at the corner.
    bad = np.zeros(5, dtype=np.int64)
    assert compare_variant(31 + mv, 12_000, 10, mv, False, bad) == 0, bad
    assert compare_variant(41 + mv, 6_000, 11, mv, False, bad) == 0, bad
    assert compare_variant(51 + mv, 12_000, 10, mv, True, bad) == 0, bad
    assert compare_variant(61 + mv, 6_000, 11, mv, True, bad) == 0, bad


@njit
def check_removals(seed, n, size=11, ranks=5):
    """Hands of ``size`` cards drawn from ``ranks`` consecutive ranks in four suits (dense, so sets
    and runs cross): the one pass against the brute force, every removal."""
    st = np.zeros(1, dtype=np.uint64)
    seed_state(st, seed, 2)
    pool = np.zeros(4 * ranks, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    bad = 0
    for i in range(n):
        lo = i % (14 - ranks)
        for j in range(4 * ranks):
            pool[j] = (j % 4) * 13 + lo + j // 4
        shuffle(st, pool, 4 * ranks)
        m = np.int64(0)
        for j in range(size):
            m |= np.int64(1) << pool[j]
        if removal_deadwoods(m, scratch) != deadwood(m):
            bad += 1
        for j in range(size):
            if scratch[pool[j]] != brute_deadwood(m & ~(np.int64(1) << pool[j])):
                bad += 1
    return bad


def test_removal_deadwoods_match_brute_force_g_meld_4():
    # The one-pass "deadwood after each discard" the kernel offers equals the brute force.
    assert check_removals(99, 20_000) == 0


def test_removal_deadwoods_of_twelve_cards_g_v_deal11():
    # G-V-DEAL11 deals 11: a hand holds 12 cards before its discard and may hold four ranks of 3+
    # cards (A-2-3-4 in three suits: the pass once read three ranks and priced the 2's removal at 7);
    # dense 12-card hands from four ranks (the pass once priced 12 of 36,000 removals wrong)
    mask = np.int64(0)
    for r in range(4):
        for s in range(3):
            mask |= np.int64(1) << (13 * s + r)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    assert removal_deadwoods(mask, scratch) == deadwood(mask) == 0
    assert all(scratch[c] == brute_deadwood(mask & ~(np.int64(1) << c)) for c in range(52) if mask >> c & 1)
    assert check_removals(7, 3_000, 12, 4) == 0


# ----- an exact fact: the number of gin hands ------------------------------------------------------
@njit
def gin_hand_masks():
    """Every 10-card hand that splits into disjoint melds (at most three melds of 3+ cards)."""
    melds = np.zeros(512, dtype=np.int64)
    k = all_melds((np.int64(1) << 52) - 1, melds)
    sizes = np.zeros(k, dtype=np.int64)
    for i in range(k):
        sizes[i] = bin_count(melds[i])
    out = np.zeros(4_000_000, dtype=np.int64)
    n = 0
    for i in range(k):
        if sizes[i] == 10:
            out[n] = melds[i]
            n += 1
        for j in range(i + 1, k):
            if melds[i] & melds[j]:
                continue
            sij = sizes[i] + sizes[j]
            if sij == 10:
                out[n] = melds[i] | melds[j]
                n += 1
            elif sij <= 7:
                for m in range(j + 1, k):
                    if sij + sizes[m] == 10 and (melds[m] & (melds[i] | melds[j])) == 0:
                        out[n] = melds[i] | melds[j] | melds[m]
                        n += 1
    return out[:n]


@njit
def bin_count(m):
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@njit
def all_zero(masks):
    bad = 0
    for m in masks:
        if deadwood(m) != 0:
            bad += 1
    return bad


@njit
def count_gin(seed, n):
    st = np.zeros(1, dtype=np.uint64)
    seed_state(st, seed, 3)
    deck = np.arange(52)
    hits = 0
    for _i in range(n):
        shuffle(st, deck, 52)
        m = np.int64(0)
        for j in range(10):
            m |= np.int64(1) << deck[j]
        if deadwood(m) == 0:
            hits += 1
    return hits


@pytest.mark.slow
def test_exact_gin_probability_g_gin_1():
    # G-GIN-1 / G-MELD-4: count the gin hands exactly (union of <= 3 disjoint melds), check the
    # solver gives each 0, and that the solver's gin rate on random hands matches the exact
    # probability within 4.5 standard errors.
    masks = np.unique(gin_hand_masks())
    assert all_zero(masks) == 0
    p = len(masks) / math.comb(52, 10)
    assert len(masks) == 136_694  # the exact count this enumeration gives (p = 8.64e-6, about 1 in 115,700)
    n = 10_000_000
    hits = count_gin(11, n)
    se = math.sqrt(p * (1 - p) / n)
    assert abs(hits / n - p) < 4.5 * se, (hits / n, p)


# ----- G-MELD scenarios ------------------------------------------------------------------------------
def test_card_values_g_card_1():
    # G-CARD-1: A=1, 2..10 face value, J/Q/K=10.
    assert min_deadwood("As 2h 4d 6c 8s Th Qd 9c 7h 5d") == 1 + 2 + 4 + 6 + 8 + 10 + 10 + 9 + 7 + 5
    assert VALUES[parse_cards(["As"])[0]] == 1
    assert VALUES[parse_cards(["Ts"])[0]] == 10
    assert [VALUES[parse_cards([f"{r}h"])[0]] for r in "JQK"] == [10, 10, 10]
    assert VALUES[parse_cards(["7d"])[0]] == 7


def test_issue_example_g_meld_1():
    # G-MELD-1: A-2-3♠ run, 7-7-7 set, J-Q-K♦ run; 9♣ is the deadwood.
    assert min_deadwood("As 2s 3s 7h 7d 7c Kd Qd Jd 9c") == 9
    arr = best_melds("As 2s 3s 7h 7d 7c Kd Qd Jd 9c")
    assert arr.deadwood == 9 and arr.deadwood_cards == ["9c"]
    assert sorted(map(sorted, arr.melds)) == sorted(map(sorted, [["As", "2s", "3s"], ["7h", "7d", "7c"],
                                                                  ["Jd", "Qd", "Kd"]]))


def test_long_runs_are_melds_g_meld_1():
    # G-MELD-1 Decision: runs of any length; two 5-card runs are gin.
    assert min_deadwood("As 2s 3s 4s 5s 9h Th Jh Qh Kh") == 0
    assert min_deadwood("As 2s 3s 4s 5s 6s 7s 8s 9s Ts") == 0


def test_card_in_one_meld_only_g_meld_2():
    # G-MELD-2: 7♠ cannot be in both the set 7♠7♥7♦ and the run 5-6-7♠:
    #   7s 7h 7d | 5s 6s  → best: set 7h7d + ... no: 3-set 7s7h7d leaves 5s 6s (11)
    #   or run 5s6s7s leaves 7h 7d (14). Minimum 11 + the rest.
    hand = "7s 7h 7d 5s 6s Kc Qc 2d 9h 3c"
    rest = 10 + 10 + 2 + 9 + 3
    assert min_deadwood(hand) == rest + 11
    # with the fourth 7 the set 7h7d7c and the run 5-6-7♠ coexist
    assert min_deadwood("7s 7h 7d 7c 5s 6s Kc Qc 2d 9h") == 10 + 10 + 2 + 9


def test_ace_low_only_g_meld_3():
    # G-MELD-3: Q-K-A is not a run; A-2-3 is.
    assert min_deadwood("Qs Ks As 2h 4h 6h 8h Td 3c 5c") == 10 + 10 + 1 + 2 + 4 + 6 + 8 + 10 + 3 + 5
    assert min_deadwood("As 2s 3s 2h 4h 6h 8h Td 3c 5c") == 2 + 4 + 6 + 8 + 10 + 3 + 5


def test_minimum_over_arrangements_g_meld_4():
    # G-MELD-4: 4-of-a-kind vs. 3-set + run — the solver picks the lower deadwood (16, not 33).
    arr = best_melds("7s 7h 7d 7c 8s 9s 5h 6h 2c 3d")
    assert arr.deadwood == 16
    assert ["7s", "8s", "9s"] in arr.melds and ["7h", "7d", "7c"] in arr.melds


def test_eleven_card_hands_g_meld_4():
    # 11 cards (after a draw) are solved exactly too.
    arr = best_melds("7s 7h 7d 7c 8s 9s 5h 6h 2c 3d Ts")
    assert arr.deadwood == 5 and min_deadwood("7s 7h 7d 7c 8s 9s 5h 6h 2c 3d Ts") == 5


def test_tie_break_prefers_runs_g_lay_0():
    # G-LAY-0 Decision: equal deadwood → the first arrangement with "no set" tried first, so the
    # three runs are laid rather than the three sets.
    arr = best_melds("7s 8s 9s 7h 8h 9h 7d 8d 9d Kc")
    assert arr.deadwood == 10
    assert arr.melds == [["7s", "8s", "9s"], ["7h", "8h", "9h"], ["7d", "8d", "9d"]]
    dw, sets = best_arrangement(np.int64(sum(1 << c for c in parse_cards("7s 8s 9s 7h 8h 9h 7d 8d 9d Kc"))))
    assert dw == 10 and sets == 0


def test_reference_solver_agrees_with_kernel_solver_g_meld_4():
    rng = np.random.default_rng(5)
    for _ in range(3000):
        cards = [int(c) for c in rng.choice(52, size=int(rng.integers(10, 12)), replace=False)]
        mask = sum(1 << c for c in cards)
        dw, sets = best_arrangement(np.int64(mask))
        rdw, rsets, _ = ref_arrangement(frozenset(cards))
        assert dw == rdw
        assert sets == sum(1 << c for s in rsets for c in s)  # same tie-break


# ----- the public API: bad input ---------------------------------------------------------------------
@pytest.mark.parametrize("bad, what", [
    ("As 2s 3s 7h 7d 7c Kd Qd Jd As", "duplicate"),
    ("As 2s 3s 7h 7d 7c Kd Qd Jd", "10 or 11"),
    ("As 2s 3s 7h 7d 7c Kd Qd Jd 9c 9d 9h", "10 or 11"),
    ("As 2s 3s 7h 7d 7c Kd Qd Jd Xx", "bad card code"),
    ("As 2s 3s 7h 7d 7c Kd Qd Jd Jk", "joker"),
    ([0, 1, 2, 3, 4, 5, 6, 7, 8, 99], "no card has id"),
])
def test_bad_hands_raise_clear_errors(bad, what):
    for fn in (min_deadwood, best_melds):
        with pytest.raises(SimcardsError, match=what):
            fn(bad)


def test_list_input():
    assert min_deadwood(["As", "2s", "3s", "7h", "7d", "7c", "Kd", "Qd", "Jd", "9c"]) == 9
    ids = parse_cards("As 2s 3s 7h 7d 7c Kd Qd Jd 9c")
    assert min_deadwood(ids) == 9


# ----- lay-offs (G-LAY-1) ---------------------------------------------------------------------------
def _m(text: str) -> int:
    return sum(1 << c for c in parse_cards(text))


def _layoff(knocker: str, defender: str) -> tuple[int, str]:
    k = np.int64(_m(knocker))
    _, sets = best_arrangement(k)
    dw, laid = best_layoff(np.int64(_m(defender)), k, sets, np.zeros((16, 14), np.int64), np.zeros(16, np.int64))
    from simcards.cards import format_cards

    return int(dw), format_cards([c for c in range(52) if int(laid) >> c & 1])


def test_layoff_chain_on_run_g_lay_1():
    # Knocker: 4-5-6♥ run, 9-9-9 set, K♣ 2♣ 3♣ deadwood... (deadwood 10+2+3 = 15 is too much: use A♣)
    # Knocker 4h5h6h 9s9h9d Tc Jc Qc Ac (1). Defender holds 7h 8h (chain up from 6h) and 3h.
    dw, laid = _layoff("4h 5h 6h 9s 9h 9d Tc Jc Qc Ac", "7h 8h 3h Kd Ks 2c 5d 5s 6d 8c")
    assert laid == "3h 7h 8h"  # 8♥ only after 7♥ (a chain), 3♥ below the run
    assert dw == 10 + 10 + 2 + 5 + 5 + 6 + 8


def test_layoff_fourth_card_of_a_set_g_lay_1():
    # Knocker's set 9♠9♥9♦ takes the defender's 9♣.
    dw, laid = _layoff("4h 5h 6h 9s 9h 9d Tc Jc Qc Ac", "9c Kd Ks 2c 5d 5s 6d 8c 2d 3d")
    assert "9c" in laid.split()


def test_no_layoff_onto_deadwood_g_lay_1():
    # The knocker's A♣ is deadwood: the defender's 2♣ cannot go onto it.
    dw, laid = _layoff("4h 5h 6h 9s 9h 9d Tc Jc Qc Ac", "2c Kd Ks 5d 5s 6d 8c 2d 3d 7s")
    assert "2c" not in laid.split()
    assert dw == 2 + 10 + 10 + 5 + 5 + 6 + 8 + 2 + 3 + 7


def test_defender_keeps_own_meld_rather_than_lay_off_g_lay_1():
    # Laying 7♠ onto the knocker's 8-9-10♠ would break the defender's 7♠7♥7♦ set: keep the set.
    dw, laid = _layoff("8s 9s Ts 2h 2d 2c Jd Qd Kd Ah", "7s 7h 7d Kc Qc 3s 4d 5h 6c 9h")
    assert laid == "" and dw == 10 + 10 + 3 + 4 + 5 + 6 + 9


def test_layoff_reference_agrees_with_kernel_g_lay_1():
    # Knocker hands drawn from 5 adjacent ranks (so they often can knock), defenders from the
    # rest of the deck: both engines' lay-off solvers find the same deadwood and the same cards.
    rng = np.random.default_rng(8)
    checked = 0
    while checked < 800:
        lo = int(rng.integers(0, 9))
        pool = [s * 13 + r for s in range(4) for r in range(lo, lo + 5)]
        k = [int(c) for c in rng.choice(pool, size=10, replace=False)]
        kdw, sets = best_arrangement(np.int64(sum(1 << c for c in k)))
        if kdw > 10 or kdw == 0:
            continue
        rest = [c for c in range(52) if c not in k]
        d = [int(c) for c in rng.choice(rest, size=10, replace=False)]
        checked += 1
        dw, laid = best_layoff(np.int64(sum(1 << c for c in d)), np.int64(sum(1 << c for c in k)), sets,
                               np.zeros((16, 14), np.int64), np.zeros(16, np.int64))
        _, rsets, rruns = ref_arrangement(frozenset(k))
        rdw, rlaid = ref_layoff(frozenset(d), rsets, rruns)
        assert dw == rdw and laid == sum(1 << c for c in rlaid)


# ----- property: best_melds is a legal arrangement reaching the minimum -------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hst  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(hst.lists(hst.integers(0, 51), min_size=10, max_size=11, unique=True))
def test_best_melds_is_a_legal_minimum_arrangement_g_meld_1_g_meld_2_g_meld_4(cards):
    arr = best_melds(cards)
    melds = [parse_cards(m) for m in arr.melds]
    used = [c for m in melds for c in m]
    assert len(used) == len(set(used))  # G-MELD-2: a card in at most one meld
    for m in melds:  # G-MELD-1/3: sets of 3-4 of a rank, runs of 3+ consecutive (ace low) in a suit
        ranks, suits = sorted(c % 13 for c in m), {c // 13 for c in m}
        is_set = len(m) in (3, 4) and len(set(ranks)) == 1
        is_run = len(m) >= 3 and len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(m)))
        assert is_set or is_run
    dead = parse_cards(arr.deadwood_cards)
    assert sorted(used + dead) == sorted(cards)
    assert arr.deadwood == sum(VALUES[c] for c in dead) == min_deadwood(cards)  # G-MELD-4


# ----- lay-offs against an independent subset search (standard and Tedesco runs) --------------------
def brute_layoff(defender: list[int], knocker: list[int], mv: int) -> tuple[int, int]:
    """G-LAY-1 by exhaustion: every subset of the defender's cards that may go onto the knocker's
    melds (each card is the missing fourth of a knocker 3-set, or reaches a knocker run through
    other laid cards — round the corner under G-V-TED); the lowest deadwood left, then the most
    cards laid, then the lowest mask."""
    corner = bool(CORNER[mv])
    k_mask = sum(1 << c for c in knocker)
    _, k_sets = best_arrangement(np.int64(k_mask), mv)
    run_cards = {c for c in range(52) if int(lanes_melded(np.int64(k_mask & ~int(k_sets)), mv)) >> c & 1}
    set_cards = [c for c in range(52) if int(k_sets) >> c & 1]
    fourth = {s * 13 + r for r in {c % 13 for c in set_cards} if sum(1 for c in set_cards if c % 13 == r) == 3
              for s in range(4) if s * 13 + r not in set_cards}

    def reaches_run(c: int, laid: set) -> bool:
        s, r = divmod(c, 13)
        for step in (-1, 1):
            q = r
            for _ in range(12):
                q += step
                if corner:
                    q %= 13
                if not 0 <= q < 13:
                    break
                if s * 13 + q in run_cards:
                    return True
                if s * 13 + q not in laid:
                    break
        return False

    suits = {c // 13 for c in run_cards}
    cands = [c for c in defender if c in fourth or c // 13 in suits]
    d_mask = sum(1 << c for c in defender)
    best = None
    for bits in range(1 << len(cands)):
        laid = {cands[i] for i in range(len(cands)) if bits >> i & 1}
        if not all(c in fourth or reaches_run(c, laid) for c in laid):
            continue
        lm = sum(1 << c for c in laid)
        key = (int(brute_deadwood(np.int64(d_mask & ~lm), corner, VALUES_MV[mv])), -len(laid), lm)
        if best is None or key < best:
            best = key
    return best[0], best[2]


@pytest.mark.parametrize("mv, lo", [(0, 0), (0, 8), (3, 10), (3, 11), (2, 9)])
def test_layoffs_match_an_exhaustive_search_g_lay_1_g_v_ted(mv, lo):
    # Knockers from 5 adjacent ranks starting at ``lo`` (mod 13 under Tedesco, so around the corner),
    # defenders from the rest: the kernel's lay-off optimum, the reference engine's and the subset
    # search agree on the deadwood and on the cards laid off.
    rng = np.random.default_rng(100 + mv + lo)
    corner = bool(CORNER[mv])
    checked = laid_some = wrapped = 0
    while checked < 150:
        ranks = [(lo + j) % 13 for j in range(5)] if corner else list(range(lo, lo + 5))
        pool = [s * 13 + r for s in range(4) for r in ranks]
        k = [int(c) for c in rng.choice(pool, size=10, replace=False)]
        kdw, sets = best_arrangement(np.int64(sum(1 << c for c in k)), mv)
        if kdw > 10 or kdw == 0:
            continue
        rest = [c for c in range(52) if c not in k]
        d = [int(c) for c in rng.choice(rest, size=10, replace=False)]
        checked += 1
        dw, laid = best_layoff(np.int64(sum(1 << c for c in d)), np.int64(sum(1 << c for c in k)), sets,
                               np.zeros((16, 14), np.int64), np.zeros(16, np.int64), mv)
        _, rsets, rruns = ref_arrangement(frozenset(k), mv)
        rdw, rlaid = ref_layoff(frozenset(d), rsets, rruns, mv)
        bdw, blaid = brute_layoff(d, k, mv)
        assert dw == rdw == bdw and int(laid) == sum(1 << c for c in rlaid) == blaid
        laid_some += laid != 0
        k_set = set(k)
        wrapped += any(c % 13 in (0, 12) and (c // 13 * 13 + (12 - c % 13)) in k_set | set(rlaid)
                       for c in rlaid)  # an ace laid next to a king, or a king next to an ace
    assert laid_some > 40
    if corner:
        assert wrapped > 5


def test_reference_solver_agrees_with_kernel_solver_under_tedesco_g_v_ted():
    rng = np.random.default_rng(6)
    for mv in (1, 2, 3):
        for _ in range(600):
            cards = [int(c) for c in rng.choice(52, size=int(rng.integers(10, 12)), replace=False)]
            dw, sets = best_arrangement(np.int64(sum(1 << c for c in cards)), mv)
            rdw, rsets, _ = ref_arrangement(frozenset(cards), mv)
            assert dw == rdw and sets == sum(1 << c for s in rsets for c in s)


def test_tedesco_runs_and_ace_value_g_v_ted():
    # G-V-TED: Q-K-A and K-A-2 are runs (aces high or low, round the corner); an unmelded ace
    # counts 15. Standard: Q♠ K♠ A♠ are deadwood 21; Tedesco melds them (38 instead of 59).
    hand = "Qs Ks As 2h 4h 6h 8h Td 3c 5c"
    assert min_deadwood(hand) == 59 and min_deadwood(hand, "tedesco") == 38
    arr = best_melds("Ks As 2s 7h 7d 7c Ah 5d 9c Jd", "tedesco")
    assert arr.melds == [["7h", "7d", "7c"], ["Ks", "As", "2s"]]
    assert arr.deadwood_cards == ["Ah", "5d", "9c", "Jd"] and arr.deadwood == 15 + 5 + 9 + 10
    assert min_deadwood("Ks As 2s 7h 7d 7c Ah 5d 9c Jd") == 10 + 1 + 2 + 1 + 5 + 9 + 10  # standard: no run
    # ace 15 without corner runs, and corner runs with the ace at 1, are separate options
    assert min_deadwood("Ks As 2s 7h 7d 7c Ah 5d 9c Jd", R.STANDARD.replace(ace_value=15)) == 10 + 15 + 2 + 15 + 24
    assert min_deadwood("Ks As 2s 7h 7d 7c Ah 5d 9c Jd", R.STANDARD.replace(round_the_corner=True)) == 1 + 24
    # a long run through the corner: J Q K A 2 3 of hearts is one meld
    assert best_melds("Jh Qh Kh Ah 2h 3h 9s 9d 9c 4d", "tedesco").melds == [["9s", "9d", "9c"],
                                                                          ["Jh", "Qh", "Kh", "Ah", "2h", "3h"]]
