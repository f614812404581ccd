"""Helpers for the Two Hundred tests (no tests here): scripted players, stacked deals, kernel
transcripts and an independent checker of a transcript against the rules."""

from __future__ import annotations

import numpy as np

from simcards.cards import parse_cards
from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.game import GAME, engine_for, seat_arrays
from simcards.games.two_hundred.kernel import (
    EV_BID, EV_DEAL, EV_GAME, EV_HAND, EV_PLAY, EV_TRICK, EV_TRUMP, LOG_WIDTH,
)
from simcards.games.two_hundred.reference import ReferenceGame, points, suit, trick_winner

DECK36 = sorted(int(f) for f in L.FACE_OF_BIT)


def cards(text: str) -> list[int]:
    return sorted(parse_cards(text))


def suit_hand(s: str) -> list[int]:
    """All nine cards of one suit ("s", "h", "d" or "c")."""
    return cards(" ".join(r + s for r in "A K Q J T 9 8 7 5".split()))


class Script:
    """A scripted player for the reference engine: bids, trump and plays are consumed in order;
    when a list runs out it passes / picks the first option. Records every question asked."""

    def __init__(self, bids=(), trump=0, plays=()):
        self.bids = list(bids)
        self.trump = trump
        self.plays = [parse_cards(p)[0] if isinstance(p, str) else p for p in plays]
        self.asked: list[tuple[int, int, list[int]]] = []  # (kind, seat, options)

    def __call__(self, kind, sid, table, hand, opts, n_opts, view, rules, rng):
        options = [int(x) for x in opts[:n_opts]]
        self.asked.append((kind, int(view[L.V_SEAT]), options))
        if kind == L.K_BID:
            want = self.bids.pop(0) if self.bids else 0
            return options.index(want)
        if kind == L.K_TRUMP:
            return options.index(self.trump)
        if self.plays and self.plays[0] in options:
            return options.index(self.plays.pop(0))
        return 0


def scripted_game(script: Script, stacked, rules=None, first_dealer=3, start_scores=(0, 0), max_deals=L.DEAL_CAP):
    rules = rules or GAME.build_rules(None)
    sids = np.zeros(4, dtype=np.int64)
    params = np.zeros((4, 8))
    return ReferenceGame(rules, sids, params, 0, 0, script, stacked=stacked, first_dealer=first_dealer,
                         start_scores=start_scores, max_deals=max_deals).play()


def kernel_run(specs, seed, game, rules=None):
    """(transcript rows, per-game row, per-deal rows) of one game played by the kernel."""
    rules = rules or GAME.build_rules(None)
    strats = GAME.strategies(specs, 4)
    _, _, play_game, _ = engine_for(strats)
    sids, params = seat_arrays(strats)
    log = np.zeros((40_000, LOG_WIDTH), dtype=np.int64)
    og = np.zeros(L.G_WIDTH, dtype=np.int64)
    deals = np.zeros((L.DEAL_CAP, L.D_WIDTH), dtype=np.int32)
    n = play_game(game, seed, rules.encode(), sids, params, og, deals, L.DEAL_CAP, log)
    assert n <= len(log)
    return log[:n], og, deals[: og[L.G_DEALS]]


def mask_cards(mask: int) -> list[int]:
    return sorted(int(L.FACE_OF_BIT[b]) for b in range(36) if mask >> b & 1)


def check_transcript(log: np.ndarray, rules) -> dict:
    """Replay a transcript against the rules text and assert every section-7 invariant.
    Returns counts for the caller."""
    stats = {"deals": 0, "throw_ins": 0, "tricks": 0, "plays": 0}
    rows = [tuple(int(x) for x in r) for r in log]
    i = 0
    scores = [0, 0]
    winner_seen = None
    while i < len(rows):
        assert winner_seen is None, "the game went on after it was won (T-END)"
        deal = rows[i][1]
        # T-DEAL-1: four hands of 9, together the 36-card deck.
        hands = {}
        for p in range(4):
            ev, d, seat, a, _ = rows[i]
            assert ev == EV_HAND and seat == p and d == deal
            hands[p] = mask_cards(a)
            i += 1
        assert all(len(h) == 9 for h in hands.values())
        assert sorted(sum(hands.values(), [])) == DECK36
        # Auction: T-BID-1..5.
        high, bidder, passed = 0, None, set()
        while rows[i][0] == EV_BID:
            _, _, seat, b, _ = rows[i]
            assert seat not in passed, "a player bid after passing (T-BID-3)"
            if b == 0:
                passed.add(seat)
            else:
                assert b >= rules.min_bid and b <= rules.max_bid, "bid out of range (T-BID-2)"
                assert (b - rules.min_bid) % rules.bid_step == 0, "bid off the step (T-BID-2)"
                assert b > high, "bids must strictly increase (T-BID-2)"
                high, bidder = b, seat
            i += 1
        assert len(passed) == 4 or (len(passed) == 3 and bidder is not None), "auction ended early or late (T-BID-4)"
        stats["deals"] += 1
        if bidder is None:
            ev, _, ct, a, b = rows[i]
            assert ev == EV_DEAL and ct == -1 and a == 0 and b == 0, "an all-pass deal scores nothing (T-BID-5)"
            stats["throw_ins"] += 1
            i += 1
        else:
            ev, _, seat, trump, bid = rows[i]
            assert ev == EV_TRUMP and seat == bidder and bid == high and 0 <= trump < 4  # T-TRUMP-1
            i += 1
            leader = bidder  # T-LEAD-1
            taken = [0, 0]
            for t in range(9):
                played = []
                for k in range(4):
                    ev, _, seat, face, tn = rows[i]
                    assert ev == EV_PLAY and tn == t and seat == (leader + k) % 4  # T-PLAY-1 clockwise
                    assert face in hands[seat]
                    if played and any(suit(c) == suit(played[0]) for c in hands[seat]):
                        assert suit(face) == suit(played[0]), "did not follow suit (T-PLAY-1)"
                    hands[seat].remove(face)
                    played.append(face)
                    i += 1
                    stats["plays"] += 1
                ev, _, win, pts, tn = rows[i]
                assert ev == EV_TRICK and tn == t
                assert win == trick_winner(played, leader, trump), "wrong trick winner (T-PLAY-2)"
                assert pts == sum(points(c) for c in played)
                taken[win % 2] += pts  # T-SC-1, T-TEAM-1
                leader = win  # T-PLAY-3
                i += 1
                stats["tricks"] += 1
            assert sum(taken) == 100, "card points must sum to 100 (section 7)"
            ev, _, ct, d0, d1 = rows[i]
            assert ev == EV_DEAL and ct == bidder % 2
            mine = taken[ct]
            if mine >= high:
                want = mine
            else:
                want = -high if rules.fail_score == "minus_bid" else mine - high
            got = (d0, d1)
            assert got[ct] == want and got[1 - ct] == taken[1 - ct], "deal score (T-SC-2)"
            scores[0] += d0
            scores[1] += d1
            i += 1
        ev, _, win, s0, s1 = rows[i]
        assert ev == EV_GAME and [s0, s1] == scores  # T-SC-3
        up = [t for t in (0, 1) if scores[t] >= rules.target]
        down = [t for t in (0, 1) if scores[t] <= rules.hole]
        if up or down:
            if len(up) == 2:
                assert win == bidder % 2, "both at the target: the contractor wins (T-END-1)"
            elif up:
                assert win == up[0], "T-END-1"
            else:
                assert win == 1 - down[0], "T-END-2"
        elif win >= 0:
            assert deal >= L.DEAL_CAP  # only the deal cap ends a game otherwise
        if win >= 0:
            winner_seen = win
        i += 1
    assert winner_seen in (0, 1), "a game ends with exactly one winning team (section 7)"
    stats["winner"] = winner_seen
    stats["scores"] = scores
    return stats
