"""The Two Hundred reference engine: plain Python, written to be read beside ``two-hundred.md``.

It shares with the kernel only what must be shared for both to play the same game: the random
stream (``simcards.rng``), the strategies' decision functions, the public view they are shown and
the order of their options (bids low to high after "pass"; suits s h d c; legal cards by suit,
then rank low to high). Legal cards, trick winners, scoring and the end of the game are re-derived
here from the rules text, on lists of face ids. It records readable lines (``simcards replay``) and
the same transcript rows the kernel logs, so a test can compare the two engines move for move.

For scenario tests a deal can be stacked (``hands=``) and a game started from given scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simcards.cards import RANKS, SUITS, card_code
from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.kernel import EV_BID, EV_DEAL, EV_GAME, EV_HAND, EV_PLAY, EV_TRICK, EV_TRUMP, LOG_WIDTH
from simcards.games.two_hundred.rules import TwoHundredRules
from simcards.rng import new_state, rand_below, shuffle

PLAYERS = 4
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


# ----- Section 1: cards, players, teams -----------------------------------------------------------
def rank(card: int) -> int:
    return card % 13


def suit(card: int) -> int:
    return card // 13


STRENGTH = {r: i for i, r in enumerate((4, 6, 7, 8, 9, 10, 11, 12, 0))}  # T-CARD-1: 5 7 8 9 T J Q K A


def strength(card: int) -> int:
    """T-CARD-1: position in A K Q J 10 9 8 7 5, from the lowest (5 → 0) to the Ace (8)."""
    return STRENGTH[rank(card)]


def points(card: int) -> int:
    """T-CARD-2: Ace 10, ten 10, five 5, all others 0."""
    return {0: 10, 9: 10, 4: 5}.get(rank(card), 0)


def deck() -> list[int]:
    """T-CARD-1: the 52-card deck without 2s, 3s, 4s and 6s, in id order."""
    return [c for c in range(52) if rank(c) not in (1, 2, 3, 5)]


def team(seat: int) -> int:
    """T-TEAM-1: partners sit opposite; seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat % 2


def hand_mask(hand) -> int:
    """The kernel's lane mask of a hand (the form strategies receive)."""
    m = 0
    for c in hand:
        m |= 1 << int(L.BIT_OF_FACE[c])
    return m


# ----- Section 3: play ------------------------------------------------------------------------------
def legal_cards(hand: list[int], led: int | None) -> list[int]:
    """T-PLAY-1: follow the suit led if you can; otherwise any card. Listed by suit, then rank
    low to high (the order strategies see)."""
    follow = [c for c in hand if led is not None and suit(c) == led]
    cards = follow or list(hand)
    return sorted(cards, key=lambda c: (suit(c), strength(c)))


def trick_winner(cards: list[int], leader: int, trump: int) -> int:
    """T-PLAY-2: the highest trump wins; if no trump was played, the highest card of the suit
    led. ``cards`` are in the order played, starting with ``leader``; returns the winning seat."""
    led = suit(cards[0])
    trumps = [i for i, c in enumerate(cards) if suit(c) == trump]
    contenders = trumps or [i for i, c in enumerate(cards) if suit(c) == led]
    best = max(contenders, key=lambda i: strength(cards[i]))
    return (leader + best) % PLAYERS


# ----- Section 4: scoring and end of game -----------------------------------------------------------
def deal_score(taken: tuple[int, int], contract_team: int, bid: int, rules: TwoHundredRules) -> tuple[list[int], bool]:
    """T-SC-1/2: a contract made scores all the points taken; a failed one minus the bid (or, with
    ``fail_score="points_minus_bid"``, points taken minus the bid). Defenders keep their points."""
    mine = taken[contract_team]
    made = mine >= bid
    if made:
        score = mine
    elif rules.fail_score == "points_minus_bid":
        score = mine - bid
    else:
        score = -bid
    out = [taken[0], taken[1]]
    out[contract_team] = score
    return out, made


def game_over(scores: list[int], contract_team: int, rules: TwoHundredRules) -> int | None:
    """T-END-1/2: a team at the target wins (both: the contractor team); a team at the hole loses
    (and a team at the target wins even if the other is in the hole). None if play goes on."""
    up = [t for t in (0, 1) if scores[t] >= rules.target]
    if len(up) == 2:
        return contract_team
    if up:
        return up[0]
    down = [t for t in (0, 1) if scores[t] <= rules.hole]
    if down:
        return 1 - down[0]
    return None


# ----- the game -------------------------------------------------------------------------------------
@dataclass
class DealRecord:
    deal: int
    dealer: int
    hands: dict[int, list[int]]
    bids: list[tuple[int, int]]  # (seat, bid or 0 for pass)
    bidder: int | None
    bid: int | None
    trump: int | None
    tricks: list[tuple[int, list[int], int, int]]  # (leader, cards, winner, points)
    taken: tuple[int, int]
    made: bool | None
    deal_scores: list[int]
    scores: list[int]


@dataclass
class GameRecord:
    first_dealer: int = -1
    winner: int = -1
    scores: list[int] = field(default_factory=lambda: [0, 0])
    capped: bool = False
    invalid: int = 0  # decisions a policy returned out of range (option 0 played instead)
    deals: list[DealRecord] = field(default_factory=list)
    log: list[list[int]] = field(default_factory=list)

    def log_array(self) -> np.ndarray:
        arr = np.zeros((len(self.log), LOG_WIDTH), dtype=np.int64)
        for i, row in enumerate(self.log):
            arr[i, : len(row)] = row
        return arr

    def lines(self) -> list[str]:
        """The game as text: hands, the auction bid by bid, trump, every trick, the scores."""
        out = [f"first dealer: seat {self.first_dealer}"]
        for d in self.deals:
            out.append(f"— deal {d.deal}: seat {d.dealer} deals —")
            for p in range(PLAYERS):
                out.append(f"  seat {p} (team {team(p)}): {show_hand(d.hands[p])}")
            out.append("  auction: " + ", ".join(f"seat {s} {'pass' if b == 0 else b}" for s, b in d.bids))
            if d.bidder is None:
                out.append("  all four passed: the cards are thrown in, nobody scores (T-BID-5)")
                out.append(f"  scores: team 0 {d.scores[0]}, team 1 {d.scores[1]}")
                continue
            out.append(f"  seat {d.bidder} (team {team(d.bidder)}) contracts for {d.bid}, trump {SUIT_NAMES[d.trump]}")
            for i, (leader, cards, winner, pts) in enumerate(d.tricks):
                played = " ".join(f"{card_code(c)}" for c in cards)
                out.append(f"  trick {i + 1}: seat {leader} leads: {played} → seat {winner} wins {pts}")
            ct = team(d.bidder)
            verdict = "made" if d.made else "failed"
            out.append(f"  taken: team 0 {d.taken[0]}, team 1 {d.taken[1]}; team {ct} {verdict} {d.bid}")
            out.append(f"  deal score: team 0 {d.deal_scores[0]:+d}, team 1 {d.deal_scores[1]:+d}; "
                       f"totals: team 0 {d.scores[0]}, team 1 {d.scores[1]}")
        how = " (deal cap)" if self.capped else ""
        if self.invalid:
            out.append(f"warning: {self.invalid} decisions were out of range and replaced by the first option")
        out.append(f"team {self.winner} (seats {self.winner} and {self.winner + 2}) wins{how}: "
                   f"{self.scores[0]} to {self.scores[1]} after {len(self.deals)} deals")
        return out


def show_hand(hand: list[int]) -> str:
    by_suit = []
    for s in range(4):
        cards = sorted((c for c in hand if suit(c) == s), key=strength, reverse=True)
        by_suit.append(SUITS[s] + ":" + ("".join(RANKS[rank(c)] for c in cards) or "-"))
    return " ".join(by_suit)


class ReferenceGame:
    """One game of Two Hundred, played rule by rule. ``decide`` is the strategies' decision
    function (the same one the kernel calls); ``sids``/``params`` give each seat's strategy.
    Scenario tests may pass ``stacked`` hands for the first deals, a ``first_dealer`` and
    ``start_scores``; a stacked deal draws nothing from the random stream."""

    def __init__(self, rules: TwoHundredRules, sids, params, seed: int, game: int, decide,
                 stacked: list[dict[int, list[int]]] | None = None, first_dealer: int | None = None,
                 start_scores: tuple[int, int] = (0, 0), max_deals: int = L.DEAL_CAP):
        self.rules = rules
        self.encoded = rules.encode()
        self.sids = np.asarray(sids, dtype=np.int64)
        self.params = np.ascontiguousarray(params, dtype=np.float64)
        self.decide = decide
        self.rng = new_state(seed, game)
        self.stacked = list(stacked or [])
        self.first_dealer = first_dealer
        self.scores = list(start_scores)
        self.max_deals = max_deals
        self.record = GameRecord()

    def log(self, event: int, deal: int, seat: int, a: int, b: int) -> None:
        self.record.log.append([event, deal, seat, a, b])

    def ask(self, kind: int, seat: int, hand: list[int], options: list[int], view: np.ndarray) -> int:
        opts = np.zeros(L.MAX_OPTIONS, dtype=np.int64)
        opts[: len(options)] = options
        view[L.V_SEAT] = seat
        choice = int(self.decide(kind, self.sids[seat], self.params, np.int64(hand_mask(hand)), opts, len(options),
                                 view, self.encoded, self.rng))
        if not 0 <= choice < len(options):  # as the kernel: option 0 instead, and counted
            self.record.invalid += 1
            choice = 0
        return options[choice]

    def new_view(self, deal: int, dealer: int) -> np.ndarray:
        v = np.zeros(L.VIEW_SIZE, dtype=np.int64)
        v[L.V_DEALER] = dealer
        v[L.V_DEAL] = deal
        v[L.V_BIDDER] = -1
        v[L.V_TRUMP] = -1
        v[L.V_LEADER] = -1
        v[L.V_LEAD_SUIT] = -1
        v[L.V_WIN_SEAT] = -1
        v[L.V_WIN_FACE] = -1
        v[L.V_TRICK_FACES : L.V_TRICK_FACES + 4] = -1
        v[L.V_SCORES] = self.scores[0]
        v[L.V_SCORES + 1] = self.scores[1]
        return v

    # --- T-DEAL-1 -------------------------------------------------------------------------------------
    def deal_hands(self, dealer: int) -> dict[int, list[int]]:
        if self.stacked:
            return {p: list(h) for p, h in self.stacked.pop(0).items()}
        cards = np.array(deck(), dtype=np.int64)
        shuffle(self.rng, cards, len(cards))
        hands: dict[int, list[int]] = {p: [] for p in range(PLAYERS)}
        for k, c in enumerate(cards):  # one at a time, starting left of the dealer
            hands[(dealer + 1 + k) % PLAYERS].append(int(c))
        return hands

    # --- Section 2: the auction ---------------------------------------------------------------------
    def auction(self, deal: int, dealer: int, hands, view) -> tuple[int | None, int, list[tuple[int, int]]]:
        rules = self.rules
        high, bidder = 0, None
        passed: set[int] = set()
        bids: list[tuple[int, int]] = []
        seat = (dealer + 1) % PLAYERS  # T-BID-1 Decision: left of the dealer first, the dealer last
        while True:
            if seat not in passed:  # T-BID-3: a pass is final
                options = [0]
                dealer_barred = not rules.dealer_bids_after_passes and seat == dealer and len(passed) == 3
                if not dealer_barred:
                    lowest = rules.min_bid if bidder is None else high + rules.bid_step  # T-BID-2
                    options += list(range(lowest, rules.max_bid + 1, rules.bid_step))
                b = self.ask(L.K_BID, seat, hands[seat], options, view)
                bids.append((seat, b))
                self.log(EV_BID, deal, seat, b, 0)
                if b == 0:
                    passed.add(seat)
                    view[L.V_PASSED] |= 1 << seat
                else:
                    high, bidder = b, seat
                    view[L.V_BID] = b
                    view[L.V_BIDDER] = seat
                    view[L.V_BIDS + seat] = b
                # T-BID-4: a bid followed by three passes ends it; T-BID-5: four passes throw in.
                if len(passed) == 4 or (len(passed) == 3 and bidder is not None):
                    return bidder, high, bids
            seat = (seat + 1) % PLAYERS

    # --- Section 3: nine tricks ---------------------------------------------------------------------
    def play_tricks(self, deal: int, bidder: int, trump: int, hands, view):
        leader = bidder  # T-LEAD-1
        taken = [0, 0]
        tricks = []
        played_mask = 0
        for t in range(L.TRICKS):
            view[L.V_TRICK] = t
            view[L.V_LEADER] = leader
            view[L.V_N_IN] = 0
            view[L.V_LEAD_SUIT] = -1
            view[L.V_WIN_SEAT] = -1
            view[L.V_WIN_FACE] = -1
            view[L.V_TRICK_POINTS] = 0
            view[L.V_TRICK_FACES : L.V_TRICK_FACES + 4] = -1
            cards: list[int] = []
            led = None
            for k in range(PLAYERS):
                seat = (leader + k) % PLAYERS  # T-PLAY-1: clockwise
                options = legal_cards(hands[seat], led)
                card = self.ask(L.K_PLAY, seat, hands[seat], options, view)
                hands[seat].remove(card)
                cards.append(card)
                self.log(EV_PLAY, deal, seat, card, t)
                if led is None:
                    led = suit(card)
                elif suit(card) != led:
                    view[L.V_VOIDS + seat] |= 1 << led
                winner = trick_winner(cards, leader, trump)
                played_mask |= 1 << int(L.BIT_OF_FACE[card])
                view[L.V_LEAD_SUIT] = led
                view[L.V_TRICK_FACES + k] = card
                view[L.V_N_IN] = k + 1
                view[L.V_WIN_SEAT] = winner
                view[L.V_WIN_FACE] = cards[(winner - leader) % PLAYERS]
                view[L.V_TRICK_POINTS] = sum(points(c) for c in cards)
                view[L.V_PLAYED] = played_mask
            winner = trick_winner(cards, leader, trump)  # T-PLAY-2
            pts = sum(points(c) for c in cards)
            taken[team(winner)] += pts  # T-SC-1
            view[L.V_TAKEN] = taken[0]
            view[L.V_TAKEN + 1] = taken[1]
            self.log(EV_TRICK, deal, winner, pts, t)
            tricks.append((leader, cards, winner, pts))
            leader = winner  # T-PLAY-3
        return (taken[0], taken[1]), tricks

    # --- one deal and the game ------------------------------------------------------------------------
    def play_deal(self, deal: int, dealer: int) -> tuple[DealRecord, int | None]:
        hands = self.deal_hands(dealer)
        dealt = {p: sorted(h) for p, h in hands.items()}
        for p in range(PLAYERS):
            self.log(EV_HAND, deal, p, hand_mask(hands[p]), 0)
        view = self.new_view(deal, dealer)
        bidder, bid, bids = self.auction(deal, dealer, hands, view)
        if bidder is None:  # T-BID-5: thrown in, nobody scores
            self.log(EV_DEAL, deal, -1, 0, 0)
            rec = DealRecord(deal, dealer, dealt, bids, None, None, None, [], (0, 0), None, [0, 0], list(self.scores))
            return rec, None
        trump = self.ask(L.K_TRUMP, bidder, hands[bidder], [0, 1, 2, 3], view)  # T-TRUMP-1
        view[L.V_TRUMP] = trump
        self.log(EV_TRUMP, deal, bidder, trump, bid)
        taken, tricks = self.play_tricks(deal, bidder, trump, hands, view)
        ct = team(bidder)
        ds, made = deal_score(taken, ct, bid, self.rules)
        self.scores = [self.scores[0] + ds[0], self.scores[1] + ds[1]]  # T-SC-3
        self.log(EV_DEAL, deal, ct, ds[0], ds[1])
        rec = DealRecord(deal, dealer, dealt, bids, bidder, bid, trump, tricks, taken, made, ds, list(self.scores))
        return rec, game_over(self.scores, ct, self.rules)

    def play(self) -> GameRecord:
        if self.first_dealer is None:
            dealer = int(rand_below(self.rng, PLAYERS))  # T-TEAM-2 Decision: a random first dealer
        else:
            dealer = self.first_dealer
        self.record.first_dealer = dealer
        deal = 0
        while True:
            deal += 1
            rec, winner = self.play_deal(deal, dealer)
            self.record.deals.append(rec)
            if winner is None and deal >= self.max_deals:
                winner = 0 if self.scores[0] >= self.scores[1] else 1
                self.record.capped = True
            self.log(EV_GAME, deal, -1 if winner is None else winner, self.scores[0], self.scores[1])
            if winner is not None:
                break
            dealer = (dealer + 1) % PLAYERS  # T-DEAL-1: the deal passes clockwise
        self.record.winner = winner
        self.record.scores = list(self.scores)
        return self.record


def play_reference(rules: TwoHundredRules, sids, params, seed: int, game: int, decide, **kw) -> GameRecord:
    return ReferenceGame(rules, sids, params, seed, game, decide, **kw).play()
