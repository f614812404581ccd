"""Gin Rummy: rules, engines and strategies (rules: docs/rules/gin-rummy.md).

``min_deadwood(cards)`` and ``best_melds(cards)`` answer single-hand questions exactly."""


from pathlib import Path

from simcards.nbutil import drop_stale_cache

_HERE = Path(__file__).resolve().parent


def _anchor():
    """Only here to locate this package's numba cache."""


# numba invalidates a cached function only when its own file changes; the Gin kernel inlines the
# meld solver and the policies: drop every cached Gin function when any file it is built from changes.
_SOURCES = sorted(_HERE.glob("*.py")) + [_HERE.parent.parent / m
                                         for m in ("rng.py", "nbutil.py", "games/transcript.py")]
drop_stale_cache(_anchor, _SOURCES, tuple(p.stem for p in _SOURCES if p.parent == _HERE), "gin")

from simcards.games.gin.melds import Arrangement, best_melds, min_deadwood  # noqa: E402, F401
