"""The per-game machinery lives once (simcards.games.engine, base.GameRun): one policy signature
and one binding for every game, one overflow replay of long games."""

from __future__ import annotations

from pathlib import Path

import pytest

import simcards
from simcards.games import engine
from simcards.games.base import GameRun
from simcards.games.gin.game import GinRun
from simcards.games.two_hundred.game import TwoHundredRun
from simcards.games.yaniv.game import YanivRun

POLICY = str(Path(__file__).parent / "policies" / "any_game.py") + ":any_game"
SEATS = {"yaniv": 2, "gin": 2, "two-hundred": 4}


@pytest.mark.slow
@pytest.mark.parametrize("game", list(SEATS))
def test_one_policy_source_runs_under_every_game(game):
    # Used to fail for Two Hundred: its policies had no `n` (decide(kind, params, hand, opts, ...)).
    def run(mode: int, **kw):  # every seat plays the policy
        return simcards.simulate(game, games=6, seed=11, players=SEATS[game], strategies=[f"{POLICY}:mode={mode}"],
                                 **kw)

    legal = run(0)
    assert legal.games["invalid_decisions"].sum() == 0
    assert run(2, invalid_option="first").games["invalid_decisions"].sum() == 0  # n is a card count
    bad = run(1, invalid_option="first").games  # the policy is really asked, in every game
    assert (bad["invalid_decisions"] > 0).all()


def test_every_game_uses_the_shared_machinery():
    # One Run machinery, one binding, one signature: only the hand and option types differ.
    for run in (YanivRun, GinRun, TwoHundredRun):
        assert issubclass(run, GameRun) and "play" not in vars(run) and "raw" not in vars(run)
        assert isinstance(run.binding, engine.KernelBinding)
    sigs = [run.binding.signature for run in (YanivRun, GinRun, TwoHundredRun)]
    assert all(len(s) == 9 for s in sigs) and sigs[0] == sigs[1]
    assert TwoHundredRun.binding.signature[2] == engine.CARD_MASK


@pytest.mark.slow
def test_a_two_hundred_user_engine_loads_from_the_disk_cache_on_the_next_run():
    # Two Hundred's user engines are rebuilt by nbutil.rebind, as Gin's and Yaniv's: cached on disk.
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    cheap = str(root / "simcards/data/strategies/two-hundred/cheap.py") + ":cheap"
    args = [sys.executable, "-m", "simcards", "simulate", "two-hundred", "--games", "10", "--no-progress"]
    for spec in (cheap, "heuristic", cheap, "heuristic"):
        args += ["--strategy", spec]
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_NUM_THREADS": "1"}
    first = subprocess.run(args, capture_output=True, text=True, env=env, cwd=root)
    assert first.returncode == 0, first.stderr
    second = subprocess.run(args, capture_output=True, text=True, env={**env, "NUMBA_DEBUG_CACHE": "1"}, cwd=root)
    assert second.returncode == 0, second.stderr
    loaded = [ln for ln in second.stdout.splitlines() if "data loaded from" in ln and "play_games" in ln]
    saved = [ln for ln in second.stdout.splitlines() if "data saved to" in ln and "play_games" in ln]
    assert loaded and not saved, second.stdout[-2000:]
