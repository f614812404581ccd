"""The ``tune`` study kind in a report: one sweep's values with their win rates, and the answer
(every sweep of the report in one table: the best value, and whether it beats the runner-up)."""

from __future__ import annotations

import pandas as pd

from simcards.report.kinds.base import StudyKind, variant_rules
from simcards.report.text import Table, human, is_yes, joined, lineups_text, lower_first, number_text
from simcards.studies import tune
from simcards.studies.common import StudyResult, fmt_est


def display(result: StudyResult) -> list[tuple[str, pd.DataFrame]]:
    """Every value of the sweep: win rate, fair share, score margin, games (and when it was dropped)."""
    tab = result.tables["tune"]
    params = list(result.meta["params"])
    d = tab[params].copy()
    for p in params:
        d[p] = d[p].map(lambda v: str(int(v)) if float(v).is_integer() else f"{v:g}")
    d["win rate"] = [fmt_est(r.win_rate, r.win_rate_low, r.win_rate_high, "pct") for r in tab.itertuples()]
    d["fair share"] = tab["fair_share"].map(lambda v: f"{v:.1%}")
    d["score margin"] = [fmt_est(r.margin, r.margin_low, r.margin_high, "num") for r in tab.itertuples()]
    d["games"] = tab["games"].map(lambda v: f"{int(v):,}")
    if "eliminated_at" in tab:
        d["dropped after (deals)"] = tab["eliminated_at"].map(lambda v: "-" if pd.isna(v) else f"{int(v):,}")
    return [(f"Against {result.meta['against']} (value [95% interval])", d)]


def tune_row(res: StudyResult) -> list[str]:
    """One row of the tuning answer: best value, its win rate, runner-up, difference, significance."""
    s, tab = res.summary, res.tables["tune"]
    params = list(res.meta["params"])
    vals = lambda d: ", ".join(f"{p}={number_text(d[p])}" for p in params)
    sel = pd.Series(True, index=tab.index)
    for p in params:
        sel &= tab[p] == s["best"][p]
    b = tab[sel].iloc[0]
    d = s.get("best_minus_runner_up") or {}  # Estimate.as_dict(): value, ci95
    diff = (human(d["value"], d["ci95"][0], d["ci95"][1], "pct", signed=True).replace("%", " pts", 1)
            if "ci95" in d else "-")
    fair = float(b["fair_share"])
    win = human(b["win_rate"], b["win_rate_low"], b["win_rate_high"], "pct")
    verdict = "yes" if is_yes(s.get("significant")) else "no"
    runner = vals(s["runner_up"]) if s.get("runner_up") else "-"
    return [res.title, vals(s["best"]), win, f"{100 * fair:.3g}%", runner, diff, verdict]


def tune_answer(results: list[StudyResult]) -> dict:
    rows = [tune_row(r) for r in results]
    bold = {(i, 6) for i, r in enumerate(rows) if r[6] == "yes"}
    against = joined(list(dict.fromkeys(r.meta["against"] for r in results)))
    sentences = [f"{r.title}: {_no_better(r)}" for r in results if _no_better(r)]
    table = Table("", ["study", "best value", "its win rate [95%]", "fair share", "runner-up",
                       "best − runner-up [95%]", "significant?"], rows, bold,
                  note=f"Each value plays {against} from every seat on the same deals. Significant: the best value's "
                       "paired difference from the runner-up excludes 0. The best value's own win rate is the "
                       "highest of several, so it tends to be a little high.")
    lead = [f"{r.title}: {lower_first(tune_sentence(r, row))}" for r, row in zip(results, rows)]
    return {"title": "Best value of each sweep", "lead": lead, "table": table, "sentences": sentences}


def _no_better(res: StudyResult) -> str:
    """Says that no value is shown to beat the reference when even the best value's interval (if
    anything too high: it won a selection) reaches down to the fair share; else the empty string."""
    b, best = res.tables["tune"], res.summary.get("best_spec")
    row = b[b["spec"] == best]
    if len(row) and float(row["win_rate_low"].iloc[0]) <= float(row["fair_share"].iloc[0]):
        return (f"no value is shown to beat `{res.meta['against']}` — even the best value's interval reaches "
                "down to the fair share.")
    return ""


def tune_sentence(res: StudyResult, row: list[str] | None = None) -> str:
    """A sweep's answer in one sentence: the best value against the fixed table (a best response),
    its win rate and whether it is separated from the runner-up."""
    row = row or tune_row(res)
    against = res.meta["against"]
    runner = f"the runner-up {row[4]} ({row[5]})"
    return (f"Against `{against}` at every other seat, the best value (the best response to that table) is "
            f"**{row[1]}**: it wins {row[2]} (fair share "
            f"{row[3]}), " + (f"significantly ahead of {runner}." if row[6] == "yes" else
                              f"not separated from {runner}: more games are needed to tell them apart."))


def answer(res: StudyResult, results: list[StudyResult]) -> dict | None:
    """Every sweep of the report in one answer, said where the first one stands."""
    tunes = [r for r in results if r.kind == res.kind]
    return tune_answer(tunes) if res is tunes[0] else None


def words(res: StudyResult) -> list[str]:
    """The sweep's answer on its own: the best value, and whether any value beats the reference."""
    more = _no_better(res)
    return [tune_sentence(res)] + ([more[:1].upper() + more[1:]] if more else [])


def method(res: StudyResult) -> tuple[list[str], Table | None]:
    m = res.meta
    sweep = "; ".join(f"{k} = {', '.join(number_text(v) for v in vals)}" for k, vals in m["params"].items())
    return [variant_rules(m),
            f"family `{m['family']}` (base `{m['base']}`), sweep {sweep}; against `{m['against']}`; "
            f"{len(m['lineups'])} seat rotations: {lineups_text(m['lineups'])} (seat by seat, 0 = the candidate)",
            f"adaptive racing in batches of {m['batch']:,} deals, at most {m['games']:,} deals per value, "
            f"alpha {m['alpha']:g}" if m["adaptive"] else f"flat grid, {m['games']:,} deals per value"], None


def figures(result: StudyResult) -> list[tuple[str, object, str]]:
    """One parameter: win rate and score margin by value (bands); two: a heatmap and one line per value."""
    from simcards.report.plots import MARGIN_ZERO, ci_line_data, draw_ci_line, draw_heatmap, heatmap_data

    figs = []
    tab = result.tables["tune"]
    params = list(result.meta["params"])
    fair = float(tab["fair_share"].iloc[0])
    if len(params) == 1:
        best = result.summary["best"][params[0]]
        ax = draw_ci_line(ci_line_data(tab, params[0]), title=f"win rate vs {params[0]}", xlabel=params[0],
                          ylabel="win rate", reference=fair, best=best)
        figs.append(("win_rate", ax, f"Win rate against {result.meta['against']} by {params[0]} "
                                     "(band: 95% interval; dashed: fair share; dotted: best)"))
        ax = draw_ci_line(ci_line_data(tab, params[0], "margin"), title=f"score margin vs {params[0]}",
                          xlabel=params[0], ylabel="mean score margin", pct=False, reference=0.0,
                          reference_label=MARGIN_ZERO)
        figs.append(("margin", ax, f"Mean score margin by {params[0]} (band: 95% interval; dashed: "
                                   "break-even, a margin of 0)"))
    else:
        hm = heatmap_data(tab, params[0], params[1], "win_rate")
        ax = draw_heatmap(hm, title="win rate", center=fair)
        figs.append(("win_rate_heatmap", ax, f"Win rate by {params[0]} × {params[1]} (colour centred on the fair share)"))
        ax = draw_ci_line(ci_line_data(tab, params[1], series=params[0]), title=f"win rate vs {params[1]}",
                          xlabel=params[1], ylabel="win rate", reference=fair)
        figs.append(("win_rate", ax, f"Win rate by {params[1]}, one line per {params[0]} (bands: 95% intervals)"))
    return figs


KIND = StudyKind(
    name="tune", run=tune,
    keys=frozenset({"game", "strategy", "params", "against", "variant", "players", "games", "seed", "rules",
                    "adaptive", "batch", "alpha", "confirm"}),
    needs={"strategy = ...": ("strategy",), 'params = ["NAME=VALUES"]': ("params",)},
    strategies=("strategy", "against"), tables=("tune",),
    display=display, answer=answer, words=words, method=method, figures=figures)
