"""Two Hundred at the table: the step interface's adapter (``simcards.table.games.Adapter``)."""

from __future__ import annotations

import numpy as np

from simcards.cards import card_code
from simcards.table.games import Adapter, cards_text


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


ADAPTER = TwoHundred
