"""The version of simcards, read once from the installed package metadata.

pyproject.toml is the one place it is declared. A module of its own (not ``simcards/__init__``) so
that the API, the CLI and the Dask backend can read it without importing the package back.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("simcards")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"
