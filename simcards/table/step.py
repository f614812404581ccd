"""The step interface: one game, one decision at a time (the shape of OpenSpiel's and RLCard's
environments), over the reference engine.

    t = simcards.start("gin", seed=3, against="informed")      # you play seat 0
    while not t.done:
        print(t.view)                                           # what seat t.player may see
        t.apply(t.options[0].index)                             # or a label: t.apply("discard 7h")
    t.result                                                    # winner, scores

How it works: the caller's actions so far are kept in a list, and the reference engine plays the
game in a thread of its own with a decision function that answers the caller's decisions from
that list and waits at the first one not taken yet (``apply`` hands it the next). Every other
decision goes to the seats' strategies through the same decision function the reference engine
and the kernel use. So a game is exactly the game of ``(seed, game, rules, strategies)`` that
``simcards replay`` shows, whatever the caller plays. :meth:`Table.undo` plays the game again
from the start with the list less its last action; the bots' decisions already made are
remembered with their random state after the call, so that replay searches nothing again.
"""

from __future__ import annotations

import importlib
import os
import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from simcards import policy
from simcards.errors import SimcardsError
from simcards.rng import seat_states
from simcards.table.games import Adapter, adapter


class _Cancel(BaseException):
    """Ends a game thread whose table was rewound or dropped (a BaseException: no strategy
    wrapper turns it into an error)."""


_GO, _CANCEL = "go", "cancel"


@dataclass(frozen=True)
class Option:
    """One legal option: ``index`` is what :meth:`Table.apply` takes; ``label`` reads as the
    replay writes moves; ``row`` is the engine's own option row (cards, deadwood, bid...)."""

    index: int
    label: str
    row: tuple[int, ...]

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class Decision:
    """The pending decision: whose (``seat``), of which kind, with what options, seen how."""

    seat: int
    kind: str
    options: tuple[Option, ...]
    view: dict
    args: tuple = field(repr=False, compare=False)  # what the engine hands a strategy (for hints)


@dataclass(frozen=True)
class Move:
    """One decision taken in the game so far (any seat's, as the others see it for bots)."""

    seat: int
    kind: str
    label: str
    mine: bool


class Table:
    """One game of ``game`` in which the caller plays ``seats`` and strategies play the rest.

    Build it with :func:`start`. ``player`` is the seat to decide (``None`` when the game is over),
    ``view`` what it may see, ``options`` its legal options; :meth:`apply` takes one, :meth:`undo`
    takes back the caller's last one, ``done`` and ``result`` say how it ended, :meth:`replay`
    gives the whole game as ``simcards replay`` writes it."""

    def __init__(self, spec, seats: Sequence[int], game_index: int = 0):
        self.spec = spec
        self.game = spec.game
        self.seed = spec.seed
        self.game_index = int(game_index)
        gdef = spec.gdef
        self.adapter: Adapter = adapter(spec.game)(spec.rules, spec.players)
        self.seats = tuple(sorted(set(int(s) for s in seats)))
        for s in self.seats:
            if not 0 <= s < spec.players:
                raise SimcardsError(f"seat {s}: the table has seats 0..{spec.players - 1}")
        self.deciders = self.adapter.owners(set(self.seats))
        self.strategies = list(spec.strategies)
        self.sids, self.params = self.adapter.seat_arrays(self.strategies)
        module = importlib.import_module(f"simcards.games.{gdef.name.replace('-', '_')}.game")
        self._binding, self._kinds = module.BINDING, module.KINDS
        self._engine = self._binding.engine(self.strategies)
        self._actions: list[int] = []
        self._counts: list[int] = []  # per action: how many options the caller had (1: forced)
        self._bots: list[tuple[int, int, np.ndarray]] = []  # (caller's actions before it, choice, rng after)
        self._thread: threading.Thread | None = None
        self._pending: Decision | None = None
        self._record: Any = None
        self._restart()

    # --- the game thread ---------------------------------------------------------------------------
    def _restart(self) -> None:
        """Play the game again from the start (in a thread of its own) up to the caller's first
        decision not taken yet, or the end."""
        self.close()
        actions, deciders, adapter = self._actions, self.deciders, self.adapter
        real = self._engine.decide
        bots = self._bots
        state = {"mine": 0, "bot": 0}
        moves: list[tuple[int, int, tuple, bool, str, int]] = []  # seat, kind, row, mine, label, clock
        holder: list = []  # the engine, once built (its clock stamps the moves)
        inbox: queue.Queue = queue.Queue()
        outbox: queue.Queue = queue.Queue()
        strategies, kinds = self.strategies, self._kinds

        def decide(*args):
            seat = adapter.seat_of(args)
            kind = int(args[0])
            if seat in deciders:
                i = state["mine"]
                if i >= len(actions):  # the caller's turn: wait for its action
                    outbox.put(("pending", _copied(args)))
                    if inbox.get() == _CANCEL:
                        raise _Cancel
                state["mine"] += 1
                choice = actions[i]
                row = adapter.row_of(args, choice)
                moves.append((seat, kind, row, True, adapter.label(kind, row, args), adapter.clock(holder[0])))
                return choice
            b = state["bot"]
            state["bot"] += 1
            rng = args[adapter.rng_arg]
            if b < len(bots):  # decided before this game was played again: the same choice, the same stream
                _, choice, after = bots[b]
                rng[:] = after
            else:
                choice = int(real(*args))
                bots.append((state["mine"], choice, rng.copy()))
            row = adapter.row_of(args, choice)
            if row is not None:
                moves.append((seat, kind, row, False, adapter.public(kind, row, args), adapter.clock(holder[0])))
            return choice

        engine = adapter.new_game(self.sids, self.params, self.seed, self.game_index, decide)
        self._game = engine
        holder.append(engine)

        def work():
            try:
                with policy.reported(strategies, kinds):
                    record = engine.play()
                outbox.put(("done", record))
            except _Cancel:
                pass
            except BaseException as exc:  # handed to the caller's thread
                outbox.put(("error", exc))

        self._moves = moves
        self._inbox, self._outbox = inbox, outbox
        self._thread = threading.Thread(target=work, name="simcards-table", daemon=True)
        self._thread.start()
        self._wait()

    def _wait(self) -> None:
        what, value = self._outbox.get()
        if what == "pending":
            self._record, self._pending = None, self._decision(value)
        elif what == "done":
            self._record, self._pending, self._thread = value, None, None
        else:
            self._thread = None
            raise value

    def close(self) -> None:
        """End the game thread (a table left unfinished keeps one waiting for its next action)."""
        thread = getattr(self, "_thread", None)
        if thread is not None and thread.is_alive():
            self._inbox.put(_CANCEL)
            thread.join()
        self._thread = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def _kind(self, kind: int) -> str:
        return self.adapter.kinds.get(kind, str(kind))

    def _decision(self, args: tuple) -> Decision:
        a = self.adapter
        kind = int(args[0])
        rows = a.rows_of(args)
        options = tuple(Option(i, a.label(kind, row, args), row) for i, row in enumerate(rows))
        return Decision(a.seat_of(args), self._kind(kind), options, a.view(args), args)

    # --- the public interface ---------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._pending is None

    @property
    def player(self) -> int | None:
        """The seat whose decision is pending (one of ``seats``, or a T-V-2P dummy one of them plays
        for); ``None`` once the game is over."""
        return None if self._pending is None else self._pending.seat

    @property
    def decision(self) -> Decision | None:
        return self._pending

    @property
    def kind(self) -> str | None:
        return None if self._pending is None else self._pending.kind

    @property
    def view(self) -> dict:
        """What the deciding seat may see (its hand, the discards, the scores...): a dict."""
        return {} if self._pending is None else dict(self._pending.view)

    @property
    def options(self) -> tuple[Option, ...]:
        return () if self._pending is None else self._pending.options

    @property
    def history(self) -> list[Move]:
        """Every decision made so far, the bots' as the other players see them."""
        return [Move(seat, self._kind(kind), label, mine) for seat, kind, _, mine, label, _ in self._moves]

    def log(self) -> list[tuple[Move | None, str]]:
        """The game as the whole table saw it, in order: every decision (``Move``; the bots' as
        the others see them) and what the engine showed everyone between them — round or hand
        ends, knocks and lay-offs, scores (``(None, text)``). Never a hidden card."""
        stamped: list[tuple[float, int, Move | None, str]] = [(clock, 1, Move(seat, self._kind(kind), label, mine), f"seat {seat}: {label}")
                   for seat, kind, _, mine, label, clock in self._moves]
        stamped += [(e + 0.5, 0, None, text.strip()) for e, text in self.adapter.public_lines(self._game)]
        stamped.sort(key=lambda x: (x[0], x[1]))  # stable: the moves keep their order
        return [(m, text) for _, _, m, text in stamped]

    @property
    def actions(self) -> list[int]:
        """The caller's option indices so far: ``start(..., actions=t.actions)`` rebuilds the game."""
        return list(self._actions)

    @property
    def forced(self) -> list[bool]:
        """Per action of the caller's: whether it was its only legal option (played for it by
        ``simcards play``, and taken back with the move before it)."""
        return [n == 1 for n in self._counts]

    def option(self, choice: int | str) -> Option:
        """The legal option ``choice`` names: its index, or its label (case and spaces ignored)."""
        if self._pending is None:
            raise SimcardsError("the game is over: no option to take")
        opts = self._pending.options
        if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool):
            if 0 <= int(choice) < len(opts):
                return opts[int(choice)]
            raise SimcardsError(f"option {choice}: this {self.kind} decision has options 0..{len(opts) - 1}")
        if isinstance(choice, str):
            want = " ".join(choice.lower().split())
            found = ([o for o in opts if o.label.lower() == want]
                     or [o for o in opts if o.label.lower().startswith(want)]) if want else []
            if len(found) == 1:
                return found[0]
            if found:
                raise SimcardsError(f"{choice!r} names {len(found)} options ({'; '.join(o.label for o in found[:4])}): "
                                    "give its number or the whole label")
        raise SimcardsError(f"{choice!r} is not a legal option here; legal: "
                            + "; ".join(o.label for o in opts[:6]) + (f"; ... ({len(opts)} in all)" if len(opts) > 6 else ""))

    def apply(self, choice: int | str) -> Table:
        """Take option ``choice`` (its index or label) for the deciding seat; the strategies then
        play until the caller's next decision or the end. Returns the table."""
        opt = self.option(choice)
        self._actions.append(opt.index)
        self._counts.append(len(self.options))
        try:
            self._inbox.put(_GO)
            self._wait()
        except BaseException:
            self._actions.pop()
            self._counts.pop()
            self._restart()
            raise
        return self

    def undo(self) -> Table:
        """Take back the caller's last action (the bots' moves after it go with it)."""
        if not self._actions:
            raise SimcardsError("nothing to undo: no move of yours yet")
        self._actions.pop()
        self._counts.pop()
        n = len(self._actions)
        self._bots[:] = [b for b in self._bots if b[0] <= n]
        self._restart()
        return self

    @property
    def result(self) -> dict | None:
        """Once the game is over: ``winner`` (a seat, or a side where sides score: Gin teams, Two
        Hundred), ``scores`` (per seat, or per side) and the game's length; ``None`` before."""
        return None if self._record is None else self.adapter.result(self._record)

    @property
    def record(self) -> Any:
        """The reference engine's game record (events, transcript), once the game is over."""
        return self._record

    def board(self) -> str:
        """The pending decision's board, drawn in text (no line longer than 80 columns)."""
        if self._pending is None:
            return ""
        return "\n".join(self.adapter.board(self._pending.view, self._pending.kind))

    def replay(self) -> str:
        """The finished game as ``simcards replay`` writes it."""
        if self._record is None:
            raise SimcardsError("the game is not over yet: the replay shows every hidden card")
        title = self.adapter.title
        specs = ", ".join(f"seat {p}: {'you' if p in self.seats else s.spec}" for p, s in enumerate(self.strategies))
        head = [f"{title} ({self.spec.rules.name}), seed {self.seed}, game {self.game_index}", f"players: {specs}"]
        return "\n".join(head + self.adapter.replay_lines(self._record))

    def side_of(self, seat: int) -> int:
        return self.adapter.side_of(seat)

    # --- a saved game ---------------------------------------------------------------------------
    def saved(self) -> dict:
        """The game so far as a small JSON-ready dict: the game, preset and rule changes, players,
        seed and game index, every seat's strategy, the caller's seats, and every move (the
        caller's with the option index taken; the bots' as the table saw them, to check a replay
        against). :func:`load` plays it again."""
        from simcards.version import __version__

        spec = self.spec
        base = spec.gdef.build_rules(spec.variant, None).as_dict()
        overrides = {k: _plain(v) for k, v in spec.rules.as_dict().items() if base.get(k) != v}
        moves: list[dict] = []
        mine = iter(self._actions)
        for seat, kind, _, own, label, _ in self._moves:
            move: dict[str, Any] = {"seat": seat, "kind": self._kind(kind), "label": label}
            if own:
                move["option"] = next(mine)
            moves.append(move)
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "simcards": __version__, "game": self.game,
                "variant": spec.variant, "rules": overrides, "rules_name": spec.rules.name, "players": spec.players,
                "seed": self.seed, "game_index": self.game_index, "strategies": [s.spec for s in self.strategies],
                "seats": list(self.seats), "finished": self.done, "result": _plain(self.result), "moves": moves}

    @staticmethod
    def load(source: str | Path | dict, game: str | None = None) -> Table:
        """A saved game played again: :func:`load`."""
        return load(source, game)

    def save(self, path: str | Path | None = None) -> Path:
        """Write :meth:`saved` to ``path`` (default: a new file under :func:`saved_games_dir`) and
        return where it is. ``simcards analyze GAME --file PATH`` annotates it; :func:`load` plays
        it again (and on, when it was left unfinished)."""
        import json
        import time

        if path is None:
            folder = saved_games_dir()
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = folder / f"{self.game}-seed{self.seed}-game{self.game_index}-{stamp}.json"
            k = 1
            while path.exists():
                k += 1
                path = folder / f"{self.game}-seed{self.seed}-game{self.game_index}-{stamp}-{k}.json"
        path = Path(path).expanduser()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(self.saved(), indent=1) + "\n")
        except OSError as exc:
            raise SimcardsError(f"cannot save the game to {path}: {exc.strerror or exc}") from None
        return path

    # --- asking a strategy ---------------------------------------------------------------------
    def choose(self, strategy: str, rng: np.ndarray | None = None) -> int:
        """The option index ``strategy`` (any spec) chooses at the pending decision, drawing from
        the random stream ``rng`` (a ``simcards.rng`` state, advanced in place; default: a stream
        of its own). ``simcards.rng.seat_states(seed, game, n)[seat]`` is the stream the engine
        gives that seat's strategy: answering every decision with it plays the game the strategy
        plays."""
        if self._pending is None:
            raise SimcardsError("the game is over: no decision to take")
        strat = self.spec.gdef.strategies([strategy], 1)[0]
        engine = self._binding.engine([strat])
        sid, params = self.adapter.strategy_row(strat)
        if rng is None:
            rng = seat_states(self.seed ^ 0x5EED, self.game_index, 1)[0]
        with policy.reported([strat], self._kinds):
            return int(engine.decide(*self.adapter.hint_args(self._pending.args, sid, params, rng)))

    def hint(self, strategy: str = "informed", samples: int | None = None) -> list[tuple[Option, int]]:
        """What ``strategy`` would choose here: [(option, votes)], most votes first. A
        deterministic strategy is asked once; a stochastic one (``mc``) ``samples`` times (default
        5), each from a random stream of its own, so the votes rank the options it hesitates
        between."""
        if self._pending is None:
            raise SimcardsError("the game is over: nothing to hint")
        strat = self.spec.gdef.strategies([strategy], 1)[0]
        n = (samples or 5) if strat.family.stochastic else 1
        streams = seat_states(self.seed ^ 0x5EED, self.game_index * 7919 + len(self._actions), n)
        votes: dict[int, int] = {}
        for k in range(n):
            choice = self.choose(strategy, streams[k])
            if 0 <= choice < len(self.options):
                votes[choice] = votes.get(choice, 0) + 1
        return sorted(((self.options[i], v) for i, v in votes.items()), key=lambda x: (-x[1], x[0].index))


def _copied(args: tuple) -> tuple:
    """A decision's arguments, kept while the engine goes on (it reuses its arrays)."""
    return tuple(np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args)


SAVE_FORMAT = "simcards saved game"
SAVE_VERSION = 1
SAVE_KEYS = ("game", "variant", "rules", "players", "seed", "game_index", "strategies", "seats", "moves")


def saved_games_dir() -> Path:
    """Where ``simcards play`` saves games by default: ``$XDG_DATA_HOME/simcards/games``
    (``~/.local/share/simcards/games``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "simcards" / "games"


def _plain(value: Any) -> Any:
    """A value as JSON writes it (tuples as lists, numpy numbers as Python's)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    return value


@dataclass
class SavedGame:
    """A saved game (:meth:`Table.save`), read and checked for its shape: ``name`` (the file, for
    messages), the fields :meth:`Table.saved` writes. :meth:`start` builds its table; :meth:`option`
    gives the caller's next saved move at a table's pending decision (refused in one line when it
    does not fit: an edited file, another game); :meth:`check` compares the moves played again
    with the saved ones (the bots' included)."""

    name: str
    data: dict

    @classmethod
    def read(cls, source: str | Path | dict, game: str | None = None) -> SavedGame:
        """Read a saved game from a file (or its dict); ``game``: the game it must be."""
        import json

        if isinstance(source, dict):
            name, data = "saved game", source
        else:
            name = str(source)
            try:
                data = json.loads(Path(source).expanduser().read_text())
            except OSError as exc:
                raise SimcardsError(f"{name}: {exc.strerror or exc}") from None
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise SimcardsError(f"{name}: not a saved game (not JSON: {getattr(exc, 'msg', exc)})") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SimcardsError(f"{name}: not a saved game (simcards play --save writes one)")
        if data.get("version") != SAVE_VERSION:
            raise SimcardsError(f"{name}: a saved game of format version {data.get('version')!r}; this simcards "
                                f"reads version {SAVE_VERSION}")
        missing = [k for k in SAVE_KEYS if k not in data]
        if missing:
            raise SimcardsError(f"{name}: not a whole saved game (no {', '.join(missing)})")
        if game is not None:
            from simcards.games import canonical

            if canonical(game) != data["game"]:
                raise SimcardsError(f"{name}: a saved {data['game']} game, not {canonical(game)}")
        moves, seats = data["moves"], data["seats"]
        if (not isinstance(moves, list) or not all(isinstance(m, dict) and isinstance(m.get("seat"), int)
                                                   and isinstance(m.get("label"), str) for m in moves)
                or not isinstance(seats, list) or not seats or not all(isinstance(s, int) for s in seats)
                or not isinstance(data["strategies"], list) or not isinstance(data["rules"], dict)):
            raise SimcardsError(f"{name}: the file's moves, seats, strategies or rules are not as saved")
        for i, m in enumerate(moves, 1):
            if "option" in m and (isinstance(m["option"], bool) or not isinstance(m["option"], int)):
                raise SimcardsError(f"{name}: move {i}: option {m['option']!r} is not an option index")
        return cls(name, data)

    @property
    def game(self) -> str:
        return str(self.data["game"])

    @property
    def seats(self) -> list[int]:
        return [int(s) for s in self.data["seats"]]

    @property
    def mine(self) -> list[dict]:
        """The caller's moves, in order."""
        return [m for m in self.data["moves"] if "option" in m]

    def start(self, extra_seats: Sequence[int] = ()) -> Table:
        """The saved game's table, at its start, with the caller at its seats (and ``extra_seats``)."""
        d = self.data
        try:
            return start(d["game"], variant=d["variant"], seed=d["seed"], game_index=d["game_index"],
                         against=list(d["strategies"]), seats=sorted(set(self.seats) | set(extra_seats)),
                         players=d["players"], rules=dict(d["rules"]))
        except SimcardsError as exc:
            raise SimcardsError(f"{self.name}: {exc}") from None

    def option(self, table: Table, i: int) -> int:
        """The option index of the caller's ``i``-th saved move (from 0), checked against ``table``'s
        pending decision: the same seat, kind and label."""
        mine = self.mine
        if i >= len(mine):
            raise SimcardsError(f"{self.name}: the saved moves end before the game does ({len(mine)} moves of yours"
                                " saved, the file says finished)")
        m = mine[i]
        opts = table.options
        k = m["option"]
        if table.player != m["seat"] or table.kind != m.get("kind", table.kind) or not 0 <= k < len(opts) \
                or opts[k].label != m["label"]:
            here = f"seat {table.player}'s {table.kind} decision"
            raise SimcardsError(f"{self.name}: your move {i + 1} ({m['label']!r}, seat {m['seat']}) is not an option"
                                f" at {here} when the game is played again: the file was changed, or is of "
                                "another version")
        return k

    def check(self, moves: Sequence[tuple[int, str]], done: bool) -> None:
        """The moves played again, (seat, label) each as the table saw them, against the saved
        ones: a bot that plays differently now (another version of it) is refused in one line."""
        saved = [(int(m["seat"]), str(m["label"])) for m in self.data["moves"]]
        for i, (a, b) in enumerate(zip(saved, moves), 1):
            if a != b:
                raise SimcardsError(f"{self.name}: move {i} was seat {a[0]}: {a[1]!r} when played, seat {b[0]}: "
                                    f"{b[1]!r} now: the file was changed, or a strategy plays differently")
        if len(moves) != len(saved) or bool(self.data.get("finished", done)) != done:
            raise SimcardsError(f"{self.name}: the game played again has {len(moves)} moves"
                                f"{' and ends' if done else ''}; the file has {len(saved)}"
                                f"{' and ends' if self.data.get('finished') else ''}: the file was changed")


def load(source: str | Path | dict, game: str | None = None) -> Table:
    """The table of a saved game (:meth:`Table.save`) played again to where it was saved — over,
    or at the caller's next decision for a game left unfinished, to play on. Every saved move is
    checked (yours against the options, the bots' against what they play now); a file that does
    not fit is refused in one line."""
    saved = SavedGame.read(source, game)
    t = saved.start()
    try:
        for i in range(len(saved.mine)):
            if t.done:
                raise SimcardsError(f"{saved.name}: the game ends before the saved moves do")
            t.apply(saved.option(t, i))
        saved.check([(m.seat, m.label) for m in t.history], t.done)
    except BaseException:
        t.close()
        raise
    return t


def start(game: str, *, variant: str | None = None, seed: int = 0, game_index: int = 0,
          against: str | Sequence[str] | None = None, seats: int | Sequence[int] = 0,
          players: int | None = None, rules: dict[str, Any] | None = None,
          actions: Sequence[int | str] = ()) -> Table:
    """Start game ``game_index`` of ``seed`` of ``game`` (its ``variant`` preset, single ``rules``
    overrides) with the caller at ``seats`` (one seat, a list, or every seat for self-play) and
    ``against`` playing the others: one strategy spec for all (``random``, ``informed``, ``mc``,
    ``knock:max=5``, a TOML file, ``policy.py:name``), or one spec per seat (the entries at the
    caller's seats only shape what the engine records for them). ``actions`` replays option indices
    or labels already taken. The deal is the one ``simcards replay GAME --seed S --game N`` shows."""
    from simcards.spec import RunSpec

    seat_list = [seats] if isinstance(seats, (int, np.integer)) else list(seats)
    specs = [against] if isinstance(against, str) else list(against) if against is not None else None
    spec = RunSpec.resolve(game, variant=variant, players=players, strategies=specs, rules=rules, seed=seed)
    if isinstance(game_index, bool) or not isinstance(game_index, (int, np.integer)) or game_index < 0:
        raise SimcardsError(f"game_index={game_index!r}: give a whole number from 0")
    if not seat_list:
        raise SimcardsError("seats: give at least one seat to play")
    table = Table(spec, seat_list, int(game_index))
    for a in actions:
        table.apply(a)
    return table
