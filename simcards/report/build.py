"""Reports: run the studies a TOML spec declares and write a self-contained HTML page (figures
embedded as data URIs, so it opens offline), a Markdown version (figures as PNG files beside it),
the raw tables (CSV and Parquet), the figures (PNG and SVG) and the run metadata.

A spec::

    title = "Yaniv: which variant is faster, which is fairer?"
    intro = "Optional text under the title."

    [[study]]
    kind = "compare"                 # compare | tune | tournament | equilibrium
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
(``title`` and ``text`` add a heading and a paragraph). What each kind takes, writes, answers and
plots is its declaration in :mod:`simcards.report.kinds`; this module only asks a result's kind.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import time
import tomllib
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pandas as pd

from simcards.errors import SimcardsError
from simcards.report.kinds import KINDS, kind_of, study_file
from simcards.report.kinds.compare import compare_answer, compare_tables  # noqa: F401 (the report's API)
from simcards.report.kinds.equilibrium import equilibrium_answer  # noqa: F401 (the report's API)
from simcards.report.text import Table, digits_for, human, markdown_table, split_columns  # noqa: F401 (the report's API)
from simcards.store import write_new
from simcards.studies import StudyResult

CSV_MAX_ROWS = 2000  # longer tables (per-game rows) are written as Parquet only


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
        for key in KINDS[st["kind"]].strategies:
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
        allowed = KINDS[kind].spec_keys()
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
    t0 = time.perf_counter()
    return _finish(KINDS[st["kind"]].play(st, threads, progress), st, t0)


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
    return kind_of(result).display(result)


def fairness_overview(results: list[StudyResult]) -> pd.DataFrame | None:
    """The starter's/dealer's edge and the largest seat deviation of every variant a study compares
    (its kind's overview rows), side by side across games — shown at the top of a report that
    compares several games (or player counts)."""
    rows = [row for res in results for row in kind_of(res).overview_rows(res)]
    return pd.DataFrame(rows) if len({(r["game"], r["players"]) for r in rows}) > 1 else None


# ----- writing ---------------------------------------------------------------------------------------


def write_study_files(result: StudyResult, out: Path, prefix: str) -> dict:
    """Tables (CSV + Parquet) and figures (PNG + SVG) of one study under ``out``."""
    from simcards.report import plots

    kind = kind_of(result)
    undeclared = set(result.tables) - set(kind.tables)
    if undeclared:  # its files would not be known to belong to it
        raise ValueError(f"a {kind.name} study has table(s) {', '.join(sorted(undeclared))} its kind does not "
                         "declare (StudyKind.tables)")
    (out / "tables").mkdir(parents=True, exist_ok=True)
    files: dict[str, list[Any]] = {"tables": [], "figures": []}  # tables: paths; figures: (path, caption)
    for name, df in result.tables.items():
        # every table as Parquet; as CSV too unless it is a long per-game table (keeps reports small)
        exts = ("csv", "parquet") if len(df) <= CSV_MAX_ROWS else ("parquet",)
        for ext in exts:
            path = out / "tables" / f"{prefix}-{name}.{ext}"
            write_new(path, _table_writer(df, ext))
            files["tables"].append(path)
    figures = out / "figures"
    for name, ax, caption in kind.figures(result):
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


def _write_text(path: Path, text: str) -> None:
    write_new(path, lambda tmp: tmp.write_text(text))


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
        prefix = kind_of(res).file_prefix(i, res.meta["game"])
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


def _drop_earlier_files(out: Path) -> None:
    """Remove the tables and figures an earlier report wrote here (``NN-kind-...``), so that the
    directory holds exactly this report: a study that now writes fewer tables (``summary_only``)
    or a spec with fewer studies leaves nothing stale behind. Other files are left alone."""
    for sub in ("tables", "figures"):
        folder = out / sub
        if folder.is_dir() and not folder.is_symlink():  # (check_writable refuses a linked one)
            for f in folder.iterdir():
                if (f.is_symlink() or f.is_file()) and study_file(f.name):
                    f.unlink()  # (a link is removed, not followed)


# ----- the page: plain data for the templates ------------------------------------------------------
# Everything a reader sees is built here as plain data (text in Markdown, tables as header + rows)
# and laid out by the Jinja templates in simcards/report/templates: the HTML page and the Markdown file
# show the same content. What a kind says is its declaration's (simcards/report/kinds/).


def answers(results: list[StudyResult]) -> list[dict]:
    """What the report opens with: each study's part of the answer (its kind's ``answer``: per
    compare study a sentence and a ranking table, all tuning sweeps in sentences and one table, per
    tournament a sentence). Each answer is a dict of ``title``, ``lead`` (Markdown sentences before
    the table), ``table`` and ``sentences`` (after it)."""
    said = (kind_of(r).answer(r, results) for r in results)
    return [a for a in said if a is not None]


def answer_lines(result: StudyResult) -> list[str]:
    """The answer to one study in plain sentences — the report's words — that the study commands
    print before their tables and ``--json`` carries as ``answer``."""
    return kind_of(result).answer_words(result)


def detail_tables(res: StudyResult) -> list[Table]:
    return [part for t in kind_of(res).detail_tables(res) for part in split_columns(t)]


def method_items(res: StudyResult) -> tuple[list[str], Table | None]:
    """The method of one study for people: Markdown items and, for a compare of several variants,
    the table of the rules in which they differ."""
    m = res.meta
    items, table = kind_of(res).method(res)
    seconds = m.get("study_seconds", m.get("elapsed_seconds", 0))
    return [f"{m['study']} of {m['game']}, {m['players']} players, seed {m['seed']}", *items,
            f"games played: {m['games_played']:,} in {seconds:,.1f} s",
            "versions: " + ", ".join(f"{k} {v}" for k, v in m["versions"].items())], table


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
