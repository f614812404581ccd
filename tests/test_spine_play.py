"""Issue 14, one resolve step and one play loop: every entry point resolves a ``RunSpec`` once and
plays through ``simcards.play``; a run's summary is computed once (from the table, or from streamed
partial sums, never both); the CLI gets a row's seat from data, not from display text."""

from __future__ import annotations

import ast
import dataclasses
import json
import pickle
from pathlib import Path

import pytest

import simcards
import simcards.api
import simcards.studies.common
from simcards import play
from simcards.cli.app import main
from simcards.errors import SimcardsError
from simcards.games import get_game
from simcards.games.base import SeatLabel
from simcards.spec import RunSpec
from simcards.stats.aggregate import Aggregator

GDEF = get_game("yaniv")


@pytest.fixture
def calls(monkeypatch):
    """Counts of whole-table summaries (``GameDef.summarize``) and per-chunk partial sums."""
    n = {"summarize": 0, "partial": 0}
    summarize, partial = GDEF.summarize, Aggregator.partial

    def counted_summarize(games, players):
        n["summarize"] += 1
        return summarize(games, players)

    def counted_partial(self, games):
        n["partial"] += 1
        return partial(self, games)

    monkeypatch.setattr(GDEF, "summarize", counted_summarize)  # the instance: Aggregator records the class's
    monkeypatch.setattr(Aggregator, "partial", counted_partial)
    return n


def test_table_mode_summarizes_once_from_the_table(calls):
    sim = simcards.simulate("yaniv", games=300, seed=4, chunk=100)
    assert sim.summary["games"] == 300
    # one partial of the whole table, finished as the streamed sums are (play.table_summary: the
    # same numbers, bit for bit, as --summary-only); no per-chunk sums beside the table
    assert calls == {"summarize": 0, "partial": 1}


@pytest.mark.parametrize("kw", [{"summary_only": True}, {"keep_games": False}])
def test_without_a_table_the_sums_are_streamed_once_per_chunk(calls, kw):
    sim = simcards.simulate("yaniv", games=300, seed=4, chunk=100, **kw)
    assert calls == {"summarize": 0, "partial": 3}
    table = simcards.simulate("yaniv", games=300, seed=4, chunk=100)
    assert _summary_text(sim) == _summary_text(table)


def _summary_text(sim) -> str:
    return json.dumps({k: v for k, v in sim.summary_dict().items() if k != "meta"}, default=str)


@pytest.mark.parametrize("kw,needle", [
    ({"game": "chess"}, "unknown game"),
    ({"variant": "swiss"}, "unknown Yaniv variant"),
    ({"players": 1}, "1"),
    ({"players": "3"}, "players='3': give a whole number"),
    ({"strategies": "psychic"}, "unknown yaniv strategy"),
    ({"strategies": ["random"] * 3, "players": 4}, "exactly 4 (one per seat); got 3"),
    ({"rules": {"decks": 3}}, "decks=3"),
    ({"seed": -1}, "seed=-1: give a whole number from 0 to 2**63-1"),
    ({"seed": True}, "seed=True"),
    ({"invalid_option": "maybe"}, "invalid_option='maybe'"),
])
def test_runspec_refuses_bad_input_in_one_line(kw, needle):
    game = kw.pop("game", "yaniv")
    with pytest.raises(SimcardsError) as exc:
        RunSpec.resolve(game, **kw)
    assert needle in str(exc.value) and "\n" not in str(exc.value)


def test_runspec_is_frozen_and_its_job_travels():
    spec = RunSpec.resolve("yaniv", players=3, strategies=["threshold:call=3", "random", "random"], seed=9)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.players = 4  # type: ignore[misc]
    assert (spec.game, spec.variant, spec.players, spec.seed) == ("yaniv", GDEF.default_variant, 3, 9)
    job = pickle.loads(pickle.dumps(spec.job(remote=True)))  # what a Dask worker receives
    assert job.strategies == ("threshold:call=3", "random", "random")
    assert (job.game, job.players, job.seed, job.rules) == ("yaniv", 3, 9, spec.rules)
    two = spec.with_seats(["random"]).replace(seed=2, detail=True)
    assert (two.specs, two.seed, two.detail, spec.seed) == (["random"] * 3, 2, True, 9)


@pytest.fixture
def resolved(monkeypatch):
    """Every RunSpec.resolve and every pass through the play loop, as they happen."""
    seen: dict[str, list] = {"resolve": [], "loop": []}
    resolve, loop = RunSpec.resolve.__func__, play.play_ranges

    def counted_resolve(cls, game, **kw):
        spec = resolve(cls, game, **kw)
        seen["resolve"].append(spec)
        return spec

    def counted_loop(job, *args, **kw):
        seen["loop"].append(job)
        return loop(job, *args, **kw)

    monkeypatch.setattr(RunSpec, "resolve", classmethod(counted_resolve))
    monkeypatch.setattr(play, "play_ranges", counted_loop)
    return seen


def test_every_entry_point_resolves_a_runspec_and_plays_through_the_one_loop(resolved, capsys):
    from simcards.studies.common import Arena as Table

    simcards.simulate("yaniv", games=20, seed=1)
    assert len(resolved["resolve"]) == 1 and len(resolved["loop"]) == 1
    assert main(["simulate", "yaniv", "-n", "20", "--no-progress", "--json"]) == 0
    assert len(resolved["resolve"]) == 2 and len(resolved["loop"]) == 2
    assert main(["replay", "yaniv", "--seed", "1", "--players", "2"]) == 0
    assert len(resolved["resolve"]) == 3 and resolved["resolve"][-1].players == 2
    t = Table("yaniv", players=3)
    assert len(resolved["resolve"]) == 4 and t.spec is resolved["resolve"][-1]
    df = t.play(t.lineup_strats((0, 1, 0), [t.strategy("random"), t.strategy("threshold:call=3")]), 5, 10, 30)
    assert list(df["game"]) == list(range(10, 40)) and len(resolved["loop"]) == 3
    assert resolved["loop"][-1].strategies[1].spec == "threshold:call=3"


def test_study_table_rows_equal_simulate_rows():
    from simcards.studies.common import Arena as Table

    t = Table("yaniv", players=3)
    rows = t.play([t.strategy("random")] * 3, 7, 0, 120)
    sim = simcards.simulate("yaniv", players=3, games=120, seed=7, strategies="random", chunk=50)
    assert rows.equals(sim.games)


def test_the_old_loops_are_gone():
    package = Path(simcards.__file__).parent
    assert not (package / "runner.py").exists()  # run_chunked (dead), play_games (a test's only)
    assert not hasattr(simcards.api, "_run") and not hasattr(simcards.studies.common.Arena, "_play_on")


def test_summary_rows_say_their_seat_as_data():
    sim = simcards.simulate("yaniv", players=3, games=30, seed=2)
    seats = [label.seat for label, _ in GDEF.summary_rows(sim.summary) if isinstance(label, SeatLabel)]
    assert seats == [0, 1, 2]


def test_cli_names_a_seats_strategy_from_data_not_from_display_text(monkeypatch, capsys):
    code = main(["simulate", "yaniv", "-n", "20", "--players", "2", "--strategy", "random,threshold:call=3",
                 "--no-progress"])
    text = capsys.readouterr().out
    assert code == 0 and "seat 1 wins (threshold:call=3)" in text and "seat 0 wins (random)" in text
    # a row whose text merely starts like a seat row is not about a seat
    monkeypatch.setattr(GDEF, "summary_rows", lambda s: [("seat 1 wins the most", "x")])
    assert main(["simulate", "yaniv", "-n", "20", "--players", "2", "--strategy", "random,threshold:call=3",
                 "--no-progress"]) == 0
    assert "seat 1 wins the most (threshold" not in capsys.readouterr().out


def test_no_module_imports_another_modules_private_names():
    root = Path(simcards.__file__).parent
    found = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("simcards"):
                found += [f"{path.relative_to(root)}: {node.module}.{a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert found == []


def test_no_function_in_the_games_takes_over_12_parameters_or_120_lines():
    """Issue 26: state travels as records, not two dozen positional arrays, and a function reads in
    one sitting. (Counted on the source: every parameter, ``*args`` and ``**kwargs`` included.)"""
    root = Path(simcards.__file__).parent
    found = []
    for path in (root / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                n_params = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None) + (
                    a.kwarg is not None)
                n_lines = node.end_lineno - node.lineno + 1
                if n_params > 12 or n_lines > 120:
                    found.append(f"{path.relative_to(root)}: {node.name} ({n_params} parameters, {n_lines} lines)")
    assert found == []


def test_run_metadata_versions_have_a_public_home():
    from simcards.studies.tournament import tournament

    res = tournament("yaniv", strategies=["random", "threshold:call=3"], games=10, seed=1, players=2)
    assert res.meta["versions"] == play.versions() and res.meta["versions"]["simcards"] == simcards.__version__
