"""What every game provides to the runner, the API and the CLI.

A game package implements a subclass of :class:`GameDef` in its ``game`` module. The generic
layers (``api.simulate``, the ``simulate`` / ``replay`` / ``variants`` commands) only talk to
this interface, so a new game needs no change outside its own package beyond one registry line.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import pandas as pd

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
    """One rule option, for ``simcards variants GAME``."""

    name: str
    default: Any
    allowed: str
    rule: str
    help: str


def options_table(rules_class, defaults, docs: dict[str, tuple[str, str, str]]) -> list[OptionInfo]:
    """Every field of a rules dataclass (but ``name``) with its default from ``defaults`` and its
    (allowed values, rule ID, meaning) from ``docs``."""
    return [OptionInfo(f.name, getattr(defaults, f.name), *docs[f.name])
            for f in dataclasses.fields(rules_class) if f.name != "name"]


class GameRun:
    """A compiled engine for one (rules, players, strategies) configuration."""

    on_invalid = "error"  # a user policy's option index out of range: stop, or "first" (simcards.policy)

    def play(self, seed: int, first: int, count: int, detail: bool) -> tuple[pd.DataFrame, pd.DataFrame | None]:
        """Games ``first .. first+count-1`` of ``seed``: the per-game table and (if ``detail``) the
        per-round/hand/deal table, both with a ``game`` column holding the global game index."""
        raise NotImplementedError


class GameDef:
    name: str = ""
    title: str = ""
    unit: str = "round"  # what a game is made of: round / hand / deal
    detail_table: str = "rounds"  # name of the per-unit table (and its Parquet file)
    default_variant: str = ""
    default_players: int = 4
    default_strategy: str = "random"

    # --- rules ---------------------------------------------------------------------------
    def presets(self) -> dict[str, tuple[Any, str]]:
        raise NotImplementedError

    def options(self) -> list[OptionInfo]:
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

    # --- one game, by eye ----------------------------------------------------------------------
    def replay(self, rules, players: int, strategies: list[Strategy], seed: int, game: int) -> str:
        raise NotImplementedError
