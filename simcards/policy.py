"""What every game does with a user policy: compile it alone first, check every index it returns,
report its failures in one line.

A user policy (``simcards.strategy.register``), like a game's search players (a ``Family`` with
``decide``), is called by the kernels through a small dispatcher
(``chain``, built by ``simcards.games.engine.KernelBinding``). Built-in strategies cannot return an
option out of range, so only that dispatcher checks: ``checked_choice`` plays option 0 instead and
records the first bad decision (strategy id, kind, index, options) and a count in ``BAD_WIDTH``
slots of the public view (``layout.V_BAD``); the kernel copies them to the game's output row
(``layout.G_BAD``), and ``check_games`` turns them into ``error: strategy 'X' returned option 10
of 5 (discard) in game 3`` — or, with ``on_invalid="first"`` (``--invalid-option first``), lets
the games stand with option 0 played and counted (``invalid_decisions``). The reference engines
check the same way in Python (``reference_choice``).
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import numpy as np
from numba import njit, types

from simcards.errors import SimcardsError

BAD_WIDTH = 5  # view / output slots: count, strategy id, kind, index returned, options offered
ON_INVALID = ("error", "first")
RAISED = -(1 << 62)  # in the index slot: the policy raised an exception (numba drops its message)


def chain(inner, sid0: int, fn, slot: int, checked: bool = False, jit=njit, seat_slot: int | None = None):
    """A decision function that sends strategy ``sid0`` to the user policy ``fn`` and the rest to
    ``inner``; ``checked`` (the kernel's): an index out of range becomes option 0, recorded in
    ``view[slot:]``, and an exception is recorded too (the reference engine checks in Python).
    ``jit``: the game's jit decorator.

    A user policy is always called as ``fn(kind, params, hand, n, opts, n_opts, view, rules, rng)``.
    Kernels call their decision function in one of two forms: with the deciding seat's parameter
    row and hand size, ``decide(kind, sid, params, hand, n, ...)`` (Yaniv, Gin), or, with
    ``seat_slot``, with the whole parameter table and a card mask,
    ``decide(kind, sid, table, hand, opts, ...)``, the deciding seat at ``view[seat_slot]`` (Two
    Hundred, whose built-in strategy reads its partner's row); the policy then gets that seat's
    row and ``n`` = the cards in the mask."""
    if seat_slot is not None:
        return _table_chain(inner, sid0, fn, slot, checked, jit, seat_slot)
    if checked:
        def decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
            if sid == sid0:
                try:
                    c = fn(kind, params, hand, n, opts, n_opts, view, rules, rng)
                except Exception:  # recorded, reported after the batch (check_games)
                    return raised(sid0, kind, n_opts, view, slot)
                return checked_choice(c, sid0, kind, n_opts, view, slot)
            return inner(kind, sid, params, hand, n, opts, n_opts, view, rules, rng)
    else:
        def decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
            if sid == sid0:
                return fn(kind, params, hand, n, opts, n_opts, view, rules, rng)
            return inner(kind, sid, params, hand, n, opts, n_opts, view, rules, rng)
        return _releasing(jit(decide))
    return jit(decide)


def _table_chain(inner, sid0: int, fn, slot: int, checked: bool, jit, seat_slot: int):
    """``chain`` for kernels that pass the parameter table and a card mask."""
    if checked:
        def decide(kind, sid, table, hand, opts, n_opts, view, rules, rng):
            if sid == sid0:
                try:
                    c = fn(kind, table[view[seat_slot]], hand, mask_count(hand), opts, n_opts, view, rules, rng)
                except Exception:  # recorded, reported after the batch (check_games)
                    return raised(sid0, kind, n_opts, view, slot)
                return checked_choice(c, sid0, kind, n_opts, view, slot)
            return inner(kind, sid, table, hand, opts, n_opts, view, rules, rng)
    else:
        def decide(kind, sid, table, hand, opts, n_opts, view, rules, rng):
            if sid == sid0:
                return fn(kind, table[view[seat_slot]], hand, mask_count(hand), opts, n_opts, view, rules, rng)
            return inner(kind, sid, table, hand, opts, n_opts, view, rules, rng)
        return _releasing(jit(decide))
    return jit(decide)


def _releasing(dispatcher):
    """The reference engines call the unchecked dispatcher from Python, one decision at a time:
    compiled with ``nogil``, a user policy that does not return leaves the GIL free, so the main
    thread still sees Ctrl-C while it waits for a replay (``simcards.kernelcall``). (Not cached on
    disk; called from jitted code the option changes nothing.)"""
    options = getattr(dispatcher, "targetoptions", None)
    if isinstance(options, dict):
        options["nogil"] = True
    return dispatcher


@njit(cache=True)
def mask_count(mask):
    """Cards in a card mask (set bits)."""
    n = np.int64(0)
    m = np.int64(mask)
    while m != 0:
        m &= m - 1
        n += 1
    return n


@njit(cache=True)
def checked_choice(choice, sid, kind, n_opts, view, slot):
    """``choice`` if it is an option (0 .. n_opts-1); otherwise 0, with the first bad decision
    and a count recorded in ``view[slot:slot + BAD_WIDTH]``."""
    c = np.int64(choice)
    if c >= 0 and c < n_opts:
        return c
    if view[slot] == 0:
        view[slot + 1] = sid
        view[slot + 2] = kind
        view[slot + 3] = c
        view[slot + 4] = n_opts
    view[slot] += 1
    return np.int64(0)


@njit(cache=True)
def raised(sid, kind, n_opts, view, slot):
    """A policy raised: recorded over any bad index (it stops the run whatever ``on_invalid``
    says); option 0 is played so the game can end."""
    view[slot] += 1
    view[slot + 1] = sid
    view[slot + 2] = kind
    view[slot + 3] = RAISED
    view[slot + 4] = n_opts
    return np.int64(0)


def check_mode(on_invalid: str) -> str:
    if on_invalid not in ON_INVALID:
        raise SimcardsError(f"invalid_option={on_invalid!r}: allowed {', '.join(ON_INVALID)} (error stops the run "
                            "with one line; first plays option 0 and counts it)")
    return on_invalid


def kind_names(layout) -> dict[int, str]:
    """Decision kinds of a game's layout module (``K_DISCARD = 1`` → ``{1: "discard"}``)."""
    return {v: k[2:].lower() for k, v in vars(layout).items() if k.startswith("K_") and isinstance(v, int)}


class PolicyIndexError(SimcardsError):
    """A policy returned an index that is not an option (raised where names are not known)."""

    def __init__(self, sid: int, kind: int, index: int, n_opts: int, game: int | None = None):
        self.sid, self.kind, self.index, self.n_opts, self.game = int(sid), int(kind), int(index), int(n_opts), game
        super().__init__(bad_index_message(f"#{sid}", str(kind), self.index, self.n_opts, game))

    def describe(self, names: dict[int, str], kinds: dict[int, str]) -> str:
        return bad_index_message(names.get(self.sid, f"#{self.sid}"), kinds.get(self.kind, str(self.kind)),
                                 self.index, self.n_opts, self.game)


def bad_index_message(name: str, kind: str, index: int, n_opts: int, game: int | None) -> str:
    where = f" in game {game}" if game is not None else ""
    return (f"strategy {name!r} returned option {index} of {n_opts} ({kind}){where}: options are 0..{n_opts - 1} "
            "(--invalid-option first plays option 0 instead and counts it)")


def check_games(games: np.ndarray, slot: int, first: int, names: dict[int, str], kinds: dict[int, str],
                on_invalid: str, explain=None) -> None:
    """After a batch: stop with one line at the first game in which a policy raised, or returned
    a bad index (unless ``on_invalid="first"``) — the lowest game index, so the message does not
    depend on threads or chunks. ``explain(game)`` replays a game whose policy raised in the
    reference engine and returns ``"ValueError: ..."`` (the kernel cannot keep the message)."""
    if len(games) == 0:
        return
    raised_at = np.flatnonzero(games[:, slot + 3] == RAISED)
    if len(raised_at):
        i = int(raised_at[0])
        sid, kind = int(games[i, slot + 1]), int(games[i, slot + 2])
        what = (explain(first + i) if explain is not None else None) or "an exception"
        raise SimcardsError(f"policy {names.get(sid, f'#{sid}')!r} raised {what} "
                            f"(game {first + i}, {kinds.get(kind, kind)} decision)")
    if on_invalid == "first":
        return
    bad = np.flatnonzero(games[:, slot])
    if len(bad):
        i = int(bad[0])
        sid, kind, index, n_opts = (int(v) for v in games[i, slot + 1:slot + BAD_WIDTH])
        raise SimcardsError(PolicyIndexError(sid, kind, index, n_opts, first + i).describe(names, kinds))


def exception_text(play) -> str | None:
    """``"ValueError: ..."`` from ``play()`` (a reference game), or None if it does not raise."""
    try:
        play()
    except Exception as exc:  # the user's policy raised: what it said, in one line
        return f"{type(exc).__name__}: {_first_line(str(exc))}"
    return None


def reference_choice(choice, n_opts: int, kind: int, sid: int, on_invalid: str, record) -> int:
    """The reference engines' check, the same as ``checked_choice``: option 0 and counted in
    ``record.invalid`` with ``on_invalid="first"``, else a ``PolicyIndexError``."""
    c = int(choice)
    if 0 <= c < n_opts:
        return c
    if on_invalid != "first":
        raise PolicyIndexError(sid, kind, c, n_opts)
    record.invalid += 1
    return 0


def names_of(strategies: Iterable) -> dict[int, str]:
    return {s.family.sid: s.family.name for s in strategies}


@contextlib.contextmanager
def reported(strategies: Iterable, kinds: dict[int, str]):
    """Turn what a user policy does wrong while games run into one line: a bad index (reference
    engines) and any exception a policy raises (``policy 'boom' raised ValueError: ...``)."""
    strategies = list(strategies)
    custom = sorted({s.family.name for s in strategies if s.family.decide is not None})
    try:
        yield
    except PolicyIndexError as exc:
        raise SimcardsError(exc.describe(names_of(strategies), kinds)) from None
    except SimcardsError:
        raise
    except Exception as exc:
        if not custom:  # the engine's own failure: keep the traceback
            raise
        who = " or ".join(repr(n) for n in custom)
        raise SimcardsError(f"policy {who} raised {type(exc).__name__}: {_first_line(str(exc))}") from None


# ----- compiling a policy alone ------------------------------------------------------------------
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_NOISE = ("Failed in nopython mode pipeline", "Failed in object mode pipeline", "During:", "File \"", "^",
          "No implementation of function")


def _first_line(text: str) -> str:
    """The first informative line of a (numba) error message, without colour codes."""
    lines = [ln.strip() for ln in _ANSI.sub("", text).splitlines()]
    for ln in lines:
        if ln and not any(ln.startswith(n) for n in _NOISE):
            return ln.rstrip(":")
    return next((ln for ln in lines if ln), "")


def _where(fn) -> str:
    code = getattr(getattr(fn, "py_func", fn), "__code__", None)
    return f"{code.co_filename}:{code.co_firstlineno}" if code is not None else "?"


def compile_policy(fam, signature: tuple) -> None:
    """Compile the policy of ``fam`` alone for the game's decision ``signature`` (numba types),
    before any kernel is built around it: a policy that is not ``@njit``, does not take these
    arguments or does not return a whole number is refused in one line naming its file and
    function."""
    fn = fam.decide
    name = getattr(getattr(fn, "py_func", fn), "__name__", repr(fn))
    where = f"policy {fam.name!r} ({name} in {_where(fn)})"
    if not hasattr(fn, "compile") or not hasattr(fn, "py_func"):
        raise SimcardsError(f"{where} is not a numba @njit function: decorate it with @njit")
    if source_file(fn) is not None and type(getattr(fn, "_cache", None)).__name__ == "NullCache":
        try:
            fn.enable_caching()  # as @njit(cache=True): a policy from a file is compiled once, not every run
        except Exception:  # no writable place for a cache: compile in memory, as before
            pass
    try:
        cres = _compile(fn, signature)
    except Exception as exc:
        raise SimcardsError(f"{where} does not compile for the decision signature "
                            f"(kind, params, ...): {_first_line(str(exc))}") from None
    ret = cres.signature.return_type
    if not isinstance(ret, (types.Integer, types.Boolean)):
        raise SimcardsError(f"{where} returns {ret}, not a whole number (the index of the chosen option)")


def _compile(fn, signature: tuple):
    """``fn`` compiled for ``signature``. A cache entry that no longer loads (written when the
    policy's module had another name, e.g. by an older simcards: "No module named ...") is
    dropped and the policy compiled afresh, once; a policy that does not compile fails both times."""
    try:
        fn.compile(signature)
    except Exception:
        cache = getattr(fn, "_cache", None)
        if cache is None or type(cache).__name__ == "NullCache":
            raise
        cache.flush()
        fn.compile(signature)
    return fn.overloads[tuple(signature)]


# ----- caching an engine built around user policies ----------------------------------------------
def source_file(fn) -> Path | None:
    """The file a jitted function was defined in (None: defined interactively)."""
    try:
        path = inspect.getsourcefile(fn.py_func)
    except (TypeError, AttributeError):
        return None
    return Path(path) if path and Path(path).is_file() else None


@lru_cache(maxsize=1)
def _package_digest() -> bytes:
    """Every source file of simcards: the kernels inline code from many of them."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return h.digest()


def engine_key(game: str, families) -> str | None:
    """The disk-cache key of an engine built around these user policies: the content of each
    policy's file, its name, id, module and function, and every simcards source file. None (compile in
    memory, once per process) when a policy has no source file (defined interactively)."""
    h = hashlib.sha256(game.encode() + _package_digest())
    for fam in families:
        path = source_file(fam.decide)
        if path is None:
            return None
        fn = fam.decide.py_func  # its module's name too: a cached engine imports it by that name
        h.update(f"{fam.sid}:{fam.name}:{fn.__module__}:{fn.__qualname__}:".encode() + path.read_bytes())
    return h.hexdigest()
