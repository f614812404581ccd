"""The Yaniv reference engine: plain Python, written to be read beside ``yaniv.md``.

It shares with the kernel only what must be shared for both to play the same game: the random
streams (``simcards.rng``: the deal's, the engine's alone, and one per seat for its strategy), the strategies' decision functions and the option order they are
shown (sorted by length, then laid cards). Legal groups, available cards, scoring, resets,
eliminations and starters are all re-derived here from the rules text. It records a readable
event list (``simcards replay``) and the same transcript rows the kernel logs, so a test can
compare the two engines move for move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

import numpy as np

from simcards.cards import card_code
from simcards.games.base import log_rows
from simcards.games.yaniv import layout as L
from simcards.games.yaniv.rules import HAND_SIZE, YanivRules
from simcards.policy import reference_choice
from simcards.rng import new_state, rand_below, seat_states, shuffle


# ----- Section 1: cards ------------------------------------------------------------------------
def is_joker(card: int) -> bool:
    return card >= 52


def rank(card: int) -> int:
    return card % 13


def suit(card: int) -> int:
    return card // 13


def deck(rules: YanivRules) -> list[int]:
    """Y-CARD-1/3: faces in id order, once per deck."""
    one = list(range(52)) + ([52, 53] if rules.jokers else [])
    return one * rules.decks


def value(card: int, rules: YanivRules) -> int:
    """Y-CARD-2 (and Y-V-NEP's face values)."""
    if is_joker(card):
        return 0
    r = rank(card)
    return r + 1 if r < 10 else rules.face_values[r - 10]


@lru_cache(maxsize=64)
def _values(rules: YanivRules) -> tuple[int, ...]:
    return tuple(value(c, rules) for c in range(54))


def total(hand: list[int], rules: YanivRules) -> int:
    values = _values(rules)
    return sum(values[c] for c in hand)


# ----- Section 3: legal groups (Y-DIS) -----------------------------------------------------------
def _set_layouts(cards: tuple[int, ...], rules: YanivRules) -> list[tuple[int, ...]]:
    """The ways to lay a set. Only the cards that can be taken matter: with ends-only pickup the
    discarder picks the two end cards (Y-DIS-6); in Kluft the top card; otherwise one way."""
    cards = tuple(sorted(cards))
    if rules.pickup == "top":
        return [cards[:i] + cards[i + 1:] + (cards[i],) for i in range(len(cards))]
    if len(cards) >= 3 and rules.pickup == "ends":
        out = []
        for i, j in combinations(range(len(cards)), 2):
            middle = tuple(c for k, c in enumerate(cards) if k not in (i, j))
            out.append((cards[i],) + middle + (cards[j],))
        return out
    return [cards]


def _runs_in_suit(hand: list[int], s: int, rules: YanivRules) -> list[tuple[int, ...]]:
    """Runs of 3+ consecutive ranks of suit ``s`` (aces low, Y-DIS-2); wild jokers fill any
    position but at least one natural card is needed (Y-DIS-3); laid ascending (Y-DIS-5)."""
    ranks = sorted({rank(c) for c in hand if not is_joker(c) and suit(c) == s})
    jokers = sorted(c for c in hand if is_joker(c)) if rules.jokers_wild else []
    runs = []
    if not ranks or len(ranks) + len(jokers) < 3:
        return runs  # too few cards for a run
    for k in range(1, len(ranks) + 1):
        for chosen in combinations(ranks, k):
            lo, hi = chosen[0], chosen[-1]
            span = hi - lo + 1
            if span - k > len(jokers):
                continue
            for length in range(max(3, span), min(13, k + len(jokers)) + 1):
                starts = list(range(max(0, hi - length + 1), min(lo, 13 - length) + 1))
                if rules.pickup == "any" and not rules.slam:
                    starts = starts[:1]  # any card takeable: joker positions matter only to a slam
                for start in starts:
                    spare = iter(jokers)
                    laid = tuple(s * 13 + r if r in chosen else next(spare) for r in range(start, start + length))
                    runs.append(laid)
                    if rules.pickup == "top":  # Kluft: laid high to low, the low card on top
                        runs.append(laid[::-1])
    return runs


def legal_groups(hand: list[int], rules: YanivRules) -> list[tuple[int, ...]]:
    """Every legal discard (Y-DIS-1..6) as laid, sorted by (length, cards)."""
    groups: set[tuple[int, ...]] = {(c,) for c in hand}
    by_rank: dict[int, list[int]] = {}
    for c in hand:
        if not is_joker(c):
            by_rank.setdefault(rank(c), []).append(c)
    jokers = [c for c in hand if is_joker(c)]
    same_rank = list(by_rank.values())
    if rules.joker_pair_set:
        same_rank.append(jokers)
    for cards in same_rank:
        for k in range(2, len(cards) + 1):
            for combo in combinations(cards, k):
                groups.update(_set_layouts(combo, rules))
    for s in range(4):
        groups.update(_runs_in_suit(hand, s, rules))
    return sorted(groups, key=lambda g: (len(g), g))


def is_set(group: tuple[int, ...]) -> bool:
    naturals = [c for c in group if not is_joker(c)]
    if len(group) < 2:
        return False
    if not naturals:
        return True
    return len(naturals) == len(group) and len({rank(c) for c in naturals}) == 1


def available_positions(group: list[int], rules: YanivRules) -> list[int]:
    """Y-DRAW-2: the ends of the previous discard; Y-V-PICK any card of a set; Y-V-NEP any card;
    Y-V-KLUFT only the top (last laid) card."""
    n = len(group)
    if n == 0:
        return []
    if rules.pickup == "top":
        return [n - 1]
    if rules.pickup == "any" or n <= 2 or (rules.pickup == "any_set" and is_set(tuple(group))):
        return list(range(n))
    return [0, n - 1]


def available_cards(group: list[int], rules: YanivRules) -> list[int]:
    return sorted({group[p] for p in available_positions(group, rules)})


# ----- Section 4: scoring -------------------------------------------------------------------------
def round_scores(totals: dict[int, int], caller: int, rules: YanivRules) -> tuple[dict[int, int], bool]:
    """Y-SC-1/2: the caller scores 0 if strictly lowest; otherwise Asaf — the caller adds hand +
    penalty and the others score by ``failed_call_others``."""
    mine = totals[caller]
    others = {p: t for p, t in totals.items() if p != caller}
    if rules.call_limit is not None and mine > rules.call_limit:
        # Y-V-OVERCALL: a call above the limit always costs hand + penalty; the others add their hands.
        return {caller: mine + rules.asaf_penalty, **others}, True
    asaf = any(t <= mine for t in others.values())
    if not asaf:
        return {caller: 0, **others}, False
    scores = {caller: mine + rules.asaf_penalty}
    for p, t in others.items():
        if rules.failed_call_others == "zero":
            scores[p] = 0
        elif rules.failed_call_others == "higher_only":
            scores[p] = t if t > mine else 0
        else:
            scores[p] = t
    return scores, True


def kluft_scores(totals: dict[int, int], claims: list[int], rules: YanivRules) -> tuple[dict[int, int], int]:
    """Y-V-KLUFT: ``claims`` = the Kluft caller, then the onderkluft callers in calling order.
    Nobody challenged: the caller scores 0 and everyone else adds their hand (even a lower one).
    Otherwise the lowest hand among the callers wins, ties to the earliest caller, and scores 0;
    every other caller adds hand + ``kluft_penalty``; the players who revealed add their hands
    (a revealer never wins, however low). Returns (scores, winner)."""
    winner = min(claims, key=lambda p: (totals[p], claims.index(p)))
    scores = dict(totals)
    for p in claims:
        scores[p] = 0 if p == winner else totals[p] + rules.kluft_penalty
    return scores, winner


def slam_position(group: list[int], card: int) -> int:
    """Y-V-SLAM: the index at which ``card`` joins the group just thrown, or -1. A joker never
    (Decision); a single or a set: a natural of the same rank, put last; a run (laid ascending):
    the next card of its suit below its first or above its last position, within Ace..King."""
    if is_joker(card):
        return -1
    naturals = [(i, c) for i, c in enumerate(group) if not is_joker(c)]
    if not naturals:
        return -1
    if len(group) == 1 or is_set(tuple(group)):
        return len(group) if rank(card) == rank(naturals[0][1]) else -1
    i, c = naturals[0]
    if suit(card) != suit(c):
        return -1
    low = rank(c) - i  # rank of the first position; the last is low + len - 1
    if rank(card) == low - 1:
        return 0
    if rank(card) == low + len(group):
        return len(group)
    return -1


def settle_round(scores: list[int], scored: dict[int, int], zero_rounds: list[int], alive: list[bool],
                 rules: YanivRules, playoff: bool) -> tuple[bool, list[int], list[tuple[int, str]]]:
    """After a round, in Y-RESET-1's order: (1) add the round scores; (2) Y-V-THREE's 20 off;
    (3) at most one reset; (4) eliminate players over the limit (Y-ELIM-1) — unless everyone left
    is over, which starts a play-off among the lowest (Y-ELIM-2; no resets or eliminations by
    score inside it). Updates ``scores``, ``zero_rounds`` and ``alive`` in place; returns
    (playoff, eliminated seats, notes)."""
    notes: list[tuple[int, str]] = []
    counts_zero = rules.three_zero_bonus and sum(alive) > 2
    resets = rules.reset_table()
    for p, s in scored.items():
        scores[p] += s
        if counts_zero and s == 0:
            zero_rounds[p] += 1
            z = zero_rounds[p]
            if z % 3 == 0 and (not rules.three_zero_once or z == 3):
                scores[p] = max(0, scores[p] - 20)
                notes.append((p, f"seat {p}: {z} rounds at zero, 20 off → {scores[p]}"))
        if not playoff and scores[p] in resets:
            notes.append((p, f"seat {p} lands on {scores[p]} → {resets[scores[p]]}"))
            scores[p] = resets[scores[p]]
    eliminated = []
    if not playoff:
        over = [p for p in scored if scores[p] > rules.out_over]
        if len(over) < len(scored):
            eliminated = over
        else:
            playoff = True
    if playoff:
        low = min(scores[p] for p in scored)
        eliminated = [p for p in scored if scores[p] != low]
        if len(eliminated) < len(scored) - 1:
            notes.append((-1, "tied for lowest: " + ", ".join(f"seat {p}" for p in scored if scores[p] == low)
                          + " play on (Y-ELIM-2)"))
    for p in eliminated:
        alive[p] = False
    return playoff, eliminated, notes


def next_starter(totals: dict[int, int], alive: list[bool], caller: int, rules: YanivRules) -> int:
    """Y-START-2: the lowest hand total among the players still in; ties go to the first of them
    in the direction of play counting from the caller's next player, the caller coming last."""
    players = len(alive)
    step = -1 if rules.direction == "counterclockwise" else 1
    order = [(caller + step * k) % players for k in range(1, players + 1)]
    order = [p for p in order if alive[p]]
    return min(order, key=lambda p: (totals[p], order.index(p)))


# ----- the game -----------------------------------------------------------------------------------
@dataclass
class Event:
    kind: str
    round: int
    seat: int
    text: str


@dataclass
class RoundRecord:
    round: int
    starter: int
    caller: int
    turns: int
    asaf: bool
    totals: dict[int, int]
    scores: dict[int, int]
    eliminated: list[int]
    playoff: bool


@dataclass
class GameRecord:
    winner: int
    starter: int
    scores: list[int]
    rounds: list[RoundRecord] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    log: list[list[int]] = field(default_factory=list)
    capped: bool = False
    # overcalls, requests, granted, requests blocked by the hand guard, slams, onderklufts, onderkluft
    # wins, discards offered from a full option table
    counts: list[int] = field(default_factory=lambda: [0] * 8)
    invalid: int = 0  # a user policy's option indices out of range (option 0 played; on_invalid="first")

    def log_array(self) -> np.ndarray:
        return log_rows(self.log, L.LOG_WIDTH)


class ReferenceGame:
    """One game of Yaniv, played rule by rule. ``decide`` is the strategies' decision function
    (the same one the kernel calls); ``sids``/``params`` give each seat's strategy."""

    def __init__(self, rules: YanivRules, players: int, sids, params, seed: int, game: int, decide,
                 on_invalid: str = "error"):
        self.on_invalid = on_invalid  # a policy's index out of range: stop, or play option 0 ("first")
        self.rules = rules
        self.encoded = rules.encode()
        self.players = players
        self.sids = np.asarray(sids, dtype=np.int64)
        self.params = np.asarray(params, dtype=np.float64)
        self.decide = decide
        self.rng = new_state(seed, game)  # the deal's stream: the engine's alone
        self.seat_rng = seat_states(seed, game, players)  # each seat's strategy stream (simcards.rng)
        self.scores = [0] * players
        self.zero_rounds = [0] * players
        self.alive = [True] * players
        self.kluft_calls = [0] * players  # Y-V-KLUFT: the callers' history, public
        self.kluft_beaten = [0] * players
        self.record = GameRecord(winner=-1, starter=-1, scores=[])
        self.check = None  # tests: called as check(event, state) after every action
        self.seen = [0] * L.N_FACES  # copies of each face in the discard pile (public memory)
        self.known = [0] * players  # faces known to be in each seat's hand (bit masks)
        self._opts = np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64)
        self._hand = np.zeros(L.MAX_HAND, dtype=np.int64)

    def audit(self, event: str, **state) -> None:
        if self.check is not None:
            self.check(event, state)

    # --- helpers -----------------------------------------------------------------------------
    def say(self, kind: str, rnd: int, seat: int, text: str) -> None:
        self.record.events.append(Event(kind, rnd, seat, text))

    def log(self, event: int, rnd: int, seat: int, a: int, b: int, cards=()) -> None:
        self.record.log.append([event, rnd, seat, a, b, *list(cards)[: L.ROW]])

    def next_seat(self, seat: int) -> int:
        """Y-PLAY-2: clockwise, or counter-clockwise in Nepali; eliminated players are skipped."""
        step = -1 if self.rules.direction == "counterclockwise" else 1
        s = (seat + step) % self.players
        while not self.alive[s]:
            s = (s + step) % self.players
        return s

    def ask(self, kind: int, seat: int, hand: list[int], options: list[tuple[int, ...]], view) -> int:
        opts = self._opts  # rows past len(options) are stale, as in the kernel: never read
        for i, row in enumerate(options):
            opts[i, 0] = len(row)
            opts[i, 1 : 1 + len(row)] = row
        h = self._hand
        h[: len(hand)] = hand
        choice = int(self.decide(kind, self.sids[seat], self.params[seat], h, len(hand), opts, len(options),
                                 view, self.encoded, self.seat_rng[seat]))
        return reference_choice(choice, len(options), kind, self.sids[seat], self.on_invalid, self.record)

    def view(self, seat, hands, turn, stock, rnd, starter, avail, thrown=()) -> np.ndarray:
        v = np.zeros(L.VIEW_SIZE, dtype=np.int64)
        v[L.V_SEAT] = seat
        v[L.V_PLAYERS] = self.players
        v[L.V_ALIVE_N] = sum(self.alive)
        v[L.V_TURN] = turn
        v[L.V_STOCK] = len(stock)
        v[L.V_ROUND] = rnd
        v[L.V_TOTAL] = total(hands[seat], self.rules)
        v[L.V_STARTER] = starter
        players = self.players
        v[L.V_SCORES : L.V_SCORES + players] = self.scores
        v[L.V_SIZES : L.V_SIZES + players] = [len(hands[p]) for p in range(players)]
        v[L.V_ALIVE : L.V_ALIVE + players] = self.alive
        v[L.V_AVAIL_N] = len(avail)
        v[L.V_AVAIL : L.V_AVAIL + len(avail)] = avail
        v[L.V_THROWN_N] = len(thrown)
        v[L.V_THROWN : L.V_THROWN + len(thrown)] = thrown
        v[L.V_REVEALED : L.V_REVEALED + L.MAX_PLAYERS] = -1
        if (self.sids > 1).any():  # as the kernel: kept when a seat may read it (not random, threshold)
            v[L.V_SEEN : L.V_SEEN + L.N_FACES] = self.seen
            for p in range(players):
                v[L.V_KNOWN + p] = self.known[p]
        return v

    # --- the public memory of the round (layout.V_SEEN, V_KNOWN): what every player has seen --------
    def mem_throw(self, seat: int, cards) -> None:
        for c in cards:
            self.seen[c] += 1
            self.known[seat] &= ~(1 << c)

    def mem_take(self, seat: int, face: int) -> None:
        self.seen[face] -= 1
        self.known[seat] |= 1 << face

    # --- Section 2 and 3: one round ----------------------------------------------------------------
    def play_round(self, rnd: int, starter: int):
        rules = self.rules
        # Y-DEAL-1: shuffle; five cards each, one at a time. Y-DEAL-2: the next card turned up.
        stock = np.array(deck(rules), dtype=np.int64)
        shuffle(self.rng, stock, len(stock))
        stock = list(stock)
        hands: dict[int, list[int]] = {p: [] for p in range(self.players)}
        for _ in range(HAND_SIZE):
            for p in range(self.players):
                if self.alive[p]:
                    hands[p].append(int(stock.pop()))
        for p in range(self.players):
            hands[p].sort()
            if self.alive[p]:
                self.log(L.EV_HAND, rnd, p, len(hands[p]), 0, hands[p])
                self.say("deal", rnd, p, f"seat {p} is dealt {show(hands[p])} ({total(hands[p], rules)})")
        previous = [int(stock.pop())]  # the previous discard, as laid
        self.seen = [0] * L.N_FACES
        self.seen[previous[0]] = 1
        self.known = [0] * self.players
        buried: list[int] = []  # the rest of the discard pile, in the order it was buried
        self.log(L.EV_UPCARD, rnd, -1, previous[0], 0)
        self.audit("deal", hands=hands, stock=stock, previous=previous, buried=buried)
        self.say("upcard", rnd, -1, f"face up: {show(previous)}")
        n_alive = sum(self.alive)
        seat, turn, caller = starter, 0, -1
        last = -1  # who threw the previous discard (-1: the face-up card)
        counts = self.record.counts
        while turn < L.TURN_CAP:
            hand = hands[seat]
            avail = available_cards(previous, rules)
            view = self.view(seat, hands, turn, stock, rnd, starter, avail)
            my_total = total(hand, rules)
            # Y-CALL-1/2, Y-V-LIMIT: only at the start of one's turn, within the limit;
            # Y-V-OVERCALL: above the limit too (a decision of its own).
            within = rules.call_limit is None or my_total <= rules.call_limit
            if not rules.full_turn_before_call or turn >= n_alive:
                kind = L.K_CALL if within else (L.K_OVERCALL if rules.overcall else None)
                if kind is not None:
                    choice = self.ask(kind, seat, hand, [(0,), (1,)], view)
                    self.log(L.EV_CALL, rnd, seat, my_total, choice)
                    if choice == 1:
                        self.audit("call", seat=seat, total=my_total, hands=hands, overcall=not within)
                        caller = seat
                        counts[0] += not within
                        word = "Kluft" if rules.kluft else "Yaniv"
                        self.say("call", rnd, seat, f"seat {seat} calls {word} with {show(hand)} = {my_total}"
                                 + ("" if within else " (over the limit: Y-V-OVERCALL)"))
                        break
            # Y-V-REQ: after the mover declined to call, the others (not the previous discarder)
            # are asked in turn order; the first to ask gets an answer; only while the stock can
            # still give the mover a draw, and only if no hand would pass the hand guard.
            if rules.requests and stock and avail:
                avail = self.requests(seat, hands, turn, stock, rnd, starter, avail, previous, buried, last)
                view = self.view(seat, hands, turn, stock, rnd, starter, avail)
            # Y-TURN-1, Y-DIS-1..6: throw one legal group.
            groups = legal_groups(hand, rules)
            if len(groups) >= L.MAX_OPTIONS:  # only hands grown by Y-V-REQ: the longest are dropped
                groups = groups[: L.MAX_OPTIONS]
                counts[7] += 1
            a = self.ask(L.K_DISCARD, seat, hand, groups, view)
            thrown = list(groups[a])
            before = list(hand)
            for c in thrown:
                hand.remove(c)
            self.mem_throw(seat, thrown)
            self.audit("discard", seat=seat, group=thrown, hand_before=before, hands=hands, stock=stock,
                       previous=previous, buried=buried, extra=thrown)
            self.log(L.EV_DISCARD, rnd, seat, len(thrown), a, thrown)
            # Y-DRAW-1/2: the stock's top card, or an available card of the previous discard.
            options = ([(-1,)] if stock else []) + [(c,) for c in avail]
            view = self.view(seat, hands, turn, stock, rnd, starter, avail, thrown)
            d = self.ask(L.K_DRAW, seat, hand, options, view)
            face = options[d][0]
            if face < 0:
                card = int(stock.pop())
                source = "the stock"
            else:
                card = face
                pos = next(p for p in available_positions(previous, rules) if previous[p] == face)
                del previous[pos]
                self.mem_take(seat, face)
                source = "the discard"
            hand.append(card)
            hand.sort()
            self.audit("draw", seat=seat, card=card, face=face, available=avail, hands=hands, stock=stock,
                       previous=previous, buried=buried, extra=thrown)
            self.log(L.EV_DRAW, rnd, seat, face, card)
            self.say("turn", rnd, seat, f"seat {seat} throws {show(thrown)}, takes {card_code(card)} from {source}"
                     f" → {show(hand)} ({total(hand, rules)})")
            # Y-V-SLAM: the drawn card may go straight onto the group just thrown; never the last card.
            if rules.slam and len(hand) >= 2:
                self.slam(seat, card, thrown, hands, stock, (turn, rnd, starter), avail, previous, buried)
            buried.extend(previous)
            previous = thrown
            last = seat
            # Y-STOCK-1: drawing the last stock card turns the buried pile into a new stock.
            if face < 0 and not stock:
                stock, buried = self.reshuffle(seat, rnd, hands, previous, buried), []
            turn += 1
            seat = self.next_seat(seat)
        self.claims = []
        if caller >= 0 and rules.kluft:
            self.claims = self.kluft_challenges(caller, hands, turn, stock, rnd, starter)
        totals = {p: total(hands[p], rules) for p in range(self.players) if self.alive[p]}
        if caller < 0:
            self.say("cap", rnd, -1, f"the round hit the turn cap ({L.TURN_CAP}); everyone adds their hand")
        return caller, turn, seat, totals, hands

    # --- Section 5 within a turn: requests, slams; the stock running out ---------------------------------
    def requests(self, seat, hands, turn, stock, rnd, starter, avail, previous, buried, last) -> list[int]:
        """Y-V-REQ: after the mover declined to call, the others (not the previous discarder, ``last``)
        are asked in turn order; the first to ask gets an answer; only while the stock can still
        give the mover a draw, and only if no hand would pass the hand guard. Returns the cards
        left to take."""
        rules, counts, hand = self.rules, self.record.counts, hands[seat]
        s = self.next_seat(seat)
        asked, face = -1, -1
        while s != seat:
            if s != last:
                if len(hands[s]) >= L.REQUEST_HAND_LIMIT or len(hand) >= L.REQUEST_HAND_LIMIT:
                    counts[3] += 1
                else:
                    options = [(-1,)] + [(c,) for c in avail]
                    r = self.ask(L.K_REQUEST, s, hands[s], options, self.view(s, hands, turn, stock, rnd, starter, avail))
                    face = options[r][0]
                    self.log(L.EV_REQUEST, rnd, s, face, r)
                    if r > 0:
                        asked = s
                        break
            s = self.next_seat(s)
        if asked < 0:
            return avail
        counts[1] += 1
        v = self.view(seat, hands, turn, stock, rnd, starter, avail)
        v[L.V_REQ_FACE] = face
        v[L.V_REQ_SEAT] = asked
        g = self.ask(L.K_GRANT, seat, hand, [(0,), (1,)], v)
        self.log(L.EV_GRANT, rnd, seat, face, g)
        taker = asked if g == 1 else seat
        self.mem_take(taker, face)
        counts[2] += g == 1
        hands[taker].append(face)
        hands[taker].sort()
        pos = next(p for p in available_positions(previous, rules) if previous[p] == face)
        del previous[pos]
        avail = list(avail)
        avail.remove(face)  # Decision: a second copy of that face is not offered
        self.say("request", rnd, asked, f"seat {asked} asks seat {seat} for {card_code(face)}: "
                 + ("granted" if g == 1 else f"refused, seat {seat} takes it")
                 + f" → seat {taker} holds {show(hands[taker])}")
        self.audit("request", hands=hands, stock=stock, previous=previous, buried=buried, taker=taker, face=face)
        return avail

    def slam(self, seat, card, thrown, hands, stock, when, avail, previous, buried) -> None:
        """Y-V-SLAM: the card just drawn may go onto ``thrown`` (``when``: turn, round, starter)."""
        turn, rnd, starter = when
        hand = hands[seat]
        pos = slam_position(thrown, card)
        if pos < 0:
            return
        sl = self.ask(L.K_SLAM, seat, hand, [(0,), (card,)], self.view(seat, hands, turn, stock, rnd, starter, avail, thrown))
        self.log(L.EV_SLAM, rnd, seat, card, sl)
        if sl == 1:
            self.record.counts[4] += 1
            hand.remove(card)
            thrown.insert(pos, card)
            self.mem_throw(seat, [card])
            self.audit("slam", seat=seat, card=card, group=thrown, hands=hands, stock=stock,
                       previous=previous, buried=buried, extra=thrown)
            self.say("slam", rnd, seat, f"seat {seat} slams {card_code(card)} down → {show(thrown)}")

    def reshuffle(self, seat, rnd, hands, previous, buried) -> list[int]:
        """Y-STOCK-1: drawing the last stock card turns the buried pile into a new stock (the deal's
        stream shuffles it); only the previous discard is left in view. Returns the new stock."""
        stock = np.array(buried, dtype=np.int64)
        shuffle(self.rng, stock, len(stock))
        stock = list(stock)
        self.seen = [0] * L.N_FACES
        for c in previous:
            self.seen[c] += 1
        self.log(L.EV_RESHUFFLE, rnd, seat, len(stock), 0)
        self.audit("reshuffle", hands=hands, stock=stock, previous=previous, buried=[])
        self.say("reshuffle", rnd, seat, f"the stock ran out: {len(stock)} cards reshuffled")
        return stock

    def kluft_challenges(self, caller, hands, turn, stock, rnd, starter) -> list[int]:
        """Y-V-KLUFT: one at a time from the caller's next player, each reveals or calls
        onderkluft (below the call limit unless onderkluft_any), seeing the hands revealed so far
        and the number of onderkluft calls, never a caller's cards. Returns the callers in order."""
        rules = self.rules
        claims = [caller]
        revealed: dict[int, int] = {}
        s = self.next_seat(caller)
        while s != caller:
            t = total(hands[s], rules)
            if rules.onderkluft_any or rules.call_limit is None or t < rules.call_limit:
                v = self.view(s, hands, turn, stock, rnd, starter, [])
                v[L.V_CALLER] = caller
                v[L.V_ONDER_N] = len(claims) - 1
                v[L.V_CALLER_CALLS] = self.kluft_calls[caller]
                v[L.V_CALLER_BEATEN] = self.kluft_beaten[caller]
                for p, rt in revealed.items():
                    v[L.V_REVEALED + p] = rt
                choice = self.ask(L.K_ONDER, s, hands[s], [(0,), (1,)], v)
                self.log(L.EV_ONDER, rnd, s, t, choice)
                if choice == 1:
                    claims.append(s)
                    self.say("onderkluft", rnd, s, f"seat {s} calls onderkluft")
                    s = self.next_seat(s)
                    continue
            revealed[s] = t
            self.say("reveal", rnd, s, f"seat {s} reveals {show(hands[s])} = {t}")
            s = self.next_seat(s)
        self.record.counts[5] += len(claims) - 1
        if len(claims) > 1:
            self.say("reveal", rnd, -1, "callers reveal: " + ", ".join(
                f"seat {p} {show(hands[p])} = {total(hands[p], rules)}" for p in claims))
        return claims

    # --- Section 4: the game ---------------------------------------------------------------------------
    def play(self) -> GameRecord:
        rules = self.rules
        starter = int(rand_below(self.rng, self.players))  # Y-START-1
        self.record.starter = starter
        playoff = False
        winner = -1
        rnd = 0
        while winner < 0:
            rnd += 1
            self.say("round", rnd, starter, f"— round {rnd}{' (play-off)' if playoff else ''}: seat {starter} starts —")
            caller, turns, to_move, totals, hands = self.play_round(rnd, starter)
            round_winner = -1
            if caller >= 0 and rules.kluft:
                scored, round_winner = kluft_scores(totals, self.claims, rules)
                asaf = round_winner != caller
                self.kluft_calls[caller] += 1
                self.kluft_beaten[caller] += asaf
                self.record.counts[6] += asaf
                self.say("kluft", rnd, round_winner, f"seat {round_winner} wins the round"
                         + (" (onderkluft)" if asaf else ""))
            elif caller >= 0:
                scored, asaf = round_scores(totals, caller, rules)
                if asaf and totals[caller] > (rules.call_limit if rules.call_limit is not None else 10**9):
                    self.say("asaf", rnd, caller, f"an overcall: seat {caller} adds {totals[caller]} + {rules.asaf_penalty}")
                elif asaf:
                    lows = [p for p, t in totals.items() if p != caller and t <= totals[caller]]
                    self.say("asaf", rnd, caller, f"Asaf! seat {lows[0]} has {totals[lows[0]]}")
            else:
                scored, asaf = dict(totals), False  # the turn cap: everyone adds their hand
            in_playoff = playoff  # this round is a Y-ELIM-2 play-off round (settling may start one)
            playoff, eliminated, notes = settle_round(self.scores, scored, self.zero_rounds, self.alive, rules, playoff)
            for p, note in notes:
                self.say("note", rnd, p, note)
            alive = [p for p in range(self.players) if self.alive[p]]
            if len(alive) == 1:
                winner = alive[0]
            for p in range(self.players):
                self.log(L.EV_SCORE, rnd, p, scored.get(p, 0), self.scores[p])
            mask = sum(1 << p for p in eliminated)
            self.log(L.EV_ROUND, rnd, caller, int(asaf), mask)
            self.say("scores", rnd, -1, "scores: " + ", ".join(
                f"seat {p} {self.scores[p]} (+{scored[p]})" for p in sorted(scored)))
            for p in eliminated:
                self.say("out", rnd, p, f"seat {p} is out with {self.scores[p]}")
            self.record.rounds.append(RoundRecord(rnd, starter, caller, turns, asaf, totals,
                                                  {p: self.scores[p] for p in range(self.players)}, eliminated,
                                                  in_playoff))
            if winner >= 0:
                break
            if rnd >= L.ROUND_CAP:
                winner = min(alive, key=lambda p: (self.scores[p], p))
                self.record.capped = True
                break
            if round_winner >= 0 and self.alive[round_winner]:
                starter = round_winner  # Y-START-2 Decision (Kluft): who scored 0 starts
            else:
                starter = next_starter(totals, self.alive, caller if caller >= 0 else to_move, rules)
        self.record.winner = winner
        self.record.scores = list(self.scores)
        self.say("winner", rnd, winner, f"seat {winner} wins after {rnd} rounds")
        return self.record


def show(cards) -> str:
    return " ".join(card_code(c) for c in cards) if len(cards) else "—"


def play_reference(rules: YanivRules, players: int, sids, params, seed: int, game: int, decide,
                   on_invalid: str = "error") -> GameRecord:
    return ReferenceGame(rules, players, sids, params, seed, game, decide, on_invalid).play()
