"""The Python API beside ``simcards.simulate``: the step interface (``simcards.start``) and the
studies with the tables their commands print (``simcards.display_tables``)."""

from __future__ import annotations

import pandas as pd
import pytest

import simcards
from simcards.errors import SimcardsError


def test_the_step_interface_is_exported_gin():
    t = simcards.start("gin", seed=2, against="random")
    assert isinstance(t, simcards.Table) and t.player == 0 and t.options
    again = simcards.start("gin", seed=2, against="random", actions=[o.label for o in t.options[:1]])
    assert again.actions == [0]
    with pytest.raises(AttributeError):
        simcards.no_such_thing  # noqa: B018


def test_a_gin_study_from_python_gives_the_tables_the_command_prints():
    res = simcards.tournament("gin", ["random", "simple"], games=40, seed=1)
    shown = simcards.display_tables(res)
    assert shown and all(isinstance(cap, str) and isinstance(df, pd.DataFrame) for cap, df in shown)
    assert simcards.answer_lines(res)  # the sentences the command prints first
    for name in ("compare", "tune", "tournament", "equilibrium"):
        assert callable(getattr(simcards, name))
    with pytest.raises(SimcardsError):
        simcards.compare("gin", ["standard", "nope"], games=10)
