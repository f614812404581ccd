"""Yaniv rules as data: every option of yaniv.md sections 1–5, presets, validation, encoding.

The kernel and the reference engine read the same encoded ``int64`` array (``encode()``); a
variant is a value of ``YanivRules``, never a branch copied into the engine.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from simcards.errors import SimcardsError
from simcards.options import parse_value

HAND_SIZE = 5  # Y-DEAL-1
MAX_PLAYERS = 21  # two decks: 21 * 5 + 3 = 108
MAX_RESET_SCORE = 1000  # reset tables cover scores 0..1000

PICKUPS = ("ends", "any_set", "any", "top")
FAILED_CALL_OTHERS = ("hand", "zero", "higher_only")
RESETS = ("standard", "200to150", "fifties", "halve", "none")
DIRECTIONS = ("clockwise", "counterclockwise")

# Y-V-RESET (a)–(e): exact cumulative score → new score (at most one per round, Y-RESET-1).
_RESET_TABLES = {
    "standard": {200: 100, 100: 50},
    "200to150": {200: 150, 100: 50},
    "fifties": {s: 50 for s in range(100, MAX_RESET_SCORE + 1, 50)},
    "halve": {100: 50, 150: 75, 200: 100},
    "none": {},
}

# Every option of section 5 is implemented; nothing is refused as "not implemented yet".
NOT_YET: dict[str, str] = {}


@dataclass(frozen=True)
class YanivRules:
    """Every Yaniv option. Field comments cite the rule each one implements."""

    decks: int = 1  # Y-CARD-3: 1 or 2 decks
    jokers: bool = True  # Y-CARD-1: two jokers per deck (Y-V-NEP plays without)
    face_values: tuple[int, int, int] = (10, 10, 10)  # Y-CARD-2: J, Q, K (Nepali 0/10/10, 11/12/13)
    direction: str = "clockwise"  # Y-PLAY-2
    jokers_wild: bool = True  # Y-DIS-3 (Y-V-KLUFT: jokers are plain 0-point cards)
    joker_pair_set: bool = True  # Y-DIS-3 Decision: two jokers form a set
    pickup: str = "ends"  # Y-DRAW-2 ends | Y-V-PICK any_set | Y-V-NEP any | Y-V-KLUFT top
    call_limit: int | None = 5  # Y-CALL-1, Y-V-LIMIT (None = no limit)
    no_call_before_full_turn: bool | None = None  # Y-V-LIMIT; None = on exactly when call_limit is None
    asaf_penalty: int = 30  # Y-SC-2
    failed_call_others: str = "hand"  # Y-SC-2, Y-V-ALTSC, Y-V-NEP
    out_over: int = 200  # Y-ELIM-1 (strictly over)
    resets: str = "standard"  # Y-RESET-1, Y-V-RESET
    three_zero_bonus: bool = False  # Y-V-THREE
    three_zero_once: bool = False  # Y-V-THREE: only the first time
    overcall: bool = False  # Y-V-OVERCALL
    requests: bool = False  # Y-V-REQ
    slam: bool = False  # Y-V-SLAM
    kluft: bool = False  # Y-V-KLUFT calls
    kluft_penalty: int = 15  # Y-V-KLUFT: failed callers add hand + this
    onderkluft_any: bool = False  # Y-V-KLUFT: onderkluft allowed above the limit
    name: str = field(default="custom", compare=False)

    # ----- derived values ---------------------------------------------------------------
    @property
    def full_turn_before_call(self) -> bool:
        if self.no_call_before_full_turn is None:
            return self.call_limit is None
        return self.no_call_before_full_turn

    @property
    def deck_size(self) -> int:
        return self.decks * (52 + (2 if self.jokers else 0))

    def max_players(self) -> int:
        """Y-PLAY-1 Decision: the deal must leave at least 2 cards for the stock."""
        return min(MAX_PLAYERS, (self.deck_size - 2) // HAND_SIZE)

    def card_values(self) -> np.ndarray:
        """Point value of every face id 0..53 under these rules (Y-CARD-2, Y-V-NEP)."""
        vals = np.zeros(54, dtype=np.int64)
        for face in range(52):
            rank = face % 13
            vals[face] = rank + 1 if rank < 10 else self.face_values[rank - 10]
        return vals

    def reset_table(self) -> dict[int, int]:
        return dict(_RESET_TABLES[self.resets])

    # ----- validation -------------------------------------------------------------------
    def validate(self) -> YanivRules:
        def bad(msg: str) -> SimcardsError:
            return SimcardsError(f"yaniv rules: {msg}")

        if self.decks not in (1, 2):
            raise bad(f"decks={self.decks} is not allowed; use 1 or 2 (Y-CARD-3)")
        if len(self.face_values) != 3 or any(not 0 <= v <= 13 for v in self.face_values):
            raise bad(f"face_values={self.face_values} must be three values 0..13 for J, Q, K")
        if self.direction not in DIRECTIONS:
            raise bad(f"direction={self.direction!r}; allowed: {', '.join(DIRECTIONS)}")
        if self.pickup not in PICKUPS:
            raise bad(f"pickup={self.pickup!r}; allowed: {', '.join(PICKUPS)}")
        if self.call_limit is not None and not 0 <= self.call_limit <= 500:
            raise bad(f"call_limit={self.call_limit} must be a whole number 0..500 or none (Y-V-LIMIT)")
        if not 0 <= self.asaf_penalty <= 1000:
            raise bad(f"asaf_penalty={self.asaf_penalty} must be 0..1000")
        if self.failed_call_others not in FAILED_CALL_OTHERS:
            raise bad(f"failed_call_others={self.failed_call_others!r}; allowed: {', '.join(FAILED_CALL_OTHERS)}")
        if not 1 <= self.out_over <= MAX_RESET_SCORE:
            raise bad(f"out_over={self.out_over} must be 1..{MAX_RESET_SCORE}")
        if self.resets not in RESETS:
            raise bad(f"resets={self.resets!r}; allowed: {', '.join(RESETS)}")
        if not 0 <= self.kluft_penalty <= 1000:
            raise bad(f"kluft_penalty={self.kluft_penalty} must be 0..1000")
        if self.three_zero_once and not self.three_zero_bonus:
            raise bad("three_zero_once needs three_zero_bonus=true (Y-V-THREE)")
        if not self.jokers and self.joker_pair_set is False and not self.jokers_wild:
            pass  # meaningless but harmless: no jokers in the deck
        if self.pickup == "top" and not self.kluft:
            raise bad("pickup=top is Kluft's rule; set kluft=true (or use --variant kluft)")
        # Contradictory or meaningless combinations (section 5).
        if self.overcall and self.call_limit is None:
            raise bad("overcall=true (Y-V-OVERCALL) needs a call limit; with call_limit=none every call is allowed")
        if self.overcall and self.kluft:
            raise bad("overcall=true (Y-V-OVERCALL) and kluft=true (Y-V-KLUFT) cannot be combined: "
                      "a Kluft call is never scored as an Asaf")
        if self.slam and self.pickup == "top":
            raise bad("slam=true (Y-V-SLAM) with pickup=top is not supported: a slammed card's place on a "
                      "Kluft pile is undefined; use pickup=ends, any_set or any")
        lowest = 0 if self.jokers else min(1, *self.face_values)  # the lowest hand: one card
        if self.call_limit is not None and self.call_limit < lowest and not self.overcall:
            raise bad(f"call_limit={self.call_limit} can never be reached: without jokers every hand totals at "
                      f"least {lowest}, so no round could end; use call_limit>={lowest}, jokers=true or overcall=true")
        if not self.kluft and self.onderkluft_any:
            raise bad("onderkluft_any=true needs kluft=true (Y-V-KLUFT)")
        if not self.kluft and self.kluft_penalty != 15:
            raise bad(f"kluft_penalty={self.kluft_penalty} needs kluft=true (Y-V-KLUFT)")
        for option, what in NOT_YET.items():
            if getattr(self, option):
                raise bad(f"{option}=true ({what}) is not implemented yet; see `simcards variants yaniv`")
        return self

    def check_players(self, players: int) -> None:
        top = self.max_players()
        if not 2 <= players <= top:
            raise SimcardsError(
                f"--players {players} is impossible for Yaniv with {self.decks} deck(s) of {self.deck_size} cards: "
                f"allowed 2..{top} (Y-PLAY-1; try decks=2 for more players)"
                if players > top
                else f"--players {players}: Yaniv needs 2..{top} players (Y-PLAY-1)"
            )

    def replace(self, **changes) -> YanivRules:
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict:
        """The rule options as a plain dict (for summaries and manifests)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}

    # ----- the bridge to the kernels ---------------------------------------------------------
    def encode(self) -> np.ndarray:
        """Pack the rules into the int64 array both engines read (layout: ``R_*`` below)."""
        arr = np.zeros(R_SIZE, dtype=np.int64)
        arr[R_DECKS] = self.decks
        arr[R_JOKERS] = 2 if self.jokers else 0
        arr[R_CCW] = self.direction == "counterclockwise"
        arr[R_WILD] = self.jokers_wild
        arr[R_JOKER_PAIR] = self.joker_pair_set
        arr[R_PICKUP] = PICKUPS.index(self.pickup)
        arr[R_LIMIT] = -1 if self.call_limit is None else self.call_limit
        arr[R_FULL_TURN] = self.full_turn_before_call
        arr[R_ASAF] = self.asaf_penalty
        arr[R_OTHERS] = FAILED_CALL_OTHERS.index(self.failed_call_others)
        arr[R_OUT_OVER] = self.out_over
        arr[R_THREE] = self.three_zero_bonus
        arr[R_THREE_ONCE] = self.three_zero_once
        arr[R_OVERCALL] = self.overcall
        arr[R_REQUESTS] = self.requests
        arr[R_SLAM] = self.slam
        arr[R_KLUFT] = self.kluft
        arr[R_KLUFT_PEN] = self.kluft_penalty
        arr[R_ONDER_ANY] = self.onderkluft_any
        arr[R_VALUES : R_VALUES + 54] = self.card_values()
        resets = np.full(MAX_RESET_SCORE + 1, -1, dtype=np.int64)
        for score, new in self.reset_table().items():
            resets[score] = new
        arr[R_RESET : R_RESET + MAX_RESET_SCORE + 1] = resets
        return arr


# Encoded layout (indices into the int64 array).
R_DECKS, R_JOKERS, R_CCW, R_WILD, R_JOKER_PAIR, R_PICKUP, R_LIMIT, R_FULL_TURN = range(8)
R_ASAF, R_OTHERS, R_OUT_OVER, R_THREE, R_THREE_ONCE, R_OVERCALL, R_REQUESTS, R_SLAM = range(8, 16)
R_KLUFT, R_KLUFT_PEN, R_ONDER_ANY = range(16, 19)
R_VALUES = 32
R_RESET = R_VALUES + 54
R_SIZE = R_RESET + MAX_RESET_SCORE + 1

PICK_ENDS, PICK_ANY_SET, PICK_ANY, PICK_TOP = range(4)
OTHERS_HAND, OTHERS_ZERO, OTHERS_HIGHER = range(3)


ISRAELI = YanivRules(name="israeli")
PRESETS: dict[str, tuple[YanivRules, str]] = {
    "israeli": (ISRAELI, "sections 1–4: 54 cards, limit 5, Asaf +30, out over 200, 200→100 and 100→50, ends only"),
    "israeli-anyset": (ISRAELI.replace(pickup="any_set", name="israeli-anyset"), "israeli + any card of a set (Y-V-PICK)"),
    "nepali": (
        YanivRules(
            jokers=False, face_values=(0, 10, 10), direction="counterclockwise", pickup="any",
            asaf_penalty=25, failed_call_others="zero", out_over=100, resets="none", name="nepali",
        ),
        "Y-V-NEP: 52 cards, J=0, any card of the discard, failed call +25 and others score nothing, out over 100",
    ),
    "nepali-jokers": (
        YanivRules(
            jokers=True, face_values=(11, 12, 13), direction="counterclockwise", pickup="any",
            asaf_penalty=25, failed_call_others="zero", out_over=100, resets="none", name="nepali-jokers",
        ),
        "Y-V-NEP with jokers: J/Q/K = 11/12/13, jokers wild",
    ),
    "kluft": (
        YanivRules(pickup="top", jokers_wild=False, kluft=True, out_over=100, name="kluft"),
        "Y-V-KLUFT: top card only, jokers not wild, Kluft/onderkluft, +15, out over 100, 100→50",
    ),
    "adrian": (
        ISRAELI.replace(overcall=True, requests=True, slam=True, name="adrian"),
        "israeli + overcall, card requests and slam-down (Y-V-OVERCALL, Y-V-REQ, Y-V-SLAM)",
    ),
    "fast": (ISRAELI.replace(call_limit=7, name="fast"), "israeli with call limit 7"),
}


def preset(name: str) -> YanivRules:
    try:
        return PRESETS[name][0]
    except KeyError:
        raise SimcardsError(f"unknown Yaniv variant {name!r}; known: {', '.join(PRESETS)}") from None


def parse_option(key: str, text: str):
    """Turn ``--rule key=value`` text into a typed value for field ``key``."""
    fields = {f.name: f for f in dataclasses.fields(YanivRules) if f.name != "name"}
    if key not in fields:
        raise SimcardsError(f"unknown Yaniv rule option {key!r}; known: {', '.join(fields)}")
    default = getattr(ISRAELI, key)
    low = text.strip().lower()
    if key in ("call_limit",):
        if low in ("none", "no", "off", "-"):
            return None
    if key == "no_call_before_full_turn" and low in ("auto", "default"):
        return None
    if key == "no_call_before_full_turn":
        return parse_value(key, text, False)
    if key == "face_values":
        parts = text.replace("/", ",").split(",")
        try:
            values = tuple(int(p) for p in parts)
        except ValueError:
            values = ()
        if len(values) != 3:
            raise SimcardsError(f"rule face_values={text!r}: expected three numbers J,Q,K such as 10,10,10")
        return values
    if key == "call_limit":
        return parse_value(key, text, 0)
    return parse_value(key, text, default)


def build_rules(variant: str = "israeli", overrides: dict | None = None, decks: int | None = None) -> YanivRules:
    """A preset plus single-option overrides, validated."""
    rules = preset(variant)
    changes = dict(overrides or {})
    if decks is not None:
        changes["decks"] = decks
    if changes:
        rules = rules.replace(**changes, name=f"{variant}+" + ",".join(f"{k}={v}" for k, v in changes.items()))
    return rules.validate()
