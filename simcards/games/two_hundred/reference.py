"""The Two Hundred reference engine: plain Python, written to be read beside ``two-hundred.md``.

It shares with the kernel only what must be shared for both to play the same game: the random
streams (``simcards.rng``: the deal's, the engine's alone, and one per seat for its strategy), the strategies' decision functions, the public view they are shown and
the order of their options (bids low to high after "pass"; suits s h d c, then no trump; cards
by suit, then rank low to high). Dealing, legal cards, trick winners, the kitty, the called
partner, the dummies' piles, scoring and the end of the game are re-derived here from the rules
text, on lists of face ids. It records readable lines (``simcards replay``) and the same
transcript rows the kernel logs, so a test can compare the two engines move for move.

For scenario tests a deal can be stacked (``stacked=``: per seat the cards in the order dealt,
and ``"kitty"``) and a game started from given scores and a given dealer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simcards.cards import RANKS, SUITS, card_code
from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.core import new_trick
from simcards.games.two_hundred.rules import TwoHundredRules
from simcards.policy import reference_choice
from simcards.rng import new_state, rand_below, seat_states, shuffle

PLAYERS = 4
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs", "no trump")
NO_TRUMP = L.NO_TRUMP


# ----- Section 1: cards, players, teams -----------------------------------------------------------
def rank(card: int) -> int:
    return card % 13


def suit(card: int) -> int:
    return card // 13


STRENGTH = {r: i for i, r in enumerate((4, 5, 6, 7, 8, 9, 10, 11, 12, 0))}  # T-CARD-1: 5 6 7 8 9 T J Q K A


def strength(card: int) -> int:
    """T-CARD-1: position in A K Q J 10 9 8 7 (6) 5, from the lowest (5 → 0) to the Ace (9)."""
    return STRENGTH[rank(card)]


def points(card: int) -> int:
    """T-CARD-2: Ace 10, ten 10, five 5, all others 0."""
    return {0: 10, 9: 10, 4: 5}.get(rank(card), 0)


def deck(size: int = 36) -> list[int]:
    """T-CARD-1: the 52-card deck without 2s, 3s, 4s and 6s, in id order; T-V-5P / T-V-KITTY:
    40 cards, the 6s kept."""
    dropped = (1, 2, 3, 5) if size == 36 else (1, 2, 3)
    return [c for c in range(52) if rank(c) not in dropped]


def team(seat: int) -> int:
    """T-TEAM-1: partners sit opposite; seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat % 2


def hand_mask(hand) -> int:
    """The kernel's lane mask of a hand (the form strategies receive)."""
    m = 0
    for c in hand:
        m |= 1 << int(L.BIT_OF_FACE[c])
    return m


def by_suit(cards) -> list[int]:
    """Cards by suit, then rank low to high: the order strategies see options in."""
    return sorted(cards, key=lambda c: (suit(c), strength(c)))


# ----- Section 3: play ------------------------------------------------------------------------------
def legal_cards(hand: list[int], led: int | None) -> list[int]:
    """T-PLAY-1: follow the suit led if you can; otherwise any card. (A T-V-2P dummy's ``hand``
    here is its face-up cards: Decision, follow suit is judged on them.)"""
    follow = [c for c in hand if led is not None and suit(c) == led]
    return by_suit(follow or list(hand))


def winning_card(cards: list[int], trump: int) -> int:
    """T-PLAY-2: the index of the winning card of a trick played in this order: the highest
    trump; if no trump was played (or the deal has none, T-V-ROUGH), the highest card of the
    suit led."""
    led = suit(cards[0])
    trumps = [i for i, c in enumerate(cards) if suit(c) == trump]
    contenders = trumps or [i for i, c in enumerate(cards) if suit(c) == led]
    return max(contenders, key=lambda i: strength(cards[i]))


def trick_winner(cards: list[int], leader: int, trump: int, seats: int = PLAYERS) -> int:
    """The winning seat when every one of ``seats`` seats played in turn from ``leader``."""
    return (leader + winning_card(cards, trump)) % seats


# ----- Section 4 and the variants: scoring and end of game ------------------------------------------
def deal_score(taken, contract: int, bid: int, rules: TwoHundredRules, partner: int | None = None,
               kitty_points: int = 0, doubled: bool = False) -> tuple[list[int], bool]:
    """Deal scores of every side from the card points ``taken`` per side.

    T-SC-1/2: a contract made scores all the points taken; a failed one minus the bid (or, with
    ``fail_score="points_minus_bid"``, points taken minus the bid); the defenders keep theirs.
    T-V-KITTY: the kitty's points go to the defending team. T-V-5P: the bidder and the secret
    ``partner`` count their points together and each scores the total if they made it; if not,
    both score minus the bid (``partner_shares_loss``; off: the partner keeps its own points).
    T-V-CUT: ``cutthroat_fail="points"``: a failed bidder scores minus its points. T-V-ROUGH: a
    no-trump deal doubles every score; made or failed is judged on the undoubled points."""
    pair = taken[contract] + (taken[partner] if partner is not None else 0)
    made = pair >= bid
    if made:
        score = pair
    elif rules.cutthroat_fail == "points":
        score = -pair
    elif rules.fail_score == "points_minus_bid":
        score = pair - bid
    else:
        score = -bid
    out = list(taken)
    for s in range(len(out)):
        if s != contract:
            out[s] += kitty_points  # only with two teams: the one defending team
    out[contract] = score
    if partner is not None:
        out[partner] = score if made or rules.partner_shares_loss else taken[partner]
    if doubled:
        out = [2 * x for x in out]
    return out, made


def first_clockwise(candidates, scores, dealer: int, rules: TwoHundredRules) -> int:
    """The highest score among ``candidates`` (sides); ties go to the side seated first clockwise
    from the dealer's left (T-V-5P and T-V-6P Decisions)."""
    order = []
    for k in range(1, rules.seats + 1):
        side = rules.side_of((dealer + k) % rules.seats)
        if side in candidates and side not in order:
            order.append(side)
    return max(order, key=lambda t: (scores[t], -order.index(t)))


def end_of_game(scores, rules: TwoHundredRules, contract: int, partner: int | None = None, dealer: int = 0,
                playing: set[int] | None = None) -> tuple[int | None, set[int], bool]:
    """After a played deal: (winning side or None, sides still playing, won by the hole).

    T-END-1: sides at the target win — the contract side if among them (both teams there: the
    contractor), else (T-V-5P, T-V-CUT) the secret partner, else the higher score. T-END-2: a team
    at the hole loses at once (Decision: a team at the target beats the other's fall); T-V-6P with
    three teams: every team at the hole leaves, the others go on as the four-player game, and the
    last team left wins. T-V-5P/T-V-CUT: nobody at the target but someone at the hole: the highest
    score wins."""
    playing = set(range(rules.sides)) if playing is None else set(playing)
    up = {t for t in playing if scores[t] >= rules.target}
    if up:
        if contract in up:
            return contract, playing, False
        if partner is not None and partner in up:
            return partner, playing, False
        return first_clockwise(up, scores, dealer, rules), playing, False
    down = {t for t in playing if scores[t] <= rules.hole}
    if not down:
        return None, playing, False
    if rules.individual:
        return first_clockwise(playing, scores, dealer, rules), playing, True
    left = playing - down
    if not left:  # cannot happen: only the contract side loses points in a deal
        return first_clockwise(playing, scores, dealer, rules), playing, True
    if len(left) == 1:
        return next(iter(left)), left, True
    return None, left, False


# ----- the game -------------------------------------------------------------------------------------
def side_name(rules, side: int) -> str:
    """How the replay names a scoring side: a seat (cutthroat, five players), player A/B (T-V-2P)
    or a team."""
    if rules.individual:
        return f"seat {side}"
    if rules.mode == "two-player":
        return f"player {'AB'[side]}"
    return f"team {side}"


@dataclass
class DealRecord:
    deal: int
    dealer: int
    hands: dict[int, list[int]]  # as dealt (a dummy's in the order dealt: piles of 3, the third on top)
    bids: list[tuple[int, int]]  # (seat, bid or 0 for pass)
    bidder: int | None
    bid: int | None
    trump: int | None  # NO_TRUMP (4) for no trump
    tricks: list[tuple[int, list[int], int, int]]  # (leader, cards, winner, points)
    taken: tuple[int, ...]  # per side, in tricks
    made: bool | None
    deal_scores: list[int]
    scores: list[int]
    kitty: list[int] = field(default_factory=list)  # as dealt
    buried: list[int] = field(default_factory=list)  # the new kitty
    kitty_points: int = 0
    called: int | None = None
    partner: int | None = None
    out: int | None = None  # side that left at the hole (T-V-6P)
    reveals: list[tuple[int, int, int]] = field(default_factory=list)  # (trick, dummy seat, face turned up)


@dataclass
class GameRecord:
    rules: TwoHundredRules
    first_dealer: int = -1
    winner: int = -1
    scores: list[int] = field(default_factory=list)
    capped: bool = False
    hole: bool = False
    invalid: int = 0  # decisions a policy returned out of range (option 0 played instead; on_invalid="first")
    deals: list[DealRecord] = field(default_factory=list)
    log: list[list[int]] = field(default_factory=list)

    def log_array(self) -> np.ndarray:
        arr = np.zeros((len(self.log), L.LOG_WIDTH), dtype=np.int64)
        for i, row in enumerate(self.log):
            arr[i, : len(row)] = row
        return arr

    def side_name(self, side: int) -> str:
        return side_name(self.rules, side)

    def seat_name(self, seat: int) -> str:
        r = self.rules
        if r.mode == "two-player":
            return f"seat {seat} ({'A' if seat % 2 == 0 else 'B'}{'' if seat < 2 else ' dummy'})"
        if r.individual:
            return f"seat {seat}"
        return f"seat {seat} (team {r.side_of(seat)})"

    def totals(self, scores) -> str:
        return ", ".join(f"{self.side_name(t)} {scores[t]}" for t in range(self.rules.sides))

    def lines(self) -> list[str]:
        """The game as text: hands, the auction bid by bid, kitty, trump, call, every trick, scores."""
        r = self.rules
        out = [f"first dealer: seat {self.first_dealer}"]
        for d in self.deals:
            out.append(f"— deal {d.deal}: seat {d.dealer} deals —")
            for p, h in sorted(d.hands.items()):
                if r.mode == "two-player" and p >= 2:
                    piles = " | ".join(" ".join(card_code(c) for c in h[3 * i:3 * i + 3]) for i in range(3))
                    out.append(f"  {self.seat_name(p)}: piles (top last) {piles}")
                else:
                    out.append(f"  {self.seat_name(p)}: {show_hand(h)}")
            if d.kitty:
                out.append(f"  kitty: {' '.join(card_code(c) for c in by_suit(d.kitty))}")
            out.append("  auction: " + ", ".join(f"seat {s} {'pass' if b == 0 else b}" for s, b in d.bids))
            if d.bidder is None:
                out.append("  everybody passed: the cards are thrown in, nobody scores (T-BID-5)")
                out.append(f"  scores: {self.totals(d.scores)}")
                continue
            if d.buried:
                out.append(f"  seat {d.bidder} takes the kitty and buries {' '.join(card_code(c) for c in d.buried)}")
            out.append(f"  {self.seat_name(d.bidder)} contracts for {d.bid}, {SUIT_NAMES[d.trump]}"
                       + (" trump" if d.trump != NO_TRUMP else " (scores doubled)"))
            if d.called is not None:
                out.append(f"  seat {d.bidder} calls {card_code(d.called)}: the secret partner is seat {d.partner}")
            reveals = {}
            for t, seat, face in d.reveals:
                reveals.setdefault(t, []).append(f"seat {seat} turns up {card_code(face)}")
            for i, (leader, cards, winner, pts) in enumerate(d.tricks):
                played = " ".join(f"{card_code(c)}" for c in cards)
                extra = f" ({'; '.join(reveals[i])})" if i in reveals else ""
                out.append(f"  trick {i + 1}: seat {leader} leads: {played} → seat {winner} wins {pts}{extra}")
            cs = r.side_of(d.bidder)
            verdict = "made" if d.made else "failed"
            kitty = f", kitty {d.kitty_points} to the defenders" if r.kitty else ""
            pair = f" with seat {d.partner}" if d.partner is not None else ""
            out.append(f"  taken: {self.totals(d.taken)}{kitty}; {self.side_name(cs)}{pair} {verdict} {d.bid}")
            out.append("  deal score: " + ", ".join(f"{self.side_name(t)} {d.deal_scores[t]:+d}" for t in range(r.sides))
                       + f"; totals: {self.totals(d.scores)}")
            if d.out is not None:
                out.append(f"  {self.side_name(d.out)} falls to {d.scores[d.out]} and leaves; "
                           "the others play on as the four-player game (T-V-6P)")
        how = " (deal cap)" if self.capped else (" (the hole)" if self.hole else "")
        if self.invalid:
            out.append(f"warning: {self.invalid} decisions were out of range and replaced by the first option")
        out.append(f"{self.side_name(self.winner)} wins{how}: {self.totals(self.scores)} after {len(self.deals)} deals")
        return out


def show_hand(hand: list[int]) -> str:
    parts = []
    for s in range(4):
        cards = sorted((c for c in hand if suit(c) == s), key=strength, reverse=True)
        parts.append(SUITS[s] + ":" + ("".join(RANKS[rank(c)] for c in cards) or "-"))
    return " ".join(parts)


class ReferenceGame:
    """One game of Two Hundred, played rule by rule. ``decide`` is the strategies' decision
    function (the same one the kernel calls); ``sids``/``params`` give each seat's strategy (one
    row per seat at the table, dummies included). Scenario tests may pass ``stacked`` deals for
    the first deals, a ``first_dealer`` and ``start_scores``; a stacked deal draws nothing from
    the random stream."""

    def __init__(self, rules: TwoHundredRules, sids, params, seed: int, game: int, decide,
                 stacked: list[dict] | None = None, first_dealer: int | None = None,
                 start_scores: tuple[int, ...] | None = None, max_deals: int = L.DEAL_CAP, on_invalid: str = "error"):
        self.on_invalid = on_invalid  # a policy's index out of range: stop, or play option 0 ("first")
        self.rules = rules
        self.encoded = rules.encode()
        self.sids = np.asarray(sids, dtype=np.int64)
        self.params = np.ascontiguousarray(params, dtype=np.float64)
        self.decide = decide
        self.rng = new_state(seed, game)  # the deal's stream: the engine's alone
        self.seat_rng = seat_states(seed, game, L.MAX_SEATS)  # each seat's strategy stream (simcards.rng)
        self.stacked = list(stacked or [])
        self.first_dealer = first_dealer
        self.scores = list(start_scores) if start_scores is not None else [0] * rules.sides
        self.scores += [0] * (rules.sides - len(self.scores))
        self.max_deals = max_deals
        self.in_play = set(range(rules.seats))  # seats still at the table (T-V-6P: a team may leave)
        self.playing = set(range(rules.sides))
        self.record = GameRecord(rules)

    # --- who is who ---------------------------------------------------------------------------------
    def is_dummy(self, seat: int) -> bool:
        """T-V-2P: seats 2 and 3 are A's and B's dummies, played by the seat opposite."""
        return self.rules.mode == "two-player" and seat >= 2

    def clockwise(self, after: int, seats) -> list[int]:
        """``seats`` in clockwise order, starting with the first one after ``after``."""
        n = self.rules.seats
        return [(after + k) % n for k in range(1, n + 1) if (after + k) % n in seats]

    def bidders(self) -> set[int]:
        return {s for s in self.in_play if not self.is_dummy(s)}

    # --- talking to strategies ---------------------------------------------------------------------
    def log(self, event: int, deal: int, seat: int, a: int, b: int) -> None:
        self.record.log.append([event, deal, seat, a, b])

    def ask(self, kind: int, seat: int, cards, options: list[int], view: np.ndarray, seen=()) -> int:
        """Ask ``seat``'s strategy to choose among ``options``, showing it ``cards`` (its hand, or a
        dummy's face-up cards) and in ``V_OWN_SEEN`` the cards only it sees (``seen``)."""
        opts = np.zeros(L.MAX_OPTIONS, dtype=np.int64)
        opts[: len(options)] = options
        view[L.V_SEAT] = seat
        view[L.V_OWN_SEEN] = hand_mask(seen)
        choice = int(self.decide(kind, self.sids[seat], self.params, np.int64(hand_mask(cards)), opts, len(options),
                                 view, self.encoded, self.seat_rng[seat]))
        choice = reference_choice(choice, len(options), kind, self.sids[seat], self.on_invalid, self.record)
        return options[choice]

    def seen_by(self, seat: int, hands, up, buried, view) -> list[int]:
        """What only ``seat``'s decider sees: its buried kitty once it is the contractor; in T-V-2P
        its dummy's face-up cards, or its own hand when it plays for the dummy."""
        seen = []
        if self.rules.mode == "two-player":
            owner_or_dummy = (seat + 2) % 4
            seen += hands[owner_or_dummy] if self.is_dummy(seat) else up[owner_or_dummy]
        if seat == view[L.V_BIDDER] and view[L.V_TRUMP] >= 0:
            seen += buried
        return seen

    def new_view(self, deal: int, dealer: int, up) -> np.ndarray:
        v = np.zeros(L.VIEW_SIZE, dtype=np.int64)
        v[L.V_DEALER] = dealer
        v[L.V_DEAL] = deal
        for i in (L.V_BIDDER, L.V_TRUMP, L.V_LEADER, L.V_LEAD_SUIT, L.V_WIN_SEAT, L.V_WIN_FACE, L.V_CALLED,
                  L.V_PARTNER):
            v[i] = -1
        v[L.V_TRICK_FACES : L.V_TRICK_FACES + L.MAX_SEATS] = -1
        v[L.V_ACTIVE] = sum(1 << s for s in self.in_play)
        v[L.V_N_ACTIVE] = len(self.in_play)
        for s in range(L.MAX_SEATS):
            v[L.V_SIDE + s] = self.rules.side_of(s) if s < self.rules.seats else -1
            v[L.V_SCORES + s] = self.scores[s] if s < self.rules.sides else 0
            v[L.V_UP + s] = hand_mask(up.get(s, []))
        return v

    # --- T-DEAL-1, T-V-KITTY, T-V-ROUGH, T-V-2P: the deal -------------------------------------------
    def deal_hands(self, dealer: int) -> tuple[dict[int, list[int]], list[int]]:
        """Hands (a dummy's cards in the order dealt) and the kitty."""
        if self.stacked:
            st = self.stacked.pop(0)
            hands = {p: list(h) for p, h in st.items() if p != "kitty"}
            kitty = list(st.get("kitty", []))
            dealt = sorted(sum(hands.values(), kitty))
            if dealt != deck(self.rules.deck) or set(hands) != self.in_play:
                raise ValueError(f"a stacked deal must give each seat in play {sorted(self.in_play)} its cards "
                                 f"and hold the {self.rules.deck}-card deck exactly once")
            return hands, kitty
        cards = np.array(deck(self.rules.deck), dtype=np.int64)
        shuffle(self.rng, cards, len(cards))
        cards = [int(c) for c in cards]
        order = self.clockwise(dealer, self.in_play)  # starting left of the dealer
        hands: dict[int, list[int]] = {p: [] for p in order}
        kitty: list[int] = []
        if not self.rules.kitty:  # one at a time
            for k, c in enumerate(cards):
                hands[order[k % len(order)]].append(c)
            return hands, kitty
        each = (len(cards) - self.rules.kitty) // len(order)
        for packet in (3, 3, each - 6):  # 3 each, 2 to the kitty, 3 each, 2 to the kitty, the rest
            for p in order:
                hands[p] += cards[:packet]
                cards = cards[packet:]
            if len(kitty) < self.rules.kitty:
                kitty += cards[:2]
                cards = cards[2:]
        return hands, kitty

    @staticmethod
    def lay_piles(cards: list[int]) -> list[list[int]]:
        """T-V-2P: a dummy's nine cards, in the order dealt, in 3 piles of 3; the last card of each
        pile is on top, face up."""
        return [cards[3 * i:3 * i + 3] for i in range(3)]

    # --- Section 2: the auction ---------------------------------------------------------------------
    def auction(self, deal: int, dealer: int, hands, up, view) -> tuple[int | None, int, list[tuple[int, int]]]:
        rules = self.rules
        high, bidder = 0, None
        passed: set[int] = set()
        bids: list[tuple[int, int]] = []
        bidders = self.bidders()  # T-V-2P: only the two real players bid
        order = self.clockwise(dealer, bidders)  # T-BID-1 Decision: left of the dealer first, the dealer last
        turn = 0
        while True:
            seat = order[turn % len(order)]
            turn += 1
            if seat in passed:  # T-BID-3: a pass is final
                continue
            options = [0]
            # T-V-ROUGH: if everybody else passed, the dealer may not bid.
            dealer_barred = not rules.dealer_bids_after_passes and seat == dealer and len(passed) == len(bidders) - 1
            if not dealer_barred:
                lowest = rules.min_bid if bidder is None else high + rules.bid_step  # T-BID-2
                options += list(range(lowest, rules.max_bid + 1, rules.bid_step))
            b = self.ask(L.K_BID, seat, hands[seat], options, view, self.seen_by(seat, hands, up, [], view))
            bids.append((seat, b))
            self.log(L.EV_BID, deal, seat, b, 0)
            if b == 0:
                passed.add(seat)
                view[L.V_PASSED] |= 1 << seat
            else:
                high, bidder = b, seat
                view[L.V_BID] = b
                view[L.V_BIDDER] = seat
                view[L.V_BIDS + seat] = b
            # T-BID-4: a bid followed by everyone else passing ends it; T-BID-5: all pass, thrown in.
            if len(passed) == len(bidders) or (len(passed) == len(bidders) - 1 and bidder is not None):
                return bidder, high, bids

    # --- after the auction: kitty, trump, called partner ----------------------------------------------
    def take_kitty(self, deal: int, bidder: int, hands, kitty: list[int], view) -> list[int]:
        """T-V-KITTY / T-V-ROUGH: the bidder takes the kitty (Decision: always) and buries four
        cards face down as the new kitty."""
        hands[bidder] += kitty
        self.log(L.EV_KITTY, deal, bidder, hand_mask(kitty), 0)
        buried: list[int] = []
        for _ in range(self.rules.kitty):
            card = self.ask(L.K_DISCARD, bidder, hands[bidder], by_suit(hands[bidder]), view, buried)
            hands[bidder].remove(card)
            buried.append(card)
            self.log(L.EV_DISCARD, deal, bidder, card, 0)
        return buried

    def name_trump(self, deal: int, bidder: int, bid: int, hands, up, buried, view) -> int:
        """T-TRUMP-1: the bidder names trump; T-V-ROUGH: or no trump."""
        suits = [0, 1, 2, 3] + ([NO_TRUMP] if self.rules.no_trump else [])
        trump = self.ask(L.K_TRUMP, bidder, hands[bidder], suits, view,
                         self.seen_by(bidder, hands, up, [], view) + buried)
        view[L.V_TRUMP] = trump
        self.log(L.EV_TRUMP, deal, bidder, trump, bid)
        return trump

    def call_partner(self, deal: int, bidder: int, hands, up, buried, view) -> tuple[int, int]:
        """T-V-5P: after naming trump the bidder calls a card it does not hold; its holder is the
        secret partner, known to the others only when the card is played."""
        options = by_suit(c for c in deck(self.rules.deck) if c not in hands[bidder])
        called = self.ask(L.K_CALL, bidder, hands[bidder], options, view, self.seen_by(bidder, hands, up, buried, view))
        partner = next(s for s, h in hands.items() if called in h)
        view[L.V_CALLED] = called
        self.log(L.EV_CALL, deal, bidder, called, partner)
        return called, partner

    # --- Section 3: the tricks ------------------------------------------------------------------------
    def play_tricks(self, deal: int, bidder: int, trump: int, hands, piles, up, buried, called, partner, view,
                    reveals):
        leader = bidder  # T-LEAD-1 (T-V-2P: from the bidder's own hand)
        taken = [0] * self.rules.sides
        tricks = []
        played_mask = 0
        n_tricks = len(hands[bidder])
        for t in range(n_tricks):
            new_trick(view, t, leader, L.MAX_SEATS)  # the kernel's (core.py)
            seats = [leader] + self.clockwise(leader, self.in_play)[:-1]  # T-PLAY-1: clockwise
            cards: list[int] = []
            led = None
            for k, seat in enumerate(seats):
                playable = up[seat] if self.is_dummy(seat) else hands[seat]  # T-V-2P: only face-up cards
                options = legal_cards(playable, led)
                card = self.ask(L.K_PLAY, seat, playable, options, view, self.seen_by(seat, hands, up, buried, view))
                hands[seat].remove(card)
                cards.append(card)
                if led is None:
                    led = suit(card)
                elif suit(card) != led:
                    view[L.V_VOIDS + seat] |= 1 << led
                if card == called:  # T-V-5P: the partner is revealed by play
                    view[L.V_PARTNER] = partner
                self.log(L.EV_PLAY, deal, seat, card, t)
                if self.is_dummy(seat):
                    self.turn_up(deal, t, seat, card, piles, up, view, reveals)
                winner = seats[winning_card(cards, trump)]
                played_mask |= 1 << int(L.BIT_OF_FACE[card])
                view[L.V_LEAD_SUIT] = led
                view[L.V_TRICK_FACES + k] = card
                view[L.V_N_IN] = k + 1
                view[L.V_WIN_SEAT] = winner
                view[L.V_WIN_FACE] = cards[seats.index(winner)]
                view[L.V_TRICK_POINTS] = sum(points(c) for c in cards)
                view[L.V_PLAYED] = played_mask
            winner = seats[winning_card(cards, trump)]  # T-PLAY-2
            pts = sum(points(c) for c in cards)
            taken[self.rules.side_of(winner)] += pts  # T-SC-1
            view[L.V_TAKEN + self.rules.side_of(winner)] = taken[self.rules.side_of(winner)]
            self.log(L.EV_TRICK, deal, winner, pts, t)
            tricks.append((leader, cards, winner, pts))
            leader = winner  # T-PLAY-3 (T-V-2P: a dummy that wins leads next)
        return tuple(taken), tricks

    def turn_up(self, deal, trick, seat, card, piles, up, view, reveals) -> None:
        """T-V-2P: after a face-up card is played, the next card of that pile is turned up."""
        pile = next(i for i, p in enumerate(piles[seat]) if p and p[-1] == card)
        piles[seat][pile].pop()
        up[seat].remove(card)
        if piles[seat][pile]:
            new = piles[seat][pile][-1]
            up[seat].append(new)
            reveals.append((trick, seat, new))
            self.log(L.EV_REVEAL, deal, seat, new, pile)
        view[L.V_UP + seat] = hand_mask(up[seat])

    # --- one deal and the game ------------------------------------------------------------------------
    def play_deal(self, deal: int, dealer: int) -> DealRecord:
        rules = self.rules
        hands, kitty = self.deal_hands(dealer)
        dealt = {p: (list(h) if self.is_dummy(p) else sorted(h)) for p, h in hands.items()}
        piles = {p: self.lay_piles(h) for p, h in hands.items() if self.is_dummy(p)}
        up = {p: [pile[-1] for pile in piles[p]] for p in piles}
        for p in sorted(hands):
            self.log(L.EV_HAND, deal, p, hand_mask(hands[p]), hand_mask(up.get(p, [])))
        view = self.new_view(deal, dealer, up)
        bidder, bid, bids = self.auction(deal, dealer, hands, up, view)
        nothing = [0] * rules.sides
        if bidder is None:  # T-BID-5: thrown in, nobody scores
            return DealRecord(deal, dealer, dealt, bids, None, None, None, [], tuple(nothing), None, nothing,
                              list(self.scores), kitty=list(kitty))
        buried = self.take_kitty(deal, bidder, hands, kitty, view) if rules.kitty else []
        trump = self.name_trump(deal, bidder, bid, hands, up, buried, view)
        called = partner = None
        if rules.mode == "five-player":
            called, partner = self.call_partner(deal, bidder, hands, up, buried, view)
        reveals: list = []
        taken, tricks = self.play_tricks(deal, bidder, trump, hands, piles, up, buried, called, partner, view, reveals)
        kitty_points = sum(points(c) for c in buried)
        ds, made = deal_score(taken, rules.side_of(bidder), bid, rules,
                              None if partner is None else rules.side_of(partner), kitty_points, trump == NO_TRUMP)
        self.scores = [s + d for s, d in zip(self.scores, ds)]  # T-SC-3
        return DealRecord(deal, dealer, dealt, bids, bidder, bid, trump, tricks, taken, made, ds, list(self.scores),
                          kitty=list(kitty), buried=buried, kitty_points=kitty_points, called=called, partner=partner,
                          reveals=reveals)

    def play(self) -> GameRecord:
        rules = self.rules
        if self.first_dealer is None:
            dealer = int(rand_below(self.rng, rules.players))  # T-TEAM-2 Decision: a random first dealer
        else:
            dealer = self.first_dealer
        self.record.first_dealer = dealer
        deal = 0
        winner = None
        while True:
            deal += 1
            rec = self.play_deal(deal, dealer)
            self.record.deals.append(rec)
            if rec.bidder is not None:
                cs = rules.side_of(rec.bidder)
                ps = None if rec.partner is None else rules.side_of(rec.partner)
                winner, playing, hole = end_of_game(self.scores, rules, cs, ps, dealer, self.playing)
                self.record.hole = hole
                if winner is None:
                    for t in self.playing - playing:  # T-V-6P: a team at the hole leaves, the others play on
                        rec.out = t
                        self.in_play -= set(rules.side_seats(t))
                    self.playing = playing
            self.log(L.EV_DEAL, deal, -1 if rec.bidder is None else rules.side_of(rec.bidder),
                     -1 if rec.made is None else int(rec.made), rec.kitty_points)
            for t in range(rules.sides):
                self.log(L.EV_SCORE, deal, t, rec.deal_scores[t], self.scores[t])
            if rec.out is not None:
                self.log(L.EV_OUT, deal, rec.out, self.scores[rec.out], 0)
            if winner is None and deal >= self.max_deals:
                winner = max(sorted(self.playing), key=lambda t: (self.scores[t], -t))
                self.record.capped = True
            self.log(L.EV_GAME, deal, -1 if winner is None else winner, int(self.record.hole), int(self.record.capped))
            if winner is not None:
                break
            dealer = self.clockwise(dealer, self.bidders())[0]  # T-DEAL-1: the deal passes clockwise
        self.record.winner = winner
        self.record.scores = list(self.scores)
        return self.record


def play_reference(rules: TwoHundredRules, sids, params, seed: int, game: int, decide, **kw) -> GameRecord:
    return ReferenceGame(rules, sids, params, seed, game, decide, **kw).play()
