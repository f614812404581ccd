"""simcards relies on a few numba internals (``simcards.nbutil``: the on-disk cache keyed by user
policies, the cache locator); pyproject.toml pins numba to the versions where they exist. This test
fails loudly when the installed numba is outside that pin or lacks one of those internals, instead
of letting a kernel fail later with an obscure error."""

import tomllib
from pathlib import Path

import numba
from numba import njit

ROOT = Path(__file__).resolve().parents[1]


def _numba_pin() -> tuple[tuple[int, ...], tuple[int, ...]]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    spec = next(d for d in deps if d.startswith("numba"))
    low = spec.split(">=")[1].split(",")[0]
    high = spec.split("<")[1].split(",")[0].strip()
    return tuple(map(int, low.split("."))), tuple(map(int, high.split(".")))


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("+")[0].split(".")[:2])


def test_numba_is_pinned_with_an_upper_bound_and_the_installed_one_is_inside():
    low, high = _numba_pin()
    installed = _version(numba.__version__)
    assert low <= installed < high, (
        f"numba {numba.__version__} is outside the supported range >={low}, <{high} (pyproject.toml): "
        "simcards.nbutil relies on numba internals; test this version and move the pin")


def test_the_numba_internals_nbutil_relies_on_exist(tmp_path):
    from numba.core.caching import FunctionCache, IndexDataCacheFile  # noqa: F401

    from simcards import nbutil

    @njit(cache=False)
    def f(x):
        return x + 1

    cache = FunctionCache(f.py_func)
    assert isinstance(cache._cache_path, str)
    assert cache._impl.filename_base and callable(cache._impl.locator.get_source_stamp)
    assert callable(cache._index_key)
    keyed = nbutil.keyed_cache(njit(cache=True)(f.py_func), "k" * 20)
    assert keyed(1) == 2


def test_numba_cache_saves_wait_for_the_other_workers_lock(tmp_path):
    # tests/conftest.py: the two test workers share one numba cache; a save (read the index, add
    # an entry, write index and data) holds a lock beside the index, so a save cannot interleave
    # with the other worker's (numba itself takes none: numba/numba#4807).
    import fcntl
    import threading

    from numba.core.caching import IndexDataCacheFile

    cache = IndexDataCacheFile(str(tmp_path), "kernel.play-1.py311", "stamp")
    with open(cache._index_path + ".lock", "a") as other:
        fcntl.flock(other, fcntl.LOCK_EX)  # the other worker is saving
        saver = threading.Thread(target=cache.save, args=(("sig",), ["compiled"]))
        saver.start()
        saver.join(0.5)
        assert saver.is_alive()  # waits for it
    saver.join(10)
    assert not saver.is_alive()
    assert cache.load(("sig",)) == ["compiled"]
