"""Yaniv at the table: the step interface's adapter (``simcards.table.games.Adapter``)."""

from __future__ import annotations

from simcards.cards import card_code
from simcards.table.games import Adapter, cards_text


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


ADAPTER = Yaniv
