"""User policies cannot crash the process (issue 19.3, 19.6): an option index out of range stops
the run with one line (or, with --invalid-option first, plays option 0 and counts it, the same in
the kernel and the reference engine); a policy that is not @njit, has the wrong signature, returns
a float or raises is reported in one line naming it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import simcards
from simcards.cli import main
from simcards.errors import SimcardsError

HERE = Path(__file__).parent / "policies"
YANIV = str(HERE / "misbehave_yaniv.py") + ":misbehave"
BROKEN = str(HERE / "broken_yaniv.py")


def run(args, capsys):
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_line(err: str) -> str:
    """The one error line (a cold numba cache adds the compile notice's lines, "compiling ...",
    "now compiling ..." and "compiled ... in 9.9 s", and a policy file the notice that its code
    runs: "running code from ...")."""
    notices = ("compiling ", "now compiling ", "compiled ", "running code from ")
    lines = [ln for ln in err.strip().splitlines() if not ln.startswith(notices)]
    assert "Traceback" not in err and len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("spec,needle", [
    (YANIV + ":mode=1", "strategy 'misbehave' returned option 10 of "),
    (YANIV + ":mode=2", "strategy 'misbehave' returned option -1 of 2 (draw) in game 0"),
    (YANIV + ":mode=3", "strategy 'misbehave' returned option 5 of 5 (discard) in game 0"),
    (str(HERE / "misbehave_yaniv.toml"), "strategy 'misbehave' returned option 10 of "),  # mode = 1 in the preset
])
def test_yaniv_index_out_of_range_is_one_line(spec, needle, capsys):
    # Used to be read unchecked: a segfault (exit -11) with no message.
    code, _, err = run(["simulate", "yaniv", "--strategy", spec, "--strategy", "threshold", "--players", "2",
                        "--games", "30", "--seed", "3", "--no-progress"], capsys)
    assert code == 2
    assert needle in one_line(err)


def test_yaniv_first_plays_option_0_and_counts_it_in_both_engines():
    from simcards.games.yaniv import layout as L
    from simcards.games.yaniv.game import GAME
    from tests.yaniv_support import kernel_game, reference_game

    sim = simcards.simulate("yaniv", games=40, seed=3, players=2, strategies=[YANIV + ":mode=1", "threshold"],
                            invalid_option="first")
    assert sim.games["invalid_decisions"].sum() == sim.summary["invalid_decisions"] > 0
    assert "invalid_decisions" not in simcards.simulate("yaniv", games=5, seed=3, players=2).games  # built-ins
    rules = GAME.build_rules(None)
    specs = [YANIV + ":mode=3", "threshold"]
    for game in range(3):
        log, out, _ = kernel_game(rules, 2, specs, 3, game)
        strategies = GAME.strategies(specs, 2)
        from simcards.games.yaniv.game import engine_for, seat_arrays
        from simcards.games.yaniv.reference import play_reference

        sids, params = seat_arrays(strategies)
        rec = play_reference(rules, 2, sids, params, 3, game, engine_for(strategies)[0], on_invalid="first")
        assert np.array_equal(log, rec.log_array())  # the same moves: option 0 in both engines
        assert out[L.G_BAD] == rec.invalid > 0
    with pytest.raises(SimcardsError, match="returned option 5 of 5"):
        reference_game(rules, 2, specs, 3, 0)  # the reference engine stops too by default


def test_the_index_check_names_the_first_game_whatever_the_chunks():
    a = pytest.raises(SimcardsError, simcards.simulate, "yaniv", games=30, seed=3, players=2,
                      strategies=[YANIV + ":mode=2", "threshold"], chunk=7)
    b = pytest.raises(SimcardsError, simcards.simulate, "yaniv", games=30, seed=3, players=2,
                      strategies=[YANIV + ":mode=2", "threshold"], threads=1)
    assert str(a.value) == str(b.value)


def test_policy_that_raises_is_named(capsys):
    code, _, err = run(["simulate", "yaniv", "--strategy", YANIV + ":mode=4", "--strategy", "threshold",
                        "--players", "2", "--games", "10", "--no-progress"], capsys)
    assert code == 2
    assert "policy 'misbehave' raised ValueError: boom in discard (game 0, discard decision)" in one_line(err)
    code, _, err = run(["replay", "yaniv", "--strategy", YANIV + ":mode=4", "--players", "2"], capsys)
    assert code == 2 and "policy 'misbehave' raised ValueError: boom in discard" in one_line(err)
    code, _, err = run(["replay", "yaniv", "--strategy", YANIV + ":mode=1", "--players", "2"], capsys)
    assert code == 2 and "strategy 'misbehave' returned option 10 of" in one_line(err)
    code, out, _ = run(["replay", "yaniv", "--strategy", YANIV + ":mode=1", "--players", "2",
                        "--invalid-option", "first"], capsys)
    assert code == 0 and "wins after" in out


@pytest.mark.parametrize("name,needle", [
    ("plain", "policy 'plain' (plain in "),
    ("two_args", "does not compile for the decision signature (kind, params, ...): Signature mismatch: 9 argument"),
    ("floaty", "returns float64, not a whole number"),
    ("untyped", "Unknown attribute 'no_such_attribute'"),
])
def test_a_policy_that_cannot_compile_is_one_line(name, needle, capsys):
    code, _, err = run(["simulate", "yaniv", "--strategy", f"{BROKEN}:{name}", "--games", "5", "--no-progress"],
                       capsys)
    assert code == 2
    line = one_line(err)
    assert needle in line and "broken_yaniv.py" in line


def test_invalid_option_values_are_refused(capsys):
    code, _, err = run(["simulate", "yaniv", "--invalid-option", "skip", "--games", "5"], capsys)
    assert code == 2 and "invalid_option='skip': allowed error, first" in one_line(err)


@pytest.mark.slow
@pytest.mark.parametrize("game,seats,kind", [
    ("gin", ["{spec}", "simple"], "discard"),
    ("two-hundred", ["{spec}", "heuristic", "{spec}", "heuristic"], "play"),
])
def test_gin_and_two_hundred_behave_the_same(game, seats, kind, capsys):
    # Used to be a traceback (Gin: ValueError from the kernel) or a silent count (Two Hundred).
    path = str(HERE / f"misbehave_{game.replace('-', '_')}.py") + ":misbehave"

    def args(mode, *extra):
        out = ["simulate", game, "--games", "20", "--seed", "3", "--no-progress", *extra]
        for s in seats:
            out += ["--strategy", s.format(spec=f"{path}:mode={mode}")]
        return out

    code, _, err = run(args(1), capsys)
    line = one_line(err)
    assert code == 2 and "strategy 'misbehave' returned option 99 of" in line and f"({kind}) in game 0" in line
    code, out, err = run(args(1, "--invalid-option", "first", "--json"), capsys)
    assert code == 0, err
    import json

    assert json.loads(out)["invalid_decisions"] > 0
    code, _, err = run(args(2), capsys)
    assert code == 2 and "policy 'misbehave' raised ValueError: boom in" in one_line(err)
    code, _, err = run(["replay", game, "--seed", "3"] + args(1)[7:], capsys)
    assert code == 2 and "strategy 'misbehave' returned option 99 of" in one_line(err)


# ----- user policies are compiled once, then cached on disk (issue 16.16) ---------------------------
def test_engine_key_follows_the_policy_file(tmp_path):
    from numba import njit

    from simcards.policy import engine_key
    from simcards.strategy import Family

    src = (HERE / "misbehave_yaniv.py").read_text().replace('"misbehave"', '"keyed"')
    path = tmp_path / "keyed.py"
    path.write_text(src)
    simcards.strategy.load_plugin(path)
    fam = simcards.strategy.custom_families("yaniv")["keyed"]
    first = engine_key("yaniv", [fam])
    assert first and first == engine_key("yaniv", [fam]) and first != engine_key("gin", [fam])
    path.write_text(src + "\n# edited\n")  # the file changed: another key, so a fresh compile
    assert engine_key("yaniv", [fam]) != first
    scope = {}
    exec(compile("def typed_in(*a):\n    return 0\n", "<stdin>", "exec"), scope)  # as typed at a prompt
    interactive = Family("inline", 150, "x", (), False, njit(scope["typed_in"]))  # no source file: not cached
    assert engine_key("yaniv", [interactive]) is None


@pytest.mark.slow
def test_a_user_policy_engine_loads_from_the_disk_cache_on_the_next_run():
    # Used to recompile for 13-15 s on every run: the second process must load the rebuilt kernel.
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    args = [sys.executable, "-m", "simcards", "simulate", "yaniv", "--games", "20", "--no-progress",
            "--strategy", str(root / "simcards/data/strategies/yaniv/greedy.py") + ":greedy"]
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_NUM_THREADS": "1"}
    first = subprocess.run(args, capture_output=True, text=True, env=env, cwd=root)
    assert first.returncode == 0, first.stderr
    second = subprocess.run(args, capture_output=True, text=True, env={**env, "NUMBA_DEBUG_CACHE": "1"}, cwd=root)
    assert second.returncode == 0, second.stderr
    loaded = [ln for ln in second.stdout.splitlines() if "data loaded from" in ln and "play_round" in ln]
    saved = [ln for ln in second.stdout.splitlines() if "data saved to" in ln and "play_round" in ln]
    assert loaded and not saved, second.stdout[-2000:]
