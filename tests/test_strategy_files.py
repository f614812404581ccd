"""The top-level ``strategies/`` a user reads and copies (issue 28, item 10): one copy of the presets
and example policies (``strategies`` is a link to the package data ``simcards/data/strategies``,
which the wheel ships), a README on writing a policy, and usage lines whose paths exist from the
repository root and play."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simcards.games import get_game
from simcards.strategy import parse_spec, split_specs

ROOT = Path(__file__).resolve().parents[1]
TOP = ROOT / "strategies"
DATA = ROOT / "simcards" / "data" / "strategies"
GAMES = ("yaniv", "gin", "two-hundred")
# ``--strategy PATH[:name[:k=v]]`` as a usage line writes it (inside backquotes or not)
USAGE = re.compile(r"--strategy\s+`{0,2}([^\s`]+\.(?:py|toml)[^\s`]*)")
NAMED = re.compile(r"(?<![\w./-])((?:simcards/data/)?strategies/[\w./-]+\.(?:py|toml|md))")


def _examples() -> list[Path]:
    return sorted(p for p in DATA.rglob("*") if p.suffix in (".py", ".toml", ".md"))


def test_top_level_strategies_is_the_package_data_one_copy():
    assert TOP.is_symlink(), "strategies/ must be a link to simcards/data/strategies (one copy)"
    assert TOP.resolve() == DATA.resolve() and not DATA.is_symlink()
    for game in GAMES:
        assert sorted(p.name for p in (TOP / game).iterdir()) == sorted(p.name for p in (DATA / game).iterdir())


def test_readme_on_writing_a_policy_has_a_worked_example_per_game():
    text = (TOP / "README.md").read_text()
    for game in GAMES:
        assert f"simcards simulate {game} --strategy strategies/{game}/" in text, game
    assert "register(" in text and "@njit" in text


@pytest.mark.parametrize("path", _examples(), ids=lambda p: str(p.relative_to(DATA)))
def test_every_usage_line_names_a_path_that_exists_from_the_root_and_plays(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    lines = USAGE.findall(path.read_text())
    if path.suffix == ".py":
        assert lines, f"{path.name}: no usage line (--strategy strategies/GAME/FILE.py:name)"
    for line in lines:
        game = path.parent.name if path.parent != DATA else line.split("/")[1]
        for spec in split_specs(line):
            file = spec.split(":")[0]
            if file.endswith((".py", ".toml")):
                assert (ROOT / file).is_file(), f"{path.name}: --strategy {spec}: {file} does not exist from the root"
                assert file.startswith("strategies/"), f"{path.name}: --strategy {spec}: give the path from the root"
            parse_spec(spec, game, get_game(game).families())


def test_the_docs_name_only_example_paths_that_exist():
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for doc in docs:
        for name in NAMED.findall(doc.read_text()):
            assert (ROOT / name).exists(), f"{doc.name} names {name}, which does not exist"
        for spec in USAGE.findall(doc.read_text()):
            file = spec.split(":")[0]
            if "strategies/" in file:
                assert (ROOT / file).is_file(), f"{doc.name}: --strategy {spec}: {file} does not exist"
