"""What a study kind is, declared once (as a game is by its ``GameDef``): the study that runs it, the
spec keys it takes, the tables it writes, the tables a reader sees, its part of the report's answer,
its method and its plots. ``simcards.report.kinds.KINDS`` lists them; the report, the plots and the
study commands ask the kind of a result (``kind_of``) and never switch on its name."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from simcards.errors import SimcardsError
from simcards.report.text import Table, plain, rules_line
from simcards.studies.common import StudyResult

TEXT_KEYS = frozenset({"kind", "title", "text"})  # a spec's study keys that only add words to the report

Display = Callable[[StudyResult], list[tuple[str, pd.DataFrame]]]
Figures = Callable[[StudyResult], list[tuple[str, Any, str]]]


@dataclass(frozen=True)
class StudyKind:
    """One kind of study. ``answer(result, results)`` is its part of the answer the report opens
    with (None: said with another result of the report, as all sweeps are in one table);
    ``method(result)`` the method items between the study line and the games played, and a table
    of rules when there is one."""

    name: str  # ``kind = "..."`` in a spec, ``StudyResult.kind``, and the NN-NAME- of its files
    run: Callable[..., StudyResult]  # the study in simcards.studies, called with the spec's keys
    keys: frozenset[str]  # the spec keys it takes (besides kind, title and text)
    needs: dict[str, tuple[str, ...]]  # what a spec must give: words for the message → any one of these keys
    tables: tuple[str, ...]  # the tables it may write, each as tables/NN-NAME-GAME-TABLE.csv and .parquet
    display: Display  # the tables a reader sees, as text cells (terminal, --out, the report's details)
    answer: Callable[[StudyResult, list[StudyResult]], dict | None]
    method: Callable[[StudyResult], tuple[list[str], Table | None]]
    figures: Figures  # (name, axes, caption) of its plots
    strategies: tuple[str, ...] = ()  # the spec keys that name strategies (files beside the spec)
    aliases: dict[str, str] = field(default_factory=dict)  # spec key → the study's argument
    words: Callable[[StudyResult], list[str]] | None = None  # the answer in sentences (default: the answer's lead)
    details: Callable[[StudyResult], list[Table]] | None = None  # the report's tables (default: display's)
    overview: Callable[[StudyResult], list[dict]] | None = None  # its rows of the overview across studies

    def spec_keys(self) -> set[str]:
        """Every key a spec's study of this kind may hold."""
        return set(self.keys) | set(self.aliases) | TEXT_KEYS

    def play(self, st: dict, threads: int | None, progress: bool) -> StudyResult:
        """Run the study a spec's ``[[study]]`` table declares."""
        args = {self.aliases.get(k, k): v for k, v in st.items() if k not in TEXT_KEYS}
        game = args.pop("game")
        for words, keys in self.needs.items():
            if not any(k in args for k in keys):
                raise SimcardsError(f"study {self.name} of {game} needs {words}")
        return self.run(game, threads=threads, progress=progress, **args)

    def answer_words(self, result: StudyResult) -> list[str]:
        """The answer in plain sentences (the report's words, without Markdown marks)."""
        if self.words is not None:
            return [plain(x) for x in self.words(result)]
        answer = self.answer(result, [result])
        return [plain(x) for x in answer["lead"]] if answer else []

    def detail_tables(self, result: StudyResult) -> list[Table]:
        if self.details is not None:
            return self.details(result)
        return [Table.of(caption, df) for caption, df in self.display(result)]

    def overview_rows(self, result: StudyResult) -> list[dict]:
        return self.overview(result) if self.overview is not None else []

    def file_prefix(self, index: int, game: str) -> str:
        """What the names of the ``index``-th study's tables and figures start with."""
        return f"{index:02d}-{self.name}-{slug(game)}"

    def wrote(self, filename: str) -> bool:
        """Is this a table or figure file a study of this kind wrote (in any report)?"""
        return re.match(rf"\d{{2}}-{re.escape(self.name)}-", filename) is not None


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "study"


def variant_rules(m: dict) -> str:
    """The method item of a study on one variant: its name and its rules."""
    return f"variant {m['variant']}; rules: {rules_line(m['rules'])}"
