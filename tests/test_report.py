"""Reports: a tiny seeded spec produces an HTML page that references only files that exist (or
embedded data), a Markdown version whose links exist, raw tables and a method section."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from simcards.errors import SimcardsError
from simcards.report import build_report, check_spec, load_spec, markdown_table

SPEC = '''
title = "Tiny report"
intro = "A seeded test."

[[study]]
kind = "compare"
game = "two-hundred"
variants = ["standard"]
games = 60
seed = 1
title = "Two Hundred, standard"
text = "Speed and fairness."

[[study]]
kind = "tune"
game = "two-hundred"
strategy = "heuristic"
params = { aggr = "0.4,1.0" }
games = 60
adaptive = true
batch = 20

[[study]]
kind = "tournament"
game = "two-hundred"
strategies = ["random", "heuristic"]
games = 40
'''


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("src", "href") and v is not None:
                self.refs.append(v)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    d = tmp_path_factory.mktemp("rep")
    spec = d / "tiny.toml"
    spec.write_text(SPEC)
    return build_report(spec, d / "out"), d / "out"


def test_html_references_only_existing_files_or_embedded_data(report):
    paths, out = report
    page = paths["html"].read_text()
    parser = _Refs()
    parser.feed(page)
    assert parser.refs, "the report embeds its figures"
    for ref in parser.refs:
        if ref.startswith("data:image/png;base64,"):
            continue
        assert not re.match(r"^[a-z]+://", ref), f"external reference {ref}"
        assert (out / ref).exists(), ref
    assert page.count("data:image/png;base64,") == len([p for p in paths["figures"] if p.suffix == ".png"])
    assert "<script" not in page  # opens offline, nothing to fetch


def test_markdown_links_exist(report):
    paths, out = report
    md = paths["markdown"].read_text()
    links = re.findall(r"\]\(([^)]+)\)", md)
    assert any(link.endswith(".png") for link in links) and any(link.endswith(".csv") for link in links)
    for link in links:
        assert (out / link).exists(), link


def test_tables_figures_and_method(report):
    paths, out = report
    csvs = sorted(p.name for p in (out / "tables").glob("*.csv"))
    assert "01-compare-two-hundred-compare.csv" in csvs and "03-tournament-two-hundred-ratings.csv" in csvs
    for p in (out / "tables").glob("*.csv"):
        assert p.with_suffix(".parquet").exists()
    assert (out / "tables" / "01-compare-two-hundred-games.parquet").exists()
    tune = pd.read_parquet(out / "tables" / "02-tune-two-hundred-tune.parquet")
    assert {"aggr", "win_rate", "win_rate_low", "win_rate_high", "margin", "games"} <= set(tune.columns)
    assert all(p.exists() and p.with_suffix(".svg").exists() for p in paths["figures"] if p.suffix == ".png")
    page = paths["html"].read_text()
    for needle in ("Method", "seed 1", "versions: simcards", "games played", "Two Hundred, standard",
                   "Speed and fairness.", "Adaptive racing used"):
        assert needle in page, needle
    assert (out / "spec.toml").read_text() == SPEC
    assert '"seed": 1' in paths["meta"].read_text()


def test_markdown_table_escapes_pipes():
    md = markdown_table(pd.DataFrame({"a": ["x|y"], "b": [1]}))
    assert md.splitlines() == ["| a | b |", "|---|---|", "| x\\|y | 1 |"]


@pytest.mark.parametrize("text, msg", [
    ("title = 'x'", "at least one"),
    ("[[study]]\nkind = 'nope'\ngame = 'yaniv'", "kind='nope'"),
    ("[[study]]\nkind = 'compare'\ngame = 'yaniv'\nvariants = ['israeli']\nbogus = 1", "unknown key"),
    ("[[study]]\nkind = 'compare'\nvariants = ['israeli']", "needs a game"),
    ("colour = 1\n[[study]]\nkind = 'compare'\ngame = 'yaniv'", "unknown top-level"),
    ("this is = not toml [", "malformed"),
    ("threads = 'abc'\n[[study]]\nkind = 'compare'\ngame = 'yaniv'", "threads = 'abc': give a whole number"),
    ("[[study]]\nkind = 'tune'\ngame = 'yaniv'\nrules = 'call_limit=7'", "rules = 'call_limit=7': give a table"),
    ("[[study]]\nkind = 'tune'\ngame = 'yaniv'\nrules = { foo = 1 }", "unknown Yaniv rule option 'foo'"),
    ("[[study]]\nkind = 'tune'\ngame = 'yaniv'\nseed = '7'", "seed = '7': give a whole number"),
])
def test_bad_specs_are_one_clear_error(tmp_path, text, msg):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(SimcardsError, match=msg):
        load_spec(p)


def test_missing_spec_and_missing_study_argument(tmp_path):
    with pytest.raises(SimcardsError, match="does not exist"):
        load_spec(tmp_path / "none.toml")
    with pytest.raises(SimcardsError, match="needs variants"):
        build_report({"study": [{"kind": "compare", "game": "yaniv"}]}, tmp_path / "o")


def test_long_tables_are_parquet_only_and_still_linked(tmp_path, monkeypatch):
    import simcards.report as rep
    from simcards.analysis import compare

    monkeypatch.setattr(rep, "CSV_MAX_ROWS", 10)
    res = compare("two-hundred", ["standard"], games=30, seed=1, skill=False)
    paths = rep.write_report([res], tmp_path / "o", title="long tables")
    tables = tmp_path / "o" / "tables"
    assert (tables / "01-compare-two-hundred-games.parquet").exists()
    assert not (tables / "01-compare-two-hundred-games.csv").exists()
    assert (tables / "01-compare-two-hundred-estimates.csv").exists()  # short: both formats
    md = paths["markdown"].read_text()
    assert "tables/01-compare-two-hundred-games.parquet" in md
    for link in re.findall(r"\]\(([^)]+)\)", md):
        assert (tmp_path / "o" / link).exists(), link


def test_a_report_written_again_leaves_no_stale_files(tmp_path):
    # The second run keeps no games table (summary_only): its earlier Parquet must go, and a file
    # of the user's in the folder must stay.
    import simcards.report as rep
    from simcards.analysis import compare

    out = tmp_path / "o"
    rep.write_report([compare("two-hundred", ["standard"], games=30, seed=1, skill=False)], out, title="t")
    games = out / "tables" / "01-compare-two-hundred-games.parquet"
    assert games.exists()
    (out / "tables" / "my-notes.txt").write_text("keep me")
    paths = rep.write_report([compare("two-hundred", ["standard"], games=30, seed=1, skill=False, summary_only=True)],
                             out, title="t")
    assert not games.exists() and (out / "tables" / "my-notes.txt").exists()
    written = {Path(p).stem for p in paths["tables"] + paths["figures"]}  # figures: PNG listed, SVG beside it
    on_disk = {f.stem for sub in ("tables", "figures") for f in (out / sub).iterdir()} - {"my-notes"}
    assert on_disk == written


def test_fairness_overview_across_games():
    from simcards.analysis import compare
    from simcards.report import fairness_overview

    a = compare("two-hundred", ["standard"], games=40, seed=1, skill=False)
    b = compare("yaniv", ["israeli"], games=20, seed=1, skill=False, players=2)
    ov = fairness_overview([a, b])
    assert ov[["game", "players", "who"]].values.tolist() == [
        ["two-hundred", 4, "first dealer's team"], ["yaniv", 2, "round-1 starter"]]
    edge = a.tables["estimates"].query("metric == 'starter_edge'").iloc[0]
    assert ov["edge (win rate − fair share)"].iloc[0].startswith(f"{100 * edge['value']:.1f}%")
    assert fairness_overview([a]) is None  # one game: nothing to line up


SHIPPED = sorted((Path(__file__).resolve().parents[1] / "reports").glob("*.toml"))


@pytest.mark.parametrize("spec_path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_specs_are_valid_and_their_reports_exist(spec_path, monkeypatch):
    """Every spec in reports/ loads, names real variants and strategies, and its generated report
    is committed beside it with the same spec."""
    from simcards.analysis.study import Table, _parse_params

    monkeypatch.chdir(spec_path.parents[1])  # strategy files are relative to the repository
    spec = load_spec(spec_path)
    for st in spec["study"]:
        variants = st.get("variants") or [st.get("variant")]
        for v in variants:
            t = Table(st["game"], v, st.get("players"), st.get("rules"))
        for s in st.get("strategies", []) if isinstance(st.get("strategies"), list) else []:
            t.strategy(s)
        if st["kind"] == "tune":
            fam = t.strategy(st["strategy"]).family
            for name, _ in _parse_params(st["params"]):
                fam.param(name)
    out = spec_path.with_suffix("")
    assert (out / "report.html").exists() and (out / "report.md").exists()
    assert (out / "spec.toml").read_text() == spec_path.read_text()
