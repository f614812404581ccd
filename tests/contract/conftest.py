"""The contract suite's fixture: the test-only games join the registry (one line each)."""

from __future__ import annotations

import pytest

import simcards.games
from tests.contract.registry import TEST_GAMES


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    for name, module in TEST_GAMES.items():
        monkeypatch.setitem(simcards.games.GAMES, name, module)
