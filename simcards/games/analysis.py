"""What a game tells the studies about its results: the vocabulary of :class:`GameMetrics`.

The study functions (compare, tune, tournament) are generic; what differs between games is
which columns hold the length of a game, who won, who started or dealt, the score margin and
the game's own outcome rates. Each game declares that in its own package (``games/<game>/
analysis.py``) and hands it out through ``GameDef.metrics(rules)``; nothing under
``simcards.studies`` names a game.

*Sides* are what a game is won by: seats, or teams of seats. A strategy is assigned to a side;
every seat of the side plays it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

FAIR_SCALE = 840  # lcm(1..8): a fair share 1/players-in-the-unit as a whole number of 840ths


@dataclass(frozen=True)
class Outcome:
    """A rate Σ numer / Σ denom over games (a ratio with a delta-method CI), e.g. Asaf per call."""

    name: str
    label: str
    numer: Callable[[pd.DataFrame], np.ndarray]
    denom: Callable[[pd.DataFrame], np.ndarray]


def column(name: str) -> Callable[[pd.DataFrame], np.ndarray]:
    """A per-game column as float64 (an ``Outcome``'s numerator or denominator)."""
    return lambda df: df[name].to_numpy(dtype=np.float64)


def ones(df: pd.DataFrame) -> np.ndarray:
    """One per game (an ``Outcome`` counted per game)."""
    return np.ones(len(df))


def winner_seat(df: pd.DataFrame, players: int) -> np.ndarray:
    """The per-game ``winner`` column as seats, -1 when nobody won."""
    w = df["winner"]
    return w.to_numpy(dtype=np.int64, na_value=-1) if hasattr(w, "to_numpy") else np.asarray(w, np.int64)


def one_seat_per_side(players: int) -> int:
    return players


def own_seat(seat: int, players: int) -> int:
    return seat


# (family, rules) → {param: (highest value that can matter, why)}
ParamLimits = Callable[[str, Any], dict[str, tuple[float, str]]]
# (per-unit detail table, game indices, players) → per game: units won by the unit's starter,
# units with a winner, and Σ fair share over those units × ``FAIR_SCALE`` (whole numbers)
UnitStarter = Callable[[pd.DataFrame, np.ndarray, int], tuple[np.ndarray, np.ndarray, np.ndarray]]
# (games, per-unit detail table, players) → per game (rows, in the games' order) and seat (columns),
# the decisions that seat took, in the game's ``decision_unit``; counted from what the engine
# writes anyway (the per-unit table), so the kernels do no extra work for it
SeatDecisions = Callable[[pd.DataFrame, pd.DataFrame, int], np.ndarray]


@dataclass(frozen=True)
class GameMetrics:
    """How the studies read one game's tables under one set of rules (``GameDef.metrics``)."""

    unit: str  # what a game is made of: round / hand / deal (its per-game count is column ``units``)
    turns: str | None  # per-game column of turns (discards), None if the game has none
    starter_label: str  # what the fairness row calls the starting side
    starter_side: Callable[[pd.DataFrame, int], np.ndarray]  # (games, players) → side that started
    margin: Callable[[pd.DataFrame, int, int], np.ndarray]  # (games, side, players) → + is good for side
    n_sides: Callable[[int], int] = one_seat_per_side  # players → number of sides
    side_of_seat: Callable[[int, int], int] = own_seat  # (seat, players) → side
    winner_side: Callable[[pd.DataFrame, int], np.ndarray] = winner_seat  # -1 when nobody won
    outcomes: tuple[Outcome, ...] = field(default_factory=tuple)
    deck_fields: tuple[str, ...] = ()  # rule options that change the deck (same deck → same deals)
    param_limits: ParamLimits | None = None  # tune warns about swept values above a limit
    weak: str = "random"  # compare's default weaker side for the skill row
    unit_starter: UnitStarter | None = None  # the unit-level starter edge (needs the detail table)
    seat_decisions: SeatDecisions | None = None  # a player's decisions (the cost of a strategy); None: not counted
    decision_unit: str = "decisions"  # what one counted decision is, e.g. "turns"

    @property
    def units(self) -> str:
        return self.unit + "s"

    def param_warnings(self, family: str, rules: Any, sweep: list[tuple[str, list[float]]]) -> list[str]:
        """Warnings for swept values the rules make equal to a lower one (``param_limits``)."""
        limits = self.param_limits(family, rules) if self.param_limits is not None else {}
        out = []
        for name, values in sweep:
            if name in limits:
                top, why = limits[name]
                over = [v for v in values if v > top]
                if over:
                    shown = ", ".join(f"{v:g}" for v in over)
                    out.append(f"Warning: {name}={shown} cannot differ from {name}={top:g}: {why}.")
        return out

    def deck_key(self, rules: Any) -> tuple:
        """Equal keys: the two variants deal the same cards (paired differences)."""
        return tuple(getattr(rules, f, None) for f in self.deck_fields)

    def seat_specs(self, side_specs: list, players: int) -> list:
        """Strategy for every seat from the strategy of every side."""
        return [side_specs[self.side_of_seat(s, players)] for s in range(players)]
