"""A game played at a real table, typed as positions (``simcards analyze GAME --positions FILE``):
each line is ``simcards advise``'s compact position plus ``played OPTION``; every decision is valued
as ``advise`` values its position, marked by what the option played cost, and summed up; a planted
blunder is marked; bad lines give one line naming the line, exit 2.
"""

from __future__ import annotations

import pytest

from simcards.cli.app import main
from simcards.errors import SimcardsError
from simcards.table.advise import advise
from simcards.table.analyze import analyze, match_option

SAMPLES = 300
HAND = "As Ah 7h 5d 7d Ac 3c 4c 7c"
GAME = [
    "# a Gin game at the club: my decisions, one a line",
    f"hand {HAND} Jc; top 3h; score 20-35; played take 3h",
    "",
    f"hand {HAND} 3h Jc; score 20-35; played 7h",  # the planted blunder: the set of sevens broken
    "hand As Ah 3h 5d 7d Ac 3c 4c 7c Jc; top Kd; discarded Kd; score 20-35; played stock",
]


@pytest.fixture(scope="module")
def typed(tmp_path_factory):
    path = tmp_path_factory.mktemp("typed") / "club.txt"
    path.write_text("\n".join(GAME) + "\n")
    return path, analyze("gin", positions=path, samples=SAMPLES)


def test_a_planted_blunder_in_a_typed_game_is_marked(typed):
    """G-MELD-1: 7h 7d 7c is a set; throwing the 7h breaks it (deadwood 15 to 39) where 5d or Jc
    keep it: marked ?? (8 points of win chance or more, the paired interval clear of it) and first
    among the costliest; the line's other decisions, the best options, are not marked."""
    _, a = typed
    assert [d.hand for d in a.decisions] == [2, 4, 5]  # the file's line numbers (comments, blanks skipped)
    take, blunder, draw = a.decisions
    assert blunder.kind == "discard" and blunder.played_label.startswith("discard 7h")
    assert blunder.mark == "??" and blunder.verdict == "blunder" and blunder.win_lost_ci[0] > 0.08
    assert take.mark == draw.mark == "" and take.advice.best.index == take.played
    assert draw.played_label == "draw from the stock"
    assert a.costliest(1)[0] is blunder and a.counts()["blunder"] == 1
    text = a.text()
    assert "line 4: hand" in text and "?? blunder" in text and "Your typed game: 3 decisions" in text
    assert "  #2 line 4, discard: played discard 7h" in text


def test_each_line_is_valued_as_advise_values_its_position(typed):
    _, a = typed
    for d, line in zip(a.decisions, [g for g in GAME if g and not g.startswith("#")]):
        position = line.split("; played")[0]
        adv = advise("gin", position, samples=SAMPLES, seed=0)
        assert [o.as_dict() for o in adv.options] == [o.as_dict() for o in d.advice.options]


def test_a_typed_yaniv_call_not_made_is_marked(tmp_path):
    """Y-CALL-1: a total of 4 may call; with two players, playing on instead of calling gives away
    about 6 points of win chance (docs/advice.md's example): a mistake (?)."""
    path = tmp_path / "yaniv.txt"
    path.write_text("hand 2s Ad Ac Jk; take 5s; pile 9h Qd; sizes 2; score 0-0; played play on\n"
                    "hand 2s Ad Ac Jk; take 5s; pile 9h Qd; sizes 2; score 0-0; played call\n")
    a = analyze("yaniv", positions=path, players=2, samples=SAMPLES)
    on, call = a.decisions
    assert on.kind == call.kind == "call" and on.played_label == "play on" and call.played_label == "call Yaniv"
    assert on.mark == "?" and 0.04 <= on.win_lost < 0.08 and call.mark == "" and call.win_lost == 0


def test_an_option_is_named_as_a_person_would(typed):
    labels = ["discard As (deadwood 27)", "discard 10c (deadwood 20)", "discard Td (deadwood 20)"]
    assert match_option("discard Td (deadwood 20)", labels) == 2
    assert match_option("Discard as", labels) == 0
    assert match_option("10d", labels) == 2 and match_option("discard Tc", labels) == 1
    draw = ["draw from the stock", "take Kd (then deadwood 20)"]
    assert match_option("stock", draw) == 0 and match_option("Kd", draw) == 1 and match_option("take", draw) == 1
    with pytest.raises(SimcardsError, match="names 3 options"):
        match_option("discard", labels)
    with pytest.raises(SimcardsError, match="is not an option"):
        match_option("discard 9s", labels)


@pytest.mark.parametrize("lines,words", [
    ([f"hand {HAND} Jc; top 3h"], "line 1: give the option you chose"),
    ([f"hand {HAND} Jc; top 3h; played take 3h; played draw"], "line 1: give the option you chose once"),
    (["# nothing", f"hand {HAND} Jc; top 3h; played discard 9s"], "line 2: played 'discard 9s' is not an option"),
    ([f"hand {HAND} 7c Jc; played 7c"], "line 1: hand: 7c is given twice"),
    ([f"hand {HAND} 3h Jc; played discard"], "names 11 options"),
    (["# only a comment"], "no positions"),
])
def test_bad_typed_games_give_one_line(tmp_path, capsys, lines, words):
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + "\n")
    assert main(["analyze", "gin", "--positions", str(path), "--samples", "20"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"error: {path}") and words in err, err


def test_the_command_refuses_what_a_typed_game_has_no_use_for(tmp_path, capsys):
    path = tmp_path / "g.txt"
    path.write_text(GAME[1] + "\n")
    for argv, words in ((["--positions", str(tmp_path / "none.txt")], "No such file"),
                        (["--positions", str(path), "--strategy", "simple"], "--strategy"),
                        (["--positions", str(path), "--play", "1=0"], "--play")):
        assert main(["analyze", "gin", *argv]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and words in err, err
    assert main(["analyze", "gin", "--positions", str(path), "--samples", "20", "--json-out"]) == 0
    assert '"positions": "' in capsys.readouterr().out


def test_a_typed_two_hundred_overbid_is_marked(tmp_path):
    """T-BID-2, T-SC-2: with s:AQ h:A9 d:A85 c:J9 (seat 0's hand of deal 1, seed 1) a bid of 100
    is a contract the side cannot make and loses its bid: marked ?? where passing is the best."""
    path = tmp_path / "th.txt"
    path.write_text("hand s:AQ h:A9 d:A85 c:J9; played pass\nhand s:AQ h:A9 d:A85 c:J9; played bid 100\n")
    a = analyze("two-hundred", positions=path, samples=200)
    passed, overbid = a.decisions
    assert passed.kind == overbid.kind == "bid" and passed.mark == "" and passed.advice.best.index == passed.played
    assert overbid.played_label == "bid 100" and overbid.mark == "??" and overbid.win_lost_ci[0] > 0.08
