"""Gin's contract hooks (``GameDef.card_audit`` and ``GameDef.view_twins``, docs/contract.md):
every card of a kernel transcript accounted for, and no strategy that reads more than its view.

``card_audit`` replays a transcript's card movements table by table — the deal (G-DEAL-2,
G-V-DEAL11), the upcard, each draw from the stock or the pile (G-TURN-1, G-FIRST-1, G-WALL-2),
each discard, the lay-offs onto the knocker's melds (G-LAY-1) and, under G-V-MJ, the pile pickups
and the cards put on the table — on sets of cards, and names every card that came from nowhere or
from the wrong place, a hand of the wrong size and a deck that does not add up at the hand's end.

``view_twins`` plays one reference game and asks every decision twice: as played, and once more,
from a copy of the seat's random state, in a twin state in which every card hidden from the decider
(G-INFO-1) — the opponent's cards but those it took from the discard pile, and the stock, in its
order — has been dealt again. The engine builds the twin's view the way it builds every view (the
same ``view`` call); the options are the decider's own (its hand and the pile, which the twin does
not change). A decision that changes read something hidden.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from simcards.games.gin import layout as L
from simcards.games.gin.reference import ReferenceGame
from simcards.games.gin.rules import HAND_SIZE, GinRules
from simcards.games.twins import ViewMemory

DECK = frozenset(range(52))


def _cards(mask: int) -> set[int]:
    return {c for c in range(52) if mask >> c & 1}


# --- card_audit ------------------------------------------------------------------------------------
class _Table:
    """The cards of one table's hand: each hand, the stock, the discard pile (in order) and, under
    G-V-MJ, the cards each player put on the table."""

    def __init__(self, rules: GinRules, hand: int, problems: list[str]):
        self.rules, self.hand, self.problems = rules, hand, problems
        self.hands: dict[int, set[int]] = {}
        self.stock: set[int] = set(DECK)
        self.pile: list[int] = []
        self.table: dict[int, set[int]] = {}
        self.ended = False

    def say(self, text: str) -> None:
        self.problems.append(f"hand {self.hand}: {text}")

    def hand_of(self, seat: int) -> set[int]:
        if seat not in self.hands:
            self.say(f"seat {seat} plays at a table it was not dealt at")
            self.hands[seat] = set()
        return self.hands[seat]

    def take(self, card: int, source: set[int], target: set[int], what: str) -> None:
        if card not in source:
            self.say(f"{what} {card}, which is not there")
            return
        source.remove(card)
        target.add(card)

    def from_pile(self, seat: int, n: int, what: str) -> list[int]:
        """The top ``n`` cards of the pile into ``seat``'s hand."""
        if n > len(self.pile) or n < 1:
            self.say(f"seat {seat} {what} {n} cards from a pile of {len(self.pile)}")
            return []
        taken = self.pile[-n:]
        del self.pile[-n:]
        self.hand_of(seat).update(taken)
        return taken

    def check(self) -> None:
        """At the hand's end: the hands, the stock, the pile and the table make the deck once."""
        held = [c for h in self.hands.values() for c in h] + list(self.stock) + self.pile \
            + [c for t in self.table.values() for c in t]
        if len(held) != 52 or set(held) != DECK:
            missing, extra = sorted(DECK - set(held)), sorted({c for c in held if held.count(c) > 1})
            self.say(f"the cards no longer make the deck ({len(held)} cards; missing {missing}, twice {extra})")
        self.ended = True


def card_audit(rules: GinRules, players: int, transcript: np.ndarray) -> list[str]:
    """Where a kernel transcript loses, duplicates or invents a card ([] when every card is
    accounted for)."""
    problems: list[str] = []
    t: _Table | None = None
    mj = rules.mahjong
    for row in transcript.tolist():
        event, hand, seat, a, b, c = row[:6]
        if event == L.EV_DEAL:  # G-DEAL-2: a new table's hand once both hands of the last one are dealt
            if t is None or t.ended or len(t.hands) == 2:
                if t is not None and not t.ended:
                    t.check()
                t = _Table(rules, hand, problems)
            if seat in t.hands:
                t.say(f"seat {seat} is dealt twice")
            dealt = t.hands.setdefault(seat, set())
            t.table[seat] = set()
            for card in row[6:6 + a]:
                t.take(card, t.stock, dealt, f"seat {seat} is dealt")
            continue
        if t is None:
            problems.append(f"hand {hand}: event {event} before any deal")
            continue
        if event == L.EV_UPCARD:  # G-DEAL-2: the 21st card turned up
            if a in t.stock:
                t.stock.remove(a)
                t.pile.append(a)
            else:
                t.say(f"the upcard {a} is not in the stock")
        elif event == L.EV_DRAW:  # G-TURN-1: the stock (a = 0) or the pile's top (a = 1)
            if a == 1:
                taken = t.from_pile(seat, 1, "takes")
                if taken and taken[0] != b:
                    t.say(f"seat {seat} took {b} from the pile, whose top was {taken[0]}")
            else:
                t.take(b, t.stock, t.hand_of(seat), f"seat {seat} draws from the stock")
        elif event == L.EV_PICKUP:  # G-V-MJ: the top a cards, the placed ones (mask c) to the table
            t.from_pile(seat, a, "picks up")
            for card in sorted(_cards(c)):
                t.take(card, t.hand_of(seat), t.table.setdefault(seat, set()), f"seat {seat} puts on the table")
        elif event == L.EV_TABLE_LAYOFF:  # G-V-MJ: a card laid off onto a table meld
            t.take(a, t.hand_of(seat), t.table.setdefault(seat, set()), f"seat {seat} lays off")
        elif event == L.EV_DISCARD:  # G-TURN-2
            mine = t.hand_of(seat)
            if a in mine:
                mine.remove(a)
                t.pile.append(a)
            else:
                t.say(f"seat {seat} discards {a}, which it does not hold")
            if not mj and len(mine) != HAND_SIZE:
                t.say(f"seat {seat} holds {len(mine)} cards after its discard")
        elif event == L.EV_WALL and a != len(t.stock):  # G-WALL-1
            t.say(f"a wall with {a} cards in a stock of {len(t.stock)}")
        elif event == L.EV_LAYOFF:  # G-LAY-1: the defender's laid-off cards, the knocker's melds
            knocker = next((q for q in t.hands if q != seat), -1)
            if not _cards(b) <= t.hand_of(seat):
                t.say(f"seat {seat} lays off {sorted(_cards(b) - t.hand_of(seat))}, which it does not hold")
            if knocker >= 0 and not _cards(c) <= t.hands[knocker]:
                t.say(f"seat {knocker} melds {sorted(_cards(c) - t.hands[knocker])}, which it does not hold")
        elif event == L.EV_MJ_SCORE and _cards(c) != t.table.get(seat, set()):  # G-V-MJ
            t.say(f"seat {seat} is scored for table cards {sorted(_cards(c))}, "
                  f"not the {sorted(t.table.get(seat, set()))} it put there")
        elif event == L.EV_HAND_END and not t.ended:
            t.check()
    if t is not None and not t.ended:
        t.check()
    return problems


# --- view_twins ------------------------------------------------------------------------------------
class TwinGame(ViewMemory, ReferenceGame):
    """A reference game that asks every decision once more in a twin state (``view_twins``; the
    mixin takes ``redeal``)."""

    def view(self, seat: int, dw: int, taken: int = -1, must: bool = False, first: bool = False) -> np.ndarray:
        return self.remember(super().view(seat, dw, taken, must, first), (seat, dw, taken, must, first))

    def ask(self, kind: int, seat: int, options: list[tuple[int, ...]], view) -> int:
        if len(options) <= 1:  # not asked
            return super().ask(kind, seat, options, view)
        before = self.seat_rng[seat].copy()  # the same random state for the twin
        choice = super().ask(kind, seat, options, view)
        args = self.built_with(view)
        after, invalid = self.seat_rng[seat], self.record.invalid
        self.seat_rng[seat] = before
        with self.redealt(seat):
            again = super().ask(kind, seat, options, super().view(*args))
        self.seat_rng[seat], self.record.invalid = after, invalid
        self.pairs.append((choice, again))
        return choice

    @contextmanager
    def redealt(self, seat: int):
        """The cards hidden from ``seat`` dealt again for the twin: the opponent keeps the cards it
        took from the pile (``took``: seen by all, G-INFO-1) and gets the rest of its hand, the same
        number of cards, from the shuffled stock and hidden hand; the stock is what is left, in a new
        order. The real state is back afterwards."""
        o = self.opponent(seat)
        hand, stock = self.hands[o], self.stock
        known = hand & self.took[o]
        pool = [int(c) for c in self.redeal.permutation(sorted(hand - known) + list(stock))]
        k = len(hand) - len(known)
        self.hands[o], self.stock = known | set(pool[:k]), pool[k:]
        try:
            yield
        finally:
            self.hands[o], self.stock = hand, stock


def view_twins(rules: GinRules, sids, params, seed: int, game: int, decide) -> list[tuple[int, int]]:
    """For every decision of one reference game: (the option chosen, the option the same strategy
    chooses from the same random state once every card hidden from the decider has been dealt
    again)."""
    twin = TwinGame(rules, sids, params, seed, game, decide, redeal=np.random.default_rng([seed, game]))
    twin.play()
    return twin.pairs
