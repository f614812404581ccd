"""The one play loop: every run (``simcards.simulate``) and every study (``studies.common.Table``)
plays its games here, range by range on a backend (this process or Dask workers).

- Games are cut into index ranges (:func:`chunks`); a backend plays them in any order and
  :func:`play_ranges` hands each finished range on once; results are put back in game order, so
  game ``i`` is the same game whatever the chunk size, thread count or backend.
- A run keeps either tables or streamed sums, never both: with a per-game table in memory the
  summary is ``summarize`` run once on it at the end; without one (``summary_only``, or tables only
  written to disk) each range becomes partial sums (``stats.aggregate``) merged in game order and
  finished once. Partial sums are also what a run directory records per range (to resume).
- Ctrl-C (:class:`StopRequest`) stops after the range in flight is kept; a progress bar shows on
  a terminal (:class:`Progress`).
"""

from __future__ import annotations

import contextlib
import json
import platform
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import numba
import numpy as np
import pandas as pd

from simcards.backends import Backend, LocalBackend, current
from simcards.backends.job import Job, engine
from simcards.errors import SimcardsError
from simcards.spec import RunSpec
from simcards.stats.aggregate import Aggregator
from simcards.stats.estimates import Estimate
from simcards.store import DiskError, RunStore

DEFAULT_CHUNK = 50_000


# ----- ranges, threads, progress, Ctrl-C ------------------------------------------------------------
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
        top = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]  # set when numba is imported
        if not 1 <= threads <= top:
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
        self._bar: Any = None
        self._task: Any = None

    def advance(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        if self._bar is None and time.perf_counter() - self.start > 1.0 and self.done < self.total:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
            from rich.progress import Progress as Bar

            from simcards import compiling

            self._bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("games"), TimeRemainingColumn(), console=Console(file=sys.stderr),
                            transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=self.total, completed=self.done)
            compiling.live_display(self, True)  # a compile mid-study (a new engine) hides the bar a while
        elif (bar := self._bar) is not None:
            bar.update(self._task, completed=self.done)

    def close(self) -> None:
        """Stop showing the bar (shown again by the next advance, if the run goes on)."""
        bar, self._bar = self._bar, None
        if bar is not None:
            from simcards import compiling

            bar.stop()
            compiling.live_display(self, False)


class StopRequest:
    """Ctrl-C while chunks run: the first press asks to stop once the chunk in flight is done (that
    chunk is kept: written and counted) — if it is done within ``kernelcall.grace()`` seconds (1);
    otherwise the run stops without it, saying which games and strategies were still playing
    (``simcards.kernelcall``: a policy stuck in a loop cannot hold a run). A second press stops at
    once (that chunk is dropped). Only in the main thread (where Python delivers signals);
    elsewhere Ctrl-C is left as it is."""

    def __init__(self, note: str | None = None):
        from simcards import kernelcall

        self.note = note or (f"stopping after the chunk in flight if it ends within {kernelcall.grace():g} s "
                             "(Ctrl-C again to stop at once)")
        self.requested = False
        self.since: float | None = None  # time.monotonic() of the first press
        self._installed = False
        self._old: Any = None

    def __enter__(self) -> StopRequest:
        from simcards import kernelcall

        if threading.current_thread() is threading.main_thread():
            try:
                self._old = signal.signal(signal.SIGINT, self._handler)
                self._installed = True
                kernelcall.watch(self)
            except (ValueError, OSError):  # pragma: no cover - embedded interpreters
                pass
        return self

    def _handler(self, signum, frame) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        self.since = time.monotonic()
        print(f"\n{self.note}", file=sys.stderr, flush=True)

    def __exit__(self, *exc) -> None:
        from simcards import kernelcall

        if self._installed:
            kernelcall.unwatch(self)
            signal.signal(signal.SIGINT, self._old if self._old is not None else signal.default_int_handler)


def versions() -> dict:
    """The versions a result was produced with (recorded in every run's and study's metadata)."""
    from simcards.version import __version__

    return {"simcards": __version__, "numba": numba.__version__, "numpy": np.__version__,
            "pandas": pd.__version__, "python": platform.python_version()}


# ----- the loop ---------------------------------------------------------------------------------------
Keep = Callable[[int, int, Any], None]


def play_ranges(job: Job, be: Backend, ranges: list[tuple[int, int]], keep: Keep, bar: Progress | None = None,
                stop: StopRequest | None = None) -> None:
    """Play ``ranges`` on ``be``; ``keep(first, count, result)`` receives each as it finishes (in
    any order). Returns early when a stop was requested, after the range in flight is kept."""
    with contextlib.closing(be.imap(job, ranges)) as results:  # type: ignore[type-var]  # closed on return: Dask cancels the rest
        for first, count, result in results:
            keep(first, count, result)
            if bar is not None:
                bar.advance(count)
            if stop is not None and stop.requested:
                return


def empty_games(job: Job) -> pd.DataFrame:
    """A per-game table with the game's columns and no rows."""
    return engine(job).run.play(job.seed, 0, 0, False)[0]


def _cat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


def play_range(spec: RunSpec, first: int, count: int, *, backend: Backend | None = None,
               chunk: int = DEFAULT_CHUNK, on_chunk: Callable[[int], None] | None = None):
    """The per-game table of games ``first .. first+count-1`` (with ``spec.detail``: the pair
    (games, per-unit table)), on ``backend`` (default: the one set by
    ``simcards.backends.using(...)``, else this process). Studies play through this; the rows are
    the same on any backend. ``on_chunk(count)`` is called as each range finishes."""
    be = backend or current() or LocalBackend()
    job = spec.job(remote=be.name != "local")
    parts: dict[int, tuple] = {}

    def keep(f: int, c: int, result: tuple) -> None:
        parts[f] = (result[1], result[2])
        if on_chunk is not None:
            on_chunk(c)

    play_ranges(job, be, [(c.first, c.count) for c in chunks(count, chunk, start=first)], keep)
    if not parts:
        games, detail = engine(job).run.play(job.seed, first, 0, job.detail)
        return (games, detail) if spec.detail else games
    ordered = [parts[f] for f in sorted(parts)]
    games = _cat([g for g, _ in ordered])
    return (games, _cat([d for _, d in ordered])) if spec.detail else games


# ----- a run: simulate's result -------------------------------------------------------------------------
@dataclass
class Simulation:
    """What a run produced: the per-game table, the per-round/hand/deal table (also under the
    game's name for it, e.g. ``.rounds``: ``GameDef.detail_table``), the summary and the run metadata."""

    game: str
    games: pd.DataFrame
    detail: pd.DataFrame | None
    summary: dict
    meta: dict
    detail_name: str  # the game's per-unit table: rounds / hands / deals (``GameDef.detail_table``)
    interrupted: bool = False
    out: Path | None = None

    def __getattr__(self, name: str):
        if name != "detail_name" and name == self.__dict__.get("detail_name"):
            return self.__dict__["detail"]
        raise AttributeError(name)

    def summary_dict(self) -> dict:
        """The summary as plain JSON-ready data: each estimate as ``{value, ci95, n}``."""
        return {"meta": self.meta, **_plain(self.summary)}

    def to_json(self) -> str:
        return json.dumps(self.summary_dict(), indent=2, default=json_default)


def _plain(obj):
    if isinstance(obj, Estimate):
        return obj.as_dict()
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (np.floating,)):
        return float(obj)
    return obj


def json_default(obj):
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (np.floating,)):
        return None if np.isnan(obj) else float(obj)
    if isinstance(obj, Path):
        return str(obj)
    return str(obj)


def table_summary(gdef, agg: Aggregator, games_df: pd.DataFrame, players: int) -> dict:
    """The summary of a whole per-game table, computed as the streamed one is (``agg``: the table's
    counts and sums, exact integers, finished by the same formulas), so that a run that keeps its
    table and a --summary-only run of the same seed give the same numbers bit for bit (float sums
    over the table's arrays used to move an interval bound in its last digit). A summary the
    aggregator cannot stream is the game's ``summarize`` as before."""
    try:
        return agg.finish(agg.partial(games_df))
    except SimcardsError:
        return gdef.summarize(games_df, players)


class _Ordered:
    """Merges chunk aggregates in game order whatever order they finish in (deterministic sums)."""

    def __init__(self, agg: Aggregator, firsts: list[int]):
        self.agg = agg
        self.order = firsts
        self.pos = 0
        self.buffer: dict[int, Any] = {}
        self.added: set[int] = set()
        self.total: Any = None

    def add(self, first: int, partial) -> None:
        if first in self.added:  # once per chunk (a chunk re-read from disk after a Ctrl-C)
            return
        self.added.add(first)
        self.buffer[first] = partial
        while self.pos < len(self.order) and self.order[self.pos] in self.buffer:
            self.total = self.agg.merge(self.total, self.buffer.pop(self.order[self.pos]))
            self.pos += 1

    def result(self):
        total = self.total
        for first in sorted(self.buffer):  # an interrupted run: whatever finished
            total = self.agg.merge(total, self.buffer[first])
        return total


class _Kept:
    """What a run keeps of its finished ranges: the tables (per first game) and, when the summary
    is streamed or a run directory records them, the ranges' partial sums merged in game order."""

    def __init__(self, spec: RunSpec, firsts: list[int], store: RunStore | None, keep_games: bool,
                 keep_detail: bool):
        self.gdef = spec.gdef
        self.store = store
        self.keep_games = keep_games
        self.keep_detail = keep_detail
        self.agg = Aggregator(self.gdef, spec.players)
        self.sums = not keep_games or store is not None  # the summary is streamed, or the disk records sums
        self.ordered = _Ordered(self.agg, firsts)
        self.added: set[int] = set()
        self.games: dict[int, pd.DataFrame] = {}
        self.detail: dict[int, pd.DataFrame] = {}

    def result(self, first: int, count: int, result: tuple) -> None:
        """Write one finished range (with a run directory), keep its tables, then count it (what a
        Ctrl-C cuts between the two is read back from the disk by :meth:`load_done`)."""
        if result[0] == "summary":
            partial_json, frames = result[1], None
        else:
            g, d = result[1], result[2]
            partial_json = self.agg.dump(self.agg.partial(g)) if self.sums else None
            frames = {"games": g} if d is None else {"games": g, self.gdef.detail_table: d}
        if self.store is not None:
            self.store.write_chunk(first, count, frames, partial_json)
        if frames is not None and self.keep_games:
            self.games[first] = frames["games"]
        if frames is not None and self.keep_detail and self.gdef.detail_table in frames:
            self.detail[first] = frames[self.gdef.detail_table]
        self._count(first, partial_json)

    def _count(self, first: int, partial_json) -> None:
        if first in self.added:
            return
        self.added.add(first)
        if partial_json is not None:
            self.ordered.add(first, self.agg.load(partial_json))

    def load_done(self, first: int) -> None:
        """A range already on disk (resumed, or written before a second Ctrl-C cut its counting)."""
        store = self.store
        assert store is not None
        if self.keep_games:
            self.games[first] = store.read_part("games", first)
        if self.keep_detail and store.has_part(self.gdef.detail_table, first):
            self.detail[first] = store.read_part(self.gdef.detail_table, first)
        self._count(first, store.read_partial(first))

    def drop_uncounted(self) -> None:
        """What is counted is exactly what the summary, the tables and the disk hold."""
        for parts in (self.games, self.detail):
            for first in set(parts) - self.added:
                del parts[first]

    def summary(self, games_df: pd.DataFrame | None, players: int) -> tuple[dict, Any]:
        """The run's summary, computed once: from the per-game table when it is kept, otherwise
        from the merged partial sums. Also returns those sums (None when not streamed)."""
        total = self.ordered.result() if self.sums else None
        if games_df is not None and len(games_df):
            return table_summary(self.gdef, self.agg, games_df, players), total
        return self.agg.finish(total), total


def run(spec: RunSpec, be: Backend, games: int, *, chunk: int, store: RunStore | None, progress: bool,
        keep_games: bool, keep_detail: bool, n_threads: int) -> Simulation:
    """Play games ``0 .. games-1`` of ``spec`` on ``be`` (resuming what ``store`` holds) and
    return the tables kept and the summary."""
    gdef = spec.gdef
    job = spec.job(remote=be.name != "local")
    ranges = [(c.first, c.count) for c in chunks(games, chunk)]
    kept = _Kept(spec, [f for f, _ in ranges], store, keep_games, keep_detail)

    t0 = time.perf_counter()
    be.warm(job)
    compile_s = time.perf_counter() - t0
    from simcards import compiling

    compiling.settle(gdef.name)  # compiled here (said by the engine's first call), or on Dask workers

    todo = ranges
    done_before = 0
    if store is not None:  # a few games of each chunk played again: what the parts must hold (store.py)
        store.prove(job, be, kept.agg, ranges)
    if store is not None and store.done:
        todo = [r for r in ranges if not store.is_done(*r)]
        for first, count in ranges:
            if store.is_done(first, count):
                kept.load_done(first)
                done_before += count

    bar = Progress(games, "simulating", progress)
    bar.advance(done_before)
    interrupted = False
    t1 = time.perf_counter()
    stop = StopRequest()
    try:
        with stop:
            play_ranges(job, be, todo, kept.result, bar, stop)
        interrupted = stop.requested
    except KeyboardInterrupt:
        interrupted = True
    except MemoryError as exc:  # out of memory while games played (a policy allocating without bound)
        from simcards.kernelcall import players

        what = f" ({exc})" if str(exc) else ""
        raise _kept(SimcardsError(f"out of memory{what} while playing {gdef.name} with {players(spec.strategies)}"),
                    store) from None
    except SimcardsError as exc:
        raise _kept(exc, store) from None
    finally:
        bar.close()
    elapsed = time.perf_counter() - t1
    if store is not None:  # a second Ctrl-C may have cut the bookkeeping of a chunk already on disk
        for first in sorted(set(store.done) - kept.added):
            kept.load_done(first)
    kept.drop_uncounted()
    done = sum(c for f, c in ranges if f in kept.added)
    interrupted = interrupted and done < games  # a stop asked during the last chunk: the run is complete
    if interrupted and store is not None:
        store.mark("interrupted")

    games_df = _cat([kept.games[f] for f in sorted(kept.games)]) if keep_games and kept.games else None
    detail_df = _cat([kept.detail[f] for f in sorted(kept.detail)]) if kept.detail else None
    summary, total = kept.summary(games_df, spec.players)
    units = summary.get(f"{gdef.unit}s") if summary else 0
    played = done - done_before
    meta = {
        "game": gdef.name,
        "variant": spec.variant,
        "rules": spec.rules.as_dict(),
        "players": spec.players,
        "strategies": spec.specs,
        "seed": spec.seed,
        "games_requested": int(games),
        "games_completed": int(done),
        "interrupted": interrupted,
        "summary_only": spec.summary_only,
        **be.describe(),
        "threads": n_threads,
        "elapsed_seconds": round(elapsed, 4),
        "compile_seconds": round(compile_s, 4),
        "games_per_second": played / elapsed if elapsed > 0 and played else None,
        f"{gdef.unit}s_per_second": (units or 0) * played / max(done, 1) / elapsed if elapsed > 0 and played else None,
        "versions": versions(),
    }
    if done_before:
        meta["games_resumed"] = int(done_before)
    if games_df is None and keep_games:
        games_df = empty_games(job)
    sim = Simulation(gdef.name, games_df, detail_df, summary, meta, gdef.detail_table, interrupted,
                     store.out if store is not None else None)
    if store is not None and not interrupted:
        results = store.join(ranges)
        meta["run"] = {**store.record(final=True), "status": "complete", "results": results,
                       "total": kept.agg.dump(total) if total is not None else None}
        store.finish(sim.to_json())
    return sim


def _kept(exc: SimcardsError, store: RunStore | None) -> SimcardsError:
    """A run's error, saying where the games finished before it are kept (with a run directory)."""
    if store is None or isinstance(exc, DiskError) or not store.done:
        return exc
    return SimcardsError(f"{exc}; the {store.games_done():,} games finished are kept in {str(store.out)!r} "
                         f"(continue with --resume {store.out})")


def load_complete(spec: RunSpec, store: RunStore, keep_games: bool, keep_detail: bool) -> Simulation:
    """A finished run directory read back: its tables as on disk, its summary computed once (from
    the per-game table when it is kept, otherwise from the recorded sums)."""
    gdef = spec.gdef
    data = json.loads((store.out / "summary.json").read_text())
    meta = data["meta"]
    run_record = meta.get("run") or {}
    games_path = store.out / "games.parquet"
    games_df = pd.read_parquet(games_path) if keep_games and games_path.exists() else None
    detail_path = store.out / f"{gdef.detail_table}.parquet"
    detail_df = pd.read_parquet(detail_path) if keep_detail and detail_path.exists() else None
    if games_df is not None and len(games_df):
        summary = table_summary(gdef, Aggregator(gdef, spec.players), games_df, spec.players)
    else:
        agg = Aggregator(gdef, spec.players)
        summary = agg.finish(agg.load(run_record["total"])) if run_record.get("total") is not None else {}
    meta = {**meta, "already_complete": True}
    return Simulation(gdef.name, games_df, detail_df, summary, meta, gdef.detail_table, False, store.out)
