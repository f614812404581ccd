"""Run many games in chunks: one jitted call per chunk, a progress bar, Ctrl-C keeps what finished.

The runner never loops over games in Python; it only cuts the index range into chunks, hands each
chunk to the game's batch function and collects the columnar results. Game ``i`` is the same game
whatever the chunk size, so chunking is invisible in the results.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterator

import numba

DEFAULT_CHUNK = 50_000


@dataclass
class Chunk:
    first: int
    count: int


def chunks(total: int, chunk: int = DEFAULT_CHUNK, start: int = 0) -> Iterator[Chunk]:
    first = start
    end = start + total
    while first < end:
        count = min(chunk, end - first)
        yield Chunk(first, count)
        first += count


def set_threads(threads: int | None) -> int:
    """Use ``threads`` numba threads (None: all). Returns the number in use."""
    if threads is not None:
        top = numba.config.NUMBA_NUM_THREADS
        if not 1 <= threads <= top:
            from simcards.errors import SimcardsError

            raise SimcardsError(f"--threads {threads}: allowed 1..{top} on this machine")
        numba.set_num_threads(threads)
    return numba.get_num_threads()


class Progress:
    """A rich progress bar on stderr that appears only once a run has taken more than a second,
    and only when stderr is a terminal."""

    def __init__(self, total: int, label: str, enabled: bool = True):
        self.total = total
        self.label = label
        # only on a terminal: piped or redirected, a bar is noise (and leaves a blank line)
        self.enabled = enabled and total > 0 and sys.stderr.isatty()
        self.start = time.perf_counter()
        self.done = 0
        self._bar = None
        self._task = None

    def advance(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        if self._bar is None and time.perf_counter() - self.start > 1.0 and self.done < self.total:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeRemainingColumn

            self._bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("games"), TimeRemainingColumn(), console=Console(file=sys.stderr),
                            transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=self.total, completed=self.done)
        elif self._bar is not None:
            self._bar.update(self._task, completed=self.done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


class StopRequest:
    """Ctrl-C while chunks run: the first press asks to stop once the chunk in flight is done (that
    chunk is kept: written and counted), a second press stops at once (that chunk is dropped).
    Only in the main thread (where Python delivers signals); elsewhere Ctrl-C is left as it is."""

    def __init__(self, note: str = "stopping after the chunk in flight (Ctrl-C again to stop at once)"):
        self.note = note
        self.requested = False
        self._installed = False
        self._old = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            try:
                self._old = signal.signal(signal.SIGINT, self._handler)
                self._installed = True
            except (ValueError, OSError):  # pragma: no cover - embedded interpreters
                pass
        return self

    def _handler(self, signum, frame):
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        print(f"\n{self.note}", file=sys.stderr, flush=True)

    def __exit__(self, *exc):
        if self._installed:
            signal.signal(signal.SIGINT, self._old if self._old is not None else signal.default_int_handler)
        return False


def run_chunked(total: int, play: Callable[[int, int], object], on_result: Callable[[Chunk, object], None],
                chunk: int = DEFAULT_CHUNK, progress: bool = True, label: str = "simulating") -> tuple[int, bool]:
    """Play ``total`` games in chunks; ``on_result`` receives each chunk's result as soon as it is
    done. Returns (games completed, interrupted?). Ctrl-C stops after keeping finished chunks."""
    # Small first chunks so the bar appears promptly and compile time is not hidden in a big chunk.
    bar = Progress(total, label, progress)
    done = 0
    interrupted = False
    try:
        for ch in chunks(total, chunk):
            result = play(ch.first, ch.count)
            on_result(ch, result)
            done += ch.count
            bar.advance(ch.count)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    return done, interrupted


def play_games(game: str, rules, players: int, strategies, seed: int, first: int, count: int,
               chunk: int = DEFAULT_CHUNK, backend=None, on_chunk: Callable[[int], None] | None = None):
    """The per-game table of games ``first .. first+count-1`` on ``backend`` (default: the one set
    by ``simcards.backends.using(...)``, else this process). For study code (compare, tune,
    tournament) that plays many small batches: with ``using("dask", ...)`` around a study, every
    batch is cut into ranges and played on the cluster, with the same rows as locally.
    ``on_chunk(count)`` is called as each range finishes (progress bars)."""
    import pandas as pd

    from simcards.backends import LocalBackend, current
    from simcards.backends.job import Job, portable_specs
    from simcards.games import canonical

    be = backend or current() or LocalBackend()
    specs = tuple(strategies) if be.name == "local" else portable_specs(game, list(strategies))
    job = Job(canonical(game), rules, int(players), specs, int(seed), False, False)
    ranges = [(c.first, c.count) for c in chunks(count, chunk, start=first)]
    parts = {}
    for f, c, result in be.imap(job, ranges):
        parts[f] = result[1]
        if on_chunk is not None:
            on_chunk(c)
    if not parts:
        from simcards.backends.job import engine

        return engine(job).run.play(seed, first, 0, False)[0]
    return pd.concat([parts[f] for f in sorted(parts)], ignore_index=True)
