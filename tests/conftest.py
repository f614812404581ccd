"""Shared test settings: hypothesis profiles sized for a 2-core CI machine, and the two workers' lanes."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# ----- two cores: ``python -m pytest -n 2 --dist loadgroup`` (README, .ci/run) --------------------
# Compiling the numba engines is most of the suite's CPU (cold, each game: the plain kernel 15-45 s,
# the search players' engine, a replay's strategies). Every test that uses a game's engines joins that game's lane (an xdist group), so one
# worker compiles a kernel (the other, should it need one later, loads it from the shared cache:
# ``_lock_numba_cache``); tests that use no engine run on whichever worker is free and even out the
# two lanes at the end.
LANES = {"two-hundred": "lane-a", "high-card": "lane-a", "gin": "lane-b", "yaniv": "lane-b"}
_WORDS = {"yaniv": "yaniv", "gin": "gin", "hundred": "two-hundred", "toy": "high-card", "high": "high-card"}
# Test files whose names do not say which game's engines they use: a file that plays several games
# goes to the lane of the costliest one, Two Hundred's.
FILE_GAMES = {"test_cli.py": "yaniv", "test_skill_luck.py": "high-card", "test_run_dir_safety.py": "yaniv",
              "test_runaway_policy.py": "yaniv", "test_trust_and_specs.py": "yaniv", "test_study_answers.py": "yaniv",
              "test_names.py": "yaniv", "test_strategy_files.py": "yaniv", "test_study_kinds.py": "yaniv",
              "test_compile_notice.py": "high-card", "test_detail_room.py": "two-hundred"}
TEST_GAMES = {"test_adaptive_spends_fewer_games_than_the_flat_grid_when_the_answer_is_clear": "gin"}  # one Gin test
# Files that compile no engine (checked on a cold cache, each alone): on whichever worker is free.
NO_ENGINE = {"test_analysis_moments.py", "test_analysis_plots.py", "test_analysis_stats.py", "test_equilibrium.py",
             "test_rules_docs.py", "test_spine_hygiene.py", "test_numba_support.py", "test_run_dir.py", "test_lanes.py",
             "test_analysis_coverage.py", "test_speed_of_light.py"}


def engine_game(item) -> str | None:
    """The game whose engines ``item`` compiles: a game named by its parameters, else by its own
    name, else by its file; None for a file that compiles none."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    for value in params.values():
        if isinstance(value, str) and value in LANES:
            return value
    own = getattr(item, "originalname", item.name)
    if own in TEST_GAMES:
        return TEST_GAMES[own]
    for word in own.split("_"):
        if word in _WORDS:
            return _WORDS[word]
    name = item.path.name
    if name in NO_ENGINE:
        return None
    if name in FILE_GAMES:
        return FILE_GAMES[name]
    for word in name.removesuffix(".py").split("_"):
        if word in _WORDS:
            return _WORDS[word]
    return "two-hundred"  # unknown: the lane that compiles the most already


def lane(item) -> str | None:
    """``item``'s lane: its game's; but Yaniv's own files (test_yaniv_*.py) run in lane a, on the
    kernels lane b compiled at its start (the contract tests come first) and lane a loads from the
    shared cache: that evens out the lanes (measured cold, before: lane b 485 CPU-s, lane a 385)."""
    game = engine_game(item)
    if game == "yaniv" and item.path.name.startswith("test_yaniv_"):
        return "lane-a"
    return None if game is None else LANES[game]


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items):
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        name = lane(item)
        if name is not None:
            item.add_marker(pytest.mark.xdist_group(name))


def _lock_numba_cache() -> None:
    """The two workers share one numba cache, which ``simcards.nbutil`` makes safe to share: every
    simcards process (these workers, the Dask workers and subprocesses the tests start) holds a
    lock beside a function's index while it saves or loads it, so a worker loads what the other
    compiled (a kernel is then compiled once per run, whichever worker needs it first) and never
    another signature's code or a half-written entry. Where numba's internals differ and it cannot,
    each worker gets a cache directory of its own instead."""
    try:
        from numba.core.caching import IndexDataCacheFile

        IndexDataCacheFile("probe", "probe", None)._index_path  # noqa: B018  (what the lock is named after)
        import simcards.nbutil  # noqa: F401  (locks the cache files when imported)

        locked = getattr(IndexDataCacheFile, "simcards_locked", False)
    except (ImportError, AttributeError, TypeError):
        locked = False
    if not locked and os.environ.get("PYTEST_XDIST_WORKER"):
        _own_numba_cache()


def _own_numba_cache() -> None:
    """The fallback: this worker caches in a directory of its own, below NUMBA_CACHE_DIR or
    .pytest_cache/numba (subprocesses the tests start inherit it)."""
    worker = os.environ["PYTEST_XDIST_WORKER"]
    base = os.environ.get("NUMBA_CACHE_DIR") or str(Path(__file__).resolve().parents[1] / ".pytest_cache" / "numba")
    os.environ["NUMBA_CACHE_DIR"] = str(Path(base) / worker)
    from numba.core import config

    config.reload_config()  # before any kernel module is imported: numba reads it per function


_lock_numba_cache()
if os.environ.get("PYTEST_XDIST_WORKER"):
    # An xdist worker starts with COLUMNS=80 and LINES=24 in its environment, which rich reads once
    # at import and keeps (a serial run has none: the tests that set COLUMNS then get that width).
    for _name in ("COLUMNS", "LINES"):
        os.environ.pop(_name, None)
