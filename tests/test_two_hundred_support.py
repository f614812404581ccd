"""Helpers for the Two Hundred tests (no tests here): scripted players, stacked deals, kernel
transcripts and an independent checker of a transcript against the rules."""

from __future__ import annotations

import numpy as np

from simcards.cards import parse_cards
from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.game import GAME, engine_for, seat_arrays
from simcards.games.two_hundred.kernel import (
    EV_BID,
    EV_CALL,
    EV_DEAL,
    EV_DISCARD,
    EV_GAME,
    EV_HAND,
    EV_KITTY,
    EV_OUT,
    EV_PLAY,
    EV_REVEAL,
    EV_SCORE,
    EV_TRICK,
    EV_TRUMP,
    LOG_WIDTH,
)
from simcards.games.two_hundred.reference import ReferenceGame, deck, points, suit, winning_card

DECK36 = sorted(int(f) for f in L.DECK_FACES)


def cards(text: str) -> list[int]:
    return sorted(parse_cards(text))


def suit_hand(s: str, ranks: str = "A K Q J T 9 8 7 5") -> list[int]:
    """The cards of one suit ("s", "h", "d" or "c"): all nine of the 36-card deck by default."""
    return cards(" ".join(r + s for r in ranks.split()))


def variant(name: str, **overrides):
    return GAME.build_rules(name, {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in overrides.items()})


class Script:
    """A scripted player for the reference engine: bids, discards, trump (one, or a list of one
    per deal), the call and plays are consumed in order; when a list runs out it passes / takes
    the first option. Records every question asked as (kind, seat, options, hand mask, view)."""

    def __init__(self, bids=(), trump=0, plays=(), discards=(), call=None):
        self.bids = list(bids)
        self.trump = trump
        self.plays = [parse_cards(p)[0] if isinstance(p, str) else p for p in plays]
        self.discards = [parse_cards(p)[0] if isinstance(p, str) else p for p in discards]
        self.call = parse_cards(call)[0] if isinstance(call, str) else call
        self.asked: list[tuple] = []

    def __call__(self, kind, sid, table, hand, opts, n_opts, view, rules, rng):
        options = [int(x) for x in opts[:n_opts]]
        self.asked.append((kind, int(view[L.V_SEAT]), options, int(hand), view.copy()))
        if kind == L.K_BID:
            want = self.bids.pop(0) if self.bids else 0
            return options.index(want)
        if kind == L.K_TRUMP:
            trump = self.trump.pop(0) if isinstance(self.trump, list) else self.trump
            return options.index(trump)
        if kind == L.K_DISCARD:
            return options.index(self.discards.pop(0)) if self.discards else 0
        if kind == L.K_CALL:
            return options.index(self.call) if self.call is not None else 0
        if self.plays and self.plays[0] in options:
            return options.index(self.plays.pop(0))
        return 0

    def questions(self, kind):
        return [q for q in self.asked if q[0] == kind]


def scripted_game(script: Script, stacked, rules=None, first_dealer=3, start_scores=None, max_deals=L.DEAL_CAP):
    rules = rules or GAME.build_rules(None)
    sids = np.zeros(rules.seats, dtype=np.int64)
    params = np.zeros((rules.seats, 8))
    return ReferenceGame(rules, sids, params, 0, 0, script, stacked=stacked, first_dealer=first_dealer,
                         start_scores=start_scores, max_deals=max_deals).play()


def kernel_run(specs, seed, game, rules=None):
    """(transcript rows, per-game row, per-deal rows) of one game played by the kernel."""
    rules = rules or GAME.build_rules(None)
    strats = GAME.strategies(specs, rules.players)
    _, play_game, _ = engine_for(strats)
    sids, params = seat_arrays(strats, rules)
    log = np.zeros((60_000, LOG_WIDTH), dtype=np.int64)
    og = np.zeros(L.G_WIDTH, dtype=np.int64)
    deals = np.zeros((L.DEAL_CAP, L.D_WIDTH), dtype=np.int32)
    n = play_game(game, seed, rules.encode(), sids, params, og, deals, L.DEAL_CAP, log)
    assert n <= len(log)
    return log[:n], og, deals[: og[L.G_DEALS]]


def mask_cards(mask: int) -> list[int]:
    return sorted(int(L.FACE_OF_BIT[b]) for b in range(L.LANE * 4) if mask >> b & 1)


class _Rows:
    def __init__(self, log):
        self.rows = [tuple(int(x) for x in r) for r in log]
        self.i = 0

    def peek(self):
        return self.rows[self.i] if self.i < len(self.rows) else (None,) * 5

    def take(self, event):
        row = self.rows[self.i]
        assert row[0] == event, f"row {self.i}: expected event {event}, got {row}"
        self.i += 1
        return row

    def done(self):
        return self.i >= len(self.rows)


def check_transcript(log: np.ndarray, rules) -> dict:
    """Replay a transcript against the rules text (every table of two-hundred.md) and assert
    every section-7 invariant. Returns counts for the caller."""
    stats = {"deals": 0, "throw_ins": 0, "tricks": 0, "plays": 0, "no_trump": 0, "kitty_points": 0, "called": 0,
             "reveals": 0, "outs": 0}
    rows = _Rows(log)
    n_seats, n_sides = rules.seats, rules.sides
    in_play = list(range(n_seats))
    playing = set(range(n_sides))
    dummy = {2, 3} if rules.mode == "two-player" else set()
    scores = [0] * n_sides
    full_deck = deck(rules.deck)
    winner_seen = None
    dealer = None
    while not rows.done():
        assert winner_seen is None, "the game went on after it was won (T-END)"
        deal = rows.peek()[1]
        each = (rules.deck - rules.kitty) // len(in_play)
        # T-DEAL-1: every seat in play gets the same number of cards; no card twice.
        hands, up = {}, {}
        for p in in_play:
            _, d, seat, a, b = rows.take(EV_HAND)
            assert seat == p and d == deal
            hands[p] = mask_cards(a)
            up[p] = mask_cards(b)
            assert len(hands[p]) == each
            assert len(up[p]) == (3 if p in dummy else 0) and set(up[p]) <= set(hands[p])  # T-V-2P: three tops
        dealt = sum(hands.values(), [])
        assert len(set(dealt)) == len(dealt) and set(dealt) <= set(full_deck)
        assert len(dealt) == rules.deck - rules.kitty
        # Auction: T-BID-1..5 (bidders: the real players in play).
        bidders = [s for s in in_play if s not in dummy]
        high, bidder, passed, bids = 0, None, set(), []
        while rows.peek()[0] == EV_BID:
            _, _, seat, b, _ = rows.take(EV_BID)
            assert seat in bidders and seat not in passed, "a player bid after passing (T-BID-3)"
            bids.append((seat, b))
            if b == 0:
                passed.add(seat)
            else:
                assert rules.min_bid <= b <= rules.max_bid, "bid out of range (T-BID-2)"
                assert (b - rules.min_bid) % rules.bid_step == 0, "bid off the step (T-BID-2)"
                assert b > high, "bids must strictly increase (T-BID-2)"
                high, bidder = b, seat
        # T-BID-1: clockwise from the dealer's left, so the first speaker tells who dealt.
        first = bids[0][0]
        this_dealer = bidders[(bidders.index(first) - 1) % len(bidders)]
        if dealer is not None:  # T-DEAL-1: the deal passes clockwise (to the next real player in play)
            after = list(range(dealer + 1, n_seats)) + list(range(dealer + 1))
            assert this_dealer == next(s for s in after if s in bidders), "the deal passes clockwise (T-DEAL-1)"
        dealer = this_dealer
        first_round = [s for s, _ in bids[:len(bidders)]]
        assert first_round == [bidders[(bidders.index(first) + k) % len(bidders)] for k in range(len(first_round))]
        if not rules.dealer_bids_after_passes and len(bids) >= len(bidders) and all(b == 0 for _, b in bids[:len(bidders) - 1]):
            assert bids[len(bidders) - 1] == (dealer, 0), "all others passed: the dealer may not bid (T-V-ROUGH)"
        assert len(passed) == len(bidders) or (len(passed) == len(bidders) - 1 and bidder is not None), \
            "auction ended early or late (T-BID-4)"
        stats["deals"] += 1
        cs = ps = None
        ds = [0] * n_sides
        out = None
        if bidder is None:
            _, _, c, made, kp = rows.take(EV_DEAL)
            assert c == -1 and made == -1 and kp == 0, "an all-pass deal scores nothing (T-BID-5)"
            for t in range(n_sides):
                _, _, side, d, total = rows.take(EV_SCORE)
                assert side == t and d == 0 and total == scores[t]
            stats["throw_ins"] += 1
        else:
            buried = []
            if rules.kitty:  # T-V-KITTY / T-V-ROUGH: taken by the bidder, four cards buried
                _, _, seat, kmask, _ = rows.take(EV_KITTY)
                kitty = mask_cards(kmask)
                assert seat == bidder and len(kitty) == rules.kitty
                assert sorted(dealt + kitty) == sorted(full_deck), "cards dealt + kitty = the deck"
                hands[bidder] += kitty
                for _ in range(rules.kitty):
                    _, _, seat, face, _ = rows.take(EV_DISCARD)
                    assert seat == bidder and face in hands[bidder]
                    hands[bidder].remove(face)
                    buried.append(face)
            else:
                assert sorted(dealt) == sorted(full_deck), "every card is dealt"
            _, _, seat, trump, bid = rows.take(EV_TRUMP)
            assert seat == bidder and bid == high  # T-TRUMP-1
            assert 0 <= trump < 4 or (rules.no_trump and trump == L.NO_TRUMP), "trump or (T-V-ROUGH) no trump"
            called = partner = None
            if rules.mode == "five-player":  # T-V-5P: a card the bidder does not hold; its holder partners
                _, _, seat, called, partner = rows.take(EV_CALL)
                assert seat == bidder and called not in hands[bidder] and called in hands[partner]
                stats["called"] += 1
            leader = bidder  # T-LEAD-1
            taken = [0] * n_sides
            for t in range(each):
                played = []
                seats = [s for s in in_play[in_play.index(leader):] + in_play[:in_play.index(leader)]]
                for _k, want_seat in enumerate(seats):
                    _, _, seat, face, tn = rows.take(EV_PLAY)
                    assert tn == t and seat == want_seat, "T-PLAY-1: clockwise from the leader"
                    playable = up[seat] if seat in dummy else hands[seat]
                    assert face in playable, "a dummy plays only face-up cards (T-V-2P)" if seat in dummy else "card held"
                    if played and any(suit(c) == suit(played[0]) for c in playable):
                        assert suit(face) == suit(played[0]), "did not follow suit (T-PLAY-1, T-V-2P)"
                    hands[seat].remove(face)
                    if seat in dummy:
                        up[seat].remove(face)
                        if rows.peek()[0] == EV_REVEAL:  # the next card of that pile is turned up
                            _, _, s2, new, pile = rows.take(EV_REVEAL)
                            assert s2 == seat and new in hands[seat] and new not in up[seat] and 0 <= pile < 3
                            up[seat].append(new)
                            stats["reveals"] += 1
                    played.append(face)
                    stats["plays"] += 1
                _, _, win, pts, tn = rows.take(EV_TRICK)
                assert tn == t
                assert win == seats[winning_card(played, trump)], "wrong trick winner (T-PLAY-2)"
                assert pts == sum(points(c) for c in played)
                taken[rules.side_of(win)] += pts  # T-SC-1
                leader = win  # T-PLAY-3
                stats["tricks"] += 1
            assert all(not h for h in hands.values())
            kitty_points = sum(points(c) for c in buried)
            assert sum(taken) + kitty_points == 100, "card points, kitty included, sum to 100 (section 7)"
            cs = rules.side_of(bidder)
            ps = None if partner is None else rules.side_of(partner)
            _, _, c, made, kp = rows.take(EV_DEAL)
            assert c == cs and kp == kitty_points
            ds, want_made = _independent_scores(rules, taken, cs, ps, high, kitty_points, trump == L.NO_TRUMP)
            assert made == int(want_made)
            for t in range(n_sides):
                _, _, side, d, total = rows.take(EV_SCORE)
                assert side == t and d == ds[t], f"deal score of side {t} (T-SC-2 / variant)"
                scores[t] += d
                assert total == scores[t]  # T-SC-3
            stats["no_trump"] += trump == L.NO_TRUMP
            stats["kitty_points"] += kitty_points
            if rows.peek()[0] == EV_OUT:
                _, _, out, sc, _ = rows.take(EV_OUT)
                assert rules.sides == 3 and sc == scores[out] <= rules.hole
                stats["outs"] += 1
        _, _, win, hole, capped = rows.take(EV_GAME)
        want, playing_after, by_hole = _independent_end(rules, scores, playing, cs, ps, dealer, bidder is None)
        if want is not None:
            playing_after = playing  # the game is over: nobody leaves
            assert hole == by_hole, "won by the hole (T-END-2) or by the target (T-END-1)"
        assert playing_after == playing - ({out} if out is not None else set()), "T-V-6P: who leaves"
        playing = playing_after
        in_play = [s for s in in_play if rules.side_of(s) in playing]
        if capped:
            assert want is None and deal >= L.DEAL_CAP
        else:
            assert win == (-1 if want is None else want), f"game end: got {win}, want {want}"
        if win >= 0:
            winner_seen = win
    assert winner_seen is not None and 0 <= winner_seen < n_sides, "a game ends with exactly one winner (section 7)"
    stats["winner"] = winner_seen
    stats["scores"] = scores
    return stats


def _independent_scores(rules, taken, cs, ps, bid, kitty_points, doubled):
    """The deal scores as two-hundred.md sections 4–5 state them, written apart from the engines."""
    pair = taken[cs] + (taken[ps] if ps is not None else 0)
    made = pair >= bid
    if made:
        mine = pair
    elif rules.mode == "cutthroat" and rules.cutthroat_fail == "points":
        mine = -taken[cs]
    else:
        mine = -bid if rules.fail_score == "minus_bid" else pair - bid
    ds = list(taken)
    if rules.kitty:
        ds[1 - cs] += kitty_points  # two teams: the other is the defending team
    ds[cs] = mine
    if ps is not None:
        ds[ps] = mine if made or rules.partner_shares_loss else taken[ps]
    factor = 2 if doubled else 1
    return [factor * x for x in ds], made


def _independent_end(rules, scores, playing, cs, ps, dealer, thrown_in):
    """(winning side or None, sides playing after the deal, won by the hole) as T-END-1/2 and
    section 5 state it."""
    if thrown_in:
        return None, playing, False
    order = []
    for k in range(1, rules.seats + 1):
        t = rules.side_of((dealer + k) % rules.seats)
        if t not in order:
            order.append(t)

    def highest(cands):
        return max((t for t in order if t in cands), key=lambda t: (scores[t], -order.index(t)))

    up = {t for t in playing if scores[t] >= rules.target}
    if up:
        if cs in up:
            return cs, playing, False
        if ps is not None and ps in up:
            return ps, playing, False
        return highest(up), playing, False
    down = {t for t in playing if scores[t] <= rules.hole}
    if not down:
        return None, playing, False
    if rules.individual:
        return highest(playing), playing, True
    left = playing - down
    if len(left) == 1:
        return next(iter(left)), left, True
    return None, left, False
