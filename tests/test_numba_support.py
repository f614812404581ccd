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
    # simcards.nbutil: processes share one numba cache (the two test workers, Dask workers); a save
    # (read the index, add an entry, write index and data) holds a lock beside the index, so a
    # save cannot interleave with another process's (numba itself takes none: numba/numba#4807).
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


_SAVER = '''
import sys
import time
from pathlib import Path

import simcards.nbutil  # noqa: F401  (what a simcards process imports with any kernel)
from numba.core.caching import IndexDataCacheFile

cache_dir, me, other = sys.argv[1], sys.argv[2], sys.argv[3]
read_index = IndexDataCacheFile._load_index


def slow_read(self):  # widen the window between reading the index and writing it back
    index = read_index(self)
    time.sleep(0.5)
    return index


IndexDataCacheFile._load_index = slow_read
Path(cache_dir, "ready-" + me).touch()
while not Path(cache_dir, "ready-" + other).exists():  # start the saves together
    time.sleep(0.01)
IndexDataCacheFile(cache_dir, "kernel.hand_total-9.py311", "stamp").save(("sig", me), "code of " + me)
'''


def test_two_processes_saving_two_signatures_at_once_keep_each_its_own_code(tmp_path):
    """numba saves a signature by reading the function's index, taking the first free data file
    and writing both back. Two processes saving two signatures of one function at once (without
    a lock: both read an empty index, both take data file 1) left one signature mapped to the
    other's code: a CI run's Dask workers, which do not load tests/conftest.py, then played other
    Yaniv games than the client. Any process that imports simcards locks the cache files."""
    import subprocess
    import sys

    from numba.core.caching import IndexDataCacheFile

    (tmp_path / "saver.py").write_text(_SAVER)
    procs = [subprocess.Popen([sys.executable, str(tmp_path / "saver.py"), str(tmp_path), me, other],
                              env={"PYTHONPATH": str(ROOT), "PATH": ""}, stderr=subprocess.PIPE, text=True)
             for me, other in (("a", "b"), ("b", "a"))]
    for p in procs:
        assert p.wait(60) == 0, p.stderr.read()
    cache = IndexDataCacheFile(str(tmp_path), "kernel.hand_total-9.py311", "stamp")
    assert cache.load(("sig", "a")) == "code of a"
    assert cache.load(("sig", "b")) == "code of b"


_POLICY_MODULE = '''
from numba import njit


@njit(cache=True)
def policy(x):
    return x + 1


@njit(cache=True)
def other_policy(x):
    return x + 2


@njit(cache=True)
def middle(x, n):  # large enough that LLVM calls it instead of inlining it
    s = 0
    for i in range(n):
        s += policy(x + i) * (i % 7) - (s >> 3)
        if s > 1000000:
            s = s % 99991
    return s


@njit(cache=True)
def outer(x):
    return middle(x, 10) * 10 + middle(x + 3, 20) + middle(x * 2, 30)
'''

_STEP = '''
import json
import sys
sys.path.insert(0, sys.argv[2])
from simcards.nbutil import rebind
import polmod
out = []
for step in sys.argv[1]:
    if step == "b":
        out.append(int(polmod.outer(1)))
    else:
        out.append(int(rebind(vars(polmod), ("outer", "middle"), "k" * 20, policy=polmod.other_policy)["outer"](1)))
print(json.dumps(out))
'''


def test_a_rebuilt_kernel_and_the_built_in_one_cached_by_two_processes_keep_their_own_code(tmp_path):
    """numba issue #10486: a kernel rebuilt around another policy (``rebind``) has the built-in
    one's module and name; compiled in two processes with numba's per-process id counter, both got
    the same symbols, and a third process loading both from the cache ran the built-in body inside
    the rebuilt kernel (Gin ``mc`` stopped searching on a warm cache). ``nbutil`` gives every
    compiled function a random id."""
    import json
    import os
    import subprocess
    import sys

    from numba.core.bytecode import FunctionIdentity

    assert type(FunctionIdentity._unique_ids).__name__ == "RandomIds"
    (tmp_path / "polmod.py").write_text(_POLICY_MODULE)
    (tmp_path / "step.py").write_text(_STEP)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))

    def run(steps: str) -> list[int]:
        out = subprocess.run([sys.executable, str(tmp_path / "step.py"), steps, str(tmp_path)], env=env,
                             capture_output=True, text=True, check=True).stdout
        return json.loads(out)

    built_in, rebuilt = run("b")[0], run("k")[0]  # each compiled alone, by its own process
    assert built_in != rebuilt
    assert run("bk") == [built_in, rebuilt]  # both from the cache
    assert run("kb") == [rebuilt, built_in]


def test_the_blas_check_is_answered_without_scipy_linalg_and_blas_still_compiles():
    """nbutil answers numba's import-time BLAS check (scipy is a dependency) instead of letting it
    import scipy.linalg on every run; a kernel that calls BLAS still gets it when it compiles."""
    import subprocess
    import sys

    code = (
        "import sys, numpy as np, numba, simcards.nbutil, numba.np.arraymath as a\n"
        "assert a._HAVE_BLAS and 'scipy.linalg' not in sys.modules, 'the check imported scipy.linalg'\n"
        "f = numba.njit(lambda x: np.dot(x, x))\n"
        "assert f(np.arange(3.0)) == 5.0 and 'scipy.linalg' in sys.modules\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
