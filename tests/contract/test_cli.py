"""The contract, command-line side: ``simulate``, ``replay``, ``variants`` and ``strategies`` work
for every game of the registry (the test-only game included), and bad input is one line."""

from __future__ import annotations

import json

import pytest

from simcards.cli.app import main
from simcards.games import get_game
from tests.contract.registry import game_names


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("game", game_names())
def test_cli_simulate(game, capsys):
    code, out, err = run(capsys, "-q", "simulate", game, "--games", "30", "--seed", "2", "--threads", "1", "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["games"] == 30 and summary["meta"]["game"] == get_game(game).name
    code, out, err = run(capsys, "-q", "simulate", game, "--games", "30", "--seed", "2", "--threads", "1")
    assert code == 0 and get_game(game).title in out, err


@pytest.mark.parametrize("game", game_names())
def test_cli_replay(game, capsys):
    code, out, err = run(capsys, "replay", game, "--seed", "3", "--game", "1")
    assert code == 0, err
    assert "seed 3" in out and len(out.splitlines()) > 2
    again = run(capsys, "replay", game, "--seed", "3", "--game", "1")
    assert again[1] == out  # one game, by eye: the same every time


@pytest.mark.parametrize("game", game_names())
def test_cli_variants_lists_every_preset_and_option(game, capsys):
    code, out, err = run(capsys, "variants", game)
    assert code == 0, err
    gdef = get_game(game)
    flat = " ".join(out.split())
    for name in [*gdef.presets(), *(o.name for o in gdef.rule_options())]:
        assert name in flat, f"{name} is not listed"


@pytest.mark.parametrize("game", game_names())
def test_cli_strategies_lists_every_family(game, capsys):
    code, out, err = run(capsys, "strategies", game)
    assert code == 0, err
    for fam in get_game(game).families().values():
        assert fam.name in out
        for p in fam.params:
            assert p.name in out


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("argv", [
    ("simulate", "{game}", "--rule", "no_such_option=1"),
    ("simulate", "{game}", "--strategy", "no_such_family"),
    ("simulate", "{game}", "--variant", "no_such_variant"),
    ("simulate", "{game}", "--players", "99"),
    ("replay", "{game}", "--game", "-1"),
])
def test_cli_bad_input_is_one_line(game, argv, capsys):
    code, out, err = run(capsys, *(a.format(game=game) for a in argv))
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err


@pytest.mark.parametrize("game", game_names())
def test_cli_simulate_out_and_summary_only(game, capsys, tmp_path):
    """Tables on disk, and the streamed summary equal to the one from the tables."""
    gdef = get_game(game)
    code, _, err = run(capsys, "-q", "simulate", game, "--games", "40", "--seed", "4", "--threads", "1",
                       "--out", str(tmp_path / "run"))
    assert code == 0, err
    for name in ("games.parquet", f"{gdef.detail_table}.parquet", "summary.json"):
        assert (tmp_path / "run" / name).is_file()
    tables = json.loads((tmp_path / "run" / "summary.json").read_text())
    code, out, err = run(capsys, "-q", "simulate", game, "--games", "40", "--seed", "4", "--threads", "1",
                         "--summary-only", "--json")
    assert code == 0, err
    streamed = json.loads(out)
    assert {k: v for k, v in streamed.items() if k != "meta"} == {k: v for k, v in tables.items() if k != "meta"}

