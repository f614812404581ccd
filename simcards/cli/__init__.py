"""The ``simcards`` command line: thin commands over the API (``app``: simulate, replay, variants,
strategies; ``study``: compare, tune, tournament, report; ``common``: what they share)."""

from simcards.cli.app import app, main

__all__ = ["app", "main"]
