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

from numba import njit, types
from numba.core import cgutils
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

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


@intrinsic
def rows(typingctx, arr, start, n):
    """``arr[start:start + n]`` (``arr`` a C-contiguous array, the rows along its first axis) as an
    unowned view (no reference counting, as ``nbutil.borrow``'s: the caller keeps the owner alive)
    and without the bounds arithmetic of a slice: the caller's offsets lie inside ``arr``. (A slice
    is a few hundred instructions to compile; this is a dozen.)"""
    if not (isinstance(arr, types.Array) and arr.layout == "C"):
        return None
    sig = arr.copy(readonly=False)(arr, start, n)

    def codegen(context, builder, signature, args):
        src = context.make_array(signature.args[0])(context, builder, args[0])
        out = context.make_array(signature.return_type)(context, builder)
        first = context.cast(builder, args[1], signature.args[1], types.intp)
        count = context.cast(builder, args[2], signature.args[2], types.intp)
        strides = cgutils.unpack_tuple(builder, src.strides)
        shape = [count, *cgutils.unpack_tuple(builder, src.shape)[1:]]
        data = builder.bitcast(builder.gep(builder.bitcast(src.data, cgutils.voidptr_t), [builder.mul(first, strides[0])]),
                               src.data.type)
        populate_array(out, data=data, shape=cgutils.pack_array(builder, shape), strides=src.strides,
                       itemsize=src.itemsize, meminfo=None)
        return out._getvalue()

    return sig, codegen


@intrinsic
def grid(typingctx, arr, start, n_rows, n_cols):
    """``arr[start:start + n_rows * n_cols].reshape((n_rows, n_cols))`` of the 1-d C-contiguous
    ``arr``, unowned and unchecked as ``rows``'s."""
    if not (isinstance(arr, types.Array) and arr.layout == "C" and arr.ndim == 1):
        return None
    sig = types.Array(arr.dtype, 2, "C")(arr, start, n_rows, n_cols)

    def codegen(context, builder, signature, args):
        src = context.make_array(signature.args[0])(context, builder, args[0])
        out = context.make_array(signature.return_type)(context, builder)
        first, r, c = (context.cast(builder, v, t, types.intp) for v, t in zip(args[1:], signature.args[1:]))
        itemsize = src.itemsize
        populate_array(out, data=builder.gep(src.data, [first]), shape=cgutils.pack_array(builder, [r, c]),
                       strides=cgutils.pack_array(builder, [builder.mul(c, itemsize), itemsize]), itemsize=itemsize,
                       meminfo=None)
        return out._getvalue()

    return sig, codegen
