"""Writing a game's transcript from a kernel, the same way in every game.

A kernel that plays one game for ``simcards replay`` and the engine-agreement tests logs every
event as a row of an int64 array ``log``: ``[event, unit, seat, a, b]`` (``unit``: the round,
hand or deal), with a sixth number ``c`` where a game needs it, and cards after them. A batch
passes an empty log: every call then only counts. Each kernel binds these with its own jit
options: Gin and Two Hundred inline them (``log_event``...), Yaniv calls them, compiled once per
argument types (``called_*``: its cold compile is kept short that way). Each game's package lists
this file among the sources that invalidate its numba cache (the helpers are compiled into it).
"""

from __future__ import annotations

from numba import njit

from simcards.nbutil import compiled_as, njit_by_type


def _event(log, n_log, event, unit, seat, a, b):
    """Log ``[event, unit, seat, a, b]``; returns the new log length (counted past the end)."""
    if n_log < log.shape[0]:
        log[n_log, 0] = event
        log[n_log, 1] = unit
        log[n_log, 2] = seat
        log[n_log, 3] = a
        log[n_log, 4] = b
    return n_log + 1


def event_c(log, n_log, event, unit, seat, a, b, c):
    """Log ``[event, unit, seat, a, b, c]``."""
    if n_log < log.shape[0]:
        log[n_log, 5] = c
    return log_event(log, n_log, event, unit, seat, a, b)


def _cards(log, n_log, cards, n, col):
    """Attach ``cards[:n]`` to the event just logged, from column ``col`` (as many as fit)."""
    row = n_log - 1
    if row < log.shape[0]:
        for j in range(min(n, log.shape[1] - col)):
            log[row, col + j] = cards[j]
    return n_log


log_event = njit(cache=True, inline="always")(_event)
log_event_c = njit(cache=True, inline="always")(event_c)
log_cards = njit(cache=True, inline="always")(_cards)
called_event = compiled_as(_event, "called_event", njit_by_type(cache=True, _nrt=False))
called_cards = compiled_as(_cards, "called_cards", njit_by_type(cache=True, _nrt=False))
