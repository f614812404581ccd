"""Summary-only streaming aggregation: chunk aggregates merged in any cut give the summary that
``GameDef.summarize`` gives on the whole per-game table."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simcards
from simcards.errors import SimcardsError
from simcards.games import get_game
from simcards.stats import estimates as stats
from simcards.stats.aggregate import (
    Aggregator,
    CountPart,
    MeanPart,
    RatioPart,
    _rec_mean_ci,
    _rec_ratio_ci,
    from_jsonable,
    to_jsonable,
)
from simcards.stats.estimates import Estimate


def same_summary(a, b, path="summary"):
    if isinstance(a, dict):
        assert set(a) == set(b), path
        for k in a:
            same_summary(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            same_summary(x, y, f"{path}[{i}]")
    elif isinstance(a, Estimate):
        assert a.n == b.n, path
        for f in ("value", "low", "high"):
            x, y = getattr(a, f), getattr(b, f)
            assert (math.isnan(x) and math.isnan(y)) or math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-15), (path, f, x, y)
    else:
        assert a == b, (path, a, b)


GAMES = [("yaniv", 600), ("two-hundred", 1500), ("gin", 600)]


@pytest.fixture(scope="module", params=GAMES, ids=[g for g, _ in GAMES])
def played(request):
    game, n = request.param
    sim = simcards.simulate(game, games=n, seed=21, detail=False)
    return game, sim


@pytest.mark.parametrize("cut", [1, 97, 250, 10_000])
def test_chunk_aggregates_give_the_full_table_summary(played, cut):
    game, sim = played
    gdef = get_game(game)
    players = sim.meta["players"]
    agg = Aggregator(gdef, players)
    total = None
    for i in range(0, len(sim.games), cut):
        part = agg.partial(sim.games.iloc[i:i + cut])
        part = agg.load(json.loads(json.dumps(agg.dump(part))))  # what resume files hold
        total = agg.merge(total, part)
    same_summary(agg.finish(total), gdef.summarize(sim.games, players))


def test_merge_order_does_not_matter(played):
    game, sim = played
    gdef = get_game(game)
    agg = Aggregator(gdef, sim.meta["players"])
    parts = [agg.partial(sim.games.iloc[i:i + 113]) for i in range(0, len(sim.games), 113)]
    fwd = bwd = None
    for p in parts:
        fwd = agg.merge(fwd, p)
    for p in reversed(parts):
        bwd = agg.merge(bwd, p)
    assert fwd == bwd  # integer metrics add exactly


def test_summary_only_run_matches_the_table_run():
    full = simcards.simulate("two-hundred", games=3000, seed=8, detail=False)
    lean = simcards.simulate("two-hundred", games=3000, seed=8, summary_only=True, chunk=700)
    assert lean.games is None and lean.detail is None and lean.meta["summary_only"]
    same_summary(lean.summary, full.summary)
    rows = get_game("two-hundred").summary_rows(lean.summary)
    assert any("[" in text for _, text in rows)  # every rate still carries its interval


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 60), min_size=0, max_size=40), st.lists(st.integers(0, 9), min_size=0, max_size=40),
       st.integers(1, 7))
def test_parts_reproduce_the_stats_helpers(xs, ys, cut):
    n = min(len(xs), len(ys))
    a, b = np.array(xs[:n], dtype=np.int64), np.array(ys[:n], dtype=np.int64)
    mean, ratio, count = None, None, None
    for i in range(0, max(n, 1), cut):
        m = _rec_mean_ci(a[i:i + cut])
        r = _rec_ratio_ci(a[i:i + cut], b[i:i + cut])
        c = CountPart(int((a[i:i + cut] > 30).sum()), len(a[i:i + cut]))
        mean = m if mean is None else mean + m
        ratio = r if ratio is None else ratio + r
        count = c if count is None else count + c
    same_summary([mean.estimate(), ratio.estimate(), count.estimate()],
                 [stats.mean_ci(a), stats.ratio_ci(a, b), stats.wilson(int((a > 30).sum()), n)])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(1, 9)), min_size=2, max_size=60), st.integers(1, 7))
def test_a_rare_share_keeps_its_interval_inside_0_1_chunked_or_not(units, cut):
    """Thrown-in deals per deal, say: one event in thousands of units must not get a negative lower
    bound (the delta method's normal interval alone gives one), and the chunked parts agree."""
    a = np.array([min(x, y) for x, y in units], dtype=np.int64)
    b = np.array([y for _, y in units], dtype=np.int64)
    whole = stats.ratio_ci(a, b)
    assert 0.0 <= whole.low <= whole.value <= whole.high <= 1.0
    parts = [_rec_ratio_ci(a[i:i + cut], b[i:i + cut]) for i in range(0, len(a), cut)]
    merged = parts[0]
    for p in parts[1:]:
        merged = merged + p
    same_summary([merged.estimate()], [whole])


def test_ratio_bounds_follow_the_data():
    assert stats.ratio_bounds([0, 1, 2], [1, 1, 3]) == (0.0, 1.0)  # a share
    assert stats.ratio_bounds([0, 5], [1, 1]) == (0.0, math.inf)  # counts, not a share
    assert stats.ratio_bounds([-1, 5], [1, 1]) == (-math.inf, math.inf)  # margins can be negative
    one_event = np.zeros(5000, dtype=np.int64)
    one_event[17] = 1
    est = stats.ratio_ci(one_event, np.full(5000, 4))
    assert est.low == 0.0 and est.value == 1 / 20000


def test_float_metrics_round_trip_exactly():
    x = np.array([0.1, 0.2, 1e-3, 7.25])
    part = MeanPart(4, float(x.sum()), float((x**2).sum()))
    ratios = [RatioPart(1, 0.5, 1.5, 0.25, 2.25, 0.75), RatioPart(2, 1, 3, 1, 5, 2, 0.0, 1.0)]
    back = from_jsonable(json.loads(json.dumps(to_jsonable({"m": part, "l": ratios}))))
    assert back["m"] == part and back["l"] == ratios


class _DataDependentFloat:
    """A made-up game whose summary holds a plain float that depends on the data."""

    def summarize(self, games, players):
        return {"games": len(games), "mean": float(games["x"].mean()) if len(games) else 0.0}


class _ForeignEstimate:
    def summarize(self, games, players):
        return {"ci": Estimate(0.5, 0.4, 0.6, len(games))}


def test_unaggregatable_summaries_are_refused_not_approximated():
    df = pd.DataFrame({"x": [1, 2, 3, 4]})
    agg = Aggregator(_DataDependentFloat(), 2)
    a, b = agg.partial(df.iloc[:2]), agg.partial(df.iloc[2:])
    with pytest.raises(SimcardsError, match="differs between chunks"):
        agg.merge(a, b)
    with pytest.raises(SimcardsError, match="cannot be aggregated on the fly"):
        Aggregator(_ForeignEstimate(), 2).partial(df)
