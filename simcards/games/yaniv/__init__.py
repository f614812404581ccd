"""Yaniv: rules, engines and strategies (rules: docs/rules/yaniv.md)."""

from pathlib import Path

from simcards.nbutil import drop_stale_cache

_HERE = Path(__file__).resolve().parent
# The jitted Yaniv modules (cached by numba) and everything their code inlines from elsewhere.
_CACHED = ("kernel", "fast", "policies", "groups", "search", "core")


def _anchor():
    """Only here to locate this package's numba cache."""


drop_stale_cache(
    _anchor,
    [_HERE / f"{m}.py" for m in (*_CACHED, "layout", "rules", "params")] + [_HERE.parent.parent / m for m in ("rng.py", "nbutil.py", "games/transcript.py")],
    _CACHED,
    "yaniv",
)
