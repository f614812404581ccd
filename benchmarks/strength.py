"""Strength against the opponent panel (issue 29): each game's strongest preset
(``simcards.panel.STRONGEST``: Gin ``reader``, Yaniv and Two Hundred ``deep``) against every
member of its game's panel (``simcards.panel.PANELS``), games played to the end.

Built on the studies layer (``simcards.studies``), no statistics of its own: every matchup is
played on the same deals (game indices ``0 .. games-1`` of ``--seed``) in every lineup
(``pair_lineups``: the two strategies swap seats, every rotation; ``field_lineups``: one seat of the
strongest against the member everywhere else, each seat in turn), so the panel's members meet the
same deals; win rates are means of per-deal win fractions with 95% intervals (``unit_mean``); a
member is beaten when the win rate is above the fair share and significant under Holm's control
over the panel (``holm`` on the p-values inverted from the intervals, one family per table). Cost:
the strongest player's matchups timed off compile (``timed_matchup``): wall and CPU seconds
(every thread's) per game.

Tables: Gin under ``standard`` and under ``eaai`` (the EAAI-2021 challenge's conditions); Yaniv
one seat against three of the member (4 players, fair 25%) and head to head (2 players); Two
Hundred team against team (4 players).

    python benchmarks/strength.py [--games 200] [--seed 29] [--threads 2] [--game gin ...] [--json out.json]
    python benchmarks/strength.py --game gin --variant eaai --strongest deep --members camper  # one cell
    python benchmarks/strength.py --game yaniv --strongest mc --paired mc:stop=0  # a change, paired

``--paired BASE`` also plays ``BASE`` in the same matchups (the same deals, lineups and seats) and
gives each row the player's win rate minus ``BASE``'s with a paired 95% interval (``paired_diff``,
over deals) and their cost ratio: whether a faster or a changed player is as strong, member by
member.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # benchmark the checkout this file is in, not an installed copy

# (game, variant, players, lineups: "pair" or "field", title)
TABLES = [
    ("gin", "standard", 2, "pair", "Gin, standard, to 100"),
    ("gin", "eaai", 2, "pair", "Gin, eaai (the EAAI-2021 conditions)"),
    ("yaniv", None, 4, "field", "Yaniv, 4 players: one seat against three"),
    ("yaniv", None, 2, "pair", "Yaniv, 2 players"),
    ("two-hundred", None, None, "pair", "Two Hundred, teams of two"),
]


def table(game: str, variant: str | None, players: int | None, kind: str, games: int, seed: int,
          threads: int | None, strongest: str | None = None, members: list[str] | None = None,
          base: str | None = None) -> list[dict]:
    """One row per panel member: the strongest preset's win rate against it, Holm over the rows
    (and, with a ``base`` player, the difference to the base's win rate on the same deals)."""
    from simcards.panel import STRONGEST, panel_specs
    from simcards.stats.differences import holm, p_value, paired_diff, shifted
    from simcards.studies.common import field_lineups, open_study, pair_lineups, unit_mean
    from simcards.studies.cost import timed_matchup

    t, seed, games, n_threads = open_study(game, variant, players, None, seed, games, threads)
    me = t.strategy(strongest or STRONGEST[t.game])
    lineups = field_lineups(t.k) if kind == "field" else pair_lineups(t.k)
    rows = []
    for spec in members or panel_specs(t.game):
        other = t.strategy(spec)
        mu, cost = timed_matchup(t, me, other, lineups, seed, 0, games, me)
        est = unit_mean(mu.won)
        p = p_value(lambda z, x=mu.won, f=mu.fair: shifted(unit_mean(x, z), f))
        rows.append({"game": t.game, "variant": t.variant, "players": t.players, "strongest": t.label(me),
                     "member": t.label(other), "win_rate": est.value, "low": est.low, "high": est.high,
                     "fair": mu.fair, "p": p, "deals": games, "games": cost.games, "undecided": mu.undecided,
                     "wall_s_per_game": cost.wall / max(cost.games, 1),
                     "cpu_s_per_game": cost.cpu / max(cost.games, 1), "threads": n_threads, "seed": seed})
        if base is not None:
            b = t.strategy(base)
            mu_b, cost_b = timed_matchup(t, b, other, lineups, seed, 0, games, b)
            diff = paired_diff(mu_b.won, mu.won)
            rows[-1].update({"base": t.label(b), "base_win_rate": float(mu_b.won.mean()), "diff": diff.value,
                             "diff_low": diff.low, "diff_high": diff.high,
                             "cost_ratio": (cost.cpu / max(cost.games, 1)) / (cost_b.cpu / max(cost_b.games, 1))})
    for r, sig in zip(rows, holm([r["p"] for r in rows])):
        r["holm"] = bool(sig)
        r["beats"] = bool(sig and r["win_rate"] > r["fair"])
    return rows


def show(title: str, rows: list[dict]) -> None:
    r0 = rows[0]
    print(f"\n{title} — {r0['strongest']} against the panel ({r0['deals']} deals x lineups, seed {r0['seed']}, "
          f"{r0['threads']} threads)")
    print(f"  {'member':<28} {'win rate [95%]':<24} {'fair':>5} {'p':>8}  {'Holm':<5} {'games':>6} "
          f"{'cpu s/game':>10} {'wall s/game':>11}")
    for r in rows:
        rate = f"{100 * r['win_rate']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"
        mark = "beats" if r["beats"] else ("loses" if r["holm"] else "-")
        print(f"  {r['member']:<28} {rate:<24} {100 * r['fair']:>4.0f}% {r['p']:>8.2g}  {mark:<5} {r['games']:>6} "
              f"{r['cpu_s_per_game']:>10.4f} {r['wall_s_per_game']:>11.4f}")
        if "base" in r:
            print(f"  {'':<4}minus {r['base']} ({100 * r['base_win_rate']:.1f}%): {100 * r['diff']:+.1f} points "
                  f"[{100 * r['diff_low']:+.1f}, {100 * r['diff_high']:+.1f}] paired; CPU a game x{r['cost_ratio']:.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="deals per matchup (each played in every lineup)")
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--game", nargs="*", default=None, help="only these games (gin, yaniv, two-hundred)")
    ap.add_argument("--variant", nargs="*", default=None, help="only these variants (e.g. eaai)")
    ap.add_argument("--strongest", default=None, help="another player than the game's strongest preset")
    ap.add_argument("--members", nargs="*", default=None, help="only these opponents (default: the whole panel)")
    ap.add_argument("--paired", default=None, metavar="BASE",
                    help="also play BASE on the same deals: the win rate minus BASE's, paired, and the cost ratio")
    ap.add_argument("--json", default=None, help="write every row to this file")
    a = ap.parse_args(argv)
    out = []
    t0 = time.perf_counter()
    for game, variant, players, kind, title in TABLES:
        if a.game and game not in a.game:
            continue
        if a.variant and (variant or "default") not in a.variant:
            continue
        rows = table(game, variant, players, kind, a.games, a.seed, a.threads, a.strongest, a.members, a.paired)
        show(title, rows)
        out += rows
    print(f"\n{time.perf_counter() - t0:.0f} s wall in all")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
