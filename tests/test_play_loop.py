"""``simcards play``: the terminal loop driven with scripted input (no terminal needed).

A whole game is played to the end (moves by number and by label, a hint, an undo, bad input
answered with one line and the question again), and the result and the replay are printed; q
leaves cleanly; the command line refuses a bad seat or hint strategy in one line.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from simcards.cli.app import app
from simcards.table import start
from simcards.table.play import WIDTH, Loop


def scripted(lines: list[str], then: str = "1"):
    """``input`` that answers ``lines`` in order, then ``then`` for ever."""
    it = iter(lines)

    def read(prompt: str) -> str:
        return next(it, then)

    return read


@pytest.mark.parametrize("game,against,hint", [("yaniv", "threshold", "threshold"), ("gin", "simple", "knock"),
                                               ("two-hundred", "heuristic", "heuristic")])
def test_a_whole_game_in_the_loop(game, against, hint):
    out: list[str] = []
    t = start(game, seed=7, against=against)
    code = Loop(t, read=scripted(["h", "xyzzy", "0", "999", "1", "u", "2"]), write=out.append, hint=hint).run()
    assert code == 0 and t.done
    text = "\n".join(out)
    assert f"hint ({hint})" in text
    assert "(move taken back)" in text
    errors = [line for line in out if line.startswith("error:")]
    assert len(errors) == 3  # xyzzy, 0, 999: each one line, then the question again
    assert "Game over:" in text and "Replay:" in text
    assert all(line[:40] in text for line in t.replay().splitlines())  # the replay, wrapped at 80 columns
    assert all(len(line) <= WIDTH for line in out)
    winner = t.result["winner"]
    assert t.adapter.side_name(winner) + " wins" in text


def test_yaniv_undo_takes_back_the_last_move_and_the_bots_after_it():
    out: list[str] = []
    t = start("yaniv", seed=2, against="random")
    first = t.options
    Loop(t, read=scripted(["1", "1", "u", "q"]), write=out.append).run()
    assert len(t.actions) == 1  # discard kept, the draw taken back
    t.undo()
    assert t.options == first


def test_quit_leaves_gin_cleanly_and_end_of_input_too():
    for lines in (["q"], []):
        out: list[str] = []

        def read(prompt, it=iter(lines)):
            try:
                return next(it)
            except StopIteration:
                raise EOFError from None

        t = start("gin", seed=1, against="random")
        assert Loop(t, read=read, write=out.append).run() == 0
        assert out[-1].startswith("You left the game after 0 moves")
        t.close()


def test_the_command_plays_gin_and_refuses_bad_options_in_one_line():
    runner = CliRunner()
    r = runner.invoke(app, ["play", "gin", "--seed", "4", "--against", "simple", "--hint", "knock"],
                      input="h\n2\nq\n")
    assert r.exit_code == 0, r.output
    assert "hint (knock)" in r.output and "You left the game" in r.output
    from simcards.cli.app import main

    for argv in (["play", "gin", "--seat", "3"], ["play", "gin", "--hint", "nosuch"], ["play", "gin", "--against", "x"]):
        assert main(argv) == 2


def test_undo_in_a_resumed_game_takes_back_the_forced_moves_with_the_move_before_them():
    """A move that was the only legal one is played for the player; undo takes it back together with
    the player's own move before it, in a game resumed from its saved file as in the one played."""
    from simcards.table.step import load

    t = start("two-hundred", seed=3, against="heuristic")
    while not (len(t.forced) >= 2 and t.forced[-1] and not t.forced[-2]):
        t.apply(0)
    assert not t.done
    own = len(t.actions) - 1 - list(reversed(t.forced)).index(False)  # the last move of the player's own
    resumed = load(t.saved())
    assert resumed.forced == t.forced and resumed.options == t.options
    out: list[str] = []
    Loop(resumed, read=scripted(["u", "q"]), write=out.append).run()
    assert "(move taken back)" in out
    assert len(resumed.actions) == own  # the forced move and the player's move before it
    t.close()
    resumed.close()
