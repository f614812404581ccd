"""Where chunks of games are played: in this process (``local``, numba threads) or on Dask
distributed workers (``dask``). Both run the same :func:`simcards.backends.job.execute` on the same
index ranges, so the tables are identical whatever the backend.

A backend yields ``(first, count, result)`` as ranges finish (in any order); the API writes each
result once, keyed by ``first``, so a range retried after a worker failure is never counted twice.

``using(...)`` sets a default backend for every ``simulate`` call inside the block — the way study
commands (compare, tune, tournament, report) run many simulations on one cluster.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Iterator

from simcards.backends.job import Job, execute
from simcards.errors import SimcardsError

BACKENDS = ("local", "dask")
AHEAD_S = 5.0  # LocalBackend plays the next range while one is written only after a range this quick


class Backend:
    name = "base"
    workers = 1

    def imap(self, job: Job, ranges: list[tuple[int, int]]) -> Iterator[tuple[int, int, Any]]:
        raise NotImplementedError

    def warm(self, job: Job) -> None:
        """Compile or load the engine before timing starts."""

    def describe(self) -> dict:
        return {"backend": self.name}

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class LocalBackend(Backend):
    """This process; each chunk is one jitted call with ``prange`` over its games."""

    name = "local"

    def __init__(self, threads: int | None = None):
        self.threads = threads

    def warm(self, job: Job) -> None:
        from simcards import kernelcall
        from simcards.backends.job import built, engine

        if built(job) is None:  # (a built engine has nothing left to compile: no thread to start)
            kernelcall.call(engine, job, what=lambda: _playing(job, 0, 1))  # compiles and plays game 0

    def imap(self, job, ranges):
        """The ranges in order. While one is handed on (written to a run directory, counted), the
        next one already plays, in the worker thread ``kernelcall`` runs it in: the kernel and the
        writing overlap. Only after a range that played within ``AHEAD_S`` seconds, so that a run
        stopped or failing while it writes leaves at most about that much playing for nothing."""
        import threading

        from simcards import kernelcall

        if threading.current_thread() is not threading.main_thread():  # a kernel call runs in place
            for first, count in ranges:
                yield first, count, execute(job, first, count)
            return

        def start(i: int):  # Ctrl-C is seen while a range plays (simcards.kernelcall)
            first, count = ranges[i]
            return kernelcall.start(execute, job, first, count, what=lambda: _playing(job, first, count))

        ahead = None
        try:
            for i, (first, count) in enumerate(ranges):
                call, ahead = (ahead if ahead is not None else start(i)), None
                result = kernelcall.finish(call)
                if i + 1 < len(ranges) and call.seconds <= AHEAD_S and not kernelcall.stop_asked():
                    ahead = start(i + 1)
                yield first, count, result
        finally:
            if ahead is not None:  # the run stopped (or failed) while a range was handed on
                kernelcall.drop(ahead)


def _playing(job: Job, first: int, count: int) -> str:
    """What a range of ``job`` is, for a message: its games and who plays them (a user policy by
    name and file)."""
    from simcards import kernelcall
    from simcards.backends.job import built

    eng = built(job)
    strategies = eng.run.strategies if eng is not None else job.strategies
    return kernelcall.games_text(job.game, first, count, strategies)


_CURRENT: contextvars.ContextVar[Backend | None] = contextvars.ContextVar("simcards_backend", default=None)


def make_backend(name: str | None = "local", *, scheduler: str | None = None, workers: int | None = None,
                 threads: int | None = None, connect_timeout: float | None = None) -> Backend:
    """A backend by name. ``dask`` connects to ``scheduler`` or starts a LocalCluster of
    ``workers`` processes (default: one per core) with ``threads`` numba threads each (default 1)."""
    name = (name or "local").strip().lower()
    if name == "local":
        if scheduler is not None or workers is not None:
            raise SimcardsError("--scheduler and --workers need --backend dask")
        return LocalBackend(threads)
    if name == "dask":
        import os

        from simcards.backends.dask_backend import DaskBackend

        if connect_timeout is None:
            connect_timeout = float(os.environ.get("SIMCARDS_DASK_CONNECT_TIMEOUT", "10"))

        return DaskBackend(scheduler=scheduler, workers=workers, threads=threads, connect_timeout=connect_timeout)
    raise SimcardsError(f"--backend {name!r}: allowed {', '.join(BACKENDS)}")


def current() -> Backend | None:
    return _CURRENT.get()


@contextlib.contextmanager
def using(backend: Backend | str, **kwargs):
    """``with using("dask", scheduler=...):`` every simulate() inside runs on that backend (one
    cluster for the whole block)."""
    be = backend if isinstance(backend, Backend) else make_backend(backend, **kwargs)
    owned = be is not backend
    token = _CURRENT.set(be)
    try:
        yield be
    finally:
        _CURRENT.reset(token)
        if owned:
            be.close()
