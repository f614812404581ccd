"""What every game provides to the runner, the API, the CLI and the studies.

:class:`Game` is the interface (a ``Protocol``); a game package implements it with a subclass of
:class:`GameDef` (the shared defaults) in its ``game`` module. The generic layers
(``api.simulate``, the commands, ``simcards.studies``) only talk to this interface, so a new game
needs no change outside its own package beyond one registry line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np
import pandas as pd

from simcards.options import format_value, specs
from simcards.games.analysis import GameMetrics
from simcards.strategy import Family, Strategy, seat_strategies


class SeatLabel(str):
    """A summary row's label that is about one seat (``summary_rows``): it reads as its text, and
    ``.seat`` tells the CLI whose strategy to name beside it (no parsing of display text)."""

    seat: int

    def __new__(cls, text: str, seat: int) -> SeatLabel:
        label = super().__new__(cls, text)
        label.seat = seat
        return label


@dataclass(frozen=True)
class OptionInfo:
    """One rule option, for ``simcards variants GAME``: its declaration (``simcards.options``)."""

    name: str
    default: str  # as --rule text
    allowed: str
    rule: str
    help: str


def options_table(rules_class: type, defaults: Any) -> list[OptionInfo]:
    """Every option of a rules dataclass, as declared on its fields, with its value in ``defaults``
    written as ``--rule`` text (``true``, ``10,10,10``, ``auto`` for ``None``)."""
    return [OptionInfo(s.name, format_value(s, getattr(defaults, s.name)), s.shown, s.rule, s.help)
            for s in specs(rules_class).values()]


class GameRun:
    """A compiled engine for one (rules, players, strategies) configuration."""

    on_invalid = "error"  # a user policy's option index out of range: stop, or "first" (simcards.policy)

    def play(self, seed: int, first: int, count: int, detail: bool) -> tuple[pd.DataFrame, pd.DataFrame | None]:
        """Games ``first .. first+count-1`` of ``seed``: the per-game table and (if ``detail``) the
        per-round/hand/deal table, both with a ``game`` column holding the global game index."""
        raise NotImplementedError


@runtime_checkable
class Game(Protocol):
    """The game interface: what the generic layers may ask of a game (``GameDef`` implements it)."""

    name: str  # registry name (``simcards.games.GAMES``)
    title: str
    unit: str  # what a game is made of: round / hand / deal
    detail_table: str  # name of the per-unit table (and its Parquet file)
    default_variant: str
    default_players: int
    default_strategy: str
    compile_seconds: int  # cold kernel compile on one core, for the CLI's notice (0: say nothing)

    def presets(self) -> dict[str, Any]: ...
    def rule_options(self) -> list[OptionInfo]: ...
    def build_rules(self, variant: str | None, overrides: dict[str, Any] | None = None) -> Any: ...
    def players_for(self, rules: Any) -> int: ...
    def check_players(self, rules: Any, players: int) -> None: ...
    def families(self) -> dict[str, Family]: ...
    def strategies(self, specs: Any, players: int) -> list[Strategy]: ...
    def new_run(self, rules: Any, players: int, strategies: list[Strategy]) -> GameRun: ...
    def summarize(self, games: pd.DataFrame, players: int) -> dict: ...
    def summary_rows(self, summary: dict) -> list[tuple[str, str]]: ...
    def columns(self) -> dict[str, dict[str, str]]: ...
    def metrics(self, rules: Any) -> GameMetrics: ...
    def replay(self, rules: Any, players: int, strategies: list[Strategy], seed: int, game: int,
               on_invalid: str = "error") -> str: ...


class GameDef:
    """The shared defaults of :class:`Game`; a game declares the attributes and the rest."""

    name: str
    title: str
    unit: str
    detail_table: str
    default_variant: str
    default_players: int
    default_strategy: str
    compile_seconds: int = 0

    # --- rules ---------------------------------------------------------------------------
    def presets(self) -> dict[str, Any]:
        raise NotImplementedError

    def rule_options(self) -> list[OptionInfo]:
        """Every rule option with its default, allowed values, rule ID and meaning."""
        raise NotImplementedError

    def build_rules(self, variant: str | None, overrides: dict[str, Any] | None = None):
        """A validated rules object: the preset plus single-option overrides (strings from the
        CLI or typed values from the API)."""
        raise NotImplementedError

    def players_for(self, rules) -> int:
        """Players when none are given: the game's usual, or what the variant's table seats."""
        return self.default_players

    def check_players(self, rules, players: int) -> None:
        raise NotImplementedError

    # --- strategies ------------------------------------------------------------------------
    def families(self) -> dict[str, Family]:
        raise NotImplementedError

    def strategies(self, specs, players: int) -> list[Strategy]:
        return seat_strategies(specs, players, self.name, self.families(), self.default_strategy)

    # --- running -----------------------------------------------------------------------------
    def new_run(self, rules, players: int, strategies: list[Strategy]) -> GameRun:
        raise NotImplementedError

    def summarize(self, games: pd.DataFrame, players: int) -> dict:
        """Summary statistics from the per-game table; every rate as an ``Estimate``."""
        raise NotImplementedError

    def summary_rows(self, summary: dict) -> list[tuple[str, str]]:
        """(label, text) rows for the terminal table."""
        raise NotImplementedError

    def columns(self) -> dict[str, dict[str, str]]:
        """Documented columns: {table: {column: meaning}}."""
        raise NotImplementedError

    def metrics(self, rules) -> GameMetrics:
        """How the studies read this game's tables under ``rules`` (sides, margins, outcome
        rates, deck key...): declared in the game's ``analysis`` module."""
        raise NotImplementedError

    # --- one game, by eye ----------------------------------------------------------------------
    def replay(self, rules, players: int, strategies: list[Strategy], seed: int, game: int,
               on_invalid: str = "error") -> str:
        raise NotImplementedError

    # --- contract hooks: what tests/contract/ checks every game with (docs/contract.md) ---------
    def transcripts(self, rules, players: int, strategies: list[Strategy], seed: int,
                    game: int) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's and the reference engine's transcripts of game ``game`` of ``seed`` (one
        int64 row per event): the contract suite requires them equal, row for row."""
        raise NotImplementedError

    def card_audit(self, rules, players: int, transcript: np.ndarray) -> list[str]:
        """Where a kernel transcript loses, duplicates or invents a card ([] when every card is
        accounted for)."""
        raise NotImplementedError

    def view_twins(self, rules, players: int, strategies: list[Strategy], seed: int,
                   game: int) -> list[tuple[int, int]]:
        """For every decision of one reference game: (the option chosen, the option the same
        strategy chooses, from the same random state, once every card hidden from the decider has
        been dealt again)."""
        raise NotImplementedError


def full_log(play: Callable[[np.ndarray], int], width: int, rows: int = 20_000) -> np.ndarray:
    """A whole kernel transcript: ``play(log)`` plays one game into ``log`` and returns the rows
    it needed (rows past the end are counted, not written); a short log is replayed long enough."""
    log = np.zeros((rows, width), dtype=np.int64)
    n = play(log)
    if n > rows:
        log = np.zeros((n, width), dtype=np.int64)
        n = play(log)
    return log[:n]
