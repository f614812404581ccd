"""The opponent panels (simcards/panel.py): one place names them, every member is a spec of a
built-in family (or a shipped preset of one), and `simcards strategies GAME` lists them."""

from __future__ import annotations

import pytest

from simcards.cli import main
from simcards.errors import SimcardsError
from simcards.games import available, get_game
from simcards.panel import PANELS, STRONGEST, panel, panel_specs


@pytest.mark.parametrize("game", sorted(PANELS))
def test_panel_members_are_built_in_families_of_distinct_play(game):
    gdef = get_game(game)
    builtin = gdef.families()
    members = panel(game)
    assert len(members) >= 3
    resolved = [gdef.strategies([m.spec], gdef.default_players)[0] for m in members]
    for m, s in zip(members, resolved):
        assert builtin.get(s.family.name) is s.family, f"{m.spec} is not a built-in family's spec"
        assert m.style
    # no member plays exactly like another (family and every parameter)
    keys = [(s.family.name, s.values) for s in resolved]
    assert len(set(keys)) == len(keys)
    strongest = gdef.strategies([STRONGEST[game]], gdef.default_players)[0]
    assert (strongest.family.name, strongest.values) not in keys


def test_every_game_has_a_panel_and_the_issue_29_members():
    assert set(PANELS) == set(available()) == set(STRONGEST)
    assert panel_specs("gin")[:3] == ["simple", "camper", "informed"]
    assert panel_specs("gin")[3] == "knock:max=10,gin_after=6"  # the tuned setting of reports/gin-knock
    assert panel_specs("Two-Hundred") == ["heuristic", "informed", "aggressive"]
    yaniv = {get_game("yaniv").strategies([s], 4)[0].spec for s in panel_specs("yaniv")}
    assert yaniv == {"threshold", "informed", "threshold:keep=0,joker_end=0", "informed:deny=12"}


def test_a_game_without_a_panel_is_one_line(monkeypatch):
    monkeypatch.delitem(PANELS, "gin")
    with pytest.raises(SimcardsError, match="no opponent panel"):
        panel("gin")


@pytest.mark.parametrize("game", sorted(PANELS))
def test_strategies_lists_the_panel(game, capsys):
    assert main(["strategies", game]) in (0, None)
    out = capsys.readouterr().out
    tail = out[out.index("opponent panel"):]
    for m in panel(game):
        assert f"  {m.spec}  " in tail
