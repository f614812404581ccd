"""Gin Rummy as seen by the runner, the API and the CLI."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simcards import policy
from simcards.cards import card_code
from simcards.games import engine
from simcards.games.base import GameDef, GameRun, SeatLabel, event_lines, full_log, nullable, replay_text
from simcards.games.engine import CARD_ARRAY, OPTION_ROWS, KernelBinding, policy_signature
from simcards.games.gin import kernel, search
from simcards.games.gin import layout as L
from simcards.games.gin import params as P
from simcards.games.gin import rules as R
from simcards.games.gin.camper import FAMILY as CAMPER
from simcards.games.gin.policies import SID_INFORMED, SID_KNOCK, SID_MC, SID_RANDOM, SID_SIMPLE, builtin_decide
from simcards.stats.estimates import mean_ci, proportion_ci, ratio_ci
from simcards.strategy import Family, Strategy

FAMILIES = {
    "random": Family("random", SID_RANDOM, "uniform over the legal options of every decision (knocking and the "
                     "knocker's choice among minimum arrangements, G-LAY-0, included)", (), True),
    "simple": Family(
        "simple", SID_SIMPLE,
        "the common baseline: take the upcard/discard only when it goes into a meld or enables a knock; "
        "discard the highest-value unmatched card; knock as soon as legal",
    ),
    "knock": Family(
        "knock", SID_KNOCK,
        "simple, with knock timing: knock at deadwood <= min(max, scale x the hand's limit) - drop x (own turn - 1) "
        "(- spade on a doubled hand); only gin from own turn gin_after or once the stock is down to gin_stock; "
        "optionally take discards that lower deadwood by `take`; avoid discarding cards that meld with cards the "
        "opponent took; `deny` lays out the arrangement that leaves the defender the fewest lay-off points",
        P.KNOCK,
    ),
}

FAMILIES["informed"] = Family(
    "informed", SID_INFORMED,
    "knock, plus what the player has seen (G-INFO-1): discard the card minimising deadwood after - (outs x live "
    "outs of the cards kept (unseen cards that would meld) + reach x the deadwood an unseen card melds on average) "
    "x max(0, 1 - (own turn - 1) / fade) + safe x known opponent cards it melds with - hint x opponent "
    "discards/passes it melds with; knock timing from the turn (late, fall), the opponent's pickups (wary) and "
    "the score (finish, hurry); take the upcard also when the score improves by swap",
    P.INFORMED,
    decide=search.informed_decide,  # an engine of its own, so the built-in kernel stays as fast as it was
)
FAMILIES["mc"] = Family(
    "mc", SID_MC,
    "Monte Carlo search: k deals of the unseen cards (the opponent's known pickups placed in its hand), each "
    "option played to the end of the hand with simple for both, common samples, opponent hands that fit its "
    "discards and passes; searches the draw, the discard (width best by informed) and the knock; other decisions "
    "(and Mahjong gin, G-V-MJ) by informed",
    P.MC,
    True,
    decide=search.mc_decide,
)

FAMILIES["camper"] = CAMPER  # attached, like informed: an engine of its own

BINDING = KernelBinding("gin", policy_signature(CARD_ARRAY, OPTION_ROWS), builtin_decide, builtin_decide,
                        kernel.make_engine, L.V_BAD,
                        attached=tuple(f for f in FAMILIES.values() if f.decide is not None))
KINDS = policy.kind_names(L)
POLICY_SIGNATURE = BINDING.signature
engine_for = BINDING.engine
seat_arrays = engine.seat_arrays

HANDS_PER_GAME = 48  # hand rows written per game in a first pass; longer games are replayed alone


class GinRun(GameRun):
    binding = BINDING
    kinds = KINDS
    games_width = L.G_WIDTH
    bad_slot = L.G_BAD
    units_slot = L.G_HANDS

    def __init__(self, rules: R.GinRules, strategies: list[Strategy]):
        super().__init__(rules, strategies, *seat_arrays(strategies))

    def detail_width(self) -> int:
        return R.hand_width(self.rules)

    def first_pass(self) -> int:
        return HANDS_PER_GAME * self.rules.tables

    def games_frame(self, games: np.ndarray, first: int) -> pd.DataFrame:
        return games_frame(games, first, self.rules)

    def detail_frame(self, rows: np.ndarray, n_units: np.ndarray, first: int) -> pd.DataFrame:
        return hands_frame(rows, n_units, first, self.rules)


def side_name(rules: R.GinRules) -> str:
    """Per-side columns are named by seat, or by team in team play."""
    return "team" if rules.teams else "seat"


def games_frame(games: np.ndarray, first: int, rules: R.GinRules) -> pd.DataFrame:
    n = len(games)
    data = {
        "game": np.arange(first, first + n, dtype=np.int64),
        "winner": nullable(games[:, L.G_WINNER]),
        "hands": games[:, L.G_HANDS].astype(np.int32),
        "scored_hands": games[:, L.G_SCORED].astype(np.int32),
        "first_dealer": games[:, L.G_FIRST_DEALER].astype(np.int8),
        "knocks": games[:, L.G_KNOCKS].astype(np.int32),
        "gins": games[:, L.G_GINS].astype(np.int32),
        "undercuts": games[:, L.G_UNDERCUTS].astype(np.int32),
        "walls": games[:, L.G_WALLS].astype(np.int32),
        "ties": games[:, L.G_TIES].astype(np.int32),
        "capped_hands": games[:, L.G_CAPPED_HANDS].astype(np.int32),
        "dealer_hands_won": games[:, L.G_DEALER_WON].astype(np.int32),
        "turns": games[:, L.G_TURNS].astype(np.int32),
    }
    seats, sides = rules.players, rules.sides
    for p in range(seats):
        data[f"points_{p}"] = games[:, L.G_SCORES + p].astype(np.int32)
    for p in range(seats):
        data[f"hands_won_{p}"] = games[:, L.G_WON + p].astype(np.int32)
    if rules.teams:  # G-V-4P: the scores are the teams'
        data["deals"] = games[:, L.G_DEALS].astype(np.int32)
        for field, at in (("points", L.G_SIDE_POINTS), ("deals_won", L.G_SIDE_WON), ("final", L.G_FINAL),
                          ("sweeps", L.G_SWEEPS)):
            for t in range(2):
                data[f"team_{field}_{t}"] = games[:, at + t].astype(np.int32)
    else:
        for s in range(sides):
            data[f"final_{s}"] = games[:, L.G_FINAL + s].astype(np.int32)
    data["margin"] = games[:, L.G_MARGIN].astype(np.int32)
    data["shutout"] = games[:, L.G_SHUTOUT].astype(bool)
    data["capped"] = games[:, L.G_CAPPED].astype(bool)
    if rules.oklahoma:
        data["doubled_hands"] = games[:, L.G_DOUBLED].astype(np.int32)
        if rules.oklahoma_boxes and not rules.hollywood:
            for s in range(sides):
                data[f"boxes_{s}"] = games[:, L.G_BOXES + s].astype(np.int32)
    if rules.hollywood:
        for k in range(L.N_HOLLY):
            base = L.G_HOLLY + k * L.GH_WIDTH
            g = f"hw{k + 1}"
            data[f"{g}_winner"] = nullable(games[:, base + L.GH_WINNER])
            for field, at in (("points", L.GH_POINTS), ("hands_won", L.GH_WON), ("boxes", L.GH_BOXES),
                              ("final", L.GH_FINAL)):
                for s in range(2):
                    data[f"{g}_{field}_{s}"] = games[:, base + at + s].astype(np.int32)
            data[f"{g}_margin"] = games[:, base + L.GH_MARGIN].astype(np.int32)
            data[f"{g}_shutout"] = games[:, base + L.GH_SHUTOUT].astype(bool)
            data[f"{g}_closed_at"] = nullable(np.where(games[:, base + L.GH_CLOSED] > 0,
                                                        games[:, base + L.GH_CLOSED], -1), "int32")
    if rules.mahjong:
        data["pickups"] = games[:, L.G_PICKUPS].astype(np.int32)
        data["multi_pickups"] = games[:, L.G_MULTI_PICKUPS].astype(np.int32)
    if rules.match_target:
        data["matches"] = games[:, L.G_MATCHES].astype(np.int32)
        data["match_shutouts"] = games[:, L.G_MATCH_SHUTOUTS].astype(np.int32)
        for s in range(2):
            data[f"matches_won_{s}"] = games[:, L.G_MATCHES_WON + s].astype(np.int32)
    return pd.DataFrame(data)


_CARD_CODES = [card_code(c) for c in range(52)]


def hands_frame(rows: np.ndarray, n_hands: np.ndarray, first: int, rules: R.GinRules) -> pd.DataFrame:
    count = len(n_hands)
    knocker = rows[:, L.H_KNOCKER]
    has_knock = knocker >= 0
    at = np.arange(len(rows))
    k_pos = np.where(rows[:, L.H_SEAT + 1] == knocker, 1, 0)
    k_dw = np.where(has_knock, rows[at, L.H_DW + k_pos], -1)
    d_dw = np.where(has_knock, rows[at, L.H_DW + 1 - k_pos], -1)
    data = {
        "game": np.repeat(np.arange(first, first + count, dtype=np.int64), n_hands),
        "hand": rows[:, L.H_HAND].astype(np.int32),
        "dealer": rows[:, L.H_DEALER].astype(np.int8),
        "knocker": nullable(knocker),
        "outcome": pd.Categorical.from_codes(rows[:, L.H_OUTCOME].astype(np.int32), categories=list(L.OUTCOMES)),
        "winner": nullable(rows[:, L.H_WINNER]),
        "points": rows[:, L.H_POINTS].astype(np.int16),
        "turns": rows[:, L.H_TURNS].astype(np.int16),
        "upcard_taker": nullable(rows[:, L.H_UPCARD_TAKER]),
        "knocker_deadwood": nullable(k_dw, "int16"),
        "defender_deadwood": nullable(d_dw, "int16"),
        "laid_off_cards": rows[:, L.H_LAID_N].astype(np.int8),
        "laid_off_points": rows[:, L.H_LAID_PTS].astype(np.int16),
        "stock_left": rows[:, L.H_STOCK].astype(np.int8),
    }
    everyone_plays = rules.players == 2
    for p in range(rules.players):
        dw = np.where(rows[:, L.H_SEAT] == p, rows[:, L.H_DW], np.where(rows[:, L.H_SEAT + 1] == p,
                                                                          rows[:, L.H_DW + 1], -1))
        data[f"deadwood_{p}"] = dw.astype(np.int16) if everyone_plays else nullable(dw, "int16")
    score = "team_score" if rules.teams else "score"
    for s in range(rules.sides):
        data[f"{score}_{s}"] = rows[:, L.H_SCORES + s].astype(np.int32)
    sections = R.hand_sections(rules)
    if R.R_H_MJ in sections:
        o = sections[R.R_H_MJ][0]
        for field, at in (("mj_points", L.HJ_POINTS), ("table_value", L.HJ_TABLE)):
            for p in range(2):
                pos = np.where(rows[:, L.H_SEAT] == p, 0, 1)
                data[f"{field}_{p}"] = rows[np.arange(len(rows)), o + at + pos].astype(np.int16)
        data["pickups"] = rows[:, o + L.HJ_PICKUPS].astype(np.int8)
        data["max_take"] = rows[:, o + L.HJ_MAX_TAKE].astype(np.int8)
    if R.R_H_TEAM in sections:
        o = sections[R.R_H_TEAM][0]
        data["table"] = rows[:, o + L.HT_TABLE].astype(np.int8)
        data["deal_winner"] = nullable(rows[:, o + L.HT_DEAL_WINNER])
        data["deal_points"] = rows[:, o + L.HT_DEAL_POINTS].astype(np.int16)
    if R.R_H_OKLA in sections:
        o = sections[R.R_H_OKLA][0]
        data["knock_card"] = pd.Categorical.from_codes(rows[:, o + L.HO_KNOCK_CARD].astype(np.int32),
                                                       categories=_CARD_CODES)
        data["knock_limit"] = rows[:, o + L.HO_LIMIT].astype(np.int8)
        data["stake"] = rows[:, o + L.HO_STAKE].astype(np.int8)
        data["boxes"] = rows[:, o + L.HO_BOXES].astype(np.int8)
    if R.R_H_HOLLY in sections:
        o = sections[R.R_H_HOLLY][0]
        entered = rows[:, o + L.HH_ENTERED]
        for k in range(L.N_HOLLY):
            data[f"in_hw{k + 1}"] = (entered >> k & 1).astype(bool)
        for k in range(L.N_HOLLY):
            for s in range(2):
                data[f"hw{k + 1}_score_{s}"] = rows[:, o + L.HH_SCORES + 2 * k + s].astype(np.int32)
    if R.R_H_MATCH in sections:
        o = sections[R.R_H_MATCH][0]
        data["match"] = rows[:, o + L.HM_MATCH].astype(np.int32)
        for s in range(2):
            data[f"match_points_{s}"] = rows[:, o + L.HM_POINTS + s].astype(np.int32)
    return pd.DataFrame(data)


class Gin(GameDef):
    name = "gin"
    title = "Gin Rummy"
    unit = "hand"
    detail_table = "hands"
    default_variant = "standard"
    default_players = 2
    default_strategy = "simple"
    rules_module = R
    family_table = FAMILIES

    def strategies(self, specs, players: int):
        """One spec for every seat, one per seat, or in team play (G-V-4P) one per team (team t =
        seats t, t+2, ...)."""
        specs = list(specs or [])
        if players >= 4 and len(specs) == 2:
            specs = [specs[s % 2] for s in range(players)]
        return super().strategies(specs or None, players)

    def new_run(self, rules, players, strategies):
        rules.check_players(players)
        return GinRun(rules, strategies)

    def summarize(self, games: pd.DataFrame, players: int) -> dict:
        n = len(games)
        winner = games["winner"].to_numpy(dtype=np.int64, na_value=-1)
        hands = games["hands"]
        teams = "team_final_0" in games  # G-V-4P: games are won by teams
        out = {
            "games": n,
            "hands": int(hands.sum()),
            "hands_per_game": mean_ci(hands),
            "turns_per_hand": ratio_ci(games["turns"], hands),
            ("win_rate_by_team" if teams else "win_rate_by_seat"):
                [proportion_ci(int((winner == p).sum()), n) for p in range(2 if teams else players)],
            "first_dealer_win_rate": proportion_ci(int((winner == games["first_dealer"].to_numpy()).sum()), n),
            "dealer_hand_share": ratio_ci(games["dealer_hands_won"], games["scored_hands"]),
            "knock_rate": ratio_ci(games["knocks"], hands),
            "gin_rate": ratio_ci(games["gins"], hands),
            "undercut_rate": ratio_ci(games["undercuts"], hands),
            "wall_rate": ratio_ci(games["walls"], hands),
            "tie_rate": ratio_ci(games["ties"], hands),
            "margin": mean_ci(games["margin"]),
            "shutout_rate": proportion_ci(int(games["shutout"].sum()), n),
            "capped_hands": int(games["capped_hands"].sum()),
            "capped_games": int(games["capped"].sum()),
            **({"invalid_decisions": int(games["invalid_decisions"].sum())} if "invalid_decisions" in games else {}),
        }
        # Rates only some variants have (their columns say which). The estimates are made here, in
        # summarize itself, so that summary-only runs can aggregate them (simcards.stats.aggregate).
        if "doubled_hands" in games:
            out["doubled_rate"] = ratio_ci(games["doubled_hands"], hands)
        if "hw1_winner" in games:  # G-V-HOLLY: who wins each of the three games
            out["hollywood_win_rate"] = [
                [proportion_ci(int((games[f"hw{k}_winner"].to_numpy(dtype=np.int64, na_value=-1) == p).sum()), n)
                 for p in range(2)] for k in range(1, L.N_HOLLY + 1)]
        if teams:  # G-V-TED: deals won at every table
            out["deals_per_game"] = mean_ci(games["deals"])
            out["sweep_rate"] = ratio_ci(games["team_sweeps_0"] + games["team_sweeps_1"], games["deals"])
        if "pickups" in games:  # G-V-MJ
            out["pickup_rate"] = ratio_ci(games["pickups"], games["turns"])
            out["multi_pickup_share"] = ratio_ci(games["multi_pickups"], games["pickups"])
        if "matches" in games:  # G-V-MATCH
            out["matches_per_game"] = mean_ci(games["matches"])
            out["match_shutout_rate"] = ratio_ci(games["match_shutouts"], games["matches"])
        return out

    def summary_rows(self, s: dict) -> list[tuple[str, str]]:
        rows = [
            ("games", f"{s['games']:,}"),
            ("hands", f"{s['hands']:,}"),
            ("hands per game", s["hands_per_game"].num(2)),
            ("turns per hand", s["turns_per_hand"].num(2)),
        ]
        for p, est in enumerate(s.get("win_rate_by_seat", [])):
            rows.append((SeatLabel(f"seat {p} wins", p), est.pct()))
        for t, est in enumerate(s.get("win_rate_by_team", [])):
            rows.append((f"team {t} (seats {t}, {t + 2}, ...) wins", est.pct()))
        rows += [
            ("first dealer wins the game" if "win_rate_by_seat" in s else "first dealing team wins the game",
             s["first_dealer_win_rate"].pct()),
            ("hands won by the dealer (of scored hands)", s["dealer_hand_share"].pct()),
            ("knock (knocker wins) per hand", s["knock_rate"].pct()),
            ("gin per hand", s["gin_rate"].pct()),
            ("undercut per hand", s["undercut_rate"].pct()),
            ("wall (void) per hand", s["wall_rate"].pct()),
        ]
        if s["tie_rate"].value > 0:
            rows.append(("0-0 tie per hand", s["tie_rate"].pct()))
        rows += [
            ("margin (winner − loser, with bonuses)", s["margin"].num(1)),
            ("shutouts", s["shutout_rate"].pct()),
            *self._variant_rows(s),
            ("hands stopped at the turn cap", f"{s['capped_hands']:,}"),
            ("games stopped at the hand cap", f"{s['capped_games']:,}"),
        ]
        if s.get("invalid_decisions"):
            rows.append(("policy decisions out of range (option 0 played)", f"{s['invalid_decisions']:,}"))
        return rows

    @staticmethod
    def _variant_rows(s: dict) -> list[tuple[str, str]]:
        rows = []
        if "doubled_rate" in s:
            rows.append(("hands doubled by a spade knock card (G-V-OKLA)", s["doubled_rate"].pct()))
        for k, rates in enumerate(s.get("hollywood_win_rate", []), start=1):
            rows += [(f"Hollywood game {k}: seat {p} wins", est.pct()) for p, est in enumerate(rates)]
        if "sweep_rate" in s:
            rows += [("deals per game (team play)", s["deals_per_game"].num(2)),
                     ("deals a team won at every table", s["sweep_rate"].pct())]
        if "pickup_rate" in s:
            rows += [("pile pickups per turn (G-V-MJ)", s["pickup_rate"].pct()),
                     ("pickups of 2+ cards (of pickups)", s["multi_pickup_share"].pct())]
        if "matches_per_game" in s:
            rows += [("matches per game (G-V-MATCH)", s["matches_per_game"].num(2)),
                     ("matches won without the loser winning a hand", s["match_shutout_rate"].pct())]
        return rows

    def columns(self):
        return {table: {**COLUMNS[table], **VARIANT_COLUMNS[table]} for table in COLUMNS}

    def transcripts(self, rules, players, strategies, seed, game):
        """The contract hook (``GameDef.transcripts``): both engines' event logs of one game."""
        from simcards.games.gin.reference import play_reference

        decide, play_game, _ = engine_for(strategies)
        sids, params = seat_arrays(strategies)
        rows, out = np.zeros((0, R.hand_width(rules)), dtype=np.int32), np.zeros(L.G_WIDTH, dtype=np.int64)
        k = full_log(lambda log: play_game(game, seed, rules.encode(), sids, params, out, rows, 0, log),
                     kernel.LOG_WIDTH)
        return k, play_reference(rules, sids, params, seed, game, decide).log_array()

    def card_audit(self, rules, players, transcript) -> list[str]:
        """The contract hook (``GameDef.card_audit``): see ``gin.contract.card_audit``."""
        from simcards.games.gin import contract

        return contract.card_audit(rules, players, transcript)

    def view_twins(self, rules, players, strategies, seed, game) -> list[tuple[int, int]]:
        """The contract hook (``GameDef.view_twins``): see ``gin.contract.view_twins``."""
        from simcards.games.gin import contract

        rules.check_players(players)
        sids, params = seat_arrays(strategies)
        return contract.view_twins(rules, sids, params, seed, game, engine_for(strategies).decide)

    def replay(self, rules, players, strategies, seed, game, on_invalid: str = "error") -> str:
        from simcards.games.gin.reference import play_reference

        rules.check_players(players)
        sids, params = seat_arrays(strategies)
        with policy.reported(strategies, KINDS):
            decide, _, _ = engine_for(strategies)
            record = play_reference(rules, sids, params, seed, game, decide, on_invalid=on_invalid)
        first = f"{'team' if rules.teams else 'seat'} {record.first_dealer} deals first (G-DEAL-1: a uniform draw)"
        return replay_text(f"Gin Rummy ({rules.name}), seed {seed}, game {game}", strategies,
                           [first, *event_lines(record.events, ("hand", "game"))])


COLUMNS = {
    "games": {
        "game": "game index i (the game is fully determined by seed, i, rules, strategies)",
        "winner": "seat that reached the target (null if the game stopped at the hand cap; team play: the team)",
        "hands": "hands played, void hands (wall, turn cap) included (team play: at every table)",
        "scored_hands": "hands that someone won",
        "first_dealer": "seat that dealt the first hand (a uniform draw, G-DEAL-1; team play: the dealing team)",
        "knocks": "hands won by the knocker without gin (G-SC-2)",
        "gins": "hands won by gin (G-SC-4)",
        "undercuts": "hands won by the defender (G-SC-3)",
        "walls": "void hands: the stock ran down to 2 cards (G-WALL-1)",
        "ties": "knocks tied and scored 0-0 (only with undercut_on_tie=false)",
        "capped_hands": "hands stopped at the turn cap (scored as void; 0 for built-in strategies)",
        "dealer_hands_won": "hands won by the player who dealt them (G-V-3P: by the player in the dealer's "
                            "part, the dealer sits out; team play: by the dealing team's player at the table)",
        "turns": "discards over the whole game",
        "points_<s>": "seat s's points from hands, without bonuses",
        "hands_won_<s>": "hands seat s won (its boxes, G-GAME-2)",
        "final_<s>": "seat s's final score: points + boxes (+ game or shutout bonus for the winner, G-GAME-1/2)",
        "margin": "winner's final score − loser's final score (what the loser pays, G-GAME-3; G-V-3P: the sum of "
                  "the winner's lead over each other player)",
        "shutout": "the loser scored no points (G-V-3P: neither other player did)",
        "capped": "the game stopped at the hand cap (no winner, no game bonus)",
    },
    "hands": {
        "game": "game index",
        "hand": "hand number in the game, from 1",
        "dealer": "seat that dealt",
        "knocker": "seat that knocked (null: wall or cap)",
        "outcome": "knock, gin, undercut, wall, tie (0-0, undercut_on_tie=false) or capped",
        "winner": "seat that scored the hand (null if nobody did)",
        "points": "points the winner scored",
        "turns": "discards made in the hand",
        "upcard_taker": "seat that took the upcard (G-FIRST-1; null if both declined)",
        "knocker_deadwood": "the knocker's deadwood as laid (null without a knock)",
        "defender_deadwood": "the defender's deadwood after lay-offs (null without a knock)",
        "laid_off_cards": "cards the defender laid off on the knocker's melds (G-LAY-1)",
        "laid_off_points": "their value",
        "stock_left": "cards left in the stock when the hand ended",
        "deadwood_<s>": "seat s's final deadwood (the defender's after lay-offs)",
        "score_<s>": "seat s's running points after the hand",
    },
}

# Columns only some variants have (the rule ID says which); the standard schema above is unchanged.
VARIANT_COLUMNS = {
    "games": {
        "invalid_decisions": "(user policies only) decisions a policy returned out of range; option 0 was played "
                             "instead (with --invalid-option first; otherwise the run stops)",
        "doubled_hands": "G-V-OKLA: hands whose knock card was a spade (scored double)",
        "boxes_<s>": "G-V-OKLA with oklahoma_boxes: seat s's boxes (hands won plus extra boxes), used in final_<s>",
        "hw<k>_winner": "G-V-HOLLY: the seat that won Hollywood game k (null if still open at the hand cap); "
                        "with Hollywood, winner/final_<s>/margin are the three games added up",
        "hw<k>_points_<s>": "G-V-HOLLY: seat s's points in game k's column",
        "hw<k>_hands_won_<s>": "G-V-HOLLY: hands of seat s entered in game k",
        "hw<k>_boxes_<s>": "G-V-HOLLY: seat s's boxes in game k (its hands entered there, plus G-V-OKLA extra boxes)",
        "hw<k>_final_<s>": "G-V-HOLLY: seat s's final score of game k (G-GAME-1/2 on that column)",
        "hw<k>_margin": "G-V-HOLLY: game k's margin (winner's final minus loser's)",
        "hw<k>_shutout": "G-V-HOLLY: the loser of game k scored nothing in its column",
        "hw<k>_closed_at": "G-V-HOLLY: the hand that ended game k",
        "deals": "team play (G-V-4P): deals played; every deal is one hand at each table (hands counts them all)",
        "team_points_<t>": "team play: team t's points toward the target (seats t, t+2, ...); winner is a team",
        "team_deals_won_<t>": "team play: deals team t scored",
        "team_final_<t>": "team play: team t's final score (points, plus boxes and game bonus if the rules give "
                          "any; G-V-4P: none); margin is the team margin",
        "team_sweeps_<t>": "team play: deals team t won at every table (G-V-TED sweep bonus)",
        "pickups": "G-V-MJ: pickups from the discard pile (every one puts its deepest card on the table)",
        "multi_pickups": "G-V-MJ: pickups of two cards or more",
        "matches": "G-V-MATCH: matches played (each to game_target); with multi-match, final_<s> are match points",
        "match_shutouts": "G-V-MATCH: matches whose loser won no hand",
        "matches_won_<s>": "G-V-MATCH: matches seat s won",
    },
    "hands": {
        "in_hw<k>": "G-V-HOLLY: the hand's score was entered in Hollywood game k",
        "hw<k>_score_<s>": "G-V-HOLLY: seat s's running points in game k after the hand",
        "match": "G-V-MATCH: the match the hand belongs to (score_<s> are the points within it)",
        "match_points_<s>": "G-V-MATCH: seat s's match points after the hand",
        "mj_points_<s>": "G-V-MJ: seat s's points in the hand: its table cards minus its hand (gin: + hand + 25); "
                         "points is the gin player's",
        "table_value_<s>": "G-V-MJ: value of the cards seat s put on the table (0 for a void hand)",
        "pickups": "G-V-MJ: pickups from the pile in the hand",
        "max_take": "G-V-MJ: most cards taken from the pile at once in the hand",
        "table": "team play: the table (0 .. players/2 - 1); a deal has one row per table",
        "deal_winner": "team play: the team that scored the deal (null: nobody)",
        "deal_points": "team play: what it scored (G-V-4P: the difference of the teams' totals, plus a G-V-TED sweep)",
        "team_score_<t>": "team play: team t's running points after the deal (instead of score_<s>)",
        "knock_card": "G-V-OKLA: the knock card (the upcard, or the second deck's bottom card)",
        "knock_limit": "G-V-OKLA: the hand's knock limit (0: gin only)",
        "stake": "G-V-OKLA: 2 when the knock card is a spade (points are already multiplied), else 1",
        "boxes": "G-V-OKLA: boxes the hand's winner earned (1, plus extra boxes with oklahoma_boxes)",
    },
}

GAME = Gin()
