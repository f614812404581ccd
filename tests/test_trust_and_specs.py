"""Issue 27, items 6 and 8: presets and report specs are code one must trust (a notice on stderr
before a file's code runs, and no code outside the preset's or spec's own directory without
--allow-outside-code); empty strategy specs refused; a TOML boolean is not a number; a
--summary-only run gives the same numbers as the run with the table, bit for bit."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest

import simcards
import simcards.strategy as strategy
from simcards.cli import main
from simcards.errors import SimcardsError
from simcards.games import get_game

# A plug-in that leaves a mark when its code runs (the proof that it ran) and registers a policy.
PLUGIN = """\
from pathlib import Path

from numba import njit

import simcards.strategy

Path(__file__).with_suffix(".ran").write_text("ran")


@njit(cache=False)
def _decide(kind, params, hand, n, opts, n_opts, view, rules, rng):
    return 0


simcards.strategy.register("yaniv", "{name}", _decide)
"""


def _plugin(path: Path, name: str) -> Path:
    """Write a plug-in at ``path`` registering the Yaniv policy ``name``; its mark is path.ran."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(PLUGIN.format(name=name))
    return path


def _ran(path: Path) -> bool:
    return path.with_suffix(".ran").exists()


def _preset(path: Path, plugin: str) -> Path:
    """A preset that loads ``plugin`` and plays the built-in random family (so nothing compiles)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'game = "yaniv"\nfamily = "random"\nplugin = {json.dumps(plugin)}\n')
    return path


def run(capsys, *argv):
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def one_error_line(err: str) -> str:
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.fixture(autouse=True)
def _default_trust():
    """Every test starts with the default: no code outside a preset's or spec's directory."""
    allow = getattr(strategy, "allow_outside_code", lambda flag: None)
    allow(False)
    yield
    allow(False)


# ----- item 6: a preset's plugin ------------------------------------------------------------------
def test_yaniv_preset_plugin_outside_its_directory_is_refused_and_never_runs(tmp_path, capsys):
    code_file = _plugin(tmp_path / "elsewhere" / "outside_up.py", "outside_up")
    preset = _preset(tmp_path / "presets" / "up.toml", "../elsewhere/outside_up.py")
    code, out, err = run(capsys, "replay", "yaniv", "--strategy", str(preset))
    line = one_error_line(err)
    assert code == 2 and not out
    assert str(code_file.resolve()) in line and "--allow-outside-code" in line and str(preset) in line
    assert not _ran(code_file)


def test_yaniv_preset_plugin_by_absolute_path_or_symlink_outside_is_refused(tmp_path, capsys):
    code_file = _plugin(tmp_path / "elsewhere" / "outside_abs.py", "outside_abs")
    preset = _preset(tmp_path / "presets" / "abs.toml", str(code_file.resolve()))
    code, _, err = run(capsys, "replay", "yaniv", "--strategy", str(preset))
    assert code == 2 and "--allow-outside-code" in one_error_line(err) and not _ran(code_file)
    # a link inside the directory to a file outside it is outside, after the link is followed
    linked = _plugin(tmp_path / "elsewhere" / "outside_link.py", "outside_link")
    (tmp_path / "presets" / "inside_link.py").symlink_to(linked)
    preset = _preset(tmp_path / "presets" / "link.toml", "inside_link.py")
    code, _, err = run(capsys, "replay", "yaniv", "--strategy", str(preset))
    assert code == 2 and str(linked.resolve()) in one_error_line(err) and not _ran(linked)


def test_yaniv_preset_plugin_runs_with_the_flag_and_says_so(tmp_path, capsys):
    code_file = _plugin(tmp_path / "elsewhere" / "outside_ok.py", "outside_ok")
    preset = _preset(tmp_path / "presets" / "ok.toml", "../elsewhere/outside_ok.py")
    code, out, err = run(capsys, "replay", "yaniv", "--strategy", str(preset), "--allow-outside-code")
    assert code == 0 and "wins" in out and _ran(code_file)
    assert f"running code from {code_file.resolve()} (named by preset {preset})" in err


def test_yaniv_preset_plugin_inside_its_directory_runs_with_a_notice_unless_quiet(tmp_path, capsys):
    code_file = _plugin(tmp_path / "presets" / "inside_ok.py", "inside_ok")
    preset = _preset(tmp_path / "presets" / "in.toml", "inside_ok.py")
    code, out, err = run(capsys, "replay", "yaniv", "--strategy", str(preset))
    assert code == 0 and _ran(code_file)
    notice = [ln for ln in err.splitlines() if ln.startswith("running code from")]
    assert notice == [f"running code from {code_file.resolve()} (named by preset {preset})"]
    quiet = _plugin(tmp_path / "presets" / "inside_quiet.py", "inside_quiet")
    preset = _preset(tmp_path / "presets" / "quiet.toml", "inside_quiet.py")
    code, out, err = run(capsys, "-q", "replay", "yaniv", "--strategy", str(preset))
    assert code == 0 and _ran(quiet) and "running code" not in err  # -q: errors only, as documented
    # the policies shipped with simcards are part of it: listing them runs no stranger's code
    code, out, err = run(capsys, "strategies", "yaniv")
    assert code == 0 and "greedy" in out and "running code" not in err


def test_a_python_file_named_on_the_command_line_is_explicit_but_announced(tmp_path, capsys):
    code_file = _plugin(tmp_path / "elsewhere" / "direct_cli.py", "direct_cli")
    s = strategy.parse_spec(f"{code_file}:direct_cli", "yaniv", get_game("yaniv").families())
    assert s.family.name == "direct_cli" and _ran(code_file)
    err = capsys.readouterr().err
    assert f"running code from {code_file.resolve()} (named by the strategy spec '{code_file}:direct_cli')" in err


def test_two_plugin_files_with_one_name_are_both_loaded(tmp_path):
    first = _plugin(tmp_path / "a" / "same_stem.py", "same_stem_a")
    second = _plugin(tmp_path / "b" / "same_stem.py", "same_stem_b")
    strategy.load_plugin(first)
    strategy.load_plugin(second)  # was skipped: both were module simcards_user_same_stem
    assert _ran(first) and _ran(second)
    assert {"same_stem_a", "same_stem_b"} <= set(strategy.custom_families("yaniv"))


# ----- item 6: a report spec ------------------------------------------------------------------------
def _report_spec(path: Path, strategies: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(f"""\
        title = "trust"
        [[study]]
        kind = "tournament"
        game = "yaniv"
        strategies = {json.dumps(strategies)}
        games = 2
        """))
    return path


def test_yaniv_report_spec_naming_code_outside_its_directory_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code_file = _plugin(tmp_path / "elsewhere" / "report_out.py", "report_out")
    spec = _report_spec(tmp_path / "specs" / "s.toml", [f"{code_file.resolve()}:report_out", "random"])
    code, _, err = run(capsys, "report", str(spec), "--out", str(tmp_path / "out"))
    line = one_error_line(err)
    assert code == 2 and str(code_file.resolve()) in line and "--allow-outside-code" in line
    assert f"report spec {spec}" in line and not _ran(code_file)
    spec = _report_spec(tmp_path / "specs" / "up.toml", ["../elsewhere/report_out.py:report_out", "random"])
    code, _, err = run(capsys, "report", str(spec), "--out", str(tmp_path / "out"))
    assert code == 2 and "--allow-outside-code" in one_error_line(err) and not _ran(code_file)


def test_a_report_spec_names_files_relative_to_its_own_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # not the spec's directory
    code_file = _plugin(tmp_path / "specs" / "report_in.py", "report_in")
    preset = _preset(tmp_path / "specs" / "p.toml", "report_in.py")
    spec = _report_spec(tmp_path / "specs" / "s.toml", ["report_in.py:report_in,random", "p.toml"])
    from simcards.report import load_spec

    loaded = load_spec(spec)
    assert loaded["study"][0]["strategies"] == [f"{code_file.resolve()}:report_in,random", str(preset.resolve())]
    assert not _ran(code_file)  # loading a spec runs nothing; the study will, with a notice:
    first = strategy.split_specs(loaded["study"][0]["strategies"][0])[0]
    assert strategy.parse_spec(first, "yaniv", get_game("yaniv").families()).family.name == "report_in"
    assert _ran(code_file)


def test_a_report_spec_allowed_outside_code_names_its_spec_in_the_notice(tmp_path, capsys):
    code_file = _plugin(tmp_path / "elsewhere" / "report_allowed.py", "report_allowed")
    spec = _report_spec(tmp_path / "specs" / "s.toml", ["../elsewhere/report_allowed.py:report_allowed", "random"])
    from simcards.report import load_spec

    with pytest.raises(SimcardsError, match="--allow-outside-code"):
        load_spec(spec)
    strategy.allow_outside_code(True)
    loaded = load_spec(spec)
    strategy.parse_spec(loaded["study"][0]["strategies"][0], "yaniv", get_game("yaniv").families())
    err = capsys.readouterr().err
    assert f"running code from {code_file.resolve()} (named by report spec {spec})" in err


@pytest.mark.parametrize("command", [["simulate", "yaniv"], ["replay", "yaniv"], ["compare", "yaniv", "--variants", "israeli"],
                                     ["tune", "yaniv", "--strategy", "threshold", "--param", "call=3,5"],
                                     ["tournament", "yaniv", "--strategy", "random,threshold"],
                                     ["equilibrium", "yaniv", "--strategy", "random,threshold"], ["report", "x"]])
def test_every_command_that_loads_presets_or_specs_has_the_flag(capsys, command):
    code, out, _ = run(capsys, *command, "--help")
    assert code == 0 and "--allow-outside-code" in out


def test_readme_and_docs_say_presets_and_specs_are_code_to_trust():
    root = Path(__file__).resolve().parents[1]
    for doc in ("README.md", "docs/analysis.md"):
        text = " ".join((root / doc).read_text().split())
        assert "like a Makefile" in text and "--allow-outside-code" in text, doc


# ----- item 8: empty specs, a boolean parameter ---------------------------------------------------
@pytest.mark.parametrize("value", ["", "threshold:call=3,,", "threshold:call=3,", ",random", "random,,threshold"])
def test_yaniv_empty_strategy_items_are_refused(capsys, value):
    code, out, err = run(capsys, "simulate", "yaniv", "--games", "1", "--strategy", value)
    line = one_error_line(err)
    assert code == 2 and not out and "empty" in line


def test_empty_items_in_a_study_strategy_list_are_refused(capsys):
    code, _, err = run(capsys, "tournament", "yaniv", "--strategy", "random,,threshold", "--games", "1")
    assert code == 2 and "empty" in one_error_line(err)


@pytest.mark.parametrize("value", ["true", "false"])
def test_a_boolean_in_a_preset_is_not_a_number(tmp_path, capsys, value):
    preset = tmp_path / "b.toml"
    preset.write_text(f'game = "yaniv"\nfamily = "threshold"\n[params]\ncall = {value}\n')
    families = get_game("yaniv").families()
    with pytest.raises(SimcardsError, match="call=.*is not a number"):
        strategy.parse_spec(str(preset), "yaniv", families)
    with pytest.raises(SimcardsError, match="is not a number"):
        strategy.make_strategy(families["threshold"], {"call": np.bool_(True)})
    code, _, err = run(capsys, "replay", "yaniv", "--strategy", str(preset))
    assert code == 2 and "not a number" in one_error_line(err)


# ----- item 8: --summary-only and the table give the same numbers -----------------------------------
def test_gin_tables_summarised_whole_or_in_chunks_give_identical_numbers():
    # the table's summary (play.table_summary) against the streamed sums of the same games cut
    # into chunks, over 40 resampled tables: every bit the same
    from simcards.play import table_summary
    from simcards.stats.aggregate import Aggregator

    gdef = get_game("gin")
    games = simcards.simulate("gin", games=400, seed=5, threads=1).games
    rng = np.random.default_rng(1)
    for _ in range(40):
        df = games.iloc[np.sort(rng.choice(len(games), int(rng.integers(50, 400)), replace=False))]
        agg = Aggregator(gdef, 2)
        total = None
        for part in np.array_split(np.arange(len(df)), 3):
            total = agg.merge(total, agg.partial(df.iloc[part]))
        assert _flat(table_summary(gdef, Aggregator(gdef, 2), df, 2)) == _flat(agg.finish(total))


def _flat(x):
    if hasattr(x, "as_dict"):
        x = x.as_dict()
    if isinstance(x, dict):
        return {k: _flat(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_flat(v) for v in x]
    if isinstance(x, (float, np.floating)):
        return float(x).hex()  # every bit
    return x


def test_gin_summary_only_matches_the_table_run_bit_for_bit():
    # seed 2, 300 games: the table run's gin_rate and wall_rate lower bounds differed from the
    # streamed ones in the last bits (float sums over the table against exact streamed sums)
    kw = dict(games=300, seed=2, threads=1)
    table = simcards.simulate("gin", **kw)
    streamed = simcards.simulate("gin", summary_only=True, **kw)
    assert _flat(table.summary) == _flat(streamed.summary)


