"""The ``equilibrium`` study kind in a report: the symmetric equilibrium with its regrets, the
invasion matrix, game lengths, and the answer (what to play when the other players adapt too)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simcards.report.kinds.base import StudyKind, variant_rules
from simcards.report.kinds.tune import KIND as TUNE
from simcards.report.kinds.tune import tune_row
from simcards.report.text import Table, human
from simcards.studies import equilibrium
from simcards.studies.common import StudyResult


def display(result: StudyResult) -> list[tuple[str, pd.DataFrame]]:
    """The equilibrium's weights and regrets, the invasion matrix and game lengths."""
    out = []
    e = result.tables["equilibrium"]
    d = pd.DataFrame({
        "strategy": e["strategy"],
        "equilibrium weight": [_share(r.weight, r.weight_low, r.weight_high) for r in e.itertuples()],
        "regret": [_share(r.regret, r.regret_low, r.regret_high) for r in e.itertuples()],
        "share of resamples": ["-" if math.isnan(r.in_support_share) else f"{r.in_support_share:.0%}"
                               for r in e.itertuples()],
    })
    out.append(("Symmetric equilibrium (bootstrap 95% intervals, each resample of the deals solved for its own "
                "equilibrium; regret: what a player gains by switching to the strategy when everyone else plays "
                "the mixture; share of resamples: how many of those equilibria play it)", d))
    inv = result.tables["invasion"].set_index(["strategy", "field"])
    names = list(e["strategy"])
    m = pd.DataFrame({"row among column →": names, **{
        f: [_share(*inv.loc[(s, f), ["win_share", "low", "high"]]) for s in names] for f in names}})
    out.append(("Win share of one player of the row's strategy when every other side plays the column's (95% "
                "interval over deals, widened to the exact binomial one near 0 and 1)", m))
    if "length" in result.tables:
        out.append(("How long games last (95% interval over deals): at the equilibrium (every side drawing "
                    "from the mixture) and with every side on one strategy", _length_display(result)))
    return out


def _length_display(result: StudyResult) -> pd.DataFrame:
    """The study's length table as text cells: units (rounds, hands) and turns per game."""
    lt, unit = result.tables["length"], result.summary.get("unit", "rounds")
    d = pd.DataFrame({"table": lt["table"]})
    for col in (unit, "turns"):
        if col in lt:
            d[f"{col} per game"] = [human(v, lo, hi, "num") for v, lo, hi in
                                    zip(lt[col], lt[f"{col}_low"], lt[f"{col}_high"])]
    return d


def _share(v: float, lo: float, hi: float) -> str:
    """A share with its interval at one decimal (a bootstrap interval can be a single point)."""
    if math.isnan(lo):
        return f"{100 * v:.1f}%"
    return f"{100 * v:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def equilibrium_answer(res: StudyResult, tunes: list[StudyResult] | tuple = ()) -> dict:
    """One recommendation: the equilibrium (what to play when the other players adapt too: nobody
    gains by leaving it alone), with the best response to a table that keeps playing the default (from
    the report's matching sweep in ``tunes``, else from the invasion table) said as what it is, and
    whether the bootstrap resamples agree on the equilibrium's strategies."""
    e = res.tables["equilibrium"].sort_values("weight", ascending=False)
    support = e[e["weight"] > 1e-3]
    s = res.summary
    if len(support) > 1:
        play = ("Play a mix, drawn at random each game: "
                + ", ".join(f"**{r.strategy}** {human(r.weight, r.weight_low, r.weight_high, 'pct')}"
                            for r in support.itertuples()))
    else:
        play = f"Play **{support['strategy'].iloc[0]}**"
    text = (f"{play}: if the other players adapt too, this is where the table settles — nobody gains more than "
            f"{100 * max(s['max_regret'], 0):.2f} pts by switching alone (a symmetric Nash equilibrium, {s['method']}).")
    br = _best_response(res, tunes)
    if br is not None:
        name, field, win, fair, where = br
        text += (f" Against a table that keeps playing `{field}` and does not adapt, the best response is `{name}`"
                 + (" too" if name in set(support["strategy"]) and len(support) == 1 else "")
                 + f": it wins {win} of its games there against a fair share of {fair:.3g}% ({where})"
                 + ("." if name in set(support["strategy"]) else ", but only until the others adapt."))
    lead = [text]
    if s["equilibria_found"] > 1:
        lead.append(f"The table has {s['equilibria_found']} equilibria: where play starts decides which one.")
    sentences = [_settled_sentence(res),
                 f"{s['games_played']:,} games were played over {s['profiles']:,} profiles; a flat grid would have "
                 f"played {s['flat_grid_games']:,}."]
    sentences = [x for x in sentences if x]
    lead += s.get("edges", [])
    length = _length_sentence(res)
    if length:
        lead.append(length)
    return {"title": res.title, "lead": lead, "table": None, "sentences": sentences}


def _best_response(res: StudyResult, tunes) -> tuple[str, str, str, float, str] | None:
    """(strategy, field, its win rate, fair share in %, where it comes from): the population's best
    reply to a table that keeps playing the population's default member (named by its family alone).
    From a sweep of the same game, table and family against that default when the report has one
    (more games, every value of the family), else from the equilibrium's own invasion table."""
    names = list(res.tables["equilibrium"]["strategy"])
    field = next((n for n in names if ":" not in n), None)
    if field is None:
        return None
    m = res.meta
    for tu in tunes:
        t = tu.meta
        if (t.get("game"), t.get("players"), t.get("variant"), t.get("against"), t.get("family")) == \
                (m.get("game"), m.get("players"), m.get("variant"), field, field.split(":")[0]):
            row = tune_row(tu)
            return tu.summary["best_spec"], field, row[2], 100 * float(tu.tables["tune"]["fair_share"].iloc[0]), \
                f"the sweep '{tu.title}'"
    inv = res.tables["invasion"]
    col = inv[inv["field"] == field]
    if col.empty:
        return None
    r = col.loc[col["win_share"].idxmax()]
    return (str(r["strategy"]), field, human(r["win_share"], r["low"], r["high"], "pct"),
            100 * float(res.summary["fair_share"]), "this study's games")


def _settled_sentence(res: StudyResult) -> str:
    """Whether the bootstrap resamples of the deals, each solved for its own equilibrium, agree on
    which strategies it plays: the strategies that are in it in fewer than 95% of resamples, or out
    of it in fewer than 95%."""
    e = res.tables["equilibrium"]
    if "in_support_share" not in e or e["in_support_share"].isna().all():
        return ""
    reps = res.meta.get("bootstrap", "the")
    unsure = [r for r in e.itertuples() if 0.05 < r.in_support_share < 0.95]
    if not unsure:
        return f"Every strategy is in (or out of) the equilibrium in at least 95% of the {reps} bootstrap resamples."
    return ("Not settled by these games: " + ", ".join(
        f"**{r.strategy}** is in the equilibrium of {r.in_support_share:.0%}" for r in unsure)
        + f" of the {reps} bootstrap resamples of the deals (each solved for its own equilibrium).")


def _length_sentence(res: StudyResult) -> str:
    """Game length at the equilibrium against a table where everyone plays the family's default
    (the population's strategy named by the family alone), when there is one."""
    if "length" not in res.tables:
        return ""
    lt, unit = res.tables["length"].set_index("table"), res.summary.get("unit", "rounds")
    names = list(res.tables["equilibrium"]["strategy"])
    base = next((n for n in names if ":" not in n), None)
    if base is None or f"everyone plays {base}" not in lt.index:
        return ""

    def cell(row) -> str:
        text = f"{human(row[unit], row[f'{unit}_low'], row[f'{unit}_high'], 'num')} {unit}"
        if "turns" in row:
            text += f" and {human(row['turns'], row['turns_low'], row['turns_high'], 'num')} turns"
        return text

    eq, dflt = lt.loc["equilibrium mixture"], lt.loc[f"everyone plays {base}"]
    return (f"A game at the equilibrium lasts {cell(eq)}; with everyone on the default `{base}`, {cell(dflt)} "
            f"({eq[unit] / dflt[unit]:.1f}× the {unit}).")


def answer(res: StudyResult, results: list[StudyResult]) -> dict:
    """The equilibrium's answer, with the best response from the report's matching sweep if any."""
    return equilibrium_answer(res, [r for r in results if r.kind == TUNE.name])


def method(res: StudyResult) -> tuple[list[str], Table | None]:
    m = res.meta
    return [variant_rules(m),
            f"population {', '.join(f'`{s}`' for s in m['strategies'])}; every profile at the table in "
            f"every distinct seat rotation, on common deals; at most {m['games']:,} deals per profile"
            + (" (adaptive)" if m["adaptive"] else "") + f"; {m['bootstrap']} bootstrap resamples"], None


def figures(result: StudyResult) -> list[tuple[str, object, str]]:
    """The invasion matrix (heatmap) and the equilibrium mixture (bars)."""
    from simcards.report.plots import draw_bars, draw_heatmap, heatmap_data

    figs = []
    fair = float(result.summary["fair_share"])
    hm = heatmap_data(result.tables["invasion"], "strategy", "field", "win_share")
    ax = draw_heatmap(hm, title="one player's win share against a field", center=fair)
    figs.append(("invasion", ax, "Win share of one player of the row's strategy when every other side plays "
                                 "the column's (colour centred on the fair share)"))
    eq = result.tables["equilibrium"]
    data = pd.DataFrame({"label": eq["strategy"], "value": eq["weight"],
                         "err_low": np.maximum(0.0, eq["weight"] - eq["weight_low"]),
                         "err_high": np.maximum(0.0, eq["weight_high"] - eq["weight"])})
    ax = draw_bars(data, title="equilibrium mixture", ylabel="weight", pct=True)
    figs.append(("mixture", ax, "Weight of each strategy in the symmetric equilibrium (bars: bootstrap 95% "
                                "intervals over deals)"))
    return figs


KIND = StudyKind(
    name="equilibrium", run=equilibrium,
    keys=frozenset({"game", "strategies", "family", "params", "variant", "players", "games", "seed", "rules",
                    "adaptive", "batch", "target", "bootstrap"}),
    needs={"strategies = [...] or family = ... with params": ("strategies", "family")},
    strategies=("strategies", "family"), tables=("equilibrium", "invasion", "payoffs", "length"),
    display=display, answer=answer, method=method, figures=figures)
