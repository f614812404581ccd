"""The Gin Rummy reference engine: plain Python, written to be read beside ``gin-rummy.md``.

It shares with the kernel only what must be shared for both to play the same game: the random
streams (``simcards.rng``: the deal's, the engine's alone, and one per seat for its strategy), the strategies' decision functions and the options they are shown.
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
from simcards.games.base import log_rows
from simcards.games.gin import layout as L
from simcards.games.gin.layout import MELD_VARIANTS, VALUE_SCHEMES
from simcards.games.gin.rules import (
    HAND_SIZE,
    MATCH_HAND_POINTS,
    MATCH_SHUTOUT_POINTS,
    MATCH_WIN_POINTS,
    SPADES,
    GinRules,
)
from simcards.policy import reference_choice
from simcards.rng import new_state, rand_below, seat_states, shuffle


# ----- Section 1: cards --------------------------------------------------------------------------
def rank(card: int) -> int:
    return card % 13


def suit(card: int) -> int:
    return card // 13


def value(card: int, mv: int = 0) -> int:
    """G-CARD-1: A = 1, 2..10 face value, J/Q/K = 10 (mv 0). G-V-TED: an ace counts 15;
    G-V-MJ: 2-9 are 5, ace 15, 10-K 10 (or 5)."""
    return VALUE_SCHEMES[MELD_VARIANTS[mv][1]][rank(card)]


def corner(mv: int) -> bool:
    """G-V-TED: may a run turn the corner (Q-K-A, K-A-2)?"""
    return MELD_VARIANTS[mv][0]


def show(cards) -> str:
    cards = sorted(cards, key=lambda c: (suit(c), rank(c)))
    return " ".join(card_code(c) for c in cards) if cards else "—"


def next_rank(r: int, step: int, wrap: bool) -> int | None:
    """The rank next to ``r`` (step +1 up, -1 down); None off the end of an ace-low suit."""
    q = r + step
    if wrap:
        return q % 13
    return q if 0 <= q <= 12 else None


# ----- Section 2: melds and deadwood ---------------------------------------------------------------
def runs_of(cards, mv: int = 0) -> list[tuple[int, ...]]:
    """G-MELD-1/3 with runs only: in each suit, every maximal block of 3+ consecutive ranks (ace
    low; cyclic when runs turn the corner, G-V-TED) is one run — any other card of the suit
    cannot be in a run."""
    wrap = corner(mv)
    runs = []
    for s in range(4):
        ranks = {rank(c) for c in cards if suit(c) == s}
        if len(ranks) == 13:
            runs.append(tuple(s * 13 + r for r in range(13)))
            continue
        for r in sorted(ranks):
            below = next_rank(r, -1, wrap)
            if below is not None and below in ranks:
                continue  # not the start of a block
            block = [r]
            while (up := next_rank(block[-1], 1, wrap)) is not None and up in ranks:
                block.append(up)
            if len(block) >= 3:
                runs.append(tuple(s * 13 + q for q in block))
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
def arrangement(cards: frozenset[int], mv: int = 0) -> tuple[int, tuple[tuple[int, ...], ...],
                                                            tuple[tuple[int, ...], ...]]:
    """G-MELD-2/4 and G-LAY-0: (minimum deadwood, sets, runs) — a card in at most one meld; the
    first minimum in the documented order."""
    best = None
    for combo in product(*set_choices(cards)):
        sets = tuple(s for s in combo if s)
        rest = cards.difference(*sets)
        runs = tuple(runs_of(rest, mv))
        dw = sum(value(c, mv) for c in rest.difference(*runs))
        if best is None or dw < best[0]:
            best = (dw, sets, runs)
    return best


def min_arrangements(cards: frozenset[int], mv: int = 0) -> list[tuple[int, tuple, tuple]]:
    """G-LAY-0: every arrangement (deadwood, sets, runs) of the minimum deadwood, in the documented
    order (the first is ``arrangement``'s); at most ``layout.MAX_OPTIONS``, the first ones."""
    every = []
    for combo in product(*set_choices(cards)):
        sets = tuple(s for s in combo if s)
        rest = cards.difference(*sets)
        runs = tuple(runs_of(rest, mv))
        every.append((sum(value(c, mv) for c in rest.difference(*runs)), sets, runs))
    best = min(a[0] for a in every)
    return [a for a in every if a[0] == best][: L.MAX_OPTIONS]


def exposed_cards(cards, sets, runs, mv: int = 0) -> set[int]:
    """The cards that would lay off directly on an arrangement (G-LAY-1) and are not the
    knocker's: the card beyond each end of each run, the missing card of each 3-set."""
    wrap = corner(mv)
    out = set()
    for run in runs:
        for end, step in ((run[0], -1), (run[-1], 1)):
            r = next_rank(rank(end), step, wrap)
            if r is not None:
                out.add(suit(end) * 13 + r)
    for st in sets:
        if len(st) == 3:
            out.add(next(s * 13 + rank(st[0]) for s in range(4) if s * 13 + rank(st[0]) not in st))
    return out - set(cards)


def deadwood(cards, mv: int = 0) -> int:
    return arrangement(frozenset(cards), mv)[0]


def layoff(defender: frozenset[int], sets, runs, mv: int = 0) -> tuple[int, frozenset[int]]:
    """G-LAY-1: the defender lays off onto the knocker's melds — chains extending each run down
    and up (round the corner under G-V-TED), the missing fourth card of each 3-set — choosing
    the lay-offs (and, through ``deadwood``, the melds) that leave the lowest deadwood; ties:
    more cards laid off, then the lower card mask."""
    wrap = corner(mv)
    chains: list[list[int]] = []
    for run in runs:
        s = suit(run[0])
        for end, step in ((run[0], -1), (run[-1], 1)):
            chain: list[int] = []
            r = next_rank(rank(end), step, wrap)
            while r is not None and s * 13 + r in defender and len(chain) < 13 - len(run):
                chain.append(s * 13 + r)
                r = next_rank(r, step, wrap)
            if chain:
                chains.append(chain)
    for st in sets:
        if len(st) == 3:
            missing = next(s * 13 + rank(st[0]) for s in range(4) if s * 13 + rank(st[0]) not in st)
            if missing in defender:
                chains.append([missing])
    best_key, best = None, (deadwood(defender, mv), frozenset())
    for lengths in product(*[range(len(ch) + 1) for ch in chains]):
        laid = frozenset(c for ch, k in zip(chains, lengths) for c in ch[:k])
        key = (deadwood(defender - laid, mv), -len(laid), sum(1 << c for c in laid))
        if best_key is None or key < best_key:
            best_key, best = key, (key[0], laid)
    return best


# ----- Section 4 (and G-V-OKLA): scoring -------------------------------------------------------------
def hand_result(knocker_dw: int, defender_dw: int, rules: GinRules) -> tuple[str, int, int]:
    """G-SC-2..4: (outcome, who scores: 0 knocker / 1 defender / -1 nobody, points)."""
    if knocker_dw == 0:
        return "gin", 0, rules.gin_bonus + defender_dw
    if knocker_dw < defender_dw:
        return "knock", 0, defender_dw - knocker_dw
    if knocker_dw == defender_dw and not rules.undercut_on_tie:
        return "tie", -1, 0
    return "undercut", 1, knocker_dw - defender_dw + rules.undercut_bonus


def knock_card_terms(card: int, rules: GinRules) -> tuple[int, int]:
    """G-V-OKLA: (knock limit, stake) from the knock card — its value with face cards 10; an ace
    allows only gin (``ace_upcard_gin_only``) or, off, a limit of 1 (G-V-TED's Decision); a spade
    doubles the hand's score."""
    limit = min(rank(card) + 1, 10)
    if rank(card) == 0:
        limit = 0 if rules.ace_upcard_gin_only else 1
    stake = 2 if suit(card) == SPADES and rules.spade_double else 1
    return limit, stake


def boxes_for(outcome: str, stake: int, rules: GinRules) -> int:
    """G-GAME-2 boxes a won hand earns: one; G-V-OKLA's optional box rules add 1 for an undercut
    and 2 for a gin, both doubled with a spade knock card."""
    extra = {"undercut": 1, "gin": 2}.get(outcome, 0) if rules.oklahoma_boxes else 0
    return 1 + extra * stake


def final_scores(points: list[int], boxes: list[int], winner: int, rules: GinRules) -> tuple[list[int], bool, int]:
    """G-GAME-1..3: (final scores with bonuses, shutout?, margin) for every side: its points plus
    its boxes; the winner adds the game bonus — the shutout bonus (or doubles its whole score)
    when every other side scored nothing. The margin is what the losers pay the winner."""
    final = [points[s] + rules.box_bonus * boxes[s] for s in range(len(points))]
    if winner < 0:
        return final, False, abs(final[0] - final[1])
    shutout = all(points[s] <= 0 for s in range(len(points)) if s != winner)  # (G-V-MJ points may be < 0)
    if shutout and rules.shutout == "double":
        final[winner] = 2 * (final[winner] + rules.game_bonus)
    else:
        final[winner] += rules.shutout_bonus if shutout else rules.game_bonus
    return final, shutout, sum(final[winner] - final[s] for s in range(len(points)) if s != winner)


class Ledger:
    """The scores a game keeps between hands, per side (a seat, or a team in team play):
    G-GAME-1/2 (points toward the target, hands won, boxes), G-V-HOLLY (three games at once) and
    G-V-MATCH (match points over matches to 100)."""

    def __init__(self, rules: GinRules):
        self.rules = rules
        n = rules.sides
        self.points, self.won, self.boxes = [0] * n, [0] * n, [0] * n
        # G-V-HOLLY: per game, per side
        self.hw_points = [[0, 0] for _ in range(L.N_HOLLY)]
        self.hw_boxes = [[0, 0] for _ in range(L.N_HOLLY)]
        self.hw_won = [[0, 0] for _ in range(L.N_HOLLY)]
        self.hw_winner = [-1] * L.N_HOLLY
        self.hw_closed = [0] * L.N_HOLLY
        # G-V-MATCH
        self.match_no = 1
        self.match_points = [0, 0]
        self.matches_won = [0, 0]
        self.match_hands = [0, 0]
        self.match_shutouts = 0

    def view_score(self, side: int) -> int:
        """What a player is shown as a side's score: points toward the target (G-V-HOLLY: of the
        first game still open; G-V-MATCH: of the match being played)."""
        if self.rules.hollywood:
            for k in range(L.N_HOLLY):
                if self.hw_winner[k] < 0:
                    return self.hw_points[k][side]
        return self.points[side]

    def enter_hollywood(self, side: int, points: int, boxes: int, hand_no: int) -> int:
        """G-V-HOLLY: a side's first hand win is entered in game 1, its second in games 1 and 2, its
        third and later in all three — in each game still open (Decision: in game k if it is open
        and the side had already won at least k-1 hands). A game is over when a side reaches the
        target. Returns the bit mask of the games entered."""
        prior = self.won[side] - 1
        entered = 0
        for k in range(L.N_HOLLY):
            if self.hw_winner[k] >= 0 or prior < k:
                continue
            entered |= 1 << k
            self.hw_points[k][side] += points
            self.hw_boxes[k][side] += boxes
            self.hw_won[k][side] += 1
            if self.hw_points[k][side] >= self.rules.game_target:
                self.hw_winner[k], self.hw_closed[k] = side, hand_no
        return entered

    def settle_match(self) -> None:
        """G-V-MATCH: a match is over (a side reached the target): 25 match points per hand won in
        it, 100 to its winner, 100 more if the loser won no hand; the game score starts again."""
        w = 0 if self.points[0] >= self.points[1] else 1
        for s in range(2):
            self.match_points[s] += MATCH_HAND_POINTS * self.match_hands[s]
        self.match_points[w] += MATCH_WIN_POINTS
        if self.match_hands[1 - w] == 0:
            self.match_points[w] += MATCH_SHUTOUT_POINTS
            self.match_shutouts += 1
        self.matches_won[w] += 1
        self.points, self.match_hands = [0, 0], [0, 0]
        self.match_no += 1

    def record(self, side: int, points: int, boxes: int, hand_no: int) -> tuple[bool, int]:
        """Enter a hand won by ``side`` (-1: nobody) and say whether the game is over: G-GAME-1,
        G-V-HOLLY (all three games over) or G-V-MATCH (the match target reached, no tie, at the end
        of a match). Returns (over, Hollywood games entered)."""
        rules, entered = self.rules, 0
        self.last = side
        if side >= 0:
            self.points[side] += points
            self.won[side] += 1
            self.boxes[side] += boxes
            if rules.hollywood:
                entered = self.enter_hollywood(side, points, boxes, hand_no)
            if rules.match_target:
                self.match_hands[side] += 1
        self.after = list(self.points)  # the scores right after the hand (a finished match resets them)
        if rules.hollywood:
            return all(w >= 0 for w in self.hw_winner), entered
        reached = max(self.points) >= rules.game_target
        if rules.match_target and reached:
            self.settle_match()
            mp = self.match_points
            return max(mp) >= rules.match_target and mp[0] != mp[1], entered
        return reached, entered

    def log(self, game: "ReferenceGame", hand_no: int, entered: int) -> None:
        for s in range(self.rules.sides):
            game.log(L.EV_SCORE, hand_no, s, self.points[s], self.won[s], entered)
        if self.rules.hollywood:
            for k in range(L.N_HOLLY):
                game.log(L.EV_LEDGER, hand_no, k, *self.hw_points[k], int(self.hw_winner[k] < 0))
        if self.rules.match_target:
            game.log(L.EV_LEDGER, hand_no, self.match_no, *self.match_points, self.match_shutouts)

    def result(self, capped: bool) -> dict:
        """Winner, final scores, shutout and margin (G-GAME-1..3); G-V-HOLLY: each game scored on
        its own column (its boxes, its shutout test) and the three finals added up; G-V-MATCH:
        the match points."""
        rules = self.rules
        if rules.hollywood:
            games = []
            for k in range(L.N_HOLLY):
                final, shutout, margin = final_scores(self.hw_points[k], self.hw_boxes[k], self.hw_winner[k], rules)
                games.append({"winner": self.hw_winner[k], "final": final, "shutout": shutout, "margin": margin,
                              "closed": self.hw_closed[k], "points": list(self.hw_points[k]),
                              "boxes": list(self.hw_boxes[k]), "won": list(self.hw_won[k])})
            total = [sum(g["final"][s] for g in games) for s in range(2)]
            winner = -1 if capped or total[0] == total[1] else int(total[1] > total[0])
            return {"winner": winner, "final": total, "shutout": any(g["shutout"] for g in games),
                    "margin": abs(total[0] - total[1]), "hollywood": games}
        if rules.match_target:
            mp = self.match_points
            winner = -1 if capped else int(mp[1] > mp[0])
            return {"winner": winner, "final": list(mp), "shutout": winner >= 0 and mp[1 - winner] == 0,
                    "margin": abs(mp[0] - mp[1]), "matches": self.match_no - 1, "matches_won": list(self.matches_won),
                    "match_shutouts": self.match_shutouts}
        winner = -1
        if not capped:
            at_target = [s for s in range(rules.sides) if self.points[s] >= rules.game_target]
            # (G-V-MJ: both may reach the target in one hand; a tie goes to the hand's winner)
            winner = max(at_target, key=lambda s: (self.points[s], s == self.last))
        final, shutout, margin = final_scores(self.points, self.boxes, winner, rules)
        return {"winner": winner, "final": final, "shutout": shutout, "margin": margin}


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
    seats: tuple[int, int]  # (first to play, the dealer's part)
    knocker: int
    outcome: str
    winner: int
    points: int
    boxes: int
    turns: int
    upcard_taker: int
    laid: frozenset
    stock: int
    deadwood: dict  # seat -> final deadwood (the defender's after lay-offs)
    knock_card: int = -1
    limit: int = 10
    stake: int = 1
    scores: list[int] = field(default_factory=list)  # per side, after the hand
    entered: int = 0  # G-V-HOLLY: bit k-1 set when the score went into game k
    hollywood: list = field(default_factory=list)  # G-V-HOLLY: each game's scores after the hand
    match: int = 0  # G-V-MATCH: the match the hand was played in
    match_points: list = field(default_factory=list)
    mj_points: dict = field(default_factory=dict)  # G-V-MJ: each seat's points in the hand
    table_value: dict = field(default_factory=dict)  # G-V-MJ: the value each put on the table
    pickups: int = 0  # G-V-MJ: pile pickups, the most cards taken at once, pickups of 2+ cards
    max_take: int = 0
    multi_pickups: int = 0
    table: int = 0  # team play: the table, and the deal's scoring team and points
    deal_side: int = -1
    deal_points: int = 0


@dataclass
class GameRecord:
    winner: int = -1
    first_dealer: int = -1
    points: list[int] = field(default_factory=list)  # per seat, from hands won
    won: list[int] = field(default_factory=list)  # per seat
    side_points: list[int] = field(default_factory=list)
    boxes: list[int] = field(default_factory=list)  # per side
    final: list[int] = field(default_factory=list)  # per side
    shutout: bool = False
    margin: int = 0
    capped: bool = False
    hollywood: list = field(default_factory=list)  # G-V-HOLLY: per game, its result
    matches: int = 0  # G-V-MATCH
    matches_won: list = field(default_factory=list)
    match_shutouts: int = 0
    sweeps: list = field(default_factory=list)  # team play: deals won at every table
    hands: list[HandRecord] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    log: list[list[int]] = field(default_factory=list)
    invalid: int = 0  # a user policy's option indices out of range (option 0 played; on_invalid="first")

    def log_array(self) -> np.ndarray:
        return log_rows(self.log, L.LOG_WIDTH)


def turn_record(card: int, top: int, how: str) -> int:
    """A turn as the view records it (layout.V_OPP_HIST): the card discarded, the pile's top
    when the player drew (-1: no pile), how it drew ("took" the top, "stock", "none")."""
    flags = {"took": L.HIST_TOOK, "stock": L.HIST_STOCK, "none": 0}[how]
    return card | ((L.HIST_NONE if top < 0 else top) << 6) | flags


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class ReferenceGame:
    """One game of Gin Rummy, played rule by rule. ``decide`` is the strategies' decision
    function (the same one the kernel calls); ``sids``/``params`` give each seat's strategy.
    ``decks`` (scenario tests): card orders to deal instead of the shuffled ones, one per hand (the
    last card of a list is dealt first; G-V-OKLA's second deck, when used, is the next list)."""

    def __init__(self, rules: GinRules, sids, params, seed: int, game: int, decide, decks=None,
                 on_invalid: str = "error"):
        self.on_invalid = on_invalid  # a policy's index out of range: stop, or play option 0 ("first")
        self.rules = rules
        self.encoded = rules.encode()
        self.mv = rules.meld_variant
        self.sids = np.asarray(sids, dtype=np.int64)
        self.params = np.asarray(params, dtype=np.float64)
        self.decide = decide
        self.rng = new_state(seed, game)  # the deal's stream: the engine's alone
        self.seat_rng = seat_states(seed, game, L.MAX_SEATS)  # each seat's strategy stream (simcards.rng)
        self.seat_points = [0] * rules.players
        self.seat_won = [0] * rules.players
        self.waited = [0] * rules.players  # layout.V_OPP_WAITED of each seat, as its opponents see it
        self.ledger = Ledger(rules)
        self.last_won = -1  # the side that won the latest hand (deal) that was won
        self.record = GameRecord()
        self.decks = list(decks) if decks is not None else None

    # --- helpers ----------------------------------------------------------------------------------
    def say(self, kind: str, hand: int, seat: int, text: str) -> None:
        self.record.events.append(Event(kind, hand, seat, text))

    def log(self, event: int, hand: int, seat: int, a: int = 0, b: int = 0, c: int = 0, cards=()) -> None:
        self.record.log.append([event, hand, seat, int(a), int(b), int(c), *list(cards)[: L.MAX_HAND]])

    def dw(self, cards) -> int:
        return deadwood(cards, self.mv)

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
                                 view, self.encoded, self.seat_rng[seat]))
        return reference_choice(choice, len(options), kind, self.sids[seat], self.on_invalid, self.record)

    def shuffled(self) -> np.ndarray:
        deck = np.arange(52, dtype=np.int64)
        shuffle(self.rng, deck, 52)
        if self.decks:  # a scenario: this order instead (the stream is consumed all the same)
            deck = np.array(self.decks.pop(0), dtype=np.int64)
        return deck

    def opponent(self, seat: int) -> int:
        return self.table[1] if seat == self.table[0] else self.table[0]

    def side_of(self, seat: int) -> int:
        """Scores are kept per seat, or per team in team play (seat s plays for team s % 2)."""
        return seat % 2 if self.rules.teams else seat

    def score_view(self, seat: int) -> int:
        """The score a player is shown: its side's points toward the target."""
        return self.ledger.view_score(self.side_of(seat))

    def view(self, seat: int, dw: int, taken: int = -1, must: bool = False, first: bool = False) -> np.ndarray:
        """What a player may see (G-INFO-1): own hand, the pile, what the opponent took from it,
        discarded or declined, the stock size, the hand's knock limit and stake, the scores."""
        o = self.opponent(seat)
        v = np.zeros(L.VIEW_SIZE, dtype=np.int64)
        v[L.V_SEAT] = seat
        v[L.V_DEALER] = self.dealer_seat
        v[L.V_HAND] = self.hand_no
        v[L.V_TURN] = self.turn
        v[L.V_MY_TURNS] = self.my_turns[seat]
        v[L.V_STOCK] = len(self.stock)
        v[L.V_TOP] = self.pile[-1] if self.pile else -1
        v[L.V_DW] = dw
        v[L.V_LIMIT] = self.limit
        v[L.V_MY_SCORE] = self.score_view(seat)
        v[L.V_OPP_SCORE] = self.score_view(o)
        v[L.V_TARGET] = self.rules.game_target
        v[L.V_MASK] = _mask(self.hands[seat])
        v[L.V_OPP_TOOK] = _mask(self.took[o])
        v[L.V_OPP_DISCARDS] = _mask(self.discarded[o])
        v[L.V_PILE] = _mask(self.pile)
        v[L.V_TAKEN] = taken
        v[L.V_TAKE_MUST_KNOCK] = int(must)
        v[L.V_FIRST] = int(first)
        v[L.V_OPP_PASSED] = _mask(self.passed[o])
        v[L.V_STAKE] = self.stake
        v[L.V_KNOCK_CARD] = self.knock_card
        v[L.V_THIRD_SCORE] = self.ledger.view_score(self.dealer_seat) if self.rules.players == 3 else -1
        v[L.V_PLAYERS] = self.rules.players
        v[L.V_OPP_TURNS] = len(self.turns_seen[o])
        for i, record in enumerate(self.turns_seen[o]):
            v[L.V_OPP_HIST + i // L.HIST_PER_SLOT] |= turn_record(*record) << (L.HIST_BITS * (i % L.HIST_PER_SLOT))
        v[L.V_OPP_WAITED] = self.waited[o]
        if self.rules.mahjong:
            v[L.V_TABLE_MINE] = _mask(self.on_table[seat])
            v[L.V_TABLE_OPP] = _mask(self.on_table[o])
            v[L.V_TABLE] = _mask(self.on_table[seat] | self.on_table[o])
        return v

    def take_option(self, seat: int, card: int, may_rediscard: bool) -> tuple[int, int, int, int]:
        """The 'take it' row: [1, card, deadwood of the 11 cards, lowest deadwood after a legal
        discard]."""
        eleven = self.hands[seat] | {card}
        after = min(self.dw(eleven - {d}) for d in eleven if d != card or may_rediscard)
        return (1, card, self.dw(eleven), after)

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
        it); G-KNOCK-1: knock if the deadwood left is within the hand's limit (and the player
        wants to). With ``must_knock`` (G-TURN-3, G-WALL-2) only knocking discards are legal."""
        limit = self.limit
        hand = self.hands[seat]
        options = []
        for c in sorted(hand):
            if (c == taken or c in self.taken_now) and not may_rediscard:
                continue
            dw = self.dw(hand - {c})
            if must_knock and dw > limit:
                continue
            options.append((c, dw))
        view = self.view(seat, min(dw for _, dw in options), taken=taken, first=first)
        a = self.ask(L.K_DISCARD, seat, options, view)
        card, dw = options[a]
        hand.remove(card)
        top = self.pile[-1] if self.pile else -1  # the top the player drew at (a card taken is not in the pile)
        self.pile.append(card)
        self.discarded[seat].add(card)
        if not self.rules.mahjong and len(self.turns_seen[seat]) < L.HIST_MAX:
            how = "took" if taken >= 0 else ("none" if first and self.rules.deal_11 else "stock")
            self.turns_seen[seat].append((card, taken if taken >= 0 else top, how))
        self.log(L.EV_DISCARD, self.hand_no, seat, card, a, dw)
        knock = 0
        if dw <= limit:
            if must_knock:
                knock = 1
            else:
                knock = self.ask(L.K_KNOCK, seat, [(0, dw), (1, dw)], self.view(seat, dw, first=first))
            self.log(L.EV_KNOCK, self.hand_no, seat, knock, dw)
        self.my_turns[seat] += 1
        self.turn += 1
        self.say("discard", self.hand_no, seat, f"seat {seat} discards {card_code(card)}"
                 + (f" and {'goes gin' if dw == 0 else f'knocks with {dw}'}" if knock else f" (deadwood {dw})"))
        return knock == 1

    def deal(self, first: int, second: int) -> None:
        """G-DEAL-2: shuffle; ten cards each, one at a time, the non-dealer's part first
        (G-V-DEAL11: an 11th card to it and no upcard); turn up the 21st card. G-V-OKLA: the
        upcard, or the bottom card of a second shuffled deck, is the knock card."""
        rules, n = self.rules, self.hand_no
        deck = self.shuffled()
        second_deck = self.shuffled() if rules.oklahoma and rules.knock_card == "second_deck" else None
        self.stock = [int(c) for c in deck]
        self.hands = {first: set(), second: set()}
        for _ in range(HAND_SIZE):
            for q in (first, second):
                self.hands[q].add(self.stock.pop())
        if rules.deal_11:  # to the player who plays first (G-V-OKLA second deck: see ``starter``)
            self.hands[self.starter].add(self.stock.pop())
        for p in (first, second):
            self.log(L.EV_DEAL, n, p, len(self.hands[p]), 0, 0, sorted(self.hands[p]))
        table = f" at table {self.table_no}" if self.rules.teams else ""
        if self.rules.players == 3:
            sits = f", seat {self.dealer_seat} deals to seats {first} and {second} and sits out"
        elif self.rules.teams:
            sits = f": seat {self.dealer_seat} deals{table} (seats {first} and {second})"
        else:
            sits = f": seat {self.dealer_seat} deals"
        self.say("hand", n, self.dealer_seat, f"— hand {n}{sits} —")
        for p in (first, second):
            self.say("deal", n, p, f"seat {p} is dealt {show(self.hands[p])} (deadwood {self.dw(self.hands[p])})")
        self.pile = []
        if rules.upcard:
            self.pile.append(self.stock.pop())
            self.log(L.EV_UPCARD, n, -1, self.pile[0])
            self.say("upcard", n, -1, f"upcard {card_code(self.pile[0])}; {len(self.stock)} cards in the stock")
        self.limit = 0 if rules.straight or rules.mahjong else rules.knock_limit  # G-V-STRAIGHT, G-V-MJ: gin only
        self.stake, self.knock_card = 1, -1
        if rules.oklahoma:
            self.knock_card = int(second_deck[0]) if second_deck is not None else self.pile[0]
            self.limit, self.stake = knock_card_terms(self.knock_card, rules)
            self.log(L.EV_KNOCK_CARD, n, -1, self.knock_card, self.limit, self.stake)
            self.say("knock card", n, -1, f"knock card {card_code(self.knock_card)}: "
                     + ("gin only" if self.limit == 0 else f"knock with {self.limit} or less")
                     + (", the hand counts double" if self.stake > 1 else ""))

    # --- G-V-MJ: Mahjong gin ------------------------------------------------------------------------------
    @staticmethod
    def extends(card: int, meld: set) -> bool:
        """G-V-MJ: ``card`` extends a table meld: the fourth card of a 3-set, or the next card of the
        run's suit at either end (aces low)."""
        ranks = {rank(c) for c in meld}
        if len(ranks) == 1:
            return len(meld) == 3 and rank(card) in ranks
        return suit(card) == suit(next(iter(meld))) and rank(card) in (min(ranks) - 1, max(ranks) + 1)

    def meld_for(self, card: int) -> int:
        return next((k for k, m in enumerate(self.melds) if self.extends(card, m)), -1)

    def placement(self, cards: set, d: int, taken: set) -> tuple[int, int, frozenset] | None:
        """G-V-MJ: where the deepest card ``d`` of a pickup goes on the table: a new set or run
        holding it, from the player's cards (``cards``, the ones taken included), or onto a table
        meld. The least deadwood left wins, then the most cards placed, then the lower card mask;
        a card that may be discarded must stay, and at most 11 cards (Decision). None: no way."""
        same_rank = [c for c in cards if rank(c) == rank(d)]
        options = []
        if len(same_rank) >= 3:
            options.append(frozenset(same_rank))
        if len(same_rank) == 4:
            options += [frozenset(same_rank) - {c} for c in same_rank if c != d]
        lo = hi = rank(d)
        while lo > 0 and suit(d) * 13 + lo - 1 in cards:
            lo -= 1
        while hi < 12 and suit(d) * 13 + hi + 1 in cards:
            hi += 1
        options += [frozenset(suit(d) * 13 + q for q in range(a, b + 1))
                    for a in range(lo, rank(d) + 1) for b in range(max(rank(d), a + 2), hi + 1)]
        best = None
        k_lay = self.meld_for(d)
        for placed, k in [(m, -1) for m in options] + ([(frozenset({d}), k_lay)] if k_lay >= 0 else []):
            rest = cards - placed
            if not rest - taken or len(rest) > 11:
                continue
            key = (self.dw(rest), -len(placed), _mask(placed))
            if best is None or key < best[0]:
                best = (key, k, placed)
        return None if best is None else (best[0][0], best[1], best[2])

    def pickup_options(self, seat: int, first: bool) -> list[tuple[int, ...]]:
        """The rows of the Mahjong draw decision (``layout.K_PICKUP``): the stock (first turn: decline
        the upcard), then each N whose deepest card can be placed: [N, deepest, deadwood after the
        placement and the best legal discard, value placed]."""
        hand = self.hands[seat]
        rows = [(0, -1, self.dw(hand), 0)]
        for n in range(1, (1 if first else min(len(self.pile), L.MAX_OPTIONS - 1)) + 1):
            taken = set(self.pile[-n:])
            d = self.pile[-n]
            where = self.placement(hand | taken, d, taken)
            if where is None:
                continue
            rest = (hand | taken) - where[2]
            after = min(self.dw(rest - {c}) for c in rest - taken)
            rows.append((n, d, after, sum(value(c, self.mv) for c in where[2])))
        return rows

    def mahjong_draw(self, seat: int, first: bool) -> bool:
        """G-V-MJ: draw from the stock, or take the top N cards of the pile and put the deepest on
        the table at once; then lay off. On the first turn (G-FIRST-1) only the upcard is offered and
        declining it draws nothing. Returns whether the player took from the pile."""
        n_hand = self.hand_no
        options = self.pickup_options(seat, first)
        view = self.view(seat, options[0][2], first=first)
        a = self.ask(L.K_PICKUP, seat, options, view)
        self.taken_now = set()
        if a > 0:
            n = options[a][0]
            taken = {self.pile.pop() for _ in range(n)}
            self.took[seat] |= taken
            d = options[a][1]
            _, k, placed = self.placement(self.hands[seat] | taken, d, taken)
            if k < 0:
                self.melds.append(set())
                k = len(self.melds) - 1
            self.melds[k] |= placed
            self.on_table[seat] |= placed
            self.hands[seat] = (self.hands[seat] | taken) - placed
            self.taken_now = taken
            self.log(L.EV_PICKUP, n_hand, seat, n, k, _mask(placed))
            self.pickups += 1
            self.multi_pickups += n > 1
            self.max_take = max(self.max_take, n)
            self.say("pickup", n_hand, seat, f"seat {seat} takes {n} card{'s' if n > 1 else ''} from the pile, "
                     f"down to {card_code(d)}, and puts {show(placed)} on the table")
        elif first:
            return False
        else:
            if self.pile:
                self.passed[seat].add(self.pile[-1])
            card = self.draw_stock(seat)
            self.log(L.EV_DRAW, n_hand, seat, 0, card)
            self.say("draw", n_hand, seat, f"seat {seat} draws from the stock ({card_code(card)})")
        self.mahjong_layoffs(seat)
        return a > 0

    def mahjong_layoffs(self, seat: int) -> None:
        """G-V-MJ Decision: before discarding, lay off onto the table melds (anyone's) every card that
        is unmatched in a best arrangement of the hand and extends a meld, lowest card first, again
        until none is left, keeping a card that may be discarded."""
        while True:
            hand = self.hands[seat]
            dw = self.dw(hand)
            for c in sorted(hand):
                k = self.meld_for(c)
                if k < 0 or not (hand - {c}) - self.taken_now or self.dw(hand - {c}) + value(c, self.mv) != dw:
                    continue
                self.melds[k].add(c)
                self.on_table[seat].add(c)
                hand.remove(c)
                self.log(L.EV_TABLE_LAYOFF, self.hand_no, seat, c, k)
                self.say("lay off", self.hand_no, seat, f"seat {seat} lays {card_code(c)} off on {show(self.melds[k])}")
                break
            else:
                return

    def mahjong_score(self, gin: int) -> dict:
        """G-V-MJ (Decision): each player scores the cards they put on the table minus the cards in
        their hand; the gin player's hand, all melds, goes on the table and adds the gin bonus."""
        points = {}
        for q in self.table:
            table = sum(value(c, self.mv) for c in self.on_table[q])
            hand = sum(value(c, self.mv) for c in self.hands[q])
            points[q] = table + hand + self.rules.gin_bonus if q == gin else table - hand
            self.log(L.EV_MJ_SCORE, self.hand_no, q, points[q], table, _mask(self.on_table[q]))
        return points

    def first_turn(self, first: int, second: int) -> tuple[int, bool, int]:
        """G-FIRST-1: the non-dealer, then the dealer, may take the upcard; if both decline the
        non-dealer draws from the stock. G-V-DEAL11: the player with 11 cards only discards. Without an
        upcard (G-V-OKLA second deck) the winner of the previous hand (``starter``) draws from the
        stock. Returns (seat that played, knocked?, upcard taker)."""
        n, gra = self.hand_no, self.rules.gra_rediscard
        taker, taken, seat = -1, -1, self.starter
        if seat != first:
            who = "its team won the last deal" if self.rules.teams else "it won the last hand"
            self.say("first", n, seat, f"seat {seat} plays first: {who} (G-V-OKLA second deck)")
        if self.rules.deal_11:
            self.say("first", n, seat, f"seat {seat} holds 11 cards and starts by discarding")
        elif self.rules.mahjong:  # G-FIRST-1 with G-V-MJ's pickup: the upcard goes on the table at once
            for q in (first, second):
                top = self.pile[-1]
                took_it = self.mahjong_draw(q, True)
                self.log(L.EV_UPCARD_CHOICE, n, q, int(took_it), top)
                if took_it:
                    taker = seat = q
                    break
                self.passed[q].add(top)
                self.say("pass", n, q, f"seat {q} declines the upcard {card_code(top)}")
            if taker < 0:
                card = self.draw_stock(seat)
                self.log(L.EV_DRAW, n, seat, 0, card)
                self.say("draw", n, seat, f"seat {seat} draws from the stock ({card_code(card)})")
                self.mahjong_layoffs(seat)
            return seat, self.discard_and_knock(seat, -1, False, False, True), taker
        elif self.rules.upcard:
            for q in (first, second):
                top = self.pile[-1]
                view = self.view(q, self.dw(self.hands[q]), first=True)
                c = self.ask(L.K_UPCARD, q, [(0, -1), self.take_option(q, top, gra)], view)
                self.log(L.EV_UPCARD_CHOICE, n, q, c, top)
                if c == 1:
                    taker = q
                    break
                self.passed[q].add(top)
                self.say("pass", n, q, f"seat {q} declines the upcard {card_code(top)}")
            if taker >= 0:
                seat = taker
                taken = self.take_top(seat)
                self.log(L.EV_DRAW, n, seat, 1, taken)
                self.say("draw", n, seat, f"seat {seat} takes the upcard {card_code(taken)}")
        if taken < 0 and not self.rules.deal_11:
            card = self.draw_stock(seat)
            self.log(L.EV_DRAW, n, seat, 0, card)
            self.say("draw", n, seat, f"seat {seat} draws from the stock ({card_code(card)})")
        return seat, self.discard_and_knock(seat, taken, False, gra, True), taker

    def choose_arrangement(self, knocker: int) -> tuple[int, tuple, tuple]:
        """G-LAY-0: the knocker lays out any arrangement of its minimum deadwood; with several, its
        strategy chooses (rows ``[sets, dw, exposed, known]``, layout.K_ARRANGE): what would lay
        off on each — of the cards it has not seen placed (not its own, not in the pile), and of
        those the defender is known to hold (taken from the pile)."""
        hand = self.hands[knocker]
        options = min_arrangements(frozenset(hand), self.mv)
        took = self.took[self.opponent(knocker)]
        rows = []
        for dw, sets, runs in options:
            exposed = exposed_cards(hand, sets, runs, self.mv) - set(self.pile)
            rows.append((_mask(c for s in sets for c in s), dw, sum(value(c, self.mv) for c in exposed),
                         sum(value(c, self.mv) for c in exposed & took)))
        a = self.ask(L.K_ARRANGE, knocker, rows, self.view(knocker, options[0][0]))
        if len(options) > 1:
            self.say("arrange", self.hand_no, knocker, f"seat {knocker} chooses arrangement {a + 1} of "
                     f"{len(options)} with deadwood {options[0][0]} (lay-off points open: {rows[a][2]})")
        return options[a]

    def first_player(self, first: int, second: int) -> int:
        """Who plays first: the non-dealer (``first``). G-V-OKLA second deck: the winner of the
        previous hand — Decision: of the latest hand that was won (a void hand or a 0-0 tie changes
        nothing; the non-dealer until a hand is won); in team play the player of the team that
        scored the latest deal it won."""
        if self.rules.oklahoma and self.rules.knock_card == "second_deck" and self.last_won >= 0 \
                and self.side_of(second) == self.last_won:
            return second
        return first

    def play_hand(self, first: int, second: int) -> HandRecord:
        """One hand between the seats ``first`` (the non-dealer's part) and ``second``."""
        rules, n = self.rules, self.hand_no
        self.table = (first, second)
        self.starter = self.first_player(first, second)
        self.deal(first, second)
        self.took = {first: set(), second: set()}
        self.discarded = {first: set(), second: set()}
        self.passed = {first: set(), second: set()}
        self.turns_seen: dict[int, list[tuple[int, int, str]]] = {first: [], second: []}  # G-INFO-1, in order
        self.my_turns = {first: 0, second: 0}
        self.turn = 0
        self.melds: list[set] = []  # G-V-MJ: the melds on the table
        self.on_table = {first: set(), second: set()}  # G-V-MJ: the cards each player put there
        self.taken_now: set = set()
        self.pickups, self.multi_pickups, self.max_take = 0, 0, 0
        gra = rules.gra_rediscard
        seat, knocked, taker = self.first_turn(first, second)
        capped = False
        while not knocked:
            if len(self.stock) <= 2:  # G-WALL-1
                self.log(L.EV_WALL, n, seat, len(self.stock))
                self.say("wall", n, seat, "the stock is down to 2 cards and nobody knocked")
                if rules.last_chance or rules.fiftieth_card:  # G-WALL-2, G-WALL-3
                    other = self.opponent(seat)
                    top = self.pile[-1]
                    option = self.take_option(other, top, rules.fiftieth_card)
                    if option[3] <= self.limit:
                        view = self.view(other, self.dw(self.hands[other]), must=True)
                        c = self.ask(L.K_LAST, other, [(0, -1), option], view)
                        self.log(L.EV_LAST, n, other, c, top)
                        if c == 1:
                            seat = other
                            taken = self.take_top(seat)
                            self.log(L.EV_DRAW, n, seat, 1, taken)
                            self.say("draw", n, seat, f"last chance: seat {seat} takes {card_code(taken)}")
                            knocked = self.discard_and_knock(seat, taken, True, rules.fiftieth_card, False)
                        else:
                            self.say("pass", n, other, f"seat {other} lets the last discard go")
                break
            if self.turn >= L.TURN_CAP:
                capped = True
                self.say("cap", n, -1, f"the hand hit the turn cap ({L.TURN_CAP} discards); scored as void")
                break
            seat = self.opponent(seat)
            if rules.mahjong:  # G-V-MJ: the stock or a pickup, the lay-offs, the discard
                self.mahjong_draw(seat, False)
                knocked = self.discard_and_knock(seat, -1, False, False, False)
                continue
            top = self.pile[-1]
            # G-TURN-3: with gra_rediscard one's own discard comes back only to knock.
            must = gra and top in self.discarded[seat]
            option = self.take_option(seat, top, gra)
            options = [(0, -1)] if must and option[3] > self.limit else [(0, -1), option]
            view = self.view(seat, self.dw(self.hands[seat]), must=must)
            d = self.ask(L.K_DRAW, seat, options, view)
            if d == 1:
                taken = self.take_top(seat)
                self.log(L.EV_DRAW, n, seat, 1, taken)
                self.say("draw", n, seat, f"seat {seat} takes {card_code(taken)} from the discard pile")
            else:
                self.passed[seat].add(top)
                card = self.draw_stock(seat)
                taken = -1
                self.log(L.EV_DRAW, n, seat, 0, card)
                self.say("draw", n, seat, f"seat {seat} draws from the stock ({card_code(card)})")
            knocked = self.discard_and_knock(seat, taken, must and d == 1, gra, False)
        deadwoods = {p: self.dw(self.hands[p]) for p in (first, second)}
        outcome, winner, points, boxes, laid, knocker = ("capped" if capped else "wall"), -1, 0, 0, frozenset(), -1
        mj_points = {}
        if knocked and rules.mahjong:
            mj_points = self.mahjong_score(seat)
            outcome, winner, knocker, points, boxes = "gin", seat, seat, mj_points[seat], 1
            self.say("gin", n, seat, f"seat {seat} goes gin: " + ", ".join(
                f"seat {q} {mj_points[q]:+d}" for q in (first, second)))
        elif knocked:
            knocker, defender = seat, self.opponent(seat)
            k_dw, sets, runs = arrangement(frozenset(self.hands[knocker]), self.mv)
            if k_dw > 0:  # (gin allows no lay-offs: its arrangement changes nothing)
                k_dw, sets, runs = self.choose_arrangement(knocker)
            melds = list(sets) + list(runs)
            dead = self.hands[knocker] - {c for m in melds for c in m}
            self.say("knock", n, knocker, f"seat {knocker} lays out " + " | ".join(show(m) for m in melds)
                     + (f"; deadwood {show(dead)} = {k_dw}" if dead else " — gin!"))
            if k_dw == 0:  # G-LAY-1: no lay-offs on gin
                d_dw = self.dw(self.hands[defender])
            else:
                d_dw, laid = layoff(frozenset(self.hands[defender]), sets, runs, self.mv)
            self.see_waiting(defender)
            _, d_sets, d_runs = arrangement(frozenset(self.hands[defender] - laid), self.mv)
            self.say("defend", n, defender, f"seat {defender} lays out "
                     + (" | ".join(show(m) for m in list(d_sets) + list(d_runs)) or "no melds")
                     + (f", lays off {show(laid)}" if laid else "") + f"; deadwood {d_dw}")
            self.log(L.EV_LAYOFF, n, defender, d_dw, _mask(laid), _mask(c for s in sets for c in s))
            outcome, who, points = hand_result(k_dw, d_dw, rules)
            winner = -1 if who < 0 else (knocker if who == 0 else defender)
            points *= self.stake  # G-V-OKLA: a spade knock card doubles, bonuses included
            boxes = boxes_for(outcome, self.stake, rules) if winner >= 0 else 0
            deadwoods[knocker], deadwoods[defender] = k_dw, d_dw
        self.log(L.EV_HAND_END, n, winner, L.OUTCOMES.index(outcome), points, knocker)
        hand = HandRecord(n, self.dealer_seat, (first, second), knocker, outcome, winner, points, boxes, self.turn,
                          taker, laid, len(self.stock), deadwoods, self.knock_card, self.limit, self.stake)
        if rules.mahjong:
            hand.mj_points = mj_points or {first: 0, second: 0}
            hand.table_value = {q: sum(value(c, self.mv) for c in self.on_table[q]) for q in (first, second)} \
                if mj_points else {first: 0, second: 0}
            hand.pickups, hand.max_take, hand.multi_pickups = self.pickups, self.max_take, self.multi_pickups
        return hand

    # --- Section 4: the game ---------------------------------------------------------------------------
    def see_waiting(self, defender: int) -> None:
        """The defender's laid-out hand is the one it kept after its last discard (G-LAY-1): if it could
        have knocked with it, it was seen waiting at that turn (layout.V_OPP_WAITED: the earliest)."""
        turns = self.my_turns[defender]
        if turns > 0 and self.dw(self.hands[defender]) <= self.limit:
            seen = self.waited[defender]
            self.waited[defender] = turns if seen == 0 else min(seen, turns)

    def seat_table(self, t: int) -> tuple[int, int, int]:
        """(non-dealer's part, dealer's part, the seat that deals) at table ``t``. G-V-3P: the dealer
        deals to the other two and sits out; the player after the dealer plays first. G-V-4P (and
        the teams of G-V-TED): team-0 player t (seat 2t) meets team-1 player (t + deal - 1) mod
        tables (seat 2j+1), so opponents rotate every deal; the dealing team's player deals."""
        players, d = self.rules.players, self.dealer
        if players == 2:
            return 1 - d, d, d
        if players == 3:
            return (d + 1) % 3, (d + 2) % 3, d
        mine, theirs = 2 * t, 2 * ((t + self.hand_no - 1) % self.rules.tables) + 1
        first, second = (theirs, mine) if d == 0 else (mine, theirs)
        return first, second, second

    def deal_result(self, hands: list[HandRecord]) -> tuple[int, int, int]:
        """(side that scores, points, boxes). One table: its winner. G-V-4P: a team that wins every
        table scores them all; otherwise the team with the larger total scores the difference
        (equal totals: nobody). G-V-TED: ``sweep_bonus`` more when a team wins at every table. The
        scoring team's boxes are those of the tables it won."""
        if not self.rules.teams:
            h = hands[0]
            return h.winner, h.points, h.boxes
        total, won, boxes = [0, 0], [0, 0], [0, 0]
        for h in hands:
            if h.winner >= 0:
                team = h.winner % 2
                total[team] += h.points
                won[team] += 1
                boxes[team] += h.boxes
        if total[0] == total[1]:
            return -1, 0, 0
        side = 0 if total[0] > total[1] else 1
        points = abs(total[0] - total[1])
        if won[side] == len(hands):
            points += self.rules.sweep_bonus
            self.sweeps[side] += 1
        return side, points, boxes[side]

    def next_dealer(self, side: int, hands: list[HandRecord]) -> None:
        """G-DEAL-1: the loser deals (options: the winner, alternate); G-V-3P: the loser of the hand
        deals, so the next hand is between the previous dealer and the winner; team play: the team
        that did not score deals. After a void hand or a 0-0 deal the same dealer deals again."""
        if side < 0:
            return
        if self.rules.players == 3:
            first, second = hands[0].seats
            self.dealer = second if side == first else first
        elif self.rules.teams or self.rules.next_dealer == "loser":
            self.dealer = 1 - side
        elif self.rules.next_dealer == "winner":
            self.dealer = side
        else:
            self.dealer = 1 - self.dealer

    def play(self) -> GameRecord:
        rules, ledger = self.rules, self.ledger
        # G-DEAL-1 Decision: a uniform draw (of three players under G-V-3P; of the dealing team
        # in team play)
        self.dealer = int(rand_below(self.rng, 3 if rules.players == 3 else 2))
        self.record.first_dealer = self.dealer
        self.sweeps = [0, 0]
        self.hand_no = 0
        while True:
            self.hand_no += 1
            match = ledger.match_no
            hands = []
            for t in range(rules.tables):
                self.table_no = t
                first, second, self.dealer_seat = self.seat_table(t)
                hand = self.play_hand(first, second)
                if hand.winner >= 0:
                    self.seat_points[hand.winner] += hand.points
                    self.seat_won[hand.winner] += 1
                    if rules.mahjong:  # G-V-MJ: the other player scores too (often less than 0)
                        loser = second if hand.winner == first else first
                        self.seat_points[loser] += hand.mj_points[loser]
                        ledger.points[loser] += hand.mj_points[loser]
                hand.table = t
                hands.append(hand)
            side, points, boxes = self.deal_result(hands)
            if side >= 0:
                self.last_won = side
            over, entered = ledger.record(side, points, boxes, self.hand_no)
            for hand in hands:
                hand.entered, hand.scores = entered, list(ledger.after)
                hand.hollywood = [list(p) for p in ledger.hw_points]
                hand.match, hand.match_points = match, list(ledger.match_points)
                hand.deal_side, hand.deal_points = side, points
                self.record.hands.append(hand)
            if rules.teams:
                self.log(L.EV_LEDGER, self.hand_no, side, points, *self.sweeps)
            ledger.log(self, self.hand_no, entered)
            self.say_score(hands, side, points)
            if over:
                break
            if self.hand_no >= L.HAND_CAP:
                self.record.capped = True
                break
            self.next_dealer(side, hands)
        self.finish()
        return self.record

    def say_score(self, hands: list[HandRecord], side: int, points: int) -> None:
        ledger, n, hand = self.ledger, self.hand_no, hands[0]
        totals = "–".join(map(str, ledger.after))
        if self.rules.teams:
            tables = ", ".join(f"table {h.table}: " + (f"seat {h.winner} {h.outcome} {h.points}" if h.winner >= 0
                                                        else h.outcome) for h in hands)
            text = f"{tables} → " + (f"team {side} scores {points}" if side >= 0 else "no score") + f"; teams {totals}"
        elif hand.winner >= 0:
            text = f"{hand.outcome}: seat {hand.winner} scores {hand.points} → totals {totals}"
        else:
            text = f"{hand.outcome}: no score; totals {totals}"
        if hand.entered:
            text += "; entered in Hollywood game " + ", ".join(str(k + 1) for k in range(L.N_HOLLY)
                                                              if hand.entered >> k & 1)
            text += " (games " + ", ".join("–".join(map(str, p)) for p in ledger.hw_points) + ")"
        if self.rules.match_target and ledger.match_no != hand.match:
            text += (f"; match {hand.match} is over: match points {ledger.match_points[0]}–"
                     f"{ledger.match_points[1]}")
        self.say("score", n, side, text)

    def finish(self) -> None:
        """G-GAME-1..3 (G-V-HOLLY, G-V-MATCH): the game's result into the record."""
        ledger, rec = self.ledger, self.record
        res = ledger.result(rec.capped)
        rec.winner, rec.final, rec.shutout, rec.margin = res["winner"], res["final"], res["shutout"], res["margin"]
        rec.points, rec.won = list(self.seat_points), list(self.seat_won)
        rec.side_points, rec.boxes = list(ledger.points), list(ledger.boxes)
        rec.hollywood = res.get("hollywood", [])
        rec.matches, rec.matches_won = res.get("matches", 0), res.get("matches_won", [])
        rec.match_shutouts = res.get("match_shutouts", 0)
        rec.sweeps = list(self.sweeps)
        finals = "–".join(map(str, rec.final))
        who = f"team {rec.winner} (seats {', '.join(str(p) for p in range(rec.winner, self.rules.players, 2))})" \
            if self.rules.teams else f"seat {rec.winner}"
        text = (f"{who} wins the game after {self.hand_no} {'deals' if self.rules.teams else 'hands'}: points "
                f"{'–'.join(map(str, rec.points))}, hands won {'–'.join(map(str, rec.won))}, ")
        if self.rules.hollywood:
            text += "Hollywood games " + "; ".join(
                f"{k + 1}: seat {g['winner']} {g['final'][0]}–{g['final'][1]}" for k, g in enumerate(rec.hollywood))
            text += f"; totals {finals}"
        elif self.rules.match_target:
            text += f"{rec.matches} matches ({'–'.join(map(str, rec.matches_won))}), match points {finals}"
        else:
            text += f"with bonuses {finals}"
        self.say("game", self.hand_no, rec.winner, text + f"{' (shutout)' if rec.shutout else ''}; margin {rec.margin}")


def play_reference(rules: GinRules, sids, params, seed: int, game: int, decide, decks=None,
                   on_invalid: str = "error") -> GameRecord:
    return ReferenceGame(rules, sids, params, seed, game, decide, decks, on_invalid).play()
