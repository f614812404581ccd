"""Plots: the data steps exactly, the drawing steps produce real PNG and SVG files."""

import numpy as np
import pandas as pd
import pytest

from simcards.report import plots


def test_bars_data_exact():
    est = pd.DataFrame({"variant": ["a", "b", "a"], "metric": ["m", "m", "other"], "value": [0.5, 0.25, 9.0],
                        "low": [0.4, 0.2, 8.0], "high": [0.7, 0.3, 10.0]})
    d = plots.bars_data(est, "m")
    assert d["label"].tolist() == ["a", "b"]
    assert np.allclose(d["value"], [0.5, 0.25])
    assert np.allclose(d["err_low"], [0.1, 0.05])
    assert np.allclose(d["err_high"], [0.2, 0.05])
    with pytest.raises(ValueError):
        plots.bars_data(est, "missing")


def test_ci_line_data_sorts_and_renames():
    tab = pd.DataFrame({"call": [3, 1, 2], "win_rate": [0.3, 0.1, 0.2], "win_rate_low": [0.25, 0.05, 0.15],
                        "win_rate_high": [0.35, 0.15, 0.25]})
    d = plots.ci_line_data(tab, "call")
    assert d["x"].tolist() == [1, 2, 3]
    assert d["y"].tolist() == [0.1, 0.2, 0.3]
    assert d["low"].tolist() == [0.05, 0.15, 0.25] and d["series"].tolist() == ["", "", ""]
    tab["keep"] = [0, 0, 1]
    d2 = plots.ci_line_data(tab, "call", series="keep")
    assert d2[["series", "x"]].values.tolist() == [[0, 1], [0, 3], [1, 2]]


def test_heatmap_data_keeps_first_appearance_order():
    tab = pd.DataFrame({"a": [2, 2, 1, 1], "b": ["y", "x", "y", "x"], "v": [1.0, 2.0, 3.0, 4.0]})
    m = plots.heatmap_data(tab, "a", "b", "v")
    assert m.index.tolist() == [2, 1] and m.columns.tolist() == ["y", "x"]
    assert m.to_numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_hist_data_exact():
    d = plots.hist_data([1, 2, 2, 5], width=2)
    assert d["left"].tolist() == [0, 2, 4]
    assert d["right"].tolist() == [2, 4, 6]
    assert d["count"].tolist() == [1, 2, 1]
    assert np.allclose(d["share"], [0.25, 0.5, 0.25])
    d2 = plots.hist_data([1, 1, 3], 1, series=["a", "b", "b"])
    assert d2.query("series == 'a'")["count"].tolist() == [1, 0, 0]
    assert d2.query("series == 'b'")["count"].tolist() == [1, 0, 1]
    assert plots.hist_data([], 1).empty
    counted = plots.hist_data([1, 2, 5], width=2, weights=[1, 2, 1])  # a table of value counts
    pd.testing.assert_frame_equal(counted, d)


def test_drawing_steps_write_png_and_svg(tmp_path):
    import matplotlib.pyplot as plt

    bars = pd.DataFrame({"label": ["a", "b"], "value": [0.5, 0.4], "err_low": [0.1, 0.1], "err_high": [0.1, 0.1]})
    ax = plots.draw_bars(bars, title="t", pct=True, reference=0.5)
    assert len(ax.patches) == 2
    paths = plots.save(ax, tmp_path / "bars")
    assert [p.suffix for p in paths] == [".png", ".svg"]
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in paths[1].read_bytes()[:500]
    fig, axes = plt.subplots(1, 3)  # drawing into a given ax
    line = pd.DataFrame({"x": [1, 2], "y": [0.2, 0.3], "low": [0.1, 0.2], "high": [0.3, 0.4], "series": ["", ""]})
    assert plots.draw_ci_line(line, ax=axes[0], reference=0.25, best=2) is axes[0]
    series = line.assign(series=[2.0, 2.0])  # a sweep value as the legend shows it: 2, not 2.0
    assert [t.get_text() for t in plots.draw_ci_line(series).get_legend().get_texts()] == ["2"]
    hm = pd.DataFrame([[0.5, np.nan], [0.3, 0.6]], index=["r1", "r2"], columns=[15.0, 0.25])
    assert plots.draw_heatmap(hm, ax=axes[1], center=0.5) is axes[1]
    assert [t.get_text() for t in axes[1].get_xticklabels()] == ["15", "0.25"]
    assert plots.draw_hist(plots.hist_data([1, 2, 2]), ax=axes[2]) is axes[2]
    assert all(p.exists() for p in plots.save(fig, tmp_path / "sub" / "grid"))


def test_the_same_figure_writes_the_same_bytes(tmp_path):
    # a report regenerated on the same seeds must not rewrite its figures (the SVG's element ids
    # were random: every regeneration changed every SVG)
    line = pd.DataFrame({"x": [1, 2], "y": [0.2, 0.3], "low": [0.1, 0.2], "high": [0.3, 0.4], "series": ["", ""]})
    first = plots.save(plots.draw_ci_line(line, reference=0.25), tmp_path / "a")
    second = plots.save(plots.draw_ci_line(line, reference=0.25), tmp_path / "b")
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]


def _fake_tune():
    from simcards.studies import StudyResult

    tab = pd.DataFrame({"call": [1.0, 2.0, 3.0], "win_rate": [0.45, 0.55, 0.5], "win_rate_low": [0.4, 0.5, 0.45],
                        "win_rate_high": [0.5, 0.6, 0.55], "fair_share": [0.5] * 3, "margin": [-3.0, 4.0, 0.5],
                        "margin_low": [-5.0, 2.0, -1.5], "margin_high": [-1.0, 6.0, 2.5]})
    return StudyResult("tune", "t", {"tune": tab}, {"best": {"call": 2.0}},
                       meta={"params": {"call": [1.0, 2.0, 3.0]}, "against": "threshold"})


def _dashed(ax):
    return [(line.get_label(), list(line.get_ydata())) for line in ax.get_lines() if line.get_linestyle() == "--"]


def test_margin_plot_labels_its_zero_line_break_even_not_fair_share():
    # A score margin of 0 is break-even; "fair share" belongs to win rates only.
    figs = {name: (ax, caption) for name, ax, caption in plots.study_figures(_fake_tune())}
    margin, caption = figs["margin"]
    assert _dashed(margin) == [(plots.MARGIN_ZERO, [0.0, 0.0])]
    legend = [t.get_text() for t in margin.get_legend().get_texts()]
    assert "fair share" not in legend and plots.MARGIN_ZERO in legend
    assert "break-even" in caption and "fair share" not in caption
    data = plots.ci_line_data(_fake_tune().tables["tune"], "call", "margin")  # the data step drawn
    assert data[["x", "y", "low", "high"]].values.tolist() == [[1, -3, -5, -1], [2, 4, 2, 6], [3, 0.5, -1.5, 2.5]]
    win, _ = figs["win_rate"]
    assert _dashed(win) == [("fair share", [0.5, 0.5])]
    import matplotlib.pyplot as plt

    plt.close("all")
