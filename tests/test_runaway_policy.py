"""Issue 27, items 5 and 8: Ctrl-C always stops a run within a second or two.

A user policy is nopython code: while it runs, Python's SIGINT handler cannot. The kernels run in a
worker thread (``simcards.kernelcall``) while the main thread waits in short timed joins, so Ctrl-C
is seen at once: the first press stops after the chunk in flight if it finishes within a second,
otherwise says which policy was playing and stops without it (with ``--out`` the finished chunks
are on disk, resumable); a second press stops at once. Each case runs the CLI in a subprocess and
sends it real SIGINTs. A policy loops or allocates only on a rare decision drawn from the game's
own random stream (``tests/policies/runaway_yaniv.py``), so the engine is compiled and playing
when it runs away; its kernel is compiled (or loaded) once by a short legal run first.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "policies"
POLICY = str(HERE / "runaway_yaniv.py") + ":spin"
CLI = [sys.executable, "-m", "simcards"]
# The same CLI, able to print every thread's Python stack on SIGUSR1 (faulthandler needs no GIL): a
# run that does not stop on Ctrl-C says where it is stuck. Ctrl-C gets Python's own handler: a suite
# started in the background by a shell without job control (`cmd &` in a script) inherits SIGINT
# ignored, and Python keeps an ignored SIGINT ignored (replay and the studies then never stopped).
TRACED = [sys.executable, "-c", "import faulthandler, signal, sys; faulthandler.register(signal.SIGUSR1, "
          "all_threads=True); signal.signal(signal.SIGINT, signal.default_int_handler); "
          "from simcards.cli import main; sys.exit(main(prog_name='simcards'))"]
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}
STOP_WITHIN = 2.0  # seconds from the signal to the process's end


class Proc:
    """A CLI run whose stdout and stderr are read line by line as they come."""

    def __init__(self, args: list[str], env: dict | None = None):
        self.proc = subprocess.Popen(TRACED + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=env or ENV)
        self.out: list[str] = []
        self.err: list[str] = []
        self._readers = [threading.Thread(target=self._read, args=(s, lines), daemon=True)
                         for s, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for r in self._readers:
            r.start()

    @staticmethod
    def _read(stream, lines: list[str]) -> None:
        for line in stream:
            lines.append(line)

    def wait_for(self, text: str, where: list[str], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in line for line in where):
                return True
            if self.proc.poll() is not None:
                time.sleep(0.2)  # the last lines
                return any(text in line for line in where)
            time.sleep(0.02)
        return False

    def interrupt_and_time(self) -> float | None:
        """SIGINT; seconds until the process ends (None: still running after STOP_WITHIN + 3 s,
        then it is killed)."""
        t0 = time.monotonic()
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(STOP_WITHIN + 3)
        except subprocess.TimeoutExpired:
            self.proc.send_signal(signal.SIGUSR1)  # the stacks, into stderr
            time.sleep(1)
            self.kill()
            return None
        return time.monotonic() - t0

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)

    def stderr(self) -> str:
        for r in self._readers:
            r.join(5)
        return "".join(self.err)


@pytest.fixture(scope="module")
def warm_policy():
    """Compile (or load) the policy's kernel once: cold, that takes minutes on two shared cores."""
    res = subprocess.run(CLI + ["simulate", "yaniv", "--strategy", POLICY, "--games", "20", "--no-progress"],
                         capture_output=True, text=True, timeout=1800, env=ENV)
    assert res.returncode == 0, res.stderr


@pytest.fixture(scope="module")
def warm_builtin():
    """Compile (or load) the built-in Yaniv kernel once, so that a run's first Ctrl-C comes after it."""
    res = subprocess.run(CLI + ["simulate", "yaniv", "--strategy", "mc", "--games", "2", "--no-progress"],
                         capture_output=True, text=True, timeout=1800, env=ENV)
    assert res.returncode == 0, res.stderr


@pytest.mark.slow
def test_yaniv_runaway_policy_stops_on_the_first_ctrl_c_and_is_named(tmp_path, warm_policy):
    d = tmp_path / "run"
    run = Proc(["simulate", "yaniv", "--strategy", POLICY + ":mode=1", "--games", "1000000", "--no-progress",
                "--out", str(d)])
    try:
        assert run.wait_for("spinning", run.out, 600), run.stderr()
        took = run.interrupt_and_time()
    finally:
        run.kill()
    err = run.stderr()
    assert took is not None, f"still running {STOP_WITHIN + 3} s after Ctrl-C; stderr: {err}"
    assert took <= STOP_WITHIN, f"took {took:.2f} s; stderr: {err}"
    assert run.proc.returncode == 130, err
    assert "Traceback" not in err
    assert "'spin'" in err and "runaway_yaniv.py" in err, err  # which policy was playing, and its file
    assert f"--resume {d}" in err, err  # what finished is kept and can be continued
    assert json.loads((d / "manifest.json").read_text())["status"] == "interrupted"


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["replay", "yaniv", "--strategy", POLICY + ":mode=1,every=50"],  # the reference engine, in Python
    ["compare", "yaniv", "--variants", "israeli,fast", "--strategy", POLICY + ":mode=1,every=200000", "--games",
     "20000", "--no-progress"],
], ids=["replay", "compare"])
def test_yaniv_runaway_policy_stops_replay_and_studies_too(command, warm_policy):
    run = Proc(command)
    try:
        assert run.wait_for("spinning", run.out, 600), run.stderr()
        took = run.interrupt_and_time()
    finally:
        run.kill()
    err = run.stderr()
    assert took is not None and took <= STOP_WITHIN, f"took {took} s; stderr: {err}"
    assert run.proc.returncode == 130 and "Traceback" not in err, err
    assert "Ctrl-C: stopped while playing" in err and "'spin'" in err and "runaway_yaniv.py" in err, err


@pytest.mark.slow
def test_yaniv_second_ctrl_c_stops_a_normal_long_run_at_once(tmp_path, warm_builtin):
    """A built-in strategy whose chunk takes minutes (mc); the first Ctrl-C would wait for it (the
    grace is made long here), the second must not."""
    env = {**ENV, "SIMCARDS_STOP_GRACE": "120"}
    for delay in (3, 8, 20):  # the first Ctrl-C must come after the engine is loaded
        d = tmp_path / f"run{delay}"
        run = Proc(["simulate", "yaniv", "--strategy", "mc", "--games", "1000000", "--no-progress", "--out", str(d)],
                   env=env)
        try:
            deadline = time.monotonic() + 300
            while not (d / "manifest.json").exists() and run.proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(delay)
            run.proc.send_signal(signal.SIGINT)
            if not run.wait_for("stopping after the chunk in flight", run.err, 5):
                if run.proc.poll() is not None:  # stopped before the games began: try again later
                    continue
                pytest.fail(f"the first Ctrl-C was not acknowledged within 5 s; stderr: {run.stderr()}")
            took = run.interrupt_and_time()
        finally:
            run.kill()
        err = run.stderr()
        assert took is not None, f"still running {STOP_WITHIN + 3} s after the second Ctrl-C; stderr: {err}"
        assert took <= STOP_WITHIN, f"took {took:.2f} s; stderr: {err}"
        assert run.proc.returncode == 130, err
        assert "Traceback" not in err and "interrupted after" in err, err
        return
    pytest.fail("every first Ctrl-C came before the games began")


@pytest.mark.slow
def test_yaniv_policy_out_of_memory_is_one_line(tmp_path, warm_policy):
    d = tmp_path / "run"
    res = subprocess.run(CLI + ["simulate", "yaniv", "--strategy", POLICY + ":mode=2", "--games", "5000",
                                "--no-progress", "--out", str(d)], capture_output=True, text=True, timeout=900,
                         env=ENV)
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr
    assert lines[-1].startswith("error: ") and "'spin'" in lines[-1] and "MemoryError" in lines[-1], res.stderr


# --- in this process: the API returns (no hard exit), a range left running is waited for -------------
def test_kernel_calls_keep_the_callers_numba_threads_and_errors():
    import numba

    from simcards import kernelcall

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        assert kernelcall.call(numba.get_num_threads) == 1  # numba's thread count is per thread
    finally:
        numba.set_num_threads(before)

    def boom():
        raise ValueError("inside")

    with pytest.raises(ValueError, match="inside"):
        kernelcall.call(boom)


def test_yaniv_api_ctrl_c_returns_and_the_range_left_running_is_waited_for(tmp_path, monkeypatch, capsys):
    """Python API: the first Ctrl-C with no grace leaves the chunk in flight running and returns what
    finished (no exit); resuming waits for that chunk first and ends with the files of a clean run."""
    import simcards
    from simcards import kernelcall
    from simcards.backends import LocalBackend

    class CtrlCBefore(LocalBackend):
        def imap(self, job, ranges):
            for i, r in enumerate(ranges):
                if i == 2:
                    os.kill(os.getpid(), signal.SIGINT)  # handled before range 2's call starts
                yield from super().imap(job, [r])

    monkeypatch.setenv("SIMCARDS_STOP_GRACE", "0")
    run = dict(games=4000, seed=3, chunk=1000, strategies=["threshold"])
    sim = simcards.simulate("yaniv", out=tmp_path / "run", backend=CtrlCBefore(), **run)
    err = capsys.readouterr().err
    assert sim.interrupted and sim.meta["games_completed"] == 2000, err
    assert "Ctrl-C: games 2,000..2,999 of yaniv (strategies: threshold) still playing after 0 s" in err
    resumed = simcards.simulate("yaniv", resume=tmp_path / "run", **run)
    assert resumed.meta["games_resumed"] == 2000 and not kernelcall.left_running()
    clean = simcards.simulate("yaniv", out=tmp_path / "clean", **run)
    for name in ("games.parquet", "rounds.parquet"):
        assert (tmp_path / "run" / name).read_bytes() == (tmp_path / "clean" / name).read_bytes()
    assert clean.summary["games"] == resumed.summary["games"] == 4000


def test_yaniv_out_of_memory_while_playing_is_one_error_keeping_what_finished(tmp_path):
    """A MemoryError that escapes the games (not caught in the policy's dispatcher): one SimcardsError
    naming the strategies, with the finished chunks kept for --resume."""
    import simcards
    from simcards.backends import LocalBackend
    from simcards.errors import SimcardsError

    class OutOfMemoryAt2(LocalBackend):
        def imap(self, job, ranges):
            for i, item in enumerate(super().imap(job, ranges)):
                if i == 2:
                    raise MemoryError
                yield item

    d = tmp_path / "run"
    with pytest.raises(SimcardsError) as info:
        simcards.simulate("yaniv", out=d, backend=OutOfMemoryAt2(), games=4000, seed=3, chunk=1000,
                          strategies=["threshold"])
    text = str(info.value)
    assert text.startswith("out of memory while playing yaniv with threshold") and f"--resume {d}" in text, text
    assert sum(c for _, c in json.loads((d / "manifest.json").read_text())["done"]) == 2000
