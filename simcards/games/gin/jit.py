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

import numpy as np
from numba import config, njit, types
from numba.core import cgutils
from numba.core.imputils import lower_getattr_generic
from numba.core.registry import CPUDispatcher
from numba.core.typing.templates import AttributeTemplate, infer_getattr
from numba.extending import intrinsic, models, register_model
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


def _or_python(py):
    """The intrinsic it decorates, or ``py`` (the same in plain Python) when NUMBA_DISABLE_JIT
    makes every jitted function plain Python (an intrinsic cannot be called from Python)."""
    return lambda intr: py if config.DISABLE_JIT else intr


@_or_python(lambda arr, start, n: arr[start:start + n])
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


@_or_python(lambda arr, start, n_rows, n_cols: arr[start:start + n_rows * n_cols].reshape((n_rows, n_cols)))
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


class ViewRecord(types.Type):
    """A record numba passes as a few values: its ``members`` (name, numba type) as they are, and
    its ``views`` (name, offset, shape) as arrays over one int64 memory ``w`` (a pointer), made
    where they are read (``h.st`` is ``w[offset:offset + n]``, unowned as ``rows``'s views). A
    function called with a namedtuple of two dozen arrays receives each array's seven fields, so
    every call site and every callee unpacks and packs ~180 values; this record is the pointer and
    the members. Built by ``view_record``."""

    def __init__(self, name: str, members: tuple, views: tuple):
        self.members = members
        self.views = views
        self.view_at = {v[0]: v for v in views}
        super().__init__(name=f"{name}({', '.join(n for n, _ in members)}; {', '.join(v[0] for v in views)})")

    @property
    def key(self):
        return self.name, self.members, self.views


@register_model(ViewRecord)
class _ViewRecordModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("w", types.CPointer(types.int64)), *fe_type.members])


def _view_type(shape: tuple) -> types.Array:
    return types.Array(types.int64, len(shape), "C")


@infer_getattr
class _ViewRecordAttributes(AttributeTemplate):
    key = ViewRecord

    def generic_resolve(self, typ, attr):
        if attr in typ.view_at:
            return _view_type(typ.view_at[attr][2])
        return dict(typ.members).get(attr)


@lower_getattr_generic(ViewRecord)
def _view_record_getattr(context, builder, typ, value, attr):
    record = cgutils.create_struct_proxy(typ)(context, builder, value=value)
    if attr not in typ.view_at:
        return getattr(record, attr)
    _, offset, shape = typ.view_at[attr]
    aty = _view_type(shape)
    out = context.make_array(aty)(context, builder)
    intp = context.get_value_type(types.intp)
    strides, step = [], 8
    for n in reversed(shape):
        strides.insert(0, step)
        step *= n
    populate_array(out, data=builder.gep(record.w, [intp(offset)]),
                   shape=cgutils.pack_array(builder, [intp(n) for n in shape]),
                   strides=cgutils.pack_array(builder, [intp(s) for s in strides]), itemsize=intp(8), meminfo=None)
    return out._getvalue()


def view_record(name: str, members: dict, views: dict):
    """``(record type, make)``: a ``ViewRecord`` of these members (name: numba type) and views
    (name: (offset, shape)), and ``make(w, members)``, an intrinsic that builds one over the
    C-contiguous int64 array ``w`` (which the caller keeps alive) and the tuple of the members'
    values."""
    rtype = ViewRecord(name, tuple(members.items()),
                       tuple((k, int(off), tuple(int(n) for n in shape)) for k, (off, shape) in views.items()))

    def make_py(w, values):
        record = pytypes.SimpleNamespace(**{m: v for (m, _), v in zip(rtype.members, values)})
        for view, offset, shape in rtype.views:
            size = int(np.prod(shape))
            setattr(record, view, w[offset:offset + size].reshape(shape))
        return record

    @_or_python(make_py)
    @intrinsic
    def make(typingctx, w, values):
        def codegen(context, builder, signature, llargs):
            record = cgutils.create_struct_proxy(rtype)(context, builder)
            record.w = context.make_array(signature.args[0])(context, builder, llargs[0]).data
            for k, (member, _) in enumerate(rtype.members):
                setattr(record, member, builder.extract_value(llargs[1], k))
            return record._getvalue()

        if tuple(values) != tuple(t for _, t in rtype.members):
            return None
        return rtype(w, values), codegen

    return rtype, make
