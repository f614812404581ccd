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


# ----- Yaniv ------------------------------------------------------------------------------------------
class Yaniv(Adapter):
    name, title = "yaniv", "Yaniv"

    layout = "simcards.games.yaniv.layout"
    kind_names = {"K_CALL": "call", "K_DISCARD": "discard", "K_DRAW": "draw", "K_OVERCALL": "overcall",
                  "K_REQUEST": "request", "K_GRANT": "grant", "K_SLAM": "slam", "K_ONDER": "onderkluft"}

    def new_game(self, sids, params, seed, game, decide):
        from simcards.games.yaniv.reference import ReferenceGame

        return ReferenceGame(self.rules, self.players, sids, params, seed, game, decide)

    def seat_arrays(self, strategies):
        from simcards.games.yaniv.game import seat_arrays

        return seat_arrays(strategies)

    def rows_of(self, args):
        opts, n_opts = args[5], int(args[6])
        return [tuple(int(c) for c in opts[i, 1: 1 + int(opts[i, 0])]) for i in range(n_opts)]

    def row_of(self, args, i):
        opts = args[5]
        return tuple(int(c) for c in opts[i, 1: 1 + int(opts[i, 0])]) if 0 <= i < int(args[6]) else None

    def label(self, kind, row, args):
        L = self.L
        word = "Kluft" if self.rules.kluft else "Yaniv"
        if kind in (L.K_CALL, L.K_OVERCALL):
            return f"call {word}" + (" (over the limit)" if kind == L.K_OVERCALL else "") if row[0] else "play on"
        if kind == L.K_DISCARD:
            return "throw " + cards_text(row)
        if kind == L.K_DRAW:
            return "draw from the stock" if row[0] < 0 else f"take {card_code(row[0])}"
        if kind == L.K_REQUEST:
            return "ask for nothing" if row[0] < 0 else f"ask for {card_code(row[0])}"
        if kind == L.K_GRANT:
            return "grant the request" if row[0] else "refuse the request"
        if kind == L.K_SLAM:
            return f"slam {card_code(row[0])} down" if row[0] else "keep the card"
        if kind == L.K_ONDER:
            return "call onderkluft" if row[0] else "reveal"
        return str(row)

    def public(self, kind, row, args):
        text = self.label(kind, row, args)
        return text

    def view(self, args):
        L, v = self.L, args[self.view_arg]
        n = self.players
        return {"seat": int(v[L.V_SEAT]), "round": int(v[L.V_ROUND]), "turn": int(v[L.V_TURN]),
                "stock": int(v[L.V_STOCK]), "hand": self.hand_of(args), "total": int(v[L.V_TOTAL]),
                "scores": [int(x) for x in v[L.V_SCORES: L.V_SCORES + n]],
                "hand_sizes": [int(x) for x in v[L.V_SIZES: L.V_SIZES + n]],
                "alive": [bool(x) for x in v[L.V_ALIVE: L.V_ALIVE + n]],
                "available": [int(c) for c in v[L.V_AVAIL: L.V_AVAIL + int(v[L.V_AVAIL_N])]],
                "thrown": [int(c) for c in v[L.V_THROWN: L.V_THROWN + int(v[L.V_THROWN_N])]],
                "call_limit": self.rules.call_limit, "out_over": self.rules.out_over}

    def board(self, view, kind):
        me = view["seat"]
        others = "  ".join(f"seat {p}: {view['hand_sizes'][p]} cards" for p in range(self.players)
                           if p != me and view["alive"][p])
        scores = "  ".join(f"seat {p}{' (you)' if p == me else ''} {view['scores'][p]}" + ("" if view["alive"][p] else " out")
                           for p in range(self.players))
        limit = view["call_limit"]
        head = f"round {view['round']}, turn {view['turn']} · stock {view['stock']}"
        if limit is not None:
            head += f" · call at {limit} or less"
        lines = [head + f" · out over {view['out_over']}",
                 f"scores: {scores}",
                 f"others: {others}"]
        if view["thrown"]:
            lines.append(f"you threw: {cards_text(view['thrown'])}")
        lines.append(f"you may take: {cards_text(view['available'])}")
        lines.append(f"your hand: {cards_text(view['hand'])}  (total {view['total']})")
        return lines

    # a call shows every hand (Y-SC-1); requests are left out (they name the taker's hand)
    public_kinds = frozenset({"round", "call", "asaf", "kluft", "reveal", "onderkluft", "slam", "note", "scores",
                              "out", "cap", "winner"})

    def result(self, record):
        return {"winner": int(record.winner), "scores": [int(s) for s in record.scores],
                "rounds": len(record.rounds), "capped": bool(record.capped)}

    def replay_lines(self, record):
        return [("" if ev.kind in ("round", "winner") else "  ") + ev.text for ev in record.events]


# ----- Gin Rummy -------------------------------------------------------------------------------------
class Gin(Adapter):
    name, title = "gin", "Gin Rummy"

    layout = "simcards.games.gin.layout"
    kind_names = {"K_UPCARD": "upcard", "K_DRAW": "draw", "K_DISCARD": "discard", "K_KNOCK": "knock",
                  "K_LAST": "last chance", "K_PICKUP": "pickup", "K_ARRANGE": "arrange"}

    def new_game(self, sids, params, seed, game, decide):
        from simcards.games.gin.reference import ReferenceGame

        return ReferenceGame(self.rules, sids, params, seed, game, decide)

    def seat_arrays(self, strategies):
        from simcards.games.gin.game import seat_arrays

        return seat_arrays(strategies)

    def side_of(self, seat):
        return seat % 2 if self.rules.teams else seat

    def side_name(self, side):
        return f"team {side}" if self.rules.teams else f"seat {side}"

    def rows_of(self, args):
        opts, n_opts = args[5], int(args[6])
        return [tuple(int(x) for x in opts[i]) for i in range(n_opts)]

    def label(self, kind, row, args):
        L = self.L
        if kind in (L.K_UPCARD, L.K_DRAW, L.K_LAST):
            if row[0] == 0:
                return {L.K_UPCARD: "decline the upcard", L.K_DRAW: "draw from the stock",
                        L.K_LAST: "let it go"}[kind]
            return f"take {card_code(row[1])} (then deadwood {row[3]})"
        if kind == L.K_DISCARD:
            return f"discard {card_code(row[0])} (deadwood {row[1]})"
        if kind == L.K_KNOCK:
            return ("go gin" if row[1] == 0 else f"knock with {row[1]}") if row[0] else "play on"
        if kind == L.K_PICKUP:
            if row[0] == 0:
                return "draw from the stock"
            return f"take the top {row[0]} (down to {card_code(row[1])}; then deadwood {row[2]})"
        if kind == L.K_ARRANGE:
            return f"lay melds {cards_text(mask_cards(row[0]))}, deadwood {row[1]}, {row[2]} points open to lay-offs"
        return str(row)

    def public(self, kind, row, args):
        L = self.L
        if kind == L.K_DISCARD:
            return f"discard {card_code(row[0])}"
        if kind in (L.K_UPCARD, L.K_DRAW, L.K_LAST):
            return self.label(kind, row, args).split(" (")[0]
        if kind == L.K_PICKUP:
            return "draw from the stock" if row[0] == 0 else f"take the top {row[0]}"
        return self.label(kind, row, args)

    def view(self, args):
        L, v = self.L, args[self.view_arg]
        return {"seat": int(v[L.V_SEAT]), "hand_no": int(v[L.V_HAND]), "turn": int(v[L.V_TURN]),
                "stock": int(v[L.V_STOCK]), "top": int(v[L.V_TOP]), "hand": self.hand_of(args),
                "deadwood": int(v[L.V_DW]), "knock_limit": int(v[L.V_LIMIT]), "score": int(v[L.V_MY_SCORE]),
                "opponent_score": int(v[L.V_OPP_SCORE]), "target": int(v[L.V_TARGET]),
                "pile": mask_cards(v[L.V_PILE]), "opponent_took": mask_cards(v[L.V_OPP_TOOK]),
                "opponent_discarded": mask_cards(v[L.V_OPP_DISCARDS]),
                "opponent_passed": mask_cards(v[L.V_OPP_PASSED]), "dealer": int(v[L.V_DEALER])}

    def board(self, view, kind):
        hand = view["hand"]
        by_suit = "  ".join(cards_text([c for c in hand if c // 13 == s]) for s in range(4) if any(c // 13 == s for c in hand))
        limit = view["knock_limit"]
        top = card_code(view["top"]) if view["top"] >= 0 else "—"
        return [f"hand {view['hand_no']}, turn {view['turn']} · stock {view['stock']} · "
                + (f"knock at {limit} or less" if limit else "gin only"),
                f"score: you {view['score']}  opponent {view['opponent_score']}  (game to {view['target']})",
                f"discard pile: {len(view['pile'])} card{'' if len(view['pile']) == 1 else 's'}, top {top}",
                f"opponent took {cards_text(view['opponent_took'])}; discarded {cards_text(view['opponent_discarded'])}",
                f"your hand: {by_suit}  (deadwood {view['deadwood']})"]

    # the knock and the lay-offs are shown to both (G-LAY-0); a draw or a deal never is
    public_kinds = frozenset({"hand", "knock", "gin", "arrange", "defend", "score", "wall", "cap", "game"})

    def result(self, record):
        return {"winner": int(record.winner), "scores": [int(s) for s in record.final],
                "hands": len(record.hands), "capped": bool(record.capped)}

    def replay_lines(self, record):
        return [f"{'team' if self.rules.teams else 'seat'} {record.first_dealer} deals first"] + \
            [("" if ev.kind in ("hand", "game") else "  ") + ev.text for ev in record.events]


# ----- Two Hundred -----------------------------------------------------------------------------------
class TwoHundred(Adapter):
    name, title = "two-hundred", "Two Hundred"
    view_arg = 6  # decide(kind, sid, table, hand, opts, n_opts, view, rules, rng)
    rng_arg = 8

    layout = "simcards.games.two_hundred.layout"
    kind_names = {"K_BID": "bid", "K_TRUMP": "trump", "K_PLAY": "play", "K_DISCARD": "bury", "K_CALL": "call"}

    def new_game(self, sids, params, seed, game, decide):
        from simcards.games.two_hundred.reference import ReferenceGame

        return ReferenceGame(self.rules, sids, params, seed, game, decide)

    def seat_arrays(self, strategies):
        from simcards.games.two_hundred.game import seat_arrays

        return seat_arrays(strategies, self.rules)

    def strategy_row(self, strategy):
        from simcards.games.engine import seat_arrays

        sids, params = seat_arrays([strategy])
        return int(sids[0]), params[0]

    def owners(self, seats):
        if self.rules.mode == "two-player":
            return set(seats) | {(s + 2) % 4 for s in seats if s < 2}
        return set(seats)

    def side_of(self, seat):
        return self.rules.side_of(seat)

    def hand_of(self, args):
        L = self.L
        mask = int(args[3])
        cards = [int(L.FACE_OF_BIT[b]) for b in range(L.LANE * L.N_SUITS) if mask >> b & 1]
        return sorted(cards, key=lambda c: (c // 13, L.RANK_ORDER.index(c % 13)))

    def rows_of(self, args):
        opts, n_opts = args[4], int(args[5])
        return [(int(opts[i]),) for i in range(n_opts)]

    def label(self, kind, row, args):
        L, x = self.L, row[0]
        if kind == L.K_BID:
            return "pass" if x == 0 else f"bid {x}"
        if kind == L.K_TRUMP:
            from simcards.games.two_hundred.reference import SUIT_NAMES

            return SUIT_NAMES[x] + ("" if x == L.NO_TRUMP else " trump")
        if kind == L.K_PLAY:
            return f"play {card_code(x)}"
        if kind == L.K_DISCARD:
            return f"bury {card_code(x)}"
        if kind == L.K_CALL:
            return f"call {card_code(x)}"
        return str(row)

    def public(self, kind, row, args):
        if kind == self.L.K_DISCARD:
            return "bury a card"
        return self.label(kind, row, args)

    def hint_args(self, args, sid, params, rng):
        a = list(args)
        table = np.array(args[2], dtype=np.float64, copy=True)
        seat = self.seat_of(args)
        width = max(table.shape[1], len(params))
        if width > table.shape[1]:
            table = np.hstack([table, np.zeros((table.shape[0], width - table.shape[1]))])
        table[seat] = 0.0
        table[seat, : len(params)] = params
        a[1], a[2], a[self.rng_arg] = sid, np.ascontiguousarray(table), rng
        return tuple(a)

    def view(self, args):
        L, v, r = self.L, args[self.view_arg], self.rules
        seats, sides = r.seats, r.sides
        leader = int(v[L.V_LEADER])
        trick = [int(c) for c in v[L.V_TRICK_FACES: L.V_TRICK_FACES + seats] if c >= 0]
        order = [(leader + k) % seats for k in range(seats)] if leader >= 0 else []
        return {"seat": int(v[L.V_SEAT]), "deal": int(v[L.V_DEAL]), "dealer": int(v[L.V_DEALER]),
                "hand": self.hand_of(args), "bid": int(v[L.V_BID]), "bidder": int(v[L.V_BIDDER]),
                "bids": [int(b) for b in v[L.V_BIDS: L.V_BIDS + seats]],
                "passed": [s for s in range(seats) if int(v[L.V_PASSED]) >> s & 1],
                "trump": int(v[L.V_TRUMP]), "trick_no": int(v[L.V_TRICK]), "leader": leader,
                "trick": list(zip(order, trick)), "taken": [int(x) for x in v[L.V_TAKEN: L.V_TAKEN + sides]],
                "scores": [int(x) for x in v[L.V_SCORES: L.V_SCORES + sides]],
                "up": {s: self.hand_of((0, 0, 0, int(v[L.V_UP + s]))) for s in range(seats) if v[L.V_UP + s]},
                "target": r.target if hasattr(r, "target") else None}

    def side_name(self, side: int) -> str:
        from simcards.games.two_hundred.reference import side_name

        return side_name(self.rules, side)

    def board(self, view, kind):
        from simcards.games.two_hundred.reference import SUIT_NAMES

        me = view["seat"]
        hand = view["hand"]
        by_suit = "  ".join(cards_text([c for c in hand if c // 13 == s]) for s in range(4) if any(c // 13 == s for c in hand))
        scores = "  ".join(f"{self.side_name(t)} {view['scores'][t]}" for t in range(self.rules.sides))
        lines = [f"deal {view['deal']} (seat {view['dealer']} dealt) · you are seat {me} "
                 f"({self.side_name(self.side_of(me))})",
                 f"scores: {scores}"]
        if view["trump"] < 0:
            bids = "  ".join(f"seat {s} " + ("pass" if s in view["passed"] else str(b) if b else "-")
                             for s, b in enumerate(view["bids"]))
            lines.append(f"auction: {bids}")
        else:
            lines.append(f"contract: seat {view['bidder']} bid {view['bid']}, {SUIT_NAMES[view['trump']]}"
                         + ("" if view["trump"] == self.L.NO_TRUMP else " trump"))
            taken = "  ".join(f"{self.side_name(t)} {view['taken'][t]}" for t in range(self.rules.sides))
            lines.append(f"trick {view['trick_no'] + 1}; points taken: {taken}")
            played = "  ".join(f"seat {s}: {card_code(c)}" for s, c in view["trick"])
            lines.append(f"this trick: {played or '(you lead)'}")
        for s, cards in view["up"].items():
            lines.append(f"seat {s} face up: {cards_text(cards)}")
        lines.append(f"your hand: {by_suit}")
        return lines

    def public_lines(self, engine):
        """Each finished deal: the contract, the points taken and the scores (the kitty's
        buried cards are not named)."""
        rec, out = engine.record, []
        for i, d in enumerate(rec.deals):
            if d.bidder is None:
                out.append((i, f"deal {d.deal}: everybody passed, thrown in"))
                continue
            verdict = "made" if d.made else "failed"
            out.append((i, f"deal {d.deal}: seat {d.bidder} {verdict} {d.bid}; taken: {rec.totals(d.taken)}; "
                        f"totals: {rec.totals(d.scores)}"))
        return out

    def clock(self, engine):
        return len(engine.record.deals)

    def result(self, record):
        return {"winner": int(record.winner), "scores": [int(s) for s in record.scores],
                "deals": len(record.deals), "capped": bool(record.capped)}

    def replay_lines(self, record):
        return record.lines()


ADAPTERS = {"yaniv": Yaniv, "gin": Gin, "two-hundred": TwoHundred}
