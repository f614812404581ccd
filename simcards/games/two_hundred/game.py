"""Two Hundred as seen by the runner, the API and the CLI."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from numba import njit

from simcards.games.base import GameDef, GameRun, OptionInfo, options_table
from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred import rules as R
from simcards.games.two_hundred.kernel import make_engine
from simcards.games.two_hundred.layout import V_SEAT
from simcards.games.two_hundred.policies import SID_HEURISTIC, SID_RANDOM, builtin_decide
from simcards.stats import mean_ci, ratio_ci, wilson
from simcards.strategy import Family, Param, Strategy, seat_strategies

FAMILIES = {
    "random": Family("random", SID_RANDOM, "uniform over legal bids (pass included), suits and legal cards", (), True),
    "heuristic": Family(
        "heuristic", SID_HEURISTIC,
        "estimate the team's points in each trump suit (trump length and honours, side aces, short "
        "suits, partner allowance); bid the minimum raise up to estimate × aggr; trump = best estimate; "
        "lead boss cards and draw trumps, win cheaply, smear points on a partner's safe trick, ruff "
        "only tricks worth ruff_min",
        (
            Param("aggr", 0.7, 0.0, 3.0, "aggressiveness: bid up to this multiple of the hand's estimated points"),
            Param("partner", 15.0, 0.0, 60.0, "points credited to the unseen partner's hand in the estimate"),
            Param("raise", 1, 0, 1, "1: may overbid the partner's bid; 0: pass when the partner holds the high bid",
                  integer=True),
            Param("ruff_min", 5.0, 0.0, 40.0, "trump a trick (when void) only if it already holds this many points"),
            Param("smear", 1, 0, 1, "1: play point cards onto a trick the partner safely wins", integer=True),
            Param("draw", 1, 0, 1, "1: as contractor, lead the boss trump while opponents may hold trumps",
                  integer=True),
        ),
    ),
}

_OPTION_DOCS = {
    "mode": (", ".join(R.MODES), "T-TEAM-1, T-V-*", "table and teams (only teams runs in this version)"),
    "deck": ("36, 40", "T-CARD-1", "deck size (40 keeps the 6s: kitty and five-player variants)"),
    "hand_size": ("9", "T-DEAL-1", "cards dealt to each player"),
    "kitty": ("0, 4", "T-V-KITTY", "cards in the kitty (not implemented yet)"),
    "min_bid": ("1..100", "T-BID-2", "lowest bid"),
    "bid_step": ("1..50", "T-BID-2", "bids go up in steps of this"),
    "max_bid": ("min_bid..100", "T-BID-2", "highest bid (Decision: 100, all card points)"),
    "target": ("1..10000", "T-END-1", "a team at or above this at the end of a deal wins"),
    "hole": ("-10000..-1", "T-END-2", "a team at or below this at the end of a deal loses"),
    "fail_score": (", ".join(R.FAIL_SCORES), "T-SC-2", "what a failed contract scores"),
    "no_trump": ("true, false", "T-V-ROUGH", "the bidder may name no trump (not implemented yet)"),
    "dealer_bids_after_passes": ("true, false", "T-V-ROUGH", "after three passes the dealer may still bid"),
    "partner_shares_loss": ("true, false", "T-V-5P", "the secret partner also loses the bid (five-player only)"),
    "cutthroat_fail": (", ".join(R.CUTTHROAT_FAILS), "T-V-CUT", "a failed cutthroat bidder scores minus this (cutthroat only)"),
}


def _chain(inner, sid0: int, fn):
    """A decision function that sends strategy ``sid0`` to a user policy and the rest inward.
    (Not cached on disk: a closure over a dispatcher never hits numba's cache, it only grows it.)"""

    @njit(cache=False)
    def decide(kind, sid, table, hand, opts, n_opts, view, rules, rng):
        if sid == sid0:
            return fn(kind, table[view[V_SEAT]], hand, opts, n_opts, view, rules, rng)
        return inner(kind, sid, table, hand, opts, n_opts, view, rules, rng)

    return decide


_ENGINES: dict[tuple, tuple] = {}


def engine_for(strategies: list[Strategy]):
    """(decide, play_deal, play_game, play_batch) for these strategies: built-ins share one
    cached engine; user policies get an engine of their own, compiled once per process."""
    custom = sorted({s.family for s in strategies if s.family.decide is not None}, key=lambda f: f.sid)
    key = tuple((f.sid, id(f.decide)) for f in custom)
    if key not in _ENGINES:
        decide = builtin_decide
        for fam in custom:
            decide = _chain(decide, fam.sid, fam.decide)
        _ENGINES[key] = (decide, *make_engine(decide))
    return _ENGINES[key]


def seat_arrays(strategies: list[Strategy]) -> tuple[np.ndarray, np.ndarray]:
    sids = np.array([s.family.sid for s in strategies], dtype=np.int64)
    params = np.stack([s.vector() for s in strategies]).astype(np.float64)
    return sids, params


# Deals written per game in a first pass; games with more are replayed with room for all.
DEALS_PER_GAME = 48


class TwoHundredRun(GameRun):
    def __init__(self, rules: R.TwoHundredRules, players: int, strategies: list[Strategy]):
        self.rules = rules
        self.encoded = rules.encode()
        self.players = players
        self.sids, self.params = seat_arrays(strategies)
        _, _, _, self.batch = engine_for(strategies)
        self.batch(0, 0, 1, self.encoded, self.sids, self.params,
                   np.zeros((1, L.G_WIDTH), np.int64), np.zeros((1, L.D_WIDTH), np.int32), 1)

    def raw(self, seed: int, first: int, count: int, row_cap: int):
        games = np.zeros((count, L.G_WIDTH), dtype=np.int64)
        deals = np.zeros((count * row_cap, L.D_WIDTH), dtype=np.int32)
        self.batch(seed, first, count, self.encoded, self.sids, self.params, games, deals, row_cap)
        return games, deals

    def play(self, seed: int, first: int, count: int, detail: bool):
        cap = DEALS_PER_GAME if detail else 0
        games, deals = self.raw(seed, first, count, cap)
        games_df = games_frame(games, first)
        if not detail:
            return games_df, None
        n_deals = games[:, L.G_DEALS]
        long = np.flatnonzero(n_deals > cap)
        parts = [deals_frame(deals, np.where(n_deals > cap, 0, n_deals), cap, first)]  # long games come next, whole
        for i in long:  # rare: replay the game alone with room for every deal (same game, same seed)
            g, d = self.raw(seed, first + int(i), 1, int(n_deals[i]))
            parts.append(deals_frame(d, g[:, L.G_DEALS], int(n_deals[i]), first + int(i)))
        detail_df = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        if len(long):
            detail_df = detail_df.sort_values(["game", "deal"], kind="stable", ignore_index=True)
        return games_df, detail_df


def games_frame(games: np.ndarray, first: int) -> pd.DataFrame:
    n = len(games)
    return pd.DataFrame({
        "game": np.arange(first, first + n, dtype=np.int64),
        "winner": games[:, L.G_WINNER].astype(np.int8),
        "deals": games[:, L.G_DEALS].astype(np.int32),
        "throw_ins": games[:, L.G_THROWINS].astype(np.int32),
        "first_dealer": games[:, L.G_FIRST_DEALER].astype(np.int8),
        "made": games[:, L.G_MADE].astype(np.int32),
        "failed": games[:, L.G_FAILED].astype(np.int32),
        "hole": games[:, L.G_HOLE].astype(bool),
        "capped": games[:, L.G_CAPPED].astype(bool),
        "score_0": games[:, L.G_SCORES].astype(np.int32),
        "score_1": games[:, L.G_SCORES + 1].astype(np.int32),
        "invalid_decisions": games[:, L.G_INVALID].astype(np.int32),
    })


def _nullable(values: np.ndarray, dtype: str) -> pd.arrays.IntegerArray:
    return pd.arrays.IntegerArray(np.where(values >= 0, values, 0).astype(dtype.lower()), values < 0)


SUIT_NAMES = np.array(["s", "h", "d", "c"])


def deals_frame(deals: np.ndarray, n_deals: np.ndarray, cap: int, first: int) -> pd.DataFrame:
    count = len(n_deals)
    kept = np.minimum(n_deals, cap)
    idx = (np.arange(count)[:, None] * cap + np.arange(cap)[None, :])[np.arange(cap)[None, :] < kept[:, None]]
    rows = deals[idx]
    bidder = rows[:, L.D_BIDDER]
    played = bidder >= 0
    trump = rows[:, L.D_TRUMP]
    made = rows[:, L.D_MADE]
    made_col = pd.array(made == 1, dtype="boolean")
    made_col[~played] = pd.NA
    return pd.DataFrame({
        "game": np.repeat(np.arange(first, first + count, dtype=np.int64), kept),
        "deal": rows[:, L.D_DEAL].astype(np.int32),
        "dealer": rows[:, L.D_DEALER].astype(np.int8),
        "contract_team": _nullable(np.where(played, bidder % 2, -1), "int8"),
        "bidder": _nullable(bidder, "int8"),
        "bid": _nullable(rows[:, L.D_BID], "int16"),
        "trump": pd.Categorical.from_codes(np.where(trump >= 0, trump, -1), categories=list(SUIT_NAMES)),
        "taken_0": rows[:, L.D_TAKEN0].astype(np.int16),
        "taken_1": rows[:, L.D_TAKEN1].astype(np.int16),
        "made": made_col,
        "deal_score_0": rows[:, L.D_DSCORE0].astype(np.int16),
        "deal_score_1": rows[:, L.D_DSCORE1].astype(np.int16),
        "score_0": rows[:, L.D_SCORE0].astype(np.int32),
        "score_1": rows[:, L.D_SCORE1].astype(np.int32),
    })


class TwoHundred(GameDef):
    name = "two-hundred"
    title = "Two Hundred"
    unit = "deal"
    detail_table = "deals"
    default_variant = "standard"
    default_players = 4
    default_strategy = "heuristic"

    def presets(self):
        return R.PRESETS

    def options(self) -> list[OptionInfo]:
        return options_table(R.TwoHundredRules, R.STANDARD, _OPTION_DOCS)

    def build_rules(self, variant: str | None, overrides: dict[str, Any] | None = None) -> R.TwoHundredRules:
        typed = {}
        for key, value in (overrides or {}).items():
            typed[key] = R.parse_option(key, value) if isinstance(value, str) else value
        return R.build_rules(variant or self.default_variant, typed)

    def check_players(self, rules, players: int) -> None:
        rules.check_players(players)

    def families(self):
        return dict(FAMILIES)

    def strategies(self, specs, players: int) -> list[Strategy]:
        """One spec for every seat, one per team (team 0 = seats 0 and 2, team 1 = seats 1 and 3),
        or one per seat."""
        specs = [specs] if isinstance(specs, str) else list(specs or [])
        if len(specs) == 2 and players == 4:
            specs = [specs[0], specs[1], specs[0], specs[1]]
        return seat_strategies(specs or None, players, self.name, self.families(), self.default_strategy)

    def new_run(self, rules, players, strategies):
        rules.check_players(players)
        return TwoHundredRun(rules, players, strategies)

    def summarize(self, games: pd.DataFrame, players: int) -> dict:
        n = len(games)
        winner = games["winner"].to_numpy()
        first_team = games["first_dealer"].to_numpy() % 2
        contracts = games["made"] + games["failed"]
        return {
            "games": n,
            "deals": int(games["deals"].sum()),
            "deals_per_game": mean_ci(games["deals"]),
            "win_rate_by_team": [wilson(int((winner == t).sum()), n) for t in range(2)],
            "first_dealer_team_win_rate": wilson(int((winner == first_team).sum()), n),
            "throw_in_rate": ratio_ci(games["throw_ins"], games["deals"]),
            "contract_made_rate": ratio_ci(games["made"], contracts),
            "hole_rate": wilson(int(games["hole"].sum()), n),
            "capped_games": int(games["capped"].sum()),
            "invalid_decisions": int(games["invalid_decisions"].sum()),
        }

    def summary_rows(self, s: dict) -> list[tuple[str, str]]:
        rows = [
            ("games", f"{s['games']:,}"),
            ("deals", f"{s['deals']:,}"),
            ("deals per game", s["deals_per_game"].num(2)),
        ]
        for t, est in enumerate(s["win_rate_by_team"]):
            rows.append((f"team {t} (seats {t},{t + 2}) wins", est.pct()))
        rows += [
            ("first dealer's team wins", s["first_dealer_team_win_rate"].pct() + "  (fair share 50.0%)"),
            ("deals thrown in (all pass)", s["throw_in_rate"].pct()),
            ("contracts made", s["contract_made_rate"].pct()),
            ("games won by the other team's fall to the hole", s["hole_rate"].pct()),
            ("games stopped at the deal cap", f"{s['capped_games']:,}"),
        ]
        if s["invalid_decisions"]:
            rows.append(("policy decisions out of range (option 0 played)", f"{s['invalid_decisions']:,}"))
        return rows

    def columns(self):
        return COLUMNS

    def replay(self, rules, players, strategies, seed, game) -> str:
        from simcards.games.two_hundred.reference import play_reference

        rules.check_players(players)
        decide = engine_for(strategies)[0]
        sids, params = seat_arrays(strategies)
        record = play_reference(rules, sids, params, seed, game, decide)
        lines = [f"Two Hundred ({rules.name}), seed {seed}, game {game}; teams: 0 = seats 0+2, 1 = seats 1+3",
                 "strategies: " + ", ".join(f"seat {p}: {s.spec}" for p, s in enumerate(strategies))]
        lines += record.lines()
        return "\n".join(lines)


COLUMNS = {
    "games": {
        "game": "game index i (the game is fully determined by seed, i, rules, strategies)",
        "winner": "winning team: 0 = seats 0 and 2, 1 = seats 1 and 3",
        "deals": "deals played, thrown-in deals included",
        "throw_ins": "deals thrown in because all four passed (T-BID-5)",
        "first_dealer": "seat of the first dealer (uniformly random, T-TEAM-2 Decision)",
        "made": "contracts made",
        "failed": "contracts failed",
        "hole": "the game ended because the losing team fell to the hole (T-END-2), not by a team reaching the target",
        "capped": "the game stopped at the deal cap (higher score wins)",
        "score_<t>": "final cumulative score of team t",
        "invalid_decisions": "decisions a (user) policy returned out of range; option 0 was played instead",
    },
    "deals": {
        "game": "game index",
        "deal": "deal number in the game, from 1",
        "dealer": "seat of the dealer",
        "contract_team": "team of the highest bidder (null when all passed)",
        "bidder": "seat of the highest bidder (null when all passed)",
        "bid": "the contract (null when all passed)",
        "trump": "trump suit s/h/d/c (null when all passed)",
        "taken_<t>": "card points team t took in tricks (0 when thrown in)",
        "made": "the contract was made (null when all passed)",
        "deal_score_<t>": "what team t scored for this deal (T-SC-2)",
        "score_<t>": "cumulative score of team t after the deal",
    },
}

GAME = TwoHundred()
