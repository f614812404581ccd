"""The step interface (simcards.table) plays the reference engine's own game.

A game driven one decision at a time, each of the caller's decisions answered with what a strategy
chooses from that seat's own random stream, must end exactly as the reference engine's game of the
same seed with that strategy at every seat: the same transcript, row for row, and the same result
(every preset of every game). Illegal options give one line; undo takes back the caller's move.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcards.errors import SimcardsError
from simcards.games import get_game
from simcards.rng import seat_states
from simcards.table import start
from simcards.table.games import adapter as adapter_of

PRESETS = [(g, v) for g in ("yaniv", "gin", "two-hundred") for v in get_game(g).presets()]


def reference_game(table, strategies):
    """The reference engine's own game for ``table``'s seed, rules and ``strategies``."""
    adapter = adapter_of(table.game)(table.spec.rules, table.spec.players)
    sids, params = adapter.seat_arrays(strategies)
    decide = table._binding.engine(strategies).decide
    return adapter, adapter.new_game(sids, params, table.seed, table.game_index, decide).play()


def drive(table, spec: str) -> int:
    """Answer every pending decision with ``spec``'s choice from the deciding seat's stream."""
    streams = seat_states(table.seed, table.game_index, 8)  # stream s is seat s's, whatever the count
    steps = 0
    while not table.done:
        table.apply(table.choose(spec, streams[table.player]))
        steps += 1
    return steps


@pytest.mark.parametrize("game,variant", PRESETS)
def test_a_game_driven_step_by_step_is_the_reference_engines_game(game, variant):
    gdef = get_game(game)
    spec = gdef.default_strategy
    t = start(game, variant=variant, seed=11, game_index=2, against=spec, seats=0)
    steps = drive(t, spec)
    assert steps > 0
    adapter, ref = reference_game(t, list(t.strategies))
    assert np.array_equal(t.record.log_array(), ref.log_array())
    assert t.result == adapter.result(ref)
    assert t.player is None and t.options == () and t.result["winner"] >= 0


@pytest.mark.parametrize("game,spec", [("yaniv", "random"), ("gin", "random"), ("two-hundred", "random"),
                                       ("gin", "knock:max=5")])
def test_every_seat_driven_self_play_matches_too(game, spec):
    players = get_game(game).default_players
    t = start(game, seed=5, against=spec, seats=list(range(players)))
    drive(t, spec)
    adapter, ref = reference_game(t, list(t.strategies))
    assert np.array_equal(t.record.log_array(), ref.log_array())
    assert all(m.mine for m in t.history)


@pytest.mark.parametrize("game", ["yaniv", "gin", "two-hundred"])
def test_a_different_choice_changes_the_game_and_undo_takes_it_back(game):
    t = start(game, seed=3, against="random")
    while len(t.options) < 2:  # a decision with a real choice
        t.apply(0)
    before = (t.player, t.kind, t.options, t.view["hand"])
    n = len(t.actions)
    t.apply(len(t.options) - 1)
    assert len(t.actions) == n + 1
    t.undo()
    assert (t.player, t.kind, t.options, t.view["hand"]) == before
    assert len(t.actions) == n


@pytest.mark.parametrize("game", ["yaniv", "gin", "two-hundred"])
def test_an_illegal_option_is_one_line_and_changes_nothing(game):
    t = start(game, seed=0, against="random")
    options, actions = t.options, t.actions
    for bad in (len(options), -1, "no such move", ""):
        with pytest.raises(SimcardsError) as err:
            t.apply(bad)
        assert "\n" not in str(err.value)
    assert t.options == options and t.actions == actions
    with pytest.raises(SimcardsError, match="nothing to undo"):
        t.undo()


@pytest.mark.parametrize("game", ["yaniv", "gin", "two-hundred"])
def test_options_by_label_and_the_view_hides_what_the_seat_cannot_see(game):
    t = start(game, seed=4, against="random")
    label = t.options[-1].label
    view = t.view
    assert view["seat"] == t.player == 0
    hand = view["hand"]
    assert len(hand) == len(set(hand)) > 0
    # the view is the seat's information set: no other seat's cards in it
    assert "hands" not in view
    t.apply(label.upper())  # labels ignore case
    assert t.history[[m.mine for m in t.history].index(True)].label == label


def test_a_gin_replay_is_refused_until_the_end_and_bad_starts_are_one_line():
    t = start("gin", seed=1, against="random")
    with pytest.raises(SimcardsError, match="not over"):
        t.replay()
    for kw in ({"seats": 5}, {"seats": []}, {"game_index": -1}, {"against": "nonsense"}, {"variant": "nope"}):
        with pytest.raises(SimcardsError) as err:
            start("gin", **kw)
        assert "\n" not in str(err.value)


def test_yaniv_and_gin_bots_hidden_draws_stay_hidden_in_the_history():
    """Y-DRAW-1: a card drawn from the stock is seen only by its taker; G-INFO-1 the same in Gin;
    T-V-KITTY: buried cards are face down."""
    t = start("yaniv", seed=2, against="random")
    for _ in range(12):
        t.apply(0)
    bot_draws = [m.label for m in t.history if not m.mine and m.kind == "draw"]
    assert bot_draws and all(lbl == "draw from the stock" or lbl.startswith("take ") for lbl in bot_draws)
    t = start("gin", seed=2, against="random")
    for _ in range(12):
        t.apply(0)
    assert all("deadwood" not in m.label for m in t.history if not m.mine)


def test_gin_hints_name_a_legal_option():
    t = start("gin", seed=6, against="simple")
    hint = t.hint("knock")
    assert len(hint) == 1 and hint[0][0] in t.options and hint[0][1] == 1
    assert t.actions == []  # a hint takes no move


@pytest.mark.parametrize("game", ["yaniv", "gin", "two-hundred"])
def test_the_table_log_tells_round_ends_in_order_and_no_hidden_card(game):
    """Y-DEAL-1, G-DEAL-2, T-DEAL-1: dealt hands are private; Y-DRAW-1 / G-TURN-1: a stock draw is
    seen by its taker only; T-V-KITTY: buried cards face down. Round and hand ends are public."""
    t = start(game, seed=9, against="random")
    while not t.done:
        t.apply(0)
    log = t.log()
    assert [m for m, _ in log if m is not None] == t.history
    texts = [text for m, text in log if m is None]
    assert texts  # a round, hand or deal ended in public
    hidden = ("is dealt", "from the stock (", "from the stock →", "buries")
    assert not any(h in text for text in texts for h in hidden)
    replay = t.replay()
    assert all(text in replay for text in texts if game != "two-hundred")
    assert "is dealt" in replay or "deals —" in replay  # the replay, at the end, shows them
