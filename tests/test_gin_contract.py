"""Gin's contract hooks (simcards/games/gin/contract.py) can fail: the card audit names a card dealt
twice, a discard the player does not hold and a stock draw of a card in view; the view twins catch a
view that shows the opponent's hand or the stock, and keep what the decider knows. (The contract
suite, tests/contract/, runs both hooks over every family of the standard game.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simcards.games.base import full_log
from simcards.games.gin import kernel, reference
from simcards.games.gin import layout as L
from simcards.games.gin import rules as R
from simcards.games.gin.game import GAME, engine_for, seat_arrays

SEED = 20261202
LOWBALL = str(Path(__file__).resolve().parents[1] / "simcards/data/strategies/gin/lowball.py") + ":lowball"


def _table(specs, variant: str | None = None):
    rules = GAME.build_rules(variant)
    players = GAME.players_for(rules)
    return rules, players, GAME.strategies(list(specs), players)


def _kernel_log(rules, strategies, seed: int, game: int) -> np.ndarray:
    """The kernel's transcript alone (the reference engine of some variants is slow)."""
    play_game = engine_for(strategies).play_game
    sids, params = seat_arrays(strategies)
    rows, out = np.zeros((0, R.hand_width(rules)), dtype=np.int32), np.zeros(L.G_WIDTH, dtype=np.int64)
    return full_log(lambda log: play_game(game, seed, rules.encode(), sids, params, out, rows, 0, log),
                    kernel.LOG_WIDTH)


@pytest.mark.parametrize("variant", ["standard", "oklahoma-second-deck", "deal-11", "three-player",
                                     "tedesco-teams", "mahjong"])
def test_the_card_audit_accepts_whole_games_of_every_table_shape(variant):
    """G-DEAL-2 with G-V-OKLA's second deck, G-V-DEAL11, G-V-3P, team tables (G-V-4P) and G-V-MJ's
    pickups and table cards: every card accounted for."""
    rules, players, strategies = _table(["knock"], variant)
    for g in range(2):
        assert GAME.card_audit(rules, players, _kernel_log(rules, strategies, SEED, g)) == [], (variant, g)


def _standard_log():
    rules, players, strategies = _table(["knock"])
    k = _kernel_log(rules, strategies, SEED, 0)
    assert GAME.card_audit(rules, players, k) == []
    return rules, players, k


def test_the_card_audit_catches_a_card_dealt_twice():
    """G-DEAL-2: one deck, so a card dealt to both players is one card too many."""
    rules, players, k = _standard_log()
    deals = np.flatnonzero(k[:, 0] == L.EV_DEAL)
    dup = k.copy()
    dup[deals[1], 6] = dup[deals[0], 6]  # the second player is dealt the first one's lowest card
    problems = GAME.card_audit(rules, players, dup)
    assert any("is dealt" in p for p in problems), problems


def test_the_card_audit_catches_a_discard_the_player_does_not_hold():
    """G-TURN-2: a player discards one of its own cards; here the first discard is one of the
    opponent's dealt cards."""
    rules, players, k = _standard_log()
    first = np.flatnonzero(k[:, 0] == L.EV_DISCARD)[0]
    seat = k[first, 2]
    deals = np.flatnonzero((k[:, 0] == L.EV_DEAL) & (np.arange(len(k)) < first))[-2:]
    theirs = next(d for d in deals if k[d, 2] != seat)
    bad = k.copy()
    bad[first, 3] = k[theirs, 6]
    problems = GAME.card_audit(rules, players, bad)
    assert any("does not hold" in p for p in problems), problems


def test_the_card_audit_catches_a_stock_draw_of_the_upcard():
    """G-DEAL-2/G-TURN-1: the upcard lies face up on the pile; the stock cannot give it."""
    rules, players, k = _standard_log()
    up = np.flatnonzero(k[:, 0] == L.EV_UPCARD)[0]
    draw = next(i for i in range(up, len(k)) if k[i, 0] == L.EV_DRAW and k[i, 3] == 0)
    bad = k.copy()
    bad[draw, 4] = k[up, 3]
    assert GAME.card_audit(rules, players, bad)


# --- view twins ------------------------------------------------------------------------------------
# knock with `avoid` penalises discarding a card that melds with a card the opponent took (V_OPP_TOOK):
# a view that marks more cards as taken changes some of its discards.
AVOIDER = ["knock:avoid=5"]


def _pairs(specs=AVOIDER, games=range(2)):
    rules, players, strategies = _table(specs)
    return [p for g in games for p in GAME.view_twins(rules, players, strategies, 17, g)]


def _showing(monkeypatch, cards, only: bool = False):
    """The reference engine's view, with ``cards(game, seat)`` marked as taken by the opponent (with
    ``only``, instead of the cards it took)."""
    honest = reference.ReferenceGame.view

    def peeking(self, seat, *args, **kwargs):
        v = honest(self, seat, *args, **kwargs)
        v[L.V_OPP_TOOK] = reference._mask(cards(self, seat)) | (0 if only else v[L.V_OPP_TOOK])
        return v

    monkeypatch.setattr(reference.ReferenceGame, "view", peeking)


def test_view_twins_agree_for_an_honest_view():
    """G-INFO-1: the strategy sees only its view; every decision is asked."""
    pairs = _pairs()
    assert len(pairs) > 100 and all(a == b for a, b in pairs)


@pytest.mark.parametrize("peek", ["hand", "stock"])
def test_view_twins_catch_a_view_that_shows_hidden_cards(monkeypatch, peek):
    """G-INFO-1: a view that shows the opponent's hand, or the next cards of the stock, makes some
    decisions change once the hidden cards are dealt again."""
    if peek == "hand":
        _showing(monkeypatch, lambda game, seat: game.hands[game.opponent(seat)])
    else:
        _showing(monkeypatch, lambda game, seat: game.stock[-3:])
    pairs = _pairs()
    assert any(a != b for a, b in pairs)


def test_view_twins_keep_the_cards_the_opponent_took():
    """G-INFO-1: a card the opponent took from the pile is seen. A view that shows, as the cards it
    took, only those it still holds (read from its hand) shows nothing hidden (the strategy reads
    the taken cards not on the pile and not its own: the same cards), and the twins keep those cards
    in its hand (a redeal that dealt them away changes decisions here)."""
    shown = []

    def known(game, seat):
        o = game.opponent(seat)
        held = game.hands[o] & game.took[o]
        shown.append(len(held))
        return held

    with pytest.MonkeyPatch.context() as mp:
        _showing(mp, known, only=True)
        pairs = _pairs(games=range(4))
    assert sum(n > 0 for n in shown) > 20  # the opponent held taken cards at many decisions
    assert pairs and all(a == b for a, b in pairs)


@pytest.mark.parametrize("specs", [["deep", "simple"], [LOWBALL, "knock"]])
def test_view_twins_of_a_preset_and_a_user_policy(specs):
    """The shipped `deep` preset (mc) and a user policy see only their views too."""
    pairs = _pairs(specs, range(1))
    assert pairs and all(a == b for a, b in pairs)
