"""Two Hundred rules as data: every option of two-hundred.md, presets, validation, encoding.

The kernel and the reference engine read the same encoded ``int64`` array (``encode()``); a
variant is a value of ``TwoHundredRules``, never a branch copied into the engine. Sections 1–4
(the standard four-player game) are implemented; the section-5 variants exist as presets and
options so that ``simcards variants two-hundred`` lists them, and ``validate()`` refuses them
with a clear message until their engine support lands.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from simcards.errors import SimcardsError
from simcards.options import parse_value

MODES = ("teams", "two-player", "five-player", "cutthroat", "six-3x2", "six-2x3")
FAIL_SCORES = ("minus_bid", "points_minus_bid")
CUTTHROAT_FAILS = ("bid", "points")
DECK_POINTS = 100  # T-CARD-2 (the 40-card deck adds only 0-point 6s)
MAX_TARGET = 10_000

# What each mode needs before it can run, for the "not implemented yet" message.
_MODE_RULE = {
    "two-player": "T-V-2P (two players with dummies)",
    "five-player": "T-V-5P (five players, called partner)",
    "cutthroat": "T-V-CUT (cutthroat, no teams)",
    "six-3x2": "T-V-6P (six players, 3 teams of 2)",
    "six-2x3": "T-V-6P (six players, 2 teams of 3)",
}
_MODE_PLAYERS = {"teams": 4, "two-player": 2, "five-player": 5, "cutthroat": 4, "six-3x2": 6, "six-2x3": 6}


@dataclass(frozen=True)
class TwoHundredRules:
    """Every Two Hundred option. Field comments cite the rule each one implements."""

    mode: str = "teams"  # T-TEAM-1 (teams of 2 opposite); the section-5 modes
    deck: int = 36  # T-CARD-1: 36 cards (no 2, 3, 4, 6); 40 keeps the 6s (T-V-5P, T-V-KITTY)
    hand_size: int = 9  # T-DEAL-1 / T-PLAY-3: 9 (8 in Le Rough and with five players, 6 with six)
    kitty: int = 0  # T-V-KITTY / T-V-ROUGH: a 4-card kitty the bidder takes
    min_bid: int = 50  # T-BID-2
    bid_step: int = 5  # T-BID-2
    max_bid: int = 100  # T-BID-2 Decision: all card points
    target: int = 200  # T-END-1 (Le Rough: 350)
    hole: int = -200  # T-END-2
    fail_score: str = "minus_bid"  # T-SC-2 (Decision; "points_minus_bid" is the other reading)
    no_trump: bool = False  # T-V-ROUGH: the bidder may name no trump
    dealer_bids_after_passes: bool = True  # T-V-ROUGH: false — after three passes the dealer may not bid
    partner_shares_loss: bool = True  # T-V-5P
    cutthroat_fail: str = "bid"  # T-V-CUT Decision
    name: str = field(default="custom", compare=False)

    @property
    def players(self) -> int:
        return _MODE_PLAYERS.get(self.mode, 4)

    def bids(self) -> list[int]:
        """Every legal bid value, low to high (T-BID-2)."""
        return list(range(self.min_bid, self.max_bid + 1, self.bid_step))

    # ----- validation -------------------------------------------------------------------
    def validate(self) -> TwoHundredRules:
        def bad(msg: str) -> SimcardsError:
            return SimcardsError(f"two-hundred rules: {msg}")

        if self.mode not in MODES:
            raise bad(f"mode={self.mode!r}; allowed: {', '.join(MODES)}")
        if self.deck not in (36, 40):
            raise bad(f"deck={self.deck}; allowed: 36 (T-CARD-1) or 40 (T-V-5P, T-V-KITTY)")
        if self.kitty not in (0, 4):
            raise bad(f"kitty={self.kitty}; allowed: 0 or 4 (T-V-KITTY, T-V-ROUGH)")
        if not 1 <= self.bid_step <= 50:
            raise bad(f"bid_step={self.bid_step} must be 1..50 (T-BID-2)")
        if not 1 <= self.min_bid <= DECK_POINTS:
            raise bad(f"min_bid={self.min_bid} must be 1..{DECK_POINTS} (T-BID-2)")
        if not self.min_bid <= self.max_bid <= DECK_POINTS:
            raise bad(f"max_bid={self.max_bid} must be between min_bid={self.min_bid} and {DECK_POINTS} (T-BID-2)")
        if not 1 <= self.target <= MAX_TARGET:
            raise bad(f"target={self.target} must be 1..{MAX_TARGET} (T-END-1)")
        if not -MAX_TARGET <= self.hole <= -1:
            raise bad(f"hole={self.hole} must be -{MAX_TARGET}..-1 (T-END-2)")
        if self.fail_score not in FAIL_SCORES:
            raise bad(f"fail_score={self.fail_score!r}; allowed: {', '.join(FAIL_SCORES)} (T-SC-2)")
        if self.cutthroat_fail not in CUTTHROAT_FAILS:
            raise bad(f"cutthroat_fail={self.cutthroat_fail!r}; allowed: {', '.join(CUTTHROAT_FAILS)} (T-V-CUT)")
        # Not implemented yet: refuse, never ignore.
        if self.mode != "teams":
            raise bad(f"mode={self.mode} ({_MODE_RULE[self.mode]}) is not implemented yet; "
                      "only the standard four-player team game (mode=teams) runs in this version")
        if self.kitty:
            raise bad("kitty=4 (T-V-KITTY, T-V-ROUGH) is not implemented yet; use kitty=0")
        if self.no_trump:
            raise bad("no_trump=true (T-V-ROUGH) is not implemented yet")
        if self.deck != 36:
            raise bad("deck=40 is used only by the kitty and five-player variants, which are not implemented yet")
        if self.hand_size != 9:
            raise bad(f"hand_size={self.hand_size}: the four-player game without a kitty deals 9 cards each (T-DEAL-1)")
        if not self.partner_shares_loss:
            raise bad("partner_shares_loss=false only applies to five-player (T-V-5P), which is not implemented yet")
        if self.cutthroat_fail != "bid":
            raise bad("cutthroat_fail only applies to cutthroat (T-V-CUT), which is not implemented yet")
        return self

    def check_players(self, players: int) -> None:
        want = self.players
        if players != want:
            raise SimcardsError(f"--players {players}: the standard Two Hundred game is for exactly {want} players "
                                "in two teams (T-TEAM-1); other player counts are variants not implemented yet")

    def replace(self, **changes) -> TwoHundredRules:
        return dataclasses.replace(self, **changes)

    def options(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}

    # ----- the bridge to the kernels ---------------------------------------------------------
    def encode(self) -> np.ndarray:
        arr = np.zeros(R_SIZE, dtype=np.int64)
        arr[R_MIN_BID] = self.min_bid
        arr[R_STEP] = self.bid_step
        arr[R_MAX_BID] = self.max_bid
        arr[R_TARGET] = self.target
        arr[R_HOLE] = self.hole
        arr[R_FAIL] = FAIL_SCORES.index(self.fail_score)
        arr[R_DEALER_BIDS] = self.dealer_bids_after_passes
        arr[R_HAND] = self.hand_size
        arr[R_DECK] = self.deck
        return arr


# Encoded layout (indices into the int64 array).
R_MIN_BID, R_STEP, R_MAX_BID, R_TARGET, R_HOLE, R_FAIL, R_DEALER_BIDS, R_HAND, R_DECK = range(9)
R_SIZE = 16
FAIL_MINUS_BID, FAIL_POINTS_MINUS_BID = 0, 1


STANDARD = TwoHundredRules(name="standard")
_ROUGH = TwoHundredRules(hand_size=8, kitty=4, min_bid=70, target=350, no_trump=True,
                         dealer_bids_after_passes=False, name="le-rough")
PRESETS: dict[str, tuple[TwoHundredRules, str]] = {
    "standard": (STANDARD, "sections 1–4: 36 cards, 4 players in 2 teams, bids 50..100 by 5, 200 wins, -200 loses"),
    "two-player": (TwoHundredRules(mode="two-player", name="two-player"), "T-V-2P: two players with dummies (not implemented yet)"),
    "five-player": (TwoHundredRules(mode="five-player", deck=40, hand_size=8, name="five-player"),
                    "T-V-5P: five players, 40 cards, called secret partner (not implemented yet)"),
    "kitty": (TwoHundredRules(deck=40, kitty=4, name="kitty"), "T-V-KITTY: 40 cards, 4-card kitty (not implemented yet)"),
    "le-rough": (_ROUGH, "T-V-ROUGH: 8 cards, kitty, no trump doubles, min 70, 350 wins (not implemented yet)"),
    "cutthroat": (TwoHundredRules(mode="cutthroat", min_bid=25, name="cutthroat"),
                  "T-V-CUT: 4 players, no teams, min bid 25 (not implemented yet)"),
    "six-3x2": (TwoHundredRules(mode="six-3x2", hand_size=6, name="six-3x2"), "T-V-6P: 3 teams of 2 (not implemented yet)"),
    "six-2x3": (TwoHundredRules(mode="six-2x3", hand_size=6, name="six-2x3"), "T-V-6P: 2 teams of 3 (not implemented yet)"),
}


def preset(name: str) -> TwoHundredRules:
    try:
        return PRESETS[name][0]
    except KeyError:
        raise SimcardsError(f"unknown Two Hundred variant {name!r}; known: {', '.join(PRESETS)}") from None


def parse_option(key: str, text: str):
    """Turn ``--rule key=value`` text into a typed value for field ``key``."""
    fields = {f.name for f in dataclasses.fields(TwoHundredRules) if f.name != "name"}
    if key not in fields:
        raise SimcardsError(f"unknown Two Hundred rule option {key!r}; known: {', '.join(sorted(fields))}")
    return parse_value(key, text, getattr(STANDARD, key))


def build_rules(variant: str = "standard", overrides: dict | None = None) -> TwoHundredRules:
    """A preset plus single-option overrides, validated."""
    rules = preset(variant)
    changes = dict(overrides or {})
    if changes:
        try:
            rules = rules.replace(**changes, name=f"{variant}+" + ",".join(f"{k}={v}" for k, v in changes.items()))
        except TypeError as exc:
            raise SimcardsError(f"two-hundred rules: {exc}") from None
    for key, value in rules.options().items():
        want = type(getattr(STANDARD, key))
        if want is int and (isinstance(value, bool) or not isinstance(value, (int, np.integer))):
            raise SimcardsError(f"two-hundred rules: {key}={value!r} must be a whole number")
        if want is bool and not isinstance(value, (bool, np.bool_)):
            raise SimcardsError(f"two-hundred rules: {key}={value!r} must be true or false")
        if want is str and not isinstance(value, str):
            raise SimcardsError(f"two-hundred rules: {key}={value!r} must be text")
    return rules.validate()
