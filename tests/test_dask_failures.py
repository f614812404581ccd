"""Dask failures seen from the command line (issue 19, items 7, 9 and 16): a real scheduler and
worker started as processes on 127.0.0.1 and killed with SIGKILL; the client stops within seconds
with one line that names the scheduler and the --resume command, and keeps the finished chunks.
No traceback and no stray warning on stderr."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from simcards.errors import SimcardsError  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1", "SIMCARDS_DASK_CONNECT_TIMEOUT": "30"}
NOTICE_SECONDS = 15  # bound on "kill -> client exited", loaded 2-core machine included


def cli(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "simcards", *args], cwd=ROOT, env=kw.pop("env", ENV),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def wait_for(predicate, timeout: float, what: str, proc: subprocess.Popen | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"the CLI exited before {what}: {proc.communicate()[1]}")
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}")


class Cluster:
    """``dask scheduler`` and one ``dask worker`` (nanny + worker process) in their own sessions."""

    def __init__(self, tmp: Path):
        self.file = tmp / "scheduler.json"
        self.log = tmp / "worker.log"
        dask = [sys.executable, "-m", "dask"]
        quiet = dict(cwd=tmp, env=ENV, stdout=subprocess.DEVNULL, start_new_session=True)
        self.scheduler = subprocess.Popen([*dask, "scheduler", "--host", "127.0.0.1", "--port", "0",
                                           "--dashboard-address", ":0", "--scheduler-file", str(self.file)],
                                          stderr=subprocess.DEVNULL, **quiet)
        wait_for(self.file.exists, 60, "the scheduler file")
        wait_for(lambda: json.loads(self.file.read_text() or "{}").get("address"), 10, "the scheduler address")
        self.address = json.loads(self.file.read_text())["address"]
        with open(self.log, "w") as log:
            self.worker = subprocess.Popen([*dask, "worker", "--scheduler-file", str(self.file), "--nthreads", "1",
                                            "--nworkers", "1", "--no-dashboard"], stderr=log, **quiet)
        wait_for(lambda: "Registered to" in self.log.read_text(), 60, "the worker to register")

    def kill(self, proc: subprocess.Popen) -> None:
        with _suppress():
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def close(self) -> None:
        for proc in (self.worker, self.scheduler):
            self.kill(proc)


def _suppress():
    import contextlib

    return contextlib.suppress(ProcessLookupError)


@pytest.fixture
def cluster(tmp_path):
    c = Cluster(tmp_path)
    yield c
    c.close()


def run_then_kill(cluster: Cluster, tmp_path: Path, victim: str, env: dict) -> tuple[subprocess.Popen, float, str]:
    """Start a long Yaniv run on the cluster, SIGKILL ``victim`` once the first chunk is on disk;
    returns the CLI process, the seconds from the kill to its exit, and its stderr."""
    out = tmp_path / "run"
    proc = cli("simulate", "yaniv", "--games", "5000000", "--seed", "3", "--backend", "dask", "--scheduler",
               cluster.address, "--summary-only", "--no-progress", "--out", str(out), env=env)
    try:
        wait_for(lambda: any((out / "parts").glob("summary-*.json")), 240, "the first chunk", proc)
        t0 = time.monotonic()
        cluster.kill(getattr(cluster, victim))
        _, err = proc.communicate(timeout=120)
        print(f"{victim} killed: the client exited {time.monotonic() - t0:.2f} s later")  # shown with -s
        return proc, time.monotonic() - t0, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def assert_kept(out: Path, err: str) -> None:
    done = json.loads((out / "manifest.json").read_text())["done"]
    assert done and all((out / "parts" / f"summary-{first:012d}.json").exists() for first, _ in done)
    assert f"continue with --resume {out}" in err


@pytest.mark.slow
def test_a_killed_scheduler_stops_the_client_within_seconds(cluster, tmp_path):
    """19.7: before, nothing for 600 s then a 77-line ClosedClientError traceback."""
    proc, seconds, err = run_then_kill(cluster, tmp_path, "scheduler", ENV)
    assert proc.returncode == 2
    assert len(err.splitlines()) == 1, err
    assert re.match(rf"error: lost the Dask scheduler at '{re.escape(cluster.address)}' \(its connection closed\); "
                    r"the [\d,]+ games finished are kept in ", err), err
    assert_kept(tmp_path / "run", err)
    assert seconds < NOTICE_SECONDS, f"noticed after {seconds:.1f} s"


@pytest.mark.slow
def test_every_worker_gone_stops_the_client(cluster, tmp_path):
    """19.7: before, the client waited for ever without a word."""
    env = {**ENV, "SIMCARDS_DASK_NO_WORKERS_WAIT": "3"}
    proc, seconds, err = run_then_kill(cluster, tmp_path, "worker", env)
    assert proc.returncode == 2
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"error: the Dask scheduler at '{cluster.address}' has had no workers for 3 s "
                          f"(start some with `dask worker {cluster.address}`); the "), err
    assert_kept(tmp_path / "run", err)
    assert 3 <= seconds < 3 + NOTICE_SECONDS, f"stopped after {seconds:.1f} s"


def test_a_malformed_scheduler_address_is_one_line(tmp_path):
    """19.9: the one-line error used to be followed by a 10-line ``Client.__del__`` traceback."""
    for address in ("garbage", "foo://x:1", "tls://127.0.0.1:1"):
        proc = cli("simulate", "two-hundred", "--games", "10", "--backend", "dask", "--scheduler", address)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 2
        assert err.startswith(f"error: cannot reach the Dask scheduler at '{address}' (") and err.count("\n") == 1, err


def test_the_cluster_watch_names_the_cause():
    """The checks the client makes between looks at its tasks (no cluster needed)."""
    from simcards.backends.dask_backend import DaskBackend

    class Client:
        status = "running"
        _scheduler_identity = {"n_workers": 1}

    be = DaskBackend.__new__(DaskBackend)
    be.client, be.scheduler, be.no_workers_wait, be.no_workers_since, be.lost = Client(), "tcp://h:1", 0.3, None, False
    be.check_cluster()
    be.client._scheduler_identity = {"n_workers": 0}
    be.check_cluster()  # no worker yet: a nanny may be restarting one
    time.sleep(0.35)
    with pytest.raises(SimcardsError, match=r"^the Dask scheduler at 'tcp://h:1' has had no workers for 0.3 s"):
        be.check_cluster()
    be.client._scheduler_identity = {"n_workers": 2}
    be.check_cluster()
    assert be.no_workers_since is None
    be.client.status = "connecting"
    with pytest.raises(SimcardsError, match=r"^lost the Dask scheduler at 'tcp://h:1' \(its connection closed\)$"):
        be.check_cluster()
    assert be.lost


@pytest.mark.parametrize("text", ["-1", "nan", "inf", "soon"])
def test_a_bad_no_workers_wait_is_refused(monkeypatch, text):
    from simcards.backends.dask_backend import _no_workers_wait

    monkeypatch.setenv("SIMCARDS_DASK_NO_WORKERS_WAIT", text)
    with pytest.raises(SimcardsError, match=r"SIMCARDS_DASK_NO_WORKERS_WAIT=.*: give a number of seconds >= 0"):
        _no_workers_wait()


def test_no_port_warning_when_8787_is_taken():
    """19.16: LocalCluster's scheduler HTTP server asked for 8787 and warned when it was taken."""
    from simcards.backends import make_backend

    holder = socket.socket()
    with _suppress_oserror():
        holder.bind(("", 8787))  # if another process holds it, the condition is met anyway
        holder.listen()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            make_backend("dask", workers=1).close()
    finally:
        holder.close()
    assert not [w for w in caught if "already in use" in str(w.message)]


def _suppress_oserror():
    import contextlib

    return contextlib.suppress(OSError)


@pytest.mark.slow
def test_a_killed_local_cluster_client_leaves_no_semaphore_warning(tmp_path):
    """19.16: SIGKILL of a client running a LocalCluster made multiprocessing's resource tracker
    print "There appear to be 6 leaked semaphore objects" on the terminal afterwards."""
    out = tmp_path / "run"
    proc = cli("simulate", "yaniv", "--games", "5000000", "--seed", "3", "--backend", "dask", "--workers", "1",
               "--summary-only", "--no-progress", "--out", str(out), start_new_session=True)
    try:
        wait_for(lambda: any((out / "parts").glob("summary-*.json")), 240, "the first chunk", proc)
        proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate(timeout=60)  # EOF once the tracker and the workers have exited too
    finally:
        with _suppress():
            os.killpg(proc.pid, signal.SIGKILL)  # the workers too, should any outlive the client
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert err == "", err
