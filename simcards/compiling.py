"""Honest waiting while numba compiles.

A run's first use of an engine may compile it (numba's cache is empty, was wiped, or simcards was
upgraded). A :class:`Compile` is one such compile: what it is ("the gin kernel", "gin's search
players (informed, mc)", "policy 'lowball' into a gin kernel"), where its measurement is kept
(game, engine) and whether the cache predicts it (``cold``, checked on disk without importing or
compiling anything: ``nbutil.cache_is_cold``). Code that compiles runs between ``begin()`` and
``end()``; ``games.engine.KernelBinding`` does so around the first call of each engine, and a
command (``cli.common.announce_compile``) opens the plain kernel's compile before the game is even
imported (importing a kernel may compile), which the engine then continues.

While a command shows it (:func:`show_on`, not with ``--quiet``): on a terminal, a status line with
the elapsed time, refreshed a few times a second and gone when the compile is done; elsewhere one
line at the start and one at the end with the seconds it took. Only what numba really compiles is
said (its "numba:compile" events): a compile the cache predicts as soon as numba starts it (the
wait counted from when it was expected), one it did not predict (a stale file) once numba has
compiled for :data:`DELAY` seconds; a warm cache, or a cold-looking one that loads, says nothing.

The estimate is a measurement: each compile's seconds are recorded per (game, engine, simcards
version) in ``simcards-compile-times.json`` beside numba's cache (``NUMBA_CACHE_DIR``, else the
user's cache directory) and read back the next time that engine compiles. Before any compile here,
the figures measured by ``benchmarks/compile_times.py`` (``simcards/data/compile_times.json``).
"""

from __future__ import annotations

import atexit
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

SHIPPED = Path(__file__).resolve().parent / "data" / "compile_times.json"
TIMES_FILE = "simcards-compile-times.json"
DELAY = 1.0  # seconds of compiling the cache did not predict before it is shown
REFRESH = 4  # status refreshes per second on a terminal (the compile holds the GIL most of the time)
MIN_RECORD = 0.5  # a compile shorter than this is not worth remembering
STATUS_MARGIN = 3  # the spinner and its space before the status text, and a column to spare

_LOCK = threading.RLock()
_OUT: dict[str, Any] = {"console": None}  # where compiles are shown (None: not shown, only recorded)
_OPEN: dict[str, Compile] = {}  # a command's compile opened before its game was imported, by game


def show_on(console) -> None:
    """Show compiles on ``console`` (a rich Console on stderr); None: only record them."""
    _OUT["console"] = console


_LIVE: set = set()  # other live displays on the terminal (``play.Progress``), closed while a compile shows


def live_display(display, on: bool) -> None:
    """``display`` (with a ``close()``) is live on the terminal (``on``) or no longer: a compile's
    status line closes it first (two live displays garble each other); it comes back by itself."""
    with _LOCK:
        (_LIVE.add if on else _LIVE.discard)(display)


# ----- measurements ------------------------------------------------------------------------------------
def cache_root() -> Path:
    """Where numba caches compiled code when told (NUMBA_CACHE_DIR), else the user's cache directory."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return Path(given)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "simcards"


def times_path() -> Path:
    return cache_root() / TIMES_FILE


def _version() -> str:
    from simcards.version import __version__

    return __version__


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def record(game: str, engine: str, wall: float, cpu: float) -> None:
    """Remember that ``engine`` of ``game`` took ``wall`` seconds (``cpu`` of CPU) to compile with
    this version of simcards. A cache directory that cannot be written is left alone."""
    path = times_path()
    with _LOCK:
        data = _read(path)
        data.setdefault(_version(), {})[f"{game}/{engine}"] = {
            "wall": round(wall, 1), "cpu": round(cpu, 1), "when": time.strftime("%Y-%m-%dT%H:%M:%S")}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
            tmp.replace(path)
        except OSError:
            pass


def shipped() -> dict:
    """The figures measured by ``benchmarks/compile_times.py``."""
    return _read(SHIPPED)


def estimate(game: str, engine: str) -> tuple[float, str] | None:
    """(seconds, where they come from) for the next compile of ``engine`` of ``game``: the last one
    recorded here with this version, else with the newest other version, else the shipped figure
    (CPU seconds of a cold compile on the machine it names)."""
    key = f"{game}/{engine}"
    local = _read(times_path())
    mine = local.get(_version(), {}).get(key)
    if isinstance(mine, dict) and "wall" in mine:
        return float(mine["wall"]), "the last compile here"
    others = [(v[key].get("when", ""), ver, v[key]) for ver, v in local.items()
              if isinstance(v, dict) and isinstance(v.get(key), dict) and "wall" in v[key]]
    if others:
        _, ver, found = max(others)
        return float(found["wall"]), f"the last compile here, simcards {ver}"
    ship = shipped()
    fig = ship.get("engines", {}).get(game, {}).get(engine)
    if isinstance(fig, dict) and fig.get("cpu", 0) >= MIN_RECORD:  # less: compiled with another engine then
        return float(fig["cpu"]), f"measured on {ship.get('machine', 'a 2-core machine')}"
    return None


# ----- numba's compile events ----------------------------------------------------------------------------
class _Events:
    """Counts numba compiles in flight (nested ones included) and tells the open compiles when one starts."""

    def __init__(self):
        self.depth = 0
        self.installed = False
        self.heard = False  # numba tells us when it compiles

    def install(self) -> None:
        if self.installed:
            return
        self.installed = True
        try:
            from numba.core import event

            class Listener(event.Listener):
                def on_start(_, ev):
                    self.started(getattr(ev, "data", None))

                def on_end(_, ev):
                    self.ended()

            event.register("numba:compile", Listener())
            self.heard = True
        except Exception:  # numba's event API moved: a compile the cache predicts is shown at once
            self.heard = False

    def started(self, data=None) -> None:
        with _LOCK:
            self.depth += 1
            owner = _owner(data) if self.depth == 1 and _ACTIVE else None
            if owner is not None:
                owner.compiling()

    def ended(self) -> None:
        with _LOCK:
            self.depth = max(self.depth - 1, 0)


_EVENTS = _Events()
_ACTIVE: list[Compile] = []  # compiles between begin() and end(), oldest first


def _owner(data) -> Compile | None:
    """The open compile a numba compile belongs to: the one of the game whose package defines the
    function compiled (a study expects several games' kernels at once), else the latest begun that
    is not waiting for its own game (a shared function, simcards.rng say, compiles for whichever
    game runs; a later game's expected kernel must not start its clock then), else none."""
    fn = getattr((data or {}).get("dispatcher") if isinstance(data, dict) else None, "py_func", None)
    module = getattr(fn, "__module__", None) or ""
    for c in reversed(_ACTIVE):
        if c.package and module.startswith(c.package + "."):
            return c
    return next((c for c in reversed(_ACTIVE) if not c.waiting), None)


# ----- one compile -----------------------------------------------------------------------------------------
class Compile:
    """One engine's compile (see the module docstring). ``engine`` None: shown but not recorded.
    ``wait``: expected by a study of several games, whose studies run one after another: shown, and
    timed, from the first numba compile of this game's own code, not from when it was expected."""

    def __init__(self, game: str, engine: str | None, label: str, cold: bool, cached: bool = True,
                 wait: bool = False):
        self.game, self.engine, self.label, self.cold, self.cached = game, engine, label, cold, cached
        self.waiting = wait
        self.t0: float | None = None  # when it began (cold) or numba first compiled inside it
        self.cpu0 = 0.0
        self.seen = False  # numba compiled inside it
        self.done = False
        self.shown = False
        self._ticker: _Ticker | None = None
        self._guess: tuple[str | None, str] | None = None
        self.package = _package(game)  # simcards.games.<name>: whose functions compile here

    # what the user reads
    def headline(self) -> str:
        return f"compiling {self.label}" + (", once (cached for later runs)" if self.cached else "")

    def guess(self) -> str:
        """"about N s (where it was measured)", or "" before any figure (read once per engine)."""
        if self._guess is None or self._guess[0] != self.engine:
            est = estimate(self.game, self.engine) if self.engine else None
            self._guess = (self.engine, "" if est is None else f"about {_seconds(est[0])} ({est[1]})")
        return self._guess[1]

    def relabel(self, engine: str | None, label: str, cached: bool) -> None:
        """The same wait, now known to be for ``engine`` (the command guessed the plain kernel)."""
        changed = label != self.label
        self.engine, self.label, self.cached = engine, label, cached
        if changed and self._ticker is not None:
            self._ticker.relabelled()

    def elapsed(self) -> float:
        return 0.0 if self.t0 is None else time.monotonic() - self.t0

    # the life of a compile
    def begin(self) -> Compile:
        with _LOCK:
            if self.done or self in _ACTIVE:
                return self
            _EVENTS.install()
            _ACTIVE.append(self)
            if self.cold and not self.waiting:
                self.predicted()
        return self

    def predicted(self) -> None:
        """The cache says this compiles: the wait counts from now (an import may compile already),
        and is shown as soon as numba compiles (at once if numba cannot tell). Under the lock."""
        self.cold = True
        if self.t0 is None:
            self._clock()
        if not _EVENTS.heard or _EVENTS.depth > 0:
            self._show()

    def compiling(self) -> None:
        """numba started compiling inside this compile (called under the lock)."""
        self.waiting = False
        self.seen = True
        if self.t0 is None:
            self._clock()
        self._show()

    def _clock(self) -> None:
        self.t0 = time.monotonic()
        self.cpu0 = time.process_time()

    def _show(self) -> None:
        """Predicted: said now, before the compile takes the GIL; otherwise once numba has been
        compiling for ``DELAY`` seconds (a ticker thread waits)."""
        console = _OUT["console"]
        if console is None or self.done:
            return
        if self._ticker is None:
            self._ticker = _Ticker(self, console, DELAY)
            if self.cold:
                self._ticker.show()
            self._ticker.start()
        elif self.cold and not self.shown:
            self._ticker.show()

    def end(self, keep: bool = True) -> None:
        """The compile is over (the first call returned): stop showing it and, with ``keep``, record
        its seconds when numba did compile."""
        with _LOCK:
            if self.done:
                return
            self.done = True
            if self in _ACTIVE:
                _ACTIVE.remove(self)
            for game, c in list(_OPEN.items()):
                if c is self:
                    del _OPEN[game]
        wall = self.elapsed()
        cpu = time.process_time() - self.cpu0
        if self._ticker is not None:
            self._ticker.finish(wall, said=keep)
        if keep and self.seen and self.engine and wall >= MIN_RECORD:
            record(self.game, self.engine, wall, cpu)

    def __enter__(self) -> Compile:
        return self.begin()

    def __exit__(self, *exc) -> None:
        self.end(keep=exc[0] is None)


def _package(game: str) -> str | None:
    from simcards.games import GAMES

    module = GAMES.get(game)
    return module.rsplit(".", 1)[0] if module else None


def _seconds(s: float) -> str:
    return f"{s:.0f} s" if s < 100 else f"{s / 60:.1f} min"


class _Ticker(threading.Thread):
    """Shows one compile: a live status line on a terminal, otherwise a line at the start and one
    at the end. Unless shown at once (the cache predicted the compile), it waits ``delay`` seconds
    of compiling first."""

    def __init__(self, compile_: Compile, console, delay: float):
        super().__init__(name="simcards-compile-notice", daemon=True)
        self.c = compile_
        self.console = console
        self.delay = delay
        self.stop = threading.Event()
        self.status: Any = None
        self.live = bool(getattr(console, "is_terminal", False))

    def text(self) -> str:
        """The status line, fitted to the terminal (a wrapped live line leaves a copy on every
        refresh): the elapsed time and the estimate stay; "once (cached ...)", where the estimate
        was measured and then the end of the label give way, in that order."""
        guess = self.c.guess()
        now = f": {self.c.elapsed():.0f} s"
        bare = guess.split(" (")[0]  # "about 34 s", without where it was measured
        width = max(int(getattr(self.console, "width", 0) or 0) - STATUS_MARGIN, 0)
        head = f"compiling {self.c.label}"
        for line in (self.c.headline() + now + (f" of {guess}" if guess else ""),
                     head + now + (f" of {guess}" if guess else ""),
                     head + now + (f" of {bare}" if bare else "")):
            if not width or len(line) <= width:
                return line
        tail = now + (f" of {bare}" if bare else "")
        return head[:max(width - len(tail) - 1, len("compiling "))] + "…" + tail

    def run(self) -> None:
        while not self.c.shown:  # not predicted: shown once numba has compiled for a while, and still does
            if self.stop.wait(1 / REFRESH):
                return
            if self.c.elapsed() >= self.delay and _EVENTS.depth > 0:
                with _LOCK:
                    if not self.stop.is_set():
                        self.show()
        while not self.stop.wait(1 / REFRESH):
            if self.status is not None:
                self.status.update(self.text())

    def show(self) -> None:
        if self.c.shown:
            return
        self.c.shown = True
        if self.live:
            with _LOCK:
                others = list(_LIVE)
            for display in others:
                display.close()
            self.status = self.console.status(self.text(), refresh_per_second=REFRESH)
            self.status.start()
        else:
            guess = self.c.guess()
            self._print(self.c.headline() + (f": {guess}" if guess else ""))

    def relabelled(self) -> None:
        if self.c.shown and not self.live:
            self._print(f"now {self.c.headline()}")

    def finish(self, wall: float, said: bool = True) -> None:
        """Stop showing the compile; with ``said``, a line that says how long it took (not on a
        terminal, where the status line just goes)."""
        self.stop.set()
        if threading.current_thread() is not self:
            self.join(timeout=2)
        if self.status is not None:
            self.status.stop()
        elif self.c.shown and said:
            self._print(f"compiled {self.c.label} in {wall:.1f} s")

    def _print(self, text: str) -> None:
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)


# ----- a compile that goes on past one call ----------------------------------------------------------------
def expect(game: str, engine: str, label: str, cold: bool, wait: bool = False) -> Compile:
    """Begin ``engine`` of ``game``'s compile now, before the game is imported (importing a kernel
    may compile already); what compiles next for that game continues it (:func:`compile_for`).
    ``wait``: one of several games a study plays later (see :class:`Compile`)."""
    return hold(Compile(game, engine, label, cold, wait=wait).begin())


def hold(c: Compile) -> Compile:
    """Keep ``c`` open for the next compile of its game to continue (the engine being bound now is
    compiled by its first call); a compile held before for that game ends, unrecorded."""
    with _LOCK:
        old = _OPEN.get(c.game)
        _OPEN[c.game] = c
    if old is not None and old is not c:
        old.end(keep=False)
    return c


def compile_for(game: str, engine: str | None, label: str, cold: bool, cached: bool = True,
                relabel: bool = True) -> Compile:
    """The compile of ``engine`` of ``game``: the one held open for that game (by the command, or
    while the engine was bound), now about this engine (``relabel``), if any; else a new one."""
    with _LOCK:
        old = _OPEN.pop(game, None)
        if old is not None and not old.done:
            old.waiting = False  # its game is being bound: what numba compiles now is for it
            if relabel:
                old.relabel(engine, label, cached)
            if cold and not old.cold and old in _ACTIVE:
                old.predicted()
            return old
    return Compile(game, engine, label, cold, cached)


def settle(game: str) -> None:
    """The run of ``game`` has its engine (a Dask run's is on the workers): a compile still open
    for it here ends, unrecorded (it covered the import only)."""
    with _LOCK:
        c = _OPEN.pop(game, None)
    if c is not None:
        c.end(keep=False)


@atexit.register
def reset() -> None:
    """End every compile still open, unrecorded, and stop showing compiles (a command is over)."""
    with _LOCK:
        left = list(dict.fromkeys([*_OPEN.values(), *_ACTIVE]))
        _OPEN.clear()
    for c in left:
        c.end(keep=False)
    show_on(None)


# ----- the first call of an engine --------------------------------------------------------------------------
class FirstCall:
    """``fn`` whose first call runs inside the compile ``make()`` returns (made then, so that the
    cache is looked at when the call comes); later calls go straight through. Attributes are
    ``fn``'s (``py_func``, ``overloads``...)."""

    def __init__(self, fn: Callable, make: Callable[[], Compile]):
        self._fn = fn
        self._make: Callable[[], Compile] | None = make

    def __call__(self, *args, **kwargs):
        make = self._make
        if make is None:
            return self._fn(*args, **kwargs)
        self._make = None
        with make():
            return self._fn(*args, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self._fn, name)

    def __repr__(self) -> str:
        return f"FirstCall({self._fn!r})"
