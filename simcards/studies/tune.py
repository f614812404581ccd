"""``tune``: sweep one or two strategy parameters against a field, with paired differences, a
racing mode and a replay of the best value on fresh deals."""


from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.stats.differences import paired_diff, significant, z_for
from simcards.stats.estimates import Z95, Estimate, mean_ci
from simcards.strategy import Strategy, make_strategy
from simcards.studies.common import (
    StudyResult,
    est_cols,
    field_lineups,
    fmt_est,
    open_study,
    play_matchup,
    study_meta,
    study_progress,
    unit_mean,
    whole_count,
)


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
    t, seed, games, _ = open_study(game, variant, players, rules, seed, games, threads)
    base = t.strategy(strategy)
    sweep = _parse_params(params)
    given = dict(base.values)
    for name, _vals in sweep:
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
    opp_name = t.label(opp)  # a preset by its name
    lineups = field_lineups(t.k)
    confirm = games if confirm is None else whole_count(confirm, "confirm", 0)
    limits = t.m.param_warnings(base.family.name, t.rules, sweep)
    if adaptive:
        batch = whole_count(batch if batch is not None else max(50, games // 8), "batch", 1, games)
        looks = math.ceil(games / batch)
        z_elim = z_for(alpha, max(1, (len(arms) - 1) * looks))
    else:
        batch, looks, z_elim = games, 1, Z95
    bar = study_progress((len(arms) * games + confirm) * len(lineups), f"tune {t.game}", progress)
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
    ints = {n: all(float(x).is_integer() for x in vals) for n, vals in sweep}  # whole numbers stay whole (JSON)
    rows = []
    for a in arms:
        w = a.cat("won")
        est = unit_mean(w)
        mg = mean_ci(a.cat("margin"))
        row: dict[str, Any] = {n: _whole(v, ints[n]) for n, v in zip(names, a.values)}
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
    whole = lambda a: {n: _whole(v, ints[n]) for n, v in zip(names, a.values)}  # noqa: E731
    summary = {"best": whole(best), "best_spec": best.strat.spec,
               "runner_up": whole(runner), "best_minus_runner_up": d.as_dict(),
               "significant": significant(d)}
    notes = [f"Best in the sweep: {fmt_vals(best)} wins {fmt_est(*_e(unit_mean(best.cat('won'))), 'pct')} "
             f"(fair share {best.fair:.1%}) against {opp_name} — an estimate biased upward by picking the "
             f"best of {len(arms)}; runner-up {fmt_vals(runner)}: "
             f"difference {fmt_est(d.value, d.low, d.high, 'pts')} on {n_common:,} common deals — "
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
    summary["reference"] = opp_name
    notes.append(how + (f", above the fair share {best.fair:.1%}: better than the reference ({opp_name})."
                        if better else f" against a fair share of {best.fair:.1%}: no value is better than the "
                        f"reference ({opp_name})."))
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
    meta = study_meta("tune", t, seed, variant=t.variant, rules=t.rules.as_dict(), family=base.family.name,
                 base=base.spec, params={n: [_whole(x, ints[n]) for x in v] for n, v in sweep}, against=opp_name,
                 lineups=[list(lu) for lu in lineups], games=games, adaptive=adaptive,
                 batch=batch if adaptive else None, alpha=alpha, confirm=confirm, games_played=t.games_played,
                 elapsed_seconds=round(elapsed, 3))
    title = f"{t.gdef.title} ({t.variant}, {t.players} players): tuning {base.family.name} " + \
            " × ".join(names) + f" against {opp_name}"
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


def _e(est: Estimate) -> tuple[float, float, float]:
    return est.value, est.low, est.high


def _whole(v: float, integral: bool) -> float | int:
    """A swept value as the user wrote it: 4, not 4.0, when every value of that sweep is whole."""
    return int(v) if integral else v


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


# ----- tournament ---------------------------------------------------------------------------------
