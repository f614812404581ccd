"""``benchmarks/speed_of_light.py``'s arithmetic (issue 31): the lab and simcards take turns, and each
simcards reading is set against the mean of the lab readings just before and after it. Measured
with a stand-in lab whose rates drift at every reading and fixed simcards rates, so the expected
ratios are known; nothing is timed and no engine is compiled."""

from __future__ import annotations

import importlib.util
import statistics
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KEYS = ("yaniv_rounds", "gin_hands", "th_deals")

# A lab whose every rate is 100 * (1 + reading number): 100, 200, 300, ... (a counter file beside it)
FAKE_RATES = """\
import json, pathlib
counter = pathlib.Path(__file__).with_name("readings")
n = int(counter.read_text()) if counter.exists() else 0
counter.write_text(str(n + 1))
print(json.dumps({f"{key}_{t}": 100.0 * (n + 1) for key in %r for t in (1, 2)}))
""" % (KEYS,)


@pytest.fixture
def speed_of_light():
    spec = importlib.util.spec_from_file_location("speed_of_light", ROOT / "benchmarks" / "speed_of_light.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_round_is_set_against_the_lab_readings_around_it(speed_of_light, tmp_path, monkeypatch, capsys):
    (tmp_path / "rates.py").write_text(FAKE_RATES)
    ours = {"yaniv": 60.0, "gin": 300.0, "two-hundred": 150.0}
    monkeypatch.setattr(speed_of_light, "simcards_rate",
                        lambda game, args, count, games, threads, repeats: ours[game] * threads)
    result = speed_of_light.main(["--lab", str(tmp_path), "--rounds", "3", "--json"])
    capsys.readouterr()
    assert result["rounds"] == 3
    for row in result["rows"]:
        assert row["lab_readings"] == [100.0, 200.0, 300.0, 400.0]  # the lab before, between and after
        mine = ours[row["game"]] * row["threads"]
        expected = [mine / 150.0, mine / 250.0, mine / 350.0]  # against (100+200)/2, (200+300)/2, ...
        assert row["ratios"] == pytest.approx(expected)
        assert row["ratio"] == pytest.approx(statistics.median(expected))
        assert row["lab_per_s"] == pytest.approx(250.0)
    for game in ours:
        two = next(r for r in result["rows"] if r["game"] == game and r["threads"] == 2)
        assert two["two_over_one"] == pytest.approx(2.0)


def test_the_table_gives_each_ratio_with_its_range(speed_of_light, tmp_path, monkeypatch, capsys):
    (tmp_path / "rates.py").write_text(FAKE_RATES)
    monkeypatch.setattr(speed_of_light, "simcards_rate", lambda *args: 200.0)
    speed_of_light.main(["--lab", str(tmp_path), "--rounds", "2"])
    out = capsys.readouterr().out
    assert "2 round(s)" in out
    # 200 against (100+200)/2 and (200+300)/2: 1.33 and 0.80, median 1.07
    assert "1.07 [0.80-1.33]" in out


def test_no_lab_and_no_rounds_are_one_line_errors(speed_of_light, tmp_path):
    with pytest.raises(SystemExit, match="no lab kernels"):
        speed_of_light.main(["--lab", str(tmp_path)])
    (tmp_path / "rates.py").write_text(FAKE_RATES)
    with pytest.raises(SystemExit, match="--rounds"):
        speed_of_light.main(["--lab", str(tmp_path), "--rounds", "0"])


def test_each_measurement_plays_about_the_units_of_the_labs_call(speed_of_light, monkeypatch):
    """The games of a timed run are counted from the warm-up run's units a game, so simcards plays
    as many units as the lab's timed call: fixed costs a call weigh the same on both sides."""
    import simcards

    asked = []

    class Run:
        def __init__(self, games):
            self.summary = {"deals": 4.4 * games}

    def simulate(game, games, **kwargs):
        asked.append(games)
        return Run(games)

    monkeypatch.setattr(simcards, "simulate", simulate)
    rate = speed_of_light.simcards_rate("two-hundred", {}, "deals", 800_000, 2, repeats=2)
    assert asked[0] == speed_of_light.WARM_GAMES
    assert asked[1:] == [round(800_000 / 4.4)] * 2
    assert rate > 0
