"""One contract for every Yaniv strategy, and proof that the heuristic plays better than chance."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import simcards
from simcards.errors import SimcardsError
from simcards.games.yaniv.game import GAME
from simcards.games.yaniv.rules import ISRAELI
from simcards.stats import wilson
from tests.yaniv_support import kernel_game, reference_game

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = str(ROOT / "strategies" / "yaniv" / "greedy.py")
SPECS = ["random", "threshold", "threshold:call=0,keep=1,stock=14,joker_end=20",
         str(ROOT / "strategies" / "yaniv" / "cautious.toml"), str(ROOT / "strategies" / "yaniv" / "bold.toml"),
         PLUGIN + ":greedy", str(ROOT / "strategies" / "yaniv" / "greedy.toml")]


@pytest.mark.parametrize("spec", SPECS)
def test_strategy_contract(spec):
    """Every strategy: parses, plays whole games in every seat against the others, never hits a
    cap, and plays identically in both engines (so it sees only its own view)."""
    sim = simcards.simulate("yaniv", games=300, seed=1, players=3, strategies=[spec, "threshold", "random"])
    assert sim.summary["capped_games"] == 0
    assert sim.games["winner"].between(0, 2).all()
    for game in range(5):
        klog = kernel_game(ISRAELI, 3, [spec, "threshold", "random"], 8, game)[0]
        rlog = reference_game(ISRAELI, 3, [spec, "threshold", "random"], 8, game).log_array()
        assert np.array_equal(klog, rlog)


def test_specs_round_trip_and_defaults():
    s = GAME.strategies(["threshold:call=3"], 1)[0]
    assert s.spec == "threshold:call=3" and dict(s.values)["keep"] == 0.5
    assert GAME.strategies(None, 2)[0].spec == "threshold"
    with pytest.raises(SimcardsError, match="has no parameter"):
        GAME.strategies(["threshold:colour=1"], 1)
    with pytest.raises(SimcardsError, match="not a number"):
        GAME.strategies(["threshold:call=x"], 1)


def test_toml_for_another_game_is_refused(tmp_path):
    f = tmp_path / "g.toml"
    f.write_text('game = "gin"\nfamily = "knock"\n')
    with pytest.raises(SimcardsError, match="is for 'gin'"):
        GAME.strategies([str(f)], 2)


def test_broken_plugin_is_one_line(tmp_path):
    f = tmp_path / "broken.py"
    f.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(SimcardsError, match="could not load policy file.*boom"):
        GAME.strategies([f"{f}:x"], 2)


@pytest.mark.slow
def test_threshold_beats_random_head_to_head():
    """Seats rotate through the first-starter draw; 2,000 games give a sharp interval."""
    sim = simcards.simulate("yaniv", games=2000, seed=99, players=2, strategies=["threshold", "random"], detail=False)
    est = wilson(int((sim.games["winner"] == 0).sum()), len(sim.games))
    assert est.low > 0.75, est


# ----- section-5 decisions: every threshold parameter changes play, and random covers each kind -----
def _games(variant, spec, games=150, players=4, seed=3):
    return simcards.simulate("yaniv", variant=variant, games=games, seed=seed, players=players, strategies=[spec],
                             detail=False).games


def test_request_and_grant_parameters_y_v_req():
    never = _games("adrian", "threshold:request=-1,group=0")
    eager = _games("adrian", "threshold:request=13")
    assert never["requests"].sum() == 0 and eager["requests"].sum() > 10 * len(eager)
    keep_all = _games("adrian", "threshold:request=13,refuse=13")  # the mover always keeps the card
    give_all = _games("adrian", "threshold:request=13,refuse=-1,group=0")  # always agrees
    assert keep_all["requests_granted"].sum() == 0
    assert (give_all["requests_granted"] == give_all["requests"]).all() and give_all["requests"].sum() > 0


def test_slam_parameter_y_v_slam():
    never = _games("adrian", "threshold:slam=0")
    lowers = _games("adrian", "threshold:slam=1")
    always = _games("adrian", "threshold:slam=2")
    assert never["slams"].sum() == 0
    assert 0 < lowers["slams"].sum() / lowers["rounds"].sum() <= always["slams"].sum() / always["rounds"].sum()


def test_onderkluft_parameters_y_v_kluft():
    never = _games("kluft", "threshold:onder=-1,onder_history=0")
    bold = _games("kluft", "threshold:onder=4,onder_history=10")
    assert never["onderklufts"].sum() == 0 and bold["onderklufts"].sum() > 0


def test_overcall_only_onto_a_reset_y_v_overcall():
    sim = _games("adrian", "threshold", games=300)
    assert sim["overcalls"].sum() > 0  # deliberate overcalls happen ...
    assert _games("adrian", "threshold:reset_aim=0")["overcalls"].sum() == 0  # ... and only by reset_aim


def test_random_covers_every_new_decision():
    sim = _games("adrian", "random", games=100)
    assert sim["overcalls"].sum() > 0 and sim["requests"].sum() > 0 and sim["slams"].sum() > 0
    assert 0 < sim["requests_granted"].sum() < sim["requests"].sum()
    assert _games("kluft", "random", games=200)["onderklufts"].sum() > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["kluft", "adrian"])
def test_threshold_beats_random_in_the_variants(variant):
    sim = simcards.simulate("yaniv", variant=variant, games=600, seed=7, players=2, strategies=["threshold", "random"],
                            detail=False)
    est = wilson(int((sim.games["winner"] == 0).sum()), len(sim.games))
    assert est.low > 0.6, est
