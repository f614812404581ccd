"""A Yaniv position given by hand (``simcards advise yaniv POSITION``): the compact text's or the
JSON file's keys (docs/advice.md) as the arguments the engine hands a strategy at that decision,
and the options' labels. You are seat 0."""

from __future__ import annotations

from typing import Any

import numpy as np

from simcards.errors import SimcardsError
from simcards.table.position import whole

GIN_KEYS = ("top", "took", "discarded", "passed", "dealer", "limit")  # accepted, to say whose keys they are
KEYS = ("hand", "top", "pile", "took", "discarded", "passed", "score", "stock", "dealer", "decision", "turn", "limit",
        "take", "sizes", "known")


def _faces(value: Any, what: str) -> list[int]:
    """Yaniv cards (two decks may repeat a face; a joker is any joker)."""
    from simcards.cards import parse_cards

    if value is None:
        return []
    items = value.replace(",", " ").split() if isinstance(value, str) else list(value)
    if items in ([], ["-"], ["—"]):
        return []
    try:
        return [int(c) for c in parse_cards(items)]
    except (SimcardsError, ValueError) as exc:
        raise SimcardsError(f"{what}: {exc}") from None


def position_args(position: dict, rules, players: int) -> tuple[tuple, list[str]]:
    """A Yaniv position: ``hand``, ``take`` (the previous discard's cards you may take), ``pile``
    (the other cards lying in the discard pile), ``sizes`` (the others' hand sizes, in seat order
    after you), ``score`` (yours, then the others', ``-`` between), ``known`` (cards known in the
    others' hands, ``|`` between seats), ``stock``, ``turn`` (discards made this round) and
    ``decision`` (``call`` or ``discard``; by default ``call`` when the hand may call, Y-CALL-1).
    You are seat 0. Refuses an impossible position with one line."""
    from simcards.cards import card_code
    from simcards.games.yaniv import layout as Y
    from simcards.games.yaniv.reference import legal_groups
    from simcards.games.yaniv.rules import R_DECKS
    from simcards.games.yaniv.table import ADAPTER

    bad = [k for k in position if k in GIN_KEYS]
    if bad:
        raise SimcardsError(f"{bad[0]!r} is a Gin key; Yaniv's: hand, take, pile, sizes, score, known, stock, turn, "
                            "decision")
    enc = rules.encode()
    hand = _faces(position.get("hand"), "hand")
    if not hand:
        raise SimcardsError("hand: give the cards of your hand (e.g. hand As 2s Jk)")
    if len(hand) > Y.MAX_HAND - 1:
        raise SimcardsError(f"hand: {len(hand)} cards; a Yaniv hand holds at most {Y.MAX_HAND - 1}")
    take = _faces(position.get("take"), "take")
    pile = _faces(position.get("pile"), "pile")
    others = players - 1
    sizes_text = str(position.get("sizes") or " ".join(["5"] * others))
    try:
        sizes = [int(x) for x in sizes_text.replace(",", " ").split()]
    except ValueError:
        raise SimcardsError(f"sizes {sizes_text!r}: the others' hand sizes, e.g. 5 5 5") from None
    if len(sizes) != others or any(not 1 <= x < Y.MAX_HAND for x in sizes):
        raise SimcardsError(f"sizes {sizes_text!r}: give {others} hand sizes from 1 (one per other seat; --players "
                            "sets the table)")
    score_text = str(position.get("score") or "-".join(["0"] * players)).replace("–", "-")
    try:
        scores = [int(x) for x in score_text.split("-")]
    except ValueError:
        raise SimcardsError(f"score {score_text!r}: yours then the others', e.g. 20-35-50-10") from None
    if len(scores) != players or any(not 0 <= x <= rules.out_over for x in scores):
        raise SimcardsError(f"score {score_text!r}: {players} scores from 0 to {rules.out_over}")
    known_text = str(position.get("known") or "")
    parts = [p for p in known_text.split("|")] if known_text else []
    if len(parts) > others:
        raise SimcardsError(f"known: {len(parts)} seats given, the table has {others} others")
    known = [_faces(p, "known") for p in parts] + [[] for _ in range(others - len(parts))]
    for p, cards in enumerate(known):
        if len(cards) > sizes[p]:
            raise SimcardsError(f"known: {len(cards)} cards known for seat {p + 1}, which holds {sizes[p]}")
    everything = hand + take + pile + [c for cards in known for c in cards]
    copies = np.zeros(Y.N_FACES, dtype=np.int64)
    for c in everything:
        copies[min(c, 52) if c >= 52 else c] += 1
    decks = int(enc[R_DECKS])
    for f in range(Y.N_FACES):
        allowed = decks * (2 if f == 52 else 1) if f < 52 or rules.jokers else 0
        if copies[f] > allowed:
            name = "a joker" if f >= 52 else card_code(f)
            raise SimcardsError(f"{name} is given {copies[f]} times; the deck holds {allowed}")
    free = rules.deck_size - len(everything) - sum(sizes) + sum(len(k) for k in known)
    stock = whole(position.get("stock"), "stock", free)
    if not 0 <= stock <= free:
        raise SimcardsError(f"stock: {stock} cards; with the hands and the pile at most {free} are left")
    turn = whole(position.get("turn"), "turn", players)
    from simcards.games.yaniv.groups import hand_total

    hand_arr = np.zeros(Y.MAX_HAND, dtype=np.int64)
    hand_arr[: len(hand)] = sorted(hand)
    total = int(hand_total(hand_arr, len(hand), enc))
    can_call = rules.call_limit is None or total <= rules.call_limit
    decision = str(position.get("decision") or ("call" if can_call else "discard")).lower()
    if decision not in ("call", "discard"):
        raise SimcardsError(f"decision {decision!r}: call or discard (a draw needs the group just thrown)")
    if decision == "call" and not can_call:
        raise SimcardsError(f"decision call: your total {total} is over the call limit {rules.call_limit} (Y-CALL-1)")
    view = np.zeros(Y.VIEW_SIZE, dtype=np.int64)
    view[Y.V_SEAT], view[Y.V_PLAYERS], view[Y.V_ALIVE_N] = 0, players, players
    view[Y.V_TURN], view[Y.V_STOCK], view[Y.V_ROUND], view[Y.V_TOTAL] = turn, stock, 1, total
    view[Y.V_AVAIL_N] = len(take)
    view[Y.V_AVAIL: Y.V_AVAIL + len(take)] = take
    view[Y.V_SCORES: Y.V_SCORES + players] = scores
    view[Y.V_SIZES] = len(hand)
    view[Y.V_SIZES + 1: Y.V_SIZES + players] = sizes
    view[Y.V_ALIVE: Y.V_ALIVE + players] = 1
    for c in take + pile:
        view[Y.V_SEEN + c] += 1
    for p, cards in enumerate(known):
        for c in cards:
            view[Y.V_KNOWN + p + 1] |= 1 << c
    opts = np.zeros((Y.MAX_OPTIONS, Y.ROW), dtype=np.int64)
    rows: list[tuple[int, ...]]
    if decision == "call":
        kind, rows = Y.K_CALL, [(0,), (1,)]
    else:
        kind, rows = Y.K_DISCARD, list(legal_groups(sorted(hand), rules))
        if len(rows) > Y.MAX_OPTIONS:
            raise SimcardsError(f"hand: {len(rows)} legal discards, more than the engine's {Y.MAX_OPTIONS}")
    for i, row in enumerate(rows):
        opts[i, 0] = len(row)
        opts[i, 1: 1 + len(row)] = row
    args = (kind, 0, None, hand_arr, len(hand), opts, len(rows), view, enc, None)
    adapter = ADAPTER(rules, players)
    labels = [adapter.label(kind, tuple(row), args) for row in rows]
    return args, labels
