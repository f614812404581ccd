"""The room a first pass gives each game's detail rows (``GameRun.room``): learned once 256 games
have been played (the longest 1 in 1,000, plus a quarter, at most the game's ``first_pass()``),
with longer games replayed alone. The tables do not depend on it: the same rows, in the same order,
whatever the room."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simcards.games import get_game
from simcards.games.base import PROBE


def fresh_run(game: str, specs: list[str], players: int):
    g = get_game(game)
    return g.new_run(g.build_rules(None, None), players, g.strategies(specs, players))


@pytest.mark.parametrize("game,specs,players", [("two-hundred", ["heuristic", "random"] * 2, 4),
                                                ("yaniv", ["threshold", "random", "threshold"], 3),
                                                ("gin", ["simple", "random"], 2)])
def test_the_tables_are_the_same_whatever_room_a_first_pass_gives(game, specs, players):
    run = fresh_run(game, specs, players)
    assert run.room == 0
    learned = run.play(9, 40, PROBE + 300, True)  # the first PROBE games teach the room
    assert 0 < run.room <= run.first_pass()
    for room in (1, 3, run.first_pass()):  # 1 and 3: most games replayed alone
        run.room = room
        games, detail = run.play(9, 40, PROBE + 300, True)
        pd.testing.assert_frame_equal(games, learned[0])
        pd.testing.assert_frame_equal(detail, learned[1])
    assert list(learned[0]["game"]) == list(range(40, 40 + PROBE + 300))


def test_the_room_is_learned_from_enough_games_with_a_margin_and_never_more_than_first_pass():
    run = fresh_run("two-hundred", ["heuristic"], 4)
    for first in range(0, PROBE - 50, 50):  # a study's small batches: too few games to learn from
        run.play(3, first, 50, True)
        assert run.room == 0
    games, detail = run.play(3, PROBE - 50, 2000, True)
    longest = int(detail.groupby("game").size().quantile(0.999, interpolation="higher"))
    assert longest < 16 < run.first_pass()  # Two Hundred's standard game: 4.4 deals on average
    assert run.room >= longest + 2  # learned on the 2,000 games, with a margin
    run._learn_room(np.full(100_000, 40))  # as if 100,000 games of 40 deals had been played:
    assert run.room == run.first_pass()  # 40 + 10 would need more than the memory a chunk was sized for
