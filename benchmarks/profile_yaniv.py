"""Yaniv's plain kernel, ns per turn by phase, beside the lab's speed-of-light kernel (issue 31).

The turns are real ones: ``--games`` games of 4 ``threshold`` players are played by the kernel
with its transcript on, and every discard's position (the mover's sorted hand, the previous
discard, the stock's size) is rebuilt from the transcript. Each phase of a turn is then timed
alone over all of them, in a jitted loop (CPU time, best of ``--repeats``), and so are the lab's
``yaniv2`` equivalents on the same hands (a hand as a bit mask). The whole turn is the kernel's
own CPU time per discard in a plain batch (``YanivRun.raw``); what the phases leave of it is the
round's mechanics (deal, draw, pile, next seat) and the game around it. Last, the kernel's own round
is played with the lab's discard in place of threshold's (``lab_choice_round``): its mechanics at
the lab's round length, beside the lab's whole turn.

    python benchmarks/profile_yaniv.py [--games 300] [--variant israeli] [--lab ../shared/lab]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numba
import numpy as np
from numba import njit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))  # (timing.py beside this file)

from timing import best_cpu, best_cpu_and_result  # noqa: E402

from simcards.games.yaniv import kernel  # noqa: E402
from simcards.games.yaniv import layout as L  # noqa: E402
from simcards.games.yaniv.core import available_faces, hand_total, insert_sorted, throw  # noqa: E402
from simcards.games.yaniv.fast import threshold_turn  # noqa: E402
from simcards.games.yaniv.game import GAME, YanivRun, seat_arrays  # noqa: E402
from simcards.games.yaniv.groups import (  # noqa: E402
    SCRATCH,
    lay_singles,
    multi_groups,
    slam_position,
    take_from_group,
)
from simcards.games.yaniv.kernel import no_decide, play_game, play_round  # noqa: E402
from simcards.games.yaniv.policies import hand_held  # noqa: E402
from simcards.games.yaniv.rules import R_PICKUP  # noqa: E402
from simcards.nbutil import compiled_as, njit_by_type  # noqa: E402


def harvest(variant: str, games: int):
    """Every discard of ``games`` kernel games as arrays: hands (n, 12), sizes, previous groups
    (n, 12), their lengths, the stock's size."""
    rules = GAME.build_rules(variant)
    enc = rules.encode()
    strategies = GAME.strategies(["threshold"], 4)
    sids, params = seat_arrays(strategies)
    out = np.zeros(L.G_WIDTH, dtype=np.int64)
    rows = np.zeros((0, L.round_width(4)), dtype=np.int32)
    H, N, P, PN, S = [], [], [], [], []
    pickup = int(enc[R_PICKUP])
    asker = -1
    for g in range(games):
        log = np.zeros((20000, L.LOG_WIDTH), dtype=np.int64)
        n_log = play_game(g, 7, enc, 4, sids, params, out, rows, 0, log, play_round, no_decide)
        hands: dict[int, list[int]] = {}
        prev: list[int] = []
        stock_n = 0
        for ev in log[:n_log]:
            kind, _, seat, a, b = (int(x) for x in ev[:5])
            if kind == L.EV_HAND:
                hands[seat] = sorted(int(c) for c in ev[5:5 + a])
                stock_n = 54 - 5 * (len(hands)) - 1  # approximate at the deal (4 players: exact)
            elif kind == L.EV_UPCARD:
                prev = [a]
            elif kind == L.EV_DISCARD:
                h = hands[seat]
                H.append(h + [0] * (12 - len(h)))
                N.append(len(h))
                P.append(prev + [0] * (12 - len(prev)))
                PN.append(len(prev))
                S.append(stock_n)
                thrown = [int(c) for c in ev[5:5 + a]]
                for c in thrown:
                    h.remove(c)
                last_thrown = thrown
            elif kind == L.EV_DRAW:
                if a < 0:
                    stock_n -= 1
                else:
                    arr = np.array(prev + [0], dtype=np.int64)
                    k = take_from_group(arr, len(prev), pickup, a)
                    prev = [int(x) for x in arr[:k]]
                hands[seat] = sorted(hands[seat] + [b])
                prev = last_thrown
            elif kind == L.EV_REQUEST and b > 0:
                asker = seat
            elif kind == L.EV_GRANT:  # the face goes to the asker (granted) or to the mover
                arr = np.array(prev + [0], dtype=np.int64)
                k = take_from_group(arr, len(prev), pickup, a)
                prev = [int(x) for x in arr[:k]]
                who = asker if b == 1 else seat
                hands[who] = sorted(hands[who] + [a])
            elif kind == L.EV_SLAM and b == 1:  # the card drawn joins the group just thrown
                hands[seat].remove(a)
                arr = np.array(prev + [0], dtype=np.int64)
                pos = slam_position(arr, len(prev), a)
                prev = prev[:pos] + [a] + prev[pos:]
            elif kind == L.EV_RESHUFFLE:
                stock_n = a
            elif kind == L.EV_ROUND:
                hands = {}
    return (enc, params, np.array(H, dtype=np.int64), np.array(N, dtype=np.int64), np.array(P, dtype=np.int64),
            np.array(PN, dtype=np.int64), np.array(S, dtype=np.int64))


@njit(cache=False)
def t_loop(H, N, rules):
    acc = 0
    for i in range(H.shape[0]):
        acc += H[i, 0] + N[i]
    return acc


@njit(cache=False)
def t_total(H, N, rules):
    acc = 0
    for i in range(H.shape[0]):
        acc += hand_total(H[i], N[i], rules)
    return acc


@njit(cache=False)
def t_avail(P, PN, rules, avail):
    acc = 0
    pickup = rules[R_PICKUP]
    for i in range(P.shape[0]):
        acc += available_faces(P[i], PN[i], pickup, avail)
    return acc


@njit(cache=False)
def t_held(H, N, rules, out):
    acc = 0
    for i in range(H.shape[0]):
        acc += lay_singles(H[i], N[i], out)
        counts, lanes, twice, jokers, pairs, triples = hand_held(H[i], N[i])
        acc += counts + lanes + pairs
    return acc


@njit(cache=False)
def t_table(H, N, rules, out, keys, scratch):
    acc = 0
    for i in range(H.shape[0]):
        s = lay_singles(H[i], N[i], out)
        acc += s + multi_groups(H[i], N[i], rules, out, keys, scratch, s)
    return acc


@njit(cache=False)
def t_turn(H, N, P, PN, S, rules, params, avail, out, keys, scratch, thrown):
    acc = 0
    pickup = rules[R_PICKUP]
    for i in range(H.shape[0]):
        n_avail = available_faces(P[i], PN[i], pickup, avail)
        total = hand_total(H[i], N[i], rules)
        a, length, pick, rows = threshold_turn(H[i], N[i], rules, params, total, S[i], avail, n_avail, out, keys,
                                               scratch, thrown)
        acc += a + pick
    return acc


@njit(cache=False)
def t_mech(H, N, hand, thrown):
    acc = 0
    for i in range(H.shape[0]):
        n = N[i]
        for j in range(n):
            hand[j] = H[i, j]
        thrown[0] = H[i, n - 1]
        n = throw(hand, n, thrown, 1)
        n = insert_sorted(hand, n, H[i, 0])
        acc += n
    return acc


# --- inside the kernel: copies of the round a batch plays (compiled here, not cached) ------------------
_INLINE = njit_by_type(cache=False, _nrt=False, inline="always")


def round_copy(variant: str, name: str, **replaced):
    """The round a plain batch of ``variant`` plays (``kernel.play_round_masks`` when
    ``kernel.masks_only``, else ``play_round_threshold``) compiled here with some of its globals
    replaced (``replaced``); no replacement: the kernel's own."""
    masks = kernel.masks_only(GAME.build_rules(variant).encode(), [1, 1, 1, 1])
    if not replaced:
        return kernel.play_round_masks if masks else kernel.play_round_threshold
    jit = njit_by_type(cache=False, **{k: v for k, v in play_round.targetoptions.items() if k != "nopython"})
    if masks:
        return compiled_as(kernel.play_round_masks, name, jit, **replaced)
    return compiled_as(play_round, name, jit, THRESHOLD_ONLY=True, **replaced)


@_INLINE
def _turn_twice(hand, n, rules, params, total, stock_n, avail, n_avail, out, keys, scratch, thrown):
    """threshold_turn twice on the same position (the same choice): its cost inside the kernel."""
    a, _, _, _ = threshold_turn(hand, n, rules, params, total, stock_n, avail, n_avail, out, keys, scratch, thrown)
    same = total if a != -12345 else total + 1  # the same total, which LLVM cannot prove: no merged calls
    return threshold_turn(hand, n, rules, params, same, stock_n, avail, n_avail, out, keys, scratch, thrown)


@_INLINE
def _total_zero(hand, n, rules):
    """Every hand totals 0: each round ends with a call on its first turn (a round's fixed cost)."""
    return 0


def in_kernel(variant: str, games: int, repeats: int) -> dict[str, float]:
    """ns per turn of the plain kernel, of it with ``threshold_turn`` run twice, and ns per round
    of rounds called on their first turn; all interleaved, CPU time, best of ``repeats``."""
    rounds = {"plain": round_copy(variant, "plain"),
              "turn twice": round_copy(variant, "prof_twice", threshold_turn=_turn_twice),
              "round only": round_copy(variant, "prof_round", hand_total=_total_zero)}
    run = YanivRun(GAME.build_rules(variant), 4, GAME.strategies(["threshold"], 4))
    out = np.zeros((games, L.G_WIDTH), dtype=np.int64)
    rows = np.zeros((0, L.round_width(4)), dtype=np.int32)
    best = {k: 1e9 for k in rounds}
    units = {}
    for rep in range(repeats + 1):
        for k, rf in rounds.items():
            c = time.process_time()
            kernel.play_games(0, 0, 0, games if rep else 10, (run.encoded, run.sids, run.params), out, rows, 0,
                              kernel.play_game, rf, kernel.no_decide)
            if rep:
                best[k] = min(best[k], time.process_time() - c)
                units[k] = max(1, int(out[:, L.G_ROUNDS if k == "round only" else L.G_TURNS].sum()))
    return {k: 1e9 * best[k] / units[k] for k in rounds}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--variant", default="israeli")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--lab", type=Path, default=HERE.parents[1] / "shared" / "lab")
    a = ap.parse_args(argv)
    numba.set_num_threads(1)  # per thread: a batch on both cores takes more CPU a unit (issue 31: on 1 thread)
    enc, params, H, N, P, PN, S = harvest(a.variant, a.games)
    par = params[0]
    m = len(N)
    rep = 20  # the positions again and again: each timing a few tens of ms
    H, N, P, PN, S = (np.ascontiguousarray(np.concatenate([x] * rep)) for x in (H, N, P, PN, S))
    m *= rep
    out = np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64)
    keys = np.zeros(L.MAX_OPTIONS, dtype=np.int64)
    scratch = np.zeros(SCRATCH, dtype=np.int64)
    avail = np.zeros(L.MAX_HAND, dtype=np.int64)
    thrown = np.zeros(L.MAX_HAND, dtype=np.int64)
    hand = np.zeros(L.MAX_HAND, dtype=np.int64)
    ns = {}
    base = best_cpu(t_loop, (H, N, enc), a.repeats)
    ns["loop (subtracted below)"] = base
    ns["hand_total"] = best_cpu(t_total, (H, N, enc), a.repeats) - base
    ns["available_faces"] = best_cpu(t_avail, (P, PN, enc, avail), a.repeats) - base
    ns["singles + hand summary"] = best_cpu(t_held, (H, N, enc, out), a.repeats) - base
    ns["option table (singles + groups)"] = best_cpu(t_table, (H, N, enc, out, keys, scratch), a.repeats) - base
    turn = best_cpu(t_turn, (H, N, P, PN, S, enc, par, avail, out, keys, scratch, thrown), a.repeats) - base
    ns["threshold_turn + total + avail"] = turn
    ns["throw 1 + insert 1"] = best_cpu(t_mech, (H, N, hand, thrown), a.repeats) - base
    # the whole turn in a plain batch
    run = YanivRun(GAME.build_rules(a.variant), 4, GAME.strategies(["threshold"], 4))
    best, (g, _) = best_cpu_and_result(run.raw, (0, 0, 6000, 0), 3)
    turns = int(g[:, L.G_TURNS].sum())
    rounds = int(g[:, L.G_ROUNDS].sum())
    print(f"{m // rep:,} positions ({a.variant}, from {a.games} games), each phase timed over {m:,}; "
          f"hand sizes {np.bincount(N[:m // rep])}")
    for k, v in ns.items():
        print(f"  {k:36} {1e9 * v / m:7.1f} ns")
    whole = 1e9 * best / turns
    print(f"  {'whole turn in a batch (raw)':36} {whole:7.1f} ns   ({rounds / best:,.0f} rounds per CPU-s, "
          f"{turns / rounds:.1f} turns a round)")
    print(f"  {'  of which outside the phases':36} {whole - 1e9 * (turn + ns['throw 1 + insert 1']) / m:7.1f} ns")
    ik = in_kernel(a.variant, 3000, a.repeats)
    per_round = ik["round only"]
    print(f"inside the kernel (interleaved): a turn {ik['plain']:.1f} ns; threshold_turn's own cost (run twice) "
          f"{ik['turn twice'] - ik['plain']:.1f} ns; a round's fixed cost (deal, scoring, game) {per_round:.0f} ns "
          f"= {per_round * rounds / turns:.1f} ns a turn; the rest of the turn "
          f"{2 * ik['plain'] - ik['turn twice'] - per_round * rounds / turns:.1f} ns")
    if (a.lab / "yaniv2.py").is_file():
        sys.path.insert(0, str(a.lab))
        import yaniv2

        masks = np.zeros(m, dtype=np.int64)
        jm = np.zeros(m, dtype=np.int64)
        for i in range(m // rep):
            for c in H[i, :N[i]]:
                if c < 52:
                    masks[i] |= 1 << int(yaniv2.CODEBIT[c])
                else:
                    jm[i] |= 1 << int(c - 52)
        masks = np.concatenate([masks[:m // rep]] * rep)
        jm = np.concatenate([jm[:m // rep]] * rep)
        lab_decide = _lab_decide(yaniv2)
        dec = best_cpu(lab_decide, (masks, jm), a.repeats) - base
        turns_l, _ = yaniv2.rounds_serial(7, 1000, 5)
        c = time.process_time()
        turns_l, _ = yaniv2.rounds_serial(7, 100_000, 5)
        c = time.process_time() - c
        print(f"lab yaniv2 on the same hands: total + decide_group {1e9 * dec / m:7.1f} ns; whole turn "
              f"{1e9 * c / turns_l.sum():.1f} ns ({100_000 / c:,.0f} rounds per CPU-s, "
              f"{turns_l.mean():.1f} turns a round)")
        per_turn, per_round = lab_choice_round(a.variant, yaniv2, a.repeats)
        print(f"our round with the lab's discard (its greatest group, drawn from the stock): {per_turn:.1f} ns a "
              f"turn, {per_round:.1f} turns a round: the round's mechanics without threshold's choice")
        # Issue 31's goal as a budget: 2/3 of the lab's rounds per CPU-s, at threshold's round length,
        # less the round's fixed cost and the mechanics (the lab-discard round less the lab's choice)
        turn_budget = (1.5e9 * c / 100_000 - ik["round only"]) / (turns / rounds)
        mechanics = per_turn - 1e9 * dec / m
        print(f"2/3 of the lab's rate leaves {turn_budget:.0f} ns a turn ({turns / rounds:.1f} turns a round, "
              f"{ik['round only']:.0f} ns a round fixed); the mechanics take about {mechanics:.0f}: threshold's "
              f"choice would have {turn_budget - mechanics:.0f} ns, against {ik['turn twice'] - ik['plain']:.0f} now")


def lab_choice_round(variant: str, yaniv2, repeats: int, games: int = 300) -> tuple[float, float]:
    """ns per turn of the plain kernel's round with ``threshold_turn`` replaced by the lab's choice
    (``yaniv2.decide_group`` on the hand as masks: a set, a run or the greatest card, always the
    stock): rounds of about the lab's length, so what is left is the round's own mechanics (the
    hand as a sorted array, the pile, the draw, the deal). Other games than threshold's."""
    decide_group, codebit = yaniv2.decide_group, yaniv2.CODEBIT

    @_INLINE
    def lab_turn(hand, n, rules, params, total, stock_n, avail, n_avail, out, keys, scratch, thrown):
        m = np.int64(0)
        jm = np.int64(0)
        for i in range(n):
            c = hand[i]
            if c < 52:
                m |= np.int64(1) << codebit[c]
            else:
                jm |= np.int64(1) << (c - 52)
        kind, suit, rank, lo, length, _ = decide_group(m, jm)
        if kind == 0:
            thrown[0] = suit * 13 + rank
            return 0, 1, -1 if stock_n > 0 else 0, n
        k = 0
        for t in range(length if kind == 2 else 4):
            if kind == 1:
                if m >> (16 * t + rank) & 1:
                    thrown[k] = t * 13 + rank
                    k += 1
                continue
            if m >> (16 * suit + lo + t) & 1:
                thrown[k] = suit * 13 + lo + t
            else:  # a joker fills the gap, the lowest first
                low = jm & -jm
                thrown[k] = 52 if low == 1 else 53
                jm &= ~low
            k += 1
        return 0, k, -1 if stock_n > 0 else 0, n

    rf = round_copy(variant, "prof_lab_choice", threshold_turn=lab_turn)
    run = YanivRun(GAME.build_rules(variant), 4, GAME.strategies(["threshold"], 4))
    out = np.zeros((games, L.G_WIDTH), dtype=np.int64)
    rows = np.zeros((0, L.round_width(4)), dtype=np.int32)
    best = 1e9
    for rep in range(repeats + 1):
        c = time.process_time()
        kernel.play_games(0, 0, 0, games if rep else 10, (run.encoded, run.sids, run.params), out, rows, 0,
                          kernel.play_game, rf, kernel.no_decide)
        if rep:
            best = min(best, time.process_time() - c)
    turns = int(out[:, L.G_TURNS].sum())
    return 1e9 * best / turns, turns / int(out[:, L.G_ROUNDS].sum())


def _lab_decide(yaniv2):
    decide_group, mtotal = yaniv2.decide_group, yaniv2.mtotal

    @njit
    def lab(masks, jm):
        acc = 0
        for i in range(masks.shape[0]):
            acc += mtotal(masks[i])
            kind, ss, rr, lo, ln, gmax = decide_group(masks[i], jm[i])
            acc += kind + gmax
        return acc
    return lab


if __name__ == "__main__":
    main()
