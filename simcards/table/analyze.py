"""``simcards analyze``: a game's replay with every decision of one seat annotated.

The game is game ``game_index`` of ``seed`` with ``strategies`` (the deal and the play ``simcards
replay`` shows). It is played again through the step interface: at each decision of the analysed
seat, every legal option is evaluated (``simcards.table.advise.evaluate``: the seat's view only,
``samples`` determinized deals played to the end of the hand, expected points and the chance of
winning the game with 95% intervals), then the seat's own strategy plays its choice from the
seat's own random stream, so the game is the replay's game move for move (or, with ``plays``, the
option given for that decision: a game the user changed).

What a choice cost: the best option's value minus the played option's, paired over the same
sampled deals (a 95% Wald interval of the mean difference). Marks, by the chance of winning the
game lost, when the interval is clear of zero (the cost is not sampling noise):

* ``?!`` inaccuracy: 2 to 4 percentage points,
* ``?`` mistake: 4 to 8,
* ``??`` blunder: 8 or more.

Where no game-win value table applies (Gin's Hollywood and matches: the same marks by expected
points lost, 3, 6 and 12 points; Yaniv with more than two players and Two Hundred's cutthroat and
six-3x2: by their own measures, ``YANIV_MARKS`` and ``TWO_HUNDRED_MARKS``). Decisions the evaluator does not play (Gin's wall last chance and the
choice of an arrangement) are shown unannotated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from simcards.errors import SimcardsError
from simcards.table.advise import Advice, default_samples, evaluate

WIN_MARKS = ((0.08, "??", "blunder"), (0.04, "?", "mistake"), (0.02, "?!", "inaccuracy"))
POINT_MARKS = ((12.0, "??", "blunder"), (6.0, "?", "mistake"), (3.0, "?!", "inaccuracy"))
# Yaniv without a value table (more than two players): the gain on the opponents lost, in points
# summed over the opponents
YANIV_MARKS = ((20.0, "??", "blunder"), (10.0, "?", "mistake"), (5.0, "?!", "inaccuracy"))
# Two Hundred without a value table (cutthroat, six-3x2): the deal margin lost (the side's deal score
# minus the others' mean)
TWO_HUNDRED_MARKS = ((40.0, "??", "blunder"), (20.0, "?", "mistake"), (10.0, "?!", "inaccuracy"))


@dataclass
class Annotated:
    """One decision of the analysed seat: its number among the seat's decisions, where in the game
    (``hand``, ``turn``), the option played and what it cost against the best (win chance and
    points, with paired 95% intervals), and the mark (``""`` when none)."""

    number: int
    hand: int
    turn: int
    kind: str
    played: int
    played_label: str
    advice: Advice | None
    win_lost: float = 0.0
    win_lost_ci: tuple[float, float] = (0.0, 0.0)
    points_lost: float = 0.0
    points_lost_ci: tuple[float, float] = (0.0, 0.0)
    mark: str = ""
    verdict: str = ""
    clock: int = 0

    def as_dict(self) -> dict:
        return {"number": self.number, "hand": self.hand, "turn": self.turn, "decision": self.kind,
                "played": self.played, "played_label": self.played_label,
                "best": None if self.advice is None else self.advice.best.index,
                "win_lost": self.win_lost, "win_lost_ci": list(self.win_lost_ci), "points_lost": self.points_lost,
                "points_lost_ci": list(self.points_lost_ci), "mark": self.mark, "verdict": self.verdict,
                "options": None if self.advice is None else [o.as_dict() for o in self.advice.options]}


@dataclass
class Analysis:
    """The annotated game: ``decisions`` of ``seat`` in order, the replay's lines and where each
    decision sits in them; ``text()`` as ``simcards analyze`` prints it."""

    game: str
    rules: str
    seed: int
    game_index: int
    seat: int
    samples: int
    decisions: list[Annotated]
    head: list[str]
    events: list[str]
    result: dict

    @property
    def unit(self) -> str:
        return {"yaniv": "round", "two-hundred": "deal"}.get(self.game, "hand")

    def costliest(self, n: int = 5) -> list[Annotated]:
        ranked = [d for d in self.decisions if d.advice is not None]
        ranked.sort(key=lambda d: (-d.win_lost, -d.points_lost, d.number))
        return [d for d in ranked[:n] if d.win_lost > 0 or d.points_lost > 0]

    def counts(self) -> dict[str, int]:
        out = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        for d in self.decisions:
            if d.verdict:
                out[d.verdict] += 1
        return out

    def as_dict(self) -> dict:
        return {"game": self.game, "rules": self.rules, "seed": self.seed, "game_index": self.game_index,
                "seat": self.seat, "samples": self.samples, "result": self.result, "counts": self.counts(),
                "decisions": [d.as_dict() for d in self.decisions]}

    def text(self) -> str:
        lines = list(self.head)
        by_clock: dict[int, list[Annotated]] = {}
        for d in self.decisions:
            by_clock.setdefault(min(d.clock, len(self.events) - 1), []).append(d)
        for i, ev in enumerate(self.events):
            lines.append(ev)
            for d in by_clock.get(i, []):
                lines += _block(d)
        lines.append("")
        lines += self.summary()
        return "\n".join(lines)

    def summary(self) -> list[str]:
        c = self.counts()
        evaluated = sum(1 for d in self.decisions if d.advice is not None)
        has_win = any(d.advice is not None and d.advice.wins is not None for d in self.decisions)
        total = sum(d.win_lost if has_win else d.points_lost for d in self.decisions)
        given = f"win chance given away in all: {100 * total:.1f} points" if has_win else \
            f"points given away in all: {total:.1f}"
        lines = [f"Seat {self.seat}: {len(self.decisions)} decisions, {evaluated} evaluated with {self.samples} "
                 f"sampled deals each; {c['inaccuracy']} inaccuracies (?!), {c['mistake']} mistakes (?), "
                 f"{c['blunder']} blunders (??); {given} (the sum of the decisions' costs)."]
        worst = self.costliest()
        if worst:
            lines.append("Costliest decisions:")
            for d in worst:
                assert d.advice is not None
                lines.append(f"  #{d.number} {self.unit} {d.hand}, turn {d.turn}, {d.kind}: played {d.played_label}; "
                             f"best {d.advice.best.label}; cost {_cost(d, False)} {d.mark}".rstrip())
        return lines


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _block(d: Annotated) -> list[str]:
    """One decision's annotation: the verdict line, then every option's values."""
    if d.advice is None:
        return [f"    #{d.number} {d.kind}: played {d.played_label} (not evaluated)"]
    a = d.advice
    best = a.best
    if best.index == d.played:
        head = f"    #{d.number} {d.kind}: played {d.played_label} — the best option"
    else:
        head = f"    #{d.number} {d.kind}: played {d.played_label}; best {best.label}; cost {_cost(d, True)}"
        if d.mark:
            head += f"  {d.mark} {d.verdict}"
    out = [head]
    for o in a.ranked():
        star = "*" if o.index == d.played else " "
        win = f"win {_pct(o.win)} [{_pct(o.win_ci[0])}, {_pct(o.win_ci[1])}]  " \
            if o.win is not None and o.win_ci is not None else ""
        word = {"yaniv": "gain", "two-hundred": "margin"}.get(a.game, "points")
        asaf = f"  Asaf {_pct(o.asaf)}" if o.asaf is not None else ""
        out.append(f"      {star} {o.label:<34} {win}{word} {o.points:+.1f} [{o.points_ci[0]:+.1f}, "
                   f"{o.points_ci[1]:+.1f}]{asaf}")
    return out


def _cost(d: Annotated, interval: bool) -> str:
    """What a choice cost: the win chance lost and the points (with a value table), else the points."""
    pts = f"{d.points_lost:.1f}" + (f" [{d.points_lost_ci[0]:.1f}, {d.points_lost_ci[1]:.1f}]" if interval else "")
    if d.advice is None or d.advice.wins is None:
        return pts + " points" + ("" if interval else "")
    return (f"{_pct(d.win_lost)} [{_pct(d.win_lost_ci[0])}, {_pct(d.win_lost_ci[1])}] win chance, "
            + pts + " points")


def mark(win_lost: float, win_ci: tuple[float, float], points_lost: float, points_ci: tuple[float, float],
         has_win: bool, marks=POINT_MARKS) -> tuple[str, str]:
    """The mark and verdict of a cost (module doc): ("??", "blunder"), ..., or ("", "")."""
    lost, low, thresholds = (win_lost, win_ci[0], WIN_MARKS) if has_win else (points_lost, points_ci[0], marks)
    if low <= 0:  # the paired interval is not clear of zero: no mark
        return "", ""
    for limit, sign, word in thresholds:
        if lost >= limit:
            return sign, word
    return "", ""


def analyze(game: str, *, seed: int = 0, game_index: int = 0, seat: int = 0, samples: int | None = None,
            variant: str | None = None, rules: dict[str, Any] | None = None,
            strategies: str | Sequence[str] | None = None, players: int | None = None,
            plays: dict[int, int | str] | None = None) -> Analysis:
    """Annotate every decision of ``seat`` in game ``game_index`` of ``seed`` (see the module
    doc). ``strategies``: one spec for every seat or one per seat (default: the game's default);
    ``plays``: {decision number (from 1): option index or label} to play instead of the strategy's
    choice (a planted move). Reproducible for a seed."""
    from simcards.games import canonical
    from simcards.rng import seat_states
    from simcards.table.advise import EVALUATED, check_rules, table_for
    from simcards.table.step import start

    if canonical(game) not in EVALUATED:
        raise SimcardsError(f"{game}: analysis is not available yet (games with advice: {', '.join(EVALUATED)})")
    t = start(game, variant=variant, seed=seed, game_index=game_index, against=strategies, seats=[seat],
              players=players, rules=rules)
    try:
        check_rules(t.game, t.spec.rules)
        samples = default_samples(t.game) if samples is None else samples
        own = t.strategies[seat].spec
        stream = seat_states(seed, game_index, t.spec.players)[seat]
        table = table_for(t.game, t.spec.rules, t.spec.players)
        plays = dict(plays or {})
        planted = bool(plays)
        decisions: list[Annotated] = []
        while not t.done:
            number = len(decisions) + 1
            view = t.view
            clock = t.adapter.clock(t._game)
            labels = [o.label for o in t.options]
            assert t.decision is not None
            try:
                adv: Advice | None = evaluate(t.game, t.spec.rules, t.decision.args, labels, samples=samples,
                                              seed=seed, index=game_index * 100_003 + number, win_table=table)
            except SimcardsError:
                adv = None
            choice = t.choose(own, stream)  # the strategy's own choice, from its own stream (kept in step)
            if number in plays:
                choice = t.option(plays.pop(number)).index
            d = Annotated(number, int(view.get("hand_no", view.get("round", view.get("deal", 0)))), int(view.get("turn", view.get("trick_no", -1) + 1)), t.kind or "", choice,
                          t.options[choice].label, adv, clock=clock)
            if adv is not None:
                wl, wci, pl, pci = adv.cost(choice)
                d.win_lost, d.win_lost_ci, d.points_lost, d.points_lost_ci = wl, wci, pl, pci
                d.mark, d.verdict = mark(wl, wci, pl, pci, adv.wins is not None,
                                         {"yaniv": YANIV_MARKS, "two-hundred": TWO_HUNDRED_MARKS}.get(t.game, POINT_MARKS))
            decisions.append(d)
            t.apply(choice)
        if plays:
            raise SimcardsError(f"decision {min(plays)}: the seat made only {len(decisions)} decisions")
        title, *rest = t.replay().splitlines()
        players_line = rest[0].replace(f"seat {seat}: you", f"seat {seat}: {own}" + (" (with planted moves)" if planted else ""))
        head, events = [title, players_line], rest[1:]
        if t.game == "two-hundred":  # its replay is written per deal and trick, not per event
            for d in decisions:
                d.clock = _deal_line(events, d)
        else:
            offset = len(events) - len(t.record.events)  # lines before the first event (who deals first)
            for d in decisions:
                d.clock += offset
        return Analysis(t.game, t.spec.rules.name, seed, game_index, seat, samples, decisions, head, events,
                        t.result or {})
    finally:
        t.close()


def _deal_line(events: list[str], d: Annotated) -> int:
    """Two Hundred: the replay line a decision belongs after — its trick's line for a card, the
    auction's for a bid, the contract's for the trump, the bury or a call."""
    start = next((i for i, e in enumerate(events) if e.startswith(f"— deal {d.hand}:")), 0)
    want = {"play": f"  trick {d.turn}:", "bid": "  auction:"}.get(d.kind)
    for j in range(start + 1, len(events)):
        e = events[j]
        if e.startswith("— deal"):
            break
        if (want is not None and e.startswith(want)) or (want is None and "contracts for" in e):
            return j
    return start
