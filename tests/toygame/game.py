"""High card as seen by the runner, the API, the CLI and the contract suite (tests/contract/)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.games.analysis import GameMetrics, Outcome
from simcards.games.base import GameDef, GameRun, full_log
from simcards.policy import check_games
from simcards.stats.estimates import mean_ci, proportion_ci
from simcards.strategy import Family, Param, Strategy
from tests.toygame import kernel as K
from tests.toygame import rules as R
from tests.toygame.reference import play_reference, view_of

FAMILIES = {
    "random": Family("random", K.SID_RANDOM, "either card, uniformly", (), True),
    "greedy": Family("greedy", K.SID_GREEDY, "the lowest card that beats the cards played, else the lowest; "
                     "when leading, the high card if lead_high", (Param("lead_high", 1, 0, 1, "lead the high card", True),)),
}
def seat_arrays(strategies: list[Strategy]) -> tuple[np.ndarray, np.ndarray]:
    sids = np.array([s.family.sid for s in strategies], dtype=np.int64)
    return sids, np.stack([s.vector() for s in strategies])


class HighCardRun(GameRun):
    def __init__(self, rules: R.HighCardRules, players: int, strategies: list[Strategy]):
        self.rules, self.players, self.names = rules, players, {s.family.sid: s.family.name for s in strategies}
        self.sids, self.params = seat_arrays(strategies)

    def play(self, seed: int, first: int, count: int, detail: bool):
        games = np.zeros((count, K.G_WIDTH), dtype=np.int64)
        cap = K.ROUND_CAP if detail else 0
        rounds = np.zeros((count * cap, K.R_WIDTH), dtype=np.int32)
        K.play_batch(seed, first, count, self.rules.encode(), self.players, self.sids, self.params, games, rounds, cap)
        bad = np.zeros((count, 5), dtype=np.int64)  # the built-ins' only failure: an index out of range
        bad[:, 0] = games[:, K.G_INVALID]
        check_games(bad, 0, first, self.names, {0: "play"}, self.on_invalid)
        g = games
        cols = {"game": np.arange(first, first + count, dtype=np.int64), "winner": g[:, K.G_WINNER].astype(np.int8),
                "rounds": g[:, K.G_ROUNDS].astype(np.int32), "starter": g[:, K.G_STARTER].astype(np.int8),
                "capped": g[:, K.G_CAPPED].astype(bool), "invalid_decisions": g[:, K.G_INVALID].astype(np.int32)}
        cols |= {f"score_{p}": g[:, K.G_WINS + p].astype(np.int32) for p in range(self.players)}
        if not detail:
            return pd.DataFrame(cols), None
        n = np.minimum(g[:, K.G_ROUNDS], cap)
        rows = rounds[(np.arange(count)[:, None] * cap + np.arange(cap)[None, :])[np.arange(cap)[None, :] < n[:, None]]]
        det = {"game": np.repeat(cols["game"], n), "round": rows[:, K.R_ROUND], "leader": rows[:, K.R_LEADER].astype(np.int8),
               "winner": rows[:, K.R_WINNER].astype(np.int8)}
        det |= {f"card_{p}": rows[:, K.R_CARDS + p].astype(np.int8) for p in range(self.players)}
        return pd.DataFrame(cols), pd.DataFrame(det)


METRICS = GameMetrics(
    unit="round", turns=None, starter_label="first leader",
    n_sides=lambda players: players, side_of_seat=lambda seat, players: seat,
    starter_side=lambda df, players: df["starter"].to_numpy(np.int64),
    margin=lambda df, side, players: (df[f"score_{side}"].to_numpy(np.float64)
                                      - sum(df[f"score_{s}"].to_numpy(np.float64) for s in range(players) if s != side)
                                      / (players - 1)),
    outcomes=(Outcome("starter_wins", "games won by the first leader",
                      lambda df: (df["winner"] == df["starter"]).to_numpy(np.int64),
                      lambda df: np.ones(len(df), np.int64)),),
    weak="random",
    # H-PLAY-2: every seat plays one card (one decision) a round
    seat_decisions=lambda games, rounds, players: np.repeat(games["rounds"].to_numpy(np.int64)[:, None], players, 1),
    decision_unit="cards played",
)


class HighCard(GameDef):
    name = "high-card"
    title = "High card"
    unit = "round"
    detail_table = "rounds"
    default_variant = "standard"
    default_players = 2
    default_strategy = "greedy"
    rules_module = R
    family_table = FAMILIES

    def metrics(self, rules) -> GameMetrics:
        return METRICS

    def new_run(self, rules, players, strategies):
        rules.check_players(players)
        if any(s.family.decide is not None for s in strategies):
            raise SimcardsError("high-card (a test game) takes no user policies")
        return HighCardRun(rules, players, strategies)

    def summarize(self, games: pd.DataFrame, players: int) -> dict:
        n, winner = len(games), games["winner"].to_numpy()
        return {"games": n, "rounds": int(games["rounds"].sum()), "rounds_per_game": mean_ci(games["rounds"]),
                "win_rate_by_seat": [proportion_ci(int((winner == p).sum()), n) for p in range(players)],
                "capped_games": int(games["capped"].sum()), "invalid_decisions": int(games["invalid_decisions"].sum())}

    def summary_rows(self, s: dict) -> list[tuple[str, str]]:
        rows = [("games", f"{s['games']:,}"), ("rounds per game", s["rounds_per_game"].num(2))]
        rows += [(f"seat {p} wins", e.pct()) for p, e in enumerate(s["win_rate_by_seat"])]
        return rows + [("games stopped at the round cap", f"{s['capped_games']:,}")]

    def columns(self):
        return {"games": {"game": "game index", "winner": "winning seat", "rounds": "rounds played",
                          "starter": "first leader", "capped": "stopped at the round cap",
                          "invalid_decisions": "decisions out of range (option 0 played)",
                          "score_<p>": "round wins of seat p"},
                "rounds": {"game": "game index", "round": "round number", "leader": "seat that led",
                           "winner": "seat that won", "card_<p>": "card seat p played"}}

    def replay(self, rules, players, strategies, seed, game, on_invalid: str = "error") -> str:
        rules.check_players(players)
        rec = play_reference(rules, players, *seat_arrays(strategies), seed, game, on_invalid)
        return "\n".join([f"High card ({rules.name}), seed {seed}, game {game}", *rec.lines, f"seat {rec.winner} wins"])

    # --- the contract hooks (tests/contract/) ---------------------------------------------------
    def transcripts(self, rules, players, strategies, seed, game):
        sids, params = seat_arrays(strategies)
        out, rows = np.zeros(K.G_WIDTH, dtype=np.int64), np.zeros((0, K.R_WIDTH), dtype=np.int32)
        k = full_log(lambda log: K.play_game(game, seed, rules.encode(), players, sids, params, out, rows, 0, log),
                     K.LOG_WIDTH, rows=8)  # (8 rows: a game is longer, so the replay path is exercised too)
        return k, play_reference(rules, players, sids, params, seed, game).log_array()

    def card_audit(self, rules, players, transcript) -> list[str]:
        problems, hands, played = [], {}, set()
        for event, rnd, seat, a, b in transcript.tolist():
            if event == K.EV_DEAL:
                if seat == 0:
                    hands, played = {}, set()
                hands[seat] = (a, b)
                dealt = [c for h in hands.values() for c in h]
                if len(set(dealt)) != len(dealt) or not all(0 <= c < 52 for c in dealt):
                    problems.append(f"round {rnd}: a card dealt twice or not in the deck")
            elif event == K.EV_PLAY and (a not in hands.get(seat, ()) or seat in played):
                problems.append(f"round {rnd}: seat {seat} played {a}, not one card of its own hand {hands.get(seat)}")
            elif event == K.EV_PLAY:
                played.add(seat)
            elif event == K.EV_WIN and len(played) != len(hands):
                problems.append(f"round {rnd}: {len(played)} cards played by {len(hands)} players")
        return problems

    def view_twins(self, rules, players, strategies, seed, game):
        """Every decision of one reference game, and the same decision with every card hidden from
        the decider (the other hands but the cards already played) dealt again at random."""
        sids, params = seat_arrays(strategies)
        redeal, pairs = np.random.default_rng([seed, game]), []

        def ask(seat, rnd, hands, played, wins, rng):
            unseen = [c for c in range(52) if c not in hands[seat] and c not in played]
            pool = list(redeal.permutation(unseen))
            twin = [h if p == seat else [c if c in played else int(pool.pop()) for c in h] for p, h in enumerate(hands)]
            own = np.array(hands[seat], dtype=np.int64)
            a, b = (int(K.decide(sids[seat], params[seat], own, 2, view_of(seat, rnd, h, played, wins), rules.encode(),
                                 rng.copy())) for h in (hands, twin))
            pairs.append((a, b))

        play_reference(rules, players, sids, params, seed, game, ask=ask)
        return pairs


GAME = HighCard()
