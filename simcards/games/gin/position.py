"""A Gin position given by hand (``simcards advise gin POSITION``): the compact text's or the JSON
file's keys (docs/advice.md) as the arguments the engine hands a strategy at that decision, and the
options' labels. You are seat 0; the opponent seat 1."""

from __future__ import annotations

import numpy as np

from simcards.errors import SimcardsError
from simcards.table.position import cards, whole

KEYS = ("hand", "top", "pile", "took", "discarded", "passed", "score", "stock", "dealer", "decision", "turn", "limit")


def position_args(position: dict, rules, players: int = 2) -> tuple[tuple, list[str]]:
    """A Gin position (``parse_position``'s keys) as the arguments the engine hands a strategy,
    and the options' labels. Refuses an impossible position with one line."""
    from simcards.cards import card_code
    from simcards.games.gin import layout as L
    from simcards.games.gin.melds import deadwood
    from simcards.games.gin.rules import R_KNOCK, R_MV

    encoded = rules.encode()
    mv = int(encoded[R_MV])
    hand = cards(position.get("hand"), "hand")
    if not hand:
        raise SimcardsError("hand: give the cards of your hand (e.g. hand As Ah 7h ...)")
    top_cards = cards(position.get("top"), "top")
    if len(top_cards) > 1:
        raise SimcardsError("top: give one card (the discard pile's top)")
    top = top_cards[0] if top_cards else -1
    pile = cards(position.get("pile"), "pile")
    if top >= 0 and top not in pile:
        pile.append(top)
    took = cards(position.get("took"), "took")
    discarded = cards(position.get("discarded"), "discarded")
    passed = cards(position.get("passed"), "passed")
    for c in hand:
        if c in pile:
            raise SimcardsError(f"{card_code(c)} is both in your hand and in the discard pile")
    decision = str(position.get("decision") or ("discard" if len(hand) == 11 else "draw")).lower()
    kinds = {"draw": L.K_DRAW, "upcard": L.K_UPCARD, "discard": L.K_DISCARD, "knock": L.K_KNOCK}
    if decision not in kinds:
        raise SimcardsError(f"decision {decision!r}: one of {', '.join(kinds)}")
    kind = kinds[decision]
    want = 11 if kind == L.K_DISCARD else 10
    if len(hand) != want:
        raise SimcardsError(f"hand: {len(hand)} cards; a {decision} decision needs {want} (G-DEAL-1)")
    if kind in (L.K_DRAW, L.K_UPCARD) and top < 0:
        raise SimcardsError(f"top: a {decision} decision needs the discard pile's top card")
    limit = whole(position.get("limit"), "limit", int(encoded[R_KNOCK]))
    mask = 0
    for c in hand:
        mask |= 1 << c
    bits = lambda cs: sum(1 << c for c in cs)  # noqa: E731
    known = bits(took) & ~bits(pile) & ~mask
    free = 52 - len(hand) - len(pile) - bin(known).count("1")
    opp_hidden = 10 - bin(known).count("1")
    if opp_hidden < 0:
        raise SimcardsError("took: the opponent holds 10 cards; more than 10 of the cards it took are still in its hand")
    stock = whole(position.get("stock"), "stock", free - opp_hidden)
    if not 0 <= stock <= free - opp_hidden:
        raise SimcardsError(f"stock: {stock} cards; with your hand, the pile and the opponent's 10 cards "
                            f"at most {free - opp_hidden} are left")
    dealer = str(position.get("dealer") or "opponent").lower()
    if dealer not in ("me", "you", "opponent", "them"):
        raise SimcardsError(f"dealer {dealer!r}: me or opponent")
    score = str(position.get("score") or "0-0").replace("–", "-")
    try:
        mine, theirs = (int(x) for x in score.split("-"))
    except ValueError:
        raise SimcardsError(f"score {score!r}: give it as mine-theirs, e.g. 35-20") from None
    if not (0 <= mine < rules.game_target and 0 <= theirs < rules.game_target):
        raise SimcardsError(f"score {score}: each below the game target {rules.game_target}")
    my_turns = whole(position.get("turn"), "turn", len(discarded))
    dw = deadwood(np.int64(mask), mv)
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_SEAT] = 0
    view[L.V_DEALER] = 0 if dealer in ("me", "you") else 1
    view[L.V_HAND] = 1
    view[L.V_TURN] = my_turns + len(discarded)
    view[L.V_MY_TURNS] = my_turns
    view[L.V_STOCK] = stock
    view[L.V_TOP] = top
    view[L.V_LIMIT] = limit
    view[L.V_MY_SCORE], view[L.V_OPP_SCORE], view[L.V_TARGET] = mine, theirs, rules.game_target
    view[L.V_MASK] = mask
    view[L.V_OPP_TOOK] = bits(took)
    view[L.V_OPP_DISCARDS] = bits(discarded)
    view[L.V_PILE] = bits(pile)
    view[L.V_TAKEN] = -1
    view[L.V_FIRST] = 1 if kind == L.K_UPCARD else 0
    view[L.V_OPP_PASSED] = bits(passed)
    view[L.V_STAKE] = 1
    view[L.V_KNOCK_CARD] = -1
    view[L.V_THIRD_SCORE] = -1
    view[L.V_PLAYERS] = 2
    opts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
    labels: list[str] = []
    rows: list[tuple[int, ...]]
    if kind == L.K_DISCARD:
        rows = []
        for c in sorted(hand):
            rows.append((c, int(deadwood(np.int64(mask & ~(1 << c)), mv))))
        view[L.V_DW] = min(r[1] for r in rows)
        labels = [f"discard {card_code(c)} (deadwood {d})" for c, d in rows]
    elif kind == L.K_KNOCK:
        if dw > limit:
            raise SimcardsError(f"decision knock: your deadwood {dw} is over the knock limit {limit}")
        rows = [(0, int(dw)), (1, int(dw))]
        view[L.V_DW] = dw
        labels = ["play on", "go gin" if dw == 0 else f"knock with {dw}"]
    else:
        m11 = mask | (1 << top)
        after = min(int(deadwood(np.int64(m11 & ~(1 << c)), mv)) for c in hand)
        rows = [(0, -1), (1, top, int(deadwood(np.int64(m11), mv)), after)]
        view[L.V_DW] = dw
        first = "decline the upcard" if kind == L.K_UPCARD else "draw from the stock"
        labels = [first, f"take {card_code(top)} (then deadwood {after})"]
    for i, row in enumerate(rows):
        opts[i, : len(row)] = row
    hand_arr = np.zeros(L.MAX_HAND, dtype=np.int64)
    hand_arr[: len(hand)] = sorted(hand)
    args = (kind, 0, None, hand_arr, len(hand), opts, len(rows), view, encoded, None)
    return args, labels
