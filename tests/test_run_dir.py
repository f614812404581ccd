"""A run directory that checks itself (issue 19): a missing, truncated, empty or foreign part is
played again, never joined or silently dropped; a damaged manifest is one line; a finished run is
neither overwritten nor read back when its files changed; one process writes a directory at a time;
after Ctrl-C what is reported is exactly what is on disk."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import simcards
from simcards.backends import LocalBackend
from simcards.cli import main
from simcards.errors import SimcardsError

GAME = "two-hundred"  # the fastest engine: these tests are about files, not games
RUN = dict(games=3000, seed=31, chunk=400)
CLI = ["simulate", GAME, "--games", "3000", "--seed", "31", "--no-progress"]


def files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.suffix == ".parquet"}


class StopAfter(LocalBackend):
    """The local backend, with Ctrl-C (KeyboardInterrupt) after ``k`` chunks."""

    def __init__(self, k: int):
        super().__init__()
        self.k = k

    def imap(self, job, ranges):
        for i, item in enumerate(super().imap(job, ranges)):
            if i == self.k:
                raise KeyboardInterrupt
            yield item


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    d = tmp_path_factory.mktemp("ref") / "run"
    return d, simcards.simulate(GAME, out=d, **RUN)


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory):
    """A run stopped after 3 chunks (games 0..1199 on disk), copied afresh by ``fresh``."""
    d = tmp_path_factory.mktemp("int") / "run"
    simcards.simulate(GAME, out=d, backend=StopAfter(3), **RUN)
    other = tmp_path_factory.mktemp("other") / "run"  # the same ranges of another seed
    simcards.simulate(GAME, out=other, backend=StopAfter(3), **{**RUN, "seed": 32})
    return d, other


@pytest.fixture
def fresh(interrupted, tmp_path):
    d = tmp_path / "run"
    shutil.copytree(interrupted[0], d)
    return d


def manifest(d: Path) -> dict:
    return json.loads((d / "manifest.json").read_text())


def edit_manifest(d: Path, change) -> None:
    m = manifest(d)
    change(m)
    (d / "manifest.json").write_text(json.dumps(m))


P = "parts/games-000000000400.parquet"
D = "parts/deals-000000000400.parquet"
S = "parts/summary-000000000400.json"
DAMAGE = {  # how a part is damaged -> the file and what the warning says about it
    "missing": (lambda d, o: (d / P).unlink(), P, "is missing"),
    "truncated": (lambda d, o: (d / P).write_bytes((d / P).read_bytes()[:300]), P, "hash differs"),
    "empty": (lambda d, o: (d / P).write_bytes(b""), P, "is empty"),
    "copied from another run": (lambda d, o: shutil.copy(o / P, d / P), P, "hash differs"),
    "detail part missing": (lambda d, o: (d / D).unlink(), D, "is missing"),
    "detail part from another run": (lambda d, o: shutil.copy(o / D, d / D), D, "hash differs"),
    "summary part changed": (lambda d, o: (d / S).write_text("{}"), S, "hash differs"),
    "stray tmp file": (lambda d, o: (d / (P + ".tmp")).write_bytes(b"half"), None, None),
}


@pytest.mark.parametrize("case", DAMAGE)
def test_a_damaged_part_is_played_again_and_the_run_ends_identical(case, fresh, interrupted, reference, capsys):
    """19.1, 19.4, 19.5: checked when the resume starts; the range is replayed (same games)."""
    damage, name, words = DAMAGE[case]
    damage(fresh, interrupted[1])
    done = simcards.simulate(GAME, resume=fresh, **RUN)
    err = capsys.readouterr().err
    if name is None:
        assert "warning" not in err and done.meta["games_resumed"] == 1200
    else:
        assert f"warning: {fresh / name} " in err and words in err and "games 400..799 are played again" in err
        assert len(err.strip().splitlines()) == 1 and done.meta["games_resumed"] == 800
    assert files(fresh) == files(reference[0])
    assert done.summary == reference[1].summary
    assert sorted(p.name for p in fresh.iterdir()) == ["deals.parquet", "games.parquet", "summary.json"]


def test_another_chunk_size_gives_the_same_tables_in_other_row_groups(tmp_path, reference):
    """19.15: what the docs say about chunk sizes (tables identical; row groups follow the chunks)."""
    import pyarrow.parquet as pq

    d = tmp_path / "run"
    simcards.simulate(GAME, out=d, **{**RUN, "chunk": 700})
    for name in ("games.parquet", "deals.parquet"):
        pd.testing.assert_frame_equal(pd.read_parquet(d / name), pd.read_parquet(reference[0] / name))
    assert pq.ParquetFile(d / "games.parquet").num_row_groups == 5
    assert pq.ParquetFile(reference[0] / "games.parquet").num_row_groups == 8


def test_every_part_has_its_rows_and_hash_in_the_manifest(fresh):
    parts = manifest(fresh)["parts"]
    assert sorted(parts) == sorted(p.name for p in (fresh / "parts").iterdir())
    assert parts["games-000000000400.parquet"][0] == 400 and len(parts["games-000000000400.parquet"][1]) == 64
    assert pd.read_parquet(fresh / P)["game"].tolist() == list(range(400, 800))


class DamageBeforeJoin(LocalBackend):
    """A part damaged while the run goes on (after the resume check): caught at the join."""

    def __init__(self, part: Path):
        super().__init__()
        self.part = part

    def imap(self, job, ranges):
        for item in super().imap(job, ranges):
            yield item
        self.part.write_bytes(self.part.read_bytes()[:-10])


def test_the_join_checks_every_part_and_removes_nothing_on_failure(fresh, reference):
    with pytest.raises(SimcardsError, match=r"games-000000000400.parquet is not the file this run wrote.*nothing "
                                            r"was joined or removed: continue with --resume"):
        simcards.simulate(GAME, resume=fresh, backend=DamageBeforeJoin(fresh / P), **RUN)
    assert not (fresh / "games.parquet").exists() and not (fresh / "summary.json").exists()
    assert len(list((fresh / "parts").glob("games-*.parquet"))) == 8 and (fresh / "manifest.json").exists()
    simcards.simulate(GAME, resume=fresh, **RUN)  # that range is played again
    assert files(fresh) == files(reference[0])


def test_a_joined_table_short_of_rows_keeps_the_parts(fresh, monkeypatch):
    import pyarrow.parquet as pq

    real = pq.ParquetWriter.write_table
    calls = {"n": 0}

    def drop_one(self, table, *a, **k):  # the join of games.parquet loses a row group
        if str(self.where).endswith("games.parquet.tmp"):
            calls["n"] += 1
            if calls["n"] == 3:
                return
        real(self, table, *a, **k)

    monkeypatch.setattr(pq.ParquetWriter, "write_table", drop_one)
    with pytest.raises(SimcardsError, match=r"games.parquet would have 2,600 rows instead of 3,000; nothing was removed"):
        simcards.simulate(GAME, resume=fresh, **RUN)
    assert (fresh / "parts").is_dir() and (fresh / "manifest.json").exists()
    assert not (fresh / "games.parquet").exists() and not list(fresh.glob("*.tmp"))


def _set(key, value):
    return lambda m: m.__setitem__(key, value)


def _drop_config(key):
    return lambda m: m["config"].pop(key)


MANIFEST_CASES = [  # 19.2: a damaged manifest -> one line (one case per line)
    (_set("chunk", 3000), "done chunk [0, 400] is not a chunk of this run (3,000 games in chunks of 3,000)"),
    (_set("chunk", 0), "chunk=0: allowed 1..10,000,000"),
    (_set("chunk", "400"), "chunk='400'"),
    (_set("chunk", 400.0), "chunk=400.0"),
    (_drop_config("seed"), "missing field config.seed"),
    (_set("config", [1]), "missing or mistyped field 'config'"),
    (lambda m: m.pop("done_chunks"), "missing or mistyped field 'done_chunks'"),
    (_set("done_chunks", [[100, 400]]), "done chunk [100, 400] is not a chunk"),
    (_set("done_chunks", [[0, 400], [0, 400]]), "listed twice"),
    (_set("done_chunks", [[2800, 400]]), "done chunk [2800, 400] is not a chunk"),
    (_set("done_chunks", [[3200, 400]]), "done chunk [3200, 400] is not a chunk"),
    (_set("done_chunks", [[0, "400"]]), "not [first, count]"),
    (_set("format", "simcards-run/1"), "format 'simcards-run/1'"),
    (_set("parts", {"x": 5}), "each part needs [rows, sha256]"),
    (_set("tables", ["games"]), "tables=['games'], this configuration writes ['games', 'deals']"),
]


@pytest.mark.parametrize("change,needle", MANIFEST_CASES)
def test_a_damaged_manifest_is_one_line(change, needle, fresh, capsys):
    edit_manifest(fresh, change)
    before = sorted(p.name for p in (fresh / "parts").iterdir())
    code = main(CLI + ["--resume", str(fresh)])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and "manifest.json is damaged" in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in (fresh / "parts").iterdir()) == before  # nothing touched


def test_a_manifest_that_is_not_json_is_one_line(fresh, capsys):
    (fresh / "manifest.json").write_text('{"format": ')
    code = main(CLI + ["--resume", str(fresh)])
    err = capsys.readouterr().err
    assert code == 2 and "cannot read" in err and len(err.strip().splitlines()) == 1


# --- a finished run -----------------------------------------------------------------------------------
@pytest.fixture
def finished(reference, tmp_path):
    d = tmp_path / "done"
    shutil.copytree(reference[0], d)
    return d


def test_a_finished_run_records_its_files(finished):
    run = json.loads((finished / "summary.json").read_text())["meta"]["run"]
    assert run["results"]["games.parquet"][0] == 3000 and set(run["results"]) == {"games.parquet", "deals.parquet"}
    assert "parts" not in run


@pytest.mark.parametrize("damage,needle", [  # 19.4: never "already complete" when a file changed
    (lambda d, o: (d / "games.parquet").unlink(), "games.parquet is missing"),
    (lambda d, o: (d / "deals.parquet").unlink(), "deals.parquet is missing"),
    (lambda d, o: (d / "games.parquet").write_bytes(b""), "games.parquet is not the file this run wrote"),
    (lambda d, o: pd.read_parquet(d / "games.parquet").head(10).to_parquet(d / "games.parquet"), "hash differs"),
])
def test_a_finished_run_with_a_changed_file_is_not_read_back(damage, needle, finished, capsys):
    damage(finished, None)
    code = main(CLI + ["--resume", str(finished)])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and "--force" in err and len(err.strip().splitlines()) == 1, err


def test_out_on_a_finished_run_is_refused_unless_force(finished, reference, capsys):
    """19.8 / 16.14: seed 9 must not silently replace seed 31."""
    before = files(finished)
    code = main(["simulate", GAME, "--games", "500", "--seed", "9", "--no-progress", "--out", str(finished)])
    err = capsys.readouterr().err
    assert code == 2 and "holds a finished run (3,000 games, seed 31)" in err
    assert f"--resume {finished}" in err and "--force" in err and len(err.strip().splitlines()) == 1
    assert files(finished) == before
    code = main(["simulate", GAME, "--games", "500", "--seed", "9", "--no-progress", "--out", str(finished), "--force"])
    assert code == 0
    summary = json.loads((finished / "summary.json").read_text())
    assert summary["meta"]["seed"] == 9 and len(pd.read_parquet(finished / "games.parquet")) == 500


def test_force_replaces_an_unfinished_run(fresh):
    with pytest.raises(SimcardsError, match="unfinished run .1,200 of 3,000 games done.*--resume .*--force"):
        simcards.simulate(GAME, out=fresh, **RUN)
    sim = simcards.simulate(GAME, out=fresh, force=True, summary_only=True, **RUN)
    assert sim.meta["games_completed"] == 3000 and "games_resumed" not in sim.meta
    assert sorted(p.name for p in fresh.iterdir()) == ["summary.json"]


# --- one writer at a time ---------------------------------------------------------------------------------
HOLD = """
import sys, time
from pathlib import Path
from simcards.store import _Lock
lock = _Lock(Path(sys.argv[1]))
print("locked", flush=True)
sys.stdin.readline()
lock.release()
"""


def test_a_directory_being_written_is_locked(fresh, reference):
    """19.14: --resume while another process holds DIR is refused; its *.tmp files are left alone."""
    tmp = fresh / "parts" / "games-000000001200.parquet.tmp"
    tmp.write_bytes(b"the other process's write in progress")
    env = {**os.environ, "PYTHONPATH": str(Path(simcards.__file__).parents[1])}
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(fresh)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env=env)
    try:
        assert holder.stdout.readline().strip() == "locked"
        for kwargs in ({"resume": fresh}, {"out": fresh}, {"out": fresh, "force": True}):
            with pytest.raises(SimcardsError, match=rf"being written by another simcards process \(pid {holder.pid}\)"):
                simcards.simulate(GAME, **kwargs, **RUN)
        assert tmp.exists() and manifest(fresh)["done"] == [[0, 1200]]
    finally:
        holder.communicate("\n", timeout=30)
    assert not (fresh / ".simcards.lock").exists()  # released (and removed) by its owner
    simcards.simulate(GAME, resume=fresh, **RUN)
    assert files(fresh) == files(reference[0]) and not (fresh / ".simcards.lock").exists()


def test_a_lock_left_by_a_killed_process_does_not_block(fresh):
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(fresh)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "PYTHONPATH": str(Path(simcards.__file__).parents[1])})
    assert holder.stdout.readline().strip() == "locked"
    holder.kill()
    holder.wait(30)
    assert (fresh / ".simcards.lock").exists()  # the file stays; the kernel dropped the lock
    assert simcards.simulate(GAME, resume=fresh, **RUN).meta["games_completed"] == 3000


# --- Ctrl-C: what is reported is what is on disk ----------------------------------------------------------
class CtrlC(LocalBackend):
    """Presses Ctrl-C (a real SIGINT) ``times`` times while chunk ``k`` is being played."""

    def __init__(self, k: int, times: int = 1):
        super().__init__()
        self.k, self.times = k, times

    def imap(self, job, ranges):
        for i, (first, count) in enumerate(ranges):
            if i == self.k:
                for _ in range(self.times):
                    os.kill(os.getpid(), signal.SIGINT)
            yield first, count, self.play(job, first, count)

    @staticmethod
    def play(job, first, count):
        from simcards.backends.job import execute

        return execute(job, first, count)


def _on_disk(d: Path) -> int:
    return sum(c for _, c in manifest(d)["done"])


def test_ctrl_c_keeps_the_chunk_in_flight(tmp_path, capsys):
    """19.15: the first Ctrl-C lets the chunk being played finish; it is written and counted."""
    d = tmp_path / "run"
    sim = simcards.simulate(GAME, out=d, backend=CtrlC(2), **RUN)
    assert sim.interrupted and sim.meta["games_completed"] == 1200 == _on_disk(d) == sim.summary["games"]
    assert "stopping after the chunk in flight" in capsys.readouterr().err
    assert manifest(d)["status"] == "interrupted"


def test_a_second_ctrl_c_stops_at_once_and_drops_that_chunk(tmp_path):
    d = tmp_path / "run"
    sim = simcards.simulate(GAME, out=d, backend=CtrlC(2, times=2), **RUN)
    assert sim.interrupted and sim.meta["games_completed"] == 800 == _on_disk(d) == sim.summary["games"]


def test_ctrl_c_right_after_a_chunk_is_written_counts_it(tmp_path, monkeypatch):
    """19.12: a Ctrl-C between writing a chunk and counting it: the count is what is on disk."""
    from simcards.store import RunStore

    real = RunStore.write_chunk

    def write_then_interrupt(self, first, count, *a):
        real(self, first, count, *a)
        if first == 800:
            raise KeyboardInterrupt

    monkeypatch.setattr(RunStore, "write_chunk", write_then_interrupt)
    d = tmp_path / "run"
    sim = simcards.simulate(GAME, out=d, keep_games=True, **RUN)
    assert sim.interrupted and sim.meta["games_completed"] == 1200 == _on_disk(d) == sim.summary["games"]
    assert sim.games["game"].tolist() == list(range(1200))


def test_ctrl_c_without_out_counts_what_is_in_memory():
    sim = simcards.simulate(GAME, backend=CtrlC(1, times=2), **RUN)
    assert sim.interrupted and sim.meta["games_completed"] == 400 == len(sim.games) == sim.summary["games"]


def test_a_stop_asked_during_the_last_chunk_completes_the_run(tmp_path, reference):
    d = tmp_path / "run"
    sim = simcards.simulate(GAME, out=d, backend=CtrlC(7), **RUN)  # 8 chunks: 0..7
    assert not sim.interrupted and files(d) == files(reference[0])


def test_a_study_interrupted_before_its_first_block_says_so(monkeypatch, capsys):
    """19.12: not an empty output with exit 130."""
    import simcards.studies

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(simcards.studies, "compare", interrupted)
    code = main(["compare", GAME, "--variants", "standard", "--games", "10"])
    assert code == 130 and "interrupted before any result was finished" in capsys.readouterr().err
