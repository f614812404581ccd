"""Issue 28 (items 1, 2, 7, 8): every study gives one clear answer first, in the same words on the
command line, in --json and in the report; pairs that play identically are said; units are right."""

import json
import re

from simcards.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


# ----- item 1: a weaker side that plays exactly like the stronger one -------------------------------
def test_compare_gin_straight_says_identical_play_and_measures_skill_against_a_side_that_differs():
    from simcards.studies import compare

    # In straight gin nobody may knock: the default weaker side knock:max=0 plays exactly like simple.
    res = compare("gin", ["standard", "straight"], games=12, seed=0)
    sk = res.meta["skill"]
    assert sk["weak"] != "knock:max=0" and sk["default_weak"] == "knock:max=0"
    assert sk["identical"] == {"knock:max=0": ["straight"]}
    assert any("knock:max=0 plays exactly like simple in straight" in n for n in res.notes)
    est = res.tables["estimates"]
    row = est[(est["variant"] == "straight") & (est["metric"] == "skill_win_rate")].iloc[0]
    assert row["high"] > row["low"]  # a real matchup, not 50.0% [50.0, 50.0]
    # a weaker side the user chose is kept, but said, and that variant is not ranked for skill
    res = compare("gin", ["standard", "straight"], games=12, seed=0, weak="knock:max=0")
    assert res.meta["skill"]["weak"] == "knock:max=0" and res.meta["skill"]["identical"] == {"knock:max=0": ["straight"]}
    from simcards.report.build import compare_answer

    ans = compare_answer(res)
    skill_rows = [r for r in ans["table"].rows if r[0].startswith("Rewards skill most")]
    assert not skill_rows or "straight" not in (skill_rows[0][1] + skill_rows[0][3])
    assert any("plays exactly like simple in straight" in s for s in ans["lead"])


# ----- item 2: one recommendation, the others shown as what they are --------------------------------
def test_equilibrium_yaniv_answer_is_one_recommendation_with_its_reason():
    from simcards.report.build import answers
    from simcards.studies import equilibrium, tune

    eq = equilibrium("yaniv", family="threshold", params=["call=1,3,5"], players=2, games=60, seed=3, bootstrap=5)
    (ans,) = answers([eq])
    first = ans["lead"][0]
    assert first.startswith("Play **")
    assert "if the other players adapt" in first
    assert "a table that keeps playing `threshold`" in first and "best response" in first
    assert re.search(r"nobody gains more than \d+\.\d\d pts by switching alone", first)  # a regret is in points
    assert re.search(r"gains at most \d+\.\d\d pts against it", eq.notes[0])
    # no second answer competes with it: α-rank, where shown, says it is a ranking, not advice
    assert all("not a recommendation" in s for s in ans["lead"] + ans["sentences"] if "α-rank" in s)
    assert sum(s.startswith("Play") for s in ans["lead"] + ans["sentences"]) == 1
    # in a report with the matching best-response sweep, the sweep's best value is the one named
    tu = tune("yaniv", "threshold", ["call=1..2"], players=2, games=40, seed=3, confirm=0)
    _, eq_ans = answers([tu, eq])
    assert f"`{tu.summary['best_spec']}`" in eq_ans["lead"][0] and "best response" in eq_ans["lead"][0]


# ----- item 7: the answer first, on the command line and in --json ---------------------------------
def test_cli_compare_yaniv_prints_the_answer_first_and_json_carries_it(capsys):
    code, out, err = run(capsys, "compare", "yaniv", "--variants", "israeli,nepali", "-n", "30", "--no-skill",
                         "--no-progress")
    assert code == 0, err
    lines = [x for x in out.splitlines() if x.strip()]
    assert lines[0].startswith("Fastest:") and "**" not in lines[0]
    assert out.index("Fastest:") < out.index("Per variant")
    code, out, err = run(capsys, "compare", "yaniv", "--variants", "israeli,nepali", "-n", "30", "--no-skill", "--json")
    data = json.loads(out)
    assert data["answer"][0] == lines[0]


def test_cli_tune_tournament_equilibrium_yaniv_start_with_the_answer(capsys):
    code, out, err = run(capsys, "tune", "yaniv", "--strategy", "threshold", "--param", "call=2,4", "-n", "30",
                         "--no-progress")
    assert code == 0, err
    assert out.lstrip().startswith("Against threshold") and out.index("best value") < out.index("win rate")
    code, out, err = run(capsys, "tournament", "yaniv", "--strategies", "random,threshold", "-n", "30",
                         "--no-progress")
    assert code == 0, err
    assert out.lstrip().startswith("Strongest: threshold")
    assert "threshold" in out and "*" in out.split("Win rate of the row")[1]  # significance marks in the matrix
    code, out, err = run(capsys, "tournament", "yaniv", "--strategies", "random,threshold", "-n", "30", "--json")
    assert json.loads(out)["answer"][0].startswith("Strongest: threshold")
    code, out, err = run(capsys, "equilibrium", "yaniv", "--players", "2", "--family", "threshold", "--param",
                         "call=1,5", "-n", "40", "--bootstrap", "3", "--no-progress")
    assert code == 0, err
    assert out.lstrip().startswith("Play threshold")


# ----- item 8: units -----------------------------------------------------------------------------
def test_units_points_integers_and_no_false_precision_yaniv(capsys):
    from simcards.report.build import digits_for, human
    from simcards.studies.common import fmt_est

    assert fmt_est(0.0, -1e-17, 1e-17, "num") == "0.00 [0.00, 0.00]"
    assert human(1.0, 1.0 - 1e-15, 1.0, "pct") == "100.0% [100.0, 100.0]" and digits_for(0.5, 0.5 + 1e-16, "pct") == 1
    # extra decimals only where they show something: not 100.000% [100.000, 100.000]
    assert human(1.0, 1.0 - 1e-7, 1.0, "pct") == "100.0% [100.0, 100.0]"
    assert fmt_est(1.0, 1.0 - 1e-7, 1.0, "pct") == "100.0% [100.0, 100.0]"
    assert human(0.5, 0.4999, 0.5001, "pct") == "50.000% [49.990, 50.010]"  # a narrow interval keeps its digits
    code, out, err = run(capsys, "tune", "yaniv", "--strategy", "threshold", "--param", "call=4,5", "-n", "30",
                         "--confirm", "0", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["summary"]["best"]["call"] in (4, 5) and isinstance(data["summary"]["best"]["call"], int)
    assert all(isinstance(r["call"], int) for r in data["tables"]["tune"])
    assert "0.00000" not in out
    note = next(n for n in data["notes"] if n.startswith("Best in the sweep"))
    assert " pts [" in note.split("difference")[1]
    code, out, err = run(capsys, "compare", "yaniv", "--variants", "israeli", "-n", "30", "--no-skill", "--json")
    row = next(r for r in json.loads(out)["tables"]["compare"])
    edge = next(v for k, v in row.items() if k.endswith("edge (win rate − fair share)"))
    assert " pts [" in edge and "%" not in edge


def test_presets_are_named_by_name_yaniv(capsys):
    from simcards.studies import tournament

    res = tournament("yaniv", ["threshold", "cautious"], games=20, seed=1)
    assert set(res.tables["ratings"]["strategy"]) == {"threshold", "cautious"}
    assert "cautious" in set(res.tables["pairs"]["strategy"])
    from simcards.report.plots import heatmap_data

    hm = heatmap_data(res.tables["pairs"], "strategy", "opponent", "win_rate")
    assert "cautious" in list(hm.index)


def test_a_tournament_with_a_cost_table_names_presets_there_too_yaniv():
    # strong-play's report: the answer's cost sentence looks the strongest up in the cost table by
    # the name the ratings give it (a preset's name, not its spec): it raised KeyError 'deep'
    from simcards.report.build import answers
    from simcards.studies import tournament

    res = tournament("yaniv", ["cautious", "threshold"], games=20, seed=1, cost="threshold", threads=1)
    assert set(res.tables["cost"]["strategy"]) == {"threshold", "cautious"}
    assert set(res.tables["cost"]["against"]) == {"threshold"}
    (ans,) = answers([res])
    assert "games a second against threshold" in ans["lead"][0]
