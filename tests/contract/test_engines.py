"""The contract, engines side, for every game of the registry and every strategy family (in the
spirit of OpenSpiel's random-simulation tests): the reference engine and the kernel play the same
games move for move; cards are conserved; built-in strategies only ever choose a legal option."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.games import get_game
from simcards.games.base import GameDef
from tests.contract.registry import default_table, family_cases, game_names, reference_games

SEED = 20261202


def assert_same_transcripts(gdef, rules, players, strategies, games) -> None:
    """Row for row; the reference raises on an option out of range (``on_invalid="error"``), so
    a built-in strategy that ever chose an illegal option fails here too (legal-only)."""
    for game in games:  # game i of seed SEED + i: a new seed each time
        k, r = gdef.transcripts(rules, players, strategies, SEED + game, game)
        assert len(k) > 0, f"{gdef.name}: game {game} left an empty transcript"
        if k.shape != r.shape or not np.array_equal(k, r):
            m = min(len(k), len(r))
            diff = np.flatnonzero((k[:m] != r[:m]).any(axis=1))
            at = int(diff[0]) if len(diff) else m
            pytest.fail(f"{gdef.name} {[s.spec for s in strategies]} seed {SEED + game} game {game}: engines differ at row "
                        f"{at}: kernel {k[at].tolist() if at < len(k) else None}, "
                        f"reference {r[at].tolist() if at < len(r) else None}")


@pytest.mark.parametrize("game,family", family_cases())
def test_engines_agree_move_for_move(game, family):
    gdef = get_game(game)
    assert_same_transcripts(gdef, *default_table(gdef, family), reference_games(game, family, 2))


@pytest.mark.slow
@pytest.mark.parametrize("game,family", family_cases(long_ones=False))
def test_engines_agree_move_for_move_more_games(game, family):
    gdef = get_game(game)
    assert_same_transcripts(gdef, *default_table(gdef, family, mirror=True), range(2, 12))  # one engine per family


@pytest.mark.parametrize("game", game_names())
def test_engines_agree_with_every_family_at_one_table(game):
    gdef = get_game(game)
    assert_same_transcripts(gdef, *default_table(gdef, list(gdef.families())[::-1]), range(2))


def audit_cards(gdef, rules, players, strategies, game: int) -> None:
    """The game's ``card_audit`` of a kernel transcript (every game must provide one)."""
    if type(gdef).card_audit is GameDef.card_audit:
        pytest.fail(f"{gdef.name} gives no way to check that cards are conserved: implement GameDef.card_audit")
    k, _ = gdef.transcripts(rules, players, strategies, SEED, game)
    problems = gdef.card_audit(rules, players, k)
    assert problems == [], f"{gdef.name} game {game}: {problems[:3]}"


@pytest.mark.parametrize("game,family", family_cases())
def test_cards_are_conserved(game, family):
    gdef = get_game(game)
    for g in reference_games(game, family, 2):
        audit_cards(gdef, *default_table(gdef, family), g)


def test_the_card_audit_catches_a_card_played_twice():
    """The audit can fail: a transcript in which a card is dealt twice, or played from another hand."""
    gdef = get_game("high-card")
    rules, players, strategies = default_table(gdef, "greedy")
    k, _ = gdef.transcripts(rules, players, strategies, SEED, 0)
    assert gdef.card_audit(rules, players, k) == []
    dup = k.copy()
    dup[1, 3] = dup[0, 3]  # seat 1 is dealt seat 0's low card
    assert gdef.card_audit(rules, players, dup)
    foreign = k.copy()
    plays = np.flatnonzero(foreign[:, 0] == 2)
    foreign[plays[0], 3] = 52 if foreign[plays[0], 3] != 52 else 51
    assert gdef.card_audit(rules, players, foreign)
