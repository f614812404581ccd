"""What the contract suite runs over: every game of the registry, plus the test-only games, and
every strategy family of each (docs/contract.md)."""

from __future__ import annotations

import importlib
import re

import pytest

import simcards.games
from simcards.games import available

# The one registry line a new game needs; the test-only High card game proves it (tests/toygame/).
TEST_GAMES = {"high-card": "tests.toygame.game"}


def game_names() -> list[str]:
    return list(dict.fromkeys([*available(), *TEST_GAMES]))  # (the fixture may have registered them)


def game_def(name: str):
    """The ``GameDef`` of a game, without registering it (the collection step needs it)."""
    return importlib.import_module({**simcards.games.GAMES, **TEST_GAMES}[name]).GAME


# (game, family) whose games are long (uniform random Gin rarely knocks: ~10 s a reference game,
# ~30 ms a kernel game): their checks run in the slow lane only.
SLOW_FAMILIES = {("gin", "random")}


def family_cases(long_ones: bool = True) -> list:
    """Every (game, family); the SLOW_FAMILIES marked slow (left out without ``long_ones``)."""
    return [pytest.param(g, f, marks=pytest.mark.slow) if (g, f) in SLOW_FAMILIES else (g, f)
            for g in game_names() for f in game_def(g).families() if long_ones or (g, f) not in SLOW_FAMILIES]


def reference_games(game: str, family: str, n: int) -> range:
    """``n`` game indices, or one for the SLOW_FAMILIES (a reference game of theirs takes a minute)."""
    return range(1 if (game, family) in SLOW_FAMILIES else n)


def table_families(gdef, family: str, mirror: bool = False) -> list[str]:
    """The families around ``family``'s table (repeated around it): ``family`` alone, at every seat.
    A family with an engine of its own (``Family.decide``, e.g. Gin's informed and mc) sits instead
    with the game's other such families (unless ``mirror``): each engine is a whole kernel compile
    (~1 min of CPU cold), and this one is the engine the every-family table and the game's own
    strong-player tests use, so the fast lane compiles it once; the mirror tables (one engine per
    family) are checked in the slow lane."""
    own = [name for name, fam in gdef.families().items() if fam.decide is not None]
    if mirror or family not in own:
        return [family]
    return [family, *(name for name in own if name != family)]


def seat_specs(gdef, players: int, family: str | list[str], mirror: bool = False) -> list[str]:
    """One spec per seat: ``family``'s table (``table_families``), or a list of families repeated around it."""
    fams = table_families(gdef, family, mirror) if isinstance(family, str) else family
    return [fams[p % len(fams)] for p in range(players)]


def default_table(gdef, family: str | list[str], mirror: bool = False):
    """(rules, players, strategies) of the game's default variant with ``family``'s table
    (``table_families``), or a list of families, one per seat, repeated around the table."""
    rules = gdef.build_rules(None)
    players = gdef.players_for(rules)
    return rules, players, gdef.strategies(seat_specs(gdef, players, family, mirror), players)


def own_engine_cases() -> list:
    """The (game, family) whose fast-lane table is not the mirror one (``table_families``)."""
    return [(g, f) for g in game_names() for f in game_def(g).families()
            if table_families(game_def(g), f) != [f] and (g, f) not in SLOW_FAMILIES]


_RANGE = re.compile(r"^(-?\d+)\.\.(-?\d+)$")
_WORD = re.compile(r"^-?[\w-]+$")


def option_values(allowed: str) -> list[str]:
    """The values to try for one option, from the ``allowed`` text that ``variants GAME`` shows:
    every word of a list (``ends, any_set, any``), both ends and the middle of a range
    (``0..500``); text that is neither (``J,Q,K values 0..13``) gives none."""
    out: list[str] = []
    for token in re.split(r",\s+|\s+or\s+", allowed.strip()):
        m = _RANGE.match(token)
        if m:
            lo, hi = int(m[1]), int(m[2])
            out += [str(lo), str((lo + hi) // 2), str(hi)]
        elif _WORD.match(token) and ".." not in token:
            out.append(token)
        elif re.match(r"^[a-z_]+\.\.-?\d+$", token):  # min_bid..100: the numeric end
            out.append(token.rsplit("..", 1)[1])
    return list(dict.fromkeys(out))


def option_cases() -> list[tuple[str, str, str]]:
    return [(g, o.name, v) for g in game_names() for o in game_def(g).rule_options() for v in option_values(o.allowed)]
