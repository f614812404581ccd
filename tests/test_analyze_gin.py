"""``simcards analyze`` on Gin: the annotated game is the replay's game move for move, a planted
blunder is marked, the result is reproducible, and the command refuses bad requests in one line."""

from __future__ import annotations

import json

import pytest

from simcards.cli.app import main
from simcards.table.analyze import WIN_MARKS, analyze, mark

SEED, GAME, SAMPLES = 1, 2, 300


@pytest.fixture(scope="module")
def plain():
    return analyze("gin", seed=SEED, game_index=GAME, samples=SAMPLES)


def test_the_annotated_game_is_the_replay(plain, capsys):
    """The seat's strategy plays from its own stream (G-DEAL-1's deal of seed 1, game 2): every
    event line of ``simcards replay`` appears, in order, in the analysis."""
    assert main(["replay", "gin", "--seed", str(SEED), "--game", str(GAME)]) == 0
    replay = capsys.readouterr().out.splitlines()
    moves = [line for line in replay if line.startswith("  ")]
    assert moves and [e for e in plain.events if e.startswith("  ")] == moves
    assert all(d.advice is not None for d in plain.decisions)  # draws, discards, knocks: all evaluated
    assert plain.result["winner"] in (0, 1)


def test_a_planted_blunder_is_marked(plain):
    """Replace one choice by the option the analysis values lowest where that loses 12 points of
    win chance or more: that decision is marked ?? (blunder), the decisions before it are
    unchanged, and the summary names it first among the costliest."""
    target = None
    for d in plain.decisions:
        worst = min(d.advice.options, key=lambda o: o.win)
        if d.advice.best.win - worst.win >= 0.12 and worst.index != d.played:
            target = (d.number, worst.index)
            break
    assert target is not None
    n, option = target
    planted = analyze("gin", seed=SEED, game_index=GAME, samples=SAMPLES, plays={n: option})
    d = planted.decisions[n - 1]
    assert d.played == option and d.mark == "??" and d.verdict == "blunder"
    assert d.win_lost_ci[0] > WIN_MARKS[0][0] - 0.04
    assert [x.as_dict() for x in planted.decisions[: n - 1]] == [x.as_dict() for x in plain.decisions[: n - 1]]
    assert planted.costliest(1)[0].number == n
    assert "?? blunder" in planted.text() and planted.counts()["blunder"] >= 1
    assert "(with planted moves)" in planted.head[1]


def test_marks_follow_the_documented_thresholds():
    assert mark(0.09, (0.05, 0.13), 0, (0, 0), True) == ("??", "blunder")
    assert mark(0.05, (0.01, 0.09), 0, (0, 0), True) == ("?", "mistake")
    assert mark(0.025, (0.001, 0.05), 0, (0, 0), True) == ("?!", "inaccuracy")
    assert mark(0.09, (-0.01, 0.19), 0, (0, 0), True) == ("", "")  # not clear of sampling noise
    assert mark(0.019, (0.01, 0.03), 0, (0, 0), True) == ("", "")
    assert mark(0, (0, 0), 13.0, (1.0, 25.0), False) == ("??", "blunder")  # no value table: points


def test_the_analysis_is_reproducible(plain):
    again = analyze("gin", seed=SEED, game_index=GAME, samples=SAMPLES)
    assert again.as_dict() == plain.as_dict()


def test_the_command(capsys):
    assert main(["analyze", "gin", "--seed", "1", "--game", "2", "--samples", "50", "--json-out"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat"] == 0 and data["samples"] == 50 and len(data["decisions"]) > 20
    for argv, words in ((["analyze", "gin", "--play", "999=1", "--samples", "20"], "made only"),
                        (["analyze", "gin", "--play", "x"], "N=OPTION"),
                        (["analyze", "gin", "--variant", "three-player"], "two-player game"),
                        (["analyze", "gin", "--seat", "5"], "seat 5")):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and words in err, err


def test_a_knock_that_wins_the_game_is_not_called_an_error():
    """Seed 3, game 0: seat 0 knocks with 8 at 86-0 (G-KNOCK-1) and reaches 100 (G-SC-1, G-GAME-1).
    The opponent is a player who knocks at 10 or less and has not: the evaluator's sampler checks
    each sampled hand against the opponent's last turns (deep's), so the knock is valued above
    playing on. With a sampler that ignores them, half the sampled hands undercut and the winning
    knock was marked an inaccuracy."""
    a = analyze("gin", seed=3, game_index=0, samples=SAMPLES)
    knock = a.decisions[-1]
    assert knock.kind == "knock" and knock.played_label.startswith("knock")
    assert a.result["winner"] == 0
    assert knock.mark == "" and knock.advice.best.index == knock.played
