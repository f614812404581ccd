"""The Two Hundred summary shown to a user never prints "nan%" (issue 19, item 16)."""

from __future__ import annotations

import simcards
from simcards.cli import main
from simcards.games import get_game


def test_no_contract_at_all_is_said_not_nan(capsys):
    """heuristic:aggr=0 never bids, so every deal is thrown in (T-BID-5) until the deal cap: there
    is no contract to count as made or in no trump."""
    sim = simcards.simulate("two-hundred", games=3, seed=1, strategies="heuristic:aggr=0", variant="le-rough")
    assert sim.summary["capped_games"] == 3
    rows = dict(get_game("two-hundred").summary_rows(sim.summary))
    assert rows["contracts made"] == "- (no contracts: every deal thrown in)"
    assert rows["contracts in no trump (scores doubled)"] == "- (no contracts: every deal thrown in)"
    assert not [v for v in rows.values() if "nan" in v]
    assert main(["simulate", "two-hundred", "--games", "3", "--strategy", "heuristic:aggr=0", "--no-progress"]) == 0
    assert "nan" not in capsys.readouterr().out
