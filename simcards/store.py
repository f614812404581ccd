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

A hash only catches accidents: an edited manifest can vouch for any file. So a part must also prove
what it holds (:class:`_Proof`): the last two games of every chunk are played again from the run's
seed, rules and strategies (through the normal play path), and each part's rows of those games must
be the re-played ones (checked at resume and at the join); a summary part carries
the digests of those games and its partial sums must be those of its chunk (recomputed from the
games part, or, without tables, counting exactly the chunk's games). At resume a part that fails is
dropped and played again, like a damaged one; at the join it stops the run with one line.

Nothing is written, truncated or removed through a symbolic link inside the run directory: the lock
is opened with ``O_NOFOLLOW``, ``parts/`` must be a real directory, every file is written to a new
temporary file (whatever had its name is removed first, never followed) and renamed into place
(which replaces a link instead of writing through it). ``DIR`` itself may be a link to a directory.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import stat
import threading
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

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
# the result files a run writes (``--format csv`` turns the Parquet tables into CSV): any of them in
# a directory marks it as holding results, which ``--out`` does not replace without ``--force``
RESULT_FILES = tuple(f"{t}.{ext}" for t in ("games",) + DETAIL_TABLES for ext in ("parquet", "csv")) + (
    "summary.json",)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class DiskError(SimcardsError):
    """Writing results failed (disk full, permissions); what finished is kept."""


def new_file(path: Path) -> int:
    """A new, empty regular file at ``path``, open for writing. Whatever had that name (a temporary
    file left by a killed run, a symbolic link) is removed first, never followed: ``O_EXCL`` does not
    follow a link."""
    while True:
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o666)
        except FileExistsError:
            os.unlink(path)


def write_new(path: Path, write: Callable[[Path], Any]) -> None:
    """``write(tmp)`` into a new temporary file beside ``path``, named by this process and thread
    (whatever had its name is removed first, never followed), then rename it to ``path``: a
    symbolic link at ``path`` is replaced by the file, not written through, and writers of the
    same file at once (test workers, parallel jobs on one cache) each rename a whole file of their
    own; the last rename wins."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    os.close(new_file(tmp))
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class _JoinStopped(Exception):
    """A table's join stopped because another one failed (that failure is the one reported)."""


def _fresh(path: Path) -> Path:
    """``path`` as a new, empty regular file (for writers that take a path, like pyarrow's)."""
    os.close(new_file(path))
    return path


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a new temporary file and rename it to ``path`` (a link there is replaced,
    not written through)."""
    tmp = path.with_name(path.name + ".tmp")
    with os.fdopen(new_file(tmp), "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _is_link(path: Path) -> bool:
    return os.path.islink(path)


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


def check_out_dir(out: Path) -> None:
    """One clear line for an output directory that cannot be one (a link to nothing, a file)."""
    if _is_link(out) and not out.exists():
        raise SimcardsError(f"output directory {str(out)!r} is a symbolic link to {os.readlink(out)!r}, which does "
                            "not exist; create that directory, or give another")
    if out.exists() and not out.is_dir():
        raise SimcardsError(f"output directory {str(out)!r} is a file, not a directory; give a directory")


def _remove(path: Path) -> None:
    """Remove a part (a link is removed, not followed)."""
    if not _is_link(path) and path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def probe_games(first: int, count: int) -> range:
    """The games of a chunk that are played again to check its parts: its last two (one range, so
    one call; it starts at a chunk's first game only for chunks of one or two games)."""
    start = max(first, first + count - 2)
    return range(start, first + count)


def _rows(table, game: int):
    import pyarrow.compute as pc

    return table.filter(pc.equal(table.column("game"), game))


def _digest(table) -> str:
    """A digest of some rows of a table, the same for the same values whatever the Arrow types
    (an all-null column of one re-played game, a string column in a part)."""
    text = json.dumps(table.to_pylist(), sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def _canonical(data) -> str:
    return json.dumps(json.loads(json.dumps(data)), sort_keys=True)


class _Proof:
    """What the parts of a run must hold, from a few of its games played again: the last two games
    of each chunk (:func:`probe_games`), with the run's seed, rules and strategies and summary-only
    off, through the normal play path (``backends.job.execute``). On the local backend they are
    played in this process when a chunk is first checked or written (no delay before the run's
    first chunk); on Dask, all at once as two-game tasks on the workers when the run starts (the
    client has no engine). Kept as one digest per game and table.

    A games part must hold exactly its range, with those games' rows; a detail part those games'
    rows; a summary part those games' digests, and the partial sums of its games part (recomputed)
    or, without tables, a count of exactly its range's games. Forging a part past this needs the
    re-played rows of the run's own games; only playing every game again would prove more."""

    def __init__(self, job, be, agg, tables: list[str], ranges: list[tuple[int, int]]):
        self.agg = agg
        self.tables = tables
        self.be = be
        self.job = replace(job, summary_only=False, detail=len(tables) > 1)
        self.digests: dict[int, dict[str, str]] = {}
        if be.name != "local":
            self._play(ranges)

    def _play(self, ranges: list[tuple[int, int]]) -> None:
        import contextlib

        import pyarrow as pa

        from simcards.backends.job import execute

        probes = sorted({(g.start, len(g)) for g in (probe_games(first, count) for first, count in ranges)
                         if g[-1] not in self.digests})
        if not probes:
            return
        if self.be.name == "local":  # (not ``be.imap``: a backend that wraps the local one plays only the run)
            results: Any = ((first, count, execute(self.job, first, count)) for first, count in probes)
        else:
            results = self.be.imap(self.job, probes)
        with contextlib.closing(results):
            for first, count, result in results:
                played = {"games": pa.Table.from_pandas(result[1], preserve_index=False)}
                if len(self.tables) > 1:
                    played[self.tables[1]] = pa.Table.from_pandas(result[2], preserve_index=False)
                for g in range(first, first + count):
                    self.digests[g] = {name: _digest(_rows(table, g)) for name, table in played.items()}

    def _of(self, first: int, count: int) -> dict[int, dict[str, str]]:
        """The digests of the probe games of a chunk (played now if not yet)."""
        games = probe_games(first, count)
        self._play([(first, count)])
        return {g: self.digests[g] for g in games}

    def probe(self, first: int, count: int) -> dict[str, str]:
        """What a summary part records of its games."""
        return {str(g): d["games"] for g, d in self._of(first, count).items()}

    def table_problem(self, name: str, first: int, count: int, table) -> str | None:
        import numpy as np

        if "game" not in table.column_names:
            return "has no game column"
        if name == "games" and (table.num_rows != count or not np.array_equal(
                table.column("game").to_numpy(), np.arange(first, first + count))):
            return f"does not hold games {first:,}..{first + count - 1:,} as recorded"
        for g, digests in self._of(first, count).items():
            if _digest(_rows(table, g)) != digests[name]:
                return (f"does not hold this run's games: its game {g:,} is not the one the run's seed plays "
                        "(a part from another run, or edited)")
        return None

    def summary_problem(self, first: int, count: int, data: bytes, games) -> str | None:
        try:
            rec = json.loads(data)
        except ValueError:
            rec = None
        if not (isinstance(rec, dict) and set(rec) == {"partial", "probe"}):
            return "is not a summary part this simcards wrote (no partial sums beside its games' digests)"
        if rec["probe"] != self.probe(first, count):
            return ("does not hold this run's games: the games it records are not the ones the run's seed plays "
                    "(a part from another run, or edited)")
        try:
            if games is not None:  # its sums must be those of its (checked) games part
                if _canonical(rec["partial"]) != _canonical(self.agg.dump(self.agg.partial(games.to_pandas()))):
                    return "does not hold the sums of its games (they differ from those of its games part)"
                return None
            partial = self.agg.load(rec["partial"])
            n = partial.get("games") if isinstance(partial, dict) else None
            if not isinstance(n, int):
                n = self.agg.finish(partial).get("games")
        except Exception as exc:  # an edited part that does not even load
            return f"cannot be read as partial sums ({type(exc).__name__})"
        if n is not None and n != count:
            return f"counts {n:,} games, not the {count:,} of its range"
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
            fd = self._open(out)
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
        if os.fstat(fd).st_nlink != 1:  # a hard link: truncating it would empty a file elsewhere
            os.close(fd)
            raise SimcardsError(f"{self.path} has other names (a hard link), so simcards will not write its pid "
                                f"into it: remove {self.path} (or choose another directory)")
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self.fd = fd

    def _open(self, out: Path) -> int:
        """The lock file, never through a symbolic link, and only a regular file."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC | os.O_NONBLOCK, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP or _is_link(self.path):
                raise SimcardsError(f"{self.path} is a symbolic link; simcards does not write through links in a "
                                    f"run directory: remove it (or choose another directory)") from None
            raise SimcardsError(f"cannot open {str(self.path)!r}: {exc.strerror or exc}") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise SimcardsError(f"{self.path} is not a regular file; remove it (or choose another directory)")
        return fd

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
        self.proof: _Proof | None = None  # set by :meth:`prove` when the run starts
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
        if _is_link(self.parts):  # parts are written, and stray temporary files removed, only in DIR itself
            raise SimcardsError(f"{self.parts} is a symbolic link; simcards keeps a run's parts only in a real "
                                f"directory inside {str(self.out)!r}: remove the link (or choose another directory)")
        if self.parts.exists() and not self.parts.is_dir():
            raise SimcardsError(f"{self.parts} is not a directory; remove it (or choose another directory)")
        taken = [n for n in RESULT_FILES if os.path.lexists(self.out / n)]
        if manifest.exists() and not resume:
            if not force:
                raise SimcardsError(f"{str(self.out)!r} holds an unfinished run ({self._describe(manifest)}); continue "
                                    f"it with --resume {self.out}, replace it with --force, or choose another "
                                    "output directory")
            self._clear()
        elif manifest.exists():
            linked = [n for n in RESULT_FILES if _is_link(self.out / n)]
            if linked:  # the run ends by writing that file (the CSV forms are written in place)
                raise SimcardsError(f"{self.out / linked[0]} is a symbolic link; simcards writes that file and does "
                                    "not write through links in a run directory: remove it, then --resume again")
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
        elif taken and not resume:  # a user's own games.parquet... is not replaced without --force
            if not force:
                raise SimcardsError(f"{str(self.out)!r} holds {taken[0]}, which this run would replace (it is not "
                                    "part of a simcards run record); choose another directory, or --force to "
                                    "replace it")
            self._clear()
        elif resume and any(p for p in self.out.iterdir() if not p.name.startswith(".")):
            raise SimcardsError(f"--resume {self.out}: that directory holds no simcards run (no {MANIFEST}); "
                                "give the directory of an interrupted run, or an empty/new one to start")
        self.parts.mkdir(exist_ok=True)
        for stray in self.parts.glob("*.tmp"):  # a write cut short by a kill (we hold the lock)
            if _is_link(stray) or stray.is_file():  # (a link is removed, not followed)
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
        """--force: remove the run this directory holds (its results, manifest and parts; a link among
        them is removed, never what it points to)."""
        for name in RESULT_FILES + (MANIFEST,):
            path = self.out / name
            if _is_link(path) or path.is_file():
                path.unlink()
        shutil.rmtree(self.parts, ignore_errors=True)  # (checked to be a real directory)

    # --- checks ------------------------------------------------------------------------------------
    def _check_writable(self) -> None:
        check_out_dir(self.out)
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            probe = self.out / f".simcards-write-test-{os.getpid()}"
            os.close(new_file(probe))
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
        if _is_link(path):  # never read through a link either (it is removed, not followed)
            return "is a symbolic link, not a file this run wrote"
        if not path.exists():
            return "is missing"
        if not path.is_file():
            return "is not a file"
        if record is None:
            return "has no row count and hash in the manifest"
        if path.stat().st_size == 0:
            return "is empty"
        if sha256(path) != record[1]:
            return "is not the file this run wrote (its hash differs: truncated, changed or from another run)"
        return None

    def _drop(self, first: int, name: str, problem: str) -> None:
        """Forget a done chunk whose part ``name`` fails a check: its parts are removed and its games
        played again (same games, same results)."""
        count = self.done.pop(first)
        self.replayed.append((first, count))
        for n in self._part_names(first):
            _remove(self.parts / n)
            self.files.pop(n, None)
        self.warn(f"{self.parts / name} {problem}; games {first:,}..{first + count - 1:,} are played "
                  "again (same games, same results)")

    def _drop_damaged(self) -> None:
        """At resume: every done chunk whose parts fail a check is played again (same games)."""
        for first in sorted(self.done):
            for name in self._part_names(first):
                problem = self._part_problem(name)
                if problem:
                    self._drop(first, name, problem)
                    break

    def prove(self, job, be, agg, ranges: list[tuple[int, int]]) -> None:
        """When the run starts (after the engine is warm): check every done chunk's parts against
        its probe games played again (:class:`_Proof`) and drop each chunk whose parts do not hold
        them (a part copied from another run, or edited along with the manifest): it is played
        again, like a damaged part, so such a directory never gets stuck. The same checks run at the
        join, and summary parts record their probe games' digests. ``agg`` is the run's Aggregator."""
        self.proof = _Proof(job, be, agg, self.tables, ranges)
        dropped = False
        for first in sorted(self.done):
            found = self._content_problem(first, self.done[first])
            if found:
                self._drop(first, *found)
                dropped = True
        if dropped:
            self._write_manifest("running")

    def _content_problem(self, first: int, count: int) -> tuple[str, str] | None:
        """(part name, problem) for the first part of a done chunk that does not prove its content."""
        import pyarrow.parquet as pq

        assert self.proof is not None
        games = None
        for name in self.tables:
            path = self._part(name, first)
            try:
                table = pq.read_table(path)
            except Exception as exc:  # a hash edited to match a file that is not Parquet
                return path.name, f"cannot be read ({type(exc).__name__})"
            problem = self.proof.table_problem(name, first, count, table)
            if problem:
                return path.name, problem
            if name == "games":
                games = table
        path = self._part("summary", first, "json")
        problem = self.proof.summary_problem(first, count, path.read_bytes(), games)
        return (path.name, problem) if problem else None

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
                tmp = _fresh(path.with_name(path.name + ".tmp"))
                pq.write_table(table, tmp)
                digest = sha256(tmp)
                os.replace(tmp, path)
                return digest

            self.files[path.name] = [table.num_rows, self._guard(write, path)]
        path = self._part("summary", first, "json")
        probe = self.proof.probe(first, count) if self.proof is not None else None
        data = json.dumps({"partial": partial_json, "probe": probe}).encode()
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
        return json.loads(self._part("summary", first, "json").read_text())["partial"]

    def has_part(self, name: str, first: int) -> bool:
        return self._part(name, first).exists()

    # --- the end -------------------------------------------------------------------------------------
    def _bad_part(self, path: Path, problem: str) -> SimcardsError:
        return SimcardsError(f"{path} {problem}; nothing was joined or removed: continue with --resume {self.out} "
                             "(that range is played again)")

    def join(self, ranges: list[tuple[int, int]]) -> dict[str, list]:
        """Check every part of ``ranges`` (all the run's chunks: present, hash, row count, game
        numbers, and what :meth:`prove` re-played) and join each table's parts in game order (one row
        group per chunk) into one file. A joined file replaces nothing unless it has every row.
        Returns ``{file: [rows, sha256]}``."""
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
            if self.proof is not None and not self.tables:  # summary-only: the summary parts alone
                name = f"summary-{first:012d}.json"
                problem = self.proof.summary_problem(first, self.done[first], (self.parts / name).read_bytes(), None)
                if problem:
                    raise self._bad_part(self.parts / name, problem)
        results: dict[str, list] = {}
        jobs = {}
        stop = threading.Event()  # set when a join fails or is interrupted: the others replace nothing
        for name in self.tables:
            path = self.out / f"{name}.parquet"
            expected = sum(self.files[f"{name}-{f:012d}.parquet"][0] for f, _ in ranges)

            def join(path=path, name=name, expected=expected):
                tmp = _fresh(path.with_name(path.name + ".tmp"))
                writer = None
                try:
                    for first, count in ranges:
                        if stop.is_set():  # the other table's join failed, or Ctrl-C: replace nothing
                            raise _JoinStopped
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
                        if self.proof is not None:
                            problem = self.proof.table_problem(name, first, count, table)
                            if problem:
                                raise self._bad_part(part, problem)
                            if name == "games":
                                summary = self._part("summary", first, "json")
                                problem = self.proof.summary_problem(first, count, summary.read_bytes(), table)
                                if problem:
                                    raise self._bad_part(summary, problem)
                        if writer is None:
                            writer = pq.ParquetWriter(tmp, table.schema)
                        elif not table.schema.equals(writer.schema, check_metadata=False):
                            table = table.cast(writer.schema)
                        writer.write_table(table)
                except BaseException:
                    if writer is not None:
                        writer.close()
                        writer = None
                    tmp.unlink(missing_ok=True)
                    raise
                finally:
                    if writer is not None:
                        writer.close()
                rows = pq.read_metadata(tmp).num_rows
                if rows != expected:  # never replace or remove anything for a table short of rows
                    tmp.unlink()
                    raise SimcardsError(f"{path} would have {rows:,} rows instead of {expected:,}; nothing was "
                                        f"removed (continue with --resume {self.out})")
                digest = sha256(tmp)
                if stop.is_set():
                    tmp.unlink()
                    raise _JoinStopped
                os.replace(tmp, path)
                return [rows, digest]

            jobs[path.name] = (join, path)
        # The tables are joined at once, a thread each (reading and writing Parquet releases the
        # GIL: the games and the detail table of a long run join in the time of the larger).
        with ThreadPoolExecutor(max(1, len(jobs))) as pool:
            futures = {name: pool.submit(self._guard, *job) for name, job in jobs.items()}
            try:
                for name, future in futures.items():
                    results[name] = future.result()
            except BaseException:
                stop.set()  # the other joins stop before they replace anything (their temporary files go)
                wait(futures.values())
                raise
        return results

    def finish(self, summary_text: str) -> None:
        """Write the summary and remove the manifest and parts (only after :meth:`join`)."""
        self._guard(lambda: _atomic_write_bytes(self.out / SUMMARY, summary_text.encode()), self.out / SUMMARY)
        (self.out / MANIFEST).unlink()
        shutil.rmtree(self.parts, ignore_errors=True)
        self.complete = True

    def iter_firsts(self) -> Iterator[int]:
        return iter(sorted(self.done))
