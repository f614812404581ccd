"""The games' own summary rates keep their coverage near 0 (issue 16, item 1): a share of games
such as Gin's shutout rate or Two Hundred's hole rate is the Wilson interval widened to the exact
Clopper–Pearson one, on the whole table and in summary-only mode alike."""
import pytest

import simcards
from simcards.stats.estimates import exact_proportion, wilson


@pytest.mark.parametrize("game, key, column", [("two-hundred", "hole_rate", "hole"),
                                                ("gin", "shutout_rate", "shutout")])
def test_a_rare_game_share_holds_the_exact_interval(game, key, column):
    sim = simcards.simulate(game, games=60, seed=3)
    k, n = int(sim.games[column].sum()), len(sim.games)
    est = sim.summary[key]
    low, high = exact_proportion(k, n)
    assert est.low <= low + 1e-12 and est.high >= high - 1e-12
    assert est.high > est.low  # never zero width, even at 0 events
    w = wilson(k, n)
    assert est.low <= w.low + 1e-12 and est.high >= w.high - 1e-12
    streamed = simcards.simulate(game, games=60, seed=3, summary_only=True, chunk=17).summary[key]
    assert (streamed.low, streamed.high, streamed.value) == pytest.approx((est.low, est.high, est.value))
