"""What every game provides to the runner, the API, the CLI and the studies.

:class:`Game` is the interface (a ``Protocol``); a game package implements it with a subclass of
:class:`GameDef` (the shared defaults) in its ``game`` module. The generic layers
(``api.simulate``, the commands, ``simcards.studies``) only talk to this interface, so a new game
needs no change outside its own package beyond one registry line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, Sequence, runtime_checkable

import numpy as np
import pandas as pd

from simcards import policy
from simcards.games.analysis import GameMetrics
from simcards.games.engine import KernelBinding
from simcards.options import format_value, specs
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


PROBE = 256  # games a run plays first, with the game's own first-pass room, to learn the games' lengths


class GameRun:
    """A compiled engine for one (rules, players, strategies) configuration.

    The machinery is the same for every game: the seat arrays, the engine bound to the
    strategies (``engine.KernelBinding``), the batch call with what a user policy does wrong
    turned into one line, and the detail table's overflow replay. A game supplies ``binding``,
    the output widths, ``batch_args`` and the hooks below."""

    on_invalid = "error"  # a user policy's option index out of range: stop, or "first" (simcards.policy)
    binding: KernelBinding  # the game's kernel
    kinds: dict[int, str] = {}  # decision kinds by code, for messages (policy.kind_names)
    games_width = 0  # columns of the per-game output (layout.G_WIDTH)
    # The kernel writes a game's output as a column of ``(games_width, count)``; its transpose is
    # the games × columns array everything else reads, a column at a time: contiguous, where rows
    # make every column read touch every row (Two Hundred's games table of 40,000 games: 2.4-3.8 ms
    # instead of 3.8-5.5).
    columns_first = False
    bad_slot = 0  # where a game's output records a policy's bad index (layout.G_BAD)
    units_slot = 0  # the per-game output column counting detail rows (rounds, hands, deals)

    def __init__(self, rules, strategies: Sequence[Strategy], sids: np.ndarray, params: np.ndarray):
        self.rules = rules
        self.encoded = rules.encode()
        self.strategies = list(strategies)
        self.sids, self.params = sids, params
        # a user policy can return an option out of range (counted in ``invalid_decisions``); the
        # game's own attached families (its search players) are built-ins and cannot
        self.custom = any(s.family.decide is not None and s.family not in self.binding.attached for s in strategies)
        self.room = 0  # detail rows a game gets in a first pass, learned from the games played (``_learn_room``)
        self.lengths = np.zeros(0, dtype=np.int64)  # how many games played had each number of detail rows
        with policy.reported(self.strategies, self.kinds):
            self.engine = self.binding.engine(self.strategies)
            self._batch(0, 0, 1, self._new_games(1), 1)  # compile (or load) now

    # --- the game's hooks ----------------------------------------------------------------------
    def batch_args(self) -> tuple:
        """What the kernel's ``play_batch`` takes between ``count`` and the output arrays."""
        return (self.encoded, self.sids, self.params)

    def detail_width(self) -> int:
        """Columns of a detail row."""
        raise NotImplementedError

    def first_pass(self) -> int:
        """Detail rows written per game in a first pass (longer games are replayed alone)."""
        raise NotImplementedError

    def games_frame(self, games: np.ndarray, first: int) -> pd.DataFrame:
        raise NotImplementedError

    def detail_frame(self, rows: np.ndarray, n_units: np.ndarray, first: int) -> pd.DataFrame:
        """The detail table of games ``first .. first + len(n_units) - 1`` from ``rows``: game
        ``i``'s ``n_units[i]`` rows, in game order (``detail_rows``)."""
        raise NotImplementedError

    def play_reference(self, seed: int, game: int, decide) -> Any:
        """Play one game in the reference engine with ``decide`` (``on_invalid="first"``): the game's
        ``reference.play_reference`` takes the rules object and then what the kernel takes after
        its encoded rules (``batch_args``)."""
        import importlib

        reference = importlib.import_module(type(self).__module__.rsplit(".", 1)[0] + ".reference")
        return reference.play_reference(self.rules, *self.batch_args()[1:], seed, game, decide, on_invalid="first")

    # --- the machinery -------------------------------------------------------------------------
    def _new_games(self, count: int) -> np.ndarray:
        """The per-game output of ``count`` games, zero: games × columns, laid out column by column
        for a ``columns_first`` kernel."""
        return np.zeros((count, self.games_width), dtype=np.int64, order="F" if self.columns_first else "C")

    def _batch(self, seed: int, first: int, count: int, games: np.ndarray, cap: int) -> np.ndarray:
        detail = np.zeros((count * cap, self.detail_width()), dtype=np.int32)
        self.engine.play_batch(seed, first, count, *self.batch_args(), games.T if self.columns_first else games,
                               detail, cap)
        return detail

    def raw(self, seed: int, first: int, count: int, cap: int) -> tuple[np.ndarray, np.ndarray]:
        """The kernel's output arrays for games ``first .. first+count-1`` with ``cap`` detail
        rows per game; a policy's bad index or exception becomes one line (``policy.check_games``)."""
        games = self._new_games(count)
        with policy.reported(self.strategies, self.kinds):
            detail = self._batch(seed, first, count, games, cap)
        policy.check_games(games, self.bad_slot, first, policy.names_of(self.strategies), self.kinds,
                           self.on_invalid, lambda g: self.explain(seed, g))
        return games, detail

    def _learn_room(self, n_units: np.ndarray) -> None:
        """The room a first pass gives each game, once ``PROBE`` games have been played: what the
        longest 1 in 1,000 of them needed, plus a quarter (at least 2), never less than before and
        never more than ``first_pass()`` (the memory a chunk was sized for). A first pass writes
        into ``count × room`` rows, which the kernel's writes touch page by page and the table
        gathers from: room for 48 deals where a Two Hundred game has 4 or 5 made a run of 400,000
        games with tables 5-9% slower. A longer game is replayed alone (``_replay``): cheap for a
        plain game, a whole game's search for a search player, hence the margin and the count
        (learned from the first few games of a study's small batches, Yaniv ``mc`` replayed so
        many that it ran at half its speed)."""
        if not len(n_units):
            return
        counts = np.bincount(n_units)
        if len(counts) > len(self.lengths):
            counts[:len(self.lengths)] += self.lengths
            self.lengths = counts
        else:
            self.lengths[:len(counts)] += counts
        played = int(self.lengths.sum())
        if played >= PROBE:
            longest = int(np.searchsorted(np.cumsum(self.lengths), 0.999 * played))
            self.room = min(max(self.room, longest + max(2, longest // 4)), self.first_pass())

    def explain(self, seed: int, game: int) -> str | None:
        """What a policy that raised in the kernel says when the reference engine plays that game."""
        return policy.exception_text(lambda: self.play_reference(seed, game, self.engine.decide))

    def play(self, seed: int, first: int, count: int, detail: bool) -> tuple[pd.DataFrame, pd.DataFrame | None]:
        """Games ``first .. first+count-1`` of ``seed``: the per-game table and (if ``detail``) the
        per-round/hand/deal table, both with a ``game`` column holding the global game index.
        The tables are the same whatever room the first pass gives a game (``_learn_room``)."""
        if detail and not self.room and count > PROBE:  # learn the games' lengths on the first PROBE
            head, tail = self.play(seed, first, PROBE, detail), self.play(seed, first + PROBE, count - PROBE, detail)
            return (pd.concat([head[0], tail[0]], ignore_index=True),
                    pd.concat([head[1], tail[1]], ignore_index=True))
        cap = (self.room or self.first_pass()) if detail else 0
        games, rows = self.raw(seed, first, count, cap)
        games_df = self.games_frame(games, first)
        if self.custom and "invalid_decisions" not in games_df:  # option indices out of range, played as 0
            games_df["invalid_decisions"] = games[:, self.bad_slot].astype(np.int32)
        if not detail:
            return games_df, None
        n_units = games[:, self.units_slot]
        self._learn_room(n_units)
        long = np.flatnonzero(n_units > cap)
        replayed = self._replay(seed, first + long, n_units[long]) if len(long) else None
        return games_df, self.detail_frame(detail_rows(rows, n_units, cap, long, replayed), n_units, first)

    def _replay(self, seed: int, games: np.ndarray, n_units: np.ndarray) -> np.ndarray:
        """The detail rows of ``games`` (longer than a first pass's room), each replayed alone with
        room for every row (same seed, same game), one game's after the other's."""
        return np.concatenate([self.raw(seed, int(g), 1, int(n))[1] for g, n in zip(games, n_units)])


def nullable(values: np.ndarray, dtype: str = "int8") -> pd.arrays.IntegerArray:
    """A nullable integer column of numpy ``dtype``, missing where ``values`` is negative (how the
    kernels write "none": no knocker, no caller, a seat out of the game)."""
    return pd.arrays.IntegerArray(np.maximum(values, 0).astype(dtype), values < 0)


def detail_rows(rows: np.ndarray, n_units: np.ndarray, cap: int, long: np.ndarray,
                replayed: np.ndarray | None) -> np.ndarray:
    """Every game's detail rows in game order, what its detail table is built from: game ``i``'s
    ``n_units[i]`` rows, from a first pass's ``rows`` (``cap`` slots a game, the first used) or,
    for the games ``long`` (longer than ``cap``), from ``replayed`` (theirs, one after another).
    One gather by computed indices, then the replayed games' rows put in place as blocks: masks
    and indices over every slot, and a sort, cost a Yaniv chunk of 50,000 games ten times as much."""
    kept = np.where(n_units > cap, 0, n_units)
    before = np.cumsum(kept) - kept  # rows kept by the games before each
    first_pass = rows.take(np.arange(int(kept.sum())) + np.repeat(np.arange(len(kept)) * cap - before, kept), axis=0)
    if replayed is None:
        return first_pass
    pieces, at, r = [], 0, 0
    for cut, n in zip(before[long], n_units[long]):
        pieces += [first_pass[at:cut], replayed[r:r + n]]
        at, r = cut, r + n
    return np.concatenate(pieces + [first_pass[at:]])


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

    # The game's rules module (``PRESETS``: name -> (rules, description); ``build_rules(variant,
    # overrides)``: a validated rules object whose class has ``check_players``) and its strategy
    # families by name: the defaults below read them, so a game declares data, not methods.
    rules_module: Any
    family_table: dict[str, Family]

    # --- rules ---------------------------------------------------------------------------
    def presets(self) -> dict[str, Any]:
        return dict(self.rules_module.PRESETS)

    def rule_options(self) -> list[OptionInfo]:
        """Every rule option with its default (the default variant's), allowed values, rule ID and
        meaning."""
        defaults = self.build_rules(self.default_variant)
        return options_table(type(defaults), defaults)

    def build_rules(self, variant: str | None, overrides: dict[str, Any] | None = None):
        """A validated rules object: the preset plus single-option overrides (strings from the
        CLI or typed values from the API)."""
        return self.rules_module.build_rules(variant or self.default_variant, overrides)

    def players_for(self, rules) -> int:
        """Players when none are given: what the variant's table seats (rules with a ``players``
        field: Gin's three-player, Two Hundred's five-player, ...), else the game's usual."""
        return getattr(rules, "players", self.default_players)

    def check_players(self, rules, players: int) -> None:
        rules.check_players(players)

    # --- strategies ------------------------------------------------------------------------
    def families(self) -> dict[str, Family]:
        return dict(self.family_table)

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
        rates, deck key...): declared in the ``analysis`` module beside the game's (imported when
        a study asks: games/analysis.py)."""
        import importlib

        package = type(self).__module__.rsplit(".", 1)[0]
        return importlib.import_module(f"{package}.analysis").metrics(rules)

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


def replay_text(title: str, strategies: Sequence[Strategy], body: Sequence[str]) -> str:
    """A ``replay``: the title, who plays each seat, then the game's lines."""
    seats = "strategies: " + ", ".join(f"seat {p}: {s.spec}" for p, s in enumerate(strategies))
    return "\n".join([title, seats, *body])


def event_lines(events, headings: tuple[str, ...]) -> list[str]:
    """Reference events as replay lines: the ``headings`` kinds (a new round, hand, the game's end)
    flush left, every other event indented under them."""
    return [("" if ev.kind in headings else "  ") + ev.text for ev in events]


def full_log(play: Callable[[np.ndarray], int], width: int, rows: int = 20_000) -> np.ndarray:
    """A whole kernel transcript: ``play(log)`` plays one game into ``log`` and returns the rows
    it needed (rows past the end are counted, not written); a short log is replayed long enough."""
    log = np.zeros((rows, width), dtype=np.int64)
    n = play(log)
    if n > rows:
        log = np.zeros((n, width), dtype=np.int64)
        n = play(log)
    return log[:n]


def log_rows(log: list[list[int]], width: int) -> np.ndarray:
    """A reference engine's transcript (rows of different lengths) as the kernel writes it: an
    int64 array ``width`` wide, each row padded with zeros."""
    arr = np.zeros((len(log), width), dtype=np.int64)
    for i, row in enumerate(log):
        arr[i, : len(row)] = row
    return arr
