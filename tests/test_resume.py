"""Chunked results with a manifest: an interrupted run (Ctrl-C, a killed process, a full disk)
resumes to exactly the files an uninterrupted run writes; nothing computed is lost; clear errors."""

from __future__ import annotations

import errno
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simcards
from simcards.backends import LocalBackend
from simcards.errors import SimcardsError
from simcards.store import DiskError, _merge_ranges

GAME = "two-hundred"  # the fastest engine: these tests are about files, not games
RUN = dict(games=3000, seed=31, chunk=400)


def files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.suffix == ".parquet"}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The uninterrupted run."""
    d = tmp_path_factory.mktemp("ref") / "run"
    sim = simcards.simulate(GAME, out=d, **RUN)
    return d, sim


class StopAfter(LocalBackend):
    """The local backend, with Ctrl-C pressed after ``k`` chunks."""

    def __init__(self, k: int):
        super().__init__()
        self.k = k

    def imap(self, job, ranges):
        for i, item in enumerate(super().imap(job, ranges)):
            if i == self.k:
                raise KeyboardInterrupt
            yield item


def test_finished_directory_holds_only_results(reference):
    d, sim = reference
    assert sorted(p.name for p in d.iterdir()) == ["deals.parquet", "games.parquet", "summary.json"]
    run = json.loads((d / "summary.json").read_text())["meta"]["run"]
    assert run["done"] == [[0, 3000]] and run["chunk"] == 400 and run["config"]["seed"] == 31
    assert run["config"]["strategies"] and run["config"]["rules"] and run["status"] == "complete"
    games = pd.read_parquet(d / "games.parquet")
    assert list(games["game"]) == list(range(3000))


def test_ctrl_c_keeps_the_chunks_and_resume_ends_identical(tmp_path, reference):
    ref_dir, ref = reference
    d = tmp_path / "run"
    part = simcards.simulate(GAME, out=d, backend=StopAfter(3), **RUN)
    assert part.interrupted and part.meta["games_completed"] == 1200
    manifest = json.loads((d / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and manifest["done"] == [[0, 1200]]
    assert len(list((d / "parts").glob("games-*.parquet"))) == 3
    # the partial summary covers exactly the finished games
    assert part.summary["games"] == 1200
    done = simcards.simulate(GAME, resume=d, **RUN)
    assert not done.interrupted and done.meta["games_resumed"] == 1200
    assert files(d) == files(ref_dir)  # byte for byte
    pd.testing.assert_frame_equal(done.games, ref.games)
    assert done.summary == ref.summary
    assert not (d / "manifest.json").exists() and not (d / "parts").exists()


def test_resume_summary_only_run(tmp_path):
    full = simcards.simulate(GAME, summary_only=True, **RUN)
    d = tmp_path / "lean"
    part = simcards.simulate(GAME, out=d, summary_only=True, backend=StopAfter(2), **RUN)
    assert part.interrupted and sorted(p.name[:7] for p in (d / "parts").iterdir()) == ["summary"] * 2
    done = simcards.simulate(GAME, resume=d, summary_only=True, **RUN)
    assert done.summary == full.summary
    assert sorted(p.name for p in d.iterdir()) == ["summary.json"]
    again = simcards.simulate(GAME, resume=d, summary_only=True, **RUN)  # complete: read back, not replayed
    assert again.meta["already_complete"] and again.summary == full.summary


def test_resume_of_a_finished_run_reads_it_back(reference):
    d, ref = reference
    before = files(d)
    again = simcards.simulate(GAME, resume=d, **RUN)
    assert again.meta["already_complete"] and files(d) == before
    pd.testing.assert_frame_equal(again.games, ref.games)


def test_resume_with_another_configuration_is_refused(tmp_path):
    d = tmp_path / "run"
    simcards.simulate(GAME, out=d, backend=StopAfter(1), **RUN)
    with pytest.raises(SimcardsError, match=r"different configuration \(seed=31 there, 32 here\)"):
        simcards.simulate(GAME, resume=d, **{**RUN, "seed": 32})
    with pytest.raises(SimcardsError, match="strategies"):
        simcards.simulate(GAME, resume=d, strategies="random", **RUN)
    with pytest.raises(SimcardsError, match="mode"):
        simcards.simulate(GAME, resume=d, summary_only=True, **RUN)
    # --out on an unfinished run never overwrites it
    with pytest.raises(SimcardsError, match="unfinished run .*--resume"):
        simcards.simulate(GAME, out=d, **RUN)
    assert json.loads((d / "manifest.json").read_text())["done"] == [[0, 400]]


def test_resume_needs_a_run_directory(tmp_path):
    (tmp_path / "junk.txt").write_text("x")
    with pytest.raises(SimcardsError, match="holds no simcards run"):
        simcards.simulate(GAME, resume=tmp_path, **RUN)
    with pytest.raises(SimcardsError, match="give one directory"):
        simcards.simulate(GAME, out=tmp_path / "a", resume=tmp_path / "b", **RUN)


def test_unwritable_output_directory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(SimcardsError, match="cannot write to output directory"):
        simcards.simulate(GAME, out=blocker / "run", **RUN)


def test_full_disk_keeps_what_finished(tmp_path, reference, monkeypatch):
    import pyarrow.parquet as pq

    real = pq.write_table
    calls = {"n": 0}

    def flaky(table, where, *a, **k):
        calls["n"] += 1
        if calls["n"] == 5:  # the 3rd chunk's games part (2 tables per chunk)
            with open(where, "wb") as fh:
                fh.write(b"half a file")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(table, where, *a, **k)

    monkeypatch.setattr(pq, "write_table", flaky)
    d = tmp_path / "run"
    with pytest.raises(DiskError, match=r"the disk is full; the 800 games finished before are kept in .*--resume"):
        simcards.simulate(GAME, out=d, **RUN)
    assert json.loads((d / "manifest.json").read_text())["done"] == [[0, 800]]
    assert not list((d / "parts").glob("*.tmp"))
    monkeypatch.setattr(pq, "write_table", real)
    simcards.simulate(GAME, resume=d, **RUN)
    assert files(d) == files(reference[0])


class Watched:
    """Which ranges had begun playing while each range was written to the run directory (a write
    waits up to 10 s for the next range to begin when ``ahead``, else 0.05 s for it not to)."""

    def __init__(self, monkeypatch, on_write=None, ahead=True):
        import threading

        import simcards.backends as backends
        from simcards.store import RunStore

        self.begun: list[int] = []
        self.lock = threading.Lock()
        self.seen: dict[int, list[int]] = {}
        play, write = backends.execute, RunStore.write_chunk

        def execute(job, first, count, *a):
            with self.lock:
                self.begun.append(first)
            return play(job, first, count, *a)

        def write_chunk(store, first, count, frames, partial):
            end = time.monotonic() + (10 if ahead and first + count < RUN["games"] else 0.05)
            while time.monotonic() < end and first + count not in self.begun:
                time.sleep(0.005)
            with self.lock:
                self.seen[first] = list(self.begun)
            if on_write is not None:
                on_write(first)
            return write(store, first, count, frames, partial)

        monkeypatch.setattr(backends, "execute", execute)
        monkeypatch.setattr(RunStore, "write_chunk", write_chunk)


def test_the_next_range_plays_while_a_range_is_written(tmp_path, reference, monkeypatch):
    watched = Watched(monkeypatch)
    simcards.simulate(GAME, out=tmp_path / "run", **RUN)
    firsts = list(range(0, 3000, 400))
    assert all(watched.seen[f] == firsts[:i + 2] for i, f in enumerate(firsts[:-1])), watched.seen
    assert files(tmp_path / "run") == files(reference[0])


def test_no_range_plays_ahead_of_one_slower_than_ahead_s(tmp_path, reference, monkeypatch):
    import simcards.backends as backends

    monkeypatch.setattr(backends, "AHEAD_S", -1.0)  # every range is too slow to play ahead of it
    watched = Watched(monkeypatch, ahead=False)
    simcards.simulate(GAME, out=tmp_path / "run", **RUN)
    firsts = list(range(0, 3000, 400))
    assert all(watched.seen[f] == firsts[:i + 1] for i, f in enumerate(firsts)), watched.seen
    assert files(tmp_path / "run") == files(reference[0])


def test_ctrl_c_while_a_range_is_written_keeps_it_and_not_the_one_playing_ahead(tmp_path, reference,
                                                                               monkeypatch):
    import os
    import threading

    from simcards import kernelcall

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Ctrl-C reaches only the main thread")

    def press(first):
        if first == 800:
            os.kill(os.getpid(), signal.SIGINT)  # the first Ctrl-C: stop once this range is kept
            time.sleep(0.1)  # (the handler runs in this thread, at once)

    watched = Watched(monkeypatch, press)
    d = tmp_path / "run"
    part = simcards.simulate(GAME, out=d, **RUN)
    assert watched.seen[800] == [0, 400, 800, 1200]  # range 1,200 was playing, and is not counted
    assert part.interrupted and part.meta["games_completed"] == 1200 and part.summary["games"] == 1200
    assert json.loads((d / "manifest.json").read_text())["done"] == [[0, 1200]]
    assert sorted(p.name for p in (d / "parts").glob("games-*")) == [f"games-{f:012d}.parquet" for f in (0, 400, 800)]
    assert kernelcall.left_running() == []  # the range playing ahead ended within the grace period
    monkeypatch.undo()
    simcards.simulate(GAME, resume=d, **RUN)
    assert files(d) == files(reference[0])


KILL_SCRIPT = """
import sys, simcards
simcards.simulate("two-hundred", games=40000, seed=77, chunk=500, out=sys.argv[1], threads=1)
"""


def _wait_for_chunks(manifest: Path, n: int, proc, timeout: float = 900) -> int:
    """Chunks done once ``n`` are; the timeout covers a cold compile on two busy cores."""
    end = time.time() + timeout
    while time.time() < end:
        assert proc.poll() is None, "the run ended before it could be interrupted"
        try:
            done = sum(c for _, c in json.loads(manifest.read_text())["done"])
        except (OSError, ValueError, KeyError):
            done = 0
        if done >= n * 500:
            return done
        time.sleep(0.05)
    raise AssertionError("the run made no progress")


@pytest.mark.slow
def test_sigkill_mid_run_then_resume_gives_the_uninterrupted_table(tmp_path):
    d = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(d)])
    try:
        _wait_for_chunks(d / "manifest.json", 4, proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    manifest = json.loads((d / "manifest.json").read_text())
    done = sum(c for _, c in manifest["done"])
    assert manifest["status"] == "running" and 2000 <= done < 40000  # killed mid-way, no clean exit
    resumed = simcards.simulate("two-hundred", games=40000, seed=77, chunk=500, resume=d)
    assert resumed.meta["games_resumed"] == done
    clean = simcards.simulate("two-hundred", games=40000, seed=77, chunk=500, out=tmp_path / "clean")
    assert files(d) == files(tmp_path / "clean")
    pd.testing.assert_frame_equal(resumed.games, clean.games)


@pytest.mark.slow
def test_cli_ctrl_c_says_where_the_results_are_and_resumes(tmp_path):
    d = tmp_path / "cli"
    args = [sys.executable, "-m", "simcards", "simulate", "two-hundred", "--games", "150000", "--seed", "5",
            "--no-progress", "--threads", "1"]
    proc = subprocess.Popen(args + ["--out", str(d)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_chunks(d / "manifest.json", 1, proc)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert "interrupted after" in err and f"--resume {d}" in err and "Traceback" not in err
    res = subprocess.run(args + ["--resume", str(d)], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "wrote" in res.stderr and not (d / "manifest.json").exists()  # a message: stderr
    games = pd.read_parquet(d / "games.parquet")
    assert list(games["game"]) == list(range(150000))
    clean = simcards.simulate("two-hundred", games=150000, seed=5, detail=False, summary_only=True)
    assert json.loads((d / "summary.json").read_text())["win_rate_by_team"][0]["value"] == \
        clean.summary["win_rate_by_team"][0].value


@settings(max_examples=40, deadline=None)
@given(st.permutations(list(range(12))), st.integers(1, 12))
def test_done_ranges_merge_whatever_order_chunks_finish(order, k):
    """The manifest's done ranges are exactly the finished chunks, joined, in any finishing order."""
    finished = sorted(order[:k])
    merged = _merge_ranges([[i * 100, 100] for i in order[:k]])
    covered = [g for first, count in merged for g in range(first, first + count)]
    assert covered == [g for i in finished for g in range(i * 100, i * 100 + 100)]
    assert all(a[0] + a[1] < b[0] for a, b in zip(merged, merged[1:]))  # no two adjacent ranges left unjoined
