"""Yaniv's metrics for the studies (:class:`simcards.games.analysis.GameMetrics`): every seat is
a side, scores are penalties, a round has a starter (Y-START-1, Y-START-2)."""

from __future__ import annotations

import dataclasses
from functools import partial

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.games.analysis import FAIR_SCALE, GameMetrics, Outcome, column


def _margin(df: pd.DataFrame, side: int, players: int) -> np.ndarray:
    scores = np.stack([df[f"score_{p}"].to_numpy(np.float64) for p in range(players)], axis=1)
    own = scores[:, side]
    others = (scores.sum(axis=1) - own) / (players - 1)
    return others - own  # Yaniv scores are penalties: lower is better


def _round_starter(rounds: pd.DataFrame, games: np.ndarray, players: int):
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


def _seat_turns(games: pd.DataFrame, rounds: pd.DataFrame, players: int, ccw: bool = False) -> np.ndarray:
    """Turns each seat took per game (a turn: the call, or a discard and a draw). In a round the
    players still in it (a hand total in the rounds table) move in turn from the starter (Y-PLAY-2,
    skipping the eliminated); ``turns`` counts the discards and the caller's call is one turn more
    (Y-CALL-1: at the start of its turn). Section-5 side decisions (requests, slams) are not turns."""
    inside = np.stack([rounds[f"hand_{s}"].notna().to_numpy() for s in range(players)], axis=1)
    step = -1 if ccw else 1
    starter = rounds["starter"].to_numpy(np.int64)
    seats = (starter[:, None] + step * np.arange(players)[None, :]) % players  # play order from the starter
    moving = np.take_along_axis(inside, seats, axis=1)
    pos = np.cumsum(moving, axis=1) - 1  # each seat's place among the players in the round
    m = moving.sum(axis=1)[:, None]
    t = rounds["turns"].to_numpy(np.int64)[:, None]
    by_order = np.where(moving, np.maximum(0, (t - pos + m - 1) // np.maximum(m, 1)), 0)
    per_round = np.zeros_like(by_order)
    np.put_along_axis(per_round, seats, by_order, axis=1)
    caller = rounds["caller"].to_numpy(dtype=np.float64, na_value=np.nan)
    called = ~np.isnan(caller)
    per_round[np.flatnonzero(called), caller[called].astype(np.int64)] += 1
    idx = np.searchsorted(games["game"].to_numpy(), rounds["game"].to_numpy())
    out = np.zeros((len(games), players), dtype=np.int64)
    np.add.at(out, idx, per_round)
    return out


def _limits(family: str, rules) -> dict[str, tuple[float, str]]:
    """The threshold family calls at or under ``call``; the rules forbid a call above the call
    limit (Y-CALL-1, Y-V-LIMIT) unless overcalls are allowed (Y-V-OVERCALL)."""
    if family != "threshold" or rules.call_limit is None or rules.overcall:
        return {}
    why = f"these rules allow a call only at or under {rules.call_limit} (Y-CALL-1, Y-V-LIMIT)"
    return {"call": (rules.call_limit, why)}


METRICS = GameMetrics(
    unit="round", turns="turns", starter_label="round-1 starter",
    starter_side=lambda df, n: df["starter"].to_numpy(np.int64),
    margin=_margin,
    outcomes=(Outcome("asaf_rate", "Asaf rate (per call)", column("asafs"), column("calls")),),
    deck_fields=("decks", "jokers"),
    param_limits=_limits,
    unit_starter=_round_starter,
    weak="threshold:keep=0",  # greedy shedding: threshold beats it ~71% (4 players), not ~100% as random
    seat_decisions=_seat_turns, decision_unit="turns",
)
METRICS_CCW = dataclasses.replace(METRICS, seat_decisions=partial(_seat_turns, ccw=True))  # Y-PLAY-2


def metrics(rules) -> GameMetrics:
    return METRICS_CCW if rules.direction == "counterclockwise" else METRICS


# ----- the game-win value table's self-play (``simcards.table.value``) ---------------------------------
VALUE_SELF_PLAY = "threshold"


def value_covers(rules, players: int) -> bool:
    """Whether the value table fits: two players racing to elimination, without Kluft (Y-ELIM-1/2)."""
    return players == 2 and not rules.kluft


def value_hands(rules, strategy: str, games: int, seed: int):
    """Two Yaniv players (Y-ELIM-1/2, Y-RESET-1, Y-V-RESET): the kernel's per-round table, each
    player's round score (Y-SC-1/2 and the options, from the hands, the caller and the rules'
    ``score_round``, before the resets), the starter as the dealing side. A race both ways on the
    scores negated: live from ``-out_over`` to 0, a side under it is out (both out: the lower total
    wins, Y-ELIM-2), the resets as moves of a live score. Y-V-THREE does not count with two
    players left (its Decision)."""
    if not value_covers(rules, 2):
        raise SimcardsError(f"Yaniv {rules.name}: the value table covers two players without Kluft")
    import simcards
    from simcards.games.yaniv.core import score_round
    from simcards.table.value import Race, base_preset, overrides

    sim = simcards.simulate("yaniv", games=games, seed=seed, strategies=strategy, players=2,
                            rules=overrides(rules, "yaniv"), variant=base_preset(rules), threads=1)
    assert sim.detail is not None
    d = sim.detail[~sim.detail["playoff"].astype(bool)].sort_values(["game", "round"])
    enc = rules.encode()
    totals = d[["hand_0", "hand_1"]].to_numpy(dtype=np.int64)
    callers = d["caller"].astype("float").fillna(-1).to_numpy().astype(np.int64)
    alive = np.ones(8, dtype=np.int64)
    scored = np.zeros(8, dtype=np.int64)
    gains = np.zeros((len(d), 2), dtype=np.int64)
    for i in range(len(d)):
        t = np.zeros(8, dtype=np.int64)
        t[:2] = totals[i]
        score_round(int(callers[i]), t, alive, 2, enc, scored)
        gains[i] = -scored[:2]
    resets = tuple((-a, -b) for a, b in sorted(rules.reset_table().items()) if a != b)
    race = Race(-int(rules.out_over), 0, resets)
    return d["game"].to_numpy(), d["starter"].to_numpy(dtype=np.int64), gains, None, race
