"""Per-game metrics, one small registry entry per game.

The study functions (compare, tune, tournament) are generic; what differs between games is
which columns hold the length of a game, who won, who started or dealt, the score margin and
the game's own outcome rates. Each entry says that in a few lines; a new game adds one entry.

*Sides* are what a game is won by: seats in Yaniv and Gin, teams in Two Hundred (team t = seats
t and t+2) and in team Gin (G-V-4P: team t = seats t, t+2, ...). A strategy is assigned to a side;
every seat of the side plays it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError


@dataclass(frozen=True)
class Outcome:
    """A rate Σ numer / Σ denom over games (a ratio with a delta-method CI), e.g. Asaf per call."""

    name: str
    label: str
    numer: Callable[[pd.DataFrame], np.ndarray]
    denom: Callable[[pd.DataFrame], np.ndarray]


def _col(name: str) -> Callable[[pd.DataFrame], np.ndarray]:
    return lambda df: df[name].to_numpy(dtype=np.float64)


def _ones(df: pd.DataFrame) -> np.ndarray:
    return np.ones(len(df))


@dataclass(frozen=True)
class GameMetrics:
    game: str
    unit: str  # round / hand / deal
    turns: str | None  # per-game column of turns (discards), None if the game has none
    starter_label: str  # what the fairness row calls the starting side
    n_sides: Callable[[int], int]  # players → number of sides
    side_of_seat: Callable[[int, int], int]  # (seat, players) → side
    winner_side: Callable[[pd.DataFrame, int], np.ndarray]  # winning side (seat or team), -1 when nobody won
    starter_side: Callable[[pd.DataFrame, int], np.ndarray]
    margin: Callable[[pd.DataFrame, int, int], np.ndarray]  # (games, side, players) → + is good for side
    outcomes: tuple[Outcome, ...] = field(default_factory=tuple)
    deck_fields: tuple[str, ...] = ()  # rule options that change the deck (same deck → same deals)
    for_rules: Callable[["GameMetrics", object], "GameMetrics"] | None = None  # sides that depend on the variant
    # (family, rules) → {param: (highest value that can matter, why)}: tune warns above it
    param_limits: Callable[[str, object], dict[str, tuple[float, str]]] | None = None
    weak: str = "random"  # compare's default weaker side for the skill row
    # (per-unit detail table, game indices, players) → per game: units won by the unit's starter,
    # units with a winner, and Σ fair share over those units × ``FAIR_SCALE`` (whole numbers)
    unit_starter: Callable[[pd.DataFrame, np.ndarray, int], tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None

    def param_warnings(self, family: str, rules, sweep) -> list[str]:
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

    def specialize(self, rules) -> "GameMetrics":
        """These metrics for one variant (Two Hundred: its table decides the sides)."""
        return self.for_rules(self, rules) if self.for_rules is not None else self

    @property
    def units(self) -> str:
        return self.unit + "s"

    def deck_key(self, rules) -> tuple:
        return tuple(getattr(rules, f, None) for f in self.deck_fields)

    def seat_specs(self, side_specs: list, players: int) -> list:
        """Strategy for every seat from the strategy of every side."""
        return [side_specs[self.side_of_seat(s, players)] for s in range(players)]


def _winner_seat(df: pd.DataFrame, players: int) -> np.ndarray:
    w = df["winner"]
    return w.to_numpy(dtype=np.int64, na_value=-1) if hasattr(w, "to_numpy") else np.asarray(w, np.int64)


def _yaniv_margin(df: pd.DataFrame, side: int, players: int) -> np.ndarray:
    scores = np.stack([df[f"score_{p}"].to_numpy(np.float64) for p in range(players)], axis=1)
    own = scores[:, side]
    others = (scores.sum(axis=1) - own) / (players - 1)
    return others - own  # Yaniv scores are penalties: lower is better


def _gin_sides(players: int) -> int:
    return 3 if players == 3 else 2  # G-V-3P: three seats; two seats, or two teams (G-V-4P)


def _gin_side(seat: int, players: int) -> int:
    return seat % 2 if players >= 4 else seat


def _gin_margin(df: pd.DataFrame, side: int, players: int) -> np.ndarray:
    col = "team_final" if "team_final_0" in df else "final"
    finals = np.stack([df[f"{col}_{s}"].to_numpy(np.float64) for s in range(_gin_sides(players))], axis=1)
    own = finals[:, side]
    return own - (finals.sum(axis=1) - own) / (finals.shape[1] - 1)


def _th_sides(players: int) -> int:
    return 2 if players == 4 else players


def _th_side(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


def _th_margin(df: pd.DataFrame, side: int, players: int) -> np.ndarray:
    """The side's score minus the mean of the other sides' (two sides: minus the other's)."""
    scores = np.stack([df[c].to_numpy(np.float64) for c in df.columns if c.startswith("score_")], axis=1)
    own = scores[:, side]
    return own - (scores.sum(axis=1) - own) / (scores.shape[1] - 1)


def _th_for_rules(m: GameMetrics, rules) -> GameMetrics:
    """Two Hundred's sides are the variant's: teams (side of seat s = s % teams), or every player
    alone (T-V-5P, T-V-CUT); T-V-2P's two players are the two sides."""
    import dataclasses

    sides = rules.sides
    return dataclasses.replace(
        m, n_sides=lambda n: sides, side_of_seat=lambda s, n: s % sides,
        starter_label="first dealer's team" if sides < rules.players else "first dealer",
        starter_side=lambda df, n: df["first_dealer"].to_numpy(np.int64) % sides, for_rules=None)


FAIR_SCALE = 840  # lcm(1..8): 1/players-in-the-round as a whole number of 840ths


def _yaniv_round_starter(rounds: pd.DataFrame, games: np.ndarray, players: int):
    """Rounds won by the round's starter. The round's winner has the lowest hand at the call
    (Y-SC-1, Y-SC-2): the caller unless Asaf; ties go to the first in the direction of play from
    the player after the caller, the caller last (as Y-START-2 picks the next starter). Rounds
    abandoned at the turn cap have no winner. The fair share of a round is 1 / players still in."""
    called = rounds["caller"].notna().to_numpy()
    r = rounds[called]
    hands = np.stack([r[f"hand_{s}"].to_numpy(dtype=np.float64, na_value=np.inf) for s in range(players)], axis=1)
    caller = r["caller"].to_numpy(dtype=np.int64)
    order = (caller[:, None] + 1 + np.arange(players)[None, :]) % players  # caller last
    ranked = np.take_along_axis(hands, order, axis=1)
    winner = order[np.arange(len(r)), np.argmin(ranked, axis=1)]
    won = (winner == r["starter"].to_numpy(np.int64)).astype(np.int64)
    fair = FAIR_SCALE // np.isfinite(hands).sum(axis=1)
    idx = np.searchsorted(games, r["game"].to_numpy())
    out = [np.bincount(idx, weights=w, minlength=len(games)).astype(np.int64) for w in (won, np.ones(len(r)), fair)]
    return tuple(out)


def _yaniv_limits(family: str, rules) -> dict[str, tuple[float, str]]:
    """The threshold family calls at or under ``call``; the rules forbid a call above the call
    limit (Y-CALL-1, Y-V-LIMIT) unless overcalls are allowed (Y-V-OVERCALL)."""
    if family != "threshold" or rules.call_limit is None or rules.overcall:
        return {}
    return {"call": (rules.call_limit, f"these rules allow a call only at or under {rules.call_limit} "
                     "(Y-CALL-1, Y-V-LIMIT)")}


REGISTRY: dict[str, GameMetrics] = {
    "yaniv": GameMetrics(
        game="yaniv", unit="round", turns="turns", starter_label="round-1 starter",
        n_sides=lambda n: n, side_of_seat=lambda s, n: s,
        winner_side=_winner_seat,
        starter_side=lambda df, n: df["starter"].to_numpy(np.int64),
        margin=_yaniv_margin,
        outcomes=(Outcome("asaf_rate", "Asaf rate (per call)", _col("asafs"), _col("calls")),),
        deck_fields=("decks", "jokers"),
        param_limits=_yaniv_limits,
        unit_starter=_yaniv_round_starter,
        weak="threshold:keep=0",  # greedy shedding: threshold beats it ~71% (4 players), not ~100% as random
    ),
    "gin": GameMetrics(
        game="gin", unit="hand", turns="turns", starter_label="first dealer",
        n_sides=_gin_sides, side_of_seat=_gin_side,
        winner_side=_winner_seat,
        starter_side=lambda df, n: df["first_dealer"].to_numpy(np.int64),
        margin=_gin_margin,
        outcomes=(
            Outcome("knock_rate", "knock wins per hand", _col("knocks"), _col("hands")),
            Outcome("gin_rate", "gin per hand", _col("gins"), _col("hands")),
            Outcome("undercut_rate", "undercut per hand", _col("undercuts"), _col("hands")),
            Outcome("wall_rate", "wall (void) per hand", _col("walls"), _col("hands")),
            Outcome("dealer_hand_share", "scored hands won by the dealer", _col("dealer_hands_won"), _col("scored_hands")),
        ),
        deck_fields=(),
        weak="knock:max=0",  # holds out for gin: simple beats it ~55% (not ~100% as random)
    ),
    "two-hundred": GameMetrics(
        game="two-hundred", unit="deal", turns=None, starter_label="first dealer's team",
        n_sides=_th_sides, side_of_seat=_th_side,
        winner_side=_winner_seat,
        starter_side=lambda df, n: df["first_dealer"].to_numpy(np.int64) % 2 if n == 4 else df["first_dealer"].to_numpy(np.int64),
        margin=_th_margin,
        outcomes=(
            Outcome("contract_made_rate", "contracts made", _col("made"), lambda df: df["made"].to_numpy(np.float64) + df["failed"].to_numpy(np.float64)),
            Outcome("throw_in_rate", "deals thrown in", _col("throw_ins"), _col("deals")),
            Outcome("hole_rate", "games ended by the hole", lambda df: df["hole"].to_numpy(np.float64), _ones),
        ),
        deck_fields=("deck", "kitty", "seats"),
        for_rules=_th_for_rules,
        weak="heuristic:aggr=0.3",  # a timid bidder: heuristic beats it ~78% (not ~100% as random)
    ),
}


def metrics_for(game: str) -> GameMetrics:
    from simcards.games import canonical

    key = canonical(game)
    if key not in REGISTRY:
        raise SimcardsError(f"no study metrics for game {key!r} yet; studies cover: {', '.join(REGISTRY)}")
    return REGISTRY[key]
