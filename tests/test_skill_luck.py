"""Skill versus luck per variant in ``compare`` (issue 18, item 2): match-win probabilities, the games a
match needs, the variance shares of players, seats and luck, and their paired differences.

High card (tests/toygame, rules H-…) is the planted case: `greedy` beats `random`, and the
first-to-3 game (H-END-1 target 3, preset standard) lets that per-round edge add up, where `quick`
(one round decides) does not — so standard must show more skill."""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest

import simcards.games
from simcards.stats.equilibrium import match_win_many, match_win_probability, variance_shares, win_variance_shares
from simcards.studies import compare
from simcards.studies.common import pair_lineups
from tests.contract.registry import TEST_GAMES

compare_module = importlib.import_module("simcards.studies.compare")


@pytest.fixture(autouse=True)
def _high_card(monkeypatch):
    monkeypatch.setitem(simcards.games.GAMES, "high-card", TEST_GAMES["high-card"])


def _rows(res, variant: str) -> dict:
    est = res.tables["estimates"]
    sub = est[est["variant"] == variant].set_index("metric")
    return {m: (sub.at[m, "value"], sub.at[m, "low"], sub.at[m, "high"]) for m in sub.index}


def test_shares_from_sums_equal_the_two_way_decomposition_of_the_per_seat_results():
    """win_variance_shares (sums only) is variance_shares on the per-seat 0/1 results, for 2 and 3
    sides of seat-rotated lineups, with a planted skill and seat effect."""
    rng = np.random.default_rng(1)
    for k in (2, 3):
        lineups = pair_lineups(k)
        deals = 400
        y, strat, seat = [], [], []
        sums = np.zeros(3 + k)
        for _ in range(deals):
            sums[0] += 1
            for lu in lineups:
                weight = np.array([2.0 if lu[s] == 0 else 1.0 for s in range(k)]) * (1 + 0.5 * (np.arange(k) == 0))
                winner = rng.choice(k, p=weight / weight.sum())
                for s in range(k):
                    won = float(s == winner)
                    y.append(won)
                    strat.append(lu[s])
                    seat.append(s)
                    sums[1 + lu[s]] += won
                    sums[3 + s] += won
        want = variance_shares(np.array(y), np.array(strat), np.array(seat))
        strong_seats = sum(side == 0 for lu in lineups for side in lu)
        got = win_variance_shares(sums[0], sums[1], sums[2], sums[3:], len(lineups), strong_seats)
        for name in ("skill", "seat", "luck", "skill_share", "seat_share", "luck_share"):
            assert float(got[name]) == pytest.approx(want[name], rel=1e-9, abs=1e-12), (k, name)
        assert want["skill_share"] > 0.01 and want["seat_share"] > 0.001


def test_match_win_many_is_match_win_probability():
    ps = np.array([0.0, 0.3, 0.5, 0.61, 0.9, 1.0])
    for n in (1, 4, 5, 10, 25):
        assert match_win_many(ps, n) == pytest.approx([match_win_probability(p, n) for p in ps], abs=1e-12)


def test_compare_finds_a_planted_skill_difference():
    res = compare("high-card", ["quick", "standard"], strong="greedy", weak="random", games=600, seed=3,
                  threads=1, summary_only=True)
    quick, std = _rows(res, "quick"), _rows(res, "standard")
    for r in (quick, std):
        assert r["skill_share"][1] > 0  # the players explain part of the variance (interval above 0)
        assert r["match_win_1"] == pytest.approx(r["skill_win_rate"])  # no capped games: score = win rate
        wins = [r[f"match_win_{n}"][0] for n in (1, 5, 10, 25)]
        assert wins == sorted(wins) and wins[0] > 0.5  # longer matches favour the better player
        value, low, high = r["games_to_be_sure"]
        assert math.isfinite(high) and low <= value <= high and value % 2 == 1
        assert sum(r[f"{p}_share"][0] for p in ("skill", "seat", "luck")) == pytest.approx(1.0)
        for m in ("match_win_5", "skill_share", "seat_share", "luck_share"):
            assert r[m][1] <= r[m][0] <= r[m][2]
    assert std["skill_share"][1] > quick["skill_share"][2]  # first to 3 rewards skill more
    assert std["games_to_be_sure"][2] < quick["games_to_be_sure"][1]
    d = res.tables["differences"].set_index("metric")
    for m in ("skill_share", "match_win_5", "match_win_10"):
        assert d.at[m, "diff"] > 0 and d.at[m, "low"] > 0 and d.at[m, "significant"], m
    assert d.at["skill_share", "paired"]  # the same deck, so the same deals


def test_no_skill_difference_gives_intervals_around_zero():
    """The same strategy on both sides: on common deals each lineup's game is its mirror's, so the
    'stronger' wins exactly half, no match length helps and skill explains nothing."""
    res = compare("high-card", ["quick", "standard"], strong="random", weak="random", games=300, seed=4,
                  threads=1, summary_only=True)
    for v in ("quick", "standard"):
        r = _rows(res, v)
        for n in (1, 5, 10, 25):
            assert r[f"match_win_{n}"][1] <= 0.5 <= r[f"match_win_{n}"][2]
        assert r["games_to_be_sure"][0] == math.inf
        assert r["skill_share"][1] == 0.0
    d = res.tables["differences"].set_index("metric")
    for m in ("skill_share", "match_win_5", "match_win_25"):
        assert d.at[m, "low"] <= 0 <= d.at[m, "high"] and not d.at[m, "significant"], m


def test_bootstrap_of_two_lucky_variants_covers_zero():
    """Noisy no-skill data (each seat wins a fair coin, whoever sits there): the skill share's
    interval reaches 0 and the paired difference of two such variants covers 0."""
    rng = np.random.default_rng(7)
    runs = []
    for name in ("a", "b"):
        v = compare_module._Variant(name, None, [], (), "s", "w", pair_lineups(2))
        for first in range(0, 3000, 1000):
            seat_won = np.zeros((1000, 2), np.int64)
            won = np.zeros(1000, np.int64)
            for lu in v.lineups:
                w = rng.integers(0, 2, 1000)  # the winning seat, whoever sits there
                seat_won[np.arange(1000), w] += 1
                won += np.array(lu)[w] == 0
            sk = compare_module.Matchup(won / 2, won, (2 - won) / 2, np.zeros(1000), 0, 0, 0, 0.5, 2, seat_won)
            compare_module._add_groups(v, sk, first, 1000)
        runs.append(v)
    compare_module._bootstrap(runs, 3000, seed=1)
    for v in runs:
        share = compare_module._percentile(v, "skill_share")
        assert share.low == 0.0 and share.high > 0
    diff = compare_module._boot_diff(runs[0], runs[1], "skill_share", 1.96)
    assert diff.low < 0 < diff.high or diff.low == diff.high == 0
    diff = compare_module._boot_diff(runs[0], runs[1], "match_win_10", 1.96)
    assert diff.low < 0 < diff.high


def test_skill_rows_do_not_depend_on_blocks(monkeypatch):
    kw = dict(strong="greedy", weak="random", games=300, seed=5, summary_only=True)
    one = compare("high-card", ["standard", "quick"], threads=1, **kw)
    monkeypatch.setattr("simcards.studies.common.COMPARE_BLOCK", 101)
    other = compare("high-card", ["standard", "quick"], threads=1, **kw)  # (NUMBA_NUM_THREADS=1 in the test lane)
    for table in ("estimates", "differences"):
        assert one.tables[table].equals(other.tables[table]), table


def test_cli_shows_the_skill_rows_at_80_columns(capsys, monkeypatch):
    from rich.console import Console

    import simcards.cli.common as cs  # the consoles the commands print to
    from simcards.cli import main

    monkeypatch.setattr(cs, "out", Console(width=80))
    code = main(["compare", "high-card", "--variant", "quick,standard", "-n", "60", "--strong", "greedy",
                 "--weak", "random", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80
    for words in ("5-game match", "variance share:", "players", "luck", "95% sure"):
        assert words in out, words


def test_games_to_be_sure_for_a_small_edge():
    """A 51% player needs thousands of games (the binomial coefficients of such lengths overflow a
    float: the computation must not)."""
    from simcards.stats.equilibrium import games_to_be_sure

    n = games_to_be_sure(0.51)
    assert 6000 < n < 7500  # normal approximation: (1.645 / (2 × 0.01))² ≈ 6,765
    assert match_win_probability(0.51, n) >= 0.95 > match_win_probability(0.51, n - 2)
    assert games_to_be_sure(0.5001) is None  # past 100,001 games


def test_report_answer_says_where_skill_explains_most():
    from simcards.report.build import compare_answer, compare_tables

    res = compare("high-card", ["quick", "standard"], strong="greedy", weak="random", games=300, seed=3,
                  threads=1, summary_only=True)
    ans = compare_answer(res)
    row = next(r for r in ans["table"].rows if r[0].startswith("Skill explains most"))
    assert row[1] == "standard" and row[4] == "yes"
    text = " ".join(ans["lead"])
    assert "Skill explains most: **standard**" in text
    assert "10-game matches" in text and "95% sure" in text and "in quick it wins" in text
    none = compare("high-card", ["quick", "standard"], strong="random", weak="random", games=100, seed=3,
                   threads=1, summary_only=True)
    per_variant = compare_tables(none)[0].rows
    assert next(r for r in per_variant if r[0] == "games to win a match 95% sure")[1:] == ["∞ [∞, ∞]"] * 2
    # the same strategy on both sides plays identically (issue 28, item 1): said, and no skill sentence
    lead = " ".join(compare_answer(none)["lead"])
    assert "random plays exactly like random in quick, standard" in lead and "Skill against luck" not in lead
