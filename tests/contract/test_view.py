"""The contract, information side: a strategy sees only its view. Two states that differ only in
cards hidden from the decider must get the same decision (``GameDef.view_twins``): every game
provides the hook, and every family of every game (the search players and user policies included:
tests/test_<game>_contract.py) is checked with it."""

from __future__ import annotations

import pytest

from simcards.games import get_game
from tests.contract.registry import default_table, family_cases


def twins(gdef, family: str, games=range(3)) -> list[tuple[int, int]]:
    rules, players, strategies = default_table(gdef, family)
    try:
        return [p for g in games for p in gdef.view_twins(rules, players, strategies, 17, g)]
    except NotImplementedError:
        pytest.fail(f"{gdef.name} does not provide GameDef.view_twins: no-peeking is part of the contract")


@pytest.mark.parametrize("game,family", family_cases())
def test_every_family_sees_only_its_view(game, family):
    pairs = twins(get_game(game), family)
    assert pairs, "no decision was asked"
    assert all(a == b for a, b in pairs), f"{sum(a != b for a, b in pairs)} of {len(pairs)} decisions changed"


def test_view_twins_catch_a_strategy_that_peeks(monkeypatch):
    """The check can fail: a view that shows the next player's cards makes greedy change its mind."""
    from tests.toygame import kernel as K
    from tests.toygame import reference

    honest = reference.view_of

    def peeking(seat, rnd, hands, played, wins):
        v = honest(seat, rnd, hands, played, wins)
        if len(played) == 0:  # the leader sees the next hand as if it had been played
            nxt = hands[(seat + 1) % len(hands)]
            v[K.V_N_PLAYED], v[K.V_PLAYED] = 1, nxt[1]
        return v

    monkeypatch.setattr(reference, "view_of", peeking)
    monkeypatch.setattr("tests.toygame.game.view_of", peeking)
    pairs = twins(get_game("high-card"), "greedy", range(20))
    assert any(a != b for a, b in pairs)
