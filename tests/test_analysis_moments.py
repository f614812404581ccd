"""Issue 9: the streaming moments behind summary-only studies give the intervals of the array
functions (simcards.stats, analysis.stats) — on any data, however it is cut into blocks."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simcards.stats import differences as astats
from simcards.stats.estimates import mean_ci, proportion_ci, ratio_bounds, ratio_ci, widen_for_counts
from simcards.stats.moments import Moments
from simcards.studies.common import unit_mean

values = st.lists(st.tuples(st.integers(0, 40), st.integers(1, 9), st.integers(0, 40), st.integers(1, 9),
                            st.integers(0, 1), st.integers(0, 1), st.integers(0, 4)), min_size=3, max_size=60)


def _close(a, b):
    for x, y in ((a.value, b.value), (a.low, b.low), (a.high, b.high)):
        assert x == pytest.approx(y, rel=1e-9, abs=1e-12, nan_ok=True)
    assert a.n == b.n


def _moments(rows, cut):
    cols = np.array(rows, dtype=np.int64)
    names = ("a1", "b1", "a2", "b2", "p1", "p2", "f")
    parts = [Moments.of({k: cols[lo:hi, i] for i, k in enumerate(names)})
             for lo, hi in zip([0, *cut], [*cut, len(rows)])]
    return cols, sum(parts[1:], parts[0])


@given(values, st.data())
def test_moments_equal_the_array_intervals(rows, data):
    cut = sorted(set(data.draw(st.lists(st.integers(1, len(rows) - 1), max_size=3))))
    x, mo = _moments(rows, cut)
    a1, b1, a2, b2, p1, p2, f = (x[:, i] for i in range(7))
    assert mo.n == len(rows)
    _close(mo.mean("a1"), mean_ci(a1))
    # the caller knows the bounds (and that the columns are whole counts)
    _close(widen_for_counts(mo.ratio("a1", "b1"), a1.sum(), b1.sum(), *ratio_bounds(a1, b1)), ratio_ci(a1, b1))
    _close(mo.proportion("p1"), proportion_ci(p1.sum(), p1.size))
    _close(mo.paired_diff("a1", "a2"), astats.paired_diff(a1, a2))
    _close(mo.welch_diff("a1", "a2"), astats.welch_diff(a1, a2))
    _close(mo.paired_ratio_diff("a1", "b1", "a2", "b2"), astats.paired_ratio_diff(a1, b1, a2, b2))
    _close(mo.ratio_diff("a1", "b1", "a2", "b2"), astats.ratio_diff(a1, b1, a2, b2))
    _close(mo.newcombe_diff("p1", "p2"), astats.newcombe_diff(p1.sum(), p1.size, p2.sum(), p2.size))
    _close(mo.fraction_mean("f", 4), unit_mean(f / 4))
    assert mo.all_equal("b1", 1) == bool(np.all(b1 == 1))


def test_fraction_mean_at_the_boundary_matches_unit_mean():
    mo = Moments.of({"f": np.full(50, 3)})
    _close(mo.fraction_mean("f", 3), unit_mean(np.ones(50)))


def test_moments_are_exact_for_huge_counts():
    """Sums stay exact Python integers: a block whose products would overflow int64 is summed exactly."""
    big = np.array([3_000_000_000, 1, 2], dtype=np.int64)
    mo = Moments.of({"x": big})
    assert mo.cross("x", "x") == sum(int(v) ** 2 for v in big)
    assert (mo + mo).sum("x") == 2 * sum(int(v) for v in big)


def test_moments_refuse_fractions_and_mismatched_columns():
    with pytest.raises(ValueError, match="whole numbers"):
        Moments.of({"x": np.array([0.5, 1.0])})
    with pytest.raises(ValueError, match="different columns"):
        Moments.of({"x": np.ones(2)}) + Moments.of({"y": np.ones(2)})
