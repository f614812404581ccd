"""Two Hundred's contract hooks (tests/contract runs them over every family): the card audit of a
kernel transcript and the view twins. Both can fail: a transcript that loses or invents a card
(T-DEAL-1, T-PLAY-1), and an engine that shows a strategy another seat's hand."""

from __future__ import annotations

import numpy as np

from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.game import GAME


def _table(spec: str, variant: str | None = None):
    rules = GAME.build_rules(variant)
    players = GAME.players_for(rules)
    return rules, players, GAME.strategies([spec], players)


def test_card_audit_catches_a_card_played_twice_or_from_another_hand_t_play_1():
    rules, players, strategies = _table("heuristic", "kitty")
    k, _ = GAME.transcripts(rules, players, strategies, 17, 0)
    assert GAME.card_audit(rules, players, k) == []
    plays = np.flatnonzero(k[:, 0] == L.EV_PLAY)
    twice = k.copy()
    twice[plays[4], 3] = twice[plays[0], 3]  # a card played again (and one never played)
    assert GAME.card_audit(rules, players, twice)
    foreign = k.copy()
    other = next(i for i in plays if k[i, 2] != k[plays[0], 2] and k[i, 1] == k[plays[0], 1])
    foreign[plays[0], 3] = k[other, 3]  # seat plays a card of another seat's hand
    assert GAME.card_audit(rules, players, foreign)
    dealt = k.copy()
    hands = np.flatnonzero(k[:, 0] == L.EV_HAND)
    dealt[hands[1], 3] |= dealt[hands[0], 3]  # seat 1 is dealt seat 0's cards as well
    assert GAME.card_audit(rules, players, dealt)


def test_view_twins_catch_an_engine_that_shows_the_next_hand(monkeypatch):
    # No peeking: a strategy sees only its view. The reference engine is changed to show each decider
    # the next seat's hand among the cards only it sees (V_OWN_SEEN): the heuristic's card play
    # reads it (the cards still out), so some decisions change once the hidden cards are dealt again.
    from simcards.games.two_hundred.reference import ReferenceGame

    rules, players, strategies = _table("heuristic")
    honest = GAME.view_twins(rules, players, strategies, 17, 0)
    assert honest and all(a == b for a, b in honest)
    seen_by = ReferenceGame.seen_by

    def peeking(self, seat, hands, up, buried, view):
        return seen_by(self, seat, hands, up, buried, view) + list(hands[(seat + 1) % self.rules.seats])

    monkeypatch.setattr(ReferenceGame, "seen_by", peeking)
    pairs = [p for g in range(3) for p in GAME.view_twins(rules, players, strategies, 17, g)]
    assert any(a != b for a, b in pairs)
