"""Honest waiting while numba compiles (issue 26 item 5, ``simcards.compiling``): what compiles is
said with a live elapsed time, the estimate is a measurement read back, a warm cache and --quiet
say nothing, and the cache is read without importing or compiling anything.

The compiles here are stand-ins (a first call that sleeps inside numba's own "numba:compile"
event), so these tests take seconds; ``test_a_cold_toy_kernel_is_announced_and_measured`` compiles
a real (toy) kernel in a fresh process and is marked slow."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

import simcards.games
from simcards import compiling, nbutil
from simcards.games import engine as engine_mod
from simcards.games.engine import KernelBinding
from simcards.strategy import Family

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def isolated(monkeypatch, tmp_path):
    """Measurements in a fresh NUMBA_CACHE_DIR, no shipped figures unless a test writes some, and
    nothing left shown or open for the next test."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(compiling, "SHIPPED", tmp_path / "shipped.json")
    compiling.reset()
    yield
    compiling.reset()


def compile_once(seconds: float | None, result=0):
    """A function whose first call "compiles" for ``seconds``: inside numba's compile event, as a
    real compile is (None: loaded from the cache, no compile)."""
    from numba.core import event

    state = {"first": seconds is not None}

    def fn(*args):
        if state["first"]:
            state["first"] = False
            with event.trigger_event("numba:compile"):
                time.sleep(seconds)
        return result

    return fn


def binding(monkeypatch, cold: bool, seconds: float | None = 0.3, decide_seconds: float | None = 0.0, game: str = "toy",
            attached: tuple = ()) -> KernelBinding:
    monkeypatch.setattr(KernelBinding, "_cold", lambda self, key: cold)

    def build(decide, key):
        return compile_once(seconds), compile_once(seconds)

    return KernelBinding(game, (), compile_once(decide_seconds), compile_once(0), build, 0, attached=attached)


def cold_command(monkeypatch) -> io.StringIO:
    """A command's notices (``cli.common.err``) into the returned buffer, every cache cold."""
    from simcards.cli import common

    monkeypatch.setitem(common.VERBOSITY, "level", 0)
    monkeypatch.setattr(nbutil, "cache_is_cold", lambda source, key=None: True)
    monkeypatch.setattr(common, "err", Console(file=(buf := io.StringIO()), width=200))
    return buf


def compile_in(module: str, seconds: float = 0.0) -> None:
    """numba "compiles" a function of ``module`` for ``seconds`` (its compile event, as a real one)."""
    from numba.core import event

    def function():
        pass

    function.__module__ = module

    class Dispatcher:
        py_func = function

    with event.trigger_event("numba:compile", data={"dispatcher": Dispatcher()}):
        time.sleep(seconds)


def shown(terminal: bool = False, width: int = 200) -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=terminal, width=width, color_system=None)
    compiling.show_on(console)
    return console, buf


def test_a_cold_engine_says_what_compiles_and_how_long_it_took(monkeypatch):
    _, buf = shown()
    play_batch = binding(monkeypatch, cold=True, seconds=0.3).engine([]).play_batch
    play_batch(0, 0, 1)
    lines = buf.getvalue().splitlines()
    assert lines[0] == "compiling the toy kernel, once (cached for later runs)"  # no figure measured yet
    assert re.fullmatch(r"compiled the toy kernel in 0\.[3-9] s", lines[1]), lines
    assert len(lines) == 2
    play_batch(0, 0, 1)  # compiled: the next call says nothing
    assert len(buf.getvalue().splitlines()) == 2


def test_the_seconds_are_recorded_beside_the_numba_cache_and_read_back(monkeypatch, tmp_path):
    from simcards.version import __version__

    binding(monkeypatch, cold=True, seconds=0.6).engine([]).play_batch(0, 0, 1)
    path = tmp_path / "cache" / compiling.TIMES_FILE  # NUMBA_CACHE_DIR respected
    assert compiling.times_path() == path
    fig = json.loads(path.read_text())[__version__]["toy/kernel"]
    assert 0.6 <= fig["wall"] < 5 and fig["cpu"] >= 0
    _, buf = shown()
    binding(monkeypatch, cold=True, seconds=0.1).engine([]).play_batch(0, 0, 1)  # a wiped cache: compiles again
    assert buf.getvalue().splitlines()[0] == (f"compiling the toy kernel, once (cached for later runs): "
                                              f"about {fig['wall']:.0f} s (the last compile here)")


def test_after_an_upgrade_the_last_version_measured_is_the_estimate(monkeypatch, tmp_path):
    path = tmp_path / "cache" / compiling.TIMES_FILE
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"0.0.1": {"toy/kernel": {"wall": 12.0, "cpu": 11.0, "when": "2026-01-01T00:00:00"}},
                                "0.0.2": {"toy/kernel": {"wall": 17.0, "cpu": 15.0, "when": "2026-02-01T00:00:00"}}}))
    assert compiling.estimate("toy", "kernel") == (17.0, "the last compile here, simcards 0.0.2")


def test_before_any_compile_here_the_benchmark_figures_say_where_they_were_measured(tmp_path):
    (tmp_path / "shipped.json").write_text(json.dumps(
        {"machine": "a 2-core machine", "engines": {"toy": {"kernel": {"cpu": 53.2, "wall": 61.0}}}}))
    assert compiling.estimate("toy", "kernel") == (53.2, "measured on a 2-core machine")
    assert compiling.estimate("toy", "search") is None
    (tmp_path / "shipped.json").write_text(json.dumps(  # search compiled into the kernel when measured
        {"machine": "a 2-core machine", "engines": {"toy": {"search": {"cpu": 0.2, "wall": 0.4}}}}))
    assert compiling.estimate("toy", "search") is None  # not "about 0 s"


def test_the_shipped_figures_cover_every_game_plain_and_search():
    figures = json.loads((ROOT / "simcards" / "data" / "compile_times.json").read_text())
    assert "2-core" in figures["machine"]
    for game in simcards.games.GAMES:
        for engine in ("kernel", "search", "replay"):
            fig = figures["engines"][game][engine]
            assert fig["cpu"] > 0 and fig["wall"] > 0, (game, engine)


def test_the_elapsed_time_moves_on_a_terminal(monkeypatch):
    monkeypatch.setattr(compiling, "REFRESH", 20)
    _, buf = shown(terminal=True)
    binding(monkeypatch, cold=True, seconds=2.3).engine([]).play_batch(0, 0, 1)
    seen = {int(s) for s in re.findall(r"compiling the toy kernel, once \(cached for later runs\): (\d+) s", buf.getvalue())}
    assert {0, 1, 2} <= seen, seen
    assert "compiled the toy kernel in" not in buf.getvalue()  # on a terminal the status line just goes


def test_a_progress_bar_makes_way_for_the_status_line(monkeypatch):
    # a study's bar is live when a new engine (mc, a user policy) compiles: two live displays on
    # one terminal garble each other, so the bar closes (and comes back with the next games)
    class Bar:
        closed = 0

        def close(self):
            self.closed += 1
            compiling.live_display(self, False)

    bar = Bar()
    compiling.live_display(bar, True)
    shown(terminal=False)
    binding(monkeypatch, cold=True, seconds=0.1).engine([]).play_batch(0, 0, 1)
    assert bar.closed == 0  # a line, not a live display: nothing to make way for
    shown(terminal=True)
    binding(monkeypatch, cold=True, seconds=0.1).engine([]).play_batch(0, 0, 1)
    assert bar.closed == 1
    compiling.live_display(bar, False)


def test_the_ticker_does_not_slow_the_compile(monkeypatch):
    # the status refreshes a few times a second: CPU spent by this process while a compile waits
    # on the GIL-free sleep stays near nothing (a busy ticker would burn it)
    monkeypatch.setattr(compiling, "REFRESH", 4)
    shown(terminal=True)
    cpu = time.process_time()
    binding(monkeypatch, cold=True, seconds=1.5).engine([]).play_batch(0, 0, 1)
    assert time.process_time() - cpu < 0.3


def test_a_warm_cache_says_nothing_and_records_nothing(monkeypatch, tmp_path):
    _, buf = shown()
    eng = binding(monkeypatch, cold=False, seconds=None, decide_seconds=None).engine([])
    eng.play_batch(0, 0, 1)
    eng.decide(0)
    assert buf.getvalue() == ""
    assert not compiling.times_path().exists()


def test_a_compile_the_cache_did_not_predict_is_shown_once_it_lasts(monkeypatch):
    # a stale cache file looked warm, but numba compiles for longer than DELAY: say so anyway
    monkeypatch.setattr(compiling, "DELAY", 0.2)
    _, buf = shown()
    binding(monkeypatch, cold=False, seconds=0.6).engine([]).play_batch(0, 0, 1)
    lines = buf.getvalue().splitlines()
    assert lines[0] == "compiling the toy kernel, once (cached for later runs)"
    assert lines[1].startswith("compiled the toy kernel in 0.")


def test_quiet_says_nothing(monkeypatch):
    from simcards.cli import common

    monkeypatch.setitem(common.VERBOSITY, "level", -1)
    monkeypatch.setattr(nbutil, "cache_is_cold", lambda source, key=None: True)
    shown()
    common.announce_compile("yaniv")  # --quiet: compiles are no longer shown anywhere
    assert compiling._OUT["console"] is None
    binding(monkeypatch, cold=True, seconds=0.6).engine([]).play_batch(0, 0, 1)
    assert compiling.times_path().exists()  # still measured for the next estimate


def test_search_players_and_user_policies_say_which_engine_compiles(monkeypatch):
    _, buf = shown()
    mc = Family("mc", 7, "search", (), decide=compile_once(0))
    lowball = Family("lowball", 12, "a user policy", (), decide=compile_once(0))
    monkeypatch.setattr(engine_mod.policy, "compile_policy", lambda fam, signature: None)
    monkeypatch.setattr(engine_mod.policy, "chain", lambda inner, *a, **k: inner)
    monkeypatch.setattr(engine_mod.policy, "engine_key", lambda game, fams: "ab" * 32)
    b = binding(monkeypatch, cold=True, seconds=0.2, game="gin", attached=(mc,))
    b.engine([_Seat(mc)]).play_batch(0, 0, 1)
    b.engine([_Seat(mc), _Seat(lowball)]).play_batch(0, 0, 1)
    text = buf.getvalue()
    assert "compiling gin's search players (mc), once (cached for later runs)" in text
    assert "compiling gin's search players (mc) and policy 'lowball' into a gin kernel, once" in text
    monkeypatch.setattr(engine_mod.policy, "engine_key", lambda game, fams: None)  # defined interactively
    b.engine([_Seat(lowball)]).play_batch(0, 0, 1)
    assert buf.getvalue().splitlines()[-2] == "compiling policy 'lowball' into a gin kernel"  # not cached: no "once"


class _Seat:
    def __init__(self, family: Family):
        self.family = family


def test_the_command_opens_the_kernel_compile_before_the_game_is_imported_and_the_engine_continues_it(monkeypatch):
    # yaniv's import compiles already: the notice must be up before it, and said only once
    from simcards.cli import common

    buf = cold_command(monkeypatch)
    common.announce_compile("yaniv")
    assert buf.getvalue() == ""  # said when numba starts compiling, not before
    compile_once(0.2)()  # the import compiles
    assert buf.getvalue() == "compiling the yaniv kernel, once (cached for later runs)\n"
    binding(monkeypatch, cold=True, seconds=0.1, game="yaniv").engine([]).play_batch(0, 0, 1)
    lines = buf.getvalue().splitlines()
    assert len(lines) == 2 and lines[1].startswith("compiled the yaniv kernel in 0.")
    assert float(lines[1].split()[-2]) >= 0.3  # the wait counts from the command's start


def test_a_study_of_several_games_says_the_kernel_of_the_game_that_compiles(monkeypatch):
    # `simcards report` expects every cold game's kernel at once; numba compiles one at a time
    from simcards.cli import common

    buf = cold_command(monkeypatch)
    common.announce_compile("yaniv")
    common.announce_compile("gin")
    compile_in("simcards.games.gin.kernel")
    assert buf.getvalue() == "compiling the gin kernel, once (cached for later runs)\n"


def test_a_run_whose_engine_is_elsewhere_closes_the_compile_it_expected(monkeypatch):
    # a Dask run: the client imported the game (which compiled a little) and the workers compile
    # the engine; the client's notice must not tick on through the whole run
    from simcards.cli import common

    buf = cold_command(monkeypatch)
    common.announce_compile("yaniv")
    compile_once(0.1)()
    compiling.settle("yaniv")
    assert buf.getvalue() == "compiling the yaniv kernel, once (cached for later runs)\n"
    assert not compiling._ACTIVE and not compiling.times_path().exists()


def test_a_cold_looking_cache_that_loads_says_nothing(monkeypatch):
    # the cache check only guesses (a kernel moved to another file): nothing is said unless numba compiles
    _, buf = shown()
    eng = binding(monkeypatch, cold=True, seconds=None, decide_seconds=None).engine([])
    eng.play_batch(0, 0, 1)
    eng.decide(0)
    assert buf.getvalue() == ""
    assert not compiling.times_path().exists()


def test_the_cache_check_tells_the_kernel_from_engines_rebuilt_under_a_key(monkeypatch, tmp_path):
    kernel = ROOT / "simcards" / "games" / "gin" / "kernel.py"
    monkeypatch.setattr(nbutil, "cache_dir", lambda anchor: tmp_path)
    key = "0123456789abcdef" * 4
    assert nbutil.cache_is_cold(kernel) and nbutil.cache_is_cold(kernel, key)
    (tmp_path / f"kernel.play_round-88.py311.u{key[:20]}.nbi").write_text("")  # a search engine's
    assert nbutil.cache_is_cold(kernel) and not nbutil.cache_is_cold(kernel, key)
    assert nbutil.cache_is_cold(kernel, "f" * 64)
    (tmp_path / "kernel.play_batch-814.py311.nbi").write_text("")
    assert not nbutil.cache_is_cold(kernel)


def test_the_check_imports_no_kernel():
    # importing a kernel may compile it: the CLI's check must not import one
    code = ("import sys; from simcards.cli import common; common.announce_compile('gin'); "
            "common.announce_compile('yaniv', replay=True); "
            "print(sorted(m for m in sys.modules if m.startswith('simcards.games.')))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "NUMBA_CACHE_DIR": os.environ["NUMBA_CACHE_DIR"]})
    assert res.returncode == 0, res.stderr
    assert "kernel" not in res.stdout and ".game'" not in res.stdout, res.stdout
    assert res.stderr == ""  # expected (an empty cache), but nothing compiled: nothing said


def test_replay_announces_what_it_compiles_toy(monkeypatch):
    # `simcards replay` said nothing while it compiled (issue 26): it announces like simulate
    from simcards.cli import common, main
    from tests.contract.registry import TEST_GAMES

    for name, module in TEST_GAMES.items():
        monkeypatch.setitem(simcards.games.GAMES, name, module)
    from tests.toygame.game import GAME

    b = binding(monkeypatch, cold=True, seconds=0.0, decide_seconds=0.4, game="high-card")
    plain = GAME.replay

    def replay(rules, players, strategies, *args):
        b.engine(strategies).decide(0)  # the reference engine's first decision compiles its strategies
        return plain(rules, players, strategies, *args)

    monkeypatch.setattr(GAME, "replay", replay)
    monkeypatch.setattr(nbutil, "cache_is_cold", lambda source, key=None: True)
    monkeypatch.setattr(common, "err", Console(file=(buf := io.StringIO()), width=200))
    assert main(["replay", "high-card", "--seed", "3"]) == 0
    lines = buf.getvalue().splitlines()
    assert lines[0] == "compiling the high-card strategies for the reference engine, once (cached for later runs)"
    assert re.fullmatch(r"compiled the high-card strategies for the reference engine in 0\.[4-9] s", lines[1]), lines
    buf.truncate(0)
    buf.seek(0)
    assert main(["-q", "replay", "high-card", "--seed", "3"]) == 0
    assert buf.getvalue() == ""


@pytest.mark.slow
def test_a_cold_toy_kernel_is_announced_and_measured(tmp_path):
    # a real compile (the toy game's kernel, a fresh cache) in a process of its own, piped stderr
    script = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from rich.console import Console
from simcards import compiling
from simcards.games.engine import KernelBinding
from tests.toygame import kernel as K
from tests.toygame.game import GAME, seat_arrays

compiling.show_on(Console(stderr=True, width=200))


def build(decide, key):
    return K.play_game, K.play_batch


build.__module__ = K.__name__  # the kernel whose cache is looked at: tests/toygame/kernel.py
b = KernelBinding("high-card", (), None, None, build, 0)
import numpy as np
sids, params = seat_arrays(GAME.strategies(["greedy", "random"], 2))
games = np.zeros((1, K.G_WIDTH), np.int64)
b.engine([]).play_batch(0, 0, 1, GAME.build_rules(None).encode(), 2, sids, params, games,
                        np.zeros((0, K.R_WIDTH), np.int32), 0)
print(compiling.estimate("high-card", "kernel"))
"""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    lines = res.stderr.splitlines()
    assert lines[0] == "compiling the high-card kernel, once (cached for later runs)", lines
    took = float(re.fullmatch(r"compiled the high-card kernel in ([\d.]+) s", lines[1]).group(1))
    assert f"({took:.1f}, 'the last compile here')" == res.stdout.strip()
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT)
    assert res.returncode == 0 and res.stderr == ""  # warm: nothing


def test_the_status_line_fits_an_80_column_terminal(monkeypatch):
    # a live line wider than the terminal wraps, and every refresh leaves the wrapped part behind
    console, _ = shown(terminal=True, width=80)
    c = compiling.Compile("toy", None, "toy's search players (informed, mc, deep, camper) and policy 'lowball' "
                                       "into a toy kernel", cold=True)
    c._guess = (None, "about 34 s (measured on a 2-core machine)")
    line = compiling._Ticker(c, console, 0).text()
    assert len(line) <= 80 - compiling.STATUS_MARGIN, line
    assert line.startswith("compiling toy's search players") and line.endswith("…: 0 s of about 34 s"), line
    c.label = "the toy kernel"  # "once (cached ...)" gives way first
    assert compiling._Ticker(c, console, 0).text() == "compiling the toy kernel: 0 s of about 34 s (measured on a 2-core machine)"
    short = compiling.Compile("toy", None, "the toy kernel", cold=True)
    assert compiling._Ticker(short, console, 0).text() == "compiling the toy kernel, once (cached for later runs): 0 s"


def test_a_report_times_each_game_from_its_own_compile_not_from_the_start(monkeypatch):
    # `simcards report` expects every cold game's kernel at the start, and plays its studies in turn:
    # a shared function compiling for the first game must not start (or show) the second game's
    # notice, and the second game's seconds count from its own first compile (a report once said
    # "compiled the two-hundred kernel in 1259.9 s", and recorded that as the next run's estimate)
    from simcards.cli import study

    buf = cold_command(monkeypatch)
    study._announce("yaniv", "two-hundred")
    compile_once(0.05)()  # a shared function (simcards.rng, say) compiles while yaniv's study runs
    assert buf.getvalue() == ""
    binding(monkeypatch, cold=True, seconds=0.05, game="yaniv").engine([]).play_batch(0, 0, 1)
    time.sleep(0.4)  # yaniv's study plays on

    compile_in("simcards.games.two_hundred.kernel", 0.05)  # two-hundred's import compiles
    binding(monkeypatch, cold=True, seconds=0.05, game="two-hundred").engine([]).play_batch(0, 0, 1)
    lines = buf.getvalue().splitlines()
    assert lines[0] == "compiling the yaniv kernel, once (cached for later runs)"
    assert lines[2] == "compiling the two-hundred kernel, once (cached for later runs)"
    assert lines[3].startswith("compiled the two-hundred kernel in ")
    assert 0.1 <= float(lines[3].split()[-2]) < 0.4  # its own compiles, not the yaniv study's time
