"""Gin Rummy throughput: every preset on 1 and 2 threads (hands/s, and hands per CPU-second on one
thread relative to ``standard``), simcards simple vs simple and random vs random, exact deadwood
per hand, compile time cold and warm, and the same work side by side with OpenSpiel's
``gin_rummy`` (uniform random play and its simple bot) and RLCard's ``gin-rummy``.

    python benchmarks/bench_gin.py [--seconds 3] [--games 20000] [--skip-peers] [--presets-only]

The peers are optional (``pip install simcards[bench]``); a missing one is reported and skipped.
Rules side by side: simcards runs with the closest settings to each peer (OpenSpiel: gin 25,
undercut 25, a tie scores 0-0; RLCard has no lay-offs and no undercut, which simcards cannot turn
off — its numbers are an order of magnitude, not the same game). This is a benchmark script,
never a timed test; run it on an idle machine and repeat: on a busy 2-core box 2 threads can
show no speed-up at all.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # benchmark the checkout this file is in, not an installed copy


def _compile_time(cold: bool) -> float:
    """Seconds to import simcards and get a runnable gin engine, in a fresh process."""
    code = ("import time; t=time.perf_counter(); from simcards.games.gin.game import GAME; "
            "r=GAME.new_run(GAME.build_rules('standard'), 2, GAME.strategies(['simple'], 2)); "
            "print(time.perf_counter()-t)")
    env = dict(os.environ)
    if cold:
        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="simcards-cold-")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def bench_simcards(specs: list[str], games: int, overrides: dict | None = None, repeats: int = 3,
                   variant: str = "standard") -> dict:
    """Hands/s and games/s (wall clock) on 1 and 2 threads, and on 1 thread hands per CPU-second
    (``time.process_time``: the fairest figure on a shared machine)."""
    import numba

    from simcards.games.gin import layout as L
    from simcards.games.gin.game import GAME

    rules = GAME.build_rules(variant, overrides or {})
    run = GAME.new_run(rules, rules.players, GAME.strategies(specs, rules.players))
    out = {}
    for threads in (1, 2):
        if threads > numba.config.NUMBA_NUM_THREADS:
            continue
        numba.set_num_threads(threads)
        rates = []
        for rep in range(repeats):
            t, c = time.perf_counter(), time.process_time()
            g, _ = run.raw(rep + 1, 0, games, 0)
            dt, dc = time.perf_counter() - t, time.process_time() - c
            hands = g[:, L.G_HANDS].sum()
            rates.append((hands / dt, games / dt, hands / dc, g[:, L.G_TURNS].sum() / hands))
        hands = sorted(r[0] for r in rates)
        gps = sorted(r[1] for r in rates)
        cpu = sorted(r[2] for r in rates)
        out[threads] = {"hands_per_s": hands[len(hands) // 2], "hands_min": hands[0], "hands_max": hands[-1],
                        "games_per_s": gps[len(gps) // 2], "hands_per_cpu_s": cpu[len(cpu) // 2],
                        "cpu_min": cpu[0], "cpu_max": cpu[-1], "turns_per_hand": rates[0][3]}
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return out


def bench_presets(games: int, repeats: int) -> None:
    """Every preset, `simple` at every seat: hands/s on 1 and 2 threads and the single-thread CPU
    cost relative to `standard` (the issue's bound: no preset more than ~2x slower)."""
    from simcards.games.gin.rules import available

    base = None
    for name in available():
        res = bench_simcards(["simple"], games, None, repeats, variant=name)
        one = res[1]
        base = base or one["hands_per_cpu_s"]
        line = (f"preset {name:22s} 1 thread: {one['hands_per_s']:>9,.0f} hands/s, {one['hands_per_cpu_s']:>9,.0f} "
                f"per CPU-s [{one['cpu_min']:,.0f}-{one['cpu_max']:,.0f}] = {base / one['hands_per_cpu_s']:.2f}x "
                f"standard's CPU per hand ({one['turns_per_hand']:.1f} discards a hand)")
        if 2 in res:
            line += f"; 2 threads: {res[2]['hands_per_s']:>9,.0f} hands/s"
        print(line, flush=True)


def bench_deadwood(n: int = 2_000_000) -> float:
    from numba import njit

    from simcards.games.gin.melds import deadwood
    from simcards.rng import seed_state, shuffle

    @njit
    def hands(n):
        st = np.zeros(1, np.uint64)
        seed_state(st, 1, 0)
        d = np.arange(52)
        out = np.zeros(n, np.int64)
        for i in range(n):
            shuffle(st, d, 52)
            m = np.int64(0)
            for j in range(10):
                m |= np.int64(1) << d[j]
            out[i] = m
        return out

    @njit
    def solve(hs):
        t = 0
        for h in hs:
            t += deadwood(h)
        return t

    hs = hands(n)
    solve(hs[:10])
    best = 1e9
    for _ in range(3):
        t = time.perf_counter()
        solve(hs)
        best = min(best, (time.perf_counter() - t) / n * 1e9)
    return best


def bench_openspiel(seconds: float) -> dict | str:
    try:
        import pyspiel
    except ImportError as exc:
        return f"skipped: open-spiel is not installed ({exc})"
    game = pyspiel.load_game("gin_rummy")
    initial = game.new_initial_state()
    rng = np.random.default_rng(0)
    out = {}

    def play(choose, bots=()) -> int:
        for bot in bots:
            bot.restart()  # the simple bot remembers its knock between calls
        state = initial.clone()  # cloning beats building a new state (~1.5 ms)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                state.apply_action(choose(state))
        return 1

    def random_action(state):
        legal = state.legal_actions()
        return legal[rng.integers(len(legal))]

    out["random"] = _rate(lambda: play(random_action), seconds)
    try:
        bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in range(2)]

        def bot_action(state):
            return bots[state.current_player()].step(state)

        out["simple"] = _rate(lambda: play(bot_action, bots), seconds)
    except Exception as exc:  # an API change in a peer must not stop the benchmark
        out["simple"] = f"failed: {type(exc).__name__}: {exc}"
    return out


def bench_rlcard(seconds: float) -> dict | str:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError as exc:
        return f"skipped: rlcard is not installed ({exc})"
    out = {}
    env = rlcard.make("gin-rummy", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(2)])
    out["random"] = _rate(lambda: env.run(is_training=False) and 1, seconds)
    try:
        from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

        env2 = rlcard.make("gin-rummy", config={"seed": 0})
        env2.set_agents([GinRummyNoviceRuleAgent() for _ in range(2)])
        out["novice rule agent"] = _rate(lambda: env2.run(is_training=False) and 1, seconds)
    except Exception as exc:
        out["novice rule agent"] = f"failed: {type(exc).__name__}: {exc}"
    return out


def _rate(one_hand, seconds: float) -> float:
    one_hand()
    n = 0
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        one_hand()
        n += 1
    return n / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time budget per peer measurement")
    ap.add_argument("--games", type=int, default=20_000, help="games per simcards measurement (simple)")
    ap.add_argument("--skip-peers", action="store_true")
    ap.add_argument("--presets-only", action="store_true", help="only the per-preset table")
    ap.add_argument("--preset-games", type=int, default=10_000, help="games per preset measurement")
    ap.add_argument("--skip-compile", action="store_true")
    args = ap.parse_args()

    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} (results vary on a busy machine)")
    bench_presets(args.preset_games, 3)
    if args.presets_only:
        return
    if not args.skip_compile:
        print(f"compile: cold {_compile_time(True):.1f} s, warm (cached) {_compile_time(False):.2f} s")
    print(f"exact deadwood, random 10-card hand: {bench_deadwood():.1f} ns per hand")

    ours = {}
    for label, specs, games, over in (
        ("simple vs simple", ["simple"], args.games, None),
        ("random vs random", ["random"], max(2000, args.games // 10), None),
        ("simple vs simple, OpenSpiel scoring", ["simple"], args.games,
         {"gin_bonus": 25, "undercut_bonus": 25, "undercut_on_tie": False}),
    ):
        res = bench_simcards(specs, games, over)
        ours[label] = res
        for threads, r in res.items():
            print(f"simcards {label:38s} {threads} thread(s): {r['hands_per_s']:>11,.0f} hands/s "
                  f"(min {r['hands_min']:,.0f}, max {r['hands_max']:,.0f}), {r['games_per_s']:>9,.0f} games/s")

    if args.skip_peers:
        return
    peers = {"OpenSpiel gin_rummy": bench_openspiel(args.seconds), "RLCard gin-rummy": bench_rlcard(args.seconds)}
    per_core = {"random": ours["random vs random"][1]["hands_per_s"],
                "simple": ours["simple vs simple, OpenSpiel scoring"][1]["hands_per_s"]}
    for name, res in peers.items():
        if isinstance(res, str):
            print(f"{name}: {res}")
            continue
        for kind, rate in res.items():
            if isinstance(rate, str):
                print(f"{name} {kind}: {rate}")
                continue
            mine = per_core["random" if kind == "random" else "simple"]
            print(f"{name:22s} {kind:18s} {rate:>9,.0f} hands/s (1 core) — simcards 1 thread is {mine / rate:,.0f}x")


if __name__ == "__main__":
    main()
