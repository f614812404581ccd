"""A game played at the table, saved and analysed: ``Table.save`` / ``load`` and ``simcards
analyze GAME --file``. The saved file reproduces the game played — the person's moves and the
bots' — move for move (the replay's lines, G-DEAL-1's deal of the seed and every draw and discard
after it, G-TURN-1/2), whichever seat is annotated; a game left unfinished is played on from the
file; ``simcards play`` saves at its end and says where; a file that does not fit gives one line
and exit 2.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from simcards.cli.app import app, main
from simcards.errors import SimcardsError
from simcards.table.analyze import analyze
from simcards.table.step import load, saved_games_dir, start

SEED, RULES, SAMPLES = 5, {"game_target": 15}, 40


def played(moves: int | None = None, rules: dict | None = None):
    """Seat 0 of a short Gin game (seed 5, to 15 points) against ``simple``, played by a person
    who picks options with a seeded random choice (not any strategy of the package), up to
    ``moves`` of its moves (all: to the end)."""
    t = start("gin", seed=SEED, against="simple", rules=RULES if rules is None else rules)
    rng = np.random.default_rng(11)
    while not t.done and (moves is None or len(t.actions) < moves):
        t.apply(int(rng.integers(len(t.options))))
    return t


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    t = played()
    path = t.save(tmp_path_factory.mktemp("saved") / "game.json")
    yield t, path
    t.close()


@pytest.fixture(scope="module")
def analysed(game):
    return analyze("gin", file=game[1], samples=SAMPLES)


def test_the_file_holds_the_game_and_is_small(game):
    t, path = game
    data = json.loads(path.read_text())
    assert data["game"] == "gin" and data["seed"] == SEED and data["rules"] == RULES
    assert data["strategies"] == ["simple", "simple"] and data["seats"] == [0] and data["finished"] is True
    mine = [m for m in data["moves"] if "option" in m]
    assert [m["option"] for m in mine] == t.actions
    assert len(data["moves"]) == len(t.history) and path.stat().st_size < 40_000


def test_analyze_file_is_the_game_played_bots_included(game, analysed):
    """Every line of the game's replay (both seats' draws and discards, the bots' as they were
    played, the knocks and scores, G-SC-1..4) comes out of ``analyze --file`` in order, and the
    annotated decisions are the person's moves."""
    t, _ = game
    assert analysed.events == t.replay().splitlines()[2:]
    assert [d.played for d in analysed.decisions] == t.actions
    assert [d.played_label for d in analysed.decisions] == [m.label for m in t.history if m.mine]
    assert analysed.result == t.result and "seat 0: you" in analysed.head[1]
    assert all(d.advice is not None for d in analysed.decisions)
    assert analysed.source == {"file": str(game[1]), "seats": [0], "finished": True}


def test_a_bots_seat_of_a_saved_game_is_annotated_in_the_same_game(game):
    """``--seat 1``: the bot's decisions are annotated, its moves its strategy's own (from its own
    stream), the person's from the file: the same game, line for line."""
    t, path = game
    a = analyze("gin", file=path, seat=1, samples=SAMPLES)
    assert a.events == t.replay().splitlines()[2:]
    assert len(a.decisions) == sum(1 for m in t.history if m.seat == 1)


def test_a_game_annotated_from_its_file_is_the_seed_analysis_when_the_person_played_the_strategy(tmp_path):
    """A person who played exactly what ``simple`` plays: the saved game's analysis is the
    analysis of the seed (the same decisions, values and marks)."""
    from simcards.rng import seat_states

    t = start("gin", seed=SEED, against="simple", rules=RULES)
    stream = seat_states(SEED, 0, 2)[0]
    while not t.done:
        t.apply(t.choose("simple", stream))
    path = t.save(tmp_path / "g.json")
    t.close()
    a = analyze("gin", file=path, samples=SAMPLES)
    b = analyze("gin", seed=SEED, rules=RULES, strategies="simple", samples=SAMPLES)
    assert [d.as_dict() for d in a.decisions] == [d.as_dict() for d in b.decisions]
    assert a.events == b.events


def test_an_unfinished_game_is_played_on_from_its_file(tmp_path):
    t = played(moves=6, rules={})
    assert not t.done
    path = t.save(tmp_path / "left.json")
    u = load(path, "gin")
    try:
        assert not u.done and u.view == t.view and [o.label for o in u.options] == [o.label for o in t.options]
        assert u.history == t.history
        for _ in range(3):
            t.apply(0)
            u.apply(0)
        assert u.history == t.history
    finally:
        t.close()
        u.close()
    a = analyze("gin", file=path, samples=SAMPLES)
    assert len(a.decisions) == 6 and a.events[-1].startswith("(the game was left here")
    assert a.source is not None and a.source["finished"] is False


def edited(path, tmp_path, change) -> str:
    data = json.loads(path.read_text())
    change(data)
    out = tmp_path / "edited.json"
    out.write_text(json.dumps(data))
    return str(out)


def _bot_label(data):
    i = next(i for i, m in enumerate(data["moves"]) if "option" not in m and m["label"].startswith("discard"))
    data["moves"][i]["label"] = "discard Xx"


def _my_option(data):
    m = next(m for m in data["moves"] if "option" in m and m["kind"] == "discard")
    m["option"] = (m["option"] + 1) % 10  # another legal discard: the label no longer fits


def _illegal(data):
    next(m for m in data["moves"] if "option" in m)["option"] = 40


def _strategy(data):
    data["strategies"][1] = "random"


@pytest.mark.parametrize("change,words", [(_bot_label, "when played"), (_my_option, "is not an option"),
                                          (_illegal, "is not an option"), (_strategy, "")])
def test_a_file_that_does_not_fit_is_refused_in_one_line(game, tmp_path, capsys, change, words):
    path = edited(game[1], tmp_path, change)
    assert main(["analyze", "gin", "--file", path, "--samples", "10"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"error: {path}: ") and words in err, err
    with pytest.raises(SimcardsError):
        load(path)


def test_bad_files_and_options_give_one_line(game, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "something else"}))
    path = str(game[1])
    for argv, words in ((["analyze", "yaniv", "--file", path], "a saved gin game, not yaniv"),
                        (["analyze", "gin", "--file", str(bad)], "not JSON"),
                        (["analyze", "gin", "--file", str(other)], "not a saved game"),
                        (["analyze", "gin", "--file", str(tmp_path / "none.json")], "No such file"),
                        (["analyze", "gin", "--file", path, "--seed", "3"], "--seed"),
                        (["analyze", "gin", "--file", path, "--play", "3=0"], "--play"),
                        (["analyze", "gin", "--file", path, "--positions", "x.txt"], "one game"),
                        (["replay", "two-hundred", "--file", path], "not two-hundred"),
                        (["replay", "gin", "--file", path, "--rule", "game_target=20"], "--rule")):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and words in err, (argv, err)


def test_replay_file_prints_the_game(game, capsys):
    t, path = game
    assert main(["replay", "gin", "--file", str(path)]) == 0
    assert capsys.readouterr().out.rstrip("\n") == t.replay()


def test_play_saves_the_game_and_says_where(tmp_path, monkeypatch):
    """``simcards play``: the game left after three moves is saved under $XDG_DATA_HOME by
    default, the end screen names the file and the command that annotates it, and the file plays
    again to the same decision; ``--save FILE`` chooses the file, ``--no-save`` writes none."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    runner = CliRunner()
    res = runner.invoke(app, ["play", "gin", "--seed", "2", "--against", "simple"], input="1\n1\n1\nq\n")
    assert res.exit_code == 0, res.output
    files = list(saved_games_dir().glob("gin-seed2-game0-*.json"))
    assert len(files) == 1 and str(tmp_path / "data") in str(files[0])
    assert f"Game saved to {files[0]}" in res.output and f"simcards analyze gin --file {files[0]}" in res.output
    t = load(files[0])
    assert len(t.actions) == 3 and not t.done
    t.close()
    chosen = tmp_path / "mine.json"
    res = runner.invoke(app, ["play", "gin", "--seed", "2", "--against", "simple", "--save", str(chosen)],
                        input="2\nq\n")
    assert res.exit_code == 0 and chosen.exists() and f"Game saved to {chosen}" in res.output
    res = runner.invoke(app, ["play", "gin", "--seed", "2", "--against", "simple", "--no-save"], input="2\nq\n")
    assert res.exit_code == 0 and "saved" not in res.output
    assert len(list(saved_games_dir().glob("*.json"))) == 1


def test_play_resumes_a_game_left_unfinished(tmp_path, capsys):
    """``simcards play GAME --resume FILE``: the game is played again from the file to where it was
    left (what happened is shown again), played on, and saved back to the same file."""
    path = tmp_path / "left.json"
    runner = CliRunner()
    res = runner.invoke(app, ["play", "gin", "--seed", "2", "--against", "simple", "--save", str(path)],
                        input="1\n1\nq\n")
    assert res.exit_code == 0 and len(json.loads(path.read_text())["moves"]) > 2
    first = load(path)
    res = runner.invoke(app, ["play", "gin", "--resume", str(path)], input="1\n1\nq\n")
    assert res.exit_code == 0, res.output
    assert "seat 1: discard" in res.output and f"Game saved to {path}" in res.output
    again = load(path)
    assert len(again.actions) == 4 and again.actions[:2] == first.actions
    assert again.history[: len(first.history)] == first.history
    first.close()
    again.close()
    for argv, words in ((["--resume", str(path), "--seed", "3"], "--seed"),
                        (["--resume", str(tmp_path / "none.json")], "No such file")):
        assert main(["play", "gin", *argv]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and words in err, err
