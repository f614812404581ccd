"""Two Hundred through the API and the CLI: tables and columns, Parquet output, summaries with
confidence intervals, strategy specs and presets, clean errors, and statistical checks
(exact probabilities, strategy strength)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import simcards
from simcards.errors import SimcardsError
from simcards.games.two_hundred.game import COLUMNS, GAME
from simcards.stats.estimates import Estimate


def _documented(table: str, cols, sides: int = 2) -> None:
    """Every column is documented; every column not marked "(... only)" is present."""
    always, optional = set(), set()
    for c, meaning in COLUMNS[table].items():
        names = {c.replace("<t>", str(t)) for t in range(sides)} if "<t>" in c else {c}
        (optional if meaning.startswith("(") else always).update(names)
    assert always <= set(cols) <= always | optional, (set(cols) ^ always) - optional


def test_simulate_tables_and_columns(tmp_path):
    sim = simcards.simulate("two-hundred", games=300, seed=4, out=tmp_path, keep_detail=True)
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
    sim = simcards.simulate("two-hundred", games=200, seed=1, strategies="random",
                                rules={"min_bid": 100})
    d = sim.deals
    thrown = d["bid"].isna()
    assert thrown.any() and (~thrown).any()
    assert d.loc[thrown, "bidder"].isna().all() and d.loc[thrown, "trump"].isna().all()
    assert d.loc[thrown, "made"].isna().all()
    assert (d.loc[thrown, ["deal_score_0", "deal_score_1"]] == 0).all().all()
    assert sim.games["throw_ins"].sum() == thrown.sum()


def test_summary_has_intervals():
    sim = simcards.simulate("two-hundred", games=500, seed=2, detail=False)
    s = sim.summary
    for key in ("deals_per_game", "first_dealer_team_win_rate", "throw_in_rate", "contract_made_rate", "hole_rate"):
        assert isinstance(s[key], Estimate) and s[key].low - 1e-12 <= s[key].value <= s[key].high + 1e-12
    assert len(s["win_rate_by_team"]) == 2
    labels = [label for label, _ in GAME.summary_rows(s)]
    assert "contracts made" in labels


def test_strategy_specs_per_team_and_toml():
    strats = GAME.strategies(["simcards/data/strategies/two-hundred/aggressive.toml", "simcards/data/strategies/two-hundred/cautious.toml"], 4)
    assert [s.spec for s in strats][:2] == ["heuristic:aggr=1", "heuristic:aggr=0.65,raise=0"]
    assert strats[0] == strats[2] and strats[1] == strats[3]
    with pytest.raises(SimcardsError, match="out of range"):
        GAME.strategies(["heuristic:aggr=9"], 4)
    with pytest.raises(SimcardsError, match="exactly 4"):
        GAME.strategies(["random"] * 3, 4)


def test_errors_are_clean():
    with pytest.raises(SimcardsError, match="exactly 4 players"):
        simcards.simulate("two-hundred", games=10, players=5)
    with pytest.raises(SimcardsError, match="kitty=4.*two teams"):
        simcards.simulate("two-hundred", games=10, variant="cutthroat", rules={"kitty": 4})


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
    sim = simcards.simulate("two-hundred", games=6000, seed=8, strategies="random",
                                rules={"min_bid": 100}, detail=False)
    est = sim.summary["throw_in_rate"]
    assert est.n == 6000 and est.low <= 1 / 16 <= est.high, est


@pytest.mark.slow
def test_heuristic_beats_random():
    sim = simcards.simulate("two-hundred", games=2000, seed=5, strategies=["heuristic", "random"], detail=False)
    assert sim.summary["win_rate_by_team"][0].low > 0.9


@pytest.mark.slow
def test_aggressiveness_sweep_gives_an_answer():
    # "How aggressive should I bid?": against the default bidder, overbidding (aggr 1.3) loses
    # clearly and the default beats it; the same seeds are used for both (common random numbers).
    hi = simcards.simulate("two-hundred", games=3000, seed=6, strategies=["heuristic:aggr=1.3", "heuristic"],
                               detail=False).summary["win_rate_by_team"][0]
    assert hi.high < 0.4
    same = simcards.simulate("two-hundred", games=3000, seed=6, strategies=["heuristic", "heuristic"],
                                 detail=False).summary["win_rate_by_team"][0]
    assert same.low < 0.5 < same.high or abs(same.value - 0.5) < 0.05


# ----- the section-5 variants through the API and the CLI ---------------------------------------------
VARIANT_SIDES = {"standard": 2, "two-player": 2, "five-player": 5, "kitty": 2, "le-rough": 2, "cutthroat": 4,
                 "six-3x2": 3, "six-2x3": 2}


@pytest.mark.parametrize("preset", list(VARIANT_SIDES))
def test_variant_tables_and_summaries(preset):
    # Every preset runs with its own player count by default; the tables keep the standard
    # columns and add what the variant needs (a score per side, kitty points, the called card
    # and partner, the team that left); the summary gives every side's win rate with a 95% CI.
    sides = VARIANT_SIDES[preset]
    sim = simcards.simulate("two-hundred", variant=preset, games=150, seed=4, keep_detail=True)
    rules = GAME.build_rules(preset)
    assert sim.meta["players"] == rules.players
    _documented("games", sim.games.columns, sides)
    _documented("deals", sim.deals.columns, sides)
    assert sim.games["winner"].between(0, sides - 1).all()
    played = sim.deals["bid"].notna()
    taken = sim.deals[[f"taken_{t}" for t in range(sides)]].sum(axis=1)
    if rules.kitty:
        taken = taken + sim.deals["kitty_points"]
    assert (taken[played] == 100).all()  # section 7, kitty included
    assert ("kitty_points" in sim.deals) == bool(rules.kitty)
    assert ({"called", "partner"} <= set(sim.deals)) == (preset == "five-player")
    assert ("out_team" in sim.games) == (preset == "six-3x2")
    assert ("nt" in list(sim.deals["trump"].cat.categories)) == rules.no_trump
    s = sim.summary
    per_side = s["win_rate_by_seat"] if rules.individual else s["win_rate_by_team"]
    assert len(per_side) == sides and abs(sum(e.value for e in per_side) - 1) < 1e-9
    assert s["table"]["side_of_seat"] == [rules.side_of(p) for p in range(rules.seats)]
    assert all(e.low <= e.value <= e.high for e in per_side)
    labels = [label for label, _ in GAME.summary_rows(s)]
    assert sum(label.endswith(" wins") for label in labels) == sides + 1  # every side, and the first dealer('s team)
    if preset == "five-player":
        d = sim.deals[played]
        assert (d["partner"] != d["bidder"]).all() and d["called"].notna().all()


def test_variant_summary_only_matches_tables():
    # The summary-only mode aggregates the variants' summaries chunk by chunk to the same result.
    for preset in ("five-player", "six-3x2", "le-rough"):
        full = simcards.simulate("two-hundred", variant=preset, games=400, seed=2, detail=False, chunk=150)
        streamed = simcards.simulate("two-hundred", variant=preset, games=400, seed=2, summary_only=True, chunk=150)
        assert json.loads(json.dumps(full.summary_dict(), default=str))["games"] == streamed.summary["games"]
        for key, est in full.summary.items():
            if isinstance(est, Estimate):
                assert streamed.summary[key].value == pytest.approx(est.value), key


def test_cli_variants_simulate_and_replay(capsys):
    from simcards.cli import app, main

    runner = CliRunner()
    res = runner.invoke(app, ["variants", "two-hundred"], env={"COLUMNS": "250"})
    assert res.exit_code == 0
    for name in VARIANT_SIDES:
        assert name in res.output
    for option in ("min_bid", "bid_step", "target", "hole", "no_trump", "kitty", "deck", "partner_shares_loss",
                   "cutthroat_fail", "dealer_bids_after_passes", "mode"):
        assert option in res.output
    res = runner.invoke(app, ["simulate", "two-hundred", "--variant", "five-player", "-n", "200", "--no-progress"])
    assert res.exit_code == 0 and "seat 4 wins" in res.output, res.output
    res = runner.invoke(app, ["simulate", "two-hundred", "--variant", "six-3x2", "-n", "100", "--no-progress",
                              "--rule", "hole=-100"], env={"COLUMNS": "250"})
    assert res.exit_code == 0 and "team 2 (seats 2,5) wins" in res.output and "left at the hole" in res.output
    res = runner.invoke(app, ["replay", "two-hundred", "--variant", "two-player", "--seed", "2"])
    assert res.exit_code == 0 and "piles (top last)" in res.output and "turns up" in res.output, res.output
    res = runner.invoke(app, ["replay", "two-hundred", "--variant", "five-player", "--seed", "2"])
    assert res.exit_code == 0 and "the secret partner is seat" in res.output
    res = runner.invoke(app, ["replay", "two-hundred", "--variant", "le-rough", "--seed", "1"])
    assert res.exit_code == 0 and "takes the kitty and buries" in res.output
    capsys.readouterr()
    for args in (["--variant", "five-player", "--players", "4"], ["--variant", "cutthroat", "--rule", "kitty=4"],
                 ["--rule", "deck=41"], ["--variant", "two-player", "--rule", "deck=40"]):
        code = main(["simulate", "two-hundred", "-n", "10", "--no-progress", *args])
        err = capsys.readouterr().err
        assert code == 2 and err.startswith("error: ") and len(err.strip().splitlines()) == 1, (args, err)


@pytest.mark.slow
@pytest.mark.parametrize("preset,overrides,p", [
    ("two-player", {}, 1 / 4),     # two bidders (T-V-2P)
    ("cutthroat", {}, 1 / 16),
    ("five-player", {}, 1 / 32),   # five bidders (T-V-5P)
    ("six-2x3", {}, 1 / 64),       # six bidders (T-V-6P)
    ("le-rough", {}, 1 / 8),       # the dealer may not bid after three passes (T-V-ROUGH)
    ("standard", {"dealer_bids_after_passes": "false"}, 1 / 8),
])
def test_exact_throw_in_probabilities(preset, overrides, p):
    # With only the bid 100 allowed a random player passes with probability 1/2, so a deal is
    # thrown in with probability (1/2)^bidders, or (1/2)^(bidders - 1) when the dealer may not bid
    # after everyone else passed (T-BID-5, T-V-ROUGH). Deals are independent.
    sim = simcards.simulate("two-hundred", variant=preset, games=5000, seed=8, strategies="random",
                                rules={"min_bid": 100, **overrides}, detail=False)
    est = sim.summary["throw_in_rate"]
    assert est.low <= p <= est.high, (preset, est)


@pytest.mark.slow
@pytest.mark.parametrize("preset,expected", [("kitty", 10.0), ("le-rough", 100 / 9)])
def test_random_kitty_holds_its_share_of_points(preset, expected):
    # T-V-KITTY / T-V-ROUGH: a random bidder buries a uniformly random 4 of its 13 (or 12) cards,
    # which are a uniformly random part of the deck, so the kitty holds 4/40 (4/36) of the 100
    # points on average: exactly 10 (11.1).
    from simcards.stats.estimates import mean_ci

    sim = simcards.simulate("two-hundred", variant=preset, games=4000, seed=3, strategies="random")
    est = mean_ci(sim.deals.loc[sim.deals["bid"].notna(), "kitty_points"].to_numpy(float))
    assert est.low <= expected <= est.high, est


@pytest.mark.slow
def test_random_called_partner_uniform_over_the_others():
    # T-V-5P: a random bidder calls one of the 32 cards it lacks uniformly; each other player
    # holds 8 of them, so the partner sits 1, 2, 3 or 4 seats to its left with probability 1/4.
    sim = simcards.simulate("two-hundred", variant="five-player", games=4000, seed=6, strategies="random")
    d = sim.deals[sim.deals["bid"].notna()]
    rel = ((d["partner"].astype(int) - d["bidder"].astype(int)) % 5).to_numpy()
    counts = np.bincount(rel, minlength=5)
    assert counts[0] == 0
    expected = len(rel) / 4
    chi2 = float(((counts[1:] - expected) ** 2 / expected).sum())
    assert chi2 < 16.27  # 3 degrees of freedom, p = 0.001


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(VARIANT_SIDES))
def test_heuristic_beats_random_in_every_variant(preset):
    rules = GAME.build_rules(preset)
    if rules.individual:
        specs = ["heuristic"] + ["random"] * (rules.players - 1)
    else:
        specs = ["heuristic", "random"] if rules.sides == 2 else ["heuristic", "random", "random"]
    s = simcards.simulate("two-hundred", variant=preset, games=600, seed=5, strategies=specs, detail=False).summary
    won = (s["win_rate_by_seat"] if rules.individual else s["win_rate_by_team"])[0]
    assert won.low > min(0.9, 1.5 / rules.sides), won  # well above its fair share (five-player: 41%, fair 20%)


def test_compare_across_tables_keeps_each_fair_share():
    # Studies take the sides from the variant: the first dealer's edge is the win rate minus
    # 1/2 in the standard game and minus 1/5 in five-player, and their difference is the
    # difference of the edges.
    from simcards.studies import compare

    res = compare("two-hundred", ["standard", "five-player"], games=300, seed=3, skill=False)
    est, diffs = res.tables["estimates"], res.tables["differences"]
    edge = {v: float(est[(est["variant"] == v) & (est["metric"] == "starter_edge")]["value"].iloc[0])
            for v in ("standard", "five-player")}
    diff = float(diffs[(diffs["variant"] == "five-player") & (diffs["metric"] == "starter_edge")]["diff"].iloc[0])
    assert diff == pytest.approx(edge["five-player"] - edge["standard"])
    assert len(est[(est["variant"] == "five-player") & est["metric"].str.startswith("win_seat_")]) == 5


def test_best_trump_is_the_best_of_the_four_estimates():
    """``best_trump`` looks each suit's value up once and adds in another order: with a credit that
    sums exactly it gives, bit for bit, the suit and value of the best of ``estimate``'s four
    (lowest suit on ties); other credits take the four estimates themselves."""
    from simcards.games.two_hundred import layout as L
    from simcards.games.two_hundred.policies import best_trump, estimate, exact_credit

    bits = np.array([b for b in range(64) if int(L.DECK_MASK_36) >> b & 1])
    rng = np.random.default_rng(11)
    credits = [0.0, 15.0, 18.0, 10.5, 15 * (6 / 9.0), 13.3, 15 * (12 / 9.0)]
    assert [exact_credit(c) for c in credits[:4]] == [True] * 4 and not exact_credit(13.3)
    for _ in range(3000):
        hand = np.int64(0)
        for b in rng.choice(bits, size=int(rng.integers(1, 13)), replace=False):
            hand |= np.int64(1) << int(b)
        for credit in credits:
            values = [estimate(hand, t, credit) for t in range(4)]
            want = int(np.argmax(values))
            assert best_trump(hand, credit) == (want, values[want]), (hex(hand), credit)
