"""Reports: a tiny seeded spec produces an HTML page that references only files that exist (or
embedded data), a Markdown version whose links exist, raw tables and a method section."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from simcards.errors import SimcardsError
from simcards.report import build_report, load_spec
from simcards.report.text import markdown_table

SPEC = '''
title = "Tiny report"
intro = "A seeded test."

[[study]]
kind = "compare"
game = "two-hundred"
variants = ["standard", "two-player"]
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
    import simcards.report.build as rep
    from simcards.studies import compare

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
    import simcards.report.build as rep
    from simcards.studies import compare

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
    from simcards.report.build import fairness_overview, human
    from simcards.studies import compare

    a = compare("two-hundred", ["standard"], games=40, seed=1, skill=False)
    b = compare("yaniv", ["israeli"], games=20, seed=1, skill=False, players=2)
    ov = fairness_overview([a, b])
    assert ov[["game", "players", "who"]].values.tolist() == [
        ["two-hundred", 4, "first dealer's team"], ["yaniv", 2, "round-1 starter"]]
    edge = a.tables["estimates"].query("metric == 'starter_edge'").iloc[0]
    assert ov["edge (win rate − fair share)"].iloc[0] == human(edge["value"], edge["low"], edge["high"], "pct",
                                                               signed=True).replace("%", " pts")  # points
    assert fairness_overview([a]) is None  # one game: nothing to line up


SHIPPED = sorted((Path(__file__).resolve().parents[1] / "simcards" / "data" / "reports").glob("*.toml"))


@pytest.mark.parametrize("spec_path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_specs_are_valid_and_their_reports_exist(spec_path, monkeypatch):
    """Every shipped spec (simcards/data/reports/) loads, names real variants and strategies, and its
    generated report is committed in reports/NAME/ with the same spec."""
    from simcards.studies.common import Arena
    from simcards.studies.tune import _parse_params

    monkeypatch.chdir(spec_path.parents[3].parent)  # presets are found by name, from anywhere
    spec = load_spec(spec_path)
    for st in spec["study"]:
        variants = st.get("variants") or [st.get("variant")]
        for v in variants:
            t = Arena(st["game"], v, st.get("players"), st.get("rules"))
        for s in st.get("strategies", []) if isinstance(st.get("strategies"), list) else []:
            t.strategy(s)
        if st["kind"] == "tune":
            fam = t.strategy(st["strategy"]).family
            for name, _ in _parse_params(st["params"]):
                fam.param(name)
    out = spec_path.parents[3] / "reports" / spec_path.stem
    assert (out / "report.html").exists() and (out / "report.md").exists()
    assert (out / "spec.toml").read_text() == spec_path.read_text()


# ----- what a reader sees: the answer first, Markdown rendered, values for people --------------------
class _Tables(HTMLParser):
    """Every <table> of a page as a list of rows of cell texts (header row first)."""

    def __init__(self):
        super().__init__()
        self.tables, self._cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None


def _method(page: str) -> str:
    return page[page.index('<section id="method">'):]


def test_html_renders_markdown_and_shows_no_python_reprs(report):
    paths, _ = report
    page = paths["html"].read_text()
    assert "*i*" not in page and "<em>i</em>" in page  # the Method's Markdown is rendered
    method = _method(page)
    for repr_ in ("True", "False", "None", "[[", "(10, 10"):
        assert repr_ not in method, repr_
    assert re.search(r"\(\d+, \d+", method) is None  # no tuple reprs
    assert "seat rotations: 01, 10 (seat by seat" in method  # lineups for people
    md = paths["markdown"].read_text()
    assert "True" not in md.split("## Method")[1] and "None" not in md.split("## Method")[1]


def test_html_tables_have_no_empty_column_and_name_every_column(report):
    paths, _ = report
    parser = _Tables()
    parser.feed(paths["html"].read_text())
    assert len(parser.tables) >= 5
    for rows in parser.tables:
        header, body = rows[0], rows[1:]
        assert all(header), header  # every column has a name
        for j in range(len(header)):
            assert any(r[j] not in ("", "-") for r in body), (header, j)
        assert all(len(r) == len(header) for r in body)


def test_the_answer_comes_first(report):
    paths, _ = report
    page = paths["html"].read_text()
    answer = page.index('id="answer"')
    assert answer < page.index('<section class="study">') < page.index("Per variant")
    parser = _Tables()
    parser.feed(page[answer:page.index('<section class="study">')])
    first = parser.tables[0]
    assert first[0] == ["question", "answer", "value [95% interval]", "runner-up", "ranking significant?"]
    assert [r[0].split(":")[0] for r in first[1:]] == ["Fastest", "Fairest", "Rewards skill most", "Skill explains most"]
    assert {r[1] for r in first[1:]} <= {"standard", "two-player"}
    assert "Ranking significant: the answer beats the other variant" in page[answer:page.index('<section class="study">')]
    assert "Best value of each sweep" in page[answer:] and "Strongest:" in page[answer:page.index('<section class="study">')]
    md = paths["markdown"].read_text()
    assert md.index("## The answer") < md.index("## Two Hundred, standard") < md.index("## Method")


def _fake_compare(values: dict, diffs: list[tuple] = (), metric="turns_per_game", fmt="num", label="turns per game"):
    from simcards.studies import StudyResult

    est = pd.DataFrame([{"variant": v, "group": "speed", "metric": metric, "label": label, "value": x[0], "low": x[1],
                         "high": x[2], "n": 100, "format": fmt, "significant": float("nan"), "fair": float("nan")}
                        for v, x in values.items()])
    names = list(values)
    d = pd.DataFrame([{"variant": v, "baseline": names[0], "metric": metric, "label": label, "diff": x, "low": lo,
                       "high": hi, "paired": p, "significant": lo > 0 or hi < 0, "format": fmt}
                      for v, x, lo, hi, p in diffs])
    return StudyResult("compare", "fake", {"estimates": est, "differences": d}, meta={"variants": names})


def test_rank_variants_uses_the_paired_difference_and_bonferroni():
    from simcards.report.kinds.compare import rank_variants

    # b is fastest; its intervals overlap a's, but the paired difference from the baseline a is clear
    vals = {"a": (10.0, 9.0, 11.0), "b": (9.5, 8.5, 10.5)}
    r = rank_variants(vals, "low", {"b": (-0.5, -0.6, -0.4, True, True)}, "a")
    assert (r["leader"], r["runner_up"], r["significant"]) == ("b", "a", True)
    # not paired, and no difference: overlapping intervals do not separate them
    assert rank_variants(vals, "low", {}, "a")["ties"] == ["a"]
    # a difference that excludes 0 at 95% (z 1.96) but not at 97.5% (two comparisons: z 2.24)
    three = {"a": (10.0, 9.9, 10.1), "b": (9.0, 8.99, 9.01), "c": (20.0, 19.9, 20.1)}
    near = {"b": (-0.1, -0.19, -0.01, True, True), "c": (10.0, 9.9, 10.1, True, True)}
    r = rank_variants(three, "low", near, "a")
    assert r["leader"] == "b" and r["ties"] == ["a"] and not r["significant"]
    clear = dict(near, b=(-0.1, -0.15, -0.05, True, True))
    assert rank_variants(three, "low", clear, "a")["significant"]
    # two non-baseline variants: their paired differences from the baseline must not overlap
    vals = {"a": (5.0, 4.0, 6.0), "b": (3.0, 2.0, 4.0), "c": (3.3, 2.3, 4.3)}
    d = {"b": (-2.0, -2.05, -1.95, True, True), "c": (-1.7, -1.75, -1.65, True, True)}
    r = rank_variants(vals, "low", d, "a")
    assert r["leader"] == "b" and r["significant"]
    # higher is better; closest to 0 is fairest
    assert rank_variants({"a": (0.6, 0.58, 0.62), "b": (0.7, 0.68, 0.72)}, "high")["leader"] == "b"
    fair = rank_variants({"a": (0.03, 0.02, 0.04), "b": (-0.001, -0.01, 0.008)}, "abs")
    assert fair["leader"] == "b" and fair["significant"]
    assert rank_variants({"a": (1.0, 0.0, 2.0)}, "low") is None  # one variant: nothing to rank


def test_compare_answer_table_and_verdicts():
    from simcards.report.build import compare_answer

    res = _fake_compare({"a": (10.0, 9.0, 11.0), "b": (9.5, 8.5, 10.5), "c": (30.0, 29.0, 31.0)},
                        [("b", -0.5, -0.6, -0.4, True), ("c", 20.0, 19.0, 21.0, False)])
    ans = compare_answer(res)
    (row,) = ans["table"].rows
    assert row[:2] == ["Fastest: fewest turns per game", "b"]
    assert row[2] == "9.5 [8.5, 10.5]" and row[3] == "a 10.0 [9.0, 11.0]" and row[4] == "yes"
    assert (0, 4) in ans["table"].bold and "Bonferroni over the 2 comparisons" in ans["table"].note
    res = _fake_compare({"a": (10.0, 9.0, 11.0), "b": (9.5, 8.5, 10.5), "c": (30.0, 29.0, 31.0)},
                        [("b", -0.5, -0.9, 0.1, True), ("c", 20.0, 19.0, 21.0, False)])
    assert compare_answer(res)["table"].rows[0][4] == "no: tied with a"


def test_tune_answer_row_and_no_better_than_the_reference():
    from simcards.report.kinds.tune import tune_answer
    from simcards.studies import StudyResult

    tab = pd.DataFrame({"call": [1.0, 2.0], "spec": ["t:call=1", "t:call=2"], "win_rate": [0.52, 0.50],
                        "win_rate_low": [0.49, 0.47], "win_rate_high": [0.55, 0.53], "fair_share": [0.5, 0.5]})
    res = StudyResult("tune", "2 players", {"tune": tab},
                      {"best": {"call": 1.0}, "best_spec": "t:call=1", "runner_up": {"call": 2.0},
                       "best_minus_runner_up": {"value": 0.02, "ci95": [-0.01, 0.05], "n": 10}, "significant": False},
                      meta={"params": {"call": [1.0, 2.0]}, "against": "t"})
    ans = tune_answer([res])
    assert ans["table"].rows == [["2 players", "call=1", "52% [49, 55]", "50%", "call=2", "+2 pts [−1, 5]", "no"]]
    assert ans["sentences"] == ["2 players: no value is shown to beat `t` — even the best value's interval "
                                "reaches down to the fair share."]


def test_values_for_people():
    from simcards.report.text import human, human_value, lineups_text

    assert human(494.52, 493.79, 495.26, "num") == "494.5 [493.8, 495.3]"
    assert human(9.5, 8.5, 10.5, "num") == "9.5 [8.5, 10.5]"  # a half-width of 1.0: two digits of it
    assert human(0.7017, 0.6992, 0.7042, "pct") == "70.2% [69.9, 70.4]"
    assert human(-0.0001, -0.004, 0.004, "pct", signed=True) == "0.0% [−0.4, 0.4]"  # no "-0.0"
    assert human(0.005, 0.001, 0.009, "pct", signed=True) == "+0.5% [0.1, 0.9]"
    assert human(450.22, 449.18, 451.25, "num", decimals=2) == "450.22 [449.18, 451.25]"
    assert human(1234.0, 1200.0, 1268.0, "num") == "1,234 [1,200, 1,268]"
    assert [human_value(v) for v in (True, False, None, (10, 10, 10), 5.0, "ends")] == \
        ["yes", "no", "off", "10/10/10", "5", "ends"]
    assert lineups_text([[0, 1, 0, 1], [1, 0, 1, 0]]) == "0101, 1010"


def test_rules_that_differ_are_a_table_and_shared_rules_one_line():
    from simcards.report.kinds.compare import _rules_split

    shared, table = _rules_split({"a": {"decks": 1, "jokers": True, "faces": (10, 10, 10), "limit": None},
                                  "b": {"decks": 1, "jokers": False, "faces": (0, 10, 10), "limit": None}})
    assert shared == "decks 1, limit off"
    assert table.header == ["rule", "a", "b"]
    assert table.rows == [["jokers", "yes", "no"], ["faces", "10/10/10", "0/10/10"]]


def test_wide_tables_are_cut_into_parts():
    from simcards.report.text import Table, split_columns

    t = Table("T", ["m"] + [f"v{i}" for i in range(8)],
              [["x"] + [str(i) for i in range(8)], ["only-in-second"] + ["-"] * 4 + ["1"] * 4],
              bold={(0, 6), (1, 5)}, note="n")
    a, b = split_columns(t, 5)
    assert a.header == ["m", "v0", "v1", "v2", "v3"] and b.header == ["m", "v4", "v5", "v6", "v7"]
    assert [r[0] for r in a.rows] == ["x"] and [r[0] for r in b.rows] == ["x", "only-in-second"]
    assert b.bold == {(0, 2), (1, 1)} and a.bold == set()
    assert (a.caption, a.note, b.caption, b.note) == ("T (1 of 2)", "", "T (2 of 2)", "n")
    assert split_columns(Table("", ["m", "a"], [["x", "1"]])) == [Table("", ["m", "a"], [["x", "1"]])]


def test_templates_ship_as_package_data():
    import tomllib
    from importlib.resources import files

    root = Path(__file__).resolve().parents[1]
    globs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["simcards"]
    templates = sorted(p.name for p in (root / "simcards" / "report" / "templates").iterdir() if p.suffix == ".j2")
    assert templates and all(any(Path("report", "templates", t).match(g) for g in globs) for t in templates)
    assert (files("simcards.report") / "templates" / "report.html.j2").is_file()


def test_screenshot_in_headless_chromium(report, tmp_path):
    import shutil
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
    shot = pytest.importorskip("screenshot_reports")
    if shot.browser() is None or not shutil.which(Path(shot.browser()).name):
        pytest.skip("no chromium on PATH")
    from PIL import Image

    paths, _ = report
    png = shot.screenshot(paths["html"], tmp_path / "page.png", width=1200)
    img = Image.open(png)
    assert img.width == 1200 and 1000 < img.height < 16000  # the whole page, the blank below it cut
