"""Gin Rummy's metrics for the studies (:class:`simcards.games.analysis.GameMetrics`): the sides
are the seats, three seats (G-V-3P), or two teams (G-V-4P: team t = seats t, t+2, ...)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
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


def _seat_turns(games: pd.DataFrame, hands: pd.DataFrame, players: int) -> np.ndarray:
    """Turns each seat took per game, two players (a turn: a draw, then a discard or the knock;
    the last-chance take of G-WALL-2 is one too). The first turn is the upcard taker's, else the
    non-dealer's (G-FIRST-1); then the two alternate, so the first mover has the odd turns."""
    first = hands["upcard_taker"].to_numpy(dtype=np.float64, na_value=np.nan)
    dealer = hands["dealer"].to_numpy(np.int64)
    first = np.where(np.isnan(first), 1 - dealer, first).astype(np.int64)
    t = hands["turns"].to_numpy(np.int64)
    per_hand = np.zeros((len(hands), 2), dtype=np.int64)
    rows = np.arange(len(hands))
    per_hand[rows, first] = (t + 1) // 2
    per_hand[rows, 1 - first] = t // 2
    out = np.zeros((len(games), 2), dtype=np.int64)
    np.add.at(out, np.searchsorted(games["game"].to_numpy(), hands["game"].to_numpy()), per_hand)
    return out


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


# Turns are counted where the hands table says who moved first: two players, the upcard offered
# first (no 11-card deal, G-V-DEAL11; no second deck, G-V-OKLA; no Mahjong gin, G-V-MJ).
COUNTED = dataclasses.replace(METRICS, seat_decisions=_seat_turns, decision_unit="turns")


def metrics(rules) -> GameMetrics:
    plain = (rules.upcard and not rules.deal_11 and not rules.mahjong
             and not (rules.oklahoma and rules.knock_card == "second_deck"))
    return COUNTED if plain and rules.players == 2 else METRICS


# ----- the game-win value table's self-play (``simcards.table.value``) ---------------------------------
VALUE_SELF_PLAY = "informed"


def value_covers(rules, players: int) -> bool:
    """Whether the value table fits: two players racing to one target (G-GAME-1)."""
    return rules.players == 2 and not rules.hollywood and not rules.match_target and not rules.mahjong


def value_hands(rules, strategy: str, games: int, seed: int):
    """Gin (G-GAME-1): the kernel's per-hand table, each side's gain from the running scores."""
    if not value_covers(rules, 2):
        raise SimcardsError(f"Gin {rules.name}: the value table covers two players racing to one target "
                            "(not three players, teams, Hollywood or matches)")
    import simcards
    from simcards.table.value import base_preset, overrides

    sim = simcards.simulate("gin", games=games, seed=seed, strategies=strategy, rules=overrides(rules, "gin"),
                            variant=base_preset(rules), threads=1)
    assert sim.detail is not None  # the per-hand table (detail=True)
    d = sim.detail.sort_values(["game", "hand"])
    scores = d[["score_0", "score_1"]].to_numpy(dtype=np.int64)
    game_ids = d["game"].to_numpy()
    prev = np.zeros_like(scores)
    prev[1:] = scores[:-1]
    first = np.ones(len(d), dtype=bool)
    first[1:] = game_ids[1:] != game_ids[:-1]
    prev[first] = 0
    return game_ids, d["dealer"].to_numpy(dtype=np.int64), scores - prev, None, None
