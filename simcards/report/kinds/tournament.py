"""The ``tournament`` study kind in a report: ratings, the head-to-head matrix, the cost table when
the study measured one, and the answer (the strongest strategy, and at what cost)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simcards.report.kinds.base import StudyKind, variant_rules
from simcards.report.text import Table, human, is_yes, lineups_text
from simcards.studies import tournament
from simcards.studies.common import StudyResult


def display(result: StudyResult) -> list[tuple[str, pd.DataFrame]]:
    """Ratings, the matrix of win rates (significant pairs marked) and the cost table."""
    out = []
    r = result.tables["ratings"]
    d = pd.DataFrame({
        "strategy": r["strategy"],
        "rating (Elo scale)": [f"{_elo(a)} [{_elo(b)}, {_elo(c)}]" for a, b, c in zip(r["rating"], r["rating_low"], r["rating_high"])],
        "wins": r["wins"].map(lambda v: f"{v:,}"), "losses": r["losses"].map(lambda v: f"{v:,}"),
        "win share": r["win_share"].map(lambda v: f"{v:.1%}"),
    })
    out.append(("Ratings (Bradley–Terry, 95% interval)", d))
    out.append(("Win rate of the row against the column (95% interval; *: differs from the fair share, Holm's "
                "control over all the pairs)", _marked_matrix(result)))
    if "cost" in result.tables:
        out.append(cost_display(result))
    return out


def _marked_matrix(result: StudyResult) -> pd.DataFrame:
    """The tournament's matrix with a * on every cell whose pair is significant (the pairs table's
    flag: the win rate differs from the fair share under Holm's control)."""
    m = result.tables["matrix"].copy()
    pairs = result.tables["pairs"]
    if "significant" not in pairs:
        return m
    key = m.columns[0]
    for r in pairs.itertuples():
        if is_yes(r.significant):
            row = m.index[m[key] == r.strategy]
            if len(row) and r.opponent in m.columns:
                m.loc[row[0], r.opponent] = f"{m.loc[row[0], r.opponent]} *"
    return m


def _elo(x: float) -> str:
    """A rating on the Elo scale; ±∞ for the bound a strategy that never won (or never lost) lacks."""
    return f"{x:.0f}" if math.isfinite(x) else ("∞" if x > 0 else "−∞")


def _rate(v: float) -> str:
    """A rate for people: three significant digits, thousands separated (- when not counted)."""
    if v is None or not math.isfinite(v):
        return "-"
    return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"


def cost_display(res: StudyResult) -> tuple[str, pd.DataFrame]:
    """(caption, table): each strategy's games and decisions per second (wall clock, the study's
    threads) and per CPU-second, in its matchup against the cost reference."""
    c, info = res.tables["cost"], res.meta["cost"]
    unit = info["decision_unit"] or "decisions"
    on = f"{info['threads']} thread{'s' if info['threads'] != 1 else ''}"
    d = pd.DataFrame({
        "strategy": c["strategy"],
        f"{unit} per game": c["decisions_per_game"].map(lambda v: "-" if not math.isfinite(v) else f"{v:.1f}"),
        f"games/s ({on})": c["games_per_s"].map(_rate),
        f"{unit}/s ({on})": c["decisions_per_s"].map(_rate),
        "games per CPU-s": c["games_per_cpu_s"].map(_rate),
        f"{unit} per CPU-s": c["decisions_per_cpu_s"].map(_rate),
    })
    return (f"Cost: each strategy against {info['reference']} ({unit} of the strategy's own seats)", d)


def _cost_words(res: StudyResult, spec: str) -> str:
    """How fast ``spec`` plays, against the cost reference's own speed."""
    c = res.tables["cost"].set_index("strategy")
    info = res.meta["cost"]
    me, ref = c.loc[spec], c.loc[info["reference"]]
    unit = info["decision_unit"]
    dec = f" and {_rate(me['decisions_per_s'])} of its {unit} a second" if unit else ""
    slower = ref["games_per_cpu_s"] / me["games_per_cpu_s"] if me["games_per_cpu_s"] > 0 else float("nan")
    rel = (f", {slower:.3g}× the CPU time a game of {info['reference']} self-play takes" if spec != info["reference"]
           and math.isfinite(slower) else "")
    on = f"{info['threads']} thread{'s' if info['threads'] != 1 else ''}"
    return f"it plays {_rate(me['games_per_s'])} games a second against {info['reference']} on {on}{dec}{rel}"


def tournament_answer(res: StudyResult) -> dict:
    rat, pairs = res.tables["ratings"], res.tables["pairs"]
    top, second = rat.iloc[0], rat.iloc[1]
    h2h = pairs[(pairs["strategy"] == top["strategy"]) & (pairs["opponent"] == second["strategy"])].iloc[0]
    sig = is_yes(h2h["significant"])
    s = (f"Strongest: **{top['strategy']}**, rating {top['rating']:.0f} [{top['rating_low']:.0f}, "
         f"{top['rating_high']:.0f}] (Elo scale); against the runner-up {second['strategy']} it wins "
         f"{human(h2h['win_rate'], h2h['win_rate_low'], h2h['win_rate_high'], 'pct')} of head-to-head games — "
         + ("significantly more than half." if sig else "not significantly more than half: the two are not separated."))
    lead = [s]
    if "cost" in res.tables:
        ref = res.meta["cost"]["reference"]
        vs = pairs[(pairs["strategy"] == top["strategy"]) & (pairs["opponent"] == ref)]
        won = (human(float(vs["win_rate"].iloc[0]), float(vs["win_rate_low"].iloc[0]),
                     float(vs["win_rate_high"].iloc[0]), "pct") if len(vs) else "")
        against = f" Against {ref} it wins {won}." if won else ""
        lead[0] += against + f" At what cost: {_cost_words(res, top['strategy'])}."
    return {"title": res.title, "lead": lead, "table": None, "sentences": []}


def method(res: StudyResult) -> tuple[list[str], Table | None]:
    m = res.meta
    return [variant_rules(m),
            f"strategies {', '.join(f'`{s}`' for s in m['strategies'])}; {m['games']:,} deals per pair × "
            f"{len(m['lineups'])} seat rotations: {lineups_text(m['lineups'])} (seat by seat, 0 = the first of a pair)"], None


def figures(result: StudyResult) -> list[tuple[str, object, str]]:
    """The head-to-head matrix (heatmap) and the ratings (bars)."""
    from simcards.report.plots import draw_bars, draw_heatmap, heatmap_data

    figs = []
    pairs = result.tables["pairs"]
    order = list(result.tables["ratings"]["strategy"])
    hm = heatmap_data(pairs, "strategy", "opponent", "win_rate").reindex(index=order, columns=order)
    hm.index.name, hm.columns.name = "strategy", "opponent"
    ax = draw_heatmap(hm, title="row's win rate against column", center=0.5)
    figs.append(("matrix", ax, "Head-to-head win rates (row against column, seat-rotated)"))
    rat = result.tables["ratings"]
    data = pd.DataFrame({"label": rat["strategy"], "value": rat["rating"],
                         "err_low": rat["rating"] - rat["rating_low"], "err_high": rat["rating_high"] - rat["rating"]})
    data[["err_low", "err_high"]] = data[["err_low", "err_high"]].where(np.isfinite(data[["err_low", "err_high"]]))  # no lower bound: no bar
    ax = draw_bars(data, title="Bradley–Terry rating (Elo scale)", ylabel="rating", reference=0.0)
    figs.append(("ratings", ax, "Ratings with 95% intervals"))
    return figs


KIND = StudyKind(
    name="tournament", run=tournament,
    keys=frozenset({"game", "strategies", "variant", "players", "games", "seed", "rules", "cost"}),
    needs={"strategies = ...": ("strategies",)},
    strategies=("strategies", "cost"), tables=("ratings", "matrix", "pairs", "cost"),
    display=display, answer=lambda res, results: tournament_answer(res), method=method, figures=figures)
