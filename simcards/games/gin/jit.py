"""How Gin's jitted helpers are compiled: without the entry points numba gives every function for
being called from Python (a CPython wrapper that unboxes each argument) and through a C pointer
(a cfunc wrapper). The kernel, the strategies and the search call these helpers from jitted code
only; generating and optimising the two wrappers was about a tenth of a cold kernel compile.

A helper that *is* called from Python (the reference engine, a test) gets, on that first call, a
copy compiled with the wrappers under a name of its own (``<name>_py``, cached on disk like the
rest), so it works from both sides: jitted code calls the lean function, Python the copy.
"""

from __future__ import annotations

import types as pytypes

from numba import njit
from numba.core.registry import CPUDispatcher

from simcards.nbutil import by_type


class Internal(CPUDispatcher):
    """A dispatcher compiled without Python or C entry points (calling it from Python as numba
    would crashes the process): a call from Python goes to a copy compiled with them."""

    def __call__(self, *args, **kws):
        py = self.__dict__.get("_simcards_py")
        if py is None:
            fn = self.py_func
            copy = pytypes.FunctionType(fn.__code__, fn.__globals__, fn.__name__ + "_py", fn.__defaults__)
            copy.__qualname__ = copy.__name__  # numba caches a function under its qualified name
            py = njit(cache=True)(copy)
            if getattr(self, "simcards_by_type", False):
                py = by_type(py)
            self.__dict__["_simcards_py"] = py
        return py(*args, **kws)


def internal(fn=None, **options):
    """``@internal`` or ``@internal(**njit options)``: ``njit(cache=True, **options)`` without the
    entry points (``Internal``)."""

    def wrap(f):
        d = njit(**{"cache": True, **options, "no_cpython_wrapper": True, "no_cfunc_wrapper": True})(f)
        if type(d) is CPUDispatcher:  # (NUMBA_DISABLE_JIT: the plain function)
            d.__class__ = Internal
        return d

    return wrap(fn) if fn is not None else wrap
