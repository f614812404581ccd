"""simcards: Monte Carlo strategy simulator for Yaniv, Gin Rummy and Two Hundred.

    simcards.simulate("yaniv", games=100_000, seed=1)          # tables and a summary
    simcards.compare("yaniv", ["israeli", "nepali"], games=2000)   # studies (simcards.studies)
"""

import simcards.nbutil  # noqa: F401  (first: it sets how numba names what it compiles)
from simcards.api import simulate  # noqa: F401
from simcards.version import __version__  # noqa: F401  (declared once, in pyproject.toml)

_STUDIES = ("compare", "tune", "tournament")


def __getattr__(name: str):
    """The study functions load on first use (they pull in more of pandas and the plots)."""
    if name in _STUDIES:
        from simcards import studies

        return getattr(studies, name)
    raise AttributeError(f"module 'simcards' has no attribute {name!r}")
