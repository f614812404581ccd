"""``simcards advise``: the value of every legal option of one decision — the generic part.

For the deciding seat's view only (no hidden card is read: the other hands and the stock are
sampled consistently with what the seat has seen, by the search player's sampler), every legal
option is played on to the end of the hand in ``samples`` determinized deals, all options in the
same deals (common random numbers). Each option gets

* ``points``: the expected result of the hand for the deciding side in the game's own measure
  (Gin: the hand's points; Yaniv: the gain on the opponents this round; Two Hundred: the deal
  margin), and
* ``win``: the chance of winning the game, the mean over the deals of the game-win value table
  (``simcards.table.value``) read at the scores the hand ends with (more than two sides: the
  share of games played on from them by the score-process Monte Carlo, ``WinProcess``),

each with a 95% interval: the normal (Wald) interval of a mean, ``mean ± 1.96 · sd / sqrt(samples)``,
over the sampled deals. Differences between two options (what a choice cost) are paired over the
same deals, so their interval is narrower than the two values' intervals suggest.

This module names no game. Each game that has advice has a module ``simcards.games.<g>.advice``
with ``ADVICE``, an object of the small interface ``GameAdvice`` below: the options' values in
sampled deals (``values``), the scores from a view (``scores``), the per-deal chance of winning
the game (``wins``), the rules it refuses (``check_rules``) and a position given by hand
(``position``: the game's keys, parsed by ``simcards.games.<g>.position``). Here: the intervals,
the ranking, the costs, the text and the JSON.

The position comes from a step-interface table (``simcards.start``), or is given by hand: a
compact text form (``simcards.table.position``) or a JSON object with the same keys. Reproducible:
the same position, ``samples`` and ``seed`` give the same numbers. Which games and presets are
evaluated: docs/advice.md.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from simcards.errors import SimcardsError
from simcards.games import GAMES

Z95 = 1.959963984540054


def _advice_module(game: str) -> str:
    return GAMES[game].rsplit(".", 1)[0] + ".advice"


# The games with advice: those whose package has an ``advice`` module (found, not imported).
EVALUATED = tuple(g for g in GAMES if importlib.util.find_spec(_advice_module(g)) is not None)


@dataclass(frozen=True)
class OptionValue:
    """One option's values: means and 95% (Wald) intervals over ``samples`` deals."""

    index: int
    label: str
    points: float
    points_ci: tuple[float, float]
    win: float | None
    win_ci: tuple[float, float] | None
    asaf: float | None = None  # the chance of the game's event (``Advice.event``: Yaniv's Asaf when calling)
    asaf_ci: tuple[float, float] | None = None

    def as_dict(self) -> dict:
        out = {"index": self.index, "label": self.label, "points": self.points, "points_ci": list(self.points_ci),
               "win": self.win, "win_ci": None if self.win_ci is None else list(self.win_ci)}
        if self.asaf is not None and self.asaf_ci is not None:
            out.update(asaf=self.asaf, asaf_ci=list(self.asaf_ci))
        return out


@dataclass
class Advice:
    """Every option of one decision with its values; ``ranked()`` best first (by the chance of
    winning the game, then the points)."""

    game: str
    rules: str
    seat: int
    kind: str
    scores: tuple[int, ...]  # the deciding side's, then the others'
    options: list[OptionValue]
    samples: int
    seed: int
    points: np.ndarray = field(repr=False)  # (samples, options): each deal's points
    wins: np.ndarray | None = field(repr=False)  # (samples, options): each deal's game-win value
    measure: str = "points this hand"  # what ``points`` counts (Yaniv: the gain on the opponents this round)
    event: str = ""  # what ``OptionValue.asaf`` is the chance of (Yaniv: "Asaf (Y-SC-2)")

    def ranked(self) -> list[OptionValue]:
        return sorted(self.options, key=lambda o: (-(o.win if o.win is not None else 0.0), -o.points, o.index))

    @property
    def best(self) -> OptionValue:
        return self.ranked()[0]

    def cost(self, index: int) -> tuple[float, tuple[float, float], float, tuple[float, float]]:
        """What choosing option ``index`` costs against the best: (win chance lost, its paired
        95% interval, points lost, its interval). 0 for the best itself."""
        best = self.best.index
        dp = self.points[:, best] - self.points[:, index]
        pl, pci = _mean_ci(dp)
        if self.wins is None:
            return 0.0, (0.0, 0.0), pl, pci
        dw = self.wins[:, best] - self.wins[:, index]
        wl, wci = _mean_ci(dw)
        return wl, wci, pl, pci

    def as_dict(self) -> dict:
        return {"game": self.game, "rules": self.rules, "seat": self.seat, "decision": self.kind,
                "scores": list(self.scores), "measure": self.measure, "samples": self.samples, "seed": self.seed,
                "interval": "95% normal (Wald) interval of the mean over the sampled deals",
                "best": self.best.index,
                "options": [{**o.as_dict(), "cost": dict(zip(("win_lost", "win_lost_ci", "points_lost", "points_lost_ci"),
                                                             self.cost(o.index)))} for o in self.ranked()]}

    def text(self) -> str:
        """The ranked options as ``simcards advise`` prints them."""
        lines = [f"{self.kind} decision of seat {self.seat}; score {'-'.join(map(str, self.scores))}; "
                 f"{self.samples} sampled deals, seed {self.seed} (95% intervals; costs paired over the same deals)"]
        width = max(len(o.label) for o in self.options)
        has_win = self.wins is not None
        head = f"   {'option'.ljust(width)}  " + ("win game              " if has_win else "") + \
            f"{self.measure:<24}" + ("cost: win chance lost" if has_win else "cost: points lost")
        lines.append(head)
        best = self.best.index
        for rank, o in enumerate(self.ranked(), 1):
            win = f"{100 * o.win:5.1f}% [{100 * o.win_ci[0]:5.1f}, {100 * o.win_ci[1]:5.1f}]  " \
                if o.win is not None and o.win_ci is not None else ""
            wl, wci, pl, pci = self.cost(o.index)
            lost, ci = (100 * wl, (100 * wci[0], 100 * wci[1])) if has_win else (pl, pci)
            cost = "best" if o.index == best else f"{lost:4.1f} [{ci[0]:4.1f}, {ci[1]:4.1f}]"
            lines.append(f"{rank:>2} {o.label.ljust(width)}  {win}"
                         f"{o.points:+6.1f} [{o.points_ci[0]:+6.1f}, {o.points_ci[1]:+6.1f}]  {cost}")
        for o in self.options:
            if o.asaf is not None and o.asaf_ci is not None:
                lines.append(f"{o.label}: {self.event} in {100 * o.asaf:.1f}% "
                             f"[{100 * o.asaf_ci[0]:.1f}, {100 * o.asaf_ci[1]:.1f}] of the deals")
        return "\n".join(lines)


def _mean_ci(x: np.ndarray) -> tuple[float, tuple[float, float]]:
    n = len(x)
    m = float(x.mean())
    if n < 2:
        return m, (m, m)
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n)
    return m, (m - half, m + half)


# ----- what a game's advice module provides ----------------------------------------------------------
@dataclass
class Values:
    """A game's evaluation of one decision, per sampled deal ``s`` and option ``a``."""

    points: np.ndarray  # (samples, options): the game's measure (``GameAdvice.measure``)
    deal: np.ndarray | None = None  # (samples, options, ...): what the game's ``wins`` reads (the hand's scores)
    event: np.ndarray | None = None  # (samples,) 0/1: the game's event in each deal (``GameAdvice.event``)
    event_options: tuple[int, ...] = ()  # the options the event's chance is shown for


class GameAdvice(Protocol):
    """One game's side of the advice (``simcards.games.<g>.advice.ADVICE``)."""

    measure: str  # what ``Values.points`` counts, as the table heads it ("points this hand", ...)
    sampler: str  # the search preset whose sampler and rollout settings the evaluator uses
    default_samples: int  # sampled deals per decision by default
    event: str  # what ``Values.event`` marks ("" if nothing)
    keys: tuple[str, ...]  # a position's keys (the text form and the JSON file)
    example: str  # a position in the text form
    word: str  # the measure in one word, as an annotated option shows it ("points", "gain", ...)
    point_marks: tuple  # analyze's marks by the measure lost where no value table applies: (limit, sign, verdict)

    def check_rules(self, rules) -> None:
        """Refuse, in one line (``SimcardsError``), rules the evaluator cannot play."""

    def values(self, args: tuple, params: np.ndarray, samples: int, rng: np.ndarray) -> Values | None:
        """The options' values in ``samples`` sampled deals drawn from ``rng``, for the decision the
        engine hands a strategy as ``args``; ``params``: the search preset's parameter row. ``None``:
        a decision the evaluator does not play."""

    def scores(self, args: tuple, rules) -> tuple[int, tuple[int, ...]]:
        """The deciding seat, and the scores before this hand: its side's first, then the others'."""

    def wins(self, table: Any, args: tuple, scores: tuple[int, ...], values: Values) -> np.ndarray:
        """(samples, options): each deal's chance of winning the game for the deciding side, the
        value table ``table`` (two sides) read at the scores the hand ends with, or (a
        ``simcards.table.value.WinProcess``: more than two sides) the game played on from them."""

    def position(self, position: dict, rules, players: int) -> tuple[tuple, list[str]]:
        """A position given by hand (a dict of ``keys``) as the arguments the engine hands a
        strategy, and the options' labels; refuses an impossible position in one line."""

    def replay_line(self, events: list[str], hand: int, turn: int, kind: str) -> int | None:
        """The line of the replay ``events`` a decision (of hand/deal ``hand``, ``turn``, ``kind``)
        belongs after, for a replay not written one line per engine event; else ``None``."""


_ADVICE: dict[str, GameAdvice] = {}


def game_advice(game: str) -> GameAdvice:
    """The game's ``ADVICE`` (refused in one line for a game without advice)."""
    if game not in EVALUATED:
        raise SimcardsError(f"{game}: advice is not available yet (games with advice: {', '.join(EVALUATED)})")
    if game not in _ADVICE:
        _ADVICE[game] = importlib.import_module(_advice_module(game)).ADVICE
    return _ADVICE[game]


def default_samples(game: str) -> int:
    return game_advice(game).default_samples


def per_deal(deal: np.ndarray, value) -> np.ndarray:
    """``value(mine, theirs)`` of each sampled deal and option's two scores ``deal[s, a, :2]``, each
    distinct pair computed once (a deal's scores repeat: few distinct pairs, many deals)."""
    cache: dict[tuple[int, int], float] = {}
    wins = np.empty(deal.shape[:2])
    for s in range(deal.shape[0]):
        for a in range(deal.shape[1]):
            g = (int(deal[s, a, 0]), int(deal[s, a, 1]))
            if g not in cache:
                cache[g] = value(*g)
            wins[s, a] = cache[g]
    return wins


# ----- the evaluation of one decision ------------------------------------------------------------------
def evaluate(game: str, rules, args: tuple, labels: list[str], *, samples: int | None = None, seed: int = 0,
             index: int = 0, win_table: Any = "auto") -> Advice:
    """Evaluate the decision the engine hands a strategy as ``args`` (the step interface's
    ``Decision.args``) under ``rules`` (the rules object). ``labels``: the options' labels.
    ``index`` picks the random stream (``simcards.rng.new_state(seed, index)``). ``win_table``: a
    ``WinTable``, a ``WinProcess`` (more than two sides: seeded here from ``seed`` and ``index``),
    ``None`` (points only) or ``"auto"`` (the rules' table or process, computed once and cached)."""
    adv = game_advice(game)
    samples = adv.default_samples if samples is None else samples
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 2:
        raise SimcardsError(f"samples={samples!r}: give a whole number from 2")
    from simcards.rng import new_state

    kind = int(args[0])
    adv.check_rules(rules)
    names = _kind_names(game)
    rng = new_state(int(seed) ^ 0xAD71CE, int(index))
    vals = adv.values(args, mc_params(game, rules), int(samples), rng)
    if vals is None:
        raise SimcardsError(f"{game} {rules.name}: no advice on a {names.get(kind, kind)} decision (docs/advice.md)")
    seat, scores = adv.scores(args, rules)
    if isinstance(win_table, str) and win_table == "auto":
        win_table = table_for(game, rules, len(scores))
    if hasattr(win_table, "seeded"):  # more than two sides: the Monte Carlo's stream for this decision
        win_table = win_table.seeded(int(seed), int(index))
    wins = adv.wins(win_table, args, scores, vals) if win_table is not None else None
    pts = vals.points
    options = []
    for a in range(pts.shape[1]):
        pm, pci = _mean_ci(pts[:, a])
        wm, wci = _mean_ci(wins[:, a]) if wins is not None else (None, None)
        shown = vals.event is not None and a in vals.event_options
        am, aci = _mean_ci(vals.event.astype(float)) if shown and vals.event is not None else (None, None)
        options.append(OptionValue(a, labels[a], pm, pci, wm, wci, am, aci))
    return Advice(game, rules.name, seat, names.get(kind, str(kind)), scores, options, int(samples), int(seed), pts,
                  wins, adv.measure, adv.event)


def check_rules(game: str, rules) -> None:
    """Refuse, in one line, rules the game's evaluator cannot play (docs/advice.md)."""
    game_advice(game).check_rules(rules)


def _kind_names(game: str) -> dict[int, str]:
    from simcards.table.games import adapter

    return dict(adapter(game)(None, 2).kinds)


_PARAMS: dict[str, np.ndarray] = {}
_TABLES: dict[str, Any] = {}


def mc_params(game: str, rules) -> np.ndarray:
    """The search player's parameter row (its sampler's and rollouts' settings: the game's
    ``GameAdvice.sampler`` preset)."""
    if game not in _PARAMS:
        from simcards.spec import RunSpec
        from simcards.table.games import adapter

        spec = RunSpec.resolve(game)
        strat = spec.gdef.strategies([game_advice(game).sampler], 1)[0]
        _, params = adapter(game)(spec.rules, spec.players).strategy_row(strat)
        _PARAMS[game] = np.ascontiguousarray(params, dtype=np.float64)
    return _PARAMS[game]


def table_for(game: str, rules, players: int = 2):
    """The rules' game-win value table: the two-side table (``WinTable``) where it fits, else the
    score-process Monte Carlo (``WinProcess``: Yaniv with more than two players, Two Hundred's
    cutthroat and six-3x2), else ``None`` (Gin's Hollywood and matches)."""
    from simcards.table.value import win_table

    key = json.dumps([game, players, rules.as_dict()], sort_keys=True, default=str)
    if key not in _TABLES:
        from simcards.table.value import covers, process_covers, win_process

        if covers(game, rules, players):
            _TABLES[key] = win_table(game, rules)
        elif process_covers(game, rules, players):
            _TABLES[key] = win_process(game, rules, players)
        else:
            _TABLES[key] = None
    return _TABLES[key]


# ----- a position given by hand ------------------------------------------------------------------------
def load_position(game: str, text: str | None = None, json_file: str | Path | None = None) -> dict:
    """A position of ``game`` from the compact text or a JSON file (an object with the same keys;
    card lists as strings or lists)."""
    from simcards.table import position

    adv = game_advice(game)
    return position.load_position(text, json_file, adv.keys, adv.example)


def advise(game: str, position: Any = None, *, variant: str | None = None, players: int | None = None,
           rules: dict[str, Any] | None = None,
           samples: int | None = None, seed: int = 0, json_file: str | Path | None = None) -> Advice:
    """The values of every option of one decision. ``position``: a step-interface ``Table`` with a
    decision pending (its deciding seat's view), a position in the compact text form or a dict of
    its keys (the game's: docs/advice.md); or ``json_file``. ``variant``/``rules``/``players``: the
    table of a position given by hand (a ``Table`` brings its own). See the module doc."""
    from simcards.games import canonical
    from simcards.spec import RunSpec
    from simcards.table.step import Table

    if isinstance(position, Table):
        t = position
        if t.decision is None:
            raise SimcardsError("the game is over: no decision to advise on")
        labels = [o.label for o in t.options]
        return evaluate(t.game, t.spec.rules, t.decision.args, labels, samples=samples, seed=seed,
                        index=len(t.actions))
    game = canonical(game)
    adv = game_advice(game)
    spec = RunSpec.resolve(game, variant=variant, players=players, rules=rules)
    pos = position if isinstance(position, dict) else load_position(game, position, json_file)
    args, labels = adv.position(pos, spec.rules, spec.players)
    return evaluate(game, spec.rules, args, labels, samples=samples, seed=seed)
