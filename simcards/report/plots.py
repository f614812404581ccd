"""Plots for studies. Each plot is two steps: a *data* step that turns a study table into exactly
the numbers drawn (a small DataFrame, tested exactly) and a *drawing* step that takes that data
and an optional matplotlib ``ax`` (``ax=None`` makes a new figure). ``save`` writes PNG and SVG.

The Agg backend is used, so plotting works without a display.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FORMATS = ("png", "svg")
MARGIN_ZERO = "break-even (margin 0)"  # the zero line of a score margin is no "fair share"


# ----- data steps --------------------------------------------------------------------------------
def bars_data(estimates: pd.DataFrame, metric: str, by: str = "variant") -> pd.DataFrame:
    """One bar per ``by`` value for one metric of a long estimates table (columns ``metric``,
    ``value``, ``low``, ``high``): the bar height and the error-bar lengths below and above."""
    sub = estimates[estimates["metric"] == metric]
    if sub.empty:
        raise ValueError(f"no estimates for metric {metric!r}")
    return pd.DataFrame({
        "label": sub[by].astype(str).to_numpy(),
        "value": sub["value"].to_numpy(float),
        "err_low": np.maximum(0.0, (sub["value"] - sub["low"]).to_numpy(float)),  # no rounding-error negatives
        "err_high": np.maximum(0.0, (sub["high"] - sub["value"]).to_numpy(float)),
    })


def ci_line_data(table: pd.DataFrame, x: str, y: str = "win_rate", series: str | None = None) -> pd.DataFrame:
    """Points of ``y`` against ``x`` with the interval band (``y_low``/``y_high`` columns), sorted
    by x; with ``series`` one line per value of that column."""
    cols = [x, y, f"{y}_low", f"{y}_high"] + ([series] if series else [])
    out = table[cols].rename(columns={x: "x", y: "y", f"{y}_low": "low", f"{y}_high": "high"})
    out = out.rename(columns={series: "series"}) if series else out.assign(series="")
    return out.sort_values(["series", "x"], kind="stable", ignore_index=True)


def heatmap_data(table: pd.DataFrame, rows: str, cols: str, value: str) -> pd.DataFrame:
    """A matrix of ``value`` with ``rows`` down and ``cols`` across (order of first appearance)."""
    r_order = list(dict.fromkeys(table[rows]))
    c_order = list(dict.fromkeys(table[cols]))
    return table.pivot(index=rows, columns=cols, values=value).reindex(index=r_order, columns=c_order)


def hist_data(values, width: int = 1, series=None, weights=None) -> pd.DataFrame:
    """Counts and shares of whole-number values (e.g. rounds per game) in bins of ``width``:
    columns ``series``, ``left`` (inclusive), ``right`` (exclusive), ``count``, ``share``.
    ``weights`` counts each value that many times (a table of value counts)."""
    v = np.asarray(values, dtype=np.int64)
    s = np.asarray(series) if series is not None else np.full(v.size, "", dtype=object)
    w = np.ones(v.size, dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    if v.size == 0:
        return pd.DataFrame(columns=["series", "left", "right", "count", "share"])
    lo = (v.min() // width) * width
    hi = (v.max() // width + 1) * width
    edges = np.arange(lo, hi + width, width)
    rows = []
    for name in dict.fromkeys(s.tolist()):
        sel = s == name
        counts, _ = np.histogram(v[sel], bins=edges, weights=w[sel])
        total = int(w[sel].sum())
        for left, c in zip(edges[:-1], counts):
            rows.append({"series": name, "left": int(left), "right": int(left + width), "count": int(c),
                         "share": c / total})
    return pd.DataFrame(rows)


# ----- drawing steps ------------------------------------------------------------------------------
def _ax(ax, size=(6.4, 4.0)):
    if ax is None:
        fig, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def _pct_axis(ax, axis="y"):
    from matplotlib.ticker import PercentFormatter

    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(PercentFormatter(1.0))


def draw_bars(data: pd.DataFrame, ax=None, title: str = "", ylabel: str = "", pct: bool = False,
              reference: float | None = None):
    """Bars with 95% error bars; ``reference`` draws a dashed line (e.g. the fair share)."""
    ax = _ax(ax)
    x = np.arange(len(data))
    ax.bar(x, data["value"], yerr=[data["err_low"], data["err_high"]], capsize=4, color="#4C72B0", alpha=0.85)
    ax.set_xticks(x, data["label"], rotation=20 if len(data) > 4 else 0, ha="right" if len(data) > 4 else "center")
    if reference is not None:
        ax.axhline(reference, ls="--", color="grey", lw=1)
    return _titled(ax, title, "", ylabel, pct)


def draw_ci_line(data: pd.DataFrame, ax=None, title: str = "", xlabel: str = "", ylabel: str = "",
                 pct: bool = True, reference: float | None = None, best: float | None = None,
                 reference_label: str = "fair share"):
    """Lines with a shaded 95% band; ``reference`` draws a dashed line labelled ``reference_label``
    (the fair share of a win rate; break-even for a score margin)."""
    ax = _ax(ax)
    for name, sub in data.groupby("series", sort=False):
        line, = ax.plot(sub["x"], sub["y"], marker="o", ms=4, label=_label(name) if name != "" else None)
        ax.fill_between(sub["x"], sub["low"], sub["high"], alpha=0.2, color=line.get_color())
    if reference is not None:
        ax.axhline(reference, ls="--", color="grey", lw=1, label=reference_label)
    if best is not None:
        ax.axvline(best, ls=":", color="black", lw=1)
    return _titled(ax, title, xlabel, ylabel, pct)


def _titled(ax, title: str, xlabel: str, ylabel: str, pct: bool):
    """The title, axis labels (a percentage axis with ``pct``) and a legend when anything is labelled."""
    if pct:
        _pct_axis(ax)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)
    return ax


def _label(v) -> str:
    """Tick text: 15.0 → '15', 0.25 → '0.25', strings unchanged."""
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return f"{v:g}"
    return str(v)


def draw_heatmap(data: pd.DataFrame, ax=None, title: str = "", pct: bool = True, cmap: str = "RdBu_r",
                 center: float | None = None):
    """A labelled heatmap of a matrix (rows × columns); cells show their value."""
    ax = _ax(ax, (1.2 + 1.0 * data.shape[1], 1.0 + 0.6 * data.shape[0]))
    vals = data.to_numpy(dtype=float)
    finite = vals[np.isfinite(vals)]
    if center is not None and finite.size:
        span = max(abs(finite.max() - center), abs(finite.min() - center), 1e-9)
        vmin, vmax = center - span, center + span
    else:
        vmin, vmax = (finite.min(), finite.max()) if finite.size else (0, 1)
    im = ax.imshow(np.ma.masked_invalid(vals), cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    ax.set_xticks(range(data.shape[1]), [_label(c) for c in data.columns], rotation=30, ha="right")
    ax.set_yticks(range(data.shape[0]), [_label(r) for r in data.index])
    ax.set_xlabel(str(data.columns.name or ""))
    ax.set_ylabel(str(data.index.name or ""))
    for i in range(vals.shape[0]):
        for j in range(vals.shape[1]):
            if np.isfinite(vals[i, j]):
                dark = abs((vals[i, j] - vmin) / (vmax - vmin or 1) - 0.5) > 0.3
                ax.text(j, i, f"{100 * vals[i, j]:.0f}%" if pct else f"{vals[i, j]:.2g}", ha="center",
                        va="center", fontsize=8, color="white" if dark else "black")
    ax.figure.colorbar(im, ax=ax, shrink=0.8)
    ax.set_title(title)
    return ax


def draw_hist(data: pd.DataFrame, ax=None, title: str = "", xlabel: str = ""):
    """Step histograms (shares) of game length, one per series."""
    ax = _ax(ax)
    for name, sub in data.groupby("series", sort=False):
        edges = np.append(sub["left"].to_numpy(), sub["right"].to_numpy()[-1])
        ax.stairs(sub["share"].to_numpy(), edges, label=str(name) if name != "" else None, lw=1.5)
    return _titled(ax, title, xlabel, "share of games", True)


def save(fig_or_ax, stem: str | Path, formats=FORMATS) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg``; returns the paths. Closes the figure."""
    fig = getattr(fig_or_ax, "figure", fig_or_ax)
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in formats:
        path = stem.with_suffix("." + fmt)
        # no date and a fixed salt for the SVG's element ids (else random): a report regenerated on
        # the same seeds rewrites the same bytes, and its diff shows only what changed
        with plt.rc_context({"svg.hashsalt": "simcards"}):
            fig.savefig(path, dpi=90 if fmt == "png" else None, metadata={"Date": None} if fmt == "svg" else None)
        paths.append(path)
    plt.close(fig)
    return paths


# ----- the figures of a study ----------------------------------------------------------------------
def study_figures(result) -> list[tuple[str, object, str]]:
    """(name, axes, caption) for the standard plots of a :class:`StudyResult`: its kind's ``figures``
    (``simcards.report.kinds``)."""
    from simcards.report.kinds import kind_of

    return kind_of(result).figures(result)
