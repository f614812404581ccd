"""What every study shares: the result object, an arena (one game, rules and player count) that plays
seeded games, seat-rotation lineups, matchups and the checks on counts and seeds."""


from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.games.analysis import GameMetrics
from simcards.play import DEFAULT_CHUNK, Progress, play_range, set_threads, versions
from simcards.spec import RunSpec, check_seed
from simcards.stats.estimates import Z95, Estimate, bounded_mean, mean_ci
from simcards.strategy import Strategy, parse_spec

MAX_STUDY_GAMES = 10**8


# ----- results ----------------------------------------------------------------------------------
@dataclass
class StudyResult:
    """What a study produced: named tidy tables (the first is the main one), key findings,
    closing notes and the run metadata (seeds, rules, strategies, versions, timings)."""

    kind: str
    title: str
    tables: dict[str, pd.DataFrame]
    summary: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    meta: dict = field(default_factory=dict)

    @property
    def table(self) -> pd.DataFrame:
        return next(iter(self.tables.values()))


def est_cols(prefix: str, est: Estimate) -> dict:
    return {prefix: est.value, f"{prefix}_low": est.low, f"{prefix}_high": est.high}


# ----- playing ----------------------------------------------------------------------------------
class Arena:
    """One game, rules and player count (a :class:`RunSpec`): plays lineups of strategies on chosen
    game indices, through the one play loop (``simcards.play``)."""

    def __init__(self, game: str, variant: str | None = None, players: int | None = None,
                 rules: dict[str, Any] | None = None, progress: Progress | None = None):
        if players is not None:
            players = whole_count(players, "players")
        self.spec = RunSpec.resolve(game, variant=variant, players=players, rules=rules)
        self.game = self.spec.game
        self.gdef = self.spec.gdef
        self.variant = self.spec.variant
        self.rules = self.spec.rules
        self.players = self.spec.players
        self.m: GameMetrics = self.gdef.metrics(self.rules)
        self.k = self.m.n_sides(self.players)
        self.progress = progress
        self.games_played = 0
        self.labels: dict[str, str] = {}  # spec → the preset name it was given (see ``label``)

    def strategy(self, spec: str | Strategy) -> Strategy:
        if isinstance(spec, Strategy):
            return spec
        families = self.gdef.families()
        strat = parse_spec(spec, self.gdef.name, families)
        self.labels.setdefault(strat.spec, preset_name(spec, strat, families))
        return strat

    def label(self, strat: Strategy) -> str:
        """The strategy's name in the study's tables: a preset by the name it was given (``deep``),
        anything else by its spec."""
        return self.labels.get(strat.spec, strat.spec)

    def play(self, seat_strats: list[Strategy], seed: int, first: int, count: int, detail: bool = False):
        """The games table of games first..first+count-1; with ``detail``, (games, per-unit table).
        On the backend set by ``simcards.backends.using(...)`` (e.g. Dask workers), else here."""
        spec = self.spec.with_seats(seat_strats).replace(seed=seed, detail=detail)
        return play_range(spec, first, count, on_chunk=self._advance)

    def _advance(self, count: int) -> None:
        self.games_played += count
        if self.progress is not None:
            self.progress.advance(count)

    def lineup_strats(self, lineup: tuple[int, ...], strats: list[Strategy]) -> list[Strategy]:
        """Seat strategies for a lineup (lineup[side] = index into ``strats``)."""
        return self.m.seat_specs([strats[i] for i in lineup], self.players)


def current_backend():
    """The backend set by ``simcards.backends.using(...)``, if any (None: play in this process)."""
    from simcards.backends import current

    return current()


def pair_lineups(k: int) -> list[tuple[int, ...]]:
    """Lineups for a head-to-head of strategy 0 against 1 over ``k`` sides: alternate them, and
    play every cyclic shift of that pattern and of its mirror, so each strategy holds each side
    equally often (half the sides on average)."""
    base = tuple(i % 2 for i in range(k))
    out: list[tuple[int, ...]] = []
    for pat in (base, tuple(1 - x for x in base)):
        for r in range(k):
            lu = pat[r:] + pat[:r]
            if lu not in out:
                out.append(lu)
    return out


def field_lineups(k: int) -> list[tuple[int, ...]]:
    """Strategy 0 at one side, strategy 1 at all the others; one lineup per side."""
    return [tuple(0 if s == r else 1 for s in range(k)) for r in range(k)]


@dataclass
class Matchup:
    """Per-deal results of strategy 0 over its lineups (arrays of length ``deals``)."""

    won: np.ndarray  # fraction of the lineups strategy 0 won on this deal
    won_lineups: np.ndarray  # the same as a whole number of lineups
    lost: np.ndarray  # fraction of the lineups strategy 1 won (won + lost < 1 when nobody won some)
    margin: np.ndarray  # mean score margin of strategy 0 (its sides vs the rest)
    wins0: int  # games won by strategy 0 (over all lineups)
    wins1: int  # games won by strategy 1
    undecided: int  # games nobody won (capped)
    fair: float  # strategy 0's expected win share if it were no better than strategy 1
    lineups: int
    seat_won: np.ndarray | None = None  # (deals, sides): lineups in which each side won the deal

    @property
    def deals(self) -> int:
        return int(self.won.size)


def play_matchup(t: Arena, s0: Strategy, s1: Strategy, lineups: list[tuple[int, ...]], seed: int,
                 first: int, count: int) -> Matchup:
    won = np.zeros(count, np.int64)
    lost = np.zeros(count)
    margin = np.zeros(count)
    wins0 = wins1 = undecided = 0
    fair = 0.0
    seat_won = np.zeros((count, t.k), np.int64)
    for lu in lineups:
        df = t.play(t.lineup_strats(lu, [s0, s1]), seed, first, count)
        mine = [side for side, i in enumerate(lu) if i == 0]
        w_side = t.m.winner_side(df, t.players)
        seat_won += np.asarray(w_side)[:, None] == np.arange(t.k)[None, :]
        mine_won = np.isin(w_side, mine)
        won += mine_won
        lost += (w_side >= 0) & ~mine_won
        wins0 += int(mine_won.sum())
        undecided += int((w_side < 0).sum())
        wins1 += int(((w_side >= 0) & ~mine_won).sum())
        margin += np.mean([t.m.margin(df, side, t.players) for side in mine], axis=0)
        fair += len(mine) / t.k
    n = len(lineups)
    return Matchup(won / n, won, lost / n, margin / n, wins0, wins1, undecided, fair / n, n, seat_won)


def whole_count(value, what: str, low: int = 1, high: int = MAX_STUDY_GAMES) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise SimcardsError(f"{what}={value!r}: give a whole number from {low:,} to {high:,}")
    return int(value)


def study_seed(seed) -> int:
    return check_seed(seed)


def open_study(game: str, variant: str | None, players: int | None, rules: dict[str, Any] | None, seed,
               games, threads: int | None) -> tuple[Arena, int, int, int]:
    """What a study at one table starts with: its arena, the seed and the games per unit checked,
    and the numba threads it plays on (``set_threads``: the count)."""
    t = Arena(game, variant, players, rules)
    return t, study_seed(seed), whole_count(games, "games"), set_threads(threads)


def study_meta(kind: str, t: Arena, seed: int, **extra) -> dict:
    return {"study": kind, "game": t.game, "players": t.players, "seed": seed, **extra,
            "versions": versions()}


def study_progress(total: int, label: str, enabled: bool) -> Progress:
    return Progress(total, label, enabled)


# ----- compare ----------------------------------------------------------------------------------
# Games are played block by block; each block of every variant becomes whole-number columns per
# game, whose moments (n, sums, cross products: analysis.moments) add up over blocks. Every interval
# and paired difference comes from those moments, so memory is one block's, whatever the games.
COMPARE_BLOCK = DEFAULT_CHUNK  # games per block in this process (per worker thread, twice, on a cluster)


def block_size() -> int:
    """Games per block: one chunk here; on a cluster enough ranges to keep every worker busy."""
    be = current_backend()
    return COMPARE_BLOCK * (2 * getattr(be, "slots", 1) if be is not None else 1)


def unit_mean(x: np.ndarray, z: float = Z95) -> Estimate:
    """Mean of per-deal win fractions (values in [0, 1]) with a 95% interval (``z``): the normal
    interval over deals widened to the exact binomial one of their total (``stats.bounded_mean``:
    it never collapses when every deal gave 0 or 1, nor under-covers when only a few did not)."""
    x = np.asarray(x, dtype=np.float64)
    return bounded_mean(mean_ci(x, z), float(x.sum()), int(x.size), z)


def fmt_est(value: float, low: float, high: float, kind: str) -> str:
    """``value [low, high]`` for people: ``pct`` a share (``52.3% [51.8, 52.8]``), ``pts`` a
    difference of shares in percentage points (``+2.3 pts [1.8, 2.8]``), else a number. An interval
    no wider than float noise is a point (``0.00 [0.00, 0.00]``, not ``0.00000 [...]``)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if math.isnan(low):
        return (f"{100 * value:.1f}%" if kind == "pct" else f"{100 * value:+.1f} pts" if kind == "pts"
                else f"{value:.2f}")
    if abs(high - low) <= 1e-9 * max(1.0, abs(value)):
        low = high = value
    est = Estimate(value, low, high, 0)
    if kind in ("pct", "pts") and len(set(re.findall(r"-?[\d.]+", est.pct()))) == 1:
        est = Estimate(value, value, value, 0)  # extra decimals that show nothing: 100.0% [100.0, 100.0]
    if kind == "pts":
        text = est.pct()
        sign = "+" if float(text.partition("%")[0]) > 0 else ""
        return sign + text.replace("%", " pts", 1)
    return est.pct() if kind == "pct" else est.num()


def preset_name(given: str | Strategy, strat: Strategy, families: dict) -> str:
    """How a study names a strategy: a shipped preset by the name it was given (``deep``,
    ``cautious:call=4``), anything else by its spec (``threshold:call=3``)."""
    if isinstance(given, str):
        text = given.strip()
        head = text.partition(":")[0]
        if head and head.lower() not in {f.lower() for f in families} and not head.endswith((".py", ".toml")):
            return text
    return strat.spec


def plays_identically(t: Arena, a: Strategy, b: Strategy, lineup: tuple[int, ...], seed: int, count: int) -> bool:
    """Do ``a`` and ``b`` make the same decisions here? ``lineup`` (0: ``a``, 1: ``b``) against the
    same table with ``a`` in ``b``'s seats, on the same ``count`` deals: identical game tables mean
    ``b`` played every decision as ``a`` would (e.g. a knock setting where the rules allow no knock).
    Both count in ``t.games_played``."""
    if a.spec == b.spec:
        return True
    mixed = t.play(t.lineup_strats(lineup, [a, b]), seed, 0, count)
    alone = t.play(t.lineup_strats(lineup, [a, a]), seed, 0, count)
    return bool(mixed.reset_index(drop=True).equals(alone.reset_index(drop=True)))
