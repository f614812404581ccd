"""Kernel calls that Ctrl-C can stop.

A numba kernel (and a user policy inside it) is nopython code: it never returns to the interpreter
until it is done, so a SIGINT handler of the thread that called it cannot run, and a policy stuck
in a loop would make Ctrl-C do nothing. :func:`call` runs the kernel call in a worker thread (the
parallel kernels release the GIL while their ``prange`` loop runs) and keeps the main thread
waiting in short timed joins, where Python runs its signal handlers at once:

- while a stop is asked (``play.StopRequest``, the first Ctrl-C) the call may finish within
  :func:`grace` seconds (``SIMCARDS_STOP_GRACE``, default 1); after that it is left running and
  :class:`StopWaiting` (a ``KeyboardInterrupt``) is raised, after one line on stderr saying which
  games were being played and by which strategies (a user policy by name and file);
- any ``KeyboardInterrupt`` (a second Ctrl-C, or Ctrl-C where no stop is asked) is raised at once;
  the call is left running.

numba cannot stop a thread, so a call left running goes on until it ends (for ever, for a policy
in an endless loop). :func:`left_running` says what is still running: the command line then ends
the process with ``os._exit`` (``cli.app.main``); the Python API returns, and the next kernel call
of the process waits for the one left running first (Ctrl-C gives up), since numba's parallel
backends need not accept two launches at once.

:func:`start` and :func:`finish` are :func:`call` in two steps, so that the main thread can do other
work while a call plays (``LocalBackend`` writes one range while the next plays); a started call
whose result is no longer wanted is given to :func:`drop`.

Outside the main thread (Dask workers, a user's own threads) a call runs directly, as before:
signals are only ever delivered to the main thread.
"""

from __future__ import annotations

import contextvars
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

POLL = 0.05  # seconds between two looks at a running call (the signal handlers run in between)
_GRACE = 1.0


class StopWaiting(KeyboardInterrupt):
    """A stop was asked and the kernel call in flight did not finish within the grace period."""


def grace() -> float:
    """Seconds a call may go on after the first Ctrl-C (``SIMCARDS_STOP_GRACE``, default 1)."""
    text = os.environ.get("SIMCARDS_STOP_GRACE")
    if not text:
        return _GRACE
    try:
        value = float(text)
    except ValueError:
        return _GRACE
    return value if value >= 0 else _GRACE


@dataclass
class _Call:
    fn: Callable[..., Any]
    args: tuple
    describe: str | Callable[[], str]  # what the call plays, for a message (a function: asked when needed)
    threads: int | None
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None
    thread: threading.Thread | None = None
    what: str = ""
    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0  # how long it played, once done

    def named(self) -> str:
        if not self.what:
            self.what = self.describe() if callable(self.describe) else self.describe
        return self.what

    def run(self) -> None:
        try:
            if self.threads is not None:  # numba's thread count is per calling thread
                import numba

                numba.set_num_threads(self.threads)
            self.result = self.fn(*self.args)
        except BaseException as exc:  # handed to the waiting thread
            self.error = exc
        finally:
            self.seconds = time.monotonic() - self.started
            self.done.set()


# The stop request of the run in progress (play.StopRequest: ``requested``, ``since``), if any.
_watch: list[Any] = []
_left: list[_Call] = []  # calls left running after an interruption (this process cannot stop them)


def watch(stop) -> None:
    _watch.append(stop)


def unwatch(stop) -> None:
    if stop in _watch:
        _watch.remove(stop)


def left_running() -> list[str]:
    """What calls left running after an interruption are still playing (their descriptions)."""
    _left[:] = [c for c in _left if not c.done.is_set()]
    return [c.what for c in _left]


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _wait_for_left() -> None:
    """Before a new call: let a call an interrupted run left running end first."""
    running = [c for c in _left if not c.done.is_set()]
    if not running:
        _left.clear()
        return
    _say(f"waiting for {running[0].what}, left playing by an interrupted run (numba cannot stop them; "
         "Ctrl-C to give up, or restart Python)")
    for c in running:
        while not c.done.wait(POLL):
            pass
    _left.clear()


def stop_asked() -> bool:
    """Has the run in progress been asked to stop (the first Ctrl-C)?"""
    return bool(_watch and getattr(_watch[-1], "requested", False))


def check_stop(what: str | Callable[[], str]) -> None:
    """While waiting for games: after one line naming ``what`` is still playing, raise
    :class:`StopWaiting` when a stop was asked more than :func:`grace` seconds ago."""
    stop = _watch[-1] if _watch else None
    since = getattr(stop, "since", None)
    if since is not None and time.monotonic() - since > grace():
        _say(f"Ctrl-C: {what() if callable(what) else what} still playing after {grace():g} s: stopped without them")
        raise StopWaiting


def call(fn: Callable[..., Any], *args, what: str | Callable[[], str] = "games") -> Any:
    """``fn(*args)`` (a kernel call), stoppable by Ctrl-C as the module says. ``what`` names what
    the call plays, for the messages (``games_text``; a function is only called when a message
    needs it)."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    return finish(start(fn, *args, what=what))


def start(fn: Callable[..., Any], *args, what: str | Callable[[], str] = "games") -> _Call:
    """``fn(*args)`` begun in a worker thread (from the main thread only), for :func:`finish` or
    :func:`drop`: the caller can do other work meanwhile (``LocalBackend`` writes a range while the
    next one plays)."""
    _wait_for_left()
    try:
        import numba

        threads: int | None = numba.get_num_threads()
    except Exception:  # numba's threading layer could not start: the call will say why
        threads = None
    ctx = contextvars.copy_context()
    job = _Call(lambda *a: ctx.run(fn, *a), args, what, threads)
    job.thread = threading.Thread(target=job.run, name="simcards-kernel", daemon=True)
    job.thread.start()
    return job


def finish(job: _Call) -> Any:
    """The result of a call :func:`start` began, waited for as the module says."""
    try:
        while not job.done.wait(POLL):
            check_stop(job.named)
    except BaseException as exc:
        if not job.done.is_set():
            _leave(job)
            if isinstance(exc, KeyboardInterrupt) and not isinstance(exc, StopWaiting):
                _say(f"Ctrl-C: stopped while playing {job.what}")
        raise
    if job.error is not None:
        raise job.error.with_traceback(job.error.__traceback__)
    return job.result


def drop(job: _Call) -> None:
    """A call :func:`start` began whose result nobody will read (the run stopped or failed first):
    it may end within :func:`grace` seconds, silently (Ctrl-C gives up at once); after that it
    is left running, as an interrupted call is."""
    end = time.monotonic() + grace()
    try:
        while not job.done.wait(POLL) and time.monotonic() < end:
            pass
    finally:
        if not job.done.is_set():
            _leave(job)


def _leave(job: _Call) -> None:
    job.named()  # described now, while the caller's state is as it was
    _left.append(job)


def players(strategies: Iterable) -> str:
    """Who plays, for a message: ``policy 'spin' from /path/spin.py, threshold:call=3`` (each
    strategy once; a user policy by name and file)."""
    from simcards.policy import source_file

    seen: list[str] = []
    for s in strategies:
        fam = getattr(s, "family", None)
        if fam is not None and fam.decide is not None:
            path = source_file(fam.decide)
            text = f"policy {fam.name!r}" + (f" from {path}" if path is not None else "")
        else:
            text = getattr(s, "spec", None) or str(s)
        if text not in seen:
            seen.append(text)
    return ", ".join(seen) or "?"


def games_text(game: str, first: int, count: int, strategies: Iterable) -> str:
    """``games 0..49,999 of yaniv (strategies: policy 'spin' from /path/spin.py, random)``."""
    span = f"game {first:,}" if count == 1 else f"games {first:,}..{first + count - 1:,}"
    return f"{span} of {game} (strategies: {players(strategies)})"
