"""Two Hundred rules as data: every option of two-hundred.md, presets, validation, encoding.

The kernel and the reference engine read the same encoded ``int64`` array (``encode()``); a
variant is a value of ``TwoHundredRules``, never a branch copied into the engine. ``mode`` fixes
the table (who sits where, who plays with whom, who bids, how the game ends); every other option
is independent and may be set alone, and ``validate()`` refuses combinations the rules file
cannot play with a message that says what is wrong and what is allowed.

Tables (``mode``), seats clockwise from 0:

* ``teams`` — 4 seats, teams 0 (seats 0, 2) and 1 (seats 1, 3) (T-TEAM-1)
* ``two-player`` — seats 0 = A, 1 = B, 2 = A's dummy, 3 = B's dummy; sides as ``teams`` (T-V-2P)
* ``five-player`` — 5 seats, each its own side, a called secret partner each deal (T-V-5P)
* ``cutthroat`` — 4 seats, each its own side (T-V-CUT)
* ``six-3x2`` — 6 seats, teams of 2 opposite: side = seat % 3 (T-V-6P)
* ``six-2x3`` — 6 seats, teams of 3 alternating: side = seat % 2 (T-V-6P)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from simcards.errors import SimcardsError
from simcards.games.two_hundred.layout import DECK_MASK_36, DECK_MASK_40
from simcards.names import resolve
from simcards.options import RuleSet, check_options, option, with_overrides

MODES = ("teams", "two-player", "five-player", "cutthroat", "six-3x2", "six-2x3")
FAIL_SCORES = ("minus_bid", "points_minus_bid")
CUTTHROAT_FAILS = ("bid", "points")
DECK_POINTS = 100  # T-CARD-2 (the 40-card deck adds only 0-point 6s)
MAX_TARGET = 10_000
KITTY_CARDS = 4

# mode → (real players, seats at the table, sides). A side is a team, or a seat in individual play.
_TABLES = {
    "teams": (4, 4, 2),
    "two-player": (2, 4, 2),
    "five-player": (5, 5, 5),
    "cutthroat": (4, 4, 4),
    "six-3x2": (6, 6, 3),
    "six-2x3": (6, 6, 2),
}
_MODE_RULE = {
    "teams": "the standard game (T-TEAM-1)",
    "two-player": "two players with dummies (T-V-2P)",
    "five-player": "five players with a called partner (T-V-5P)",
    "cutthroat": "cutthroat (T-V-CUT)",
    "six-3x2": "six players in 3 teams of 2 (T-V-6P)",
    "six-2x3": "six players in 2 teams of 3 (T-V-6P)",
}
_MODE_FOR_PLAYERS = {2: "two-player", 4: "standard, kitty, le-rough or cutthroat", 5: "five-player",
                     6: "six-3x2 or six-2x3"}


@dataclass(frozen=True)
class TwoHundredRules(RuleSet):
    """Every Two Hundred option, each declared once with its rule, allowed values and help
    (``simcards.options``). Constructing an invalid value raises ``SimcardsError``."""

    TITLE: ClassVar[str] = "Two Hundred"

    mode: str = option("teams", rule="T-TEAM-1, T-V-*", allowed=", ".join(MODES),
                       help="the table: teams (standard), two-player (dummies), five-player (called partner), "
                            "cutthroat (no teams), six-3x2 / six-2x3")
    deck: int = option(36, rule="T-CARD-1", allowed="36, 40", help="deck size (40 keeps the 6s: T-V-5P, T-V-KITTY)")
    # T-PLAY-3; checked with the deal (_validate_deal): it depends on deck, kitty and the table
    hand_size: int = option(0, rule="T-DEAL-1", allowed="0 or (deck - kitty) / hands", checked=False,
                            help="cards dealt to each hand; 0 = every card dealt")
    kitty: int = option(0, rule="T-V-KITTY", allowed=f"0, {KITTY_CARDS}",
                        help="kitty cards the bidder takes and rebuilds (points to the defenders; two teams)")
    # Le Rough 70, cutthroat 25
    min_bid: int = option(50, rule="T-BID-2", allowed=f"1..{DECK_POINTS}", help="lowest bid")
    bid_step: int = option(5, rule="T-BID-2", allowed="1..50", help="bids go up in steps of this")
    max_bid: int = option(100, rule="T-BID-2", allowed=f"min_bid..{DECK_POINTS}",
                          help="highest bid (Decision: 100, all card points)")
    target: int = option(200, rule="T-END-1", allowed=f"1..{MAX_TARGET}",
                         help="a side at or above this at the end of a deal wins")  # Le Rough 350
    hole: int = option(-200, rule="T-END-2", allowed=f"-{MAX_TARGET}..-1",
                       help="a side at or below this at the end of a deal loses (T-V-6P: leaves)")
    fail_score: str = option("minus_bid", rule="T-SC-2", allowed=", ".join(FAIL_SCORES),
                             help="what a failed contract scores")  # Decision; points_minus_bid the other reading
    no_trump: bool = option(False, rule="T-V-ROUGH", help="the bidder may name no trump; a no-trump deal scores double")
    dealer_bids_after_passes: bool = option(True, rule="T-V-ROUGH",
                                            help="false: when all others pass the dealer may not bid")
    partner_shares_loss: bool = option(True, rule="T-V-5P", help="a failed contract costs the secret partner the "
                                       "bid too (five-player only)")
    cutthroat_fail: str = option("bid", rule="T-V-CUT", allowed=", ".join(CUTTHROAT_FAILS),
                                 help="a failed cutthroat bidder scores minus the bid or minus its points (cutthroat "
                                      "only)")  # Decision
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        self.validate()

    # ----- the table --------------------------------------------------------------------------
    @property
    def players(self) -> int:
        """Real players (T-V-2P: two, their dummies are played by them)."""
        return _TABLES.get(self.mode, _TABLES["teams"])[0]

    @property
    def seats(self) -> int:
        """Hands at the table (T-V-2P: four, two of them dummies)."""
        return _TABLES.get(self.mode, _TABLES["teams"])[1]

    @property
    def sides(self) -> int:
        """Teams, or players in individual play; side of seat s = s % sides."""
        return _TABLES.get(self.mode, _TABLES["teams"])[2]

    @property
    def individual(self) -> bool:
        """Every player keeps their own score (T-V-5P, T-V-CUT)."""
        return self.sides == self.seats

    @property
    def cards_each(self) -> int:
        """Cards dealt to each seat: the whole deck but the kitty (T-DEAL-1, T-PLAY-3)."""
        return self.hand_size or (self.deck - self.kitty) // self.seats

    def side_of(self, seat: int) -> int:
        return seat % self.sides

    def side_seats(self, side: int) -> list[int]:
        return [s for s in range(self.seats) if s % self.sides == side]

    def bids(self) -> list[int]:
        """Every legal bid value, low to high (T-BID-2)."""
        return list(range(self.min_bid, self.max_bid + 1, self.bid_step))

    # ----- validation -------------------------------------------------------------------
    def validate(self) -> TwoHundredRules:
        """Each option against its declaration, then the deal and the options that need a given table.
        Runs on construction (``__post_init__``), so a ``TwoHundredRules`` value is always valid."""
        def bad(msg: str) -> SimcardsError:
            return SimcardsError(f"two-hundred rules: {msg}")

        check_options(self)
        self._validate_deal(bad)
        self._validate_mode_options(bad)
        return self

    def _validate_deal(self, bad) -> None:
        """Every card is dealt: seats × cards each + kitty = deck (section 7: points sum to 100)."""
        problem = self._deal_problem(self.deck, self.kitty)
        if problem:
            fits = [f"deck={d}, kitty={k}" for d in (36, 40) for k in (0, KITTY_CARDS) if not self._deal_problem(d, k)]
            raise bad(f"{problem}; allowed at this table: {' or '.join(fits)}")
        each = (self.deck - self.kitty) // self.seats
        if self.hand_size not in (0, each):
            raise bad(f"hand_size={self.hand_size}: deck={self.deck} with kitty={self.kitty} deals {each} cards "
                      f"to each of {self.seats} hands; use hand_size={each} or 0 (every card dealt, section 7)")

    def _deal_problem(self, deck: int, kitty: int) -> str | None:
        table = f"{self.seats} hands ({_MODE_RULE[self.mode]})"
        if (deck - kitty) % self.seats:
            return f"deck={deck} with kitty={kitty} cannot be dealt evenly to {table}"
        if self.mode == "two-player" and (deck, kitty) != (36, 0):
            return (f"two-player lays each dummy's 9 cards in 3 piles of 3 (T-V-2P), so it needs deck=36 and "
                    f"kitty=0, not deck={deck}, kitty={kitty}")
        if kitty and (self.individual or self.sides != 2):
            return (f"kitty={kitty}: its points go to the defending team (T-V-KITTY), so it needs two teams "
                    f"(mode=teams or six-2x3), not mode={self.mode}")
        return None

    def _validate_mode_options(self, bad) -> None:
        """Options that mean something only at some tables are refused elsewhere, never ignored."""
        if not self.partner_shares_loss and self.mode != "five-player":
            raise bad(f"partner_shares_loss=false applies only to mode=five-player (T-V-5P), not {self.mode}")
        if self.cutthroat_fail != "bid":
            if self.mode != "cutthroat":
                raise bad(f"cutthroat_fail={self.cutthroat_fail} applies only to mode=cutthroat (T-V-CUT), not {self.mode}")
            if self.fail_score != "minus_bid":
                raise bad("cutthroat_fail=points already says what a failed cutthroat bid scores (minus the points "
                          "taken); leave fail_score=minus_bid or use cutthroat_fail=bid")

    def check_players(self, players: int) -> None:
        want = self.players
        if players != want:
            other = _MODE_FOR_PLAYERS.get(players)
            hint = f"; for {players} players use --variant {other}" if other else ""
            raise SimcardsError(f"--players {players}: Two Hundred {self.name} ({_MODE_RULE[self.mode]}) is played "
                                f"by exactly {want} players{hint}")

    # ----- the bridge to the kernels ---------------------------------------------------------
    def encode(self) -> np.ndarray:
        arr = np.zeros(R_SIZE, dtype=np.int64)
        for slot, name in PLAIN_SLOTS.items():  # options the engines read as they are
            arr[slot] = getattr(self, name)
        arr[R_FAIL] = FAIL_SCORES.index(self.fail_score)
        arr[R_DUMMIES] = 0b1100 if self.mode == "two-player" else 0
        arr[R_CALL] = self.mode == "five-player"
        arr[R_CUT_POINTS] = self.cutthroat_fail == "points"
        arr[R_HOLE_LEAVES] = not self.individual
        arr[R_DECK_MASK] = DECK_MASK_40 if self.deck == 40 else DECK_MASK_36
        arr[R_DECK_ROW] = 1 if self.deck == 40 else 0
        return arr


# Encoded layout (indices into the int64 array).
(R_MIN_BID, R_STEP, R_MAX_BID, R_TARGET, R_HOLE, R_FAIL, R_DEALER_BIDS, R_HAND, R_DECK,
 R_SEATS,  # hands at the table
 R_SIDES,  # teams (or players in individual play); side of seat s = s % R_SIDES
 R_REAL,  # real players: seats 0 .. R_REAL-1 (the rest are T-V-2P dummies)
 R_DUMMIES,  # mask of dummy seats; a dummy is played by the seat opposite (T-V-2P)
 R_KITTY,  # kitty cards (T-V-KITTY, T-V-ROUGH)
 R_NO_TRUMP,  # the bidder may name no trump; a no-trump deal scores double (T-V-ROUGH)
 R_CALL,  # the bidder calls a secret partner's card (T-V-5P)
 R_PSL,  # partner_shares_loss (T-V-5P)
 R_CUT_POINTS,  # a failed cutthroat bidder scores minus its points (T-V-CUT option)
 R_HOLE_LEAVES,  # 1: a side at the hole leaves (teams); 0: the highest score wins (T-V-5P/CUT Decision)
 R_DECK_MASK,  # lane mask of the deck's cards
 R_DECK_ROW,  # row of layout.DECKS
 ) = range(21)
R_SIZE = 24
FAIL_MINUS_BID, FAIL_POINTS_MINUS_BID = 0, 1


# The options encoded as their value (bool or int); the others are computed in ``encode``.
PLAIN_SLOTS = {
    R_MIN_BID: "min_bid", R_STEP: "bid_step", R_MAX_BID: "max_bid", R_TARGET: "target", R_HOLE: "hole",
    R_DEALER_BIDS: "dealer_bids_after_passes", R_HAND: "cards_each", R_DECK: "deck", R_SEATS: "seats",
    R_SIDES: "sides", R_REAL: "players", R_KITTY: "kitty", R_NO_TRUMP: "no_trump", R_PSL: "partner_shares_loss",
}

STANDARD = TwoHundredRules(name="standard")
PRESETS: dict[str, tuple[TwoHundredRules, str]] = {
    "standard": (STANDARD, "sections 1–4: 36 cards, 4 players in 2 teams, bids 50..100 by 5, 200 wins, -200 loses"),
    "two-player": (TwoHundredRules(mode="two-player", name="two-player"),
                   "T-V-2P: 2 players, each with a dummy in 3 piles of 3 (top card face up)"),
    "five-player": (TwoHundredRules(mode="five-player", deck=40, name="five-player"),
                    "T-V-5P: 5 players, 40 cards, 8 each, called secret partner, individual scores"),
    "kitty": (TwoHundredRules(deck=40, kitty=4, name="kitty"),
              "T-V-KITTY: 40 cards, 9 each + a 4-card kitty the bidder rebuilds (its points to the defenders)"),
    "le-rough": (TwoHundredRules(kitty=4, min_bid=70, target=350, no_trump=True, dealer_bids_after_passes=False,
                                 name="le-rough"),
                 "T-V-ROUGH: 8 each + kitty, trump or no trump (doubles), min bid 70, 350 wins, dealer barred after 3 passes"),
    "cutthroat": (TwoHundredRules(mode="cutthroat", min_bid=25, name="cutthroat"),
                  "T-V-CUT: 4 players, no teams, min bid 25, individual scores"),
    "six-3x2": (TwoHundredRules(mode="six-3x2", name="six-3x2"),
                "T-V-6P: 6 players, 6 each, 3 teams of 2 (a team at -200 leaves; 4 players go on)"),
    "six-2x3": (TwoHundredRules(mode="six-2x3", name="six-2x3"), "T-V-6P: 6 players, 6 each, 2 teams of 3"),
}


def preset(name: str) -> TwoHundredRules:
    return PRESETS[resolve("Two Hundred variant", name, PRESETS)][0]  # case-insensitive, the nearest name suggested


def build_rules(variant: str = "standard", overrides: dict | None = None) -> TwoHundredRules:
    """A preset plus single-option overrides (text or typed values), validated on construction."""
    return with_overrides(preset(variant), overrides)
