"""``simcards advise`` / ``analyze`` on Yaniv: a two-player call decision whose Asaf chance is exact
(Y-SC-2: calling is an Asaf when the other player holds an equal or lower total), by brute force
over every hand the opponent may hold; the annotated game is the replay's."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simcards.cli.app import main
from simcards.games.yaniv import layout as L
from simcards.games.yaniv.rules import R_DECKS, R_JOKERS, R_VALUES
from simcards.rng import seat_states
from simcards.table import start
from simcards.table.advise import advise
from simcards.table.analyze import analyze


def call_table():
    """Seed 2's two-player game played by threshold until seat 0 may call with a total of 3 or
    more and the other seat holds 2 or 3 cards (an Asaf neither sure nor impossible)."""
    t = start("yaniv", players=2, seed=2, against="threshold", seats=0)
    stream = seat_states(2, 0, 2)[0]
    while not t.done:
        v = t.view
        if t.kind == "call" and len(t.options) == 2 and v["total"] >= 3 and v["hand_sizes"][1] in (2, 3):
            return t
        t.apply(t.choose("threshold", stream))
    raise AssertionError("no such call decision in this game")


def exact_asaf(args) -> float:
    """Every hand the opponent may hold: its known cards plus a uniform draw of the unseen ones
    (the deck less the pile, the own hand and the known cards, G-INFO of Yaniv's public memory)."""
    hand, n, view, rules = args[3], int(args[4]), args[7], args[8]
    me = int(view[L.V_SEAT])
    opp = 1 - me
    count = np.zeros(L.N_FACES, dtype=np.int64)
    for f in range(52 + int(rules[R_JOKERS])):
        count[f] = int(rules[R_DECKS]) - int(view[L.V_SEEN + f])
    for c in hand[:n]:
        count[c] -= 1
    known = [f for f in range(L.N_FACES) if int(view[L.V_KNOWN + opp]) >> f & 1]
    for f in known:
        count[f] -= 1
    pool = [f for f in range(L.N_FACES) for _ in range(max(int(count[f]), 0))]
    size = int(view[L.V_SIZES + opp]) - len(known)
    base = sum(int(rules[R_VALUES + f]) for f in known)
    mine = int(view[L.V_TOTAL])
    hits = total = 0
    for combo in itertools.combinations(pool, size):
        total += 1
        hits += base + sum(int(rules[R_VALUES + f]) for f in combo) <= mine
    return hits / total


def test_the_call_decision_asaf_chance_is_exact():
    """Y-SC-2, two players: the share of sampled deals in which calling is an Asaf agrees with the
    exact chance (brute force over the opponent's possible hands) within two half-widths of its
    95% interval, and the search player's exact formula gives the same number."""
    from simcards.games.yaniv.search import asaf_probability

    t = call_table()
    try:
        args = t.decision.args
        exact = exact_asaf(args)
        assert 0.0 < exact < 1.0
        assert asaf_probability(args[3], int(args[4]), args[7], args[8]) == pytest.approx(exact, abs=1e-9)
        adv = advise("yaniv", t, samples=4000, seed=5)
        call = next(o for o in adv.options if o.asaf is not None)
        assert call.label.startswith("call")
        lo, hi = call.asaf_ci
        assert abs(call.asaf - exact) <= hi - lo, (call.asaf, exact)
        assert [o.asaf for o in adv.options if not o.label.startswith("call")] == [None]
        assert adv.wins is not None and adv.measure == "gain this round"  # two players: the value table
    finally:
        t.close()


def test_each_deal_scores_the_round_as_the_rules_do():
    """Y-SC-1/2, two players: the round scores the evaluator hands the value table. Calling: the
    caller 0 and the other its hand (Y-SC-1), or on an Asaf the caller its total + 30 (Y-SC-2);
    the other's score is its sampled hand's total either way; playing on, every deal's scores give
    back the round value the rollout returned (the caller is found in every deal)."""
    from simcards.games.yaniv.advice import option_values
    from simcards.rng import new_state
    from simcards.spec import RunSpec
    from simcards.table.advise import mc_params

    t = call_table()
    try:
        args = t.decision.args
        kind, hand, n, opts, n_opts, view, rules = args[0], args[3], int(args[4]), args[5], int(args[6]), \
            args[7], args[8]
        k = 400
        out = np.zeros((k, n_opts))
        asaf = np.zeros(k, dtype=np.int64)
        scores = np.zeros((k, n_opts, 2), dtype=np.int64)
        params = mc_params("yaniv", RunSpec.resolve("yaniv", players=2).rules)
        assert option_values(kind, params, np.ascontiguousarray(hand, dtype=np.int64), n, opts, n_opts, view, rules,
                             new_state(7, 0), out, asaf, scores)
        call = next(a for a in range(n_opts) if int(opts[a, 1]) == 1)
        mine = int(view[L.V_TOTAL])
        assert (scores[:, call, 0] == np.where(asaf == 1, mine + 30, 0)).all()
        assert (scores[:, call, 1] > 0).all() and 0 < asaf.sum() < k
        me = int(view[L.V_SEAT])
        old_me, old_opp = int(view[L.V_SCORES + me]), int(view[L.V_SCORES + 1 - me])
        for a in range(n_opts):  # no reset or elimination this early: the value is the score difference
            assert old_me + scores[:, a, 0].max() < 100 and old_opp + scores[:, a, 1].max() < 100
            assert np.array_equal(out[:, a], (scores[:, a, 1] - scores[:, a, 0]).astype(float))
    finally:
        t.close()


def test_two_player_values_sum_to_one_and_reset_and_eliminate():
    """Y-ELIM-1 (over out_over is out), Y-RESET-1 (exactly 200 -> 100, 100 -> 50), Y-ELIM-2 (both
    over: the lower total wins): the value table of two players read after a round."""
    from simcards.spec import RunSpec
    from simcards.table.value import win_table

    t = win_table("yaniv", RunSpec.resolve("yaniv", players=2).rules)
    v = t.values
    assert v.shape == (201, 201, 2) and np.allclose(v[:, :, 1] + v[:, :, 0].T, 1.0, atol=1e-8)
    assert t.after_hand(-190, -100, -15, 0, True) == 0.0  # 205: out
    assert t.after_hand(-190, -195, -15, -12, True) == 1.0  # both out, 205 against 207: the lower wins
    assert t.after_hand(-190, -195, -15, -10, False) == 0.5  # 205 against 205: extra rounds, even
    # landing on exactly 200 is being at 100 (the reset, no cascade to 50); on 199 is much worse
    at_reset = t.after_hand(-190, -150, -10, 0, True)
    same = t.next_same(-10, 0, True)
    assert at_reset == pytest.approx(same * t.p_win(-100, -150, True) + (1 - same) * t.p_win(-100, -150, False))
    assert at_reset > t.after_hand(-189, -150, -10, 0, True) + 0.2
    assert t.p_win(0, -190, True) > 0.9 and t.p_win(-190, 0, False) < 0.1


def test_the_annotated_yaniv_game_is_the_replay(capsys):
    """The seat's threshold strategy plays from its own stream: the analysed game is the replay's."""
    res = analyze("yaniv", players=2, seed=1, game_index=0, samples=20)
    assert main(["replay", "yaniv", "--players", "2", "--seed", "1", "--game", "0"]) == 0
    replay = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert replay and [e for e in res.events if e.startswith("  ")] == replay
    kinds = {d.kind for d in res.decisions if d.advice is not None}
    assert {"call", "discard", "draw"} <= kinds
    assert "gain" in res.text() and "Asaf" in res.text()


def test_a_call_position_by_hand_has_the_exact_asaf_chance():
    """Y-SC-2 from a position typed by hand (two players, the other holding 2 unknown cards): the
    Asaf share of the sampled deals against the enumeration of every hand it may hold."""
    from simcards.games.yaniv.position import position_args
    from simcards.spec import RunSpec

    pos = {"hand": "2s Ad Ac Jk", "take": "5s", "pile": "9h Qd", "sizes": "2", "score": "40-120"}
    args, labels = position_args(pos, RunSpec.resolve("yaniv", players=2).rules, 2)
    assert labels == ["play on", "call Yaniv"]
    exact = exact_asaf(args)
    adv = advise("yaniv", pos, players=2, samples=4000, seed=2)
    call = adv.options[1]
    assert adv.scores == (40, 120) and 0 < exact < 0.2
    assert abs(call.asaf - exact) <= call.asaf_ci[1] - call.asaf_ci[0], (call.asaf, exact)


@pytest.mark.parametrize("position,words", [
    ("hand 7s 7s 7s; take 4c", "7s is given 3 times"),
    ("hand 7s 7h 8h 9h Kd; decision call", "over the call limit"),
    ("hand 7s 7h; sizes 5 5", "give 3 hand sizes"),
    ("hand 7s 7h; top 4c", "Gin key"),
    ("hand 7s 7h; known 4c 5c 6c 7c 8c 9c | - | -", "known: 6 cards known for seat 1"),
    ("hand 7s 7h; score 0-0-0-250", "4 scores from 0 to 200"),
])
def test_an_impossible_yaniv_position_is_refused_in_one_line(position, words, capsys):
    assert main(["advise", "yaniv", position]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err, err


def test_kluft_is_refused_in_one_line(capsys):
    assert main(["analyze", "yaniv", "--variant", "kluft", "--samples", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Kluft" in err, err


def test_a_planted_yaniv_blunder_is_marked_by_the_win_chance_it_lost():
    """Two players (Y-ELIM-1, the value table): seat 0's 154th decision of game 0 of seed 1 (40-79)
    throws the 9h; throwing the joker instead (0 points, Y-DIS-1) gives away more than 8 points
    of win chance: a blunder (??), where threshold's own throw is not marked."""
    played = analyze("yaniv", players=2, seed=1, game_index=0, samples=200)
    planted = analyze("yaniv", players=2, seed=1, game_index=0, samples=200, plays={154: "throw Jk"})
    own, bad = played.decisions[153], planted.decisions[153]
    assert own.played_label == "throw 9h" and bad.played_label == "throw Jk"
    assert bad.advice is not None and bad.advice.wins is not None and bad.advice.scores == (40, 79)
    assert bad.mark == "??" and bad.win_lost >= 0.08 and bad.win_lost_ci[0] > 0.0, (bad.win_lost, bad.win_lost_ci)
    assert own.mark == ""
