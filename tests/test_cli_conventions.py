"""The conventions a command-line user expects (issue 16, items 12, 13, 15, 17): help with no
arguments, --version, -h, python -m simcards, completion, --quiet/--verbose, --format csv, one
spelling per flag, messages on stderr and results on stdout, presets and reports by name, listings
and compare tables that keep what a user types whole at 80 columns."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console

import simcards
import simcards.cli.common as cli
import simcards.cli.study as cs
from simcards.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *argv):
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _subprocess(*argv, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


# ----- item 13: help, version, -h, python -m, completion ---------------------------------------
def test_no_arguments_prints_the_help(capsys):
    code, out, err = run(capsys)
    assert code == 0 and "Usage: simcards" in out and "simulate" in out and "report" in out and not err


def test_version_comes_from_the_package_metadata(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"simcards {version('simcards')}"
    assert simcards.__version__ == version("simcards")


def test_short_help_option(capsys):
    code, out, _ = run(capsys, "-h")
    assert code == 0 and "--version" in out and "--quiet" in out and "--install-completion" in out
    code, out, _ = run(capsys, "simulate", "-h")
    assert code == 0 and "--format" in out


def test_python_dash_m_simcards(tmp_path):
    res = _subprocess("-m", "simcards", "--version", cwd=tmp_path)
    assert res.returncode == 0 and res.stdout.startswith("simcards ")
    res = _subprocess("-m", "simcards", cwd=tmp_path)
    assert res.returncode == 0 and "Usage: simcards" in res.stdout


def test_shell_completion_script(capsys, monkeypatch):
    # typer finds the shell among the process's ancestors (shellingham): a suite started from a
    # detached job has none, so the shell is given here (the launcher must not decide the result)
    import shellingham

    monkeypatch.setattr(shellingham, "detect_shell", lambda *a, **k: ("bash", "/bin/bash"))
    code, out, _ = run(capsys, "--show-completion", "bash")
    assert code == 0 and "_simcards_completion" in out and "complete" in out


def test_no_private_typer_import():
    for path in (ROOT / "simcards").rglob("*.py"):
        assert "typer._click" not in path.read_text(), path


def test_license_matches_the_declared_licence():
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]["text"]
    assert declared == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")


# ----- item 13: one spelling per flag ------------------------------------------------------------
def test_dash_v_is_verbose_not_variant(capsys):
    code, _, err = run(capsys, "simulate", "yaniv", "-v", "nepali", "--games", "10")
    assert code == 2 and "No such option" in err
    for cmd in ("simulate", "replay", "tune", "tournament", "compare"):
        code, out, _ = run(capsys, cmd, "-h")
        assert code == 0 and "-v," not in out


def test_strategy_repeat_and_comma_list_are_the_same(capsys):
    base = ["simulate", "yaniv", "--players", "2", "--games", "20", "--json", "--no-progress"]
    code, a, err = run(capsys, *base, "--strategy", "threshold:call=4,keep=0.2", "--strategy", "random")
    assert code == 0, err
    code, b, err = run(capsys, *base, "--strategy", "threshold:call=4,keep=0.2,random")
    assert code == 0, err
    sa, sb = json.loads(a), json.loads(b)
    assert sa["meta"]["strategies"] == sb["meta"]["strategies"] == ["threshold:call=4,keep=0.2", "random"]
    assert sa["win_rate_by_seat"] == sb["win_rate_by_seat"] and sa["rounds_per_game"] == sb["rounds_per_game"]


def test_tournament_and_compare_take_the_same_spellings(capsys):
    code, a, err = run(capsys, "tournament", "yaniv", "--strategy", "random", "--strategy", "threshold",
                       "-n", "10", "--players", "2", "--json")
    assert code == 0, err
    code, b, err = run(capsys, "tournament", "yaniv", "--strategies", "random,threshold", "-n", "10",
                       "--players", "2", "--json")
    assert code == 0, err
    assert json.loads(a)["tables"] == json.loads(b)["tables"]
    code, c, err = run(capsys, "compare", "yaniv", "--variant", "israeli", "--variant", "fast", "-n", "10",
                       "--no-skill", "--json")
    assert code == 0, err
    assert {r["variant"] for r in json.loads(c)["tables"]["compare"]} == {"israeli", "fast"}


# ----- item 13: quiet, verbose, stdout/stderr, --format csv ------------------------------------
def test_messages_on_stderr_results_on_stdout_and_csv(capsys, tmp_path):
    code, out, err = run(capsys, "simulate", "yaniv", "--games", "30", "--players", "2", "--out",
                         str(tmp_path / "p"), "--no-progress")
    assert code == 0, err
    assert "wrote" in err and "wrote" not in out and "rounds per game" in out
    code, out, err = run(capsys, "--quiet", "simulate", "yaniv", "--games", "30", "--players", "2", "--out",
                         str(tmp_path / "c"), "--format", "csv")
    assert code == 0 and err == "" and "rounds per game" in out
    games = pd.read_csv(tmp_path / "c" / "games.csv")
    same = pd.read_parquet(tmp_path / "p" / "games.parquet")
    assert len(games) == 30 and list(games.columns) == list(same.columns)
    assert (games["winner"].to_numpy() == same["winner"].to_numpy()).all()
    assert (tmp_path / "c" / "rounds.csv").exists() and not list((tmp_path / "c").glob("*.parquet"))
    code, _, err = run(capsys, "--verbose", "simulate", "yaniv", "--games", "30", "--players", "2", "--json")
    assert code == 0 and "30 games in" in err and "threads" in err
    code, _, err = run(capsys, "simulate", "yaniv", "--format", "xlsx")
    assert code == 2 and "--format xlsx" in err


def test_quiet_and_verbose_together_is_an_error(capsys):
    code, _, err = run(capsys, "-q", "-v", "variants", "yaniv")
    assert code == 2 and err.startswith("error:") and len(err.strip().splitlines()) == 1


# ----- item 12: presets and reports by name -------------------------------------------------------
def test_strategy_presets_by_name_from_anywhere(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing of the repository beside us
    code, out, err = run(capsys, "simulate", "yaniv", "--games", "20", "--json", "--no-progress",
                         "--strategy", "cautious", "--strategy", "cautious:call=2", "--players", "2")
    assert code == 0, err
    assert json.loads(out)["meta"]["strategies"] == ["threshold:call=3,keep=0.8", "threshold:call=2,keep=0.8"]
    code, out, err = run(capsys, "simulate", "two-hundred", "--games", "5", "--json", "--no-progress",
                         "--strategy", "aggressive")
    assert code == 0, err
    assert json.loads(out)["meta"]["strategies"][0] == "heuristic:aggr=1"  # raise=1 is the default
    code, out, _ = run(capsys, "strategies", "yaniv")
    assert code == 0 and "cautious" in out and "threshold:call=3,keep=0.8" in out
    code, _, err = run(capsys, "simulate", "yaniv", "--strategy", "careful")
    assert code == 2 and "presets: bold, cautious, deep, denier, greedy" in err


def test_report_by_name_lists_and_refuses_the_committed_directory_by_default(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "report")
    assert code == 0 and "yaniv-variants" in out and "seat-advantage" in out
    code, _, err = run(capsys, "report", "no-such-report")
    assert code == 2 and "unknown report 'no-such-report'" in err and "yaniv-variants" in err
    code, _, err = run(capsys, "report", "yaniv-variants", "--games", "none")
    assert code == 2 and "--games none" in err
    code, _, err = run(capsys, "report", "yaniv-variants", "--in-place", "--out", "x")
    assert code == 2 and "not both" in err


def test_report_scaled_from_the_command_line(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    committed = (ROOT / "reports" / "yaniv-call-limit" / "report.md").read_text()
    spec = tmp_path / "tiny.toml"
    spec.write_text('title = "tiny"\n[[study]]\nkind = "tune"\ngame = "yaniv"\nplayers = 2\nstrategy = "threshold"\n'
                    'params = ["call=3..4"]\ngames = 5000\nadaptive = true\nbatch = 2000\n')
    code, _, err = run(capsys, "report", str(spec), "--games", "60", "--no-progress")
    assert code == 0, err
    meta = json.loads((tmp_path / "reports-out" / "tiny" / "meta.json").read_text())
    study = meta["studies"][0]
    assert study["games"] == 60 and study["batch"] != 2000  # the spec's batch would not race 60 games
    assert (tmp_path / "reports-out" / "tiny" / "spec.toml").read_text().startswith("# run with --games 60")
    assert not (tmp_path / "tiny").exists()  # never beside the spec unless --in-place
    assert (ROOT / "reports" / "yaniv-call-limit" / "report.md").read_text() == committed


# ----- item 15: first-run compile, piped stderr, 80 columns ---------------------------------------
def test_compile_is_announced_only_when_the_cache_is_cold(capsys, monkeypatch, tmp_path):
    from numba.core import event

    from simcards import compiling, nbutil

    kernel = ROOT / "simcards" / "games" / "yaniv" / "kernel.py"
    monkeypatch.setattr(nbutil, "cache_dir", lambda anchor: tmp_path)
    assert nbutil.cache_is_cold(kernel)
    cli.VERBOSITY["level"] = 0
    cli.announce_compile("yaniv")
    with event.trigger_event("numba:compile"):  # numba compiles (tests/test_compile_notice.py: the whole story)
        pass
    assert "compiling the yaniv kernel, once" in capsys.readouterr().err
    compiling.reset()
    (tmp_path / "kernel.play_batch-814.py311.nbi").write_text("")
    assert not nbutil.cache_is_cold(kernel)
    cli.announce_compile("yaniv")
    with event.trigger_event("numba:compile"):  # a quick one: nothing to say
        pass
    compiling.reset()
    assert capsys.readouterr().err == ""


def test_no_stray_blank_line_on_piped_stderr(tmp_path):
    # long enough for the progress bar's one-second delay; stderr is a pipe here
    res = _subprocess("-m", "simcards", "simulate", "yaniv", "--games", "60000", "--threads", "1", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "" not in res.stderr.splitlines()


@pytest.mark.parametrize("game", ["yaniv", "gin", "two-hundred"])
def test_listings_at_80_columns_never_cut_what_a_user_types(game, capsys, monkeypatch):
    from simcards.games import get_game

    monkeypatch.setattr(cli, "out", Console(width=80))
    gdef = get_game(game)
    code, out, _ = run(capsys, "variants", game)
    assert code == 0 and "…" not in out and max(len(line) for line in out.splitlines()) <= 80
    words = set(out.replace(",", " ").split())
    for name in gdef.presets():
        assert name in words
    for o in gdef.rule_options():
        assert o.name in words and all(v in words for v in o.allowed.replace(",", " ").split())
    code, out, _ = run(capsys, "strategies", game)
    assert code == 0 and "…" not in out and max(len(line) for line in out.splitlines()) <= 80
    words = set(out.split())
    for fam in gdef.families().values():
        assert fam.name in words and all(p.name in words for p in fam.params)


def test_long_tables_keep_each_measure_beside_its_flag_at_80_columns():
    diffs = pd.DataFrame({"variant": ["nepali"] * 2 + ["fast"] * 2,
                          "measure": ["turns per round", "turns per game"] * 2,
                          "difference vs israeli": ["-233.15 [-245.32, -220.98]", "-2.48 [-2.82, -2.13]"] * 2,
                          "same deals (paired)": ["no", "no", "yes", "yes"],
                          "significant": ["yes", "no", "no", "no"]})
    keys = cs._key_columns(diffs)
    assert keys == 2
    groups = cs._column_groups(diffs, 80, keys)
    assert len(groups) > 1  # it does not fit in one part at 80 columns
    # every part repeats variant and measure, so each flag stands beside the measure it judges
    wide = pd.DataFrame({"measure": ["a", "b"], "israeli": ["1", "2"], "nepali": ["3", "4"]})
    assert cs._key_columns(wide) == 1


def test_compare_at_80_columns_shows_each_difference_with_its_flag(capsys, monkeypatch):
    monkeypatch.setattr("simcards.cli.common.out", Console(width=80))  # the console the commands print to
    code, out, err = run(capsys, "compare", "yaniv", "--variant", "israeli,nepali,fast", "-n", "30", "--no-skill",
                         "--no-progress")
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 80
    header = next(line for line in out.splitlines() if "┃" in line and "significant" in line)
    assert "measure" in header and "difference vs israeli" in header
    assert "Holm" in out  # the control is named


def test_verbose_study_says_how_many_games(capsys):
    code, out, err = run(capsys, "--verbose", "tournament", "yaniv", "--strategy", "random,threshold", "-n", "10",
                         "--players", "2", "--no-progress")
    assert code == 0 and "tournament: 20 games played in" in err and "games played" not in out
    code, out, err = run(capsys, "tournament", "yaniv", "--strategy", "random,threshold", "-n", "10",
                         "--players", "2", "--no-progress")
    assert code == 0 and err == ""
