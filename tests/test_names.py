"""What a user types by name (issue 28, item 9): one rule for case (names of games, variants,
strategy families, presets, parameters and rule options are case-insensitive), a misspelt name is
refused with the nearest known one, and ``simcards strategies GAME`` stays short at 80 columns."""

from __future__ import annotations

import pytest
from rich.console import Console

import simcards.cli.common as cli
from simcards.cli import main
from simcards.errors import SimcardsError
from simcards.games import get_game
from simcards.spec import RunSpec


def run(capsys, *argv):
    code = main(list(argv))
    got = capsys.readouterr()
    return code, got.out, got.err


@pytest.mark.parametrize("kwargs,near", [
    ({"game": "yanv"}, "yaniv"),
    ({"game": "gin", "variant": "oklahma"}, "oklahoma"),
    ({"game": "yaniv", "strategies": "threshhold"}, "threshold"),
    ({"game": "yaniv", "strategies": "cautios"}, "cautious"),
    ({"game": "yaniv", "strategies": "threshold:cal=3"}, "call"),
    ({"game": "gin", "strategies": "early:mx=3"}, "max"),
    ({"game": "two-hundred", "rules": {"min_bidd": "70"}}, "min_bid"),
])
def test_a_misspelt_name_is_refused_with_the_nearest_one(kwargs, near):
    game = kwargs.pop("game")
    with pytest.raises(SimcardsError) as info:
        RunSpec.resolve(game, **kwargs)
    text = str(info.value)
    assert f"did you mean {near!r}?" in text, text
    assert "known" in text or "parameters:" in text, text  # the known values are still listed


def test_nothing_near_is_not_suggested():
    with pytest.raises(SimcardsError) as info:
        RunSpec.resolve("yaniv", strategies="psychic")
    assert "did you mean" not in str(info.value) and "known:" in str(info.value)


def test_names_are_case_insensitive_everywhere(tmp_path):
    spec = RunSpec.resolve("Yaniv", variant="Nepali", players=2, strategies=["Threshold:CALL=3", "Cautious:Keep=0.2"],
                           rules={"Out_Over": "150"})
    assert spec.game == "yaniv" and spec.variant == "nepali" and spec.rules.out_over == 150
    assert spec.specs == ["threshold:call=3", "threshold:call=3,keep=0.2"]
    toml = tmp_path / "mine.toml"
    toml.write_text('family = "Knock"\n[params]\nMAX = 4\n')
    assert RunSpec.resolve("gin", strategies=str(toml)).specs == ["knock:max=4"] * 2
    with pytest.raises(SimcardsError, match="given twice"):
        RunSpec.resolve("yaniv", strategies="threshold:call=3,CALL=4")


def test_strategies_listing_is_short_at_80_columns(capsys, monkeypatch):
    monkeypatch.setattr(cli, "out", Console(width=80))
    monkeypatch.setattr("simcards.strategy._CUSTOM", {})  # the built-in families only (not a policy another test registered)
    code, out, _ = run(capsys, "strategies", "gin")
    lines = out.splitlines()
    assert code == 0 and max(len(line) for line in lines) <= 80
    # 374 when knock's parameters were repeated under informed and mc; 192 with the camper and the panel (issue 29);
    # 206 with mc's patience and the undercutter preset
    assert len(lines) <= 210, len(lines)
    flat = " ".join(out.split())
    assert "every parameter of knock" in flat and "every parameter of informed" in flat
    assert flat.count("knock at or under this deadwood") == 1  # knock's `max`, shown once
    gdef = get_game("gin")
    words = set(out.split())
    for fam in gdef.families().values():
        assert fam.name in words and all(p.name in words for p in fam.params)
    # a preset's whole description, not its first comment line
    assert "checked against the opponent's last 5 turns as a simple-like player would have played them" in flat
    code, full, _ = run(capsys, "strategies", "gin", "--all")
    assert code == 0 and " ".join(full.split()).count("knock at or under this deadwood") == 3


def test_a_preset_description_is_its_leading_comment_block(capsys):
    from simcards.presets import describe, strategy_preset

    text = describe(strategy_preset("gin", "early"))
    assert text == ("Knock as soon as it is legal, take discards that cut 4+ points, and keep cards the opponent "
                    "is collecting away from them.")
    assert "simcards simulate" not in describe(strategy_preset("yaniv", "cautious"))  # its usage paragraph


def test_a_sweep_names_its_parameter_in_any_case():
    from simcards.strategy import make_strategy

    fam = get_game("yaniv").families()["threshold"]
    base = dict(make_strategy(fam, {}).values)
    assert make_strategy(fam, {**base, "CALL": 2}).spec == "threshold:call=2"  # tune's and equilibrium's update
