"""Yaniv turn and round caps hit by the built-in strategies, per preset, option and player count.

    python benchmarks/caps_yaniv.py                    # every preset x every option value, 2/4/max players
    python benchmarks/caps_yaniv.py --games 50 --variants adrian --json caps.json

A round stops at the turn cap (1,000 discards: everyone adds their hand) and a game at the round
cap (2,000 rounds). The README says how often the built-in strategies hit them; this measures it.
Each preset is played as it is and with every single option changed to each value in ``VALUES``
(combinations the rules refuse are skipped), by a table of ``random`` players and one of
``threshold`` players (default parameters), at 2 and 4 players and the most the deck allows.
Prints one line per configuration that hit a cap, the longest round seen overall, and totals.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout this file is in, not an installed copy

import simcards  # noqa: E402
from simcards.errors import SimcardsError  # noqa: E402
from simcards.games.yaniv.game import GAME  # noqa: E402
from simcards.games.yaniv.rules import PRESETS  # noqa: E402

# Option values tried one at a time on top of each preset (representative of each option's range).
VALUES: dict[str, list] = {
    "decks": [1, 2],
    "jokers": [True, False],
    "face_values": [(10, 10, 10), (0, 10, 10), (11, 12, 13)],
    "direction": ["counterclockwise"],
    "jokers_wild": [True, False],
    "joker_pair_set": [False],
    "pickup": ["ends", "any_set", "any"],
    "call_limit": [0, 1, 3, 5, 7, 10, 13, None],
    "no_call_before_full_turn": [True, False],
    "asaf_penalty": [0, 25, 30],
    "failed_call_others": ["hand", "zero", "higher_only"],
    "out_over": [50, 100, 200, 500],
    "resets": ["standard", "200to150", "fifties", "halve", "none"],
    "three_zero_bonus": [True],
    "three_zero_once": [True],  # with three_zero_bonus
    "overcall": [True, False],
    "requests": [True, False],
    "slam": [True, False],
    "kluft": [True, False],
    "kluft_penalty": [30],
    "onderkluft_any": [True],
}
STRATEGIES = ["random", "threshold"]


def configurations(variants, options=True):
    """(label, variant, overrides) for each preset as it is and each valid single-option change."""
    for variant in variants:
        base = GAME.build_rules(variant)
        yield variant, variant, {}
        for key, values in VALUES.items() if options else ():
            for value in values:
                changes = {key: value}
                if key == "three_zero_once":
                    changes["three_zero_bonus"] = True
                try:
                    rules = GAME.build_rules(variant, changes)
                except SimcardsError:
                    continue
                if rules.as_dict() == base.as_dict():
                    continue  # the preset's own value
                shown = "none" if value is None else ",".join(map(str, value)) if isinstance(value, tuple) else value
                yield f"{variant} {key}={shown}", variant, changes


def measure(variant, changes, strategy, players, games, seed):
    sim = simcards.simulate("yaniv", variant=variant, rules=changes or None, players=players, games=games, seed=seed,
                            strategies=[strategy], threads=1)
    g, r = sim.games, sim.rounds
    return {"rounds": int(g["rounds"].sum()), "turns": int(g["turns"].sum()),
            "capped_rounds": int(g["capped_rounds"].sum()), "capped_games": int(g["capped"].sum()),
            "longest_round": int(r["turns"].max())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="games per configuration, strategy and player count")
    ap.add_argument("--variants", default=",".join(PRESETS))
    ap.add_argument("--players", default="2,4,max", help="player counts; 'max' = the most the deck allows")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--presets-only", action="store_true", help="the presets as they are, no option changed")
    ap.add_argument("--json", help="also write every measurement here")
    args = ap.parse_args()
    rows = []
    start = time.perf_counter()
    for label, variant, changes in configurations(args.variants.split(","), not args.presets_only):
        top = GAME.build_rules(variant, changes).max_players()
        counts = sorted({top if p == "max" else min(int(p), top) for p in args.players.split(",")})
        for strategy in STRATEGIES:
            for players in counts:
                m = measure(variant, changes, strategy, players, args.games, args.seed)
                rows.append({"config": label, "strategy": strategy, "players": players, **m})
                if m["capped_rounds"] or m["capped_games"]:
                    print(f"{label:<40} {strategy:<10} {players:>2}p  capped rounds {m['capped_rounds']:>5} "
                          f"of {m['rounds']:>6}  capped games {m['capped_games']}", flush=True)
    configs = len({r["config"] for r in rows})
    capped = [r for r in rows if r["capped_rounds"] or r["capped_games"]]
    longest = max(rows, key=lambda r: r["longest_round"])
    print(f"{configs} configurations x {len(STRATEGIES)} strategies x player counts = {len(rows)} runs of "
          f"{args.games} games, {sum(r['rounds'] for r in rows):,} rounds, {time.perf_counter() - start:.0f} s")
    print(f"runs that hit a cap: {len(capped)}; capped rounds {sum(r['capped_rounds'] for r in rows):,} of "
          f"{sum(r['rounds'] for r in rows):,}; capped games {sum(r['capped_games'] for r in rows)}")
    print(f"longest round: {longest['longest_round']} turns ({longest['config']}, {longest['strategy']}, "
          f"{longest['players']} players)")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"games": args.games, "seed": args.seed, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
