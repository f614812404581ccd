"""The ``compare`` study kind in a report: variants side by side, their differences from the first,
and the answer (fastest, fairest, rewards skill most) with whether each ranking is significant."""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd

from simcards.report.kinds.base import StudyKind
from simcards.report.text import (
    ALPHA,
    Table,
    digits_for,
    human,
    human_key,
    human_value,
    in_points,
    in_pts,
    is_yes,
    joined,
    lineups_text,
)
from simcards.studies import compare
from simcards.studies.common import StudyResult
from simcards.studies.compare import games_text


def display(result: StudyResult) -> list[tuple[str, pd.DataFrame]]:
    """Per variant (measures down) and the differences from the first variant, as text cells."""
    out = []
    wide = result.tables["compare"].set_index("variant").T
    wide.index.name = "measure"
    out.append(("Per variant (value [95% interval])", wide.reset_index()))
    diffs = result.tables["differences"]
    if len(diffs):
        d = pd.DataFrame({
            "variant": diffs["variant"], "measure": diffs["label"],
            f"difference vs {diffs['baseline'].iloc[0]}": [
                _diff_text(r.diff, r.low, r.high, r.format) for r in diffs.itertuples()],
            "same deals (paired)": diffs["paired"].map({True: "yes", False: "no"}),
            "significant": diffs["significant"].map({True: "yes", False: "no"}),
        })
        out.append(("Differences from the first variant (significant: Holm's control over the study)", d))
    return out


def overview_rows(res: StudyResult) -> list[dict]:
    """One row per variant: the starter's/dealer's edge and the largest seat deviation (the report's
    overview when it compares several games)."""
    rows = []
    est = res.tables["estimates"]
    for v in res.meta["variants"]:
        sub = est[est["variant"] == v].set_index("metric")
        edge, dev = sub.loc["starter_edge"], sub.loc["max_seat_deviation"]
        rows.append({"game": res.meta["game"], "players": res.meta["players"], "variant": v,
                     "who": edge["label"].split("'s edge")[0],
                     "edge (win rate − fair share)": in_pts(human(edge["value"], edge["low"], edge["high"], "pct",
                                                                signed=True)),
                     "edge significant": "yes" if is_yes(edge.get("significant")) else "no",
                     "largest seat deviation": in_pts(human(dev["value"], dev["low"], dev["high"], "pct")),
                     "deviation significant": "yes" if is_yes(dev.get("significant")) else "no",
                     "games": f"{int(sub.loc['starter_edge', 'n']):,}"})
    return rows


def _diff_text(v, lo, hi, kind) -> str:
    if kind == "pct":
        return f"{100 * v:+.2f} pts [{100 * lo:+.2f}, {100 * hi:+.2f}]"
    return f"{v:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def _bonferroni(tests: int) -> float:
    """How much to widen a 95% interval so that each of ``tests`` comparisons runs at 5%/tests."""
    from simcards.stats.differences import z_for

    return z_for(ALPHA, max(1, tests)) / z_for(ALPHA, 1)


def _widen(v: float, lo: float, hi: float, f: float) -> tuple[float, float]:
    return v - f * (v - lo), v + f * (hi - v)


def _abs_interval(lo: float, hi: float) -> tuple[float, float]:
    if lo <= 0 <= hi:
        return 0.0, max(-lo, hi)
    return min(abs(lo), abs(hi)), max(abs(lo), abs(hi))


def rank_variants(values: dict[str, tuple[float, float, float]], better: str,
                  diffs: dict[str, tuple[float, float, float, bool, bool]] | None = None,
                  baseline: str | None = None) -> dict | None:
    """The leader of one measure among variants and whether it leads significantly.

    ``values``: variant → (value, low, high) with 95% intervals; ``better`` is ``"low"``,
    ``"high"`` or ``"abs"`` (closest to 0). ``diffs``: variant → (other − baseline, low, high,
    paired, significant) from the study's differences table. The leader is significant when it
    beats every other variant with Bonferroni control over those comparisons (each 95% interval
    widened to 1 − 5%/(k − 1)): by the paired or unpaired difference when one of the two is the
    baseline, else by non-overlapping intervals — of the two paired differences from the baseline
    when both exist, else of the estimates. Non-overlap of two intervals is conservative whatever
    the correlation of the two estimates. Returns leader, runner-up and the variants it does not
    beat (``ties``)."""
    vals = {k: v for k, v in values.items() if v[0] is not None and math.isfinite(v[0])}
    if len(vals) < 2:
        return None
    key = {"low": lambda x: x[0], "high": lambda x: -x[0], "abs": lambda x: abs(x[0])}[better]
    order = sorted(vals, key=lambda n: key(vals[n]))
    lead, f = order[0], _bonferroni(len(vals) - 1)
    diffs = diffs or {}
    ties = [j for j in order[1:] if not _beats(lead, j, vals, better, diffs, baseline, f)]
    return {"leader": lead, "runner_up": order[1], "ties": ties, "significant": not ties,
            "comparisons": len(vals) - 1}


def _beats(a: str, b: str, vals: dict, better: str, diffs: dict, baseline: str | None, f: float) -> bool:
    """Does ``a`` beat ``b`` on this measure (see :func:`rank_variants`)?"""
    if better == "abs":
        _, a_hi = _abs_interval(*_widen(vals[a][0], vals[a][1], vals[a][2], f))
        b_lo, _ = _abs_interval(*_widen(vals[b][0], vals[b][1], vals[b][2], f))
        return a_hi < b_lo
    sign = 1 if better == "low" else -1  # want sign * (b − a) > 0
    if baseline in (a, b) and (b if a == baseline else a) in diffs:
        d, lo, hi, _, sig = diffs[b if a == baseline else a]
        lo, hi = _widen(d, lo, hi, f)
        if b == baseline:  # the row is a − b: turn it into b − a
            d, lo, hi = -d, -hi, -lo
        return bool(sig) and (lo > 0 if sign > 0 else hi < 0)
    if a in diffs and b in diffs and diffs[a][3] and diffs[b][3]:
        (da, la, ha), (db, lb, hb) = (diffs[a][:3], diffs[b][:3])
        la, ha = _widen(da, la, ha, f)
        lb, hb = _widen(db, lb, hb, f)
    else:
        la, ha = _widen(vals[a][0], vals[a][1], vals[a][2], f)
        lb, hb = _widen(vals[b][0], vals[b][1], vals[b][2], f)
    return ha < lb if sign > 0 else la > hb


def _speed_metric(metrics: list[str]) -> str | None:
    if "turns_per_game" in metrics:
        return "turns_per_game"
    return next((m for m in metrics if m.endswith("_per_game")), None)


def compare_answer(res: StudyResult) -> dict:
    """The compare study's answer: a table (fastest, fairest, rewards skill most; value, runner-up,
    whether the ranking is significant) and a sentence on fairness."""
    est, diffs = res.tables["estimates"], res.tables["differences"]
    names = list(res.meta["variants"])
    metrics = list(dict.fromkeys(est["metric"]))
    base = names[0]
    speed = _speed_metric(metrics)
    label = lambda m: est.loc[est["metric"] == m, "label"].iloc[0]
    questions: list[tuple[str, str, str, str | None, str]] = []
    if speed:
        questions.append(("Fastest", f"fewest {label(speed)}", speed, speed, "low"))
    if "starter_edge" in metrics:
        who = label("starter_edge").split("'s edge")[0]
        questions.append(("Fairest", f"{who}'s edge closest to 0", "starter_edge", None, "abs"))
    if "skill_edge" in metrics:
        sk = res.meta.get("skill") or {}
        fair = est.loc[est["metric"] == "skill_edge", "fair"] if "fair" in est else pd.Series(dtype=float)
        # the paired win-rate difference is the edge difference only when the fair shares agree
        diff_metric = "skill_win_rate" if fair.nunique() <= 1 else None
        questions.append(("Rewards skill most", f"{sk.get('strong', 'the stronger')}'s edge over "
                          f"{sk.get('weak', 'the weaker')}", "skill_edge", diff_metric, "high"))
    if "skill_share" in metrics:
        questions.append(("Skill explains most", "the players' share of the variance of results",
                          "skill_share", "skill_share", "high"))
    rows: list[list[str]] = []
    bold: set[tuple[int, int]] = set()
    lead: list[str] = []
    same = _identical_variants(res)  # the weaker side plays like the stronger there: no skill to rank
    for q, what, metric, diff_metric, better in questions:
        sub = est[est["metric"] == metric].set_index("variant")
        values = {n: (float(sub.at[n, "value"]), float(sub.at[n, "low"]), float(sub.at[n, "high"]))
                  for n in names if n in sub.index and not (metric.startswith("skill") and n in same)}
        kind = sub["format"].iloc[0]
        d = diffs[diffs["metric"] == diff_metric] if diff_metric and len(diffs) else diffs.iloc[0:0]
        dmap = {r.variant: (r.diff, r.low, r.high, is_yes(r.paired), is_yes(r.significant)) for r in d.itertuples()}
        r = rank_variants(values, better, dmap, base)
        if r is None:
            continue
        signed = metric.endswith("edge")
        digits = max(digits_for(values[n][1], values[n][2], kind) for n in (r["leader"], r["runner_up"]))
        show = lambda n: in_points(metric, human(*values[n], kind, signed=signed, decimals=digits))  # noqa: B023
        verdict = ("yes" if r["significant"] else
                   "no: tied with " + joined(r["ties"]) if len(r["ties"]) < len(values) - 1 else
                   "no: tied with every other")
        if r["significant"]:
            bold.add((len(rows), 4))
        rows.append([f"{q}: {what}", r["leader"], show(r["leader"]), f"{r['runner_up']} {show(r['runner_up'])}", verdict])
        lead.append(f"{q}: **{r['leader']}**" if r["significant"] else
                    f"{q}: no variant is significantly ahead" if len(r["ties"]) == len(values) - 1 else
                    f"{q}: **{r['leader']}**, not separated from {joined(r['ties'])}")
    sentences = [". ".join(lead) + "."] if lead else []
    if "starter_edge" in metrics:
        sub = est[est["metric"] == "starter_edge"]
        who = label("starter_edge").split("'s edge")[0]
        sig = [r.variant for r in sub.itertuples() if is_yes(r.significant)]
        not_sig = [r.variant for r in sub.itertuples() if not is_yes(r.significant)]
        if len(names) == 1:
            r0 = sub.iloc[0]
            sentences.append(f"The {who}'s edge over the fair share ({100 * r0['fair']:.3g}%) is "
                             f"{in_pts(human(r0['value'], r0['low'], r0['high'], 'pct', signed=True))}: "
                             + ("significant." if is_yes(r0["significant"]) else "not significantly different from 0."))
        else:
            sentences.append(f"The {who}'s edge over the fair share is significant (95%, each variant on its own) in "
                             + joined(sig) + (f"; not in {joined(not_sig)}." if not_sig else ".") if sig else
                             f"The {who}'s edge over the fair share is not significant in any variant (95%, each on its own).")
    if "skill_share" in metrics and len(same) < len(names):
        sentences.append(_skill_luck_sentence(res))
    sk = res.meta.get("skill") or {}
    if sk.get("identical"):
        from simcards.studies.compare import identical_notes

        sentences += identical_notes(sk["strong"], sk["weak"], sk["identical"], sk.get("identical_deals", 0))
    table = None
    if rows:
        k = len(names) - 1
        table = Table("", ["question", "answer", "value [95% interval]", "runner-up", "ranking significant?"], rows, bold,
                      note=(f"Ranking significant: the answer beats each of the other {k} variants at a family-wise "
                            f"5% (Bonferroni over the {k} comparisons)" if k > 1 else
                            "Ranking significant: the answer beats the other variant at 5%")
                      + f": by its difference from {base} when one of the two is {base}, otherwise by "
                        "non-overlapping intervals (conservative). The edges are win rate − fair share.")
    return {"title": res.title, "lead": sentences, "table": table, "sentences": []}


def _identical_variants(res: StudyResult) -> set[str]:
    """The variants in which the compare's weaker side played exactly like the stronger one."""
    sk = res.meta.get("skill") or {}
    return set((sk.get("identical") or {}).get(sk.get("weak"), []))


def _skill_luck_sentence(res: StudyResult) -> str:
    """Skill versus luck in words: for the variants where skill explains most and least, how
    often the stronger player wins one game and a 10-game match, the games a match needs to be 95%
    sure, and how the variance of results splits between players, seats and luck."""
    est = res.tables["estimates"]
    sk = res.meta.get("skill") or {}
    shares = est[(est["metric"] == "skill_share") & ~est["variant"].isin(_identical_variants(res))]
    shares = shares.sort_values("value", ascending=False)
    picks = list(dict.fromkeys([shares["variant"].iloc[0], shares["variant"].iloc[-1]]))

    def get(v: str, metric: str):
        return est[(est["variant"] == v) & (est["metric"] == metric)].iloc[0]

    def pct(v: str, metric: str) -> str:
        r = get(v, metric)
        return human(r["value"], r["low"], r["high"], "pct")

    parts = []
    for v in picks:
        g = get(v, "games_to_be_sure")
        needs = ("no match length makes the stronger player 95% sure to win" if not math.isfinite(g["high"]) else
                 f"a match needs {games_text(g['value'], g['low'], g['high'])} games to make it 95% sure")
        parts.append(f"in {v} it wins {pct(v, 'match_win_1')} of single games and {pct(v, 'match_win_10')} of "
                     f"10-game matches; {needs}; the players explain {pct(v, 'skill_share')} of the variance of "
                     f"results, the seats {pct(v, 'seat_share')} and luck {pct(v, 'luck_share')}")
    return (f"Skill against luck ({sk.get('strong', 'the stronger')} against {sk.get('weak', 'the weaker')}, "
            f"seat-rotated): " + "; ".join(parts) + ".")


def compare_tables(res: StudyResult) -> list[Table]:
    """Per variant (measures down, variants across) and the differences from the first variant
    (the same layout, significant differences in bold)."""
    est, diffs = res.tables["estimates"], res.tables["differences"]
    names = list(res.meta["variants"])
    labels = list(dict.fromkeys(res.tables["compare"].columns[1:]))  # grouped order of the study

    def value(h, d: int) -> tuple[str, bool]:
        if h["format"] == "games":  # may be ∞: the stronger player is no better
            return games_text(h["value"], h["low"], h["high"]), False
        return (in_points(h["metric"], human(h["value"], h["low"], h["high"], h["format"],
                                           signed=h["metric"].endswith("edge"), decimals=d)),
                is_yes(h.get("significant")))

    rows, bold = _measure_rows(est, labels, names, value)
    out = [Table("Per variant (value [95% interval])", ["measure"] + names, rows, bold,
                 note="Bold: an edge that differs significantly from 0 (95%)." if bold else "")]
    if len(diffs):
        base = diffs["baseline"].iloc[0]
        others = list(dict.fromkeys(diffs["variant"]))
        paired = {v: is_yes(p) for v, p in zip(diffs["variant"], diffs["paired"])}

        def difference(h, d: int) -> tuple[str, bool]:
            text = human(h["diff"], h["low"], h["high"], h["format"], signed=True, decimals=d)
            return text.replace("%", " pts", 1), is_yes(h["significant"])

        drows, dbold = _measure_rows(diffs, list(dict.fromkeys(diffs["label"])), others, difference)
        header = [f"difference from {base}"] + [f"{n} ({'paired' if paired[n] else 'unpaired'})" for n in others]
        out.append(Table(f"Differences from {base} (other − {base}, 95% interval)", header, drows, dbold,
                         note="Bold: significant (the 95% interval excludes 0, each difference on its own). "
                              "Paired: played on the same deals as the baseline."))
    return out


def _measure_rows(long: pd.DataFrame, labels: list[str], variants: list[str],
                  cell: Callable[[pd.Series, int], tuple[str, bool]]) -> tuple[list[list[str]], set]:
    """A measure a row (its ``label``), a variant a column, from a long table: ``cell(row, decimals)``
    gives a cell's text and whether it is significant (bold); one count of decimals for a whole
    row; "-" where a variant lacks the measure."""
    rows, bold = [], set()
    for i, lab in enumerate(labels):
        hits = long[long["label"] == lab]
        d = max(digits_for(h.low, h.high, h.format) for h in hits.itertuples())
        row = [lab]
        for j, n in enumerate(variants, 1):
            hit = hits[hits["variant"] == n]
            if hit.empty:
                row.append("-")
                continue
            text, significant = cell(hit.iloc[0], d)
            row.append(text)
            if significant:
                bold.add((i, j))
        rows.append(row)
    return rows, bold


def method(res: StudyResult) -> tuple[list[str], Table | None]:
    """The variants, the self-play and skill matchups, and the rules (a table of those that differ)."""
    m = res.meta
    strategies = ", ".join(f"`{s}`" for s in dict.fromkeys(m["strategies"]))
    items = [f"variants {', '.join(m['variants'])}: {m['games']:,} self-play games each, with {strategies} "
             "at every seat"]
    if m.get("skill"):
        sk, lu = m["skill"], m["skill"]["lineups"]
        rot = (f"{len(lu)} seat rotations: {lineups_text(lu)}" if isinstance(lu, list) else
               "the seat rotations of each variant: " + "; ".join(f"{k} {lineups_text(v)}" for k, v in lu.items()))
        items.append(f"skill: `{sk['strong']}` against `{sk['weak']}`, {m['games']:,} deals × {rot} "
                     "(seat by seat, 0 = the stronger)")
        if "groups" in sk:
            items.append("skill against luck: the chance to win a match of n games and the games a match needs "
                         "to be 95% sure come from the per-game score (a game nobody won counts ½), their "
                         "intervals from the score's 95% interval through those monotone functions; the variance "
                         "of per-seat results (1: the seat won) is split into players, seats and the rest (luck) "
                         f"by a two-way analysis of variance, with percentile intervals from {sk['resamples']:,} "
                         f"bootstrap resamples of {sk['groups']} deal groups (deal index mod {sk['groups']}); "
                         "their differences between variants: normal intervals with the paired bootstrap's "
                         "standard error (the same resamples for every variant)")
    shared, table = _rules_split(m["rules"])
    if shared:
        items.append(("rules of every variant: " if len(m["rules"]) > 1 else "rules: ") + shared)
    return items, table


def _rules_split(rules: dict[str, dict]) -> tuple[str, Table | None]:
    """Rules every variant shares (one line) and a table of those that differ."""
    names = list(rules)
    keys = list(dict.fromkeys(k for r in rules.values() for k in r))
    same = [k for k in keys if all(k in rules[n] for n in names) and len({repr(rules[n][k]) for n in names}) == 1]
    shared = ", ".join(f"{human_key(k)} {human_value(rules[names[0]][k])}" for k in same)
    differ = [k for k in keys if k not in same]
    if not differ:
        return shared, None
    rows = [[human_key(k)] + [human_value(rules[n][k]) if k in rules[n] else "-" for n in names] for k in differ]
    return shared, Table("Rules in which the variants differ", ["rule"] + names, rows)


def figures(result: StudyResult) -> list[tuple[str, object, str]]:
    """Speed, the starter's edge and the skill win rate by variant (bars), and game lengths."""
    from simcards.report.plots import bars_data, draw_bars, draw_hist, hist_data

    figs = []
    est = result.tables["estimates"]
    metrics = list(dict.fromkeys(est["metric"]))
    speed = [m for m in metrics if m.endswith("_per_game") and m != "turns_per_game"]
    for metric in speed[:1] + [m for m in ("starter_edge", "skill_win_rate") if m in metrics]:
        label = est.loc[est["metric"] == metric, "label"].iloc[0]
        pct = est.loc[est["metric"] == metric, "format"].iloc[0] == "pct"
        ax = draw_bars(bars_data(est, metric), title=label, pct=pct,
                       reference={"starter_edge": 0.0, "skill_win_rate": 0.5}.get(metric))
        figs.append((f"{metric}", ax, f"{label} by variant (bars: 95% intervals)"))
    lengths = result.tables["lengths"]
    unit_col = lengths.columns[1]
    ax = draw_hist(hist_data(lengths[unit_col], 1, lengths["variant"], lengths["games"]),
                   title=f"{unit_col} per game", xlabel=f"{unit_col} per game")
    figs.append(("length", ax, f"Distribution of {unit_col} per game (self-play)"))
    return figs


KIND = StudyKind(
    name="compare", run=compare,
    keys=frozenset({"game", "variants", "players", "strategies", "games", "seed", "rules", "strong", "weak", "skill",
                    "summary_only"}),
    strategies=("strategies", "strategy", "strong", "weak"), aliases={"strategy": "strategies"},  # one for every seat
    needs={"variants = ...": ("variants",)},
    tables=("compare", "estimates", "differences", "lengths", "games"),
    display=display, details=compare_tables, answer=lambda res, results: compare_answer(res),
    method=method, figures=figures, overview=overview_rows)
