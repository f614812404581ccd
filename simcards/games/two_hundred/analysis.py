"""Two Hundred's metrics for the studies (:class:`simcards.games.analysis.GameMetrics`): the
sides are the variant's, teams (team t = seats t, t + teams, ...) or every player alone (T-V-5P,
T-V-CUT; T-V-2P's two players are the two sides)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.games.analysis import GameMetrics, Outcome, column, ones


def _margin(df: pd.DataFrame, side: int, players: int) -> np.ndarray:
    """The side's score minus the mean of the other sides' (two sides: minus the other's)."""
    scores = np.stack([df[c].to_numpy(np.float64) for c in df.columns if c.startswith("score_")], axis=1)
    own = scores[:, side]
    return own - (scores.sum(axis=1) - own) / (scores.shape[1] - 1)


OUTCOMES = (
    Outcome("contract_made_rate", "contracts made", column("made"),
            lambda df: df["made"].to_numpy(np.float64) + df["failed"].to_numpy(np.float64)),
    Outcome("throw_in_rate", "deals thrown in", column("throw_ins"), column("deals")),
    Outcome("hole_rate", "games ended by the hole", lambda df: df["hole"].to_numpy(np.float64), ones),
)


def _cards_played(each: int):
    """Cards each seat played per game: every seat plays its whole hand in a deal that is not thrown
    in (T-PLAY-1; T-BID-5: a thrown-in deal has no play). Bids and the trump call are not counted."""
    def count(games: pd.DataFrame, deals: pd.DataFrame, players: int) -> np.ndarray:
        played = games["deals"].to_numpy(np.int64) - games["throw_ins"].to_numpy(np.int64)
        return np.repeat((played * each)[:, None], players, axis=1)
    return count


def metrics(rules) -> GameMetrics:
    """The metrics under ``rules``: the variant's table decides the sides (``rules.sides``; side
    of seat s = s % sides)."""
    sides = rules.sides
    return GameMetrics(
        unit="deal", turns=None,
        starter_label="first dealer's team" if sides < rules.players else "first dealer",
        n_sides=lambda n: sides, side_of_seat=lambda s, n: s % sides,
        starter_side=lambda df, n: df["first_dealer"].to_numpy(np.int64) % sides,
        margin=_margin, outcomes=OUTCOMES,
        deck_fields=("deck", "kitty", "seats"),
        weak="heuristic:aggr=0.3",  # a timid bidder: heuristic beats it ~78% (not ~100% as random)
        # every seat a player (T-V-2P's dummies are played by their owners: not counted)
        seat_decisions=_cards_played(rules.cards_each) if rules.seats == rules.players else None,
        decision_unit="cards played",
    )
