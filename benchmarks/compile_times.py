"""Cold compile times of each game's engines, for the first-run notice's estimate before a user
has compiled anything (``simcards.compiling``; written to ``simcards/data/compile_times.json``).

For each game, in a fresh numba cache, each command is run twice in a process of its own: cold
(compiles) and warm (loads the cache; the median of three runs); the difference is what the compile costs, CPU (user + sys
of the process) and wall:

- ``kernel``: ``simcards simulate GAME --games 1000`` (the built-in strategies' kernel);
- ``search``: then ``simulate GAME --strategy mc --games 4`` (the search players' engine, on top of
  the kernel's cache, as a user meets it after a first plain run);
- ``replay``: ``simcards replay GAME`` in another fresh cache (the reference engine's strategies);
- ``policy``: ``simulate GAME --strategy <example policy>`` on top of the kernel's cache (a user
  policy's engine: the example policies shipped in ``simcards/data/strategies``).

Run on an idle machine, one game at a time, and say which one (``--machine``):

    python benchmarks/compile_times.py --write --machine "a 2-core machine"
    python benchmarks/compile_times.py --games gin --engines kernel   # one figure, not written

The CPU seconds are what the notice shows (wall depends on how busy the machine is).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "simcards" / "data" / "compile_times.json"
GAMES = ("yaniv", "gin", "two-hundred")
ENGINES = ("kernel", "search", "replay", "policy")
COMMANDS = {
    "kernel": ["simulate", "{game}", "--games", "1000", "--threads", "1", "--no-progress"],
    "search": ["simulate", "{game}", "--strategy", "mc", "--games", "4", "--threads", "1", "--no-progress"],
    "replay": ["replay", "{game}"],
    "policy": ["simulate", "{game}", "--strategy", "{policy}", "--games", "4", "--threads", "1", "--no-progress"],
}
NEEDS = {"search": "kernel", "policy": "kernel"}  # measured on top of this engine's warm cache
STRATEGIES = ROOT / "simcards" / "data" / "strategies"
POLICIES = {"yaniv": "yaniv/greedy.py:greedy", "gin": "gin/lowball.py:lowball", "two-hundred": "two-hundred/cheap.py:cheap"}


def command(engine: str, game: str) -> list[str]:
    return [a.format(game=game, policy=STRATEGIES / POLICIES[game]) for a in COMMANDS[engine]]


def run(args: list[str], cache: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``simcards -q ARGS`` in a process of its own."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as a user's Python does: it keeps what it compiles
    res = subprocess.run([sys.executable, "-m", "simcards", "-q", *args], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode != 0:
        raise SystemExit(f"simcards {' '.join(args)} failed:\n{res.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def measure(game: str, engine: str, cache: str) -> dict:
    """The cold and warm runs of ``engine``'s command and their difference, the compile."""
    if engine in NEEDS:
        run(command(NEEDS[engine], game), cache)  # warm what it builds on
    args = command(engine, game)
    cold_cpu, cold_wall = run(args, cache)
    warm_cpu, warm_wall = sorted(run(args, cache) for _ in range(3))[1]  # the median of three warm runs
    return {"cpu": round(max(cold_cpu - warm_cpu, 0.0), 1), "wall": round(max(cold_wall - warm_wall, 0.0), 1),
            "cold_cpu": round(cold_cpu, 1), "warm_cpu": round(warm_cpu, 1),
            "command": "simcards " + " ".join(args).replace(f"{ROOT}/", "")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=list(GAMES), choices=GAMES)
    ap.add_argument("--engines", nargs="*", default=list(ENGINES), choices=ENGINES)
    ap.add_argument("--machine", default=f"a {os.cpu_count()}-core machine",
                    help="where this ran, as the notice says it (default: a N-core machine)")
    ap.add_argument("--write", action="store_true", help=f"update {DATA.relative_to(ROOT)}")
    args = ap.parse_args()

    from simcards.version import __version__

    figures: dict = {}
    load = os.getloadavg()[0]
    for game in args.games:
        for engine in args.engines:
            with tempfile.TemporaryDirectory(prefix="simcards-cold-") as cache:
                fig = measure(game, engine, cache)
            figures.setdefault(game, {})[engine] = fig
            print(f"{game:12} {engine:7} compile {fig['cpu']:6.1f} s CPU {fig['wall']:6.1f} s wall "
                  f"(cold {fig['cold_cpu']:.1f} s CPU, warm {fig['warm_cpu']:.1f} s)", flush=True)
    load = max(load, os.getloadavg()[0])
    print(f"load average (1 min, highest seen at start/end): {load:.2f} on {os.cpu_count()} cores")
    if args.write:
        data = json.loads(DATA.read_text()) if DATA.exists() else {}
        engines = data.get("engines", {})
        for game, figs in figures.items():
            engines.setdefault(game, {}).update(figs)
        data.update({"machine": args.machine, "simcards": __version__, "measured": time.strftime("%Y-%m-%d"),
                     "load_average": round(load, 2), "engines": engines,
                     "about": "cold compile of each engine (cold run minus warm run of the command), "
                              "written by benchmarks/compile_times.py; the notice shows the CPU seconds"})
        DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"wrote {DATA.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
