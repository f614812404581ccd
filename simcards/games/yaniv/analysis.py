"""Yaniv's metrics for the studies (:class:`simcards.games.analysis.GameMetrics`): every seat is
a side, scores are penalties, a round has a starter (Y-START-1, Y-START-2)."""

from __future__ import annotations

import dataclasses
from functools import partial

import numpy as np
import pandas as pd
from numba import njit

from simcards.errors import SimcardsError
from simcards.games.analysis import FAIR_SCALE, GameMetrics, Outcome, column
from simcards.games.yaniv.core import next_seat, score_round, settle_round
from simcards.games.yaniv.kernel import next_starter
from simcards.games.yaniv.layout import MAX_PLAYERS


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


# ----- more than two players: the score process (``simcards.table.value.WinProcess``) ------------------
def process_covers(rules, players: int) -> bool:
    """Whether the score-process Monte Carlo fits: any number of players, without Kluft (its
    scoring and starter are not the round law's caller and totals)."""
    return players >= 2 and not rules.kluft


def value_rounds(rules, players: int, strategy: str, games: int, seed: int):
    """The round law's self-play (``simcards.table.value.round_law``): every round of ``games``
    games of ``players`` (the play-offs of Y-ELIM-2 too), its condition the number of players still
    in, its outcome ``[caller, total_0, ..., total_{k-1}]`` in play order from the round's starter
    among those in (Y-PLAY-2; the caller as its place in that order, -1 at the turn cap), padded to
    ``1 + players`` columns."""
    if not process_covers(rules, players):
        raise SimcardsError(f"Yaniv {rules.name}: the score process covers Yaniv without Kluft")
    import simcards
    from simcards.table.value import base_preset, overrides

    sim = simcards.simulate("yaniv", games=games, seed=seed, strategies=strategy, players=players,
                            rules=overrides(rules, "yaniv"), variant=base_preset(rules), threads=1)
    assert sim.detail is not None
    d = sim.detail.sort_values(["game", "round"])
    hands = np.stack([d[f"hand_{p}"].to_numpy(dtype=np.float64, na_value=np.nan) for p in range(players)], axis=1)
    inside = ~np.isnan(hands)
    step = -1 if rules.direction == "counterclockwise" else 1
    starter = d["starter"].to_numpy(np.int64)
    seats = (starter[:, None] + step * np.arange(players)[None, :]) % players  # play order from the starter
    moving = np.take_along_axis(inside, seats, axis=1)
    order = np.take_along_axis(seats, np.argsort(~moving, axis=1, kind="stable"), axis=1)  # those in first
    k = moving.sum(axis=1)
    rows = np.arange(len(d))
    out = np.zeros((len(d), 1 + players), dtype=np.int64)
    ordered = np.nan_to_num(hands[rows[:, None], order]).astype(np.int64)
    out[:, 1:] = np.where(np.arange(players)[None, :] < k[:, None], ordered, 0)
    caller = d["caller"].astype("float").fillna(-1).to_numpy().astype(np.int64)
    place = np.argmax(order == caller[:, None], axis=1)
    out[:, 0] = np.where(caller >= 0, place, -1)
    return k, out


# a state's columns: players still in, in a play-off (Y-ELIM-2), the next starter, then per seat the
# score, whether it is still in, its rounds scored at 0 (Y-V-THREE)
S_ALIVE_N, S_PLAYOFF, S_STARTER, S_SEATS = 0, 1, 2, 3


class YanivProcess:
    """Yaniv's score process (``simcards.table.value.ScoreProcess``): a round's caller and hand
    totals -> the round's scores (``core.score_round``: Y-SC-1/2 and the options), settled by
    ``core.settle_round`` (Y-V-THREE, Y-RESET-1 / Y-V-RESET, Y-ELIM-1/2) and the next starter by
    the kernel's ``next_starter`` (Y-START-2), as the kernel plays a game."""

    def __init__(self, rules, players: int):
        self.rules = rules.encode()
        self.players = players
        self.sides = players
        self.width = S_SEATS + 3 * players
        self.ccw = rules.direction == "counterclockwise"

    def condition(self, states, rows):
        return states[rows, S_ALIVE_N]

    def step(self, states, rows, outcomes):
        winners = np.empty(len(rows), dtype=np.int64)
        steps(states, rows, outcomes, winners, self.players, self.ccw, self.rules)
        return winners

    def state(self, view) -> np.ndarray:
        """The state of a decision's view before its round ends: the scores, who is in, the round's
        starter (in a play-off when a player in is over the limit; no round scored at 0 counted:
        the view does not keep them)."""
        from simcards.games.yaniv.layout import V_ALIVE, V_ALIVE_N, V_SCORES, V_STARTER

        p = self.players
        st = np.zeros(self.width, dtype=np.int64)
        st[S_ALIVE_N] = view[V_ALIVE_N]
        st[S_STARTER] = view[V_STARTER]
        st[S_SEATS:S_SEATS + p] = view[V_SCORES:V_SCORES + p]
        st[S_SEATS + p:S_SEATS + 2 * p] = view[V_ALIVE:V_ALIVE + p] != 0
        live = st[S_SEATS + p:S_SEATS + 2 * p] != 0
        st[S_PLAYOFF] = int(bool((st[S_SEATS:S_SEATS + p][live] > self.rules_out_over()).any()))
        return st

    def rules_out_over(self) -> int:
        from simcards.games.yaniv.rules import R_OUT_OVER

        return int(self.rules[R_OUT_OVER])

    def order(self, state) -> list[int]:
        """The seats in the round in play order from the state's starter (Y-PLAY-2)."""
        p = self.players
        alive = state[S_SEATS + p:S_SEATS + 2 * p]
        step = -1 if self.ccw else 1
        seats = [(int(state[S_STARTER]) + step * j) % p for j in range(p)]
        return [s for s in seats if alive[s]]


def score_process(rules, players: int) -> YanivProcess:
    return YanivProcess(rules, players)


@njit(cache=True)
def steps(states, rows, outcomes, winners, players, ccw, rules):
    """States ``rows`` after one round each (``YanivProcess``): the outcome's totals to the seats in
    play order from the starter, then the kernel's scoring, settling and next starter."""
    totals = np.zeros(MAX_PLAYERS, dtype=np.int64)
    round_scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    zeros = np.zeros(MAX_PLAYERS, dtype=np.int64)
    alive = np.zeros(MAX_PLAYERS, dtype=np.bool_)
    a0, z0 = S_SEATS + players, S_SEATS + 2 * players
    for i in range(len(rows)):
        st = states[rows[i]]
        o = outcomes[i]
        n_alive = st[S_ALIVE_N]
        playoff = st[S_PLAYOFF] != 0
        starter = st[S_STARTER]
        for p in range(players):
            scores[p] = st[S_SEATS + p]
            alive[p] = st[a0 + p] != 0
            zeros[p] = st[z0 + p]
            totals[p] = 0
        caller = -1
        s = starter
        for j in range(n_alive):
            if j > 0:
                s = next_seat(s, alive, players, ccw)
            totals[s] = o[1 + j]
            if o[0] == j:
                caller = s
        score_round(caller, totals, alive, players, rules, round_scores)
        n_alive, playoff, _ = settle_round(scores, round_scores, alive, zeros, players, n_alive, playoff, rules)
        winner = -1
        if n_alive == 1:
            for p in range(players):
                if alive[p]:
                    winner = p
        else:
            starter = next_starter(caller if caller >= 0 else starter, totals, alive, players, ccw)
        st[S_ALIVE_N] = n_alive
        st[S_PLAYOFF] = 1 if playoff else 0
        st[S_STARTER] = starter
        for p in range(players):
            st[S_SEATS + p] = scores[p]
            st[a0 + p] = 1 if alive[p] else 0
            st[z0 + p] = zeros[p]
        winners[i] = winner
