"""Two Hundred's plain kernel, ns a deal by phase, beside the lab's speed-of-light kernel (issue 31).

The deals are uniform ones of the standard table (36 cards, four hands of nine, a random trump,
bidder and leader). Each phase is timed alone over all of them in a jitted loop (CPU time, best
of ``--repeats``): the shuffle and the deal (``rng.shuffle``, ``core.deal_singly``), the
heuristic's estimate of a hand (``policies.best_trump``, asked at every bid and the trump), and
the nine tricks of four ``heuristic`` players on locals (``policies.heuristic_tricks``, what a
batch plays when every seat is the heuristic). The whole deal is the kernel's own CPU time per
deal in a plain batch (``run.raw``); what the timed phases leave of it is the auction (an estimate
a bid, about seven a deal), the trump, the scoring and the game around them: the auction decides
how the deal goes on, so it is not timed alone. The lab's ``two_hundred.deals_serial`` (shuffle,
auction and tricks of its simpler players) is timed in the same sitting.

    python benchmarks/profile_two_hundred.py [--deals 20000] [--repeats 5] [--lab ../shared/lab]
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

from simcards.games.two_hundred import layout as L  # noqa: E402
from simcards.games.two_hundred import policies as P  # noqa: E402
from simcards.games.two_hundred.core import deal_singly  # noqa: E402
from simcards.games.two_hundred.game import GAME, seat_arrays  # noqa: E402
from simcards.games.two_hundred.rules import R_DECK_MASK  # noqa: E402
from simcards.rng import shuffle  # noqa: E402


def deals(n: int, rules) -> tuple[np.ndarray, np.ndarray]:
    """``n`` uniform deals: hands (n, 4) as lane masks, and (trump, bidder) per deal."""
    rng = np.random.default_rng(31)
    bits = [b for b in range(64) if (int(rules[R_DECK_MASK]) >> b) & 1]
    hands = np.zeros((n, 4), dtype=np.int64)
    for g in range(n):
        perm = rng.permutation(bits)
        for p in range(4):
            hands[g, p] = sum(1 << int(b) for b in perm[9 * p:9 * p + 9])
    return hands, rng.integers(0, 4, size=(n, 2)).astype(np.int64)


@njit
def t_shuffle_deal(n, rng, deck, nxt, hands):
    acc = 0
    for g in range(n):
        for i in range(36):
            deck[i] = L.DECKS[0, i]
        shuffle(rng, deck, 36)
        deal_singly(36, deck, g & 3, nxt, hands)
        acc ^= hands[1]
    return acc


@njit
def t_estimate(hands):
    acc = 0.0
    for g in range(hands.shape[0]):
        for p in range(4):
            t, e = P.best_trump(hands[g, p], 15.0)
            acc += e + t
    return acc


@njit
def _seating(view, rules):
    return P.seating(view, rules)


@njit
def t_tricks(params, hands0, meta, rules, view, nxt, sides):
    hands = np.zeros(L.MAX_SEATS, dtype=np.int64)
    acc = 0
    for g in range(hands0.shape[0]):
        for s in range(4):
            hands[s] = hands0[g, s]
        trump, bidder = meta[g, 0], meta[g, 1]
        view[L.V_TAKEN] = 0
        view[L.V_TAKEN + 1] = 0
        P.heuristic_tricks(params, P.SEAT_ROWS, hands, rules, (trump, bidder, bidder & 1, 4, nxt, sides, 9), -1,
                           (bidder, 0, 0, -1, -1, -1, 0, np.int64(0), bidder), view, L.V_TAKEN, view, False)
        acc += view[L.V_TAKEN]
    return acc


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--lab", type=Path, default=HERE.parents[1] / "shared" / "lab")
    a = ap.parse_args(argv)
    numba.set_num_threads(1)  # per thread: a batch on both cores takes more CPU a unit (issue 31: on 1 thread)
    rules_obj = GAME.build_rules("standard")
    rules = rules_obj.encode()
    strats = GAME.strategies(["heuristic"], 4)
    _, params = seat_arrays(strats, rules_obj)
    hands, meta = deals(a.deals, rules)
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_ACTIVE] = 15
    view[L.V_N_ACTIVE] = 4
    for s in range(L.MAX_SEATS):
        view[L.V_SIDE + s] = s % 2 if s < 4 else -1
    nxt, sides = _seating(view, rules)
    n = a.deals
    ns = {
        "shuffle + deal": best_cpu(t_shuffle_deal, (n, np.array([7], dtype=np.uint64), np.zeros(L.MAX_DECK, dtype=np.int64),
                                                     np.array([1, 2, 3, 0, 0, 0], dtype=np.int64),
                                                     np.zeros(L.MAX_SEATS, dtype=np.int64)), a.repeats) / n,
        "estimate (best_trump), one hand": best_cpu(t_estimate, (hands,), a.repeats) / (4 * n),
        "nine tricks on locals": best_cpu(t_tricks, (params, hands, meta, rules, view, nxt, sides), a.repeats) / n,
    }
    run = GAME.new_run(rules_obj, 4, strats)
    best, (g, _) = best_cpu_and_result(run.raw, (0, 0, 20_000, 0), 3)
    n_deals = int(g[:, L.G_DEALS].sum())
    whole = best / n_deals
    print(f"Two Hundred, standard, heuristic everywhere; phases timed alone over {n:,} uniform deals (CPU, best of "
          f"{a.repeats})")
    for k, v in ns.items():
        print(f"  {k:36} {1e9 * v:7.1f} ns")
    rest = whole - ns["shuffle + deal"] - ns["nine tricks on locals"]
    print(f"  {'whole deal in a batch (raw)':36} {1e9 * whole:7.1f} ns   ({1 / whole:,.0f} deals per CPU-s, "
          f"{n_deals / len(g):.1f} deals a game)")
    print(f"  {'  the rest: auction, trump, scoring':36} {1e9 * rest:7.1f} ns")
    if (a.lab / "two_hundred.py").is_file():
        sys.path.insert(0, str(a.lab))
        import two_hundred as lab

        lab.deals_serial(7, 1000)
        c = time.process_time()
        lab.deals_serial(7, 200_000)
        c = time.process_time() - c
        print(f"lab two_hundred (shuffle, auction and tricks of its simpler players): a deal {1e9 * c / 200_000:.1f} ns "
              f"({200_000 / c:,.0f} deals per CPU-s)")


if __name__ == "__main__":
    main()
