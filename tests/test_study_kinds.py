"""Study kinds are declared once (``simcards.report.kinds``): the spec keys, the tables a study
writes, its answer, method and plots come from its ``StudyKind``, so a report cleans up the files of
every kind and a new kind needs nothing but its declaration."""

import pandas as pd
import pytest

import simcards.report.kinds as kinds
from simcards.errors import SimcardsError
from simcards.report import build_report, write_report
from simcards.report.kinds.base import StudyKind
from simcards.studies import StudyResult, compare, equilibrium, tournament, tune
from simcards.studies.common import study_meta


def _files(out):
    return {f.name for sub in ("tables", "figures") for f in (out / sub).iterdir()}


def test_every_kind_is_declared_once_with_its_study_and_its_name():
    assert list(kinds.KINDS) == ["compare", "tune", "tournament", "equilibrium"]
    runs = {"compare": compare, "tune": tune, "tournament": tournament, "equilibrium": equilibrium}
    for name, kind in kinds.KINDS.items():
        assert kind.name == name and kind.run is runs[name]
        assert kind.wrote(f"07-{name}-yaniv-{kind.tables[0]}.csv")
        assert not any(other.wrote(f"07-{name}-yaniv-x.csv") for other in kinds.KINDS.values() if other is not kind)


def test_a_report_rebuilt_without_its_equilibrium_study_leaves_no_equilibrium_file(tmp_path):
    # Issue 26: the stale-file pattern was a list of kinds that left out equilibrium.
    out = tmp_path / "o"
    eq = equilibrium("yaniv", family="threshold", params=["call=1..2"], players=2, games=40, seed=2, bootstrap=5)
    write_report([eq], out, title="first")
    assert {n for n in _files(out) if n.startswith("01-equilibrium-yaniv-")} >= {
        f"01-equilibrium-yaniv-{t}.csv" for t in ("equilibrium", "invasion", "payoffs", "length")}
    tu = tune("yaniv", "threshold", ["call=1,2"], players=2, games=20, seed=2)
    paths = write_report([tu], out, title="second")
    assert not any("equilibrium" in n for n in _files(out))
    assert _files(out) == {p.name for p in paths["tables"] + paths["figures"]} | {
        p.with_suffix(".svg").name for p in paths["figures"]}


def _toy_study(game, sides, *, games=10, seed=0, threads=None, progress=False):
    """A study of a kind the report has never heard of: a table of sides and their shares."""
    from simcards.studies.common import Arena

    t = Arena(game)
    shares = pd.DataFrame({"side": [f"side {i}" for i in range(sides)], "share": [1 / sides] * sides})
    meta = study_meta("toy", t, seed, games=games, games_played=0)
    return StudyResult("toy", f"Toy study of {sides} sides", {"shares": shares}, {}, ["A toy note."], meta)


def _toy_figures(res):
    from simcards.report.plots import draw_bars

    data = pd.DataFrame({"label": res.tables["shares"]["side"], "value": res.tables["shares"]["share"],
                         "err_low": 0.0, "err_high": 0.0})
    return [("shares", draw_bars(data, title="shares", pct=True), "Share of each side")]


TOY = StudyKind(
    name="toy", run=_toy_study, keys=frozenset({"game", "sides", "games", "seed"}),
    needs={"sides = ...": ("sides",)}, tables=("shares",),
    display=lambda res: [("Shares", res.tables["shares"].assign(share=lambda d: d["share"].map("{:.0%}".format)))],
    answer=lambda res, results: {"title": res.title, "lead": [f"Every one of the **{len(res.tables['shares'])}** "
                                                              "sides gets the same share."],
                                 "table": None, "sentences": []},
    method=lambda res: ([f"{len(res.tables['shares'])} sides"], None), figures=_toy_figures)


def test_a_new_kind_is_one_declaration(tmp_path, monkeypatch):
    from simcards.report.build import answer_lines

    monkeypatch.setitem(kinds.KINDS, "toy", TOY)
    spec = {"title": "Toy", "study": [{"kind": "toy", "game": "yaniv", "sides": 3, "title": "Three sides"}]}
    paths = build_report(spec, tmp_path / "o")
    md = paths["markdown"].read_text()
    assert "Every one of the **3** sides gets the same share." in md  # its answer
    assert "| side 0 | 33% |" in md and "- 3 sides" in md and "A toy note." in md  # its table, method, notes
    assert {p.name for p in paths["tables"]} == {"01-toy-yaniv-shares.csv", "01-toy-yaniv-shares.parquet"}
    assert [p.name for p in paths["figures"]] == ["01-toy-yaniv-shares.png"]
    res = _toy_study("yaniv", 2)
    assert answer_lines(res) == ["Every one of the 2 sides gets the same share."]  # the CLI's words, plain
    with pytest.raises(SimcardsError, match="study toy of yaniv needs sides = ..."):
        build_report({"study": [{"kind": "toy", "game": "yaniv"}]}, tmp_path / "p")
    with pytest.raises(SimcardsError, match="unknown key"):
        build_report({"study": [{"kind": "toy", "game": "yaniv", "sides": 2, "players": 2}]}, tmp_path / "p")
    # rebuilt without it: its files go, as every declared kind's do
    write_report([tune("yaniv", "threshold", ["call=1,2"], players=2, games=20, seed=2)], tmp_path / "o")
    assert not any("-toy-" in n for n in _files(tmp_path / "o"))


def test_a_table_the_kind_does_not_declare_is_refused(tmp_path, monkeypatch):
    monkeypatch.setitem(kinds.KINDS, "toy", TOY)
    res = _toy_study("yaniv", 2)
    res.tables["extra"] = pd.DataFrame({"x": [1]})
    with pytest.raises(ValueError, match="extra"):
        write_report([res], tmp_path / "o")
