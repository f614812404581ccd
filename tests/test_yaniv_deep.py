"""Yaniv's strongest preset, ``deep`` (issue 29): the ``mc`` family searching its discards as
well as its call (Y-SC-2 is what the call search weighs), on more samples. It is the panel's
strongest player (``simcards.panel.STRONGEST``), it plays other games than ``mc`` (the discard is
searched, not informed's), and the kernel and the reference engine play the same games with it."""

from __future__ import annotations

import simcards
from simcards.games.yaniv.game import GAME
from simcards.games.yaniv.rules import preset
from simcards.games.yaniv.search import S_CALL, S_DISCARD, S_DRAW
from simcards.panel import STRONGEST, panel_specs
from tests.test_yaniv_engines import _compare


def test_deep_is_mc_searching_the_call_and_the_discard_and_the_strongest():
    deep = GAME.strategies(["deep"], 4)[0]
    assert deep.family.name == "mc"
    values = dict(deep.values)
    assert int(values["search"]) == S_CALL | S_DISCARD  # the draw stays threshold's
    assert not int(values["search"]) & S_DRAW
    assert values["k"] == 64
    assert STRONGEST["yaniv"] == "deep"
    assert "deep" not in panel_specs("yaniv")


def test_deep_plays_its_own_discards_not_mcs():
    """The same deals, one seat of each against three ``informed`` (Y-PLAY-1: a turn is a discard
    and a draw): searching the discard changes the games."""
    kw = dict(variant="israeli", players=4, games=4, seed=29, detail=False, threads=1)
    a = simcards.simulate("yaniv", strategies=["deep:k=4", "informed", "informed", "informed"], **kw).games
    b = simcards.simulate("yaniv", strategies=["mc:k=4", "informed", "informed", "informed"], **kw).games
    c = simcards.simulate("yaniv", strategies=["deep:k=4", "informed", "informed", "informed"], **kw).games
    assert a.equals(c)  # reproducible for a seed
    assert not a.equals(b)


def test_reference_and_kernel_play_the_same_games_with_deep():
    rules = preset("israeli")
    for game in range(3):
        _compare(rules, 4, ["deep:k=3", "informed", "threshold", "denier"], 20261206, game)
        _compare(rules, 2, ["informed", "deep:k=2"], 20261206, game)
