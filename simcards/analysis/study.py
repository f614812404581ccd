"""The studies behind ``simcards compare / tune / tournament``, as a Python API returning tables.

Two design rules make the comparisons sharp and honest:

* **Common random numbers.** Game *i* of seed *s* uses its own random stream, so playing the same
  game indices under two variants (same deck) or two strategy values deals the same cards. Then
  differences are computed game by game (paired), which removes most of the luck of the deal.
* **Seat rotation.** A matchup is played once per *lineup*: every assignment of the strategies to
  sides in rotation (sides are seats, or teams in Two Hundred), each on the same game indices. A
  deal is the unit of every interval: its value is the average over the lineups, so seat and
  deal luck cancel inside the unit and the interval stays honest (units are independent).

Every rate carries a 95% interval; every difference says whether it is significant (its interval
excludes 0).
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from simcards.analysis.metrics import FAIR_SCALE, GameMetrics, metrics_for
from simcards.analysis.moments import Moments
from simcards.analysis.stats import (HOLM, bradley_terry, holm, p_value, paired_diff, shifted, significant,
                                     z_for)
from simcards.errors import SimcardsError
from simcards.games import canonical, get_game
from simcards.runner import DEFAULT_CHUNK, Progress, chunks, set_threads
from simcards.stats import Z95, Estimate, bounded_mean, mean_ci
from simcards.strategy import Strategy, make_strategy, parse_spec

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
class Table:
    """One game, rules and player count: plays lineups of strategies on chosen game indices."""

    def __init__(self, game: str, variant: str | None = None, players: int | None = None,
                 rules: dict[str, Any] | None = None, progress: Progress | None = None):
        self.game = canonical(game)
        self.gdef = get_game(self.game)
        self.m: GameMetrics = metrics_for(self.game)
        self.variant = variant or self.gdef.default_variant
        self.rules = self.gdef.build_rules(variant, rules)
        self.players = self.gdef.players_for(self.rules) if players is None else _whole(players, "players")
        self.gdef.check_players(self.rules, self.players)
        self.m = self.m.specialize(self.rules)
        self.k = self.m.n_sides(self.players)
        self.progress = progress
        self._runs: dict[tuple, Any] = {}
        self.games_played = 0

    def strategy(self, spec: str | Strategy) -> Strategy:
        if isinstance(spec, Strategy):
            return spec
        return parse_spec(spec, self.gdef.name, self.gdef.families())

    def play(self, seat_strats: list[Strategy], seed: int, first: int, count: int, detail: bool = False):
        """The games table of games first..first+count-1; with ``detail``, (games, per-unit table)."""
        be = _current_backend()
        if be is not None:
            return self._play_on(be, seat_strats, seed, first, count, detail)
        key = tuple(seat_strats)
        if key not in self._runs:
            self._runs[key] = self.gdef.new_run(self.rules, self.players, list(seat_strats))
        run = self._runs[key]
        parts = []
        done = 0
        while done < count:
            c = min(DEFAULT_CHUNK, count - done)
            parts.append(run.play(seed, first + done, c, detail))
            done += c
            self.games_played += c
            if self.progress is not None:
                self.progress.advance(c)
        return _joined(parts, detail)

    def _play_on(self, be, seat_strats, seed: int, first: int, count: int, detail: bool = False):
        """The same games on a backend (``simcards.backends.using(...)``, e.g. Dask workers): the
        ranges come back in any order and are put back in game order, so results are identical."""
        from simcards.backends.job import Job, portable_specs

        job = Job(self.game, self.rules, self.players, portable_specs(self.game, seat_strats), seed, detail, False)
        ranges = [(f, min(DEFAULT_CHUNK, first + count - f)) for f in range(first, first + count, DEFAULT_CHUNK)]
        parts = {}
        for f, c, result in be.imap(job, ranges):
            parts[f] = (result[1], result[2] if detail else None)
            self.games_played += c
            if self.progress is not None:
                self.progress.advance(c)
        return _joined([parts[f] for f in sorted(parts)], detail)

    def lineup_strats(self, lineup: tuple[int, ...], strats: list[Strategy]) -> list[Strategy]:
        """Seat strategies for a lineup (lineup[side] = index into ``strats``)."""
        return self.m.seat_specs([strats[i] for i in lineup], self.players)


def _joined(parts: list[tuple], detail: bool):
    """Concatenate chunks of (games, detail) in game order."""
    cat = lambda dfs: pd.concat(dfs, ignore_index=True) if len(dfs) > 1 else dfs[0]  # noqa: E731
    games = cat([g for g, _ in parts])
    return (games, cat([d for _, d in parts])) if detail else games


def _current_backend():
    """The backend set by ``simcards.backends.using(...)``, if any (None: play in this process)."""
    try:
        from simcards.backends import current
    except ImportError:  # a version without backends
        return None
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

    @property
    def deals(self) -> int:
        return int(self.won.size)


def play_matchup(t: Table, s0: Strategy, s1: Strategy, lineups: list[tuple[int, ...]], seed: int,
                 first: int, count: int) -> Matchup:
    won = np.zeros(count, np.int64)
    lost = np.zeros(count)
    margin = np.zeros(count)
    wins0 = wins1 = undecided = 0
    fair = 0.0
    for lu in lineups:
        df = t.play(t.lineup_strats(lu, [s0, s1]), seed, first, count)
        mine = [side for side, i in enumerate(lu) if i == 0]
        w_side = t.m.winner_side(df, t.players)
        mine_won = np.isin(w_side, mine)
        won += mine_won
        lost += (w_side >= 0) & ~mine_won
        wins0 += int(mine_won.sum())
        undecided += int((w_side < 0).sum())
        wins1 += int(((w_side >= 0) & ~mine_won).sum())
        margin += np.mean([t.m.margin(df, side, t.players) for side in mine], axis=0)
        fair += len(mine) / t.k
    n = len(lineups)
    return Matchup(won / n, won, lost / n, margin / n, wins0, wins1, undecided, fair / n, n)


def _whole(value, what: str, low: int = 1, high: int = MAX_STUDY_GAMES) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise SimcardsError(f"{what}={value!r}: give a whole number from {low:,} to {high:,}")
    return int(value)


def _seed(seed) -> int:
    from simcards.rng import MAX_SEED

    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise SimcardsError(f"seed={seed!r}: give a whole number from 0 to 2**63-1")
    return int(seed)


def _meta(kind: str, t: Table, seed: int, **extra) -> dict:
    from simcards.api import _versions

    return {"study": kind, "game": t.game, "players": t.players, "seed": seed, **extra,
            "versions": _versions()}


def _progress(total: int, label: str, enabled: bool) -> Progress:
    return Progress(total, label, enabled)


# ----- compare ----------------------------------------------------------------------------------
# Games are played block by block; each block of every variant becomes whole-number columns per
# game, whose moments (n, sums, cross products: analysis.moments) add up over blocks. Every interval
# and paired difference comes from those moments, so memory is one block's, whatever the games.
COMPARE_BLOCK = DEFAULT_CHUNK  # games per block in this process (per worker thread, twice, on a cluster)


def _block_size() -> int:
    """Games per block: one chunk here; on a cluster enough ranges to keep every worker busy."""
    be = _current_backend()
    return COMPARE_BLOCK * (2 * getattr(be, "slots", 1) if be is not None else 1)


@dataclass
class _Variant:
    name: str
    table: Table
    seats: list[Strategy]
    deck: tuple
    strong: str = ""  # the skill matchup: strong against weak, seat-rotated over ``lineups``
    weak: str = ""
    lineups: list[tuple[int, ...]] = field(default_factory=list)
    seconds: float = 0.0
    fair: float = math.nan  # the strong strategy's fair win share over the skill lineups

    def col(self, what: str) -> str:
        return f"{self.name}.{what}"


def _variant_columns(v: _Variant, df: pd.DataFrame, sk: Matchup | None, scale: int = 1,
                     detail: pd.DataFrame | None = None) -> dict[str, np.ndarray]:
    """One block of a variant's self-play games (and skill matchups) as whole-number columns."""
    t, m = v.table, v.table.m
    cols = {v.col("units"): df[m.units].to_numpy()}
    if detail is not None and m.unit_starter is not None:
        won, units, fair = m.unit_starter(detail, df["game"].to_numpy(), t.players)
        cols.update({v.col("ustart:won"): won, v.col("ustart:units"): units, v.col("ustart:fair"): fair})
    if m.turns is not None:
        cols[v.col("turns")] = df[m.turns].to_numpy()
    w_side = m.winner_side(df, t.players)
    for s in range(t.k):
        cols[v.col(f"win{s}")] = w_side == s
    cols[v.col("starter_won")] = w_side == m.starter_side(df, t.players)
    for o in m.outcomes:
        cols[v.col(f"{o.name}:n")] = o.numer(df)
        cols[v.col(f"{o.name}:d")] = o.denom(df)
    if sk is not None:  # lineups won, on the study's common scale (variants may differ in sides)
        cols[v.col("skill")] = sk.won_lineups * (scale // len(v.lineups))
    return cols


def _rate_rows(v: _Variant, mo: Moments, scale: int) -> list[dict]:
    """Speed, fairness, outcome and skill estimates of one variant."""
    t, m, k, c = v.table, v.table.m, v.table.k, v.col
    rows = []

    def add(group, metric, label, est, kind="num", **kw):
        rows.append({"variant": v.name, "group": group, "metric": metric, "label": label, "value": est.value,
                     "low": est.low, "high": est.high, "n": est.n, "format": kind, **kw})

    if m.turns is not None:
        add("speed", f"turns_per_{m.unit}", f"turns per {m.unit}", mo.ratio(c("turns"), c("units")))
    add("speed", f"{m.units}_per_game", f"{m.units} per game", mo.mean(c("units")))
    if m.turns is not None:
        add("speed", "turns_per_game", "turns per game", mo.mean(c("turns")))
    seat_word = "team" if k != t.players else "seat"
    devs = []
    zb = z_for(0.05, k)
    for s in range(k):
        est = mo.proportion(c(f"win{s}"))
        add("fairness", f"win_{seat_word}_{s}", f"{seat_word} {s} wins", est, "pct")
        devs.append((abs(est.value - 1 / k), s))
    edge = shifted(mo.proportion(c("starter_won")), 1 / k)
    # Labels name no fair share (it is 1/k here, its own in every variant) so that variants with
    # different tables share a row; the fair share is in the row's ``fair`` field.
    add("fairness", "starter_edge", f"{m.starter_label}'s edge (win rate − fair share)", edge, "pct",
        significant=significant(edge), fair=1 / k)
    # The largest deviation is picked among k seats: its interval is the Bonferroni-adjusted one
    # (k tests), and the flag is that interval's, so that the two always agree.
    if v.col("ustart:won") in mo.names:
        won, units = c("ustart:won"), c("ustart:units")
        share = mo.share(won, units)
        fair = Fraction(mo.sum(c("ustart:fair")), FAIR_SCALE * max(mo.sum(units), 1))
        add("fairness", f"{m.unit}_starter_wins", f"{m.unit}'s starter wins the {m.unit}", share, "pct",
            fair=float(fair))
        edge = shifted(share, float(fair))
        add("fairness", f"{m.unit}_starter_edge", f"{m.unit}'s starter's edge ({m.unit}s won − fair share)", edge,
            "pct", significant=significant(edge), fair=float(fair))
    dev, s = max(devs)
    strict = abs_dev(mo.proportion(c(f"win{s}"), zb), 1 / k)
    add("fairness", "max_seat_deviation", f"largest {seat_word} deviation from the fair share "
        f"(Bonferroni over {k} {seat_word}s)", strict, "pct", significant=strict.low > 0,
        detail=f"{seat_word} {s}", fair=1 / k)
    for o in m.outcomes:
        add("outcomes", o.name, o.label, _outcome(mo, c(f"{o.name}:n"), c(f"{o.name}:d")), "pct")
    if v.lineups:
        est = mo.fraction_mean(c("skill"), scale)
        add("skill", "skill_win_rate", f"{v.strong} beats {v.weak} (seat-rotated)", est, "pct")
        edge = shifted(est, v.fair)
        add("skill", "skill_edge", "skill edge (win rate − fair share)", edge, "pct", significant=significant(edge),
            fair=v.fair)
    return rows


def _outcome(mo: Moments, numer: str, denom: str) -> Estimate:
    """Σ numer / Σ denom: a proportion (Wilson ∪ Clopper–Pearson) when it is a per-game one
    (denominators all 1), else a share (every outcome counts events out of opportunities): the
    delta-method interval with games as units, widened to the exact one and kept inside [0, 1]."""
    if mo.n and mo.all_equal(denom, 1):
        return mo.proportion(numer)
    return mo.share(numer, denom)


def abs_dev(est: Estimate, target: float) -> Estimate:
    """|p − target| with the interval implied by p's interval."""
    lo, hi = est.low - target, est.high - target
    if lo <= 0 <= hi:
        return Estimate(abs(est.value - target), 0.0, max(-lo, hi), est.n)
    return Estimate(abs(est.value - target), min(abs(lo), abs(hi)), max(abs(lo), abs(hi)), est.n)


def unit_mean(x: np.ndarray, z: float = Z95) -> Estimate:
    """Mean of per-deal win fractions (values in [0, 1]) with a 95% interval (``z``): the normal
    interval over deals widened to the exact binomial one of their total (``stats.bounded_mean``:
    it never collapses when every deal gave 0 or 1, nor under-covers when only a few did not)."""
    x = np.asarray(x, dtype=np.float64)
    return bounded_mean(mean_ci(x, z), float(x.sum()), int(x.size), z)


def _diff_rows(base: _Variant, other: _Variant, mo: Moments, scale: int) -> list[dict]:
    """Differences other − base for every metric, paired on the same deals when the decks match,
    each with its 95% interval and the p-value inverted from its family of intervals (for Holm's
    control over all the differences of a study: ``_holm_flags``)."""
    m = base.table.m
    paired = base.deck == other.deck
    b, o = base.col, other.col
    rows = []

    def add(metric, label, interval, kind="num"):
        est = interval(Z95)
        rows.append({"variant": other.name, "baseline": base.name, "metric": metric, "label": label,
                     "diff": est.value, "low": est.low, "high": est.high, "paired": paired,
                     "p": p_value(interval), "significant_95": significant(est), "format": kind})

    mean_diff = mo.paired_diff if paired else mo.welch_diff
    ratio_diff = mo.paired_ratio_diff if paired else mo.ratio_diff
    if m.turns is not None:
        add(f"turns_per_{m.unit}", f"turns per {m.unit}",
            lambda z: ratio_diff(b("turns"), b("units"), o("turns"), o("units"), z))
    add(f"{m.units}_per_game", f"{m.units} per game", lambda z: mean_diff(b("units"), o("units"), z))
    if m.turns is not None:
        add("turns_per_game", "turns per game", lambda z: mean_diff(b("turns"), o("turns"), z))
    # An edge is the win rate minus the fair share 1/sides, which differs between tables. Win
    # rates and outcome shares can sit near 0 or 1: their differences are Newcombe-type (MOVER on
    # boundary-safe intervals, paired through the units' correlation).
    fair_shift = 1 / other.table.k - 1 / base.table.k
    add("starter_edge", f"{other.table.m.starter_label}'s edge",
        lambda z: shifted(mo.bounded_diff(b("starter_won"), o("starter_won"), 1, paired, z), fair_shift), "pct")
    if base.lineups and other.lineups:
        add("skill_win_rate", "stronger strategy's win rate",
            lambda z: mo.bounded_diff(b("skill"), o("skill"), scale, paired, z), "pct")
    for oc in m.outcomes:
        nb, db, no, do = b(f"{oc.name}:n"), b(f"{oc.name}:d"), o(f"{oc.name}:n"), o(f"{oc.name}:d")
        add(oc.name, oc.label, lambda z, nb=nb, db=db, no=no, do=do: mo.share_diff(nb, db, no, do, paired, z), "pct")
    return rows


def _holm_flags(diffs: pd.DataFrame) -> pd.DataFrame:
    """``significant`` = Holm-significant over every difference of the study (family-wise 5%):
    with 10 metrics × 7 variants, unadjusted 95% intervals would flag a few by chance alone."""
    if len(diffs):
        diffs["significant"] = holm(diffs["p"].tolist())
    return diffs


def _lineups_meta(runs: list[_Variant]) -> list | dict:
    """The seat rotations: one list, or one per variant when their sides differ."""
    per = {v.name: [list(lu) for lu in v.lineups] for v in runs}
    first = next(iter(per.values()))
    return first if all(lu == first for lu in per.values()) else per


def _lengths_table(runs: list[_Variant], counts: dict[str, dict[int, int]]) -> pd.DataFrame:
    """How many self-play games of each variant lasted each number of rounds/hands/deals."""
    units = runs[0].table.m.units
    rows = [{"variant": v.name, units: u, "games": c, "share": c / sum(counts[v.name].values())}
            for v in runs for u, c in sorted(counts[v.name].items())]
    return pd.DataFrame(rows, columns=["variant", units, "games", "share"])


def _count_lengths(into: dict[int, int], units: np.ndarray) -> None:
    values, counts = np.unique(units, return_counts=True)
    for u, c in zip(values.tolist(), counts.tolist()):
        into[u] = into.get(u, 0) + c


def _game_rows(v: _Variant, df: pd.DataFrame) -> pd.DataFrame:
    m = v.table.m
    gr = pd.DataFrame({"variant": v.name, "game": df["game"].to_numpy(), m.units: df[m.units].to_numpy()})
    if m.turns is not None:
        gr["turns"] = df[m.turns].to_numpy()
    gr["winner_side"] = m.winner_side(df, v.table.players)
    return gr


def compare(game: str, variants: list[str] | str, *, players: int | None = None,
            strategies: list[str] | str | None = None, games: int = 2000, seed: int = 0,
            rules: dict[str, Any] | None = None, strong: str | None = None, weak: str | None = None,
            skill: bool = True, threads: int | None = None, progress: bool = False,
            summary_only: bool = False) -> StudyResult:
    """Compare variants of one game: speed, fairness, skill expression and outcome rates, each
    with a 95% interval, plus every variant's difference from the first (paired on the same deals
    when the decks match).

    ``strategies`` (one spec for all seats, or one per seat) play the self-play games that measure
    speed, fairness and outcomes; ``strong`` (default: the game's default strategy) against
    ``weak`` (default: the game's ``GameMetrics.weak``, a weaker setting of the default strategy —
    against ``random`` the default wins ~100% under every variant, which measures nothing)
    measures skill expression, with seat rotation.
    ``summary_only`` drops the per-game table (``tables["games"]``) so that memory stays bounded
    however many games are played. Ctrl-C (KeyboardInterrupt) after the first block returns the
    estimates over the blocks finished, with ``meta["interrupted"]`` set."""
    gdef = get_game(game)
    names = _variant_list(gdef, variants)
    games = _whole(games, "games")
    seed = _seed(seed)
    set_threads(threads)
    strong = strong or gdef.default_strategy
    weak = weak or metrics_for(gdef.name).weak
    if isinstance(strategies, str):
        strategies = [strategies]
    tables = [Table(game, v, players, rules) for v in names]
    runs = [_Variant(n, t, t.gdef.strategies(strategies, t.players), t.m.deck_key(t.rules), strong, weak,
                     pair_lineups(t.k) if skill else []) for n, t in zip(names, tables)]
    scale = math.lcm(*(len(v.lineups) for v in runs)) if skill else 1
    strong_s, weak_s = tables[0].strategy(strong), tables[0].strategy(weak)
    bar = _progress(sum(games * (1 + len(v.lineups)) for v in runs), f"compare {tables[0].game}", progress)
    mo: Moments | None = None
    game_rows: dict[str, list[pd.DataFrame]] = {v.name: [] for v in runs}
    lengths: dict[str, dict[int, int]] = {v.name: {} for v in runs}
    done = 0
    interrupted = False
    try:
        for block in chunks(games, _block_size()):
            cols: dict[str, np.ndarray] = {}
            for v in runs:
                v.table.progress = bar
                t0 = time.perf_counter()
                res = v.table.play(v.seats, seed, block.first, block.count, detail=v.table.m.unit_starter is not None)
                df, det = res if isinstance(res, tuple) else (res, None)
                sk = play_matchup(v.table, strong_s, weak_s, v.lineups, seed, block.first, block.count) if skill else None
                v.seconds += time.perf_counter() - t0
                if sk is not None:
                    v.fair = sk.fair
                cols.update(_variant_columns(v, df, sk, scale, det))
                _count_lengths(lengths[v.name], df[v.table.m.units].to_numpy())
                if not summary_only:
                    game_rows[v.name].append(_game_rows(v, df))
            mo = Moments.of(cols) + mo
            done += block.count
    except KeyboardInterrupt:
        if mo is None:
            raise
        interrupted = True
    finally:
        bar.close()
    long = pd.DataFrame([r for v in runs for r in _rate_rows(v, mo, scale)])
    if "significant" not in long:
        long["significant"] = np.nan
    diffs = _holm_flags(pd.DataFrame([r for v in runs[1:] for r in _diff_rows(runs[0], v, mo, scale)]))
    wide = _wide(long, names)
    t0 = tables[0]
    notes = []
    if interrupted:
        notes.append(f"Interrupted after {done:,} of {games:,} games per variant: every estimate covers the "
                     f"games finished.")
    if len(runs) > 1:
        decks = {r.name: r.deck for r in runs}
        shared = [n for n in names[1:] if decks[n] == decks[names[0]]]
        notes.append(f"Differences are against {names[0]}; "
                     + (f"{', '.join(shared)} {'uses' if len(shared) == 1 else 'use'} the same deck, so "
                        "differences are paired on the same deals (common random numbers)"
                        if shared else "no other variant uses the same deck, so differences are unpaired")
                     + (f"; {', '.join(n for n in names[1:] if n not in shared)}: another deck (unpaired)"
                        if shared and len(shared) < len(names) - 1 else "") + ".")
        sig = diffs[diffs["significant"]] if len(diffs) else diffs
        control = f"{HOLM} over the {len(diffs)} differences"
        if len(sig):
            notes.append(f"Significant differences ({control}; intervals are 95% per difference): "
                         + "; ".join(f"{r.variant} {r.label} {_signed(r.diff, r.format)}" for r in sig.itertuples()) + ".")
        else:
            notes.append(f"No difference is significant ({control}).")
    meta = _meta("compare", t0, seed, variants=names, games=games,
                 strategies=[s.spec for s in runs[0].seats],
                 skill={"strong": strong_s.spec, "weak": weak_s.spec, "lineups": _lineups_meta(runs)} if skill else None,
                 rules={n: t.rules.options() for n, t in zip(names, tables)},
                 timings_seconds={v.name: round(v.seconds, 3) for v in runs},
                 games_played=sum(t.games_played for t in tables), summary_only=summary_only,
                 games_completed=done, interrupted=interrupted)
    out_tables = {"compare": wide, "estimates": long, "differences": diffs, "lengths": _lengths_table(runs, lengths)}
    if not summary_only:
        out_tables["games"] = pd.concat([df for v in runs for df in game_rows[v.name]], ignore_index=True)
    counts = {t.players for t in tables}
    title = (f"{t0.gdef.title}: {', '.join(names)} ({t0.players} players)" if len(counts) == 1 else
             f"{t0.gdef.title}: {', '.join(f'{n} ({t.players}p)' for n, t in zip(names, tables))}")
    return StudyResult("compare", title,
                       out_tables, {"variants": names}, notes, meta)


def _signed(v: float, kind: str) -> str:
    return f"{100 * v:+.2f} pts" if kind == "pct" else f"{v:+.2f}"


def _variant_list(gdef, variants) -> list[str]:
    if isinstance(variants, str):
        variants = [v.strip() for v in variants.split(",") if v.strip()]
    variants = list(variants or [])
    if variants == ["all"]:
        ok = []
        for name in gdef.presets():
            try:
                gdef.build_rules(name, None)
                ok.append(name)
            except SimcardsError:
                pass
        variants = ok
    if not variants:
        raise SimcardsError(f"give at least one variant, e.g. --variants {','.join(list(gdef.presets())[:2])} (or all)")
    if len(set(variants)) != len(variants):
        raise SimcardsError(f"--variants lists a variant twice: {','.join(variants)}")
    return variants


def fmt_est(value: float, low: float, high: float, kind: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if math.isnan(low):
        return f"{100 * value:.1f}%" if kind == "pct" else f"{value:.2f}"
    est = Estimate(value, low, high, 0)
    return est.pct() if kind == "pct" else est.num()


GROUPS = ("speed", "fairness", "outcomes", "skill")


def _wide(long: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """One row per variant, one text column per metric (value [95% CI]), grouped as ``GROUPS``
    (variants with other tables add their own seat or team columns to their group)."""
    rows = []
    for name in names:
        sub = long[long["variant"] == name]
        row = {"variant": name}
        for r in sub.itertuples():
            row[r.label] = fmt_est(r.value, r.low, r.high, r.format)
        rows.append(row)
    first = long.drop_duplicates("label")
    order = sorted(range(len(first)), key=lambda i: (GROUPS.index(first["group"].iloc[i]), i))
    columns = ["variant"] + [first["label"].iloc[i] for i in order]
    return pd.DataFrame(rows, columns=columns).fillna("-")  # "-": the metric does not apply there


# ----- tune -------------------------------------------------------------------------------------
def parse_values(text: str, param=None) -> list[float]:
    """``0..10`` (whole steps), ``0..1:0.25`` (with a step) or ``1,3,5``."""
    s = str(text).strip()
    try:
        if ".." in s:
            rng, _, step = s.partition(":")
            lo_s, _, hi_s = rng.partition("..")
            lo, hi = float(lo_s), float(hi_s)
            st = float(step) if step else 1.0
            if st <= 0 or hi < lo:
                raise ValueError
            count = int(math.floor((hi - lo) / st + 1e-9)) + 1
            if count > 1000:
                raise SimcardsError(f"{text!r}: {count} values; a sweep takes at most 1000")
            vals = [round(lo + i * st, 10) for i in range(count)]
        else:
            vals = [float(x) for x in s.split(",") if x.strip()]
    except ValueError:
        raise SimcardsError(f"values {text!r}: write a range like 0..10 or 0..1:0.25, or a list like 1,3,5") from None
    if not vals:
        raise SimcardsError(f"values {text!r}: no values")
    if len(set(vals)) != len(vals):
        raise SimcardsError(f"values {text!r}: a value is listed twice")
    return vals


def _parse_params(params) -> list[tuple[str, list[float]]]:
    if isinstance(params, dict):
        items = list(params.items())
    else:
        items = []
        for p in params:
            if isinstance(p, str):
                name, eq, vals = p.partition("=")
                if not eq or not name.strip():
                    raise SimcardsError(f"--param {p!r}: write NAME=VALUES, e.g. call=0..10 or call=1,3,5")
                items.append((name.strip(), vals))
            else:
                items.append(tuple(p))
    if not 1 <= len(items) <= 2:
        raise SimcardsError(f"tune sweeps one or two parameters; got {len(items)}")
    out = []
    for name, vals in items:
        out.append((name, parse_values(vals) if isinstance(vals, str) else [float(v) for v in vals]))
    if len(out) == 2 and out[0][0] == out[1][0]:
        raise SimcardsError(f"--param {out[0][0]} is given twice")
    return out


@dataclass
class _Arm:
    values: tuple[float, ...]
    strat: Strategy
    won: list = field(default_factory=list)
    margin: list = field(default_factory=list)
    alive: bool = True
    eliminated_at: int | None = None
    fair: float = 0.0

    def cat(self, what: str) -> np.ndarray:
        parts = getattr(self, what)
        return np.concatenate(parts) if parts else np.zeros(0)


def tune(game: str, strategy: str, params, *, against: str | None = None, variant: str | None = None,
         players: int | None = None, games: int = 1000, seed: int = 0, rules: dict[str, Any] | None = None,
         adaptive: bool = False, batch: int | None = None, alpha: float = 0.05, confirm: int | None = None,
         threads: int | None = None, progress: bool = False) -> StudyResult:
    """Sweep one or two parameters of a strategy family against ``against`` (default: the
    family's own defaults if it is the game's default family, else the game's default strategy).

    The candidate sits at one side and ``against`` at all the others, rotated over the sides;
    every value plays the same game indices (common random numbers). Reports the win rate and
    mean score margin per value with 95% intervals, the best value and whether it is
    significantly better than the runner-up (paired on the same deals).

    ``adaptive=True`` races the values: ``batch`` deals at a time for every value still in the
    race, dropping a value once it is significantly worse than the leader (paired, Bonferroni
    over values and looks), until one is left or each has ``games`` deals.

    The best value's sweep estimate is biased upward (it won a selection: with six identical
    values the best one's 95% interval covered the truth 86% of the time). ``confirm`` deals
    (default ``games``) replay the best value on fresh game indices, after the sweep's, and that
    unbiased estimate decides whether it beats the reference (``against``: a strategy against
    itself wins exactly its fair share). ``confirm=0`` skips the replay; the summary also holds
    the best value's selection-adjusted interval (Bonferroni over values and looks)."""
    t = Table(game, variant, players, rules)
    seed = _seed(seed)
    games = _whole(games, "games")
    set_threads(threads)
    base = t.strategy(strategy)
    sweep = _parse_params(params)
    given = dict(base.values)
    for name, vals in sweep:
        base.family.param(name)  # unknown names raise
    arms: list[_Arm] = []
    for combo in itertools.product(*[vals for _, vals in sweep]):
        values = dict(given)
        values.update({name: v for (name, _), v in zip(sweep, combo)})
        arms.append(_Arm(tuple(combo), make_strategy(base.family, values)))
    if len(arms) < 2:
        raise SimcardsError("a sweep needs at least two values")
    if against is None:
        against = base.family.name if base.family.name == t.gdef.default_strategy else t.gdef.default_strategy
    opp = t.strategy(against)
    lineups = field_lineups(t.k)
    confirm = games if confirm is None else _whole(confirm, "confirm", 0)
    limits = t.m.param_warnings(base.family.name, t.rules, sweep)
    if adaptive:
        batch = _whole(batch if batch is not None else max(50, games // 8), "batch", 1, games)
        looks = math.ceil(games / batch)
        z_elim = z_for(alpha, max(1, (len(arms) - 1) * looks))
    else:
        batch, looks, z_elim = games, 1, Z95
    bar = _progress((len(arms) * games + confirm) * len(lineups), f"tune {t.game}", progress)
    t.progress = bar
    t0 = time.perf_counter()
    played = 0
    history = []
    try:
        while played < games:
            count = min(batch, games - played)
            alive = [a for a in arms if a.alive]
            for a in alive:
                mu = play_matchup(t, a.strat, opp, lineups, seed, played, count)
                a.won.append(mu.won)
                a.margin.append(mu.margin)
                a.fair = mu.fair
            played += count
            if adaptive and len(alive) > 1:
                lead = max(alive, key=lambda a: a.cat("won").mean())
                lw = lead.cat("won")
                for a in alive:
                    if a is lead:
                        continue
                    d = paired_diff(lw, a.cat("won"), z_elim)  # a − lead
                    if d.high < 0:
                        a.alive = False
                        a.eliminated_at = played
                history.append({"deals": played, "alive": sum(a.alive for a in arms)})
                if sum(a.alive for a in arms) == 1:
                    break
        best = max((a for a in arms if a.alive), key=lambda a: a.cat("won").mean())
        # Fresh game indices (the sweep used [0, games)): independent of the selection.
        check = play_matchup(t, best.strat, opp, lineups, seed, games, confirm) if confirm else None
    finally:
        bar.close()
    elapsed = time.perf_counter() - t0
    names = [n for n, _ in sweep]
    rows = []
    for a in arms:
        w = a.cat("won")
        est = unit_mean(w)
        mg = mean_ci(a.cat("margin"))
        row = {n: v for n, v in zip(names, a.values)}
        row.update({"spec": a.strat.spec, **est_cols("win_rate", est), "fair_share": a.fair,
                    **est_cols("margin", mg), "deals": w.size, "games": w.size * len(lineups)})
        if adaptive:
            row["eliminated_at"] = a.eliminated_at
        rows.append(row)
    tab = pd.DataFrame(rows)
    # Best and runner-up: compare on the deals both played (the same game indices).
    contenders = [a for a in arms if a.alive] if adaptive else arms
    order = sorted(contenders, key=lambda a: -a.cat("won").mean())
    if len(order) > 1:
        runner = order[1]
    else:
        runner = max((a for a in arms if a is not best), key=lambda a: (a.eliminated_at or 0, a.cat("won").mean()))
    n_common = min(best.cat("won").size, runner.cat("won").size)
    d = paired_diff(runner.cat("won")[:n_common], best.cat("won")[:n_common])
    fmt_vals = lambda a: ", ".join(f"{n}={_num(v)}" for n, v in zip(names, a.values))
    summary = {"best": dict(zip(names, best.values)), "best_spec": best.strat.spec,
               "runner_up": dict(zip(names, runner.values)), "best_minus_runner_up": d.as_dict(),
               "significant": significant(d)}
    notes = [f"Best in the sweep: {fmt_vals(best)} wins {fmt_est(*_e(unit_mean(best.cat('won'))), 'pct')} "
             f"(fair share {best.fair:.1%}) against {opp.spec} — an estimate biased upward by picking the "
             f"best of {len(arms)}; runner-up {fmt_vals(runner)}: "
             f"difference {fmt_est(d.value, d.low, d.high, 'pct')} on {n_common:,} common deals — "
             + ("significant." if significant(d) else "not significant: more games are needed to separate them.")]
    adj = selection_adjusted(best.cat("won"), len(arms), looks)
    summary["best_selection_adjusted"] = adj.as_dict()
    verdict = adj
    if check is not None:
        verdict = unit_mean(check.won)
        summary["best_confirmed"] = verdict.as_dict()
        summary["best_confirmed_margin"] = mean_ci(check.margin).as_dict()
        summary["confirm_games"] = [games, games + confirm]
        how = (f"Replayed on {confirm:,} fresh deals (game indices {games:,} to {games + confirm - 1:,}, "
               f"unused by the sweep): {fmt_vals(best)} wins {fmt_est(*_e(verdict), 'pct')}")
    else:
        how = (f"Selection-adjusted (Bonferroni over {len(arms)} values"
               + (f" × {looks} looks" if looks > 1 else "") + f"): {fmt_vals(best)} wins {fmt_est(*_e(adj), 'pct')}")
    better = bool(verdict.low > best.fair)
    summary["better_than_reference"] = better
    summary["reference"] = opp.spec
    notes.append(how + (f", above the fair share {best.fair:.1%}: better than the reference ({opp.spec})."
                        if better else f" against a fair share of {best.fair:.1%}: no value is better than the "
                        f"reference ({opp.spec})."))
    same = _identical_arms(arms, names)
    summary["warnings"] = limits + same
    notes.extend(limits + same)
    used = int(tab["games"].sum())
    if adaptive:
        n_final = max(a.cat("won").size for a in arms)
        flat = len(arms) * n_final * len(lineups)
        summary.update({"games_used": used, "flat_games": flat, "saving": 1 - used / flat})
        notes.append(f"Adaptive racing used {used:,} games; a flat grid giving all {len(arms)} values the "
                     f"{n_final:,} deals (× {len(lineups)} seat rotations) the race needed for its final decision "
                     f"would play {flat:,} games: {1 - used / flat:.0%} fewer "
                     f"({flat / used:.1f}× less work). Eliminations use z = {z_elim:.2f} "
                     f"(Bonferroni over values and looks), stricter than a single flat test.")
        summary["history"] = history
    meta = _meta("tune", t, seed, variant=t.variant, rules=t.rules.options(), family=base.family.name,
                 base=base.spec, params={n: v for n, v in sweep}, against=opp.spec,
                 lineups=[list(lu) for lu in lineups], games=games, adaptive=adaptive,
                 batch=batch if adaptive else None, alpha=alpha, confirm=confirm, games_played=t.games_played,
                 elapsed_seconds=round(elapsed, 3))
    title = f"{t.gdef.title} ({t.variant}, {t.players} players): tuning {base.family.name} " + \
            " × ".join(names) + f" against {opp.spec}"
    return StudyResult("tune", title, {"tune": tab}, summary, notes, meta)


def selection_adjusted(won: np.ndarray, arms: int, looks: int = 1) -> Estimate:
    """The win rate of the value picked as best among ``arms`` values (after ``looks`` looks),
    with a Bonferroni interval over all of them: it holds whichever value the data made best,
    where the plain 95% interval of the winner is too high more often than 5%."""
    return unit_mean(won, z_for(0.05, arms * looks))


def _identical_arms(arms: list[_Arm], names: list[str]) -> list[str]:
    """Values that played every common deal identically (same wins and margins): the rules or the
    strategy make them one setting (e.g. a call threshold above the rules' call limit)."""
    groups: dict[bytes, list[_Arm]] = {}
    for a in arms:
        n = min(x.cat("won").size for x in arms)
        key = a.cat("won")[:n].tobytes() + a.cat("margin")[:n].tobytes()
        groups.setdefault(key, []).append(a)
    out = []
    for g in groups.values():
        if len(g) > 1:
            vals = "; ".join(", ".join(f"{n}={_num(v)}" for n, v in zip(names, a.values)) for a in g)
            out.append(f"Warning: {vals} played every common deal identically: under these rules they are "
                       f"the same setting.")
    return out


def _e(est: Estimate):
    return est.value, est.low, est.high


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


# ----- tournament ---------------------------------------------------------------------------------
def tournament(game: str, strategies: list[str] | str, *, variant: str | None = None, players: int | None = None,
               games: int = 1000, seed: int = 0, rules: dict[str, Any] | None = None, threads: int | None = None,
               progress: bool = False) -> StudyResult:
    """Round robin: every pair of strategies head to head (alternating sides, every rotation,
    same deals for every pair), a win-rate matrix with 95% intervals and Bradley–Terry ratings
    (Elo scale, mean 0) with 95% intervals."""
    t = Table(game, variant, players, rules)
    seed = _seed(seed)
    games = _whole(games, "games")
    set_threads(threads)
    if isinstance(strategies, str):
        strategies = [s.strip() for s in _split_specs(strategies)]
    strats = [t.strategy(s) for s in strategies]
    specs = [s.spec for s in strats]
    if len(strats) < 2:
        raise SimcardsError("a tournament needs at least two strategies, e.g. --strategies random,threshold")
    if len(set(specs)) != len(specs):
        raise SimcardsError(f"--strategies lists the same strategy twice: {', '.join(specs)}")
    k = len(strats)
    lineups = pair_lineups(t.k)
    bar = _progress(k * (k - 1) // 2 * games * len(lineups), f"tournament {t.game}", progress)
    t.progress = bar
    wins = np.zeros((k, k))
    pairs = []
    t0 = time.perf_counter()
    try:
        for i, j in itertools.combinations(range(k), 2):
            mu = play_matchup(t, strats[i], strats[j], lineups, seed, 0, games)
            wins[i, j] += mu.wins0
            wins[j, i] += mu.wins1
            est = unit_mean(mu.won)
            mg = mean_ci(mu.margin)
            p = p_value(lambda z, x=mu.won, f=mu.fair: shifted(unit_mean(x, z), f))
            pairs.append({"strategy": specs[i], "opponent": specs[j], **est_cols("win_rate", est),
                          "p": p, **est_cols("margin", mg),
                          "games": games * len(lineups), "undecided": mu.undecided})
            back = unit_mean(mu.lost)
            p = p_value(lambda z, x=mu.lost, f=mu.fair: shifted(unit_mean(x, z), f))
            pairs.append({"strategy": specs[j], "opponent": specs[i], **est_cols("win_rate", back),
                          "p": p, **est_cols("margin", Estimate(-mg.value, -mg.high, -mg.low, mg.n)),
                          "games": games * len(lineups), "undecided": mu.undecided})
    finally:
        bar.close()
    elapsed = time.perf_counter() - t0
    pair_df = pd.DataFrame(pairs)
    # A pair's row is significant when its win rate differs from the fair share under Holm's
    # control over all the rows (each pair appears twice, once per side).
    pair_df.insert(pair_df.columns.get_loc("p") + 1, "significant", holm(pair_df["p"].tolist()))
    ratings = bradley_terry(wins, specs)
    overall = wins.sum(axis=1) / np.maximum(wins.sum(axis=1) + wins.sum(axis=0), 1)
    rat = pd.DataFrame({"strategy": specs, "rating": ratings.rating, "rating_low": ratings.rating - Z95 * ratings.se,
                        "rating_high": ratings.rating + Z95 * ratings.se, "wins": wins.sum(axis=1).astype(int),
                        "losses": wins.sum(axis=0).astype(int), "win_share": overall})
    rat = rat.sort_values("rating", ascending=False, ignore_index=True)
    matrix = pd.DataFrame(index=specs, columns=specs, dtype=object)
    for r in pair_df.itertuples():
        matrix.loc[r.strategy, r.opponent] = fmt_est(r.win_rate, r.win_rate_low, r.win_rate_high, "pct")
    matrix = matrix.fillna("-")
    matrix.index.name = "row beats column"
    anchor = "" if len(ratings.anchor) == k else (
        f" over {', '.join(ratings.anchor)}; {', '.join(x for x in specs if x not in ratings.anchor)} never won "
        "(or never lost) a game: its rating is bounded on one side only, shown with a small prior "
        "(half a win each way per pair), and kept out of the others' intervals")
    notes = [f"Ratings are Bradley–Terry strengths on the Elo scale (mean 0{anchor}): a "
             f"{rat.iloc[0]['rating'] - rat.iloc[-1]['rating']:.0f}-point gap "
             f"between {rat.iloc[0]['strategy']} and {rat.iloc[-1]['strategy']} means the first wins "
             f"{1 / (1 + 10 ** (-(rat.iloc[0]['rating'] - rat.iloc[-1]['rating']) / 400)):.0%} of head-to-head games.",
             f"A pair is significant when its win rate differs from the fair share under {HOLM} over the "
             f"{len(pair_df)} rows of the pairs table."]
    meta = _meta("tournament", t, seed, variant=t.variant, rules=t.rules.options(), strategies=specs,
                 lineups=[list(lu) for lu in lineups], games=games, games_played=t.games_played,
                 rating_anchor=list(ratings.anchor), elapsed_seconds=round(elapsed, 3))
    return StudyResult("tournament", f"{t.gdef.title} ({t.variant}, {t.players} players): round robin of {k} strategies",
                       {"ratings": rat, "matrix": matrix.reset_index(), "pairs": pair_df},
                       {"ratings": dict(zip(rat["strategy"], rat["rating"]))}, notes, meta)


def _split_specs(text: str) -> list[str]:
    """Split ``a,b:x=1,y=2,c`` on the commas that start a new strategy (not inside parameters)."""
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if out and "=" in part and ":" not in part.split("=")[0] and not part.endswith(".toml"):
            out[-1] += "," + part
        elif part:
            out.append(part)
    return out
