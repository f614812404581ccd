"""Yaniv's contract hooks (simcards/games/yaniv/contract.py) can fail: the card audit names a card
dealt twice or drawn from nowhere, and the view twins catch a view that shows hidden cards. (The
contract suite, tests/contract/, runs both hooks over every family.)"""

from __future__ import annotations

import numpy as np

from simcards.games.yaniv import layout as L
from simcards.games.yaniv import reference
from simcards.games.yaniv.game import GAME


def _transcript(variant="israeli", specs=("threshold", "random", "threshold"), seed=5, game=0):
    rules = GAME.build_rules(variant)
    players = len(specs)
    k, _ = GAME.transcripts(rules, players, GAME.strategies(list(specs), players), seed, game)
    return rules, players, k


def test_the_card_audit_accepts_whole_games_and_catches_a_card_dealt_twice():
    """Y-DEAL-1 and Y-CARD-1: one deck, so a card dealt to two seats is one card too many."""
    rules, players, k = _transcript()
    assert GAME.card_audit(rules, players, k) == []
    hands = np.flatnonzero(k[:, 0] == L.EV_HAND)
    dup = k.copy()
    dup[hands[1], 5] = dup[hands[0], 5]  # seat 1 is dealt seat 0's first card
    assert GAME.card_audit(rules, players, dup)


def test_the_card_audit_catches_a_stock_draw_of_a_card_in_view():
    """Y-DRAW-1: a card drawn from the stock cannot be the face-up card lying on the pile."""
    rules, players, k = _transcript()
    bad = k.copy()
    up = np.flatnonzero(bad[:, 0] == L.EV_UPCARD)[0]
    draws = np.flatnonzero((bad[:, 0] == L.EV_DRAW) & (bad[:, 3] < 0) & (np.arange(len(bad)) > up))
    bad[draws[0], 4] = bad[up, 3]
    assert GAME.card_audit(rules, players, bad)


def test_the_card_audit_follows_requests_slams_and_kluft():
    """Y-V-REQ, Y-V-SLAM and Y-V-KLUFT move cards too (adrian plays requests and slams)."""
    for variant, specs in (("adrian", ("random", "threshold:request=6,slam=2", "random")),
                           ("kluft", ("threshold", "random", "threshold", "random"))):
        rules, players, k = _transcript(variant, specs, seed=3)
        assert GAME.card_audit(rules, players, k) == [], variant


def test_view_twins_catch_a_view_that_shows_hidden_cards(monkeypatch):
    """informed reads the cards each opponent is known to hold (V_KNOWN): honest, its decisions
    never change when the hidden cards are dealt again; with a view that marks every opponent's
    cards as known, some do."""
    rules, players = GAME.build_rules("israeli"), 3
    strategies = GAME.strategies(["informed"] * players, players)
    honest_pairs = [p for g in range(2) for p in GAME.view_twins(rules, players, strategies, 17, g)]
    assert honest_pairs and all(a == b for a, b in honest_pairs)
    honest = reference.ReferenceGame.view

    def peeking(self, seat, hands, *rest):
        v = honest(self, seat, hands, *rest)
        for p, cards in hands.items():
            if p != seat:
                v[L.V_KNOWN + p] = sum(1 << c for c in set(cards))
        return v

    monkeypatch.setattr(reference.ReferenceGame, "view", peeking)
    pairs = [p for g in range(2) for p in GAME.view_twins(rules, players, strategies, 17, g)]
    assert any(a != b for a, b in pairs)
