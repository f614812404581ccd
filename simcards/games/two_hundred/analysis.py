"""Two Hundred's metrics for the studies (:class:`simcards.games.analysis.GameMetrics`): the
sides are the variant's, teams (team t = seats t, t + teams, ...) or every player alone (T-V-5P,
T-V-CUT; T-V-2P's two players are the two sides)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit

from simcards.errors import SimcardsError
from simcards.games.analysis import GameMetrics, Outcome, column, ones
from simcards.games.two_hundred.core import game_end, next_seat
from simcards.games.two_hundred.layout import MAX_SEATS


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


# ----- more than two sides: the score process (``simcards.table.value.WinProcess``) --------------------
def process_covers(rules, players: int) -> bool:
    """Whether the score-process Monte Carlo fits: every table the advice samples (not T-V-2P's
    nor T-V-5P's: the secret partner scores with the contract side)."""
    return rules.mode not in ("two-player", "five-player")


def law_players(rules, players: int) -> int:
    """The table the rules fix (its seats), whatever count the caller has (sides or seats)."""
    return int(rules.seats)


def _rotated(mask, dealer_side, n_sides: int):
    """The sides in play as a mask relative to the dealer's side (bit j: side dealer_side + j)."""
    full = (1 << n_sides) - 1
    return ((mask >> dealer_side) | (mask << (n_sides - dealer_side))) & full


def value_rounds(rules, players: int, strategy: str, games: int, seed: int):
    """The deal law's self-play (``simcards.table.value.round_law``): every deal of ``games``
    games, its condition the sides in play relative to the dealer's (``_rotated``: T-V-6P's team at
    the hole leaves), its outcome ``[contract side, deal score_0, ..., deal score_{n-1}]`` by side
    relative to the dealer's (side ``(dealer's + j) % n``; the contract side as that ``j``, -1 for
    a deal thrown in, T-BID-5)."""
    if not process_covers(rules, players):
        raise SimcardsError(f"Two Hundred {rules.name}: the score process does not cover T-V-2P or T-V-5P")
    import simcards
    from simcards.table.value import base_preset, overrides

    sim = simcards.simulate("two-hundred", games=games, seed=seed, strategies=strategy,
                            rules=overrides(rules, "two-hundred"), variant=base_preset(rules), threads=1)
    assert sim.detail is not None
    n = int(rules.sides)
    d = sim.detail.sort_values(["game", "deal"])
    g = sim.games.set_index("game").loc[d["game"].to_numpy()]
    out_team = g["out_team"].astype("float").fillna(-1).to_numpy().astype(np.int64) if "out_team" in g else \
        np.full(len(d), -1)
    out_deal = g["out_deal"].astype("float").fillna(0).to_numpy().astype(np.int64) if "out_deal" in g else \
        np.zeros(len(d), dtype=np.int64)
    mask = np.full(len(d), (1 << n) - 1, dtype=np.int64)
    gone = (out_team >= 0) & (d["deal"].to_numpy(np.int64) > out_deal)
    mask[gone] &= ~(np.int64(1) << np.maximum(out_team[gone], 0))
    dside = d["dealer"].to_numpy(np.int64) % n
    sides = (dside[:, None] + np.arange(n)[None, :]) % n
    ds = np.stack([d[f"deal_score_{s}"].to_numpy(np.int64) for s in range(n)], axis=1)
    out = np.zeros((len(d), 1 + n), dtype=np.int64)
    out[:, 1:] = np.take_along_axis(ds, sides, axis=1)
    ct = d["contract_team"].astype("float").fillna(-1).to_numpy().astype(np.int64)
    out[:, 0] = np.where(ct >= 0, (ct - dside) % n, -1)
    return _rotated(mask, dside, n), out


# a state's columns: the next dealer, the sides in play (a mask), each side's score
S_DEALER, S_MASK, S_SCORES = 0, 1, 2


class TwoHundredProcess:
    """Two Hundred's score process (``simcards.table.value.ScoreProcess``): a deal's scores by
    side added, the game's end as the kernel reads it (``core.game_end``: T-END-1/2, T-V-CUT's and
    T-V-6P's Decisions; a deal thrown in ends nothing), T-V-6P's team at the hole leaving, and the
    deal passing clockwise to the next seat in play (T-DEAL-1)."""

    def __init__(self, rules, players: int):
        self.rules = rules.encode()
        self.sides = int(rules.sides)
        self.seats = int(rules.seats)
        self.real = int(rules.players)
        self.width = S_SCORES + self.sides

    def condition(self, states, rows):
        dside = states[rows, S_DEALER] % self.sides
        return _rotated(states[rows, S_MASK], dside, self.sides)

    def step(self, states, rows, outcomes):
        winners = np.empty(len(rows), dtype=np.int64)
        steps(states, rows, outcomes, winners, self.sides, self.seats, self.real, self.rules)
        return winners

    def state(self, view) -> np.ndarray:
        """The state of a decision's view before its deal is scored."""
        from simcards.games.two_hundred.layout import V_ACTIVE, V_DEALER, V_SCORES, V_SIDE

        st = np.zeros(self.width, dtype=np.int64)
        st[S_DEALER] = view[V_DEALER]
        mask = 0
        for p in range(self.seats):
            if (int(view[V_ACTIVE]) >> p) & 1:
                mask |= 1 << int(view[V_SIDE + p])
        st[S_MASK] = mask
        st[S_SCORES:] = view[V_SCORES:V_SCORES + self.sides]
        return st

    def outcomes(self, states, contract_side, deal_scores):
        """The law's outcome rows of deals given in absolute sides (``contract_side`` -1: thrown in)."""
        n = self.sides
        dside = states[:, S_DEALER] % n
        sides = (dside[:, None] + np.arange(n)[None, :]) % n
        out = np.zeros((len(states), 1 + n), dtype=np.int64)
        out[:, 1:] = np.take_along_axis(np.asarray(deal_scores, dtype=np.int64), sides, axis=1)
        cs = np.asarray(contract_side, dtype=np.int64)
        out[:, 0] = np.where(cs >= 0, (cs - dside) % n, -1)
        return out


def score_process(rules, players: int) -> TwoHundredProcess:
    return TwoHundredProcess(rules, players)


@njit(cache=True)
def steps(states, rows, outcomes, winners, n_sides, n_seats, n_real, rules):
    """States ``rows`` after one deal each (``TwoHundredProcess``)."""
    scores = np.zeros(MAX_SEATS, dtype=np.int64)
    for i in range(len(rows)):
        st = states[rows[i]]
        o = outcomes[i]
        dealer = st[S_DEALER]
        mask = st[S_MASK]
        dside = dealer % n_sides
        for s in range(n_sides):
            scores[s] = st[S_SCORES + s]
        for j in range(n_sides):
            scores[(dside + j) % n_sides] += o[1 + j]
        winner = -1
        if o[0] >= 0:
            cs = (dside + o[0]) % n_sides
            winner, left, _ = game_end(scores, mask, cs, -1, dealer, rules)
            if winner < 0:
                mask = left
        if winner < 0:
            active = 0
            for p in range(n_real):
                if (mask >> (p % n_sides)) & 1:
                    active |= 1 << p
            dealer = next_seat(dealer, active, n_seats)
        st[S_DEALER] = dealer
        st[S_MASK] = mask
        for s in range(n_sides):
            st[S_SCORES + s] = scores[s]
        winners[i] = winner
