"""High card's rules as data (rule IDs H-…, written out in docs/contract.md).

H-DEAL-1  2–4 players; every round each is dealt two cards from a fresh shuffled 52-card deck.
H-PLAY-1  a uniformly random seat leads the first round; H-PLAY-3 the round's winner leads the next.
H-PLAY-2  in turn from the leader, each plays one of their two cards (a decision, seeing the cards
          already played); the highest card wins the round (rank, then suit s < h < d < c).
H-RANK-1  ``aces_high``: aces rank above kings (true) or below twos (false).
H-END-1   ``target``: the first to win this many rounds wins the game.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from simcards.errors import SimcardsError
from simcards.names import resolve
from simcards.options import check_options, option, typed_overrides

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_TARGET = 20


@dataclass(frozen=True)
class HighCardRules:
    TITLE: ClassVar[str] = "High card"  # in messages: "unknown High card rule option ..."
    name: str = "standard"
    target: int = option(3, rule="H-END-1", allowed=f"1..{MAX_TARGET}", help="round wins that take the game")
    aces_high: bool = option(True, rule="H-RANK-1", help="aces above kings (false: below twos)")

    def __post_init__(self) -> None:  # validated on construction, from the declarations
        check_options(self)

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "name"}

    def encode(self) -> np.ndarray:
        return np.array([self.target, int(self.aces_high)], dtype=np.int64)

    def check_players(self, players: int) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise SimcardsError(f"high-card is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players} (H-DEAL-1)")


PRESETS = {
    "standard": (HighCardRules(), "first to 3 round wins, aces high"),
    "quick": (HighCardRules("quick", target=1), "one round decides (H-END-1 target=1)"),
}


def build_rules(variant: str, overrides: dict) -> HighCardRules:
    variant = resolve("high-card variant", variant, PRESETS)  # case-insensitive, the nearest name suggested
    return dataclasses.replace(PRESETS[variant][0], **typed_overrides(HighCardRules, overrides))
