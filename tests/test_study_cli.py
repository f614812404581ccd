"""The study commands end to end on tiny seeded runs; bad input is one line, exit code 2."""

import json

import pytest

from simcards.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_compare_prints_table_and_writes_report(capsys, tmp_path):
    code, out, err = run(capsys, "compare", "two-hundred", "--variants", "standard", "-n", "50", "--seed", "2",
                         "--out", str(tmp_path / "c"), "--no-progress")
    assert code == 0, err
    assert "deals per game" in out and "contracts made" in out and "heuristic beats heuristic:aggr=0.3" in out  # the default weaker side (issue 16)
    assert (tmp_path / "c" / "report.html").exists() and (tmp_path / "c" / "report.md").exists()
    assert list((tmp_path / "c" / "figures").glob("*.svg"))


def test_compare_of_many_variants_prints_tables_that_fit_the_terminal(capsys, monkeypatch):
    # Eight presets in 100 columns: the per-variant table is cut into parts, every variant is shown
    # whole (no cell cut to "…") and every line fits.
    from rich.console import Console

    import simcards.cli.common as cs  # the consoles the commands print to

    monkeypatch.setattr(cs, "out", Console(width=100))
    code, out, err = run(capsys, "compare", "two-hundred", "--variants", "all", "-n", "20", "--no-skill",
                         "--no-progress")
    assert code == 0, err
    assert "(continued)" in out and "…" not in out
    assert max(len(line) for line in out.splitlines()) <= 100
    for v in ("standard", "two-player", "five-player", "kitty", "le-rough", "cutthroat", "six-3x2", "six-2x3"):
        assert f" {v} " in out


def test_compare_yaniv_two_variants_json(capsys):
    code, out, err = run(capsys, "compare", "yaniv", "--variants", "israeli,nepali-jokers", "-n", "30",
                         "--no-skill", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {r["variant"] for r in data["tables"]["compare"]} == {"israeli", "nepali-jokers"}
    assert all(r["paired"] for r in data["tables"]["differences"])


def test_compare_summary_only_has_no_games_table(capsys, tmp_path):
    code, out, err = run(capsys, "compare", "yaniv", "--variants", "israeli,fast", "-n", "40", "--no-skill",
                         "--summary-only", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["meta"]["summary_only"] and data["meta"]["games_completed"] == 40
    assert all(r["n"] == 40 for r in data["tables"]["estimates"])
    assert sum(r["games"] for r in data["tables"]["lengths"]) == 2 * 40
    code, out, err = run(capsys, "compare", "two-hundred", "--variants", "standard", "-n", "40", "--no-skill",
                         "--summary-only", "--out", str(tmp_path / "r"), "--no-progress")
    assert code == 0, err
    assert (tmp_path / "r" / "report.html").exists() and list((tmp_path / "r" / "figures").glob("*length*.png"))
    assert not list((tmp_path / "r").rglob("*games.parquet"))


def test_tune_flat_and_adaptive(capsys):
    code, out, err = run(capsys, "tune", "two-hundred", "--strategy", "heuristic", "--param", "aggr=0.5..1:0.5",
                         "-n", "60", "--no-progress")
    assert code == 0, err
    assert "Best in the sweep: aggr=" in out and "win rate" in out and "fresh deals" in out
    code, out, err = run(capsys, "tune", "two-hundred", "--strategy", "heuristic", "--param", "aggr=0.5,2.5",
                         "-n", "200", "--adaptive", "--batch", "50", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["summary"]["games_used"] <= data["summary"]["flat_games"]


def test_tournament(capsys, tmp_path):
    code, out, err = run(capsys, "tournament", "two-hundred", "--strategies", "random,heuristic,heuristic:aggr=0.5",
                         "-n", "30", "--out", str(tmp_path / "t"), "--no-progress")
    assert code == 0, err
    assert "Bradley–Terry" in out and "row beats column" in out
    assert (tmp_path / "t" / "tables" / "01-tournament-two-hundred-ratings.csv").exists()


def test_report_command(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "r.toml"
    spec.write_text('title = "t"\n[[study]]\nkind = "tournament"\ngame = "two-hundred"\n'
                    'strategies = ["random", "heuristic"]\ngames = 20\n')
    code, out, err = run(capsys, "report", str(spec), "--no-progress")
    assert code == 0, err
    assert (tmp_path / "reports-out" / "r" / "report.html").exists()  # not beside the spec...
    assert not (tmp_path / "r").exists()
    code, out, err = run(capsys, "report", str(spec), "--in-place", "--no-progress")
    assert code == 0 and (tmp_path / "r" / "report.html").exists()  # ...unless asked
    code, out, err = run(capsys, "report", str(spec), "--out", str(tmp_path / "elsewhere"), "--no-progress")
    assert code == 0 and (tmp_path / "elsewhere" / "report.md").exists()


@pytest.mark.parametrize("argv, msg", [
    (["compare", "yaniv", "--variants", "israeli,nope", "-n", "5"], "unknown Yaniv variant"),
    (["compare", "yaniv", "-n", "5"], "--variants"),
    (["tune", "yaniv", "--strategy", "threshold", "--param", "call=1..", "-n", "5"], "values"),
    (["tune", "yaniv", "--strategy", "threshold", "--param", "zzz=1,2", "-n", "5"], "no parameter 'zzz'"),
    (["tune", "yaniv", "--strategy", "nope", "--param", "call=1,2"], "unknown yaniv strategy"),
    (["tournament", "yaniv", "--strategies", "random"], "at least two"),
    (["report", "/nonexistent/spec.toml"], "does not exist"),
    (["compare", "yaniv", "--variants", "israeli", "--seed", "-1"], "seed"),
    (["tournament", "yaniv", "--strategies", "random,threshold", "--out", "/proc/nope"], "cannot write"),
    (["report", "seat-advantage", "--out", "/proc/nope"], "cannot write"),
])
def test_bad_input_is_one_line(capsys, argv, msg):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert msg in err
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 2


def test_backend_option_gives_identical_results(capsys):
    """--backend local routes every range through the backend job path: same tables."""
    base = ["tune", "two-hundred", "--strategy", "heuristic", "--param", "aggr=0.5,1", "-n", "80", "--json"]
    code, out1, err = run(capsys, *base)
    assert code == 0, err
    code, out2, err = run(capsys, *base, "--backend", "local")
    assert code == 0, err
    assert json.loads(out1)["tables"] == json.loads(out2)["tables"]
    code, _, err = run(capsys, *base, "--backend", "nope")
    assert code == 2 and "--backend" in err
