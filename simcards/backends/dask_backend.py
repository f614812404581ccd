"""The Dask distributed backend: index ranges as tasks on workers, results back to this process.

Without a scheduler address a ``LocalCluster`` of worker processes is started on this machine (one
per core, one numba thread each). A range whose worker dies is rescheduled by Dask; if it keeps
failing it is resubmitted by this client (up to ``MAX_ATTEMPTS`` times in all) under a new key. The
client accepts each range's result once, so no game is lost or counted twice. At most ``window``
ranges are in flight, so the client never holds more than a few chunks of results.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections import deque

from simcards.backends import Backend
from simcards.backends.job import Job, engine, execute
from simcards.errors import SimcardsError

MAX_ATTEMPTS = 3


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
    from simcards import __version__

    engine(job)
    return __version__


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
        if scheduler is not None:
            try:
                self.client = distributed.Client(scheduler, timeout=connect_timeout, set_as_default=False)
            except (OSError, TimeoutError, ValueError) as exc:
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise SimcardsError(f"cannot reach the Dask scheduler at {scheduler!r} ({reason}); start one with "
                                    "`dask scheduler`, check the address, or leave out --scheduler to use a "
                                    "local cluster") from None
        else:
            n = workers or os.cpu_count() or 1
            self.cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                                    dashboard_address=None, silence_logs=logging.CRITICAL)
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
        from simcards import __version__

        versions = self.client.run(_warm, job)
        bad = {w: v for w, v in versions.items() if v != __version__}
        if bad:
            w, v = next(iter(bad.items()))
            raise SimcardsError(f"Dask worker {w} runs simcards {v}, this process {__version__}: install the same "
                                "version everywhere (results could differ)")

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

        def submit(first: int, count: int) -> None:
            attempts[first] = attempts.get(first, 0) + 1
            fut = self.client.submit(execute, job, first, count, self.threads, pure=False,
                                     key=f"simcards-{token}-{first}-{attempts[first]}")
            futures[fut] = (first, count)
            if ac is None:
                first_batch.append(fut)
            else:
                ac.add(fut)

        for _ in range(min(window, len(pending))):
            submit(*pending.popleft())
        ac = as_completed(first_batch, loop=self.client.loop)
        try:
            for fut in ac:
                first, count = futures.pop(fut)
                if fut.status != "finished":
                    exc = fut.exception() if fut.status == "error" else None
                    if isinstance(exc, SimcardsError):
                        raise SimcardsError(str(exc))
                    if attempts[first] >= MAX_ATTEMPTS:
                        reason = f"{type(exc).__name__}: {exc}" if exc is not None else fut.status
                        raise SimcardsError(f"games {first:,}..{first + count - 1:,} failed on the Dask workers "
                                            f"{attempts[first]} times ({reason})")
                    submit(first, count)  # the same range again: same games, counted once
                    continue
                result = fut.result()
                fut.release()
                if pending:
                    submit(*pending.popleft())
                yield first, count, result
        finally:
            for fut in list(futures):
                fut.cancel()

    def close(self) -> None:
        try:
            self.client.close()
        except Exception:  # pragma: no cover - closing a broken connection
            pass
        if self.cluster is not None:
            try:
                self.cluster.close()
            except Exception:  # pragma: no cover
                pass
            self.cluster = None
