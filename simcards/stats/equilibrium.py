"""Equilibria of symmetric games estimated from play: the payoff table over profiles, Nash
mixtures, regrets, α-rank, and how much of a result is skill.

A *symmetric game* here is what a table of n seats looks like when every player may choose one of k
strategies and the rules treat the seats alike (the studies rotate seats so that they do): the
payoff of a player depends only on its own strategy and on how many others play each strategy.
Its payoffs are a table over *profiles* — count vectors ``c`` with ``sum(c) == n`` — giving the
mean payoff of a player of strategy ``i`` in profile ``c`` (defined where ``c[i] > 0``); there are
C(k+n−1, n) profiles.

Everything here is plain numpy/scipy and names no game: the studies fill the table from games and
call these functions.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog


def symmetric_profiles(k: int, n: int) -> np.ndarray:
    """Every profile of ``n`` players over ``k`` strategies, as count vectors (rows), in
    lexicographic order of the sorted strategy tuples: C(k+n−1, n) rows."""
    rows = []
    for combo in itertools.combinations_with_replacement(range(k), n):
        rows.append(np.bincount(combo, minlength=k))
    return np.array(rows, dtype=np.int64).reshape(-1, k)


def _multinomial(counts: np.ndarray) -> int:
    out = math.factorial(int(counts.sum()))
    for c in counts:
        out //= math.factorial(int(c))
    return out


@dataclass(frozen=True)
class SymmetricGame:
    """Payoffs of a symmetric ``n``-player game over ``k`` strategies.

    ``payoffs[p, i]`` is the mean payoff of a player of strategy ``i`` in profile
    ``profiles[p]`` (NaN where the profile has no such player)."""

    n: int
    profiles: np.ndarray
    payoffs: np.ndarray

    def __post_init__(self) -> None:
        if self.n < 2:
            raise ValueError("a game needs at least 2 players")
        want = symmetric_profiles(self.k, self.n)
        if self.profiles.shape != want.shape or not np.array_equal(self.profiles, want):
            raise ValueError("profiles must be symmetric_profiles(k, n)")
        if self.payoffs.shape != self.profiles.shape:
            raise ValueError("payoffs must have one row per profile and one column per strategy")
        played = self.profiles > 0
        if not np.all(np.isfinite(self.payoffs[played])):
            raise ValueError("every strategy present in a profile needs a finite payoff")

    @property
    def k(self) -> int:
        return int(self.profiles.shape[1])

    @classmethod
    def from_function(cls, k: int, n: int, payoff) -> SymmetricGame:
        """``payoff(counts, i)`` → the payoff of a strategy-``i`` player in profile ``counts``."""
        profiles = symmetric_profiles(k, n)
        table = np.full(profiles.shape, np.nan)
        for p, counts in enumerate(profiles):
            for i in np.flatnonzero(counts):
                table[p, i] = payoff(counts, int(i))
        return cls(n, profiles, table)

    @classmethod
    def from_matrix(cls, a: np.ndarray) -> SymmetricGame:
        """The symmetric two-player game whose row player gets ``a[i, j]`` playing i against j."""
        a = np.asarray(a, dtype=np.float64)
        k = a.shape[0]
        if a.shape != (k, k):
            raise ValueError("a symmetric two-player game needs a square payoff matrix")

        def payoff(counts: np.ndarray, i: int) -> float:
            rest = counts.copy()
            rest[i] -= 1
            return float(a[i, int(np.flatnonzero(rest)[0])])

        return cls.from_function(k, 2, payoff)

    def payoff_against(self, x: np.ndarray) -> np.ndarray:
        """``u[i]``: the expected payoff of one player of strategy i when each of the n−1 others
        plays the mixture ``x`` independently."""
        x = _mixture(x, self.k)
        others, coef, rows = others_table(self.k, self.n)
        weight = coef * np.prod(x[None, :] ** others, axis=1)
        cols = np.arange(self.k)[None, :]
        return weight @ self.payoffs[rows, cols]

    def regrets(self, x: np.ndarray) -> np.ndarray:
        """What each pure strategy gains over the mixture ``x`` when everyone else plays ``x``:
        ``u_i(x) − Σ_j x_j u_j(x)``. ``x`` is a symmetric Nash equilibrium exactly when no regret
        is positive."""
        x = _mixture(x, self.k)
        u = self.payoff_against(x)
        return u - float(x @ u)


@functools.lru_cache(maxsize=64)
def others_table(k: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The profiles of the n−1 other players, their multinomial coefficients, and for each
    (others, strategy i) the row of the whole profile ``others + e_i`` in ``symmetric_profiles(k, n)``."""
    others = symmetric_profiles(k, n - 1)
    coef = np.array([_multinomial(c) for c in others], dtype=np.float64)
    index = {tuple(c): p for p, c in enumerate(symmetric_profiles(k, n))}
    rows = np.empty((len(others), k), dtype=np.int64)
    for q, c in enumerate(others):
        for i in range(k):
            whole = c.copy()
            whole[i] += 1
            rows[q, i] = index[tuple(whole)]
    return others, coef, rows


def _mixture(x, k: int) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if x.shape != (k,) or np.any(x < -1e-12) or abs(x.sum() - 1) > 1e-9:
        raise ValueError(f"a mixture is {k} non-negative weights adding up to 1")
    return np.clip(x, 0.0, None) / np.clip(x, 0.0, None).sum()


@dataclass(frozen=True)
class Equilibrium:
    """A symmetric Nash mixture and how close it is: ``max_regret`` is the most a pure strategy
    gains against it (0 at an exact equilibrium)."""

    mixture: np.ndarray
    regrets: np.ndarray
    max_regret: float
    method: str
    found: int = 1  # distinct equilibria the starts reached


def zero_sum_nash(a: np.ndarray) -> tuple[np.ndarray, float]:
    """The row player's optimal mixture and the value of the two-player zero-sum game where the row
    player gets ``a[i, j]`` (linear program: maximise v subject to ``aᵀx ≥ v``, ``Σx = 1``)."""
    a = np.asarray(a, dtype=np.float64)
    k, m = a.shape
    # variables: x_0..x_{k-1}, v;  minimise −v
    c = np.zeros(k + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((m, 1))])  # v − Σ_i a[i, j] x_i ≤ 0 for every column j
    b_ub = np.zeros(m)
    a_eq = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    bounds = [(0, None)] * k + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if not res.success:
        raise RuntimeError(f"the linear program failed: {res.message}")
    x = np.clip(res.x[:k], 0, None)
    return x / x.sum(), float(res.x[-1])


def payoffs_against_many(game: SymmetricGame, xs: np.ndarray) -> np.ndarray:
    """``payoff_against`` for each row of ``xs`` (mixtures), at once."""
    others, coef, rows = others_table(game.k, game.n)
    logs = np.log(np.clip(xs, 1e-300, None)) @ others.T.astype(np.float64)  # Σ_j c_j log x_j per profile
    weight = coef[None, :] * np.exp(logs)
    return weight @ game.payoffs[rows, np.arange(game.k)[None, :]]


def replicator(game: SymmetricGame, starts: np.ndarray, steps: int = 2000, rate: float = 2.0,
               tol: float = 1e-12) -> np.ndarray:
    """Replicator dynamics in discrete time, from each row of ``starts`` at once: the exponential
    form ``x_i ← x_i exp(η (u_i − ū) / s)`` (``s``: the table's payoff range, so one rate fits every
    game). Its rest points are the replicator's; an equilibrium strategy's weight grows, a worse
    one's shrinks geometrically. Returns the end points (rows)."""
    scale = float(np.nanmax(game.payoffs) - np.nanmin(game.payoffs)) or 1.0
    x = np.array([_mixture(row, game.k) for row in np.atleast_2d(starts)])
    for _ in range(steps):
        u = payoffs_against_many(game, x)
        mean = (x * u).sum(axis=1, keepdims=True)
        new = x * np.exp(np.clip(rate * (u - mean) / scale, -50, 50))
        new /= new.sum(axis=1, keepdims=True)
        if np.max(np.abs(new - x)) < tol:
            return new
        x = new
    return x


def polish(game: SymmetricGame, x: np.ndarray, floor: float = 1e-4) -> np.ndarray:
    """The mixture on the support of ``x`` (weights above ``floor``) at which every strategy of the
    support earns the same (Newton's method on those indifference equations, scipy's root); ``x``
    itself when that fails or leaves the simplex. Replicator dynamics approach a mixed equilibrium
    slowly; this lands on it."""
    from scipy.optimize import root

    support = np.flatnonzero(x > floor)
    if len(support) < 2:
        out = np.zeros(game.k)
        out[support if len(support) else int(np.argmax(x))] = 1.0
        return out

    def full(free: np.ndarray) -> np.ndarray:
        y = np.zeros(game.k)
        y[support[:-1]] = free
        y[support[-1]] = 1.0 - free.sum()
        return y

    def gaps(free: np.ndarray) -> np.ndarray:
        u = payoffs_against_many(game, np.clip(full(free), 0, None)[None, :])[0]
        return u[support[:-1]] - u[support[-1]]

    sol = root(gaps, x[support[:-1]] / x[support].sum(), method="hybr")
    y = full(sol.x)
    if not sol.success or y.min() < -1e-9:
        return x
    y = np.clip(y, 0, None)
    return y / y.sum()


def symmetric_nash(game: SymmetricGame, starts: int = 16, seed: int = 0, tol: float = 1e-6) -> Equilibrium:
    """A symmetric Nash mixture of ``game``.

    Two players with a zero-sum table (``a + aᵀ = const``): the linear program, exact. Otherwise
    replicator dynamics from the uniform mixture, every pure strategy's neighbourhood and random
    starts, each end point polished onto its support; of those, the one with the least regret
    (ties: the most even mixture). The regret is computed exactly, so the answer is checked, not
    trusted: ``max_regret`` ≤ ``tol`` means an equilibrium up to float rounding. ``found`` counts the
    distinct equilibria reached: more than one means where play starts decides which is played."""
    k = game.k
    if game.n == 2:
        a = _matrix(game)
        total = a + a.T
        if np.allclose(total, total[0, 0], atol=1e-12):
            x, _ = zero_sum_nash(a - total[0, 0] / 2)
            r = game.regrets(x)
            return Equilibrium(x, r, float(max(r.max(), 0.0)), "linear program (two-player zero-sum)")
    rng = np.random.default_rng(seed)
    candidates = [np.full(k, 1.0 / k)]
    for i in range(k):
        near = np.full(k, 0.05 / max(k - 1, 1))
        near[i] = 0.95 if k > 1 else 1.0
        candidates.append(near)
    candidates += list(rng.dirichlet(np.ones(k), size=max(starts - len(candidates), 0)))
    ends = []
    for x in replicator(game, np.array(candidates)):
        ends += [x, polish(game, x)]
    regret = [float(max(game.regrets(x).max(), 0.0)) for x in ends]
    distinct: list[np.ndarray] = []
    for x, reg in zip(ends, regret):
        if reg <= tol and not any(np.max(np.abs(x - d)) < 1e-3 for d in distinct):
            distinct.append(x)
    order = sorted(range(len(ends)), key=lambda j: (round(regret[j], 9), -_entropy(ends[j])))
    best = ends[order[0]]
    return Equilibrium(best, game.regrets(best), regret[order[0]], "replicator dynamics", max(len(distinct), 1))


def _entropy(x: np.ndarray) -> float:
    p = x[x > 0]
    return float(-(p * np.log(p)).sum())


def _matrix(game: SymmetricGame) -> np.ndarray:
    """The row player's payoff matrix of a two-player symmetric game."""
    k = game.k
    a = np.empty((k, k))
    index = {tuple(c): p for p, c in enumerate(game.profiles)}
    for i in range(k):
        for j in range(k):
            c = np.zeros(k, dtype=np.int64)
            c[i] += 1
            c[j] += 1
            a[i, j] = game.payoffs[index[tuple(c)], i]
    return a


def alpha_rank(game: SymmetricGame, alpha: float = 50.0, population: int = 50) -> np.ndarray:
    """α-rank (Omidshafiei et al., 2019), single population: the stationary distribution of a Moran
    process in which a lone mutant of strategy r invades a population of ``population`` players of
    strategy s and fixes with probability ρ(s → r), at selection intensity ``alpha`` (per unit of
    payoff range). A strategy's mass is how much time evolution spends on it; unlike a Nash mixture it
    is unique, and it ranks every strategy, the ones outside the equilibrium too.

    Its answer depends on ``alpha`` and ``population``, which the data do not fix (on one
    three-player table the same strategy gets 34% to 89% of the mass over intensities 1–200), and it
    can put its mass where the equilibrium regrets it: the studies no longer show it (issue 28,
    docs/analysis.md); a ranking from it should name both settings."""
    k, n, m = game.k, game.n, population
    if m < n:
        raise ValueError("the population must be at least the number of players at a table")
    scale = float(np.nanmax(game.payoffs) - np.nanmin(game.payoffs)) or 1.0
    index = {tuple(c): p for p, c in enumerate(game.profiles)}
    # With p of the m players mutants, the n−1 others at a player's table are drawn from the other
    # m−1 players without replacement: h_r[p−1, j] = P(j mutants among a mutant's others),
    # h_s[p−1, j] the same for a resident (p = 1 .. m−1, j = 0 .. n−1).
    h_r = np.array([[_hypergeom(j, m - 1, p - 1, n - 1) for j in range(n)] for p in range(1, m)])
    h_s = np.array([[_hypergeom(j, m - 1, p, n - 1) for j in range(n)] for p in range(1, m)])

    def pay(r: int, s: int, mutants_at_table: int, me: int) -> float:
        c = np.zeros(k, dtype=np.int64)
        c[r] += mutants_at_table
        c[s] += n - mutants_at_table
        return float(game.payoffs[index[tuple(c)], me]) / scale

    c_mat = np.zeros((k, k))
    for s in range(k):
        for r in range(k):
            if r == s:
                continue
            # a mutant's payoff with j mutants among its others (j + 1 at the table), a resident's with j
            a_r = np.array([pay(r, s, j + 1, r) for j in range(n)])
            a_s = np.array([pay(r, s, j, s) for j in range(n)])
            logs = np.cumsum(-alpha * (h_r @ a_r - h_s @ a_s))
            rho = 1.0 / (1.0 + np.exp(np.clip(logs, -700, 700)).sum())
            c_mat[s, r] = rho / (k - 1)
        c_mat[s, s] = 1.0 - c_mat[s].sum()
    vals, vecs = np.linalg.eig(c_mat.T)
    pi = np.real(vecs[:, np.argmin(np.abs(vals - 1.0))])
    pi = np.abs(pi)
    return pi / pi.sum()


def _hypergeom(j: int, total: int, good: int, draws: int) -> float:
    if good < 0 or j > good or draws - j > total - good or j < 0:
        return 0.0
    return math.comb(good, j) * math.comb(total - good, draws - j) / math.comb(total, draws)


# ----- skill versus luck ----------------------------------------------------------------------------

def match_win_probability(p: float, games: int) -> float:
    """The chance that a player who wins each game with probability ``p`` (independently) wins a
    match of ``games`` games: more than half of them; a tie on an even length counts one half."""
    return float(match_win_many(p, games))  # scipy's binomial: exact binomial coefficients overflow a float past ~1,000 games


def games_to_be_sure(p: float, level: float = 0.95, most: int = 100_001) -> int | None:
    """The fewest games (odd, so there is no tie) a match needs for the player with per-game win
    probability ``p`` to win it with probability ``level``; None if ``p ≤ 0.5`` or more than
    ``most`` games would be needed."""
    if p <= 0.5:
        return None
    lo, hi = 1, 1
    while match_win_probability(p, hi) < level:
        lo, hi = hi, 2 * hi + 1
        if hi > most:
            return None
    while hi - lo > 2:  # binary search over odd lengths
        mid = (lo + hi) // 2
        mid += 1 - mid % 2
        if match_win_probability(p, mid) >= level:
            hi = mid
        else:
            lo = mid
    return hi if match_win_probability(p, lo) < level else lo


def skill_share(results: np.ndarray, groups: np.ndarray) -> tuple[float, float, float]:
    """The share of the variance of per-game results explained by who played: the variance of the
    strategies' true mean results (weighted by games, the strategies being the ones compared)
    over that plus the variance within a strategy — ω² of a one-way analysis of variance.

    ``results[g]`` is a game's result for one player and ``groups[g]`` that player's strategy.
    Returns (share, between-strategy variance, within-strategy variance); the between part is
    corrected for the noise of the observed means (E[SS_between] = N·var_between + (k−1)σ²),
    clipped at 0."""
    y = np.asarray(results, dtype=np.float64)
    g = np.asarray(groups)
    names, inv = np.unique(g, return_inverse=True)
    if len(names) < 2:
        raise ValueError("skill versus luck needs results of at least two strategies")
    counts = np.bincount(inv).astype(np.float64)
    means = np.bincount(inv, weights=y) / counts
    grand = y.mean()
    ss_within = float(((y - means[inv]) ** 2).sum())
    ss_between = float((counts * (means - grand) ** 2).sum())
    df_w = len(y) - len(names)
    ms_w = ss_within / df_w if df_w > 0 else 0.0
    between = max((ss_between - (len(names) - 1) * ms_w) / len(y), 0.0)
    total = between + ms_w
    return (between / total if total > 0 else 0.0), between, ms_w


def variance_shares(results: np.ndarray, strategy: np.ndarray, seat: np.ndarray) -> dict[str, float]:
    """How much of the spread of per-player results is skill, position and luck: a two-way
    decomposition of ``results`` (one row per player per game) by ``strategy`` and ``seat``.

    Seat rotation makes the two factors orthogonal (every strategy sits at every seat equally often),
    so each factor's sum of squares is its own; each is corrected for the noise of the observed
    means (E[SS] = N·variance + (levels − 1)·σ²) and clipped at 0. Returns the variances
    (``skill``, ``seat``, ``luck`` = what is left) and their shares of the total."""
    y = np.asarray(results, dtype=np.float64)
    n = len(y)
    grand = y.mean()
    total_ss = float(((y - grand) ** 2).sum())
    parts = {}
    fitted = np.full(n, grand)
    for name, labels in (("skill", strategy), ("seat", seat)):
        _, inv = np.unique(np.asarray(labels), return_inverse=True)
        counts = np.bincount(inv).astype(np.float64)
        means = np.bincount(inv, weights=y) / counts
        parts[name] = (float((counts * (means - grand) ** 2).sum()), len(counts))
        fitted += means[inv] - grand
    df_res = n - 1 - sum(levels - 1 for _, levels in parts.values())
    ms_res = float(((y - fitted) ** 2).sum()) / df_res if df_res > 0 else 0.0
    out = {name: max((ss - (levels - 1) * ms_res) / n, 0.0) for name, (ss, levels) in parts.items()}
    out["luck"] = max(total_ss / n - out["skill"] - out["seat"], 0.0)
    total = sum(out.values())
    out.update({f"{k}_share": (v / total if total > 0 else 0.0) for k, v in list(out.items())})
    return out


def match_win_many(p, games: int) -> np.ndarray:
    """``match_win_probability`` for an array of per-game probabilities at once."""
    from scipy.stats import binom

    p = np.clip(np.asarray(p, dtype=np.float64), 0.0, 1.0)
    win = binom.sf(games // 2, games, p)  # more than half
    tie = binom.pmf(games // 2, games, p) if games % 2 == 0 else 0.0
    return np.asarray(win + np.asarray(tie) / 2, dtype=np.float64)


def win_variance_shares(deals, strong, weak, seats, lineups: int, strong_seats: int) -> dict[str, np.ndarray]:
    """``variance_shares`` of the per-seat 0/1 results (1: that seat won the game) of a seat-rotated
    head-to-head of two strategies, from its sums alone (so a study needs no per-game arrays, and a
    bootstrap can recompute it from resampled sums).

    Every deal is played in ``lineups`` lineups of ``k`` seats; the strong strategy holds
    ``strong_seats`` of those lineups × k seats and each strategy holds each seat equally often, so
    the two factors are orthogonal and the residual sum of squares is the total minus both factors'.
    ``deals``, ``strong``, ``weak`` (wins of each strategy) broadcast; ``seats[..., s]`` are the wins
    at seat s. Returns arrays ``skill``, ``seat``, ``luck`` and their ``*_share``."""
    deals = np.asarray(deals, dtype=np.float64)
    seats = np.asarray(seats, dtype=np.float64)
    k = seats.shape[-1]
    n = deals * lineups * k
    wins = np.asarray(strong, dtype=np.float64) + np.asarray(weak, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        base = wins ** 2 / n
        ss_total = wins - base  # Σy² = Σy for 0/1 results
        ss_skill = (np.asarray(strong, dtype=np.float64) ** 2 / (deals * strong_seats)
                    + np.asarray(weak, dtype=np.float64) ** 2 / (deals * (lineups * k - strong_seats)) - base)
        ss_seat = (seats ** 2).sum(axis=-1) / (deals * lineups) - base
        df_res = n - 1 - 1 - (k - 1)
        ms_res = np.where(df_res > 0, (ss_total - ss_skill - ss_seat) / df_res, 0.0)
        out = {"skill": np.maximum((ss_skill - ms_res) / n, 0.0),
               "seat": np.maximum((ss_seat - (k - 1) * ms_res) / n, 0.0)}
        out["luck"] = np.maximum(ss_total / n - out["skill"] - out["seat"], 0.0)
        total = out["skill"] + out["seat"] + out["luck"]
        for name in ("skill", "seat", "luck"):
            out[f"{name}_share"] = np.where(total > 0, out[name] / np.where(total > 0, total, 1.0), 0.0)
    return out
