"""Gin through the public API and the CLI: tables and their columns, Parquet output, replay,
strategies (specs, TOML presets, a user plugin), exact probabilities against the simulator."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simcards
from simcards.cli import main
from simcards.errors import SimcardsError
from simcards.games.gin import rules as R
from simcards.games.gin.game import COLUMNS, GAME
from simcards.stats.estimates import wilson

ROOT = Path(__file__).resolve().parents[1]


def test_simulate_tables_and_columns():
    sim = simcards.simulate("gin", games=300, seed=1)
    assert sim.meta["players"] == 2 and sim.meta["strategies"] == ["simple", "simple"]
    assert set(COLUMNS["games"]) - {"points_<s>", "hands_won_<s>", "final_<s>"} <= set(sim.games.columns)
    assert {"points_0", "points_1", "hands_won_0", "final_1"} <= set(sim.games.columns)
    hands = sim.hands
    assert {"game", "hand", "dealer", "knocker", "outcome", "knocker_deadwood", "defender_deadwood", "turns",
            "points", "deadwood_0", "deadwood_1", "score_0", "score_1"} <= set(hands.columns)
    assert set(hands["outcome"].astype(str)) <= {"knock", "gin", "undercut", "wall", "tie", "capped"}
    assert len(hands) == sim.games["hands"].sum()
    assert sim.summary["capped_hands"] == 0 and sim.summary["capped_games"] == 0
    # per-hand rows add up to the per-game counters
    per_game = hands.groupby("game")["outcome"].value_counts().unstack(fill_value=0)
    assert (per_game["gin"].to_numpy() == sim.games["gins"].to_numpy()).all()
    assert (hands.groupby("game")["turns"].sum().to_numpy() == sim.games["turns"].to_numpy()).all()
    # knocks are within the limit; gin has 0 deadwood (section 7)
    knocked = hands[hands["knocker"].notna()]
    assert (knocked["knocker_deadwood"] <= 10).all()
    assert (knocked.loc[knocked["outcome"] == "gin", "knocker_deadwood"] == 0).all()
    for est in sim.summary["win_rate_by_seat"]:
        assert est.low <= est.value <= est.high


def test_parquet_output_and_summary_only(tmp_path):
    sim = simcards.simulate("gin", games=120, seed=3, out=tmp_path / "o", strategies=["knock:max=6", "simple"],
                            variant="tournament")
    games = pd.read_parquet(tmp_path / "o" / "games.parquet")
    hands = pd.read_parquet(tmp_path / "o" / "hands.parquet")
    assert len(games) == 120 and len(hands) == games["hands"].sum()
    data = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert data["meta"]["variant"] == "tournament"
    lean = simcards.simulate("gin", games=120, seed=3, summary_only=True, strategies=["knock:max=6", "simple"],
                             variant="tournament")
    assert lean.summary["hands"] == sim.summary["hands"]
    assert lean.summary["gin_rate"].value == pytest.approx(sim.summary["gin_rate"].value)


def test_strategy_specs_and_toml_presets():
    strats = GAME.strategies([str(ROOT / "simcards/data/strategies/gin/patient.toml"), "knock:max=3,gin_after=8"], 2)
    assert strats[0].family.name == "knock" and dict(strats[0].values)["max"] == 5
    assert dict(strats[1].values)["gin_after"] == 8
    early = GAME.strategies([str(ROOT / "simcards/data/strategies/gin/early.toml")], 2)[0]
    assert dict(early.values)["take"] == 4
    with pytest.raises(SimcardsError, match="out of range"):
        GAME.strategies(["knock:max=11"], 2)
    with pytest.raises(SimcardsError, match="unknown gin strategy"):
        GAME.strategies(["greedy"], 2)


@pytest.mark.slow  # compiles a Gin kernel of its own (~1 min cold); the fast lane rebuilds Yaniv's for a user
def test_user_plugin_policy():  # policy (test_policy_safety), through the same KernelBinding
    sim = simcards.simulate("gin", games=60, seed=2,
                            strategies=[str(ROOT / "simcards/data/strategies/gin/lowball.py") + ":lowball:knock_at=2", "simple"])
    hands = sim.hands
    mine = hands[(hands["knocker"] == 0)]
    assert len(mine) > 0 and (mine["knocker_deadwood"] <= 2).all()
    assert (hands["upcard_taker"] != 0).all()


def test_knock_threshold_is_respected():
    sim = simcards.simulate("gin", games=200, seed=4, strategies=["knock:max=3", "knock:max=10,gin_after=1"])
    hands = sim.hands
    assert (hands.loc[hands["knocker"] == 0, "knocker_deadwood"] <= 3).all()
    assert (hands.loc[hands["knocker"] == 1, "knocker_deadwood"] == 0).all()  # gin only from turn 1


def test_first_dealer_and_upcard_protocol_exact_probabilities_g_deal_1_g_first_1():
    # G-DEAL-1 Decision: the first dealer is a fair draw (p = 1/2). G-FIRST-1 with uniform random
    # players: the non-dealer takes the upcard with p = 1/2, the dealer with 1/4, nobody 1/4.
    sim = simcards.simulate("gin", games=400, seed=8, strategies=["random"], rules={"game_target": 20})
    first = wilson(int((sim.games["first_dealer"] == 0).sum()), len(sim.games))
    assert first.low <= 0.5 <= first.high
    hands = sim.hands
    n = len(hands)
    taker = hands["upcard_taker"].to_numpy(dtype=np.int64, na_value=-1)
    dealer = hands["dealer"].to_numpy()
    for outcome, p in (((taker == 1 - dealer), 0.5), ((taker == dealer), 0.25), ((taker < 0), 0.25)):
        est = wilson(int(outcome.sum()), n)
        assert est.low - 0.01 <= p <= est.high + 0.01, (est, p)  # hands within a game are independent here


def test_replay_reads_well():
    text = GAME.replay(GAME.build_rules("standard"), 2, GAME.strategies(["simple"], 2), 1, 0)
    for needle in ("deals first", "is dealt", "upcard", "discards", "lays out", "scores", "totals", "wins the game"):
        assert needle in text


def test_cli_simulate_replay_variants(capsys, tmp_path):
    code = main(["simulate", "gin", "--games", "100", "--seed", "1", "--no-progress", "--rule", "gin_bonus=25",
                 "--strategy", "simple", "--strategy", "knock:max=5", "--out", str(tmp_path / "c")])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "gin per hand" in out.out and "undercut per hand" in out.out and "hands/s" in out.out
    assert (tmp_path / "c" / "hands.parquet").exists()
    code = main(["replay", "gin", "--seed", "1", "--game", "3"])
    out = capsys.readouterr()
    assert code == 0 and "hand 1" in out.out
    code = main(["variants", "gin"])
    out = capsys.readouterr()
    assert code == 0 and "tournament" in out.out and "undercut_on_tie" in out.out


@pytest.mark.parametrize("args, what", [
    (["simulate", "gin", "--players", "3", "--games", "5"], "are for two players"),
    (["simulate", "gin", "--variant", "oklahoma", "--rule", "knock_limit=5", "--games", "5"],
     "cannot be set with oklahoma"),
    (["simulate", "gin", "--rule", "knock_card=second_deck", "--games", "5"], "applies only with oklahoma"),
    (["simulate", "gin", "--rule", "knock_limit=12", "--games", "5"], "knock_limit"),
    (["simulate", "gin", "--strategy", "knock:max=x", "--games", "5"], "not a number"),
])
def test_cli_bad_input_is_one_clean_line(capsys, args, what):
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2 and what in err and "Traceback" not in err


def _doc_key(column: str, docs: dict) -> str | None:
    """The documented name of a column: per-seat/team/game columns are documented with <s>, <t>, <k>."""
    import re

    name = re.sub(r"hw\d", "hw<k>", column)
    candidates = [name] + [re.sub(r"_\d+$", suffix, name) for suffix in ("_<s>", "_<t>")]
    return next((c for c in candidates if c in docs), None)


@pytest.mark.parametrize("variant", list(R.PRESETS))
def test_every_column_of_every_preset_is_documented(variant):
    rules = GAME.build_rules(variant)
    run = GAME.new_run(rules, rules.players, GAME.strategies(["simple"], rules.players))
    games, hands = run.play(1, 0, 4, True)
    docs = GAME.columns()
    for table, df in (("games", games), ("hands", hands)):
        missing = [c for c in df.columns if _doc_key(c, docs[table]) is None]
        assert not missing, (table, missing)
    # the standard schema is kept: every standard column is there with the standard meaning
    assert set(COLUMNS["games"]) - {"points_<s>", "hands_won_<s>", "final_<s>"} <= set(games.columns)
