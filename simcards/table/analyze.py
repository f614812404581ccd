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

Where no chance of winning the game is computed (Gin's Hollywood and matches: the same marks by
expected points lost, 3, 6 and 12 points; elsewhere by the game's own measure, each game's
``ADVICE.point_marks``). Yaniv with more than two players and Two Hundred's cutthroat and six-3x2
have it from the score-process Monte Carlo (``simcards.table.value.WinProcess``). Decisions the evaluator does not play (Gin's wall last chance and the
choice of an arrangement) are shown unannotated.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from simcards.errors import SimcardsError
from simcards.table.advise import Advice, default_samples, evaluate, game_advice

WIN_MARKS = ((0.08, "??", "blunder"), (0.04, "?", "mistake"), (0.02, "?!", "inaccuracy"))
POINT_MARKS = ((12.0, "??", "blunder"), (6.0, "?", "mistake"), (3.0, "?!", "inaccuracy"))

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
    source: dict | None = None  # a saved game ({"file": ...}) or typed positions ({"positions": ...})
    typed: bool = False  # the decisions of a typed game (one position a line)

    @property
    def unit(self) -> str:
        from simcards.games import get_game

        return get_game(self.game).unit

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
        out = {"game": self.game, "rules": self.rules, "seed": self.seed, "game_index": self.game_index,
               "seat": self.seat, "samples": self.samples, "result": self.result, "counts": self.counts(),
               "decisions": [d.as_dict() for d in self.decisions]}
        if self.source is not None:
            out["source"] = self.source
        return out

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
        who = "Your typed game" if self.typed else f"Seat {self.seat}"
        lines = [f"{who}: {len(self.decisions)} decisions, {evaluated} evaluated with {self.samples} "
                 f"sampled deals each; {c['inaccuracy']} inaccuracies (?!), {c['mistake']} mistakes (?), "
                 f"{c['blunder']} blunders (??); {given} (the sum of the decisions' costs)."]
        worst = self.costliest()
        if worst:
            lines.append("Costliest decisions:")
            for d in worst:
                assert d.advice is not None
                where = f"line {d.hand}" if self.typed else f"{self.unit} {d.hand}, turn {d.turn}"
                lines.append(f"  #{d.number} {where}, {d.kind}: played {d.played_label}; "
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
        word = game_advice(a.game).word
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


def _costed(d: Annotated, game: str) -> Annotated:
    """``d`` with its cost against the best option and its mark (when it was evaluated)."""
    adv = d.advice
    if adv is not None:
        wl, wci, pl, pci = adv.cost(d.played)
        d.win_lost, d.win_lost_ci, d.points_lost, d.points_lost_ci = wl, wci, pl, pci
        d.mark, d.verdict = mark(wl, wci, pl, pci, adv.wins is not None, game_advice(game).point_marks)
    return d


def analyze(game: str, *, seed: int = 0, game_index: int = 0, seat: int | None = None, samples: int | None = None,
            variant: str | None = None, rules: dict[str, Any] | None = None,
            strategies: str | Sequence[str] | None = None, players: int | None = None,
            plays: dict[int, int | str] | None = None, file: str | Path | dict | None = None,
            positions: str | Path | Sequence[str] | None = None) -> Analysis:
    """Annotate every decision of ``seat`` (default 0) in game ``game_index`` of ``seed`` (see the
    module doc). ``strategies``: one spec for every seat or one per seat (default: the game's
    default); ``plays``: {decision number (from 1): option index or label} to play instead of the
    strategy's choice (a planted move). Reproducible for a seed.

    ``file``: a saved game instead (``simcards play`` writes one, ``Table.save``): played again
    move for move (its own rules, seed, strategies) and ``seat`` annotated (default: the seat the
    person played); see :func:`analyze_saved`. ``positions``: a typed game, see
    :func:`analyze_positions`."""
    if positions is not None:
        if file is not None or plays:
            raise SimcardsError("positions: give the typed decisions alone (no saved game, no planted moves)")
        return analyze_positions(game, positions, variant=variant, players=players, rules=rules, samples=samples,
                                 seed=seed)
    if file is not None:
        if plays:
            raise SimcardsError("a saved game is analysed as it was played: no planted moves (--play)")
        return analyze_saved(file, seat=seat, samples=samples, game=game)
    from simcards.games import canonical
    from simcards.rng import seat_states
    from simcards.table.advise import EVALUATED
    from simcards.table.step import start

    seat = 0 if seat is None else seat
    if canonical(game) not in EVALUATED:
        raise SimcardsError(f"{game}: analysis is not available yet (games with advice: {', '.join(EVALUATED)})")
    t = start(game, variant=variant, seed=seed, game_index=game_index, against=strategies, seats=[seat],
              players=players, rules=rules)
    try:
        own = t.strategies[seat].spec
        stream = seat_states(seed, game_index, t.spec.players)[seat]
        plays = dict(plays or {})
        planted = bool(plays)

        def pick(number: int) -> int:
            choice = t.choose(own, stream)  # the strategy's own choice, from its own stream (kept in step)
            if number in plays:
                choice = t.option(plays.pop(number)).index
            return choice

        samples, decisions, _ = _drive(t, seat, samples, pick, None)
        if plays:
            raise SimcardsError(f"decision {min(plays)}: the seat made only {len(decisions)} decisions")
        title, *rest = t.replay().splitlines()
        players_line = rest[0].replace(f"seat {seat}: you", f"seat {seat}: {own}" + (" (with planted moves)" if planted else ""))
        return _finished(t, seat, samples, decisions, [title, players_line], rest[1:])
    finally:
        t.close()


def _drive(t, seat: int, samples: int | None, pick, saved) -> tuple[int, list[Annotated], list[str]]:
    """Play table ``t`` to its end (or, for a saved game left unfinished, to its last saved move),
    evaluating every decision of ``seat`` (and of a seat it plays for, T-V-2P) before ``pick``
    chooses it. ``saved`` (a ``SavedGame``, or ``None``): the other decisions the table leaves to
    the caller are its moves. Returns the samples, the annotated decisions and, per decision of
    the seat, what the other players saw of its move (to check a saved game's replay)."""
    from simcards.table.advise import check_rules, table_for

    check_rules(t.game, t.spec.rules)
    samples = default_samples(t.game) if samples is None else samples
    table = table_for(t.game, t.spec.rules, t.spec.players)
    mine = t.adapter.owners({seat})
    decisions: list[Annotated] = []
    public: list[str] = []
    given = 0  # the saved game's moves taken so far
    while not t.done:
        assert t.decision is not None
        if t.player not in mine:
            if saved is None or given >= len(saved.mine):
                break  # (a saved game left unfinished: its moves end here)
            t.apply(saved.option(t, given))
            given += 1
            continue
        if saved is not None and saved.seats and seat in saved.seats and given >= len(saved.mine):
            break
        number = len(decisions) + 1
        view = t.view
        clock = t.adapter.clock(t._game)
        labels = [o.label for o in t.options]
        try:
            adv: Advice | None = evaluate(t.game, t.spec.rules, t.decision.args, labels, samples=samples,
                                          seed=t.seed, index=t.game_index * 100_003 + number, win_table=table)
        except SimcardsError:
            adv = None
        if saved is not None and seat in saved.seats:
            choice = saved.option(t, given)
            given += 1
        else:
            choice = pick(number)
        row = t.options[choice].row
        public.append(t.adapter.public(int(t.decision.args[0]), row, t.decision.args))
        d = Annotated(number, int(view.get("hand_no", view.get("round", view.get("deal", 0)))),
                      int(view.get("turn", view.get("trick_no", -1) + 1)), t.kind or "", choice,
                      t.options[choice].label, adv, clock=clock)
        decisions.append(_costed(d, t.game))
        t.apply(choice)
    return samples, decisions, public


def _finished(t, seat: int, samples: int, decisions: list[Annotated], head: list[str], events: list[str],
              source: dict | None = None) -> Analysis:
    """The analysis of a finished game: each decision placed after its line of the replay."""
    place = game_advice(t.game).replay_line
    for d in decisions:
        line = place(events, d.hand, d.turn, d.kind)  # a replay written per deal and trick, not per event
        if line is None:  # one line per event, after the lines before the first (who deals first)
            line = d.clock + len(events) - len(t.record.events)
        d.clock = line
    return Analysis(t.game, t.spec.rules.name, t.seed, t.game_index, seat, samples, decisions, head, events,
                    t.result or {}, source=source)


def analyze_saved(file: str | Path | dict, *, seat: int | None = None, samples: int | None = None,
                  game: str | None = None) -> Analysis:
    """Annotate a saved game (``simcards play`` writes one; ``Table.save``): it is played again from
    its rules, seed, game index and strategies, the person's moves from the file, the bots'
    from their own streams, and every move checked against the saved ones — the bots' included: a
    file that does not fit (edited, another game, an option that is not legal) is refused in
    one line. ``seat``: the seat annotated (default: the seat the person played; a bot's seat
    is annotated the same, its moves its strategy's). A game left unfinished is annotated up to
    where it was left, over what the table saw of it."""
    from simcards.rng import seat_states
    from simcards.table.advise import EVALUATED
    from simcards.table.step import SavedGame

    saved = SavedGame.read(file, game)
    if saved.game not in EVALUATED:
        raise SimcardsError(f"{saved.game}: analysis is not available yet (games with advice: {', '.join(EVALUATED)})")
    seat = saved.seats[0] if seat is None else seat
    t = saved.start([seat])
    try:
        if not 0 <= seat < t.spec.players:
            raise SimcardsError(f"seat {seat}: the table has seats 0..{t.spec.players - 1}")
        own = t.strategies[seat].spec
        stream = seat_states(t.seed, t.game_index, t.spec.players)[seat]
        samples, decisions, public = _drive(t, seat, samples, lambda number: t.choose(own, stream), saved)
        # the moves as the table saw them: the annotated bot's own in public form
        mine, bot = t.adapter.owners({seat}), seat not in saved.seats
        told = iter(public)
        seen = [(m.seat, next(told) if bot and m.seat in mine else m.label) for m in t.history]
        saved.check(seen, t.done)
        who = {p: "you" for p in saved.seats}
        players = "players: " + ", ".join(f"seat {p}: {who.get(p, s.spec)}" for p, s in enumerate(t.strategies))
        title = f"{t.adapter.title} ({t.spec.rules.name}), seed {t.seed}, game {t.game_index}"
        head = [title + f"; saved game {saved.name}", players]
        source = {"file": saved.name, "seats": saved.seats, "finished": t.done}
        if t.done:
            return _finished(t, seat, samples, decisions, head, t.replay().splitlines()[2:], source)
        events: list[str] = []
        k = 0
        for move, text in t.log():  # unfinished: what the table saw, each decision after its move
            events.append("  " + text)
            if move is not None and move.seat in mine and k < len(decisions):
                decisions[k].clock = len(events) - 1
                k += 1
        events.append(f"(the game was left here, at seat {t.player}'s {t.kind} decision)")
        return Analysis(t.game, t.spec.rules.name, t.seed, t.game_index, seat, samples, decisions, head, events,
                        {}, source=source)
    finally:
        t.close()


# ----- a typed game: the decisions of a real game, one position a line -----------------------------------
def _token(word: str) -> str:
    """A word of an option, a card in the replay's notation (``10d`` is ``Td``)."""
    from simcards.cards import card_code, parse_cards

    try:
        return card_code(int(parse_cards([word])[0])).lower()
    except Exception:
        return word.lower()


def match_option(text: str, labels: Sequence[str]) -> int:
    """The option ``text`` names among ``labels``: the label itself, its start, or (any order, any
    card notation) some of the words before its parenthesis (``discard 7d``, ``7d``, ``take
    3h``, ``stock``, ``knock``) when only one option has them all. One line when none or several
    do."""
    want = " ".join(text.lower().split())
    if not want:
        raise SimcardsError("played: give the option you chose (e.g. played discard 7d)")
    for rule in (lambda lab: lab.lower() == want, lambda lab: lab.lower().startswith(want)):
        found = [i for i, lab in enumerate(labels) if rule(lab)]
        if len(found) == 1:
            return found[0]
    words = [_token(w) for w in want.split()]
    found = []
    for i, lab in enumerate(labels):
        have = [_token(w) for w in lab.split(" (")[0].split()]
        if all(have.count(w) >= words.count(w) for w in set(words)):
            found.append(i)
    if len(found) == 1:
        return found[0]
    shown = "; ".join(labels[i] for i in (found or range(len(labels)))[:6])
    if found:
        raise SimcardsError(f"played {text!r} names {len(found)} options ({shown}): give more of it")
    raise SimcardsError(f"played {text!r} is not an option of this decision (options: {shown}"
                        + ("; ..." if len(labels) > 6 else "") + ")")


def typed_lines(source: str | Path | Sequence[str]) -> tuple[str, list[tuple[int, str]]]:
    """A typed game's name and its positions: (line number, text), blank lines and ``#``
    comments left out. ``source``: a file (``-``: standard input), or the lines themselves."""
    import sys

    if not isinstance(source, (str, Path)):
        name, lines = "positions", [str(x) for x in source]
    elif str(source) == "-":
        name, lines = "standard input", sys.stdin.read().splitlines()
    else:
        name = str(source)
        try:
            lines = Path(source).expanduser().read_text().splitlines()
        except OSError as exc:
            raise SimcardsError(f"{name}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise SimcardsError(f"{name}: not a text file of positions") from None
    out = [(n, line.strip()) for n, line in enumerate(lines, 1) if line.strip() and not line.strip().startswith("#")]
    if not out:
        raise SimcardsError(f"{name}: no positions (one a line, as simcards advise reads them, with "
                            "'; played OPTION')")
    return name, out


def analyze_positions(game: str, source: str | Path | Sequence[str], *, variant: str | None = None,
                      players: int | None = None, rules: dict[str, Any] | None = None, samples: int | None = None,
                      seed: int = 0) -> Analysis:
    """A game played at a real table, typed: one decision a line, the position in ``simcards
    advise``'s compact text form plus the option chosen (``...; played discard 7d``). Each line
    is valued exactly as ``simcards advise GAME "LINE" --seed SEED`` values its position (the
    same numbers), and annotated as :func:`analyze` annotates a decision: the cost of the option
    played against the best, the mark, and the costliest decisions in the summary. A line that
    is not a position, or whose option is not one of its options, is refused in one line
    naming the line."""
    from simcards.games import canonical, get_game
    from simcards.table.advise import advise

    game = canonical(game)
    name, lines = typed_lines(source)
    decisions: list[Annotated] = []
    events: list[str] = []
    rules_name = ""
    for n, line in lines:
        parts = [p.strip() for p in line.split(";")]
        played = [p for p in parts if p.split(None, 1)[0].lower().rstrip(":") == "played"] if parts else []
        where = f"{name}, line {n}"
        if len(played) != 1:
            raise SimcardsError(f"{where}: " + ("give the option you chose once" if played else
                                "give the option you chose: '...; played OPTION' (e.g. played discard 7d)"))
        chosen = played[0].split(None, 1)[1].lstrip(":").strip() if " " in played[0] else ""
        position = "; ".join(p for p in parts if p and p is not played[0])
        try:
            adv = advise(game, position, variant=variant, players=players, rules=rules,
                         samples=samples, seed=seed)
            choice = match_option(chosen, [o.label for o in adv.options])
        except SimcardsError as exc:
            raise SimcardsError(f"{where}: {exc}") from None
        rules_name = adv.rules
        events.append(f"line {n}: {line}")
        d = Annotated(len(decisions) + 1, n, -1, adv.kind, choice, adv.options[choice].label, adv,
                      clock=len(events) - 1)
        decisions.append(_costed(d, game))
    head = [f"{get_game(game).title} ({rules_name}): {len(decisions)} typed decision{'s' if len(decisions) != 1 else ''} from {name}, each valued as "
            f"simcards advise values its position (seed {seed})"]
    return Analysis(game, rules_name, seed, -1, 0, decisions[0].advice.samples if decisions[0].advice else 0,
                    decisions, head, events, {}, source={"positions": name}, typed=True)
