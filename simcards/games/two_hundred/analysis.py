"""Two Hundred's metrics for the studies (:class:`simcards.games.analysis.GameMetrics`): the
sides are the variant's, teams (team t = seats t, t + teams, ...) or every player alone (T-V-5P,
T-V-CUT; T-V-2P's two players are the two sides)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
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


# ----- the game-win value table's self-play (``simcards.table.value``) ---------------------------------
VALUE_SELF_PLAY = "heuristic"  # the game's default player


def value_covers(rules, players: int) -> bool:
    """Whether the value table fits: Two Hundred's two teams racing to the target or the hole (T-END-1/2)."""
    return rules.sides == 2 and rules.mode != "two-player"


def value_hands(rules, strategy: str, games: int, seed: int):
    """Two Hundred's two sides (T-END-1/2): the kernel's per-deal table, each side's deal score,
    the dealing side (``dealer % 2``), and who wins when both sides reach the target in the deal
    (the contract team, T-END-1; a deal nobody bid scores nothing). Scores move both ways: the
    live scores run from ``hole + 1`` to ``target - 1`` (T-SC-3)."""
    if not value_covers(rules, 2):
        raise SimcardsError(f"Two Hundred {rules.name}: the value table covers two sides (teams, six-2x3, kitty, "
                            "le-rough), not cutthroat, six-3x2 or the five-player and two-player tables")
    import simcards
    from simcards.table.value import TIE_DEALER, TIE_HIGHER, TIE_OTHER, Race, base_preset, overrides

    sim = simcards.simulate("two-hundred", games=games, seed=seed, strategies=strategy,
                            rules=overrides(rules, "two-hundred"), variant=base_preset(rules), threads=1)
    assert sim.detail is not None
    d = sim.detail.sort_values(["game", "deal"])
    dealer_side = d["dealer"].to_numpy(dtype=np.int64) % 2
    gains = d[["deal_score_0", "deal_score_1"]].to_numpy(dtype=np.int64)
    ct = d["contract_team"].astype("float").fillna(-1).to_numpy().astype(np.int64)
    tie = np.where(ct < 0, TIE_HIGHER, np.where(ct == dealer_side, TIE_DEALER, TIE_OTHER))
    race = Race(int(rules.hole) + 1, int(rules.target) - 1)
    return d["game"].to_numpy(), dealer_side, gains, tie, race
