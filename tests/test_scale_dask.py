"""The Dask distributed backend on a real LocalCluster with 2 worker processes: the same tables
byte for byte as the local backend, worker deaths retried by index range, clear errors."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest

pytest.importorskip("distributed")

import simcards  # noqa: E402
from simcards.backends import make_backend, using  # noqa: E402
from simcards.cli import main  # noqa: E402
from simcards.errors import SimcardsError  # noqa: E402

FAULT_FIRST = 5 * 333  # range starts only the worker-failure tests use
RAISE_FIRST = 4 * 311


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    marker = tmp_path_factory.mktemp("fault") / "killed"
    raised = marker.with_name("raised")
    # inherited by the worker processes
    os.environ["SIMCARDS_FAULT_KILL"] = f"{FAULT_FIRST}:{marker},{RAISE_FIRST}:{raised}:raise"
    try:
        be = make_backend("dask", workers=2)
    finally:
        del os.environ["SIMCARDS_FAULT_KILL"]
    assert be.workers == 2
    be.raised = raised
    yield be, marker
    be.close()


def parquet_bytes(d):
    return {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.suffix == ".parquet"}


@pytest.mark.parametrize("game,games,chunk", [("two-hundred", 4000, 500), ("yaniv", 400, 90)])
def test_same_tables_byte_for_byte_as_local(cluster, tmp_path, game, games, chunk):
    be, _ = cluster
    kw = dict(games=games, seed=17, chunk=chunk, players=None)
    local = simcards.simulate(game, out=tmp_path / "local", keep_detail=True, **kw)
    remote = simcards.simulate(game, out=tmp_path / "dask", keep_detail=True, backend=be, **kw)
    assert remote.meta["backend"] == "dask" and remote.meta["workers"] == 2
    pd.testing.assert_frame_equal(local.games, remote.games)  # first: says which rows differ
    pd.testing.assert_frame_equal(local.detail, remote.detail)
    assert local.summary == remote.summary
    assert parquet_bytes(tmp_path / "local") == parquet_bytes(tmp_path / "dask")


def test_summary_only_on_workers_matches_local(cluster):
    be, _ = cluster
    kw = dict(games=5000, seed=3, chunk=600, strategies=["heuristic", "random"] * 2)
    assert simcards.simulate("two-hundred", summary_only=True, backend=be, **kw).summary == \
        simcards.simulate("two-hundred", summary_only=True, **kw).summary


def test_a_failed_range_is_resubmitted_by_the_client(cluster):
    """A task error (not a simcards input error) is retried on the same range under a new key.

    Runs before the dead-worker test: a worker the nanny restarts is spawned from this process,
    which no longer has SIMCARDS_FAULT_KILL, so after a kill only one worker still carries the hook."""
    be, _ = cluster
    kw = dict(games=2000, seed=12, chunk=311, summary_only=True)
    remote = simcards.simulate("two-hundred", backend=be, **kw)
    assert be.raised.exists(), "the fault hook did not fire"
    assert remote.summary == simcards.simulate("two-hundred", **kw).summary


def test_a_dead_worker_is_retried_by_range_without_losing_or_duplicating(cluster, tmp_path):
    be, marker = cluster
    kw = dict(games=3000, seed=9, chunk=333)
    remote = simcards.simulate("two-hundred", backend=be, out=tmp_path / "d", **kw)
    assert marker.exists(), "the fault hook did not kill a worker"
    local = simcards.simulate("two-hundred", **kw)
    assert list(remote.games["game"]) == list(range(3000))
    pd.testing.assert_frame_equal(local.games, remote.games)


def test_using_sets_the_backend_for_every_simulate(cluster):
    be, _ = cluster
    with using(be):
        sim = simcards.simulate("two-hundred", games=500, seed=1, chunk=250, detail=False)
    assert sim.meta["backend"] == "dask"
    assert simcards.simulate("two-hundred", games=10, seed=1).meta["backend"] == "local"


def test_cli_on_an_existing_scheduler(cluster, tmp_path, capsys):
    be, _ = cluster
    code = main(["simulate", "two-hundred", "--games", "3000", "--seed", "2", "--backend", "dask", "--scheduler",
                 be.scheduler, "--summary-only", "--json", "--out", str(tmp_path / "o")])
    out = capsys.readouterr().out
    assert code == 0
    data = json.loads(out)
    assert data["meta"]["backend"] == "dask" and data["meta"]["games_completed"] == 3000
    assert data["games"] == 3000 and len(data["win_rate_by_team"][0]["ci95"]) == 2
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["summary.json"]


def test_unreachable_scheduler_is_one_clear_error(capsys, monkeypatch):
    monkeypatch.setenv("SIMCARDS_DASK_CONNECT_TIMEOUT", "1")
    with pytest.raises(SimcardsError, match=r"cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"):
        make_backend("dask", scheduler="tcp://127.0.0.1:9", connect_timeout=1)
    code = main(["simulate", "two-hundred", "--games", "10", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: cannot reach the Dask scheduler") and "Traceback" not in err


def test_bad_backend_options_are_refused():
    with pytest.raises(SimcardsError, match="--backend 'spark': allowed local, dask"):
        simcards.simulate("two-hundred", games=10, backend="spark")
    with pytest.raises(SimcardsError, match="need --backend dask"):
        simcards.simulate("two-hundred", games=10, workers=2)


def test_study_batches_play_on_the_cluster(cluster):
    """``play.play_range`` (what compare/tune/tournament play through) gives the same rows on the workers."""
    from simcards.play import play_range
    from simcards.spec import RunSpec

    be, _ = cluster
    spec = RunSpec.resolve("two-hundred", players=4, strategies=["heuristic:aggr=1.1", "random"] * 2, seed=5)
    local = play_range(spec, 250, 1200, chunk=300)
    with using(be):
        remote = play_range(spec, 250, 1200, chunk=300)
    assert list(remote["game"]) == list(range(250, 1450))
    pd.testing.assert_frame_equal(local, remote)


def test_start_locally_finish_on_the_cluster(cluster, tmp_path):
    """A run interrupted on the local backend resumes on Dask to the same files."""
    from simcards.backends import LocalBackend

    class StopAfter2(LocalBackend):
        def imap(self, job, ranges):
            for i, item in enumerate(super().imap(job, ranges)):
                if i == 2:
                    raise KeyboardInterrupt
                yield item

    be, _ = cluster
    kw = dict(games=2500, seed=44, chunk=300)
    assert simcards.simulate("two-hundred", out=tmp_path / "r", backend=StopAfter2(), **kw).interrupted
    simcards.simulate("two-hundred", resume=tmp_path / "r", backend=be, **kw)
    simcards.simulate("two-hundred", out=tmp_path / "clean", **kw)
    assert parquet_bytes(tmp_path / "r") == parquet_bytes(tmp_path / "clean")


def test_compare_on_the_cluster_equals_local(cluster):
    """A whole study (issue 8's compare) played on the workers gives the same tables as locally."""
    from simcards.studies import compare

    be, _ = cluster
    local = compare("yaniv", ["israeli", "fast"], games=150, seed=3, skill=False)
    with using(be):
        remote = compare("yaniv", ["israeli", "fast"], games=150, seed=3, skill=False)
    assert local.tables.keys() == remote.tables.keys()
    for name in local.tables:
        pd.testing.assert_frame_equal(local.tables[name], remote.tables[name])
