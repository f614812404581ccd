"""What the step interface needs from each game: how to start its reference engine with a given
decision function, where a decision's seat, hand and options are in the arguments the engine hands
its strategies, a readable label for each option (in the card notation ``simcards replay`` uses),
the deciding seat's view as a dict, a board drawn in text, and the result.

The reference engines are only read (their public ``ReferenceGame`` and the policy signature):
nothing here changes how a game is played.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simcards.cards import card_code


def cards_text(cards) -> str:
    return " ".join(card_code(c) for c in cards) if len(cards) else "—"


def mask_cards(mask: int, size: int = 64) -> list[int]:
    """The cards of a face mask (bit ``c`` = face id ``c``: Gin's view)."""
    mask = int(mask)
    return [c for c in range(size) if mask >> c & 1]


class Adapter:
    """One game's side of the step interface (``simcards.table.step``)."""

    name = ""
    title = ""
    layout = ""  # the game's layout module (its decision kinds K_*, its view slots)
    kind_names: dict[str, str] = {}  # K_* constant of the layout -> the kind's name
    kinds: dict[int, str] = {}

    def __init__(self, rules: Any, players: int):
        import importlib

        self.rules = rules
        self.players = players
        self.L = importlib.import_module(self.layout)  # imported on use: the engines are heavy
        self.kinds = {getattr(self.L, k): name for k, name in self.kind_names.items()}

    # --- the engine -------------------------------------------------------------------------
    def new_game(self, sids: np.ndarray, params: np.ndarray, seed: int, game: int, decide) -> Any:
        raise NotImplementedError

    def seat_arrays(self, strategies) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def strategy_row(self, strategy) -> tuple[int, np.ndarray]:
        """One strategy's id and parameter row, as the engine hands them to its decision function."""
        sids, params = self.seat_arrays([strategy])
        return int(sids[0]), params[0]

    def owners(self, seats: set[int]) -> set[int]:
        """The seats whose decisions the caller makes when it plays ``seats`` (T-V-2P: a player
        also plays its dummy)."""
        return set(seats)

    # --- one decision, from the arguments the engine hands a strategy --------------------------
    def seat_of(self, args: tuple) -> int:
        return int(args[self.view_arg][0])  # V_SEAT is slot 0 in every game's view

    view_arg = 7  # position of ``view`` in decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng)
    rng_arg = 9

    def hand_of(self, args: tuple) -> list[int]:
        hand, n = args[3], int(args[4])
        return [int(c) for c in hand[:n]]

    def rows_of(self, args: tuple) -> list[tuple[int, ...]]:
        raise NotImplementedError

    def row_of(self, args: tuple, i: int) -> tuple[int, ...] | None:
        """Option ``i``'s row (``None`` for an index out of range: the engine's check reports it)."""
        n = int(args[self.view_arg - 1])
        return self.rows_of(args)[i] if 0 <= i < n else None

    def label(self, kind: int, row: tuple[int, ...], args: tuple) -> str:
        """The option as the deciding player reads it."""
        raise NotImplementedError

    def public(self, kind: int, row: tuple[int, ...], args: tuple) -> str:
        """What the other players see of the option once played."""
        return self.label(kind, row, args)

    def view(self, args: tuple) -> dict:
        raise NotImplementedError

    def board(self, view: dict, kind: str) -> list[str]:
        raise NotImplementedError

    def hint_args(self, args: tuple, sid: int, params: np.ndarray, rng: np.ndarray) -> tuple:
        """The same decision asked of another strategy (``sid``, its parameter row ``params``)."""
        a = list(args)
        a[1], a[2], a[self.rng_arg] = sid, params, rng
        return tuple(a)

    # --- the end ------------------------------------------------------------------------------
    def result(self, record: Any) -> dict:
        raise NotImplementedError

    def replay_lines(self, record: Any) -> list[str]:
        raise NotImplementedError

    public_kinds: frozenset[str] = frozenset()  # the engine's event kinds every player sees

    def public_lines(self, engine: Any) -> list[tuple[int, str]]:
        """What the whole table has seen of the game so far (round ends, scores; never a hidden
        card), from the engine's events: (the engine's clock when it happened, text)."""
        return [(i, ev.text) for i, ev in enumerate(engine.record.events) if ev.kind in self.public_kinds]

    def clock(self, engine: Any) -> int:
        """The engine's clock: events so far (a public line at clock ``c`` came after the decisions
        taken at clocks up to ``c``)."""
        return len(engine.record.events)

    def side_of(self, seat: int) -> int:
        """The side (seat or team) whose score a seat plays for."""
        return seat

    def side_name(self, side: int) -> str:
        """How the result names a side (``result``'s winner and scores are per side)."""
        return f"seat {side}"


def adapter(game: str) -> type[Adapter]:
    """The step interface's adapter of a registered game (its package's ``table.ADAPTER``)."""
    import importlib

    from simcards.games import GAMES

    return importlib.import_module(GAMES[game].rsplit(".", 1)[0] + ".table").ADAPTER
