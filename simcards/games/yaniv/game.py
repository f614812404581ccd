"""Yaniv as seen by the runner, the API and the CLI."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simcards import policy
from simcards.games import engine
from simcards.games.base import GameDef, GameRun, SeatLabel, event_lines, full_log, nullable, replay_text
from simcards.games.engine import CARD_ARRAY, OPTION_ROWS, KernelBinding, policy_signature
from simcards.games.yaniv import contract, kernel, search
from simcards.games.yaniv import layout as L
from simcards.games.yaniv import params as P
from simcards.games.yaniv import rules as R
from simcards.games.yaniv.policies import N_PARAMS, SID_RANDOM, SID_THRESHOLD, builtin_decide, kernel_decide
from simcards.games.yaniv.search import SID_INFORMED, SID_MC
from simcards.nbutil import njit_by_type
from simcards.stats.estimates import mean_ci, proportion_ci, ratio_ci
from simcards.strategy import Family, Strategy

FAMILIES = {
    "random": Family(
        "random", SID_RANDOM,
        "uniform over the legal options of every decision, except Y-V-REQ requests: see `ask`",
        P.RANDOM, True),
    "threshold": Family(
        "threshold", SID_THRESHOLD,
        "call at or under `call`; throw the group leaving the lowest expected hand; take the discard "
        "when it is lower than what was thrown or builds a group; keep jokers off the ends of runs; "
        "section-5 decisions: requests, grants, slams, onderkluft, the Kluft top card and deliberate "
        "calls onto a reset",
        P.THRESHOLD),
    # The strong players (search.py) attach as a user policy does (``Family.decide``): a plain run
    # never compiles them; together they share one engine, compiled once and cached.
    "informed": Family(
        "informed", SID_INFORMED,
        "remembers the round (the discard pile, the cards each opponent took and holds, hand sizes) and calls "
        "when the estimated chance of Asaf (each opponent: its known cards plus unseen ones, counted exactly) "
        "is at most `risk`; throws as threshold, but avoids feeding the next player a card that builds a group "
        "with the cards it is known to hold; other decisions as threshold",
        P.INFORMED, decide=search.informed_decide),
    "mc": Family(
        "mc", SID_MC,
        "Monte Carlo search: at a call, discard or draw, deals `k` samples of the unseen cards consistent with "
        "what it has seen (hand sizes, cards known in hands, the discard pile), plays every option to the end "
        "of the round with threshold rollouts (the same samples for every option) and takes the best mean "
        "result (the opponents' new scores minus its own, after resets); threshold's parameters drive its own "
        "rollout play and the decisions it does not search; no search under Kluft",
        P.MC, True, decide=search.mc_decide),
}


def _build(decide=None, cache_key: str | None = None):
    """``(play_game, play_batch)`` of the kernel. The built-in engine (``decide`` None) plays its
    rounds with ``kernel.play_round`` (``kernel.play_round_threshold`` whenever
    ``kernel.threshold_only``, and a batch ``kernel.play_round_masks`` whenever
    ``kernel.masks_only``); any other with ``kernel.play_round_via``, which asks every
    decision of a decision function through a function pointer: ``search.engine_decide`` for
    the attached families alone, else ``decide`` (``kernel.make_engine``). The game, round and
    batch functions are the cached ones: an engine compiles only its decision function."""
    if decide is None:
        decide_fn = kernel.no_decide
    elif cache_key is not None and cache_key == policy.engine_key("yaniv", ATTACHED):
        decide_fn = search.engine_decide(cache_key)  # the attached families alone: no checking layers
    else:
        decide_fn = kernel.make_engine(decide, cache_key)

    def round_fn(rules, sids, batch=False):
        if decide is not None:
            return kernel.play_round_via
        if batch and kernel.masks_only(rules, sids):  # no transcript: the hands as bit sets
            return kernel.play_round_masks
        return kernel.play_round_threshold if kernel.threshold_only(rules, sids) else kernel.play_round

    def play_game(game, seed, rules, players, sids, params, out_game, rounds_out, round_cap, log):
        return kernel.play_game(game, seed, rules, players, sids, params, out_game, rounds_out, round_cap, log,
                                round_fn(rules, sids), decide_fn)

    def play_batch(seed, first, count, rules, players, sids, params, out_games, out_rounds, round_cap):
        assert len(sids) == players  # one strategy a seat
        kernel.play_batch(seed, first, count, rules, sids, params, out_games, out_rounds, round_cap, kernel.play_game,
                          round_fn(rules, sids, batch=True), decide_fn)

    return play_game, play_batch


ATTACHED = sorted((f for f in FAMILIES.values() if f.decide is not None), key=lambda f: f.sid)

# The kernel asks ``kernel_decide`` (threshold's call/discard/draw are its own), the reference
# engine ``builtin_decide``: random and threshold only. informed and mc are attached.
BINDING = KernelBinding("yaniv", policy_signature(CARD_ARRAY, OPTION_ROWS), builtin_decide, kernel_decide, _build,
                        L.V_BAD, jit=njit_by_type(),
                        attached=tuple(ATTACHED))
KINDS = policy.kind_names(L)
POLICY_SIGNATURE = BINDING.signature
engine_for = BINDING.engine


def seat_arrays(strategies: list[Strategy]) -> tuple[np.ndarray, np.ndarray]:
    """Strategy ids and parameter rows. The rows are ``policies.N_PARAMS`` (24) wide, wider than
    ``simcards.strategy.N_PARAMS`` (8): the threshold family has 12 parameters, mc 22."""
    return engine.seat_arrays(strategies, N_PARAMS)


# Rounds written per game in a first pass; games with more are replayed with room for all.
ROUNDS_PER_GAME = 64


class YanivRun(GameRun):
    binding = BINDING
    kinds = KINDS
    games_width = L.G_WIDTH
    bad_slot = L.G_BAD
    units_slot = L.G_ROUNDS

    def __init__(self, rules: R.YanivRules, players: int, strategies: list[Strategy]):
        self.players = players
        super().__init__(rules, strategies, *seat_arrays(strategies))

    def batch_args(self) -> tuple:
        return (self.encoded, self.players, self.sids, self.params)

    def detail_width(self) -> int:
        return L.round_width(self.players)

    def first_pass(self) -> int:
        return ROUNDS_PER_GAME

    def games_frame(self, games: np.ndarray, first: int) -> pd.DataFrame:
        return games_frame(games, first, self.players, self.rules)

    def detail_frame(self, rows: np.ndarray, n_units: np.ndarray, first: int) -> pd.DataFrame:
        return rounds_frame(rows, n_units, first, self.players)


# Section-5 counters: (column, games-array column, the option that makes it appear).
VARIANT_COUNTERS = (
    ("overcalls", L.G_OVERCALLS, "overcall"),
    ("requests", L.G_REQUESTS, "requests"),
    ("requests_granted", L.G_GRANTED, "requests"),
    ("requests_blocked", L.G_REQ_BLOCKED, "requests"),
    ("slams", L.G_SLAMS, "slam"),
    ("onderklufts", L.G_ONDER, "kluft"),
    ("onderkluft_wins", L.G_ONDER_WINS, "kluft"),
    ("full_option_tables", L.G_FULL_TABLES, "requests"),
)


def games_frame(games: np.ndarray, first: int, players: int, rules: R.YanivRules | None = None) -> pd.DataFrame:
    n = len(games)
    data = {
        "game": np.arange(first, first + n, dtype=np.int64),
        "winner": games[:, L.G_WINNER].astype(np.int8),
        "rounds": games[:, L.G_ROUNDS].astype(np.int32),
        "turns": games[:, L.G_TURNS].astype(np.int32),
        "starter": games[:, L.G_STARTER].astype(np.int8),
        "calls": games[:, L.G_CALLS].astype(np.int32),
        "asafs": games[:, L.G_ASAFS].astype(np.int32),
        "capped_rounds": games[:, L.G_CAPPED_ROUNDS].astype(np.int32),
        "playoff_rounds": games[:, L.G_PLAYOFF_ROUNDS].astype(np.int32),
        "capped": games[:, L.G_CAPPED].astype(bool),
    }
    for name, col, option in VARIANT_COUNTERS:
        if rules is not None and getattr(rules, option):
            data[name] = games[:, col].astype(np.int32)
    for p in range(players):
        data[f"score_{p}"] = games[:, L.G_SCORES + p].astype(np.int32)
    return pd.DataFrame(data)


def _seat_labels(masks: np.ndarray, players: int) -> pd.api.extensions.ExtensionArray:
    """Bit masks of seats → labels such as ``""``, ``"2"`` or ``"1,3"``, typed ``str`` (plain
    strings, so that every chunk of a long run has the same Parquet schema). Looked up in Arrow
    from the labels of every mask: a third of the time of Python strings for a million rounds."""
    import pyarrow as pa

    labels = pa.array([",".join(str(p) for p in range(players) if m >> p & 1) for m in range(1 << players)],
                      type=pa.large_string())
    return pd.array(pa.DictionaryArray.from_arrays(pa.array(masks, type=pa.int32()), labels).cast(labels.type),
                    dtype="str")


def rounds_frame(rows: np.ndarray, n_rounds: np.ndarray, first: int, players: int) -> pd.DataFrame:
    count = len(n_rounds)
    data = {
        "game": np.repeat(np.arange(first, first + count, dtype=np.int64), n_rounds),
        "round": rows[:, L.RD_ROUND].astype(np.int32),
        "starter": rows[:, L.RD_STARTER].astype(np.int8),
        "caller": nullable(rows[:, L.RD_CALLER], "int8"),
        "turns": rows[:, L.RD_TURNS].astype(np.int32),
        "asaf": rows[:, L.RD_ASAF].astype(bool),
    }
    for p in range(players):
        data[f"hand_{p}"] = nullable(rows[:, L.RD_HANDS + p], "int16")
    for p in range(players):
        data[f"score_{p}"] = rows[:, L.RD_HANDS + players + p].astype(np.int32)
    data["eliminated"] = _seat_labels(rows[:, L.RD_ELIMINATED], players)
    data["playoff"] = rows[:, L.RD_PLAYOFF].astype(bool)
    data["capped"] = rows[:, L.RD_CAPPED].astype(bool)
    return pd.DataFrame(data)


class Yaniv(GameDef):
    name = "yaniv"
    title = "Yaniv"
    unit = "round"
    detail_table = "rounds"
    default_variant = "israeli"
    default_players = 4
    default_strategy = "threshold"
    rules_module = R
    family_table = FAMILIES

    def new_run(self, rules, players, strategies):
        return YanivRun(rules, players, strategies)

    def summarize(self, games: pd.DataFrame, players: int) -> dict:
        n = len(games)
        winner = games["winner"].to_numpy()
        return {
            "games": n,
            "rounds": int(games["rounds"].sum()),
            "turns": int(games["turns"].sum()),
            "rounds_per_game": mean_ci(games["rounds"]),
            "turns_per_round": ratio_ci(games["turns"], games["rounds"]),
            "win_rate_by_seat": [proportion_ci(int((winner == p).sum()), n) for p in range(players)],
            "starter_win_rate": proportion_ci(int((winner == games["starter"].to_numpy()).sum()), n),
            "fair_share": 1 / players,
            "asaf_rate": ratio_ci(games["asafs"], games["calls"]),
            "capped_rounds": int(games["capped_rounds"].sum()),
            "capped_games": int(games["capped"].sum()),
            "playoff_games": int((games["playoff_rounds"] > 0).sum()),
            **({"invalid_decisions": int(games["invalid_decisions"].sum())} if "invalid_decisions" in games else {}),
            **{f"{name}_per_round": ratio_ci(games[name], games["rounds"])
               for name, _, _ in VARIANT_COUNTERS if name in games.columns},
        }

    def summary_rows(self, s: dict) -> list[tuple[str, str]]:
        rows = [
            ("games", f"{s['games']:,}"),
            ("rounds", f"{s['rounds']:,}"),
            ("rounds per game", s["rounds_per_game"].num(2)),
            ("turns per round", s["turns_per_round"].num(2)),
            ("round-1 starter wins", s["starter_win_rate"].pct() + f"  (fair share {100 * s['fair_share']:.1f}%)"),
        ]
        for p, est in enumerate(s["win_rate_by_seat"]):
            rows.append((SeatLabel(f"seat {p} wins", p), est.pct()))
        rows += [
            ("Asaf rate (per call)", s["asaf_rate"].pct()),
            ("rounds that hit the turn cap", f"{s['capped_rounds']:,}"),
            ("games stopped at the round cap", f"{s['capped_games']:,}"),
            ("games decided by play-off (Y-ELIM-2)", f"{s['playoff_games']:,}"),
        ]
        if s.get("invalid_decisions"):
            rows.append(("policy decisions out of range (option 0 played)", f"{s['invalid_decisions']:,}"))
        for name, _, _ in VARIANT_COUNTERS:
            if f"{name}_per_round" in s:
                rows.append((f"{name.replace('_', ' ')} per round", s[f"{name}_per_round"].num(3)))
        return rows

    def columns(self):
        return COLUMNS

    def transcripts(self, rules, players, strategies, seed, game):
        """The contract hook (``GameDef.transcripts``): both engines' event logs of one game."""
        from simcards.games.yaniv.reference import play_reference

        decide, play_game, _ = engine_for(strategies)
        sids, params = seat_arrays(strategies)
        rows, out = np.zeros((0, L.round_width(players)), dtype=np.int32), np.zeros(L.G_WIDTH, dtype=np.int64)
        k = full_log(lambda log: play_game(game, seed, rules.encode(), players, sids, params, out, rows, 0, log),
                     kernel.LOG_WIDTH)
        return k, play_reference(rules, players, sids, params, seed, game, decide).log_array()

    def card_audit(self, rules, players, transcript) -> list[str]:
        """The contract hook (``GameDef.card_audit``): every card of a kernel transcript accounted for."""
        return contract.card_audit(rules, players, transcript)

    def view_twins(self, rules, players, strategies, seed, game) -> list[tuple[int, int]]:
        """The contract hook (``GameDef.view_twins``): each decision of a reference game, and again
        with every card hidden from the decider dealt anew."""
        sids, params = seat_arrays(strategies)
        return contract.view_twins(rules, players, sids, params, seed, game, engine_for(strategies).decide)

    def replay(self, rules, players, strategies, seed, game, on_invalid: str = "error") -> str:
        from simcards.games.yaniv.reference import play_reference

        sids, params = seat_arrays(strategies)
        with policy.reported(strategies, KINDS):
            decide, _, _ = engine_for(strategies)
            record = play_reference(rules, players, sids, params, seed, game, decide, on_invalid=on_invalid)
        return replay_text(f"Yaniv ({rules.name}), {players} players, seed {seed}, game {game}", strategies,
                           event_lines(record.events, ("round", "winner")))


COLUMNS = {
    "games": {
        "game": "game index i (the game is fully determined by seed, i, rules, strategies)",
        "winner": "seat of the winner",
        "rounds": "rounds played",
        "turns": "discards made over the whole game",
        "starter": "seat that started round 1 (uniformly random, Y-START-1)",
        "calls": "rounds ended by a Yaniv call",
        "asafs": "calls that failed (Asaf, Y-SC-2)",
        "capped_rounds": "rounds abandoned at the turn cap (everyone adds their hand)",
        "playoff_rounds": "extra rounds played under Y-ELIM-2",
        "capped": "the game stopped at the round cap (lowest score wins)",
        "invalid_decisions": "(user policies only) decisions a policy returned out of range; option 0 was played "
                             "instead (with --invalid-option first; otherwise the run stops)",
        "overcalls": "(overcall only) calls made above the limit (Y-V-OVERCALL)",
        "requests": "(requests only) card requests made (Y-V-REQ)",
        "requests_granted": "(requests only) requests the mover agreed to",
        "requests_blocked": "(requests only) askers skipped because a hand held 10 cards (the hand guard)",
        "full_option_tables": "(requests only) discards chosen from a full table of 256 groups (hands grown by "
                              "requests; the longest groups were dropped)",
        "slams": "(slam only) cards slammed down (Y-V-SLAM)",
        "onderklufts": "(kluft only) onderkluft calls (Y-V-KLUFT)",
        "onderkluft_wins": "(kluft only) Kluft calls beaten by an onderkluft",
        "score_<s>": "final cumulative score of seat s",
    },
    "rounds": {
        "game": "game index",
        "round": "round number, from 1",
        "starter": "seat that started the round",
        "caller": "seat that called Yaniv (null when the round hit the turn cap)",
        "turns": "discards made before the call",
        "asaf": "the call failed (Kluft: an onderkluft caller won)",
        "hand_<s>": "hand total of seat s at the call (null if s was already out)",
        "score_<s>": "cumulative score of seat s after the round (resets applied)",
        "eliminated": "seats eliminated this round, comma-separated (empty if none)",
        "playoff": "the round was a Y-ELIM-2 play-off round",
        "capped": "the round hit the turn cap",
    },
}

GAME = Yaniv()
