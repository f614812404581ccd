"""simcards: Monte Carlo strategy simulator for Yaniv, Gin Rummy and Two Hundred.

    simcards.simulate("yaniv", games=100_000, seed=1)          # tables and a summary
    simcards.compare("yaniv", ["israeli", "nepali"], games=2000)   # studies (simcards.studies)
    simcards.display_tables(result)                            # the tables the command prints
    t = simcards.start("gin", seed=3, against="informed")      # one game, a decision at a time
"""

import importlib.util
import sys


class _NumbaFirst:
    """``simcards.nbutil`` sets how numba names what it compiles, and must do so before numba
    compiles or loads anything in this process. Importing numba costs a third of a second that
    ``simcards --help`` or ``simcards variants`` do not need: rather than import it here, this
    finder (on ``sys.meta_path`` until numba is imported) imports ``nbutil`` as soon as numba's
    own package has loaded, whoever imports numba first."""

    def find_spec(self, name, path=None, target=None):
        if name != "numba":
            return None
        sys.meta_path[:] = [f for f in sys.meta_path if f is not self]
        spec = importlib.util.find_spec("numba")
        if spec is None or spec.loader is None:
            return spec
        load = spec.loader.exec_module

        def exec_module(module):
            load(module)
            import simcards.nbutil  # noqa: F401

        spec.loader.exec_module = exec_module  # this spec's own loader (a new one per find_spec)
        return spec


if "numba" in sys.modules:
    import simcards.nbutil  # noqa: F401
else:
    sys.meta_path.insert(0, _NumbaFirst())

_STUDIES = ("compare", "tune", "tournament", "equilibrium")
_REPORT = ("display_tables", "answer_lines")  # what the study commands print, from a result
_TABLE = ("start", "Table", "advise", "analyze")  # the step interface and the advice (simcards.table)


def __getattr__(name: str):
    """``simulate``, the study functions and the step interface load on first use (they pull in
    numba and pandas, the plots, or the reference engines)."""
    if name == "simulate":
        from simcards.api import simulate

        return simulate
    if name == "__version__":  # declared once, in pyproject.toml (read from the package's metadata)
        from simcards.version import __version__

        return __version__
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
