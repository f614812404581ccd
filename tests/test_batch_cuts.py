"""The ranges a batch is played in on threads (``games.batch.guided_cuts``): they cover the batch
once, in order, and shrink as it runs out, so the threads finish together; the calls stay few.
Each is a call of the compiled entry point (``entry_point``), with function arguments as
addresses (``address``): no typing at every call. That the games do not depend on the cuts is tested per game
(``test_same_results_any_threads_and_chunks``)."""

from __future__ import annotations

import numpy as np

from simcards.games.batch import RANGES, guided_cuts, own_lines


def test_cuts_cover_the_batch_once_and_shrink_to_a_small_last_range():
    for count in (1, 2, 3, 7, 64, 65, 200, 1000, 50_000, 123_457):
        for threads in (2, 3, 4, 8):
            cuts = guided_cuts(count, threads)
            sizes = [b - a for a, b in zip(cuts, cuts[1:])]
            assert cuts[0] == 0 and cuts[-1] == count and min(sizes) >= 1, (count, threads)
            assert sizes[:-1] == sorted(sizes[:-1], reverse=True), (count, threads)  # never growing
            smallest = -(-count // RANGES)
            assert sizes[-1] <= smallest and max(sizes) <= max(smallest, count // (2 * threads)), (count, threads)
            assert len(sizes) <= RANGES, (count, threads)  # few calls


def test_a_large_batch_starts_with_a_share_of_it_per_thread():
    cuts = guided_cuts(50_000, 2)
    assert cuts[1] == 12_500 and len(cuts) - 1 < 20


# --- the calls: each range through the compiled entry point, functions as addresses -----------------
def _fill(out, lo, hi, scale):
    for i in range(lo, hi):
        out[i] = scale * i
    return 0


def test_ranges_on_threads_call_the_compiled_entry_point_and_fill_every_row():
    import numba
    import numpy as np
    from numba import njit

    from simcards.games.batch import entry_point, play_ranges

    fill = njit(nogil=True)(_fill)
    out = np.zeros(1000, dtype=np.int64)
    call = entry_point(fill, (out, 0, 0, 3))
    assert call is not fill and call is fill.overloads[fill.signatures[0]].entry_point
    assert call(out, 0, 4, 3) == 0 and list(out[:5]) == [0, 3, 6, 9, 0]
    assert entry_point(_fill, (out, 0, 0, 3)) is _fill  # not a dispatcher: itself
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        out[:] = -1
        play_ranges(fill, 1000, (out,), (5,))
        assert (out == 5 * np.arange(1000)).all()
    finally:
        numba.set_num_threads(before)


def test_a_function_argument_goes_in_as_its_address_made_once():
    from numba import njit, types

    from simcards.games.batch import address

    sig = types.int64(types.int64)
    twice = njit(sig)(lambda x: 2 * x)
    ftype = types.FunctionType(sig)
    addr = address(twice, ftype)
    assert address(twice, ftype) is addr and addr.signature() == sig and addr.__wrapper_address__() != 0

    @njit
    def apply(f, x):
        return f(x)

    assert apply(addr, 21) == 42


def test_a_ranges_working_memory_keeps_its_cache_lines_to_itself():
    """``own_lines``: zeros, contiguous, with 128 bytes of its own buffer on each side, so no cache
    line (nor the pair the processor fetches) holds another range's memory."""
    for n, dtype in ((1, np.uint64), (5, np.uint64), (351, np.int64), (3, np.int32)):
        a = own_lines(n, dtype)
        assert a.shape == (n,) and a.dtype == dtype and a.flags.c_contiguous and not a.any()
        below = a.ctypes.data - a.base.ctypes.data
        above = a.base.ctypes.data + a.base.nbytes - (a.ctypes.data + a.nbytes)
        assert below >= 128 and above >= 128
