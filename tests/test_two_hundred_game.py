"""Two Hundred through the API and the CLI: tables and columns, Parquet output, summaries with
confidence intervals, strategy specs and presets, clean errors, and statistical checks
(exact probabilities, strategy strength)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

import simcards
from simcards.errors import SimcardsError
from simcards.games.two_hundred.game import COLUMNS, GAME
from simcards.stats import Estimate


def _documented(table: str, cols, sides: int = 2) -> None:
    """Every column is documented; every column not marked "(... only)" is present."""
    always, optional = set(), set()
    for c, meaning in COLUMNS[table].items():
        names = {c.replace("<t>", str(t)) for t in range(sides)} if "<t>" in c else {c}
        (optional if meaning.startswith("(") else always).update(names)
    assert always <= set(cols) <= always | optional, (set(cols) ^ always) - optional


def test_simulate_tables_and_columns(tmp_path):
    sim = simcards.api.simulate("two-hundred", games=300, seed=4, out=tmp_path, keep_detail=True)
    _documented("games", sim.games.columns)
    _documented("deals", sim.deals.columns)
    assert sim.games["deals"].sum() == len(sim.deals)
    assert (sim.games["winner"].isin([0, 1])).all()
    played = sim.deals["bid"].notna()
    assert ((sim.deals.loc[played, "taken_0"] + sim.deals.loc[played, "taken_1"]) == 100).all()
    assert (sim.deals.loc[played, "contract_team"] == sim.deals.loc[played, "bidder"] % 2).all()
    back = pd.read_parquet(tmp_path / "deals.parquet")
    assert len(back) == len(sim.deals) and list(back.columns) == list(sim.deals.columns)
    assert json.loads((tmp_path / "summary.json").read_text())["meta"]["game"] == "two-hundred"
    assert sim.meta["deals_per_second"] > 0


def test_thrown_in_deals_have_null_bids():
    # T-BID-5 in the tables: bid, bidder, trump, made are null; nobody scores; counted per game.
    sim = simcards.api.simulate("two-hundred", games=200, seed=1, strategies="random",
                                rules={"min_bid": 100})
    d = sim.deals
    thrown = d["bid"].isna()
    assert thrown.any() and (~thrown).any()
    assert d.loc[thrown, "bidder"].isna().all() and d.loc[thrown, "trump"].isna().all()
    assert d.loc[thrown, "made"].isna().all()
    assert (d.loc[thrown, ["deal_score_0", "deal_score_1"]] == 0).all().all()
    assert sim.games["throw_ins"].sum() == thrown.sum()


def test_summary_has_intervals():
    sim = simcards.api.simulate("two-hundred", games=500, seed=2, detail=False)
    s = sim.summary
    for key in ("deals_per_game", "first_dealer_team_win_rate", "throw_in_rate", "contract_made_rate", "hole_rate"):
        assert isinstance(s[key], Estimate) and s[key].low - 1e-12 <= s[key].value <= s[key].high + 1e-12
    assert len(s["win_rate_by_team"]) == 2
    labels = [label for label, _ in GAME.summary_rows(s)]
    assert "contracts made" in labels


def test_strategy_specs_per_team_and_toml():
    strats = GAME.strategies(["strategies/two-hundred/aggressive.toml", "strategies/two-hundred/cautious.toml"], 4)
    assert [s.spec for s in strats][:2] == ["heuristic:aggr=1", "heuristic:aggr=0.65,raise=0"]
    assert strats[0] == strats[2] and strats[1] == strats[3]
    with pytest.raises(SimcardsError, match="out of range"):
        GAME.strategies(["heuristic:aggr=9"], 4)
    with pytest.raises(SimcardsError, match="exactly 4"):
        GAME.strategies(["random"] * 3, 4)


def test_errors_are_clean():
    with pytest.raises(SimcardsError, match="exactly 4 players"):
        simcards.api.simulate("two-hundred", games=10, players=5)
    with pytest.raises(SimcardsError, match="kitty=4.*two teams"):
        simcards.api.simulate("two-hundred", games=10, variant="cutthroat", rules={"kitty": 4})


def test_cli_simulate_replay_variants():
    from simcards.cli import app

    runner = CliRunner()
    res = runner.invoke(app, ["simulate", "two-hundred", "-n", "300", "--seed", "3", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "team 0" in res.output and "contracts made" in res.output
    res = runner.invoke(app, ["replay", "two-hundred", "--seed", "3", "--game", "1"])
    assert res.exit_code == 0, res.output
    assert "auction:" in res.output and "trick 9:" in res.output and "wins" in res.output
    res = runner.invoke(app, ["variants", "two-hundred"])
    assert res.exit_code == 0 and "le-rough" in res.output and "fail_score" in res.output
    res = runner.invoke(app, ["simulate", "two-hundred", "-n", "10", "--players", "3"])
    assert res.exit_code != 0 and "Traceback" not in res.output


# ----- statistics -------------------------------------------------------------------------------
@pytest.mark.slow
def test_exact_throw_in_probability():
    # With only the bid 100 allowed, a random player passes with probability 1/2, and a deal is
    # thrown in exactly when all four pass: probability 1/16 (T-BID-5). Deals are independent.
    sim = simcards.api.simulate("two-hundred", games=6000, seed=8, strategies="random",
                                rules={"min_bid": 100}, detail=False)
    est = sim.summary["throw_in_rate"]
    assert est.n == 6000 and est.low <= 1 / 16 <= est.high, est


@pytest.mark.slow
def test_heuristic_beats_random():
    sim = simcards.api.simulate("two-hundred", games=2000, seed=5, strategies=["heuristic", "random"], detail=False)
    assert sim.summary["win_rate_by_team"][0].low > 0.9


@pytest.mark.slow
def test_aggressiveness_sweep_gives_an_answer():
    # "How aggressive should I bid?": against the default bidder, overbidding (aggr 1.3) loses
    # clearly and the default beats it; the same seeds are used for both (common random numbers).
    hi = simcards.api.simulate("two-hundred", games=3000, seed=6, strategies=["heuristic:aggr=1.3", "heuristic"],
                               detail=False).summary["win_rate_by_team"][0]
    assert hi.high < 0.4
    same = simcards.api.simulate("two-hundred", games=3000, seed=6, strategies=["heuristic", "heuristic"],
                                 detail=False).summary["win_rate_by_team"][0]
    assert same.low < 0.5 < same.high or abs(same.value - 0.5) < 0.05
