"""``compare``: variants of one game side by side (speed, fairness, outcomes, skill) with paired
differences on common deals."""


from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.games import get_game
from simcards.games.analysis import FAIR_SCALE
from simcards.play import chunks, set_threads
from simcards.stats.differences import HOLM, holm, p_value, shifted, significant, z_for
from simcards.stats.equilibrium import games_to_be_sure, match_win_many, win_variance_shares
from simcards.stats.estimates import Z95, Estimate
from simcards.stats.moments import Moments
from simcards.strategy import Strategy
from simcards.studies.common import (
    Arena,
    Matchup,
    StudyResult,
    block_size,
    fmt_est,
    pair_lineups,
    play_matchup,
    plays_identically,
    preset_name,
    study_meta,
    study_progress,
    study_seed,
    whole_count,
)


@dataclass
class _Variant:
    name: str
    arena: Arena
    seats: list[Strategy]
    deck: tuple
    strong: str = ""  # the skill matchup: strong against weak, seat-rotated over ``lineups``
    weak: str = ""
    lineups: list[tuple[int, ...]] = field(default_factory=list)
    seconds: float = 0.0
    fair: float = math.nan  # the strong strategy's fair win share over the skill lineups
    # skill versus luck: sums over the skill lineups per deal group (deal index mod BOOT_GROUPS):
    # deals, strong wins, weak wins, then wins per side; and the bootstrap replicates built from them
    groups: np.ndarray | None = None
    boot: dict[str, np.ndarray] = field(default_factory=dict)
    point: dict[str, float] = field(default_factory=dict)

    def col(self, what: str) -> str:
        return f"{self.name}.{what}"


def _variant_columns(v: _Variant, df: pd.DataFrame, sk: Matchup | None, scale: int = 1,
                     detail: pd.DataFrame | None = None) -> dict[str, np.ndarray]:
    """One block of a variant's self-play games (and skill matchups) as whole-number columns."""
    t, m = v.arena, v.arena.m
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
        # the match score: a win 2, a game nobody won (capped) 1, on the scale 2·scale
        assert sk.seat_won is not None  # play_matchup fills it
        undecided = len(v.lineups) - sk.seat_won.sum(axis=1)
        cols[v.col("score")] = (2 * sk.won_lineups + undecided) * (scale // len(v.lineups))
    return cols


# ----- skill versus luck -------------------------------------------------------------------------
MATCH_GAMES = (1, 5, 10, 25)  # match lengths whose win probability a compare shows
BOOT_GROUPS = 200  # deal groups the bootstrap resamples (bounded memory whatever the games)
BOOT_REPS = 2000
SHARE_PARTS = (("skill", "players"), ("seat", "seats"), ("luck", "luck"))


def _add_groups(v: _Variant, sk: Matchup, first: int, count: int) -> None:
    """Add one block's skill games to its deal groups: a deal's group is its index mod
    ``BOOT_GROUPS``, so the groups (and the bootstrap) do not depend on blocks or threads."""
    assert sk.seat_won is not None
    k = sk.seat_won.shape[1]
    if v.groups is None:
        v.groups = np.zeros((BOOT_GROUPS, 3 + k), np.int64)
    decided = sk.seat_won.sum(axis=1)
    rows = np.column_stack([np.ones(count, np.int64), sk.won_lineups, decided - sk.won_lineups, sk.seat_won])
    np.add.at(v.groups, (first + np.arange(count)) % BOOT_GROUPS, rows)


def _strong_seats(v: _Variant) -> int:
    return sum(side == 0 for lu in v.lineups for side in lu)


def _skill_stats(v: _Variant, sums: np.ndarray) -> dict[str, np.ndarray]:
    """Skill-versus-luck statistics from deal-group sums (last axis as ``_Variant.groups``): the
    variance shares of the per-seat results and the chance to win a match of each length."""
    deals, strong, weak, seats = sums[..., 0], sums[..., 1], sums[..., 2], sums[..., 3:]
    games = deals * len(v.lineups)
    out = {name: val for name, val in win_variance_shares(
        deals, strong, weak, seats, len(v.lineups), _strong_seats(v)).items() if name.endswith("_share")}
    with np.errstate(divide="ignore", invalid="ignore"):
        score = (strong + (games - strong - weak) / 2) / games  # a game nobody won counts ½
    for n in MATCH_GAMES:
        out[f"match_win_{n}"] = match_win_many(score, n)
    return out


def _bootstrap(runs: list[_Variant], done: int, seed: int) -> None:
    """Percentile-bootstrap replicates of every variant's skill statistics, resampling the deal
    groups with the same draws for every variant (so that differences stay paired)."""
    used = min(done, BOOT_GROUPS)
    rng = np.random.default_rng([seed, 18])
    weights = rng.multinomial(used, np.full(used, 1 / used), size=BOOT_REPS)
    for v in runs:
        if v.groups is None:
            continue
        g = v.groups[:used].astype(np.float64)
        v.point = {name: float(x) for name, x in _skill_stats(v, g.sum(axis=0)).items()}
        v.boot = _skill_stats(v, weights @ g)


def _deals(v: _Variant) -> int:
    return int(v.groups[:, 0].sum()) if v.groups is not None else 0


def _percentile(v: _Variant, name: str) -> Estimate:
    lo, hi = np.quantile(v.boot[name], [0.025, 0.975])
    return Estimate(v.point[name], float(min(lo, v.point[name])), float(max(hi, v.point[name])), _deals(v))


def _games_needed(p: Estimate) -> Estimate:
    """``games_to_be_sure`` of a per-game win probability and its interval (the function falls as
    p rises: the ends of p's interval map to the other ends); inf when the stronger player is not
    better (p ≤ ½) or would need more than 100,001 games."""
    g = lambda q: math.inf if math.isnan(q) else (games_to_be_sure(q) or math.inf)  # noqa: E731
    return Estimate(g(p.value), g(p.high), g(p.low), p.n)


def games_text(value: float, low: float, high: float) -> str:
    """A number of games with its interval; ∞ where the stronger player is no better (or needs
    more than 100,001 games)."""
    f = lambda x: "∞" if not math.isfinite(x) else f"{int(x):,}"  # noqa: E731
    return f"{f(value)} [{f(low)}, {f(high)}]" if not math.isnan(low) else f(value)


def _skill_luck_rows(v: _Variant, mo: Moments, scale: int, add) -> None:
    """How often the stronger wins a match of each length, the games a match needs before it
    wins with 95%, and the variance shares of the per-seat results (players, seats, luck)."""
    p = mo.fraction_mean(v.col("score"), 2 * scale)
    mapped = "p's 95% interval through the (increasing) match-win function"
    for n in MATCH_GAMES:
        lo, val, hi = (float(match_win_many(q, n)) for q in (p.low, p.value, p.high))
        add("skill", f"match_win_{n}", f"stronger wins a {n}-game match", Estimate(val, lo, hi, p.n), "pct",
            method=mapped)
    add("skill", "games_to_be_sure", "games to win a match 95% sure", _games_needed(p), "games",
        method="p's 95% interval through games_to_be_sure (decreasing)")
    for part, who in SHARE_PARTS:
        add("skill", f"{part}_share", f"variance share: {who}", _percentile(v, f"{part}_share"), "pct",
            method=f"percentile bootstrap over {BOOT_GROUPS} deal groups")


def _rate_rows(v: _Variant, mo: Moments, scale: int) -> list[dict]:
    """Speed, fairness, outcome and skill estimates of one variant."""
    t, m, k, c = v.arena, v.arena.m, v.arena.k, v.col
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
        _skill_luck_rows(v, mo, scale, add)
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


def _diff_rows(base: _Variant, other: _Variant, mo: Moments, scale: int) -> list[dict]:
    """Differences other − base for every metric, paired on the same deals when the decks match,
    each with its 95% interval and the p-value inverted from its family of intervals (for Holm's
    control over all the differences of a study: ``_holm_flags``)."""
    m = base.arena.m
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
    fair_shift = 1 / other.arena.k - 1 / base.arena.k
    add("starter_edge", f"{other.arena.m.starter_label}'s edge",
        lambda z: shifted(mo.bounded_diff(b("starter_won"), o("starter_won"), 1, paired, z), fair_shift), "pct")
    if base.lineups and other.lineups:
        add("skill_win_rate", "stronger strategy's win rate",
            lambda z: mo.bounded_diff(b("skill"), o("skill"), scale, paired, z), "pct")
        for name, label in [("skill_share", "variance share: players")] + [
                (f"match_win_{n}", f"stronger wins a {n}-game match") for n in MATCH_GAMES if n > 1]:
            add(name, label, lambda z, name=name: _boot_diff(base, other, name, z), "pct")
    for oc in m.outcomes:
        nb, db, no, do = b(f"{oc.name}:n"), b(f"{oc.name}:d"), o(f"{oc.name}:n"), o(f"{oc.name}:d")
        add(oc.name, oc.label, lambda z, nb=nb, db=db, no=no, do=do: mo.share_diff(nb, db, no, do, paired, z), "pct")
    return rows


def _boot_diff(base: _Variant, other: _Variant, name: str, z: float) -> Estimate:
    """other − base of a skill statistic: the normal interval with the standard error of the paired
    bootstrap (both variants' deal groups drawn alike), so that ``p_value`` can invert it."""
    d = other.point[name] - base.point[name]
    se = float(np.std(other.boot[name] - base.boot[name], ddof=1))
    return Estimate(d, d - z * se, d + z * se, _deals(other))


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
    units = runs[0].arena.m.units
    rows = [{"variant": v.name, units: u, "games": c, "share": c / sum(counts[v.name].values())}
            for v in runs for u, c in sorted(counts[v.name].items())]
    return pd.DataFrame(rows, columns=["variant", units, "games", "share"])


def _count_lengths(into: dict[int, int], units: np.ndarray) -> None:
    values, counts = np.unique(units, return_counts=True)
    for u, c in zip(values.tolist(), counts.tolist()):
        into[u] = into.get(u, 0) + c


def _game_rows(v: _Variant, df: pd.DataFrame) -> pd.DataFrame:
    m = v.arena.m
    gr = pd.DataFrame({"variant": v.name, "game": df["game"].to_numpy(), m.units: df[m.units].to_numpy()})
    if m.turns is not None:
        gr["turns"] = df[m.turns].to_numpy()
    gr["winner_side"] = m.winner_side(df, v.arena.players)
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
    games = whole_count(games, "games")
    seed = study_seed(seed)
    set_threads(threads)
    strong = strong or gdef.default_strategy
    if isinstance(strategies, str):
        strategies = [strategies]
    arenas = [Arena(game, v, players, rules) for v in names]
    default_weak = arenas[0].m.weak
    identical: dict[str, list[str]] = {}
    if skill:
        weak, identical = _weaker_side(arenas, names, strong, weak, seed, games)
    weak = weak or default_weak
    runs = [_Variant(n, t, t.gdef.strategies(strategies, t.players), t.m.deck_key(t.rules), strong, weak,
                     pair_lineups(t.k) if skill else []) for n, t in zip(names, arenas)]
    scale = math.lcm(*(len(v.lineups) for v in runs)) if skill else 1
    strong_s, weak_s = arenas[0].strategy(strong), arenas[0].strategy(weak)
    families = arenas[0].gdef.families()
    strong_name, weak_name = preset_name(strong, strong_s, families), preset_name(weak, weak_s, families)
    bar = study_progress(sum(games * (1 + len(v.lineups)) for v in runs), f"compare {arenas[0].game}", progress)
    mo: Moments | None = None
    game_rows: dict[str, list[pd.DataFrame]] = {v.name: [] for v in runs}
    lengths: dict[str, dict[int, int]] = {v.name: {} for v in runs}
    done = 0
    interrupted = False
    try:
        for block in chunks(games, block_size()):
            cols: dict[str, np.ndarray] = {}
            matchups: list[tuple[_Variant, Matchup]] = []
            for v in runs:
                v.arena.progress = bar
                t0 = time.perf_counter()
                res = v.arena.play(v.seats, seed, block.first, block.count, detail=v.arena.m.unit_starter is not None)
                df, det = res if isinstance(res, tuple) else (res, None)
                sk = play_matchup(v.arena, strong_s, weak_s, v.lineups, seed, block.first, block.count) if skill else None
                v.seconds += time.perf_counter() - t0
                if sk is not None:
                    v.fair = sk.fair
                    matchups.append((v, sk))
                cols.update(_variant_columns(v, df, sk, scale, det))
                _count_lengths(lengths[v.name], df[v.arena.m.units].to_numpy())
                if not summary_only:
                    game_rows[v.name].append(_game_rows(v, df))
            mo = Moments.of(cols) + mo
            for v, sk in matchups:  # once the block is complete (an interrupted one counts nowhere)
                _add_groups(v, sk, block.first, block.count)
            done += block.count
    except KeyboardInterrupt:
        if mo is None:
            raise
        interrupted = True
    finally:
        bar.close()
    assert mo is not None  # the first block finished (else the KeyboardInterrupt was re-raised)
    if skill:
        _bootstrap(runs, done, seed)
    long = pd.DataFrame([r for v in runs for r in _rate_rows(v, mo, scale)])
    if "significant" not in long:
        long["significant"] = np.nan
    diffs = _holm_flags(pd.DataFrame([r for v in runs[1:] for r in _diff_rows(runs[0], v, mo, scale)]))
    wide = _wide(long, names)
    first_arena = arenas[0]
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
    if skill:
        notes.extend(identical_notes(strong_name, weak_name, identical, min(games, IDENTICAL_DEALS)))
    meta = study_meta("compare", first_arena, seed, variants=names, games=games,
                 strategies=[s.spec for s in runs[0].seats],
                 skill={"strong": strong_name, "weak": weak_name, "default_weak": default_weak,
                        "identical": identical, "identical_deals": min(games, IDENTICAL_DEALS),
                        "lineups": _lineups_meta(runs), "groups": BOOT_GROUPS, "resamples": BOOT_REPS}
                 if skill else None,
                 rules={n: t.rules.as_dict() for n, t in zip(names, arenas)},
                 timings_seconds={v.name: round(v.seconds, 3) for v in runs},
                 games_played=sum(t.games_played for t in arenas), summary_only=summary_only,
                 games_completed=done, interrupted=interrupted)
    out_tables = {"compare": wide, "estimates": long, "differences": diffs, "lengths": _lengths_table(runs, lengths)}
    if not summary_only:
        out_tables["games"] = pd.concat([df for v in runs for df in game_rows[v.name]], ignore_index=True)
    counts = {t.players for t in arenas}
    title = (f"{first_arena.gdef.title}: {', '.join(names)} ({first_arena.players} players)" if len(counts) == 1 else
             f"{first_arena.gdef.title}: {', '.join(f'{n} ({t.players}p)' for n, t in zip(names, arenas))}")
    return StudyResult("compare", title,
                       out_tables, {"variants": names}, notes, meta)


IDENTICAL_DEALS = 24  # deals on which compare checks that the weaker side plays differently from the stronger


def _weaker_side(arenas: list[Arena], names: list[str], strong: str, weak: str | None, seed: int,
                 games: int) -> tuple[str, dict[str, list[str]]]:
    """The weaker side of the skill matchup and, per side tried, the variants where it plays exactly
    like the stronger one (``plays_identically`` on the first ``IDENTICAL_DEALS`` deals: then its
    skill row is 50% by construction and measures nothing).

    The rule: a weaker side the user gave is kept (and said). The default — the game's
    ``GameMetrics.weak``, a weaker setting of the default strategy — is used when it differs from the
    stronger side in every variant of the study; else ``random`` is used for every variant (one
    weaker side for the whole study, so that the skill rows stay comparable across variants)."""
    tried = [weak] if weak else list(dict.fromkeys([arenas[0].m.weak, "random"]))
    n = min(games, IDENTICAL_DEALS)
    strong_s = arenas[0].strategy(strong)
    identical: dict[str, list[str]] = {}
    for cand in tried:
        weak_s = arenas[0].strategy(cand)
        same = [name for name, t in zip(names, arenas)
                if plays_identically(t, strong_s, weak_s, pair_lineups(t.k)[0], seed, n)]
        if same:
            identical[cand] = same
        if not same or cand == tried[-1]:
            return cand, identical
    raise AssertionError("unreachable")


def identical_notes(strong: str, weak: str, identical: dict[str, list[str]], deals: int) -> list[str]:
    """In words: which weaker side plays exactly like the stronger one where, and what the study did
    about it (the same sentences in the notes, the command's answer and the report's)."""
    out = []
    for cand, where in identical.items():
        text = (f"{cand} plays exactly like {strong} in {', '.join(where)} (every decision the same on the first "
                f"{deals:,} deals)")
        if cand != weak:
            out.append(text + f", so the skill rows measure {strong} against {weak} in every variant.")
        else:
            out.append(text + ": its skill rows there are 50% by construction, measure nothing and are not ranked; "
                       "give another --weak.")
    return out


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


GROUPS = ("speed", "fairness", "outcomes", "skill")


def _points(metric: str, kind: str) -> str:
    """An edge or a deviation is a win rate minus a fair share: percentage points, not a share."""
    return "pts" if kind == "pct" and metric.endswith(("edge", "_deviation")) else kind


def _wide(long: pd.DataFrame, names: list[str]) -> pd.DataFrame:
    """One row per variant, one text column per metric (value [95% CI]), grouped as ``GROUPS``
    (variants with other tables add their own seat or team columns to their group)."""
    rows = []
    for name in names:
        sub = long[long["variant"] == name]
        row = {"variant": name}
        for r in sub.itertuples():
            row[r.label] = (games_text(r.value, r.low, r.high) if r.format == "games" else
                            fmt_est(r.value, r.low, r.high, _points(r.metric, r.format)))
        rows.append(row)
    first = long.drop_duplicates("label")
    order = sorted(range(len(first)), key=lambda i: (GROUPS.index(first["group"].iloc[i]), i))
    columns = ["variant"] + [first["label"].iloc[i] for i in order]
    return pd.DataFrame(rows, columns=columns).fillna("-")  # "-": the metric does not apply there


# ----- tune -------------------------------------------------------------------------------------
