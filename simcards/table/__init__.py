"""At the table: play a game one decision at a time (``start``, :class:`Table`), from your own
code or in the terminal (``simcards play GAME``); the value of every option of a decision
(``advise``) and a game's decisions annotated (``analyze``)."""

from simcards.table.advise import advise
from simcards.table.analyze import analyze
from simcards.table.step import Decision, Move, Option, Table, start

__all__ = ["Decision", "Move", "Option", "Table", "advise", "analyze", "start"]
