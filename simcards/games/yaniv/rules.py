"""Yaniv rules as data: every option of yaniv.md sections 1–5, presets, validation, encoding.

The kernel and the reference engine read the same encoded ``int64`` array (``encode()``); a
variant is a value of ``YanivRules``, never a branch copied into the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from simcards.errors import SimcardsError
from simcards.names import resolve
from simcards.options import RuleSet, check_options, option, with_overrides

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
class YanivRules(RuleSet):
    """Every Yaniv option, each declared once with its rule, allowed values and help
    (``simcards.options``). Constructing an invalid value raises ``SimcardsError``."""

    TITLE: ClassVar[str] = "Yaniv"

    decks: int = option(1, rule="Y-CARD-3", allowed="1, 2", help="number of decks")
    jokers: bool = option(True, rule="Y-CARD-1", help="two jokers per deck")  # Y-V-NEP plays without
    face_values: tuple[int, int, int] = option((10, 10, 10), rule="Y-CARD-2", allowed="0..13",
                                               help="values of J, Q, K (Nepali 0,10,10 or 11,12,13)")
    direction: str = option("clockwise", rule="Y-PLAY-2", allowed=", ".join(DIRECTIONS), help="direction of play")
    jokers_wild: bool = option(True, rule="Y-DIS-3", help="jokers stand in runs (Kluft: false)")
    joker_pair_set: bool = option(True, rule="Y-DIS-3", help="two jokers together are a set")
    # Y-DRAW-2 ends | Y-V-PICK any_set | Y-V-NEP any | Y-V-KLUFT top
    pickup: str = option("ends", rule="Y-DRAW-2", allowed=", ".join(PICKUPS),
                         help="which cards of the previous discard may be taken")
    call_limit: int | None = option(5, rule="Y-V-LIMIT", allowed="0..500", none=("none", "no", "off", "-"),
                                    help="highest hand total that may call")  # Y-CALL-1
    no_call_before_full_turn: bool | None = option(
        None, rule="Y-V-LIMIT", none=("auto", "default"),
        help="nobody calls before everyone has played (auto: on with no limit)")
    asaf_penalty: int = option(30, rule="Y-SC-2", allowed="0..1000", help="added to a failed caller's hand")
    failed_call_others: str = option("hand", rule="Y-SC-2", allowed=", ".join(FAILED_CALL_OTHERS),
                                     help="what the others score on a failed call")  # Y-V-ALTSC, Y-V-NEP
    out_over: int = option(200, rule="Y-ELIM-1", allowed=f"1..{MAX_RESET_SCORE}",
                           help="eliminated strictly over this score")
    resets: str = option("standard", rule="Y-V-RESET", allowed=", ".join(RESETS), help="exact-score resets")
    three_zero_bonus: bool = option(False, rule="Y-V-THREE", help="20 off for every third round scored at 0")
    three_zero_once: bool = option(False, rule="Y-V-THREE", help="only the first time")
    overcall: bool = option(False, rule="Y-V-OVERCALL", help="calls above the limit, always scored hand + "
                            "asaf_penalty (needs a limit; not with kluft)")
    requests: bool = option(False, rule="Y-V-REQ", help="card requests before the discard")
    slam: bool = option(False, rule="Y-V-SLAM",
                        help="slam the drawn card onto the group just thrown (not with pickup=top)")
    kluft: bool = option(False, rule="Y-V-KLUFT", help="Kluft calls with onderkluft challenges replace Yaniv calls")
    kluft_penalty: int = option(15, rule="Y-V-KLUFT", allowed="0..1000",
                                help="added to each failed Kluft/onderkluft caller")
    onderkluft_any: bool = option(False, rule="Y-V-KLUFT", help="onderkluft allowed above the limit")
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        self.validate()

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
        """Exact score → new score. Y-V-RESET's Decision: only scores at or under the elimination
        limit reset; a score over it is eliminated (Y-ELIM-1), whatever the option."""
        return {s: new for s, new in _RESET_TABLES[self.resets].items() if s <= self.out_over}

    # ----- validation -------------------------------------------------------------------
    def validate(self) -> YanivRules:
        """Each option against its declaration, then the combinations section 5 cannot play. Runs on
        construction (``__post_init__``), so a ``YanivRules`` value is always valid."""
        def bad(msg: str) -> SimcardsError:
            return SimcardsError(f"yaniv rules: {msg}")

        check_options(self)
        if self.three_zero_once and not self.three_zero_bonus:
            raise bad("three_zero_once needs three_zero_bonus=true (Y-V-THREE)")
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
        for key, what in NOT_YET.items():
            if getattr(self, key):
                raise bad(f"{key}=true ({what}) is not implemented yet; see `simcards variants yaniv`")
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

    # ----- the bridge to the kernels ---------------------------------------------------------
    def encode(self) -> np.ndarray:
        """Pack the rules into the int64 array both engines read (layout: ``R_*`` below)."""
        arr = np.zeros(R_SIZE, dtype=np.int64)
        for slot, name in PLAIN_SLOTS.items():  # options the engines read as they are
            arr[slot] = getattr(self, name)
        arr[R_JOKERS] = 2 if self.jokers else 0
        arr[R_CCW] = self.direction == "counterclockwise"
        arr[R_PICKUP] = PICKUPS.index(self.pickup)
        arr[R_LIMIT] = -1 if self.call_limit is None else self.call_limit
        arr[R_OTHERS] = FAILED_CALL_OTHERS.index(self.failed_call_others)
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

# The options encoded as their value (bool or int); the others are computed in ``encode``.
PLAIN_SLOTS = {
    R_DECKS: "decks", R_WILD: "jokers_wild", R_JOKER_PAIR: "joker_pair_set", R_FULL_TURN: "full_turn_before_call",
    R_ASAF: "asaf_penalty", R_OUT_OVER: "out_over", R_THREE: "three_zero_bonus", R_THREE_ONCE: "three_zero_once",
    R_OVERCALL: "overcall", R_REQUESTS: "requests", R_SLAM: "slam", R_KLUFT: "kluft", R_KLUFT_PEN: "kluft_penalty",
    R_ONDER_ANY: "onderkluft_any",
}

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
    return PRESETS[resolve("Yaniv variant", name, PRESETS)][0]  # case-insensitive, the nearest name suggested


def build_rules(variant: str = "israeli", overrides: dict | None = None, decks: int | None = None) -> YanivRules:
    """A preset plus single-option overrides (text or typed values), validated on construction."""
    return with_overrides(preset(variant), overrides, **({} if decks is None else {"decks": decks}))
