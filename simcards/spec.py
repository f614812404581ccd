"""One resolve step: what a run plays (game, rules, players, strategies, seed, ...), built and
validated once by :meth:`RunSpec.resolve`, then handed to the play loop (``simcards.play``).

The API (``simulate``), the CLI (``simulate``, ``replay``), the studies (``Table``) and the backends
(a :class:`~simcards.backends.job.Job` is built from a spec) all start here, so a bad game, variant,
rule, player count, strategy, seed or mode is refused in one place, with one line.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from simcards.backends.job import Job, portable_specs
from simcards.errors import SimcardsError
from simcards.games import canonical, get_game
from simcards.games.base import GameDef
from simcards.names import resolve
from simcards.policy import check_mode
from simcards.rng import MAX_SEED
from simcards.strategy import Strategy


def check_seed(seed: Any, label: str | None = None) -> int:
    """A seed: a whole number 0 .. 2**63-1 (``label`` names it in the error, e.g. ``--seed 5``)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise SimcardsError(f"{label or f'seed={seed!r}'}: give a whole number from 0 to 2**63-1")
    return int(seed)


def _whole_players(players: Any) -> int:
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise SimcardsError(f"players={players!r}: give a whole number")
    return int(players)


@dataclass(frozen=True)
class RunSpec:
    """A resolved, valid run configuration. Build it with :meth:`resolve`; change the seats, seed
    or detail of a valid spec with :meth:`with_seats` / :meth:`replace` (checked again)."""

    game: str  # canonical name
    variant: str  # the preset named (the game's default when none was)
    rules: Any  # the game's frozen rules object, validated
    players: int
    strategies: tuple[Strategy, ...]  # one per seat
    seed: int = 0
    detail: bool = False  # produce the per-unit table (rounds / hands / deals)
    summary_only: bool = False  # each range comes back as partial sums, never as tables
    invalid_option: str = "error"  # a user policy's option out of range: stop ("error") or play 0 ("first")
    given: tuple[Any, ...] | None = None  # the specs as given, one per seat: files travel to workers by path

    @classmethod
    def resolve(cls, game: str, *, variant: str | None = None, players: int | None = None,
                strategies: Sequence[str | Strategy] | str | None = None, rules: dict[str, Any] | None = None,
                seed: int = 0, detail: bool = False, summary_only: bool = False,
                invalid_option: str = "error") -> RunSpec:
        """The one place a run's inputs are checked and turned into objects (the sequence
        game → rules → players → strategies); every error is one :class:`SimcardsError` line."""
        gdef = get_game(game)
        seed = check_seed(seed)
        if players is not None:
            players = _whole_players(players)
        check_mode(invalid_option)
        if variant is not None:  # the preset's own name (names ignore case: Nepali is nepali)
            variant = resolve(f"{gdef.title} variant", variant, gdef.presets())
        rules_obj = gdef.build_rules(variant, rules)
        n = gdef.players_for(rules_obj) if players is None else players
        gdef.check_players(rules_obj, n)
        given = [strategies] if isinstance(strategies, (str, Strategy)) else list(strategies or [])
        strats = tuple(gdef.strategies(given or None, n))
        seats = tuple(given * n if len(given) == 1 else given) if given else None
        return cls(canonical(game), variant or gdef.default_variant, rules_obj, n, strats, seed, bool(detail),
                   bool(summary_only), invalid_option, seats)

    @property
    def gdef(self) -> GameDef:
        return get_game(self.game)

    def with_seats(self, strategies: Sequence[str | Strategy]) -> RunSpec:
        """The same table with other strategies (one for all seats, or one per seat)."""
        strats = tuple(self.gdef.strategies(list(strategies), self.players))
        return dataclasses.replace(self, strategies=strats, given=None)

    def replace(self, *, seed: int | None = None, detail: bool | None = None) -> RunSpec:
        return dataclasses.replace(self, seed=self.seed if seed is None else check_seed(seed),
                                   detail=self.detail if detail is None else bool(detail))

    @property
    def specs(self) -> list[str]:
        """The seats' strategies as canonical spec strings (what the metadata records)."""
        return [s.spec for s in self.strategies]

    def job(self, remote: bool = False) -> Job:
        """The backends' unit of work. ``remote``: spec strings a worker process can parse (files by
        absolute path; a policy registered in this process only is refused in one line)."""
        specs = portable_specs(self.game, self.given or self.strategies) if remote else self.strategies
        return Job(self.game, self.rules, self.players, tuple(specs), self.seed, self.detail, self.summary_only,
                   self.invalid_option)
