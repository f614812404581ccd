"""``benchmarks/strength.py --paired BASE``: each panel row also plays BASE on the same deals,
lineups and seats and gives the win rate minus BASE's, paired by deal. Played with plain Yaniv
players (the plain kernel only), on a few deals."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def strength():
    spec = importlib.util.spec_from_file_location("strength", ROOT / "benchmarks" / "strength.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_player_paired_with_itself_differs_by_exactly_nothing(strength):
    rows = strength.table("yaniv", None, 2, "pair", 40, 5, 1, strongest="threshold:call=3",
                          members=["threshold", "bold"], base="threshold:call=3")
    for r in rows:
        assert r["diff"] == 0.0 and r["diff_low"] == 0.0 and r["diff_high"] == 0.0
        assert r["base_win_rate"] == pytest.approx(r["win_rate"])


def test_the_paired_difference_is_the_difference_of_the_two_win_rates_on_the_same_deals(strength, capsys):
    rows = strength.table("yaniv", None, 4, "field", 40, 5, 1, strongest="threshold:call=1",
                          members=["threshold"], base="threshold:call=3")
    r = rows[0]
    assert r["base"] == "threshold:call=3"
    assert r["diff"] == pytest.approx(r["win_rate"] - r["base_win_rate"], abs=1e-12)
    assert r["diff_low"] < r["diff"] < r["diff_high"]
    assert np.isfinite(r["cost_ratio"]) and r["cost_ratio"] > 0
    strength.show("t", rows)
    assert "minus threshold:call=3" in capsys.readouterr().out
