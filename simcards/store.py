"""Chunked, resumable results on disk.

While a run is going, its output directory holds::

    manifest.json                     configuration (seed, rules, strategies, players, games,
                                      chunk, mode), versions, the game ranges already done and the
                                      row count and SHA-256 of every part
    parts/games-000000050000.parquet  one Parquet part per finished chunk and table
    parts/rounds-000000050000.parquet (the per-unit table, when written)
    parts/summary-000000050000.json   the chunk's counts/sums/sums of squares
    .simcards.lock                    held (flock) by the process writing the directory; its pid

Every file is written to a temporary name and renamed into place, and a range is listed as done in
the manifest only after its parts are in place — so a killed process never leaves a half-written
part that counts. ``--resume DIR`` validates the manifest, checks that the configuration is the
same, checks every done part (present, row count, hash: a missing, truncated, empty or foreign part
is dropped and its range played again — games are deterministic), plays only the ranges not done
and ends with exactly the files an uninterrupted run writes. When the run completes the parts are
checked again and joined in game order (one Parquet row group per chunk) into ``games.parquet`` and
``<detail>.parquet``; only when each joined file has every row are ``summary.json`` written (its
``meta.run`` keeps the manifest and the row count and hash of each result file) and the manifest
and parts removed: a finished directory holds only its results.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import pandas as pd

from simcards.errors import SimcardsError

FORMAT = "simcards-run/2"  # /2: every part's row count and hash are recorded
MANIFEST = "manifest.json"
PARTS = "parts"
SUMMARY = "summary.json"
LOCK = ".simcards.lock"
MAX_CHUNK = 10**7
# what must be equal to resume a run (chunk size is taken from the manifest, it only changes the
# Parquet row-group layout, never a game)
CONFIG_KEYS = ("game", "variant", "rules", "players", "strategies", "seed", "games", "mode", "detail", "simcards")
DETAIL_TABLES = ("rounds", "hands", "deals")


class DiskError(SimcardsError):
    """Writing results failed (disk full, permissions); what finished is kept."""


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


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


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_record(rec) -> str | None:
    """What is wrong with a manifest (or a finished run's ``meta.run``), or None. Checks the
    format, the configuration, the chunk size and that the done chunks are aligned chunk ranges
    inside the run, each once, with a row count and hash for each of its files."""
    if not isinstance(rec, dict):
        return "not a JSON object"
    if rec.get("format") != FORMAT:
        return f"format {rec.get('format')!r}, this simcards reads {FORMAT!r}"
    config = rec.get("config")
    if not isinstance(config, dict):
        return "missing or mistyped field 'config'"
    missing = [k for k in CONFIG_KEYS if k not in config]
    if missing:
        return f"missing field config.{missing[0]}"
    games = config["games"]
    if not _whole(games) or games < 1:
        return f"config.games={games!r}: not a whole number of games"
    chunk = rec.get("chunk")
    if not isinstance(chunk, int) or not _whole(chunk) or not 1 <= chunk <= MAX_CHUNK:
        return f"chunk={chunk!r}: allowed 1..{MAX_CHUNK:,}"
    tables = rec.get("tables")
    if not isinstance(tables, list) or not all(t in ("games",) + DETAIL_TABLES for t in tables):
        return f"tables={tables!r}: a list of table names"
    chunks = rec.get("done_chunks")
    if not isinstance(chunks, list):
        return "missing or mistyped field 'done_chunks'"
    seen = set()
    for item in chunks:
        if not (isinstance(item, list) and len(item) == 2 and all(map(_whole, item))):
            return f"done_chunks entry {item!r}: not [first, count]"
        first, count = item
        if not 0 <= first < games or first % chunk or count != min(chunk, games - first):
            return (f"done chunk [{first}, {count}] is not a chunk of this run ({games:,} games in chunks of "
                    f"{chunk:,})")
        if first in seen:
            return f"done chunk [{first}, {count}] listed twice"
        seen.add(first)
    parts = rec.get("parts", {})
    if not isinstance(parts, dict) or not all(
            isinstance(v, list) and len(v) == 2 and _whole(v[0]) and v[0] >= 0 and isinstance(v[1], str)
            for v in parts.values()):
        return "field 'parts': each part needs [rows, sha256]"
    return None


class _Lock:
    """An exclusive ``flock`` on ``DIR/.simcards.lock`` (holding the owner's pid) for the whole run:
    a second process cannot write, resume or clean the directory meanwhile. The kernel drops the
    lock when its process dies, so a killed run never leaves a stale lock."""

    def __init__(self, out: Path):
        self.path = out / LOCK
        self.fd = None
        try:
            import fcntl
        except ImportError:  # pragma: no cover - no flock on this platform: no lock
            return
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                owner = os.read(fd, 32).decode(errors="replace").strip() or "?"
                os.close(fd)
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    return  # a file system without flock (ENOLCK, ENOTSUP): run unlocked, as before
                raise SimcardsError(f"{str(out)!r} is being written by another simcards process (pid {owner}); "
                                    "wait for it to end or stop it, or choose another directory") from None
            try:  # the owner may have removed the file between our open and our flock: start again
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self.fd = fd

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            self.path.unlink()  # while still locked, so no one else holds it
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None


class RunStore:
    """The on-disk side of one run: parts, manifest, resume, final files. Holds the directory's
    lock from construction to :meth:`close`."""

    def __init__(self, out: Path, config: dict, chunk: int, tables: list[str], resume: bool, force: bool = False,
                 warn=None):
        self.out = Path(out)
        self.config = config
        self.tables = tables
        self.parts = self.out / PARTS
        self.done: dict[int, int] = {}
        self.files: dict[str, list] = {}  # part file name -> [rows, sha256]
        self.complete = False
        self.chunk = chunk
        self.replayed: list[tuple[int, int]] = []  # done ranges dropped at resume (damaged parts)
        self.warn = warn or (lambda msg: None)
        self._check_writable()
        self._lock = _Lock(self.out)
        try:
            self._open(resume, force)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self._lock.release()

    def _open(self, resume: bool, force: bool) -> None:
        manifest = self.out / MANIFEST
        summary = self.out / SUMMARY
        self.created = datetime.now(timezone.utc).isoformat(timespec="seconds")
        if manifest.exists() and not resume:
            if not force:
                raise SimcardsError(f"{str(self.out)!r} holds an unfinished run ({self._describe(manifest)}); continue "
                                    f"it with --resume {self.out}, replace it with --force, or choose another "
                                    "output directory")
            self._clear()
        elif manifest.exists():
            old = self._read_json(manifest)
            problem = validate_record(old)
            if problem is None:
                self._check_same(old["config"])
                if old["tables"] != self.tables:  # they follow from the configuration
                    problem = f"tables={old['tables']!r}, this configuration writes {self.tables!r}"
            if problem:
                raise SimcardsError(f"--resume {self.out}: {MANIFEST} is damaged ({problem}); start the run again "
                                    f"with --out {self.out} --force, or choose another directory")
            self.chunk = old["chunk"]
            self.done = {f: c for f, c in old["done_chunks"]}
            self.files = dict(old.get("parts", {}))
            self.created = old.get("created", self.created)
            self.parts.mkdir(exist_ok=True)
            self._drop_damaged()
        elif summary.exists() and resume:
            self._open_complete(summary)
            return
        elif summary.exists():
            if not force:
                raise SimcardsError(f"{str(self.out)!r} holds a finished run ({self._describe(summary)}); give "
                                    f"another directory, --resume {self.out} to read it back, or --force to "
                                    "replace it")
            self._clear()
        elif resume and any(p for p in self.out.iterdir() if not p.name.startswith(".")):
            raise SimcardsError(f"--resume {self.out}: that directory holds no simcards run (no {MANIFEST}); "
                                "give the directory of an interrupted run, or an empty/new one to start")
        self.parts.mkdir(exist_ok=True)
        for stray in self.parts.glob("*.tmp"):  # a write cut short by a kill (we hold the lock)
            stray.unlink()
        self._write_manifest("running")

    def _open_complete(self, summary: Path) -> None:
        """``--resume`` on a finished directory: check that its result files are the ones written."""
        written = self._read_json(summary)
        old = (written.get("meta", {}).get("run")
               if isinstance(written, dict) and isinstance(written.get("meta"), dict) else None)
        if old is None:
            raise SimcardsError(f"{str(self.out)!r} holds results without a run record; it cannot be resumed")
        problem = validate_record(old)
        if problem is None and not isinstance(old.get("results"), dict):
            problem = "missing field 'results'"
        if problem:
            raise SimcardsError(f"--resume {self.out}: the run record in {SUMMARY} is damaged ({problem}); run it "
                                f"again with --out {self.out} --force")
        self._check_same(old["config"])
        for name in old["tables"]:
            path = self.out / f"{name}.parquet"
            rows, digest = (old["results"].get(path.name) or [None, None])
            if not path.exists():
                why = "is missing"
            elif sha256(path) != digest:
                why = "is not the file this run wrote (its hash differs)"
            else:
                continue
            raise SimcardsError(f"--resume {self.out}: {path} {why}, so the finished run cannot be read back; "
                                f"run it again with --out {self.out} --force")
        self.complete = True
        self.chunk = old["chunk"]

    def _describe(self, path: Path) -> str:
        """'150,000 of 200,000 games done, seed 5' from a manifest or summary, as far as it reads."""
        try:
            rec = json.loads(path.read_text())
            rec = rec["meta"]["run"] if path.name == SUMMARY else rec
            config = rec["config"]
            done = sum(c for _, c in rec["done_chunks"])
            total = config["games"]
            return (f"{total:,} games, seed {config['seed']}" if path.name == SUMMARY else
                    f"{done:,} of {total:,} games done")
        except Exception:  # only a description: an unreadable record is described as such
            return "its record is unreadable"

    def _clear(self) -> None:
        """--force: remove the run this directory holds (its results, manifest and parts)."""
        for name in ("games",) + DETAIL_TABLES:
            (self.out / f"{name}.parquet").unlink(missing_ok=True)
        (self.out / SUMMARY).unlink(missing_ok=True)
        (self.out / MANIFEST).unlink(missing_ok=True)
        shutil.rmtree(self.parts, ignore_errors=True)

    # --- checks ------------------------------------------------------------------------------------
    def _check_writable(self) -> None:
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            probe = self.out / f".simcards-write-test-{os.getpid()}"
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

    def _part_names(self, first: int) -> list[str]:
        return [f"{t}-{first:012d}.parquet" for t in self.tables] + [f"summary-{first:012d}.json"]

    def _part_problem(self, name: str) -> str | None:
        """Why the part ``name`` cannot be used, or None: missing, no record, empty, a hash other than
        the one recorded when it was written (truncated, or copied from another run)."""
        path = self.parts / name
        record = self.files.get(name)
        if not path.exists():
            return "is missing"
        if record is None:
            return "has no row count and hash in the manifest"
        if path.stat().st_size == 0:
            return "is empty"
        if sha256(path) != record[1]:
            return "is not the file this run wrote (its hash differs: truncated, changed or from another run)"
        return None

    def _drop_damaged(self) -> None:
        """At resume: every done chunk whose parts fail a check is played again (same games)."""
        for first in sorted(self.done):
            for name in self._part_names(first):
                problem = self._part_problem(name)
                if problem:
                    count = self.done.pop(first)
                    self.replayed.append((first, count))
                    for n in self._part_names(first):
                        (self.parts / n).unlink(missing_ok=True)
                        self.files.pop(n, None)
                    self.warn(f"{self.parts / name} {problem}; games {first:,}..{first + count - 1:,} are played "
                              "again (same games, same results)")
                    break

    # --- state ---------------------------------------------------------------------------------------
    def record(self, final: bool = False) -> dict:
        rec = {"format": FORMAT, "config": self.config, "chunk": self.chunk, "tables": self.tables,
               "created": self.created, "done": _merge_ranges([[f, c] for f, c in self.done.items()]),
               "done_chunks": sorted([f, c] for f, c in self.done.items())}
        if not final:
            rec["parts"] = self.files
        return rec

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
                digest = sha256(tmp)
                os.replace(tmp, path)
                return digest

            self.files[path.name] = [table.num_rows, self._guard(write, path)]
        path = self._part("summary", first, "json")
        data = json.dumps(partial_json).encode()
        self._guard(lambda: _atomic_write_bytes(path, data), path)
        self.files[path.name] = [count, hashlib.sha256(data).hexdigest()]
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
    def _bad_part(self, path: Path, problem: str) -> SimcardsError:
        return SimcardsError(f"{path} {problem}; nothing was joined or removed: continue with --resume {self.out} "
                             "(that range is played again)")

    def join(self, ranges: list[tuple[int, int]]) -> dict[str, list]:
        """Check every part of ``ranges`` (all the run's chunks: present, hash, row count, game
        numbers) and join each table's parts in game order (one row group per chunk) into one file.
        A joined file replaces nothing unless it has every row. Returns ``{file: [rows, sha256]}``."""
        import numpy as np
        import pyarrow.parquet as pq

        if sorted(ranges) != sorted(self.done.items()):
            raise SimcardsError(f"{str(self.out)!r}: the done ranges do not cover the run exactly; nothing was "
                                f"joined or removed (continue with --resume {self.out})")
        for first, _ in ranges:
            for name in self._part_names(first):
                problem = self._part_problem(name)
                if problem:
                    raise self._bad_part(self.parts / name, problem)
        results = {}
        for name in self.tables:
            path = self.out / f"{name}.parquet"
            expected = sum(self.files[f"{name}-{f:012d}.parquet"][0] for f, _ in ranges)

            def join(path=path, name=name, expected=expected):
                tmp = path.with_name(path.name + ".tmp")
                writer = None
                try:
                    for first, count in ranges:
                        part = self._part(name, first)
                        table = pq.read_table(part)
                        game = table.column("game").to_numpy()
                        if name == "games":
                            ok = table.num_rows == count and np.array_equal(game, np.arange(first, first + count))
                        else:
                            ok = (table.num_rows == self.files[part.name][0]
                                  and (len(game) == 0 or (game.min() >= first and game.max() < first + count
                                                          and bool(np.all(np.diff(game) >= 0)))))
                        if not ok:
                            raise self._bad_part(part, f"does not hold games {first:,}..{first + count - 1:,} "
                                                       "as recorded")
                        if writer is None:
                            writer = pq.ParquetWriter(tmp, table.schema)
                        elif not table.schema.equals(writer.schema, check_metadata=False):
                            table = table.cast(writer.schema)
                        writer.write_table(table)
                finally:
                    if writer is not None:
                        writer.close()
                rows = pq.read_metadata(tmp).num_rows
                if rows != expected:  # never replace or remove anything for a table short of rows
                    tmp.unlink()
                    raise SimcardsError(f"{path} would have {rows:,} rows instead of {expected:,}; nothing was "
                                        f"removed (continue with --resume {self.out})")
                digest = sha256(tmp)
                os.replace(tmp, path)
                return [rows, digest]

            results[path.name] = self._guard(join, path)
        return results

    def finish(self, summary_text: str) -> None:
        """Write the summary and remove the manifest and parts (only after :meth:`join`)."""
        self._guard(lambda: _atomic_write_bytes(self.out / SUMMARY, summary_text.encode()), self.out / SUMMARY)
        (self.out / MANIFEST).unlink()
        shutil.rmtree(self.parts, ignore_errors=True)
        self.complete = True

    def iter_firsts(self) -> Iterator[int]:
        return iter(sorted(self.done))
