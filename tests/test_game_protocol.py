"""The game interface (issue 14): every registered game satisfies the ``Game`` protocol and
declares its own metrics; the generic layers (studies, API, report) name no game in their code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simcards.games import ALIASES, GAMES, available, get_game
from simcards.games.analysis import GameMetrics
from simcards.games.base import Game

ROOT = Path(__file__).resolve().parents[1] / "simcards"
GENERIC = sorted((ROOT / "studies").glob("*.py")) + [ROOT / "api.py"] + sorted((ROOT / "report").glob("*.py"))


def _game_words() -> set[str]:
    words = set()
    for name in list(GAMES) + list(ALIASES) + [m.split(".")[2] for m in GAMES.values()]:
        words.add(name.lower().replace("-", "_"))
    words.discard("200")  # a number, not only a game's alias
    return words


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (documentation may give examples)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def game_names_in_code(source: str) -> list[str]:
    """Game names in a module's code: its identifiers and string constants, not its docstrings
    nor comments (``ast`` drops those)."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    words = _game_words()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value.lower()
        elif isinstance(node, ast.Name):
            text = node.id.lower()
        elif isinstance(node, ast.Attribute):
            text = node.attr.lower()
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.arg)):
            text = (node.arg if isinstance(node, ast.arg) else node.name).lower()
        else:
            continue
        # whole words or _-separated parts, so that "margin" or "begin" is not "gin"
        text = text.replace("-", "_")
        found += sorted(w for w in words if re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", text))
    return found


def test_the_check_sees_a_game_name_in_code_but_not_in_docs():
    src = '"""Yaniv, gin, two-hundred in a docstring."""\n# yaniv in a comment\nmargin = 1\nbegin = "engine"\n'
    assert game_names_in_code(src) == []
    assert game_names_in_code('UNIT = {"yaniv": "round"}\n') == ["yaniv"]
    assert game_names_in_code("def _gin_margin(df): pass\n") == ["gin"]
    assert game_names_in_code('x = f(game="two-hundred")\n') == ["two_hundred"]


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: str(p.relative_to(ROOT)))
def test_generic_layers_name_no_game(path):
    """A fourth game must not edit ``simcards/studies`` (nor the API or the report): each game
    declares its sides, margins, outcome rates and deck key in its own package."""
    assert game_names_in_code(path.read_text()) == []


@pytest.mark.parametrize("game", available())
def test_every_game_satisfies_the_protocol(game):
    gdef = get_game(game)
    assert isinstance(gdef, Game)
    rules = gdef.build_rules(None)
    m = gdef.metrics(rules)
    assert isinstance(m, GameMetrics) and m.unit == gdef.unit
    players = gdef.players_for(rules)
    k = m.n_sides(players)
    assert sorted({m.side_of_seat(s, players) for s in range(players)}) == list(range(k))
    assert gdef.detail_table in gdef.columns() and gdef.rule_options()


@pytest.mark.parametrize("game", available())
def test_metrics_read_the_games_own_tables(game):
    """The columns a game's metrics name exist in its per-game table, and winner, starter and
    margin come out per game (a structural check against the game's real output)."""
    from simcards import simulate

    gdef = get_game(game)
    sim = simulate(game, games=6, seed=3)
    rules = gdef.build_rules(None)
    m = gdef.metrics(rules)
    df = sim.games
    players = sim.meta["players"]
    assert m.units in df and (m.turns is None or m.turns in df)
    k = m.n_sides(players)
    assert set(m.winner_side(df, players).tolist()) <= set(range(-1, k))
    assert set(m.starter_side(df, players).tolist()) <= set(range(k))
    margins = np.stack([m.margin(df, s, players) for s in range(k)])
    assert margins.shape == (k, len(df)) and np.isfinite(margins).all()
    for o in m.outcomes:
        assert len(o.numer(df)) == len(o.denom(df)) == len(df)
    if m.unit_starter is not None:
        won, units, fair = m.unit_starter(sim.detail, df["game"].to_numpy(), players)
        assert (won <= units).all() and len(fair) == len(df)


def test_the_rules_deck_key_pairs_variants_with_the_same_cards():
    """Paired differences need the same deals: the deck key is the game's (T-V-5P deals a 40-card
    deck to five seats: another key; Israeli Yaniv and its Y-V-PICK variant deal the same deck)."""
    th = get_game("two-hundred")
    std, five = th.build_rules("standard"), th.build_rules("five-player")
    assert th.metrics(std).deck_key(std) != th.metrics(five).deck_key(five)
    y = get_game("yaniv")
    a, b = y.build_rules("israeli"), y.build_rules("israeli-anyset")
    assert y.metrics(a).deck_key(a) == y.metrics(b).deck_key(b)


def test_simulate_needs_a_game():
    from simcards import simulate

    with pytest.raises(TypeError):
        simulate()  # no default game in the generic layer


def test_sides_follow_the_variant():
    """Two Hundred's sides are its table's: teams of two (T-TEAM-1), or every player alone (T-V-5P)."""
    th = get_game("two-hundred")
    five = th.build_rules("five-player")
    m = th.metrics(five)
    assert m.n_sides(five.players) == five.players and m.starter_label == "first dealer"
    df = pd.DataFrame({"first_dealer": [0, 3, 4]})
    assert m.starter_side(df, five.players).tolist() == [0, 3, 4]


@pytest.mark.parametrize("game", available())
def test_study_hints_name_the_games_own_strategies(game):
    """The tournament's hint gives the game's default strategy, not another game's family."""
    from simcards.errors import SimcardsError
    from simcards.studies import tournament

    with pytest.raises(SimcardsError, match=f"random,{get_game(game).default_strategy}$"):
        tournament(game, ["random"], games=2)
