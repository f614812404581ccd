"""Games longer than the first pass's per-game slots are replayed in full, never duplicated
(regression: their first slots used to appear twice in the detail table)."""

import pytest

import simcards
from simcards.games.gin import game as gin_game
from simcards.games.two_hundred import game as two_hundred_game
from simcards.games.yaniv import game as yaniv_game


@pytest.mark.parametrize("module,game,attr,unit", [
    (gin_game, "gin", "HANDS_PER_GAME", "hand"),
    (yaniv_game, "yaniv", "ROUNDS_PER_GAME", "round"),
    (two_hundred_game, "two-hundred", "DEALS_PER_GAME", "deal"),  # one replay (base.GameRun) for all three
])
def test_overflowing_games_keep_each_unit_once(monkeypatch, module, game, attr, unit):
    monkeypatch.setattr(module, attr, 3)  # most games overflow three slots
    sim = simcards.simulate(game, games=200, seed=4)
    detail = sim.detail
    assert (sim.games[unit + "s"] > 3).any()
    assert len(detail) == sim.games[unit + "s"].sum()
    assert not detail.duplicated(["game", unit]).any()
    assert detail["game"].is_monotonic_increasing  # replayed games back in game order
