"""simcards: Monte Carlo strategy simulator for Yaniv, Gin Rummy and Two Hundred.

    simcards.simulate("yaniv", games=100_000, seed=1)          # tables and a summary
    simcards.compare("yaniv", ["israeli", "nepali"], games=2000)   # studies (simcards.studies)
    simcards.display_tables(result)                            # the tables the command prints
    t = simcards.start("gin", seed=3, against="informed")      # one game, a decision at a time
"""

import simcards.nbutil  # noqa: F401  (first: it sets how numba names what it compiles)
from simcards.api import simulate  # noqa: F401
from simcards.version import __version__  # noqa: F401  (declared once, in pyproject.toml)

_STUDIES = ("compare", "tune", "tournament", "equilibrium")
_REPORT = ("display_tables", "answer_lines")  # what the study commands print, from a result
_TABLE = ("start", "Table", "advise", "analyze")  # the step interface and the advice (simcards.table)


def __getattr__(name: str):
    """The study functions and the step interface load on first use (they pull in more of pandas
    and the plots, or the reference engines)."""
    if name in _STUDIES:
        from simcards import studies

        return getattr(studies, name)
    if name in _REPORT:
        from simcards.report import build

        return getattr(build, name)
    if name in _TABLE:
        from simcards import table

        return getattr(table, name)
    raise AttributeError(f"module 'simcards' has no attribute {name!r}")
