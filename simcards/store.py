"""Chunked, resumable results on disk.

While a run is going, its output directory holds::

    manifest.json                     configuration (seed, rules, strategies, players, games,
                                      chunk, mode), versions and the game ranges already done
    parts/games-000000050000.parquet  one Parquet part per finished chunk and table
    parts/rounds-000000050000.parquet (the per-unit table, when written)
    parts/summary-000000050000.json   (summary-only runs: the chunk's counts/sums/sums of squares)

Every file is written to a temporary name and renamed into place, and a range is listed as done in
the manifest only after its parts are in place — so a killed process never leaves a half-written
part that counts. ``--resume DIR`` checks that the configuration is the same, plays only the ranges
not done and ends with exactly the files an uninterrupted run writes. When the run completes the
parts are joined in game order (one Parquet row group per chunk) into ``games.parquet`` and
``<detail>.parquet``, ``summary.json`` is written (its ``meta.run`` keeps the manifest) and the
manifest and parts are removed: a finished directory holds only its results.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import pandas as pd

from simcards.errors import SimcardsError

FORMAT = "simcards-run/1"
MANIFEST = "manifest.json"
PARTS = "parts"
SUMMARY = "summary.json"
# what must be equal to resume a run (chunk size is taken from the manifest, it only changes the
# Parquet row-group layout, never a game)
CONFIG_KEYS = ("game", "variant", "rules", "players", "strategies", "seed", "games", "mode", "detail", "simcards")


class DiskError(SimcardsError):
    """Writing results failed (disk full, permissions); what finished is kept."""


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _merge_ranges(ranges: list[list[int]]) -> list[list[int]]:
    """[[first, count], ...] → sorted, adjacent ranges joined."""
    out: list[list[int]] = []
    for first, count in sorted(ranges):
        if out and out[-1][0] + out[-1][1] == first:
            out[-1][1] += count
        else:
            out.append([first, count])
    return out


def describe_difference(old: dict, new: dict) -> str:
    diffs = []
    for key in CONFIG_KEYS:
        if old.get(key) != new.get(key):
            a, b = old.get(key), new.get(key)
            if isinstance(a, dict) and isinstance(b, dict):
                inner = [f"{k}={a.get(k)!r} there, {b.get(k)!r} here" for k in sorted(set(a) | set(b))
                         if a.get(k) != b.get(k)]
                diffs.append(f"{key}: " + ", ".join(inner))
            else:
                diffs.append(f"{key}={a!r} there, {b!r} here")
    return "; ".join(diffs)


class RunStore:
    """The on-disk side of one run: parts, manifest, resume, final files."""

    def __init__(self, out: Path, config: dict, chunk: int, tables: list[str], resume: bool):
        self.out = Path(out)
        self.config = config
        self.tables = tables
        self.parts = self.out / PARTS
        self.done: dict[int, int] = {}
        self.complete = False
        self.chunk = chunk
        self._check_writable()
        manifest = self.out / MANIFEST
        summary = self.out / SUMMARY
        if manifest.exists():
            old = self._read_json(manifest)
            if not resume:
                n = sum(c for _, c in old.get("done", []))
                raise SimcardsError(f"{str(self.out)!r} holds an unfinished run ({n:,} of {old['config'].get('games', 0):,} "
                                    f"games done); continue it with --resume {self.out} or choose another output directory")
            self._check_same(old["config"])
            self.chunk = int(old["chunk"])
            self.done = {int(f): int(c) for f, c in old.get("done_chunks", [])}
            self.created = old.get("created")
        elif resume and summary.exists():
            old = self._read_json(summary).get("meta", {}).get("run")
            if old is None:
                raise SimcardsError(f"{str(self.out)!r} holds results without a run record; it cannot be resumed")
            self._check_same(old["config"])
            self.complete = True
            self.chunk = int(old["chunk"])
            return
        elif resume and any(p for p in self.out.iterdir() if not p.name.startswith(".")):
            raise SimcardsError(f"--resume {self.out}: that directory holds no simcards run (no {MANIFEST}); "
                                "give the directory of an interrupted run, or an empty/new one to start")
        else:
            self.created = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self.parts.mkdir(exist_ok=True)
        for stray in self.parts.glob("*.tmp"):  # a write cut short by a kill
            stray.unlink()
        self._write_manifest("running")

    # --- checks ------------------------------------------------------------------------------------
    def _check_writable(self) -> None:
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            probe = self.out / ".simcards-write-test"
            probe.write_text("")
            probe.unlink()
        except OSError as exc:
            raise SimcardsError(f"cannot write to output directory {str(self.out)!r}: {exc.strerror or exc}") from None

    def _check_same(self, old: dict) -> None:
        if any(old.get(k) != self.config.get(k) for k in CONFIG_KEYS):
            raise SimcardsError(f"--resume {self.out}: that run has a different configuration ("
                                f"{describe_difference(old, self.config)}); repeat the original command "
                                "with --resume, or choose another directory")

    @staticmethod
    def _read_json(path: Path) -> dict:
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise SimcardsError(f"cannot read {str(path)!r}: {exc}") from None

    # --- state ---------------------------------------------------------------------------------------
    def record(self) -> dict:
        return {"format": FORMAT, "config": self.config, "chunk": self.chunk, "tables": self.tables,
                "created": self.created, "done": _merge_ranges([[f, c] for f, c in self.done.items()]),
                "done_chunks": sorted([f, c] for f, c in self.done.items())}

    def _write_manifest(self, status: str) -> None:
        rec = {**self.record(), "status": status, "updated": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        self._guard(lambda: _atomic_write_bytes(self.out / MANIFEST, json.dumps(rec, indent=1).encode()),
                    self.out / MANIFEST)

    def games_done(self) -> int:
        return sum(self.done.values())

    def is_done(self, first: int, count: int) -> bool:
        return self.done.get(first) == count

    def _part(self, name: str, first: int, ext: str = "parquet") -> Path:
        return self.parts / f"{name}-{first:012d}.{ext}"

    def _guard(self, action, path: Path):
        try:
            return action()
        except OSError as exc:
            tmp = path.with_name(path.name + ".tmp")
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
            what = "the disk is full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc))
            raise DiskError(f"cannot write {str(path)!r}: {what}; the {self.games_done():,} games finished "
                            f"before are kept in {str(self.out)!r} (free space or fix permissions, then "
                            f"continue with --resume {self.out})") from None

    # --- writing one chunk -----------------------------------------------------------------------------
    def write_chunk(self, first: int, count: int, frames: dict[str, pd.DataFrame] | None, partial_json) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        for name, df in (frames or {}).items():
            path = self._part(name, first)
            table = pa.Table.from_pandas(df, preserve_index=False)

            def write(table=table, path=path):
                tmp = path.with_name(path.name + ".tmp")
                pq.write_table(table, tmp)
                os.replace(tmp, path)

            self._guard(write, path)
        if partial_json is not None:
            path = self._part("summary", first, "json")
            self._guard(lambda: _atomic_write_bytes(path, json.dumps(partial_json).encode()), path)
        self.done[first] = count
        self._write_manifest("running")

    def mark(self, status: str) -> None:
        self._write_manifest(status)

    # --- reading back -------------------------------------------------------------------------------
    def read_part(self, name: str, first: int) -> pd.DataFrame:
        import pyarrow.parquet as pq

        return pq.read_table(self._part(name, first)).to_pandas()

    def read_partial(self, first: int):
        return json.loads(self._part("summary", first, "json").read_text())

    def has_part(self, name: str, first: int) -> bool:
        return self._part(name, first).exists()

    # --- the end -------------------------------------------------------------------------------------
    def finalize(self, summary_text: str, tables: list[str]) -> None:
        """Join the parts into one file per table (game order, one row group per chunk), write the
        summary and remove the manifest and parts."""
        import pyarrow.parquet as pq

        firsts = sorted(self.done)
        for name in tables:
            path = self.out / f"{name}.parquet"
            parts = [self._part(name, f) for f in firsts if self._part(name, f).exists()]
            if not parts:
                continue

            def join(path=path, parts=parts):
                tmp = path.with_name(path.name + ".tmp")
                writer = None
                try:
                    for part in parts:
                        table = pq.read_table(part)
                        if writer is None:
                            writer = pq.ParquetWriter(tmp, table.schema)
                        elif not table.schema.equals(writer.schema, check_metadata=False):
                            table = table.cast(writer.schema)
                        writer.write_table(table)
                finally:
                    if writer is not None:
                        writer.close()
                os.replace(tmp, path)

            self._guard(join, path)
        self._guard(lambda: _atomic_write_bytes(self.out / SUMMARY, summary_text.encode()), self.out / SUMMARY)
        (self.out / MANIFEST).unlink()
        shutil.rmtree(self.parts, ignore_errors=True)
        self.complete = True

    def iter_firsts(self) -> Iterator[int]:
        return iter(sorted(self.done))
