"""Gin Rummy at the table: the step interface's adapter (``simcards.table.games.Adapter``)."""

from __future__ import annotations

from simcards.cards import card_code
from simcards.table.games import Adapter, cards_text, mask_cards


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


ADAPTER = Gin
