"""The command line, run as a user runs it: tiny seeded jobs, clean one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

from simcards.cli import main


def run(args, capsys):
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_simulate_prints_a_summary(capsys):
    code, out, err = run(["simulate", "yaniv", "--games", "300", "--seed", "1", "--no-progress"], capsys)
    assert code == 0, err
    for label in ("rounds per game", "turns per round", "round-1 starter wins", "seat 3 wins", "Asaf rate",
                  "turn cap", "games/s"):
        assert label in out
    assert "%" in out and "[" in out  # rates come with intervals


def test_simulate_json_and_out(tmp_path, capsys):
    code, out, err = run(["simulate", "yaniv", "--games", "200", "--seed", "4", "--players", "3", "--json",
                          "--out", str(tmp_path / "o"), "--strategy", "threshold:call=4"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 200 and data["meta"]["players"] == 3
    assert data["meta"]["strategies"] == ["threshold:call=4"] * 3
    games = pd.read_parquet(tmp_path / "o" / "games.parquet")
    assert {"game", "winner", "rounds", "turns", "score_0", "score_1", "score_2"} <= set(games.columns)
    rounds = pd.read_parquet(tmp_path / "o" / "rounds.parquet")
    assert {"game", "round", "starter", "caller", "turns", "asaf", "hand_0", "score_0", "eliminated"} <= set(rounds.columns)
    assert json.loads((tmp_path / "o" / "summary.json").read_text())["games"] == 200


def test_rules_and_variants(capsys):
    code, out, _ = run(["simulate", "yaniv", "--variant", "nepali", "--rule", "out_over=150", "--games", "100",
                        "--no-progress", "--json"], capsys)
    assert code == 0
    meta = json.loads(out)["meta"]
    assert meta["rules"]["out_over"] == 150 and meta["rules"]["pickup"] == "any"
    code, out, _ = run(["variants", "yaniv"], capsys)
    assert code == 0 and "israeli-anyset" in out and "call_limit" in out and "Y-V-RESET" in out
    code, out, _ = run(["strategies", "yaniv"], capsys)
    assert code == 0 and "threshold" in out and "keep" in out


def test_replay_tells_the_game(capsys):
    code, out, _ = run(["replay", "yaniv", "--seed", "1", "--game", "2", "--players", "3"], capsys)
    assert code == 0
    assert "round 1" in out and "throws" in out and "calls Yaniv" in out and "wins after" in out


@pytest.mark.parametrize("args,needle", [
    (["simulate", "yaniv", "--players", "1"], "--players 1"),
    (["simulate", "yaniv", "--players", "40"], "allowed 2..10"),
    (["simulate", "yaniv", "--games", "0"], "games=0"),
    (["simulate", "yaniv", "--games", "-5"], "games=-5"),
    (["simulate", "yaniv", "--variant", "swiss"], "unknown Yaniv variant"),
    (["simulate", "chess"], "unknown game"),
    (["simulate", "yaniv", "--strategy", "psychic"], "unknown yaniv strategy"),
    (["simulate", "yaniv", "--strategy", "threshold:call=99"], "out of range"),
    (["simulate", "yaniv", "--strategy", "threshold:call"], "key=value"),
    (["simulate", "yaniv", "--rule", "call_limit=seven"], "whole number"),
    (["simulate", "yaniv", "--rule", "decks=3"], "decks=3"),
    (["simulate", "yaniv", "--games", "ten"], "Invalid value"),
    (["simulate", "yaniv", "--strategy", "missing.toml"], "does not exist"),
    (["replay", "yaniv", "--game", "-1"], "--game -1"),
    (["replay", "yaniv", "--game", "99999999999999999999"], "--game 99999999999999999999: give a game index"),
    (["replay", "yaniv", "--game", "10000000000"], "from 0 to 9,999,999,999"),
    (["replay", "yaniv", "--seed", "99999999999999999999"], "--seed 99999999999999999999: give a whole number"),
    (["replay", "yaniv", "--seed", str(2**63)], f"--seed {2**63}: give a whole number from 0 to 2**63-1"),
    (["replay", "yaniv", "--seed", "-1"], "--seed -1"),
    (["tune", "yaniv", "--strategy", "threshold", "--param", "call=1,2", "--batch", "0"], "--batch 0"),
    (["tune", "yaniv", "--strategy", "threshold", "--param", "call=1,2", "--batch", "-10", "--adaptive"], "--batch -10"),
    (["tune", "yaniv", "--strategy", "threshold", "--param", "call=1,2", "--variant", ""], "give a preset name"),
    (["simulate", "yaniv", "--variant", " "], "give a preset name"),
    (["simulate", "yaniv", "--strategy", "threshold:call=3,call=4"], "parameter call is given twice"),
])
def test_bad_input_is_one_clean_line(args, needle, capsys):
    code, out, err = run(args, capsys)
    assert code == 2
    assert needle in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_malformed_strategy_file(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("family = threshold\n[params\n")
    code, _, err = run(["simulate", "yaniv", "--strategy", str(bad)], capsys)
    assert code == 2 and "malformed strategy file" in err and len(err.strip().splitlines()) == 1


def test_console_script_runs_without_traceback():
    res = subprocess.run([sys.executable, "-m", "simcards", "simulate", "yaniv", "--players", "1"],
                         capture_output=True, text=True)
    assert res.returncode == 2 and "Traceback" not in res.stderr and "error:" in res.stderr
