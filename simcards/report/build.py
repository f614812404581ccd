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

Every key of a study is an argument of the matching function in :mod:`simcards.studies`
(``title`` and ``text`` add a heading and a paragraph).
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import shutil
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd

from simcards.errors import SimcardsError
from simcards.studies import StudyResult, compare, equilibrium, tournament, tune
from simcards.studies.common import fmt_est
from simcards.studies.compare import games_text

KINDS: dict[str, tuple[Callable[..., StudyResult], set[str]]] = {
    "compare": (compare, {"game", "variants", "players", "strategies", "games", "seed", "rules", "strong", "weak", "skill",
                          "summary_only"}),
    "tune": (tune, {"game", "strategy", "params", "against", "variant", "players", "games", "seed", "rules",
                    "adaptive", "batch", "alpha", "confirm"}),
    "tournament": (tournament, {"game", "strategies", "variant", "players", "games", "seed", "rules", "cost"}),
    "equilibrium": (equilibrium, {"game", "strategies", "family", "params", "variant", "players", "games", "seed",
                                  "rules", "adaptive", "batch", "target", "bootstrap"}),
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
    return code_beside(check_spec(spec, str(path)), path)


STRATEGY_KEYS = ("strategies", "strategy", "strong", "weak", "against", "cost", "family")  # keys holding specs


def code_beside(spec: dict, path: Path) -> dict:
    """The strategy files a spec names (``file.py:name``, ``preset.toml``) are read relative to the
    spec's own directory and must lie inside it, links followed, unless ``--allow-outside-code``
    (``simcards.strategy.allow_outside_code``): a report spec runs the code it names, so it is code
    one must trust, like a Makefile. They become absolute paths, so that the studies (and Dask
    workers) find them from any directory; the notice before a file runs names this spec."""
    from simcards.strategy import confine, name_origin, split_specs

    named_by = f"report spec {path}"

    def one(text: str) -> str:
        head, colon, rest = text.partition(":")
        if text.endswith(".toml"):
            return str(confine(text, path.parent, named_by))
        if head.endswith(".py"):
            real = confine(head, path.parent, named_by)
            name_origin(real, named_by)
            return f"{real}{colon}{rest}"
        return text

    def specs(value: Any) -> Any:
        if isinstance(value, list):
            return [specs(v) for v in value]
        if not isinstance(value, str):
            return value
        parts = split_specs(value)
        done = [one(p) for p in parts]
        return value if done == parts else ",".join(done)

    for st in spec["study"]:
        for key in STRATEGY_KEYS:
            if key in st:
                st[key] = specs(st[key])
    return spec


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
          "text": str, "cost": str, "skill": bool, "adaptive": bool, "summary_only": bool, "players": int, "seed": int,
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
    known = {o.name for o in gdef.rule_options()}
    for key, value in rules.items():
        if key not in known:
            gdef.build_rules(None, {key: str(value)})  # raises "unknown <Game> rule option ..."


def run_study(st: dict, threads: int | None = None, progress: bool = False) -> StudyResult:
    kind = st["kind"]
    fn = KINDS[kind][0]
    args = {ALIASES.get(k, k) if kind == "compare" else k: v for k, v in st.items() if k not in TEXT_KEYS}
    game = args.pop("game")
    first = {"compare": "variants", "tune": "strategy", "tournament": "strategies", "equilibrium": None}[kind]
    if kind == "equilibrium":
        if "strategies" not in args and "family" not in args:
            raise SimcardsError(f"study equilibrium of {game} needs strategies = [...] or family = ... with params")
        t0 = time.perf_counter()
        result = fn(game, threads=threads, progress=progress, **args)
        return _finish(result, st, t0)
    if first not in args:
        raise SimcardsError(f"study {kind} of {game} needs {first} = ...")
    pos = [args.pop(first)]
    if kind == "tune":
        if "params" not in args:
            raise SimcardsError(f"study tune of {game} needs params = [\"NAME=VALUES\"]")
        pos.append(args.pop("params"))
    t0 = time.perf_counter()
    result = fn(game, *pos, threads=threads, progress=progress, **args)
    return _finish(result, st, t0)


def _finish(result: StudyResult, st: dict, t0: float) -> StudyResult:
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
            out.append(("Differences from the first variant (significant: Holm's control over the study)", d))
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
            "rating (Elo scale)": [f"{_elo(a)} [{_elo(b)}, {_elo(c)}]" for a, b, c in zip(r["rating"], r["rating_low"], r["rating_high"])],
            "wins": r["wins"].map(lambda v: f"{v:,}"), "losses": r["losses"].map(lambda v: f"{v:,}"),
            "win share": r["win_share"].map(lambda v: f"{v:.1%}"),
        })
        out.append(("Ratings (Bradley–Terry, 95% interval)", d))
        out.append(("Win rate of the row against the column (95% interval; *: differs from the fair share, Holm's "
                    "control over all the pairs)", _marked_matrix(result)))
        if "cost" in result.tables:
            out.append(cost_display(result))
    elif result.kind == "equilibrium":
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


def _marked_matrix(result: StudyResult) -> pd.DataFrame:
    """The tournament's matrix with a * on every cell whose pair is significant (the pairs table's
    flag: the win rate differs from the fair share under Holm's control)."""
    m = result.tables["matrix"].copy()
    pairs = result.tables["pairs"]
    if "significant" not in pairs:
        return m
    key = m.columns[0]
    for r in pairs.itertuples():
        if _yes(r.significant):
            row = m.index[m[key] == r.strategy]
            if len(row) and r.opponent in m.columns:
                m.loc[row[0], r.opponent] = f"{m.loc[row[0], r.opponent]} *"
    return m


def _length_display(result: StudyResult) -> pd.DataFrame:
    """The study's length table as text cells: units (rounds, hands) and turns per game."""
    lt, unit = result.tables["length"], result.summary.get("unit", "rounds")
    d = pd.DataFrame({"table": lt["table"]})
    for col in (unit, "turns"):
        if col in lt:
            d[f"{col} per game"] = [human(v, lo, hi, "num") for v, lo, hi in
                                    zip(lt[col], lt[f"{col}_low"], lt[f"{col}_high"])]
    return d


def _elo(x: float) -> str:
    """A rating on the Elo scale; ±∞ for the bound a strategy that never won (or never lost) lacks."""
    return f"{x:.0f}" if math.isfinite(x) else ("∞" if x > 0 else "−∞")


def _share(v: float, lo: float, hi: float) -> str:
    """A share with its interval at one decimal (a bootstrap interval can be a single point)."""
    if math.isnan(lo):
        return f"{100 * v:.1f}%"
    return f"{100 * v:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


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
                         "edge (win rate − fair share)": _pts(human(edge["value"], edge["low"], edge["high"], "pct",
                                                                    signed=True)),
                         "edge significant": "yes" if _yes(edge.get("significant")) else "no",
                         "largest seat deviation": _pts(human(dev["value"], dev["low"], dev["high"], "pct")),
                         "deviation significant": "yes" if _yes(dev.get("significant")) else "no",
                         "games": f"{int(sub.loc['starter_edge', 'n']):,}"})
    return pd.DataFrame(rows) if len({(r["game"], r["players"]) for r in rows}) > 1 else None


def _pts(text: str) -> str:
    """A difference of two shares (an edge: win rate − fair share) in percentage points."""
    return text.replace("%", " pts", 1)


def _points(metric: str, text: str) -> str:
    """An estimate's text, in percentage points when it is an edge or a deviation from a fair share."""
    return _pts(text) if metric.endswith(("edge", "_deviation")) and "%" in text else text


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


def _n(v) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


# ----- writing ---------------------------------------------------------------------------------------
def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "study"


def write_study_files(result: StudyResult, out: Path, prefix: str) -> dict:
    """Tables (CSV + Parquet) and figures (PNG + SVG) of one study under ``out``."""
    from simcards.report import plots

    (out / "tables").mkdir(parents=True, exist_ok=True)
    files: dict[str, list[Any]] = {"tables": [], "figures": []}  # tables: paths; figures: (path, caption)
    for name, df in result.tables.items():
        # every table as Parquet; as CSV too unless it is a long per-game table (keeps reports small)
        exts = ("csv", "parquet") if len(df) <= CSV_MAX_ROWS else ("parquet",)
        for ext in exts:
            path = out / "tables" / f"{prefix}-{name}.{ext}"
            _write_new(path, _table_writer(df, ext))
            files["tables"].append(path)
    figures = out / "figures"
    for name, ax, caption in plots.study_figures(result):
        # drawn into a new folder of their own, then renamed into figures/ (never through a link there)
        scratch = figures / f".drawing-{os.getpid()}"
        _remove_entry(scratch)
        scratch.mkdir(parents=True)
        try:
            paths = [_rename_into(p, figures) for p in plots.save(ax, scratch / f"{prefix}-{name}")]
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        files["figures"].append((paths[0], caption))
    return files


def _table_writer(df: pd.DataFrame, ext: str) -> Callable[[Path], None]:
    def write(tmp: Path) -> None:
        if ext == "csv":
            df.to_csv(tmp, index=False)
        else:
            df.reset_index(drop=True).astype({c: str for c in df.columns if df[c].dtype == object}).to_parquet(
                tmp, index=False)
    return write


def _remove_entry(path: Path) -> None:
    """Remove a leftover of ours (a link is removed, not followed)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif os.path.lexists(path):
        path.unlink()


def _rename_into(path: Path, folder: Path) -> Path:
    target = folder / path.name
    os.replace(path, target)  # replaces a link named like the file, never writes through it
    return target


def _write_new(path: Path, write: Callable[[Path], Any]) -> None:
    """``write(tmp)`` into a new temporary file beside ``path`` (whatever had its name is removed
    first, never followed), then rename it to ``path``: a symbolic link at ``path`` is replaced by
    the file, not written through."""
    from simcards.store import new_file

    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    os.close(new_file(tmp))
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _write_text(path: Path, text: str) -> None:
    _write_new(path, lambda tmp: tmp.write_text(text))


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
    check_writable(out)  # before hours of simulation, not after
    t0 = time.perf_counter()
    if results is None:
        results = [run_study(st, threads or spec.get("threads"), progress) for st in spec["study"]]
    if spec_path is not None and spec_path.resolve() != (out / "spec.toml").resolve():
        _write_text(out / "spec.toml", spec_path.read_text())
    return write_report(results, out, title=spec.get("title", "simcards report"), intro=spec.get("intro", ""),
                        spec_path=spec_path, started=t0)


def check_writable(out: Path) -> None:
    """The report's directory can be written (created if needed), and nothing in it would be
    written through a symbolic link: its ``tables``/``figures`` folders, if there, are real ones
    (``out`` itself may be a link to a directory)."""
    from simcards.store import check_out_dir, new_file

    out = Path(out)
    check_out_dir(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".simcards-write-test"
        os.close(new_file(probe))
        probe.unlink()
    except OSError as exc:
        raise SimcardsError(f"cannot write to output directory {str(out)!r}: {exc.strerror or exc}") from None
    for sub in ("tables", "figures"):
        folder = out / sub
        if folder.is_symlink():
            raise SimcardsError(f"{folder} is a symbolic link; a report writes its {sub} only into a real folder "
                                f"inside {str(out)!r}: remove the link (or choose another directory)")
        if folder.exists() and not folder.is_dir():
            raise SimcardsError(f"{folder} is not a folder; remove it (or choose another directory)")


def write_report(results: list[StudyResult], out: str | Path, *, title: str = "simcards report", intro: str = "",
                 spec_path: Path | None = None, started: float | None = None) -> dict:
    """Write the HTML and Markdown report, tables, figures and ``meta.json`` of finished studies."""
    out = Path(out)
    check_writable(out)
    _drop_earlier_files(out)
    t0 = time.perf_counter() if started is None else started
    sections = []
    all_files: dict[str, list[Path]] = {"tables": [], "figures": []}
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
    _write_text(out / "meta.json", json.dumps(meta, indent=2, default=str))
    page = page_data(title, intro, sections, out, created, total)
    _write_text(out / "report.md", render(page, "report.md.j2"))
    _write_text(out / "report.html", render(page, "report.html.j2"))
    return {"html": out / "report.html", "markdown": out / "report.md", "meta": out / "meta.json", **all_files}


STUDY_FILE = re.compile(r"^\d{2}-(compare|tune|tournament)-")


def _drop_earlier_files(out: Path) -> None:
    """Remove the tables and figures an earlier report wrote here (``NN-kind-...``), so that the
    directory holds exactly this report: a study that now writes fewer tables (``summary_only``)
    or a spec with fewer studies leaves nothing stale behind. Other files are left alone."""
    for sub in ("tables", "figures"):
        folder = out / sub
        if folder.is_dir() and not folder.is_symlink():  # (check_writable refuses a linked one)
            for f in folder.iterdir():
                if (f.is_symlink() or f.is_file()) and STUDY_FILE.match(f.name):
                    f.unlink()  # (a link is removed, not followed)


# ----- the page: plain data for the templates ------------------------------------------------------
# Everything a reader sees is built here as plain data (text in Markdown, tables as header + rows)
# and laid out by the Jinja templates in simcards/report/templates: the HTML page and the Markdown file
# show the same content.
ALPHA = 0.05


@dataclass
class Table:
    """A table as a reader sees it: text cells; ``bold`` cells (row, column) are significant."""

    caption: str
    header: list[str]
    rows: list[list[str]]
    bold: set = field(default_factory=set)
    note: str = ""  # Markdown under the table

    @classmethod
    def of(cls, caption: str, df: pd.DataFrame, note: str = "") -> "Table":
        """From a table of text cells; a column with nothing in it (every cell "-") is left out."""
        rows = [["-" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v) for v in r]
                for r in df.itertuples(index=False)]
        keep = [j for j in range(len(df.columns)) if j == 0 or any(r[j] not in ("", "-") for r in rows)]
        return cls(caption, [str(df.columns[j]) for j in keep], [[r[j] for j in keep] for r in rows], note=note)


MAX_VALUE_COLUMNS = 5  # wider tables are cut into parts that fit a page, the label column repeated


def split_columns(t: Table, most: int = MAX_VALUE_COLUMNS) -> list[Table]:
    """``t`` as parts of at most ``most`` value columns each (balanced), every part repeating the
    first column; a row with nothing but "-" in a part is left out of that part."""
    n = len(t.header) - 1
    if n <= most:
        return [t]
    k = math.ceil(n / most)
    size = math.ceil(n / k)
    parts = []
    for p, start in enumerate(range(1, n + 1, size)):
        cols = [0] + list(range(start, min(n + 1, start + size)))
        rows: list[list[str]] = []
        bold: set[tuple[int, int]] = set()
        for i, row in enumerate(t.rows):
            if all(row[c] == "-" for c in cols[1:]):
                continue
            bold |= {(len(rows), j) for j, c in enumerate(cols) if (i, c) in t.bold}
            rows.append([row[c] for c in cols])
        caption = f"{t.caption} ({p + 1} of {k})" if t.caption else ""
        parts.append(Table(caption, [t.header[c] for c in cols], rows, bold, t.note if p == k - 1 else ""))
    return parts


def human(value: float, low: float, high: float, kind: str, signed: bool = False, decimals: int | None = None) -> str:
    """``value [low, high]`` with as many decimals as the interval's half-width warrants (one
    significant digit of it, at most three decimals): ``494.5 [493.8, 495.3]``, ``70.2% [69.9, 70.4]``;
    ``decimals`` fixes them (one count for a whole table row)."""
    if value is None or not math.isfinite(value):
        return "-"
    scale = 100.0 if kind == "pct" else 1.0
    v, lo, hi = value * scale, low * scale, high * scale
    unit = "%" if kind == "pct" else ""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return _fx(v, 1 if decimals is None else decimals, signed) + unit
    d = digits_for(low, high, kind) if decimals is None else decimals
    if decimals is None and d > 1 and _fx(v, d) == _fx(lo, d) == _fx(hi, d):
        d = 1  # the extra decimals show nothing: 100.0% [100.0, 100.0], not 100.000% [100.000, 100.000]
    return f"{_fx(v, d, signed)}{unit} [{_fx(lo, d)}, {_fx(hi, d)}]"


def digits_for(low: float, high: float, kind: str) -> int:
    """Decimals that show one significant digit of an interval's half-width, two when it starts
    with a 1 (0 to 3)."""
    hw = (high - low) / 2 * (100.0 if kind == "pct" else 1.0)
    if not math.isfinite(hw) or hw <= 1e-9:  # a point (float noise is no precision: not 100.000% [100.000, ...])
        return 1
    e = math.floor(math.log10(hw))
    lead_one = hw / 10 ** e < 2  # 1.x: one digit would round 9.5 [8.5, 10.5] to 10 [8, 10]
    return min(3, max(0, -e + lead_one))


def _fx(x: float, d: int, signed: bool = False) -> str:
    text = f"{x:+,.{d}f}" if signed else f"{x:,.{d}f}"
    if float(text.replace(",", "")) == 0:  # no "-0.0" and no "+0.0"
        text = text.lstrip("+-")
    return text.replace("-", "−")


def _human_value(v) -> str:
    """A rule's value for people: yes/no, off (None), 10/10/10, 10,000."""
    if v is None:
        return "off"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return "/".join(_human_value(x) for x in v)
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, int):
        return f"{v:,}" if abs(v) >= 10_000 else str(v)
    return str(v)


def _human_key(k: str) -> str:
    return k.replace("_", " ")


def _lineups(lu) -> str:
    """Seat rotations as reader text: ``0101, 1010``."""
    return ", ".join("".join(str(x) for x in one) for one in lu)


# ----- the answer first ----------------------------------------------------------------------------
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
        dmap = {r.variant: (r.diff, r.low, r.high, _yes(r.paired), _yes(r.significant)) for r in d.itertuples()}
        r = rank_variants(values, better, dmap, base)
        if r is None:
            continue
        signed = metric.endswith("edge")
        digits = max(digits_for(values[n][1], values[n][2], kind) for n in (r["leader"], r["runner_up"]))
        show = lambda n: _points(metric, human(*values[n], kind, signed=signed, decimals=digits))  # noqa: B023
        verdict = ("yes" if r["significant"] else
                   "no: tied with " + _and(r["ties"]) if len(r["ties"]) < len(values) - 1 else
                   "no: tied with every other")
        if r["significant"]:
            bold.add((len(rows), 4))
        rows.append([f"{q}: {what}", r["leader"], show(r["leader"]), f"{r['runner_up']} {show(r['runner_up'])}", verdict])
        lead.append(f"{q}: **{r['leader']}**" if r["significant"] else
                    f"{q}: no variant is significantly ahead" if len(r["ties"]) == len(values) - 1 else
                    f"{q}: **{r['leader']}**, not separated from {_and(r['ties'])}")
    sentences = [". ".join(lead) + "."] if lead else []
    if "starter_edge" in metrics:
        sub = est[est["metric"] == "starter_edge"]
        who = label("starter_edge").split("'s edge")[0]
        sig = [r.variant for r in sub.itertuples() if _yes(r.significant)]
        not_sig = [r.variant for r in sub.itertuples() if not _yes(r.significant)]
        if len(names) == 1:
            r0 = sub.iloc[0]
            sentences.append(f"The {who}'s edge over the fair share ({100 * r0['fair']:.3g}%) is "
                             f"{_pts(human(r0['value'], r0['low'], r0['high'], 'pct', signed=True))}: "
                             + ("significant." if _yes(r0["significant"]) else "not significantly different from 0."))
        else:
            sentences.append(f"The {who}'s edge over the fair share is significant (95%, each variant on its own) in "
                             + _and(sig) + (f"; not in {_and(not_sig)}." if not_sig else ".") if sig else
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


def _yes(flag) -> bool:
    """A flag cell: True (Python or NumPy); missing (None, NaN) is no."""
    return flag is not None and not (isinstance(flag, float) and math.isnan(flag)) and bool(flag)


def _and(items: list[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def tune_row(res: StudyResult) -> list[str]:
    """One row of the tuning answer: best value, its win rate, runner-up, difference, significance."""
    s, tab = res.summary, res.tables["tune"]
    params = list(res.meta["params"])
    vals = lambda d: ", ".join(f"{p}={_n(d[p])}" for p in params)
    sel = pd.Series(True, index=tab.index)
    for p in params:
        sel &= tab[p] == s["best"][p]
    b = tab[sel].iloc[0]
    d = s.get("best_minus_runner_up") or {}  # Estimate.as_dict(): value, ci95
    diff = (human(d["value"], d["ci95"][0], d["ci95"][1], "pct", signed=True).replace("%", " pts", 1)
            if "ci95" in d else "-")
    fair = float(b["fair_share"])
    win = human(b["win_rate"], b["win_rate_low"], b["win_rate_high"], "pct")
    verdict = "yes" if _yes(s.get("significant")) else "no"
    runner = vals(s["runner_up"]) if s.get("runner_up") else "-"
    return [res.title, vals(s["best"]), win, f"{100 * fair:.3g}%", runner, diff, verdict]


def tune_answer(results: list[StudyResult]) -> dict:
    rows = [tune_row(r) for r in results]
    bold = {(i, 6) for i, r in enumerate(rows) if r[6] == "yes"}
    against = _and(list(dict.fromkeys(r.meta["against"] for r in results)))
    sentences = [f"{r.title}: {_no_better(r)}" for r in results if _no_better(r)]
    table = Table("", ["study", "best value", "its win rate [95%]", "fair share", "runner-up",
                       "best − runner-up [95%]", "significant?"], rows, bold,
                  note=f"Each value plays {against} from every seat on the same deals. Significant: the best value's "
                       "paired difference from the runner-up excludes 0. The best value's own win rate is the "
                       "highest of several, so it tends to be a little high.")
    lead = [f"{r.title}: {_lower_first(tune_sentence(r, row))}" for r, row in zip(results, rows)]
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


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


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
    sig = _yes(h2h["significant"])
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


def answers(results: list[StudyResult]) -> list[dict]:
    """What the report opens with: per compare study the answer in a sentence and a ranking table,
    all tuning sweeps in sentences and one table, per tournament a sentence. Each answer is a dict
    of ``title``, ``lead`` (Markdown sentences before the table), ``table`` and ``sentences``
    (after it)."""
    out = []
    tunes = [r for r in results if r.kind == "tune"]
    for r in results:
        if r.kind == "compare":
            out.append(compare_answer(r))
        elif r.kind == "tune" and r is tunes[0]:
            out.append(tune_answer(tunes))
        elif r.kind == "tournament":
            out.append(tournament_answer(r))
        elif r.kind == "equilibrium":
            out.append(equilibrium_answer(r, tunes))
    return out


def _plain(text: str) -> str:
    """Markdown emphasis and code marks off: the answer as the terminal and --json show it."""
    return text.replace("**", "").replace("`", "")


def answer_lines(result: StudyResult) -> list[str]:
    """The answer to one study in plain sentences — the report's words — that the study commands
    print before their tables and ``--json`` carries as ``answer``."""
    if result.kind == "tune":
        more = _no_better(result)
        return [_plain(x) for x in [tune_sentence(result)] + ([more[:1].upper() + more[1:]] if more else [])]
    return [_plain(x) for x in answers([result])[0]["lead"]]


# ----- the details ---------------------------------------------------------------------------------
def compare_tables(res: StudyResult) -> list[Table]:
    """Per variant (measures down, variants across) and the differences from the first variant
    (the same layout, significant differences in bold)."""
    est, diffs = res.tables["estimates"], res.tables["differences"]
    names = list(res.meta["variants"])
    labels = list(dict.fromkeys(res.tables["compare"].columns[1:]))  # grouped order of the study
    rows, bold = [], set()
    for i, lab in enumerate(labels):
        row = [lab]
        hits = est[est["label"] == lab]
        d = max(digits_for(h.low, h.high, h.format) for h in hits.itertuples())  # one count per row
        for j, n in enumerate(names, 1):
            hit = hits[hits["variant"] == n]
            if hit.empty:
                row.append("-")
                continue
            h = hit.iloc[0]
            if h["format"] == "games":  # may be ∞: the stronger player is no better
                row.append(games_text(h["value"], h["low"], h["high"]))
                continue
            row.append(_points(h["metric"], human(h["value"], h["low"], h["high"], h["format"],
                                                 signed=h["metric"].endswith("edge"), decimals=d)))
            if _yes(h.get("significant")):
                bold.add((i, j))
        rows.append(row)
    out = [Table("Per variant (value [95% interval])", ["measure"] + names, rows, bold,
                 note="Bold: an edge that differs significantly from 0 (95%)." if bold else "")]
    if len(diffs):
        base = diffs["baseline"].iloc[0]
        others = list(dict.fromkeys(diffs["variant"]))
        paired = {v: _yes(p) for v, p in zip(diffs["variant"], diffs["paired"])}
        dl = list(dict.fromkeys(diffs["label"]))
        drows, dbold = [], set()
        for i, lab in enumerate(dl):
            row = [lab]
            hits = diffs[diffs["label"] == lab]
            d = max(digits_for(h.low, h.high, h.format) for h in hits.itertuples())
            for j, n in enumerate(others, 1):
                hit = hits[hits["variant"] == n]
                if hit.empty:
                    row.append("-")
                    continue
                h = hit.iloc[0]
                text = human(h["diff"], h["low"], h["high"], h["format"], signed=True, decimals=d)
                row.append(text.replace("%", " pts", 1))
                if _yes(h["significant"]):
                    dbold.add((i, j))
            drows.append(row)
        header = [f"difference from {base}"] + [f"{n} ({'paired' if paired[n] else 'unpaired'})" for n in others]
        out.append(Table(f"Differences from {base} (other − {base}, 95% interval)", header, drows, dbold,
                         note="Bold: significant (the 95% interval excludes 0, each difference on its own). "
                              "Paired: played on the same deals as the baseline."))
    return out


def detail_tables(res: StudyResult) -> list[Table]:
    tables = compare_tables(res) if res.kind == "compare" else [Table.of(c, df) for c, df in display_tables(res)]
    return [part for t in tables for part in split_columns(t)]


def method_items(res: StudyResult) -> tuple[list[str], Table | None]:
    """The method of one study for people: Markdown items and, for a compare of several variants,
    the table of the rules in which they differ."""
    m = res.meta
    items = [f"{m['study']} of {m['game']}, {m['players']} players, seed {m['seed']}"]
    table = None
    if m["study"] == "compare":
        strategies = ", ".join(f"`{s}`" for s in dict.fromkeys(m["strategies"]))
        items.append(f"variants {', '.join(m['variants'])}: {m['games']:,} self-play games each, with {strategies} "
                     "at every seat")
        if m.get("skill"):
            sk, lu = m["skill"], m["skill"]["lineups"]
            rot = (f"{len(lu)} seat rotations: {_lineups(lu)}" if isinstance(lu, list) else
                   "the seat rotations of each variant: " + "; ".join(f"{k} {_lineups(v)}" for k, v in lu.items()))
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
    else:
        items.append(f"variant {m['variant']}; rules: {_rules_line(m['rules'])}")
        if m["study"] == "tune":
            sweep = "; ".join(f"{k} = {', '.join(_n(v) for v in vals)}" for k, vals in m["params"].items())
            items.append(f"family `{m['family']}` (base `{m['base']}`), sweep {sweep}; against `{m['against']}`; "
                         f"{len(m['lineups'])} seat rotations: {_lineups(m['lineups'])} (seat by seat, 0 = the candidate)")
            items.append(f"adaptive racing in batches of {m['batch']:,} deals, at most {m['games']:,} deals per value, "
                         f"alpha {m['alpha']:g}" if m["adaptive"] else f"flat grid, {m['games']:,} deals per value")
        elif m["study"] == "equilibrium":
            items.append(f"population {', '.join(f'`{s}`' for s in m['strategies'])}; every profile at the table in "
                         f"every distinct seat rotation, on common deals; at most {m['games']:,} deals per profile"
                         + (" (adaptive)" if m["adaptive"] else "") + f"; {m['bootstrap']} bootstrap resamples")
        else:
            items.append(f"strategies {', '.join(f'`{s}`' for s in m['strategies'])}; {m['games']:,} deals per pair × "
                         f"{len(m['lineups'])} seat rotations: {_lineups(m['lineups'])} (seat by seat, 0 = the first of a pair)")
    seconds = m.get("study_seconds", m.get("elapsed_seconds", 0))
    items.append(f"games played: {m['games_played']:,} in {seconds:,.1f} s")
    items.append("versions: " + ", ".join(f"{k} {v}" for k, v in m["versions"].items()))
    return items, table


def _rules_line(rules: dict) -> str:
    return ", ".join(f"{_human_key(k)} {_human_value(v)}" for k, v in rules.items())


def _rules_split(rules: dict[str, dict]) -> tuple[str, Table | None]:
    """Rules every variant shares (one line) and a table of those that differ."""
    names = list(rules)
    keys = list(dict.fromkeys(k for r in rules.values() for k in r))
    same = [k for k in keys if all(k in rules[n] for n in names) and len({repr(rules[n][k]) for n in names}) == 1]
    shared = ", ".join(f"{_human_key(k)} {_human_value(rules[names[0]][k])}" for k in same)
    differ = [k for k in keys if k not in same]
    if not differ:
        return shared, None
    rows = [[_human_key(k)] + [_human_value(rules[n][k]) if k in rules[n] else "-" for n in names] for k in differ]
    return shared, Table("Rules in which the variants differ", ["rule"] + names, rows)


METHOD_INTRO = (
    "Every game *i* of a seed is dealt from its own random stream, so studies replay exactly. Variants with "
    "the same deck and every value of a sweep play the same game indices (common random numbers), and their "
    "differences are computed game by game (paired). Matchups are played once per seat rotation on the same "
    "deals; the deal is the unit of every interval (its value averages the rotations). Rates carry 95% "
    "intervals (Wilson widened to the exact Clopper–Pearson interval for proportions of games, normal over "
    "deals for rotated win rates, delta method for ratios such as turns per round, widened to the exact "
    "interval of the count for rare events); differences of rates near 0 or 1 use Newcombe-type (MOVER) "
    "intervals. A difference is significant under Holm's control of the family-wise error rate at 5% over "
    "all the differences of a study. A tune's best value is replayed on fresh deals before it is called "
    "better than the reference. Ratings are Bradley–Terry strengths on the Elo scale.")


def page_data(title: str, intro: str, sections, out: Path, created: str, total: float) -> dict:
    """Everything the templates lay out."""
    results = [r for r, _ in sections]
    overview = fairness_overview(results)
    studies = []
    for res, files in sections:
        figures = []
        for path, caption in files["figures"]:
            rel = path.relative_to(out).as_posix()
            figures.append({"png": rel, "svg": Path(rel).with_suffix(".svg").as_posix(), "caption": caption,
                            "data": base64.b64encode(path.read_bytes()).decode("ascii")})
        raw = [(p.name, p.relative_to(out).as_posix()) for p in files["tables"]
               if p.suffix == ".csv" or p.with_suffix(".csv") not in files["tables"]]
        items, rules_table = method_items(res)
        rules = split_columns(rules_table) if rules_table is not None else []
        studies.append({"title": res.title, "text": res.meta.get("text", "").strip(), "notes": res.notes,
                        "tables": detail_tables(res), "figures": figures, "raw": raw,
                        "method": items, "rules": rules})
    return {"title": title, "intro": (intro or "").strip(), "answers": answers(results),
            "overview": Table.of("", overview) if overview is not None else None,
            "studies": studies, "method_intro": METHOD_INTRO, "created": created, "seconds": total}


# ----- templates -----------------------------------------------------------------------------------
CI = re.compile(r"^(.*\S) (\[[^\]]*\])$")
NUMERIC = re.compile(r"^([−+-]?[\d.,]+(%| pts| s)?( \[[^\]]*\])?|-)$")


def _is_numeric(text) -> bool:
    """Numbers (with an interval) are right-aligned, words left-aligned."""
    return bool(NUMERIC.match(str(text)))


def _cell_html(text: str):
    """A table cell: the interval in a quieter span after the value, both kept on one line."""
    from markupsafe import Markup, escape

    m = CI.match(str(text))
    if not m:
        return escape(text)
    return Markup('<span class="v">{}</span> <span class="ci">{}</span>').format(m.group(1), m.group(2))


def _markdown_it():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "typographer": False})


def _md_block(text: str):
    from markupsafe import Markup

    return Markup(_markdown_it().render(text or ""))


def _md_inline(text: str):
    from markupsafe import Markup

    return Markup(_markdown_it().renderInline(text or ""))


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _env():
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(loader=PackageLoader("simcards.report", "templates"), undefined=StrictUndefined,
                      autoescape=lambda name: bool(name) and name.endswith(".html.j2"),
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(cell=_cell_html, md=_md_block, mdinline=_md_inline, mdcell=_md_cell)
    env.tests["numeric"] = _is_numeric
    return env


def render(page: dict, template: str) -> str:
    """Lay out :func:`page_data` with ``report.html.j2`` or ``report.md.j2``."""
    return _env().get_template(template).render(**page)
