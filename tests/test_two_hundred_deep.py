"""Two Hundred's strongest preset, ``deep`` (issue 29): the ``mc`` family on 96 samples per
searched decision (the card play, T-PLAY; the bid, T-BID; the trump). It is the panel's
strongest player (``simcards.panel.STRONGEST``), and the kernel and the reference engine play
the same games with it."""

from __future__ import annotations

import simcards
from simcards.games.two_hundred.game import GAME
from simcards.panel import STRONGEST, panel_specs
from tests.test_two_hundred_engines import _differential


def test_deep_is_mc_on_more_samples_and_the_strongest():
    deep = GAME.strategies(["deep"], 4)[0]
    mc = GAME.strategies(["mc"], 4)[0]
    assert deep.family.name == "mc"
    values, defaults = dict(deep.values), dict(mc.values)
    assert values["k"] == 96 and defaults["k"] < values["k"]
    assert {p: v for p, v in values.items() if p != "k"} == {p: v for p, v in defaults.items() if p != "k"}
    assert STRONGEST["two-hundred"] == "deep"
    assert "deep" not in panel_specs("two-hundred")


def test_deep_is_reproducible_and_not_mc():
    kw = dict(games=3, seed=29, detail=False, threads=1)
    a = simcards.simulate("two-hundred", strategies=["deep:k=6", "informed"], **kw).games
    b = simcards.simulate("two-hundred", strategies=["deep:k=6", "informed"], **kw).games
    c = simcards.simulate("two-hundred", strategies=["mc:k=5", "informed"], **kw).games
    assert a.equals(b)
    assert not a.equals(c)  # the samples come from the seat's stream: k changes the play


def test_engines_agree_with_deep():
    _differential("standard", ["deep:k=3", "informed"], {}, 2026, 3)
