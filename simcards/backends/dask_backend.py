"""The Dask distributed backend: index ranges as tasks on workers, results back to this process.

Without a scheduler address a ``LocalCluster`` of worker processes is started on this machine (one
per core, one numba thread each). A range whose worker dies is rescheduled by Dask; if it keeps
failing it is resubmitted by this client (up to ``MAX_ATTEMPTS`` times in all) under a new key. The
client accepts each range's result once, so no game is lost or counted twice. At most ``window``
ranges are in flight, so the client never holds more than a few chunks of results.

While it waits, the client checks that it is still connected to the scheduler and that the cluster
has a worker: a lost scheduler, or no worker for ``SIMCARDS_DASK_NO_WORKERS_WAIT`` seconds, stops the
run with one line (the API keeps the finished chunks and says how to resume) instead of a silent wait.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
import uuid
from collections import deque

from simcards.backends import Backend
from simcards.backends.job import Job, engine, execute
from simcards.errors import SimcardsError

MAX_ATTEMPTS = 3
POLL_SECONDS = 0.05  # longest sleep between two looks at the finished tasks and the cluster's health (cheap)
# A LocalCluster's client killed with SIGKILL leaves its worker semaphores to multiprocessing's
# resource tracker, which frees them and warns on stderr; the warning is noise, the cleanup is right.
_TRACKER_QUIET = "ignore:resource_tracker:UserWarning"


def _no_workers_wait() -> float:
    """Seconds the cluster may have no worker (a nanny restarting one takes a few) before we stop."""
    text = os.environ.get("SIMCARDS_DASK_NO_WORKERS_WAIT", "10")
    try:
        wait = float(text)
    except ValueError:
        wait = -1.0
    if not 0 <= wait < float("inf"):
        raise SimcardsError(f"SIMCARDS_DASK_NO_WORKERS_WAIT={text!r}: give a number of seconds >= 0")
    return wait


def _client(address, **kwargs):
    """A ``distributed.Client``; if it cannot start, it is marked closed so that its ``__del__``
    does not spend 2 x timeout closing a connection that never opened and print a traceback."""
    import distributed

    client = distributed.Client.__new__(distributed.Client)
    try:
        client.__init__(address, **kwargs)
    except BaseException:
        with contextlib.suppress(Exception):
            client.status = "closed"
            client._loop_runner.stop()
        raise
    return client


def _ignore_sigint() -> None:
    """Ctrl-C in a terminal reaches every process of the group: the workers of our own local
    cluster leave it to the client, which stops the run and then the cluster."""
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread of that process
        pass


class _QuietWorkers:
    """A Dask worker plugin (also for workers restarted after a crash)."""

    name = "simcards-ignore-sigint"
    idempotent = True

    def setup(self, worker):
        _ignore_sigint()


def _warm(job: Job) -> str:
    from simcards.version import __version__

    engine(job)
    return __version__


def _in_flight(job: Job, ranges) -> str:
    """The ranges a Dask run has in flight, for a message: ``games 0..49,999 and 50,000..99,999
    of yaniv (strategies: /path/spin.py:spin)``."""
    from simcards.kernelcall import players

    spans = [f"{f:,}..{f + c - 1:,}" for f, c in sorted(ranges)]
    more = len(spans) - 3
    listed = ", ".join(spans[:3]) + (f" and {more} more range{'s' if more > 1 else ''}" if more > 0 else "")
    return f"games {listed} of {job.game} on the Dask workers (strategies: {players(job.strategies)})"


class DaskBackend(Backend):
    name = "dask"

    def __init__(self, scheduler: str | None = None, workers: int | None = None, threads: int | None = None,
                 connect_timeout: float = 10.0):
        try:
            import distributed
        except ImportError:  # pragma: no cover - depends on the install
            raise SimcardsError("--backend dask needs Dask distributed: pip install 'simcards[dask]'") from None
        if workers is not None and not 1 <= workers <= 1024:
            raise SimcardsError(f"--workers {workers}: allowed 1..1024")
        if threads is not None and not 1 <= threads <= 256:
            raise SimcardsError(f"--threads {threads}: allowed 1..256 numba threads per worker")
        if scheduler is not None and workers is not None:
            raise SimcardsError("--workers starts a local cluster; with --scheduler the cluster's own workers are used")
        self.threads = threads or 1
        self.cluster = None
        self.scheduler = scheduler
        for name in ("distributed", "distributed.worker", "distributed.nanny", "distributed.scheduler",
                     "distributed.core", "distributed.comm", "distributed.client"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        self.no_workers_wait = _no_workers_wait()
        self.no_workers_since: float | None = None
        self.lost = False
        self.left_running = False  # Ctrl-C left ranges playing on the workers
        if scheduler is not None:
            try:
                self.client = _client(scheduler, timeout=connect_timeout, set_as_default=False)
            except Exception as exc:  # bad address, refused, timed out, TLS not configured...
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise SimcardsError(f"cannot reach the Dask scheduler at {scheduler!r} ({reason}); start one with "
                                    "`dask scheduler`, check the address, or leave out --scheduler to use a "
                                    "local cluster") from None
        else:
            n = workers or os.cpu_count() or 1
            if _TRACKER_QUIET not in sys.warnoptions:  # the tracker (started below) inherits -W options
                sys.warnoptions.append(_TRACKER_QUIET)
            # ":0", not None: the scheduler's HTTP server starts either way, and on the default port
            # 8787 it warns "Port 8787 is already in use" whenever another cluster runs.
            self.cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                    dashboard_address=":0", silence_logs=logging.CRITICAL)
            self.client = distributed.Client(self.cluster, set_as_default=False)
            self.scheduler = self.cluster.scheduler_address
            try:
                self.client.register_plugin(_QuietWorkers())
            except Exception:  # pragma: no cover - older distributed: best effort
                self.client.run(_ignore_sigint)
        info = self.client.scheduler_info()
        self.workers = len(info.get("workers", {}))
        self.slots = sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()) or 1
        if self.workers == 0:
            self.close()
            raise SimcardsError(f"the Dask scheduler at {self.scheduler!r} has no workers")

    def describe(self) -> dict:
        return {"backend": "dask", "scheduler": self.scheduler, "workers": self.workers,
                "threads_per_worker": self.threads, "local_cluster": self.cluster is not None}

    def warm(self, job: Job) -> None:
        from simcards.version import __version__

        try:
            versions = self.client.run(_warm, job)
        except SimcardsError:
            raise
        except Exception as exc:
            self._raise_if_lost(exc)
            raise
        bad = {w: v for w, v in versions.items() if v != __version__}
        if bad:
            w, v = next(iter(bad.items()))
            raise SimcardsError(f"Dask worker {w} runs simcards {v}, this process {__version__}: install the same "
                                "version everywhere (results could differ)")

    def check_cluster(self) -> None:
        """Stop with one line when the scheduler is gone or has had no worker for too long (Dask
        itself would wait for ever, or until its reconnect gives up with a long traceback)."""
        if self.client.status != "running":
            self.lost = True
            raise SimcardsError(f"lost the Dask scheduler at {self.scheduler!r} (its connection closed)")
        # refreshed by the client every 2 s without blocking (scheduler_info() would ask the scheduler)
        n = (getattr(self.client, "_scheduler_identity", None) or {}).get("n_workers")
        now = time.monotonic()
        if n != 0:
            self.no_workers_since = None
        elif self.no_workers_since is None:
            self.no_workers_since = now
        elif now - self.no_workers_since >= self.no_workers_wait:
            raise SimcardsError(f"the Dask scheduler at {self.scheduler!r} has had no workers for "
                                f"{self.no_workers_wait:g} s (start some with `dask worker {self.scheduler}`)")

    def _raise_if_lost(self, exc: Exception) -> None:
        """After an error from Dask: one line if the cause is a lost scheduler (after a connection
        error, give the client a moment to mark the connection lost)."""
        from concurrent.futures import CancelledError

        from distributed.client import ClosedClientError

        if isinstance(exc, (OSError, ClosedClientError, CancelledError)):
            deadline = time.monotonic() + 2
            while self.client.status == "running" and time.monotonic() < deadline:
                time.sleep(0.05)
        self.check_cluster()

    def _next_batch(self, ac, what=None) -> list:
        """The futures finished so far, at least one; between looks, check the cluster's health
        and, after a first Ctrl-C, how long the ranges in flight have had to finish
        (``kernelcall.check_stop``: ``what`` names them)."""
        from simcards import kernelcall

        delay = 0.002
        while True:
            batch = ac.next_batch(block=False)
            if batch:
                return batch
            self.check_cluster()
            if what is not None:
                kernelcall.check_stop(what)
            time.sleep(delay)
            delay = min(2 * delay, POLL_SECONDS)

    def imap(self, job: Job, ranges):
        from distributed import as_completed

        token = uuid.uuid4().hex[:12]
        pending = deque(ranges)
        attempts: dict[int, int] = {}
        futures: dict = {}
        window = max(2, 2 * self.slots)
        if not pending:
            return
        ac = None
        first_batch = []
        self.no_workers_since = None

        def submit(first: int, count: int) -> None:
            attempts[first] = attempts.get(first, 0) + 1
            fut = self.client.submit(execute, job, first, count, self.threads, pure=False,
                                     key=f"simcards-{token}-{first}-{attempts[first]}")
            futures[fut] = (first, count)
            if ac is None:
                first_batch.append(fut)
            else:
                ac.add(fut)

        try:
            for _ in range(min(window, len(pending))):
                submit(*pending.popleft())
            ac = as_completed(first_batch, loop=self.client.loop)
            while futures:
                for fut in self._next_batch(ac, lambda: _in_flight(job, futures.values())):
                    first, count = futures.pop(fut)
                    if fut.status != "finished":
                        self.check_cluster()  # futures are cancelled when the scheduler goes
                        exc = fut.exception() if fut.status == "error" else None
                        if isinstance(exc, SimcardsError):
                            raise SimcardsError(str(exc))
                        if attempts[first] >= MAX_ATTEMPTS:
                            reason = f"{type(exc).__name__}: {exc}" if exc is not None else fut.status
                            raise SimcardsError(f"games {first:,}..{first + count - 1:,} failed on the Dask "
                                                f"workers {attempts[first]} times ({reason})")
                        submit(first, count)  # the same range again: same games, counted once
                        continue
                    result = fut.result()
                    fut.release()
                    if pending:
                        submit(*pending.popleft())
                    yield first, count, result
        except KeyboardInterrupt:
            self.left_running = bool(futures)  # tasks running on workers cannot be stopped by cancelling
            raise
        except (SimcardsError, GeneratorExit):
            raise
        except Exception as exc:
            self._raise_if_lost(exc)
            raise
        finally:
            self._cancel(list(futures))

    def _cancel(self, futures: list) -> None:
        """Stop the ranges still in flight (after Ctrl-C or an error): one message, only on a live
        connection, never an error of its own that would hide the reason the run stopped."""
        if futures and self.client.status == "running":
            with contextlib.suppress(Exception):
                self.client.cancel(futures)

    def _kill_local_workers(self) -> None:
        """After Ctrl-C left ranges playing: the worker processes of our own local cluster are
        killed rather than asked to close (a range in nopython code, a user policy in a loop, does
        not listen, and a nanny waits 5 s before it kills)."""
        import signal

        for nanny in list((getattr(self.cluster, "workers", None) or {}).values()):
            pid = getattr(getattr(nanny, "process", None), "pid", None)
            if pid:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

    def close(self) -> None:
        if self.left_running and self.cluster is not None:
            self._kill_local_workers()
        try:
            if self.lost or self.client.status != "running":  # do not wait 2 x the connect timeout
                self.client.close(timeout=2)                     # for a scheduler that is gone
            else:
                self.client.close()
        except Exception:  # pragma: no cover - closing a broken connection
            pass
        if self.cluster is not None:
            try:
                self.cluster.close()
            except Exception:  # pragma: no cover
                pass
            self.cluster = None
