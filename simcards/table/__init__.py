"""At the table: play a game one decision at a time (``start``, :class:`Table`), from your own
code or in the terminal (``simcards play GAME``)."""

from simcards.table.step import Decision, Move, Option, Table, start

__all__ = ["Decision", "Move", "Option", "Table", "start"]
