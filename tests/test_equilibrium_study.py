"""`simcards equilibrium`: a population of strategies played profile by profile; the symmetric
equilibrium, regrets and α-rank from the estimated payoff table (simcards.studies.equilibrium)."""

import math

import numpy as np
import pytest

from simcards.cli import main
from simcards.studies import equilibrium
from simcards.studies.equilibrium import profile_lineups


def test_profile_seatings_give_every_strategy_every_side_equally_often():
    for counts in ([2, 1, 1], [3, 1], [1, 1, 1, 1], [2, 2], [4]):
        lineups = profile_lineups(np.array(counts))
        sides = len(lineups[0])
        for i, c in enumerate(counts):
            held = [sum(lu[s] == i for lu in lineups) for s in range(sides)]
            assert len(set(held)) == 1 and held[0] * sides == c * len(lineups)


def test_random_gets_no_weight_and_a_negative_regret_yaniv_two_players():
    res = equilibrium("yaniv", ["random", "threshold", "threshold:call=1"], players=2, games=200, seed=3,
                      bootstrap=20)
    eq = res.tables["equilibrium"].set_index("strategy")
    assert eq.loc["random", "weight"] < 1e-3
    assert eq.loc["random", "regret_high"] < 0  # random loses against the mixture, on every resample
    assert math.isclose(eq["weight"].sum(), 1.0)
    assert res.summary["max_regret"] < 1e-6
    # k=3 strategies at 2 sides: 6 profiles; each in its distinct seatings (1 or 2)
    assert res.summary["profiles"] == 6
    inv = res.tables["invasion"]
    diag = inv[inv["strategy"] == inv["field"]]
    assert np.allclose(diag["win_share"], 0.5)  # self-play: the fair share (a game always has a winner)
    # issue 28: intervals on every payoff cell (items 4, 11), the resamples' support shares, no α-rank (item 5)
    pay = res.tables["payoffs"]
    for table in (pay, inv):
        assert (table["low"] <= table["win_share"] + 1e-12).all() and (table["win_share"] <= table["high"] + 1e-12).all()
    assert (inv["high"] > inv["low"]).sum() >= 6 - 3  # every cell but the self-play diagonal has a width
    assert not any("alpha" in c for c in eq.columns) and eq["in_support_share"].between(0, 1).all()
    assert "α-rank" not in " ".join(res.notes)


def test_adaptive_spends_fewer_games_than_the_flat_grid_when_the_answer_is_clear():
    res = equilibrium("gin", ["random", "simple"], games=400, seed=1, bootstrap=0, target=0.05)
    assert res.summary["games_played"] < res.summary["flat_grid_games"]
    assert res.summary["support"] == ["simple"]


def test_same_seed_same_answer():
    a = equilibrium("yaniv", ["threshold", "threshold:call=2"], players=3, games=120, seed=5, bootstrap=10)
    b = equilibrium("yaniv", ["threshold", "threshold:call=2"], players=3, games=120, seed=5, bootstrap=10)
    for name in a.tables:
        assert a.tables[name].equals(b.tables[name])


def test_cli_prints_the_answer_and_refuses_bad_input_in_one_line(capsys):
    code = main(["equilibrium", "yaniv", "--players", "2", "--family", "threshold", "--param", "call=1..2",
                 "-n", "60", "--bootstrap", "5", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Symmetric equilibrium" in out and "threshold:call=1" in out
    for args, words in ((["--family", "threshold"], "--param"),
                        (["--strategy", "random,threshold", "--family", "threshold", "--param", "call=1,2"], "not both"),
                        (["--strategy", "random"], "at least two"),
                        (["--strategy", "random,random"], "twice")):
        code = main(["equilibrium", "yaniv", "--players", "2", "-n", "10", "--no-progress", *args])
        out, err = capsys.readouterr()
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, (args, err)


@pytest.mark.slow
def test_report_spec_with_an_equilibrium_study(tmp_path):
    from simcards.report import build_report

    spec = {"title": "eq", "study": [{"kind": "equilibrium", "game": "yaniv", "players": 2,
                                        "family": "threshold", "params": ["call=0..2"], "games": 100,
                                        "bootstrap": 10}]}
    paths = build_report(spec, tmp_path / "r")
    md = (tmp_path / "r" / "report.md").read_text()
    assert "if the other players adapt too" in md and paths["figures"]


def test_adaptive_stops_when_no_profile_left_moves_the_regrets():
    # an unreachable target: the old loop then filled every profile to the flat grid one at a time;
    # profiles the mixture puts no weight on (random against random) gain nothing from more deals
    res = equilibrium("yaniv", ["random", "threshold:call=1", "threshold:call=3"], players=2, games=400, seed=2,
                      bootstrap=0, target=1e-9)
    pay = res.tables["payoffs"].drop_duplicates("profile").set_index("profile")["deals"]
    assert res.summary["games_played"] < res.summary["flat_grid_games"]
    assert pay["2×random"] < 400
    assert pay.max() == 400  # the profiles that decide the answer still get every deal


def test_same_tables_whatever_the_thread_count():
    a = equilibrium("yaniv", ["threshold", "threshold:call=2"], players=3, games=120, seed=5, bootstrap=5, threads=1)
    b = equilibrium("yaniv", ["threshold", "threshold:call=2"], players=3, games=120, seed=5, bootstrap=5, threads=2)
    for name in a.tables:
        assert a.tables[name].equals(b.tables[name]), name


def test_game_length_at_the_equilibrium_and_per_strategy():
    # Y-CALL-1: a player may call only at or under the threshold, so a table calling at 0 (jokers
    # alone) plays far more rounds than one calling at 5
    res = equilibrium("yaniv", ["threshold:call=0", "threshold"], variant="fast", players=2, games=150, seed=4,
                      bootstrap=0)
    lt = res.tables["length"].set_index("table")
    assert lt.loc["everyone plays threshold:call=0", "rounds"] > 2 * lt.loc["everyone plays threshold", "rounds"]
    assert lt.loc["everyone plays threshold", "turns"] > lt.loc["everyone plays threshold", "rounds"]
    pure = res.summary["support"][0]
    if len(res.summary["support"]) == 1:  # a pure equilibrium lasts as long as that strategy's self-play
        assert math.isclose(res.summary["rounds_at_equilibrium"], lt.loc[f"everyone plays {pure}", "rounds"])


def test_edge_notes_say_whether_the_sweep_or_the_game_ends_there():
    from simcards.studies.common import Arena
    from simcards.studies.equilibrium import edge_notes, population

    t = Arena("yaniv", "fast", 2)  # Y-V-LIMIT: calls only at or under 7
    strats = population(t, family="threshold", params=["call=0,3,7"])
    low, mid, high = (edge_notes(t, strats, np.eye(3)[i]) for i in range(3))
    assert mid == []
    assert len(low) == 1 and "call=0, the lowest value that can be played" in low[0]
    assert len(high) == 1 and "call=7" in high[0] and "Y-V-LIMIT" in high[0]
    inner = population(t, family="threshold", params=["call=2..4"])
    note = edge_notes(t, inner, np.eye(3)[2])
    assert len(note) == 1 and "extend the sweep" in note[0]
