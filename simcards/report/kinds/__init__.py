"""The study kinds a report knows, each declared once in its own module (a :class:`StudyKind`:
the study, its spec keys, tables, answer, method and plots). A new kind is a module here with
its ``KIND``, listed in :data:`KINDS`."""

from __future__ import annotations

from simcards.report.kinds import compare, equilibrium, tournament, tune
from simcards.report.kinds.base import TEXT_KEYS, StudyKind
from simcards.studies.common import StudyResult

KINDS: dict[str, StudyKind] = {k.name: k for k in (compare.KIND, tune.KIND, tournament.KIND, equilibrium.KIND)}


def kind_of(result: StudyResult) -> StudyKind:
    """The declaration of a study result's kind."""
    return KINDS[result.kind]


def study_file(filename: str) -> bool:
    """Is this a table or figure file some study kind writes (``NN-kind-...``)?"""
    return any(k.wrote(filename) for k in KINDS.values())


__all__ = ["KINDS", "TEXT_KEYS", "StudyKind", "kind_of", "study_file"]
