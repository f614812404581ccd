"""Cards shared by every game: one small integer per card face.

A face id is ``suit * 13 + rank`` for the 52 standard cards (rank 0 = Ace ... 12 = King;
suits in the order spades, hearts, diamonds, clubs) and 52, 53 for the two jokers.
Games that play two decks hold the same faces twice; games with short decks (Two Hundred)
use a subset. Codes are two characters: rank ``A23456789TJQK`` then suit ``shdc``
(``As``, ``Td``, ``Kh``), and ``Jk`` for a joker.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from simcards.errors import SimcardsError

RANKS = "A23456789TJQK"
SUITS = "shdc"
SUIT_SYMBOLS = "♠♥♦♣"
N_RANKS = 13
N_SUITS = 4
JOKER_A = 52
JOKER_B = 53
N_FACES = 54


class CardError(SimcardsError):
    """A card code or card list that cannot be understood."""


def rank_of(card: int) -> int:
    """Rank 0..12 (Ace low); -1 for a joker."""
    return -1 if card >= 52 else card % 13


def suit_of(card: int) -> int:
    """Suit 0..3; -1 for a joker."""
    return -1 if card >= 52 else card // 13


def is_joker(card: int) -> bool:
    return card >= 52


def make_card(rank: int, suit: int) -> int:
    return suit * 13 + rank


def card_code(card: int) -> str:
    """``12`` → ``'Ks'``; ``52`` → ``'Jk'``."""
    card = int(card)
    if not 0 <= card < N_FACES:
        raise CardError(f"no card has id {card}; ids run 0..53")
    if card >= 52:
        return "Jk"
    return RANKS[card % 13] + SUITS[card // 13]


def parse_card(code: str, jokers: int = 0) -> int:
    """``'Td'`` → its face id. ``'10d'`` is accepted too. Jokers parse as 52 then 53
    (``jokers`` counts the jokers already parsed in the same hand)."""
    text = code.strip()
    if text.lower() in ("jk", "joker", "jo", "*"):
        return JOKER_A + (jokers % 2)
    if text[:2] == "10":
        text = "T" + text[2:]
    if len(text) != 2:
        raise CardError(f"bad card code {code!r}: expected a rank {RANKS} and a suit {SUITS} (e.g. 'As', 'Td'), or 'Jk'")
    rank = RANKS.find(text[0].upper())
    suit = SUITS.find(text[1].lower())
    if suit < 0:
        suit = SUIT_SYMBOLS.find(text[1])
    if rank < 0 or suit < 0:
        raise CardError(f"bad card code {code!r}: expected a rank {RANKS} and a suit {SUITS} (e.g. 'As', 'Td'), or 'Jk'")
    return make_card(rank, suit)


def parse_cards(cards: str | Iterable[str | int]) -> list[int]:
    """A hand written as ``"As 2s Jk"`` (spaces or commas) or as a list of codes or ids."""
    if isinstance(cards, str):
        items: list[str | int] = cards.replace(",", " ").split()
    else:
        items = list(cards)
    out: list[int] = []
    jokers = 0
    for item in items:
        if isinstance(item, (int, np.integer)):
            if not 0 <= int(item) < N_FACES:
                raise CardError(f"no card has id {item}; ids run 0..53")
            out.append(int(item))
        else:
            card = parse_card(str(item), jokers)
            out.append(card)
        jokers += out[-1] >= 52
    return out


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(card_code(c) for c in cards)


def standard_deck(decks: int = 1, jokers: int = 0) -> np.ndarray:
    """Faces of ``decks`` full decks, each with ``jokers`` (0..2) jokers, in id order."""
    one = list(range(52)) + [JOKER_A, JOKER_B][:jokers]
    return np.array(one * decks, dtype=np.int64)
