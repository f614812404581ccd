"""A Two Hundred position given by hand (``simcards advise two-hundred POSITION``): the compact
text's or the JSON file's keys (docs/advice.md) as the arguments the engine hands a strategy at
that decision, and the options' labels.

The position is the deal as the deciding seat saw it: its hand, the seats' bids in turn from the
dealer's left, the trump, the cards played trick by trick (the bidder leads the first, T-LEAD-1;
each trick's winner the next, T-PLAY-3), the kitty it buried as the contractor, the scores. The
view is built as the reference engine builds it while the deal is played (``reference.py``), and
an impossible position is refused in one line: a card twice or not in the deck, a hand of the
wrong size, an illegal or finished auction, a card played by a seat that showed it held none of
that suit, a decision that is not the seat's turn.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from simcards.cards import card_code
from simcards.errors import SimcardsError
from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.core import new_trick
from simcards.games.two_hundred.reference import (
    SUIT_NAMES,
    by_suit,
    deck,
    hand_mask,
    legal_cards,
    points,
    suit,
    winning_card,
)
from simcards.table.position import whole

KEYS = ("hand", "seat", "dealer", "auction", "trump", "buried", "tricks", "score", "decision")
DECISIONS = ("bid", "bury", "trump", "play")
_TRUMPS = {"s": 0, "spades": 0, "h": 1, "hearts": 1, "d": 2, "diamonds": 2, "c": 3, "clubs": 3,
           "nt": 4, "no trump": 4, "notrump": 4, "no-trump": 4, "none": 4}
_GROUP = re.compile(r"^([shdc]):(.*)$", re.IGNORECASE)  # the replay's hands: s:AQ h:A9 d:- c:J109


def cards_of(value: Any, what: str, deck_cards: set[int], size: int) -> list[int]:
    """Cards in the replay's notation: codes (``As Td 10c``) or suit groups as ``replay`` prints
    hands (``s:AQ h:A9 d:A85 c:-``); ``-`` for none. Refuses a card twice or not in the deck."""
    from simcards.cards import RANKS, SUITS, card_code, parse_cards

    if value is None:
        return []
    items = value.replace(",", " ").split() if isinstance(value, str) else [str(x) for x in value]
    codes: list[str] = []
    for item in items:
        m = _GROUP.match(item)
        if not m:
            if item not in ("-", "—"):
                codes.append(item)
            continue
        ranks = m.group(2).upper().replace("10", "T")
        if ranks in ("", "-", "—"):
            continue
        for r in ranks:
            if r not in RANKS:
                raise SimcardsError(f"{what}: {item!r}: {r!r} is not a rank (A K Q J T 9 8 7 6 5)")
            codes.append(r + m.group(1).lower())
    try:
        out = [int(c) for c in parse_cards(codes)]
    except (SimcardsError, ValueError) as exc:
        raise SimcardsError(f"{what}: {exc}") from None
    seen: set[int] = set()
    for c in out:
        if c not in deck_cards:
            raise SimcardsError(f"{what}: {card_code(c)} is not in the {size}-card deck (T-CARD-1)")
        if c in seen:
            raise SimcardsError(f"{what}: {card_code(c)} is given twice")
        seen.add(c)
    assert SUITS == "shdc"
    return out


def _auction(value: Any) -> list[tuple[int | None, int]]:
    """``50 pass 55`` or the replay's ``seat 0 50, seat 1 pass``: (the seat named or None, the bid; 0 a pass)."""
    if value is None:
        return []
    items = value.replace(",", " ").split() if isinstance(value, str) else [str(x) for x in value]
    out: list[tuple[int | None, int]] = []
    named: int | None = None
    i = 0
    while i < len(items):
        word = items[i].lower()
        if word == "seat":
            if i + 1 >= len(items) or not items[i + 1].isdigit():
                raise SimcardsError("auction: 'seat' needs a seat number (e.g. seat 1 pass)")
            named = int(items[i + 1])
            i += 2
            continue
        if word in ("pass", "p", "-", "0"):
            bid = 0
        elif word.isdigit():
            bid = int(word)
        else:
            raise SimcardsError(f"auction: {items[i]!r} is neither a bid nor pass")
        out.append((named, bid))
        named = None
        i += 1
    return out


def _scores(value: Any, sides: int, rules) -> list[int]:
    """Yours, then the other sides' in side order: ``35-20``, ``-40-15``, ``-40 -15`` (T-SC-3: below zero)."""
    if value is None or value == "":
        return [0] * sides
    if isinstance(value, (list, tuple)):
        parts = [str(x) for x in value]
    else:
        text = str(value).replace("–", "-").replace("−", "-").strip()
        parts = text.replace(",", " ").split() if (" " in text or "," in text) else re.split(r"(?<=\d)-", text)
    try:
        out = [int(x) for x in parts]
    except ValueError:
        raise SimcardsError(f"score {value!r}: yours then the others', e.g. 35-20 or -40-15") from None
    if len(out) != sides or any(not rules.hole < x < rules.target for x in out):
        raise SimcardsError(f"score {value!r}: {sides} scores (yours first), each above the hole {rules.hole} and "
                            f"below the target {rules.target} (T-END-1/2)")
    return out


def position_args(position: dict, rules, players: int) -> tuple[tuple, list[str]]:
    """A Two Hundred position: ``hand`` (required), ``seat`` (yours, 0), ``dealer`` (the seat
    before yours: you bid first), ``auction``, ``trump``, ``buried`` (the kitty you buried as the
    contractor, T-V-KITTY / T-V-ROUGH), ``tricks`` (cards in the order played, ``|`` between
    tricks), ``score`` (your side's, then the others'), ``decision`` (``bid``, ``bury``, ``trump``
    or ``play``: by default the one the position is at). Refuses an impossible position in one line."""
    seats, sides = rules.seats, rules.sides
    each = (rules.deck - rules.kitty) // seats
    deck_cards = set(deck(rules.deck))
    seat = whole(position.get("seat"), "seat", 0)
    if not 0 <= seat < seats:
        raise SimcardsError(f"seat {seat}: the table has seats 0..{seats - 1}")
    dealer = whole(position.get("dealer"), "dealer", (seat - 1) % seats)
    if not 0 <= dealer < seats:
        raise SimcardsError(f"dealer {dealer}: the table has seats 0..{seats - 1}")
    hand = cards_of(position.get("hand"), "hand", deck_cards, rules.deck)
    if not hand:
        raise SimcardsError("hand: give the cards of your hand (e.g. hand s:AQ h:A9 d:A85 c:J9)")
    buried = cards_of(position.get("buried"), "buried", deck_cards, rules.deck)
    tricks = _read_tricks(position.get("tricks"), deck_cards, rules.deck)
    played = [c for t in tricks for c in t]
    where: dict[int, str] = {}
    for what, cs in (("hand", hand), ("buried", buried), ("tricks", played)):
        for c in cs:
            if c in where:
                raise SimcardsError(f"{card_code(c)} is given twice ({where[c]} and {what})")
            where[c] = what
    scores = _scores(position.get("score"), sides, rules)
    mine = rules.side_of(seat)
    side_scores = [0] * sides
    side_scores[mine] = scores[0]
    for x, s in zip([t for t in range(sides) if t != mine], scores[1:]):
        side_scores[x] = s

    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_DEALER] = dealer
    view[L.V_DEAL] = 1
    for i in (L.V_BIDDER, L.V_TRUMP, L.V_LEADER, L.V_LEAD_SUIT, L.V_WIN_SEAT, L.V_WIN_FACE, L.V_CALLED, L.V_PARTNER):
        view[i] = -1
    view[L.V_TRICK_FACES: L.V_TRICK_FACES + L.MAX_SEATS] = -1
    view[L.V_ACTIVE] = (1 << seats) - 1
    view[L.V_N_ACTIVE] = seats
    for s in range(L.MAX_SEATS):
        view[L.V_SIDE + s] = rules.side_of(s) if s < seats else -1
        view[L.V_SCORES + s] = side_scores[s] if s < sides else 0

    high, bidder, turn, ended, passed = _read_auction(position.get("auction"), rules, dealer, view)

    trump = _read_trump(position.get("trump"), rules, ended)
    if buried and not (ended and seat == bidder and rules.kitty):
        raise SimcardsError("buried: only the contractor takes the kitty and buries cards (T-V-KITTY, T-V-ROUGH)"
                            + ("" if rules.kitty else f"; {rules.name} has no kitty"))
    if len(buried) > rules.kitty:
        raise SimcardsError(f"buried: {len(buried)} cards; the kitty holds {rules.kitty}")
    if tricks and trump < 0:
        raise SimcardsError("tricks: the play starts once trump is named; give the trump")

    if not ended:
        decision, kind = "bid", L.K_BID
        if turn != seat:
            raise SimcardsError(f"auction: seat {turn} bids next, not you (seat {seat}): give the bids before yours")
        want = each
    elif trump < 0:
        if seat != bidder:
            raise SimcardsError(f"trump: seat {bidder} holds the contract and names trump; give it (trump s/h/d/c) "
                                "to advise on the play")
        if rules.kitty and len(buried) < rules.kitty:
            decision, kind, want = "bury", L.K_DISCARD, each + rules.kitty - len(buried)
        else:
            decision, kind, want = "trump", L.K_TRUMP, each
    else:
        decision, kind = "play", L.K_PLAY
        if rules.kitty and seat == bidder and len(buried) != rules.kitty:
            raise SimcardsError(f"buried: as the contractor you buried {rules.kitty} cards; give them all "
                                "(buried ...)")
        want = each - len(tricks) + (1 if tricks and len(tricks[-1]) < seats else 0)
    asked = str(position.get("decision") or decision).strip().lower()
    if asked not in DECISIONS:
        raise SimcardsError(f"decision {asked!r}: one of {', '.join(DECISIONS)}")
    if asked != decision:
        raise SimcardsError(f"decision {asked}: this position is at a {decision} decision")

    leader = _play_tricks(view, tricks, rules, seat, hand, bidder, trump)
    led_now = None
    if kind == L.K_PLAY:
        done = len(tricks) if not tricks or len(tricks[-1]) == seats else len(tricks) - 1
        if done == each:
            raise SimcardsError("tricks: every trick is played: the deal is over, nothing to decide")
        now = tricks[-1] if tricks and len(tricks[-1]) < seats else []
        if not now:
            new_trick(view, done, leader, L.MAX_SEATS)
        nxt = (leader + len(now)) % seats
        if nxt != seat:
            raise SimcardsError(f"tricks: seat {nxt} plays next, not you (seat {seat})")
        led_now = suit(now[0]) if now else None
        view[L.V_TRUMP] = trump
    if len(hand) != want:
        at = {"bid": "in the auction", "trump": "when naming trump", "bury": f"with the kitty taken and "
              f"{len(buried)} buried", "play": "at this trick"}[decision]
        raise SimcardsError(f"hand: {len(hand)} cards; {at} you hold {want} (T-DEAL-1"
                            + (", T-V-KITTY)" if decision == "bury" else ")"))

    view[L.V_SEAT] = seat
    view[L.V_OWN_SEEN] = hand_mask(buried) if (kind != L.K_BID and seat == bidder) else 0
    options = _options(kind, rules, hand, led_now, seat == dealer and len(passed) == seats - 1,
                       rules.min_bid if bidder < 0 else high + rules.bid_step)
    opts = np.zeros(L.MAX_OPTIONS, dtype=np.int64)
    opts[: len(options)] = options
    args = (kind, 0, None, np.int64(hand_mask(hand)), opts, len(options), view, rules.encode(), None)
    from simcards.games.two_hundred.table import ADAPTER

    adapter = ADAPTER(rules, players)
    labels = [adapter.label(kind, (int(x),), args) for x in options]
    return args, labels


def _read_auction(text, rules, dealer: int, view: np.ndarray) -> tuple[int, int, int, bool, set[int]]:
    """Section 2: the auction, clockwise from the dealer's left (T-BID-1..5), written into ``view``;
    returns the high bid, its bidder (-1: none), the seat to speak next, whether the auction has
    ended (T-BID-4) and the seats that passed."""
    seats = rules.seats
    high, bidder = 0, -1
    passed: set[int] = set()
    turn = (dealer + 1) % seats
    ended = False
    for named, b in _auction(text):
        if ended:
            raise SimcardsError(f"auction: it ended with seat {bidder}'s {high} and everyone else passing (T-BID-4); "
                                "nothing more is bid")
        while turn in passed:  # T-BID-3: a pass is final
            turn = (turn + 1) % seats
        if named is not None and named != turn:
            raise SimcardsError(f"auction: seat {turn} speaks next, not seat {named} (T-BID-1, T-BID-3)")
        barred = not rules.dealer_bids_after_passes and turn == dealer and len(passed) == seats - 1
        lowest = rules.min_bid if bidder < 0 else high + rules.bid_step
        if b and (barred or b < lowest or b > rules.max_bid or (b - lowest) % rules.bid_step):
            why = "the dealer may not bid when all others passed (T-V-ROUGH)" if barred else \
                f"the legal bids are {lowest} to {rules.max_bid} by {rules.bid_step} (T-BID-2)"
            raise SimcardsError(f"auction: seat {turn} bids {b}; {why}")
        if b == 0:
            passed.add(turn)
            view[L.V_PASSED] |= 1 << turn
        else:
            high, bidder = b, turn
            view[L.V_BID], view[L.V_BIDDER], view[L.V_BIDS + turn] = b, turn, b
        if len(passed) == seats:
            raise SimcardsError("auction: everybody passed: the deal is thrown in (T-BID-5), nothing to decide")
        ended = len(passed) == seats - 1 and bidder >= 0
        turn = (turn + 1) % seats
    while not ended and turn in passed:
        turn = (turn + 1) % seats
    return high, bidder, turn, ended, passed


def _read_trump(trump_text, rules, ended: bool) -> int:
    """The trump named (T-TRUMP-1; no trump under T-V-ROUGH), -1 if none; only after the auction."""
    trump = -1
    if trump_text not in (None, "", "-"):
        key = " ".join(str(trump_text).lower().split())
        if key not in _TRUMPS:
            key = key.removesuffix(" trumps").removesuffix(" trump")
        if key not in _TRUMPS or (_TRUMPS[key] == L.NO_TRUMP and not rules.no_trump):
            allowed = "s, h, d, c" + (" or nt" if rules.no_trump else "")
            raise SimcardsError(f"trump {trump_text!r}: {allowed} (T-TRUMP-1"
                                + (", T-V-ROUGH)" if rules.no_trump else "; no trump is T-V-ROUGH's)"))
        trump = _TRUMPS[key]
        if not ended:
            raise SimcardsError("trump: named after the auction; give the whole auction (a bid, then everyone "
                                "else passing, T-BID-4)")
    return trump


def _play_tricks(view: np.ndarray, tricks: list[list[int]], rules, seat: int, hand: list[int], bidder: int,
                 trump: int) -> int:
    """Section 3: the tricks so far (T-LEAD-1, T-PLAY-1..3) written into ``view``, every card checked
    against the voids shown; returns the seat that leads the next trick."""
    seats, sides = rules.seats, rules.sides
    each = (rules.deck - rules.kitty) // seats
    voids: dict[int, dict[int, int]] = {}  # seat -> suit -> the trick it showed the void in
    taken = [0] * sides
    leader = bidder
    if len(tricks) > each:
        raise SimcardsError(f"tricks: {len(tricks)} tricks; a deal has {each}")
    for t, cards in enumerate(tricks):
        if len(cards) > seats:
            raise SimcardsError(f"tricks: trick {t + 1} holds {len(cards)} cards; {seats} seats play to a trick")
        if len(cards) < seats and t < len(tricks) - 1:
            raise SimcardsError(f"tricks: trick {t + 1} holds {len(cards)} cards; only the last may be unfinished")
        new_trick(view, t, leader, L.MAX_SEATS)
        order = [(leader + k) % seats for k in range(seats)]
        led = suit(cards[0])
        for k, c in enumerate(cards):
            s = order[k]
            shown = voids.get(s, {})
            if suit(c) in shown:
                raise SimcardsError(f"tricks: seat {s} plays {card_code(c)} in trick {t + 1} but showed it held no "
                                    f"{SUIT_NAMES[suit(c)]} in trick {shown[suit(c)]} (T-PLAY-1)")
            if suit(c) != led:
                if s == seat and any(suit(h) == led for h in hand):
                    raise SimcardsError(f"tricks: you played {card_code(c)} to a {SUIT_NAMES[led]} lead in trick "
                                        f"{t + 1} while holding {SUIT_NAMES[led]} (T-PLAY-1)")
                voids.setdefault(s, {}).setdefault(led, t + 1)
                view[L.V_VOIDS + s] |= 1 << led
            win = order[winning_card(cards[: k + 1], trump)]
            view[L.V_LEAD_SUIT] = led
            view[L.V_TRICK_FACES + k] = c
            view[L.V_N_IN] = k + 1
            view[L.V_WIN_SEAT] = win
            view[L.V_WIN_FACE] = cards[order.index(win)]
            view[L.V_TRICK_POINTS] = sum(points(x) for x in cards[: k + 1])
            view[L.V_PLAYED] |= 1 << int(L.BIT_OF_FACE[c])
        if len(cards) == seats:
            winner = order[winning_card(cards, trump)]
            taken[rules.side_of(winner)] += sum(points(x) for x in cards)  # T-SC-1
            view[L.V_TAKEN + rules.side_of(winner)] = taken[rules.side_of(winner)]
            leader = winner
    return leader


def _options(kind: int, rules, hand: list[int], led, all_passed_to_dealer: bool, lowest: int) -> list[int]:
    """The legal options of the decision: a bid from ``lowest`` or a pass (T-BID-2; the dealer
    all others passed may only pass unless the rules let it bid, T-V-ROUGH), a card to bury, a
    trump (T-TRUMP-1), a card to play (T-PLAY-1, ``led``: the suit led, None to lead)."""
    if kind == L.K_BID:
        barred = not rules.dealer_bids_after_passes and all_passed_to_dealer
        return [0] + ([] if barred else list(range(lowest, rules.max_bid + 1, rules.bid_step)))
    if kind == L.K_DISCARD:
        return by_suit(hand)
    if kind == L.K_TRUMP:
        return [0, 1, 2, 3] + ([L.NO_TRUMP] if rules.no_trump else [])
    return legal_cards(hand, led)


def _read_tricks(tricks_text, deck_cards: set[int], deck_size: int) -> list[list[int]]:
    """The tricks played, in order (``|`` or ``/`` between tricks, or a list); the last may be
    unfinished."""
    if isinstance(tricks_text, (list, tuple)):
        groups = [t if isinstance(t, str) else " ".join(map(str, t)) for t in tricks_text]
    else:
        groups = [g for g in str(tricks_text or "").replace("/", "|").split("|")]
    tricks = [cards_of(g, "tricks", deck_cards, deck_size) for g in groups]
    while tricks and not tricks[-1]:
        tricks.pop()
    if any(not t for t in tricks):
        raise SimcardsError("tricks: an empty trick between two '|'")
    return tricks
