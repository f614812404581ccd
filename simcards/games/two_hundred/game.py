"""Two Hundred as seen by the runner, the API and the CLI."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simcards import policy
from simcards.cards import card_code
from simcards.games import engine
from simcards.games.base import GameDef, GameRun, SeatLabel, full_log, nullable, replay_text
from simcards.games.engine import CARD_MASK, OPTION_VALUES, KernelBinding, policy_signature
from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred import rules as R
from simcards.games.two_hundred import search
from simcards.games.two_hundred.kernel import LOG_WIDTH, make_engine, no_decide
from simcards.games.two_hundred.layout import V_SEAT
from simcards.games.two_hundred.params import HEURISTIC_PARAMS, INFORMED_PARAMS, MC_PARAMS
from simcards.games.two_hundred.policies import (
    SID_HEURISTIC,
    SID_INFORMED,
    SID_MC,
    SID_RANDOM,
    builtin_decide,
    informed_decide,
)
from simcards.stats.estimates import mean_ci, proportion_ci, ratio_ci
from simcards.strategy import Family, Strategy, seat_strategies

FAMILIES = {
    "random": Family("random", SID_RANDOM, "uniform over legal bids (pass included), suits and legal cards", (), True),
    "heuristic": Family(
        "heuristic", SID_HEURISTIC,
        "estimate the team's points in each trump suit (trump length and honours, side aces, short "
        "suits, partner and kitty allowances, partners' face-up cards); bid the minimum raise up to "
        "estimate × aggr; bury pointless cards from short side suits; trump = best estimate, or no trump "
        "when every suit is stopped and its estimate reaches nt × the bid; call the highest trump it "
        "lacks; lead boss cards and draw "
        "trumps, win cheaply, smear points on a friend's safe trick, ruff only tricks worth ruff_min",
        HEURISTIC_PARAMS,
    ),
}
FAMILIES["informed"] = Family(
    "informed", SID_INFORMED,
    "the heuristic, plus memory of the deal: the cards played, the voids each seat has shown and the "
    "trumps still out. Bid: the estimate's partner allowance follows the partner's bid (pbid × bid) or "
    "pass (ppass × allowance). Play: draw trumps only while an opponent may hold one; cash a boss card "
    "only where no opponent can ruff; lead a suit the partner has shown void in for a ruff; smear "
    "points and win tricks only with cards no opponent still to play can beat or overruff "
    "(every variant)",
    INFORMED_PARAMS,
    decide=informed_decide,  # attached: the built-in kernel holds only random and the heuristic
)
FAMILIES["mc"] = Family(
    "mc", SID_MC,
    "Monte Carlo search: sample k deals of the unseen cards consistent with the hand sizes, voids and "
    "the kitty, play every legal card forward with the heuristic's (or informed) play to the end of the "
    "deal, same k deals for every card, and take the best mean deal result for the side (deal score "
    "minus the others', ± win at the game target); the bid (declare the lowest raise when its best "
    "trump is worth more than margin) and the trump are searched the same way; otherwise informed. "
    "Searches the tables with open hands only: two-player (face-down piles) and five-player (secret "
    "partner) play informed; with a kitty only the card play is searched",
    MC_PARAMS,
    decide=search.mc_decide,
)

# The kernel hands its decision function the whole parameter table and a card mask; a user
# policy, and the attached informed and mc families, get their seat's row and the mask
# (policy.chain): the built-in kernel compiles only random and the heuristic.
BINDING = KernelBinding("two-hundred", policy_signature(CARD_MASK, OPTION_VALUES), builtin_decide, no_decide,
                        make_engine, L.V_BAD, seat_slot=V_SEAT,
                        attached=tuple(f for f in FAMILIES.values() if f.decide is not None))
KINDS = policy.kind_names(L)
POLICY_SIGNATURE = BINDING.signature
engine_for = BINDING.engine


def seat_arrays(strategies: list[Strategy], rules: R.TwoHundredRules | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Strategy ids and the parameter table, one row per seat at the table: a T-V-2P dummy
    (seats 2 and 3) is played by the player opposite, with that player's strategy."""
    seats = rules.seats if rules is not None else len(strategies)
    return engine.seat_arrays([strategies[s if s < len(strategies) else (s + 2) % 4] for s in range(seats)])


# Deals written per game in a first pass; games with more are replayed with room for all.
DEALS_PER_GAME = 48


class TwoHundredRun(GameRun):
    binding = BINDING
    kinds = KINDS
    games_width = L.G_WIDTH
    columns_first = True
    bad_slot = L.G_BAD
    units_slot = L.G_DEALS

    def __init__(self, rules: R.TwoHundredRules, players: int, strategies: list[Strategy]):
        self.players = players
        super().__init__(rules, strategies, *seat_arrays(strategies, rules))

    def detail_width(self) -> int:
        return L.D_WIDTH

    def first_pass(self) -> int:
        return DEALS_PER_GAME

    def games_frame(self, games: np.ndarray, first: int) -> pd.DataFrame:
        return games_frame(games, first, self.rules)

    def detail_frame(self, rows: np.ndarray, n_units: np.ndarray, first: int) -> pd.DataFrame:
        return deals_frame(rows, n_units, first, self.rules)


def games_frame(games: np.ndarray, first: int, rules: R.TwoHundredRules = R.STANDARD) -> pd.DataFrame:
    """The per-game table: the standard columns (``winner`` is a side: a team, or a seat in
    individual play), one ``score_<side>`` per side, and what the table needs besides."""
    n = len(games)
    cols = {
        "game": np.arange(first, first + n, dtype=np.int64),
        "winner": games[:, L.G_WINNER].astype(np.int8),
        "deals": games[:, L.G_DEALS].astype(np.int32),
        "throw_ins": games[:, L.G_THROWINS].astype(np.int32),
        "first_dealer": games[:, L.G_FIRST_DEALER].astype(np.int8),
        "made": games[:, L.G_MADE].astype(np.int32),
        "failed": games[:, L.G_FAILED].astype(np.int32),
        "hole": games[:, L.G_HOLE].astype(bool),
        "capped": games[:, L.G_CAPPED].astype(bool),
    }
    for t in range(rules.sides):
        cols[f"score_{t}"] = games[:, L.G_SCORES + t].astype(np.int32)
    cols["invalid_decisions"] = games[:, L.G_INVALID].astype(np.int32)
    if rules.no_trump:
        cols["no_trump_deals"] = games[:, L.G_NT_DEALS].astype(np.int32)
    if rules.sides > 2 and not rules.individual:
        cols["out_team"] = nullable(games[:, L.G_OUT_SIDE], "int8")
        cols["out_deal"] = nullable(np.where(games[:, L.G_OUT_SIDE] >= 0, games[:, L.G_OUT_DEAL], -1), "int32")
    return pd.DataFrame(cols)


SUIT_NAMES = np.array(["s", "h", "d", "c"])
TRUMP_NAMES = ["s", "h", "d", "c", "nt"]


def deals_frame(rows: np.ndarray, n_deals: np.ndarray, first: int,
                rules: R.TwoHundredRules = R.STANDARD) -> pd.DataFrame:
    """The per-deal table: the standard columns with ``taken_``, ``deal_score_`` and ``score_``
    per side, then the variant's own: ``kitty_points``, ``called`` and ``partner``, ``out_team``."""
    count = len(n_deals)
    bidder = rows[:, L.D_BIDDER]
    played = bidder >= 0
    trump = rows[:, L.D_TRUMP]
    made = rows[:, L.D_MADE]
    made_col = pd.array(made == 1, dtype="boolean")
    made_col[~played] = pd.NA
    sides = range(rules.sides)
    cols = {
        "game": np.repeat(np.arange(first, first + count, dtype=np.int64), n_deals),
        "deal": rows[:, L.D_DEAL].astype(np.int32),
        "dealer": rows[:, L.D_DEALER].astype(np.int8),
        "contract_team": nullable(np.where(played, bidder % rules.sides, -1), "int8"),
        "bidder": nullable(bidder, "int8"),
        "bid": nullable(rows[:, L.D_BID], "int16"),
        "trump": pd.Categorical.from_codes(np.where(trump >= 0, trump, -1),
                                           categories=TRUMP_NAMES if rules.no_trump else list(SUIT_NAMES)),
        **{f"taken_{t}": rows[:, L.D_TAKEN + t].astype(np.int16) for t in sides},
        "made": made_col,
        **{f"deal_score_{t}": rows[:, L.D_DSCORE + t].astype(np.int16) for t in sides},
        **{f"score_{t}": rows[:, L.D_SCORE + t].astype(np.int32) for t in sides},
    }
    if rules.kitty:
        cols["kitty_points"] = rows[:, L.D_KITTY_POINTS].astype(np.int16)
    if rules.mode == "five-player":
        called = rows[:, L.D_CALLED]
        codes = np.where(called >= 0, _DECK_INDEX[np.maximum(called, 0)], -1)
        cols["called"] = pd.Categorical.from_codes(codes, categories=_DECK_CODES)
        cols["partner"] = nullable(rows[:, L.D_PARTNER], "int8")
    if rules.sides > 2 and not rules.individual:
        cols["out_team"] = nullable(rows[:, L.D_OUT], "int8")
    return pd.DataFrame(cols)


_DECK_CODES = [card_code(f) for f in L.DECK_FACES_40]
_DECK_INDEX = np.full(54, -1, dtype=np.int64)
_DECK_INDEX[L.DECK_FACES_40] = np.arange(len(L.DECK_FACES_40))


def table_of(games: pd.DataFrame, players: int) -> tuple[int, int]:
    """(seats, sides) of a per-game table: sides from its ``score_<side>`` columns."""
    sides = sum(1 for c in games.columns if c.startswith("score_"))
    return (4 if players == 2 else players), sides


def side_label(side: int, players: int, seats: int, sides: int) -> str:
    if sides == seats:
        return f"seat {side}"
    members = ",".join(str(s) for s in range(seats) if s % sides == side)
    if players == 2:
        return f"player {'AB'[side]} (seat {side}, dummy seat {side + 2})"
    return f"team {side} (seats {members})"


def _per_contract(est) -> str:
    """A share of contracts; when every deal was thrown in there is none to share (not "nan%")."""
    return "- (no contracts: every deal thrown in)" if np.isnan(est.value) else est.pct()


class TwoHundred(GameDef):
    name = "two-hundred"
    title = "Two Hundred"
    unit = "deal"
    detail_table = "deals"
    default_variant = "standard"
    default_players = 4
    default_strategy = "heuristic"
    rules_module = R
    family_table = FAMILIES

    def strategies(self, specs, players: int) -> list[Strategy]:
        """One spec for every seat, one per seat, or k specs repeating around the table (seat s
        plays spec s mod k; k must divide the players): with 4 players two specs are one per team
        (team 0 = seats 0 and 2), with 6 players two specs are the teams of six-2x3 and three the
        teams of six-3x2."""
        specs = [specs] if isinstance(specs, str) else list(specs or [])
        if 1 < len(specs) < players and players % len(specs) == 0:
            specs = [specs[s % len(specs)] for s in range(players)]
        return seat_strategies(specs or None, players, self.name, self.families(), self.default_strategy)

    def new_run(self, rules, players, strategies):
        rules.check_players(players)
        return TwoHundredRun(rules, players, strategies)

    def summarize(self, games: pd.DataFrame, players: int) -> dict:
        n = len(games)
        seats, sides = table_of(games, players)
        winner = games["winner"].to_numpy()
        first_side = games["first_dealer"].to_numpy() % sides
        contracts = games["made"] + games["failed"]
        per_side = [proportion_ci(int((winner == t).sum()), n) for t in range(sides)]
        out = {
            "table": {"players": players, "seats": seats, "sides": sides,
                      "side_of_seat": [s % sides for s in range(seats)]},
            "games": n,
            "deals": int(games["deals"].sum()),
            "deals_per_game": mean_ci(games["deals"]),
        }
        if sides == seats:
            out["win_rate_by_seat"] = per_side
            out["first_dealer_win_rate"] = proportion_ci(int((winner == first_side).sum()), n)
        else:
            out["win_rate_by_team"] = per_side
            out["first_dealer_team_win_rate"] = proportion_ci(int((winner == first_side).sum()), n)
        out |= {
            "throw_in_rate": ratio_ci(games["throw_ins"], games["deals"]),
            "contract_made_rate": ratio_ci(games["made"], contracts),
            "hole_rate": proportion_ci(int(games["hole"].sum()), n),
        }
        if "no_trump_deals" in games:
            out["no_trump_rate"] = ratio_ci(games["no_trump_deals"], contracts)
        if "out_team" in games:
            out["team_out_rate"] = proportion_ci(int(games["out_team"].notna().sum()), n)
        out["capped_games"] = int(games["capped"].sum())
        out["invalid_decisions"] = int(games["invalid_decisions"].sum())
        return out

    def summary_rows(self, s: dict) -> list[tuple[str, str]]:
        rows = [
            ("games", f"{s['games']:,}"),
            ("deals", f"{s['deals']:,}"),
            ("deals per game", s["deals_per_game"].num(2)),
        ]
        individual = "win_rate_by_seat" in s
        per_side = s["win_rate_by_seat" if individual else "win_rate_by_team"]
        players, seats, sides = (s["table"][k] for k in ("players", "seats", "sides"))
        for t, est in enumerate(per_side):
            label = f"{side_label(t, players, seats, sides)} wins"
            rows.append((SeatLabel(label, t) if sides == seats else label, est.pct()))
        fair = f"  (fair share {100 / sides:.1f}%)"
        if individual:
            rows.append(("first dealer wins", s["first_dealer_win_rate"].pct() + fair))
        else:
            rows.append(("first dealer's team wins", s["first_dealer_team_win_rate"].pct() + fair))
        rows += [
            ("deals thrown in (all pass)", s["throw_in_rate"].pct()),
            ("contracts made", _per_contract(s["contract_made_rate"])),
        ]
        if "no_trump_rate" in s:
            rows.append(("contracts in no trump (scores doubled)", _per_contract(s["no_trump_rate"])))
        if "team_out_rate" in s:
            rows.append(("games in which a team left at the hole", s["team_out_rate"].pct()))
        rows += [
            ("games won by the other side's fall to the hole" if not individual
             else "games ended by a fall to the hole (highest score won)", s["hole_rate"].pct()),
            ("games stopped at the deal cap", f"{s['capped_games']:,}"),
        ]
        if s["invalid_decisions"]:
            rows.append(("policy decisions out of range (option 0 played)", f"{s['invalid_decisions']:,}"))
        return rows

    def columns(self):
        return COLUMNS

    def transcripts(self, rules, players, strategies, seed, game):
        """The contract hook (``GameDef.transcripts``): both engines' event logs of one game."""
        from simcards.games.two_hundred.reference import play_reference

        decide, play_game, _ = engine_for(strategies)
        sids, params = seat_arrays(strategies, rules)
        rows, out = np.zeros((0, L.D_WIDTH), dtype=np.int32), np.zeros(L.G_WIDTH, dtype=np.int64)
        k = full_log(lambda log: play_game(game, seed, rules.encode(), sids, params, out, rows, 0, log),
                     LOG_WIDTH)
        return k, play_reference(rules, sids, params, seed, game, decide).log_array()

    def card_audit(self, rules, players: int, transcript: np.ndarray) -> list[str]:
        """The contract hook (``GameDef.card_audit``): see ``twins.card_audit``."""
        from simcards.games.two_hundred import twins

        return twins.card_audit(rules, transcript)

    def view_twins(self, rules, players: int, strategies: list[Strategy], seed: int,
                   game: int) -> list[tuple[int, int]]:
        """The contract hook (``GameDef.view_twins``): see ``twins.view_twins``."""
        from simcards.games.two_hundred import twins

        return twins.view_twins(engine_for(strategies).decide, seat_arrays(strategies, rules), rules, players, seed, game)

    def replay(self, rules, players, strategies, seed, game, on_invalid: str = "error") -> str:
        from simcards.games.two_hundred.reference import play_reference

        rules.check_players(players)
        sids, params = seat_arrays(strategies, rules)
        with policy.reported(strategies, KINDS):
            decide = engine_for(strategies)[0]
            record = play_reference(rules, sids, params, seed, game, decide, on_invalid=on_invalid)
        sides = "; ".join(f"{side_label(t, rules.players, rules.seats, rules.sides)}" for t in range(rules.sides))
        return replay_text(f"Two Hundred ({rules.name}), seed {seed}, game {game}; sides: {sides}", strategies,
                           record.lines())


COLUMNS = {
    "games": {
        "game": "game index i (the game is fully determined by seed, i, rules, strategies)",
        "winner": "winning side: a team (team t = seats s with s % teams == t: 0 = seats 0 and 2 in the standard "
                  "game; T-V-2P: player A = 0, B = 1), or a seat in individual play (T-V-5P, T-V-CUT)",
        "deals": "deals played, thrown-in deals included",
        "throw_ins": "deals thrown in because all passed (T-BID-5)",
        "first_dealer": "seat of the first dealer (uniformly random among the real players, T-TEAM-2 Decision)",
        "made": "contracts made",
        "failed": "contracts failed",
        "hole": "the game ended because a side fell to the hole (T-END-2), not by a side reaching the target",
        "capped": "the game stopped at the deal cap (higher score wins)",
        "score_<t>": "final cumulative score of side t (one column per side)",
        "invalid_decisions": "decisions a (user) policy returned out of range; option 0 was played instead (with "
                             "--invalid-option first; otherwise the run stops)",
        "no_trump_deals": "(no_trump only) contracts played in no trump, whose scores were doubled (T-V-ROUGH)",
        "out_team": "(six-3x2 only) the team that left at the hole (null: none did; T-V-6P)",
        "out_deal": "(six-3x2 only) the deal after which it left (null: none did)",
    },
    "deals": {
        "game": "game index",
        "deal": "deal number in the game, from 1",
        "dealer": "seat of the dealer",
        "contract_team": "side of the highest bidder: its team, or its seat in individual play (null when all passed)",
        "bidder": "seat of the highest bidder (null when all passed)",
        "bid": "the contract (null when all passed)",
        "trump": "trump suit s/h/d/c, or nt for no trump where allowed (null when all passed)",
        "taken_<t>": "card points side t took in tricks (0 when thrown in); with the kitty's points they sum to 100",
        "made": "the contract was made (null when all passed)",
        "deal_score_<t>": "what side t scored for this deal (T-SC-2 and the variant's scoring)",
        "score_<t>": "cumulative score of side t after the deal",
        "kitty_points": "(kitty only) card points buried in the kitty, scored by the defending team (T-V-KITTY)",
        "called": "(five-player only) the card the bidder called (T-V-5P)",
        "partner": "(five-player only) seat of the secret partner who held the called card",
        "out_team": "(six-3x2 only) the team that left at the hole after this deal (T-V-6P)",
    },
}

GAME = TwoHundred()
