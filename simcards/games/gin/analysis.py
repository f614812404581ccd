"""Gin Rummy's metrics for the studies (:class:`simcards.games.analysis.GameMetrics`): the sides
are the seats, three seats (G-V-3P), or two teams (G-V-4P: team t = seats t, t+2, ...)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.games.analysis import GameMetrics, Outcome, column


def _sides(players: int) -> int:
    return 3 if players == 3 else 2  # G-V-3P: three seats; two seats, or two teams (G-V-4P)


def _side(seat: int, players: int) -> int:
    return seat % 2 if players >= 4 else seat


def _margin(df: pd.DataFrame, side: int, players: int) -> np.ndarray:
    col = "team_final" if "team_final_0" in df else "final"
    finals = np.stack([df[f"{col}_{s}"].to_numpy(np.float64) for s in range(_sides(players))], axis=1)
    own = finals[:, side]
    return own - (finals.sum(axis=1) - own) / (finals.shape[1] - 1)


METRICS = GameMetrics(
    unit="hand", turns="turns", starter_label="first dealer",
    n_sides=_sides, side_of_seat=_side,
    starter_side=lambda df, n: df["first_dealer"].to_numpy(np.int64),
    margin=_margin,
    outcomes=(
        Outcome("knock_rate", "knock wins per hand", column("knocks"), column("hands")),
        Outcome("gin_rate", "gin per hand", column("gins"), column("hands")),
        Outcome("undercut_rate", "undercut per hand", column("undercuts"), column("hands")),
        Outcome("wall_rate", "wall (void) per hand", column("walls"), column("hands")),
        Outcome("dealer_hand_share", "scored hands won by the dealer", column("dealer_hands_won"),
                column("scored_hands")),
    ),
    deck_fields=(),
    weak="knock:max=0",  # holds out for gin: simple beats it ~55% (not ~100% as random)
)


def metrics(rules) -> GameMetrics:
    return METRICS
