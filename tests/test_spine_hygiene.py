"""Hygiene of the spine (issue 14): no import circles, one version, event codes in each game's
layout, rule options declared once (their metadata is checked in test_rule_options.py)."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "simcards"


def _modules() -> dict[str, Path]:
    mods = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        mods[name.removesuffix(".__init__")] = path
    return mods


def _imports(path: Path, mods: dict[str, Path]) -> set[str]:
    """Modules of simcards that ``path`` imports anywhere (top level or inside a function)."""
    deps = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                deps.add(sub if sub in mods else node.module)
        elif isinstance(node, ast.Import):
            deps |= {alias.name for alias in node.names}
    return deps & set(mods)


def _circles() -> list[list[str]]:
    """Strongly connected groups of the import graph. A package importing its own submodules is how
    packages load them (the backends' plug-ins, a game's public names), not a circle."""
    mods = _modules()
    graph = {m: {d for d in _imports(p, mods) if d != m and not d.startswith(m + ".")} for m, p in mods.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_circles_even_through_imports_inside_functions():
    # gin melds.py <-> rules.py (issue 14) and simcards <-> api through `from simcards import __version__`
    assert _circles() == []


def test_one_version_read_from_the_package_metadata():
    from importlib.metadata import version

    import simcards
    from simcards.version import __version__

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert simcards.__version__ == __version__ == version("simcards")
    # no second hard-coded version anywhere in the code, the docs or the README
    pattern = re.compile(rf"(?<![\d.]){re.escape(declared)}(?![\d.])")
    texts = [*PACKAGE.rglob("*.py"), *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]
    assert [p.name for p in texts if pattern.search(p.read_text())] == []


def _assigned_names(path: Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def test_transcript_event_codes_live_in_each_games_layout():
    for game in ("yaniv", "gin", "two_hundred"):
        where = {path.name: {n for n in _assigned_names(path) if n.startswith("EV_") or n == "LOG_WIDTH"}
                 for path in (PACKAGE / "games" / game).glob("*.py")}
        assert {name for name, found in where.items() if found} == {"layout.py"}, game
        codes = sorted(getattr(__import__(f"simcards.games.{game}.layout", fromlist=["x"]), n)
                       for n in where["layout.py"] if n.startswith("EV_"))
        assert codes == list(range(len(codes))), game  # distinct codes 0..n-1
