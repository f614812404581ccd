"""Gin Rummy rules as data: every option of gin-rummy.md sections 1–4 and 6, presets,
validation and the encoding both engines read.

A variant is a value of ``GinRules``; the kernel and the reference engine read the same encoded
``int64`` array (``encode()``), never a branch copied per variant. The section-5 variants
(Oklahoma, straight, Hollywood, Tedesco, the 11-card deal, three and four players) are named so
that asking for them gives a clear "not implemented yet" instead of a silently different game.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from simcards.errors import SimcardsError
from simcards.options import parse_value

HAND_SIZE = 10  # G-DEAL-2
NEXT_DEALERS = ("loser", "winner", "alternate")  # G-DEAL-1
SHUTOUTS = ("bonus", "double")  # G-GAME-1

# Section-5 variants: the option exists (so it is documented and refusable) but the engines do
# not play it yet. Turning one on is refused by validate().
NOT_YET = {
    "deal_11": "G-V-DEAL11 (the 11-card deal)",
    "oklahoma": "G-V-OKLA (Oklahoma gin)",
    "straight": "G-V-STRAIGHT (straight gin)",
    "hollywood": "G-V-HOLLY (Hollywood scoring)",
}

# Presets of section 6 that need section-5 variants.
NOT_YET_PRESETS = {
    "oklahoma": "G-V-OKLA",
    "straight": "G-V-STRAIGHT",
    "hollywood": "G-V-HOLLY",
    "tedesco": "G-V-TED",
    "deal-11": "G-V-DEAL11",
    "three-player": "G-V-3P",
    "four-player": "G-V-4P",
}


@dataclass(frozen=True)
class GinRules:
    """Every Gin Rummy option. Field comments cite the rule each one implements."""

    knock_limit: int = 10  # G-KNOCK-1: knock with deadwood at most this (0 = gin only)
    gin_bonus: int = 20  # G-SC-4 (option 25)
    undercut_bonus: int = 10  # G-SC-3 (option 20)
    undercut_on_tie: bool = True  # G-SC-3: a tie is an undercut; off: a tie scores 0-0 (OpenSpiel)
    game_target: int = 100  # G-GAME-1: play until a total reaches this
    game_bonus: int = 100  # G-GAME-1
    shutout_bonus: int = 200  # G-GAME-1: game bonus instead of game_bonus when the loser scored 0
    shutout: str = "bonus"  # G-GAME-1: bonus (200 instead of 100) | double (the winner's whole score x2)
    box_bonus: int = 20  # G-GAME-2 (option 25): per hand won, added at the end
    next_dealer: str = "loser"  # G-DEAL-1: loser | winner | alternate
    gra_rediscard: bool = False  # G-TURN-3
    last_chance: bool = False  # G-WALL-2
    fiftieth_card: bool = False  # G-WALL-3 (turns on last_chance)
    deal_11: bool = False  # G-V-DEAL11 (not implemented yet)
    oklahoma: bool = False  # G-V-OKLA (not implemented yet)
    straight: bool = False  # G-V-STRAIGHT (not implemented yet)
    hollywood: bool = False  # G-V-HOLLY (not implemented yet)
    name: str = field(default="custom", compare=False)

    # ----- validation -------------------------------------------------------------------
    def validate(self) -> GinRules:
        def bad(msg: str) -> SimcardsError:
            return SimcardsError(f"gin rules: {msg}")

        def whole(key: str, low: int, high: int, rule: str) -> None:
            v = getattr(self, key)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not low <= v <= high:
                raise bad(f"{key}={v!r} must be a whole number {low}..{high} ({rule})")

        whole("knock_limit", 0, 10, "G-KNOCK-1; 0 means gin only")
        whole("gin_bonus", 0, 100, "G-SC-4")
        whole("undercut_bonus", 0, 100, "G-SC-3")
        whole("game_target", 1, 1000, "G-GAME-1")
        whole("game_bonus", 0, 1000, "G-GAME-1")
        whole("shutout_bonus", 0, 2000, "G-GAME-1")
        whole("box_bonus", 0, 100, "G-GAME-2")
        for key in ("undercut_on_tie", "gra_rediscard", "last_chance", "fiftieth_card", *NOT_YET):
            if not isinstance(getattr(self, key), (bool, np.bool_)):
                raise bad(f"{key}={getattr(self, key)!r} must be true or false")
        if self.shutout not in SHUTOUTS:
            raise bad(f"shutout={self.shutout!r}; allowed: {', '.join(SHUTOUTS)} (G-GAME-1)")
        if self.next_dealer not in NEXT_DEALERS:
            raise bad(f"next_dealer={self.next_dealer!r}; allowed: {', '.join(NEXT_DEALERS)} (G-DEAL-1)")
        if self.fiftieth_card and not self.last_chance:
            raise bad("fiftieth_card=true needs last_chance=true (G-WALL-3 turns on G-WALL-2)")
        for option, what in NOT_YET.items():
            if getattr(self, option):
                raise bad(f"{option}=true ({what}) is not implemented yet; see `simcards variants gin`")
        return self

    def check_players(self, players: int) -> None:
        if players != 2:
            raise SimcardsError(f"--players {players}: standard Gin Rummy is played by exactly 2 players "
                                "(three- and four-player gin, G-V-3P/G-V-4P, are not implemented yet)")

    def replace(self, **changes) -> GinRules:
        return dataclasses.replace(self, **changes)

    def options(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}

    # ----- the bridge to the kernels ---------------------------------------------------------
    def encode(self) -> np.ndarray:
        arr = np.zeros(R_SIZE, dtype=np.int64)
        arr[R_KNOCK] = self.knock_limit
        arr[R_GIN] = self.gin_bonus
        arr[R_UNDERCUT] = self.undercut_bonus
        arr[R_TIE_UNDERCUT] = self.undercut_on_tie
        arr[R_TARGET] = self.game_target
        arr[R_GAME_BONUS] = self.game_bonus
        arr[R_SHUTOUT_BONUS] = self.shutout_bonus
        arr[R_SHUTOUT_DOUBLE] = self.shutout == "double"
        arr[R_BOX] = self.box_bonus
        arr[R_NEXT_DEALER] = NEXT_DEALERS.index(self.next_dealer)
        arr[R_GRA] = self.gra_rediscard
        arr[R_LAST_CHANCE] = self.last_chance or self.fiftieth_card
        arr[R_FIFTIETH] = self.fiftieth_card
        return arr


# Encoded layout (indices into the int64 array).
(R_KNOCK, R_GIN, R_UNDERCUT, R_TIE_UNDERCUT, R_TARGET, R_GAME_BONUS, R_SHUTOUT_BONUS, R_SHUTOUT_DOUBLE,
 R_BOX, R_NEXT_DEALER, R_GRA, R_LAST_CHANCE, R_FIFTIETH) = range(13)
R_SIZE = 16
DEALER_LOSER, DEALER_WINNER, DEALER_ALTERNATE = range(3)

STANDARD = GinRules(name="standard")
TOURNAMENT = STANDARD.replace(gin_bonus=25, undercut_bonus=20, box_bonus=25, name="tournament")
PRESETS: dict[str, tuple[GinRules, str]] = {
    "standard": (STANDARD,
                 "sections 1–4: knock ≤10, undercut 10 (ties too), gin 20, box 20, game 100 (+100, 200 shutout)"),
    "tournament": (TOURNAMENT, "standard with gin 25, undercut 20, box 25"),
}


def preset(name: str) -> GinRules:
    if name in PRESETS:
        return PRESETS[name][0]
    if name in NOT_YET_PRESETS:
        raise SimcardsError(f"gin variant {name!r} ({NOT_YET_PRESETS[name]}) is not implemented yet; "
                            f"available: {', '.join(PRESETS)}")
    raise SimcardsError(f"unknown Gin variant {name!r}; known: {', '.join(PRESETS)}")


def parse_option(key: str, text: str):
    """Turn ``--rule key=value`` text into a typed value for field ``key``."""
    fields = {f.name: f for f in dataclasses.fields(GinRules) if f.name != "name"}
    if key not in fields:
        raise SimcardsError(f"unknown Gin rule option {key!r}; known: {', '.join(fields)}")
    return parse_value(key, text, getattr(STANDARD, key))


def build_rules(variant: str = "standard", overrides: dict | None = None) -> GinRules:
    """A preset plus single-option overrides, validated."""
    rules = preset(variant)
    changes = dict(overrides or {})
    if changes:
        fields = {f.name for f in dataclasses.fields(GinRules) if f.name != "name"}
        for key in changes:
            if key not in fields:
                raise SimcardsError(f"unknown Gin rule option {key!r}; known: {', '.join(sorted(fields))}")
        rules = rules.replace(**changes, name=f"{variant}+" + ",".join(f"{k}={v}" for k, v in changes.items()))
    return rules.validate()
