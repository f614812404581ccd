"""The Python API: ``simcards.simulate(...)`` and the result object it returns."""

from __future__ import annotations

import contextlib
import json
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.games import canonical, get_game
from simcards.policy import check_mode
from simcards.rng import MAX_SEED
from simcards.stats.aggregate import Aggregator
from simcards.backends import Backend, current, make_backend
from simcards.backends.job import Job, portable_specs
from simcards.runner import DEFAULT_CHUNK, Progress, StopRequest, chunks, set_threads
from simcards.stats.estimates import Estimate
from simcards.store import DiskError, RunStore

MAX_GAMES = 10**10


@dataclass
class Simulation:
    """What a run produced: the per-game table, the per-round/hand/deal table (also under
    the game's name for it, e.g. ``.rounds``: ``GameDef.detail_table``), the summary and the run metadata."""

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
        return json.dumps(self.summary_dict(), indent=2, default=_json_default)


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


def _json_default(obj):
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (np.floating,)):
        return None if np.isnan(obj) else float(obj)
    if isinstance(obj, Path):
        return str(obj)
    return str(obj)


def _check_counts(games: int, seed: int, players: int | None) -> None:
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or not 1 <= games <= MAX_GAMES:
        raise SimcardsError(f"games={games}: give a whole number of games from 1 to {MAX_GAMES:,}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise SimcardsError(f"seed={seed}: give a whole number from 0 to 2**63-1")
    if players is not None and (isinstance(players, bool) or not isinstance(players, (int, np.integer))):
        raise SimcardsError(f"players={players!r}: give a whole number")


def simulate(game: str, *, variant: str | None = None, players: int | None = None,
             games: int = 10_000, seed: int = 0, strategies: list[str] | str | None = None,
             rules: dict[str, Any] | None = None, detail: bool = True, threads: int | None = None,
             out: str | Path | None = None, keep_detail: bool | None = None, progress: bool = False,
             chunk: int = DEFAULT_CHUNK, backend: str | Backend | None = None, scheduler: str | None = None,
             workers: int | None = None, resume: str | Path | None = None, summary_only: bool = False,
             keep_games: bool = True, force: bool = False, invalid_option: str = "error") -> Simulation:
    """Play ``games`` games and return their tables and summary.

    ``variant`` names a preset (``simcards variants GAME`` lists them), ``rules`` overrides single
    options (``{"call_limit": 7}``), ``strategies`` is one spec for every seat or one per seat.
    Game ``i`` depends only on ``(seed, i, rules, strategies)``, so the tables are the same for any
    thread count, chunk size or backend.

    ``out``: results are written chunk by chunk (Parquet parts and a manifest) into that directory
    and joined into ``games.parquet``, ``<detail>.parquet`` and ``summary.json`` at the end.
    ``resume``: a directory of an interrupted run with the same configuration; only the missing
    game ranges are played and the files end exactly as an uninterrupted run leaves them (a new or
    empty directory starts the run; damaged or missing parts are played again). ``out`` on a directory
    holding another run (finished or not) is refused unless ``force=True``, which replaces it. The
    directory is locked (``DIR/.simcards.lock``, with the pid) while the run writes it. Ctrl-C (in
    the main thread) stops once the chunk in flight is done and kept; a second Ctrl-C stops at once.
    ``keep_detail`` (default: not when writing files) keeps the
    per-unit table in memory; ``keep_games=False`` keeps no per-game table in memory either (the
    summary is then aggregated chunk by chunk).

    ``summary_only``: no tables at all; each chunk becomes counts, sums and sums of squares, so the
    memory used does not grow with ``games`` (100 million games run in the memory of one chunk).

    ``invalid_option``: what a user policy's option index out of range does: ``"error"`` stops the
    run with one line naming the strategy, the decision and the game; ``"first"`` plays option 0
    instead and counts it (``invalid_decisions``).

    ``backend``: ``"local"`` (this process, numba threads) or ``"dask"`` (Dask distributed workers;
    ``scheduler`` is the address of an existing cluster, otherwise a LocalCluster of ``workers``
    processes is started), or a backend object from :func:`simcards.backends.make_backend`. Inside
    ``with simcards.backends.using(...)`` that backend is the default."""
    gdef = get_game(game)
    _check_counts(games, seed, players)
    check_mode(invalid_option)
    rules_obj = gdef.build_rules(variant, rules)
    players = gdef.players_for(rules_obj) if players is None else int(players)
    gdef.check_players(rules_obj, players)
    if isinstance(strategies, str):
        strategies = [strategies]
    strats = gdef.strategies(strategies, players)
    if isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)) or not 1 <= chunk <= 10**7:
        raise SimcardsError(f"chunk={chunk}: allowed 1..10,000,000")
    if resume is not None:
        if out is not None and Path(out).resolve() != Path(resume).resolve():
            raise SimcardsError(f"--out {out} and --resume {resume}: give one directory (--resume continues the run in it)")
        out = resume
    summary_only = bool(summary_only)
    keep_detail = (out is None) if keep_detail is None else keep_detail
    keep_games = keep_games and not summary_only
    want_detail = detail and not summary_only and (keep_detail or out is not None)
    keep_detail = keep_detail and want_detail

    # --- backend ----------------------------------------------------------------------------------
    be = backend if isinstance(backend, Backend) else (current() if backend is None and scheduler is None
                                                         and workers is None else None)
    owned = be is None
    if be is None:
        be = make_backend(backend or "local", scheduler=scheduler, workers=workers,
                          threads=threads if (backend or "local") != "local" else None)
    try:
        if be.name == "local":
            n_threads = set_threads(threads)
            specs = tuple(strats)
        else:
            n_threads = be.workers * getattr(be, "threads", 1)
            given = list(strategies) if strategies else [s.spec for s in strats]
            specs = portable_specs(gdef.name, given * players if len(given) == 1 else given)
        job = Job(canonical(game), rules_obj, players, specs, int(seed), want_detail, summary_only, invalid_option)
        config = _config(gdef, variant, rules_obj, players, strats, seed, games,
                         "summary" if summary_only else "tables", want_detail)
        if invalid_option != "error":  # (only then, so that earlier runs still resume)
            config["invalid_option"] = invalid_option
        tables = ["games", gdef.detail_table] if want_detail else ["games"]
        store = RunStore(Path(out), config, chunk, [] if summary_only else tables, resume is not None,
                         force=bool(force), warn=_warn) if out is not None else None
        try:
            if store is not None and store.complete:
                return _load_complete(gdef, store, players, keep_games, keep_detail, variant, be, n_threads)
            chunk = store.chunk if store is not None else chunk
            return _run(gdef, job, be, store, config, games, chunk, progress, keep_games, keep_detail, variant,
                        strats, n_threads)
        finally:
            if store is not None:
                store.close()
    finally:
        if owned:
            be.close()


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr, flush=True)


def _config(gdef, variant, rules_obj, players, strats, seed, games, mode, want_detail) -> dict:
    from simcards.version import __version__

    config = {"game": gdef.name, "variant": variant or gdef.default_variant, "rules": rules_obj.as_dict(),
              "players": players, "strategies": [s.spec for s in strats], "seed": int(seed), "games": int(games),
              "mode": mode, "detail": bool(want_detail), "simcards": __version__}
    return json.loads(json.dumps(config, default=_json_default))  # as it reads back from the manifest


class _Ordered:
    """Merges chunk aggregates in game order whatever order they finish in (deterministic sums)."""

    def __init__(self, agg: Aggregator, firsts: list[int]):
        self.agg = agg
        self.order = firsts
        self.pos = 0
        self.buffer: dict[int, Any] = {}
        self.added: set[int] = set()
        self.total = None

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


def _run(gdef, job: Job, be: Backend, store: RunStore | None, config: dict, games: int, chunk: int,
         progress: bool, keep_games: bool, keep_detail: bool, variant, strats, n_threads) -> Simulation:
    players = job.players
    ranges = [(c.first, c.count) for c in chunks(games, chunk)]
    agg = Aggregator(gdef, players)
    ordered = _Ordered(agg, [f for f, _ in ranges])
    game_parts: dict[int, pd.DataFrame] = {}
    detail_parts: dict[int, pd.DataFrame] = {}
    def load_done(first: int) -> None:  # a chunk already on disk
        ordered.add(first, agg.load(store.read_partial(first)))
        if keep_games:
            game_parts[first] = store.read_part("games", first)
        if keep_detail and store.has_part(gdef.detail_table, first):
            detail_parts[first] = store.read_part(gdef.detail_table, first)

    todo = ranges
    done_before = 0
    if store is not None and store.done:
        todo = [r for r in ranges if not store.is_done(*r)]
        for first, count in ranges:
            if store.is_done(first, count):
                load_done(first)
                done_before += count

    t0 = time.perf_counter()
    be.warm(job)
    compile_s = time.perf_counter() - t0

    bar = Progress(games, "simulating", progress)
    bar.advance(done_before)
    interrupted = False
    t1 = time.perf_counter()
    stop = StopRequest()
    try:
        with stop:
            _play(job, be, todo, store, agg, ordered, gdef, game_parts, detail_parts, keep_games, keep_detail, bar,
                  stop)
        interrupted = stop.requested
    except KeyboardInterrupt:
        interrupted = True
    except SimcardsError as exc:
        if store is None or isinstance(exc, DiskError) or not store.done:
            raise
        raise SimcardsError(f"{exc}; the {store.games_done():,} games finished are kept in {str(store.out)!r} "
                            f"(continue with --resume {store.out})") from None
    finally:
        bar.close()
    elapsed = time.perf_counter() - t1
    if store is not None:  # a second Ctrl-C may have cut the bookkeeping of a chunk already on disk
        for first in sorted(set(store.done) - ordered.added):
            load_done(first)
    # what is counted is exactly what the summary, the tables and the disk hold
    for parts in (game_parts, detail_parts):
        for first in set(parts) - ordered.added:
            del parts[first]
    done = sum(c for f, c in ranges if f in ordered.added)
    interrupted = interrupted and done < games  # a stop asked during the last chunk: the run is complete
    if interrupted and store is not None:
        store.mark("interrupted")

    games_df = pd.concat([game_parts[f] for f in sorted(game_parts)], ignore_index=True) if keep_games and game_parts \
        else None
    detail_df = pd.concat([detail_parts[f] for f in sorted(detail_parts)], ignore_index=True) if detail_parts else None
    total = ordered.result()
    if games_df is not None and len(games_df):
        summary = gdef.summarize(games_df, players)
    else:
        summary = agg.finish(total)
    units = summary.get(f"{gdef.unit}s") if summary else 0
    played = done - done_before
    meta = {
        "game": gdef.name,
        "variant": variant or gdef.default_variant,
        "rules": job.rules.as_dict(),
        "players": players,
        "strategies": [s.spec for s in strats],
        "seed": int(job.seed),
        "games_requested": int(games),
        "games_completed": int(done),
        "interrupted": interrupted,
        "summary_only": job.summary_only,
        **be.describe(),
        "threads": n_threads,
        "elapsed_seconds": round(elapsed, 4),
        "compile_seconds": round(compile_s, 4),
        "games_per_second": played / elapsed if elapsed > 0 and played else None,
        f"{gdef.unit}s_per_second": (units or 0) * played / max(done, 1) / elapsed if elapsed > 0 and played else None,
        "versions": _versions(),
    }
    if done_before:
        meta["games_resumed"] = int(done_before)
    if games_df is None and keep_games:
        games_df = job_empty(gdef, job)
    sim = Simulation(gdef.name, games_df, detail_df, summary, meta, gdef.detail_table, interrupted,
                     store.out if store is not None else None)
    if store is not None and not interrupted:
        results = store.join(ranges)
        meta["run"] = {**store.record(final=True), "status": "complete", "results": results,
                       "total": agg.dump(total) if total is not None else None}
        store.finish(sim.to_json())
    return sim


def _play(job, be, todo, store, agg, ordered, gdef, game_parts, detail_parts, keep_games, keep_detail, bar,
          stop) -> None:
    """Play the ranges ``todo``; each result is written (with ``--out``), then counted. Returns
    early when a stop was requested (Ctrl-C), after the chunk in flight is kept."""
    with contextlib.closing(be.imap(job, todo)) as results:  # closed on return: Dask cancels the rest
        for first, count, result in results:
            _keep(first, count, result, store, agg, ordered, gdef, game_parts, detail_parts, keep_games, keep_detail)
            bar.advance(count)
            if stop.requested:
                return


def _keep(first, count, result, store, agg, ordered, gdef, game_parts, detail_parts, keep_games, keep_detail) -> None:
    """Write one finished range (with ``--out``), keep its tables, then count it (what a Ctrl-C cuts
    between the two is read back from the disk by the caller)."""
    if result[0] == "summary":
        partial_json, frames = result[1], None
    else:
        g, d = result[1], result[2]
        partial_json = agg.dump(agg.partial(g))
        frames = {"games": g} if d is None else {"games": g, gdef.detail_table: d}
    if store is not None:
        store.write_chunk(first, count, frames, partial_json)
    if frames is not None and keep_games:
        game_parts[first] = frames["games"]
    if frames is not None and keep_detail and gdef.detail_table in frames:
        detail_parts[first] = frames[gdef.detail_table]
    ordered.add(first, agg.load(partial_json))


def job_empty(gdef, job: Job) -> pd.DataFrame:
    from simcards.backends.job import engine

    return engine(job).run.play(job.seed, 0, 0, False)[0]


def _load_complete(gdef, store: RunStore, players, keep_games, keep_detail, variant, be, n_threads) -> Simulation:
    """``resume`` on a finished directory: the results as they are on disk."""
    data = json.loads((store.out / "summary.json").read_text())
    meta = data["meta"]
    run = meta.get("run") or {}
    games_df = pd.read_parquet(store.out / "games.parquet") if keep_games and (store.out / "games.parquet").exists() \
        else None
    detail_path = store.out / f"{gdef.detail_table}.parquet"
    detail_df = pd.read_parquet(detail_path) if keep_detail and detail_path.exists() else None
    agg = Aggregator(gdef, players)
    if games_df is not None and len(games_df):
        summary = gdef.summarize(games_df, players)
    else:
        summary = agg.finish(agg.load(run["total"])) if run.get("total") is not None else {}
    meta = {**meta, "already_complete": True}
    return Simulation(gdef.name, games_df, detail_df, summary, meta, gdef.detail_table, False, store.out)


def _versions() -> dict:
    from simcards.version import __version__

    return {"simcards": __version__, "numba": numba.__version__, "numpy": np.__version__,
            "pandas": pd.__version__, "python": platform.python_version()}
