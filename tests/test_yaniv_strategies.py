"""One contract for every Yaniv strategy, and proof that the heuristic plays better than chance."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import simcards
from simcards.errors import SimcardsError
from simcards.games.yaniv.game import GAME
from simcards.games.yaniv.rules import ISRAELI, PRESETS
from simcards.stats.estimates import wilson
from tests.yaniv_support import kernel_game, reference_game

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = str(ROOT / "simcards" / "data" / "strategies" / "yaniv" / "greedy.py")
PRESET_NAMES = list(PRESETS)
SPECS = ["random", "threshold", "threshold:call=0,keep=1,stock=14,joker_end=20",
         str(ROOT / "simcards" / "data" / "strategies" / "yaniv" / "cautious.toml"), str(ROOT / "simcards" / "data" / "strategies" / "yaniv" / "bold.toml"),
         # the shipped plug-in compiles a Yaniv kernel of its own (~30 s cold): slow lane; the fast lane plays a user
         # policy in both engines in test_policy_safety
         *(pytest.param(s, marks=pytest.mark.slow) for s in (
             PLUGIN + ":greedy", str(ROOT / "simcards" / "data" / "strategies" / "yaniv" / "greedy.toml")))]


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


def _requests(players, spec, games=100, variant="israeli", **rules):
    return simcards.simulate("yaniv", variant=variant, games=games, seed=11, players=players, strategies=[spec],
                             rules={"requests": True, **rules}, detail=False).games


@pytest.mark.parametrize("players", [3, 6])
def test_random_asks_rarely_and_rounds_end_y_v_req(players):
    """Y-V-REQ with random players: a request is made in about ``ask`` of the turns (the poll
    probability is ask / the players who may be polled), so hands do not fill up to the guard and
    the rounds end by calls, never at the turn cap."""
    games = _requests(players, "random")
    assert games["capped_rounds"].sum() == 0 and games["capped"].sum() == 0
    assert 0 < games["requests"].sum() / games["turns"].sum() < 0.03  # ask = 0.02 a turn
    often = _requests(players, "random:ask=0.3", games=30)
    assert 0.15 < often["requests"].sum() / often["turns"].sum() < 0.35
    assert _requests(players, "random:ask=0", games=30)["requests"].sum() == 0


def test_random_ask_changes_nothing_without_requests():
    """``ask`` is read only when a request poll is made: without Y-V-REQ a random seat draws from
    the game's stream as before, whatever ``ask``."""
    a, b = (simcards.simulate("yaniv", variant="adrian", rules={"requests": False}, games=60, seed=4, players=3,
                              strategies=[spec, "threshold", spec]) for spec in ("random", "random:ask=0.9"))
    assert a.games.equals(b.games) and a.rounds.equals(b.rounds)


def _caps_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("caps_yaniv", ROOT / "benchmarks" / "caps_yaniv.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_built_in_strategies_never_hit_a_cap_up_to_six_players():
    """The README's claim, measured (benchmarks/caps_yaniv.py runs the same grid, and more players):
    every preset, as it is and with each single option changed to each value of the grid (Y-V-REQ
    included), played by random and by threshold tables of 4, and the presets at 6 players: no
    round reaches the turn cap and no game the round cap."""
    caps = _caps_script()
    runs = [(label, variant, changes, 4) for label, variant, changes in caps.configurations(PRESET_NAMES)]
    runs += [(variant, variant, {}, 6) for variant in PRESET_NAMES]
    runs += [(f"{variant} requests", variant, {"requests": True}, 6) for variant in ("israeli", "nepali")]
    capped, rounds = [], 0
    for label, variant, changes, players in runs:
        for strategy in caps.STRATEGIES:
            m = caps.measure(variant, changes, strategy, players, 24, 77)
            rounds += m["rounds"]
            if m["capped_rounds"] or m["capped_games"]:
                capped.append((label, strategy, players, m["capped_rounds"]))
    assert rounds > 150_000 and not capped, capped  # the grid was played


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["kluft", "adrian"])
def test_threshold_beats_random_in_the_variants(variant):
    sim = simcards.simulate("yaniv", variant=variant, games=600, seed=7, players=2, strategies=["threshold", "random"],
                            detail=False)
    est = wilson(int((sim.games["winner"] == 0).sum()), len(sim.games))
    assert est.low > 0.6, est


# ----- the kernel's threshold fast path is the table-based definition, decision for decision ------------
from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from simcards.games.yaniv import layout as L  # noqa: E402
from simcards.games.yaniv.fast import threshold_turn  # noqa: E402
from simcards.games.yaniv.groups import SCRATCH, legal_groups  # noqa: E402
from simcards.games.yaniv.policies import P_JOKER_END, P_KEEP, P_STOCK, P_TOP, threshold_decide  # noqa: E402

# Cards drawn often from a few ranks of two suits and the jokers, so that sets, runs and joker
# layouts (and ties between them) are common.
CARDS = st.one_of(st.integers(0, 53), st.sampled_from([0, 1, 2, 3, 4, 13, 14, 15, 16, 52, 53]))


@settings(max_examples=400, deadline=None)
# Two decks: throwing both 5s of 5s 5s 7s leaves no 5s, so the 6s on offer builds nothing (take the stock).
@example(cards=[4, 4, 6], extra=[5], pickup="ends", wild=True, pair=True, values=(10, 10, 10), stock_n=7, keep=0.5,
         stock=6.0, joker_end=1.0, top=1.0)
@given(cards=st.lists(CARDS, min_size=1, max_size=9),
       extra=st.lists(CARDS, min_size=1, max_size=4, unique=True),
       pickup=st.sampled_from(["ends", "any_set", "any", "top"]), wild=st.booleans(), pair=st.booleans(),
       values=st.sampled_from([(10, 10, 10), (0, 10, 10), (11, 12, 13)]), stock_n=st.sampled_from([0, 7]),
       keep=st.sampled_from([0.0, 0.3, 0.5, 1.0]), stock=st.sampled_from([0.0, 3.0, 6.0, 14.0]),
       joker_end=st.sampled_from([0.0, 1.0, 20.0]), top=st.sampled_from([0.0, 1.0, 5.0]))
def test_fast_threshold_turn_is_threshold_decide(cards, extra, pickup, wild, pair, values, stock_n, keep, stock,
                                                 joker_end, top):
    """fast.threshold_turn (what the kernel plays for a threshold seat) throws the group and takes
    the card that policies.threshold_decide (what the reference engine asks, over the full option
    table) chooses, on any hand of up to 9 cards from two decks, any pickup rule and parameters —
    ties included (Y-DIS, Y-DRAW-2)."""
    rules = ISRAELI.replace(decks=2, pickup=pickup, jokers_wild=wild, joker_pair_set=pair, kluft=pickup == "top",
                            face_values=values).encode()
    hand = np.zeros(L.MAX_HAND, dtype=np.int64)
    n = len(cards)
    hand[:n] = sorted(cards)
    avail = np.zeros(L.MAX_HAND, dtype=np.int64)
    avail[:len(extra)] = sorted(extra)
    params = np.zeros(16)
    params[P_KEEP], params[P_STOCK], params[P_JOKER_END], params[P_TOP] = keep, stock, joker_end, top
    total = int(sum(rules[32 + c] for c in cards))
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_TOTAL], view[L.V_STOCK], view[L.V_AVAIL_N] = total, stock_n, len(extra)
    view[L.V_AVAIL:L.V_AVAIL + len(extra)] = sorted(extra)
    rng = np.zeros(1, dtype=np.uint64)
    # The definition: score the table, then the draw with the hand that is left.
    table = np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64)
    n_opts = legal_groups(hand, n, rules, table, np.zeros(L.MAX_OPTIONS, dtype=np.int64), np.zeros(SCRATCH, np.int64))
    a = threshold_decide(L.K_DISCARD, params, hand, n, table, n_opts, view, rules, rng)
    group = [int(c) for c in table[a, 1:1 + table[a, 0]]]
    left = list(hand[:n])
    for c in group:
        left.remove(c)
    rest = np.zeros(L.MAX_HAND, dtype=np.int64)
    rest[:len(left)] = left
    draws = ([-1] if stock_n > 0 else []) + sorted(extra)
    options = np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64)
    for i, face in enumerate(draws):
        options[i, 0], options[i, 1] = 1, face
    view[L.V_THROWN_N] = len(group)
    view[L.V_THROWN:L.V_THROWN + len(group)] = group
    d = threshold_decide(L.K_DRAW, params, rest, len(left), options, len(draws), view, rules, rng)
    # The fast path.
    thrown = np.zeros(L.MAX_HAND, dtype=np.int64)
    row, length, pick, rows = threshold_turn(hand, n, rules, params, total, stock_n, avail, len(extra),
                                             np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64),
                                             np.zeros(L.MAX_OPTIONS, dtype=np.int64), np.zeros(SCRATCH, np.int64), thrown)
    assert (row, rows) == (a, n_opts)
    assert [int(c) for c in thrown[:length]] == group
    assert (-1 if pick < 0 else int(avail[pick])) == draws[d]
