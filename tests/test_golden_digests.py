"""Every seeded table of a fixed set of runs and studies is byte-identical to the recorded digests.

A change that must not alter any game's logic (a refactor, a new strategy family, a faster kernel)
keeps these digests; a change that alters results on purpose regenerates them
(``python tools/digests.py > tests/data/digests.json``) and says why in its commit message.
"""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    spec = importlib.util.spec_from_file_location("digests", ROOT / "tools" / "digests.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXPECTED = json.loads((ROOT / "tests" / "data" / "digests.json").read_text())


GAMES = ["yaniv", "gin", "two-hundred"]  # one test per game: each compiles only its own game's engines


def test_every_recorded_run_and_study_is_checked():
    tool = _tool()
    assert {run[0] for run in tool.RUNS} == {run[0] for run in tool.SEARCH_RUNS} == set(GAMES)
    assert all(_game_of_study(name) in GAMES for name in EXPECTED["studies"])


def _game_of_study(key: str) -> str:
    return key.split("/")[0].split()[-1]  # "compare yaniv/games" -> "yaniv"


@pytest.mark.parametrize("game", GAMES)
def test_seeded_runs_match_the_recorded_digests(game):
    tool = _tool()
    expected = {key: value for key, value in EXPECTED["runs"].items() if key.startswith(game + "/")}
    assert expected and tool.run_digests([run for run in tool.RUNS if run[0] == game]) == expected


@pytest.mark.parametrize("game", GAMES)
def test_studies_match_the_recorded_digests(game):
    expected = {key: value for key, value in EXPECTED["studies"].items() if _game_of_study(key) == game}
    assert expected and _tool().study_digests({game}) == expected


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_search_players_match_the_recorded_digests(game):
    """informed, mc and the presets built on them play the same seeded games however they attach
    (recorded before the search players moved out of the built-in kernels: issue 26)."""
    tool = _tool()
    expected = {key: value for key, value in EXPECTED["search"].items() if key.startswith(game + "/")}
    assert expected and tool.run_digests([run for run in tool.SEARCH_RUNS if run[0] == game]) == expected
