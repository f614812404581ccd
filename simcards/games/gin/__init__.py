"""Gin Rummy: rules, engines and strategies (see ../shared/rules/gin-rummy.md).

``min_deadwood(cards)`` and ``best_melds(cards)`` answer single-hand questions exactly."""


def _drop_stale_cache() -> None:
    """numba invalidates a cached function only when its own file changes, not when a function it
    calls from another file does (the kernel inlines the meld solver and the policies). Keep a
    fingerprint of every file the Gin kernels are built from next to the cache and drop the
    package's cached functions when it no longer matches."""
    import hashlib
    from pathlib import Path

    here = Path(__file__).resolve().parent
    deps = sorted(here.glob("*.py")) + [here.parent.parent / "rng.py", here.parent.parent / "nbutil.py"]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in deps if p.exists())).hexdigest()
    try:  # where numba keeps this package's cache (NUMBA_CACHE_DIR, __pycache__ or a user cache)
        from numba.core.caching import FunctionCache

        cache = Path(FunctionCache(_drop_stale_cache)._cache_path)
    except Exception:  # an internal API: fall back to numba's default place
        cache = here / "__pycache__"
    stamp = cache / "gin.deps.stamp"
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return
        cache.mkdir(parents=True, exist_ok=True)
        for f in cache.glob("*.nb[ci]"):
            f.unlink(missing_ok=True)
        stamp.write_text(digest)
    except OSError:  # a read-only cache: numba then compiles in memory
        pass


_drop_stale_cache()

from simcards.games.gin.melds import Arrangement, best_melds, min_deadwood  # noqa: E402, F401
