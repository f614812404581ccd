"""Small numba tools shared by the kernels.

``borrow(a)`` returns a view of the C-contiguous array ``a`` that has no owner (no meminfo), so
numba does not count references to it. Every array a jitted function binds or passes on is
otherwise incref'd and decref'd with atomic instructions; in a turn loop that makes dozens of
calls, that bookkeeping costs more than the game logic. The caller must keep the owning array
alive (use it after the last use of the borrowed view, e.g. with ``keep_alive``).
"""

from __future__ import annotations

import re

import numpy as np
from numba import carray, njit, types
from numba.extending import intrinsic


def _unique_symbols() -> None:
    """Give every function numba compiles a random id instead of the next value of a per-process
    counter. numba names a compiled function's symbol by module, qualified name and that id, so a
    kernel rebuilt around a policy (``rebind``: same module and name, other code) and the built-in
    one, compiled in two processes, can get the same symbol; a process that loads both from the
    disk cache links calls in one to the other's body (numba issue #10486: our Gin ``mc`` then
    played without searching on a warm cache). Random ids make equal symbols mean equal code."""
    import secrets

    try:
        from numba.core.bytecode import FunctionIdentity
    except ImportError:  # numba internals moved: keep numba's counter
        return

    class RandomIds:
        def __iter__(self):
            return self

        def __next__(self) -> int:
            return secrets.randbits(62) + 1

    FunctionIdentity._unique_ids = RandomIds()


_unique_symbols()


def _locked_cache_files() -> None:
    """Make numba's cache writes and reads whole across processes. numba saves a compiled
    signature in steps, with no lock: read the function's index, pick the first free data file,
    write the index, write the data. Two processes saving two signatures of one function at once
    (a cold cache under pytest-xdist, Dask workers, parallel jobs) both pick file 1; the index
    then maps one signature to the other's code, and a process that loads it runs code built for
    other argument types (an array of another layout: wrong numbers, no error; a CI run's Dask
    workers played other Yaniv games than the client). A save holds an exclusive ``flock`` on a
    lock file beside the index, a load a shared one."""
    import contextlib
    import os

    try:
        import fcntl

        from numba.core.caching import IndexDataCacheFile
    except ImportError:  # no flock here, or numba internals moved: numba's own behaviour
        return
    if getattr(IndexDataCacheFile, "simcards_locked", False):
        return
    save, load = IndexDataCacheFile.save, IndexDataCacheFile.load

    @contextlib.contextmanager
    def locked(cache_file, mode):
        try:
            fd = os.open(cache_file._index_path + ".lock", os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:  # a read-only cache: nothing is saved there, nothing to guard
            yield
            return
        try:
            fcntl.flock(fd, mode)
            yield
        finally:
            os.close(fd)  # releases the lock

    def locked_save(self, key, data):
        with locked(self, fcntl.LOCK_EX):
            save(self, key, data)

    def locked_load(self, key):
        with locked(self, fcntl.LOCK_SH):
            return load(self, key)

    IndexDataCacheFile.save = locked_save
    IndexDataCacheFile.load = locked_load
    IndexDataCacheFile.simcards_locked = True


_locked_cache_files()


def _answer_blas_check() -> None:
    """numba's ``arraymath``, which every cached kernel loads, imports ``scipy.linalg`` when it is
    imported (a quarter of a second, a fifth of a warm run) only to learn whether a BLAS exists, a
    flag that picks the inner product ``np.correlate``/``np.convolve`` use. scipy is one of our
    dependencies, so the answer is yes: give it without the import. A kernel that calls BLAS
    (``np.dot``) still imports ``scipy.linalg`` when it compiles (numba's own ``ensure_blas``)."""
    import importlib.util
    import sys

    if "numba.np.arraymath" in sys.modules or importlib.util.find_spec("scipy") is None:
        return
    try:
        import numba.np.linalg as linalg
    except ImportError:  # numba internals moved: let numba check
        return
    real = linalg.ensure_blas
    linalg.ensure_blas = lambda: None  # arraymath binds the name when it is imported
    try:
        import numba.np.arraymath as arraymath
    finally:
        linalg.ensure_blas = real
    arraymath.ensure_blas = real


_answer_blas_check()


def _linear_inline_copy() -> None:
    """numba inlines a function (``inline="always"``) by deep-copying its IR one block at a time,
    each copy with a fresh memo, so every block copies the function's whole scope (every
    variable) again: the cost grows with blocks × variables, and an inlined function that itself
    inlines others is copied at every level (in Two Hundred's kernel about half the cold compile).
    Copy the blocks of one function with one memo: the scope once, the same IR otherwise."""
    import copy

    try:
        from numba.core import inline_closurecall, ir
    except ImportError:  # numba internals moved: keep numba's copy
        return
    if getattr(inline_closurecall, "copy", None) is not copy:
        return

    class BlockCopier:
        """Stands in for the ``copy`` module in ``inline_closurecall`` (its only use: copying an
        inlined function's blocks). Blocks of one scope share a memo; a block already in the memo
        means the same function copied again, which starts afresh."""

        def __init__(self) -> None:
            self.scope = None
            self.memo: dict = {}

        def deepcopy(self, x, memo=None):
            if memo is not None or not isinstance(x, ir.Block):
                return copy.deepcopy(x, memo)
            if x.scope is not self.scope or id(x) in self.memo:
                self.scope, self.memo = x.scope, {}
            return copy.deepcopy(x, self.memo)

        def __getattr__(self, name):
            return getattr(copy, name)

    inline_closurecall.copy = BlockCopier()


_linear_inline_copy()


def _cheap_flags_compare() -> None:
    """numba keys the implementations of every ``@overload`` it types by the compile's flags
    (``TargetConfig``), whose hash and ``==`` read all ~45 options through properties each time:
    typing one call tries many overload templates, so a cold Gin compile made about 190,000 such
    reads (about 1.4 CPU s). The hash is a function of the option *names* only (numba hashes the
    sorted keys of ``values()``): compute it once per class. Two configs of one class are compared
    on the options either sets (the rest hold their defaults in both: numba's ``values()`` reads
    ``_values.get(name, default)``); configs of two classes as numba does."""
    try:
        from numba.core.targetconfig import TargetConfig
    except ImportError:  # numba internals moved: keep numba's comparison
        return
    original_eq = TargetConfig.__eq__
    if getattr(original_eq, "simcards_fast", False):
        return
    hashes: dict = {}

    def __hash__(self):
        cls = type(self)
        h = hashes.get(cls)
        if h is None:
            h = hashes[cls] = hash(tuple(sorted(self.values())))
        return h

    def __eq__(self, other):
        if self is other:
            return True
        if type(self) is not type(other):
            return original_eq(self, other)
        mine, theirs = self._values, other._values
        if mine == theirs:
            return True
        options = type(self).options  # an option set in neither holds its default in both
        return all(mine.get(k, options[k].default) == theirs.get(k, options[k].default)
                   for k in mine.keys() | theirs.keys())

    __eq__.simcards_fast = True  # type: ignore[attr-defined]
    TargetConfig.__hash__ = __hash__  # type: ignore[method-assign]
    TargetConfig.__eq__ = __eq__  # type: ignore[method-assign]


_cheap_flags_compare()


def _plain_error_markup() -> None:
    """numba writes the message of every error it raises with terminal colours, and typing raises
    and catches thousands while it tries alternatives (a global that ``typeof`` cannot type, a
    literal that is not one): each message starts and stops colorama (``ColorShell``: it wraps
    and unwraps ``sys.stdout`` and ``sys.stderr``), about 0.4 CPU s of a cold Gin compile. The
    message is built the same without it (colorama only converts what is *printed* inside)."""
    try:
        from numba.core import errors
    except ImportError:
        return
    if not hasattr(errors, "ColorShell"):  # colorama missing or numba changed: nothing to do
        return

    class QuietShell:
        def __enter__(self):
            return None

        def __exit__(self, *exc_detail):
            return None

    errors.ColorShell = QuietShell


_plain_error_markup()


def _quiet_llvm_lock() -> None:
    """numba asks llvmlite to broadcast a ``numba:llvm_lock`` start and end event around every call
    into LLVM (tens of thousands in a cold Gin compile, about a second of CPU), only to add up the
    time a compile held that lock (``get_metadata()["timers"]["llvm_lock"]``, which nothing here
    reads). Stop the broadcasts; the lock itself is taken as before."""
    try:
        from llvmlite.binding import ffi
        from numba.core import base  # noqa: F401  (registers numba's callbacks, once)
    except ImportError:
        return
    lock = getattr(getattr(ffi, "lib", None), "_lock", None)
    for acquire, release in list(getattr(lock, "_cblist", ())):
        if getattr(acquire, "__qualname__", "").startswith("_initialize_llvm_lock_event."):
            ffi.unregister_lock_callback(acquire, release)


_quiet_llvm_lock()


def _sparse_gc_while_compiling() -> None:
    """A compile allocates millions of small objects (numba IR, types, llvmlite IR) that mostly
    live until it ends, so Python's collector runs its full passes over a growing heap again and
    again for little: about a tenth of a cold Gin compile. While a compile is in progress (numba's
    ``numba:compile`` events, outermost) the first generation is collected every 100,000
    allocations instead of 700; the thresholds in force before are put back when it ends."""
    import gc

    try:
        from numba.core import event
    except ImportError:  # numba internals moved: leave the collector alone
        return

    class SparseGc(event.Listener):
        def __init__(self) -> None:
            self.depth = 0
            self.saved = gc.get_threshold()

        def on_start(self, ev) -> None:
            if self.depth == 0:
                self.saved = gc.get_threshold()
                gc.set_threshold(max(self.saved[0], 100_000), *self.saved[1:])
            self.depth += 1

        def on_end(self, ev) -> None:
            self.depth -= 1
            if self.depth == 0:
                gc.set_threshold(*self.saved)

    event.register("numba:compile", SparseGc())


_sparse_gc_while_compiling()


# For functions only jitted code calls: compiled without the entry points numba gives a function
# for being called from Python (a CPython wrapper that unboxes each argument) and through a C
# pointer, which are compile time for nothing; calling one of them from Python crashes. (Options
# numba's type stubs do not list: pass them as ``njit(**NO_ENTRY)``.)
NO_ENTRY: dict = {"cache": True, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}


def by_type(dispatcher):
    """Make the jitted function ``dispatcher`` compile once per argument *types* when called from
    other jitted code. A plain numba dispatcher compiles a separate copy for every constant value
    it is called with (``decide(K_CALL, ..., 2, ...)``, ``_push(..., 2, ...)`` each get their own
    ``Literal[int]`` copy, and the functions they call too): in the Yaniv kernel that was 97
    compiled signatures instead of ~35 and most of the cold-compile time. Not for functions that
    need literal arguments (``numba.literally``)."""
    original = getattr(dispatcher, "get_call_template", None)
    if original is None:  # not a numba dispatcher as we know it: leave it alone
        return dispatcher

    def get_call_template(args, kws):
        return original(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    dispatcher.simcards_by_type = True
    return dispatcher


def njit_by_type(**options):
    """``numba.njit(**options)`` followed by ``by_type``."""
    return lambda fn: by_type(njit(**options)(fn))


@intrinsic
def _data_ptr(typingctx, arr):
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


@njit(cache=True, inline="always")
def borrow(a):
    """An unowned view of the C-contiguous array ``a`` (see the module docstring)."""
    if not a.flags.c_contiguous:
        raise ValueError("arrays passed to a simcards kernel must be C-contiguous")
    return carray(_data_ptr(a), a.shape)


@njit(cache=True)
def keep_alive(a):
    """Use ``a`` so that numba keeps it alive at least until this call."""
    return np.int64(a.size) * 0


def rebind(module_globals: dict, names: tuple[str, ...], cache_key: str | None = None, **replacements):
    """Recompile the jitted functions ``names`` of a kernel module over a copy of its globals in
    which ``replacements`` (e.g. ``decide=user_dispatcher``) stand in. Kernels are written once,
    at module level, so the built-in engine is cached on disk. numba's own cache cannot tell these
    copies from the originals (same code, other globals): they are cached under ``cache_key``
    (``keyed_cache``; a digest of everything they are built from), or compiled once per process
    when it is None. Returns the new globals, whose entries for ``names`` are the rebuilt
    dispatchers."""
    import types as pytypes

    scope = dict(module_globals)
    scope.update(replacements)
    for name in names:
        original = module_globals[name]
        fn = pytypes.FunctionType(original.py_func.__code__, scope, name)
        options = {k: v for k, v in original.targetoptions.items() if k not in ("cache", "nopython")}
        scope[name] = keyed_cache(njit(**options)(fn), cache_key)
        if getattr(original, "simcards_by_type", False):
            scope[name] = by_type(scope[name])
    return scope


def compiled_as(fn, name: str, jit, **constants):
    """``fn`` (a plain function or a jitted one) compiled by ``jit`` under the name ``name``, with
    module constants replaced by ``constants``. numba caches a function on disk under its file and
    name, so a copy compiled with other options or constants needs a name of its own (``cache``
    is not among a dispatcher's target options: ``jit`` must ask for it again)."""
    import types as pytypes

    py = getattr(fn, "py_func", fn)
    scope = dict(py.__globals__)
    scope.update(constants)
    copy = pytypes.FunctionType(py.__code__, scope, name)
    copy.__qualname__ = name
    return jit(copy)


def cache_dir(anchor):
    """Where numba keeps the cache of the file defining ``anchor`` (NUMBA_CACHE_DIR, __pycache__
    or a user cache)."""
    from pathlib import Path

    try:
        from numba.core.caching import FunctionCache

        return Path(FunctionCache(anchor)._cache_path)
    except Exception:  # an internal API: fall back to numba's default place
        return Path(anchor.__code__.co_filename).resolve().parent / "__pycache__"


def cache_is_cold(source, key: str | None = None) -> bool:
    """True when the next run compiles the jitted module file ``source``: no function of it is
    cached yet (functions rebuilt under a ``keyed_cache`` key do not count), or, with ``key``, no
    function rebuilt under that key is cached beside it (an engine of search players or user
    policies: ``policy.engine_key``). Cheap: nothing is imported or compiled (importing a kernel may
    already compile); a stand-in function "defined" in that file locates its cache, then one
    directory listing."""
    from pathlib import Path

    source = Path(source)
    scope: dict = {}
    exec(compile("def probe():\n    pass\n", str(source), "exec"), scope)
    names = [p.name for p in cache_dir(scope["probe"]).glob("*.nbi")]
    if key is not None:
        return not any(n.endswith(f".u{key[:20]}.nbi") for n in names)
    return not any(n.startswith(f"{source.stem}.") and not _KEYED.search(n) for n in names)


def dispatcher_is_cold(fn) -> bool:
    """True when the jitted function ``fn`` has nothing in its disk cache yet, so its first call
    compiles. False when that cannot be told: compiled in memory, already compiled in this
    process, or not a numba dispatcher (numba's compile events tell then: ``simcards.compiling``)."""
    import os

    if getattr(fn, "overloads", None):
        return False
    try:
        index = fn._cache._cache_file._index_path
    except AttributeError:
        return False
    return not os.path.exists(index)


_KEYED = re.compile(r"\.u[0-9a-f]{20}\.nbi$")  # an index file written by keyed_cache


def keyed_cache(dispatcher, key: str | None):
    """Cache ``dispatcher`` (a kernel function rebuilt around a user policy) on disk beside the
    kernel's own cache, in files and under index keys that also carry ``key``, so a rebuilt copy
    is never mistaken for the built-in function or for a copy built around another policy.
    ``key`` None: no disk cache. A cache that cannot be set up is skipped (compiled in memory)."""
    if key is None:
        return dispatcher
    try:
        from numba.core.caching import FunctionCache, IndexDataCacheFile

        class KeyedCache(FunctionCache):
            def __init__(self, py_func):
                super().__init__(py_func)
                base = f"{self._impl.filename_base}.u{key[:20]}"
                self._cache_file = IndexDataCacheFile(self._cache_path, base, self._impl.locator.get_source_stamp())

            def _index_key(self, sig, codegen):
                return (*super()._index_key(sig, codegen), key)

        dispatcher._cache = KeyedCache(dispatcher.py_func)
    except Exception:  # numba internals changed, or no writable cache: compile in memory
        pass
    return dispatcher


def drop_stale_cache(anchor, sources, stems: tuple[str, ...], stamp: str) -> None:
    """Drop cached kernels that may hold old code. numba invalidates a cached function only when
    its own file changes, not when a jitted function it calls (inlined into it, in another file)
    does. Keep a fingerprint of ``sources`` (paths) beside the cache of ``anchor`` (a function of
    the package whose cache is guarded) and, when it no longer matches, delete the cached
    functions of the files named ``stems`` there (``"kernel"`` → ``kernel.*.nbi``/``.nbc``).
    A read-only cache is left alone (numba then compiles in memory)."""
    import hashlib
    from pathlib import Path

    digest = hashlib.sha256(b"".join(Path(p).read_bytes() for p in sources if Path(p).exists())).hexdigest()
    cache = cache_dir(anchor)
    marker = cache / f"{stamp}.deps.stamp"
    try:
        if marker.exists() and marker.read_text() == digest:
            return
        cache.mkdir(parents=True, exist_ok=True)
        for stem in stems:
            for f in cache.glob(f"{stem}.*.nb[ci]"):
                f.unlink(missing_ok=True)
        marker.write_text(digest)
    except OSError:
        pass
