"""The two test workers' lanes (tests/conftest.py): every test that uses a game's engines runs in
that game's lane, so ``pytest -n 2 --dist loadgroup`` compiles each kernel in one worker."""

from pathlib import Path
from types import SimpleNamespace

from tests.conftest import LANES, NO_ENGINE, engine_game, lane
from tests.contract.registry import game_names

HERE = Path(__file__).parent


def _item(file: str, name: str, **params):
    return SimpleNamespace(path=HERE / file, originalname=name, name=name, callspec=SimpleNamespace(params=params))


def test_every_game_of_the_registry_has_a_lane_and_both_lanes_are_used():
    assert set(LANES) == set(game_names())
    assert set(LANES.values()) == {"lane-a", "lane-b"}


def test_a_test_goes_to_the_game_it_names_its_file_names_or_no_lane():
    assert engine_game(_item("contract/test_engines.py", "test_engines_agree", game="gin", family="simple")) == "gin"
    assert engine_game(_item("test_cost.py", "test_two_hundred_cards_played_match_the_transcript")) == "two-hundred"
    assert engine_game(_item("test_cost.py", "test_toy_game_count_matches_its_transcript")) == "high-card"
    assert engine_game(_item("test_gin_melds.py", "test_deadwood")) == "gin"
    assert engine_game(_item("test_yaniv_rules.py", "test_call")) == "yaniv"
    assert engine_game(_item("test_cli.py", "test_simulate")) == "yaniv"
    assert engine_game(_item("test_report.py", "test_bad_specs")) == "two-hundred"  # several games: the costliest
    assert engine_game(_item("test_analysis_stats.py", "test_wilson")) is None


def test_the_files_without_an_engine_exist():
    assert all((HERE / name).exists() for name in NO_ENGINE)


def test_yaniv_own_files_run_in_lane_a_on_the_kernels_lane_b_compiled():
    assert lane(_item("contract/test_cli.py", "test_cli_simulate", game="yaniv")) == LANES["yaniv"] == "lane-b"
    assert lane(_item("test_yaniv_engines.py", "test_agree")) == "lane-a"
    assert lane(_item("test_analysis_stats.py", "test_wilson")) is None
