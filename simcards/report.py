"""Reports: run the studies a TOML spec declares and write a self-contained HTML page (figures
embedded as data URIs, so it opens offline), a Markdown version (figures as PNG files beside it),
the raw tables (CSV and Parquet), the figures (PNG and SVG) and the run metadata.

A spec::

    title = "Yaniv: which variant is faster, which is fairer?"
    intro = "Optional text under the title."

    [[study]]
    kind = "compare"                 # compare | tune | tournament
    game = "yaniv"
    variants = ["israeli", "nepali"]
    games = 2000
    seed = 1

    [[study]]
    kind = "tune"
    game = "yaniv"
    strategy = "threshold"
    params = ["call=0..5"]           # or { call = "0..5" }
    adaptive = true

Every key of a study is an argument of the matching function in :mod:`simcards.analysis`
(``title`` and ``text`` add a heading and a paragraph).
"""

from __future__ import annotations

import base64
import html
import json
import re
import time
import tomllib
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from simcards.analysis.study import StudyResult, compare, fmt_est, tournament, tune
from simcards.errors import SimcardsError

KINDS = {
    "compare": (compare, {"game", "variants", "players", "strategies", "games", "seed", "rules", "strong", "weak", "skill",
                          "summary_only"}),
    "tune": (tune, {"game", "strategy", "params", "against", "variant", "players", "games", "seed", "rules",
                    "adaptive", "batch", "alpha"}),
    "tournament": (tournament, {"game", "strategies", "variant", "players", "games", "seed", "rules"}),
}
TEXT_KEYS = {"kind", "title", "text"}
CSV_MAX_ROWS = 2000  # longer tables (per-game rows) are written as Parquet only
ALIASES = {"strategy": "strategies"}  # compare: one spec for all seats


# ----- specs ---------------------------------------------------------------------------------------
def load_spec(path: str | Path) -> dict:
    """Read and check a report spec; every problem is one clear line."""
    path = Path(path)
    if not path.is_file():
        raise SimcardsError(f"report spec {str(path)!r} does not exist")
    try:
        spec = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SimcardsError(f"malformed report spec {str(path)!r}: {exc}") from None
    return check_spec(spec, str(path))


def check_spec(spec: dict, where: str = "spec") -> dict:
    unknown = set(spec) - {"title", "intro", "study", "threads"}
    if unknown:
        raise SimcardsError(f"{where}: unknown top-level key(s) {', '.join(sorted(unknown))}; allowed: title, intro, threads, [[study]]")
    studies = spec.get("study")
    if not isinstance(studies, list) or not studies:
        raise SimcardsError(f"{where}: declare at least one [[study]] table")
    for i, st in enumerate(studies, 1):
        kind = st.get("kind")
        if kind not in KINDS:
            raise SimcardsError(f"{where}: study {i} has kind={kind!r}; allowed: {', '.join(KINDS)}")
        allowed = KINDS[kind][1] | TEXT_KEYS | ({"strategy"} if kind == "compare" else set())
        bad = set(st) - allowed
        if bad:
            raise SimcardsError(f"{where}: study {i} ({kind}) has unknown key(s) {', '.join(sorted(bad))}; "
                                f"allowed: {', '.join(sorted(allowed))}")
        if "game" not in st:
            raise SimcardsError(f"{where}: study {i} ({kind}) needs a game = \"...\"")
        _check_types(st, f"{where}: study {i} ({kind})")
    threads = spec.get("threads")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)):
        raise SimcardsError(f"{where}: threads = {threads!r}: give a whole number of threads")
    return spec


# What a spec value must be (the study functions check ranges and names themselves).
_TYPES = {"game": str, "variant": str, "strong": str, "weak": str, "against": str, "strategy": str, "title": str,
          "text": str, "skill": bool, "adaptive": bool, "summary_only": bool, "players": int, "seed": int,
          "batch": int, "alpha": float, "variants": (str, list), "strategies": (str, list), "params": (str, list, dict),
          "games": (int, list), "rules": dict}
_TYPE_WORDS = {str: "a string", bool: "true or false", int: "a whole number", float: "a number", dict: "a table"}


def _check_types(st: dict, where: str) -> None:
    """One line for a value of the wrong type (not a traceback from deep inside a study)."""
    for key, want in _TYPES.items():
        if key not in st:
            continue
        value = st[key]
        kinds = want if isinstance(want, tuple) else (want,)
        ok = any(isinstance(value, k) and not (k in (int, float) and isinstance(value, bool)) for k in kinds)
        if float in kinds and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            words = " or ".join(_TYPE_WORDS.get(k, "a list") for k in kinds)
            hint = ", e.g. rules = { call_limit = 7 }" if key == "rules" else ""
            raise SimcardsError(f"{where}: {key} = {value!r}: give {words}{hint}")
    if "rules" in st:
        try:
            _check_rule_keys(st["game"], st["rules"])
        except SimcardsError as exc:
            raise SimcardsError(f"{where}: {exc}") from None


def _check_rule_keys(game: str, rules: dict) -> None:
    """Unknown rule keys get the CLI's message (``--rule foo=1``), not a dataclass TypeError."""
    from simcards.games import get_game

    gdef = get_game(game)
    known = {o.name for o in gdef.options()}
    for key, value in rules.items():
        if key not in known:
            gdef.build_rules(None, {key: str(value)})  # raises "unknown <Game> rule option ..."


def run_study(st: dict, threads: int | None = None, progress: bool = False) -> StudyResult:
    kind = st["kind"]
    fn = KINDS[kind][0]
    args = {ALIASES.get(k, k) if kind == "compare" else k: v for k, v in st.items() if k not in TEXT_KEYS}
    game = args.pop("game")
    first = {"compare": "variants", "tune": "strategy", "tournament": "strategies"}[kind]
    if first not in args:
        raise SimcardsError(f"study {kind} of {game} needs {first} = ...")
    pos = [args.pop(first)]
    if kind == "tune":
        if "params" not in args:
            raise SimcardsError(f"study tune of {game} needs params = [\"NAME=VALUES\"]")
        pos.append(args.pop("params"))
    t0 = time.perf_counter()
    result = fn(game, *pos, threads=threads, progress=progress, **args)
    result.meta["study_seconds"] = round(time.perf_counter() - t0, 3)
    if st.get("title"):
        result.title = st["title"]
    result.meta["text"] = st.get("text", "")
    result.meta["spec"] = st
    return result


# ----- what a reader sees ----------------------------------------------------------------------------
def display_tables(result: StudyResult) -> list[tuple[str, pd.DataFrame]]:
    """(caption, table of text cells) for a result, as shown in the terminal and the reports."""
    out = []
    if result.kind == "compare":
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
            out.append(("Differences from the first variant", d))
    elif result.kind == "tune":
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
        out.append((f"Against {result.meta['against']} (value [95% interval])", d))
    elif result.kind == "tournament":
        r = result.tables["ratings"]
        d = pd.DataFrame({
            "strategy": r["strategy"],
            "rating (Elo scale)": [f"{a:.0f} [{b:.0f}, {c:.0f}]" for a, b, c in zip(r["rating"], r["rating_low"], r["rating_high"])],
            "wins": r["wins"].map(lambda v: f"{v:,}"), "losses": r["losses"].map(lambda v: f"{v:,}"),
            "win share": r["win_share"].map(lambda v: f"{v:.1%}"),
        })
        out.append(("Ratings (Bradley–Terry, 95% interval)", d))
        out.append(("Win rate of the row against the column (95% interval)", result.tables["matrix"]))
    return out


def fairness_overview(results: list[StudyResult]) -> pd.DataFrame | None:
    """One row per (compare study, variant): the starter's/dealer's edge and the largest seat
    deviation, side by side across games — shown at the top of a report with several compares."""
    rows = []
    for res in results:
        if res.kind != "compare":
            continue
        est = res.tables["estimates"]
        for v in res.meta["variants"]:
            sub = est[est["variant"] == v].set_index("metric")
            edge, dev = sub.loc["starter_edge"], sub.loc["max_seat_deviation"]
            rows.append({"game": res.meta["game"], "players": res.meta["players"], "variant": v,
                         "who": edge["label"].split("'s edge")[0],
                         "edge (win rate − fair share)": fmt_est(edge["value"], edge["low"], edge["high"], "pct"),
                         "edge significant": "yes" if edge.get("significant") is True else "no",
                         "largest seat deviation": fmt_est(dev["value"], dev["low"], dev["high"], "pct"),
                         "deviation significant": "yes" if dev.get("significant") is True else "no",
                         "games": f"{int(sub.loc['starter_edge', 'n']):,}"})
    return pd.DataFrame(rows) if len({(r["game"], r["players"]) for r in rows}) > 1 else None


def _diff_text(v, lo, hi, kind) -> str:
    if kind == "pct":
        return f"{100 * v:+.2f} pts [{100 * lo:+.2f}, {100 * hi:+.2f}]"
    return f"{v:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def markdown_table(df: pd.DataFrame) -> str:
    cols = [str(c) for c in df.columns]
    esc = lambda x: str(x).replace("|", "\\|").replace("\n", " ")
    lines = ["| " + " | ".join(esc(c) for c in cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(esc(v) for v in row) + " |")
    return "\n".join(lines)


def method_lines(result: StudyResult) -> list[str]:
    """The method section of one study: seeds, rules, strategies, versions, timings."""
    m = result.meta
    lines = [f"study: {m['study']} — game {m['game']}, {m['players']} players, seed {m['seed']}"]
    if m["study"] == "compare":
        lines.append(f"variants: {', '.join(m['variants'])}; {m['games']:,} self-play games per variant "
                     f"with strategies {', '.join(dict.fromkeys(m['strategies']))}")
        if m.get("skill"):
            lu = m["skill"]["lineups"]
            rotations = (f"{len(lu)} seat rotations {lu}" if isinstance(lu, list) else
                         "the seat rotations of each variant " + "; ".join(f"{k}: {v}" for k, v in lu.items()))
            lines.append(f"skill: {m['skill']['strong']} against {m['skill']['weak']}, {m['games']:,} deals × "
                         f"{rotations} (0 = stronger)")
        for name, rules in m["rules"].items():
            lines.append(f"rules of {name}: {_rules_text(rules)}")
    else:
        lines.append(f"variant {m['variant']}; rules: {_rules_text(m['rules'])}")
        if m["study"] == "tune":
            lines.append(f"family {m['family']} (base {m['base']}), sweep "
                         + "; ".join(f"{k} = {', '.join(_n(v) for v in vals)}" for k, vals in m["params"].items())
                         + f"; against {m['against']}; seat rotations {m['lineups']} (0 = candidate)")
            lines.append(f"{'adaptive racing, batches of ' + format(m['batch'], ',') + ' deals, at most ' if m['adaptive'] else 'flat grid, '}"
                         f"{m['games']:,} deals per value; alpha {m['alpha']}")
        else:
            lines.append(f"strategies: {', '.join(m['strategies'])}; {m['games']:,} deals per pair × "
                         f"{len(m['lineups'])} seat rotations {m['lineups']}")
    lines.append(f"games played: {m['games_played']:,}; time: {m.get('study_seconds', m.get('elapsed_seconds', 0)):.1f} s")
    v = m["versions"]
    lines.append("versions: " + ", ".join(f"{k} {val}" for k, val in v.items()))
    return lines


def _n(v) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def _rules_text(rules: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in rules.items())


# ----- writing ---------------------------------------------------------------------------------------
def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "study"


def write_study_files(result: StudyResult, out: Path, prefix: str) -> dict:
    """Tables (CSV + Parquet) and figures (PNG + SVG) of one study under ``out``."""
    from simcards import plots

    (out / "tables").mkdir(parents=True, exist_ok=True)
    files = {"tables": [], "figures": []}
    for name, df in result.tables.items():
        # every table as Parquet; as CSV too unless it is a long per-game table (keeps reports small)
        exts = ("csv", "parquet") if len(df) <= CSV_MAX_ROWS else ("parquet",)
        for ext in exts:
            path = out / "tables" / f"{prefix}-{name}.{ext}"
            if ext == "csv":
                df.to_csv(path, index=False)
            else:
                df.reset_index(drop=True).astype({c: str for c in df.columns if df[c].dtype == object}).to_parquet(path, index=False)
            files["tables"].append(path)
    for name, ax, caption in plots.study_figures(result):
        paths = plots.save(ax, out / "figures" / f"{prefix}-{name}")
        files["figures"].append((paths[0], caption))
    return files


def build_report(spec: dict | str | Path, out: str | Path, *, threads: int | None = None,
                 progress: bool = False, results: list[StudyResult] | None = None) -> dict:
    """Run the spec's studies (or use ``results``) and write the report into ``out``; returns the
    paths written (``html``, ``markdown``, ``tables``, ``figures``, ``meta``)."""
    spec_path = None
    if not isinstance(spec, dict):
        spec_path = Path(spec)
        spec = load_spec(spec_path)
    else:
        spec = check_spec(spec)
    out = Path(out)
    _writable(out)  # before hours of simulation, not after
    t0 = time.perf_counter()
    if results is None:
        results = [run_study(st, threads or spec.get("threads"), progress) for st in spec["study"]]
    if spec_path is not None and spec_path.resolve() != (out / "spec.toml").resolve():
        (out / "spec.toml").write_text(spec_path.read_text())
    return write_report(results, out, title=spec.get("title", "simcards report"), intro=spec.get("intro", ""),
                        spec_path=spec_path, started=t0)


def _writable(out: Path) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".simcards-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise SimcardsError(f"cannot write to output directory {str(out)!r}: {exc.strerror or exc}") from None


def write_report(results: list[StudyResult], out: str | Path, *, title: str = "simcards report", intro: str = "",
                 spec_path: Path | None = None, started: float | None = None) -> dict:
    """Write the HTML and Markdown report, tables, figures and ``meta.json`` of finished studies."""
    out = Path(out)
    _writable(out)
    _drop_earlier_files(out)
    t0 = time.perf_counter() if started is None else started
    spec = {"title": title, "intro": intro}
    sections = []
    all_files = {"tables": [], "figures": []}
    for i, res in enumerate(results, 1):
        prefix = f"{i:02d}-{res.kind}-{_slug(res.meta['game'])}"
        files = write_study_files(res, out, prefix)
        all_files["tables"] += files["tables"]
        all_files["figures"] += [p for p, _ in files["figures"]]
        sections.append((res, files))
    total = time.perf_counter() - t0
    created = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    meta = {"title": title, "created": created, "seconds": round(total, 2),
            "spec": str(spec_path) if spec_path else None, "studies": [r.meta for r in results],
            "summaries": [r.summary for r in results], "notes": [r.notes for r in results]}
    (out / "meta.json").write_text(json.dumps(meta, indent=2, default=str))
    (out / "report.md").write_text(_markdown(spec, sections, out, created, total))
    (out / "report.html").write_text(_html(spec, sections, out, created, total))
    return {"html": out / "report.html", "markdown": out / "report.md", "meta": out / "meta.json", **all_files}


STUDY_FILE = re.compile(r"^\d{2}-(compare|tune|tournament)-")


def _drop_earlier_files(out: Path) -> None:
    """Remove the tables and figures an earlier report wrote here (``NN-kind-...``), so that the
    directory holds exactly this report: a study that now writes fewer tables (``summary_only``)
    or a spec with fewer studies leaves nothing stale behind. Other files are left alone."""
    for sub in ("tables", "figures"):
        folder = out / sub
        if folder.is_dir():
            for f in folder.iterdir():
                if f.is_file() and STUDY_FILE.match(f.name):
                    f.unlink()


def _markdown(spec, sections, out: Path, created: str, total: float) -> str:
    lines = [f"# {spec.get('title', 'simcards report')}", ""]
    if spec.get("intro"):
        lines += [spec["intro"].strip(), ""]
    overview = fairness_overview([r for r, _ in sections])
    if overview is not None:
        lines += ["## Overview: starter's or dealer's edge across studies", "", markdown_table(overview), ""]
    for res, files in sections:
        lines += [f"## {res.title}", ""]
        if res.meta.get("text"):
            lines += [res.meta["text"].strip(), ""]
        for note in res.notes:
            lines += [f"- {note}"]
        lines.append("")
        for caption, df in display_tables(res):
            lines += [f"**{caption}**", "", markdown_table(df), ""]
        for path, caption in files["figures"]:
            rel = path.relative_to(out).as_posix()
            lines += [f"![{caption}]({rel})", f"*{caption}* ([SVG]({Path(rel).with_suffix('.svg').as_posix()}))", ""]
        tables = ", ".join(f"[{p.name}]({p.relative_to(out).as_posix()})" for p in files["tables"]
                           if p.suffix == ".csv" or not p.with_suffix(".csv") in files["tables"])
        lines += [f"Raw tables (CSV with Parquet beside it; long per-game tables as Parquet only): {tables}", ""]
    lines += ["## Method", ""]
    lines += _method_intro()
    for res, _ in sections:
        lines += [f"**{res.title}**", ""] + [f"- {line}" for line in method_lines(res)] + [""]
    lines += [f"Generated {created} in {total:.1f} s by `simcards report`."]
    return "\n".join(lines) + "\n"


def _method_intro() -> list[str]:
    return [
        "Every game *i* of a seed is dealt from its own random stream, so studies replay exactly. "
        "Variants with the same deck and every value of a sweep play the same game indices (common random "
        "numbers), and their differences are computed game by game (paired). Matchups are played once per "
        "seat rotation on the same deals; the deal is the unit of every interval (its value averages the "
        "rotations). Rates carry 95% intervals (Wilson for proportions of games, normal over deals for "
        "rotated win rates, delta method for ratios such as turns per round); a difference is significant "
        "when its 95% interval excludes 0. Ratings are Bradley–Terry strengths on the Elo scale.", ""]


CSS = """body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{border-bottom:2px solid #4C72B0}h2{margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.9em}th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f0f3f8}td:first-child,th:first-child{text-align:left}figure{margin:1em 0}figcaption{font-size:.85em;color:#555}
img{max-width:100%}.note{background:#f7f7f2;border-left:4px solid #c9b458;padding:.4em .8em;margin:.4em 0}
.method li{font-size:.85em}code{background:#f3f3f3;padding:0 .2em}"""


def _html(spec, sections, out: Path, created: str, total: float) -> str:
    e = html.escape
    parts = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
             f"<title>{e(spec.get('title', 'simcards report'))}</title><style>{CSS}</style></head><body>",
             f"<h1>{e(spec.get('title', 'simcards report'))}</h1>"]
    if spec.get("intro"):
        parts.append(f"<p>{e(spec['intro'].strip())}</p>")
    overview = fairness_overview([r for r, _ in sections])
    if overview is not None:
        parts.append("<h2>Overview: starter's or dealer's edge across studies</h2>")
        parts.append(overview.to_html(index=False, escape=True, border=0, na_rep="-"))
    for res, files in sections:
        parts.append(f"<h2>{e(res.title)}</h2>")
        if res.meta.get("text"):
            parts.append(f"<p>{e(res.meta['text'].strip())}</p>")
        for note in res.notes:
            parts.append(f"<p class='note'>{e(note)}</p>")
        for caption, df in display_tables(res):
            parts.append(f"<h3>{e(caption)}</h3>")
            parts.append(df.to_html(index=False, escape=True, border=0, na_rep="-"))
        for path, caption in files["figures"]:
            data = base64.b64encode(path.read_bytes()).decode("ascii")
            parts.append(f"<figure><img alt='{e(caption)}' src='data:image/png;base64,{data}'>"
                         f"<figcaption>{e(caption)}</figcaption></figure>")
        tables = ", ".join(p.name for p in files["tables"]
                           if p.suffix == ".csv" or not p.with_suffix(".csv") in files["tables"])
        parts.append(f"<p><small>Raw tables in <code>tables/</code> (CSV with Parquet beside it; long per-game "
                     f"tables as Parquet only): {e(tables)}</small></p>")
    parts.append("<h2>Method</h2>")
    parts += [f"<p>{e(t)}</p>" for t in _method_intro() if t]
    for res, _ in sections:
        parts.append(f"<h3>{e(res.title)}</h3><ul class='method'>")
        parts += [f"<li>{e(line)}</li>" for line in method_lines(res)]
        parts.append("</ul>")
    parts.append(f"<p><small>Generated {e(created)} in {total:.1f} s by <code>simcards report</code>.</small></p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
