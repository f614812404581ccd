"""``simcards play GAME``: one game against strategies in the terminal, over the step interface.

The board is drawn in text (at most 80 columns), the legal moves are numbered; a number (or a
move's label) plays it, ``h`` asks the hint strategy what it would play, ``u`` takes back your
last move (and the bots' moves after it), ``q`` leaves. At the end: the result and the replay of
the whole game (``simcards replay``'s text). Bad input gets one line and the question again.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Callable

from simcards.errors import SimcardsError
from simcards.table.step import Table

WIDTH = 80
HELP = "number or move to play · h hint · u undo · q quit"


def columns(items: list[str], width: int = WIDTH) -> list[str]:
    """``items`` laid out in as many columns as fit ``width`` (read down each column)."""
    if not items:
        return []
    cell = max(len(s) for s in items) + 2
    per_line = max(1, width // cell)
    rows = -(-len(items) // per_line)
    lines = []
    for r in range(rows):
        line = "".join(items[c * rows + r].ljust(cell) for c in range(per_line) if c * rows + r < len(items))
        lines.append(line.rstrip())
    return lines


def wrap(text: str, width: int = WIDTH) -> list[str]:
    return textwrap.wrap(text, width=width, subsequent_indent="    ", break_long_words=False) or [""]


class Loop:
    """The terminal game: ``read`` asks for a line (``input``), ``write`` prints one (``print``)."""

    def __init__(self, table: Table, read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                 hint: str = "informed", width: int = WIDTH, advice: bool = True, samples: int | None = None):
        self.t = table
        self.advice, self.samples = advice, samples
        self.read, self.write = read, write
        self.hint_spec = hint
        self.width = width
        self.shown = 0  # entries of the table's log already written

    def say(self, text: str = "") -> None:
        for line in text.split("\n"):
            for part in wrap(line, self.width) if len(line) > self.width else [line]:
                self.write(part)

    def news(self) -> None:
        """What happened since your last move: the bots' moves (as the table saw them) on one
        line, the round or hand ends and scores each on their own."""
        log = self.t.log()
        bots: list[str] = []
        for move, text in log[self.shown:]:
            if move is not None:
                if not move.mine:
                    bots.append(text)
                continue
            if bots:
                self.say("; ".join(bots))
                bots = []
            self.say(text)
        if bots:
            self.say("; ".join(bots))
        self.shown = len(log)

    def run(self) -> int:
        t = self.t
        self.say(f"You play seat {', '.join(map(str, t.seats))} of {t.adapter.title} ({t.spec.rules.name}), "
                 f"seed {t.seed}, game {t.game_index}; " + ", ".join(
                     f"seat {p}: {s.spec}" for p, s in enumerate(t.strategies) if p not in t.seats) + ".")
        self.say(HELP)
        while not t.done:
            self.news()
            if len(t.options) == 1:  # a forced move: played for you, said
                self.say(f"(your only move: {t.options[0].label})")
                t.apply(0)
                continue
            self.say("")
            self.say(t.board())
            items = [f"{o.index + 1:>2} {o.label}" for o in t.options]
            self.say(f"seat {t.player}, {t.kind}:")
            for line in columns(items, self.width):
                self.say(line)
            if not self.ask():
                self.say(f"You left the game after {len(t.actions)} moves.")
                return 0
        self.news()
        self.finish()
        return 0

    def ask(self) -> bool:
        """One line of input until a move is played; False when the player quits."""
        t = self.t
        while True:
            try:
                line = self.read("> ").strip()
            except EOFError:
                return False
            low = line.lower()
            if low in ("q", "quit", "exit"):
                return False
            if low in ("h", "hint", "?"):
                self.show_hint()
                continue
            if low in ("u", "undo"):
                self.undo()
                return True
            if low in ("", "help"):
                self.say(HELP)
                continue
            try:
                choice: int | str = int(line) - 1 if line.isdigit() else line
                if isinstance(choice, int) and not 0 <= choice < len(t.options):
                    raise SimcardsError(f"{line}: choose a move from 1 to {len(t.options)}")
                t.apply(choice)
            except SimcardsError as exc:
                if isinstance(choice, str) and "is not a legal option" in str(exc):  # the long list: not here
                    exc = SimcardsError(f"{line[:20]!r}: type a move's number (1-{len(t.options)}) or name, h, u or q")
                self.say(f"error: {exc}")
                continue
            return True

    def undo(self) -> None:
        t = self.t
        if all(t.forced):  # (forced moves were played for you: they go with the move before them)
            self.say("error: nothing to undo: no move of yours yet")
            return
        while t.actions:
            forced = t.forced[-1]
            t.undo()
            if not forced:
                break
        self.shown = len(t.log())  # the moves taken back are not told again
        self.say("(move taken back)")

    def show_hint(self) -> None:
        """The hint strategy's choice, then (games with advice) every option's values."""
        try:
            ranked = self.t.hint(self.hint_spec)
        except SimcardsError as exc:
            self.say(f"error: {exc}")
            return
        if not ranked:
            self.say(f"hint ({self.hint_spec}): no opinion")
        else:
            total = sum(v for _, v in ranked)
            if total == 1:
                self.say(f"hint ({self.hint_spec}): {ranked[0][0].index + 1} {ranked[0][0].label}")
            else:
                self.say(f"hint ({self.hint_spec}, {total} samples): " + "; ".join(
                    f"{o.index + 1} {o.label} ({v}/{total})" for o, v in ranked))
        self.show_advice()

    def show_advice(self) -> None:
        """``simcards advise`` on the pending decision (the seat's view only): the options by
        their chance of winning the game, with expected points this hand and 95% intervals."""
        from simcards.table.advise import EVALUATED, advise

        if not self.advice or self.t.game not in EVALUATED:
            return
        try:
            adv = advise(self.t.game, self.t, samples=self.samples)
        except SimcardsError as exc:
            self.say(f"(no advice: {exc})")
            return
        self.say(f"advice ({adv.samples} sampled deals; " + ("win game, " if adv.wins is not None else "")
                 + f"{adv.measure}, 95% intervals):")
        for o in adv.ranked():
            win = f"{100 * o.win:5.1f}% [{100 * o.win_ci[0]:.1f}, {100 * o.win_ci[1]:.1f}]  " \
                if o.win is not None and o.win_ci is not None else ""
            asaf = f"  Asaf {100 * o.asaf:.0f}%" if o.asaf is not None else ""
            self.say(f"{o.index + 1:>3} {o.label:<30} {win}{o.points:+.1f} [{o.points_ci[0]:+.1f}, "
                     f"{o.points_ci[1]:+.1f}]{asaf}")

    def finish(self) -> None:
        t = self.t
        res = t.result or {}
        winner = res.get("winner", -1)
        mine = {t.side_of(s) for s in t.seats}
        name = t.adapter.side_name
        verdict = "you win" if winner in mine else "you lose" if winner >= 0 else "no winner (capped)"
        self.say("")
        self.say(f"Game over: {name(winner) + ' wins' if winner >= 0 else 'capped'} — {verdict}. Final scores: "
                 + ", ".join(f"{name(i)} {s}" for i, s in enumerate(res.get("scores", []))))
        self.say("")
        self.say("Replay:")
        self.say(t.replay())


def command(game: str, *, variant: str | None, seed: int, game_index: int, against: list[str] | None, seat: int,
            players: int | None, rules: dict | None, hint: str, save: str | Path | None = None,
            keep: bool = True, resume: str | Path | None = None) -> int:
    """The body of ``simcards play`` (simcards.cli.app registers it). ``save``: the file the game is
    saved to at the end (default: a new one under ``saved_games_dir()``, or the file resumed);
    ``keep`` False: not saved; ``resume``: a saved game to play on (its own table and seats)."""
    from simcards.table.step import load, start

    if resume is not None:  # a saved game, played again to where it was left, then on
        table = load(resume, game)
        save = resume if save is None else save
    else:
        spec = against[0] if against and len(against) == 1 else against
        table = start(game, variant=variant, seed=seed, game_index=game_index, against=spec, seats=seat,
                      players=players, rules=rules)
    try:
        table.spec.gdef.strategies([hint], 1)  # a bad hint spec: one line now, not at the first h
        loop = Loop(table, hint=hint)
        code = loop.run()
        if keep and (table.actions or table.done):
            return saved(loop, save) or code
        return code
    finally:
        table.close()


def saved(loop: Loop, path: str | Path | None) -> int:
    """Save the loop's game and say where (and how to annotate it); 2 when it cannot be written."""
    t = loop.t
    try:
        where = t.save(path)
    except SimcardsError as exc:
        loop.say(f"error: {exc}")
        return 2
    loop.say("")
    loop.write(f"Game saved to {where}")  # (not wrapped: a path to copy whole)
    loop.write(f"Annotate it: simcards analyze {t.game} --file {where}")
    return 0
