"""Yaniv's contract hooks (``GameDef.card_audit`` and ``GameDef.view_twins``, docs/contract.md):
every card of a kernel transcript accounted for, and no strategy that reads more than its view.

``card_audit`` replays a transcript's card movements — the deal (Y-DEAL-1/2), each discard
(Y-DIS), draw (Y-DRAW-1/2), request (Y-V-REQ), slam (Y-V-SLAM) and reshuffle (Y-STOCK-1) — on
multisets of faces and names every card that came from nowhere or from the wrong place.

``view_twins`` plays one reference game and asks every decision twice: as played, and once more,
from a copy of the seat's random state, in a twin state in which every card hidden from the decider
— the stock and the opponents' cards it has not seen them take — has been dealt again. The engine
builds the twin's view the way it builds every view; a decision that changes read something hidden.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from simcards.games.twins import ViewMemory
from simcards.games.yaniv import layout as L
from simcards.games.yaniv.reference import ReferenceGame, deck
from simcards.games.yaniv.rules import YanivRules


# --- card_audit ------------------------------------------------------------------------------------
class _Table:
    """The cards of one round, as multisets: each hand, the stock, the previous discard (the group
    the next player may take from), the group being thrown and the buried pile."""

    def __init__(self, rules: YanivRules, rnd: int, problems: list[str]):
        self.rnd, self.problems = rnd, problems
        self.deck = Counter(deck(rules))
        self.stock = Counter(self.deck)
        self.hands: dict[int, Counter] = {}
        self.prev: Counter = Counter()
        self.thrown: Counter | None = None
        self.buried: Counter = Counter()

    def move(self, card: int, source: Counter, target: Counter, what: str) -> None:
        if source[card] <= 0:
            self.problems.append(f"round {self.rnd}: {what} {card}, which is not there")
            return
        source[card] -= 1
        target[card] += 1

    def hand(self, seat: int) -> Counter:
        return self.hands.setdefault(seat, Counter())

    def end_turn(self) -> None:
        """The previous discard is buried; the group just thrown is the next player's to take from."""
        if self.thrown is not None:
            self.buried += self.prev
            self.prev, self.thrown = self.thrown, None

    def check(self) -> None:
        held = sum(self.hands.values(), Counter()) + self.stock + self.prev + self.buried + (self.thrown or Counter())
        if +held != +self.deck:
            self.problems.append(f"round {self.rnd}: the cards no longer make the deck "
                                 f"(missing {dict(self.deck - held)}, extra {dict(held - self.deck)})")


def card_audit(rules: YanivRules, players: int, transcript: np.ndarray) -> list[str]:
    """Where a kernel transcript loses, duplicates or invents a card ([] when every card is
    accounted for)."""
    problems: list[str] = []
    table: _Table | None = None
    asker = -1
    for row in transcript.tolist():
        event, rnd, seat, a, b = row[:5]
        cards = row[5:]
        if table is None or table.rnd != rnd:
            if table is not None:
                table.end_turn()
                table.check()
            table = _Table(rules, rnd, problems)
        if event == L.EV_HAND:  # Y-DEAL-1
            for c in cards[:a]:
                table.move(c, table.stock, table.hand(seat), f"seat {seat} is dealt")
        elif event == L.EV_UPCARD:  # Y-DEAL-2
            table.move(a, table.stock, table.prev, "the face-up card is")
        elif event == L.EV_DISCARD:  # Y-DIS: the group leaves the hand
            table.end_turn()
            table.thrown = Counter()
            for c in cards[:a]:
                table.move(c, table.hand(seat), table.thrown, f"seat {seat} throws")
        elif event == L.EV_DRAW:  # Y-DRAW-1/2
            source = table.stock if a < 0 else table.prev
            if a >= 0 and a != b:
                problems.append(f"round {rnd}: seat {seat} took {a} from the discard but got {b}")
            table.move(b, source, table.hand(seat), f"seat {seat} draws")
        elif event == L.EV_REQUEST and b > 0:  # Y-V-REQ: who asked
            asker = seat
        elif event == L.EV_GRANT:
            taker = asker if b == 1 else seat
            table.end_turn()
            table.move(a, table.prev, table.hand(taker), f"seat {taker} takes the requested")
        elif event == L.EV_SLAM and b == 1 and table.thrown is not None:  # Y-V-SLAM
            table.move(a, table.hand(seat), table.thrown, f"seat {seat} slams")
        elif event == L.EV_RESHUFFLE:  # Y-STOCK-1: the buried pile becomes the stock
            table.end_turn()
            if sum(table.buried.values()) != a or +table.stock:
                problems.append(f"round {rnd}: a reshuffle of {a} cards from a buried pile of "
                                f"{sum(table.buried.values())} with {sum(table.stock.values())} left in the stock")
            table.stock, table.buried = table.stock + table.buried, Counter()
        elif event in (L.EV_CALL, L.EV_SCORE, L.EV_ROUND, L.EV_ONDER):
            table.end_turn()
    if table is not None:
        table.end_turn()
        table.check()
    return problems


# --- view_twins ------------------------------------------------------------------------------------
class TwinGame(ViewMemory, ReferenceGame):
    """A reference game that asks every decision once more in a twin state (``view_twins``; the
    mixin takes ``redeal``)."""

    def view(self, seat, hands, turn, stock, rnd, starter, avail, thrown=()) -> np.ndarray:
        v = super().view(seat, hands, turn, stock, rnd, starter, avail, thrown)
        return self.remember(v, (seat, hands, turn, stock, rnd, starter, list(avail), list(thrown)))

    def ask(self, kind: int, seat: int, hand: list[int], options: list[tuple[int, ...]], view) -> int:
        rng = self.seat_rng[seat].copy()  # the same random state for the twin
        choice = super().ask(kind, seat, hand, options, view)
        twin = self.twin_view(self.built_with(view), view)
        again = int(self.decide(kind, self.sids[seat], self.params[seat], self._hand, len(hand), self._opts,
                                len(options), twin, self.encoded, rng))
        self.pairs.append((choice, again))
        return choice

    def twin_view(self, state: tuple, view: np.ndarray) -> np.ndarray:
        """The view the engine builds from the twin state; what the engine wrote into the view
        after building it (a Kluft's revealed totals, a request) carried over as it is."""
        seat, hands, turn, stock, rnd, starter, avail, thrown = state
        base = super().view(seat, hands, turn, stock, rnd, starter, avail, thrown)
        later = np.flatnonzero(base != view)
        twin_hands, twin_stock = self.redealt(seat, hands, stock)
        twin = super().view(seat, twin_hands, turn, twin_stock, rnd, starter, avail, thrown)
        twin[later] = view[later]
        return twin

    def redealt(self, seat: int, hands: dict[int, list[int]], stock: list[int]):
        """The hidden cards dealt again: the stock and every opponent's cards but one copy of each
        face it is known to hold (taken from a discard in view of all, ``self.known``), shuffled
        and dealt back into the same places, hand sizes kept."""
        hidden = [int(c) for c in stock]
        kept: dict[int, list[int]] = {}
        for p, cards in hands.items():
            if p == seat:
                continue
            kept[p] = []
            for c in cards:
                if self.known[p] >> c & 1 and c not in kept[p]:
                    kept[p].append(c)
                else:
                    hidden.append(c)
        pool = [int(c) for c in self.redeal.permutation(hidden)]
        twin = {seat: list(hands[seat])}
        for p, cards in hands.items():
            if p != seat:
                twin[p] = sorted(kept[p] + [pool.pop() for _ in range(len(cards) - len(kept[p]))])
        return twin, pool


def view_twins(rules: YanivRules, players: int, sids, params, seed: int, game: int, decide) -> list[tuple[int, int]]:
    """For every decision of one reference game: (the option chosen, the option the same strategy
    chooses from the same random state once every card hidden from the decider has been dealt
    again)."""
    twin = TwinGame(rules, players, sids, params, seed, game, decide, redeal=np.random.default_rng([seed, game]))
    twin.play()
    return twin.pairs
