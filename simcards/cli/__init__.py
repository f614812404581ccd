"""The ``simcards`` command line: thin commands over the API (``app``: simulate, replay, variants,
strategies; ``study``: compare, tune, tournament, report; ``common``: what they share)."""

import os

# The command line has no use for a multi-threaded BLAS (no large matrix products; numba plays on its
# own threads), and OpenBLAS's thread pool, started when numpy loads, costs 0.1-0.2 CPU s of every
# command. A user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from simcards.cli.app import app, main  # noqa: E402

__all__ = ["app", "main"]
