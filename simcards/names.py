"""One rule for the names a user types: games, variants, strategy families, presets, parameters and
rule options are found case-insensitively (``Yaniv``, ``--variant Nepali``, ``--strategy
Threshold:CALL=3``, ``--rule Call_Limit=7`` are the canonical lowercase names), and a name that is
not known is refused in one line with the nearest known one::

    unknown yaniv strategy 'threshhold'; did you mean 'threshold'? known: random, threshold, ...

Every lookup of such a name goes through :func:`resolve` (or :func:`find` and :func:`unknown`), so
the rule and the wording are the same everywhere.
"""

from __future__ import annotations

import difflib
from typing import Iterable

from simcards.errors import SimcardsError


def find(name: str, known: Iterable[str]) -> str | None:
    """The known name ``name`` spells: itself, else the one equal to it ignoring case (None when
    there is none, or when two known names differ only by case and neither is ``name``)."""
    names = list(known)
    if name in names:
        return name
    folded = [k for k in names if k.casefold() == name.strip().casefold()]
    return folded[0] if len(folded) == 1 else None


def nearest(name: str, known: Iterable[str]) -> str | None:
    """The known name closest to ``name`` (difflib's ratio, ignoring case), or None when none is
    close enough to be a likely typo."""
    names = list(known)
    by_fold = {k.casefold(): k for k in names}
    close = difflib.get_close_matches(name.strip().casefold(), list(by_fold), n=1, cutoff=0.6)
    return by_fold[close[0]] if close else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """What goes between an unknown name and the list of known ones: ``"; did you mean 'x'? "``
    for the nearest known name, else ``"; "``."""
    near = nearest(name, known)
    return f"; did you mean {near!r}? " if near else "; "


def unknown(what: str, name: str, known: Iterable[str], listed: str | None = None, tail: str = "") -> SimcardsError:
    """The one-line error for an unknown name: ``unknown WHAT 'name'; did you mean 'x'? known: ...``
    (``listed`` replaces the plain list of ``known`` after ``known: ``; ``tail`` follows it)."""
    names = list(known)
    shown = listed if listed is not None else (", ".join(names) or "none")
    return SimcardsError(f"unknown {what} {name!r}{did_you_mean(name, names)}known: {shown}{tail}")


def resolve(what: str, name: str, known: Iterable[str], listed: str | None = None, tail: str = "") -> str:
    """The canonical known name ``name`` spells (case-insensitively); else :func:`unknown`'s error."""
    names = list(known)
    found = find(name, names)
    if found is None:
        raise unknown(what, name, names, listed, tail)
    return found
