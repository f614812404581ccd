"""``equilibrium``: the strategy a whole table should play when everyone adapts.

``tune`` answers "what is my best value if everyone else plays the default?" — a best response to a
fixed field. Here every side may choose any strategy of a *population* (a list of specs, or one
family over a range of parameter values). Every distinct profile of the population at the table
(C(k+n−1, n) for n sides and k strategies) is played with seat rotation on common deals; the
estimated payoff table (each strategy's win share in each profile, with intervals) gives a symmetric
Nash mixture (``simcards.stats.equilibrium``), each strategy's regret against it, and their
stability under a bootstrap over deals (each resample solved for its own equilibrium).

Adaptive (default): a first batch of deals for every profile, then further batches only for the
profiles that decide the answer — those the equilibrium's expected payoffs put weight on, in
proportion to that weight times their noise — until the regrets are pinned down or the budget is
spent. The result says how many games that took and how many a flat grid would have.

Memory stays bounded: per profile and strategy, sums over a fixed number of deal blocks.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.stats.equilibrium import SymmetricGame, others_table, symmetric_nash, symmetric_profiles
from simcards.stats.estimates import Z95, Estimate, bounded_mean
from simcards.strategy import Strategy, make_strategy
from simcards.studies.common import Arena, StudyResult, open_study, study_meta, study_progress, whole_count
from simcards.studies.tune import parse_values

BLOCKS = 64  # deals are summed into this many blocks (deal i → block i mod BLOCKS) for the bootstrap
BOOTSTRAP = 400  # resamples: the share of resamples whose equilibrium holds a strategy to ±2.5 points (1 se)
MAX_PROFILES = 5000
NEGLIGIBLE = 10  # a profile whose noise moves no regret by a tenth of the target is not played further


def population(t: Arena, strategies: list[str] | str | None = None, family: str | None = None,
               params: list[str] | dict | None = None) -> list[Strategy]:
    """The strategies of the population: the given specs, or ``family`` at every combination of
    the swept ``params`` (``["call=0..7"]``), each other parameter at its default."""
    if strategies and family:
        raise SimcardsError("give a list of strategies or a family with --param ranges, not both")
    if strategies:
        if isinstance(strategies, str):
            from simcards.strategy import split_specs

            strategies = split_specs(strategies)
        out = [t.strategy(s) for s in strategies]
    elif family:
        base = t.strategy(family)
        items = list(params.items()) if isinstance(params, dict) else [p.partition("=")[::2] for p in params or []]
        if not items or any(not name.strip() for name, _ in items):
            raise SimcardsError("--family needs --param NAME=VALUES (e.g. --param call=0..7)")
        sweep = []
        for name, vals in items:
            base.family.param(name.strip())  # unknown names raise
            sweep.append((name.strip(), parse_values(vals) if isinstance(vals, str) else [float(v) for v in vals]))
        out = []
        for combo in itertools.product(*[vals for _, vals in sweep]):
            values = dict(base.values)
            values.update({name: v for (name, _), v in zip(sweep, combo)})
            out.append(make_strategy(base.family, values))
    else:
        raise SimcardsError("give the population: --strategy A,B,C or --family NAME --param NAME=VALUES")
    specs = [s.spec for s in out]
    if len(set(specs)) != len(specs):
        raise SimcardsError("a strategy is listed twice in the population")
    if len(out) < 2:
        raise SimcardsError("an equilibrium needs at least two strategies")
    return out


def profile_lineups(counts: np.ndarray) -> list[tuple[int, ...]]:
    """Seatings of a profile: its strategies in order round the table, and every distinct cyclic
    shift of that, so each strategy of the profile holds every side equally often."""
    base = tuple(int(i) for i, c in enumerate(counts) for _ in range(int(c)))
    out: list[tuple[int, ...]] = []
    for r in range(len(base)):
        lu = base[r:] + base[:r]
        if lu not in out:
            out.append(lu)
    return out


@dataclass
class PayoffSums:
    """Per profile and strategy: block sums of the per-deal win share, their squares' totals and
    the deals played (bounded memory: ``BLOCKS`` sums, whatever the number of deals)."""

    blocks: np.ndarray  # (profiles, strategies, BLOCKS) Σ payoff over the deals of each block
    block_n: np.ndarray  # (profiles, BLOCKS) deals per block
    sq: np.ndarray  # (profiles, strategies) Σ payoff²
    deals: np.ndarray  # (profiles,)
    length: np.ndarray  # (profiles, 2 measures, 2) per deal, averaged over seatings: Σ x and Σ x² (units, turns)

    @classmethod
    def empty(cls, profiles: int, k: int) -> PayoffSums:
        return cls(np.zeros((profiles, k, BLOCKS)), np.zeros((profiles, BLOCKS)), np.zeros((profiles, k)),
                   np.zeros(profiles, np.int64), np.zeros((profiles, 2, 2)))

    def add(self, p: int, first: int, pay: np.ndarray, length: np.ndarray | None = None) -> None:
        """``pay``: (strategies, deals) per-deal payoffs of profile ``p`` for deals first, first+1, ...;
        ``length``: (2, deals) the deals' units and turns per game (mean over the seatings)."""
        block = (first + np.arange(pay.shape[1])) % BLOCKS
        for i in range(pay.shape[0]):
            self.blocks[p, i] += np.bincount(block, weights=pay[i], minlength=BLOCKS)
        self.block_n[p] += np.bincount(block, minlength=BLOCKS)
        self.sq[p] += (pay ** 2).sum(axis=1)
        self.deals[p] += pay.shape[1]
        if length is not None:
            self.length[p, :, 0] += length.sum(axis=1)
            self.length[p, :, 1] += (length ** 2).sum(axis=1)

    def means(self, weights: np.ndarray | None = None) -> np.ndarray:
        """(profiles, strategies) mean payoffs; ``weights`` (BLOCKS,) resamples the blocks."""
        w = np.ones(BLOCKS) if weights is None else weights
        n = (self.block_n * w).sum(axis=1)
        return (self.blocks * w).sum(axis=2) / np.maximum(n, 1)[:, None]

    def intervals(self, present: np.ndarray, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
        """(profiles, strategies) 95% intervals of the mean payoffs: normal over deals, widened to
        the exact binomial interval of the total (``stats.bounded_mean``, as every other win rate)
        where fewer than ``RARE`` deals' worth fall on the rarer side (a strategy that almost
        never, or almost always, wins in that profile). ``present``: (profiles, strategies), the
        cells to compute (the strategies of each profile)."""
        means, se = self.means(), self.std_errors()
        totals = self.blocks.sum(axis=2)
        low, high = means - z * se, means + z * se
        for p, i in zip(*np.nonzero(present & (self.deals[:, None] > 0))):
            n = int(self.deals[p])
            e = bounded_mean(Estimate(means[p, i], low[p, i], high[p, i], n), float(totals[p, i]), n, z)
            low[p, i], high[p, i] = e.low, e.high
        return low, high

    def std_errors(self) -> np.ndarray:
        n = np.maximum(self.deals, 1)[:, None]
        mean = self.blocks.sum(axis=2) / n
        var = np.maximum(self.sq / n - mean ** 2, 0.0) * n / np.maximum(n - 1, 1)
        return np.sqrt(var / n)


def _play_profile(t: Arena, strats: list[Strategy], counts: np.ndarray, seed: int, first: int,
                  count: int) -> tuple[np.ndarray, np.ndarray]:
    """(strategies, deals): each strategy's win share per deal in this profile — the share of its
    sides' seatings that won, averaged over the profile's seatings (0 for strategies not in it);
    and (2, deals): the games' length per deal (units, turns; 0 when the game counts no turns),
    averaged over the seatings."""
    k = len(strats)
    pay = np.zeros((k, count))
    length = np.zeros((2, count))
    lineups = profile_lineups(counts)
    for lu in lineups:
        df = t.play(t.lineup_strats(lu, strats), seed, first, count)
        winner = t.m.winner_side(df, t.players)
        for side, i in enumerate(lu):
            pay[i] += (winner == side)
        length[0] += df[t.m.units].to_numpy(np.float64)
        if t.m.turns is not None:
            length[1] += df[t.m.turns].to_numpy(np.float64)
    present = counts > 0
    pay[present] /= (len(lineups) * counts[present])[:, None]
    return pay, length / len(lineups)


def _importance(game: SymmetricGame, x: np.ndarray, se: np.ndarray) -> np.ndarray:
    """How much each profile's noise moves the regrets at ``x``: the weight the expected payoffs
    u_i(x) put on the profile (for every strategy i, the support's and the deviators' alike) times
    its standard errors."""
    others, coef, rows = others_table(game.k, game.n)
    weight = coef * np.prod(x[None, :] ** others, axis=1)
    out = np.zeros(len(game.profiles))
    for i in range(game.k):
        np.add.at(out, rows[:, i], weight * se[rows[:, i], i])
    return out


def equilibrium(game: str, strategies: list[str] | str | None = None, *, family: str | None = None,
                params: list[str] | dict | None = None, variant: str | None = None, players: int | None = None,
                games: int = 2000, seed: int = 0, rules: dict[str, Any] | None = None, adaptive: bool = True,
                batch: int | None = None, target: float = 0.005, bootstrap: int = BOOTSTRAP,
                threads: int | None = None, progress: bool = False) -> StudyResult:
    """A symmetric Nash equilibrium of a population of strategies at the table.

    ``games``: deals per profile (the most any profile gets when ``adaptive``); every profile is
    played on the same deal indices, in every distinct seat rotation. ``adaptive``: a first
    ``batch`` of deals for every profile (default games/8, at least 50), then batches for the
    profiles that matter most to the regrets at the current mixture, until the largest regret
    interval is narrower than ``target`` (in win share) or no profile has deals left.
    ``bootstrap``: resamples of the deal blocks that give the intervals of the mixture and the
    regrets (each resample's own equilibrium and the regrets against it) and the share of resamples
    whose equilibrium plays each strategy."""
    t0 = time.perf_counter()
    t, seed, games, _ = open_study(game, variant, players, rules, seed, games, threads)
    bootstrap = whole_count(bootstrap, "bootstrap", 0, 10_000)
    strats = population(t, strategies, family, params)
    k, n = len(strats), t.k
    profiles = symmetric_profiles(k, n)
    if len(profiles) > MAX_PROFILES:
        raise SimcardsError(f"{k} strategies at {n} sides make {len(profiles):,} profiles; at most "
                            f"{MAX_PROFILES:,} (use fewer strategies)")
    lineups = [len(profile_lineups(c)) for c in profiles]
    batch = whole_count(batch if batch is not None else min(games, max(50, games // 8)), "batch", 1, games) if adaptive \
        else games
    sums = PayoffSums.empty(len(profiles), k)
    flat_games = games * sum(lineups)
    bar = study_progress(flat_games, "equilibrium", progress)
    try:
        for p, counts in enumerate(profiles):
            sums.add(p, 0, *_play_profile(t, strats, counts, seed, 0, batch))
            bar.advance(batch * lineups[p])
        while adaptive:
            chosen = _next_profiles(n, profiles, sums, games, target)
            if not chosen:
                break
            for p in chosen:
                c = int(min(batch, games - sums.deals[p]))
                sums.add(p, int(sums.deals[p]), *_play_profile(t, strats, profiles[p], seed, int(sums.deals[p]), c))
                bar.advance(c * lineups[p])
    finally:
        bar.close()
    return _result(t, strats, profiles, sums, lineups, seed, games, adaptive, bootstrap, flat_games,
                   time.perf_counter() - t0)


def _next_profiles(n: int, profiles: np.ndarray, sums: PayoffSums, games: int, target: float) -> list[int]:
    """The profiles the next adaptive step plays: of those with deals left, up to a quarter, the
    ones whose noise moves the regrets at the current mixture most — and only those that move them
    by more than ``target`` / ``NEGLIGIBLE`` (a profile the mixture puts no weight on gains nothing
    from more deals). Empty: the regrets are pinned down, or no profile left matters."""
    game = _game(n, profiles, sums.means())
    eq = symmetric_nash(game)
    se = sums.std_errors()
    if _regret_half_width(game, eq.mixture, se) <= target:
        return []
    score = np.where(sums.deals < games, _importance(game, eq.mixture, se), 0.0)
    top = np.argsort(-score, kind="stable")[:max(1, len(profiles) // 4)]
    return [int(p) for p in top if score[p] * Z95 > target / NEGLIGIBLE]


def _game(n: int, profiles: np.ndarray, means: np.ndarray) -> SymmetricGame:
    table = np.where(profiles > 0, means, np.nan)
    return SymmetricGame(n, profiles, table)


def _regret_half_width(game: SymmetricGame, x: np.ndarray, se: np.ndarray) -> float:
    """A normal 95% half-width of the regrets at ``x`` from the profiles' standard errors (the
    profiles are played on the same deals, but their noise adds up to at most this when
    correlations are positive; the reported intervals come from the bootstrap)."""
    others, coef, rows = others_table(game.k, game.n)
    weight = coef * np.prod(x[None, :] ** others, axis=1)
    var_u = np.array([(weight ** 2 * se[rows[:, i], i] ** 2).sum() for i in range(game.k)])
    var_mix = float((x ** 2 * var_u).sum())
    return float(Z95 * np.sqrt(var_u + var_mix).max())


def _invasion_table(names: list[str], profiles: np.ndarray, means: np.ndarray, low: np.ndarray,
                    high: np.ndarray, n: int) -> pd.DataFrame:
    """One player of each strategy at a table where every other side plays ``field``: its win share
    (the fair share 1/n on the diagonal, where everyone plays the same)."""
    index = {tuple(c): p for p, c in enumerate(profiles)}
    rows = []
    for i, name in enumerate(names):
        for j, field_name in enumerate(names):
            c = np.zeros(len(names), dtype=np.int64)
            c[i] += 1
            c[j] += n - 1
            p = index[tuple(c)]
            rows.append({"strategy": name, "field": field_name, "win_share": means[p, i],
                         "low": low[p, i], "high": high[p, i]})
    return pd.DataFrame(rows)


def edge_notes(t: Arena, strats: list[Strategy], mixture: np.ndarray) -> list[str]:
    """For a family swept over values: whether the equilibrium's support reaches an end of a swept
    range, and what that end is — the lowest value the family allows, the highest the rules let
    matter (``GameMetrics.param_limits``), or only where the sweep stopped (then extend it)."""
    fams = {s.family.name for s in strats}
    if len(fams) != 1:
        return []
    fam = strats[0].family
    limits = t.m.param_limits(fam.name, t.rules) if t.m.param_limits is not None else {}
    support = [s for s, w in zip(strats, mixture) if w > 1e-3]
    out = []
    for prm in fam.params:
        vals = sorted({float(dict(s.values)[prm.name]) for s in strats})
        if len(vals) < 2:
            continue
        held = {float(dict(s.values)[prm.name]) for s in support}
        top = min(prm.high, limits.get(prm.name, (prm.high, ""))[0])
        for end, bound, word in ((vals[0], prm.low, "lowest"), (vals[-1], top, "highest")):
            if end not in held:
                continue
            if end == bound:
                why = (limits[prm.name][1] if word == "highest" and prm.name in limits
                       else f"the {fam.name} family allows no {'lower' if word == 'lowest' else 'higher'} value")
                out.append(f"The equilibrium plays {prm.name}={end:g}, the {word} value that can be played ({why}): "
                           "the sweep cannot be extended that way.")
            else:
                out.append(f"The equilibrium plays {prm.name}={end:g}, the {word} value of the sweep: extend the sweep "
                           "to see whether it moves further.")
    return out


def _profile_probabilities(profiles: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The chance of each profile when every side draws its strategy from the mixture ``x``."""
    n = int(profiles[0].sum())
    coef = np.array([math.factorial(n) / np.prod([math.factorial(int(c)) for c in row]) for row in profiles])
    return coef * np.prod(np.where(profiles > 0, x[None, :] ** profiles, 1.0), axis=1)


def _length_table(t: Arena, names: list[str], profiles: np.ndarray, sums: PayoffSums,
                  x: np.ndarray) -> pd.DataFrame:
    """How long games last at the equilibrium (every side drawing from the mixture: each profile
    weighted by its chance) and when every side plays one strategy: units (rounds, hands) and turns
    per game with normal 95% intervals over deals (the equilibrium's treats the profiles as
    independent, which the common deals make slightly conservative or liberal; the mixture's own
    uncertainty is not in it)."""
    n = np.maximum(sums.deals, 1)[:, None]
    mean = sums.length[:, :, 0] / n
    var = np.maximum(sums.length[:, :, 1] / n - mean ** 2, 0.0) * n / np.maximum(n - 1, 1)
    se2 = var / n
    rows = []
    prob = _profile_probabilities(profiles, x)
    pure = {int(np.argmax(c)): p for p, c in enumerate(profiles) if c.max() == t.k}
    cases = [("equilibrium mixture", prob)] + [(f"everyone plays {names[i]}", np.eye(len(profiles))[pure[i]])
                                               for i in range(len(names))]
    for label, w in cases:
        m, s = w @ mean, np.sqrt((w ** 2) @ se2)
        row = {"table": label, t.m.units: m[0], f"{t.m.units}_low": m[0] - Z95 * s[0],
               f"{t.m.units}_high": m[0] + Z95 * s[0]}
        if t.m.turns is not None:
            row.update({"turns": m[1], "turns_low": m[1] - Z95 * s[1], "turns_high": m[1] + Z95 * s[1]})
        rows.append(row)
    return pd.DataFrame(rows)


def bootstrap_equilibria(n: int, profiles: np.ndarray, sums: PayoffSums, reps: int,
                         seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``reps`` resamples of the deal blocks (the same blocks for every profile, so the common
    deals' correlation is kept): each resample's own equilibrium mixture and every strategy's
    regret against that equilibrium — arrays (reps, strategies). Regrets against the one estimated
    mixture would miss the truth whenever the estimate picked the wrong side of a near tie (a
    strategy in the estimated support has regret 0 on every resample; issue 28: 68% coverage)."""
    rng = np.random.default_rng(seed)
    k = profiles.shape[1]
    mix, reg = np.empty((reps, k)), np.empty((reps, k))
    for b in range(reps):
        w = rng.multinomial(BLOCKS, np.full(BLOCKS, 1 / BLOCKS)).astype(np.float64)
        eq = symmetric_nash(_game(n, profiles, sums.means(w)), starts=8)
        mix[b], reg[b] = eq.mixture, eq.regrets
    return mix, reg


def equilibrium_rows(names: list[str], eq, mix_b: np.ndarray, reg_b: np.ndarray) -> list[dict]:
    """The equilibrium table's rows: weight and regret with 95% percentile intervals over the
    resamples (each holding the estimate), and the share of resamples whose equilibrium plays the
    strategy (weight above 0.1%)."""
    def interval(col: np.ndarray, point: float) -> tuple[float, float]:
        if not len(col):
            return (math.nan, math.nan)
        lo, hi = np.quantile(col, [0.025, 0.975])
        return float(min(lo, point)), float(max(hi, point))

    rows = []
    for i, name in enumerate(names):
        ml, mh = interval(mix_b[:, i], float(eq.mixture[i]))
        rl, rh = interval(reg_b[:, i], float(eq.regrets[i]))
        rows.append({"strategy": name, "weight": eq.mixture[i], "weight_low": ml, "weight_high": mh,
                     "regret": eq.regrets[i], "regret_low": rl, "regret_high": rh,
                     "in_support_share": float(np.mean(mix_b[:, i] > 1e-3)) if len(mix_b) else math.nan})
    return rows


def _result(t: Arena, strats: list[Strategy], profiles: np.ndarray, sums: PayoffSums, lineups: list[int],
            seed: int, games: int, adaptive: bool, bootstrap: int, flat_games: int,
            elapsed: float) -> StudyResult:
    k, n = len(strats), t.k
    names = [t.label(s) for s in strats]  # presets by name
    means = sums.means()
    game = _game(n, profiles, means)
    eq = symmetric_nash(game)
    mix_b, reg_b = bootstrap_equilibria(n, profiles, sums, bootstrap, seed)
    eq_df = pd.DataFrame(equilibrium_rows(names, eq, mix_b, reg_b))
    low, high = sums.intervals(profiles > 0)
    pay_rows = []
    for p, counts in enumerate(profiles):
        label = " + ".join(f"{int(c)}×{names[i]}" for i, c in enumerate(counts) if c)
        for i in map(int, np.flatnonzero(counts)):
            pay_rows.append({"profile": label, "strategy": names[i], "players": int(counts[i]),
                             "win_share": means[p, i], "low": low[p, i],
                             "high": high[p, i], "deals": int(sums.deals[p]),
                             "seatings": lineups[p]})
    pay_df = pd.DataFrame(pay_rows)
    invasion = _invasion_table(names, profiles, means, low, high, n)
    length = _length_table(t, names, profiles, sums, eq.mixture)
    played = int(sum(int(sums.deals[p]) * lineups[p] for p in range(len(profiles))))
    support = [names[i] for i in np.argsort(-eq.mixture) if eq.mixture[i] > 1e-3]
    summary = {
        "equilibrium": {names[i]: float(eq.mixture[i]) for i in range(k) if eq.mixture[i] > 1e-3},
        "support": support,
        "max_regret": eq.max_regret,
        "method": eq.method,
        "equilibria_found": eq.found,
        "games_played": played,
        "flat_grid_games": flat_games,
        "profiles": len(profiles),
        "fair_share": 1 / n,
        "unit": t.m.units,
        f"{t.m.units}_at_equilibrium": float(length[t.m.units].iloc[0]),
    }
    if t.m.turns is not None:
        summary["turns_at_equilibrium"] = float(length["turns"].iloc[0])
    notes = [
        f"Symmetric equilibrium ({eq.method}): "
        + ", ".join(f"{names[i]} {eq.mixture[i]:.1%}" for i in np.argsort(-eq.mixture) if eq.mixture[i] > 1e-3)
        + f"; every other strategy gains at most {100 * max(eq.max_regret, 0):.2f} pts against it.",
        f"{len(profiles):,} profiles of {k} strategies at {n} sides; {played:,} games played"
        + (f" (adaptive; a flat grid of {games:,} deals per profile would take {flat_games:,})" if adaptive else "")
        + f"; the mixture's and the regrets' intervals from {bootstrap} bootstrap resamples of the deals, each "
        "solved for its own equilibrium; the payoffs' over deals (widened to the exact binomial interval near 0 "
        "and 1).",
    ]
    edges = edge_notes(t, strats, eq.mixture)
    summary["edges"] = edges
    notes += edges
    if eq.found > 1:
        notes.append(f"Replicator dynamics reached {eq.found} distinct equilibria from different starts: "
                     "the table has several, and which is played depends on where play starts.")
    meta = study_meta("equilibrium", t, seed, variant=t.variant, rules=t.rules.as_dict(), strategies=names, games=games,
                      adaptive=adaptive, bootstrap=bootstrap, games_played=played, elapsed_seconds=elapsed)
    title = f"Equilibrium of {k} strategies, {t.gdef.title} ({t.variant}, {t.players} players)"
    tables = {"equilibrium": eq_df, "invasion": invasion, "payoffs": pay_df, "length": length}
    return StudyResult("equilibrium", title, tables, summary, notes, meta)
