"""The Python API: ``simcards.simulate(...)`` and the result object it returns."""

from __future__ import annotations

import json
import platform
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.games import canonical, get_game
from simcards.rng import MAX_SEED
from simcards.runner import DEFAULT_CHUNK, run_chunked, set_threads
from simcards.stats import Estimate

MAX_GAMES = 10**10


@dataclass
class Simulation:
    """What a run produced: the per-game table, the per-round/hand/deal table (``.rounds`` for
    Yaniv, ``.hands`` for Gin, ``.deals`` for Two Hundred), the summary and the run metadata."""

    game: str
    games: pd.DataFrame
    detail: pd.DataFrame | None
    summary: dict
    meta: dict
    detail_name: str = "rounds"
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


class _ParquetSink:
    """Writes tables chunk by chunk so that a long run never holds all its rows, and whatever
    finished is on disk even if the run is interrupted."""

    def __init__(self, out: Path, names: list[str]):
        import pyarrow.parquet as pq

        self._pq = pq
        self.out = out
        try:
            out.mkdir(parents=True, exist_ok=True)
            probe = out / ".simcards-write-test"
            probe.write_text("")
            probe.unlink()
        except OSError as exc:
            raise SimcardsError(f"cannot write to output directory {str(out)!r}: {exc.strerror or exc}") from None
        self.writers: dict[str, Any] = {}
        self.names = names

    def write(self, name: str, df: pd.DataFrame) -> None:
        import pyarrow as pa

        table = pa.Table.from_pandas(df, preserve_index=False)
        if name not in self.writers:
            self.writers[name] = self._pq.ParquetWriter(self.out / f"{name}.parquet", table.schema)
        self.writers[name].write_table(table)

    def close(self) -> None:
        for w in self.writers.values():
            w.close()


def _check_counts(games: int, seed: int, players: int | None) -> None:
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or not 1 <= games <= MAX_GAMES:
        raise SimcardsError(f"games={games}: give a whole number of games from 1 to {MAX_GAMES:,}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise SimcardsError(f"seed={seed}: give a whole number from 0 to 2**63-1")
    if players is not None and (isinstance(players, bool) or not isinstance(players, (int, np.integer))):
        raise SimcardsError(f"players={players!r}: give a whole number")


def simulate(game: str = "yaniv", *, variant: str | None = None, players: int | None = None,
             games: int = 10_000, seed: int = 0, strategies: list[str] | str | None = None,
             rules: dict[str, Any] | None = None, detail: bool = True, threads: int | None = None,
             out: str | Path | None = None, keep_detail: bool | None = None, progress: bool = False,
             chunk: int = DEFAULT_CHUNK) -> Simulation:
    """Play ``games`` games and return their tables and summary.

    ``variant`` names a preset (``simcards variants GAME`` lists them), ``rules`` overrides single
    options (``{"call_limit": 7}``), ``strategies`` is one spec for every seat or one per seat.
    Game ``i`` depends only on ``(seed, i, rules, strategies)``. With ``out`` the tables are
    streamed to Parquet in that directory (with ``summary.json``); ``keep_detail`` (default: not
    when ``out`` is given) keeps the per-round table in memory as well."""
    gdef = get_game(game)
    _check_counts(games, seed, players)
    players = gdef.default_players if players is None else int(players)
    rules_obj = gdef.build_rules(variant, rules)
    gdef.check_players(rules_obj, players)
    if isinstance(strategies, str):
        strategies = [strategies]
    strats = gdef.strategies(strategies, players)
    if not 1 <= chunk <= 10**7:
        raise SimcardsError(f"chunk={chunk}: allowed 1..10,000,000")
    n_threads = set_threads(threads)
    keep_detail = (out is None) if keep_detail is None else keep_detail
    want_detail = detail and (keep_detail or out is not None)
    sink = _ParquetSink(Path(out), ["games", gdef.detail_table]) if out is not None else None

    t0 = time.perf_counter()
    run = gdef.new_run(rules_obj, players, strats)
    compile_s = time.perf_counter() - t0

    game_parts: list[pd.DataFrame] = []
    detail_parts: list[pd.DataFrame] = []

    def play(first: int, count: int):
        return run.play(seed, first, count, want_detail)

    def keep(ch, result) -> None:
        g, d = result
        game_parts.append(g)
        if d is not None and keep_detail:
            detail_parts.append(d)
        if sink is not None:
            sink.write("games", g)
            if d is not None:
                sink.write(gdef.detail_table, d)

    t1 = time.perf_counter()
    try:
        done, interrupted = run_chunked(games, play, keep, chunk=chunk, progress=progress)
    finally:
        if sink is not None:
            sink.close()
    elapsed = time.perf_counter() - t1

    games_df = pd.concat(game_parts, ignore_index=True) if game_parts else run.play(seed, 0, 0, False)[0]
    detail_df = pd.concat(detail_parts, ignore_index=True) if detail_parts else None
    summary = gdef.summarize(games_df, players) if len(games_df) else {}
    units = int(games_df[gdef.unit + "s"].sum()) if len(games_df) else 0
    meta = {
        "game": gdef.name,
        "variant": variant or gdef.default_variant,
        "rules": rules_obj.options(),
        "players": players,
        "strategies": [s.spec for s in strats],
        "seed": int(seed),
        "games_requested": int(games),
        "games_completed": int(done),
        "interrupted": interrupted,
        "threads": n_threads,
        "elapsed_seconds": round(elapsed, 4),
        "compile_seconds": round(compile_s, 4),
        "games_per_second": done / elapsed if elapsed > 0 else None,
        f"{gdef.unit}s_per_second": units / elapsed if elapsed > 0 else None,
        "versions": _versions(),
    }
    sim = Simulation(canonical(game), games_df, detail_df, summary, meta, gdef.detail_table, interrupted,
                     Path(out) if out is not None else None)
    if sink is not None:
        (Path(out) / "summary.json").write_text(sim.to_json())
    return sim


def _versions() -> dict:
    from simcards import __version__

    return {"simcards": __version__, "numba": numba.__version__, "numpy": np.__version__,
            "pandas": pd.__version__, "python": platform.python_version()}
