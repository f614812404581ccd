"""The Python API: ``simcards.simulate(...)`` and the result object it returns."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from simcards.backends import Backend, current, make_backend
from simcards.errors import SimcardsError
from simcards.play import DEFAULT_CHUNK, Simulation, json_default, load_complete, run, set_threads
from simcards.spec import RunSpec
from simcards.store import RunStore

__all__ = ["MAX_GAMES", "Simulation", "simulate"]

MAX_GAMES = 10**10


def _check_games(games: int) -> None:
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or not 1 <= games <= MAX_GAMES:
        raise SimcardsError(f"games={games}: give a whole number of games from 1 to {MAX_GAMES:,}")


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
    the main thread) stops once the chunk in flight is done and kept, if that takes at most a
    second; otherwise, and at a second Ctrl-C, it stops at once and returns what finished (a chunk
    left playing, which numba cannot stop, goes on in a background thread: the next run waits for
    it; see ``simcards.kernelcall``).
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
    _check_games(games)
    summary_only = bool(summary_only)
    if resume is not None:
        if out is not None and Path(out).resolve() != Path(resume).resolve():
            raise SimcardsError(f"--out {out} and --resume {resume}: give one directory (--resume continues the run in it)")
        out = resume
    keep_detail = (out is None) if keep_detail is None else keep_detail
    keep_games = keep_games and not summary_only
    want_detail = detail and not summary_only and (keep_detail or out is not None)
    keep_detail = keep_detail and want_detail
    spec = RunSpec.resolve(game, variant=variant, players=players, strategies=strategies, rules=rules, seed=seed,
                           detail=want_detail, summary_only=summary_only, invalid_option=invalid_option)
    if isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)) or not 1 <= chunk <= 10**7:
        raise SimcardsError(f"chunk={chunk}: allowed 1..10,000,000")

    be = backend if isinstance(backend, Backend) else (current() if backend is None and scheduler is None
                                                         and workers is None else None)
    owned = be is None
    if be is None:
        name = backend if isinstance(backend, str) else None
        be = make_backend(name or "local", scheduler=scheduler, workers=workers,
                          threads=threads if (name or "local") != "local" else None)
    try:
        if be.name == "local":
            n_threads = set_threads(threads)
        else:
            n_threads = be.workers * getattr(be, "threads", 1)
            spec.job(remote=True)  # a policy that cannot travel to the workers: one line, before any file
        config = _config(spec, games)
        tables = ["games", spec.gdef.detail_table] if want_detail else ["games"]
        store = RunStore(Path(out), config, chunk, [] if summary_only else tables, resume is not None,
                         force=bool(force), warn=_warn) if out is not None else None
        try:
            if store is not None and store.complete:
                return load_complete(spec, store, keep_games, keep_detail)
            return run(spec, be, games, chunk=store.chunk if store is not None else chunk, store=store,
                       progress=progress, keep_games=keep_games, keep_detail=keep_detail, n_threads=n_threads)
        finally:
            if store is not None:
                store.close()
    finally:
        if owned:
            be.close()


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr, flush=True)


def _config(spec: RunSpec, games: int) -> dict:
    """What identifies a run in its directory (a resume must match it)."""
    from simcards.version import __version__

    config = {"game": spec.game, "variant": spec.variant, "rules": spec.rules.as_dict(), "players": spec.players,
              "strategies": spec.specs, "seed": spec.seed, "games": int(games),
              "mode": "summary" if spec.summary_only else "tables", "detail": spec.detail, "simcards": __version__}
    if spec.invalid_option != "error":  # (only then, so that earlier runs still resume)
        config["invalid_option"] = spec.invalid_option
    return json.loads(json.dumps(config, default=json_default))  # as it reads back from the manifest
