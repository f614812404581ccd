"""The Gin Rummy reference engine: plain Python, written to be read beside ``gin-rummy.md``.

It shares with the kernel only what must be shared for both to play the same game: the random
stream (``simcards.rng``), the strategies' decision functions and the options they are shown.
Melds, deadwood, lay-offs, scoring and the game are re-derived here from the rules text (with
the documented tie-breaks of ``melds``). It records a readable event list (``simcards replay``)
and the same transcript rows the kernel logs, so a test can compare the engines move for move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product

import numpy as np

from simcards.cards import card_code
from simcards.games.gin import layout as L
from simcards.games.gin.kernel import (
    EV_DEAL,
    EV_DISCARD,
    EV_DRAW,
    EV_HAND_END,
    EV_KNOCK,
    EV_LAST,
    EV_LAYOFF,
    EV_SCORE,
    EV_UPCARD,
    EV_UPCARD_CHOICE,
    EV_WALL,
    LOG_WIDTH,
)
from simcards.games.gin.rules import HAND_SIZE, GinRules
from simcards.rng import new_state, rand_below, shuffle


# ----- Section 1: cards --------------------------------------------------------------------------
def rank(card: int) -> int:
    return card % 13


def suit(card: int) -> int:
    return card // 13


def value(card: int) -> int:
    """G-CARD-1: A = 1, 2..10 face value, J/Q/K = 10."""
    return min(rank(card) + 1, 10)


def show(cards) -> str:
    cards = sorted(cards, key=lambda c: (suit(c), rank(c)))
    return " ".join(card_code(c) for c in cards) if cards else "—"


# ----- Section 2: melds and deadwood ---------------------------------------------------------------
def runs_of(cards) -> list[tuple[int, ...]]:
    """G-MELD-1/3 with runs only: in each suit, every maximal block of 3+ consecutive ranks (ace
    low) is one run — any other card of the suit cannot be in a run."""
    runs = []
    for c in sorted(cards):
        if c - 1 in cards and suit(c - 1) == suit(c):
            continue  # not the start of a block
        block = [c]
        while block[-1] + 1 in cards and suit(block[-1] + 1) == suit(c):
            block.append(block[-1] + 1)
        if len(block) >= 3:
            runs.append(tuple(block))
    return runs


def set_choices(cards) -> list[list[tuple[int, ...]]]:
    """For each rank holding 3+ cards (ace to king), the sets it may give, in the documented
    tie-break order: none, the 4-set, the 3-sets leaving out the spade, heart, diamond, club."""
    out = []
    for r in range(13):
        at_rank = tuple(s * 13 + r for s in range(4) if s * 13 + r in cards)
        if len(at_rank) == 3:
            out.append([(), at_rank])
        elif len(at_rank) == 4:
            out.append([(), at_rank] + [tuple(c for c in at_rank if suit(c) != s) for s in range(4)])
    return out


@lru_cache(maxsize=1 << 16)
def arrangement(cards: frozenset[int]) -> tuple[int, tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """G-MELD-2/4 and G-LAY-0: (minimum deadwood, sets, runs) — a card in at most one meld; the
    first minimum in the documented order."""
    best = None
    for combo in product(*set_choices(cards)):
        sets = tuple(s for s in combo if s)
        rest = cards.difference(*sets)
        runs = tuple(runs_of(rest))
        dw = sum(value(c) for c in rest.difference(*runs))
        if best is None or dw < best[0]:
            best = (dw, sets, runs)
    return best


def deadwood(cards) -> int:
    return arrangement(frozenset(cards))[0]


def layoff(defender: frozenset[int], sets, runs) -> tuple[int, frozenset[int]]:
    """G-LAY-1: the defender lays off onto the knocker's melds — chains extending each run down
    and up, the missing fourth card of each 3-set — choosing the lay-offs (and, through
    ``deadwood``, the melds) that leave the lowest deadwood; ties: more cards laid off, then the
    lower card mask."""
    chains: list[list[int]] = []
    for run in runs:
        s, lo, hi = suit(run[0]), rank(run[0]), rank(run[-1])
        down, r = [], lo - 1
        while r >= 0 and s * 13 + r in defender:
            down.append(s * 13 + r)
            r -= 1
        up, r = [], hi + 1
        while r <= 12 and s * 13 + r in defender:
            up.append(s * 13 + r)
            r += 1
        chains += [c for c in (down, up) if c]
    for st in sets:
        if len(st) == 3:
            missing = next(s * 13 + rank(st[0]) for s in range(4) if s * 13 + rank(st[0]) not in st)
            if missing in defender:
                chains.append([missing])
    best_key, best = None, (deadwood(defender), frozenset())
    for lengths in product(*[range(len(ch) + 1) for ch in chains]):
        laid = frozenset(c for ch, k in zip(chains, lengths) for c in ch[:k])
        key = (deadwood(defender - laid), -len(laid), sum(1 << c for c in laid))
        if best_key is None or key < best_key:
            best_key, best = key, (key[0], laid)
    return best


# ----- Section 4: scoring ------------------------------------------------------------------------------
def hand_result(knocker_dw: int, defender_dw: int, rules: GinRules) -> tuple[str, int, int]:
    """G-SC-2..4: (outcome, who scores: 0 knocker / 1 defender / -1 nobody, points)."""
    if knocker_dw == 0:
        return "gin", 0, rules.gin_bonus + defender_dw
    if knocker_dw < defender_dw:
        return "knock", 0, defender_dw - knocker_dw
    if knocker_dw == defender_dw and not rules.undercut_on_tie:
        return "tie", -1, 0
    return "undercut", 1, knocker_dw - defender_dw + rules.undercut_bonus


def final_scores(points: list[int], won: list[int], winner: int, rules: GinRules) -> tuple[list[int], bool, int]:
    """G-GAME-1..3: (final scores with bonuses, shutout?, margin)."""
    final = [points[p] + rules.box_bonus * won[p] for p in range(2)]
    if winner < 0:
        return final, False, abs(final[0] - final[1])
    loser = 1 - winner
    shutout = points[loser] == 0
    if shutout and rules.shutout == "double":
        final[winner] = 2 * (final[winner] + rules.game_bonus)
    else:
        final[winner] += rules.shutout_bonus if shutout else rules.game_bonus
    return final, shutout, final[winner] - final[loser]


# ----- the game ----------------------------------------------------------------------------------------
@dataclass
class Event:
    kind: str
    hand: int
    seat: int
    text: str


@dataclass
class HandRecord:
    hand: int
    dealer: int
    knocker: int
    outcome: str
    winner: int
    points: int
    turns: int
    upcard_taker: int
    laid: frozenset
    stock: int
    deadwood: list[int]
    scores: list[int]


@dataclass
class GameRecord:
    winner: int = -1
    first_dealer: int = -1
    points: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    final: list[int] = field(default_factory=list)
    shutout: bool = False
    margin: int = 0
    capped: bool = False
    hands: list[HandRecord] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    log: list[list[int]] = field(default_factory=list)

    def log_array(self) -> np.ndarray:
        arr = np.zeros((len(self.log), LOG_WIDTH), dtype=np.int64)
        for i, row in enumerate(self.log):
            arr[i, : len(row)] = row
        return arr


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class ReferenceGame:
    """One game of Gin Rummy, played rule by rule. ``decide`` is the strategies' decision
    function (the same one the kernel calls); ``sids``/``params`` give each seat's strategy."""

    def __init__(self, rules: GinRules, sids, params, seed: int, game: int, decide):
        self.rules = rules
        self.encoded = rules.encode()
        self.sids = np.asarray(sids, dtype=np.int64)
        self.params = np.asarray(params, dtype=np.float64)
        self.decide = decide
        self.rng = new_state(seed, game)
        self.points = [0, 0]
        self.won = [0, 0]
        self.record = GameRecord()

    # --- helpers ----------------------------------------------------------------------------------
    def say(self, kind: str, hand: int, seat: int, text: str) -> None:
        self.record.events.append(Event(kind, hand, seat, text))

    def log(self, event: int, hand: int, seat: int, a: int = 0, b: int = 0, c: int = 0, cards=()) -> None:
        self.record.log.append([event, hand, seat, int(a), int(b), int(c), *list(cards)[: L.MAX_HAND]])

    def ask(self, kind: int, seat: int, options: list[tuple[int, ...]], view) -> int:
        if len(options) <= 1:  # a forced move is not asked (the kernel does the same)
            return 0
        opts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
        for i, row in enumerate(options):
            opts[i, : len(row)] = row
        hand = np.zeros(L.MAX_HAND, dtype=np.int64)
        cards = sorted(self.hands[seat])
        hand[: len(cards)] = cards
        choice = int(self.decide(kind, self.sids[seat], self.params[seat], hand, len(cards), opts, len(options),
                                 view, self.encoded, self.rng))
        if not 0 <= choice < len(options):
            raise ValueError("a gin strategy returned an option index out of range")
        return choice

    def view(self, seat: int, dw: int, taken: int = -1, must: bool = False, first: bool = False) -> np.ndarray:
        """What a player may see (G-INFO-1): own hand, the pile, what the opponent took from it,
        discarded or declined, the stock size and the scores."""
        o = 1 - seat
        v = np.zeros(L.VIEW_SIZE, dtype=np.int64)
        v[L.V_SEAT] = seat
        v[L.V_DEALER] = self.dealer
        v[L.V_HAND] = self.hand_no
        v[L.V_TURN] = self.turn
        v[L.V_MY_TURNS] = self.my_turns[seat]
        v[L.V_STOCK] = len(self.stock)
        v[L.V_TOP] = self.pile[-1] if self.pile else -1
        v[L.V_DW] = dw
        v[L.V_LIMIT] = self.rules.knock_limit
        v[L.V_MY_SCORE] = self.points[seat]
        v[L.V_OPP_SCORE] = self.points[o]
        v[L.V_TARGET] = self.rules.game_target
        v[L.V_MASK] = _mask(self.hands[seat])
        v[L.V_OPP_TOOK] = _mask(self.took[o])
        v[L.V_OPP_DISCARDS] = _mask(self.discarded[o])
        v[L.V_PILE] = _mask(self.pile)
        v[L.V_TAKEN] = taken
        v[L.V_TAKE_MUST_KNOCK] = int(must)
        v[L.V_FIRST] = int(first)
        v[L.V_OPP_PASSED] = _mask(self.passed[o])
        return v

    def take_option(self, seat: int, card: int, may_rediscard: bool) -> tuple[int, int, int, int]:
        """The 'take it' row: [1, card, deadwood of the 11 cards, lowest deadwood after a legal
        discard]."""
        eleven = self.hands[seat] | {card}
        after = min(deadwood(eleven - {d}) for d in eleven if d != card or may_rediscard)
        return (1, card, deadwood(eleven), after)

    # --- Section 3: play -----------------------------------------------------------------------------
    def take_top(self, seat: int) -> int:
        card = self.pile.pop()
        self.hands[seat].add(card)
        self.took[seat].add(card)
        return card

    def draw_stock(self, seat: int) -> int:
        card = self.stock.pop()
        self.hands[seat].add(card)
        return card

    def discard_and_knock(self, seat: int, taken: int, must_knock: bool, may_rediscard: bool, first: bool) -> bool:
        """G-TURN-1/2: discard a card (not the one just taken from the pile, unless the rules allow
        it); G-KNOCK-1: knock if the deadwood left is within the limit (and the player wants to).
        With ``must_knock`` (G-TURN-3, G-WALL-2) only knocking discards are legal."""
        limit = self.rules.knock_limit
        hand = self.hands[seat]
        options = []
        for c in sorted(hand):
            if c == taken and not may_rediscard:
                continue
            dw = deadwood(hand - {c})
            if must_knock and dw > limit:
                continue
            options.append((c, dw))
        view = self.view(seat, min(dw for _, dw in options), taken=taken, first=first)
        a = self.ask(L.K_DISCARD, seat, options, view)
        card, dw = options[a]
        hand.remove(card)
        self.pile.append(card)
        self.discarded[seat].add(card)
        self.log(EV_DISCARD, self.hand_no, seat, card, a, dw)
        knock = 0
        if dw <= limit:
            if must_knock:
                knock = 1
            else:
                knock = self.ask(L.K_KNOCK, seat, [(0, dw), (1, dw)], self.view(seat, dw, first=first))
            self.log(EV_KNOCK, self.hand_no, seat, knock, dw)
        self.my_turns[seat] += 1
        self.turn += 1
        self.say("discard", self.hand_no, seat, f"seat {seat} discards {card_code(card)}"
                 + (f" and {'goes gin' if dw == 0 else f'knocks with {dw}'}" if knock else f" (deadwood {dw})"))
        return knock == 1

    def play_hand(self) -> HandRecord:
        rules = self.rules
        n = self.hand_no
        dealer = self.dealer
        non_dealer = 1 - dealer
        # G-DEAL-2: shuffle; ten cards each, one at a time, the non-dealer first; turn up the 21st.
        deck = np.arange(52, dtype=np.int64)
        shuffle(self.rng, deck, 52)
        self.stock = [int(c) for c in deck]
        self.hands = [set(), set()]
        for _ in range(HAND_SIZE):
            for q in (non_dealer, dealer):
                self.hands[q].add(self.stock.pop())
        for p in range(2):
            self.log(EV_DEAL, n, p, HAND_SIZE, 0, 0, sorted(self.hands[p]))
        self.say("hand", n, dealer, f"— hand {n}: seat {dealer} deals —")
        for p in range(2):
            dw, sets, runs = arrangement(frozenset(self.hands[p]))
            self.say("deal", n, p, f"seat {p} is dealt {show(self.hands[p])} (deadwood {dw})")
        self.pile = [self.stock.pop()]
        self.log(EV_UPCARD, n, -1, self.pile[0])
        self.say("upcard", n, -1, f"upcard {card_code(self.pile[0])}; {len(self.stock)} cards in the stock")
        self.took, self.discarded, self.passed = [set(), set()], [set(), set()], [set(), set()]
        self.my_turns = [0, 0]
        self.turn = 0
        gra = rules.gra_rediscard
        # G-FIRST-1: the non-dealer may take the upcard; if not, the dealer; if neither, the
        # non-dealer draws from the stock.
        taker = -1
        for q in (non_dealer, dealer):
            top = self.pile[-1]
            view = self.view(q, deadwood(self.hands[q]), first=True)
            c = self.ask(L.K_UPCARD, q, [(0, -1), self.take_option(q, top, gra)], view)
            self.log(EV_UPCARD_CHOICE, n, q, c, top)
            if c == 1:
                taker = q
                break
            self.passed[q].add(top)
            self.say("pass", n, q, f"seat {q} declines the upcard {card_code(top)}")
        if taker >= 0:
            seat = taker
            taken = self.take_top(seat)
            self.log(EV_DRAW, n, seat, 1, taken)
            self.say("draw", n, seat, f"seat {seat} takes the upcard {card_code(taken)}")
        else:
            seat = non_dealer
            card = self.draw_stock(seat)
            taken = -1
            self.log(EV_DRAW, n, seat, 0, card)
            self.say("draw", n, seat, f"seat {seat} draws from the stock ({card_code(card)})")
        knocked = self.discard_and_knock(seat, taken, False, gra, True)
        capped = False
        while not knocked:
            if len(self.stock) <= 2:  # G-WALL-1
                self.log(EV_WALL, n, seat, len(self.stock))
                self.say("wall", n, seat, "the stock is down to 2 cards and nobody knocked")
                if rules.last_chance or rules.fiftieth_card:  # G-WALL-2, G-WALL-3
                    other = 1 - seat
                    top = self.pile[-1]
                    option = self.take_option(other, top, rules.fiftieth_card)
                    if option[3] <= rules.knock_limit:
                        view = self.view(other, deadwood(self.hands[other]), must=True)
                        c = self.ask(L.K_LAST, other, [(0, -1), option], view)
                        self.log(EV_LAST, n, other, c, top)
                        if c == 1:
                            seat = other
                            taken = self.take_top(seat)
                            self.log(EV_DRAW, n, seat, 1, taken)
                            self.say("draw", n, seat, f"last chance: seat {seat} takes {card_code(taken)}")
                            knocked = self.discard_and_knock(seat, taken, True, rules.fiftieth_card, False)
                        else:
                            self.say("pass", n, other, f"seat {other} lets the last discard go")
                break
            if self.turn >= L.TURN_CAP:
                capped = True
                self.say("cap", n, -1, f"the hand hit the turn cap ({L.TURN_CAP} discards); scored as void")
                break
            seat = 1 - seat
            top = self.pile[-1]
            # G-TURN-3: with gra_rediscard one's own discard comes back only to knock.
            must = gra and top in self.discarded[seat]
            option = self.take_option(seat, top, gra)
            options = [(0, -1)] if must and option[3] > rules.knock_limit else [(0, -1), option]
            view = self.view(seat, deadwood(self.hands[seat]), must=must)
            d = self.ask(L.K_DRAW, seat, options, view)
            if d == 1:
                taken = self.take_top(seat)
                self.log(EV_DRAW, n, seat, 1, taken)
                self.say("draw", n, seat, f"seat {seat} takes {card_code(taken)} from the discard pile")
            else:
                self.passed[seat].add(top)
                card = self.draw_stock(seat)
                taken = -1
                self.log(EV_DRAW, n, seat, 0, card)
                self.say("draw", n, seat, f"seat {seat} draws from the stock ({card_code(card)})")
            knocked = self.discard_and_knock(seat, taken, must and d == 1, gra, False)
        deadwoods = [deadwood(self.hands[0]), deadwood(self.hands[1])]
        outcome, winner, points, laid, knocker = ("capped" if capped else "wall"), -1, 0, frozenset(), -1
        if knocked:
            knocker, defender = seat, 1 - seat
            k_dw, sets, runs = arrangement(frozenset(self.hands[knocker]))
            melds = list(sets) + list(runs)
            dead = self.hands[knocker] - {c for m in melds for c in m}
            self.say("knock", n, knocker, f"seat {knocker} lays out " + " | ".join(show(m) for m in melds)
                     + (f"; deadwood {show(dead)} = {k_dw}" if dead else " — gin!"))
            if k_dw == 0:  # G-LAY-1: no lay-offs on gin
                d_dw = deadwood(self.hands[defender])
            else:
                d_dw, laid = layoff(frozenset(self.hands[defender]), sets, runs)
            rest = frozenset(self.hands[defender] - laid)
            _, d_sets, d_runs = arrangement(rest)
            self.say("defend", n, defender, f"seat {defender} lays out "
                     + (" | ".join(show(m) for m in list(d_sets) + list(d_runs)) or "no melds")
                     + (f", lays off {show(laid)}" if laid else "") + f"; deadwood {d_dw}")
            k_sets_mask = _mask(c for s in sets for c in s)
            self.log(EV_LAYOFF, n, defender, d_dw, _mask(laid), k_sets_mask)
            outcome, who, points = hand_result(k_dw, d_dw, rules)
            winner = -1 if who < 0 else (knocker if who == 0 else defender)
            deadwoods[knocker], deadwoods[defender] = k_dw, d_dw
        self.log(EV_HAND_END, n, winner, L.OUTCOMES.index(outcome), points, knocker)
        return HandRecord(n, dealer, knocker, outcome, winner, points, self.turn, taker, laid, len(self.stock),
                          deadwoods, [])

    # --- Section 4: the game ---------------------------------------------------------------------------
    def play(self) -> GameRecord:
        rules = self.rules
        self.dealer = int(rand_below(self.rng, 2))  # G-DEAL-1 Decision: a uniform draw
        self.record.first_dealer = self.dealer
        winner = -1
        self.hand_no = 0
        while True:
            self.hand_no += 1
            hand = self.play_hand()
            if hand.winner >= 0:
                self.points[hand.winner] += hand.points
                self.won[hand.winner] += 1
            hand.scores = list(self.points)
            self.record.hands.append(hand)
            for p in range(2):
                self.log(EV_SCORE, self.hand_no, p, self.points[p], self.won[p])
            if hand.winner >= 0:
                self.say("score", self.hand_no, hand.winner, f"{hand.outcome}: seat {hand.winner} scores "
                         f"{hand.points} → totals {self.points[0]}–{self.points[1]}")
            else:
                self.say("score", self.hand_no, -1,
                         f"{hand.outcome}: no score; totals {self.points[0]}–{self.points[1]}")
            if max(self.points) >= rules.game_target:  # G-GAME-1
                winner = 0 if self.points[0] >= rules.game_target else 1
                break
            if self.hand_no >= L.HAND_CAP:
                self.record.capped = True
                break
            if hand.winner >= 0:  # G-DEAL-1; a void hand or a 0-0 tie: the same dealer again
                if rules.next_dealer == "loser":
                    self.dealer = 1 - hand.winner
                elif rules.next_dealer == "winner":
                    self.dealer = hand.winner
                else:
                    self.dealer = 1 - self.dealer
        final, shutout, margin = final_scores(self.points, self.won, winner, rules)
        rec = self.record
        rec.winner, rec.points, rec.won, rec.final, rec.shutout, rec.margin = (
            winner, list(self.points), list(self.won), final, shutout, margin)
        self.say("game", self.hand_no, winner,
                 f"seat {winner} wins the game after {self.hand_no} hands: points {self.points[0]}–{self.points[1]}, "
                 f"hands won {self.won[0]}–{self.won[1]}, with bonuses {final[0]}–{final[1]}"
                 f"{' (shutout)' if shutout else ''}; margin {margin}")
        return rec


def play_reference(rules: GinRules, sids, params, seed: int, game: int, decide) -> GameRecord:
    return ReferenceGame(rules, sids, params, seed, game, decide).play()
