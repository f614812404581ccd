"""The contract, runs side (in the spirit of Axelrod's per-player test class), through the public
API only: games end within their caps; every strategy family is reproducible whatever the threads
and chunks, and never makes the kernel count an illegal decision; every option value that
``variants GAME`` lists plays, or is refused in one line."""

from __future__ import annotations

import numba
import pandas as pd
import pytest

import simcards
from simcards.errors import SimcardsError
from simcards.games import get_game
from tests.contract.registry import family_cases, option_cases, own_engine_cases, seat_specs

CAP_GAMES = 300


def table(game: str, family: str, mirror: bool = False) -> list[str]:
    """One spec per seat of the default table: ``family``'s table (registry.table_families)."""
    gdef = get_game(game)
    return seat_specs(gdef, gdef.players_for(gdef.build_rules(None)), family, mirror)


@pytest.mark.parametrize("game,family", family_cases())
def test_games_end_within_their_caps(game, family):
    """No game (and no round/hand/deal) stops at a cap with built-in strategies."""
    assert_no_caps(game, table(game, family))


@pytest.mark.slow
@pytest.mark.parametrize("game,family", own_engine_cases())
def test_games_end_within_their_caps_at_mirror_tables(game, family):
    """The same with a family that has an engine of its own at every seat (its own compile)."""
    assert_no_caps(game, table(game, family, mirror=True))


def assert_no_caps(game: str, specs: list[str]) -> None:
    sim = simcards.simulate(game, games=CAP_GAMES, seed=11, strategies=specs, detail=False, threads=1)
    capped = {c: int(sim.games[c].sum()) for c in sim.games.columns if c.startswith("capped")}
    assert "capped" in capped, f"{game}: the per-game table has no 'capped' column"
    assert all(v == 0 for v in capped.values()), f"{game} {specs}: {capped}"


def _two_threads() -> int:
    return 2 if numba.config.NUMBA_NUM_THREADS >= 2 else 1


@pytest.mark.parametrize("game,family", family_cases())
def test_every_family_is_reproducible(game, family):
    """Same seed → the same tables (per game and per unit), for 1 or 2 threads and any chunking."""
    specs = table(game, family)
    one = simcards.simulate(game, games=40, seed=5, strategies=specs, threads=1, chunk=40)
    two = simcards.simulate(game, games=40, seed=5, strategies=specs, threads=_two_threads(), chunk=7)
    pd.testing.assert_frame_equal(one.games, two.games)
    pd.testing.assert_frame_equal(one.detail, two.detail)
    other = simcards.simulate(game, games=40, seed=6, strategies=specs, threads=1, chunk=40)
    assert not one.games.equals(other.games), "another seed plays other games"


@pytest.mark.parametrize("game,family", family_cases())
def test_every_family_is_legal_only(game, family):
    """A built-in never chooses an option out of range: the kernel stops the run on one
    (``invalid_option="error"``), or counts it (``"first"``) where the table has the counter."""
    specs = table(game, family)
    sim = simcards.simulate(game, games=100, seed=3, strategies=specs, detail=False, invalid_option="first")
    if "invalid_decisions" in sim.games:
        assert int(sim.games["invalid_decisions"].sum()) == 0
    simcards.simulate(game, games=100, seed=3, strategies=specs, detail=False, invalid_option="error")


@pytest.mark.parametrize("game,option,value", option_cases())
def test_every_option_value_runs(game, option, value):
    """Each option alone, at each listed value and both ends of each range: a few games with
    their per-unit table, or one line naming the problem when the rules refuse the value."""
    gdef = get_game(game)
    try:
        rules = gdef.build_rules(None, {option: value})
        players = gdef.players_for(rules)
        gdef.check_players(rules, players)
    except SimcardsError as exc:
        assert str(exc) and "\n" not in str(exc), f"{option}={value}: a refusal must be one line"
        with pytest.raises(SimcardsError):
            simcards.simulate(game, games=1, rules={option: value})
        return
    sim = simcards.simulate(game, games=3, seed=1, rules={option: value}, threads=1)
    assert len(sim.games) == 3 and sim.detail is not None and len(sim.detail) > 0
    assert sim.summary["games"] == 3


def test_studies_work_for_a_new_game():
    """The studies read a game only through its declared metrics (GameDef.metrics): a fourth game
    gets compare, tune and tournament without any edit under simcards/studies."""
    from simcards.studies import compare, tournament, tune

    res = compare("high-card", ["standard", "quick"], games=50)
    assert set(res.tables["compare"]["variant"]) == {"standard", "quick"}
    res = tournament("high-card", ["random", "greedy"], games=50)
    assert len(res.tables["ratings"]) == 2
    res = tune("high-card", "greedy", ["lead_high=0,1"], games=40, confirm=0)
    assert len(res.tables["tune"]) == 2


_DIGESTS = """
import hashlib, json, sys
import pandas as pd
import simcards, simcards.games
from tests.contract.registry import TEST_GAMES, family_cases
simcards.games.GAMES.update(TEST_GAMES)
out = {}
for case in family_cases():
    game, family = getattr(case, "values", case)
    sim = simcards.simulate(game, games=40, seed=5, strategies=[family], threads=int(sys.argv[1]), chunk=int(sys.argv[2]))
    h = hashlib.sha256(pd.util.hash_pandas_object(sim.games).values.tobytes())
    h.update(pd.util.hash_pandas_object(sim.detail).values.tobytes())
    out[f"{game}/{family}"] = h.hexdigest()
print(json.dumps(out))
"""


def _digests(threads: int, chunk: int) -> dict:
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "NUMBA_NUM_THREADS": "2", "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", _DIGESTS, str(threads), str(chunk)], env=env, cwd=root,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_every_family_is_reproducible_on_two_threads():
    """The same tables on 1 and 2 numba threads, in a process that has 2 (the fast lane may run
    with NUMBA_NUM_THREADS=1, where the test above only varies the chunks)."""
    one, two = _digests(1, 40), _digests(2, 7)
    assert one == two and len(one) == len(family_cases())
