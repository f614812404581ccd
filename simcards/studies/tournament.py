"""``tournament``: a round robin of strategies head to head with Bradley–Terry ratings."""


from __future__ import annotations

import itertools
import time
from typing import Any

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.stats.differences import HOLM, bradley_terry, holm, p_value, shifted
from simcards.stats.estimates import Estimate, mean_ci
from simcards.strategy import split_specs
from simcards.studies.common import (
    Arena,
    StudyResult,
    est_cols,
    fmt_est,
    open_study,
    pair_lineups,
    play_matchup,
    study_meta,
    study_progress,
    unit_mean,
)
from simcards.studies.cost import Cost, cost_table, load_average, self_play_cost, timed_matchup


def tournament(game: str, strategies: list[str] | str, *, variant: str | None = None, players: int | None = None,
               games: int = 1000, seed: int = 0, rules: dict[str, Any] | None = None, threads: int | None = None,
               progress: bool = False, cost: str | None = None) -> StudyResult:
    """Round robin: every pair of strategies head to head (alternating sides, every rotation,
    same deals for every pair), a win-rate matrix with 95% intervals and Bradley–Terry ratings
    (Elo scale, mean 0) with 95% intervals. With ``cost`` (one of the strategies, the reference):
    a ``cost`` table, each strategy's games and decisions per second in its matchup against the
    reference (the reference's own row: self-play on as many games), see :mod:`simcards.studies.cost`."""
    t, seed, games, n_threads = open_study(game, variant, players, rules, seed, games, threads)
    if isinstance(strategies, str):
        strategies = [s.strip() for s in split_specs(strategies)]
    strats = [t.strategy(s) for s in strategies]
    specs = [t.label(s) for s in strats]  # presets by name
    if len(strats) < 2:
        raise SimcardsError("a tournament needs at least two strategies, e.g. --strategies "
                            f"random,{t.gdef.default_strategy}")
    if len({s.spec for s in strats}) != len(specs):
        raise SimcardsError(f"--strategies lists the same strategy twice: {', '.join(specs)}")
    k = len(strats)
    ref = _cost_reference(t, cost, [s.spec for s in strats])
    lineups = pair_lineups(t.k)
    extra = games * len(lineups) if ref is not None else 0  # the reference's self-play
    bar = study_progress(k * (k - 1) // 2 * games * len(lineups) + extra, f"tournament {t.game}", progress)
    t.progress = bar
    wins = np.zeros((k, k))
    pairs = []
    costs: dict[int, Cost] = {}
    load = load_average()
    t0 = time.perf_counter()
    try:
        for i, j in itertools.combinations(range(k), 2):
            if ref in (i, j):  # the pair that measures the other one's cost
                who = j if i == ref else i
                mu, costs[who] = timed_matchup(t, strats[i], strats[j], lineups, seed, 0, games, strats[who])
            else:
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
        if ref is not None:
            costs[ref] = self_play_cost(t, strats[ref], seed, 0, games * len(lineups))
    finally:
        bar.close()
    elapsed = time.perf_counter() - t0
    pair_df = pd.DataFrame(pairs)
    # A pair's row is significant when its win rate differs from the fair share under Holm's
    # control over all the rows (each pair appears twice, once per side).
    pair_df.insert(pair_df.columns.get_loc("p") + 1, "significant", holm(pair_df["p"].tolist()))
    ratings = bradley_terry(wins, specs)
    weights = ratings.weights if ratings.weights is not None else np.full(k, 1 / k)
    overall = wins.sum(axis=1) / np.maximum(wins.sum(axis=1) + wins.sum(axis=0), 1)
    rat = pd.DataFrame({"strategy": specs, "rating": ratings.rating, "rating_low": ratings.low,
                        "rating_high": ratings.high, "wins": wins.sum(axis=1).astype(int),
                        "losses": wins.sum(axis=0).astype(int), "win_share": overall})
    rat = rat.sort_values("rating", ascending=False, ignore_index=True)
    matrix = pd.DataFrame(index=specs, columns=specs, dtype=object)
    for r in pair_df.itertuples():
        matrix.loc[r.strategy, r.opponent] = fmt_est(r.win_rate, r.win_rate_low, r.win_rate_high, "pct")
    matrix = matrix.fillna("-")
    matrix.index.name = "row beats column"
    light = [x for x in specs if x not in ratings.anchor]
    one_sided = [x for i, x in enumerate(specs) if wins[i].sum() == 0 or wins[:, i].sum() == 0]
    anchor = (", each strategy weighted by its information, about the games it won when it rarely wins"
              + ("" if not light else
                 f"; {', '.join(light)} weigh{'s' if len(light) == 1 else ''} under 1% of the centre, so "
                 f"{'its' if len(light) == 1 else 'their'} uncertainty stays out of the others' intervals")
              + ("" if not one_sided else
                 f"; {', '.join(one_sided)} never won (or never lost) a game: its rating, kept finite by half a "
                 "virtual win each way per pair, is bounded on one side only (its interval is the exact one of "
                 "its record, open on the other side)"))
    notes = [f"Ratings are Bradley–Terry strengths on the Elo scale (mean 0{anchor}): a "
             f"{rat.iloc[0]['rating'] - rat.iloc[-1]['rating']:.0f}-point gap "
             f"between {rat.iloc[0]['strategy']} and {rat.iloc[-1]['strategy']} means the first wins "
             f"{1 / (1 + 10 ** (-(rat.iloc[0]['rating'] - rat.iloc[-1]['rating']) / 400)):.0%} of head-to-head games.",
             f"A pair is significant when its win rate differs from the fair share under {HOLM} over the "
             f"{len(pair_df)} rows of the pairs table."]
    tables = {"ratings": rat, "matrix": matrix.reset_index(), "pairs": pair_df}
    extra_meta = {}
    if ref is not None:
        cost_df = cost_table([costs[i] for i in range(k)], t.m.decision_unit, n_threads)
        named = {s.spec: specs[i] for i, s in enumerate(strats)}  # presets by name, as in the other tables
        tables["cost"] = cost_df.assign(strategy=cost_df["strategy"].map(lambda x: named.get(x, x)),
                                        against=cost_df["against"].map(lambda x: named.get(x, x)))
        extra_meta = {"cost": {"reference": specs[ref], "threads": n_threads, "load_average": load,
                               "decision_unit": t.m.decision_unit if t.m.seat_decisions is not None else None}}
        notes.append(_cost_note(specs[ref], t.m.decision_unit if t.m.seat_decisions is not None else None,
                                n_threads, load))
    meta = study_meta("tournament", t, seed, variant=t.variant, rules=t.rules.as_dict(), strategies=specs,
                 lineups=[list(lu) for lu in lineups], games=games, games_played=t.games_played,
                 rating_anchor=list(ratings.anchor), rating_weights=dict(zip(specs, map(float, weights))),
                 elapsed_seconds=round(elapsed, 3), **extra_meta)
    return StudyResult("tournament", f"{t.gdef.title} ({t.variant}, {t.players} players): round robin of {k} strategies",
                       tables, {"ratings": dict(zip(rat["strategy"], rat["rating"]))}, notes, meta)


def _cost_reference(t: Arena, cost: str | None, specs: list[str]) -> int | None:
    """The index of the ``cost`` reference among the strategies (None: no cost table)."""
    if cost is None:
        return None
    spec = t.strategy(cost).spec
    if spec not in specs:
        raise SimcardsError(f"cost={cost!r}: the cost reference must be one of the strategies ({', '.join(specs)})")
    return specs.index(spec)


def _cost_note(ref: str, unit: str | None, threads: int, load: float | None) -> str:
    what = (f"and the player's own {unit} (the decisions its seats took) per second" if unit else
            "(these rules have no decision count)")
    busy = f" The 1-minute load average was {load:g} when it started." if load is not None else ""
    return (f"Cost: games per second of each strategy's matchup against {ref} (its seat rotations, these "
            f"deals; {ref}'s own row: self-play on as many games) on {threads} thread(s), {what}; per second "
            "of wall clock and per CPU-second (all threads), the engine compiled beforehand. The wall clock "
            "counts what other jobs on the machine took; CPU seconds much less so." + busy)


