"""The unit of work every backend runs: games ``first .. first+count-1`` of one configuration.

A :class:`Job` is built from a resolved run (``simcards.spec.RunSpec.job``). It is small and
picklable (the rules object, spec strings, the seed), so a Dask worker
on another machine rebuilds exactly the engine the client would use; game ``i`` depends only on
``(seed, i, rules, strategies)``, so a range gives the same rows wherever and however often it runs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba

from simcards.errors import SimcardsError


@dataclass(frozen=True)
class Job:
    game: str
    rules: Any  # the game's frozen rules dataclass
    players: int
    strategies: tuple  # spec strings (or Strategy objects, local backend only)
    seed: int
    detail: bool  # produce the per-unit table
    summary_only: bool  # return a partial aggregate instead of tables
    invalid_option: str = "error"  # a user policy's index out of range: stop, or play option 0 ("first")

    def engine_key(self) -> tuple:
        return (self.game, repr(self.rules), self.players, tuple(map(str, self.strategies)), self.invalid_option)


def portable_specs(game: str, specs) -> tuple[str, ...]:
    """Spec strings that a worker process (maybe on another machine sharing the paths) can parse:
    files become absolute paths; a policy registered in this process only cannot travel."""
    from simcards.strategy import Strategy

    out = []
    for s in specs:
        if isinstance(s, Strategy):
            if s.family.decide is not None:
                raise SimcardsError(f"strategy {s.family.name!r} was registered in this Python process; the dask "
                                    "backend can only send policies from a file: pass it as file.py:name")
            s = s.spec
        text = str(s).strip()
        if text.endswith(".toml"):
            text = str(Path(text).resolve())
        else:
            head, colon, rest = text.partition(":")
            if head.endswith(".py"):
                text = str(Path(head).resolve()) + colon + rest
        out.append(text)
    return tuple(out)


class _Engine:
    def __init__(self, job: Job, run, aggregator):
        self.run = run
        self.aggregator = aggregator


_ENGINES: dict[tuple, _Engine] = {}


def engine(job: Job) -> _Engine:
    """The compiled engine for this job's configuration, built once per process."""
    key = job.engine_key()
    eng = _ENGINES.get(key)
    if eng is None:
        from simcards.games import get_game
        from simcards.stats.aggregate import Aggregator
        from simcards.strategy import checked_elsewhere

        gdef = get_game(job.game)
        with checked_elsewhere():  # the client resolved these specs: checked and announced there
            strats = gdef.strategies(list(job.strategies), job.players)
        run = gdef.new_run(job.rules, job.players, strats)
        run.on_invalid = job.invalid_option
        eng = _ENGINES[key] = _Engine(job, run, Aggregator(gdef, job.players))
    return eng


def built(job: Job) -> _Engine | None:
    """The engine of this job's configuration if this process has built it already."""
    return _ENGINES.get(job.engine_key())


def _fault_hook(first: int) -> None:
    """Test hook for worker failures: ``SIMCARDS_FAULT_KILL=first:marker[:raise],...`` makes the
    process that picks up the range starting at ``first`` die (or raise an error with ``:raise``),
    once: the marker file records it."""
    spec = os.environ.get("SIMCARDS_FAULT_KILL")
    if not spec:
        return
    for item in spec.split(","):
        at, _, rest = item.partition(":")
        marker, _, mode = rest.partition(":")
        if int(at) == first and marker and not os.path.exists(marker):
            Path(marker).write_text(str(os.getpid()))
            if mode == "raise":
                raise RuntimeError(f"injected failure in games {first}..")
            os._exit(17)


def execute(job: Job, first: int, count: int, threads: int | None = None):
    """Run one range. Returns ``("summary", partial_json)`` or ``("tables", games_df, detail_df)``."""
    _fault_hook(first)
    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
    eng = engine(job)
    games, detail = eng.run.play(job.seed, first, count, job.detail and not job.summary_only)
    if job.summary_only:
        return ("summary", eng.aggregator.dump(eng.aggregator.partial(games)))
    return ("tables", games, detail)
