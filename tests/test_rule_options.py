"""Rule options declared once (issue 14): each field of a game's rules dataclass carries its rule ID,
allowed values and help; the ``variants`` listing, the ``--rule`` parser and the check on
construction all read that one declaration, and an invalid rules value cannot be constructed."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from simcards.cli import main
from simcards.errors import SimcardsError
from simcards.games import get_game
from simcards.games.gin.rules import GinRules
from simcards.games.two_hundred.rules import TwoHundredRules
from simcards.games.yaniv.rules import YanivRules
from simcards.options import parse_option, specs

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"yaniv": YanivRules, "gin": GinRules, "two-hundred": TwoHundredRules}
DEFINED = set(re.findall(r"\*\*([YGT]-[A-Z0-9-]*[A-Z0-9])\*\*",
                         "".join(p.read_text() for p in (ROOT / "docs" / "rules").glob("*.md"))))


def _defined(rule_id: str) -> bool:
    """A rule of docs/rules, or a family of them written ``T-V-*``."""
    if rule_id.endswith("-*"):
        return any(d.startswith(rule_id[:-1]) for d in DEFINED)
    return rule_id in DEFINED


# ----- rules validated on construction --------------------------------------------------------------
@pytest.mark.parametrize("cls,changes,message", [
    (YanivRules, {"decks": 3}, "yaniv rules: decks=3; allowed: 1, 2 (Y-CARD-3)"),  # Y-CARD-3
    (YanivRules, {"pickup": "top"}, "yaniv rules: pickup=top is Kluft's rule"),  # Y-V-KLUFT combination
    (GinRules, {"players": 5}, "gin rules: players=5; allowed: 2, 3, 4, 6, 8 (G-V-3P, G-V-4P, G-V-TED)"),
    (GinRules, {"knock_limit": 11}, "gin rules: knock_limit=11; allowed: 0..10 (G-KNOCK-1)"),
    (TwoHundredRules, {"kitty": 3}, "two-hundred rules: kitty=3; allowed: 0, 4 (T-V-KITTY)"),
    (TwoHundredRules, {"mode": "five-player"}, "two-hundred rules: deck=36 with kitty=0 cannot be dealt evenly"),
])
def test_an_invalid_rules_value_cannot_be_constructed(cls, changes, message):
    with pytest.raises(SimcardsError) as direct:
        cls(**changes)
    assert str(direct.value).startswith(message) and "\n" not in str(direct.value)
    with pytest.raises(SimcardsError, match=re.escape(message)):  # nor through dataclasses.replace
        dataclasses.replace(cls(), **changes)


def test_wrong_types_are_refused_on_construction_too():
    with pytest.raises(SimcardsError, match=r"jokers=1 must be true or false \(Y-CARD-1\)"):
        YanivRules(jokers=1)
    with pytest.raises(SimcardsError, match="target='200' must be a whole number"):
        TwoHundredRules(target="200")
    with pytest.raises(SimcardsError, match=r"face_values=\(10, 10, 14\); allowed: 3 values, each 0..13"):
        YanivRules(face_values=(10, 10, 14))


@pytest.mark.parametrize("game", list(GAMES))
def test_presets_and_replace_still_build_valid_rules(game):
    gdef = get_game(game)
    for name, (rules, _) in gdef.presets().items():
        assert rules.name == name and rules.validate() is rules
        assert dataclasses.replace(rules) == rules
    assert gdef.build_rules(None) == GAMES[game]()


def test_gin_fiftieth_card_turns_on_last_chance_on_construction_g_wall_3():
    assert GinRules(fiftieth_card=True).last_chance
    assert GinRules(fiftieth_card=True) == GinRules(fiftieth_card=True, last_chance=True)


# ----- declared once -------------------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_every_option_declares_a_defined_rule_its_allowed_values_and_help(game):
    cls = GAMES[game]
    fields = [f.name for f in dataclasses.fields(cls) if f.name != "name"]
    assert list(specs(cls)) == fields  # every field but the name is an option
    for spec in specs(cls).values():
        assert spec.help and spec.shown, spec.name
        ids = spec.rule.split(", ")
        assert all(_defined(i) for i in ids), (spec.name, spec.rule)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_listing_shows_what_the_parser_reads_back(game):
    gdef, cls = get_game(game), GAMES[game]
    listed = gdef.rule_options()
    assert [o.name for o in listed] == list(specs(cls))
    defaults = gdef.build_rules(None)
    for o in listed:
        assert (o.allowed, o.rule, o.help) == (specs(cls)[o.name].shown, specs(cls)[o.name].rule,
                                               specs(cls)[o.name].help)
        assert parse_option(cls, o.name, o.default) == getattr(defaults, o.name), o.name


def _outside(spec) -> str | None:
    """A value just outside an option's declared allowed values, as --rule text."""
    if spec.kind is str:
        return "no-such-value"
    if spec.kind is bool:
        return "maybe"
    if spec.kind is int and spec.checked:
        numbers = [v for v in spec.values] + [b for r in spec.ranges for b in r if isinstance(b, int)]
        return str(max(numbers) + 1)
    return None


@pytest.mark.parametrize("game", list(GAMES))
def test_a_value_outside_the_listing_is_refused_naming_the_listed_values(game):
    gdef, cls = get_game(game), GAMES[game]
    listed = {o.name: o for o in gdef.rule_options()}
    tried = 0
    for name, spec in specs(cls).items():
        text = _outside(spec)
        if text is None:
            continue
        with pytest.raises(SimcardsError) as err:
            gdef.build_rules(None, {name: text})
        assert f"allowed: {listed[name].allowed}" in str(err.value) and listed[name].rule in str(err.value)
        tried += 1
    assert tried >= len(specs(cls)) - 2


def _errors(capsys) -> list[str]:
    """stderr without the cold-cache compile notice."""
    return [line for line in capsys.readouterr().err.splitlines() if not line.startswith("compiling")]


def test_rule_through_the_cli_gives_one_line_naming_the_allowed_values(capsys):
    allowed = {o.name: o.allowed for o in get_game("yaniv").rule_options()}["decks"]
    code = main(["simulate", "yaniv", "--rule", "decks=3", "--games", "10", "--no-progress"])
    assert code != 0 and _errors(capsys) == [f"error: yaniv rules: decks=3; allowed: {allowed} (Y-CARD-3)"]
    code = main(["simulate", "two-hundred", "--rule", "target=lots", "--games", "10", "--no-progress"])
    assert code != 0
    assert _errors(capsys) == ["error: rule target='lots': expected a whole number; allowed: 1..10000 (T-END-1)"]


@pytest.mark.parametrize("game,doc", [("yaniv", "yaniv.md"), ("gin", "gin.md"), ("two-hundred", "two-hundred.md")])
def test_the_game_docs_table_every_option_with_its_declared_default(game, doc):
    lines = (ROOT / "docs" / doc).read_text().splitlines()
    # the option table: option | default | allowed | rule ... (preset tables have fewer columns)
    rows = [line.split("|")[1:3] for line in lines if line.startswith("| `") and line.count("|") >= 5]
    for o in get_game(game).rule_options():
        first = next(((names, default) for names, default in rows if f"`{o.name}`" in names), None)
        assert first is not None, f"{o.name} is not in docs/{doc}"
        assert first[1].strip() == o.default, o.name
